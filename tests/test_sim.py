"""Simulation: per-game records, reproducibility across jobs and Dask,
statistics, the simulate and compare commands and their errors."""

import json
import math
import os
import re
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from nordlang.cli import main
from nordlang.sim import stats as S
from nordlang.sim.simulate import Config, game_seed, read_results, reproducible, run_game, run_games

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}

CALM = """\
description: >
  Test variant: the storm after a warrior scoring is dropped.
extends: nord
patch:
  flows:
    warrior_scoring():
      - remove: storm
"""

BROKEN = """\
description: >
  Test variant that patches something that does not exist.
extends: nord
patch:
  flows:
    warrior_scoring():
      - remove: no_such_step
"""


def _records(path):
    lines = Path(path).read_text().splitlines()
    return json.loads(lines[0]), [json.loads(x) for x in lines[1:]]


def _same(a, b):
    return [reproducible(r) for r in sorted(a, key=lambda r: r["game"])] == \
           [reproducible(r) for r in sorted(b, key=lambda r: r["game"])]


# ---------------- records ----------------
def test_game_seeds_are_stable_and_distinct():
    seeds = [game_seed(0, i) for i in range(100)]
    assert len(set(seeds)) == 100
    assert seeds == [game_seed(0, i) for i in range(100)]
    assert game_seed(1, 0) != game_seed(0, 0)


def test_agents_rotate_over_seats_unless_fixed():
    c = Config(agents=("greedy", "random"), players=2)
    assert c.seat_specs(2, 0) == ["greedy", "random"]
    assert c.seat_specs(2, 1) == ["random", "greedy"]
    assert Config(agents=("greedy", "random"), rotate=False).seat_specs(2, 1) == ["greedy", "random"]
    assert Config(agents=("a", "b")).seat_specs(3, 1) == ["b", "b", "a"]


def test_a_record_holds_the_game_and_is_reproducible():
    c = Config(players=2, seed=3)
    r = run_game(c, 1)
    assert r["seed"] == game_seed(3, 1) and r["game"] == 1
    assert len(r["points"]) == 2 and r["winners"]
    for p in range(2):
        assert sum(v[p] for v in r["sources"].values()) == r["points"][p]
    assert r["turns"] > 0 and r["decisions"] == sum(d for d, _ in r["options_by_turn"])
    assert r["branching"] >= 2
    assert r["triggers"] and r["notes"]
    assert sum(r["notes"].values()) > 0
    json.dumps(r)
    assert reproducible(run_game(c, 1)) == reproducible(r)


def test_one_job_and_two_jobs_give_the_same_records():
    c = Config(players=2, seed=5)
    one = list(run_games(c, range(4), jobs=1))
    two = list(run_games(c, range(4), jobs=2))
    assert _same(one, two)


def test_dask_cluster_gives_the_same_records():
    distributed = pytest.importorskip("distributed")
    c = Config(players=2, seed=5)
    one = list(run_games(c, range(3), jobs=1))
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp://",
                                  host="127.0.0.1", dashboard_address=None) as cluster, \
            distributed.Client(cluster, set_as_default=False) as client:
        viaclient = list(run_games(c, range(3), scheduler=client))
        assert _same(one, viaclient)
        # and through the command line, by address
        assert main(["simulate", "-n", "3", "--players", "2", "--seed", "5", "--no-progress",
                     "--scheduler", cluster.scheduler_address]) == 0


# ---------------- statistics ----------------
def test_wilson_interval():
    lo, hi = S.wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert S.wilson(0, 10)[0] == 0.0
    assert S.wilson(0, 0) == (0.0, 1.0)


