"""Build a board (Grid) from a board description: tiles placed and turned,
a map drawn one character per space, spaces generated from a size, or (a
graph) named spaces and edges. The geometry (board/geometry.py) says how
the spaces touch and are named; square unless the board says otherwise.

A rulebook's `boards` is one board (a mapping of board keys) or boards by
player count (a mapping whose keys are all counts: `2:` or `"2":`);
`board_for` picks the one a game plays on. A rulebook without terrains
draws plain spaces: `.` is a space, ` ` none.

A hex map is read row by row; leading spaces only indent the drawing, and
a row's characters fill its cells from the row's first cell (column a on
a rhombus; on a hexagon of side n, row r starts at column n - r for the
rows above the middle), so a rhombus is R rows of C characters and a
hexagon of side n has rows of n, n+1, ..., 2n-1, ..., n characters.
"""

from __future__ import annotations

from ..board import geometry as G
from ..board.grid import Grid, Structure
from ..errors import did_you_mean


def is_count(key) -> bool:
    """A player count as a key of `boards`: a YAML integer (2:) or its quoted form ("2":)."""
    if isinstance(key, bool):
        return False
    return isinstance(key, int) and key > 0 or isinstance(key, str) and key.isdigit() and key[0] != "0"


def by_count(boards) -> bool:
    """Is `boards` a mapping from player counts to boards (every key a count),
    rather than one board (board keys)?"""
    return isinstance(boards, dict) and bool(boards) and all(is_count(k) for k in boards)


NO_BOARD_MARK = "(no board)"
NO_BOARD = {"geometry": "graph", "spaces": {}, "name": NO_BOARD_MARK}


def board_for(boards, players: int, allowed=()):
    """(board, its path under the rulebook, None) for a player count, or
    (None, None, (message, hint)) when the rulebook has none for it. The
    message names every count of `allowed` (the rulebook's range) that has
    none, so it is the same for each of them (validate says it once). A
    rulebook without 'boards' plays on no shared board (its places are
    zones, such as each player's grid): the board has no spaces."""
    if boards is None:
        return dict(NO_BOARD), ("boards",), None
    if not isinstance(boards, dict):
        return None, None, ("this rulebook has no 'boards'",
                            "give one board (boards: {map: [...]}) or one per player count (boards: {2: {...}})")
    if not by_count(boards):
        return boards, ("boards",), None
    keys = [k for k in boards if int(k) == players]
    if len(keys) > 1:
        return None, None, (f"the board for {players} players is given twice (as {keys[0]!r} and {keys[1]!r})",
                            "a count is written once: 2: or \"2\":, not both")
    if not keys:
        counts = sorted({int(k) for k in boards})
        lacking = [n for n in sorted(set(allowed) | {players}) if n not in counts]
        return None, None, (f"no board for {_counts(lacking)} players: the boards are for {_counts(counts)} players",
                            "add a board for each count the game allows (players.min to max), or narrow "
                            "players.min and max to the counts that have one")
    return boards[keys[0]], ("boards", keys[0]), None


def _counts(ns) -> str:
    """2 / 2 or 3 / 2, 3 or 5"""
    words = [str(n) for n in ns]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


