"""The limits of input (nordlang/limits.py): each entry point that reads a
user's text meets a number too long to read, text that is not Unicode, a
nesting too deep or a shape it did not expect with one clear error at its
place, never a Python exception."""

import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nordlang
from nordlang.agents.human import EndOfInput, HumanAgent
from nordlang.cli import main
from nordlang.errors import IllegalMove, LangError, LoadError, NordError, ReplayError, did_you_mean
from nordlang.lang.parser import parse as parse_expr
from nordlang.limits import MAX_DIGITS, MAX_NESTING, OverLimit, check_digits, load_json
from nordlang.rules.yamlpos import load_yaml

LONG = "1" * 5000           # past Python's own 4,300 digits for int()


# ---------------- the limits themselves ----------------
def test_numbers_are_read_within_the_limit():
    check_digits("9" * MAX_DIGITS)
    with pytest.raises(OverLimit, match=f"101 digits is past the limit of {MAX_DIGITS}"):
        check_digits("9" * (MAX_DIGITS + 1))


def test_json_is_read_within_the_limits():
    assert load_json('{"a": [1, [2, "]["]]}') == {"a": [1, [2, "]["]]}
    assert load_json("[" * MAX_NESTING + "]" * MAX_NESTING) is not None
    with pytest.raises(OverLimit, match=f"nests {MAX_NESTING + 1} levels deep"):
        load_json("[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1))
    with pytest.raises(OverLimit, match="5000 digits"):
        load_json('{"seed": ' + LONG + "}")
    with pytest.raises(OverLimit, match="lone surrogate"):
        load_json('{"move": "place \\ud800"}')


# ---------------- numbers past 4,300 digits ----------------
def test_a_yaml_number_too_long_is_an_error_at_its_place(tmp_path):
    p = tmp_path / "big.yaml"
    p.write_text("a: 1\nb: " + LONG + "\n")
    with pytest.raises(LoadError) as e:
        load_yaml(p)
    assert (e.value.pos.line, e.value.pos.col) == (2, 4)
    assert "5000 digits is past the limit of 100 digits" in e.value.message


def test_an_expression_number_too_long_is_a_language_error():
    with pytest.raises(LangError, match="past the limit of 100 digits") as e:
        parse_expr("1 + " + LONG)
    assert (e.value.pos.line, e.value.pos.col) == (1, 5)


def test_a_move_with_a_long_number_is_read_and_refused_as_a_move():
    g = nordlang.load("tictactoe")
    m = nordlang.parse("place a" + LONG)             # read: a move's text is names, not numbers
    with pytest.raises(IllegalMove, match="is not one of the 9 options"):
        g.play(m)
    with pytest.raises(IllegalMove, match="past the limit of 10000"):
        nordlang.parse("place " + "a" * 20_000)


def test_a_replay_with_a_number_too_long_is_a_replay_error(tmp_path, capsys):
    p = tmp_path / "big.jsonl"
    p.write_text('{"format": "nordlang-replay/1", "game": "tictactoe", "seed": ' + LONG + "}\n")
    with pytest.raises(ReplayError, match="line 1: a number of 5000 digits"):
        _read(p)
    assert main(["replay", str(p)]) == 2
    assert main(["render", str(p), "-o", str(tmp_path / "o.svg")]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("5000 digits") == 2


def _read(p):
    from nordlang.engine.record import read_replay
    return read_replay(p)


# ---------------- text that is not Unicode ----------------
def test_a_lone_surrogate_in_yaml_is_an_error_at_its_place(tmp_path):
    p = tmp_path / "variant.yaml"
    p.write_text('description: "half \\ud800 of a pair"\nextends: nord\n')
    with pytest.raises(NordError) as e:
        nordlang.load_rules("nord", 3, variants=[str(p)])
    assert e.value.pos.line == 1 and "lone surrogate" in e.value.message


def test_a_lone_surrogate_in_a_move_is_an_illegal_move():
    with pytest.raises(IllegalMove, match="not valid Unicode"):
        nordlang.parse("cell \ud800")


# ---------------- shapes not checked before use ----------------
def test_a_patch_that_removes_a_mapping_says_what_it_takes(tmp_path):
    p = tmp_path / "v.yaml"
    p.write_text("description: x\nextends: nord\npatch:\n  turn:\n    - remove: {a: 1}\n")
    with pytest.raises(NordError) as e:
        nordlang.load_rules("nord", 3, variants=[str(p)])
    assert (e.value.pos.line, e.value.pos.col) == (5, 15)
    assert "'remove' names a step by its id, not a mapping" in e.value.message


def test_did_you_mean_skips_keys_that_are_no_names():
    assert did_you_mean("plase", [1, (2, 3), None, "place"]) == "did you mean 'place'?"
    assert did_you_mean(5, [1, 2]) is None


def test_render_and_replay_of_a_file_nested_a_thousand_deep(tmp_path, capsys):
    p = tmp_path / "deep.jsonl"
    p.write_text("[" * 1000 + "]" * 1000 + "\n")
    assert main(["render", str(p), "-o", str(tmp_path / "o.svg")]) == 2
    assert main(["replay", str(p)]) == 2
    assert "Traceback" not in capsys.readouterr().err


# ---------------- the human seat ----------------
def _seat(lines: str):
    out = io.StringIO()
    return HumanAgent(stdin=io.StringIO(lines), stdout=out), out


def test_the_human_seat_reprompts_on_what_a_person_may_type():
    g = nordlang.load("tictactoe")
    agent, out = _seat("²\n" + LONG + "\n\ud800\n5\n")
    assert agent.choose(g) == 4
    text = out.getvalue()
    assert "'²' is not one of the 9 options" in text
    assert "there is no option 111111111111...: the options are numbered 1 to 9" in text
    assert "that line holds a character that is not valid Unicode" in text


def test_the_human_seat_reprompts_on_bytes_that_are_not_utf8():
    g = nordlang.load("tictactoe")
    stdin = io.TextIOWrapper(io.BytesIO(b"\xff\xfe\n5\n"), encoding="utf-8")
    out = io.StringIO()
    assert HumanAgent(stdin=stdin, stdout=out).choose(g) == 4
    assert "'\ufffd\ufffd' is not one of the 9 options" in out.getvalue()


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(max_size=60), max_size=8))
def test_the_human_seat_survives_any_line_and_ends_cleanly_on_end_of_input(lines):
    """Any lines a person may type: the seat answers each (an option, or a
    reason and a new prompt) and ends cleanly when the input ends."""
    g = nordlang.load("tictactoe")
    text = "".join(line.replace("\n", " ").replace("\r", " ") + "\n" for line in lines)
    agent, _out = _seat(text)
    try:
        index = agent.choose(g)
    except EndOfInput:
        return
    assert 0 <= index < len(g.legal_moves())


