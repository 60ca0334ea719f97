"""What an expression's work will be, where the text alone tells: `nord validate` warns.

At run time every loop draws on one budget of work per decision
(budget.py): a rulebook that asks too much fails when it gets there. This
tells before the game is played, for the collections whose size is known
from the text: ranges with constant bounds, literal lists and tuples, the
rulebook's constant tables. A comprehension's `for` clause visits its
collection once for every item of the clauses before it, so nested clauses
multiply; a range makes its numbers each time it is evaluated. Sizes that
depend on the position or on arguments are not known, and count as one:
the estimate is a lower bound, and a warning is certain to be right.
"""

from __future__ import annotations

from contextlib import contextmanager

from ..errors import NordError
from . import ast as A
from . import budget
from .builtins import RANGE_LIMIT

ESTIMATING = [False]     # set by `nord validate` (see estimating): loading rules to play need not pay for it


@contextmanager
def estimating():
    """Rules compiled meanwhile collect these warnings (Names.warnings)."""
    ESTIMATING[0] = True
    try:
        yield
    finally:
        ESTIMATING[0] = False


def warnings_of(tree, constants: dict, locate, text_of) -> list:
    """Warnings (NordError, kind "warning") for the parts of an expression
    or block of effects whose work, estimated from the text, is more than a
    decision's budget; `locate(line, col)` places a node and `text_of(node)`
    gives its text (or None)."""
    out: list = []
    _Estimate(constants, locate, text_of, out).visit(tree, 1)
    return out


def _children(value):
    """The syntax nodes directly below (statements in tuples of tuples included)."""
    for v in (value.__dict__.values() if isinstance(value, A.Node) else value):
        if isinstance(v, A.Node):
            yield v
        elif isinstance(v, tuple):
            yield from _children(v)


class _Estimate:
    def __init__(self, constants, locate, text_of, out):
        self.constants, self.locate, self.text_of, self.out = constants, locate, text_of, out

    # -- sizes known from the text --
    def number(self, node):
        """The value of a constant whole number (a literal, a negated one, a rulebook constant), else None."""
        if isinstance(node, A.Const) and type(node.value) is int:
            return node.value
        if isinstance(node, A.Neg):
            n = self.number(node.operand)
            return None if n is None else -n
        if isinstance(node, A.Name) and type(self.constants.get(node.id)) is int:
            return self.constants[node.id]
        return None

    def range_size(self, node):
        """The count of numbers of range(...) with constant bounds, else None."""
        if not (isinstance(node, A.Call) and isinstance(node.func, A.Name) and node.func.id == "range"
                and node.gen is None and 1 <= len(node.args) <= 2):
            return None
        bounds = [self.number(a) for a in node.args]
        if None in bounds:
            return None
        lo, hi = (0, bounds[0]) if len(bounds) == 1 else bounds
        return max(0, hi - lo)

    def size(self, node):
        """How many items a collection has, when the text says; else None."""
        if isinstance(node, (A.ListX, A.TupleX)):
            return len(node.items)
        if isinstance(node, A.Name) and isinstance(self.constants.get(node.id), (tuple, list, dict, frozenset)):
            return len(self.constants[node.id])
        return self.range_size(node)

    # -- the work of a node evaluated `times` times --
    def work(self, node, times) -> int:
        if isinstance(node, A.Comp):
            return self.loops(node, times)
        if isinstance(node, A.Call) and node.gen is not None:
            return self.loops(node.gen, times) + sum(self.work(a, times) for a in node.args)
        if isinstance(node, A.ForStmt):
            n = self.size(node.iter) or 1
            return self.work(node.iter, times) + times * n + sum(self.work(s, times * n) for s in node.body)
        own = times * (self.range_size(node) or 0)
        return own + sum(self.work(c, times) for c in _children(node))

    def loops(self, comp, times) -> int:
        """A comprehension's work: each clause's collection made, then visited, once per item before it."""
        total = 0
        for cf in comp.fors:
            total += self.work(cf.iter, times)
            times *= self.size(cf.iter) or 1
            total += times + sum(self.work(c, times) for c in cf.conds)
        return total + self.work(comp.elt, times)

    # -- walking the text: the outermost part that is too much is named --
    def visit(self, node, times) -> None:
        if isinstance(node, (tuple, list)):
            for s in node:
                self.visit(s, times)
            return
        n = self.range_size(node)
        if n is not None and n > RANGE_LIMIT:
            self.warn(node, f"range of {n} numbers, more than the limit of {RANGE_LIMIT}: a game that gets here "
                            "stops with an error", hint=f"give range() at most {RANGE_LIMIT} numbers")
            return
        if isinstance(node, (A.Comp, A.ForStmt)) or isinstance(node, A.Call) and node.gen is not None:
            total = self.work(node, times)
            if total > budget.LIMIT:
                self.warn(node, f"its work is at least {total} steps each time it runs (estimated from its text), "
                                f"more than the budget of {budget.LIMIT} a decision may take: a game that gets "
                                "here stops with an error",
                          hint="loop over fewer values, or filter with 'if' before a nested 'for'")
                return
        if isinstance(node, A.Comp):
            for cf in node.fors:
                self.visit(cf.iter, times)
                times *= self.size(cf.iter) or 1
                for c in cf.conds:
                    self.visit(c, times)
            self.visit(node.elt, times)
            return
        if isinstance(node, A.ForStmt):
            self.visit(node.iter, times)
            self.visit(node.body, times * (self.size(node.iter) or 1))
            return
        for c in _children(node):
            self.visit(c, times)

    def warn(self, node, message, hint) -> None:
        width = node.end_col - node.col if node.end_line == node.line else 1
        pos = self.locate(node.line, node.col)
        text = self.text_of(node) or budget._text_at(pos, max(1, width))
        w = NordError(f"{text}: {message}" if text else message, pos, width=max(1, width), hint=hint)
        w.kind = "warning"
        self.out.append(w)
