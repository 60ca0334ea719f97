"""The part of compiling a rulebook that turns its flow steps (do, let, if,
for, call, choose, ...) into the engine's step objects."""

from __future__ import annotations

import re
from fractions import Fraction

from ..engine import flow as F
from ..engine.chance import probabilities
from ..errors import LangError, did_you_mean
from ..lang.checks import rebinding
from ..lang.compiler import Compiler
from ..lang.memo import by_position
from ..lang.parser import parse
from .loader import parse_signature


def _noop(ctx):
    return None


def _split_args(inner: str):
    depth, cur, out = 0, "", []
    for ch in inner:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return out


class StepCompiler:
    """How Rules compiles the steps of its setup, turn and flows. (a part of Rules)"""

    def steps(self, items, path, scope):
        """Compile a list of flow steps (or effects text) into step objects."""
        if isinstance(items, str):
            fn = self.compile_text(items, path, "effects", scope)
            return (F.Do(self.doc.pos(path)[0], fn or _noop),)
        out = []
        for i, st in enumerate(items or []):
            p = path + (i,)
            pos = self.doc.pos(p)[0]
            if not isinstance(st, dict):
                continue
            if "do" in st and not ({"while", "for"} & set(st)):
                fn = self.compile_text(st["do"], p + ("do",), "effects", scope)
                out.append(F.Do(pos, fn or _noop))
            elif "let" in st:
                for name, text in st["let"].items():
                    self._check_binding(p + ("let", name), name, key=True)
                    fn = self.compile_text(text, p + ("let", name), "expr", scope)
                    out.append(F.Let(pos, name, fn or _noop))
                    scope = scope | {name}
            elif "if" in st:
                cond = self.compile_text(st["if"], p + ("if",), "expr", scope) or _noop
                then = self.steps(st.get("then", []), p + ("then",), scope)
                orelse = self.steps(st.get("else", []), p + ("else",), scope)
                out.append(F.If(pos, cond, then, orelse))
            elif "while" in st:
                cond = self.compile_text(st["while"], p + ("while",), "expr", scope) or _noop
                body = self.steps(st["do"], p + ("do",), scope)
                out.append(F.While(pos, cond, body, st.get("limit", 1000)))
            elif "for" in st:
                m = re.match(r"^\s*\(?\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*\)?\s+in\s+(.+)$", st["for"],
                             re.S)
                if not m:
                    self._err(p + ("for",), f"cannot read {st['for']!r}", expected="'name in collection' or "
                              "'a, b in collection'")
                    continue
                target = tuple(x.strip() for x in m.group(1).split(","))
                for name in target:
                    problem = rebinding(name, self.names.registry)
                    if problem:       # (at the name in the text)
                        at = self.doc.locator(p + ("for",))(1, m.start(1) + m.group(1).find(name) + 1)
                        self.errors.append(LangError(problem[0], at, hint=problem[1], width=len(name),
                                                     source_line=self.doc.line_of(at)))
                text = st["for"]
                offset = m.start(2)
                it = self._compile_sub(text, offset, p + ("for",), scope)
                body = self.steps(st["do"], p + ("do",), scope | set(target))
                out.append(F.ForEach(pos, target, it or _noop, body))
            elif "call" in st:
                sig = parse_signature(st["call"])
                if sig is None:
                    m = re.match(r"^\s*([A-Za-z_]\w*)\s*\((.*)\)\s*$", st["call"], re.S)
                    sig = (m.group(1), None) if m else None
                if sig is None:
                    self._err(p + ("call",), f"cannot read the call {st['call']!r}", expected="name(args)")
                    continue
                name = sig[0]
                proc = self.procs.get(name)
                text = st["call"]
                at_name = self.doc.locator(p + ("call",))(1, len(text) - len(text.lstrip()) + 1)
                if proc is None:
                    self.errors.append(LangError(f"unknown flow {name!r}", at_name, hint=did_you_mean(name, self.procs),
                                                 width=len(name)))
                    continue
                args = ()
                text = st["call"]
                inner = text[text.find("(") + 1:text.rfind(")")] if "(" in text else ""
                if inner.strip():
                    tree_fn = self._compile_sub(f"({inner},)", None, p + ("call",), scope, raw_offset=text.find("("))
                    args = (tree_fn,) if tree_fn else ()
                nargs = len([a for a in _split_args(inner)]) if inner.strip() else 0
                if nargs != len(proc.params):
                    self.errors.append(LangError(f"flow {name!r} takes {len(proc.params)} argument(s), got {nargs}",
                                                 at_name, width=len(name)))
                    continue
                self._calls.setdefault(self._current_flow, set()).add(name)
                out.append(F.CallProc(pos, name, args[0] if args else None))
            elif "choose" in st:
                self._check_binding(p + ("choose",), st["choose"])
                self.names.choices.add(st["choose"])
                out.append(self._choose(st, p, pos, scope))
                scope = scope | {st["choose"]}
            elif "roll" in st:
                self._check_binding(p + ("roll",), st["roll"])
                out.append(self._roll(st, p, pos, scope))
                scope = scope | {st["roll"]}
        return tuple(out)

    def _roll(self, st, p, pos, scope):
        """A chance event: equally likely outcomes ('from'), or outcomes with probabilities adding up to 1."""
        name = st["roll"]
        if ("from" in st) == ("outcomes" in st):
            self._err(p, f"roll {name!r} needs either 'from' (equally likely outcomes) or 'outcomes' (with "
                      "probabilities), not " + ("both" if "from" in st else "neither"))
            return F.Roll(pos, name, source=_noop)
        if "from" in st:
            return F.Roll(pos, name, source=self.compile_text(st["from"], p + ("from",), "expr", scope) or _noop)
        values, probs = [], []
        for value, q in st["outcomes"].items():
            try:
                probs.extend(probabilities([q], "a probability"))
            except ValueError as e:
                self._err(p + ("outcomes", value), f"roll {name!r}: {q!r} is no probability", expected=e.args[1])
                return F.Roll(pos, name, values=(None,), probs=(Fraction(1),))
            values.append(value)
        total = sum(probs)
        if total != 1:
            self._err(p + ("outcomes",), f"roll {name!r}: the probabilities of its outcomes add up to {total}, "
                      "not 1", hint="write them as fractions (1/6) so that they add up exactly")
            return F.Roll(pos, name, values=(None,), probs=(Fraction(1),))
        return F.Roll(pos, name, values=tuple(values), probs=tuple(probs))

    def _compile_sub(self, text, offset, path, scope, raw_offset=None):
        """Compile part of a string (after 'x in', inside a call) with positions kept."""
        sub = text[offset:] if offset is not None else text
        base_locate = self.doc.locator(path)
        shift = offset if offset is not None else (raw_offset or 0)

        def locate(line, col):
            return base_locate(line, col + (shift if line == 1 else 0))
        try:
            tree = parse(sub, "expr", locate=locate)
        except LangError as e:
            e.source_line = self.doc.line_of(e.pos) if e.pos else None
            self.errors.append(e)
            return None
        self.trees.append((path, tree, locate))
        comp = Compiler(self.names, locate, text=sub)
        fn = comp.expr(tree, scope)
        for e in comp.errors:
            e.source_line = self.doc.line_of(e.pos)
        self.errors.extend(comp.errors)
        return fn

    def _simultaneous(self, st, p, common, scope):
        """'p in players': who chooses at once, in secret; p is bound to the chooser in 'from'."""
        name = st["choose"]
        text = st["simultaneous"]
        m = re.match(r"^\s*([A-Za-z_]\w*)\s+in\s+(.+)$", text, re.S)
        if not m:
            self._err(p + ("simultaneous",), f"cannot read {text!r}", expected="'p in players': a name, 'in', and "
                      "the players who choose")
            return scope
        for other in ("by", "options", "lookahead"):
            if other in st:
                self._err(p + (other,), f"choice {name!r} is simultaneous: each listed player chooses from 'from', "
                          f"so it takes no '{other}'")
        chooser = m.group(1)
        self._check_binding(p + ("simultaneous",), chooser)
        common["simultaneous"] = self._compile_sub(text, m.start(2), p + ("simultaneous",), scope) or _noop
        common["chooser"] = chooser
        common["reveal"] = st.get("reveal", "all")
        common["scope"] = frozenset(scope | {chooser})
        return scope | {chooser}

    def _choose(self, st, p, pos, scope):
        name = st["choose"]
        common = dict(optional=st.get("optional"), lookahead=st.get("lookahead", False),
                      prompt=st.get("prompt", ""), path=p, scope=frozenset(scope))
        if "by" in st:
            common["by"] = self.compile_text(st["by"], p + ("by",), "expr", scope)
        if "simultaneous" in st:
            scope = self._simultaneous(st, p, common, scope)
        elif "reveal" in st:
            self._err(p + ("reveal",), f"choice {name!r}: 'reveal' goes with 'simultaneous' (who chooses at once)")
        otherwise = self.steps(st["otherwise"], p + ("otherwise",), scope) if "otherwise" in st else None
        if "options" in st:
            alts = []
            for label, opt in st["options"].items():
                when = None
                if "when" in opt:
                    when = self.compile_text(opt["when"], p + ("options", label, "when"), "expr", scope)
                body = self.steps(opt.get("do", []), p + ("options", label, "do"), scope | {name})
                alts.append(F.Alternative(str(label), when, body, opt.get("when")))
            return F.Choose(pos, name, alternatives=tuple(alts), otherwise=otherwise, **common)
        if "from" not in st:
            self._err(p, f"choice {name!r} needs 'from' (an expression of options) or 'options'")
            return F.Choose(pos, name, source=_noop, **common)
        src = self.compile_text(st["from"], p + ("from",), "expr", scope) or _noop
        exists = self.compile_text(st["exists"], p + ("exists",), "expr", scope) if "exists" in st else None
        if exists is not None:
            exists = by_position(exists)     # (asked again by each probe that reaches the choice)
        return F.Choose(pos, name, source=src, otherwise=otherwise, exists=exists,
                        distinct=getattr(src, "distinct", False), **common)