def test_a_replay_line_is_json_within_the_limits(tmp_path):
    """(the replay reader's JSON is the limits' JSON: a deep line is refused before it is parsed)"""
    p = tmp_path / "r.jsonl"
    p.write_text(json.dumps({"format": "nordlang-replay/1"}) + "\n" + "[" * 200 + "]" * 200 + "\n")
    with pytest.raises(ReplayError, match="line 2: the JSON nests 200 levels deep"):
        _read(p)


# ---------------- sizes taken from data ----------------
@pytest.mark.parametrize("size, col", [("[7, 18446744073709551616]", 15), ("[7, 0x7fffffff]", 15), ("300", 11)])
def test_a_board_past_the_limit_is_refused_before_it_is_built(tmp_path, size, col):
    v = tmp_path / "v.yaml"
    v.write_text(f"description: x\nextends: hex\npatch:\n  boards:\n    size: {size}\n")
    with pytest.raises(NordError) as e:
        nordlang.load_rules("hex", 2, variants=[str(v)])
    assert (e.value.pos.line, e.value.pos.col) == (5, col)
    assert "is too large" in str(e.value) and "at most 200" in str(e.value)


def test_the_schema_states_the_limits_of_input():
    from nordlang.limits import MAX_BOARD_SIDE, MAX_GRID_SIDE
    from nordlang.rules.schema import schema
    s = json.dumps(schema("rulebook"))
    assert s.count(f'"maximum": {MAX_BOARD_SIDE}') == 2 and s.count(f'"maximum": {MAX_GRID_SIDE}') == 2


def test_explaining_a_move_whose_text_names_no_spaces_says_why(capsys):
    """(the explanation of groups(...) once sorted what the move named: '>2' beside a space was a TypeError)"""
    scenario = "variants/nord/scenarios/placement-1.yaml"
    from pathlib import Path
    assert main(["explain", str(Path(__file__).resolve().parent.parent / scenario), "place d2,>2"]) == 1
    out = capsys.readouterr().out
    assert ">2: not among the spaces allowed here (6 open spaces)" in out
    assert ">2,d2: not among the spaces allowed here (46 open spaces)" in out


# ---------------- scenarios ----------------
VIKINGS_SCENARIO = "variants/vikings/scenarios/boatsman-all-of-a-colour.yaml"


def _vikings_scenario(tmp_path, old, new):
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / VIKINGS_SCENARIO).read_text()
    assert old in text
    p = tmp_path / "s.yaml"
    p.write_text(text.replace(old, new))
    return p


def test_a_scenario_count_past_the_limit_is_refused_at_its_place(tmp_path, capsys):
    p = _vikings_scenario(tmp_path, "base(orange): [viking:red*2,", "base(orange): [viking:red*99999999,")
    assert main(["test", str(p)]) == 2        # (a scenario that cannot load: 2)
    out = capsys.readouterr().out
    assert "s.yaml:21:20: error: the count 99999999 in 'viking:red*99999999' is past the limit of 100,000 items" \
        in out


def test_a_map_drawn_for_a_game_without_a_board_is_an_error(tmp_path, capsys):
    p = _vikings_scenario(tmp_path, "position:\n", 'map:\n  - "ab"\nposition:\n')
    assert main(["test", str(p)]) == 2        # (a scenario that cannot load: 2)
    out = capsys.readouterr().out
    assert "s.yaml:10:1: error: 'map' draws a board, and 'Vikings' plays on none" in out


@pytest.mark.parametrize("extends", ["5", "[nord]", "{a: 1}"])
def test_an_extends_that_is_no_text_is_an_error_at_its_place(tmp_path, extends):
    p = tmp_path / "v.yaml"
    p.write_text(f"description: x\nextends: {extends}\n")
    with pytest.raises(NordError) as e:
        nordlang.load_rules("nord", 3, variants=[str(p)])
    assert (e.value.pos.line, e.value.pos.col) == (2, 10)
    assert "'extends' names one game or variant" in e.value.message
