"""The rulebook format without Nord's vocabulary: `boards` (one board, or
boards by player count), optional terrains and structures, scenarios on the
rulebook's board, pieces that occupy or link, and contradictions as errors."""

import re

import pytest

import nordlang
from nordlang.cli import main
from nordlang.errors import NordError

# a Tic-tac-toe on a plain 3 x 3 grid: no terrains, no structures, one board
TTT = """\
game:
  name: Tic-tac-toe
players:
  min: 2
  max: 2
  colors: [x, o]
pieces:
  mark: {PIECE}
zones:
  supply: {type: pool, per_player: true}
BOARDS
define:
  rows: '[[s for s in spaces if row(s) == i] for i in [1, 2, 3]]'
  lines: 'rows + [[s for s in spaces if column(s) == i] for i in [1, 2, 3]]'
  line(p): 'any(all(piece_at(s) == mark(p) for s in l) for l in lines)'
setup:
  - do: 'for p in players { create(mark(p), supply(p), 5) }'
turn:
  - choose: cell
    from: 'open_spaces(spaces)'
  - do: |
      move(mark(player), supply(player), cell)
      if line(player) {
        award(player, 1, "win")
        end_game()
      }
      if len(open_spaces(spaces)) == 0 { end_game() }
result:
  rank: ['points(p)']
"""
ONE_BOARD = "boards:\n  size: [3, 3]\n"
OCCUPIES = "{occupies: true, owned: true, home: supply}"


def _write(tmp_path, boards=ONE_BOARD, piece=OCCUPIES, name="ttt.yaml", text=TTT):
    path = tmp_path / name
    path.write_text(text.replace("BOARDS\n", boards).replace("{PIECE}", piece))
    return path


def _validate(path, capsys, *extra):
    code = main(["validate", str(path), *extra])
    cap = capsys.readouterr()
    return code, cap.err, cap.out


def _play_out(game, limit=20):
    while not game.over and limit:
        game.play(game.legal_moves()[0])
        limit -= 1
    return game


# ---------------------------------------------------------------- boards

def test_a_plain_grid_without_terrains_plays_to_the_end(tmp_path, capsys):
    path = _write(tmp_path)
    assert _validate(path, capsys) == (0, "", "1 file(s) checked: 0 error(s), 0 warning(s)\n")
    game = nordlang.load(str(path), seed=1)
    grid = game.rules.grid
    assert len(grid.spaces) == 9 and set(grid.terrain.values()) == {None} and not grid.structures
    assert [str(m) for m in game.legal_moves()][:3] == ["cell a1", "cell b1", "cell c1"]
    _play_out(game)
    # each takes the first open cell (a1, b1, c1, a2, ...): rows x o x / o x o / x o x, a full board, no line
    assert game.over and len(game.state.occupied) == 9 and game.result.points == (0, 0)
    assert [game.rules.show(game.state.occupied[s]) for s in grid.spaces] == ["mark:x", "mark:o"] * 4 + ["mark:x"]


def test_a_plain_map_draws_spaces_with_dots_and_holes_with_blanks(tmp_path):
    path = _write(tmp_path, boards='boards:\n  map:\n    - "..."\n    - ". ."\n    - "..."\n')
    rules = nordlang.load_rules(str(path))
    assert len(rules.grid.spaces) == 8 and (1, 1) not in rules.grid.space_set


def test_boards_by_player_count_integer_or_quoted(tmp_path):
    text = TTT.replace("max: 2", "max: 3").replace("[x, o]", "[x, o, z]")
    boards = 'boards:\n  2: {size: [3, 3]}\n  "3": {size: [4, 4]}\n'
    path = _write(tmp_path, boards=boards, text=text)
    assert len(nordlang.load_rules(str(path), players=2).grid.spaces) == 9
    assert len(nordlang.load_rules(str(path), players=3).grid.spaces) == 16
    assert nordlang.load_rules(str(path), players=3).board_path == ("boards", "3")


def test_a_count_without_a_board_is_one_error_naming_the_counts(tmp_path, capsys):
    text = TTT.replace("max: 2", "max: 4").replace("[x, o]", "[x, o, y, z]")
    path = _write(tmp_path, boards="boards:\n  2: {size: [3, 3]}\n", text=text)
    code, err, out = _validate(path, capsys)
    assert code == 2
    message = "no board for 3 or 4 players: the boards are for 2 players"
    assert err.count(message) == 1                  # said once, not once per count
    assert f"ttt.yaml:11:1: error: {message}" in err
    assert "hint: add a board for each count the game allows" in err
    assert "legend" not in err and "map character" not in err      # (no stand-in board, no follow-on errors)
    assert out == "1 file(s) checked: 1 error(s), 0 warning(s)\n"
    with pytest.raises(NordError) as e:
        nordlang.load_rules(str(path), players=3)
    assert e.value.message == message and str(e.value.pos) == f"{path}:11:1"


def test_a_count_given_twice_is_an_error(tmp_path, capsys):
    path = _write(tmp_path, boards='boards:\n  2: {size: [3, 3]}\n  "2": {size: [4, 4]}\n')
    code, err, _ = _validate(path, capsys)
    assert code == 2 and "the board for 2 players is given twice (as 2 and '2')" in err


