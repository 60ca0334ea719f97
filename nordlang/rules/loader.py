"""Load a rulebook (with its includes and variant overlays), validate it,
and compile it into `Rules`.

Errors are collected, not raised one by one: a user sees every mistake of
a file in one run, each with file, line and column.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from ..errors import ErrorList, LangError, LoadError, NordError, Pos, SchemaError, did_you_mean
from ..lang.parser import KEYWORDS
from ..render.colors import is_color
from . import schema as schema_mod
from .yamlpos import Source, load_yaml

_SIG = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*$")


class Doc:
    """A merged document: data plus, for each top-level key, where it came from."""

    def __init__(self):
        self.data: dict = {}
        self.origin: dict = {}      # top key -> (Source, path prefix in that source)
        self.overrides: dict = {}   # full path -> (Source, path) for values a variant replaced
        self.files: list[str] = []

    def source_of(self, path):
        """(Source, path in that source) for a path of the merged data."""
        path = tuple(path)
        for n in range(len(path), 0, -1):
            hit = self.overrides.get(path[:n])
            if hit is not None:
                src, base = hit
                return src, base + path[n:]
        for n in range(min(len(path), 2), 0, -1):
            hit = self.origin.get(path[:n])
            if hit is not None:
                return hit[0], hit[1] + path
        return (self.origin.get((), (None, ()))[0], path)

    def pos(self, path, key=False) -> tuple[Pos, str | None]:
        src, p = self.source_of(path)
        if src is None:
            return Pos(self.files[0] if self.files else None), None
        pos = src.pos(p, key=key)
        return pos, src.line(pos.line)

    def locator(self, path):
        """line/col inside the string at `path` -> file Pos."""
        src, p = self.source_of(path)
        if src is None:
            return lambda line, col: Pos(None, line, col)
        return lambda line, col: src.locate(p, line, col)

    def line_of(self, pos: Pos):
        for src in self._sources():
            if src.file == pos.file:
                return src.line(pos.line) if pos.line else None
        return None

    def _sources(self):
        seen = []
        for src, _ in list(self.origin.values()) + list(self.overrides.values()):
            if src is not None and src not in seen:
                seen.append(src)
        return seen


def _within(base: Path, target: Path) -> bool:
    try:
        target.resolve().relative_to(base.resolve())
        return True
    except ValueError:
        return False


def file_kind(data) -> str:
    """'rulebook', 'variant', 'scenario' or 'unknown', from a file's top-level keys."""
    if isinstance(data, dict):
        if "patch" in data or "extends" in data:
            return "variant"
        if isinstance(data.get("game"), str) or ("map" in data and "game" not in data):
            return "scenario"       # (a scenario's game is a name; a rulebook's, a mapping)
        if {"position", "moves", "expect"} & set(data) and "turn" not in data:
            return "scenario"           # (on the rulebook's board: it draws none)
        if {"game", "include", "turn", "setup"} & set(data):
            return "rulebook"
    return "unknown"


def kind_of_file(path) -> str:
    """file_kind of a YAML file (a LoadError when it cannot be read)."""
    return file_kind(load_yaml(path)[0])


# what to do with a file of another kind, by the kind that was expected
WRONG_KIND_HINTS = {
    ("rulebook", "variant"): "give a variant with --variant (it extends the rulebook)",
    ("rulebook", "scenario"): "run a scenario with nord test, draw it with nord render, explain with nord explain",
    ("scenario", "variant"): "check a variant with nord validate, or play it with --variant",
    ("scenario", "rulebook"): "check a rulebook with nord validate, or play it with --rulebook",
}


def wrong_kind(path, data, expected: str) -> SchemaError | None:
    """An error when a file given as one kind is another (None when it fits)."""
    kind = file_kind(data)
    if kind in (expected, "unknown"):
        return None             # (a broken file of the expected kind: its own checks say what is wrong)
    return SchemaError(f"this file is a {kind}, not a {expected}", Pos(str(path), 1, 1),
                       hint=WRONG_KIND_HINTS.get((expected, kind)))


