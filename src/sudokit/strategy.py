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


@dataclass(frozen=True, slots=True, repr=False)
class Result:
    """What any engine returns for one puzzle.

    ``count`` is how many solutions were found, up to the limit asked for, and ``exact`` says
    whether that is the true number of solutions (the search finished below the limit).
    ``solutions`` holds the first ``min(count, keep)`` of them, distinct (``keep``, asked with the
    limit, is how many to return: all of them unless told, one when counting). ``stats`` are the
    engine's own counters (nodes, branches, ...); ``elapsed`` is wall time in seconds; ``error``
    says why, with status ``error`` only.
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

    def __repr__(self) -> str:
        puzzle = self.puzzle
        if isinstance(puzzle, Grid):
            shape = puzzle.shape
            boxes = "" if shape.box_rows == shape.box_cols else f" of {shape} boxes"
            shown = f"<{shape.n}x{shape.n} grid{boxes}, {puzzle.count_givens()} givens>"
        else:
            shown = _short(puzzle, 40)
        status = self.status.value if isinstance(self.status, Status) else repr(self.status)
        elapsed = self.elapsed
        took = f"{elapsed * 1000:.3f} ms" if isinstance(elapsed, int | float) else _short(elapsed, 20)
        error = "" if self.error is None else f", error={_short(self.error, 80)}"
        return (
            f"Result({status}, strategy={_short(self.strategy, 40)}, count={_short(self.count, 20)}, "
            f"exact={_short(self.exact, 10)}, elapsed={took}, puzzle={shown}{error})"
        )

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


def _short(value: object, width: int) -> str:
    """The repr of ``value``, cut to about ``width`` characters with ``...`` (a string keeps its quotes)."""
    if isinstance(value, str) and len(value) > width:
        return repr(value[: width - 3] + "...")
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


@runtime_checkable
class Strategy(Protocol):
    """A Sudoku engine. Register one under the entry-point group ``sudokit.strategies``.

    The entry point names a class (or any callable) that builds the strategy from keyword options;
    ``sudoku solve -o key=value`` and ``solve(..., key=value)`` pass them through.

    ``solve`` may also take ``keep: int | None = None``, how many of the solutions found to return
    (None: all, up to ``limit``), so that counting to a large limit need not hold every solution;
    sudokit passes ``keep`` only to an engine whose ``solve`` takes it (or ``**kwargs``), and trims
    the solutions of the others. sudokit checks every result (``sudokit.verify.result_problem``):
    an answer that is not consistent, or that arrives long after ``time_limit``, becomes an
    ``error`` result naming the engine.
    """

    name: str
    description: str

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        """Search ``puzzle`` for up to ``limit`` solutions, stopping at ``time_limit`` seconds.

        ``limit`` 1 finds one solution, 2 decides uniqueness, more counts; ``time_limit`` None is no
        limit, and any positive value (1e10 too) must work. The result's status is ``solved``
        (count >= 1, with solutions), ``unsolvable`` (proved: count 0, exact) or ``timeout`` (not
        exact; the solutions found so far), and ``len(solutions) == count`` (``min(count, keep)``
        for an engine taking ``keep``).
        """
        ...
