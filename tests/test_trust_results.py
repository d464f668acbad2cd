"""sudokit vouches for every result: an engine's lie becomes an ``error`` result naming the engine and the lie.

The liars are test doubles of third-party plugins (tests/plugins/hostile.py); the answers they twist
are real ones, from ``backtrack``. ``result_problem`` is also checked directly against results of the
real engines, and the fast ``is_solution`` against the detailed ``solution_problem`` on corrupted grids.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import replace

import pytest

from sudokit import Grid, Result, Shape, Status, is_solution, result_problem, solution_problem, solve
from sudokit.engines.api import result_of
from tests.plugins import hostile

from .conftest import BOXES, counted, sized

PUZZLE, SOLUTION = sized("3x3")[0]
#: A puzzle with many solutions, and how many.
MANY, MANY_COUNT = next((Grid.parse(t), c) for t, c in counted() if 30 <= c <= 2000)


def lie_of(engine: object, limit: int = 1, puzzle: Grid = PUZZLE) -> str:
    """The error of ``engine``'s result through ``solve``, after checking it is an error result and nothing else."""
    result = solve(puzzle, engine, limit=limit)  # type: ignore[arg-type]
    assert result.status is Status.ERROR, result
    assert (result.solutions, result.count, result.puzzle) == ((), 0, puzzle)
    assert result.error is not None and "\n" not in result.error
    assert result.error.startswith(f"strategy {engine.name!r} failed: returned ")  # type: ignore[attr-defined]
    return result.error.removeprefix(f"strategy {engine.name!r} failed: ")  # type: ignore[attr-defined]


# --- every lie through run ----------------------------------------------------------------------------


def test_a_wrong_grid_is_an_error_naming_the_unit() -> None:
    blank = PUZZLE.cells.index(0)
    assert lie_of(hostile.WrongGrid()) == (
        f"returned an invalid grid (solution 1 of 1): row {blank // 9 + 1} is not a permutation of 1..9"
    )


def test_solved_without_a_grid_is_an_error() -> None:
    assert lie_of(hostile.SolvedWithoutGrid()) == "returned status solved with count 1 and 0 solutions"


def test_unsolvable_with_a_solution_is_an_error() -> None:
    assert lie_of(hostile.UnsolvableWithSolution(), limit=2) == (
        "returned status unsolvable with count 0, 1 solution and exact True"
    )


def test_the_unfilled_puzzle_as_its_own_solution_is_an_error() -> None:
    assert lie_of(hostile.ReturnsThePuzzle()) == "returned the puzzle itself, unfilled, as solution 1 of 1"


def test_the_same_solution_twice_is_an_error() -> None:
    assert lie_of(hostile.SameSolutionTwice(), limit=5) == "returned the same solution twice (solutions 1 and 2 of 2)"
    assert lie_of(hostile.SameSolutionTwice(), limit=1) == "returned count 2 for a limit of 1"


def test_an_exact_count_above_the_solutions_returned_is_an_error() -> None:
    assert lie_of(hostile.CountsMore(), limit=5) == "returned 1 solution with count 2"
    assert lie_of(hostile.CountsMore(), limit=5, puzzle=MANY) == "returned count 6 for a limit of 5"


def test_a_result_for_another_puzzle_is_an_error() -> None:
    assert lie_of(hostile.AnotherPuzzle()).startswith("returned a result for another puzzle: Grid.parse('.....")


class Answers:
    """Returns a given Result for any puzzle: a stand-in for an engine whose answer is under test."""

    name = "answers"
    description = "returns a fixed result"

    def __init__(self, result: object) -> None:
        self.result = result

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        return self.result


def right(limit: int = 1, puzzle: Grid = PUZZLE) -> Result:
    """The backtracker's answer, as a plugin named ``answers`` would return it."""
    return replace(solve(puzzle, limit=limit), strategy="answers")


