"""Random 4-player games per second: the hand-written engine against nordlang.

    python3 bench/handwritten/compare.py                 # 200 games each, about 10 s
    python3 bench/handwritten/compare.py --games 50      # a rough figure

Plays N complete random 4-player games on the bundled island with the
hand-written engine (nord.py, beside this file) and N with nordlang, on one
core, in alternating rounds (so that the drift of a shared machine's speed
hits both), and prints each one's games per second, their ratio, and the
calibration figure of bench/bench.py (a fixed plain-Python loop: lower is a
faster machine). nordlang plays its games as bench/bench.py does (a
uniform random index at each pending decision); the hand-written engine
chooses uniformly among its full list of legal options the same way.

Beside the speed, the sanity figures: turns per game, and options per
placement decision (decisions with two or more options; nordlang's counted
in a separate, untimed pass). bench/handwritten/check.py checks that the
two engines offer the same options in the same positions.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)

import nord  # noqa: E402
from check import check_island  # noqa: E402

import nordlang  # noqa: E402
from bench.bench import calibration  # noqa: E402
from nordlang.engine.game import Game  # noqa: E402


def handwritten_games(seeds):
    """(seconds, turns, stats) of random games with the hand-written engine."""
    turns = 0
    stats = Counter()
    t0 = time.perf_counter()
    for seed in seeds:
        g = nord.Nord(seed).play()
        turns += g.turns
        stats += g.stats
    return time.perf_counter() - t0, turns, stats


def nordlang_games(rules, seeds):
    """(seconds, turns) of random games with nordlang, played as bench/bench.py plays them."""
    turns = 0
    t0 = time.perf_counter()
    for seed in seeds:
        rng = random.Random(seed)
        g = Game(rules, seed)
        while not g.over:
            g.play_index(rng.randrange(len(g.state.pending.options)))
        turns += g.state.turn
    return time.perf_counter() - t0, turns


def nordlang_placements(rules, seeds):
    """(placement decisions, their options) in nordlang's random games (untimed)."""
    decisions = options = 0
    for seed in seeds:
        rng = random.Random(seed)
        g = Game(rules, seed)
        while not g.over:
            p = g.state.pending
            if p.step.name == "place":
                decisions += 1
                options += len(p.options)
            g.play_index(rng.randrange(len(p.options)))
    return decisions, options


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="random games per engine (default 200)")
    ap.add_argument("--round", type=int, default=20, help="games per engine in each alternating round (default 20)")
    ap.add_argument("--stats-games", type=int, default=100,
                    help="untimed nordlang games for its placement figure (default 100)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    print(f"nordlang {nordlang.__version__}, Python {sys.version.split()[0]}: {args.games} random 4-player games "
          f"per engine, in rounds of {args.round}", flush=True)
    cal = calibration()
    rules = nordlang.load_rules(None, 4)
    check_island(rules)
    Game(rules, 0)                                  # warm both up once, untimed
    nord.Nord(0).play()
    hw_s = nl_s = 0.0
    hw_turns = nl_turns = 0
    hw_stats = Counter()
    done = 0
    while done < args.games:
        seeds = range(args.seed + done, args.seed + min(done + args.round, args.games))
        s, t, st = handwritten_games(seeds)
        hw_s, hw_turns, hw_stats = hw_s + s, hw_turns + t, hw_stats + st
        s, t = nordlang_games(rules, seeds)
        nl_s, nl_turns = nl_s + s, nl_turns + t
        done += len(seeds)
    cal = min(cal, calibration())
    n = args.games
    place_n, place_opts = nordlang_placements(rules, range(args.seed, args.seed + args.stats_games))
    hw_rate, nl_rate = n / hw_s, n / nl_s
    print(f"{'':14}{'games/s':>9}{'turns/game':>12}{'placement options/decision':>28}")
    print(f"{'hand-written':14}{hw_rate:9.1f}{hw_turns / n:12.1f}"
          f"{hw_stats['place options'] / hw_stats['place']:28.1f}")
    print(f"{'nordlang':14}{nl_rate:9.1f}{nl_turns / n:12.1f}{place_opts / place_n:28.1f}"
          f"  (placements over {args.stats_games} untimed games)")
    print(f"ratio: the hand-written engine plays {hw_rate / nl_rate:.2f} times as many games a second as nordlang")
    print(f"calibration: a fixed plain-Python loop took {cal:.0f} ms (lower is a faster machine)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
