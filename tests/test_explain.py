"""nord explain: legal moves show their effects; illegal ones the rule and
the condition that failed, with values."""

from pathlib import Path

import yaml

from nordlang.cli import main

SCEN = Path(__file__).resolve().parent.parent / "variants" / "scenarios"


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
    assert "'challenge' is allowed only when: len(challenge_targets) > 0" in out
    assert "s = A: all(warriors(player, s) > warriors(q, s) for q in others(player)) fails" in out


def test_wrong_choice_and_bad_notation(tmp_path, capsys):
    path = _cut(tmp_path, "placement-2.yaml", ["play none"])
    assert main(["explain", path, "attack A>B"]) == 1
    assert "the pending decision is 'place'" in capsys.readouterr().out
    assert main(["explain", path, "place"]) == 2
    assert "bad move notation" in capsys.readouterr().err
