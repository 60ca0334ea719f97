"""Check and compile nordlang syntax trees into Python closures.

Checking and compiling are one walk: every name is resolved (locals,
rulebook definitions, constants, builtins) and every call's arity checked
when the rulebook loads, so play never meets an unknown name and never
re-parses text. Each closure keeps the file position of its node, so a
runtime failure names the YAML line and column it came from.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field

from ..errors import EvalError, LangError, NordError, Pos, did_you_mean
from . import ast as A
from .builtins import AGG, ARG_AGGREGATES, BARE, EFFECT, LAZY, ordered

_MISSING = object()

_BINOPS = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
    "//": operator.floordiv, "%": operator.mod, "==": operator.eq, "!=": operator.ne,
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
    "in": lambda a, b: a in b, "not in": lambda a, b: a not in b,
}


# Memoised values of rulebook definitions, keyed by (definition, arguments,
# state version). Definitions see only their arguments and the state, so a
# value can be reused for as long as the state's version is unchanged.
_MEMO: dict = {}
_MEMO_LIMIT = 200_000


def clear_memo() -> None:
    _MEMO.clear()


class Ctx:
    """What an expression sees while it runs: the state and local variables."""

    __slots__ = ("state", "rules", "vars", "budget")

    def __init__(self, state, rules, vars=None):
        self.state = state
        self.rules = rules
        self.vars = {} if vars is None else vars
        self.budget = None


@dataclass(eq=False)
class Func:
    """A rulebook definition or effect procedure, compiled lazily (by cell)."""

    name: str
    params: tuple
    kind: str                  # "expr" or "effect"
    body: object = None        # compiled closure, set after compiling
    pos: Pos | None = None
    deps: set = field(default_factory=set)
    dynamic: bool = False      # its body reads the position directly
    static: bool = False       # its value depends only on its arguments and the board


@dataclass
class Names:
    """Everything a rulebook makes nameable, handed to the compiler."""

    registry: object
    constants: dict = field(default_factory=dict)
    funcs: dict = field(default_factory=dict)      # name -> Func
    constructors: dict = field(default_factory=dict)  # name -> (arity, fn)
    returns: dict = field(default_factory=dict)    # builtin -> (what, allowed strings) it returns
    arg_sets: dict = field(default_factory=dict)   # (builtin, arg index) -> (what, allowed strings)
    used: set = field(default_factory=set)         # definitions some text refers to

    def all_names(self):
        return (set(self.registry.names()) | set(self.constants) | set(self.funcs)
                | set(self.constructors))


class Compiler:
    """Compile one piece of nordlang text; `locate` maps inner positions to the file."""

    def __init__(self, names: Names, locate=None, current: Func | None = None):
        self.names = names
        self.locate = locate or (lambda line, col: Pos(None, line, col))
        self.current = current
        self.errors: list[NordError] = []

    # -- helpers --
    def pos(self, node) -> Pos:
        return self.locate(node.line, node.col)

    def error(self, node, msg, hint=None, expected=None):
        self.errors.append(LangError(msg, self.pos(node), hint=hint, expected=expected,
                                     width=max(1, node.end_col - node.col)))
        return lambda ctx: None

    def _wrap(self, node, what):
        pos = self.pos(node)

        def fail(e):
            if isinstance(e, NordError):
                return e.at(pos)
            return EvalError(f"{what}: {_describe(e)}", pos)
        return fail

    # -- expressions --
    def expr(self, node, scope: frozenset):
        m = getattr(self, "_" + type(node).__name__)
        return m(node, scope)

    def _Const(self, node, scope):
        v = node.value
        return lambda ctx: v

    def _Name(self, node, scope):
        name = node.id
        if name in scope:
            pos = self.pos(node)

            def local(ctx):
                try:
                    return ctx.vars[name]
                except KeyError:
                    raise EvalError(f"{name!r} has no value yet", pos) from None
            return local
        if name in self.names.constants:
            v = self.names.constants[name]
            return lambda ctx: v
        f = self.names.funcs.get(name)
        if f is not None:
            if f.params:
                return self.error(node, f"{name!r} needs {len(f.params)} argument(s): {name}({', '.join(f.params)})")
            if f.kind == EFFECT:
                return self.error(node, f"{name!r} is an effect; it cannot be used as a value")
            self._dep(name)
            fail = self._wrap(node, name)

            def ref(ctx, f=f):
                key = f if f.static else (f, ctx.state.version)
                hit = _MEMO.get(key, _MISSING)
                if hit is not _MISSING:
                    return hit
                saved = ctx.vars
                ctx.vars = {}
                try:
                    value = f.body(ctx)
                except Exception as e:
                    raise fail(e) from None
                finally:
                    ctx.vars = saved
                if len(_MEMO) > _MEMO_LIMIT:
                    _MEMO.clear()
                _MEMO[key] = value
                return value
            return ref
        b = self.names.registry.get(name)
        if b is not None and b.kind == BARE:
            self._uses(b)
            fn = b.fn
            fail = self._wrap(node, name)

            def bare(ctx):
                try:
                    return fn(ctx)
                except Exception as e:
                    raise fail(e) from None
            return bare
        if b is not None or name in self.names.constructors:
            return self.error(node, f"{name!r} is a function; call it with arguments: {name}(...)")
        return self.error(node, f"unknown name {name!r}", hint=did_you_mean(name, self.names.all_names() | scope))

    def _uses(self, b):
        if not b.static and self.current is not None:
            self.current.dynamic = True

    def _dep(self, name):
        self.names.used.add(name)
        if self.current is not None:
            self.current.deps.add(name)

    def _TupleX(self, node, scope):
        items = [self.expr(x, scope) for x in node.items]
        return lambda ctx: tuple(f(ctx) for f in items)

    _ListX = _TupleX

    def _comp_iter(self, comp: A.Comp, scope, elt_scope_cb):
        """Build a function giving the list of a comprehension's values."""
        fors = []
        for cf in comp.fors:
            it = self.expr(cf.iter, scope)
            scope = scope | set(cf.target)
            conds = [self.expr(c, scope) for c in cf.conds]
            fors.append((cf.target, it, conds, self._wrap(cf.iter, "iterating")))
        elt = elt_scope_cb(scope)
        names = tuple(n for cf in comp.fors for n in cf.target)
        body = _build_loops(fors, elt, 0)

        def gen(ctx):
            v = ctx.vars
            saved = [(n, v[n]) for n in names if n in v]
            out = []
            try:
                body(ctx, out)
            finally:
                for n in names:
                    v.pop(n, None)
                for n, x in saved:
                    v[n] = x
            return out
        return gen

    def _Comp(self, node, scope):
        gen = self._comp_iter(node, scope, lambda s: self.expr(node.elt, s))
        if node.kind == "set":
            return lambda ctx: frozenset(gen(ctx))
        return lambda ctx: tuple(gen(ctx))

    def _Call(self, node, scope):
        if not isinstance(node.func, A.Name):
            return self.error(node, "only named functions can be called")
        name = node.func.id
        nargs = len(node.args)
        if name in scope:
            return self.error(node, f"{name!r} is a variable, not a function")
        b = self.names.registry.get(name)
        f = self.names.funcs.get(name)
        cons = self.names.constructors.get(name)
        if f is not None:
            if f.kind == EFFECT:
                return self.error(node, f"{name!r} is an effect; use it as a statement, not inside an expression")
            return self._call_func(node, f, scope)
        if cons is not None:
            (lo, hi), fn = cons
            if node.gen is not None or not lo <= nargs <= hi:
                return self.error(node, f"{name}() takes {_arity_words(lo, hi)}, got {nargs}")
            args = [self.expr(a, scope) for a in node.args]
            return lambda ctx: fn(*[a(ctx) for a in args])
        if b is None:
            return self.error(node.func, f"unknown function {name!r}",
                              hint=did_you_mean(name, self.names.all_names()))
        if b.kind == EFFECT:
            return self.error(node, f"{name!r} is an effect; use it as a statement, not inside an expression")
        if b.kind == BARE:
            return self.error(node, f"{name!r} is a value, not a function: write {name} without parentheses")
        fail = self._wrap(node, name)
        fn = b.fn
        self._uses(b)
        if b.kind == LAZY:
            lo, hi = b.arity
            if node.gen is not None or not lo <= nargs <= hi:
                return self.error(node, f"{name}() takes {_arity_words(lo, hi)}, got {nargs}")
            thunks = [self.expr(a, scope) for a in node.args]

            def lazy(ctx):
                try:
                    return fn(ctx, *thunks)
                except Exception as e:
                    raise fail(e) from None
            return lazy
        if b.kind == AGG:
            if node.gen is not None:
                if name in ARG_AGGREGATES:
                    comp = node.gen
                    if len(comp.fors) != 1 or len(comp.fors[0].target) != 1:
                        return self.error(node, f"{name}(value for x in collection) binds exactly one name")
                    var = comp.fors[0].target[0]
                    gen = self._comp_iter(comp, scope, lambda s: self._pair(var, self.expr(comp.elt, s)))
                else:
                    gen = self._comp_iter(node.gen, scope, lambda s: self.expr(node.gen.elt, s))
            elif nargs == 1:
                if name in ARG_AGGREGATES:
                    return self.error(node, f"{name} needs a generator: {name}(value for x in collection)")
                coll = self.expr(node.args[0], scope)

                def gen(ctx):
                    return coll(ctx)
            else:
                return self.error(node, f"{name}() takes one collection or a generator, got {nargs} arguments")

            def agg(ctx):
                try:
                    return fn(ctx, gen(ctx))
                except Exception as e:
                    raise fail(e) from None
            return agg
        if node.gen is not None:
            return self.error(node, f"{name}() does not take a generator; only aggregates do")
        lo, hi = b.arity
        if nargs < lo or (hi is not None and nargs > hi):
            return self.error(node, f"{name}() takes {_arity_words(lo, hi)}, got {nargs}",
                              hint=b.example and f"for example: {b.example}")
        args = [self.expr(a, scope) for a in node.args]
        self._check_literals(name, node, scope)
        if len(args) == 1:
            a0 = args[0]

            def call1(ctx):
                try:
                    return fn(ctx, a0(ctx))
                except Exception as e:
                    raise fail(e) from None
            return call1
        if len(args) == 2:
            a0, a1 = args

            def call2(ctx):
                try:
                    return fn(ctx, a0(ctx), a1(ctx))
                except Exception as e:
                    raise fail(e) from None
            return call2

        def call(ctx):
            try:
                return fn(ctx, *[a(ctx) for a in args])
            except Exception as e:
                raise fail(e) from None
        return call

    def _check_literals(self, name, node, scope):
        """String arguments that must name something the rulebook declares."""
        for i, a in enumerate(node.args):
            spec = self.names.arg_sets.get((name, i))
            if spec and isinstance(a, A.Const) and isinstance(a.value, str) and a.value not in spec[1]:
                self.error(a, f"{a.value!r} is not a {spec[0]}", expected=", ".join(sorted(spec[1])),
                           hint=did_you_mean(a.value, spec[1]))

    def _check_compare(self, node):
        """`terrain(s) == "forrest"`: a literal compared with what a primitive returns."""
        for call, other in ((node.left, node.right), (node.right, node.left)):
            if isinstance(call, A.Call) and isinstance(call.func, A.Name) and isinstance(other, A.Const) \
                    and isinstance(other.value, str):
                spec = self.names.returns.get(call.func.id)
                if spec and other.value not in spec[1]:
                    self.error(other, f"{other.value!r} is not a {spec[0]}, so this comparison is never true",
                               expected=", ".join(sorted(spec[1])), hint=did_you_mean(other.value, spec[1]))

    @staticmethod
    def _pair(var, f):
        return lambda ctx: (ctx.vars[var], f(ctx))

    def _call_func(self, node, f: Func, scope):
        if node.gen is not None or len(node.args) != len(f.params):
            return self.error(node, f"{f.name}() takes {len(f.params)} argument(s) ({', '.join(f.params)}), "
                                    f"got {len(node.args)}")
        self._dep(f.name)
        args = [self.expr(a, scope) for a in node.args]
        params = f.params
        fail = self._wrap(node, f.name)

        if f.kind == EFFECT:
            def call_effect(ctx):
                vals = [a(ctx) for a in args]
                saved = ctx.vars
                ctx.vars = dict(zip(params, vals))
                try:
                    f.body(ctx)
                except Exception as e:
                    raise fail(e) from None
                finally:
                    ctx.vars = saved
            return call_effect

        def callf(ctx):
            vals = tuple([a(ctx) for a in args])
            key = (f, vals) if f.static else (f, vals, ctx.state.version)
            try:
                hit = _MEMO.get(key, _MISSING)
            except TypeError:       # an argument that cannot be a key (a table row)
                key, hit = None, _MISSING
            if hit is not _MISSING:
                return hit
            saved = ctx.vars
            ctx.vars = dict(zip(params, vals))
            try:
                value = f.body(ctx)
            except Exception as e:
                raise fail(e) from None
            finally:
                ctx.vars = saved
            if key is not None:
                if len(_MEMO) > _MEMO_LIMIT:
                    _MEMO.clear()
                _MEMO[key] = value
            return value
        return callf

    def _constant(self, node, scope):
        if isinstance(node, A.Name) and node.id not in scope and node.id in self.names.constants:
            return True, self.names.constants[node.id]
        return False, None

    def _Index(self, node, scope):
        known, table = self._constant(node.obj, scope)
        if known and isinstance(node.key, A.Const):
            k = node.key.value
            if isinstance(table, tuple) and isinstance(k, int) and not -len(table) <= k < len(table):
                self.error(node.key, f"index {k} is out of range: {node.obj.id} has {len(table)} entries "
                                     f"(0..{len(table) - 1})")
            elif isinstance(table, dict) and k not in table:
                self.error(node.key, f"{node.obj.id} has no entry {k!r}", expected=", ".join(map(str, table)),
                           hint=did_you_mean(str(k), map(str, table)))
        obj, key = self.expr(node.obj, scope), self.expr(node.key, scope)
        pos = self.pos(node)

        def index(ctx):
            o, k = obj(ctx), key(ctx)
            try:
                return o[k]
            except (IndexError, KeyError):
                if isinstance(o, dict):
                    hint = did_you_mean(str(k), map(str, o)) or f"entries: {', '.join(map(str, o))}"
                    raise EvalError(f"no entry {k!r} in this table", pos, hint=hint) from None
                raise EvalError(f"index {k!r} out of range (0..{len(o) - 1})", pos) from None
            except TypeError as e:
                raise EvalError(f"cannot index: {_describe(e)}", pos) from None
        return index

    def _Attr(self, node, scope):
        known, table = self._constant(node.obj, scope)
        if known and isinstance(table, dict) and node.name not in table:
            self.error(node, f"{node.obj.id} has no field {node.name!r}", expected=", ".join(map(str, table)),
                       hint=did_you_mean(node.name, map(str, table)))
        obj = self.expr(node.obj, scope)
        name = node.name
        pos = self.pos(node)

        def attr(ctx):
            o = obj(ctx)
            if isinstance(o, dict):
                try:
                    return o[name]
                except KeyError:
                    raise EvalError(f"no field {name!r}", pos, hint=did_you_mean(name, o)) from None
            raise EvalError(f"{_show(o)} has no field {name!r}", pos)
        return attr

    def _BinOp(self, node, scope):
        if node.op in ("==", "!="):
            self._check_compare(node)
        fn = _BINOPS[node.op]
        left, right = self.expr(node.left, scope), self.expr(node.right, scope)
        fail = self._wrap(node, f"operator {node.op!r}")

        def binop(ctx):
            try:
                return fn(left(ctx), right(ctx))
            except NordError:
                raise
            except Exception as e:
                raise fail(e) from None
        return binop

    def _Neg(self, node, scope):
        f = self.expr(node.operand, scope)
        fail = self._wrap(node, "negation")

        def neg(ctx):
            try:
                return -f(ctx)
            except NordError:
                raise
            except Exception as e:
                raise fail(e) from None
        return neg

    def _Not(self, node, scope):
        f = self.expr(node.operand, scope)
        return lambda ctx: not f(ctx)

    def _BoolOp(self, node, scope):
        left, right = self.expr(node.left, scope), self.expr(node.right, scope)
        if node.op == "and":
            return lambda ctx: left(ctx) and right(ctx)
        return lambda ctx: left(ctx) or right(ctx)

    def _IfElse(self, node, scope):
        c, t, e = (self.expr(x, scope) for x in (node.cond, node.then, node.orelse))
        return lambda ctx: t(ctx) if c(ctx) else e(ctx)

    def _LetIn(self, node, scope):
        binds = []
        for name, value in node.bindings:
            binds.append((name, self.expr(value, scope)))
            scope = scope | {name}
        body = self.expr(node.body, scope)

        def letin(ctx):
            v = ctx.vars
            saved = {n: v[n] for n, _ in binds if n in v}
            try:
                for n, f in binds:
                    v[n] = f(ctx)
                return body(ctx)
            finally:
                for n, _ in binds:
                    v.pop(n, None)
                v.update(saved)
        return letin

    # -- statements --
    def block(self, stmts, scope: frozenset):
        """Compile statements; `let` extends the scope of what follows."""
        out = []
        for s in stmts:
            if isinstance(s, A.LetStmt):
                f = self.expr(s.value, scope)
                out.append(_let(s.name, f))
                scope = scope | {s.name}
            else:
                out.append(self.stmt(s, scope))

        def run(ctx):
            for f in out:
                f(ctx)
        return run

    def stmt(self, node, scope):
        if isinstance(node, A.ForStmt):
            it = self.expr(node.iter, scope)
            body = self.block(node.body, scope | set(node.target))
            target = node.target
            fail = self._wrap(node.iter, "iterating")

            def for_(ctx):
                try:
                    items = tuple(ordered(it(ctx)))
                except NordError:
                    raise
                except Exception as e:
                    raise fail(e) from None
                for x in items:
                    _bind(ctx.vars, target, x)
                    body(ctx)
            return for_
        if isinstance(node, A.IfStmt):
            branches = [(self.expr(c, scope), self.block(b, scope)) for c, b in node.branches]
            orelse = self.block(node.orelse, scope) if node.orelse is not None else None

            def if_(ctx):
                for c, b in branches:
                    if c(ctx):
                        b(ctx)
                        return
                if orelse is not None:
                    orelse(ctx)
            return if_
        if isinstance(node, A.CallStmt):
            return self._call_stmt(node, scope)
        return self.error(node, "not a statement")  # pragma: no cover

    def _call_stmt(self, node, scope):
        name = node.name
        f = self.names.funcs.get(name)
        b = self.names.registry.get(name)
        if f is not None:
            if f.kind != EFFECT:
                return self.error(node, f"{name!r} is a value, not an effect: a statement must do something")
            return self._call_func(node, f, scope)
        if b is None:
            return self.error(node, f"unknown effect {name!r}",
                              hint=did_you_mean(name, [n for n, x in self.names.registry.items.items()
                                                       if x.kind == EFFECT] + [n for n, x in self.names.funcs.items()
                                                                                 if x.kind == EFFECT]))
        if b.kind != EFFECT:
            return self.error(node, f"{name!r} computes a value; a statement must be an effect")
        lo, hi = b.arity
        nargs = len(node.args)
        if node.gen is not None or nargs < lo or (hi is not None and nargs > hi):
            return self.error(node, f"{name}() takes {_arity_words(lo, hi)}, got {nargs}",
                              hint=b.example and f"for example: {b.example}")
        args = [self.expr(a, scope) for a in node.args]
        fn = b.fn
        fail = self._wrap(node, name)

        def effect(ctx):
            try:
                fn(ctx, *[a(ctx) for a in args])
            except Exception as e:
                raise fail(e) from None
        return effect


