"""A board: a set of spaces, and what its description may give them.

Every board has spaces; the rest is optional: a terrain per space (a board
without terrains has plain spaces), named features on spaces, the tile a
space was drawn from (a board assembled from tiles), and structures: fixed
parts of the board that stand on a space, each side of which is a port
that faces a neighbouring space. Regions (connected spaces of one terrain)
are derived from the terrain.

Nothing here knows a game: terrain names, which terrains count as one
region, and which structures exist all come from data. Spaces are
(row, col) tuples; the text form is a column letter and a 1-based row
("c4"), as on a chess board read from the top. Which spaces touch, the
sides of a structure, and the names come from the board's geometry
(board/geometry.py: square by default; square8, hex, or an explicit graph).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from .geometry import SQUARE, grid_name, parse_grid_name

DIRS = dict(SQUARE.directions)                        # a square board's sides (N, E, S, W) and their steps
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}   # the side facing each of them


def space_name(s) -> str:
    """The name of a space of a square (or hex) board: grid.name(s) where the board is known."""
    return grid_name(s)


def parse_space(text: str):
    """'c4' -> (3, 2); None when the text is not a space name (grid.parse(text) where the board is known)."""
    return parse_grid_name(text)


class Port(NamedTuple):
    """One side of a structure (named by the geometry: N, E, S, W on a square
    board, compass points on square8 and hex, the facing space's name on a
    graph): a node of the connection graph."""

    structure: str
    side: str


@dataclass
class Structure:
    """A fixed part of the board: its id, its kind (one the rulebook declares)
    and the space it stands on."""

    id: str
    kind: str
    space: tuple


@dataclass
class Grid:
    """The static board: its spaces (the keys of `terrain`) and, where the
    description gives them, terrain, features, tiles and structures; the
    regions, neighbours and ports derived from them."""

    terrain: dict                      # space -> terrain name (None: a plain space): every space is a key
    features: dict = field(default_factory=dict)   # space -> frozenset of feature names (spaces with some)
    tiles: dict = field(default_factory=dict)      # space -> id of the tile it was drawn from (tiled boards)
    structures: dict = field(default_factory=dict)  # id -> Structure
    one_region: frozenset = frozenset()  # terrains whose spaces form a single region
    height: int = 0
    width: int = 0
    geometry: object = SQUARE

    def __post_init__(self):
        self.spaces = tuple(sorted(self.terrain))
        self.memo = {}      # values derived from the board alone, filled by the primitives that use them
        self.space_set = frozenset(self.spaces)
        self.structure_at = {st.space: st.id for st in self.structures.values()}
        geo = self.geometry
        # orth: each space's neighbours (orthogonal on a square board), ring: the spaces around it
        self.orth = {s: tuple(n for n in geo.adjacent(s) if n in self.space_set) for s in self.spaces}
        self.ring = {s: tuple(n for n in geo.around(s) if n in self.space_set) for s in self.spaces}
        self._regions()
        self.ports = {}
        self.port_faces = {}
        for st in self.structures.values():
            ps = []
            for d, face in geo.port_faces(st.space):
                port = Port(st.id, d)
                ps.append(port)
                self.port_faces[port] = face if face in self.space_set and face not in self.structure_at else None
            self.ports[st.id] = tuple(ps)
        self.port_set = frozenset(self.port_faces)
        # which ports face a space, for linking
        self.ports_facing = {}
        for port, face in self.port_faces.items():
            if face is not None:
                self.ports_facing.setdefault(face, []).append(port)
        self.ports_facing = {k: tuple(v) for k, v in self.ports_facing.items()}

    def _regions(self):
        """Maximal same-terrain orthogonal components; structure spaces split
        them (a terrain in `one_region` is one region wherever its spaces lie).
        Regions are numbered in the order of their first spaces."""
        terrain = self.terrain
        open_ = [s for s in self.spaces if s not in self.structure_at]
        found = list(self.parts((s for s in open_ if terrain[s] not in self.one_region),
                                lambda a, b: terrain[a] == terrain[b]))
        for t in sorted(self.one_region):
            members = tuple(s for s in open_ if terrain[s] == t)
            if members:
                found.append(members)
        found.sort()
        self.region_of = {}
        self.region_spaces = []
        self.region_terrain = []
        for rid, members in enumerate(found):
            self.region_spaces.append(members)
            self.region_terrain.append(terrain[members[0]])
            for x in members:
                self.region_of[x] = rid

    def name(self, s) -> str:
        """The text name of a space ("c4", or a graph space's own name)."""
        return self.geometry.name(s)

    def parse(self, text: str):
        """The space a name stands for (None when the text is no space name;
        on a grid, coordinates that may lie off this board)."""
        return self.geometry.parse(text) if isinstance(text, str) else None

    def distance(self, a, b):
        return self.geometry.distance(a, b)

    def parts(self, spaces, linked=None) -> tuple:
        """The connected parts of a set of spaces, each a sorted
        tuple, in the order of their first spaces; `linked(a, b)`, when
        given, says which neighbours join."""
        todo = set(spaces)
        out = []
        for start in self.spaces:          # board order: the result does not depend on the input's order
            if start not in todo:
                continue
            todo.discard(start)
            part, stack = [start], [start]
            while stack:
                x = stack.pop()
                for n in self.orth[x]:
                    if n in todo and (linked is None or linked(x, n)):
                        todo.discard(n)
                        part.append(n)
                        stack.append(n)
            out.append(tuple(sorted(part)))
        return tuple(out)
