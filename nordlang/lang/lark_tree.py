"""lark's side of parsing: the grammar's LALR parser and the transformer
from lark's parse tree to nordlang's syntax tree (lang/ast.py). Only
parser.py imports it, when a text is first parsed: a rulebook whose trees
come from the compiled-rulebook cache (rules/cache.py) never loads lark."""

from __future__ import annotations

from functools import lru_cache
from importlib.resources import files

import lark
from lark import Token, Transformer, v_args

from ..limits import MAX_DIGITS
from . import ast as A


@lru_cache(maxsize=1)
def _lark() -> lark.Lark:
    grammar = files("nordlang.lang").joinpath("grammar.lark").read_text(encoding="utf-8")
    # cache=True: lark keeps the parse tables in the temporary folder, keyed by
    # the grammar's hash and lark's version (building them costs 0.3 s a process)
    return lark.Lark(grammar, start=["start_expr", "start_effects"], parser="lalr",
                     propagate_positions=True, maybe_placeholders=True, cache=True)


def _meta(tree_or_tok):
    if isinstance(tree_or_tok, Token):
        return tree_or_tok.line, tree_or_tok.column, tree_or_tok.end_column
    m = tree_or_tok.meta
    if getattr(m, "empty", True):
        return 1, 1, 2
    end = m.end_column if m.end_line == m.line else m.column + 1
    return m.line, m.column, end


_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'"}


class _TooLong(Exception):
    """A number written with more digits than the limits of input allow."""

    def __init__(self, text, line, col):
        super().__init__(text)
        self.text, self.line, self.col = text, line, col


class _BadEscape(Exception):
    def __init__(self, text, line, col):
        super().__init__(text)
        self.text, self.line, self.col = text, line, col


def _unescape(raw: str, meta) -> str:
    """Decode \\n, \\t, \\\\ and escaped quotes; anything else is an error."""
    out, i = [], 0
    while i < len(raw):
        ch = raw[i]
        if ch == "\\" and i + 1 < len(raw):
            nxt = raw[i + 1]
            if nxt not in _ESCAPES:
                raise _BadEscape("\\" + nxt, meta.line, meta.column + 1 + i)
            out.append(_ESCAPES[nxt])
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _bin(op):
    @v_args(meta=True)
    def f(self, meta, c):
        return A.BinOp(*self._pos(meta), op=op, left=c[0], right=c[1])
    return f


