"""Boards of every geometry (square, square8, hex, graph) and connections
filtered by owner or by a set of spaces, checked against flood fills
written here."""

import random
import re
from pathlib import Path

import pytest
import yaml

import nordlang
from nordlang.board import geometry as G
from nordlang.engine.library import STD
from nordlang.errors import NordError
from nordlang.lang.compiler import Ctx
from nordlang.render.svg import render_svg

HEX = Path(__file__).resolve().parent / "games" / "hex-mini" / "hex.yaml"


def _rules(tmp_path, island, name="board.yaml", extra=None):
    """The hex-mini rulebook with its board replaced."""
    data = yaml.safe_load(HEX.read_text())
    data["boards"] = island
    data.update(extra or {})
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return nordlang.load_rules(str(path)), path


def _call(name, game, *args):
    return STD.get(name).fn(Ctx(game.state, game.rules), *args)


def _names(grid, spaces):
    return sorted(grid.name(s) for s in spaces)


def _flood(start, allowed, near):
    """Every space of `allowed` reachable from the spaces of `start` in it."""
    todo = [s for s in start if s in allowed]
    seen = set(todo)
    while todo:
        for n in near(todo.pop()):
            if n in allowed and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


# ---------------------------------------------------------------- adjacency

def test_hex_rhombus_11_neighbours(tmp_path):
    rules, _ = _rules(tmp_path, {"geometry": "hex", "size": [11, 11], "open": "cell", "structures": {}})
    g = rules.grid
    assert len(g.spaces) == 121 and g.geometry.kind == "hex"

    def near(name):
        return _names(g, g.orth[g.parse(name)])
    assert near("a1") == ["a2", "b1"]                        # the acute corners: 2
    assert near("k11") == ["j11", "k10"]
    assert near("k1") == ["j1", "j2", "k2"]                  # the obtuse corners: 3
    assert near("a11") == ["a10", "b10", "b11"]
    assert near("f1") == ["e1", "e2", "f2", "g1"]            # an edge: 4
    assert near("a6") == ["a5", "a7", "b5", "b6"]
    assert near("f6") == ["e6", "e7", "f5", "f7", "g5", "g6"]  # the centre: 6
    assert g.ring[g.parse("f6")] == g.orth[g.parse("f6")]
    assert sorted(len(ns) for ns in g.orth.values()).count(6) == 81


def test_hexagon_cells_names_and_neighbours(tmp_path):
    rules, _ = _rules(tmp_path, {"geometry": "hex", "shape": "hexagon", "size": 3, "open": "cell",
                                 "structures": {}})
    g = rules.grid
    assert len(g.spaces) == 19
    rows = {}
    for s in g.spaces:
        rows.setdefault(s[0], []).append(g.name(s))
    assert rows == {0: ["c1", "d1", "e1"], 1: ["b2", "c2", "d2", "e2"], 2: ["a3", "b3", "c3", "d3", "e3"],
                    3: ["a4", "b4", "c4", "d4"], 4: ["a5", "b5", "c5"]}
    assert _names(g, g.orth[g.parse("c1")]) == ["b2", "c2", "d1"]       # a corner: 3
    assert _names(g, g.orth[g.parse("d1")]) == ["c1", "c2", "d2", "e1"]                # an edge: 4
    assert _names(g, g.orth[g.parse("c3")]) == ["b3", "b4", "c2", "c4", "d2", "d3"]
    assert sorted(len(ns) for ns in g.orth.values()) == [3] * 6 + [4] * 6 + [6] * 7


def test_hexagon_map_reads_indented_rows(tmp_path):
    rules, _ = _rules(tmp_path, {"geometry": "hex", "shape": "hexagon",
                                 "map": ["  ...", " ....", ".....", " ....", "  ..."], "structures": {}})
    g = rules.grid
    assert _names(g, g.spaces)[:3] == ["a3", "a4", "a5"] and len(g.spaces) == 19
    assert g.parse("c1") in g.space_set and g.parse("a1") not in g.space_set


