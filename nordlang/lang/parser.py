"""Parse nordlang text into the syntax tree, with plain-word parse errors."""

from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar

from ..errors import LangError, Pos, describe_value
from ..limits import MAX_DIGITS

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


def _expected_words(expected) -> str:
    words = sorted({_WORDS.get(e, repr(e.lower()) if e.isalpha() else e) for e in expected})
    if len(words) > 6:
        words = words[:6] + ["..."]
    return ", ".join(words)


def parse(text: str, mode: str = "expr", pos: Pos | None = None, locate=None):
    """Parse `text` as an expression (mode "expr") or effects ("effects").

    `locate(line, col)` maps a position inside `text` to a file Pos. While
    a rulebook loads (see `trees`), each text's tree is looked up first and
    kept: a tree depends on the text and the mode alone.
    """
    if not isinstance(text, str):
        raise LangError(f"expected nordlang text, got {describe_value(text)}", pos if pos is not None or locate is None
                        else locate(1, 1), hint="write it in quotes: '...'")
    table = _TREES.get()
    if table is None:
        return _parse(text, mode, pos, locate)
    key = (mode == "expr", text)
    tree = table.get(key)
    if tree is None:
        tree = table[key] = _parse(text, mode, pos, locate)
    return tree


_TREES: ContextVar[dict | None] = ContextVar("nordlang_trees", default=None)


@contextmanager
def trees(table: dict):
    """Within this block, parse() takes the trees of `table` ((is an
    expression, text) -> tree) and adds those it makes: the compiled-rulebook
    cache keeps them, so that a rulebook loaded again needs no lark."""
    token = _TREES.set(table)
    try:
        yield table
    finally:
        _TREES.reset(token)


def _parse(text: str, mode: str, pos: Pos | None, locate):
    from lark.exceptions import UnexpectedInput, VisitError

    from .lark_tree import _TO_AST, _BadEscape, _lark, _TooLong
    start = "start_expr" if mode == "expr" else "start_effects"
    try:
        tree = _lark().parse(text, start=start)
    except UnexpectedInput as e:
        raise _parse_error(e, text, locate, pos, effects=mode != "expr") from None
    try:
        return _TO_AST.transform(tree)
    except (RecursionError, VisitError) as e:
        orig = e.orig_exc if isinstance(e, VisitError) else e
        if isinstance(orig, _BadEscape):
            where = locate(orig.line, orig.col) if locate else Pos(pos.file if pos else None, orig.line, orig.col)
            raise LangError(f"unknown escape {orig.text!r} in a string", where, text=orig.text,
                            expected="\\n, \\t, \\\\, \\\" or \\'") from None
        if isinstance(orig, _TooLong):
            where = locate(orig.line, orig.col) if locate else Pos(pos.file if pos else None, orig.line, orig.col)
            raise LangError(f"a number of {len(orig.text)} characters is past the limit of {MAX_DIGITS} digits",
                            where, text=orig.text[:40] + "...", hint="no game needs numbers that long") from None
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
    import lark
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
