"""Which parts of the position a rulebook definition reads.

The state keeps a version for each part (engine/state.py `parts`), changed
with the part: a zone name's zones (the part is the name), each zone of a
name and owner with its cells (the part is the pair: `hand(2)`, a grid and
its cells), the board's places (None), the board's occupancy, counters by
their first word, whose turn. A definition's value is memoised under the
versions of the parts it reads (lang/memo.py), so it outlives changes to
the others: the value of one that reads only hands is kept while the board
changes, and that of one that reads `hand(p)` for one player while another's
hand changes.

A read set is worked out from the text, when the rulebook loads: the
primitives a definition calls, each reading the parts READS says, and the
read sets of the definitions it calls, said of what it gives them. A zone
the text shows is read as its part; a zone given as a parameter, made of
one (`hand(p)`, `cell(h, r, k)`, `grid_of(c)`) or taken from a collection
of one's cells (`c for c in filled_cells(h)`) is read as the part of the
argument, which the memo key asks at each call (ArgPart); what the text
does not show is read in full: a zone of unknown origin reads every zone
(ZONES), and a primitive that reads the position and is not in READS reads
everything (ALL: the whole position's version, as if nothing were known).
"""

from __future__ import annotations

from ..errors import NordError
from . import ast as A
from .parser import parse
from .parts import (
    ALL,
    OCCUPANCY,
    TURN,
    ZONES,
    ArgPart,
    AroundPart,
    ElemPart,
    RingPart,
    counter_part,
    is_value_part,
    is_zone_part,
    owner_part,
    zone_part,
)

__all__ = ["ALL", "OCCUPANCY", "TURN", "ZONES", "ArgPart", "ElemPart", "counter_part", "owner_part", "zone_part",
           "READS", "ZONE_TOUCHES", "Reader", "read_set", "key_parts", "reads_by_owner"]   # (parts.py's too, as before)

_ZONE_ARG = ("zone argument",)  # (in READS) the zone the first argument names
_LINKED_ARGS = ("linked arguments",)   # (in READS) connected's: see Reader._linked
_OCCUPIED_ARG = ("occupied argument",)  # (in READS) occupied's: see Reader.of_call

# What the primitives that read the position read (each is a part, or _ZONE_ARG).
# A primitive that reads the position and is not listed reads ALL.
READS = {
    "amount": (_ZONE_ARG,), "total": (_ZONE_ARG,), "items": (_ZONE_ARG,), "slots": (_ZONE_ARG,),
    "free_slots": (_ZONE_ARG,), "next_value": (_ZONE_ARG,), "filled_cells": (_ZONE_ARG,),
    "bordering_cells": (_ZONE_ARG,),
    "occupied": (_OCCUPIED_ARG,), "piece_at": (OCCUPANCY,), "occupied_spaces": (OCCUPANCY,),
    "open_spaces": (OCCUPANCY,),
    "points": (("counter", "points"),), "points_from": (("counter", "points"),),
    "counter": (("counter", "counter"),),
    "player": (TURN,), "turn": (TURN,),
    "cell": (), "grid_of": (),          # (they read the rulebook's grids only)
    # (the connection graph is made of the occupancy: its linking pieces, and the owners' masks)
    "connected": (_LINKED_ARGS,), "connected_pairs": (OCCUPANCY,), "component": (OCCUPANCY,),
    "linked_structures": (OCCUPANCY,), "frontier": (OCCUPANCY,), "shortest_paths": (OCCUPANCY,),
    "occupied_by": (OCCUPANCY,), "groups": (OCCUPANCY,),
}

# The effects that change a zone in place and say so by State.touch(effect, zone, ...).
ZONE_TOUCHES = frozenset({"take", "put", "shift", "compact", "shuffle", "draw"})


# What the text shows of a value, as far as zones go (None: nothing):
#   ("param", k)   parameter k itself          ("elem", k)    an item of parameter k
#   ("zone", part) a zone (or cell) of a part  ("each", desc) a collection of such values
#   ("const", v)   a constant                  SPACE          a space of the board
#   ("ring", k)    a space around parameter k (of its surroundings)
_CONSTS = (int, str, bool, float, type(None))
# primitives whose value is a zone or cells of the zone (or space) their first argument is of
_SAME_ZONE = {"cell": "zone", "grid_of": "zone", "filled_cells": "each", "bordering_cells": "each", "neighbors": "each"}
_SAME_ITEMS = {"set", "list", "sorted", "first"}     # ... whose value holds (first: is) items of their argument
SPACE = ("space",)
_SPACES = {"surroundings", "region_spaces"}          # ... whose value is spaces of the board


