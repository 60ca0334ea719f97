"""Outcomes and what generic places no longer take from Nord: draws declared
by a rulebook (result.draw), counted by simulate and compare; the summarised
note from the rulebook; display colours; move notation; and the messages
that used to mislead."""

import json
from pathlib import Path

import pytest

from nordlang import Game, load_rules
from nordlang.cli import main
from nordlang.engine.game import Result
from nordlang.errors import IllegalMove
from nordlang.render.svg import render_svg
from nordlang.sim.summary import summarize

TTT = str(Path(__file__).parent / "games" / "tictactoe-mini" / "ttt.yaml")
DRAWN = ["a1", "b1", "c1", "b2", "a2", "a3", "c2", "c3"]      # b3, the last cell, is taken at once: a draw


def scenario(tmp_path, rulebook, moves=()) -> str:
    """A scenario on a 3 x 3 tic-tac-toe board of `rulebook`, after `moves`."""
    sc = tmp_path / "scenario.yaml"
    sc.write_text(f"description: a test\nrulebook: {rulebook}\nplayers: 2\nmap: ['...', '...', '...']\n"
                  f"structures: {{}}\nmoves: {json.dumps(list(moves))}\n")
    return str(sc)


def ttt_game(moves, seed=0):
    g = Game(load_rules(TTT), seed)
    for m in moves:
        g.play(f"cell {m}")
    return g


def variant_of_ttt(tmp_path, old, new, *more):
    """The test game with text `old` replaced by `new` (and more such pairs)."""
    text = Path(TTT).read_text()
    pairs = [(old, new)] + list(zip(more[::2], more[1::2]))
    for a, b in pairs:
        assert a in text
        text = text.replace(a, b)
    path = tmp_path / "ttt.yaml"
    path.write_text(text)
    return str(path)


# ---------------- draws ----------------
def test_a_full_board_without_a_line_is_a_draw():
    g = ttt_game(DRAWN)
    assert g.over
    assert g.result == Result(points=(0, 0), ranking=((0,), (0,)), winners=(), draw=True)
    assert [g.result.outcome(p) for p in (0, 1)] == ["draw", "draw"]


def test_a_line_wins_and_is_no_draw():
    g = ttt_game(["a1", "b1", "a2", "b2", "a3"])
    assert g.result.winners == (0,) and not g.result.draw
    assert [g.result.outcome(p) for p in (0, 1)] == ["win", "loss"]


def test_a_tie_without_a_draw_rule_is_a_shared_win():
    """Nord declares no draw: a tie on every rank key is a win for each tied player."""
    assert load_rules(None, 2).draw is None
    r = Result(points=(5, 5), ranking=((5, 1), (5, 1)), winners=(0, 1))
    assert [r.outcome(p) for p in (0, 1)] == ["win", "win"] and not r.draw


