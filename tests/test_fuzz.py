"""Fuzzing: valid inputs mutated (characters and lines deleted, duplicated,
replaced, inserted) must give nordlang's own errors (NordError and its
subclasses), never another exception, from every layer that reads input:
the YAML loader, the rule loader and compiler, the nordlang grammar and
name resolution, the scenario loader and runner, and move notation.

Each property runs a bounded, derandomized number of examples so the file
stays under a minute and gives the same verdict on every run: this is the
CI's subset of the harness at scale in fuzz/ (see fuzz/README.md), which
draws its inputs from the same strategies (tests/fuzz_strategies.py).
Inputs that crashed once are pinned below, one test per defect, and the
characters that triggered them ('\\' before x/u/N in a string literal,
'²'-like digits, YAML anchors and aliases) are in the generic alphabet.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import os
import shutil
import sys
from pathlib import Path

import pytest
from fuzz_strategies import (
    NORDLANG,
    REPLAY_TEXTS,
    RULEBOOK,
    RULEBOOK_TEXTS,
    SCENARIO_TEXTS,
    SCENARIOS,
    VARIANT_TEXTS,
    command_line,
    game_positions,
    mutated,
    mutated_nordlang,
    mutated_rulebook_file,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nordlang
from nordlang.errors import LangError, NordError
from nordlang.lang.compiler import Compiler
from nordlang.lang.parser import parse
from nordlang.rules.yamlpos import load_yaml
from nordlang.scenario import load_scenario

FUZZ = settings(deadline=None, derandomize=True, database=None, print_blob=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])


@pytest.fixture(scope="module")
def rules():
    return nordlang.load_rules(players=3)


def test_the_inputs_are_valid_before_mutation(rules):
    """The seeds of the fuzzing are valid: every text parses and compiles as it stands."""
    assert len(NORDLANG) > 50 and len(SCENARIO_TEXTS) > 5
    for text, mode, params in NORDLANG:
        tree = parse(text, mode)
        comp = Compiler(rules.names)
        scope = frozenset(params)
        comp.block(tree, scope) if mode == "effects" else comp.expr(tree, scope)
        assert not comp.errors, (text, comp.errors[0].format())
    for name, text in RULEBOOK_TEXTS.items():
        load_yaml(name, text)


# ---------------------------------------------------------------------------
# YAML loader
# ---------------------------------------------------------------------------
@settings(FUZZ, max_examples=200)
@given(text=mutated(list(RULEBOOK_TEXTS.values()) + SCENARIO_TEXTS))
def test_yaml_loader_gives_only_nord_errors(text):
    try:
        load_yaml("fuzz.yaml", text)
    except NordError as e:
        assert e.pos is not None and e.pos.file == "fuzz.yaml"
        e.format()


# ---------------------------------------------------------------------------
# rule loader and compiler, on a copy of the bundled rulebook
# ---------------------------------------------------------------------------
_COPIES = itertools.count()


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz")


def _rulebook_copy(workdir: Path, name: str, text: str) -> Path:
    """A fresh copy of the bundled rulebook (a new folder each time) with one file replaced."""
    folder = workdir / f"rulebook{next(_COPIES)}"
    shutil.copytree(RULEBOOK, folder)
    (folder / name).write_text(text, encoding="utf-8")
    return folder


@settings(FUZZ, max_examples=80)
@given(case=mutated_rulebook_file(), players=st.sampled_from([2, 3, 4]))
def test_rule_loader_gives_only_nord_errors(workdir, case, players):
    name, text = case
    folder = _rulebook_copy(workdir, name, text)
    try:
        nordlang.load_rules(folder, players=players)    # read_doc, then compile, then the board checks
    except NordError as e:
        e.format()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# ---------------------------------------------------------------------------
# grammar and name resolution
# ---------------------------------------------------------------------------
@settings(FUZZ, max_examples=200)
@given(case=mutated_nordlang())
def test_grammar_and_compiler_give_only_nord_errors(rules, case):
    text, mode, params = case
    try:
        tree = parse(text, mode)
    except LangError as e:
        assert e.pos is not None and e.pos.line is not None and e.pos.col is not None
        e.format()
        return
    comp = Compiler(rules.names)
    scope = frozenset(params)
    comp.block(tree, scope) if mode == "effects" else comp.expr(tree, scope)
    for e in comp.errors:
        assert isinstance(e, NordError)
        assert e.pos is not None and e.pos.line is not None and e.pos.col is not None
        e.format()


# ---------------------------------------------------------------------------
# scenario loader and runner
# ---------------------------------------------------------------------------
@settings(FUZZ, max_examples=50)
@given(text=mutated(SCENARIO_TEXTS))
def test_scenario_loader_gives_only_nord_errors(workdir, text):
    path = workdir / f"scenario{next(_COPIES)}.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        scenario = load_scenario(path)
        report = scenario.run()
    except NordError as e:
        e.format()
        return
    for failure in report.failures:
        failure.format()


# ---------------------------------------------------------------------------
# variant overlays, replays, and the command line (the harness at scale
# found these input paths worth a CI subset of their own)
# ---------------------------------------------------------------------------
@settings(FUZZ, max_examples=30)
@given(text=mutated(list(VARIANT_TEXTS.values()), max_edits=5), players=st.sampled_from([2, 3, 4]))
def test_variant_loader_gives_only_nord_errors(workdir, text, players):
    path = workdir / f"variant{next(_COPIES)}.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        nordlang.load_rules(players=players, variants=[path])
    except NordError as e:
        e.format()


@settings(FUZZ, max_examples=100)
@given(text=mutated(REPLAY_TEXTS, max_edits=4))
def test_replay_reader_gives_only_nord_errors(workdir, text):
    from nordlang.engine.record import read_replay
    path = workdir / f"replay{next(_COPIES)}.jsonl"
    path.write_text(text, encoding="utf-8")
    try:
        read_replay(path)
    except NordError as e:
        e.format()


@pytest.fixture(scope="module")
def cli_files(tmp_path_factory):
    """A folder of files a generated command line may name (the harness's Workspace, in small)."""
    root = tmp_path_factory.mktemp("cli")
    shutil.copytree(RULEBOOK, root / "rules")
    (root / "scenario.yaml").write_text(SCENARIO_TEXTS[0], encoding="utf-8")
    (root / "variant.yaml").write_text(VARIANT_TEXTS["no-storm.yaml"], encoding="utf-8")
    (root / "replay.jsonl").write_text(REPLAY_TEXTS[0], encoding="utf-8")
    (root / "gen.yaml").write_text(VARIANT_TEXTS["short-game.yaml"].replace("patch:", "patch: [", 1),
                                   encoding="utf-8")
    (root / "empty").mkdir()
    return root


CLI_PATHS = ["rules", "rules/nord.yaml", "rules/turn.yaml", "scenario.yaml", "variant.yaml", "replay.jsonl",
             "gen.yaml", "empty", "missing.yaml", "no-storm", "nostorm", ".", "", "-"]


@settings(FUZZ, max_examples=40)
@given(argv=command_line(CLI_PATHS))
def test_command_lines_end_in_a_clean_exit(cli_files, argv):
    """Any command line ends with exit status 0, 1 or 2 and no traceback (files are written in a scratch
    folder only)."""
    from nordlang.cli import main
    out, err, here, stdin = io.StringIO(), io.StringIO(), os.getcwd(), sys.stdin
    os.chdir(cli_files)
    sys.stdin = io.StringIO("")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main(argv)
    except SystemExit as e:
        rc = e.code or 0
    finally:
        os.chdir(here)
        sys.stdin = stdin
    assert rc in (0, 1, 2), (argv, err.getvalue())
    assert "Traceback" not in out.getvalue() + err.getvalue(), argv


# ---------------------------------------------------------------------------
# move notation and Game.play
# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def positions():
    return game_positions()


@settings(FUZZ, max_examples=200)
@given(move=st.one_of(st.text(max_size=12), st.none(), st.integers(), st.binary(max_size=4), st.lists(st.text())))
def test_move_parse_gives_only_nord_errors(move):
    try:
        parsed = nordlang.Move.parse(move)
    except NordError as e:
        e.format()
        return
    assert parsed.choice and parsed.option
    assert nordlang.Move.parse(str(parsed)) == parsed


@settings(FUZZ, max_examples=200)
@given(data=st.data())
def test_mutated_moves_played_give_only_nord_errors(positions, data):
    game, moves = data.draw(st.sampled_from(positions))
    move = data.draw(st.one_of(mutated(moves, max_edits=3), st.sampled_from(moves), st.text(max_size=12)))
    g = game.clone()
    try:
        g.play(move)
    except NordError as e:
        e.format()
        return
    assert str(nordlang.Move.parse(move)) in moves     # only a legal move is played


PLAY_TYPES = ("defect: Game.play with something that is neither text nor a Move (None, a number) raises "
              "AttributeError ('NoneType' object has no attribute 'choice'), although Move.parse answers the "
              "same input with IllegalMove")


@pytest.mark.parametrize("move", [None, 3, ("play", "none")], ids=["none", "int", "tuple"])
def test_play_of_a_non_move_is_an_illegal_move(positions, move):
    with pytest.raises(NordError):
        positions[0][0].clone().play(move)


# ---------------------------------------------------------------------------
# inputs that crash today (found by the fuzzing above): one test per defect
# ---------------------------------------------------------------------------
ESCAPE = ("defect: a string literal with a bad escape makes nordlang.lang.parser.parse raise lark's VisitError "
          "(UnicodeDecodeError from 'unicode_escape' in _ToAst.string), not a LangError")


@pytest.mark.parametrize("text", [r'"\x"', r'"\u12"', r'"\N"', r'structures("sett\Nlement")',
                                  r'note("home\x", s)'])
def test_bad_string_escape_is_a_lang_error(text):
    with pytest.raises(LangError):
        parse(text, "effects" if text.startswith("note") else "expr")


SUPERSCRIPT = ("defect: board.grid.parse_space accepts '²' as a digit (str.isdigit) and int() raises ValueError; "
               "the rule loader and the scenario loader let it through as a traceback")


def test_superscript_digit_in_an_island_is_a_nord_error(workdir):
    text = RULEBOOK_TEXTS["islands.yaml"].replace("{tile: \"1\", at: c3, turn: 0}", "{tile: \"1\", at: c³, turn: 0}",
                                                  1)
    assert "c³" in text
    folder = _rulebook_copy(workdir, "islands.yaml", text)
    with pytest.raises(NordError):
        nordlang.load_rules(folder, players=2)


@pytest.mark.parametrize("old,new", [("    c2: man:red\n", "    c²: man:red\n"),
                                     ("    A: [jarl:red, man:red*5, man:blue]\n",
                                      "    A: [jarl:red, \"man:red*⁵\", man:blue]\n")])
def test_superscript_digit_in_a_scenario_is_a_nord_error(workdir, old, new):
    text = (SCENARIOS / "fixed" / "warrior-scoring.yaml").read_text(encoding="utf-8")
    assert old in text
    path = workdir / f"scenario{next(_COPIES)}.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(NordError):
        load_scenario(path)


ALIAS = "defect: a YAML alias inside its own anchor makes yamlpos._construct recurse forever: RecursionError"


def test_self_referencing_alias_is_a_load_error():
    text = RULEBOOK_TEXTS["components.yaml"].replace("  symbols: [axe, gold, hammer, helmet, goblet, sword]",
                                                     "  symbols: &s [axe, gold, hammer, helmet, goblet, *s]")
    assert "*s]" in text
    with pytest.raises(NordError):
        load_yaml("components.yaml", text)
