"""Static facts of values: what the compiler knows a value is from the
primitive that made it, so that generated code need not test it again.

A value is CELL (a grid's cell: what `cell`, `filled_cells`, `bordering_cells` and a cell's
`neighbors` give, always a 4-tuple whose first part names a grid zone, its
row and column within the grid); a collection is ("each", CELL) when each
of its values is one; `first` of such a collection is MAYBE_CELL (a cell or none).
Nothing else is said (None). A definition's value is what its text shows
with its parameters unknown (kept per definition). The facts are proofs,
never guesses: code that drops a test on a fact takes the same branch the
test would, so values and errors stay the same.
"""

from __future__ import annotations

from ..errors import NordError
from . import ast as A
from .parser import parse
from .runtime import _COUNTER

CELL = "cell"
MAYBE_CELL = "cell or none"     # first() of a collection of cells: a cell, or none when it is empty
# primitives whose value, of any argument, is a fact (or that fail)
_MAKES = {"cell": CELL}
# primitives whose value is a collection of a fact's values, of any argument
_MAKE_EACH = {"filled_cells": CELL, "bordering_cells": CELL}
# primitives whose value holds the items of their (one) argument
_KEEPS = {"set", "list", "sorted"}
# the parts of a cell that row, column and grid_of give: the case their templates test first
# (Builtin.inline), with this test (a template written otherwise is left as it is)
CELL_PARTS = {"row": "[2]", "column": "[3]", "grid_of": "[:2]"}
_IS_CELL = ("{0}.__class__ is tuple and len({0}) == 4 and {0}[0].__class__ is str "
            "and {0}[0] in ctx.rules.grid_zones")
_TEMPLATE = "{{0}}{} if " + _IS_CELL.replace("{0}", "{{0}}") + " else {{fn}}(ctx, {{0}})"
_BUSY = object()
# total, amount and items read in place (ValueFacts._zone_form): (of a pool, of an empty cell),
# else the primitive
_ZONE_FORMS = {
    "total": ("sum(ctx.state.pools[{0}].values())", "0"),
    "amount": ("ctx.state.pools[{0}].get({1}, 0)", "0"),
    "items": ("{fn}(ctx, {0})", "()"),
}


