"""Agents that choose moves."""
