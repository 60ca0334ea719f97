"""A scenario's chance outcomes: what a roll shows, how a deck comes out.

A scenario fixes the outcomes of the rules' chance events (a `roll` step,
a `shuffle`) in two places, both lists taken in order by the events as
they come: the top-level `chance` (from the setup on: the first shuffle
of the setup takes the first list) and a script step `- chance: [...]`
(the events after that point). A value is a roll's outcome as the log
writes it (5, heads); a list is a shuffled deck's new order, top first,
its items as the game writes them (tile:a). Past the fixed outcomes the
scenario's seeded source goes on.

An outcome that does not fit its event (a value that is not one of the
roll's outcomes, an order that is not the deck's items) stops the
scenario with an error at that value in the file; an outcome no event
took is a failure at the end of the script. The expectation `rolls`
checks what the rolls came out as since the previous step.
"""

from __future__ import annotations

from ..engine.chance import Fixed
from ..engine.program import Roll
from ..errors import EvalError, NordError, did_you_mean
from .names import _err


class ChanceMismatch(BaseException):
    """A fixed outcome does not fit the event that takes it. (A
    BaseException, as the engine's own ChanceNeeded: the compiled rules
    wrap errors with the rule's place, and this one belongs to the
    scenario's file.)"""

    def __init__(self, error: NordError):
        super().__init__(error.message)
        self.error = error


class ScenarioChance(Fixed):
    """Fixed outcomes that remember where the scenario states each one."""

    __slots__ = ("src", "queue")

    def __init__(self, seed_state: int, show, src, queue=()):
        super().__init__(seed_state, (), show)
        self.src = src
        self.queue = list(queue)            # (value, path in the file), in the order the events take them

    def copy(self) -> ScenarioChance:
        return ScenarioChance(self.state, self.show, self.src, self.queue)

    def add(self, values, path) -> None:
        """Outcomes stated at `path` (a list), for the events after those already queued."""
        self.queue.extend((v, path + (i,)) for i, v in enumerate(values))

    def _take(self, label, what, call):
        value, path = self.queue.pop(0)
        self.given = [value]
        try:
            return call()
        except EvalError as e:
            raise ChanceMismatch(_err(self.src, path, e.message, expected=what)) from None
        finally:
            self.given = []

    def roll(self, outcomes, probs, label=None) -> int:
        if not self.queue:
            return super().roll(outcomes, probs, label)
        if isinstance(self.queue[0][0], list):
            value, path = self.queue.pop(0)
            raise ChanceMismatch(_err(self.src, path, f"the scenario gives a list (a deck's order) for "
                                      f"{label or 'a roll'}, which takes one value",
                                      expected="one of " + ", ".join(self.show(o) for o in outcomes)))
        return self._take(label, "one of " + ", ".join(self.show(o) for o in outcomes),
                          lambda: Fixed.roll(self, outcomes, probs, label))

    def shuffle(self, items: list, label=None) -> None:
        if not self.queue:
            return super().shuffle(items, label)
        return self._take(label, "the deck's items in a new order, top first: a list of "
                          + ", ".join(sorted(self.show(x) for x in items)),
                          lambda: Fixed.shuffle(self, items, label))


def install(game, data, src) -> None:
    """Before the setup runs: the scenario's own chance source, holding the
    top-level `chance` outcomes (a scenario that fixes none anywhere keeps
    the plain seeded source)."""
    if "chance" not in data and not _fixes_any(data):
        return
    st = game.state
    source = ScenarioChance(st.rng.state, game.rules.show, src)
    source.add(data.get("chance") or [], ("chance",))
    st.rng = source


def _fixes_any(data) -> bool:
    steps = list(data.get("moves") or [])
    for b in (data.get("branches") or {}).values():
        steps += list(b.get("moves") or [])
    return any(isinstance(s, dict) and "chance" in s for s in steps)


def fix(sc, values, path) -> None:
    """A script step `chance: [...]` (at `path`): outcomes for the events from here on."""
    st = sc.game.state
    if not isinstance(st.rng, ScenarioChance):      # (its seeded source goes on where it was)
        st.rng = ScenarioChance(st.rng.state, sc.rules.show, sc.src)
    st.rng.add(values, path)


def unused(game):
    """(value, path) of the first fixed outcome no chance event took, or None."""
    rng = game.state.rng
    if isinstance(rng, ScenarioChance) and rng.queue:
        return rng.queue[0]
    return None


def roll_names(rules) -> set:
    """The names of the rules' roll steps."""
    from ..engine.flow import programs
    return {ins.name for code in programs(rules).values() for ins in code if type(ins) is Roll}


def check_rolls(sc, exp, path, errors) -> None:
    """Before the script runs: each roll `rolls` names is a roll step of the rules."""
    names = roll_names(sc.rules)
    for name in exp.get("rolls") or {}:
        if name not in names:
            errors.append(_err(sc.src, path + ("rolls", name), f"the rules have no roll {name!r}", key=True,
                               expected=", ".join(sorted(names)) or "none: the rules roll nothing",
                               hint=did_you_mean(str(name), names)))


def rolled(sc, name) -> list:
    """The outcomes of roll `name` since the previous step that acted, as the log writes them."""
    return [ev[2] for ev in sc.game.state.events[sc.events_seen:] if ev[0] == "roll" and ev[1] == name]
