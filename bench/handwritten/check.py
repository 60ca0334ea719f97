"""Check that the hand-written engine (nord.py) plays nordlang's rules.

    python3 bench/handwritten/check.py [GAMES] [PLAYERS]   # default 50 games, 4 players, about 15 s

Plays random games (2, 3 or 4 players: the standard islands) in both engines in lockstep: nordlang's random
choice is played in both, and at every decision the two must offer the
same options (the same set: order does not matter to a uniform choice) in
the same position (workers, warriors, jarls, supplies, fishing boats, the
large dragon boat, points, treasure tiles). The treasure supply is copied
from nordlang at the start, and again after a reshuffle of the played
tiles (the two engines shuffle with different random sources). The test
suite runs it on a few games (tests/test_handwritten.py): two engines
written apart from the same rules cross-check each other.
"""

from __future__ import annotations

import os
import random
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)

import nord  # noqa: E402

import nordlang  # noqa: E402
from nordlang.engine.game import Game  # noqa: E402

# nordlang's choice names, by the hand-written engine's
NAMES = {"action": "action", "tile": "play", "negotiate": "negotiate", "place": "place", "attack": "attack",
         "path": "path", "post": "post", "challenge": "challenge"}


def check_island(rules) -> None:
    """The hand-written map is nordlang's board for as many players."""
    grid = rules.grid
    isl = nord.ISLAND_OF[rules.num_players]
    char = {"mountain": "m", "forest": "f", "karst": "k", "sea": "~"}
    mine = {s: (t if s not in isl.stone_piles else "*") for s, t in isl.terrain.items()}
    theirs = {s: "*" if "stone_pile" in grid.features.get(s, ()) else char[t]
              for s, t in grid.terrain.items() if s not in grid.structure_at}
    assert mine == theirs, f"terrain differs from nordlang's {rules.num_players}-player island"
    where = dict(isl.settlement_at, X=isl.dragon_at)
    assert where == {sid: st.space for sid, st in grid.structures.items()}, "structures differ"
    assert tuple(isl.seats) == tuple(rules.seats), "seats differ"


class Lockstep(nord.Nord):
    """The hand-written game, taking nordlang's random decisions."""

    def __init__(self, rules, seed):
        super().__init__(seed, rules.num_players)
        self.g = Game(rules, seed)
        self.pick = random.Random(seed)
        self.played_before = 0
        self.copy_treasures()

    def copy_treasures(self):
        st = self.g.state
        self.hand = [sorted(_symbols(st.pools[("hand", p)]).elements()) for p in range(self.n)]
        self.treasure_at = self.treasures_on_board(st)
        self.deck = [t[1] for t in reversed(st.decks[("treasures", None)])]    # (drawn from the end here)
        self.played = [t[1] for t in st.decks[("played", None)]]

    def choose(self, what, options):
        if len(options) == 1:             # nordlang takes it at once: no decision there
            return options[0]
        st = self.g.state
        self.compare(st)
        pend = st.pending
        assert (pend.step.name, pend.player) == (NAMES[what], self.player), (what, pend.step.name, pend.player)
        theirs = [_mine(what, v) for v in pend.options]
        assert len(theirs) == len(options) and set(theirs) == set(options), (what, theirs, options)
        self.stats["decisions"] += 1
        self.stats[what] += 1
        self.stats[what + " options"] += len(options)
        i = self.pick.randrange(len(pend.options))
        self.g.play_index(i)
        return theirs[i]

    def treasures_on_board(self, st):
        return {s: t[1] for s in self.stone_piles for t, n in st.pools[s].items() if t[0] == "treasure" and n}

    def compare(self, st):
        played = len(st.decks[("played", None)])
        if played < self.played_before:   # nordlang reshuffled: both take its order
            assert set(self.treasure_at) == set(self.treasures_on_board(st))
            self.copy_treasures()
        self.played_before = played
        pools = st.pools
        want = {
            "workers": {s: m[1] for s, m in st.occupied.items()},
            "warriors": {x: [pools[x].get(("man", p), 0) for p in range(self.n)] for x in self.settlements},
            "jarls": {x: (-1 if j[1] is None else j[1]) for x in self.settlements for j in pools[x]
                      if j[0] == "jarl"},
            "supply": [pools[("supply", p)].get(("man", p), 0) for p in range(self.n)],
            "fleet": pools[("fleet", None)].get(("boat", None), 0),
            "boat": [(m[0], -1 if m[1] is None else m[1]) for m in st.tracks[("longboat", None)] if m is not None],
            "points": [st.counters.get(("points", p), 0) for p in range(self.n)],
            "hands": [_symbols(pools[("hand", p)]) for p in range(self.n)],
            "treasures": self.treasures_on_board(st),
            "scorings": st.counters.get(("counter", "scorings"), 0),
            "turns": st.turn,
        }
        have = {
            "workers": self.workers, "warriors": self.warriors, "jarls": self.jarl, "supply": self.supply,
            "fleet": self.fleet, "boat": self.boat, "points": self.points,
            "hands": [Counter(h) for h in self.hand], "treasures": self.treasure_at,
            "scorings": self.scorings, "turns": self.turns,
        }
        for k, v in want.items():
            assert have[k] == v, f"turn {st.turn}: {k} differ:\n nordlang     {v}\n hand-written {have[k]}"


def _symbols(pool):
    return Counter({t[1]: n for t, n in pool.items() if n})




def _mine(what, v):
    """A nordlang option as the hand-written engine writes it."""
    if what == "tile" and v is not None:
        return v[1]
    return v


def main(argv=None):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", type=int, nargs="?", default=50, help="random games (default 50)")
    ap.add_argument("players", type=int, nargs="?", default=4, choices=(2, 3, 4), help="players (default 4)")
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    n, players = args.games, args.players
    rules = nordlang.load_rules(None, players)
    check_island(rules)
    stats = Counter()
    turns = 0
    for seed in range(1, n + 1):
        game = Lockstep(rules, seed)
        game.play()
        assert game.g.over, f"seed {seed}: nordlang's game goes on"
        game.compare(game.g.state)
        stats += game.stats
        turns += game.turns
    print(f"{n} random {players}-player games in lockstep: the same options at all {stats['decisions']} decisions "
          f"and the same position at each; {turns / n:.1f} turns/game, "
          f"{stats['place options'] / stats['place']:.1f} options per placement decision")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
