"""Two versions of the engine side by side: random games per second of each,
timed in alternating rounds in one run (this machine's speed drifts, so
only a ratio measured so is worth quoting).

    git worktree add /tmp/base <commit>
    python bench/ab.py /tmp/base . --game hex --path api --games 100 --rounds 5

Each round runs the same seeded games in a fresh process per tree
(PYTHONPATH=tree), one core, and the best round of each is compared.
`--path api` picks by `len(game.legal_moves())` and `play_index`, as a
user of the Python API would; `--path engine` by the pending choice's
options, as the simulator does. The mcts agent's two trees compare with
bench/mcts_ab.py (positions per second, and the same moves).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

GAMES = r'''
import random, sys, time
sys.path.insert(0, sys.argv[1])
import nordlang
game, players, n, path = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
rules = nordlang.load_rules(game, players)
t = time.process_time()
for seed in range(n):
    g = nordlang.Game(rules, seed)
    r = random.Random(seed)
    while not g.over:
        k = len(g.legal_moves()) if path == "api" else len(g.state.pending.options)
        g.play_index(r.randrange(k))
print(time.process_time() - t)
'''


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a", help="the first tree (a checkout or worktree)")
    ap.add_argument("b", help="the second tree")
    ap.add_argument("--game", default="hex")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--path", choices=["api", "engine"], default="engine")
    args = ap.parse_args()
    best = {}
    for _ in range(args.rounds):
        for tree in (args.a, args.b):
            env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
            out = subprocess.run([sys.executable, "-c", GAMES, os.path.abspath(tree), args.game, str(args.players),
                                  str(args.games), args.path], capture_output=True, text=True, env=env, check=True)
            best[tree] = min(best.get(tree, float("inf")), float(out.stdout))
    a, b = best[args.a], best[args.b]
    print(f"{args.game} {args.players}p, {args.games} random games, {args.path} path, best of {args.rounds} rounds:")
    print(f"  {args.a}: {args.games / a:8.1f} games/s")
    print(f"  {args.b}: {args.games / b:8.1f} games/s")
    print(f"  {args.b} / {args.a}: {a / b:.2f} times as fast")


if __name__ == "__main__":
    main()
