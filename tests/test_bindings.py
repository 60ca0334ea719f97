"""Issue 18: what a name means in a definition (point 10), variants that call
the definition they replace (point 12), and the Negotiator ruling."""

import random
from pathlib import Path

import pytest
from helpers import past_setup

import nordlang
from nordlang.cli import main
from nordlang.lang.compiler import Compiler
from nordlang.lang.parser import parse

ROOT = Path(__file__).resolve().parent.parent
PLAYER = "'player' is a built-in value (the player whose turn it is) and cannot be rebound"
PLAYER_HINT = ("definitions read the player to move; give the definition a parameter, e.g. challenge_targets(p), "
               "and choose another name here")


def _errors(rules, text):
    c = Compiler(rules.names)
    c.expr(parse(text, "expr"), frozenset())
    return c.errors


def test_a_let_of_player_is_an_error_not_a_silent_no_op():
    """Point 10: `let player = 1 in attack_pairs` evaluated attack_pairs for
    the player to move, silently; binding a built-in value is now an error."""
    rules = nordlang.load_rules(players=2)
    errors = _errors(rules, "let player = 1 in len(attack_pairs)")
    assert [(e.message, e.hint, e.pos.col) for e in errors] == [(PLAYER, PLAYER_HINT, 1)]
    errors = _errors(rules, "[len(attack_pairs) for turn in range(1, 3)]")
    assert [e.message for e in errors] == ["'turn' is a built-in value (the number of the current turn (from 1)) "
                                           "and cannot be rebound"]
    assert "give it a parameter" in errors[0].hint
    assert _errors(rules, "let p = 1 in challenge_targets(p)") == []


def _variant(tmp_path, patch):
    path = tmp_path / "v.yaml"
    path.write_text("description: binds a built-in value, on purpose, to see the error it gives\n"
                    "extends: nord\npatch:\n" + patch)
    return path


# (patch, line, column, name) of each way of binding a name
BINDERS = {
    "definition parameter": ("  define:\n    mine(player): 'warriors(player, first(settlements))'\n", 5, 5, "player"),
    "comprehension": ("  define:\n    mine: '[s for spaces in [1] for s in [spaces]]'\n", 5, 15, "spaces"),
    "procedure parameter": ("  procedures:\n    mine(players): 'note(\"x\", players)'\n", 5, 5, "players"),
    "effects let": ("  procedures:\n    mine: 'let turn = 1\n      note(\"x\", turn)'\n", 5, 12, "turn"),
    "effects for": ("  procedures:\n    mine: 'for player in players { note(\"x\", player) }'\n", 5, 12, "player"),
    "flow parameter": ("  flows:\n    mine(num_players): [{do: 'note(\"x\")'}]\n", 5, 5, "num_players"),
    "flow let": ("  flows:\n    mine(): [{let: {player: '1'}}, {do: 'note(\"x\")'}]\n", 5, 21, "player"),
    "flow for": ("  flows:\n    mine(): [{for: 'player in players', do: 'note(\"x\")'}]\n", 5, 21, "player"),
    "choice id": ("  flows:\n    mine(): [{choose: player, from: '[1, 2]'}]\n", 5, 23, "player"),
}


