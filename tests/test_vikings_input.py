"""Bad input around Vikings: one clear message with file:line:column, exit
status 2, never a traceback (a broken file or variant, an unknown name, an
illegal move through the API, the command line or a scenario, a wrong game)."""

from pathlib import Path

import pytest

import nordlang
from nordlang.cli import main
from nordlang.errors import IllegalMove

OFFER = Path(__file__).resolve().parent.parent / "rulebook" / "vikings" / "offer.yaml"


def _variant(tmp_path, body):
    path = tmp_path / "v.yaml"
    path.write_text("description: a broken Vikings variant\nextends: vikings\n" + body)
    return path


@pytest.mark.parametrize("body, where, message", [
    ("patch:\n  constants:\n    start_points: [10\n", (5, 19), "malformed YAML: this '[' is never closed"),
    ("patch:\n  zones:\n    homeland: {columns: 0}\n", (5, 25),
     "zones/homeland/columns: 0 is too small\n        homeland: {columns: 0}\n"
     "                            ^\n    expected: at least 1"),
    ("patch:\n  define:\n    wealth(p): 'coins(p) + pointz(p)'\n", (5, 28),
     "unknown function 'pointz'\n        wealth(p): 'coins(p) + pointz(p)'\n                               ^^^^^^\n"
     "    hint: did you mean 'points' or 'coin'?"),
])
def test_a_broken_variant_is_one_error_at_its_place(tmp_path, capsys, body, where, message):
    path = _variant(tmp_path, body)
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:{where[0]}:{where[1]}: error: "), err
    assert message in err and "Traceback" not in err


def test_an_illegal_buy_through_the_api_names_its_rule_and_the_legal_moves():
    g = nordlang.load("vikings", players=2, seed=1)
    with pytest.raises(IllegalMove) as e:
        g.play("buy 99")
    assert str(e.value).startswith(f"{OFFER}:89:7: error: buy 99 is not allowed by the rule at {OFFER}:89:7: "
                                   "'99' is not one of the 11 options of 'buy'")
    assert "hint: legal now: buy 1, buy 2, buy 3" in str(e.value)


def test_an_illegal_placement_in_a_scenario_fails_that_scenario(tmp_path, capsys):
    path = tmp_path / "s.yaml"
    path.write_text("description: a ship in the fourth column too early\ngame: vikings\nplayers: 2\n"
                    "position:\n  player: orange\n  at:\n    start_tile(orange): []\n"
                    "    homeland(orange): {\"1,1\": island:left}\n"
                    "    wheel_tiles: [ship:red]\n    wheel_vikings: [viking:red]\n"
                    "moves:\n  - place homeland(orange)[0,4]\n")
    assert main(["test", str(path)]) == 1
    out = capsys.readouterr().out
    assert "place homeland(orange)[0,4]" in out and "not one of the 3 options of 'place'" in out


def test_an_unknown_game_gets_a_did_you_mean(capsys):
    assert main(["play", "--game", "vikngs"]) == 2
    err = capsys.readouterr().err
    assert err.splitlines()[0].startswith("error: unknown game 'vikngs': did you mean 'vikings'?")
