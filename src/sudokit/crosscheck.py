"""The cross-check: run several engines on the same puzzle, verify every answer, and compare them.

Every engine runs through :func:`sudokit.api.run` (a crash becomes an ``error`` result) and every
grid it returns is checked by the independent :func:`sudokit.verify.solution_problem`. Engines
agree when each answer is valid and the decided answers fit one number of solutions:

* each engine is asked for up to ``limit`` solutions (2 by default, which decides uniqueness; with
  ``count=True`` the default is ``DEFAULT_COUNT_LIMIT``), so an answer is an exact count or, when
  the limit was reached, "at least" a count; exact counts must be equal and no "at least" may
  exceed them;
* different valid grids are fine (a puzzle may have several solutions), but the distinct valid
  grids returned by all engines together are proof: an engine whose exact count is below their
  number is wrong, and is named;
* an engine that timed out is undecided: it neither agrees nor disagrees (its grids still have to
  be valid).

The verdict of a puzzle is ``agree``, ``undecided`` (some engine timed out, none failed),
``error`` (an engine failed to load or crashed) or ``disagree`` (an invalid grid, or answers that
do not fit together); ``invalid`` is the verdict of an input record that is not a puzzle.
"""

from __future__ import annotations

import json
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import suppress
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from sudokit.api import (
    DEFAULT_COUNT_LIMIT,
    PuzzleLike,
    answer_of,
    as_grid,
    get_strategy,
    normalize_time_limit,
    result_of,
    run,
    watchdog_seconds,
)
from sudokit.batch import FAILED
from sudokit.errors import InvalidPuzzleError, StrategyError, UnknownStrategyError
from sudokit.grid import Grid
from sudokit.output import CHECK_CSV_FIELDS, Rendered, counters_text, csv_row, heading, record_key
from sudokit.reader import Record
from sudokit.registry import default_registry
from sudokit.shape import Shape
from sudokit.strategy import Result, Status, Strategy
from sudokit.verify import solution_problem

__all__ = [
    "EXIT_STATUS",
    "AnswerVerdict",
    "CheckFormat",
    "CheckJob",
    "CheckOutcome",
    "CheckSummary",
    "CheckTask",
    "CrossCheckReport",
    "Engine",
    "EngineAnswer",
    "EngineSpec",
    "Verdict",
    "check_records",
    "cross_check",
    "engine_specs",
    "load_engines",
    "uniqueness",
]

#: The limit each engine is asked with unless told: 2 decides whether the solution is unique.
UNIQUENESS_LIMIT = 2
#: The most solutions of one engine kept for the comparison (the count goes on to the limit).
KEEP_AT_MOST = 100
#: Seconds ``sudoku check`` gives the import of one engine's module, unless ``SUDOKIT_LOAD_TIMEOUT`` says
#: otherwise: OR-Tools' import, the slowest of sudokit's, takes 1-5 s; building an engine (numba's first
#: compile: 15-30 s) still has the full load timeout. A plugin whose import hangs costs a check this long.
IMPORT_TIMEOUT = 15.0


class Verdict(StrEnum):
    """The verdict of a puzzle's cross-check, from best to worst."""

    AGREE = "agree"  #: every engine answered, every answer is valid, all fit one count
    UNDECIDED = "undecided"  #: some engine timed out, none failed or disagreed
    INVALID = "invalid"  #: the input record is not a puzzle
    ERROR = "error"  #: some engine failed to load or crashed
    DISAGREE = "disagree"  #: an invalid grid, or answers that do not fit together


class AnswerVerdict(StrEnum):
    """What the cross-check made of one engine's answer."""

    OK = "ok"  #: valid, and fits the others
    UNDECIDED = "undecided"  #: timed out
    ERROR = "error"  #: failed to load, or crashed
    INVALID = "invalid"  #: a grid that is not a solution, or a self-contradicting result
    DISAGREE = "disagree"  #: valid grids, but a count that does not fit the others
    SKIPPED = "skipped"  #: not run: the puzzle has a rule the engine does not take


