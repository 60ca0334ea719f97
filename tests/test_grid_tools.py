"""The tools on a game played in grid zones, with no board (tests/games/tableau):
render (SVG and text), scenarios with cells, explain, replay, play."""

import io
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import nordlang
from nordlang.cli import main
from nordlang.render.svg import render_svg
from nordlang.render.text import grid_lines, position_lines
from nordlang.scenario import load_scenario

GAME = Path(__file__).parent / "games" / "tableau"
TABLEAU = str(GAME / "tableau.yaml")
SCENARIOS = GAME / "scenarios"
SVG = "{http://www.w3.org/2000/svg}"


def _played(*indices):
    g = nordlang.load(TABLEAU, seed=0)
    for i in indices:
        g.play_index(i)
    return g


# ---------------------------------------------------------------- render
def test_the_svg_of_a_board_less_game_draws_each_grid_and_no_board():
    g = _played(1, 3)        # red: slot 1 (a 2), to [0,0] at once (its only cell); blue: slot 3 (a 4)
    root = ET.fromstring(render_svg(g.rules, g.state))
    assert root.findall(f".//{SVG}*[@class='space']") == []            # no board
    grids = root.findall(f".//{SVG}g[@class='grid']")
    assert [x.get("data-zone") for x in grids] == ["tableau(red)", "tableau(blue)"]
    assert [x.get("data-filled") for x in grids] == ["1", "1"]
    cells = root.findall(f".//{SVG}rect[@class='cell']")
    # two rows, the columns in use (0) and one more: 4 cells a grid
    assert [c.get("data-at") for c in cells] == [
        "tableau(red)[0,0]", "tableau(red)[0,1]", "tableau(red)[1,0]", "tableau(red)[1,1]",
        "tableau(blue)[0,0]", "tableau(blue)[0,1]", "tableau(blue)[1,0]", "tableau(blue)[1,1]"]
    assert [c.get("data-count") for c in cells] == ["1", "0", "0", "0", "1", "0", "0", "0"]
    pieces = [(p.get("data-at"), p.get("data-tag")) for p in root.iter() if p.get("class") == "piece"]
    assert ("tableau(red)[0,0]", "2") in pieces and ("tableau(blue)[0,0]", "4") in pieces
    # the offer: its slots' values and the cards in them, named beneath
    slots = root.findall(f".//{SVG}rect[@class='slot']")
    assert [(s.get("data-slot"), s.get("data-value")) for s in slots] == [("0", "0"), ("1", "1"), ("2", "2"),
                                                                            ("3", "3")]
    assert sorted((p.get("data-slot"), p.get("data-tag")) for p in root.iter()
                  if p.get("class") == "piece" and p.get("data-at") == "offer") == [
        ("0", "1"), ("1", "4"), ("2", "3"), ("3", "3")]
    assert "tableau(red)" in {t.text for t in root.iter(f"{SVG}text")}


def test_a_grid_beside_a_board_is_drawn_beneath_it(tmp_path):
    """A board game with a grid zone: the board, then the grid below it."""
    text = (Path(__file__).parent / "games" / "connect3" / "connect3.yaml").read_text()
    text = text.replace("  supply: {type: pool, per_player: true}",
                        "  supply: {type: pool, per_player: true}\n  shelf: {type: grid, rows: 1, columns: 4}")
    path = tmp_path / "c3.yaml"
    path.write_text(text)
    g = nordlang.load(str(path), seed=0)
    g.state.add(("shelf", None, 0, 2), ("stone", 1))
    root = ET.fromstring(render_svg(g.rules, g.state))
    spaces = root.findall(f".//{SVG}*[@class='space']")
    cells = root.findall(f".//{SVG}rect[@class='cell']")
    assert len(spaces) == 9 and [c.get("data-at") for c in cells] == [f"shelf[0,{c}]" for c in range(4)]
    board_bottom = max(float(y) for s in spaces for y in s.get("points").replace(",", " ").split()[1::2])
    assert min(float(c.get("y")) for c in cells) > board_bottom


