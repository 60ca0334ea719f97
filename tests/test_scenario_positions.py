"""Issue 18, points 1, 2, 3 and 11: what a scenario's position may hold,
its seats, its track values, and the board it draws."""

from __future__ import annotations

import pytest

from nordlang.board.grid import parse_space
from nordlang.engine.invariants import invariant_problem
from nordlang.errors import SchemaError
from nordlang.scenario import load_scenario

HEAD = ("description: a scenario\ngame: nord\nplayers: 2\nmap:\n  - \"~~~~~~~~~\"\n  - \"~AmmB~~X~\"\n"
        "  - \"~ffkff~~~\"\n  - \"~C~~~~~~~\"\nstructures: {A: settlement, B: settlement, C: settlement, X: dragon}\n")


def _load(tmp_path, text):
    path = tmp_path / "s.yaml"
    path.write_text(text)
    return load_scenario(path)


def test_a_position_holds_pieces_beyond_what_the_setup_made(tmp_path):
    """Point 1: a neutral jarl on the large boat (the setup made one, for C:
    this is a second), an empty treasure supply, one fishing boat of the six,
    blue's jarl on no settlement: the listed places hold exactly what they
    list, pieces are made for the scenario and conserved from there on."""
    sc = _load(tmp_path, HEAD + "seats: [A, B]\nposition:\n  player: red\n  at:\n"
               "    longboat: [jarl:yellow, jarl:green, jarl]\n    treasures: []\n    fleet: [boat]\n"
               "    B: [man:blue]\nmoves:\n  - play none\n  - place c2\n")
    st, rules = sc.game.state, sc.rules
    assert [rules.show(x) for x in st.tracks[("longboat", None)] if x is not None] == \
        ["jarl:yellow", "jarl:green", "jarl"]
    assert st.total(("treasures", None)) == 0 and st.amount(("fleet", None), ("boat", None)) == 1
    assert st.items("B") == (("man", 1),) and st.amount("C", ("jarl", None)) == 1
    assert st.counters[("created", ("jarl", None))] == 2 and st.counters.get(("created", ("jarl", 1)), 0) == 0
    assert sum(n for k, n in st.counters.items() if k[1][0] == "treasure") == 6     # the hands' (dealt by the setup)
    report = sc.run()
    assert report.failures == []
    assert sc.game.state.amount(parse_space("c2"), ("man", 0)) == 1
    assert invariant_problem(sc.game.state) is None


def test_a_listed_piece_comes_from_a_listed_place_then_its_home_then_is_made(tmp_path):
    """Point 1: red's jarl listed on C moves there from A (listed empty);
    a man listed beyond the 25 of the box is made; pieces a listing takes
    off and lists nowhere go home (men), or leave the game (the jarl of B)."""
    sc = _load(tmp_path, HEAD + "seats: [A, B]\nposition:\n  player: blue\n  at:\n    A: []\n    B: []\n"
               "    C: [jarl:red, man:red*2]\n    supply(red): [man:red*30]\n")
    st = sc.game.state
    assert st.items("A") == () and st.items("B") == ()
    assert st.amount("C", ("man", 0)) == 2 and st.amount("C", ("jarl", 0)) == 1
    assert st.amount(("supply", 0), ("man", 0)) == 30 and st.amount(("score_marker", 0), ("man", 0)) == 1
    assert st.amount(("supply", 1), ("man", 1)) == 24
    assert st.counters[("created", ("man", 0))] == 33 and st.counters.get(("created", ("jarl", 1)), 0) == 0


def test_a_colour_no_player_has_is_refused_unless_the_setup_made_it(tmp_path):
    """Point 1: man:yellow in a game of 2 is a mistake, not a piece made."""
    with pytest.raises(SchemaError) as e:
        _load(tmp_path, HEAD + "seats: [A, B]\nposition:\n  at:\n    C: [man:yellow]\n")
    assert str(e.value.pos).endswith("s.yaml:13:9")
    assert e.value.message == "man:yellow is yellow's, who does not play in a game of 2, and the setup made none"


def test_without_seats_the_position_decides_where_each_player_starts(tmp_path):
    """Point 2: no 'seats' on a drawn map: red's seat is C, where the
    position lists red's jarl (before: A, by letter, which kept the man the
    setup put there); A, no one's seat, gets the neutral jarl."""
    sc = _load(tmp_path, HEAD + "position:\n  at:\n    C: [jarl:red, man:red]\n    B: [jarl:blue, man:blue]\n")
    st = sc.game.state
    assert sc.rules.seats == ("C", "B")
    assert st.items("A") == (("jarl", None),) and st.amount(("supply", 0), ("man", 0)) == 23


