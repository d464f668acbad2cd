"""Batches on a Dask cluster: what ``--executor dask --scheduler ADDRESS`` runs.

:class:`DaskPool` has the interface of :class:`sudokit.engines.workers.WorkerPool` (``start``, ``map``,
``close``, a context manager), so a :class:`sudokit.runtime.session.Session` runs a ``solve`` or ``check``
batch on an existing cluster exactly as it runs one in local worker processes. It guarantees:

* **one result per item, in input order, streamed.** Items go to the cluster in chunks (sized to
  take about ``TARGET_CHUNK_SECONDS`` on a worker, at most ``MAX_CHUNK`` items); at most a few chunks
  per worker thread are in flight or waiting to be yielded, so memory stays flat however long the
  input is, and results come back as chunks complete, in order.
* **no record lost or doubled when a worker dies.** Dask runs the chunk of a lost worker again
  elsewhere (up to its ``distributed.scheduler.allowed-failures``); a chunk that keeps killing its
  workers is run again item by item, one at a time, and an item that still kills its worker, alone,
  gets ``task.failed(item, why)``. Each chunk's results are taken once, by its number.
* **engines loaded once per worker process.** The first chunk a worker process runs starts the task
  (``task.start``: the engine is built) and keeps the function under the pool's token; later chunks
  of the same run use it.
* **time limits, as far as a thread allows.** Dask runs tasks in threads, where the in-process
  watchdog of :func:`sudokit.engines.api.run` (a signal) cannot reach. A watchdog thread of the worker raises
  ``EngineOverranError`` into a puzzle still running ``task.budget`` seconds after it began, which
  makes it an ``error`` record. An engine stuck in C code (that ignores its own limit) cannot be
  stopped from outside there: unlike a local worker process, a Dask worker is not killed for it.
* **Ctrl-C leaves the cluster as it was.** Outstanding chunks are cancelled, the client closed.
* **A lost scheduler ends the run with an ``ExecutorError``** after the records before it: what was
  written is complete, and ``--resume`` continues it once the cluster is back.
* **No wait for ever.** A result is waited for as long as the cluster has workers (a slow item has its
  own time limit); a cluster left with no worker for ``NO_WORKERS_TIMEOUT`` seconds (its only worker
  retired, a nanny that gave up) ends the run with an ``ExecutorError``, what was submitted cancelled.

``dask`` and ``distributed`` (the extra ``sudokit[dask]``) are imported only when a pool starts.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import pickle
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Generic, TypeVar

from sudokit.engines.workers import Task, one_line
from sudokit.errors import StrategyError, StrategyLoadError, SudokitError

__all__ = [
    "CONNECT_TIMEOUT",
    "DASK_INSTALL",
    "MAX_CHUNK",
    "NO_WORKERS_TIMEOUT",
    "TARGET_CHUNK_SECONDS",
    "DaskPool",
    "ExecutorError",
    "connect_timeout",
    "dask_pool",
]

I = TypeVar("I")  # noqa: E741 - an item
R = TypeVar("R")  # its result

#: How to get the extra.
DASK_INSTALL = "pip install 'sudokit[dask]'"
#: Seconds to wait for the scheduler to answer (and for it to have a worker); the environment
#: variable ``SUDOKIT_DASK_TIMEOUT`` changes it.
CONNECT_TIMEOUT = 10.0
#: A chunk is sized to take about this long on a worker: long enough that a task's round trip through
#: the scheduler (a millisecond or more) is small beside it, short enough for an even load.
TARGET_CHUNK_SECONDS = 0.25
#: The most items in a chunk (the first chunk has ``FIRST_CHUNK``: its time sizes the next ones).
MAX_CHUNK = 1000
FIRST_CHUNK = 1
_CHUNKS_AHEAD_PER_THREAD = 3  # chunks in flight or waiting to be yielded, per worker thread
_LOOK_AGAIN = 5.0  # seconds between looks at how many worker threads the cluster has
#: Seconds a run waits for a cluster that has no worker left to have one again (a nanny restarting a
#: worker on a busy machine takes tens of seconds); then it stops with an ``ExecutorError``.
NO_WORKERS_TIMEOUT = 60.0
_LOOK_FOR_WORKERS = 1.0  # seconds between looks at whether the cluster has a worker, while waiting for a result
_STARTED_KEPT = 4  # started tasks a worker process keeps (a long-lived cluster serves many runs)


class ExecutorError(SudokitError):
    """The Dask executor cannot run: the extra is missing, the scheduler is unreachable or has no workers."""


def connect_timeout() -> float:
    """Seconds to wait for the scheduler: ``SUDOKIT_DASK_TIMEOUT`` or ``CONNECT_TIMEOUT``."""
    text = os.environ.get("SUDOKIT_DASK_TIMEOUT", "")
    try:
        value = float(text)
    except ValueError:
        return CONNECT_TIMEOUT
    return value if value > 0 and value == value else CONNECT_TIMEOUT  # NaN != NaN


def require_dask() -> None:
    """Raise ``ExecutorError`` (naming the install command) unless dask and distributed import."""
    try:
        import dask  # noqa: F401
        import distributed  # noqa: F401
    except ImportError as err:
        raise ExecutorError(f"--executor dask needs dask and distributed ({err}): {DASK_INSTALL}") from None


def dask_pool(scheduler: str, *, timeout: float | None = None) -> Callable[[Task[Any, Any], int], DaskPool[Any, Any]]:
    """A pool factory for :class:`sudokit.runtime.session.Session`: pools on the cluster at ``scheduler``.

    Raises ``ExecutorError`` at once when the extra is not installed. Dask's client logs (its
    reconnection attempts, a lost worker) are silenced: the session says what failed, in one line.
    """
    require_dask()
    _quiet_dask_logs()

    def make(task: Task[Any, Any], jobs: int = 1) -> DaskPool[Any, Any]:
        return DaskPool(task, scheduler, timeout=timeout)

    return make


# --- on the Dask workers ---------------------------------------------------------------------------

_STARTED: OrderedDict[str, tuple[Task[Any, Any], Callable[[Any], Any]]] = OrderedDict()
_START_LOCK = threading.Lock()


def _started(token: str, blob: bytes) -> tuple[Task[Any, Any], Callable[[Any], Any]]:
    """The task of ``blob`` and its started function: unpickled and started once per worker process and run."""
    with _START_LOCK:
        started = _STARTED.get(token)
        if started is None:
            task = pickle.loads(blob)
            started = _STARTED[token] = (task, task.start(lambda phase: None))
            while len(_STARTED) > _STARTED_KEPT:
                _STARTED.popitem(last=False)
        else:
            _STARTED.move_to_end(token)
    return started


def _load(token: str, blob: bytes) -> Any:
    """Start the task on a worker (a StrategyError if its engines cannot load); its function's ``info``."""
    return getattr(_started(token, blob)[1], "info", None)


