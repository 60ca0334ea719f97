"""Results files of `nord simulate`: a header line, then one JSON line per game.

The file is written append-safely: it is made (or, with --force, replaced)
atomically holding only its header, then each game's record is appended
in game order as soon as it and every game before it are done, flushed
at once and synced to disk at least every second and at the end. So at
every moment (after Ctrl-C, a crash, a killed job) the file is a valid
results file holding every finished game up to a point, at most with a
last line cut short, which --resume drops before it continues. A run
that was stopped and resumed writes the same bytes as one that was not.

Reading is a stream too: records are checked line by line (and against
the command: each game's seed and agents) without keeping them.
"""

from __future__ import annotations

import json
import os
import time

from ..errors import LoadError, Pos, UsageError

SIM_FORMAT = "nordlang-sim/1"

# what each game record holds (an error record: game, seed, agents, error)
_RECORD = {"game": int, "seed": int, "agents": list, "points": list, "winners": list, "turns": int,
           "decisions": int, "forced": int, "branching": (int, float), "lead_changes": int, "notes": dict,
           "sources": dict, "triggers": list, "options_by_turn": list}
_FAILED = {"game": int, "seed": int, "agents": list, "error": str}
# identity keys that older results files lack, with the value they were made with
_IDENTITY_DEFAULTS = {"max_decisions": 100_000}
_HINT = "give --resume to continue it or --force to replace it"


def _record_problem(rec, players) -> str | None:
    """Why a line of a results file is no game record (None when it is one)."""
    if not isinstance(rec, dict):
        return "not a JSON object"
    shape = _FAILED if "error" in rec else _RECORD
    for key, typ in shape.items():
        if key not in rec:
            return f"no {key!r}"
        if not isinstance(rec[key], typ) or isinstance(rec[key], bool):
            return f"{key!r} is {json.dumps(rec[key])[:40]}"
    if rec["game"] < 0:
        return f"game number {rec['game']}"
    if not all(isinstance(a, str) for a in rec["agents"]):
        return "'agents' is not a list of agent names"
    held = rec.get("held", {})      # (optional: files of older versions hold none)
    if not isinstance(held, dict) or not all(
            isinstance(v, list) and len(v) == players and all(isinstance(x, int) and not isinstance(x, bool) for x in v)
            for v in held.values()):
        return f"'held' is not a count for each of the {players} players per zone and piece"
    if "points" in rec and (len(rec["points"]) != players
                            or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in rec["points"])):
        return f"'points' is not one number for each of the {players} players"
    return None


def header_line(config, rules, n: int) -> str:
    return json.dumps({"format": SIM_FORMAT, "config": config.identity(rules), "games": n,
                       "rulebook_path": config.rulebook}, sort_keys=True)


class Done:
    """The games a results file already holds: 0..prefix-1, and any others (files of older versions)."""

    def __init__(self):
        self.prefix = 0
        self.others: set = set()

    def __contains__(self, i) -> bool:
        return i < self.prefix or i in self.others

    def add(self, i: int) -> None:
        if i == self.prefix:
            self.prefix += 1
            while self.prefix in self.others:
                self.others.remove(self.prefix)
                self.prefix += 1
        else:
            self.others.add(i)

    def count(self, n: int) -> int:
        """How many of games 0..n-1 are done."""
        return min(self.prefix, n) + sum(1 for i in self.others if i < n)

    def todo(self, n: int):
        """Games 0..n-1 not done, lazily (n may be huge)."""
        i = self.prefix
        while i < n:
            if i not in self.others:
                yield i
            i += 1


def iter_results(path, identity: dict | None = None, check=None, state: dict | None = None):
    """Yield each game record of a results file in file order, checked.

    identity: the header's configuration must match it (else a UsageError).
    check(rec): why a record does not belong to the command (None: it does).
    state: receives "good" (bytes of complete lines: a last line cut short
    is left out) and "header".
    """
    state = {} if state is None else state
    try:
        f = open(path, "rb")
    except FileNotFoundError:
        raise LoadError(f"no such results file: {path}", Pos(str(path))) from None
    except OSError as e:
        raise LoadError(f"cannot read {path}: {e.strerror}", Pos(str(path))) from None
    with f:
        good, header, seen = 0, None, Done()
        lines = iter(f)
        raw = next(lines, b"")
        no = 0
        while raw.endswith(b"\n"):         # a last line without its newline may be cut short: left out
            no += 1
            after = next(lines, b"")
            try:
                rec = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError):
                if header is None:
                    raise UsageError(f"{path} is not a simulation results file (its first line is not JSON)") from None
                if not after.endswith(b"\n"):       # the last whole line: cut short, then a newline
                    break
                raise LoadError(f"line {no} is not JSON", Pos(str(path), no)) from None
            good += len(raw)
            raw = after
            if header is None:
                header = state["header"] = _check_header(path, rec, identity)
                continue
            why = _record_problem(rec, header["config"]["players"])
            if why is None and rec["game"] in seen:
                why = f"game {rec['game']} a second time"
            if why is not None:
                raise LoadError(f"line {no} is not a game record of nord simulate ({why})", Pos(str(path), no),
                                hint="the file was edited: remove that line, or start anew with --force")
            why = check(rec) if check is not None else None
            if why is not None:
                raise UsageError(f"{path}:{no}: {why}: the records were not made by this command "
                                 f"(start anew with --force, or write to another --out)")
            seen.add(rec["game"])
            state["good"] = good
            yield rec
        if header is None:
            raise UsageError(f"{path} is not a simulation results file (it is empty)")
        state["good"] = good


