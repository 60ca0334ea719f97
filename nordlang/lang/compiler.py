"""Check nordlang syntax trees and compile them to Python functions.

Checking and compiling are one walk: every name is resolved (locals,
rulebook definitions, constants, builtins) and every call's arity checked
when the rulebook loads, so play never meets an unknown name and never
re-parses text. Each expression, definition and effect becomes the source
of one Python function (comprehensions become Python comprehensions,
locals become Python locals), compiled once with `compile`; primitives are
called directly. A runtime failure is reported at the file position of the
expression (or statement) it came from, with the definitions and procedures
it passed through and where each was called; finding them costs nothing
until something fails (an expression is then run again, traced: see _fail).
"""

from __future__ import annotations

import itertools
import re
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field

from ..errors import EvalError, LangError, NordError, Pos, did_you_mean
from . import ast as A
from .builtins import AGG, ARG_AGGREGATES, BARE, EFFECT, LAZY, ordered

# Memoised values of rulebook definitions, keyed by (definition, arguments,
# state version). Definitions see only their arguments and the state, so a
# value can be reused for as long as the state's version is unchanged;
# static definitions (which never read the position) need no version and
# are kept apart, in _STATIC: their keys are few, and live for the process.
# The memo of the others is kept small (cleared when full): its values are
# seldom wanted once the game has moved on, and while they are kept they are
# work for Python's garbage collector, which a growing heap of containers
# sets off and whose full passes walk every one of them (with 200 000
# entries it took 10% of a random game's time, with 2 000 about 2%).
_MEMO: dict = {}
_MEMO_LIMIT = 2_000
_TRIAL = 500                # calls that decide whether a definition's memo pays (Func._on_trial)
_STATIC: dict = {}
_STATIC_LIMIT = 100_000
_MISSING = object()
_COUNTER = itertools.count()

# primitives whose cost is worth memoising a definition that calls them
_HEAVY = {"groups", "shortest_paths", "frontier", "component", "union", "concat", "open_spaces", "regions_of",
          "linked_structures", "items", "occupied_spaces", "sorted", "enumerate", "range"}

_USES_VARS = re.compile(r"\bV\b")   # generated code that reads flow variables
_MARK = re.compile(r"  # at (_p\d+)$")   # a generated line's statement position (see Compiler.stmt)
_SHORT_CIRCUIT = {"any", "all"}   # aggregates that may stop early over a generator
_OPS = {"+", "-", "*", "/", "//", "%", "==", "!=", "<", "<=", ">", ">=", "in", "not in"}
_COMPARISONS = {"==", "!=", "<", "<=", ">", ">=", "in", "not in"}
_NUMBERS_ONLY = {"*": ("_mul", "multiplies"), "%": ("_mod", "gives the remainder of")}


def clear_memo() -> None:
    _MEMO.clear()
    _STATIC.clear()


class Ctx:
    """What an expression sees while it runs: the state and flow variables."""

    __slots__ = ("state", "rules", "vars", "budget")

    def __init__(self, state, rules, vars=None):
        self.state = state
        self.rules = rules
        self.vars = {} if vars is None else vars
        self.budget = None


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

    def __post_init__(self):
        self.call = self._generic_call

    def _generic_call(self, ctx, *args):
        """Call it before `finish` (while the rulebook is still being compiled)."""
        self.finish()
        return self.call(ctx, *args)

    def finish(self) -> None:
        """Choose how calls run, once `cheap` and `static` are known.

        Generated code calls `func.call(...)`, so the choice made here
        (direct, or memoised by arguments and, unless static, the state's
        version) is made once, not on every call. A memo of position values
        is first on trial (see `_on_trial`).
        """
        f, py = self, self.py
        if self.kind == EFFECT or (self.cheap and not self.static):
            self.call = py
            return
        memo_get = _MEMO.get
        if not self.params:
            # no arguments: the key is the definition (and the version), no argument tuple
            if self.static:
                def call(ctx):
                    hit = _STATIC.get(f, _MISSING)
                    return _remember_static(f, py(ctx)) if hit is _MISSING else hit
            else:
                call = self._on_trial(_by_version(f, py))
            self.call = call
            return
        if self.static:
            def call(ctx, *args):
                key = (f, args)
                try:
                    hit = _STATIC.get(key, _MISSING)
                except TypeError:      # an argument that cannot be a key
                    return py(ctx, *args)
                return _remember_static(key, py(ctx, *args)) if hit is _MISSING else hit
        else:
            def call(ctx, *args):
                key = (f, args, ctx.state.version)
                try:
                    hit = memo_get(key, _MISSING)
                except TypeError:      # an argument that cannot be a key
                    return py(ctx, *args)
                return _remember(key, py(ctx, *args)) if hit is _MISSING else hit
            call = self._on_trial(call)
        self.call = call

    def _on_trial(self, memoised):
        """The memoised call, on trial: its first _TRIAL calls count how often
        the memo answers; under 1 in 100, calls go straight to the code from
        then on (a definition asked once per position, like the options of a
        random player's choice, was only paying for its memo). The values are
        the same either way: only the time differs."""
        f, py = self, self.py
        memo_get = _MEMO.get
        tally = [0, 0]                 # calls, memo answers

        def trial(ctx, *args):
            key = (f, args, ctx.state.version)
            try:
                hit = memo_get(key, _MISSING)
            except TypeError:          # an argument that cannot be a key
                return py(ctx, *args)
            tally[0] += 1
            if hit is _MISSING:
                hit = _remember(key, py(ctx, *args))
            else:
                tally[1] += 1
            if tally[0] >= _TRIAL:
                f.call = memoised if 100 * tally[1] >= tally[0] else py
            return hit
        return trial


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


def _remember_static(key, value):
    if len(_STATIC) > _STATIC_LIMIT:
        _STATIC.clear()
    _STATIC[key] = value
    return value


