"""The board: a grid of spaces with terrain and regions, and its connection graph."""
