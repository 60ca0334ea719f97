"""Code generation for expressions: each node becomes Python source."""

from __future__ import annotations

from ..errors import did_you_mean
from . import ast as A
from .bindings import Bindings
from .builtins import AGG, ARG_AGGREGATES, BARE, CORE, EFFECT, LAZY
from .checks import ORIGINAL, _arity_words
from .facts import _NUMBERS_ONLY, NodeFacts
from .lookups import Lookups
from .memo import Func
from .reads import elements_of
from .runtime import _COUNTER, FLOW_READ
from .shortcuts import _TUPLES, Shortcuts
from .trace import _show
from .values import ValueFacts

_SHORT_CIRCUIT = {"any", "all"}   # aggregates that may stop early over a generator
# the core aggregates of a generator (any, all) or a list made (sum, count) as Python's own, with no call
# of the primitive (builtins.py: of these it does just this)
# core primitives that are Python's own function of their one argument (builtins.py), called as it
_PYTHONS = {"len": "_len_of", "abs": "_abs_of"}
_DIRECT = {"any": "_any_of({})", "all": "_all_of({})", "sum": "_sum_of({})",
           "count": "_sum_of(_map(_is_not, {}, _falses))"}
_OPS = {"+", "-", "*", "/", "//", "%", "==", "!=", "<", "<=", ">", ">=", "in", "not in"}
# operators whose work grows with their operands' size: the helper that charges it to the budget
_SIZED_OPS = {"+": "_plus", "-": "_minus", "in": "_in", "not in": "_not_in", "==": "_eq", "!=": "_ne"}
# the syntax of values that are no number (for * and %)
_NOT_A_NUMBER = {A.ListX: "a list", A.TupleX: "a tuple", A.Comp: "a collection"}