def _run_chunk(token: str, blob: bytes, chunk: list[Any]) -> tuple[list[Any], float]:
    """The results of a chunk's items, and the seconds they took."""
    task, run = _started(token, blob)
    watch = _Watchdog.get()
    budget_of = getattr(task, "budget_of", None)  # an item's own budget (a block of puzzles takes longer)
    start = time.perf_counter()
    out = []
    for item in chunk:
        budget = task.budget if budget_of is None else budget_of(item)
        began = time.monotonic()
        try:
            try:
                watch.begin(budget)
                out.append(run(item))
            finally:
                watch.end()
        except BaseException as err:  # the watchdog's EngineOverranError, or a bug of ours: the item fails
            watch.end()
            took = time.monotonic() - began
            if budget is not None and took >= budget:
                problem = f"still running after {took:.1f} s: stopped in its Dask worker"
            else:
                problem = one_line(f"internal error: {type(err).__name__}: {err}")
            out.append(task.failed(item, problem))
    return out, time.perf_counter() - start


class _Watchdog:
    """One thread per worker process that raises ``EngineOverranError`` into items past their budget."""

    _instance: _Watchdog | None = None
    _make_lock = threading.Lock()
    REPEAT = 1.0  # seconds between raises into an item that swallowed the last one

    def __init__(self) -> None:
        self.lock = threading.Condition()
        self.deadlines: dict[int, float] = {}  # thread id -> when its item overruns
        self.thread = threading.Thread(target=self._watch, name="sudokit-watchdog", daemon=True)
        self.thread.start()

    @classmethod
    def get(cls) -> _Watchdog:
        with cls._make_lock:
            if cls._instance is None:
                cls._instance = cls()
            return cls._instance

    def begin(self, budget: float | None) -> None:
        """An item starts in this thread: watch it for ``budget`` seconds (None: not at all)."""
        if budget is None:
            return
        with self.lock:
            self.deadlines[threading.get_ident()] = time.monotonic() + budget
            self.lock.notify()

    def end(self) -> None:
        """The item of this thread ended: stop watching, and drop a raise that has not landed yet."""
        ident = threading.get_ident()
        with self.lock:
            if self.deadlines.pop(ident, None) is not None:
                _async_raise(ident, None)

    def _watch(self) -> None:
        from sudokit.engines.api import EngineOverranError

        class Stopped(EngineOverranError):
            """What a puzzle past its budget gets; its message says so in the record."""

            def __init__(self) -> None:
                super().__init__("still running, stopped by the watchdog of its Dask worker")

        Stopped.__name__ = Stopped.__qualname__ = "EngineOverranError"
        with self.lock:
            while True:
                now = time.monotonic()
                for ident, deadline in list(self.deadlines.items()):
                    if deadline <= now:
                        _async_raise(ident, Stopped)
                        self.deadlines[ident] = now + self.REPEAT
                wait = min(self.deadlines.values(), default=now + 3600.0) - now
                self.lock.wait(max(wait, 0.01))


