"""The registry of nordlang primitives.

Each primitive is one definition: its name, arity, what it is (a value
function, an aggregate over a generator, or an effect), its evaluator, a
doc line and an example. The compiler checks calls against it and
`docs/nordlang.md` is generated from it, so grammar, code and docs agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import repeat
from operator import is_not

from .budget import SMALL, charge, size

EXPR, AGG, EFFECT, BARE, LAZY = "expr", "aggregate", "effect", "bare", "lazy"


@dataclass(frozen=True)
class Builtin:
    name: str
    fn: object                 # fn(ctx, *args); aggregates get (ctx, iterable)
    kind: str = EXPR
    arity: tuple = (0, 0)      # (min, max); max None = any
    doc: str = ""
    example: str = ""
    group: str = "core"
    static: bool = False       # depends only on its arguments and the board, never on the position
    seq: bool = False          # returns a tuple or list, already in order: iterating it needs no sort
    inline: str | None = None  # the same as Python source, written into generated code instead of a call:
    #                            `ctx` is the context, {0}, {1}... the arguments (one named more than once
    #                            is written in only when simple), {fn} the primitive (for its uncommon cases)
    args: tuple = ()           # the kind of value each argument takes (a name of KINDS, or None: any)
    returns: str | None = None  # the kind of value it gives (a name of KINDS), when it is one
    fused: tuple = ()          # (primitive, fn): when argument 1 is a call of that primitive with one
    #                            argument x, the compiler calls fn(ctx, x, other arguments) instead:
    #                            the same value, without making the inner one; ("owner", fn) of a bare
    #                            value: its filter by a piece's owner, fn(ctx, p, owner, site), the value
    #                            made by fn only where it needs it (Shortcuts._owned_filter); ("owner
    #                            count", fn): that filter's length (Shortcuts._owned_count)
    distinct: str = ""         # "always": its value never holds a value twice; "keeps": not when its
    #                            first argument does not (a filter); "": not known


# Kinds of value a primitive's argument takes or its value is, checked when a
# rulebook loads: a literal where one is expected must be a value of the kind
# (the known names of a kind come from the rulebook: its terrains, features,
# structure kinds, piece kinds, sources of points, the board's structures and
# spaces); and a literal compared with a primitive's value must be one it can give.
KINDS = {
    "item": "an item, made by its kind's name: `coin()` (no tag) or `coin(p)`; no literal is one",
    "player": "a player: a number in turn order, from 0 (not a colour: the first colour is 0)",
    "structure": "a structure of the board, by its id (a text; spaces and ports are not literals)",
    "structure kind": "the name of a kind of structure the rulebook declares",
    "piece kind": "the name of a kind of piece the rulebook declares",
    "terrain": "the name of a terrain the rulebook declares",
    "feature": "the name of a feature the rulebook declares",
    "source": "the name of a source of points (the result's `sources`, when it names them)",
    "space name": "the name of a space of the board, like \"c4\"",
    "truth": "true or false (compared with a text, never equal)",
}


@dataclass
class Registry:
    items: dict = field(default_factory=dict)

    def add(self, b: Builtin) -> None:
        if b.name in self.items:
            raise ValueError(f"builtin {b.name!r} defined twice")
        self.items[b.name] = b

    def get(self, name):
        return self.items.get(name)

    def names(self):
        return self.items.keys()

    def define(self, name, kind=EXPR, arity=(0, 0), doc="", example="", group="core", static=True):
        """Decorator form of `add` (core primitives are pure: static)."""
        def deco(fn):
            self.add(Builtin(name, fn, kind, arity, doc, example, group, static))
            return fn
        return deco

    def kinds_markdown(self) -> str:
        """The reference's list of the kinds of value primitives declare."""
        used = {k for b in self.items.values() for k in (*b.args, b.returns) if k}
        unknown = used - set(KINDS)
        if unknown:       # (a registration naming a kind no one describes)
            raise ValueError(f"undescribed kinds of value: {sorted(unknown)}")
        return "".join(f"- *{k}*: {KINDS[k]}\n" for k in KINDS if k in used)

    def markdown(self) -> str:
        """The language reference's table of primitives, grouped."""
        out = []
        groups: dict = {}
        for b in self.items.values():
            groups.setdefault(b.group, []).append(b)
        for g in sorted(groups):
            out.append(f"\n### {g}\n\n| primitive | kind | doc | example |\n|---|---|---|---|")
            for b in sorted(groups[g], key=lambda b: b.name):
                lo, hi = b.arity
                sig = b.name if b.kind == BARE else f"{b.name}({_sig(lo, hi, b.args)})"
                if b.returns:
                    sig += f" -> {b.returns}"
                ex = f"`{b.example}`" if b.example else ""
                out.append(f"| `{sig}` | {b.kind} | {b.doc} | {ex} |")
        return "\n".join(out) + "\n"


