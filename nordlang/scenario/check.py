"""A loaded scenario: its script checked before it runs, then its moves
played and its expectations compared with the game (failures with places)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine.game import Game, compute_result
from ..errors import LangError, NordError, Pos, UsageError, did_you_mean
from ..lang.compiler import Compiler
from ..lang.parser import parse as parse_text
from .asked import check_legal, check_never_asked, check_options
from .chance import ChanceMismatch, fix, rolled, unused
from .names import _got, _items, _list, _location, _player, _same, _shown, grid_cells, is_grid
from .script_check import check_script
from .steps import (
    between_turns,
    check_events,
    check_moves,
    end_now,
    next_turn,
    nobody_decides,
    resume,
    trigger,
)


@dataclass
class Failure:
    pos: Pos
    what: str
    expected: str
    actual: str
    message: str = ""       # (an action's error, as run_moves reports it)

    def format(self) -> str:
        return f"{self.pos}: {self.what}\n      expected: {self.expected}\n      actual:   {self.actual}"


@dataclass
class Report:
    path: str
    description: str
    failures: list = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


class Scenario:
    """A loaded scenario: rules, a game at the position, the script."""

    def __init__(self, path, data, src, rules, game, branch: str | None = None):
        self.path, self.data, self.src, self.rules, self.game = str(path), data, src, rules, game
        self.branch = branch
        self.put_aside = []         # what triggered flows interrupted (frames, a choice pending, the turn stop)
        self.events_seen = 0        # the game's events before the last step that acted
        self.first_turn_due = False     # stopped before the first turn (stop_before_first_turn)

    def _repr_svg_(self) -> str:
        """Its picture, for a notebook (nordlang/notebook.py)."""
        from ..notebook import svg
        return svg(self)

    # ---------------- branches ----------------
    @property
    def branches(self) -> list[str]:
        """The names of the file's branches, in file order ([] when it has none)."""
        return list(self.data.get("branches") or {})

    def for_branch(self, name: str) -> Scenario:
        """The scenario of one branch: the same position (a copy of the game, so
        each branch plays on its own), its 'moves' and then the branch's."""
        if name not in self.branches:
            raise UsageError(f"{self.path} has no branch {name!r}" + ("" if self.branches else " (it has no branches)"),
                             hint=did_you_mean(name, self.branches) or ("its branches: " + ", ".join(self.branches)
                                                                      if self.branches else None))
        return self.copy(name)

    def copy(self, branch: str | None = None) -> Scenario:
        """This scenario (or one of its branches) on its own copy of the game."""
        game = Game(self.rules, self.game.seed, self.game.state.clone(keep_log=True))
        game.machine.ask_forced = self.game.machine.ask_forced       # (the stops the scenario asks for)
        game.machine.keep_turn_start = True
        game.machine.turn_stop = self.game.machine.turn_stop
        sc = Scenario(self.path, self.data, self.src, self.rules, game, branch if branch else self.branch)
        sc.first_turn_due = self.first_turn_due
        return sc

    @property
    def name(self) -> str:
        """The scenario's name in a report: its path, with '::branch' for a branch."""
        return self.path + (f"::{self.branch}" if self.branch is not None else "")

    def script(self) -> list[tuple[tuple, object]]:
        """(path in the file, entry) of each entry this scenario plays: 'moves',
        then (for a branch) the branch's 'moves'."""
        out = [(("moves", i), step) for i, step in enumerate(self.data.get("moves", []) or [])]
        if self.branch is not None:
            mine = self.data["branches"][self.branch].get("moves") or []
            out += [(("branches", self.branch, "moves", i), step) for i, step in enumerate(mine)]
        return out

    def final_expect(self) -> tuple[tuple, dict] | None:
        """(path, mapping) of the expectation checked at the end, if any."""
        if self.branch is not None:
            b = self.data["branches"][self.branch]
            return (("branches", self.branch, "expect"), b["expect"]) if "expect" in b else None
        return (("expect",), self.data["expect"]) if "expect" in self.data else None

    def check_script(self) -> None:
        """Before anything runs: every move in notation, every expression resolves (script_check.py)."""
        check_script(self)

    # ---------------- running ----------------
    def run_moves(self, upto: int | None = None) -> str | None:
        """Play the scripted moves only (of the first `upto` entries of 'moves',
        else all; expectations are not checked); an error message if one
        cannot be played."""
        for i, (path, step) in enumerate(self.script()[:upto]):
            failure = self.act(i, step, path)
            if failure is not None:
                return f"{failure.pos}: {failure.what}: {failure.message}"
        return None

    def act(self, i: int, step, path=None) -> Failure | None:
        """Play entry i of the script (at `path` in the file; default
        ('moves', i)) if it acts (a move, a `run` of a flow, a `next_turn`);
        a Failure if it cannot. The events it causes are those the next
        expectation's `events` sees."""
        g = self.game
        if isinstance(step, dict) and "expect" in step:
            return None
        path = ("moves", i) if path is None else path
        if isinstance(step, dict) and "chance" in step:
            fix(self, step["chance"], path + ("chance",))       # (outcomes for what follows: no action)
            return None
        self.events_seen = len(g.state.events)
        pos = self.src.pos(path)
        if isinstance(step, str):
            what, expected = f"move {i + 1} {step!r} cannot be played", "a legal move"
        elif "run" in step:
            what, expected = f"step {i + 1} run {step['run']!r} cannot be run", "a flow that runs"
        elif "end_game" in step:
            what, expected = f"step {i + 1} end_game cannot be taken", "a game that goes on"
        else:
            what, expected = f"step {i + 1} next_turn cannot be taken", "a stop between turns"
        try:
            if isinstance(step, str):
                if between_turns(g.state):      # (a stop between turns: the move is the next turn's)
                    self._next_turn()
                g.play(step)
            elif "run" in step:
                trigger(self, step["run"], path + ("run",))
            elif "end_game" in step:
                end_now(g)
            elif between_turns(g.state):
                self._next_turn()
            else:
                now = f"the pending choice is {g.choice!r}" if g.choice else "the game is over"
                return Failure(pos, what, expected, f"the turn goes on: {now}", f"the turn goes on: {now}")
            resume(self)
        except ChanceMismatch as e:
            raise e.error from None
        except NordError as e:
            return Failure(pos, what, expected, e.message + (f" ({e.hint})" if e.hint else ""), e.message)
        return None

    def _next_turn(self) -> None:
        """Begin the next turn (the scenario's first, after a stop before it)."""
        first, self.first_turn_due = self.first_turn_due, False
        next_turn(self.game, first=True if first else None)

    def leave_stop(self) -> None:
        """At a stop between turns (or before the first), begin the next turn
        as the script's next move would: a move is then judged at the
        decision it answers (`nord explain`)."""
        if between_turns(self.game.state):
            self._next_turn()

    def run(self) -> Report:
        """The report of the script; a file with branches and no branch chosen
        runs every branch (each on its own copy) and reports all failures."""
        if self.branch is None and self.branches:
            rep = Report(self.path, self.description)
            for name in self.branches:
                rep.failures.extend(self.for_branch(name).run().failures)
            return rep
        rep = Report(self.name, self.description)
        for i, (path, step) in enumerate(self.script()):
            if isinstance(step, dict) and "expect" in step:
                self.check(step["expect"], path + ("expect",), rep)
                continue
            failure = self.act(i, step, path)
            if failure is not None:
                rep.failures.append(failure)
                return rep
        left = unused(self.game)
        if left is not None:
            value, where = left
            rep.failures.append(Failure(self.src.pos(where), "a fixed chance outcome is used",
                                        f"a chance event that takes {_shown(self.rules, value)}",
                                        "no chance event came for it by the end of the script"))
        final = self.final_expect()
        if final is not None:
            self.check(final[1], final[0], rep)
        return rep

    @property
    def description(self) -> str:
        """The first sentence of the description (a branch's own, if it has one)."""
        own = self.data["branches"][self.branch].get("description") if self.branch is not None else None
        return str(own or self.data.get("description", "")).strip().split(". ")[0].split("\n")[0]

    def check(self, exp: dict, path, rep: Report) -> None:
        g, rules = self.game, self.rules
        st = g.state
        fail = rep.failures

        def at(*p):
            return self.src.pos(path + p)
        for color, n in (exp.get("points") or {}).items():
            p = self._player(color, path + ("points", color))
            got = st.counters.get(("points", p), 0)
            if got != n:
                fail.append(Failure(at("points", color), f"points of {color}", str(n), str(got)))
        for color, by in (exp.get("points_from") or {}).items():
            p = self._player(color, path + ("points_from", color))
            for source, n in by.items():
                got = st.counters.get(("points", p, source), 0)
                if got != n:
                    fail.append(Failure(at("points_from", color, source), f"{source} points of {color}", str(n),
                                        str(got)))
        for loc, spec in (exp.get("at") or {}).items():
            key = self._location(loc, path + ("at", loc))
            if is_grid(rules, key):
                self._check_grid(key, loc, spec, path + ("at", loc), rep)
                continue
            want = self._items(spec, path + ("at", loc))
            if key in st.pools or key not in st.decks and key not in st.tracks:     # (a pool, or a cell)
                got = _pieces(rules, st.pools.get(key) or {})
                want_s = sorted(rules.show(i) for i in want)
            elif key in st.tracks and None in want:
                # a track listed with empty slots ('-'), as a position lists it: slot by slot
                got = _slots(rules, st.tracks[key])
                want_s = _slots(rules, want)
            else:
                got = [rules.show(i) for i in st.items(key)]
                want_s = [rules.show(i) for i in want]
            if got != want_s:
                fail.append(Failure(at("at", loc), f"pieces at {loc}", _list(want_s), _list(got)))
        pending = st.pending
        if "choice" in exp:
            got = pending.step.name if pending else None
            if got != exp["choice"]:
                fail.append(Failure(at("choice"), "the pending choice", str(exp["choice"]), str(got)))
        if "player" in exp:
            got = rules.color(pending.player) if pending else f"nobody ({nobody_decides(self)})"
            if got != exp["player"]:
                fail.append(Failure(at("player"), "who decides now", exp["player"], got))
        check_legal(self, exp, at, fail, Failure)
        check_moves(self, exp, at, fail, Failure)
        check_events(self, exp, at, fail, Failure)
        for name, want in (exp.get("rolls") or {}).items():
            want_s = [str(v) for v in (want if isinstance(want, list) else [want])]
            got = rolled(self, name)
            if got != want_s:
                fail.append(Failure(at("rolls", name), f"the outcomes of roll {name!r} since the previous step",
                                    _list(want_s), _list(got)))
        check_options(self, exp, at, fail, Failure)
        check_never_asked(self, exp, at, fail, Failure)
        for i, text in enumerate(exp.get("holds") or []):
            fn = self._compile(text, path + ("holds", i))
            val = self._eval(fn, path + ("holds", i))
            if val is not True:
                fail.append(Failure(at("holds", i), f"{text!r} holds", "true",
                                    _got(rules, val) + ("" if isinstance(val, bool) else " (not true or false: "
                                                        "'holds' takes conditions; 'values' compares a value)")))
        for text, want in (exp.get("values") or {}).items():
            fn = self._compile(text, path + ("values", text), key=True)
            val = self._eval(fn, path + ("values", text))
            if not _same(rules, val, want):
                fail.append(Failure(self.src.pos(path + ("values", text), key=True), f"value of {text}",
                                    _shown(rules, want), _got(rules, val, want)))
        if "over" in exp and exp["over"] != st.over:
            fail.append(Failure(at("over"), "the game is over", str(exp["over"]).lower(), str(st.over).lower()))
        if "winner" in exp:
            want = sorted(exp["winner"])
            if not st.over:
                fail.append(Failure(at("winner"), "winner", _list(want), "the game is not over"))
            else:
                got = sorted(rules.color(w) for w in compute_result(rules, st).winners)
                if got != want:
                    fail.append(Failure(at("winner"), "winner", _list(want), _list(got)))
        if "draw" in exp:
            if not st.over:
                fail.append(Failure(at("draw"), "a draw", str(exp["draw"]).lower(), "the game is not over"))
            else:
                got = compute_result(rules, st).draw
                if got != exp["draw"]:
                    fail.append(Failure(at("draw"), "a draw", str(exp["draw"]).lower(), str(got).lower()))

    def _check_grid(self, key, loc, spec, path, rep: Report) -> None:
        """A whole grid's expectation: the cells it names hold what they name
        (each a failure of its own), and every other cell is empty."""
        rules, st = self.rules, self.game.state
        cells = grid_cells(rules, key, loc, spec, self.src, path)
        for cell, (cell_spec, cell_path) in cells.items():
            want = sorted(rules.show(i) for i in _items(rules, cell_spec, self.src, cell_path))
            got = _pieces(rules, st.pools.get(cell) or {})
            if got != want:
                rep.failures.append(Failure(self.src.pos(cell_path), f"pieces at {rules.show(cell)}", _list(want),
                                            _list(got)))
        extra = [c for c in sorted(st.cells.get(key, ())) if c not in cells and st.pools.get(c)]
        if extra:
            rep.failures.append(Failure(self.src.pos(path), f"cells of {loc} beyond those listed",
                                        "none (every cell not listed is empty)",
                                        ", ".join(f'"{c[2]},{c[3]}": {_list(_pieces(rules, st.pools[c]))}'
                                                  for c in extra)))

    def _compile(self, text, path, key=False):
        info_path = path
        if key:
            # a key's text: locate within the key
            def locate(ln, c):
                return self.src.locate_key(path, ln, c)
        else:
            def locate(ln, c):
                return self.src.locate(info_path, ln, c)
        try:
            tree = parse_text(text, "expr", locate=locate)
        except LangError as e:
            e.source_line = self.src.line(e.pos.line) if e.pos and e.pos.line else None
            raise
        comp = Compiler(self.rules.names, locate)
        fn = comp.expr(tree, frozenset())
        if comp.errors:
            e = comp.errors[0]
            e.source_line = self.src.line(e.pos.line) if e.pos.line else None
            raise e
        return fn

    def _eval(self, fn, path):
        try:
            return fn(self.rules.ctx(self.game.state))
        except NordError as e:
            if e.source_line is None and e.pos and e.pos.line:
                e.source_line = self.src.line(e.pos.line)
            raise

    # ---------------- names in the file ----------------
    def _player(self, color, path):
        return _player(self.rules, color, self.src, path)

    def _location(self, text, path):
        return _location(self.rules, text, self.src, path)

    def _items(self, spec, path):
        return _items(self.rules, spec, self.src, path)


def _pieces(rules, pool) -> list:
    """A pool's pieces, one text each (sorted)."""
    return sorted(rules.show(i) for i, n in pool.items() for _ in range(n))


def _slots(rules, track) -> list:
    """A track's slots, '-' for an empty one, up to its last filled slot."""
    out = [rules.show(i) if i is not None else "-" for i in track]
    while out and out[-1] == "-":
        out.pop()
    return out
