"""The limits of input, stated once.

Whatever a user writes or produces (a rulebook, a variant, a scenario, a
replay, a move, a line typed at the human seat, a request to the page) is
read within these bounds, so that no input runs away in time or memory and
none escapes as a raw Python error (Python itself refuses to read a number
of more than 4,300 digits, and a JSON document nested some thousand levels
deep exhausts its stack). Each bound is far beyond any real game; a breach
is one clear error at its place, naming the limit (docs/rulebook-format.md,
"Limits of input").
"""

from __future__ import annotations

import json

MAX_DIGITS = 100            # digits of a whole number written anywhere (2**256 has 78)
MAX_COUNT = 100_000         # items of one kind put into one zone at once (a scenario's 'piece*N')
MAX_BOARD_SIDE = 200        # rows or columns of a board (the rulebook schema's boards.size says it too)
MAX_GRID_SIDE = 1_000       # rows or columns of a grid zone (its cells are made as items come: the schema's)
MAX_NESTING = 100           # levels of lists and mappings in a JSON document (a replay line, a request to the page)
MAX_LINE = 10_000           # characters of one move, or of a line typed at the human seat
MAX_BODY = 8_000_000        # bytes of one request to the page (a replay uploaded: at most 4,000,000)


class OverLimit(ValueError):
    """Input past one of the limits above (the reader that meets it places
    it: file, line and column, a 400 on the page, a new prompt at the
    terminal)."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.message, self.hint = message, hint


def check_digits(digits: str, what: str = "a number") -> None:
    if len(digits) > MAX_DIGITS:
        raise OverLimit(f"{what} of {len(digits)} digits is past the limit of {MAX_DIGITS} digits",
                        hint="no game needs numbers that long")


def check_text(text: str, what: str = "the text") -> None:
    """Text that cannot be written as UTF-8 (a lone surrogate, such as
    '\\ud800' escaped in a YAML or JSON string) is refused where it is read,
    before it is digested, printed or stored."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise OverLimit(f"{what} holds a character that is not valid Unicode ({ord(text[e.start]):#06x}, a lone "
                        f"surrogate) at character {e.start + 1}", hint="write the character itself, not half "
                        "of its UTF-16 escape") from None


def check_strings(value, what: str = "the text") -> None:
    """check_text on every string (keys included) of a loaded document."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            check_text(v, what)
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, (list, tuple)):
            stack.extend(v)


def _parse_int(text: str) -> int:
    check_digits(text.lstrip("-"), "a number")
    return int(text)


def load_json(text: str):
    """json.loads within the limits: numbers of at most MAX_DIGITS digits,
    at most MAX_NESTING levels, valid Unicode (OverLimit past one; the
    json module's own ValueError for text that is not JSON)."""
    depth = _nesting(text)
    if depth > MAX_NESTING:
        raise OverLimit(f"the JSON nests {depth} levels deep, past the limit of {MAX_NESTING}",
                        hint="no record of a game nests more than a few levels")
    value = json.loads(text, parse_int=_parse_int)
    check_strings(value, "the JSON")
    return value


def _nesting(text: str) -> int:
    """The deepest nesting of brackets outside strings (a bound, before parsing)."""
    depth = most = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > most:
                most = depth
        elif ch in "]}":
            depth -= 1
    return most
