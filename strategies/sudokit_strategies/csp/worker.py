"""The worker process of the ``python-constraint`` engine: a child ``python`` that runs its searches.

Every search runs in a worker process (a child ``python``) that streams each solution back as it is
found. Not in this process, because the compiled search never returns to the interpreter between
solutions: while it runs, Ctrl-C goes unseen and every other thread of the process stalls (a timer
thread did not fire once in 20 s of search). At the time limit the worker is killed and the
solutions received so far are reported with status ``timeout``. Only the first ``keep`` solutions
travel back; after them the worker sends the count every 0.1 s, so counting takes no memory here. A
worker that answers in time is kept for the next puzzle, so only the first puzzle and the first
after a timeout pay for starting one (about 70 ms, 0.1-1.2 s on a loaded machine; ``stats``:
``workers_started`` 1, and ``worker_start`` the seconds spent on it); reusing one costs about 0.1-0.2 ms a puzzle, and
a timed-out call returns within a few ms of its limit. Threads may solve at once: each takes a
worker of its own. No worker outlives its use: an idle one ends with its input (when this process
ends, or at exit), a busy one ends itself 5 s past its time limit should no one kill it, and on
Linux one started from the main thread is killed by the kernel when this process dies.
"""

from __future__ import annotations

import atexit
import ctypes
import os
import pickle
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

__all__ = ["Run", "run_in_worker", "stop_workers"]

_LONGEST_WAIT = 3600.0  # seconds one wait for a message may take (a queue's timeout has a ceiling, ~9.2e9 s)
_COUNT_EVERY = 0.1  # seconds between the counts a worker sends once it has sent the solutions to keep
_PR_SET_PDEATHSIG = 1  # Linux prctl: the signal a process gets when its parent ends

_M = TypeVar("_M")  # a search's model: plain data, that travels to the worker by pickle


class Run:
    """What one search produced: the solutions, and whether it finished and found them all."""

    def __init__(self) -> None:
        self.solutions: list[tuple[int, ...]] = []  # the first ``keep`` found
        self.count = 0  # how many were found (so far)
        self.finished = False  # the search answered (found the limit, or ran out of solutions)
        self.exhausted = False  # the search ran out of solutions below the limit
        self.search_time = 0.0
        self.worker_start = 0.0  # seconds this search waited for its worker to start
        self.workers_started = 0  # 1 when this search started a new worker process


# --- the worker process --------------------------------------------------------------------------


