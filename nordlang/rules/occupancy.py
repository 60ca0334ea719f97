"""Warnings for pieces a rulebook reads on spaces but that can never be seen there.

piece_at, occupied, occupied_spaces, open_spaces and occupied_by see only the
pieces that occupy a space (`occupies: true`, or `links: true`, which implies
it). A piece of another kind placed on a space is in that space's pool and
nothing more: the space still looks empty. When a rule both reads which
spaces are occupied and places pieces of such a kind (an effect's argument,
as in move(mark(p), supply(p), cell)) that no rule counts in a pool (as
amount(s, boat()) does), or compares `kind(piece_at(..))` with such a kind,
the rulebook has most likely forgotten to declare it (a Tic-tac-toe mark without `occupies` lets a taken cell be
taken again). These are warnings: a rulebook may mean it.
"""

from __future__ import annotations

from ..errors import NordError
from ..lang import ast as A
from ..lang.builtins import EFFECT

# the primitives that see only occupying pieces
OCCUPANCY = ("piece_at", "occupied", "occupied_spaces", "open_spaces", "occupied_by")


def _called(node) -> str | None:
    if isinstance(node, A.Call) and isinstance(node.func, A.Name):
        return node.func.id
    if isinstance(node, A.CallStmt):
        return node.name
    return None


def _rule(path) -> tuple:
    """The rule a text belongs to: a definition, a procedure, a flow, or a section."""
    return tuple(path[:2]) if path and path[0] in ("define", "procedures", "flows") else tuple(path[:1])


def _rule_words(rule) -> str:
    if rule[0] == "define":
        return f"definition {rule[1]!r}"
    if rule[0] == "procedures":
        return f"procedure {rule[1]!r}"
    if rule[0] == "flows":
        return f"flow {rule[1]!r}"
    return {"turn": "the turn", "setup": "the setup"}.get(rule[0], f"'{rule[0]}'")


def _hint(kind) -> str:
    return (f"declare `occupies: true` on piece {kind!r} (pieces: {kind}: {{occupies: true}}) when it stands on a "
            "space, one per space; `links: true` when it also joins the connection graph")


def unseen_piece_warnings(rules) -> list[NordError]:
    """Warnings where a rule reads a piece kind on spaces that never occupies one."""
    hidden = {k for k in rules.pieces if k not in rules.occupying}
    if not hidden:
        return []
    names = {f.name: f.path for f in rules.names.funcs.values()}
    registry = rules.names.registry
    reads, makes, calls = {}, {}, {}
    counted = set()         # kinds a rule reads from pools (amount(s, boat())): it knows where they are
    out = []
    for path, tree, locate in rules.trees:
        rule = _rule(path)
        for n in A.walk(tree):
            name = _called(n)
            b = registry.get(name) if name else None
            for a in (n.args if b is not None else ()):
                kind = _called(a)
                if kind in hidden and isinstance(a, A.Call):
                    if b.kind == EFFECT:
                        makes.setdefault(rule, {}).setdefault(kind, (a, locate))
                    else:
                        counted.add(kind)
            if name in OCCUPANCY:
                reads.setdefault(rule, set()).add(name)
            elif name in names:
                calls.setdefault(rule, set()).add(_rule(names[name]))
            if isinstance(n, A.BinOp) and n.op in ("==", "!="):
                out.extend(_compared(rules, n, hidden, rule, locate))
    # a rule reads occupancy itself or through the definitions it calls
    seen = {}

    def reading(rule, stack=()):
        if rule not in seen:
            seen[rule] = set(reads.get(rule, ()))
            for other in calls.get(rule, ()):
                if other not in stack:
                    seen[rule] |= reading(other, stack + (rule,))
        return seen[rule]
    for rule, kinds in makes.items():
        prims = reading(rule)
        if not prims:
            continue
        for kind, (node, locate) in sorted(kinds.items()):
            if kind in counted:
                continue
            shown = ", ".join(sorted(prims))
            out.append(_warning(rules, f"{_rule_words(rule)} reads which spaces are occupied ({shown}) and places "
                                       f"{kind!r} pieces, which do not occupy a space: {shown} never see them",
                                locate(node.line, node.col), kind))
    return out


def _compared(rules, node, hidden, rule, locate):
    """`kind(piece_at(s)) == "mark"` where a mark never occupies a space."""
    for call, other in ((node.left, node.right), (node.right, node.left)):
        if _called(call) == "kind" and len(call.args) == 1 and _called(call.args[0]) == "piece_at" \
                and isinstance(other, A.Const) and other.value in hidden:
            verdict = "never true" if node.op == "==" else "always true"
            return [_warning(rules, f"{_rule_words(rule)} compares the kind of piece_at(...) with {other.value!r}, "
                                    f"but {other.value!r} pieces do not occupy a space: piece_at never gives one, "
                                    f"so this is {verdict}", locate(other.line, other.col), other.value)]
    return []


def _warning(rules, message, pos, kind) -> NordError:
    w = NordError(message, pos, source_line=rules.doc.line_of(pos), hint=_hint(kind))
    w.kind = "warning"
    return w
