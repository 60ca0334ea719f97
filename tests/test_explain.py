"""nord explain: legal moves show their effects; illegal ones the rule and
the condition that failed, with values."""

from pathlib import Path

import pytest
import yaml

from nordlang.board.grid import parse_space
from nordlang.cli import main

SCEN = Path(__file__).resolve().parent.parent / "variants" / "nord" / "scenarios"


def _cut(tmp_path, name, moves):
    data = yaml.safe_load((SCEN / name).read_text())
    data["moves"] = moves
    data.pop("expect", None)
    out = tmp_path / name
    out.write_text(yaml.safe_dump(data, sort_keys=False))
    return str(out)


def test_illegal_placement_names_the_failed_condition(tmp_path, capsys):
    path = _cut(tmp_path, "placement-2.yaml", ["play none"])
    assert main(["explain", path, "place d3,e3,e4"]) == 1
    out = capsys.readouterr().out
    assert "is not an option of 'place'" in out
    assert "turn.yaml" in out
    assert "it lies in 2 regions; at most 1 allowed" in out
    assert main(["explain", path, "place g3"]) == 1
    assert "none of its spaces is an anchor (anchors: b3,c2,c4,d3)" in capsys.readouterr().out


def _occupied(tmp_path):
    """placement-2 with a red worker on e3, the second space of blue's karst row."""
    data = yaml.safe_load((SCEN / "placement-2.yaml").read_text())
    data["moves"] = ["play none"]
    data.pop("expect", None)
    data["position"]["at"] = {"e3": "man:red"}
    out = tmp_path / "occupied.yaml"
    out.write_text(yaml.safe_dump(data, sort_keys=False))
    return str(out)


def test_a_refused_space_says_what_stands_on_it(tmp_path, capsys):
    """An occupied space is not 'not allowed' without a reason: the filter
    that left it out is named, with what the space holds."""
    path = _occupied(tmp_path)
    for move in ("place e3", "place d3,e3"):
        assert main(["explain", path, move]) == 1
        out = capsys.readouterr().out
        assert "e3 is not in open_spaces(land_spaces):" in out
        assert "open_spaces(land_spaces) leaves e3 out, which is in land_spaces (open_spaces: spaces of a " \
               "collection with no piece and no structure): e3 holds man:red" in out


