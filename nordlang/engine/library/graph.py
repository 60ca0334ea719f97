"""The connection graph: what occupying pieces link, and the groups of
spaces a placement may be."""

from __future__ import annotations

from ...board.graph import open_around
from ...board.grid import Port
from ...board.masks import bit_layout
from ...errors import EvalError
from ...lang.budget import SMALL, charge, size
from ...lang.builtins import LAZY, ordered
from .registry import _charge_, _def
from .subsets import _board_masks, _mask, _subsets, connected_subsets
from .zones import _open_spaces


# ---------------- the connection graph ----------------
@_def("connected", arity=(2, 3),
      doc="true when a component links the two (structures, spaces, ports, or collections of them: any member); "
          "with `over`, only pieces of that player, or only the spaces of that collection, link",
      example="connected(top_row, bottom_row, player)", group="graph", args=("structure", "structure", "player"),
      returns="truth")
def _connected(ctx, a, b, over=None):
    if over is None and b.__class__ is str:
        # (a space or structure and a structure, the common case: Links.connected written out)
        links = ctx.state.links
        mb = links.around.get(b)
        if mb is not None:
            if a.__class__ is tuple and len(a) == 2 and a[0].__class__ is int:
                bit = links.masks.bit.get(a)
                if bit is not None:
                    return bool(bit & mb)
            elif a.__class__ is str:
                ma = links.around.get(a)
                if ma is not None:
                    return a == b or bool(ma & mb)
    grid = ctx.rules.grid
    known = grid.memo.get("collection_masks")
    if known is not None and type(over) is int and 0 <= over < ctx.rules.num_players:
        ka, kb = known.get(id(a)), known.get(id(b))
        if ka is not None and kb is not None and ka[0] is a and kb[0] is b:
            # (two collections whose masks are kept, and a player: what the general case below comes to)
            if len(a) + len(b) > SMALL:
                charge(ctx, len(a) + len(b))
            # (_linked written out: this runs after every piece placed in a game like Hex)
            owned = ctx.state.owned
            within = owned.get(over, 0) if owned is not None else ctx.state.owner_mask(over)
            ma = ka[1]
            seeds, goal = ma & within, kb[1] & within
            if not (seeds and goal):
                return False
            return bool(seeds & goal or bit_layout(grid).reach(ma, within, over) & goal)
    ca, cb = _is_collection(a), _is_collection(b)
    if over is not None or ca or cb:
        player = type(over) is int
        if ca or cb or not player and _is_collection(over):     # masks made from the collections' members
            _charge_(ctx, size(a) + size(b) + (0 if player else size(over)))
        within = ctx.state.links.occ if over is None else _over_mask(ctx, over)
        return _linked(grid, _mask_of(ctx, a), _mask_of(ctx, b), within, _reach_key(over))
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
    around = links.around               # (settled: `pairs` is then this position's)
    hit = links.pairs.get(kind)
    if hit is None and links.joined is not None:
        last = links.joined[0].get(kind)
        if last is not None:
            hit = links.pairs[kind] = _joined_pairs(last, links.joined[1], ctx.rules.structures_by_kind.get(kind, ()))
            if len(hit) > SMALL:
                charge(ctx, len(hit))
            return hit
    if hit is None:
        # Two structures are linked when the masks of their components meet, and so when
        # those masks' port faces meet (a component touching a structure holds one of its
        # faces): the faces in each one's components say which pairs there are, and change
        # only when a component reaches a face, not as it grows elsewhere. The answers are
        # kept by them, and carried from position to position while those faces stay
        # (Links.pairs).
        faces = links.masks.any_face
        sids = ctx.rules.structures_by_kind.get(kind, ())
        linking = (kind, *[around[a] & faces for a in sids])
        known = _pairs_known(ctx.rules.grid)
        hit = known.get(linking)
        if hit is None:
            hit = known[linking] = _linked_pairs(sids, linking[1:])
        if len(hit) > SMALL:
            charge(ctx, len(hit))
        links.pairs[kind] = hit
    return hit


def _linked_pairs(sids, masks) -> frozenset:
    """The ordered pairs of structures whose masks meet (a structure
    touching no component, mask 0, is in none): pair by pair, among those
    that touch one (a kind has few structures)."""
    live = [(a, m) for a, m in zip(sids, masks) if m]
    out = []
    while live:
        a, m = live.pop()
        for b, n in live:
            if m & n:
                out.append((a, b))
                out.append((b, a))
    return frozenset(out)


def _joined_pairs(last, joined, sids) -> frozenset:
    """The last position's pairs of a kind, and every pair of its
    structures that one component now touches (Links._settle: pieces only
    came, so components only merged); the last pairs themselves when they
    hold them all."""
    mine = [a for a in joined if a in sids]
    new = [(a, b) for a in mine for b in mine if a != b and (a, b) not in last]
    return last.union(new) if new else last