@pytest.mark.parametrize("case", BINDERS)
def test_every_way_of_binding_a_built_in_value_is_a_load_error(case, tmp_path, capsys):
    """Point 10: a parameter, a let, a loop or a choice that binds a built-in
    value is reported at its place, with the name and why."""
    patch, line, col, name = BINDERS[case]
    path = _variant(tmp_path, patch)
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:{line}:{col}: error: {name!r} is a built-in value (" in err, err
    assert "cannot be rebound" in err and "hint: definitions read" in err


def test_a_definition_cannot_read_a_callers_local(tmp_path, capsys):
    """Point 10: a definition sees only its parameters and the rulebook's
    names, so a caller's `let x` can never reach it (an unknown name)."""
    path = _variant(tmp_path, "  define:\n    f: 'x + 1'\n    g: 'let x = 1 in f'\n")
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:5:9: error: unknown name 'x'" in err
    assert err.count("error:") == 1


def test_challenge_targets_can_be_asked_of_any_player():
    """Point 10: the definition a scenario asks about another player takes
    the player as a parameter (it read the player to move)."""
    rules = nordlang.load_rules(players=2)
    assert rules.names.funcs["challenge_targets"].params == ("p",)
    assert _errors(rules, "challenge_targets") [0].message == "'challenge_targets' needs 1 argument(s): " \
                                                              "challenge_targets(p)"


# the copy dragon-raids carried before original(...) (the rulebook's attack pairs, written again)
OLD_DRAGON_RAIDS = """\
description: dragon raids as they were written before original() existed, a stale copy of attack_pairs
extends: nord
patch:
  define:
    attack_pairs: >
      [(a, b) for a in settlements if warriors(player, a) > 0
              for b in settlements if b != a and warriors(player, b) == 0
                and connected(a, b) and not at_turn_start(connected(a, b))
                and connected(b, small_boat)]
"""


def _history(rules, seed):
    g = nordlang.Game(rules, seed)
    rng = random.Random(seed)
    while not g.over:
        g.play_index(rng.randrange(len(g.state.pending.options)))
    return [h[1:] for h in g.state.history]


def test_dragon_raids_calls_the_attack_pairs_it_replaces(tmp_path):
    """Point 12: a variant states only its change, calling the definition it
    replaces as original(); dragon-raids plays as its old copy did."""
    text = (ROOT / "variants" / "nord" / "dragon-raids.yaml").read_text()
    assert "original()" in text and "warriors(" not in text
    old = tmp_path / "old.yaml"
    old.write_text(OLD_DRAGON_RAIDS)
    new_rules = nordlang.load_rules(players=3, variants=["dragon-raids"])
    old_rules = nordlang.load_rules(players=3, variants=[str(old)])
    attacks = 0
    for seed in (1, 2, 3):
        h = _history(new_rules, seed)
        assert h == _history(old_rules, seed)
        attacks += sum(1 for x in h if x[1] == "attack")
    assert attacks > 5


def test_a_replaced_procedure_can_call_its_original(tmp_path):
    """Point 12: procedures too; the original runs where it is called."""
    path = _variant(tmp_path, "  procedures:\n    place_worker(s): |\n      note(\"lands\", s)\n"
                              "      original(s)\n")
    game = past_setup(nordlang.load(players=2, seed=1, variants=[str(path)]))
    game.play("play none")
    move = next(f"{m.choice} {m.option}" for m in game.legal_moves() if m.choice == "place")
    game.play(move)
    spaces = move.split()[1].split(",")
    events = game.state.events
    lands = [game.rules.show(e[2]) for e in events if e[:2] == ("note", "lands")]
    men = [game.rules.show(e[3]) for e in events if e[0] == "move" and e[1] == ("man", 0) and e[2] == ("supply", 0)
           and game.rules.show(e[3]) in spaces]
    assert lands == spaces and men == spaces        # the new note, then the original's move, for each worker


ORIGINAL_ERRORS = {
    "replaces nothing": ("  define:\n    fresh: 'original()'\n", 5, 13,
                         "original(...) calls the definition this one replaces, but fresh replaces none"),
    "wrong arity": ("  define:\n    warriors(p, s): 'original(p) + 1'\n", 5, 22,
                    "original() takes 2 argument(s) (p, s), as warriors(p, s) does; got 1"),
    "outside a definition": ("  setup:\n    - do: 'note(\"x\", original())'\n", 5, 22,
                             "original(...) calls the definition a variant replaces: it can be used only in the "
                             "text of a definition or procedure that replaces one"),
    "a definition as a statement": ("  procedures:\n    lift(s, dest): 'original(s, dest)'\n  define:\n"
                                    "    land(s): 'let x = 1 in original(s)'\n", 5, 21, None),
}


@pytest.mark.parametrize("case", ORIGINAL_ERRORS)
def test_original_errors(case, tmp_path, capsys):
    """Point 12: original() where nothing is replaced, with the wrong number
    of arguments, or outside a replacing definition: one clear error."""
    patch, line, col, msg = ORIGINAL_ERRORS[case]
    path = _variant(tmp_path, patch)
    code = main(["validate", str(path)])
    err = capsys.readouterr().err
    if msg is None:         # (a procedure calling its original procedure, a definition its definition: fine)
        assert code == 0, err
        return
    assert code == 2
    assert f"{path}:{line}:{col}: error: {msg}" in err, err


def test_a_negotiator_cannot_be_played_without_a_move():
    """The Negotiator ruling: it is a move, not an allowance. At the first
    turn no two settlements are connected, so no Negotiator tile (gold,
    hammer) can be played; the other tiles can."""
    for seed in (1, 2):
        game = past_setup(nordlang.load(players=2, seed=seed))
        legal = [f"{m.choice} {m.option}" for m in game.legal_moves()]
        assert "play none" in legal
        plays = {m.split()[1] for m in legal if m.startswith("play ") and m != "play none"}
        assert plays and not plays & {"gold", "hammer"}, legal


def test_the_negotiator_scenarios_pass(capsys):
    """The Negotiator ruling, in the worked examples: no 'negotiate none'."""
    folder = ROOT / "variants" / "nord" / "scenarios"
    names = ["negotiator.yaml", "negotiator-needs-a-move.yaml", "three-settlements-red-negotiator.yaml"]
    assert main(["test"] + [str(folder / n) for n in names]) == 0
    assert "3 passed, 0 failed" in capsys.readouterr().out
    assert "negotiate none" not in (ROOT / "tests" / "replays" / "nord-4p.jsonl").read_text()
    assert "optional" not in (ROOT / "rulebook" / "nord" / "turn.yaml").read_text().split("choose: negotiate")[1] \
        .split("- do:")[0]