#: The exit status of ``sudoku check`` for each verdict (the worst one wins).
EXIT_STATUS = {Verdict.AGREE: 0, Verdict.UNDECIDED: 1, Verdict.INVALID: 2, Verdict.ERROR: 3, Verdict.DISAGREE: 3}
_GRAVITY = tuple(Verdict)
AGREE, UNDECIDED, INVALID, ERROR, DISAGREE = _GRAVITY
OK, BAD_GRID = AnswerVerdict.OK, AnswerVerdict.INVALID


@dataclass(frozen=True, slots=True)
class EngineSpec:
    """One engine to compare, not loaded yet: its label, its name (or Strategy object) and its options."""

    label: str
    strategy: str | Strategy
    options: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Engine:
    """One engine to compare, under a unique label: the strategy, or why it could not be loaded."""

    name: str
    strategy: Strategy | None
    error: str | None = None


@dataclass(frozen=True, slots=True)
class EngineAnswer:
    """One engine's answer to one puzzle and what the cross-check made of it.

    ``verdict`` says whether the answer is valid and fits the others' (:class:`AnswerVerdict`);
    ``problem`` says why not. ``elapsed`` is the wall time of the call in seconds.
    """

    name: str
    result: Result | None
    verdict: AnswerVerdict
    problem: str | None = None
    elapsed: float = 0.0

    @property
    def status(self) -> str:
        """The engine's status (``solved``, ``unsolvable``, ``timeout``, ``error``), or ``not loaded``."""
        return "not loaded" if self.result is None else self.result.status.value

    @property
    def count_text(self) -> str:
        """``1``, ``0``, ``2+`` (the limit was reached or time ran out after 2), ``?`` or ``-``."""
        result = self.result
        if result is None or result.status in (Status.ERROR, Status.UNSUPPORTED):
            return "-"
        if result.status is Status.UNSOLVABLE:
            return "0"
        if result.status is Status.TIMEOUT:
            return f"{result.count}+" if result.count else "?"
        return f"{result.count}" if result.exact else f"{result.count}+"

    def to_dict(self) -> dict[str, object]:
        """The JSON form: strategy, verdict, status, count, exact, solution, solutions, elapsed_ms, stats, problem."""
        result = self.result
        return {
            "strategy": self.name,
            "verdict": self.verdict.value,
            "status": self.status,
            "count": None if result is None or result.status in (Status.ERROR, Status.UNSUPPORTED) else result.count,
            "exact": _is_exact(result),
            "solution": result.solution.to_line() if result is not None and result.solution else None,
            "solutions": [] if result is None else [grid.to_line() for grid in result.solutions],
            "elapsed_ms": round(self.elapsed * 1000, 3),
            "stats": {} if result is None else dict(result.stats),
            "problem": self.problem,
        }


@dataclass(frozen=True, slots=True)
class CrossCheckReport:
    """The cross-check of one puzzle: every engine's answer, the verdict and the problems found.

    ``count`` is the number of solutions the engines agree on (exact when ``exact``, else "at
    least", as when the limit was reached); None when no engine decided or they disagree.
    """

    puzzle: Grid
    engines: tuple[EngineAnswer, ...]
    verdict: Verdict
    problems: tuple[str, ...]
    limit: int
    count: int | None = None
    exact: bool = False

    @property
    def agree(self) -> bool:
        """True when every engine answered, every answer is valid and all fit one count."""
        return self.verdict is Verdict.AGREE

    @property
    def results(self) -> dict[str, Result | None]:
        """Each engine's result by name (None for an engine that could not be loaded)."""
        return {answer.name: answer.result for answer in self.engines}

    def answer(self, name: str) -> EngineAnswer:
        """The answer of the engine ``name``."""
        for answer in self.engines:
            if answer.name == name:
                return answer
        raise KeyError(name)

    @property
    def count_text(self) -> str:
        """The agreed count as ``1``, ``0`` or ``2+``; ``?`` when there is none."""
        if self.count is None:
            return "?"
        return f"{self.count}" if self.exact else f"{self.count}+"

    def to_dict(self) -> dict[str, object]:
        """The JSON form: puzzle, verdict, agree, count, exact, limit, engines, problems (and variant, see below).

        A variant puzzle's form also has ``variant``, the whole puzzle in sudokit's JSON form
        (``puzzle`` is its givens in the line form).
        """
        data: dict[str, object] = {
            "puzzle": self.puzzle.to_line(),
            "verdict": self.verdict.value,
            "agree": self.agree,
            "count": self.count,
            "exact": self.exact if self.count is not None else None,
            "limit": self.limit,
            "engines": [answer.to_dict() for answer in self.engines],
            "problems": list(self.problems),
        }
        if not self.puzzle.is_classic:
            from sudokit.variants import to_dict  # here: classic reports never need it

            data["variant"] = to_dict(self.puzzle)
        return data


