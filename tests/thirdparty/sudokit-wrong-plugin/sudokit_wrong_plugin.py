"""``wrong``: an engine that lies, for testing the cross-check and the conformance kit (sudokit's public API only)."""

from __future__ import annotations

from dataclasses import replace

from sudokit import Capabilities, Grid, Result, Status, solve


class WrongStrategy:
    """Solves with ``backtrack``, swaps two blank cells of one row, and reports that as the solution."""

    name = "wrong"
    description = "returns the solution with two cells of one row swapped, as solved (a test fixture)"
    #: Honest about one thing: it asks ``backtrack``, which takes boards up to 16x16 only.
    capabilities = Capabilities(max_side=16)

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        """A grid that is not a solution of ``puzzle``, claimed as its only solution."""
        right = solve(puzzle, "backtrack", time_limit=time_limit)
        if right.solution is None:
            return replace(right, strategy=self.name)
        n = puzzle.n
        cells = list(right.solution.cells)
        i, j = 0, 1  # with no row of two blanks, a given gets changed instead
        for r in range(n):
            blanks = [r * n + c for c in range(n) if not puzzle.cells[r * n + c]]
            if len(blanks) >= 2:
                i, j = blanks[:2]
                break
        cells[i], cells[j] = cells[j], cells[i]  # the row stays a permutation; two columns break
        wrong = Grid(cells, puzzle.shape, validate=False)
        return Result(Status.SOLVED, puzzle, self.name, (wrong,), count=1, exact=True, elapsed=right.elapsed)