def _check_header(path, rec, identity):
    if not isinstance(rec, dict) or rec.get("format") != SIM_FORMAT:
        raise UsageError(f"{path} is not a simulation results file (no {SIM_FORMAT} header)")
    if not isinstance(rec.get("config"), dict) or not isinstance(rec["config"].get("players"), int):
        raise UsageError(f"{path} is not a simulation results file (its header has no configuration)")
    if identity is not None:
        had = {**_IDENTITY_DEFAULTS, **rec["config"]}
        diffs = [k for k in identity if had.get(k) != identity[k]]
        if diffs:
            k = diffs[0]
            raise UsageError(f"{path} was made with another configuration: {k} {had.get(k)!r} there, "
                             f"{identity[k]!r} now")
    return rec


def read_results(path, identity: dict | None = None):
    """({game: record}, bytes of complete lines) of a results file (all in memory: for small files)."""
    state: dict = {}
    records = {rec["game"]: rec for rec in iter_results(path, identity, state=state)}
    return records, state["good"]


# ---------------- writing ----------------
def _non_empty(path) -> bool:
    return os.path.isfile(path) and os.path.getsize(path) > 0


def check_output(path, resume: bool, force: bool, what: str = "--out") -> None:
    """Refuse, before any game, a file that cannot be written or would lose what it holds."""
    from ..engine.record import check_writable
    check_writable(path)
    if _non_empty(path) and not (resume or force):
        raise UsageError(f"{what} {path} already holds results: {_HINT}")


class LineWriter:
    """Appends lines to a file: flushed at once, synced to disk at least every second and on close."""

    def __init__(self, path, fresh_lines=None, keep_bytes: int | None = None):
        """fresh_lines: make the file anew (atomically) with these lines; keep_bytes: cut it to that size first."""
        from ..engine.record import write_atomic
        self.path = path
        try:
            if fresh_lines is not None:
                write_atomic(path, fresh_lines)
            self.f = open(path, "r+b" if keep_bytes is not None else "ab")
            if keep_bytes is not None:
                self.f.truncate(keep_bytes)
                self.f.seek(keep_bytes)
        except OSError as e:
            raise LoadError(f"cannot write {path}: {e.strerror}", Pos(str(path))) from None
        self.synced = time.monotonic()
        self.lines = 0

    def write(self, obj) -> None:
        self.f.write((json.dumps(obj, sort_keys=True) + "\n").encode("utf-8"))
        self.f.flush()
        self.lines += 1
        if time.monotonic() - self.synced >= 1.0:
            self._sync()

    def _sync(self):
        try:
            os.fsync(self.f.fileno())
        except OSError:         # a pipe or a device cannot be synced
            pass
        self.synced = time.monotonic()

    def close(self) -> None:
        if self.f.closed:
            return
        self.f.flush()
        self._sync()
        self.f.close()


def open_results(path, config, rules, n: int, resume: bool, on_record=None):
    """The writer of a results file and the games it already holds (a Done).

    With resume and a non-empty file, its header must match the command and
    each record its seed and agents; every record of games 0..n-1 is passed
    to on_record (in file order), a last line cut short is dropped and the
    new games are appended. Otherwise the file is made anew.
    """
    done = Done()
    if resume and _non_empty(path):
        state: dict = {}
        players = rules.num_players
        for rec in iter_results(path, config.identity(rules), lambda r: config.record_problem(r, players), state):
            done.add(rec["game"])
            if on_record is not None and rec["game"] < n:
                on_record(rec)
        return LineWriter(path, keep_bytes=state["good"]), done
    return LineWriter(path, fresh_lines=[header_line(config, rules, n)]), done


def write_record(f, rec: dict) -> None:
    """One record on a text file (a library helper; `nord simulate` uses LineWriter)."""
    f.write(json.dumps(rec, sort_keys=True) + "\n")
    f.flush()
