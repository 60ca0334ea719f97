"""Scenarios that fix chance outcomes: a die's face, a deck's order (the
top-level `chance`, a script step `- chance: [...]`), the `rolls`
expectation, and the errors of outcomes that do not fit."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from nordlang.errors import NordError
from nordlang.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent


def scenario(tmp_path, text, name="s.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def run(path):
    return load_scenario(path).run()


def test_a_step_fixes_the_next_rolls_and_rolls_checks_them(tmp_path):
    p = scenario(tmp_path, """\
        description: red rolls 2, then 6, and stops
        game: pig
        players: 2
        moves:
          - chance: [2, 6]
          - action roll
          - expect: {rolls: {die: 2}}
          - action roll
          - expect: {rolls: {die: [6]}, values: {turn_total: 8}}
          - action stop
        expect: {points: {red: 8, blue: 0}, rolls: {die: []}}
        """)
    assert run(p).passed


def test_rolls_that_differ_is_a_failure_at_the_expectation(tmp_path):
    p = scenario(tmp_path, """\
        description: the die shows 3, the scenario says 4
        game: pig
        players: 2
        moves:
          - chance: [3]
          - action roll
        expect: {rolls: {die: 4}}
        """)
    rep = run(p)
    assert not rep.passed
    (f,) = rep.failures
    assert (f.pos.line, f.expected, f.actual) == (7, "[4]", "[3]")


def test_the_top_level_chance_fixes_the_setups_shuffle(tmp_path):
    p = scenario(tmp_path, """\
        description: the deck comes out queen, jack, king
        game: kuhn-poker
        players: 2
        chance: [[card:queen, card:jack, card:king]]
        expect: {at: {hand(red): card:queen, hand(blue): card:jack, deck: card:king}}
        """)
    assert run(p).passed


def test_top_level_outcomes_left_after_the_setup_go_to_the_turns(tmp_path):
    p = scenario(tmp_path, """\
        description: pig shuffles nothing, so the first outcome is the first roll's
        game: pig
        players: 2
        chance: [5, 1]
        moves:
          - action roll
          - action roll
        expect: {rolls: {die: 1}, player: blue, points: {red: 0}}
        """)
    assert run(p).passed


def test_past_the_fixed_outcomes_the_seeded_source_goes_on(tmp_path):
    text = """\
        description: one fixed roll, then the seed's
        game: pig
        players: 2
        seed: 4
        moves:
          - chance: [2]
          - action roll
          - action roll
        """
    a = load_scenario(scenario(tmp_path, text, "a.yaml"))
    b = load_scenario(scenario(tmp_path, text, "b.yaml"))
    a.run(), b.run()
    rolls = [ev[2] for ev in a.game.state.events if ev[0] == "roll"]
    assert rolls[0] == "2" and len(rolls) == 2
    assert rolls == [ev[2] for ev in b.game.state.events if ev[0] == "roll"]


def test_branches_each_take_their_own_outcomes(tmp_path):
    p = scenario(tmp_path, """\
        description: two branches, two dice
        game: pig
        players: 2
        moves:
          - action roll
        branches:
          one:
            moves:
              - chance: [1]
              - action roll
            expect: {player: blue}
          six:
            moves:
              - chance: [6]
              - action roll
            expect: {player: red, rolls: {die: 6}}
        """)
    sc = load_scenario(p)
    assert sc.run().passed
    assert all(sc.for_branch(b).run().passed for b in sc.branches)


def error_of(tmp_path, text) -> NordError:
    p = scenario(tmp_path, text)
    with pytest.raises(NordError) as e:
        run(p)
    return e.value


def test_a_value_the_roll_cannot_show_is_an_error_at_the_value(tmp_path):
    e = error_of(tmp_path, """\
        description: a die has no 7
        game: pig
        players: 2
        moves:
          - chance: [3, 7]
          - action roll
          - action roll
        """)
    assert e.pos.file.endswith("s.yaml") and (e.pos.line, e.pos.col) == (5, 17)
    assert "not one of its outcomes" in e.message and "1, 2, 3, 4, 5, 6" in e.expected


def test_an_order_that_is_not_the_decks_items_is_an_error_at_the_order(tmp_path):
    e = error_of(tmp_path, """\
        description: two kings
        game: kuhn-poker
        players: 2
        chance: [[card:king, card:king, card:jack]]
        """)
    assert (e.pos.line, e.pos.col) == (4, 10)
    assert "not the deck's items" in e.message and "card:queen" in e.expected


def test_a_value_for_a_shuffle_and_a_list_for_a_roll_are_errors(tmp_path):
    e = error_of(tmp_path, """\
        description: a number for the deck
        game: kuhn-poker
        players: 2
        chance: [5]
        """)
    assert "takes a list" in e.message and e.pos.line == 4
    e = error_of(tmp_path, """\
        description: a deck's order for a die
        game: pig
        players: 2
        moves:
          - chance: [[1, 2]]
          - action roll
        """)
    assert "takes one value" in e.message and e.pos.line == 5


def test_an_outcome_no_event_takes_is_a_failure(tmp_path):
    p = scenario(tmp_path, """\
        description: two outcomes, one roll
        game: pig
        players: 2
        moves:
          - chance: [3, 4]
          - action roll
        """)
    rep = run(p)
    (f,) = rep.failures
    assert (f.pos.line, f.pos.col) == (5, 17)
    assert "no chance event" in f.actual


def test_a_roll_the_rules_do_not_have_is_an_error_before_the_script_runs(tmp_path):
    p = scenario(tmp_path, """\
        description: dice, not die
        game: pig
        players: 2
        moves:
          - action roll
          - expect: {rolls: {dice: 3}}
        """)
    with pytest.raises(NordError) as e:
        load_scenario(p)
    assert "no roll 'dice'" in e.value.message and e.value.pos.line == 6 and "die" in e.value.hint


def test_the_schema_refuses_an_empty_or_mistyped_chance(tmp_path):
    for bad in ("chance: []", "chance: {die: 3}", "chance: [[]]"):
        p = scenario(tmp_path, f"""\
            description: bad chance
            game: pig
            players: 2
            {bad}
            """)
        with pytest.raises(NordError) as e:
            load_scenario(p)
        assert e.value.pos.line == 4, bad


def test_nord_test_prints_the_error_with_file_and_line_and_exits_2(tmp_path):
    p = scenario(tmp_path, """\
        description: a die has no 0
        game: pig
        players: 2
        moves:
          - chance: [0]
          - action roll
        """)
    r = subprocess.run([sys.executable, "-m", "nordlang", "test", str(p)], capture_output=True, text=True,
                       cwd=ROOT, timeout=120)
    assert r.returncode == 2
    assert f"{p}:5:14: error: the scenario fixes roll die at 0" in r.stdout
    assert "Traceback" not in r.stdout + r.stderr
