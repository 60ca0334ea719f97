"""Scenario steps and expectations of issue 18 (points 4, 5, 6, 8 and 9):
stops at forced choices and at quiet turns' ends, a flow run now, the
legal moves counted and listed whole, the rulebook's notes as events, and
a track's empty slots. Each test fails on the main branch before them."""

from __future__ import annotations

import pytest
from helpers import NORD_BOARD as BOARD  # noqa: F401
from helpers import scenario as _scenario  # noqa: F401
from helpers import scenario_error as _error
from helpers import scenario_failures as _failures

from nordlang.engine.game import Game

# both players can neither place nor challenge: every man is a warrior, no tile in hand
STUCK = ('game: nord\nplayers: 2\nmap:\n  - "~~~~~~~~~"\n  - "~A~~~~~~~"\n  - "~~~~~~~~~"\n  - "~~~~~~X~~"\n'
         '  - "~B~~~~~~~"\nstructures: {A: settlement, B: settlement, X: dragon}\nseats: [A, B]\n'
         "position:\n  player: red\n  at:\n    A: [jarl:red, man:red*24]\n    B: [jarl:blue, man:blue*24]\n"
         "    hand(red): []\n    hand(blue): []\n")
ATTACK = ["red places on c2,d2", "red attacks B from A along c2-d2 with 2 attacker(s)",
          "c2: red's attacker dies (large dragon boat)", "d2: red's attacker becomes a warrior in B"]




# ---------------- point 4: forced choices and quiet turns ----------------
def test_a_forced_choice_can_be_stopped_at_and_expected(tmp_path):
    """Point 4: with stop_at_forced, a choice with one option is asked, so
    options, legal, illegal and legal_moves work on it; it is then played
    like any move, and the game comes out as it would have."""
    script = ("stop_at_forced: [attack, path]\nposition:\n  player: red\nmoves:\n  - play none\n  - place c2,d2\n"
              "  - expect:\n      options: {attack: [A>B]}\n      legal: [attack A>B]\n      illegal: [attack B>A]\n"
              "      legal_moves: [attack A>B]\n  - attack A>B\n  - expect:\n      legal_moves: [path c2-d2]\n"
              "  - path c2-d2\nexpect:\n  choice: play\n  player: blue\n  events: "
              "[\"red attacks B from A along c2-d2 with 2 attacker(s)\",\n"
              "           \"c2: red's attacker dies (large dragon boat)\",\n"
              "           \"d2: red's attacker becomes a warrior in B\"]\n"
              "  at: {B: [jarl:blue, man:blue, man:red], longboat: [jarl:yellow, jarl:green, man:red]}\n")
    assert _failures(tmp_path, script) == []


def test_stop_at_forced_true_asks_every_one_option_choice(tmp_path):
    """Point 4: stop_at_forced: true asks every choice, the first turn's
    one-option 'action' too (without it, that choice is taken at once)."""
    sc = _scenario(tmp_path, "stop_at_forced: true\nposition:\n  player: red\n")
    assert [str(m) for m in sc.game.legal_moves()] == ["action place"]
    assert _scenario(tmp_path, "position:\n  player: red\n").game.choice == "play"


def test_stop_at_forced_names_choices_the_rules_ask(tmp_path):
    """Point 4: a choice name the rules never ask is an error at its place."""
    e = _error(tmp_path, "stop_at_forced: [atack]\n")
    assert (e.message, e.hint) == ("the rules ask no choice 'atack'", "did you mean 'attack'?")
    assert (e.pos.line, e.pos.col) == (11, 18)


def test_a_game_never_stops_at_forced_choices():
    """Point 4: the stops are the scenario's: a game's machine has none."""
    from nordlang import load_rules
    m = Game(load_rules("nord", players=2)).machine
    assert (m.ask_forced, m.turn_stop) == (frozenset(), None)


def test_quiet_turns_stop_one_at_a_time(tmp_path):
    """Point 4: where both players are stuck, each turn that asks nothing
    ends with a stop: one scoring per turn, not all five at once."""
    script = ("stop_at_quiet_turns: true\nmoves:\n  - expect:\n      choice: null\n      over: false\n"
              "      events: [red can neither place nor challenge, 'scoring 1: resources (nobody could move)']\n"
              "      values: {'counter(\"scorings\")': 1}\n  - next_turn: true\n  - expect:\n"
              "      events_include: [blue can neither place nor challenge,\n"
              "                       'scoring 2: warriors (nobody could move)']\n"
              "      values: {'counter(\"scorings\")': 2}\n")
    assert _failures(tmp_path, script, STUCK) == []
    sc = _scenario(tmp_path, "", STUCK)           # (without the stop: both scorings at once, and red moves again)
    assert (sc.game.state.counters[("counter", "scorings")], sc.game.choice, sc.game.to_move) == (2, "place", 0)


