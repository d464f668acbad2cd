"""The library's entry points: solve by name or with a Strategy object, one Result type, errors as results."""

from __future__ import annotations

import copy
import time
from dataclasses import replace

import pytest

import sudokit
from sudokit import (
    Grid,
    Result,
    Status,
    Strategy,
    available_strategies,
    count_solutions,
    get_strategy,
    is_solution,
    solve,
    solve_sudoku,
)
from sudokit.errors import InvalidPuzzleError, StrategyError, UnknownStrategyError

from .conftest import counted, puzzles, sized


class KnownAnswer:
    """A test double of a plugin: answers with the data file's solution, whatever it is asked."""

    name = "known-answer"
    description = "returns the solution the data file gives"

    def __init__(self, solution: Grid) -> None:
        self.solution = solution
        self.calls: list[tuple[int, float | None]] = []

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        self.calls.append((limit, time_limit))
        return Result(Status.SOLVED, puzzle, self.name, (self.solution,), 1, limit > 1, {"lookups": 1}, 0.001)


class Crashing:
    name = "crashing"
    description = "raises inside solve"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        raise ZeroDivisionError("the engine divided by zero")


class Returning:
    """Returns whatever it is given, to stand for an engine with a bug in its answer."""

    name = "returning"
    description = "returns a fixed object"

    def __init__(self, answer: object) -> None:
        self.answer = answer

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        return self.answer  # type: ignore[return-value]


def test_the_public_names() -> None:
    for name in ("solve", "count_solutions", "Grid", "Result", "Strategy", "is_solution"):
        assert name in sudokit.__all__
    assert {"available_strategies", "solve_sudoku", "Status", "Shape", "InvalidPuzzleError"} <= set(sudokit.__all__)
    assert all(hasattr(sudokit, name) for name in sudokit.__all__)


def test_solve_by_name_every_puzzle_form(leetcode: str) -> None:
    grid = Grid.parse(leetcode)
    for puzzle in (leetcode, grid, grid.to_pretty(), grid.to_json(), grid.to_leetcode(), grid.rows()):
        result = solve(puzzle, "backtrack")  # type: ignore[arg-type]
        assert isinstance(result, Result)
        assert result.status is Status.SOLVED and result.strategy == "backtrack"
        assert result.puzzle == grid
        assert result.solution is not None and is_solution(grid, result.solution)
        assert result.solved and result.elapsed > 0
    assert solve(leetcode).solution == solve(leetcode, "backtrack").solution


def test_solve_with_options_for_the_engine(leetcode: str) -> None:
    plain = solve(leetcode, "backtrack", order="plain")
    smart = solve(leetcode, "backtrack")
    assert plain.solution == smart.solution
    assert plain.stats["nodes"] > smart.stats["nodes"]
    assert "naked_singles" not in plain.stats and "naked_singles" in smart.stats
    with pytest.raises(StrategyError, match="order must be"):
        solve(leetcode, "backtrack", order="sideways")
    with pytest.raises(StrategyError, match=r"has no option .speed."):
        solve(leetcode, "backtrack", speed=11)


def test_solve_with_a_box_shape() -> None:
    puzzle, solution = sized("2x3")[0]
    n = puzzle.n
    mirror = [c * n + r for r in range(n) for c in range(n)]
    text = "".join(puzzle.to_line()[i] for i in mirror)
    result = solve(text, box="3x2")
    assert result.solution is not None and result.solution.to_line() == "".join(solution.to_line()[i] for i in mirror)
    assert str(result.puzzle.shape) == "3x2"


def test_solve_with_a_strategy_object() -> None:
    puzzle, solution = sized("3x3")[1]
    engine = KnownAnswer(solution)
    assert isinstance(engine, Strategy)
    result = solve(puzzle.to_line(), engine, limit=2, time_limit=3.5)
    assert engine.calls == [(2, 3.5)]
    assert result.strategy == "known-answer" and result.stats == {"lookups": 1}
    assert result.solution == solution and is_solution(puzzle, result.solution)
    assert get_strategy(engine) is engine
    with pytest.raises(StrategyError, match="options go with a strategy name"):
        solve(puzzle, engine, order="plain")


def test_an_object_that_is_not_a_strategy_is_refused(leetcode: str) -> None:
    with pytest.raises(StrategyError, match="is not a Strategy"):
        solve(leetcode, object())  # type: ignore[arg-type]


def test_an_engine_that_raises_gives_an_error_result(leetcode: str) -> None:
    result = solve(leetcode, Crashing())
    assert result.status is Status.ERROR
    assert result.error is not None
    assert "crashing" in result.error and "ZeroDivisionError: the engine divided by zero" in result.error
    assert (result.solutions, result.count, result.solved) == ((), 0, False)
    assert result.puzzle == Grid.parse(leetcode) and result.strategy == "crashing"


