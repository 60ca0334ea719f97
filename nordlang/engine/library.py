"""The generic standard library: board, zone, graph and score primitives.

These are the words rulebooks are written in. None of them knows a game:
a rulebook names its terrains, pieces, zones and structures, and these
primitives work on whatever it names.
"""

from __future__ import annotations

from functools import reduce
from itertools import filterfalse
from operator import or_

from ..board.graph import bit_layout, open_around
from ..board.grid import Port
from ..errors import EvalError
from ..lang.budget import SMALL, charge, size
from ..lang.builtins import BARE, CORE, EFFECT, LAZY, Builtin, Registry, ordered

STD = Registry(dict(CORE.items))


_STATIC = {"space", "players", "num_players", "others", "spaces", "terrain", "has_feature", "tile_of", "distance",
           "neighbors", "areas", "surroundings", "region_of", "regions", "region_spaces", "region_terrain",
           "regions_of", "structures", "space_of", "structure_at", "ports", "kind", "tag", "owner", "row", "column"}


# primitives that return a tuple in a fixed order (comprehensions over them need no sorting)
_SEQ = {"players", "others", "spaces", "neighbors", "areas", "surroundings", "region_spaces", "structures", "ports",
        "items", "occupied_spaces", "open_spaces", "slots", "groups", "shortest_paths", "occupied_by"}


def _def(name, kind="expr", arity=(0, 0), doc="", example="", group="board", inline=None, args=(), returns=None,
         fused=()):
    """Register a primitive; `args` and `returns` name the kinds of value (builtins.KINDS)
    its arguments take and it gives, which the compiler checks literals against;
    `fused` its fused forms (see Builtin.fused)."""
    def deco(fn):
        STD.add(Builtin(name, fn, kind, arity, doc, example, group, name in _STATIC, name in _SEQ, inline,
                        args, returns, fused))
        return fn
    return deco


def _space(ctx, s):
    if s not in ctx.rules.grid.space_set:
        raise EvalError(f"{ctx.rules.show(s)} is not a space of this board")
    return s


def _per_space(ctx, table, s):
    """table[s] for a space s of the board (a lookup first: the common case)."""
    try:
        return table[s]
    except (KeyError, TypeError):
        raise EvalError(f"{ctx.rules.show(s)} is not a space of this board") from None


# ---------------- players and turns ----------------
@_def("player", BARE, doc="the player whose turn it is", example="player", group="players",
      inline="ctx.state.player", returns="player")
def _player(ctx):
    return ctx.state.player


@_def("players", BARE, doc="all players, in turn order from the first", example="players", group="players")
def _players(ctx):
    return ctx.rules.player_range


@_def("num_players", BARE, doc="how many players play", example="num_players", group="players")
def _num_players(ctx):
    return ctx.rules.num_players


@_def("turn", BARE, doc="the number of the current turn (from 1)", example="turn", group="players")
def _turn(ctx):
    return ctx.state.turn


@_def("others", arity=(1, 1), doc="every player but p", example="others(player)", group="players",
      args=("player",))
def _others(ctx, p):
    return tuple(q for q in ctx.rules.player_range if q != p)


# ---------------- board ----------------
@_def("spaces", BARE, doc="every space of the board", example="spaces")
def _spaces(ctx):
    return ctx.rules.grid.spaces


@_def("space", arity=(1, 1), doc="the space with that name (column letter and row, like \"c4\"; on a graph "
      "board, the space's own name)", example='space("c4")', args=("space name",))
def _space_named(ctx, name):
    s = ctx.rules.grid.parse(str(name))
    if s is None or s not in ctx.rules.grid.space_set:
        raise EvalError(f"{name!r} is not a space of this board")
    return s


@_def("terrain", arity=(1, 1), doc="the terrain name of a space", example='terrain(s) == "sea"',
      returns="terrain")
def _terrain(ctx, s):
    return _per_space(ctx, ctx.rules.grid.terrain, s)


@_def("has_feature", arity=(2, 2), doc="true when a space shows the named feature",
      example='has_feature(s, "pile")', args=(None, "feature"), returns="truth")
def _has_feature(ctx, s, name):
    return name in ctx.rules.grid.features.get(s, ())


@_def("tile_of", arity=(1, 1), doc="the land tile a space belongs to (none for open spaces)",
      example="tile_of(s)")
def _tile_of(ctx, s):
    return ctx.rules.grid.tiles.get(s)


@_def("distance", arity=(2, 2), doc="the fewest steps between two spaces or structures, from neighbour to "
      "neighbour (square: Manhattan; square8: king's moves; hex: hex steps; graph: edges, none when no path)",
      example="distance(space_of(x), space_of(y))", args=("structure", "structure"))
