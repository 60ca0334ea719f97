"""Build a board (Grid) from an island description: tiles placed and turned,
or a map drawn one character per space."""

from __future__ import annotations

from ..board.grid import Grid, Structure, parse_space, space_name
from ..errors import did_you_mean


class Legend:
    """Map characters to (terrain, features) from the rulebook, with overrides."""

    def __init__(self, terrains: dict, features: dict, extra: dict | None = None):
        self.chars = {}
        for name, t in terrains.items():
            self.chars[t["char"]] = (name, frozenset())
        for name, f in (features or {}).items():
            self.chars[f["char"]] = (f["terrain"], frozenset((name,)))
        for ch, spec in (extra or {}).items():
            terr, _, feats = spec.partition("+")
            self.chars[ch] = (terr, frozenset(x for x in feats.split("+") if x))

    def describe(self) -> str:
        return ", ".join(f"{c!r} {t}{'+' + '+'.join(sorted(f)) if f else ''}" for c, (t, f) in self.chars.items())


def _turn(rows, deg):
    grid = [list(r) for r in rows]
    for _ in range((deg // 90) % 4):
        grid = [list(r) for r in zip(*grid[::-1])]
    return ["".join(r) for r in grid]


def build_grid(spec: dict, rules_data: dict, legend: Legend, err, one_region, structure_terrain) -> Grid:
    """Build the grid; `err(path, message, **kw)` records an error at a path of spec."""
    terrain, features, tiles = {}, {}, {}
    tile_defs = rules_data.get("tiles", {}) or {}
    open_terrain = spec.get("open")
    if "map" in spec:
        rows = spec["map"]
        width = max((len(r) for r in rows), default=0)
        for r, row in enumerate(rows):
            if len(row) != width:
                err(("map", r), f"map row {r + 1} has {len(row)} characters, the first row has {width}",
                    hint="every row of a map must have the same length")
            kinds = list(rules_data.get("structures") or {})
            for c, ch in enumerate(row):
                if ch == " ":
                    continue
                if ch in legend.chars:
                    t, f = legend.chars[ch]
                    terrain[(r, c)] = t
                    if f:
                        features[(r, c)] = f
                elif ch in spec.get("structures", {}):
                    terrain[(r, c)] = None   # filled from the structure kind below
                else:
                    err(("map", r), f"map character {ch!r} (row {r + 1}, column {c + 1}) is not in the legend",
                        expected=legend.describe(), col=c,
                        hint=f"a structure is a letter named under 'structures', like {{{ch}: {kinds[0]}}} "
                             f"(kinds: {', '.join(kinds)})" if kinds and ch.isalpha() and ch.isupper() else None)
        if "tile_map" in spec:
            for r, row in enumerate(spec["tile_map"]):
                for c, ch in enumerate(row):
                    if ch not in ". " and (r, c) in terrain:
                        tiles[(r, c)] = ch
        height = len(rows)
    else:
        for i, placed in enumerate(spec.get("tiles", [])):
            tid = str(placed["tile"])
            tdef = tile_defs.get(tid)
            if tdef is None:
                err(("tiles", i, "tile"), f"unknown tile {tid!r}", hint=did_you_mean(tid, tile_defs))
                continue
            origin = parse_space(placed["at"])
            if origin is None:
                err(("tiles", i, "at"), f"{placed['at']!r} is not a space name", expected="a column letter "
                    "and a row number, like c4")
                continue
            for r, row in enumerate(_turn(tdef["rows"], placed.get("turn", 0))):
                for c, ch in enumerate(row):
                    if ch == " " or ch == ".":
                        continue
                    s = (origin[0] + r, origin[1] + c)
                    if s in tiles:
                        err(("tiles", i), f"tile {tid} overlaps tile {tiles[s]} at {space_name(s)}")
                        continue
                    if ch not in legend.chars:
                        err(("tiles", i), f"tile {tid} uses character {ch!r}, which is not in the legend",
                            expected=legend.describe())
                        continue
                    t, f = legend.chars[ch]
                    terrain[s] = t
                    tiles[s] = tid
                    if f:
                        features[s] = f
        if "size" in spec:
            height, width = spec["size"]
        else:
            height = max((s[0] for s in terrain), default=-1) + 2
            width = max((s[1] for s in terrain), default=-1) + 2
        if open_terrain is None:
            err(("open",), "an island built from tiles needs 'open': the terrain of uncovered spaces")
        for r in range(height):
            for c in range(width):
                terrain.setdefault((r, c), open_terrain)
    structures = {}
    for sid, st in spec.get("structures", {}).items():
        if "at" in st:
            s = parse_space(st["at"])
            if s is None:
                err(("structures", sid, "at"), f"{st['at']!r} is not a space name",
                    expected="a column letter and a row number, like c4")
                continue
        else:
            found = [(r, c) for r, row in enumerate(spec.get("map", [])) for c, ch in enumerate(row) if ch == sid]
            if len(found) != 1:
                err(("structures", sid), f"structure {sid} must appear exactly once on the map "
                                         f"(found {len(found)})")
                continue
            s = found[0]
        if s not in terrain:
            err(("structures", sid, "at"), f"{space_name(s)} is outside the board")
            continue
        if any(o.space == s for o in structures.values()):
            err(("structures", sid, "at"), f"two structures on {space_name(s)}")
            continue
        if terrain[s] is None:
            terrain[s] = structure_terrain.get(st["kind"])
        structures[sid] = Structure(sid, st["kind"], s)
    for s, t in list(terrain.items()):
        if t is None:
            terrain[s] = structure_terrain.get("", open_terrain)
    return Grid(terrain=terrain, features=features, tiles=tiles, structures=structures,
                one_region=frozenset(one_region), height=height, width=width)
