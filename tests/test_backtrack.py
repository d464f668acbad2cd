"""The ``backtrack`` engine, both orders, on every data file: answers checked by ``is_solution`` and the files."""

from __future__ import annotations

import sys

import pytest

from sudokit import Grid, Result, Shape, Status, Strategy, is_solution
from sudokit_strategies.backtrack import BacktrackStrategy

from .conftest import BOXES, counted, puzzles, sized
from .timing import hang_guard, spent

SMART = BacktrackStrategy()
PLAIN = BacktrackStrategy(order="plain")
PLAIN_STATS = {"nodes", "guesses", "backtracks", "max_depth"}


def assert_solved(result: Result, puzzle: Grid) -> Grid:
    """The result's one solution, after checking it is a valid solution of ``puzzle``."""
    assert result.status is Status.SOLVED, result
    assert result.puzzle == puzzle
    assert result.strategy == "backtrack"
    assert result.error is None
    solution = result.solution
    assert solution is not None and solution.shape == puzzle.shape
    assert is_solution(puzzle, solution), f"not a solution of {puzzle.to_line()}: {solution.to_line()}"
    return solution


def test_is_a_strategy() -> None:
    assert isinstance(SMART, Strategy) and isinstance(PLAIN, Strategy)
    assert SMART.name == PLAIN.name == "backtrack"
    assert SMART.description and PLAIN.description and SMART.description != PLAIN.description
    with pytest.raises(ValueError, match="order must be 'smart' or 'plain'"):
        BacktrackStrategy(order="random")  # type: ignore[arg-type]


# --- every data file --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["leetcode37.txt", "easy50.txt", "top95.txt", "hardest.txt"])
def test_solves_every_classic_puzzle_and_proves_it_unique(name: str) -> None:
    for text in puzzles(name):
        puzzle = Grid.parse(text)
        result = SMART.solve(puzzle, limit=2)
        assert_solved(result, puzzle)
        # The README: every puzzle of these files has exactly one solution.
        assert (result.count, result.exact, result.unique) == (1, True, True), text


SIZED = [(box, k, puzzle, solution) for box in BOXES[:-1] for k, (puzzle, solution) in enumerate(sized(box))]


@pytest.mark.parametrize(("box", "k", "puzzle", "solution"), SIZED, ids=[f"{b}-{k}" for b, k, _, _ in SIZED])
def test_solves_every_board_up_to_16x16_to_the_files_solution(box: str, k: int, puzzle: Grid, solution: Grid) -> None:
    # Uniqueness (limit 2) is proved on every board, 16x16 too (a fraction of a second with locked candidates).
    result = SMART.solve(puzzle, limit=2)
    assert assert_solved(result, puzzle) == solution
    assert result.unique is True


def test_25x25_is_solved_or_stops_at_its_time_limit() -> None:
    (puzzle, solution), *_ = sized("5x5")
    limit = 3.0  # it takes longer than this today: the limit is what is under test
    with spent() as took:
        result = SMART.solve(puzzle, time_limit=limit)
    assert took.cpu < limit + 1 and took.wall < hang_guard(limit), took  # CPU time: a busy machine stretches wall time
    assert result.elapsed <= took.wall
    if result.status is Status.TIMEOUT:
        assert not result.exact
    else:
        assert assert_solved(result, puzzle) == solution


def test_mirrored_boxes_three_by_two() -> None:
    for puzzle, solution in sized("2x3"):
        flip = [c * 6 + r for r in range(6) for c in range(6)]
        shape = Shape.of(3, 2)
        p, s = Grid([puzzle.cells[i] for i in flip], shape), Grid([solution.cells[i] for i in flip], shape)
        for engine in (SMART, PLAIN):
            assert assert_solved(engine.solve(p), p) == s


@pytest.mark.parametrize("box", BOXES)
def test_an_empty_board_is_filled(box: str) -> None:
    empty = Grid.empty(box)
    assert_solved(SMART.solve(empty, time_limit=10), empty)


