"""Kuhn poker, Goofspiel and Pig: worked examples with exact numbers, the
games' properties over random games, and (with open-spiel installed) the
same play as OpenSpiel's own implementations."""

from __future__ import annotations

import itertools
import random

import pytest

import nordlang
from nordlang.engine.chance import Fixed
from nordlang.engine.game import Game
from nordlang.engine.state import State


def fixed_game(name, given, seed=0, **kw) -> Game:
    """A game whose first chance outcomes are given (a value for a roll, a list for a shuffle)."""
    rules = nordlang.load_rules(name, **kw)
    state = State(rules, seed)
    state.rng = Fixed(state.rng.state, given, rules.show)
    game = Game(rules, seed, state)
    game.machine.start(state)
    return game


def play(game, *moves):
    for m in moves:
        game.play(m)
    return game


# ---------------- Kuhn poker ----------------
KUHN = {        # (red's card, blue's card, actions) -> returns
    ("king", "queen", ("pass", "bet", "bet")): (2.0, -2.0),
    ("king", "queen", ("pass", "pass")): (1.0, -1.0),
    ("jack", "king", ("bet", "bet")): (-2.0, 2.0),
    ("jack", "queen", ("bet", "pass")): (1.0, -1.0),
    ("king", "jack", ("pass", "bet", "pass")): (-1.0, 1.0),
}


@pytest.mark.parametrize("red, blue, actions", list(KUHN))
def test_kuhn_worked_examples(red, blue, actions):
    third = ({"jack", "queen", "king"} - {red, blue}).pop()
    g = fixed_game("kuhn-poker", [[f"card:{red}", f"card:{blue}", f"card:{third}"]])
    assert g.legal_moves() == [nordlang.parse("action pass"), nordlang.parse("action bet")]   # pass = 0, bet = 1
    for a in actions:
        assert not g.over
        g.play(f"action {a}")
    assert g.over
    assert g.returns() == KUHN[red, blue, actions]


def test_kuhn_hands_are_secret_until_the_showdown():
    g = fixed_game("kuhn-poker", [["card:king", "card:queen", "card:jack"]])
    assert "card:king" in g.observation(0) and "card:king" not in g.observation(1)
    assert "card:queen" in g.observation(1) and "card:queen" not in g.observation(0)
    assert "card:jack" not in g.observation(0) + g.observation(1)           # the deck stays face down
    play(g, "action pass", "action pass")
    assert "card:queen" in g.observation(0) and "card:king" in g.observation(1)


# ---------------- Goofspiel ----------------
def test_goofspiel_four_cards_ends_after_four_rounds():
    g = fixed_game("goofspiel", [["prize:3", "prize:1", "prize:4", "prize:2"]], params={"cards": 4})
    assert [str(m) for m in g.legal_moves()] == ["bid 1", "bid 2", "bid 3", "bid 4"]
    play(g, "bid 4", "bid 2", "bid 1", "bid 3", "bid 2", "bid 1")     # the last cards play themselves
    assert g.over and g.state.turn == 4
    assert g.points() == (7, 3) and g.result.winners == (0,) and g.returns() == (1.0, -1.0)


def test_goofspiel_bids_are_secret_until_all_have_bid():
    g = nordlang.load("goofspiel", seed=2, params={"cards": 4})
    g.play("bid 3")
    assert g.to_move == 1
    assert g.seen_history(1)[-1][3] == "?" and g.seen_history(0)[-1][3] == "3"
    g.play("bid 1")
    assert [h[3] for h in g.seen_history(1)] == ["3", "1"]              # reveal: all


def test_goofspiel_hidden_bids_stay_hidden_but_the_winner_is_public():
    g = nordlang.load("goofspiel", seed=2, params={"cards": 4}, variants=["hidden-bids"])
    play(g, "bid 3", "bid 1")
    assert [h[3] for h in g.seen_history(1)] == ["?", "1"]
    seen = g.observation(1)
    assert "played(red): card:?" in seen and "hand(red): card:? x3" in seen
    assert "won(red): prize:" in seen and "points 0" in seen


