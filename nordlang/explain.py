"""Why a move is legal or not.

For an illegal move: the choice that is pending, and the rule that offers
its options, taken apart: each filter of a comprehension evaluated for the
move's value, each operand shown with its value, down through the
definitions it calls; primitives that build options (such as groups)
say which of their conditions the value misses, and why a member of it is
not among what they draw from (their first argument): a primitive that
filters a collection left it out (what the space holds), or it is not of
that kind at all. Of options made of parts (a + b), a part whose kind the
value is not (it is missing from a collection that depends on the board
alone) is told in one line. For a legal move: what it would do (the
events it causes until the next decision).
"""

from __future__ import annotations

from .engine.game import Move
from .errors import NordError
from .lang import ast as A
from .lang.builtins import ordered
from .lang.compiler import Compiler
from .lang.parser import parse
from .render.text import event_lines


def parse_value(rules, text: str):
    """The value an option's text stands for (the inverse of rules.show)."""
    from .scenario import item_names
    text = text.strip()
    if text == "none":
        return None
    if len(_split(text, ",")) > 1:
        return frozenset(parse_value(rules, t) for t in _split(text, ","))
    sep = rules.tuple_sep
    if sep and len(_split(text, sep)) > 1:
        return tuple(parse_value(rules, t) for t in _split(text, sep))
    if text.startswith("(") and text.endswith(")") and _split(text[1:-1], ",") == [text[1:-1]] and sep:
        return parse_value(rules, text[1:-1])           # a chain in brackets, a part of a longer one
    if text.startswith("(") and text.endswith(")"):       # (a, b): a tuple without a declared separator
        inner = text[1:-1]
        return tuple(parse_value(rules, t) for t in _split(inner, ","))
    parse = rules.grid.parse
    path = rules.path_sep
    if path and path in text and all(parse(t) for t in text.split(path)):
        return tuple(parse(t) for t in text.split(path))
    s = parse(text)
    if s is not None and s in rules.grid.space_set:
        return s
    if text in rules.grid.structures:
        return text
    items = item_names(rules)
    if text in items:
        return items[text]
    if text.lstrip("-").isascii() and text.lstrip("-").isdigit():
        return int(text)
    zone = _zone_value(rules, text)
    return zone if zone is not None else text


def _zone_value(rules, text: str):
    """A zone or a grid zone's cell as rules.show writes it (hand(red), tableau(red)[1,3]), else None."""
    base, bracket, cell = text.partition("[")
    name, paren, owner = base.partition("(")
    if name not in rules.zones or paren and not owner.endswith(")"):
        return None
    player = None
    if paren:
        colors = rules.colors[:rules.num_players]
        if owner[:-1] not in colors:
            return None
        player = colors.index(owner[:-1])
    if not bracket:
        return (name, player)
    r, _, c = cell.removesuffix("]").partition(",")
    if name in rules.grid_zones and cell.endswith("]") and all(x.isascii() and x.isdigit() for x in (r, c)):
        return (name, player, int(r), int(c))
    return None


def _split(text: str, sep: str) -> list[str]:
    """`text` cut at each `sep` outside brackets (round or square: a cell's [r,c])."""
    out, depth, start, i = [], 0, 0, 0
    while i < len(text):
        ch = text[i]
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif depth == 0 and text.startswith(sep, i):
            out.append(text[start:i])
            i += len(sep)
            start = i
            continue
        i += 1
    out.append(text[start:])
    return out