def test_only_the_part_of_the_rule_for_the_move_is_taken_apart(tmp_path, capsys):
    """A land placement is told the land part of the rule; the sea part gets one
    line saying why it does not apply (and the other way round)."""
    path = _occupied(tmp_path)
    assert main(["explain", path, "place e3"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert "    - land_groups(p, limit(t))" in lines
    assert "    - sea_groups(p, limit(t)) does not apply: e3 is not among sea_spaces" in lines
    assert not any("sea_groups(p = " in line or "(40 open spaces)" in line for line in lines)
    assert main(["explain", path, "place b2"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert "    - land_groups(p, limit(t)) does not apply: b2 is not among land_spaces" in lines
    assert "    - sea_groups(p, limit(t))" in lines
    assert "        none of its spaces is an anchor (anchors: b3,c2,c4,d3)" in lines
    assert not any("land_groups(p = " in line for line in lines)


def test_a_space_of_no_kind_is_taken_apart_in_every_part(tmp_path, capsys):
    """A structure's space is in no part: every part says why, and what stands there."""
    path = _occupied(tmp_path)
    assert main(["explain", path, "place c3"]) == 1
    out = capsys.readouterr().out
    assert "does not apply" not in out
    assert "c3 is not in open_spaces(land_spaces) (c3 is the space of structure A):" in out
    assert "c3 is not in open_spaces(sea_spaces) (c3 is the space of structure A):" in out
    assert "region_of(s) != none  ->  false" in out


def test_legal_move_shows_what_it_does(tmp_path, capsys):
    path = _cut(tmp_path, "simple-attack.yaml", ["play none"])
    assert main(["explain", path, "place c2,d2"]) == 0
    out = capsys.readouterr().out
    assert "legal" in out
    assert "red attacks B from A along c2-d2 with 2 attacker(s)" in out
    assert "c2: red's attacker dies" in out
    assert "d2: red's attacker becomes a warrior in B" in out


def test_alternative_decided_earlier_is_explained(tmp_path, capsys):
    path = _cut(tmp_path, "jarl-challenge.yaml", [])
    assert main(["explain", path, "action challenge"]) == 1
    out = capsys.readouterr().out
    assert "'challenge' is allowed only when: len(challenge_targets(player)) > 0" in out
    assert "s = A: all(warriors(p, s) > warriors(q, s) for q in others(p)) fails" in out


def test_wrong_choice_and_bad_notation(tmp_path, capsys):
    path = _cut(tmp_path, "placement-2.yaml", ["play none"])
    assert main(["explain", path, "attack A>B"]) == 1
    assert "the pending decision is 'place'" in capsys.readouterr().out
    assert main(["explain", path, "place"]) == 2
    assert "bad move notation" in capsys.readouterr().err


def test_a_set_of_spaces_is_named_in_any_order(tmp_path, capsys):
    """'place d2,c2' is the move 'place c2,d2': a set has no order, and blanks do not count."""
    path = _cut(tmp_path, "simple-attack.yaml", ["play none"])
    for text in ("place d2,c2", "place c2, d2", " place  d2 ,c2 "):
        assert main(["explain", path, text]) == 0, text
        assert "red attacks B from A" in capsys.readouterr().out
    from nordlang.scenario import load_scenario
    scenario = load_scenario(path)
    assert scenario.run_moves() is None
    game = scenario.game
    game.play("place d2,c2")
    assert [h[3] for h in game.state.history if h[2] == "place"] == ["c2,d2"]    # recorded in its one form


@pytest.mark.parametrize("text, meant", [("place c2,c2", "place c2"), ("place c02", "place c2")])
def test_an_option_written_otherwise_gets_a_did_you_mean(tmp_path, capsys, text, meant):
    path = _cut(tmp_path, "simple-attack.yaml", ["play none"])
    assert main(["explain", path, text]) == 1
    out = capsys.readouterr().out
    assert f"did you mean '{meant}'?" in out
    assert "lookahead" not in out        # (the placement has none: it did not forbid the move)


def test_a_scenario_asks_for_a_set_in_any_order(tmp_path):
    data = yaml.safe_load((SCEN / "simple-attack.yaml").read_text())
    data["moves"] = ["play none", {"expect": {"legal": ["place d2,c2"], "illegal": ["place c2,c2"]}}]
    data.pop("expect", None)
    path = tmp_path / "order.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    assert main(["test", str(path)]) == 0
    data["moves"][1] = {"expect": {"illegal": ["place d2,c2"]}}
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    assert main(["test", str(path)]) == 1


def test_sets_are_shown_with_numbers_read_as_numbers():
    import nordlang
    rules = nordlang.load_rules(None, 2)
    spaces = frozenset(parse_space(t) for t in ("c10", "b3", "c9", "c2"))
    assert rules.show(spaces) == "b3,c2,c9,c10"


CHALLENGES = """description: two settlements to challenge, Q and S
game: nord
players: 3
map:
  - "~~~~~~~~~~~"
  - "~P~~~Q~~~A~"
  - "~m~~~m~~~m~"
  - "~mmmmXmmmm~"
  - "~m~~~~~~~m~"
  - "~S~~~~~~~R~"
  - "~~~~~~~~~~~"
  - "~~~~~Y~~~~~"
  - "~~~~~~~~~~~"
structures: {A: settlement, P: settlement, Q: settlement, R: settlement, S: settlement, Y: settlement, X: dragon}
seats: [A, Q, Y]
position:
  player: red
  at:
    P: [jarl, man:red*2, man:blue*2]
    Q: [jarl:blue, man:red*2, man:blue]
    S: [jarl, man:red*2]
    R: [jarl, man:red*3]
    A: [jarl:red, man:red*3]
    b3: man:yellow
    b4: man:yellow
    c4: man:yellow
    d4: man:yellow
    e4: man:yellow
    b5: man:yellow
    f3: man:blue
    j3: man:blue
    j4: man:blue
    i4: man:blue
    h4: man:blue
    g4: man:blue
moves:
  - action challenge
"""


def test_options_are_shown_as_a_list(tmp_path, capsys):
    """The options of a choice are shown one by one: two settlements are
    [Q, S], not the pair Q>S that the same two values would be alone."""
    path = tmp_path / "challenges.yaml"
    path.write_text(CHALLENGES)
    assert main(["explain", str(path), "challenge P"]) == 1
    assert "  challenge_targets(player) = [Q, S]" in capsys.readouterr().out.splitlines()


def test_numbers_and_truth_values_are_shown_apart():
    """0 == False and 1 == True as keys: the text of one was the text of the
    other once it had been shown (explain said 'n = false' for no boats left)."""
    import nordlang
    rules = nordlang.load_rules(None, 2)
    assert [rules.show(v) for v in (False, 0, True, 1, 0, False, 1, True)] == \
        ["false", "0", "true", "1", "0", "false", "1", "true"]
    rules = nordlang.load_rules(None, 2)
    assert [rules.show(v) for v in (0, False, 1, True)] == ["0", "false", "1", "true"]