@pytest.mark.parametrize(
    ("change", "limit", "lie"),
    [
        ({"status": "solved"}, 1, "returned status 'solved', not a Status"),
        ({"status": Status.ERROR}, 1, "returned status error without a message (error None)"),
        ({"status": Status.ERROR, "error": ""}, 1, "returned status error without a message (error '')"),
        ({"error": "oops"}, 1, "returned status solved with an error: 'oops'"),
        ({"count": "1"}, 1, "returned count '1', not a whole number"),
        ({"count": True}, 1, "returned count True, not a whole number"),
        ({"count": -1}, 1, "returned count -1 for a limit of 1"),
        ({"exact": 1}, 1, "returned exact 1, not True or False"),
        ({"exact": None}, 1, "returned exact None, not True or False"),
        ({"stats": ["nodes", 3]}, 1, "returned stats that are not a mapping: ['nodes', 3]"),
        ({"solutions": None}, 1, "returned solutions as None, not a tuple of grids"),
        ({"solutions": (SOLUTION.to_line(),)}, 1, f"returned '{SOLUTION.to_line()[:60]}"),
        ({"status": Status.TIMEOUT, "exact": True}, 2, "returned status timeout with exact True"),
        (
            {"status": Status.UNSOLVABLE, "count": 0, "solutions": (), "exact": False},
            2,
            "returned status unsolvable with count 0, 0 solutions and exact False",  # not proved
        ),
        ({"count": 2}, 5, "returned 1 solution with count 2"),
        ({"count": 0}, 1, "returned status solved with count 0 and 1 solution"),
    ],
)
def test_each_inconsistent_field_is_named(change: dict[str, object], limit: int, lie: str) -> None:
    result = replace(right(limit), **change)  # type: ignore[arg-type]
    assert (result_problem(result, PUZZLE, limit=limit) or "").startswith(lie)
    assert lie_of(Answers(result), limit=limit).startswith(lie)


def test_an_engine_that_reports_its_own_failure_is_named() -> None:
    failed = Result(Status.ERROR, PUZZLE, "answers", error="licence expired:\n  call us")
    result = solve(PUZZLE, Answers(failed))  # type: ignore[arg-type]
    assert result.status is Status.ERROR and result.solutions == ()
    assert result.error == "strategy 'answers' failed: licence expired: call us"
    assert result_problem(failed, PUZZLE, limit=1) is None  # consistent: it says it failed


def test_a_grid_of_another_shape_is_named() -> None:
    puzzle, solution = sized("2x3")[0]
    flipped = Grid([solution.cells[c * 6 + r] for r in range(6) for c in range(6)], Shape.of(3, 2))
    lie = result_problem(replace(right(1, puzzle), solutions=(flipped,)), puzzle, limit=1)
    assert lie == "returned a grid of 3x2 boxes as solution 1 of 1, for a puzzle of 2x3 boxes"


def test_an_incomplete_grid_is_named_with_its_first_blank() -> None:
    cells = list(SOLUTION.cells)
    blank = next(i for i, v in enumerate(PUZZLE.cells) if not v)
    cells[blank] = 0
    lie = result_problem(replace(right(), solutions=(Grid(cells, PUZZLE.shape),)), PUZZLE, limit=1)
    assert (
        lie == f"returned an incomplete grid (solution 1 of 1): row {blank // 9 + 1}, column {blank % 9 + 1} is blank"
    )


def test_a_changed_given_is_named() -> None:
    given = next(i for i, v in enumerate(PUZZLE.cells) if v)
    old = PUZZLE.cells[given]
    new = old % 9 + 1
    relabelled = Grid([new if v == old else old if v == new else v for v in SOLUTION.cells], PUZZLE.shape)
    lie = result_problem(replace(right(), solutions=(relabelled,)), PUZZLE, limit=1)
    assert lie == (
        f"returned an invalid grid (solution 1 of 1): row {given // 9 + 1}, column {given % 9 + 1}: "
        f"given {old} changed to {new}"
    )


# --- what a true answer keeps -------------------------------------------------------------------------


