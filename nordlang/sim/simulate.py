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
`trigger_note`, its last argument: what set it off) and elapsed (seconds;
the one field that is not reproducible). A game that fails with a rules
error gets `error` instead of the results.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import time
from dataclasses import dataclass

from ..errors import LoadError, NordError, Pos, UsageError

SIM_FORMAT = "nordlang-sim/1"


@dataclass(frozen=True)
class Config:
    rulebook: str | None = None
    variants: tuple = ()
    players: int | None = None
    agents: tuple = ("random",)
    seed: int = 0
    rotate: bool = True
    trigger_note: str = "scoring"
    max_decisions: int = 100_000

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

    def identity(self, rules) -> dict:
        """What a results file must share with this configuration to be resumed."""
        return {"rulebook": rules.digest, "variants": [str(v) for v in self.variants],
                "players": rules.num_players, "agents": list(self.agents), "seed": self.seed,
                "rotate": self.rotate, "trigger_note": self.trigger_note, "max_decisions": self.max_decisions}


# what each game record holds (an error record: game, seed, agents, error, elapsed)
_RECORD = {"game": int, "seed": int, "agents": list, "points": list, "winners": list, "turns": int,
           "decisions": int, "forced": int, "branching": (int, float), "lead_changes": int, "notes": dict,
           "sources": dict, "triggers": list, "options_by_turn": list}
_FAILED = {"game": int, "seed": int, "agents": list, "error": str}
# identity keys that older results files lack, with the value they were made with
_IDENTITY_DEFAULTS = {"max_decisions": 100_000}


def _record_problem(rec, players) -> str | None:
    """Why a line of a results file is no game record (None when it is one)."""
    if not isinstance(rec, dict):
        return "not a JSON object"
    shape = _FAILED if "error" in rec else _RECORD
    for key, typ in shape.items():
        if key not in rec:
            return f"no {key!r}"
        if not isinstance(rec[key], typ) or isinstance(rec[key], bool):
            return f"{key!r} is {json.dumps(rec[key])[:40]}"
    if rec["game"] < 0:
        return f"game number {rec['game']}"
    if not all(isinstance(a, str) for a in rec["agents"]):
        return "'agents' is not a list of agent names"
    if "points" in rec and (len(rec["points"]) != players
                            or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in rec["points"])):
        return f"'points' is not one number for each of the {players} players"
    return None


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
    rules = load_rules(config.rulebook, config.players, list(config.variants))
    check_agents(config.agents, rules)
    config.seat_specs(rules.num_players, 0)
    return rules


# ---------------- one game ----------------
_RULES: dict = {}


def _rules_for(config: Config):
    from .. import load_rules
    key = (config.rulebook, tuple(config.variants), config.players)
    r = _RULES.get(key)
    if r is None:
        r = _RULES[key] = load_rules(config.rulebook, config.players, list(config.variants))
    return r