# --- counting and limits ------------------------------------------------------------------------------


def test_reproduces_every_count_in_counts_txt() -> None:
    wrong = []
    for text, expected in counted():
        puzzle = Grid.parse(text)
        result = SMART.solve(puzzle, limit=expected + 1)
        if (result.count, result.exact, len(result.solutions)) != (expected, True, expected):
            wrong.append(f"{text}: {expected} expected, got {result.count} (exact {result.exact})")
            continue
        assert result.status is (Status.SOLVED if expected else Status.UNSOLVABLE)
        assert len(set(result.solutions)) == expected, "solutions repeat"
        assert all(is_solution(puzzle, s) for s in result.solutions)
        assert result.unique is (expected == 1)
    assert not wrong, "\n".join(wrong)


def test_unsolvable_puzzles_are_proved_so() -> None:
    zeros = [text for text, expected in counted() if expected == 0]
    assert zeros
    for text in zeros:
        result = SMART.solve(Grid.parse(text))
        assert result.status is Status.UNSOLVABLE
        assert (result.solutions, result.count, result.exact, result.solved) == ((), 0, True, False)


@pytest.mark.parametrize("engine", [SMART, PLAIN], ids=["smart", "plain"])
def test_contradicting_givens_are_unsolvable_not_a_crash(engine: BacktrackStrategy) -> None:
    puzzle, _ = sized("2x2")[0]
    cells = list(puzzle.cells)
    first = next(i for i, v in enumerate(cells) if v)
    blank_in_row = next(i for i in range(first - first % 4, first - first % 4 + 4) if not cells[i])
    cells[blank_in_row] = cells[first]
    clash = Grid(cells, puzzle.shape, validate=False)
    result = engine.solve(clash, limit=2)
    assert (result.status, result.count, result.exact) == (Status.UNSOLVABLE, 0, True)


def test_limit_one_on_a_multi_solution_puzzle() -> None:
    text, expected = next((t, c) for t, c in counted() if c >= 3)
    puzzle = Grid.parse(text)
    one = SMART.solve(puzzle, limit=1)
    assert_solved(one, puzzle)
    assert (one.count, one.exact, one.unique) == (1, False, None)
    two = SMART.solve(puzzle, limit=2)
    assert (two.count, two.exact, two.unique, two.status) == (2, False, False, Status.SOLVED)
    assert two.solutions[0] != two.solutions[1]
    assert all(is_solution(puzzle, s) for s in two.solutions)
    at_count = SMART.solve(puzzle, limit=expected)
    assert (at_count.count, at_count.exact) == (expected, False)  # not proved: the search stopped at the limit
    beyond = SMART.solve(puzzle, limit=expected + 5)
    assert (beyond.count, beyond.exact) == (expected, True)


def test_limit_two_decides_uniqueness() -> None:
    unique = next(t for t, c in counted() if c == 1)
    result = SMART.solve(Grid.parse(unique), limit=2)
    assert (result.count, result.exact, result.unique) == (1, True, True)
    one = SMART.solve(Grid.parse(unique), limit=1)
    assert one.unique is None


def test_a_complete_grid_is_its_own_only_solution() -> None:
    _, solution = sized("3x3")[0]
    for engine in (SMART, PLAIN):
        result = engine.solve(solution, limit=2)
        assert result.solution == solution
        assert (result.count, result.exact) == (1, True)


