"""``cp-sat``: Google OR-Tools' CP-SAT solver on the textbook integer model.

One integer variable per cell with domain 1..n (a given's domain is its digit alone) and one
``AllDifferent`` per row, column and box. The wrapper is kept thin on purpose: one variable call per
cell, one constraint call per unit, and the solution is read back as the solver's value vector
(cell ``i`` is variable ``i``), with no per-cell Python work after the solve.

* ``limit`` 1 is a plain solve, on ``workers`` search workers (1 by default: deterministic, and the
  fastest on boards this small).
* ``limit`` > 1 enumerates every solution and stops at the limit. CP-SAT enumerates correctly only
  on one worker (on more it can report a solution twice), so counting always uses one worker;
  ``stats["workers"]`` says how many were used.

CP-SAT stops at Ctrl-C on its own and would report the stop as a timeout; a search that stops short
of its time limit without an answer raises ``KeyboardInterrupt`` instead, as Python would have.

Statistics are the solver's own: ``branches``, ``conflicts``, ``booleans`` and ``wall_time``.
On puzzles/top95.txt a solve takes about 4 ms, within 3% of a bare inline CP-SAT model; the 25x25
board of puzzles/sizes/box5x5.txt takes 3-5 s.
"""

from __future__ import annotations

import time

from ortools.sat.python import cp_model

from sudokit import Grid, Result, Status

__all__ = ["CpSatStrategy"]

_FOUND = (cp_model.OPTIMAL, cp_model.FEASIBLE)
_CLOCK_SLACK = 0.05  # seconds: a search stopped earlier than this before its time limit was interrupted


class CpSatStrategy:
    """OR-Tools CP-SAT: integer cell variables and one AllDifferent per row, column and box."""

    name = "cp-sat"
    description = "Google OR-Tools CP-SAT: integer cells, AllDifferent per row, column and box"

    def __init__(self, workers: int = 1) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ValueError(f"workers must be a whole number of at least 1, not {workers!r}")
        self.workers = workers

    def __repr__(self) -> str:
        return f"CpSatStrategy(workers={self.workers})"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        """Find up to ``limit`` solutions of ``puzzle`` within ``time_limit`` seconds."""
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
            status = solver.solve(model)
            found = [tuple(solver.response_proto.solution)] if status in _FOUND else []
        else:
            params.enumerate_all_solutions = True
            collector = _Collector(limit)
            status = solver.solve(model, collector)
            found = collector.solutions

        if status == cp_model.INFEASIBLE:
            outcome, exact = Status.UNSOLVABLE, True
        elif found and (status == cp_model.OPTIMAL or len(found) == limit):
            # OPTIMAL after enumerating means the search finished; at the limit it was stopped on purpose.
            outcome, exact = Status.SOLVED, len(found) < limit
        elif status in (cp_model.UNKNOWN, cp_model.FEASIBLE):
            if time_limit is None or solver.wall_time < params.max_time_in_seconds - _CLOCK_SLACK:
                # CP-SAT stops on Ctrl-C by itself and swallows it: give it back to the caller.
                raise KeyboardInterrupt("CP-SAT search interrupted")
            outcome, exact = Status.TIMEOUT, False  # the time limit stopped the search first
        else:
            raise RuntimeError(f"CP-SAT ended with status {status!r}")
        response = solver.response_proto
        return Result(
            status=outcome,
            puzzle=puzzle,
            strategy=self.name,
            solutions=tuple(Grid(values, shape, validate=False) for values in found),
            count=len(found),
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


class _Collector(cp_model.CpSolverSolutionCallback):
    """Keeps each solution's value vector and stops the search at the limit."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit
        self.solutions: list[tuple[int, ...]] = []

    def on_solution_callback(self) -> None:
        self.solutions.append(tuple(self.response_proto.solution))
        if len(self.solutions) >= self.limit:
            self.stop_search()
