"""``cp-sat``: Google OR-Tools' CP-SAT solver on the textbook integer model.

One integer variable per cell with domain 1..n (a given's domain is its digit alone) and one
``AllDifferent`` per row, column and box. The wrapper is kept thin on purpose: one variable call per
cell, one constraint call per unit, and the solution is read back as the solver's value vector
(cell ``i`` is variable ``i``), with no per-cell Python work after the solve.

* ``limit`` 1 is a plain solve, on ``workers`` search workers (1 by default: deterministic, and the
  fastest on boards this small).
* ``limit`` > 1 enumerates every solution and stops at the limit. CP-SAT enumerates correctly only
  on one worker (on more it can report a solution twice), so counting always uses one worker;
  ``stats["workers"]`` says how many were used. Only the first ``keep`` solutions are stored.
* ``time_limit`` of any size works (CP-SAT takes 1e10 s and infinity alike).

Ctrl-C (or a kill, or the core's watchdog) stops the search at once and its Python handler runs as
soon as the search returns, so Ctrl-C raises ``KeyboardInterrupt`` as in any Python code; see
``_solve``. A search stopped by its time limit is a timeout even when CP-SAT stops it a little early
(it stops when its longest step so far would overrun the limit: 0.18 s into 0.3 s on an empty 25x25).

Statistics are the solver's own: ``branches``, ``conflicts``, ``booleans`` and ``wall_time``.
On puzzles/top95.txt a solve takes about 4 ms, within 3% of a bare inline CP-SAT model; the 25x25
board of puzzles/sizes/box5x5.txt takes 3-5 s.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from contextlib import suppress

from ortools.sat.python import cp_model

from sudokit import Capabilities, Grid, Result, Status

__all__ = ["CpSatStrategy"]

_FOUND = (cp_model.OPTIMAL, cp_model.FEASIBLE)
#: Signals that stop a search at once so that their Python handlers run: Ctrl-C, a kill, the core's watchdog.
_STOPPING = frozenset(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGALRM") if hasattr(signal, name))


class CpSatStrategy:
    """OR-Tools CP-SAT: integer cell variables and one AllDifferent per row, column and box."""

    name = "cp-sat"
    description = "Google OR-Tools CP-SAT: integer cells, AllDifferent per row, column and box"
    #: Every board, counting and time limits (the default, said outright): 25x25 in about 3.3 s.
    capabilities = Capabilities()

    def __init__(self, workers: int = 1) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ValueError(f"workers must be a whole number of at least 1, not {workers!r}")
        self.workers = workers

    def __repr__(self) -> str:
        return f"CpSatStrategy(workers={self.workers})"

    def solve(
        self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> Result:
        """Count up to ``limit`` solutions of ``puzzle`` within ``time_limit`` seconds, keeping the first ``keep``."""
        start = time.perf_counter()
        shape = puzzle.shape
        n = shape.n
        model = cp_model.CpModel()
        new_var = model.new_int_var
        cells = [new_var(v, v, "") if v else new_var(1, n, "") for v in puzzle.cells]
        for units in (shape.rows, shape.cols, shape.boxes):
            for unit in units:
                model.add_all_different([cells[i] for i in unit])

        solver = cp_model.CpSolver()
        params = solver.parameters
        params.num_workers = self.workers if limit == 1 else 1
        if time_limit is not None:
            params.max_time_in_seconds = max(time_limit - (time.perf_counter() - start), 1e-3)
        if limit == 1:
            status = _solve(solver, model)
            found = [tuple(solver.response_proto.solution)] if status in _FOUND else []
            count = len(found)
        else:
            params.enumerate_all_solutions = True
            collector = _Collector(limit, limit if keep is None else keep)
            status = _solve(solver, model, collector)
            found, count = collector.solutions, collector.count

        if status == cp_model.INFEASIBLE:
            outcome, exact = Status.UNSOLVABLE, True
        elif count and (status == cp_model.OPTIMAL or count == limit):
            # OPTIMAL after enumerating means the search finished; at the limit it was stopped on purpose.
            outcome, exact = Status.SOLVED, count < limit
        elif status in (cp_model.UNKNOWN, cp_model.FEASIBLE):
            if time_limit is None:  # stopped by a signal whose handler did not raise
                raise RuntimeError("the CP-SAT search was stopped by a signal before it answered")
            outcome, exact = Status.TIMEOUT, False  # the time limit stopped the search first
        else:
            raise RuntimeError(f"CP-SAT ended with status {status!r}")
        response = solver.response_proto
        return Result(
            status=outcome,
            puzzle=puzzle,
            strategy=self.name,
            solutions=tuple(Grid(values, shape, validate=False) for values in found),
            count=count,
            exact=exact,
            stats={
                "branches": response.num_branches,
                "conflicts": response.num_conflicts,
                "booleans": response.num_booleans,
                "wall_time": response.wall_time,
                "workers": params.num_workers,
            },
            elapsed=time.perf_counter() - start,
        )


def _solve(solver: cp_model.CpSolver, model: cp_model.CpModel, callback: _Collector | None = None) -> int:
    """``solver.solve(model, callback)``, stopped at once by Ctrl-C, a kill or the core's watchdog.

    While the compiled search runs, Python only notes a signal; its handler runs when the search
    returns. The watcher thread, woken through the signal wakeup fd, stops the search at once, so
    Ctrl-C raises ``KeyboardInterrupt`` now rather than at the time limit. CP-SAT's own Ctrl-C
    handling is off: it swallows the signal, which made the stop look like a timeout. Where Python
    takes no signals (a thread other than the main one) or off POSIX, the search runs to its limit.
    """
    solver.parameters.catch_sigint_signal = False
    if os.name != "posix" or threading.current_thread() is not threading.main_thread():
        return solver.solve(model, callback)
    watcher = _watcher()
    previous = signal.set_wakeup_fd(watcher.write, warn_on_full_buffer=False)
    watcher.solver, watcher.forward = solver, previous
    try:
        return solver.solve(model, callback)
    finally:
        watcher.solver = None
        signal.set_wakeup_fd(previous)


class _Watcher:
    """A thread that stops the main thread's search when a stopping signal arrives.

    One per process, started on first use (a thread per solve cost 10 % of a 9x9 solve); it sleeps
    on the pipe that Python's signal handler writes each signal's number to while a search runs.
    """

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.read, self.write = os.pipe()
        os.set_blocking(self.write, False)
        self.solver: cp_model.CpSolver | None = None
        self.forward = -1  # the wakeup fd set before ours (asyncio's, say): it gets every signal too
        threading.Thread(target=self._run, name="cp-sat signal watcher", daemon=True).start()

    def _run(self) -> None:
        while signals := os.read(self.read, 512):
            forward, solver = self.forward, self.solver
            if forward != -1:
                with suppress(OSError):
                    os.write(forward, signals)
            if solver is not None and not _STOPPING.isdisjoint(signals):
                solver.stop_search()


_watchers: list[_Watcher] = []


def _watcher() -> _Watcher:
    """This process's watcher (a forked child has a copy of its parent's, without the thread)."""
    if not _watchers or _watchers[0].pid != os.getpid():
        _watchers[:] = [_Watcher()]
    return _watchers[0]


class _Collector(cp_model.CpSolverSolutionCallback):
    """Counts the solutions, keeps the value vectors of the first ``keep``, and stops the search at the limit."""

    def __init__(self, limit: int, keep: int) -> None:
        super().__init__()
        self.limit = limit
        self.keep = keep
        self.count = 0
        self.solutions: list[tuple[int, ...]] = []

    def on_solution_callback(self) -> None:
        self.count += 1
        if self.count <= self.keep:
            self.solutions.append(tuple(self.response_proto.solution))
        if self.count >= self.limit:
            self.stop_search()
