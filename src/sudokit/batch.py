"""Solving a stream of records: one outcome per input puzzle, failed ones included, in input order.

The engine runs in killable worker processes (:mod:`sudokit.workers`): a puzzle whose engine crashes
its process, or overruns its time limit so far that it has to be killed, gets an ``error`` outcome
and the batch goes on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from sudokit.api import get_strategy, normalize_time_limit, run, watchdog_seconds
from sudokit.errors import InvalidPuzzleError, StrategyLoadError
from sudokit.grid import Grid
from sudokit.progress import Tally
from sudokit.reader import Record
from sudokit.shape import Shape
from sudokit.strategy import Result, Status, Strategy
from sudokit.workers import WorkerPool

if TYPE_CHECKING:
    from sudokit.output import RecordFormat, Rendered

__all__ = [
    "KILL_GRACE",
    "Outcome",
    "SolveJob",
    "SolveTask",
    "run_isolated",
    "solve_record",
    "solve_records",
]

INVALID = "invalid"
#: Seconds after the in-process watchdog (``watchdog_seconds``) before a worker is killed from outside.
KILL_GRACE = 1.0

R = TypeVar("R")


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


def solve_record(
    index: int,
    record: Record,
    strategy: Strategy,
    *,
    limit: int = 1,
    keep: int | None = None,
    time_limit: float | None = None,
    box: Shape | None = None,
) -> Outcome:
    """The outcome of input record number ``index``: solved, or ``invalid`` when it does not parse."""
    try:
        grid = record.parse(box)
    except InvalidPuzzleError as err:
        return Outcome(index, record, invalid=str(err))
    return Outcome(index, record, grid, run(strategy, grid, limit=limit, keep=keep, time_limit=time_limit))


def _identity(outcome: Outcome) -> Any:
    return outcome


@dataclass(frozen=True)
class SolveTask(Generic[R]):
    """Solve each ``(index, record)`` item with one engine, in a worker; ``render`` the outcome there.

    ``strategy`` is a registered name (built in each worker with ``options``) or a Strategy object.
    """

    strategy: str | Strategy
    options: Mapping[str, Any] = field(default_factory=dict)
    limit: int = 1
    keep: int | None = None
    time_limit: float | None = None
    box: Shape | None = None
    render: Callable[[Outcome], R] = _identity

    @property
    def name(self) -> str:
        """The engine's name, as its results carry it."""
        if isinstance(self.strategy, str):
            return self.strategy
        return str(getattr(self.strategy, "name", type(self.strategy).__name__))

    @property
    def budget(self) -> float | None:
        """Seconds a puzzle may run before its worker is killed: after the in-process watchdog gave up."""
        return None if self.time_limit is None else watchdog_seconds(self.time_limit) + KILL_GRACE

    def start(self, mark: Callable[[int], None]) -> Callable[[tuple[int, Record]], R]:
        """Build the engine (in the worker) and return the function that solves one item."""
        engine = get_strategy(self.strategy, **self.options)
        limit, keep, time_limit, box, render = self.limit, self.keep, self.time_limit, self.box, self.render

        def solve_one(item: tuple[int, Record]) -> R:
            index, record = item
            return render(solve_record(index, record, engine, limit=limit, keep=keep, time_limit=time_limit, box=box))

        return solve_one

    def failed(self, item: tuple[int, Record], problem: str) -> R:
        """The ``error`` outcome of a puzzle whose worker died or was killed, rendered."""
        index, record = item
        try:
            grid = record.parse(self.box)
        except InvalidPuzzleError as err:
            return self.render(Outcome(index, record, invalid=str(err)))
        if self.time_limit is not None and problem.startswith("still running"):
            problem = f"{problem} (time limit {self.time_limit:g} s)"
        error = " ".join(f"strategy {self.name!r} failed: {problem}".split())
        return self.render(Outcome(index, record, grid, Result(Status.ERROR, grid, self.name, error=error)))

    def load_failed(self, phase: int, problem: str) -> bool:
        """One engine, so nothing to go on with: raise the ``StrategyLoadError`` that stops the run."""
        raise StrategyLoadError(" ".join(f"strategy {self.name!r} failed to load: {problem}".split()))


