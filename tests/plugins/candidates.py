"""Third-party engines with their own ``candidates`` method (the fast path of true candidates) that misbehave.

Each solves as the real ``backtrack`` does; its ``candidates`` is the point.
"""

from __future__ import annotations

from sudokit import Grid, Result, Status
from sudokit_strategies.backtrack import BacktrackStrategy


class _Fast(BacktrackStrategy):
    description = "a test double of a plugin with a fast true-candidates method"


class ForgedWitness(_Fast):
    """Its one witness is the first solution with two cells swapped: no solution at all."""

    name = "forged-witness"

    def candidates(self, puzzle: Grid, *, cap: int = 1, time_limit: float | None = None) -> Result:
        first = self.solve(puzzle, time_limit=time_limit).solutions[0]
        cells = list(first.cells)
        blanks = [i for i, v in enumerate(puzzle.cells) if not v]
        cells[blanks[0]], cells[blanks[1]] = cells[blanks[1]], cells[blanks[0]]
        return Result(Status.SOLVED, puzzle, self.name, (Grid(cells, puzzle.shape, validate=False),), 1)


class OneWitness(_Fast):
    """Returns the first solution only, as if no other existed: every other candidate is hidden."""

    name = "one-witness"

    def candidates(self, puzzle: Grid, *, cap: int = 1, time_limit: float | None = None) -> Result:
        result = self.solve(puzzle, time_limit=time_limit)
        return Result(
            result.status, puzzle, self.name, result.solutions, result.count, result.status is Status.UNSOLVABLE
        )


class Stalls(_Fast):
    """Spins in pure Python, ignoring its time limit."""

    name = "stalls"

    def candidates(self, puzzle: Grid, *, cap: int = 1, time_limit: float | None = None) -> Result:
        spins = 0
        while True:
            spins += 1