def run_game(config: Config, i: int) -> dict:
    """Play game i of the configuration and return its record."""
    from ..agents.base import agent_seed, make_agent
    from ..engine.game import Game
    from .runner import play_out

    rules = _rules_for(config)
    players = rules.num_players
    seed = game_seed(config.seed, i)
    specs = config.seat_specs(players, i)
    rec = {"game": i, "seed": seed, "agents": specs}
    t0 = time.perf_counter()
    options_by_turn: dict = {}
    lead = {"leader": None, "changes": 0}

    def leader_of(counters):
        pts = [counters.get(("points", p), 0) for p in rules.player_range]
        top = max(pts)
        return pts.index(top) if pts.count(top) == 1 else None

    def on_step(game):
        ld = leader_of(game.state.counters)
        if ld is not None and ld != lead["leader"]:
            if lead["leader"] is not None:
                lead["changes"] += 1
            lead["leader"] = ld

    class _Counting:
        """Wraps an agent to record the number of options of each decision."""

        def __init__(self, agent):
            self.agent = agent

        def choose(self, game):
            st = game.state
            slot = options_by_turn.setdefault(st.turn, [0, 0])
            slot[0] += 1
            slot[1] += len(st.pending.options)
            return self.agent.choose(game)

    try:
        agents = [_Counting(make_agent(s, agent_seed(seed, k))) for k, s in enumerate(specs)]
        game = Game(rules, seed)
        play_out(game, agents, on_step, config.max_decisions)
    except NordError as e:
        rec["error"] = f"{e.pos}: {e.message}" if e.pos else e.message     # (where in the rules, for the summary)
        rec["elapsed"] = round(time.perf_counter() - t0, 4)
        return rec
    st = game.state
    res = game.result
    sources = list(rules.sources) or sorted({k[2] for k in st.counters if k[0] == "points" and len(k) == 3})
    notes: dict = {}
    triggers = []
    for ev in st.events:
        if ev[0] == "note":
            notes[ev[1]] = notes.get(ev[1], 0) + 1
            if ev[1] == config.trigger_note and len(ev) > 2:
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
        "lead_changes": lead["changes"],
        "notes": dict(sorted(notes.items())),
        "triggers": triggers,
        "elapsed": round(time.perf_counter() - t0, 4),
    })
    return rec


def _plain(v):
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    return str(v)


def reproducible(rec: dict) -> dict:
    """A record without its timing (what two runs of the same game share)."""
    return {k: v for k, v in rec.items() if k != "elapsed"}


# ---------------- running many games ----------------
def _worker_init():
    # Ctrl-C goes to the parent, which stops the pool; workers stay quiet.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_one(args):
    config, i = args
    return run_game(config, i)


def run_games(config: Config, indices, jobs: int = 0, scheduler: str | None = None):
    """Yield the records of the games `indices`, in the order they finish.

    jobs: worker processes (0: one per core; 1: in this process).
    scheduler: the address of a Dask scheduler (tcp://host:port) instead.
    Stopping the iteration (or Ctrl-C) stops the workers.
    """
    indices = list(indices)
    if not indices:
        return
    if scheduler is not None:
        yield from _run_dask(config, indices, scheduler)
        return
    if jobs <= 0:
        jobs = os.cpu_count() or 1
    jobs = min(jobs, len(indices))
    if jobs == 1:
        for i in indices:
            yield run_game(config, i)
        return
    import multiprocessing as mp
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    pool = ctx.Pool(jobs, initializer=_worker_init)
    try:
        yield from pool.imap_unordered(_run_one, [(config, i) for i in indices])
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def connect(scheduler: str, timeout: float = 10.0):
    """A Dask client for the scheduler at `scheduler`; a clear error when it cannot be reached."""
    try:
        from distributed import Client
    except ImportError:
        raise UsageError("--scheduler needs Dask: pip install 'nordlang[dask]'") from None
    if "://" not in scheduler:
        raise UsageError(f"scheduler address {scheduler!r} must look like tcp://HOST:PORT")
    try:
        return Client(scheduler, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError) as e:
        raise UsageError(f"cannot reach the Dask scheduler at {scheduler}: {e.__class__.__name__}") from None
    except ValueError as e:
        raise UsageError(f"bad scheduler address {scheduler!r}: {e}") from None


def _run_dask(config, indices, scheduler):
    client = scheduler if not isinstance(scheduler, str) else connect(scheduler)
    from distributed import as_completed
    futures = client.map(run_game, [config] * len(indices), indices, pure=False)
    try:
        for fut in as_completed(futures, loop=client.loop):
            yield fut.result()
    finally:
        for f in futures:
            f.cancel()
        if isinstance(scheduler, str):
            client.close()


# ---------------- results files ----------------
def header_line(config: Config, rules, n: int) -> str:
    return json.dumps({"format": SIM_FORMAT, "config": config.identity(rules), "games": n,
                       "rulebook_path": config.rulebook}, sort_keys=True)


