"""Engine properties on random puzzles of every board shape: valid answers, equal counts, unsolvable agreed.

The puzzles are made by blanking cells of random solved grids (see ``test_fuzz.solved_grid``), so
each has at least one solution; every engine's answer is checked by the independent ``is_solution``.
python-constraint is the slow one: it gets boards up to 9x9 with a modest number of blanks.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sudokit import Grid, Result, Shape, Status, is_solution, solve

from .test_fuzz import blanked, solved_grid

ENGINES = ("backtrack", "cp-sat", "python-constraint")
FAST = ("backtrack", "cp-sat")
#: Every box shape of a board up to 12x12 (boxes of 1xC, whose boxes are rows, included).
SHAPES = [Shape.of(r, c) for r in range(1, 7) for c in range(1, 7) if 4 <= r * c <= 12]
SMALL = [shape for shape in SHAPES if shape.n <= 9]
TIME_LIMIT = 30.0  # generous: no property here is about time
COUNT_LIMIT = 50
PROPERTY = settings(database=None, max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def engines_for(puzzle: Grid) -> tuple[str, ...]:
    """All engines on boards up to 9x9 with at most 60 % blanks; the fast two beyond."""
    blanks = puzzle.cells.count(0)
    return ENGINES if puzzle.n <= 9 and blanks <= 0.6 * puzzle.shape.size else FAST


def run(puzzle: Grid, engine: str, limit: int) -> Result:
    result = solve(puzzle, engine, limit=limit, time_limit=TIME_LIMIT)
    assert result.status is not Status.ERROR, result.error
    assert result.status is not Status.TIMEOUT, f"{engine} took {result.elapsed:.1f} s on {puzzle!r}"
    assert result.strategy == engine and result.puzzle == puzzle
    assert len(result.solutions) == min(result.count, limit) and result.count <= limit
    for solution in result.solutions:
        assert is_solution(puzzle, solution), f"{engine} returned a wrong grid for {puzzle!r}"
    assert len(set(result.solutions)) == len(result.solutions), f"{engine} returned a solution twice"
    return result


def puzzle_of(shape: Shape, seed: int, share: float) -> Grid:
    """A random puzzle of ``shape``: a random solution with ``share`` of its cells blank."""
    rng = random.Random(seed)
    return blanked(solved_grid(shape, rng), rng, round(share * shape.size))


@PROPERTY
@given(shape=st.sampled_from(SHAPES), seed=st.integers(0, 2**32 - 1), share=st.floats(0.0, 1.0))
def test_every_engine_answers_with_a_valid_solution(shape: Shape, seed: int, share: float) -> None:
    puzzle = puzzle_of(shape, seed, share)
    for engine in engines_for(puzzle):
        result = run(puzzle, engine, limit=1)
        assert result.status is Status.SOLVED and result.count == 1, engine


@PROPERTY
@given(shape=st.sampled_from(SHAPES), seed=st.integers(0, 2**32 - 1), share=st.floats(0.0, 1.0))
def test_counts_agree_across_engines(shape: Shape, seed: int, share: float) -> None:
    puzzle = puzzle_of(shape, seed, share)
    results = {engine: run(puzzle, engine, limit=COUNT_LIMIT) for engine in engines_for(puzzle)}
    counts = {engine: (r.count, r.exact) for engine, r in results.items()}
    assert len(set(counts.values())) == 1, counts
    count, exact = next(iter(counts.values()))
    assert count >= 1 and exact == (count < COUNT_LIMIT)
    for r in results.values():
        assert r.status is Status.SOLVED
        assert r.unique == (count == 1 if exact else False)


@settings(database=None, max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), blanks=st.integers(0, 120))
def test_sixteen_by_sixteen_with_few_blanks(seed: int, blanks: int) -> None:
    rng = random.Random(seed)
    solution = solved_grid(Shape.of(4, 4), rng)
    puzzle = blanked(solution, rng, blanks)
    results = [run(puzzle, engine, limit=5) for engine in FAST]
    assert {(r.count, r.exact) for r in results} == {(results[0].count, results[0].exact)}
    if blanks == 0:
        assert [r.solution for r in results] == [solution, solution]


# --- unsolvable: a unique puzzle with one clue that contradicts its solution ---------------------------


def unique_puzzle(shape: Shape, rng: random.Random, target: float) -> tuple[Grid, Grid]:
    """A puzzle with exactly one solution and up to ``target`` of its cells blank, and that solution."""
    solution = solved_grid(shape, rng)
    cells = list(solution.cells)
    order = list(range(shape.size))
    rng.shuffle(order)
    for i in order[: round(target * shape.size) + shape.n]:
        if cells.count(0) >= target * shape.size:
            break
        cells[i] = 0
        if solve(Grid(cells, shape), "backtrack", limit=2).count > 1:
            cells[i] = solution.cells[i]  # blanking it would let a second solution in
    puzzle = Grid(cells, shape)
    check = solve(puzzle, "cp-sat", limit=2, time_limit=TIME_LIMIT)
    assert (check.count, check.exact) == (1, True) and check.solution == solution
    return puzzle, solution


def conflicting_clue(puzzle: Grid, solution: Grid, rng: random.Random) -> Grid | None:
    """``puzzle`` with one more clue, a digit its peers' givens allow but the unique solution has not."""
    shape = puzzle.shape
    blanks = [i for i, v in enumerate(puzzle.cells) if not v]
    rng.shuffle(blanks)
    for i in blanks:
        taken = {puzzle.cells[p] for p in shape.peers[i]}
        wrong = [d for d in range(1, shape.n + 1) if d != solution.cells[i] and d not in taken]
        if wrong:
            cells = list(puzzle.cells)
            cells[i] = rng.choice(wrong)
            return Grid(cells, shape)  # parses: it repeats no given of its row, column or box
    return None


@settings(database=None, max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shape=st.sampled_from(SMALL), seed=st.integers(0, 2**32 - 1))
def test_one_conflicting_clue_is_unsolvable_for_every_engine(shape: Shape, seed: int) -> None:
    rng = random.Random(seed)
    puzzle, solution = unique_puzzle(shape, rng, target=0.55)
    bad = conflicting_clue(puzzle, solution, rng)
    assume(bad is not None)
    assert bad is not None
    for engine in ENGINES:
        result = run(bad, engine, limit=2)
        assert result.status is Status.UNSOLVABLE, f"{engine}: {result.status} on {bad!r}"
        assert (result.count, result.exact, result.solutions) == (0, True, ())


@pytest.mark.parametrize("box", ["3x4", "4x3", "2x6"])
def test_one_conflicting_clue_on_twelve_by_twelve(box: str) -> None:
    rng = random.Random(box)
    puzzle, solution = unique_puzzle(Shape.parse(box), rng, target=0.5)
    bad = conflicting_clue(puzzle, solution, rng)
    assert bad is not None
    for engine in FAST:
        result = run(bad, engine, limit=2)
        assert (result.status, result.count, result.exact) == (Status.UNSOLVABLE, 0, True), engine
