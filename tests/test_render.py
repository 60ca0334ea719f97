"""Pictures of positions: the SVG holds every piece, structure, port and
track slot of a real position; `nord render` draws replays and scenarios
and rejects bad input with one line and exit status 2."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
import yaml

import nordlang
from nordlang.board.grid import parse_space, space_name
from nordlang.cli import main
from nordlang.errors import UsageError
from nordlang.render.svg import render_svg

SVG = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parent.parent


def _has_cairo() -> bool:
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError):
        return False
    return True


needs_png = pytest.mark.skipif(not _has_cairo(), reason="cairosvg (nordlang[png]) is not installed")


@pytest.fixture(scope="module")
def game():
    """A 3-player game some way in: pieces on spaces, in structures and on the track."""
    g = nordlang.load(players=3, seed=5)
    rng = random.Random(5)
    for _ in range(70):
        if g.over:
            break
        g.play(rng.choice(g.legal_moves()))
    return g


@pytest.fixture(scope="module")
def tree(game):
    return ET.fromstring(render_svg(game.rules, game.state))


def _all(tree, cls):
    return [e for e in tree.iter() if cls in (e.get("class") or "").split()]


def _who(rules, item):
    kind, tag = item
    if (rules.pieces.get(kind) or {}).get("owned") and isinstance(tag, int):
        return rules.color(tag)
    return None if tag is None else str(tag)


def _el_who(e):
    return e.get("data-owner") or e.get("data-tag")


def test_the_position_is_rich_enough(game):
    st = game.state
    on_spaces = sum(sum(st.pools[s].values()) for s in game.rules.grid.spaces)
    in_structures = sum(sum(st.pools[sid].values()) for sid in game.rules.grid.structures)
    assert on_spaces > 10 and in_structures > 5
    assert any(x is not None for t in st.tracks.values() for x in t)


def test_one_piece_element_for_every_piece_on_every_space(game, tree):
    rules, st = game.rules, game.state
    want = Counter()
    for s in rules.grid.spaces:
        for item, n in st.pools[s].items():
            want[(space_name(s), item[0], _who(rules, item))] += n
    spaces = {space_name(s) for s in rules.grid.spaces}
    got = Counter((e.get("data-at"), e.get("data-kind"), _el_who(e)) for e in _all(tree, "piece")
                  if e.get("data-at") in spaces)
    assert got == want
    assert all(e.get("data-count") is None for e in _all(tree, "piece") if e.get("data-at") in spaces)


def test_structures_ports_and_what_they_hold(game, tree):
    rules, st = game.rules, game.state
    drawn = {e.get("data-id"): e for e in _all(tree, "structure")}
    assert set(drawn) == set(rules.grid.structures)
    for sid, s in rules.grid.structures.items():
        assert drawn[sid].get("data-kind") == s.kind
        assert drawn[sid].get("data-at") == space_name(s.space)
        want = {(item[0], _who(rules, item)): n for item, n in st.pools[sid].items() if n}
        got = {(e.get("data-kind"), _el_who(e)): int(e.get("data-count")) for e in _all(tree, "piece")
               if e.get("data-at") == sid}
        assert got == want, sid
    ports = Counter(e.get("data-port").split(".")[0] for e in _all(tree, "port"))
    assert ports == {sid: 4 for sid in rules.grid.structures}
    labels = {e.text for e in _all(tree, "structure-id")}
    assert labels == set(rules.grid.structures)


def test_every_track_slot_with_its_value_and_occupant(game, tree):
    rules, st = game.rules, game.state
    slots = _all(tree, "slot")
    for key, track in st.tracks.items():
        at = rules.show(key)
        mine = sorted((e for e in slots if e.get("data-zone") == at), key=lambda e: int(e.get("data-slot")))
        assert [int(e.get("data-slot")) for e in mine] == list(range(len(track)))
        assert [int(e.get("data-value")) for e in mine] == list(rules.track_values[key[0]])
        occupants = {int(e.get("data-slot")): (e.get("data-kind"), _el_who(e)) for e in _all(tree, "piece")
                     if e.get("data-at") == at}
        assert occupants == {i: (x[0], _who(rules, x)) for i, x in enumerate(track) if x is not None}


def test_zones_of_players_and_shared_zones_show_their_counts(game, tree):
    rules, st = game.rules, game.state
    for key, pool in st.pools.items():
        if not (isinstance(key, tuple) and isinstance(key[0], str)):
            continue            # spaces and structures are checked above
        at = rules.show(key)
        got = {(e.get("data-kind"), _el_who(e)): int(e.get("data-count")) for e in _all(tree, "piece")
               if e.get("data-at") == at}
        assert got == {(item[0], _who(rules, item)): n for item, n in pool.items() if n}, at
    decks = {e.get("data-zone"): int(e.get("data-count")) for e in _all(tree, "deck")}
    assert decks == {rules.show(k): len(v) for k, v in st.decks.items()}


def test_scores_turn_and_coordinates(game, tree):
    rules, st = game.rules, game.state
    scores = {e.get("data-player"): int(e.get("data-points")) for e in _all(tree, "score")}
    assert scores == {rules.color(p): st.counters.get(("points", p), 0) for p in rules.player_range}
    (turn,) = _all(tree, "turn")
    assert turn.get("data-player") == rules.color(st.player) and int(turn.get("data-turn")) == st.turn
    texts = {e.text for e in tree.iter(f"{SVG}text")}
    g = rules.grid
    assert {"a", "k", "1", str(g.height)} <= texts
    assert {e.get("data-at") for e in _all(tree, "space")} == {space_name(s) for s in g.spaces}


def test_components_with_a_piece_and_a_port_are_tinted(game, tree):
    st = game.state
    want = []
    for comp in {id(c): c for c in st.links.comp.values()}.values():
        spaces = {n for n in comp if isinstance(n[0], int)}
        ports = {f"{n.structure}.{n.side}" for n in comp if isinstance(n[0], str)}
        if spaces & set(st.occupied) and ports:
            want.append((frozenset(space_name(s) for s in spaces), frozenset(ports)))
    assert want, "the position should have at least one tinted component"
    tints = {}
    for e in _all(tree, "tint"):
        tints.setdefault(e.get("data-component"), set()).add(e.get("data-at"))
    gates = {}
    for e in _all(tree, "port"):
        if e.get("data-component") is not None:
            gates.setdefault(e.get("data-component"), set()).add(e.get("data-port"))
    got = {(frozenset(tints[k]), frozenset(gates.get(k, ()))) for k in tints}
    assert len(got) == len(want) and got == set(want)
    fills = {e.get("data-component"): e.get("fill") for e in _all(tree, "tint")}
    assert len(set(fills.values())) == len(fills)      # each its own tint


def _tinted_occupied(game, tree):
    """(space name, its terrain colour, x, y) of each occupied space in a tinted component."""
    rules = game.rules
    tinted = {e.get("data-at") for e in _all(tree, "tint")}
    out = []
    for e in _all(tree, "space"):
        at = e.get("data-at")
        if at in tinted and parse_space(at) in game.state.occupied:
            out.append((at, rules.terrains[e.get("data-terrain")]["color"], float(e.get("x")), float(e.get("y"))))
    assert len(out) >= 5, "the position should have occupied spaces in tinted components"
    return out


def test_the_terrain_under_a_tinted_worker_stays_plain(game, tree):
    """A component's tint leaves the middle of its spaces alone: each occupied
    space keeps its terrain fill, and nothing but its pieces is painted over
    its middle (a shade over the whole space hid forest from mountain)."""
    elements = list(tree.iter())
    for at, color, x, y in _tinted_occupied(game, tree):
        (space,) = [e for e in _all(tree, "space") if e.get("data-at") == at]
        assert space.get("fill") == color
        cx, cy = x + 32, y + 32
        for e in elements[elements.index(space) + 1:]:
            if e.tag != f"{SVG}rect" or "piece" in (e.get("class") or "") or e.get("fill") in (None, "none"):
                continue
            ex, ey, w, h = (float(e.get(k, 0)) for k in ("x", "y", "width", "height"))
            assert not (ex <= cx <= ex + w and ey <= cy <= ey + h), f"{at} is painted over: {e.attrib}"


@needs_png
def test_the_terrain_colour_shows_beside_a_tinted_worker(game):
    """In the picture itself, the pixel between a tinted space's band and its
    only piece has the terrain's colour."""
    import io

    import cairosvg
    Image = pytest.importorskip("PIL.Image")          # (cairosvg's own dependency)
    svg = render_svg(game.rules, game.state)
    tree = ET.fromstring(svg)
    img = Image.open(io.BytesIO(cairosvg.svg2png(bytestring=svg.encode()))).convert("RGB")
    checked = 0
    for at, color, x, y in _tinted_occupied(game, tree):
        if sum(game.state.pools[parse_space(at)].values()) != 1:
            continue
        want = tuple(int(color[i:i + 2], 16) for i in (1, 3, 5))
        got = img.getpixel((int(x + 32), int(y + 12)))
        assert max(abs(a - b) for a, b in zip(got, want)) <= 8, (at, got, want)
        checked += 1
    assert checked >= 5


