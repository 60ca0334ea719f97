"""Where nordlang's time goes beside the hand-written engine's: the rules'
questions, and everything else.

    python3 bench/handwritten/split.py                  # 100 games each, 2 and 4 players
    python3 bench/handwritten/split.py --players 4 --games 200

Both engines answer the same questions of Nord's rules: where a player may
place (his reach, the groups of open spaces), which settlements are linked
(attack and negotiation pairs), which he may challenge, the shortest paths
of an attack. This bench times, in each engine, the calls that answer them
(a question asked inside another counts once) and everything else: the
rest of a turn (nordlang: its step machine, lookahead, effects on the
versioned state, the records; hand-written: plain dict updates). Random
games on one core, in alternating rounds; figures in ms a game.

Each timed call pays for its timing in both engines (about a microsecond),
so the questions look a little dearer than they are: compare the two
engines' columns, not these figures with compare.py's.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
os.environ["NORDLANG_CACHE"] = "off"      # (the definitions are timed as they are compiled)

import nord  # noqa: E402
from compare import handwritten_games, nordlang_games  # noqa: E402

import nordlang  # noqa: E402
from nordlang.engine.game import Game  # noqa: E402
from nordlang.engine.library.registry import STD  # noqa: E402
from nordlang.lang import memo  # noqa: E402

# the questions: the hand-written engine's methods, nordlang's definitions and primitives
HANDWRITTEN = ("placements", "can_place_now", "connected_pairs", "challenge_targets", "shortest_paths")
DEFINITIONS = ("land_groups", "sea_groups", "reach", "attack_pairs", "challenge_targets")
PRIMITIVES = ("connected_pairs", "shortest_paths")


class Clock:
    """Seconds spent in the timed calls, outermost only."""

    def __init__(self):
        self.seconds = 0.0
        self.depth = 0

    def timed(self, fn):
        def call(*args):
            if self.depth:
                return fn(*args)
            self.depth = 1
            t = time.perf_counter()
            try:
                return fn(*args)
            finally:
                self.depth = 0
                self.seconds += time.perf_counter() - t
        return call


HW, NL = Clock(), Clock()
for _name in HANDWRITTEN:
    setattr(nord.Nord, _name, HW.timed(getattr(nord.Nord, _name)))
for _name in PRIMITIVES:
    _b = STD.get(_name)
    object.__setattr__(_b, "fn", NL.timed(_b.fn))     # (a primitive is frozen: the bench's own change)
_finish = memo.Func.finish


def _timed_finish(self):
    # (a definition's code, timed before its calls are set up: memoised or not, a computation is timed)
    if self.name in DEFINITIONS and not getattr(self, "_timed", False):
        self._timed = True
        self.py = NL.timed(self.py)
    return _finish(self)


memo.Func.finish = _timed_finish


def games(players, n, rounds, seed):
    """Per game, in ms: (hand-written questions, total), (nordlang questions, total)."""
    rules = nordlang.load_rules(None, players)
    missing = [n for n in DEFINITIONS if n not in rules.names.funcs]
    if missing:
        raise SystemExit(f"the bundled Nord has no definition {', '.join(missing)}: say which to time in DEFINITIONS")
    hw_total = nl_total = 0.0
    HW.seconds = NL.seconds = 0.0
    done = 0
    while done < n:
        seeds = range(seed + done, seed + min(done + rounds, n))
        hw_total += handwritten_games(seeds, players)[0]
        nl_total += nordlang_games(rules, seeds)[0]
        done += len(seeds)
    k = 1000 / n
    return (HW.seconds * k, hw_total * k), (NL.seconds * k, nl_total * k)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100, help="random games per engine and player count (default 100)")
    ap.add_argument("--round", type=int, default=20, help="games per engine in each alternating round (default 20)")
    ap.add_argument("--players", default="2,4", help="player counts (default 2,4)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    print(f"ms a random game, {args.games} games per engine and player count (questions: {', '.join(HANDWRITTEN)})")
    print(f"{'players':>7}{'engine':>14}{'questions':>11}{'the rest':>10}{'total':>8}")
    for players in (int(x) for x in args.players.split(",")):
        Game(nordlang.load_rules(None, players), 0)
        nord.Nord(0, players).play()                 # (both warmed up, untimed)
        (hq, ht), (nq, nt) = games(players, args.games, args.round, args.seed)
        print(f"{players:>7}{'hand-written':>14}{hq:11.2f}{ht - hq:10.2f}{ht:8.2f}")
        print(f"{'':>7}{'nordlang':>14}{nq:11.2f}{nt - nq:10.2f}{nt:8.2f}")
        print(f"{'':>7}{'ratio':>14}{nq / hq:11.2f}{(nt - nq) / (ht - hq):10.2f}{nt / ht:8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
