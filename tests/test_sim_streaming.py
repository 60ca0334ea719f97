"""Streaming, deterministic, lossless simulation: flat memory, lazy game
indices, byte-identical --out for any --jobs and on Dask, no file lost or
truncated, and one clean message for each bad scheduler option."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nordlang.cli import main
from nordlang.sim import stats as S
from nordlang.sim.parallel import chunk_size, run_tasks
from nordlang.sim.simulate import Config, game_seed
from nordlang.sim.summary import MAX_VALUES, Moments, Summary

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
SIM = ["simulate", "--players", "2", "--seed", "3", "--no-progress"]


def _nord(args, **kw):
    return subprocess.Popen([sys.executable, "-m", "nordlang", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=ENV, **kw)


def _lines(path):
    return Path(path).read_text().splitlines()


def _one_error_line(capsys):
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


# ---------------- running statistics ----------------
def test_moments_match_the_list_formulas():
    xs = [3, 1, 4, 1, 5, 9, 2, 6, 0.5, 2.25]
    m = Moments(values=True)
    for x in xs:
        m.add(x)
    import statistics
    assert m.summary() == pytest.approx({"n": 10, "mean": statistics.fmean(xs), "sd": statistics.stdev(xs),
                                         "min": 0.5, "median": statistics.median(xs), "max": 9})
    m.pad(12)
    assert (m.n, m.lo, m.median()) == (12, 0, 2.125)


def test_too_many_distinct_values_drop_the_median_with_a_note():
    m = Moments(values=True)
    for x in range(MAX_VALUES + 1):
        m.add(x)
    assert m.counts is None and m.median() is None and m.hi == MAX_VALUES
    rec = {"game": 0, "agents": ["a"], "points": [1], "winners": [0], "sources": {"x": [1]}, "turns": 1,
           "decisions": 1, "branching": 2.0, "options_by_turn": [[1, 2]], "lead_changes": 0, "notes": {},
           "triggers": []}
    s = Summary()
    s.add(rec)
    s.sources["x"] = m
    text = S.format_summary(s.result())
    assert "  x                                    2048.0 1182.8    0      - 4096" in text
    assert "  (-: too many distinct values to keep them all; the median is left out)" in text


def test_the_summary_does_not_grow_with_the_games():
    import pickle
    c = Config(players=2, seed=1)
    recs = list(run_tasks(((c, i) for i in range(3)), jobs=1))
    sizes = []
    for n in (30, 3000):
        s = Summary()
        for i in range(n):
            s.add({**recs[i % 3], "game": i}, 0.01)
        assert s.result()["games"] == n
        sizes.append(len(pickle.dumps(s)))
    assert sizes[1] - sizes[0] < 1000, sizes     # (the exact sums gain digits; 2970 records would add 3 MB)


# ---------------- lazy, ordered, chunked ----------------
def test_games_come_back_in_order_for_any_jobs():
    c = Config(players=2, seed=4)
    one = [r["game"] for r in run_tasks(((c, i) for i in range(9)), jobs=1)]
    two = [r["game"] for r in run_tasks(((c, i) for i in range(9)), jobs=2, total=9)]
    assert one == two == list(range(9))


def test_chunks_are_sized_to_the_workers():
    assert chunk_size(None, 4, 50) == 50          # unknown or huge -n: full chunks
    assert chunk_size(10 ** 20, 4, 50) == 50
    assert chunk_size(12, 2, 50) == 1             # a few games: one per task, spread over the workers
    assert chunk_size(1600, 2, 50) == 50



def _interrupted(argv, cwd, wait):
    """Run `nord argv`, wait(p) until it is where the test wants it, then
    Ctrl-C it: (process, stdout, stderr); a process left running is killed."""
    p = _nord(argv, cwd=cwd, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        wait(p)
        p.send_signal(signal.SIGINT)
        stdout, stderr = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()
    return p, stdout, stderr

def test_a_huge_n_starts_playing_at_once(tmp_path):
    out = tmp_path / "r.jsonl"
    def three_records(p):
        deadline = time.time() + 60
        while time.time() < deadline and not (out.exists() and len(_lines(out)) >= 3):
            assert p.poll() is None, p.communicate()
            time.sleep(0.1)
        rss = next(int(x.split()[1]) for x in Path(f"/proc/{p.pid}/status").read_text().splitlines()
                   if x.startswith("VmRSS"))
        assert rss < 200_000, f"{rss} kB resident"
    p, stdout, stderr = _interrupted(["simulate", "-n", "99999999999999999999", "--players", "2", "--jobs", "2",
                                      "--out", str(out), "--no-progress"], tmp_path, three_records)
    assert p.returncode == 130, stderr
    assert "Traceback" not in stderr
    recs = [json.loads(x) for x in _lines(out)[1:]]
    assert [r["game"] for r in recs] == list(range(len(recs))) and len(recs) >= 2
    assert json.loads(_lines(out)[0])["games"] == 99999999999999999999
    assert "win rate by seat" in stdout



def test_compare_with_a_huge_n_starts_playing_at_once(tmp_path):
    """It built every game's index first (an OverflowError, found by fuzzing); it streams now."""
    def still_playing(p):
        time.sleep(8)
        assert p.poll() is None, p.communicate()       # no error, no traceback: it plays
    p, stdout, stderr = _interrupted(["compare", "-n", "99999999999999999999", "--players", "2", "--jobs", "1"],
                                     tmp_path, still_playing)
    assert p.returncode == 130, stderr
    assert "Traceback" not in stderr and "OverflowError" not in stderr

