"""The game API: legal moves, playing them, the result.

A move answers the pending choice; its one text form is
'<choice> <option>' (for example 'place c3,c4'), the same in logs,
replays, scenario scripts and the CLI.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass

from ..errors import IllegalMove, RulesError
from ..rules.model import Rules
from .flow import DeadEnd, Machine
from .look import Position, look
from .moves import LegalMoves, Move, _as_index, canonical_option, parse  # noqa: F401  (named from here too)
from .samples import sample
from .state import State
from .views import observation, seen_history, view


@dataclass(frozen=True)
class Result:
    """How a finished game came out. A draw (declared by the rulebook's
    result.draw) has no winners; otherwise the winners share first place
    by result.rank (a tie there is a shared win, not a draw)."""

    points: tuple             # per player
    ranking: tuple            # rank keys per player
    winners: tuple            # players sharing first place; () in a draw
    draw: bool = False

    def outcome(self, player: int) -> str:
        """'win', 'draw' or 'loss' for a player (a shared win is a win)."""
        if self.draw:
            return "draw"
        return "win" if player in self.winners else "loss"


class Game:
    """One game of a compiled rulebook."""

    def __init__(self, rules, seed: int = 0, state: State | None = None):
        if not isinstance(rules, Rules):
            raise TypeError(f"Game needs compiled rules (nordlang.load_rules()), not {type(rules).__name__}")
        seed = check_seed(seed)
        if state is not None and not isinstance(state, State):
            raise TypeError(f"a Game's state must be a State, not {type(state).__name__}")
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

    def _repr_svg_(self) -> str:
        """Its picture, for a notebook (nordlang/notebook.py)."""
        from ..notebook import svg
        return svg(self)

    def clone(self) -> Game:
        """The referee's copy: the same position and the same future (its
        chance source too). An agent plays on `for_player` instead.
        (Made without the constructor's checks: the parts are this game's,
        checked when it was made; a search makes one for each position.)"""
        g = Game.__new__(Game)
        g.rules, g.seed, g.machine, g.state = self.rules, self.seed, Machine(self.rules), self.state.clone()
        return g

    def branch(self) -> Game:
        """A search's copy (one a position), run by this game's machine, which keeps nothing of a
        position and whose settings a search never changes. Both share the zones until either
        runs an effect, which copies them first (flow.py _run): a decision whose effects come
        later copies nothing."""
        g = Game.__new__(Game)
        st = self.state
        g.rules, g.seed, g.machine, g.state = self.rules, self.seed, self.machine, st.clone(light=True)
        st.shared, st._mine = True, set()      # (its pools are the copy's too: changed in place by neither)
        return g

    # ---- what one player sees ----
    def for_player(self, player: int, seed: int) -> Game:
        """A game `player` cannot tell from this one, drawn from what he may
        know and `seed` alone: the items he cannot see dealt afresh over the
        places he cannot see into, others' unrevealed secret choices taken
        afresh, and the future's chance seeded afresh. What an honest agent
        searches: two positions the player cannot tell apart give the same
        sample for the same seed, and it never carries the real future."""
        _check_viewer(self.rules, player)
        machine = self.machine

        def secret(state, viewer, rng):
            machine.secret.resample(machine, state, viewer, rng)
        state = sample(self.state, player, check_seed(seed), secret)
        p = state.pending
        if p is not None and p.player != player and p.step.simultaneous is None and self.rules.hidden_information:
            # another's decision: his options are drawn from what the sample dealt him
            asked = state.clone()
            try:
                machine.ask_again(asked)
                state = asked
            except DeadEnd:
                pass            # (none of his options is left in this sample: the choice stays as it was asked)
        return Game(self.rules, self.seed, state)

    def view(self, player: int | None):
        """The position as `player` sees it (None: the referee, everything):
        a state to draw or read, in which each item he may not see is
        face down (its kind, the tag '?')."""
        _check_viewer(self.rules, player)
        return view(self.state, player)

    def look(self, player=None):
        """The position, read by names (engine/look.py): evaluate(text),
        space("c4"), zone("supply", "red"), points(), ranking(). As
        `player` (a number or a colour) sees it: each item he may not see
        is face down ("card:?"); None, the referee, sees everything."""
        return look(self, player)

    def evaluate(self, text: str, **names):
        """The value of an expression of the rulebook's language on the
        position, as the referee sees it: game.evaluate("points(p)", p=0).
        For one player's sight: game.look(player).evaluate(...)."""
        return Position(self.rules, self.state, None).evaluate(text, **names)

    def observation(self, player: int | None) -> str:
        """What `player` sees now, as one canonical text."""
        _check_viewer(self.rules, player)
        return observation(self.state, player)

    def seen_history(self, player: int | None) -> list:
        """The decisions so far as `player` knows them: (turn, player, choice,
        option text, forced), others' unrevealed secret choices as '?'."""
        _check_viewer(self.rules, player)
        return seen_history(self.state, player)

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

    def legal_moves(self) -> LegalMoves:
        """The pending decision's moves, in order (a sequence made as it is read; [] when the game is over)."""
        return LegalMoves(self.state.pending)

    def play(self, move) -> None:
        if isinstance(move, str):
            move = Move.parse(move)
        elif not isinstance(move, Move):
            raise IllegalMove(f"a move is a Move or text like 'place c3,c4', not {type(move).__name__}")
        p = self.state.pending
        if p is None:
            forced = self.taken_at_once(move.choice)
            if forced is not None:
                raise IllegalMove(f"{move} is not allowed: the game is over; {forced}, and the game ended",
                                  hint="leave the move out: a choice with one option is taken, never asked")
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
        if index is None:       # a text the engine wrote otherwise (a label that reads like a set)
            index = next((i for i, t in enumerate(p.texts) if canonical_option(t) == move.option), None)
        if index is None:
            forced = self.taken_at_once(move.choice, move.option)
            leave = "leave the move out: a choice with one option is taken, never asked; " if forced else ""
            raise IllegalMove(f"{move} is not allowed by the rule at {p.step.pos}: {move.option!r} is not one of "
                              f"the {len(p.texts)} options of {p.step.name!r}" + (f"; {forced}" if forced else ""),
                              p.step.pos, hint=leave + f"legal now: {_some(p.texts, p.step.name)}")
        self.machine.choose(self.state, index)

    def taken_at_once(self, name: str, option: str | None = None) -> str | None:
        """Why a choice called `name` (with that option, if given) was not
        asked: since the last decision it had one option, taken at once
        (with the others taken so); None when it was not."""
        run = []
        for _turn, who, choice, text, forced in reversed(self.state.history):
            if not forced:
                break
            run.append((choice, text, who))
        if all(choice != name or (option is not None and canonical_option(text) != option)
               for choice, text, _ in run):
            return None
        taken = ", ".join(f"{choice} {text} ({self.rules.color(who)})" for choice, text, who in reversed(run))
        return (f"the choice {name!r} was not asked: since the last decision, each choice with one option was "
                f"taken at once: {taken}")

    def play_index(self, index: int) -> None:
        """Take option `index` (from 0) of the pending choice, as listed by legal_moves()."""
        if type(index) is not int:
            index = _as_index(index)
        p = self.state.pending
        if p is None:
            raise IllegalMove(f"option {index} is not allowed: the game is over")
        n = len(p.options)
        if not 0 <= index < n:
            raise IllegalMove(f"option {index} is not allowed: the pending choice {p.step.name!r} has {n} "
                              f"option{'s' if n != 1 else ''}, numbered 0 to {n - 1}", p.step.pos)
        self.machine.choose(self.state, index)

    @property
    def result(self) -> Result | None:
        if not self.state.over:
            return None
        return compute_result(self.rules, self.state)

    def returns(self) -> tuple:
        """What the finished game is worth to each player: the rulebook's
        result.returns, else +1 for a winner, -1 for the others, 0 for all
        in a draw (all 0 while the game goes on)."""
        if not self.state.over:
            return (0.0,) * self.rules.num_players
        rules = self.rules
        if rules.returns is not None:
            return tuple(float(rules.returns(rules.ctx(self.state, {"p": p}))) for p in rules.player_range)
        res = self.result
        if res.draw:
            return (0.0,) * rules.num_players
        return tuple(1.0 if p in res.winners else -1.0 for p in rules.player_range)

    def points(self) -> tuple:
        return tuple(self.state.counters.get(("points", p), 0) for p in self.rules.player_range)


