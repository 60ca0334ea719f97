"""Honest samples dealt as main dealt them (3fb4893): the redeal was made
faster (engine/samples.py: a hidden deck's tags a kind at a time, one
slice for a deck of one kind, visibility read in place, occupancy made
again only when an occupying piece is dealt anew; engine/rng.py: the
shuffle's draws all at once), and a search must go on seeing the same
samples for the same seeds, or mcts would choose other moves. Each digest
covers every player's sample at every third decision of a seeded random
game: the zones, the decks' order, the future's chance source, the
occupancy. Recorded with main's engine."""

import hashlib
import random

import pytest

import nordlang

CASES = [
    ("nord", 4, 3, 60, "ece15e5283aee8a5"),
    ("nord", 2, 8, 60, "56b62be02778a0cd"),
    ("vikings", 4, 2, 60, "1b5585ff1cc585b8"),
    ("vikings", 2, 5, 60, "6c485e60a90a91b2"),
    ("goofspiel", 3, 1, 30, "8d6458e168c1033b"),
    ("kuhn-poker", 2, 4, 10, "c348228f63f5b9e4"),
]


def _digest(game, players, seed, moves):
    rules = nordlang.load_rules(game, players)
    g = nordlang.Game(rules, seed)
    rng = random.Random(seed)
    h = hashlib.sha256()
    for step in range(moves):
        if g.over:
            break
        if step % 3 == 1:
            for v in range(players):
                s = g.for_player(v, 1000 * seed + step).state
                h.update(repr((sorted((repr(k), sorted(p.items())) for k, p in s.pools.items()),
                               sorted((repr(k), d) for k, d in s.decks.items()), s.rng.state,
                               sorted(s.occupied.items()))).encode())
        g.play_index(rng.randrange(len(g.legal_moves())))
    return h.hexdigest()[:16]


@pytest.mark.parametrize("game,players,seed,moves,expected", CASES)
def test_samples_are_dealt_as_before(game, players, seed, moves, expected):
    assert _digest(game, players, seed, moves) == expected
