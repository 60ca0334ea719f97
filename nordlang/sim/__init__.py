"""Simulation and comparison of rule sets."""
