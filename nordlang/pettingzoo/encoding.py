"""A rulebook's positions as numpy arrays: one generic layout for any game.

What is encoded is one player's view (engine/views.py): an item he may not
see is counted face down, as its kind only. Counts are float32.

Channels (the last axis of every place): for each piece kind, in rulebook
order, its items by
  - owner, for an owned kind: one channel per player, *relative to the
    viewer* (channel 0 his own, 1 the next seat's, ...);
  - tag, one channel per tag the rulebook lists for the kind;
  - `other`: any other tag (an untagged kind's items all land here);
  - `?`: face down to the viewer (only in rulebooks with hidden information).
`Encoding.channels` names them ("kind:owner+1", "kind:TAG", "kind:other",
"kind:?").

Sections of an observation (a dict of arrays):
  - board (spaces, C): the board's spaces, in the board's order
    (`Encoding.spaces`); present when the game has a board;
  - structures (structures, C): what each structure holds, by id;
  - zones (zones, C): how many items each zone (pool, deck, track) holds,
    a per-player zone once per player, the viewer's first (`zone_rows`
    names them relative to the viewer: "supply+0" is his own);
  - grid:NAME (owners, rows, columns, C): a grid zone, cell by cell, owners
    relative to the viewer;
  - counters: each player's points (relative), then his points from each
    of the rulebook's sources (`result.sources`), then the named counters
    (`counter("name")`) the survey's random games set, then the turn
    (`Encoding.counters` names them: "points+0", "points:SOURCE+1",
    "counter:NAME", "turn");
  - choice (choices + players + 1,): the pending choice's name one-hot
    (`Encoding.choices`), whose decision it is one-hot (relative), and the
    number of its options; all 0 once the game is over.
"""

from __future__ import annotations

import numpy as np

from ..engine.game import Game
from ..engine.program import Choice
from ..engine.rng import Rng
from ..engine.views import HIDDEN, view

DTYPE = np.float32
SAMPLE_GAMES = 16           # seeded random games that survey a rulebook


def survey(rules, games: int = SAMPLE_GAMES) -> tuple[int, list]:
    """(the most options a decision had, the named counters set) in `games` seeded random games:
    what the rules do not fix in advance."""
    most, named = 0, set()
    for seed in range(games):
        g = Game(rules, seed)
        pick = Rng(10_000 + seed)
        while not g.over:
            n = len(g.state.pending.options)
            most = max(most, n)
            named.update(k[1] for k in g.state.counters if k[0] == "counter" and len(k) == 2)
            g.play_index(pick.randrange(n))
        named.update(k[1] for k in g.state.counters if k[0] == "counter" and len(k) == 2)
    return most, sorted(named, key=str)


