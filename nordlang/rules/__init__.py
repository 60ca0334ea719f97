"""Rulebooks: YAML with positions, schemas, variant overlays, compiling."""
