"""The web server's endpoints (through Starlette's TestClient): every
endpoint, unknown ids, refused moves, paths outside the served folders,
bad bodies, concurrent games, and `nord serve`'s own errors."""

from __future__ import annotations

import json
import threading
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
from nordlang.web.sessions import MAX_AGENT_STEPS, Store  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = ROOT / "tests" / "replays"
VARIANTS = ROOT / "variants"


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app([REPLAYS, VARIANTS], "tictactoe"), raise_server_exceptions=False)


def new(client, **body):
    r = client.post("/api/games", json={"game": "tictactoe", "seats": ["human", "random"], "seed": 3, **body})
    assert r.status_code == 201, r.text
    return r.json()


def test_the_page_and_its_files(client):
    r = client.get("/")
    assert r.status_code == 200 and "<title>nord serve</title>" in r.text
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/static/../app.py").status_code == 404
    r = client.get("/no/such/page")
    assert r.status_code == 404 and r.json() == {"error": "Not Found"}


def test_catalog_lists_every_bundled_game_and_the_agents(client):
    c = client.get("/api/catalog").json()
    assert [g["name"] for g in c["games"]] == ["connect-four", "goofspiel", "hex", "kuhn-poker", "nord", "pig",
                                              "tictactoe", "vikings"]
    nord = next(g for g in c["games"] if g["name"] == "nord")
    assert (nord["min"], nord["max"], nord["default"]) == (2, 4, 3) and "short-game" in nord["variants"]
    assert c["agents"][0] == "human" and "random" in c["agents"] and c["default_game"] == "tictactoe"


@pytest.mark.parametrize("game", ["connect-four", "goofspiel", "hex", "kuhn-poker", "nord", "pig", "tictactoe",
                                  "vikings"])
def test_every_game_plays_to_a_view_with_its_options_and_picture(client, game):
    v = new(client, game=game, seats=["random", "random"], players=2)
    assert v["seat"] == "agent" and v["svg"].startswith("<svg") and v["decision"]["options"]
    assert len(v["decision"]["parts"]) == len(v["decision"]["options"])
    v = client.post(f"/api/games/{v['id']}/agent", json={"steps": 5}).json()
    assert v["decisions"] == 5 or (v["over"] and v["result"])       # (a hand of Kuhn poker may end sooner)
    assert len(v["log"]) >= v["decisions"] and v["can_undo"]


def test_a_game_by_moves_undo_explain_and_its_replay(client, tmp_path):
    v = new(client)
    sid = v["id"]
    assert v["decision"] == {"choice": "place", "player": "red", "options": ["a1", "b1", "c1", "a2", "b2", "c2", "a3",
                                                                               "b3", "c3"],
                             "parts": [[s] for s in ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]]}
    v = client.post(f"/api/games/{sid}/move", json={"move": "place b2"}).json()
    assert v["seat"] == "agent" and v["marks"][0] == "b2" and v["log"][-1] == "  red      place b2"
    r = client.post(f"/api/games/{sid}/move", json={"move": "place a1"})
    assert r.status_code == 409 and r.json() == {"error": "blue is played by an agent: ask it to move"}
    v = client.post(f"/api/games/{sid}/agent").json()
    assert v["decisions"] == 2 and v["seat"] == "human"
    r = client.post(f"/api/games/{sid}/agent")
    assert r.status_code == 409 and r.json()["error"] == "red is a human seat: choose a move"
    why = client.get(f"/api/games/{sid}/explain", params={"move": "place b2"}).json()
    assert why["legal"] is False and why["lines"][-1].endswith("b2 holds mark:red")
    free = v["decision"]["options"][0]
    why = client.get(f"/api/games/{sid}/explain", params={"move": f"place {free}"}).json()
    assert why["legal"] is True and why["lines"][1] == "it would do:"
    assert client.get(f"/api/games/{sid}").json()["decisions"] == 2          # a reload finds it
    r = client.get(f"/api/games/{sid}/replay")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    lines = r.text.splitlines()
    assert json.loads(lines[0])["agents"] == ["human", "random"] and json.loads(lines[1])["move"] == "place b2"
    assert json.loads(lines[-1])["unfinished"] is True
    (tmp_path / "g.jsonl").write_text(r.text)
    assert main(["replay", str(tmp_path / "g.jsonl")]) == 0            # the saved game replays
    v = client.post(f"/api/games/{sid}/undo").json()
    assert v["decisions"] == 0 and v["seat"] == "human" and not v["can_undo"]
    r = client.post(f"/api/games/{sid}/undo")
    assert r.status_code == 409 and r.json()["error"] == "nothing to undo: no decision has been taken"


