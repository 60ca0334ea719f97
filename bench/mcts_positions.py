"""The seeded positions the mcts figures search from (bench/speed.py,
bench/mcts_ab.py): position k is game seed + k after 5 + 7k mod 40 random
decisions, a spread of the game's phases (a game that ended by then is
played from its start instead). It imports no nordlang of its own: the
caller passes the one it measures (a tree of bench/mcts_ab.py's)."""

from __future__ import annotations

import random


def mcts_position(nordlang, rules, k: int, seed: int = 1):
    """The game at position k."""
    rng = random.Random(seed + k)
    g = nordlang.Game(rules, seed + k)
    for _ in range(5 + 7 * k % 40):
        g.play_index(rng.randrange(len(g.legal_moves())))
        if g.over:
            g = nordlang.Game(rules, seed + k)
    return g
