"""Honest samples: a position a player cannot tell from the real one,
drawn from what he may know alone (views.py says what each player sees):
the items he cannot see dealt at random over the places he cannot see
into, and the future's chance source seeded afresh. What an honest search
agent plays on (Game.for_player)."""

from __future__ import annotations

from operator import itemgetter

from .frames import OccupancyAtStart
from .program import Choice
from .rng import Rng
from .views import _is_item, _places, _zone_seen

_STR = {str}
_kind = itemgetter(0)           # (an item's kind)


def _bound_items(state) -> frozenset:
    """(place, item) for each item the flow holds as the answer of an open
    choice that lies in a place of the player who chose it (a tile chosen
    earlier in the turn, in his hand until it is played): all saw that move,
    so all know he holds one such item, and a sample leaves one there.
    (A secret answer is the simultaneous choices' to sample.)"""
    chosen = {}
    for fr in state.frames:
        for ins in fr.code:
            if ins.__class__ is Choice and ins.step.simultaneous is None and ins.step.name in fr.vars:
                chosen[ins.step.name] = fr.vars[ins.step.name]
    if not chosen:
        return frozenset()
    who = {}
    for _turn, player, name, _text, _forced in reversed(state.history):
        if name in chosen and name not in who:
            who[name] = player
            if len(who) == len(chosen):
                break
    out = set()
    rules = state.rules
    zones = None                    # (the places that are zones of a player's, listed once: a space is none)
    for name, value in chosen.items():
        if name in who:
            items = _items_in(rules, value)
            if not items:           # (an answer that holds no item: a space, a word)
                continue
            if zones is None:
                # (_zone_of(key) written out: this looks at every place of the position)
                zones = [(key, held) for key, held in _places(state)
                         if key.__class__ is tuple and key and key[0].__class__ is str]
            owner = who[name]
            out.update((key, item) for key, held in zones if key[1] == owner for item in items if item in held)
    return frozenset(out)


def _items_in(rules, value) -> list:
    """The items in a value (itself, or within its tuples, lists and sets)."""
    out, stack = [], [value]
    while stack:
        v = stack.pop()
        if _is_item(rules, v):
            out.append(v)
        elif v.__class__ in (tuple, list, frozenset):
            stack.extend(v)
    return out


