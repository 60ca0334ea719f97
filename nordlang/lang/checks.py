"""Checks made while compiling: literals against the kinds of value
primitives declare, comparisons that can never be true."""

from __future__ import annotations

from ..errors import did_you_mean
from . import ast as A
from .builtins import BARE, EFFECT

# kinds of value that are no text (the others are names: a text is compared with them)
_NOT_TEXT = {"item", "player"}
_KIND_WORDS = {"item": "an item", "player": "a player", "structure": "a structure", "terrain": "a terrain name",
               "piece kind": "the name of a piece kind", "structure kind": "the name of a structure kind",
               "feature": "the name of a feature", "source": "a source of points", "space name": "a space's name"}
_MIXED_HINTS = {("piece kind", "item"): "kind(...) gives the name of a kind; an item is made by that name, "
                                        "as in coin() or coin(p)",
                ("item", "player"): "the player an item belongs to is owner(...)",
                ("item", "piece kind"): "an item's kind is kind(...)"}


def rebinding(name, registry):
    """(message, hint) when `name` is a built-in value (a bare primitive,
    like player) that a let, a loop, a parameter or a choice would bind,
    else None. A binding of it would be silently ignored by every
    definition called there (definitions read the built-in, whatever a
    caller binds), so it is an error rather than a shadow."""
    b = registry.get(name)
    if b is None or b.kind != BARE:
        return None
    if name == "player":
        why = "definitions read the player to move; give the definition a parameter, e.g. challenge_targets(p)"
    else:
        why = (f"definitions read the built-in {name}, whatever a caller binds; to ask a definition about "
               "another value, give it a parameter")
    return (f"{name!r} is a built-in value ({b.doc}) and cannot be rebound",
            f"{why}, and choose another name here")


ORIGINAL = "original"       # original(...): the definition a variant's definition replaces


def _arity_words(lo, hi):
    if hi is None:
        return f"at least {lo} argument(s)"
    if lo == hi:
        return f"{lo} argument(s)"
    return f"{lo} to {hi} arguments"