def _distance(ctx, a, b):
    if isinstance(a, str):
        a = _structure(ctx, a).space
    if isinstance(b, str):
        b = _structure(ctx, b).space
    grid = ctx.rules.grid
    if grid.geometry.kind == "square":
        return abs(a[0] - b[0]) + abs(a[1] - b[1])
    if grid.geometry.kind == "graph":
        _charge_(ctx, len(grid.spaces))       # a search over the board's edges
    return grid.distance(_space(ctx, a), _space(ctx, b))


@_def("row", arity=(1, 1), doc="the row of a space, from 1 at the top (the number in its name; on a hex "
      "board the axial r + 1)", example="row(s) == 1")
def _row(ctx, s):
    return _coordinates(ctx, s)[0] + 1


@_def("column", arity=(1, 1), doc="the column of a space, from 1 at the left (its letters a = 1, b = 2...; on "
      "a hex board the axial q + 1)", example="column(s) == 1")
def _column(ctx, s):
    return _coordinates(ctx, s)[1] + 1


def _coordinates(ctx, s):
    if ctx.rules.grid.geometry.kind == "graph":
        raise EvalError("a graph board has no rows or columns", hint="its spaces are known by name: space(\"a\")")
    return _space(ctx, s)


@_def("neighbors", arity=(1, 1), doc="the spaces next to a space (4 on a square board, 8 on square8, 6 on hex, "
      "a graph's edges)", example="neighbors(s)")
def _neighbors(ctx, s):
    return _per_space(ctx, ctx.rules.grid.orth, s)


@_def("areas", arity=(1, 1), doc="the connected parts (neighbour to neighbour) of a collection of spaces, each a "
      "tuple of spaces in board order, in the order of their first spaces", example="len(areas(land_spaces)) == 1")
def _areas(ctx, xs):
    out = ctx.rules.grid.parts(_space(ctx, x) for x in xs)
    if size(xs) > SMALL:
        charge(ctx, size(xs))
    return out


@_def("surroundings", arity=(1, 1), doc="the spaces around a space or structure (up to 8 on a square board, "
      "6 on hex, a graph's neighbours)",
      example="surroundings(space_of(x))", args=("structure",))
def _surroundings(ctx, s):
    if isinstance(s, str):
        s = _structure(ctx, s).space
    return _per_space(ctx, ctx.rules.grid.ring, s)


@_def("region_of", arity=(1, 1), doc="the region id of a space (none on a structure)", example="region_of(s)")
def _region_of(ctx, s):
    return ctx.rules.grid.region_of.get(_space(ctx, s))


@_def("regions", BARE, doc="every region id", example="regions")
def _regions(ctx):
    return tuple(range(len(ctx.rules.grid.region_spaces)))


@_def("region_spaces", arity=(1, 1), doc="the spaces of a region", example="region_spaces(region_of(s))")
def _region_spaces(ctx, r):
    return ctx.rules.grid.region_spaces[r]


@_def("region_terrain", arity=(1, 1), doc="the terrain of a region", example="region_terrain(r)",
      returns="terrain")
def _region_terrain(ctx, r):
    return ctx.rules.grid.region_terrain[r]


@_def("regions_of", arity=(1, 1), doc="the set of regions that some spaces lie in", example="regions_of(g)")
def _regions_of(ctx, spaces):
    ro = ctx.rules.grid.region_of
    out = frozenset(ro.get(s) for s in spaces)
    if size(spaces) > SMALL:
        charge(ctx, size(spaces))
    return out


def _structure(ctx, sid):
    st = ctx.rules.grid.structures.get(sid)
    if st is None:
        raise EvalError(f"no structure {sid!r} on this board")
    return st


@_def("structures", arity=(1, 1), doc="ids of every structure of a kind, in id order",
      example='structures("hall")', args=("structure kind",))
def _structures(ctx, kind):
    return ctx.rules.structures_by_kind.get(kind, ())


@_def("space_of", arity=(1, 1), doc="the space a structure stands on", example="space_of(x)",
      args=("structure",))
def _space_of(ctx, sid):
    return _structure(ctx, sid).space


@_def("structure_at", arity=(1, 1), doc="the structure on a space, or none", example="structure_at(s)",
      returns="structure")
def _structure_at(ctx, s):
    return ctx.rules.grid.structure_at.get(s)


@_def("ports", arity=(1, 1), doc="the side ports of a structure (graph nodes), one per direction of the board "
      "(N, E, S, W on a square board; on a graph board one per edge)", example="ports(x)",
      group="graph", args=("structure",))
