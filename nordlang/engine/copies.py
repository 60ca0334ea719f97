"""Copies of a state (a mixin of State): a full copy, and a light one that
shares the zones until it first changes the position (`unshare`).

A search and the lookahead make one copy a position, most of which never
change a deck or a track: so pools, decks and tracks are shared one by one
after `unshare` and copied when a side first changes one (copy on write:
`_mine` for pools, `lists_mine` for decks and tracks)."""

from __future__ import annotations

from .frames import copied


class Copies:
    __slots__ = ()

    def _copy(self, light: bool):
        """The position (zones, counters, whose turn, links) in a new state;
        zones shared until `unshare` when light, else copied now."""
        # (one attribute a statement: an assignment of four or more at once builds a tuple, and a
        # search makes a copy of every position)
        s = self.__class__.__new__(self.__class__)
        s.rules = self.rules
        s.places = self.places
        s.by_owner = self.by_owner
        if light:
            # (the context the flow runs it in is its original's: a search's copies are run one at a
            # time, and a run refers to its state only while it runs; made once a search, not a copy)
            s.run_ctx = self.run_ctx
            s.pools = self.pools
            s._mine = set()
            s.decks = self.decks
            s.tracks = self.tracks
            s.counters = self.counters
            s.rng = self.rng
            s.occupied = self.occupied
            s.shared = True
            s.owned = self.owned
            s.cells = self.cells
            s.lists_mine = set()
            if self.lists_mine is None or self.lists_mine:
                self.lists_mine = set()      # (its decks and tracks may become the copy's too)
        else:
            s.run_ctx = None
            s._copies_of(self)
            self._mine = set()               # pool objects are now shared by both sides
        s.free = self.free
        s.free_at = self.free_at
        s.free_view = self.free_view
        s.free_mine = self.free_mine = False
        revealed = self.revealed
        s.revealed = revealed.copy() if revealed else {}
        s.probing = False
        s.player = self.player
        s.turn = self.turn
        s.over = self.over
        s._links = self._links
        s._occ = self._occ
        s.moves_made = self.moves_made
        s.version = self.version
        s.parts = self.parts.copy()
        s.base = self.base
        return s

    def clone(self, keep_log: bool = False, light: bool = False):
        """A copy to play on. A light copy shares every zone with this state
        until `unshare`, which must come before any change to it: it is for
        lookahead probes, which mostly only read (the flow machine unshares
        a probe before it runs an effect)."""
        s = self._copy(light)
        s.frames, s.pending = copied(self.frames, self.pending)
        s.turn_start = self.turn_start
        s.events = list(self.events) if keep_log else []
        s.history = list(self.history) if keep_log else []
        s.hidden_moves = self.hidden_moves if keep_log else frozenset()
        return s

    def unshare(self) -> None:
        """Take private copies of the zones a light copy shares (pools, decks
        and tracks stay shared one by one until a side changes one: copy on
        write)."""
        # (dict.copy, not dict(): a dict some key has left, as the occupancy, is copied
        # entry by entry by dict(), and at once by copy)
        self.pools, self._mine = self.pools.copy(), set()
        self.decks, self.tracks, self.lists_mine = self.decks.copy(), self.tracks.copy(), set()
        self._copy_rest(self)

    def _copies_of(self, src) -> None:
        """Copies of src's zones, counters, occupancy, owners' masks and
        chance source for this state (pools stay shared one by one until a
        side changes one: `_mine`; decks and tracks are copied now, as code
        that reads a full copy may change them in place)."""
        self.pools, self._mine = src.pools.copy(), set()
        self.decks = {k: v.copy() for k, v in src.decks.items()} if src.decks else {}
        self.tracks = {k: v.copy() for k, v in src.tracks.items()} if src.tracks else {}
        self.lists_mine = None
        self._copy_rest(src)

    def _copy_rest(self, src) -> None:
        """Copies of src's counters, occupancy, grid cells, owners' masks and chance source."""
        self.counters = src.counters.copy()
        self.rng = src.rng.copy() if src.rng is not None else None
        self.occupied = src.occupied.copy()
        self.cells = src.cells.copy()
        owned = src.owned
        self.owned = owned.copy() if owned is not None else None
        self.shared = False

    def own_list(self, key):
        """The deck or track `key` (None if neither), this state's own to
        change in place: copied first while it is shared with a copy."""
        mine = self.lists_mine
        zones = self.decks if key in self.decks else self.tracks
        items = zones.get(key)
        if items is None or mine is None or key in mine:
            return items
        items = zones[key] = items.copy()
        mine.add(key)
        return items
