"""A square grid of spaces with terrain, features, tiles and structures.

Nothing here knows a game: terrain names, which terrains count as one
region, and which structures exist all come from data. Spaces are
(row, col) tuples; the text form is a column letter and a 1-based row
("c4"), as on a chess board read from the top.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

DIRS = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


def space_name(s) -> str:
    r, c = s
    return f"{_col_letters(c)}{r + 1}"


def _col_letters(c: int) -> str:
    out = ""
    c += 1
    while c:
        c, rem = divmod(c - 1, 26)
        out = chr(ord("a") + rem) + out
    return out


def parse_space(text: str):
    """'c4' -> (3, 2); None when the text is not a space name."""
    i = 0
    while i < len(text) and "a" <= text[i] <= "z":
        i += 1
    if i == 0 or i == len(text) or not (text[i:].isascii() and text[i:].isdigit()):
        return None
    col = 0
    for ch in text[:i]:
        col = col * 26 + (ord(ch) - ord("a") + 1)
    row = int(text[i:])
    if row < 1:
        return None
    return (row - 1, col - 1)


class Port(NamedTuple):
    """One side of a structure: a node of the connection graph."""

    structure: str
    side: str


@dataclass
class Structure:
    id: str
    kind: str
    space: tuple


@dataclass
class Grid:
    """The static board: terrain per space, features, tiles, structures, regions."""

    terrain: dict                      # space -> terrain name
    features: dict = field(default_factory=dict)   # space -> frozenset of feature names
    tiles: dict = field(default_factory=dict)      # space -> tile id
    structures: dict = field(default_factory=dict)  # id -> Structure
    one_region: frozenset = frozenset()  # terrains whose spaces form a single region
    height: int = 0
    width: int = 0

    def __post_init__(self):
        self.spaces = tuple(sorted(self.terrain))
        self.memo = {}      # values derived from the board alone, filled by the primitives that use them
        self.space_set = frozenset(self.spaces)
        self.structure_at = {st.space: st.id for st in self.structures.values()}
        self.orth = {s: tuple(n for n in _around(s, 4) if n in self.space_set) for s in self.spaces}
        self.ring = {s: tuple(n for n in _around(s, 8) if n in self.space_set) for s in self.spaces}
        self._regions()
        self.ports = {}
        self.port_faces = {}
        for st in self.structures.values():
            ps = []
            for d, (dr, dc) in DIRS.items():
                port = Port(st.id, d)
                ps.append(port)
                face = (st.space[0] + dr, st.space[1] + dc)
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

    def parts(self, spaces, linked=None) -> tuple:
        """The orthogonally connected parts of a set of spaces, each a sorted
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

def _around(s, n):
    r, c = s
    if n == 4:
        return ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1))
    return tuple((r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
