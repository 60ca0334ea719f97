"""The Vikings scenarios (variants/vikings/scenarios): each passes as
written, and each is mutation-checked (tests/mutate_scenarios.py): every
number and piece its expectations name, changed one at a time, makes it
fail. Also: a track expectation listed with empty slots is compared slot
by slot, and `nord explain` names the edge rule that refuses a tile."""

from pathlib import Path

import pytest
from mutate_scenarios import check_file, expect_mutants
from mutate_scenarios import main as mutate_main

from nordlang.cli import main
from nordlang.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "variants" / "vikings" / "scenarios"
FILES = sorted(SCENARIOS.glob("*.yaml"))


def test_the_folder_holds_at_least_thirty_scenarios_and_all_pass(capsys):
    assert len(FILES) >= 30
    assert main(["test", str(SCENARIOS)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"{len(FILES)} passed, 0 failed"


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_every_mutant_of_its_expectations_fails(path):
    total, survivors = check_file(path)
    assert total >= 3          # (every scenario asserts something a change can break)
    assert survivors == []


def test_the_mutants_of_an_expectation_name_each_number_and_piece():
    sc = load_scenario(SCENARIOS / "pay-with-points.yaml")
    labels = [label for label, _ in expect_mutants(sc.rules, sc.data["expect"])]
    assert "points orange 0+1" in labels and "points_from orange exchange -5+1" in labels
    assert "at purse(orange): ['coin']" not in labels          # (an empty purse has no piece to change)
    assert "at base(orange): ['viking:yellow']" in labels and "at base(orange): []" in labels
    assert "player purple -> next" in labels


def test_the_mutation_script_reports_its_figures(capsys):
    assert mutate_main([str(SCENARIOS / "wheel-turns.yaml")]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "32 mutants, 32 killed, 0 survived"


def test_a_track_listed_with_empty_slots_is_compared_slot_by_slot(tmp_path):
    text = (SCENARIOS / "wheel-turns.yaml").read_text()
    wrong = text.replace('wheel_tiles: [island:right, island:longhouse, "-", "-", "-", "-", "-", ship:red',
                         'wheel_tiles: [island:right, island:longhouse, "-", "-", "-", "-", ship:red')
    assert wrong != text
    (tmp_path / "x.yaml").write_text(wrong)
    rep = load_scenario(tmp_path / "x.yaml").run()
    assert [f.what for f in rep.failures] == ["pieces at wheel_tiles"]
    assert rep.failures[0].expected == "[island:right, island:longhouse, -, -, -, -, ship:red, ship:blue]"
    assert rep.failures[0].actual == "[island:right, island:longhouse, -, -, -, -, -, ship:red, ship:blue]"


@pytest.mark.parametrize("cell, rule, edges", [
    ("[3,3]", "left_edge_matches", "edge_on_left(c) = land;  [none, left_edge(t)] = (none, sea)"),
    ("[5,1]", "right_edge_matches", "edge_on_right(c) = sea;  [none, right_edge(t)] = (none, land)"),
])
def test_explain_names_the_edge_rule_that_refuses_a_tile(cell, rule, edges):
    from nordlang.explain import explain
    sc = load_scenario(SCENARIOS / "island-edges-left-end.yaml")
    assert sc.run_moves(upto=1) is None                       # orange has bought the left end
    legal, lines = explain(sc.game, f"place homeland(orange){cell}")
    assert not legal
    text = "\n".join(lines)
    assert f"{rule}(c, t)  ->  false  (where c = homeland(orange){cell}, t = island:left)" in text
    assert edges in text