def engine_specs(
    strategies: Iterable[str | Strategy] | str | None = None, options: Mapping[str, Mapping[str, object]] | None = None
) -> list[EngineSpec]:
    """The engines to compare, without loading them: names (or a comma-separated string) or Strategy objects.

    None means every installed engine whose extras are installed too. A name given twice counts once;
    ``options`` maps an engine name to its options. Raises ``UnknownStrategyError`` for a name that is
    not installed (naming the ones that are) and ``StrategyError`` for an empty choice.
    """
    registry = default_registry()
    if strategies is None:
        strategies = registry.ready_names()
    elif isinstance(strategies, str):
        strategies = [name.strip() for name in strategies.split(",") if name.strip()]
    installed = set(registry.names())
    specs: list[EngineSpec] = []
    labels: set[str] = set()
    for strategy in strategies:
        if isinstance(strategy, str):
            if strategy not in installed:
                known = ", ".join(sorted(installed)) or "none"
                raise UnknownStrategyError(f"unknown strategy {strategy!r} (installed: {known})")
            if any(spec.strategy == strategy for spec in specs):
                continue
            name = strategy
        else:
            if any(spec.strategy is strategy for spec in specs):
                continue  # the same engine object twice
            name = str(getattr(strategy, "name", type(strategy).__name__))
        specs.append(EngineSpec(_label(name, labels), strategy, dict((options or {}).get(name, {}))))
    unknown = (
        set(options or {}) - {spec.label for spec in specs} - {s.strategy for s in specs if isinstance(s.strategy, str)}
    )
    if unknown:
        raise StrategyError(
            f"options for {', '.join(sorted(map(repr, unknown)))}, which is not among the engines compared"
        )
    if not specs:
        raise StrategyError("no engines to compare")
    return specs


def load_engines(
    strategies: Iterable[str | Strategy] | str | None = None, options: Mapping[str, Mapping[str, object]] | None = None
) -> list[Engine]:
    """The engines to compare, loaded in this process (see :func:`engine_specs` for the arguments).

    An engine that fails to load becomes an ``Engine`` with its error, to be reported per puzzle.
    """
    return [_load(spec) for spec in engine_specs(strategies, options)]


def _load(spec: EngineSpec) -> Engine:
    try:
        return Engine(spec.label, get_strategy(spec.strategy, **spec.options))
    except UnknownStrategyError:
        raise
    except StrategyError as err:
        return Engine(spec.label, None, str(err))


def _label(name: str, labels: set[str]) -> str:
    """``name``, or ``name#2``, ``name#3``... for a second engine of that name (e.g. other options)."""
    label, k = name, 1
    while label in labels:
        k += 1
        label = f"{name}#{k}"
    labels.add(label)
    return label


