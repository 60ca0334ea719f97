"""One-ply greedy play: try each option, keep the one whose resulting
position the rulebook's evaluation rates best for the mover (against the
best opponent). Ties are broken at random, from the agent's seed.

It plays honestly: the options are tried on one sample of the position
drawn from what the mover may know (`Game.for_player`: what he cannot see
dealt afresh, the future's chance seeded by the agent), the same sample
for every option, so it never rates a move by a hidden item or a die not
yet rolled."""

from __future__ import annotations

from ..errors import UsageError
from .base import Agent, register, sample_seed


def evaluate(game, p) -> float:
    rules = game.rules
    if rules.evaluation is None:
        raise UsageError("this rulebook states no evaluation (result.evaluation), so greedy cannot play")
    state = game.state
    if state.over:
        res = game.result
        if not res.winners:                     # a draw: better than a loss, worse than a win
            return 0.0
        return 1e6 if p in res.winners else -1e6 + res.points[p]
    mine = rules.evaluation(rules.ctx(state, {"p": p}))
    best_other = max((rules.evaluation(rules.ctx(state, {"p": q})) for q in rules.player_range if q != p),
                     default=0)
    return mine - best_other


@register
class GreedyAgent(Agent):
    name = "greedy"
    needs_evaluation = True         # it rates positions by the rulebook's result.evaluation

    def choose(self, game) -> int:
        p = game.to_move
        n = len(game.state.pending.options)
        seen = game.for_player(p, sample_seed(self.seed, game.state.moves_made))
        best, best_val = [], None
        for i in range(n):
            g = seen.branch()
            g.play_index(i)
            v = evaluate(g, p)
            if best_val is None or v > best_val:
                best, best_val = [i], v
            elif v == best_val:
                best.append(i)
        return best[0] if len(best) == 1 else self.rng.choice(best)
