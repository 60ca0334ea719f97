"""Safe YAML loading that remembers where every value came from.

Values come back as plain dicts, lists and scalars; a `Source` keeps the
line and column of each value (and each mapping key) by its path, so later
stages (schema, checker, runtime) can point at the exact text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ..errors import LoadError, Pos

_STD_TAGS = {
    "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null", "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
}


@dataclass
class Source:
    """One loaded file: its text and the position of each value by path."""

    file: str
    text: str
    values: dict = field(default_factory=dict)   # path -> (line0, col0, style, end_line0, end_col0)
    keys: dict = field(default_factory=dict)     # path -> (line0, col0)

    def line(self, n: int) -> str | None:
        lines = self.text.splitlines()
        return lines[n - 1] if 1 <= n <= len(lines) else None

    def pos(self, path, key: bool = False) -> Pos:
        """Position of the value (or key) at `path`, or of its nearest parent."""
        path = tuple(path)
        table = self.keys if key else self.values
        while path and path not in table:
            path = path[:-1]
            table = self.values
        info = table.get(path) or self.values.get(path)
        if info is None:
            return Pos(self.file, 1, 1)
        return Pos(self.file, info[0] + 1, info[1] + 1)

    def locate(self, path, line: int, col: int) -> Pos:
        """Map (line, col), 1-based inside the string at `path`, to the file."""
        info = self.values.get(tuple(path))
        if info is None:
            return self.pos(path)
        l0, c0, style, el0, ec0 = info
        if style == "|":
            # literal block: content line k sits k lines below the indicator
            fl = l0 + line  # 0-based file line of content line `line`
            src = self.line(fl + 1) or ""
            indent = len(src) - len(src.lstrip(" "))
            return Pos(self.file, fl + 1, indent + col)
        quote = 1 if style in ("'", '"') else 0
        if l0 == el0 or style is None and line == 1 and col == 1:
            return Pos(self.file, l0 + 1, c0 + quote + col)
        # folded or multi-line flow scalar: content lines joined by spaces
        offset = col - 1
        lines = self.text.splitlines()
        for i in range(l0, min(el0 + 1, len(lines))):
            raw = lines[i]
            start = c0 + quote if i == l0 else len(raw) - len(raw.lstrip(" "))
            seg = raw[start:].rstrip()
            if i == el0 and quote:
                seg = seg[:-1] if seg.endswith(("'", '"')) else seg
            if offset <= len(seg):
                return Pos(self.file, i + 1, start + offset + 1)
            offset -= len(seg) + 1
        return Pos(self.file, l0 + 1, c0 + 1)


def load_yaml(path: str | Path, text: str | None = None) -> tuple[object, Source]:
    """Load one YAML file safely; raise LoadError with position on failure."""
    path = str(path)
    if text is None:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise LoadError(f"no such file: {path}", Pos(path)) from None
        except IsADirectoryError:
            raise LoadError(f"is a directory, not a file: {path}", Pos(path)) from None
        except UnicodeDecodeError as e:
            raise LoadError(f"not UTF-8 text ({e.reason})", Pos(path)) from None
        except OSError as e:
            raise LoadError(f"cannot read {path}: {e.strerror}", Pos(path)) from None
    src = Source(path, text)
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        pos = Pos(path, mark.line + 1, mark.column + 1) if mark else Pos(path)
        msg = (e.problem or "malformed YAML").strip()
        if e.context:
            msg = f"{msg} ({e.context.strip()})"
        raise LoadError(f"malformed YAML: {msg}", pos,
                        source_line=src.line(pos.line) if pos.line else None) from None
    except yaml.YAMLError as e:
        raise LoadError(f"malformed YAML: {e}", Pos(path)) from None
    if node is None:
        return None, src
    return _construct(node, (), src), src


def _construct(node, path, src: Source):
    m, e = node.start_mark, node.end_mark
    if node.tag not in _STD_TAGS:
        raise LoadError(f"YAML tag {node.tag!r} is not allowed", Pos(src.file, m.line + 1, m.column + 1),
                        source_line=src.line(m.line + 1),
                        hint="rulebooks use plain YAML only: no language-specific tags")
    src.values[path] = (m.line, m.column, getattr(node, "style", None), e.line, e.column)
    if isinstance(node, yaml.MappingNode):
        out = {}
        for knode, vnode in node.value:
            if not isinstance(knode, yaml.ScalarNode):
                raise LoadError("mapping keys must be plain scalars",
                                Pos(src.file, knode.start_mark.line + 1, knode.start_mark.column + 1))
            if knode.tag == "tag:yaml.org,2002:merge":
                raise LoadError("YAML merge keys (<<) are not supported",
                                Pos(src.file, knode.start_mark.line + 1, knode.start_mark.column + 1),
                                hint="use a variant overlay instead")
            key = _scalar(knode, src)
            if not isinstance(key, (str, int)) or isinstance(key, bool):
                key = str(key)
            if key in out:
                raise LoadError(f"duplicate key {key!r}",
                                Pos(src.file, knode.start_mark.line + 1, knode.start_mark.column + 1),
                                source_line=src.line(knode.start_mark.line + 1),
                                hint="each key may appear once in a mapping; nothing is silently overwritten")
            src.keys[path + (key,)] = (knode.start_mark.line, knode.start_mark.column)
            out[key] = _construct(vnode, path + (key,), src)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_construct(v, path + (i,), src) for i, v in enumerate(node.value)]
    return _scalar(node, src)


def _scalar(node, src: Source):
    loader = yaml.SafeLoader("")
    try:
        return loader.construct_object(node, deep=True)
    except yaml.constructor.ConstructorError as e:
        m = node.start_mark
        raise LoadError(f"bad YAML value: {e.problem}", Pos(src.file, m.line + 1, m.column + 1),
                        source_line=src.line(m.line + 1)) from None
    finally:
        loader.dispose()
