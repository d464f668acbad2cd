"""True candidates (``sudokit.features.candidates``): each cell's digits that some solution has, and how many do.

Every answer is checked against all the solutions enumerated by ``count_solutions`` (an independent
path: one search to the end, no placing of digits one by one).
"""

from __future__ import annotations

import pytest

from sudokit import count_solutions, parse_puzzle
from sudokit.features.candidates import MAX_CAP, true_candidates

MANY = "....5..4...8.1.5..4......12.7.5.2.8....6.3....4.1.9...25.....98..1.2.6...8.....2."
#: A 4x4 with both diagonals and one given: a variant puzzle with a dozen solutions.
DIAGONALS = (
    '{"box": "2x2", "givens": "1...............", "constraints": '
    '[{"kind": "diagonal", "direction": "main"}, {"kind": "diagonal", "direction": "anti"}]}'
)


def enumerated(puzzle: str) -> list[bytes]:
    every = count_solutions(puzzle, limit=10_000, keep=None)
    assert every.exact
    return [bytes(s.cells) for s in every.solutions]


#: Classic puzzles decide each digit on its own; variant ones with a cap of 1 narrow a cell at a time.
CASES = [(MANY, "backtrack", 3), (MANY, "backtrack", 1), (DIAGONALS, "backtrack", 1), (DIAGONALS, "cp-sat", 1)]


@pytest.mark.parametrize(("puzzle", "strategy", "cap"), [*CASES, (DIAGONALS, "cp-sat", 5)])
def test_the_counts_are_those_of_every_solution_capped(puzzle: str, strategy: str, cap: int) -> None:
    solutions = enumerated(puzzle)
    grid = parse_puzzle(puzzle)
    found = true_candidates(puzzle, strategy, cap=cap)
    assert (found.status, found.cap, found.strategy) == ("solved", cap, strategy)
    n = grid.n
    for cell in range(n * n):
        for digit in range(1, n + 1):
            having = sum(1 for s in solutions if s[cell] == digit)
            if grid.cells[cell]:
                having = len(solutions) if digit == grid.cells[cell] else 0  # a given: the puzzle's solutions
            assert found.counts[cell * n + digit - 1] == min(cap, having), (cell, digit)
        assert found.digits(cell) == tuple(sorted({s[cell] for s in solutions}))


def test_a_puzzle_without_a_solution_has_no_candidates() -> None:
    found = true_candidates(".234....1.......")
    assert found.status == "unsolvable" and not any(found.counts)


def test_the_time_limit_bounds_the_whole_job() -> None:
    found = true_candidates("." * 81, "backtrack", cap=MAX_CAP, time_limit=0.2)
    assert found.status == "timeout" and found.error is not None


@pytest.mark.parametrize("cap", [0, MAX_CAP + 1, True, 1.5])
def test_a_cap_out_of_range_is_refused(cap: object) -> None:
    with pytest.raises(ValueError, match="cap must be a whole number"):
        true_candidates(MANY, cap=cap)  # type: ignore[arg-type]