# ---------------- byte-identical outputs ----------------
def test_jobs_1_jobs_2_and_a_dask_cluster_write_the_same_bytes(tmp_path, capsys, monkeypatch):
    distributed = pytest.importorskip("distributed")
    args = SIM + ["-n", "12", "--out"]
    assert main(args + [str(tmp_path / "j1.jsonl"), "--jobs", "1"]) == 0
    assert main(args + [str(tmp_path / "j2.jsonl"), "--jobs", "2"]) == 0
    one = (tmp_path / "j1.jsonl").read_bytes()
    assert (tmp_path / "j2.jsonl").read_bytes() == one
    assert b"elapsed" not in one
    monkeypatch.setenv("PYTHONPATH", ENV["PYTHONPATH"])            # for the worker processes
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, protocol="tcp://",
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        p = _nord(args + [str(tmp_path / "dask.jsonl"), "--scheduler", cluster.scheduler_address], cwd=tmp_path)
        stdout, stderr = p.communicate(timeout=300)
        assert p.returncode == 0, stderr
        assert stderr == ""                          # no log line, no traceback from Dask's threads at exit
        assert (tmp_path / "dask.jsonl").read_bytes() == one
        # one task per chunk of games, not one per game
        with distributed.Client(cluster, set_as_default=False) as client, \
                distributed.get_task_stream(client) as ts:
            c = Config(players=2, seed=3)
            games = list(run_tasks(((c, i) for i in range(40)), scheduler=client, total=40))
        assert [r["game"] for r in games] == list(range(40))
        assert len(ts.data) == 20                     # 2 games a task: 40 // (8 * 2 threads)


def test_timings_go_to_their_own_file(tmp_path, capsys):
    out, tim = tmp_path / "r.jsonl", tmp_path / "t.jsonl"
    assert main(SIM + ["-n", "3", "--jobs", "1", "--out", str(out), "--timings", str(tim)]) == 0
    times = [json.loads(x) for x in _lines(tim)]
    assert [t["game"] for t in times] == [0, 1, 2] and all(t["elapsed"] > 0 for t in times)
    assert "elapsed" not in out.read_text()


def test_a_stopped_and_resumed_run_writes_the_same_bytes(tmp_path, capsys):
    full, part = tmp_path / "full.jsonl", tmp_path / "part.jsonl"
    args = SIM + ["-n", "6", "--jobs", "2"]
    assert main(args + ["--out", str(full)]) == 0
    data = full.read_text()
    lines = data.splitlines(keepends=True)
    part.write_text("".join(lines[:3]) + lines[3][:40])          # header, 2 games, a line cut short
    assert main(args + ["--out", str(part), "--resume"]) == 0
    assert part.read_text() == data
    assert "6 games in" in capsys.readouterr().out


