"""Lookahead: whether the turn can go on after an option of a choice
marked `lookahead` (how "a tile is played only when a placement follows"
is said in data). A probe runs the flow on from the option until the
turn's next decision: first in a scan that keeps only the flows'
bindings, while the flow only tests, binds, calls and meets choices (most
probes end there); then on the machine, on the position itself while it
only reads, on a light copy once it must change something. Answers are
kept by position and bindings. A mixin of the flow's Machine (flow.py).

A probe that meets a lookahead choice of its own asks only whether one of
its options lets the turn go on: it goes on with the first option not
known to lead nowhere, in the same run (no probe within the probe). How
the run ends answers for that option too: reaching the next decision,
every option it went on with can go on; a dead end, the last one cannot,
and the probe runs again from its start, on to the next option."""

from __future__ import annotations

from ..lang.compiler import Ctx
from .frames import Frame, Pending, _InPlace
from .lone import LoneOption
from .program import Branch, CallProc, Choice, DeadEnd, Do, Jump, Let, Roll, _Mutates

_FEASIBLE: dict = {}         # (choice, option, position, flow bindings) -> can the turn go on
_EFFECTS = (Do, Roll)      # the steps a probe never runs on the position itself (flow.py _run)
_FEASIBLE_LIMIT = 2_000      # cleared when full: kept small for the garbage collector (see lang/memo.py _MEMO)


def feasible_key(state, step, value):
    """The key of an option's answer: the choice, the option, the position
    and where the flow is (its top frame's bindings, depth, place, loops);
    None when a binding cannot be a key."""
    fr = state.frames[-1]
    loops = fr.loops
    key = (step, value, state.version, tuple(fr.vars.items()), len(state.frames), fr.pc,
           tuple(loops.items()) if loops else None)
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _flows_after(fr, step, value) -> list:
    """[[program, pc, bindings]] of the flow after an option of the choice
    just run in frame `fr` (its bindings a copy, the option bound: as
    _bind_choice binds it), for a probe's scan."""
    bindings = dict(fr.vars)
    bindings[step.name] = value
    pc = fr.code[fr.pc - 1].targets[value] if step.alternatives else fr.pc
    return [[fr.code, pc, bindings]]


def _keep(key, ok) -> None:
    if len(_FEASIBLE) > _FEASIBLE_LIMIT:
        _FEASIBLE.clear()
    _FEASIBLE[key] = ok