@pytest.mark.parametrize("box", ["2x2", "2x3"])
def test_both_orders_count_alike(box: str) -> None:
    for puzzle, _ in sized(box):
        # Three givens fewer: tens to a thousand solutions.
        dropped = [i for i, v in enumerate(puzzle.cells) if v][:3]
        loose = Grid([0 if i in dropped else v for i, v in enumerate(puzzle.cells)], puzzle.shape)
        smart, plain = SMART.solve(loose, limit=100_000), PLAIN.solve(loose, limit=100_000)
        assert smart.exact and plain.exact
        assert smart.count == plain.count == len(set(smart.solutions)) >= 1
        assert set(smart.solutions) == set(plain.solutions)
        assert all(is_solution(loose, s) for s in plain.solutions)
    empty = Grid.empty(box)
    if box == "2x2":
        assert SMART.solve(empty, limit=1000).count == PLAIN.solve(empty, limit=1000).count


# --- the plain order and the statistics -------------------------------------------------------------------


@pytest.mark.parametrize("name", ["leetcode37.txt", "easy50.txt"])
def test_plain_order_solves_easy_puzzles_with_more_nodes_than_smart(name: str) -> None:
    for text in puzzles(name):
        puzzle = Grid.parse(text)
        plain = PLAIN.solve(puzzle)
        smart = SMART.solve(puzzle)
        assert assert_solved(plain, puzzle) == assert_solved(smart, puzzle)
        stats = plain.stats
        assert set(stats) == PLAIN_STATS
        assert all(isinstance(v, int) and v >= 0 for v in stats.values())
        blanks = len(puzzle) - puzzle.count_givens()
        # The plain search places one blank per level; the guesses not undone are the solution's cells.
        assert stats["max_depth"] == blanks
        assert stats["guesses"] - stats["backtracks"] == blanks
        assert stats["nodes"] == stats["guesses"] + 1
        assert stats["nodes"] > smart.stats["nodes"], text
        assert set(smart.stats) >= PLAIN_STATS
        assert smart.stats["max_depth"] <= smart.stats["guesses"]


def test_stats_count_work_that_grows_with_difficulty() -> None:
    easy = SMART.solve(Grid.parse(puzzles("easy50.txt")[0]))
    hard = max((SMART.solve(Grid.parse(t)) for t in puzzles("hardest.txt")), key=lambda r: r.stats["nodes"])
    assert hard.stats["guesses"] > easy.stats["guesses"]
    assert hard.stats["nodes"] > easy.stats["nodes"] >= 1


def test_plain_order_times_out_promptly_on_a_hard_puzzle(hard: str) -> None:
    limit = 0.2
    with spent() as took:
        result = PLAIN.solve(Grid.parse(hard), limit=1, time_limit=limit)
    assert result.status is Status.TIMEOUT
    assert (result.solutions, result.exact) == ((), False)
    assert limit <= took.wall < hang_guard(limit) and took.cpu < limit + 0.5, took  # not before the limit
    assert result.stats["nodes"] > 0


def test_smart_order_times_out_promptly_on_a_hard_board() -> None:
    (puzzle, _), *_ = sized("5x5")
    limit = 0.3
    with spent() as took:
        result = SMART.solve(puzzle, time_limit=limit)
    if result.status is not Status.SOLVED:
        assert result.status is Status.TIMEOUT
    assert took.cpu < limit + 1 and took.wall < hang_guard(limit), took  # the clock is read at every node and try


def test_a_timeout_keeps_the_solutions_found_so_far() -> None:
    text, expected = max(counted(), key=lambda pair: pair[1])
    puzzle = Grid.parse(text)
    result = PLAIN.solve(puzzle, limit=expected + 1, time_limit=0.05)
    if result.status is Status.TIMEOUT:
        assert not result.exact
        assert result.count == len(result.solutions) < expected
        assert all(is_solution(puzzle, s) for s in result.solutions)
    else:  # a machine fast enough to finish: then the count must be right
        assert (result.count, result.exact) == (expected, True)


def test_recursion_limit_is_restored() -> None:
    before = sys.getrecursionlimit()
    (puzzle, _), *_ = sized("4x4")
    PLAIN.solve(puzzle, time_limit=0.05)
    SMART.solve(Grid.empty("5x5"), time_limit=5)
    assert sys.getrecursionlimit() == before