def test_square_and_square8(tmp_path):
    sq, _ = _rules(tmp_path, {"map": ["...", "...", "..."], "structures": {}}, "sq.yaml")
    k8, _ = _rules(tmp_path, {"geometry": "square8", "map": ["...", "...", "..."], "structures": {}}, "k8.yaml")
    for rules, corner, edge, centre in ((sq, ["a2", "b1"], ["a1", "a3", "b2"], ["a2", "b1", "b3", "c2"]),
                                        (k8, ["a2", "b1", "b2"], ["a1", "a3", "b1", "b2", "b3"],
                                         ["a1", "a2", "a3", "b1", "b3", "c1", "c2", "c3"])):
        g = rules.grid
        assert _names(g, g.orth[g.parse("a1")]) == corner
        assert _names(g, g.orth[g.parse("a2")]) == edge
        assert _names(g, g.orth[g.parse("b2")]) == centre
    assert sq.grid.orth[(1, 1)] == ((0, 1), (1, 2), (2, 1), (1, 0))     # Nord's order: N, E, S, W


def test_names_round_trip():
    for geo in (G.SQUARE, G.Square8(), G.Hex("rhombus"), G.Hex("hexagon")):
        for s in [(r, c) for r in range(30) for c in range(30)]:
            assert geo.parse(geo.name(s)) == s
    assert G.SQUARE.name((3, 27)) == "ab4" and G.SQUARE.parse("c4") == (3, 2)
    graph = G.Graph(["x", "y", "z"], [["x", "y"]])
    assert [graph.parse(graph.name(s)) for s in graph.index.values()] == [(0, 0), (0, 1), (0, 2)]
    assert graph.parse("w") is None


def test_distance_per_geometry():
    a, b = (0, 0), (3, 2)
    assert G.SQUARE.distance(a, b) == 5
    assert G.Square8().distance(a, b) == 3
    hx = G.Hex()
    assert hx.distance(a, b) == 5 and hx.distance((3, 0), (0, 3)) == 3 and hx.distance((2, 2), (2, 2)) == 0
    # hex distance is the fewest steps: checked by a breadth-first walk
    cells = set(hx.cells((7, 7)))
    far = {(3, 3): 0}
    todo = [(3, 3)]
    while todo:
        x = todo.pop(0)
        for n in hx.adjacent(x):
            if n in cells and n not in far:
                far[n] = far[x] + 1
                todo.append(n)
    assert all(hx.distance((3, 3), s) == d for s, d in far.items())
    graph = G.Graph(["p", "q", "r", "s"], [["p", "q"], ["q", "r"]])
    assert graph.distance((0, 0), (0, 2)) == 2 and graph.distance((0, 0), (0, 3)) is None


def test_distance_primitive_follows_the_board(tmp_path):
    rules, _ = _rules(tmp_path, {"geometry": "hex", "size": [5, 5], "open": "cell", "structures": {}})
    game = nordlang.Game(rules, 0)
    g = rules.grid
    assert _call("distance", game, g.parse("a5"), g.parse("e1")) == 4
    assert _call("distance", game, g.parse("a1"), g.parse("e5")) == 8
    assert (_call("row", game, g.parse("c4")), _call("column", game, g.parse("c4"))) == (4, 3)


# ---------------------------------------------------------------- regions and areas on hex

def test_regions_and_areas_on_hex(tmp_path):
    rules, _ = _rules(tmp_path, {"geometry": "hex", "map": ["~.~", "~.~", ".~~"], "structures": {}},
                      extra={"terrains": {"cell": {"char": ".", "land": True},
                                          "water": {"char": "~", "land": False}}})
    g = rules.grid
    regions = [_names(g, sp) for sp in g.region_spaces]
    # b1-b2 touch; a3 touches b2 (r+1, q-1): one land region; the water splits in two
    assert sorted(regions) == [["a1", "a2"], ["a3", "b1", "b2"], ["b3", "c1", "c2", "c3"]]
    game = nordlang.Game(rules, 0)
    land = [s for s in g.spaces if g.terrain[s] == "cell"]
    assert [_names(g, p) for p in _call("areas", game, land)] == [["a3", "b1", "b2"]]
    assert [_names(g, p) for p in _call("areas", game, [g.parse("a1"), g.parse("b2")])] == [["a1"], ["b2"]]
    assert [_names(g, p) for p in _call("areas", game, [g.parse("a1"), g.parse("b1")])] == [["a1", "b1"]]
    assert [_names(g, p) for p in _call("areas", game, [g.parse("b2"), g.parse("a3")])] == [["a3", "b2"]]


# ---------------------------------------------------------------- owner-filtered connectivity

