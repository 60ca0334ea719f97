"""Loops over a mask's bits take the highest bit first (masks._ones): the
spaces of a mask still come in the bits' order, and the groups found are
those of a plain search, in the answer's order."""

import random

import pytest

import nordlang
from nordlang.board.masks import _ones, bit_layout
from nordlang.engine.library.subsets import _board_masks, _subsets


def test_a_masks_spaces_come_in_board_order():
    rules = nordlang.load_rules("nord", 4)
    mk = bit_layout(rules.grid)
    order = sorted(rules.grid.spaces, key=lambda s: mk.bit[s])
    rng = random.Random(2)
    for _ in range(200):
        chosen = [s for s in order if rng.random() < 0.3]
        m = sum(mk.bit[s] for s in chosen)
        assert mk.members(m) == tuple(chosen)
    assert mk.members(0) == ()


@pytest.mark.parametrize("game", ["nord", "hex", "connect-four", "tictactoe"])
def test_the_bits_order_is_the_spaces_sorted_order(game):
    # (a player's spaces, listed from his mask, then need no sorting: zones.py _owned_spaces)
    rules = nordlang.load_rules(game)
    mk = bit_layout(rules.grid)
    assert rules.grid.spaces and sorted(rules.grid.spaces, key=lambda s: mk.bit[s]) == sorted(rules.grid.spaces)


def test_the_table_of_bits_grows_as_asked():
    ones = _ones(300)
    assert len(ones) >= 300 and all(ones[i] == 1 << i for i in range(300))


def _plain_groups(orth, region_of, ok, roots, lo, hi, limit):
    """Every connected set of ok's spaces, lo..hi of them, with a root, in at
    most `limit` regions: grown one neighbour at a time, sorted by size then
    by the spaces' order."""
    found, layer = set(), {frozenset([s]) for s in roots}
    for size in range(1, hi + 1):
        found |= {g for g in layer if size >= lo and len({region_of.get(s) for s in g}) <= limit}
        layer = {g | {n} for g in layer for s in g for n in orth[s] if n in ok and n not in g}
        layer = {g for g in layer if len({region_of.get(s) for s in g}) <= limit}
    return found


def test_groups_equal_a_plain_search():
    rules = nordlang.load_rules("nord", 4)
    grid = rules.grid
    mk = bit_layout(grid)
    pre = _board_masks(grid.orth, grid.region_of, {}, mk.bit)
    free = [s for s in grid.spaces if s not in grid.structure_at]
    rng = random.Random(5)
    checked = 0
    for _ in range(150):
        ok = {s for s in free if rng.random() < 0.6}
        roots = {s for s in ok if rng.random() < 0.2}
        lo, hi, limit = rng.randrange(1, 3), rng.randrange(1, 4), rng.choice([1, 2, None])
        got = _subsets(pre, sum(pre[1][s] for s in ok), lo, hi, frozenset(roots), limit)
        want = _plain_groups(grid.orth, grid.region_of, ok, roots, lo, hi, limit or 99)
        assert set(got) == want and len(got) == len(want)
        assert list(got) == sorted(got, key=lambda g: (len(g), sum(pre[1][s] for s in g)))
        checked += len(got)
    assert checked > 1000