class Lookahead(LoneOption):
    """The Machine's probes (it gives `_run` and `_bind_choice`)."""

    _went_on = None     # in a probe: the keys of the options it went on with, in order
    _learnt = None      # in a probe: the answers it learnt (kept while it runs, whatever _FEASIBLE keeps)
    _scanned = None     # the flows the plain scan of the option probed next stopped in (_straight), or None

    def _feasible_options(self, state, step, vals, ctx) -> list:
        """The options after which the turn can go on, each answer kept
        under its feasible_key (where the flow is, worked out once for all
        the options, and the option)."""
        fr = state.frames[-1]
        loops = fr.loops
        at = (state.version, tuple(fr.vars.items()), len(state.frames), fr.pc,
              tuple(loops.items()) if loops else None)
        get = _FEASIBLE.get
        straight = fr.code[fr.pc - 1].straight   # (the options after which _straight may answer: program.py)
        out = []
        for v in vals:
            key = (step, v) + at
            try:
                ok = get(key)
            except TypeError:                    # (a binding or option that cannot be a key)
                ok = self._probe(state, step, v, ctx)
            else:
                if ok is None:
                    if straight is True or straight and v in straight:
                        ok = self._straight(state, fr, step, v, ctx)
                    if type(ok) is list:         # (the flows where the plain scan stopped: on from there)
                        self._scanned, ok = ok, None
                    if ok is None:
                        ok = self._probe(state, step, v, ctx)
                    _keep(key, ok)
            if ok:
                out.append(v)
        return out

    def _straight(self, state, fr, step, value, ctx):
        """A probe's most common case, answered without a probe's machinery
        (its records of options gone on with, its frames): the flow after
        the option only tests, binds and jumps until a choice that is not
        lookahead, which answers (`_scan`, plain). True or False; at any
        other step (a call, an effect, a loop, a lookahead or secret choice,
        the flow's end) the flows as the scan left them, from which the
        probe goes on (what ran here, tests and bindings, depends on the
        position and the bindings alone); None without a context."""
        if ctx is None:
            return None
        vars_ = ctx.vars
        flows = _flows_after(fr, step, value)
        try:
            return True if self._scan(state, fr, flows, ctx, plain=True) else flows
        except DeadEnd:
            return False
        finally:
            ctx.vars = vars_

    def _probe(self, state, step, value, ctx=None) -> bool:
        """Run the turn on after this option until its next decision
        (again after each dead end its lookahead choices led to), its first
        run from where the plain scan of the option stopped, when one did
        (`_scanned`), else from the option.

        It runs in `ctx`, the context of the run that asks (so it draws on
        that run's budget of work), which is given back as it was; without
        one, in a context of its own.
        """
        flows, self._scanned = self._scanned, None
        if ctx is None:
            ctx = Ctx(state, self.rules)
        outer = self._went_on, self._learnt
        self._learnt = learnt = {}
        try:
            while True:
                self._went_on = went_on = []
                try:
                    self._run_probe(state, step, value, ctx, flows)
                except DeadEnd:
                    if not went_on:
                        return False
                    key = went_on[-1]            # (the last option it went on with led here)
                    learnt[key] = False
                    _keep(key, False)
                    flows = None                 # (again from the option)
                    continue
                for key in went_on:
                    _keep(key, True)
                return True
        finally:
            self._went_on, self._learnt = outer

    def _run_probe(self, state, step, value, ctx, flows=None) -> None:
        """One run of a probe, to the next decision (DeadEnd at a dead end).

        The flow after the option runs first in `_scan`, on copies of the
        flows' bindings and nothing else, while it only tests, binds, calls
        and reaches choices (most probes end so); from the first step that
        needs more, on the machine, from where the scan stopped: on the
        position itself, with frames of its own on top of the position's
        (those below are copied only if the probe gets back to them), and
        from an effect on, on a light copy."""
        fr = state.frames[-1]
        if flows is None:
            flows = _flows_after(fr, step, value)
        bindings = flows[0][2]
        vars_ = ctx.vars
        try:
            if self._scan(state, fr, flows, ctx):
                return
        finally:
            ctx.vars = vars_
        frames, pending, probing = state.frames, state.pending, state.probing
        p = _InPlace(frames)
        p.memo[id(fr.vars)] = bindings           # (as Frame.copy: the copy of these bindings)
        state.frames = frames[:-1]
        state.frames.append(Frame.resumed(fr.code, flows[0][1], bindings, fr.loops))
        state.frames += [Frame.resumed(code, pc, b, None) for code, pc, b in flows[1:]]
        state.pending = None
        code, pc, _ = flows[-1]
        try:
            if pc < len(code) and type(code[pc]) in _EFFECTS:
                probe = state.clone(light=True)  # (the scan stopped at an effect: on a light copy at once)
            else:
                state.probing = p
                try:
                    self._run(state, True, False, ctx.budget, ctx)
                    return
                except _Mutates:
                    # an effect, which the position must not see: on from it on a light copy
                    state.probing = False
                    probe = state.clone(light=True)
        finally:
            state.frames, state.pending, state.probing, ctx.vars = frames, pending, probing, vars_
        probe.rng = state.rng.for_probe()        # (a probe must not use up a script of chance outcomes)
        ctx.state = probe
        try:
            self._run(probe, True, False, ctx.budget, ctx)
        finally:
            ctx.state, ctx.vars = state, vars_

    def _scan(self, state, fr, flows, ctx, plain=False) -> bool:
        """Run a probe's flow while it only tests (if), binds (let), jumps,
        calls flows and meets choices, on `flows`: [program, pc, bindings]
        of the flow the probe starts in (in place of its top frame, `fr`)
        and of the flows it called. True when the turn goes on at a choice
        (it has an option, by its 'exists' test or its options), DeadEnd
        when it does not; False at the first step the machine must run (an
        effect, a loop, a secret choice, the first flow's end), with `flows`
        as its frames must be. A lookahead choice goes on with its
        first option not known to lead nowhere, as in the machine (_go_on).
        What it runs is what the machine would run in a probe (flow.py _run
        and _choose), without frames. `plain`: it stops (False) at a
        lookahead choice and a call too (see _straight)."""
        code, pc, bindings = flows[-1]
        ctx.vars = bindings
        n = len(code)
        while True:
            if pc >= n:                          # the flow is done: back to its caller
                if len(flows) == 1:
                    return False
                flows.pop()
                code, pc, bindings = flows[-1]
                ctx.vars = bindings
                n = len(code)
                continue
            ins = code[pc]
            t = type(ins)
            if t is Branch:
                pc = pc + 1 if ins.cond(ctx) else ins.to
            elif t is Jump:
                pc = ins.to
            elif t is Let:
                bindings[ins.name] = ins.expr(ctx)
                pc += 1
            elif t is Choice:
                step = ins.step
                if step.simultaneous is not None or self.check_hints:
                    break
                if step.lookahead:
                    if plain:
                        break
                    loops = fr.loops if len(flows) == 1 else None
                    at = (state.version, tuple(bindings.items()), len(state.frames) - 1 + len(flows), pc + 1,
                          tuple(loops.items()) if loops else None)
                    try:
                        hash(at)
                    except TypeError:
                        break
                    value = self._option_to_try(state, step, at, ctx)
                    if value is True:
                        return True
                    if value is not False:
                        bindings[step.name] = value[0]
                        pc = ins.targets[value[0]] if step.alternatives else pc + 1
                    elif ins.otherwise is not None:
                        pc = ins.otherwise
                    else:
                        raise DeadEnd(step)
                    continue
                if step.exists is not None and step.otherwise is None:
                    if step.exists(ctx):
                        return True
                    raise DeadEnd(step)
                if self.values(state, None, step, ctx):
                    return True
                if ins.otherwise is None:
                    raise DeadEnd(step)
                pc = ins.otherwise
            elif t is CallProc and not plain:   # (flows never call each other in a circle: the rulebook's check)
                flows[-1][1] = pc + 1
                code = self.calls[ins.proc][0]
                bindings = ins.bind(ins.args(ctx)) if ins.args is not None else {}
                pc = 0
                flows.append([code, pc, bindings])
                ctx.vars = bindings
                n = len(code)
            else:
                break
        flows[-1][1] = pc
        return False

    def _option_to_try(self, state, step, at, ctx):
        """A lookahead choice met in a probe (`at`: where, as feasible_key
        says it): True when one of its options is known to let the turn go
        on, False when all are known not to; else (option,), the first one
        not known either way, recorded as gone on with."""
        for v in self._in_probe_order(state, step, ctx):
            key = (step, v) + at
            answer = self._known(key)
            if answer is None:
                self._went_on.append(key)
                return (v,)
            if answer:
                return True
        return False

    def _in_probe_order(self, state, step, ctx):
        """A lookahead choice's options in the order a probe tries them: an
        optional choice's 'nothing' first, before the others are listed
        (its answer often settles the question at the cost of no listing)."""
        optional = step.optional is not None
        if optional:
            yield None
        for v in self.values(state, None, step, ctx):
            if v is not None or not optional:
                yield v

    def _known(self, key):
        """What this probe learnt of an option, else what is kept of it (None: nothing yet)."""
        learnt = self._learnt
        answer = learnt.get(key) if learnt else None     # (mostly empty: a probe seldom meets a dead end)
        return _FEASIBLE.get(key) if answer is None else answer

    def _go_on(self, state, fr, step, value, ctx) -> bool:
        """In a probe, at a lookahead choice: go on with this option unless it
        is known to lead nowhere (True: bound, or known to go on and so
        pending; False: known not to)."""
        key = feasible_key(state, step, value)
        if key is None:                          # (no key to learn its answer by: a probe of its own)
            ok = self._probe(state, step, value, ctx)
            if ok:
                state.pending = Pending(step, [value], None, fr.vars, state.player)
            return ok
        hit = self._known(key)
        if hit is False:
            return False
        if hit:
            state.pending = Pending(step, [value], None, fr.vars, state.player)
            return True
        self._went_on.append(key)
        self._bind_choice(fr, step, value)
        return True
