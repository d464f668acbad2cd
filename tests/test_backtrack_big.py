"""``backtrack`` on big boards: locked candidates and a look-ahead from 16x16 up, checked against cp-sat.

Boards of 16x16 and more run the search with locked candidates (pointing and claiming) and a
look-ahead on the cells with two candidates (failed literals) on top of the singles;
``inference="strong"`` forces that search on any classic board and ``inference="singles"`` keeps the
singles alone, so the new inference is checked where counts are cheap: random 9x9 and 16x16 boards
with givens taken away, counted by both against CP-SAT, and every 16x16 of ``puzzles/sizes`` solved
to its file's solution and proved unique. From 25x25 up the search turns to clause learning when it has
failed ``LEARN_AFTER`` guesses without a solution (``inference="learn"`` starts with it on any classic
board): its counts are checked the same way, and the hard first 25x25 is solved by it.
"""

from __future__ import annotations

import random

import pytest

from sudokit import Capabilities, Grid, Status, is_solution
from sudokit.testing import corpus
from sudokit_strategies import backtrack
from sudokit_strategies.backtrack import BacktrackStrategy
from sudokit_strategies.cpsat import CpSatStrategy

from .conftest import puzzles, sized
from .timing import hang_guard, spent

AUTO = BacktrackStrategy()
STRONG = BacktrackStrategy(inference="strong")
SINGLES = BacktrackStrategy(inference="singles")
LEARN = BacktrackStrategy(inference="learn")
CPSAT = CpSatStrategy()
SIXTEEN = sized("4x4")


def loosened(grid: Grid, rng: random.Random, drop: int) -> Grid:
    """``grid`` with ``drop`` of its givens (chosen by ``rng``) made blank."""
    givens = [i for i, v in enumerate(grid.cells) if v]
    gone = set(rng.sample(givens, min(drop, len(givens))))
    return Grid([0 if i in gone else v for i, v in enumerate(grid.cells)], grid.shape)


def assert_counts_agree(puzzle: Grid, engine: BacktrackStrategy, limit: int) -> tuple[int, dict[str, int]]:
    """``engine`` and cp-sat count ``puzzle``'s solutions alike up to ``limit``; the count and the engine's stats."""
    mine, theirs = engine.solve(puzzle, limit=limit), CPSAT.solve(puzzle, limit=limit)
    assert theirs.status is not Status.TIMEOUT
    assert (mine.count, mine.exact) == (theirs.count, theirs.exact), puzzle.to_line()
    assert len(set(mine.solutions)) == len(mine.solutions) == mine.count
    assert all(is_solution(puzzle, s) for s in mine.solutions)
    assert mine.status is (Status.SOLVED if mine.count else Status.UNSOLVABLE)
    return mine.count, mine.stats


def test_the_inference_option() -> None:
    assert (AUTO.inference, STRONG.inference, SINGLES.inference, LEARN.inference) == (
        "auto",
        "strong",
        "singles",
        "learn",
    )
    assert repr(STRONG) == "BacktrackStrategy(order='smart', inference='strong')"
    assert repr(AUTO) == "BacktrackStrategy(order='smart')"
    with pytest.raises(ValueError, match="inference must be 'auto', 'singles', 'strong' or 'learn'"):
        BacktrackStrategy(inference="pairs")  # type: ignore[arg-type]


def test_claims_boards_up_to_36x36() -> None:
    caps: Capabilities = AUTO.capabilities
    assert caps.max_side == 36
    assert caps.shape_problem(Grid.empty("6x6").shape) is None
    assert caps.counting and caps.time_limit


@pytest.mark.parametrize(("puzzle", "solution"), SIXTEEN, ids=[f"4x4-{k}" for k in range(len(SIXTEEN))])
def test_every_16x16_is_solved_to_its_files_solution_and_proved_unique(puzzle: Grid, solution: Grid) -> None:
    result = AUTO.solve(puzzle, limit=2)
    assert result.status is Status.SOLVED and result.solution == solution
    assert is_solution(puzzle, result.solution)
    assert (result.count, result.exact, result.unique) == (1, True, True)
    assert result.stats["probes"] > 0  # the big-board search ran


def test_the_kits_25x25_is_solved() -> None:
    (known,) = corpus.of_shape(Grid.empty("5x5").shape)
    result = AUTO.solve(known.puzzle, time_limit=60)
    assert result.status is Status.SOLVED and result.solution == known.solution
    assert result.stats["locked_candidates"] > 0 and result.stats["probes"] > 0


#: 25x25 boards of puzzles/sizes past the first (which backtrack does not finish in a minute): the next two.
TWENTY_FIVE = sized("5x5")[1:3]


