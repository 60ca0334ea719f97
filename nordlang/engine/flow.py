"""The turn structure as a small resumable machine.

A rulebook's flow is a tree of steps (do, let, if, while, for, choose,
call). Each flow is laid out once as a flat program (branches and loops
become jumps, a choice's alternatives follow it), and the machine runs
programs until a player must decide, then stops with a pending choice. The
position is a stack of frames, one per flow being run (its program
counter, variables and loop counters), so a state can be copied and
resumed (search agents, lookahead, replays).

A choice with one option is taken at once (recorded as forced). A choice
marked `lookahead` keeps only the options from which the turn can go on:
that is how "a tile is played only when a placement follows" is said in
data instead of in code.
"""

from __future__ import annotations

from ..errors import RulesError
from ..lang.budget import LIMIT as WORK_LIMIT
from ..lang.budget import Budget
from ..lang.compiler import Ctx
from ..lang.reads import TURN
from .chance import roll
from .frames import (  # noqa: F401  (the flow's parts, named from here too)
    Frame,
    Pending,
    _InPlace,
    occupancy_at_start,
    occupancy_is_enough,
    option_text,
    record_choice,
    turn_start,
)
from .lookahead import Lookahead
from .loops import loop_step
from .options import Options
from .program import (  # noqa: F401
    Alternative,
    Branch,
    CallProc,
    Choice,
    Choose,
    DeadEnd,
    Do,
    ForEach,
    If,
    Jump,
    Let,
    Loop,
    Roll,
    Step,
    While,
    _Mutates,
    compiled_flows,
    flatten,
    programs,
)
from .simultaneous import SecretChoices

CHECK_HINTS = False         # verify every 'exists' hint against its options (nord validate --simulate)
STEP_BUDGET = 1_000_000     # flow steps between two decisions before the rules count as runaway


