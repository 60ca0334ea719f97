"""Scenario expectations and stops of issue 26: a choice's options named
for a player (what he could choose were the decision his now), a stop
before the first turn, a stop at every turn's end, and choices never put
to a player. Each test fails on the main branch before them."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import NORD_BOARD as BOARD  # noqa: F401
from helpers import scenario as _scenario  # noqa: F401
from helpers import scenario_error as _error
from helpers import scenario_failures as _failures

from nordlang.cli import main
from nordlang.scenario import Report, load_scenario

ROOT = Path(__file__).resolve().parent.parent
HANDS = "    hand(red): [axe, helmet]\n    hand(blue): [goblet, sword]\n"
# blue can neither place nor challenge (every man of his a warrior in B, no tile in hand); red can
BLUE_STUCK = "    B: [jarl:blue, man:blue*24]\n    hand(blue): []\n"
# both players are stuck: every turn is a scoring
STUCK = ('game: nord\nplayers: 2\nmap:\n  - "~~~~~~~~~"\n  - "~A~~~~~~~"\n  - "~~~~~~~~~"\n  - "~~~~~~X~~"\n'
         '  - "~B~~~~~~~"\nstructures: {A: settlement, B: settlement, X: dragon}\nseats: [A, B]\n')
STUCK_AT = ("  at:\n    A: [jarl:red, man:red*24]\n    B: [jarl:blue, man:blue*24]\n    hand(red): []\n"
            "    hand(blue): []\n")
BLUE_PLACES = ["c2,d2", "d1,e1", "d2", "e1", "e1,f1", "e3", "e3,f3", "f1,f2", "f2", "f2,g2"]




# ---------------- options named for a player ----------------
def test_options_named_for_each_player_from_one_position(tmp_path):
    """Red is to play: red's and blue's 'play' options are checked in one
    file, each from his own hand; a wrong list fails with the player's real one."""
    text = ("position:\n  player: red\n  at:\n" + HANDS + "moves:\n  - expect:\n      options:\n"
            "        play: {red: [axe, helmet, none], blue: [goblet, sword, none]}\n")
    assert _failures(tmp_path, text) == []
    wrong = text.replace("blue: [goblet, sword, none]", "blue: [goblet, none]")
    assert _failures(tmp_path, wrong) == [("options of 'play' for blue", "[goblet, none]", "[goblet, none, sword]")]


def test_named_options_mid_turn_are_the_same_decision_made_by_him(tmp_path):
    """After red plays none, 'place' for blue is placing from blue's
    settlement B; the game itself goes on unchanged (red still places)."""
    text = ("position:\n  player: red\nmoves:\n  - play none\n  - expect:\n      options:\n"
            f"        place: {{blue: [{', '.join(map(repr, BLUE_PLACES))}]}}\n"
            "      choice: place\n      player: red\n      events: []\n  - place c2\n"
            "expect:\n  at: {c2: [man:red]}\n  choice: play\n  player: blue\n")
    assert _failures(tmp_path, text) == []
    sc = _scenario(tmp_path, text)
    sc.run_moves(1)
    st = sc.game.state
    before = (st.version, len(st.events), len(st.history), st.player, st.turn, st.pending.step.name)
    rep = Report(sc.path, "")
    sc.check(sc.data["moves"][1]["expect"], ("moves", 1, "expect"), rep)
    assert rep.passed
    st = sc.game.state      # (the expectation is checked on a copy: nothing of the game changed)
    assert (st.version, len(st.events), len(st.history), st.player, st.turn, st.pending.step.name) == before


def test_named_options_of_a_choice_not_pending(tmp_path):
    """A choice other than the pending one cannot be asked of anybody: the failure names what is pending."""
    text = "position:\n  player: red\nexpect:\n  options: {attack: {blue: [A>B]}}\n"
    assert _failures(tmp_path, text) == [
        ("options of 'attack' for blue", "[A>B]", "no 'attack' choice pending (pending: play, for red)")]


def test_named_options_of_a_choice_the_rules_give_to_a_player():
    """Vikings' 'ferry' is decided by the player the scoring names ('by'),
    whoever's turn it is: purple cannot be given orange's decision."""
    path = ROOT / "variants/vikings/scenarios/boatsman-all-of-a-colour.yaml"
    sc = load_scenario(path)
    from nordlang.scenario.asked import options_for
    assert options_for(sc, "ferry", 0) == (["green", "red", "each", "stop"], None)
    assert options_for(sc, "ferry", 1) == (None, "were this decision purple's, 'ferry' would still be orange's: "
                                                 "the rules say who decides it, whoever's turn it is")


