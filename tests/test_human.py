"""The human seat: `nord play --agents human,random` driven through standard
input, to the end of a game and stopped early by the end of input."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from nordlang.cli import main

TTT = str(Path(__file__).parent / "games" / "tictactoe-mini" / "ttt.yaml")
HEX = str(Path(__file__).parent / "games" / "hex-mini" / "hex.yaml")
ROOT = Path(__file__).parent.parent


def play(monkeypatch, capsys, entries, *args):
    """Run `nord play --agents human,random` with `entries` as its input: (status, stdout, stderr)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(e + "\n" for e in entries)))
    status = main(["play", "--rulebook", TTT, "--seed", "1", "--agents", "human,random", *args])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_a_person_plays_a_game_to_its_end_by_number_and_by_notation(monkeypatch, capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    status, out, err = play(monkeypatch, capsys, ["5", "cell a1", "a3", "1", "1"], "--log", str(log))
    assert status == 0 and err == ""
    lines = out.splitlines()
    # the empty board, who chooses, the numbered options
    start = lines.index("   a b c")
    assert lines[start:start + 5] == ["   a b c", "1  . . .", "2  . . .", "3  . . .", "turn 1, x chooses cell:"]
    assert lines[start + 5:start + 14] == [f"  {i}. {c}" for i, c in enumerate(
        ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"], 1)]
    # the position after x b2 and o c1, pieces as the players' initials, with a legend
    i = lines.index("turn 3, x chooses cell:")
    assert lines[i - 5:i] == ["   a b c", "1  . . o", "2  . x .", "3  . . .", "  x mark:x, o mark:o"]
    assert "  x        cell a1" in lines and "  x        cell a3" in lines
    assert lines[-1] == "replay written to " + str(log)
    moves = [json.loads(x) for x in log.read_text().splitlines()[1:-1]]
    assert [m["move"] for m in moves if m["player"] == 0] == ["cell b2", "cell a1", "cell a3", "cell a2"]
    assert main(["replay", "--rulebook", TTT, str(log)]) == 0


def test_a_bad_entry_says_what_was_wrong_and_asks_again(monkeypatch, capsys):
    status, out, _ = play(monkeypatch, capsys, ["", "99", "z9", "place b2", "0", "?", "help"])
    assert status == 1
    assert ("x> nothing typed: type an option's number (1 to 9), the option itself, or ? to list them" in out)
    assert "x> there is no option 99: the options are numbered 1 to 9 (? lists them)" in out
    assert ("x> 'z9' is not one of the 9 options of 'cell': type its number, the option as listed, or ? to list them"
            in out)
    assert "x> 'place b2' is not one of the 9 options of 'cell'" in out
    assert "x> there is no option 0: the options are numbered 1 to 9 (? lists them)" in out
    # ? and help list the options again (after the first listing: three in all)
    assert out.count("  9. c3\n") == 3


def test_the_end_of_input_stops_the_game_and_keeps_it_in_the_log(monkeypatch, capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    status, out, err = play(monkeypatch, capsys, ["b2", "a1"], "--log", str(log))
    assert status == 1
    assert err.splitlines() == [
        "stopped: the input ended before the game did (4 moves played, turn 5)",
        f"stopped: the game so far (4 moves, to turn 5) is written to {log}, a partial game that "
        f"`nord replay {log}` checks"]
    assert "final" not in out
    last = json.loads(log.read_text().splitlines()[-1])
    assert last["unfinished"] is True
    assert main(["replay", "--rulebook", TTT, str(log)]) == 0
    assert capsys.readouterr().out.startswith("partial game: 4 moves, replayed and matching up to turn 5")


def test_a_person_plays_hex_through_a_real_terminal_input():
    """In a subprocess (a hang would be the failure): red plays its column down the middle."""
    entries = "".join(f"c{r}\n" for r in range(1, 6)) + "1\n" * 20
    p = subprocess.run([sys.executable, "-m", "nordlang", "play", "--rulebook", HEX, "--seed", "7", "--agents",
                        "human,random"], input=entries, capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert "   a b c d e" in lines and "2   . . . . ." in lines           # hex rows are shifted
    assert lines[-1].startswith("winner: ")
    assert "  r stone:red" in lines[lines.index("turn 3, red chooses cell:") - 1]


def test_a_subprocess_whose_input_closes_exits_1_with_the_game_kept(tmp_path):
    log = tmp_path / "game.jsonl"
    p = subprocess.run([sys.executable, "-m", "nordlang", "play", "--rulebook", TTT, "--seed", "1", "--agents",
                        "human,random", "--log", str(log)], input="", capture_output=True, text=True, timeout=60,
                       cwd=ROOT)
    assert p.returncode == 1
    assert p.stderr.startswith("stopped: the input ended before the game did (0 moves played, turn 1)\n")
    assert json.loads(log.read_text().splitlines()[-1])["unfinished"] is True


@pytest.mark.parametrize("command", [["simulate", "-n", "1"], ["compare", "-n", "1"]])
def test_programs_that_play_alone_refuse_a_human_seat(capsys, command):
    assert main([*command, "--rulebook", TTT, "--agents", "human,random", "--jobs", "1", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "agent 'human' is a person at the terminal: it plays in `nord play` only" in err


def test_an_unknown_agent_lists_human_among_the_agents(capsys):
    assert main(["play", "--rulebook", TTT, "--agents", "humn"]) == 2
    assert capsys.readouterr().err == "error: unknown agent 'humn'\n    hint: did you mean 'human'?\n"


def test_a_person_plays_the_bundled_tictactoe_to_its_end_through_standard_input(tmp_path):
    """`nord play --game tictactoe --agents human,random`, fed by a pipe: the
    person always takes option 1; the game ends (a line or a full board) and
    the log replays."""
    log = tmp_path / "game.jsonl"
    p = subprocess.run([sys.executable, "-m", "nordlang", "play", "--game", "tictactoe", "--seed", "3", "--agents",
                        "human,random", "--log", str(log)], input="1\n" * 9, capture_output=True, text=True,
                       timeout=120, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    assert "red chooses place:" in p.stdout and "final, after" in p.stdout
    assert ("winner" in p.stdout) != ("draw: no winner" in p.stdout)
    assert "unfinished" not in log.read_text()
    assert main(["replay", str(log)]) == 0


def test_closing_the_input_ends_the_bundled_tictactoe_early_with_the_game_kept(tmp_path):
    log = tmp_path / "game.jsonl"
    p = subprocess.run([sys.executable, "-m", "nordlang", "play", "--game", "tictactoe", "--seed", "3", "--agents",
                        "human,random", "--log", str(log)], input="1\n", capture_output=True, text=True,
                       timeout=120, cwd=ROOT)
    assert p.returncode == 1
    assert p.stderr.startswith("stopped: the input ended before the game did (2 moves played, turn 3)\n"), p.stderr
    assert json.loads(log.read_text().splitlines()[-1])["unfinished"] is True
