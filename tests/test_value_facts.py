"""Static facts of values (lang/values.py) and the short forms they allow:
the generated code takes a cell's parts and reads its pool in place when
the text shows the value is a cell, and gives exactly the values and the
errors of the general code. On the tableau game (tests/games/tableau): a
2 x 3 grid per player, cards taken from an offer of four slots."""

import re
from pathlib import Path

import pytest
from helpers import ev
from helpers import generated_source as source
from helpers import run_effects as run

import nordlang
from nordlang.errors import EvalError
from nordlang.lang.compiler import Compiler
from nordlang.lang.parser import parse

TABLEAU = Path(__file__).parent / "games" / "tableau" / "tableau.yaml"

# definitions added to the tableau game for these tests
DEFINITIONS = """define:
  spot(c): 'row(c) * 10 + column(c)'
  its_row(c): 'row(c)'
  right_of(c): 'cell(grid_of(c), row(c), column(c) + 1)'
  laid(p): '[c for c in filled_cells(tableau(p))]'
  corners: '[cell(tableau(0), 0, 0), cell(tableau(1), 0, 0)]'
  rows_of(corners): '[row(c) for c in corners]'
  given(corners): 'sorted(corners)'
"""


@pytest.fixture
def game(tmp_path):
    """Cards 1 and 3 laid at (0, 0) and (0, 1) of red's tableau; 2 and 4 left on offer, 8 in the deck."""
    path = tmp_path / "tableau.yaml"
    path.write_text(TABLEAU.read_text().replace("define:\n", DEFINITIONS, 1))
    g = nordlang.load(str(path), seed=0)
    run(g, "take(offer, 0, cell(tableau(0), 0, 0))\ntake(offer, 2, cell(tableau(0), 0, 1))")
    return g



def error(game, text) -> str:
    with pytest.raises(EvalError) as e:
        ev(game, text)
    return e.value.message


def test_row_column_grid_of_of_known_cells_take_the_tuples_parts(game):
    """Of cells that filled_cells, a cell's neighbours, cell() and a
    definition giving cells bind: the parts of the tuple, no test."""
    text = "[(row(c), column(c), grid_of(c)) for c in filled_cells(tableau(0))]"
    assert ev(game, text) == ((0, 0, ("tableau", 0)), (0, 1, ("tableau", 0)))
    assert "grid_zones" not in source(game, text)
    text = "[(row(n), column(n)) for f in filled_cells(tableau(0)) for n in neighbors(f)]"
    assert ev(game, text) == ((0, 1), (1, 0), (0, 0), (0, 2), (1, 1))
    assert "grid_zones" not in source(game, text)
    # cells a definition gives, and cells made by cell() in a list
    assert ev(game, "[row(c) + column(c) for c in laid(0)]") == (0, 1)
    assert "grid_zones" not in source(game, "[row(c) + column(c) for c in laid(0)]")
    text = "[column(c) for c in set([cell(tableau(1), 1, k) for k in range(3)])]"
    assert ev(game, text) == (0, 1, 2) and "grid_zones" not in source(game, text)


def test_what_the_text_does_not_show_to_be_a_cell_is_tested(game):
    # a list of a cell and a number: row of each is asked of the primitive when it is no cell
    assert "grid_zones" in source(game, "[row(c) for c in [cell(tableau(0), 1, 2), 3]]")
    assert error(game, "[row(c) for c in [cell(tableau(0), 1, 2), 3]]") == \
        error(game, "row(3)") == "a graph board has no rows or columns"
    assert ev(game, "[grid_of(c) for c in [cell(tableau(1), 1, 2)] + [cell(tableau(0), 0, 0)]]") == \
        (("tableau", 1), ("tableau", 0))
    # a parameter is what its caller gives, whatever a definition of its name gives
    assert ev(game, "rows_of(corners)") == (0, 0)
    assert error(game, "rows_of([cell(tableau(0), 1, 2), 3])") == "a graph board has no rows or columns"
    assert error(game, "[row(c) for c in given([cell(tableau(0), 1, 2), 3])]") == \
        "a graph board has no rows or columns"
    # the neighbours of what may be a space are not known to be cells
    assert "grid_zones" in source(game, "[row(n) for n in neighbors(first([cell(tableau(0), 0, 0), 5]))]")


