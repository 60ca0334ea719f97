"""Safe YAML loading that remembers where every value came from.

Values come back as plain dicts, lists and scalars; a `Source` keeps the
line and column of each value (and each mapping key) by its path, so later
stages (schema, checker, runtime) can point at the exact text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from ..errors import LoadError, Pos
from ..limits import OverLimit, check_digits, check_text, load_json

_STD_TAGS = {
    "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null", "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq", "tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:binary",
}
_AS_WRITTEN = {"tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:binary"}   # kept as the text written


_ESCAPE_LEN = {"x": 4, "u": 6, "U": 10}      # \xNN, \uNNNN, \UNNNNNNNN (others: two characters)


def _raw_offset(line: str, start: int, style: str, col: int) -> int:
    """The 1-based column, counted from `start` in the file's line, of the
    col-th character of a quoted scalar's value: an escape ('' in single
    quotes, \" or \x41 in double quotes) is one character of the value but
    two or more of the file."""
    i, n = start, 1
    while n < col and i < len(line):
        if style == "'" and line.startswith("''", i):
            i += 2
        elif style == '"' and line[i] == "\\":
            i += _ESCAPE_LEN.get(line[i + 1:i + 2], 2)
        else:
            i += 1
        n += 1
    return i - start + (col - n) + 1


@dataclass
class Source:
    """One loaded file: its text and the position of each value by path."""

    file: str
    text: str
    values: dict = field(default_factory=dict)   # path -> (line0, col0, style, end_line0, end_col0)
    keys: dict = field(default_factory=dict)     # path -> (line0, col0)
    strings: dict = field(default_factory=dict)  # path -> value, for strings over several lines
    _segs: dict = field(default_factory=dict)

    def __getstate__(self):
        """What a pickle keeps (rules/cache.py): the fields, not the loader's
        working notes (_aliases holds the YAML library's marks)."""
        return {k: self.__dict__[k] for k in ("file", "text", "values", "keys", "strings", "_segs")}

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
        path = tuple(path)
        info = self.values.get(path)
        if info is None:
            return self.pos(path)
        l0, c0, style, el0, ec0 = info
        quote = 1 if style in ("'", '"') else 0
        if l0 == el0:
            if quote:
                return Pos(self.file, l0 + 1, c0 + 1 + _raw_offset(self.line(l0 + 1) or "", c0 + 1, style, col))
            return Pos(self.file, l0 + 1, c0 + col)
        segs = self._segments(path, info)
        if segs is None:
            return Pos(self.file, l0 + 1, c0 + 1)
        row = segs[line - 1] if 1 <= line <= len(segs) else []
        best = None
        for start, fline, fcol in row:
            if start <= col - 1:
                best = (start, fline, fcol)
        if best is None:
            return Pos(self.file, l0 + 1, c0 + 1)
        start, fline, fcol = best
        return Pos(self.file, fline, fcol + (col - 1 - start))

    def locate_key(self, path, line: int, col: int) -> Pos:
        """Map (line, col), 1-based inside the text of the key at `path`, to
        the file (past a quote, escapes counted as written)."""
        l0, c0 = self.keys.get(tuple(path), (0, 0))
        raw = self.line(l0 + 1) or ""
        quote = raw[c0] if c0 < len(raw) and raw[c0] in "'\"" else None
        if quote and line == 1:
            return Pos(self.file, l0 + 1, c0 + 1 + _raw_offset(raw, c0 + 1, quote, col))
        return Pos(self.file, l0 + line, c0 + col)

    def _segments(self, path, info):
        """For each line of a multi-line string value: (offset in the line,
        file line, file column) of each piece of the file it was folded from."""
        if path in self._segs:
            return self._segs[path]
        value = self.strings.get(path)
        l0, c0, style, el0, ec0 = info
        lines = self.text.splitlines()
        if value is None:
            return None
        pieces = []        # (file line 1-based, file col 1-based, text)
        if style in ("|", ">"):
            body = lines[l0 + 1:el0 + 1] if ec0 else lines[l0 + 1:el0]
            nonblank = [b for b in body if b.strip()]
            indent = (len(nonblank[0]) - len(nonblank[0].lstrip(" "))) if nonblank else 0
            for i, raw in enumerate(body):
                pieces.append((l0 + 2 + i, indent + 1, raw[indent:] if raw.strip() else ""))
        else:
            quote = 1 if style in ("'", '"') else 0
            for i in range(l0, min(el0 + 1, len(lines))):
                raw = lines[i]
                start = c0 + quote if i == l0 else len(raw) - len(raw.lstrip(" "))
                seg = raw[start:].rstrip()
                if i == el0 and quote and seg.endswith(("'", '"')):
                    seg = seg[:-1]
                pieces.append((i + 1, start + 1, seg))
        out = []
        k = 0
        for vline in value.split("\n"):
            row = []
            off = 0
            while k < len(pieces):
                fline, fcol, text = pieces[k]
                if not text:
                    k += 1
                    if not vline:
                        break
                    continue
                if vline.startswith(text, off):
                    row.append((off, fline, fcol))
                    off += len(text)
                    k += 1
                    if off < len(vline) and vline[off] == " ":
                        off += 1
                    if off >= len(vline):
                        break
                else:
                    break
            out.append(row)
        self._segs[path] = out
        return out


def load_yaml(path: str | Path, text: str | None = None) -> tuple[object, Source]:
    """Load one YAML file safely; raise LoadError with position on failure."""
    # (imported here: a rulebook the compiled-rulebook cache serves reads no YAML)
    import yaml
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
    if _is_replay(text):
        raise LoadError("this is a replay (a recorded game, one JSON line per move), not a YAML file",
                        Pos(path, 1, 1), source_line=src.line(1), hint=f"use `nord replay {path}`")
    loader = None
    try:
        loader = _loader_class()(text)
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as e:
        raise _yaml_error(e, src) from None
    except yaml.reader.ReaderError as e:
        before = text[:e.position]
        line = before.count("\n") + 1
        col = e.position - (before.rfind("\n") + 1) + 1
        code = e.character if isinstance(e.character, int) else ord(str(e.character)[:1] or "?")
        raise LoadError(f"unacceptable character (code {code:#06x}) in the file", Pos(path, line, col),
                        source_line=src.line(line), hint="remove it: YAML files hold printable text only") from None
    except yaml.YAMLError as e:
        raise LoadError(f"malformed YAML: {e}", Pos(path)) from None
    except RecursionError:
        raise LoadError("the YAML nests too deeply to read", Pos(path, 1, 1),
                        hint="no rulebook, variant or scenario needs lists or mappings hundreds of levels deep") \
            from None
    finally:
        aliases = loader.alias_marks if loader is not None else {}
        if loader is not None:
            loader.dispose()
    if node is None:
        return None, src
    src._aliases = aliases
    src._budget = [_NODE_BUDGET]
    src._seen = set()
    return _construct(node, (), src, frozenset(), None), src


def _is_replay(text: str) -> bool:
    """Whether the text is a replay file: its first line a JSON object naming a replay format."""
    if not text.startswith("{"):
        return False
    try:
        head = load_json(text.split("\n", 1)[0])
    except ValueError:
        return False
    return isinstance(head, dict) and str(head.get("format", "")).startswith("nordlang-replay/")


_NODE_BUDGET = 100_000        # values a file may expand to through aliases

_TOKENS = {
    "block end": "the end of the indented block", "block mapping start": "a new key",
    "block sequence start": "a '- ' list", "block entry": "a '- ' list item", "scalar": "a value",
    "flow sequence start": "'['", "flow sequence end": "']'", "flow mapping start": "'{'",
    "flow mapping end": "'}'", "flow entry": "','", "document start": "'---'", "document end": "'...'",
    "stream end": "the end of the file", "stream start": "the start of the file", "key": "a key",
    "value": "':'", "alias": "an alias", "anchor": "an anchor", "tag": "a tag",
}


def _plain(text: str) -> str:
    import re
    return re.sub(r"'?<([a-z ]+)>'?", lambda m: _TOKENS.get(m.group(1), m.group(1)), text)


def _yaml_error(e, src: Source) -> LoadError:
    """A pyyaml error in plain words, at the place that explains it."""
    problem = (e.problem or "").strip()
    context = (e.context or "").strip()
    mark = e.problem_mark or e.context_mark
    hint = None
    if "end of stream" in problem and e.context_mark is not None and "quoted" in context:
        mark = e.context_mark
        msg = "a quote is opened here and never closed"
        hint = "close the quote on the same line, or use a block (|) for long text"
    elif context.startswith("while parsing a flow") and problem.startswith("expected ','") and \
            e.context_mark is not None and mark is not None and \
            ("stream end" in problem or mark.line > e.context_mark.line):
        # the list or mapping ran on past its line: the bracket that opened it is the mistake
        bracket, closer = ("[", "]") if "sequence" in context else ("{", "}")
        found = f"line {mark.line + 1}, column {mark.column + 1}" if "stream end" not in problem \
            else "the end of the file"
        mark = e.context_mark
        msg = f"this '{bracket}' is never closed"
        hint = f"close it with '{closer}' (the text reads on to {found} looking for it)"
    elif "'\t'" in problem:
        msg = "found a tab ('\t'): YAML indents with spaces only"
    elif problem.startswith("expected <block end>"):
        msg = "this line does not line up with the lines above it"
        hint = "keys of one mapping start in the same column; a quote left open above can cause this too"
    elif "mapping values are not allowed" in problem:
        msg = "a ':' where a plain value goes on"
        hint = "put text that contains ': ' in quotes"
    else:
        msg = _plain(problem) + (f" ({_plain(context)})" if context else "")
    pos = Pos(src.file, mark.line + 1, mark.column + 1) if mark else Pos(src.file)
    return LoadError(f"malformed YAML: {msg}", pos, source_line=src.line(pos.line) if pos.line else None, hint=hint)


@cache
def _loader_class():
    import yaml

    class _Loader(yaml.SafeLoader):
        """The safe loader, remembering where each alias was used."""

        def __init__(self, stream):
            super().__init__(stream)
            self.alias_marks = {}

        def compose_node(self, parent, index):
            if self.check_event(yaml.AliasEvent):
                mark = self.peek_event().start_mark
                node = super().compose_node(parent, index)
                self.alias_marks.setdefault(id(node), mark)
                return node
            return super().compose_node(parent, index)
    return _Loader


def _construct(node, path, src: Source, stack: frozenset, alias):
    import yaml
    m, e = node.start_mark, node.end_mark
    if id(node) in stack:
        am = src._aliases.get(id(node), m)
        raise LoadError("an alias refers to the value that contains it (an endless value)",
                        Pos(src.file, am.line + 1, am.column + 1), source_line=src.line(am.line + 1))
    if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
        if id(node) in src._seen:        # a second visit: an alias being expanded
            alias = src._aliases.get(id(node), alias)
        src._seen.add(id(node))
        stack = stack | {id(node)}
    src._budget[0] -= 1
    if src._budget[0] < 0:
        am = alias or m
        raise LoadError(f"aliases expand this file to more than {_NODE_BUDGET} values",
                        Pos(src.file, am.line + 1, am.column + 1), source_line=src.line(am.line + 1),
                        hint="write the values out, or use fewer nested aliases")
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
            out[key] = _construct(vnode, path + (key,), src, stack, alias)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_construct(v, path + (i,), src, stack, alias) for i, v in enumerate(node.value)]
    value = _scalar(node, src)
    if isinstance(value, str) and m.line != e.line:
        src.strings[path] = value
    return value


def _scalar(node, src: Source):
    import yaml
    if node.tag in _AS_WRITTEN:
        return node.value
    m = node.start_mark
    try:
        if node.tag == "tag:yaml.org,2002:int":
            check_digits("".join(ch for ch in node.value if ch.isdigit()), "a number")
        loader = yaml.SafeLoader("")
        try:
            value = loader.construct_object(node, deep=True)
        finally:
            loader.dispose()
        if type(value) is str:
            check_text(value, "the text")
        return value
    except yaml.constructor.ConstructorError as e:
        raise LoadError(f"bad YAML value: {e.problem}", Pos(src.file, m.line + 1, m.column + 1),
                        source_line=src.line(m.line + 1)) from None
    except OverLimit as e:
        raise LoadError(e.message, Pos(src.file, m.line + 1, m.column + 1), source_line=src.line(m.line + 1),
                        hint=e.hint) from None
