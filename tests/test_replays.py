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
