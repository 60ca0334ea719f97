"""The board: its spaces (with optional terrain, features, tiles and structures
with ports), their geometry, and the connection graph."""
