"""Checks of group shapes: every box shape an engine claims, on the kit's shipped puzzles of that shape.

Boxes of R rows x C columns make a board of side R*C: 2x2 (4x4), 2x3 and 3x2 (6x6), 2x4 (8x8), 3x3
(9x9), 3x4 (12x12), 4x4 (16x16), 5x5 (25x25). Each check skips when the engine does not claim its
shape (``Capabilities.max_side`` / ``box_shapes``), saying so. The puzzles are ``corpus.of_shape``'s
(``data/shapes.txt``), each with one solution; on boards up to ``PROVE_UP_TO`` the engine also
proves that with limit 2, where a board this size is cheap to search through.
"""

from __future__ import annotations

from sudokit.engines.strategy import Status
from sudokit.model.grid import Grid
from sudokit.model.shape import Shape
from sudokit.testing import corpus
from sudokit.testing._kit import Subject, check, shown_status

__all__: list[str] = []

#: The largest board side on which the checks ask for limit 2 (uniqueness proved), when the engine counts.
PROVE_UP_TO = 12


@check("shapes")
def box_2x2(subject: Subject) -> None:
    """An engine claiming 4x4 boards of 2x2 boxes solves each shipped one to its one solution, and with limit 2
    proves it unique."""
    _solves_shape(subject, Shape.of(2, 2))


@check("shapes")
def box_2x3(subject: Subject) -> None:
    """An engine claiming 6x6 boards of 2x3 boxes (2 rows x 3 columns) solves each shipped one to its one solution,
    and with limit 2 proves it unique."""
    _solves_shape(subject, Shape.of(2, 3))


@check("shapes")
def box_3x2(subject: Subject) -> None:
    """An engine claiming 6x6 boards of 3x2 boxes (3 rows x 2 columns) solves each shipped one to its one solution,
    and with limit 2 proves it unique."""
    _solves_shape(subject, Shape.of(3, 2))


@check("shapes")
def box_2x4(subject: Subject) -> None:
    """An engine claiming 8x8 boards of 2x4 boxes solves each shipped one to its one solution, and with limit 2
    proves it unique."""
    _solves_shape(subject, Shape.of(2, 4))


@check("shapes")
def box_3x3(subject: Subject) -> None:
    """An engine claiming 9x9 boards of 3x3 boxes solves each shipped one of the shapes set to its one solution, and
    with limit 2 proves it unique."""
    _solves_shape(subject, Shape.of(3, 3))


@check("shapes")
def box_3x4(subject: Subject) -> None:
    """An engine claiming 12x12 boards of 3x4 boxes (digits A, B, C past 9) solves each shipped one to its one
    solution, and with limit 2 proves it unique."""
    _solves_shape(subject, Shape.of(3, 4))


@check("shapes")
def box_4x4(subject: Subject) -> None:
    """An engine claiming 16x16 boards of 4x4 boxes solves each shipped one to its one solution."""
    _solves_shape(subject, Shape.of(4, 4))


@check("shapes")
def box_5x5(subject: Subject) -> None:
    """An engine claiming 25x25 boards of 5x5 boxes solves the shipped one to its one solution."""
    _solves_shape(subject, Shape.of(5, 5))


def _solves_shape(subject: Subject, shape: Shape) -> None:
    """Every shipped puzzle of ``shape`` solved to its known solution; unique proved on boards up to PROVE_UP_TO."""
    subject.require_shape(shape)
    prove = shape.n <= PROVE_UP_TO and subject.capabilities.counting
    limit = 2 if prove else 1
    article = "an" if str(shape.n).startswith("8") or shape.n in (11, 18) else "a"
    board = f"{article} {shape.n}x{shape.n} puzzle of {shape} boxes"
    for known in corpus.of_shape(shape):
        result = subject.solve(known.puzzle, limit=limit)
        if result.status is not Status.SOLVED:
            got, error = shown_status(result.status), f" ({result.error})" if result.error else ""
            subject.fail(
                f"returned status {got}{error} with count {result.count!r}; expected solved ({board} with one "
                f"solution: {known.where})",
                known.puzzle,
            )
        subject.consistent(result, known.puzzle, limit=limit, suffix=f" ({board})")
        if result.solution != known.solution:
            subject.fail(
                f"returned the solution {_line(result.solution)}; expected {_line(known.solution)} "
                f"({board}: {known.where})",
                known.puzzle,
            )
        if prove and (result.count, result.exact) != (1, True):
            subject.fail(
                f"with limit 2: count {result.count}, exact {result.exact}; expected count 1, exact True ({board} "
                f"with one solution: {known.where})",
                known.puzzle,
            )


def _line(grid: object) -> str:
    return grid.to_line() if isinstance(grid, Grid) else repr(grid)
