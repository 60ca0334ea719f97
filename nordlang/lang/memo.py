"""Memo policy: how calls of rulebook definitions are made.

A definition's value is memoised by its arguments and, unless it is
static, the versions of the parts of the position it reads (reads.py); a
definition cheap enough to run (or to inline) is not; a memo of position
values is on trial until it shows it pays (_make_trial).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import NordError, Pos
from . import ast as A
from .builtins import AGG, EFFECT, LAZY
from .lookups import is_lookup
from .names import Names
from .parser import parse
from .parts import ArgPart, AroundPart, is_value_part
from .reads import key_parts

# Memoised values of rulebook definitions, keyed by (definition, arguments,
# versions of the parts of the state it reads). Definitions see only their
# arguments and the state, so a value can be reused for as long as those
# parts are unchanged;
# static definitions (which never read the position) need no version and
# are kept apart, in _STATIC: their keys are few, and live for the process.
# The memo of the others is kept small (cleared when full): its values are
# seldom wanted once the game has moved on, and while they are kept they are
# work for Python's garbage collector, which a growing heap of containers
# sets off and whose full passes walk every one of them (with 200 000
# entries it took 10% of a random game's time, with 2 000 about 2%).
_MEMO: dict = {}
_MEMO_LIMIT = 2_000
_TRIAL = 500                # calls that decide whether a definition's memo pays (_make_trial)
_PAYS = 5                   # ... it pays when at least 1 call in _PAYS finds its value there
_REPEATS = 20               # ... else its last value kept alone pays when 1 call in _REPEATS asks it again
_STATIC: dict = {}
_STATIC_LIMIT = 100_000
_MISSING = object()

# primitives whose cost is worth memoising a definition that calls them
_HEAVY = {"groups", "shortest_paths", "frontier", "component", "union", "concat", "open_spaces", "regions_of",
          "linked_structures", "items", "occupied_spaces", "sorted", "enumerate", "range"}


def clear_memo() -> None:
    _MEMO.clear()
    _STATIC.clear()


@dataclass(eq=False)
class Func:
    """A rulebook definition (kind "expr") or effect procedure ("effect")."""

    name: str
    params: tuple
    kind: str
    body: object = None        # body(ctx) with the parameters in ctx.vars (for tools)
    pos: Pos | None = None
    deps: set = field(default_factory=set)
    dynamic: bool = False      # its body reads the position directly
    static: bool = False       # its value depends only on its arguments and the board
    py: object = None          # the compiled function py(ctx, *params)
    text: str | None = None    # its source text and where it is (for explanations)
    path: tuple = ()
    cheap: bool = False        # no loop or aggregate in its body: cheaper to run than to memoise
    tree: object = None        # a cheap definition's syntax tree, for callers to inline
    uses: dict = field(default_factory=dict)   # how often its body names each parameter
    inlines: set = field(default_factory=set)  # definitions written into its code
    seq: bool = False          # its value is a tuple or list, already in order
    original: Func | None = None   # the definition a variant's replaced (called as original(...))
    filter: object = None      # its body's tree when it is a filter `[x for x in C if T]` and reads the
                               # position: a caller's loop over its value loops over C (Expressions._fused_filter)
    reads: set = field(default_factory=set)     # the parts of the position its own text reads (reads.py)
    sites: set = field(default_factory=set)     # (definition, what its arguments show) its text calls (or inlines)
    _read_set: object = False  # the parts it reads, callees' included (reads.read_set): None for all
    _returns: object = False   # what its text shows of its value's zones (reads.returns)
    _inline_cost: object = False   # (nodes, calls) it writes into a caller (is_cheap): None if not cheap

    def __post_init__(self):
        self.call = self._generic_call

    def _generic_call(self, ctx, *args):
        """Call it before `finish` (while the rulebook is still being compiled)."""
        self.finish()
        return self.call(ctx, *args)

    def finish(self) -> None:
        """Choose how calls run, once `cheap` and `static` are known.

        Generated code calls `func.call(...)`, so the choice made here
        (direct, or memoised by arguments and, unless static, the versions
        of the parts of the position it reads) is made once, not on every
        call. A memo of position values is first on trial (see `_make_trial`).
        """
        f, py = self, self.py
        if self.kind == EFFECT or (self.cheap and not self.static):
            self.call = py
            return
        if not self.static:
            reads = key_parts(self)
            self.call = _memo_call(f, py, reads, len(self.params), trial=_make_trial(f, py, reads))
            return
        if not self.params:
            # no arguments: a constant once made (it reads nothing that changes), so that
            # its callers then pay for a call that returns it, no more
            def call(ctx):
                value = py(ctx)
                f.call = lambda ctx: value
                return value
        else:
            def call(ctx, *args):
                key = (f, args)
                try:
                    hit = _STATIC.get(key, _MISSING)
                except TypeError:      # an argument that cannot be a key
                    return py(ctx, *args)
                return _remember_static(key, py(ctx, *args)) if hit is _MISSING else hit
        self.call = call


# The memoised call of a definition that reads the position, made for its
# read set (written out: this runs on every call). Its key is the definition,
# its arguments and the versions of the parts it reads: the state's `base`
# (which changes when the position changes past what parts say) and each
# part's version (None while the part is as it was at `base`), a part an
# argument chooses (reads.ArgPart) asked of the argument; or, for a
# definition that reads everything, the state's version. A part that is a
# value (reads.AroundPart, RingPart: masks of the board) is asked as it
# is, and a key of such parts alone needs no `base`: it holds in any
# position, of any copy, where they are the same.
_CALL = """
def call(ctx{params}):
    st = ctx.state
    {get}try:
        key = (f, {args}{versions})
        hit = memo_get(key, _MISSING)
    except TypeError:          # an argument that cannot be a key
        return py(ctx{params})
    {count}if hit is _MISSING:
        hit = py(ctx{params})
        if len(memo) > _MEMO_LIMIT:       # (_remember written out)
            memo.clear()
        memo[key] = hit
    {answered}{decide}return hit
