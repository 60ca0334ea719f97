"""Work a search's positions no longer do: a lookahead option whose flow only
tests, binds and jumps to a plain choice is answered without a probe; the
items a player is offered are found in the zones only he sees before any
other place is searched; a search's copies run on their game's machine; a
turn's start shares the position's zones until its next effect. Each gives
the same options, values and games as the work it replaces."""

import random

from helpers import count_probes

import nordlang
from nordlang.engine import lookahead, views


def _nord(players=4, seed=11, moves=9):
    rules = nordlang.load_rules("nord", players)
    g = nordlang.Game(rules, seed)
    r = random.Random(seed)
    for _ in range(moves):
        g.play_index(r.randrange(len(g.legal_moves())))
    return g


def _action(g, tile):
    return g.evaluate("action_of[tag(t)]", t=tile)


def _at_tile_choice(seed):
    """A Nord game (4 players) at a treasure tile choice offering a negotiator tile and
    another, reached by random moves from `seed`."""
    rules = nordlang.load_rules("nord", 4)
    g = nordlang.Game(rules, seed)
    r = random.Random(seed)
    while not g.over:
        p = g.state.pending
        if p.step.name == "play":
            actions = {_action(g, v) for v in p.options if v is not None}
            if "negotiator" in actions and len(actions) > 1:
                return g
        g.play_index(r.randrange(len(p.options)))
    raise AssertionError("no such tile choice")


def test_a_tile_that_only_reaches_the_placement_test_is_answered_without_a_probe(monkeypatch):
    # The tiles whose flow only tests and reaches the placement's 'exists' are answered
    # straight; a negotiator tile meets a lookahead choice of its own: a probe runs for it.
    g = _at_tile_choice(3)
    st, m = g.state, g.machine
    probed = count_probes(monkeypatch, lambda machine, step, value: value)
    ask = st.clone()
    m.ask_again(ask)
    negotiators = [v for v in ask.pending.options
                   if v is not None and _action(g, v) == "negotiator"]
    assert negotiators and sorted(probed, key=str) == sorted(negotiators, key=str)
    straight_options = ask.pending.options
    # every probe in full (the straight answers taken out): the same options, in the same order
    monkeypatch.setattr(lookahead.Lookahead, "_straight", lambda self, *a: None)
    lookahead._FEASIBLE.clear()
    probed.clear()
    full = st.clone()
    m.ask_again(full)
    assert full.pending.options == straight_options
    assert set(straight_options) <= set(probed)


def test_the_straight_answers_give_the_games_of_full_probes(monkeypatch):
    rules = nordlang.load_rules("nord", 3)

    def play(seed):
        lookahead._FEASIBLE.clear()
        g = nordlang.Game(rules, seed)
        r = random.Random(seed)
        seen = []
        while not g.over:
            seen.append(tuple(g.legal_moves()))
            g.play_index(r.randrange(len(seen[-1])))
        return seen, g.result.points

    straight = [play(s) for s in (1, 2)]
    monkeypatch.setattr(lookahead.Lookahead, "_straight", lambda self, *a: None)
    assert [play(s) for s in (1, 2)] == straight


def test_an_offered_tile_in_the_players_hand_is_found_there_first(monkeypatch):
    g = _at_tile_choice(3)
    st = g.state
    p = st.pending
    searched = []
    real = views._places
    monkeypatch.setattr(views, "_places", lambda state: (searched.append(1), real(state))[1])
    assert views.unseen_option(st, p.options, p.player) is None
    assert searched == []          # (his hand held them all: no other place was searched)
    # an opponent's tile, which he cannot see, is still told
    other = next(item for q in g.rules.player_range if q != p.player
                 for item in st.items(("hand", q)) if item not in st.items(("hand", p.player)))
    assert views.unseen_option(st, [None, other], p.player) == other
    assert searched == [1]


def test_a_search_copy_runs_on_its_games_machine_and_plays_as_a_clone():
    g = _nord()
    before = ({k: dict(v) for k, v in g.state.pools.items()}, dict(g.state.counters), dict(g.state.occupied))
    b, c = g.branch(), g.clone()
    assert b.machine is g.machine and c.machine is not g.machine
    assert b.state is not g.state and b.state.version == g.state.version
    r1, r2 = random.Random(5), random.Random(5)
    for _ in range(30):
        if b.over:
            break
        assert b.legal_moves() == c.legal_moves()
        b.play_index(r1.randrange(len(b.legal_moves())))
        c.play_index(r2.randrange(len(c.legal_moves())))
    assert b.state.version == c.state.version and b.state.pools == c.state.pools
    # the original untouched (the zones it shared with the copy until the copy's first effect)
    assert ({k: dict(v) for k, v in g.state.pools.items()}, g.state.counters, g.state.occupied) == before
    assert g.legal_moves() == g.clone().legal_moves()


def _full_turn_start(g):
    """Full snapshots of each turn's start from now on (as a scenario keeps them), to the next turn's."""
    g.machine.keep_turn_start = True
    turn, r = g.state.turn, random.Random(4)
    while g.state.turn == turn:
        g.play_index(r.randrange(len(g.legal_moves())))
    return g


def test_a_turns_start_shares_the_zones_until_the_next_effect():
    g = _full_turn_start(_nord())
    st = g.state
    start = st.turn_start
    assert start is not None and st.shared and start.pools is st.pools
    before = {k: dict(v) for k, v in start.pools.items()}
    counters = dict(start.counters)
    # a copy plays on; then the position itself: the turn's start stays as it was
    c = g.branch()
    r = random.Random(2)
    while not c.over and c.state.turn == st.turn:
        c.play_index(r.randrange(len(c.legal_moves())))
    while not g.over and g.state.turn == start.turn:
        g.play_index(r.randrange(len(g.legal_moves())))
    assert {k: dict(v) for k, v in start.pools.items()} == before and start.counters == counters
    assert g.state.pools != before             # (the position did change: its own zones now)


def test_a_decision_whose_effects_come_later_copies_no_zone():
    # choosing the tile only binds it (its effects come with the placement): the copy
    # still shares the position's zones; the placement's effect gives it its own
    g = _at_tile_choice(3)
    b = g.branch()
    b.play_index(0)
    assert b.state.pending.step.name == "place" and b.state.pools is g.state.pools
    b.play_index(0)
    assert b.state.pools is not g.state.pools and b.state.occupied != g.state.occupied
