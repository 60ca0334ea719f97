"""The bundled classics (Tic-tac-toe, Connect Four, Hex): random games end
with the winner an independent check written here finds (lines of marks;
a flood fill over hex cells), their scenarios pass, validate is clean, a
refused move names its rule, and the rulebooks stay short and free of
hand-written adjacency."""

import random
import re
from pathlib import Path

import pytest

import nordlang
from nordlang.cli import main
from nordlang.errors import IllegalMove

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("tictactoe", "connect-four", "hex")
COLS = "abcdefghijklmnopqrstuvwxyz"


def rulebook(game):
    return str(ROOT / "rulebook" / game / f"{game}.yaml")


def cell(name):
    """(row, column) from a space's name, both from 1: 'c4' -> (4, 3)."""
    m = re.fullmatch(r"([a-z]+)(\d+)", name)
    return int(m.group(2)), COLS.index(m.group(1)) + 1


def play_random(game, seed, check):
    """Play a random game, calling check(stones, over) after each move with
    the stones so far ({(row, column): player}); the players alternate. A
    choice with one option is taken at once by the engine: the last empty
    space (or column), which is then found here and checked to be the only one."""
    rng = random.Random(seed)
    board = {cell(game.rules.show(s)) for s in game.rules.grid.spaces}
    stones: dict = {}
    assert game.to_move == 0
    while not game.over:
        move = rng.choice(game.legal_moves())
        player = game.to_move
        assert player == len(stones) % 2               # red first, then turn about
        game.play(move)
        stones[landing(move.choice, move.option, stones, board)] = player
        if len(game.state.occupied) > len(stones):      # the last space, taken at once
            left = {c for r, c in board - set(stones)} if move.choice == "drop" else board - set(stones)
            assert len(left) == 1 and len(game.state.occupied) == len(stones) + 1
            stones[landing(move.choice, next(iter(left)), stones, board)] = 1 - player
        check(stones, game.over)
    return stones


def landing(choice, option, stones, board):
    """Where a move puts its piece: the named space, or (Connect Four) the
    lowest empty space of the column, found here from the stones so far."""
    if choice == "drop":
        col = int(option)
        return max(r for r, c in board if c == col and (r, c) not in stones), col
    return cell(option) if isinstance(option, str) else option


# ---------------------------------------------------------------- lines of marks

def line_winner(stones, n):
    """The player with n in a row (across, down or either diagonal), or None."""
    for (r, c), p in stones.items():
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            if all(stones.get((r + k * dr, c + k * dc)) == p for k in range(n)):
                return p
    return None


@pytest.mark.parametrize("game_name, n, size", [("tictactoe", 3, 9), ("connect-four", 4, 42)])
def test_line_games_end_with_the_independent_lines_winner(game_name, n, size):
    ends = {"win": 0, "draw": 0}
    for seed in range(60):
        game = nordlang.load(rulebook=rulebook(game_name), seed=seed)

        def check(stones, over):
            won = line_winner(stones, n)
            assert over == (won is not None or len(stones) == size), stones
        stones = play_random(game, seed, check)
        assert sorted(game.rules.show(s) for s in game.state.occupied) == \
            sorted(f"{COLS[c - 1]}{r}" for r, c in stones)            # the engine's board is ours
        won = line_winner(stones, n)
        if won is None:
            assert len(stones) == size
            assert game.result.draw and game.result.winners == () and game.result.points == (0, 0)
            ends["draw"] += 1
        else:
            assert not game.result.draw and game.result.winners == (won,) and game.result.points[won] == 1
            ends["win"] += 1
    assert ends["win"] > 0 and (ends["draw"] > 0 or game_name == "connect-four")


# ---------------------------------------------------------------- Hex against a flood fill

HEX_STEPS = ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, -1))   # (row, column): a rhombus's six


def hex_winner(stones, size):
    """Red (0) joins row 1 to row `size`, blue (1) column 1 to column `size`."""
    for p, start, goal in ((0, lambda s: s[0] == 1, lambda s: s[0] == size),
                           (1, lambda s: s[1] == 1, lambda s: s[1] == size)):
        todo = [s for s, q in stones.items() if q == p and start(s)]
        seen = set(todo)
        while todo:
            r, c = todo.pop()
            if goal((r, c)):
                return p
            for dr, dc in HEX_STEPS:
                n = (r + dr, c + dc)
                if stones.get(n) == p and n not in seen:
                    seen.add(n)
                    todo.append(n)
    return None


def test_200_random_hex_games_end_with_the_flood_fill_winner_and_never_draw():
    rules = nordlang.load_rules(rulebook("hex"))
    assert len(rules.grid.spaces) == 121
    wins = [0, 0]
    for seed in range(200):
        game = nordlang.Game(rules, seed)

        def check(stones, over):
            assert over == (hex_winner(stones, 11) is not None), stones
        stones = play_random(game, seed, check)
        won = hex_winner(stones, 11)
        assert won is not None and game.result.winners == (won,)    # never a draw
        assert len(stones) < 121 or game.over
        wins[won] += 1
    assert min(wins) > 50, wins


@pytest.mark.parametrize("variant, size", [("7x7", 7), ("9x9", 9)])
def test_smaller_hex_boards(variant, size):
    for seed in range(10):
        game = nordlang.load(rulebook=rulebook("hex"), seed=seed,
                             variants=[str(ROOT / "variants/hex" / f"{variant}.yaml")])
        assert len(game.rules.grid.spaces) == size * size
        play_random(game, seed, lambda stones, over: None)
        stones = {cell(game.rules.show(s)): it[1] for s, it in game.state.occupied.items()}
        assert game.result.winners == (hex_winner(stones, size),)


