"""Grids: zones whose items stand in cells of rows and columns.

A grid zone (`type: grid`, usually `per_player`) is a container with sites
of its own, apart from the board: each player's tableau, display or
board. Its cells are made as items first come to them, so a grid grows
with what is put on it, up to the `rows` and `columns` it declares. A cell
is a pool: `move`, `amount` and `items` work on it as on any zone, and on
the whole grid `amount`, `items` and `total` count every cell.
"""

from __future__ import annotations

from ...errors import EvalError
from ...lang.budget import SMALL, charge
from ...lang.memo import remember, remembered
from .registry import _def


def _grid(ctx, z) -> tuple[int, int]:
    """The (rows, columns) of the grid zone z, or the error that z is none."""
    dims = ctx.rules.grid_zones.get(z[0]) if type(z) is tuple and len(z) == 2 and type(z[0]) is str else None
    if dims is None:
        grids = ", ".join(sorted(ctx.rules.grid_zones)) or "none"
        raise EvalError(f"{ctx.rules.show(z)} is not a grid zone", hint=f"this rulebook's grid zones: {grids}")
    return dims


def _cell(ctx, c) -> tuple:
    """c, checked to be a cell of a grid zone."""
    if not (type(c) is tuple and len(c) == 4 and c[0] in ctx.rules.grid_zones):
        raise EvalError(f"{ctx.rules.show(c)} is not a cell of a grid",
                        hint="cells are made by cell(grid, row, column)")
    return c


@_def("cell", arity=(3, 3), doc="the cell of a grid zone at a row and a column, each counted from 0 (rows from the "
      "top, columns from the left); it holds items as a pool does", example="cell(tableau(player), 0, 2)",
      group="grids")
def _cell_at(ctx, z, r, c):
    dims = ctx.rules.grid_zones.get(z[0]) if z.__class__ is tuple and len(z) == 2 and z[0].__class__ is str \
        else None            # (_grid, written out: this runs very often)
    rows, columns = dims if dims is not None else _grid(ctx, z)
    if r.__class__ is int and c.__class__ is int and 0 <= r < rows and 0 <= c < columns:
        return (z[0], z[1], r, c)
    if type(r) is not int or not 0 <= r < rows:
        raise EvalError(f"{ctx.rules.show(z)} has no row {ctx.rules.show(r)}: its rows are 0 to {rows - 1}")
    if type(c) is not int or not 0 <= c < columns:
        raise EvalError(f"{ctx.rules.show(z)} has no column {ctx.rules.show(c)}: its columns are 0 to {columns - 1}")
    return (z[0], z[1], r, c)


@_def("filled_cells", arity=(1, 1), doc="the cells of a grid zone that hold items, row by row from the top, each row "
      "from the left", example="len(filled_cells(tableau(player)))", group="grids")
def _filled_cells(ctx, z):
    st = ctx.state
    cells = st.cells.get(z) if z.__class__ is tuple else None     # (only a grid's key has cells)
    if cells is None:
        _grid(ctx, z)
        return ()
    # (kept by the version of the grid's part, State._zone_changed: a position's
    # definitions often ask it again, once for each kind of item they count)
    key = (_filled_cells, z, st.base, st.parts.get(z if st.by_owner else z[0]))
    out = remembered(key)
    if out is None:
        pools = st.pools
        out = remember(key, tuple(filter(pools.__getitem__, cells)))   # (kept in order: those with items)
    if len(out) > SMALL:
        charge(ctx, len(out))
    return out


@_def("bordering_cells", arity=(1, 1), doc="the empty cells of a grid zone next to a filled one (above, to the "
      "left, to the right or below), row by row from the top, each row from the left",
      example="bordering_cells(tableau(player))", group="grids")
def _bordering_cells(ctx, z):
    """Where a tile laid next to others may go: one walk over the filled
    cells' neighbours (a rule's loop over them cost a call or two for each),
    kept by the version of the grid's part, as filled_cells is."""
    filled = _filled_cells(ctx, z)      # (checks z, charges the cells)
    if not filled:
        return ()
    st = ctx.state
    key = (_bordering_cells, z, st.base, st.parts.get(z if st.by_owner else z[0]))
    out = remembered(key)
    if out is None:
        out = remember(key, _bordering_anew(ctx, z, filled))
    if 4 * len(filled) > SMALL:
        charge(ctx, 4 * len(filled))    # (the neighbours visited)
    return out


