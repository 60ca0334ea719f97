"""Lookahead: whether the turn can go on after an option of a choice
marked `lookahead` (how "a tile is played only when a placement follows"
is said in data). A probe runs the flow on from the option until the
turn's next decision, on the position itself while it only reads, on a
light copy once it must change something; answers are kept by position
and bindings. A mixin of the flow's Machine (flow.py)."""

from __future__ import annotations

from ..lang.compiler import Ctx
from .frames import _InPlace
from .program import DeadEnd, _Mutates

_FEASIBLE: dict = {}         # (choice, option, position, flow bindings) -> can the turn go on
_FEASIBLE_LIMIT = 2_000      # cleared when full: kept small for the garbage collector (see lang/memo.py _MEMO)


class Lookahead:
    """The Machine's probes (it gives `_run` and `_bind_choice`)."""

    def _feasible(self, state, step, value, ctx=None) -> bool:
        """Can the turn go on after this option? (cached by position and bindings)"""
        fr = state.frames[-1]
        loops = fr.loops
        try:
            key = (step, value, state.version, tuple(fr.vars.items()), len(state.frames), fr.pc,
                   tuple(loops.items()) if loops else None)
            hit = _FEASIBLE.get(key)
        except TypeError:
            key, hit = None, None
        if hit is not None:
            return hit
        ok = self._probe(state, step, value, ctx)
        if key is not None:
            if len(_FEASIBLE) > _FEASIBLE_LIMIT:
                _FEASIBLE.clear()
            _FEASIBLE[key] = ok
        return ok

    def _probe(self, state, step, value, ctx=None) -> bool:
        """Run the turn on after this option until its next decision.

        Most probes only read, so a probe runs on the position itself with a
        copy of the top frame (the others are copied only if the probe gets
        back to them); one that reaches an effect starts again on a light
        copy of its own. It runs in `ctx`, the context of the run that asks
        (so it draws on that run's budget of work), which is given back as
        it was; without one, in a context of its own.
        """
        if ctx is None:
            ctx = Ctx(state, self.rules)
        frames, pending, probing, vars_ = state.frames, state.pending, state.probing, ctx.vars
        p = _InPlace(frames)
        top = frames[-1].copy(p.memo)
        state.frames = frames[:-1]
        state.frames.append(top)
        state.pending = None
        state.probing = p
        try:
            self._bind_choice(top, step, value)
            self._run(state, True, False, ctx.budget, ctx)
            return True
        except DeadEnd:
            return False
        except _Mutates:
            pass
        finally:
            state.frames, state.pending, state.probing, ctx.vars = frames, pending, probing, vars_
        probe = state.clone(light=True)
        probe.rng = state.rng.for_probe()        # (a probe must not use up a script of chance outcomes)
        self._bind_choice(probe.frames[-1], step, value)
        ctx.state = probe
        try:
            self._run(probe, True, False, ctx.budget, ctx)
        except DeadEnd:
            return False
        finally:
            ctx.state, ctx.vars = state, vars_
        return True
