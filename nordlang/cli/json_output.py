"""`--json`: what a command prints, as one JSON document (JSON lines for
`nord test`, which streams), for pipelines. Each document's shape is a JSON
Schema under docs/schemas/ (docs/json-output.md says how to read them).

Every document has `command`, `ok` (the run succeeded: exit status 0) and
`errors` (each with kind, file, line, column, message, hint); an error that
stops a command before it has anything to report is a document with only
those three keys. The exit statuses are those of the text output.
"""

from __future__ import annotations

import json
import math
import sys
from fractions import Fraction


def problem(e) -> dict:
    """A NordError as JSON: where (file, line, column: null when unknown), what, and the hint."""
    pos = getattr(e, "pos", None)
    return {"kind": getattr(e, "kind", "error"), "type": type(e).__name__,
            "file": pos.file if pos is not None else None,
            "line": pos.line if pos is not None else None,
            "column": pos.col if pos is not None else None,
            "message": e.message, "expected": e.expected, "hint": e.hint,
            "text": e.format()}


def problems(e) -> list:
    """The errors an error stands for (an ErrorList holds several), as JSON."""
    return [problem(x) for x in getattr(e, "errors", None) or [e]]


def plain(x):
    """x with only what JSON holds: tuples as lists, keys as text, Fractions as
    numbers, and NaN or an infinity (not JSON) as null."""
    if isinstance(x, dict):
        return {str(k): plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    if isinstance(x, Fraction):
        x = float(x)
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


def emit(doc: dict, stream=None) -> None:
    """Print one document (one line: JSON lines and one document read alike)."""
    stream = stream or sys.stdout
    stream.write(json.dumps(plain(doc), ensure_ascii=False) + "\n")


def emit_failure(command: str, error) -> None:
    """The document of a command stopped by an error before it had a result."""
    emit({"command": command, "ok": False, "errors": problems(error)})


def result_line(name: str, report) -> dict:
    """A scenario's result as a line of `nord test --json`: each failure with its place."""
    return {"scenario": name, "result": "pass" if report.passed else "fail", "description": report.description,
            "failures": [{"file": f.pos.file if f.pos else None, "line": f.pos.line if f.pos else None,
                          "column": f.pos.col if f.pos else None, "what": f.what, "expected": f.expected,
                          "actual": f.actual, "message": f.message or None, "text": f.format()}
                         for f in report.failures]}