def test_play_prints_a_draw_and_the_replay_records_and_checks_it(tmp_path, capsys):
    log = tmp_path / "draw.jsonl"
    assert main(["play", "--rulebook", TTT, "--seed", "2", "--log", str(log)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-2] == "draw: no winner"
    last = json.loads(log.read_text().splitlines()[-1])
    assert last["draw"] is True and last["winners"] == []
    assert main(["replay", "--rulebook", TTT, str(log)]) == 0
    assert capsys.readouterr().out.rstrip().endswith("(x 0, o 0; a draw)")
    lines = log.read_text().splitlines()
    del last["draw"]
    lines[-1] = json.dumps(last, sort_keys=True)
    log.write_text("\n".join(lines) + "\n")
    assert main(["replay", "--rulebook", TTT, str(log)]) == 2
    err = capsys.readouterr().err
    assert "the replay ends with different draw (recorded null, replayed true)" in err


def test_a_draw_condition_is_checked_when_the_rulebook_loads(tmp_path, capsys):
    path = variant_of_ttt(tmp_path, "draw: 'all(points(p) == 0 for p in players)'", "draw: 'nobody_won'")
    assert main(["validate", path]) == 2
    out = capsys.readouterr().err
    assert "ttt.yaml:61:10: error: unknown name 'nobody_won'" in out


def test_simulate_counts_wins_draws_and_losses_per_seat(capsys):
    assert main(["simulate", "--rulebook", TTT, "-n", "200", "--jobs", "1", "--no-progress"]) == 0
    lines = capsys.readouterr().out.splitlines()
    i = lines.index("win rate by seat (95% Wilson interval)      points mean (sd)   wins/draws/losses")
    assert lines[i + 1].endswith("   116/37/47") and lines[i + 1].startswith("  seat 0   58.0%")
    assert lines[i + 2].endswith("   47/37/116") and lines[i + 2].startswith("  seat 1   23.5%")
    assert lines[i + 4].endswith("over 400 seats, points 0.4, 163/74/163")
    assert lines[i + 5] == "draws: 37 (18.5%)"


def test_the_summary_counts_a_record_without_winners_as_a_draw():
    base = {"agents": ["random", "random"], "sources": {}, "turns": 1, "decisions": 1, "branching": 1.0,
            "lead_changes": 0, "triggers": [], "notes": {}, "options_by_turn": []}
    recs = [dict(base, points=[1, 0], winners=[0]), dict(base, points=[0, 0], winners=[]),
            dict(base, points=[1, 1], winners=[0, 1])]
    s = summarize(recs)
    assert [(x["won"], x["drawn"], x["lost"]) for x in s["seats"]] == [(2, 1, 0), (1, 1, 1)]
    assert s["draws"] == 1
    # the fair share of the wins is that of the decided games: 2 of 3, split in two
    assert s["balance"]["first_seat_advantage"] == pytest.approx(1.5 / 3 - 1 / 3)


def test_compare_tests_the_draw_rate_and_the_loss_rates(capsys):
    assert main(["compare", "--rulebook", TTT, "-n", "100", "--jobs", "1", "--no-progress",
                 "--agents-b", "greedy"]) == 0
    out = capsys.readouterr().out
    # (greedy rates a draw between a win and a loss: both greedy, 9 of 100 games are drawn)
    assert "  draw rate                                    18.0%      9.0%     -9.0%" in out
    assert "  seat 1 loss rate                             57.0%     75.0%     18.0%" in out


def test_nord_has_no_draw_lines_in_compare_without_draws(capsys):
    assert main(["compare", "--players", "2", "-n", "3", "--jobs", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "draw rate" not in out and "loss rate" not in out


# ---------------- the summarised note comes from the rulebook ----------------
def test_the_trigger_note_is_the_rulebooks():
    assert load_rules(None, 2).trigger_note == "scoring"
    assert load_rules(TTT).trigger_note is None


def test_a_trigger_note_no_rule_makes_is_an_error(tmp_path, capsys):
    path = variant_of_ttt(tmp_path, "  evaluation: 'points(p)'\n",
                          "  evaluation: 'points(p)'\n  summary: {triggers: lines}\n")
    assert main(["validate", path]) == 2
    out = capsys.readouterr().err
    assert "error: result.summary.triggers names the note 'lines', which no rule makes" in out
    assert "hint: no rule makes a note" in out


def test_simulate_of_a_game_without_a_trigger_note_prints_no_triggers(capsys):
    assert main(["simulate", "--rulebook", TTT, "-n", "5", "--jobs", "1", "--no-progress"]) == 0
    assert "triggers:" not in capsys.readouterr().out


# ---------------- display colours ----------------
def test_a_colour_name_that_is_no_colour_is_never_a_fill():
    g = ttt_game(["a1", "b1"])
    svg = render_svg(g.rules, g.state)
    assert 'fill="x"' not in svg and 'fill="o"' not in svg
    assert g.rules.color_values == ("#c0392b", "#2e6fbf")
    assert 'data-owner="x"' in svg and 'fill="#c0392b"' in svg


def test_a_colour_may_be_a_name_with_a_value(tmp_path):
    path = variant_of_ttt(tmp_path, "colors: [x, o]", 'colors: [{name: x, value: "#112233"}, {name: o, value: teal}]')
    r = load_rules(path)
    assert r.colors == ("x", "o") and r.color_values == ("#112233", "teal")
    g = Game(r, 0)
    g.play("cell a1")
    assert 'fill="#112233"' in render_svg(r, g.state)
    assert load_rules(None, 2).color_values[:2] == ("red", "blue")       # a CSS name is its own colour


@pytest.mark.parametrize("old, new, message", [
    ("colors: [x, o]", 'colors: [x, {name: o, value: "#12345"}]',
     "ttt.yaml:14:32: error: the colour value '#12345' of 'o' is no colour"),
    ('color: "#efe6cc"', 'color: "beigeish"', "ttt.yaml:17:40: error: terrains.cell.color is 'beigeish', which is no "
                                                "colour"),
    ("colors: [x, o]", "colors: [x, x]", "error: the colour 'x' is named twice"),
])
def test_a_colour_that_is_no_colour_is_an_error(tmp_path, capsys, old, new, message):
    path = variant_of_ttt(tmp_path, old, new)
    assert main(["validate", path]) == 2
    assert message in capsys.readouterr().err


# ---------------- notation ----------------
def test_ordered_values_are_written_as_the_rulebook_declares():
    nord, ttt = load_rules(None, 2), load_rules(TTT)
    path, pair, pairs = ((4, 4), (4, 5)), ("A", "B"), (((0, 0), 0), (0, (0, 1)))
    assert [nord.show(v) for v in (path, pair, pairs)] == ["e5-f5", "A>B", "(a1>0)>(0>b1)"]
    assert [ttt.show(v) for v in (path, pair, pairs)] == ["(e5, f5)", "(A, B)", "((a1, 0), (0, b1))"]


@pytest.mark.parametrize("notation, line", [("", "    marks ((b1, 0), (b2, 0))"),
                                            ("notation: {tuple: '>'}\n", "    marks (b1>0)>(b2>0)")])
def test_a_note_with_a_list_of_pairs_reads_as_pairs(tmp_path, capsys, notation, line):
    path = variant_of_ttt(tmp_path, "      move(mark(player), supply(player), cell)\n",
                          "      move(mark(player), supply(player), cell)\n"
                          "      note(\"marks\", [(s, player) for s in occupied_by(player)])\n",
                          "players:\n", notation + "players:\n")
    assert main(["play", "--rulebook", path, "--seed", "3"]) == 0
    assert line in capsys.readouterr().out.splitlines()


def test_a_separator_that_reads_as_a_name_or_a_set_is_an_error(tmp_path, capsys):
    path = variant_of_ttt(tmp_path, "players:\n", 'notation: {tuple: ",", path: "to"}\n\nplayers:\n')
    assert main(["validate", path]) == 2
    out = capsys.readouterr().err
    assert "ttt.yaml:10:19: error: notation.tuple is ',', which would read as part of a name, a set or a bracket" in out
    assert "error: notation.path is 'to', which would read as part of a name, a set or a bracket" in out
    assert "expected: punctuation other than ',', '(' and ')', like '>' or '-'" in out


# ---------------- messages that misled ----------------
def test_a_move_taken_at_once_that_ended_the_game_says_so():
    g = ttt_game(DRAWN)
    with pytest.raises(IllegalMove) as e:
        g.play("cell b3")
    assert e.value.message == ("cell b3 is not allowed: the game is over; the choice 'cell' was not asked: since the "
                               "last decision, each choice with one option was taken at once: cell b3 (x), and the "
                               "game ended")
    assert e.value.hint == "leave the move out: a choice with one option is taken, never asked"


def test_a_scenario_that_scripts_a_move_taken_at_once_says_so(tmp_path, capsys):
    sc = scenario(tmp_path, TTT, [f"cell {m}" for m in DRAWN + ["b3"]])
    assert main(["explain", sc, "cell a1"]) == 2
    out = capsys.readouterr().out
    assert ("move 9 'cell b3' cannot be played: cell b3 is not allowed: the game is over; the choice 'cell' was not "
            "asked: since the last decision, each choice with one option was taken at once: cell b3 (x), and the "
            "game ended") in out


def test_capitalised_true_gets_a_did_you_mean(tmp_path, capsys):
    path = variant_of_ttt(tmp_path, "draw: 'all(points(p) == 0 for p in players)'", "draw: 'True'")
    assert main(["validate", path]) == 2
    out = capsys.readouterr().err
    assert "error: unknown name 'True'" in out
    assert "hint: did you mean 'true'? true, false and none are written in lower case" in out


def test_explain_says_what_the_local_names_were(tmp_path, capsys):
    path = variant_of_ttt(tmp_path, "    from: 'open_spaces(spaces)'",
                          "    from: '[c for c in open_spaces(spaces) if landing(c) != none]'",
                          "define:\n", "define:\n  landing(c): 'if row(c) == 3 then c else none'\n")
    assert main(["explain", scenario(tmp_path, path), "cell a1"]) == 1
    out = capsys.readouterr().out
    assert "    landing(c) = none;  none = none  (where c = a1)\n" in out
