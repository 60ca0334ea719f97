"""The mcts score vector (agents/mcts.py _score_of) from the players'
evaluations: each against the best of the others' (the second best for
the best player), through a logistic of the difference over `scale`,
clamped to +-60; made in one pass, exactly the floats the formula gives."""

import math
import random

import pytest

from nordlang.agents.mcts import MCTSAgent


def _formula(h, scale):
    """The score as written out plainly: max of the others, a clamped logistic."""
    if len(h) < 2:
        others = [0] * len(h)
    else:
        top = max(h)
        second = max(h[:h.index(top)] + h[h.index(top) + 1:])
        others = [second if x == top else top for x in h]
    out = []
    for x, other in zip(h, others):
        x = (x - other) / scale if scale > 0 else 0.0
        x = max(-60.0, min(60.0, x))
        out.append(1.0 / (1.0 + math.exp(-x)))
    return out


class _Rules:
    def __init__(self, h):
        self.player_range = range(len(h))
        self.evaluation = lambda ctx: h[ctx.vars["p"]]

    def ctx(self, state, vars):
        class Ctx:
            pass
        c = Ctx()
        c.vars, c.budget = vars, Ctx()
        return c


class _Game:
    def __init__(self, h):
        self.rules = _Rules(h)

        class St:
            over = False
        self.state = St()


@pytest.mark.parametrize("scale", [10.0, 0.7, 1e-3, 0.0, -1.0])
def test_the_same_floats_as_the_formula(scale):
    rng = random.Random(int(scale * 1000))
    agent = MCTSAgent(0, scale=scale)
    for _ in range(3000):
        n = rng.randrange(0, 5)
        h = [rng.choice([rng.randrange(-3, 4), rng.uniform(-900, 900), 2, 2.0]) for _ in range(n)]
        got = agent._score_of(_Game(h))
        assert got == _formula(h, scale)


def test_ties_and_the_clamp():
    agent = MCTSAgent(0, scale=10.0)
    assert agent._score_of(_Game([5, 5, 1])) == [0.5, 0.5, _formula([5, 5, 1], 10.0)[2]]
    assert agent._score_of(_Game([2000.0, 0.0])) == [1.0 / (1.0 + math.exp(-60.0)), 1.0 / (1.0 + math.exp(60.0))]
    assert agent._score_of(_Game([7])) == [1.0 / (1.0 + math.exp(-0.7))]
