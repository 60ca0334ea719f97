"""Grid zones and the track effects put and shift, on a tiny board-less game
(tests/games/tableau): exact values, the errors, copies and determinism."""

from pathlib import Path

import pytest
from helpers import ev
from helpers import run_effects as run

import nordlang
from nordlang.cli import main
from nordlang.errors import EvalError

TABLEAU = Path(__file__).parent / "games" / "tableau" / "tableau.yaml"
RED = ("tableau", 0)


@pytest.fixture
def game():
    """The game at its first decision: the offer holds cards 1, 2, 3, 4; the deck 4, 3, 2, 1, 2, 4, 1, 3."""
    return nordlang.load(str(TABLEAU), seed=0)


def shown(game, text):
    v = ev(game, text)
    return [game.rules.show(x) for x in v] if isinstance(v, tuple) and v and isinstance(v[0], tuple) else \
        game.rules.show(v)


def error(game, text, effects=False) -> str:
    with pytest.raises(EvalError) as e:
        (run if effects else ev)(game, text)
    return e.value.message


def test_the_game_has_no_board_and_starts_as_written(game):
    assert len(game.rules.grid.spaces) == 0
    assert game.rules.grid_zones == {"tableau": (2, 3)}
    assert [game.rules.show(x) for x in game.state.tracks[("offer", None)]] == ["1", "2", "3", "4"]
    assert [x[1] for x in game.state.decks[("deck", None)]] == [4, 3, 2, 1, 2, 4, 1, 3]
    assert game.state.pending.texts == ["0", "1", "2", "3"]


def test_cells_rows_columns_and_neighbours(game):
    assert ev(game, "cell(tableau(1), 1, 2)") == ("tableau", 1, 1, 2)
    assert shown(game, "cell(tableau(1), 1, 2)") == "tableau(blue)[1,2]"
    assert ev(game, "row(cell(tableau(0), 1, 2))") == 1
    assert ev(game, "column(cell(tableau(0), 1, 2))") == 2
    assert ev(game, "grid_of(cell(tableau(1), 0, 1))") == ("tableau", 1)
    # corners, an edge: only the neighbours within the grid (above, left, right, below)
    assert shown(game, "neighbors(cell(tableau(0), 0, 0))") == ["tableau(red)[0,1]", "tableau(red)[1,0]"]
    assert shown(game, "neighbors(cell(tableau(0), 1, 2))") == ["tableau(red)[0,2]", "tableau(red)[1,1]"]
    assert shown(game, "neighbors(cell(tableau(0), 0, 1))") == [
        "tableau(red)[0,0]", "tableau(red)[0,2]", "tableau(red)[1,1]"]


def test_a_grid_nothing_has_reached_and_one_with_cards(game):
    assert ev(game, "filled_cells(tableau(0))") == ()
    assert ev(game, "total(tableau(0))") == 0 and ev(game, "items(tableau(0))") == ()
    assert ev(game, "amount(cell(tableau(0), 1, 1), card(2))") == 0
    assert ev(game, "total(cell(tableau(0), 1, 1))") == 0 and ev(game, "items(cell(tableau(0), 1, 1))") == ()
    run(game, "take(offer, 3, cell(tableau(0), 1, 2))\ntake(offer, 1, cell(tableau(0), 0, 1))\n"
              "move(card(4), deck, cell(tableau(0), 1, 2))")
    assert shown(game, "filled_cells(tableau(0))") == ["tableau(red)[0,1]", "tableau(red)[1,2]"]
    assert ev(game, "total(tableau(0))") == 3
    assert ev(game, "amount(tableau(0), card(4))") == 2
    assert ev(game, "items(tableau(0))") == (("card", 2), ("card", 4))
    assert ev(game, "total(cell(tableau(0), 1, 2))") == 2
    assert ev(game, "total(tableau(1))") == 0
    assert [x[1] if x else None for x in game.state.tracks[("offer", None)]] == [1, None, 3, None]


def test_bounds_and_wrong_zones_are_clear_errors(game):
    assert error(game, "cell(tableau(0), 2, 0)") == "tableau(red) has no row 2: its rows are 0 to 1"
    assert error(game, "cell(tableau(0), 0, -1)") == "tableau(red) has no column -1: its columns are 0 to 2"
    assert error(game, "cell(deck, 0, 0)") == "deck is not a grid zone"
    assert error(game, "filled_cells(offer)") == "offer is not a grid zone"
    assert error(game, "grid_of(tableau(0))") == "tableau(red) is not a cell of a grid"
    assert error(game, "take(offer, 0, tableau(0))", effects=True) == \
        "tableau(red) is a grid: items go to and from its cells"
    assert error(game, "move(card(4), cell(tableau(0), 0, 0), deck)", effects=True) == \
        "cannot take 1 4 from tableau(red)[0,0]: it holds 0"


