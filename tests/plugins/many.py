"""Engines with a ``solve_many`` batch method, for the batch path's tests: one that lies, one that fails.

Both solve one puzzle at a time correctly (sudokit's ``backtrack``); only their batch answers go wrong,
so an error record can come from nothing but the batch path's check.
"""

from __future__ import annotations

import array

from sudokit import Grid, ManyResults, Shape, Status
from sudokit_strategies.backtrack import BacktrackStrategy

_INDEX = {Status.SOLVED: 0, Status.UNSOLVABLE: 1, Status.TIMEOUT: 2}
STATS = ("nodes", "guesses")


class Batched(BacktrackStrategy):
    """``solve_many`` as ``solve`` puzzle by puzzle: the honest batch answers the others spoil."""

    name = "batched"
    description = "backtrack, with a solve_many that solves each puzzle alone"

    def solve_many(
        self, cells: memoryview, shape: Shape, *, limit: int = 1, time_limit: float | None = None
    ) -> ManyResults:
        raw = bytes(cells)
        size = shape.size
        k = len(raw) // size
        status, exact, solutions = bytearray(k), bytearray(k), bytearray(k * size)
        count = array.array("q", bytes(8 * k))
        elapsed = array.array("d", bytes(8 * k))
        stats = {name: array.array("q", bytes(8 * k)) for name in STATS}
        for i in range(k):
            grid = Grid(tuple(raw[i * size : (i + 1) * size]), shape, validate=False)
            if _repeats(grid):
                status[i], exact[i] = 1, 1  # the protocol: a repeated given is simply unsolvable
                continue
            result = self.solve(grid, limit=limit, time_limit=time_limit)
            status[i], count[i], exact[i] = _INDEX[result.status], result.count, result.exact
            elapsed[i] = result.elapsed
            for name in STATS:
                stats[name][i] = int(result.stats[name])
            if result.solutions:
                solutions[i * size : (i + 1) * size] = bytes(result.solutions[0].cells)
        self.spoil(status, count, exact, solutions, size)
        return ManyResults(bytes(status), count, bytes(exact), bytes(solutions), elapsed, stats)

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None):  # type: ignore[no-untyped-def]
        result = super().solve(puzzle, limit=limit, time_limit=time_limit)
        stats = {name: result.stats[name] for name in STATS}
        from dataclasses import replace

        return replace(result, stats=stats)

    def spoil(self, status: bytearray, count: array.array, exact: bytearray, solutions: bytearray, size: int) -> None:
        """Nothing: the honest engine."""


