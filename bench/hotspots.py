"""Where random games of a bundled game spend their time (figures only; never part of the tests).

    python bench/hotspots.py --game vikings --players 4 --games 30
    python bench/hotspots.py --game nord --players 3 --games 5 --top 30

Plays seeded random games through the public API (`len(game.legal_moves())`,
then `game.play_index(rng.randrange(n))`) under cProfile and prints:

- each choice's options: time and calls per game (what a decision costs
  before a move is picked);
- the functions with the most time of their own, the rulebook's compiled
  texts named by file and line, and the rulebook's definitions by name
  with how often each is called per game.

cProfile's own cost falls on every call, so small functions look dearer than
they are: compare figures of one run, or count instructions
(valgrind --tool=callgrind) for the effect of a change.
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import os
import pstats
import random
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

import nordlang  # noqa: E402
from nordlang.engine import flow  # noqa: E402


def play(rules, seeds) -> int:
    """Random games from the seeds; returns the decisions made."""
    decisions = 0
    for s in seeds:
        g = nordlang.Game(rules, s)
        rng = random.Random(s)
        while not g.over:
            g.play_index(rng.randrange(len(g.legal_moves())))
            decisions += 1
    return decisions


def choice_times(rules, seeds) -> dict:
    """Seconds and calls spent listing each choice's options, by choice name:
    a 'from' choice's source timed where it is called (the machine asks it
    straight, or through Machine.values), labelled alternatives' through
    Machine.values."""
    machine = next(c for c in vars(flow).values() if isinstance(c, type) and hasattr(c, "values")
                   and hasattr(c, "_choose"))
    values = machine.values
    spent = collections.defaultdict(lambda: [0.0, 0])

    def timer(fn, name):
        def timed(*args):
            t = time.perf_counter()
            try:
                return fn(*args)
            finally:
                s = spent[name]
                s[0] += time.perf_counter() - t
                s[1] += 1
        return timed

    def timed_values(self, state, fr, step, ctx=None):
        if not step.alternatives:            # (its source is timed itself)
            return values(self, state, fr, step, ctx)
        return timer(values, step.name)(self, state, fr, step, ctx)

    sources = [(st, st.source) for st in rules.choice_steps() if st.source is not None]
    for st, source in sources:
        st.source = timer(source, st.name)
    machine.values = timed_values
    try:
        play(rules, seeds)
    finally:
        machine.values = values
        for st, source in sources:
            st.source = source
    return dict(spent)


def definition_calls(rules, seeds) -> collections.Counter:
    """How often each rulebook definition is called (inlined calls are not counted: they are no calls)."""
    calls = collections.Counter()
    funcs = rules.names.funcs
    kept = {name: f.call for name, f in funcs.items()}
    for name, f in funcs.items():
        def counted(*args, _call=kept[name], _name=name):
            calls[_name] += 1
            return _call(*args)
        f.call = counted
    try:
        play(rules, seeds)
    finally:
        for name, f in funcs.items():
            f.call = kept[name]
    return calls


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="vikings")
    ap.add_argument("--players", type=int, help="players (default: the rulebook's default)")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--top", type=int, default=25, help="functions listed")
    args = ap.parse_args(argv)
    rules = nordlang.load_rules(args.game, args.players)
    n = args.games
    play(rules, range(3))                                 # (memos' trials settled, as in a long run)
    seeds = range(100, 100 + n)

    t = time.perf_counter()
    decisions = play(rules, seeds)
    wall = time.perf_counter() - t
    print(f"{args.game}, {rules.num_players} players: {n} random games, {decisions / n:.1f} decisions "
          f"and {1000 * wall / n:.2f} ms a game ({n / wall:.1f} games/s, unprofiled)")

    print("\noptions of each choice, a game:")
    for name, (sec, calls) in sorted(choice_times(rules, seeds).items(), key=lambda kv: -kv[1][0]):
        print(f"  {name:16s} {1000 * sec / n:8.2f} ms  {calls / n:7.1f} calls  {1e6 * sec / calls:8.1f} us a call")

    prof = cProfile.Profile()
    prof.runcall(play, rules, seeds)
    stats = pstats.Stats(prof)
    total = sum(v[2] for v in stats.stats.values()) or 1.0
    print(f"\nown time (profiled), top {args.top}:")
    for (file, line, fn), (_cc, nc, tt, _ct, _callers) in sorted(stats.stats.items(), key=lambda kv: -kv[1][2])[
            :args.top]:
        if file == "~" or file.startswith("<") and not file.startswith("<nordlang"):
            where = fn if file == "~" else file       # (a built-in; generated code of the engine's own)
        else:
            where = f"{os.path.relpath(file.removeprefix('<nordlang ').split('>')[0], ROOT)}:{line}({fn})"
        print(f"  {100 * tt / total:5.1f}%  {nc / n:9.1f} calls  {where}")

    print("\nrulebook definitions called (not inlined), a game:")
    for name, calls in definition_calls(rules, seeds).most_common(args.top):
        f = rules.names.funcs[name]
        how = "inlined where it can be" if f.cheap else "static, memoised" if f.static else "memoised or direct"
        print(f"  {calls / n:9.1f}  {name}  ({how})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
