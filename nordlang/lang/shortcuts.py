"""Shortcuts of the generated code, the same values and errors as the code
they replace: an operation on numbers the text knows worked out when
compiling, a field of a constant table's entries looked up in a table of
that field, a plain operator where the text shows the work is small (a
count, a loop's index), loops over pairs bound without a check, min and max of two written
items compared in place, a filter
of the occupied spaces by their pieces' owner made by the primitive's own
fused form. A mixin of the Compiler's Expressions, whose helpers it uses."""

from __future__ import annotations

import operator

from . import ast as A
from .builtins import BARE, CORE, EFFECT
from .runtime import _COUNTER

# primitives whose values are collections of tuples of one length: a loop binds their parts without a check
# (the first part an index)
_TUPLES = {"enumerate": 2, "slots": 2}
# primitives whose value is a number (or that fail)
_NUMERIC = {"len", "total", "amount", "row", "column", "count", "sum", "free_slots", "points", "points_from",
            "counter", "turn", "num_players"}
# operations on two numbers the text knows, worked out when compiling (Shortcuts._fold)
_FOLD = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv, "//": operator.floordiv,
         "%": operator.mod, "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
         ">": operator.gt, ">=": operator.ge}


class Shortcuts:
    """What the text shows of values, for the shortcuts (a mixin of Expressions)."""

    def _small(self, node, scope, local) -> bool:
        """Does the text show that the operation's work is small (a constant,
        a number or a value of a known kind on one side, a literal list to
        look in)? Else its operands may be collections, and the work is
        charged (budget.py)."""
        if node.op in ("in", "not in"):
            return isinstance(node.right, (A.ListX, A.TupleX))
        return any(isinstance(x, A.Const) or self._numeric(x, scope, local) or
                   self._scalar(x, scope, local)[0] or
                   (node.op in ("==", "!=") and self._kind_of(x, scope, local) is not None)
                   for x in (node.left, node.right))

    def _none_test(self, node, left, right, scope, local):
        """`x == none` (or !=, either side) as an identity test, given the
        sides' code: of every value a rule makes, the same truth, without
        the call of the value's comparison (none is a constant: that side
        need not be computed). Else None."""
        if self.tracing:
            return None
        test = "is" if node.op == "==" else "is not"
        for value, other in ((left, node.right), (right, node.left)):
            known, v = self._scalar(other, scope, local)
            if known and v is None:
                return f"({value} {test} None)"
        return None

    def _argument(self, node, scope, local):
        """(node, scope, local) of the argument an inlined definition's
        parameter stands for (see _inline), else as given."""
        while isinstance(node, A.Name) and node.id in local and local[node.id] in self._arguments:
            node, scope, local = self._arguments[local[node.id]]
        return node, scope, local

    def _scalar(self, node, scope, local):
        """(True, value) for a literal or a rulebook constant that is a number,
        a text, true, false or none; else (False, None)."""
        node, scope, local = self._argument(node, scope, local)
        if isinstance(node, A.Const):
            v = node.value
        else:
            known, v = self._constant(node, scope, local)
            if not known:
                return False, None
        return (v is None or type(v) in (int, float, str, bool)), v

    def _number(self, node, scope, local) -> bool:
        """A number the text shows (see _is_number), or a constant that is one."""
        node, scope, local = self._argument(node, scope, local)
        if self._is_number(node):
            return True
        known, v = self._scalar(node, scope, local)
        return known and type(v) in (int, float)

    def _numeric(self, node, scope, local) -> bool:
        """A number (or a value whose making fails) as far as the text shows:
        one it knows, a loop's index or a let's number, a primitive's count,
        a quotient, or a sum, difference or negation of such. An operation
        on it is small (see _small); a product of two is Python's own."""
        node, scope, local = self._argument(node, scope, local)
        if isinstance(node, A.BinOp) and node.op in ("+", "-"):
            return self._numeric(node.left, scope, local) and self._numeric(node.right, scope, local)
        if isinstance(node, A.Neg):
            return self._numeric(node.operand, scope, local)
        return (self._number(node, scope, local) or self._primitive(node, scope, local) in _NUMERIC
                or isinstance(node, A.BinOp) and node.op in ("/", "//")
                or isinstance(node, A.Name) and local.get(node.id) in self._numbers)

    def _fold(self, node, scope, local):
        """The source of an operation on two numbers the text knows (literals
        or constants, as in `first + width`), worked out now; None for any
        other (or one that fails: it fails when it runs, as written)."""
        if node.op not in _FOLD:
            return None
        (a_known, a), (b_known, b) = self._scalar(node.left, scope, local), self._scalar(node.right, scope, local)
        if not (a_known and b_known and type(a) in (int, float) and type(b) in (int, float)):
            return None
        try:
            v = _FOLD[node.op](a, b)
        except (ArithmeticError, ValueError):
            return None
        return f"({v!r})" if type(v) in (int, bool) else self.bind(v)

    def _primitive(self, node, scope, local):
        """The name of the primitive the expression calls (or, bare, names), else None."""
        if isinstance(node, A.Call) and isinstance(node.func, A.Name):
            name = node.func.id
        elif isinstance(node, A.Name):
            name = node.id
            b = self.names.registry.get(name)
            if b is None or b.kind != BARE:
                return None
        else:
            return None
        if name in local or name in scope or name in self.names.funcs or name in self.names.constructors \
                or self.names.registry.get(name) is None:
            return None
        return name

    def _projected(self, node, scope, local):
        """`table[k].field` of a constant table whose entries all have the
        field, as one lookup in the table of that field (made now): the same
        value, and for a key it has not the same error."""
        obj = node.obj
        if self.tracing or not isinstance(obj, A.Index):
            return None
        known, table = self._constant(obj.obj, scope, local)
        if not (known and isinstance(table, dict) and table and
                all(isinstance(v, dict) and node.name in v for v in table.values())):
            return None
        field = {k: v[node.name] for k, v in table.items()}
        return self._in_table(self.bind(field), self.gen(obj.key, scope, local), self.bind(self.pos(obj.key), 'p'))

    def _in_table(self, table, key, pos) -> str:
        """table[key] of a constant table (a dict), given their code: read in
        place when the key is a text or a whole number (what tables are
        keyed by) that the table holds, with no call; any other key (one it
        lacks, or a value that is no key) goes to _index, for its error.
        The same value: _index of a table is its entry. (In a loop's
        collection, where := may not stand, and in a replay, the call.)"""
        if self.tracing or self._iterable:
            return f"_index({table}, {key}, {pos})"
        k = f"_key{next(_COUNTER)}"
        return (f"({table}[{k}] if ({k} := {key}).__class__ in _PLAIN_KEYS and {k} in {table} "
                f"else _index({table}, {k}, {pos}))")

    def _owned_filter(self, node, scope, local, form="owner", site=None):
        """`[s for s in occupied_spaces if owner(piece_at(s)) == p]` (either
        side of ==) as the fused form `occupied_spaces` declares for it
        (Builtin.fused, under "owner"), which tests each piece's owner
        without a call: the same value, the same work charged. Only where p
        can neither fail nor depend on s: a constant, a name bound in the
        text (a parameter, a loop's or a let's) or a bare primitive the
        compiler writes in (`player`). Else None. `form` "owner count": its
        length, by the form of that name (_owned_count); `site`: the node a
        charge beyond the budget names (else the filter's)."""
        if self.tracing or node.kind != "list" or len(node.fors) != 1:
            return None
        cf = node.fors[0]
        if len(cf.target) != 1 or len(cf.conds) != 1 or self._primitive(cf.iter, scope, local) is None:
            return None
        x = cf.target[0]
        b = self.names.registry.get(cf.iter.id) if isinstance(cf.iter, A.Name) else None
        fn = dict(b.fused).get(form) if b is not None and b.kind == BARE else None
        cond = cf.conds[0]
        if fn is None or not (isinstance(node.elt, A.Name) and node.elt.id == x) \
                or not (isinstance(cond, A.BinOp) and cond.op == "=="):
            return None
        inner = dict(local, **{x: "_"})       # (x as the loop binds it, for the owner's test)
        for tested, other in ((cond.left, cond.right), (cond.right, cond.left)):
            if self._owner_of_piece_at(tested, x, scope, inner) and self._plain(other, x, scope, local):
                owner = self.bind(self.names.registry.get("owner").fn, "b")
                # (occupied_spaces itself made by fn only where it needs it; its reads are noted by
                # the general code, made first)
                return (f"{self.bind(fn, 'b')}(ctx, {self.gen(other, scope, local)}, {owner}, "
                        f"{self._site(node if site is None else site)})")
        return None

    def _owned_count(self, node, scope, local):
        """`len(f(p))` of a definition f that filters the occupied spaces by
        their pieces' owner (`workers_of(p)`), or len of such a filter
        written out: how many pieces p has on the board, counted on his
        mask (the fused form "owner count"), with no list made and f's memo
        not asked (a search asks it at every position, where it has changed);
        the work charged is the filter's. Else None."""
        arg = node.args[0] if len(node.args) == 1 and node.gen is None else None
        if self.tracing or not self.inline or arg is None:
            return None
        if isinstance(arg, A.Comp):
            self.gen(arg, scope, local)         # (its checks and reads, as the general code notes them)
            return self._owned_filter(arg, scope, local, "owner count", node)
        f = self._filter_called(arg, scope, local)
        if f is None or not self._by_owner(f.filter):
            return None
        code = self._owned_filter(f.filter, frozenset(), self._arguments_of(f, arg, scope, local), "owner count",
                                  node)
        if code is not None:
            self._written_in(f, arg, scope, local)
        return code

    def _arguments_of(self, f, call, scope, local) -> dict:
        """f's parameters as the codes of a call's (simple) arguments, noted
        as _inline notes them (what each is, what it reads)."""
        with self._no_keeping():
            sub = {p: f"({self.gen(a, scope, local)})" for p, a in zip(f.params, call.args)}
        for p, a in zip(f.params, call.args):
            self._arguments[sub[p]] = (a, scope, local)
            self._descs[sub[p]] = self._reader(scope, local).desc(a)
        return sub

    def _written_in(self, f, call, scope, local) -> None:
        """Note a call of f whose work is written into the text: f's reads
        are the text's, and a replay calls f."""
        self._dep(f.name, f, tuple(self._reader(scope, local).desc(a) for a in call.args))
        self.inlined = True
        if self.current is not None:
            self.current.inlines.add(f.name)

    def _owner_of_piece_at(self, node, x, scope, local) -> bool:
        """Is node `owner(piece_at(x))`, both the primitives?"""
        if not (isinstance(node, A.Call) and node.gen is None and len(node.args) == 1
                and self._primitive(node, scope, local) == "owner"):
            return False
        arg = node.args[0]
        return (isinstance(arg, A.Call) and arg.gen is None and len(arg.args) == 1
                and self._primitive(arg, scope, local) == "piece_at"
                and isinstance(arg.args[0], A.Name) and arg.args[0].id == x)

    def _plain(self, node, x, scope, local) -> bool:
        """A value that can neither fail nor depend on the loop's x: a
        constant, a name bound in the text, a bare primitive written in."""
        if isinstance(node, A.Const):
            return True
        if not isinstance(node, A.Name) or node.id == x:
            return False
        if node.id in local:
            return True
        if node.id in scope:
            return False            # (a flow variable: it fails when it has no value yet)
        if node.id in self.names.constants:
            return True
        b = self.names.registry.get(node.id)
        return (b is not None and b.kind == BARE and b.inline is not None
                and node.id not in self.names.funcs and node.id not in self.names.constructors)

    def _first_of_list(self, b, node, scope, local):
        """`first([... for ...])` (a list comprehension, with or without a
        default) as the first item of the list made, with no tuple made of
        it nor a call of the primitive: the same value, the same errors in
        the same order (the list is made whole, then the default), the same
        work charged (first charges nothing of a list). Else None."""
        arg = node.args[0]
        if self.tracing or b.name != "first" or CORE.get("first") is not b or not isinstance(arg, A.Comp) \
                or arg.kind != "list":
            return None
        outer, self._as_list = self._as_list, arg
        try:
            made = self.gen(arg, scope, local)
        finally:
            self._as_list = outer
        default = self.gen(node.args[1], scope, local) if len(node.args) > 1 else "None"
        return f"_next(_iter({made}), {default})"

    def _extreme_of_two(self, b, node, scope, local):
        """`min([x, y])` (or max, a list or tuple of two written out) as one
        comparison in place (runtime._min2, _max2): the same value, the same
        error, the two items charged as the aggregate charges them. Else None."""
        arg = node.args[0]
        if self.tracing or b.name not in ("min", "max") or CORE.get(b.name) is not b \
                or not isinstance(arg, (A.ListX, A.TupleX)) or len(arg.items) != 2:
            return None
        x, y = (self.gen(item, scope, local) for item in arg.items)
        return f"_{b.name}2(ctx, {x}, {y}, {self._site(node)})"

    def _fused_filter(self, cf, scope, local):
        """A comprehension's `for x in f(a, ...)` where f is a filter of the
        position (`[y for y in C if T]`, Func.filter) and each argument a
        name or a constant: (C, f's scope, f's locals, y, T), so that the
        loop runs over C and tests T of each item before its own tests, and
        makes no list of f's between (a bundled tile game's `safe` over
        `posted`: 4-7% of a search's positions). The same items in the same
        order; f's memo is not asked, and the work charged is C's, once.
        Only in a definition that gives f each of its own parameters and
        calls f once (else f's memo answers the other calls: _asked_with,
        _calls_of), and not where f's own code lists a player's pieces
        from his mask (_by_owner); not while tracing: a replay calls f, and
        places an error in its text. Else None."""
        node = cf.iter
        if self.tracing or not self.inline or len(cf.target) != 1:
            return None
        f = self._filter_called(node, scope, local)
        if f is None or self._by_owner(f.filter) or self._root is None or self._calls_of(f.name) != 1 \
                or not self._asked_with(node, local):
            return None
        sub = self._arguments_of(f, node, scope, local)
        self._written_in(f, node, scope, local)
        inner = f.filter.fors[0]
        return inner.iter, frozenset(), sub, inner.target[0], inner.conds

    def _filter_called(self, node, scope, local):
        """The definition a call asks, when it is a filter of the position
        (Func.filter) and each argument a name or a constant (as cheap to
        name in each item's test as to compute once); else None."""
        if not (isinstance(node, A.Call) and isinstance(node.func, A.Name) and node.gen is None):
            return None
        name = node.func.id
        f = self.names.funcs.get(name)
        if f is None or f.filter is None or name in scope or name in local or len(node.args) != len(f.params) \
                or not all(self._simple(a, scope, local) for a in node.args):
            return None
        return f

    def _asked_with(self, node, local) -> bool:
        """Is the call made in a definition, with each of its parameters
        among the arguments? Then f is asked as often as the definition
        is, and its memo answers no call that the definition's would not
        (`below(p, c, colour)` over `safe(p, colour)`, for each c, asks it
        again: there f stays a call)."""
        cur = self.current
        if cur is None or cur.kind == EFFECT:
            return False
        given = {a.id for a in node.args if a.__class__ is A.Name}
        return all(p in given and local.get(p) == f"v_{p}" for p in cur.params)

    def _calls_of(self, name) -> int:
        """How often the text being compiled calls the definition: asked
        again elsewhere in it, its memo answers, and a loop in place would
        make its work twice."""
        return sum(1 for n in A.walk(self._root) if n.__class__ is A.Call and n.func.__class__ is A.Name
                   and n.func.id == name)

    def _by_owner(self, tree) -> bool:
        """Does the filter loop over a primitive with a fused form by owner
        (`occupied_spaces`)? Its own code then lists a player's pieces from
        his mask (_owned_filter): cheaper called than tested item by item."""
        it = tree.fors[0].iter
        b = self.names.registry.get(it.id) if isinstance(it, A.Name) else None
        return b is not None and b.kind == BARE and "owner" in dict(b.fused)