@pytest.mark.skipif(not TWENTY_FIVE, reason="puzzles/sizes/box5x5.txt has one puzzle")
@pytest.mark.parametrize(("puzzle", "solution"), TWENTY_FIVE, ids=[f"5x5-{k + 2}" for k in range(len(TWENTY_FIVE))])
def test_25x25_boards_are_solved_to_their_files_solution(puzzle: Grid, solution: Grid) -> None:
    result = AUTO.solve(puzzle, time_limit=60)  # under a second each; the singles alone do not finish in 10 s
    assert result.status is Status.SOLVED and result.solution == solution


def test_9x9_keeps_the_singles_search() -> None:
    puzzle = Grid.parse(puzzles("top95.txt")[0])
    auto, singles, strong = AUTO.solve(puzzle, limit=2), SINGLES.solve(puzzle, limit=2), STRONG.solve(puzzle, limit=2)
    assert auto.stats == singles.stats  # the same search, node for node
    assert "locked_candidates" not in auto.stats and strong.stats["locked_candidates"] > 0
    assert auto.solutions == strong.solutions and (auto.count, auto.exact) == (strong.count, strong.exact) == (1, True)


# --- soundness: counts against cp-sat --------------------------------------------------------------------


def test_the_strong_inference_counts_random_9x9_boards_like_cp_sat() -> None:
    rng = random.Random(11)
    counts, failed = [], 0
    for text in puzzles("top95.txt")[:16]:
        full = SINGLES.solve(Grid.parse(text)).solution
        assert full is not None
        # 46 to 53 of the 81 cells blank: from one solution to past the limit.
        count, stats = assert_counts_agree(loosened(full, rng, drop=rng.randrange(46, 54)), STRONG, limit=60)
        counts.append(count)
        failed += stats["failed_literals"]
    assert len(set(counts)) > 4 and min(counts) < 10 and max(counts) == 60, counts
    assert failed > 0  # the look-ahead placed digits of its own, and the counts stayed right


def test_16x16_counts_agree_with_cp_sat() -> None:
    rng = random.Random(16)
    # The files' solutions with 120 to 140 of 256 cells blank (a handful to past the limit), and a puzzle
    # with three givens fewer (past the limit).
    boards = [loosened(solution, rng, drop=rng.randrange(120, 141)) for _, solution in SIXTEEN]
    boards.append(loosened(SIXTEEN[0][0], rng, drop=3))
    counts = [assert_counts_agree(board, AUTO, limit=40)[0] for board in boards]
    assert len(set(counts)) > 2 and min(counts) < 40 and counts[-1] == 40, counts


def test_a_wrong_given_on_a_16x16_is_proved_unsolvable() -> None:
    # A 16x16 with one given changed to a digit its cell may not hold: no solution, proved exactly.
    puzzle, solution = SIXTEEN[0]
    cells = list(puzzle.cells)
    rng = random.Random(3)
    for _ in range(5):
        i = rng.choice([i for i, v in enumerate(cells) if not v])
        cells[i] = solution.cells[i] % 16 + 1
        wrong = Grid(cells, puzzle.shape, validate=False)
        result = AUTO.solve(wrong, limit=2)
        assert (result.status, result.count, result.exact) == (Status.UNSOLVABLE, 0, True)
        cells[i] = 0


# --- counting and time limits on big boards -----------------------------------------------------------------


@pytest.mark.parametrize("box", ["4x4", "5x5", "6x6"])
def test_an_empty_big_board_counts_to_its_limit(box: str) -> None:
    empty = Grid.empty(box)
    result = AUTO.solve(empty, limit=3, keep=2, time_limit=60)
    assert (result.status, result.count, result.exact) == (Status.SOLVED, 3, False)
    assert len(result.solutions) == 2 and len(set(result.solutions)) == 2
    assert all(is_solution(empty, s) for s in result.solutions)


def test_a_short_time_limit_stops_a_big_count() -> None:
    empty = Grid.empty("6x6")
    with spent() as took:
        result = AUTO.solve(empty, limit=10**9, time_limit=0.05)
    assert result.status is Status.TIMEOUT and not result.exact
    assert result.count == len(result.solutions)
    # Only a search that never looks at the clock fails this: CPU time, which a busy machine does not stretch.
    assert took.cpu < 2.0 and took.wall < hang_guard(2.0), took


# --- clause learning (25x25 and up, or inference="learn") -------------------------------------------------


def test_16x16_keeps_the_search_without_learning() -> None:
    result = AUTO.solve(SIXTEEN[0][0], limit=2)
    assert "conflicts" not in result.stats and result.stats["probes"] > 0


