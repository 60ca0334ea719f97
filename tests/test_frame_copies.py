"""A copy of a state's frames and pending choice (frames.copied, what every
copy of a position makes): the frames and the choice that share variables
keep sharing one copy of them, a loop's state is the copy's own, and
nothing of the copy is the original's but what never changes (programs,
options)."""

import nordlang
from nordlang.engine.frames import Frame, Pending, copied


def _frame(code, pc, vars, loops):
    f = Frame(code, vars)
    f.pc, f.loops = pc, loops
    return f


def test_shared_variables_are_copied_once_and_loops_apart():
    shared, other = {"a": 1}, {"b": [2]}
    frames = [_frame(("c0",), 3, other, {0: (1, 2)}), _frame(("c1",), 1, shared, None),
              _frame(("c2",), 0, shared, {})]
    pending = Pending("step", ("x", "y"), None, shared, 2, str)
    out, p = copied(frames, pending)
    assert [(f.code, f.pc, f.vars, f.loops) for f in out] == [
        (("c0",), 3, {"b": [2]}, {0: (1, 2)}), (("c1",), 1, {"a": 1}, None), (("c2",), 0, {"a": 1}, None)]
    assert out[1].vars is out[2].vars is p.vars and p.vars is not shared
    assert out[0].vars is not other and out[0].loops is not frames[0].loops
    assert all(c is not f for c, f in zip(out, frames))
    assert (p.step, p.options, p._texts, p.player, p.show) == ("step", ("x", "y"), None, 2, str)
    out[1].vars["a"] = 5
    out[0].loops[0] = None
    assert shared == {"a": 1} and frames[0].loops == {0: (1, 2)}


def test_a_pending_choice_of_its_own_variables_and_none():
    out, p = copied([_frame(("c",), 0, {"a": 1}, None)], Pending("s", (1,), None, {"z": 0}, 0))
    assert p.vars == {"z": 0} and p.vars is not out[0].vars
    assert copied([], None) == ([], None)


def test_a_state_copy_plays_on_as_the_state():
    rules = nordlang.load_rules("vikings", 3)
    g = nordlang.Game(rules, 4)
    for k in range(12):
        c = g.clone()
        assert c.state.pending.vars is c.state.frames[-1].vars or g.state.pending.vars is not g.state.frames[-1].vars
        c.play_index(k % len(c.legal_moves()))
        g.play_index(k % len(g.legal_moves()))
        assert c.legal_moves() == g.legal_moves() and c.state.version == g.state.version
