"""Random games per second at 2, 3 and 4 players: the hand-written engine against nordlang.

    python3 bench/handwritten/compare.py                 # 200 games each, 2, 3 and 4 players, about 30 s
    python3 bench/handwritten/compare.py --games 50      # a rough figure
    python3 bench/handwritten/compare.py --players 4     # one player count

For each player count, plays N complete random games on that count's
bundled island with the hand-written engine (nord.py, beside this file) and
N with nordlang, on one core, in alternating rounds (so that the drift of a
shared machine's speed hits both), and prints each one's games per second,
their ratio, and the calibration figure of bench/bench.py (a fixed
plain-Python loop: lower is a faster machine). nordlang plays its games as bench/bench.py does (a
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
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

import nord  # noqa: E402
from check import check_island  # noqa: E402
from speed import calibration  # noqa: E402

import nordlang  # noqa: E402
from nordlang.engine.game import Game  # noqa: E402


def handwritten_games(seeds, players=4):
    """(seconds, turns, stats) of random games with the hand-written engine."""
    turns = 0
    stats = Counter()
    t0 = time.perf_counter()
    for seed in seeds:
        g = nord.Nord(seed, players).play()
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


def measure(players, games, round_size, seed, stats_games):
    """One player count: both engines' games per second (alternating rounds), turns and placement options."""
    rules = nordlang.load_rules(None, players)
    check_island(rules)
    Game(rules, 0)                                  # warm both up once, untimed
    nord.Nord(0, players).play()
    hw_s = nl_s = 0.0
    hw_turns = nl_turns = 0
    hw_stats = Counter()
    done = 0
    while done < games:
        seeds = range(seed + done, seed + min(done + round_size, games))
        s, t, st = handwritten_games(seeds, players)
        hw_s, hw_turns, hw_stats = hw_s + s, hw_turns + t, hw_stats + st
        s, t = nordlang_games(rules, seeds)
        nl_s, nl_turns = nl_s + s, nl_turns + t
        done += len(seeds)
    place_n, place_opts = nordlang_placements(rules, range(seed, seed + stats_games))
    return {"players": players, "hw games/s": games / hw_s, "nl games/s": games / nl_s,
            "ratio": nl_s / hw_s, "hw turns": hw_turns / games, "nl turns": nl_turns / games,
            "hw options": hw_stats["place options"] / max(1, hw_stats["place"]),
            "nl options": place_opts / max(1, place_n)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="random games per engine and player count (default 200)")
    ap.add_argument("--round", type=int, default=20, help="games per engine in each alternating round (default 20)")
    ap.add_argument("--players", default="2,3,4", help="player counts (default 2,3,4)")
    ap.add_argument("--stats-games", type=int, default=100,
                    help="untimed nordlang games for its placement figure (default 100)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    counts = [int(x) for x in args.players.split(",")]
    print(f"nordlang {nordlang.__version__}, Python {sys.version.split()[0]}: {args.games} random games "
          f"per engine and player count, in rounds of {args.round}", flush=True)
    cal = calibration()
    rows = [measure(p, args.games, args.round, args.seed, args.stats_games) for p in counts]
    cal = min(cal, calibration())
    print(f"{'players':>7}{'hand-written g/s':>18}{'nordlang g/s':>14}{'ratio':>7}"
          f"{'turns/game':>12}{'placement options/decision':>28}")
    for r in rows:
        print(f"{r['players']:>7}{r['hw games/s']:18.1f}{r['nl games/s']:14.1f}{r['ratio']:7.2f}"
              f"{r['hw turns']:6.1f}/{r['nl turns']:<5.1f}{r['hw options']:>17.1f}/{r['nl options']:<10.1f}")
    print("ratio: nordlang's time over the hand-written engine's for the same games (1.00: as fast; "
          "turns and options: hand-written/nordlang,")
    print(f"  nordlang's placements over {args.stats_games} untimed games)")
    print(f"calibration: a fixed plain-Python loop took {cal:.0f} ms (lower is a faster machine)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
