"""Checks of group corpus: answers known in advance, on the 9x9 puzzles the kit ships (``sudokit.testing.corpus``).

Unique puzzles and their solutions, puzzles with several solutions and their exact counts, puzzles
with none (sorted by what it takes to see that), a solved grid, a grid one digit short, and empty
boards, whose counts are known without a data file.
"""

from __future__ import annotations

from sudokit.engines.strategy import Result, Status
from sudokit.model.grid import Grid
from sudokit.model.shape import Shape
from sudokit.testing import corpus
from sudokit.testing._kit import Subject, check, shown_status

__all__: list[str] = []

NINE = Shape.of(3, 3)
FOUR = Shape.of(2, 2)
#: The empty 4x4 board's number of solutions (4! * 12: the first row fixed, 12 ways to finish).
EMPTY_4X4_SOLUTIONS = 288
#: The limit the empty 9x9 board and the puzzle of hundreds of solutions are counted to.
MANY = 100


# --- unique puzzles -----------------------------------------------------------------------------


@check("corpus")
def solves_unique_corpus(subject: Subject) -> None:
    """Each shipped unique 9x9 puzzle (easy to hard, LeetCode 37's board first), asked for one solution, is solved to
    its one known solution."""
    subject.require_shape(NINE)
    for known in corpus.load("unique"):
        _solved_as(subject, known, limit=1)


@check("corpus")
def proves_unique_corpus(subject: Subject) -> None:
    """With limit 2, each shipped unique 9x9 puzzle gives count 1, exact True (uniqueness proved) and its known
    solution."""
    subject.require_shape(NINE)
    subject.require_counting()
    for known in corpus.load("unique"):
        result = _solved_as(subject, known, limit=2)
        if (result.count, result.exact) != (1, True):
            subject.fail(
                f"with limit 2: count {result.count}, exact {result.exact}; expected count 1, exact True "
                f"(it has exactly one solution: {known.where})",
                known.puzzle,
            )


@check("corpus")
def solves_seventeen_clue(subject: Subject) -> None:
    """Each shipped 17-clue puzzle (the fewest givens a unique 9x9 puzzle can have) is solved to its known
    solution."""
    subject.require_shape(NINE)
    for known in corpus.load("seventeen"):
        _solved_as(subject, known, limit=1)


# --- several solutions -----------------------------------------------------------------------------


@check("corpus")
def counts_multi_solution(subject: Subject) -> None:
    """Each shipped 9x9 puzzle with several solutions (2 to several hundred), counted with limit count + 1, gives
    its exact count with exact True."""
    subject.require_shape(NINE)
    subject.require_counting()
    for known in corpus.load("multi"):
        limit = known.count + 1
        result = _expect_status(subject, known.puzzle, limit=limit, keep=1, status=Status.SOLVED, why=known.where)
        if (result.count, result.exact) != (known.count, True):
            subject.fail(
                f"with limit {limit}: count {result.count}, exact {result.exact}; expected count {known.count}, "
                f"exact True ({known.where})",
                known.puzzle,
            )


@check("corpus")
def stops_at_limit_on_many_solutions(subject: Subject) -> None:
    """A puzzle of several hundred solutions, counted with limit 100, gives count 100 with exact False: the count
    stops at the limit and does not claim to be the true number."""
    subject.require_shape(NINE)
    subject.require_counting()
    known = next(k for k in corpus.load("multi") if k.count >= 3 * MANY)
    result = _expect_status(subject, known.puzzle, limit=MANY, keep=1, status=Status.SOLVED, why=known.where)
    if (result.count, result.exact) != (MANY, False):
        subject.fail(
            f"with limit {MANY}: count {result.count}, exact {result.exact}; expected count {MANY}, exact False "
            f"(it has {known.count} solutions: {known.where})",
            known.puzzle,
        )


# --- no solution ----------------------------------------------------------------------------------------


@check("corpus")
def unsolvable_at_a_glance(subject: Subject) -> None:
    """Each shipped puzzle whose givens alone leave a blank cell no digit, or a digit no place in a unit, gives
    status unsolvable, count 0, exact True."""
    _unsolvable(subject, "glance", "the givens alone leave a cell no digit or a digit no place in a unit")


@check("corpus")
def unsolvable_after_propagation(subject: Subject) -> None:
    """Each shipped puzzle with no solution where nothing shows at a glance but naked and hidden singles reach a
    contradiction gives status unsolvable, count 0, exact True."""
    _unsolvable(subject, "propagation", "naked and hidden singles reach a contradiction")


@check("corpus")
def unsolvable_needs_search(subject: Subject) -> None:
    """Each shipped puzzle with no solution where singles stall without a contradiction (only a search proves it)
    gives status unsolvable, count 0, exact True."""
    _unsolvable(subject, "search", "only a search proves it: singles stall without a contradiction")


def _unsolvable(subject: Subject, kind: str, why: str) -> None:
    subject.require_shape(NINE)
    for known in corpus.load(f"unsolvable_{kind}"):
        _expect_status(subject, known.puzzle, limit=1, status=Status.UNSOLVABLE, why=f"{why}: {known.where}")


# --- solved, nearly solved and empty boards ------------------------------------------------------------------


