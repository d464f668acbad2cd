"""Checks of group metamorphic: a puzzle and an equivalent one get the same count and corresponding solutions.

Each check maps a few shipped puzzles (a unique 9x9, a 9x9 with 11 solutions, a unique 2x3 board when
the engine claims 2x3 boxes) by seeded transformations of one kind (``sudokit.testing.transforms``)
and asks the engine for both: with a limit above the known count the counts must agree and be exact,
and the transformed puzzle's solutions must be exactly the images of the original's. An engine that
does not claim counting is asked for one solution of the unique puzzles only, which must correspond.
"""

from __future__ import annotations

import random

from sudokit.model.grid import Grid
from sudokit.model.shape import Shape
from sudokit.testing import corpus
from sudokit.testing._kit import Subject, check
from sudokit.testing.transforms import Transform, random_transform

__all__ = ["puzzles"]

#: How many solutions of a set the failure message shows.
_SHOWN = 2


def puzzles() -> tuple[corpus.Known, ...]:
    """The puzzles the metamorphic checks transform: a unique 9x9, a 9x9 with 11 solutions, a unique 2x3 board."""
    unique = corpus.load("unique")[1]
    multi = next(k for k in corpus.load("multi") if 8 <= k.count <= 20)
    small = corpus.of_shape(Shape.of(2, 3))[0]
    return (unique, multi, small)


def _metamorphic(subject: Subject, kind: str) -> None:
    """Compare the engine's answers for each puzzle and its image under a seeded transformation of ``kind``."""
    rng = random.Random(kind)
    caps = subject.capabilities
    tried = 0
    for known in puzzles():
        shape = known.puzzle.shape
        transform = random_transform(kind, shape, rng)
        image_shape = Shape.of(shape.box_cols, shape.box_rows) if kind == "transpose" else shape
        if not caps.supports(shape) or not caps.supports(image_shape):
            continue
        if not caps.counting and known.count != 1:
            continue
        tried += 1
        _compare(subject, known, transform)
    if not tried:
        boards = "3x3 or 2x3 boxes (and for transpose, 3x2 too)"
        subject.skip(f"claims none of the boards these checks transform ({boards})")


def _compare(subject: Subject, known: corpus.Known, transform: Transform) -> None:
    """The engine's answers for ``known.puzzle`` and its image under ``transform`` must correspond; else fail."""
    puzzle = known.puzzle
    image = transform.apply(puzzle)
    limit = known.count + 1 if subject.capabilities.counting else 1
    original = subject.answer(puzzle, limit=limit)
    mapped = subject.answer(image, limit=limit)
    where = f"{transform} maps the puzzle to {image.to_line()}; with limit {limit}"
    if (original.count, original.exact) != (mapped.count, mapped.exact):
        subject.fail(
            f"{where} the puzzle has count {original.count} (exact {original.exact}), "
            f"its image count {mapped.count} (exact {mapped.exact}); expected the same count and exactness",
            puzzle,
        )
    expected = {transform.apply(s) for s in original.solutions}
    got = set(mapped.solutions)
    if expected != got:
        missing = _lines(expected - got)
        extra = _lines(got - expected)
        subject.fail(
            f"{where} the images of the puzzle's {_solutions(len(expected))} are not the image's "
            f"{_solutions(len(got))}: {len(expected - got)} missing ({missing}), {len(got - expected)} not expected "
            f"({extra}); the puzzle's solutions ({_lines(set(original.solutions))})",
            puzzle,
        )


def _lines(grids: set[Grid]) -> str:
    shown = sorted(g.to_line() for g in grids)
    more = f", and {len(shown) - _SHOWN} more" if len(shown) > _SHOWN else ""
    return ", ".join(shown[:_SHOWN]) + more if shown else "none"


def _solutions(k: int) -> str:
    return f"{k} solution" if k == 1 else f"{k} solutions"


@check("metamorphic")
def relabel_digits(subject: Subject) -> None:
    """Relabelling the digits (a permutation of 1..n) keeps the count, and the solutions are the relabelled ones.

    On a unique 9x9, a 9x9 with 11 solutions and a 2x3 board (where claimed), each with a seeded mapping;
    asked with a limit above the count, so that both counts are exact.
    """
    _metamorphic(subject, "relabel_digits")


@check("metamorphic")
def permute_rows_in_band(subject: Subject) -> None:
    """Reordering the rows within a band keeps the count, and the solutions are reordered alike.

    On a unique 9x9, a 9x9 with 11 solutions and a 2x3 board (where claimed), each with a seeded band and order.
    """
    _metamorphic(subject, "permute_rows_in_band")


@check("metamorphic")
def permute_bands(subject: Subject) -> None:
    """Reordering the bands (rows of boxes) keeps the count, and the solutions are reordered alike.

    On a unique 9x9, a 9x9 with 11 solutions and a 2x3 board (where claimed), each with a seeded order.
    """
    _metamorphic(subject, "permute_bands")


@check("metamorphic")
def permute_columns_in_stack(subject: Subject) -> None:
    """Reordering the columns within a stack keeps the count, and the solutions are reordered alike.

    On a unique 9x9, a 9x9 with 11 solutions and a 2x3 board (where claimed), each with a seeded stack and order.
    """
    _metamorphic(subject, "permute_columns_in_stack")


@check("metamorphic")
def permute_stacks(subject: Subject) -> None:
    """Reordering the stacks (columns of boxes) keeps the count, and the solutions are reordered alike.

    On a unique 9x9, a 9x9 with 11 solutions and a 2x3 board (where claimed), each with a seeded order.
    """
    _metamorphic(subject, "permute_stacks")


@check("metamorphic")
def transpose(subject: Subject) -> None:
    """Transposing (RxC boxes become CxR) keeps the count, and the solutions are the transposed ones.

    On a unique 9x9, a 9x9 with 11 solutions, and a 2x3 board where both 2x3 and 3x2 boxes are claimed.
    """
    _metamorphic(subject, "transpose")
