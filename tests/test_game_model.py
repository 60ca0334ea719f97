"""The game model's words (roll, simultaneous secret choices, visibility)
and every mistake a rulebook's author can make with them: each a clear
error at its file, line and column, or, where only play can tell, at run
time naming the rule."""

from __future__ import annotations

import textwrap
from fractions import Fraction

import pytest

import nordlang
from nordlang.engine.chance import ChanceNeeded, Scripted
from nordlang.errors import IllegalMove, NordError

BASE = """\
game: {name: Model, description: "x"}
players: {min: 2, max: 2, default: 2, colors: [red, blue]}
pieces:
  card: {tags: [1, 2, 3]}
  chip: {face_down: true}
zones:
  hand: {type: pool, per_player: true, visible: owner}
  pile: {type: deck, visible: none}
  table: {type: pool}
setup:
  - do: 'for p in players { create(card(1), hand(p)); create(card(2), hand(p)) }'
turn:
%s
result:
  rank: ['points(p)']
"""


def _write(tmp_path, turn, base=BASE):
    f = tmp_path / "model.yaml"
    f.write_text(base % textwrap.indent(textwrap.dedent(turn).strip("\n"), "  "), encoding="utf-8")
    return f


def _error(tmp_path, turn, base=BASE) -> NordError:
    f = _write(tmp_path, turn, base)
    with pytest.raises(NordError) as e:
        nordlang.load_rules(str(f))
    errors = getattr(e.value, "errors", [e.value])
    assert len(errors) == 1, e.value.format()
    return errors[0]


# ---------------- roll ----------------
def test_a_roll_binds_an_outcome_and_the_log_records_it(tmp_path):
    f = _write(tmp_path, """
        - roll: die
          from: 'range(1, 7)'
        - choose: go
          from: '[die]'
          optional: pass
        - do: 'award(player, die, "roll"); end_game()'
    """)
    g = nordlang.load(str(f), seed=5)
    rolled = [e for e in g.state.events if e[0] == "roll"]
    assert len(rolled) == 1 and rolled[0][1] == "die" and rolled[0][2] in {"1", "2", "3", "4", "5", "6"}
    assert [m.option for m in g.legal_moves()] == ["pass", rolled[0][2]]


def test_outcomes_with_probabilities_give_exact_chance_nodes(tmp_path):
    f = _write(tmp_path, """
        - roll: coin
          outcomes: {heads: 1/3, tails: 2/3}
        - choose: go
          from: '[coin, "x"]'
        - do: 'end_game()'
    """)
    rules = nordlang.load_rules(str(f))
    from nordlang.engine.flow import Machine
    from nordlang.engine.state import State
    st = State(rules, 0)
    st.rng = Scripted()
    with pytest.raises(ChanceNeeded) as e:
        Machine(rules).start(st)
    assert e.value.label == "roll coin"
    assert e.value.outcomes == ("heads", "tails") and e.value.probs == (Fraction(1, 3), Fraction(2, 3))
    st = State(rules, 0)
    st.rng = Scripted([1])
    Machine(rules).start(st)
    assert st.pending.options[0] == "tails"


def test_seeded_outcomes_follow_their_probabilities(tmp_path):
    f = _write(tmp_path, """
        - roll: coin
          outcomes: {heads: 0.25, tails: 0.75}
        - choose: go
          from: '[coin, "x"]'
        - do: 'end_game()'
    """)
    rules = nordlang.load_rules(str(f))
    heads = sum(nordlang.Game(rules, s).state.pending.options[0] == "heads" for s in range(2000))
    assert 400 < heads < 600            # 500 expected


@pytest.mark.parametrize("turn, line, col, phrase", [
    ("- roll: die\n  outcomes: {1: 1/2, 2: 1/3}", 14, 15, "add up to 5/6, not 1"),
    ("- roll: die\n  outcomes: {1: half, 2: 1/2}", 14, 19, "'half' is no probability"),
    ("- roll: die", 13, 5, "needs either 'from'"),
    ("- roll: die\n  from: '[1]'\n  outcomes: {1: 1}", 13, 5, "not both"),
    ("- roll: player\n  from: '[1]'", 13, 11, "player"),
])
def test_a_bad_roll_is_an_error_at_its_place(tmp_path, turn, line, col, phrase):
    e = _error(tmp_path, turn + "\n- choose: x\n  from: '[1]'")
    assert phrase in str(e) and (e.pos.line, e.pos.col) == (line, col), str(e)