def test_learning_counts_random_9x9_boards_like_cp_sat() -> None:
    rng = random.Random(37)
    counts, conflicts = [], 0
    for text in puzzles("top95.txt")[20:32]:
        full = SINGLES.solve(Grid.parse(text)).solution
        assert full is not None
        count, stats = assert_counts_agree(loosened(full, rng, drop=rng.randrange(48, 58)), LEARN, limit=50)
        counts.append(count)
        conflicts += stats["conflicts"]
    assert len(set(counts)) > 4 and min(counts) < 10 and max(counts) == 50, counts
    assert conflicts > 0  # clauses were learned, and the counts stayed right


def test_learning_counts_16x16_boards_like_cp_sat() -> None:
    rng = random.Random(61)
    boards = [loosened(solution, rng, drop=rng.randrange(125, 145)) for _, solution in SIXTEEN]
    boards.append(loosened(SIXTEEN[1][0], rng, drop=4))
    results = [assert_counts_agree(board, LEARN, limit=30) for board in boards]
    counts = [count for count, _ in results]
    assert len(set(counts)) > 2 and min(counts) < 30 and counts[-1] == 30, counts
    assert sum(stats["conflicts"] for _, stats in results) > 0  # clauses were learned, and the counts stayed right


def test_learning_proves_a_wrong_16x16_unsolvable() -> None:
    puzzle, solution = SIXTEEN[2]
    cells = list(puzzle.cells)
    i = next(i for i, v in enumerate(cells) if not v)
    cells[i] = solution.cells[i] % 16 + 1
    result = LEARN.solve(Grid(cells, puzzle.shape, validate=False), limit=2)
    assert (result.status, result.count, result.exact) == (Status.UNSOLVABLE, 0, True)
    assert result.stats["conflicts"] > 0


@pytest.mark.parametrize(("puzzle", "solution"), TWENTY_FIVE, ids=[f"5x5-{k + 2}" for k in range(len(TWENTY_FIVE))])
def test_learning_proves_25x25_boards_unique(puzzle: Grid, solution: Grid) -> None:
    result = LEARN.solve(puzzle, limit=2, time_limit=60)
    assert (result.status, result.count, result.exact) == (Status.SOLVED, 1, True)
    assert result.solution == solution and result.stats["learned_clauses"] > 0


def test_learning_counts_25x25_boards_like_cp_sat() -> None:
    rng = random.Random(25)
    puzzle, solution = sized("5x5")[1]
    # A solution with 250 to 290 of 625 cells blank (a few to tens of solutions, counted to the end), and
    # the puzzle with 9 givens taken away (past the limit, with conflicts on the way).
    boards = [loosened(solution, rng, drop=rng.randrange(250, 291)) for _ in range(3)]
    boards.append(loosened(puzzle, rng, drop=9))
    results = [assert_counts_agree(board, LEARN, limit=30) for board in boards]
    counts = [count for count, _ in results]
    assert min(counts) < 30 and counts[-1] == 30 and len(set(counts)) > 2, counts
    assert sum(stats["conflicts"] for _, stats in results) > 0


def test_the_search_turns_to_learning_after_failed_guesses(monkeypatch: pytest.MonkeyPatch) -> None:
    puzzle, solution = sized("5x5")[1]
    monkeypatch.setattr(backtrack, "LEARN_AFTER", 3)
    result = AUTO.solve(puzzle, limit=2, time_limit=60)
    assert (result.status, result.count, result.exact, result.solution) == (Status.SOLVED, 1, True, solution)
    assert result.stats["probes"] > 0 and result.stats["conflicts"] > 0  # both searches ran
    assert result.stats["backtracks"] - result.stats["conflicts"] > 3  # the guesses that failed before learning
    # An empty board's search seldom fails a guess: it keeps the search, and finds solutions at once.
    empty = AUTO.solve(Grid.empty("5x5"), limit=2)
    assert empty.count == 2 and empty.stats["conflicts"] == 0


def test_a_time_limit_stops_the_learning_search() -> None:
    hard, _ = sized("5x5")[0]
    with spent() as took:
        result = LEARN.solve(hard, time_limit=0.5)
    assert (result.status, result.count, result.exact) == (Status.TIMEOUT, 0, False)
    assert result.stats["conflicts"] > 0
    assert took.cpu < 5.0 and took.wall < hang_guard(5.0), took  # the clock is read every 256 conflicts


@pytest.mark.parametrize("box", ["2x2", "2x3", "2x4", "3x3", "3x4"])
def test_learning_on_every_box_shape(box: str) -> None:
    # Rectangular boxes meet rows and columns in segments of two lengths: the locked candidates' tables.
    for puzzle, solution in sized(box):
        result = LEARN.solve(puzzle, limit=2)
        assert (result.count, result.exact, result.solution) == (1, True, solution)
        loose = loosened(solution, random.Random(puzzle.to_line()), drop=len(puzzle.cells) * 11 // 20)
        assert_counts_agree(loose, LEARN, limit=20)
