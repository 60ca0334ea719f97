"""The play and replay commands, and their error paths (exit 2, one message)."""

import json
import os
import stat
import subprocess
import sys
import threading

import pytest

from nordlang.cli import main


def test_play_prints_a_log_and_writes_a_complete_replay(tmp_path, capsys):
    log = tmp_path / "game.jsonl"
    assert main(["play", "--players", "2", "--seed", "4", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Nord: 2 players, seed 4")
    lines = out.splitlines()
    assert lines[1] == "setup:" and [x.split()[:2] for x in lines[2:4]] == [["red", "start"], ["blue", "start"]]
    assert lines[4] == "turn 1, red:"
    assert "== scoring 1:" in out and "== scoring 5: treasures" in out
    assert "winner" in out
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert lines[0]["seed"] == 4 and lines[0]["players"] == 2
    assert "final" in lines[-1]
    assert oct(log.stat().st_mode & 0o777) != "0o600"
    assert main(["replay", str(log)]) == 0
    assert "replay matches" in capsys.readouterr().out


def test_a_log_through_a_link_writes_the_link_target(tmp_path, capsys):
    (tmp_path / "logs").mkdir()
    link = tmp_path / "latest.jsonl"
    link.symlink_to(tmp_path / "logs" / "game.jsonl")
    assert main(["play", "--players", "2", "--seed", "4", "--quiet", "--log", str(link)]) == 0
    assert link.is_symlink()
    assert json.loads((tmp_path / "logs" / "game.jsonl").read_text().splitlines()[0])["seed"] == 4


def test_a_log_into_a_pipe_is_written_into_it(tmp_path, capsys):
    """A path that is no regular file (a pipe, /dev/stdout) is written, not replaced by a file."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()), daemon=True)
    reader.start()
    try:
        assert main(["play", "--players", "2", "--seed", "4", "--quiet", "--log", str(fifo)]) == 0
    finally:
        reader.join(10)
        if reader.is_alive():   # the game never opened the pipe: unblock the reader (no wait if it is gone)
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass
            reader.join(10)
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert json.loads(got[0].splitlines()[0])["seed"] == 4


def test_play_picks_and_prints_a_seed(capsys):
    assert main(["play", "--players", "2", "--quiet"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert "seed " in head and head.split("seed ")[1].split(",")[0].isdigit()


def test_same_seed_same_log(capsys):
    main(["play", "--players", "3", "--seed", "9"])
    a = capsys.readouterr().out
    main(["play", "--players", "3", "--seed", "9"])
    assert capsys.readouterr().out == a


def test_errors_exit_2_with_one_message(tmp_path, capsys):
    cases = [
        (["play", "--players", "7"], "this rulebook is for 2 to 4 players, not 7"),
        (["play", "--agents", "randon"], "unknown agent 'randon'"),
        (["play", "--agents", "random:depth=3"], "has no parameter 'depth'"),
        (["play", "--variant", "nostorm"], "unknown variant 'nostorm'"),
        (["play", "--log", str(tmp_path / "no" / "x.jsonl")], "does not exist"),
        (["play", "--rulebook", str(tmp_path / "missing.yaml")], "no such rulebook"),
        (["replay", str(tmp_path / "missing.jsonl")], "no such replay file"),
        (["replay", str(tmp_path)], f"{tmp_path} is a folder, not a replay file (written by `nord play --log`)"),
        (["play", "--players", "2", "--variant", "no-storm", "--variant", "no-storm.yaml"],
         "no such variant file: no-storm.yaml"),
    ]
    for argv, phrase in cases:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert phrase in err, (argv, err)
        assert "Traceback" not in err
    assert not (tmp_path / "no").exists()


def test_agents_that_need_an_evaluation_are_refused_before_any_game(tmp_path, capsys):
    variant = tmp_path / "no-eval.yaml"
    variant.write_text("description: no evaluation\nextends: nord\npatch:\n  result:\n    evaluation: null\n")
    for argv in (["play", "--players", "2", "--seed", "1", "--agents", "random,greedy"],
                 ["simulate", "-n", "2", "--players", "2", "--agents", "mcts", "--jobs", "1"]):
        assert main(argv + ["--variant", str(variant)]) == 2, argv
        cap = capsys.readouterr()
        assert "needs the rulebook's result.evaluation" in cap.err, cap.err
        assert "Traceback" not in cap.err and "turn 1" not in cap.out
    assert main(["play", "--players", "2", "--seed", "1", "--quiet", "--variant", str(variant)]) == 0


def test_console_script_and_module_run(tmp_path):
    r = subprocess.run([sys.executable, "-m", "nordlang", "play", "--players", "2", "--seed", "1", "--quiet"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "winner" in r.stdout
    r = subprocess.run([sys.executable, "-m", "nordlang", "play", "--players", "x"], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2 and "invalid int value" in r.stderr and "Traceback" not in r.stderr


def test_a_player_count_too_large_for_python_is_out_of_range(capsys):
    assert main(["play", "--players", "99999999999999999999"]) == 2
    err = capsys.readouterr().err
    assert "error: this rulebook is for 2 to 4 players, not 99999999999999999999" in err
    assert "Traceback" not in err


NO_SPACE = "nord: error: cannot write to standard output: No space left on device\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("argv", [
    ["schema"],                                             # more than a buffer: fails while writing
    ["replay", "tests/replays/nord-2p.jsonl"],              # one line: fails when flushed at the end
    ["--help"],                                             # argparse's own writing
    ["play", "--players", "2", "--seed", "1"],              # fails in the middle of a game
])
def test_output_that_cannot_be_written_is_one_message_and_exit_2(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "nordlang", *argv], stdout=full, stderr=subprocess.PIPE,
                           text=True, timeout=120, cwd=root, env={**os.environ, "PYTHONPATH": root})
    assert (r.returncode, r.stderr) == (2, NO_SPACE)


def test_ctrl_c_during_a_game_leaves_a_partial_log_that_replays(tmp_path, capsys):
    """SIGINT in the middle of a slow game: exit 130, and the log holds the
    game so far, which `nord replay` checks and reports as partial."""
    import signal
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    log = tmp_path / "stopped.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "nordlang", "play", "--players", "2", "--seed", "1",
                             "--agents", "mcts:playouts=3000", "--log", str(log)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=root,
                            env={**os.environ, "PYTHONPATH": root, "PYTHONUNBUFFERED": "1"},
                            # (a run started in the background inherits SIGINT ignored, and Python then
                            # never raises KeyboardInterrupt: the child has it as a terminal gives it)
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    watchdog = threading.Timer(180, proc.kill)
    watchdog.start()
    try:
        for line in proc.stdout:
            if line.startswith("turn 2,"):         # some moves are made: stop it now
                proc.send_signal(signal.SIGINT)
                break
        _, err = proc.communicate(timeout=120)
    finally:
        watchdog.cancel()
        proc.kill()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and err.endswith("interrupted\n")
    lines = log.read_text().splitlines()
    moves = len(lines) - 2
    footer = json.loads(lines[-1])
    assert moves >= 1 and footer["unfinished"] is True and "points" not in footer
    assert f"stopped: the game so far ({moves} moves, to turn {footer['turns']}) is written to {log}" in err
    assert main(["replay", str(log)]) == 0
    assert capsys.readouterr().out.startswith(f"partial game: {moves} moves, replayed and matching up to turn "
                                              f"{footer['turns']}; not finished")
    assert main(["render", str(log), "-o", str(tmp_path / "stopped.svg")]) == 0
    assert "position where the game was stopped (unfinished)" in (tmp_path / "stopped.svg").read_text()[:1000]


def test_a_stop_in_the_middle_of_a_decision_leaves_the_last_whole_one(tmp_path, capsys, monkeypatch):
    """The position a stop leaves may be half changed: the partial log holds
    the decisions that ran to their end, played again from the seed."""
    import nordlang.cli.play as play

    def stopped(game, agents, on_step):
        for _ in range(5):
            game.play_index(0)
            on_step(game)
        game.state.history.append((game.state.turn, game.to_move, game.choice, "half", False))
        game.state.counters[("points", 0)] = 999          # a change the decision had not finished
        raise KeyboardInterrupt
    monkeypatch.setattr(play, "play_out", stopped)
    log = tmp_path / "half.jsonl"
    assert main(["play", "--players", "2", "--seed", "1", "--quiet", "--log", str(log)]) == 130
    assert "is written to" in capsys.readouterr().err
    lines = log.read_text().splitlines()
    assert len(lines) == 7 and not any("half" in x for x in lines)      # header, 5 moves, last line
    assert main(["replay", str(log)]) == 0
    assert capsys.readouterr().out.startswith("partial game: 5 moves, replayed and matching up to turn")


def test_validate_with_a_player_count_too_large_for_python(capsys):
    assert main(["validate", "--players", "99999999999999999999"]) == 2
    cap = capsys.readouterr()
    assert "this rulebook is for 2 to 4 players, not 99999999999999999999" in cap.out + cap.err
    assert "Traceback" not in cap.out + cap.err


def test_output_failing_in_the_middle_of_a_game_leaves_a_partial_log(tmp_path, capsys, monkeypatch):
    import errno

    import nordlang.cli.play as play

    def disk_full(game, agents, on_step):
        for _ in range(3):
            game.play_index(0)
            on_step(game)
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(play, "play_out", disk_full)
    log = tmp_path / "full.jsonl"
    assert main(["play", "--players", "2", "--seed", "1", "--quiet", "--log", str(log)]) == 2
    err = capsys.readouterr().err
    assert err.endswith("nord: error: cannot write to standard output: No space left on device\n")
    assert f"stopped: the game so far (3 moves, to turn 2) is written to {log}" in err
    assert main(["replay", str(log)]) == 0
    assert capsys.readouterr().out.startswith("partial game: 3 moves, replayed and matching up to turn 2")


def test_each_command_word_is_built_by_the_module_the_lazy_parser_loads_for_it():
    from nordlang.cli import MODULE_OF, build_parser
    full = build_parser()
    words = set(next(a for a in full._actions if a.dest == "command").choices)
    assert words == set(MODULE_OF)
    for word, module in MODULE_OF.items():
        lazy = build_parser([word, "--help"])
        assert word in next(a for a in lazy._actions if a.dest == "command").choices, module
