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

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace

from sudokit.api import DEFAULT_COUNT_LIMIT, PuzzleLike, as_grid, get_strategy, run
from sudokit.errors import InvalidPuzzleError, StrategyError, UnknownStrategyError
from sudokit.grid import Grid
from sudokit.reader import Record
from sudokit.registry import default_registry
from sudokit.shape import Shape
from sudokit.strategy import Result, Status, Strategy
from sudokit.verify import solution_problem

__all__ = [
    "EXIT_STATUS",
    "CheckOutcome",
    "CheckSummary",
    "CrossCheckReport",
    "Engine",
    "EngineAnswer",
    "check_records",
    "cross_check",
    "load_engines",
]

#: The limit each engine is asked with unless told: 2 decides whether the solution is unique.
UNIQUENESS_LIMIT = 2

# Verdicts of a puzzle, and the exit status of ``sudoku check`` for each (the worst one wins).
AGREE, UNDECIDED, INVALID, ERROR, DISAGREE = "agree", "undecided", "invalid", "error", "disagree"
EXIT_STATUS = {AGREE: 0, UNDECIDED: 1, INVALID: 2, ERROR: 3, DISAGREE: 3}
_GRAVITY = (AGREE, UNDECIDED, INVALID, ERROR, DISAGREE)

# Verdicts of one engine's answer.
OK, BAD_GRID = "ok", "invalid"


@dataclass(frozen=True, slots=True)
class Engine:
    """One engine to compare, under a unique label: the strategy, or why it could not be loaded."""

    name: str
    strategy: Strategy | None
    error: str | None = None


