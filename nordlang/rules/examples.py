"""Examples for the authoring reference, quoted from the bundled games'
files as they are written (comments kept): the first place a key is used."""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from .schemadoc import ANY

MAX_LINES = 12           # a longer example is cut, with a comment saying so


class Example(NamedTuple):
    file: str            # relative to the project's root: rulebook/nord/turn.yaml
    line: int
    text: str

    def markdown(self) -> str:
        return f"From `{self.file}`, line {self.line}:\n\n```yaml\n{self.text}\n```\n"


@cache
def files(kind: str) -> tuple:
    """(relative name, data, source) of the bundled 'rulebook' files (each
    game's folder, Nord's first, its main file first), 'variant' files or
    'scenario' files, in that order."""
    from .. import bundled
    from .yamlpos import load_yaml
    root = bundled("rulebook").parent
    out = []
    for game in _games():
        if kind == "rulebook":
            folder = bundled("rulebook") / game
            paths = sorted(folder.glob("*.yaml"), key=lambda p: (p.stem != game, p.name))
        else:
            folder = bundled("variants") / game
            paths = sorted((folder / "scenarios" if kind == "scenario" else folder).glob("*.yaml"))
        for p in paths:
            data, src = load_yaml(p)
            out.append((p.relative_to(root).as_posix(), data, src))
    return tuple(out)


def _games() -> list:
    from .games import bundled_games
    names = list(bundled_games())
    return sorted(names, key=lambda n: (n != "nord", n))


def matches(data, pattern: tuple, at: tuple = ()):
    """The paths in `data` that `pattern` names (ANY: any key or item), in file order."""
    if not pattern:
        yield at
        return
    head, rest = pattern[0], pattern[1:]
    if isinstance(data, dict):
        keys = list(data) if head == ANY else [head] if head in data else []
        for k in keys:
            yield from matches(data[k], rest, at + (k,))
    elif isinstance(data, list) and head == ANY:
        for i, v in enumerate(data):
            yield from matches(v, rest, at + (i,))


def mappings(data, at: tuple = ()):
    """Every mapping inside `data` with its path, in file order."""
    if isinstance(data, dict):
        yield at, data
        for k, v in data.items():
            yield from mappings(v, at + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from mappings(v, at + (i,))


def first(kind: str, pattern: tuple) -> Example | None:
    """The first use of the key at `pattern` in the bundled files of `kind`."""
    for name, data, src in files(kind):
        for path in matches(data, pattern):
            return quote(name, src, widen(src, path))
    return None


def first_in(kind: str, sections, accept) -> Example | None:
    """The first mapping under one of the top-level `sections` that `accept`
    gives a path in (a path relative to it: () quotes it whole), quoted."""
    for name, data, src in files(kind):
        if not isinstance(data, dict):
            continue
        for section in sections:
            if section not in data:
                continue
            for path, m in mappings(data[section], (section,)):
                sub = accept(m)
                if sub is not None:
                    return quote(name, src, widen(src, path + tuple(sub)))
    return None


def widen(src, path: tuple) -> tuple:
    """A key inside a mapping written on one line (`sea: {char: "~", land:
    false}`) is shown with that whole line: the path of the outermost such
    mapping."""
    while len(path) > 1:
        parent = src.values.get(path[:-1])
        if parent is None or parent[0] != parent[3] or parent[0] != src.values[path][0]:
            break
        path = path[:-1]
    return path


def quote(name: str, src, path: tuple, limit: int = MAX_LINES) -> Example:
    """The lines that write the value at `path` (with its key, or its list
    dash), dedented; cut after `limit` lines."""
    lines = src.text.splitlines()
    l0, c0, _style, el0, ec0 = src.values[path]
    if el0 == l0 and path in src.keys:               # a value on its key's line: that much of the line
        k0, kc0 = src.keys[path]
        if k0 == l0:
            return Example(name, l0 + 1, lines[l0][kc0:ec0].rstrip())
    if path and not isinstance(path[-1], int) and path in src.keys:
        l0, c0 = src.keys[path]
    elif path:
        c0 = max(0, c0 - 2)           # the list item's dash
    is_item = bool(path) and isinstance(path[-1], int)
    body = [lines[l0][c0:]]
    for raw in lines[l0 + 1:el0 + 1]:
        lead = len(raw) - len(raw.lstrip(" "))
        if path and raw.strip() and (lead < c0 or lead == c0 and (is_item or not raw.lstrip().startswith("- "))):
            break                      # the next item or key: this value has ended
        body.append(_dedent(raw, c0))
    while len(body) > 1 and (not body[-1].strip() or body[-1].lstrip().startswith("#")):
        body.pop()
    if len(body) > limit:
        indent = len(body[limit]) - len(body[limit].lstrip())
        body = body[:limit] + [" " * indent + f"# ... ({len(body) - limit} more lines)"]
    return Example(name, l0 + 1, "\n".join(x.rstrip() for x in body))


def _dedent(line: str, n: int) -> str:
    lead = len(line) - len(line.lstrip(" "))
    return line[min(n, lead):]