def _async_raise(ident: int, exc: type[BaseException] | None) -> None:
    """Raise ``exc`` in thread ``ident`` at its next Python instruction (None: cancel a pending one)."""
    import ctypes

    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), ctypes.py_object(exc) if exc else None)


# --- the caller's side -----------------------------------------------------------------------------


class DaskPool(Generic[I, R]):
    """Runs a task's items on the Dask cluster at ``scheduler``; results in input order.

    Use it as a context manager (or call ``close``)::

        with DaskPool(task, "tcp://10.0.0.5:8786") as pool:
            pool.start()                      # connect, load the engines on a worker: errors here
            for result in pool.map(items):
                ...

    The task and the items must pickle, and the workers must have sudokit (and the engines) installed.
    """

    def __init__(self, task: Task[I, R], scheduler: str, *, timeout: float | None = None) -> None:
        self.task = task
        self.scheduler = scheduler
        self.timeout = connect_timeout() if timeout is None else timeout
        self.token = uuid.uuid4().hex
        self.blob = b""  # the pickled task, made by start
        self.client: Any = None
        self.threads = 1  # worker threads of the cluster (looked at again every few seconds of a map)
        self.submitted = 0  # chunks handed to the cluster (for tests and benchmarks)
        self.split = 0  # chunks run item by item after they kept killing their workers
        #: What the task's started function says of itself (its ``info`` attribute), once ``start`` loaded it.
        self.info: Any = None

    def __enter__(self) -> DaskPool[I, R]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        """Connect, wait for a worker and load the engines there: ``ExecutorError``/``StrategyError`` if not."""
        if self.client is not None:
            return
        require_dask()
        import cloudpickle  # distributed's own: a task or engine class of a script's __main__ pickles by value
        from distributed import as_completed

        self.blob = cloudpickle.dumps(self.task, protocol=pickle.HIGHEST_PROTOCOL)
        where = f"the Dask scheduler at {self.scheduler}"
        self.client = _connect(self.scheduler, self.timeout)
        try:
            self.client.wait_for_workers(1, timeout=self.timeout)
        except (OSError, TimeoutError) as err:
            self.close()
            raise ExecutorError(f"{where} has no workers (waited {self.timeout:g} s): {_why(err)}") from None
        self.threads = _threads(self.client)
        future = self.client.submit(_load, self.token, self.blob, pure=False, key=f"sudokit-load-{self.token}")
        try:
            self._next_done(as_completed([future], with_results=False, loop=self.client.loop))
            self.info = future.result()
        except StrategyError:
            self.close()
            raise
        except ExecutorError:  # its worker went, and no other came
            with contextlib.suppress(Exception):
                self.client.cancel([future], force=True)
            self.close()
            raise
        except Exception as err:
            self.close()
            if _killed_worker(err):
                raise StrategyLoadError(f"loading the engines killed Dask workers at {self.scheduler}") from None
            raise ExecutorError(
                one_line(f"the Dask workers at {self.scheduler} cannot run sudokit: {_why(err)}")
            ) from None

    def close(self, *, kill: bool = False) -> None:
        """Close the connection (the cluster goes on). ``kill`` is accepted as WorkerPool's is."""
        client, self.client = self.client, None
        if client is not None:
            with contextlib.suppress(Exception):
                client.close(timeout=self.timeout)

    def map(self, items: Iterable[I]) -> Iterator[R]:
        """The result of every item, in order. An error reading ``items`` comes after the results before it."""
        self.start()
        from distributed import as_completed

        client = self.client
        source = iter(items)
        numbers = itertools.count()
        chunks: dict[int, list[I]] = {}  # by chunk number: its items, until its results are yielded (the window)
        futures: dict[Any, int] = {}  # chunk number of each future in flight
        done: dict[int, list[R]] = {}
        window = self.threads * _CHUNKS_AHEAD_PER_THREAD
        look_again = time.monotonic() + _LOOK_AGAIN
        size = FIRST_CHUNK
        yielded = 0  # chunk number to yield next
        exhausted = False
        input_error: BaseException | None = None
        waiting = as_completed([], with_results=False, loop=client.loop)
        try:
            while True:
                while yielded in done:
                    yield from done.pop(yielded)
                    chunks.pop(yielded, None)
                    yielded += 1
                while not exhausted and len(chunks) < window:
                    chunk, exhausted, input_error = _draw(source, size)
                    if not chunk:
                        break
                    number = next(numbers)
                    chunks[number] = chunk
                    future = self._submit(chunk, number)
                    futures[future] = number
                    waiting.add(future)
                if exhausted and not chunks:
                    break
                if time.monotonic() >= look_again:  # workers may have come or gone
                    self.threads = _threads(client)
                    window = self.threads * _CHUNKS_AHEAD_PER_THREAD
                    look_again = time.monotonic() + _LOOK_AGAIN
                future = self._next_done(waiting)
                number = futures.pop(future)
                try:
                    results, seconds = future.result()
                except StrategyError:
                    raise
                except Exception as err:
                    if not _killed_worker(err):
                        raise self._broken(err) from None
                    results = self._one_by_one(chunks[number])
                    seconds = None
                finally:
                    future.release()
                finish = getattr(self.task, "finish", None)  # run here, on what the cluster sent (see Task)
                done[number] = (
                    results if finish is None else [finish(*pair) for pair in zip(chunks[number], results, strict=True)]
                )
                if seconds is not None and results:
                    per_item = seconds / len(results)
                    size = max(1, min(MAX_CHUNK, int(TARGET_CHUNK_SECONDS / max(per_item, 1e-6))))
            if input_error is not None:
                raise input_error
        except BaseException:
            with contextlib.suppress(Exception):
                client.cancel(list(futures), force=True)
            raise

    def _submit(self, chunk: list[I], number: int) -> Any:
        self.submitted += 1
        key = f"sudokit-chunk-{self.token}-{number}"
        return self.client.submit(_run_chunk, self.token, self.blob, chunk, pure=False, key=key)

    def _broken(self, err: BaseException) -> ExecutorError:
        """The error that ends a run whose chunk failed on the cluster (not in the engine: that is a record)."""
        return ExecutorError(one_line(f"the Dask cluster at {self.scheduler} failed: {_why(err)}"))

    def _one_by_one(self, chunk: list[I]) -> list[R]:
        """A chunk that killed its workers again and again: each item alone, one after the other, so that
        an item that kills its worker is known for sure and fails, and the others are solved."""
        from distributed import as_completed

        self.split += 1
        results: list[R] = []
        for item in chunk:
            key = f"sudokit-item-{uuid.uuid4().hex}"
            future = self.client.submit(_run_chunk, self.token, self.blob, [item], pure=False, key=key)
            try:
                self._next_done(as_completed([future], with_results=False, loop=self.client.loop))
                [result], _ = future.result()
            except StrategyError:
                raise
            except ExecutorError:  # the cluster has no worker left: the item waiting is cancelled
                with contextlib.suppress(Exception):
                    self.client.cancel([future], force=True)
                raise
            except Exception as err:
                if not _killed_worker(err):
                    raise self._broken(err) from None
                result = self.task.failed(item, "its Dask worker process ended, on every try")
            except BaseException:
                with contextlib.suppress(Exception):
                    self.client.cancel([future], force=True)
                raise
            finally:
                future.release()
            results.append(result)
        return results

    def _next_done(self, waiting: Any) -> Any:
        """The next future done of ``waiting`` (an ``as_completed``), waited for in slices.

        As long as the cluster has a worker the wait has no bound (each item has its own time limit).
        Between slices the cluster's workers are looked at: with none for ``NO_WORKERS_TIMEOUT`` seconds
        nothing would ever run what is waiting, and ``ExecutorError`` ends the run (the caller cancels).
        """
        alone_since: float | None = None  # since when the cluster has had no worker
        look = time.monotonic() + _LOOK_FOR_WORKERS
        while not waiting.has_ready() and not waiting.is_empty():
            with waiting.thread_condition:  # notified as a future is done (as ``next(waiting)`` waits on it)
                waiting.thread_condition.wait(timeout=0.1)
            now = time.monotonic()
            if now < look:
                continue
            if self._has_workers():
                alone_since = None
            elif alone_since is None:
                alone_since = now
            elif now - alone_since >= NO_WORKERS_TIMEOUT:
                raise ExecutorError(
                    f"the Dask cluster at {self.scheduler} has no workers left"
                    f" (none for {NO_WORKERS_TIMEOUT:g} s while items waited to run)"
                )
            look = time.monotonic() + _LOOK_FOR_WORKERS
        return next(waiting)

    def _has_workers(self) -> bool:
        """Whether the cluster has a worker now (False too when the scheduler does not say, within the timeout)."""
        try:
            return bool(self.client.nthreads(callback_timeout=self.timeout))
        except Exception:
            return False


