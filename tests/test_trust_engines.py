"""Engines keep their limits on every board they claim, and run only on the boards they claim.

* ``sat`` on boards above 25x25: Glucose looked at its interrupt only when it restarted (an empty
  36x36 ran 7 s past its limit, a 49x49 minutes), and the pairwise formula of an empty 49x49 took
  20 s and 2.3 GB to build; big boards now default to MiniSat 2.2 on the sequential counter.
* ``cp-sat`` on classic boards above 25x25: CP-SAT's own expansion of the AllDifferents never looked at
  the clock; the engine now builds the Boolean model itself, checking the limit as it goes.
"""

from __future__ import annotations

import time

import pytest

from sudokit import Grid, Shape, Status, is_solution, solve

from .conftest import sized

EMPTY_36 = Grid.empty(Shape.of(6, 6))


def test_sat_solves_an_empty_36x36_in_a_few_cpu_seconds() -> None:
    """CPU time, not wall time: before, Glucose on the pairwise formula took 7-10 CPU s and could not be stopped."""
    solve(Grid.empty(), "sat")  # loads PySAT
    before = time.process_time()
    result = solve(EMPTY_36, "sat", time_limit=60)
    used = time.process_time() - before
    assert result.status is Status.SOLVED and result.error is None, result.error
    assert is_solution(EMPTY_36, result.solution)
    assert used < 4.0, used  # about 1.3 s


@pytest.mark.parametrize("solver", ["glucose3", "glucose4", "maplecm"])
def test_sat_refuses_a_late_stopping_solver_on_a_big_board_with_a_time_limit(solver: str) -> None:
    before = time.process_time()
    result = solve(EMPTY_36, "sat", time_limit=5, solver=solver)
    assert time.process_time() - before < 1.0  # refused before any formula is built
    assert result.status is Status.ERROR
    error = result.error or ""
    assert f"solver {solver} cannot keep a time limit on boards above 25x25" in error and "minisat22" in error


# --- cp-sat on big boards -------------------------------------------------------------------------------


def test_cp_sat_stops_an_empty_64x64_within_its_limit_in_cpu_time() -> None:
    """Before, CP-SAT expanded the 192 AllDifferents of 64 cells in C++ that never looks at the clock: 1.3-1.5
    CPU s whatever the limit, and past it (2.2 s late at -t 5 on a loaded machine, killed by the watchdog)."""
    empty = Grid.empty(Shape.of(8, 8))
    solve(Grid.empty(), "cp-sat")  # loads OR-Tools
    for limit in (1, 10**9):
        before = time.process_time()
        result = solve(empty, "cp-sat", limit=limit, keep=1, time_limit=0.5)
        used = time.process_time() - before
        assert result.status is Status.TIMEOUT and result.error is None, result.error
        assert used < 1.0, used  # about 0.3-0.4 s


def test_cp_sat_solves_and_counts_an_empty_36x36_in_a_few_cpu_seconds() -> None:
    solve(Grid.empty(), "cp-sat")  # loads OR-Tools
    before = time.process_time()
    result = solve(EMPTY_36, "cp-sat", time_limit=60)
    used = time.process_time() - before
    assert result.status is Status.SOLVED and is_solution(EMPTY_36, result.solution)
    assert used < 4.0, used  # 1.8 s; 7.5 s on CP-SAT's own expansion and presolve
    counted = solve(EMPTY_36, "cp-sat", limit=3, keep=2, time_limit=60)
    assert (counted.status, counted.count, counted.exact, len(set(counted.solutions))) == (Status.SOLVED, 3, False, 2)
    assert all(is_solution(EMPTY_36, s) for s in counted.solutions)


def test_cp_sat_big_board_answers_match_the_givens() -> None:
    """The Boolean model keeps the givens, and finds a contradiction in them without a search."""
    (puzzle, solution), *_ = sized("6x6")
    result = solve(puzzle, "cp-sat", limit=2, time_limit=60)
    assert (result.status, result.count, result.exact, result.solution) == (Status.SOLVED, 1, True, solution)
    cells = list(solution.cells)
    cells[1] = cells[0]  # a digit twice in the first row
    clash = solve(Grid(cells, solution.shape, validate=False), "cp-sat", time_limit=60)
    assert (clash.status, clash.count, clash.exact) == (Status.UNSOLVABLE, 0, True)
