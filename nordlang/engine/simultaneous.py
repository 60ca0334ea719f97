"""Secret simultaneous choices: several players choose at once, unseen.

A `choose` step with `simultaneous: 'p in players'` is asked of each
listed player in turn order (OpenSpiel's turn-based form of a simultaneous
move): each sees the position but none of the others' answers. The moves
are kept in the history marked hidden (`state.hidden_moves`, by index), so
a seat's log, a view and an agent's sample leave them out. When the last
player has answered, the choice's name is bound to a table player ->
option; `reveal: all` then shows every answer to everyone (a "reveal"
event), `reveal: none` leaves it to the rules' effects to say what becomes
known.

The step's progress lives in the frame's variables under a key no rule
can write, so copies of a position (search, lookahead) carry it.
"""

from __future__ import annotations

from ..errors import RulesError
from ..lang.builtins import ordered
from .frames import Pending, record_choice
from .program import DeadEnd


def progress_key(step) -> str:
    return "\x00" + step.name          # (no nordlang name starts with NUL)


class SecretChoices:
    """Asks and records a simultaneous step's choices (a part of the Machine,
    which it is handed: it keeps no reference back, so a game is freed at once)."""

    def __init__(self, rules):
        self.rules = rules

    def ask(self, m, state, fr, step, probe, ctx) -> None:
        """Set the next chooser's decision pending (or take a lone option at once)."""
        key = progress_key(step)
        while True:
            prog = fr.vars.get(key)
            if prog is None:
                prog = fr.vars[key] = (self._choosers(step, ctx), (), ())
            todo = prog[0]
            if not todo:
                self._finish(state, fr, step)
                return
            who = todo[0]
            fr.vars[step.chooser] = who
            vals = m.values(state, fr, step, ctx)
            if not vals:
                raise DeadEnd(step)
            if m.rules.hidden_information and not probe:
                m.check_seen(state, step, vals, who)
            if probe:
                state.pending = Pending(step, vals, None, fr.vars, who)
                return
            ask = m.ask_forced is True or step.name in m.ask_forced
            if len(vals) == 1 and not ask:
                at = record_choice(state, who, step.name, m.texts(vals, step)[0], True)
                self._record(state, fr, step, vals[0], who, at, rerun=False)
                continue
            state.pending = Pending(step, vals, None, fr.vars, who, self.rules.show)
            return

    def answer(self, state, fr, step, value, who, at) -> None:
        """A chooser's answer (history entry `at`): kept, and the step asked again for the next one."""
        self._record(state, fr, step, value, who, at, rerun=True)

    def _record(self, state, fr, step, value, who, at, rerun) -> None:
        key = progress_key(step)
        todo, done, moves = fr.vars[key]
        fr.vars[key] = (todo[1:], done + ((who, value),), moves + (at,))
        state.hidden_moves = state.hidden_moves | {at}
        if rerun:
            fr.pc -= 1                   # the choice instruction runs again: the next chooser, or the end

    def _finish(self, state, fr, step) -> None:
        _todo, done, moves = fr.vars.pop(progress_key(step))
        fr.vars.pop(step.chooser, None)
        fr.vars[step.name] = dict(done)
        if step.reveal == "all" and moves:
            state.hidden_moves = state.hidden_moves - set(moves)
            show = self.rules.show
            state.events.append(("reveal", step.name, tuple((who, show(v)) for who, v in done), state.turn))
        state.touch("secret", step.name, tuple(done))

    def resample(self, m, state, viewer, rng) -> None:
        """In a sample for `viewer`: the others' answers to a secret choice
        still being asked, taken afresh from their options (he has not seen them)."""
        p = state.pending
        if p is None or p.step.simultaneous is None:
            return
        step, fr = p.step, state.frames[-1]
        key = progress_key(step)
        prog = fr.vars.get(key)
        if prog is None:
            return
        todo, done, moves = prog
        again = []
        for who, value in done:
            if who != viewer:
                fr.vars[step.chooser] = who
                vals = m.values(state, fr, step)
                value = vals[rng.randrange(len(vals))]
            again.append((who, value))
        fr.vars[step.chooser] = p.player
        fr.vars[key] = (todo, tuple(again), moves)

    def _choosers(self, step, ctx) -> tuple:
        got = step.simultaneous(ctx)
        if got is None or isinstance(got, (bool, int, float, str)):
            raise RulesError(f"choice {step.name!r}: 'simultaneous' must give a collection of players, got "
                             f"{self.rules.show(got)}", step.pos, hint="like 'p in players'")
        who = tuple(ordered(got))
        n = self.rules.num_players
        for q in who:
            if type(q) is not int or not 0 <= q < n:
                raise RulesError(f"choice {step.name!r} is to be made by {self.rules.show(q)}, which is not a player",
                                 step.pos, hint="'simultaneous' must give players, like 'p in players'")
        if not who:
            raise RulesError(f"choice {step.name!r}: 'simultaneous' gave no player to choose", step.pos,
                             hint="a simultaneous step needs at least one player")
        if len(set(who)) != len(who):
            raise RulesError(f"choice {step.name!r}: 'simultaneous' names a player twice", step.pos)
        return who