def cross_check(
    puzzle: PuzzleLike,
    strategies: Iterable[str | Strategy] | str | None = None,
    *,
    count: bool = False,
    limit: int | None = None,
    time_limit: float | None = None,
    box: Shape | str | None = None,
) -> CrossCheckReport:
    """Run every engine in ``strategies`` (None: all installed) on ``puzzle`` and compare the answers.

    Each engine is asked for up to ``limit`` solutions: by default 2, which decides uniqueness, or
    ``DEFAULT_COUNT_LIMIT`` with ``count=True`` to compare exact counts. ``time_limit`` is in
    seconds per engine. The engines run in this process. Raises ``InvalidPuzzleError`` for a bad
    puzzle and ``UnknownStrategyError`` for an unknown name; an engine that fails to load or crashes
    is an ``error`` entry::

        >>> report = cross_check("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        ...                      ["backtrack"])
        >>> report.verdict, report.count, report.exact
        (<Verdict.AGREE: 'agree'>, 1, True)
    """
    grid = as_grid(puzzle, box)
    limit = _limit(count, limit)
    time_limit = normalize_time_limit(time_limit)
    answers = []
    for engine in load_engines(strategies):
        if engine.strategy is None:
            answers.append(EngineAnswer(engine.name, None, AnswerVerdict.ERROR, engine.error))
            continue
        result = run(engine.strategy, grid, limit=limit, keep=_keep(limit), time_limit=time_limit)
        answers.append(judge(engine.name, grid, result, time_limit))
    return compare(grid, answers, limit)


def _limit(count: bool, limit: int | None) -> int:
    if limit is None:
        return DEFAULT_COUNT_LIMIT if count else UNIQUENESS_LIMIT
    if isinstance(limit, bool) or not isinstance(limit, int):
        raise TypeError(f"limit must be a whole number, not {limit!r}")
    if limit < 1:
        raise ValueError(f"limit must be at least 1, not {limit}")
    return limit


def _keep(limit: int) -> int:
    return min(limit, KEEP_AT_MOST)


def judge(name: str, puzzle: Grid, result: Result, time_limit: float | None) -> EngineAnswer:
    """One engine's answer on its own: failed, self-contradicting, an invalid grid, timed out, or ok."""

    def answer(verdict: AnswerVerdict, problem: str | None = None) -> EngineAnswer:
        return EngineAnswer(name, result, verdict, problem, result.elapsed)

    if result.status is Status.UNSUPPORTED:
        detail = (result.error or "").removeprefix(f"strategy {result.strategy!r} ")
        return answer(AnswerVerdict.SKIPPED, f"engine {name!r} {detail}")
    if result.status is Status.ERROR:
        detail = (result.error or "no reason given").removeprefix(f"strategy {result.strategy!r} failed: ")
        if detail.startswith("returned ") and not detail.startswith("returned after "):
            # ``run`` found the answer inconsistent (``result_problem``'s words all begin so): a wrong
            # answer, not a crash.
            return answer(AnswerVerdict.INVALID, f"engine {name!r} {detail}")
        return answer(AnswerVerdict.ERROR, f"engine {name!r} failed: {detail}")
    if result.status is Status.SOLVED and not result.solutions:
        return answer(AnswerVerdict.INVALID, f"engine {name!r} says solved but returned no grid to check")
    if result.status is Status.UNSOLVABLE and (result.solutions or result.count):
        return answer(AnswerVerdict.INVALID, f"engine {name!r} says unsolvable but reports {_solutions(result.count)}")
    for k, grid in enumerate(result.solutions, 1):
        problem = solution_problem(puzzle, grid)
        if problem:
            which = f" (solution {k} of {len(result.solutions)})" if len(result.solutions) > 1 else ""
            return answer(AnswerVerdict.INVALID, f"engine {name!r} returned an invalid grid{which}: {problem}")
    if len(set(result.solutions)) < len(result.solutions):
        return answer(AnswerVerdict.INVALID, f"engine {name!r} returned the same solution twice")
    if result.status is Status.TIMEOUT:
        limit = "" if time_limit is None else f" (time limit {time_limit:g} s)"
        return answer(AnswerVerdict.UNDECIDED, f"engine {name!r} ran out of time{limit} before deciding")
    return answer(AnswerVerdict.OK)