def test_the_text_of_each_grid_is_rows_of_cells():
    g = _played(1, 3, 0, 0)    # red: a 2 to [0,0]; blue: a 4 to [0,0]; red: a 1 to [0,1]
    g.state.add(("tableau", 0, 1, 0), ("card", 4), 2)
    assert grid_lines(g.rules, g.state, ("tableau", 0)) == [
        "tableau(red): 3 of 6 cells filled",
        "     0    1    2",
        "  0  2    1    .",
        "  1  4*2  .    .",
    ]
    assert position_lines(g.rules, g.state)[4:] == [
        "tableau(blue): 1 of 6 cells filled (column 2 empty)",
        "     0  1",
        "  0  4  .",
        "  1  .  .",
        "offer: 4 | 3 | 3 | 2   (slots 0 to 3; values 0, 1, 2, 3)",
    ]


def test_nord_render_draws_a_replay_and_a_scenario_of_the_game(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    assert main(["play", "--rulebook", TABLEAU, "--seed", "2", "--log", str(log), "--quiet"]) == 0
    out = tmp_path / "final.svg"
    assert main(["render", str(log), "--rulebook", TABLEAU, "-o", str(out)]) == 0
    root = ET.fromstring(out.read_text())
    assert sum(1 for c in root.iter(f"{SVG}rect") if c.get("class") == "cell" and c.get("data-count") != "0") == 8
    assert main(["render", str(log), "--rulebook", TABLEAU, "--turn", "2", "-o", str(out)]) == 0
    root = ET.fromstring(out.read_text())
    assert [g.get("data-filled") for g in root.iter(f"{SVG}g") if g.get("class") == "grid"] == ["1", "0"]
    assert main(["render", str(SCENARIOS / "last-cards.yaml"), "--moves", "all", "-o", str(out)]) == 0
    root = ET.fromstring(out.read_text())
    full = {c.get("data-at") for c in root.iter(f"{SVG}rect")
            if c.get("class") == "cell" and c.get("data-count") == "1"}
    assert full == {f"tableau({p})[{r},{c}]" for p in ("red", "blue") for r in (0, 1) for c in (0, 1)}
    assert "scenario " in capsys.readouterr().out


# ---------------------------------------------------------------- scenarios
def test_the_scenarios_of_the_game_pass(capsys):
    assert main(["test", str(SCENARIOS)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "3 passed, 0 failed"


def test_a_scenario_sets_up_cells_as_listed():
    sc = load_scenario(SCENARIOS / "pairs.yaml")
    st = sc.game.state
    assert st.pools[("tableau", 0, 0, 0)] == {("card", 3): 1}
    assert [c for c in st.cells.get(("tableau", 0), ()) if st.pools[c]] == [("tableau", 0, 0, 0)]
    assert [x[1] for x in st.tracks[("offer", None)]] == [3, 1, 2, 4]
    # every card is still in the game: 12 in all
    assert sum(st.total(k) for k in [("deck", None), ("offer", None), ("tableau", 0), ("tableau", 1)]) == 12


def _scenario(tmp_path, old, new, name="pairs.yaml"):
    text = (SCENARIOS / name).read_text().replace("rulebook: ../tableau.yaml", f"rulebook: {TABLEAU}")
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new))
    return path, text.replace(old, new).splitlines()


def test_a_wrong_cell_expectation_fails_with_a_diff(tmp_path, capsys):
    path, lines = _scenario(tmp_path, '"0,1": "3"}', '"0,1": "4"}')
    assert main(["test", str(path)]) == 1
    out = capsys.readouterr().out
    row = next(i for i, t in enumerate(lines) if '"0,1": "4"' in t) + 1
    col = lines[row - 1].index('"4"') + 1
    assert (f"{path}:{row}:{col}: pieces at tableau(red)[0,1]\n          expected: [4]\n"
            "          actual:   [3]") in out


def test_a_grid_expectation_names_the_cells_it_left_out(tmp_path, capsys):
    path, lines = _scenario(tmp_path, '    tableau(red): {"0,0": "3", "0,1": "3"}', '    tableau(red): {"0,0": "3"}')
    assert main(["test", str(path)]) == 1
    out = capsys.readouterr().out
    row = next(i for i, t in enumerate(lines) if 'tableau(red): {"0,0": "3"}' in t) + 1
    assert (f"{path}:{row}:19: cells of tableau(red) beyond those listed\n"
            "          expected: none (every cell not listed is empty)\n"
            '          actual:   "0,1": [3]') in out


@pytest.mark.parametrize("old, new, message", [
    ('"0,0": "3"\n', '"0,x": "3"\n', "'0,x' is not a cell of tableau(red)"),
    ('"0,0": "3"\n', '"2,0": "3"\n', "tableau(red) has no cell 2,0: its rows are 0 to 1, its columns 0 to 2"),
    ("    tableau(red):\n", "    tablo(red):\n", "unknown location 'tablo(red)'"),
    ("    tableau(red):\n", "    offer[0,1]:\n", "offer is not a grid zone: [row,column] names a cell of a grid"),
    ("    tableau(blue): {}\n", '    tableau(red)[0,5]: "1"\n',
     "tableau(red) has no cell 0,5: its rows are 0 to 1, its columns 0 to 2"),
    ("    tableau(blue): {}\n", '    tableau(blue): "3"\n',
     'tableau(blue) is a grid: list its cells, each "row,column": items'),
    ('    offer: ["3", "1", "2", "4"]\n', '    tableau(red)[0,0]: "1"\n',
     "tableau(red)[0,0] is listed twice (also under tableau(red))"),
])
def test_bad_cells_in_a_scenario_are_clear_errors(tmp_path, capsys, old, new, message):
    path, lines = _scenario(tmp_path, old, new)
    assert main(["test", str(path)]) == 2
    out = capsys.readouterr()
    text = out.out + out.err
    bad = new.strip().split(":")[0]
    row = next(i for i, t in enumerate(lines) if t.strip().startswith(bad)) + 1
    col = lines[row - 1].index(bad) + 1
    assert f"{path}:{row}:{col}: error: {message}" in text
    assert "Traceback" not in text


# ---------------------------------------------------------------- explain, replay, play
def test_explain_says_why_a_cell_is_no_option(tmp_path, capsys):
    path = tmp_path / "where.yaml"
    path.write_text(f"description: blue has taken a card and lays it.\nrulebook: {TABLEAU}\nplayers: 2\n"
                    "position:\n  player: blue\n  at:\n    tableau(blue)[1,2]: \"4\"\nmoves:\n  - take 1\n")
    assert main(["explain", str(path), "where tableau(blue)[0,0]"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("where tableau(blue)[0,0]: illegal: 'tableau(blue)[0,0]' is not an option of 'where'")
    assert "->  false  (where p = 1, c = tableau(blue)[0,0])" in out
    assert main(["explain", str(path), "where tableau(blue)[0,2]"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "      blue     +2   cards"


def test_replay_checks_a_played_game(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    assert main(["play", "--rulebook", TABLEAU, "--seed", "1", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "where tableau(red)[0,0]" in out and out.splitlines()[-2].startswith("winner")
    assert main(["replay", str(log), "--rulebook", TABLEAU]) == 0
    assert capsys.readouterr().out.startswith("replay matches: 16 decisions")


def test_a_person_plays_the_game_at_the_terminal(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 8))
    assert main(["play", "--rulebook", TABLEAU, "--seed", "1", "--agents", "human,random"]) == 0
    lines = capsys.readouterr().out.splitlines()
    i = lines.index("turn 1, red chooses a slot of the offer:")
    assert lines[i - 9:i] == ["tableau(red): 0 of 6 cells filled (columns 1 to 2 empty)", "     0", "  0  .",
                              "  1  .", "tableau(blue): 0 of 6 cells filled (columns 1 to 2 empty)", "     0",
                              "  0  .", "  1  .", "offer: 1 | 2 | 3 | 4   (slots 0 to 3; values 0, 1, 2, 3)"]
    assert lines[-1].startswith("winner")
