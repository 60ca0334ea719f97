"""Why a move is legal or not, in one sentence a player reads first: the
verdict and its nearest reason, without the rules' places (the lines
`explain` gives, the rule taken apart, are the details behind it)."""

from __future__ import annotations

import re

MAX_REASON = 200
_RULE_AT = re.compile(r"(?:; |, | \()rule at [^)]*\)?")


def summary(legal: bool, lines: list[str]) -> str:
    """One sentence from `explain`'s lines: the first without where the rule
    is; for a refused move the last detail's reason, for a legal one what
    it would do."""
    if not lines:
        return ""
    head = _RULE_AT.sub(lambda m: ")" if m.group(0).startswith(("; ", ", ")) and m.group(0).endswith(")") else "",
                        lines[0]).rstrip()
    detail = [ln.strip() for ln in lines[1:] if ln.strip()]
    if legal:
        done = [" ".join(ln.split()) for ln in detail if ln != "it would do:"]
        more = "; ".join(done[:3]) + ("; …" if len(done) > 3 else "")
        return _end(f"{head}: it would do: {more}" if more else head)
    reason = _reason(detail[-1]) if detail else ""
    return _end(f"{head}: {reason}" if reason else head)


def _reason(line: str) -> str:
    """The reason a detail line gives: its last clause after a rule's text (what a place holds, a value)."""
    if line.startswith(("its options are:", "options of ")):
        return ""
    tail = line.rsplit("): ", 1)[-1] if "): " in line else line
    return tail if len(tail) <= MAX_REASON else tail[:MAX_REASON - 1] + "…"


def _end(text: str) -> str:
    text = " ".join(text.split())
    return text if text.endswith((".", "?", "!", "…")) else text + "."