def test_a_roll_with_no_outcome_is_a_runtime_error_naming_the_step(tmp_path):
    f = _write(tmp_path, "- roll: die\n  from: '[]'\n- choose: x\n  from: '[1]'")
    with pytest.raises(NordError) as e:
        nordlang.load(str(f))
    assert "roll 'die' has no outcome" in str(e.value) and e.value.pos.line == 13


# ---------------- secret simultaneous choices ----------------
SECRET = """
    - choose: bid
      simultaneous: 'p in players'
      from: 'items(hand(p))'
    - do: 'award(0, tag(bid[0]), "bid"); award(1, tag(bid[1]), "bid"); end_game()'
"""


def test_secret_answers_are_hidden_until_all_have_chosen(tmp_path):
    g = nordlang.load(str(_write(tmp_path, SECRET)))
    assert g.to_move == 0 and [m.option for m in g.legal_moves()] == ["card:1", "card:2"]
    g.play("bid card:2")
    assert g.to_move == 1
    assert g.seen_history(1) == [(1, 0, "bid", "?", False)]
    assert g.seen_history(0) == [(1, 0, "bid", "card:2", False)]
    g.play("bid card:1")
    assert g.over and g.points() == (2, 1)
    assert g.seen_history(1)[0][3] == "card:2"          # revealed once both chose
    assert ("reveal", "bid", ((0, "card:2"), (1, "card:1")), 1) in g.state.events


def test_reveal_none_keeps_each_answer_to_its_chooser(tmp_path):
    g = nordlang.load(str(_write(tmp_path, SECRET.replace("      from:", "      reveal: none\n      from:"))))
    g.play("bid card:2")
    g.play("bid card:1")
    assert g.seen_history(1)[0][3] == "?" and g.seen_history(0)[1][3] == "?"
    assert g.seen_history(None)[0][3] == "card:2"


def test_an_illegal_secret_answer_is_refused_without_showing_the_others(tmp_path):
    g = nordlang.load(str(_write(tmp_path, SECRET)))
    g.play("bid card:2")
    with pytest.raises(IllegalMove) as e:
        g.play("bid card:3")
    text = str(e.value) + (e.value.hint or "")
    assert "card:3" in text and "card:2" in text             # blue's own options: card:1, card:2 ...
    assert "red" not in text.split("legal now")[0].replace("(for blue)", "")


@pytest.mark.parametrize("turn, line, col, phrase", [
    ("- choose: bid\n  simultaneous: 'everyone'\n  from: '[1]'\n- do: 'end_game()'", 14, 19, "cannot read"),
    ("- choose: bid\n  simultaneous: 'p in players'\n  by: '0'\n  from: '[1]'\n- do: 'end_game()'", 15, 9,
     "takes no 'by'"),
    ("- choose: bid\n  reveal: none\n  from: '[1]'\n- do: 'end_game()'", 14, 13, "'reveal' goes with"),
])
def test_a_bad_simultaneous_step_is_an_error_at_its_place(tmp_path, turn, line, col, phrase):
    e = _error(tmp_path, turn)
    assert phrase in str(e) and (e.pos.line, e.pos.col) == (line, col), str(e)


def test_a_simultaneous_step_with_no_players_names_the_rule(tmp_path):
    f = _write(tmp_path, "- choose: bid\n  simultaneous: 'p in []'\n  from: '[1]'\n- do: 'end_game()'")
    with pytest.raises(NordError) as e:
        nordlang.load(str(f))
    assert "gave no player to choose" in str(e.value) and e.value.pos.line == 13


# ---------------- visibility ----------------
def test_visible_to_an_owner_needs_an_owner(tmp_path):
    base = BASE.replace("  table: {type: pool}", "  table: {type: pool, visible: owner}")
    e = _error(tmp_path, "- choose: x\n  from: '[1]'\n- do: 'end_game()'", base)
    assert "it is not per_player" in str(e) and (e.pos.line, e.pos.col) == (9, 32), str(e)


def test_options_that_read_another_players_hand_are_refused_at_load(tmp_path):
    e = _error(tmp_path, "- choose: x\n  from: 'items(hand(1 - player))'\n- do: 'end_game()'")
    assert "seen by its owner only" in str(e) and (e.pos.line, e.pos.col) == (14, 18), str(e)
    e = _error(tmp_path, "- choose: x\n  from: '[c for c in items(pile)]'\n- do: 'end_game()'")
    assert "face down" in str(e) and (e.pos.line, e.pos.col) == (14, 30), str(e)


