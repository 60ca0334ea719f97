"""Speed figures for every bundled game (figures only; never part of the tests or CI).

    python bench/speed.py                      # every game, both paths, about 1 minute
    python bench/speed.py --quick              # a rough figure in seconds
    python bench/speed.py --games hex,nord     # some games

Random games per second on one core, through two paths, in alternating
rounds of a fixed time (so that the drift of a shared machine's speed hits
both alike):

- simulate: the path of `nord simulate --jobs 1` (sim.simulate.run_game:
  random agents, the game's record built, nothing written);
- api: the public API, `len(game.legal_moves())` then
  `game.play_index(rng.randrange(n))` with a seeded random.Random.

Each game is measured at the fewest and the most players its rulebook
allows. bench/all.py prints these beside the other figures.
"""

from __future__ import annotations

import gc
import os
import random
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

import nordlang  # noqa: E402
from nordlang.engine.game import Game  # noqa: E402
from nordlang.sim.simulate import Config, run_game  # noqa: E402


def calibration() -> float:
    """Milliseconds for a fixed plain-Python loop (tuple keys into a dict), best of 3
    (as bench/bench.py: lower is a faster machine)."""
    best = float("inf")
    for _ in range(3):
        t = time.process_time()
        d = {}
        for i in range(300_000):
            d[(i & 1023, i & 7)] = i
        best = min(best, time.process_time() - t)
    return 1000 * best


def load() -> str:
    """The machine's load averages (1, 5, 15 minutes), as text."""
    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "?"


def player_counts(name: str) -> list:
    """The fewest and the most players the bundled game `name` allows."""
    from nordlang.rules.games import game_file
    from nordlang.rules.yamlpos import load_yaml
    data, _ = load_yaml(game_file(name))
    pl = data.get("players") or {}
    lo, hi = pl.get("min", 2), pl.get("max", pl.get("min", 2))
    return sorted({lo, hi})


def bundled() -> list:
    from nordlang.rules.games import bundled_games
    return sorted(bundled_games())