@check("corpus")
def solved_grid_is_its_own_solution(subject: Subject) -> None:
    """A complete, valid grid given as the puzzle is solved, its solution the grid itself; with limit 2, count 1 and
    exact True."""
    subject.require_shape(NINE)
    grid = _solution(0)
    limit = 2 if subject.capabilities.counting else 1
    result = _expect_status(subject, grid, limit=limit, status=Status.SOLVED, why="the puzzle is already solved")
    if result.solution != grid:
        subject.fail(f"returned the solution {_line(result.solution)}; expected the puzzle itself", grid)
    if limit == 2 and (result.count, result.exact) != (1, True):
        subject.fail(f"with limit 2: count {result.count}, exact {result.exact}; expected count 1, exact True", grid)


@check("corpus")
def one_blank_filled(subject: Subject) -> None:
    """A solved grid with one cell blanked (first, centre, last) is solved with the missing digit in that cell; with
    limit 2, count 1 and exact True."""
    subject.require_shape(NINE)
    limit = 2 if subject.capabilities.counting else 1
    solution = _solution(0)
    n = solution.n
    for i in (0, solution.shape.size // 2, solution.shape.size - 1):
        cells = list(solution.cells)
        cells[i] = 0
        puzzle = Grid(cells, solution.shape)
        result = subject.solve(puzzle, limit=limit)
        found = result.solution if result.status is Status.SOLVED else None
        got = found.cells[i] if isinstance(found, Grid) and len(found.cells) == len(cells) else None
        if found is not None and got != solution.cells[i]:
            subject.fail(
                f"filled row {i // n + 1}, column {i % n + 1} with {got!r}; expected {solution.cells[i]}, the one "
                f"digit its row, column and box miss",
                puzzle,
            )
        _check_status(subject, result, puzzle, limit=limit, status=Status.SOLVED, why="one cell is blank")
        if limit == 2 and (result.count, result.exact) != (1, True):
            subject.fail(
                f"with limit 2: count {result.count}, exact {result.exact}; expected count 1, exact True", puzzle
            )


@check("corpus")
def empty_grid_counted_to_limit(subject: Subject) -> None:
    """The empty 9x9 board, counted with limit 100, gives count 100 with exact False and 100 distinct valid
    solutions."""
    subject.require_shape(NINE)
    subject.require_counting()
    empty = Grid.empty(NINE)
    why = "the empty board has about 6.7e21 solutions"
    # keep is not given: every solution found comes back, and result_problem sees that each is valid and distinct
    result = _expect_status(subject, empty, limit=MANY, status=Status.SOLVED, why=why)
    if (result.count, result.exact) != (MANY, False):
        subject.fail(
            f"with limit {MANY}: count {result.count}, exact {result.exact}; expected count {MANY}, "
            f"exact False ({why})",
            empty,
        )


@check("corpus")
def empty_4x4_counted_exactly(subject: Subject) -> None:
    """The empty 4x4 board (2x2 boxes), counted with limit 300, gives count 288 with exact True: every solution
    found and counted once."""
    subject.require_shape(FOUR)
    subject.require_counting()
    empty = Grid.empty(FOUR)
    limit = 300
    result = _expect_status(subject, empty, limit=limit, keep=1, status=Status.SOLVED, why="it has 288 solutions")
    if (result.count, result.exact) != (EMPTY_4X4_SOLUTIONS, True):
        subject.fail(
            f"with limit {limit}: count {result.count}, exact {result.exact}; expected count {EMPTY_4X4_SOLUTIONS}, "
            f"exact True (the empty 4x4 board has exactly {EMPTY_4X4_SOLUTIONS} solutions)",
            empty,
        )


# --- helpers ------------------------------------------------------------------------------------------------


def _solution(k: int) -> Grid:
    """The solution of the ``k``-th shipped unique puzzle."""
    solution = corpus.load("unique")[k].solution
    assert solution is not None
    return solution


def _solved_as(subject: Subject, known: corpus.Known, *, limit: int) -> Result:
    """The engine's answer for ``known.puzzle``: solved, consistent, and its solution the known one; else fail."""
    result = _expect_status(
        subject, known.puzzle, limit=limit, status=Status.SOLVED, why=f"it has one solution: {known.where}"
    )
    if result.solution != known.solution:
        subject.fail(
            f"returned the solution {_line(result.solution)}; expected {_line(known.solution)} ({known.where})",
            known.puzzle,
        )
    return result


def _expect_status(
    subject: Subject, puzzle: Grid, *, limit: int, status: Status, why: str, keep: int | None = None
) -> Result:
    """The engine's answer for ``puzzle``, which must have ``status`` (``why``) and be consistent; else fail."""
    result = subject.solve(puzzle, limit=limit, keep=keep)
    _check_status(subject, result, puzzle, limit=limit, status=status, why=why, keep=keep)
    return result


def _check_status(
    subject: Subject, result: Result, puzzle: Grid, *, limit: int, status: Status, why: str, keep: int | None = None
) -> None:
    """Fail unless ``result`` has ``status`` and is a consistent answer (``result_problem``) for ``puzzle``."""
    if result.status is not status:
        got, error = shown_status(result.status), f" ({result.error})" if result.error else ""
        subject.fail(
            f"returned status {got}{error} with count {result.count!r}, exact {result.exact!r}; expected "
            f"{status.value}{', count 0, exact True' if status is Status.UNSOLVABLE else ''} ({why})",
            puzzle,
        )
    subject.consistent(result, puzzle, limit=limit, keep=keep)


def _line(grid: Grid | None) -> str:
    return "none" if grid is None else grid.to_line()
