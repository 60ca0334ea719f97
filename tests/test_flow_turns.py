"""A turn that ends goes straight on to the next player's inside the flow
machine's loop (flow.py _run), also in rules that keep each turn's start
for at_turn_start: the snapshot is made there, as begin_turn makes it."""

import random

import nordlang
from nordlang.engine import flow


def test_turns_go_on_in_the_loop_with_the_turns_start_kept(monkeypatch):
    rules = nordlang.load_rules(players=4)
    assert rules.uses_turn_start
    begun = []
    begin = flow.Machine.begin_turn
    monkeypatch.setattr(flow.Machine, "begin_turn", lambda self, state, first=False, budget=None:
                        (begun.append(first), begin(self, state, first, budget))[1])
    g = nordlang.Game(rules, 4)
    rng = random.Random(4)
    starts = 0
    while not g.over:
        st = g.state
        if st.turn_start is not None and st.turn_start.turn == st.turn:
            start = st.turn_start
            assert start.player == st.player and start.frames == [] and start.pending is None
            starts += 1
        g.play_index(rng.randrange(len(st.pending.options)))
    assert begun == [True]                 # (only the first turn, after the setup)
    assert starts > 100


def test_a_decision_keeps_its_bindings_once_the_next_turn_begins():
    # (the turn's frame is used again for the next turn, with bindings of its own:
    # a choice asked in the last turn still shows the ones it was asked with)
    g = nordlang.Game(nordlang.load_rules("hex"), 1)
    frame = g.state.frames[-1]
    for i in (5, 7, 11):
        asked = g.state.pending
        turn = g.state.turn
        g.play_index(i)
        assert g.state.turn == turn + 1 and g.state.frames == [frame]      # (the same frame, a turn on)
        assert asked.vars == {"place": asked.options[i]}
        assert g.state.pending.vars == {} and g.state.pending.vars is frame.vars


def test_a_rulebooks_next_player_is_asked_in_the_loop_too(monkeypatch):
    # (Vikings names who moves next: its turns also go on inside the loop, the next
    # player asked of next_player there, with its check; begin_turn only starts the game)
    rules = nordlang.load_rules("vikings", 3)
    assert not rules.in_turn_order
    begun, asked = [], []
    begin, ask = flow.Machine.begin_turn, flow.Machine._next_player
    monkeypatch.setattr(flow.Machine, "begin_turn", lambda self, state, first=False, budget=None:
                        (begun.append(first), begin(self, state, first, budget))[1])
    monkeypatch.setattr(flow.Machine, "_next_player", lambda self, ctx: (asked.append(1), ask(self, ctx))[1])
    g = nordlang.Game(rules, 2)
    rng = random.Random(2)
    while not g.over:
        g.play_index(rng.randrange(len(g.state.pending.options)))
    assert begun == [True] and len(asked) == g.state.turn - 1 > 50