class _ToAst(Transformer):
    """lark parse tree -> nordlang AST."""

    def __default__(self, data, children, meta):  # pragma: no cover - every rule is handled
        raise AssertionError(f"unhandled grammar rule {data}")

    def _pos(self, meta):
        if getattr(meta, "empty", True):
            return 1, 1, 2, 1
        return meta.line, meta.column, meta.end_column, meta.end_line

    @v_args(meta=True)
    def start_expr(self, meta, c):
        return c[0]

    @v_args(meta=True)
    def start_effects(self, meta, c):
        return tuple(c)

    # statements
    @v_args(meta=True)
    def call_stmt(self, meta, c):
        name, args = c
        posargs, gen = args if args is not None else ((), None)
        return A.CallStmt(*self._pos(meta), name=str(name), args=posargs, gen=gen)

    @v_args(meta=True)
    def for_stmt(self, meta, c):
        target, it, body = c
        return A.ForStmt(*self._pos(meta), target=target, iter=it, body=body)

    @v_args(meta=True)
    def if_stmt(self, meta, c):
        cond, body, *rest = c
        branches = [(cond, body)]
        orelse = None
        for r in rest:
            if r[0] == "elif":
                branches.append((r[1], r[2]))
            else:
                orelse = r[1]
        return A.IfStmt(*self._pos(meta), branches=tuple(branches), orelse=orelse)

    def elif_clause(self, c):
        return ("elif", c[0], c[1])

    def else_clause(self, c):
        return ("else", c[0])

    @v_args(meta=True)
    def let_stmt(self, meta, c):
        return A.LetStmt(*self._pos(meta), name=str(c[0]), value=c[1])

    def block(self, c):
        return tuple(c)

    # expressions
    @v_args(meta=True)
    def ifelse(self, meta, c):
        return A.IfElse(*self._pos(meta), cond=c[0], then=c[1], orelse=c[2])

    @v_args(meta=True)
    def letin(self, meta, c):
        return A.LetIn(*self._pos(meta), bindings=tuple(c[:-1]), body=c[-1])

    def binding(self, c):
        return (str(c[0]), c[1])

    @v_args(meta=True)
    def or_(self, meta, c):
        return A.BoolOp(*self._pos(meta), op="or", left=c[0], right=c[1])

    @v_args(meta=True)
    def and_(self, meta, c):
        return A.BoolOp(*self._pos(meta), op="and", left=c[0], right=c[1])

    @v_args(meta=True)
    def not_(self, meta, c):
        return A.Not(*self._pos(meta), operand=c[0])

    @v_args(meta=True)
    def compare(self, meta, c):
        return A.BinOp(*self._pos(meta), op=str(c[1]), left=c[0], right=c[2])

    @v_args(meta=True)
    def isin(self, meta, c):
        return A.BinOp(*self._pos(meta), op="in", left=c[0], right=c[1])

    @v_args(meta=True)
    def notin(self, meta, c):
        return A.BinOp(*self._pos(meta), op="not in", left=c[0], right=c[1])

    add = _bin("+")
    sub = _bin("-")
    mul = _bin("*")
    div = _bin("/")
    floordiv = _bin("//")
    mod = _bin("%")

    @v_args(meta=True)
    def neg(self, meta, c):
        return A.Neg(*self._pos(meta), operand=c[0])

    @v_args(meta=True)
    def call(self, meta, c):
        func, args = c
        posargs, gen = args if args is not None else ((), None)
        return A.Call(*self._pos(meta), func=func, args=posargs, gen=gen)

    @v_args(meta=True)
    def index(self, meta, c):
        return A.Index(*self._pos(meta), obj=c[0], key=c[1])

    @v_args(meta=True)
    def attr(self, meta, c):
        return A.Attr(*self._pos(meta), obj=c[0], name=str(c[1]))

    @v_args(meta=True)
    def genargs(self, meta, c):
        elt, *fors = c
        return ((), A.Comp(*self._pos(meta), kind="gen", elt=elt, fors=tuple(fors)))

    def args(self, c):
        return (tuple(x for x in c if x is not None), None)

    @v_args(meta=True)
    def comp_for(self, meta, c):
        target, it, *conds = c
        return A.CompFor(*self._pos(meta), target=target, iter=it, conds=tuple(conds))

    def comp_if(self, c):
        return c[0]

    def target(self, c):
        return tuple(str(t) for t in c)

    @v_args(meta=True)
    def number(self, meta, c):
        text = str(c[0])
        if len(text) > MAX_DIGITS:       # (Python reads no int of 4,300 digits: the limit of input comes first)
            raise _TooLong(text, meta.line, meta.column)
        return A.Const(*self._pos(meta), value=float(text) if "." in text else int(text))

    @v_args(meta=True)
    def string(self, meta, c):
        raw = str(c[0])[1:-1]
        value = _unescape(raw, meta) if "\\" in raw else raw
        return A.Const(*self._pos(meta), value=value)

    @v_args(meta=True)
    def true(self, meta, c):
        return A.Const(*self._pos(meta), value=True)

    @v_args(meta=True)
    def false(self, meta, c):
        return A.Const(*self._pos(meta), value=False)

    @v_args(meta=True)
    def none(self, meta, c):
        return A.Const(*self._pos(meta), value=None)

    @v_args(meta=True)
    def name(self, meta, c):
        return A.Name(*self._pos(meta), id=str(c[0]))

    @v_args(meta=True)
    def tuple(self, meta, c):
        return A.TupleX(*self._pos(meta), items=tuple(c))

    @v_args(meta=True)
    def listx(self, meta, c):
        return A.ListX(*self._pos(meta), items=tuple(x for x in c if x is not None))

    @v_args(meta=True)
    def listcomp(self, meta, c):
        return A.Comp(*self._pos(meta), kind="list", elt=c[0], fors=tuple(c[1:]))

    @v_args(meta=True)
    def setcomp(self, meta, c):
        return A.Comp(*self._pos(meta), kind="set", elt=c[0], fors=tuple(c[1:]))


_TO_AST = _ToAst()
