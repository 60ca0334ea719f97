"""Code generation for statements (effects): each returns lines of Python source."""

from __future__ import annotations

from ..errors import did_you_mean
from . import ast as A
from .builtins import EFFECT
from .checks import ORIGINAL, _arity_words
from .runtime import _COUNTER
from .written import Written


class Statements:
    """The compiler's statements (a mixin of Compiler)."""

    def stmts(self, stmts, scope, local, depth) -> list:
        out = []
        local = dict(local)
        for s in stmts:
            out.extend(self.stmt(s, scope, local, depth))
        return out

    def stmt(self, node, scope, local, depth) -> list:
        pad = "    " * (depth - 1)
        if isinstance(node, A.LetStmt):
            self._check_binding(node, node.name)
            src = self.gen(node.value, scope, local)
            fact = self.fact(node.value, scope, local)
            seq = self._is_seq(node.value, scope, local)
            local[node.name] = f"v_{node.name}_{next(_COUNTER)}"
            self._facts[local[node.name]] = fact
            if seq:
                self._seqs.add(local[node.name])
            return [f"{pad}{local[node.name]} = {src}{self._mark(node.value)}"]
        if isinstance(node, A.ForStmt):
            self._iterable += 1         # (its collection may be a comprehension's: see Bindings._LetIn)
            try:
                it = self.gen(node.iter, scope, local)
            finally:
                self._iterable -= 1
            inner = dict(local)
            names = []
            each = self.fact(node.iter, scope, local) if len(node.target) == 1 else None
            for n in node.target:
                self._check_binding(node, n)
                inner[n] = f"v_{n}_{next(_COUNTER)}"
                names.append(inner[n])
                self._facts[inner[n]] = each[1] if each.__class__ is tuple else None   # (values.py)
                self._looped.add(inner[n])
            body = self.stmts(node.body, scope, inner, depth + 1) or [f"{pad}    pass"]
            it = f"{self._each_of(node.iter, scope, local)}(ctx, {it}, {self._site(node.iter)})"   # (charged)
            if len(names) == 1:
                head = f"{pad}for {names[0]} in _tuple({it}):"
            else:
                head = f"{pad}for ({', '.join(names)}) in _tuple(_unpacked({it}, {len(names)})):"
            return [head + self._mark(node.iter)] + body
        if isinstance(node, A.IfStmt):
            out = []
            for i, (c, b) in enumerate(node.branches):
                kw = "if" if i == 0 else "elif"
                out.append(f"{pad}{kw} {self.test(c, scope, local)}:{self._mark(c)}")
                out.extend(self.stmts(b, scope, local, depth + 1) or [f"{pad}    pass"])
            if node.orelse is not None:
                out.append(f"{pad}else:")
                out.extend(self.stmts(node.orelse, scope, local, depth + 1) or [f"{pad}    pass"])
            return out
        if isinstance(node, A.CallStmt):
            return [pad + line for line in self._call_stmt(node, scope, local)]
        self.error(node, "not a statement")  # pragma: no cover
        return []

    def _mark(self, node) -> str:
        """A comment giving a generated line the position of the text it runs
        (read back only when that line fails: see _fail)."""
        return f"  # at {self.bind(self.pos(node), 'p')}"

    def _call_stmt(self, node, scope, local) -> list:
        name = node.name
        f = self.names.funcs.get(name)
        b = self.names.registry.get(name)
        posname = self.bind(self.pos(node), "p")
        if name == ORIGINAL and b is None and f is None and name not in self.names.constructors \
                and name not in self.names.constants:
            f = self._original(node, "expr")
            if f is None:
                return []
        if f is not None:
            if f.kind != EFFECT:
                self.error(node, f"{name!r} is a value, not an effect: a statement must do something")
                return []
            if node.gen is not None or len(node.args) != len(f.params):
                self.error(node, f"{f.name}() takes {len(f.params)} argument(s) ({', '.join(f.params)}), "
                                 f"got {len(node.args)}")
                return []
            self._dep(name, f)
            args = "".join(", " + self.gen(a, scope, local) for a in node.args)
            call = f"{self.bind(f, 'f')}.call(ctx{args})"
        else:
            if b is None:
                effects = [n for n, x in self.names.registry.items.items() if x.kind == EFFECT] + \
                          [n for n, x in self.names.funcs.items() if x.kind == EFFECT]
                self.error(node, f"unknown effect {name!r}", hint=did_you_mean(name, effects))
                return []
            if b.kind != EFFECT:
                self.error(node, f"{name!r} computes a value; a statement must be an effect")
                return []
            lo, hi = b.arity
            nargs = len(node.args)
            if node.gen is not None or nargs < lo or (hi is not None and nargs > hi):
                self.error(node, f"{name}() takes {_arity_words(lo, hi)}, got {nargs}",
                           hint=b.example and f"for example: {b.example}")
                return []
            self._check_literals(name, node, b, scope, local)
            self.names.primitives.add(name)
            args = "".join(", " + self._shown_arg(name, a, scope, local) for a in node.args)
            call = f"{self.bind(b.fn, 'b')}(ctx{args})"
        # each statement reports its own position when it fails
        return ["try:", f"    {call}", "except Exception as e:",
                f"    raise _stmt_fail(e, {posname}, {self.bind_where(self.where)}) from None"]

    def _shown_arg(self, effect, a, scope, local) -> str:
        """An effect's argument; a list or tuple written out among a note's
        (and those inside it) is the text's own, shown as its parts (written.py)."""
        if effect != "note" or not isinstance(a, (A.ListX, A.TupleX)):
            return self.gen(a, scope, local)
        items = "".join(self._shown_arg(effect, x, scope, local) + ", " for x in a.items)
        return f"{self.bind(Written, 'W')}(({items}))"
