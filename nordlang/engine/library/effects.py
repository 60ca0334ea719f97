"""Counters, points and effects: the statements a rule runs."""

from __future__ import annotations

from ...errors import EvalError
from .registry import _check_count, _def, _effect, _slot, _track


# ---------------- counters and points ----------------
# (each written into the generated code: one look-up, its argument named once)
@_def("points", arity=(1, 1), doc="a player's points", example="points(player)", group="points", args=("player",),
      inline='ctx.state.counters.get(("points", {0}), 0)')
def _points(ctx, p):
    return ctx.state.counters.get(("points", p), 0)


@_def("points_from", arity=(2, 2), doc="a player's points from one source", example='points_from(p, "gold")',
      group="points", args=("player", "source"), inline='ctx.state.counters.get(("points", {0}, {1}), 0)')
def _points_from(ctx, p, source):
    return ctx.state.counters.get(("points", p, source), 0)


@_def("counter", arity=(1, 1), doc="the value of a named counter (0 when never set)",
      example='counter("rounds")', group="points", inline='ctx.state.counters.get(("counter", {0}), 0)')
def _counter(ctx, name):
    return ctx.state.counters.get(("counter", name), 0)


# ---------------- effects ----------------


@_effect("create", (2, 3), "bring n new items into a zone (setup)", "create(coin(), bank, 10)", args=("item",))
def _create(ctx, item, zone, n=1):
    if n != 1:
        _check_count(ctx, n)
    ctx.state.add(zone, item, n)
    ctx.state.bump(("created", item), n)


@_effect("move", (3, 4), "move n items from one zone to another (a track fills its lowest free slot)",
         "move(coin(), bank, hand(player))", args=("item",))
def _move(ctx, item, src, dst, n=1):
    if n != 1:
        _check_count(ctx, n)
    st = ctx.state
    st.move(src, dst, item, n)
    st.events.append(("move", item, src, dst, n))


@_effect("move_all", (2, 3), "move every item (or every one of a kind) from one zone to another",
         "move_all(discard, deck)", args=(None, None, "piece kind"))
def _move_all(ctx, src, dst, kind=None):
    st = ctx.state
    for item in st.items(src):
        if kind is None or item[0] == kind:
            n = st.amount(src, item)
            st.move(src, dst, item, n)
            st.events.append(("move", item, src, dst, n))


@_effect("take", (3, 3), "move the item in slot i of a track to a zone", "take(track, 0, bank)")
def _take(ctx, zone, i, dst):
    st = ctx.state
    track = st.tracks.get(zone)
    item = track[i] if track is not None and i.__class__ is int and 0 <= i < len(track) else None
    if item is not None and dst in st.pools and item[0] not in ctx.rules.occupying:
        st.slot_and_pool(zone, i, dst, item, True)       # (the common case, one change of the state)
        st.events.append(("move", item, zone, dst, 1))
        return
    track = _track_to_change(ctx, zone)
    _slot(ctx, zone, track, i)
    item = track[i]
    if item is None:
        raise EvalError(f"slot {i} of {ctx.rules.show(zone)} is empty")
    track[i] = None
    st.touch("take", zone, i)
    st.add(dst, item)
    st.events.append(("move", item, zone, dst, 1))


@_effect("put", (4, 4), "move an item from a zone into a given slot of a track (an empty one)",
         "put(card(), deck, display, 3)", args=("item",))
def _put(ctx, item, src, zone, i):
    st = ctx.state
    track = st.tracks.get(zone)
    if track is not None and i.__class__ is int and 0 <= i < len(track) and track[i] is None:
        pool = st.pools.get(src)
        if (item in st.decks[src] if pool is None and src in st.decks
                else pool is not None and pool.get(item, 0) > 0 and not (st.occupied and st.occupied.get(src) == item)):
            st.slot_and_pool(zone, i, src, item, False)  # (the common case, one change of the state)
            st.events.append(("move", item, src, zone, 1))
            return
    track = _track_to_change(ctx, zone)
    _slot(ctx, zone, track, i)
    if track[i] is not None:
        raise EvalError(f"slot {i} of {ctx.rules.show(zone)} already holds {ctx.rules.show(track[i])}")
    st.remove(src, item)
    track[i] = item
    st.touch("put", zone, i, item)
    st.events.append(("move", item, src, zone, 1))


@_effect("shift", (2, 2), "slide every item of a track n slots towards slot 0, keeping the gaps between them "
         "(the slots it leaves at the end are empty); the first n slots must be empty", "shift(wheel, 2)")
