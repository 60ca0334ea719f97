"""The engine is generic: no word of Nord, of Vikings or of the small games
(Kuhn poker, Goofspiel, Pig) in any Python file of the package."""

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "nordlang"
WORDS = ["jarl", "warrior", "settlement", "treasure", "dragon", "karst", "forest", "mountain", "fishing",
         "negotiator", "attack", "alliance",
         # Vikings
         "viking", "boatsman", "boatsmen", "goldsmith", "fisherman", "fishermen", "scout", "noble", "homeland",
         "sail",
         # the small games: their words stay in their YAML
         r"poker", r"kuhn", r"goofspiel", r"\bbids?\b", r"prize", r"\bpig\b", r"\bbets?\b", r"\bfolds?\b"]


def test_no_game_word_in_the_engine():
    pattern = re.compile(r"(?i)(" + "|".join(WORDS) + ")")
    hits = []
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) > 20
    for f in files:
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            m = pattern.search(line)
            if m:
                hits.append(f"{f.relative_to(PACKAGE.parent)}:{n}: {m.group(0)!r} in {line.strip()}")
    assert not hits, "game words in the generic engine:\n" + "\n".join(hits)


def test_the_check_itself_can_fail(tmp_path):
    """A file with a Nord word is caught (the test above is not vacuous)."""
    f = tmp_path / "x.py"
    f.write_text("def score_settlement(): pass\n")
    pattern = re.compile(r"(?i)(" + "|".join(WORDS) + ")")
    assert pattern.search(f.read_text())