def _check_viewer(rules, player) -> None:
    if player is None:
        return
    if type(player) is not int or not 0 <= player < rules.num_players:
        raise ValueError(f"a viewer is a player, 0 to {rules.num_players - 1}, or None (the referee), not {player!r}")


def check_seed(seed) -> int:
    """A game's seed: a whole number, 0 or more (a TypeError or ValueError otherwise)."""
    if type(seed) is not int:
        if isinstance(seed, bool) or not hasattr(seed, "__index__"):
            raise TypeError(f"a seed must be a whole number, not {type(seed).__name__} ({seed!r})")
        seed = operator.index(seed)
    if seed < 0:
        raise ValueError(f"a seed must be 0 or more, not {seed}")
    return seed


def compute_result(rules, state) -> Result:
    ranking = []
    for p in rules.player_range:
        ctx = rules.ctx(state, {"p": p})
        ranking.append(tuple(f(ctx) for f in rules.rank))
    points = tuple(state.counters.get(("points", p), 0) for p in rules.player_range)
    if rules.draw is not None and rules.draw(rules.ctx(state)):
        return Result(points, tuple(ranking), (), draw=True)
    best = max(ranking)
    winners = tuple(p for p in rules.player_range if ranking[p] == best)
    return Result(points, tuple(ranking), winners)


def _some(texts, choice, n=8):
    shown = [f"{choice} {t}" for t in texts[:n]]
    more = f" (and {len(texts) - n} more)" if len(texts) > n else ""
    return ", ".join(shown) + more
