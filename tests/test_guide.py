"""docs/writing-a-new-game.md quotes the Vikings rulebook: every YAML block
it shows is a quote that must still stand in rulebook/vikings/ word for word
(indentation normalised), or its scenario or variant, which must run. The
rulings document points only at files that exist and names every RULING
comment's file; the README's Vikings picture exists. So the docs cannot
drift from the game."""

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import nordlang
from nordlang.cli import main
from nordlang.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "writing-a-new-game.md"
RULINGS = ROOT / "docs" / "vikings-rulings.md"
RULEBOOK = ROOT / "rulebook" / "vikings"
VARIANTS = ROOT / "variants" / "vikings"
SVG = "{http://www.w3.org/2000/svg}"


def _blocks(text: str) -> list[str]:
    return re.findall(r"```yaml\n(.*?)```", text, flags=re.S)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _found_in(block: str, lines: list[str]) -> bool:
    """The block's lines stand in `lines` one after another, all shifted right by the same amount."""
    want = block.rstrip("\n").split("\n")
    base = min(_indent(x) for x in want if x.strip())
    want = [x[base:] if x.strip() else "" for x in want]
    for i in range(len(lines) - len(want) + 1):
        shift = _indent(lines[i]) - _indent(want[0])
        if shift < 0:
            continue
        pad = " " * shift
        if all((lines[i + k].strip() == "" if not w else lines[i + k] == pad + w) for k, w in enumerate(want)):
            return True
    return False


def _kind(block: str) -> str:
    if block.startswith("description:") and "\nextends:" in block:
        return "variant"
    if block.startswith("description:"):
        return "scenario"
    return "quote"


BLOCKS = _blocks(GUIDE.read_text(encoding="utf-8"))
QUOTES = [b for b in BLOCKS if _kind(b) == "quote"]


def test_the_guide_quotes_the_rulebook_and_shows_a_scenario_and_a_variant():
    assert len(QUOTES) >= 15
    assert [_kind(b) for b in BLOCKS].count("scenario") == 1
    assert [_kind(b) for b in BLOCKS].count("variant") == 1


@pytest.mark.parametrize("block", QUOTES, ids=[b.split("\n", 1)[0].strip()[:40] for b in QUOTES])
def test_every_quote_still_stands_in_the_rulebook(block):
    sources = sorted(RULEBOOK.glob("*.yaml")) + sorted(VARIANTS.glob("*.yaml"))
    files = {f.name: f.read_text(encoding="utf-8").split("\n") for f in sources}
    where = [name for name, lines in files.items() if _found_in(block, lines)]
    assert where, f"docs/writing-a-new-game.md quotes what rulebook/vikings/ and its variants no longer say:\n{block}"


def test_the_matcher_tells_a_changed_quote():
    lines = (RULEBOOK / "offer.yaml").read_text(encoding="utf-8").split("\n")
    assert _found_in("    - id: buy\n      choose: buy\n", lines)
    assert _found_in("- id: buy\n  choose: buy\n", lines)          # indentation normalised
    assert not _found_in("- id: buy\n    choose: buy\n", lines)     # but kept within the block
    assert not _found_in("- id: buy\n  choose: purchase\n", lines)


def test_the_guides_scenario_passes(tmp_path):
    block = next(b for b in BLOCKS if _kind(b) == "scenario")
    f = tmp_path / "left-end.yaml"
    f.write_text(block)
    rep = load_scenario(f).run()
    assert rep.passed, [x.format() for x in rep.failures]


def test_the_guides_explain_reads_as_shown(tmp_path, capsys):
    block = next(b for b in BLOCKS if _kind(b) == "scenario")
    f = tmp_path / "left-end.yaml"
    f.write_text(block.split("  - expect:")[0])         # the position after 'buy 1'
    assert main(["explain", str(f), "place homeland(orange)[2,2]"]) == 1
    out = capsys.readouterr().out
    assert "illegal: 'homeland(orange)[2,2]' is not an option of 'place'" in out
    assert "edge_on_left(c) = land;  [none, left_edge(t)] = (none, sea)" in out


def test_the_guides_variant_loads_and_plays(tmp_path):
    block = next(b for b in BLOCKS if _kind(b) == "variant")
    f = tmp_path / "lean-winter.yaml"
    f.write_text(block)
    game = nordlang.load("vikings", players=2, seed=3, variants=[str(f)])
    assert game.rules.names.constants["under_supply"] == 2
    while not game.over:
        game.play(game.legal_moves()[0])
    assert game.result.winners


def test_the_rulings_point_at_files_that_hold_rulings():
    text = RULINGS.read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:rulebook|variants)/vikings/[a-z]+\.yaml)`", text))
    assert named and all((ROOT / n).exists() for n in named), named
    with_rulings = {str(f.relative_to(ROOT)) for f in list(RULEBOOK.glob("*.yaml")) + list(VARIANTS.glob("*.yaml"))
                    if "# RULING" in f.read_text(encoding="utf-8")}
    assert with_rulings <= named, with_rulings - named
    assert "http" not in text and "/work/" not in text and "shared/" not in text


def test_the_readme_shows_the_vikings_picture():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "](docs/vikings.svg)" in readme
    assert "](docs/writing-a-new-game.md)" in readme and "](docs/vikings-rulings.md)" in readme
    root = ET.parse(ROOT / "docs" / "vikings.svg").getroot()
    zones = [g.get("data-zone") for g in root.iter(f"{SVG}g") if g.get("class") == "grid"]
    assert zones == ["homeland(orange)", "homeland(purple)", "homeland(white)"]


def test_a_homeland_cell_names_its_tile_by_its_tag_in_full(tmp_path):
    """The shape says the kind; the name beside it is the tag, never cut ('storehouse', not 'islan…')."""
    from nordlang.render.svg import render_svg
    game = nordlang.load("vikings", players=2, seed=0)
    game.state.add(("homeland", 0, 1, 2), ("island", "storehouse"))
    game.state.add(("homeland", 0, 1, 2), ("viking", "black"))
    root = ET.fromstring(render_svg(game.rules, game.state))
    cell = next(c for c in root.iter(f"{SVG}rect") if c.get("data-at") == "homeland(orange)[1,2]")
    x, y = float(cell.get("x")), float(cell.get("y"))
    labels = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "label"
              and x < float(t.get("x")) < x + float(cell.get("width")) and y < float(t.get("y")) < y + 46]
    assert labels == ["storehouse", "black"]       # (the Viking's chip does not write its tag again)
    assert float(cell.get("width")) >= 19 + 7 * len("storehouse")
