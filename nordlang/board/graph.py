"""The connection graph: which pieces and ports link.

Nodes are occupied spaces (pieces that link) and structure ports (one per
side). A piece links to orthogonally adjacent linking pieces and to the
port that faces it; ports of one structure are never linked to each other,
so a structure never passes a connection through. Graphs are cached by the
set of occupied spaces, so states that share a board share the work, and
a piece placed or lifted updates them (`added`, `removed`) instead of
building them again. The hot path uses plain adjacency dicts and a
breadth-first search; `Links.g` gives the same graph in networkx (the
tests check the components and paths against it).
"""

from __future__ import annotations

import itertools
from collections import OrderedDict

_CACHE: OrderedDict = OrderedDict()
_CACHE_SIZE = 4096
_IDS = itertools.count()


class Links:
    """Components and paths of one board occupancy.

    Components come from a plain breadth-first search over the adjacency,
    shortest chains from another (both the hot path); the networkx graph is
    built only when `g` is asked for.
    """

    __slots__ = ("grid", "nodes", "adj", "comp", "comp_id", "struct_comps", "sfront", "memo", "_g")

    def __init__(self, grid, nodes: frozenset):
        self.grid = grid
        self.nodes = nodes
        adj = {}
        facing = grid.ports_facing
        orth = grid.orth
        for p, face in grid.port_faces.items():
            adj[p] = [face] if face in nodes else []
        for s in nodes:
            adj[s] = [n for n in orth[s] if n in nodes] + list(facing.get(s, ()))
        self.adj = adj
        comp = {}
        comp_id = {}
        for start in adj:
            if start in comp_id:
                continue
            _spread(adj, start, comp, comp_id)
        self.comp = comp
        self.comp_id = comp_id
        self._finish()

    def _finish(self, before=None, changed=()):
        """Which components each structure touches: all of them, or only
        those with a port among the `changed` nodes (the rest as `before`).

        A structure none of whose ports is among the changed nodes also
        keeps its frontier: the space that changed was not next to its
        components (else it would have belonged to them)."""
        comp, comp_id, ports = self.comp, self.comp_id, self.grid.ports
        if before is None:
            self.struct_comps = {sid: frozenset([comp_id[p] for p in ps if len(comp[p]) > 1])
                                 for sid, ps in ports.items()}
            self.sfront = {}
        else:
            sc = self.struct_comps = dict(before.struct_comps)
            touched = {p[0] for p in self.grid.port_set.intersection(changed)}
            for sid in touched:
                sc[sid] = frozenset([comp_id[p] for p in ports[sid] if len(comp[p]) > 1])
            sf = self.sfront = dict(before.sfront)
            for sid in touched:
                sf.pop(sid, None)
        self.memo = {}          # values derived from this board (paths, pairs), by a tagged key
        self._g = None

    def _derive(self, nodes, adj) -> Links:
        new = Links.__new__(Links)
        new.grid, new.nodes, new.adj = self.grid, nodes, adj
        new.comp, new.comp_id = dict(self.comp), dict(self.comp_id)
        return new

    def added(self, s) -> Links:
        """These links with a piece on space s too (components merge; no search)."""
        grid = self.grid
        adj = dict(self.adj)
        near = [n for n in grid.orth[s] if n in self.nodes]
        ports = grid.ports_facing.get(s, ())
        adj[s] = near + list(ports)
        for n in near:
            adj[n] = adj[n] + [s]
        for p in ports:
            adj[p] = [s]
        new = self._derive(self.nodes | {s}, adj)
        members = {s}
        old = self.comp
        for n in adj[s]:
            members.update(old[n])
        fc = frozenset(members)
        new.comp.update(dict.fromkeys(fc, fc))              # (loops in C: components can be large)
        new.comp_id.update(dict.fromkeys(fc, next(_IDS)))
        new._finish(self, fc)
        return new

    def removed(self, s) -> Links:
        """These links without the piece on space s (only its component is searched again)."""
        adj = dict(self.adj)
        gone = adj.pop(s)
        for n in gone:
            adj[n] = [x for x in adj[n] if x != s]
        new = self._derive(self.nodes - {s}, adj)
        comp, comp_id = new.comp, new.comp_id
        del comp[s], comp_id[s]
        if len(gone) == 1:
            # a leaf: what it hung from stays in one piece, no search needed
            rest = self.comp[s] - {s}
            comp.update(dict.fromkeys(rest, rest))
            comp_id.update(dict.fromkeys(rest, next(_IDS)))
        else:
            for m in self.comp[s]:
                if m != s:
                    del comp_id[m]
            for n in gone:
                if n not in comp_id:
                    _spread(adj, n, comp, comp_id)
        new._finish(self, self.comp[s])
        return new

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
        """The open spaces next to any component a structure's ports are in."""
        hit = self.sfront.get(sid)
        if hit is None:
            out = set()
            for p in self.grid.ports[sid]:
                out.update(self.frontier(self.comp[p]))
            hit = self.sfront[sid] = frozenset(out)
        return hit

    def connected(self, a, b) -> bool:
        """True when some component holds a node of each (structure, space or port)."""
        if a == b:
            return True
        sc = self.struct_comps
        if type(a) is str:
            a, b = b, a
        if type(b) is str:
            ib = sc.get(b)
            if ib is None:
                return False
            if type(a) is str:
                ia = sc.get(a)
                return ia is not None and not ia.isdisjoint(ib)
            return self.comp_id.get(a) in ib
        i = self.comp_id.get(a)
        return i is not None and i == self.comp_id.get(b)

    def component(self, x) -> frozenset:
        return self.comp.get(x, frozenset())

    def shortest_paths(self, a: str, b: str) -> tuple:
        """All shortest chains of linked spaces from a port of `a` to a port of `b`.

        A breadth-first search from a's ports that keeps every predecessor on
        a shortest route, then walks them back: ports are leaves of the graph,
        so a chain never passes through a structure.
        """
        key = ("paths", a, b)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        if a == b or not self.connected(a, b):
            self.memo[key] = ()
            return ()
        adj = self.adj
        goal = set(self.grid.ports[b])
        dist = {p: 0 for p in self.grid.ports[a]}
        preds: dict = {p: () for p in dist}
        layer = list(dist)
        found = []
        d = 0
        while layer and not found:
            d += 1
            nxt = []
            for u in layer:
                for v in adj[u]:
                    if v not in dist:
                        dist[v] = d
                        preds[v] = [u]
                        nxt.append(v)
                    elif dist[v] == d:
                        preds[v].append(u)
            found = [v for v in nxt if v in goal]
            layer = [v for v in nxt if v not in goal and not isinstance(v[0], str)]
        paths: set = set()
        for end in found:
            _walk_back(preds, end, [], paths)
        out = tuple(sorted(paths))
        self.memo[key] = out
        return out


def _walk_back(preds, node, tail, paths) -> None:
    """Every chain of spaces from a start port to `node` along the
    predecessors, reversed, into `paths` (a plain function, not a closure
    calling itself: that would be a reference cycle left to the collector)."""
    ps = preds[node]
    if not ps:
        paths.add(tuple(reversed(tail)))
        return
    for u in ps:
        _walk_back(preds, u, tail + [u] if not isinstance(u[0], str) else tail, paths)


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


def _spread(adj, start, comp, comp_id) -> None:
    """Give every node linked with start (breadth-first) one new component."""
    i = next(_IDS)
    members = [start]
    comp_id[start] = i
    for u in members:               # grows while it is read: a breadth-first search
        for n in adj[u]:
            if n not in comp_id:
                comp_id[n] = i
                members.append(n)
    fc = frozenset(members)
    comp.update(dict.fromkeys(members, fc))


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
