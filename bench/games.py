"""Play complete random games (for bench/instructions.sh): PLAYERS GAMES."""

import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import nordlang  # noqa: E402


def main(players: int, games: int) -> None:
    rules = nordlang.load_rules(players=players)
    for seed in range(100, 100 + games):
        g = nordlang.Game(rules, seed)
        rng = random.Random(seed)
        while not g.over:
            g.play_index(rng.randrange(len(g.state.pending.options)))


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