class Reader:
    """What texts show of the zones they read: `lookup(name)` says what is
    known of a variable ((True, desc)), or that the name is no variable."""

    def __init__(self, names, lookup=None):
        self.names = names
        self.lookup = lookup or (lambda name: (False, None))

    def of_call(self, b, node) -> set:
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
                out.add(part_of(self.desc(arg)) if arg is not None else ZONES)
            elif part == _LINKED_ARGS:
                out |= self._linked(node)
            elif part == _OCCUPIED_ARG:      # (around a parameter: those spaces' occupancy alone)
                d = self.desc(node.args[0]) if node is not None and len(node.args) == 1 else None
                out.add(RingPart(d[1]) if d is not None and d[0] == "ring" else OCCUPANCY)
            else:
                out.add(part)
        return out

    def _linked(self, node) -> set:
        """What connected(a, b) reads: for a space and a structure, whether
        the space is in a component that touches the structure, and so the
        structure's AroundPart when an argument names it (and the other is
        a parameter too, or a space); else the occupancy (the graph's
        components, or with `over` its player's pieces)."""
        args = node.args if node is not None else ()
        ds = [SPACE if _is_space(d) else d for d in map(self.desc, args)]
        if len(ds) != 2 or ds == [SPACE, SPACE] or not all(
                d == SPACE or d is not None and d[0] == "param" for d in ds):
            return {OCCUPANCY}
        return {AroundPart(d[1]) for d in ds if d != SPACE}

    def desc(self, node):
        """What the text shows of the value of node (see above), or None."""
        if isinstance(node, A.Const):
            return ("const", node.value) if isinstance(node.value, _CONSTS) else None
        if isinstance(node, A.Name):
            is_var, d = self.lookup(node.id)
            if is_var:
                return d
            names = self.names
            if node.id in names.constants:
                v = names.constants[node.id]
                return ("const", v) if _hashable(v) else None
            f = names.funcs.get(node.id)
            return substitute(returns(f, names), ()) if f is not None and not f.params else None
        if isinstance(node, A.Call):
            return self._call(node)
        if isinstance(node, A.Comp):
            return self._comp(node)
        if isinstance(node, (A.ListX, A.TupleX)):
            ds = {self.desc(x) for x in node.items}
            return ("each", ds.pop()) if len(ds) == 1 and None not in ds else None
        if isinstance(node, A.BinOp) and node.op == "+":
            d = self.desc(node.left)
            return d if d is not None and d[0] == "each" and d == self.desc(node.right) else None
        if isinstance(node, A.IfElse):
            d = self.desc(node.then)
            return d if d == self.desc(node.orelse) else None
        if isinstance(node, A.LetIn):
            return self._let(node)
        return None

    def _call(self, node):
        if not isinstance(node.func, A.Name) or node.gen is not None:
            return None
        n, names = node.func.id, self.names
        if self.lookup(n)[0]:
            return None
        f = names.funcs.get(n)
        if f is not None:
            if len(node.args) != len(f.params):
                return None
            return substitute(returns(f, names), [self.desc(a) for a in node.args])
        if n in names.constructors:
            if not node.args:
                return ("zone", n)
            return ("zone", owned(n, self.desc(node.args[0])))
        if names.registry.get(n) is None or not node.args:
            return None
        if n in _SAME_ZONE:
            zone = ("zone", part_of(self.desc(node.args[0])))
            return zone if _SAME_ZONE[n] == "zone" else ("each", zone)
        if n in _SPACES:
            d = self.desc(node.args[0]) if n == "surroundings" else None
            return ("each", ("ring", d[1]) if d is not None and d[0] == "param" else SPACE)
        if n in _SAME_ITEMS and len(node.args) == 1:
            item = elements_of(self.desc(node.args[0]))
            return item if n == "first" or item is None else ("each", item)
        return None

    def _bound(self, env):
        """A Reader that knows the variables of env besides this one's."""
        outer = self.lookup
        return Reader(self.names, lambda name: (True, env[name]) if name in env else outer(name))

    def _comp(self, node):
        env, inner = {}, self._bound({})
        for cf in node.fors:
            d = elements_of(inner.desc(cf.iter))
            for t in cf.target:
                env[t] = d if len(cf.target) == 1 else None
            inner = self._bound(dict(env))
        d = inner.desc(node.elt)
        return ("each", d) if d is not None else None

    def _let(self, node):
        inner = self
        for name, value in node.bindings:
            inner = inner._bound({name: inner.desc(value)})
        return inner.desc(node.body)


def _is_space(d) -> bool:
    return d == SPACE or d is not None and d[0] == "ring"


def _hashable(v) -> bool:
    try:
        hash(v)
    except TypeError:
        return False
    return True