def solve_records(
    records: Iterable[Record],
    strategy: str | Strategy = "backtrack",
    *,
    limit: int = 1,
    keep: int | None = None,
    time_limit: float | None = None,
    box: Shape | None = None,
    jobs: int = 1,
    render: Callable[[Outcome], R] = _identity,
    options: Mapping[str, Any] | None = None,
) -> Iterator[R]:
    """``render(outcome)`` of every record, in input order, solved in ``jobs`` killable worker processes.

    A record that does not parse is an ``invalid`` outcome; an engine that crashes its process or
    overruns its time limit (the worker is killed ``KILL_GRACE`` s after the in-process watchdog)
    gives an ``error`` outcome, and the batch goes on. The input is read lazily. Raises
    ``StrategyError`` before the first result when the engine cannot be loaded.
    """
    task = SolveTask(strategy, dict(options or {}), limit, keep, normalize_time_limit(time_limit), box, render)
    with WorkerPool(task, jobs) as pool:
        pool.start()
        yield from pool.map(enumerate(records))


@dataclass
class SolveJob:
    """``sudoku solve`` as a batch job: one engine, one record per puzzle in the form ``render`` makes."""

    strategy: str | Strategy
    options: Mapping[str, Any]
    render: RecordFormat
    keep: int | None = None
    time_limit: float | None = None
    box: Shape | None = None
    kind: str = "status"
    tally: Tally = field(default_factory=Tally)

    def __post_init__(self) -> None:
        if self.render.unique:
            self.tally.ok = ("unique",)
        elif self.render.counting:
            self.tally.ok = ("solved", Status.UNSOLVABLE.value)

    @property
    def fmt(self) -> str:
        """The output form: pretty, line, json or csv."""
        return self.render.fmt

    @property
    def failures(self) -> str:
        """What the progress bar calls the puzzles that are not a success."""
        return "not unique" if self.render.unique else "failed"

    @property
    def header(self) -> str | None:
        """The csv header line."""
        return self.render.first_line()

    def task(self) -> SolveTask[Rendered]:
        """Solve and render each record in a worker."""
        limit, render = self.render.limit, self.render
        return SolveTask(self.strategy, dict(self.options), limit, self.keep, self.time_limit, self.box, render)

    def items(self, records: Iterator[Record]) -> Iterator[tuple[int, Record]]:
        """Each record, numbered."""
        return enumerate(records)

    def outputs(self, results: Iterator[Rendered]) -> Iterator[Rendered]:
        """The rendered records, as the workers made them."""
        return results

    def expected(self, record: Record) -> tuple[str, str | None, int | None]:
        """(puzzle, source, line) as this job's record of ``record`` names it."""
        from sudokit.output import record_key

        return record_key(record, self.box)

    def count(self, rendered: Rendered) -> None:
        """Count one record in the summary."""
        self.tally.add(rendered.answer or rendered.status)

    @property
    def done(self) -> int:
        """Records counted."""
        return self.tally.done

    @property
    def failed(self) -> int:
        """Records counted that are not a success."""
        return self.tally.failed

    def summary(self) -> str:
        """The summary line."""
        return self.tally.summary()

    def exit_status(self) -> int:
        """0 all solved (counted; unique with --unique), 1 some not, 2 some invalid input or engine error."""
        return self.tally.exit_status()


def _result(outcome: Outcome) -> Result:
    if outcome.result is None:  # the grid came from a Grid: it parses
        raise InvalidPuzzleError(outcome.invalid or "not a puzzle")
    return outcome.result


def run_isolated(
    strategy: str | Strategy,
    puzzle: Grid,
    *,
    limit: int = 1,
    keep: int | None = None,
    time_limit: float | None = None,
    options: Mapping[str, Any] | None = None,
) -> Result:
    """``run`` in a fresh killable worker process: what ``solve(..., isolate=True)`` does.

    An engine that ends its process, crashes it, or is still running ``KILL_GRACE`` s after the
    in-process watchdog gave up, gives an ``error`` result. Raises ``StrategyError`` when the engine
    cannot be loaded (a name), or its load ends or hangs the worker.
    """
    record = Record(puzzle.to_line(), "<puzzle>")
    task = SolveTask(
        strategy, dict(options or {}), limit, keep, normalize_time_limit(time_limit), puzzle.shape, _result
    )
    with WorkerPool(task, 1) as pool:
        pool.start()
        [result] = pool.map([(0, record)])
    return result
