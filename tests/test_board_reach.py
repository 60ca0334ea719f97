"""A structure's frontier carried from one occupancy to the next, and sets
of spaces joined on their masks: the same answers as worked out afresh, on
boards of every geometry and on positions from real games."""

import random

import pytest

import nordlang
from nordlang.board.geometry import Graph, make
from nordlang.board.graph import Links, open_around
from nordlang.board.grid import Grid, Structure
from nordlang.board.masks import bit_layout
from nordlang.lang.builtins import CORE


def _board(kind, seed):
    """A board of 6 x 7 spaces (a ring of 30 for a graph, with chords),
    with structures on a few of them."""
    rng = random.Random(seed)
    if kind == "graph":
        names = [f"n{k}" for k in range(30)]
        edges = [(names[k], names[(k + 1) % 30]) for k in range(30)]
        edges += [(rng.choice(names), rng.choice(names)) for _ in range(12)]
        geo = Graph(names, edges)
        spaces = list(geo.index.values())
    else:
        geo = make(kind)
        spaces = [(r, c) for r in range(6) for c in range(7)]
    sites = rng.sample(spaces, 5)
    structures = {f"s{k}": Structure(f"s{k}", "hall", s) for k, s in enumerate(sites)}
    return Grid({s: None for s in spaces}, structures=structures, geometry=geo)


def _fresh_frontier(grid, nodes, sid):
    """The structure's frontier from the components as sets of nodes."""
    comp = Links(grid, nodes).comp
    whole = set().union(*(comp[p] for p in grid.ports[sid]))
    return open_around(grid, nodes, whole)


@pytest.mark.parametrize("kind", ["square", "square8", "hex", "graph"])
def test_carried_frontiers_equal_fresh_ones(kind):
    """Links derived from any earlier links (as a game's probes branch off
    its positions), pieces placed and lifted one or more at a time, some
    structures asked and some not: every frontier equals a fresh one, and
    many were carried over rather than worked out again."""
    carried = 0
    for seed in range(6):
        grid = _board(kind, seed)
        mk = bit_layout(grid)
        rng = random.Random(seed)
        open_ = [s for s in grid.spaces if s not in grid.structure_at]
        pool = [Links(grid, frozenset())]
        for _ in range(300):
            links = rng.choice(pool[-8:] if rng.random() < 0.8 else pool)
            for _ in range(rng.choice((1, 1, 1, 2, 3))):
                s = rng.choice(open_)
                links = links.removed(s) if s in links.nodes else links.added(s)
            pool.append(links)
            for sid in rng.sample(sorted(grid.structures), 3):
                last = mk.fronts.get(sid)       # (occupancy, halo, frontier) last worked out
                if sid not in links.memo and last is not None and last[0] != links.occ \
                        and not (last[0] ^ links.occ) & last[1]:
                    carried += 1
                got = links.structure_frontier(sid)
                assert got == _fresh_frontier(grid, links.nodes, sid), (kind, seed, sid)
    assert carried > 300


@pytest.mark.parametrize("players", [2, 4])
def test_frontiers_in_games_equal_fresh_ones(players):
    """Nord's frontiers at every position of random games, its probes
    between them carrying theirs too."""
    rules = nordlang.load_rules("nord", players)
    grid = rules.grid
    checked = 0
    for seed in range(3):
        g = nordlang.Game(rules, seed)
        rng = random.Random(seed)
        while not g.over:
            g.play_index(rng.randrange(len(g.legal_moves())))
            nodes = g.state.links.nodes
            for sid in grid.structures:
                assert g.state.links.structure_frontier(sid) == _fresh_frontier(grid, nodes, sid)
                checked += 1
    assert checked > 1000


class _Ctx:
    budget = None


def test_union_of_sets_made_from_masks():
    """union() of sets the board made from masks joins their masks: the
    same value as a union of their members, the board's own set for the
    mask; with any other set among them, the members' union."""
    union = CORE.get("union").fn
    grid = _board("hex", 1)
    mk = bit_layout(grid)
    rng = random.Random(5)
    for _ in range(200):
        masks = [sum(mk.bit[s] for s in rng.sample(grid.spaces, rng.randrange(0, 6))) for _ in range(4)]
        sets = tuple(mk.spaces(m) for m in masks)
        ref = frozenset().union(*sets)
        got = union(_Ctx, sets)
        assert got == ref
        assert got is mk.spaces(masks[0] | masks[1] | masks[2] | masks[3])
        assert mk.bits_of(got) == masks[0] | masks[1] | masks[2] | masks[3]
        plain = frozenset(list(sets[0]))         # (an equal set the board did not make: no mask known)
        mixed = union(_Ctx, (plain,) + sets[1:])
        assert mixed == ref and (mixed is not got or len(ref) == 0)
    other = bit_layout(_board("square", 2))
    a, b = mk.spaces(mk.bit[(0, 0)]), other.spaces(other.bit[(1, 1)])
    assert union(_Ctx, (a, b)) == frozenset({(0, 0), (1, 1)})
    assert other.bits_of(a) is None and mk.bits_of(b) is None
