"""The connection graph: components and shortest chains, checked against
networkx's own algorithms on positions from real games."""

import random

import networkx as nx
import pytest

import nordlang


def _positions(players, seeds):
    rules = nordlang.load_rules(players=players)
    for seed in seeds:
        g = nordlang.Game(rules, seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(10, 150)):
            if g.over:
                break
            g.play_index(rng.randrange(len(g.state.pending.options)))
        yield rules, g.state


@pytest.mark.parametrize("players", [2, 4])
def test_components_and_paths_match_networkx(players):
    checked = 0
    for rules, st in _positions(players, range(12)):
        links = st.links
        graph = links.g
        comps = {frozenset(c) for c in nx.connected_components(graph)}
        assert comps == set(links.comp.values())
        for a in rules.grid.structures:
            for b in rules.grid.structures:
                if a == b or not links.connected(a, b):
                    continue
                h = graph.copy()
                h.add_edges_from((("src",), p) for p in rules.grid.ports[a])
                h.add_edges_from((p, ("dst",)) for p in rules.grid.ports[b])
                ref = {tuple(path[2:-2]) for path in nx.all_shortest_paths(h, ("src",), ("dst",))}
                assert set(links.shortest_paths(a, b)) == ref
                checked += 1
    assert checked > 20


def test_updated_links_equal_links_built_afresh():
    """Placing and lifting pieces updates the graph; it must equal a new build after every move."""
    from nordlang.board.graph import Links, open_around
    from nordlang.engine.library import STD
    from nordlang.lang.compiler import Ctx
    frontier, pairs = STD.get("frontier").fn, STD.get("connected_pairs").fn
    checked = 0
    for players in (2, 4):
        rules = nordlang.load_rules(players=players)
        for seed in range(4):
            g = nordlang.Game(rules, seed)
            rng = random.Random(seed)
            while not g.over:
                g.play_index(rng.randrange(len(g.state.pending.options)))
                got, ref = g.state.links, Links(rules.grid, frozenset(g.state.occupied))
                assert got.nodes == ref.nodes
                assert {k: set(v) for k, v in got.adj.items()} == {k: set(v) for k, v in ref.adj.items()}
                assert got.comp == ref.comp
                for sid in rules.grid.structures:
                    for other in rules.grid.structures:
                        assert got.connected(sid, other) == ref.connected(sid, other)
                for c in {id(c): c for c in got.comp.values()}.values():   # kept or derived frontiers
                    assert got.frontier(c) == open_around(rules.grid, g.state.occupied, c)
                for kind, ids in rules.structures_by_kind.items():
                    assert pairs(Ctx(g.state, rules), kind) == {(a, b) for a in ids for b in ids
                                                                if a != b and ref.connected(a, b)}
                for sid, ports in rules.grid.ports.items():                  # a structure's, kept per board
                    whole = set().union(*(ref.comp[p] for p in ports))
                    assert frontier(Ctx(g.state, rules), sid) == open_around(rules.grid, g.state.occupied, whole)
                checked += 1
    assert checked > 200


def test_ports_never_pass_a_connection_through():
    for _rules, st in _positions(2, range(6)):
        for port, links in st.links.adj.items():
            if isinstance(port[0], str):
                assert len(links) <= 1


def test_connected_subsets_match_brute_force():
    import itertools

    from nordlang.engine.library import connected_subsets
    rng = random.Random(1)
    for _ in range(200):
        h, w = rng.randrange(2, 6), rng.randrange(2, 6)
        cells = [(r, c) for r in range(h) for c in range(w)]
        orth = {s: tuple(n for n in ((s[0] - 1, s[1]), (s[0] + 1, s[1]), (s[0], s[1] - 1), (s[0], s[1] + 1))
                         if n in cells) for s in cells}
        region_of = {s: rng.randrange(3) for s in cells}
        allowed = frozenset(s for s in cells if rng.random() < 0.8)
        anchors = frozenset(s for s in allowed if rng.random() < 0.3) if rng.random() < 0.8 else None
        lo, hi = rng.randrange(1, 3), rng.randrange(1, 5)
        max_regions = rng.choice([None, 1, 2])
        got = connected_subsets(orth, region_of, allowed, lo, hi, anchors, max_regions)
        # bits laid out as the connection graph's (a spare column): the same sets, in the same order
        spare = {s: 1 << (s[0] * (w + 1) + s[1]) for s in cells}
        assert connected_subsets(orth, region_of, allowed, lo, hi, anchors, max_regions, None, spare) == got
        assert len(got) == len(set(got))
        assert [len(g) for g in got] == sorted(len(g) for g in got)      # size by size
        ref = set()
        for k in range(lo, hi + 1):
            for comb in itertools.combinations(sorted(allowed), k):
                g = set(comb)
                seen, todo = {comb[0]}, [comb[0]]
                while todo:
                    u = todo.pop()
                    for n in orth[u]:
                        if n in g and n not in seen:
                            seen.add(n)
                            todo.append(n)
                if seen != g or (anchors is not None and not g & anchors):
                    continue
                if max_regions is not None and len({region_of[x] for x in g}) > max_regions:
                    continue
                ref.add(frozenset(g))
        assert set(got) == ref
