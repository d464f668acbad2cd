"""Engines broken in exactly the way one metamorphic check looks for: each keeps all but one symmetry.

Each answers every puzzle as ``Reference`` does, except the images, under one kind of transformation,
of the puzzles the metamorphic checks use (``checks_metamorphic.puzzles()``): those it miscounts by a
little, consistently with itself (one solution fewer, still "exact"; for a unique puzzle, a count not
exact). No shipped puzzle is such an image, so every correctness check passes, and the images under
the other kinds are answered right, so every other metamorphic check passes: only the one symmetry
is broken, as an engine with a bug in, say, its band handling would break it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from sudokit import Grid, Result
from sudokit.testing import corpus
from sudokit.testing.checks_metamorphic import puzzles
from sudokit.testing.transforms import transpose

from .base import Reference


def _rows(grid: Grid) -> list[tuple[int, ...]]:
    return [tuple(row) for row in grid.rows()]


def _relabelled(grid: Grid, original: Grid) -> bool:
    """Whether ``grid`` is ``original`` with its digits relabelled (by a bijection, blanks kept)."""
    forward: dict[int, int] = {}
    backward: dict[int, int] = {}
    for a, b in zip(original.cells, grid.cells, strict=True):
        if (a == 0) != (b == 0):
            return False
        if a and (forward.setdefault(a, b) != b or backward.setdefault(b, a) != a):
            return False
    return True


def _rows_in_bands_permuted(grid: Grid, original: Grid) -> bool:
    """Whether each band of ``grid`` holds the rows of the same band of ``original``, in some order."""
    height = grid.shape.box_rows
    mine, theirs = _rows(grid), _rows(original)
    return all(
        sorted(mine[top : top + height]) == sorted(theirs[top : top + height]) for top in range(0, grid.n, height)
    )


def _bands_permuted(grid: Grid, original: Grid) -> bool:
    """Whether the bands of ``grid`` are those of ``original``, in some order."""
    height = grid.shape.box_rows
    mine, theirs = _rows(grid), _rows(original)
    bands = [mine[top : top + height] for top in range(0, grid.n, height)]
    return sorted(bands) == sorted(theirs[top : top + height] for top in range(0, grid.n, height))


def _is_image(kind: str, grid: Grid, original: Grid) -> bool:
    """Whether ``grid`` is the image of ``original`` under a transformation of ``kind`` other than the identity."""
    if grid == original:
        return False
    if kind == "transpose":
        return grid == transpose(original)
    if grid.shape != original.shape:
        return False
    tests: dict[str, Callable[[Grid, Grid], bool]] = {
        "relabel_digits": _relabelled,
        "permute_rows_in_band": _rows_in_bands_permuted,
        "permute_bands": _bands_permuted,
        "permute_columns_in_stack": lambda g, o: _rows_in_bands_permuted(transpose(g), transpose(o)),
        "permute_stacks": lambda g, o: _bands_permuted(transpose(g), transpose(o)),
    }
    return tests[kind](grid, original)


class _Asymmetric(Reference):
    """Miscounts the images of the metamorphic checks' puzzles under transformations of ``kind`` only."""

    kind = ""

    def solve(
        self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> Result:
        """Reference's answer, a little wrong (consistently) on the images under ``kind``."""
        result = super().solve(puzzle, limit=limit, time_limit=time_limit, keep=keep)
        if not result.exact or not result.count or not self._is_target(puzzle):
            return result
        if result.count == 1:
            return replace(result, exact=False)  # a unique puzzle, now of undecided uniqueness
        return replace(result, count=result.count - 1, solutions=result.solutions[: result.count - 1])

    def _is_target(self, puzzle: Grid) -> bool:
        shipped = {k.puzzle for name in corpus.names() for k in corpus.load(name)}
        return puzzle not in shipped and any(_is_image(self.kind, puzzle, k.puzzle) for k in puzzles())


class BrokenRelabel(_Asymmetric):
    """Miscounts puzzles whose digits are relabelled: one solution fewer, or a unique one not exact."""

    name = "broken-relabel"
    kind = "relabel_digits"


class BrokenRowsInBand(_Asymmetric):
    """Miscounts puzzles whose rows are reordered within a band: one solution fewer, or a unique one not exact."""

    name = "broken-rows-in-band"
    kind = "permute_rows_in_band"


class BrokenBands(_Asymmetric):
    """Miscounts puzzles whose bands are reordered: one solution fewer, or a unique one not exact."""

    name = "broken-bands"
    kind = "permute_bands"


class BrokenColumnsInStack(_Asymmetric):
    """Miscounts puzzles whose columns are reordered within a stack: one solution fewer, or a unique one not exact."""

    name = "broken-columns-in-stack"
    kind = "permute_columns_in_stack"


class BrokenStacks(_Asymmetric):
    """Miscounts puzzles whose stacks are reordered: one solution fewer, or a unique one not exact."""

    name = "broken-stacks"
    kind = "permute_stacks"


class BrokenTranspose(_Asymmetric):
    """Miscounts transposed puzzles: one solution fewer, or a unique one not exact."""

    name = "broken-transpose"
    kind = "transpose"


class DropsSmallestSolution(Reference):
    """Counts one solution too few on every puzzle with several: it drops the smallest (as a line of digits).

    Not a check's own mutant (the correctness checks catch it on the shipped puzzles): a puzzle and its
    image lose solutions that do not correspond, with equal counts, so it shows that the metamorphic
    checks compare the solutions, not only the counts.
    """

    name = "broken-drops-smallest-solution"

    def solve(
        self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> Result:
        """Reference's answer without its smallest solution, when it found several and knows the count."""
        result = super().solve(puzzle, limit=limit, time_limit=time_limit, keep=keep)
        if not result.exact or result.count < 2 or len(result.solutions) < result.count:
            return result
        smallest = min(result.solutions, key=lambda g: g.cells)
        kept = tuple(s for s in result.solutions if s is not smallest)
        return replace(result, count=result.count - 1, solutions=kept)


MUTANTS: dict[str, object] = {
    "relabel_digits": BrokenRelabel(),
    "permute_rows_in_band": BrokenRowsInBand(),
    "permute_bands": BrokenBands(),
    "permute_columns_in_stack": BrokenColumnsInStack(),
    "permute_stacks": BrokenStacks(),
    "transpose": BrokenTranspose(),
}
