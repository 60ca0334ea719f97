"""Every speed figure of bench/, printed as tables (figures only; never part of the tests or CI).

    python bench/all.py                        # everything, about 3 minutes
    python bench/all.py --quick                # a rough figure of everything, about 30 s
    python bench/all.py --only hex,startup     # some parts
    python bench/all.py --games nord,vikings   # some games in the games table

Parts, in order (all on one core, one process at a time):

- games: random games per second of every bundled game at its fewest and
  most players, through the simulate path and the public API (bench/speed.py);
- hex: Hex 11x11, nordlang's two paths beside a hand-written Hex
  (bench/handwritten/hex.py) and OpenSpiel's C++ Hex, in alternating
  rounds, with the ratios (bench/hexbench.py);
- nord: random Nord games at 2, 3 and 4 players, nordlang beside the
  hand-written engine in alternating rounds, with the ratios
  (bench/handwritten/compare.py);
- mcts: positions per second of the mcts agent (default budget) on Nord and
  Vikings, over a fixed set of decisions from seeded positions (two trees
  side by side, with a check of the same moves: bench/mcts_ab.py), and the
  time of the honest sample each decision searches from (game.for_player);
- startup: wall time of start-up commands as subprocesses (median of runs).

The machine's speed drifts: compare figures across runs by their ratios to
the references measured in the same run, and read the calibration (a fixed
plain-Python loop: lower is a faster machine) and the load printed with them.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "handwritten"))
sys.path.insert(0, HERE)

import compare  # noqa: E402
import hexbench  # noqa: E402
import speed  # noqa: E402

import nordlang  # noqa: E402

PARTS = ("games", "hex", "nord", "mcts", "startup")


def main(argv=None, out=sys.stdout):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="rough figures: a short time for each")
    ap.add_argument("--tiny", action="store_true", help="the least that runs every part (for the tests)")
    ap.add_argument("--only", help=f"parts, comma-separated: {', '.join(PARTS)} (default all)")
    ap.add_argument("--games", help="bundled games of the games table, comma-separated (default all)")
    ap.add_argument("--players", type=int, help="one player count for the games table (default: fewest and most)")
    args = ap.parse_args(argv)
    parts = args.only.split(",") if args.only else list(PARTS)
    unknown = [p for p in parts if p not in PARTS]
    if unknown:
        ap.error(f"unknown part {', '.join(unknown)}; parts: {', '.join(PARTS)}")
    mode = "tiny" if args.tiny else "quick" if args.quick else "full"
    # per mode: games table (seconds per path, rounds), hex (seconds per engine, rounds),
    # nord (games per engine, round), mcts decisions, startup runs
    budget = {"full": (3.0, 6, 5.0, 10, 100, 20, 20, 7),
              "quick": (0.3, 2, 1.0, 4, 20, 10, 4, 3),
              "tiny": (0.01, 1, 0.01, 1, 1, 1, 1, 1)}[mode]
    g_secs, g_rounds, h_secs, h_rounds, n_games, n_round, m_decisions, s_runs = budget

    def say(text=""):
        print(text, file=out, flush=True)

    def progress(text):
        print(f"  {text}", file=sys.stderr, flush=True)

    start = time.perf_counter()
    say(f"nordlang {nordlang.__version__}, Python {sys.version.split()[0]}, {mode} run, load {speed.load()}")
    cal = speed.calibration()
    say(f"calibration at the start: {cal:.0f} ms (a fixed plain-Python loop; lower is a faster machine)")
    if "games" in parts:
        say()
        say(f"Random games per second, one core ({g_secs:g} s per path and game, {g_rounds} alternating rounds)")
        names = args.games.split(",") if args.games else speed.bundled()
        speed.print_games(speed.measure_games(names, g_secs, g_rounds, args.players, progress), out)
    if "hex" in parts:
        say()
        say(f"Hex 11x11 side by side ({h_secs:g} s per engine, {h_rounds} alternating rounds)")
        hexbench.print_table(hexbench.measure(h_secs, h_rounds), out)
    if "nord" in parts:
        say()
        say(f"Nord against the hand-written engine ({n_games} random games per engine and player count, "
            f"rounds of {n_round})")
        say(f"{'players':>7}{'hand-written g/s':>18}{'nordlang g/s':>14}{'nordlang time / hand-written':>30}")
        for p in (2, 3, 4):
            r = compare.measure(p, n_games, n_round, 1, 0)
            say(f"{p:>7}{r['hw games/s']:18.1f}{r['nl games/s']:14.1f}{r['ratio']:30.2f}")
            progress(f"nord {p} players done")
    if "mcts" in parts:
        say()
        say(f"mcts, default budget: positions created per second of decision ({m_decisions} decisions "
            f"from seeded positions)")
        say(f"{'game':<14}{'players':>7}{'positions/s':>13}{'positions':>11}{'seconds':>9}{'a sample, us':>14}")
        for name, players in (("nord", 2), ("nord", 4), ("vikings", 2), ("vikings", 4)):
            created, secs, _n = speed.mcts_rate(name, players, m_decisions)
            sample = speed.sample_time(name, players, positions=max(1, min(12, m_decisions)))
            say(f"{name:<14}{players:>7}{created / secs:13.0f}{created:11}{secs:9.2f}{1e6 * sample:14.0f}")
    if "startup" in parts:
        say()
        say(f"Start-up, wall time of a subprocess (median of {s_runs})")
        for label, secs, _runs in speed.startup_times(s_runs):
            say(f"{1000 * secs:8.0f} ms  {label}")
    say()
    say(f"calibration at the end: {speed.calibration():.0f} ms; load {speed.load()}; "
        f"{time.perf_counter() - start:.0f} s in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
