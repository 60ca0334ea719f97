"""Any nordlang game as an OpenSpiel game (pyspiel), for OpenSpiel's own tools.

    from nordlang.openspiel import load_game
    game = load_game(name, players=2, variants="a,b", **constants)   # a bundled game (`nord games`)
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)

The adapter knows no game: everything comes from the compiled rulebook.

- Sequential (OpenSpiel's turn-based form): a secret simultaneous choice is
  asked of one player after the other, each player's information state
  hiding the others' answers until the rules reveal them.
- Chance nodes: every chance event of the rules (a roll, each step of a
  shuffle) is a node of its own, with the event's exact probabilities. The
  engine's chance source is `Scripted`: a step (the setup, or a decision and
  what follows until the next one) is run again from its start with the
  outcomes given so far; `ChanceNeeded` means one more is wanted.
- Action ids: a decision's action is the index of the option among the
  pending choice's options (in the engine's own order, which is the same in
  every position a player cannot tell apart: he sees the options).
  `num_distinct_actions` is a bound, estimated per game from seeded random
  games (twice the most options seen, at least 8) unless the parameter
  `max_actions` gives it; a position with more options is an error naming
  that parameter. A chance action is the index of the outcome among the
  event's outcomes, bounded the same way.
- Information state (perfect recall): for each player, the sequence of
  what he saw: every decision (his own with its option, another's secret
  one as '?'), each secret answer when it is revealed, and after every step
  his observation (the first line, whose decision it is, in full; the
  other lines as what changed). In a game with no hidden information and no
  secret choice it is the sequence of all actions, chance outcomes included.
- Serialization: the action history; a state is rebuilt by replaying it.
"""

from __future__ import annotations

import numpy as np
import pyspiel

import nordlang
from nordlang.engine.views import observation

from .core import VARIANT_SEP, _Engine

PREFIX = "nordlang_"            # a bundled game 'a-b' is OpenSpiel's 'nordlang_a_b'

_ENGINES: dict = {}             # (name, parameters) -> _Engine
_REGISTERED: dict = {}          # short name -> the game class registered for it


# ---------------- loading and registering ----------------
def short_name(name: str) -> str:
    return PREFIX + name.replace("-", "_")


def register(name: str) -> str:
    """Register a bundled game with OpenSpiel (once) and give its short name:
    `pyspiel.load_game("nordlang_<name>(players=2)")` then works, and a
    serialized game and state can be read back in this process."""
    short = short_name(name)
    if short in _REGISTERED:
        return short
    rules = nordlang.load_rules(name)
    spec = {"players": rules.num_players, "variants": "", "max_actions": 0}
    for k, v in (rules.data.get("constants") or {}).items():
        if type(v) in (int, float, bool, str) and k not in spec:
            spec[k] = v
    cls = type(f"NordlangGame_{short}", (NordlangGame,), {"bundled": name, "spec": spec})
    engine = _engine_for(name, spec, spec)
    _REGISTERED[short] = cls
    if short not in pyspiel.registered_names():
        pyspiel.register_game(_game_type(short, rules, engine, spec), cls)
    return short


def load_game(name: str, **params) -> NordlangGame:
    """A bundled nordlang game as a pyspiel game. `params`: players,
    variants (a list, or names joined by ',' or '+'), max_actions (the bound
    on a decision's options; 0: estimated), and the game's own parameters
    (its constants, each a keyword)."""
    short = register(name)
    variants = params.pop("variants", "")
    if isinstance(variants, (list, tuple)):
        variants = VARIANT_SEP.join(variants)
    params["variants"] = VARIANT_SEP.join(v.strip() for v in str(variants).replace(",", VARIANT_SEP)
                                          .split(VARIANT_SEP) if v.strip())
    return pyspiel.load_game(short, params)


def _engine_for(name, params, spec) -> _Engine:
    params = {**spec, **params}
    key = (name, tuple(sorted(params.items())))
    engine = _ENGINES.get(key)
    if engine is None:
        engine = _ENGINES[key] = _Engine(name, params, spec)
    return engine