@dataclass
class Names:
    """Everything a rulebook makes nameable, handed to the compiler."""

    registry: object
    constants: dict = field(default_factory=dict)
    funcs: dict = field(default_factory=dict)      # name -> Func
    constructors: dict = field(default_factory=dict)  # name -> (lo, hi): name(x) is the pair (name, x)
    known: dict = field(default_factory=dict)      # kind of value (builtins.KINDS) -> (what, the texts it may be)
    constructor_args: dict = field(default_factory=dict)  # constructor -> the kind of value its argument is
    used: set = field(default_factory=set)         # definitions and constants some text refers to
    literals: dict = field(default_factory=dict)   # (builtin, arg index) -> literal texts there (None: an expression)
    colors: tuple = ()                             # the players' colours, in turn order (for hints)

    def all_names(self):
        return (set(self.registry.names()) | set(self.constants) | set(self.funcs)
                | set(self.constructors))


# ---------------- runtime helpers the generated code calls ----------------
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


class Where:
    """What a compiled function's failure handler knows; none of it is used
    unless the function fails (so placing an error costs the play nothing)."""

    __slots__ = ("pos", "label", "lines", "source", "replay")

    def __init__(self, pos, label=None):
        self.pos = pos          # the position of the function's text
        self.label = label      # "definition f(x)", "procedure g(y)"; None for a rule's own text
        self.lines = None       # effects: generated line -> the position of the statement on it
        # expressions: what the replay is made from (its text, or its tree when there is no text;
        # the scope, the parameters, the names, locate, the definition), and the replay once made
        self.source = None
        self.replay = None

    def replayed(self, ctx, args):
        """Run the expression again, traced node by node (made when first needed:
        see Compiler._traced); None when it has no replay."""
        if self.replay is None:
            if self.source is None:
                return None
            self.replay = Compiler.traced(self)
        return self.replay(ctx, *args)


class _Replayed(BaseException):
    """Raised in a replay by the innermost node that failed: where it is
    (and, for a call of a definition, the definition and its arguments).
    A BaseException: the handlers of the code it passes through let it by."""

    def __init__(self, spot, func=None, args=()):
        super().__init__()
        self.spot, self.func, self.args = spot, func, args


_REPLAYING = [0]


def _t(spot, thunk):
    """A node of a replay: the first to fail (the innermost) says where it is."""
    try:
        return thunk()
    except Exception:
        raise _Replayed(spot) from None


def _tc(spot, f, ctx, *args):
    """A call of a definition in a replay (which fails inside the definition)."""
    try:
        return f.call(ctx, *args)
    except Exception:
        raise _Replayed(spot, f, args) from None


def _replay(where, ctx, args):
    """Run a failed expression again, traced: the node that fails first.
    Expressions change nothing, so they fail the same way again; the
    definitions they call are not placed again meanwhile (_REPLAYING)."""
    _REPLAYING[0] += 1
    try:
        where.replayed(ctx, args)
    except _Replayed as r:
        return r
    except Exception:       # pragma: no cover - a replay fails at one of its nodes
        return None
    finally:
        _REPLAYING[0] -= 1
    return None             # pragma: no cover - (it did not fail again)


def _line_of_statement(e, where):
    """Effects: the statement whose generated line failed, read off the traceback."""
    here, tb = None, e.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == where.lines[0]:
            here = where.lines.get(tb.tb_lineno, here)
        tb = tb.tb_next
    return here


def _place(e, spot, where):
    """The error e arose in this function, at spot (position, width)."""
    pos, width = spot
    if isinstance(e, NordError):
        if e.pos is None or e.pos.line is None:      # (helpers such as _index place their own)
            e.pos, e.width = pos, width
        err = e
    elif isinstance(e, RecursionError):
        err = EvalError("the expression nests too deeply", pos)
    else:
        err = EvalError(_describe(e), pos, width=width)
    err.frames = [(where.label, None)] if where.label else []
    err.last = where
    return err


def _passed(e, where, site):
    """The error e came from a function this one called, at site: say so (once)."""
    if e.last is not where:
        e.frames.append((where.label, site))
        e.last = where
    return e


def _fail(e, where, ctx=None, *args):
    """Turn any exception from generated code into a NordError placed at the
    text where it arose (an expression is replayed, traced, to find the node
    that fails; an effect's statement is read off the traceback), which
    names the definitions and procedures it passed through and where each
    was called from: its `frames`, innermost first."""
    if _REPLAYING[0]:
        return e                # (a replay asks only which node of its own function failed)
    traced = where.source is not None and ctx is not None and not isinstance(e, RecursionError)
    if isinstance(e, NordError) and e.frames is not None:
        # placed by a definition or procedure this one called: where did it call it?
        if e.last is where:
            return e
        site = None
        if traced:
            r = _replay(where, ctx, args)
            site = r.spot[0] if r is not None else None
        elif where.lines:
            site = _line_of_statement(e, where)
        return _passed(e, where, site or where.pos)
    spot = None
    if traced:
        r = _replay(where, ctx, args)
        if r is not None:
            if r.func is not None:
                # a definition written into this function's code fails: place it there
                inner = _again(r.func, ctx, r.args)
                if inner is not None:
                    return _passed(inner, where, r.spot[0])
            spot = r.spot
    elif where.lines:
        here = _line_of_statement(e, where)
        spot = (here, 1) if here is not None else None
    return _place(e, spot or (where.pos, 1), where)


def _again(f, ctx, args):
    """Run a definition that failed inside a caller's code, on its own: the
    error it raises is placed in its own text."""
    try:
        f.py(ctx, *args)
    except NordError as placed:
        return placed if placed.frames is not None else None
    except Exception:       # pragma: no cover - its own handler turns every failure into a NordError
        return None
    return None             # pragma: no cover - (it did not fail again)


def _stmt_fail(e, pos, where):
    """A statement of effects failed: here, or in what it called."""
    if isinstance(e, NordError) and e.frames is not None:
        return _passed(e, where, pos)
    return _place(e, (pos, 1), where)


_RUNTIME = {"_get": _get, "_index": _index, "_mul": _mul, "_mod": _mod, "_attr": _attr, "_unpack": _unpack,
            "_ord": ordered, "_fail": _fail, "_stmt_fail": _stmt_fail, "_t": _t, "_tc": _tc, "NordError": NordError,
            "_frozenset": frozenset, "_tuple": tuple}


