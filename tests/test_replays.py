"""Recorded games guard the rules: each replay must reproduce its final
state exactly. A rule change that alters a game fails here until the
recording is renewed on purpose (tests/replays/renew.sh)."""

import json
from pathlib import Path

import pytest

from nordlang.cli import main
from nordlang.cli.replay import replay_file
from nordlang.engine.record import state_digest
from nordlang.errors import ReplayError

REPLAYS = sorted((Path(__file__).parent / "replays").glob("*.jsonl"))


def test_there_are_recordings_for_each_size():
    sizes = {json.loads(p.read_text().splitlines()[0])["players"] for p in REPLAYS}
    assert sizes == {2, 3, 4}


@pytest.mark.parametrize("path", REPLAYS, ids=[p.stem for p in REPLAYS])
def test_replay_reproduces_the_recorded_game(path, capsys):
    game, footer = replay_file(path)
    assert footer["final"] == state_digest(game.state)
    assert list(game.points()) == footer["points"]
    assert game.over
    assert main(["replay", str(path)]) == 0
    assert "replay matches" in capsys.readouterr().out


def test_a_changed_move_is_caught(tmp_path):
    lines = REPLAYS[0].read_text().splitlines()
    rec = json.loads(lines[3])
    rec["move"] = rec["move"].split(" ")[0] + " z99"
    lines[3] = json.dumps(rec)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    with pytest.raises(ReplayError) as e:
        replay_file(bad)
    assert e.value.pos.line == 4


def test_a_changed_rulebook_is_caught(tmp_path):
    lines = REPLAYS[0].read_text().splitlines()
    head = json.loads(lines[0])
    head["rulebook"] = "0000000000000000"
    lines[0] = json.dumps(head)
    bad = tmp_path / "old.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    with pytest.raises(ReplayError) as e:
        replay_file(bad)
    assert "the rules changed" in e.value.message


CUT = "the replay has no last line with its final state: the file was cut short"


def _edited(tmp_path, edit):
    lines = REPLAYS[0].read_text().splitlines()
    edit(lines)
    bad = tmp_path / "edited.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    return bad


def _set(lines, i, key, value):
    rec = json.loads(lines[i])
    rec[key] = value
    lines[i] = json.dumps(rec)


@pytest.mark.parametrize("edit, line, message", [
    (lambda ls: ls.__delitem__(slice(40, None)), "after", CUT),
    (lambda ls: ls.pop(), "after", CUT),
    (lambda ls: _set(ls, -1, "points", [1, 2]), None, "the replay ends with different points (recorded [1, 2]"),
    (lambda ls: _set(ls, -1, "winners", [0, 1]), None, "the replay ends with different winners (recorded [0, 1]"),
    (lambda ls: _set(ls, -1, "turns", 7), None, "the replay ends with different turns (recorded 7"),
    (lambda ls: _set(ls, 3, "player", 1 - json.loads(ls[3])["player"]), 4, "is recorded for "),
    (lambda ls: _set(ls, 0, "players", "two"), 1, "the replay's 'players' is \"two\", not a number of players"),
    (lambda ls: _set(ls, 0, "seed", "x"), 1, "the replay's 'seed' is \"x\", not a whole number"),
    (lambda ls: _set(ls, 0, "variants", "no-storm"), 1, "the replay's 'variants' is \"no-storm\", not a list"),
], ids=["cut-short", "no-last-line", "points", "winners", "turns", "player", "players", "seed", "variants"])
def test_a_replay_cut_short_or_edited_is_caught(tmp_path, capsys, edit, line, message):
    bad = _edited(tmp_path, edit)
    with pytest.raises(ReplayError) as e:
        replay_file(bad)
    assert message in e.value.message
    n = len(bad.read_text().splitlines())
    assert e.value.pos.line == {None: n, "after": n + 1}.get(line, line)     # (the last line, or the one missing)
    assert main(["replay", str(bad)]) == 2
    assert "replay matches" not in capsys.readouterr().out
