"""The positions of an mcts search (agents/mcts.py) and the minimax part of
its backups: each position keeps the best of its children's vectors for
the player who moves there, brought up to date from the one child that
changed (a full pass over the children only when the best one got worse)."""

from __future__ import annotations


class _Node:
    """A position of the tree: its game, its own score, the sums and the best vector backed up through it."""

    __slots__ = ("game", "mover", "n_opts", "children", "untried", "visits", "total", "best",
                 "value", "moves_made", "best_i", "option")

    def __init__(self, game, value, option=None):
        self.game = game
        self.option = option        # the parent's option that led here
        st = game.state
        p = st.pending
        self.mover = None if p is None else p.player
        self.n_opts = 0 if p is None else len(p.options)
        self.children = {}          # option index -> _Node
        self.untried = None         # option indices still to try (None: not drawn yet)
        self.visits = 1
        self.value = value          # the position's own score vector
        self.total = value          # sum of score vectors backed up through here (a new list at each backup)
        self.best = value           # minimax vector: best child for the mover
        self.best_i = None          # the option of that child (None: no child yet)
        self.moves_made = st.moves_made

    @property
    def texts(self):
        """The options' texts (made only when a kept subtree is matched: most positions never need them)."""
        p = self.game.state.pending
        return () if p is None else p.texts


def refresh_best(node):
    """node.best: the best of its children's for its mover (of equal values, the lowest option's)."""
    if not node.children:
        return
    p = node.mover
    best, best_i = None, None
    for i, ch in node.children.items():
        b = ch.best
        if best is None or b[p] > best[p] or b[p] == best[p] and i < best_i:
            best, best_i = b, i
    node.best, node.best_i = best, best_i



def better_child(node, child) -> bool:
    """node.best after its child's best changed (or the child is new), as
    refresh_best makes it, looking at the other children only when the
    best one got worse. Whether node.best changed."""
    was, p, i = node.best, node.mover, child.option
    b = child.best
    if node.best_i is None or b[p] > was[p] or b[p] == was[p] and i < node.best_i:
        node.best, node.best_i = b, i
    elif i == node.best_i:          # (the best child changed: still the best unless it got worse)
        if b[p] >= was[p]:
            node.best = b
        else:
            refresh_best(node)
    else:
        return False
    return node.best is not was
