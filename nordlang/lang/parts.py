"""The parts of the position a memo key asks (lang/reads.py says which a
definition reads; engine/state.py keeps their versions): every zone, the
occupancy, whose turn, the whole position; a zone's name's, a zone's
name and owner's, a counter's; the part an argument chooses; and parts
that are values of the position rather than versions of it (masks of the
board: a key holding them alone holds in any position where they are the
same)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

# (the parts that are no zone's are tuples: a zone's name is a text)
ALL = ("all",)                 # the whole position (its version)
ZONES = ("zones",)             # every zone (a change to any zone changes it)
OCCUPANCY = ("occupancy",)     # which pieces stand on the board's spaces
TURN = ("turn",)               # whose turn, and its number


def zone_part(key):
    """The part of every zone of a name a zone belongs to: its name (of the
    pair (name, owner), of a grid's cell (name, owner, row, column)), or
    None: the board's places."""
    return key[0] if key.__class__ is tuple and key and key[0].__class__ is str else None


def owner_part(key):
    """The part of one zone a zone belongs to: the pair (name, owner) of a
    zone or of a grid's cell, or None (the board's places). The state
    records it beside zone_part's; a memo key asks it of an argument."""
    return key[:2] if key.__class__ is tuple and key and key[0].__class__ is str else None


def counter_part(key):
    """The part a counter belongs to: its first word's."""
    return ("counter", key[0] if key.__class__ is tuple and key else key)


class ArgPart(NamedTuple):
    """A part chosen by an argument: (name, the argument) when name is
    given (a zone made as `name(p)`), else the argument's own owner_part."""

    index: int
    name: str | None


class ElemPart(NamedTuple):
    """The part of the zones a collection given as an argument holds (a
    caller that knows them reads their part; the memo key reads ZONES)."""

    index: int


@dataclass(frozen=True)
class AroundPart:
    """The components of the connection graph that touch the structure
    argument `index` names (board/graph.py Links.around): a memo key asks
    their mask itself, a value, not a version (so it holds in any position
    where the mask is the same); for an argument that is no structure, the
    position's version. (Not a NamedTuple: it must never equal an ElemPart.)"""

    index: int


@dataclass(frozen=True)
class RingPart:
    """Which of the spaces around argument `index` (a space or structure:
    its surroundings) are occupied: a value too, a mask (State.ring_taken)."""

    index: int


_VALUE_PARTS = (AroundPart, RingPart)       # parts a memo key asks as values (lang/memo.py)


def is_value_part(p) -> bool:
    return p.__class__ in _VALUE_PARTS


def is_zone_part(p) -> bool:
    """A zone's part: a name, None, an ArgPart or ElemPart (the others are plain tuples, or values)."""
    return p.__class__ is not tuple and p.__class__ not in _VALUE_PARTS
