"""The cross-check: run several engines on the same puzzle, verify every answer, and compare them.

Every engine runs through :func:`sudokit.engines.api.run` (a crash becomes an ``error`` result) and every
grid it returns is checked by the independent :func:`sudokit.engines.verify.solution_problem`. Engines
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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum

from sudokit.engines.api import (
    DEFAULT_COUNT_LIMIT,
    PuzzleLike,
    as_grid,
    get_strategy,
    normalize_time_limit,
    run,
)
from sudokit.engines.registry import default_registry
from sudokit.engines.strategy import Result, Status, Strategy
from sudokit.engines.verify import solution_problem
from sudokit.errors import StrategyError, UnknownStrategyError
from sudokit.io.reader import Record
from sudokit.model.grid import Grid
from sudokit.model.shape import Shape

__all__ = [
    "AGREE",
    "BAD_GRID",
    "DISAGREE",
    "ERROR",
    "EXIT_STATUS",
    "INVALID",
    "KEEP_AT_MOST",
    "OK",
    "UNDECIDED",
    "UNIQUENESS_LIMIT",
    "AnswerVerdict",
    "CheckOutcome",
    "CrossCheckReport",
    "Engine",
    "EngineAnswer",
    "EngineSpec",
    "Verdict",
    "compare",
    "cross_check",
    "engine_specs",
    "judge",
    "kept_of",
    "limit_of",
    "load_engine",
    "load_engines",
    "uniqueness",
]

#: The limit each engine is asked with unless told: 2 decides whether the solution is unique.
UNIQUENESS_LIMIT = 2
#: The most solutions of one engine kept for the comparison (the count goes on to the limit).
KEEP_AT_MOST = 100


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
            from sudokit.model.variants import to_dict  # here: classic reports never need it

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
    return [load_engine(spec) for spec in engine_specs(strategies, options)]


def load_engine(spec: EngineSpec) -> Engine:
    """The engine of ``spec``, or an ``Engine`` holding why it failed to load (an unknown name raises)."""
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
    limit = limit_of(count, limit)
    time_limit = normalize_time_limit(time_limit)
    answers = []
    for engine in load_engines(strategies):
        if engine.strategy is None:
            answers.append(EngineAnswer(engine.name, None, AnswerVerdict.ERROR, engine.error))
            continue
        result = run(engine.strategy, grid, limit=limit, keep=kept_of(limit), time_limit=time_limit)
        answers.append(judge(engine.name, grid, result, time_limit))
    return compare(grid, answers, limit)


def limit_of(count: bool, limit: int | None) -> int:
    """The limit each engine is asked with: ``limit``, else ``DEFAULT_COUNT_LIMIT`` or ``UNIQUENESS_LIMIT``."""
    if limit is None:
        return DEFAULT_COUNT_LIMIT if count else UNIQUENESS_LIMIT
    if isinstance(limit, bool) or not isinstance(limit, int):
        raise TypeError(f"limit must be a whole number, not {limit!r}")
    if limit < 1:
        raise ValueError(f"limit must be at least 1, not {limit}")
    return limit


def kept_of(limit: int) -> int:
    """How many solutions of each engine are kept for the comparison: ``limit``, at most ``KEEP_AT_MOST``."""
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
