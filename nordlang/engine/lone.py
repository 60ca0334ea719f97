"""A lookahead choice with one option, outside a probe: taken at once and
run on for real, as the choice would be if it were forced, rather than
probed first and then run again (a mixin of the flow's Machine, through
lookahead.py's Lookahead). Whatever the run did is undone if it meets a
dead end or must change the position before the next decision."""

from __future__ import annotations

from ..errors import RulesError
from .frames import option_text, record_choice
from .program import DeadEnd, _Mutates


class _Lone:
    """`state.probing` while a lone option runs on for real (LoneOption._run_lone):
    an effect, a chance event or secret choices end that run (flow.py raises
    _Mutates), and so does a frame at or below the choice's own, on top again
    (flow.py _resume asks `is_own` of it)."""

    __slots__ = ("frames", "depth")

    def __init__(self, frames):
        self.frames, self.depth = frames, len(frames)

    def is_own(self, frame) -> bool:
        if len(self.frames) <= self.depth:
            raise _Mutates()
        return False                             # (a frame of the run's own)


class LoneOption:
    """The Machine's lone options (it gives `_run`, `_bind_choice`, `_decider`, `check_seen`)."""

    def _run_lone(self, state, fr, ins, value, ctx):
        """A lookahead choice with one option (outside a probe): whether the
        turn goes on after it is found by taking it at once, as a forced
        choice, and running on for real, not by a probe first and the same
        flow again after it (a turn's first choice that calls the turn's
        flow, mostly). True: the run reached a decision, which is pending;
        False: a dead end (the choice has no option); None when the run
        could not tell without changing the position (an effect, a chance
        event, secret choices, the end of the choice's flow): then all it
        did is undone and the option is probed. What it runs before it
        stops is what the probe would run and then the real flow again:
        tests, bindings, calls and choices, which read the position only.
        Not tried where the program shows an effect comes first (program.py
        Choice.lone), nor where a scenario asks forced choices or probes
        check 'exists' hints."""
        if not ins.lone or self.ask_forced or self.check_hints:
            return None
        step = ins.step
        frames, history, events = state.frames, state.history, state.events
        depth, pc, vars_, loops = len(frames), fr.pc, fr.vars.copy(), fr.loops
        at = len(history), len(events), state.hidden_moves, dict(loops) if loops else None
        try:
            who = state.player if step.by is None else self._decider(step, ctx)
        except RulesError:
            return None                          # (its error only if the option can be taken, after a probe)
        self._bind_choice(fr, step, value)
        record_choice(state, who, step.name, option_text(step, value, self.rules.show), True)
        outer, state.probing = state.probing, _Lone(frames)     # (outer: a lone option's run this one is in)
        try:
            self._run(state, False, True, ctx.budget, ctx)
            if state.pending is not None:
                if ins.check_seen:              # (the option can be taken: asked of it as of a forced one)
                    self.check_seen(state, step, [value], who)
                return True
            answer = None                        # (the flows ended: the probe tells what comes after)
        except DeadEnd:
            answer = False
        except _Mutates:
            answer = None
        finally:
            state.probing = outer
        frames[depth - 1:] = [fr]
        fr.pc, fr.loops = pc, at[3]
        fr.vars.clear()
        fr.vars.update(vars_)
        del history[at[0]:], events[at[1]:]
        state.hidden_moves, state.pending, ctx.vars = at[2], None, fr.vars
        return answer