def _connect(address: str, timeout: float) -> Any:
    """A client connected to the scheduler at ``address``, within about ``timeout`` seconds in all.

    ``Client(address, timeout=...)`` bounds the TCP connect, not the exchange that follows: a server
    that accepts and never answers Dask's handshake held it for ever, and one that answered with
    something else raised whatever its bytes made of the frame lengths (a ``MemoryError``). The whole
    start is bounded here (a second beyond ``timeout``, so that Dask's own connect timeout, which
    says more, comes first); a client that did not start is closed at once, while its event loop
    runs, not by its ``__del__`` at exit, which waited for a loop already stopped and then printed
    a ``TimeoutError`` traceback. Every failure is an ``ExecutorError`` of one line.
    """
    from distributed import Client

    bound = timeout + 1.0

    # distributed.Client's methods have no annotations: calling them through the subclass is let be.
    class BoundedClient(Client):
        def start(self, **kwargs: Any) -> None:
            try:
                super().start(callback_timeout=bound, **kwargs)  # type: ignore[no-untyped-call]  # sync: wait_for
            except BaseException:
                with contextlib.suppress(Exception):
                    self.close(timeout=1.0)  # type: ignore[no-untyped-call]
                self.status = "closed"  # __del__ has nothing left to do
                raise

    try:
        return BoundedClient(address, timeout=timeout, set_as_default=False)  # type: ignore[no-untyped-call]
    except OSError as err:
        why = f"it did not answer Dask's handshake within {timeout:g} s" if isinstance(err, TimeoutError) else _why(err)
    except Exception as err:  # a server that answers but not as Dask does
        why = one_line(f"its answer is not Dask's ({type(err).__name__}: {_why(err)})")
    raise ExecutorError(one_line(f"cannot connect to the Dask scheduler at {address}: {why}"))


def _draw(source: Iterator[I], count: int) -> tuple[list[I], bool, BaseException | None]:
    """Up to ``count`` items; (them, exhausted, the input's error)."""
    chunk: list[I] = []
    for _ in range(count):
        try:
            chunk.append(next(source))
        except StopIteration:
            return chunk, True, None
        except Exception as err:  # the input failed: finish what was read, then raise
            return chunk, True, err
    return chunk, False, None


def _threads(client: Any) -> int:
    """Worker threads of the cluster ``client`` is connected to (at least 1)."""
    threads: int = sum(client.nthreads().values())
    return max(1, threads)


def _killed_worker(err: BaseException) -> bool:
    """True for Dask's ``KilledWorker``: the task's workers died on it more often than the cluster allows."""
    from distributed.scheduler import KilledWorker

    return isinstance(err, KilledWorker)


def _why(err: BaseException) -> str:
    text = str(err) or type(err).__name__
    return one_line(text)


def _quiet_dask_logs() -> None:
    """Only critical messages from Dask's loggers in this process."""
    for name in ("distributed", "distributed.client", "distributed.comm", "tornado"):
        logger = logging.getLogger(name)
        if logger.level < logging.CRITICAL:
            logger.setLevel(logging.CRITICAL)
