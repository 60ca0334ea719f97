"""The page's server side as a new user meets it (through Starlette's
TestClient): the seat menus offer only the agents a game can use; the
scenario stepper's verdicts are `nord test`'s for every bundled scenario,
branch by branch; a why answer starts with one sentence and names no path
of the server's machine; the file listing is quick and lists no test
fixtures."""

from __future__ import annotations

import re
import time
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
pytest.importorskip("httpx", reason="httpx (the test client's) is not installed")

with warnings.catch_warnings():         # (starlette's note that its client will move from httpx to httpx2)
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from nordlang.cli import main  # noqa: E402
from nordlang.web import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ROOT / "variants"
BUNDLED = sorted(VARIANTS.glob("*/scenarios/**/*.yaml"))
ABSOLUTE = re.compile(r"(?<![\w.])/(?:[\w.-]+/)+[\w.-]+")


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app([VARIANTS], "tictactoe"), raise_server_exceptions=False)


def test_each_game_offers_only_the_agents_it_can_use(client):
    games = {g["name"]: g["agents"] for g in client.get("/api/catalog").json()["games"]}
    without = ["human", "random"]           # (no result.evaluation: greedy and mcts cannot play)
    with_evaluation = ["human", "greedy", "mcts", "random"]
    assert games == {"connect-four": without, "goofspiel": with_evaluation, "hex": without,
                     "kuhn-poker": with_evaluation, "nord": with_evaluation, "pig": with_evaluation,
                     "tictactoe": without, "vikings": with_evaluation}
    for name, agents in games.items():      # every agent offered starts a game; none left out would
        for agent in ["greedy", "mcts"]:
            r = client.post("/api/games", json={"game": name, "players": 2, "seats": ["human", agent], "seed": 1})
            assert (r.status_code == 201) == (agent in agents), (name, agent, r.text)


def nord_test_verdicts(capsys, path) -> dict:
    """{branch (None: the file's script): pass, fail or error} as `nord test PATH` prints them."""
    main(["test", str(path)])
    out = {}
    for line in capsys.readouterr().out.splitlines():
        m = re.match(r"(PASS|FAIL|ERROR) +(\S+)", line)
        if m:
            name = m.group(2)
            out[name.rsplit("::", 1)[1] if "::" in name else None] = m.group(1).lower()
    return out


def page_verdicts(client, rel) -> dict:
    v = client.post("/api/scenarios", json={"folder": 0, "path": rel})
    assert v.status_code == 201, v.text
    v = v.json()
    if not v["branches"]:
        return {None: v["outcome"]}
    out = {}
    for b in v["branches"]:                 # each branch's own timeline says its outcome too
        w = client.get(f"/api/scenarios/{v['id']}", params={"step": 0, "branch": b["name"]}).json()
        assert w["branch"] == b["name"] and w["outcome"] == b["outcome"]
        out[b["name"]] = b["outcome"]
    return out


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.relative_to(VARIANTS).as_posix())
def test_the_stepper_agrees_with_nord_test(client, capsys, path):
    assert page_verdicts(client, path.relative_to(VARIANTS).as_posix()) == nord_test_verdicts(capsys, path)


def test_the_two_attack_merger_cases_pass_step_by_step(client):
    for case in ("attack-merger-case-1", "attack-merger-case-2"):
        v = client.post("/api/scenarios", json={"folder": 0, "path": f"nord/scenarios/{case}.yaml"}).json()
        assert v["outcome"] == "pass" and v["branches"] == []
        assert all(s["passed"] is not False for s in v["steps"])
        assert [s["label"] for s in v["steps"]][:4] == ["position", "expect: holds", "play none", "place c4,d3,d4"]
        assert v["steps"][4] == {"label": "expect: events, choice, player, legal_count, options, holds",
                                 "kind": "expect", "passed": True, "part": None}


def test_branches_are_shown_each_with_its_steps_and_verdict(tmp_path):
    src = (VARIANTS / "nord" / "scenarios" / "placement-1.yaml").read_text()
    wrong = src.replace("hand(red): [goblet, helmet, hammer, gold]", "hand(red): [goblet, helmet, hammer]")
    assert wrong != src
    (tmp_path / "placement.yaml").write_text(wrong)
    c = TestClient(create_app([tmp_path]))
    v = c.post("/api/scenarios", json={"folder": 0, "path": "placement.yaml"}).json()
    assert v["branch"] == "forest" and v["outcome"] == "pass"
    assert v["branches"] == [{"name": "forest", "outcome": "pass"}, {"name": "karst", "outcome": "fail"},
                             {"name": "mountain", "outcome": "pass"}, {"name": "sea", "outcome": "pass"}]
    k = c.get(f"/api/scenarios/{v['id']}", params={"step": 0, "branch": "karst"}).json()
    assert [(s["label"], s["part"], s["passed"]) for s in k["steps"]] == [
        ("position", None, None), ("play none", None, None), ("expect: options", None, True),
        ("expect: legal, illegal", "karst", True), ("place d4", "karst", None),
        ("expect at the end: at, choice, player", "karst", False)]
    end = c.get(f"/api/scenarios/{v['id']}", params={"step": 5, "branch": "karst"}).json()
    assert end["failures"] == [f"{tmp_path.name}/placement.yaml:72:20: pieces at hand(red)\n"
                               "      expected: [goblet, hammer, helmet]\n"
                               "      actual:   [goblet, gold, hammer, helmet]"]
    assert nord_verdict_lines(tmp_path / "placement.yaml") == ["PASS", "FAIL", "PASS", "PASS"]
    r = c.get(f"/api/scenarios/{v['id']}", params={"step": 0, "branch": "lake"})
    assert r.status_code == 400 and r.json()["error"] == ("tmp/placement.yaml has no branch 'lake' (its branches: "
                                                          "forest, karst, mountain, sea)").replace(
        "tmp", tmp_path.name)


