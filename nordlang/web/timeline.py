"""Replays and scenarios as timelines: the positions after each step, the
events each step caused, and (for a scenario) each expectation's outcome
at its step, so that the page can travel back and forth without playing
anything again."""

from __future__ import annotations

import dataclasses
import os
import tempfile
import threading
from dataclasses import dataclass, field

from ..cli.replay import open_replay, play_move
from ..errors import NordError, UsageError
from .sessions import MAX_DECISIONS

MAX_UPLOAD = 4_000_000      # bytes of an uploaded replay


@dataclass
class Step:
    """One step: what it was (a move, an expectation), the position after it,
    and the slice of the game's events it caused."""
    label: str
    state: object
    events: tuple = (0, 0)
    kind: str = "move"
    passed: bool | None = None              # an expectation: did it hold
    failures: list = field(default_factory=list)


@dataclass
class Timeline:
    rules: object
    title: str
    steps: list
    lock: threading.Lock = field(default_factory=threading.Lock)
    kind: str = "replay"
    info: dict = field(default_factory=dict)
    events: list = field(default_factory=list)     # every event of the whole run; a step's are a slice

    def step(self, index: int) -> Step:
        if not 0 <= index < len(self.steps):
            raise UsageError(f"step {index} is out of range: this {self.kind} has steps 0 to {len(self.steps) - 1}")
        return self.steps[index]


def open_replay_timeline(path, shown_name: str) -> Timeline:
    """A replay file as a timeline: its start and the position after each move."""
    header, moves, footer, game = open_replay(path)
    if len(moves) > MAX_DECISIONS:
        raise UsageError(f"the replay has {len(moves)} moves; the page shows at most {MAX_DECISIONS}")
    steps = [Step("start", game.state.clone(), (0, len(game.state.events)), kind="start")]
    for line, move, player, turn in moves:
        before = len(game.state.events)
        play_move(game, shown_name, line, move, player, turn)
        steps.append(Step(move, game.state.clone(), (before, len(game.state.events))))
    info = {"seed": header.get("seed"), "players": header.get("players"), "agents": header.get("agents"),
            "variants": header.get("variants") or [], "finished": footer is not None and not footer.get("unfinished")}
    return Timeline(game.rules, shown_name, steps, info=info, events=game.state.events)


def replay_from_text(text: bytes, shown_name: str) -> Timeline:
    """An uploaded replay (its bytes), read through a file of its own that is removed at once."""
    if len(text) > MAX_UPLOAD:
        raise UsageError(f"the replay is {len(text)} bytes; the page takes at most {MAX_UPLOAD}")
    fd, tmp = tempfile.mkstemp(suffix=".jsonl", prefix="nord-upload-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(text)
        try:
            return open_replay_timeline(tmp, shown_name)
        except NordError as e:
            e.message = e.message.replace(tmp, shown_name)
            if e.pos is not None and e.pos.file == tmp:
                e.pos = dataclasses.replace(e.pos, file=shown_name)
            raise
    finally:
        os.unlink(tmp)


def open_scenario_timeline(path, shown_name: str) -> Timeline:
    """A scenario as a timeline: its position, then each scripted move and
    each expectation, checked at its step (the last step is the final
    `expect`, when there is one)."""
    from ..scenario import Report, load_scenario
    sc = load_scenario(path)
    sc.check_script()
    game = sc.game
    steps = [Step("position", game.state.clone(), (0, len(game.state.events)), kind="start")]
    script = list(sc.data.get("moves", []) or [])
    entries = [(i, s, ("moves", i, "expect") if isinstance(s, dict) else None) for i, s in enumerate(script)]
    if "expect" in sc.data:
        entries.append((len(script), {"expect": sc.data["expect"]}, ("expect",)))
    for i, entry, where in entries:
        if where is not None:
            rep = Report(sc.path, "")
            sc.check(entry["expect"], where, rep)
            steps.append(Step(_expect_label(entry["expect"], where), game.state.clone(),
                              (len(game.state.events),) * 2, kind="expect", passed=rep.passed,
                              failures=[f.format() for f in rep.failures]))
            continue
        before = len(game.state.events)
        try:
            game.play(entry)
        except NordError as e:
            steps.append(Step(str(entry), game.state.clone(), (before, before), kind="move", passed=False,
                              failures=[f"{sc.src.pos(('moves', i))}: move {i + 1} {entry!r} cannot be played: "
                                        f"{e.message}"]))
            break
        steps.append(Step(str(entry), game.state.clone(), (before, len(game.state.events))))
    description = " ".join(str(sc.data.get("description", "")).split())
    return Timeline(sc.rules, shown_name, steps, kind="scenario", info={"description": description},
                    events=game.state.events)


def _expect_label(exp: dict, where) -> str:
    what = ", ".join(str(k) for k in exp) or "nothing"
    return ("expect at the end: " if where == ("expect",) else "expect: ") + what
