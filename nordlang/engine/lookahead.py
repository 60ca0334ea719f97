"""Lookahead: whether the turn can go on after an option of a choice
marked `lookahead` (how "a tile is played only when a placement follows"
is said in data). A probe runs the flow on from the option until the
turn's next decision, on the position itself while it only reads, on a
light copy once it must change something; answers are kept by position
and bindings. A mixin of the flow's Machine (flow.py).

A probe that meets a lookahead choice of its own asks only whether one of
its options lets the turn go on: it goes on with the first option not
known to lead nowhere, in the same run (no probe within the probe). How
the run ends answers for that option too: reaching the next decision,
every option it went on with can go on; a dead end, the last one cannot,
and the probe runs again from its start, on to the next option."""

from __future__ import annotations

from ..lang.compiler import Ctx
from .frames import Frame, Pending, _InPlace
from .program import Branch, Choice, DeadEnd, Jump, Let, _Mutates

_FEASIBLE: dict = {}         # (choice, option, position, flow bindings) -> can the turn go on
_FEASIBLE_LIMIT = 2_000      # cleared when full: kept small for the garbage collector (see lang/memo.py _MEMO)


def feasible_key(state, step, value):
    """The key of an option's answer: the choice, the option, the position
    and where the flow is (its top frame's bindings, depth, place, loops);
    None when a binding cannot be a key."""
    fr = state.frames[-1]
    loops = fr.loops
    key = (step, value, state.version, tuple(fr.vars.items()), len(state.frames), fr.pc,
           tuple(loops.items()) if loops else None)
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _keep(key, ok) -> None:
    if len(_FEASIBLE) > _FEASIBLE_LIMIT:
        _FEASIBLE.clear()
    _FEASIBLE[key] = ok


class Lookahead:
    """The Machine's probes (it gives `_run` and `_bind_choice`)."""

    _went_on = None     # in a probe: the keys of the options it went on with, in order
    _learnt = None      # in a probe: the answers it learnt (kept while it runs, whatever _FEASIBLE keeps)

    def _feasible(self, state, step, value, ctx=None) -> bool:
        """Can the turn go on after this option? (cached by position and bindings)"""
        key = feasible_key(state, step, value)
        if key is not None:
            hit = _FEASIBLE.get(key)
            if hit is not None:
                return hit
        ok = self._probe(state, step, value, ctx)
        if key is not None:
            _keep(key, ok)
        return ok

    def _probe(self, state, step, value, ctx=None) -> bool:
        """Run the turn on after this option until its next decision.

        Most probes only read, so a probe runs on the position itself with a
        copy of the top frame (the others are copied only if the probe gets
        back to them); one that reaches an effect goes on from there on a
        light copy of its own. It runs in `ctx`, the context of the run
        that asks (so it draws on that run's budget of work), which is given
        back as it was; without one, in a context of its own.
        """
        if ctx is None:
            ctx = Ctx(state, self.rules)
        outer = self._went_on, self._learnt
        self._learnt = {}
        try:
            while True:
                self._went_on = went_on = []
                try:
                    self._run_probe(state, step, value, ctx)
                except DeadEnd:
                    if not went_on:
                        return False
                    self._learn(went_on[-1], False)   # (the last option it went on with led here)
                    continue
                for key in went_on:
                    self._learn(key, True)
                return True
        finally:
            self._went_on, self._learnt = outer

    def _run_probe(self, state, step, value, ctx) -> None:
        """One run of a probe, to the next decision (DeadEnd at a dead end).

        The flow after the option runs first in `_scan`, on a copy of the
        top frame's bindings and nothing else, while it only tests, binds
        and reaches a choice (most probes end so); from the first step that
        needs more, on the machine, from where the scan stopped."""
        frames, pending, probing, vars_ = state.frames, state.pending, state.probing, ctx.vars
        fr = frames[-1]
        bindings = dict(fr.vars)
        bindings[step.name] = value
        pc = fr.code[fr.pc - 1].targets[value] if step.alternatives else fr.pc    # (as _bind_choice)
        try:
            pc = self._scan(state, fr.code, pc, bindings, ctx)
        finally:
            ctx.vars = vars_
        if pc < 0:
            return
        p = _InPlace(frames)
        p.memo[id(fr.vars)] = bindings           # (as Frame.copy: the copy of these bindings)
        state.frames = frames[:-1]
        state.frames.append(Frame.resumed(fr.code, pc, bindings, fr.loops))
        state.pending = None
        state.probing = p
        try:
            self._run(state, True, False, ctx.budget, ctx)
            return
        except _Mutates:
            # an effect, which the position must not see: on from it on a light copy
            state.probing = False
            probe = state.clone(light=True)
        finally:
            state.frames, state.pending, state.probing, ctx.vars = frames, pending, probing, vars_
        probe.rng = state.rng.for_probe()        # (a probe must not use up a script of chance outcomes)
        ctx.state = probe
        try:
            self._run(probe, True, False, ctx.budget, ctx)
        finally:
            ctx.state, ctx.vars = state, vars_

    def _scan(self, state, code, pc, bindings, ctx) -> int:
        """Run a probe's flow from pc while it only tests (if), binds (let)
        and jumps, up to a choice that is not a lookahead one: -1 when the
        turn goes on there (the choice has an option, by its 'exists' test
        or its options), DeadEnd when it does not; else the pc of the first
        step the machine must run (an effect, a loop, a call, a lookahead or
        secret choice, the flow's end). What it runs is what the machine
        would run in a probe (flow.py _run and _choose), without a frame."""
        ctx.vars = bindings
        n = len(code)
        while pc < n:
            ins = code[pc]
            t = type(ins)
            if t is Branch:
                pc = pc + 1 if ins.cond(ctx) else ins.to
            elif t is Jump:
                pc = ins.to
            elif t is Let:
                bindings[ins.name] = ins.expr(ctx)
                pc += 1
            elif t is Choice:
                step = ins.step
                if step.lookahead or step.simultaneous is not None or self.check_hints:
                    return pc
                if step.exists is not None and step.otherwise is None:
                    if step.exists(ctx):
                        return -1
                    raise DeadEnd(step)
                if self.values(state, None, step, ctx):
                    return -1
                if ins.otherwise is None:
                    raise DeadEnd(step)
                pc = ins.otherwise
            else:
                return pc
        return pc

    def _learn(self, key, ok) -> None:
        self._learnt[key] = ok
        _keep(key, ok)

    def _go_on(self, state, fr, step, value, ctx) -> bool:
        """In a probe, at a lookahead choice: go on with this option unless it
        is known to lead nowhere (True: bound, or known to go on and so
        pending; False: known not to)."""
        key = feasible_key(state, step, value)
        if key is None:                          # (no key to learn its answer by: a probe of its own)
            ok = self._probe(state, step, value, ctx)
            if ok:
                state.pending = Pending(step, [value], None, fr.vars, state.player)
            return ok
        hit = self._learnt.get(key)
        if hit is None:
            hit = _FEASIBLE.get(key)
        if hit is False:
            return False
        if hit:
            state.pending = Pending(step, [value], None, fr.vars, state.player)
            return True
        self._went_on.append(key)
        self._bind_choice(fr, step, value)
        return True
