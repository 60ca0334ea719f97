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


def _header(path):
    return json.loads(path.read_text().splitlines()[0])


def test_there_are_recordings_for_each_game_and_size():
    recorded = {(_header(p)["game"], _header(p)["players"]) for p in REPLAYS}
    assert recorded == {(g, n) for g in ("nord", "vikings") for n in (2, 3, 4)}
    assert {p.stem for p in REPLAYS} == {f"{g}-{n}p" for g, n in recorded}


@pytest.mark.parametrize("path", REPLAYS, ids=[p.stem for p in REPLAYS])
def test_replay_reproduces_the_recorded_game(path, capsys):
    game, footer = replay_file(path)
    assert game.rules.bundled_name == _header(path)["game"] == path.stem.split("-")[0]
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
    (lambda ls: _set(ls, 0, "players", "two"), 1, "line 1: the header's 'players' is \"two\", not a number of players"),
    (lambda ls: _set(ls, 0, "seed", "x"), 1, "line 1: the header's 'seed' is \"x\", not a whole number, 0 or more"),
    (lambda ls: _set(ls, 0, "variants", "no-storm"), 1, "line 1: the header's 'variants' is \"no-storm\", not a list"),
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


def _drop(lines, i, key):
    rec = json.loads(lines[i])
    del rec[key]
    lines[i] = json.dumps(rec)


def _shift(lines, i, key, by):
    rec = json.loads(lines[i])
    rec[key] += by
    lines[i] = json.dumps(rec)


HEAD, MOVE, LAST = 0, 3, -1            # the header, the third move (line 4), the last line
FIELDS = [
    # the header
    (HEAD, "format", "nordlang-replay/2", 1, "not a nordlang replay (the first line must name format"),
    (HEAD, "rulebook", "c181", 1, "line 1: the header's 'rulebook' is \"c181\", not the rulebook's digest"),
    (HEAD, "rulebook", None, 1, "line 1: the header's 'rulebook' is null, not the rulebook's digest"),
    (HEAD, "seed", -1, 1, "line 1: the header's 'seed' is -1, not a whole number, 0 or more"),
    (HEAD, "seed", True, 1, "line 1: the header's 'seed' is true, not a whole number, 0 or more"),
    (HEAD, "seed", 2.5, 1, "line 1: the header's 'seed' is 2.5, not a whole number, 0 or more"),
    (HEAD, "seed", 2008, 2, "no longer fits the rules"),          # another game: its first move is not offered
    (HEAD, "players", 0, 1, "line 1: the header's 'players' is 0, not a number of players"),
    (HEAD, "players", 3, 3, "no longer fits the rules"),          # 3 players: another island
    (HEAD, "variants", [1], 1, "line 1: the header's 'variants' is [1], not a list of variant names or paths"),
    (HEAD, "variants", ["no-storm"], 1, "the rules changed since"),
    (HEAD, "rulebook_path", 5, 1, "line 1: the header's 'rulebook_path' is 5, not a path or null"),
    (HEAD, "agents", "random", 1, "line 1: the header's 'agents' is \"random\", not a list of agent names"),
    (HEAD, "extra", 1, 1, "line 1: header has an unknown field 'extra'"),
    (HEAD, "-seed", None, 1, "line 1: the header has no 'seed'"),
    (HEAD, "-rulebook", None, 1, "line 1: the header has no 'rulebook'"),
    # a move
    (MOVE, "move", 5, 4, "line 4: the move's 'move' is 5, not a move in text"),
    (MOVE, "move", " ", 4, "line 4: the move's 'move' is \" \", not a move in text"),
    (MOVE, "player", -1, 4, "line 4: the move's 'player' is -1, not a player's number"),
    (MOVE, "player", "0", 4, "line 4: the move's 'player' is \"0\", not a player's number"),
    (MOVE, "player", 9, 4, "move 'play sword' is recorded for 9, but blue is to move"),
    (MOVE, "turn", "1", 4, "line 4: the move's 'turn' is \"1\", not a turn's number"),
    (MOVE, "turn", -1, 4, "line 4: the move's 'turn' is -1, not a turn's number"),
    (MOVE, "+turn", 1, 4, "move 'play sword' is recorded at turn 3, but the game is at turn 2"),
    (MOVE, "+turn", -1, 4, "move 'play sword' is recorded at turn 1, but the game is at turn 2"),
    (MOVE, "note", "hi", 4, "line 4: move has an unknown field 'note'"),
    (MOVE, "-turn", None, 4, "line 4: the move has no 'turn'"),
    (MOVE, "-player", None, 4, "line 4: the move has no 'player'"),
    (MOVE, "-move", None, 4, "line 4 has no move"),
    # the last line
    (LAST, "final", "abc", None, "the last line's 'final' is \"abc\", not the final state's digest"),
    (LAST, "final", "0000000000000000", None, "the replay ends with a different state"),
    (LAST, "turns", -1, None, "the last line's 'turns' is -1, not a number of turns"),
    (LAST, "turns", "34", None, "the last line's 'turns' is \"34\", not a number of turns"),
    (LAST, "points", "30", None, "the last line's 'points' is \"30\", not a list of points"),
    (LAST, "winners", [1.0], None, "the last line's 'winners' is [1.0], not a list of players' numbers"),
    (LAST, "unfinished", True, None, "the replay ends with the game over, but says it is unfinished"),
    (LAST, "unfinished", False, None, "the last line's 'unfinished' is false, not true"),
    (LAST, "extra", 1, None, "last line has an unknown field 'extra'"),
    (LAST, "-turns", None, None, "the last line has no 'turns'"),
]


