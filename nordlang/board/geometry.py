"""The shape of a board: which spaces touch, how far apart they are, what
they are called, and where they are drawn.

A board declares its geometry (default `square`):

- `square`: spaces (row, col); four neighbours (N, E, S, W), eight around.
- `square8`: the same spaces; eight neighbours (kings' moves).
- `hex`: axial coordinates (row r, column q), pointy-topped hexagons, each
  row drawn half a cell right of the one above (the standard Hex board):
  (r, q) touches (r, q±1), (r-1, q), (r-1, q+1), (r+1, q-1), (r+1, q).
  Shapes: `rhombus` (R x C, as Hex's 11 x 11: a1 is the top-left corner,
  k11 the bottom-right) and `hexagon` of side n, the same axial cells with
  two corners cut off: those with n-1 <= r + q <= 3n-3 of a (2n-1)-square
  rhombus, so its top row is named from the n-th letter (side 3: c1 d1 e1,
  then b2..e2, a3..e3, a4..d4, a5..c5).
- `graph`: named spaces and the edges between them; space k (in the order
  listed) is (0, k).

Square and hex spaces are named as on a chess board read from the top:
column letters then the 1-based row ("c4" is row 4, column 3).
"""

from __future__ import annotations

import math
from collections import deque

SQRT3 = math.sqrt(3)


def col_letters(c: int) -> str:
    out = ""
    c += 1
    while c:
        c, rem = divmod(c - 1, 26)
        out = chr(ord("a") + rem) + out
    return out


def grid_name(s) -> str:
    r, c = s
    return f"{col_letters(c)}{r + 1}"


def parse_grid_name(text: str):
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


class Square:
    """Spaces (row, col) on a square grid; orthogonal adjacency."""

    kind = "square"
    # port sides, in order, and the step each faces
    directions = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
    ring_steps = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
    name_hint = "a column letter and a row number, like c4"

    def __init__(self):
        self.steps = tuple(self.directions.values())

    def adjacent(self, s) -> tuple:
        """The spaces next to s (some may be off the board)."""
        r, c = s
        return tuple((r + dr, c + dc) for dr, dc in self.steps)

    def around(self, s) -> tuple:
        """The spaces around s, for `surroundings` (some may be off the board)."""
        r, c = s
        return tuple((r + dr, c + dc) for dr, dc in self.ring_steps)

    def port_faces(self, s) -> tuple:
        """(side, the space that side faces) for a structure on s."""
        r, c = s
        return tuple((d, (r + dr, c + dc)) for d, (dr, dc) in self.directions.items())

    def distance(self, a, b) -> int:
        return abs(a[0] - b[0]) + abs(a[1] - b[1])

    def name(self, s) -> str:
        return grid_name(s)

    def parse(self, text: str):
        return parse_grid_name(text)

    def shifts(self, row: int) -> tuple:
        """The bit offsets of the neighbours in a row-major mask with `row` bits
        a row (one spare column: no shift below wraps into the next row)."""
        return tuple(dr * row + dc for dr, dc in self.steps if dr * row + dc > 0)

    def center(self, s) -> tuple:
        """Where s is drawn, in cells: (x, y) of its middle."""
        return (s[1] + 0.5, s[0] + 0.5)

    def polygon(self, s) -> tuple:
        x, y = s[1], s[0]
        return ((x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1))

    def describe(self) -> str:
        return self.kind


class Square8(Square):
    """A square grid where diagonal neighbours touch too."""

    kind = "square8"
    directions = {"N": (-1, 0), "NE": (-1, 1), "E": (0, 1), "SE": (1, 1), "S": (1, 0), "SW": (1, -1),
                  "W": (0, -1), "NW": (-1, -1)}

    def distance(self, a, b) -> int:
        return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


