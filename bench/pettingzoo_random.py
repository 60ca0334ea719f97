"""Random agents through the PettingZoo environment: N games of every bundled game.

    python bench/pettingzoo_random.py [GAMES] [PLAYERS]

Each game is played through `nordlang.pettingzoo.env` (observations, masks
and rewards made at every step), picking uniformly among the masked actions;
prints the seconds per game and the wins by seat (draws last).
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import numpy as np  # noqa: E402

from nordlang.engine.rng import Rng  # noqa: E402
from nordlang.pettingzoo import env  # noqa: E402
from nordlang.rules.games import bundled_games  # noqa: E402

GAMES = list(bundled_games())          # every bundled game


def play(name: str, games: int, players: int) -> tuple[float, list]:
    e = env(name, players=players)
    pick = Rng(1)
    tally = [0] * (players + 1)
    start = time.perf_counter()
    for seed in range(games):
        e.reset(seed=seed)
        for _agent in e.agent_iter():
            obs, _reward, terminated, truncated, _info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[pick.randrange(len(legal))]))
        res = e.game.result
        tally[players if res.draw else res.winners[0]] += 1
    return (time.perf_counter() - start) / games, tally


def main(argv) -> int:
    games = int(argv[0]) if argv else 100
    players = int(argv[1]) if len(argv) > 1 else 2
    for name in GAMES:
        per_game, tally = play(name, games, players)
        print(f"{name:13} {games} games, {per_game * 1000:7.1f} ms a game; wins by seat, then draws: {tally}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