def _resample(s, viewer, rng, pinned=frozenset()) -> bool:
    """Deal the items `viewer` cannot see at random over the places he cannot
    see into, each place keeping how many of each kind it holds (which he
    sees); a wholly hidden deck is shuffled too. Uses only what the viewer
    sees and the multiset of the unseen, so two positions he cannot tell
    apart give the same sample. One of each `pinned` (place, item) stays there (_bound_items).
    True when an occupying piece on a space was dealt anew (what the state
    keeps of the board, from the occupancy on, is then made again: other
    pieces leave it as it was)."""
    rules = s.rules
    show, face_down = rules.show, rules.face_down
    places = []                       # (pool key, kind, how many) for the unseen items, in an order the viewer knows
    dealt = []                        # (deck key, the kind at each place dealt anew, or None for an item kept)
    unseen: dict = {}                 # kind -> the unseen tags
    # (a place's own visibility is asked once: most hide nothing, and are passed over before the sort)
    hiding = []
    revealed = s.revealed
    face_down_kind = face_down.__contains__
    declared = rules.zone_visibility
    for key, pool in s.pools.items():
        if pool:
            if key in revealed:
                seen = _zone_seen(s, key, viewer)
            elif key.__class__ is tuple and key and key[0].__class__ is str:
                # (_zone_seen of a zone not turned over, written out: by its declaration)
                visible = declared.get(key[0])
                seen = None if visible is None else visible == "all" or visible == "owner" and key[1] == viewer
            else:
                seen = None              # (a space or structure not turned over: each piece's kind decides)
            if seen is False or seen is None and any(map(face_down_kind, map(_kind, pool))):
                hiding.append((key, seen))
    for key, seen in sorted(hiding, key=lambda ks: show(ks[0])):
        pool = s.pools[key]
        hidden = [(item, n - ((key, item) in pinned)) for item, n in pool.items()
                  if seen is False or item[0] in face_down]
        hidden = [(item, n) for item, n in hidden if n > 0]
        if not hidden:
            continue
        pool = s.pools[key] = dict(pool)
        for item, n in hidden:
            left = pool[item] - n            # (a pinned one stays)
            if left:
                pool[item] = left
            else:
                del pool[item]
            places.append((key, item[0], n))
            unseen.setdefault(item[0], []).extend([item[1]] * n)
    shuffled = []
    for key in sorted(s.decks, key=show):
        deck = s.decks[key]
        if not deck:
            continue
        seen = _zone_seen(s, key, viewer)
        if seen is True:
            continue
        kept = {x for k, x in pinned if k == key} if pinned else None
        if seen is False and not kept:
            # (the whole deck: its tags by kind in one pass a kind, kinds as they first come)
            kinds = [x[0] for x in deck]
            for kind in dict.fromkeys(kinds):
                unseen.setdefault(kind, []).extend([t for k, t in deck if k == kind])
            dealt.append((key, kinds))
            shuffled.append(key)
            continue
        kinds = []
        for x in deck:
            if kept and x in kept:
                kept.discard(x)          # (one of each pinned item stays: the first)
                kinds.append(None)
            elif seen is False or x[0] in face_down:
                kinds.append(x[0])
                unseen.setdefault(x[0], []).append(x[1])
            else:
                kinds.append(None)
        if any(k is not None for k in kinds):
            dealt.append((key, kinds))
        if seen is False:
            shuffled.append(key)
    if not places and not dealt:
        return False
    for tags in unseen.values():
        if set(map(type, tags)) == _STR:
            tags.sort()                 # (the same order as the key below, for texts)
        else:
            tags.sort(key=lambda t: (str(type(t)), str(t)))
        rng.shuffle(tags)
    board = False
    pools, space_set, occupying = s.pools, rules.grid.space_set, rules.occupying
    for key, kind, n in places:
        tags = unseen[kind]
        pool = pools[key]
        for _ in range(n):
            item = (kind, tags.pop())
            pool[item] = pool.get(item, 0) + 1
        board = board or kind in occupying and key in space_set
    decks = s.decks
    for key, kinds in dealt:
        deck = decks[key]
        if kinds[0] is not None and kinds.count(kinds[0]) == len(kinds):
            # (a deck of one kind dealt anew whole: the tags it pops, from the last on, in one slice)
            tags = unseen[kinds[0]]
            taken = tags[-len(kinds):]
            del tags[-len(kinds):]
            taken.reverse()
            decks[key] = list(zip(kinds, taken))
        else:
            decks[key] = [x if k is None else (k, unseen[k].pop()) for k, x in zip(kinds, deck)]
    for key in shuffled:
        rng.shuffle(decks[key])
    return board


def sample(state, viewer, seed: int, resample_choice=None):
    """A position `viewer` cannot tell from `state`, drawn from what he knows
    and `seed` alone: the unseen items dealt afresh, others' unrevealed
    secret answers chosen afresh (by `resample_choice`), and the chance
    source seeded afresh, so the future is sampled, never the real one."""
    s = state.clone()               # (a full copy: its zones its own)
    rng = Rng(seed)
    s.rng = Rng(rng.next64())
    if state.rules.hidden_information and viewer is not None:
        if _resample(s, viewer, rng, _bound_items(state)):
            _reoccupy(s)
        if s.turn_start.__class__ is OccupancyAtStart:
            s.turn_start = s.turn_start.fresh_copy()    # (no hidden piece on the board: nothing to deal anew)
        elif s.turn_start is not None:
            start = s.turn_start.clone()
            if _resample(start, viewer, Rng(seed)):
                _reoccupy(start)
            start.rng = None
            start.fresh()           # (its own versions: values memoised on the real turn start never answer)
            s.turn_start = start
    if resample_choice is not None:
        resample_choice(s, viewer, rng)
    s.fresh()
    return s


def _reoccupy(s) -> None:
    """Occupancy again from the spaces' pools (after their pieces were dealt anew)."""
    rules = s.rules
    s.occupied = {sp: item for sp in rules.grid.spaces for item in s.pools.get(sp, ()) if item[0] in rules.occupying}
    s.owned = None
    s._links = None
    s.free = s.free_at = s.free_view = None
