"""connected(x, structure) read off the links' masks (its common case, a
space or a structure against a structure) says what the connection graph
says, and a name or space that is not the board's is still an error."""

import random

import pytest

import nordlang
from nordlang.engine.library.graph import _connected
from nordlang.errors import EvalError


def _positions(players, games=3, every=7):
    """Positions of random Nord games, every few decisions."""
    rules = nordlang.load_rules(players=players)
    for seed in range(games):
        g = nordlang.Game(rules, seed)
        rng = random.Random(seed)
        n = 0
        while not g.over:
            if n % every == 0:
                yield g
            g.play_index(rng.randrange(len(g.state.pending.options)))
            n += 1


@pytest.mark.parametrize("players", [2, 4])
def test_a_space_or_structure_against_a_structure_is_linked_as_the_graph_says(players):
    linked = 0
    for g in _positions(players):
        ctx = g.rules.ctx(g.state)
        links = g.state.links
        structures = sorted(g.rules.grid.ports)
        for b in structures:
            for a in list(g.rules.grid.spaces) + structures + list(g.rules.grid.port_faces):
                want = links.connected(a, b)
                assert _connected(ctx, a, b) is want, (a, b)
                linked += want
    assert linked > 0          # (the games link some)


def test_what_is_not_the_boards_is_an_error_not_unlinked():
    g = nordlang.Game(nordlang.load_rules(players=2), 1)
    ctx = g.rules.ctx(g.state)
    b = sorted(g.rules.grid.ports)[0]
    for a in ["nowhere", (99, 99)]:
        with pytest.raises(EvalError):
            _connected(ctx, a, b)
    with pytest.raises(EvalError):
        _connected(ctx, b, "nowhere")
