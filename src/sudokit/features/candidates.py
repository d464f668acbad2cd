"""True candidates: for each cell, the digits that some solution puts there, and how many solutions do (up to a cap).

A digit is a true candidate of a cell when at least one solution of the puzzle has it there. Each
(cell, digit) pair is decided by an engine: the puzzle with that digit placed is solved, up to
``cap`` solutions, and every solution found also settles the pairs it holds, so most pairs are never
solved on their own. A variant puzzle (whose solves cost more) with a cap of 1, on an engine that
takes given pencil marks, is solved a cell at a time instead: the cell narrowed to the digits no
solution has shown there yet, until no solution is left. Every call goes through
:func:`sudokit.engines.api.run`, so every solution is checked before it counts; the time limit
bounds the whole job.

    >>> tc = true_candidates("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
    >>> tc.status, tc.digits(2)
    ('solved', (4,))
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from sudokit.engines.api import PuzzleLike, as_grid, get_strategy, normalize_time_limit, run
from sudokit.engines.strategy import Status, Strategy, capabilities_of
from sudokit.errors import InvalidPuzzleError, StrategyError
from sudokit.model.grid import Grid

__all__ = ["MAX_CAP", "TrueCandidates", "true_candidates"]

#: The largest ``cap``: the solutions counted per pair are kept, one set per pair.
MAX_CAP = 1000


@dataclass(frozen=True)
class TrueCandidates:
    """The true candidates of a puzzle.

    ``counts[(cell * n) + digit - 1]`` is the number of solutions with ``digit`` in ``cell`` (cells
    in reading order), capped at ``cap``; 0 where no solution has it. A given's own digit counts the
    puzzle's solutions (capped). ``status`` is ``solved`` (the puzzle has a solution),
    ``unsolvable`` (none: every count is 0), ``timeout`` (the time limit ran out: the counts are those
    found so far, each a lower bound), ``error`` or ``unsupported`` (``error`` says why).
    ``solves`` is how many engine calls it took.
    """

    puzzle: Grid
    strategy: str
    status: str
    cap: int
    counts: tuple[int, ...]
    elapsed: float
    solves: int
    error: str | None = None

    def digits(self, cell: int) -> tuple[int, ...]:
        """The true candidates of ``cell`` (an index in reading order), ascending."""
        n = self.puzzle.n
        return tuple(d for d in range(1, n + 1) if self.counts[cell * n + d - 1])

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: puzzle, strategy, status, cap, candidates (a list of digits a cell), counts, and the rest."""
        n = self.puzzle.n
        return {
            "puzzle": self.puzzle.to_line(),
            "strategy": self.strategy,
            "status": self.status,
            "cap": self.cap,
            "candidates": [list(self.digits(cell)) for cell in range(n * n)],
            "counts": list(self.counts),
            "solves": self.solves,
            "elapsed_ms": round(self.elapsed * 1000, 3),
            "error": self.error,
        }


def true_candidates(
    puzzle: PuzzleLike,
    strategy: str | Strategy = "backtrack",
    *,
    cap: int = 1,
    time_limit: float | None = None,
    box: str | None = None,
) -> TrueCandidates:
    """The true candidates of ``puzzle`` (any form :func:`sudokit.solve` takes), each counted up to ``cap`` solutions.

    ``strategy`` is a registered name or a Strategy; it runs in this process, each call checked by
    :func:`sudokit.engines.api.run`. ``time_limit`` (seconds; None, 0: none) bounds the whole job.
    Raises ``InvalidPuzzleError`` for a bad puzzle, ``StrategyError`` for an unknown engine and
    ``ValueError`` for a ``cap`` outside 1..``MAX_CAP``.
    """
    if isinstance(cap, bool) or not isinstance(cap, int) or not 1 <= cap <= MAX_CAP:
        raise ValueError(f"cap must be a whole number from 1 to {MAX_CAP}, not {cap!r:.40}")
    grid = as_grid(puzzle, box)
    limit = normalize_time_limit(time_limit)
    engine = get_strategy(strategy)
    name = strategy if isinstance(strategy, str) else str(getattr(engine, "name", type(engine).__name__))
    return _Search(grid, engine, name, cap, limit).run()