def test_moving_items_off_a_whole_grid_names_its_cells(game):
    run(game, "take(offer, 0, cell(tableau(0), 0, 0))")
    assert error(game, "move(card(1), tableau(0), deck)", effects=True) == \
        "tableau(red) is a grid: items go to and from its cells"


def test_put_fills_an_empty_slot_only(game):
    run(game, "take(offer, 2, cell(tableau(0), 0, 0))")
    run(game, "put(card(1), deck, offer, 2)")
    assert [x[1] for x in game.state.tracks[("offer", None)]] == [1, 2, 1, 4]
    assert [x[1] for x in game.state.decks[("deck", None)]] == [4, 3, 2, 2, 4, 1, 3]   # the first 1 left
    assert error(game, "put(card(4), deck, offer, 0)", effects=True) == "slot 0 of offer already holds 1"
    assert error(game, "put(card(4), deck, offer, 4)", effects=True) == "offer has no slot 4 (its slots: 0 to 3)"
    assert error(game, "put(card(4), deck, deck, 0)", effects=True) == "deck is not a track"


def test_shift_keeps_the_gaps_and_refuses_to_push_items_off(game):
    run(game, "take(offer, 0, cell(tableau(0), 0, 0))\ntake(offer, 2, cell(tableau(0), 0, 1))")
    assert [x and x[1] for x in game.state.tracks[("offer", None)]] == [None, 2, None, 4]
    run(game, "shift(offer, 1)")
    assert [x and x[1] for x in game.state.tracks[("offer", None)]] == [2, None, 4, None]
    assert error(game, "shift(offer, 1)", effects=True) == "offer cannot shift by 1: slot 0 holds 2"
    assert error(game, "shift(offer, 5)", effects=True) == "a track shifts by 0 to 4 slots, not 5"
    assert error(game, "shift(offer, -1)", effects=True) == "a track shifts by 0 to 4 slots, not -1"
    run(game, "shift(offer, 0)")
    assert [x and x[1] for x in game.state.tracks[("offer", None)]] == [2, None, 4, None]


def test_a_copy_that_fills_a_new_cell_leaves_the_original_alone(game):
    st = game.state
    run(game, "take(offer, 0, cell(tableau(0), 0, 0))")
    for light in (False, True):
        cp = st.clone(light=light)
        if light:
            assert cp.cells is st.cells
            cp.unshare()
        cp.add(("tableau", 0, 0, 1), ("card", 3))          # a new cell
        cp.add(("tableau", 0, 0, 0), ("card", 3))          # a cell both share
        assert st.cells == {RED: (("tableau", 0, 0, 0),)}
        assert ("tableau", 0, 0, 1) not in st.pools
        assert st.pools[("tableau", 0, 0, 0)] == {("card", 1): 1}
        assert cp.pools[("tableau", 0, 0, 0)] == {("card", 1): 1, ("card", 3): 1}
        assert cp.cells[RED] == (("tableau", 0, 0, 0), ("tableau", 0, 0, 1))       # kept in order


def test_schema_errors_for_rows_and_columns(tmp_path, capsys):
    text = TABLEAU.read_text()
    bad = text.replace("deck: {type: deck}", "deck: {type: deck, rows: 2}") \
        .replace("tableau: {type: grid, per_player: true, rows: 2, columns: 3}",
                 "tableau: {type: grid, per_player: true, columns: 3}")
    path = tmp_path / "bad.yaml"
    path.write_text(bad)
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    line_deck = bad.splitlines().index("  deck: {type: deck, rows: 2}") + 1
    line_grid = line_deck + 2
    assert f"{path}:{line_deck}:22: error: zones/deck: 'rows' goes only with type: grid (here type: deck)" in err
    assert "hint: leave 'rows' out, or make it type: grid" in err
    assert (f"{path}:{line_grid}:12: error: zones/tableau: type: grid needs 'rows' and 'columns' "
            "('rows' is missing)") in err
    assert "Traceback" not in err


def _log(tmp_path, seed, name):
    out = tmp_path / name
    assert main(["play", "--rulebook", str(TABLEAU), "--seed", str(seed), "--log", str(out), "--quiet"]) == 0
    return out.read_bytes()


def test_same_seed_same_game_same_log(tmp_path, capsys):
    a, b = _log(tmp_path, 3, "a.log"), _log(tmp_path, 3, "b.log")
    assert a == b
    assert _log(tmp_path, 4, "c.log") != a           # (the agents' choices follow the seed)
