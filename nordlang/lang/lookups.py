"""Loops that look up one item, asked in one call. Rules that look at one
kind of item in a cell (a tile under pieces, the pieces on a tile) write
`first([x for x in items(z) if kind(x) == k])` and `sum(amount(z, x) for x
in items(z) if kind(x) == k)`, and the item in slot i of a track
`first([x for j, x in slots(z) if j == i])`; the generated code then calls
one helper (runtime._first_of_kind, _amount_of_kind, _in_slot) that reads
the pool or the track in place, with no tuple of items, no loop helper and
no list made: the same value, the same work charged, the same errors (a
failure is placed by the replay, which takes no shortcut). A mixin of the
Compiler's Expressions, beside Shortcuts, whose helpers it uses."""

from __future__ import annotations

from . import ast as A
from .builtins import CORE
from .runtime import _COUNTER
from .values import CELL


def is_lookup(node, names) -> bool:
    """Is node one of the shapes above, as far as its text shows (the
    primitives' names not taken by the rulebook, the kind or index a
    literal or a name no definition takes)? Such a lookup costs a call:
    a definition made of it is cheap (memo.is_cheap), and written into its
    callers. (Where the compiler finds more, as a parameter named like a
    primitive, the loop is written in as it stands: the same value.)"""
    if not (isinstance(node, A.Call) and isinstance(node.func, A.Name)):
        return False
    comp = node.gen if node.func.id == "sum" else node.args[0] if node.func.id == "first" and len(node.args) == 1 \
        else None
    if not isinstance(comp, A.Comp) or len(comp.fors) != 1 or (node.func.id == "sum") != (not node.args) \
            or len(comp.fors[0].conds) != 1 or comp.kind != ("gen" if node.func.id == "sum" else "list"):
        return False
    cf = comp.fors[0]
    cond, it = cf.conds[0], cf.iter
    if not (isinstance(cond, A.BinOp) and cond.op == "==" and isinstance(it, A.Call) and isinstance(it.func, A.Name)
            and it.gen is None and len(it.args) == 1):
        return False
    taken = names.funcs.keys() | names.constructors.keys() | names.constants.keys()
    if taken & {node.func.id, it.func.id, "kind", "amount"}:
        return False
    x = cf.target[-1]
    if it.func.id == "slots" and len(cf.target) == 2:
        key, elt_ok = cf.target[0], node.func.id == "first" and _named(comp.elt, x)
    elif it.func.id == "items" and len(cf.target) == 1:
        key = ("kind", x)
        elt_ok = _named(comp.elt, x) if node.func.id == "first" else (
            isinstance(comp.elt, A.Call) and _named(comp.elt.func, "amount") and len(comp.elt.args) == 2
            and comp.elt.gen is None and _named(comp.elt.args[1], x) and isinstance(comp.elt.args[0], A.Name)
            and _named(it.args[0], comp.elt.args[0].id))
    else:
        return False
    for tested, other in ((cond.left, cond.right), (cond.right, cond.left)):
        if _is_key(tested, key) and (isinstance(other, A.Const) or isinstance(other, A.Name)
                                     and other.id not in cf.target and other.id not in names.funcs):
            return elt_ok
    return False


def _named(node, name) -> bool:
    return isinstance(node, A.Name) and node.id == name


def _is_key(node, key) -> bool:
    """Is node the name key, or (key a pair) the call kind(x)?"""
    if isinstance(key, str):
        return _named(node, key)
    return (isinstance(node, A.Call) and _named(node.func, key[0]) and node.gen is None and len(node.args) == 1
            and _named(node.args[0], key[1]))


