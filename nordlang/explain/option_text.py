"""An option's text read back into the value it stands for: the inverse of
`Rules.show` (spaces, paths, sets, tuples, items, zones and a grid's cells),
for `nord explain` and the web page, which are given moves as text."""

from __future__ import annotations


def parse_value(rules, text: str):
    """The value an option's text stands for (the inverse of rules.show)."""
    from ..scenario import item_names
    text = text.strip()
    if text == "none":
        return None
    if len(_split(text, ",")) > 1:
        return frozenset(parse_value(rules, t) for t in _split(text, ","))
    sep = rules.tuple_sep
    if sep and len(_split(text, sep)) > 1:
        return tuple(parse_value(rules, t) for t in _split(text, sep))
    if text.startswith("(") and text.endswith(")") and _split(text[1:-1], ",") == [text[1:-1]] and sep:
        return parse_value(rules, text[1:-1])           # a chain in brackets, a part of a longer one
    if text.startswith("(") and text.endswith(")"):       # (a, b): a tuple without a declared separator
        inner = text[1:-1]
        return tuple(parse_value(rules, t) for t in _split(inner, ","))
    parse = rules.grid.parse
    path = rules.path_sep
    if path and path in text and all(parse(t) for t in text.split(path)):
        return tuple(parse(t) for t in text.split(path))
    s = parse(text)
    if s is not None and s in rules.grid.space_set:
        return s
    if text in rules.grid.structures:
        return text
    items = item_names(rules)
    if text in items:
        return items[text]
    if text.lstrip("-").isascii() and text.lstrip("-").isdigit():
        return int(text)
    zone = _zone_value(rules, text)
    return zone if zone is not None else text


def _zone_value(rules, text: str):
    """A zone or a grid zone's cell as rules.show writes it (hand(red), tableau(red)[1,3]), else None."""
    base, bracket, cell = text.partition("[")
    name, paren, owner = base.partition("(")
    if name not in rules.zones or paren and not owner.endswith(")"):
        return None
    player = None
    if paren:
        colors = rules.colors[:rules.num_players]
        if owner[:-1] not in colors:
            return None
        player = colors.index(owner[:-1])
    if not bracket:
        return (name, player)
    r, _, c = cell.removesuffix("]").partition(",")
    if name in rules.grid_zones and cell.endswith("]") and all(x.isascii() and x.isdigit() for x in (r, c)):
        return (name, player, int(r), int(c))
    return None


def _split(text: str, sep: str) -> list[str]:
    """`text` cut at each `sep` outside brackets (round or square: a cell's [r,c])."""
    out, depth, start, i = [], 0, 0, 0
    while i < len(text):
        ch = text[i]
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif depth == 0 and text.startswith(sep, i):
            out.append(text[start:i])
            i += len(sep)
            start = i
            continue
        i += 1
    out.append(text[start:])
    return out