def nord_verdict_lines(path) -> list[str]:
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["test", str(path)])
    return [ln.split()[0] for ln in out.getvalue().splitlines() if ln.startswith(("PASS", "FAIL", "ERROR"))]


def test_a_why_answer_is_one_sentence_first_and_names_no_path_of_the_server(client):
    v = client.post("/api/games", json={"game": "tictactoe", "seats": ["human", "random"], "seed": 3}).json()
    client.post(f"/api/games/{v['id']}/move", json={"move": "place b2"})
    v = client.post(f"/api/games/{v['id']}/agent").json()
    free = v["decision"]["options"][0]
    answers = {m: client.get(f"/api/games/{v['id']}/explain", params={"move": m}).json()
               for m in ("place b2", f"place {free}", "place z9", "drop 1")}
    assert answers["place b2"]["sentence"] == "place b2: illegal: 'b2' is not an option of 'place': b2 holds mark:red."
    assert answers[f"place {free}"]["sentence"] == (f"place {free}: legal (red decides 'place'): it would do: "
                                                    f"red place {free}.")
    assert answers["drop 1"]["sentence"] == ("drop 1: illegal: the pending decision is 'place' (red decides), "
                                             "not 'drop'.")
    assert answers["place b2"]["lines"][0] == ("place b2: illegal: 'b2' is not an option of 'place' (rule at "
                                               "rulebook/tictactoe/tictactoe.yaml:42:5)")
    for a in answers.values():
        s = a["sentence"]
        assert s.endswith(".") and "\n" not in s and s.count(". ") == 0, s
        assert not ABSOLUTE.search(s + "\n".join(a["lines"])), a
        assert str(ROOT) not in str(a)
    # on a scenario's step too: a rule the scenario's file changes is named from the served folder
    sc = client.post("/api/scenarios", json={"folder": 0, "path": "nord/scenarios/attack-merger-case-1.yaml"}).json()
    why = client.get(f"/api/scenarios/{sc['id']}/explain", params={"step": 4, "move": "attack C>A"}).json()
    assert why["sentence"].startswith("attack C>A: illegal: 'C>A' is not an option of 'attack'")
    assert not ABSOLUTE.search(why["sentence"] + "\n".join(why["lines"])) and str(ROOT) not in str(why)


def test_errors_name_files_as_the_page_does(tmp_path):
    (tmp_path / "bad.yaml").write_text("description: x\ngame: tictactoe\nplayers: 2\nexpect: {points: {purple: 1}}\n")
    c = TestClient(create_app([tmp_path]))
    r = c.post("/api/scenarios", json={"folder": 0, "path": "bad.yaml"})
    assert r.status_code == 400 and str(tmp_path) not in r.text
    assert r.json()["where"].startswith(f"{tmp_path.name}/bad.yaml:4:")
    assert r.json()["detail"].startswith(f"{tmp_path.name}/bad.yaml:4:")


def test_the_file_listing_is_quick_and_lists_no_test_fixtures(monkeypatch):
    import nordlang.rules.yamlpos

    def no_yaml(*a, **k):
        raise AssertionError("the listing parses no YAML: it tells a file's kind from its top-level keys")
    c = TestClient(create_app([ROOT]))
    assert c.get("/api/catalog").status_code == 200         # (the page asks for it first)
    monkeypatch.setattr(nordlang.rules.yamlpos, "load_yaml", no_yaml)
    start = time.perf_counter()
    files = c.get("/api/files").json()
    took = time.perf_counter() - start
    print(f"/api/files on the whole project: {took * 1000:.0f} ms, {len(files['scenarios'])} scenarios")
    assert took < 2.0           # (a generous bound on a busy machine: some 20-60 ms idle; 1.8 s before)
    paths = [f["path"] for f in files["scenarios"] + files["replays"]]
    assert not [p for p in paths if p.startswith("tests/")]
    assert sorted(p for p in paths if p.startswith("variants/")) == sorted(
        p.relative_to(ROOT).as_posix() for p in BUNDLED)
    assert {p for p in paths if not p.startswith("variants/")} <= {
        p.relative_to(ROOT).as_posix() for p in ROOT.glob("docs/**/*.y*ml")} | {
        p.relative_to(ROOT).as_posix() for p in ROOT.glob("**/*.jsonl") if "tests" not in p.parts}
    # a folder of fixtures served on its own is listed: it was asked for
    fixtures = TestClient(create_app([ROOT / "tests" / "broken" / "scenarios"])).get("/api/files").json()
    assert len(fixtures["scenarios"]) > 20


