"""Run many games of one configuration and record each as a plain dict.

A configuration is a rulebook, variants, a player count, agents, a base
seed and the names of the notes to read. Game i gets its own seed,
`game_seed(base, i)`, and its own seating: with `rotate` (the default),
seat s of game i is played by agent (s + i) mod P of the list (the list
is first repeated to P entries), so every agent sits in every seat equally
often over P consecutive games; without it seat s always has agent s.
Agents are seeded from the game's seed and the seat. A game's record
depends on nothing but the configuration and i, so the results are the
same for any number of worker processes, on a Dask cluster or not, and a
run can be resumed.

Records (all JSON-able) hold: game, seed, agents (per seat), points (per
player), sources ({source: [points per player]}, from the counters
("points", p, source) and the rulebook's result.sources), winners, turns,
decisions (taken by agents), forced (taken by the rules: one option),
branching (mean number of options per decision), options_by_turn
([[decisions, options], ...] per turn, from turn 0: the decisions of the
setup, before the first turn), lead_changes, notes ({kind: count}
of every note the rulebook made), triggers (for each note of kind
`trigger_note`, its last argument: what set it off), held ({"zone: piece":
[count per player]}: what each player holds at the end, `held_items`) and elapsed (seconds;
the one field that is not reproducible: `nord simulate` writes it to
--timings only, never to --out). A game that fails with a rules
error gets `error` instead of the results.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

from ..errors import NordError, UsageError
from .parallel import connect
from .results import SIM_FORMAT, iter_results, open_results, read_results, write_record


@dataclass(frozen=True)
class Config:
    rulebook: str | None = None
    variants: tuple = ()
    players: int | None = None
    agents: tuple = ("random",)
    seed: int = 0
    rotate: bool = True
    trigger_note: str | None = None      # None: the rulebook's result.summary.triggers (if any)
    max_decisions: int = 100_000
    params: tuple = ()                   # the game's parameters: (name, value) pairs

    def seat_specs(self, players: int, i: int) -> list:
        """The agent spec of each seat in game i."""
        specs = list(self.agents) or ["random"]
        if len(specs) > players:
            raise UsageError(f"{len(specs)} agents named for {players} players")
        while len(specs) < players:
            specs.append(specs[-1])
        if not self.rotate:
            return specs
        return [specs[(s + i) % players] for s in range(players)]

    def record_problem(self, rec: dict, players: int) -> str | None:
        """Why a record is not game rec["game"] of this configuration (None when it is)."""
        i = rec["game"]
        if rec["seed"] != game_seed(self.seed, i):
            return f"game {i} has seed {rec['seed']}, not {game_seed(self.seed, i)} (game {i} of seed {self.seed})"
        specs = self.seat_specs(players, i)
        if rec["agents"] != specs:
            return f"game {i} has agents {', '.join(rec['agents'])}, not {', '.join(specs)}"
        return None

    def identity(self, rules) -> dict:
        """What a results file must share with this configuration to be resumed."""
        return {"rulebook": rules.digest, "variants": [str(v) for v in self.variants],
                "players": rules.num_players, "agents": list(self.agents), "seed": self.seed,
                "rotate": self.rotate, "trigger_note": self.triggers(rules), "max_decisions": self.max_decisions}

    def triggers(self, rules) -> str | None:
        """The note kind whose last argument is counted as a trigger."""
        return self.trigger_note if self.trigger_note is not None else rules.trigger_note


def game_seed(base: int, i: int) -> int:
    """The seed of game i of a run with base seed `base` (independent of the other games)."""
    h = hashlib.sha256(f"nordlang-sim:{base}:{i}".encode()).digest()
    return int.from_bytes(h[:4], "big") % (2 ** 31)


# ---------------- checking a configuration before any game runs ----------------
def prepare(config: Config):
    """Load the rules and build one set of agents: every error a run could
    meet in its configuration shows here, before any game."""
    from .. import load_rules
    from ..agents.base import check_agents, parse_spec
    for spec in config.agents:
        parse_spec(spec)           # unknown agents fail before the rules load
    rules = load_rules(config.rulebook, config.players, list(config.variants), dict(config.params) or None)
    check_agents(config.agents, rules)
    config.seat_specs(rules.num_players, 0)
    return rules


# ---------------- one game ----------------
_RULES: dict = {}


def _rules_for(config: Config):
    from .. import load_rules
    key = (config.rulebook, tuple(config.variants), config.players, config.params)
    r = _RULES.get(key)
    if r is None:
        r = _RULES[key] = load_rules(config.rulebook, config.players, list(config.variants),
                                     dict(config.params) or None)
        for_many_games()
    return r


def for_many_games() -> None:
    """Set the garbage collector for a process that plays game after game
    (simulate's, and each of its workers), once its rules are loaded: what
    is loaded is moved out of the collector's sight (gc.freeze), and the
    youngest generation is collected after 20,000 new objects, not 700. The
    engine's states hold no reference cycles, so nearly all they leave is
    freed at once by reference counting; the collector only ran through
    the rules again and again (random 4-player Nord games: 9% faster, the
    same memory). The games, and so the records, are the same."""
    import gc
    gc.freeze()
    if gc.get_threshold()[0] < 20_000:
        gc.set_threshold(20_000, 50, 50)


def run_game(config: Config, i: int) -> dict:
    """Play game i of the configuration and return its record."""
    from ..agents.base import agent_seed, make_agent
    from ..engine.game import Game
    from ..lang.reads import counter_part
    from .runner import play_counted

    rules = _rules_for(config)
    players = rules.num_players
    seed = game_seed(config.seed, i)
    specs = config.seat_specs(players, i)
    rec = {"game": i, "seed": seed, "agents": specs}
    t0 = time.perf_counter()
    point_keys = [("points", p) for p in rules.player_range]
    points_part = counter_part(point_keys[0])
    try:
        agents = [make_agent(s, agent_seed(seed, k)) for k, s in enumerate(specs)]
        game = Game(rules, seed)
        options_by_turn, lead_changes = play_counted(game, agents, points_part, point_keys, config.max_decisions)
    except NordError as e:
        rec["error"] = f"{e.pos}: {e.message}" if e.pos else e.message     # (where in the rules, for the summary)
        rec["elapsed"] = round(time.perf_counter() - t0, 4)
        return rec
    st = game.state
    res = game.result
    sources = list(rules.sources) or sorted({k[2] for k in st.counters if k[0] == "points" and len(k) == 3})
    notes: dict = {}
    triggers = []
    trigger_note = config.triggers(rules)
    for ev in st.events:
        if ev[0] == "note":
            notes[ev[1]] = notes.get(ev[1], 0) + 1
            if ev[1] == trigger_note and len(ev) > 2:
                triggers.append(_plain(ev[-1]))
    decisions = sum(v[0] for v in options_by_turn.values())
    options = sum(v[1] for v in options_by_turn.values())
    last_turn = max(options_by_turn, default=0)
    rec.update({
        "points": list(res.points),
        "sources": {s: [st.counters.get(("points", p, s), 0) for p in rules.player_range] for s in sources},
        "winners": list(res.winners),
        "turns": st.turn,
        "decisions": decisions,
        "forced": sum(1 for h in st.history if h[4]),
        "branching": round(options / decisions, 4) if decisions else 0.0,
        "options_by_turn": [options_by_turn.get(t, [0, 0]) for t in range(last_turn + 1)],
        "lead_changes": lead_changes,
        "notes": dict(sorted(notes.items())),
        "triggers": triggers,
        "held": held_items(rules, st),
        "elapsed": round(time.perf_counter() - t0, 4),
    })
    return rec


def held_items(rules, state) -> dict:
    """{"ZONE: PIECE": [count per player]}: what each player holds at the end
    in the rulebook's per-player zones (pools, decks, the cells of grids), by
    piece kind, in the rulebook's own names; a kind nobody holds is left out."""
    per_player = {name for name, z in rules.zones.items() if z.get("per_player")}
    players = rules.num_players
    held: dict = {}

    def count(zone, p, kind, n):
        if n and isinstance(p, int) and 0 <= p < players:
            held.setdefault(f"{zone}: {kind}", [0] * players)[p] += n
    for key, items in state.pools.items():
        if type(key) is tuple and len(key) >= 2 and key[0] in per_player:
            for item, n in items.items():
                count(key[0], key[1], item[0] if type(item) is tuple else item, n)
    for key, items in state.decks.items():
        if type(key) is tuple and len(key) == 2 and key[0] in per_player:
            for item in items:
                count(key[0], key[1], item[0] if type(item) is tuple else item, 1)
    return dict(sorted(held.items()))


def _plain(v):
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    return str(v)


def reproducible(rec: dict) -> dict:
    """A record without its timing (what two runs of the same game share)."""
    return {k: v for k, v in rec.items() if k != "elapsed"}


# ---------------- running many games ----------------
def run_games(config: Config, indices, jobs: int = 0, scheduler=None, total: int | None = None):
    """Yield the records of the games `indices` (read lazily), in that order.

    jobs: worker processes (0: one per core; 1: in this process).
    scheduler: a Dask client, or the address of a Dask scheduler (tcp://host:port).
    Stopping the iteration (or Ctrl-C) stops the workers.
    """
    from .parallel import run_tasks
    if total is None and isinstance(indices, range):
        try:
            total = len(indices)
        except OverflowError:       # more than sys.maxsize games: played lazily all the same
            pass
    return run_tasks(((config, i) for i in indices), jobs, scheduler, total)


def simulate(config: Config, n: int, jobs: int = 0, scheduler=None, on_record=None) -> list:
    """Run games 0..n-1 and return their records in game order (a library entry point: all in memory)."""
    prepare(config)
    out = []
    for rec in run_games(config, range(n), jobs, scheduler):
        out.append(rec)
        if on_record is not None:
            on_record(rec)
    return out


__all__ = ["Config", "game_seed", "prepare", "run_game", "run_games", "simulate", "reproducible",
           "open_results", "read_results", "iter_results", "write_record", "connect", "SIM_FORMAT"]