class Expressions(Bindings, Shortcuts, Lookups, NodeFacts, ValueFacts):
    """The compiler's expressions (a mixin of Compiler): each method returns Python source."""

    # -- expressions: each returns Python source --
    def gen(self, node, scope, local) -> str:
        kept = self._kept(node, scope, local) if self._loops else None    # (bindings.py)
        if kept is not None:
            return kept
        m = getattr(self, "_" + type(node).__name__)
        src = m(node, scope, local)
        if self.tracing and not isinstance(node, A.Const) and not (isinstance(node, A.Name) and node.id in local):
            return f"_t({self._spot(node)}, lambda: {src})"
        return src

    def _spot(self, node) -> str:
        """(position, width, text) of a node's text, for a replay to name."""
        return self._site(node, "t")

    def _Const(self, node, scope, local):
        v = node.value
        if v is None or isinstance(v, (bool, int, float)):
            return repr(v)
        return self.bind(v)

    def _Name(self, node, scope, local):
        name = node.id
        if name in local:
            return local[name]
        if name in scope:       # (a flow variable: looked up in place, the call only for its error)
            return FLOW_READ.format(repr(name))
        if name in self.names.constants:
            self.names.used.add(name)
            return self.bind(self.names.constants[name])
        f = self.names.funcs.get(name)
        if f is not None:
            if f.params:
                return self.error(node, f"{name!r} needs {len(f.params)} argument(s): {name}({', '.join(f.params)})")
            if f.kind == EFFECT:
                return self.error(node, f"{name!r} is an effect; it cannot be used as a value")
            self._dep(name, f, ())
            if self.tracing:
                return f"_tc({self._spot(node)}, {self.bind(f, 'f')}, ctx)"
            return f"{self.bind(f, 'f')}.call(ctx)"
        b = self.names.registry.get(name)
        if b is not None and b.kind == BARE:
            self._uses(b, None, scope, local)
            if b.inline is not None:
                return f"({b.inline})"
            return f"{self.bind(b.fn, 'b')}(ctx)"
        if b is not None or name in self.names.constructors:
            return self.error(node, f"{name!r} is a function; call it with arguments: {name}(...)")
        if name in self.names.colors:
            return self.error(node, f"unknown name {name!r}",
                              hint=f"{name!r} is a player's colour: in expressions a player is a number in turn "
                                   f"order ({name} is {self.names.colors.index(name)})")
        if name.lower() in ("true", "false", "none"):     # Python's True, False, None
            return self.error(node, f"unknown name {name!r}",
                              hint=f"did you mean {name.lower()!r}? true, false and none are written in lower case")
        return self.error(node, f"unknown name {name!r}",
                          hint=did_you_mean(name, self.names.all_names() | scope | set(local)))

    def _TupleX(self, node, scope, local):
        items = [self.gen(x, scope, local) for x in node.items]
        return "(" + "".join(f"{i}, " for i in items) + ")"

    _ListX = _TupleX

    def _comp(self, comp: A.Comp, scope, local, elt_gen, site):
        """(item, clauses, its _Loop: the caller writes it with _loop_ends) of a
        comprehension; each `for` charges its collection's length to the
        budget when it starts (so nested clauses charge the product), the error
        naming `site`, the expression that loops (see budget.py)."""
        loop = self._loop_begins()
        try:
            return self._clauses(comp, scope, local, elt_gen, site) + (loop,)
        finally:
            self._loops.pop()

    def _clauses(self, comp: A.Comp, scope, local, elt_gen, site):
        parts = []
        local = dict(local)
        where = self._site(site)
        for i, cf in enumerate(comp.fors):
            first = self._loops[-1] if i == 0 else None      # (the first collection may be made apart)
            # (over a filter definition's value: over its collection, its tests first; see _fused_filter)
            fused = self._fused_filter(cf, scope, local)
            it_node, it_scope, it_local = (cf.iter, scope, local) if fused is None else fused[:3]
            it = self._collection(first, it_node, it_scope, it_local)
            # (what the text shows of the zones of its items: reads.py)
            item = elements_of(self._reader(it_scope, it_local).desc(it_node)) if len(cf.target) == 1 else None
            each = self.fact(it_node, it_scope, it_local) if len(cf.target) == 1 else None
            names = []
            for n in cf.target:
                self._check_binding(cf, n)
                local[n] = f"v_{n}_{next(_COUNTER)}"
                names.append(local[n])
                self._descs[local[n]] = item
                self._facts[local[n]] = each[1] if each.__class__ is tuple else None
                self._looped.add(local[n])
            if self.tracing:        # (a value that is no collection fails at its own text)
                it = f"_t({self._spot(cf.iter)}, lambda: _tuple(_ord({it})))"
            if not isinstance(it_node, (A.ListX, A.TupleX)):     # (a literal's length is the text's)
                it = f"{self._each_of(it_node, it_scope, it_local)}(ctx, {it}, {where})"
            it = self._made_apart(first, it)
            made_by = self._primitive(it_node, it_scope, it_local)
            if made_by == "filled_cells" and len(names) == 1:
                self._filled[names[0]] = self._thunks      # (its pool is there: values._filled_cell)
            if made_by == "range" or made_by in _TUPLES and len(names) == _TUPLES[made_by]:
                self._numbers.add(names[0])      # (a number, or an index: see _numeric)
            if len(names) == 1:
                parts.append(f"for {names[0]} in {it}")
            elif not self.tracing and _TUPLES.get(made_by) == len(names):
                parts.append(f"for ({', '.join(names)}) in {it}")      # (each item is such a tuple)
            else:
                parts.append(f"for ({', '.join(names)}) in _unpacked({it}, {len(names)})")
            if fused is not None:               # (the filter's tests, its item the loop's)
                own = dict(it_local, **{fused[3]: names[0]})
                for c in fused[4]:
                    parts.append(f"if {self.test(c, it_scope, own)}")
            for c in cf.conds:
                parts.append(f"if {self.test(c, scope, local)}")
        return elt_gen(local), " ".join(parts)

    def _Comp(self, node, scope, local):
        elt, clauses, loop = self._comp(node, scope, local, lambda loc: self.gen(node.elt, scope, loc), node)
        fused = self._owned_filter(node, scope, local)      # (after the general code: its checks)
        if fused is not None:
            return fused
        if node.kind == "set":
            return self._loop_ends(loop, f"_frozenset([{elt} {clauses}])")
        if node is self._as_list:           # (a list only its caller sees: see _first_of_list)
            return self._loop_ends(loop, f"[{elt} {clauses}]")
        return self._loop_ends(loop, f"_tuple([{elt} {clauses}])")

    def _Call(self, node, scope, local):
        if not isinstance(node.func, A.Name):
            return self.error(node, "only named functions can be called")
        name = node.func.id
        nargs = len(node.args)
        if name in scope or name in local:
            hidden = self.hidden_by_choice(node, name)
            return hidden if hidden is not None else self.error(node, f"{name!r} is a variable, not a function")
        b = self.names.registry.get(name)
        f = self.names.funcs.get(name)
        cons = self.names.constructors.get(name)
        if name == ORIGINAL and b is None and f is None and cons is None and name not in self.names.constants:
            f = self._original(node, EFFECT)
            if f is None:
                return "None"
            return self._call_func(node, f, scope, local)
        if f is not None:
            if f.kind == EFFECT:
                return self.error(node, f"{name!r} is an effect; use it as a statement, not inside an expression")
            return self._call_func(node, f, scope, local)
        if cons is not None:
            lo, hi = cons
            if node.gen is not None or not lo <= nargs <= hi:
                return self.error(node, f"{name}() takes {_arity_words(lo, hi)}, got {nargs}")
            kind = self.names.constructor_args.get(name)
            if kind and node.args:
                self._check_arg(node.args[0], kind, name, 0, scope, local)
            # an item or a player's zone is the pair (name, tag): built in place, no call
            if not node.args:
                return self.bind((name, None), "c")
            return f"({name!r}, {self.gen(node.args[0], scope, local)})"
        if b is None:
            return self.error(node.func, f"unknown function {name!r}",
                              hint=did_you_mean(name, self.names.all_names()))
        if b.kind == EFFECT:
            return self.error(node, f"{name!r} is an effect; use it as a statement, not inside an expression")
        if b.kind == BARE:
            return self.error(node, f"{name!r} is a value, not a function: write {name} without parentheses")
        self._uses(b, node, scope, local)
        fn = self.bind(b.fn, "b")
        lo, hi = b.arity
        if b.kind == LAZY:
            if node.gen is not None or not lo <= nargs <= hi:
                return self.error(node, f"{name}() takes {_arity_words(lo, hi)}, got {nargs}")
            with self._no_keeping():        # (a lambda's := binds in the lambda)
                self._thunks += 1           # (run on another position, perhaps: values._filled_cell)
                try:
                    thunks = ", ".join(f"(lambda ctx: {self.gen(a, scope, local)})" for a in node.args)
                finally:
                    self._thunks -= 1
            return f"{fn}(ctx, {thunks})"
        if b.kind == AGG:
            if node.gen is not None:
                comp = node.gen
                if name in ARG_AGGREGATES:
                    if len(comp.fors) != 1 or len(comp.fors[0].target) != 1:
                        return self.error(node, f"{name}(value for x in collection) binds exactly one name")
                    var = comp.fors[0].target[0]
                    elt, clauses, loop = self._comp(comp, scope, local,
                                                    lambda loc: f"({loc[var]}, {self.gen(comp.elt, scope, loc)})", node)
                else:
                    # (any and all only test each value: it need not be made true or false)
                    gen = self.test if name in _SHORT_CIRCUIT else self.gen
                    elt, clauses, loop = self._comp(comp, scope, local, lambda loc: gen(comp.elt, scope, loc), node)
                direct = _DIRECT.get(name) if CORE.get(name) is b and not self.tracing else None
                by_kind = self._amount_of_kind(b, node, scope, local)     # (after the general code: its checks)
                if by_kind is not None:
                    return by_kind
                if name in _SHORT_CIRCUIT:      # a generator: stops at the first answer
                    src = direct.format(f"({elt} {clauses})") if direct else f"{fn}(ctx, ({elt} {clauses}))"
                else:
                    src = direct.format(f"[{elt} {clauses}]") if direct else f"{fn}(ctx, [{elt} {clauses}])"
                return self._loop_ends(loop, src)
            if nargs == 1:
                if name in ARG_AGGREGATES:
                    return self.error(node, f"{name} needs a generator: {name}(value for x in collection)")
                pair = self._extreme_of_two(b, node, scope, local)
                if pair is not None:
                    return pair
                # (a collection's items are charged to the budget, as a generator's are)
                each = self._each_of(node.args[0], scope, local)
                return f"{fn}(ctx, {each}(ctx, {self.gen(node.args[0], scope, local)}, {self._site(node)}))"
            return self.error(node, f"{name}() takes one collection or a generator, got {nargs} arguments")
        if node.gen is not None:
            return self.error(node, f"{name}() does not take a generator; only aggregates do")
        if nargs < lo or (hi is not None and nargs > hi):
            return self.error(node, f"{name}() takes {_arity_words(lo, hi)}, got {nargs}",
                              hint=b.example and f"for example: {b.example}")
        self._check_literals(name, node, b, scope, local)
        part = self._cell_part(b, node, scope, local)
        if part is None:
            part = self._zone_form(b, node, scope, local)
        if part is not None:
            return part
        if b.inline is not None:
            src = self._template(b, node, scope, local)
            if src is not None:
                return src
        first = self._first_of_list(b, node, scope, local)
        if first is not None:
            by_kind = self._first_of_kind(b, node, scope, local)     # (after the general code: its checks)
            return first if by_kind is None else by_kind
        if name in _PYTHONS and CORE.get(name) is b and not self.tracing:
            counted = self._owned_count(node, scope, local) if name == "len" else None
            return counted or f"{_PYTHONS[name]}({self.gen(node.args[0], scope, local)})"
        args = [self.gen(a, scope, local) for a in node.args]
        fused = self._fused(b, node, scope, local)
        if fused is not None:
            fn, args[0] = fused
        return f"{fn}(ctx{''.join(', ' + a for a in args)})"

    def _fused(self, b, node, scope, local):
        """(function, source of its first argument) when the call's first
        argument is a call its primitive has a fused form for (Builtin.fused),
        else None. Not while tracing: a replay places an error at the inner
        call's own text."""
        if not b.fused or self.tracing:
            return None
        inner = node.args[0]
        if not (isinstance(inner, A.Call) and isinstance(inner.func, A.Name) and inner.gen is None
                and len(inner.args) == 1):
            return None
        name = inner.func.id
        if name in scope or name in local or name in self.names.funcs or name in self.names.constructors:
            return None
        fn = dict(b.fused).get(name)
        if fn is None or self.names.registry.get(name) is None:
            return None
        return self.bind(fn, "b"), self.gen(inner.args[0], scope, local)

    def _call_func(self, node, f: Func, scope, local):
        if node.gen is not None or len(node.args) != len(f.params):
            return self.error(node, f"{f.name}() takes {len(f.params)} argument(s) ({', '.join(f.params)}), "
                                    f"got {len(node.args)}")
        self._dep(f.name, f, tuple(self._reader(scope, local).desc(a) for a in node.args))
        if f.tree is not None and self.inline:
            src = self._inline(node, f, scope, local)
            if src is not None:
                return src
        args = "".join(", " + self.gen(a, scope, local) for a in node.args)
        if self.tracing:
            return f"_tc({self._spot(node)}, {self.bind(f, 'f')}, ctx{args})"
        return f"{self.bind(f, 'f')}.call(ctx{args})"

    def _inline(self, node, f: Func, scope, local):
        """A cheap definition's body written in place of the call, its
        parameters replaced by the arguments' code; None when an argument
        would be skipped (an unused parameter) or computed twice (a
        parameter named more than once, given more than a name or constant)."""
        for p, a in zip(f.params, node.args):
            n = f.uses.get(p, 0)
            if n == 0 or (n > 1 and not self._simple(a, scope, local)):
                return None
        with self._no_keeping():        # (the body may name a parameter in a loop's collection)
            sub = {p: f"({self.gen(a, scope, local)})" for p, a in zip(f.params, node.args)}
        for p, a in zip(f.params, node.args):
            self._arguments[sub[p]] = (a, scope, local)
            self._descs[sub[p]] = self._reader(scope, local).desc(a)
        self.inlined = True
        if self.current is not None:
            self.current.inlines.add(f.name)
        return f"({self.gen(f.tree, frozenset(), sub)})"

    def _Index(self, node, scope, local):
        known, table = self._constant(node.obj, scope, local)
        if isinstance(node.obj, (A.ListX, A.TupleX)):       # a list written out: its length is the text's
            known, table = True, node.obj.items
        if isinstance(node.obj, A.Const) and isinstance(node.obj.value, str):
            self.error(node.obj, "a text has no items: it cannot be indexed")
        if isinstance(node.key, A.Neg) and isinstance(node.key.operand, A.Const) \
                and type(node.key.operand.value) in (int, float):
            self.error(node.key, f"index {_show(-node.key.operand.value)} is below 0: items are counted from 0",
                       hint="a negative index does not count from the end; the last item is xs[len(xs) - 1]")
        if known and isinstance(node.key, A.Const):
            k = node.key.value
            if isinstance(table, tuple) and isinstance(k, int) and not 0 <= k < len(table):
                what = node.obj.id if isinstance(node.obj, A.Name) else "the list"
                self.error(node.key, f"index {k} is out of range: {what} has {len(table)} entries "
                                     f"(0..{len(table) - 1})")
            elif isinstance(table, dict) and k not in table:
                self.error(node.key, f"{node.obj.id} has no entry {k!r}", expected=", ".join(map(str, table)),
                           hint=did_you_mean(str(k), map(str, table)))
        obj, key = self.gen(node.obj, scope, local), self.gen(node.key, scope, local)
        pos = self.bind(self.pos(node.key), 'p')
        if known and isinstance(table, dict):
            return self._in_table(obj, key, pos)
        return f"_index({obj}, {key}, {pos})"

    def _Attr(self, node, scope, local):
        known, table = self._constant(node.obj, scope, local)
        if known and isinstance(table, dict) and node.name not in table:
            self.error(node, f"{node.obj.id} has no field {node.name!r}", expected=", ".join(map(str, table)),
                       hint=did_you_mean(node.name, map(str, table)))
        errors = len(self.errors)
        obj = self.gen(node.obj, scope, local)
        if len(self.errors) == errors:
            projected = self._projected(node, scope, local)
            if projected is not None:
                return projected
        return f"_attr({obj}, {node.name!r}, {self.bind(self.pos(node), 'p')})"

    def _BinOp(self, node, scope, local):
        if node.op in ("==", "!="):
            self._check_compare(node, scope, local)
        assert node.op in _OPS
        left, right = self.gen(node.left, scope, local), self.gen(node.right, scope, local)
        folded = self._fold(node, scope, local)
        if folded is not None:
            return folded
        if node.op in _NUMBERS_ONLY:
            # numbers only: Python's * repeats a text or a list, and its % formats a text
            helper, does = _NUMBERS_ONLY[node.op]
            for side in (node.left, node.right):
                what = _NOT_A_NUMBER.get(type(side)) or (type(side) is A.Const and isinstance(side.value, str)
                                                         and "a text")
                if what:
                    return self.error(side, f"{node.op} {does} numbers, not {what}",
                                      hint="nordlang repeats no text or list" if node.op == "*" else
                                      "nordlang formats no text with %")
            if not (self._numeric(node.left, scope, local) and self._numeric(node.right, scope, local)):
                return f"{helper}({left}, {right})"
        if node.op in _SIZED_OPS and not self._small(node, scope, local):
            return f"{_SIZED_OPS[node.op]}(ctx, {left}, {right})"
        if node.op in ("==", "!="):
            return self._none_test(node, left, right, scope, local) or f"({left} {node.op} {right})"
        return f"({left} {node.op} {right})"

    def _Neg(self, node, scope, local):
        return f"(-{self.gen(node.operand, scope, local)})"

    def _Not(self, node, scope, local):
        return f"(not {self.test(node.operand, scope, local)})"

    def test(self, node, scope, local) -> str:
        """Source for a value that is only tested for truth (a condition):
        `and` and `or` there need not make their value true or false."""
        if isinstance(node, A.BoolOp):
            return f"({self.test(node.left, scope, local)} {node.op} {self.test(node.right, scope, local)})"
        return self.gen(node, scope, local)

    def _BoolOp(self, node, scope, local):
        """`and` and `or` give true or false (Python's give an operand: 2 and 5 is 5)."""
        src = self.test(node, scope, local)
        if self._is_truth(node.left, scope, local) and self._is_truth(node.right, scope, local):
            return src
        return f"(not not {src})"

    def _IfElse(self, node, scope, local):
        c = self.test(node.cond, scope, local)
        t, e = (self.gen(x, scope, local) for x in (node.then, node.orelse))
        return f"({t} if {c} else {e})"
