"""Engines broken in exactly the way one check of group api looks for: ``MUTANTS`` maps the check to one.

Each is ``Reference`` (backtrack, renamed) with one thing wrong, and only where that check looks:
a mutant misbehaving on every call would fail every check and prove nothing about its own.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import replace
from typing import Any

from sudokit import Grid, Result, Shape, Status
from sudokit.engines.api import Answer
from sudokit.testing import corpus
from tests.kit.base import PlainReference, Reference


def _known(puzzle: Grid) -> bool:
    """True when ``puzzle`` is one of the kit's shared corpus puzzles (the very object)."""
    return any(puzzle is k.puzzle for name in corpus.names() for k in corpus.load(name))


class BadDescription(Reference):
    """Its description runs over two lines."""

    name = "broken-description"
    description = "a description\nthat runs over two lines"


class BadCapabilities(Reference):
    """Declares its capabilities as a str, which ``capabilities_of`` cannot read."""

    name = "broken-capabilities"
    capabilities = "everything"  # type: ignore[assignment]


class NoneWhenUnsolvable(Reference):
    """Returns None, not a Result, for a puzzle with no solution."""

    name = "broken-none-when-unsolvable"

    def solve(self, puzzle: Grid, **kwargs: Any) -> Result:
        result = super().solve(puzzle, **kwargs)
        return None if result.status is Status.UNSOLVABLE else result  # type: ignore[return-value]


class WrappedName(Reference):
    """Reports the name of the engine it wraps (backtrack), not its own."""

    name = "broken-wrapped-name"

    def solve(self, puzzle: Grid, **kwargs: Any) -> Result:
        return self.inner.solve(puzzle, **kwargs)


class SolutionAsPuzzle(Reference):
    """Returns its solution as ``result.puzzle``."""

    name = "broken-solution-as-puzzle"

    def solve(self, puzzle: Grid, **kwargs: Any) -> Result:
        result = super().solve(puzzle, **kwargs)
        return replace(result, puzzle=result.solution) if result.solution is not None else result


class ErrorWhenUnsolvable(Reference):
    """Reports status error ("no solution") for a puzzle with no solution."""

    name = "broken-error-when-unsolvable"

    def solve(self, puzzle: Grid, **kwargs: Any) -> Result:
        result = super().solve(puzzle, **kwargs)
        if result.status is Status.UNSOLVABLE:
            return replace(result, status=Status.ERROR, exact=False, error="no solution")
        return result


class ForgetsSolution(Reference):
    """Asked for one solution, says solved with count 1 but returns no solution."""

    name = "broken-forgets-solution"

    def solve(self, puzzle: Grid, *, limit: int = 1, **kwargs: Any) -> Result:
        result = super().solve(puzzle, limit=limit, **kwargs)
        return replace(result, solutions=()) if limit == 1 else result


class UnprovedUnsolvable(Reference):
    """Says unsolvable with exact False: no solution, but not proved."""

    name = "broken-unproved-unsolvable"

    def solve(self, puzzle: Grid, **kwargs: Any) -> Result:
        result = super().solve(puzzle, **kwargs)
        return replace(result, exact=False) if result.status is Status.UNSOLVABLE else result


class Milliseconds(Reference):
    """Reports elapsed in milliseconds, not seconds."""

    name = "broken-milliseconds"

    def solve(self, puzzle: Grid, **kwargs: Any) -> Result:
        result = super().solve(puzzle, **kwargs)
        return replace(result, elapsed=result.elapsed * 1000)


class NeverTimed(Reference):
    """Never sets elapsed: every result keeps Result's default 0.0."""

    name = "broken-never-timed"

    def solve(self, puzzle: Grid, **kwargs: Any) -> Result:
        return replace(super().solve(puzzle, **kwargs), elapsed=0.0)


class NanStats(Reference):
    """Puts a NaN in its stats."""

    name = "broken-nan-stats"

    def solve(self, puzzle: Grid, **kwargs: Any) -> Result:
        result = super().solve(puzzle, **kwargs)
        return replace(result, stats={**result.stats, "ratio": math.nan})