def test_title_is_escaped(game):
    text = render_svg(game.rules, game.state, title='a <b> & "c"')
    root = ET.fromstring(text)
    assert root.find(f"{SVG}title").text == 'a <b> & "c"'


def test_no_game_words_in_the_renderer():
    words = ("jarl", "warrior", "settlement", "treasure", "dragon", "karst", "forest", "mountain", "fishing",
             "negotiator", "attack", "alliance")
    files = sorted((ROOT / "nordlang" / "render").glob("*.py")) + [ROOT / "nordlang" / "cli" / "render.py"]
    assert len(files) >= 6
    for path in files:
        rel = path.relative_to(ROOT)
        text = path.read_text(encoding="utf-8").lower()
        found = [w for w in words if w in text]
        assert not found, f"{rel} names {found}"


def test_png_without_cairosvg_says_how_to_get_it(monkeypatch):
    from nordlang.render.png import render_png
    monkeypatch.setitem(sys.modules, "cairosvg", None)
    with pytest.raises(UsageError) as e:
        render_png("<svg xmlns='http://www.w3.org/2000/svg'/>")
    assert "pip install 'nordlang[png]'" in e.value.format()


# ---------------------------------------------------------------- the CLI

@pytest.fixture(scope="module")
def log(tmp_path_factory):
    path = tmp_path_factory.mktemp("render") / "game.log"
    assert main(["play", "--players", "3", "--seed", "5", "--quiet", "--log", str(path)]) == 0
    return path