class Legend:
    """Map characters to (terrain, features) from the rulebook, with overrides.
    A rulebook without terrains draws plain spaces: '.' is a space of no terrain."""

    def __init__(self, terrains: dict, features: dict, extra: dict | None = None):
        self.chars = {} if terrains else {".": (None, frozenset())}
        for name, t in terrains.items():
            self.chars[t["char"]] = (name, frozenset())
        for name, f in (features or {}).items():
            self.chars[f["char"]] = (f["terrain"], frozenset((name,)))
        for ch, spec in (extra or {}).items():
            terr, _, feats = spec.partition("+")
            self.chars[ch] = (terr, frozenset(x for x in feats.split("+") if x))

    def describe(self) -> str:
        return ", ".join(f"{c!r} {t or 'a plain space'}{'+' + '+'.join(sorted(f)) if f else ''}"
                         for c, (t, f) in self.chars.items())


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
    plain = not rules_data.get("terrains")          # (no terrains: every space is a plain one)
    if not any(k in spec for k in ("map", "tiles", "size", "spaces")):
        err((), "a board needs a 'map', 'tiles', a 'size' or (a graph) 'spaces'",
            hint="for example: boards: {size: [3, 3]} for a plain 3 x 3 grid")
    geo = _geometry(spec, err)
    name, parse = geo.name, geo.parse
    if geo.kind == "graph":
        _graph_spaces(spec, geo, rules_data, open_terrain, terrain, err, plain)
        height, width = 1, len(terrain)
    elif geo.kind == "hex" and "map" in spec:
        height, width = _hex_map(spec, geo, legend, terrain, features, err)
    elif geo.kind == "hex":
        height, width = _hex_cells(spec, geo, open_terrain, terrain, err, plain)
    elif "map" in spec:
        rows = spec["map"]
        width = max((len(r) for r in rows), default=0)
        size = spec.get("size")
        if isinstance(size, list) and [len(rows), width] != size:
            err(("size",), f"size {size} contradicts the map: it has {len(rows)} rows of {width} characters",
                hint="leave 'size' out, or make it match the map")
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
            shape = [len(r) for r in spec["tile_map"]]
            if shape != [len(r) for r in rows]:
                err(("tile_map",), f"the tile_map has {len(shape)} rows of {max(shape, default=0)} characters; "
                                   f"the map {len(rows)} rows of {width}",
                    hint="a tile_map draws the same board as the map: one character per space")
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
            origin = parse(placed["at"])
            if origin is None:
                err(("tiles", i, "at"), f"{placed['at']!r} is not a space name", expected=geo.name_hint)
                continue
            for r, row in enumerate(_turn(tdef["rows"], placed.get("turn", 0))):
                for c, ch in enumerate(row):
                    if ch == " " or ch == ".":
                        continue
                    s = (origin[0] + r, origin[1] + c)
                    if s in tiles:
                        err(("tiles", i), f"tile {tid} overlaps tile {tiles[s]} at {name(s)}")
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
        if isinstance(spec.get("size"), list):
            height, width = spec["size"]
        else:
            height = max((s[0] for s in terrain), default=-1) + 2
            width = max((s[1] for s in terrain), default=-1) + 2
        for s in list(tiles):
            if isinstance(spec.get("size"), list) and not (0 <= s[0] < height and 0 <= s[1] < width):
                i = next(i for i, p in enumerate(spec.get("tiles", [])) if str(p["tile"]) == tiles[s])
                err(("tiles", i), f"tile {tiles[s]} covers {name(s)}, outside the board's size {spec['size']}",
                    hint="make 'size' larger, or place the tile inside it")
                break
        if open_terrain is None and not plain:
            err(("open",), "a board built from tiles or a size needs 'open': the terrain of the spaces no "
                           "tile covers")
        for r in range(height):
            for c in range(width):
                terrain.setdefault((r, c), open_terrain)
    structures = {}
    for sid, st in spec.get("structures", {}).items():
        if "at" in st:
            s = parse(st["at"])
            if s is None:
                err(("structures", sid, "at"), f"{st['at']!r} is not a space name", expected=geo.name_hint,
                    hint=did_you_mean(st["at"], geo.names) if geo.kind == "graph" else None)
                continue
            drawn = [d for d, ch in _map_cells(spec, geo) if ch == sid]
            if drawn and drawn != [s]:
                err(("structures", sid, "at"), f"structure {sid} is at {st['at']}, but the map draws it at "
                                               f"{', '.join(name(d) for d in drawn)}",
                    hint="place it once: by its letter on the map, or with 'at'")
                continue
        else:
            found = [s for s, ch in _map_cells(spec, geo) if ch == sid]
            if len(found) != 1:
                err(("structures", sid), f"structure {sid} must appear exactly once on the map "
                                         f"(found {len(found)})")
                continue
            s = found[0]
        if s not in terrain:
            err(("structures", sid, "at"), f"{name(s)} is outside the board")
            continue
        if any(o.space == s for o in structures.values()):
            err(("structures", sid, "at"), f"two structures on {name(s)}")
            continue
        if terrain[s] is None:
            terrain[s] = structure_terrain.get(st["kind"])
        structures[sid] = Structure(sid, st["kind"], s)
    for s, t in list(terrain.items()):
        if t is None:
            terrain[s] = structure_terrain.get("", open_terrain)
    return Grid(terrain=terrain, features=features, tiles=tiles, structures=structures,
                one_region=frozenset(one_region), height=height, width=width, geometry=geo)


def _geometry(spec, err):
    """The board's geometry; a shape or size that does not fit it is an error."""
    kind = spec.get("geometry", "square")
    shape = spec.get("shape")
    size = spec.get("size")
    if shape is not None and kind != "hex":
        err(("shape",), f"'shape' is for hex boards; this board's geometry is {kind}",
            hint="say 'geometry: hex', or leave 'shape' out")
    if kind == "graph":
        names = spec.get("spaces") or []
        names = list(names) if isinstance(names, (list, dict)) else []
        positions = {n: v["position"] for n, v in spec["spaces"].items()
                     if isinstance(v, dict) and "position" in v} if isinstance(spec.get("spaces"), dict) else {}
        known = set(names)
        edges = []
        for i, edge in enumerate(spec.get("edges") or []):
            bad = [x for x in edge if x not in known]
            for j, x in enumerate(edge):
                if x in known:
                    continue
                err(("edges", i, j), f"edge {i + 1} names {x!r}, which is not a space of the board",
                    expected="the names listed under 'spaces'", hint=did_you_mean(x, names))
            if not bad:
                edges.append(edge)
        if not names and spec.get("name") != NO_BOARD_MARK:
            err(("spaces",), "a graph board needs 'spaces': the names of its spaces")
        for key in ("map", "tiles", "size", "tile_map"):
            if key in spec:
                err((key,), f"a graph board has no {key!r}: it is made of 'spaces' and 'edges'")
        return G.Graph(names, edges, positions)
    for key in ("spaces", "edges"):
        if key in spec:
            err((key,), f"{key!r} is for graph boards; this board's geometry is {kind}",
                hint="say 'geometry: graph', or draw the board as a 'map'")
    if kind == "hex":
        shape = shape or "rhombus"
        geo = G.Hex(shape)
        if "tiles" in spec:
            err(("tiles",), "a hex board is drawn as a 'map' or generated from 'size', not from tiles")
        if shape == "hexagon" and size is not None and not isinstance(size, int):
            err(("size",), f"a hexagon's size is the length of its side (one number), not {size}")
        if shape == "rhombus" and isinstance(size, int):
            err(("size",), f"a rhombus's size is [rows, columns], not {size}")
        return geo
    if isinstance(size, int):
        err(("size",), f"a {kind} board's size is [rows, columns], not {size}")
    return G.make(kind)