def _bordering_anew(ctx, z, filled) -> tuple:
    """bordering_cells of z, whose filled cells are `filled`: grown from the
    last answer for z's grid when its filled cells were some of these (a
    grid mostly gains items: a tile laid, a piece added), else one walk
    over every filled cell's neighbours. Grown, the last answer's cells but
    the newly filled ones stay (they were empty, and a cell filled since is
    a new one), and the new filled cells' empty neighbours join them: every
    other neighbour of the old filled cells was filled and still is (a pool
    holds no zero counts, so a filled cell is one that holds something).
    The cells are gathered in a list, nearly in order, and sorted there: a
    set's order is its hashes', and sorting that cost more than the walk."""
    pools, dims = ctx.state.pools, ctx.rules.grid_zones[z[0]]
    now = set(filled)
    last = _LAST_BORDERING.get((dims, z))
    if last is not None and len(now) >= len(last[2]):
        before, answer, before_set = last
        if len(now) == len(before_set) and filled == before:
            return answer
        new = now.difference(before_set)
        if len(now) - len(new) == len(before_set):     # (the last filled cells are all among these)
            new = tuple(sorted(new))
            found = []
            for n in answer:        # (a few cells: compared, not hashed; a loop, not a comprehension: no call)
                if n not in new:
                    found.append(n)
            for f in new:
                near = _NEIGHBORS.get((dims, f))
                for n in near if near is not None else cell_neighbors(ctx, f):
                    if not pools.get(n) and n not in found:      # (empty, and not yet found)
                        found.append(n)
            return _last_bordering(dims, z, filled, found, now)
    found, seen = [], set()
    for f in filled:
        near = _NEIGHBORS.get((dims, f))
        for n in near if near is not None else cell_neighbors(ctx, f):
            if n not in seen:
                seen.add(n)
                if not pools.get(n):      # (empty: total(n) == 0)
                    found.append(n)
    return _last_bordering(dims, z, filled, found, now)


def _last_bordering(dims, z, filled, found: list, now: set) -> tuple:
    """The answer made of `found` (sorted in place: runs in order, the last
    answer's, then each cell's neighbours), kept as z's last."""
    found.sort()
    out = tuple(found)
    if len(_LAST_BORDERING) > _NEIGHBORS_LIMIT:
        _LAST_BORDERING.clear()
    _LAST_BORDERING[(dims, z)] = (filled, out, now)
    return out


@_def("grid_of", arity=(1, 1), doc="the grid zone a cell belongs to", example="grid_of(c) == tableau(player)",
      group="grids", inline="{0}[:2] if {0}.__class__ is tuple and len({0}) == 4 and {0}[0].__class__ is str "
                            "and {0}[0] in ctx.rules.grid_zones else {fn}(ctx, {0})")
def _grid_of(ctx, c):
    if c.__class__ is tuple and len(c) == 4 and c[0] in ctx.rules.grid_zones:    # (_cell, written out)
        return c[:2]
    return _cell(ctx, c)[:2]


def cell_neighbors(ctx, c) -> tuple:
    """The cells orthogonally next to a cell (c, checked to be one), within its grid: above, left,
    right, below."""
    dims = ctx.rules.grid_zones[c[0]]
    key = (dims, c)
    out = _NEIGHBORS.get(key)
    if out is None:
        name, owner, r, col = c
        rows, columns = dims
        out = tuple((name, owner, r + dr, col + dc) for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0))
                    if 0 <= r + dr < rows and 0 <= col + dc < columns)
        if len(_NEIGHBORS) > _NEIGHBORS_LIMIT:
            _NEIGHBORS.clear()
        _NEIGHBORS[key] = out
    return out


# The neighbours of cells by (grid's rows and columns, cell): they depend on
# nothing else, and grids are small; kept bounded all the same.
_NEIGHBORS: dict = {}
_NEIGHBORS_LIMIT = 20_000
# The last bordering_cells answer of each grid zone, with the filled cells it was
# made from, by (grid's rows and columns, zone): the next answer grows from it.
_LAST_BORDERING: dict = {}
