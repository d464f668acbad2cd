"""A worker stopped (SIGSTOP) while idle, then given work, is killed after one item's budget, and its work redone.

Before: the pool killed a worker overdue only once it had started an item; one stopped between two
chunks kept its new chunk forever (a SIGSTOPped ``numba`` worker at ``-t 2`` stalled a batch past 95 s).
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable

import pytest

from sudokit.engines import workers
from sudokit.engines.workers import WorkerPool

pytestmark = pytest.mark.skipif(not workers.CAN_ISOLATE, reason="needs fork")


class Doubles:
    budget = 1.0

    def start(self, mark: Callable[[int], None]) -> Callable[[int], int]:
        return lambda item: 2 * item

    def failed(self, item: int, problem: str) -> int:
        return -1

    def load_failed(self, phase: int, problem: str) -> bool:
        return False


def _timed_out(signum: int, frame: object) -> None:
    raise TimeoutError("the pool waited on a stopped worker")


def test_a_worker_stopped_before_it_takes_its_chunk_is_killed_and_its_chunk_redone() -> None:
    previous = signal.signal(signal.SIGALRM, _timed_out)
    signal.alarm(30)
    try:
        with WorkerPool(Doubles(), jobs=1) as pool:
            pool.start()
            [stopped] = list(pool._workers)
            os.kill(stopped, signal.SIGSTOP)
            start = time.monotonic()
            results = list(pool.map(range(5)))
            took = time.monotonic() - start
            assert stopped not in pool._workers
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        with contextlib.suppress(ProcessLookupError, UnboundLocalError):
            os.kill(stopped, signal.SIGKILL)
    assert results == [0, 2, 4, 6, 8]
    assert took < 10
