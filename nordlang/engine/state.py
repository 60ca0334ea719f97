"""Game state: zones of items, counters, whose turn, and the flow's position.

Items are small tuples (kind, tag): ("man", 2) is a piece of player 2,
("coin", None) a neutral one, ("card", "ace") a token. Zones are keyed
by plain values: a space (row, col), a structure id, or (zone name, owner).
Pools are multisets, decks ordered lists, tracks fixed rows of slots.

Every change goes through `add`/`remove`, which keep the occupancy of
spaces (which pieces link) up to date and record events.
"""

from __future__ import annotations

import bisect
import itertools

from ..errors import EvalError
from ..lang.reads import TURN, ZONE_TOUCHES, ZONES, counter_part, reads_by_owner
from .board_index import BoardIndex, _space_places
from .copies import Copies
from .keys import _ZONE_PARTS, _item_key, _zone_parts
from .rng import Rng

_FRESH = itertools.count()


class State(BoardIndex, Copies):
    """(what it keeps of the board as pieces come and go: board_index.py; its copies: copies.py)"""

    __slots__ = ("rules", "pools", "decks", "tracks", "counters", "player", "turn", "over",
                 "rng", "frames", "pending", "occupied", "_links", "_occ", "turn_start", "events",
                 "history", "moves_made", "version", "_mine", "shared", "probing", "owned", "cells",
                 "revealed", "hidden_moves", "free", "free_at", "free_view", "free_mine", "parts", "base", "places",
                 "run_ctx", "by_owner", "lists_mine")

    def __init__(self, rules, seed: int):
        self.rules = rules
        self.pools = {}
        self._mine = set()        # pools this state may change in place (copy on write)
        self.decks = {}
        self.tracks = {}
        self.lists_mine = None    # decks and tracks this state may change in place (None: all; copy on write)
        self.counters = {}
        self.player = 0
        self.turn = 0
        self.over = False
        self.rng = Rng(seed)
        self.frames = []
        self.pending = None
        self.occupied = {}        # space -> occupying item (pieces.X.occupies or links)
        self.owned = None         # player -> mask of the spaces of their occupying pieces (made when first asked)
        self._links = None
        self._occ = None          # the linking pieces' spaces (a mask) since _links, when pieces came or went
        self.turn_start = None
        self.events = []
        self.history = []         # (turn, player, choice, option text, forced)
        self.moves_made = 0
        self.version = hash(("state", seed, next(_FRESH)))
        self.shared = False       # zones still shared with the state this one was copied from
        self.probing = False      # a lookahead probe runs on this position: it must not change
        self.cells = {}           # grid zone key -> the cells made so far (each a pool), a sorted tuple
        self.revealed = {}        # zone key -> the players its items are turned face up to (ALL: everyone)
        self.hidden_moves = frozenset()   # indices of history entries (secret choices) the others have not seen
        self.free = None          # the open spaces in board order, a list (made when first asked), kept up to date
        self.free_at = None       # ... their places in the board's order (a list), to find where one goes
        self.free_view = None     # ... as a tuple, made when asked after a change
        self.free_mine = False    # ... the list is this state's own (else shared with a copy: copy on write)
        self.parts = {}           # part of the position (lang/reads.py) -> the version it last changed at
        self.base = self.version  # the version parts not in `parts` are as they were at
        self.places = _space_places(rules.grid)   # space -> (its place in the board's order, its bit)
        self.by_owner = reads_by_owner(rules)     # some memo key asks a zone's owner part (else none is kept)
        self.run_ctx = None       # the context the flow machine runs this state in (made when first run)

    def fresh(self) -> None:
        """A version no other state has (after changes made outside add/remove)."""
        self.version = hash(("fresh", next(_FRESH)))
        self.parts, self.base = {}, self.version

    def touch(self, *what) -> None:
        """Record that the position changed.

        The version is a hash chained over the changes, so two copies that
        make the same changes from the same position share versions, and
        memoised rule values (keyed by version) are shared between them.
        A zone effect's change (ZONE_TOUCHES: the effect, then the zone) and
        a new turn change their parts' versions; any other, every part's.
        """
        v = self.version = hash((self.version,) + what)
        tag = what[0] if what else None
        if tag in ZONE_TOUCHES and len(what) > 1:
            self._zone_changed(what[1], v)
        elif tag == "turn":
            self.parts[TURN] = v
        else:
            self.parts, self.base = {}, v

    def _zone_changed(self, key, v) -> None:
        """Record a change to zone `key` at version v: its parts (every zone,
        its name's and, when some memo key asks, its name and owner's) change."""
        try:
            name, owner = _ZONE_PARTS[key]
        except KeyError:
            name, owner = _ZONE_PARTS[key] = _zone_parts(key)
        parts = self.parts
        parts[ZONES] = parts[name] = v
        if owner is not None and self.by_owner:
            parts[owner] = v

    def _zones_changed(self, a, b, v) -> None:
        """_zone_changed of two zones changed by one step (a move: one version for both)."""
        known = _ZONE_PARTS
        pa = known.get(a)
        if pa is None:
            pa = known[a] = _zone_parts(a)
        pb = known.get(b)
        if pb is None:
            pb = known[b] = _zone_parts(b)
        parts = self.parts
        parts[ZONES] = parts[pa[0]] = parts[pb[0]] = v
        if self.by_owner:
            if pa[1] is not None:
                parts[pa[1]] = v
            if pb[1] is not None:
                parts[pb[1]] = v

    # ---- zones ----
    def _no_zone(self, key) -> EvalError:
        """The error for a key that names no zone; a per-player zone given
        something other than a player's number says what it takes."""
        rules = self.rules
        hint = None
        if isinstance(key, tuple) and len(key) == 2 and rules.zones.get(key[0], {}).get("per_player"):
            hint = f"{key[0]}(p) takes a player: a number in turn order, 0 to {rules.num_players - 1}"
            if key[1] in rules.colors:
                hint += f" ({key[1]} is {rules.colors.index(key[1])})"
        return EvalError(f"{rules.show(key)} is not a zone", hint=hint)

    def _grid_part(self, key):
        """For a key the zones do not hold: the cells of a grid zone (a
        tuple) when it names one, () for a cell nothing has come to yet;
        else the error that it names no zone."""
        grids = self.rules.grid_zones
        if type(key) is tuple and key and key[0] in grids:
            if len(key) == 2:
                return self.cells.get(key, ())
            if len(key) == 4:
                return ()
        raise self._no_zone(key)

    def _not_here(self, key) -> EvalError:
        """The error for putting items on (or taking them from) a whole grid."""
        if type(key) is tuple and len(key) == 2 and key[0] in self.rules.grid_zones:
            return EvalError(f"{self.rules.show(key)} is a grid: items go to and from its cells",
                             hint=f"name a cell: cell({self.rules.show(key)}, row, column)")
        return self._no_zone(key)

    def _new_cell(self, key) -> dict | None:
        """The pool of a grid cell items first come to (None if key is no cell)."""
        if type(key) is not tuple or len(key) != 4 or key[0] not in self.rules.grid_zones:
            return None
        rows, columns = self.rules.grid_zones[key[0]]
        if not (type(key[2]) is int and 0 <= key[2] < rows and type(key[3]) is int and 0 <= key[3] < columns):
            raise EvalError(f"{self.rules.show(key)} is outside {key[0]}: its rows are 0 to {rows - 1}, "
                            f"its columns 0 to {columns - 1}")
        pool = self.pools[key] = {}
        self._mine.add(key)
        grid = key[:2]
        made = self.cells.get(grid, ())
        at = bisect.bisect(made, key)        # kept in order: filled_cells and whole-grid reads need not sort
        self.cells[grid] = made[:at] + (key,) + made[at:]
        return pool

    def amount(self, key, item) -> int:
        pool = self.pools.get(key)
        if pool is not None:
            return pool.get(item, 0)
        if key.__class__ is tuple and len(key) == 4 and key[0] in self.rules.grid_zones:    # an empty cell
            return 0
        deck = self.decks.get(key)
        if deck is not None:
            return deck.count(item)
        track = self.tracks.get(key)
        if track is not None:
            return track.count(item)
        return sum(self.pools[c].get(item, 0) for c in self._grid_part(key))

    def add(self, key, item, n: int = 1) -> int | None:
        """Put n of item into a zone; returns the slot index for tracks."""
        if n <= 0:
            return None
        v = self.version = hash((self.version, 1, key, item, n))
        self._zone_changed(key, v)
        pool = self.pools.get(key)
        if pool is None:
            pool = self._new_cell(key)
        if pool is not None:
            if key not in self._mine:
                pool = self.pools[key] = pool.copy()
                self._mine.add(key)
            pool[item] = pool.get(item, 0) + n
            if item[0] in self.rules.occupying:
                at = self.places.get(key)      # (order, bit) of a space; None: no space
                if at is not None:
                    if key in self.occupied or n > 1:
                        raise EvalError(f"{self.rules.show(key)} already holds a piece; one per space")
                    self._piece_came(key, item, at, v)
            return None
        deck = self.decks.get(key)
        if deck is not None:
            if self.lists_mine is not None:
                deck = self.own_list(key)
            deck.extend([item] * n)
            return None
        track = self.tracks.get(key)
        if track is not None:
            if self.lists_mine is not None:
                track = self.own_list(key)
            slot = None
            for _ in range(n):
                try:
                    slot = track.index(None)
                except ValueError:
                    raise EvalError(f"{self.rules.show(key)} is full") from None
                track[slot] = item
            return slot
        raise self._not_here(key)

    def remove(self, key, item, n: int = 1) -> None:
        if n <= 0:
            return
        v = self.version = hash((self.version, 2, key, item, n))
        self._zone_changed(key, v)
        pool = self.pools.get(key)
        if pool is not None:
            if key not in self._mine:
                pool = self.pools[key] = pool.copy()
                self._mine.add(key)
            have = pool.get(item, 0)
            if have < n:
                raise EvalError(f"cannot take {n} {self.rules.show(item)} from {self.rules.show(key)}: "
                                f"it holds {have}")
            if have == n:
                del pool[item]
            else:
                pool[item] = have - n
            occupied = self.occupied
            if occupied and occupied.get(key) == item:
                self._piece_left(key, item, v)
            return
        deck = self.decks.get(key)
        if deck is not None:
            if self.lists_mine is not None:
                deck = self.own_list(key)
            for _ in range(n):
                try:
                    deck.remove(item)
                except ValueError:
                    raise EvalError(f"{self.rules.show(key)} holds no {self.rules.show(item)}") from None
            return
        track = self.tracks.get(key)
        if track is not None:
            if self.lists_mine is not None:
                track = self.own_list(key)
            for _ in range(n):
                # the highest slot holding it leaves first
                for i in range(len(track) - 1, -1, -1):
                    if track[i] == item:
                        track[i] = None
                        break
                else:
                    raise EvalError(f"{self.rules.show(key)} holds no {self.rules.show(item)}")
            return
        if self._grid_part(key) == ():          # a cell nothing has come to
            raise EvalError(f"cannot take {n} {self.rules.show(item)} from {self.rules.show(key)}: it holds 0")
        raise self._not_here(key)

    def move(self, src, dst, item, n: int = 1) -> None:
        """remove(src, item, n) then add(dst, item, n): in one step when both
        zones are pools and the move is allowed (one version for the two
        changes, one call: most of a game's changes are moves); else in
        the two steps, which raise what is wrong as they always did."""
        pools = self.pools
        pool, to = pools.get(src), pools.get(dst)
        have = 0 if pool is None else pool.get(item, 0)
        if to is None and have >= n > 0:
            to = self._new_cell(dst)            # (a grid's cell items first come to; None: no cell)
        if to is None or have < n or n <= 0 or src == dst:
            self.remove(src, item, n)
            self.add(dst, item, n)
            return
        at = self.places.get(dst) if item[0] in self.rules.occupying else None
        if at is not None and (dst in self.occupied or n > 1):
            self.remove(src, item, n)
            self.add(dst, item, n)              # (raises: one piece per space)
            return
        v = self.version = hash((self.version, 4, src, dst, item, n))
        self._zones_changed(src, dst, v)
        mine = self._mine
        if src not in mine:
            pool = pools[src] = pool.copy()
            mine.add(src)
        if have == n:
            del pool[item]
        else:
            pool[item] = have - n
        occupied = self.occupied
        if occupied and occupied.get(src) == item:
            self._piece_left(src, item, v)
        if dst not in mine:
            to = pools[dst] = to.copy()
            mine.add(dst)
        to[item] = to.get(item, 0) + n
        if at is not None:
            self._piece_came(dst, item, at, v)

    def slot_and_pool(self, track, i, key, item, taken: bool) -> None:
        """Slot i of a track emptied of item into the pool `key` (`taken`:
        take), or filled with it from the pool or the deck `key` (put): one
        version for the two zones' changes (as move's), the pool changed in
        place. The effects call it only when nothing can fail: the slot is
        as it must be, the zone holds the item to give, and the item
        occupies no space."""
        slots = self.own_list(track) if self.lists_mine is not None else self.tracks[track]
        slots[i] = None if taken else item
        v = self.version = hash((self.version, 5 if taken else 6, track, i, key, item))
        self._zones_changed(track, key, v)
        pool = self.pools.get(key)
        if pool is None:                         # (a deck)
            (self.own_list(key) if self.lists_mine is not None else self.decks[key]).remove(item)
            return
        if key not in self._mine:
            pool = self.pools[key] = pool.copy()
            self._mine.add(key)
        have = pool.get(item, 0)
        if taken:
            pool[item] = have + 1
        elif have == 1:
            del pool[item]
        else:
            pool[item] = have - 1

    def items(self, key) -> tuple:
        """Distinct items of a pool (sorted), a deck's list, or a track's filled slots."""
        pool = self.pools.get(key)
        if pool is not None:
            return tuple(pool) if len(pool) < 2 else tuple(sorted(pool, key=_item_key))
        if key.__class__ is tuple and len(key) == 4 and key[0] in self.rules.grid_zones:    # an empty cell
            return ()
        deck = self.decks.get(key)
        if deck is not None:
            return tuple(deck)
        track = self.tracks.get(key)
        if track is not None:
            return tuple(x for x in track if x is not None)
        cells = self._grid_part(key)
        return tuple(sorted({x for c in cells for x in self.pools[c]}, key=_item_key))

    def total(self, key) -> int:
        pool = self.pools.get(key)
        if pool is not None:
            return sum(pool.values())
        if key.__class__ is tuple and len(key) == 4 and key[0] in self.rules.grid_zones:    # an empty cell
            return 0
        deck = self.decks.get(key)
        if deck is not None:
            return len(deck)
        track = self.tracks.get(key)
        if track is not None:
            return sum(1 for x in track if x is not None)
        return sum(sum(self.pools[c].values()) for c in self._grid_part(key))

    # ---- counters ----
    def count(self, key) -> int:
        return self.counters.get(key, 0)

    def bump(self, key, n) -> None:
        self.counters[key] = self.counters.get(key, 0) + n
        self.version = self.parts[counter_part(key)] = hash((self.version, 3, key, n))
