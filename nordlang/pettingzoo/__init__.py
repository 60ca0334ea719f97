"""Any nordlang rulebook as a PettingZoo AEC environment.

    from nordlang.pettingzoo import env
    e = env("tictactoe", players=2)          # a bundled game's name, a rulebook path, or compiled rules
    e.reset(seed=0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

- Agents are "player_0", "player_1", ... (seat order; `info["color"]` is
  the seat's colour). The agent selected is the one whose decision is
  pending; a secret simultaneous choice is asked of one player after the
  other, each seeing only his own view.
- Observation: {"observation": the viewer's own view as arrays (the
  layout is in encoding.py; `env.unwrapped.encoding` names every row and
  channel), "action_mask": int8, 1 for each option of the viewer's pending
  choice}. The view is one float32 vector, the sections of
  `encoding.shapes()` raveled in order (`encoding.split(vector)` gives
  them back); with `flat=False`, a dict of those sections.
- Action: the index of an option among the pending choice's options, as
  `Game.legal_moves()` lists them. `Discrete(max_actions)`: the bound is
  estimated from 16 seeded random games (twice the most options seen, at
  least 8; the same games find the named counters the observation holds)
  unless `max_actions` is given; a position with more options is
  a RulesError naming it. A masked-out action is an IllegalMove.
- Rewards: 0 until the end, then `Game.returns()` (the rulebook's returns,
  else +1 a winner, -1 the others, 0 each in a draw). Every agent
  terminates when the game ends; `max_moves` truncates a game that long.
- Seeds: `reset(seed=s)` plays the game of seed s (its chance too); a
  reset without a seed plays the next seed.
"""

from __future__ import annotations

import weakref

try:
    import gymnasium
    import numpy as np
    from pettingzoo import AECEnv
except ImportError as e:            # (an optional extra)
    from ..errors import UsageError
    raise UsageError(f"nordlang.pettingzoo needs PettingZoo, which is not installed ({e.name} is missing)",
                     hint="pip install 'nordlang[pettingzoo]'") from None

import nordlang

from ..engine.game import Game
from ..errors import IllegalMove, RulesError
from ..rules.model import Rules
from .encoding import DTYPE, Encoding, survey

__all__ = ["env", "NordlangEnv", "Encoding"]

def env(game, players: int | None = None, variants=(), params=None, **options) -> NordlangEnv:
    """The AEC environment of a game: a bundled name or a rulebook path (with
    `players`, `variants` and `params` as `nordlang.load_rules` takes them),
    or compiled rules. `options`: max_actions, max_moves, flat, render_mode."""
    if isinstance(game, Rules):
        if players is not None or variants or params:
            raise TypeError("compiled rules have their players, variants and parameters already")
        rules = game
    else:
        rules = nordlang.load_rules(game, players, variants, params)
    return NordlangEnv(rules, **options)


_SURVEYS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()      # rules -> survey(rules)


def _surveyed(rules):
    got = _SURVEYS.get(rules)
    if got is None:
        got = _SURVEYS[rules] = survey(rules)
    return got


class NordlangEnv(AECEnv):
    """A compiled rulebook as an AEC environment (see the module's notes)."""

    metadata = {"name": "nordlang_v0", "render_modes": ["ansi", "svg"], "is_parallelizable": False}

    def __init__(self, rules, max_actions: int = 0, max_moves: int | None = None, flat: bool = True,
                 render_mode: str | None = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']} or None, not {render_mode!r}")
        for name, value in (("max_actions", max_actions), ("max_moves", max_moves)):
            if value is not None and (type(value) is not int or value < 0):
                raise ValueError(f"{name} must be a whole number, 0 or more, not {value!r}")
        self.rules = rules
        self.render_mode = render_mode
        self.flat = flat
        self.max_moves = max_moves
        most, named = _surveyed(rules)
        self.num_actions = max_actions or max(2 * most, 8)
        self.game = Game(rules, 0)
        self.encoding = Encoding(rules, self.game.machine, named)
        self.possible_agents = [f"player_{p}" for p in rules.player_range]
        self._index = {a: p for p, a in enumerate(self.possible_agents)}
        shapes = self.encoding.shapes()
        if flat:
            size = sum(int(np.prod(s)) for s in shapes.values())
            inner = gymnasium.spaces.Box(-np.inf, np.inf, (size,), DTYPE)
        else:
            inner = gymnasium.spaces.Dict({name: gymnasium.spaces.Box(-np.inf if name == "counters" else 0.0,
                                                                      np.inf, shape, DTYPE)
                                           for name, shape in shapes.items()})
        mask = gymnasium.spaces.Box(0, 1, (self.num_actions,), np.int8)
        self.observation_spaces = {a: gymnasium.spaces.Dict({"observation": inner, "action_mask": mask})
                                   for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(self.num_actions) for a in self.possible_agents}
        self._seed = 0
        self.moves = 0

    def __str__(self) -> str:
        return f"nordlang {self.rules.name} ({self.rules.num_players} players)"

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ---- playing ----
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seed = seed
        self.game = Game(self.rules, self._seed)
        self._seed += 1
        self.moves = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {"color": self.rules.color(p)} for p, a in enumerate(self.agents)}
        self._skip_agent_selection = None
        self._check_bound()
        self._select()

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalMove(f"{agent} has a decision to take: None is an action only for an agent that is done")
        game = self.game
        n = len(game.state.pending.options)
        if isinstance(action, bool) or not hasattr(action, "__index__") or not 0 <= int(action) < n:
            raise IllegalMove(f"action {action!r} is not allowed: {agent}'s choice {game.choice!r} has {n} "
                              f"option{'s' if n != 1 else ''}, numbered 0 to {n - 1} (see the action mask)")
        self._cumulative_rewards[agent] = 0.0
        game.play_index(int(action))
        self.moves += 1
        self._clear_rewards()
        if game.over:
            for p, value in enumerate(game.returns()):
                self.rewards[self.possible_agents[p]] = value
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_moves is not None and self.moves >= self.max_moves:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self._check_bound()
        self._accumulate_rewards()
        self._select()

    def _select(self) -> None:
        """The agent whose decision is pending; once all are done, the first of them (each then steps None)."""
        who = self.game.to_move
        done = self.truncations[self.agents[0]] or who is None
        self.agent_selection = self.agents[0] if done else self.possible_agents[who]

    def _check_bound(self) -> None:
        p = self.game.state.pending
        if p is not None and len(p.options) > self.num_actions:
            raise RulesError(f"choice {p.step.name!r} has {len(p.options)} options, more than the environment's "
                             f"{self.num_actions} actions: make it with a larger max_actions")

    # ---- observing ----
    def observe(self, agent):
        p = self._index[agent]
        sections = self.encoding.encode(self.game.state, p)
        inner = np.concatenate([a.ravel() for a in sections.values()]) if self.flat else sections
        return {"observation": inner, "action_mask": self.action_mask(agent)}

    def action_mask(self, agent) -> np.ndarray:
        """1 for each option of the agent's pending choice (all 0 when it is not his decision)."""
        mask = np.zeros(self.num_actions, np.int8)
        pending = self.game.state.pending
        if pending is not None and pending.player == self._index[agent] and not self.truncations[agent]:
            mask[:len(pending.options)] = 1
        return mask

    def render(self):
        """The position, all of it: as text ("ansi") or an SVG picture ("svg")."""
        if self.render_mode == "svg":
            from ..render.svg import render_svg
            return render_svg(self.rules, self.game.state)
        return self.game.observation(None)

    def close(self) -> None:
        pass
