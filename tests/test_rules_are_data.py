"""Rules are data: rule changes made in YAML alone change the outcome of a
fixed scenario exactly as the YAML says (the engine is not touched)."""

from pathlib import Path

import pytest
import yaml

from nordlang.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent
FIXED = ROOT / "variants" / "nord" / "scenarios" / "fixed" / "warrior-scoring.yaml"
ATTACK = ROOT / "variants" / "nord" / "scenarios" / "simple-attack.yaml"
ONE = ROOT / "variants" / "nord" / "scenarios" / "fixed" / "one-attacker.yaml"

BASE_BOAT = ["jarl:yellow", "jarl:green", "jarl"]

CASES = {
    # warriors score the cube: A 3 -> 27, B 2 -> 8; blue 1 + 1
    "cube-warriors": (FIXED, {"points": {"red": 20 + 27 + 8, "blue": 2},
                              "points_from": {"red": {"warriors": 35}}}),
    # no storm: the sea workers stay on c4 and g3 with their boats
    "no-storm": (FIXED, {"points": {"red": 33, "blue": 2},
                         "at": {"c4": ["man:red", "boat"], "g3": ["man:blue", "boat"]}}),
    # mountains feed too: A feeds 4 (d3 is a connected mountain worker), red keeps 4 -> 16
    "mountain-food": (FIXED, {"points": {"red": 20 + 16 + 4, "blue": 2},
                              "at": {"A": ["jarl:red", "man:red*4", "man:blue"]}}),
    # the storm also sweeps the coast: forest worker c2 (beside the sea) goes home, d3 stays
    "coastal-storm": (FIXED, {"points": {"red": 33}, "at": {"c2": [], "d3": ["man:red"], "c4": []}}),
    # three scorings: this warrior scoring is followed at once by the final one and the end
    "short-game": (FIXED, {"over": True, "holds": ['counter("scorings") == 2']}),
    # every second attacker dies: a lone attacker is the 1st, posted in B instead of dying
    "blood-feud": (ONE, {"at": {"B": ["jarl:blue", "man:blue", "man:red"], "c2": [],
                                "longboat": ["jarl:yellow", "jarl:green"]}}),
    # attacks need the small dragon boat: B is not linked to X, so no attack; the workers stay (merge)
    "dragon-raids": (ATTACK, {"at": {"c2": ["man:red"], "d2": ["man:red"], "B": ["jarl:blue", "man:blue"],
                                     "longboat": ["jarl:yellow", "jarl:green"]}}),
}


def _run(path, tmp_path, variant=None, expect=None):
    data = yaml.safe_load(path.read_text())
    if variant:
        data["variants"] = [variant]
    if expect is not None:
        data["expect"] = expect
    out = tmp_path / path.name
    out.write_text(yaml.safe_dump(data, sort_keys=False))
    return load_scenario(out).run()


@pytest.mark.parametrize("path", [FIXED, ATTACK, ONE], ids=["warrior-scoring", "simple-attack", "one-attacker"])
def test_base_rules_give_the_base_outcome(path, tmp_path):
    rep = _run(path, tmp_path)
    assert rep.passed, "\n".join(f.format() for f in rep.failures)


@pytest.mark.parametrize("variant", sorted(CASES))
def test_variant_changes_the_outcome_as_its_yaml_says(variant, tmp_path):
    path, expect = CASES[variant]
    rep = _run(path, tmp_path, variant, expect)
    assert rep.passed, "\n".join(f.format() for f in rep.failures)
    # and the base expectation no longer holds under the variant
    base = _run(path, tmp_path, variant)
    assert not base.passed, f"{variant} did not change the outcome of {path.name}"
