"""Loops that look up one item, asked in one call (lang/lookups.py):
`first([x for x in items(z) if kind(x) == k])`, `sum(amount(z, x) for
x in items(z) if kind(x) == k)` and `first([x for j, x in slots(z) if j == i])`
give the values, the work charged and the errors of the loops they stand
for, on the tableau game (a cell of a grid is a pool, the deck a deck, the
offer a track)."""

from dataclasses import replace
from pathlib import Path

import pytest
from helpers import run_effects as run

import nordlang
from nordlang.errors import EvalError
from nordlang.lang.budget import LIMIT
from nordlang.lang.compiler import Compiler
from nordlang.lang.parser import parse

TABLEAU = Path(__file__).parent / "games" / "tableau" / "tableau.yaml"
FIRST = 'let k = "{k}", z = {z} in first([x for x in items(z) if kind(x) == k])'
AMOUNT = 'let k = "{k}", z = {z} in sum(amount(z, x) for x in items(z) if kind(x) == k)'


@pytest.fixture
def game():
    """Cell (0, 0) of tableau(0) holds cards 4 and 2 (two of one kind), cell (0, 1) card 3 twice."""
    game = nordlang.load(str(TABLEAU), seed=0)
    run(game, "move(card(4), deck, cell(tableau(0), 0, 0))\nmove(card(2), deck, cell(tableau(0), 0, 0))\n"
              "move(card(3), deck, cell(tableau(0), 0, 1), 2)")
    return game


def _run(game, text, tracing=False):
    """(value, work charged, source) of an expression; tracing: as a replay makes it (no shortcut)."""
    c = Compiler(game.rules.names, text=text)
    tree = parse(text, "expr")
    if tracing:
        with c._no_inlining(tracing=True):
            src = c.gen(tree, frozenset(), {})
    else:
        src = c.gen(tree, frozenset(), {})
    fn = c.expr(tree, frozenset()) if not tracing else None
    assert not c.errors
    ctx = game.rules.ctx(game.state)
    if tracing:
        env = dict(c.env)
        exec(f"def _f(ctx):\n  return {src}", env)
        fn = env["_f"]
    return fn(ctx), LIMIT - ctx.budget.left, src


ZONES = {"two": "cell(tableau(0), 0, 0)", "twice": "cell(tableau(0), 0, 1)", "empty": "cell(tableau(0), 1, 1)",
         "deck": "deck", "offer": "offer", "grid": "tableau(0)"}


@pytest.mark.parametrize("shape, helper", [(FIRST, "_first_of_kind("), (AMOUNT, "_amount_of_kind(")])
@pytest.mark.parametrize("where", sorted(ZONES))
@pytest.mark.parametrize("k", ["card", "other"])
def test_a_lookup_of_a_kind_is_the_loops_value_and_work(game, shape, helper, where, k):
    text = shape.format(k=k, z=ZONES[where])
    value, work, src = _run(game, text)
    assert helper[:-1] in src       # (of a cell: the helper's pool form, runtime._first_of_kind_in)
    assert (value, work) == _run(game, text, tracing=True)[:2]


def test_the_values_themselves(game):
    """The first of two cards in a cell is the one items gives first; a cell's amounts are summed; the deck
    (cards 1, 2, 4, 1) gives its cards in order, each counted as often as it stands there (2 + 1 + 1 + 2)."""
    got = {w: _run(game, FIRST.format(k="card", z=z))[0] for w, z in ZONES.items()}
    assert got == {"two": ("card", 2), "twice": ("card", 3), "empty": None, "deck": ("card", 1),
                   "offer": ("card", 1), "grid": ("card", 2)}
    got = {w: _run(game, AMOUNT.format(k="card", z=z))[0] for w, z in ZONES.items()}
    assert got == {"two": 2, "twice": 2, "empty": 0, "deck": 6, "offer": 4, "grid": 4}
    assert _run(game, FIRST.format(k="other", z=ZONES["two"]))[0] is None


def test_the_pool_is_read_without_the_items_primitive(game, monkeypatch):
    calls = []
    registry = game.rules.names.registry
    b = registry.get("items")
    monkeypatch.setitem(registry.items, "items", replace(b, fn=lambda ctx, z, _fn=b.fn: calls.append(z) or _fn(ctx, z)))
    assert _run(game, FIRST.format(k="card", z=ZONES["twice"]))[0] == ("card", 3)
    assert _run(game, AMOUNT.format(k="card", z=ZONES["two"]))[0] == 2
    assert _run(game, FIRST.format(k="card", z=ZONES["empty"]))[0] is None         # (an empty cell: no pool)
    assert _run(game, AMOUNT.format(k="card", z=ZONES["empty"]))[0] == 0
    assert calls == []
    assert _run(game, FIRST.format(k="card", z=ZONES["two"]))[0] == ("card", 2)     # (two of the kind: its order)
    assert calls == [("tableau", 0, 0, 0)]