def _random_position(rules, seed):
    game = nordlang.Game(rules, seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, 24)):
        if game.over:
            break
        game.play(rng.choice(game.legal_moves()))
    return game


@pytest.mark.parametrize("seed", range(12))
def test_connected_and_component_over_owner_match_a_flood_fill(seed):
    rules = nordlang.load_rules(str(HEX))
    game = _random_position(rules, seed)
    g = rules.grid
    rng = random.Random(seed)
    occ = game.state.occupied
    mine = {p: {s for s, it in occ.items() if it[1] == p} for p in (0, 1)}
    for p in (0, 1):
        assert list(_call("occupied_by", game, p)) == sorted(mine[p])
        areas = _call("areas", game, _call("occupied_by", game, p))
        flooded = {frozenset(_flood([s], mine[p], g.orth.get)) for s in mine[p]}
        assert len(areas) == len(flooded) and set(map(frozenset, areas)) == flooded
    for _ in range(40):
        a = rng.sample(g.spaces, rng.randrange(1, 4))
        b = rng.sample(g.spaces, rng.randrange(1, 4))
        over = rng.choice([0, 1, frozenset(rng.sample(g.spaces, 15))])
        allowed = mine[over] if isinstance(over, int) else set(over)
        reach = _flood(a, allowed, g.orth.get)
        assert _call("connected", game, tuple(a), frozenset(b), over) == bool(reach & set(b))
        assert _call("connected", game, a[0], b[0], over) == (b[0] in _flood([a[0]], allowed, g.orth.get))
        assert _call("component", game, tuple(a), over) == frozenset(reach)
    # without `over`, a red stone beside a blue one is connected; with it, not
    both = [(s, n) for s in mine[0] for n in g.orth[s] if n in mine[1]]
    for s, n in both[:3]:
        assert _call("connected", game, s, n) is True
        assert _call("connected", game, s, n, 0) is False


def test_owner_masks_follow_pieces_placed_and_lifted():
    rules = nordlang.load_rules(str(HEX))
    game = _random_position(rules, 5)
    st = game.state
    before = st.owner_mask(0)
    s = next(s for s in rules.grid.spaces if s not in st.occupied)
    copy = st.clone()
    copy.add(s, ("stone", 0))
    assert copy.owner_mask(0) != before and st.owner_mask(0) == before
    copy.remove(s, ("stone", 0))
    assert copy.owner_mask(0) == before


def test_connected_over_names_what_it_cannot_use():
    rules = nordlang.load_rules(str(HEX))
    game = nordlang.Game(rules, 0)
    with pytest.raises(NordError, match=r"take a player or a collection of spaces, not red"):
        _call("connected", game, (0, 0), (1, 1), "red")
    with pytest.raises(NordError, match="7 is not a player"):
        _call("occupied_by", game, 7)
    with pytest.raises(NordError, match="zz is not a structure of this board"):
        _call("connected", game, [(0, 0)], "zz", 0)


# ---------------------------------------------------------------- the hex game

def _winner_by_flood(game):
    g = game.rules.grid
    occ = game.state.occupied
    last = max(r for r, _ in g.spaces)
    for p, (side_a, side_b) in ((0, (lambda s: s[0] == 0, lambda s: s[0] == last)),
                                (1, (lambda s: s[1] == 0, lambda s: s[1] == last))):
        mine = {s for s, it in occ.items() if it[1] == p}
        if any(side_b(s) for s in _flood([s for s in mine if side_a(s)], mine, g.orth.get)):
            return p
    return None


@pytest.mark.parametrize("seed", range(10))
def test_hex_games_end_with_the_flood_fill_winner(seed):
    game = nordlang.load(rulebook=str(HEX), seed=seed)
    rng = random.Random(seed)
    while not game.over:
        assert _winner_by_flood(game) is None            # nobody had won before the game ended
        game.play(rng.choice(game.legal_moves()))
    winner = _winner_by_flood(game)
    assert winner is not None and game.result.winners == (winner,)


def test_the_hex_rulebook_writes_no_adjacency():
    text = HEX.read_text()
    assert "while" not in text and "[0]" not in text and "[1]" not in text and "neighbors" not in text


# ---------------------------------------------------------------- an explicit graph board