@pytest.mark.parametrize("body, status, error", [
    ({"move": "place a1,"}, 400, None),
    ({"move": "place z9"}, 400, "place z9 is not allowed by the rule at"),
    ({"move": "drop 3"}, 400, "drop 3 is not allowed: the pending choice is 'place', not 'drop'"),
    ({"move": 7}, 400, "'move' must be a text"),
    ({}, 400, "the request needs 'move'"),
])
def test_bad_moves_are_4xx_json(client, body, status, error):
    sid = new(client)["id"]
    r = client.post(f"/api/games/{sid}/move", json=body)
    assert r.status_code == status and r.headers["content-type"] == "application/json"
    assert "Traceback" not in r.text
    if error:
        assert r.json()["error"].startswith(error)
    assert client.get(f"/api/games/{sid}").json()["decisions"] == 0        # nothing changed


@pytest.mark.parametrize("body, error", [
    ({"game": "chess"}, "no bundled game 'chess'"),
    ({"game": "tictactoe", "variants": ["../../etc/passwd"]}, "tictactoe has no variant '../../etc/passwd'"),
    ({"game": "nord", "players": 9, "seats": ["human"] * 9}, "this rulebook is for 2 to 4 players, not 9"),
    ({"seats": ["human"]}, "1 seats named for 2 players"),
    ({"seats": ["human", "wizard"]}, "unknown agent 'wizard'"),
    ({"seed": "x"}, "'seed' must be a whole number, not \"x\""),
    ({"seed": -1}, None),
    ({"variants": "swap"}, "'variants' must be a list of texts"),
])
def test_bad_new_games_are_400(client, body, error):
    r = client.post("/api/games", json={"seats": ["human", "random"], **body})
    assert r.status_code == 400, r.text
    if error:
        assert r.json()["error"] == error


def test_bodies_that_are_no_json_object_are_400(client):
    assert client.post("/api/games", content=b"{nope").json() == {"error": "the request body is not JSON"}
    r = client.post("/api/games", content=b"[1]")
    assert r.status_code == 400 and r.json() == {"error": "the request body is a JSON object"}


@pytest.mark.parametrize("url, method", [
    ("/api/games/0123456789abcdef", "GET"), ("/api/games/nope/move", "POST"), ("/api/games/nope/agent", "POST"),
    ("/api/games/nope/undo", "POST"), ("/api/games/nope/explain?move=place%20a1", "GET"),
    ("/api/games/nope/replay", "GET"), ("/api/replays/nope", "GET"), ("/api/replays/nope/explain", "GET"),
    ("/api/scenarios/nope", "GET"), ("/api/scenarios/nope/explain", "GET"),
])
def test_unknown_ids_are_404(client, url, method):
    r = client.request(method, url, json={"move": "place a1"} if method == "POST" else None)
    assert r.status_code == 404
    assert r.json()["error"].startswith("no ") and "with id" in r.json()["error"]


def test_a_game_id_is_no_replay_id(client):
    sid = new(client)["id"]
    r = client.get(f"/api/replays/{sid}")
    assert r.status_code == 404 and r.json()["error"].startswith(f"no replay with id '{sid}'")


def test_agent_steps_are_bounded(client):
    sid = new(client, seats=["random", "random"])["id"]
    r = client.post(f"/api/games/{sid}/agent", json={"steps": MAX_AGENT_STEPS + 1})
    assert r.status_code == 400 and r.json()["error"] == f"steps must be from 1 to {MAX_AGENT_STEPS}, not 51"
    v = client.post(f"/api/games/{sid}/agent", json={"steps": MAX_AGENT_STEPS}).json()
    assert v["over"] and v["decisions"] <= 9 and v["result"] is not None


