"""The generic standard library: board, zone, graph and score primitives.

These are the words rulebooks are written in. None of them knows a game:
a rulebook names its terrains, pieces, zones and structures, and these
primitives work on whatever it names. Each module registers its words in
the one registry, STD, when it is imported.
"""

from . import board, effects, graph, grids, lines, zones  # noqa: F401  (they register their primitives)
from .registry import STD
from .subsets import GROUPS_LIMIT, connected_subsets

__all__ = ["STD", "GROUPS_LIMIT", "connected_subsets"]