def is_cheap(tree, names: Names) -> bool:
    """No loop, aggregate, let, heavy primitive or call of a definition: an
    expression cheaper to run than to memoise, and small enough to inline."""
    return not any(isinstance(n, (A.Comp, A.LetIn)) or
                   isinstance(n, A.Call) and isinstance(n.func, A.Name) and
                   (n.func.id in names.funcs or n.func.id in _HEAVY or
                    getattr(names.registry.get(n.func.id), "kind", None) in (AGG, LAZY))
                   for n in A.walk(tree))


class Compiler:
    """Compile nordlang trees; `locate` maps positions inside the text to the file."""

    def __init__(self, names: Names, locate=None, current: Func | None = None, text: str | None = None):
        self.names = names
        self.text = text          # the text the trees given were parsed from (as an expression), if known
        self.locate = locate or (lambda line, col: Pos(None, line, col))
        self.current = current
        self.errors: list[NordError] = []
        self.env: dict = dict(_RUNTIME)
        self._n = 0
        self.inline = True        # inline cheap definitions (expressions only: they can run twice)
        self.inlined = False      # some definition was inlined into the function being made
        self.tracing = False      # making a replay: each node says where it is when it fails (see _fail)
        self.where = None         # the Where of the effects being made (their statements' handlers name it)
        self._where_names: dict = {}

    # -- helpers --
    def pos(self, node) -> Pos:
        return self.locate(node.line, node.col)

    def error(self, node, msg, hint=None, expected=None):
        width = node.end_col - node.col if node.end_line == node.line else 1
        self.errors.append(LangError(msg, self.pos(node), hint=hint, expected=expected, width=max(1, width)))
        return "None"

    def bind_where(self, where) -> str:
        """The global holding a function's Where (one for all its handlers)."""
        name = self._where_names.get(id(where))
        if name is None:
            name = self._where_names[id(where)] = self.bind(where, "w")
        return name

    def bind(self, value, prefix="k") -> str:
        """A global of the generated code holding `value`."""
        name = f"_{prefix}{next(_COUNTER)}"
        self.env[name] = value
        return name

    def _uses(self, b):
        if not b.static and self.current is not None:
            self.current.dynamic = True

    def _dep(self, name):
        self.names.used.add(name)
        if self.current is not None:
            self.current.deps.add(name)

    # -- public entry points (closures of ctx) --
    def _deep(self, node):
        self.errors.append(LangError("the text nests too deeply to compile", self.pos(node),
                                     hint="split it into definitions"))
        return lambda ctx, *a: None

    def expr(self, node, scope: frozenset):
        """A function fn(ctx) evaluating an expression; `scope` names flow variables."""
        self.inlined = False
        try:
            src = self.gen(node, scope, {})
        except RecursionError:
            return self._deep(node)
        where = Where(self.pos(node))
        self._replayable(where, node, scope)
        fn = self._function(f"return {src}", where)
        fn.reads_flow = bool(_USES_VARS.search(src))
        return fn

    @contextmanager
    def _no_inlining(self, tracing=False):
        """Calls of definitions stay calls: in effects (which cannot run again
        to place an error precisely) and in the replay of an expression."""
        self.inline, self.tracing = False, tracing
        try:
            yield
        finally:
            self.inline, self.tracing = True, False

    def block(self, stmts, scope: frozenset):
        """A function fn(ctx) running effects."""
        self.where = where = Where(self.pos(stmts[0]) if stmts else None)
        try:
            with self._no_inlining():
                lines = self.stmts(stmts, scope, {}, 1)
        except RecursionError:
            return self._deep(stmts[0])
        return self._function("\n".join(lines) if lines else "pass", where)

    def _replayable(self, where, tree, scope, params=()):
        """Keep what it takes to replay the expression (see _fail): its text
        rather than its tree when there is one (fewer objects for the
        collector to visit while the game plays)."""
        where.source = (self.text if self.text is not None else tree, scope, params, self.names, self.locate,
                        self.current)

    @staticmethod
    def traced(where):
        """The expression of `where`, traced node by node and without
        inlining: run again after a failure, it finds the node that failed."""
        from .parser import parse
        src, scope, params, names, locate, current = where.source
        tree = parse(src, "expr") if isinstance(src, str) else src
        c = Compiler(names, locate, current)
        local = {p: f"v_{p}" for p in params}
        with c._no_inlining(tracing=True):
            return c._function(f"return {c.gen(tree, scope, local)}", where, args="".join(f", v_{p}" for p in params))

    def function(self, func: Func, tree, mode: str):
        """Compile a definition or procedure body into func.py(ctx, *params)."""
        local = {p: f"v_{p}" for p in func.params}
        args = "".join(f", v_{p}" for p in func.params)
        try:
            return self._function_body(func, tree, mode, local, args)
        except RecursionError:
            func.py = self._deep(tree if mode == "expr" else tree[0])
            func.body = func.py
            return func.py

    def _function_body(self, func, tree, mode, local, args):
        label = f"{'definition' if mode == 'expr' else 'procedure'} {func.path[1] if func.path else func.name}"
        if mode == "expr":
            func.cheap = is_cheap(tree, self.names)
            self.inlined = False
            body = f"return {self.gen(tree, frozenset(), local)}"
            where = Where(self.pos(tree), label)
            self._replayable(where, tree, frozenset(), func.params)
        else:
            self.where = where = Where(self.pos(tree[0]) if tree else None, label)
            with self._no_inlining():
                lines = self.stmts(tree, frozenset(), local, 1)
            body = "\n".join(lines) if lines else "pass"
        func.py = self._function(body, where, args=args)
        if mode == "expr":
            func.seq = self._is_seq(tree, frozenset(), local)
        if mode == "expr" and func.cheap and not self.errors:
            # small enough to be written into its callers (see _inline)
            func.tree = tree
            func.uses = {p: sum(1 for n in A.walk(tree) if isinstance(n, A.Name) and n.id == p)
                         for p in func.params}
        params = func.params
        py = func.py

        def body_from_vars(ctx):
            return py(ctx, *[ctx.vars[p] for p in params])
        func.body = body_from_vars
        return func.py

    def _function(self, body, where: Where, args=""):
        """Compile generated source into a function; a failure is placed by
        _fail with what `where` knows (nothing of it runs unless it fails)."""
        if self.errors:
            return lambda ctx, *a: None
        pos = where.pos
        name = f"_nl{next(_COUNTER)}"
        filename = f"<nordlang {pos}>" + (" (replay)" if self.tracing else "")
        head = [f"def {name}(ctx{args}):"] + (["  V = ctx.vars"] if _USES_VARS.search(body) else []) + ["  try:"]
        body_lines = body.split("\n")
        # statements marked with their position (see stmt): a failure names its line
        marks = {len(head) + i + 1: self.env[m[1]] for i, line in enumerate(body_lines)
                 if (m := _MARK.search(line))}
        if marks:
            where.lines = {0: filename, **marks}
        src = ("\n".join(head) + "\n"
               + "\n".join("    " + line for line in body_lines) + "\n"
               f"  except Exception as e:\n"
               f"    raise _fail(e, {self.bind_where(where)}, ctx{args}) from None\n")
        try:
            with warnings.catch_warnings():
                # (Python's own warnings on the generated code, like "'int' object is not
                # subscriptable" for tag(5), are not the user's words: running it says so in ours)
                warnings.simplefilter("ignore", SyntaxWarning)
                code = compile(src, filename, "exec")
        except (SyntaxError, RecursionError, MemoryError):
            self.errors.append(LangError("this text is too deeply nested to compile", pos))
            return lambda ctx, *a: None
        exec(code, self.env)
        return self.env[name]

    # -- expressions: each returns Python source --
    def gen(self, node, scope, local) -> str:
        m = getattr(self, "_" + type(node).__name__)
        src = m(node, scope, local)
        if self.tracing and not isinstance(node, A.Const) and not (isinstance(node, A.Name) and node.id in local):
            return f"_t({self._spot(node)}, lambda: {src})"
        return src

    def _spot(self, node) -> str:
        """(position, width) of a node's text, for a replay to name."""
        width = node.end_col - node.col if node.end_line == node.line else 1
        return self.bind((self.pos(node), max(1, width)), "t")

    def _Const(self, node, scope, local):
        v = node.value
        if v is None or isinstance(v, (bool, int, float)):
            return repr(v)
        return self.bind(v)

    def _Name(self, node, scope, local):
        name = node.id
        if name in local:
            return local[name]
        if name in scope:
            return f"_get(V, {name!r})"
        if name in self.names.constants:
            self.names.used.add(name)
            return self.bind(self.names.constants[name])
        f = self.names.funcs.get(name)
        if f is not None:
            if f.params:
                return self.error(node, f"{name!r} needs {len(f.params)} argument(s): {name}({', '.join(f.params)})")
            if f.kind == EFFECT:
                return self.error(node, f"{name!r} is an effect; it cannot be used as a value")
            self._dep(name)
            if self.tracing:
                return f"_tc({self._spot(node)}, {self.bind(f, 'f')}, ctx)"
            return f"{self.bind(f, 'f')}.call(ctx)"
        b = self.names.registry.get(name)
        if b is not None and b.kind == BARE:
            self._uses(b)
            if b.inline is not None:
                return f"({b.inline})"
            return f"{self.bind(b.fn, 'b')}(ctx)"
        if b is not None or name in self.names.constructors:
            return self.error(node, f"{name!r} is a function; call it with arguments: {name}(...)")
        if name in self.names.colors:
            return self.error(node, f"unknown name {name!r}",
                              hint=f"{name!r} is a player's colour: in expressions a player is a number in turn "
                                   f"order ({name} is {self.names.colors.index(name)})")
        if name.lower() in ("true", "false", "none"):     # Python's True, False, None
            return self.error(node, f"unknown name {name!r}",
                              hint=f"did you mean {name.lower()!r}? true, false and none are written in lower case")
        return self.error(node, f"unknown name {name!r}",
                          hint=did_you_mean(name, self.names.all_names() | scope | set(local)))

    def _TupleX(self, node, scope, local):
        items = [self.gen(x, scope, local) for x in node.items]
        return "(" + "".join(f"{i}, " for i in items) + ")"

    _ListX = _TupleX

    def _comp(self, comp: A.Comp, scope, local, elt_gen):
        """(clauses source, inner locals) of a comprehension's for/if clauses."""
        parts = []
        local = dict(local)
        for cf in comp.fors:
            it = self.gen(cf.iter, scope, local)
            names = []
            for n in cf.target:
                local[n] = f"v_{n}_{next(_COUNTER)}"
                names.append(local[n])
            if not self._is_seq(cf.iter, scope, local):
                it = f"_ord({it})"
            if self.tracing:        # (a value that is no collection fails at its own text)
                it = f"_t({self._spot(cf.iter)}, lambda: _tuple({it}))"
            if len(names) == 1:
                parts.append(f"for {names[0]} in {it}")
            else:
                parts.append(f"for ({', '.join(names)}) in (_unpack(x_, {len(names)}) for x_ in {it})")
            for c in cf.conds:
                parts.append(f"if {self.test(c, scope, local)}")
        return elt_gen(local), " ".join(parts)

    def _is_seq(self, node, scope, local) -> bool:
        """Is the value a tuple or list already in order (so a loop over it
        needs no sorting)? Only what is known when compiling says yes."""
        if isinstance(node, (A.ListX, A.TupleX)):
            return True
        if isinstance(node, A.Comp):
            return node.kind != "set"
        name = node.id if isinstance(node, A.Name) else \
            node.func.id if isinstance(node, A.Call) and isinstance(node.func, A.Name) else None
        if name is None or name in local or name in scope:      # a variable: any value
            return False
        f = self.names.funcs.get(name)
        if f is not None:
            return f.seq and (isinstance(node, A.Call) or not f.params)
        b = self.names.registry.get(name)
        return b is not None and b.seq and (isinstance(node, A.Call) or b.kind == BARE)

    def _Comp(self, node, scope, local):
        elt, clauses = self._comp(node, scope, local, lambda loc: self.gen(node.elt, scope, loc))
        if node.kind == "set":
            return f"_frozenset([{elt} {clauses}])"
        return f"_tuple([{elt} {clauses}])"

    def _Call(self, node, scope, local):
        if not isinstance(node.func, A.Name):
            return self.error(node, "only named functions can be called")
        name = node.func.id
        nargs = len(node.args)
        if name in scope or name in local:
            return self.error(node, f"{name!r} is a variable, not a function")
        b = self.names.registry.get(name)
        f = self.names.funcs.get(name)
        cons = self.names.constructors.get(name)
        if f is not None:
            if f.kind == EFFECT:
                return self.error(node, f"{name!r} is an effect; use it as a statement, not inside an expression")
            return self._call_func(node, f, scope, local)
        if cons is not None:
            lo, hi = cons
            if node.gen is not None or not lo <= nargs <= hi:
                return self.error(node, f"{name}() takes {_arity_words(lo, hi)}, got {nargs}")
            kind = self.names.constructor_args.get(name)
            if kind and node.args:
                self._check_arg(node.args[0], kind, name, 0, scope, local)
            # an item or a player's zone is the pair (name, tag): built in place, no call
            if not node.args:
                return self.bind((name, None), "c")
            return f"({name!r}, {self.gen(node.args[0], scope, local)})"
        if b is None:
            return self.error(node.func, f"unknown function {name!r}",
                              hint=did_you_mean(name, self.names.all_names()))
        if b.kind == EFFECT:
            return self.error(node, f"{name!r} is an effect; use it as a statement, not inside an expression")
        if b.kind == BARE:
            return self.error(node, f"{name!r} is a value, not a function: write {name} without parentheses")
        self._uses(b)
        fn = self.bind(b.fn, "b")
        lo, hi = b.arity
        if b.kind == LAZY:
            if node.gen is not None or not lo <= nargs <= hi:
                return self.error(node, f"{name}() takes {_arity_words(lo, hi)}, got {nargs}")
            thunks = ", ".join(f"(lambda ctx: {self.gen(a, scope, local)})" for a in node.args)
            return f"{fn}(ctx, {thunks})"
        if b.kind == AGG:
            if node.gen is not None:
                comp = node.gen
                if name in ARG_AGGREGATES:
                    if len(comp.fors) != 1 or len(comp.fors[0].target) != 1:
                        return self.error(node, f"{name}(value for x in collection) binds exactly one name")
                    var = comp.fors[0].target[0]
                    elt, clauses = self._comp(comp, scope, local,
                                              lambda loc: f"({loc[var]}, {self.gen(comp.elt, scope, loc)})")
                else:
                    # (any and all only test each value: it need not be made true or false)
                    gen = self.test if name in _SHORT_CIRCUIT else self.gen
                    elt, clauses = self._comp(comp, scope, local, lambda loc: gen(comp.elt, scope, loc))
                if name in _SHORT_CIRCUIT:
                    return f"{fn}(ctx, ({elt} {clauses}))"     # a generator: stops at the first answer
                return f"{fn}(ctx, [{elt} {clauses}])"
            if nargs == 1:
                if name in ARG_AGGREGATES:
                    return self.error(node, f"{name} needs a generator: {name}(value for x in collection)")
                return f"{fn}(ctx, {self.gen(node.args[0], scope, local)})"
            return self.error(node, f"{name}() takes one collection or a generator, got {nargs} arguments")
        if node.gen is not None:
            return self.error(node, f"{name}() does not take a generator; only aggregates do")
        if nargs < lo or (hi is not None and nargs > hi):
            return self.error(node, f"{name}() takes {_arity_words(lo, hi)}, got {nargs}",
                              hint=b.example and f"for example: {b.example}")
        self._check_literals(name, node, b, scope, local)
        if b.inline is not None:
            return "(" + b.inline.format(*[f"({self.gen(a, scope, local)})" for a in node.args]) + ")"
        args = [self.gen(a, scope, local) for a in node.args]
        fused = self._fused(b, node, scope, local)
        if fused is not None:
            fn, args[0] = fused
        return f"{fn}(ctx{''.join(', ' + a for a in args)})"

    def _fused(self, b, node, scope, local):
        """(function, source of its first argument) when the call's first
        argument is a call its primitive has a fused form for (Builtin.fused),
        else None. Not while tracing: a replay places an error at the inner
        call's own text."""
        if not b.fused or self.tracing:
            return None
        inner = node.args[0]
        if not (isinstance(inner, A.Call) and isinstance(inner.func, A.Name) and inner.gen is None
                and len(inner.args) == 1):
            return None
        name = inner.func.id
        if name in scope or name in local or name in self.names.funcs or name in self.names.constructors:
            return None
        fn = dict(b.fused).get(name)
        if fn is None or self.names.registry.get(name) is None:
            return None
        return self.bind(fn, "b"), self.gen(inner.args[0], scope, local)

    def _check_literals(self, name, node, b, scope, local):
        """Arguments checked against the kinds of value the primitive declares
        (and every literal text a primitive is given, kept by primitive and
        argument: the names of counters a rulebook uses, for instance)."""
        for i, a in enumerate(node.args):
            literal = isinstance(a, A.Const) and isinstance(a.value, str)
            self.names.literals.setdefault((name, i), set()).add(a.value if literal else None)
            if i < len(b.args) and b.args[i]:
                self._check_arg(a, b.args[i], name, i, scope, local)

    def _check_arg(self, a, kind, name, i, scope, local):
        """Argument i of name(...) must be a value of `kind`: a literal one
        the rulebook knows, or an expression that can give one."""
        if isinstance(a, A.Const):
            problem = self._not_of_kind(a.value, kind)
            if problem:
                msg, expected, hint = problem
                self.error(a, f"{msg} (argument {i + 1} of {name}())", expected=expected, hint=hint)
            return
        got = self._kind_of(a, scope, local)
        if got and got != kind and {got, kind} & _NOT_TEXT:
            self.error(a, f"this gives {_KIND_WORDS.get(got, 'a ' + got)}, but argument {i + 1} of {name}() "
                          f"is {_KIND_WORDS.get(kind, 'a ' + kind)}", hint=_MIXED_HINTS.get((got, kind)))

    def _not_of_kind(self, v, kind):
        """(message, expected, hint) when the literal v is no value of `kind`, else None."""
        shown = "none" if v is None else repr(v).lower() if isinstance(v, bool) else repr(v)
        known = self.names.known
        if kind == "truth":
            if isinstance(v, str):
                return f"{v!r} is not true or false", None, "compare with true or false, or use the condition alone"
            return None
        if kind == "player":
            if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < max(len(self.names.colors), 1):
                return None
            colors = self.names.colors
            hint = f"a player is a number in turn order; {v} is {colors.index(v)}" if v in colors else \
                "a player is a number in turn order, from 0" + (f" ({colors[0]} is 0)" if colors else "")
            return f"{shown} is not a player", None, hint
        if kind == "item":
            kinds = known.get("piece kind", ("", ()))[1]
            hint = f"an item is made by its kind: {v}() (without a tag) or {v}(p) (player p's)" \
                if isinstance(v, str) and v in kinds else "an item is made by its kind, like " + \
                ", ".join(f"{k}()" for k in sorted(kinds)[:3]) if kinds else None
            return f"{shown} is not an item", None, hint
        spec = known.get(kind)
        if spec is None or v is None or (isinstance(v, str) and v in spec[1]):
            return None
        what, allowed = spec
        hint = did_you_mean(v, allowed) if isinstance(v, str) else None
        if kind == "structure" and isinstance(v, str) and v in known.get("structure kind", ("", ()))[1]:
            hint = f"{v!r} is a kind of structure, not a structure: its structures are structures({v!r})"
        names = sorted(allowed)
        return f"{shown} is not a {what}", ", ".join(names) if len(names) <= 12 else None, hint

    def _kind_of(self, node, scope, local):
        """The kind of value (builtins.KINDS) an expression gives, when the
        compiler knows it: a primitive's declared value, or an item made by
        its kind's name."""
        if isinstance(node, A.Call) and isinstance(node.func, A.Name):
            name = node.func.id
            if name in local or name in scope or name in self.names.funcs:
                return None
            b = self.names.registry.get(name)
            if b is not None:
                return b.returns
            if name in self.names.constructors and name in self.names.known.get("piece kind", ("", ()))[1]:
                return "item"
        if isinstance(node, A.Name) and not (node.id in local or node.id in scope or node.id in self.names.funcs):
            b = self.names.registry.get(node.id)
            if b is not None and b.kind == BARE:
                return b.returns
        return None

    def _check_compare(self, node, scope, local):
        """`terrain(s) == "forrest"`, `owner(x) == "red"`: a literal compared
        with a value that can never be it; or two values of kinds that never meet."""
        for call, other in ((node.left, node.right), (node.right, node.left)):
            kind = self._kind_of(call, scope, local)
            if kind is None or not isinstance(other, A.Const) or other.value is None:
                continue
            problem = self._not_of_kind(other.value, kind)
            if problem:
                msg, expected, hint = problem
                if kind == "item" and isinstance(other.value, str) and \
                        other.value in self.names.known.get("piece kind", ("", ()))[1]:
                    hint = f"to compare an item's kind, write kind(...) == {other.value!r}"
                self.error(other, f"{msg}, so this comparison is never true", expected=expected, hint=hint)
            return
        left, right = self._kind_of(node.left, scope, local), self._kind_of(node.right, scope, local)
        if left and right and left != right and {left, right} & _NOT_TEXT:
            self.error(node, f"this compares {_KIND_WORDS.get(left, 'a ' + left)} with "
                             f"{_KIND_WORDS.get(right, 'a ' + right)}: it is never true",
                       hint=_MIXED_HINTS.get((left, right)) or _MIXED_HINTS.get((right, left)))

    def _call_func(self, node, f: Func, scope, local):
        if node.gen is not None or len(node.args) != len(f.params):
            return self.error(node, f"{f.name}() takes {len(f.params)} argument(s) ({', '.join(f.params)}), "
                                    f"got {len(node.args)}")
        self._dep(f.name)
        if f.tree is not None and self.inline:
            src = self._inline(node, f, scope, local)
            if src is not None:
                return src
        args = "".join(", " + self.gen(a, scope, local) for a in node.args)
        if self.tracing:
            return f"_tc({self._spot(node)}, {self.bind(f, 'f')}, ctx{args})"
        return f"{self.bind(f, 'f')}.call(ctx{args})"

    def _inline(self, node, f: Func, scope, local):
        """A cheap definition's body written in place of the call, its
        parameters replaced by the arguments' code; None when an argument
        would be skipped (an unused parameter) or computed twice (a
        parameter named more than once, given more than a name or constant)."""
        for p, a in zip(f.params, node.args):
            n = f.uses.get(p, 0)
            if n == 0 or (n > 1 and not self._simple(a, scope, local)):
                return None
        sub = {p: f"({self.gen(a, scope, local)})" for p, a in zip(f.params, node.args)}
        self.inlined = True
        if self.current is not None:
            self.current.inlines.add(f.name)
        return f"({self.gen(f.tree, frozenset(), sub)})"

    def _simple(self, node, scope, local) -> bool:
        """A name or constant: as cheap to compute twice as to keep."""
        if isinstance(node, A.Const):
            return True
        if isinstance(node, A.Name):
            b = self.names.registry.get(node.id)
            return (node.id in local or node.id in scope or node.id in self.names.constants
                    or (b is not None and b.kind == BARE))
        return False

    def _constant(self, node, scope, local):
        if isinstance(node, A.Name) and node.id not in scope and node.id not in local \
                and node.id in self.names.constants:
            return True, self.names.constants[node.id]
        return False, None

    def _Index(self, node, scope, local):
        known, table = self._constant(node.obj, scope, local)
        if isinstance(node.obj, A.Const) and isinstance(node.obj.value, str):
            self.error(node.obj, "a text has no items: it cannot be indexed")
        if isinstance(node.key, A.Neg) and isinstance(node.key.operand, A.Const) \
                and type(node.key.operand.value) in (int, float):
            self.error(node.key, f"index {_show(-node.key.operand.value)} is below 0: items are counted from 0",
                       hint="a negative index does not count from the end; the last item is xs[len(xs) - 1]")
        if known and isinstance(node.key, A.Const):
            k = node.key.value
            if isinstance(table, tuple) and isinstance(k, int) and not 0 <= k < len(table):
                self.error(node.key, f"index {k} is out of range: {node.obj.id} has {len(table)} entries "
                                     f"(0..{len(table) - 1})")
            elif isinstance(table, dict) and k not in table:
                self.error(node.key, f"{node.obj.id} has no entry {k!r}", expected=", ".join(map(str, table)),
                           hint=did_you_mean(str(k), map(str, table)))
        return (f"_index({self.gen(node.obj, scope, local)}, {self.gen(node.key, scope, local)}, "
                f"{self.bind(self.pos(node.key), 'p')})")

    def _Attr(self, node, scope, local):
        known, table = self._constant(node.obj, scope, local)
        if known and isinstance(table, dict) and node.name not in table:
            self.error(node, f"{node.obj.id} has no field {node.name!r}", expected=", ".join(map(str, table)),
                       hint=did_you_mean(node.name, map(str, table)))
        return f"_attr({self.gen(node.obj, scope, local)}, {node.name!r}, {self.bind(self.pos(node), 'p')})"

    def _BinOp(self, node, scope, local):
        if node.op in ("==", "!="):
            self._check_compare(node, scope, local)
        assert node.op in _OPS
        left, right = self.gen(node.left, scope, local), self.gen(node.right, scope, local)
        if node.op in _NUMBERS_ONLY:
            # numbers only: Python's * repeats a text or a list, and its % formats a text
            helper, does = _NUMBERS_ONLY[node.op]
            for side in (node.left, node.right):
                what = _NOT_A_NUMBER.get(type(side)) or (type(side) is A.Const and isinstance(side.value, str)
                                                         and "a text")
                if what:
                    return self.error(side, f"{node.op} {does} numbers, not {what}",
                                      hint="nordlang repeats no text or list" if node.op == "*" else
                                      "nordlang formats no text with %")
            if not (self._is_number(node.left) and self._is_number(node.right)):
                return f"{helper}({left}, {right})"
        return f"({left} {node.op} {right})"

    @staticmethod
    def _is_number(node) -> bool:
        """A number literal, or a product or remainder of numbers (no check needed)."""
        if isinstance(node, A.Const):
            return type(node.value) in (int, float)
        if isinstance(node, A.Neg):
            return Compiler._is_number(node.operand)
        return isinstance(node, A.BinOp) and node.op in _NUMBERS_ONLY

    def _Neg(self, node, scope, local):
        return f"(-{self.gen(node.operand, scope, local)})"

    def _Not(self, node, scope, local):
        return f"(not {self.test(node.operand, scope, local)})"

    def test(self, node, scope, local) -> str:
        """Source for a value that is only tested for truth (a condition):
        `and` and `or` there need not make their value true or false."""
        if isinstance(node, A.BoolOp):
            return f"({self.test(node.left, scope, local)} {node.op} {self.test(node.right, scope, local)})"
        return self.gen(node, scope, local)

    def _BoolOp(self, node, scope, local):
        """`and` and `or` give true or false (Python's give an operand: 2 and 5 is 5)."""
        src = self.test(node, scope, local)
        if self._is_truth(node.left, scope, local) and self._is_truth(node.right, scope, local):
            return src
        return f"(not not {src})"

    def _is_truth(self, node, scope, local) -> bool:
        """Is the value true or false, whatever it is, as far as the compiler knows?"""
        if isinstance(node, A.Const):
            return isinstance(node.value, bool)
        if isinstance(node, (A.Not, A.BoolOp)):
            return True
        if isinstance(node, A.BinOp):
            return node.op in _COMPARISONS
        return self._kind_of(node, scope, local) == "truth"

    def _IfElse(self, node, scope, local):
        c = self.test(node.cond, scope, local)
        t, e = (self.gen(x, scope, local) for x in (node.then, node.orelse))
        return f"({t} if {c} else {e})"

    def _LetIn(self, node, scope, local):
        local = dict(local)
        binds = []
        for name, value in node.bindings:
            src = self.gen(value, scope, local)
            local[name] = f"v_{name}_{next(_COUNTER)}"
            binds.append((local[name], src))
        body = self.gen(node.body, scope, local)
        for var, src in reversed(binds):
            body = f"(lambda {var}: {body})({src})"
        return body

    # -- statements: each returns lines of Python source --
    def stmts(self, stmts, scope, local, depth) -> list:
        out = []
        local = dict(local)
        for s in stmts:
            out.extend(self.stmt(s, scope, local, depth))
        return out

    def stmt(self, node, scope, local, depth) -> list:
        pad = "    " * (depth - 1)
        if isinstance(node, A.LetStmt):
            src = self.gen(node.value, scope, local)
            local[node.name] = f"v_{node.name}_{next(_COUNTER)}"
            return [f"{pad}{local[node.name]} = {src}{self._mark(node.value)}"]
        if isinstance(node, A.ForStmt):
            it = self.gen(node.iter, scope, local)
            inner = dict(local)
            names = []
            for n in node.target:
                inner[n] = f"v_{n}_{next(_COUNTER)}"
                names.append(inner[n])
            body = self.stmts(node.body, scope, inner, depth + 1) or [f"{pad}    pass"]
            if len(names) == 1:
                head = f"{pad}for {names[0]} in _tuple(_ord({it})):"
            else:
                head = f"{pad}for ({', '.join(names)}) in [_unpack(x_, {len(names)}) for x_ in _ord({it})]:"
            return [head + self._mark(node.iter)] + body
        if isinstance(node, A.IfStmt):
            out = []
            for i, (c, b) in enumerate(node.branches):
                kw = "if" if i == 0 else "elif"
                out.append(f"{pad}{kw} {self.test(c, scope, local)}:{self._mark(c)}")
                out.extend(self.stmts(b, scope, local, depth + 1) or [f"{pad}    pass"])
            if node.orelse is not None:
                out.append(f"{pad}else:")
                out.extend(self.stmts(node.orelse, scope, local, depth + 1) or [f"{pad}    pass"])
            return out
        if isinstance(node, A.CallStmt):
            return [pad + line for line in self._call_stmt(node, scope, local)]
        self.error(node, "not a statement")  # pragma: no cover
        return []

    def _mark(self, node) -> str:
        """A comment giving a generated line the position of the text it runs
        (read back only when that line fails: see _fail)."""
        return f"  # at {self.bind(self.pos(node), 'p')}"

    def _call_stmt(self, node, scope, local) -> list:
        name = node.name
        f = self.names.funcs.get(name)
        b = self.names.registry.get(name)
        posname = self.bind(self.pos(node), "p")
        if f is not None:
            if f.kind != EFFECT:
                self.error(node, f"{name!r} is a value, not an effect: a statement must do something")
                return []
            if node.gen is not None or len(node.args) != len(f.params):
                self.error(node, f"{f.name}() takes {len(f.params)} argument(s) ({', '.join(f.params)}), "
                                 f"got {len(node.args)}")
                return []
            self._dep(name)
            args = "".join(", " + self.gen(a, scope, local) for a in node.args)
            call = f"{self.bind(f, 'f')}.call(ctx{args})"
        else:
            if b is None:
                effects = [n for n, x in self.names.registry.items.items() if x.kind == EFFECT] + \
                          [n for n, x in self.names.funcs.items() if x.kind == EFFECT]
                self.error(node, f"unknown effect {name!r}", hint=did_you_mean(name, effects))
                return []
            if b.kind != EFFECT:
                self.error(node, f"{name!r} computes a value; a statement must be an effect")
                return []
            lo, hi = b.arity
            nargs = len(node.args)
            if node.gen is not None or nargs < lo or (hi is not None and nargs > hi):
                self.error(node, f"{name}() takes {_arity_words(lo, hi)}, got {nargs}",
                           hint=b.example and f"for example: {b.example}")
                return []
            self._check_literals(name, node, b, scope, local)
            args = "".join(", " + self.gen(a, scope, local) for a in node.args)
            call = f"{self.bind(b.fn, 'b')}(ctx{args})"
        # each statement reports its own position when it fails
        return ["try:", f"    {call}", "except Exception as e:",
                f"    raise _stmt_fail(e, {posname}, {self.bind_where(self.where)}) from None"]


