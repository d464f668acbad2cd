"""A third-party engine that loads and solves: a plain recursive search, independent of sudokit's engines."""

from __future__ import annotations

import time

from sudokit import Grid, Result, Status

#: How many times this module has been executed (imported) in this process.
IMPORTS = 0
IMPORTS += 1

#: Not callable: an entry point naming it does not give a strategy.
NOT_A_FACTORY = 42


class Good:
    """Fills the first blank with each digit its row, column and box allow, and recurses."""

    name = "good"
    description = "a plugin's plain recursive search"

    def __init__(self, greeting: str = "hello") -> None:
        self.greeting = greeting

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        start = time.perf_counter()
        shape = puzzle.shape
        cells = list(puzzle.cells)
        found: list[Grid] = []

        def fill(i: int) -> None:
            while i < len(cells) and cells[i]:
                i += 1
            if i == len(cells):
                found.append(Grid(cells, shape))
                return
            used = {cells[p] for p in shape.peers[i]}
            for digit in range(1, shape.n + 1):
                if digit not in used and len(found) < limit:
                    cells[i] = digit
                    fill(i + 1)
                    cells[i] = 0

        fill(0)
        exact = len(found) < limit
        status = Status.SOLVED if found else Status.UNSOLVABLE
        return Result(status, puzzle, self.name, tuple(found), len(found), exact, {}, time.perf_counter() - start)


class NoSolve:
    """Builds, but is not a Strategy: it has no ``solve``."""

    name = "no-solve"
    description = "missing solve"
