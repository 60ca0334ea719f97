"""Replays and scenarios as timelines: the positions after each step, the
events each step caused, and (for a scenario, see stepper.py) each
expectation's outcome at its step, so that the page can travel back and
forth without playing anything again."""

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
    part: str | None = None                 # a scenario's entry: the branch whose own script has it
    scenario: object = None                 # a scenario's: the Scenario at this step (its stops), to ask why of


@dataclass
class Timeline:
    rules: object
    title: str
    steps: list
    lock: threading.Lock = field(default_factory=threading.Lock)
    kind: str = "replay"
    info: dict = field(default_factory=dict)
    events: list = field(default_factory=list)     # every event of the whole run; a step's are a slice
    branch: str | None = None                       # a scenario's: the branch it runs (None: the file's script)
    outcome: str | None = None                      # a scenario's: pass, fail or error, as `nord test` says
    branches: dict = field(default_factory=dict)    # a scenario file's tests by branch (empty: it has none)

    def select(self, branch: str | None) -> Timeline:
        """The timeline of one branch of a scenario file (None: the first)."""
        if branch is None or branch == self.branch:
            return self
        if branch not in self.branches:
            known = ", ".join(self.branches) or "none"
            raise UsageError(f"{self.title} has no branch {branch!r} (its branches: {known})")
        return self.branches[branch]

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
