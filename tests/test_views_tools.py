"""Every tool shows a seated player his own view only: the human seat at the
terminal (`nord play`), the page (`nord serve`'s JSON), `nord render
--seat`, and the seat's log (`nord play --log-for`), which `nord replay`
refuses. Played on Goofspiel (secret bids, a face-down prize deck), Kuhn
poker (a hand seen by its owner) and Nord (treasure tiles face down, hands
seen by their owners)."""

from __future__ import annotations

import io
import json
import re
import sys
import warnings
from pathlib import Path

import pytest

from nordlang.cli import main

ROOT = Path(__file__).resolve().parent.parent
TREASURES = ("axe", "gold", "hammer", "helmet", "goblet", "sword")       # Nord's treasure tiles' tags


def play(monkeypatch, capsys, entries, *args):
    """`nord play` with `entries` as the seated person's input: (status, stdout, stderr)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(e + "\n" for e in entries)))
    status = main(["play", *args])
    out = capsys.readouterr()
    return status, out.out, out.err


def moves_of(log: Path) -> list[dict]:
    return [json.loads(x) for x in log.read_text().splitlines()[1:-1]]


# ---------------------------------------------------------------- the terminal

def test_goofspiel_at_the_terminal_never_shows_the_others_bid_before_it_is_shown(monkeypatch, capsys, tmp_path):
    log = tmp_path / "g.jsonl"
    status, out, err = play(monkeypatch, capsys, ["1"] * 13, "--game", "goofspiel", "--agents", "random,human",
                            "--seed", "11", "--log", str(log))
    assert status == 0, err
    red_bids = [m["move"] for m in moves_of(log) if m["player"] == 0]
    # the screen up to each of blue's prompts: red's bid of that round is a '?', never its card
    screens = out.split("blue> ")[:-1]
    assert len(screens) == 12          # (the 13th bid is forced: nobody is asked)
    for k, screen in enumerate(screens):
        bid = red_bids[k]
        this_round = screen.split(f"turn {k + 1}, red:\n")[-1].splitlines()
        assert "  red      bid ?" in this_round and f"  red      {bid}" not in this_round, (k, bid)
        # the prize deck: how many, never which
        for line in screen.splitlines():
            if line.startswith("prizes:"):
                assert re.fullmatch(r"prizes: \d+ face down \(prize x\d+\)", line), line
    # once both have bid, the bids are shown to all
    assert f"bid shown: red {red_bids[0].split()[1]}, blue " in out
    # blue's own hand and options are shown
    assert "hand(blue): card:1, card:10" in out and "\n   1. 1\n" in out


def test_the_seed_is_kept_from_a_seated_person_until_the_end(monkeypatch, capsys):
    status, out, _ = play(monkeypatch, capsys, ["1"] * 13, "--game", "goofspiel", "--agents", "human,random")
    assert status == 0
    first = out.splitlines()[0]
    assert first.startswith("Goofspiel: 2 players, seed picked, shown at the end") and "seed 1" not in first
    assert re.search(r"^the game's seed was \d+$", out, re.M)


def test_a_game_of_programs_still_prints_the_referees_log(monkeypatch, capsys):
    status, out, _ = play(monkeypatch, capsys, [], "--game", "goofspiel", "--seed", "11")
    assert status == 0 and "bid ?" not in out and out.splitlines()[0].endswith("seed 11, agents random, random")
    assert re.search(r"^  red      bid \d+", out, re.M)


def test_nord_at_the_terminal_shows_the_seat_his_tiles_and_no_one_elses(monkeypatch, capsys):
    status, out, err = play(monkeypatch, capsys, ["1"] * 120, "--game", "nord", "--players", "2",
                            "--agents", "human,random", "--seed", "5")
    assert status in (0, 1), err
    lines = out.splitlines()
    others = [x for x in lines if x.startswith("hand(blue):")]
    mine = [x for x in lines if x.startswith("hand(red):")]
    assert others and mine
    assert all(re.fullmatch(r"hand\(blue\): treasure:\? x\d+|hand\(blue\): treasure:\?", x) for x in others), others
    assert any(t in x for x in mine for t in TREASURES)          # his own tiles, by name
    # the board's legend: the tiles on the stone piles lie face down
    legends = [x for x in lines if re.match(r"^  \S \S", x) and "treasure" in x]
    assert legends and all("treasure:?" in x and not any(t in x for t in TREASURES) for x in legends)
    for x in lines:
        if x.startswith("treasures:"):
            assert re.fullmatch(r"treasures: \d+ face down \(treasure x\d+\)", x), x


def test_kuhn_poker_at_the_terminal_hides_the_others_card(monkeypatch, capsys, tmp_path):
    log = tmp_path / "k.jsonl"
    for seed in range(4):
        status, out, err = play(monkeypatch, capsys, ["1"] * 4, "--game", "kuhn-poker", "--agents", "human,random",
                                "--seed", str(seed), "--log", str(log))
        assert status == 0, err
        # blue's card, from the referee's record (the replay), never on red's screen before the showdown
        from nordlang.cli.replay import open_replay
        _, moves, _, game = open_replay(log)
        blue_card = next(iter(game.state.pools[("hand", 1)]))
        before_end = out.split("final, after")[0]
        shown = [x for x in before_end.splitlines() if x.startswith("hand(blue):")]
        assert shown and all(x == "hand(blue): card:?" for x in shown), shown
        assert any(x.startswith("hand(red): card:") and "?" not in x for x in before_end.splitlines())
        assert f"hand(blue): {game.rules.show_item(blue_card)}" not in before_end


# ---------------------------------------------------------------- the seat's log, replay, render

def test_a_seats_log_is_what_he_saw_and_replay_refuses_it(monkeypatch, capsys, tmp_path):
    log = tmp_path / "g.jsonl"
    status, out, _ = play(monkeypatch, capsys, ["1"] * 13, "--game", "goofspiel", "--agents", "random,human",
                          "--seed", "11", "--log", str(log), "--log-for", "blue")
    assert status == 0
    seat = tmp_path / "g.seat.jsonl"
    assert f"what blue saw written to {seat}" in out
    recs = [json.loads(x) for x in seat.read_text().splitlines()]
    head = recs[0]
    assert head["format"] == "nordlang-seat-log/1" and head["record"] == "seat" and head["seat"] == "blue"
    assert "seed" not in head
    assert json.loads(log.read_text().splitlines()[0])["record"] == "referee"
    red = [r for r in recs if r.get("player") == 0 and "move" in r and not r.get("forced")]
    assert len(red) == 12 and all(r["move"] == "bid ?" for r in red)
    observations = [r["observation"] for r in recs if "observation" in r]
    assert len(observations) == 12 and all("prizes: [prize:?" in o for o in observations)
    assert any(r.get("event", "").startswith("bid shown: red ") for r in recs)
    assert "points" in recs[-1] and "final" not in recs[-1]
    # the referee's record replays; the seat's log is refused, and says why
    assert main(["replay", str(log)]) == 0
    capsys.readouterr()
    assert main(["replay", str(seat)]) == 2
    err = capsys.readouterr().err
    assert "this is the log of what blue saw (written by `nord play --log-for`), not a replay" in err
    assert "hint: replay the referee's record, written by `nord play --log FILE`" in err
    assert main(["render", str(seat), "-o", str(tmp_path / "x.svg")]) == 2
    assert "this is the log of what blue saw" in capsys.readouterr().err


def test_the_seat_log_by_number_and_in_a_file_of_its_own(monkeypatch, capsys, tmp_path):
    seat = tmp_path / "mine.jsonl"
    status, _, _ = play(monkeypatch, capsys, [], "--game", "goofspiel", "--seed", "2", "--log-for", "1",
                        "--seat-log", str(seat))
    assert status == 0 and json.loads(seat.read_text().splitlines()[0])["seat"] == "red"


@pytest.mark.parametrize("args, message", [
    (["--log-for", "green", "--log", "X"], "error: --log-for 'green': no such seat; the seats of Goofspiel with 2 "
                                           "players are red (1), blue (2), by colour or by number from 1\n"),
    (["--log-for", "3", "--log", "X"], "error: --log-for '3': no such seat;"),
    (["--log-for", "bleu", "--log", "X"], "; did you mean blue?"),
    (["--log-for", "blue"], "error: --log-for needs a file to write: give --log FILE (it writes FILE.seat.jsonl "
                            "beside it) or --seat-log FILE"),
    (["--seat-log", "X"], "error: --seat-log names the file --log-for writes: give --log-for SEAT too"),
])
def test_a_bad_seat_for_the_log_is_a_clear_error(monkeypatch, capsys, tmp_path, args, message):
    args = [str(tmp_path / a) if a == "X" else a for a in args]
    status, out, err = play(monkeypatch, capsys, [], "--game", "goofspiel", "--seed", "2", *args)
    assert status == 2 and message in err and "Traceback" not in err
    assert not list(tmp_path.iterdir())


def test_render_draws_one_seats_view(monkeypatch, capsys, tmp_path):
    log = tmp_path / "k.jsonl"
    assert play(monkeypatch, capsys, [], "--game", "kuhn-poker", "--seed", "3", "--log", str(log))[0] == 0
    from nordlang.cli.replay import replay_file
    game, _ = replay_file(log)
    cards = {p: game.rules.show_item(next(iter(game.state.pools[("hand", p)]))) for p in (0, 1)}
    referee, red = tmp_path / "all.svg", tmp_path / "red.svg"
    assert main(["render", str(log), "--turn", "1", "-o", str(referee)]) == 0
    assert main(["render", str(log), "--turn", "1", "--seat", "red", "-o", str(red)]) == 0
    capsys.readouterr()
    both = referee.read_text()
    assert f"{cards[0]} x1 in hand(red)" in both and f"{cards[1]} x1 in hand(blue)" in both
    text = red.read_text()
    assert f"{cards[0]} x1 in hand(red)" in text and "card:? x1 in hand(blue)" in text
    assert f"{cards[1]} x1 in hand(blue)" not in text and "as red sees it" in text
    assert main(["render", str(log), "--seat", "2", "-o", str(red)]) == 0          # (by number)
    assert "as blue sees it" in red.read_text()
    capsys.readouterr()
    assert main(["render", str(log), "--seat", "purple", "-o", str(red)]) == 2
    assert ("error: --seat 'purple': no such seat; the seats of Kuhn poker with 2 players are red (1), blue (2)"
            in capsys.readouterr().err)


# ---------------------------------------------------------------- the page

starlette = pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
pytest.importorskip("httpx", reason="httpx (the test client's) is not installed")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from nordlang.web import create_app  # noqa: E402


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app([ROOT / "tests" / "replays"]), raise_server_exceptions=False)


def new(client, **body):
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def session(client, sid):
    return client.app.state.store.get(sid, "game")


def everything(client, sid) -> str:
    """Every JSON a page may ask of a game, as one text."""
    texts = [client.get(f"/api/games/{sid}").text, client.get(f"/api/games/{sid}/replay").text]
    return "\n".join(texts)


def test_the_page_shows_the_seat_his_own_view_only(client):
    v = new(client, game="goofspiel", seats=["random", "human"], seed=4)
    assert v["viewer"] == "blue" and v["seed"] is None and v["seat"] == "agent"
    sid = v["id"]
    v = client.post(f"/api/games/{sid}/agent", json={"steps": 1}).json()
    red_bid = session(client, sid).game.state.history[-1][3]
    # red has bid: blue sees that he did, not what
    assert v["log"][-1] == "  red      bid ?" and v["marks"] == ["?"]
    assert v["decision"]["player"] == "blue" and v["decision"]["options"]
    assert f"red      bid {red_bid}" not in everything(client, sid)
    r = client.get(f"/api/games/{sid}/replay")
    assert r.status_code == 409 and "it can be saved when the game is over" in r.json()["error"]
    # the prize deck: face down in the picture
    assert not re.search(r"prize:\d+[^<]* in prizes", v["svg"])
    # why: asked on what blue may know, and still answered
    r = client.get(f"/api/games/{sid}/explain", params={"move": f"bid {v['decision']['options'][0]}"})
    assert r.status_code == 200 and r.json()["legal"]
    v = client.post(f"/api/games/{sid}/move", json={"move": f"bid {v['decision']['options'][0]}"}).json()
    assert any(x.startswith(f"    bid shown: red {red_bid}, blue ") for x in v["log"])


def test_an_agents_options_are_not_sent_to_the_page(client):
    v = new(client, game="kuhn-poker", seats=["human", "random"], seed=1)
    sid = v["id"]
    s = session(client, sid)
    blue_card = s.game.rules.show_item(next(iter(s.game.state.pools[("hand", 1)])))
    red_card = s.game.rules.show_item(next(iter(s.game.state.pools[("hand", 0)])))
    assert f"{red_card} x1 in hand(red)" in v["svg"] and "card:? x1 in hand(blue)" in v["svg"]
    v = client.post(f"/api/games/{sid}/move", json={"move": f"{v['decision']['choice']} "
                                                            f"{v['decision']['options'][0]}"}).json()
    if not v["over"]:
        assert v["seat"] == "agent" and v["decision"]["options"] == [] and v["decision"]["hidden"] >= 1
        assert f"{blue_card} x1 in hand(blue)" not in everything(client, sid)


def test_nord_on_the_page_hides_the_others_tiles(client):
    v = new(client, game="nord", players=2, seats=["random", "human"], seed=5)
    sid = v["id"]
    while v["seat"] == "agent":
        v = client.post(f"/api/games/{sid}/agent", json={"steps": 50}).json()
    s = session(client, sid)
    held = [it for it in s.game.state.pools[("hand", 0)]]
    assert held
    svg = v["svg"]
    assert re.search(r"treasure:\? x\d+ in hand\(red\)", svg)
    titles = re.findall(r"<title>([^<]*)</title>", svg)
    red_hand = [t for t in titles if t.endswith("in hand(red)")]
    assert red_hand and all(t.startswith("treasure:?") for t in red_hand), red_hand
    # the stone piles' tiles: face down on the board
    on_board = [t for t in titles if t.split(" x")[0] in TREASURES and " in hand(blue)" not in t
                and " in played" not in t]
    assert not on_board, on_board


def test_a_hot_seat_shows_the_view_of_the_seat_to_move(client):
    v = new(client, game="goofspiel", seats=["human", "human"], seed=2)
    sid = v["id"]
    assert v["viewer"] == "red" and v["decision"]["options"]
    bid = v["decision"]["options"][-1]
    v = client.post(f"/api/games/{sid}/move", json={"move": f"bid {bid}"}).json()
    assert v["viewer"] == "blue" and v["log"][-1] == "  red      bid ?"
    assert f"red      bid {bid}" not in everything(client, sid)


def test_a_replay_on_the_page_is_the_referees_view(client, tmp_path, capsys):
    log = tmp_path / "g.jsonl"
    assert main(["play", "--game", "goofspiel", "--seed", "3", "--log", str(log), "--quiet"]) == 0
    r = client.post("/api/replays", json={"text": log.read_text(), "name": "g.jsonl"})
    assert r.status_code == 201, r.text
    v = client.get(f"/api/replays/{r.json()['id']}", params={"step": 1}).json()
    assert v["viewer"] is None and re.search(r"^  red      bid \d+$", "\n".join(v["log"]), re.M)
    seat = tmp_path / "g.seat.jsonl"
    assert main(["play", "--game", "goofspiel", "--seed", "3", "--log-for", "red", "--seat-log", str(seat)]) == 0
    r = client.post("/api/replays", json={"text": seat.read_text(), "name": "g.seat.jsonl"})
    assert r.status_code == 400 and "this is the log of what red saw" in r.json()["error"]


def test_a_note_names_a_tile_only_to_those_who_saw_where_it_went():
    """Nord notes the tile a worker claims from a stone pile: it goes face down into the claimer's hand."""
    import nordlang
    from nordlang.engine.views import seen_events
    for seed in range(12):
        game = nordlang.load("nord", players=2, seed=seed)
        while not game.over and game.state.turn < 40:
            game.play_index(0)
        claims = [(i, e) for i, e in enumerate(game.state.events) if e[0] == "note" and e[1] == "claims"]
        if claims:
            break
    assert claims
    for _, e in claims:
        claimer, tile = e[2], e[4]
        mine = [x for x in seen_events(game.state, claimer) if x[:4] == e[:4]]
        theirs = [x for x in seen_events(game.state, 1 - claimer) if x[:4] == e[:4]]
        assert mine and all(x[4] == tile for x in mine)
        assert theirs and all(x[4] == ("treasure", "?") for x in theirs)


