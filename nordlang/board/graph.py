"""The connection graph: which pieces and ports link.

Nodes are occupied spaces (pieces that link) and structure ports (one per
side). A piece links to the linking pieces on neighbouring spaces (the
geometry's neighbours) and to the port that faces it; ports of one
structure are never linked to each other, so a structure never passes a
connection through. A port is thus a leaf: it belongs to the component of
the space it faces, or stands alone.

The hot path holds the occupied spaces of a component as one bit mask over
the board (masks.py: row-major, with a spare column so that shifting a mask
by one never wraps into the next row): a component grows by shifting and
masking; pieces placed and lifted split anew only the components they touch.
Graphs are cached by the set of occupied spaces, so states that share a
board share the work, and pieces placed or lifted update them (`added`,
`removed`: when next asked for) instead of building them again. `Links.g` gives
the same graph in networkx (the tests check the components and paths
against it).
"""

from __future__ import annotations

from collections import OrderedDict

from .masks import _SETS_LIMIT, _masks, _or
from .paths import chains

_CACHE: OrderedDict = OrderedDict()
_CACHE_SIZE = 4096


class Links:
    """Components and paths of one board occupancy.

    `occ` is the mask of occupied spaces and `comps` the masks of its
    components (a mask is also its component's id); `around` gives, for
    each structure, the mask of the components its ports face (0 when
    none): components are disjoint, so two structures are linked when
    their masks meet. Links made by `added` and `removed` work out their
    components only when first asked for, from the last links that did
    (see `_settle`): pieces placed and lifted in a row, and positions no
    rule looks at, cost one mask each. Components as sets of nodes, the
    adjacency and the networkx graph are made only when asked for too.
    """

    __slots__ = ("grid", "masks", "occ", "_comps", "_around", "_base", "memo", "pairs", "joined", "_adj", "_g",
                 "_nodes")

    def __init__(self, grid, nodes: frozenset):
        self.grid = grid
        mk = self.masks = _masks(grid)
        bit = mk.bit
        self.occ = _or(bit[s] for s in nodes)
        self._base = None
        self._comps = mk.split(self.occ)
        self._around = {sid: _or(c for c in self._comps if c & fm) for sid, _faces, fm in mk.facing}
        self.pairs = {}         # answers that depend only on which structures link (see _settle)
        self.joined = None      # (the last links' pairs, the structures one component joins): see _settle
        self.memo = {}          # values derived from this board: paths (tagged keys), frontiers (by structure)
        self._adj = self._g = None
        self._nodes = frozenset(nodes)

    @property
    def comps(self) -> list:
        if self._base is not None:
            self._settle()
        return self._comps

    @property
    def around(self) -> dict:
        """Each structure's components, as one mask."""
        if self._base is not None:
            self._settle()
        return self._around

    @property
    def struct_comps(self) -> dict:
        """The components each structure touches, a set of masks per
        structure (for tests and tools: the engine asks `around`)."""
        around = self.around
        return {sid: frozenset([c for c in self._comps if c & m]) for sid, m in around.items()}

    def added(self, s) -> Links:
        """These links with a piece on space s too."""
        return self.then(self.occ | self.masks.bit[s])

    def removed(self, s) -> Links:
        """These links without the piece on space s."""
        return self.then(self.occ & ~self.masks.bit[s])

    def then(self, occ) -> Links:
        """The links of the occupancy `occ`, to be settled from the last
        settled links (the same, when occ is theirs again)."""
        base = self if self._base is None else self._base
        if occ == base.occ:
            return base
        new = Links.__new__(Links)
        new.grid, new.masks, new.occ, new._base = self.grid, self.masks, occ, base
        new._comps = new._around = new.pairs = new.joined = None
        new.memo = {}
        new._adj = new._g = new._nodes = None
        return new

    def _settle(self) -> None:
        """The components, from those of the last settled links: the ones
        that lost a piece or lie next to a piece placed come apart, and
        their remaining spaces with the pieces placed split anew; every
        other component is whole still (it lost nothing, and nothing came
        next to it). The structures facing a space of those are looked at
        again; the others touch the same components as before.

        No split is needed when the pieces placed are connected and none
        was lifted (they join all around them into one: `_merge`, most
        changes), nor when one piece was lifted with at most one occupied
        neighbour (what is left of its component hangs together without it)."""
        base, self._base = self._base, None
        mk = self.masks
        occ, old = self.occ, base.occ
        placed = occ & ~old
        lifted = old & ~occ
        if placed and not lifted and (not placed & (placed - 1) or mk.grow(placed & -placed, placed) == placed):
            self._merge(base, mk, placed)
            return
        near = mk.spread(placed) | lifted if placed else lifted
        comps = [c for c in base._comps if not c & near]
        kept = sum(comps)                   # (disjoint masks: their sum is their union)
        loose = occ ^ kept                  # the pieces placed, and what is left of the components come apart
        if not placed and not lifted & (lifted - 1) and (mk.spread(lifted) & occ).bit_count() < 2:
            if loose:
                comps.append(loose)
            fresh = (loose,)
        else:
            fresh = mk.split(loose)
            comps.extend(fresh)
        self._comps = comps
        around = base._around
        pairs = base.pairs
        changed = old ^ kept | placed       # the components come apart, and the pieces placed
        any_face = mk.any_face
        if changed & any_face:
            around = dict(around)
            for sid, fm in mk.face_masks:
                if fm & changed:
                    was = around[sid]
                    m = was & ~changed
                    for c in fresh:
                        if c & fm:
                            m |= c
                    around[sid] = m
                    if (m ^ was) & any_face:
                        pairs = None
        self._around = around
        # Which structures link depends only on the port faces each one's components
        # hold (two structures' masks meet when those faces do: a component touching a
        # structure holds one of its faces): while none gains or loses one, the answers
        # that depend on that alone (`pairs`) are shared with the last links.
        self.pairs = {} if pairs is None else pairs

    def _merge(self, base, mk, placed) -> None:
        """_settle when pieces only came and hang together: the components
        next to them merge with them into one, and each structure facing
        it touches it too (its components that merged are in it). When a
        structure gains a port face so, the pairs linked now are the last
        ones and every pair of the structures that touch the merged
        component (`joined`: engine/library/graph.py connected_pairs)."""
        near = mk.spread(placed)
        comps = [c for c in base._comps if not c & near]
        loose = self.occ ^ sum(comps)       # (disjoint masks: their sum is their union)
        comps.append(loose)
        self._comps = comps
        around = base._around
        pairs = base.pairs
        held = loose & mk.any_face          # (the structures facing these: kept by them, see _Masks)
        if held:
            facing = mk.touching.get(held)
            if facing is None:
                if len(mk.touching) > _SETS_LIMIT:
                    mk.touching.clear()
                facing = mk.touching[held] = tuple([sid for sid, fm in mk.face_masks if fm & held])
            around = dict(around)
            common = held
            for sid in facing:
                was = around[sid]
                around[sid] = was | loose
                common &= was
            if common != held:              # (a structure gained a port face)
                self.joined = (pairs, facing)
                pairs = {}
        self._around = around
        self.pairs = pairs

    def comp_of(self, x):
        """The mask of the component holding a space or port; None for an open
        space, a port facing one (it stands alone) or no node."""
        b = self._node_bit(x)
        if b & self.occ:
            for c in self.comps:
                if c & b:
                    return c
        return None

    def _node_bit(self, x) -> int:
        """The bit of a space, or of the space a port faces; 0 for a port
        facing none, or no node."""
        b = self.masks.bit.get(x)
        if b is None:
            face = self.grid.port_faces.get(x)
            return 0 if face is None else self.masks.bit[face]
        return b

    @property
    def nodes(self) -> frozenset:
        """The occupied spaces."""
        if self._nodes is None:
            self._nodes = self.masks.spaces(self.occ)
        return self._nodes

    @property
    def adj(self) -> dict:
        """Each node's linked nodes (ports, and the occupied spaces)."""
        if self._adj is None:
            grid, nodes = self.grid, self.nodes
            adj = {p: [face] if face in nodes else [] for p, face in grid.port_faces.items()}
            facing = grid.ports_facing
            for s in nodes:
                adj[s] = [n for n in grid.orth[s] if n in nodes] + list(facing.get(s, ()))
            self._adj = adj
        return self._adj

    @property
    def comp(self) -> dict:
        """Each node's component (one set of nodes per component)."""
        out = {}
        for c in self.comps:
            whole = self._component(c)
            out.update(dict.fromkeys(whole, whole))
        for p in self.grid.port_faces:
            if p not in out:
                out[p] = frozenset((p,))
        return out

    def _component(self, c) -> frozenset:
        mk = self.masks
        hit = mk.comps_of.get(c)
        if hit is None:
            if len(mk.comps_of) > _SETS_LIMIT:
                mk.comps_of.clear()
            facing = self.grid.ports_facing
            spaces = mk.members(c)
            hit = mk.comps_of[c] = frozenset([*spaces, *[p for s in spaces for p in facing.get(s, ())]])
        return hit

    @property
    def g(self):
        """The connection graph as a networkx graph (imported here: the hot
        path never needs it, and the import costs 0.3 s a process)."""
        if self._g is None:
            import networkx as nx

            g = nx.Graph()
            g.add_nodes_from(self.adj)
            for a, links in self.adj.items():
                for b in links:
                    g.add_edge(a, b)
            self._g = g
        return self._g

    def frontier(self, comp: frozenset) -> frozenset:
        """The open spaces next to a whole component. It depends on nothing
        but the component (a piece next to it would belong to it), so it is
        kept per board."""
        memo = _frontiers(self.grid)
        hit = memo.get(comp)
        if hit is None:
            hit = memo[comp] = open_around(self.grid, self.nodes, comp)
        return hit

    def structure_frontier(self, sid) -> frozenset:
        """The open spaces next to any component a structure's ports are in:
        the free faces of its ports, and the free spaces around the
        components of the occupied ones."""
        hit = self.memo.get(sid)
        if hit is None:
            hit = self.memo[sid] = self._structure_frontier(sid)
        return hit

    def _structure_frontier(self, sid) -> frozenset:
        """A structure's frontier, or the board's last one for it (masks.py
        `fronts`: the occupancy it was for, its halo, its mask and set) when
        no space that changed since lies in its halo: the structure's faces,
        the components they touch (`around`) and the spaces next to those.
        (Else the new set is made from the last one: they differ little.)

        A piece placed on a space outside the halo joins no component
        around the structure (it is next to none, and no face), so `around`
        stays and the frontier too (the space was not in it); a piece
        lifted from a space outside the halo leaves `around` whole (the
        space is in none of its components) and opens no space next to it.
        Pieces placed and lifted one at a time, each outside the same halo,
        keep it so: when every space that changed lies outside the halo,
        the frontier is as it was. (The board keeps one per structure:
        states of many games and probes share it, as any frontier kept is
        exact for its own occupancy.)"""
        last = self.masks.fronts.get(sid)
        if last is not None and not (last[0] ^ self.occ) & last[1]:
            return last[3]
        return self.new_frontier(sid, last)

    def new_frontier(self, sid, last) -> frozenset:
        """A structure's frontier made anew (`last`: the board's last one
        for it, which no longer holds; or None)."""
        mk, occ = self.masks, self.occ
        fm = mk.faces[sid][1]
        halo = front = fm
        if fm & occ:
            around = self.around[sid]
            front = mk.spread(around) | fm
            halo = front | around
        front &= mk.free & ~occ
        hit = mk.spaces(front, like=None if last is None else last[2:])
        mk.fronts[sid] = (occ, halo, front, hit)
        return hit

    def connected(self, a, b) -> bool:
        """True when some component holds a node of each (structure, space or port)."""
        if a == b:
            return True
        if type(a) is str:
            a, b = b, a
        if type(b) is str:
            around = self.around
            ib = around.get(b)
            if ib is None:
                return False
            if type(a) is str:
                ia = around.get(a)
                return ia is not None and bool(ia & ib)
            return bool(self._node_bit(a) & ib)
        i = self.comp_of(a)
        return i is not None and i == self.comp_of(b)

    def component(self, x) -> frozenset:
        c = self.comp_of(x)
        if c is not None:
            return self._component(c)
        return frozenset((x,)) if x in self.grid.port_faces else frozenset()

    def shortest_paths(self, a: str, b: str, budget=None) -> tuple:
        """All shortest chains of linked spaces from a port of `a` to a port
        of `b` (paths.py), kept per links."""
        key = ("paths", a, b)
        hit = self.memo.get(key)
        if hit is None:
            hit = self.memo[key] = () if a == b or not self.connected(a, b) else chains(self, a, b, budget)
        return hit


def _frontiers(grid) -> dict:
    memo = grid.memo.get("frontier")
    if memo is None or len(memo) > 50_000:
        memo = grid.memo["frontier"] = {}
    return memo


def open_around(grid, occupied, nodes) -> frozenset:
    """Spaces next to the nodes (orthogonally, or facing a port) with no piece
    and no structure; KeyError for a node that is neither a space nor a port."""
    orth, faces = grid.orth, grid.port_faces
    out = set()
    for n in nodes:
        near = orth.get(n)
        if near is not None:
            out.update(near)
        elif n in faces:
            face = faces[n]
            if face is not None:
                out.add(face)
        else:
            raise KeyError(n)                   # not a node of this board
    out.difference_update(occupied)             # (in C: components can be large)
    out.difference_update(grid.structure_at)
    return frozenset(out)


def links_for(grid, nodes: frozenset) -> Links:
    key = (id(grid), nodes)
    hit = _CACHE.get(key)
    if hit is not None and hit.grid is grid:
        _CACHE.move_to_end(key)
        return hit
    links = Links(grid, nodes)
    _CACHE[key] = links
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return links