def test_test_distributions():
    assert S.t_two_sided(2.0, 10) == pytest.approx(0.07339, abs=1e-4)
    assert S.t_two_sided(0.0, 5) == pytest.approx(1.0)
    assert S.chi2_sf(3.841, 1) == pytest.approx(0.05, abs=1e-3)
    assert S.chi2_sf(10.0, 4) == pytest.approx(0.04043, abs=1e-4)
    assert S.normal_sf(1.959964) == pytest.approx(0.025, abs=1e-5)
    t = S.paired_t([1, 2, 3, 4, 5])
    assert t["mean"] == 3 and t["p"] == pytest.approx(0.01324, abs=1e-4)
    # all differences equal: no spread for a t-test; a sign test (2 games prove nothing)
    assert S.paired_t([3, 3])["p"] == 0.5 and S.paired_t([3, 3])["test"].startswith("sign test")
    assert S.paired_t([-2] * 10)["p"] == pytest.approx(2 / 1024)
    assert S.paired_t([0, 0, 0])["p"] == 1.0
    assert t["lo"] == pytest.approx(1.0367, abs=1e-3)
    z = S.two_proportion(40, 100, 60, 100)
    assert z["p"] == pytest.approx(0.00468, abs=1e-4)
    w = S.welch_t([1, 2, 3, 4], [3, 4, 5, 6])
    assert w["mean"] == 2 and w["p"] == pytest.approx(0.0710, abs=1e-3)


def test_summary_counts_shared_wins_as_fractions():
    recs = [{"game": 0, "agents": ["a", "b"], "points": [5, 5], "winners": [0, 1], "sources": {"x": [5, 5]},
             "turns": 3, "decisions": 4, "branching": 2.0, "options_by_turn": [[2, 4], [2, 4]], "lead_changes": 0,
             "notes": {"k": 1}, "triggers": ["t"]},
            {"game": 1, "agents": ["b", "a"], "points": [7, 2], "winners": [0], "sources": {"x": [7, 2]},
             "turns": 5, "decisions": 6, "branching": 3.0, "options_by_turn": [[6, 18]], "lead_changes": 2,
             "notes": {}, "triggers": ["t", "u"]}]
    s = S.summarize(recs)
    assert s["seats"][0]["wins"] == 1.5 and s["seats"][1]["wins"] == 0.5
    assert s["agents"]["b"]["wins"] == 1.5
    assert s["triggers"] == {"t": 2, "u": 1}
    assert s["notes"]["k"]["mean"] == 0.5
    assert s["balance"]["first_seat_advantage"] == pytest.approx(0.25)
    text = "\n".join(S.format_summary(s))
    assert "Wilson" in text and "first-seat advantage" in text
    # options_by_turn starts at turn 0, the setup's decisions, shown on their own
    assert s["branching_by_turn"] == {0: (22 / 8, 8), 1: (2.0, 2)}
    assert "by turn: setup 2.8, 1-1 2.0" in text


def test_branching_bands_keep_the_setup_apart():
    assert S.branching_bands({0: (6.5, 2), 1: (10.0, 3), 2: (12.0, 1)}, bands=1) == [(0, 0, 6.5), (1, 2, 10.5)]
    assert S.branching_bands({1: (10.0, 3), 2: (12.0, 1)}, bands=1) == [(1, 2, 10.5)]


