"""The library's entry points: solve by name or with a Strategy object, one Result type, errors as results."""

from __future__ import annotations

import copy
import importlib
import inspect
import math
import pydoc
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

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
    normalize_time_limit,
    solve,
    solve_sudoku,
)
from sudokit.errors import BoxShapeError, InvalidPuzzleError, StrategyError, UnknownStrategyError

from .conftest import counted, puzzles, sized
from .timing import hang_guard, spent


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
    assert {"StrategyInfo", "result_problem", "normalize_time_limit", "read_puzzles"} <= set(sudokit.__all__)
    assert all(hasattr(sudokit, name) for name in sudokit.__all__)
    assert sudokit.StrategyInfo is sudokit.engines.registry.StrategyInfo
    assert sudokit.result_problem is sudokit.engines.verify.result_problem
    assert sudokit.normalize_time_limit is sudokit.engines.api.normalize_time_limit


def test_the_lazy_names_are_listed_but_imported_on_first_use() -> None:
    assert {"cross_check", "CrossCheckReport", "read_puzzles"} <= set(dir(sudokit))
    text = pydoc.render_doc(sudokit, renderer=pydoc.plaintext)
    assert "cross_check(" in text and "class CrossCheckReport" in text
    check = (
        "import sys, sudokit; "
        "print(sorted(m for m in sys.modules if m in ('sudokit.features.crosscheck', 'sudokit.io.reader')))"
    )
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["[]"], done.stderr


def test_read_puzzles_is_exported(tmp_path: Path, leetcode: str) -> None:
    reader = importlib.import_module("sudokit.io.reader")
    if not hasattr(reader, "read_puzzles"):
        pytest.skip("sudokit.io.reader.read_puzzles is being written")
    path = tmp_path / "two.txt"
    path.write_text(f"# two puzzles\n{leetcode}\n{'.' * 16}\n")
    assert sudokit.read_puzzles is reader.read_puzzles
    assert list(sudokit.read_puzzles(path)) == [Grid.parse(leetcode), Grid.empty("2x2")]


def test_a_result_has_a_short_repr(leetcode: str) -> None:
    result = solve(leetcode, limit=2)
    text = repr(result)
    assert len(text) < 150 and "\n" not in text
    ms = f"{result.elapsed * 1000:.3f} ms"
    assert (
        text == f"Result(solved, strategy='backtrack', count=1, exact=True, elapsed={ms}, puzzle=<9x9 grid, 30 givens>)"
    )
    failed = solve(leetcode, Crashing())
    assert repr(failed).startswith("Result(error, strategy='crashing', count=0, exact=False, elapsed=")
    assert "puzzle=<9x9 grid, 30 givens>, error=\"strategy 'crashing' failed: ZeroDivisionError" in repr(failed)
    six = solve("." * 36, box="3x2")
    assert "puzzle=<6x6 grid of 3x2 boxes, 0 givens>" in repr(six)
    long = Result(Status.ERROR, result.puzzle, "liar", error="strategy 'liar' failed: " + "why " * 50)
    cut = repr(long)
    assert cut.endswith('...")') or cut.endswith("...')"), cut  # cut inside its quotes, which still close
    assert len(cut) < 250


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
    assert result.error is not None and result.error.startswith("strategy 'returning' failed: returned ")
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
    with pytest.raises(ValueError, match="limit must be at least 1, not 0"):
        solve(leetcode, limit=0)
    with pytest.raises(ValueError, match="keep must be at least 1, not -1"):
        solve(leetcode, keep=-1)
    for bad in (-1, -0.5, float("nan"), -math.inf):
        with pytest.raises(ValueError, match=rf"time_limit must be positive \(0 or None for no limit\), not {bad!r}"):
            solve(leetcode, time_limit=bad)


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        ({"puzzle": None}, TypeError, "puzzle must be a Grid, a puzzle text or rows of cells, not None"),
        ({"puzzle": 5}, TypeError, "puzzle must be a Grid, a puzzle text or rows of cells, not 5"),
        ({"puzzle": b"53..7"}, TypeError, "puzzle must be a Grid, a puzzle text or rows of cells, not b'53..7'"),
        ({"puzzle": [5] * 81}, TypeError, "row 1 must be a sequence of cells, not 5"),
        ({"box": (3, 3)}, TypeError, r"box must be a Shape or a text like '2x3', not \(3, 3\)"),
        ({"box": 9}, TypeError, "box must be a Shape or a text like '2x3', not 9"),
        ({"limit": "2"}, TypeError, "limit must be a whole number, not '2'"),
        ({"limit": 1.5}, TypeError, "limit must be a whole number, not 1.5"),
        ({"limit": True}, TypeError, "limit must be a whole number, not True"),
        ({"limit": None}, TypeError, "limit must be a whole number, not None"),
        ({"keep": 2.0}, TypeError, "keep must be a whole number, not 2.0"),
        ({"keep": 0}, ValueError, "keep must be at least 1, not 0"),
        ({"time_limit": "2"}, TypeError, "time_limit must be a number of seconds or None, not '2'"),
        ({"time_limit": True}, TypeError, "time_limit must be a number of seconds or None, not True"),
    ],
    ids=lambda value: repr(value)[:30] if isinstance(value, dict) else "",
)
def test_every_bad_argument_raises_a_message_naming_it(
    leetcode: str, arguments: dict[str, object], error: type[Exception], message: str
) -> None:
    arguments = {"puzzle": leetcode, **arguments}
    with pytest.raises(error, match=f"^{message}$"):
        solve(**arguments)  # type: ignore[arg-type]
    if "puzzle" not in arguments or arguments["puzzle"] == leetcode:
        counting = {k: v for k, v in arguments.items() if k != "puzzle"}
        with pytest.raises(error, match=f"^{message}$"):
            count_solutions(leetcode, **counting)  # type: ignore[arg-type]