def test_options_that_show_a_hidden_item_are_refused_as_the_game_runs(tmp_path):
    base = BASE.replace("setup:", "define:\n  theirs: 'items(hand(1 - player))'\nsetup:").replace(
        "create(card(2), hand(p)) }'", "create(card(2), hand(p)) } create(card(3), hand(1))'")
    f = _write(tmp_path, "- choose: x\n  from: 'theirs'\n- do: 'end_game()'", base)
    with pytest.raises(NordError) as e:
        nordlang.load(str(f))
    assert "an item red cannot see" in str(e.value) and "choice 'x'" in str(e.value)
    assert e.value.pos.line == 15


def test_face_down_pieces_and_reveal(tmp_path):
    f = _write(tmp_path, """
        - do: 'create(chip(), table); create(card(3), pile)'
        - choose: look
          options:
            show: {do: 'reveal(table); reveal(pile, player)'}
            hide: {do: 'conceal(table)'}
        - do: 'end_game()'
    """)
    g = nordlang.load(str(f))
    assert g.view(1).pools[("table", None)] == {("chip", "?"): 1}
    g.play("look show")
    assert g.view(1).pools[("table", None)] == {("chip", None): 1}
    assert g.view(0).decks[("pile", None)] == [("card", 3)] and g.view(1).decks[("pile", None)] == [("card", "?")]


# ---------------- parameters ----------------
def test_a_parameter_sets_a_constant_and_a_replay_keeps_it(tmp_path, capsys):
    from nordlang.cli import main
    g = nordlang.load("goofspiel", seed=1, params={"cards": 4})
    assert len(g.legal_moves()) == 4
    log = tmp_path / "g.jsonl"
    assert main(["play", "--game", "goofspiel", "--param", "cards=4", "--seed", "2", "--log", str(log)]) == 0
    assert '"params": {"cards": 4}' in log.read_text().splitlines()[0]
    capsys.readouterr()
    assert main(["replay", str(log)]) == 0
    assert "replay matches: 8 decisions" in capsys.readouterr().out


@pytest.mark.parametrize("params, phrase", [
    ({"card": 4}, "no parameter 'card'"),
    ({"cards": "four"}, "must be int"),
])
def test_a_bad_parameter_is_one_clear_error(params, phrase):
    with pytest.raises(NordError) as e:
        nordlang.load_rules("goofspiel", params=params)
    assert phrase in str(e.value)


def test_a_bad_parameter_on_the_command_line(capsys):
    from nordlang.cli import main
    assert main(["play", "--game", "goofspiel", "--param", "card=4"]) == 2
    assert "did you mean 'cards'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["play", "--game", "goofspiel", "--param", "cards"])
    assert "a parameter is NAME=VALUE" in capsys.readouterr().err


# ---------------- the guide's chapter quotes the small games ----------------
def test_the_guides_chance_and_hidden_information_chapter_quotes_the_games():
    import re
    from pathlib import Path

    from test_guide import _found_in
    root = Path(__file__).resolve().parent.parent
    text = (root / "docs" / "writing-a-game.md").read_text(encoding="utf-8")
    chapter = text.split("## 7. Chance, hidden information and secret choices", 1)[1].split("\n## 8.", 1)[0]
    files = [root / "rulebook" / g / f"{g}.yaml" for g in ("pig", "kuhn-poker", "goofspiel")]
    files.append(root / "variants" / "goofspiel" / "hidden-bids.yaml")
    lines = [x for f in files for x in f.read_text(encoding="utf-8").splitlines() + [""]]
    blocks = re.findall(r"```yaml\n(.*?)```", chapter, flags=re.S)
    assert len(blocks) == 6
    written_here = [b for b in blocks if "weather" in b]          # an example of outcomes, no bundled game's
    assert len(written_here) == 1
    for block in blocks:
        if block not in written_here:
            assert _found_in(block, lines), block


@pytest.mark.parametrize("turn, phrase", [
    ("- roll: die\n  from: '3'\n- choose: x\n  from: '[1]'", "'from' must give a collection of outcomes, got 3"),
    ("- choose: bid\n  simultaneous: 'p in [0, 0]'\n  from: '[1]'\n- do: 'end_game()'", "names a player twice"),
    ("- choose: bid\n  simultaneous: 'p in [0, 7]'\n  from: '[1]'\n- do: 'end_game()'", "7, which is not a player"),
    ("- choose: bid\n  simultaneous: 'p in 2'\n  from: '[1]'\n- do: 'end_game()'", "must give a collection of players"),
])
def test_what_only_play_can_tell_is_an_error_naming_the_step(tmp_path, turn, phrase):
    f = _write(tmp_path, turn)
    with pytest.raises(NordError) as e:
        nordlang.load(str(f))
    assert phrase in str(e.value) and e.value.pos.line == 13, str(e.value)
