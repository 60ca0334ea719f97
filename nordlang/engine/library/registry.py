"""The registry of the generic standard library, and the helpers its
modules share: how a primitive is declared, and how its arguments are checked."""

from __future__ import annotations

from ...errors import EvalError
from ...lang.budget import SMALL, charge
from ...lang.builtins import CORE, EFFECT, Builtin, Registry

STD = Registry(dict(CORE.items))


_STATIC = {"space", "players", "num_players", "others", "spaces", "terrain", "has_feature", "tile_of", "distance",
           "neighbors", "areas", "surroundings", "region_of", "regions", "region_spaces", "region_terrain",
           "regions_of", "structures", "space_of", "structure_at", "ports", "kind", "tag", "owner", "row", "column",
           "board_directions", "space_at", "step", "ray", "cell", "grid_of"}


# primitives that return a tuple in a fixed order (comprehensions over them need no sorting)
_SEQ = {"players", "others", "spaces", "neighbors", "areas", "surroundings", "region_spaces", "structures", "ports",
        "items", "occupied_spaces", "open_spaces", "slots", "groups", "shortest_paths", "occupied_by",
        "filled_cells", "bordering_cells"}

# primitives whose value never holds a value twice, and those that keep their argument so (filters):
# a choice's options from them need no search for duplicates
_DISTINCT = {"players", "others", "spaces", "neighbors", "region_spaces", "structures", "occupied_spaces", "slots",
             "bordering_cells"}
_KEEPS_DISTINCT = {"open_spaces"}


def _def(name, kind="expr", arity=(0, 0), doc="", example="", group="board", inline=None, args=(), returns=None,
         fused=()):
    """Register a primitive; `args` and `returns` name the kinds of value (builtins.KINDS)
    its arguments take and it gives, which the compiler checks literals against;
    `fused` its fused forms (see Builtin.fused)."""
    def deco(fn):
        STD.add(Builtin(name, fn, kind, arity, doc, example, group, name in _STATIC, name in _SEQ, inline,
                        args, returns, fused,
                        "always" if name in _DISTINCT else "keeps" if name in _KEEPS_DISTINCT else ""))
        return fn
    return deco


def no_board_hint(ctx) -> str | None:
    """The hint for a space asked of a rulebook that declares no board."""
    if ctx.rules.grid.spaces:
        return None
    return "this rulebook declares no 'boards', so it has no spaces: its places are its zones"


def _space(ctx, s):
    if s not in ctx.rules.grid.space_set:
        raise EvalError(f"{ctx.rules.show(s)} is not a space of this board", hint=no_board_hint(ctx))
    return s


def _per_space(ctx, table, s):
    """table[s] for a space s of the board (a lookup first: the common case)."""
    try:
        return table[s]
    except (KeyError, TypeError):
        raise EvalError(f"{ctx.rules.show(s)} is not a space of this board", hint=no_board_hint(ctx)) from None

def _effect(name, arity, doc, example, group="effects", args=()):
    return _def(name, EFFECT, arity, doc, example, group, args=args)


def _check_count(ctx, n):
    """A count of items an effect is given: a whole number, 0 or more."""
    if type(n) is not int or n < 0:
        raise EvalError(f"a count of items must be a whole number, 0 or more, not {ctx.rules.show(n)}")



def _charge_(ctx, n) -> None:
    """Charge work past budget.SMALL (smaller calls are charged by the loop that makes them)."""
    if n > SMALL:
        charge(ctx, n)


def _track(ctx, zone) -> list:
    """The slots of a track (an error for any other zone)."""
    track = ctx.state.tracks.get(zone)
    if track is None:
        raise EvalError(f"{ctx.rules.show(zone)} is not a track")
    return track


def _slot(ctx, zone, track, i) -> int:
    """i, checked to be a slot of the track."""
    if type(i) is not int or not 0 <= i < len(track):
        raise EvalError(f"{ctx.rules.show(zone)} has no slot {ctx.rules.show(i)} (its slots: 0 to {len(track) - 1})")
    return i