def _ports(ctx, sid):
    _structure(ctx, sid)
    return ctx.rules.grid.ports[sid]


# ---------------- pieces and zones ----------------
@_def("kind", arity=(1, 1), doc="the kind of an item", example='kind(it) == "coin"', group="zones",
      inline="{0}[0]", args=("item",), returns="piece kind")
def _kind(ctx, it):
    return it[0]


@_def("tag", arity=(1, 1), doc="the tag of an item (its owner, symbol...)", example="tag(it)", group="zones",
      inline="{0}[1]", args=("item",))
def _tag(ctx, it):
    return it[1]


@_def("owner", arity=(1, 1), doc="the owning player of an item, or none", example="owner(it)", group="zones",
      args=("item",), returns="player")
def _owner(ctx, it):
    t = it[1]
    return t if type(t) is int and t < ctx.rules.num_players else None      # (a bool is no player)


@_def("amount", arity=(2, 2), doc="how many of an item a zone holds", example="amount(hand(p), coin())",
      group="zones", args=(None, "item"))
def _amount(ctx, zone, item):
    pool = ctx.state.pools.get(zone)     # (the common case, without a method call)
    if pool is not None:
        return pool.get(item, 0)
    return ctx.state.amount(zone, item)


@_def("total", arity=(1, 1), doc="how many items a zone holds in all", example="total(hand(p))", group="zones")
def _total(ctx, zone):
    return ctx.state.total(zone)


@_def("items", arity=(1, 1), doc="the distinct items of a pool, a deck's list, a track's filled slots",
      example="items(hand(p))", group="zones")
def _items(ctx, zone):
    out = ctx.state.items(zone)
    if len(out) > SMALL:
        charge(ctx, len(out))
    return out


@_def("piece_at", arity=(1, 1), doc="the linking piece on a space, or none", example="piece_at(s)", group="zones",
      inline="ctx.state.occupied.get({0})", returns="item")
def _piece_at(ctx, s):
    return ctx.state.occupied.get(s)


@_def("occupied", arity=(1, 1), doc="true when a linking piece stands on the space", example="occupied(s)",
      group="zones", returns="truth")
def _occupied(ctx, s):
    return s in ctx.state.occupied


@_def("occupied_spaces", BARE, doc="every space holding a linking piece", example="occupied_spaces",
      group="zones")
def _occupied_spaces(ctx):
    out = tuple(sorted(ctx.state.occupied))
    if len(out) > SMALL:
        charge(ctx, len(out))
    return out


@_def("open_spaces", arity=(1, 1), doc="spaces of a collection with no piece and no structure",
      example="open_spaces(region_spaces(r))", group="zones")
def _open_spaces(ctx, spaces):
    # (filtered in C: this runs over whole boards every turn)
    out = tuple(filterfalse(ctx.rules.grid.structure_at.__contains__,
                            filterfalse(ctx.state.occupied.__contains__,
                                        spaces if type(spaces) is tuple else ordered(spaces))))
    try:
        n = len(spaces)
    except TypeError:           # (an iterator, from Python)
        n = 0
    if n > SMALL:
        charge(ctx, n)
    return out


@_def("slots", arity=(1, 1), doc="(index, item) for each filled slot of a track", example="slots(track)",
      group="zones")
def _slots(ctx, zone):
    track = ctx.state.tracks.get(zone)
    if track is None:
        raise EvalError(f"{ctx.rules.show(zone)} is not a track")
    return tuple((i, x) for i, x in enumerate(track) if x is not None)


@_def("free_slots", arity=(1, 1), doc="how many slots of a track are empty", example="free_slots(track)",
      group="zones")
def _free_slots(ctx, zone):
    track = ctx.state.tracks.get(zone)
    if track is None:
        raise EvalError(f"{ctx.rules.show(zone)} is not a track")
    return track.count(None)


@_def("next_value", arity=(1, 1), doc="the value of a track's lowest empty slot (none when full)",
      example="next_value(track)", group="zones")
def _next_value(ctx, zone):
    track = ctx.state.tracks.get(zone)
    if track is None:
        raise EvalError(f"{ctx.rules.show(zone)} is not a track")
    if None not in track:
        return None
    return ctx.rules.track_values[zone[0]][track.index(None)]


# ---------------- the connection graph ----------------
@_def("connected", arity=(2, 3),
      doc="true when a component links the two (structures, spaces, ports, or collections of them: any member); "
          "with `over`, only pieces of that player, or only the spaces of that collection, link",
      example="connected(top_row, bottom_row, player)", group="graph", args=("structure", "structure", "player"),
      returns="truth")
