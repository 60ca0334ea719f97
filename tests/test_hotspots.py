"""bench/hotspots.py runs (its figures are its own to print: no timing is asserted)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_hotspots_names_choices_functions_and_definitions():
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "hotspots.py"), "--game", "vikings", "--players", "2",
                          "--games", "1", "--top", "5"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("vikings, 2 players: 1 random games, ")
    assert "options of each choice, a game:" in lines and "rulebook definitions called (not inlined), a game:" in lines
    choices = {line.split()[0] for line in lines[lines.index("options of each choice, a game:") + 1:] if
               line.startswith("  ") and "us a call" in line}
    assert {"buy", "place"} <= choices
    defined = lines[lines.index("rulebook definitions called (not inlined), a game:") + 1:]
    assert len(defined) == 5 and any(" on_offer " in line for line in defined)
    assert not any(" edge_on_left " in line or " island_at " in line for line in defined)    # (both written in)