def _shift(ctx, zone, n):
    track = _track_to_change(ctx, zone)
    if type(n) is not int or not 0 <= n <= len(track):
        raise EvalError(f"a track shifts by 0 to {len(track)} slots, not {ctx.rules.show(n)}")
    held = next((x for x in track[:n] if x is not None), None)
    if held is not None:
        raise EvalError(f"{ctx.rules.show(zone)} cannot shift by {n}: slot {track.index(held)} holds "
                        f"{ctx.rules.show(held)}", hint="take the items off the first slots first")
    track[:] = track[n:] + [None] * n
    ctx.state.touch("shift", zone, n)


@_effect("compact", (1, 1), "slide a track's items down to the lowest slots, keeping their order",
         "compact(track)")
def _compact(ctx, zone):
    track = _track_to_change(ctx, zone)
    kept = [x for x in track if x is not None]
    track[:] = kept + [None] * (len(track) - len(kept))
    ctx.state.touch("compact", zone)


@_effect("shuffle", (1, 1), "shuffle a deck with the game's seeded random source", "shuffle(deck)")
def _shuffle(ctx, zone):
    deck = ctx.state.own_list(zone) if zone in ctx.state.decks else None
    if deck is None:
        raise EvalError(f"{ctx.rules.show(zone)} is not a deck")
    ctx.state.rng.shuffle(deck, f"shuffle {ctx.rules.show(zone)}")
    ctx.state.touch("shuffle", zone, tuple(deck))


@_effect("draw", (2, 2), "move the top item of a deck to a zone (nothing when the deck is empty)",
         "draw(deck, hand(player))")
def _draw(ctx, zone, dst):
    st = ctx.state
    deck = st.decks.get(zone)
    if deck is None:
        raise EvalError(f"{ctx.rules.show(zone)} is not a deck")
    if deck:
        item = st.own_list(zone).pop(0)
        st.touch("draw", zone)
        st.add(dst, item)
        st.events.append(("move", item, zone, dst, 1))


@_effect("award", (3, 4), "give a player points from a source (with an optional detail such as a place)",
         'award(player, 3, "gold")', group="points", args=("player", None, "source"))
def _award(ctx, p, n, source, detail=None):
    st = ctx.state
    if not isinstance(n, int) or isinstance(n, bool):
        raise EvalError(f"points must be a whole number, got {n!r}")
    st.bump(("points", p), n)
    st.bump(("points", p, source), n)
    st.events.append(("award", p, n, source, detail))


@_effect("add", (2, 2), "add to a named counter", 'add("rounds", 1)', group="points")
def _add(ctx, name, n):
    ctx.state.bump(("counter", name), n)


@_effect("set_counter", (2, 2), "set a named counter to a value (whatever it held)", 'set_counter("rounds", 0)',
         group="points")
def _set_counter(ctx, name, n):
    if type(n) not in (int, float):
        raise EvalError(f"a counter holds a number, not {ctx.rules.show(n)}")
    key = ("counter", name)
    if n != ctx.state.count(key):       # a bump by the difference: the state's version follows it as for add
        ctx.state.bump(key, n - ctx.state.count(key))


@_effect("note", (1, None), "record an event for logs and statistics", 'note("raid", x, y)', group="effects")
def _note(ctx, kind, *args):
    ctx.state.events.append(("note", kind) + args)


@_effect("end_game", (0, 0), "end the game after the current step", "end_game()")
def _end_game(ctx):
    ctx.state.over = True
    ctx.state.touch("over")
    ctx.state.events.append(("end",))




# ---------------- what players see ----------------
def _seen_zone(ctx, zone):
    st = ctx.state
    if zone in st.pools or zone in st.decks or zone in st.tracks:
        return zone
    raise EvalError(f"{ctx.rules.show(zone)} is not a zone or a space", hint="reveal and conceal take a zone, like "
                    "hand(p), or a space")


@_effect("reveal", (1, 2), "turn a zone's items (or a space's) face up: to every player, or to one player only",
         "reveal(hand(p))", group="effects")
def _reveal(ctx, zone, p=None):
    st = ctx.state
    key = _seen_zone(ctx, zone)
    if p is not None and (type(p) is not int or not 0 <= p < ctx.rules.num_players):
        raise EvalError(f"reveal to {ctx.rules.show(p)}, which is not a player")
    now = st.revealed.get(key, frozenset())
    if now is not None:
        st.revealed[key] = None if p is None else now | {p}      # None: face up to everyone
    st.touch("reveal", key, p)


@_effect("conceal", (1, 1), "turn a zone's items face down again, as the rulebook declares them (undoes reveal)",
         "conceal(hand(p))", group="effects")
def _conceal(ctx, zone):
    st = ctx.state
    st.revealed.pop(_seen_zone(ctx, zone), None)
    st.touch("conceal", zone)


def _track_to_change(ctx, zone) -> list:
    """The slots of a track, the state's own to change in place (copied
    first while a copy of the state shares them: State.own_list)."""
    _track(ctx, zone)
    return ctx.state.own_list(zone)
