"""Honest agents: an agent decides from what its player may know alone.

Two positions that a player cannot tell apart (they differ only in what is
hidden from him, in others' unrevealed secret choices, or in the future's
chance) get the same decision from greedy and from mcts for the same agent
seed; and the copy an agent searches never carries the real future.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import nordlang
from nordlang.agents.base import make_agent
from nordlang.engine.rng import Rng

BIDS = Path(__file__).parent / "games" / "honesty" / "bids.yaml"
AGENTS = ["greedy", "mcts:playouts=24,width=4"]


def _decisions(game, seeds=(1, 2, 3)):
    return [make_agent(spec, s).choose(game) for spec in AGENTS for s in seeds]


def _swap(state, key_a, item_a, key_b, item_b):
    """Exchange one item of a zone (pool or deck) with one of another, in place."""
    for key, old, new in ((key_a, item_a, item_b), (key_b, item_b, item_a)):
        if key in state.decks:
            deck = state.decks[key]
            deck[deck.index(old)] = new
        else:
            pool = state.pools[key] = dict(state.pools[key])
            pool[old] -= 1
            if not pool[old]:
                del pool[old]
            pool[new] = pool.get(new, 0) + 1
    state.fresh()


def test_a_hidden_deck_order_changes_no_decision():
    import itertools
    g = nordlang.load(str(BIDS), seed=1)
    g.play("offer 2")
    g.play("offer 2")                      # a tie: the next prize is turned; red bids again
    seen = set()
    for order in itertools.permutations(g.state.decks[("prizes", None)]):
        other = g.clone()
        other.state.decks[("prizes", None)][:] = order
        other.state.fresh()
        assert other.observation(0) == g.observation(0)
        seen.add(tuple(make_agent("mcts:playouts=60,width=4", s).choose(other) for s in range(1, 9)) +
                 tuple(make_agent("greedy", s).choose(other) for s in range(1, 4)))
    assert len(seen) == 1


def test_an_opponents_secret_answer_changes_no_decision():
    decided = []
    for first in ("offer 1", "offer 4"):
        g = nordlang.load(str(BIDS), seed=1)
        g.play(first)                       # red's secret bid; blue is asked next
        assert g.to_move == 1
        decided.append((g.observation(1), g.seen_history(1), _decisions(g)))
    assert decided[0][:2] == decided[1][:2]           # blue cannot tell them apart ...
    assert decided[0][2] == decided[1][2]             # ... and decides the same


def test_the_real_future_changes_no_decision():
    g = nordlang.load(str(BIDS), seed=1)
    other = g.clone()
    other.state.rng = Rng(987654321)       # another die to come
    assert _decisions(g) == _decisions(other)


def test_an_opponents_hidden_hand_changes_no_decision_in_nord():
    rules = nordlang.load_rules("nord", players=3)
    g = nordlang.Game(rules, 11)
    r = random.Random(5)
    while g.to_move != 0 or g.choice != "play" or len(g.legal_moves()) < 2:
        g.play_index(r.randrange(len(g.legal_moves())))
    other = g.clone()
    st = other.state
    theirs = next(t for t in st.pools[("hand", 1)])
    supply = next(t for t in st.decks[("treasures", None)] if t != theirs)
    _swap(st, ("hand", 1), theirs, ("treasures", None), supply)
    assert g.observation(0) == other.observation(0)
    assert g.observation(1) != other.observation(1)
    assert _decisions(g, seeds=(1, 2)) == _decisions(other, seeds=(1, 2))


def test_the_copy_an_agent_searches_does_not_carry_the_real_future():
    g = nordlang.load(str(BIDS), seed=1)
    g.play("offer 2")
    g.play("offer 3")                       # both bid: the die is rolled and the next prize drawn
    real = [e for e in g.state.events if e[0] == "roll"]
    outcomes = set()
    for seed in range(12):
        h = nordlang.load(str(BIDS), seed=1)
        h = h.for_player(0, seed)
        h.play("offer 2")
        h.play("offer 3")
        outcomes.add(tuple(e for e in h.state.events if e[0] == "roll"))
    assert len(outcomes) == 2                   # the sampled die shows both faces over the samples
    # the referee's clone is the real game: the same die
    c = nordlang.load(str(BIDS), seed=1).clone()
    c.play("offer 2")
    c.play("offer 3")
    assert [e for e in c.state.events if e[0] == "roll"] == real


def test_a_sample_keeps_what_the_player_sees_and_deals_the_rest_afresh():
    g = nordlang.load(str(BIDS), seed=4)
    orders = set()
    for seed in range(8):
        s = g.for_player(0, seed)
        assert s.observation(0) == g.observation(0)
        orders.add(tuple(s.state.decks[("prizes", None)]))
        assert s.state.pools[("hand", 0)] == g.state.pools[("hand", 0)]
    assert len(orders) > 1
    # the same seed, the same sample
    assert g.for_player(0, 3).state.decks == g.for_player(0, 3).state.decks


@pytest.mark.parametrize("viewer", [0, 1])
def test_a_view_shows_faces_only_where_the_viewer_may_see(viewer):
    g = nordlang.load(str(BIDS), seed=2)
    v = g.view(viewer)
    assert set(v.pools[("hand", viewer)]) == {("bid", c) for c in range(1, 5)}
    assert set(v.pools[("hand", 1 - viewer)]) == {("bid", "?")}
    assert v.decks[("prizes", None)] == [("prize", "?")] * 3
    assert g.view(None).decks[("prizes", None)] == g.state.decks[("prizes", None)]


def test_mcts_over_several_samples_is_honest_and_deterministic():
    """samples=3: three samples searched, each with a third of the budget; the decision is the
    same for the same seed, and the same in positions the mover cannot tell apart."""
    decided = []
    for first in ("offer 1", "offer 4"):
        g = nordlang.load(str(BIDS), seed=1)
        g.play(first)
        decided.append([make_agent("mcts:playouts=30,samples=3", s).choose(g) for s in (1, 2, 3)])
    assert decided[0] == decided[1] and all(0 <= i < 4 for i in decided[0])
    g = nordlang.load(str(BIDS), seed=1)
    spec = "mcts:playouts=30,samples=3"
    assert make_agent(spec, 5).choose(g) == make_agent(spec, 5).choose(g)


def test_a_sample_for_one_who_waits_keeps_the_tile_another_chose_and_asks_him_anew():
    """Blue chose a treasure tile (all saw which) and places next: a sample
    for red keeps one such tile in blue's hand (his other tiles, unseen by
    red, are dealt afresh) and asks blue's placement anew, so every one of
    its options plays on the sample; red's own hand and sight are as they were."""
    rules = nordlang.load_rules("nord", players=4)
    g = nordlang.Game(rules, 0)
    r = random.Random(0)
    while not (g.to_move == 1 and g.choice == "place" and g.state.frames[-1].vars.get("play")):
        g.play_index(r.randrange(len(g.legal_moves())))
    tile = g.state.frames[-1].vars["play"]
    dealt = set()
    for seed in range(12):
        s = g.for_player(0, seed)
        assert s.observation(0) == g.observation(0)
        hand = s.state.pools[("hand", 1)]
        assert hand.get(tile, 0) >= 1 and sum(hand.values()) == sum(g.state.pools[("hand", 1)].values())
        dealt.add(tuple(sorted(hand)))
        assert s.to_move == 1 and s.choice == "place"
        for i in range(len(s.legal_moves())):
            t = s.clone()
            t.play_index(i)                  # (the tile goes from blue's hand to the played ones)
            played = "amount(played, t)"
            assert t.evaluate(played, t=tile) == g.evaluate(played, t=tile) + 1
    assert len(dealt) > 1                    # blue's other tiles differ between samples


def test_a_sample_for_one_who_waits_offers_another_the_tiles_it_dealt_him():
    """Blue is to choose a tile of his hand: in a sample for red his hand is
    dealt afresh and his choice asked anew, so its options are the sample's
    tiles (and every one plays), not the real ones."""
    rules = nordlang.load_rules("nord", players=4)
    g = nordlang.Game(rules, 0)
    r = random.Random(0)
    while not (g.to_move == 1 and g.choice == "play" and len(g.legal_moves()) > 2):
        g.play_index(r.randrange(len(g.legal_moves())))
    offered = set()
    for seed in range(12):
        s = g.for_player(0, seed)
        hand = s.state.pools[("hand", 1)]
        if s.choice == "play":
            options = [v for v in s.state.pending.options if v is not None]
            assert set(options) <= set(hand)
            offered.add(tuple(sorted(options)))
        else:                               # (no tile dealt him can be played: 'none' was his only option)
            assert s.state.history[-1][1:] == (1, "play", "none", True) and s.choice == "place"
        for i in range(len(s.legal_moves())):
            s.clone().play_index(i)
    assert len(offered) > 1