@pytest.mark.parametrize("options, message, where, hint", [
    ("{play: {bleu: [none]}}", "'bleu' is not a player of this game", (14, 20), "did you mean 'blue'?"),
    ("{plya: {blue: [none]}}", "the rules ask no choice 'plya'", (14, 13), "did you mean 'play' or 'place'?"),
])
def test_named_options_are_checked_before_the_script_runs(tmp_path, options, message, where, hint):
    e = _error(tmp_path, f"position:\n  player: red\nexpect:\n  options: {options}\n")
    assert (e.message, (e.pos.line, e.pos.col), e.hint) == (message, where, hint)


# ---------------- a stop before the first turn ----------------
def test_a_stop_before_the_first_turn(tmp_path):
    """Both players stuck: without the stop, red's first turn (a scoring)
    has run before the first expectation. With it, nothing has: the
    position is the setup's and the listing's; next_turn begins the turn of
    position/player (blue, turn 3: not the next in turn order)."""
    head = STUCK + "stop_before_first_turn: true\nstop_at_quiet_turns: true\n"
    text = ("position:\n  player: blue\n  turn: 3\n" + STUCK_AT + "moves:\n  - expect:\n      choice: null\n"
            "      events: []\n      values: {'counter(\"scorings\")': 0, turn: 2}\n  - next_turn: true\n"
            "  - expect:\n      events: [blue can neither place nor challenge, "
            "'scoring 1: resources (nobody could move)']\n      values: {'counter(\"scorings\")': 1, turn: 3, "
            "player: 1}\n")
    assert _failures(tmp_path, text, head) == []
    sc = _scenario(tmp_path, text, STUCK + "stop_at_quiet_turns: true\n")
    assert (sc.game.state.counters[("counter", "scorings")], sc.game.state.turn) == (1, 3)


def test_at_the_stop_before_the_first_turn_nobody_decides(tmp_path):
    """'player', 'legal' and a pending choice's 'options' say where the script stands."""
    text = "stop_before_first_turn: true\nposition:\n  player: blue\nexpect:\n  player: blue\n  legal: [play none]\n" \
           "  options: {play: [none]}\n"
    stop = "stopped before the first turn, blue's; the next move or next_turn begins it"
    assert _failures(tmp_path, text) == [
        ("who decides now", "blue", f"nobody ({stop})"),
        ("'play none' is legal", "legal", stop),
        ("options of 'play'", "[none]", f"no 'play' choice pending (pending: none: {stop})")]


def test_the_first_move_begins_the_first_turn_in_every_branch(tmp_path):
    """A move at the stop begins the first turn, of position/player, also
    in a branch (each on its own copy), and options named for a player are
    his turn's first decision, begun on a copy."""
    text = ("stop_before_first_turn: true\nposition:\n  player: blue\n  turn: 3\n  at:\n" + HANDS +
            "moves:\n  - expect:\n      options: {play: {red: [axe, helmet, none], blue: [goblet, sword, none]}}\n"
            "branches:\n  plays:\n    moves: [play none]\n    expect: {choice: place, player: blue, "
            "values: {turn: 3}}\n  waits:\n    moves: [next_turn: true]\n    expect: {choice: play, player: blue}\n")
    assert _failures(tmp_path, text) == []
    assert [b for b in _scenario(tmp_path, text).branches] == ["plays", "waits"]


# ---------------- a stop at every turn's end ----------------
CAVE_IN = ("position:\n  player: red\n  at:\n" + BLUE_STUCK + "moves:\n  - play none\n  - place c2\n  - expect:\n"
           "      choice: null\n      events: [red places on c2]\n      at: {c2: [man:red]}\n"
           "      values: {'counter(\"scorings\")': 0}\n  - next_turn: true\n  - expect:\n      choice: null\n"
           "      events: [blue can neither place nor challenge, 'scoring 1: resources (nobody could move)',\n"
           "               \"cave-in: red's mountain worker on c2 goes home\"]\n      at: {c2: []}\n"
           "  - play none\nexpect:\n  choice: place\n  player: red\n  points_from: {red: {resources: 1}}\n")


