"""Error placement: a runtime failure of generated code, named at its text.

Nothing here runs unless something fails: a failed expression is run again,
traced node by node, to find the node that failed (_fail); an effect's
statement is read off the traceback; the definitions and procedures the
error passed through are named with where each was called.
"""

from __future__ import annotations

import re

from ..errors import EvalError, NordError
from .budget import Budget, BudgetError


class Where:
    """What a compiled function's failure handler knows; none of it is used
    unless the function fails (so placing an error costs the play nothing)."""

    __slots__ = ("pos", "label", "lines", "source", "replay")

    def __init__(self, pos, label=None):
        self.pos = pos          # the position of the function's text
        self.label = label      # "definition f(x)", "procedure g(y)"; None for a rule's own text
        self.lines = None       # effects: generated line -> the position of the statement on it
        # expressions: what the replay is made from (its text, or its tree when there is no text;
        # the scope, the parameters, the names, locate, the definition; last, the function that
        # makes it, Compiler.traced, handed in by the compiler), and the replay once made
        self.source = None
        self.replay = None

    def replayed(self, ctx, args):
        """Run the expression again, traced node by node (made when first needed,
        by the maker its source names: Compiler.traced); None when it has no replay."""
        if self.replay is None:
            if self.source is None:
                return None
            self.replay = self.source[-1](self)
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
    """The error e arose in this function, at spot (position, width[, text])."""
    pos, width = spot[0], spot[1]
    if isinstance(e, NordError):
        if e.pos is None or e.pos.line is None:      # (helpers such as _index place their own)
            e.pos, e.width = pos, width
            if isinstance(e, BudgetError) and len(spot) > 2:
                e.name(spot[2])
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
    if isinstance(e, BudgetError):
        return _over_budget(e, where, ctx, args)
    return _placed(e, where, ctx, args)


def _placed(e, where, ctx, args):
    """_fail's work: place the error, or name this function as its caller."""
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


def _over_budget(e, where, ctx, args):
    """Work past the budget (budget.py). A loop's error is placed already;
    one a primitive raised is placed by the replay, run with a fresh budget
    (so it fails where the work was spent, not at its first loop); the
    functions it passes through then name their own text as the call site
    rather than run their work again."""
    if e.frames is not None:
        if e.last is where:
            return e
        return _passed(e, where, (_line_of_statement(e, where) if where.lines else None) or where.pos)
    if e.pos is not None and e.pos.line is not None:
        return _place(e, (e.pos, e.width), where)
    budget = getattr(ctx, "budget", None)
    if budget is None:
        return _place(e, (where.pos, 1), where)
    saved, budget.left = budget.left, Budget().left
    try:
        return _placed(e, where, ctx, args)
    finally:
        budget.left = saved


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



# Python's words for a value's type, and nordlang's
_KINDS = {"int": "a number", "float": "a number", "str": "a text", "tuple": "a tuple", "list": "a list",
          "Written": "a tuple", "frozenset": "a set", "set": "a set", "dict": "a table", "NoneType": "none",
          "bool": "true or false"}
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