def _one_line_error(capsys):
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    return err


def test_render_a_replay_at_a_turn(log, tmp_path, capsys):
    out = tmp_path / "t10.svg"
    assert main(["render", str(log), "--turn", "10", "-o", str(out)]) == 0
    root = ET.parse(out).getroot()
    assert root.get("data-turn") == "10"
    assert "turn 10" in root.find(f"{SVG}title").text
    assert _all(root, "piece")
    assert not list(tmp_path.glob(".t10.svg.*"))        # no temp file left behind


def test_render_a_replay_to_its_end(log, tmp_path):
    out = tmp_path / "end.svg"
    assert main(["render", str(log), "-o", str(out)]) == 0
    root = ET.parse(out).getroot()
    footer = log.read_text().strip().splitlines()[-1]
    assert root.get("data-turn") == re.search(r'"turns": (\d+)', footer).group(1)
    assert "game over" in "".join(e.text or "" for e in _all(root, "turn"))


def test_a_turn_the_log_does_not_have(log, tmp_path, capsys):
    out = tmp_path / "x.svg"
    assert main(["render", str(log), "--turn", "9999", "-o", str(out)]) == 2
    err = _one_line_error(capsys)
    assert "no turn 9999" in err and "it has turns 1-" in err
    assert not out.exists()


def test_a_bad_suffix(log, tmp_path, capsys):
    assert main(["render", str(log), "-o", str(tmp_path / "x.jpg")]) == 2
    err = _one_line_error(capsys)
    assert ".svg or .png" in err


def test_other_bad_input(log, tmp_path, capsys):
    assert main(["render", str(tmp_path / "missing.log"), "-o", str(tmp_path / "x.svg")]) == 2
    assert "no such file" in _one_line_error(capsys)
    assert main(["render", str(log), "-o", str(tmp_path / "no" / "x.svg")]) == 2
    assert "does not exist" in _one_line_error(capsys)
    other = tmp_path / "notes.yaml"
    other.write_text("hello: world\n")
    assert main(["render", str(other), "-o", str(tmp_path / "x.svg")]) == 2
    assert "neither a replay" in _one_line_error(capsys)
    broken = tmp_path / "broken.log"
    broken.write_text(log.read_text().replace('"move": "', '"move": "zz', 3))
    assert main(["render", str(broken), "--turn", "5", "-o", str(tmp_path / "x.svg")]) == 2
    assert "no longer fits the rules" in capsys.readouterr().err


def test_render_a_scenario(tmp_path, capsys):
    pytest.importorskip("nordlang.scenario")
    path = nordlang.bundled("variants") / "nord" / "scenarios" / "simple-attack.yaml"
    if not path.exists():
        pytest.skip("no bundled scenario")
    out = tmp_path / "scenario.svg"
    assert main(["render", str(path), "-o", str(out)]) == 0
    root = ET.parse(out).getroot()
    assert {e.get("data-id") for e in _all(root, "structure")} >= {"A", "B"}
    assert main(["render", str(path), "--turn", "3", "-o", str(out)]) == 2
    assert "--turn applies to replay logs only" in _one_line_error(capsys)


