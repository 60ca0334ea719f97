"""`--json` of validate, test, simulate, compare, explain, games and variants:
each document parses, matches its JSON Schema under docs/schemas/, says
what the text output says, and leaves the exit status as it was."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest

from nordlang.cli import main

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "docs" / "schemas"
COMMANDS = ["validate", "test", "simulate", "compare", "explain", "games", "variants"]

SCENARIO = """description: Red to play on an empty board.
game: tictactoe
players: 2
position:
  player: red
moves: []
expect:
  over: false
"""


def _schema(command):
    return json.loads((SCHEMAS / f"{command}.schema.json").read_text())


def _checked(command, text) -> list:
    """Every JSON line of the output, each checked against the command's schema."""
    docs = [json.loads(line) for line in text.splitlines()]
    assert docs, "no output"
    for doc in docs:
        jsonschema.validate(doc, _schema(command), cls=jsonschema.Draft202012Validator)
    return docs


def _run(capsys, argv):
    """(exit status, stdout, stderr) of a command line, run twice: as text, then with --json."""
    status = main(argv)
    text = capsys.readouterr()
    json_status = main(argv + ["--json"])
    out = capsys.readouterr()
    assert json_status == status            # the exit status does not depend on --json
    assert out.err == ""                    # everything is in the document
    return status, text, _checked(argv[0], out.out)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_schema_is_a_valid_json_schema_with_the_same_error_shape(command):
    schema = _schema(command)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$defs"]["problem"] == _schema("validate")["$defs"]["problem"]
    assert schema["$defs"]["failed"]["properties"]["command"] == {"const": command}


def test_validate_lists_each_error_with_its_place_and_hint(capsys):
    status, text, [doc] = _run(capsys, ["validate", "tests/broken/multi"])
    assert status == 2 and doc["ok"] is False
    assert text.out.strip() == f"1 file(s) checked: {len(doc['errors'])} error(s), 0 warning(s)"
    assert len(doc["errors"]) == 6 and doc["warnings"] == [] and doc["files_checked"] == 1
    first = doc["errors"][0]
    assert (first["file"], first["line"], first["column"]) == ("tests/broken/multi/components.yaml", 18, 54)
    assert first["message"] == "unknown key 'descripton' in pieces/man"
    assert first["hint"] == "did you mean 'description'?"
    assert first["text"] in text.err                 # the same words as the text output's


def test_validate_says_what_simulate_played(capsys):
    status, text, [doc] = _run(capsys, ["validate", "--game", "tictactoe", "--simulate", "3"])
    assert status == 0 and doc["ok"] is True and doc["errors"] == []
    [played] = doc["played"]
    assert (played["games"], played["went_wrong"]) == (3, 0)
    assert f"played 3 random game(s), {played['decisions']} decision(s)" in text.out


def test_a_command_stopped_by_an_error_gives_a_failed_document(capsys):
    status, text, [doc] = _run(capsys, ["validate", "--game", "nowhere"])
    assert status == 2 and set(doc) == {"command", "ok", "errors"} and doc["ok"] is False
    assert doc["errors"][0]["message"].startswith("unknown game 'nowhere' (bundled games: connect-four, ")
    status, text, [doc] = _run(capsys, ["variants", "--game", "pig"])
    assert status == 2 and doc == {"command": "variants", "ok": False, "errors": [doc["errors"][0]]}
    assert doc["errors"][0]["message"] == "pig has no bundled variants"
    assert doc["errors"][0]["file"] is None and doc["errors"][0]["text"] == text.err.strip()


def test_test_streams_a_line_per_scenario_then_the_counts(capsys, tmp_path):
    (tmp_path / "wrong.yaml").write_text(SCENARIO.replace("over: false", "over: true"))
    paths = ["variants/hex/scenarios", "tests/broken/scenarios/unknown-piece.yaml", str(tmp_path / "wrong.yaml")]
    status, text, docs = _run(capsys, ["test", *paths])
    assert status == 2
    *scenarios, last = docs
    assert [d["result"] for d in scenarios] == ["pass"] * 7 + ["error", "fail"]
    assert text.out.splitlines()[-1] == f"{last['passed']} passed, {last['failed']} failed" == "7 passed, 2 failed"
    error = scenarios[7]["errors"][0]
    assert (error["line"], error["column"], error["hint"]) == (13, 10, "did you mean 'man:red' or 'man:green'?")
    [failure] = scenarios[8]["failures"]
    assert failure["file"] == str(tmp_path / "wrong.yaml") and failure["line"] == 8
    assert (failure["expected"], failure["actual"]) == ("true", "false")


