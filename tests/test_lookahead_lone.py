"""A lookahead choice with one option, outside a probe, is taken at once and
the flow runs on for real (lone.py): no probe first and the
same flow again after it. A dead end it meets undoes what it did and the
choice's 'otherwise' runs; an effect it meets before a decision undoes it
too, and the option is probed as before."""


import pytest
from helpers import count_probes, counters, past_setup, random_decisions, variant_rules

import nordlang
from nordlang.engine import flow, lookahead
from nordlang.engine import lone as lone_runs
from nordlang.engine.program import Choice, compiled_flows

LONE = """\
description: a lookahead choice with one option each turn, whose flow decides, ends nowhere or runs an effect
extends: nord
patch:
  flows:
    asks(n):
      - let: {m: 'n * 10'}
      - choose: pick
        from: '[m, m + 1]'
    stuck():
      - let: {m: '7'}
      - choose: none_left
        from: '[]'
    counts():
      - do: 'add("effects", 1)'
      - choose: pick2
        from: '[1, 2]'
  turn:
    - do: 'add("turns", 1)'
    - choose: go
      lookahead: true
      options:
        ask:
          when: 'counter("turns") == 1'
          do:
            - call: 'asks(counter("turns"))'
        stuck:
          when: 'counter("turns") == 2'
          do:
            - call: 'stuck()'
        count:
          when: 'counter("turns") == 3'
          do:
            - call: 'counts()'
      otherwise:
        - do: 'add("otherwise", 1)'
        - choose: after
          from: '[5, 6]'
    - if: 'counter("turns") >= 3'
      then:
        - do: 'end_game()'
"""


@pytest.fixture(scope="module")
def lone(tmp_path_factory):
    return variant_rules(tmp_path_factory.mktemp("lone"), LONE)


def _this_turn(g):
    return [(h[2], h[3], h[4]) for h in g.state.history if h[0] == g.state.turn]


@pytest.fixture
def probes(monkeypatch):
    yield count_probes(monkeypatch)
    lookahead._FEASIBLE.clear()


def test_a_lone_option_runs_on_for_real_to_the_decision(lone, probes):
    g = past_setup(nordlang.Game(lone, 1))
    p = g.state.pending
    assert p.step.name == "pick" and list(p.options) == [10, 11]
    assert _this_turn(g) == [("go", "ask", True)]
    assert p.vars == {"n": 1, "m": 10}
    assert probes == []                          # (no probe of 'ask' first)


def test_a_dead_end_undoes_the_run_and_takes_otherwise(lone, probes):
    g = past_setup(nordlang.Game(lone, 1))
    g.play_index(0)
    p = g.state.pending
    assert p.step.name == "after" and list(p.options) == [5, 6]
    assert _this_turn(g) == []                   # (the option taken at once is not in the history)
    assert "go" not in p.vars and len(g.state.frames) == 1
    assert counters(g) == {"turns": 2, "otherwise": 1}
    assert probes == []


def test_an_effect_before_the_decision_is_left_to_a_probe(lone, probes):
    g = past_setup(nordlang.Game(lone, 1))
    g.play_index(0)
    g.play_index(0)
    p = g.state.pending
    assert p.step.name == "pick2" and list(p.options) == [1, 2]
    assert _this_turn(g) == [("go", "count", True)]
    assert counters(g) == {"turns": 3, "otherwise": 1, "effects": 1}     # (once: on the position, after the probe)
    assert probes == [("go", "count")]


def test_the_same_games_as_with_a_probe_first(monkeypatch):
    rules = nordlang.load_rules(players=4)
    probes = count_probes(monkeypatch, lambda machine, step, value: step.name)
    games = [random_decisions(rules, seed) for seed in (3, 4)]
    lone_probes = probes.count("action")
    with monkeypatch.context() as m:
        m.setattr(flow.Machine, "_run_lone", lambda *a: None)
        lookahead._FEASIBLE.clear()
        del probes[:]
        probed = [random_decisions(rules, seed) for seed in (3, 4)]
    assert games == probed
    # the turn's first choice ('place' or 'challenge') is probed only when it has both options
    assert probes.count("action") > 100 and lone_probes < probes.count("action") / 10
    lookahead._FEASIBLE.clear()


def test_a_lone_option_whose_flow_runs_an_effect_first_is_probed_at_once(monkeypatch):
    rules = nordlang.load_rules(players=4)
    marks = {ins.step.name: ins.lone for code in compiled_flows(rules)[0].values() for ins in code
             if type(ins) is Choice and ins.step.lookahead}
    # the action calls the turn's flow, whose tile choice comes first; a tile's tests meet the
    # negotiation or the placement; a negotiation moves a warrior first
    assert marks == {"action": True, "play": True, "negotiate": False}
    runs = []
    record = lone_runs.record_choice

    def counted(state, who, name, text, forced):      # (a lone option taken at once, to run on)
        runs.append(name)
        return record(state, who, name, text, forced)
    monkeypatch.setattr(lone_runs, "record_choice", counted)
    lookahead._FEASIBLE.clear()
    for seed in range(6):
        random_decisions(rules, seed)
    assert {"action", "play"} <= set(runs) and "negotiate" not in runs
    with monkeypatch.context() as m:               # without the mark, a lone negotiation is run on, to no use
        for code in compiled_flows(rules)[0].values():
            for ins in code:
                if type(ins) is Choice:
                    m.setattr(ins, "lone", True)
        lookahead._FEASIBLE.clear()
        del runs[:]
        for seed in range(6):
            random_decisions(rules, seed)
    assert "negotiate" in runs
    lookahead._FEASIBLE.clear()

