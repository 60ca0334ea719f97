"""Positions as pictures in a notebook: a game, a scenario, one player's
sight and a replay show as nordlang's SVG; docs/example.ipynb runs and
shows a board in each of its cells."""

import re
from pathlib import Path

import pytest

import nordlang
import nordlang.notebook as nb
from nordlang.errors import UsageError
from nordlang.render.svg import render_svg
from nordlang.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent
SWAP = nordlang.bundled("variants") / "hex" / "scenarios" / "swap.yaml"


def _title(svg: str) -> str:
    return re.search(r"<title>(.*?)</title>", svg).group(1)


def test_a_game_shows_as_its_picture():
    game = nordlang.load("tictactoe")
    game.play("place b2")
    assert game._repr_svg_() == render_svg(game.rules, game.state)
    assert _title(game._repr_svg_()) == "Tic-tac-toe: turn 2, blue to move"


def test_one_players_sight_shows_what_he_may_not_see_face_down():
    game = nordlang.load("nord", players=2, seed=3)
    red, blue = game.look(0)._repr_svg_(), game.look(1)._repr_svg_()
    assert _title(blue) == "Nord: turn 1, red to move, as blue sees it"
    assert "<title>treasure:? x3 in hand(red)</title>" in blue
    assert "<title>treasure:? x3 in hand(blue)</title>" in red
    assert "<title>goblet x1 in hand(blue)</title>" in blue and "goblet x1 in hand(blue)" not in red
    assert nb.picture(game, player=1).svg == blue


def test_a_scenario_shows_its_position_titled_by_its_description():
    svg = load_scenario(SWAP)._repr_svg_()
    assert _title(svg).startswith("Hex: swap.yaml, The swap variant: red opens on e3")
    assert svg.count('class="piece"') > 0


def test_a_replay_at_a_turn(tmp_path):
    pic = nb.replay(ROOT / "tests" / "replays" / "nord-2p.jsonl", turn=10)
    assert repr(pic) == "<Picture: Nord: nord-2p.jsonl, start of turn 10, blue to move>"
    assert pic._repr_svg_() == pic.svg and "<title>man:blue at h5</title>" in pic.svg
    pic.save(tmp_path / "t10.svg")
    assert (tmp_path / "t10.svg").read_text() == pic.svg
    with pytest.raises(UsageError, match="the replay has no turn 999"):
        nb.replay(ROOT / "tests" / "replays" / "nord-2p.jsonl", turn=999)
    with pytest.raises(UsageError, match="must end in .svg or .png"):
        pic.save(tmp_path / "t10.txt")


def test_a_picture_of_anything_else_is_a_clear_error():
    with pytest.raises(TypeError, match="a picture is drawn of a Game, a Scenario or a Position, not int"):
        nb.picture(3)
    with pytest.raises(ValueError, match="a viewer is a player, 0 to 1"):
        nb.picture(nordlang.load("hex"), player=2)


def test_the_example_notebook_shows_a_board_in_each_cell(monkeypatch):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    monkeypatch.setenv("PYTHONPATH", str(Path(nordlang.__file__).resolve().parent.parent))  # (this nordlang)
    book = nbformat.read(ROOT / "docs" / "example.ipynb", as_version=4)
    nbclient.NotebookClient(book, timeout=180, kernel_name="python3",
                            resources={"metadata": {"path": str(ROOT / "docs")}}).execute()
    titles = []
    for cell in (c for c in book.cells if c.cell_type == "code"):
        shown = [o for o in cell.outputs if o.output_type == "execute_result"]
        assert [o for o in cell.outputs if o.output_type == "error"] == []
        assert len(shown) == 1 and "image/svg+xml" in shown[0].data
        svg = shown[0].data["image/svg+xml"]
        assert svg.startswith("<svg") and 'class="piece"' in svg
        titles.append(_title(svg))
    assert titles[0] == "Tic-tac-toe: turn 4, blue to move"
    assert titles[1] == "Nord: turn 1, red to move, as blue sees it"
    assert titles[2].startswith("Hex: swap.yaml, ")
    assert titles[3] == "Nord: nord-2p.jsonl, start of turn 10, blue to move"
