"""Hex 11x11, written by hand in plain Python: a speed reference for nordlang.

The rules of ../../rulebook/hex/hex.yaml written directly: two players place
a stone in turn on an open cell of an 11 x 11 rhombus of hexagons; red
(player 0, first to move) wins by joining the top and bottom rows with a
chain of red stones, blue (player 1) by joining the left and right
columns; a corner cell lies on both sides it touches. The cells are
numbered row by row (cell r * 11 + q is row r + 1, column q + 1: nordlang's
space named by column letter and row number, "a1" the top-left corner);
(r, q) touches (r, q +- 1), (r - 1, q), (r - 1, q + 1), (r + 1, q - 1),
(r + 1, q), as nordlang's hex geometry. Chains are kept in a union-find
(path halving, union by size) with four virtual cells for the sides, so
the winner is known after each stone in near-constant time.

Random play chooses uniformly among the open cells, the way one would
write it for this one game in a day: `legal_moves()` is the list of open
cells (kept by swap-remove: its order is not the board's), `play_index(i)`
places a stone on its i-th entry. It imports nothing from nordlang;
bench/hexbench.py times it against nordlang's Hex and OpenSpiel's.
"""

from __future__ import annotations

import random

SIZE = 11
CELLS = SIZE * SIZE
TOP, BOTTOM, LEFT, RIGHT = CELLS, CELLS + 1, CELLS + 2, CELLS + 3


def _neighbours(i):
    r, q = divmod(i, SIZE)
    out = []
    for dr, dq in ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, -1), (1, 0)):
        rr, qq = r + dr, q + dq
        if 0 <= rr < SIZE and 0 <= qq < SIZE:
            out.append(rr * SIZE + qq)
    return tuple(out)


NEIGHBOURS = tuple(_neighbours(i) for i in range(CELLS))
# the sides a cell lies on, for each player: red's top and bottom, blue's left and right
SIDES = tuple(
    (tuple(s for s, on in ((TOP, i // SIZE == 0), (BOTTOM, i // SIZE == SIZE - 1)) if on),
     tuple(s for s, on in ((LEFT, i % SIZE == 0), (RIGHT, i % SIZE == SIZE - 1)) if on))
    for i in range(CELLS))


def cell_name(i: int) -> str:
    """nordlang's name of cell i ("a1" .. "k11")."""
    r, q = divmod(i, SIZE)
    return f"{chr(ord('a') + q)}{r + 1}"


def cell_of(name: str) -> int:
    """The cell nordlang names `name`."""
    return (int(name[1:]) - 1) * SIZE + ord(name[0]) - ord("a")


class Hex:
    """One game of 11x11 Hex."""

    __slots__ = ("owner", "parent", "size", "open", "where", "player", "winner", "moves")

    def __init__(self):
        self.owner = [-1] * CELLS                   # -1 open, else the player whose stone lies there
        self.parent = list(range(CELLS + 4))        # union-find over the cells and the four sides
        self.size = [1] * (CELLS + 4)
        self.open = list(range(CELLS))              # the open cells (legal moves), in no fixed order
        self.where = list(range(CELLS))             # cell -> its index in self.open
        self.player = 0
        self.winner = None
        self.moves = 0

    @property
    def over(self) -> bool:
        return self.winner is not None

    def legal_moves(self) -> list:
        """The open cells (the list itself: read it, do not keep it)."""
        return [] if self.winner is not None else self.open

    def play_index(self, i: int) -> None:
        """Place the mover's stone on the i-th open cell of legal_moves()."""
        open_ = self.open
        cell = open_[i]
        last = open_.pop()                          # swap-remove the cell from the open list
        if last != cell:
            open_[i] = last
            self.where[last] = i
        self._place(cell)

    def play_cell(self, cell: int) -> None:
        """Place the mover's stone on `cell`, which must be open."""
        if self.winner is not None or self.owner[cell] != -1:
            raise ValueError(f"{cell_name(cell)} is not a legal move")
        open_, where = self.open, self.where
        i = where[cell]
        last = open_.pop()
        if last != cell:
            open_[i] = last
            where[last] = i
        self._place(cell)

    def _place(self, cell):
        p = self.player
        owner, parent, size = self.owner, self.parent, self.size
        owner[cell] = p
        root = cell                                 # the root of the cell's chain, merged as it grows
        for n in NEIGHBOURS[cell] + SIDES[cell][p]:
            if n < CELLS and owner[n] != p:
                continue
            while parent[n] != n:                   # find, with path halving
                parent[n] = parent[parent[n]]
                n = parent[n]
            if n != root:                           # union by size
                if size[n] > size[root]:
                    n, root = root, n
                parent[n] = root
                size[root] += size[n]
        self.moves += 1
        a, b = (TOP, BOTTOM) if p == 0 else (LEFT, RIGHT)
        while parent[a] != a:
            a = parent[a]
        while parent[b] != b:
            b = parent[b]
        if a == b:
            self.winner = p
        self.player = 1 - p


def random_game(rng: random.Random) -> Hex:
    """A complete game of uniform random moves."""
    g = Hex()
    while g.winner is None:
        g.play_index(rng.randrange(len(g.legal_moves())))
    return g


if __name__ == "__main__":
    import sys
    import time

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    rng = random.Random(1)
    t = time.perf_counter()
    games = [random_game(rng) for _ in range(n)]
    secs = time.perf_counter() - t
    print(f"{n / secs:.0f} games/s; {sum(g.moves for g in games) / n:.1f} moves/game; "
          f"red won {sum(g.winner == 0 for g in games) / n:.1%}")