class Checks:
    """The compiler's checks of literal kinds (a mixin of Compiler)."""

    def _check_binding(self, node, name) -> None:
        """A let, a loop or a choice must not bind a built-in value (see rebinding)."""
        problem = rebinding(name, self.names.registry)
        if problem:
            self.error(node, problem[0], hint=problem[1])

    def hidden_by_choice(self, node, name):
        """A call of a piece, zone or definition that a choice of the same
        name hides: one error, at the first such call, naming the choice
        ("None" for the others); None when no choice hides it."""
        n = self.names
        what = "kind of piece or zone" if name in n.constructors else "definition" if name in n.funcs else \
            "primitive" if name in n.registry.items else None
        if name not in n.choices or what is None:
            return None
        if name in n.hidden:
            return "None"
        n.hidden.add(name)
        return self.error(node, f"{name!r} here is the choice {name!r}, which hides the {what} {name}(...)",
                          hint=f"give the choice another name (choose: chosen_{name}), or the {what} another")

    def _original(self, node, wrong_kind):
        """The definition (or procedure) that the one being compiled
        replaces, for original(...), its arity checked; None (the error
        recorded) when there is none or the call does not fit it."""
        cur = self.current
        nargs = len(node.args)
        if cur is None or cur.path[:1] not in (("define",), ("procedures",)):
            self.error(node, "original(...) calls the definition a variant replaces: it can be used only in "
                             "the text of a definition or procedure that replaces one",
                       hint="a variant replaces a definition by giving the same key (name and parameters) "
                            "under 'define' or 'procedures'")
            return None
        label = cur.path[1]
        orig = cur.original
        if orig is None:
            self.error(node, f"original(...) calls the definition this one replaces, but {label} replaces none",
                       hint="a variant replaces a definition by giving the same key (name and parameters) "
                            f"under 'define' or 'procedures'; nothing before it defines {label!r}")
            return None
        if orig.kind == wrong_kind:
            what = "a procedure (use it as a statement)" if orig.kind == EFFECT else \
                "a definition (use it inside an expression)"
            self.error(node, f"original(...) here is {what}")
            return None
        if node.gen is not None or nargs != len(orig.params):
            self.error(node, f"original() takes {len(orig.params)} argument(s) ({', '.join(orig.params)}), as "
                             f"{label} does; got {nargs}", hint=f"for example: original({', '.join(orig.params)})")
            return None
        self.names.used.add(orig.name)
        self.calls_original = True      # (so the definition is never inlined into another's text)
        return orig

    def _check_literals(self, name, node, b, scope, local):
        """Arguments checked against the kinds of value the primitive declares
        (and every literal text a primitive is given, kept by primitive and
        argument: the names of counters a rulebook uses, for instance)."""
        for i, a in enumerate(node.args):
            literal = isinstance(a, A.Const) and isinstance(a.value, str)
            self.names.literals.setdefault((name, i), set()).add(a.value if literal else None)
            if i < len(b.args) and b.args[i]:
                self._check_arg(a, b.args[i], name, i, scope, local)

    def _check_arg(self, a, kind, name, i, scope, local):
        """Argument i of name(...) must be a value of `kind`: a literal one
        the rulebook knows, or an expression that can give one."""
        if isinstance(a, A.Const):
            problem = self._not_of_kind(a.value, kind)
            if problem:
                msg, expected, hint = problem
                self.error(a, f"{msg} (argument {i + 1} of {name}())", expected=expected, hint=hint)
            return
        got = self._kind_of(a, scope, local)
        if got and got != kind and {got, kind} & _NOT_TEXT:
            self.error(a, f"this gives {_KIND_WORDS.get(got, 'a ' + got)}, but argument {i + 1} of {name}() "
                          f"is {_KIND_WORDS.get(kind, 'a ' + kind)}", hint=_MIXED_HINTS.get((got, kind)))

    def _not_of_kind(self, v, kind):
        """(message, expected, hint) when the literal v is no value of `kind`, else None."""
        shown = "none" if v is None else repr(v).lower() if isinstance(v, bool) else repr(v)
        known = self.names.known
        if kind == "truth":
            if isinstance(v, str):
                return f"{v!r} is not true or false", None, "compare with true or false, or use the condition alone"
            return None
        if kind == "player":
            if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < max(len(self.names.colors), 1):
                return None
            colors = self.names.colors
            hint = f"a player is a number in turn order; {v} is {colors.index(v)}" if v in colors else \
                "a player is a number in turn order, from 0" + (f" ({colors[0]} is 0)" if colors else "")
            return f"{shown} is not a player", None, hint
        if kind == "item":
            kinds = known.get("piece kind", ("", ()))[1]
            hint = f"an item is made by its kind: {v}() (without a tag) or {v}(p) (player p's)" \
                if isinstance(v, str) and v in kinds else "an item is made by its kind, like " + \
                ", ".join(f"{k}()" for k in sorted(kinds)[:3]) if kinds else None
            return f"{shown} is not an item", None, hint
        spec = known.get(kind)
        if spec is None or v is None or (isinstance(v, str) and v in spec[1]):
            return None
        what, allowed = spec
        hint = did_you_mean(v, allowed) if isinstance(v, str) else None
        if kind == "structure" and isinstance(v, str) and v in known.get("structure kind", ("", ()))[1]:
            hint = f"{v!r} is a kind of structure, not a structure: its structures are structures({v!r})"
        names = sorted(allowed)
        if not names and kind in ("space name", "structure"):
            hint = "this rulebook declares no 'boards', so it has no spaces: its places are its zones"
        return f"{shown} is not a {what}", ", ".join(names) if 0 < len(names) <= 12 else None, hint

    def _kind_of(self, node, scope, local):
        """The kind of value (builtins.KINDS) an expression gives, when the
        compiler knows it: a primitive's declared value, or an item made by
        its kind's name."""
        if isinstance(node, A.Call) and isinstance(node.func, A.Name):
            name = node.func.id
            if name in local or name in scope or name in self.names.funcs:
                return None
            b = self.names.registry.get(name)
            if b is not None:
                return b.returns
            if name in self.names.constructors and name in self.names.known.get("piece kind", ("", ()))[1]:
                return "item"
        if isinstance(node, A.Name) and not (node.id in local or node.id in scope or node.id in self.names.funcs):
            b = self.names.registry.get(node.id)
            if b is not None and b.kind == BARE:
                return b.returns
        return None

    def _check_compare(self, node, scope, local):
        """`terrain(s) == "forrest"`, `owner(x) == "red"`: a literal compared
        with a value that can never be it; or two values of kinds that never meet."""
        for call, other in ((node.left, node.right), (node.right, node.left)):
            kind = self._kind_of(call, scope, local)
            if kind is None or not isinstance(other, A.Const) or other.value is None:
                continue
            problem = self._not_of_kind(other.value, kind)
            if problem:
                msg, expected, hint = problem
                if kind == "item" and isinstance(other.value, str) and \
                        other.value in self.names.known.get("piece kind", ("", ()))[1]:
                    hint = f"to compare an item's kind, write kind(...) == {other.value!r}"
                self.error(other, f"{msg}, so this comparison is never true", expected=expected, hint=hint)
            return
        left, right = self._kind_of(node.left, scope, local), self._kind_of(node.right, scope, local)
        if left and right and left != right and {left, right} & _NOT_TEXT:
            self.error(node, f"this compares {_KIND_WORDS.get(left, 'a ' + left)} with "
                             f"{_KIND_WORDS.get(right, 'a ' + right)}: it is never true",
                       hint=_MIXED_HINTS.get((left, right)) or _MIXED_HINTS.get((right, left)))

