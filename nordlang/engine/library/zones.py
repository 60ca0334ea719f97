"""Items and the zones that hold them: pools, decks and tracks."""

from __future__ import annotations

from itertools import filterfalse

from ...board.masks import bit_layout
from ...lang.budget import SMALL, BudgetError, charge
from ...lang.builtins import BARE, ordered
from ...lang.memo import remember, remembered
from ...lang.reads import OCCUPANCY
from ...lang.runtime import _each_seq
from .registry import _def, _track


# ---------------- pieces and zones ----------------
@_def("kind", arity=(1, 1), doc="the kind of an item", example='kind(it) == "coin"', group="zones",
      inline="{0}[0]", args=("item",), returns="piece kind")
def _kind(ctx, it):
    return it[0]


@_def("tag", arity=(1, 1), doc="the tag of an item (its owner, symbol...)", example="tag(it)", group="zones",
      inline="{0}[1]", args=("item",))
def _tag(ctx, it):
    return it[1]


@_def("owner", arity=(1, 1), doc="the owning player of an item, or none", example="owner(it)", group="zones",
      args=("item",), returns="player")
def _owner(ctx, it):
    t = it[1]
    return t if type(t) is int and t < ctx.rules.num_players else None      # (a bool is no player)


# (a pool's amount is read in place by the generated code when the zone is a name: lang/values.py)
@_def("amount", arity=(2, 2), doc="how many of an item a zone holds", example="amount(hand(p), coin())",
      group="zones", args=(None, "item"))
def _amount(ctx, zone, item):
    pool = ctx.state.pools.get(zone)     # (the common case, without a method call)
    if pool is not None:
        return pool.get(item, 0)
    if zone.__class__ is tuple and len(zone) == 4 and zone[0] in ctx.rules.grid_zones:    # an empty cell
        return 0
    return ctx.state.amount(zone, item)


# (a pool's total written into the generated code, and an empty cell's (most cells a tile game
# asks are empty: no pool); other zones call the primitive)
@_def("total", arity=(1, 1), doc="how many items a zone holds in all", example="total(hand(p))", group="zones",
      inline="sum(ctx.state.pools[{0}].values()) if {0} in ctx.state.pools else 0 if {0}.__class__ is tuple "
             "and len({0}) == 4 and {0}[0] in ctx.rules.grid_zones else {fn}(ctx, {0})")
def _total(ctx, zone):
    st = ctx.state
    pool = st.pools.get(zone)     # (the common cases, without a method call)
    if pool is not None:
        return sum(pool.values()) if pool else 0
    if zone.__class__ is tuple and len(zone) == 4 and zone[0] in ctx.rules.grid_zones:    # an empty cell
        return 0
    track = st.tracks.get(zone)
    if track is not None:
        return len(track) - track.count(None)
    return st.total(zone)


@_def("items", arity=(1, 1), doc="the distinct items of a pool, a deck's list, a track's filled slots",
      example="items(hand(p))", group="zones")
def _items(ctx, zone):
    pool = ctx.state.pools.get(zone)     # (a pool of one item or none, the common case, without a method call)
    if pool is not None:
        n = len(pool)
        if n < 2:
            return tuple(pool)
        if n == 2:                      # (two kinds, as a tile and a piece on it: the kinds give State.items' order)
            a, b = pool
            if a[0] != b[0] and a[0].__class__ is str and b[0].__class__ is str:
                return (a, b) if a[0] < b[0] else (b, a)
    elif zone.__class__ is tuple and len(zone) == 4 and zone[0] in ctx.rules.grid_zones:    # an empty cell
        return ()
    out = ctx.state.items(zone)
    if len(out) > SMALL:
        charge(ctx, len(out))
    return out


@_def("piece_at", arity=(1, 1), doc="the occupying piece on a space (one that occupies or links), or none",
      example="piece_at(s)", group="zones",
      inline="ctx.state.occupied.get({0})", returns="item")
def _piece_at(ctx, s):
    return ctx.state.occupied.get(s)


@_def("occupied", arity=(1, 1), doc="true when an occupying piece (one that occupies or links) stands on the space",
      example="occupied(s)",
      group="zones", returns="truth", inline="{0} in ctx.state.occupied")
def _occupied(ctx, s):
    return s in ctx.state.occupied


