"""Parse nordlang text into the syntax tree, with plain-word parse errors."""

from __future__ import annotations

import re
from functools import lru_cache
from importlib.resources import files

import lark
from lark import Token, Transformer, v_args

from ..errors import LangError, Pos, describe_value
from . import ast as A

_WORDS = {
    "NAME": "a name", "NUMBER": "a number", "STRING": "a string", "RPAR": "')'",
    "LPAR": "'('", "RSQB": "']'", "LSQB": "'['", "RBRACE": "'}'", "LBRACE": "'{'",
    "COMMA": "','", "CMP": "a comparison", "PLUS": "'+'", "MINUS": "'-'", "STAR": "'*'",
    "SLASH": "'/'", "DOT": "'.'", "EQUAL": "'='", "SEMICOLON": "';'", "$END": "end of text",
    "PERCENT": "'%'", "__ANON_0": "'//'",
}
_CLOSERS = {"RPAR": "')'", "RSQB": "']'", "RBRACE": "'}'"}
_CLOSING = {"(": "')'", "[": "']'", "{": "'}'"}
_OPERATORS = {"PLUS", "MINUS", "STAR", "SLASH", "PERCENT", "CMP", "AND", "OR", "__ANON_0"}


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


def _expected_words(expected) -> str:
    words = sorted({_WORDS.get(e, repr(e.lower()) if e.isalpha() else e) for e in expected})
    if len(words) > 6:
        words = words[:6] + ["..."]
    return ", ".join(words)


def parse(text: str, mode: str = "expr", pos: Pos | None = None, locate=None):
    """Parse `text` as an expression (mode "expr") or effects ("effects").

    `locate(line, col)` maps a position inside `text` to a file Pos.
    """
    if not isinstance(text, str):
        raise LangError(f"expected nordlang text, got {describe_value(text)}", pos if pos is not None or locate is None
                        else locate(1, 1), hint="write it in quotes: '...'")
    start = "start_expr" if mode == "expr" else "start_effects"
    try:
        tree = _lark().parse(text, start=start)
    except lark.exceptions.UnexpectedInput as e:
        raise _parse_error(e, text, locate, pos, effects=mode != "expr") from None
    try:
        return _TO_AST.transform(tree)
    except (RecursionError, lark.exceptions.VisitError) as e:
        orig = e.orig_exc if isinstance(e, lark.exceptions.VisitError) else e
        if isinstance(orig, _BadEscape):
            where = locate(orig.line, orig.col) if locate else Pos(pos.file if pos else None, orig.line, orig.col)
            raise LangError(f"unknown escape {orig.text!r} in a string", where, text=orig.text,
                            expected="\\n, \\t, \\\\, \\\" or \\'") from None
        if not isinstance(orig, RecursionError):
            raise
        where = locate(1, 1) if locate else pos
        raise LangError("the text nests too deeply", where, hint="split it into definitions") from None


# the words of the language, which name nothing (the grammar's NAME excludes them)
KEYWORDS = frozenset({"and", "elif", "else", "false", "for", "if", "in", "let", "none", "not", "or", "then", "true"})
_OPERAND_BEFORE = re.compile(r"(==|!=|<=|>=|[-+*/%<>]|\band|\bor|\bnot)\s*$")
_NAMING = re.compile(r"(?:^|[;{\n])\s*([A-Za-z_]\w*)\s*$")


def _equals_hint(text: str, at: int | None, effects: bool) -> str:
    """What a lone '=' probably meant: '>=' or '<=' (written '=>', '=<'),
    naming a value in a statement of effects (let), or a comparison."""
    if at is None:
        return "compare with '==', not '='"
    after = text[at + 1:at + 2]
    if after in (">", "<"):
        return f"'greater or equal' is '>=', 'less or equal' is '<=' (not '={after}')"
    named = _NAMING.search(text[:at]) if effects else None
    if named:
        return f"to name a value write 'let {named.group(1)} = ...'; to compare, '=='"
    return "compare with '==', not '='"


_PAIRS = {")": "(", "]": "[", "}": "{"}


