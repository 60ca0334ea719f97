"""Why a move is legal or not, in one sentence a player reads first: the
verdict and its nearest reason, without the rules' places (the lines
`explain` gives, the rule taken apart, are the details behind it)."""

from __future__ import annotations

import re

MAX_REASON = 200
_FALSE = re.compile(r"\s+->\s+false\b")
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
    reason = _false_condition(detail) or _deepest(lines[1:]) or (_reason(detail[-1]) if detail else "")
    return _end(f"{head}: {reason}" if reason else head)


def _deepest(lines: list[str]) -> str:
    """The reason furthest down the explainer's tree (the most indented line
    that is no list of values): where the move's value fell out."""
    said = [(len(ln) - len(ln.lstrip(" -")), ln.strip(" -")) for ln in lines
            if ln.strip() and " = " not in ln and not ln.strip().startswith(("its options are:", "options of "))
            and not ln.rstrip().endswith(":")]
    if not said:
        return ""
    depth = max(d for d, _ in said)
    return _reason([t for d, t in said if d == depth][-1])


def _false_condition(detail: list[str]) -> str:
    """The innermost condition the explainer found false, with the value that makes it so."""
    at = [i for i, ln in enumerate(detail) if _FALSE.search(ln)]
    if not at:
        return ""
    i = at[-1]
    said = " ".join(_FALSE.sub(" is false", detail[i]).split())
    if i + 1 < len(detail) and " = " in detail[i + 1] and not _FALSE.search(detail[i + 1]):
        said += ": " + detail[i + 1].split(";")[0].split("  (where")[0].strip()
    return _short(said)


def _reason(line: str) -> str:
    """The reason a detail line gives: its last clause after a rule's text (what a place holds, a value)."""
    if line.startswith(("its options are:", "options of ")):
        return ""
    return _short(line.rsplit("): ", 1)[-1] if "): " in line else line)


def _short(text: str) -> str:
    return text if len(text) <= MAX_REASON else text[:MAX_REASON - 1] + "…"


def _end(text: str) -> str:
    text = " ".join(text.split())
    return text if text.endswith((".", "?", "!", "…")) else text + "."