def _build_loops(fors, elt, i):
    """Nested loops as closures that append each value to `out`."""
    target, it, conds, fail = fors[i]
    last = i == len(fors) - 1
    inner = None if last else _build_loops(fors, elt, i + 1)
    single = target[0] if len(target) == 1 else None
    if not conds:
        cond = None
    elif len(conds) == 1:
        cond = conds[0]
    else:
        def cond(ctx):
            for c in conds:
                if not c(ctx):
                    return False
            return True

    def loop(ctx, out):
        try:
            items = ordered(it(ctx))
        except NordError:
            raise
        except Exception as e:
            raise fail(e) from None
        v = ctx.vars
        for x in items:
            if single is not None:
                v[single] = x
            else:
                _bind(v, target, x)
            if cond is None or cond(ctx):
                if last:
                    out.append(elt(ctx))
                else:
                    inner(ctx, out)
    return loop


def _bind(v, target, x):
    if len(target) == 1:
        v[target[0]] = x
        return
    if not isinstance(x, tuple) or len(x) != len(target):
        raise EvalError(f"cannot unpack {_show(x)} into {', '.join(target)}")
    for n, y in zip(target, x):
        v[n] = y


def _let(name, f):
    def let(ctx):
        ctx.vars[name] = f(ctx)
    return let


def _arity_words(lo, hi):
    if hi is None:
        return f"at least {lo} argument(s)"
    if lo == hi:
        return f"{lo} argument(s)"
    return f"{lo} to {hi} arguments"


def _describe(e: Exception) -> str:
    if isinstance(e, ZeroDivisionError):
        return "division by zero"
    if isinstance(e, TypeError):
        return "wrong kind of value (" + str(e) + ")"
    return str(e) or type(e).__name__


def _show(v) -> str:
    s = repr(v)
    return s if len(s) < 60 else s[:57] + "..."