class Timed:
    """A way of playing games, timed over rounds: games played, decisions, seconds."""

    def __init__(self, label, play_one):
        self.label = label
        self.play_one = play_one           # i -> decisions of game i
        self.games = self.decisions = 0
        self.seconds = 0.0

    def round(self, seconds: float) -> None:
        """Play whole games until `seconds` have passed (one at least)."""
        t0 = time.perf_counter()
        while True:
            self.decisions += self.play_one(self.games)
            self.games += 1
            t = time.perf_counter() - t0
            if t >= seconds:
                break
        self.seconds += t

    @property
    def rate(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


def interleave(timers, seconds: float, rounds: int) -> None:
    """Give each timer `seconds` in all, in `rounds` alternating slices."""
    for _ in range(rounds):
        for t in timers:
            t.round(seconds / rounds)


def simulate_path(name, players, seed=1):
    """Game i as `nord simulate --jobs 1` plays it (random agents); returns its decisions."""
    config = Config(rulebook=name, players=players, seed=seed)

    def play(i):
        rec = run_game(config, i)
        if "error" in rec:
            raise RuntimeError(f"{name}: game {i}: {rec['error']}")
        return rec["decisions"]
    return play


def api_path(rules, seed=1):
    """Game i through the public API with a seeded random.Random; returns its decisions."""
    def play(i):
        rng = random.Random(seed + i)
        g = Game(rules, seed + i)
        k = 0
        while not g.over:
            g.play_index(rng.randrange(len(g.legal_moves())))
            k += 1
        return k
    return play


def measure_game(name, players, seconds, rounds, seed=1):
    """{game, players, simulate g/s, api g/s, decisions/game} of one game at one player count."""
    rules = nordlang.load_rules(name, players)
    sim, api = Timed("simulate", simulate_path(name, players, seed)), Timed("api", api_path(rules, seed))
    sim.play_one(10_000)                   # warm up once, untimed (and the simulate path's rules cache)
    api.play_one(10_000)
    interleave([sim, api], seconds, rounds)
    return {"game": name, "players": players, "simulate": sim.rate, "api": api.rate,
            "decisions": api.decisions / api.games, "games": (sim.games, api.games)}


def measure_games(names, seconds, rounds, players=None, progress=None):
    rows = []
    for name in names:
        for p in ([players] if players else player_counts(name)):
            rows.append(measure_game(name, p, seconds, rounds))
            if progress:
                progress(f"{name} {p} players done")
    return rows


def print_games(rows, out=sys.stdout):
    print(f"{'game':<14}{'players':>7}{'simulate g/s':>14}{'api g/s':>10}{'decisions/game':>16}{'games timed':>13}",
          file=out)
    for r in rows:
        print(f"{r['game']:<14}{r['players']:>7}{r['simulate']:14.1f}{r['api']:10.1f}{r['decisions']:16.1f}"
              f"{'{}+{}'.format(*r['games']):>13}", file=out)


def mcts_rate(name, players, decisions, seed=1):
    """mcts (default budget) over `decisions` seeded positions: (positions created, seconds, decisions).

    At each position of bench/mcts_positions.py a fresh agent (seed + k) takes one decision there,
    and the positions it created (last_stats["created"]) are counted over
    the wall time of that decision (with the collection of the young
    objects it leaves: the agent keeps the collector off while it searches)."""
    from mcts_positions import mcts_position

    from nordlang.agents.base import make_agent
    rules = nordlang.load_rules(name, players)
    created, secs = 0, 0.0
    for k in range(decisions):
        g = mcts_position(nordlang, rules, k, seed)
        agent = make_agent("mcts", seed + k)
        t = time.perf_counter()
        agent.choose(g)
        gc.collect(0)       # (the young objects the search leaves: a collection it put off, charged to it)
        secs += time.perf_counter() - t
        created += agent.last_stats["created"]
    return created, secs, decisions


def sample_time(name, players, positions=12, rounds=5, seed=1):
    """Seconds an honest sample takes (`game.for_player(mover, seed)`, what
    mcts and greedy search from at each decision): the best of `rounds`
    passes over the seeded positions of bench/mcts_positions.py."""
    from mcts_positions import mcts_position
    rules = nordlang.load_rules(name, players)
    games = [mcts_position(nordlang, rules, k, seed) for k in range(positions)]
    best = None
    for _ in range(rounds):
        t = time.perf_counter()
        for g in games:
            g.for_player(g.to_move, seed)
        secs = (time.perf_counter() - t) / len(games)
        best = secs if best is None else min(best, secs)
    return best


def startup_times(runs, root=ROOT):
    """Median wall time (seconds) of `runs` runs of each start-up command, as subprocesses,
    with this checkout's nordlang first on the path (after one untimed run: bytecode and disk caches warm,
    the compiled-rulebook cache too; the last command runs with it off)."""
    import shutil
    import statistics
    import subprocess
    env = dict(os.environ, PYTHONPATH=os.path.abspath(root) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("PYTHONDONTWRITEBYTECODE", None)    # (bytecode kept, as pip keeps it for an installed package)
    nord = shutil.which("nord") or os.path.join(os.path.dirname(sys.executable), "nord")
    nord_cmd = [nord] if os.path.exists(nord) else [sys.executable, "-m", "nordlang"]
    play = nord_cmd + ["play", "--game", "tictactoe", "--seed", "1", "--agents", "random", "--quiet"]
    commands = [
        ("python -c 'import nordlang'", [sys.executable, "-c", "import nordlang"], env),
        ("nord --help", nord_cmd + ["--help"], env),
        ("nord play --game tictactoe --seed 1 --agents random --quiet", play, env),
        ("  the same, NORDLANG_CACHE=off (the rulebook read, validated, parsed)", play,
         dict(env, NORDLANG_CACHE="off")),
    ]
    baseline = [sys.executable, "-c", "pass"]
    out = []
    for label, cmd, cmd_env in [("python -c pass (the interpreter alone)", baseline, env)] + commands:
        subprocess.run(cmd, env=cmd_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)  # warm
        times = []
        for _ in range(runs):
            t = time.perf_counter()
            subprocess.run(cmd, env=cmd_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            times.append(time.perf_counter() - t)
        out.append((label, statistics.median(times), runs))
    return out


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", help="bundled games, by name, comma-separated (default all)")
    ap.add_argument("--players", type=int, help="one player count for every game (default: its fewest and most)")
    ap.add_argument("--seconds", type=float, help="seconds per path and game (default 3, quick 0.3)")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    names = args.games.split(",") if args.games else bundled()
    seconds = args.seconds or (0.3 if args.quick else 3.0)
    print(f"nordlang {nordlang.__version__}, Python {sys.version.split()[0]}, load {load()}", flush=True)
    cal = calibration()
    rows = measure_games(names, seconds, 2 if args.quick else 6, args.players,
                         lambda m: print(f"  {m}", file=sys.stderr, flush=True))
    print_games(rows)
    print(f"calibration {min(cal, calibration()):.0f} ms; load {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