@dataclass(frozen=True, slots=True)
class EngineAnswer:
    """One engine's answer to one puzzle and what the cross-check made of it.

    ``verdict`` is ``ok`` (valid, and fits the others), ``undecided`` (timed out), ``error``
    (failed to load or crashed), ``invalid`` (a grid that is not a solution, or a self-contradicting
    result) or ``disagree`` (valid grids, but a count that does not fit); ``problem`` says why.
    ``elapsed`` is the wall time of the call in seconds.
    """

    name: str
    result: Result | None
    verdict: str
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
        if result is None or result.status is Status.ERROR:
            return "-"
        if result.status is Status.UNSOLVABLE:
            return "0"
        if result.status is Status.TIMEOUT:
            return f"{result.count}+" if result.count else "?"
        return f"{result.count}" if result.exact else f"{result.count}+"

    def to_dict(self) -> dict[str, object]:
        """The JSON form: strategy, verdict, status, count, exact, solution, elapsed_ms, problem."""
        result = self.result
        return {
            "strategy": self.name,
            "verdict": self.verdict,
            "status": self.status,
            "count": None if result is None or result.status is Status.ERROR else result.count,
            "exact": _is_exact(result),
            "solution": result.solution.to_line() if result is not None and result.solution else None,
            "elapsed_ms": round(self.elapsed * 1000, 3),
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
    verdict: str
    problems: tuple[str, ...]
    limit: int
    count: int | None = None
    exact: bool = False

    @property
    def agree(self) -> bool:
        """True when every engine answered, every answer is valid and all fit one count."""
        return self.verdict == AGREE

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
        """The JSON form: puzzle, verdict, agree, count, exact, limit, engines, problems."""
        return {
            "puzzle": self.puzzle.to_line(),
            "verdict": self.verdict,
            "agree": self.agree,
            "count": self.count,
            "exact": self.exact if self.count is not None else None,
            "limit": self.limit,
            "engines": [answer.to_dict() for answer in self.engines],
            "problems": list(self.problems),
        }


def load_engines(strategies: Iterable[str | Strategy] | str | None = None) -> list[Engine]:
    """The engines to compare: names (or a comma-separated string) or Strategy objects; None = all installed.

    An engine that fails to load becomes an ``Engine`` with its error, to be reported per puzzle;
    an unknown name raises ``UnknownStrategyError`` and an empty choice ``StrategyError``.
    """
    if strategies is None:
        strategies = default_registry().names()
    elif isinstance(strategies, str):
        strategies = [name.strip() for name in strategies.split(",") if name.strip()]
    engines: list[Engine] = []
    labels: set[str] = set()
    given: set[str] = set()
    for strategy in strategies:
        if isinstance(strategy, str):
            if strategy in given:
                continue
            given.add(strategy)
            try:
                loaded = get_strategy(strategy)
            except UnknownStrategyError:
                raise
            except StrategyError as err:
                engines.append(Engine(_label(strategy, labels), None, str(err)))
                continue
        else:
            loaded = get_strategy(strategy)
        if any(engine.strategy is loaded for engine in engines):
            continue  # the same engine object twice
        name = strategy if isinstance(strategy, str) else getattr(loaded, "name", type(loaded).__name__)
        engines.append(Engine(_label(name, labels), loaded))
    if not engines:
        raise StrategyError("no engines to compare")
    return engines


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
    seconds per engine. Raises ``InvalidPuzzleError`` for a bad puzzle and ``UnknownStrategyError``
    for an unknown name; an engine that fails to load or crashes is an ``error`` entry::

        >>> report = cross_check("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        ...                      ["backtrack"])
        >>> report.verdict, report.count, report.exact
        ('agree', 1, True)
    """
    grid = as_grid(puzzle, box)
    return _check(grid, load_engines(strategies), _limit(count, limit), time_limit)


def _limit(count: bool, limit: int | None) -> int:
    if limit is None:
        return DEFAULT_COUNT_LIMIT if count else UNIQUENESS_LIMIT
    if limit < 1:
        raise ValueError(f"limit must be at least 1, not {limit}")
    return limit


def _check(grid: Grid, engines: list[Engine], limit: int, time_limit: float | None) -> CrossCheckReport:
    answers = []
    for engine in engines:
        if engine.strategy is None:
            answers.append(EngineAnswer(engine.name, None, ERROR, engine.error))  # the error names the engine
            continue
        start = time.perf_counter()
        result = run(engine.strategy, grid, limit=limit, time_limit=time_limit)
        answers.append(_judge(engine.name, grid, result, time.perf_counter() - start, time_limit))
    return _compare(grid, answers, limit)


def _judge(name: str, puzzle: Grid, result: Result, elapsed: float, time_limit: float | None) -> EngineAnswer:
    """One engine's answer on its own: failed, self-contradicting, an invalid grid, timed out, or ok."""

    def answer(verdict: str, problem: str | None = None) -> EngineAnswer:
        return EngineAnswer(name, result, verdict, problem, elapsed)

    if result.status is Status.ERROR:
        detail = (result.error or "no reason given").removeprefix(f"strategy {result.strategy!r} failed: ")
        return answer(ERROR, f"engine {name!r} failed: {detail}")
    if result.status is Status.SOLVED and not result.solutions:
        return answer(BAD_GRID, f"engine {name!r} says solved but returned no grid to check")
    if result.status is Status.UNSOLVABLE and (result.solutions or result.count):
        return answer(BAD_GRID, f"engine {name!r} says unsolvable but reports {_solutions(result.count)}")
    for k, grid in enumerate(result.solutions, 1):
        problem = solution_problem(puzzle, grid)
        if problem:
            which = f" (solution {k} of {len(result.solutions)})" if len(result.solutions) > 1 else ""
            return answer(BAD_GRID, f"engine {name!r} returned an invalid grid{which}: {problem}")
    if len(set(result.solutions)) < len(result.solutions):
        return answer(BAD_GRID, f"engine {name!r} returned the same solution twice")
    if result.status is Status.TIMEOUT:
        limit = "" if time_limit is None else f" (time limit {time_limit:g} s)"
        return answer(UNDECIDED, f"engine {name!r} ran out of time{limit} before deciding")
    return answer(OK)


def _compare(grid: Grid, answers: list[EngineAnswer], limit: int) -> CrossCheckReport:
    """Compare the answers that are valid on their own; name the engines whose counts cannot be right."""
    found: dict[Grid, str] = {}  # every distinct valid solution returned, and the first engine to return it
    for a in answers:
        if a.verdict in (OK, UNDECIDED) and a.result is not None:
            for solution in a.result.solutions:
                found.setdefault(solution, a.name)
    problems: dict[str, str] = {}
    # Proof: valid distinct grids outnumber an exact count (or refute "no solution").
    for a in answers:
        if a.verdict != OK or not _is_exact(a.result):
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
    decided = [a for a in answers if a.verdict == OK and a.name not in problems]
    exact = {_lower(a.result) for a in decided if _is_exact(a.result)}
    at_least = max((_lower(a.result) for a in decided), default=0)
    if len(exact) > 1 or (exact and at_least > min(exact)):
        said = ", ".join(f"{a.name!r} {_said(a.result)}" for a in decided)
        message = f"engines disagree on the number of solutions: {said}"
        problems.update({a.name: message for a in decided})
    answers = [replace(a, verdict=DISAGREE, problem=problems[a.name]) if a.name in problems else a for a in answers]
    verdict = max((_engine_gravity(a.verdict) for a in answers), key=_GRAVITY.index)
    agreed_count, agreed_exact = None, False
    if verdict in (AGREE, UNDECIDED) and decided:
        agreed_count, agreed_exact = (exact.pop(), True) if exact else (at_least, False)
    messages = list(dict.fromkeys(a.problem for a in answers if a.problem))
    return CrossCheckReport(grid, tuple(answers), verdict, tuple(messages), limit, agreed_count, agreed_exact)


def _engine_gravity(verdict: str) -> str:
    return {OK: AGREE, BAD_GRID: DISAGREE}.get(verdict, verdict)


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
    def verdict(self) -> str:
        """The report's verdict, or ``invalid``."""
        return INVALID if self.report is None else self.report.verdict

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
                "verdict": INVALID,
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
    """Cross-check each record in turn (engines loaded once); a record that does not parse is ``invalid``.

    The engines are loaded at the call, so an unknown name raises before any record is read.
    """
    return _check_each(records, load_engines(strategies), _limit(count, limit), time_limit, box)


def _check_each(
    records: Iterable[Record], engines: list[Engine], limit: int, time_limit: float | None, box: Shape | None
) -> Iterator[CheckOutcome]:
    for index, record in enumerate(records):
        try:
            grid = record.parse(box)
        except InvalidPuzzleError as err:
            yield CheckOutcome(index, record, invalid=str(err))
            continue
        yield CheckOutcome(index, record, _check(grid, engines, limit, time_limit))


@dataclass
class CheckSummary:
    """Totals over a run of cross-checks: puzzles per verdict and each engine's total time."""

    verdicts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(_GRAVITY, 0))
    seconds: dict[str, float] = field(default_factory=dict)

    def add(self, outcome: CheckOutcome) -> None:
        """Count one outcome in."""
        self.verdicts[outcome.verdict] += 1
        if outcome.report is not None:
            for answer in outcome.report.engines:
                self.seconds[answer.name] = self.seconds.get(answer.name, 0.0) + answer.elapsed

    @property
    def puzzles(self) -> int:
        """How many records were checked, invalid ones included."""
        return sum(self.verdicts.values())

    @property
    def exit_status(self) -> int:
        """0 all agree, 1 some engine timed out, 2 some record invalid, 3 some engine disagreed or failed."""
        return max((EXIT_STATUS[v] for v, k in self.verdicts.items() if k), default=0)

    def __str__(self) -> str:
        v = self.verdicts
        noun = "puzzle" if self.puzzles == 1 else "puzzles"
        line = (
            f"{self.puzzles} {noun}: {v[AGREE]} agreed, {v[DISAGREE]} disagreed, {v[ERROR]} with engine errors, "
            f"{v[UNDECIDED]} undecided, {v[INVALID]} invalid"
        )
        if not self.seconds:
            return line
        times = ", ".join(f"{name} {_duration(seconds)}" for name, seconds in self.seconds.items())
        return f"{line}\ntime per engine: {times}"


def _duration(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"
