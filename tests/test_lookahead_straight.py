"""A lookahead option's plain scan (lookahead.py _straight) is tried only
where the program shows that the flow after it may reach a choice that
answers through tests, bindings and jumps alone (program.py
_answers_straight): not where every way goes through a call or an effect."""


from helpers import count_probes, random_decisions

import nordlang
from nordlang.engine import lookahead
from nordlang.engine.program import Choice, compiled_flows


def _lookahead_choices(rules) -> dict:
    return {ins.step.name: ins for code in compiled_flows(rules)[0].values() for ins in code
            if type(ins) is Choice and ins.step.lookahead}


def test_which_options_may_be_answered_straight():
    marks = {name: ins.straight for name, ins in _lookahead_choices(nordlang.load_rules(players=4)).items()}
    # the action's options call a flow; the negotiation runs an effect next; a tile goes on to
    # tests and the placement, which answers
    assert marks == {"action": frozenset(), "negotiate": False, "play": True}


def test_no_plain_scan_where_none_can_answer_and_the_same_options(monkeypatch):
    rules = nordlang.load_rules(players=4)
    asked = []
    straight = lookahead.Lookahead._straight

    def counted(self, state, fr, step, value, ctx):
        asked.append(step.name)
        return straight(self, state, fr, step, value, ctx)
    monkeypatch.setattr(lookahead.Lookahead, "_straight", counted)
    lookahead._FEASIBLE.clear()
    marked = [random_decisions(rules, seed) for seed in (3, 4)]
    assert set(asked) == {"play"}
    assert asked.count("play") > 50
    marks = _lookahead_choices(rules)
    with monkeypatch.context() as m:               # every option scanned first, as before the marks
        for ins in marks.values():
            m.setattr(ins, "straight", True)
        lookahead._FEASIBLE.clear()
        del asked[:]
        every = [random_decisions(rules, seed) for seed in (3, 4)]
    assert {"action", "negotiate"} <= set(asked)
    assert marked == every
    lookahead._FEASIBLE.clear()


def test_a_probe_goes_on_from_where_the_plain_scan_stopped(monkeypatch):
    rules = nordlang.load_rules(players=4)

    def resumed_at(machine, step, value):       # (None: a probe from its option)
        if machine._scanned is not None:
            code, pc, bindings = machine._scanned[-1]
            return step.name, type(code[pc]).__name__, code[pc].step.name, bindings[step.name] == value
        return None
    probes = count_probes(monkeypatch, resumed_at)
    games = [random_decisions(rules, seed) for seed in (3, 4)]
    resumed = [r for r in probes if r is not None]
    # a negotiator tile's tests ran in the scan: its probe starts at the negotiation, the tile bound
    assert len(resumed) > 20 and set(resumed) == {("play", "Choice", "negotiate", True)}
    with monkeypatch.context() as m:               # each probe from its option, as before
        straight = lookahead.Lookahead._straight

        def from_the_option(self, *a):
            ok = straight(self, *a)
            return None if type(ok) is list else ok
        m.setattr(lookahead.Lookahead, "_straight", from_the_option)
        lookahead._FEASIBLE.clear()
        del probes[:]
        again = [random_decisions(rules, seed) for seed in (3, 4)]
    assert probes and all(r is None for r in probes) and games == again
    lookahead._FEASIBLE.clear()