def _sig(lo, hi, kinds=()):
    if hi is None:
        return f"{lo}+ args"

    def arg(i):
        kind = kinds[i] if i < len(kinds) else None
        return f"a{i + 1}: {kind}" if kind else f"a{i + 1}"
    return ", ".join(arg(i) if i < lo else f"[{arg(i)}]" for i in range(hi))


def sort_key(v):
    """A total, hash-independent order over runtime values (for sets)."""
    if v is None:
        return (0,)
    if isinstance(v, bool):
        return (1, v)
    if isinstance(v, (int, float)):
        return (2, v)
    if isinstance(v, str):
        return (3, v)
    if isinstance(v, tuple):
        return (4, len(v), tuple(sort_key(x) for x in v))
    if isinstance(v, frozenset):
        return (5, len(v), tuple(sorted(sort_key(x) for x in v)))
    return (9, repr(v))


def ordered(coll):
    """Iterate a collection deterministically: sets in sorted order."""
    t = type(coll)
    if t is tuple or t is list:          # (the common case, first)
        return coll
    if isinstance(coll, (frozenset, set)):
        try:
            return sorted(coll)
        except TypeError:
            return sorted(coll, key=sort_key)
    if isinstance(coll, dict):
        return list(coll)
    return coll


# (the aggregates' arguments from generated code: a list, or a generator for any and all,
# which need no ordering: they are taken as they are, without a call of `ordered`)
_GENERATOR = type(x for x in ())

CORE = Registry()
_d = CORE.define


def _agg(name, doc, example, returns=None):
    def deco(fn):
        CORE.add(Builtin(name, fn, AGG, (1, 1), doc, example, "aggregates", True, returns=returns))
        return fn
    return deco


@_agg("count", "number of items that are not false: of a collection, or those a generator keeps "
      "(`count(x > 0 for x in xs)` counts the true ones)", "count(s for s in spaces if occupied(s))")
def _count(ctx, it):
    # (the values that are not False, counted in C: true is 1; of a generator's list, written
    # into the generated code: expressions._DIRECT)
    return sum(map(is_not, it if it.__class__ is list else ordered(it), repeat(False)))


@_agg("sum", "sum of numbers", "sum(points(p) for p in players)")
def _sum(ctx, it):
    return sum(it if it.__class__ is list else ordered(it))


@_agg("min", "smallest value (none for an empty collection)", "min(x for x in [3, 1, 2])")
def _min(ctx, it):
    vals = it if it.__class__ is list or it.__class__ is tuple else list(ordered(it))
    return min(vals) if vals else None


@_agg("max", "largest value (none for an empty collection)", "max(x for x in [3, 1, 2])")
def _max(ctx, it):
    vals = it if it.__class__ is list or it.__class__ is tuple else list(ordered(it))
    return max(vals) if vals else None


@_agg("any", "true when some value is true", "any(x > 2 for x in [1, 3])", "truth")
def _any(ctx, it):
    return any(it if it.__class__ is _GENERATOR or it.__class__ is list else ordered(it))


@_agg("all", "true when every value is true", "all(x > 0 for x in [1, 3])", "truth")
def _all(ctx, it):
    return all(it if it.__class__ is _GENERATOR or it.__class__ is list else ordered(it))


@_agg("argmin", "the bound item whose value is smallest (first on ties)",
      "argmin(abs(x - 2) for x in [0, 1, 5])")
def _argmin(ctx, pairs):
    best = None
    for item, v in pairs:
        if best is None or v < best[1]:
            best = (item, v)
    return best[0] if best else None


@_agg("argmax", "the bound item whose value is largest (first on ties)",
      "argmax(x * x for x in [1, -3, 2])")
def _argmax(ctx, pairs):
    best = None
    for item, v in pairs:
        if best is None or v > best[1]:
            best = (item, v)
    return best[0] if best else None


ARG_AGGREGATES = {"argmin", "argmax"}


@_d("len", arity=(1, 1), doc="size of a collection", example="len([1, 2])", group="collections")
def _len(ctx, c):
    return len(c)


@_d("abs", arity=(1, 1), doc="absolute value", example="abs(-2)", group="numbers")
def _abs(ctx, x):
    return abs(x)


