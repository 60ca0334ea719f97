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


def test_ports_never_pass_a_connection_through():
    for _rules, st in _positions(2, range(6)):
        for port, links in st.links.adj.items():
            if isinstance(port[0], str):
                assert len(links) <= 1