# ---------------- the command line ----------------
def test_simulate_prints_a_summary_and_writes_records(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    assert main(["simulate", "-n", "3", "--players", "2", "--out", str(out), "--plot", str(tmp_path / "plots"),
                 "--no-progress", "--jobs", "1"]) == 0
    text = capsys.readouterr().out
    assert "win rate by seat" in text and "branching" in text and "lead changes" in text
    header, recs = _records(out)
    assert header["format"] == "nordlang-sim/1" and header["config"]["players"] == 2
    assert sorted(r["game"] for r in recs) == [0, 1, 2]
    for name in ("points.svg", "length.svg", "sources.svg", "margin.svg"):
        root = ET.parse(tmp_path / "plots" / name).getroot()
        assert root.tag.endswith("svg")


def test_same_seed_same_results_from_the_cli(tmp_path, capsys):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    args = ["simulate", "-n", "3", "--players", "2", "--seed", "9", "--no-progress"]
    assert main(args + ["--out", str(a), "--jobs", "1"]) == 0
    assert main(args + ["--out", str(b), "--jobs", "2"]) == 0
    assert _same(_records(a)[1], _records(b)[1])


def test_resume_plays_only_the_missing_games(tmp_path, capsys):
    full, part = tmp_path / "full.jsonl", tmp_path / "part.jsonl"
    args = ["simulate", "-n", "4", "--players", "2", "--seed", "2", "--no-progress", "--jobs", "1"]
    assert main(args + ["--out", str(full)]) == 0
    lines = full.read_text().splitlines(keepends=True)
    part.write_text("".join(lines[:3]) + lines[3][: len(lines[3]) // 2])   # header, 2 games, a cut line
    assert main(args + ["--out", str(part), "--resume"]) == 0
    header, recs = _records(part)
    assert len(recs) == 4
    assert _same(recs, _records(full)[1])
    assert "4 games" in capsys.readouterr().out
    recs2, _ = read_results(part)
    assert sorted(recs2) == [0, 1, 2, 3]


def _one_error_line(capsys):
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


@pytest.mark.parametrize("extra, needle", [
    (["--agents", "nosuch"], "unknown agent"),
    (["--agents", "mcts:nosuch=1"], "no parameter"),
    (["--agents", "random,mcts:playouts=x"], "must be int"),
    (["--variant", "no-such-variant-name"], "unknown variant"),
    (["--out", "/no/such/folder/r.jsonl"], "does not exist"),
    (["--players", "9"], "players"),
    (["--resume"], "--resume needs --out"),
])
def test_bad_input_is_one_line_and_exit_2(extra, needle, capsys, tmp_path):
    assert main(["simulate", "-n", "2", "--players", "2", "--no-progress"] + extra) == 2
    line = _one_error_line(capsys)
    assert needle in line


@pytest.mark.parametrize("args", [["simulate", "-n", "2", "--max-decisions", "0"], ["validate", "--players", "0"],
                                  ["validate", "--turn-cap", "0"]])
def test_a_count_of_zero_is_refused_not_read_as_the_default(args, capsys):
    with pytest.raises(SystemExit) as e:
        main(args)
    assert e.value.code == 2
    assert "0 must be at least 1" in capsys.readouterr().err


def test_a_variant_that_fails_validation_is_exit_2(tmp_path, capsys):
    bad = tmp_path / "broken.yaml"
    bad.write_text(BROKEN)
    assert main(["simulate", "-n", "2", "--players", "2", "--no-progress", "--variant", str(bad),
                 "--out", str(tmp_path / "r.jsonl")]) == 2
    assert "no_such_step" in _one_error_line(capsys)
    assert not (tmp_path / "r.jsonl").exists()


NO_EVALUATION = """\
description: >
  Test variant without an evaluation.
extends: nord
patch:
  result:
    evaluation: null
"""


def test_a_search_agent_without_an_evaluation_is_exit_2(tmp_path, capsys):
    v = tmp_path / "noeval.yaml"
    v.write_text(NO_EVALUATION)
    assert main(["simulate", "-n", "2", "--players", "2", "--agents", "mcts", "--no-progress", "--variant",
                 str(v)]) == 2
    assert "result.evaluation" in _one_error_line(capsys)


def test_an_unreachable_scheduler_is_exit_2(capsys):
    pytest.importorskip("distributed")
    t = time.perf_counter()
    assert main(["simulate", "-n", "2", "--players", "2", "--no-progress", "--scheduler", "tcp://127.0.0.1:9",
                 "--scheduler-timeout", "1"]) == 2
    assert _one_error_line(capsys) == ("error: could not reach the Dask scheduler at tcp://127.0.0.1:9 within 1 s: "
                                       "connection refused")
    assert time.perf_counter() - t < 30


def test_resuming_another_configuration_is_exit_2(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    assert main(["simulate", "-n", "2", "--players", "2", "--seed", "1", "--no-progress", "--jobs", "1",
                 "--out", str(out)]) == 0
    before = out.read_text()
    capsys.readouterr()
    assert main(["simulate", "-n", "3", "--players", "2", "--seed", "2", "--no-progress", "--out", str(out),
                 "--resume"]) == 2
    assert "another configuration" in _one_error_line(capsys)
    assert out.read_text() == before
    assert main(["simulate", "-n", "3", "--players", "2", "--seed", "1", "--agents", "greedy", "--no-progress",
                 "--out", str(out), "--resume"]) == 2
    assert "agents" in _one_error_line(capsys)


def _edit_record(lines, i, key, value):
    rec = json.loads(lines[i])
    if value is _DROP:
        rec.pop(key)
    else:
        rec[key] = value
    lines[i] = json.dumps(rec) + "\n"


_DROP = object()


@pytest.mark.parametrize("edit, needle", [
    (lambda ls: _edit_record(ls, 1, "game", "x"), "line 2 is not a game record of nord simulate ('game' is \"x\")"),
    (lambda ls: _edit_record(ls, 1, "game", -1), "line 2 is not a game record of nord simulate (game number -1)"),
    (lambda ls: _edit_record(ls, 1, "points", _DROP), "line 2 is not a game record of nord simulate (no 'points')"),
    (lambda ls: _edit_record(ls, 1, "agents", 5), "line 2 is not a game record of nord simulate ('agents' is 5)"),
    (lambda ls: _edit_record(ls, 1, "points", [1]), "'points' is not one number for each of the 2 players"),
    (lambda ls: ls.insert(1, "[1, 2]\n"), "line 2 is not a game record of nord simulate (not a JSON object)"),
    (lambda ls: _edit_record(ls, 0, "config", "x"), "not a simulation results file (its header has no configuration)"),
    (lambda ls: ls.__setitem__(0, "garbage\n"), "not a simulation results file (its first line is not JSON)"),
], ids=["game-text", "game-negative", "no-points", "agents-number", "points-short", "not-an-object",
        "config-text", "header-garbage"])
def test_resuming_an_edited_results_file_is_exit_2(tmp_path, capsys, edit, needle):
    out = tmp_path / "r.jsonl"
    args = ["simulate", "-n", "3", "--players", "2", "--seed", "1", "--no-progress", "--jobs", "1", "--out", str(out)]
    assert main(args[:2] + ["2"] + args[3:]) == 0
    lines = out.read_text().splitlines(keepends=True)
    edit(lines)
    out.write_text("".join(lines))
    capsys.readouterr()
    assert main(args + ["--resume"]) == 2
    assert needle in _one_error_line(capsys)
    assert out.read_text() == "".join(lines)            # the file is left as it was


def test_resuming_with_another_decision_limit_is_exit_2(tmp_path, capsys):
    """Games that failed under a low --max-decisions must not be kept by a run with another limit."""
    out = tmp_path / "r.jsonl"
    args = ["simulate", "-n", "2", "--players", "2", "--seed", "1", "--no-progress", "--jobs", "1", "--out", str(out)]
    assert main(args + ["--max-decisions", "5"]) == 1
    capsys.readouterr()
    assert main(args + ["--resume"]) == 2
    assert "max_decisions 5 there, 100000 now" in _one_error_line(capsys)


def test_compare_two_variants(tmp_path, capsys):
    calm = tmp_path / "calm.yaml"
    calm.write_text(CALM)
    assert main(["compare", "-n", "3", "--players", "2", "--variant-b", str(calm), "--no-progress",
                 "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "paired t" in out and "two-proportion" in out
    row = next(x for x in out.splitlines() if x.strip().startswith("turns"))
    assert re.search(r"(significant|no significant difference|not enough)", row)
    # a metric named after the rulebook's words is shown whole, however long
    assert re.search(r"^  share of triggers: after the last scoring +\d", out, re.M)


def test_compare_of_a_side_whose_games_fail_says_why_and_exits_1(tmp_path, capsys):
    broken = tmp_path / "broken.yaml"
    broken.write_text("description: text added to a number\nextends: nord\npatch:\n  define:\n"
                      "    warrior_points(n): 'n * n + \"x\"'\n")
    assert main(["compare", "-n", "2", "--players", "2", "--variant-b", str(broken), "--no-progress",
                 "--jobs", "1"]) == 1
    out = capsys.readouterr().out
    assert "0 games on the same seeds (failed: A 0, B 2)" in out
    assert "no game ended on both sides: nothing to compare" in out
    assert f"B: error: {broken}:5:25: wrong kind of value: cannot use + on a number and a text" in out


def test_compare_help_documents_the_sides(capsys):
    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    out = capsys.readouterr().out
    assert "--variant-b" in out and "--agents-a" in out and "paired" in out


def test_compare_rejects_a_bad_side_before_playing(capsys):
    assert main(["compare", "-n", "2", "--players", "2", "--agents-b", "nosuch", "--no-progress"]) == 2
    assert "unknown agent" in _one_error_line(capsys)


def test_python_m_nordlang_simulate(tmp_path):
    out = tmp_path / "r.jsonl"
    p = subprocess.run([sys.executable, "-m", "nordlang", "simulate", "-n", "4", "--players", "2", "--jobs", "2",
                        "--out", str(out)], capture_output=True, text=True, env=ENV, cwd=tmp_path, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "win rate by seat" in p.stdout
    assert "4/4 games" in p.stderr          # the progress bar, with rate and time left
    assert "games/s" in p.stderr and "left" in p.stderr
    assert len(_records(out)[1]) == 4


def test_ctrl_c_keeps_the_finished_games(tmp_path):
    out = tmp_path / "r.jsonl"
    p = subprocess.Popen([sys.executable, "-m", "nordlang", "simulate", "-n", "200", "--players", "2", "--jobs",
                          "1", "--out", str(out), "--no-progress"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=ENV, cwd=tmp_path,
                         # as typed at a terminal, even when these tests run in the background
                         # (where a shell starts them with Ctrl-C ignored)
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.time() + 60
    while time.time() < deadline:
        if out.exists() and len(out.read_text().splitlines()) >= 3:
            break
        time.sleep(0.1)
    p.send_signal(signal.SIGINT)
    stdout, stderr = p.communicate(timeout=60)
    assert p.returncode == 130, stderr
    assert "interrupted" in stderr and "--resume" in stderr
    header, recs = _records(out)
    assert len(recs) >= 2
    assert "win rate by seat" in stdout


# ---------------- the engine stays generic ----------------
WORDS = ["jarl", "warrior", "settlement", "treasure", "dragon", "karst", "forest", "mountain", "fishing",
         "negotiator", "attack", "alliance"]
MINE = ["nordlang/agents/mcts.py", "nordlang/cli/simulate.py", "nordlang/cli/compare.py"] + \
       [str(p.relative_to(ROOT)) for p in (ROOT / "nordlang" / "sim").glob("*.py")]


@pytest.mark.parametrize("path", sorted(MINE))
def test_no_game_words_in_the_engine(path):
    text = (ROOT / path).read_text().lower()
    found = [w for w in WORDS if w in text]
    assert not found, f"{path} names {found}"


def test_nan_guard():
    assert math.isnan(S.t_two_sided(float("nan"), 3))


def test_a_summary_names_failed_games_errors_and_says_when_it_shows_only_some():
    failed = [{"error": f"turn {i}: cannot take 1 man from supply", "seed": i} for i in range(7)]
    lines = S.format_summary(S.summarize([failed[0], failed[0]]))
    assert lines[:2] == ["games: 0  (failed: 2)", "  error: turn 0: cannot take 1 man from supply"]
    assert len(lines) == 2
    lines = S.format_summary(S.summarize(failed))
    assert sum(ln.startswith("  error: ") for ln in lines) == 5
    assert "  ... and 2 other error(s): every failed game's error is in the --out records" in lines