def _owned_spaces(ctx, p, owner, site):
    """`[s for s in occupied_spaces if owner(piece_at(s)) == p]`, charged
    as occupied_spaces and the loop over it charge: for a player p, the
    spaces of the mask the state keeps of his pieces (a number below the
    players' as their tag, as owner() says), which come in the spaces'
    order, as occupied_spaces lists them (so occupied_spaces itself is
    not made: a search asks it at every position); else as written."""
    st = ctx.state
    if not _charged_occupied(ctx, site):
        return ()
    if p.__class__ is int and 0 <= p < ctx.rules.num_players:
        return bit_layout(ctx.rules.grid).members(st.owner_mask(p))
    occupied = st.occupied
    return tuple([s for s in _listed_occupied(st) if owner(ctx, occupied.get(s)) == p])


def _owned_count(ctx, p, owner, site):
    """len(_owned_spaces(...)): for a player p, the bits of his mask
    counted, no list made; charged alike."""
    if not _charged_occupied(ctx, site):
        return 0
    if p.__class__ is int and 0 <= p < ctx.rules.num_players:
        return ctx.state.owner_mask(p).bit_count()
    occupied = ctx.state.occupied
    return sum(1 for s in _listed_occupied(ctx.state) if owner(ctx, occupied.get(s)) == p)


def _charged_occupied(ctx, site) -> int:
    """How many spaces are occupied, charged as occupied_spaces and a loop
    over it charge (the loop's excess named at `site`)."""
    occupied = ctx.state.occupied
    n = len(occupied)
    if n > SMALL:
        charge(ctx, n)                  # (what occupied_spaces charges)
    _each_seq(ctx, occupied, site)      # (what the loop over it charges)
    return n


@_def("occupied_spaces", BARE, doc="every space holding an occupying piece", example="occupied_spaces",
      group="zones", fused=(("owner", _owned_spaces), ("owner count", _owned_count)))
def _occupied_spaces(ctx):
    out = _listed_occupied(ctx.state)
    if len(out) > SMALL:
        charge(ctx, len(out))
    return out


def _listed_occupied(st) -> tuple:
    """The occupied spaces, sorted: kept by the occupancy's version (a
    position's definitions often ask them once for each player)."""
    key = (_occupied_spaces, st.base, st.parts.get(OCCUPANCY))
    out = remembered(key)
    if out is None:
        out = remember(key, tuple(sorted(st.occupied)))
    return out


@_def("open_spaces", arity=(1, 1), doc="spaces of a collection with no piece and no structure",
      example="open_spaces(region_spaces(r))", group="zones")
def _open_spaces(ctx, spaces):
    if spaces is ctx.rules.grid.spaces:     # the whole board: kept by the state as pieces come and go
        if len(spaces) > SMALL:
            b = ctx.budget                  # (charge written out)
            b.left -= len(spaces)
            if b.left < 0:
                raise BudgetError()
        view = ctx.state.free_view          # (open_board's common case written out)
        return view if view is not None else ctx.state.open_board()
    # (filtered in C: this runs over whole boards every turn)
    out = tuple(filterfalse(ctx.rules.grid.structure_at.__contains__,
                            filterfalse(ctx.state.occupied.__contains__,
                                        spaces if type(spaces) is tuple else ordered(spaces))))
    try:
        n = len(spaces)
    except TypeError:           # (an iterator, from Python)
        n = 0
    if n > SMALL:
        charge(ctx, n)
    return out


@_def("slots", arity=(1, 1), doc="(index, item) for each filled slot of a track", example="slots(track)",
      group="zones")
def _slots(ctx, zone):
    track = ctx.state.tracks.get(zone)
    if track is None:
        track = _track(ctx, zone)       # (the error)
    out, i = [], 0
    for x in track:         # (a loop: picking in C, compress over enumerate, costs 1.5-2.3 times as much on 12 slots)
        if x is not None:
            out.append((i, x))
        i += 1
    return tuple(out)


@_def("free_slots", arity=(1, 1), doc="how many slots of a track are empty", example="free_slots(track)",
      group="zones")
def _free_slots(ctx, zone):
    track = _track(ctx, zone)
    return track.count(None)


@_def("next_value", arity=(1, 1), doc="the value of a track's lowest empty slot (none when full)",
      example="next_value(track)", group="zones")
def _next_value(ctx, zone):
    track = _track(ctx, zone)
    if None not in track:
        return None
    return ctx.rules.track_values[zone[0]][track.index(None)]


