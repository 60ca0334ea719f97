"""Short forms of the generated code for cells and loops (lang/values.py,
expressions.py, runtime.py, engine/library/grids.py): a cell in a fixed
row (or column) of a known cell's grid made in place, the amount of a cell
made in place read from its pool, a loop over a tuple or list already in
order charged with no test of it, a cell of filled_cells read with no
test (but in a thunk, which may run on another position). The same values, the same work charged, the same errors as
the general code. On the tableau game (tests/games/tableau): a 2 x 3 grid
per player, cards taken from an offer of four slots."""

from pathlib import Path

import pytest
from helpers import ev
from helpers import generated_source as source
from helpers import run_effects as run

import nordlang
from nordlang.errors import EvalError
from nordlang.lang.budget import LIMIT

TABLEAU = Path(__file__).parent / "games" / "tableau" / "tableau.yaml"


@pytest.fixture
def game():
    """Cards 1 and 3 laid at (0, 0) and (0, 1) of red's tableau."""
    g = nordlang.load(str(TABLEAU), seed=0)
    run(g, "take(offer, 0, cell(tableau(0), 0, 0))\ntake(offer, 2, cell(tableau(0), 0, 1))")
    return g


def test_a_cell_in_a_fixed_row_of_a_known_cells_grid_is_made_in_place(game):
    text = "[cell(grid_of(c), 1, column(c)) for c in filled_cells(tableau(0))]"
    assert ev(game, text) == (("tableau", 0, 1, 0), ("tableau", 0, 1, 1))
    assert "1 < ctx.rules.grid_zones" in source(game, text) and "v_c_" in source(game, text)
    text = "[cell(grid_of(c), row(c), 2) for c in filled_cells(tableau(0))]"
    assert ev(game, text) == (("tableau", 0, 0, 2), ("tableau", 0, 0, 2))
    # out of the grid: the primitive's error, as the general code gives it
    with pytest.raises(EvalError) as e:
        ev(game, "[cell(grid_of(c), 2, column(c)) for c in filled_cells(tableau(0))]")
    assert e.value.message == "tableau(red) has no row 2: its rows are 0 to 1"
    with pytest.raises(EvalError) as e:
        ev(game, "[cell(grid_of(c), -1, column(c)) for c in filled_cells(tableau(0))]")
    assert e.value.message == "tableau(red) has no row -1: its rows are 0 to 1"


def test_the_amount_of_a_cell_made_in_place_reads_its_pool(game):
    text = "[amount(cell(grid_of(c), 0, column(c)), card(1)) for c in filled_cells(tableau(0))]"
    assert ev(game, text) == (1, 0)
    assert "ctx.state.pools.get(" in source(game, text)
    # an empty cell (no pool) holds none; a cell of another grid's row is asked alike
    assert ev(game, "[amount(cell(grid_of(c), 1, column(c)), card(1)) for c in filled_cells(tableau(0))]") == (0, 0)
    assert ev(game, "amount(cell(tableau(1), 1, 2), card(3))") == 0


def test_a_loop_over_a_sequence_is_charged_with_no_test_of_it(game):
    text = "[c for c in filled_cells(tableau(0))]"
    assert "_each_seq(" in source(game, text) and "_each_seq(" not in source(game, "[c for c in set([1, 2])]")
    ctx = game.rules.ctx(game.state)
    from nordlang.lang.compiler import Compiler
    from nordlang.lang.parser import parse
    for t, charged in ((text, 2), ("[x for x in [c for c in filled_cells(tableau(0))]]", 4),
                       ("sum([row(c) for c in filled_cells(tableau(0))])", 4)):
        fn = Compiler(game.rules.names, text=t).expr(parse(t, "expr"), frozenset())
        ctx.budget.left = LIMIT
        fn(ctx)
        assert LIMIT - ctx.budget.left == charged, t


