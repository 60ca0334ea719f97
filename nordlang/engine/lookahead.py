"""Lookahead: whether the turn can go on after an option of a choice
marked `lookahead` (how "a tile is played only when a placement follows"
is said in data). A probe runs the flow on from the option until the
turn's next decision, on the position itself while it only reads, on a
light copy once it must change something; answers are kept by position
and bindings. A mixin of the flow's Machine (flow.py)."""

from __future__ import annotations

from .frames import _InPlace
from .program import DeadEnd, _Mutates

_FEASIBLE: dict = {}         # (choice, option, position, flow bindings) -> can the turn go on
_FEASIBLE_LIMIT = 2_000      # cleared when full: kept small for the garbage collector (see lang/memo.py _MEMO)


class Lookahead:
    """The Machine's probes (it gives `run` and `_bind_choice`)."""

    def _feasible(self, state, step, value, work=None) -> bool:
        """Can the turn go on after this option? (cached by position and bindings)"""
        fr = state.frames[-1]
        try:
            key = (step, value, state.version, tuple(fr.vars.items()), len(state.frames), fr.pc,
                   tuple(fr.loops.items()) if fr.loops else None)
            hit = _FEASIBLE.get(key)
        except TypeError:
            key, hit = None, None
        if hit is not None:
            return hit
        ok = self._probe(state, step, value, work)
        if key is not None:
            if len(_FEASIBLE) > _FEASIBLE_LIMIT:
                _FEASIBLE.clear()
            _FEASIBLE[key] = ok
        return ok

    def _probe(self, state, step, value, work=None) -> bool:
        """Run the turn on after this option until its next decision.

        Most probes only read, so a probe runs on the position itself with a
        copy of the top frame (the others are copied only if the probe gets
        back to them); one that reaches an effect starts again on a light
        copy of its own.
        """
        frames, pending, probing = state.frames, state.pending, state.probing
        p = _InPlace(frames[:-1])
        state.frames = frames[:-1] + [frames[-1].copy(p.memo)]
        state.pending = None
        state.probing = p
        try:
            self._bind_choice(state.frames[-1], step, value)
            self.run(state, probe=True, work=work)
            return True
        except DeadEnd:
            return False
        except _Mutates:
            pass
        finally:
            state.frames, state.pending, state.probing = frames, pending, probing
        probe = state.clone(light=True)
        probe.rng = state.rng.for_probe()        # (a probe must not use up a script of chance outcomes)
        fr = probe.frames[-1]
        self._bind_choice(fr, step, value)
        try:
            self.run(probe, probe=True, work=work)
        except DeadEnd:
            return False
        return True