def _connected(ctx, a, b, over=None):
    if over is not None or _is_collection(a) or _is_collection(b):
        if _is_collection(a) or _is_collection(b) or _is_collection(over):
            _charge_(ctx, size(a) + size(b) + size(over))   # masks made from the collections' members
        within = ctx.state.links.occ if over is None else _over_mask(ctx, over)
        seeds = _mask_of(ctx, a) & within
        goal = _mask_of(ctx, b) & within
        return bool(seeds and goal) and bool(seeds & goal or bit_layout(ctx.rules.grid).grow(seeds, within) & goal)
    if ctx.state.links.connected(a, b):
        return True
    grid = ctx.rules.grid         # (false: is each a node of this board? A typo is not "not connected")
    for x in (a, b):
        if type(x) is str:
            if x not in grid.ports:
                raise EvalError(f"{ctx.rules.show(x)} is not a structure of this board")
        elif x not in grid.space_set and x not in grid.port_faces:
            raise EvalError(f"{ctx.rules.show(x)} is not a space, port or structure of this board")
    return False


@_def("connected_pairs", arity=(1, 1),
      doc="every ordered pair (x, y) of different structures of a kind that a component links",
      example='connected_pairs("hall")', group="graph", args=("structure kind",))
def _connected_pairs(ctx, kind):
    links = ctx.state.links
    key = ("pairs", kind)
    hit = links.memo.get(key)
    if hit is None:
        # the structures each component touches, then the pairs within each
        comps = links.struct_comps
        touching: dict = {}
        for a in ctx.rules.structures_by_kind.get(kind, ()):
            for c in comps[a]:
                touching.setdefault(c, []).append(a)
        hit = frozenset((a, b) for group in touching.values() if len(group) > 1
                        for a in group for b in group if a != b)
        if len(hit) > SMALL:
            charge(ctx, len(hit))
        links.memo[key] = hit
    return hit


@_def("component", arity=(1, 2),
      doc="the nodes linked with a space or port; with `over` (a player, or a collection of spaces), the "
          "spaces linked with x (a space, structure or collection) through that player's pieces or those spaces",
      example="component(s, owner(piece_at(s)))", group="graph", args=(None, "player"))
def _component(ctx, x, over=None):
    if over is None:
        if _is_collection(x):
            _charge_(ctx, len(x))
            return frozenset().union(*(ctx.state.links.component(n) for n in x))
        return ctx.state.links.component(x)
    within = _over_mask(ctx, over)
    mk = bit_layout(ctx.rules.grid)
    seeds = _mask_of(ctx, x) & within
    if not seeds:
        return frozenset()
    out = mk.spaces(mk.grow(seeds, within))
    _charge_(ctx, len(out) + size(x) if _is_collection(x) else len(out))
    return out


@_def("occupied_by", arity=(1, 1), doc="every space holding a linking piece of player p, in board order",
      example="areas(occupied_by(player))", group="zones", args=("player",))
def _occupied_by(ctx, p):
    out = tuple(bit_layout(ctx.rules.grid).members(_player_mask(ctx, p)))
    _charge_(ctx, len(out))
    return out


def _is_collection(x) -> bool:
    """A collection of nodes (not one space: a space is a (row, col) tuple)."""
    t = type(x)
    return t is frozenset or t is list or t is set or (t is tuple and not (len(x) == 2 and type(x[0]) is int))


def _player_mask(ctx, p) -> int:
    if type(p) is not int or not 0 <= p < ctx.rules.num_players:
        raise EvalError(f"{ctx.rules.show(p)} is not a player (players are 0 to {ctx.rules.num_players - 1})")
    return ctx.state.owner_mask(p)


def _over_mask(ctx, over) -> int:
    """The spaces that link for connected/component(..., over): a player's
    pieces, or the spaces of a collection that no structure stands on."""
    if type(over) is int:
        return _player_mask(ctx, over)
    if not _is_collection(over):
        raise EvalError(f"connected(..., over) and component(..., over) take a player or a collection of spaces, "
                        f"not {ctx.rules.show(over)}")
    return _mask_of(ctx, over) & bit_layout(ctx.rules.grid).free