# the syntax of values that are no number (for * and %)
_NOT_A_NUMBER = {A.ListX: "a list", A.TupleX: "a tuple", A.Comp: "a collection"}
# kinds of value that are no text (the others are names: a text is compared with them)
_NOT_TEXT = {"item", "player"}
_KIND_WORDS = {"item": "an item", "player": "a player", "structure": "a structure", "terrain": "a terrain name",
               "piece kind": "the name of a piece kind", "structure kind": "the name of a structure kind",
               "feature": "the name of a feature", "source": "a source of points", "space name": "a space's name"}
_MIXED_HINTS = {("piece kind", "item"): "kind(...) gives the name of a kind; an item is made by that name, "
                                        "as in coin() or coin(p)",
                ("item", "player"): "the player an item belongs to is owner(...)",
                ("item", "piece kind"): "an item's kind is kind(...)"}


def _arity_words(lo, hi):
    if hi is None:
        return f"at least {lo} argument(s)"
    if lo == hi:
        return f"{lo} argument(s)"
    return f"{lo} to {hi} arguments"


# Python's words for a value's type, and nordlang's
_KINDS = {"int": "a number", "float": "a number", "str": "a text", "tuple": "a tuple", "list": "a list",
          "frozenset": "a set", "set": "a set", "dict": "a table", "NoneType": "none", "bool": "true or false"}