def explain(game, text: str) -> tuple[bool, list[str]]:
    """(legal, lines) for a move in the game's current position."""
    rules = game.rules
    st = game.state
    move = Move.parse(text)
    p = st.pending
    if p is None:
        return False, [f"{text}: illegal, the game is over"]
    step = p.step
    lines = []
    if move.choice != step.name:
        lines = [f"{text}: illegal: the pending decision is '{step.name}' ({rules.color(p.player)} "
                 f"decides; rule at {step.pos}), not '{move.choice}'",
                 f"  options of '{step.name}': {', '.join(p.texts)}"]
        forced = [h for h in st.history if h[0] == st.turn and h[2] == move.choice and h[4]]
        earlier = _find_choice(rules, move.choice)
        if forced and earlier is not None:
            lines.append(f"  '{move.choice}' was decided earlier this turn: it had one option, "
                         f"'{forced[-1][3]}', taken at once")
            for alt in earlier.alternatives:
                if alt.label == move.option and alt.when_text:
                    lines.append(f"  '{alt.label}' is allowed only when: {alt.when_text}")
                    lines.extend(Explainer(game, {}, earlier.scope).why_false(
                        alt.when_text, earlier.path + ("options", alt.label, "when"), 4))
        return False, lines
    if p.find(move.option) is not None:
        g = game.clone()
        g.state.events = []
        g.play(move)
        lines.append(f"{text}: legal ({rules.color(p.player)} decides '{step.name}', rule at {step.pos})")
        lines.append("it would do:")
        lines.extend("  " + ln for ln in event_lines(rules, g.state.events) or ["  nothing visible"])
        if g.over:
            lines.append("  and the game would end")
        return True, lines
    lines.append(f"{text}: illegal: {move.option!r} is not an option of '{step.name}' (rule at {step.pos})")
    value = parse_value(rules, move.option)
    m = game.machine
    fr = st.frames[-1]
    raw = m.values(st, fr, step)
    if value not in raw and not isinstance(value, frozenset) and frozenset((value,)) in raw:
        value = frozenset((value,))         # one member's text is also the text of a set of one
    if value in raw:
        canon = rules.show(value)
        if canon in p.texts:
            # the option is there, written otherwise (a space named twice, 'c02' for 'c2'...)
            lines.append(f"  the rule offers {canon!r}, which {move.option!r} does not name exactly: "
                         f"did you mean '{step.name} {canon}'?")
        elif step.lookahead:
            lines.append(f"  the rule offers {canon!r}, but the turn could not go on after it: this choice "
                         "keeps only options after which the turn can be completed (lookahead)")
        else:  # pragma: no cover - every offered option of a choice without lookahead is an option
            lines.append(f"  the rule offers {canon!r}")
        return False, lines
    if step.alternatives:
        for alt in step.alternatives:
            if alt.label == move.option:
                lines.append(f"  '{alt.label}' is allowed only when: {alt.when_text}")
                lines.extend(Explainer(game, fr.vars, step.scope).why_false(alt.when_text, step.path + (
                    "options", alt.label, "when"), 2))
                return False, lines
        lines.append(f"  '{step.name}' has the alternatives {', '.join(a.label for a in step.alternatives)}")
        return False, lines
    odd = _odd_parts(value)
    if odd:
        lines.append(f"  {', '.join(odd)} in {move.option!r} is not a space of this board: the parts of an option "
                     "are all of one kind")
        return False, lines
    src = rules.data_at(step.path + ("from",))
    lines.append(f"  its options are: {src.strip()}")
    lines.extend(Explainer(game, fr.vars, step.scope).why_not_in(src, step.path + ("from",), value, 2))
    return False, lines


def _odd_parts(value) -> list[str]:
    """The parts of a set or sequence of spaces that are not spaces (a
    misspelt space reads as a name: 'c3,cc4'), shown; no rule offers such
    a mix, and the primitives that explain a set take one kind of value."""
    if not isinstance(value, (frozenset, tuple)) or not any(isinstance(x, tuple) for x in value):
        return []
    if isinstance(value, tuple) and len(value) == 2 and all(isinstance(x, int) for x in value):
        return []               # (a space itself)
    return sorted(repr(x) if isinstance(x, str) else str(x) for x in value if not isinstance(x, tuple))


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


def _find_choice(rules, name):
    """The first choice step of that name anywhere in the flow."""
    from .engine import flow as F
    todo = [rules.turn, rules.setup] + [p.steps for p in rules.procs.values()]
    while todo:
        for st in todo.pop():
            if isinstance(st, F.Choose) and st.name == name:
                return st
            for attr in ("then", "orelse", "body", "otherwise"):
                sub = getattr(st, attr, None)
                if sub:
                    todo.append(sub)
            for alt in getattr(st, "alternatives", ()) or ():
                todo.append(alt.steps)
    return None


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