def test_graph_board(tmp_path):
    island = {"geometry": "graph", "open": "cell", "spaces": ["a", "b", "c", "d", "e"],
              "edges": [["a", "b"], ["b", "c"], ["c", "a"], ["d", "e"]], "structures": {}}
    rules, _ = _rules(tmp_path, island)
    g = rules.grid
    assert [g.name(s) for s in g.spaces] == ["a", "b", "c", "d", "e"]
    assert _names(g, g.orth[g.parse("a")]) == ["b", "c"] and _names(g, g.orth[g.parse("e")]) == ["d"]
    assert sorted(map(lambda r: _names(g, r), g.region_spaces)) == [["a", "b", "c"], ["d", "e"]]
    game = nordlang.load(rulebook=str(tmp_path / "board.yaml"), seed=1)
    game.state.add(g.parse("a"), ("stone", 0))
    game.state.add(g.parse("c"), ("stone", 0))
    game.state.add(g.parse("b"), ("stone", 1))
    assert _call("connected", game, g.parse("a"), g.parse("c"), 0) is True
    assert _call("connected", game, g.parse("a"), g.parse("b"), 0) is False
    assert _call("connected", game, g.parse("a"), g.parse("b")) is True
    assert _call("distance", game, g.parse("a"), g.parse("d")) is None
    assert rules.show(g.parse("d")) == "d"
    assert _call("space", game, "c") == g.parse("c")
    with pytest.raises(NordError, match="a graph board has no rows or columns"):
        _call("row", game, g.parse("a"))
    svg = render_svg(rules, game.state)
    assert svg.count('class="space"') == 5 and svg.count('class="edge"') == 4


def test_graph_structure_ports_face_its_neighbours(tmp_path):
    island = {"geometry": "graph", "open": "cell", "spaces": ["a", "b", "c"], "edges": [["a", "b"], ["b", "c"]],
              "structures": {"H": {"kind": "hall", "at": "b"}}}
    rules, _ = _rules(tmp_path, island, extra={"structures": {"hall": {"stands_on": "cell"}}})
    g = rules.grid
    assert [(p.side, g.name(f)) for p, f in g.port_faces.items()] == [("a", "a"), ("c", "c")]


# ---------------------------------------------------------------- bad boards

@pytest.mark.parametrize("island, message", [
    ({"geometry": "hexx", "size": [3, 3], "open": "cell", "structures": {}},
     r"did you mean 'hex'"),
    ({"geometry": "hex", "shape": "hexagonn", "size": 3, "open": "cell", "structures": {}},
     r"did you mean 'hexagon'"),
    ({"geometry": "hex", "size": [3, 4], "map": ["...", "...", "..."], "structures": {}},
     r"size \[3, 4\] contradicts the map: it has 3 rows of 3 cells"),
    ({"geometry": "hex", "shape": "hexagon", "size": 3, "map": ["..", "...", ".."], "structures": {}},
     r"size 3 contradicts the map: its 3 rows make a hexagon of side 2"),
    ({"geometry": "hex", "shape": "hexagon", "size": [3, 3], "open": "cell", "structures": {}},
     r"a hexagon's size is the length of its side \(one number\), not \[3, 3\]"),
    ({"geometry": "hex", "map": ["...", "..", "..."], "structures": {}},
     r"hex map row 2 has 2 cells; this rhombus needs 3 there"),
    ({"geometry": "square", "shape": "hexagon", "map": ["..."], "structures": {}},
     r"'shape' is for hex boards; this board's geometry is square"),
    ({"geometry": "graph", "open": "cell", "spaces": ["north", "south"], "edges": [["north", "soth"]],
      "structures": {}},
     r"edge 1 names 'soth', which is not a space of the board.*did you mean 'south'"),
])
def test_a_bad_geometry_is_a_clean_error(tmp_path, island, message):
    with pytest.raises(NordError) as e:
        _rules(tmp_path, island)
    text = str(e.value)
    assert re.search(message, text, re.S), text
    assert "board.yaml:" in text                     # with the file and line of the island


def test_error_points_at_the_line(tmp_path):
    island = {"geometry": "graph", "open": "cell", "spaces": ["north", "south"], "edges": [["north", "soth"]],
              "structures": {}}
    with pytest.raises(NordError) as e:
        _rules(tmp_path, island)
    path = tmp_path / "board.yaml"
    line = next(i for i, t in enumerate(path.read_text().splitlines(), 1) if "soth" in t)
    assert f"board.yaml:{line}:" in str(e.value)