def read_rulebook(path: Path, errors: list) -> Doc:
    """Read a rulebook file and its includes into one Doc."""
    doc = Doc()
    root = path.parent
    data, src = load_yaml(path)
    doc.files.append(str(path))
    if not isinstance(data, dict):
        raise SchemaError("a rulebook must be a mapping of sections", Pos(str(path), 1, 1))
    mistaken = wrong_kind(path, data, "rulebook")
    if mistaken is not None:
        raise mistaken
    doc.origin[()] = (src, ())
    includes = data.pop("include", []) or []
    for k, v in data.items():
        doc.data[k] = v
        doc.origin[(k,)] = (src, ())
    if not isinstance(includes, list):
        errors.append(SchemaError("'include' must be a list of file names", src.pos(("include",))))
        includes = []
    for i, inc in enumerate(includes):
        if not isinstance(inc, str):
            errors.append(SchemaError("an include must be a file name", src.pos(("include", i))))
            continue
        target = root / inc
        if not _within(root, target):
            errors.append(LoadError(f"include {inc!r} leaves the rulebook's folder", src.pos(("include", i)),
                                    source_line=src.line(src.pos(("include", i)).line),
                                    hint="includes must stay inside the rulebook's own folder"))
            continue
        try:
            sub, ssrc = load_yaml(target)
        except NordError as e:
            errors.append(e)
            continue
        doc.files.append(str(target))
        if not isinstance(sub, dict):
            errors.append(SchemaError("an included file must be a mapping of sections", Pos(str(target), 1, 1)))
            continue
        for k, v in sub.items():
            if k in doc.data and isinstance(v, dict) and isinstance(doc.data[k], dict):
                # a section split over files: its entries merge, each defined once
                for sk, sv in v.items():
                    if sk in doc.data[k]:
                        p = ssrc.pos((k, sk), key=True)
                        other = doc.source_of((k, sk))[0]
                        errors.append(SchemaError(f"{k}/{sk} is defined twice (also in {other.file})", p,
                                                  source_line=ssrc.line(p.line)))
                        continue
                    doc.data[k][sk] = sv
                    doc.origin[(k, sk)] = (ssrc, ())
                continue
            if k in doc.data:
                p = ssrc.pos((k,), key=True)
                errors.append(SchemaError(f"section {k!r} is defined twice (also in {doc.source_of((k,))[0].file})",
                                          p, source_line=ssrc.line(p.line)))
                continue
            doc.data[k] = v
            doc.origin[(k,)] = (ssrc, ())
    return doc


