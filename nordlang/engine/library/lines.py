"""Space arithmetic: the space at a row and column, a step in a direction,
a ray to the board's edge. Lines of play (flips, jumps, slides) are written
with these rather than over tuples of numbers, so they follow the board's
own geometry and never leave it."""

from __future__ import annotations

from ...board.geometry import Square8
from ...errors import EvalError
from ...lang.builtins import BARE
from .registry import _charge_, _def, _space

# a square board's neighbours are N, E, S, W, but a line may run along a diagonal too
_SQUARE_LINES = dict(Square8.directions)


def _directions(ctx) -> dict:
    """The board's directions: name -> (row step, column step)."""
    geometry = ctx.rules.grid.geometry
    if geometry.kind == "graph":
        raise EvalError("a graph board has no directions, so no steps, rays or rows and columns",
                        hint="its spaces are joined by edges: neighbors(s), distance(a, b)")
    return _SQUARE_LINES if geometry.kind == "square" else geometry.directions


def _step_of(ctx, d) -> tuple:
    steps = _directions(ctx)
    try:
        return steps[d]
    except (KeyError, TypeError):
        raise EvalError(f"{d!r} is not a direction of this board" if isinstance(d, str) else
                        f"{ctx.rules.show(d)} is not a direction of this board",
                        hint="its directions: " + ", ".join(steps)) from None


@_def("board_directions", BARE, doc="the names of the board's directions, clockwise "
      "(square and square8: N NE E SE S SW W NW; hex: NW NE E SE SW W; a graph board has none: an error)",
      example="board_directions")
def _board_directions(ctx):
    return tuple(_directions(ctx))


@_def("space_at", arity=(2, 2), doc="the space at a row and a column, both from 1 as row() and column() "
      "number them (none when the board has no such space)", example="space_at(row(s) + 1, column(s))")
def _space_at(ctx, r, c):
    _directions(ctx)
    if type(r) is not int or type(c) is not int:
        raise EvalError(f"a row and a column are whole numbers, not {ctx.rules.show(r)} and {ctx.rules.show(c)}")
    s = (r - 1, c - 1)
    return s if s in ctx.rules.grid.space_set else None


@_def("step", arity=(2, 2), doc="the space next to a space in a direction of the board (\"N\", \"SE\"...: see "
      "board_directions), none off the board", example='step(s, "N")')
def _step(ctx, s, d):
    dr, dc = _step_of(ctx, d)
    r, c = _space(ctx, s)
    t = (r + dr, c + dc)
    return t if t in ctx.rules.grid.space_set else None


@_def("ray", arity=(2, 2), doc="the spaces in a line from a space (not itself) in a direction of the board, "
      "nearest first, up to the board's edge (or a gap in it)", example='ray(s, "NE")')
def _ray(ctx, s, d):
    out = []
    t = _step(ctx, s, d)
    while t is not None:
        out.append(t)
        t = _step(ctx, t, d)
    _charge_(ctx, len(out))
    return tuple(out)
