"""Games, replays and scenarios held in memory by id, each with its own lock.

The store is bounded: it holds at most `cap` sessions and drops the one
used longest ago when a new one comes; a game keeps at most MAX_DECISIONS
positions for undo, and an agent makes at most MAX_AGENT_STEPS moves per
request, each decision searched within AGENT_SECONDS and no more decisions
begun once a request has taken REQUEST_SECONDS, so that nothing a page asks
for runs away in time or memory (nor holds a game's lock for long).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field

from ..agents.base import agent_seed, make_agent
from ..engine.game import Game
from ..engine.record import replay_lines
from ..errors import UsageError

MAX_DECISIONS = 20_000
MAX_AGENT_STEPS = 50
AGENT_SECONDS = 2.0         # the most one agent decision may search on the page (its `seconds`, capped)
REQUEST_SECONDS = 5.0       # a request's agent steps stop at the first decision that ends past this
HUMAN = "human"


def page_agent(spec: str, seed: int):
    """The agent a seat names, each decision searched within AGENT_SECONDS
    (Agent.time_cap: a budget of work like mcts:playouts=100000 stops at the
    time first; a search that ends sooner is as it would be anywhere)."""
    agent = make_agent(spec, seed)
    agent.time_cap = AGENT_SECONDS
    return agent


class Unknown(LookupError):
    """No session by that id (never made, or dropped to keep the store bounded)."""


class Conflict(Exception):
    """A request that does not fit the session's state now (an agent's turn, nothing to undo)."""


@dataclass
class PlaySession:
    """A game played from the page: the seats (human or an agent), the
    positions before each decision (for undo), and what the replay header
    records."""
    game: Game
    seats: list
    header: dict
    agents: list = field(default_factory=list)
    before: list = field(default_factory=list)      # states before each decision, oldest first
    lock: threading.Lock = field(default_factory=threading.Lock)
    kind: str = "game"

    @classmethod
    def new(cls, rules, seed: int, seats: list, variants: list) -> PlaySession:
        if len(seats) != rules.num_players:
            raise UsageError(f"{len(seats)} seats named for {rules.num_players} players",
                             hint="name one seat (human or an agent) per player")
        agents = [None if s == HUMAN else page_agent(s, agent_seed(seed, i)) for i, s in enumerate(seats)]
        header = {"rulebook": rules.digest, "game": rules.bundled_name, "rulebook_path": None,
                  "variants": list(variants), "players": rules.num_players, "seed": seed,
                  "agents": [s if a is None else str(a) for s, a in zip(seats, agents)]}
        return cls(Game(rules, seed), list(seats), header, agents)

    def seat_kind(self) -> str | None:
        """'human', 'agent', or None when the game is over."""
        p = self.game.to_move
        if p is None:
            return None
        return HUMAN if self.agents[p] is None else "agent"

    def play(self, move: str) -> None:
        """A human's move (text); refused when an agent is to move."""
        if self.seat_kind() == "agent":
            raise Conflict(f"{self.game.rules.color(self.game.to_move)} is played by an agent: ask it to move")
        self._take(lambda: self.game.play(move))

    def agent_steps(self, steps: int) -> int:
        """Let the agents move, at most `steps` decisions, stopping at a human's
        turn or the end; the number of decisions made."""
        if not 1 <= steps <= MAX_AGENT_STEPS:
            raise UsageError(f"steps must be from 1 to {MAX_AGENT_STEPS}, not {steps}")
        if self.seat_kind() != "agent":
            raise Conflict("no agent is to move" if self.game.over else
                           f"{self.game.rules.color(self.game.to_move)} is a human seat: choose a move")
        made, end = 0, time.monotonic() + REQUEST_SECONDS
        while made < steps and self.seat_kind() == "agent" and (made == 0 or time.monotonic() < end):
            agent = self.agents[self.game.to_move]
            self._take(lambda a=agent: self.game.play_index(a.choose(self.game)))
            made += 1
        return made

    def _take(self, act) -> None:
        if len(self.before) >= MAX_DECISIONS:
            raise Conflict(f"the game has reached {MAX_DECISIONS} decisions, the most a page may hold")
        saved = self.game.state.clone(keep_log=True)
        act()                       # a refused move raises before changing the state
        self.before.append(saved)

    def undo_refused(self) -> str | None:
        """Why undo is not offered, or None. A person may not take back a move
        in a game with hidden parts, chance or secret choices: what followed
        it (an item turned, a die rolled, a secret answer shown) would tell him what the
        take-back hides."""
        if not self.before:
            return "nothing to undo: no decision has been taken"
        rules = self.game.rules
        if any(a is None for a in self.agents) and (rules.hidden_information or rules.uses_chance
                                                    or rules.secret_choices):
            return ("no undo in a game with hidden parts, chance or secret choices: a move taken back after what "
                    "followed it showed would not be honest")
        return None

    def undo(self) -> int:
        """Take back decisions to the last one a human took (all, when no
        seat is human); the number taken back."""
        refused = self.undo_refused()
        if refused:
            raise Conflict(refused)
        humans = any(a is None for a in self.agents)
        n = 0
        while self.before:
            self.game.state = self.before.pop()
            n += 1
            if not humans or self.seat_kind() == HUMAN:
                break
        for i, a in enumerate(self.agents):         # agents start afresh, as after a new deal
            if a is not None:
                self.agents[i] = page_agent(self.seats[i], agent_seed(self.header["seed"], i) + len(self.before))
        return n

    def replay_text(self) -> str:
        return "\n".join(replay_lines(self.game, self.header)) + "\n"


class Store:
    """Sessions by id, at most `cap`, the least recently used dropped first."""

    def __init__(self, cap: int = 64):
        if cap < 1:
            raise ValueError("a store holds at least one session")
        self.cap = cap
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def add(self, session) -> str:
        sid = secrets.token_hex(8)
        with self._lock:
            self._items[sid] = session
            while len(self._items) > self.cap:
                self._items.popitem(last=False)
        return sid

    def get(self, sid: str, kind: str):
        with self._lock:
            s = self._items.get(sid)
            if s is None or s.kind != kind:
                raise Unknown(f"no {kind} with id {sid!r} (the server may have restarted, or dropped it to make room)")
            self._items.move_to_end(sid)
            return s

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)
