"""Running many games: in this process, in worker processes or on a Dask cluster.

Games go out in chunks of consecutive games (one task per chunk: a Dask
task costs milliseconds, a game about as much) and their records come
back in the order of the games, whatever finishes first, so what is
written from them is the same for any number of workers. At most a
window of chunks is in flight and the games to play are read lazily, so
memory does not grow with the number of games and any number starts at
once.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import time
from collections import deque
from itertools import islice

from ..errors import UsageError

SCHEMES = ("tcp", "tls", "ws", "wss")
_ADDRESS = re.compile(r"^([a-z]+)://(\[[0-9a-fA-F:.]+\]|[^\s:/\[\]]+):(\d{1,5})/?$")


def run_chunk(tasks) -> list:
    """The records of [(config, game), ...] (what one worker task plays)."""
    from .simulate import run_game
    return [run_game(config, i) for config, i in tasks]


def chunked(items, size: int):
    """Lists of `size` consecutive items, read lazily."""
    it = iter(items)
    while True:
        chunk = list(islice(it, size))
        if not chunk:
            return
        yield chunk


def chunk_size(total, workers: int, most: int) -> int:
    """Games per task: about 8 tasks per worker, between 1 and `most`."""
    if total is None:
        return most
    return max(1, min(most, total // (8 * max(1, workers))))


def run_tasks(tasks, jobs: int = 0, scheduler=None, total: int | None = None):
    """Yield the record of each (config, game) of `tasks`, in their order.

    jobs: worker processes (0: one per core; 1: in this process).
    scheduler: a Dask client (or an address, connected with `connect`) instead.
    total: how many tasks there are, if known (to size the chunks).
    Stopping the iteration (or Ctrl-C) stops the workers; games in flight are lost.
    """
    if scheduler is not None:
        client = connect(scheduler) if isinstance(scheduler, str) else scheduler
        try:
            yield from _run_dask(tasks, client, total)
        finally:
            if client is not scheduler:
                close(client)
        return
    if jobs <= 0:
        jobs = os.cpu_count() or 1
    if total is not None:
        jobs = max(1, min(jobs, total))
    if jobs == 1:
        from .simulate import run_game
        for config, i in tasks:
            yield run_game(config, i)
        return
    yield from _run_pool(tasks, jobs, total)


_HELD = {signal.SIGINT, signal.SIGTERM}


def _worker_init():
    # Ctrl-C goes to the parent, which stops the pool; workers stay quiet, and
    # end at once when the pool is stopped (not through the parent's SIGTERM handler).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)


def _new_pool(ctx, jobs):
    """A pool whose workers are born with Ctrl-C and SIGTERM held until
    _worker_init has set their own handlers: a worker stopped before then
    (a run stopped at once) would otherwise run the parent's handler in the
    middle of its start. (The pool's own threads, made here, keep the mask:
    a worker it starts again later is born the same way.)"""
    if not hasattr(signal, "pthread_sigmask"):
        return ctx.Pool(jobs, initializer=_worker_init)
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        return ctx.Pool(jobs, initializer=_worker_init)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _run_pool(tasks, jobs, total):
    import multiprocessing as mp
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    pool = _new_pool(ctx, jobs)
    pending: deque = deque()
    window = 4 * jobs
    try:
        for chunk in chunked(tasks, chunk_size(total, jobs, 4)):
            pending.append(pool.apply_async(run_chunk, (chunk,)))
            if len(pending) >= window:
                yield from pending.popleft().get()
        while pending:
            yield from pending.popleft().get()
        pool.close()
    finally:
        pool.terminate()
        pool.join()


class SchedulerLost(UsageError):
    """The Dask scheduler (or a worker) went away in the middle of a run, or cannot load nordlang."""


def _run_dask(tasks, client, total):
    import asyncio
    pending: deque = deque()
    try:
        threads = sum(client.nthreads().values()) or 1
        window = 4 * threads
        for chunk in chunked(tasks, chunk_size(total, threads, 50)):
            pending.append(client.submit(run_chunk, chunk, pure=False))
            if len(pending) >= window:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()
    except (Exception, asyncio.CancelledError) as e:
        lost = _cluster_trouble(e, getattr(getattr(client, "scheduler", None), "address", "?"))
        if lost is None:
            raise                       # an error of the games' own code: as without Dask
        raise lost from None
    finally:
        for fut in pending:
            fut.cancel()


def _cluster_trouble(e, where) -> SchedulerLost | None:
    """The error to show for an exception of a Dask run (None: the games' own, shown as it is)."""
    import asyncio
    text = str(e).splitlines()[0].split(". ")[0].rstrip(".") if str(e) else e.__class__.__name__
    if isinstance(e, ImportError) or (isinstance(e, RuntimeError) and "deserializ" in str(e)):
        return SchedulerLost(f"the Dask cluster at {where} cannot run the games: {text} (the scheduler and the "
                             "workers need this nordlang installed)")
    if isinstance(e, (OSError, TimeoutError, asyncio.CancelledError)) or type(e).__module__.startswith("distributed"):
        return SchedulerLost(f"lost the Dask scheduler at {where}: {text}")
    return None


# ---------------- reaching a Dask scheduler ----------------
def scheduler_address(text: str) -> str:
    """argparse type of --scheduler: SCHEME://HOST:PORT with a scheme Dask can reach over the network."""
    import argparse
    m = _ADDRESS.match(text.strip())
    if not m or m.group(1) not in SCHEMES or not 0 < int(m.group(3)) < 65536:
        scheme = text.split("://")[0] if "://" in text else None
        why = (f"scheme {scheme!r} is not one Dask can reach" if scheme is not None and scheme not in SCHEMES
               else "it must look like tcp://HOST:PORT")
        raise argparse.ArgumentTypeError(f"scheduler address {text!r}: {why} (schemes: "
                                         f"{', '.join(s + '://' for s in SCHEMES)})")
    return text.strip()


def positive_seconds(text: str) -> float:
    """argparse type of --scheduler-timeout: a number of seconds above 0."""
    import argparse
    import math
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (v > 0 and math.isfinite(v)):
        raise argparse.ArgumentTypeError(f"{text} must be a number of seconds above 0")
    return v


def _why_unreachable(host: str, port: int, deadline: float) -> str | None:
    """Why no TCP connection to host:port opens before the deadline (None: it opens).

    A refused connection is tried again until the deadline (a scheduler may be starting).
    """
    host = host.strip("[]")
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return "timed out"
        try:
            socket.create_connection((host, port), timeout=left).close()
            return None
        except socket.gaierror as e:
            return f"unknown host {host!r} ({e.strerror})"
        except ConnectionRefusedError:
            if deadline - time.monotonic() <= 0.2:
                return "connection refused"
            time.sleep(0.2)
        except TimeoutError:
            return "timed out"
        except OSError as e:
            return e.strerror or e.__class__.__name__


def connect(scheduler: str, timeout: float = 10.0):
    """A Dask client for the scheduler at `scheduler`, or one clear UsageError within `timeout` seconds."""
    try:
        from distributed import Client
    except ImportError:
        raise UsageError("--scheduler needs Dask: pip install 'nordlang[dask]'") from None
    m = _ADDRESS.match(scheduler)
    if not m or m.group(1) not in SCHEMES:
        raise UsageError(f"scheduler address {scheduler!r} must look like tcp://HOST:PORT")
    deadline = time.monotonic() + timeout

    def failed(reason):
        return UsageError(f"could not reach the Dask scheduler at {scheduler} within {timeout:g} s: {reason}")
    why = _why_unreachable(m.group(2), int(m.group(3)), deadline)
    if why is not None:
        raise failed(why)
    made: list = []

    class _Client(Client):
        def __init__(self, *a, **k):
            made.append(self)          # to stop its thread if the constructor fails
            super().__init__(*a, **k)
    try:
        return _Client(scheduler, timeout=max(0.1, deadline - time.monotonic()), set_as_default=False)
    except Exception as e:             # Dask raises OSError, TimeoutError, ValueError, even MemoryError
        if made:
            _abandon(made[0])
        reason = str(e) or e.__class__.__name__
        raise failed(reason) from None


def _abandon(client) -> None:
    """Stop a client that never connected, without its 2 x timeout wait at garbage collection."""
    client.status = "closed"
    runner = getattr(client, "_loop_runner", None)
    if runner is not None:
        try:
            runner.stop()
        except Exception:       # noqa: BLE001 - nothing to do about a loop that will not stop
            pass


def close(client) -> None:
    """Close a client quietly (a scheduler gone meanwhile is no error at the end of a run)."""
    import logging
    for name in ("distributed", "distributed.client", "distributed.batched", "distributed.comm"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    try:
        client.close(timeout=5)
    except Exception:           # noqa: BLE001
        _abandon(client)
