"""The helpers generated code calls while it runs (besides the primitives)."""

from __future__ import annotations

import itertools
from itertools import repeat
from operator import is_not

from ..errors import EvalError, NordError, did_you_mean
from .budget import SMALL, BudgetError, charge
from .builtins import ordered
from .trace import _describe, _fail, _kind, _show, _stmt_fail, _t, _tc

_COUNTER = itertools.count()     # numbers the names of generated functions, globals and locals


# A flow variable's read in generated code (expressions.py _Name; compiler.py _flow_reads_once
# finds these): in place, the call only for its error.
FLOW_READ = "(V[{0}] if {0} in V else _get(V, {0}))"


def _get(vars, name):
    try:
        return vars[name]
    except KeyError:
        raise EvalError(f"{name!r} has no value yet") from None


def _index(o, k, pos=None):
    """o[k]; a failure is placed at the key's text (`pos`). Items are
    counted from 0: a negative index does not count from the end, and a
    text has no items (as it has in Python)."""
    try:
        v = o[k]
    except (IndexError, KeyError):
        if isinstance(o, dict):
            hint = did_you_mean(str(k), map(str, o)) or f"entries: {', '.join(map(str, o))}"
            raise EvalError(f"no entry {k!r} in this table", pos, hint=hint) from None
        raise EvalError(f"index {k!r} out of range (0..{len(o) - 1})", pos) from None
    except TypeError as e:
        raise EvalError(_describe(e), pos) from None
    if k.__class__ is int and (k < 0 or o.__class__ is str) and not isinstance(o, dict):
        if o.__class__ is str:
            raise EvalError("wrong kind of value: a text cannot be indexed", pos)
        raise EvalError(f"index {k} out of range (0..{len(o) - 1})", pos,
                        hint="items are counted from 0; the last is xs[len(xs) - 1]")
    return v


_NUMBER = frozenset({int, float, bool})


def _arith(op, a, b):
    """A * or % of values that are not both numbers: an error (Python's
    would repeat a text or a list, or format a text)."""
    return EvalError(f"wrong kind of value: cannot use {op} on {_kind(type(a).__name__)} and {_kind(type(b).__name__)}",
                     hint=f"{op} takes numbers only")


def _mul(a, b):
    if a.__class__ in _NUMBER and b.__class__ in _NUMBER:
        return a * b
    raise _arith("*", a, b)


def _mod(a, b):
    if a.__class__ in _NUMBER and b.__class__ in _NUMBER:
        return a % b
    raise _arith("%", a, b)


def _attr(o, name, pos=None):
    if isinstance(o, dict):
        try:
            return o[name]
        except KeyError:
            raise EvalError(f"no field {name!r}", pos, hint=did_you_mean(name, o)) from None
    raise EvalError(f"{_show(o)} has no field {name!r}", pos)


def _unpack(x, n):
    if not isinstance(x, tuple) or len(x) != n:
        raise EvalError(f"cannot unpack {_show(x)} into {n} names")
    return x


def _unpacked(it, n):
    """The items of a loop that unpacks each into n names (what _each gave):
    a tuple or list itself when each item is a tuple of n (one pass, no
    call an item), else the items unpacked one by one as they come
    (_unpack: a generator, which fails where the loop's item does)."""
    if it.__class__ is tuple or it.__class__ is list:
        for x in it:
            if x.__class__ is not tuple or len(x) != n:
                break
        else:
            return it
    return (_unpack(x_, n) for x_ in it)


def _each(ctx, it, site):
    """The items of a loop's collection, in order (sets sorted), charged by
    their number; `site` is (position, width, text) of the expression that
    loops, for the error."""
    if it.__class__ is not tuple and it.__class__ is not list:
        it = ordered(it)
    b = ctx.budget
    try:
        left = b.left - len(it)
    except TypeError:           # (no collection: looping over it says so)
        return it
    b.left = left
    if left < 0:
        raise BudgetError(site[2], site[0], site[1])
    return it


def _each_seq(ctx, it, site):
    """_each of a collection the compiler knows to be a tuple or a list
    already in order (facts._is_seq): charged alike, with no test of it."""
    b = ctx.budget
    left = b.left - len(it)
    b.left = left
    if left < 0:
        raise BudgetError(site[2], site[0], site[1])
    return it


def _first_of_kind(ctx, zone, k, items, site):
    """first([x for x in items(zone) if kind(x) == k]) (lang/lookups.py): a
    pool read in place (_first_of_kind_in); an empty cell (no pool) holds
    nothing, as the primitive says; charged as the loop charges."""
    pool = ctx.state.pools.get(zone)
    if pool is not None:
        return _first_of_kind_in(ctx, pool, zone, k, items, site)
    if zone.__class__ is tuple and len(zone) == 4 and zone[0] in ctx.rules.grid_zones:
        return None
    return _first_listed(ctx, items(ctx, zone), k, site)


def _first_of_kind_in(ctx, pool, zone, k, items, site):
    """_first_of_kind of a zone whose pool the caller has looked up (most
    cells a rule looks at by kind hold a tile and a piece or two): a small
    pool read in place (the items primitive sorts a pool's items: of two
    of kind k, the first it gives)."""
    n = len(pool)
    if n > SMALL:
        return _first_listed(ctx, items(ctx, zone), k, site)
    b = ctx.budget
    left = b.left - n
    b.left = left
    if left < 0:
        raise BudgetError(site[2], site[0], site[1])
    found = None
    for x in pool:
        if x[0] == k:
            if found is not None:
                return next(x for x in items(ctx, zone) if x[0] == k)
            found = x
    return found