def test_simulate_gives_the_summary_the_text_prints(capsys):
    status, text, [doc] = _run(capsys, ["simulate", "--game", "connect-four", "-n", "6", "-j", "1", "--no-progress"])
    assert status == 0 and doc["ok"] is True
    s = doc["summary"]
    assert s["games"] == 6 and text.out.splitlines()[1] == "games: 6"
    assert doc["title"] == text.out.splitlines()[0] == "Connect Four, 2 players, agents random, seed 0"
    for seat in s["seats"]:
        assert f"{seat['won']}/{seat['drawn']}/{seat['lost']}" in text.out
    assert s["held"]["supply: disc"]["n"] == 12          # each of 2 players in 6 games
    assert f"length: {s['turns']['mean']:.1f} turns" in text.out


def test_compare_gives_every_row_of_the_table(capsys):
    status, text, [doc] = _run(capsys, ["compare", "--game", "connect-four", "-n", "4", "-j", "1", "--no-progress",
                                        "--variant-b", "connect-three"])
    assert status == 0 and doc["games"] == 4 and doc["same_configuration"] is False
    assert doc["b"] == "Connect Four, 2 players, agents random, variants connect-three"
    table = [line[2:] for line in text.out.splitlines()[6:]]
    assert len(doc["rows"]) == len(table)
    for row, line in zip(doc["rows"], table):
        assert line.startswith(row["metric"]) and line.endswith(row["verdict"])
    turns = doc["rows"][0]
    assert turns["metric"] == "turns" and re.match(rf"turns +{turns['a']:.2f} +{turns['b']:.2f}", table[0])
    status, text, [doc] = _run(capsys, ["compare", "--game", "connect-four", "-n", "2", "-j", "1", "--no-progress"])
    assert doc["same_configuration"] is True and text.err == "note: A and B are the same configuration\n"


def test_explain_says_legal_or_not_with_the_reasons(capsys, tmp_path):
    path = tmp_path / "empty.yaml"
    path.write_text(SCENARIO)
    status, text, [doc] = _run(capsys, ["explain", str(path), "place b2"])
    assert status == 0 and doc["legal"] is True and doc["ok"] is True
    assert doc["reasons"] == text.out.splitlines() and doc["reasons"][0].startswith("place b2: legal")
    status, text, [doc] = _run(capsys, ["explain", str(path), "place z9"])
    assert status == 1 and doc["legal"] is False and doc["reasons"] == text.out.splitlines()
    path.write_text(SCENARIO.replace("moves: []", "moves: [place z9]"))
    status, text, [doc] = _run(capsys, ["explain", str(path), "place b2"])
    assert status == 2 and doc["legal"] is None and doc["reasons"] == []
    [error] = doc["errors"]
    assert (error["file"], error["line"], error["column"]) == (str(path), 6, 9)
    assert error["text"] == text.out.strip() and "'z9' is not one of the 9 options of 'place'" in error["message"]


def test_games_and_variants_list_what_is_bundled(capsys):
    status, text, [doc] = _run(capsys, ["games"])
    assert status == 0
    assert [g["name"] for g in doc["games"]] == [line.split()[0] for line in text.out.splitlines()]
    hex_game = next(g for g in doc["games"] if g["name"] == "hex")
    assert hex_game["variants"] == ["7x7", "9x9", "swap"] and hex_game["players"] == {"min": 2, "max": 2}
    status, text, [doc] = _run(capsys, ["variants", "--game", "hex"])
    assert status == 0
    names = [line for line in text.out.splitlines() if line and not line.startswith(" ")]
    assert [v["name"] for v in doc["variants"]] == ["7x7", "9x9", "swap"] == names
    assert doc["variants"][0]["description"] == "Hex on a 7 x 7 board: a shorter game, for beginners."