def open_output(path, config: Config, rules, n: int, resume: bool):
    """Open the results file; returns (file, records already there).

    With resume, the file's header must match the configuration (else a
    UsageError) and a last line cut short is dropped; without, the file is
    started anew. Errors (a folder that does not exist, no permission)
    come here, before any game runs.
    """
    done: dict = {}
    if resume and os.path.exists(path):
        done, good_bytes = read_results(path, config.identity(rules))
        try:
            f = open(path, "r+", encoding="utf-8")
            f.truncate(good_bytes)
            f.seek(good_bytes)
        except OSError as e:
            raise LoadError(f"cannot write {path}: {e.strerror}", Pos(str(path))) from None
        return f, done
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise LoadError(f"cannot write {path}: folder {directory} does not exist", Pos(str(path)))
    try:
        f = open(path, "w", encoding="utf-8")
    except OSError as e:
        raise LoadError(f"cannot write {path}: {e.strerror}", Pos(str(path))) from None
    f.write(header_line(config, rules, n) + "\n")
    f.flush()
    return f, done


def read_results(path, identity: dict | None = None):
    """({game: record}, bytes of complete lines) of a results file.

    With `identity`, the header must match it: a file made with another
    rulebook, variants, players, agents or seed is a UsageError.
    """
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise LoadError(f"no such results file: {path}", Pos(str(path))) from None
    except OSError as e:
        raise LoadError(f"cannot read {path}: {e.strerror}", Pos(str(path))) from None
    lines = data.split(b"\n")
    good = 0
    records: dict = {}
    header = None
    for no, raw in enumerate(lines, 1):
        if no == len(lines):        # after the last newline: a line cut short, or nothing
            break
        try:
            rec = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            if header is None:
                raise UsageError(f"{path} is not a simulation results file (its first line is not JSON)") from None
            if no >= len(lines) - 1:
                break
            raise LoadError(f"line {no} is not JSON", Pos(str(path), no)) from None
        good += len(raw) + 1
        if header is None:
            if not isinstance(rec, dict) or rec.get("format") != SIM_FORMAT:
                raise UsageError(f"{path} is not a simulation results file (no {SIM_FORMAT} header)")
            if not isinstance(rec.get("config"), dict) or not isinstance(rec["config"].get("players"), int):
                raise UsageError(f"{path} is not a simulation results file (its header has no configuration)")
            header = rec
            continue
        why = _record_problem(rec, header["config"]["players"])
        if why is not None:
            raise LoadError(f"line {no} is not a game record of nord simulate ({why})", Pos(str(path), no),
                            hint="the file was edited: remove that line, or start anew without --resume")
        records[rec["game"]] = rec
    if header is None:
        raise UsageError(f"{path} is not a simulation results file (it is empty)")
    if identity is not None:
        had = {**_IDENTITY_DEFAULTS, **header["config"]}
        diffs = [k for k in identity if had.get(k) != identity[k]]
        if diffs:
            k = diffs[0]
            raise UsageError(f"{path} was made with another configuration: {k} {had.get(k)!r} there, "
                             f"{identity[k]!r} now")
    return records, good


def write_record(f, rec: dict) -> None:
    f.write(json.dumps(rec, sort_keys=True) + "\n")
    f.flush()


def simulate(config: Config, n: int, jobs: int = 0, scheduler=None, on_record=None) -> list:
    """Run games 0..n-1 and return their records sorted by game (a library entry point)."""
    prepare(config)
    out = []
    for rec in run_games(config, range(n), jobs, scheduler):
        out.append(rec)
        if on_record is not None:
            on_record(rec)
    out.sort(key=lambda r: r["game"])
    return out


__all__ = ["Config", "game_seed", "prepare", "run_game", "run_games", "simulate", "reproducible",
           "open_output", "read_results", "write_record", "connect", "SIM_FORMAT"]