def _first_listed(ctx, its, k, site):
    """The first of kind k of a zone's items as the primitive lists them."""
    b = ctx.budget
    left = b.left - len(its)
    b.left = left
    if left < 0:
        raise BudgetError(site[2], site[0], site[1])
    for x in its:
        if x[0] == k:
            return x
    return None


def _amount_of_kind(ctx, zone, k, items, amount, site):
    """sum(amount(zone, x) for x in items(zone) if kind(x) == k) (lang/lookups.py):
    a pool read in place (_amount_of_kind_in), an empty cell's 0; charged as the loop charges."""
    pool = ctx.state.pools.get(zone)
    if pool is not None:
        return _amount_of_kind_in(ctx, pool, zone, k, items, amount, site)
    if zone.__class__ is tuple and len(zone) == 4 and zone[0] in ctx.rules.grid_zones:
        return 0
    return _amount_listed(ctx, zone, items(ctx, zone), k, amount, site)


def _amount_of_kind_in(ctx, pool, zone, k, items, amount, site):
    """_amount_of_kind of a zone whose pool the caller has looked up."""
    n = len(pool)
    if n > SMALL:
        return _amount_listed(ctx, zone, items(ctx, zone), k, amount, site)
    b = ctx.budget
    left = b.left - n
    b.left = left
    if left < 0:
        raise BudgetError(site[2], site[0], site[1])
    total = 0
    for x, m in pool.items():       # (a loop, not a comprehension: a few items, and no call)
        if x[0] == k:
            total += m
    return total


def _amount_listed(ctx, zone, its, k, amount, site):
    """The amount of kind k in a zone whose items the primitive listed."""
    b = ctx.budget
    left = b.left - len(its)
    b.left = left
    if left < 0:
        raise BudgetError(site[2], site[0], site[1])
    return sum([amount(ctx, zone, x) for x in its if x[0] == k])


def _in_slot(ctx, zone, i, slots, site):
    """first([x for j, x in slots(zone) if j == i]) (lang/lookups.py): a
    track's slot read in place; charged as the loop charges."""
    track = ctx.state.tracks.get(zone)
    its = slots(ctx, zone) if track is None else None      # (not a track: the primitive's error)
    b = ctx.budget
    left = b.left - (len(its) if its is not None else len(track) - track.count(None))
    b.left = left
    if left < 0:
        raise BudgetError(site[2], site[0], site[1])
    if its is None and i.__class__ is int:
        return track[i] if 0 <= i < len(track) else None     # (an empty slot holds None: no such pair)
    return next((x for j, x in (its if its is not None else enumerate(track)) if x is not None and j == i), None)


def _min2(ctx, a, b, site):
    """min([a, b]): b only when it is smaller (as min keeps the first of
    equals), the two items charged as _each charges a collection."""
    budget = ctx.budget
    budget.left -= 2
    if budget.left < 0:
        raise BudgetError(site[2], site[0], site[1])
    return b if b < a else a


def _max2(ctx, a, b, site):
    """max([a, b]), as _min2."""
    budget = ctx.budget
    budget.left -= 2
    if budget.left < 0:
        raise BudgetError(site[2], site[0], site[1])
    return b if b > a else a


# Operators whose work grows with their operands (see Expressions._small):
# each charges the size of the collection it makes or walks (numbers pass
# with a type test). A text or list doubled by + in a loop would otherwise
# fill the memory; `in` a tuple and == of collections take time in C.
_COLLECTIONS = frozenset({tuple, list, frozenset, str, dict})


def _plus(ctx, a, b):
    c = a + b
    if (c.__class__ is tuple or c.__class__ is str) and len(c) > SMALL:
        charge(ctx, len(c))
    return c


def _minus(ctx, a, b):
    if a.__class__ is frozenset and len(a) > SMALL:
        charge(ctx, len(a))
    return a - b


def _in(ctx, a, b):
    if (b.__class__ is tuple or b.__class__ is str or b.__class__ is list) and len(b) > SMALL:
        charge(ctx, len(b))
    return a in b


def _not_in(ctx, a, b):
    if (b.__class__ is tuple or b.__class__ is str or b.__class__ is list) and len(b) > SMALL:
        charge(ctx, len(b))
    return a not in b


def _eq(ctx, a, b):
    if a.__class__ in _COLLECTIONS and len(a) > SMALL:
        charge(ctx, len(a))
    return a == b


def _ne(ctx, a, b):
    if a.__class__ in _COLLECTIONS and len(a) > SMALL:
        charge(ctx, len(a))
    return a != b


_RUNTIME = {"_get": _get, "_index": _index, "_mul": _mul, "_mod": _mod, "_attr": _attr, "_unpack": _unpack,
            "_unpacked": _unpacked,
            "_ord": ordered, "_fail": _fail, "_stmt_fail": _stmt_fail, "_t": _t, "_tc": _tc, "NordError": NordError,
            "_frozenset": frozenset, "_tuple": tuple, "_next": next, "_iter": iter, "_each": _each,
            "_each_seq": _each_seq,
            "_first_of_kind": _first_of_kind, "_amount_of_kind": _amount_of_kind,
            "_first_of_kind_in": _first_of_kind_in, "_amount_of_kind_in": _amount_of_kind_in,
            "_in_slot": _in_slot, "_PLAIN_KEYS": frozenset({str, int}),
            "_min2": _min2, "_max2": _max2, "_any_of": any, "_all_of": all, "_sum_of": sum, "_map": map,
            "_len_of": len, "_abs_of": abs,
            "_is_not": is_not, "_falses": repeat(False),
            "_unset": object(),      # a value kept for a comprehension's items, not yet made (bindings.py)
            "_plus": _plus, "_minus": _minus, "_in": _in, "_not_in": _not_in, "_eq": _eq, "_ne": _ne}
