"""Solving a stream of records: one outcome per input puzzle, failed ones included, in input order.

The engine runs in killable worker processes (:mod:`sudokit.engines.workers`): a puzzle whose engine crashes
its process, or overruns its time limit so far that it has to be killed, gets an ``error`` outcome
and the batch goes on.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from sudokit.engines.api import (
    FAILED,
    Answer,
    answer_of,
    get_strategy,
    normalize_time_limit,
    result_of,
    run,
    watchdog_seconds,
)
from sudokit.engines.strategy import Result, Status, Strategy, offers_many
from sudokit.engines.watchdog import KILL_GRACE
from sudokit.engines.workers import WorkerPool, one_line
from sudokit.errors import InvalidPuzzleError, StrategyLoadError
from sudokit.io.reader import Record
from sudokit.model.grid import Grid
from sudokit.model.shape import Shape
from sudokit.runtime.progress import Tally
from sudokit.runtime.records import Outcome

if TYPE_CHECKING:
    from sudokit.runtime.output import RecordFormat, Rendered

__all__ = [
    "KILL_GRACE",
    "CompareJob",
    "Outcome",
    "SolveJob",
    "SolveTask",
    "solve_record",
    "solve_records",
]


R = TypeVar("R")


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


@dataclass(frozen=True, eq=False, repr=False)  # no generated methods it does not use: start-up
class SolveTask(Generic[R]):
    """Solve each ``(index, record)`` item with one engine, in a worker; check and ``render`` the outcome in the caller.

    The worker sends its answer back as plain data (:meth:`start`), and :meth:`finish` makes, checks
    and renders the outcome in the caller's process: nothing the engine does in its own process can
    change the check, or print anything but what was checked.

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

    def preload(self) -> None:
        """Build the engine here, before workers are forked, when it is sudokit's own and asks for it.

        The worker pool calls it when it forks more than one worker: each then inherits the load (numba's
        import and compiled kernel, about a second of CPU) instead of paying it. An engine object, or a
        plugin's name, is never built here (:meth:`sudokit.engines.registry.Registry.warms_before_fork`).
        """
        if isinstance(self.strategy, str):
            from sudokit.engines.registry import default_registry

            if default_registry().warms_before_fork(self.strategy):
                get_strategy(self.strategy, **self.options)

    def start(self, mark: Callable[[int], None]) -> Callable[[tuple[int, Any]], Any]:
        """Build the engine (in the worker) and return the function that answers one item, as plain data.

        An item is ``(index, record)``, or, for an engine with ``solve_many``, ``(index, block)``
        with a :class:`sudokit.runtime.fastpath.Block` or a list of plain records. Its answer is plain data
        only (:data:`sudokit.engines.api.Answer`; None for a record that does not parse): :meth:`finish`
        makes the outcome of it in the caller's process, checks it there and renders it. The
        function's ``info`` says whether the engine offers ``solve_many`` (the pool reports it to
        the caller).
        """
        engine = get_strategy(self.strategy, **self.options)
        limit, keep, time_limit, box = self.limit, self.keep, self.time_limit, self.box
        refusal = getattr(self.render, "refusal", None)

        def answer_one(record: Record) -> Answer | None:
            try:
                grid = record.parse(box)
            except InvalidPuzzleError:
                return None  # the caller parses it too, and says why
            if refusal is not None and refusal(grid) is not None:
                return None  # the output form cannot hold it: not solved (the caller says why)
            return answer_of(run(engine, grid, limit=limit, keep=keep, time_limit=time_limit))

        def answer_item(item: tuple[int, Any]) -> Any:
            what = item[1]
            if type(what) is Record:
                return answer_one(what)
            from sudokit.runtime.fastpath import Block, answer_block

            entries: Any
            if type(what) is Block:
                entries, records = what, None  # read as one array when its lines are alike
            else:  # a list of plain records (the library)
                entries, records = [(r.text, r.line, r.note) for r in what], list(what)
            return answer_block(
                entries,
                records,
                engine,
                what.source if records is None else "",
                box,
                limit,
                keep,
                time_limit,
                self.render,
                answer_one,
                mark,
            )

        answer_item.info = {"many": offers_many(engine)}  # type: ignore[attr-defined]
        return answer_item

    def finish(self, item: tuple[int, Any], answer: Any) -> Any:
        """The rendered outcome of an item (each of a block's), made here of its worker's plain answer and checked.

        The puzzle is this process's own parse of the record, the engine's name the one asked for,
        and the result is made of the answer by :func:`sudokit.engines.api.result_of` (plain data or an
        error), so that nothing the engine's process did can reach the output unchecked.
        """
        index, record = item
        if type(answer) is tuple and len(answer) == 2 and answer[0] == FAILED and type(answer[1]) is str:
            return self._failed(item, answer[1])
        if type(record) is not Record:
            from sudokit.runtime.fastpath import finish_block

            return finish_block(index, record, answer, self, self.finish_one)
        return self.finish_one(index, record, answer)

    def _grid(self, record: Record) -> Grid | str:
        """The record's puzzle as this process reads it, or why it cannot be read (one line)."""
        try:
            grid = record.parse(self.box)
        except InvalidPuzzleError as err:
            return str(err)
        except Exception as err:  # a bug of ours in reading it: this record fails, the batch goes on
            return one_line(f"cannot be read: internal error: {type(err).__name__}: {err}")
        refusal = getattr(self.render, "refusal", None)  # the output form cannot hold it: not solved
        refused = refusal(grid) if refusal is not None else None
        return grid if refused is None else refused

    def finish_one(self, index: int, record: Record, answer: Any) -> Any:
        """The rendered outcome of one record from its worker's plain answer (see :meth:`finish`)."""
        grid = self._grid(record)
        if isinstance(grid, str):
            return self.render(Outcome(index, record, invalid=grid))
        result = result_of(answer, grid, self.name, limit=self.limit, keep=self.keep)
        return self.render(Outcome(index, record, grid, result))

    def budget_of(self, item: tuple[int, Any]) -> float | None:
        """Seconds an item may run before its worker is killed: a block has its puzzles' time together.

        For an executor that cannot tell a block's parts apart; the worker pool takes :meth:`part_budget`.
        """
        budget = self.budget
        what = item[1]
        if budget is None or type(what) is Record:
            return budget
        from sudokit.runtime.fastpath import Block

        puzzles = what.lines if type(what) is Block else len(what)
        return puzzles * watchdog_seconds(self.time_limit) + KILL_GRACE  # type: ignore[arg-type]

    def part_budget(self, item: tuple[int, Any]) -> float | None:
        """Seconds each part of an item may run before its worker is killed: one puzzle's budget.

        A block's worker marks each part it starts (a ``solve_many`` call for a slice of its puzzles, or
        one puzzle alone), so a block never holds the batch longer than one puzzle may; one that
        overruns is split and its puzzles run one by one (:meth:`split`).
        """
        return self.budget

    def split(self, item: tuple[int, Any]) -> list[tuple[int, Record]] | None:
        """A block's puzzles as items of their own, run one by one once its worker was lost on it; else None."""
        index, what = item
        if type(what) is Record:
            return None
        from sudokit.runtime.fastpath import Block

        records = what.records() if type(what) is Block else list(what)
        return [(index + i, record) for i, record in enumerate(records)]

    def join(self, item: tuple[int, Any], results: list[Any]) -> Any:
        """The records of a block whose puzzles were run one by one (:meth:`split`), as one block's."""
        from sudokit.runtime.fastpath import Many

        return Many(item[0], list(results))

    def failed(self, item: tuple[int, Any], problem: str) -> Any:
        """What a worker's failure on an item is, as plain data: :meth:`finish` makes its ``error`` outcomes."""
        return (FAILED, problem)

    def _failed(self, item: tuple[int, Any], problem: str) -> Any:
        """The ``error`` outcome of a puzzle whose worker died or was killed, rendered (each of a block's)."""
        index, record = item
        if type(record) is not Record:
            from sudokit.runtime.fastpath import Block, Many

            records = record.records() if type(record) is Block else record
            how = f"{problem} (in a batch of {len(records):,} puzzle{'' if len(records) == 1 else 's'})"
            return Many(index, [self._failed((index + i, r), how) for i, r in enumerate(records)])
        grid = self._grid(record)
        if isinstance(grid, str):
            return self.render(Outcome(index, record, invalid=grid))
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

    Each answer comes back from its worker as plain data and is checked, and ``render`` called, in
    this process (see :class:`SolveTask`). ``records`` is an iterable of
    :class:`~sudokit.io.reader.Record` (as :func:`sudokit.io.reader.read_file` gives them): a ``TypeError``
    for a text or another object in their place, raised at once for ``records`` itself, and in its
    turn for an item, after the outcomes of the records before it.
    A record that does not parse is an ``invalid`` outcome; an engine that crashes its process or
    overruns its time limit (the worker is killed ``KILL_GRACE`` s after the in-process watchdog)
    gives an ``error`` outcome, and the batch goes on. The input is read lazily. Raises
    ``StrategyError`` before the first result when the engine cannot be loaded. With an engine that
    offers ``solve_many`` (and one solution kept: ``limit`` 1 or ``keep`` 1), runs of plain one-line
    classic puzzles are solved by one call each (:mod:`sudokit.runtime.fastpath`), with the same outcomes.
    """
    if isinstance(records, str | bytes | Record) or not isinstance(records, Iterable):
        raise TypeError(f"records must be an iterable of sudokit Record objects, not {records!r:.60}")
    task = SolveTask(strategy, dict(options or {}), limit, keep, normalize_time_limit(time_limit), box, render)
    return _solve_records(task, records, jobs, box, limit == 1 or keep == 1)


def _records_only(records: Iterable[Any]) -> Iterator[Record]:
    """``records``, each checked to be a Record (a worker takes anything else for a block of them)."""
    for k, record in enumerate(records):
        if type(record) is not Record:
            shown = f"{type(record).__name__} {record!r:.40}"
            raise TypeError(f"records must be sudokit Record objects, but the one at index {k} is {shown}")
        yield record


def _solve_records(
    task: SolveTask[R], records: Iterable[Record], jobs: int, box: Shape | None, one: bool
) -> Iterator[R]:
    with WorkerPool(task, jobs) as pool:
        pool.start()
        items: Iterable[tuple[int, Any]] = enumerate(_records_only(records))
        from sudokit.runtime.fastpath import Many, enabled, group_records

        if (pool.info or {}).get("many") and one and enabled():
            items = group_records(items, box)  # runs of plain puzzles: one solve_many call each
            for result in pool.map(items):
                if type(result) is Many:
                    yield from result.parts
                else:
                    yield result
            return
        yield from pool.map(items)


@dataclass(eq=False, repr=False)  # no generated methods it does not use: start-up
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
    _parsed: tuple[Record, Grid | None] | None = field(default=None, init=False)  #: the last record expected()

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

    @property
    def blocks(self) -> bool:
        """True when runs of plain puzzles may go to the workers as blocks of text (:mod:`sudokit.runtime.fastpath`).

        They are solved by one ``solve_many`` call each when the engine offers it, and rendered there
        byte for byte as one at a time: line, json and csv records (json listing only the first
        solution), and ``--stats``. The session reads such a job's inputs with
        :func:`sudokit.runtime.fastpath.read_items`. ``SUDOKIT_FASTPATH=0`` in the environment turns it off
        (each puzzle then goes alone, as with an engine without ``solve_many``).
        """
        from sudokit.runtime.fastpath import enabled, serves

        return enabled() and serves(self.render, self.keep, self.render.limit)

    def items(self, records: Iterator[Any]) -> Iterator[tuple[int, Any]]:
        """Each record (or block of records), numbered by its first record.

        A block (:class:`sudokit.runtime.fastpath.Block`) counts as many records as it has lines, a list of
        records as its length. Told apart without importing :mod:`sudokit.runtime.fastpath`, which a lone
        puzzle's run never needs (start-up).
        """
        index = 0
        for item in records:
            yield index, item
            index += 1 if type(item) is Record else len(item) if type(item) is list else item.lines

    def count_many(self, answers: Mapping[str, int]) -> None:
        """Count the records of a block's runs of text in the summary."""
        self.tally.by_answer.update(answers)

    def outputs(self, results: Iterator[Rendered]) -> Iterator[Rendered]:
        """The rendered records, as the workers made them."""
        return results

    def expected(self, record: Record) -> tuple[str, str | None, int | None]:
        """(puzzle, source, line) as this job's record of ``record`` names it."""
        from sudokit.runtime.output import parsed_key

        key, grid = parsed_key(record, self.box)
        self._parsed = (record, grid)  # for fits(), called next on the same record: parsed once
        return key

    def fits(self, text: str, record: Record, key: tuple[str, str | None, int | None]) -> str | None:
        """Why ``text``, read back for ``--resume``, is not the record this job writes for ``record`` (None: it is)."""
        from sudokit.runtime.output import parsed_key

        engine, known = None, None
        if isinstance(self.strategy, str):
            from sudokit.engines.registry import default_registry

            # A record names its engine as the engine names itself, which a plugin's registered name may not be.
            engine, known = self.strategy, default_registry().names()
        parsed = self._parsed
        grid = parsed[1] if parsed is not None and parsed[0] is record else parsed_key(record, self.box)[1]
        return self.render.fits(text, record, key, grid, box=self.box, strategy=engine, engines=known)

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


@dataclass
class CompareJob(SolveJob):
    """``sudoku solve`` over tables with expected solutions: records say how they compare, the summary counts it.

    The exit status is 1 when some record differs or has several solutions (2 if some expected
    solution is not a grid), unless the puzzles' own status is worse.
    """

    compared: Counter[str] = field(default_factory=Counter)

    def count(self, rendered: Any) -> None:
        """Count one record, and its comparison."""
        super().count(rendered)
        if rendered.compared:
            self.compared[rendered.compared] += 1

    def summary(self) -> str:
        """The summary line, then how the answers compared with the expected solutions."""
        c = self.compared
        parts = [f"{c['same']:,} same", f"{c['differs']:,} differ"]
        parts += [f"{c[k]:,} {k}" for k in ("several", "invalid") if c[k]]
        return f"{super().summary()}; expected solutions: {', '.join(parts)}"

    def exit_status(self) -> int:
        """The puzzles' status, raised to 1 by a reported comparison, to 2 by an expected solution that is no grid."""
        mine = 2 if self.compared["invalid"] else 1 if self.compared["differs"] or self.compared["several"] else 0
        return max(super().exit_status(), mine)
