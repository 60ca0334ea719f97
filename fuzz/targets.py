"""What the harness fuzzes: one target per input path of nordlang, each a
hypothesis strategy (from tests/fuzz_strategies.py) and a function that
feeds one drawn input to the code under test.

A target function returns normally when the input was handled as the
project promises: accepted, or refused with a NordError (whose message
must format), or by the CLI with exit status 0, 1 or 2. Any other
exception propagates and is a finding (the runner records it with its
input). Targets run in a worker whose current folder is a scratch folder
(see Workspace): nothing outside it is written.
"""

from __future__ import annotations

import contextlib
import io
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))         # the shared strategies

from fuzz_strategies import (  # noqa: E402
    REPLAY_TEXTS,
    RULEBOOK,
    RULEBOOK_TEXTS,
    SCENARIO_FILES,
    SCENARIO_TEXTS,
    VARIANT_TEXTS,
    VARIANTS,
    command_line,
    game_positions,
    mutated,
    mutated_nordlang,
    mutated_rulebook_file,
)
from hypothesis import strategies as st  # noqa: E402

import nordlang  # noqa: E402
from nordlang.errors import NordError  # noqa: E402


class Rejected(Exception):
    """An input handled against the project's promise without an exception
    of its own (a CLI exit status outside 0/1/2, an error without position)."""


def refused(e: NordError) -> None:
    """A NordError is a clean refusal if it formats into a message."""
    text = e.format()
    if not isinstance(text, str) or not text:
        raise Rejected(f"{type(e).__name__} formats to {text!r}")


class Workspace:
    """The worker's scratch folder: a copy of the rulebook, files the CLI
    targets name, restored before each input that may write into it."""

    def __init__(self, root: Path):
        self.root = root
        self.rules = root / "rules"
        self.files: dict[str, str] = {}
        self.restore()

    def restore(self) -> None:
        if self.rules.exists() and all((self.rules / n).read_text(encoding="utf-8", errors="replace") == t
                                       for n, t in RULEBOOK_TEXTS.items()):
            extra = None
        else:
            extra = True
        if extra:
            shutil.rmtree(self.rules, ignore_errors=True)
            shutil.copytree(RULEBOOK, self.rules)
        for name in ("scenario.yaml", "variant.yaml", "replay.jsonl", "gen.yaml", "out.svg", "log.jsonl"):
            p = self.root / name
            if p.is_dir():
                shutil.rmtree(p)
        (self.root / "scenario.yaml").write_text(SCENARIO_TEXTS[0], encoding="utf-8")
        (self.root / "variant.yaml").write_text(VARIANT_TEXTS["no-storm.yaml"], encoding="utf-8")
        (self.root / "replay.jsonl").write_text(REPLAY_TEXTS[0], encoding="utf-8")
        (self.root / "empty").mkdir(exist_ok=True)
        mixed = self.root / "mixed"
        if not mixed.is_dir():
            mixed.mkdir()
            for name in ("no-storm.yaml", "short-game.yaml"):
                shutil.copy(VARIANTS / name, mixed / name)
            shutil.copy(SCENARIO_FILES[0], mixed / "s.yaml")

    def write(self, name: str, text: str) -> Path:
        p = self.root / name
        if p.is_dir():
            shutil.rmtree(p)
        p.write_text(text, encoding="utf-8")
        return p

    def paths(self) -> list[str]:
        """What a generated command line may name: files of every kind, folders, names of bundled
        variants, and paths that do not exist."""
        return ["rules", "rules/nord.yaml", "rules/turn.yaml", "scenario.yaml", "variant.yaml", "replay.jsonl",
                "gen.yaml", "empty", "mixed", "missing.yaml", "missing/", "no-storm", "short-game", "nostorm",
                ".", "out.svg", "log.jsonl", "/dev/null", "", "-", "rules/../rules", "é.yaml"]


# ---------------------------------------------------------------------------
# the targets: (strategy, function(input, context))
# ---------------------------------------------------------------------------
class Context:
    """What the targets share in a worker: the workspace, rules compiled once, positions of a game."""

    def __init__(self, root: Path):
        self.ws = Workspace(root)
        self._rules = None
        self._positions = None

    @property
    def rules(self):
        if self._rules is None:
            self._rules = nordlang.load_rules(players=3)
        return self._rules

    @property
    def positions(self):
        if self._positions is None:
            self._positions = game_positions()
        return self._positions


def yaml_target(text, ctx):
    from nordlang.rules.yamlpos import load_yaml
    try:
        load_yaml("fuzz.yaml", text)
    except NordError as e:
        if e.pos is None or e.pos.file != "fuzz.yaml":
            raise Rejected(f"a YAML error without the file's position: {e.format()}") from None
        refused(e)


def rulebook_target(case, ctx):
    name, text, players = case
    path = ctx.ws.rules / name
    path.write_text(text, encoding="utf-8")
    try:
        nordlang.load_rules(ctx.ws.rules, players=players)
    except NordError as e:
        refused(e)
    finally:
        path.write_text(RULEBOOK_TEXTS[name], encoding="utf-8")


def variant_target(case, ctx):
    text, players = case
    path = ctx.ws.write("variant-fuzz.yaml", text)
    try:
        nordlang.load_rules(players=players, variants=[path])
    except NordError as e:
        refused(e)


