"""amount, points, points_from and counter written into the generated
code (amount's of a zone named: lang/values.py; the others' `inline`
templates): they take no call of the primitive where they can, and
give the values and errors the primitive gives, on the tableau game
(tests/games/tableau: the offer is a track, the deck a deck, tableau(p)
a grid of cells)."""

from dataclasses import replace
from pathlib import Path

import pytest
from helpers import ev
from helpers import run_effects as run

import nordlang
from nordlang.errors import EvalError

TABLEAU = Path(__file__).parent / "games" / "tableau" / "tableau.yaml"


@pytest.fixture
def game():
    """The first decision: the offer (a track) holds cards 1, 2, 3, 4; the deck 4, 3, 2, 1, 2, 4, 1, 3."""
    return nordlang.load(str(TABLEAU), seed=0)


def _counted(game, monkeypatch, name) -> list:
    """The calls of primitive `name` from code compiled from now on."""
    calls = []
    registry = game.rules.names.registry
    b = registry.get(name)
    monkeypatch.setitem(registry.items, name,
                        replace(b, fn=lambda ctx, *a, _fn=b.fn: calls.append(a) or _fn(ctx, *a)))
    return calls


def test_an_amount_of_a_zone_named_reads_a_pool_in_place_and_asks_the_primitive_for_any_other(game, monkeypatch):
    """A pool, a track, a deck, an empty cell and a whole grid, each given
    by a name: the amounts the primitive gives; a pool's with no call, any
    other zone's from the primitive, given the zone and the item. A cell
    made by cell() is read from its pool too (values._zone_form)."""
    calls = _counted(game, monkeypatch, "amount")
    run(game, "take(offer, 1, cell(tableau(0), 0, 0))\nmove(card(4), deck, cell(tableau(0), 0, 0))")
    zones = {"filled": "cell(tableau(0), 0, 0)", "empty": "cell(tableau(0), 1, 1)", "offer": "offer",
             "deck": "deck", "grid": "tableau(0)"}
    got = {k: ev(game, f"let z = {z} in [amount(z, card(c)) for c in [1, 2, 4]]") for k, z in zones.items()}
    assert got == {"filled": (0, 1, 1), "empty": (0, 0, 0), "offer": (1, 0, 1), "deck": (2, 2, 1),
                   "grid": (0, 1, 1)}
    assert calls == [(zone, ("card", c)) for zone in (("tableau", 0, 1, 1), ("offer", None), ("deck", None),
                                                      ("tableau", 0)) for c in (1, 2, 4)]
    del calls[:]
    assert ev(game, "amount(cell(tableau(0), 0, 0), card(2))") == 1 and calls == []
    assert ev(game, "amount(cell(tableau(0), 1, 0), card(2))") == 0 and calls == []
    state = game.state        # (the general path agrees)
    assert [state.amount(("tableau", 0, 0, 0), ("card", c)) for c in (1, 2, 4)] == [0, 1, 1]


def test_an_amount_of_what_is_no_zone_is_the_primitives_error(game):
    assert pytest.raises(EvalError, ev, game, "let z = 7 in amount(z, card(1))").value.message == "7 is not a zone"
    assert pytest.raises(EvalError, ev, game, "amount(7, card(1))").value.message == "7 is not a zone"
    message = pytest.raises(EvalError, ev, game, "let z = cell(tableau(0), 9, 0) in amount(z, card(1))").value.message
    assert message == pytest.raises(EvalError, ev, game, "amount(cell(tableau(0), 9, 0), card(1))").value.message


def test_points_and_counters_take_no_call(game, monkeypatch):
    calls = [_counted(game, monkeypatch, name) for name in ("points", "points_from", "counter")]
    run(game, 'award(1, 5, "cards")\nadd("rounds", 2)')
    assert ev(game, "[points(p) for p in players]") == (0, 5)
    assert ev(game, '(points_from(1, "cards"), points_from(0, "cards"), counter("rounds"), counter("none"))') == \
        (5, 0, 2, 0)
    assert calls == [[], [], []]