"""
# The call that keeps only the last key and value (see _make_trial), keyed alike.
_LAST = """
def call(ctx{params}):
    st = ctx.state
    {get}try:
        key = (f, {args}{versions})
    except TypeError:          # (a value part of an argument that cannot be a key)
        return py(ctx{params})
    if key == kept[0]:
        return kept[1]
    hit = kept[1] = py(ctx{params})
    kept[0] = key
    return hit
"""
_CODE: dict = {}            # source -> its code
_TRIAL_COUNT = "tally[0] += 1\n    "
# (a call that asks the last call's key again is one the memo answers: only those are compared)
_TRIAL_ANSWERED = ("else:\n        tally[1] += 1\n        if key == tally[3]:\n            tally[2] += 1\n"
                   "    tally[3] = key\n    ")
_TRIAL_DECIDE = ("if tally[0] >= _TRIAL:\n        f.call = memoised if _PAYS * tally[1] >= tally[0] else "
                 "last if _REPEATS * tally[2] >= tally[0] else py\n        tally[3] = None\n    ")


def _version_of(i, part) -> str:
    """The source of the version of key part i (`r{i}` in the call's globals: a part or a zone's name)."""
    if part.__class__ is AroundPart:
        a = f"a{part.index}"
        return f"(L[{a}] if {a} in L else (st.version,))"
    if is_value_part(part):     # (RingPart)
        return f"st.ring_taken(a{part.index})"
    if not isinstance(part, ArgPart):
        return f"g(r{i})"
    if part.name is None:     # (reads.owner_part, written out)
        a = f"a{part.index}"
        return f"g({a}[:2] if {a}.__class__ is tuple and {a} and {a}[0].__class__ is str else None)"
    return f"g((r{i}, a{part.index}))"


def _memo_call(f, py, reads, nparams, trial=None, last=False):
    """f's memoised call, keyed by `reads` (reads.key_parts; None: the state's
    version); with `trial` (the tally and the calls it settles on) the call on
    trial; with `last`, the call that keeps its last value only."""
    env = {"f": f, "py": py, "memo_get": _MEMO.get, "_MISSING": _MISSING, "memo": _MEMO, "_MEMO_LIMIT": _MEMO_LIMIT,
           "_TRIAL": _TRIAL, "_PAYS": _PAYS, "_REPEATS": _REPEATS, "kept": [None, None]}
    if reads is None:
        get, versions = "", "st.version"
    else:
        by_version = [r for r in reads if not is_value_part(r)]
        get = "g = st.parts.get\n    " if by_version else ""
        if any(r.__class__ is AroundPart for r in reads):
            get += "L = st.links.around\n    "
        env.update({f"r{i}": r.name if isinstance(r, ArgPart) else r for i, r in enumerate(reads)})
        versions = ", ".join((["st.base"] if by_version or not reads else [])
                             + [_version_of(i, r) for i, r in enumerate(reads)])
    count = answered = decide = ""
    if trial is not None:
        env["tally"], env["memoised"], env["last"] = trial
        count, answered, decide = _TRIAL_COUNT, _TRIAL_ANSWERED, _TRIAL_DECIDE
    params = "".join(f", a{i}" for i in range(nparams))
    # (one argument is the key's second item, several a tuple of them: a key's shape is its definition's)
    args = "" if nparams == 0 else "a0, " if nparams == 1 else "(" + "".join(f"a{i}, " for i in range(nparams)) + "), "
    src = (_LAST if last else _CALL).format(params=params, args=args, get=get,
                                            versions=versions, count=count, answered=answered, decide=decide)
    code = _CODE.get(src)
    if code is None:
        code = _CODE[src] = compile(src, "<memoised call>", "exec")     # (a few shapes: compiled once each)
    exec(code, env)
    return env["call"]


def _make_trial(f, py, reads):
    """(tally, memoised call, last-value call) for f's memoised call on
    trial: its first _TRIAL calls count how often the memo answers, and how
    often the key is the last call's. Under 1 in 5, calls go straight to
    the code from then on (a definition asked once per position, like the
    options of a random player's choice, was only paying for its memo; a
    small definition whose memo answers 1 call in 8, as one keyed by a cell
    may, still costs more in keys and stores than it saves: 1 in 5 saves
    2.4% of the instructions of a bundled game's random games over 1 in 10,
    and 1% of another's mcts positions, where 1 in 3 costs 1.5% more); but
    when 1 call in _REPEATS or more asks again what the last one did, to a
    call that keeps the last value alone: a key and a comparison a call, no
    memo entry (a while-test, then the choice's options, ask one value of a
    position the game leaves at once: 0.9% of Nord's random games'
    instructions). The values are the same either way: only the time differs."""
    return ([0, 0, 0, None], _memo_call(f, py, reads, len(f.params)),
            _memo_call(f, py, reads, len(f.params), last=True))


def by_position(fn):
    """fn(ctx) memoised by the state's version when it reads no flow variable
    (its value then depends on the position alone); else fn itself."""
    return fn if getattr(fn, "reads_flow", True) else _by_version(fn, fn)


def _by_version(tag, fn):
    """fn(ctx), memoised under (tag, the state's version)."""
    memo_get = _MEMO.get

    def call(ctx):
        key = (tag, ctx.state.version)
        hit = memo_get(key, _MISSING)
        return _remember(key, fn(ctx)) if hit is _MISSING else hit
    return call


def _remember(key, value):
    if len(_MEMO) > _MEMO_LIMIT:
        _MEMO.clear()
    _MEMO[key] = value
    return value


# remembered(key): the value a primitive kept under key (a tuple that starts with the primitive
# and holds the versions of the parts it read), or None. remember(key, value): keep a primitive's
# value (never None) under key, in the memo of definitions' values (cleared with it). (Both are the
# functions themselves, not calls of them: primitives ask them at every value; _MEMO is never replaced.)
remembered = _MEMO.get
remember = _remember


def _remember_static(key, value):
    if len(_STATIC) > _STATIC_LIMIT:
        _STATIC.clear()
    _STATIC[key] = value
    return value


def is_filter(tree) -> bool:
    """Is the text `[x for x in C if T...]`, a list of some of C's items,
    unchanged? (A caller looping over its value can loop over C and test
    T first: see Expressions._fused_filter.)"""
    if not (isinstance(tree, A.Comp) and tree.kind == "list" and len(tree.fors) == 1):
        return False
    cf = tree.fors[0]
    return len(cf.target) == 1 and isinstance(tree.elt, A.Name) and tree.elt.id == cf.target[0]


def is_cheap(tree, names: Names) -> bool:
    """No loop, aggregate or heavy primitive: an expression cheaper to
    run than to memoise, and small enough to inline (a let is Python's :=
    in the caller's code: a bundled tile game's edges and threats, written in, took
    4% fewer instructions a random game than called). It may call cheap
    definitions, written in in their turn (so that `wealth(p): 'coins(p) +
    points(p)'` runs without a call at each level), and one definition that
    is not cheap, which stays a call (memoised as it is: a memo of the
    caller's own would cost as much); with what it writes in it stays within
    _INLINE_NODES nodes, so that inlining cannot grow the code without bound."""
    return _inline_cost(tree, names, set()) is not None


# the nodes a cheap definition may hold with the cheap definitions it calls written in
_INLINE_NODES = 80


def _inline_cost(tree, names: Names, busy: set):
    """(nodes, calls): the nodes of tree with the cheap definitions it calls
    written in, and the calls of definitions that are not cheap it then
    makes; None when it is not cheap (a loop, aggregate or heavy
    primitive; more than one such call; past _INLINE_NODES once a cheap
    definition is written in)."""
    size, calls, grown = 0, 0, False
    for n in _nodes(tree, names):
        size += 1
        if isinstance(n, A.Comp):
            return None
        if isinstance(n, A.Call) and isinstance(n.func, A.Name):
            name = n.func.id
            f = names.funcs.get(name)
            if f is not None:
                sub = _callee_cost(f, names, busy)
                if sub is None:
                    calls += 1
                else:
                    size, calls, grown = size + sub[0], calls + sub[1], True
            elif name in _HEAVY or getattr(names.registry.get(name), "kind", None) in (AGG, LAZY):
                return None
    if calls > 1 or grown and size > _INLINE_NODES:
        return None
    return size, calls


def _nodes(tree, names: Names):
    """The nodes of tree, a lookup (lookups.is_lookup: one call of a helper,
    no loop) as Names, as many as its nodes: their size, and no work."""
    stack = [tree]
    while stack:
        n = stack.pop()
        if is_lookup(n, names):
            yield from (_LOOKUP for _ in A.walk(n))
            continue
        yield n
        stack.extend(_children(n))


_LOOKUP = A.Name(0, 0, 0, 0, "")


def _children(n):
    for value in n.__dict__.values():
        if isinstance(value, A.Node):
            yield value
        elif isinstance(value, tuple):
            for v in value:
                if isinstance(v, A.Node):
                    yield v
                elif isinstance(v, tuple):
                    yield from (w for w in v if isinstance(w, A.Node))


def _callee_cost(f: Func, names: Names, busy: set):
    """_inline_cost of definition f's body (kept on f); None when it is not
    cheap (or is a procedure, or its text does not parse: its own
    compilation says why)."""
    if f._inline_cost is not False:
        return f._inline_cost
    if f.kind != "expr" or not isinstance(f.text, str) or id(f) in busy:
        return None                  # (a circle of definitions is reported when the rulebook is checked)
    busy.add(id(f))
    try:
        cost = _inline_cost(parse(f.text, "expr"), names, busy)
    except NordError:
        cost = None
    busy.discard(id(f))
    f._inline_cost = cost
    return cost
