"""A lookahead choice's options are listed once a position (options.py
_listing): the probes of the options before it that lead to it (two tiles
that both do) and the flow that then asks it do not list them again; a
listing that reads the flow's variables is made each time."""

import weakref

import pytest

import nordlang
from nordlang.engine import options


def _counted(monkeypatch, step, reads_flow):
    calls = []
    source = step.source

    def counted(ctx):
        calls.append(1)
        return source(ctx)
    counted.reads_flow = reads_flow
    monkeypatch.setattr(step, "source", counted)
    monkeypatch.setattr(options, "_LISTINGS", weakref.WeakKeyDictionary())
    return calls


@pytest.mark.parametrize("reads_flow, listed", [(False, 1), (True, 2)])
def test_a_lookahead_choices_options_are_listed_once_a_position(monkeypatch, reads_flow, listed):
    g = nordlang.Game(nordlang.load_rules("nord", 2), 1)
    step = next(s for s in g.rules.choice_steps() if s.lookahead and s.source is not None and not s.alternatives)
    calls = _counted(monkeypatch, step, reads_flow)
    first = g.machine.values(g.state, g.state.frames[-1], step)
    again = g.machine.values(g.state, g.state.frames[-1], step)
    assert first == again and len(calls) == listed
    g.state.touch("test")                          # (another position: listed anew)
    g.machine.values(g.state, g.state.frames[-1], step)
    assert len(calls) == listed + 1
