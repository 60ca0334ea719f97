"""The pytest plugin (nordlang.testing.pytest_plugin): scenario files
collected as tests, one item per scenario or per branch, selected by -k,
written to JUnit XML, failing with the text `nord test` prints, and run in
parallel by pytest-xdist. Rulebooks, variants and other YAML are not
collected, nor the YAML the project's own tests keep under tests/."""

import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from nordlang.cli import main

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent
NORD = ROOT / "variants" / "nord" / "scenarios"
PLUGIN = ["-p", "nordlang.testing.pytest_plugin", "-p", "no:cacheprovider"]
BRANCHES = ["forest", "karst", "mountain", "sea"]


@pytest.fixture
def folder(pytester):
    """A project: scenarios (one with branches), a scenario elsewhere, and YAML that is no scenario."""
    (pytester.path / "scenarios").mkdir()
    shutil.copy(NORD / "placement-1.yaml", pytester.path / "scenarios")
    shutil.copy(NORD / "simple-attack.yaml", pytester.path / "scenarios")
    shutil.copy(ROOT / "variants" / "nord" / "no-storm.yaml", pytester.path / "scenarios")     # a variant
    shutil.copy(ROOT / "tests" / "games" / "connect3" / "connect3.yaml", pytester.path / "scenarios")  # a rulebook
    shutil.copy(ROOT / "variants" / "tictactoe" / "scenarios" / "row-win.yaml", pytester.path / "row-win.yaml")
    (pytester.path / "notes.yaml").write_text("moves: 3\ntitle: not a scenario\n")
    return pytester


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    return env


def test_scenarios_and_each_branch_are_collected_and_nothing_else(folder):
    result = folder.runpytest(*PLUGIN, "--collect-only", "-q")
    assert [line for line in result.outlines if "::" in line] == [
        "row-win.yaml::row-win", *(f"scenarios/placement-1.yaml::{b}" for b in BRANCHES),
        "scenarios/simple-attack.yaml::simple-attack"]


def test_they_run_and_pass(folder):
    folder.runpytest(*PLUGIN).assert_outcomes(passed=6)


@pytest.mark.parametrize("keyword, selected", [
    ("sea", ["scenarios/placement-1.yaml::sea"]),
    ("placement and not sea", [f"scenarios/placement-1.yaml::{b}" for b in BRANCHES[:3]]),
    ("simple-attack or row", ["row-win.yaml::row-win", "scenarios/simple-attack.yaml::simple-attack"]),
])
def test_k_selects_by_file_and_branch_name(folder, keyword, selected):
    result = folder.runpytest(*PLUGIN, "-k", keyword, "-v")
    result.assert_outcomes(passed=len(selected))
    assert [line.split()[0] for line in result.outlines if " PASSED" in line] == selected


def _break_sea(pytester):
    path = pytester.path / "scenarios" / "placement-1.yaml"
    text = path.read_text()
    assert "fleet: [boat*4]" in text
    path.write_text(text.replace("fleet: [boat*4]", "fleet: [boat*3]"))
    return path


def test_a_failing_branch_reports_what_nord_test_prints(folder, capsys):
    _break_sea(folder)
    assert main(["test", "scenarios/placement-1.yaml::sea"]) == 1      # (pytester works in its folder)
    printed = capsys.readouterr().out.splitlines()[:-1]
    assert printed[0].startswith("FAIL  scenarios/placement-1.yaml::sea  Sea: ") and len(printed) == 4
    result = folder.runpytest(*PLUGIN)
    result.assert_outcomes(passed=5, failed=1)
    start = result.outlines.index(printed[0])
    assert result.outlines[start - 1].strip("_") == " scenario scenarios/placement-1.yaml::sea "
    assert result.outlines[start:start + 4] == printed
    assert printed[1].endswith(": pieces at fleet")


def test_junit_xml_has_a_test_case_per_scenario_and_branch(folder, capsys):
    _break_sea(folder)
    assert main(["test", "scenarios/placement-1.yaml::sea"]) == 1
    printed = "\n".join(capsys.readouterr().out.splitlines()[:-1])
    folder.runpytest(*PLUGIN, "--junitxml=out.xml")
    cases = ET.parse(folder.path / "out.xml").getroot().iter("testcase")
    got = {(c.get("classname"), c.get("name")): c.find("failure") for c in cases}
    assert sorted(got) == sorted([("row-win.yaml", "row-win"), ("scenarios.simple-attack.yaml", "simple-attack")]
                                 + [("scenarios.placement-1.yaml", b) for b in BRANCHES])
    failed = {k: v for k, v in got.items() if v is not None}
    assert list(failed) == [("scenarios.placement-1.yaml", "sea")]
    assert failed[("scenarios.placement-1.yaml", "sea")].text == printed


def test_a_scenario_that_does_not_load_is_a_failed_item_with_the_error(folder):
    (folder.path / "scenarios" / "broken.yaml").write_text("description: [unclosed\n")
    result = folder.runpytest(*PLUGIN, "-k", "broken")
    result.assert_outcomes(failed=1)
    start = result.outlines.index("ERROR scenarios/broken.yaml")
    assert result.outlines[start + 1] == ("    scenarios/broken.yaml:1:14: error: malformed YAML: "
                                          "this '[' is never closed")


def test_parallel_runs_with_xdist(folder):
    pytest.importorskip("xdist")        # (in the test extra)
    _break_sea(folder)
    proc = subprocess.run([sys.executable, "-m", "pytest", *PLUGIN, "-n", "2", "-q"], cwd=folder.path, env=_env(),
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "FAILED scenarios/placement-1.yaml::sea" in proc.stdout
    assert proc.stdout.splitlines()[-1].startswith("1 failed, 5 passed")


def test_the_yaml_the_projects_tests_keep_is_not_collected():
    # (tests/broken/scenarios holds broken scenarios on purpose; tests/games runs its own from Python)
    def collect(*more):
        return subprocess.run([sys.executable, "-m", "pytest", *PLUGIN, "--collect-only", "-q", "-o", "addopts=",
                               *more, "tests/broken",
                               "tests/games"], cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=600)
    proc = collect()
    assert proc.returncode == 5, proc.stdout + proc.stderr          # (no tests collected)
    proc = collect("--noconftest")          # (without tests/conftest.py's collect_ignore_glob they would be)
    assert "tests/broken/scenarios/bad-legal-notation.yaml::bad-legal-notation" in proc.stdout.splitlines()
    assert "tests/games/connect3/scenarios/red-joins.yaml::red-joins" in proc.stdout.splitlines()
