"""A move into a grid's cell nothing has come to yet (State.move makes the
cell and moves in one step): the same zones, cells and errors as a
removal then an addition."""

import pytest

import nordlang
from nordlang.errors import EvalError


def _state():
    rules = nordlang.load_rules("vikings", 2)
    return nordlang.Game(rules, 1).state


def test_a_move_into_a_new_cell_matches_a_removal_then_an_addition():
    moved, stepped = _state(), _state()
    tile = ("island", "left")
    for st in (moved, stepped):
        assert ("homeland", 0, 2, 5) not in st.pools and st.cells == {}
    for src, cell in ((("start_tile", 0), ("homeland", 0, 2, 5)), (("start_tile", 1), ("homeland", 0, 1, 7))):
        moved.move(src, cell, tile)
        stepped.remove(src, tile)
        stepped.add(cell, tile)
    assert moved.pools == stepped.pools
    assert moved.cells == stepped.cells == {("homeland", 0): (("homeland", 0, 1, 7), ("homeland", 0, 2, 5))}
    assert moved.amount(("homeland", 0, 2, 5), tile) == 1 and moved.amount(("start_tile", 0), tile) == 0
    assert moved.parts.keys() == stepped.parts.keys()


def test_a_move_into_a_cell_off_the_grid_says_so():
    st = _state()
    with pytest.raises(EvalError, match=r"is outside homeland: its rows are 0 to 5, its columns 0 to 38"):
        st.move(("start_tile", 0), ("homeland", 0, 6, 0), ("island", "left"))
