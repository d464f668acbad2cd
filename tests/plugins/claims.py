"""Third-party engines that declare what they take, or take their time to be built, for the trust tests."""

from __future__ import annotations

import time

from sudokit import Capabilities, Grid, Result, Status
from sudokit_strategies.backtrack import BacktrackStrategy

_RIGHT = BacktrackStrategy()


class SmallBoards:
    """Claims boards up to 12x12; on a bigger one it would search until its time limit ran out."""

    name = "small-boards"
    description = "a plugin that claims boards up to 12x12"
    capabilities = Capabilities(max_side=12)

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        if puzzle.shape.n > 12:
            start = time.perf_counter()
            time.sleep(time_limit if time_limit is not None else 3600)
            return Result(Status.TIMEOUT, puzzle, self.name, elapsed=time.perf_counter() - start)
        return _RIGHT.solve(puzzle, limit=limit, time_limit=time_limit)


class SlowToBuild:
    """Imports at once but takes two seconds to be built (as a compiled engine's first compile does)."""

    name = "slow-to-build"
    description = "a plugin whose constructor takes two seconds"

    def __init__(self) -> None:
        time.sleep(2.0)

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        return _RIGHT.solve(puzzle, limit=limit, time_limit=time_limit)


class SaysUnique:
    """Stops at the first solution and says there is no other: a count that no check of the answer can refute."""

    name = "says-unique"
    description = "a plugin that claims every puzzle it solves has one solution"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        found = _RIGHT.solve(puzzle, limit=1, time_limit=time_limit)
        if found.status is not Status.SOLVED:
            return found
        return Result(Status.SOLVED, puzzle, self.name, found.solutions, 1, True, elapsed=found.elapsed)