def compare(grid: Grid, answers: list[EngineAnswer], limit: int) -> CrossCheckReport:
    """Compare the answers that are valid on their own; name the engines whose counts cannot be right."""
    found: dict[Grid, str] = {}  # every distinct valid solution returned, and the first engine to return it
    for a in answers:
        if a.verdict in (AnswerVerdict.OK, AnswerVerdict.UNDECIDED) and a.result is not None:
            for solution in a.result.solutions:
                found.setdefault(solution, a.name)
    problems: dict[str, str] = {}
    # Proof: valid distinct grids outnumber an exact count (or refute "no solution").
    for a in answers:
        if a.verdict is not AnswerVerdict.OK or not _is_exact(a.result):
            continue
        claimed = _lower(a.result)
        if claimed < len(found):
            if claimed == 0:
                finder = next(iter(found.values()))
                problems[a.name] = (
                    f"engine {a.name!r} says the puzzle has no solution, but {finder!r} returned a valid one"
                )
            else:
                problems[a.name] = (
                    f"engine {a.name!r} counted exactly {_solutions(claimed)}, "
                    f"but the engines returned {len(found)} different valid solutions"
                )
    # The remaining decided answers must fit one count: equal exact counts, no "at least" above them.
    decided = [a for a in answers if a.verdict is AnswerVerdict.OK and a.name not in problems]
    exact = {_lower(a.result) for a in decided if _is_exact(a.result)}
    at_least = max((_lower(a.result) for a in decided), default=0)
    if len(exact) > 1 or (exact and at_least > min(exact)):
        said = ", ".join(f"{a.name!r} {_said(a.result)}" for a in decided)
        message = f"engines disagree on the number of solutions: {said}"
        problems.update({a.name: message for a in decided})
    answers = [
        replace(a, verdict=AnswerVerdict.DISAGREE, problem=problems[a.name]) if a.name in problems else a
        for a in answers
    ]
    verdict = max((_PUZZLE_VERDICT[a.verdict] for a in answers), key=_GRAVITY.index)
    if verdict is Verdict.AGREE and all(a.verdict is AnswerVerdict.SKIPPED for a in answers):
        verdict = Verdict.UNDECIDED  # no engine takes the puzzle's rules: nothing was checked
    agreed_count, agreed_exact = None, False
    if verdict in (Verdict.AGREE, Verdict.UNDECIDED) and decided:
        agreed_count, agreed_exact = (exact.pop(), True) if exact else (at_least, False)
    messages = list(dict.fromkeys(a.problem for a in answers if a.problem))
    return CrossCheckReport(grid, tuple(answers), verdict, tuple(messages), limit, agreed_count, agreed_exact)


#: What one engine's answer makes of the puzzle's verdict.
_PUZZLE_VERDICT = {
    AnswerVerdict.OK: Verdict.AGREE,
    AnswerVerdict.UNDECIDED: Verdict.UNDECIDED,
    AnswerVerdict.ERROR: Verdict.ERROR,
    AnswerVerdict.INVALID: Verdict.DISAGREE,
    AnswerVerdict.DISAGREE: Verdict.DISAGREE,
    AnswerVerdict.SKIPPED: Verdict.AGREE,  # said in the report's problems, but no fault of the puzzle
}


def _is_exact(result: Result | None) -> bool:
    """True when the result decided the exact number of solutions (a proof of none counts)."""
    if result is None:
        return False
    return result.status is Status.UNSOLVABLE or (result.status is Status.SOLVED and result.exact)


def _lower(result: Result | None) -> int:
    """The number of solutions the result proves exist (exactly that many when it is exact)."""
    return 0 if result is None or result.status is not Status.SOLVED else result.count


def _said(result: Result | None) -> str:
    if _is_exact(result):
        return "no solution" if _lower(result) == 0 else f"exactly {_lower(result)}"
    return f"at least {_lower(result)}"


def _solutions(k: int) -> str:
    return f"{k} solution" if k == 1 else f"{k} solutions"


