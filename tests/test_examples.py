"""The rulebook's worked examples as scenario files (variants/nord/scenarios/*.yaml).

Each numbered example of the rule text (placement 1-3, the attacks and
mergers, the three settlements and two alliances, the jarl challenge, the
resource, warrior and treasure scorings, the tie-breaks) is a scenario
that rebuilds its position and asserts exactly the text's numbers and
pieces. A scenario that follows the text and RULINGS.md but fails because
the engine or the rulebook data is wrong is listed in KNOWN_FAILURES: its
test is a strict xfail, so fixing the rules makes it fail loudly until it
is taken off the list.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from nordlang.board.grid import parse_space
from nordlang.errors import NordError
from nordlang.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "variants" / "nord" / "scenarios"
FILES = sorted(SCENARIOS.glob("*.yaml"))

# file name -> why it fails (the engine's or the rulebook's fault, not the scenario's)
KNOWN_FAILURES: dict[str, str] = {}


def _params():
    for path in FILES:
        marks = []
        if path.name in KNOWN_FAILURES:
            marks.append(pytest.mark.xfail(strict=True, reason=KNOWN_FAILURES[path.name]))
        yield pytest.param(path, id=path.stem, marks=marks)


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    return env


def _nord_test(*paths):
    return subprocess.run([sys.executable, "-m", "nordlang", "test", *map(str, paths)], cwd=ROOT, env=_env(),
                          capture_output=True, text=True, timeout=600)


def test_there_are_examples():
    names = {p.name for p in FILES}
    assert len(FILES) >= 30
    assert "simple-attack.yaml" in names
    assert not set(KNOWN_FAILURES) - names, "KNOWN_FAILURES names a file that does not exist"


@pytest.mark.parametrize("path", list(_params()))
def test_example(path):
    report = load_scenario(path).run()
    if not report.passed:
        print(f"{path.name}: {report.description}")
        for failure in report.failures:
            print(failure.format())
    assert report.passed, "\n".join(f.format() for f in report.failures)


def test_nord_test_runs_the_folder():
    # `nord test` walks the folder recursively, so count the same way (a file with branches: one result each)
    n = sum(len(load_scenario(p).branches) or 1 for p in SCENARIOS.rglob("*.yaml") if p.is_file())
    proc = _nord_test("variants/nord/scenarios")
    out = proc.stdout + proc.stderr
    if KNOWN_FAILURES:
        pytest.xfail(f"known failures: {', '.join(sorted(KNOWN_FAILURES))}")
    assert proc.returncode == 0, out
    assert proc.stdout.strip().splitlines()[-1] == f"{n} passed, 0 failed", out


def test_a_wrong_expectation_fails(tmp_path):
    src = SCENARIOS / "treasure-scoring.yaml"
    text = src.read_text()
    right = "'treasure_points(0)': 23"
    assert right in text
    wrong = tmp_path / "treasure-scoring-wrong.yaml"
    wrong.write_text(text.replace(right, "'treasure_points(0)': 24"))

    report = load_scenario(wrong).run()
    assert not report.passed
    assert [(f.expected, f.actual) for f in report.failures] == [("24", "23")]

    proc = _nord_test(wrong)
    out = proc.stdout
    assert proc.returncode == 1, out + proc.stderr
    assert f"FAIL  {wrong}" in out
    assert "value of treasure_points(0)" in out
    assert "expected: 24" in out
    assert "actual:   23" in out
    assert out.strip().splitlines()[-1] == "0 passed, 1 failed"


def test_nord_test_of_a_folder_like_variants_runs_its_scenarios_only(tmp_path):
    """variants/ holds variants and a folder of scenarios: the variants are skipped, and said to be."""
    for name in ("no-storm.yaml", "short-game.yaml"):
        shutil.copy(ROOT / "variants" / "nord" / name, tmp_path / name)
    (tmp_path / "scenarios").mkdir()
    shutil.copy(SCENARIOS / "simple-attack.yaml", tmp_path / "scenarios" / "simple-attack.yaml")
    proc = _nord_test(tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().splitlines()[-1] == \
        "1 passed, 0 failed (2 variant(s) in the folders skipped)"


def test_nord_test_of_a_folder_without_scenarios_fails(tmp_path):
    proc = _nord_test(tmp_path)
    assert proc.returncode == 1
    assert proc.stdout.strip().splitlines()[-1] == "0 passed, 0 failed: no scenario found"


@pytest.mark.parametrize("args, message, hint", [
    (["test", "variants/nord/no-storm.yaml"], "this file is a variant, not a scenario", "nord validate"),
    (["explain", "rulebook/nord/nord.yaml", "place c2"], "this file is a rulebook, not a scenario", "nord validate"),
    (["play", "--rulebook", "variants/nord/no-storm.yaml"], "this file is a variant, not a rulebook", "--variant"),
    (["play", "--rulebook", "variants/nord/scenarios/simple-attack.yaml"], "this file is a scenario, not a rulebook",
     "nord test"),
])
def test_a_file_of_another_kind_gets_one_error_saying_so(args, message, hint):
    proc = subprocess.run([sys.executable, "-m", "nordlang", *args], cwd=ROOT, env=_env(), capture_output=True,
                          text=True, timeout=120)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 2, out
    assert f":1:1: error: {message}" in out and hint in out
    assert out.count("error:") == 1, out


def test_holds_takes_conditions_only(tmp_path):
    """A 'holds' text that gives something other than true is a failure, a list included."""
    src = (SCENARIOS / "simple-attack.yaml").read_text()
    path = tmp_path / "holds.yaml"
    path.write_text(src.split("\nmoves:")[0] + '\nexpect:\n  holds: ["[1, 2, 3]", "1 == 1"]\n')
    report = load_scenario(path).run()
    assert [(f.expected, f.actual) for f in report.failures] == \
        [("true", "(1, 2, 3) (not true or false: 'holds' takes conditions; 'values' compares a value)")]


def test_a_failure_shows_two_numbers_as_what_they_may_be(tmp_path):
    """Two numbers are also a space: a failing 'holds' says both, a failing
    'values' shows a list where it expects one, a space where it expects a
    name, and both where it expects a number."""
    src = (SCENARIOS / "simple-attack.yaml").read_text()
    path = tmp_path / "pair.yaml"
    path.write_text(src.split("\nmoves:")[0] + '\nexpect:\n  holds: ["[1, 2]"]\n  values:\n    "[1, 2]": [1, 3]\n'
                    '    "space(\\"c2\\")": c3\n    "[1, 2] ": 5\n')
    report = load_scenario(path).run()
    assert [(f.expected, f.actual) for f in report.failures] == [
        ("true", "c2 (a space, or the list [1, 2]) (not true or false: 'holds' takes conditions; "
                 "'values' compares a value)"),
        ("[1, 3]", "[1, 2]"),
        ("c3", "c2"),
        ("5", "c2 (a space, or the list [1, 2])")]


@pytest.mark.parametrize("listing, supply", [
    ("supply(red): [man:red*21]\n    c2: man:red\n    d2: man:red", 21),     # every man accounted for
    ("c2: man:red\n    supply(red): [man:red*21]\n    d2: man:red", 21),     # in any order
    ("supply(red): [man:red*40]", None),                                       # more than the game has
])
def test_a_listed_supply_holds_what_it_lists(tmp_path, listing, supply):
    """A home zone listed in 'at' keeps exactly its listing: before, the
    pieces it displaced went back into it, whatever it listed."""
    path = tmp_path / "supply.yaml"
    path.write_text("description: a listed supply\ngame: nord\nplayers: 2\nmap:\n  - \"~~~~~~~~~\"\n  - \"~AmmB~~X~\"\n"
                    "  - \"~ffkff~~~\"\nstructures: {A: settlement, B: settlement, X: dragon}\nseats: [A, B]\n"
                    f"position:\n  at:\n    {listing}\n")
    if supply is None:
        with pytest.raises(NordError, match="no man:red left to put on supply"):
            load_scenario(path)
        return
    st = load_scenario(path).game.state
    assert st.amount(("supply", 0), ("man", 0)) == supply
    assert st.occupied[parse_space("c2")] == st.occupied[parse_space("d2")] == ("man", 0)


def test_a_choice_taken_at_once_is_named_where_a_script_expects_it(tmp_path):
    """A choice with one option is never asked: an expectation or a move
    that looks for it is told so, with every choice taken that way since
    the last decision (before: only that another choice was pending)."""
    path = tmp_path / "forced.yaml"
    path.write_text("description: red has no men but can challenge C\ngame: nord\nplayers: 2\nmap:\n  - \"~~~~~~~~~\"\n"
                    "  - \"~A~~~~~~~\"\n  - \"~~~~~~~~~\"\n  - \"~~~~CmX~~\"\n  - \"~B~~~~~~~\"\n"
                    "structures: {A: settlement, B: settlement, C: settlement, X: dragon}\nseats: [A, B]\n"
                    "position:\n  player: red\n  at:\n    A: [jarl:red, man:red*22]\n    C: [jarl, man:red*2]\n"
                    "    f4: man:blue\nmoves:\n  - expect:\n      options: {action: [challenge]}\n"
                    "      illegal: [action place]\n  - action challenge\n")
    report = load_scenario(path).run()
    taken = ("the choice 'action' was not asked: since the last decision, each choice with one option was "
             "taken at once: action challenge (red), challenge C (red), action place (blue)")
    illegal, options, move = report.failures          # (legal and illegal are checked first)
    assert options.actual == f"no 'action' choice pending: {taken} (pending: play, for blue)"
    assert illegal.actual.startswith(f"{taken}; the pending choice is 'play' (for blue): [none, ")
    assert move.actual.startswith(f"action challenge is not allowed: {taken}; the pending choice is 'play' "
                                  "(for blue) (leave the move out: a choice with one option is taken, never asked")


@pytest.mark.parametrize("zone, message, hint", [
    # a literal is refused when the text is compiled; a computed colour when it is used
    ('supply(\\"blue\\")', "'blue' is not a player (argument 1 of supply())",
     "a player is a number in turn order; blue is 1"),
    ('supply(first([\\"blue\\"]))', "supply(blue) is not a zone",
     "supply(p) takes a player: a number in turn order, 0 to 1 (blue is 1)"),
])
def test_a_zone_of_a_colour_says_a_player_is_a_number(tmp_path, zone, message, hint):
    """supply("blue") names no zone: the error says what a player is."""
    src = (SCENARIOS / "simple-attack.yaml").read_text()
    path = tmp_path / "colour.yaml"
    path.write_text(src.split("\nmoves:")[0] + f'\nexpect:\n  values: {{"amount({zone}, man(0))": 0}}\n')
    with pytest.raises(NordError) as e:
        load_scenario(path).run()
    assert e.value.message == message
    assert e.value.hint == hint