def garbage(puzzle: Grid, solution: Grid) -> list[object]:
    good = Result(Status.SOLVED, puzzle, "returning", (solution,), 1)
    four_by_four = sized("2x2")[0][1]
    return [
        None,
        "solved",
        {"status": "solved"},
        replace(good, status="solved"),  # a str, not a Status
        replace(good, status=Status.ERROR),  # an error without a message
        replace(good, solutions=(solution.to_line(),)),  # type: ignore[arg-type]
        replace(good, solutions=(four_by_four,)),  # another board size
        replace(good, solutions=(solution, solution), count=2),  # more than the limit of 1
        replace(good, count=0),  # fewer counted than returned
    ]


@pytest.mark.parametrize("k", range(len(garbage(*sized("3x3")[0]))))
def test_an_engine_that_returns_garbage_gives_an_error_result(k: int) -> None:
    puzzle, solution = sized("3x3")[0]
    answer = garbage(puzzle, solution)[k]
    result = solve(puzzle, Returning(answer))
    assert result.status is Status.ERROR
    assert result.error is not None and "engine returned" in result.error and "'returning'" in result.error
    assert result.solutions == () and result.puzzle == puzzle


def test_unknown_strategy_name(leetcode: str) -> None:
    with pytest.raises(UnknownStrategyError, match="unknown strategy 'no-such-engine'") as caught:
        solve(leetcode, "no-such-engine")
    assert "backtrack" in str(caught.value)
    assert isinstance(caught.value, StrategyError)


def test_invalid_puzzles_raise(leetcode: str) -> None:
    with pytest.raises(InvalidPuzzleError):
        solve(leetcode[:-1])
    with pytest.raises(InvalidPuzzleError):
        solve("55" + leetcode[2:])


def test_bad_limits_are_refused(leetcode: str) -> None:
    with pytest.raises(ValueError, match="limit must be at least 1"):
        solve(leetcode, limit=0)
    with pytest.raises(ValueError, match="time limit must be positive"):
        solve(leetcode, time_limit=0)


def test_count_solutions_matches_the_file() -> None:
    for text, expected in counted()[:12]:
        result = count_solutions(text)
        assert (result.count, result.exact) == (expected, True)
        assert result.unique is (expected == 1)
        assert all(is_solution(result.puzzle, s) for s in result.solutions)
    text, expected = max(counted(), key=lambda pair: pair[1])
    capped = count_solutions(text, limit=10)
    assert (capped.count, capped.exact, len(capped.solutions)) == (10, False, 10)


def test_time_limit_through_solve(hard: str) -> None:
    start = time.perf_counter()
    result = solve(hard, "backtrack", time_limit=0.1, order="plain")
    assert result.status is Status.TIMEOUT
    assert time.perf_counter() - start < 0.6


def test_available_strategies_lists_backtrack_as_loaded() -> None:
    rows = {row.name: row for row in available_strategies()}
    backtrack = rows["backtrack"]
    assert backtrack.loaded and backtrack.error is None
    assert backtrack.description == get_strategy("backtrack").description
    assert backtrack.entry_point == "sudokit_strategies.backtrack:BacktrackStrategy"


def test_result_to_dict(leetcode: str) -> None:
    result = solve(leetcode, limit=2)
    data = result.to_dict()
    assert data["puzzle"] == leetcode and data["strategy"] == "backtrack" and data["status"] == "solved"
    assert data["solution"] == result.solution.to_line()  # type: ignore[union-attr]
    assert (data["count"], data["exact"], data["error"]) == (1, True, None)
    assert data["elapsed_ms"] == pytest.approx(result.elapsed * 1000, abs=0.001)
    assert data["stats"] == dict(result.stats)


def test_solve_sudoku_fills_the_leetcode_board_in_place() -> None:
    for text in puzzles("leetcode37.txt") + puzzles("easy50.txt")[:5] + puzzles("hardest.txt")[:3]:
        board = Grid.parse(text).to_leetcode()
        original = copy.deepcopy(board)
        rows = list(board)
        assert solve_sudoku(board) is None
        assert all(a is b for a, b in zip(board, rows, strict=True)), "the rows themselves must be filled"
        assert all(isinstance(cell, str) and cell in "123456789" for row in board for cell in row)
        assert is_solution(Grid.from_rows(original), Grid.from_rows(board))


def test_solve_sudoku_on_a_board_without_solution() -> None:
    text = next(t for t, c in counted() if c == 0)
    board = Grid.parse(text).to_leetcode()
    original = copy.deepcopy(board)
    with pytest.raises(ValueError, match="no solution"):
        solve_sudoku(board)
    assert board == original
    bad = copy.deepcopy(original)
    bad[0][0] = "x"
    with pytest.raises(InvalidPuzzleError):
        solve_sudoku(bad)
