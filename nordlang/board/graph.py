"""The connection graph: which pieces and ports link, held in networkx.

Nodes are occupied spaces (pieces that link) and structure ports (one per
side). A piece links to orthogonally adjacent linking pieces and to the
port that faces it; ports of one structure are never linked to each other,
so a structure never passes a connection through. Graphs are cached by the
set of occupied spaces, so states that share a board share the work.
"""

from __future__ import annotations

from collections import OrderedDict

import networkx as nx

from ..lang.builtins import sort_key

_CACHE: OrderedDict = OrderedDict()
_CACHE_SIZE = 4096


class Links:
    """Components and paths of one board occupancy."""

    __slots__ = ("grid", "nodes", "g", "comp", "comp_id", "struct_comps", "_paths")

    def __init__(self, grid, nodes: frozenset):
        self.grid = grid
        self.nodes = nodes
        g = nx.Graph()
        for ports in grid.ports.values():
            g.add_nodes_from(ports)
        g.add_nodes_from(nodes)
        for s in nodes:
            for n in grid.orth[s]:
                if n in nodes:
                    g.add_edge(s, n)
            for port in grid.ports_facing.get(s, ()):
                g.add_edge(port, s)
        self.g = g
        self.comp = {}
        self.comp_id = {}
        for i, c in enumerate(nx.connected_components(g)):
            fc = frozenset(c)
            for n in c:
                self.comp[n] = fc
                self.comp_id[n] = i
        self.struct_comps = {sid: frozenset(self.comp_id[p] for p in ports if len(self.comp[p]) > 1)
                             for sid, ports in grid.ports.items()}
        self._paths = {}

    def _ids(self, x):
        if isinstance(x, str):
            return self.struct_comps.get(x, frozenset())
        i = self.comp_id.get(x)
        return frozenset() if i is None else frozenset((i,))

    def connected(self, a, b) -> bool:
        """True when some component holds a node of each (structure, space or port)."""
        if a == b:
            return True
        return not self._ids(a).isdisjoint(self._ids(b))

    def component(self, x) -> frozenset:
        return self.comp.get(x, frozenset())

    def shortest_paths(self, a: str, b: str) -> tuple:
        """All shortest chains of linked spaces from a port of `a` to a port of `b`."""
        key = (a, b)
        if key in self._paths:
            return self._paths[key]
        if not self.connected(a, b) or a == b:
            self._paths[key] = ()
            return ()
        g = self.g.copy()
        src, dst = ("__src__",), ("__dst__",)
        for p in self.grid.ports[a]:
            g.add_edge(src, p)
        for p in self.grid.ports[b]:
            g.add_edge(p, dst)
        paths = set()
        for path in nx.all_shortest_paths(g, src, dst):
            spaces = tuple(n for n in path[2:-2])
            paths.add(spaces)
        out = tuple(sorted(paths, key=sort_key))
        self._paths[key] = out
        return out


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