def nordlang_target(case, ctx):
    from nordlang.errors import LangError
    from nordlang.lang.compiler import Compiler
    from nordlang.lang.parser import parse
    text, mode, params = case
    try:
        tree = parse(text, mode)
    except LangError as e:
        if e.pos is None or e.pos.line is None or e.pos.col is None:
            raise Rejected(f"a parse error without line and column: {e.format()}") from None
        refused(e)
        return
    comp = Compiler(ctx.rules.names)
    scope = frozenset(params)
    try:
        comp.block(tree, scope) if mode == "effects" else comp.expr(tree, scope)
    except NordError as e:
        refused(e)
    for e in comp.errors:
        if not isinstance(e, NordError) or e.pos is None or e.pos.line is None:
            raise Rejected(f"a compile error without line: {e!r}")
        refused(e)


def scenario_target(case, ctx):
    from nordlang.explain import explain
    from nordlang.scenario import load_scenario
    text, move, how = case
    path = ctx.ws.write("scenario-fuzz.yaml", text)
    try:
        sc = load_scenario(path)
        if how == "run":
            for failure in sc.run().failures:
                failure.format()
        else:
            if sc.run_moves() is None:
                legal, lines = explain(sc.game, move)
                assert isinstance(legal, bool) and all(isinstance(x, str) for x in lines)
    except NordError as e:
        refused(e)


def replay_target(case, ctx):
    from nordlang.engine.record import read_replay
    text, via_cli = case
    path = ctx.ws.write("replay-fuzz.jsonl", text)
    try:
        read_replay(path)
    except NordError as e:
        refused(e)
    if via_cli:
        _cli(["replay", str(path)])


def move_target(move, ctx):
    try:
        parsed = nordlang.Move.parse(move)
    except NordError as e:
        refused(e)
        return
    if nordlang.Move.parse(str(parsed)) != parsed:
        raise Rejected(f"{move!r} reads as {parsed!r}, which prints as {str(parsed)!r}, which reads otherwise")


def play_target(case, ctx):
    index, move = case
    game, moves = ctx.positions[index % len(ctx.positions)]
    g = game.clone()
    try:
        g.play(move)
    except NordError as e:
        refused(e)
        return
    if str(nordlang.Move.parse(move)) not in moves:
        raise Rejected(f"{move!r} was played but is not among the legal moves")


def cli_target(case, ctx):
    argv, text = case
    ctx.ws.restore()
    ctx.ws.write("gen.yaml", text)
    _cli(argv)


def _cli(argv):
    from nordlang.cli import main
    out, err = io.StringIO(), io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.StringIO("")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main(argv)
    except SystemExit as e:
        if e.code not in (0, 2, None):
            raise Rejected(f"exit status {e.code!r}: {err.getvalue()[-500:]}") from None
        return
    finally:
        sys.stdin = stdin
    if rc not in (0, 1, 2):
        raise Rejected(f"exit status {rc!r}: {err.getvalue()[-500:]}")
    if "Traceback" in out.getvalue() + err.getvalue():
        raise Rejected("a traceback printed: " + (out.getvalue() + err.getvalue())[-800:])


_ALL_YAML = list(RULEBOOK_TEXTS.values()) + SCENARIO_TEXTS + list(VARIANT_TEXTS.values())
_MOVES = st.one_of(st.text(max_size=12), st.none(), st.integers(), st.binary(max_size=4), st.lists(st.text()),
                   mutated(["place c3,c4", "play none", "action challenge", "attack A>B", "post c2-d2"], 3))


def strategies(ctx: Context) -> dict:
    """target name -> (strategy, function)."""
    players = st.sampled_from([2, 3, 4])
    moves_text = st.one_of(st.text(max_size=12), mutated(["place c3,c4", "play none", "place c2"], 3))
    return {
        "yaml": (mutated(_ALL_YAML, 6), yaml_target),
        "rulebook": (st.tuples(mutated_rulebook_file(), players).map(lambda c: (*c[0], c[1])), rulebook_target),
        "variant": (st.tuples(mutated(list(VARIANT_TEXTS.values()), 5), players), variant_target),
        "nordlang": (mutated_nordlang(), nordlang_target),
        "scenario": (st.tuples(mutated(SCENARIO_TEXTS, 5), moves_text, st.sampled_from(["run", "explain"])),
                     scenario_target),
        "replay": (st.tuples(mutated(REPLAY_TEXTS, 4), st.integers(0, 19).map(lambda n: n == 0)), replay_target),
        "move": (_MOVES, move_target),
        "play": (st.tuples(st.integers(0, 20), st.one_of(
            st.integers(0, 20).flatmap(lambda i: mutated(ctx.positions[i % len(ctx.positions)][1], 3)),
            st.text(max_size=12), st.none(), st.integers())), play_target),
        "cli": (st.tuples(command_line(ctx.ws.paths()), mutated(_ALL_YAML, 3)), cli_target),
    }


# a target's share of a run (of --inputs), by how fast one input runs
WEIGHTS = {"yaml": 12, "rulebook": 1, "variant": 1, "nordlang": 45, "scenario": 2, "replay": 8, "move": 15,
           "play": 13, "cli": 3}
