"""The rule behind a choice's options, taken apart for one value: each filter
of a comprehension, each operand with its value, down through the
definitions it calls, and what the primitives that build options say of
why the value is not among them (see explain/__init__.py)."""

from __future__ import annotations

from ..errors import NordError
from ..lang import ast as A
from ..lang.builtins import ordered
from ..lang.compiler import Compiler
from ..lang.parser import parse


def _conjuncts(node) -> list:
    """a and b and c -> [a, b, c]."""
    if isinstance(node, A.BoolOp) and node.op == "and":
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]


def _summands(node) -> list:
    """a + b + c -> [a, b, c]."""
    if isinstance(node, A.BinOp) and node.op == "+":
        return _summands(node.left) + _summands(node.right)
    return [node]


def _collection(v) -> bool:
    return isinstance(v, (tuple, list, frozenset, set)) and not _is_space(v)


def _is_space(v) -> bool:
    return isinstance(v, tuple) and len(v) == 2 and all(type(x) is int for x in v)


def _like(coll, x) -> bool:
    """Does the collection hold things of x's kind (spaces for a space, sets for a set...)?"""
    return any(type(e) is type(x) and (not isinstance(x, tuple) or len(e) == len(x)) for e in coll)




class Explainer:
    """Evaluates sub-expressions of rulebook texts in the current position."""

    def __init__(self, game, vars, scope):
        self.game = game
        self.rules = game.rules
        self.vars = dict(vars)
        self.scope = frozenset(scope) | frozenset(self.vars)
        self.depth = 0
        self.misses = []        # why the value is not of a kind (not in a collection of the board alone)

    def _sub(self, depth=None, misses=None):
        """An explainer for a definition's text (its own names), sharing what this one found."""
        sub = Explainer(self.game, {}, frozenset())
        sub.depth = self.depth if depth is None else depth
        sub.misses = self.misses if misses is None else misses
        return sub

    def _static(self, node) -> bool:
        """Does the node's value depend on the board and the values bound alone, not on the position?"""
        funcs, registry = self.rules.names.funcs, self.rules.registry
        for n in A.walk(node):
            if isinstance(n, A.Name):
                f = funcs.get(n.id)
                builtin = registry.get(n.id) if f is None else None
                if (f is not None and not f.static) or (builtin is not None and not builtin.static):
                    return False
        return True

    def describe(self, x, empty=True) -> str:
        """What a space holds, in words (for why a filter left it out); with
        empty=False nothing for a space that holds nothing."""
        if not _is_space(x) or x not in self.rules.grid.space_set:
            return ""
        name = self.show(x)
        pool = self.game.state.pools.get(x) or {}
        held = [f"{n} {self.rules.show_item(i)}" if n > 1 else self.rules.show_item(i)
                for i, n in sorted(pool.items(), key=lambda kv: self.rules.show_item(kv[0])) if n > 0]
        structure = self.rules.grid.structure_at.get(x)
        parts = ([f"holds {', '.join(held)}"] if held else []) + \
            ([f"is the space of structure {structure}"] if structure is not None else [])
        if not parts and not empty:
            return ""
        return f"{name} " + (" and ".join(parts) if parts else "holds nothing")

    def _tree(self, text, path):
        return parse(text, "expr", locate=self.rules.doc.locator(path))

    def value(self, node, bindings=None):
        comp = Compiler(self.rules.names)
        names = dict(self.vars)
        names.update(bindings or {})
        fn = comp.expr(node, frozenset(names) | self.scope)
        if comp.errors:
            raise comp.errors[0]
        ctx = self.rules.ctx(self.game.state, names)
        return fn(ctx)

    def show(self, v) -> str:
        text = self.rules.show(v)
        return text if len(text) <= 120 else text[:117] + "..."

    def show_all(self, coll) -> str:
        """A collection of options, one shown per option: [Q, S], not the
        pair Q>S that the same two values would be alone."""
        if not isinstance(coll, (tuple, list, frozenset, set)):
            return self.show(coll)
        text = "[" + ", ".join(self.rules.show(x) for x in ordered(coll)) + "]"
        return text if len(text) <= 120 else text[:116] + "...]"

    def src(self, node, text) -> str:
        """The source text of a node (single line) or a short description."""
        lines = text.splitlines() or [""]
        if node.line <= len(lines) and node.end_line <= len(lines):
            if node.line == node.end_line:
                piece = lines[node.line - 1][node.col - 1:node.end_col - 1]
            else:
                piece = " ".join([lines[node.line - 1][node.col - 1:]] + lines[node.line:node.end_line - 1]
                                 + [lines[node.end_line - 1][:node.end_col - 1]])
            piece = " ".join(piece.split())
            if piece:
                return piece
        return type(node).__name__

    # -- why is a condition false --
    def where(self, b: dict, *nodes) -> str:
        """'  (where c = b3)': the values of the local names (a loop's variable,
        a definition's parameter) that the shown expressions use."""
        names = []
        for node in nodes:
            for n in A.walk(node):
                if isinstance(n, A.Name) and n.id in b and n.id not in names:
                    names.append(n.id)
        return f"  (where {', '.join(f'{k} = {self.show(b[k])}' for k in names)})" if names else ""

    def why_false(self, text, path, indent, bindings=None):
        try:
            node = self._tree(text, path)
            return self._false(node, text, bindings or {}, indent)
        except NordError as e:
            return [" " * indent + f"(cannot evaluate: {e.message})"]

    def _false(self, node, text, b, indent):
        pad = " " * indent
        out = []
        if isinstance(node, A.BoolOp) and node.op == "and":
            for part in _conjuncts(node):
                v = self.value(part, b)
                if not v:
                    out.append(f"{pad}{self.src(part, text)}  ->  {self.show(v)}{self.where(b, part)}")
                    out.extend(self._false(part, text, b, indent + 2))
                    break
            return out
        if isinstance(node, A.BinOp):
            left, right = self.value(node.left, b), self.value(node.right, b)
            out = [f"{pad}{self.src(node.left, text)} = {self.show(left)};  "
                   f"{self.src(node.right, text)} = {self.show(right)}{self.where(b, node)}"]
            for side, v in ((node.left, left), (node.right, right)):
                if v == 0 and isinstance(side, A.Call) and isinstance(side.func, A.Name) and \
                        side.func.id in ("len", "count") and len(side.args) == 1:
                    out.extend(self._empty(side.args[0], text, b, indent + 2))
            return out
        if isinstance(node, A.Not):
            return [f"{pad}{self.src(node.operand, text)} is true"]
        if isinstance(node, A.Call) and isinstance(node.func, A.Name):
            f = self.rules.names.funcs.get(node.func.id)
            if f is not None and f.text and not node.gen and self.depth < 6:
                args = {p: self.value(a, b) for p, a in zip(f.params, node.args)}
                out.append(f"{pad}{node.func.id}: {' '.join(f.text.split())}")
                self.depth += 1
                sub = Explainer(self.game, {}, frozenset())
                sub.depth = self.depth
                out.extend(sub.why_false(f.text, f.path, indent + 2, args))
                return out
        return out

    def _empty(self, node, text, b, indent):
        """Why a comprehension (or a definition that is one) has no element."""
        pad = " " * indent
        call = isinstance(node, A.Call) and isinstance(node.func, A.Name) and not node.gen
        name = node.id if isinstance(node, A.Name) else node.func.id if call else None
        f = self.rules.names.funcs.get(name)
        if f is not None and f.text and len(f.params) == (len(node.args) if call else 0):
            # a definition (given its arguments): why its text gives nothing
            args = {p: self.value(a, b) for p, a in zip(f.params, node.args)} if call else {}
            sub = Explainer(self.game, {}, frozenset())
            try:
                tree = sub._tree(f.text, f.path)
            except NordError:
                return []
            return [f"{pad}{self.src(node, text)} is empty: {' '.join(f.text.split())}"] + \
                sub._empty(tree, f.text, args, indent + 2)
        if isinstance(node, A.Comp) and node.fors:
            cf = node.fors[0]
            out = []
            for x in list(self.value(cf.iter, b))[:12]:
                bb = dict(b)
                if len(cf.target) == 1:
                    bb[cf.target[0]] = x
                elif isinstance(x, tuple) and len(x) == len(cf.target):
                    bb.update(zip(cf.target, x))
                for cond in [c for cc in cf.conds for c in _conjuncts(cc)]:
                    v = self.value(cond, bb)
                    if not v:
                        out.append(f"{pad}{cf.target[0]} = {self.show(x)}: {self.src(cond, text)} fails")
                        out.extend(self._false(cond, text, bb, indent + 4))
                        break
                else:
                    out.append(f"{pad}{cf.target[0]} = {self.show(x)}: passes the first filters")
            return out
        return []

    # -- why is a value not in a collection --
    def why_not_in(self, text, path, value, indent, bindings=None):
        try:
            node = self._tree(text, path)
            return self._not_in(node, text, value, bindings or {}, indent)
        except NordError as e:
            return [" " * indent + f"(cannot evaluate: {e.message})"]

    def _not_in(self, node, text, value, b, indent):
        pad = " " * indent
        if self._static(node):
            coll = self.value(node, b)
            if _collection(coll) and value not in coll:
                self.misses.append(f"{self.show(value)} is not among {self.src(node, text)}")
        if isinstance(node, A.BinOp) and node.op == "+":
            return self._parts(node, text, value, b, indent)
        if isinstance(node, A.LetIn):
            b = dict(b)
            out = []
            for name, expr in node.bindings:
                b[name] = self.value(expr, b)
                out.append(f"{pad}{name} = {self.show(b[name])}")
            return out + self._not_in(node.body, text, value, b, indent)
        if isinstance(node, A.IfElse):
            c = self.value(node.cond, b)
            branch = node.then if c else node.orelse
            return [f"{pad}{self.src(node.cond, text)} is {self.show(bool(c))}"] + \
                self._not_in(branch, text, value, b, indent)
        if isinstance(node, A.Comp):
            return self._comp(node, text, value, b, indent)
        f = self.rules.names.funcs.get(node.id) if isinstance(node, A.Name) else None
        if f is not None and f.text and not f.params and self.depth < 6:
            # a definition without parameters: its value (when the position made it), then its text taken apart
            out = [] if f.static else [f"{pad}{node.id} = {self.show_all(self.value(node, b))}"]
            out.append(f"{pad}{node.id}: {' '.join(f.text.split())}")
            return out + self._sub(self.depth + 1).why_not_in(f.text, f.path, value, indent + 2)
        if isinstance(node, A.Call) and isinstance(node.func, A.Name):
            name = node.func.id
            f = self.rules.names.funcs.get(name)
            if f is not None and f.text and self.depth < 6:
                args = {p: self.value(a, b) for p, a in zip(f.params, node.args)}
                shown = ", ".join(f"{p} = {self.show(v)}" for p, v in args.items())
                # its value (when the position made it), then its text taken apart
                out = [] if f.static else [f"{pad}{self.src(node, text)} = {self.show_all(self.value(node, b))}"]
                out.append(f"{pad}{name}({shown}): {' '.join(f.text.split())}")
                out.extend(self._sub(self.depth + 1).why_not_in(f.text, f.path, value, indent + 2, args))
                return out
            builtin = self.rules.registry.get(name)
            if builtin is not None:
                return self._primitive(node, builtin, text, value, b, indent)
        coll = self.value(node, b)
        return [f"{pad}{self.src(node, text)} = {self.show_all(coll)}"]

    def _parts(self, node, text, value, b, indent):
        """In none of the parts of a + b (+ ...): each part taken apart; but
        when some part is of the value's kind, a part that is not (the value
        is missing from a collection that depends on the board alone, such
        as the spaces of another terrain) gets one line saying so."""
        pad = " " * indent
        parts = _summands(node)
        found = []
        for part in parts:
            sub = self._sub(misses=[])
            found.append((part, sub._not_in(part, text, value, b, indent + 2), sub.misses))
        of_its_kind = any(not misses for _, _, misses in found)
        out = [f"{pad}it is in {'neither' if len(parts) == 2 else 'no'} part of {self.src(node, text)}:"]
        for part, lines, misses in found:
            if misses and of_its_kind:
                out.append(f"{pad}- {self.src(part, text)} does not apply: {misses[0]}")
            else:
                out.append(f"{pad}- {self.src(part, text)}")
                out.extend(lines)
        if not of_its_kind:
            self.misses.extend(m for _, _, misses in found for m in misses)
        return out

    def _primitive(self, node, builtin, text, value, b, indent):
        """A primitive's call: its own explanation (if it has one), and for each
        member of the value missing from what it draws from (its first
        argument, a collection of such things), why that member is missing."""
        pad = " " * indent
        args = [self.value(a, b) for a in node.args]
        hook = getattr(builtin.fn, "explain", None)
        if hook is not None:
            ctx = self.rules.ctx(self.game.state)
            out = [f"{pad}{line}" for line in hook(ctx, value, *args)]
            members = ordered(value) if isinstance(value, frozenset) else [value]
            if args and _collection(args[0]):
                for x in [m for m in members if _like(args[0], m) and m not in args[0]][:4]:
                    why = self._not_in(node.args[0], text, x, b, indent + 2)
                    said = self.describe(x, empty=False)
                    said = f" ({said})" if said and not any(said in line for line in why) else ""
                    out.append(f"{pad}{self.show(x)} is not in {self.src(node.args[0], text)}{said}:")
                    out.extend(why)
            return out
        holding = [a for a, v in zip(node.args, args) if _collection(v) and _like(v, value) and value in v]
        if holding:
            # the primitive filtered it out of an argument that holds it
            said = self.describe(value)
            return [f"{pad}{self.src(node, text)} leaves {self.show(value)} out, which is in "
                    f"{self.src(holding[0], text)} ({builtin.name}: {builtin.doc})" + (f": {said}" if said else "")]
        if args and _collection(args[0]) and _like(args[0], value):
            return self._not_in(node.args[0], text, value, b, indent)
        return [f"{pad}{self.src(node, text)} = {self.show_all(self.value(node, b))}"]

    def _comp(self, node, text, value, b, indent):
        """A comprehension: bind the value to its element pattern, test each filter."""
        pad = " " * indent
        elt = node.elt
        names = [elt.id] if isinstance(elt, A.Name) else \
            [x.id for x in elt.items] if isinstance(elt, A.TupleX) and all(isinstance(x, A.Name) for x in
                                                                         elt.items) else None
        if names is None:
            return [f"{pad}{self.src(node, text)} does not produce it"]
        vals = [value] if len(names) == 1 else list(value) if isinstance(value, tuple) else None
        if vals is None or len(vals) != len(names):
            return [f"{pad}it is not of the form {self.src(elt, text)}"]
        b = dict(b)
        b.update(zip(names, vals))
        out = []
        for cf in node.fors:
            coll = self.value(cf.iter, b)
            target = cf.target
            if len(target) == 1 and target[0] in b and b[target[0]] not in coll:
                if self._static(cf.iter):
                    self.misses.append(f"{self.show(b[target[0]])} is not among {self.src(cf.iter, text)}")
                out.append(f"{pad}{self.show(b[target[0]])} is not in {self.src(cf.iter, text)} = "
                           f"{self.show_all(coll)}")
                return out
            for cond in cf.conds:
                v = self.value(cond, b)
                out.append(f"{pad}{self.src(cond, text)}  ->  {self.show(v)}")
                if not v:
                    if self._static(cond):
                        self.misses.append(f"{self.src(cond, text)} is false for it")
                    out.extend(self._false(cond, text, b, indent + 2))
                    return out
        out.append(f"{pad}(every filter holds; the option is missing for another reason)")
        return out

