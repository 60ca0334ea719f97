"""A light copy's decks and tracks are shared one by one after `unshare`
(copy on write: engine/copies.py): each side's changes, through State.add
and remove and through the effects that change a deck or a track in place,
stay its own, and a search on Vikings (decks of 36 and 42 tiles) plays the
same games as one on full copies."""

import random

import nordlang
from nordlang.engine.library import effects

DECK, TRACK = ("tiles", None), ("wheel_tiles", None)


def _vikings(moves=12, seed=4):
    rules = nordlang.load_rules("vikings", 4)
    g = nordlang.Game(rules, seed)
    r = random.Random(seed)
    for _ in range(moves):
        g.play_index(r.randrange(len(g.legal_moves())))
    return g


def _lists(st):
    return {k: list(v) for k, v in st.decks.items()}, {k: list(v) for k, v in st.tracks.items()}


def test_unshared_copy_shares_its_lists_until_one_changes():
    st = _vikings().state
    s = st.clone(light=True)
    s.unshare()
    assert s.decks is not st.decks and s.tracks is not st.tracks
    assert s.decks[DECK] is st.decks[DECK] and s.tracks[TRACK] is st.tracks[TRACK]
    tile = st.decks[DECK][0]
    s.remove(DECK, tile)
    assert s.decks[DECK] is not st.decks[DECK]
    assert s.decks[("bag", None)] is st.decks[("bag", None)]      # (the other deck still shared)


def test_either_side_changes_its_own_decks_and_tracks():
    st = _vikings().state
    before = _lists(st)
    s = st.clone(light=True)
    s.unshare()
    tile = st.decks[DECK][0]
    s.remove(DECK, tile)
    s.add(DECK, tile, 2)
    slot = s.add(TRACK, tile)
    s.remove(TRACK, tile)
    s.add(TRACK, tile)
    assert _lists(st) == before
    assert s.decks[DECK] == before[0][DECK][1:] + [tile, tile]
    assert s.tracks[TRACK][slot] == tile
    # the original, changed after the copy, leaves the copy as it was
    after = _lists(s)
    st.remove(DECK, tile)
    st.add(TRACK, tile)
    assert _lists(s) == after
    assert st.decks[DECK] == before[0][DECK][1:]


class _Ctx:
    def __init__(self, state):
        self.state, self.rules = state, state.rules


def test_effects_that_change_lists_in_place_copy_them_first():
    st = _vikings().state
    s = st.clone(light=True)
    s.unshare()
    s.add(TRACK, ("x", None))
    s.unshare()                      # (now shared again, one by one)
    before = _lists(s)
    t = s.clone(light=True)
    t.unshare()
    ctx = _Ctx(t)
    slot = t.tracks[TRACK].index(("x", None))
    effects._shuffle(ctx, DECK)
    effects._draw(ctx, DECK, ("bag", None))
    effects._take(ctx, TRACK, slot, ("bag", None))
    effects._put(ctx, ("x", None), ("bag", None), TRACK, slot)
    effects._shift(ctx, TRACK, 0)
    effects._compact(ctx, TRACK)
    assert _lists(s) == before
    assert len(t.decks[DECK]) == len(before[0][DECK]) - 1
    assert t.tracks[TRACK] == [x for x in before[1][TRACK] if x is not None] + [None] * before[1][TRACK].count(None)


def test_a_search_on_light_copies_plays_the_games_of_full_copies():
    g = _vikings(moves=30, seed=8)
    for seed in range(3):
        r1, r2 = random.Random(seed), random.Random(seed)
        a, b = g.branch(), g.clone()
        while not (a.over or b.over) and a.state.turn < 40:
            assert a.legal_moves() == b.legal_moves()
            i = r1.randrange(len(a.legal_moves()))
            assert i == r2.randrange(len(b.legal_moves()))
            a.play_index(i)
            b.play_index(i)
        assert _lists(a.state) == _lists(b.state) and a.state.pools == b.state.pools
    assert _lists(g.state) == _lists(_vikings(moves=30, seed=8).state)