def test_other_shapes_take_the_general_path(game):
    """A kind that depends on the item, a second clause, another element: the loop as written."""
    for text in ('first([x for x in items(deck) if kind(x) == kind(x)])',
                 'first([tag(x) for x in items(deck) if kind(x) == "card"])',
                 'sum(amount(deck, x) for x in items(offer) if kind(x) == "card")',
                 'first([x for x in items(deck) if kind(x) == "card" if tag(x) == 2])'):
        src = _run(game, text)[2]
        assert "_of_kind(" not in src, text


def test_what_is_no_zone_fails_as_the_loop_does(game):
    for shape in (FIRST, AMOUNT):
        text = shape.format(k="card", z="7")
        message = pytest.raises(EvalError, _run, game, text).value.message
        assert message == "7 is not a zone"


SLOT = 'let z = {z}, i = {i} in first([x for j, x in slots(z) if j == i])'


@pytest.mark.parametrize("i", ["0", "1", "3", "4", "-1", "1.0", "true", '"a"', "none"])
def test_the_item_in_a_slot_is_the_loops_value_and_work(game, i):
    """Slot 1 of the offer emptied: a filled slot, an empty one, the last, past the end, before the start,
    a number that equals an index, a truth, a text, none."""
    run(game, "take(offer, 1, deck)")
    text = SLOT.format(z="offer", i=i)
    value, work, src = _run(game, text)
    assert "_in_slot(" in src
    assert (value, work) == _run(game, text, tracing=True)[:2]
    assert work == 3


def test_the_items_in_slots(game):
    run(game, "take(offer, 1, deck)")
    got = [_run(game, SLOT.format(z="offer", i=i))[0] for i in ("0", "1", "3", "4", "1.0", "2.0", "true")]
    assert got == [("card", 1), None, ("card", 4), None, None, ("card", 3), None]
    assert _run(game, 'first([x for j, x in slots(offer) if 3 == j])')[0] == ("card", 4)


def test_a_slot_of_what_is_no_track_fails_as_the_loop_does(game):
    for z, message in (("deck", "deck is not a track"), ("7", "7 is not a track")):
        assert pytest.raises(EvalError, _run, game, SLOT.format(z=z, i="0")).value.message == message
        assert pytest.raises(EvalError, _run, game, f"slots({z})").value.message == message


def test_other_slot_shapes_take_the_general_path(game):
    for text in ('first([j for j, x in slots(offer) if j == 1])',
                 'first([x for j, x in slots(offer) if j == tag(x)])',
                 'first([x for j, x in slots(offer) if j == x])',
                 'first([x for j, x in enumerate(items(deck)) if j == 1])',
                 'first([x for j, x in slots(offer) if j == 1], 5)'):
        assert "_in_slot(" not in _run(game, text)[2], text


LOOKUPS = """\
description: lookups whose kind or index is no plain value, and one that fails
extends: vikings
patch:
  define:
    kind_named: '"ship"'
    ship_by_definition(c): 'first([t for t in items(c) if kind(t) == kind_named])'
    ships_in(c): '[t for t in items(c) if kind(t) == "ship"]'
    tile_in_slot(i): 'first([x for j, x in slots(wheel_tiles) if j == i])'
    kind_in_slot(i): 'kind(tile_in_slot(i))'
"""


def test_a_definition_made_of_a_lookup_is_cheap_and_written_into_its_callers(monkeypatch, tmp_path):
    """(vikings: island_at(c) and ship_at(c) a first of a kind, amount_vikings(c) a sum of one, on_space(z, i) the
    item in a slot.) A kind given by a definition, or a list of all the items of a kind, is no lookup."""
    from nordlang.rules import build
    monkeypatch.setattr(build, "_CACHE", {})
    v = tmp_path / "lookups.yaml"
    v.write_text(LOOKUPS)
    rules = nordlang.load_rules("vikings", players=2, variants=[str(v)])
    funcs = rules.names.funcs
    assert all(funcs[n].cheap for n in ("island_at", "ship_at", "amount_vikings", "on_space", "tile_in_slot"))
    assert "island_at" in funcs["edge_on_right"].inlines and "ship_at" in funcs["beside_ship"].inlines
    assert "on_space" in funcs["lone_colour_at_zero"].inlines
    assert not funcs["ship_by_definition"].cheap and not funcs["ships_in"].cheap
    game = nordlang.Game(rules, 1)
    from helpers import ev
    assert ev(game, "tile_in_slot(11)") == ev(game, "on_space(wheel_tiles, 11)") == ("ship", "green")
    assert ev(game, "kind_in_slot(0)") == "island"
    message = pytest.raises(EvalError, ev, game, "kind_in_slot(5.5)").value.message     # (an empty slot: none)
    assert message == pytest.raises(EvalError, ev, game, "let t = none in kind(t)").value.message
