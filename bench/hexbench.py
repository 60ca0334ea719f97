"""Hex 11x11 side by side: nordlang against a hand-written Hex and OpenSpiel's (figures only, never CI).

    python bench/hexbench.py                  # about 5 s per engine
    python bench/hexbench.py --seconds 1      # a rough figure

Random games per second on one core, in alternating rounds of a fixed
time, so that the drift of a shared machine's speed hits every engine
alike, and the ratios measured in this one run:

- nordlang, simulate path: as `nord simulate --jobs 1` plays (random agents);
- nordlang, api: `len(game.legal_moves())`, `game.play_index(i)`, i from a seeded random.Random;
- hand-written: bench/handwritten/hex.py (plain Python, union-find), the same two calls;
- OpenSpiel: pyspiel.load_game("hex") (C++, 11x11 by default) driven from
  Python, `state.legal_actions()` and `state.apply_action(a)` with a
  random action (only where pyspiel is installed).
"""

from __future__ import annotations

import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "handwritten"))
sys.path.insert(0, HERE)

import hex as handwritten  # noqa: E402
from speed import Timed, api_path, calibration, interleave, load, simulate_path  # noqa: E402

import nordlang  # noqa: E402


def handwritten_path(seed=1):
    def play(i):
        rng = random.Random(seed + i)
        g = handwritten.Hex()
        while not g.over:
            g.play_index(rng.randrange(len(g.legal_moves())))
        return g.moves
    return play


def openspiel_path(seed=1):
    """Games of OpenSpiel's C++ Hex, or None when pyspiel is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("hex")

    def play(i):
        rng = random.Random(seed + i)
        st = game.new_initial_state()
        k = 0
        while not st.is_terminal():
            acts = st.legal_actions()
            st.apply_action(acts[rng.randrange(len(acts))])
            k += 1
        return k
    return play


def measure(seconds=5.0, rounds=10):
    """The timers of the four engines (OpenSpiel's left out where it is not installed)."""
    rules = nordlang.load_rules("hex")
    timers = [Timed("nordlang simulate", simulate_path("hex", 2)), Timed("nordlang api", api_path(rules)),
              Timed("hand-written", handwritten_path())]
    os_play = openspiel_path()
    if os_play is not None:
        timers.append(Timed("OpenSpiel C++", os_play))
    for t in timers:
        t.play_one(10_000)                 # warm up once, untimed
    interleave(timers, seconds, rounds)
    return timers


def print_table(timers, out=sys.stdout):
    ref = next(t for t in timers if t.label == "hand-written")
    print(f"{'Hex 11x11':<20}{'games/s':>10}{'moves/game':>12}{'games timed':>13}{'hand-written / this':>21}", file=out)
    for t in timers:
        print(f"{t.label:<20}{t.rate:10.1f}{t.decisions / t.games:12.1f}{t.games:13}{ref.rate / t.rate:21.1f}",
              file=out)
    if not any(t.label.startswith("OpenSpiel") for t in timers):
        print("(OpenSpiel: pyspiel is not installed)", file=out)


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=5.0, help="seconds per engine, in all (default 5)")
    ap.add_argument("--rounds", type=int, default=10, help="alternating rounds (default 10)")
    args = ap.parse_args(argv)
    print(f"nordlang {nordlang.__version__}, Python {sys.version.split()[0]}, load {load()}", flush=True)
    cal = calibration()
    timers = measure(args.seconds, args.rounds)
    print_table(timers)
    print(f"calibration {min(cal, calibration()):.0f} ms; load {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
