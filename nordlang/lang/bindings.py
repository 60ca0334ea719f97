"""Locals the generated code binds: a `let`'s names, and the values a
comprehension keeps across its items (hoisting).

A part of a comprehension's test or item that names none of the names the
comprehension binds (its loop variables, its lets) has one value for all
its items: `left_edge(t)` in `[c for c in cells(p) if edge(c) in [none,
left_edge(t)]]`, or `wealth(p)` in `[i for i in prices if i <= wealth(p)]`.
It is worked out where it was, at its first use, and kept for the
comprehension's other items: `(_hN if _hN is not _unset else (_hN :=
...))`, `_hN` set to `_unset` as the comprehension starts. Kept, not worked
out before the loop: a value the text never asks for (no items, a test that
stops early) is never made, so no error comes where none came.
"""

from __future__ import annotations

import re
from contextlib import contextmanager

from . import ast as A
from .builtins import EFFECT, EXPR
from .runtime import _COUNTER

# the numbers of the generated locals a local's code names (v_<name>_<n>: expressions._comp)
_LOCAL_NUMBERS = re.compile(r"\bv_\w*?_(\d+)\b")


class _Loop:
    """A comprehension being made: the first number of its own locals, the
    values it keeps, and (name, code) of its first collection when that is
    made apart (its code binds with :=, which Python allows in no loop's
    collection): bound to the name just before the loop, which loops over
    the name. The same order of work: a comprehension makes its first
    collection before anything else."""

    __slots__ = ("start", "kept", "first")

    def __init__(self):
        self.start = next(_COUNTER)
        self.kept: list = []
        self.first = None


class Bindings:
    """The compiler's locals (a mixin of Compiler)."""

    def _loop_begins(self):
        """A comprehension starts (before its clauses are made): the _Loop
        whose values its parts keep, or None where Python binds no name in it
        (a loop's collection, a replay's thunks)."""
        loop = None if self._iterable or self.tracing else _Loop()
        self._loops.append(loop)
        return loop

    def _collection(self, first, node, scope, local) -> str:
        """The code of a comprehension's collection: its first (`first`: its
        _Loop) as any code, keeping none of the loop's values; a later one
        where Python allows no := (Bindings._LetIn)."""
        if first is not None:
            with self._no_keeping():
                return self.gen(node, scope, local)
        self._iterable += 1
        try:
            return self.gen(node, scope, local)
        finally:
            self._iterable -= 1

    def _made_apart(self, first, it: str) -> str:
        """A first collection's code `it` (charged), made apart when it binds
        with := (see _Loop): then the name the loop takes it from."""
        if first is None or ":=" not in it:
            return it
        first.first = (f"_it{next(_COUNTER)}", it)
        return first.first[0]

    def _loop_ends(self, loop, src: str) -> str:
        """The comprehension's code `src`, its first collection made first when
        made apart, its kept values set unknown before that."""
        if loop is None:
            return src
        if loop.first is not None:
            name, code = loop.first
            src = f"({src} if ({name} := {code}) is {name} else None)"
        if not loop.kept:
            return src
        unset = "_unset"
        for name in loop.kept:
            unset = f"({name} := {unset})"
        return f"({src} if {unset} is _unset else None)"

    @contextmanager
    def _no_keeping(self):
        """Code made here keeps nothing for the comprehension around it."""
        self._loops.append(None)
        try:
            yield
        finally:
            self._loops.pop()

    def _kept(self, node, scope, local):
        """Code that keeps the value of `node` for the innermost comprehension's
        items when it is the same for all of them (see the module's text), else None."""
        loops = self._loops
        if not loops or self._iterable or self.tracing:
            return None
        loop = loops[-1]
        if loop is None or not self._worth_keeping(node, scope, local) or not self._same_for_all(node, local, loop):
            return None
        with self._no_keeping():      # (its own parts are made once with it: none kept apart)
            src = self.gen(node, scope, local)
        name = f"_h{next(_COUNTER)}"
        loop.kept.append(name)
        return f"({name} if {name} is not _unset else ({name} := {src}))"

    def _worth_keeping(self, node, scope, local) -> bool:
        """A lookup, or a call of a definition, that charges nothing to the
        decision's budget (budget.py) but a definition's own work: keeping it
        costs less than making it again, and a loop whose items each made it
        still runs out of budget as it did (a kept definition's value is as a
        memoised one's: made once, charged once)."""
        if isinstance(node, A.Call):
            if not isinstance(node.func, A.Name) or node.func.id in scope or node.func.id in local:
                return False
            f = self.names.funcs.get(node.func.id)
            if f is None or f.kind == EFFECT:
                return False
        elif not isinstance(node, (A.Index, A.Attr)):
            return False
        for n in A.walk(node):
            if isinstance(n, A.Comp):       # (a loop charges its items)
                return False
            if isinstance(n, A.Call) and isinstance(n.func, A.Name) and n.func.id not in self.names.funcs \
                    and n.func.id not in self.names.constructors:
                b = self.names.registry.get(n.func.id)      # (a primitive written in place charges nothing)
                if b is None or b.kind != EXPR or b.inline is None:
                    return False
        return True

    def _same_for_all(self, node, local, loop) -> bool:
        """Whether node names no local made since the comprehension began
        (every local's code is numbered as it is made)."""
        for n in A.walk(node):
            if isinstance(n, A.Name) and n.id in local:
                if any(int(k) >= loop.start for k in _LOCAL_NUMBERS.findall(local[n.id])):
                    return False
        return True

    def _LetIn(self, node, scope, local):
        local = dict(local)
        binds = []
        for name, value in node.bindings:
            self._check_binding(node, name)
            src = self.gen(value, scope, local)
            known = self._reader(scope, local).desc(value)
            fact = self.fact(value, scope, local)
            seq, number = self._is_seq(value, scope, local), self._numeric(value, scope, local)
            local[name] = f"v_{name}_{next(_COUNTER)}"
            self._descs[local[name]] = known
            self._facts[local[name]] = fact
            if seq:
                self._seqs.add(local[name])
            if number:
                self._numbers.add(local[name])
            binds.append((local[name], src))
        body = self.gen(node.body, scope, local)
        if self.tracing or self._iterable:
            # (a replay wraps each node in a function of its own; Python allows no := in a loop's collection)
            for var, src in reversed(binds):
                body = f"(lambda {var}: {body})({src})"
            return body
        for var, src in reversed(binds):        # (the value, then the body: no call)
            body = f"({body} if ({var} := {src}) is {var} else None)"
        return body