def test_odd_stats_are_made_json_safe_and_the_answer_kept() -> None:
    result = solve(PUZZLE, hostile.OddStats())  # type: ignore[arg-type]
    assert result.status is Status.SOLVED and result.error is None
    assert result.solution == SOLUTION
    stats = dict(result.stats)
    assert (stats["nodes"], stats["ratio"], stats["rate"], stats["low"], stats["7"]) == (
        3,
        "nan",
        "inf",
        "-inf",
        "seven",
    )
    assert isinstance(stats["engine"], str) and stats["engine"].startswith("<tests.plugins.hostile.OddStats object")
    assert len(stats["engine"]) <= 80
    assert math.isfinite(result.elapsed) and result.elapsed > 0  # the engine's NaN replaced by the time measured
    json.dumps(result.to_dict(), allow_nan=False)


@pytest.mark.parametrize("elapsed", [math.nan, -1.0, math.inf, "fast", None, 3])
def test_a_nonsense_elapsed_is_replaced_by_the_time_measured(elapsed: object) -> None:
    result = solve(PUZZLE, Answers(replace(right(), elapsed=elapsed)))  # type: ignore[arg-type]
    assert result.status is Status.SOLVED
    assert type(result.elapsed) is float and 0 < result.elapsed < 5
    json.dumps(result.to_dict(), allow_nan=False)


def test_a_long_repr_in_stats_is_cut() -> None:
    class Verbose:
        def __repr__(self) -> str:
            return "v" * 500

    class BrokenRepr:
        def __repr__(self) -> str:
            raise RuntimeError("no repr")

    stats = {"verbose": Verbose(), "broken": BrokenRepr(), "pair": (1, 2), "big": 10**30, "flag": False}
    result = solve(PUZZLE, Answers(replace(right(), stats=stats)))  # type: ignore[arg-type]
    assert result.status is Status.SOLVED
    assert result.stats == {
        "verbose": "v" * 77 + "...",
        "broken": "<BrokenRepr>",
        "pair": "(1, 2)",
        "big": 10**30,
        "flag": False,
    }
    json.dumps(result.to_dict(), allow_nan=False)


def test_plain_stats_are_passed_on_untouched() -> None:
    result = solve(PUZZLE, "backtrack")
    assert all(type(k) is str and type(v) is int for k, v in result.stats.items())
    answer = right()
    passed = solve(PUZZLE, Answers(answer))  # type: ignore[arg-type]
    assert passed.stats == answer.stats and passed.solutions == answer.solutions and passed.count == answer.count
    assert passed is not answer  # made anew of what was checked (tests/test_trust_forgery.py)


# --- result_problem on the real engines' answers ------------------------------------------------------


@pytest.mark.parametrize("engine", ["backtrack", "cp-sat", "python-constraint", "sat"])
def test_the_real_engines_answers_are_consistent(engine: str) -> None:
    from sudokit import get_strategy

    strategy = get_strategy(engine)
    for puzzle, limit in ((PUZZLE, 1), (PUZZLE, 2), (MANY, 5), (MANY, MANY_COUNT + 1)):
        result = strategy.solve(puzzle, limit=limit, time_limit=60)
        assert result_problem(result, puzzle, limit=limit) is None, (engine, limit, result)
        kept = strategy.solve(puzzle, limit=limit, time_limit=60, keep=1)  # type: ignore[call-arg]
        assert result_problem(kept, puzzle, limit=limit, keep=1) is None, (engine, limit, kept)
        assert (kept.count, kept.exact, kept.solutions) == (result.count, result.exact, result.solutions[:1])
        if result.count > 1:
            assert result_problem(result, puzzle, limit=limit, keep=1) == (
                f"returned {result.count} solutions with count {result.count} (asked to keep 1)"
            )
    unsolvable = Grid.parse(next(t for t, c in counted() if c == 0))
    result = strategy.solve(unsolvable, limit=2, time_limit=60)
    assert result.status is Status.UNSOLVABLE and result_problem(result, unsolvable, limit=2) is None


