"""The mcts agent of two trees side by side: positions created per second on
Nord and Vikings (2 and 4 players), in alternating rounds of fresh
processes (this machine's speed drifts: only a ratio measured so is worth
quoting), and a check that both trees choose the same moves.

    git worktree add /tmp/base main
    python bench/mcts_ab.py /tmp/base . --decisions 12 --rounds 3
    python bench/mcts_ab.py /tmp/base . --decisions 4 --instructions   # valgrind: deterministic counts

The decisions are those of bench/speed.py mcts_rate (a fresh agent at
the seeded positions of bench/mcts_positions.py). With --instructions each tree runs
once under callgrind, and the instructions of the searches alone (a run
that only reaches the positions is subtracted) are divided by the
positions created.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIGS = (("nord", 2), ("nord", 4), ("vikings", 2), ("vikings", 4))

RUN = r'''
import gc, sys, time
sys.path.insert(0, sys.argv[1])
import nordlang
from mcts_positions import mcts_position      # (bench/, on the path after the tree)
from nordlang.agents.base import make_agent
game, players, n, search = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1"
rules = nordlang.load_rules(game, players)
make_agent("mcts", 0)     # (in both runs: importing the agents is not search work)
created, secs, choices = 0, 0.0, []
for k in range(n):        # as bench/speed.py mcts_rate, seed 1
    g = mcts_position(nordlang, rules, k)
    if not search:
        continue
    agent = make_agent("mcts", 1 + k)
    t = time.process_time()
    choices.append(agent.choose(g))
    gc.collect(0)      # (the young objects a search leaves, collected in its time: a collection it put off)
    secs += time.process_time() - t
    created += agent.last_stats["created"]
print(created, secs, ",".join(map(str, choices)))
'''


def run(tree, game, players, n, search=True, valgrind=False):
    """(positions created, seconds, choices[, instructions]) of one process."""
    tree = os.path.abspath(tree)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([tree, HERE]), NORDLANG_CACHE="off", PYTHONHASHSEED="0")
    cmd = [sys.executable, "-c", RUN, tree, game, str(players), str(n), "1" if search else "0"]
    if valgrind:
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    created, secs, choices = out.stdout.split() if search else (0, 0, "")
    instr = None
    if valgrind:
        instr = int(next(line for line in out.stderr.splitlines() if "Collected :" in line).split()[-1])
    return int(created), float(secs), choices, instr


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a", help="the first tree (a checkout or worktree)")
    ap.add_argument("b", help="the second tree")
    ap.add_argument("--decisions", type=int, default=12, help="decisions per game and player count")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds (the best of each tree is kept)")
    ap.add_argument("--instructions", action="store_true", help="count instructions under valgrind instead")
    ap.add_argument("--games", help="game:players,... (default nord:2,nord:4,vikings:2,vikings:4)")
    args = ap.parse_args()
    configs = CONFIGS if not args.games else [(g, int(p)) for g, p in (x.split(":") for x in args.games.split(","))]
    what = "M instructions per position" if args.instructions else "positions/s (best of rounds)"
    for tree in (args.a, args.b):
        # (both trees' bytecode made first: a module a search imports late, compiled inside one tree's
        # measured run and not the other's, would count against that tree)
        subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(tree, "nordlang")],
                       check=True, capture_output=True)
    print(f"mcts, default budget, {args.decisions} decisions each; {what}")
    print(f"{'game':<9}{'players':>7}{'positions':>10}{'a':>12}{'b':>12}{'b/a speed':>11}  same moves")
    for game, players in configs:
        if args.instructions:
            res = {}
            for tree in (args.a, args.b):
                created, _s, choices, instr = run(tree, game, players, args.decisions, valgrind=True)
                setup = run(tree, game, players, args.decisions, search=False, valgrind=True)[3]
                res[tree] = (created, (instr - setup) / created / 1e6, choices)
            (ca, xa, cha), (cb, xb, chb) = res[args.a], res[args.b]
            print(f"{game:<9}{players:>7}{ca:>10}{xa:12.3f}{xb:12.3f}{xa / xb:11.2f}  "
                  f"{'yes' if cha == chb and ca == cb else 'NO'}")
            continue
        best = {}
        seen = {}
        for _ in range(args.rounds):
            for tree in (args.a, args.b):
                created, secs, choices, _ = run(tree, game, players, args.decisions)
                best[tree] = max(best.get(tree, 0.0), created / secs)
                seen[tree] = (created, choices)
        ra, rb = best[args.a], best[args.b]
        same = seen[args.a] == seen[args.b]
        print(f"{game:<9}{players:>7}{seen[args.a][0]:>10}{ra:12.0f}{rb:12.0f}{rb / ra:11.2f}  "
              f"{'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
