"""The garbage collector as Python sets it against as `nord simulate` sets it
(nordlang.sim.simulate.for_many_games), on random games of one bundled game,
in alternating rounds in one process (so the drift of a shared machine's
speed hits both alike).

    python3 bench/gc_settings.py [--game nord] [--players 4] [--games 8] [--rounds 6]

Prints each setting's seconds and their ratio (below 1: simulate's setting
is faster). The games are the same under both: only their time differs.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import nordlang  # noqa: E402
from nordlang.sim.simulate import for_many_games  # noqa: E402


def games(rules, n, first) -> float:
    t = time.perf_counter()
    for s in range(first, first + n):
        g = nordlang.Game(rules, s)
        r = random.Random(s)
        while not g.over:
            g.play_index(r.randrange(len(g.legal_moves())))
    return time.perf_counter() - t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="nord")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=8, help="games per round and setting")
    ap.add_argument("--rounds", type=int, default=6)
    args = ap.parse_args(argv)
    rules = nordlang.load_rules(args.game, args.players)
    games(rules, 2, 0)                              # (warm: the first games fill the rules' memos)
    default = gc.get_threshold()
    plain = tuned = 0.0
    for k in range(args.rounds):
        first = 100 + k * args.games
        gc.unfreeze()
        gc.set_threshold(*default)
        plain += games(rules, args.games, first)
        for_many_games()
        tuned += games(rules, args.games, first)
    print(f"{args.game}, {args.players} players, {args.rounds} x {args.games} random games a setting")
    print(f"  Python's collector: {plain:.2f} s; as simulate sets it: {tuned:.2f} s; ratio {tuned / plain:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
