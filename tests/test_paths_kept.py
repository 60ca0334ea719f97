"""Shortest chains kept per board by the components both structures touch
(Links.shortest_paths): a board with other pieces elsewhere gets the same
chains as one worked out afresh, and is charged the same."""

import random

import nordlang
from nordlang.board.graph import Links
from nordlang.lang.budget import Budget


class _Counted(Budget):
    """A budget that adds up what it is charged."""

    def __init__(self):
        super().__init__(10**9)
        self.drawn = 0

    def charge(self, n: int) -> None:
        self.drawn += n
        super().charge(n)


def _fresh(grid, occ, a, b):
    """(chains, charge) of a board that keeps nothing yet."""
    kept = grid.memo.pop("paths by components", None)
    try:
        budget = _Counted()
        return Links(grid, frozenset(occ)).shortest_paths(a, b, budget), budget.drawn
    finally:
        if kept is not None:
            grid.memo["paths by components"] = kept


def test_chains_kept_by_the_components_both_touch_equal_those_made_afresh():
    """Random boards of Nord, pieces added and lifted one at a time: the
    chains between each pair of structures, and their charge, from the
    links (which find many kept by other boards) equal a fresh search's."""
    rules = nordlang.load_rules("nord", 4)
    grid = rules.grid
    free = [s for s in grid.spaces if s not in grid.structure_at]
    sids = sorted(grid.ports)
    pairs = [(a, b) for a in sids[:4] for b in sids[:4] if a != b]
    rng = random.Random(3)
    occ = set(rng.sample(free, 45))
    links = Links(grid, frozenset(occ))
    reused = found = 0
    for step in range(150):
        s = rng.choice(free)
        if s in occ:
            occ.discard(s)
            links = links.removed(s)
        else:
            occ.add(s)
            links = links.added(s)
        for a, b in pairs:
            kept_before = len(grid.memo.get("paths by components", ()))
            budget = _Counted()
            got = links.shortest_paths(a, b, budget)
            want, charge = _fresh(grid, occ, a, b)
            assert (got, budget.drawn) == (want, charge), (step, a, b)
            if got:
                found += 1
                reused += 0 < kept_before == len(grid.memo.get("paths by components", ()))
    assert found > 80 and reused > 40, (found, reused)
