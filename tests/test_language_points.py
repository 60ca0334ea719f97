"""Points a new user met writing Reversi, Breakthrough, a dice race and
Goofspiel from the docs (issue 26): space arithmetic, setting a counter,
a note's pair of numbers, and the errors that named nothing."""

from pathlib import Path

import pytest

import nordlang
from nordlang.engine.record import describe
from nordlang.errors import NordError

ROOT = Path(__file__).resolve().parent.parent
TICTACTOE = (ROOT / "rulebook" / "tictactoe" / "tictactoe.yaml").read_text()
CONNECT3 = ROOT / "tests" / "games" / "connect3" / "connect3.yaml"


def _tictactoe(tmp_path, old="", new="", name="t.yaml"):
    """Tic-tac-toe with `old` replaced by `new` in its text."""
    assert old in TICTACTOE
    path = tmp_path / name
    path.write_text(TICTACTOE.replace(old, new, 1))
    return path


# ---------------------------------------------------------------- 1. space arithmetic
def test_space_at_step_and_ray_follow_a_square_board(tmp_path):
    g = nordlang.load(str(_tictactoe(tmp_path)), seed=0)
    assert g.evaluate("space_at(1, 2)") == "b1"                 # row 1, column 2, as row() and column() count
    assert g.evaluate("space_at(4, 1)") is None                 # no such space
    assert g.evaluate("space_at(row(s), column(s)) == s", s=(1, 2)) is True
    assert g.evaluate('step(space("a1"), "S")') == "a2"
    assert g.evaluate('step(space("a1"), "N")') is None         # off the board
    assert g.evaluate('step(space("b2"), "NE")') == "c1"        # a line may run along a diagonal
    assert g.evaluate('ray(space("a1"), "SE")') == ("b2", "c3")  # nearest first, to the edge
    assert g.evaluate('ray(space("c3"), "W")') == ("b3", "a3")
    assert g.evaluate('ray(space("a1"), "N")') == ()
    assert g.evaluate("board_directions") == ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def test_a_reversi_flip_reads_as_rays(tmp_path):
    """The spaces a stone on s flips in direction d: the run of the other's stones up to one of mine."""
    g = nordlang.load(str(_tictactoe(tmp_path)), seed=0)
    g.play_index(0)                     # red on a1 (the first open space)
    text = ('[t for d in board_directions for t in ray(space("c1"), d) if piece_at(t) != none]')
    assert g.evaluate(text) == ("a1",)


def test_steps_and_rays_on_a_hex_board_are_the_hex_directions():
    g = nordlang.load(str(CONNECT3), seed=0)
    assert g.evaluate("board_directions") == ("NW", "NE", "E", "SE", "SW", "W")
    assert g.evaluate('ray(space("a1"), "E")') == ("b1", "c1")
    assert g.evaluate('step(space("b2"), "NE")') == "c1"
    with pytest.raises(NordError, match=r"'N' is not a direction of this board") as e:
        g.evaluate('step(space("b2"), "N")')
    assert "NW, NE, E, SE, SW, W" in str(e.value)


def test_a_graph_board_has_no_rays(tmp_path):
    path = _tictactoe(tmp_path, "boards:\n  size: [3, 3]                   # square geometry, the default\n"
                                "  open: cell\n",
                      "boards:\n  geometry: graph\n  open: cell\n  spaces: [a, b, c]\n  edges: [[a, b], [b, c]]\n")
    g = nordlang.load(str(path), seed=0)
    for text in ('ray(space("a"), "E")', 'step(space("a"), "E")', "space_at(1, 1)", "board_directions"):
        with pytest.raises(NordError, match="a graph board has no directions") as e:
            g.evaluate(text)
        assert "Traceback" not in str(e.value)


# ---------------------------------------------------------------- 2. setting a counter
def test_set_counter_sets_a_counter_whatever_it_held(tmp_path):
    path = _tictactoe(tmp_path, "      move(mark(player), supply(player), place)\n",
                      "      move(mark(player), supply(player), place)\n"
                      '      add("n", 5)\n      set_counter("n", 2)\n      set_counter("m", turn)\n')
    g = nordlang.load(str(path), seed=0)
    g.play_index(0)
    assert g.evaluate('counter("n")') == 2
    assert g.evaluate('counter("m")') == 1                     # the turn it was set in
    g.play_index(0)
    assert g.evaluate('counter("n")') == 2


