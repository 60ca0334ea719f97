"""Players, spaces, regions and structures: what a board is made of."""

from __future__ import annotations

from ...errors import EvalError
from ...lang.budget import SMALL, charge, size
from ...lang.builtins import BARE
from .grids import _NEIGHBORS, cell_neighbors
from .registry import _charge_, _def, _per_space, _space, no_board_hint


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
    players = ctx.rules.player_range
    try:
        return _OTHERS[len(players), p]       # (made once per number of players and player)
    except KeyError:
        if len(_OTHERS) > 1_000:
            _OTHERS.clear()
        out = _OTHERS[len(players), p] = tuple([q for q in players if q != p])
        return out
    except TypeError:                         # (no player, and unhashable: as written)
        return tuple([q for q in players if q != p])


_OTHERS: dict = {}      # (number of players, p) -> others(p): few (cleared past 1,000)


# ---------------- board ----------------
@_def("spaces", BARE, doc="every space of the board", example="spaces", inline="ctx.rules.grid.spaces")
def _spaces(ctx):
    return ctx.rules.grid.spaces


@_def("space", arity=(1, 1), doc="the space with that name (column letter and row, like \"c4\"; on a graph "
      "board, the space's own name)", example='space("c4")', args=("space name",))
def _space_named(ctx, name):
    s = ctx.rules.grid.parse(str(name))
    if s is None or s not in ctx.rules.grid.space_set:
        raise EvalError(f"{name!r} is not a space of this board", hint=no_board_hint(ctx))
    return s


@_def("terrain", arity=(1, 1), doc="the terrain name of a space", example='terrain(s) == "sea"',
      returns="terrain")
def _terrain(ctx, s):
    try:
        return ctx.rules.grid.terrain[s]        # (_per_space's common case written out: a call less)
    except (KeyError, TypeError):
        return _per_space(ctx, ctx.rules.grid.terrain, s)


@_def("has_feature", arity=(2, 2), doc="true when a space shows the named feature",
      example='has_feature(s, "pile")', args=(None, "feature"), returns="truth")
def _has_feature(ctx, s, name):
    return name in ctx.rules.grid.features.get(s, ())


@_def("tile_of", arity=(1, 1), doc="the tile a space belongs to (none for spaces no tile covers)",
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


# row and column of a grid's cell written into the generated code (the uncommon cases call the primitive)
_CELL_PART = ("{{0}}[{}] if {{0}}.__class__ is tuple and len({{0}}) == 4 and {{0}}[0].__class__ is str "
              "and {{0}}[0] in ctx.rules.grid_zones else {{fn}}(ctx, {{0}})")


@_def("row", arity=(1, 1), doc="the row of a space, from 1 at the top (the number in its name; on a hex "
      "board the axial r + 1); of a grid's cell, its row as cell() numbers it, from 0", example="row(s) == 1",
      inline=_CELL_PART.format(2))
def _row(ctx, s):
    if s.__class__ is tuple and len(s) == 4 and s[0].__class__ is str and s[0] in ctx.rules.grid_zones:
        return s[2]                    # a grid's cell (_is_cell, written out: this runs very often)
    return _coordinates(ctx, s)[0] + 1


@_def("column", arity=(1, 1), doc="the column of a space, from 1 at the left (its letters a = 1, b = 2...; on "
      "a hex board the axial q + 1); of a grid's cell, its column as cell() numbers it, from 0",
      example="column(s) == 1", inline=_CELL_PART.format(3))
def _column(ctx, s):
    if s.__class__ is tuple and len(s) == 4 and s[0].__class__ is str and s[0] in ctx.rules.grid_zones:
        return s[3]                    # a grid's cell (_is_cell, written out: this runs very often)
    return _coordinates(ctx, s)[1] + 1


def _is_cell(ctx, s) -> bool:
    """Is s a grid's cell (not a space, nor something else of four parts)?"""
    return s.__class__ is tuple and len(s) == 4 and s[0].__class__ is str and s[0] in ctx.rules.grid_zones


def _coordinates(ctx, s):
    if ctx.rules.grid.geometry.kind == "graph":
        raise EvalError("a graph board has no rows or columns", hint="its spaces are known by name: space(\"a\")")
    return _space(ctx, s)


@_def("neighbors", arity=(1, 1), doc="the spaces next to a space (4 on a square board, 8 on square8, 6 on hex, "
      "a graph's edges); of a grid's cell, the cells above, to the left, to the right and below, within the grid",
      example="neighbors(s)")
def _neighbors(ctx, s):
    if s.__class__ is tuple and len(s) == 4 and s[0].__class__ is str and s[0] in ctx.rules.grid_zones:  # (_is_cell)
        out = _NEIGHBORS.get((ctx.rules.grid_zones[s[0]], s))      # (cell_neighbors' memo first)
        return out if out is not None else cell_neighbors(ctx, s)
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
    grid = ctx.rules.grid
    return grid.region_of.get(s if s in grid.space_set else _space(ctx, s))


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