def _mask_of(ctx, x) -> int:
    """The bits of x: a space, a port (the space it faces), a structure (the
    spaces its ports face) or a collection of them. A collection's mask is
    kept for the last few collections seen (by identity: a definition's
    value is the same object each time)."""
    grid = ctx.rules.grid
    mk = bit_layout(grid)
    t = type(x)
    if t is str:
        f = mk.faces.get(x)
        if f is None:
            raise EvalError(f"{ctx.rules.show(x)} is not a structure of this board")
        return f[1]
    if t is tuple and len(x) == 2 and type(x[0]) is int:
        b = mk.bit.get(x)
        if b is None:
            raise EvalError(f"{ctx.rules.show(x)} is not a space of this board")
        return b
    if t is Port and x in grid.port_faces:
        face = grid.port_faces[x]
        return 0 if face is None else mk.bit[face]
    if not _is_collection(x):
        raise EvalError(f"{ctx.rules.show(x)} is not a space, port, structure or collection of them")
    fixed = t is tuple or t is frozenset          # (a list or set may change: never kept)
    known = grid.memo.setdefault("collection_masks", {})
    hit = known.get(id(x)) if fixed else None
    if hit is not None and hit[0] is x:
        return hit[1]
    bit = mk.bit
    m = 0
    for s in x:
        b = bit.get(s) if type(s) is tuple else None
        m |= b if b is not None else _mask_of(ctx, s)
    if fixed:
        if len(known) >= 64:
            known.clear()
        known[id(x)] = (x, m)         # (held: its id is not reused while it is here)
    return m


@_def("linked_structures", arity=(1, 1), doc="the structures with a port in the component of x",
      example="linked_structures(s)", group="graph")
def _linked_structures(ctx, x):
    comp = ctx.state.links.component(x)
    if len(comp) > SMALL:
        charge(ctx, len(comp))
    return tuple(sorted({n[0] for n in comp if isinstance(n[0], str)}))


@_def("frontier", arity=(1, 1),
      doc="open spaces that a piece placed on would link to x: a collection of nodes, or a structure "
          "(through any of its ports)",
      example="frontier(component(s))", group="graph", args=("structure",))
def _frontier(ctx, nodes):
    grid = ctx.rules.grid
    if type(nodes) is str:
        if nodes not in grid.ports:
            raise EvalError(f"{ctx.rules.show(nodes)} is not a structure")
        return ctx.state.links.structure_frontier(nodes)
    if type(nodes) is frozenset and nodes:
        links = ctx.state.links
        if links.component(next(iter(nodes))) is nodes:
            return links.frontier(nodes)
    try:
        out = open_around(grid, ctx.state.occupied, ordered(nodes))
        if size(nodes) > SMALL:
            charge(ctx, size(nodes))
        return out
    except KeyError as e:
        raise EvalError(f"{ctx.rules.show(e.args[0])} is not a space or port of this board",
                        hint="frontier() takes spaces and ports (a component), or a structure") from None


def _groups_of_open(ctx, spaces, lo, hi, anchors=None, max_regions=None):
    """groups(open_spaces(spaces), ...), the same value made on bit masks:
    the open spaces are the spaces' mask less the occupied and the
    structures' spaces, never listed (the compiler calls this for that text)."""
    t = type(spaces)
    if t is not tuple and t is not frozenset:
        return _groups(ctx, _open_spaces(ctx, spaces), lo, hi, anchors, max_regions)
    if hi < 1:
        return ()
    grid = ctx.rules.grid
    layout = bit_layout(grid)
    pre = _board_masks(grid.orth, grid.region_of, grid.memo, layout.bit)
    known = pre[6]
    hit = known.get(id(spaces))
    if hit is not None and hit[0] is spaces:
        m = hit[1]
    else:
        m = _mask(pre[1], spaces)
        if len(known) >= 64:
            known.clear()
        known[id(spaces)] = (spaces, m)       # (held: its id is not reused while it is here)
    return _subsets(pre, m & layout.free & ~ctx.state.links.occ, lo, hi, anchors, max_regions, ctx.budget)


@_def("groups", arity=(3, 5),
      doc="connected sets (neighbour to neighbour) of the given spaces, sizes lo..hi, each holding an anchor "
          "(and lying in at most max_regions regions)",
      example="groups(open_spaces(spaces), 1, 3, anchors, 1)", group="graph",
      fused=(("open_spaces", _groups_of_open),))
def _groups(ctx, allowed, lo, hi, anchors=None, max_regions=None):
    grid = ctx.rules.grid
    return connected_subsets(grid.orth, grid.region_of, allowed, lo, hi, anchors, max_regions, grid.memo,
                             bit_layout(grid).bit, ctx.budget)


