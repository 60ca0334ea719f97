"""Names in a scenario file: players by colour, locations, items; and values
shown as a failure shows them."""

from __future__ import annotations

import re

from ..errors import SchemaError, did_you_mean
from ..lang.builtins import ordered
from ..limits import MAX_COUNT, MAX_DIGITS


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
    """The place a location's text names: a space, a structure, a zone, or a
    cell of a grid zone written as the rules show it, tableau(red)[1,3]."""
    text = str(text)
    base, bracket, cell = text.partition("[")
    if bracket and rules.grid.parse(text) is None:
        grid = _location(rules, base.strip(), src, path)
        if not (type(grid) is tuple and len(grid) == 2 and grid[0] in rules.grid_zones):
            raise _err(src, path, f"{base.strip()} is not a grid zone: [row,column] names a cell of a grid", key=True,
                       expected="one of the grid zones: " + (", ".join(rules.grid_zones) or "none"))
        if not cell.endswith("]"):
            raise _err(src, path, f"{text!r}: a cell is written {base.strip()}[row,column]", key=True,
                       expected=f"like {base.strip()}[0,2]")
        return cell_of(rules, grid, cell[:-1], src, path, key=True)
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
               expected="a space like c4, a structure letter, or a zone like supply(red)" + _a_cell(rules),
               hint=did_you_mean(text.partition("(")[0], known))


def _a_cell(rules) -> str:
    """', or a grid's cell like tableau(red)[0,0]' in a game with grid zones."""
    if not rules.grid_zones:
        return ""
    name = next(iter(rules.grid_zones))
    owner = f"({rules.colors[0]})" if rules.zones[name].get("per_player") else ""
    return f", or a grid's cell like {name}{owner}[0,0]"


def cell_of(rules, grid, text, src, path, key=True):
    """The cell of a grid zone that "row,column" names (each from 0)."""
    m = _CELL.fullmatch(str(text))
    rows, columns = rules.grid_zones[grid[0]]
    if m is None:
        raise _err(src, path, f"{str(text)!r} is not a cell of {rules.show(grid)}", key=key,
                   expected='"row,column", each counted from 0, like "1,2"')
    r, c = int(m.group(1)), int(m.group(2))
    if not (0 <= r < rows and 0 <= c < columns):
        raise _err(src, path, f"{rules.show(grid)} has no cell {r},{c}: its rows are 0 to {rows - 1}, its columns "
                   f"0 to {columns - 1}", key=key)
    return grid + (r, c)


_CELL = re.compile(r"\s*(-?\d+)\s*,\s*(-?\d+)\s*")


def is_grid(rules, key) -> bool:
    """Does a location name a whole grid zone (not one of its cells)?"""
    return type(key) is tuple and len(key) == 2 and key[0] in rules.grid_zones


def grid_cells(rules, key, loc, spec, src, path) -> dict:
    """cell -> (what it holds as written, its path) for a whole grid listed
    as a mapping of "row,column" to items."""
    if not isinstance(spec, dict):
        raise _err(src, path, f"{loc} is a grid: list its cells, each \"row,column\": items", key=True,
                   expected=f'a mapping like {loc}: {{"0,0": ..., "1,2": ...}}',
                   hint=f"or name one cell: {loc}[0,0]: ...")
    return {cell_of(rules, key, k, src, path + (k,)): (v, path + (k,)) for k, v in spec.items()}


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
    if isinstance(spec, dict) or spec is None or isinstance(spec, bool):
        raise _err(src, path, f"expected a piece or a list of pieces, got {spec!r}", key=isinstance(spec, dict),
                   hint="a mapping of \"row,column\" to pieces lists the cells of a grid zone")
    parts = [spec] if isinstance(spec, (str, int)) else list(spec)     # (a cell's 2: a piece shown by its tag)
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
            if not (count.isascii() and count.isdigit()) or len(count) > MAX_DIGITS or int(count) < 1:
                raise _err(src, p, f"bad count in {_short(raw)}",
                           expected="item*N with N a whole number, like man:red*3")
            n = int(count)
            if n > MAX_COUNT:
                raise _err(src, p, f"the count {n} in {_short(raw)} is past the limit of {MAX_COUNT:,} items",
                           hint="no position of a game needs that many of one item in one place")
        item = names.get(text)
        if item is None:
            raise _err(src, p, f"unknown piece {text!r}", expected="a piece like " + ", ".join(list(names)[:6]),
                       hint=did_you_mean(text, names))
        out.extend([(item, p)] * n)
    return out


def _short(raw) -> str:
    text = repr(raw)
    return text if len(text) <= 60 else text[:57] + "...'"
