"""The game API: legal moves, playing them, the result.

A move answers the pending choice; its one text form is
'<choice> <option>' (for example 'place c3,c4'), the same in logs,
replays, scenario scripts and the CLI.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import IllegalMove, RulesError
from .flow import DeadEnd, Machine
from .state import State


@dataclass(frozen=True)
class Move:
    choice: str
    option: str

    def __str__(self) -> str:
        return f"{self.choice} {self.option}"

    @staticmethod
    def parse(text: str) -> Move:
        if not isinstance(text, str):
            raise IllegalMove(f"a move is text like 'place c3,c4', not {type(text).__name__}")
        parts = text.strip().split(None, 1)
        if len(parts) != 2 or not parts[0].replace("_", "").isalnum():
            raise IllegalMove(f"bad move notation {text!r}", expected="'<choice> <option>', like 'place c3,c4'")
        return Move(parts[0], parts[1].strip())


def parse(text: str) -> Move:
    return Move.parse(text)


@dataclass(frozen=True)
class Result:
    points: tuple             # per player
    ranking: tuple            # rank keys per player
    winners: tuple            # players sharing first place


class Game:
    """One game of a compiled rulebook."""

    def __init__(self, rules, seed: int = 0, state: State | None = None):
        self.rules = rules
        self.seed = seed
        self.machine = Machine(rules)
        if state is None:
            state = State(rules, seed)
            try:
                self.machine.start(state)
            except DeadEnd as e:
                raise RulesError(f"the rules demand a choice {e.step.name!r} here, but it has no option",
                                 e.step.pos) from None
        self.state = state

    def clone(self) -> Game:
        return Game(self.rules, self.seed, self.state.clone())

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def to_move(self):
        p = self.state.pending
        return None if p is None else p.player

    @property
    def choice(self):
        """The pending choice's name, or None when the game is over."""
        p = self.state.pending
        return None if p is None else p.step.name

    def legal_moves(self) -> list[Move]:
        p = self.state.pending
        if p is None:
            return []
        return [Move(p.step.name, t) for t in p.texts]

    def play(self, move) -> None:
        if isinstance(move, str):
            move = Move.parse(move)
        elif not isinstance(move, Move):
            raise IllegalMove(f"a move is a Move or text like 'place c3,c4', not {type(move).__name__}")
        p = self.state.pending
        if p is None:
            raise IllegalMove(f"{move} is not allowed: the game is over")
        if move.choice != p.step.name:
            forced = self.taken_at_once(move.choice)
            if forced is not None:
                raise IllegalMove(f"{move} is not allowed: {forced}; the pending choice is {p.step.name!r} "
                                  f"(for {self.rules.color(p.player)})", p.step.pos,
                                  hint=f"leave the move out: a choice with one option is taken, never asked; "
                                       f"legal now: {_some(p.texts, p.step.name)}")
            raise IllegalMove(f"{move} is not allowed: the pending choice is {p.step.name!r}, not {move.choice!r}",
                              p.step.pos, hint=f"legal now: {_some(p.texts, p.step.name)}")
        index = p.find(move.option)
        if index is None:
            raise IllegalMove(f"{move} is not allowed by the rule at {p.step.pos}: {move.option!r} is not one of "
                              f"the {len(p.texts)} options of {p.step.name!r}", p.step.pos,
                              hint=f"legal now: {_some(p.texts, p.step.name)}")
        self.machine.choose(self.state, index)

    def taken_at_once(self, name: str) -> str | None:
        """Why a choice called `name` was not asked: since the last decision
        it had one option, taken at once (with the others taken so); None
        when it was not."""
        run = []
        for _turn, who, choice, text, forced in reversed(self.state.history):
            if not forced:
                break
            run.append((choice, text, who))
        if all(choice != name for choice, _, _ in run):
            return None
        taken = ", ".join(f"{choice} {text} ({self.rules.color(who)})" for choice, text, who in reversed(run))
        return (f"the choice {name!r} was not asked: since the last decision, each choice with one option was "
                f"taken at once: {taken}")

    def play_index(self, index: int) -> None:
        self.machine.choose(self.state, index)

    @property
    def result(self) -> Result | None:
        if not self.state.over:
            return None
        return compute_result(self.rules, self.state)

    def points(self) -> tuple:
        return tuple(self.state.counters.get(("points", p), 0) for p in self.rules.player_range)


def compute_result(rules, state) -> Result:
    ranking = []
    for p in rules.player_range:
        ctx = rules.ctx(state, {"p": p})
        ranking.append(tuple(f(ctx) for f in rules.rank))
    best = max(ranking)
    winners = tuple(p for p in rules.player_range if ranking[p] == best)
    points = tuple(state.counters.get(("points", p), 0) for p in rules.player_range)
    return Result(points, tuple(ranking), winners)


def _some(texts, choice, n=8):
    shown = [f"{choice} {t}" for t in texts[:n]]
    more = f" (and {len(texts) - n} more)" if len(texts) > n else ""
    return ", ".join(shown) + more
