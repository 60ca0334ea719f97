"""A rulebook's flow as programs: the steps a rulebook's flow is made of
(do, let, if, while, for, choose, call), and each flow laid out once as a
flat program in which branches and loops become jumps (see flow.py, whose
machine runs them)."""

from __future__ import annotations

import itertools
import weakref
from dataclasses import dataclass

from ..errors import Pos


class _Mutates(Exception):
    """A probe running on the position itself reached an effect."""


class DeadEnd(Exception):
    """A required choice has no option (used by lookahead probes)."""

    def __init__(self, step):
        super().__init__(step.name)
        self.step = step


# ---------------- steps ----------------
@dataclass(eq=False)
class Step:
    pos: Pos


@dataclass(eq=False)
class Do(Step):
    run: object


@dataclass(eq=False)
class Let(Step):
    name: str
    expr: object


@dataclass(eq=False)
class If(Step):
    cond: object
    then: tuple
    orelse: tuple


@dataclass(eq=False)
class While(Step):
    cond: object
    body: tuple
    limit: int


@dataclass(eq=False)
class ForEach(Step):
    target: tuple
    iter: object
    body: tuple


@dataclass(eq=False)
class Alternative:
    label: str
    when: object
    steps: tuple
    when_text: str | None = None


@dataclass(eq=False)
class Choose(Step):
    name: str
    source: object = None          # expression giving the options
    alternatives: tuple = ()       # or labelled alternatives with steps
    optional: str | None = None    # text of the "nothing" option, when allowed
    lookahead: bool = False
    distinct: bool = False         # its source is known, when compiling, to give no option twice
    otherwise: tuple | None = None
    prompt: str = ""
    exists: object = None          # optional cheap test: are there options at all? (for probes)
    by: object = None              # who decides (a player expression); None: the player to move
    simultaneous: object = None    # the players who choose at once, in secret (an expression), or None
    chooser: str | None = None     # with simultaneous: the name the chooser is bound to in 'from' (p)
    reveal: str = "all"            # with simultaneous: all choices shown once all chose ("all"), or none
    path: tuple = ()               # where the choice is in the rulebook (for explanations)
    scope: frozenset = frozenset()  # flow variables its expressions may use


@dataclass(eq=False)
class Roll(Step):
    """A chance event: its outcomes (from an expression, equally likely, or
    listed with exact probabilities); the outcome is bound to its name."""
    name: str
    source: object = None          # expression giving equally likely outcomes
    values: tuple = ()             # or the outcomes listed ...
    probs: tuple = ()              # ... with their probabilities (Fractions adding up to 1)


@dataclass(eq=False)
class CallProc(Step):
    proc: str
    args: object = None            # closure giving the argument tuple, or None
    bind: object = None            # the arguments (a tuple) -> the callee's bindings (set by `compiled_flows`)


# ---------------- programs ----------------
class Jump:
    """Go on at `to`."""
    __slots__ = ("pos", "to")

    def __init__(self, pos, to=None):
        self.pos, self.to = pos, to


class Branch:
    """An 'if': unless cond holds, go on at `to` (its else part, or past it)."""
    __slots__ = ("pos", "cond", "to")

    def __init__(self, pos, cond):
        self.pos, self.cond, self.to = pos, cond, None


class Loop:
    """A loop's head (`again` false) or its back edge: a while loop keeps its
    count, a for loop its items and position, in the frame's loop slot.
    The head goes on at `to` when the loop is done; the back edge goes back
    to `to` (the body's start) while it is not."""
    __slots__ = ("pos", "step", "slot", "again", "to")

    def __init__(self, step, slot, again):
        self.pos, self.step, self.slot, self.again, self.to = step.pos, step, slot, again, None


class Choice:
    """A choice; where each alternative's steps and its 'otherwise' start;
    `plain` when it is asked as its options come (no lookahead, no 'by',
    not secret); `check_seen` when its options
    could show an item (rules that hide some, a 'from' choice: labels are
    never items); `straight`, for a lookahead choice, the options after which
    the flow may reach a choice that answers by tests, bindings and jumps
    alone (lookahead.py _straight), True for all; `lone`, for a lookahead
    choice, whether the flow after an option may meet a choice before an
    effect (else a lone option is not run on for real: lone.py
    _run_lone). Set by `programs`."""
    __slots__ = ("pos", "step", "targets", "otherwise", "plain", "check_seen", "straight", "lone")

    def __init__(self, step):
        self.pos, self.step, self.targets, self.otherwise = step.pos, step, {}, None
        self.plain = False
        self.check_seen = True
        self.straight = True
        self.lone = True


