"""Which parts of the position a rulebook definition reads.

The state keeps a version for each part (engine/state.py `parts`), changed
with the part: a zone name's zones (a grid's cells with their grid; the
part is the name), the board's places (None), the board's occupancy,
counters by their first word, whose turn. A definition's value is memoised under the versions of the parts it
reads (lang/memo.py), so it outlives changes to the others: the value of
one that reads only hands is kept while the board changes.

A read set is worked out from the text, when the rulebook loads: the
primitives a definition calls, each reading the parts READS says, and the
read sets of the definitions it calls. What the text does not show is
read in full: a zone given as a variable reads every zone (ZONES), and a
primitive that reads the position and is not in READS reads everything
(ALL: the whole position's version, as if nothing were known).
"""

from __future__ import annotations

from . import ast as A

# (the parts that are no zone's are tuples: a zone's name is a text)
ALL = ("all",)                 # the whole position (its version)
ZONES = ("zones",)             # every zone (a change to any zone changes it)
OCCUPANCY = ("occupancy",)     # which pieces stand on the board's spaces
TURN = ("turn",)               # whose turn, and its number
_ZONE_ARG = ("zone argument",)  # (in READS) the zone the first argument names

# What the primitives that read the position read (each is a part, or _ZONE_ARG).
# A primitive that reads the position and is not listed reads ALL.
READS = {
    "amount": (_ZONE_ARG,), "total": (_ZONE_ARG,), "items": (_ZONE_ARG,), "slots": (_ZONE_ARG,),
    "free_slots": (_ZONE_ARG,), "next_value": (_ZONE_ARG,), "filled_cells": (_ZONE_ARG,),
    "occupied": (OCCUPANCY,), "piece_at": (OCCUPANCY,), "occupied_spaces": (OCCUPANCY,),
    "open_spaces": (OCCUPANCY,),
    "points": (("counter", "points"),), "points_from": (("counter", "points"),),
    "counter": (("counter", "counter"),),
    "player": (TURN,), "turn": (TURN,),
    "cell": (), "grid_of": (),          # (they read the rulebook's grids only)
}

# The effects that change a zone in place and say so by State.touch(effect, zone, ...).
ZONE_TOUCHES = frozenset({"take", "put", "shift", "compact", "shuffle", "draw"})


def zone_part(key):
    """The part a zone belongs to: its name (of the pair (name, owner), of a
    grid's cell (name, owner, row, column)), or None: the board's places."""
    return key[0] if key.__class__ is tuple and key and key[0].__class__ is str else None


def counter_part(key):
    """The part a counter belongs to: its first word's."""
    return ("counter", key[0] if key.__class__ is tuple and key else key)


class Reader:
    """The parts one text reads, gathered while it is compiled (see
    Compiler._uses): the compiler hands it each primitive call."""

    def __init__(self, names):
        self.names = names

    def of_call(self, b, node, scope, local) -> set:
        """The parts a call of primitive b reads (node: the call, or None for a bare name)."""
        if b.static:
            return set()
        spec = READS.get(b.name)
        if spec is None:
            return {ALL}
        out = set()
        for part in spec:
            if part == _ZONE_ARG:
                arg = node.args[0] if node is not None and node.args else None
                out.add(self.zone_of(arg, scope, local))
            else:
                out.add(part)
        return out

    def zone_of(self, node, scope, local):
        """The part of the zone an expression names, when the text shows it
        (a zone's constructor, a constant, a cell of either), else ZONES."""
        names = self.names
        if isinstance(node, A.Name):
            n = node.id
            if n in local or n in scope or n in names.funcs or n not in names.constants:
                return ZONES
            return zone_part(names.constants[n])
        if isinstance(node, A.Call) and isinstance(node.func, A.Name) and node.gen is None:
            n = node.func.id
            if n in local or n in scope or n in names.funcs:
                return ZONES
            if n in names.constructors and n not in names.constants:
                return n
            b = names.registry.get(n)
            if n == "cell" and b is not None and b.static and node.args:
                return self.zone_of(node.args[0], scope, local)
        return ZONES


def read_set(f, busy=None):
    """The parts definition f reads, its callees' included, sorted; None
    when it reads ALL. (Definitions cannot call themselves, but a circle
    the rulebook's check reports is read as ALL rather than followed.)"""
    if f._read_set is not False:
        return f._read_set
    busy = set() if busy is None else busy
    if id(f) in busy:
        return None
    busy.add(id(f))
    parts = set(f.reads)
    out = None
    if ALL not in parts:
        for g in f.callees:
            sub = read_set(g, busy)
            if sub is None:
                break
            parts.update(sub)
        else:
            if ZONES in parts:      # (it changes with every zone: no zone's part need be asked)
                parts = {p for p in parts if p.__class__ is tuple}
            out = tuple(sorted(parts, key=repr))
    busy.discard(id(f))
    f._read_set = out
    return out