def _running_with(text):
    found = []
    for d in Path("/proc").iterdir():
        try:
            if d.name.isdigit() and text.encode() in (d / "cmdline").read_bytes():
                found.append(int(d.name))
        except OSError:
            pass
    return found


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_stop_with_two_jobs_keeps_every_finished_game_and_resume_completes_it(tmp_path, capsys, sig):
    out, ref = tmp_path / "r.jsonl", tmp_path / "ref.jsonl"
    p = _nord(SIM + ["-n", "60", "--jobs", "2", "--out", str(out)], cwd=tmp_path,
              preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.time() + 60
    while time.time() < deadline and not (out.exists() and len(_lines(out)) >= 4):
        time.sleep(0.05)
    p.send_signal(sig)
    stdout, stderr = p.communicate(timeout=60)
    assert p.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert _running_with(str(out)) == []             # no worker left behind
    kept = [json.loads(x)["game"] for x in _lines(out)[1:]]
    assert kept == list(range(len(kept))) and 3 <= len(kept) < 60
    assert f"interrupted after {len(kept)} of 60 games; run again with --resume --out {out} to finish" in stderr
    assert main(SIM + ["-n", "60", "--jobs", "1", "--out", str(ref)]) == 0
    assert main(SIM + ["-n", "60", "--jobs", "2", "--out", str(out), "--resume"]) == 0
    assert out.read_bytes() == ref.read_bytes()


def test_compare_prints_the_same_for_any_jobs(capsys):
    args = ["compare", "-n", "4", "--players", "2", "--variant-b", "no-storm", "--no-progress"]
    assert main(args + ["--jobs", "1"]) == 0
    one = capsys.readouterr().out
    assert main(args + ["--jobs", "2"]) == 0
    assert capsys.readouterr().out == one
    assert "4 games on the same seeds" in one


# ---------------- nothing lost ----------------
def test_an_existing_out_file_is_refused_without_resume_or_force(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    out.write_text("forty games of someone's work\n")
    assert main(SIM + ["-n", "3", "--out", str(out)]) == 2
    assert _one_error_line(capsys) == (f"error: --out {out} already holds results: give --resume to continue it "
                                       "or --force to replace it")
    assert out.read_text() == "forty games of someone's work\n"
    assert main(SIM + ["-n", "3", "--out", str(out), "--resume", "--force"]) == 2
    assert _one_error_line(capsys) == "error: give --resume (continue FILE) or --force (replace it), not both"
    assert main(SIM + ["-n", "3", "--out", str(out), "--force", "--jobs", "1"]) == 0
    assert len(_lines(out)) == 4


def test_an_existing_timings_file_is_refused_too(tmp_path, capsys):
    tim = tmp_path / "t.jsonl"
    tim.write_text("x\n")
    assert main(SIM + ["-n", "2", "--timings", str(tim)]) == 2
    assert "--timings" in _one_error_line(capsys) and tim.read_text() == "x\n"


def test_resume_refuses_records_of_another_command(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    assert main(SIM + ["-n", "3", "--jobs", "1", "--out", str(out)]) == 0
    lines = out.read_text().splitlines(keepends=True)
    rec = json.loads(lines[2])
    rec["seed"] = 7
    lines[2] = json.dumps(rec, sort_keys=True) + "\n"
    out.write_text("".join(lines))
    capsys.readouterr()
    assert main(SIM + ["-n", "4", "--jobs", "1", "--out", str(out), "--resume"]) == 2
    assert _one_error_line(capsys) == (f"error: {out}:3: game 1 has seed 7, not {game_seed(3, 1)} (game 1 of seed 3): "
                                       "the records were not made by this command (start anew with --force, or "
                                       "write to another --out)")
    assert out.read_text() == "".join(lines)
    lines[2] = lines[1]
    out.write_text("".join(lines))
    assert main(SIM + ["-n", "4", "--jobs", "1", "--out", str(out), "--resume"]) == 2
    assert "line 3 is not a game record of nord simulate (game 0 a second time)" in _one_error_line(capsys)


# ---------------- bad options: one line, exit 2 ----------------
@pytest.mark.parametrize("agents, message", [
    ("", "error: --agents '' names no agent"),
    ("random,,greedy", "error: --agents 'random,,greedy' has an empty entry (two commas, or one at an end)"),
    ("greedy,", "error: --agents 'greedy,' has an empty entry (two commas, or one at an end)"),
])
@pytest.mark.parametrize("command", [["simulate", "-n", "2"], ["play"], ["compare", "-n", "2", "--agents-b"]])
def test_an_empty_agent_name_is_a_usage_error(command, agents, message, capsys):
    args = command + [agents] if command[-1] == "--agents-b" else command + ["--agents", agents]
    assert main(args + ["--players", "2"] + (["--no-progress"] if command[0] != "play" else [])) == 2
    assert _one_error_line(capsys) == message


@pytest.mark.parametrize("value, message", [
    ("http://127.0.0.1:8786", "scheduler address 'http://127.0.0.1:8786': scheme 'http' is not one Dask can reach "
                              "(schemes: tcp://, tls://, ws://, wss://)"),
    ("127.0.0.1:8786", "scheduler address '127.0.0.1:8786': it must look like tcp://HOST:PORT"),
    ("tcp://host", "scheduler address 'tcp://host': it must look like tcp://HOST:PORT"),
])
def test_a_bad_scheduler_address_is_refused_at_argument_time(value, message, capsys):
    with pytest.raises(SystemExit) as e:
        main(["simulate", "-n", "2", "--scheduler", value])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize("value, message", [
    ("-1", "argument --scheduler-timeout: -1 must be a number of seconds above 0"),
    ("0", "argument --scheduler-timeout: 0 must be a number of seconds above 0"),
    ("nan", "argument --scheduler-timeout: nan must be a number of seconds above 0"),
    ("soon", "argument --scheduler-timeout: 'soon' is not a number of seconds"),
])
def test_the_scheduler_timeout_must_be_a_positive_number(value, message, capsys):
    with pytest.raises(SystemExit) as e:
        main(["compare", "-n", "2", "--scheduler", "tcp://127.0.0.1:1", "--scheduler-timeout", value])
    assert e.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == f"nord compare: error: {message}"


@pytest.mark.parametrize("address", ["http://127.0.0.1:8786", "tcp://127.0.0.1:1"])
def test_a_scheduler_error_is_one_line_without_a_stall(address, tmp_path):
    pytest.importorskip("distributed")
    t = time.monotonic()
    p = _nord(["simulate", "-n", "2", "--players", "2", "--no-progress", "--scheduler", address,
               "--scheduler-timeout", "1"], cwd=tmp_path)
    stdout, stderr = p.communicate(timeout=60)
    took = time.monotonic() - t
    assert p.returncode == 2
    lines = stderr.strip().splitlines()
    assert "Traceback" not in stderr and "Exception ignored" not in stderr
    if address.startswith("tcp"):
        assert lines == ["error: could not reach the Dask scheduler at tcp://127.0.0.1:1 within 1 s: "
                         "connection refused"]
    else:
        assert lines[-1].endswith("scheme 'http' is not one Dask can reach (schemes: tcp://, tls://, ws://, wss://)")
    assert took < 15, f"{took:.1f} s: a stall past the 1 s timeout"     # (the stall was 20 s)


def test_a_scheduler_lost_mid_run_is_one_line_and_keeps_the_games(tmp_path, monkeypatch):
    distributed = pytest.importorskip("distributed")
    out = tmp_path / "r.jsonl"
    monkeypatch.setenv("PYTHONPATH", ENV["PYTHONPATH"])
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, protocol="tcp://",
                                       host="127.0.0.1", dashboard_address=None, silence_logs=50)
    address = cluster.scheduler_address
    p = _nord(SIM + ["-n", "100000", "--out", str(out), "--scheduler", address], cwd=tmp_path)
    try:
        deadline = time.time() + 120
        while time.time() < deadline and not (out.exists() and len(_lines(out)) >= 3):
            assert p.poll() is None, p.communicate()
            time.sleep(0.1)
    finally:
        cluster.close()
    stdout, stderr = p.communicate(timeout=120)
    assert p.returncode == 2
    kept = [json.loads(x)["game"] for x in _lines(out)[1:]]
    assert kept == list(range(len(kept))) and kept
    assert "Traceback" not in stderr
    assert stderr.strip().splitlines() == [
        f"error: lost the Dask scheduler at {address}: "
        + stderr.split(f"error: lost the Dask scheduler at {address}: ")[1].split(";")[0]
        + f"; stopped after {len(kept)} of 100000 games; run again with --resume --out {out} to finish"]
    assert f"{len(kept)} games in {out}" in stdout


def test_resume_continues_a_file_of_an_older_version_out_of_order_with_timings(tmp_path, capsys):
    """Files written before records were ordered (and timed) are continued, not refused."""
    full, old = tmp_path / "full.jsonl", tmp_path / "old.jsonl"
    args = SIM + ["-n", "5", "--jobs", "1"]
    assert main(args + ["--out", str(full)]) == 0
    header, *recs = _lines(full)
    legacy = [json.dumps({**json.loads(recs[i]), "elapsed": 0.5}) for i in (3, 0, 4, 1)]     # game 2 missing
    old.write_text("\n".join([header] + legacy) + "\n")
    capsys.readouterr()
    assert main(args + ["--out", str(old), "--resume"]) == 0
    assert "5 games in" in capsys.readouterr().out
    lines = _lines(old)
    assert lines[:5] == [header] + legacy and lines[5] == recs[2]
