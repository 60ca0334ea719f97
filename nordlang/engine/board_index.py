"""What a state keeps of the board as pieces come and go: its open spaces
in board order, the connection graph of the linking pieces, and each
player's occupied spaces as a mask (a mixin of State: made when first
asked, then kept up to date by State.add and State.remove)."""

from __future__ import annotations

from bisect import bisect_left

from ..board.graph import links_for
from ..board.masks import bit_layout
from ..lang.reads import OCCUPANCY


class BoardIndex:
    __slots__ = ()

    # ---- open spaces ----
    def open_board(self) -> tuple:
        """The board's spaces with no occupying piece and no structure, in
        the board's order: listed once, then kept as pieces come and go (a
        board of 121 spaces is filtered in some 8 us; a change costs a
        search and a deletion, and a tuple is made when next asked)."""
        view = self.free_view
        if view is None:
            if self.free is None:
                grid = self.rules.grid
                order = _space_order(grid)
                bare = grid.memo.get("open when empty")      # (no piece yet: the spaces under no structure)
                if bare is None:
                    spaces = [s for s in grid.spaces if s not in grid.structure_at]
                    bare = grid.memo["open when empty"] = (spaces, [order[s] for s in spaces])
                occupied = self.occupied
                if occupied:
                    self.free = [s for s in bare[0] if s not in occupied]
                    self.free_at = [order[s] for s in self.free]
                else:
                    self.free, self.free_at = bare[0].copy(), bare[1].copy()
                self.free_mine = True
            view = self.free_view = tuple(self.free)
        return view

    def _own_free(self) -> None:
        """Private copies of the open spaces' lists, shared with a copy of the state until now."""
        self.free, self.free_at = self.free.copy(), self.free_at.copy()
        self.free_mine = True

    def _open(self, space) -> None:
        if space in self.rules.grid.structure_at:
            return
        at = self.places[space][0]
        free_at = self.free_at
        i = bisect_left(free_at, at)
        if i == len(free_at) or free_at[i] != at:
            if not self.free_mine:
                self._own_free()
            self.free.insert(i, space)
            self.free_at.insert(i, at)
            self.free_view = None

    # ---- an occupying piece comes or goes ----
    def _piece_came(self, key, item, at, v) -> None:
        """An occupying piece came to space `key` (at: its place in the board's
        order and its bit) at version v: the occupancy, the open spaces, the
        links and the owner's mask follow."""
        self.occupied[key] = item
        self.parts[OCCUPANCY] = v
        free_at = self.free_at
        if free_at is not None:          # (the open spaces kept: this one closes)
            i = bisect_left(free_at, at[0])
            if i < len(free_at) and free_at[i] == at[0]:
                if self.free_mine:
                    del self.free[i], free_at[i]
                else:
                    self._own_free()
                    del self.free[i], self.free_at[i]
                self.free_view = None
        links = self._links
        if links is not None and item[0] in self.rules.linking:
            occ = self._occ
            self._occ = (links.occ if occ is None else occ) | at[1]
        owned = self.owned
        if owned is not None:
            tag = item[1]
            if tag.__class__ is int and 0 <= tag < self.rules.num_players:   # (as owner(): no bool)
                owned[tag] = owned.get(tag, 0) | at[1]

    def _piece_left(self, key, item, v) -> None:
        """The occupying piece on space `key` left it at version v."""
        del self.occupied[key]
        if self.free is not None:
            self._open(key)
        self.parts[OCCUPANCY] = v
        links = self._links
        if links is not None and item[0] in self.rules.linking:
            occ = self._occ
            self._occ = (links.occ if occ is None else occ) & ~self.places[key][1]
        if self.owned is not None:
            self._own(key, item[1], False)

    # ---- the connection graph ----
    @property
    def links(self):
        """The connection graph of this position: made once from the
        occupancy, then followed as pieces come and go. add and remove only
        mark the spaces of the linking pieces (`_occ`, a mask); the graph of
        those is made when next asked for (Links.then), so pieces placed and
        lifted in a row, and positions no rule looks at, make none."""
        lk = self._links
        if lk is None:
            linking = self.rules.linking
            lk = self._links = links_for(self.rules.grid, frozenset(
                s for s, item in self.occupied.items() if item[0] in linking))
            self._occ = None
        elif self._occ is not None:
            lk = self._links = lk.then(self._occ)
            self._occ = None
        return lk

    def ring_taken(self, x):
        """The occupied spaces of surroundings(x) (x a space, or a structure:
        around its space) as a mask, what a memo key asks of a definition
        that asks occupied(w) only of the spaces around its argument
        (lang/reads.py RingPart); the position's version for anything else."""
        rules = self.rules
        rings = rules.grid.memo.get("ring masks")
        m = (rings if rings is not None else _ring_masks(rules.grid)).get(x)
        if m is None:
            return (self.version,)
        if rules.occupying == rules.linking:     # (the linking pieces' mask is the whole occupancy)
            occ = self._occ
            if occ is None:
                links = self._links
                occ = (links if links is not None else self.links).occ
            return occ & m
        places = self.places
        return sum([places[s][1] for s in self.occupied if s in places]) & m

    def owner_mask(self, p) -> int:
        """The spaces holding player p's occupying pieces, as a mask of the
        connection graph's layout: made once from the occupancy, then kept
        up to date as pieces are placed and lifted."""
        owned = self.owned
        if owned is None:
            owned = self.owned = {}
            places, players = self.places, self.rules.num_players
            for s, item in self.occupied.items():
                tag = item[1]
                if tag.__class__ is int and 0 <= tag < players:       # (as owner(): a bool is no player)
                    owned[tag] = owned.get(tag, 0) | places[s][1]
        return owned.get(p, 0)

    def _own(self, s, tag, placed) -> None:
        if type(tag) is int and 0 <= tag < self.rules.num_players:       # (as owner(): a bool is no player)
            b = self.places[s][1]
            owned = self.owned
            owned[tag] = owned.get(tag, 0) | b if placed else owned.get(tag, 0) & ~b


def _space_order(grid) -> dict:
    """Each space's place in the board's order (kept in the board's memo)."""
    order = grid.memo.get("space order")
    if order is None:
        order = grid.memo["space order"] = {s: i for i, s in enumerate(grid.spaces)}
    return order


def _space_places(grid) -> dict:
    """Each space's (place in the board's order, bit in the connection
    graph's layout): what a piece coming or going updates, in one look-up."""
    places = grid.memo.get("space places")
    if places is None:
        order, bit = _space_order(grid), bit_layout(grid).bit
        places = grid.memo["space places"] = {s: (order[s], bit[s]) for s in grid.spaces}
    return places


def _ring_masks(grid) -> dict:
    """Each space's and structure's surroundings as a mask (kept in the board's memo)."""
    rings = grid.memo.get("ring masks")
    if rings is None:
        bit = bit_layout(grid).bit
        rings = {s: sum(bit[n] for n in near) for s, near in grid.ring.items()}
        rings.update({sid: rings[st.space] for sid, st in grid.structures.items() if st.space in rings})
        grid.memo["ring masks"] = rings
    return rings
