"""The flow machine's cheaper paths give the answers of the plain ones: the
check that no option shows an unseen item skips only what cannot be an
item; a lookahead choice's answers are kept under the keys every probe
looks them up by; a machine's programs are made once per rulebook."""

import pytest
from helpers import counters, past_setup, variant_rules

import nordlang
from nordlang.engine import flow, lookahead
from nordlang.engine.flow import Choice, Machine, programs
from nordlang.engine.lookahead import feasible_key
from nordlang.engine.views import unseen_option

HIDDEN = """\
game: {name: Hidden, description: "a card only blue sees"}
players: {min: 2, max: 2, default: 2, colors: [red, blue]}
pieces:
  card: {tags: [1, 2, 3]}
zones:
  hand: {type: pool, per_player: true, visible: owner}
define:
  theirs: 'items(hand(1 - player))'     # (read through a definition: the load's check does not see it)
setup:
  - do: 'for p in players { create(card(1), hand(p)) } create(card(3), hand(1))'
turn:
  - choose: x
    from: '%s'
  - do: 'end_game()'
result:
  rank: ['points(p)']
"""


def _hidden(tmp_path, source):
    f = tmp_path / "hidden.yaml"
    f.write_text(HIDDEN % source, encoding="utf-8")
    return f


def test_an_unseen_item_among_sets_numbers_and_labels_is_found(tmp_path):
    g = nordlang.Game(nordlang.load_rules(str(_hidden(tmp_path, "[1, 2]"))), 1)
    st, theirs, mine = g.state, ("card", 3), ("card", 1)
    assert unseen_option(st, [frozenset({1}), "a", 5, None, theirs], 0) == theirs
    assert unseen_option(st, [frozenset({1}), "a", 5, None], 0) is None
    assert unseen_option(st, [frozenset({theirs}), (1, 2, 3), mine], 0) is None   # (a set or a triple is no item)
    assert unseen_option(st, [mine, theirs], 1) is None          # (blue sees both)


def test_a_game_that_offers_an_unseen_item_among_sets_stops_with_the_rule(tmp_path):
    f = _hidden(tmp_path, "[set([1]), 2] + theirs")
    try:
        nordlang.load(str(f))
    except nordlang.NordError as e:
        assert "an item red cannot see" in str(e) and "choice 'x'" in str(e), str(e)
    else:
        raise AssertionError("the unseen card was offered")


MANY_SETS = "[set([i]) for i in range(12)]"


def test_a_long_list_of_sets_passes_the_check_at_c_speed(tmp_path):
    """(Options.check_seen: a long list with no tuple holds no item)"""
    g = nordlang.load(str(_hidden(tmp_path, MANY_SETS)))
    assert len(g.state.pending.options) == 12


@pytest.mark.parametrize("source", [MANY_SETS + " + theirs", "theirs + " + MANY_SETS,
                                    MANY_SETS + " + [(1, 2, 3)] + theirs"])
def test_an_unseen_item_among_many_options_stops_with_the_rule(tmp_path, source):
    with pytest.raises(nordlang.NordError, match="an item red cannot see"):
        nordlang.load(str(_hidden(tmp_path, source)))


def test_only_choices_from_a_source_in_rules_that_hide_are_checked_for_unseen_items():
    nord = {ins.step.name: ins.check_seen for code in programs(nordlang.load_rules(players=4)).values()
            for ins in code if type(ins) is Choice}
    assert nord["action"] is False                   # (its options are labels)
    assert nord["play"] is True and nord["place"] is True and nord["attack"] is True
    ttt = {ins.check_seen for code in programs(nordlang.load_rules("tictactoe")).values()
           for ins in code if type(ins) is Choice}
    assert ttt == {False}                            # (nothing is hidden)


def test_a_lookahead_choices_answers_are_kept_under_the_keys_probes_look_up():
    """The answers of all the options, worked out together, are those of a
    probe each, kept under each option's feasible_key."""
    rules = nordlang.load_rules(players=4)
    g = past_setup(nordlang.Game(rules, 3))
    m, st = g.machine, g.state
    while st.pending.step.name != "play" or len(st.pending.options) < 3:
        g.play_index(len(st.pending.options) - 1)
    step = st.pending.step
    vals = m.values(st, st.frames[-1], step)
    assert len(vals) >= 4 and vals[0] is None            # ('none', then the tiles in hand)
    lookahead._FEASIBLE.clear()
    kept = m._feasible_options(st, step, vals, None)
    assert kept == [v for v in vals if m._probe(st, step, v)] == list(st.pending.options)
    assert {v: lookahead._FEASIBLE.get(feasible_key(st, step, v)) for v in vals} == \
        {v: v in kept for v in vals}


def test_machines_of_one_rulebook_share_its_programs_and_calls():
    rules = nordlang.load_rules(players=2)
    a, b = Machine(rules), Machine(rules)
    assert a.programs is b.programs and a.calls is b.calls
    assert set(a.calls) == set(rules.procs)
    assert a.calls["turn_a"] == (a.programs["turn_a"], rules.procs["turn_a"].params)


# The turn goes on after 'pick' n exactly when n > 1 ('fin' has an option
# then); the flow after it reaches an effect before it reaches 'fin'.
TO_AN_EFFECT = """\
description: the flow after a lookahead option reaches an effect before the next choice
extends: nord
patch:
  turn:
    - choose: pick
      from: '[1, 2, 3]'
      lookahead: true
    - let: {twice: 'pick * 2'}
    - do: 'add("effects", 1)'
    - choose: fin
      from: '[x for x in [twice] if x > 2]'
    - do: 'end_game()'
"""


def test_a_probe_the_scan_brings_to_an_effect_runs_on_a_copy_at_once(tmp_path, monkeypatch):
    """No run on the position itself that could only stop at the effect:
    each probe runs once, on a light copy, and the position never sees the
    effect."""
    rules = variant_rules(tmp_path, TO_AN_EFFECT)
    runs = []
    run = flow.Machine._run

    def counted(self, state, probe, stop, work, ctx):
        if probe:
            runs.append("in place" if state.probing else "on a copy")
        return run(self, state, probe, stop, work, ctx)
    monkeypatch.setattr(flow.Machine, "_run", counted)
    lookahead._FEASIBLE.clear()
    g = past_setup(nordlang.Game(rules, 1))
    assert g.state.pending.step.name == "pick" and list(g.state.pending.options) == [2, 3]
    assert runs == ["on a copy"] * 3
    assert counters(g) == {}
