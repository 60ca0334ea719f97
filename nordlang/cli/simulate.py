"""`nord simulate`: many games of one configuration, their statistics.

Game i has its own seed derived from --seed and i, and agents rotate over
the seats (seat s of game i gets agent (s + i) mod P of --agents, the list
first repeated to P entries) unless --fixed-seats: so the results are the
same for any --jobs, on a Dask cluster or not, and a run can be resumed.
Records stream to --out in game order; the statistics are running counts
(see DETERMINISM below, which is also the command's help).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from contextlib import contextmanager

from ..errors import NordError, UsageError
from . import add_json_option, add_rules_options, at_least_one, params_of, positive_int, rulebook_text

DETERMINISM = """\
Same command, same --seed: the same --out file, byte for byte, for any
--jobs and on a Dask cluster. Game i's seed is derived from --seed and i;
agents rotate over the seats (in game i, seat s is played by agent
(s + i) mod P of --agents, the list first repeated to P entries;
--fixed-seats keeps agent s in seat s); records are written in game
order and hold no timing (--timings FILE writes each game's seconds
apart).

--out FILE is written append-safely: made (or with --force replaced)
atomically with its header line, then each game's record is appended as
soon as it and every game before it are done, flushed at once and synced
to disk every second and at the end. After Ctrl-C or SIGTERM (the games
stop cleanly, exit 130) or a crash, FILE holds every finished game;
--resume plays only the missing games and appends them, giving the same
file as an uninterrupted run (with the same -n). An existing non-empty
FILE is refused unless --resume or --force is given, and --resume
refuses a file made by another command (rulebook, variants, players,
agents, seed, seats, limits). Memory stays flat in the number of games:
the statistics are kept as running counts (a median is left out when a
number takes too many distinct values) and the records go only to FILE;
-n may be any size, games start at once.
"""


def add(sub):
    import argparse
    p = sub.add_parser(
        "simulate", help="play many games and print win rates, points, length and balance",
        description="Play GAMES games of one configuration (in worker processes, or on a Dask cluster) and "
                    "print statistics: win rates by seat and agent with 95% Wilson intervals, points by source, "
                    "length, what triggered the scorings, counts of the rulebook's notes, what each player holds "
                    "at the end (its per-player zones, by piece), seat balance, "
                    "branching factor and lead changes.",
        epilog=DETERMINISM, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_rules_options(p, params=True)
    add_run_options(p)
    p.add_argument("--out", metavar="FILE", help="write one JSON line per game to FILE, in game order as games "
                                                 "finish (a header line first)")
    p.add_argument("--resume", action="store_true", help="with --out: keep the games already in FILE (made "
                                                         "with the same command) and play only the missing")
    p.add_argument("--force", action="store_true", help="replace an existing --out (or --timings) FILE")
    p.add_argument("--timings", metavar="FILE", help="write each game's seconds to FILE (JSON lines; not "
                                                     "reproducible, so never in --out)")
    p.add_argument("--plot", metavar="DIR", help="write charts of the points and length distributions to DIR "
                                              "(SVG and PNG; needs matplotlib)")
    add_json_option(p)
    p.set_defaults(func=run)


def add_run_options(p, agents=True):
    """Options shared by simulate and compare."""
    from ..sim.parallel import SCHEMES, positive_seconds, scheduler_address
    p.add_argument("-n", "--games", type=positive_int, default=100, metavar="GAMES",
                   help="number of games (default 100)")
    if agents:
        p.add_argument("--agents", default="random", metavar="A,B,...",
                       help="agents, one per seat (the last repeats), e.g. greedy,mcts:playouts=100 "
                            "(default random)")
    p.add_argument("--fixed-seats", action="store_true",
                   help="keep agent s in seat s (default: agents rotate over the seats from game to game)")
    p.add_argument("--seed", type=positive_int, default=0, help="base seed (default 0)")
    p.add_argument("--jobs", "-j", type=positive_int, default=0, metavar="J",
                   help="worker processes (default 0: one per core; 1 runs in this process)")
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT", type=scheduler_address,
                   help="run the games on a Dask scheduler instead, in chunks of games (needs the 'dask' extra; "
                        f"schemes: {', '.join(SCHEMES)})")
    p.add_argument("--scheduler-timeout", type=positive_seconds, default=10.0, metavar="SECONDS",
                   help="how long to try to reach the scheduler (default 10)")
    p.add_argument("--trigger-note", metavar="KIND",
                   help="the note kind whose last argument names what set it off (default: the rulebook's "
                        "result.summary.triggers)")
    p.add_argument("--max-decisions", type=at_least_one, default=100_000, metavar="N",
                   help="a game that has not ended after N decisions counts as failed (default 100000)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def split_agents(text: str) -> tuple:
    """'greedy,mcts:playouts=50,c=0.5' -> ('greedy', 'mcts:playouts=50,c=0.5'); an empty name is an error."""
    specs: list = []
    # 'mcts:playouts=50,c=0.5,greedy' : a comma that starts key=value belongs to the agent before
    for part in text.split(","):
        part = part.strip()
        if not part:
            raise UsageError(f"--agents {text!r} names no agent" if not text.strip(" ,")
                             else f"--agents {text!r} has an empty entry (two commas, or one at an end)")
        if specs and "=" in part and ":" not in part and "=" in specs[-1]:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return tuple(specs)


def one_line(e: NordError) -> UsageError:
    """The error as one line (expected and hint, if any, in brackets)."""
    from ..errors import ErrorList
    if isinstance(e, ErrorList) and e.errors:
        first = one_line(e.errors[0])
        more = len(e.errors) - 1
        return UsageError(first.message + (f" (and {more} more error(s))" if more else ""))
    msg = f"{e.pos}: {e.message}" if getattr(e, "pos", None) and e.pos.file else e.message
    extra = "; ".join(x for x in (e.expected and f"expected {e.expected}", e.hint) if x)
    return UsageError(msg + (f" ({extra})" if extra else ""))


def make_config(rulebook, variants, players, agents_text, args):
    from ..sim.simulate import Config
    return Config(rulebook=rulebook_text(rulebook), variants=tuple(variants), players=players,
                  agents=split_agents(agents_text), seed=args.seed, rotate=not args.fixed_seats,
                  trigger_note=args.trigger_note, max_decisions=getattr(args, "max_decisions", 100_000),
                  params=tuple(sorted(params_of(args).items())))


def check_config(config):
    """Load rules and parse agents; any error becomes one line, exit 2."""
    from ..sim.simulate import prepare
    try:
        return prepare(config)
    except NordError as e:
        raise one_line(e) from None


def check_scheduler(args):
    if not args.scheduler:
        return None
    from ..sim.parallel import connect
    return connect(args.scheduler, args.scheduler_timeout)


def close_scheduler(client):
    if client is not None:
        from ..sim.parallel import close
        close(client)


class Progress:
    """A one-line progress bar on stderr: done/total, rate, time left."""

    def __init__(self, total, done=0, enabled=True, stream=None):
        self.total, self.done, self.start_done = total, done, done
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.t0 = time.perf_counter()
        self.last = 0.0
        self.last_pct = -1

    def update(self, k=1):
        self.done += k
        if not self.enabled:
            return
        now = time.perf_counter()
        if self.tty:
            if now - self.last < 0.1 and self.done < self.total:
                return
        else:  # a log file: a line every 10%
            pct = int(10 * self.done / max(1, self.total))
            if pct == self.last_pct and self.done < self.total:
                return
            self.last_pct = pct
        self.last = now
        self.stream.write(self.line(now) + ("\r" if self.tty else "\n"))
        self.stream.flush()

    def line(self, now=None):
        now = time.perf_counter() if now is None else now
        el = now - self.t0
        ran = self.done - self.start_done
        rate = ran / el if el > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else float("inf")
        width = 30
        fill = int(width * self.done / max(1, self.total))
        eta = "?" if left == float("inf") else _clock(left)
        return (f"[{'#' * fill}{'.' * (width - fill)}] {self.done}/{self.total} games  {rate:.2f} games/s  "
                f"{_clock(el)} elapsed, {eta} left")

    def close(self):
        if self.enabled and self.tty:
            self.stream.write("\n")
            self.stream.flush()


def _clock(s):
    s = int(round(s))
    h, r = divmod(s, 3600)
    m, s = divmod(r, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def _terminated(signum, frame):
    raise KeyboardInterrupt


_SIGTERM_BEFORE: list = []


def stop_on_sigterm(on: bool = True) -> None:
    """Let SIGTERM (a batch system's kill) stop the games as Ctrl-C does, the finished ones kept;
    with on=False, put back the handler there was."""
    import signal
    try:
        if on:
            _SIGTERM_BEFORE.append(signal.signal(signal.SIGTERM, _terminated))
        elif _SIGTERM_BEFORE:
            signal.signal(signal.SIGTERM, _SIGTERM_BEFORE.pop())
    except ValueError:          # not the main thread (an embedding program): leave its handlers alone
        pass


def check_plot_dir(path):
    if not path:
        return
    from ..sim.plot import require_matplotlib
    require_matplotlib()        # (before any game: say at once what is missing)
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise UsageError(f"cannot write plots to {path}: {e.strerror}") from None
    if not os.access(path, os.W_OK):
        raise UsageError(f"cannot write plots to {path}: permission denied")


def run(args):
    from ..sim.parallel import SchedulerLost
    from ..sim.results import LineWriter, check_output, open_results
    from ..sim.simulate import run_games
    from ..sim.stats import format_summary
    from ..sim.summary import Summary
    if args.resume and not args.out:
        raise UsageError("--resume needs --out FILE (the file to resume)")
    if args.resume and args.force:
        raise UsageError("give --resume (continue FILE) or --force (replace it), not both")
    if args.jobs and args.scheduler:
        raise UsageError("give --jobs or --scheduler, not both")
    config = make_config(args.rulebook, args.variant, args.players, args.agents, args)
    rules = check_config(config)
    check_plot_dir(args.plot)
    for what, path in (("--out", args.out), ("--timings", args.timings)):
        if path:
            try:
                check_output(path, args.resume, args.force, what)
            except NordError as e:
                raise one_line(e) from None
    n = args.games
    summary = Summary()
    out = timings = client = None
    interrupted, lost = False, None
    try:
        client = check_scheduler(args)
        if args.out:
            try:
                out, done = open_results(args.out, config, rules, n, args.resume, summary.add)
            except NordError as e:
                raise one_line(e) from None
        else:
            from ..sim.results import Done
            done = Done()
        if args.timings:
            timings = LineWriter(args.timings, fresh_lines=None if args.resume else [])
        already = done.count(n)
        bar = Progress(n, already, enabled=not args.no_progress)
        games = run_games(config, done.todo(n), args.jobs, client, total=n - already)
        try:
            stop_on_sigterm()
            for rec in games:
                with _signals_held():      # a game is in the file, the timings and the summary, or in none
                    elapsed = rec.pop("elapsed", None)
                    if out is not None:
                        out.write(rec)
                    if timings is not None:
                        timings.write({"game": rec["game"], "elapsed": elapsed})
                    summary.add(rec, elapsed)
                bar.update()
        except KeyboardInterrupt:
            interrupted = True
        except SchedulerLost as e:
            lost = e
        finally:
            games.close()
            stop_on_sigterm(False)
        bar.close()
    finally:
        for w in (out, timings):
            if w is not None:
                w.close()
        close_scheduler(client)
    desc = f"{rules.name}, {rules.num_players} players, agents {', '.join(config.agents)}" + (
        f", variants {', '.join(config.variants)}" if config.variants else "") + f", seed {config.seed}"
    result = summary.result()
    plots = []
    if args.plot and summary.n:
        from ..sim.plot import write_plots
        seats = list(zip(rules.colors, rules.color_values))       # (each seat's panel named and drawn in its colour)
        plots = [str(path) for path in write_plots(summary, args.plot, desc, seats)]
    played = summary.n + summary.failed
    status = (130 if interrupted else 2) if interrupted or lost else 1 if result.get("failed") else 0
    stopped = (f"{'interrupted' if interrupted else f'error: {lost.message}; stopped'} after {played} of {n} games"
               + (f"; run again with --resume --out {args.out} to finish" if args.out else "")
               if interrupted or lost else None)
    if args.json:
        from .json_output import emit
        from .json_output import problem as as_json
        emit({"command": "simulate", "ok": status == 0, "title": desc,
              "config": {"game": rules.name, "players": rules.num_players, "agents": list(config.agents),
                         "variants": [str(v) for v in config.variants], "seed": config.seed,
                         "rotate": config.rotate, "games": n},
              "summary": result, "plots": plots, "out": args.out, "games_in_out": played if args.out else None,
              "stopped": stopped, "errors": [as_json(lost)] if lost else []})
        return status
    for line in format_summary(result, desc):
        print(line)
    for path in plots:
        print(f"plot written to {path}")
    if args.out:
        print(f"{played} games in {args.out}")
    if stopped:
        print(stopped, file=sys.stderr)
    return status


@contextmanager
def _signals_held():
    """Hold Ctrl-C and SIGTERM while one game is recorded: one arriving then is
    taken right after, so the games counted are the games written."""
    held = {signal.SIGINT, signal.SIGTERM}
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
