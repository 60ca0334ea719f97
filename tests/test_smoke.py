"""A game of each size runs to its end on the bundled rulebook."""

import random

import pytest

import nordlang


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_game_ends_after_five_scorings(players):
    game = nordlang.load(players=players, seed=11)
    rng = random.Random(11)
    while not game.over:
        moves = game.legal_moves()
        game.play(rng.choice(moves))
    assert game.state.counters[("counter", "scorings")] == 4
    res = game.result
    assert len(res.points) == players
    assert res.winners