@pytest.mark.parametrize("moves, ask, sentence", [
    (["play none"], "place d9,c10", "place d9,c10: illegal: 'c10,d9' is not an option of 'place': it lies in 2 "
                                    "regions; at most 1 allowed."),
    (["play none"], "place c3", "place c3: illegal: 'c3' is not an option of 'place': none of its spaces is an "
                                "anchor (anchors: c10,d9,d11,e10)."),
    ([], "play gold", "play gold: illegal: 'gold' is not an option of 'play': the rule offers 'gold', but the turn "
                      "could not go on after it: this choice keeps only options after which the turn can be "
                      "completed (lookahead)."),
    ([], "play none", "play none: legal (red decides 'play'): it would do: red play none."),
])
def test_the_why_sentence_is_the_innermost_reason(moves, ask, sentence):
    """The sentence names where the move fell out of the rule (the deepest reason), not the rule's text."""
    import nordlang
    from nordlang.explain import explain, summary
    g = nordlang.load("nord", players=3, seed=2)
    for m in moves:
        g.play(m)
    assert summary(*explain(g, ask)) == sentence


def test_a_false_condition_is_the_reason_with_its_value(client):
    sc = client.post("/api/scenarios", json={"folder": 0, "path": "nord/scenarios/attack-merger-case-1.yaml"}).json()
    why = client.get(f"/api/scenarios/{sc['id']}/explain", params={"step": 4, "move": "attack B>A"}).json()
    assert why["sentence"] == ("attack B>A: illegal: 'B>A' is not an option of 'attack': warriors(player, a) > 0 "
                               "is false (where a = B): warriors(player, a) = 0.")
    assert why["lines"][0] == ("attack B>A: illegal: 'B>A' is not an option of 'attack' (rule at "
                               "rulebook/nord/turn.yaml:182:11)")


def test_a_scenario_that_cannot_run_on_shows_nord_tests_error_at_its_step(tmp_path):
    (tmp_path / "err.yaml").write_text("description: an expectation that cannot be evaluated\ngame: tictactoe\n"
                                       "players: 2\nmoves:\n  - place b2\n  - expect:\n"
                                       "      holds: ['1 / 0 == 1']\n  - place a1\n")
    assert nord_verdict_lines(tmp_path / "err.yaml") == ["ERROR"]
    c = TestClient(create_app([tmp_path]))
    v = c.post("/api/scenarios", json={"folder": 0, "path": "err.yaml"}).json()
    assert v["outcome"] == "error" and v["branches"] == []
    assert [(s["label"], s["kind"], s["passed"]) for s in v["steps"]] == [
        ("position", "start", None), ("place b2", "move", None), ("error", "error", False)]
    end = c.get(f"/api/scenarios/{v['id']}", params={"step": 2}).json()
    assert end["failures"] == [f"{tmp_path.name}/err.yaml:7:16: error: division by zero\n"
                               "          holds: ['1 / 0 == 1']\n"
                               "                   ^^^^^"]          # (as `nord test` prints it, less its indent)


TURN_ENDS = VARIANTS / "nord" / "scenarios" / "turn-ends-cave-in.yaml"


@pytest.mark.skipif(not TURN_ENDS.exists(), reason="a scenario that stops where turns end (the scenarios branch)")
def test_why_at_a_stop_between_turns_is_asked_of_the_next_turn(client):
    """At a stop where a turn ended, a move is judged as the script's next move would be (the scenario
    package's leave_stop begins the next turn); where that turn ends quietly too, nobody decides: said so."""
    v = client.post("/api/scenarios", json={"folder": 0, "path": "nord/scenarios/turn-ends-cave-in.yaml"}).json()
    assert v["outcome"] == "pass" and [s["label"] for s in v["steps"]][2:5] == [
        "place c2", "expect: choice, events, at, values", "next_turn"]
    at_stop = client.get(f"/api/scenarios/{v['id']}", params={"step": 2}).json()
    assert at_stop["decision"] is None and not at_stop["over"]
    why = client.get(f"/api/scenarios/{v['id']}/explain", params={"step": 2, "move": "play none"}).json()
    # (red's turn ended at the stop; the next, blue's, begun as the script's next move would begin it, ends
    # at once: blue can neither place nor challenge)
    assert why["sentence"] == ("play none: illegal: nobody decides now: the turn of blue has ended and the next has "
                               "not begun (a stop between turns).")
    why = client.get(f"/api/scenarios/{v['id']}/explain", params={"step": 4, "move": "play none"}).json()
    assert why["sentence"] == "play none: legal (red decides 'play'): it would do: red play none."
