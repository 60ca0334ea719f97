"""Moves: a move's one text form, '<choice> <option>' (for example 'place
c3,c4'), the same in logs, replays, scenario scripts and the CLI, and the
legal moves of a pending decision, made only when read (game.py plays them)."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import IllegalMove
from ..limits import MAX_LINE, OverLimit, check_text
from ..rules.model import _natural

_ORDERED = set("()[]{}>")     # a text with these shows an ordered value (a tuple, a chain, a mapping)


def canonical_option(text: str) -> str:
    """An option's text as the engine writes it: a set is shown as its
    members joined by commas, sorted as the engine sorts them (numbers read
    as numbers), so 'd2, c2' is 'c2,d2'. A text that is no comma list of
    blank-free names (a label with words, an ordered value) is kept as written,
    less the blanks around it."""
    text = text.strip()
    if "," not in text or not _ORDERED.isdisjoint(text):
        return text
    members = [m.strip() for m in text.split(",")]
    if any(not m or len(m.split()) != 1 for m in members):
        return text
    return ",".join(sorted(members, key=_natural))


@dataclass(frozen=True)
class Move:
    """A move: the pending choice's name and one of its options. Two moves
    naming a set's members in different orders are the same move."""

    choice: str
    option: str

    def __post_init__(self):
        for field, value in (("choice", self.choice), ("option", self.option)):
            if not isinstance(value, str):
                raise TypeError(f"a Move's {field} must be text, not {type(value).__name__}")
        object.__setattr__(self, "choice", self.choice.strip())
        object.__setattr__(self, "option", canonical_option(self.option))

    def __str__(self) -> str:
        return f"{self.choice} {self.option}"

    @staticmethod
    def parse(text: str) -> Move:
        if not isinstance(text, str):
            raise IllegalMove(f"a move is text like 'place c3,c4', not {type(text).__name__}")
        if len(text) > MAX_LINE:
            raise IllegalMove(f"a move of {len(text)} characters is past the limit of {MAX_LINE}",
                              expected="'<choice> <option>', like 'place c3,c4'")
        try:
            check_text(text, "the move")
        except OverLimit as e:
            raise IllegalMove(e.message, hint=e.hint) from None
        parts = text.strip().split(None, 1)
        if len(parts) != 2 or not parts[0].replace("_", "").isalnum():
            raise IllegalMove(f"bad move notation {text!r}", expected="'<choice> <option>', like 'place c3,c4'")
        return Move(parts[0], parts[1])


def _engine_move(choice: str, option: str) -> Move:
    """A Move from a text the engine wrote (a pending choice's option): no checks needed."""
    m = object.__new__(Move)
    object.__setattr__(m, "choice", choice)
    object.__setattr__(m, "option", canonical_option(option) if "," in option else option)
    return m


class LegalMoves(Sequence):
    """The moves of a pending decision, made only when read: `len()` costs
    nothing, an index makes one Move, and a random agent that picks by
    index never pays for the texts of the options it does not take. It
    compares equal to a list of the same moves."""

    __slots__ = ("_pending",)

    def __init__(self, pending):
        self._pending = pending

    def __len__(self) -> int:
        p = self._pending
        return 0 if p is None else len(p.options)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        n = len(self)
        if type(i) is not int:
            i = _as_index(i)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("legal move index out of range")
        p = self._pending
        return _engine_move(p.step.name, p.text(i))

    def __iter__(self):
        p = self._pending
        if p is not None:
            name = p.step.name
            for t in p.texts:
                yield _engine_move(name, t)

    def __eq__(self, other):
        if isinstance(other, (LegalMoves, list, tuple)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None

    def __repr__(self) -> str:
        return repr(list(self))


def parse(text: str) -> Move:
    """A move from its text form, '<choice> <option>' (like 'place c3,c4')."""
    return Move.parse(text)


def _as_index(index) -> int:
    """An option's index from an int-like value (a numpy int); bool and the rest are a TypeError."""
    if isinstance(index, bool) or not hasattr(index, "__index__"):
        raise TypeError(f"an option's index must be a whole number, not {type(index).__name__} ({index!r})")
    return operator.index(index)