class _Worker:
    """A child ``python`` that runs the searches sent to it and streams each solution back.

    Messages are pickles on the child's standard input (jobs) and output (results); a reader thread
    moves the results into ``inbox`` so that the caller can wait on them with a timeout.
    """

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.owner = os.getpid()
        boot = f"import pickle, sys; sys.path[:] = pickle.load(sys.stdin.buffer); import {__name__} as m; m._serve()"
        self.process = subprocess.Popen([sys.executable, "-c", boot], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.inbox: queue.SimpleQueue[tuple[Any, ...]] = queue.SimpleQueue()
        self.reader = threading.Thread(target=self._read, name="python-constraint worker reader", daemon=True)
        self.reader.start()
        self.send(sys.path)
        # The kernel's parent-death signal follows the thread that started the child: ask for it only
        # from the main thread, whose end is the process's end.
        self.send((self.owner, threading.current_thread() is threading.main_thread()))
        self.fresh = True  # the first job's run reports the start-up time (until the child's "ready")

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        try:
            while True:
                self.inbox.put(pickle.load(stream))
        except Exception:  # end of the stream (or a message cut short by a kill): the child is gone
            self.inbox.put(("exit",))

    def send(self, message: object) -> None:
        stream = self.process.stdin
        assert stream is not None
        pickle.dump(message, stream, protocol=pickle.HIGHEST_PROTOCOL)
        stream.flush()

    def alive(self) -> bool:
        return self.owner == os.getpid() and self.process.poll() is None

    def kill(self) -> None:
        """End the child now, and wait for it and for the reader: nothing is left running."""
        self.process.kill()
        self._reap()

    def close(self) -> None:
        """Let an idle child end by closing its input; kill it if it has not ended within 2 s."""
        self._close_input()
        try:
            self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self._reap()

    def _close_input(self) -> None:
        try:
            if self.process.stdin is not None:
                self.process.stdin.close()
        except OSError:
            pass  # the child is gone already

    def _reap(self) -> None:
        self.process.wait()
        self._close_input()
        self.reader.join(timeout=2)  # it ends at the end of the child's output
        if self.process.stdout is not None:
            self.process.stdout.close()


_idle: list[_Worker] = []
_idle_lock = threading.Lock()


def _take_worker() -> _Worker:
    """An idle worker of this process, or a new one."""
    while True:
        with _idle_lock:
            if not _idle:
                return _Worker()
            worker = _idle.pop()
        if worker.alive():
            return worker
        if worker.owner == os.getpid():  # it died while idle: reap it (a forked copy is its parent's)
            worker.kill()


def stop_workers() -> None:
    """End the idle worker processes kept for reuse (done at exit too)."""
    with _idle_lock:
        workers = [w for w in _idle if w.owner == os.getpid()]
        _idle.clear()
    for worker in workers:
        worker.close()


atexit.register(stop_workers)


def run_in_worker(
    search: Callable[[_M, str], Iterator[tuple[int, ...]]],
    model: _M,
    solver: str,
    limits: tuple[int, int],
    deadline: float | None,
    failsafe: float,
) -> Run:
    """Run ``search(model, solver)`` in a worker until it answers or ``deadline`` passes (then kill the worker).

    ``search`` yields every solution as a full tuple of cells: a module's function, which travels to the
    worker by name (pickle), as ``model`` does by value. ``limits`` is (how many solutions to count, how
    many of them to send back); ``failsafe`` is when the worker ends itself, 0 for never.
    """
    run = Run()
    worker = _take_worker()
    fresh, worker.fresh = worker.fresh, False
    run.workers_started = int(fresh)
    ready = not fresh
    reusable = False
    try:
        worker.send((search, model, solver, limits, failsafe))
        while not run.finished:
            remaining = _LONGEST_WAIT if deadline is None else deadline - time.perf_counter()
            if remaining <= 0:
                break
            try:
                message = worker.inbox.get(timeout=min(remaining, _LONGEST_WAIT))  # Ctrl-C interrupts the wait
            except queue.Empty:
                continue  # the deadline, or only the longest wait, has passed: the loop looks again
            if message[0] == "ready":
                ready = True
                run.worker_start = _since(worker.started) if fresh else 0.0
            else:
                _receive(run, message, worker)
        reusable = run.finished
        if not ready:  # the time ran out while it started: all of it went to the start
            run.worker_start = _since(worker.started)
    finally:
        if reusable:
            with _idle_lock:
                _idle.append(worker)
        else:  # time is up (or the wait was interrupted, or failed): kill, then keep what had arrived
            worker.kill()
            while not run.finished:
                try:
                    message = worker.inbox.get_nowait()
                except queue.Empty:
                    break
                if message[0] in ("solution", "count", "done"):
                    _receive(run, message, worker)
    return run


def _since(start: float) -> float:
    return time.perf_counter() - start


def _receive(run: Run, message: tuple[Any, ...], worker: _Worker) -> None:
    kind = message[0]
    if kind == "solution":
        run.solutions.append(message[1])
        run.count = max(run.count, len(run.solutions))
    elif kind == "count":
        run.count = max(run.count, message[1])
    elif kind == "done":
        run.finished, run.exhausted, run.search_time, run.count = True, message[1], message[2], message[3]
    elif kind == "error":
        raise RuntimeError(f"the search failed in the worker process: {message[1]}")
    else:
        raise RuntimeError(f"the worker process ended unexpectedly (exit code {worker.process.poll()})")


def _serve() -> None:
    """The worker's loop: read a job, stream its solutions and then ``done``; stop at end of input."""
    jobs = sys.stdin.buffer
    parent, tie_to_parent = pickle.load(jobs)
    if tie_to_parent and not _end_with_parent(parent):
        return
    channel = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # a stray print must not corrupt the channel
    sys.stdout = sys.stderr
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it kills us

    def send(message: tuple[Any, ...]) -> None:
        pickle.dump(message, channel, protocol=pickle.HIGHEST_PROTOCOL)
        channel.flush()

    try:
        send(("ready",))
        while True:
            try:
                search, model, solver, limits, failsafe = pickle.load(jobs)
            except EOFError:
                return
            _alarm(failsafe)  # should the parent be gone or stuck, the kernel ends this process
            try:
                _serve_job(send, search, model, solver, *limits)
            finally:
                _alarm(0)
    except OSError:  # the parent is gone (a broken pipe): there is no one to report to
        pass


def _serve_job(
    send: Callable[[tuple[Any, ...]], None],
    search: Callable[[Any, str], Iterator[tuple[int, ...]]],
    model: Any,
    solver: str,
    limit: int,
    keep: int,
) -> None:
    """Stream the first ``keep`` solutions, then now and then the count, then ``done`` (or ``error``)."""
    started = last = time.perf_counter()
    count = 0
    try:
        for solution in search(model, solver):
            count += 1
            if count <= keep:
                send(("solution", solution))
            elif (now := time.perf_counter()) - last >= _COUNT_EVERY:  # a timeout keeps the count so far
                send(("count", count))
                last = now
            if count >= limit:
                break
    except OSError:
        raise
    except Exception as err:  # report any failure of the search to the parent, then serve the next job
        send(("error", f"{type(err).__name__}: {err}"))
        return
    send(("done", count < limit, _since(started), count))


def _end_with_parent(parent: int) -> bool:
    """Have the kernel kill this process when its parent ends (Linux); False if it has ended already."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    return os.getppid() == parent


def _alarm(seconds: float) -> None:
    """Arm (or with 0, disarm) the real-time timer whose default action ends the process (POSIX)."""
    if hasattr(signal, "setitimer"):
        signal.setitimer(signal.ITIMER_REAL, seconds)