def test_a_parameter_used_as_a_cell_more_than_once_is_tested_once(game):
    funcs = game.rules.names.funcs
    assert "_cell_v_c" in funcs["spot"].py.__code__.co_varnames          # (row and column: one test)
    assert "_cell_v_c" in funcs["right_of"].py.__code__.co_varnames
    assert "_cell_v_c" not in funcs["its_row"].py.__code__.co_varnames   # (one use: tested in place)
    assert ev(game, "spot(cell(tableau(1), 1, 2))") == 12 and ev(game, "its_row(cell(tableau(1), 1, 2))") == 1
    assert ev(game, "right_of(cell(tableau(1), 1, 1))") == ("tableau", 1, 1, 2)
    # what is no cell goes to the primitives, their errors as before
    assert error(game, "spot(3)") == error(game, "row(3)") == "a graph board has no rows or columns"
    assert error(game, "right_of((\"tableau\", 1, 2))") == "(tableau, 1, 2) is not a cell of a grid"
    assert error(game, "right_of(cell(tableau(1), 1, 2))") == "tableau(blue) has no column 3: its columns are 0 to 2"


def test_a_loops_cells_are_read_in_place_filled_or_empty(game):
    text = ("[(total(n), items(n), amount(n, card(3))) for f in filled_cells(tableau(0)) "
            "for n in neighbors(f)]")
    assert ev(game, text) == ((1, (("card", 3),), 1), (0, (), 0), (1, (("card", 1),), 0), (0, (), 0), (0, (), 0))
    src = source(game, text)
    assert "in ctx.state.pools else 0)" in src and "in ctx.state.pools else ())" in src
    # an item that may fail is computed as before, even for an empty cell
    assert "in ctx.state.pools else 0)" not in source(game, "[amount(n, at([card(1)], -1)) for n in laid(1)]")
    assert error(game, "[amount(n, at([card(1)], -1)) for n in [cell(tableau(1), 1, 1)]]") == \
        "at() counts items from 0, not from -1"


def test_amount_of_a_zone_named_reads_a_pool_else_asks_the_primitive(game):
    assert ev(game, "let z = cell(tableau(0), 0, 1) in amount(z, card(3))") == 1
    assert ev(game, "let z = cell(tableau(0), 1, 1) in amount(z, card(3))") == 0     # an empty cell
    assert ev(game, "let z = offer in (amount(z, card(2)), amount(z, card(1)))") == (1, 0)    # a track
    assert ev(game, "let z = deck in amount(z, card(4))") == 2
    assert "ctx.state.pools" in source(game, "let z = deck in amount(z, card(4))")
    assert error(game, "let z = 3 in amount(z, card(1))") == "3 is not a zone"


def test_first_of_a_list_made_takes_its_first_item_as_the_primitive(game):
    assert ev(game, "first([x for x in [3, 4, 5] if x > 3])") == 4
    assert ev(game, "first([x for x in [1, 2] if x > 3])") is None
    assert ev(game, "first([x for x in [1, 2] if x > 3], 7)") == 7
    assert ev(game, "first([t for t in items(cell(tableau(0), 0, 1)) if kind(t) == \"card\"])") == ("card", 3)
    assert "_next(_iter([" in source(game, "first([x for x in [3, 4, 5] if x > 3])")
    # the list is made whole (an error past the first item stays), then the default
    assert error(game, "first([10 // x for x in [1, 0]])") == "division by zero"
    assert error(game, "first([x for x in [1]], at([1], -1))") == "at() counts items from 0, not from -1"


def test_an_effects_loop_over_cells_takes_their_parts_too(game):
    text = "for c in filled_cells(tableau(0)) { if column(c) == 1 { award(0, total(c) + row(c), \"cards\") } }"
    c = Compiler(game.rules.names)
    lines = c.stmts(parse(text, "effects"), frozenset(), {}, 1)
    assert not c.errors and "grid_zones" not in "\n".join(lines)
    before = ev(game, "points(0)")
    run(game, text)
    assert ev(game, "points(0)") == before + 1


