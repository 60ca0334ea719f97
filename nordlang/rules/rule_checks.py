"""Checks of a compiled rulebook that need the whole of it: flows and
definitions that call each other in a circle, a turn that asks nobody
anything, a choice whose options read what its chooser cannot see; and
the walk over every step they share. A mixin of Rules (model.py)."""

from __future__ import annotations

import re

from ..engine import flow as F
from ..errors import LangError


class RuleChecks:
    """(Rules gives doc, errors, names, procs, turn, setup, zone_visibility, data_at and _calls.)"""

    def _check_flows(self):
        """Flows never call themselves (directly or not), and a turn asks someone something."""
        calls = self._calls
        for cyc in _cycles({n: calls.get(n, ()) for n in self.procs}):
            pos, line = self.doc.pos(("flows", self.procs[cyc[0]].key), key=True)
            self.errors.append(LangError(f"flows call each other in a circle: {' -> '.join(cyc)}", pos,
                                         source_line=line, hint="a flow that calls itself never ends"))
        # does the turn reach a choice?
        reach, todo = set(), ["(turn)"]
        while todo:
            n = todo.pop()
            if n not in reach:
                reach.add(n)
                todo.extend(calls.get(n, ()))

        def has_choice(steps):
            for st in steps:
                if isinstance(st, F.Choose):
                    return True
                for attr in ("then", "orelse", "body", "otherwise"):
                    sub = getattr(st, attr, None)
                    if sub and has_choice(sub):
                        return True
                for alt in getattr(st, "alternatives", ()) or ():
                    if has_choice(alt.steps):
                        return True
            return False
        if not any(has_choice(self.turn if n == "(turn)" else self.procs[n].steps) for n in reach
                   if n == "(turn)" or n in self.procs):
            pos, line = self.doc.pos(("turn",))
            self.errors.append(LangError("the turn never asks a player anything (no 'choose' step in it or in "
                                         "the flows it calls), so a game would never end", pos, source_line=line))

    def _check_hidden_reads(self):
        """A player's options must not read the faces of items he cannot see:
        items(zone) or amount(zone, item) of a face-down zone, or of another
        player's own zone, in a choice's 'from', 'exists' or 'when'. (What
        cannot be told from the text is checked as the game runs.)"""
        hidden = {k: v for k, v in self.zone_visibility.items() if v != "all"}
        if not hidden:
            return
        reads = re.compile(r"\b(items|amount)\(\s*([A-Za-z_]\w*)\s*(?:\(\s*([^()]*?)\s*\))?")
        for st in self.choice_steps():
            path = st.path
            decider = (self.data_at(path).get("by") or "player").strip()
            if st.chooser:
                decider = st.chooser
            spots = [("from",), ("exists",)] + [("options", label, "when") for label in
                                                 (self.data_at(path).get("options") or {})]
            for spot in spots:
                try:
                    text = self.data_at(path + spot)
                except (KeyError, TypeError, IndexError):
                    continue
                if not isinstance(text, str):
                    continue
                for m in reads.finditer(text):
                    zone, arg = m.group(2), m.group(3)
                    seen_by = hidden.get(zone)
                    if seen_by is None or (seen_by == "owner" and arg == decider):
                        continue
                    whose = "face down" if seen_by == "none" else "seen by its owner only"
                    at = self.doc.locator(path + spot)(1, m.start(2) + 1)
                    self.errors.append(LangError(
                        f"choice {st.name!r} reads {m.group(1)}({zone}{'(' + arg + ')' if arg else ''}), which is "
                        f"{whose}: its options would show the chooser what he cannot see", at, width=len(zone),
                        source_line=self.doc.line_of(at),
                        hint="count what is hidden (total), or read the chooser's own zone: "
                             f"{zone}({decider})" if seen_by == "owner" else "count what is hidden (total)"))

    def choice_steps(self):
        """Every choice step of the flows, the setup and the turn, at any depth
        (a flow's before the turn's, the turn's before the setup's)."""
        return (st for st in self.all_steps() if isinstance(st, F.Choose))

    def all_steps(self):
        """Every step of the flows, the setup and the turn, at any depth, in that order."""
        todo = [self.turn, self.setup] + [p.steps for p in self.procs.values()]
        while todo:
            for st in todo.pop():
                yield st
                for attr in ("then", "orelse", "body", "otherwise"):
                    sub = getattr(st, attr, None)
                    if sub:
                        todo.append(sub)
                for alt in getattr(st, "alternatives", ()) or ():
                    todo.append(alt.steps)

    def _check_cycles(self):
        funcs = self.names.funcs
        for cyc in _cycles({n: f.deps for n, f in funcs.items()}):
            self.errors.append(LangError(f"definitions call each other in a circle: {' -> '.join(cyc)}",
                                         funcs[cyc[0]].pos, hint="nordlang has no recursion, so every rule "
                                                                 "terminates"))


def _cycles(graph: dict) -> list:
    """Each circle of calls in a graph name -> names it calls (depth-first, in name order)."""
    state, out = {}, []

    def visit(name, stack):
        if state.get(name) == 2:
            return
        if state.get(name) == 1:
            out.append(stack[stack.index(name):] + [name])
            return
        state[name] = 1
        for d in sorted(graph.get(name, ())):
            if d in graph:
                visit(d, stack + [name])
        state[name] = 2
    for name in sorted(graph):
        visit(name, [])
    return out