class ValueFacts:
    """(A mixin of the Compiler's Expressions: it gives names, _argument and
    _primitive; _facts maps a local's code to the fact of its value.)"""

    def fact(self, node, scope, local):
        """CELL, ("each", CELL) or None: what the value of node is known to be."""
        node, scope, local = self._argument(node, scope, local)
        if isinstance(node, A.Name):
            if node.id in local:
                return self._facts.get(local[node.id])
            if node.id in scope:
                return None
            f = self.names.funcs.get(node.id)
            return self._returned(f) if f is not None and not f.params else None
        if isinstance(node, A.Call):
            return self._call_fact(node, scope, local)
        if isinstance(node, A.Comp):
            if node.kind not in ("list", "set"):
                return None
            inner = dict(local)
            for cf in node.fors:
                each = self.fact(cf.iter, scope, inner)
                for t in cf.target:
                    inner[t] = code = f"_fact{len(self._facts)}"
                    self._facts[code] = each[1] if len(cf.target) == 1 and _is_each(each) else None
            elt = self.fact(node.elt, scope, inner)
            return ("each", elt) if elt is not None else None
        if isinstance(node, (A.ListX, A.TupleX)):
            fs = {self.fact(x, scope, local) for x in node.items}
            return ("each", fs.pop()) if len(fs) == 1 and None not in fs else None
        if isinstance(node, A.BinOp) and node.op == "+":
            f = self.fact(node.left, scope, local)
            return f if _is_each(f) and f == self.fact(node.right, scope, local) else None
        if isinstance(node, A.IfElse):
            f = self.fact(node.then, scope, local)
            return f if f is not None and f == self.fact(node.orelse, scope, local) else None
        if isinstance(node, A.LetIn):
            inner = dict(local)
            for name, value in node.bindings:
                f = self.fact(value, scope, inner)
                inner[name] = code = f"_fact{len(self._facts)}"
                self._facts[code] = f
            return self.fact(node.body, scope, inner)
        return None

    def _call_fact(self, node, scope, local):
        if not isinstance(node.func, A.Name) or node.gen is not None:
            return None
        name = node.func.id
        if name in local or name in scope or name in self.names.constructors:
            return None
        f = self.names.funcs.get(name)
        if f is not None:
            return self._returned(f) if len(node.args) == len(f.params) else None
        if self._primitive(node, scope, local) is None:
            return None
        if name in _MAKES:
            return _MAKES[name]
        if name in _MAKE_EACH:
            return ("each", _MAKE_EACH[name])
        if name == "first" and len(node.args) == 1 and self.fact(node.args[0], scope, local) == ("each", CELL):
            return MAYBE_CELL
        if name == "neighbors" and len(node.args) == 1 and self.fact(node.args[0], scope, local) == CELL:
            return ("each", CELL)          # (a cell's neighbours are cells of its grid)
        if name in _KEEPS and len(node.args) == 1:
            f = self.fact(node.args[0], scope, local)
            return f if _is_each(f) else None
        return None

    def _returned(self, f):
        """What a definition's text shows its value is, its parameters unknown (kept per definition)."""
        known = self._returns_of.get(id(f))
        if known is not None:
            return None if known is _BUSY else known[1]
        if f.kind != "expr" or not isinstance(f.text, str):
            return None
        self._returns_of[id(f)] = _BUSY      # (a circle is reported when the rulebook is checked)
        params = {}             # (a parameter hides a definition of its name)
        for p in f.params:
            params[p] = code = f"_fact{len(self._facts)}"
            self._facts[code] = None
        try:
            fact = self.fact(parse(f.text, "expr"), frozenset(), params)
        except (NordError, RecursionError):
            fact = None
        self._returns_of[id(f)] = (f, fact)
        return fact

    def _cell_part(self, b, node, scope, local):
        """row(c), column(c) or grid_of(c) of a value known to be a cell, as
        the part of the tuple its template takes first; of a definition's
        parameter, the same test as the template's made once per call
        (see checked_params); else None. Only of a name, as the template
        (an argument computed is called for, as the template calls it).
        A cell near a cell: _cell_near."""
        if b.name == "cell":
            return self._cell_near(b, node, scope, local)
        part = CELL_PARTS.get(b.name)
        if part is None or self.tracing or len(node.args) != 1 or not isinstance(node.args[0], A.Name) \
                or self._primitive(node, scope, local) != b.name or b.inline != _TEMPLATE.format(part):
            return None
        arg = node.args[0]
        fact = self.fact(arg, scope, local)
        if fact == CELL:
            return f"({self.gen(arg, scope, local)}{part})"
        if fact == MAYBE_CELL:      # (none: the primitive, for its error)
            src = self.gen(arg, scope, local)
            return f"({src}{part} if {src} is not None else {self.bind(b.fn, 'b')}(ctx, {src}))"
        code = self._param_code(arg, scope, local)
        if code is None:
            return None
        self._checked.add(code)
        src = self.gen(node.args[0], scope, local)
        return f"({src}{part} if _cell_{code} else {self.bind(b.fn, 'b')}(ctx, {src}))"

    def _cell_near(self, b, node, scope, local):
        """cell(grid_of(c), row(c) + i, column(c) + j) of a value c known to
        be a cell, i and j whole numbers the text shows (none: 0), as the
        tuple made in place, the grid's bounds tested only where an offset
        moves off c's own row or column (within them); out of them, the
        primitive (its error). A cell beside a cell costs no call. The row
        or the column may be a whole number the text shows (not below 0:
        the cell of c's column in a given row, `cell(grid_of(c), 1,
        column(c))`), tested against the grid's bounds. Else None."""
        if self.tracing or b.name != "cell" or len(node.args) != 3 or self._primitive(node, scope, local) != "cell":
            return None
        parts = [self._cell_offset(a, scope, local, name) or self._whole_at(a, scope, local)
                 for a, name in zip(node.args, ("grid_of", "row", "column"))]
        if None in parts or len({code for code, _ in parts} - {None}) != 1 or parts[0][0] is None \
                or parts[0][1] != 0:
            return None
        c = parts[0][0]
        coords, tests = [], []
        for (code, d), i in zip(parts[1:], (2, 3)):
            if code is None:        # (a fixed row or column: within the grid's bounds, or the primitive)
                coords.append(f"({d})")
                tests.append(f"{d} < ctx.rules.grid_zones[{c}[0]][{i - 2}]")
                continue
            at = f"{c}[{i}]" if d == 0 else f"{c}[{i}] {'+' if d > 0 else '-'} {abs(d)}"
            coords.append(at)
            if d < 0:
                tests.append(f"{at} >= 0")
            elif d > 0:
                tests.append(f"{at} < ctx.rules.grid_zones[{c}[0]][{i - 2}]")
        made = f"({c}[0], {c}[1], {coords[0]}, {coords[1]})"
        if not tests:
            return f"({made})"
        return f"({made} if {' and '.join(tests)} else {self.bind(b.fn, 'b')}(ctx, {c}[:2], {coords[0]}, {coords[1]}))"

    def _whole_at(self, node, scope, local):
        """(None, n) when node is a whole number n >= 0 the text shows (a
        literal or a constant); else None."""
        known, v = self._scalar(node, scope, local)
        return (None, v) if known and v.__class__ is int and v >= 0 else None

    def _cell_offset(self, node, scope, local, part):
        """(code of c, d) when node is part(c) + d (or - d, or part(c)) of a
        local c known to be a cell and a whole number d the text shows; else None."""
        node, scope, local = self._argument(node, scope, local)
        d = 0
        if isinstance(node, A.BinOp) and node.op in ("+", "-"):
            right, rs, rl = self._argument(node.right, scope, local)
            sign = -1 if node.op == "-" else 1
            if isinstance(right, A.Neg):
                right, sign = right.operand, -sign
            known, v = self._scalar(right, rs, rl)
            if not known or v.__class__ is not int:
                return None
            d = sign * v
            node, scope, local = self._argument(node.left, scope, local)
        if not (isinstance(node, A.Call) and isinstance(node.func, A.Name) and node.gen is None
                and len(node.args) == 1 and self._primitive(node, scope, local) == part):
            return None
        arg, at_scope, at = self._argument(node.args[0], scope, local)
        if not isinstance(arg, A.Name) or arg.id not in at or self.fact(arg, at_scope, at) != CELL:
            return None
        return at[arg.id], d

    def _zone_form(self, b, node, scope, local):
        """total, amount or items of a zone given by a name, read in place:
        of a cell the text knows a loop binds, its pool or nothing (an empty
        cell is no pool, and holds nothing: what the primitives say of it);
        amount of any other zone its pool, else the primitive. (Of a
        definition's parameter tested once to be a cell, as row and column
        are, it cost more than it saved: 74.72 against 73.57 M instructions
        a random 4-player game of the bundled tile game.) The same values and errors: an item not computed when the
        cell is empty is one that cannot fail (see _certain). Else None."""
        if self.tracing or b.name not in _ZONE_FORMS or self._primitive(node, scope, local) != b.name \
                or len(node.args) != (2 if b.name == "amount" else 1):
            return None
        zone = node.args[0]
        if not isinstance(zone, A.Name) and b.name == "amount" and not self._iterable \
                and self.fact(zone, scope, local) == CELL and self._certain(node.args[1], scope, local):
            # (a cell made in place, `cell(grid_of(c), 1, column(c))`: its pool looked up once)
            n = next(_COUNTER)
            zone, item = self.gen(zone, scope, local), self.gen(node.args[1], scope, local)
            return f"(_pool{n}.get({item}, 0) if (_pool{n} := ctx.state.pools.get({zone})) is not None else 0)"
        if not isinstance(zone, A.Name) and not (b.name == "amount" and self._made_zone(zone, scope, local)):
            return None
        pool, empty = _ZONE_FORMS[b.name]
        certain = b.name != "amount" or self._certain(node.args[1], scope, local)
        if certain and self.fact(zone, scope, local) == CELL and self._looped_over(zone, scope, local):
            otherwise = empty
        elif b.name == "amount" and (self._simple(zone, scope, local) or not isinstance(zone, A.Name)):
            otherwise = "{fn}(ctx, {0}, {1})"
        else:
            return None
        args = [self.gen(a, scope, local) for a in node.args]
        form = pool if self._filled_cell(zone, scope, local) else f"{pool} if {{0}} in ctx.state.pools else {otherwise}"
        return "(" + form.format(*args, fn=self.bind(b.fn, "b")) + ")"

    def _filled_cell(self, node, scope, local) -> bool:
        """Is the name a cell a comprehension's loop over filled_cells binds,
        read on the position the loop ran on (not in a thunk made inside it,
        which a primitive may run on another)? Its pool is there: an
        expression changes no pool, and a cell once made keeps its pool
        (State._new_cell)."""
        node, scope, local = self._argument(node, scope, local)
        return isinstance(node, A.Name) and self._filled.get(local.get(node.id), -1) == self._thunks

    def _made_zone(self, node, scope, local) -> bool:
        """A zone built in place by a constructor of the rulebook (`purse(p)`),
        of no argument or one as cheap to compute twice as to keep (it
        cannot fail where the one computation would not)."""
        if not (isinstance(node, A.Call) and isinstance(node.func, A.Name) and node.gen is None
                and len(node.args) <= 1):
            return False
        name = node.func.id
        cons = self.names.constructors.get(name)
        return (cons is not None and name not in local and name not in scope and name not in self.names.funcs
                and name not in self.names.constants and self.names.registry.get(name) is None
                and cons[0] <= len(node.args) <= cons[1] and all(self._simple(a, scope, local) for a in node.args))

    def _param_code(self, node, scope, local):
        """The code of the definition's parameter the name stands for, when
        its cell test may be made once (see checked_params); else None."""
        node, _, at = self._argument(node, scope, local)
        code = at.get(node.id) if isinstance(node, A.Name) else None
        return code if code in self._checkable else None

    def _looped_over(self, node, scope, local) -> bool:
        """Is the name bound by a loop? (A loop over a grid's cells, most of
        them empty, reads each in place; a cell a let names is read by the
        primitive when empty, as before.)"""
        node, scope, local = self._argument(node, scope, local)
        return isinstance(node, A.Name) and local.get(node.id) in self._looped

    def _certain(self, node, scope, local) -> bool:
        """A value that cannot fail: a constant, a local (it has a value),
        an item or zone made of such (a pair built in place)."""
        node, scope, local = self._argument(node, scope, local)
        if isinstance(node, A.Const):
            return True
        if isinstance(node, A.Name):
            return node.id in local or (node.id not in scope and node.id in self.names.constants)
        if isinstance(node, A.Call) and isinstance(node.func, A.Name) and node.gen is None:
            name = node.func.id
            cons = self.names.constructors.get(name)
            return (cons is not None and name not in local and name not in scope and name not in self.names.funcs
                    and name not in self.names.constants and self.names.registry.get(name) is None
                    and cons[0] <= len(node.args) <= cons[1]
                    and all(self._certain(a, scope, local) for a in node.args))
        return False

    def checked_params(self, body: str) -> str:
        """A definition's body (`return ...`) with the test that a parameter
        is a cell made once, first, where its text asks it more than once
        (else written in place). The test cannot fail, and the value it
        tests does not change."""
        for code in sorted(self._checked):
            flag = f"_cell_{code}"
            test = _IS_CELL.format(code)
            if body.count(flag) > 1:
                body = f"{flag} = {test}\n{body}"
            else:
                body = body.replace(flag, f"({test})")
        self._checked.clear()
        return body


def _is_each(f) -> bool:
    return f.__class__ is tuple and f[0] == "each"