def part_of(d):
    """The part a value is of, used as a zone."""
    if d is None:
        return ZONES
    tag = d[0]
    if tag == "zone":
        return d[1]
    if tag == "param":
        return ArgPart(d[1], None)
    if tag == "elem":
        return ElemPart(d[1])
    if tag == "const":
        return zone_part(d[1])
    if _is_space(d):
        return None                 # (the board's places)
    return ZONES                    # (a collection: no zone, it fails as one)


def owned(name, d):
    """The part of the zone name(x), x as d says."""
    if d is not None and d[0] == "param":
        return ArgPart(d[1], name)
    return name


def elements_of(d):
    """What is known of a collection's items."""
    if d is None:
        return None
    if d[0] == "each":
        return d[1]
    if d[0] == "param":
        return ("elem", d[1])
    return None


def substitute(d, args):
    """A callee's desc or part (in terms of its parameters) at a call whose
    arguments are as `args` says (None: not known)."""
    if d is None:
        return None
    if isinstance(d, ArgPart):
        a = _arg(args, d.index)
        return part_of(a) if d.name is None else owned(d.name, a)
    if isinstance(d, ElemPart):
        return part_of(elements_of(_arg(args, d.index)))
    if is_value_part(d):
        a = _arg(args, d.index)
        return d.__class__(a[1]) if a is not None and a[0] == "param" else OCCUPANCY
    if d.__class__ is not tuple or not d or d[0].__class__ is not str:
        return d                    # (a zone's name, the board's places: the same at any call)
    tag = d[0]
    if tag == "param":
        return _arg(args, d[1])
    if tag == "ring":
        a = _arg(args, d[1])
        return ("ring", a[1]) if a is not None and a[0] == "param" else SPACE
    if tag == "elem":
        return elements_of(_arg(args, d[1]))
    if tag == "zone":
        return ("zone", substitute(d[1], args))
    if tag == "each":
        sub = substitute(d[1], args)
        return ("each", sub) if sub is not None else None
    return d                        # ("const", v), and the parts that are no zone's


def _arg(args, k):
    return args[k] if args is not None and k < len(args) else None


def returns(f, names, busy=None):
    """What f's text shows of its value, in terms of its parameters (kept on f)."""
    if f is None or f.kind != "expr":
        return None
    if f._returns is not False:
        return f._returns
    busy = set() if busy is None else busy
    if id(f) in busy or not isinstance(f.text, str):
        return None
    busy.add(id(f))
    params = {p: ("param", k) for k, p in enumerate(f.params)}
    try:
        d = Reader(names, lambda name: (True, params[name]) if name in params else (False, None)).desc(
            parse(f.text, "expr"))
    except (NordError, RecursionError):
        d = None
    busy.discard(id(f))
    f._returns = d
    return d


def read_set(f, busy=None):
    """The parts definition f reads, its callees' included (said of the
    arguments it gives them), sorted, in terms of its parameters (ArgPart,
    ElemPart); None when it reads ALL. (Definitions cannot call themselves,
    but a circle the rulebook's check reports is read as ALL rather than
    followed.)"""
    if f._read_set is not False:
        return f._read_set
    busy = set() if busy is None else busy
    if id(f) in busy:
        return None
    busy.add(id(f))
    parts = set(f.reads)
    out = None
    if ALL not in parts:
        for g, args in f.sites:
            sub = read_set(g, busy)
            if sub is None:
                break
            parts.update(substitute(p, args) for p in sub)
        else:
            out = _tidy(parts)
    busy.discard(id(f))
    f._read_set = out
    return out


def _tidy(parts) -> tuple:
    """parts, sorted, with those another implies left out."""
    if ZONES in parts:      # (it changes with every zone: no zone's part need be asked)
        parts = {p for p in parts if not is_zone_part(p)}
    else:                   # (a name's part changes with each of its zones)
        parts = {p for p in parts if not (isinstance(p, ArgPart) and p.name in parts)}
    return tuple(sorted(parts, key=repr))


def reads_by_owner(rules) -> bool:
    """Does some memo key of the rules' definitions ask a zone's owner part
    (an ArgPart)? When none does the state need not keep them (kept on the
    rules: their definitions' keys are made once they are compiled)."""
    known = rules.__dict__.get("_reads_by_owner")
    if known is None:
        known = rules._reads_by_owner = any(
            isinstance(p, ArgPart) for f in rules.names.funcs.values()
            if f.kind == "expr" and not f.static and not f.cheap for p in key_parts(f) or ())
    return known


def key_parts(f):
    """The parts f's memo key asks (read_set's, an ElemPart read as ZONES); None: ALL,
    and for every zone and the occupancy, which change with almost every move
    (a key of the state's version is then as good, and cheaper to make)."""
    parts = read_set(f)
    if parts is None:
        return None
    parts = _tidy({ZONES if isinstance(p, ElemPart) else p for p in parts})
    return None if ZONES in parts and OCCUPANCY in parts else parts