def test_the_core_aggregates_of_a_generator_are_pythons_own(game):
    """any, all, sum and count of a generator: Python's own on the generator
    or the list made, with no call of the primitive; the same values and errors."""
    assert ev(game, "(any(x > 2 for x in [1, 3]), all(x > 2 for x in [1, 3]), any(x for x in []))") == \
        (True, False, False)
    assert ev(game, "(sum(x for x in [1, 2, 4]), sum(x for x in []), sum(x / 2 for x in [1]))") == (7, 0, 0.5)
    assert ev(game, "(count(x for x in [1, false, 0, none, true]), count(x > 1 for x in [1, 2, 3]))") == (4, 2)
    for text in ("any(x > 2 for x in [1, 3])", "all(x for x in [1])", "sum(x for x in [1])",
                 "count(x for x in [1])"):
        src = source(game, text)
        assert "_any_of(" in src or "_all_of(" in src or "_sum_of(" in src, text
    assert error(game, "sum(x for x in [1, \"a\"])") == \
        "wrong kind of value: cannot use + on a number and a text"


def test_len_and_abs_are_pythons_own(game):
    assert ev(game, "len(set([1, 1, 2])) + abs(-3) + len(filled_cells(tableau(0)))") == 7
    assert "_len_of(" in source(game, "len([1])") and "_abs_of(" in source(game, "abs(-1)")
    assert error(game, "len(5)") == "wrong kind of value: a number has no length"
    assert error(game, "abs(\"a\")") == "wrong kind of value (bad operand type for abs(): 'str')"


def test_a_cell_beside_a_known_cell_is_made_in_place(game):
    """cell(grid_of(c), row(c) + i, column(c) + j), c a known cell and i, j
    numbers the text shows: the tuple made in place, the bounds tested where
    an offset moves; off the grid, the primitive's error."""
    text = "[cell(grid_of(c), row(c), column(c) + 1) for c in filled_cells(tableau(0))]"
    assert ev(game, text) == (("tableau", 0, 0, 1), ("tableau", 0, 0, 2))
    assert re.search(r"\(v_c_\d+\[0\], v_c_\d+\[1\], v_c_\d+\[2\], v_c_\d+\[3\] \+ 1\) if v_c_\d+\[3\] \+ 1 < ctx",
                     source(game, text))
    text = "[cell(grid_of(c), row(c) + 1, column(c) - 1) for c in [cell(tableau(1), 0, 2)]]"
    assert ev(game, text) == (("tableau", 1, 1, 1),)
    assert "[2] + 1 < ctx.rules.grid_zones[" in source(game, text) and "[3] - 1 >= 0" in source(game, text)
    assert ev(game, "[cell(grid_of(c), row(c), column(c)) for c in laid(0)]") == ev(game, "laid(0)")
    # off the grid: the primitive's errors
    assert error(game, "[cell(grid_of(c), row(c), column(c) + 2) for c in filled_cells(tableau(0))]") == \
        error(game, "cell(tableau(0), 0, 3)") == "tableau(red) has no column 3: its columns are 0 to 2"
    assert error(game, "[cell(grid_of(c), row(c) - 1, column(c)) for c in filled_cells(tableau(0))]") == \
        error(game, "cell(tableau(0), -1, 0)")
    # an offset the text does not show, or a value not known to be a cell: the primitive
    assert "[0], v_c" not in source(game, "[cell(grid_of(c), row(c), column(c) + k) for c in laid(0) for k in [1]]")
    assert "_cell_v_c" in game.rules.names.funcs["right_of"].py.__code__.co_varnames


def test_a_lookup_of_a_known_cell_answers_for_an_empty_one_without_a_call(game):
    text = ('[first([x for x in items(n) if kind(x) == "card"]) for f in filled_cells(tableau(0)) '
            'for n in neighbors(f)]')
    assert ev(game, text) == (("card", 3), None, ("card", 1), None, None)
    assert "is not None else None)" in source(game, text)      # (its pool looked up once: runtime._first_of_kind_in)
    text = ('[sum(amount(n, x) for x in items(n) if kind(x) == "card") for f in filled_cells(tableau(0)) '
            'for n in neighbors(f)]')
    assert ev(game, text) == (1, 0, 1, 0, 0) and "is not None else 0)" in source(game, text)
    # a cell made in place is made once (Python's :=)
    text = '[first([x for x in items(cell(grid_of(c), row(c), column(c) + 1)) if kind(x) == "card"]) for c in laid(0)]'
    assert ev(game, text) == (("card", 3), None)
    assert re.search(r"\(_cell\d+ := ", source(game, text))
    # of what is not known to be a cell, the helper alone
    assert "is not None else None)" not in source(game, 'first([x for x in items(deck) if kind(x) == "card"])')
