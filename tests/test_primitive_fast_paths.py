"""The primitives' shortcuts for their common cases (a track's total, an
empty cell, a tuple's first item, an aggregate of a list or a generator)
give exactly what their general paths give, and the errors of what is no
zone stay the same: exact values on the tableau game (tests/games/tableau)."""

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


def error(game, text) -> str:
    with pytest.raises(EvalError) as e:
        ev(game, text)
    return e.value.message


def test_a_track_counts_its_filled_slots_and_a_deck_its_cards(game):
    assert ev(game, "total(offer)") == 4 and ev(game, "total(deck)") == 8
    run(game, "take(offer, 1, cell(tableau(0), 0, 0))\ntake(offer, 3, cell(tableau(0), 0, 1))")
    assert ev(game, "total(offer)") == 2          # slots 0 and 2: the gaps are not counted
    assert ev(game, "slots(offer)") == ((0, ("card", 1)), (2, ("card", 3)))
    assert ev(game, "items(offer)") == (("card", 1), ("card", 3))
    assert ev(game, "amount(offer, card(3))") == 1 and ev(game, "amount(offer, card(2))") == 0
    assert ev(game, "total(tableau(0))") == 2 and ev(game, "amount(tableau(0), card(4))") == 1


def test_an_empty_cell_holds_nothing_and_a_filled_one_what_came(game):
    empty, filled = "cell(tableau(0), 1, 1)", "cell(tableau(0), 0, 0)"
    assert (ev(game, f"total({empty})"), ev(game, f"items({empty})"), ev(game, f"amount({empty}, card(1))")) == \
        (0, (), 0)
    run(game, f"take(offer, 0, {filled})\nmove(card(4), deck, {filled})")
    assert (ev(game, f"total({filled})"), ev(game, f"items({filled})"), ev(game, f"amount({filled}, card(4))")) == \
        (2, (("card", 1), ("card", 4)), 1)
    run(game, f"move(card(1), {filled}, deck)\nmove(card(4), {filled}, deck)")      # made, then emptied
    assert (ev(game, f"total({filled})"), ev(game, f"items({filled})")) == (0, ())
    assert ev(game, "grid_of(cell(tableau(1), 1, 2))") == ("tableau", 1)
    assert ev(game, "neighbors(cell(tableau(1), 1, 2))") == (("tableau", 1, 0, 2), ("tableau", 1, 1, 1))


def test_what_is_no_zone_or_no_track_is_still_an_error(game):
    assert error(game, "total(3)") == "3 is not a zone"
    assert error(game, "items(7)") == "7 is not a zone"
    assert error(game, "amount(7, card(1))") == "7 is not a zone"
    assert error(game, "slots(deck)") == "deck is not a track"
    assert error(game, "grid_of(3)") == "3 is not a cell of a grid"


def test_first_and_the_aggregates_of_lists_sets_and_generators(game):
    assert ev(game, "first([])") is None and ev(game, "first([], 5)") == 5
    assert ev(game, "first([4, 5])") == 4 and ev(game, "first(set([3, 1]))") == 1
    assert ev(game, "sum([1, 2])") == 3 and ev(game, "sum(x for x in set([2, 1]))") == 3
    assert ev(game, "count([1, false, 2])") == 2 and ev(game, "count(x > 1 for x in [1, 2, 3])") == 2
    assert ev(game, "any([])") is False and ev(game, "any(x > 2 for x in [1, 3])") is True
    assert ev(game, "all(x > 0 for x in [1, 2])") is True and ev(game, "all([1, 0])") is False
    assert ev(game, "min([3, 1])") == 1 and ev(game, "max(set([3, 1]))") == 3
    assert ev(game, "min([])") is None and ev(game, "max(x for x in [2, 7, 5])") == 7


def test_two_items_of_two_kinds_come_in_the_order_of_their_kinds():
    game = nordlang.load("vikings", seed=0)
    cell = "cell(homeland(0), 2, 1)"
    run(game, f'create(viking("red"), {cell})\ncreate(island("left"), {cell})')     # the viking came first
    assert ev(game, f"items({cell})") == (("island", "left"), ("viking", "red"))
    assert game.state.items(("homeland", 0, 2, 1)) == ev(game, f"items({cell})")       # (the general path)
    run(game, f'move(viking("red"), {cell}, bag)\ncreate(island("right"), {cell})')  # two of one kind: by tag
    assert ev(game, f"items({cell})") == (("island", "left"), ("island", "right"))


def test_a_cells_row_column_and_grid_written_in_give_the_primitives_values_and_errors(game, monkeypatch):
    """row, column and grid_of of a name are written into the generated code
    (their templates name the argument thrice); of a cell they take no call,
    of anything else they call the primitive, whose values and errors stay."""
    from dataclasses import replace
    calls = []
    registry = game.rules.names.registry
    for name in ("row", "column", "grid_of"):
        b = registry.get(name)
        counted = replace(b, fn=lambda ctx, x, _fn=b.fn, _n=name: calls.append(_n) or _fn(ctx, x))
        monkeypatch.setitem(registry.items, name, counted)
    cells = "[cell(tableau(1), 1, 2), cell(tableau(0), 0, 2)]"
    assert ev(game, f"[(row(c), column(c), grid_of(c)) for c in {cells}]") == \
        ((1, 2, ("tableau", 1)), (0, 2, ("tableau", 0)))
    assert calls == []
    assert ev(game, "let c = cell(tableau(0), 1, 0) in row(c) + column(c)") == 1 and calls == []
    # an argument that is no name is called (computed once), as before
    assert ev(game, "row(cell(tableau(0), 1, 2)) + column(cell(tableau(0), 1, 2))") == 3
    assert calls == ["row", "column"]
    assert error(game, "let x = 3 in grid_of(x)") == "3 is not a cell of a grid"
    assert error(game, "let x = (\"tableau\", 1, 2) in grid_of(x)") == "(tableau, 1, 2) is not a cell of a grid"



def test_a_pools_total_written_in_takes_no_call_and_other_zones_call(game, monkeypatch):
    """total of a zone given by a name: a pool's and an empty cell's are
    read in the generated code; a track's and a deck's come from the
    primitive, with the same values; a zone given by a call is computed
    once (called)."""
    from dataclasses import replace
    calls = []
    registry = game.rules.names.registry
    b = registry.get("total")
    monkeypatch.setitem(registry.items, "total",
                        replace(b, fn=lambda ctx, z, _fn=b.fn: calls.append(z) or _fn(ctx, z)))
    run(game, "take(offer, 1, cell(tableau(0), 0, 0))")
    filled, empty = "cell(tableau(0), 0, 0)", "cell(tableau(0), 1, 1)"
    assert ev(game, f"let c = {filled} in total(c) + 10 * total(c)") == 11 and calls == []
    assert ev(game, f"let c = {empty} in total(c)") == 0 and calls == []
    assert ev(game, "(total(offer), total(deck))") == (3, 8) and len(calls) == 2
    assert ev(game, f"total({filled})") == 1 and len(calls) == 3