def test_seats_naming_no_seat_is_an_error(tmp_path):
    """Point 2: 'seats: []' (before: silently no seats at all)."""
    with pytest.raises(SchemaError) as e:
        _load(tmp_path, HEAD + "seats: []\n")
    assert e.value.message == "'seats: []' names no seat"
    assert e.value.pos.line == 10 and e.value.pos.col == 1
    assert e.value.hint.startswith("leave 'seats' out (the position, or the rulebook's own setup, then decides")


def test_a_scenario_sets_a_tracks_values_and_counters(tmp_path):
    """Point 3: the large boat of three slots worth 5, 10, 15 (the setup's
    two unused jarls fill the first two): blue challenges A for 15; the
    counter of scorings is set too."""
    sc = _load(tmp_path, HEAD.replace("~AmmB~~X~", "~AmmX~~B~") + "seats: [B, C]\nposition:\n  player: blue\n"
               "  counters: {scorings: 1}\n  track_values: {longboat: [5, 10, 15]}\n  at:\n"
               "    A: [jarl, man:blue*3]\n    c2: man:red\n    d2: man:blue\n"
               "moves:\n  - expect:\n      values: {'next_value(longboat)': 15, 'free_slots(longboat)': 1,"
               " 'counter(\"scorings\")': 1}\n  - action challenge\n"
               "expect:\n  points_from: {blue: {jarls: 15}}\n")
    assert sc.rules.track_values["longboat"] == (5, 10, 15)
    assert sc.run().failures == []


def test_track_values_of_no_track_is_an_error(tmp_path):
    """Point 3: a name that is no track is named, with the tracks there are."""
    with pytest.raises(SchemaError) as e:
        _load(tmp_path, HEAD + "seats: [A, B]\nposition:\n  track_values: {fleet: [1]}\n")
    assert e.value.message == "'fleet' is not a track of this game"
    assert (e.value.pos.line, e.value.pos.col, e.value.expected) == (12, 18, "longboat")


def test_a_map_without_the_small_dragon_boat_fails_at_load_naming_the_rule(tmp_path):
    """Point 11: before, it loaded and failed at the first challenge test
    with "none is not a space, port or structure of this board"."""
    text = HEAD.replace("~X~", "~~~").replace(", X: dragon", "") + "seats: [A, B]\n"
    with pytest.raises(SchemaError) as e:
        _load(tmp_path, text)
    assert e.value.message == ("this scenario's map lacks what a rule of the rulebook needs: challenge (game turn "
                               "B) needs the small dragon boat: the board has one structure of kind dragon")
    assert (e.value.pos.line, e.value.pos.col) == (4, 1)
    assert e.value.hint.startswith("the check is at ") and "islands.yaml:" in e.value.hint


def test_the_map_check_gives_exit_status_2(tmp_path, capsys):
    """Point 11, from the command line: `nord test` says it with file:line:col."""
    from nordlang.cli import main
    path = tmp_path / "s.yaml"
    path.write_text(HEAD.replace("~X~", "~~~").replace(", X: dragon", "") + "seats: [A, B]\n")
    assert main(["test", str(path)]) == 2
    out = capsys.readouterr()
    assert f"{path}:4:1: error: this scenario's map lacks what a rule of the rulebook needs" in out.out + out.err


def test_every_mistake_of_a_position_is_told_at_once(tmp_path, capsys):
    """Three mistakes in three places of one position: one run names all
    three, each at its own line (not one per run); the places without a
    mistake are still read. One mistake alone is that error itself."""
    from nordlang.cli import main
    from nordlang.errors import ErrorList
    text = (HEAD + "seats: [A, B]\nposition:\n  player: red\n  at:\n    C: [man:yellow]\n"
            "    Q: [man:red]\n    B: [man:blue]\n  counters: {scorinks: 1}\n")
    with pytest.raises(ErrorList) as e:
        _load(tmp_path, text)
    found = [(str(x.pos).rsplit(":", 2)[-2], x.message) for x in e.value.errors]
    assert found == [("14", "man:yellow is yellow's, who does not play in a game of 2, and the setup made none"),
                     ("15", "unknown location 'Q'"), ("17", "the rules use no counter 'scorinks'")]
    assert main(["test", str(tmp_path / "s.yaml")]) == 2
    out = capsys.readouterr()
    assert all(f"s.yaml:{line}:" in out.out + out.err for line in ("14:9", "15:5", "17:14")), out