class _Search:
    """One true-candidates job: the solutions found per (cell, digit) pair, and the pairs settled."""

    def __init__(self, grid: Grid, engine: Strategy, name: str, cap: int, time_limit: float | None) -> None:
        self.grid, self.engine, self.name, self.cap = grid, engine, name, cap
        self.n = grid.n
        self.start = time.perf_counter()
        self.deadline = None if time_limit is None else self.start + time_limit
        self.found: list[set[bytes]] = [set() for _ in range(grid.shape.size * self.n)]
        self.settled = [False] * len(self.found)
        self.solutions: set[bytes] = set()
        self.solves = 0

    def done(self, status: str, error: str | None = None) -> TrueCandidates:
        cap, n, cells = self.cap, self.n, self.grid.cells
        counts = [min(cap, len(sols)) for sols in self.found]
        total = min(cap, len(self.solutions))
        for cell, digit in enumerate(cells):
            if digit:
                counts[cell * n + digit - 1] = total
        if status == Status.UNSOLVABLE.value:
            counts = [0] * len(counts)
        elapsed = time.perf_counter() - self.start
        return TrueCandidates(self.grid, self.name, status, cap, tuple(counts), elapsed, self.solves, error)

    def solve(self, grid: Grid) -> Any:
        """The checked result of ``grid`` up to ``cap`` solutions, or None when no time is left."""
        left = None if self.deadline is None else self.deadline - time.perf_counter()
        if left is not None and left <= 0:
            return None
        self.solves += 1
        result = run(self.engine, grid, limit=self.cap, keep=self.cap, time_limit=left)
        for solution in result.solutions:
            self.add(bytes(solution.cells))
        return result

    def add(self, cells: bytes) -> None:
        if cells in self.solutions:
            return
        self.solutions.add(cells)
        n, given = self.n, self.grid.cells
        for cell, digit in enumerate(cells):
            if not given[cell]:
                pair = cell * n + digit - 1
                if len(self.found[pair]) < self.cap:
                    self.found[pair].add(cells)

    def run(self) -> TrueCandidates:
        first = self.solve(self.grid)
        failed = self.failure(first)
        if failed is not None:
            return failed
        if first.status is Status.UNSOLVABLE:
            return self.done(Status.UNSOLVABLE.value)
        grid, n, cells = self.grid, self.n, list(self.grid.cells)
        narrows = self.cap == 1 and not grid.is_classic and "pencil-marks" in self.kinds()
        for cell in range(grid.shape.size):
            if cells[cell]:
                continue
            if narrows:
                failed = self.narrowed(cell)
                if failed is not None:
                    return failed
                continue
            seen = {cells[p] for p in grid.shape.peers[cell]}
            for digit in range(1, n + 1):
                pair = cell * n + digit - 1
                if self.settled[pair] or len(self.found[pair]) >= self.cap:
                    continue
                if digit in seen and grid.is_classic:
                    self.settled[pair] = True  # a given in its row, column or box holds it
                    continue
                cells[cell] = digit
                try:
                    placed = grid.with_cells(cells)
                except InvalidPuzzleError:  # a rule of the puzzle refuses the digit there outright
                    placed = None
                cells[cell] = 0
                if placed is not None:
                    result = self.solve(placed)
                    failed = self.failure(result)
                    if failed is not None:
                        return failed
                self.settled[pair] = True  # every solution with it was found (fewer than cap), or cap were
        return self.done(Status.SOLVED.value)

    def kinds(self) -> frozenset[str]:
        """The variant kinds the engine declares (none when its capabilities cannot be read)."""
        try:
            return frozenset(capabilities_of(self.engine).constraints)
        except StrategyError:
            return frozenset()

    def narrowed(self, cell: int) -> TrueCandidates | None:
        """Settle every digit of ``cell`` (a cap of 1): the puzzle with the cell narrowed, as by pencil marks, to
        the digits no solution has shown there yet, solved again until it has no solution. A variant puzzle's
        solve costs more than a classic one's: one solve a cell, and one a digit found, not one a digit.
        """
        from sudokit.model.variants import PencilMarks

        grid, n = self.grid, self.n
        while True:
            left = [d for d in range(1, n + 1) if not self.found[cell * n + d - 1]]
            if not left:
                return None
            marks = PencilMarks((cell // n, cell % n), tuple(left))
            regions = grid.regions if grid.jigsaw else None
            try:
                narrowed = Grid(grid.cells, grid.shape, regions=regions, constraints=(*grid.constraints, marks))
            except InvalidPuzzleError:  # the puzzle's own rules refuse every digit left there
                return None
            result = self.solve(narrowed)
            failed = self.failure(result)
            if failed is not None or result.status is Status.UNSOLVABLE:
                return failed

    def failure(self, result: Any) -> TrueCandidates | None:
        """The job's end when ``result`` is no answer: out of time (None or a timeout), or an engine's failure."""
        if result is None or result.status is Status.TIMEOUT:
            return self.done(Status.TIMEOUT.value, "the time limit ran out before every candidate was decided")
        if result.status in (Status.ERROR, Status.UNSUPPORTED):
            return self.done(result.status.value, result.error)
        return None
