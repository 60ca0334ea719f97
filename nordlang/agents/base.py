"""Agents choose among a game's legal moves; the registry makes them by name.

An agent is named on the command line as `name` or `name:key=value,...`
(for example `mcts:playouts=200`). Every agent is deterministic given its
seed.
"""

from __future__ import annotations

import random

from ..errors import UsageError, did_you_mean

REGISTRY: dict = {}


class Agent:
    name = "agent"
    params: dict = {}       # parameter -> (type, default, doc)
    # A host's ceiling on one decision's wall time (the page sets it): a search
    # stops there whatever its budget of work, so a seat like
    # mcts:playouts=100000 cannot hold a server. None: no ceiling (as the CLI
    # and simulate play: deterministic given the seed).
    time_cap: float | None = None

    def __init__(self, seed: int = 0, **params):
        self.rng = random.Random(seed)
        self.seed = seed
        for k, (_typ, default, _doc) in self.params.items():
            setattr(self, k, params.get(k, default))

    def choose(self, game) -> int:
        """The index of the chosen move among game.legal_moves()."""
        raise NotImplementedError

    def __str__(self) -> str:
        args = ",".join(f"{k}={getattr(self, k)}" for k in self.params)
        return f"{self.name}:{args}" if args else self.name


def register(cls):
    REGISTRY[cls.name] = cls
    return cls


def parse_spec(spec: str):
    """'mcts:playouts=200,c=1.4' -> ('mcts', {'playouts': 200, 'c': 1.4}); errors are UsageError."""
    _load_all()
    name, _, rest = spec.strip().partition(":")
    cls = REGISTRY.get(name)
    if cls is None:
        raise UsageError(f"unknown agent {name!r}", hint=did_you_mean(name, REGISTRY) or
                         f"agents: {', '.join(sorted(REGISTRY))}")
    params = {}
    for part in filter(None, rest.split(",")):
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq:
            raise UsageError(f"agent parameter {part!r} needs a value", expected="key=value")
        if key not in cls.params:
            raise UsageError(f"agent {name!r} has no parameter {key!r}",
                             hint=did_you_mean(key, cls.params) or
                             (f"parameters: {', '.join(cls.params)}" if cls.params else "it takes none"))
        typ = cls.params[key][0]
        try:
            params[key] = typ(value)
        except ValueError:
            raise UsageError(f"agent parameter {key}={value!r} must be {typ.__name__}") from None
        if typ in (int, float) and params[key] < 0:
            raise UsageError(f"agent parameter {key}={value} must not be negative")
    return cls, params


def make_agent(spec: str, seed: int) -> Agent:
    cls, params = parse_spec(spec)
    return cls(seed, **params)


def sample_seed(agent_seed: int, moves_made: int, k: int = 0) -> int:
    """The seed of an agent's k-th sample of a position (Game.for_player): from
    the agent's seed and what every player knows (how many moves were made),
    so it never depends on what the agent cannot see, and drawing it takes
    nothing from the agent's own generator."""
    return (agent_seed * 1_000_003 + moves_made * 7_919 + k * 104_729 + 1) % (2 ** 62)


def agent_seed(game_seed: int, seat: int) -> int:
    return (game_seed * 7919 + seat * 104729 + 17) % (2 ** 31)


def check_agents(specs, rules, interactive: bool = False) -> None:
    """Every error the named agents would meet with these rules, before any
    game; an agent that reads the terminal only where a person plays (interactive)."""
    for spec in specs:
        cls = parse_spec(spec)[0]
        if getattr(cls, "interactive", False) and not interactive:
            raise UsageError(f"agent {cls.name!r} is a person at the terminal: it plays in `nord play` only",
                             hint="let a program take the seat here (random, greedy, mcts)")
        if getattr(cls, "needs_evaluation", False) and rules.evaluation is None:
            raise UsageError(f"agent {cls.name!r} needs the rulebook's result.evaluation, which this rulebook "
                             "does not state", hint="use the random agent, or state result.evaluation")


def make_agents(specs, players: int, game_seed: int) -> list:
    """One agent per seat; a shorter list repeats its last entry."""
    specs = list(specs) or ["random"]
    while len(specs) < players:
        specs.append(specs[-1])
    if len(specs) > players:
        raise UsageError(f"{len(specs)} agents named for {players} players")
    return [make_agent(s, agent_seed(game_seed, i)) for i, s in enumerate(specs)]


def _load_all():
    from . import greedy, human, random_agent  # noqa: F401
    try:
        from . import mcts  # noqa: F401
    except ImportError:  # pragma: no cover - optional module
        pass