def _board_masks(orth, region_of, memo, bits=None):
    """Per board: the space of each bit, each space's bit, and by bit its
    neighbours' bits, its region's bit and the bits of its region's spaces;
    the sets of spaces made from masks so far, and the masks of collections
    of spaces seen lately (kept in the board's memo when there is one).

    `bits` gives each space's bit (the connection graph's layout, so that its
    masks serve here too); by default, spaces in sorted order. Either way
    bits follow the spaces' order, so masks compare as the sets' lowest
    spaces do, and groups come in the same order."""
    pre = memo.get("masks") if memo is not None else None
    if pre is None:
        if bits is None:
            bits = {s: 1 << i for i, s in enumerate(sorted(orth))}
        index = {s: b.bit_length() - 1 for s, b in bits.items() if s in orth}
        size = max(index.values(), default=-1) + 1
        spaces = [None] * size
        nbr, reg, within = [0] * size, [0] * size, [0] * size
        rid: dict = {}
        members: dict = {}
        for s, i in index.items():
            spaces[i] = s
            nbr[i] = sum(bits[n] for n in orth[s] if n in index)
            reg[i] = r = 1 << rid.setdefault(region_of.get(s), len(rid))
            members[r] = members.get(r, 0) | (1 << i)
        for i in index.values():
            within[i] = members[reg[i]]
        bit = {s: 1 << i for s, i in index.items()}
        pre = (spaces, bit, nbr, reg, within, _MaskSets(spaces), {})
        if memo is not None:
            memo["masks"] = pre
    return pre


class _MaskSets(dict):
    """mask -> the frozenset of its spaces, made when first asked for."""

    def __init__(self, spaces):
        super().__init__()
        self.spaces = spaces

    def __missing__(self, g):
        if len(self) > 100_000:
            self.clear()
        members = []
        m = g
        while m:
            b = m & -m
            m ^= b
            members.append(self.spaces[b.bit_length() - 1])
        group = self[g] = frozenset(members)
        return group


def _mask(bit, spaces) -> int:
    """The bits of the spaces (anything else in the collection is ignored)."""
    try:
        return reduce(or_, map(bit.__getitem__, spaces), 0)
    except (KeyError, TypeError):
        return reduce(or_, [bit[s] for s in spaces if s in bit], 0)


GROUPS_LIMIT = 100_000      # sets of one size a call of groups() may find: beyond, a rulebook asks too much


def connected_subsets(orth, region_of, allowed, lo, hi, anchors=None, max_regions=None, memo=None,
                      bits=None, budget=None) -> tuple:
    """Every orthogonally connected subset of `allowed` with lo..hi members that
    holds an anchor and lies in at most max_regions regions, size by size,
    each size in bit-mask order.

    Each subset is found exactly once, from its lowest anchor (the root):
    a search state is a set, the spaces next to it that it may still take
    (its extension) and the spaces it must not take (lower roots, and the
    extension spaces an earlier branch already took). Taking a space adds
    its free neighbours to the extension; leaving it excludes it from the
    later branches. So no subset is built twice and none needs a lookup to
    be kept once. Sets are bit masks over the board's spaces (see
    _board_masks for `bits`) and become sets of spaces at the end; `memo`
    (the board's) keeps the masks and those sets from call to call; the
    sets found are charged to `budget` (lang/budget.py), when given.
    """
    if hi < 1 or not allowed:
        return ()
    pre = _board_masks(orth, region_of, memo, bits)
    return _subsets(pre, _mask(pre[1], allowed), lo, hi, anchors, max_regions, budget)


def _subsets(pre, ok, lo, hi, anchors, max_regions, budget=None) -> tuple:
    """connected_subsets of the spaces of the mask `ok`."""
    if not ok:
        return ()
    spaces, bit, nbr, reg, within, sets, _known = pre
    roots = ok if anchors is None else _mask(bit, anchors) & ok
    limit = len(spaces) + 1 if max_regions is None else max_regions
    by_size = _grow(roots, ok, nbr, reg, within, hi, limit, budget)
    if by_size is None:
        raise EvalError(f"groups(...) of up to {hi} spaces finds more than {GROUPS_LIMIT} sets of one size here",
                        hint="lower its largest size, or give it fewer spaces or anchors")
    out = []
    for found in by_size[max(lo, 1):]:
        found.sort()
        out.extend(map(sets.__getitem__, found))
    return tuple(out)


