"""bench/hotspots.py runs (its figures are its own to print: no timing is asserted)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _hotspots(*args) -> list:
    """The lines bench/hotspots.py prints, run with these arguments."""
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "hotspots.py"), *args], cwd=ROOT, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()


def test_hotspots_names_choices_functions_and_definitions():
    lines = _hotspots("--game", "vikings", "--players", "2", "--games", "1", "--top", "5", "--seconds", "0")
    assert lines[0].startswith("vikings, 2 players: 1 random games, ")
    assert "options of each choice, a game:" in lines and "rulebook definitions called (not inlined), a game:" in lines
    choices = {line.split()[0] for line in lines[lines.index("options of each choice, a game:") + 1:] if
               line.startswith("  ") and "us a call" in line}
    assert {"buy", "place"} <= choices
    defined = lines[lines.index("rulebook definitions called (not inlined), a game:") + 1:]
    assert not any(line.startswith("the engine's parts") for line in lines)     # (--seconds 0: not sampled)
    assert len(defined) == 5 and any(" on_offer " in line for line in defined)
    assert not any(" edge_on_left " in line or " island_at " in line for line in defined)    # (both written in)


def test_hotspots_samples_the_engines_parts():
    lines = _hotspots("--game", "nord", "--players", "2", "--games", "1", "--top", "3", "--seconds", "2")
    head = next(i for i, line in enumerate(lines) if line.startswith("the engine's parts, sampled ("))
    shares = {}
    for line in lines[head + 1:]:
        if line.strip().endswith(":") or "%" not in line:
            continue
        share, name = line.split("%", 1)
        shares[name.strip()] = float(share)
    work = ("effects", "definitions", "other expressions (tests, bindings, option lists)")
    # the rules' own work and the machinery around it add up to the whole (each part rounded)
    rules_work = float(next(line for line in lines if "the rules' own work" in line).split("%")[0])
    machinery = float(next(line for line in lines if "the machinery around it" in line).split("%")[0])
    assert abs(rules_work + machinery - 100) < 0.2
    assert abs(sum(shares[k] for k in work) - rules_work) < 0.3
    # Nord's time is mostly its definitions' (its placements, reach, attack pairs), each named
    assert shares["definitions"] > 10 and "the flow's machine" in shares
    assert any(name in shares for name in ("reach", "land_groups", "attack_pairs"))