def _pairs_known(grid) -> dict:
    """connected_pairs' answers by the port faces each structure's components
    hold (kept per board, cleared when full)."""
    known = grid.memo.get("pairs by faces")
    if known is None or len(known) > 1_000:
        known = grid.memo["pairs by faces"] = {}
    return known


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
    mx = _mask_of(ctx, x)
    if not mx & within:
        return frozenset()
    out = mk.spaces(mk.reach(mx, within, _reach_key(over)))
    _charge_(ctx, len(out) + size(x) if _is_collection(x) else len(out))
    return out


@_def("occupied_by", arity=(1, 1), doc="every space holding an occupying piece of player p, in board order",
      example="areas(occupied_by(player))", group="zones", args=("player",))
def _occupied_by(ctx, p):
    out = bit_layout(ctx.rules.grid).members(_player_mask(ctx, p))
    _charge_(ctx, len(out))
    return out


def _is_collection(x) -> bool:
    """A collection of nodes (not one space: a space is a (row, col) tuple)."""
    t = type(x)
    return t is frozenset or t is list or t is set or (t is tuple and not (len(x) == 2 and type(x[0]) is int))


def _linked(grid, ma, mb, within, key) -> bool:
    """True when a space of mask ma and one of mask mb lie in one component
    of `within` (through the bit layout's reach, kept by key)."""
    seeds = ma & within
    goal = mb & within
    if not (seeds and goal):
        return False
    return bool(seeds & goal or bit_layout(grid).reach(ma, within, key) & goal)


def _reach_key(over):
    """What the linking spaces of connected/component(..., over) stand for,
    as the bit layout's `reach` keeps its answers: a player's pieces (their
    number), any linking piece (-1), a collection's spaces (-2)."""
    return over if type(over) is int else -1 if over is None else -2


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
    known = grid.memo.get("collection_masks")
    if known is not None:
        hit = known.get(id(x))
        if hit is not None and hit[0] is x:
            return hit[1]
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
    if known is None:
        known = grid.memo["collection_masks"] = {}
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
    if nodes.__class__ is str:
        links = ctx.state.links
        hit = links.memo.get(nodes)         # (Links.structure_frontier's memo first: a structure's, kept)
        if hit is not None:
            return hit
        last = links.masks.fronts.get(nodes)
        if last is not None and not (last[0] ^ links.occ) & last[1]:
            hit = links.memo[nodes] = last[3]       # (its last frontier holds: Links._structure_frontier)
            return hit
        if last is None and nodes not in ctx.rules.grid.ports:
            raise EvalError(f"{ctx.rules.show(nodes)} is not a structure")
        hit = links.memo[nodes] = links.new_frontier(nodes, last)     # (as Links.structure_frontier)
        return hit
    grid = ctx.rules.grid
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
    both = grid.memo.get("groups of open")
    if both is None:
        layout = bit_layout(grid)
        both = grid.memo["groups of open"] = (layout, _board_masks(grid.orth, grid.region_of, grid.memo, layout.bit))
    layout, pre = both
    known = pre[6]
    hit = known.get(id(spaces))
    if hit is not None and hit[0] is spaces:
        m = hit[1]
    else:
        m = _mask(pre[1], spaces)
        if len(known) >= 64:
            known.clear()
        known[id(spaces)] = (spaces, m)       # (held: its id is not reused while it is here)
    taken = ctx.state.links.occ
    if len(ctx.state.occupied) != taken.bit_count():       # (pieces that occupy without linking)
        taken = _mask_of(ctx, tuple(ctx.state.occupied))
    anchor_bits = None if anchors is None else layout.bits_of(anchors)
    return _subsets(pre, m & layout.free & ~taken, lo, hi, anchors, max_regions, ctx.budget, anchor_bits)


@_def("groups", arity=(3, 5),
      doc="connected sets (neighbour to neighbour) of the given spaces, sizes lo..hi, each holding an anchor "
          "(and lying in at most max_regions regions)",
      example="groups(open_spaces(spaces), 1, 3, anchors, 1)", group="graph",
      fused=(("open_spaces", _groups_of_open),))
def _groups(ctx, allowed, lo, hi, anchors=None, max_regions=None):
    grid = ctx.rules.grid
    return connected_subsets(grid.orth, grid.region_of, allowed, lo, hi, anchors, max_regions, grid.memo,
                             bit_layout(grid).bit, ctx.budget)



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
    bad = frozenset(s for s in g if s not in allowed)      # (what a move's text named: not all spaces, maybe)
    if bad:
        out.append(f"{show(bad)}: not among the spaces allowed here ({len(allowed)} open spaces)")
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