def flatten(steps) -> tuple:
    """Lay a step tree out as a flat program of steps, jumps and loop heads."""
    code: list = []
    slots = itertools.count()                           # one loop-state slot per loop

    def jump(pos):
        j = Jump(pos)
        code.append(j)
        return j

    def emit(block):
        for st in block:
            t = type(st)
            if t is If:
                br = Branch(st.pos, st.cond)
                code.append(br)
                emit(st.then)
                if st.orelse:
                    j = jump(st.pos)
                    br.to = len(code)
                    emit(st.orelse)
                    j.to = len(code)
                else:
                    br.to = len(code)
            elif t is While or t is ForEach:
                slot = next(slots)
                head = Loop(st, slot, False)
                code.append(head)
                back = Loop(st, slot, True)
                back.to = len(code)
                emit(st.body)
                code.append(back)
                head.to = len(code)
            elif t is Choose:
                ch = Choice(st)
                code.append(ch)
                if st.alternatives or st.otherwise is not None:
                    ends = [jump(st.pos)]               # (a 'from' choice goes on past its 'otherwise')
                    for a in st.alternatives:
                        ch.targets[a.label] = len(code)
                        emit(a.steps)
                        ends.append(jump(st.pos))
                    if st.otherwise is not None:
                        ch.otherwise = len(code)
                        emit(st.otherwise)
                    for j in ends:
                        j.to = len(code)
            else:                                       # do, let, call, roll
                code.append(st)
    emit(steps)
    return tuple(code)


_PROGRAMS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def programs(rules) -> dict:
    """A rulebook's flows as programs, made once per rulebook: "(setup)",
    "(turn)" and each flow by name."""
    return compiled_flows(rules)[0]


def compiled_flows(rules) -> tuple:
    """(programs, calls) of a rulebook, made once (a search makes a machine
    for each position it creates): `programs` as above; `calls`, each
    flow's (program, parameters) by its name."""
    made = _PROGRAMS.get(rules)
    if made is None:
        progs = {name: flatten(p.steps) for name, p in rules.procs.items()}
        progs["(setup)"] = flatten(rules.setup)
        progs["(turn)"] = flatten(rules.turn)
        for code in progs.values():
            for at, ins in enumerate(code):
                if type(ins) is Choice:
                    st = ins.step
                    ins.plain = st.simultaneous is None and not st.lookahead and st.by is None
                    ins.check_seen = rules.hidden_information and not st.alternatives
                    if st.lookahead:
                        ins.straight = (frozenset(a for a, pc in ins.targets.items() if _answers_straight(code, pc))
                                        if st.alternatives else _answers_straight(code, at + 1))
                        starts = ins.targets.values() if st.alternatives else (at + 1,)
                        ins.lone = any(_choice_before_effect(progs, code, pc) for pc in starts)
                elif type(ins) is CallProc and ins.args is not None and ins.proc in rules.procs:
                    ins.bind = _binder(tuple(rules.procs[ins.proc].params))
        made = _PROGRAMS[rules] = (progs, {name: (progs[name], p.params) for name, p in rules.procs.items()})
    return made


def _answers_straight(code, pc) -> bool:
    """Whether the flow from `pc` may reach a choice that answers whether the
    turn goes on (not lookahead, not secret) through tests, bindings and
    jumps alone: else a lookahead probe's plain scan from there never
    answers, and is not tried (lookahead.py _straight)."""
    todo, seen = [pc], set()
    while todo:
        pc = todo.pop()
        if pc in seen or pc >= len(code):
            continue
        seen.add(pc)
        ins = code[pc]
        t = type(ins)
        if t is Branch:
            todo += (pc + 1, ins.to)
        elif t is Jump:
            todo.append(ins.to)
        elif t is Let:
            todo.append(pc + 1)
        elif t is Choice and ins.step.simultaneous is None and not ins.step.lookahead:
            return True
    return False


def _choice_before_effect(progs, code, pc) -> bool:
    """Whether the flow from `pc` may meet a choice before an effect, a
    chance event or its own end, through tests, bindings, jumps, loops and
    calls (a call goes on into the flow called and, after it, here)."""
    todo, seen = [(code, pc)], set()
    while todo:
        code, pc = todo.pop()
        if (id(code), pc) in seen or pc >= len(code):
            continue
        seen.add((id(code), pc))
        ins = code[pc]
        t = type(ins)
        if t is Choice:
            return True
        if t is Branch or t is Loop:
            todo += ((code, pc + 1), (code, ins.to))
        elif t is Jump:
            todo.append((code, ins.to))
        elif t is Let:
            todo.append((code, pc + 1))
        elif t is CallProc:
            todo += ((code, pc + 1), (progs[ins.proc], 0)) if ins.proc in progs else ((code, pc + 1),)
    return False


def _binder(params: tuple):
    """A call's bindings from its arguments: dict(zip(params, args)) written
    out for the callee's number of parameters (a dict display, about a
    third of the time); arguments of another number bound as zip binds them."""
    pairs = ", ".join(f"{p!r}: a[{i}]" for i, p in enumerate(params))
    return eval(f"lambda a: {{{pairs}}} if len(a) == {len(params)} else dict(zip(P, a))",   # noqa: S307
                {"P": params, "dict": dict, "zip": zip, "len": len})
