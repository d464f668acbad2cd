"""``sudoku check`` as a batch: :func:`check_records` in this process, or :class:`CheckJob` on the
batch runtime (:class:`sudokit.runtime.session.Session`), each engine and puzzle in a killable worker
(:class:`CheckTask`). Each record is judged and compared by :mod:`sudokit.features.crosscheck.comparison`
and written by :mod:`sudokit.features.crosscheck.format`.
"""

from __future__ import annotations

import json
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from sudokit.engines.api import (
    FAILED,
    answer_of,
    normalize_time_limit,
    result_of,
    run,
    watchdog_seconds,
)
from sudokit.engines.registry import default_registry
from sudokit.engines.strategy import Result, Status, Strategy
from sudokit.errors import InvalidPuzzleError, StrategyError
from sudokit.features.crosscheck.comparison import (
    AGREE,
    DISAGREE,
    ERROR,
    EXIT_STATUS,
    INVALID,
    UNDECIDED,
    AnswerVerdict,
    CheckOutcome,
    EngineAnswer,
    EngineSpec,
    Verdict,
    compare,
    judge,
    kept_of,
    limit_of,
    load_engine,
    load_engines,
    uniqueness,
)
from sudokit.features.crosscheck.format import CheckFormat
from sudokit.io.reader import Record
from sudokit.model.grid import Grid
from sudokit.model.shape import Shape
from sudokit.runtime.output import Rendered, record_key

__all__ = [
    "IMPORT_TIMEOUT",
    "UNLOADED",
    "CheckItem",
    "CheckJob",
    "CheckSummary",
    "CheckTask",
    "check_records",
]

#: Seconds ``sudoku check`` gives the import of one engine's module, unless ``SUDOKIT_LOAD_TIMEOUT`` says
#: otherwise: OR-Tools' import, the slowest of sudokit's, takes 1-5 s; building an engine (numba's first
#: compile: 15-30 s) still has the full load timeout. A plugin whose import hangs costs a check this long.
#: 30 s, not 15: on a 2-core machine at load 12, OR-Tools' import took over 15 s of wall time.
IMPORT_TIMEOUT = 30.0


def check_records(
    records: Iterable[Record],
    strategies: Iterable[str | Strategy] | str | None = None,
    *,
    count: bool = False,
    limit: int | None = None,
    time_limit: float | None = None,
    box: Shape | None = None,
) -> Iterator[CheckOutcome]:
    """Cross-check each record in turn in this process (engines loaded once); a bad record is ``invalid``.

    The engines are loaded at the call, so an unknown name raises before any record is read.
    ``sudoku check`` runs the same comparison in killable worker processes (:class:`CheckJob`).
    """
    engines = load_engines(strategies)
    limit = limit_of(count, limit)
    time_limit = normalize_time_limit(time_limit)

    def each() -> Iterator[CheckOutcome]:
        for index, record in enumerate(records):
            try:
                grid = record.parse(box)
            except InvalidPuzzleError as err:
                yield CheckOutcome(index, record, invalid=str(err))
                continue
            answers = []
            for engine in engines:
                if engine.strategy is None:
                    answers.append(EngineAnswer(engine.name, None, AnswerVerdict.ERROR, engine.error))
                else:
                    result = run(engine.strategy, grid, limit=limit, keep=kept_of(limit), time_limit=time_limit)
                    answers.append(judge(engine.name, grid, result, time_limit))
            yield CheckOutcome(index, record, compare(grid, answers, limit))

    return each()


