"""Engine benchmarks (figures only; never part of the tests or CI).

    python bench/bench.py                  # Nord, about a minute
    python bench/bench.py --quick          # a few seconds
    python bench/bench.py --game vikings   # any bundled game (see nord games)

For 2, 3 and 4 players, on one core: complete random games per second,
turns and decisions per second, the time to list the legal options of a
decision (the choice's options and, where the rulebook asks for
lookahead, the check that the turn can go on, on a fresh copy of the
position), nordlang expression evaluations per second (the rulebook's
argument-free definitions and its evaluation, compiled closures, on
mid-game positions), and peak memory (tracemalloc during one game, and
the process's maximum resident size).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import time
import tracemalloc

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from speed import calibration  # noqa: E402  (the fixed loop every benchmark here prints beside its figures)

import nordlang  # noqa: E402
from nordlang.engine.game import Game  # noqa: E402
from nordlang.lang.compiler import Ctx  # noqa: E402


def random_games(rules, n, seed):
    """(seconds, turns, decisions, mid-game states) of n random games."""
    rng = random.Random(seed)
    turns = decisions = 0
    mids = []
    t0 = time.perf_counter()
    for i in range(n):
        g = Game(rules, seed + i)
        k = 0
        while not g.over:
            g.play_index(rng.randrange(len(g.state.pending.options)))
            k += 1
            if k == 40:
                mids.append(g.state.clone())
        turns += g.state.turn
        decisions += k
    return time.perf_counter() - t0, turns, decisions, mids


def enumeration_times(rules, n, seed):
    """Seconds to list a decision's options, per decision, over n random games."""
    rng = random.Random(seed)
    times = []
    for i in range(n):
        g = Game(rules, 10_000 + seed + i)
        m = g.machine
        while not g.over:
            st = g.state
            p = st.pending
            probe = st.clone()
            if hasattr(probe, "fresh"):
                probe.fresh()                # no memoised values: list them from scratch
            t = time.perf_counter()
            fr = probe.frames[-1]
            vals, _texts = m.options(probe, fr, p.step)
            if p.step.lookahead:
                vals = [v for v in vals if m._probe(probe, p.step, v)]
            times.append(time.perf_counter() - t)
            g.play_index(rng.randrange(len(p.options)))
    return times


def expression_rate(rules, states, seconds):
    """Evaluations per second of the argument-free definitions (and the evaluation, per player)."""
    funcs = [f.body for f in rules.names.funcs.values() if not f.params and f.kind == "expr" and f.body]
    per_player = []
    if rules.evaluation is not None:
        per_player.append(rules.evaluation)
    calls = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    states = [st.clone() for st in states]
    while time.perf_counter() < deadline:
        for st in states:
            if hasattr(st, "fresh"):
                st.fresh()                   # defeat memoisation: every round computes anew
            for f in funcs:
                f(Ctx(st, rules))
                calls += 1
            for f in per_player:
                for p in rules.player_range:
                    f(Ctx(st, rules, {"p": p}))
                    calls += 1
    return calls / (time.perf_counter() - t0), len(funcs) + len(per_player) * rules.num_players


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="few games: a rough figure in seconds")
    ap.add_argument("--games", type=int, help="random games per player count (default 20, quick 3)")
    ap.add_argument("--players", default="2,3,4", help="player counts (default 2,3,4)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", default="nord", help="a bundled game by name (default nord)")
    args = ap.parse_args(argv)
    n = args.games or (3 if args.quick else 20)
    n_enum = 1 if args.quick else 4
    expr_s = 0.5 if args.quick else 2.0
    rows = []
    print(f"nordlang {nordlang.__version__}, Python {sys.version.split()[0]}, {n} random games per player count"
          f"{' (quick)' if args.quick else ''}", flush=True)
    cal = calibration()
    for players in [int(x) for x in args.players.split(",")]:
        t = time.perf_counter()
        rules = nordlang.load_rules(args.game, players)
        load_s = time.perf_counter() - t
        Game(rules, 0)                       # warm the caches once
        secs, turns, decisions, mids = random_games(rules, n, args.seed)
        tracemalloc.start()                  # (slows Python down: a separate game)
        random_games(rules, 1, args.seed)
        _cur, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        enum = enumeration_times(rules, n_enum, args.seed)
        rate, nexpr = expression_rate(rules, mids or [Game(rules, 0).state], expr_s)
        rows.append({
            "players": players, "load s": load_s, "games/s": n / secs, "turns/s": turns / secs,
            "decisions/s": decisions / secs, "turns/game": turns / n,
            "enum ms": 1000 * statistics.fmean(enum), "enum p90 ms": 1000 * _quantile(enum, 0.9),
            "expr/s": rate, "exprs": nexpr, "peak MiB": peak / 2 ** 20,
        })
        print(f"  {players} players done", file=sys.stderr, flush=True)
    cols = [("players", "{:>7}"), ("load s", "{:>7.2f}"), ("games/s", "{:>8.2f}"), ("turns/s", "{:>8.0f}"),
            ("decisions/s", "{:>11.0f}"), ("turns/game", "{:>10.1f}"), ("enum ms", "{:>8.2f}"),
            ("enum p90 ms", "{:>11.2f}"), ("expr/s", "{:>9.0f}"), ("peak MiB", "{:>8.1f}")]
    print("  ".join(f"{c:>{len(f.format(0)) if c != 'players' else 7}}" for c, f in cols))
    for r in rows:
        print("  ".join(f.format(r[c]) for c, f in cols))
    cal = min(cal, calibration())
    print(f"calibration: a fixed plain-Python loop took {cal:.0f} ms (lower is a faster machine)")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"max resident size of this process: {rss / 1024:.0f} MiB; expression figures over "
          f"{', '.join(str(r['exprs']) for r in rows)} closures on mid-game positions (decision 40)")
    return 0


def _quantile(xs, q):
    if not xs:
        return 0.0
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


if __name__ == "__main__":
    raise SystemExit(main())