NAMES = {HEAD: "head", MOVE: "move", LAST: "last"}


@pytest.mark.parametrize("where, key, value, line, message", FIELDS,
                         ids=[f"{NAMES[w]}-{k}-{json.dumps(v)}" for w, k, v, *_ in FIELDS])
def test_every_field_of_every_line_is_checked(tmp_path, capsys, where, key, value, line, message):
    def edit(lines):
        if key.startswith("-"):
            _drop(lines, where, key[1:])
        elif key.startswith("+"):
            _shift(lines, where, key[1:], value)
        else:
            _set(lines, where, key, value)
    bad = _edited(tmp_path, edit)
    with pytest.raises(ReplayError) as e:
        replay_file(bad)
    assert message in e.value.message
    assert e.value.pos.line == (line or len(bad.read_text().splitlines()))
    assert main(["replay", str(bad)]) == 2
    cap = capsys.readouterr()
    assert message in cap.err and "Traceback" not in cap.err and "replay matches" not in cap.out


def _with_header(tmp_path, **fields):
    lines = REPLAYS[0].read_text().splitlines()
    for key, value in fields.items():
        _set(lines, 0, key, value)
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_rulebook_path_in_a_replay_is_never_opened(tmp_path, capsys):
    trap = tmp_path / "trap.yaml"
    trap.write_text("players: [unclosed\n")           # an error if it were read
    path = _with_header(tmp_path, rulebook_path=str(trap))
    assert main(["replay", str(path)]) == 0            # the bundled rulebook matches: the path is only a note
    assert "replay matches" in capsys.readouterr().out
    path = _with_header(tmp_path, rulebook_path="/etc/passwd", rulebook="0123456789abcdef")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert ("error: the replay was recorded with rulebook 0123456789abcdef, which is not the bundled one (" in err
            and "it names '/etc/passwd' as its rulebook (for information: a replay opens no path it names)" in err
            and "hint: if that is the rulebook, replay with --rulebook /etc/passwd" in err)
    assert "root:" not in err


def test_a_variant_file_in_a_replay_is_used_only_when_given(tmp_path, capsys):
    from nordlang import bundled
    mine = tmp_path / "mine.yaml"
    mine.write_text((bundled("variants") / "nord" / "no-storm.yaml").read_text())
    log = tmp_path / "mine.jsonl"
    assert main(["play", "--players", "2", "--seed", "3", "--quiet", "--variant", str(mine), "--log", str(log)]) == 0
    capsys.readouterr()
    mine.write_text("description: [unclosed\n")        # changed behind the replay's back: an error if it were read
    assert main(["replay", str(log)]) == 2
    err = capsys.readouterr().err
    assert f"the replay names the variant '{mine}', which is no bundled variant; a replay opens no file it names" in err
    assert f"hint: if you trust that file, give it yourself: --variant {mine}" in err
    assert main(["replay", str(log), "--variant", "no-storm"]) == 0     # the same rules, bundled
    assert "replay matches" in capsys.readouterr().out
    mine.write_text((bundled("variants") / "nord" / "no-storm.yaml").read_text())
    assert main(["replay", str(log), "--variant", str(mine)]) == 0
    assert main(["render", str(log), "--variant", str(mine), "-o", str(tmp_path / "x.svg")]) == 0


def test_a_bundled_variant_in_a_replay_is_the_bundled_file_not_one_in_the_folder(tmp_path, capsys, monkeypatch):
    log = tmp_path / "storm.jsonl"
    assert main(["play", "--players", "2", "--seed", "3", "--quiet", "--variant", "no-storm", "--log", str(log)]) == 0
    (tmp_path / "no-storm").write_text("description: [unclosed\n")     # a file by the variant's name, here
    monkeypatch.chdir(tmp_path)
    assert main(["replay", str(log)]) == 0
    assert "replay matches" in capsys.readouterr().out


def test_a_replay_of_another_game_says_so(capsys):
    """--game naming another game than the replay's: one line naming both, exit 2."""
    nord = Path(__file__).parent / "replays" / "nord-2p.jsonl"
    assert main(["replay", str(nord), "--game", "vikings"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{nord}:1:1: error: the replay is a game of nord, not of vikings\n")
    assert "hint: leave out --game: the replay names its game (or give --game nord)" in err