class Encoding:
    """The fixed layout of one compiled rulebook's observations."""

    def __init__(self, rules, machine, named_counters=()):
        self.rules = rules
        n = self.players = rules.num_players
        self.counters = ([f"points+{k}" for k in range(n)]
                         + [f"points:{src}+{k}" for src in rules.sources for k in range(n)]
                         + [f"counter:{name}" for name in named_counters] + ["turn"])
        self._named = list(named_counters)
        self.channels: list[str] = []
        self._owned: dict = {}            # kind -> channel of owner 0 (relative)
        self._tagged: dict = {}           # (kind, tag) -> channel
        self._other: dict = {}            # kind -> channel
        self._hidden: dict = {}           # kind -> channel
        for kind, spec in rules.pieces.items():
            spec = spec or {}
            if spec.get("owned"):
                self._owned[kind] = len(self.channels)
                self.channels += [f"{kind}:owner+{k}" for k in range(n)]
            for tag in spec.get("tags") or ():
                self._tagged[(kind, tag)] = len(self.channels)
                self.channels.append(f"{kind}:{tag}")
            self._other[kind] = len(self.channels)
            self.channels.append(f"{kind}:other")
            if rules.hidden_information:
                self._hidden[kind] = len(self.channels)
                self.channels.append(f"{kind}:{HIDDEN}")
        grid = rules.grid
        self.spaces = list(grid.spaces)
        self._space_row = {s: i for i, s in enumerate(self.spaces)}
        self.structures = sorted(grid.structures)
        self._structure_row = {s: i for i, s in enumerate(self.structures)}
        self.zone_rows: list[str] = []
        self._zone_row: dict = {}         # zone name -> (first row, per player)
        self.grids: dict = {}             # grid zone name -> (owners, rows, columns)
        for name, spec in rules.zones.items():
            per_player = bool(spec.get("per_player"))
            if spec.get("type") == "grid":
                self.grids[name] = (n if per_player else 1, int(spec["rows"]), int(spec["columns"]))
                continue
            self._zone_row[name] = (len(self.zone_rows), per_player)
            self.zone_rows += [f"{name}+{k}" for k in range(n)] if per_player else [name]
        self.choices = sorted({ins.step.name for code in machine.programs.values() for ins in code
                               if type(ins) is Choice})
        self._choice_index = {c: i for i, c in enumerate(self.choices)}
        self._channel_cache: dict = {}
        self._shapes = self._layout()

    # ---- shapes ----
    def shapes(self) -> dict:
        """Each section's name and shape, in the order of a flat observation."""
        return dict(self._shapes)

    def _layout(self) -> dict:
        c, n = len(self.channels), self.players
        out = {}
        if self.spaces:
            out["board"] = (len(self.spaces), c)
        if self.structures:
            out["structures"] = (len(self.structures), c)
        if self.zone_rows:
            out["zones"] = (len(self.zone_rows), c)
        for name, (owners, rows, cols) in self.grids.items():
            out[f"grid:{name}"] = (owners, rows, cols, c)
        out["counters"] = (len(self.counters),)
        out["choice"] = (len(self.choices) + n + 1,)
        return out

    def split(self, vector) -> dict:
        """The sections of a flat observation (a view of the vector, section by section)."""
        out, at = {}, 0
        for name, shape in self.shapes().items():
            size = int(np.prod(shape))
            out[name] = vector[at:at + size].reshape(shape)
            at += size
        if at != len(vector):
            raise ValueError(f"a flat observation of this game has {at} numbers, not {len(vector)}")
        return out

    # ---- encoding ----
    def channel(self, item, viewer: int) -> int:
        """The channel of an item seen by `viewer` (an owner counted relative to him)."""
        key = (item, viewer)
        got = self._channel_cache.get(key)
        if got is None:
            kind, tag = item
            if tag == HIDDEN and kind in self._hidden:
                got = self._hidden[kind]
            elif kind in self._owned and type(tag) is int and 0 <= tag < self.players:
                got = self._owned[kind] + (tag - viewer) % self.players
            elif (kind, tag) in self._tagged:
                got = self._tagged[(kind, tag)]
            else:
                got = self._other.get(kind, -1)
            if len(self._channel_cache) < 100_000:
                self._channel_cache[key] = got
        return got

    def encode(self, state, viewer: int) -> dict:
        """The observation of `viewer` (a player's number) in `state`."""
        seen = view(state, viewer) if self.rules.hidden_information else state     # (nothing to hide: no copy)
        out = {name: np.zeros(shape, DTYPE) for name, shape in self._shapes.items()}
        n = self.players
        for key, items in _places(seen):
            at = self._locate(key, viewer, out)
            if at is None:
                continue
            array, row = at
            for item, count in items:
                ch = self.channel(item, viewer)
                if ch >= 0:
                    array[row + (ch,)] += count
        counters, got = out["counters"], state.counters.get
        for p in range(n):
            rel = (p - viewer) % n
            counters[rel] = got(("points", p), 0)
            for i, src in enumerate(self.rules.sources):
                counters[n * (i + 1) + rel] = got(("points", p, src), 0)
        at = n * (len(self.rules.sources) + 1)
        for i, name in enumerate(self._named):
            counters[at + i] = got(("counter", name), 0)
        counters[-1] = state.turn
        pending = state.pending
        if pending is not None and not state.over:
            choice = out["choice"]
            choice[self._choice_index[pending.step.name]] = 1
            choice[len(self.choices) + (pending.player - viewer) % n] = 1
            choice[-1] = len(pending.options)
        return out

    def _locate(self, key, viewer, out):
        """(array, row index) where the items of place `key` are counted, or None."""
        if type(key) is str:
            row = self._structure_row.get(key)
            return None if row is None else (out["structures"], (row,))
        if type(key) is not tuple or not key:
            return None
        if type(key[0]) is not str:
            row = self._space_row.get(key)
            return None if row is None else (out["board"], (row,))
        name, owner = key[0], key[1]
        rel = 0 if owner is None else (owner - viewer) % self.players if type(owner) is int else None
        if rel is None:
            return None
        if name in self.grids and len(key) == 4:
            owners, rows, cols = self.grids[name]
            r, c = key[2], key[3]
            if rel >= owners or not (0 <= r < rows and 0 <= c < cols):
                return None
            return out[f"grid:{name}"], (rel, r, c)
        first = self._zone_row.get(name)
        if first is None or len(key) != 2:
            return None
        row, per_player = first
        if per_player:
            if owner is None or owner >= self.players:
                return None
            row += rel
        return out["zones"], (row,)


def _places(state):
    """(key, [(item, count), ...]) for every place of a position that holds anything."""
    for key, pool in state.pools.items():
        if pool:
            yield key, pool.items()
    for key, deck in state.decks.items():
        if deck:
            yield key, ((x, 1) for x in deck)
    for key, track in state.tracks.items():
        yield key, ((x, 1) for x in track if x is not None)
