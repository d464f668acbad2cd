"""Difficulty in HoDoKu's manner: a score summed over the easiest-first logical path, and a level.

Each step of :func:`sudokit.features.logic.steps` adds its technique's base score; the level is the highest
level of any technique used, then raised while the score exceeds that level's maximum. The base
scores, technique levels and level maxima are HoDoKu 2.2's (``Options.solverSteps`` and
``DifficultyLevel``), as transcribed by the ``hodoku-py`` package 0.2.1 in ``hodoku/core/scoring.py``
(``DEFAULT_STEPS`` and ``DIFFICULTY_MAX_SCORE``): Easy up to 800, Medium 1000, Hard 1600, Unfair 1800,
Extreme beyond.

Where the techniques stall (``"needs search"``), HoDoKu goes on with forcing chains and nets, its
Extreme techniques, or places a digit of the solution (its brute force). :func:`rate` does the
latter: it places the solution's digit of the middle blank cell (the cell HoDoKu's brute force
picks), charges :data:`SEARCH_PENALTY` (HoDoKu's forcing-chain base score, the cheapest Extreme
technique) and goes on with logic; such a puzzle is Extreme. ``guesses`` then says how much search
the engine that counted (``backtrack`` unless told) needed to solve it and prove it unique. A puzzle
is rated only once that engine (checked by :func:`sudokit.engines.api.run`) has counted exactly one
solution: as HoDoKu does, a puzzle with none or several is refused (the uniqueness techniques would
make its path unsound).

    >>> r = rate("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
    >>> r.level, r.score, r.hardest
    ('Easy', 204, 'naked single')
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sudokit.errors import SudokitError
from sudokit.features.logic import Candidates, Step, disabled_techniques, logic_grid, steps
from sudokit.model.grid import Grid

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from sudokit.engines.strategy import Result, Strategy
    from sudokit.runtime.output import Rendered
    from sudokit.runtime.records import Outcome

__all__ = [
    "BASE_SCORES",
    "LEVELS",
    "LEVEL_MAX",
    "SEARCH_PENALTY",
    "TECHNIQUE_LEVELS",
    "LogicTask",
    "RateFormat",
    "Rating",
    "TimeLimitError",
    "first_step",
    "rate",
    "rated_steps",
    "run_logic",
]

#: The levels, easiest first.
LEVELS = ("Easy", "Medium", "Hard", "Unfair", "Extreme")
#: The highest score of each level (HoDoKu's ``DifficultyLevel`` maxima); Extreme has none.
LEVEL_MAX: dict[str, int | None] = {"Easy": 800, "Medium": 1000, "Hard": 1600, "Unfair": 1800, "Extreme": None}

#: The name of the step that stands for a stall resolved by search (a placed digit of the solution).
NEEDS_SEARCH = "needs search"

#: (base score, level) of each technique, from hodoku-py 0.2.1 ``hodoku/core/scoring.py`` (HoDoKu 2.2).
#: The two-strong-link X-chains are HoDoKu's turbot-fish family, found by their own finders in
#: ``sudokit.features.logic`` (and named so by :func:`technique_of` should an X-chain of two links still come up).
_TABLE: dict[str, tuple[int, str]] = {
    "naked single": (4, "Easy"),  # FULL_HOUSE and NAKED_SINGLE: both 4
    "hidden single": (14, "Easy"),  # HIDDEN_SINGLE
    "locked pair": (40, "Medium"),  # LOCKED_PAIR
    "locked triple": (60, "Medium"),  # LOCKED_TRIPLE
    "locked candidates (pointing)": (50, "Medium"),  # LOCKED_CANDIDATES_1
    "locked candidates (claiming)": (50, "Medium"),  # LOCKED_CANDIDATES_2
    "naked pair": (60, "Medium"),  # NAKED_PAIR
    "hidden pair": (70, "Medium"),  # HIDDEN_PAIR
    "naked triple": (80, "Medium"),  # NAKED_TRIPLE
    "hidden triple": (100, "Medium"),  # HIDDEN_TRIPLE
    "naked quad": (120, "Hard"),  # NAKED_QUADRUPLE
    "hidden quad": (150, "Hard"),  # HIDDEN_QUADRUPLE
    "X-Wing": (140, "Hard"),  # X_WING
    "Swordfish": (150, "Hard"),  # SWORDFISH
    "Jellyfish": (160, "Hard"),  # JELLYFISH
    "remote pair": (110, "Hard"),  # REMOTE_PAIR
    "BUG+1": (100, "Hard"),  # BUG_PLUS_1
    "skyscraper": (130, "Hard"),  # SKYSCRAPER (an X-chain of two strong links in parallel lines)
    "2-string kite": (150, "Hard"),  # TWO_STRING_KITE (a row's and a column's strong links, joined in a box)
    "turbot fish": (120, "Hard"),  # TURBOT_FISH (any other X-chain of two strong links)
    "empty rectangle": (120, "Hard"),  # EMPTY_RECTANGLE
    "W-Wing": (150, "Hard"),  # W_WING
    "XY-Wing": (160, "Hard"),  # XY_WING
    "XYZ-Wing": (180, "Hard"),  # XYZ_WING
    "unique rectangle type 1": (100, "Hard"),  # UNIQUENESS_1
    "unique rectangle type 2": (100, "Hard"),  # UNIQUENESS_2
    "unique rectangle type 4": (100, "Hard"),  # UNIQUENESS_4
    "X-chain": (260, "Unfair"),  # X_CHAIN
    "XY-chain": (260, "Unfair"),  # XY_CHAIN
    NEEDS_SEARCH: (500, "Extreme"),  # FORCING_CHAIN_CONTRADICTION's score: see SEARCH_PENALTY
    # sudokit's steps of variant puzzles (HoDoKu has none; docs/logic.md says why each scores what it does).
    # A clue on one or two cells: read off the clue, as a naked single is read off a cell's peers.
    "parity clue": (4, "Easy"),
    "given pencil marks": (4, "Easy"),
    "kropki dot": (4, "Easy"),
    "XV clue": (4, "Easy"),
    "kropki negative constraint": (4, "Easy"),
    "XV negative constraint": (4, "Easy"),
    "non-consecutive": (4, "Easy"),
    "minimum/maximum cell": (4, "Easy"),
    "clone": (4, "Easy"),
    # A clue on a cage or a line: its combinations, as a person lists them.
    "killer cage": (10, "Easy"),
    "little killer": (10, "Easy"),
    "thermometer": (10, "Easy"),
    "slow thermometer": (10, "Easy"),
    "arrow": (10, "Easy"),
    "renban line": (10, "Easy"),
    "whisper line": (10, "Easy"),
    "palindrome line": (10, "Easy"),
    "quadruple": (10, "Easy"),
    # A clue on a whole row or column, and any other rule's cells: the placements of a whole line.
    "sandwich": (20, "Medium"),
    "X-sum": (20, "Medium"),
    "skyscraper clue": (20, "Medium"),
    "rule propagation": (20, "Medium"),
    "locked candidates (peers)": (50, "Medium"),  # LOCKED_CANDIDATES' score, across any two groups
    # A candidate that leads to a contradiction after singles and rule propagation: a short forcing argument.
    "forcing (contradiction)": (300, "Unfair"),
    # Every candidate of one cell, each followed as above, removes the same candidates: a forcing net.
    "forcing (every candidate)": (500, "Extreme"),
}
#: Each technique's base score (HoDoKu 2.2's, per application).
BASE_SCORES: dict[str, int] = {name: score for name, (score, _) in _TABLE.items()}
#: Each technique's level (HoDoKu 2.2's).
TECHNIQUE_LEVELS: dict[str, str] = {name: level for name, (_, level) in _TABLE.items()}
#: The score charged each time the techniques stall and a digit of the solution is placed instead.
SEARCH_PENALTY = BASE_SCORES[NEEDS_SEARCH]


@dataclass(frozen=True)
class Rating:
    """A puzzle's difficulty: score, level, hardest technique, technique counts and search effort."""

    score: int
    level: str
    hardest: str | None
    techniques: dict[str, int] = field(default_factory=dict)
    solved_by_logic: bool = True
    guesses: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The rating as JSON-ready values."""
        return {
            "level": self.level,
            "score": self.score,
            "hardest": self.hardest,
            "techniques": dict(self.techniques),
            "solved_by_logic": self.solved_by_logic,
            "guesses": self.guesses,
        }


def technique_of(step: Step, n: int) -> str:
    """The name a step is scored under: its technique, or for a two-link X-chain HoDoKu's name of the pattern."""
    if step.technique != "X-chain" or len(step.cells) != 4:
        return step.technique
    a, b, c, d = step.cells  # a = b - c = d: strong links a=b and c=d, b and c see each other
    rows = a // n == b // n and c // n == d // n
    cols = a % n == b % n and c % n == d % n
    if rows or cols:
        return "skyscraper"
    row_col = (a // n == b // n and c % n == d % n) or (a % n == b % n and c // n == d // n)
    return "2-string kite" if row_col else "turbot fish"


def level_of(score: int, hardest_level: str) -> str:
    """The level of a path: its hardest technique's level, raised while ``score`` exceeds the level's maximum."""
    k = LEVELS.index(hardest_level)
    while (top := LEVEL_MAX[LEVELS[k]]) is not None and score > top:
        k += 1
    return LEVELS[k]


def rate(puzzle: Grid | str, *, time_limit: float | None = None, engine: str | Strategy = "backtrack") -> Rating:
    """The difficulty of a puzzle (classic of any box shape, or variant), in HoDoKu's manner (see the module).

    The puzzle is first proved to have exactly one solution (``engine``, a registered name or a
    Strategy, counts to 2, checked by :func:`sudokit.engines.api.run`): the uniqueness techniques
    assume one, and a rating of a puzzle with several would be a rating of a path that is not sound.
    ``time_limit`` (seconds, None: none) bounds the whole rating, the count included.

    Raises ``ValueError`` for a puzzle without a solution or with several,
    :class:`TimeLimitError` when the time limit runs out, ``StrategyError`` when the engine fails.
    """
    return rate_grid(logic_grid(puzzle), deadline=_deadline(time_limit), engine=engine)[1]


def rated_steps(
    puzzle: Grid | str,
    *,
    time_limit: float | None = None,
    engine: str | Strategy = "backtrack",
    disabled: Iterable[str] = (),
) -> tuple[list[Step], Rating]:
    """The path :func:`rate` scores, and the rating (raising as :func:`rate` does).

    The path is that of :func:`sudokit.features.logic.steps` (without the techniques ``disabled`` names),
    except that a stall is a ``"needs search"`` step placing the solution's digit in the middle blank cell,
    after which the logical steps go on.
    """
    return rate_grid(logic_grid(puzzle), deadline=_deadline(time_limit), engine=engine, disabled=disabled)


def first_step(
    puzzle: Grid | str,
    *,
    time_limit: float | None = None,
    engine: str | Strategy = "backtrack",
    disabled: Iterable[str] = (),
) -> Step | None:
    """The next logical step (:func:`sudokit.features.logic.hint`, without the techniques ``disabled`` names) of
    a puzzle proved to have one solution first.

    None when the puzzle is complete. Raises as :func:`rate` does: a puzzle without a solution or
    with several has no sound next step (a uniqueness step assumes one).
    """
    grid = logic_grid(puzzle)
    off = disabled_techniques(disabled)
    deadline = _deadline(time_limit)
    _unique_solution(grid, deadline, engine)
    step = next(steps(grid, off), None)
    _check_time(deadline)
    return step


class TimeLimitError(SudokitError):
    """The time limit ran out before the puzzle was rated or explained."""


NOT_UNIQUE = "the puzzle has more than one solution"


def _deadline(time_limit: float | None) -> float | None:
    """The monotonic time at which ``time_limit`` seconds from now run out (None: no limit)."""
    from sudokit.engines.api import normalize_time_limit

    seconds = normalize_time_limit(time_limit)
    return None if seconds is None else time.monotonic() + seconds


def _check_time(deadline: float | None) -> None:
    if deadline is not None and time.monotonic() > deadline:
        raise TimeLimitError("the time limit ran out")


def _unique_solution(grid: Grid, deadline: float | None, engine: str | Strategy = "backtrack") -> Result:
    """``engine``'s checked count to 2 of ``grid`` (:func:`sudokit.engines.api.run`), when it has exactly one
    solution.

    Raises ``ValueError`` when it has none or several, ``TimeLimitError`` when the count runs out of
    time, ``StrategyError`` when the engine fails.
    """
    from sudokit.engines.api import get_strategy, run
    from sudokit.engines.strategy import Status
    from sudokit.errors import StrategyError

    left = None
    if deadline is not None:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeLimitError("the time limit ran out")
    strategy = get_strategy(engine)
    name = engine if isinstance(engine, str) else getattr(strategy, "name", type(strategy).__name__)
    result = run(strategy, grid, limit=2, keep=1, time_limit=left)
    if result.status is Status.TIMEOUT:
        raise TimeLimitError(f"the time limit ran out while {name} counted the solutions")
    if result.status is not Status.SOLVED and result.status is not Status.UNSOLVABLE:
        raise StrategyError(result.error or f"{name} gave no answer ({result.status.value})")
    _check_unique(result)
    return result


def _check_unique(solved: Result) -> None:
    """ValueError unless ``solved`` (a count to 2 or more) found exactly one solution and proved it the only one."""
    if solved.count >= 2:
        raise ValueError(NOT_UNIQUE)
    if solved.solution is None:
        raise ValueError("the puzzle has no solution")
    if not solved.exact:
        raise ValueError("the puzzle's uniqueness is not known: count its solutions to 2 first")


def rate_grid(
    grid: Grid,
    solved: Result | None = None,
    *,
    deadline: float | None = None,
    engine: str | Strategy = "backtrack",
    disabled: Iterable[str] = (),
) -> tuple[list[Step], Rating]:
    """:func:`rated_steps` of a parsed grid.

    ``solved`` is a count of its solutions to 2 or more (a checked engine's result, or a solution
    known unique), if at hand; else ``engine`` counts them. ``deadline`` is a ``time.monotonic()``
    time past which ``TimeLimitError`` is raised (checked between steps).
    """
    off = disabled_techniques(disabled)  # an unknown name refused before the count
    if solved is None:
        solved = _unique_solution(grid, deadline, engine)
    else:
        _check_unique(solved)
    solution = solved.solution
    assert solution is not None
    state = Candidates(grid)
    n = grid.n
    path: list[Step] = []
    counts: dict[str, int] = {}
    score = 0
    hardest: str | None = None
    hardest_rank = -1
    stalled = False

    def count(name: str) -> None:
        nonlocal score, hardest, hardest_rank
        counts[name] = counts.get(name, 0) + 1
        score += BASE_SCORES[name]
        # The hardest technique: the highest level, then the highest base score.
        rank = LEVELS.index(TECHNIQUE_LEVELS[name]) * 100_000 + BASE_SCORES[name]
        if rank > hardest_rank:
            hardest, hardest_rank = name, rank

    while True:
        stall: Step | None = None
        for step in steps(state, off):
            _check_time(deadline)
            if step.technique == "contradiction":
                raise ValueError("the logical path ran into a contradiction on a puzzle with one solution")
            if step.technique == NEEDS_SEARCH:
                stall = step
                break
            state.apply(step)
            path.append(step)
            count(technique_of(step, n))
        if stall is None:
            break
        stalled = True
        blanks = [i for i, v in enumerate(state.values) if not v]
        cell = blanks[len(blanks) // 2]
        digit = solution.cells[cell]
        if not state.masks[cell] >> (digit - 1) & 1:
            raise ValueError("a logical step removed the solution's digit from a cell")
        state.place(cell, digit)
        path.append(
            Step(
                NEEDS_SEARCH,
                (cell,),
                (digit,),
                ((cell, digit),),
                (),
                f"{stall.explanation}: search puts {digit} in r{cell // n + 1}c{cell % n + 1}",
            )
        )
        count(NEEDS_SEARCH)
    level = "Easy" if hardest is None else level_of(score, TECHNIQUE_LEVELS[hardest])
    guesses = int(solved.stats.get("guesses", 0)) if stalled else 0
    return path, Rating(score, level, hardest, counts, not stalled, guesses)


# --- the records of `sudoku rate` ----------------------------------------------------------------------

#: The columns ``--format csv`` adds after solve's.
CSV_EXTRA = ("level", "score", "hardest", "guesses", "solved_by_logic")
#: The fields ``--format json`` adds to solve's.
_JSON_EXTRA = ("level", "score", "hardest", "techniques", "solved_by_logic", "guesses")
#: The line answers of a puzzle not rated.
_NOT_RATED = ("invalid", "unsolvable", "timeout", "error", "unsupported")


@dataclass(frozen=True, slots=True)
class RateFormat:
    """Renders an engine's outcome (made in a batch worker) as a ``sudoku rate`` record, rating it there.

    The outcome is a count to 2 (``limit``): a puzzle with several solutions is not rated, its
    record says ``several`` (as ``sudoku solve --unique`` does) and counts as a failure. The rating
    must end within what ``time_limit`` leaves after the count, else the record is a ``timeout``.
    ``line``: ``puzzle:level:score`` (``puzzle:status`` for a failure, ``puzzle:several``); ``json``:
    solve's record plus ``level``, ``score``, ``hardest``, ``techniques``, ``solved_by_logic``,
    ``guesses`` (None when not rated, ``error`` saying why); ``csv``: solve's columns plus
    :data:`CSV_EXTRA`; ``pretty``: the puzzle's grid (after ``# source:line`` in a batch) and a line
    with its level and score, a failure as ``sudoku solve`` shows one. Duck-types
    :class:`sudokit.runtime.output.RecordFormat` for :class:`sudokit.runtime.batch.SolveJob`.
    """

    fmt: str = "line"
    header: bool = False
    counting: bool = False
    limit: int = 2
    unique: bool = False
    time_limit: float | None = None
    #: The engine that counts (``sudoku rate -s``): the records of a resumed run must be its.
    strategy: str = "backtrack"

    def first_line(self) -> str | None:
        """The csv header, else None."""
        if self.fmt != "csv":
            return None
        from sudokit.runtime.output import CSV_FIELDS, csv_row

        return csv_row(CSV_FIELDS + CSV_EXTRA)

    def __call__(self, outcome: Outcome) -> Rendered:
        from sudokit.runtime.output import CSV_FIELDS, RecordFormat, Rendered, csv_row, heading

        rating, outcome, refused = _rated(outcome, self.time_limit)
        base = RecordFormat(self.fmt if self.fmt in ("json", "pretty") else "line", header=self.header)
        rendered = base(outcome)
        status, answer = rendered.status, rendered.answer
        if refused is not None:  # (answer, why): several solutions, or no time left to rate
            answer, why = refused
            status = "timeout" if answer == "timeout" else status
        if self.fmt == "pretty":
            if refused is not None:
                parts = [heading(outcome.index, outcome.record)] if self.header else []
                text = "\n".join([*parts, f"{answer}: {why}"])
            elif rating is None or outcome.grid is None:
                return rendered
            else:
                parts = [heading(outcome.index, outcome.record)] if self.header else []
                parts.append(outcome.grid.to_pretty())
                parts.append(
                    f"level {rating.level}, score {rating.score} "
                    f"(hardest: {rating.hardest or 'none'}; guesses {rating.guesses})"
                )
                text = "\n".join(parts)
        elif self.fmt in ("json", "csv"):
            data = base.to_dict(outcome)
            if refused is not None:
                data.update(status=status, error=why)
            extra = (
                rating.to_dict()
                if rating
                else dict.fromkeys(("level", "score", "hardest", "techniques", "solved_by_logic", "guesses"))
            )
            if self.fmt == "json":
                import json

                data.update(extra)
                text = json.dumps(data, allow_nan=False)
            else:
                text = csv_row([data[k] for k in CSV_FIELDS] + [extra.get(k) for k in CSV_EXTRA])
        elif refused is not None:
            text = f"{outcome.puzzle_text}:{answer}"
        elif rating is None:
            text = rendered.text
        else:
            text = f"{outcome.puzzle_text}:{rating.level}:{rating.score}"
        return Rendered(rendered.index, status, text, rendered.messages, rendered.note, answer)

    def fits(
        self,
        text: str,
        record: Any,
        key: Any,
        grid: Any,
        *,
        box: Any = None,
        strategy: str | None = None,
        engines: Any = None,
    ) -> str | None:
        """Why ``text``, read back for ``--resume``, is not the record ``sudoku rate`` writes for ``record`` (or None).

        ``grid`` is the record's puzzle (None: it does not parse), ``engines`` unused (rate runs one engine).
        A line record is ``level:score`` or the status of a puzzle not rated; json and csv records are
        checked as ``sudoku solve``'s (:meth:`sudokit.runtime.output.RecordFormat.fits`) with the rating's fields.
        """
        from sudokit.runtime.output import CSV_FIELDS, RecordFormat

        if self.fmt == "line":
            answer = text[len(key[0]) + 1 :]
            level, sep, score = answer.partition(":")
            if sep and level in LEVELS and score.isdigit():
                return None
            if not sep and answer in _NOT_RATED:
                return None
            return f"{answer[:37]!r} is not a rating (level:score) nor the status of a puzzle not rated"
        base = RecordFormat(self.fmt, limit=self.limit)  # the count to 2 shows in each record
        if self.fmt == "json":
            import json

            data = json.loads(text)
            missing = [k for k in _JSON_EXTRA if k not in data]
            if missing:
                return f"it has no {', '.join(missing)}: not a record of 'sudoku rate'"
            solve = {k: v for k, v in data.items() if k not in _JSON_EXTRA}
            return base.fits(json.dumps(solve), record, key, grid, box=box, strategy=self.strategy)
        if self.fmt == "csv":
            import csv

            rows = list(csv.reader(text.splitlines(keepends=True)))
            if not rows or len(rows[0]) != len(CSV_FIELDS) + len(CSV_EXTRA):
                return "not a row of 'sudoku rate'"
            from sudokit.runtime.output import csv_row

            return base.fits(csv_row(rows[0][: len(CSV_FIELDS)]), record, key, grid, box=box, strategy=self.strategy)
        return None


def _rated(outcome: Outcome, time_limit: float | None = None) -> tuple[Rating | None, Outcome, tuple[str, str] | None]:
    """A solved outcome's rating, the outcome (``unsupported`` or ``error`` when it cannot be rated), and
    ``(answer, why)`` when a puzzle that solved is not rated: ``several`` solutions, or a ``timeout`` rating it.

    ``time_limit`` covers the count and the rating: the rating gets what the count left.
    """
    from dataclasses import replace

    from sudokit.engines.strategy import Status

    result, grid = outcome.result, outcome.grid
    if result is None or grid is None:
        return None, outcome, None
    late = "no rating within the time limit" + ("" if time_limit is None else f" of {time_limit:g} s")
    if result.count >= 2:
        return None, outcome, ("several", f"{NOT_UNIQUE}: no rating")
    if result.status is Status.TIMEOUT:  # perhaps one solution found, but uniqueness undecided
        return None, outcome, ("timeout", f"{late} ({result.strategy} did not finish counting the solutions to 2)")
    if result.status is not Status.SOLVED:
        return None, outcome, None
    deadline = None if time_limit is None else time.monotonic() + max(0.0, time_limit - result.elapsed)
    try:
        return rate_grid(grid, result, deadline=deadline)[1], outcome, None
    except TimeLimitError:
        return None, outcome, ("timeout", late)
    except ValueError as err:
        return None, replace(outcome, result=replace(result, status=Status.ERROR, error=f"cannot rate: {err}")), None


# --- `sudoku hint` and `sudoku explain` in a worker ------------------------------------------------------


class LogicTask:
    """The checked hint or rated path of one Grid (an item) in a killable worker
    (:mod:`sudokit.engines.workers`).

    A result is ``("step", Step | None)`` (the hint), ``("path", (steps, rating))`` (``explain``), or
    ``(failure, why)``: ``refused`` (no solution, or several), ``timeout`` or ``error``. The time is
    checked between steps; a worker still on its puzzle ``budget`` seconds after it began (one step
    of a big board can take long) is killed, and that is a ``timeout`` too.
    """

    def __init__(
        self, explain: bool, time_limit: float | None, engine: str = "backtrack", disabled: Iterable[str] = ()
    ) -> None:
        from sudokit.engines.api import normalize_time_limit, watchdog_seconds
        from sudokit.engines.watchdog import KILL_GRACE

        self.explain = explain
        self.disabled = disabled_techniques(disabled)  #: the techniques the steps leave out
        self.engine = engine  #: the engine that proves the puzzle has one solution (a registered name)
        self.time_limit = normalize_time_limit(time_limit)
        self.budget = None if self.time_limit is None else watchdog_seconds(self.time_limit) + KILL_GRACE

    def start(self, mark: Callable[[int], None]) -> Callable[[Grid], tuple[str, Any]]:
        """The function that answers one puzzle (nothing to load: the engine is loaded when it counts)."""

        def answer(grid: Grid) -> tuple[str, Any]:
            try:
                limit, engine, disabled = self.time_limit, self.engine, self.disabled
                if self.explain:
                    return "path", rated_steps(grid, time_limit=limit, engine=engine, disabled=disabled)
                return "step", first_step(grid, time_limit=limit, engine=engine, disabled=disabled)
            except TimeLimitError:
                return "timeout", self.timeout_message()
            except ValueError as err:
                return "refused", str(err)
            except SudokitError as err:
                return "error", str(err)

        return answer

    def timeout_message(self) -> str:
        """Why there is no answer, when the time limit ran out."""
        return f"no {'explanation' if self.explain else 'hint'} within the time limit of {self.time_limit:g} s"

    def failed(self, item: Grid, problem: str) -> tuple[str, str]:
        """The answer of a puzzle whose worker was killed past its budget (a timeout) or died (an error)."""
        if problem.startswith("still running"):
            return "timeout", self.timeout_message()
        return "error", f"the worker {problem}"

    def load_failed(self, phase: int, problem: str) -> bool:
        """Nothing is loaded, but should the worker die starting: the run cannot go on."""
        from sudokit.errors import StrategyLoadError

        raise StrategyLoadError(f"the logic worker failed to start: {problem}")


def run_logic(
    grid: Grid,
    *,
    explain: bool,
    time_limit: float | None,
    engine: str = "backtrack",
    disabled: Iterable[str] = (),
) -> tuple[str, Any]:
    """:class:`LogicTask`'s answer for ``grid`` (without the techniques ``disabled`` names), computed in a worker
    process that is killed if it overruns."""
    from sudokit.engines.workers import WorkerPool

    with WorkerPool(LogicTask(explain, time_limit, engine, disabled), 1) as pool:
        pool.start()
        [answer] = pool.map([grid])
    return answer