@_d("range", arity=(1, 2), doc="the integers lo..hi-1 (bounded)", example="range(1, 4)", group="collections")
def _range(ctx, a, b=None):
    lo, hi = (0, a) if b is None else (a, b)
    if hi - lo > RANGE_LIMIT:
        raise ValueError(f"range of {hi - lo} numbers is larger than the limit of {RANGE_LIMIT}")
    if hi - lo > SMALL:
        charge(ctx, hi - lo)
    return tuple(range(lo, hi))


RANGE_LIMIT = 100_000


@_d("enumerate", arity=(1, 1), doc="(index, item) pairs from 0", example="enumerate([7, 8])",
    group="collections")
def _enumerate(ctx, c):
    out = tuple(enumerate(ordered(c)))
    if len(out) > SMALL:
        charge(ctx, len(out))
    return out


@_d("sorted", arity=(1, 1), doc="the items in order", example="sorted([3, 1])", group="collections")
def _sorted(ctx, c):
    out = tuple(sorted(c, key=sort_key))
    if len(out) > SMALL:
        charge(ctx, len(out))
    return out


@_d("set", arity=(1, 1), doc="the distinct items", example="set([1, 1, 2])", group="collections")
def _set(ctx, c):
    out = frozenset(c)
    if len(out) > SMALL:
        charge(ctx, len(out))
    return out


@_d("list", arity=(1, 1), doc="the items as a list (sets in sorted order)", example="list(set([2, 1]))",
    group="collections")
def _list(ctx, c):
    out = tuple(ordered(c))
    if len(out) > SMALL:
        charge(ctx, len(out))
    return out


@_d("first", arity=(1, 2), doc="first item, or the default (none) when empty", example="first([4, 5])",
    group="collections")
def _first(ctx, c, default=None):
    if c.__class__ is tuple:            # (the common case, first)
        return c[0] if c else default
    if size(c) > SMALL:                 # (a set is sorted first)
        charge(ctx, size(c))
    for x in ordered(c):
        return x
    return default


# The layout (the board's spaces as bits: board/masks.py) whose sets union
# joins as bits, making one set at the end (the layout's own, kept by its
# bits): the last one that made a set. MASKED[0].bits_of(s) is a set's mask
# when that layout made it and keeps it, else None.
MASKED: list = [None]


def _union_of_bits(cs):
    """union of sets the last layout made and keeps, made on their bits;
    None when one is not such a set."""
    layout = MASKED[0]
    if layout is None:
        return None
    ids, made = layout.ids, layout.spaces_of
    m = 0
    for c in cs:
        k = ids.get(id(c))
        if k is None or made.get(k) is not c:
            return None
        m |= k
    return layout.spaces(m, cs)


@_d("union", arity=(1, 1), doc="union of a collection of collections", example="union([[1], [2]])",
    group="collections")
def _union(ctx, cs):
    if cs.__class__ is tuple and cs:
        out = _union_of_bits(cs)
        if out is not None:
            work = len(cs) + sum(map(len, cs))
            if work > SMALL:
                charge(ctx, work)
            return out
    out = set()
    work = 0
    for c in ordered(cs):
        out.update(c)
        work += len(c) + 1
    if work > SMALL:
        charge(ctx, work)
    return frozenset(out)


@_d("concat", arity=(1, 1), doc="join a collection of lists", example="concat([[1], [2, 3]])",
    group="collections")
def _concat(ctx, cs):
    out = []
    parts = 0
    for c in ordered(cs):
        out.extend(ordered(c))
        parts += 1
    if len(out) + parts > SMALL:
        charge(ctx, len(out) + parts)
    return tuple(out)


@_d("clamp", arity=(3, 3), doc="x limited to lo..hi", example="clamp(7, 0, 5)", group="numbers")
def _clamp(ctx, x, lo, hi):
    return max(lo, min(hi, x))


@_d("at", arity=(2, 3), doc="item i of a list (from 0), the last one past the end (or the default)",
    example="at([1, 2], 5)", group="collections")
def _at(ctx, seq, i, default=None):
    if i < 0:
        from ..errors import EvalError
        raise EvalError(f"at() counts items from 0, not from {i}",
                        hint="a negative index does not count from the end; the last item is at(xs, len(xs) - 1)")
    if seq.__class__ is not tuple and size(seq) > SMALL:
        charge(ctx, size(seq))
        seq = tuple(ordered(seq))
    if not seq:
        return default
    if default is not None and i >= len(seq):
        return default
    return seq[min(i, len(seq) - 1)]