def test_filled_cells_answers_anew_once_its_position_changed(game):
    """(on a copy too)"""
    assert ev(game, "filled_cells(tableau(0))") == (("tableau", 0, 0, 0), ("tableau", 0, 0, 1))
    assert ev(game, "filled_cells(tableau(1))") == ()
    run(game, "take(offer, 1, cell(tableau(0), 1, 1))")
    assert ev(game, "filled_cells(tableau(0))") == (("tableau", 0, 0, 0), ("tableau", 0, 0, 1), ("tableau", 0, 1, 1))
    # the same position on a copy: the same answer
    copy = game.clone()
    assert ev(copy, "filled_cells(tableau(0))") == ev(game, "filled_cells(tableau(0))")
    run(copy, "take(offer, 3, cell(tableau(1), 0, 0))")
    assert ev(copy, "filled_cells(tableau(1))") == (("tableau", 1, 0, 0),)
    assert ev(game, "filled_cells(tableau(1))") == ()


def test_a_loop_over_a_lets_sequence_is_charged_with_no_test_of_it(game):
    text = "let cs = filled_cells(tableau(0)) in [row(c) for c in cs]"
    assert ev(game, text) == (0, 0) and "_each_seq(" in source(game, text)
    # a let of a set is sorted, as ever
    text = "let xs = set([3, 1, 2]) in [x for x in xs]"
    assert ev(game, text) == (1, 2, 3) and "_each_seq(" not in source(game, text)


def test_the_parts_of_the_first_of_some_cells_are_read_in_place_unless_none(game):
    text = "let e = first([c for c in filled_cells(tableau(0)) if column(c) > 0]) in column(e)"
    assert ev(game, text) == 1
    assert "grid_zones" not in source(game, text) and "is not None" in source(game, text)
    # none: the primitive's error, as the general code gives it
    with pytest.raises(EvalError) as e:
        ev(game, "let e = first([c for c in filled_cells(tableau(1))]) in column(e)")
    assert e.value.message == "a graph board has no rows or columns" and e.value.pos.col == 57


def test_a_cell_of_filled_cells_has_its_pool_read_with_no_test(game):
    text = ("[(amount(c, card(1)), total(c), first([x for x in items(c) if kind(x) == \"card\"]))"
            " for c in filled_cells(tableau(0))]")
    assert ev(game, text) == ((1, 1, ("card", 1)), (0, 1, ("card", 3)))
    src = source(game, text)
    assert "pools[v_c_" in src and " in ctx.state.pools" not in src and ".get(v_c_" not in src
    # a cell of another loop may be empty (no pool): tested, as before
    text = "[amount(c, card(1)) for c in [cell(tableau(0), 1, 0), cell(tableau(0), 0, 0)]]"
    assert ev(game, text) == (0, 1) and " in ctx.state.pools" in source(game, text)


def test_a_cells_parts_are_simple_arguments_of_an_inlined_definition(tmp_path):
    """A cheap definition naming a parameter twice is written in when its
    argument is a part of a known cell (as cheap as a name), and its cells
    are then made in place."""
    path = tmp_path / "tableau.yaml"
    path.write_text(TABLEAU.read_text().replace("define:\n", "define:\n  under(h, k): 'amount(cell(h, 1, k), "
                                                "card(1)) + total(cell(h, 1, k))'\n", 1))
    g = nordlang.load(str(path), seed=0)
    run(g, "take(offer, 0, cell(tableau(0), 0, 0))\ntake(offer, 1, cell(tableau(0), 1, 0))")
    text = "[under(grid_of(c), column(c)) for c in filled_cells(tableau(0))]"
    assert ev(g, text) == (1, 1)
    assert ".call(" not in source(g, text) and "1 < ctx.rules.grid_zones" in source(g, text)


def test_a_thunk_in_a_loop_over_filled_cells_tests_the_pool_it_reads(game):
    """at_turn_start runs its thunk on the turn's first position: a cell
    filled now may hold nothing there (no pool)."""
    game.state.turn_start = game.state.clone()
    run(game, "take(offer, 1, cell(tableau(0), 1, 1))")
    text = "[total(c) - at_turn_start(total(c) + amount(c, card(1))) for c in filled_cells(tableau(0))]"
    assert ev(game, text) == (-1, 0, 1)