def _game_type(short, rules, engine, spec):
    t = pyspiel.GameType
    pl = rules.data["players"]
    min_players, max_players = pl["min"], min(pl["max"], len(rules.colors))
    return t(short_name=short, long_name=f"nordlang {rules.name}",
             dynamics=t.Dynamics.SEQUENTIAL,
             chance_mode=t.ChanceMode.EXPLICIT_STOCHASTIC if rules.uses_chance else t.ChanceMode.DETERMINISTIC,
             information=t.Information.PERFECT_INFORMATION if engine.perfect else t.Information.IMPERFECT_INFORMATION,
             utility=engine.utility, reward_model=t.RewardModel.TERMINAL,
             max_num_players=max_players, min_num_players=min_players,
             provides_information_state_string=True, provides_information_state_tensor=False,
             provides_observation_string=True, provides_observation_tensor=False,
             parameter_specification=spec)


def _rebuild(name, params_key, actions):
    engine = _engine_for(name, dict(params_key), _REGISTERED[register(name)].spec)
    core = engine.initial()
    for a in actions:
        core = core.apply(a)
    return core


# ---------------- the pyspiel game and state ----------------
class NordlangGame(pyspiel.Game):
    """A nordlang rulebook as a pyspiel game (made by `load_game`, or by
    `pyspiel.load_game("nordlang_<name>(...)")` once registered)."""

    bundled: str = ""               # the game's name (set in the class register() makes for it)
    spec: dict = {}                 # its parameters and their defaults

    def __init__(self, params=None):
        params = {**self.spec, **(params or {})}
        engine = _engine_for(self.bundled, params, self.spec)
        rules = engine.rules
        self.engine = engine
        info = pyspiel.GameInfo(num_distinct_actions=engine.num_actions, max_chance_outcomes=engine.num_outcomes,
                                num_players=rules.num_players, min_utility=engine.min_utility,
                                max_utility=engine.max_utility, utility_sum=engine.utility_sum,
                                max_game_length=engine.max_length)
        super().__init__(_game_type(short_name(self.bundled), rules, engine, self.spec), info, params)

    def new_initial_state(self):
        return NordlangState(self, self.engine.initial())

    def make_py_observer(self, iig_obs_type=None, params=None):
        return _Observer(iig_obs_type, params)


class NordlangState(pyspiel.State):
    """An OpenSpiel state of a nordlang game (see the module's notes)."""

    def __init__(self, game, core=None):
        super().__init__(game)
        self._core = core if core is not None else game.engine.initial()

    def current_player(self):
        return self._core.current_player()

    def _legal_actions(self, player):
        core = self._core
        if core.chance is not None or core.state.over or player != core.state.pending.player:
            return []
        return list(range(len(core.state.pending.options)))

    def chance_outcomes(self):
        ch = self._core.chance
        return [(i, float(q)) for i, q in enumerate(ch.probs) if q]

    def _apply_action(self, action):
        self._core = self._core.apply(int(action))

    def _action_to_string(self, player, action):
        core = self._core
        if player == pyspiel.PlayerId.CHANCE and core.chance is not None:
            ch = core.chance
            return f"{ch.label}: {ch.outcomes[action]}" if 0 <= action < len(ch.outcomes) else f"outcome {action}"
        p = core.state.pending
        if p is not None and 0 <= action < len(p.options):
            return f"{p.step.name} {p.text(action)}"
        return f"action {action}"

    def is_terminal(self):
        core = self._core
        return core.chance is None and core.state.over

    def returns(self):
        return self._core.returns()

    def information_state_string(self, player=None):
        if player is None:
            player = self.current_player()
        return self._core.information_state(player)

    def observation_string(self, player=None):
        if player is None:
            player = self.current_player()
        return self._core.observation(player)

    def __str__(self):
        return observation(self._core.state, None)


class _Observer:
    """OpenSpiel's observer: the information state (perfect recall) or the
    observation, as text (no tensors)."""

    def __init__(self, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported; given {params}")
        t = iig_obs_type
        if t is not None and (t.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not t.public_info):
            raise ValueError("only a player's own view is supported (his private and the public information)")
        self.perfect_recall = t is not None and t.perfect_recall
        self.tensor = np.zeros(0, np.float32)
        self.dict = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        if self.perfect_recall:
            return state.information_state_string(player)
        return state.observation_string(player)
