"""What each player may see: views, observations and honest samples.

A rulebook declares who sees what (the zones' `visible`, the pieces'
`face_down`; effects `reveal` and `conceal` turn items over). From that
alone this module derives, for any game:

- `sees`: whether a player sees an item's face where it lies;
- `view`: the position as one player sees it: every item he may not see
  is shown face down, as its kind with the tag `?`, and a hidden deck's
  order is unknown (its items are listed by kind). Every renderer draws a
  view as it draws a position;
- `observation`: that view as one canonical text (OpenSpiel's
  observation string);
- `seen_history`: the moves made, with others' secret choices that were
  never revealed shown as `?`;
- `sample` (samples.py): a position the player cannot tell from the real
  one, drawn from his information alone (the unseen items dealt at random
  over the unseen places, the future's chance source seeded afresh): what
  an honest search agent plays on.

A viewer is a player's number; None is the referee, who sees everything.
"""

from __future__ import annotations

HIDDEN = "?"          # the tag of an item seen face down
_UNSET = object()


def _zone_of(key):
    """(zone name, owner) of a zone's key, a grid cell's included; (None, None) for a space or structure."""
    if type(key) is tuple and key and type(key[0]) is str:
        return key[0], key[1]
    return None, None


def _zone_seen(state, key, viewer):
    """Does `viewer` see the faces of what lies in `key`, by the zone's own
    declaration or a reveal: True, False, or None when nothing is said there
    (a space, a zone without `visible`: then each piece's kind decides)."""
    turned = state.revealed.get(key, _UNSET)
    if turned is None or (turned is not _UNSET and viewer in turned):
        return True
    name, owner = _zone_of(key)
    declared = state.rules.zone_visibility.get(name) if name is not None else None
    if declared is None:
        return None
    return declared == "all" or (declared == "owner" and owner == viewer)


def sees(state, key, item, viewer) -> bool:
    """Does `viewer` see the face of `item` where it lies (zone or space `key`)?"""
    if viewer is None:
        return True
    seen = _zone_seen(state, key, viewer)
    return item[0] not in state.rules.face_down if seen is None else seen


def _deck_hidden(state, key, viewer) -> bool:
    """Is a whole deck face down to the viewer (so its order is unknown to him too)?"""
    return _zone_seen(state, key, viewer) is False


def _masked(item):
    return (item[0], HIDDEN)


def _kind_order(item):
    return str(item[0])


def view(state, viewer):
    """The position as `viewer` sees it (a State to read and draw, not to play on)."""
    s = state.clone(keep_log=True)
    if viewer is None:
        return s
    if s.history:
        s.history = seen_history(state, viewer)
    if s.events:
        s.events = seen_events(state, viewer)
    if not state.rules.hidden_information:
        return s
    for key, pool in s.pools.items():
        if pool and any(not sees(s, key, item, viewer) for item in pool):
            shown = {}
            for item, n in pool.items():
                it = item if sees(s, key, item, viewer) else _masked(item)
                shown[it] = shown.get(it, 0) + n
            s.pools[key] = shown
    for key, deck in s.decks.items():
        if not deck:
            continue
        if _deck_hidden(s, key, viewer):
            deck[:] = sorted((_masked(x) for x in deck), key=_kind_order)
        elif any(not sees(s, key, x, viewer) for x in deck):
            deck[:] = [x if sees(s, key, x, viewer) else _masked(x) for x in deck]
    for key, track in s.tracks.items():
        track[:] = [x if x is None or sees(s, key, x, viewer) else _masked(x) for x in track]
    for space, item in list(s.occupied.items()):
        if not sees(s, space, item, viewer):
            s.occupied[space] = _masked(item)
    s.owned = None
    s.fresh()
    return s


def seen_history(state, viewer) -> list:
    """The moves made as `viewer` knows them: others' unrevealed secret choices read '?'."""
    hidden = state.hidden_moves
    if viewer is None or not hidden:
        return list(state.history)
    return [(t, who, ch, HIDDEN if i in hidden and who != viewer else text, forced)
            for i, (t, who, ch, text, forced) in enumerate(state.history)]