def _grow(roots, ok, nbr, reg, within, hi, limit, budget=None) -> list:
    """The connected sets within `ok` holding a root, lists by size (unsorted):
    see connected_subsets. With a limit of one region, each root's search
    keeps to its region's spaces (so none is tried and refused). The sets
    found are charged to `budget` at the end (one search is bounded by
    GROUPS_LIMIT; the budget bounds many)."""
    by_size = [[] for _ in range(hi + 1)]
    done = 0                     # roots already searched: later sets never hold one
    while roots:
        r = roots & -roots
        roots ^= r
        done |= r
        by_size[1].append(r)
        if hi == 1:
            continue
        i = r.bit_length() - 1
        okr = ok & within[i] if limit == 1 else ok
        stack = [(r, 1, reg[i], nbr[i] & okr & ~done, done)]
        while stack:
            g, size, regs, ext, excl = stack.pop()
            grown = by_size[size + 1]
            if len(grown) > GROUPS_LIMIT:        # (checked per set grown from, not per set found)
                return None
            while ext:
                b = ext & -ext
                ext ^= b
                j = b.bit_length() - 1
                nregs = regs | reg[j]
                if nregs == regs or nregs.bit_count() <= limit:
                    ng = g | b
                    grown.append(ng)
                    if size + 1 < hi:
                        stack.append((ng, size + 1, nregs, (ext | nbr[j]) & okr & ~excl & ~ng, excl))
                excl |= b
    if budget is not None:
        found = sum(map(len, by_size))
        if found > SMALL:
            budget.charge(found)
    return by_size


def _groups_explain(ctx, value, allowed, lo, hi, anchors=None, max_regions=None):
    """Which condition of groups(...) a set of spaces misses."""
    show = ctx.rules.show
    grid = ctx.rules.grid
    g = frozenset((value,)) if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], int) \
        else frozenset(value) if isinstance(value, (frozenset, tuple)) else None
    if g is None:
        return [f"{show(value)} is not a set of spaces"]
    allowed = frozenset(allowed)
    out = []
    bad = sorted(s for s in g if s not in allowed)
    if bad:
        out.append(f"{show(frozenset(bad))}: not among the spaces allowed here ({len(allowed)} open spaces)")
    if not lo <= len(g) <= hi:
        out.append(f"it has {len(g)} space(s); {lo} to {hi} are allowed")
    first = next(iter(g))
    seen, todo = {first}, [first]
    while todo:
        u = todo.pop()
        for n in grid.orth.get(u, ()):
            if n in g and n not in seen:
                seen.add(n)
                todo.append(n)
    if seen != g:
        out.append("its spaces are not connected (neighbour to neighbour)")
    if anchors is not None and g.isdisjoint(frozenset(anchors)):
        out.append(f"none of its spaces is an anchor (anchors: {show(frozenset(anchors)) or 'none'})")
    regs = {grid.region_of.get(s) for s in g}
    if max_regions is not None and len(regs) > max_regions:
        out.append(f"it lies in {len(regs)} regions; at most {max_regions} allowed")
    return out or ["it meets every condition of groups(...)"]


_groups.explain = _groups_explain


@_def("shortest_paths", arity=(2, 2),
      doc="every shortest chain of linked spaces from a port of x to a port of y, in order from x",
      example="shortest_paths(x, y)", group="graph", args=("structure", "structure"))
def _shortest_paths(ctx, a, b):
    return ctx.state.links.shortest_paths(a, b, ctx.budget)


@_def("at_turn_start", LAZY, arity=(1, 1), doc="the value of an expression in the position the turn began in",
      example="at_turn_start(connected(x, y))", group="graph")
def _at_turn_start(ctx, thunk):
    start = ctx.state.turn_start
    if start is None:
        return thunk(ctx)
    saved = ctx.state
    ctx.state = start
    try:
        return thunk(ctx)
    finally:
        ctx.state = saved


# ---------------- counters and points ----------------
@_def("points", arity=(1, 1), doc="a player's points", example="points(player)", group="points", args=("player",))
def _points(ctx, p):
    return ctx.state.counters.get(("points", p), 0)


@_def("points_from", arity=(2, 2), doc="a player's points from one source", example='points_from(p, "gold")',
      group="points", args=("player", "source"))
def _points_from(ctx, p, source):
    return ctx.state.counters.get(("points", p, source), 0)


@_def("counter", arity=(1, 1), doc="the value of a named counter (0 when never set)",
      example='counter("rounds")', group="points")
def _counter(ctx, name):
    return ctx.state.counters.get(("counter", name), 0)


# ---------------- effects ----------------
def _effect(name, arity, doc, example, group="effects", args=()):
    return _def(name, EFFECT, arity, doc, example, group, args=args)


def _check_count(ctx, n):
    """A count of items an effect is given: a whole number, 0 or more."""
    if type(n) is not int or n < 0:
        raise EvalError(f"a count of items must be a whole number, 0 or more, not {ctx.rules.show(n)}")


