"""The page's server within the limits of input: every malformed request
is a 4xx with a JSON message (never a 500), an agent step returns within
its bound whatever budget a seat names, and a client that announces a body
and never sends it is answered 408 instead of holding a worker."""

from __future__ import annotations

import socket
import time
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
pytest.importorskip("httpx", reason="httpx (the test client's) is not installed")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from nordlang.limits import MAX_BODY  # noqa: E402
from nordlang.web import app as web_app  # noqa: E402
from nordlang.web import create_app, sessions  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app([ROOT / "tests" / "replays", ROOT / "variants"], "tictactoe"),
                      raise_server_exceptions=False)


@pytest.fixture()
def game_id(client):
    r = client.post("/api/games", json={"game": "tictactoe", "seats": ["human", "random"], "seed": 3})
    assert r.status_code == 201, r.text
    return r.json()["id"]


@pytest.mark.parametrize("body, error", [
    (b"[" * 100_000, "the request body: the JSON nests 100000 levels deep, past the limit of 100"),
    (b'{"move": "place \\ud800"}', "the request body: the JSON holds a character that is not valid Unicode"),
    (b'{"move": "place a' + b"1" * 5000 + b'"}', "is not one of the 9 options"),
    (b'{"index": ' + b"9" * 5000 + b"}", "the request body: a number of 5000 digits is past the limit of 100"),
    (b"\xff\xfe", "the request body is not JSON"),
])
def test_malformed_moves_are_400_with_a_message(client, game_id, body, error):
    r = client.post(f"/api/games/{game_id}/move", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400 and error in r.json()["error"]


def test_a_body_past_the_limit_is_refused_by_its_announced_size(client, game_id):
    r = client.post(f"/api/games/{game_id}/move", content=b" " * (MAX_BODY + 1),
                    headers={"content-type": "application/json"})
    assert r.status_code == 400 and f"at most {MAX_BODY} are taken" in r.json()["error"]


def test_a_new_game_with_a_seed_past_the_limit_is_400(client):
    r = client.post("/api/games", content=b'{"game": "hex", "seed": ' + b"9" * 5000 + b"}",
                    headers={"content-type": "application/json"})
    assert r.status_code == 400 and "5000 digits" in r.json()["error"]


def test_an_agent_step_returns_within_its_bound_whatever_the_seat_asks(client, monkeypatch):
    """mcts:playouts=100000 took 23 s a decision; on the page each decision
    stops at AGENT_SECONDS and a request begins none after REQUEST_SECONDS."""
    monkeypatch.setattr(sessions, "AGENT_SECONDS", 0.3)
    monkeypatch.setattr(sessions, "REQUEST_SECONDS", 1.0)
    r = client.post("/api/games", json={"game": "nord", "players": 2, "seed": 1,
                                        "seats": ["mcts:playouts=100000", "mcts:playouts=100000"]})
    assert r.status_code == 201, r.text
    t = time.monotonic()
    r = client.post(f"/api/games/{r.json()['id']}/agent", json={"steps": 50})
    took = time.monotonic() - t
    assert r.status_code == 200, r.text
    made = r.json().get("made", None)
    assert took < 1.0 + 0.3 + 3.0           # the bound, and a busy machine's slack (each decision's setup)
    if made is not None:
        assert 1 <= made < 50


def test_the_page_agents_search_as_anywhere_when_their_budget_ends_first():
    """(the ceiling changes nothing of a search that ends before it: the same choice as without)"""
    import nordlang
    from nordlang.agents.base import make_agent
    g = nordlang.load("nord", 2, seed=4)
    for _ in range(6):
        g.play_index(0)
    plain = make_agent("mcts:playouts=40", 9).choose(g.clone())
    capped = sessions.page_agent("mcts:playouts=40", 9)
    assert capped.time_cap == sessions.AGENT_SECONDS
    assert capped.choose(g.clone()) == plain


def test_a_client_that_never_sends_its_body_gets_408(monkeypatch):
    from browser_support import start_server
    pytest.importorskip("uvicorn", reason="the web extra (starlette, uvicorn) is not installed")
    monkeypatch.setattr(web_app, "BODY_SECONDS", 0.5)
    url, stop = start_server(create_app([ROOT / "tests" / "replays"], "tictactoe"))
    try:
        port = int(url.rsplit(":", 1)[1].strip("/"))
        with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
            s.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
                      b"content-length: 100\r\n\r\n{\"game\"")
            t = time.monotonic()
            answer = _response(s)
            assert time.monotonic() - t < 15
        assert answer.startswith("HTTP/1.1 408") and "did not come within 0.5 s" in answer
    finally:
        stop()


def _response(sock) -> str:
    """An HTTP response read whole: its head, then as many bytes as its content-length says (they may
    come in segments of their own)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                   if line.lower().startswith(b"content-length:")), 0)
    while len(body) < length:
        chunk = sock.recv(4096)
        if not chunk:
            break
        body += chunk
    return (head + b"\r\n\r\n" + body).decode()
