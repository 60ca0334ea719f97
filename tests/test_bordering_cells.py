"""bordering_cells(z): the empty cells of a grid next to its filled ones,
in the grid's order; the same cells as the loop over the filled cells'
neighbours it stands for, on the tableau game (2 rows, 3 columns) and on
random Vikings positions."""

import random
from pathlib import Path

import pytest
from helpers import ev
from helpers import run_effects as run

import nordlang
from nordlang.errors import EvalError

TABLEAU = Path(__file__).parent / "games" / "tableau" / "tableau.yaml"
LOOP = "sorted(set([n for f in filled_cells({z}) for n in neighbors(f) if total(n) == 0]))"


@pytest.fixture
def game():
    return nordlang.load(str(TABLEAU), seed=0)


def test_an_empty_grid_has_none_and_a_card_borders_its_neighbours(game):
    assert ev(game, "bordering_cells(tableau(0))") == ()
    run(game, "move(card(4), deck, cell(tableau(0), 0, 1))")
    assert ev(game, "bordering_cells(tableau(0))") == (("tableau", 0, 0, 0), ("tableau", 0, 0, 2),
                                                        ("tableau", 0, 1, 1))
    run(game, "move(card(2), deck, cell(tableau(0), 1, 1))")
    assert ev(game, "bordering_cells(tableau(0))") == (("tableau", 0, 0, 0), ("tableau", 0, 0, 2),
                                                        ("tableau", 0, 1, 0), ("tableau", 0, 1, 2))
    assert ev(game, "bordering_cells(tableau(1))") == ()
    run(game, "move(card(2), cell(tableau(0), 1, 1), deck)")       # (emptied again: the answer follows)
    assert ev(game, "bordering_cells(tableau(0))") == ev(game, LOOP.format(z="tableau(0)"))
    assert ev(game, "[row(c) for c in bordering_cells(tableau(0))]") == (0, 0, 1)


def test_what_is_no_grid_is_a_clear_error(game):
    for z in ("deck", "7"):
        message = pytest.raises(EvalError, ev, game, f"let z = {z} in bordering_cells(z)").value.message
        assert "is not a grid zone" in message


def test_the_loop_it_stands_for_on_random_vikings_positions():
    rules = nordlang.load_rules("vikings", 3)
    for seed in range(3):
        game, rng = nordlang.Game(rules, seed), random.Random(seed)
        for step in range(300):
            if game.over:
                break
            if step % 25 == 0:
                for p in range(3):
                    z = f"homeland({p})"
                    assert ev(game, f"bordering_cells({z})") == ev(game, LOOP.format(z=z))
            game.play_index(rng.randrange(len(game.legal_moves())))


def test_grown_from_the_last_answer_at_every_step_of_two_games_played_in_turn():
    """The answer grows from the last one asked for the same grid (grids.py
    _bordering_anew), even when that one came from another game's position:
    asked at every step of two games played in turn, it is the loop's."""
    rules = nordlang.load_rules("vikings", 2)
    games = [nordlang.Game(rules, seed) for seed in (11, 12)]
    rngs = [random.Random(seed) for seed in (11, 12)]
    asked = 0
    for _step in range(150):
        for game, rng in zip(games, rngs):
            if game.over:
                continue
            for p in range(2):
                z = f"homeland({p})"
                assert ev(game, f"bordering_cells({z})") == ev(game, LOOP.format(z=z))
                asked += 1
            game.play_index(rng.randrange(len(game.legal_moves())))
    assert asked == 548         # (both games end before 150 steps)


def test_a_grid_that_lost_items_is_walked_anew(game):
    run(game, "move(card(4), deck, cell(tableau(0), 0, 0))")
    run(game, "move(card(2), deck, cell(tableau(0), 1, 2))")
    assert ev(game, "bordering_cells(tableau(0))") == (("tableau", 0, 0, 1), ("tableau", 0, 0, 2),
                                                        ("tableau", 0, 1, 0), ("tableau", 0, 1, 1))
    run(game, "move(card(4), cell(tableau(0), 0, 0), deck)")
    assert ev(game, "bordering_cells(tableau(0))") == (("tableau", 0, 0, 2), ("tableau", 0, 1, 1))
    run(game, "move(card(4), deck, cell(tableau(0), 0, 1))")
    assert ev(game, "bordering_cells(tableau(0))") == (("tableau", 0, 0, 0), ("tableau", 0, 0, 2),
                                                        ("tableau", 0, 1, 1))