class Lookups:
    """The shapes above, recognised in the text (a mixin of Expressions)."""

    def _kind_filter(self, comp, scope, local):
        """(zone node, kind node) of a comprehension `... for x in items(z) if
        kind(x) == k` (either side of ==; one clause, one name, one test),
        both the primitives, k a value that can neither fail nor depend on
        x (Shortcuts._plain: it is then computed once, not per item); else None."""
        if len(comp.fors) != 1:
            return None
        cf = comp.fors[0]
        if len(cf.target) != 1 or len(cf.conds) != 1:
            return None
        x, it, cond = cf.target[0], cf.iter, cf.conds[0]
        if not (isinstance(it, A.Call) and it.gen is None and len(it.args) == 1
                and self._primitive(it, scope, local) == "items"):
            return None
        if not (isinstance(cond, A.BinOp) and cond.op == "=="):
            return None
        inner = dict(local, **{x: "_"})
        for tested, other in ((cond.left, cond.right), (cond.right, cond.left)):
            if (isinstance(tested, A.Call) and tested.gen is None and len(tested.args) == 1
                    and self._primitive(tested, scope, inner) == "kind"
                    and isinstance(tested.args[0], A.Name) and tested.args[0].id == x
                    and self._plain(other, x, scope, local)):
                return it.args[0], other
        return None

    def _first_of_kind(self, b, node, scope, local):
        """`first([x for x in items(z) if kind(x) == k])` or `first([x for j, x
        in slots(z) if j == i])` as one call; else None."""
        if self.tracing or b.name != "first" or CORE.get("first") is not b or len(node.args) != 1:
            return None
        comp = node.args[0]
        if not (isinstance(comp, A.Comp) and comp.kind == "list" and len(comp.fors) == 1):
            return None
        if len(comp.fors[0].target) == 2:
            return self._in_slot(comp, scope, local)
        found = self._kind_filter(comp, scope, local)
        if found is None or not (isinstance(comp.elt, A.Name) and comp.elt.id == comp.fors[0].target[0]):
            return None
        return self._kind_call("_first_of_kind", comp, found, "", comp, scope, local)

    def _in_slot(self, comp, scope, local):
        """`[x for j, x in slots(z) if j == i]` (either side of ==), slots the
        primitive, i a value that can neither fail nor depend on j or x, as
        the call of the item in slot i; else None."""
        cf = comp.fors[0]
        j, x = cf.target
        it = cf.iter
        if not (len(cf.conds) == 1 and isinstance(comp.elt, A.Name) and comp.elt.id == x and j != x
                and isinstance(it, A.Call) and it.gen is None and len(it.args) == 1
                and self._primitive(it, scope, local) == "slots"):
            return None
        cond = cf.conds[0]
        if not (isinstance(cond, A.BinOp) and cond.op == "=="):
            return None
        for tested, other in ((cond.left, cond.right), (cond.right, cond.left)):
            if isinstance(tested, A.Name) and tested.id == j and self._plain(other, j, scope, local) \
                    and not (isinstance(other, A.Name) and other.id == x):
                slots = self.bind(self.names.registry.get("slots").fn, "b")
                return (f"_in_slot(ctx, {self.gen(it.args[0], scope, local)}, {self.gen(other, scope, local)}, "
                        f"{slots}, {self._site(comp)})")
        return None

    def _amount_of_kind(self, b, node, scope, local):
        """`sum(amount(z, x) for x in items(z) if kind(x) == k)`, z the same
        name both times (a local: the same value), as one call; else None."""
        comp = node.gen
        if self.tracing or b.name != "sum" or CORE.get("sum") is not b or comp is None:
            return None
        found = self._kind_filter(comp, scope, local)
        elt = comp.elt
        if found is None or not (isinstance(elt, A.Call) and elt.gen is None and len(elt.args) == 2
                                 and self._primitive(elt, scope, local) == "amount"):
            return None
        zone, x = elt.args
        if not (isinstance(zone, A.Name) and isinstance(found[0], A.Name) and zone.id == found[0].id
                and zone.id in local and zone.id != comp.fors[0].target[0]
                and isinstance(x, A.Name) and x.id == comp.fors[0].target[0]):
            return None
        amount = self.bind(self.names.registry.get("amount").fn, "b")
        return self._kind_call("_amount_of_kind", comp, found, f"{amount}, ", node, scope, local)

    def _kind_call(self, helper, comp, found, more, site, scope, local):
        """The helper's call: the zone, the kind, the items primitive (its
        uncommon cases), `more` (amount's), the site the loop charges at.
        Of a zone known to be a cell (values.py), an empty cell (no pool)
        answers as the helper would, without the call: most cells a tile's
        neighbours look up hold nothing."""
        zone, kind = found
        items = self.bind(self.names.registry.get("items").fn, "b")
        code = self.gen(zone, scope, local)
        rest = f"{self.gen(kind, scope, local)}, {items}, {more}{self._site(site)})"
        simple = self._simple(*self._argument(zone, scope, local))
        if self.fact(zone, scope, local) != CELL or not (simple or not self._iterable):
            return f"{helper}(ctx, {code}, {rest}"
        empty = "None" if helper == "_first_of_kind" else "0"
        if self._iterable:    # (no := in a loop's collection: the cell is simple, written twice)
            return f"({helper}(ctx, {code}, {rest} if {code} in ctx.state.pools else {empty})"
        if self._filled_cell(zone, scope, local):       # (its pool is there)
            return f"{helper}_in(ctx, ctx.state.pools[{code}], {code}, {rest}"
        # (the cell's pool looked up once, and handed to the helper's pool form: runtime._in_pool)
        n = next(_COUNTER)
        pool, var = f"_pool{n}", code if simple else f"_cell{n}"
        made = code if simple else f"({var} := {code})"
        return f"({helper}_in(ctx, {pool}, {var}, {rest} if ({pool} := ctx.state.pools.get({made})) is not None " \
               f"else {empty})"