def test_the_page_offers_no_undo_where_a_take_back_would_not_be_honest():
    """A person may not take back a bid once the bids were shown, nor a move in any game
    with hidden parts or chance; in an open game undo stays."""
    from starlette.testclient import TestClient

    from nordlang.web import create_app
    client = TestClient(create_app([ROOT / "variants"], "tictactoe"))
    v = client.post("/api/games", json={"game": "goofspiel", "seats": ["human", "random"], "players": 2,
                                        "seed": 1}).json()
    v = client.post(f"/api/games/{v['id']}/move", json={"move": "bid " + v["decision"]["options"][0]}).json()
    assert v["can_undo"] is False
    r = client.post(f"/api/games/{v['id']}/undo")
    assert r.status_code == 409 and "would not be honest" in r.json()["error"]
    t = client.post("/api/games", json={"game": "tictactoe", "seats": ["human", "random"], "seed": 1}).json()
    t = client.post(f"/api/games/{t['id']}/move", json={"move": "place a1"}).json()
    assert t["can_undo"] is True and client.post(f"/api/games/{t['id']}/undo").status_code == 200


def test_two_people_at_one_terminal_hand_it_over_between_their_decisions(monkeypatch, capsys):
    """A hot seat at the terminal in a game with hidden parts: before each person's view the
    screen is cleared and he is asked to take the terminal; one person alone is never asked."""
    from nordlang.agents.human import CLEAR
    status, out, err = play(monkeypatch, capsys, ["", "1", "", "2"], "--game", "goofspiel", "--param", "cards=2",
                            "--agents", "human,human", "--seed", "1")
    assert status == 0, err
    assert out.count("pass the terminal to red: press Enter when only red is looking") == 1
    assert out.count("pass the terminal to blue: press Enter when only blue is looking") == 1
    red_view, blue_part = out.split("pass the terminal to blue", 1)
    assert "red chooses bid" in red_view and "blue chooses bid" not in red_view
    assert blue_part.index(CLEAR) < blue_part.index("blue chooses bid")      # red's screen is gone first
    status, out, err = play(monkeypatch, capsys, ["1"], "--game", "goofspiel", "--param", "cards=2",
                            "--agents", "human,random", "--seed", "1")
    assert status == 0 and "pass the terminal" not in out and CLEAR not in out
    # an open game keeps one screen for both
    status, out, err = play(monkeypatch, capsys, ["1", "1", "1", "1", "1"], "--game", "tictactoe",
                            "--agents", "human,human", "--seed", "1")
    assert "pass the terminal" not in out