def test_at_a_quiet_stop_nobody_decides(tmp_path):
    """Point 4: at a stop between turns 'player' says so; next_turn where a turn goes on fails, named."""
    head = STUCK.replace("position:", "stop_at_quiet_turns: true\nposition:")
    assert _failures(tmp_path, "expect:\n  player: red\n", head) == [
        ("who decides now", "red", "nobody (the turn of red has ended; the next move or next_turn begins the next)")]
    assert _failures(tmp_path, "position:\n  player: red\nmoves:\n  - next_turn: true\n") == [
        ("step 1 next_turn cannot be taken", "a stop between turns", "the turn goes on: the pending choice is 'play'")]


# ---------------- point 5: a flow run now ----------------
def test_a_flow_runs_now_then_the_pending_choice_is_asked_again(tmp_path):
    """Point 5: `run: 'scoring("test")'` scores now; the choice it
    interrupted is asked again and the script goes on."""
    script = ("position:\n  player: red\nmoves:\n  - run: 'scoring(\"test\")'\n  - expect:\n"
              "      events: ['scoring 1: resources (test)']\n      values: {'counter(\"scorings\")': 1}\n"
              "      choice: play\n      player: red\n  - play none\n  - place c2,d2\n"
              "expect:\n  events: " + repr(ATTACK).replace("\"", "'").replace("'s", "''s") + "\n  player: blue\n")
    assert _failures(tmp_path, script) == []


def test_a_flow_run_now_may_ask_choices_of_its_own(tmp_path):
    """Point 5: a flow that asks is answered by the next moves; when it
    ends, the game goes on where it was."""
    script = ("position:\n  player: red\nmoves:\n  - run: turn_a()\n  - play none\n  - place c2,d2\n"
              "  - expect:\n      choice: play\n      player: red\n  - play none\nexpect:\n  choice: place\n")
    assert _failures(tmp_path, script) == []


@pytest.mark.parametrize("call, message, hint", [
    ("scorng(1)", "the rules have no flow 'scorng'", "did you mean 'scoring' or 'after_scoring'?"),
    ("scoring()", "flow 'scoring' takes 1 argument(s) (trigger), got 0", None),
    ("scoring", "cannot read the flow call 'scoring'", None),
    ("scoring(nothing_here)", "unknown name 'nothing_here'", None),
])
def test_a_flow_to_run_is_checked_before_the_script_runs(tmp_path, call, message, hint):
    """Point 5: an unknown flow, a wrong argument count, a bad expression: errors at load."""
    e = _error(tmp_path, f"moves:\n  - run: '{call}'\n")
    assert (e.message, e.hint if hint else None) == (message, hint)
    assert e.pos.line == 12


def test_a_flow_cannot_run_when_the_game_is_over(tmp_path):
    """Point 5: 'run' after the end fails, named."""
    script = "moves:\n" + "  - run: 'scoring(\"x\")'\n" * 4 + "  - expect:\n      over: true\n      events: " \
        "['scoring 4: warriors (x)', 'scoring 5: treasures (after the last scoring)']\n  - run: 'scoring(\"x\")'\n"
    assert _failures(tmp_path, script) == [
        ("step 6 run 'scoring(\"x\")' cannot be run", "a flow that runs",
         "cannot run 'scoring(\"x\")': the game is over")]


# ---------------- point 6: move counts and whole move lists ----------------
def test_legal_moves_counted_and_listed_exactly(tmp_path):
    """Point 6: legal_count and legal_moves pass when exact, and fail with the difference."""
    stop = "stop_at_forced: [path]\nposition:\n  player: red\nmoves:\n  - play none\n  - place c2,d2\nexpect:\n"
    assert _failures(tmp_path, stop + "  legal_count: 1\n  legal_moves: [path c2-d2]\n") == []
    bad = stop + "  legal_count: 2\n  legal_moves: [path c2-d2, path d2-c2, path d2-c2]\n"
    assert _failures(tmp_path, bad) == [
        ("the number of legal moves", "2", "1: [path c2-d2]"),
        ("the legal moves", "[path c2-d2, path d2-c2, path d2-c2]",
         "[path c2-d2] (missing: [path d2-c2]; listed twice: [path d2-c2])")]
    assert _failures(tmp_path, "expect:\n  legal_moves: [place a1, 'place b1,a1']\n  legal_count: 0\n", STUCK) == [
        ("the number of legal moves", "0", "14"),         # (more than 12 moves: counted, not listed)
        ("the legal moves", "[place a1, place a1,b1]", "[place a1,a2, place a1,b1, place a2, place a2,a3, place a3,b3, "
         "place b1, place b1,c1, place b3, place b3,b4, place b3,c3, place c1,c2, place c2, place c2,c3, place c2,d2] "
         "(missing: [place a1]; unexpected: [place b1, place a2, place c2, place b3, place b1,c1, place a1,a2, "
         "place c1,c2, place c2,d2, place a2,a3, place a3,b3, place c2,c3, place b3,c3, place b3,b4])")]