def seen_events(state, viewer, start: int = 0) -> list:
    """The events from `start` on as `viewer` knows them now: another's
    secret choice not yet revealed reads '?', an item moved is shown face
    down unless he sees it where it came from or where it went, and an item
    a note names as the move of it nearest the note shows it (with no such
    move: unless he sees one like it somewhere now). `viewer` may be
    a set of players (several at one screen): what each of them knows."""
    events = state.events
    if viewer is None or (not state.rules.hidden_information and not state.hidden_moves):
        return list(events[start:])
    viewers = (viewer,) if type(viewer) is int else tuple(viewer)
    rules, hidden = state.rules, state.hidden_moves
    # the history entry of each choice event: the two are written together
    at = len(state.history) - sum(1 for e in events if e[0] == "choice")
    at += sum(1 for e in events[:start] if e[0] == "choice")
    seen = None

    def shown(item) -> bool:
        nonlocal seen
        if seen is None:
            seen = _seen_items(state, viewers)
        if item in seen:
            return True
        return item not in seen[None] and item[0] not in rules.hideable_kinds

    def moved(item, i):
        """Did the viewers see `item` where the nearest move of it (after note i, else before) took it?"""
        for j in [*range(i + 1, min(len(events), i + _NEAR)), *range(i - 1, max(-1, i - _NEAR), -1)]:
            e = events[j]
            if e[0] == "move" and e[1] == item:
                return all(sees(state, e[2], item, v) or sees(state, e[3], item, v) for v in viewers)
        return None

    out = []
    for i in range(start, len(events)):
        ev = events[i]
        kind = ev[0]
        if kind == "choice":
            if at in hidden and any(v != ev[1] for v in viewers):
                ev = ev[:3] + (HIDDEN,) + ev[4:]
            at += 1
        elif kind == "move" and state.rules.hidden_information:
            item, src, dst = ev[1], ev[2], ev[3]
            if not all(sees(state, src, item, v) or sees(state, dst, item, v) for v in viewers):
                ev = (kind, _masked(item)) + ev[2:]
        elif kind == "note" and state.rules.hidden_information:
            args = tuple(_masked(a) if _is_item(rules, a) and not _first(moved(a, i), shown, a) else a
                         for a in ev[2:])
            ev = ev[:2] + args
        out.append(ev)
    return out


_NEAR = 16          # how far from a note its item's move is looked for


def _first(known, otherwise, item) -> bool:
    return otherwise(item) if known is None else known


def _is_item(rules, value) -> bool:
    return type(value) is tuple and len(value) == 2 and value[0] in rules.pieces and value[0] not in rules.zones


def _places(state):
    """(key, the items there) for every pool, deck and track of a position."""
    yield from state.pools.items()
    yield from state.decks.items()
    for key, track in state.tracks.items():
        yield key, [x for x in track if x is not None]


def _seen_items(state, viewers) -> dict:
    """The items every one of `viewers` sees somewhere now (and, under None,
    every item that lies anywhere)."""
    seen, anywhere = set(), set()
    for key, items in _places(state):
        for item in items:
            anywhere.add(item)
            if all(sees(state, key, item, v) for v in viewers):
                seen.add(item)
    out = dict.fromkeys(seen, True)
    out[None] = anywhere
    return out


def observation(state, viewer) -> str:
    """What `viewer` sees now, as one canonical text: whose decision it is,
    each zone and space that holds anything, the counters."""
    rules = state.rules
    s = view(state, viewer)
    show = rules.show           # (a face-down item reads kind:?, whatever its kind's `show`)
    lines = []
    p = state.pending
    if state.over:
        lines.append(f"turn {state.turn}: over")
    elif p is not None:
        lines.append(f"turn {state.turn}: {rules.color(p.player)} chooses {p.step.name}")
    else:
        lines.append(f"turn {state.turn}")
    zones = []
    for key, pool in s.pools.items():
        if pool:
            zones.append((show(key), ", ".join(f"{show(i)}" + (f" x{n}" if n != 1 else "")
                                               for i, n in sorted(pool.items(), key=lambda x: show(x[0])))))
    for key, deck in s.decks.items():
        if deck:
            zones.append((show(key), "[" + ", ".join(show(i) for i in deck) + "]"))
    for key, track in s.tracks.items():
        if any(x is not None for x in track):
            zones.append((show(key), "[" + ", ".join("-" if x is None else show(x) for x in track) + "]"))
    lines.extend(f"{k}: {v}" for k, v in sorted(zones))
    for key, value in sorted(state.counters.items(), key=lambda kv: repr(kv[0])):
        if key[0] == "created":          # (the engine's own tally of what setup made)
            continue
        lines.append(f"{' '.join(show(k) if not isinstance(k, str) else k for k in key)} = {value}")
    return "\n".join(lines)


def unseen_option(state, options, who):
    """The first option that would show `who` an item he cannot see
    anywhere (an opponent's hidden tile offered by its face), or None.
    Only items of kinds that can be hidden are looked at, and the search
    stops as soon as each is found face up to him somewhere."""
    hideable = state.rules.hideable_kinds
    for v in options:       # (most offer no item: found so without making a set)
        if type(v) is tuple and len(v) == 2 and v[0] in hideable:
            break
    else:
        return None
    left = {v for v in options if type(v) is tuple and len(v) == 2 and v[0] in hideable}
    if who is not None:
        # what he is offered lies mostly in the zones only he sees: those first, where he sees
        # every face (their declaration says so: _zone_seen)
        pools = state.pools
        for name, visible in state.rules.zone_visibility.items():
            if visible == "owner":
                items = pools.get((name, who))
                if items:
                    left.difference_update(items)
                    if not left:
                        return None
    for key, items in _places(state):
        for v in [v for v in left if v in items]:
            if sees(state, key, v, who):
                left.discard(v)
        if not left:
            return None
    return next(v for v in options if v in left)
