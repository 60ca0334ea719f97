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
    # the rules' own work, the machinery around it and the bench's loop add up to the whole (each rounded)
    rules_work = float(next(line for line in lines if "the rules' own work" in line).split("%")[0])
    machinery = float(next(line for line in lines if "the machinery around it" in line).split("%")[0])
    loop = shares["the bench's own loop and random draws"]
    assert abs(rules_work + machinery + loop - 100) < 0.3
    # with no machinery, what is left: the rules' work and the loop
    bound = float(next(line for line in lines if "with no machinery at all:" in line).split(":")[1].split()[0])
    assert abs(bound - (rules_work + loop) / 100) < 0.006
    assert abs(sum(shares[k] for k in work) - rules_work) < 0.3
    # Nord's time is mostly its definitions' (its placements, reach, attack pairs), each named
    assert shares["definitions"] > 10 and "the flow's machine" in shares
    assert any(name in shares for name in ("reach", "land_groups", "attack_pairs"))


def test_hotspots_samples_a_search():
    lines = _hotspots("--game", "nord", "--players", "2", "--agent", "mcts", "--seconds", "2")
    assert lines[0].startswith("the mcts agent's searches (default budget) from the seeded positions")
    top = lines[1:lines.index("the decisions played on, by the engine's parts:")]
    shares = {name.strip(): float(share) for share, name in (line.split("%", 1) for line in top)}
    assert set(shares) <= {"playing each new position's decision on", "the rulebook's evaluation",
                           "the tree's own work (selection, backups, draws)", "copies of positions",
                           "the honest sample (what the mover may know)"}
    assert abs(sum(shares.values()) - 100) < 0.5
    # a search is mostly the engine playing on and the rulebook scoring (about 65% and 15% on Nord)
    assert shares["playing each new position's decision on"] > 40 and shares["the rulebook's evaluation"] > 5
    bound = float(lines[-1].split(":")[1].split()[0])
    assert lines[-1].startswith("a search with no machinery in the decisions it plays on:") and 0.5 < bound < 1


def test_hotspots_says_when_mcts_cannot_search():
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "hotspots.py"), "--game", "hex", "--agent", "mcts",
                          "--seconds", "1"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 2 and "states no evaluation" in out.stderr and not out.stdout