# ---------------------------------------------------------------- 3. a note's pair of numbers
def test_a_pair_a_note_writes_out_is_shown_as_numbers(tmp_path):
    path = _tictactoe(tmp_path, "      move(mark(player), supply(player), place)\n",
                      "      move(mark(player), supply(player), place)\n"
                      '      note("pair", [9, 12])\n      note("at", place, (row(place), 3))\n'
                      '      note("pairs", [[1, 2], (3, 4)])\n')
    g = nordlang.load(str(path), seed=0)
    g.play_index(0)                     # a1
    lines = [describe(g.rules, ev) for ev in g.state.events if ev[0] == "note"]
    assert lines == ["pair (9, 12)", "at a1 (1, 3)", "pairs ((1, 2), (3, 4))"]


# ---------------------------------------------------------------- 4. a constant index out of range
def test_a_written_list_indexed_out_of_range_is_a_compile_time_error(tmp_path):
    path = _tictactoe(tmp_path, "  full: 'len(open_spaces(spaces)) == 0'\n",
                      "  full: 'len(open_spaces(spaces)) == 0'\n  third: '[1, 2][5]'\n")
    with pytest.raises(NordError) as e:
        nordlang.load(str(path), seed=0)
    text = str(e.value)
    assert "index 5 is out of range: the list has 2 entries (0..1)" in text
    line = TICTACTOE.splitlines().index("  full: 'len(open_spaces(spaces)) == 0'") + 2
    assert f"t.yaml:{line}:" in text and "[1, 2][5]" in text and "Traceback" not in text


# ---------------------------------------------------------------- 5. errors that named nothing
def _errors(path) -> str:
    with pytest.raises(NordError) as e:
        nordlang.load(str(path), seed=0)
    text = str(e.value)
    assert "Traceback" not in text
    return text


def test_a_definition_under_procedures_is_one_error_saying_so(tmp_path):
    path = _tictactoe(tmp_path, "  full: 'len(open_spaces(spaces)) == 0'\n",
                      "  full: 'len(open_spaces(spaces)) == 0'\nprocedures:\n  half(n): 'n // 2'\n")
    text = _errors(path)
    assert text.count("error:") == 1
    assert "procedure 'half(n)': this looks like an expression" in text and "go under define:" in text
    assert "without operand" not in text and "unexpected" not in text


def test_a_choice_named_like_a_piece_kind_is_one_error_naming_the_choice(tmp_path):
    """(A choice may share a name that no text after it calls: the bundled variants do.)"""
    path = _tictactoe(tmp_path, "  - choose: place\n",
                      "  - choose: mark\n    from: 'open_spaces(spaces)'\n  - choose: place\n")
    two_calls = "      move(mark(player), supply(player), place)\n      if won(player) {"     # mark(...) twice
    path.write_text(path.read_text().replace("      if won(player) {", two_calls))
    text = _errors(path)
    assert text.count("error:") == 1
    assert "'mark' here is the choice 'mark', which hides the kind of piece or zone mark(...)" in text
    assert "is a variable, not a function" not in text


# ---------------------------------------------------------------- 6. notation.path, documented
def test_notation_path_joins_any_tuple_of_spaces_and_the_reference_says_so(tmp_path):
    path = _tictactoe(tmp_path, "zones:\n", 'notation: {tuple: ">", path: "-"}\n\nzones:\n')
    rules = nordlang.load(str(path), seed=0).rules
    assert rules.show(((0, 0), (1, 1))) == "a1-b2"              # a pair of spaces: the path's separator
    assert rules.show(((0, 0), (1, 1), (2, 2))) == "a1-b2-c3"
    assert rules.show(((0, 0), "x")) == "a1>x"                  # anything else: the tuple's
    doc = (ROOT / "docs" / "rulebook-format.md").read_text()
    section = doc.split("#### `notation.path`")[1].split("\n#")[0]
    assert "pair of spaces" in section and "a1-b2" in section
