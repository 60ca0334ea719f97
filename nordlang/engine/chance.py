"""Chance sources: who decides the rules' chance events.

Every chance event of a rulebook (a `roll` step, a `shuffle`) asks the
state's source, `state.rng`, for an outcome; the events themselves know
their outcomes and exact probabilities. Three sources answer:

- `Rng` (rng.py), seeded: a real game (by the game's seed) or a search
  agent's sample of the future (by the agent's own seed);
- `Scripted`: outcomes given one by one by index, as OpenSpiel's chance
  nodes give them; an event with no outcome given stops the run with
  `ChanceNeeded`, which names the event's outcomes and probabilities;
- `Fixed`: a scenario's stated outcomes ("the die shows 5", "the deck comes
  out in this order"), then the seeded source for the rest.
"""

from __future__ import annotations

from fractions import Fraction

from ..errors import EvalError, RulesError
from ..lang.builtins import ordered
from .rng import Rng


class ChanceNeeded(BaseException):
    """A chance event came and its source has no outcome for it: a chance
    node. (A BaseException: compiled rules wrap errors, never this.)"""

    def __init__(self, label: str, outcomes: tuple, probs: tuple, public: bool = False):
        super().__init__(label)
        self.label = label              # what the event is ('roll die', 'shuffle deck, place 11')
        self.outcomes = outcomes        # each outcome's text, by index
        self.probs = probs              # each outcome's probability (Fractions adding up to 1)
        self.public = public            # every player sees the outcome (a roll); a shuffle's order nobody sees


def uniform(n: int) -> tuple:
    return (Fraction(1, n),) * n


class Scripted(Rng):
    """Outcomes given by index, in the order the events come; past them,
    `ChanceNeeded`. A lookahead probe (rules trying a move ahead) samples
    from a fixed seed instead: it must not use up the script."""

    __slots__ = ("script", "used")

    def __init__(self, script=()):
        super().__init__(0)
        self.script = tuple(script)
        self.used = 0

    def copy(self) -> Scripted:
        s = Scripted(self.script)
        s.used, s.state = self.used, self.state
        return s

    def for_probe(self) -> Rng:
        return Rng(0x5EED)

    def _next(self, probs, label, texts, public=False) -> int:
        if self.used < len(self.script):
            i = self.script[self.used]
            if not (type(i) is int and 0 <= i < len(probs)):
                raise EvalError(f"chance outcome {i!r} given for {label}, which has outcomes 0 to {len(probs) - 1}")
            self.used += 1
            return i
        raise ChanceNeeded(label, tuple(texts), tuple(probs), public)

    def randrange(self, n: int) -> int:
        return self._next(uniform(n), "a uniform draw", [str(i) for i in range(n)])

    def roll(self, outcomes, probs, label=None) -> int:
        return self._next(tuple(probs), label or "a roll", [str(o) for o in outcomes], public=True)

    def shuffle(self, items: list, label=None) -> None:
        # each Fisher-Yates step is one event: which of the first i + 1 items goes to place i
        for i in range(len(items) - 1, 0, -1):
            j = self._next(uniform(i + 1), f"{label or 'a shuffle'}, place {i}", [f"{k}" for k in range(i + 1)])
            items[i], items[j] = items[j], items[i]


class Fixed(Rng):
    """A scenario's outcomes, taken in order by the events they fit: a value
    for a roll (one of its outcomes), a list for a shuffle (the deck's new
    order, top first: the same items). When they are used up, the seeded
    source goes on."""

    __slots__ = ("given", "show")

    def __init__(self, seed_state: int, given, show):
        super().__init__(0)
        self.state = seed_state
        self.given = list(given)
        self.show = show

    def copy(self) -> Fixed:
        f = Fixed(self.state, self.given, self.show)
        return f

    def for_probe(self) -> Rng:
        r = Rng(0)
        r.state = self.state
        return r

    def roll(self, outcomes, probs, label=None) -> int:
        if not self.given:
            return super().roll(outcomes, probs, label)
        value = self.given.pop(0)
        for i, o in enumerate(outcomes):
            if o == value or self.show(o) == str(value):
                if probs[i] == 0:
                    break
                return i
        raise EvalError(f"the scenario fixes {label or 'a roll'} at {value!r}, which is not one of its outcomes",
                        hint="outcomes: " + ", ".join(self.show(o) for o in outcomes))

    def shuffle(self, items: list, label=None) -> None:
        if not self.given:
            return super().shuffle(items, label)
        order = self.given.pop(0)
        if not isinstance(order, list):
            raise EvalError(f"the scenario gives {order!r} for {label or 'a shuffle'}, which takes a list: the "
                            "deck's new order, top first")
        shown = [self.show(x) for x in items]
        if sorted(map(str, order)) != sorted(shown):
            raise EvalError(f"the scenario's order for {label or 'a shuffle'} is not the deck's items",
                            hint="the deck holds: " + ", ".join(sorted(shown)))
        remaining = list(items)
        out = []
        for text in map(str, order):
            k = next(i for i, x in enumerate(remaining) if self.show(x) == text)
            out.append(remaining.pop(k))
        items[:] = out


def probabilities(values, where: str) -> tuple:
    """Exact probabilities from a rulebook's numbers or fractions ('1/6');
    a value that is none is an error naming `where`."""
    out = []
    for v in values:
        try:
            q = Fraction(str(v)) if not isinstance(v, bool) else None
        except (ValueError, ZeroDivisionError):
            q = None
        if q is None or q < 0:
            raise ValueError(f"{where}: {v!r} is no probability", "a number from 0 to 1, or a fraction like 1/6")
        out.append(q)
    return tuple(out)


def roll(state, fr, ins, ctx) -> None:
    """Run a `roll` step: ask the state's chance source for an outcome, bind
    it to the step's name, and record it (the log shows every outcome)."""
    if ins.source is not None:
        got = ins.source(ctx)
        if got is None or isinstance(got, (bool, int, float, str)):
            raise RulesError(f"roll {ins.name!r}: 'from' must give a collection of outcomes, got {got!r}", ins.pos,
                             hint="a list or a range, like range(1, 7) for a six-sided die")
        listed = list(ordered(got))
        if not listed:
            raise RulesError(f"roll {ins.name!r} has no outcome: 'from' gave an empty collection", ins.pos)
        counts: dict = {}
        for v in listed:
            counts[v] = counts.get(v, 0) + 1
        values = tuple(counts)
        probs = tuple(Fraction(c, len(listed)) for c in counts.values())
    else:
        values, probs = ins.values, ins.probs
    show = ctx.rules.show
    i = state.rng.roll(values, probs, f"roll {ins.name}")
    value = values[i]
    fr.vars[ins.name] = value
    state.touch("roll", ins.name, i)
    state.events.append(("roll", ins.name, show(value), state.turn))