def test_a_grid_and_a_box_it_does_not_have_are_refused(leetcode: str) -> None:
    grid = Grid.parse("." * 36)
    assert solve(grid, box="2x3").solved
    with pytest.raises(BoxShapeError, match="box 3x2 does not fit the grid, whose boxes are 2x3"):
        solve(grid, box="3x2")


def test_numpy_integers_are_cells_and_limits(leetcode: str) -> None:
    np = pytest.importorskip("numpy")
    grid = Grid.parse(leetcode)
    rows = np.array(grid.rows())
    assert Grid.from_rows(rows) == grid
    assert Grid(rows.ravel()) == grid
    assert all(type(v) is int for v in Grid(rows.ravel()).cells)
    result = solve(rows, limit=np.int64(2), keep=np.int32(1), time_limit=np.int64(10))
    assert (result.status, result.count, result.exact) == (Status.SOLVED, 1, True)
    assert result.puzzle == grid and is_solution(grid, result.solution)


def test_time_limit_none_and_infinity_mean_no_limit(leetcode: str) -> None:
    assert normalize_time_limit(None) is None
    assert normalize_time_limit(math.inf) is None
    assert normalize_time_limit(10**400) is None
    assert normalize_time_limit(2) == 2.0 and type(normalize_time_limit(2)) is float
    assert normalize_time_limit(0.25) == 0.25
    engine = KnownAnswer(solve(leetcode).solution)  # type: ignore[arg-type]
    solve(leetcode, engine, time_limit=math.inf)
    solve(leetcode, engine, time_limit=7)
    assert engine.calls == [(1, None), (1, 7.0)]


def test_count_solutions_matches_the_file() -> None:
    for text, expected in counted()[:12]:
        result = count_solutions(text)
        assert (result.count, result.exact) == (expected, True)
        assert result.unique is (expected == 1)
        assert len(result.solutions) == min(expected, 1)  # counting keeps one solution
        assert all(is_solution(result.puzzle, s) for s in result.solutions)
    text, expected = max(counted(), key=lambda pair: pair[1])
    capped = count_solutions(text, limit=10)
    assert (capped.count, capped.exact, len(capped.solutions)) == (10, False, 1)
    kept = count_solutions(text, limit=10, keep=None)
    assert (kept.count, kept.exact, len(set(kept.solutions))) == (10, False, 10)
    assert kept.solutions[0] == capped.solution


@pytest.mark.parametrize("engine", ["backtrack", "cp-sat"])
def test_count_solutions_takes_the_strategy_second_as_solve_does(engine: str) -> None:
    text, expected = next((t, c) for t, c in counted() if 2 < c < 50)
    result = count_solutions(text, engine)
    assert (result.strategy, result.count, result.exact) == (engine, expected, True)
    assert count_solutions(text, engine, limit=2, keep=2).solutions == solve(text, engine, limit=2).solutions
    with pytest.raises(TypeError):
        count_solutions(text, engine, 2)  # type: ignore[misc]


def test_solve_keeps_what_it_is_asked_to(leetcode: str) -> None:
    text, expected = next((t, c) for t, c in counted() if c >= 20)
    for keep in (1, 5, None, 10**6):
        result = solve(text, limit=20, keep=keep)
        assert (result.count, result.exact) == (20, expected == 20)
        assert len(set(result.solutions)) == min(20, keep or 20)
        assert all(is_solution(result.puzzle, s) for s in result.solutions)


def test_time_limit_through_solve(hard: str) -> None:
    with spent() as took:
        result = solve(hard, "backtrack", time_limit=0.1, order="plain")
    assert result.status is Status.TIMEOUT
    assert took.cpu < 0.6 and took.wall < hang_guard(0.1), took  # CPU time: a busy machine stretches wall time


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


def test_the_core_made_result_is_the_dataclass_result() -> None:
    """``Result._made`` (how sudokit makes a plain answer's Result) gives the object ``Result(...)`` gives:
    every field, in order, equal, frozen; the class's fields are its arguments (checked on import too)."""
    import dataclasses

    puzzle = Grid.parse("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
    solution = solve(puzzle).solution
    assert solution is not None
    values = (Status.SOLVED, puzzle, "x", (solution,), 1, True, {"nodes": 3}, 0.25, None)
    made, built = Result._made(*values), Result(*values)
    assert made == built and type(made) is Result and repr(made) == repr(built)
    assert [getattr(made, f.name) for f in dataclasses.fields(Result)] == list(values)
    assert [f.name for f in dataclasses.fields(Result)] == list(inspect.signature(Result._made).parameters)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.count = 2  # type: ignore[misc]
    assert replace(made, count=2) == Result(*values[:4], 2, *values[5:])