class FirstIsProof(Reference):
    """Asked for one solution, calls it exact: the first solution taken as proof there is no other."""

    name = "broken-first-is-proof"

    def solve(self, puzzle: Grid, *, limit: int = 1, **kwargs: Any) -> Result:
        result = super().solve(puzzle, limit=limit, **kwargs)
        return replace(result, exact=True) if limit == 1 and result.count == 1 else result


class NoProofAtTwo(Reference):
    """With limit 2 and one solution found, says exact False: never decides uniqueness."""

    name = "broken-no-proof-at-two"

    def solve(self, puzzle: Grid, *, limit: int = 1, **kwargs: Any) -> Result:
        result = super().solve(puzzle, limit=limit, **kwargs)
        return replace(result, exact=False) if limit == 2 and result.count == 1 else result


class StopsAtFirst(Reference):
    """With limit 2 on a puzzle with several solutions, stops at the first: count 1, exact False."""

    name = "broken-stops-at-first"

    def solve(self, puzzle: Grid, *, limit: int = 1, **kwargs: Any) -> Result:
        result = super().solve(puzzle, limit=limit, **kwargs)
        if limit == 2 and result.count == 2:
            return replace(result, count=1, solutions=result.solutions[:1], exact=False)
        return result


class OneShort(Reference):
    """Finishing below the limit with 5 solutions or more, counts one short (and drops the last solution)."""

    name = "broken-one-short"

    def solve(self, puzzle: Grid, *, limit: int = 1, **kwargs: Any) -> Result:
        result = super().solve(puzzle, limit=limit, **kwargs)
        if result.exact and result.count >= 5:
            return replace(result, count=result.count - 1, solutions=result.solutions[:-1])
        return result


class Fencepost(Reference):
    """When a puzzle has exactly ``limit`` solutions (limit above 1), loses the last: count limit - 1, "exact"."""

    name = "broken-fencepost"

    def solve(self, puzzle: Grid, *, limit: int = 1, keep: int | None = None, **kwargs: Any) -> Result:
        result = super().solve(puzzle, limit=limit + 1, keep=keep, **kwargs)
        if limit > 1 and result.exact and result.count == limit:
            return replace(result, count=limit - 1, solutions=result.solutions[: limit - 1])
        if result.count > limit:  # trim the extra one looked for
            return replace(result, count=limit, solutions=result.solutions[:limit], exact=False)
        return result


class ExactAtLimit(Reference):
    """Stopped by a limit of 3 or more, calls the count exact although there may be more."""

    name = "broken-exact-at-limit"

    def solve(self, puzzle: Grid, *, limit: int = 1, **kwargs: Any) -> Result:
        result = super().solve(puzzle, limit=limit, **kwargs)
        return replace(result, exact=True) if limit >= 3 and result.count == limit else result


class IgnoresKeep(Reference):
    """Takes ``keep`` but ignores it: returns every solution up to the limit."""

    name = "broken-ignores-keep"

    def solve(self, puzzle: Grid, *, keep: int | None = None, **kwargs: Any) -> Result:
        return super().solve(puzzle, **kwargs)


class RepeatsFirst(Reference):
    """Returning more than 10 solutions, returns the first one again as the last."""

    name = "broken-repeats-first"

    def solve(self, puzzle: Grid, **kwargs: Any) -> Result:
        result = super().solve(puzzle, **kwargs)
        found = result.solutions
        return replace(result, solutions=(*found[:-1], found[0])) if len(found) > 10 else result


class SwapsInRow(Reference):
    """Swaps two of the puzzle's blanks in a row of each solution: givens kept, rows fine, columns broken."""

    name = "broken-swaps-in-row"

    def solve(self, puzzle: Grid, **kwargs: Any) -> Result:
        result = super().solve(puzzle, **kwargs)
        n = puzzle.shape.n
        row = next((r for r in range(n) if sum(not v for v in puzzle.cells[r * n : r * n + n]) >= 2), None)
        if row is None:
            return result
        i, j = [row * n + c for c in range(n) if not puzzle.cells[row * n + c]][:2]
        swapped = []
        for grid in result.solutions:
            cells = list(grid.cells)
            cells[i], cells[j] = cells[j], cells[i]
            swapped.append(Grid(cells, grid.shape, validate=False))
        return replace(result, solutions=tuple(swapped))


