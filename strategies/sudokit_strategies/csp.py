"""``python-constraint``: Sudoku as a CSP on python-constraint2 (the maintained, compiled fork).

The model: one variable per blank cell, its domain the digits its peers' givens leave (a blank with
none left is unsolvable at once, before any search), and one ``AllDifferentConstraint`` per unit
over that unit's blanks (the givens are pruned away already).

The solver is chosen by name; all three re-check the unit constraints after every assignment and hide
the digit from the unit's other blanks (forward checking). Measured on puzzles/top95.txt (95 hard
9x9 puzzles, first solution, 10 s limit a puzzle counted as 10 s, search time only, one puzzle at a
time on a shared 2-core machine; two runs each where given)::

    solver                         mean ms    median ms  max ms    timeouts  variable order
    backtracking (the default)     356, 362   59, 60     5,927     0         fewest values left, at each node
    recursive                      356, 367   52, 52     5,435     0         the same, recursive
    optimized (library's default)  >= 2,335   939        >= 10,000 11        fixed once before the search
    backtracking without forward   >= 8,511   10,000     >= 10,000 73        (not offered)
    checking

``backtracking`` and ``recursive`` tie (they try the values in opposite orders); ``backtracking`` is
the default because it is iterative (no recursion to outgrow on big boards) and it solved an empty
25x25 board in 16 s where ``recursive`` had not in 20 s. ``optimized`` orders the variables once
and loses on hard puzzles. None of this is enough for the 16x16 boards of puzzles/sizes/box4x4.txt:
``backtracking`` solved none of the five in 10 s, nor the first two in 120 s, and no solver of the
library solved any in 60 s, where ``backtrack`` takes 0.1-1.5 s and ``cp-sat`` about 0.1 s. The
library checks only the constraints of the variable just assigned and never chains the pruning, so
a hidden single costs a search node. Other models fared no better: 0/1 variables with exactly-one
per cell and per unit-digit (``SomeInSetConstraint`` + ``MaxSumConstraint``) solved at best 2 of
the 5 in 60 s (7 s and 48 s, after root singles), and cells linked to per-unit digit placements by
``FunctionConstraint`` none in 30 s (~10 us a Python callback). So 16x16 and up report ``timeout``.

Every search runs in a worker process (a child ``python``) that streams each solution back as it is
found. Not in this process, because the compiled search never returns to the interpreter between
solutions: while it runs, Ctrl-C goes unseen and every other thread of the process stalls (a timer
thread did not fire once in 20 s of search). At the time limit the worker is killed and the
solutions received so far are reported with status ``timeout``. Only the first ``keep`` solutions
travel back; after them the worker sends the count every 0.1 s, so counting takes no memory here. A
worker that answers in time is kept for the next puzzle, so only the first puzzle and the first
after a timeout pay for starting one (about 70 ms); reusing one costs about 0.1-0.2 ms a puzzle, and
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
from typing import Any

import constraint

from sudokit import Capabilities, Grid, Result, Status

__all__ = ["SOLVERS", "ConstraintStrategy", "stop_workers"]

#: The solvers of python-constraint2 that can enumerate solutions lazily, by option name.
SOLVERS: dict[str, type[constraint.Solver]] = {
    "backtracking": constraint.BacktrackingSolver,
    "recursive": constraint.RecursiveBacktrackingSolver,
    "optimized": constraint.OptimizedBacktrackingSolver,
}

_FAILSAFE = 5.0  # a worker left running this long past its time limit ends itself
_LONGEST_ALARM = 1e9  # seconds (about 31 years): setitimer refuses 1e10
_LONGEST_WAIT = 3600.0  # seconds one wait for a message may take (a queue's timeout has a ceiling, ~9.2e9 s)
_COUNT_EVERY = 0.1  # seconds between the counts a worker sends once it has sent the solutions to keep
_PR_SET_PDEATHSIG = 1  # Linux prctl: the signal a process gets when its parent ends

# What one search needs: the puzzle's cells, (blank, digits) per variable, the blanks of each unit.
_Model = tuple[tuple[int, ...], list[tuple[int, list[int]]], list[tuple[int, ...]]]


class ConstraintStrategy:
    """A python-constraint2 CSP: blanks with peer-pruned domains, AllDifferent per unit."""

    name = "python-constraint"
    #: The default solver's description (what ``sudoku strategies`` reads without loading the engine).
    description = "python-constraint2 CSP (backtracking solver): blanks with peer-pruned domains, AllDifferent per unit"
    #: Boards up to 12x12: it finishes none of the 16x16 boards of puzzles/sizes in 60 s (see above).
    capabilities = Capabilities(max_side=12)

    def __init__(self, solver: str = "backtracking") -> None:
        if solver not in SOLVERS:
            raise ValueError(f"unknown solver {solver!r}: choose {', '.join(SOLVERS)}")
        self.solver = solver
        self.description = (
            f"python-constraint2 CSP ({solver} solver): blanks with peer-pruned domains, AllDifferent per unit"
        )

    def __repr__(self) -> str:
        return f"ConstraintStrategy(solver={self.solver!r})"

    def solve(
        self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> Result:
        """Count up to ``limit`` solutions of ``puzzle`` within ``time_limit`` seconds in a worker, keeping ``keep``."""
        start = time.perf_counter()
        model = _model(puzzle)
        stats: dict[str, int | float] = {"variables": 0, "constraints": 0}
        if model is None:  # a blank with no digit left, or clashing givens
            return Result(Status.UNSOLVABLE, puzzle, self.name, exact=True, stats=stats, elapsed=_since(start))
        stats["variables"], stats["constraints"] = len(model[1]), len(model[2])
        keep = limit if keep is None else keep
        if time_limit is None:
            run = _run_in_worker(model, self.solver, (limit, keep), deadline=None, failsafe=0.0)
        else:
            failsafe = min(time_limit + _FAILSAFE, _LONGEST_ALARM)
            run = _run_in_worker(model, self.solver, (limit, keep), start + time_limit, failsafe)
        stats["search_time"] = run.search_time
        stats["worker_start"] = run.worker_start
        status = Status.TIMEOUT
        if run.finished:
            status = Status.SOLVED if run.solutions else Status.UNSOLVABLE
        return Result(
            status=status,
            puzzle=puzzle,
            strategy=self.name,
            solutions=tuple(Grid(cells, puzzle.shape, validate=False) for cells in run.solutions),
            count=run.count,
            exact=run.finished and run.exhausted,
            stats=stats,
            elapsed=_since(start),
        )


def _since(start: float) -> float:
    return time.perf_counter() - start


def _model(puzzle: Grid) -> _Model | None:
    """The CSP's variables with their pruned domains, and each unit's blanks; None when unsolvable on sight."""
    shape, cells = puzzle.shape, puzzle.cells
    n = shape.n
    used = []  # the givens of each unit as a bit mask, rows then columns then boxes
    for unit in shape.units:
        mask = 0
        for i in unit:
            if cells[i]:
                bit = 1 << (cells[i] - 1)
                if mask & bit:
                    return None  # two equal givens in one unit
                mask |= bit
        used.append(mask)
    rows, cols, boxes = used[:n], used[n : 2 * n], used[2 * n :]
    digits = range(1, n + 1)
    domains = []
    for i, v in enumerate(cells):
        if not v:
            taken = rows[shape.row_of[i]] | cols[shape.col_of[i]] | boxes[shape.box_of[i]]
            domain = [d for d in digits if not taken >> (d - 1) & 1]
            if not domain:
                return None
            domains.append((i, domain))
    units = [blanks for unit in shape.units if len(blanks := tuple(i for i in unit if not cells[i])) > 1]
    return cells, domains, units


def _search(model: _Model, solver: str) -> Iterator[tuple[int, ...]]:
    """Every solution of the model as a full tuple of cells, lazily."""
    cells, domains, units = model
    if not domains:  # no blank: the puzzle is its own solution (its givens do not clash)
        yield cells
        return
    problem = constraint.Problem(SOLVERS[solver]())
    for i, domain in domains:
        problem.addVariable(i, domain)
    for blanks in units:
        problem.addConstraint(constraint.AllDifferentConstraint(), blanks)
    board = list(cells)
    for assignment in problem.getSolutionIter():
        for i, v in assignment.items():
            board[i] = v
        yield tuple(board)


class _Run:
    """What one search produced: the solutions, and whether it finished and found them all."""

    def __init__(self) -> None:
        self.solutions: list[tuple[int, ...]] = []  # the first ``keep`` found
        self.count = 0  # how many were found (so far)
        self.finished = False  # the search answered (found the limit, or ran out of solutions)
        self.exhausted = False  # the search ran out of solutions below the limit
        self.search_time = 0.0
        self.worker_start = 0.0


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


def _run_in_worker(
    model: _Model, solver: str, limits: tuple[int, int], deadline: float | None, failsafe: float
) -> _Run:
    """Run the search in a worker until it answers or ``deadline`` passes (then kill the worker).

    ``limits`` is (how many solutions to count, how many of them to send back); ``failsafe`` is when
    the worker ends itself, 0 for never.
    """
    run = _Run()
    worker = _take_worker()
    fresh, worker.fresh = worker.fresh, False
    reusable = False
    try:
        worker.send((model, solver, limits, failsafe))
        while not run.finished:
            remaining = _LONGEST_WAIT if deadline is None else deadline - time.perf_counter()
            if remaining <= 0:
                break
            try:
                message = worker.inbox.get(timeout=min(remaining, _LONGEST_WAIT))  # Ctrl-C interrupts the wait
            except queue.Empty:
                continue  # the deadline, or only the longest wait, has passed: the loop looks again
            if message[0] == "ready":
                run.worker_start = _since(worker.started) if fresh else 0.0
            else:
                _receive(run, message, worker)
        reusable = run.finished
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


def _receive(run: _Run, message: tuple[Any, ...], worker: _Worker) -> None:
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
                model, solver, limits, failsafe = pickle.load(jobs)
            except EOFError:
                return
            _alarm(failsafe)  # should the parent be gone or stuck, the kernel ends this process
            try:
                _serve_job(send, model, solver, *limits)
            finally:
                _alarm(0)
    except OSError:  # the parent is gone (a broken pipe): there is no one to report to
        pass


def _serve_job(send: Callable[[tuple[Any, ...]], None], model: _Model, solver: str, limit: int, keep: int) -> None:
    """Stream the first ``keep`` solutions, then now and then the count, then ``done`` (or ``error``)."""
    started = last = time.perf_counter()
    count = 0
    try:
        for solution in _search(model, solver):
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