def _map_cells(spec, geo):
    """(space, character) for each character of the map (holes included)."""
    rows = spec.get("map") or []
    if geo.kind == "hex":
        side = spec.get("size") if geo.shape == "hexagon" else None
        side = side if isinstance(side, int) else (len(rows) + 1) // 2
        for r, row in enumerate(rows):
            text = row.lstrip(" ")
            start = geo.first_column(r, side)
            for k, ch in enumerate(text):
                yield (r, start + k), ch
        return
    if geo.kind == "graph":
        return
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            yield (r, c), ch


def _hex_map(spec, geo, legend, terrain, features, err):
    """The cells of a hex map; (height, width). Each row must have the
    length its shape gives it (and agree with 'size' when given)."""
    rows = spec["map"]
    size = spec.get("size")
    if geo.shape == "rhombus":
        width = len(rows[0].lstrip(" ")) if rows else 0
        want = [width] * len(rows)
        if isinstance(size, list) and size != [len(rows), width]:
            err(("size",), f"size {size} contradicts the map: it has {len(rows)} rows of {width} cells",
                hint="leave 'size' out, or make it match the map")
    else:
        side = (len(rows) + 1) // 2
        if len(rows) % 2 == 0:
            err(("map",), f"a hexagon's map has an odd number of rows (2 x side - 1), not {len(rows)}")
        elif isinstance(size, int) and size != side:
            err(("size",), f"size {size} contradicts the map: its {len(rows)} rows make a hexagon of side {side}",
                hint="leave 'size' out, or make it match the map")
        want = [2 * side - 1 - abs(r - (side - 1)) for r in range(len(rows))]
        width = 2 * side - 1
    for r, row in enumerate(rows):
        n = len(row.lstrip(" "))
        if r < len(want) and n != want[r]:
            err(("map", r), f"hex map row {r + 1} has {n} cells; this {geo.shape} needs {want[r]} there",
                hint="leading spaces only indent a row: its characters fill its cells from the first")
    for s, ch in _map_cells(spec, geo):
        if ch == " ":
            continue
        if ch in legend.chars:
            t, f = legend.chars[ch]
            terrain[s] = t
            if f:
                features[s] = f
        elif ch in spec.get("structures", {}):
            terrain[s] = None
        else:
            err(("map", s[0]), f"map character {ch!r} (row {s[0] + 1}, cell {geo.name(s)}) is not in the legend",
                expected=legend.describe())
    return len(rows), width


def _hex_cells(spec, geo, open_terrain, terrain, err, plain):
    """Every cell of a hex board generated from its size, of the open terrain."""
    size = spec.get("size")
    if open_terrain is None and not plain:
        err(("open",), "a hex board generated from 'size' needs 'open': the terrain of its cells")
    if geo.shape == "rhombus" and not isinstance(size, list) or geo.shape == "hexagon" and not isinstance(size, int):
        return 0, 0
    for s in geo.cells(size):
        terrain[s] = open_terrain
    height = size[0] if geo.shape == "rhombus" else 2 * size - 1
    return height, size[1] if geo.shape == "rhombus" else height


def _graph_spaces(spec, geo, rules_data, open_terrain, terrain, err, plain):
    """The spaces of a graph board, each of its own terrain or the open one."""
    spaces = spec.get("spaces") or []
    given = spaces if isinstance(spaces, dict) else {}
    terrains = rules_data.get("terrains") or {}
    for n in geo.names:
        t = (given.get(n) or {}).get("terrain", open_terrain)
        if t is None and plain:
            pass
        elif t is None:
            err(("spaces",), f"space {n!r} has no terrain",
                hint=f"give it one ({n}: {{terrain: ...}}), or give the board an 'open' terrain")
        elif t not in terrains:
            err(("spaces", n) if n in given else ("open",), f"unknown terrain {t!r}", hint=did_you_mean(t, terrains))
        terrain[geo.index[n]] = t