def test_a_stop_between_a_turn_that_decided_and_one_that_asks_nothing(tmp_path):
    """Red places on the mountain c2; blue's turn asks nothing (a scoring,
    whose cave-in sends c2's worker home). stop_at_turn_ends shows c2
    between the two turns; stop_at_quiet_turns stops only after blue's."""
    assert _failures(tmp_path, "stop_at_turn_ends: true\n" + CAVE_IN) == []
    quiet = _failures(tmp_path, "stop_at_quiet_turns: true\n" + CAVE_IN)
    assert [what for what, _, _ in quiet] == [
        "pieces at c2", "the events since the previous step", 'value of counter("scorings")', "the pending choice",
        "the events since the previous step"]
    assert quiet[0] == ("pieces at c2", "[man:red]", "[]")     # (the cave-in has come before the first stop)
    assert quiet[2] == ('value of counter("scorings")', "0", "1")


def test_turn_ends_and_quiet_turns_together_are_an_error(tmp_path):
    e = _error(tmp_path, "stop_at_quiet_turns: true\nstop_at_turn_ends: true\n")
    assert (e.message, e.hint, e.expected, (e.pos.line, e.pos.col)) == (
        "stop_at_quiet_turns beside stop_at_turn_ends: every turn ends with a stop already, a quiet one too",
        "leave out stop_at_quiet_turns", "one of the two", (11, 1))


# ---------------- never asked ----------------
def test_never_asked_counts_the_pending_choice_and_the_answered_ones(tmp_path):
    text = ("position:\n  player: red\nmoves:\n  - expect:\n      never_asked: [place]\n  - expect:\n"
            "      never_asked: [play]\n  - play none\n  - place c2\nexpect:\n  never_asked: {attack: [red, blue]}\n")
    assert _failures(tmp_path, text) == [
        ("'play' was never asked", "never asked", "asked of red in turn 1, pending now")]
    text = text.replace("never_asked: {attack", "never_asked: {play: [red, blue], attack")
    assert _failures(tmp_path, text)[1] == (
        "'play' was never asked of red, blue", "never asked",
        "asked of red in turn 1, answered 'none'; blue in turn 2, pending now")


def test_a_choice_taken_at_once_was_not_asked_unless_the_scenario_stops_at_it(tmp_path):
    """Placing on c2,d2 reaches B: the attack A>B, its one option, is taken
    at once (not put to red); with stop_at_forced it is put to him."""
    text = ("position:\n  player: red\nmoves:\n  - play none\n  - place c2,d2\n{attack}expect:\n"
            "  never_asked: [attack]\n")
    assert _failures(tmp_path, text.replace("{attack}", "")) == []
    assert _failures(tmp_path, "stop_at_forced: [attack]\n" + text.replace("{attack}", "  - attack A>B\n")) == [
        ("'attack' was never asked", "never asked", "asked of red in turn 1, answered 'A>B'")]


@pytest.mark.parametrize("never, message, where, hint", [
    ("[atack]", "the rules ask no choice 'atack'", (14, 17), "did you mean 'attack'?"),
    ("{attack: [red, bleu]}", "'bleu' is not a player of this game", (14, 31), "did you mean 'blue'?"),
    ("{atack: [red]}", "the rules ask no choice 'atack'", (14, 17), "did you mean 'attack'?"),
])
def test_never_asked_names_are_checked_before_the_script_runs(tmp_path, never, message, where, hint):
    """A misspelt choice would hold whatever happens: it is an error at its place."""
    e = _error(tmp_path, f"position:\n  player: red\nexpect:\n  never_asked: {never}\n")
    assert (e.message, (e.pos.line, e.pos.col), e.hint) == (message, where, hint)


@pytest.mark.parametrize("expect, message, where", [
    ("never_asked: []", "'never_asked' names no choice", (12, 16)),
    ("never_asked: {attack: []}", "'attack' is never asked of no player", (12, 25)),
    ("options: {play: {}}", "the options of 'play' are named for no player", (12, 19)),
])
def test_an_empty_list_of_names_is_an_error(tmp_path, expect, message, where):
    e = _error(tmp_path, f"expect:\n  {expect}\n")
    assert (e.message, (e.pos.line, e.pos.col)) == (message, where)


def test_the_bundled_examples_pass(capsys):
    """The two bundled examples of these stops and expectations pass under `nord test`."""
    files = [ROOT / "variants/nord/scenarios" / n for n in ("who-is-asked-what.yaml", "turn-ends-cave-in.yaml")]
    assert main(["test", *map(str, files)]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == "3 passed, 0 failed"


def test_explain_at_a_stop_between_turns_judges_the_next_turns_move(capsys):
    """A scenario that ends at a stop between turns: `nord explain` judges
    a move of the next turn (red's), as the script's next move would be."""
    path = ROOT / "variants/nord/scenarios/turn-ends-cave-in.yaml"
    assert main(["explain", str(path), "play none"]) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("play none: legal (red decides 'play'")