def _unclosed(text: str):
    """(index of a bracket never closed, index of the closer met instead or
    None at the end of the text), or None when every bracket closes; string
    literals and comments are skipped."""
    stack, i = [], 0
    while i < len(text):
        ch = text[i]
        if ch in "\"'":
            j = i + 1
            while j < len(text) and text[j] not in (ch, "\n"):
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if ch == "#":
            i = text.find("\n", i)
            if i < 0:
                break
        elif ch in "([{":
            stack.append(i)
        elif ch in _PAIRS:
            if not stack:
                return None             # a closer with nothing open: said as such
            if text[stack[-1]] != _PAIRS[ch]:
                return stack[-1], i
            stack.pop()
        i += 1
    return (stack[-1], None) if stack else None


def _line_col(text: str, i: int) -> tuple[int, int]:
    return text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 1


def _parse_error(e, text, locate, pos, effects=False) -> LangError:
    line, col = getattr(e, "line", 1), getattr(e, "column", 1)
    if line is None or line < 1:
        lines = text.splitlines() or [""]
        line, col = len(lines), len(lines[-1]) + 1
    where = locate(line, col) if locate else Pos(pos.file if pos else None, line, col)
    src_lines = text.splitlines() or [""]
    excerpt = src_lines[line - 1] if line - 1 < len(src_lines) else ""
    expected = getattr(e, "expected", None) or getattr(e, "allowed", None) or set()
    tok = getattr(e, "token", None)
    hint = None
    if not text.strip():
        msg, expected = "the text is empty", set()
        hint = "write an expression here, like 'true' or 'len(xs) > 0'"
    elif isinstance(e, lark.exceptions.UnexpectedCharacters):
        ch = text[e.pos_in_stream] if e.pos_in_stream < len(text) else "?"
        msg = f"unexpected character {ch!r}"
        if ch == "=":
            hint = _equals_hint(text, e.pos_in_stream, effects)
        elif ch in "&|!":
            hint = "use 'and', 'or' and 'not'"
    elif tok is not None and tok.type == "$END" or isinstance(e, lark.exceptions.UnexpectedEOF):
        closers = [w for k, w in _CLOSERS.items() if k in expected]
        prev = text.rstrip()[-1:] if text.strip() else ""
        msg = f"missing closing {closers[0]}" if closers else "the text ends too early"
        if prev in "([{":
            msg = f"the text ends right after {prev!r}: missing the rest and the closing bracket"
        elif not closers and expected & {"NAME", "NUMBER", "LPAR"}:
            msg = "operator without operand at the end"
    elif tok is not None and tok.type in _OPERATORS | {"AND", "OR"} and expected & {"NAME", "NUMBER"}:
        msg = f"operator {str(tok)!r} without operand"
    elif tok is not None and tok.type in _CLOSERS and not (expected & {tok.type}):
        before = _OPERAND_BEFORE.search(text[:tok.start_pos]) if tok.start_pos is not None else None
        if before and expected & {"NAME", "NUMBER"}:
            # `(1 + )`: the bracket does close one; the operator before it lacks its operand
            msg = f"operator {before.group(1)!r} without operand"
        else:
            msg = f"unbalanced {str(tok)!r}: nothing to close here"
    elif tok is not None:
        msg = f"unexpected {str(tok)!r}"
        if str(tok) in KEYWORDS and "NAME" in expected:
            hint = f"{str(tok)!r} is a word of the language, not a name: choose another name"
        elif str(tok) == "=":
            hint = _equals_hint(text, tok.start_pos, effects)
    else:
        msg = "cannot parse this text"
    open_at = _unclosed(text) if msg.startswith(("missing closing", "unbalanced")) else None
    if open_at is not None:
        # report the bracket that is never closed, where it stands, not where the parser gave up
        opener, closer = open_at
        bracket = text[opener]
        if closer is None:
            msg = f"missing closing {_CLOSING[bracket]}: this {bracket!r} is never closed"
        else:
            cl, cc = _line_col(text, closer)
            if locate is not None:
                shut = locate(cl, cc)
                cl, cc = shut.line, shut.col
            msg = f"this {bracket!r} is never closed"
            hint = f"the {text[closer]!r} at line {cl}, column {cc} comes first: " \
                   f"close the {bracket!r} with {_CLOSING[bracket]} before it"
        line, col = _line_col(text, opener)
        where = locate(line, col) if locate else Pos(pos.file if pos else None, line, col)
        excerpt = src_lines[line - 1] if line - 1 < len(src_lines) else ""
    return LangError(msg, where, text=text, expected=_expected_words(expected) if expected else None,
                     hint=hint, source_line=excerpt if locate is None else None)