def test_goofspiel_three_players_share_a_tied_win_as_openspiel_does():
    rules = nordlang.load_rules("goofspiel", players=3, params={"cards": 2})
    state = State(rules, 0)
    state.rng = Fixed(state.rng.state, [["prize:2", "prize:1"]], rules.show)
    g = Game(rules, 0, state)
    g.machine.start(state)
    play(g, "bid 2", "bid 2", "bid 1")          # red and blue tie for the 2; green's 2 wins the 1
    assert g.over and g.points() == (0, 0, 1) and g.returns() == (-0.5, -0.5, 1.0)


# ---------------- Pig ----------------
def test_pig_a_one_loses_the_turn_total():
    g = fixed_game("pig", [4, 5, 1])
    assert [str(m) for m in g.legal_moves()] == ["action roll", "action stop"]    # roll = 0, stop = 1
    play(g, "action roll", "action roll")
    assert g.to_move == 0 and g.state.counters[("counter", "turn_total")] == 9
    g.play("action roll")
    assert g.to_move == 1 and g.points() == (0, 0) and g.state.counters[("counter", "turn_total")] == 0


def test_pig_stopping_banks_and_the_target_wins():
    g = fixed_game("pig", [6, 6], params={"target": 12})
    play(g, "action roll", "action roll", "action stop")
    assert g.over and g.points() == (12, 0) and g.returns() == (1.0, -1.0)


# ---------------- properties over random games ----------------
@pytest.mark.parametrize("name, kw", [("kuhn-poker", {}), ("goofspiel", {}), ("goofspiel", {"params": {"cards": 4}}),
                                      ("goofspiel", {"variants": ["hidden-bids"]}), ("pig", {})])
def test_random_games_end_and_are_zero_sum(name, kw):
    rnd = random.Random(7)
    for seed in range(100):
        g = nordlang.load(name, seed=seed, **kw)
        n = 0
        while not g.over:
            g.play_index(rnd.randrange(len(g.legal_moves())))
            n += 1
            assert n < 2000
        r = g.returns()
        assert abs(sum(r)) < 1e-9, (seed, r)
        if name == "kuhn-poker":
            assert sorted(r) in ([-1.0, 1.0], [-2.0, 2.0])
        else:
            assert set(r) <= {-1.0, 0.0, 1.0}


# ---------------- OpenSpiel's own implementations ----------------
def test_kuhn_matches_openspiel_on_every_deal_and_line():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("kuhn_poker")
    names = ["jack", "queen", "king"]
    lines = [(0, 0), (0, 1, 0), (0, 1, 1), (1, 0), (1, 1)]
    for a, b in itertools.permutations(range(3), 2):
        for line in lines:
            s = game.new_initial_state()
            s.apply_action(a)
            s.apply_action(b)
            third = ({0, 1, 2} - {a, b}).pop()
            g = fixed_game("kuhn-poker", [[f"card:{names[a]}", f"card:{names[b]}", f"card:{names[third]}"]])
            for act in line:
                s.apply_action(act)
                g.play_index(act)
            assert s.is_terminal() and g.over
            assert tuple(s.returns()) == g.returns(), (a, b, line)


def test_pig_matches_openspiel_on_random_lines():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("pig", {"winscore": 20})
    rnd = random.Random(3)
    for _ in range(30):
        s = game.new_initial_state()
        rolls, acts = [], []
        while not s.is_terminal():
            if s.is_chance_node():
                o = rnd.randrange(6)
                rolls.append(o + 1)
                s.apply_action(o)
            else:
                a = rnd.choice([0, 0, 1])
                acts.append((s.current_player(), a))
                s.apply_action(a)
        g = fixed_game("pig", rolls, params={"target": 20})
        for who, a in acts:
            assert g.to_move == who
            g.play_index(a)
        assert g.over and g.returns() == tuple(s.returns())