class TransposedBoxes(Reference):
    """Builds its solutions with the box shape transposed: a 2x3 puzzle's solutions come back as 3x2."""

    name = "broken-transposed-boxes"

    def solve(self, puzzle: Grid, **kwargs: Any) -> Result:
        result = super().solve(puzzle, **kwargs)
        shape = Shape.of(puzzle.shape.box_cols, puzzle.shape.box_rows)
        return replace(result, solutions=tuple(Grid(g.cells, shape, validate=False) for g in result.solutions))


class Relabels(Reference):
    """Relabels the digits of each solution (d becomes d + 1, n becomes 1): still a Sudoku, not the puzzle's."""

    name = "broken-relabels"

    def solve(self, puzzle: Grid, **kwargs: Any) -> Result:
        result = super().solve(puzzle, **kwargs)
        n = puzzle.shape.n
        relabelled = tuple(Grid([v % n + 1 for v in g.cells], g.shape, validate=False) for g in result.solutions)
        return replace(result, solutions=relabelled)


class FillsInPuzzle(Reference):
    """Writes its solution into the puzzle it was given (sparing the kit's shared corpus puzzles)."""

    name = "broken-fills-in-puzzle"

    def solve(self, puzzle: Grid, **kwargs: Any) -> Result:
        result = super().solve(puzzle, **kwargs)
        if result.solution is not None and not _known(puzzle):
            object.__setattr__(puzzle, "cells", result.solution.cells)
        return result


class LockAfterSolve(Reference):
    """Keeps a lock after its first solve, so it no longer pickles."""

    name = "broken-lock-after-solve"

    def solve(self, puzzle: Grid, **kwargs: Any) -> Result:
        self.lock = threading.Lock()
        return super().solve(puzzle, **kwargs)


class ForgetfulCache(Reference):
    """Every third time in a row it is asked the same count, answers from a cache that lost exactness (exact False)."""

    name = "broken-forgetful-cache"

    def __init__(self) -> None:
        super().__init__()
        self.last: tuple[str, int] | None = None
        self.streak = 0

    def solve(self, puzzle: Grid, *, limit: int = 1, **kwargs: Any) -> Result:
        asked = (puzzle.to_line(), limit)
        self.streak = self.streak + 1 if asked == self.last else 1
        self.last = asked
        result = super().solve(puzzle, limit=limit, **kwargs)
        if self.streak % 3 == 0 and result.exact and result.count >= 2:
            return replace(result, exact=False)
        return result


class LeaksDeadEnd(Reference):
    """After an unsolvable puzzle, the next count (limit above 1) reuses its dead-end table: unsolvable too."""

    name = "broken-leaks-dead-end"

    def __init__(self) -> None:
        super().__init__()
        self.dead_end = False

    def solve(self, puzzle: Grid, *, limit: int = 1, **kwargs: Any) -> Result:
        poisoned, self.dead_end = self.dead_end, False
        if poisoned and limit > 1:
            self.dead_end = True
            return Result(Status.UNSOLVABLE, puzzle, self.name, exact=True, elapsed=1e-4)
        result = super().solve(puzzle, limit=limit, **kwargs)
        self.dead_end = result.status is Status.UNSOLVABLE
        return result


class NoneDeadline(Reference):
    """Computes its deadline as ``now + time_limit``, so ``time_limit=None`` raises TypeError."""

    name = "broken-none-deadline"

    def solve(self, puzzle: Grid, *, time_limit: float | None = None, **kwargs: Any) -> Result:
        deadline = time.perf_counter() + time_limit  # type: ignore[operator]
        return super().solve(puzzle, time_limit=deadline - time.perf_counter(), **kwargs)


class TimedWait(Reference):
    """Waits on a lock with ``timeout=time_limit``, which overflows for 1e10 s."""

    name = "broken-timed-wait"

    def solve(self, puzzle: Grid, *, time_limit: float | None = None, **kwargs: Any) -> Result:
        if time_limit is not None:
            lock = threading.Lock()
            lock.acquire(timeout=time_limit)  # free: returns at once, unless the timeout overflows
            lock.release()
        return super().solve(puzzle, time_limit=time_limit, **kwargs)


