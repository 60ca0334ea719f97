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
    GAME_RULEBOOK_TEXTS,
    GAME_SCENARIO_TEXTS,
    GAME_VARIANT_TEXTS,
    GAMES,
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

    @property
    def seat_positions(self):
        """A few positions of each bundled game with a decision pending (for the human seat)."""
        if getattr(self, "_seats", None) is None:
            import random
            self._seats = []
            for name in GAMES:
                g = nordlang.load(name, seed=7)
                rng = random.Random(7)
                for _ in range(3):
                    if g.over:
                        break
                    self._seats.append(g.clone())
                    for _ in range(rng.randrange(1, 6)):
                        if not g.over:
                            g.play_index(rng.randrange(len(g.legal_moves())))
        return self._seats

    @property
    def client(self):
        """The page's server (nord serve) under Starlette's test client, with one game of each kind made."""
        if getattr(self, "_client", None) is None:
            import warnings
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                from starlette.testclient import TestClient
            from nordlang.web import create_app
            root = HERE.parent
            self._client = TestClient(create_app([root / "tests" / "replays", root / "variants"], "tictactoe"),
                                      raise_server_exceptions=False)
            r = self._client.post("/api/games", json={"game": "tictactoe", "seats": ["human", "random"], "seed": 1})
            self.game_id = r.json().get("id", "x")
        return self._client


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


def game_rulebook_target(case, ctx):
    """One mutated file of any bundled game's rulebook, in a copy of its folder."""
    (game, name), text = case
    folder = ctx.ws.root / "games" / game
    if not folder.is_dir():
        shutil.copytree(HERE.parent / "rulebook" / game, folder)
    (folder / name).write_text(text, encoding="utf-8")
    try:
        nordlang.load_rules(folder)
    except NordError as e:
        refused(e)
    finally:
        (folder / name).write_text(GAME_RULEBOOK_TEXTS[(game, name)], encoding="utf-8")


def game_variant_target(case, ctx):
    """A mutated variant of any bundled game, over that game."""
    game, text = case
    path = ctx.ws.write("variant-any.yaml", text)
    try:
        nordlang.load_rules(game, variants=[path])
    except NordError as e:
        refused(e)


def game_scenario_target(text, ctx):
    """A mutated scenario of any bundled game, run to its verdict."""
    from nordlang.scenario import load_scenario
    path = ctx.ws.write("scenario-any.yaml", text)
    try:
        for failure in load_scenario(path).run().failures:
            failure.format()
    except NordError as e:
        refused(e)


def seat_target(case, ctx):
    """Lines typed at the human seat: it must answer each and end cleanly at the end of input."""
    from nordlang.agents.human import EndOfInput, HumanAgent
    index, lines = case
    g = ctx.seat_positions[index % len(ctx.seat_positions)].clone()
    agent = HumanAgent(stdin=io.StringIO(lines), stdout=io.StringIO())
    try:
        i = agent.choose(g)
    except EndOfInput:
        return
    if not 0 <= i < len(g.legal_moves()):
        raise Rejected(f"the seat answered option {i} of {len(g.legal_moves())}")


def http_target(case, ctx):
    """A request to the page's server: any malformed one is a 4xx with a JSON message, never a 500."""
    method, path, body = case
    client = ctx.client
    path = path.replace("{id}", ctx.game_id)
    r = client.request(method, path, content=body, headers={"content-type": "application/json"})
    if r.status_code >= 500:
        raise Rejected(f"{method} {path} answered {r.status_code}: {r.text[:300]}")
    if 400 <= r.status_code < 500 and r.status_code != 405:
        try:
            msg = r.json()
        except ValueError:
            raise Rejected(f"{method} {path} answered {r.status_code} without JSON: {r.text[:200]}") from None
        if not isinstance(msg, dict) or not msg.get("error"):
            raise Rejected(f"{method} {path} answered {r.status_code} without an error message: {r.text[:200]}")


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


_SEAT_LINES = st.lists(st.one_of(st.text(max_size=40), st.sampled_from(
    ["1", "0", "99", "²", "1" * 5000, "\ud800", "?", "help", "place a1", "a1", " 2 ", "-1", "1e3", "\x00"])),
    max_size=6).map(lambda ls: "".join(x.replace("\n", " ").replace("\r", " ") + "\n" for x in ls))
_PATHS = ["/api/catalog", "/api/files", "/api/games", "/api/games/{id}", "/api/games/{id}/move",
          "/api/games/{id}/agent", "/api/games/{id}/undo", "/api/games/{id}/explain?move=place%20a1",
          "/api/games/{id}/replay", "/api/replays", "/api/scenarios", "/api/replays/nope", "/api/scenarios/x/explain",
          "/api/games/nope/move", "/", "/static/app.js"]
_BODIES = st.one_of(
    st.binary(max_size=40),
    st.sampled_from([b"[" * 100_000, b'{"move": "place \\ud800"}', b'{"move": "place a' + b"1" * 5000 + b'"}',
                     b'{"game": "tictactoe", "seats": ["mcts:playouts=100000", "random"]}',
                     b'{"game": "hex", "seed": ' + b"9" * 5000 + b"}", b'{"index": 1e999}', b'{"index": -1}',
                     b'{"game": "vikings", "players": 99999}', b"null", b"[]", b'"x"', b"{}"]),
    st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=12)),
                 lambda inner: st.one_of(st.lists(inner, max_size=3),
                                         st.dictionaries(st.sampled_from(["game", "seats", "seed", "move", "index",
                                                                          "variants", "players", "path", "text"]),
                                                         inner, max_size=4)),
                 max_leaves=8).map(lambda v: __import__("json").dumps(v).encode()))


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
        "game-rulebook": (st.sampled_from(sorted(GAME_RULEBOOK_TEXTS)).flatmap(
            lambda k: st.tuples(st.just(k), mutated([GAME_RULEBOOK_TEXTS[k]], 4))), game_rulebook_target),
        "game-variant": (st.sampled_from(GAME_VARIANT_TEXTS).flatmap(
            lambda gt: st.tuples(st.just(gt[0]), mutated([gt[1]], 4))), game_variant_target),
        "game-scenario": (mutated(GAME_SCENARIO_TEXTS, 4), game_scenario_target),
        "seat": (st.tuples(st.integers(0, 40), _SEAT_LINES), seat_target),
        "http": (st.tuples(st.sampled_from(["GET", "POST", "PUT", "DELETE"]), st.sampled_from(_PATHS), _BODIES),
                 http_target),
    }


# a target's share of a run (of --inputs), by how fast one input runs
WEIGHTS = {"yaml": 12, "rulebook": 1, "variant": 1, "nordlang": 45, "scenario": 2, "replay": 8, "move": 15,
           "play": 13, "cli": 3, "game-rulebook": 1, "game-variant": 2, "game-scenario": 2, "seat": 4, "http": 4}
