"""Names in a scenario file: players by colour, locations, items; and values
shown as a failure shows them."""

from __future__ import annotations

from ..errors import SchemaError, did_you_mean
from ..lang.builtins import ordered


def _list(xs) -> str:
    return "[" + ", ".join(xs) + "]"


def _shown(rules, v) -> str:
    if isinstance(v, list):
        return _list([_shown(rules, x) for x in v])
    return rules.show(v)


def _got(rules, val, want=None) -> str:
    """A value found, shown for a failure: a list as a list where a list was
    expected, and two numbers, which are also a space, as both where nothing
    says which was meant (a text expected means a space)."""
    if isinstance(want, list) and isinstance(val, (tuple, frozenset)):
        return _list([rules.show(x) for x in ordered(val)])
    text = rules.show(val)
    if not isinstance(want, str) and isinstance(val, tuple) and len(val) == 2 and all(type(x) is int for x in val):
        return f"{text} (a space, or the list [{val[0]}, {val[1]}])"
    return text


def _same(rules, val, want) -> bool:
    if isinstance(want, bool) or isinstance(want, (int, float)) and not isinstance(val, (tuple, frozenset)):
        return val == want
    if isinstance(want, list):
        if not isinstance(val, (tuple, frozenset, list)):
            return False
        got = [rules.show(x) for x in val]
        exp = [_shown(rules, x) for x in want]
        return sorted(got) == sorted(exp) if isinstance(val, frozenset) else got == exp
    return rules.show(val) == _shown(rules, want)


def _err(src, path, msg, key=False, **kw):
    p = src.pos(path, key=key)
    return SchemaError(msg, p, source_line=src.line(p.line), **kw)


def _player(rules, color, src, path, key=True):
    colors = rules.colors[:rules.num_players]
    if color not in colors:
        raise _err(src, path, f"{color!r} is not a player of this game", key=key,
                   expected=", ".join(colors), hint=did_you_mean(str(color), colors))
    return colors.index(color)


def _location(rules, text, src, path):
    text = str(text)
    s = rules.grid.parse(text)
    if s is not None and s in rules.grid.space_set:
        return s
    if text in rules.grid.structures:
        return text
    name, _, rest = text.partition("(")
    if name in rules.zones:
        z = rules.zones[name]
        if z.get("per_player"):
            if not rest.endswith(")"):
                raise _err(src, path, f"zone {name!r} belongs to a player: write {name}(colour)", key=True)
            return (name, _player(rules, rest[:-1].strip(), src, path))
        if rest:
            raise _err(src, path, f"zone {name!r} is shared: write {name} without a player", key=True)
        return (name, None)
    known = [*rules.grid.structures, *rules.zones]
    if s is not None:
        raise _err(src, path, f"{text} is outside the board", key=True)
    raise _err(src, path, f"unknown location {text!r}", key=True,
               expected="a space like c4, a structure letter, or a zone like supply(red)",
               hint=did_you_mean(text, known))


def item_names(rules) -> dict:
    """Every text an item can be written as -> the item."""
    out = {}
    for kind, spec in rules.pieces.items():
        out[kind] = (kind, None)
        if spec.get("owned"):
            for i, c in enumerate(rules.colors):
                out[f"{kind}:{c}"] = (kind, i)
        for t in spec.get("tags", []) or []:
            out[f"{kind}:{t}"] = (kind, t)
            if spec.get("show") == "tag":
                out[str(t)] = (kind, t)
    return out


def _items(rules, spec, src, path) -> list:
    return [item for item, _ in _items_at(rules, spec, src, path)]


def _items_at(rules, spec, src, path) -> list:
    """(item, path of the text that named it) for each item of a location's list."""
    names = item_names(rules)
    parts = [spec] if isinstance(spec, str) else list(spec)
    out = []
    for i, raw in enumerate(parts):
        text = str(raw).strip()
        p = path if isinstance(spec, str) else path + (i,)
        if text in ("", "-"):
            out.append((None, p))
            continue
        n = 1
        if "*" in text:
            text, _, count = text.partition("*")
            text = text.strip()
            count = count.strip()
            if not (count.isascii() and count.isdigit()) or int(count) < 1:
                raise _err(src, p, f"bad count in {raw!r}", expected="item*N with N a whole number, like man:red*3")
            n = int(count)
        item = names.get(text)
        if item is None:
            raise _err(src, p, f"unknown piece {text!r}", expected="a piece like " + ", ".join(list(names)[:6]),
                       hint=did_you_mean(text, names))
        out.extend([(item, p)] * n)
    return out