class FirstWitnessOnly(Reference):
    """Its candidates method returns the first solution alone, as if no other existed: the others' digits hidden."""

    name = "first-witness-only"

    def candidates(self, puzzle: Grid, *, cap: int = 1, time_limit: float | None = None) -> Result:
        return replace(self.inner.solve(puzzle, time_limit=time_limit), strategy=self.name)


class PlainDisagrees(PlainReference):
    """Its ``solve`` is right; its optional ``solve_plain`` answers otherwise, in the way ``twist`` names.

    ``swapped``: a unique puzzle's solution with two blanks swapped (no solution); ``status``: timeout
    where solve proves there is none; ``count``: one short when it finished with 5 solutions or more;
    ``exact``: exact True when the limit stopped it; ``limit``: always looks for one solution; ``keep``:
    keeps every solution; ``time_limit``: runs without one; ``elapsed``: milliseconds for seconds;
    ``list``: its answer as a list, not a tuple.
    """

    TWISTS = ("swapped", "status", "count", "exact", "limit", "keep", "time_limit", "elapsed", "list")

    def __init__(self, twist: str) -> None:
        super().__init__()
        self.twist = twist
        self.name = f"plain-{twist.replace('_', '-')}"

    def solve_plain(
        self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> Answer:
        twist = self.twist
        status, cells, count, exact, elapsed, stats, error = super().solve_plain(
            puzzle,
            limit=1 if twist == "limit" else limit,
            time_limit=None if twist == "time_limit" else time_limit,
            keep=None if twist == "keep" else keep,
        )
        if twist == "swapped" and count == 1 and exact:
            blanks = [i for i, v in enumerate(puzzle.cells) if not v]
            first = bytearray(cells[0])
            first[blanks[0]], first[blanks[1]] = first[blanks[1]], first[blanks[0]]
            cells = (bytes(first), *cells[1:])
        elif twist == "status" and status == "unsolvable":
            status, exact = "timeout", False
        elif twist == "count" and exact and count >= 5:
            count, cells = count - 1, cells[:-1]
        elif twist == "exact" and count == limit >= 3:
            exact = True
        elif twist == "elapsed":
            elapsed *= 1000
        answer = (status, cells, count, exact, elapsed, stats, error)
        return list(answer) if twist == "list" else answer  # type: ignore[return-value]


#: For every check of group api, an engine broken in exactly the way it looks for.
MUTANTS: dict[str, object] = {
    "has_name_and_description": BadDescription(),
    "declares_valid_capabilities": BadCapabilities(),
    "returns_result": NoneWhenUnsolvable(),
    "names_itself_in_result": WrappedName(),
    "returns_the_puzzle_asked": SolutionAsPuzzle(),
    "status_is_a_status": ErrorWhenUnsolvable(),
    "solved_means_a_solution": ForgetsSolution(),
    "unsolvable_means_proved_none": UnprovedUnsolvable(),
    "elapsed_is_wall_seconds": Milliseconds(),
    "elapsed_is_measured": NeverTimed(),
    "stats_are_json_safe": NanStats(),
    "limit_1_finds_one": FirstIsProof(),
    "limit_2_proves_unique": NoProofAtTwo(),
    "limit_2_finds_second": StopsAtFirst(),
    "limit_n_counts_exactly": OneShort(),
    "limit_at_count_stops_there": Fencepost(),
    "limit_below_count_stops": ExactAtLimit(),
    "keep_is_honoured": IgnoresKeep(),
    "solutions_are_distinct": RepeatsFirst(),
    "solutions_solve_the_puzzle": SwapsInRow(),
    "solutions_have_puzzle_shape": TransposedBoxes(),
    "keeps_every_given": Relabels(),
    "does_not_mutate_puzzle": FillsInPuzzle(),
    "pickles": LockAfterSolve(),
    "repeated_solves_agree": ForgetfulCache(),
    "no_state_between_puzzles": LeaksDeadEnd(),
    "no_time_limit_works": NoneDeadline(),
    "huge_time_limit_works": TimedWait(),
    "candidates_method_is_true": FirstWitnessOnly(),
    "solve_plain_agrees_with_solve": PlainDisagrees("count"),
}
