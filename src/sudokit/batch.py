"""Solving a stream of records: one outcome per input puzzle, failed ones included, in input order."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from sudokit.api import run
from sudokit.errors import InvalidPuzzleError
from sudokit.grid import Grid
from sudokit.reader import Record
from sudokit.shape import Shape
from sudokit.strategy import Result, Status, Strategy

__all__ = ["Outcome", "exit_status", "solve_record", "solve_records"]

INVALID = "invalid"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of one input record: its grid and result, or why it could not be read."""

    index: int
    record: Record
    grid: Grid | None = None
    result: Result | None = None
    invalid: str | None = None

    @property
    def status(self) -> str:
        """``solved``, ``unsolvable``, ``timeout``, ``error`` or ``invalid``."""
        return INVALID if self.result is None else self.result.status.value

    @property
    def error(self) -> str | None:
        """The one-line reason a record failed to parse or its engine failed, else None."""
        return self.invalid if self.result is None else self.result.error

    @property
    def puzzle_text(self) -> str:
        """The puzzle in line form, or the input text as read when it did not parse."""
        return self.grid.to_line() if self.grid is not None else self.record.as_read

    def to_dict(self, *, solutions: bool = False) -> dict[str, object]:
        """The JSON record: puzzle, strategy, status, solution, count, exact, elapsed_ms, error, ..."""
        data: dict[str, object]
        if self.result is None:
            data = {
                "puzzle": self.puzzle_text,
                "strategy": None,
                "status": INVALID,
                "solution": None,
                "count": None,
                "exact": None,
                "elapsed_ms": 0.0,
                "stats": {},
                "error": self.invalid,
            }
        else:
            data = self.result.to_dict()
            if solutions:
                data["solutions"] = [g.to_line() for g in self.result.solutions]
        data["source"] = self.record.source
        data["line"] = self.record.line
        return data


def solve_records(
    records: Iterable[Record],
    strategy: Strategy,
    *,
    limit: int = 1,
    time_limit: float | None = None,
    box: Shape | None = None,
) -> Iterator[Outcome]:
    """Solve each record in turn; a record that does not parse becomes an ``invalid`` outcome."""
    for index, record in enumerate(records):
        yield solve_record(index, record, strategy, limit=limit, time_limit=time_limit, box=box)


def solve_record(
    index: int,
    record: Record,
    strategy: Strategy,
    *,
    limit: int = 1,
    time_limit: float | None = None,
    box: Shape | None = None,
) -> Outcome:
    """The outcome of input record number ``index``: solved, or ``invalid`` when it does not parse."""
    try:
        grid = record.parse(box)
    except InvalidPuzzleError as err:
        return Outcome(index, record, invalid=str(err))
    return Outcome(index, record, grid, run(strategy, grid, limit=limit, time_limit=time_limit))


def exit_status(statuses: Iterable[str], *, counting: bool = False) -> int:
    """0 all solved (or counted), 1 some unsolvable or timed out, 2 some invalid input or engine error."""
    worst = 0
    for status in statuses:
        if status in (INVALID, Status.ERROR.value):
            return 2
        if status == Status.TIMEOUT.value or (status == Status.UNSOLVABLE.value and not counting):
            worst = 1
    return worst
