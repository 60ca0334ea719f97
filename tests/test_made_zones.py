"""amount of a zone built in place by a constructor (`amount(purse(p),
coin())`, lang/values.py _made_zone) reads a pool in place, as amount of a
zone given by a name does: no call of the primitive for a pool, the
primitive's value and error for any other zone."""

from dataclasses import replace

import pytest
from helpers import ev

import nordlang
from nordlang.errors import EvalError


@pytest.fixture
def game():
    return nordlang.Game(nordlang.load_rules("vikings", 4), 1)


def test_a_pool_built_in_place_is_read_without_the_primitive(game, monkeypatch):
    calls = []
    registry = game.rules.names.registry
    b = registry.get("amount")
    monkeypatch.setitem(registry.items, "amount", replace(b, fn=lambda ctx, *a: calls.append(a) or b.fn(ctx, *a)))
    assert ev(game, "[amount(purse(p), coin()) for p in players]") == (20, 20, 20, 20)
    assert ev(game, 'amount(start_tile(player), island("left"))') == 1
    assert calls == []
    # a grid whole: the primitive, given the zone built
    assert ev(game, 'amount(homeland(0), island("left"))') == 0
    assert calls == [(("homeland", 0), ("island", "left"))]


def test_a_zone_built_in_place_fails_as_the_primitive_does(game):
    for q in ("9", '"x"', "[1]"):
        message = pytest.raises(EvalError, ev, game, f"let q = {q} in amount(purse(q), coin())").value.message
        named = f"let q = {q}, z = purse(q) in amount(z, coin())"
        assert message == pytest.raises(EvalError, ev, game, named).value.message
        assert message.endswith("is not a zone")
