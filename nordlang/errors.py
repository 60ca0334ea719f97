"""Error types every user-facing failure goes through.

Each error carries where it came from (file, line, column) and, where it
helps, the offending text, what was expected and a hint, so the CLI can
print one precise message instead of a traceback.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass


@dataclass(frozen=True)
class Pos:
    """A place in a source file (1-based line and column)."""

    file: str | None = None
    line: int | None = None
    col: int | None = None

    def __str__(self) -> str:
        parts = [self.file or "<input>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.col is not None:
                parts.append(str(self.col))
        return ":".join(parts)


class NordError(Exception):
    """Base of every error the project raises on purpose."""

    kind = "error"
    # An error of running rules: the definitions and procedures it passed
    # through, innermost first, each (label, where it was called from), the
    # first with no call site (the error's own position is in it); a rule's
    # own text has no label. None: not placed yet (see lang/compiler.py _fail).
    frames: list | None = None
    last: object = None             # the compiled function that last added a frame

    def __init__(self, message: str, pos: Pos | None = None, *, text: str | None = None,
                 expected: str | None = None, hint: str | None = None,
                 source_line: str | None = None, width: int = 1):
        super().__init__(message)
        self.message = message
        self.pos = pos
        self.text = text
        self.expected = expected
        self.hint = hint
        self.source_line = source_line
        self.width = max(1, width)

    def at(self, pos: Pos | None, source_line: str | None = None) -> NordError:
        """Attach a position if the error does not have one yet."""
        if self.pos is None or self.pos.line is None:
            self.pos = pos
            if source_line is not None:
                self.source_line = source_line
        return self

    def format(self) -> str:
        head = f"{self.pos}: " if self.pos else ""
        lines = [f"{head}{self.kind}: {self.message}"]
        source_line = self.source_line
        if source_line is None and self.text is None:
            source_line = _line_of(self.pos)        # (errors found while playing carry no line of text)
        if source_line is not None and self.pos and self.pos.col:
            src = source_line.rstrip("\n")
            lines.append(f"    {src}")
            lines.append("    " + " " * (self.pos.col - 1) + "^" * min(self.width, max(1, len(src) - self.pos.col + 1)))
        for label, site in self.frames or ():
            if site is None:
                lines.append(f"    in {label}")
            else:
                lines.append(f"    called from {label}, at {site}" if label else f"    called from {site}")
        if self.text is not None and self.source_line is None:
            lines.append(f"    offending text: {self.text!r}")
        if self.expected:
            lines.append(f"    expected: {self.expected}")
        if self.hint:
            lines.append(f"    hint: {self.hint}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()


def describe_value(v) -> str:
    """A value from a user's file, in words: text 'x', the number 5, a list..."""
    if isinstance(v, bool):
        return f"{str(v).lower()}"
    if isinstance(v, str):
        return f"text {v!r}"
    if isinstance(v, (int, float)):
        return f"the number {v}"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "a mapping"
    return "nothing" if v is None else type(v).__name__


def describe_path(path, entries=None) -> str:
    """Where a value sits in a user's file, in words, list entries counted
    from 1 as people count them (and as a scenario's run names its moves):
    ('moves', 2, 'expect') -> 'moves/move 3/expect' with `entries` {1: 'move'}
    naming the entry at each index of the path; others are 'item N'."""
    words = []
    for i, part in enumerate(path):
        if isinstance(part, int) and not isinstance(part, bool):
            words.append(f"{(entries or {}).get(i, 'item')} {part + 1}")
        else:
            words.append(str(part))
    return "/".join(words) or "the top level"


def _line_of(pos: Pos | None) -> str | None:
    """The line a position points at, read from its file (None when it cannot be read)."""
    if pos is None or not pos.file or not pos.line or not pos.col:
        return None
    try:
        with open(pos.file, encoding="utf-8-sig") as f:
            for no, line in enumerate(f, 1):
                if no == pos.line:
                    return line
    except (OSError, UnicodeDecodeError, ValueError):
        pass
    return None


class LoadError(NordError):
    """A file cannot be read or parsed as YAML/JSON."""


class SchemaError(NordError):
    """A rulebook, variant or scenario does not match its schema."""


class LangError(NordError):
    """A nordlang expression does not parse or does not check."""


class EvalError(NordError):
    """An expression failed while the game was running."""


class LookError(NordError):
    """A look at a position (Game.look, Game.evaluate) names no space, zone or player of the game."""


class IllegalMove(NordError):
    """A move that the rules do not allow in the current state."""


class RulesError(NordError):
    """The rules demand something impossible (no move where one is required...)."""


class ReplayError(NordError):
    """A replay log that does not match the rulebook it names."""


class UsageError(NordError):
    """Bad command-line input."""


class ErrorList(NordError):
    """Several errors found in one run (validation reports them all)."""

    def __init__(self, errors: list[NordError]):
        super().__init__(f"{len(errors)} error(s)")
        self.errors = errors

    def format(self) -> str:
        return "\n".join(e.format() for e in self.errors)


def unique(errors) -> list:
    """The errors without repeats (same position and message), in order."""
    seen, out = set(), []
    for e in errors:
        key = (str(e.pos), e.message)
        if key not in seen:
            seen.add(key)
            out.append(e)
    return out


def did_you_mean(name: str, known) -> str | None:
    # (only names are matched: a key that is no text, a number or a list written by mistake, is nobody's name)
    close = difflib.get_close_matches(str(name), sorted({k for k in known if isinstance(k, str)}), n=3, cutoff=0.6)
    if not close:
        return None
    return "did you mean " + " or ".join(repr(c) for c in close) + "?"
