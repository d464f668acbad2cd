"""Engines that forge a ``solved`` answer past the check, for the trust tests: each prints a wrong grid if it can.

Each has a ``solve`` (the one-puzzle path) and a ``solve_many`` (the batch path) that lie the same way;
the grid they want printed is the right solution with the first two cells of its first row swapped,
which is never a solution. ``Impostor`` and ``HugeElapsed`` answer right, but with a false name and an
absurd time.
"""

from __future__ import annotations

import array
from dataclasses import replace
from typing import Any

import sudokit.engines.api
import sudokit.engines.verify
from sudokit import Grid, ManyResults, Result, Shape
from tests.plugins.many import Batched


def swapped(cells: tuple[int, ...] | bytes) -> tuple[int, ...]:
    """``cells`` with its first two swapped: what a forger wants printed (never a solution)."""
    out = list(cells)
    out[0], out[1] = out[1], out[0]
    return tuple(out)


class _Forger(Batched):
    name = "forger"
    description = "a test double of a plugin that forges its answers"


class LyingGrid(Grid):
    """A grid whose cells are a true solution, but whose every printed form (and pickle) is the wrong one."""

    __slots__ = ("wrong",)

    def __init__(self, cells: tuple[int, ...], shape: Shape, wrong: tuple[int, ...]) -> None:
        super().__init__(cells, shape, validate=False)
        object.__setattr__(self, "wrong", wrong)

    def _lie(self) -> Grid:
        return Grid(self.wrong, self.shape, validate=False)

    def to_line(self) -> str:
        return self._lie().to_line()

    def to_pretty(self, **options: Any) -> str:
        return self._lie().to_pretty(**options)

    def to_json(self) -> str:
        return self._lie().to_json()

    def rows(self) -> list[list[int]]:
        return self._lie().rows()

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.wrong)

    def __getitem__(self, key: Any) -> int:
        return self._lie()[key]

    def __reduce__(self) -> tuple[object, ...]:
        return (Grid, (self.wrong, self.shape), None)


class LiesInPrint(_Forger):
    """Returns the true solution as a ``LyingGrid``: checked by its cells, printed by its methods."""

    name = "lies-in-print"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None):  # type: ignore[no-untyped-def]
        right = super().solve(puzzle, limit=limit, time_limit=time_limit)
        grids = tuple(LyingGrid(g.cells, g.shape, swapped(g.cells)) for g in right.solutions)
        return replace(right, solutions=grids)


class Shifty(tuple):  # type: ignore[type-arg]
    """Solutions that iterate as the true grids the first time, and as the wrong ones ever after."""

    def __new__(cls, real: tuple[Grid, ...], fake: tuple[Grid, ...]) -> Shifty:
        self = super().__new__(cls, real)
        self.fake = fake
        self.reads = 0
        return self

    def __iter__(self):  # type: ignore[no-untyped-def]
        self.reads += 1
        return tuple.__iter__(self) if self.reads == 1 else iter(self.fake)

    def __getitem__(self, key: Any) -> Any:
        return self.fake[key]

    def __reduce__(self) -> tuple[object, ...]:
        return (tuple, (self.fake,))


class ShiftySolutions(_Forger):
    """Returns its solutions as a ``Shifty``: the check reads the true ones, later readers the wrong ones."""

    name = "shifty-solutions"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None):  # type: ignore[no-untyped-def]
        right = super().solve(puzzle, limit=limit, time_limit=time_limit)
        fake = tuple(Grid(swapped(g.cells), g.shape, validate=False) for g in right.solutions)
        return replace(right, solutions=Shifty(right.solutions, fake))


def _no_problem(*args: object, **kwargs: object) -> None:
    return None


class PatchesTheCheck(_Forger):
    """Replaces sudokit's check in its own process with one that passes everything, then answers wrong."""

    name = "patches-the-check"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None):  # type: ignore[no-untyped-def]
        sudokit.engines.api.result_problem = _no_problem  # type: ignore[assignment]
        sudokit.engines.verify.result_problem = _no_problem  # type: ignore[assignment]
        right = super().solve(puzzle, limit=limit, time_limit=time_limit)
        return replace(right, solutions=tuple(Grid(swapped(g.cells), g.shape, validate=False) for g in right.solutions))

    def solve_many(self, cells: memoryview, shape: Shape, **options: Any) -> ManyResults:  # type: ignore[override]
        sudokit.engines.verify.verify_many = lambda cells, solutions, k, shape: [True] * k  # type: ignore[assignment]
        sudokit.engines.verify.result_problem = _no_problem  # type: ignore[assignment]
        return super().solve_many(cells, shape, **options)  # each puzzle's answer from solve(): a wrong grid


class Impostor(_Forger):
    """Answers right, but calls itself ``backtrack``: in its name and in every result's ``strategy``."""

    name = "backtrack"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        return replace(super().solve(puzzle, limit=limit, time_limit=time_limit), strategy="backtrack")


class HugeElapsed(_Forger):
    """Answers right, but says each solve took 1e308 seconds (finite, and still no time at all)."""

    name = "huge-elapsed"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        return replace(super().solve(puzzle, limit=limit, time_limit=time_limit), elapsed=1e308)

    def solve_many(self, cells: memoryview, shape: Shape, **options: Any) -> ManyResults:  # type: ignore[override]
        result = super().solve_many(cells, shape, **options)
        k = len(result.status)
        return replace(result, elapsed=array.array("d", [1e308] * k))


class Endless(list):  # type: ignore[type-arg]
    """Cells whose iteration never ends (it gives up, with an error, after a million values)."""

    def __iter__(self):  # type: ignore[no-untyped-def]
        for k in range(10**6):
            yield k % 9 + 1
        raise RuntimeError("iterated a million values")


_CELLS = Grid.__dict__["cells"]  # the slot where a Grid keeps its cells


def _endless(grid: Grid) -> Endless:
    return Endless(_CELLS.__get__(grid))


class EndlessGrid(Grid):
    """A grid whose ``cells`` are ``Endless``: its own storage holds the true solution."""

    __slots__ = ()
    cells = property(_endless, _CELLS.__set__)  # type: ignore[assignment]


class EndlessCells(_Forger):
    """Answers right, but each solution's cells iterate without end."""

    name = "endless-cells"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None):  # type: ignore[no-untyped-def]
        right = super().solve(puzzle, limit=limit, time_limit=time_limit)
        return replace(right, solutions=tuple(EndlessGrid(g.cells, g.shape, validate=False) for g in right.solutions))
