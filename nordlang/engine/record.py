"""What a game leaves behind: readable event lines, state digests, replays.

The engine records every change as events (moves of items, awards, notes
the rulebook makes); this module turns them into text with the rulebook's
message templates, and writes and reads replay files (JSON lines:
a header with the rulebook digest and seed, one line per decision, and a
footer with the final state's digest). A replay is the referee's record,
the whole truth ("record": "referee" in its header); what one seat saw is
a seat's log (seat_log.py), which is refused here.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

from ..errors import LoadError, Pos, ReplayError
from ..limits import OverLimit, load_json

REPLAY_FORMAT = "nordlang-replay/1"
SEAT_LOG_FORMAT = "nordlang-seat-log/1"      # what one seat saw (engine/seat_log.py): never replayed


def state_digest(state) -> str:
    """A digest of the position (zones, counters, whose turn), stable across machines."""
    rules = state.rules

    def key(k):
        return rules.show(k)
    parts = {
        "pools": sorted((key(k), sorted((rules.show(i), n) for i, n in v.items())) for k, v in state.pools.items()
                        if v),
        "decks": sorted((key(k), [rules.show(i) for i in v]) for k, v in state.decks.items()),
        "tracks": sorted((key(k), [rules.show(i) for i in v]) for k, v in state.tracks.items()),
        "counters": sorted((json.dumps(list(k), default=str), v) for k, v in state.counters.items()),
        "player": state.player, "turn": state.turn, "over": state.over,
    }
    canon = json.dumps(parts, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canon.encode()).hexdigest()[:16]


def describe(rules, event) -> str | None:
    """One line for a note or award event (None for plain item moves).

    A note's text comes from the rulebook's `messages`: `{0}` shows an
    argument as a value, `{p0}` as a player (its colour).
    """
    kind = event[0]
    if kind == "note":
        template = rules.messages.get(event[1])
        args = event[2:]
        shown = [rules.show(a) for a in args]
        players = {f"p{i}": rules.color(a) for i, a in enumerate(args)}
        if template is None:
            return f"{event[1]} " + " ".join(shown)
        try:
            return template.format(*shown, **players)
        except (IndexError, KeyError, ValueError):
            return f"{event[1]} " + " ".join(shown)
    if kind == "award":
        _, p, n, source, detail = event
        where = f" ({rules.show(detail)})" if detail is not None else ""
        return f"  {rules.color(p)} +{n} {source}{where}"
    if kind == "end":
        return "the game ends"
    if kind == "reveal":            # a secret choice shown once all have chosen
        return f"{event[1]} shown: " + ", ".join(f"{rules.color(p)} {text}" for p, text in event[2])
    if kind == "roll":              # a chance event's outcome
        return f"  {event[1]}: {event[2]}"
    return None


def check_writable(path: str | Path) -> None:
    """Raise a clear error now if `path` cannot be written later."""
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise LoadError(f"cannot write {path}: folder {directory} does not exist", Pos(str(path)))
    if path.is_dir():
        raise LoadError(f"cannot write {path}: it is a folder", Pos(str(path)))
    if not os.access(directory, os.W_OK):
        raise LoadError(f"cannot write {path}: folder {directory} is not writable", Pos(str(path)))


def _write(f, lines, data) -> None:
    if data is not None:
        f.write(data)
    else:
        for line in lines:
            f.write((line + "\n").encode("utf-8"))


def write_atomic(path: str | Path, lines=None, data: bytes | None = None) -> None:
    """Write all lines (or all bytes) or nothing: a temp file renamed into place.

    A symbolic link is followed (its target is written, the link stays); a
    path that is no regular file (a device like /dev/stdout, a pipe) is
    written as it is, since it cannot be replaced.
    """
    shown = path
    if os.path.exists(path) and not os.path.isfile(path) and not os.path.isdir(path):
        try:
            with open(path, "wb") as f:
                _write(f, lines, data)
        except OSError as e:
            raise LoadError(f"cannot write {shown}: {e.strerror}", Pos(str(shown))) from None
        return
    path = Path(os.path.realpath(path))
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise LoadError(f"cannot write {path}: folder {directory} does not exist", Pos(str(path)))
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=directory)
    except OSError as e:
        raise LoadError(f"cannot write {path}: {e.strerror}", Pos(str(path))) from None
    try:
        with os.fdopen(fd, "wb") as f:
            _write(f, lines, data)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)      # mkstemp makes files private; a log is an ordinary file
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def replay_lines(game, header: dict) -> list[str]:
    """The replay of a game as it stands: header, one line per decision, and a
    last line with the final state. A game not over (stopped by Ctrl-C) is
    marked 'unfinished' there: a partial game, replayed and checked as far
    as it went."""
    st = game.state
    out = [json.dumps({"format": REPLAY_FORMAT, "record": "referee", **header}, sort_keys=True)]
    for turn, player, choice, option, forced in st.history:
        if not forced:
            out.append(json.dumps({"turn": turn, "player": player, "move": f"{choice} {option}"}, sort_keys=True))
    res = game.result
    final = {"final": state_digest(st), "turns": st.turn}
    if res is not None:
        final["points"] = list(res.points)
        final["winners"] = list(res.winners)
        if res.draw:
            final["draw"] = True
    else:
        final["unfinished"] = True
    out.append(json.dumps(final, sort_keys=True))
    return out


def _whole(v, least=0) -> bool:
    return type(v) is int and v >= least


def _ints(v) -> bool:
    return isinstance(v, list) and all(type(x) is int for x in v)


def _texts(v) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _digest(v) -> bool:
    return isinstance(v, str) and len(v) == 16 and all(c in "0123456789abcdef" for c in v)


# what each field of each kind of line may hold: key -> (test, words, required)
HEADER_FIELDS = {
    "format": (lambda v: v == REPLAY_FORMAT, f"{REPLAY_FORMAT!r}", True),
    "record": (lambda v: v == "referee", "'referee' (a replay is the whole game; what a seat saw cannot be replayed)",
               False),
    "rulebook": (_digest, "the rulebook's digest (16 hex digits)", True),
    "seed": (_whole, "a whole number, 0 or more", True),
    "players": (lambda v: v is None or _whole(v, 1), "a number of players", False),
    "variants": (lambda v: v is None or _texts(v), "a list of variant names or paths", False),
    "rulebook_path": (lambda v: v is None or isinstance(v, str), "a path or null", False),
    "game": (lambda v: v is None or (isinstance(v, str) and v != ""), "a game's name or null", False),
    "agents": (_texts, "a list of agent names", False),
    "params": (lambda v: isinstance(v, dict) and all(isinstance(k, str) and isinstance(x, (int, float, str))
                                                    for k, x in v.items()),
               "the game's parameters: a mapping of names to numbers or texts", False),
}
MOVE_FIELDS = {
    "move": (lambda v: isinstance(v, str) and v.strip() != "", "a move in text, like 'place c3,c4'", True),
    "player": (_whole, "a player's number (0 for the first)", True),
    "turn": (_whole, "a turn's number, 0 or more", True),
}
FOOTER_FIELDS = {
    "final": (_digest, "the final state's digest (16 hex digits)", True),
    "turns": (_whole, "a number of turns", True),
    "points": (_ints, "a list of points, one per player", False),
    "winners": (_ints, "a list of players' numbers", False),
    "draw": (lambda v: v is True, "true (a drawn game: no winner)", False),
    "unfinished": (lambda v: v is True, "true (a game stopped before its end)", False),
}


def check_fields(path: str, line: int, rec: dict, fields: dict, what: str, source_line: str) -> None:
    """Every key of a replay line known, each value of its kind, the required ones there."""
    for key, value in rec.items():
        if key not in fields:
            raise ReplayError(f"line {line}: {what} has an unknown field {key!r}", Pos(path, line, 1),
                              source_line=source_line, expected=", ".join(fields),
                              hint="the replay was edited: record the game again")
        ok, words, _ = fields[key]
        if not ok(value):
            raise ReplayError(f"line {line}: the {what}'s {key!r} is {json.dumps(value)}, not {words}",
                              Pos(path, line, 1), source_line=source_line,
                              hint="the replay was edited: record the game again")
    missing = [k for k, (_, _, required) in fields.items() if required and k not in rec]
    if missing:
        raise ReplayError(f"line {line}: the {what} has no {missing[0]!r}", Pos(path, line, 1),
                          source_line=source_line, hint="the replay was edited: record the game again")


def read_replay(path: str | Path):
    """(header, moves, footer) of a replay file, every field of every line
    checked; errors name the line. Moves are (line, text, player, turn)."""
    path = str(path)
    if Path(path).is_dir():
        raise LoadError(f"{path} is a folder, not a replay file (written by `nord play --log`)", Pos(path))
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LoadError(f"no such replay file: {path}", Pos(path)) from None
    except (OSError, UnicodeDecodeError) as e:
        raise LoadError(f"cannot read {path}: {e}", Pos(path)) from None
    records = []
    for i, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = load_json(line)
        except OverLimit as e:
            raise ReplayError(f"line {i}: {e.message}", Pos(path, i, 1), source_line=line[:200], hint=e.hint) from None
        except (json.JSONDecodeError, RecursionError) as e:
            msg = e.msg if isinstance(e, json.JSONDecodeError) else "nested too deeply"
            col = e.colno if isinstance(e, json.JSONDecodeError) else 1
            raise ReplayError(f"line {i} is not JSON: {msg}", Pos(path, i, col), source_line=line) from None
        if not isinstance(rec, dict):
            raise ReplayError(f"line {i} must be a JSON object", Pos(path, i, 1), source_line=line)
        records.append((i, rec, line))
    if records and records[0][1].get("format") == SEAT_LOG_FORMAT:
        seat = records[0][1].get("seat")
        who = seat if isinstance(seat, str) else "one seat"
        raise ReplayError(f"this is the log of what {who} saw (written by `nord play --log-for`), not a replay: it "
                          f"leaves out what {who} could not see (others' secret choices, hidden items, the seed), so "
                          "the game cannot be played again from it", Pos(path, 1, 1),
                          hint="replay the referee's record, written by `nord play --log FILE`")
    if not records or records[0][1].get("format") != REPLAY_FORMAT:
        raise ReplayError(f"not a nordlang replay (the first line must name format {REPLAY_FORMAT!r})",
                          Pos(path, 1, 1))
    i, header, line = records[0]
    check_fields(path, i, header, HEADER_FIELDS, "header", line)
    footer = records[-1][1] if len(records) > 1 and "final" in records[-1][1] else None
    if footer is not None:
        check_fields(path, records[-1][0], footer, FOOTER_FIELDS, "last line", records[-1][2])
    body = records[1:-1] if footer is not None else records[1:]
    moves = []
    for i, rec, line in body:
        if "move" not in rec:
            raise ReplayError(f"line {i} has no move", Pos(path, i, 1), source_line=line)
        check_fields(path, i, rec, MOVE_FIELDS, "move", line)
        moves.append((i, rec["move"], rec["player"], rec["turn"]))
    return header, moves, footer
