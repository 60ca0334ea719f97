"""Uniform random play: every legal option of every decision equally likely."""

from __future__ import annotations

from .base import Agent, register


@register
class RandomAgent(Agent):
    name = "random"

    def choose(self, game) -> int:
        return self.rng.randrange(len(game.state.pending.options))
