"""bench/ runs, and its hand-written references play nordlang's rules.

No timing is asserted here (the figures are bench/'s to print, never a
test's): the benchmarks run in their tiniest mode, and the hand-written
Hex (bench/handwritten/hex.py) must play the same games as nordlang's Hex:
the same legal moves at every decision and the same winner.
"""

import importlib.util
import random
import subprocess
import sys
from pathlib import Path

import pytest

import nordlang

ROOT = Path(__file__).resolve().parent.parent
HANDWRITTEN = ROOT / "bench" / "handwritten"


def _module(name, path):
    sys.path.insert(0, str(path.parent))
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    finally:
        sys.path.remove(str(path.parent))
    return mod


def test_every_benchmark_runs_in_its_tiny_mode():
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "all.py"), "--tiny", "--games", "tictactoe,hex"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    for heading in ("Random games per second", "Hex 11x11 side by side", "Nord against the hand-written engine",
                    "mcts, default budget", "Start-up, wall time"):
        assert heading in text
    for row in ("tictactoe", "hand-written", "nordlang api", "nord play --game tictactoe", "a sample, us"):
        assert row in text


def test_the_split_of_nords_time_times_both_engines_questions():
    out = subprocess.run([sys.executable, str(HANDWRITTEN / "split.py"), "--games", "2", "--players", "2"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    questions = {}
    for line in out.stdout.splitlines():
        words = line.split()
        for engine in ("hand-written", "nordlang"):
            if engine in words:
                questions[engine] = float(words[words.index(engine) + 1])
    # (each engine's questions were timed: the names the bench wraps are still there)
    assert questions["hand-written"] > 0 and questions["nordlang"] > 0


def test_the_hand_written_hex_plays_nordlangs_games():
    """20 seeded random games: at every decision both offer the same open cells;
    the moves replayed in the hand-written Hex give the same winner."""
    hx = _module("handwritten_hex", HANDWRITTEN / "hex.py")
    rules = nordlang.load_rules("hex")
    winners = set()
    for seed in range(20):
        rng = random.Random(seed)
        game = nordlang.Game(rules, seed)
        mine = hx.Hex()
        seen = 0
        while True:
            history = game.state.history
            for _turn, who, choice, text, _forced in history[seen:]:     # (a last open cell is taken at once)
                assert choice == "place" and who == mine.player and not mine.over
                mine.play_cell(hx.cell_of(text))
            seen = len(history)
            if game.over:
                break
            assert sorted(hx.cell_name(c) for c in mine.legal_moves()) == sorted(m.option for m in game.legal_moves())
            game.play_index(rng.randrange(len(game.legal_moves())))
        assert mine.over and list(game.result.winners) == [mine.winner], seed
        assert mine.moves == len(game.state.history)
        winners.add(mine.winner)
    assert winners == {0, 1}


@pytest.mark.parametrize("last, winner", [(["a11"], 0), (["c1", "a11"], 1)])
def test_the_hand_written_hex_judges_a_corner_as_nordlang_does(last, winner):
    """Red down column a to row 10, blue along row 11 from b to k: a11, a corner, finishes either's chain."""
    hx = _module("handwritten_hex", HANDWRITTEN / "hex.py")
    moves = [m for r in range(1, 11) for m in (f"a{r}", f"{chr(ord('b') + r - 1)}11")] + last
    mine, game = hx.Hex(), nordlang.load("hex")
    for m in moves:
        assert not mine.over and not game.over
        mine.play_cell(hx.cell_of(m))
        game.play(f"place {m}")
    assert mine.winner == winner and list(game.result.winners) == [winner]
    with pytest.raises(ValueError):
        mine.play_cell(hx.cell_of("b1"))     # the game is over


@pytest.mark.parametrize("players", [2, 3])
def test_the_hand_written_nord_plays_the_2_and_3_player_islands(players):
    """bench/handwritten/check.py in lockstep on the smaller islands (the tests' 4-player run is in
    test_handwritten.py)."""
    import io
    from contextlib import redirect_stdout
    sys.path.insert(0, str(HANDWRITTEN))
    try:
        check = _module("handwritten_check", HANDWRITTEN / "check.py")
        out = io.StringIO()
        with redirect_stdout(out):
            assert check.main(["3", str(players)]) == 0
    finally:
        sys.path.remove(str(HANDWRITTEN))
    assert out.getvalue().startswith(f"3 random {players}-player games in lockstep: the same options at all ")
