"""Where random games of a bundled game spend their time (figures only; never part of the tests).

    python bench/hotspots.py --game vikings --players 4 --games 30
    python bench/hotspots.py --game nord --players 3 --games 5 --top 30
    python bench/hotspots.py --game nord --players 2 --agent mcts --seconds 15

Plays seeded random games through the public API (`len(game.legal_moves())`,
then `game.play_index(rng.randrange(n))`) under cProfile and prints:

- each choice's options: time and calls per game (what a decision costs
  before a move is picked);
- the functions with the most time of their own, the rulebook's compiled
  texts named by file and line, and the rulebook's definitions by name
  with how often each is called per game;
- the engine's parts, sampled (`--seconds`, where the system has a
  profiling timer): the share of the time in the rulebook's effects, its
  definitions, its other expressions (tests, bindings, option lists), and
  in the machinery around them (the flow's machine, lookahead, option
  lists and their checks, frames and records, the API), and how much of
  it runs in lookahead probes; and what a game would take with no
  machinery at all (the rules' own work at its cost, and this bench's loop).

With `--agent mcts`, only sampled: where the mcts agent's searches from
the seeded positions of bench/mcts_positions.py spend their time (playing
each new position's decision on, the rulebook's evaluation, copies, the
honest sample, the tree's own work), the decisions played on split into
the engine's parts as above, and what a search would take with no
machinery in them.

cProfile's own cost falls on every call, so small functions look dearer than
they are: compare figures of one run, or count instructions
(valgrind --tool=callgrind) for the effect of a change. The sampled shares
carry no such cost (an interrupt every millisecond looks at the stack),
but a sample is taken where the interpreter next checks for one (a call,
a loop's jump back), so the time of C code falls near where it was spent.
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import os
import pstats
import random
import signal
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

import nordlang  # noqa: E402
from nordlang.engine import flow  # noqa: E402
from nordlang.engine.program import Do  # noqa: E402
from nordlang.lang.builtins import EFFECT  # noqa: E402


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


# the machinery's modules (engine/): a sample whose innermost frame is one of them is its own
MACHINERY = {"flow.py": "the flow's machine", "program.py": "the flow's machine", "loops.py": "loop heads",
             "lookahead.py": "lookahead probes", "lone.py": "lone options", "options.py": "option lists and checks",
             "views.py": "option lists and checks", "frames.py": "frames, pending choices, records",
             "game.py": "the API", "simultaneous.py": "secret choices", "chance.py": "chance"}
RULES_WORK = ("effects", "definitions", "other expressions (tests, bindings, option lists)")


BENCH_LOOP = "the bench's own loop and random draws"


def _classifier(rules):
    """(part, by definition, [samples in lookahead probes]): part(codes) is
    the engine's part of a sample whose stack holds these code objects,
    innermost first (see engine_parts); it counts the other two."""
    machine = nordlang.Game(rules, 0).machine
    effects = {ins.run.__code__ for code in machine.programs.values() for ins in code
               if type(ins) is Do and hasattr(ins.run, "__code__")}
    definitions = {}
    for name, f in rules.names.funcs.items():
        if hasattr(f.py, "__code__"):
            if f.kind == EFFECT:
                effects.add(f.py.__code__)
            else:
                definitions[f.py.__code__] = name
    by_definition = collections.Counter()
    probing = [0]

    def part(codes) -> str:
        machinery = [co.co_filename.rsplit("/", 1)[-1] if "/engine/" in co.co_filename else None for co in codes]
        if "lookahead.py" in machinery:
            probing[0] += 1
        if machinery[0] in MACHINERY:
            return MACHINERY[machinery[0]]
        work = codes[:next((i for i, m in enumerate(machinery) if m in MACHINERY), len(codes))]
        if any(co in effects for co in work):
            return "effects"
        name = next((definitions[co] for co in work if co in definitions), None)
        if name is not None:
            by_definition[name] += 1
            return "definitions"
        if any(co.co_filename.startswith("<") for co in work):
            return RULES_WORK[2]
        where = codes[0].co_filename.rsplit("/", 1)[-1]
        if where == "hotspots.py" or where == "random.py" and len(codes) > 1 and \
                codes[1].co_filename.endswith("hotspots.py"):
            return BENCH_LOOP           # (the bench's loop, and the random draws it makes: not the engine's)
        return f"other: {where}"
    return part, by_definition, probing


def _sampled(classify, seconds: float, run) -> collections.Counter:
    """Samples of `run(k)` for k = 0, 1, ... until `seconds` of CPU time, one
    each millisecond of it, counted by classify(the stack's code objects,
    innermost first)."""
    counts = collections.Counter()

    def sample(_sig, frame):
        codes = []
        while frame is not None:
            codes.append(frame.f_code)
            frame = frame.f_back
        counts[classify(codes)] += 1

    old = signal.signal(signal.SIGPROF, sample)
    signal.setitimer(signal.ITIMER_PROF, 0.001, 0.001)
    try:
        end = time.process_time() + seconds
        k = 0
        while time.process_time() < end:
            run(k)
            k += 1
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        signal.signal(signal.SIGPROF, old)
    return counts


def engine_parts(rules, seconds: float) -> tuple:
    """(shares by part, shares by definition, the share in lookahead probes,
    samples) of random games played for `seconds` of CPU time, sampled every
    millisecond. A sample's part: the machinery's module its innermost frame
    is in; else the rules' work it is in, below the machinery's innermost
    frame: an effect (a flow's `do`, a procedure), else a definition (the
    innermost, with what it calls), else other generated code; else the
    module it is in (this bench's loop and its random draws: their own part)."""
    part, by_definition, probing = _classifier(rules)
    parts = _sampled(part, seconds, lambda k: play(rules, [1000 + k]))
    n = sum(parts.values()) or 1
    return ({k: v / n for k, v in parts.items()}, {k: v / n for k, v in by_definition.items()},
            probing[0] / n, n)


# a search's parts: what the agent (mcts.py) calls, by the first frame below its own
SEARCH = (("branch", "copies of positions"), ("for_player", "the honest sample (what the mover may know)"),
          ("choose", "playing each new position's decision on"))


def search_parts(rules, seconds: float) -> tuple:
    """(shares by part, the engine's parts of the decisions played on, samples)
    of the mcts agent (default budget) searching the seeded positions of
    bench/mcts_positions.py for `seconds` of CPU time: playing each new
    position's decision on to the next (split as engine_parts splits a
    game), scoring it by the rulebook's evaluation, copying positions,
    drawing the honest sample, and the tree's own work (selection, backups,
    its random draws)."""
    from mcts_positions import mcts_position

    from nordlang.agents.base import make_agent
    part, _by_definition, _probing = _classifier(rules)
    evaluation = rules.evaluation.__code__ if hasattr(rules.evaluation, "__code__") else None
    played = collections.Counter()

    def classify(codes) -> str:
        agent = [i for i, co in enumerate(codes) if co.co_filename.endswith(("mcts.py", "mcts_tree.py"))]
        if not agent:
            return "positions set up (bench)"
        below = codes[:agent[0]]
        if evaluation is not None and evaluation in below:
            return "the rulebook's evaluation"
        if below:
            name = below[-1].co_name
            for fn, label in SEARCH:
                if name == fn:
                    if fn == "choose":
                        played[part(below)] += 1
                    return label
        return "the tree's own work (selection, backups, draws)"

    positions = {}

    def search(k):
        g = positions.get(k % 12)
        if g is None:
            g = positions[k % 12] = mcts_position(nordlang, rules, k % 12)
        make_agent("mcts", 1 + k).choose(g)

    parts = _sampled(classify, seconds, search)
    parts.pop("positions set up (bench)", None)
    n = sum(parts.values()) or 1
    m = sum(played.values()) or 1
    return {k: v / n for k, v in parts.items()}, {k: v / m for k, v in played.items()}, n


def print_parts(shares) -> None:
    """The rules' own work and the machinery around it, part by part, the
    bench's own loop apart; and the time a game would take with no
    machinery at all (the rules' own work at its cost, and the bench's loop)."""
    work = sum(shares.get(k, 0) for k in RULES_WORK)
    loop = shares.get(BENCH_LOOP, 0)
    print(f"  {100 * work:5.1f}%  the rules' own work:")
    for name in RULES_WORK:
        print(f"  {100 * shares.get(name, 0):9.1f}%  {name}")
    print(f"  {100 * (1 - work - loop):5.1f}%  the machinery around it:")
    for name, share in sorted(shares.items(), key=lambda kv: -kv[1]):
        if name not in RULES_WORK and name != BENCH_LOOP and share >= 0.005:
            print(f"  {100 * share:9.1f}%  {name}")
    print(f"  {100 * loop:5.1f}%  {BENCH_LOOP}")
    print(f"  with no machinery at all: {work + loop:.2f} of the time")


def main_search(rules, seconds: float) -> int:
    """--agent mcts: where a search's time goes."""
    if not hasattr(signal, "setitimer"):
        print("sampling needs a profiling timer (signal.setitimer), which this system lacks", file=sys.stderr)
        return 2
    if rules.evaluation is None:
        print("this rulebook states no evaluation: mcts cannot play it", file=sys.stderr)
        return 2
    shares, played, samples = search_parts(rules, seconds)
    print(f"the mcts agent's searches (default budget) from the seeded positions of bench/mcts_positions.py, "
          f"sampled ({samples} samples):")
    for name, share in sorted(shares.items(), key=lambda kv: -kv[1]):
        print(f"  {100 * share:5.1f}%  {name}")
    print("the decisions played on, by the engine's parts:")
    print_parts(played)
    on = shares.get(SEARCH[2][1], 0)
    machinery = 1 - sum(played.get(k, 0) for k in RULES_WORK) - played.get(BENCH_LOOP, 0)
    print(f"a search with no machinery in the decisions it plays on: {1 - on * machinery:.2f} of the time")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="vikings")
    ap.add_argument("--players", type=int, help="players (default: the rulebook's default)")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--top", type=int, default=25, help="functions listed")
    ap.add_argument("--seconds", type=float, default=5.0, help="CPU seconds of sampled games (default 5; 0: none)")
    ap.add_argument("--agent", choices=("random", "mcts"), default="random",
                    help="random games (default), or the mcts agent's searches: sampled only (--seconds)")
    args = ap.parse_args(argv)
    rules = nordlang.load_rules(args.game, args.players)
    if args.agent == "mcts":
        return main_search(rules, args.seconds or 5.0)
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

    if args.seconds > 0 and hasattr(signal, "setitimer"):
        shares, defined, probing, samples = engine_parts(rules, args.seconds)
        print(f"\nthe engine's parts, sampled ({samples} samples; {100 * probing:.1f}% in lookahead probes):")
        print_parts(shares)
        print("  definitions, each (with what they call):")
        for name, share in sorted(defined.items(), key=lambda kv: -kv[1])[:args.top]:
            print(f"  {100 * share:9.1f}%  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