# --- the fast checker agrees with the detailed one ----------------------------------------------------


def corruptions(solution: Grid, rng: random.Random) -> list[list[object]]:
    """Ways a grid can fail to be a solution, each keeping its shape: some subtle, some gross."""
    n = solution.n
    size = len(solution.cells)
    out: list[list[object]] = []
    for _ in range(20):
        cells: list[object] = list(solution.cells)
        kind = rng.randrange(8)
        i, j = rng.randrange(size), rng.randrange(size)
        if kind == 0:
            cells[i], cells[j] = cells[j], cells[i]  # a swap: fine if the values are equal
        elif kind == 1:
            cells[i] = rng.randrange(0, n + 3)  # any value, in range or not, blank too
        elif kind == 2:
            cells[i] = -cells[i]  # type: ignore[operator]
        elif kind == 3:
            cells[i] = float(cells[i])  # type: ignore[arg-type]
        elif kind == 4:
            cells[i] = 300  # more than a byte holds
        elif kind == 5:
            a, b = rng.sample(range(1, n + 1), 2)  # relabel two digits: still a Sudoku, givens broken
            cells = [b if v == a else a if v == b else v for v in cells]
        elif kind == 6:
            r = rng.randrange(n)  # shift a row: the row stays a permutation
            row = cells[r * n : r * n + n]
            cells[r * n : r * n + n] = row[1:] + row[:1]
        else:
            cells[i] = cells[i] + n  # type: ignore[operator]
        out.append(cells)
    return out


@pytest.mark.parametrize("box", [*BOXES, "1x4", "4x1", "2x6"])
def test_is_solution_agrees_with_solution_problem(box: str) -> None:
    rng = random.Random(box)
    pairs = sized(box) if box in BOXES else [(Grid.empty(box), solve(Grid.empty(box)).solution)]
    for puzzle, solution in pairs:
        assert solution is not None
        for target in (puzzle, Grid.empty(puzzle.shape)):
            assert is_solution(target, solution) and solution_problem(target, solution) is None
            for cells in corruptions(solution, rng):
                grid = Grid(cells, solution.shape, validate=False)  # type: ignore[arg-type]
                expected = solution_problem(target, grid) is None
                assert is_solution(target, grid) is expected, cells
                problem = result_problem(Result(Status.SOLVED, target, "answers", (grid,), 1), target, limit=1)
                assert (problem is None) is expected, (problem, cells)


def test_is_solution_keeps_its_answers_for_what_is_not_a_grid() -> None:
    assert not is_solution(PUZZLE, SOLUTION.to_line())  # type: ignore[arg-type]
    assert not is_solution(PUZZLE, None)  # type: ignore[arg-type]
    assert not is_solution(PUZZLE, sized("2x2")[0][1])
    assert is_solution(Grid(PUZZLE.cells, PUZZLE.shape), Grid(list(SOLUTION.cells), PUZZLE.shape))


def test_an_answer_that_raises_when_looked_at_is_an_error() -> None:
    class Sly:
        def __eq__(self, other: object) -> bool:
            raise RuntimeError("no comparing me")

        __hash__ = None  # type: ignore[assignment]

    class Unspeakable(Exception):
        def __str__(self) -> str:
            raise RuntimeError("no str either")

    class RaisesUnspeakable:
        name = "unspeakable"
        description = "raises an exception that cannot be printed"

        def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
            raise Unspeakable

    assert lie_of(Answers(replace(right(), puzzle=Sly()))) == (  # type: ignore[arg-type]
        "returned a result that cannot be checked: RuntimeError: no comparing me"
    )
    failed = solve(PUZZLE, RaisesUnspeakable())  # type: ignore[arg-type]
    assert (failed.status, failed.error) == (Status.ERROR, "strategy 'unspeakable' failed: Unspeakable")


# --- an engine that answers in plain data (solve_plain, as numba does) ----------------------------------


