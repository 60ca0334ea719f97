"""Pictures keep what they say inside their room and say all of it: an item's
tag (a card's value) is written beside a shape that cannot hold it, a long
title stays inside the picture's width, a track's slots name their items
whole, a player's sources wrap inside his box, every cell a pending
decision names is drawn, and a board's `sides` are drawn in the players'
colours (with the winning chain outlined at the end)."""

from __future__ import annotations

import random
import re

import pytest

import nordlang
from nordlang.render.svg import render_svg
from nordlang.render.svg_parts import PANEL_W, text_width


def texts(svg: str, cls: str) -> list[str]:
    return re.findall(rf'<text class="{cls}"[^>]*>([^<]*)</text>', svg)


def test_a_cards_value_is_written_beside_it():
    g = nordlang.load("goofspiel", seed=4)
    svg = render_svg(g.rules, g.state)
    labels = texts(svg, "label")
    assert [f"{n} \u00d71" for n in range(1, 14)] == [t for t in labels if t.endswith("\u00d71")][:13]
    g = nordlang.load("kuhn-poker", seed=3)
    svg = render_svg(g.rules, g.state)
    hands = {t for t in texts(svg, "label") if t.split()[0] in ("jack", "queen", "king")}
    dealt = {f"{tag} \u00d71" for p in (0, 1) for (_k, tag), n in g.state.pools[("hand", p)].items() if n}
    assert hands == dealt and len(dealt) == 2


def test_a_long_title_stays_inside_the_picture():
    g = nordlang.load("tictactoe")
    short = render_svg(g.rules, g.state, title="tic-tac-toe")
    assert re.search(r'<text class="title" x="36" y="27" font-size="19"[^>]*>tic-tac-toe<', short)
    assert "textLength" not in short
    title = "a position worth a long look, with a title that says why at length " * 3
    svg = render_svg(g.rules, g.state, title=title)
    width = float(re.search(r'<svg [^>]* width="([\d.]+)"', svg).group(1))
    head = re.search(r'<text class="title" x="([\d.]+)"[^>]*font-size="([\d.]+)"[^>]*textLength="([\d.]+)"', svg)
    x, size, length = map(float, head.groups())
    assert size == 11.0 and x + length <= width - 14
    assert length == min(width - x - 14, round(text_width(title, size), 1))


def test_the_offers_slots_name_their_items_whole():
    g = nordlang.load("vikings", players=3, seed=3)
    svg = render_svg(g.rules, g.state)
    names = {t for t in texts(svg, "label") if t.isalpha()}
    assert {"left", "right", "longhouse", "yellow", "green", "red"} <= names
    assert not any("\u2026" in t for t in texts(svg, "label"))
    slots = re.findall(r'<rect class="slot" data-zone="wheel_tiles" data-slot="(\d+)"[^>]* x="([\d.]+)"[^>]*'
                       r' width="([\d.]+)"', svg)
    assert len(slots) == 12
    right = max(float(x) + float(w) for _i, x, w in slots)
    left = min(float(x) for _i, x, _w in slots)
    assert right - left <= PANEL_W


def test_a_players_sources_wrap_inside_his_box():
    g = nordlang.load("vikings", players=3, seed=3)
    svg = render_svg(g.rules, g.state)
    lines = re.findall(r'<text class="sources" x="([\d.]+)"[^>]*>([^<]*)</text>', svg)
    box = re.search(r'<rect class="player" data-player="orange" x="([\d.]+)"[^>]* width="([\d.]+)"', svg)
    right = float(box.group(1)) + float(box.group(2))
    assert len(lines) == 6 and all(float(x) + text_width(t, 10, bold=False) <= right for x, t in lines)
    assert [t for _x, t in lines[:2]] == ["start 10, exchange 0, nobles 0, scouts 0, ships 0,",
                                          "gold 0, boatsmen 0, islands 0, longest 0, supply 0"]


def test_every_cell_a_pending_decision_names_is_drawn():
    g = nordlang.load("vikings", players=2, seed=3)
    r = random.Random(1)
    checked = 0
    while not g.over and checked < 40:
        p = g.state.pending
        cells = [t for t in p.texts if "[" in t]
        if cells:
            svg = render_svg(g.rules, g.state)
            drawn = set(re.findall(r'<rect class="cell" data-at="([^"]+)"', svg))
            assert set(cells) <= drawn, set(cells) - drawn
            checked += 1
        g.play_index(r.randrange(len(g.legal_moves())))
    assert checked == 40


def test_hex_draws_each_players_sides_and_the_winning_chain():
    g = nordlang.load("hex", seed=1)
    svg = render_svg(g.rules, g.state)
    sides = re.findall(r'<line class="side" data-player="(\w+)" data-side="(\w+)"[^>]*stroke="(\w+)"', svg)
    assert sorted({(p, s, c) for p, s, c in sides}) == [("blue", "left", "blue"), ("blue", "right", "blue"),
                                                        ("red", "bottom", "red"), ("red", "top", "red")]
    assert len(sides) == 88
    assert texts(svg, "side-key") == ["red joins top and bottom", "blue joins left and right"]
    assert 'class="chain"' not in svg
    r = random.Random(2)
    while not g.over:
        g.play_index(r.randrange(len(g.legal_moves())))
    svg = render_svg(g.rules, g.state)
    assert re.findall(r'<g class="chain" data-player="(\w+)"', svg) == ["blue"] == [
        g.rules.color(w) for w in g.result.winners]
    chain = set(re.findall(r'class="chain-space" data-space="(\w+)"', svg))
    assert {s[0] for s in chain} >= {"a", "k"}          # from the left side to the right
    stones = {g.rules.grid.name(s) for s in g.rules.grid.spaces if g.state.pools.get(s, {}).get(("stone", 1))}
    assert chain <= stones
    g = nordlang.load("connect-four")           # (a board without sides draws none)
    svg = render_svg(g.rules, g.state)
    assert 'class="side"' not in svg and 'class="side-key"' not in svg



@pytest.mark.parametrize("sides, line, col, error", [
    ("{red: [top, bottom], green: [left]}", 5, 33, "boards.sides names 'green', which is no player's colour"),
    ("{red: [top, botom], blue: [left, right]}", 5, 24, "boards.sides.red: 'botom' is no definition without "
                                                        "parameters"),
    ("{red: [top, won], blue: [left, right]}", 5, 24, "boards.sides.red: 'won' is no definition without parameters"),
])
def test_a_side_that_names_no_colour_or_definition_is_an_error_at_its_place(tmp_path, sides, line, col, error):
    from nordlang.errors import NordError
    v = tmp_path / "v.yaml"
    v.write_text(f"description: x\nextends: hex\npatch:\n  boards:\n    sides: {sides}\n")
    with pytest.raises(NordError) as e:
        nordlang.load_rules("hex", 2, variants=[str(v)])
    assert error in str(e.value) and (e.value.pos.line, e.value.pos.col) == (line, col)


def test_a_side_whose_definition_gives_no_spaces_is_said_when_drawing(tmp_path):
    from nordlang.errors import NordError
    from nordlang.render.svg import render_svg
    v = tmp_path / "v.yaml"
    v.write_text("description: x\nextends: hex\npatch:\n  define:\n    top: '5'\n")
    g = nordlang.load("hex", variants=[str(v)])
    with pytest.raises(NordError, match="boards.sides.red: 'top' gives 5, not a list of spaces"):
        render_svg(g.rules, g.state)
