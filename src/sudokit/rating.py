"""Difficulty in HoDoKu's manner: a score summed over the easiest-first logical path, and a level.

Each step of :func:`sudokit.logic.steps` adds its technique's base score; the level is the highest
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
the ``backtrack`` engine needed to solve it.

    >>> r = rate("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
    >>> r.level, r.score, r.hardest
    ('Easy', 204, 'naked single')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sudokit.grid import Grid
from sudokit.logic import Candidates, Step, _as_grid, steps

if TYPE_CHECKING:
    from sudokit.batch import Outcome
    from sudokit.output import Rendered
    from sudokit.strategy import Result

__all__ = [
    "BASE_SCORES",
    "LEVELS",
    "LEVEL_MAX",
    "SEARCH_PENALTY",
    "TECHNIQUE_LEVELS",
    "RateFormat",
    "Rating",
    "rate",
    "rated_steps",
]

#: The levels, easiest first.
LEVELS = ("Easy", "Medium", "Hard", "Unfair", "Extreme")
#: The highest score of each level (HoDoKu's ``DifficultyLevel`` maxima); Extreme has none.
LEVEL_MAX: dict[str, int | None] = {"Easy": 800, "Medium": 1000, "Hard": 1600, "Unfair": 1800, "Extreme": None}

#: The name of the step that stands for a stall resolved by search (a placed digit of the solution).
NEEDS_SEARCH = "needs search"

#: (base score, level) of each technique, from hodoku-py 0.2.1 ``hodoku/core/scoring.py`` (HoDoKu 2.2).
#: The two-strong-link X-chains are HoDoKu's turbot-fish family, found by their own finders in ``sudokit.logic``
#: (and named so by :func:`technique_of` should an X-chain of two links still come up).
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


def rate(puzzle: Grid | str) -> Rating:
    """The difficulty of a classic puzzle of any box shape, in HoDoKu's manner (see the module).

    Raises ``ValueError`` for a variant puzzle, and for one without a solution.
    """
    return _rate(_as_grid(puzzle))[1]


def rated_steps(puzzle: Grid | str) -> tuple[list[Step], Rating]:
    """The path :func:`rate` scores, and the rating.

    The path is that of :func:`sudokit.logic.steps`, except that a stall is a ``"needs search"`` step
    placing the solution's digit in the middle blank cell, after which the logical steps go on.
    """
    return _rate(_as_grid(puzzle))


def _rate(grid: Grid, solved: Result | None = None) -> tuple[list[Step], Rating]:
    """:func:`rated_steps` of a parsed classic grid; ``solved`` is a ``backtrack`` result of it, if at hand."""
    state = Candidates(grid)
    n = grid.n
    path: list[Step] = []
    counts: dict[str, int] = {}
    score = 0
    hardest: str | None = None
    hardest_rank = -1
    solution: Grid | None = None
    guesses = 0

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
        for step in steps(state):
            if step.technique == "contradiction":
                raise ValueError("the puzzle has no solution (or several, which a uniqueness step assumed not)")
            if step.technique == NEEDS_SEARCH:
                stall = step
                break
            state.apply(step)
            path.append(step)
            count(technique_of(step, n))
        if stall is None:
            break
        if solution is None:
            if solved is None:
                from sudokit.api import get_strategy

                solved = get_strategy("backtrack").solve(grid, limit=1)
            if solved.solution is None:
                raise ValueError(f"the puzzle has no solution ({solved.status.value})")
            solution = solved.solution
            guesses = int(solved.stats.get("guesses", 0))
        blanks = [i for i, v in enumerate(state.values) if not v]
        cell = blanks[len(blanks) // 2]
        digit = solution.cells[cell]
        if not state.masks[cell] >> (digit - 1) & 1:
            raise ValueError("the puzzle has several solutions, which a uniqueness step assumed not")
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
    return path, Rating(score, level, hardest, counts, solution is None, guesses)


# --- the records of `sudoku rate` ----------------------------------------------------------------------

#: The columns ``--format csv`` adds after solve's.
CSV_EXTRA = ("level", "score", "hardest", "guesses", "solved_by_logic")
#: The fields ``--format json`` adds to solve's.
_JSON_EXTRA = ("level", "score", "hardest", "techniques", "solved_by_logic", "guesses")
#: The line answers of a puzzle not rated.
_NOT_RATED = ("invalid", "unsolvable", "timeout", "error", "unsupported")


@dataclass(frozen=True, slots=True)
class RateFormat:
    """Renders a ``backtrack`` outcome (made in a batch worker) as a ``sudoku rate`` record, rating it there.

    ``line``: ``puzzle:level:score`` (``puzzle:status`` for a failure); ``json``: solve's record plus
    ``level``, ``score``, ``hardest``, ``techniques``, ``solved_by_logic``, ``guesses`` (None when
    not rated); ``csv``: solve's columns plus :data:`CSV_EXTRA`; ``pretty``: the puzzle's grid (after
    ``# source:line`` in a batch) and a line with its level and score, a failure as ``sudoku solve``
    shows one. A variant puzzle is ``unsupported``.
    Duck-types :class:`sudokit.output.RecordFormat` for :class:`sudokit.batch.SolveJob`.
    """

    fmt: str = "line"
    header: bool = False
    counting: bool = False
    limit: int = 1
    unique: bool = False

    def first_line(self) -> str | None:
        """The csv header, else None."""
        if self.fmt != "csv":
            return None
        from sudokit.output import CSV_FIELDS, csv_row

        return csv_row(CSV_FIELDS + CSV_EXTRA)

    def __call__(self, outcome: Outcome) -> Rendered:
        from sudokit.output import CSV_FIELDS, RecordFormat, Rendered, csv_row

        rating, outcome = _rated(outcome)
        base = RecordFormat(self.fmt if self.fmt in ("json", "pretty") else "line", header=self.header)
        rendered = base(outcome)
        if self.fmt == "pretty":
            if rating is None or outcome.grid is None:
                return rendered
            parts = [f"# {outcome.record.where}"] if self.header else []
            parts.append(outcome.grid.to_pretty())
            parts.append(
                f"level {rating.level}, score {rating.score} "
                f"(hardest: {rating.hardest or 'none'}; guesses {rating.guesses})"
            )
            text = "\n".join(parts)
        elif self.fmt == "json":
            import json

            data = base.to_dict(outcome)
            data.update(
                rating.to_dict()
                if rating
                else dict.fromkeys(("level", "score", "hardest", "techniques", "solved_by_logic", "guesses"))
            )
            text = json.dumps(data, allow_nan=False)
        elif self.fmt == "csv":
            data = base.to_dict(outcome)
            extra = rating.to_dict() if rating else {}
            text = csv_row([data[k] for k in CSV_FIELDS] + [extra.get(k) for k in CSV_EXTRA])
        elif rating is None:
            text = rendered.text
        else:
            text = f"{outcome.puzzle_text}:{rating.level}:{rating.score}"
        return Rendered(rendered.index, rendered.status, text, rendered.messages, rendered.note, rendered.answer)

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

        ``grid`` is the record's puzzle (None: it does not parse), ``engines`` unused (rate runs backtrack).
        A line record is ``level:score`` or the status of a puzzle not rated; json and csv records are
        checked as ``sudoku solve``'s (:meth:`sudokit.output.RecordFormat.fits`) with the rating's fields.
        """
        from sudokit.output import CSV_FIELDS, RecordFormat

        if self.fmt == "line":
            answer = text[len(key[0]) + 1 :]
            level, sep, score = answer.partition(":")
            if sep and level in LEVELS and score.isdigit():
                return None
            if not sep and answer in _NOT_RATED:
                return None
            return f"{answer[:37]!r} is not a rating (level:score) nor the status of a puzzle not rated"
        base = RecordFormat(self.fmt)
        if self.fmt == "json":
            import json

            data = json.loads(text)
            missing = [k for k in _JSON_EXTRA if k not in data]
            if missing:
                return f"it has no {', '.join(missing)}: not a record of 'sudoku rate'"
            solve = {k: v for k, v in data.items() if k not in _JSON_EXTRA}
            return base.fits(json.dumps(solve), record, key, grid, box=box, strategy="backtrack")
        if self.fmt == "csv":
            import csv

            rows = list(csv.reader(text.splitlines(keepends=True)))
            if not rows or len(rows[0]) != len(CSV_FIELDS) + len(CSV_EXTRA):
                return "not a row of 'sudoku rate'"
            from sudokit.output import csv_row

            return base.fits(csv_row(rows[0][: len(CSV_FIELDS)]), record, key, grid, box=box, strategy="backtrack")
        return None


def _rated(outcome: Outcome) -> tuple[Rating | None, Outcome]:
    """A solved classic outcome's rating, and the outcome (``unsupported`` or ``error`` when it cannot be rated)."""
    from dataclasses import replace

    from sudokit.strategy import Status

    result, grid = outcome.result, outcome.grid
    if result is None or grid is None:
        return None, outcome
    if not grid.is_classic:
        why = f"rating handles classic puzzles only, not one with {', '.join(sorted(grid.kinds))} rules"
        return None, replace(outcome, result=replace(result, status=Status.UNSUPPORTED, error=why, solutions=()))
    if result.status is not Status.SOLVED:
        return None, outcome
    try:
        return _rate(grid, result)[1], outcome
    except ValueError as err:
        return None, replace(outcome, result=replace(result, status=Status.ERROR, error=f"cannot rate: {err}"))
