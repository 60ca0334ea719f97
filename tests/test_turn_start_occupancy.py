"""A turn's start that keeps only the board's occupancy (frames.py
OccupancyAtStart), for rules whose at_turn_start asks only of connections
(Nord's attack pairs): it answers as the whole snapshot would, the
position keeps its zones its own (no copy of every zone table at the turn's
first effect), and rules that read more of the turn's start keep it whole."""

import random

import pytest

import nordlang
from nordlang.engine.frames import OccupancyAtStart, occupancy_is_enough
from nordlang.engine.state import State
from nordlang.errors import EvalError
from nordlang.lang import ast as A
from nordlang.lang.parser import parse
from nordlang.rules import build

_ATTACKS = "connected_pairs(\"settlement\") - at_turn_start(connected_pairs(\"settlement\"))"


def test_a_game_on_the_occupancy_alone_is_the_game_on_whole_snapshots():
    rules = nordlang.load_rules("nord", 4)
    assert occupancy_is_enough(rules)
    thin, whole = nordlang.Game(rules, 8), nordlang.Game(rules, 8)
    whole.machine.keep_turn_start = True          # (whole snapshots, as a scenario keeps them)
    r = random.Random(8)
    starts = 0
    while not thin.over:
        a, b = thin.state.turn_start, whole.state.turn_start
        if type(b) is State:                      # (from the second turn on)
            assert type(a) is OccupancyAtStart and not thin.state.shared
            assert a.occupied == b.occupied and a.links.occ == b.links.occ and a.turn == b.turn
            assert thin.evaluate(_ATTACKS) == whole.evaluate(_ATTACKS)
            starts += 1
        i = r.randrange(len(thin.legal_moves()))
        thin.play_index(i)
        whole.play_index(i)
    assert starts > 50
    assert thin.state.history == whole.state.history and thin.points() == whole.points()


def test_the_occupancy_at_start_stays_as_the_turn_began():
    g = nordlang.Game(nordlang.load_rules("nord", 2), 3)
    r = random.Random(3)
    while g.state.turn < 5:
        g.play_index(r.randrange(len(g.legal_moves())))
    start = g.state.turn_start
    occupied, occ = dict(start.occupied), start.links.occ
    while g.state.turn == start.turn:
        g.play_index(r.randrange(len(g.legal_moves())))
    assert g.state.occupied != occupied              # (pieces came this turn)
    assert start.occupied == occupied and start.links.occ == occ


def test_it_keeps_nothing_else_and_says_so():
    g = nordlang.Game(nordlang.load_rules("nord", 2), 1)
    with pytest.raises(AttributeError, match="keeps only the board's occupancy.*'pools'"):
        _ = g.state.turn_start.pools


def test_an_expression_that_asks_more_of_it_is_refused_at_its_text():
    g = nordlang.Game(nordlang.load_rules("nord", 2), 1)
    assert g.evaluate('at_turn_start(connected_pairs("settlement"))') == frozenset()
    with pytest.raises(EvalError) as e:
        g.evaluate("at_turn_start(len(items(hand(1))))")
    text = str(e.value)
    assert "1:19" in text and "keeps only the board's occupancy" in text and "'pools'" in text
    assert "at_turn_start(len(items(hand(1))))" in text


def test_a_sample_has_its_own_version_of_the_turns_start():
    g = nordlang.Game(nordlang.load_rules("nord", 3), 2)
    r = random.Random(2)
    for _ in range(12):
        g.play_index(r.randrange(len(g.legal_moves())))
    start = g.state.turn_start
    s = g.for_player(g.to_move, 5).state.turn_start
    assert type(s) is OccupancyAtStart and s.version != start.version
    assert s.occupied == start.occupied and s.links.occ == start.links.occ


def test_rules_that_read_more_of_the_turns_start_keep_it_whole(tmp_path, monkeypatch):
    variant = tmp_path / "held.yaml"
    variant.write_text("description: hands at the turn's start\npatch:\n  define:\n"
                       "    held_at_start(p): 'at_turn_start(sorted(items(hand(p))))'\n")
    monkeypatch.setattr(build, "_CACHE", {})
    rules = nordlang.load_rules(None, 2, [str(variant)])
    assert not occupancy_is_enough(rules)
    g = nordlang.Game(rules, 4)
    r = random.Random(4)
    while g.state.turn < 3:
        g.play_index(r.randrange(len(g.legal_moves())))
    assert type(g.state.turn_start) is State


def test_every_node_is_walked_even_in_an_if_statements_bodies():
    # (occupancy_is_enough finds each at_turn_start by walking the trees: one in an elif's body counts)
    tree = parse('if x > 0 { add("a", 1) } elif x < 0 { add("b", at_turn_start(counter("c"))) } '
                 'else { add("d", 2) }', "effects")
    called = [n.func.id for n in A.walk(tree) if type(n) is A.Call and type(n.func) is A.Name]
    assert called.count("at_turn_start") == 1 and "counter" in called
