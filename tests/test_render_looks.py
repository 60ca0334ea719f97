"""Looks a rulebook gives its pictures: a colour for some tags of a kind
(tag_colors) and names for a grid's rows (row_labels), and their errors."""

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import nordlang
from nordlang.cli import main
from nordlang.render.svg import render_svg

SVG = "{http://www.w3.org/2000/svg}"
TABLEAU = (Path(__file__).parent / "games" / "tableau" / "tableau.yaml").read_text()


def _game(tmp_path, text):
    path = tmp_path / "looks.yaml"
    path.write_text(text)
    return path


def _looks(text):
    """The tableau game with its cards coloured by tag and its rows named."""
    text = text.replace("  card: {", '  card: {tag_colors: {"1": "#112233", "4": darkgreen}, ', 1)
    return text.replace("type: grid,", "type: grid, row_labels: [top, bottom],", 1)


def test_a_tag_colour_fills_its_items_and_row_labels_name_the_rows(tmp_path):
    assert "  card: {" in TABLEAU and "type: grid," in TABLEAU        # (the edits below take)
    g = nordlang.load(str(_game(tmp_path, _looks(TABLEAU))), seed=0)
    while not g.over:
        g.play_index(0)
    root = ET.fromstring(render_svg(g.rules, g.state))
    fills = {(e.get("data-tag"), e.get("fill")) for e in root.iter() if e.get("data-kind") == "card"}
    assert ("1", "#112233") in fills and ("4", "darkgreen") in fills
    others = {f for tag, f in fills if tag not in ("1", "4")}
    assert others and not others & {"#112233", "darkgreen"}
    labels = [e.text for e in root.iter(f"{SVG}text") if e.get("class") == "row-label"]
    assert labels == ["top", "bottom"] * 2                          # each player's grid


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace("  card: {", '  card: {tag_colors: {"1": "bluish"}, ', 1),
     "pieces.card.tag_colors.1 is 'bluish', which is no colour"),
    (lambda t: t.replace("  card: {", '  card: {tag_colors: {"9": red}, ', 1),
     "pieces.card.tag_colors names '9', which is no tag of card"),
    (lambda t: t.replace("type: grid,", "type: grid, row_labels: [only],", 1),
     "zones/tableau: row_labels names 1 row(s), the grid has 2"),
    (lambda t: t.replace("type: deck", "type: deck, row_labels: [a]", 1),
     "zones/deck: 'row_labels' goes only with type: grid"),
])
def test_bad_looks_are_one_error_each(tmp_path, capsys, edit, message):
    path = _game(tmp_path, edit(TABLEAU))
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"error: {message}" in err and err.startswith(f"{path}:")
