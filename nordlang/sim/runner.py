"""Play a game to its end with one agent per seat."""

from __future__ import annotations

from ..errors import RulesError


def play_out(game, agents, on_step=None, max_decisions: int = 100_000):
    """Let the agents play `game` to the end; `on_step(game)` after each decision."""
    n = 0
    while not game.over:
        seat = game.to_move
        if seat is None:
            raise RulesError("the game is not over, but nobody has a decision to take")
        idx = agents[seat].choose(game)
        game.play_index(idx)
        n += 1
        if on_step is not None:
            on_step(game)
        if n >= max_decisions:
            raise RulesError(f"the game did not end within {max_decisions} decisions",
                             hint="a rule may keep it from ending: an effect that changes nothing (a count of "
                                  "0), or an end that can never come; `nord play` shows the turns as they go")
    return game