def test_islands_is_renamed_to_boards(tmp_path, capsys):
    path = _write(tmp_path, boards='islands:\n  "2": {size: [3, 3]}\n')
    code, err, _ = _validate(path, capsys)
    assert code == 2
    assert f"{path}:11:1: error: unknown key 'islands' in the top level" in err
    assert "hint: renamed to boards: write 'boards' (its content is unchanged)" in err
    with pytest.raises(NordError) as e:
        nordlang.load_rules(str(path))
    assert "renamed to boards" in str(e.value)


def test_a_variant_patching_islands_is_told_the_new_name(tmp_path, capsys):
    v = tmp_path / "old.yaml"
    v.write_text('description: an old variant\nextends: nord\npatch:\n  islands:\n    "2": {seats: [A, B]}\n')
    code, err, _ = _validate(v, capsys)
    assert code == 2
    assert f"{v}:4:3: error: unknown key 'islands' in the top level" in err and "renamed to boards" in err


def test_a_variant_patches_a_count_quoted_or_not(tmp_path):
    """The bundled rulebook writes 2:; a variant's "2": patches the same board."""
    v = tmp_path / "seats.yaml"
    v.write_text('description: other seats\nextends: nord\npatch:\n  boards:\n    "2": {seats: [E, C]}\n')
    rules = nordlang.load_rules(players=2, variants=[str(v)])
    assert rules.seats == ("E", "C") and rules.board_path == ("boards", 2)


def test_a_mapping_mixing_counts_and_board_keys_is_an_error(tmp_path, capsys):
    path = _write(tmp_path, boards="boards:\n  size: [3, 3]\n  2: {size: [3, 3]}\n")
    code, err, _ = _validate(path, capsys)
    assert code == 2
    assert f"{path}:13:3: error: unknown key 2 in boards" in err
    assert "a player count is a key of a mapping of boards by count" in err


def test_a_board_with_nothing_drawn_is_an_error(tmp_path, capsys):
    path = _write(tmp_path, boards="boards:\n  description: empty\n")
    code, err, _ = _validate(path, capsys)
    assert code == 2 and "a board needs a 'map', 'tiles', a 'size' or (a graph) 'spaces'" in err


# ---------------------------------------------------------------- contradictions

@pytest.mark.parametrize("board, message", [
    ('{size: [3, 4], map: ["...", "...", "..."]}', r"size \[3, 4\] contradicts the map: it has 3 rows of 3 characters"),
    ('{geometry: square8, size: [2, 3], map: ["...", "...", "..."]}',
     r"size \[2, 3\] contradicts the map: it has 3 rows of 3 characters"),
    ('{geometry: hex, size: [3, 4], map: ["...", " ...", "  ..."]}',
     r"size \[3, 4\] contradicts the map: it has 3 rows of 3 cells"),
    ('{geometry: hex, shape: hexagon, size: 3, map: ["..", "...", ".."]}',
     r"size 3 contradicts the map: its 3 rows make a hexagon of side 2"),
    ('{geometry: graph, size: [2, 2], spaces: [a, b], edges: [[a, b]]}',
     r"a graph board has no 'size': it is made of 'spaces' and 'edges'"),
    ('{size: 3}', r"a square board's size is \[rows, columns\], not 3"),
    ('{map: ["...", "..."], tile_map: ["11"]}',
     r"the tile_map has 1 rows of 2 characters; the map 2 rows of 3"),
    ('{map: ["..."], seats: [Q]}', r"seat 'Q' is not a structure of this board"),
    ('{map: ["A..", "..."], structures: {A: {kind: hall, at: c2}}}',
     r"structure A is at c2, but the map draws it at a1"),
])
def test_a_contradiction_in_a_board_is_an_error(tmp_path, capsys, board, message):
    path = _write(tmp_path, boards=f"boards: {board}\n")
    code, err, _ = _validate(path, capsys)
    assert code == 2, err
    assert re.search(message, err), err
    assert re.search(rf"{re.escape(str(path))}:11:\d+: error:", err), err


def test_tiles_outside_the_size_are_an_error(tmp_path, capsys):
    text = TTT.replace("zones:", "terrains:\n  cell: {char: c}\n  void: {char: v}\ntiles:\n"
                                 "  \"1\": {rows: [cc, cc]}\nzones:")
    path = _write(tmp_path, boards="boards:\n  open: void\n  size: [3, 3]\n  tiles:\n    - {tile: 1, at: b2}\n"
                                   "    - {tile: 1, at: c3}\n", text=text)
    code, err, _ = _validate(path, capsys)
    assert code == 2
    assert f"{path}:20:7: error: tile 1 covers" in err and "outside the board's size [3, 3]" in err


# ---------------------------------------------------------------- pieces that occupy