def test_files_listing_and_paths_outside_the_served_folders(client):
    files = client.get("/api/files").json()
    assert files["folders"] == [str(REPLAYS), str(VARIANTS)]
    assert {"folder": 0, "path": "nord-2p.jsonl"} in files["replays"]
    assert {"folder": 1, "path": "tictactoe/scenarios/draw.yaml"} in files["scenarios"]
    assert not any(f["path"].endswith("swap.yaml") and "scenarios" not in f["path"] for f in files["scenarios"])
    for body in ({"folder": 1, "path": "../README.md"}, {"folder": 1, "path": "/etc/passwd"},
                 {"folder": 0, "path": "../../pyproject.toml"}, {"folder": 2, "path": "x.yaml"},
                 {"folder": 1, "path": "tictactoe/../../rulebook/hex/hex.yaml"}):
        for kind in ("replays", "scenarios"):
            r = client.post(f"/api/{kind}", json=body)
            assert r.status_code == 403, (kind, body, r.text)
    r = client.post("/api/replays", json={"folder": 0, "path": "missing.jsonl"})
    assert r.status_code == 404 and r.json()["error"] == "no such file in served folder 0: missing.jsonl"
    r = client.post("/api/scenarios", json={"folder": 1})
    assert r.status_code == 400 and r.json()["error"] == "the request needs 'path'"


def test_a_link_out_of_a_served_folder_is_refused(tmp_path):
    inside = tmp_path / "served"
    inside.mkdir()
    (tmp_path / "secret.jsonl").write_text("{}\n")
    (inside / "link.jsonl").symlink_to(tmp_path / "secret.jsonl")
    c = TestClient(create_app([inside]))
    r = c.post("/api/replays", json={"folder": 0, "path": "link.jsonl"})
    assert r.status_code == 403 and r.json()["error"] == "'link.jsonl' is outside the served folder 0"


def test_a_replay_steps_with_its_events_marked(client):
    v = client.post("/api/replays", json={"folder": 0, "path": "nord-2p.jsonl"}).json()
    n = len(v["steps"]) - 1
    decisions = len((REPLAYS / "nord-2p.jsonl").read_text().splitlines()) - 2     # (header and footer)
    assert v["step"] == 0 and n == decisions and v["info"]["finished"] and v["title"] == "replays/nord-2p.jsonl"
    s2 = client.get(f"/api/replays/{v['id']}", params={"step": 2}).json()
    assert s2["steps"][2]["label"] == s2["step_log"][0].split(None, 1)[1].strip()
    assert s2["marks"] and s2["svg"] != v["svg"]
    last = client.get(f"/api/replays/{v['id']}", params={"step": n}).json()
    assert last["over"] and last["result"]["winners"] == ["blue"]
    for bad, error in ((str(n + 1), f"step {n + 1} is out of range: this replay has steps 0 to {n}"),
                       ("-1", f"step -1 is out of range: this replay has steps 0 to {n}"),
                       ("two", "'step' must be a whole number, not 'two'")):
        r = client.get(f"/api/replays/{v['id']}", params={"step": bad})
        assert r.status_code == 400 and r.json()["error"] == error
    why = client.get(f"/api/replays/{v['id']}/explain", params={"step": 0, "move": "play none"}).json()
    assert why["legal"] is True


def test_an_uploaded_replay_and_a_broken_one(client):
    text = (REPLAYS / "nord-2p.jsonl").read_text()
    v = client.post("/api/replays", json={"text": text, "name": "mine.jsonl"}).json()
    assert v["title"] == "mine.jsonl" and len(v["steps"]) == len(text.splitlines()) - 1     # (start, each decision)
    broken = text.replace('"place ', '"place z', 1)
    r = client.post("/api/replays", json={"text": broken, "name": "../../mine.jsonl"})
    assert r.status_code == 400 and "no longer fits the rules" in r.json()["error"]
    assert r.json()["where"].startswith("mine.jsonl:")
    r = client.post("/api/replays", json={"text": None})
    assert r.status_code == 400 and r.json() == {"error": "the request needs 'text'"}
    r = client.post("/api/replays", json={"text": "not json\n", "name": "x.jsonl"})
    assert r.status_code == 400 and r.json()["where"].startswith("x.jsonl:1")


