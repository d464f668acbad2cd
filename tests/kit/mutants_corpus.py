"""Engines broken in exactly the way one check of group corpus or shapes looks for: ``MUTANTS`` maps the check to one.

Each is ``Reference`` (backtrack, renamed) with one thing wrong, and only where that check looks (a
kind of puzzle, a limit, a board shape), so that it fails its own check and as few others as can be.
Where a mutant needs to know how hard a puzzle is, it asks ``sudokit.testing.corpus``'s singles.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sudokit import Capabilities, Grid, Result, Shape, Status
from sudokit.testing import corpus
from tests.kit.base import Reference

NINE = Shape.of(3, 3)


def _blanks(puzzle: Grid) -> int:
    return puzzle.shape.size - puzzle.count_givens()


# --- group corpus ------------------------------------------------------------------------------------


class GivesUpWithoutLogic(Reference):
    """Asked for one solution of a 9x9 puzzle of 18+ givens, tries singles only, and calls a puzzle they do not
    finish unsolvable."""

    name = "broken-gives-up-without-logic"

    def solve(self, puzzle: Grid, *, limit: int = 1, **kwargs: Any) -> Result:
        logic_only = limit == 1 and puzzle.shape == NINE and puzzle.count_givens() >= 18
        if logic_only and not corpus.propagate_singles(puzzle).grid.is_complete():
            return Result(Status.UNSOLVABLE, puzzle, self.name, exact=True)
        return super().solve(puzzle, limit=limit, **kwargs)


class NeverProvesUnique(Reference):
    """On a 9x9 puzzle with blanks to search, stops at the first solution with limit 2 and says exact False."""

    name = "broken-never-proves-unique"

    def solve(self, puzzle: Grid, *, limit: int = 1, **kwargs: Any) -> Result:
        result = super().solve(puzzle, limit=limit, **kwargs)
        if limit == 2 and puzzle.shape == NINE and _blanks(puzzle) > 1 and (result.count, result.exact) == (1, True):
            return replace(result, exact=False)
        return result


class RejectsSeventeenClues(Reference):
    """Holds that a proper 9x9 puzzle has at least 18 givens, and calls one of 1 to 17 givens unsolvable."""

    name = "broken-rejects-seventeen-clues"

    def solve(self, puzzle: Grid, *, limit: int = 1, **kwargs: Any) -> Result:
        if puzzle.shape == NINE and 0 < puzzle.count_givens() < 18:
            return Result(Status.UNSOLVABLE, puzzle, self.name, exact=True)
        return super().solve(puzzle, limit=limit, **kwargs)


class CountsOneShort(Reference):
    """Loses the last solution of a 9x9 search it finishes: an exact count of several is one short."""

    name = "broken-counts-one-short"

    def solve(self, puzzle: Grid, **kwargs: Any) -> Result:
        result = super().solve(puzzle, **kwargs)
        if puzzle.shape == NINE and result.exact and result.count >= 2:
            kept = result.solutions[: result.count - 1]
            return replace(result, count=result.count - 1, solutions=kept)
        return result


class ExactAtTheLimit(Reference):
    """Says exact True when its count of a puzzle with givens stops at the limit (above 2), as if it had finished."""

    name = "broken-exact-at-the-limit"

    def solve(self, puzzle: Grid, *, limit: int = 1, **kwargs: Any) -> Result:
        result = super().solve(puzzle, limit=limit, **kwargs)
        if limit > 2 and puzzle.count_givens() and result.count == limit and not result.exact:
            return replace(result, exact=True)
        return result


class CrashesOnDeadGivens(Reference):
    """Raises when its first candidate table, from the givens alone, has a cell with no digit or a digit with no
    place."""

    name = "broken-crashes-on-dead-givens"

    def solve(self, puzzle: Grid, **kwargs: Any) -> Result:
        problem = corpus.contradiction_at_a_glance(puzzle)
        if problem is not None:
            raise ValueError(f"bad candidate table: {problem}")
        return super().solve(puzzle, **kwargs)


class PropagationError(Reference):
    """Treats a contradiction its own singles reach (none at a glance) as an internal error: status error."""

    name = "broken-propagation-error"

    def solve(self, puzzle: Grid, **kwargs: Any) -> Result:
        if corpus.contradiction_at_a_glance(puzzle) is None:
            problem = corpus.propagate_singles(puzzle).contradiction
            if problem is not None:
                return Result(Status.ERROR, puzzle, self.name, error=f"propagation broke the grid: {problem}")
        return super().solve(puzzle, **kwargs)


class SearchRunsDry(Reference):
    """Proves no solution only by propagation: when its search runs out of branches, it reports timeout."""

    name = "broken-search-runs-dry"

    def solve(self, puzzle: Grid, **kwargs: Any) -> Result:
        result = super().solve(puzzle, **kwargs)
        if result.status is Status.UNSOLVABLE and corpus.propagate_singles(puzzle).contradiction is None:
            return replace(result, status=Status.TIMEOUT, exact=False)
        return result


class NeedsABlank(Reference):
    """Records a solution only after placing a digit: a complete grid is found unsolvable."""

    name = "broken-needs-a-blank"

    def solve(self, puzzle: Grid, **kwargs: Any) -> Result:
        if puzzle.is_complete():
            return Result(Status.UNSOLVABLE, puzzle, self.name, exact=True)
        return super().solve(puzzle, **kwargs)


class LastBlankOffByOne(Reference):
    """Fills a lone blank by a shortcut that is off by one: the digit after the missing one (n wraps to 1)."""

    name = "broken-last-blank-off-by-one"

    def solve(self, puzzle: Grid, **kwargs: Any) -> Result:
        result = super().solve(puzzle, **kwargs)
        if _blanks(puzzle) == 1 and result.solution is not None:
            i = puzzle.cells.index(0)
            cells = list(result.solution.cells)
            cells[i] = cells[i] % puzzle.n + 1
            return replace(result, solutions=(Grid(cells, puzzle.shape, validate=False),))
        return result


class CopiesOnEmptyBoards(Reference):
    """Counting an empty 9x9 board, finds one solution and returns it as every solution up to the limit."""

    name = "broken-copies-on-empty-boards"

    def solve(self, puzzle: Grid, *, limit: int = 1, keep: int | None = None, **kwargs: Any) -> Result:
        if puzzle.count_givens() or puzzle.shape != NINE or limit < 2:
            return super().solve(puzzle, limit=limit, keep=keep, **kwargs)
        result = super().solve(puzzle, limit=1, **kwargs)
        kept = limit if keep is None else min(keep, limit)
        return replace(result, count=limit, solutions=result.solutions * kept, exact=False)


class FixesFirstRow(Reference):
    """Breaks symmetry on an empty board by fixing its first row to 1..n, and so counts it up to relabelling."""

    name = "broken-fixes-first-row"

    def solve(self, puzzle: Grid, **kwargs: Any) -> Result:
        if puzzle.count_givens():
            return super().solve(puzzle, **kwargs)
        n = puzzle.n
        fixed = Grid([*range(1, n + 1), *puzzle.cells[n:]], puzzle.shape)
        return replace(super().solve(fixed, **kwargs), puzzle=puzzle)


# --- group shapes --------------------------------------------------------------------------------------


class IgnoresBoxes(Reference):
    """Claims boards of one box shape, but on them keeps only rows and columns distinct (a Latin square)."""

    def __init__(self, shape: Shape) -> None:
        super().__init__()
        self.shape = shape
        self.name = f"broken-ignores-{shape}-boxes"

    def solve(self, puzzle: Grid, *, limit: int = 1, keep: int | None = None, **kwargs: Any) -> Result:
        if puzzle.shape != self.shape:
            return super().solve(puzzle, limit=limit, keep=keep, **kwargs)
        found = _latin(puzzle, limit)
        kept = tuple(found[: limit if keep is None else keep])
        status = Status.SOLVED if found else Status.UNSOLVABLE
        return Result(status, puzzle, self.name, kept, len(found), exact=len(found) < limit)


def _latin(puzzle: Grid, limit: int) -> list[Grid]:
    """Up to ``limit`` completions of ``puzzle`` with every row and column distinct (boxes ignored)."""
    n = puzzle.n
    cells = list(puzzle.cells)
    rows = [0] * n
    cols = [0] * n
    for i, v in enumerate(cells):
        if v:
            rows[i // n] |= 1 << v
            cols[i % n] |= 1 << v
    found: list[Grid] = []

    def fill() -> None:
        best, best_free = -1, []
        for i, v in enumerate(cells):
            if not v:
                used = rows[i // n] | cols[i % n]
                free = [d for d in range(1, n + 1) if not used >> d & 1]
                if best < 0 or len(free) < len(best_free):
                    best, best_free = i, free
                    if len(free) < 2:
                        break
        if best < 0:
            found.append(Grid(cells, puzzle.shape, validate=False))
            return
        r, c = divmod(best, n)
        for d in best_free:
            cells[best] = d
            rows[r] |= 1 << d
            cols[c] |= 1 << d
            fill()
            rows[r] &= ~(1 << d)
            cols[c] &= ~(1 << d)
            if len(found) >= limit:
                break
        cells[best] = 0

    fill()
    return found


class ClaimsTooBig(Reference):
    """Claims boards up to 25x25, but its search gives up on one larger than 16x16 at once: status timeout."""

    name = "broken-claims-too-big"
    capabilities = Capabilities(max_side=25)

    def solve(self, puzzle: Grid, **kwargs: Any) -> Result:
        if puzzle.n > 16:
            return Result(Status.TIMEOUT, puzzle, self.name, exact=False)
        return super().solve(puzzle, **kwargs)


MUTANTS: dict[str, object] = {
    "solves_unique_corpus": GivesUpWithoutLogic(),
    "proves_unique_corpus": NeverProvesUnique(),
    "solves_seventeen_clue": RejectsSeventeenClues(),
    "counts_multi_solution": CountsOneShort(),
    "stops_at_limit_on_many_solutions": ExactAtTheLimit(),
    "unsolvable_at_a_glance": CrashesOnDeadGivens(),
    "unsolvable_after_propagation": PropagationError(),
    "unsolvable_needs_search": SearchRunsDry(),
    "solved_grid_is_its_own_solution": NeedsABlank(),
    "one_blank_filled": LastBlankOffByOne(),
    "empty_grid_counted_to_limit": CopiesOnEmptyBoards(),
    "empty_4x4_counted_exactly": FixesFirstRow(),
    **{
        f"box_{r}x{c}": IgnoresBoxes(Shape.of(r, c))
        for r, c in ((2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (3, 4), (4, 4))
    },
    "box_5x5": ClaimsTooBig(),
}