def test_hex_swap_mirrors_the_first_stone_and_games_end_with_the_flood_fill_winner():
    swap = str(ROOT / "variants/hex/swap.yaml")
    for seed in range(10):
        game = nordlang.load(rulebook=rulebook("hex"), seed=seed, variants=[swap])
        rng = random.Random(seed)
        first = rng.choice(game.legal_moves())
        game.play(first)
        assert "place swap" in [str(m) for m in game.legal_moves()]
        game.play("place swap")
        r, c = cell(first.option)
        assert {game.rules.show(s): it for s, it in game.state.occupied.items()} == \
            {f"{COLS[r - 1]}{c}": ("stone", 1)}                        # mirrored: row and column change places
        assert game.to_move == 0 and "place swap" not in [str(m) for m in game.legal_moves()]
        while not game.over:
            game.play(rng.choice(game.legal_moves()))
        stones = {cell(game.rules.show(s)): it[1] for s, it in game.state.occupied.items()}
        assert game.result.winners == (hex_winner(stones, 11),)


@pytest.mark.parametrize("variant, n, cells", [("connect-three", 3, 20), ("eight-by-seven", 4, 56)])
def test_connect_four_variants(variant, n, cells):
    for seed in range(10):
        game = nordlang.load(rulebook=rulebook("connect-four"), seed=seed,
                             variants=[str(ROOT / "variants/connect-four" / f"{variant}.yaml")])
        assert len(game.rules.grid.spaces) == cells
        play_random(game, seed, lambda s, over: None)
        stones = {cell(game.rules.show(s)): it[1] for s, it in game.state.occupied.items()}
        won = line_winner(stones, n)
        assert game.result.winners == ((won,) if won is not None else (0, 1))


# ---------------------------------------------------------------- commands and files

@pytest.mark.parametrize("game", GAMES)
def test_validate_with_simulation_is_clean(game, capsys):
    assert main(["validate", "--game", game, "--simulate", "20"]) == 0
    played, summary = capsys.readouterr().out.strip().splitlines()
    assert played.startswith(f"{rulebook(game)} (2 players): played 20 random game(s), ")
    assert summary == "1 file(s) checked: 0 error(s), 0 warning(s)"


@pytest.mark.parametrize("game, count", [("tictactoe", 5), ("connect-four", 6), ("hex", 7)])
def test_scenarios_pass(game, count, capsys):
    assert main(["test", str(ROOT / "variants" / game / "scenarios")]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"{count} passed, 0 failed"


@pytest.mark.parametrize("game, first, again", [("tictactoe", "place b2", "place b2"),
                                                ("connect-four", "drop 1", "drop 8"),
                                                ("hex", "place f6", "place f6")])
def test_a_refused_move_names_its_rule(game, first, again):
    g = nordlang.load(rulebook=rulebook(game), seed=1)
    g.play(first)
    with pytest.raises(IllegalMove) as e:
        g.play(again)
    path = rulebook(game)
    line = next(i for i, t in enumerate(Path(path).read_text().splitlines(), 1) if "- choose:" in t)
    assert f"is not allowed by the rule at {path}:{line}:5" in str(e.value)
    assert f"'{again.split()[1]}' is not one of the" in str(e.value)


def test_a_full_column_is_refused(capsys):
    g = nordlang.load(rulebook=rulebook("connect-four"), seed=1)
    for _ in range(6):
        g.play("drop 3")
    assert [str(m) for m in g.legal_moves()] == ["drop 1", "drop 2", "drop 4", "drop 5", "drop 6", "drop 7"]
    with pytest.raises(IllegalMove, match="'3' is not one of the 6 options of 'drop'"):
        g.play("drop 3")


@pytest.mark.parametrize("game", GAMES)
def test_rulebooks_are_short_and_write_no_adjacency(game):
    text = Path(rulebook(game)).read_text()
    assert len(text.splitlines()) <= 60
    for word in ("while", "neighbors", "component("):
        assert word not in text


def test_hex_scenario_is_drawn_with_hexagons(tmp_path, capsys):
    out = tmp_path / "hex.svg"
    scenario = ROOT / "variants/hex/scenarios/red-joins-top-and-bottom.yaml"
    assert main(["render", str(scenario), "--moves", "all", "-o", str(out)]) == 0
    svg = out.read_text()
    cells = re.findall(r'<polygon [^>]*points="([^"]+)"', svg)
    assert sum(len(p.split()) == 6 for p in cells) >= 121


# ---------------------------------------------------------------- the tutorial

TUTORIAL = ROOT / "docs" / "writing-a-game.md"


def test_the_tutorials_first_rulebook_plays_to_a_full_board(tmp_path, capsys):
    first = re.search(r"```yaml\n(.*?)```", TUTORIAL.read_text(), re.S).group(1)
    path = tmp_path / "tictactoe.yaml"
    path.write_text(first)
    assert main(["validate", str(path), "--simulate", "5"]) == 0
    game = nordlang.load(rulebook=str(path), seed=1)
    while not game.over:
        game.play(game.legal_moves()[0])
    assert len(game.state.occupied) == 9 and game.result.winners == (0, 1)   # no lines yet: all fill up


def test_the_tutorials_python_prints_what_it_says(capsys):
    code = re.search(r"```python\n(.*?)```", TUTORIAL.read_text(), re.S).group(1)
    exec(compile(code.replace('"rulebook/', f'"{ROOT}/rulebook/'), "tutorial", "exec"), {})
    assert capsys.readouterr().out == "(0,)\n"
