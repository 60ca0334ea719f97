"""The connection graph's components kept as masks, and the searches that
take short cuts: against answers made from scratch."""

import random

import nordlang
from nordlang.board.graph import Links
from nordlang.board.masks import bit_layout
from nordlang.engine.library.graph import _linked_pairs
from nordlang.engine.library.subsets import _board_masks, _grow, _grow_free


def _nord_board():
    rules = nordlang.load_rules("nord", 4)
    grid = rules.grid
    return grid, [s for s in grid.spaces if s not in grid.structure_at]


def _check(links, occ, grid):
    ref = Links(grid, frozenset(occ))
    assert sorted(links.comps) == sorted(ref.comps)
    assert links.around == ref.around
    # each structure's mask is the union of the components holding a face of it
    mk = bit_layout(grid)
    for sid, _faces, fm in mk.facing:
        assert links.around[sid] == sum(c for c in ref.comps if c & fm)


def test_pieces_placed_together_or_lifted_settle_as_links_built_afresh():
    """Batches of pieces placed next to each other (they join what is
    around them into one component: no split), apart (split), one piece
    lifted with one occupied neighbour or none (what is left hangs
    together), or with more (split), and mixes of those, settled after each
    batch: the components and each structure's mask equal a new build."""
    grid, free = _nord_board()
    orth = grid.orth
    rng = random.Random(4)
    occ = set(rng.sample(free, 30))
    links = Links(grid, frozenset(occ))
    kinds = {"together": 0, "apart": 0, "leaf": 0, "inner": 0, "mixed": 0}
    for _ in range(1500):
        roll = rng.random()
        if roll < 0.3:          # a connected run of 2 or 3 open spaces
            run = [rng.choice([s for s in free if s not in occ])]
            while len(run) < rng.randrange(2, 4):
                nxt = [n for s in run for n in orth[s] if n in free and n not in occ and n not in run]
                if not nxt:
                    break
                run.append(rng.choice(nxt))
            batch = [("add", s) for s in run]
            kinds["together"] += len(run) > 1
        elif roll < 0.45:       # two open spaces far apart
            a, b = rng.sample([s for s in free if s not in occ], 2)
            batch = [("add", a), ("add", b)]
            kinds["apart"] += b not in orth[a]
        elif roll < 0.8 and occ:     # one piece lifted
            s = rng.choice(sorted(occ))
            batch = [("lift", s)]
            kinds["leaf" if sum(n in occ for n in orth[s]) < 2 else "inner"] += 1
        elif occ:               # a lift and a placement
            s = rng.choice(sorted(occ))
            batch = [("lift", s), ("add", rng.choice([t for t in free if t not in occ and t != s]))]
            kinds["mixed"] += 1
        else:
            continue
        for op, s in batch:
            if op == "add":
                occ.add(s)
                links = links.added(s)
            else:
                occ.discard(s)
                links = links.removed(s)
        _check(links, occ, grid)
        if len(occ) > 60:       # (keep the board from filling up)
            for s in rng.sample(sorted(occ), 20):
                occ.discard(s)
                links = links.removed(s)
            _check(links, occ, grid)
    assert min(kinds.values()) > 50, kinds


def test_groups_with_no_region_limit_equal_the_counting_search():
    """_grow_free (no regions counted, the largest sets added as found)
    finds, size by size, exactly the sets the general search finds with a
    limit no set can pass, on Nord's board."""
    grid, free = _nord_board()
    layout = bit_layout(grid)
    spaces, bit, nbr, reg, within = _board_masks(grid.orth, grid.region_of, {}, layout.bit)[:5]
    rng = random.Random(8)
    regions = len(set(grid.region_of.values())) + 1
    found = 0
    for _ in range(300):
        ok = sum(bit[s] for s in free if rng.random() < 0.6)
        roots = sum(bit[s] for s in free if rng.random() < 0.15) & ok
        hi = rng.randrange(1, 5)
        got = _grow_free(roots, ok, nbr, hi)
        want = _grow(roots, ok, nbr, reg, within, hi, regions)
        assert [sorted(g) for g in got] == [sorted(g) for g in want]
        assert _grow(roots, ok, nbr, reg, within, hi, len(nbr) + 1) == got     # (_grow hands over to it)
        found += sum(map(len, got))
    assert found > 10_000


def test_linked_pairs_are_those_that_share_a_component():
    """Structures touching random sets of disjoint components (none, one,
    two: a structure on two components links to those on either, which
    are not linked to each other): the pairs are exactly those that share
    a component."""
    rng = random.Random(2)
    overlapping = 0
    for _ in range(2000):
        comps = [1 << i for i in range(rng.randrange(1, 5))]
        sids = tuple(f"s{i}" for i in range(rng.randrange(2, 8)))
        masks = tuple(sum(rng.sample(comps, rng.choice([0, 1, 1, 1, 2]) if len(comps) > 1 else 1)) for _ in sids)
        got = _linked_pairs(sids, masks)
        want = {(a, b) for a, m in zip(sids, masks) for b, n in zip(sids, masks) if a != b and m & n}
        assert got == want, (sids, masks)
        overlapping += any(m & n and m != n for m in masks for n in masks)
    assert overlapping > 300
