"""Copies of a state: a light copy (lookahead probes) shares the zones until
it is unshared, and a change to either side never shows on the other."""

import random

import pytest
from helpers import mid_game, past_setup

import nordlang


def _mid_game(players=3, seed=4, moves=30):
    return mid_game(players, seed, moves)


def _picture(st):
    return ({k: dict(v) for k, v in st.pools.items() if v}, {k: list(v) for k, v in st.decks.items()},
            {k: list(v) for k, v in st.tracks.items()}, dict(st.counters), dict(st.occupied), st.rng.state,
            st.version)


@pytest.mark.parametrize("light", [False, True])
def test_changes_to_a_copy_leave_the_original_alone(light):
    rules, g = _mid_game()
    st = g.state
    before = _picture(st)
    cp = st.clone(light=light)
    assert cp.shared is light
    if light:
        assert cp.pools is st.pools and cp.occupied is st.occupied    # shared until unshared
        cp.unshare()                  # (the flow machine does this before it runs an effect)
    space = next(s for s in rules.grid.spaces if s not in st.occupied and s not in rules.grid.structure_at)
    piece = next(k for k in st.pools[("supply", 0)])
    cp.remove(("supply", 0), piece)
    cp.add(space, piece)                          # a linking piece: occupancy and links change too
    cp.bump(("points", 0), 5)
    cp.rng.next64()
    assert _picture(st) == before
    assert space in cp.occupied and space not in st.occupied
    assert cp.links.connected(space, space) and space not in st.links.comp


def test_changes_to_the_original_leave_a_copy_alone():
    rules, g = _mid_game()
    cp = g.state.clone()
    before = _picture(cp)
    rng = random.Random(9)
    while not g.over:
        g.play_index(rng.randrange(len(g.state.pending.options)))
    assert _picture(cp) == before


def test_probes_leave_the_position_as_it_was():
    """Every decision lists its options through probes that play ahead; the
    position and its version after listing equal those before."""
    rules, g = _mid_game(players=4, seed=11, moves=0)
    rng = random.Random(3)
    m = g.machine
    checked = 0
    while not g.over and checked < 120:
        st = g.state
        before = _picture(st)
        flow = [(f, f.pc, dict(f.vars)) for f in st.frames], st.pending
        fr = st.frames[-1]
        step = st.pending.step
        vals = m.values(st, fr, step)
        if step.lookahead:
            [m._probe(st, step, v) for v in vals]
        assert _picture(st) == before
        # probes run on the position itself: its flow (frames, pending choice) is back as it was
        assert [(f, f.pc, dict(f.vars)) for f in st.frames] == flow[0] and st.pending is flow[1]
        assert not st.probing
        checked += 1
        g.play_index(rng.randrange(len(st.pending.options)))
    assert checked == 120


NESTED_LOOKAHEAD = """\
description: a lookahead choice that ends its flow, then a choice in the flow that called it
extends: nord
patch:
  flows:
    pick():
      - choose: first
        from: '[1, 2]'
        lookahead: true
  turn:
    - call: 'pick()'
    - choose: second
      from: '[3, 4]'
    - do: 'end_game()'
"""


def test_a_probe_that_returns_to_the_calling_flow_leaves_its_frame_alone(tmp_path):
    """Probing `first` finishes the called flow and runs on in its caller:
    the caller's frame is the position's own, and must be as it was."""
    v = tmp_path / "nested.yaml"
    v.write_text(NESTED_LOOKAHEAD)
    rules = nordlang.load_rules(players=2, variants=[str(v)])
    g = past_setup(nordlang.Game(rules, 1))
    st = g.state
    assert st.pending.step.name == "first" and list(st.pending.options) == [1, 2]
    flow = [(f, f.pc, dict(f.vars)) for f in st.frames]
    m = g.machine
    assert all(m._probe(st, st.pending.step, v) for v in (1, 2))
    assert [(f, f.pc, dict(f.vars)) for f in st.frames] == flow
    g.play_index(0)
    assert g.state.pending.step.name == "second"


@pytest.mark.parametrize("agent", ["random", "greedy"])
def test_a_game_leaves_nothing_for_the_cycle_collector(agent):
    """Everything a game stops using is freed at once by reference counting:
    no probe copy, copy a greedy agent looks ahead on, or path search leaves
    a reference cycle behind (each would wait for the cycle collector,
    whose passes cost a random game about 8% and a greedy one 13%)."""
    import gc

    from nordlang.agents.base import make_agents
    from nordlang.sim.runner import play_out
    rules = nordlang.load_rules(players=4 if agent == "random" else 2)
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for seed in (100, 101):
            g = nordlang.Game(rules, seed)
            play_out(g, make_agents([agent], rules.num_players, seed))
        del g
        gc.collect()
        # (objects of this package only: other tests' libraries may free cycles of their own meanwhile)
        left = [type(o).__name__ for o in gc.garbage
                if (getattr(o, "__module__", None) or type(o).__module__ or "").startswith("nordlang")]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert left == []