def _pieces_at(svg_path):
    """(data-at, data-kind, owner or tag) of every piece drawn on a space."""
    root = ET.parse(svg_path).getroot()
    spaces = {e.get("data-at") for e in _all(root, "space")}
    return sorted((e.get("data-at"), e.get("data-kind"), _el_who(e)) for e in _all(root, "piece")
                  if e.get("data-at") in spaces)


def test_render_a_scenario_after_its_moves(tmp_path, capsys):
    """--moves all draws the position the scenario's script leads to, --moves N
    the one after its first N entries (an 'expect' entry plays nothing)."""
    path = nordlang.bundled("variants") / "nord" / "scenarios" / "placement-2.yaml"
    out = tmp_path / "p.svg"
    placed = [("d3", "man", "blue"), ("e3", "man", "blue")]
    assert main(["render", str(path), "-o", str(out)]) == 0
    set_up = _pieces_at(out)
    assert not set(placed) & set(set_up)
    assert main(["render", str(path), "--moves", "all", "-o", str(out)]) == 0
    assert "after move 3: turn 2 drawn" in capsys.readouterr().out
    after = _pieces_at(out)
    assert sorted(set(after) - set(set_up)) == placed
    assert ", after move 3" in ET.parse(out).getroot().find(f"{SVG}title").text
    for n in ("1", "2"):            # 'play none' places nothing; the second entry is an 'expect'
        assert main(["render", str(path), "--moves", n, "-o", str(out)]) == 0
        assert _pieces_at(out) == set_up
    assert main(["render", str(path), "--moves", "3", "-o", str(out)]) == 0
    assert _pieces_at(out) == after


def test_render_after_moves_bad_input(tmp_path, log, capsys):
    path = nordlang.bundled("variants") / "nord" / "scenarios" / "placement-2.yaml"
    out = str(tmp_path / "p.svg")
    capsys.readouterr()
    assert main(["render", str(path), "--moves", "4", "-o", out]) == 2
    assert "--moves 4, but the scenario's 'moves:' has only 3 entries (give 0 to 3, or all)" in _one_line_error(capsys)
    for bad in ("x", "-1", "2.5"):
        assert main(["render", str(path), "--moves", bad, "-o", out]) == 2
        assert f"--moves takes a number of entries of the scenario's 'moves:' or 'all', not '{bad}'" in \
            _one_line_error(capsys)
    assert main(["render", str(log), "--moves", "all", "-o", out]) == 2
    assert "--moves applies to scenarios; a replay takes --turn N" in _one_line_error(capsys)
    data = yaml.safe_load(path.read_text())
    data["moves"] = ["play none", {"expect": {"player": "blue"}}, "place g3", "place d3"]
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(data, sort_keys=False))
    assert main(["render", str(bad), "--moves", "all", "-o", out]) == 2
    err = _one_line_error(capsys)
    assert f"{bad}:" in err and "move 3 'place g3' cannot be played: " in err and "'g3' is not one of" in err
    assert not (tmp_path / "p.svg").exists()
    assert main(["render", str(bad), "--moves", "2", "-o", out]) == 0     # the moves before it are fine


def test_scenario_without_the_scenario_loader(tmp_path, monkeypatch, capsys):
    path = tmp_path / "s.yaml"
    path.write_text("description: x\ngame: nord\nplayers: 2\nmap: ['~A~']\nstructures: {A: settlement}\n")
    monkeypatch.setitem(sys.modules, "nordlang.scenario", None)
    assert main(["render", str(path), "-o", str(tmp_path / "s.svg")]) == 2
    assert "cannot load scenarios" in _one_line_error(capsys)


@needs_png
def test_render_png(log, tmp_path):
    out = tmp_path / "mid.png"
    assert main(["render", str(log), "--turn", "20", "-o", str(out)]) == 0
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000


