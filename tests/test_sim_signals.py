"""Worker processes of `nord simulate` are born with Ctrl-C and SIGTERM held
until they set their own handlers (sim/parallel.py): a worker stopped in its
first moments never runs the parent's handler, and the parent's mask is as
it was once the pool is made."""

import multiprocessing as mp
import signal

import pytest

from nordlang.sim.parallel import _HELD, _new_pool

pytestmark = pytest.mark.skipif(not hasattr(signal, "pthread_sigmask") or "fork" not in mp.get_all_start_methods(),
                                reason="POSIX signal masks and fork")


def _worker_view(_):
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    return (signal.getsignal(signal.SIGTERM) == signal.SIG_DFL, signal.getsignal(signal.SIGINT) == signal.SIG_IGN,
            sorted(int(s) for s in _HELD & set(blocked)))


def test_workers_hold_nothing_once_started_and_the_parent_mask_is_kept():
    def parent_handler(*_):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGTERM, parent_handler)
    before = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    try:
        pool = _new_pool(mp.get_context("fork"), 2)
        try:
            assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == before      # the parent's mask, as it was
            views = pool.map(_worker_view, range(4))
        finally:
            pool.terminate()
            pool.join()
    finally:
        signal.signal(signal.SIGTERM, old)
    # each worker: SIGTERM ends it, Ctrl-C is the parent's, and neither is held any longer
    assert views == [(True, True, [])] * 4


def test_a_pool_stopped_at_once_ends_cleanly():
    pool = _new_pool(mp.get_context("fork"), 2)
    pool.terminate()
    pool.join()
    assert all(p.exitcode is not None for p in pool._pool)
