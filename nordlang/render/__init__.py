"""Pictures of positions."""