def parse_signature(key: str):
    """'name(a, b)' -> ('name', ('a', 'b')); None when malformed."""
    m = _SIG.match(str(key))
    if not m:
        return None
    params = tuple(p.strip() for p in m.group(2).split(",") if p.strip()) if m.group(2) else ()
    if any(not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", p) for p in params):
        return None
    if KEYWORDS.intersection((m.group(1),) + params):
        return None             # (a word of the language names nothing)
    return m.group(1), params


def digest(data) -> str:
    try:
        canon = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    except TypeError:       # keys of both kinds in one mapping (2: and "3":): sorted as texts
        canon = json.dumps(_text_keys(data), sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                           default=str)
    return hashlib.sha256(canon.encode("utf-8")).hexdigest()[:16]


def _text_keys(v):
    if isinstance(v, dict):
        return {str(k): _text_keys(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_text_keys(x) for x in v]
    return v


def validate_doc(doc: Doc) -> list[NordError]:
    errors = schema_mod.validate(doc.data, "rulebook", lambda path, key=False: doc.pos(path, key))
    return errors + _check_players(doc) + _check_color_values(doc) + _check_row_labels(doc) + _check_notation(doc)


def _check_notation(doc: Doc) -> list[NordError]:
    """A separator of the notation reads as one: no letter, digit, blank,
    comma (a set's) or bracket (a part's) in it."""
    notation = doc.data.get("notation")
    errors = []
    for key in ("tuple", "path"):
        sep = notation.get(key) if isinstance(notation, dict) else None
        if isinstance(sep, str) and sep and any(c.isalnum() or c.isspace() or c in ",()" for c in sep):
            pos, line = doc.pos(("notation", key))
            errors.append(SchemaError(f"notation.{key} is {sep!r}, which would read as part of a name, a set "
                                      "or a bracket", pos, source_line=line,
                                      expected="punctuation other than ',', '(' and ')', like '>' or '-'"))
    return errors


def _check_color_values(doc: Doc) -> list[NordError]:
    """Every `color` a section's entries give (terrains, features, pieces,
    structures) is a colour a picture can be drawn in."""
    errors = []
    for section in ("terrains", "features", "pieces", "structures"):
        entries = doc.data.get(section)
        for name, spec in (entries.items() if isinstance(entries, dict) else ()):
            value = spec.get("color") if isinstance(spec, dict) else None
            if isinstance(value, str) and not is_color(value):
                pos, line = doc.pos((section, name, "color"))
                errors.append(SchemaError(f"{section}.{name}.color is {value!r}, which is no colour", pos,
                                          source_line=line, expected="#rgb, #rrggbb or a CSS colour name"))
            by_tag = spec.get("tag_colors") if isinstance(spec, dict) else None
            tags = spec.get("tags") if isinstance(spec, dict) else None
            for tag, value in (by_tag.items() if isinstance(by_tag, dict) else ()):
                pos, line = doc.pos((section, name, "tag_colors", tag))
                if isinstance(value, str) and not is_color(value):
                    errors.append(SchemaError(f"{section}.{name}.tag_colors.{tag} is {value!r}, which is no colour",
                                              pos, source_line=line, expected="#rgb, #rrggbb or a CSS colour name"))
                if isinstance(tags, list) and tag not in [str(t) for t in tags]:
                    errors.append(SchemaError(f"{section}.{name}.tag_colors names {tag!r}, which is no tag of {name}",
                                              pos, source_line=line, expected=", ".join(map(str, tags)),
                                              hint=did_you_mean(tag, [str(t) for t in tags])))
    return errors


def _check_row_labels(doc: Doc) -> list[NordError]:
    """A grid's row_labels name each of its rows once."""
    errors = []
    zones = doc.data.get("zones")
    for name, spec in (zones.items() if isinstance(zones, dict) else ()):
        labels = spec.get("row_labels") if isinstance(spec, dict) else None
        if not isinstance(labels, list):
            continue
        pos, line = doc.pos(("zones", name, "row_labels"))
        if spec.get("type") != "grid":
            errors.append(SchemaError(f"zones/{name}: 'row_labels' goes only with type: grid", pos, source_line=line))
        elif isinstance(spec.get("rows"), int) and len(labels) != spec["rows"]:
            errors.append(SchemaError(f"zones/{name}: row_labels names {len(labels)} row(s), the grid has "
                                      f"{spec['rows']}", pos, source_line=line,
                                      hint="one name for each row, from the top"))
    return errors


def _check_players(doc: Doc) -> list[NordError]:
    """What the schema cannot say of `players`: one colour per player, each
    named once, and min <= default <= max."""
    pl = doc.data.get("players")
    if not isinstance(pl, dict) or not all(isinstance(pl.get(k), int) for k in ("min", "max")) \
            or not isinstance(pl.get("colors"), list):
        return []
    errors = []

    def err(path, msg, **kw):
        pos, line = doc.pos(("players",) + path)
        errors.append(SchemaError(msg, pos, source_line=line, **kw))
    colors = [c.get("name") if isinstance(c, dict) else c for c in pl["colors"]]
    for i, c in enumerate(colors):
        if c in colors[:i]:
            err(("colors", i), f"the colour {c!r} is named twice: each player needs a colour of their own")
        value = pl["colors"][i].get("value") if isinstance(pl["colors"][i], dict) else None
        if isinstance(value, str) and not is_color(value):
            err(("colors", i, "value"), f"the colour value {value!r} of {c!r} is no colour",
                expected="#rgb, #rrggbb or a CSS colour name (like red or darkgreen)")
    lo, hi = pl["min"], pl["max"]
    if lo > hi:
        err(("max",), f"players.max ({hi}) is below players.min ({lo})")
    elif hi > len(colors):
        err(("max",), f"players.max is {hi}, but {len(colors)} colour(s) are named: one per player",
            hint=f"name {hi - len(colors)} more colour(s) in players.colors, or lower players.max")
    default = pl.get("default")
    if isinstance(default, int) and lo <= hi and not lo <= default <= hi:
        err(("default",), f"players.default ({default}) is not between players.min ({lo}) and max ({hi})")
    return errors


def check_errors(errors: list[NordError]) -> None:
    if errors:
        if len(errors) == 1:
            raise errors[0]
        raise ErrorList(errors)


def fix_lines(doc: Doc, errors: list[NordError]) -> None:
    """Give every error that has a file position its source line."""
    for e in errors:
        if e.source_line is None and e.pos is not None and e.pos.line:
            e.source_line = doc.line_of(e.pos)


__all__ = ["Doc", "read_rulebook", "parse_signature", "digest", "validate_doc", "check_errors", "fix_lines",
           "LangError", "did_you_mean", "Source"]
