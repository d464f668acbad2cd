"""The strategy interface every engine implements, and the one result type every engine returns."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol, runtime_checkable

from sudokit.grid import Grid

__all__ = ["Result", "Status", "Strategy"]


class Status(StrEnum):
    """How a solve ended."""

    SOLVED = "solved"  #: at least one solution found (``count`` says how many, up to the limit)
    UNSOLVABLE = "unsolvable"  #: proved to have no solution
    TIMEOUT = "timeout"  #: the time limit ran out before the question was answered
    ERROR = "error"  #: the engine failed (set by sudokit, never by a working engine)


@dataclass(frozen=True, slots=True)
class Result:
    """What any engine returns for one puzzle.

    ``solutions`` holds the solutions found, at most the limit asked for; ``count`` is how many were
    found and ``exact`` says whether that is the true number of solutions (the search finished
    below the limit). ``stats`` are the engine's own counters (nodes, branches, ...); ``elapsed``
    is wall time in seconds.
    """

    status: Status
    puzzle: Grid
    strategy: str
    solutions: tuple[Grid, ...] = ()
    count: int = 0
    exact: bool = False
    stats: Mapping[str, int | float | str] = field(default_factory=dict)
    elapsed: float = 0.0
    error: str | None = None

    @property
    def solution(self) -> Grid | None:
        """The first solution found, or None."""
        return self.solutions[0] if self.solutions else None

    @property
    def solved(self) -> bool:
        """True when a solution was found."""
        return bool(self.solutions)

    @property
    def unique(self) -> bool | None:
        """True/False when the search decided uniqueness (ask with limit >= 2), None when it did not."""
        if self.exact:
            return self.count == 1
        if self.count >= 2:
            return False
        return None

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready summary: puzzle, strategy, status, solution, count, exact, elapsed_ms, stats, error."""
        return {
            "puzzle": self.puzzle.to_line(),
            "strategy": self.strategy,
            "status": self.status.value,
            "solution": self.solution.to_line() if self.solution else None,
            "count": self.count,
            "exact": self.exact,
            "elapsed_ms": round(self.elapsed * 1000, 3),
            "stats": dict(self.stats),
            "error": self.error,
        }


@runtime_checkable
class Strategy(Protocol):
    """A Sudoku engine. Register one under the entry-point group ``sudokit.strategies``.

    The entry point names a class (or any callable) that builds the strategy from keyword options;
    ``sudoku solve -o key=value`` and ``solve(..., key=value)`` pass them through.
    """

    name: str
    description: str

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        """Search ``puzzle`` for up to ``limit`` solutions, stopping at ``time_limit`` seconds.

        ``limit`` 1 finds one solution, 2 decides uniqueness, more counts. The result's status is
        ``solved`` (count >= 1), ``unsolvable`` (proved) or ``timeout``.
        """
        ...