class Hex(Square):
    """Axial hex cells (row r, column q); `shape` and `size` are the board's
    (kept for describing it: which cells exist is the map's business)."""

    kind = "hex"
    directions = {"NW": (-1, 0), "NE": (-1, 1), "E": (0, 1), "SE": (1, 0), "SW": (1, -1), "W": (0, -1)}
    ring_steps = tuple(directions.values())

    def __init__(self, shape: str = "rhombus"):
        super().__init__()
        self.shape = shape

    def distance(self, a, b) -> int:
        dr, dq = a[0] - b[0], a[1] - b[1]
        return (abs(dr) + abs(dq) + abs(dr + dq)) // 2

    def center(self, s) -> tuple:
        r, q = s
        return (q + r / 2 + 0.5, r * SQRT3 / 2 + 1 / SQRT3)

    def polygon(self, s) -> tuple:
        x, y = self.center(s)
        k = 1 / SQRT3           # a cell is 1 wide: its corners lie 1/sqrt(3) from the middle
        return tuple((x + k * math.cos(a), y + k * math.sin(a))
                     for a in (math.pi / 6 + math.pi / 3 * i for i in range(-2, 4)))

    def describe(self) -> str:
        return f"hex {self.shape}"

    def cells(self, size) -> list:
        """The cells of this shape: size (rows, columns) of a rhombus or the side of a hexagon."""
        if self.shape == "rhombus":
            rows, cols = size
            return [(r, q) for r in range(rows) for q in range(cols)]
        n = size
        return [(r, q) for r in range(2 * n - 1) for q in range(2 * n - 1) if n - 1 <= r + q <= 3 * n - 3]

    def first_column(self, r: int, size) -> int:
        """The column of row r's first cell (where a map row starts)."""
        return 0 if self.shape == "rhombus" else max(0, size - 1 - r)


HEX_SHAPES = ("rhombus", "hexagon")


class Graph:
    """Named spaces and the edges between them. Space k is (0, k): spaces
    stay tuples as on a grid, so nothing mistakes one for a structure id."""

    kind = "graph"
    name_hint = "the name of a space of the graph"

    def __init__(self, names, edges, positions=None):
        self.names = tuple(names)                        # index -> name
        self.index = {n: (0, k) for k, n in enumerate(self.names)}
        near = {s: [] for s in self.index.values()}
        for a, b in edges:
            sa, sb = self.index[a], self.index[b]
            if sa != sb and sb not in near[sa]:
                near[sa].append(sb)
                near[sb].append(sa)
        self.near = {s: tuple(sorted(ns)) for s, ns in near.items()}
        self.positions = positions or {}
        self._far: dict = {}

    def adjacent(self, s) -> tuple:
        return self.near.get(s, ())

    around = adjacent

    def port_faces(self, s) -> tuple:
        """One port per edge, named after the space it faces."""
        return tuple((self.names[n[1]], n) for n in self.near.get(s, ()))

    def distance(self, a, b):
        """The fewest edges between a and b; None when no path joins them."""
        far = self._far.get(a)
        if far is None:
            far = self._far[a] = {a: 0}
            todo = deque([a])
            while todo:
                x = todo.popleft()
                for n in self.near[x]:
                    if n not in far:
                        far[n] = far[x] + 1
                        todo.append(n)
        return far.get(b)

    def name(self, s) -> str:
        r, k = s
        return self.names[k] if r == 0 and 0 <= k < len(self.names) else f"({r}, {k})"

    def parse(self, text: str):
        return self.index.get(text)

    def shifts(self, row: int):
        return None                                       # no shifts: a table of neighbours

    def center(self, s) -> tuple:
        """The position given for s, or a place on a circle."""
        pos = self.positions.get(self.names[s[1]])
        if pos is not None:
            return (float(pos[0]), float(pos[1]))
        n = len(self.names)
        a = 2 * math.pi * s[1] / max(n, 1) - math.pi / 2
        radius = max(1.0, n / (2 * math.pi) * 1.2)
        return (radius + 0.5 + radius * math.cos(a), radius + 0.5 + radius * math.sin(a))

    def polygon(self, s) -> tuple:
        x, y = self.center(s)
        k = 0.38
        return tuple((x + k * math.cos(a), y + k * math.sin(a)) for a in (math.pi / 8 * i for i in range(16)))

    def describe(self) -> str:
        return self.kind


SQUARE = Square()
GEOMETRIES = ("square", "square8", "hex", "graph")


def make(kind: str, shape: str | None = None):
    """The geometry named `kind` (a graph is made by Graph itself)."""
    if kind == "square":
        return SQUARE
    if kind == "square8":
        return Square8()
    if kind == "hex":
        return Hex(shape or "rhombus")
    raise ValueError(kind)