def test_python_dash_m(log, tmp_path):
    out = tmp_path / "sub.svg"
    env_path = str(ROOT)
    r = subprocess.run([sys.executable, "-m", "nordlang", "render", str(log), "--turn", "3", "-o", str(out)],
                       capture_output=True, text=True, cwd=tmp_path,
                       env={**os.environ, "PYTHONPATH": env_path})
    assert r.returncode == 0, r.stderr
    assert "turn 3" in r.stdout
    ET.parse(out)
    r = subprocess.run([sys.executable, "-m", "nordlang", "render", str(log), "--turn", "9999", "-o", str(out)],
                       capture_output=True, text=True, cwd=tmp_path,
                       env={**os.environ, "PYTHONPATH": env_path})
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_during_the_setup_the_picture_names_who_chooses():
    """In the setup the choosing player is not the player whose turn it is
    (there is no turn yet): the panel names the one who decides."""
    g = nordlang.load(players=3, seed=5, variants=["chosen-starts"])
    g.play("start A")
    root = ET.fromstring(render_svg(g.rules, g.state))
    head = _all(root, "turn")[0]
    assert head.text == "setup: blue to move" and head.get("data-player") == "blue"
    assert "setup, blue to move" in (root.find("{http://www.w3.org/2000/svg}title").text or "")
    boxes = {e.get("data-player"): e.get("fill") for e in _all(root, "player")}
    assert boxes == {"red": "#ebe4d3", "blue": "#ffffff", "yellow": "#ebe4d3"}      # blue's box is lit


def test_a_turn_without_a_decision_is_said_to_be_one(tmp_path, capsys):
    """Turn 39 of this 2-player game has only forced choices: there is no position at its start to stop at."""
    log = tmp_path / "game.jsonl"
    assert main(["play", "--players", "2", "--seed", "3", "--quiet", "--log", str(log)]) == 0
    turns = {json.loads(x).get("turn") for x in log.read_text().splitlines()}
    assert 38 in turns and 39 not in turns and 40 in turns
    capsys.readouterr()
    assert main(["render", str(log), "--turn", "39", "-o", str(tmp_path / "x.svg")]) == 2
    err = _one_line_error(capsys)
    assert "turn 39 of this replay asks no decision" in err and "turns with a decision: 1-38, 40-48, 50" in err


def test_a_folder_is_named_a_folder(tmp_path, capsys):
    assert main(["render", str(tmp_path), "-o", str(tmp_path / "x.svg")]) == 2
    assert _one_line_error(capsys) == (f"error: {tmp_path} is a folder: render draws one file, a replay log "
                                       "(written by `nord play --log`) or a scenario (.yaml)")


def _wide_scenario(path, columns):
    """A 3-row island `columns` spaces wide, two settlements on it."""
    sea = "~" * columns
    path.write_text(yaml.safe_dump({
        "description": f"an island {columns} spaces wide", "game": "nord", "players": 2,
        "map": [sea, "~kAkkBkX" + "~" * (columns - 8), sea],
        "structures": {"A": "settlement", "B": "settlement", "X": "dragon"}, "seats": ["A", "B"]}, width=10 ** 6))
    return path


@needs_png
def test_a_png_too_big_to_draw_is_refused_and_an_svg_of_it_is_drawn(tmp_path, capsys):
    wide = _wide_scenario(tmp_path / "wide.yaml", 5000)
    out = tmp_path / "wide.png"
    assert main(["render", str(wide), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: the picture is 320462 x 606 pixels, too big for a PNG: PNG output draws at most "
                          "8192 pixels on a side and 32 million in all, and scaled down to 2.6% its spaces would be "
                          "too small to read\n    hint: write an .svg file instead")
    assert "Traceback" not in err and not out.exists()
    assert main(["render", str(wide), "-o", str(tmp_path / "wide.svg")]) == 0
    assert 'width="320462"' in (tmp_path / "wide.svg").read_text()[:300]


@needs_png
def test_a_png_somewhat_too_big_is_scaled_down_to_fit(tmp_path, capsys):
    from PIL import Image
    wide = _wide_scenario(tmp_path / "wide.yaml", 160)
    out = tmp_path / "wide.png"
    assert main(["render", str(wide), "-o", str(out)]) == 0
    assert capsys.readouterr().out.strip().endswith(f"drawn to {out} (scaled to 77% to fit a PNG's 8192 pixels on "
                                                    "a side)")
    assert Image.open(out).size[0] == 8192


def test_a_scenario_takes_no_variant_option(tmp_path, capsys):
    scenario = ROOT / "variants" / "nord" / "scenarios" / "connections.yaml"
    assert main(["render", str(scenario), "--variant", "no-storm", "-o", str(tmp_path / "x.svg")]) == 2
    assert _one_line_error(capsys) == (f"error: {scenario} is a scenario: --variant applies to replay logs; a "
                                       "scenario names its own variants")