@dataclass(frozen=True, slots=True)
class CheckOutcome:
    """What became of one input record: its cross-check report, or why it is not a puzzle."""

    index: int
    record: Record
    report: CrossCheckReport | None = None
    invalid: str | None = None

    @property
    def verdict(self) -> Verdict:
        """The report's verdict, or ``invalid``."""
        return Verdict.INVALID if self.report is None else self.report.verdict

    @property
    def puzzle_text(self) -> str:
        """The puzzle in line form, or the input text as read when it did not parse."""
        return self.report.puzzle.to_line() if self.report is not None else self.record.as_read

    def to_dict(self) -> dict[str, object]:
        """The report's JSON form with ``source`` and ``line``; an invalid record keeps the same keys."""
        if self.report is not None:
            data = self.report.to_dict()
        else:
            data = {
                "puzzle": self.puzzle_text,
                "verdict": Verdict.INVALID.value,
                "agree": False,
                "count": None,
                "exact": None,
                "limit": None,
                "engines": [],
                "problems": [self.invalid],
            }
        data["source"] = self.record.source
        data["line"] = self.record.line
        return data


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
    limit = _limit(count, limit)
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
                    result = run(engine.strategy, grid, limit=limit, keep=_keep(limit), time_limit=time_limit)
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
        from sudokit.progress import counted

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
        from sudokit.batch import KILL_GRACE

        return None if self.time_limit is None else watchdog_seconds(self.time_limit) + KILL_GRACE

    def start(self, mark: Callable[[int], None]) -> Callable[[CheckItem], Any]:
        """Load every engine (in the worker); the function that runs one engine on one puzzle, answering plain data.

        The answer is :func:`sudokit.api.answer_of` of the result, or ``(UNLOADED, why)``; :meth:`finish`
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
                with suppress(StrategyError):  # _load says why, below
                    default_registry().factory(spec.strategy)
            mark(2 * k + 1)
            engine = _load(spec)
            loaded.append(engine.strategy if engine.strategy is not None else str(engine.error))
        limit, keep, time_limit = self.limit, _keep(self.limit), self.time_limit

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
        return result_of(answer, grid, self.engines[k].label, limit=self.limit, keep=_keep(self.limit))

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


@dataclass(frozen=True)
class CheckFormat:
    """How a cross-check record is written: pretty (a table per puzzle), line, json or csv.

    With ``unique`` (``--unique``) each record also says the uniqueness the engines agree on:
    ``unique``, ``several`` or ``none`` (see :func:`uniqueness`).
    """

    fmt: str = "pretty"
    header: bool = False  # pretty: a ``# file:line`` line before each record
    stats: bool = False  # pretty, line and csv: each engine's counters (json always has them)
    unique: bool = False  # the agreed uniqueness in each record

    def text(self, outcome: CheckOutcome) -> str:
        """The record of one outcome."""
        if self.fmt == "json":
            data = outcome.to_dict()
            if self.unique:
                data["uniqueness"] = uniqueness(outcome)
            return json.dumps(data, allow_nan=False)
        if self.fmt == "csv":
            return csv_row([self.csv_fields(outcome)[name] for name in self.fields()])
        if self.fmt == "line":
            return self.line(outcome)
        return self.pretty(outcome)

    def fields(self) -> tuple[str, ...]:
        """The columns of ``csv`` (``uniqueness`` last with ``unique``)."""
        return CHECK_CSV_FIELDS + (("uniqueness",) if self.unique else ())

    def csv_header(self) -> str | None:
        """The csv header line, or None for the other forms."""
        return csv_row(list(self.fields())) if self.fmt == "csv" else None

    def csv_fields(self, outcome: CheckOutcome) -> dict[str, object]:
        """The csv columns of an outcome: the json record's, each engine as in ``line``, problems joined by ``; ``."""
        data = outcome.to_dict()
        report = outcome.report
        return {
            **{name: data.get(name) for name in ("puzzle", "verdict", "count", "exact", "limit", "source", "line")},
            "engines": "" if report is None else _engines_text(report),
            "problems": "; ".join(str(problem) for problem in data["problems"]),  # type: ignore[attr-defined]
            "uniqueness": uniqueness(outcome),
        }

    def line(self, outcome: CheckOutcome) -> str:
        """``puzzle:verdict:count engine=count/ms ...`` (with ``unique``, the uniqueness for the count)."""
        report = outcome.report
        if report is None:
            return f"{outcome.puzzle_text}:invalid"
        agreed = uniqueness(outcome) if self.unique else report.count_text
        return f"{outcome.puzzle_text}:{report.verdict}:{agreed} {_engines_text(report)}"

    def pretty(self, outcome: CheckOutcome) -> str:
        """The puzzle, a row per engine (status, count, time, what was wrong) and the verdict."""
        parts = [heading(outcome.index, outcome.record)] if self.header else []
        report = outcome.report
        if report is None:
            return "\n".join([*parts, f"invalid: {outcome.invalid}"])
        kinds = report.puzzle.kinds
        parts.append(report.puzzle.to_line() + (f"  (variant: {', '.join(sorted(kinds))})" if kinds else ""))
        width = max(len(answer.name) for answer in report.engines)
        for a in report.engines:
            note = "" if a.verdict is OK else f"  {a.verdict}"
            ms = a.elapsed * 1000
            parts.append(f"  {a.name.ljust(width)}  {a.status:<10}  {a.count_text:>6}  {ms:10.2f} ms{note}")
            if self.stats and a.result is not None and a.result.stats:
                parts.append(" " * (width + 4) + counters_text(a.result.stats))
        lines = _verdict_lines(report)
        if self.unique and report.verdict in (AGREE, UNDECIDED):
            lines.append(f"uniqueness: {uniqueness(outcome)}")
        return "\n".join(parts + lines)

    def stats_lines(self, outcome: CheckOutcome) -> list[str]:
        """``FILE:LINE: engine: counters`` for each engine (beside a line record, on stderr)."""
        if outcome.report is None:
            return []
        lines = []
        for a in outcome.report.engines:
            if a.result is not None:
                counters = counters_text(a.result.stats)
                lines.append(f"{outcome.record.where}: {a.name}: {a.status} in {a.elapsed * 1000:.2f} ms; {counters}")
        return lines