# ---------------- the machine ----------------
class Machine(Lookahead, Options):
    """Runs a rulebook's flow over states (lookahead probes: lookahead.py; a choice's options: options.py)."""

    def __init__(self, rules):
        self.rules = rules
        self.programs, self.calls = compiled_flows(rules)    # (calls: a flow's program and parameters by its name)
        self.turn_program = self.programs["(turn)"]
        self.secret = SecretChoices(rules)
        # Stops a scenario asks for (a game never sets them, so its moves and replays are unchanged):
        self.ask_forced = frozenset()   # choices asked even with one option (True: every choice)
        self._keep_turn_start = rules.uses_turn_start    # a snapshot of each turn's start (at_turn_start)
        # ... made by: only the occupancy when that is all the rules' at_turn_start reads
        self._snapshot = occupancy_at_start if self._keep_turn_start and occupancy_is_enough(rules) else turn_start
        self._turn_stop = None          # "quiet": stop when a turn in which nobody decided ends;
                                        # "always": stop when the flow being run ends (a triggered flow)
        self._next_turns()

    @property
    def check_hints(self) -> bool:
        """Whether probes verify each 'exists' hint against its options (CHECK_HINTS)."""
        return CHECK_HINTS

    @property
    def keep_turn_start(self) -> bool:
        return self._keep_turn_start

    @keep_turn_start.setter
    def keep_turn_start(self, keep) -> None:
        self._keep_turn_start = keep
        self._snapshot = turn_start         # (a scenario's expectations may read anything of it)
        self._next_turns()

    @property
    def turn_stop(self):
        return self._turn_stop

    @turn_stop.setter
    def turn_stop(self, stop) -> None:
        self._turn_stop = stop
        self._next_turns()

    def _next_turns(self) -> None:
        """Whether a turn that ends goes straight on to the next player's in
        `run` (begin_turn's common case, written out there)."""
        self.next_turns = self._turn_stop is None

    def start(self, state, run=True):
        """Create the zones the rulebook declares, then run its setup (and on)."""
        rules = self.rules
        for name, z in rules.zones.items():
            keys = [(name, p) for p in rules.player_range] if z.get("per_player") else [(name, None)]
            for k in keys:
                if z["type"] == "pool":
                    state.pools[k] = {}
                elif z["type"] == "deck":
                    state.decks[k] = []
                elif z["type"] == "track":
                    state.tracks[k] = [None] * len(z.get("values", ()))
                # (a grid's cells are made as items first come to them)
        state.pools.update({s: {} for s in rules.grid.spaces})
        state.pools.update({sid: {} for sid in rules.grid.structures})
        state._mine.update(state.pools)         # (all made here: this state's own, changed in place)
        state.frames = [Frame(self.programs["(setup)"], {})]
        if run:
            self.run(state)

    def begin_turn(self, state, first=False, budget=None):
        rules = self.rules
        if not first:
            if rules.in_turn_order:
                state.player = (state.player + 1) % rules.num_players
            else:
                state.player = self._next_player(Ctx(state, rules, None, budget))
        state.turn += 1
        state.touch("turn", state.player, state.turn)      # (whose turn is a part of the position: lang/reads.py)
        state.turn_start = self._snapshot(state) if self._keep_turn_start else None
        state.frames = [Frame(self.turn_program, {})]

    def run(self, state, probe=False, stop=False, work=None):
        """Advance until a decision is pending or the game is over.

        In a probe (lookahead), or with `stop`, stop when the current turn
        (or the setup) ends. Every expression run until then draws on one
        budget of work (lang/budget.py), `work`: a probe is given its
        decision's; otherwise a fresh one.
        """
        rules = self.rules
        if work is None:
            # a run of its own (not a probe's): the state's context for its runs, with a fresh budget
            # (made once: a run from a decision to the next is often a few steps; it refers to the
            # state only while it runs, so a state dropped is freed at once, in no cycle)
            ctx = state.run_ctx
            if ctx is None or ctx.rules is not rules:
                ctx = state.run_ctx = Ctx(None, rules, None, Budget())
            ctx.state = state
            work = ctx.budget
            work.left = WORK_LIMIT
            try:
                return self._run(state, probe, stop, work, ctx)
            finally:
                ctx.state = None
        return self._run(state, probe, stop, work, Ctx(state, rules, None, work))

    def _run(self, state, probe, stop, work, ctx):
        budget = STEP_BUDGET
        rules = self.rules
        calls = self.calls
        next_turns = self.next_turns and not (probe or stop)
        turn_program = self.turn_program
        in_order = rules.in_turn_order
        while state.pending is None:
            if state.over:
                state.frames = []
                return
            frames = state.frames
            if not frames:
                if probe or stop or self.turn_stop is not None and self._stops_here(state):
                    return
                self.begin_turn(state, first=state.turn == 0, budget=work)
                frames = state.frames
            fr = frames[-1]
            code = fr.code
            n = len(code)
            ctx.vars = fr.vars
            pc = fr.pc
            ins = None
            try:
                # Run the frames' instructions until a decision, an empty stack of
                # frames or the game's end (written out here: this loop is the hottest
                # code; fr.pc is brought up to date before anything that may read it).
                # Steps are counted where a flow can run away: a loop's pass, a call,
                # a flow's end, a turn's start (the others only run forward).
                while True:
                    if pc >= n:
                        budget -= 1
                        if budget < 0:
                            raise self._runaway(code, pc)
                        done = frames.pop()          # the flow is done: back to its caller
                        if frames:
                            if state.probing:
                                self._resume(state)
                            fr = frames[-1]
                            code = fr.code
                            n = len(code)
                            ctx.vars = fr.vars
                            pc = fr.pc
                            continue
                        if next_turns and state.turn:
                            # the next player's turn (begin_turn's common case, its touch written out)
                            p = state.player = (state.player + 1) % rules.num_players if in_order \
                                else self._next_player(ctx)
                            t = state.turn = state.turn + 1
                            state.version = state.parts[TURN] = hash((state.version, "turn", p, t))
                            state.turn_start = self._snapshot(state) if self._keep_turn_start else None
                            fr = done                    # (the frame again, for the turn from its start:
                            fr.code, fr.pc, fr.loops = turn_program, 0, None    # nothing else holds it)
                            fr.vars = ctx.vars = {}
                            frames.append(fr)
                            code = turn_program
                            n = len(code)
                            pc = 0
                            continue
                        break
                    ins = code[pc]
                    pc += 1
                    t = type(ins)
                    if t is Branch:
                        if not ins.cond(ctx):
                            pc = ins.to
                    elif t is Choice:
                        fr.pc = pc
                        self._choose(state, fr, ins, probe, ctx)
                        if state.pending is not None:
                            break
                        pc = fr.pc                   # taken at once (one option, or 'otherwise'): go on here
                    elif t is Do:
                        if state.probing:
                            fr.pc = pc - 1           # a probe in place must not change the position: it
                            raise _Mutates()         # goes on from this step on a light copy (lookahead.py)
                        if state.shared:
                            state.unshare()          # a light probe copy is about to change the position
                        fr.pc = pc
                        ins.run(ctx)
                        if state.over:
                            break
                    elif t is Jump:
                        pc = ins.to
                    elif t is Let:
                        fr.vars[ins.name] = ins.expr(ctx)
                    elif t is Loop:
                        budget -= 1
                        if budget < 0:
                            raise self._runaway(code, pc - 1)
                        fr.pc = pc
                        loop_step(fr, ins, ctx)
                        pc = fr.pc
                    elif t is CallProc:
                        budget -= 1
                        if budget < 0:
                            raise self._runaway(code, pc - 1)
                        fr.pc = pc
                        callee = calls[ins.proc][0]
                        fr = Frame(callee, ins.bind(ins.args(ctx)) if ins.args is not None else {})
                        frames.append(fr)
                        code = callee
                        n = len(code)
                        ctx.vars = fr.vars
                        pc = 0
                    elif t is Roll:
                        if state.probing:
                            fr.pc = pc - 1           # a chance event uses up the source: not in place
                            raise _Mutates()
                        if state.shared:
                            state.unshare()
                        fr.pc = pc
                        roll(state, fr, ins, ctx)
                    else:  # pragma: no cover
                        raise AssertionError(ins)
            except RecursionError:
                raise RulesError("the flow nests too deeply", ins.pos if ins is not None else None) from None

    @staticmethod
    def _runaway(code, pc) -> RulesError:
        return RulesError(f"the rules ran {STEP_BUDGET} steps without asking for a decision: a runaway rulebook",
                          code[min(pc, len(code) - 1)].pos if code else None,
                          hint="look for a loop with a very large limit or collection")

    def _stops_here(self, state) -> bool:
        """A scenario's stop where a turn ends: always, or when nobody decided in it."""
        if self.turn_stop == "always":
            return True
        for turn, _who, _choice, _text, forced in reversed(state.history):
            if turn != state.turn:
                break
            if not forced:
                return False
        return state.turn > 0

    @staticmethod
    def _resume(state):
        """A probe in place back in a frame of the position's own: copied before it runs on."""
        frames, p = state.frames, state.probing
        if p.is_own(frames[-1]):
            frames[-1] = frames[-1].copy(p.memo)

    def _choose(self, state, fr, ins, probe, ctx):
        step = ins.step
        if step.simultaneous is not None:
            if state.probing and not probe:
                raise _Mutates()             # (a lone option run on for real meets secret choices: lone.py)
            return self.secret.ask(self, state, fr, step, probe, ctx)
        if probe and step.exists is not None and not step.lookahead and step.otherwise is None:
            # a probe only asks whether the turn can go on past this choice
            ok = step.exists(ctx)
            if CHECK_HINTS and bool(ok) != bool(self.values(state, fr, step, ctx)):
                raise RulesError(f"the 'exists' test of choice {step.name!r} says {bool(ok)}, but its options "
                                 f"say {not ok}", step.pos, hint="'exists' must be true exactly when 'from' "
                                 "gives at least one option")
            if not ok:
                raise DeadEnd(step)
            state.pending = Pending(step, (), None, fr.vars, state.player)
            return
        if ins.plain:                        # (asked as it comes: the general case below comes to this)
            if step.alternatives:
                vals = self.values(state, fr, step, ctx)
            else:
                vals = step.source(ctx)
                if type(vals) is not tuple or not step.distinct or step.optional is not None:
                    vals = self.from_source(step, vals)      # (else a distinct tuple is its options)
            if len(vals) > 1:
                if probe:
                    state.pending = Pending(step, vals, None, fr.vars, state.player)
                    return
                if ins.check_seen:
                    self.check_seen(state, step, vals, state.player)
                state.pending = Pending(step, vals, None, fr.vars, state.player, self.rules.show)
                return
        elif probe and step.lookahead:
            # a probe only asks whether the turn can go on: it goes on with the first option not
            # known to lead nowhere (lookahead.py)
            for v in self._in_probe_order(state, step, ctx):
                if self._go_on(state, fr, step, v, ctx):
                    return
            vals = ()
        else:
            vals = self.values(state, fr, step, ctx)
            if step.lookahead and len(vals) > 0:
                lone = self._run_lone(state, fr, ins, vals[0], ctx) if len(vals) == 1 else None   # (lone.py)
                if lone:
                    return
                vals = self._feasible_options(state, step, vals, ctx) if lone is None else ()
        if not vals:
            if ins.otherwise is not None:
                fr.pc = ins.otherwise
                return
            raise DeadEnd(step)
        if probe and not step.lookahead:
            # a probe only asks whether the turn can go on: it can
            state.pending = Pending(step, vals, None, fr.vars, state.player)
            return
        who = state.player if step.by is None else self._decider(step, ctx)
        if ins.check_seen:
            self.check_seen(state, step, vals, who)
        if len(vals) == 1 and (probe or not self.ask_forced or self.ask_forced is not True
                               and step.name not in self.ask_forced):
            self._bind_choice(fr, step, vals[0])
            if not probe:
                record_choice(state, who, step.name, option_text(step, vals[0], self.rules.show), True)
            return
        state.pending = Pending(step, vals, None, fr.vars, who, self.rules.show)

    def ask_again(self, state):
        """Ask the pending choice anew on this position: a sample whose unseen
        items were dealt afresh, where another's decision takes its options
        from the items the sample gave him (the real ones are not there).
        DeadEnd when none is left to him."""
        fr = state.frames[-1]
        state.pending = None
        fr.pc -= 1                       # (back to the choice: the instruction just run)
        self.run(state)

    def choose(self, state, index: int):
        """Take option `index` of the pending choice and run on."""
        p = state.pending
        state.pending = None
        fr = state.frames[-1]
        step = p.step
        value = p.options[index]
        texts = p._texts                 # (record_choice and Pending.text written out)
        if texts is not None:
            text = texts[index]
        elif value is None and step.optional is not None:
            text = step.optional
        else:
            text = p.show(value)
        turn, who, name = state.turn, p.player, step.name
        state.history.append((turn, who, name, text, False))
        state.events.append(("choice", who, name, text, False, turn))
        state.moves_made += 1
        if step.simultaneous is not None:
            self.secret.answer(state, fr, step, p.options[index], p.player, len(state.history) - 1)
        else:
            fr.vars[name] = value        # (_bind_choice written out)
            if step.alternatives:
                fr.pc = fr.code[fr.pc - 1].targets[value]
        try:
            self.run(state)
        except DeadEnd as e:
            raise RulesError(f"the rules demand a choice {e.step.name!r} here, but it has no option",
                             e.step.pos) from None