@dataclass
class CheckSummary:
    """Totals over a run of cross-checks: puzzles per verdict and each engine's total time."""

    verdicts: dict[Verdict, int] = field(default_factory=lambda: dict.fromkeys(Verdict, 0))
    seconds: dict[str, float] = field(default_factory=dict)
    unique: bool = False  # --unique: puzzles the engines agree are not unique are counted, and exit 1
    not_unique: int = 0

    def add(self, outcome: CheckOutcome) -> None:
        """Count one outcome in."""
        self.verdicts[outcome.verdict] += 1
        if self.unique and uniqueness(outcome) in ("several", "none"):
            self.not_unique += 1
        if outcome.report is not None:
            for answer in outcome.report.engines:
                self.seconds[answer.name] = self.seconds.get(answer.name, 0.0) + answer.elapsed

    @property
    def puzzles(self) -> int:
        """How many records were checked, invalid ones included."""
        return sum(self.verdicts.values())

    @property
    def failed(self) -> int:
        """How many records did not agree (undecided, invalid, error or disagree)."""
        return self.puzzles - self.verdicts[Verdict.AGREE]

    @property
    def exit_status(self) -> int:
        """0 all agree, 1 some engine timed out (or, with ``unique``, some puzzle is not unique), 2 some record
        invalid, 3 some engine disagreed or failed."""
        status = max((EXIT_STATUS[v] for v, k in self.verdicts.items() if k), default=0)
        return max(status, 1) if self.not_unique else status

    def __str__(self) -> str:
        v = self.verdicts
        from sudokit.runtime.progress import counted

        line = (
            f"{counted(self.puzzles, 'puzzle')}: {v[AGREE]:,} agreed, {v[DISAGREE]:,} disagreed, "
            f"{v[ERROR]:,} with engine errors, {v[UNDECIDED]:,} undecided, {v[INVALID]:,} invalid"
        )
        if self.unique:
            line += f"; {self.not_unique} not unique"
        if not self.seconds:
            return line
        times = ", ".join(f"{name} {_duration(seconds)}" for name, seconds in self.seconds.items())
        return f"{line}\ntime per engine: {times}"