def test_a_piece_that_does_not_occupy_is_a_warning_naming_the_rule_and_the_piece(tmp_path, capsys):
    """The Tic-tac-toe defect: marks without `occupies` leave taken cells open."""
    path = _write(tmp_path, piece="{owned: true, home: supply}")
    code, err, out = _validate(path, capsys)
    assert code == 0 and out == "1 file(s) checked: 0 error(s), 1 warning(s)\n"
    assert err.startswith(f"{path}:23:12: warning: the turn reads which spaces are occupied (open_spaces, piece_at) "
                          "and places 'mark' pieces, which do not occupy a space: open_spaces, piece_at never see "
                          "them\n")
    assert "hint: declare `occupies: true` on piece 'mark'" in err
    assert _validate(path, capsys, "--strict")[0] == 2
    # what the warning prevents: a taken cell is offered again, and the supply runs dry much later
    game = nordlang.load(str(path), seed=1)
    with pytest.raises(NordError) as e:
        _play_out(game)
    assert "cannot take 1 mark:x from supply(x): it holds 0" in str(e.value)


def test_comparing_a_piece_that_never_occupies_with_piece_at_is_a_warning(tmp_path, capsys):
    text = TTT.replace("  line(p): 'any(all(piece_at(s) == mark(p) for s in l) for l in lines)'",
                       "  line(p): 'any(all(kind(piece_at(s)) == \"mark\" and owner(piece_at(s)) == p for s in l) "
                       "for l in lines)'")
    path = _write(tmp_path, piece="{owned: true, home: supply}", text=text)
    code, err, _ = _validate(path, capsys)
    assert code == 0
    assert "warning: definition 'line(p)' compares the kind of piece_at(...) with 'mark', but 'mark' pieces do " \
           "not occupy a space: piece_at never gives one, so this is never true" in err
    assert re.search(rf"{re.escape(str(path))}:16:42: warning: definition 'line\(p\)' compares", err), err


def test_a_piece_that_links_occupies_and_joins_the_connection_graph(tmp_path):
    links = _write(tmp_path, piece="{links: true, owned: true, home: supply}", name="links.yaml")
    occupies = _write(tmp_path, name="occupies.yaml")
    for path, graph in ((links, 2), (occupies, 0)):
        game = nordlang.load(str(path), seed=1)
        game.play(game.legal_moves()[0])        # x on a1
        game.play(game.legal_moves()[0])        # o on b1
        state = game.state
        assert sorted(game.rules.show(s) for s in state.occupied) == ["a1", "b1"]
        assert [str(m) for m in game.legal_moves()][:1] == ["cell c1"]
        assert len(state.links.nodes) == graph


def test_nords_pieces_keep_their_behaviour():
    rules = nordlang.load_rules(players=2)
    assert rules.linking == rules.occupying == {"man"}


# ---------------------------------------------------------------- scenarios

SCENARIO = """\
description: the centre is taken, the corners are open
rulebook: ttt.yaml
players: 2
position:
  at:
    b2: mark:x
  player: o
moves:
  - expect:
      illegal: [cell b2]
      legal: [cell a1]
"""


def test_a_scenario_plays_on_the_rulebooks_board(tmp_path, capsys):
    _write(tmp_path)
    sc = tmp_path / "centre.yaml"
    sc.write_text(SCENARIO)
    assert main(["test", str(sc)]) == 0
    assert "PASS" in capsys.readouterr().out
    assert main(["validate", str(sc)]) == 0


def test_a_scenario_without_a_map_cannot_draw_structures(tmp_path, capsys):
    _write(tmp_path)
    sc = tmp_path / "bad.yaml"
    sc.write_text(SCENARIO + "structures: {A: hall}\n")
    assert main(["test", str(sc)]) == 2
    err = capsys.readouterr().out
    assert f"{sc}:12:1: error: 'structures' draws a board, and this scenario draws none (it has no 'map')" in err


def test_a_scenario_may_draw_its_own_board_without_structures(tmp_path, capsys):
    _write(tmp_path)
    sc = tmp_path / "small.yaml"
    sc.write_text(SCENARIO.replace("players: 2\n", 'players: 2\nmap: ["...", "...", "..."]\n'))
    assert main(["test", str(sc)]) == 0


def test_a_scenario_on_the_rulebooks_board_renders(tmp_path, capsys):
    _write(tmp_path)
    sc = tmp_path / "centre.yaml"
    sc.write_text(SCENARIO)
    out = tmp_path / "centre.svg"
    assert main(["render", str(sc), "-o", str(out)]) == 0
    svg = out.read_text()
    assert svg.count('class="space"') == 9
    assert "mark:x" in svg


def test_a_rulebook_without_boards_has_no_spaces(tmp_path, capsys):
    """'boards' may be left out (a game played in zones, such as per-player
    grids): the board then has no spaces, and a space named is one error
    that says why."""
    text = TTT.replace("from: 'open_spaces(spaces)'", "from: 'open_spaces(spaces) + [space(\"b2\")]'")
    path = _write(tmp_path, boards="", text=text)
    code, err, out = _validate(path, capsys)
    assert code == 2 and out == "1 file(s) checked: 1 error(s), 0 warning(s)\n"
    assert err.startswith(f"{path}:19:41: error: 'b2' is not a space of this board (argument 1 of space())\n")
    assert "hint: this rulebook declares no 'boards', so it has no spaces: its places are its zones" in err
