"""Solving a stream of records across worker processes, results in input order, memory bounded.

The input is read lazily and only a few chunks per worker are in flight, so a file of any length
runs in the same memory. Chunks grow or shrink so that each takes about ``TARGET_CHUNK_SECONDS``:
fast puzzles travel in large chunks (little inter-process overhead), slow ones one by one (even
load, steady progress). Each outcome is rendered in the worker (``render``), so the parent only
writes text.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import TYPE_CHECKING, Any, TypeVar

from sudokit.api import get_strategy
from sudokit.batch import Outcome, solve_record, solve_records
from sudokit.reader import Record
from sudokit.shape import Shape
from sudokit.strategy import Strategy

if TYPE_CHECKING:
    from concurrent.futures import Future

__all__ = ["TARGET_CHUNK_SECONDS", "default_jobs", "solve_parallel"]

R = TypeVar("R")
StrategySpec = tuple[str, dict[str, Any]] | Strategy
TARGET_CHUNK_SECONDS = 0.05
_MAX_CHUNK = 512
_IN_FLIGHT_PER_WORKER = 3


def default_jobs() -> int:
    """The number of cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _identity(outcome: Outcome) -> Outcome:
    return outcome


def _build(spec: StrategySpec) -> Strategy:
    if isinstance(spec, tuple):
        name, options = spec
        return get_strategy(name, **options)
    return spec


# --- worker side -------------------------------------------------------------------------------

_worker: dict[str, Any] = {}


def _init_worker(spec: StrategySpec, limit: int, time_limit: float | None, box: Shape | None, render: Callable) -> None:
    # Ctrl-C and kills are the parent's to handle: it stops the workers itself, and a worker whose
    # parent is gone (even by SIGKILL) is ended by the kernel rather than left running.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform == "linux":
        try:
            import ctypes

            ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    _worker.update(strategy=_build(spec), limit=limit, time_limit=time_limit, box=box, render=render)


def _solve_chunk(chunk: list[tuple[int, Record]]) -> tuple[list[Any], float]:
    start = time.perf_counter()
    w = _worker
    strategy, limit, time_limit, box, render = w["strategy"], w["limit"], w["time_limit"], w["box"], w["render"]
    rendered = [
        render(solve_record(index, record, strategy, limit=limit, time_limit=time_limit, box=box))
        for index, record in chunk
    ]
    return rendered, time.perf_counter() - start


# --- parent side -------------------------------------------------------------------------------


def solve_parallel(
    records: Iterable[Record],
    strategy: StrategySpec,
    *,
    limit: int = 1,
    time_limit: float | None = None,
    box: Shape | None = None,
    jobs: int | None = None,
    render: Callable[[Outcome], R] = _identity,  # type: ignore[assignment]
) -> Iterator[R]:
    """``render(outcome)`` for every record, in input order, solved by ``jobs`` worker processes.

    ``strategy`` is ``(name, options)`` (each worker builds its own) or a picklable Strategy.
    ``render`` runs in the workers and must be picklable (a module-level function or a partial).
    With ``jobs`` 1 everything runs in this process.
    """
    jobs = jobs or default_jobs()
    if jobs <= 1:
        engine = _build(strategy)
        for outcome in solve_records(records, engine, limit=limit, time_limit=time_limit, box=box):
            yield render(outcome)
        return
    import multiprocessing  # here, not at the top: a lone puzzle never starts a pool
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
    numbered = enumerate(records)
    pending: deque[Future[tuple[list[R], float]]] = deque()
    chunk_size, per_puzzle = 1, None
    with ProcessPoolExecutor(
        jobs, mp_context=context, initializer=_init_worker, initargs=(strategy, limit, time_limit, box, render)
    ) as pool:
        try:
            exhausted = False
            while True:
                while not exhausted and len(pending) < jobs * _IN_FLIGHT_PER_WORKER:
                    chunk = list(islice(numbered, chunk_size))
                    if not chunk:
                        exhausted = True
                        break
                    pending.append(pool.submit(_solve_chunk, chunk))
                if not pending:
                    return
                rendered, seconds = pending.popleft().result()
                per_puzzle = seconds / len(rendered)
                chunk_size = max(1, min(_MAX_CHUNK, int(TARGET_CHUNK_SECONDS / max(per_puzzle, 1e-6))))
                yield from rendered
        except BaseException:
            # Stop now (Ctrl-C, a kill, the caller closing the generator): end the workers, whose
            # pending chunks then fail as a broken pool; cancelling them first trips a race in
            # Python 3.11's executor, so they are left to fail.
            for process in list(getattr(pool, "_processes", {}).values()):
                process.terminate()
            raise