def test_a_scenario_shows_each_expectation_at_its_step(client):
    v = client.post("/api/scenarios", json={"folder": 1, "path": "tictactoe/scenarios/diagonal-win.yaml"}).json()
    assert [(s["label"], s["passed"]) for s in v["steps"]] == [
        ("position", None), ("expect: holds", True), ("place b2", None),
        ("expect at the end: over, winner, holds", True)]
    end = client.get(f"/api/scenarios/{v['id']}", params={"step": 3}).json()
    assert end["passed"] is True and end["failures"] == [] and end["result"]["winners"] == ["red"]


def test_a_failing_scenario_fails_at_its_step(tmp_path):
    src = (VARIANTS / "tictactoe" / "scenarios" / "diagonal-win.yaml").read_text()
    (tmp_path / "wrong.yaml").write_text(src.replace("winner: [red]", "winner: [blue]"))
    (tmp_path / "broken.yaml").write_text(src.replace("place b2", "place q9"))
    c = TestClient(create_app([tmp_path]))
    v = c.post("/api/scenarios", json={"folder": 0, "path": "wrong.yaml"}).json()
    assert [s["passed"] for s in v["steps"]] == [None, True, None, False]
    end = c.get(f"/api/scenarios/{v['id']}", params={"step": 3}).json()
    assert end["failures"] == [f"{tmp_path.name}/wrong.yaml:15:11: winner\n      expected: [blue]\n"
                               "      actual:   [red]"]          # (the file as the page names it)
    v = c.post("/api/scenarios", json={"folder": 0, "path": "broken.yaml"}).json()
    assert v["steps"][-1]["passed"] is False and v["steps"][-1]["label"] == "place q9"


def test_concurrent_games_keep_apart():
    client = TestClient(create_app([REPLAYS]))
    ids = [new(client, seed=s, seats=["random", "random"])["id"] for s in range(6)]
    errors = []

    def play(sid):
        try:
            for _ in range(9):
                r = client.post(f"/api/games/{sid}/agent")
                if r.status_code == 409:
                    break
                assert r.status_code == 200, r.text
        except AssertionError as e:  # (collected: an assertion in a thread would pass unseen)
            errors.append(e)

    threads = [threading.Thread(target=play, args=(sid,)) for sid in ids for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    for seed, sid in enumerate(ids):
        v = client.get(f"/api/games/{sid}").json()
        assert v["over"] and v["seed"] == seed
        alone = TestClient(create_app([REPLAYS]))
        w = new(alone, seed=seed, seats=["random", "random"])
        w = alone.post(f"/api/games/{w['id']}/agent", json={"steps": 9}).json()
        assert v["log"] == w["log"]          # the same game as played alone: no interference


def test_the_store_drops_the_oldest_session():
    client = TestClient(create_app([REPLAYS], cap=2))
    a, b = new(client)["id"], new(client)["id"]
    client.get(f"/api/games/{a}")            # a used last: b is the oldest
    c = new(client)["id"]
    assert client.get(f"/api/games/{b}").status_code == 404
    assert client.get(f"/api/games/{a}").status_code == 200 and client.get(f"/api/games/{c}").status_code == 200
    with pytest.raises(ValueError, match="a store holds at least one session"):
        Store(0)


def test_nord_serve_bad_arguments(capsys, tmp_path):
    assert main(["serve", "--folder", str(tmp_path / "missing")]) == 2
    assert capsys.readouterr().err.startswith(f"error: no such folder: {tmp_path / 'missing'}")
    assert main(["serve", "--game", "chess"]) == 2
    assert "no bundled game 'chess'" in capsys.readouterr().err
    assert main(["serve", "--port", "70000"]) == 2
    assert "port 70000 is out of range (0 to 65535)" in capsys.readouterr().err