class Liar(Batched):
    """Every third batch answer is wrong: swapped cells, a count above the limit, solved without a solution."""

    name = "liar"
    description = "a solve_many whose answers are wrong for puzzles 0, 3, 6, ... of each call"

    def spoil(self, status: bytearray, count: array.array, exact: bytearray, solutions: bytearray, size: int) -> None:
        for i in range(0, len(status), 3):
            if status[i] != 0:
                continue
            kind = (i // 3) % 3
            if kind == 0:  # two cells of the first row swapped: not a solution
                at = i * size
                solutions[at], solutions[at + 1] = solutions[at + 1], solutions[at]
            elif kind == 1:
                count[i] = 99
            else:
                solutions[i * size : (i + 1) * size] = bytes(size)


class NumpyLiar(Liar):
    """The liar's answers as numpy arrays, as numba's are: they travel to the caller packed, checked all the same."""

    name = "numpy-liar"
    description = "a solve_many answering in numpy arrays, wrong for puzzles 0, 3, 6, ... of each call"

    def solve_many(
        self, cells: memoryview, shape: Shape, *, limit: int = 1, time_limit: float | None = None
    ) -> ManyResults:
        import numpy as np

        found = super().solve_many(cells, shape, limit=limit, time_limit=time_limit)
        stats = {name: np.frombuffer(values, np.int64).copy() for name, values in found.stats.items()}
        return ManyResults(
            np.frombuffer(found.status, np.uint8).copy(),
            np.frombuffer(found.count, np.int64).copy(),
            np.frombuffer(found.exact, np.uint8).copy(),
            np.frombuffer(found.solutions, np.uint8).copy(),
            np.frombuffer(found.elapsed, np.float64).copy(),
            stats,
        )


class Counted(Batched):
    """``Batched``, noting how many puzzles each ``solve_many`` call was given (in ``calls``)."""

    name = "counted"
    description = "a solve_many that notes the size of each call"

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[int] = []

    def solve_many(
        self, cells: memoryview, shape: Shape, *, limit: int = 1, time_limit: float | None = None
    ) -> ManyResults:
        self.calls.append(len(cells) // shape.size)
        return super().solve_many(cells, shape, limit=limit, time_limit=time_limit)


class Raises(Batched):
    """``solve_many`` raises: each puzzle then goes alone, to the honest ``solve``."""

    name = "raises"
    description = "a solve_many that raises"

    def solve_many(self, cells: memoryview, shape: Shape, **options: object) -> ManyResults:  # type: ignore[override]
        raise RuntimeError("the batch method is broken")


def _repeats(grid: Grid) -> bool:
    cells = grid.cells
    shape = grid.shape
    for unit in (*shape.rows, *shape.cols, *shape.boxes):
        digits = [cells[i] for i in unit if cells[i]]
        if len(digits) != len(set(digits)):
            return True
    return False


class Exits(Batched):
    """``solve_many`` ends its process when the batch holds the puzzle ``POISON``: the block's puzzles fail."""

    name = "exits"
    description = "a solve_many that ends its process on one puzzle"
    POISON = bytes(81)  # the empty 9x9 board

    def solve_many(self, cells: memoryview, shape: Shape, **options: object) -> ManyResults:  # type: ignore[override]
        raw = bytes(cells)
        if any(raw[i : i + 81] == self.POISON for i in range(0, len(raw), 81)):
            import os

            os._exit(3)
        return super().solve_many(cells, shape, **options)  # type: ignore[arg-type]


class ExitsAlways(Exits):
    """``Exits``, whose ``solve`` ends its process too on ``POISON``: that puzzle fails even alone."""

    name = "exits-always"
    description = "a solve_many and a solve that end their process on one puzzle"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None):  # type: ignore[no-untyped-def]
        if bytes(puzzle.cells) == self.POISON:
            import os

            os._exit(3)
        return super().solve(puzzle, limit=limit, time_limit=time_limit)


class SleepsInBatch(Batched):
    """``solve_many`` sleeps ``SLEEP`` s before its (right) answers and says each took no time; ``solve`` is honest.

    Every answer says where it came from: the statistic ``batched`` is 1 from ``solve_many``, 0 from ``solve``.
    """

    name = "sleeps-in-batch"
    description = "a solve_many that sleeps past its puzzles' time limits and says it did not"
    SLEEP = 40.0
    PER_PUZZLE = 0.0  # seconds more for each puzzle

    def solve_many(  # type: ignore[override]
        self, cells: memoryview, shape: Shape, *, limit: int = 1, time_limit: float | None = None
    ) -> ManyResults:
        import time

        found = super().solve_many(cells, shape, limit=limit, time_limit=time_limit)
        k = len(found.status)
        time.sleep(self.SLEEP + self.PER_PUZZLE * k)
        return ManyResults(
            found.status,
            found.count,
            found.exact,
            found.solutions,
            array.array("d", bytes(8 * k)),  # no time at all, it says
            {"batched": array.array("q", [1] * k)},
        )

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None):  # type: ignore[no-untyped-def]
        from dataclasses import replace

        result = super().solve(puzzle, limit=limit, time_limit=time_limit)
        return replace(result, stats={**result.stats, "batched": 0})


class SlowBatch(SleepsInBatch):
    """``solve_many`` takes 0.25 s a puzzle, well within a time limit of 1 s each: slow, not late."""

    name = "slow-batch"
    description = "a solve_many that takes a quarter of a second a puzzle"
    SLEEP = 0.0
    PER_PUZZLE = 0.25
