"""What a game leaves behind: readable event lines, state digests, replays.

The engine records every change as events (moves of items, awards, notes
the rulebook makes); this module turns them into text with the rulebook's
message templates, and writes and reads replay files (JSON lines:
a header with the rulebook digest and seed, one line per decision, and a
footer with the final state's digest).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

from ..errors import LoadError, Pos, ReplayError

REPLAY_FORMAT = "nordlang-replay/1"


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
    st = game.state
    out = [json.dumps({"format": REPLAY_FORMAT, **header}, sort_keys=True)]
    for turn, player, choice, option, forced in st.history:
        if not forced:
            out.append(json.dumps({"turn": turn, "player": player, "move": f"{choice} {option}"}, sort_keys=True))
    res = game.result
    final = {"final": state_digest(st), "turns": st.turn}
    if res is not None:
        final["points"] = list(res.points)
        final["winners"] = list(res.winners)
    out.append(json.dumps(final, sort_keys=True))
    return out


def read_replay(path: str | Path):
    """(header, moves, footer) of a replay file; errors name the line."""
    path = str(path)
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
            rec = json.loads(line)
        except json.JSONDecodeError as e:
            raise ReplayError(f"line {i} is not JSON: {e.msg}", Pos(path, i, e.colno), source_line=line) from None
        if not isinstance(rec, dict):
            raise ReplayError(f"line {i} must be a JSON object", Pos(path, i, 1), source_line=line)
        records.append((i, rec))
    if not records or records[0][1].get("format") != REPLAY_FORMAT:
        raise ReplayError(f"not a nordlang replay (the first line must name format {REPLAY_FORMAT!r})",
                          Pos(path, 1, 1))
    header = records[0][1]
    footer = records[-1][1] if len(records) > 1 and "final" in records[-1][1] else None
    body = records[1:-1] if footer is not None else records[1:]
    moves = []
    for i, rec in body:
        if "move" not in rec or not isinstance(rec["move"], str):
            raise ReplayError(f"line {i} has no move", Pos(path, i, 1))
        moves.append((i, rec["move"], rec.get("player")))
    return header, moves, footer
