"""Lookahead probes: a probe that meets a lookahead choice of its own goes
on with its options in turn in one run (a dead end answers for the last
option it went on with, and the probe runs again); the flow after an
option that only tests and binds is run without the machine's frames; an
effect met on the way is run on a light copy, never on the position."""


import pytest
from helpers import count_probes, counters, past_setup, random_decisions, variant_rules

import nordlang
from nordlang.engine import flow, lookahead

# The turn goes on after (outer n, mid m) exactly when n + m >= 4 ('fin' has
# an option then): with m in 1..3, n = 1 only through m = 3 (two dead ends
# first), n = 0 never. Each probe that gets past 'mid' meets an effect.
NESTED = """\
description: a lookahead choice inside a lookahead choice's option, and an effect a probe meets
extends: nord
patch:
  flows:
    inner(n):
      - choose: mid
        from: '[1, 2, 3]'
        lookahead: true
      - let: {s: 'n + mid'}
      - do: 'add("effects", 1)'
      - choose: fin
        from: '[x for x in [s, s + 10] if s >= 4]'
  turn:
    - choose: outer
      lookahead: true
      options:
        a:
          do:
            - call: 'inner(1)'
        b:
          do:
            - call: 'inner(2)'
        c:
          do:
            - call: 'inner(0)'
        d:
          do:
            - call: 'inner(3)'
    - do: 'end_game()'
"""


@pytest.fixture(scope="module")
def nested(tmp_path_factory):
    return variant_rules(tmp_path_factory.mktemp("probes"), NESTED)


def test_a_nested_lookahead_choice_is_answered_within_one_probe(nested, monkeypatch):
    probes = count_probes(monkeypatch)
    g = past_setup(nordlang.Game(nested, 1))
    p = g.state.pending
    assert p.step.name == "outer" and list(p.options) == ["a", "b", "d"]
    # one probe per option of the choice asked: none for 'mid', met inside them
    assert probes == [("outer", "a"), ("outer", "b"), ("outer", "c"), ("outer", "d")]
    assert counters(g) == {}                    # (the probes' effects ran on copies)
    g.play_index(0)
    # after 'a', 'mid' keeps only 3: taken at once, with the answers the probe learnt
    p = g.state.pending
    assert p.step.name == "fin" and list(p.options) == [4, 14]
    assert probes[4:] == []
    assert counters(g) == {"effects": 1}
    assert [(h[2], h[3], h[4]) for h in g.state.history if h[0] == g.state.turn] == \
        [("outer", "a", False), ("mid", "3", True)]


def test_options_are_the_same_with_every_answer_forgotten(nested, monkeypatch):
    """Answers learnt inside a probe only spare work: with the cache
    emptied before each answer is looked up, the options are the same."""
    monkeypatch.setattr(lookahead, "_FEASIBLE_LIMIT", -1)    # (each store empties it first)
    g = past_setup(nordlang.Game(nested, 1))
    assert list(g.state.pending.options) == ["a", "b", "d"]
    g.play_index(1)
    assert g.state.pending.step.name == "mid" and list(g.state.pending.options) == [2, 3]


SCANNED = """\
description: the flow after a lookahead option tests, binds and reaches choices with and without an exists test
extends: nord
patch:
  turn:
    - choose: pick
      from: '[1, 2, 3, 4, 5, 6]'
      lookahead: true
    - let: {twice: 'pick * 2'}
    - if: 'twice == 4'
      then:
        - choose: never
          from: '[]'
    - choose: maybe
      from: '[x for x in [twice] if x < 9]'
      otherwise:
        - choose: last
          from: '[t for t in [twice, twice + 1] if twice > 9 and twice < 11]'
          exists: 'twice > 9 and twice < 11'
    - do: 'end_game()'
"""


def test_a_probe_that_only_tests_and_binds_runs_no_frame(tmp_path, monkeypatch):
    rules = variant_rules(tmp_path, SCANNED)
    runs = []
    run = flow.Machine._run

    def counted(self, state, probe, stop, work, ctx):
        runs.append(probe)
        return run(self, state, probe, stop, work, ctx)
    monkeypatch.setattr(flow.Machine, "_run", counted)
    lookahead._FEASIBLE.clear()
    g = past_setup(nordlang.Game(rules, 1))
    # 2 meets 'never' (no option); 5 gives 10: no 'maybe', and 'last' has options; 6 gives 12:
    # neither has; 4 gives 8: 'maybe' has one; 3 and 1 too
    assert g.state.pending.step.name == "pick" and list(g.state.pending.options) == [1, 3, 4, 5]
    assert True not in runs                      # (no probe ran on the machine)
    g.play_index(3)
    assert g.state.pending.step.name == "last" and list(g.state.pending.options) == [10, 11]


def test_scanned_and_machine_probes_agree(tmp_path, monkeypatch):
    """The same options when every probe runs on the machine from its first step."""
    rules = variant_rules(tmp_path, SCANNED)
    monkeypatch.setattr(lookahead.Lookahead, "_scan", lambda self, state, fr, flows, ctx, plain=False: False)
    lookahead._FEASIBLE.clear()
    g = past_setup(nordlang.Game(rules, 1))
    assert list(g.state.pending.options) == [1, 3, 4, 5]
    lookahead._FEASIBLE.clear()



@pytest.mark.parametrize("players", [2, 4])
def test_random_nord_games_offer_the_same_options_with_probes_on_the_machine_alone(players, monkeypatch):
    """Every decision of random games, with every probe run on the machine
    from its first step (no scan) and no answer kept between look-ups, offers
    the same options in the same order as with the scan and the cache."""
    rules = nordlang.load_rules(players=players)
    lookahead._FEASIBLE.clear()
    fast = [random_decisions(rules, seed) for seed in (3, 4)]
    with monkeypatch.context() as m:
        m.setattr(lookahead.Lookahead, "_scan", lambda self, state, fr, flows, ctx, plain=False: False)
        m.setattr(lookahead, "_FEASIBLE_LIMIT", -1)
        plain = [random_decisions(rules, seed) for seed in (3, 4)]
    assert fast == plain
    assert sum(len(d) for d in fast) > 150             # (178 decisions in all at 2 players, 348 at 4)