_COUNTED = (AnswerVerdict.OK, AnswerVerdict.DISAGREE)  # answers whose count a line record shows


def _engines_text(report: CrossCheckReport) -> str:
    """``engine=count/ms ...``: each engine's count (or verdict when it has none to compare) and time."""
    return " ".join(
        f"{a.name}={a.count_text if a.verdict in _COUNTED else a.verdict}/{a.elapsed * 1000:.1f}ms"
        for a in report.engines
    )


def uniqueness(outcome: CheckOutcome) -> str:
    """The uniqueness the engines agree on: ``unique``, ``several`` or ``none``, as ``sudoku solve --unique`` says.

    Where the engines that decided agree but another timed out, their answer; ``undecided`` when
    none decided; the verdict (``error``, ``disagree``, ``invalid``) when there is no agreement.
    """
    report = outcome.report
    if report is None:
        return Verdict.INVALID.value
    if report.verdict not in (AGREE, UNDECIDED):
        return report.verdict.value
    if report.count is None:
        return UNDECIDED.value
    if report.count >= 2:
        return "several"
    if report.exact:
        return "none" if report.count == 0 else "unique"
    return UNDECIDED.value


def _verdict_lines(report: CrossCheckReport) -> list[str]:
    skipped = [f"skipped: {a.problem}" for a in report.engines if a.verdict is AnswerVerdict.SKIPPED]
    if report.verdict is not Verdict.AGREE:
        left_out = {a.problem for a in report.engines if a.verdict is AnswerVerdict.SKIPPED}
        faults = [f"{report.verdict}: {problem}" for problem in report.problems if problem not in left_out]
        return [*skipped, *(faults or [report.verdict.value])]
    if report.count == 0:
        return [*skipped, "agree: no solution"]
    noun = "solution" if report.count == 1 and report.exact else "solutions"
    if report.exact:
        return [*skipped, f"agree: {report.count} {noun}"]
    return [*skipped, f"agree: at least {report.count} {noun} (stopped at the limit of {report.limit})"]


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
