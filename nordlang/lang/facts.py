"""What the compiler knows about an expression's value before it runs:
whether it is a sequence already in order, holds nothing twice, is a
number, is true or false, or is cheap enough to compute twice. A mixin
of the Compiler, beside expressions.py, which asks it."""

from __future__ import annotations

from . import ast as A
from .builtins import BARE
from .values import CELL, CELL_PARTS

_COMPARISONS = {"==", "!=", "<", "<=", ">", ">=", "in", "not in"}
_NUMBERS_ONLY = {"*": ("_mul", "multiplies"), "%": ("_mod", "gives the remainder of")}


class NodeFacts:
    """(The Compiler gives names and _kind_of.)"""

    def _is_seq(self, node, scope, local) -> bool:
        """Is the value a tuple or list already in order (so a loop over it
        needs no sorting)? Only what is known when compiling says yes."""
        if isinstance(node, (A.ListX, A.TupleX)):
            return True
        if isinstance(node, A.Comp):
            return node.kind != "set"
        if isinstance(node, A.Name) and node.id in local:
            code = local[node.id]
            if code in self._arguments:        # (an inlined definition's parameter: its argument)
                return self._is_seq(*self._arguments[code])
            return code in self._seqs           # (a let's: what it was bound to)
        name = node.id if isinstance(node, A.Name) else \
            node.func.id if isinstance(node, A.Call) and isinstance(node.func, A.Name) else None
        if name is None or name in local or name in scope:      # a variable: any value
            return False
        f = self.names.funcs.get(name)
        if f is not None:
            return f.seq and (isinstance(node, A.Call) or not f.params)
        b = self.names.registry.get(name)
        return b is not None and b.seq and (isinstance(node, A.Call) or b.kind == BARE)

    def _each_of(self, node, scope, local) -> str:
        """The helper that charges a loop over node's value: of a tuple or
        list already in order, the one that tests nothing (runtime._each_seq)."""
        return "_each" if self.tracing or not self._is_seq(node, scope, local) else "_each_seq"

    def _is_distinct(self, node, scope) -> bool:
        """Is the value known, when compiling, to hold no value twice (so a
        choice's options need no search for duplicates)? A set does not;
        nor does a primitive that says so (Builtin.distinct)."""
        if isinstance(node, A.Comp):
            return node.kind == "set"
        if not isinstance(node, (A.Name, A.Call)):
            return False
        call = isinstance(node, A.Call)
        if call and not isinstance(node.func, A.Name):
            return False
        name = node.func.id if call else node.id
        if name in scope or name in self.names.funcs:
            return False
        b = self.names.registry.get(name)
        if b is None or not (call or b.kind == BARE):
            return False
        if b.distinct == "always":
            return True
        return b.distinct == "keeps" and call and len(node.args) >= 1 and self._is_distinct(node.args[0], scope)

    def _simple(self, node, scope, local) -> bool:
        """A name or constant, or a part of a cell the text knows (`row(c)`,
        `column(c)`, `grid_of(c)`: a part of its tuple, which cannot fail):
        as cheap to compute twice as to keep."""
        if isinstance(node, A.Const):
            return True
        if isinstance(node, A.Call) and len(node.args) == 1 and isinstance(node.args[0], A.Name) \
                and node.gen is None and self._primitive(node, scope, local) in CELL_PARTS:
            return self.fact(node.args[0], scope, local) == CELL
        if isinstance(node, A.Name):
            b = self.names.registry.get(node.id)
            return (node.id in local or node.id in scope or node.id in self.names.constants
                    or (b is not None and b.kind == BARE))
        return False

    def _constant(self, node, scope, local):
        if isinstance(node, A.Name) and node.id not in scope and node.id not in local \
                and node.id in self.names.constants:
            return True, self.names.constants[node.id]
        return False, None

    @staticmethod
    def _is_number(node) -> bool:
        """A number literal, or a product or remainder of numbers (no check needed)."""
        if isinstance(node, A.Const):
            return type(node.value) in (int, float)
        if isinstance(node, A.Neg):
            return NodeFacts._is_number(node.operand)
        return isinstance(node, A.BinOp) and node.op in _NUMBERS_ONLY

    def _is_truth(self, node, scope, local) -> bool:
        """Is the value true or false, whatever it is, as far as the compiler knows?"""
        if isinstance(node, A.Const):
            return isinstance(node.value, bool)
        if isinstance(node, (A.Not, A.BoolOp)):
            return True
        if isinstance(node, A.BinOp):
            return node.op in _COMPARISONS
        return self._kind_of(node, scope, local) == "truth"

    def _template(self, b, node, scope, local):
        """A primitive's `inline` template filled in (Builtin.inline), or None
        when an argument it names more than once is not simple (computed
        twice it could cost, or fail twice): then it is called. `{fn}` in a
        template is the primitive itself, for its uncommon cases."""
        t = b.inline
        for i, a in enumerate(node.args):
            if t.count("{" + str(i) + "}") > 1 and not self._simple(a, scope, local):
                return None
        args = [f"({self.gen(a, scope, local)})" for a in node.args]
        return "(" + t.format(*args, fn=self.bind(b.fn, "b") if "{fn}" in t else "") + ")"