def test_a_plain_answer_becomes_the_one_result_made_by_sudokit() -> None:
    """run() calls solve_plain (the plugin's solve raises) and makes the Result of its plain data: new grids
    of the puzzle's shape, the name asked for, the puzzle passed, keep honoured."""
    result = solve(PUZZLE, hostile.PlainAnswers(), limit=2)
    assert (result.status, result.count, result.exact, result.error) == (Status.SOLVED, 1, True, None)
    assert result.solution == SOLUTION and type(result.solution) is Grid and result.solution.shape is PUZZLE.shape
    assert type(result.solution.cells) is tuple and all(type(v) is int for v in result.solution.cells)
    assert result.puzzle is PUZZLE and result.strategy == "plain-answers" and result.stats == {"nodes": 1}
    assert result.solution.to_bytes() == bytes(result.solution.cells) and result == replace(result)
    counted = solve(MANY, hostile.PlainAnswers(), limit=5, keep=2)
    assert (counted.count, len(counted.solutions), counted.exact) == (5, 2, False)
    assert all(is_solution(MANY, grid) for grid in counted.solutions)


def test_a_plain_elapsed_time_past_the_call_is_the_time_measured() -> None:
    result = solve(PUZZLE, hostile.PlainAnswers("slow"))
    assert result.status is Status.SOLVED and 0.0 < result.elapsed < 60.0


@pytest.mark.parametrize(
    ("twist", "limit", "lie"),
    [
        ("swapped", 1, "returned an invalid grid (solution 1 of 1): column "),
        ("relabelled", 1, "returned an invalid grid (solution 1 of 1): row "),
        ("count", 1, "returned count 2 for a limit of 1"),
        ("twice", 5, "returned the same solution twice (solutions 1 and 2 of 2)"),
        ("list", 1, "returned an answer that cannot be read: list, not a tuple of 7"),
        ("short", 1, "returned an answer that cannot be read: solutions that are not grids of the puzzle's size"),
        ("bool count", 1, "returned an answer that cannot be read: a count or exact of another type"),
        ("bytes subclass", 1, "returned an answer that cannot be read: solutions that are not grids of the puzzle's"),
    ],
)
def test_each_plain_lie_is_named(twist: str, limit: int, lie: str) -> None:
    engine = hostile.PlainAnswers(twist)
    result = solve(PUZZLE, engine, limit=limit)
    assert result.status is Status.ERROR and (result.solutions, result.count) == ((), 0), result
    assert (result.error or "").startswith(f"strategy 'plain-answers' failed: {lie}"), result.error


@pytest.mark.parametrize("limit", [1, 2])
@pytest.mark.parametrize("twist", hostile.PlainAnswers.twists)
def test_run_reads_each_plain_answer_as_result_of_does(twist: str, limit: int) -> None:
    """run() reads a solved answer of one solution in one pass, and any other the whole way (result_of, as for a
    worker's answer): for every twist, right or wrong in any part, it gives the Result result_of gives."""
    engine = hostile.PlainAnswers(twist)
    answer = engine.solve_plain(PUZZLE, limit=limit)
    expected = result_of(answer, PUZZLE, "plain-answers", limit=limit, took=math.inf)
    result = solve(PUZZLE, engine, limit=limit)
    assert replace(result, elapsed=0.0) == replace(expected, elapsed=0.0), twist
    assert result.error == expected.error and type(result.solution) is type(expected.solution)
    if result.status is Status.ERROR:
        assert twist not in ("right", "float stats", "slow")
        assert (result.error or "").startswith("strategy 'plain-answers' failed: returned "), result.error
    else:
        assert type(result.stats) is dict and all(type(s.cells) is tuple for s in result.solutions)


def test_a_plain_answer_that_raises_is_the_engines_failure() -> None:
    result = solve(PUZZLE, hostile.PlainAnswers("raises"))
    assert result.status is Status.ERROR
    assert result.error == "strategy 'plain-answers' failed: RuntimeError: the plain answer blew up"