# ---------------- point 8: events ----------------
def test_events_are_the_notes_since_the_previous_step(tmp_path):
    """Point 8: 'events' is exact and in order, 'events_include' a subsequence; a failure shows the difference."""
    script = ("position:\n  player: red\nmoves:\n  - play none\n  - place c2,d2\n  - expect:\n      events_include: "
              "['d2: red''s attacker becomes a warrior in B', 'red places on c2,d2']\nexpect:\n"
              "  events: ['red places on c2,d2', 'c2: red''s attacker dies (large dragon boat)']\n")
    (inc, exact) = _failures(tmp_path, script)
    assert inc == ("an event since the previous step", "red places on c2,d2",
                   "not after the events listed before it; the events: " + ("\n" + " " * 16).join(ATTACK))
    assert exact == ("the events since the previous step", f"red places on c2,d2\n{' ' * 16}c2: red's attacker dies "
                     "(large dragon boat)", ("\n" + " " * 16).join(ATTACK) + "\n      unexpected: " + ATTACK[1]
                     + "\n      unexpected: " + ATTACK[3])


# ---------------- point 9: a track's empty slots ----------------
def test_a_track_is_compared_slot_by_slot_with_its_gaps(tmp_path):
    """Point 9: '-' states an empty slot, in a position and an expectation; a gap elsewhere fails."""
    head = BOARD + "position:\n  at:\n    longboat: [jarl:yellow, '-', jarl:green]\n"
    assert _failures(tmp_path, "expect:\n  at: {longboat: [jarl:yellow, '-', jarl:green, '-']}\n", head) == []
    assert _failures(tmp_path, "expect:\n  at: {longboat: [jarl:yellow, jarl:green, '-']}\n", head) == [
        ("pieces at longboat", "[jarl:yellow, jarl:green]", "[jarl:yellow, -, jarl:green]")]


@pytest.mark.parametrize("expect, message", [
    ("longboat: [jarl:yellow, jarl:green, '-', '-', '-', '-', '-', '-', '-', '-', '-']",
     "longboat has 10 slots; 11 listed"),
    ("c2: ['-']", "'-' (an empty slot) is only for tracks"),
])
def test_an_empty_slot_is_for_a_track_and_within_it(tmp_path, expect, message):
    """Point 9: more slots than the track has, or '-' on a place that is no track: an error, not a silent pass."""
    e = _error(tmp_path, f"expect:\n  at: {{{expect}}}\n")
    assert e.message == message


END = """description: The game ended where it stands; red has 3 points to blue's 1.
game: nord
players: 2
position:
  player: red
  points: {red: 3, blue: 1}
moves:
  - expect: {over: false}
  - end_game: true
expect:
  over: true
  winner: [WHO]
"""


def test_end_game_ends_the_game_where_it_stands_and_its_result_can_be_expected(tmp_path, capsys):
    """A position's result asked without playing the rulebook's way to its end."""
    from nordlang.cli import main
    path = tmp_path / "end.yaml"
    path.write_text(END.replace("WHO", "red"))
    assert main(["test", str(path)]) == 0
    path.write_text(END.replace("WHO", "blue"))
    assert main(["test", str(path)]) == 1
    out = capsys.readouterr().out
    assert "expected: [blue]" in out and "actual:   [red]" in out


def test_end_game_on_a_finished_game_fails_at_its_step(tmp_path, capsys):
    from nordlang.cli import main
    path = tmp_path / "over.yaml"
    path.write_text("description: over twice\ngame: tictactoe\nplayers: 2\nposition:\n  player: blue\n"
                    "  at: {b1: mark:blue, b3: mark:blue, a1: mark:red, c1: mark:red, a3: mark:red}\n"
                    "moves:\n  - place b2\n  - end_game: true\n")
    assert main(["test", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[1].strip() == f"{path}:9:5: step 2 end_game cannot be taken"
    assert [line.strip() for line in out[2:4]] == ["expected: a game that goes on",
                                                   "actual:   the game is already over"]