# Python's TypeError messages, and what they say in nordlang's words
_TYPE_ERRORS = [
    (re.compile(r"unsupported operand type\(s\) for (.+): '(\w+)' and '(\w+)'"),
     lambda m: f"cannot use {m[1]} on {_kind(m[2])} and {_kind(m[3])}"),
    (re.compile(r'can only concatenate (\w+) \(not "(\w+)"\) to \w+'),
     lambda m: f"cannot use + on {_kind(m[1])} and {_kind(m[2])}"),
    (re.compile(r"'(.+)' not supported between instances of '(\w+)' and '(\w+)'"),
     lambda m: f"cannot compare {_kind(m[2])} and {_kind(m[3])} with {m[1]}"),
    (re.compile(r"bad operand type for unary (.+): '(\w+)'"), lambda m: f"cannot use {m[1]} on {_kind(m[2])}"),
    (re.compile(r"(?:argument of type )?'(\w+)'(?: object)? is not iterable"),
     lambda m: f"{_kind(m[1])} is not a collection"),
    (re.compile(r"'(\w+)' object is not subscriptable"), lambda m: f"{_kind(m[1])} cannot be indexed"),
    (re.compile(r"object of type '(\w+)' has no len\(\)"), lambda m: f"{_kind(m[1])} has no length"),
    (re.compile(r"unhashable type: '(\w+)'"), lambda m: f"{_kind(m[1])} cannot be a member of a set or a key"),
]


def _kind(python_type: str) -> str:
    return _KINDS.get(python_type, python_type)


def _describe(e: Exception) -> str:
    if isinstance(e, ZeroDivisionError):
        return "division by zero"
    if isinstance(e, TypeError):
        text = str(e)
        for pattern, say in _TYPE_ERRORS:
            m = pattern.search(text)
            if m:
                return f"wrong kind of value: {say(m)}"
        return f"wrong kind of value ({text})"
    return str(e) or type(e).__name__


def _show(v) -> str:
    s = repr(v)
    return s if len(s) < 60 else s[:57] + "..."
