"""Shortest chains of linked spaces between two structures, over the
connection graph's masks (graph.py Links.shortest_paths keeps them)."""

from __future__ import annotations


def chains(links, a: str, b: str, budget=None) -> tuple:
    """All shortest chains of linked spaces from a port of `a` to a port of
    `b`, sorted; the two are linked (the caller checks).

    Breadth-first over the occupied spaces, a layer (a mask) at a time,
    from the spaces facing a's ports until a layer holds one facing b's;
    then each chain is walked back through the layers. Ports are leaves
    of the graph, so a chain never passes through a structure. Their
    number can grow exponentially with their length: each layer and each
    chain walked is charged to `budget` (lang/budget.py), when given.
    """
    mk, occ = links.masks, links.occ
    spread = mk.spread
    goal = mk.faces[b][1]
    layer = seen = mk.faces[a][1] & occ
    layers = [layer]
    while not layer & goal:
        layer = spread(layer) & occ & ~seen
        seen |= layer
        layers.append(layer)
    if budget is not None:
        budget.charge(len(layers))
    paths: list = []
    for end in mk.members(layer & goal):
        _walk_back(links.grid.orth, mk.bit, layers, len(layers) - 1, [end], paths, budget)
    return tuple(sorted(paths))


def _walk_back(orth, bit, layers, k, tail, paths, budget=None) -> None:
    """Every chain from a space of layer 0 to tail[0] (in layer k) through
    the layers below, reversed, into `paths` (a plain function, not a
    closure calling itself: that would be a reference cycle left to the
    collector); each chain is charged to `budget` by its length."""
    if k == 0:
        if budget is not None:
            budget.charge(len(tail))
        paths.append(tuple(reversed(tail)))
        return
    below = layers[k - 1]
    for n in orth[tail[-1]]:
        if bit[n] & below:
            _walk_back(orth, bit, layers, k - 1, tail + [n], paths, budget)
