"""Input paths of `nord validate`, `nord test`, `nord explain` and the
variant loader that users found wrong: each case gets its clean message
and exit status (2 for bad input, 1 where `nord test` documents it), never
a traceback. (The broken files of tests/broken/ hold the cases that
`nord validate` reports at a line: see test_validate.py's table.)"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import nordlang
from nordlang.cli import main
from nordlang.errors import LangError, SchemaError
from nordlang.lang.parser import parse

ROOT = Path(__file__).resolve().parent.parent
REPLAY = ROOT / "tests" / "replays" / "nord-2p.jsonl"
SCENARIO = ROOT / "variants" / "nord" / "scenarios" / "simple-attack.yaml"


def nord(capsys, *argv):
    capsys.readouterr()
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, out, err


# ---- a player count beyond any machine integer ----
def test_a_huge_player_count_is_out_of_range(tmp_path, capsys):
    path = tmp_path / "huge.yaml"
    path.write_text(SCENARIO.read_text().replace("players: 2", "players: 99999999999999999999", 1))
    line = path.read_text().splitlines().index("players: 99999999999999999999") + 1
    rc, out, err = nord(capsys, "explain", path, "play none")
    assert rc == 2
    assert f"{path}:{line}:10: error: this rulebook is for 2 to 4 players, not 99999999999999999999" in err
    rc, out, err = nord(capsys, "play", "--players", "99999999999999999999")
    assert rc == 2 and "this rulebook is for 2 to 4 players, not 99999999999999999999" in err


# ---- a variant that changes nothing ----
@pytest.mark.parametrize("text, line, col", [("description: words only\n", 1, 1),
                                             ("description: an empty patch\npatch: {}\n", 2, 1),
                                             ("description: extends the rules alone\nextends: nord\n", 1, 1)])
def test_a_variant_without_a_patch_is_an_error(tmp_path, capsys, text, line, col):
    v = tmp_path / "nothing.yaml"
    v.write_text(text)
    rc, out, err = nord(capsys, "validate", v)
    assert rc == 2 and "1 file(s) checked: 1 error(s), 0 warning(s)" in out
    assert f"{v}:{line}:{col}: error: this variant changes nothing: it has no patch" in err
    assert "hint: add 'patch:' with the rulebook sections it changes" in err
    rc, out, err = nord(capsys, "play", "--variant", v, "--players", "2")
    assert rc == 2 and "this variant changes nothing" in err and not out
    with pytest.raises(SchemaError, match="this variant changes nothing"):
        nordlang.load(players=2, variants=[v])


def test_a_variant_that_extends_another_needs_no_patch_of_its_own(tmp_path, capsys):
    shutil.copy(ROOT / "variants" / "nord" / "no-storm.yaml", tmp_path / "no-storm.yaml")
    v = tmp_path / "calm.yaml"
    v.write_text("description: the calm seas under another name\nextends: no-storm\n")
    rc, out, err = nord(capsys, "validate", v)
    assert rc == 0, err


# ---- validate --simulate ----
@pytest.mark.parametrize("count, message", [("-1", "-1 must not be negative"), ("x", "'x' is not a whole number")])
def test_validate_simulate_takes_a_count_of_zero_or_more(capsys, count, message):
    with pytest.raises(SystemExit) as e:
        main(["validate", "--simulate", count])
    assert e.value.code == 2
    assert f"argument --simulate: {message}" in capsys.readouterr().err


def test_validate_simulate_says_what_it_played(capsys):
    rc, out, err = nord(capsys, "validate", "--simulate", "2", "--players", "2")
    assert rc == 0, err
    line = next(x for x in out.splitlines() if "played" in x)
    main_file = nordlang.bundled("rulebook") / "nord" / "nord.yaml"
    assert line.startswith(f"{main_file} (2 players): played 2 random game(s), ")
    decisions = int(line.split(", ")[1].split()[0])
    assert decisions > 50 and line.endswith(" decision(s)")


def test_validate_simulate_reports_a_repeated_error_once_with_its_count(tmp_path, capsys):
    v = tmp_path / "no-boat.yaml"
    v.write_text("description: sea workers without boats\nextends: nord\npatch:\n  procedures:\n"
                 "    place_worker(s): 'move(man(player), supply(player), s)'\n")
    rc, out, err = nord(capsys, "validate", v, "--simulate", "6", "--players", "2")
    assert rc == 2
    assert f"{v} (2 players): played 6 random game(s), " in out and "; 6 went wrong" in out
    assert "1 file(s) checked: 1 error(s)" in out
    [line] = [x for x in err.splitlines() if "error:" in x]
    assert f"error: {v} (2 players): error in 6 of 6 games: this position breaks a rule: a worker on the sea " \
           "stands in one fishing boat: " in line
    assert line.endswith("(first in game 1, seed 1000, turn 3)"), line


# ---- nord test on a rulebook's folder ----
def test_nord_test_skips_a_rulebooks_files_and_says_so(capsys):
    rc, out, err = nord(capsys, "test", ROOT / "rulebook" / "nord")
    files = len(list((ROOT / "rulebook" / "nord").glob("*.yaml")))
    assert out.strip() == f"0 passed, 0 failed ({files} rulebook file(s) in the folders skipped): no scenario found"
    assert rc == 1          # README: exit 1 when it finds no scenario


def test_nord_test_runs_the_scenarios_beside_a_rulebook(tmp_path, capsys):
    shutil.copytree(ROOT / "rulebook" / "nord", tmp_path / "rules")
    shutil.copy(ROOT / "variants" / "nord" / "no-storm.yaml", tmp_path / "no-storm.yaml")
    shutil.copy(SCENARIO, tmp_path / "attack.yaml")
    rc, out, err = nord(capsys, "test", tmp_path)
    files = len(list((ROOT / "rulebook" / "nord").glob("*.yaml")))
    assert out.strip().splitlines()[-1] == \
        f"1 passed, 0 failed (1 variant(s) and {files} rulebook file(s) in the folders skipped)"
    assert rc == 0


# ---- a replay where YAML is expected ----
@pytest.mark.parametrize("argv", [["test", REPLAY], ["validate", REPLAY], ["explain", REPLAY, "play none"],
                                  ["play", "--variant", REPLAY]])
def test_a_replay_is_named_as_one(capsys, argv):
    rc, out, err = nord(capsys, *argv)
    assert rc == 2
    text = out + err
    assert f"{REPLAY}:1:1: error: this is a replay (a recorded game, one JSON line per move), not a YAML file" in text
    assert f"hint: use `nord replay {REPLAY}`" in text
    assert "malformed YAML" not in text


# ---- a bracket never closed, in nordlang text ----
@pytest.mark.parametrize("text, mode, col, message, hint", [
    ("f(a, [1, 2", "expr", 6, "missing closing ']': this '[' is never closed", None),
    ('f("(", 1', "expr", 2, "missing closing ')': this '(' is never closed", None),
    ("f(a # (\n, b", "expr", 2, "missing closing ')': this '(' is never closed", None),
    ("if x {\n  a()\n", "effects", 6, "missing closing '}': this '{' is never closed", None),
    ("[x for x in (1, 2]", "expr", 13, "this '(' is never closed",
     "the ']' at line 1, column 18 comes first: close the '(' with ')' before it"),
    ("len(1))", "expr", 7, "unbalanced ')': nothing to close here", None),
])
def test_a_bracket_never_closed_is_reported_where_it_opens(text, mode, col, message, hint):
    with pytest.raises(LangError) as e:
        parse(text, mode)
    assert (e.value.pos.line, e.value.pos.col, e.value.message, e.value.hint) == (1, col, message, hint)


# ---- found by the fuzzing harness (fuzz/) ----
@pytest.mark.parametrize("move, odd, option", [("place c3,cc4", "'cc4'", "c3,cc4"), ("place c3,5", "5", "5,c3")])
def test_explain_of_a_set_with_a_part_that_is_no_space(capsys, move, odd, option):
    """'c3,cc4' read as a space and a name: explaining it sorted the two together (TypeError)."""
    scenario = ROOT / "variants" / "nord" / "scenarios" / "three-settlements-blue-many-men-two-boats.yaml"
    rc, out, err = nord(capsys, "explain", scenario, move)
    assert rc == 1, err
    assert out.splitlines()[1] == f"  {odd} in '{option}' is not a space of this board: the parts of an " \
                                  "option are all of one kind"