def _duration(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


# --- in worker processes: sudoku check ---------------------------------------------------------------

#: A work item of a check: (record number, its grid or None when it is not a puzzle, engine number).
CheckItem = tuple[int, Grid | None, int]
#: A worker's answer for an engine that could not be loaded there: ``(UNLOADED, why)``.
UNLOADED = "unloaded"


@dataclass
class CheckTask:
    """Runs one engine on one puzzle per item, in a worker; a load that killed a worker drops that engine."""

    engines: list[EngineSpec]
    limit: int
    time_limit: float | None = None
    dropped: dict[int, str] = field(default_factory=dict)  # engines whose load ended or hung a worker

    @property
    def budget(self) -> float | None:
        """Seconds an engine may run on a puzzle before its worker is killed."""
        from sudokit.engines.watchdog import KILL_GRACE

        return None if self.time_limit is None else watchdog_seconds(self.time_limit) + KILL_GRACE

    def start(self, mark: Callable[[int], None]) -> Callable[[CheckItem], Any]:
        """Load every engine (in the worker); the function that runs one engine on one puzzle, answering plain data.

        The answer is :func:`sudokit.engines.api.answer_of` of the result, or ``(UNLOADED, why)``; :meth:`finish`
        makes the result of it in the caller's process and checks it there. Engine k's import is phase
        2k, its building phase 2k + 1 (see ``load_timeout_of``).
        """
        loaded: list[Strategy | str] = []
        for k, spec in enumerate(self.engines):
            if k in self.dropped:
                loaded.append(self.dropped[k])
                continue
            mark(2 * k)
            if isinstance(spec.strategy, str):
                with suppress(StrategyError):  # load_engine says why, below
                    default_registry().factory(spec.strategy)
            mark(2 * k + 1)
            engine = load_engine(spec)
            loaded.append(engine.strategy if engine.strategy is not None else str(engine.error))
        limit, keep, time_limit = self.limit, kept_of(self.limit), self.time_limit

        def check_one(item: CheckItem) -> Any:
            _, grid, k = item
            if grid is None:
                return None
            engine = loaded[k]
            if isinstance(engine, str):
                return (UNLOADED, engine)  # why it could not be loaded
            return answer_of(run(engine, grid, limit=limit, keep=keep, time_limit=time_limit))

        return check_one

    def finish(self, item: CheckItem, answer: Any) -> Result | str | None:
        """The result of an item, made here of its worker's plain answer and checked (see ``SolveTask.finish``).

        None for a record that is not a puzzle, a str for an engine that could not be loaded.
        """
        _, grid, k = item
        if grid is None:
            return None
        if type(answer) is tuple and len(answer) == 2 and type(answer[1]) is str:
            if answer[0] == UNLOADED:
                return answer[1]
            if answer[0] == FAILED:
                return self._failed(item, answer[1])
        return result_of(answer, grid, self.engines[k].label, limit=self.limit, keep=kept_of(self.limit))

    def failed(self, item: CheckItem, problem: str) -> Any:
        """What a worker's failure on an item is, as plain data: :meth:`finish` makes its ``error`` result."""
        return (FAILED, problem)

    def _failed(self, item: CheckItem, problem: str) -> Result | None:
        """The ``error`` result of an engine whose worker died or was killed on this puzzle."""
        _, grid, k = item
        if grid is None:
            return None
        label = self.engines[k].label
        if self.time_limit is not None and problem.startswith("still running"):
            problem = f"{problem} (time limit {self.time_limit:g} s)"
        return Result(Status.ERROR, grid, label, error=" ".join(f"strategy {label!r} failed: {problem}".split()))

    def load_failed(self, phase: int, problem: str) -> bool:
        """Drop the engine whose load killed or hung a worker, and go on with the others."""
        label = self.engines[phase // 2].label
        self.dropped[phase // 2] = " ".join(f"strategy {label!r} failed to load: {problem}".split())
        return True

    def load_timeout_of(self, phase: int, default: float) -> float:
        """An import (even phase) gets ``IMPORT_TIMEOUT`` at most, unless ``SUDOKIT_LOAD_TIMEOUT`` is set."""
        if phase % 2 or os.environ.get("SUDOKIT_LOAD_TIMEOUT"):
            return default
        return min(default, IMPORT_TIMEOUT)


@dataclass
class CheckJob:
    """``sudoku check`` as a batch job: every engine on every puzzle, each pair in a killable worker.

    Records are parsed here; each puzzle becomes one work item per engine, and the answers come back
    in order to be judged and compared here (:func:`judge`, :func:`compare`).
    """

    engines: list[EngineSpec]
    limit: int
    time_limit: float | None = None
    box: Shape | None = None
    render: CheckFormat = field(default_factory=CheckFormat)
    kind: str = "verdict"
    failures: str = "not agreed"
    summary_: CheckSummary = field(default_factory=CheckSummary)
    _pending: deque[tuple[int, Record, Grid | None, str | None]] = field(default_factory=deque)
    _told: set[str] = field(default_factory=set)  # why engines did not load, said once on stderr

    def __post_init__(self) -> None:
        self.summary_.unique = self.render.unique

    @property
    def fmt(self) -> str:
        """The output form: pretty, line, json or csv."""
        return self.render.fmt

    @property
    def header(self) -> str | None:
        """The csv header line (None for the other forms)."""
        return self.render.csv_header()

    def task(self) -> CheckTask:
        """What the workers run."""
        return CheckTask(self.engines, self.limit, self.time_limit)

    def items(self, records: Iterator[Record]) -> Iterator[CheckItem]:
        """One item per engine for a puzzle, one (empty) item for a record that is not a puzzle."""
        for index, record in enumerate(records):
            try:
                grid = record.parse(self.box)
            except InvalidPuzzleError as err:
                self._pending.append((index, record, None, str(err)))
                yield index, None, -1
                continue
            self._pending.append((index, record, grid, None))
            for k in range(len(self.engines)):
                yield index, grid, k

    def outputs(self, results: Iterator[Result | str | None]) -> Iterator[Rendered]:
        """Each record's outcome, judged and compared, rendered."""
        while True:
            try:
                first = next(results)
            except StopIteration:
                return
            index, record, grid, invalid = self._pending.popleft()
            if grid is None:
                yield self._rendered(CheckOutcome(index, record, invalid=invalid))
                continue
            answers = []
            for k, spec in enumerate(self.engines):
                result = first if k == 0 else next(results)
                if result is None or isinstance(result, str):
                    answers.append(EngineAnswer(spec.label, None, AnswerVerdict.ERROR, result))
                else:
                    answers.append(judge(spec.label, grid, result, self.time_limit))
            yield self._rendered(CheckOutcome(index, record, compare(grid, answers, self.limit)))

    def _rendered(self, outcome: CheckOutcome) -> Rendered:
        messages: list[str] = []
        if outcome.report is None:
            messages.append(f"error: {outcome.record.locate(outcome.invalid or '')}")
        elif outcome.verdict is not Verdict.AGREE:
            not_loaded = {a.problem for a in outcome.report.engines if a.result is None}
            left_out = {a.problem for a in outcome.report.engines if a.verdict is AnswerVerdict.SKIPPED}
            for problem in outcome.report.problems:
                if problem in left_out:  # no fault: the record says it was skipped, as when all agree
                    continue
                if problem in not_loaded:  # the same for every puzzle: said with the first one only
                    if problem in self._told:
                        continue
                    self._told.add(problem)
                messages.append(f"{outcome.verdict}: {outcome.record.locate(f'{outcome.puzzle_text}: {problem}')}")
        note = None
        if self.render.stats and self.fmt in ("line", "csv"):
            note = "\n".join(self.render.stats_lines(outcome)) or None
        self.summary_.add(outcome)
        return Rendered(
            outcome.index,
            outcome.verdict.value,
            self.render.text(outcome),
            tuple(messages),
            note=note,
            answer=outcome.verdict.value,
        )

    def expected(self, record: Record) -> tuple[str, str | None, int | None]:
        """(puzzle, source, line) as this job's record of ``record`` names it."""
        return record_key(record, self.box)

    def fits(self, text: str, record: Record, key: tuple[str, str | None, int | None]) -> str | None:
        """Why ``text``, read back for ``--resume``, is not the record this check writes for ``record`` (or None).

        The engines it names must be this run's, in order (``--strategies``), and a json record's
        limit this run's (``--count``, ``--limit``).
        """
        labels = [spec.label for spec in self.engines]
        names: list[Any]  # what the record says: str, or anything a json record holds
        if self.fmt == "line":
            answer = text[len(key[0]) + 1 :]
            if answer == Verdict.INVALID.value:
                return None
            _, _, tail = answer.partition(" ")
            names = [part.partition("=")[0] for part in tail.split(" ")] if tail else []
        elif self.fmt == "json":
            data = json.loads(text)
            if data.get("verdict") == Verdict.INVALID.value:
                return None
            if data.get("limit") != self.limit:
                return f"it was checked up to {data.get('limit')!r:.20} solutions, not {self.limit} (--count, --limit)"
            if ("uniqueness" in data) != self.render.unique:
                return "it was written " + ("without" if self.render.unique else "with") + " --unique"
            engines = data.get("engines")
            names = [e.get("strategy") for e in engines if isinstance(e, dict)] if isinstance(engines, list) else []
        elif self.fmt == "csv":
            import csv

            rows = list(csv.reader(text.splitlines(keepends=True)))
            if len(rows) != 1 or len(rows[0]) != len(self.render.fields()):
                return f"it is not a row of the {len(self.render.fields())} columns of this run (--unique)"
            row = dict(zip(self.render.fields(), rows[0], strict=True))
            if row["verdict"] == Verdict.INVALID.value:
                return None
            if row["limit"] != str(self.limit):
                return f"it was checked up to {row['limit']!r:.20} solutions, not {self.limit} (--count, --limit)"
            names = [part.partition("=")[0] for part in row["engines"].split(" ")] if row["engines"] else []
        else:
            return None
        if names != labels:
            shown = ", ".join(str(n)[:30] for n in names) or "none"
            return f"it compares {shown}, not {', '.join(labels)} (--strategies)"
        return None

    def count(self, rendered: Rendered) -> None:
        """Counted already, as each outcome was made."""

    @property
    def done(self) -> int:
        """Records checked."""
        return self.summary_.puzzles

    @property
    def failed(self) -> int:
        """Records checked that did not agree."""
        return self.summary_.failed

    def summary(self) -> str:
        """The summary lines: puzzles per verdict, time per engine."""
        return str(self.summary_)

    def exit_status(self) -> int:
        """0 all agree, 1 some undecided, 2 some invalid, 3 some engine disagreed or failed."""
        return self.summary_.exit_status