@_effect("create", (2, 3), "bring n new items into a zone (setup)", "create(coin(), bank, 10)", args=("item",))
def _create(ctx, item, zone, n=1):
    if n != 1:
        _check_count(ctx, n)
    ctx.state.add(zone, item, n)
    ctx.state.bump(("created", item), n)


@_effect("move", (3, 4), "move n items from one zone to another (a track fills its lowest free slot)",
         "move(coin(), bank, hand(player))", args=("item",))
def _move(ctx, item, src, dst, n=1):
    if n != 1:
        _check_count(ctx, n)
    st = ctx.state
    st.remove(src, item, n)
    st.add(dst, item, n)
    st.events.append(("move", item, src, dst, n))


@_effect("move_all", (2, 3), "move every item (or every one of a kind) from one zone to another",
         "move_all(discard, deck)", args=(None, None, "piece kind"))
def _move_all(ctx, src, dst, kind=None):
    st = ctx.state
    for item in st.items(src):
        if kind is None or item[0] == kind:
            n = st.amount(src, item)
            st.remove(src, item, n)
            st.add(dst, item, n)
            st.events.append(("move", item, src, dst, n))


@_effect("take", (3, 3), "move the item in slot i of a track to a zone", "take(track, 0, bank)")
def _take(ctx, zone, i, dst):
    st = ctx.state
    track = st.tracks.get(zone)
    if track is None:
        raise EvalError(f"{ctx.rules.show(zone)} is not a track")
    if type(i) is not int or not 0 <= i < len(track):
        raise EvalError(f"{ctx.rules.show(zone)} has no slot {ctx.rules.show(i)} (its slots: 0 to {len(track) - 1})")
    item = track[i]
    if item is None:
        raise EvalError(f"slot {i} of {ctx.rules.show(zone)} is empty")
    track[i] = None
    st.touch("take", zone, i)
    st.add(dst, item)
    st.events.append(("move", item, zone, dst, 1))


@_effect("compact", (1, 1), "slide a track's items down to the lowest slots, keeping their order",
         "compact(track)")
def _compact(ctx, zone):
    track = ctx.state.tracks.get(zone)
    if track is None:
        raise EvalError(f"{ctx.rules.show(zone)} is not a track")
    kept = [x for x in track if x is not None]
    track[:] = kept + [None] * (len(track) - len(kept))
    ctx.state.touch("compact", zone)


@_effect("shuffle", (1, 1), "shuffle a deck with the game's seeded random source", "shuffle(deck)")
def _shuffle(ctx, zone):
    deck = ctx.state.decks.get(zone)
    if deck is None:
        raise EvalError(f"{ctx.rules.show(zone)} is not a deck")
    ctx.state.rng.shuffle(deck)
    ctx.state.touch("shuffle", zone, tuple(deck))


@_effect("draw", (2, 2), "move the top item of a deck to a zone (nothing when the deck is empty)",
         "draw(deck, hand(player))")
def _draw(ctx, zone, dst):
    st = ctx.state
    deck = st.decks.get(zone)
    if deck is None:
        raise EvalError(f"{ctx.rules.show(zone)} is not a deck")
    if deck:
        item = deck.pop(0)
        st.touch("draw", zone)
        st.add(dst, item)
        st.events.append(("move", item, zone, dst, 1))


@_effect("award", (3, 4), "give a player points from a source (with an optional detail such as a place)",
         'award(player, 3, "gold")', group="points", args=("player", None, "source"))
def _award(ctx, p, n, source, detail=None):
    st = ctx.state
    if not isinstance(n, int) or isinstance(n, bool):
        raise EvalError(f"points must be a whole number, got {n!r}")
    st.bump(("points", p), n)
    st.bump(("points", p, source), n)
    st.events.append(("award", p, n, source, detail))


@_effect("add", (2, 2), "add to a named counter", 'add("rounds", 1)', group="points")
def _add(ctx, name, n):
    ctx.state.bump(("counter", name), n)


@_effect("note", (1, None), "record an event for logs and statistics", 'note("raid", x, y)', group="effects")
def _note(ctx, kind, *args):
    ctx.state.events.append(("note", kind) + args)


@_effect("end_game", (0, 0), "end the game after the current step", "end_game()")
def _end_game(ctx):
    ctx.state.over = True
    ctx.state.touch("over")
    ctx.state.events.append(("end",))


def _charge_(ctx, n) -> None:
    """Charge work past budget.SMALL (smaller calls are charged by the loop that makes them)."""
    if n > SMALL:
        charge(ctx, n)
