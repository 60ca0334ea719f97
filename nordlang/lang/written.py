"""Lists and tuples the text wrote out as numbers.

A space is a pair of numbers (row, column), so a pair the text wrote,
`[9, 12]`, would be shown as a space ("m10") in a note's line of the log.
A list or tuple written out among a note's arguments (`note("pair", [a, b])`) is made
a Written tuple: Rules.show writes it as its parts. It is equal to the plain
tuple (same hash), so nothing else tells them apart. (Elsewhere a pair of
numbers may be a space: a scenario's check says both.)"""

from __future__ import annotations


class Written(tuple):
    """A tuple the text wrote out: shown as its parts, never as a space or a path."""

    __slots__ = ()

    def __repr__(self) -> str:
        return tuple.__repr__(self)

