"""The ``numba`` engine: ``backtrack``'s search compiled by numba, checked against ``backtrack`` and against itself.

Its ``solve`` must give what ``backtrack`` gives (on boards below 16x16 node for node, as it is the same
search), its ``solve_many`` what its ``solve`` gives puzzle by puzzle, on the shipped puzzle files.
"""

from __future__ import annotations

import _thread
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from sudokit import MANY_STATUS, Grid, Shape, Status, get_strategy, solve
from sudokit_strategies import jit
from tests.conftest import PUZZLES, ROOT, counted, puzzles, sized
from tests.timing import hang_guard, spent

BACKTRACK = get_strategy("backtrack")


@pytest.fixture(scope="module")
def numba():  # type: ignore[no-untyped-def]
    return get_strategy("numba")  # through the entry point, as users reach it


@pytest.fixture(scope="module")
def singles():  # type: ignore[no-untyped-def]
    """The general kernel on every board: on 9x9 ``backtrack``'s search node for node (the default: the bit board)."""
    return get_strategy("numba", inference="singles")


def is_solution(puzzle: Grid, cells: tuple[int, ...]) -> bool:
    """True when ``cells`` fill ``puzzle`` by the rules (checked here, sharing nothing with the engines)."""
    n, (br, bc) = puzzle.n, (puzzle.shape.box_rows, puzzle.shape.box_cols)
    if len(cells) != n * n or any(g and g != c for g, c in zip(puzzle.cells, cells, strict=True)):
        return False
    digits = set(range(1, n + 1))
    rows = [cells[r * n : r * n + n] for r in range(n)]
    cols = [cells[c::n] for c in range(n)]
    boxes = [
        [cells[(r0 + r) * n + c0 + c] for r in range(br) for c in range(bc)]
        for r0 in range(0, n, br)
        for c0 in range(0, n, bc)
    ]
    return all(set(unit) == digits for unit in rows + cols + boxes)


def hard25() -> Grid:
    """Line 1 of the 25x25 file: neither engine solves it in seconds."""
    return sized("5x5")[0][0]


def easy25() -> tuple[Grid, Grid]:
    """Line 2 of the 25x25 file with every other blank filled from its solution (still unique), and the solution."""
    puzzle, solution = sized("5x5")[1]
    blanks = [i for i, v in enumerate(puzzle.cells) if not v]
    cells = list(puzzle.cells)
    for i in blanks[::2]:
        cells[i] = solution.cells[i]
    return Grid(cells, puzzle.shape), solution


#: The counters that do not depend on the order singles are placed in (the number of singles does).
SEARCH_STATS = ("nodes", "guesses", "backtracks", "max_depth")
BIG_STATS = (*SEARCH_STATS, "locked_candidates", "probes", "failed_literals")


def same_as_backtrack(mine, theirs, *, nodes: bool, keys: tuple[str, ...] = SEARCH_STATS) -> None:  # type: ignore[no-untyped-def]
    assert (mine.status, mine.count, mine.exact) == (theirs.status, theirs.count, theirs.exact), mine.puzzle.to_line()
    assert mine.solution == theirs.solution
    if nodes:  # the same search visits the same nodes and makes the same guesses
        for key in keys:
            assert mine.stats[key] == theirs.stats[key], (key, mine.puzzle.to_line())


# --- solve() against backtrack ------------------------------------------------------------------------


def test_counts_agree_with_the_file_and_with_backtrack_node_for_node(numba, singles) -> None:  # type: ignore[no-untyped-def]
    limit = max(expected for _, expected in counted()) + 1
    for text, expected in counted():
        grid = Grid.parse(text)
        theirs = BACKTRACK.solve(grid, limit=limit)
        for engine in (numba, singles):
            mine = engine.solve(grid, limit=limit)
            assert mine.count == expected and mine.exact, text
            assert len({s.cells for s in mine.solutions}) == expected  # distinct
            assert all(is_solution(grid, s.cells) for s in mine.solutions)
        # the bit board finds the same solutions, in its own order; the general kernel is backtrack's search
        assert {s.cells for s in numba.solve(grid, limit=limit).solutions} == {s.cells for s in theirs.solutions}
        same_as_backtrack(singles.solve(grid, limit=limit), theirs, nodes=True)


def test_top95_agrees_with_backtrack_node_for_node(numba, singles) -> None:  # type: ignore[no-untyped-def]
    for text in puzzles("top95.txt"):
        grid = Grid.parse(text)
        theirs = BACKTRACK.solve(grid, limit=2)
        mine = numba.solve(grid, limit=2)
        assert mine.unique and is_solution(grid, mine.solution.cells)
        same_as_backtrack(mine, theirs, nodes=False)
        same_as_backtrack(singles.solve(grid, limit=2), theirs, nodes=True)


def variations(step: int) -> list[Grid]:
    """Every ``step``-th 17-clue puzzle (unique), each also less one given (most have several solutions, up to
    thousands), with a wrong digit in a blank (mostly unsolvable, seldom at once) and with a digit repeated
    in a unit (unsolvable from the givens)."""
    out = []
    for i, text in enumerate(puzzles("17clue.txt")[::step]):
        grid = Grid.parse(text)
        cells = list(grid.cells)
        givens = [c for c, v in enumerate(cells) if v]
        blanks = [c for c, v in enumerate(cells) if not v]
        less = cells.copy()
        less[givens[i % len(givens)]] = 0
        wrong = cells.copy()
        wrong[blanks[(7 * i) % len(blanks)]] = 1 + i % 9
        twice = cells.copy()
        c = givens[i % len(givens)]
        twice[c - c % 9 + (c % 9 + 1 + i % 8) % 9] = cells[c]  # its digit again in its row
        out += [grid, Grid(less, grid.shape), Grid(wrong, grid.shape, validate=False)]
        out.append(Grid(twice, grid.shape, validate=False))
    return out


def test_the_9x9_bit_board_counts_and_finds_what_backtrack_does(numba) -> None:  # type: ignore[no-untyped-def]
    """Not the same search (box-line interaction, guesses on a cell of two): the same counts, exactness,
    statuses and the same set of solutions, on 3,300 puzzles unique, with many solutions and with none (and
    counts.txt's, with 0 to 1,618)."""
    grids = variations(60) + [Grid.parse(text) for text, _ in counted()]
    statuses = set()
    for grid in grids:
        mine, theirs = numba.solve(grid, limit=10), BACKTRACK.solve(grid, limit=10)
        assert (mine.status, mine.count, mine.exact) == (theirs.status, theirs.count, theirs.exact), grid.to_line()
        if mine.exact:  # every solution found (cut at the limit, each engine has its first 10 in its order)
            assert {s.cells for s in mine.solutions} == {s.cells for s in theirs.solutions}, grid.to_line()
        assert len({s.cells for s in mine.solutions}) == mine.count
        assert all(is_solution(grid, s.cells) for s in mine.solutions)
        statuses.add((mine.status, mine.count > 1, mine.exact))
    # unique, several (counted to the end and cut at the limit) and unsolvable were all met
    assert statuses >= {(Status.SOLVED, False, True), (Status.SOLVED, True, True), (Status.SOLVED, True, False)}
    assert (Status.UNSOLVABLE, False, True) in statuses


@pytest.mark.parametrize("box", ["2x2", "2x3", "2x4", "3x3", "3x4", "4x4", "6x6"])
def test_every_size_agrees_with_backtrack_and_the_file(numba, singles, box: str) -> None:  # type: ignore[no-untyped-def]
    for puzzle, solution in sized(box):
        mine = numba.solve(puzzle, limit=2, time_limit=30)
        assert mine.status is Status.SOLVED and mine.unique and mine.solution == solution
        assert set(mine.stats) >= set(BIG_STATS if puzzle.n >= 16 else SEARCH_STATS)
        # node for node below 16x16, where backtrack's search is the classic one and stays so (but on 9x9,
        # where the default is the bit board: the general kernel there)
        theirs = BACKTRACK.solve(puzzle, limit=2, time_limit=30)
        same_as_backtrack(mine, theirs, nodes=puzzle.n < 16 and puzzle.n != 9)
        if puzzle.n == 9:
            same_as_backtrack(singles.solve(puzzle, limit=2), theirs, nodes=True)


def test_the_25x25_file_but_its_first_line_in_well_under_a_second_each(numba) -> None:  # type: ignore[no-untyped-def]
    for puzzle, solution in sized("5x5")[1:]:  # backtrack takes seconds on each
        with spent() as took:  # CPU time: a busy machine stretches the wall time, not this
            mine = numba.solve(puzzle, limit=2, time_limit=60)
        assert mine.unique and mine.solution == solution and took.cpu < 1.0, took


def test_strong_inference_is_backtracks_node_for_node(numba) -> None:  # type: ignore[no-untyped-def]
    """Locked candidates and the look-ahead, which 16x16 and more get, forced on 9x9 on both engines."""
    strong, theirs = get_strategy("numba", inference="strong"), get_strategy("backtrack", inference="strong")
    for text in puzzles("hardest.txt") + puzzles("top95.txt")[:10]:
        grid = Grid.parse(text)
        same_as_backtrack(strong.solve(grid, limit=2), theirs.solve(grid, limit=2), nodes=True, keys=BIG_STATS)
    plain = get_strategy("numba", inference="singles").solve(sized("4x4")[0][0], limit=2)
    assert "probes" not in plain.stats and plain.unique


def test_an_easy_25x25_agrees_with_backtrack_and_the_file(numba) -> None:  # type: ignore[no-untyped-def]
    puzzle, solution = easy25()
    mine = numba.solve(puzzle, limit=2, time_limit=30)
    assert mine.unique and mine.solution == solution
    same_as_backtrack(mine, BACKTRACK.solve(puzzle, limit=2, time_limit=30), nodes=False)


def test_through_sudokit_solve_and_its_checks() -> None:
    result = solve(puzzles("hardest.txt")[0], "numba", limit=2)
    assert result.status is Status.SOLVED and result.unique and result.strategy == "numba"
    assert result.stats["nodes"] >= 1 and result.elapsed > 0


# --- counting, keep, odd boards -----------------------------------------------------------------------


def test_counting_returns_distinct_solutions_and_keeps_what_is_asked(numba) -> None:  # type: ignore[no-untyped-def]
    empty = Grid([0] * 16, "2x2")  # 288 solutions: more than the kernel's buffer holds, so it is drained
    every = numba.solve(empty, limit=1000)
    assert every.count == 288 and every.exact and len(every.solutions) == 288
    assert len({s.cells for s in every.solutions}) == 288
    assert all(is_solution(empty, s.cells) for s in every.solutions)
    assert every.count == BACKTRACK.solve(empty, limit=1000).count
    some = numba.solve(empty, limit=100, keep=5)
    assert (some.count, some.exact, len(some.solutions)) == (100, False, 5)
    assert [s.cells for s in some.solutions] == [s.cells for s in every.solutions[:5]]


def test_a_repeated_given_is_unsolvable(numba) -> None:  # type: ignore[no-untyped-def]
    cells = list(Grid.parse(puzzles("top95.txt")[0]).cells)
    cells[1] = cells[0] = 5  # twice in row 1
    grid = Grid(cells, Shape.of(3, 3), validate=False)
    result = numba.solve(grid, limit=2)
    assert (result.status, result.count, result.exact) == (Status.UNSOLVABLE, 0, True)
    many = numba.solve_many(memoryview(bytes(cells)), grid.shape, limit=2)
    assert (many.status[0], many.count[0], many.exact[0]) == (1, 0, 1)
    assert bytes(many.solutions) == bytes(81)


def test_an_empty_board_of_every_box_shape_up_to_36x36(numba) -> None:  # type: ignore[no-untyped-def]
    for rows, cols in [(2, 2), (2, 3), (3, 2), (3, 3), (2, 5), (4, 4), (5, 5), (6, 6)]:
        grid = Grid([0] * (rows * cols) ** 2, Shape.of(rows, cols))
        result = numba.solve(grid, time_limit=30)
        assert result.status is Status.SOLVED and is_solution(grid, result.solution.cells), grid.shape


@pytest.mark.parametrize(
    ("option", "error"),
    [
        ("depth=3", "strategy 'numba' has no option 'depth' (its options: inference)"),
        ("inference=fast", "strategy 'numba': inference must be 'auto', 'singles' or 'strong', not 'fast'"),
    ],
)
def test_options_that_do_not_exist_are_refused(option: str, error: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "sudokit", "solve", "-s", "numba", "-o", option, puzzles("leetcode37.txt")[0]],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip() == f"sudoku: error: {error}"


# --- solve_many is solve, puzzle by puzzle ------------------------------------------------------------


def assert_many_is_solve(numba, grids: list[Grid], limit: int, time_limit: float | None = None) -> None:  # type: ignore[no-untyped-def]
    shape = grids[0].shape
    size = shape.size
    many = numba.solve_many(memoryview(b"".join(bytes(g.cells) for g in grids)), shape, limit=limit)
    for name in ("status", "count", "exact", "elapsed"):
        assert len(memoryview(getattr(many, name)).cast("B")) == len(grids) * memoryview(getattr(many, name)).itemsize
    assert len(memoryview(many.solutions)) == len(grids) * size
    for i, grid in enumerate(grids):
        alone = numba.solve(grid, limit=limit, time_limit=time_limit)
        assert MANY_STATUS[many.status[i]] is alone.status, grid.to_line()
        assert (many.count[i], bool(many.exact[i])) == (alone.count, alone.exact)
        first = tuple(many.solutions[i * size : (i + 1) * size])
        assert first == (alone.solution.cells if alone.solution else (0,) * size)
        assert {k: int(v[i]) for k, v in many.stats.items()} == dict(alone.stats)
        assert many.elapsed[i] > 0


def test_solve_many_is_solve_on_top95(numba) -> None:  # type: ignore[no-untyped-def]
    assert_many_is_solve(numba, [Grid.parse(p) for p in puzzles("top95.txt")], 1)


@pytest.mark.parametrize("limit", [2, 100, 5000])
def test_solve_many_is_solve_on_counts(numba, limit: int) -> None:  # type: ignore[no-untyped-def]
    assert_many_is_solve(numba, [Grid.parse(p) for p, _ in counted()], limit)


@pytest.mark.parametrize("box", ["2x3", "3x4", "4x4"])
def test_solve_many_is_solve_on_6x6_12x12_16x16(numba, box: str) -> None:  # type: ignore[no-untyped-def]
    assert_many_is_solve(numba, [puzzle for puzzle, _ in sized(box)], 2)


def test_solve_many_gives_each_puzzle_its_own_time_limit(numba) -> None:  # type: ignore[no-untyped-def]
    easy, solution = easy25()
    chunk = [hard25(), easy, hard25()]
    with spent() as took:
        many = numba.solve_many(memoryview(b"".join(bytes(g.cells) for g in chunk)), easy.shape, time_limit=0.4)
    assert [MANY_STATUS[s] for s in many.status] == [Status.TIMEOUT, Status.SOLVED, Status.TIMEOUT]
    assert list(many.count) == [0, 1, 0] and list(many.exact) == [0, 0, 0]
    assert tuple(many.solutions[easy.shape.size : 2 * easy.shape.size]) == solution.cells
    # Each timeout at its own limit, not before (a busy machine may make it later: a hang guard only); the
    # easy one solved whatever the limits before it; the CPU time, which load does not stretch, is two limits'.
    assert 0.4 <= many.elapsed[0] < hang_guard(0.4) and 0.4 <= many.elapsed[2] < hang_guard(0.4)
    assert many.elapsed[1] < 0.4 and took.cpu < 0.8 + 0.8, took


def test_solve_many_takes_any_buffer_of_bytes_with_one_compiled_kernel(numba) -> None:  # type: ignore[no-untyped-def]
    grids = [Grid.parse(p) for p in puzzles("hardest.txt")]
    raw = b"".join(bytes(g.cells) for g in grids)
    answers = [numba.solve_many(buffer, grids[0].shape, limit=2) for buffer in (raw, bytearray(raw), memoryview(raw))]
    for many in answers:
        assert list(many.count) == [1] * len(grids) and bytes(many.solutions) == bytes(answers[0].solutions)
    assert len(sys.modules["sudokit_strategies.jit.kernels"].search.signatures) == 1  # nothing compiled twice


def test_solve_many_refuses_a_ragged_buffer(numba) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match="80 cells is not a whole number of 9x9 puzzles"):
        numba.solve_many(memoryview(bytes(80)), Shape.of(3, 3))


# --- time limits, Ctrl-C, resuming ----------------------------------------------------------------------


def test_a_hard_25x25_times_out_on_time(numba) -> None:  # type: ignore[no-untyped-def]
    with spent() as took:
        result = numba.solve(hard25(), time_limit=1)
    assert result.status is Status.TIMEOUT and not result.exact and result.count == 0
    assert 1.0 <= took.wall < hang_guard(1.0) and took.cpu < 1.5 and result.stats["nodes"] > 0, took


def test_the_9x9_bit_board_keeps_its_time_limit_drains_its_solutions_and_stops_at_ctrl_c(numba) -> None:  # type: ignore[no-untyped-def]
    empty = Grid([0] * 81)  # billions of solutions: counting them runs until the limit stops it
    with spent() as took:
        result = numba.solve(empty, limit=10**12, time_limit=0.3)
    assert result.status is Status.TIMEOUT and not result.exact and result.count > 0
    assert 0.3 <= took.wall < hang_guard(0.3) and took.cpu < 1.0, took
    some = numba.solve(empty, limit=100, keep=40)  # more than the kernel's buffer of 16 holds: drained
    assert (some.status, some.count, some.exact) == (Status.SOLVED, 100, False)
    assert len({s.cells for s in some.solutions}) == 40
    assert all(is_solution(empty, s.cells) for s in some.solutions)
    timer = threading.Timer(0.3, _thread.interrupt_main)
    start = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        # no time limit: only Ctrl-C ends it, between two slices (one solution kept: every one kept grew the
        # process by some 200 MB a second until the Ctrl-C came, late on a busy machine)
        numba.solve(empty, limit=10**12, keep=1)
    assert time.perf_counter() - start < hang_guard(0.3)


def test_ctrl_c_stops_a_long_solve(numba) -> None:  # type: ignore[no-untyped-def]
    timer = threading.Timer(0.3, _thread.interrupt_main)
    start = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        numba.solve(hard25())  # no time limit: only Ctrl-C ends it
    assert time.perf_counter() - start < hang_guard(0.3)  # it would run for minutes


def test_a_search_resumed_every_64_nodes_with_a_tiny_stack_is_the_same_search(  # type: ignore[no-untyped-def]
    numba, monkeypatch: pytest.MonkeyPatch
) -> None:
    grids = [Grid.parse(p) for p in puzzles("hardest.txt") + puzzles("top95.txt")[:20]]
    grids.append(sized("4x4")[0][0])
    expected = [numba.solve(g, limit=2) for g in grids]
    monkeypatch.setattr(jit, "_SLICE_SECONDS", 0.0)  # back to Python at every look at the clock
    monkeypatch.setattr(jit, "_FIRST_DEPTH", 2)  # and to grow the stack of states
    monkeypatch.setattr(jit, "_SOLUTION_BUFFER", 1)  # and to drain the solutions one by one
    fresh = jit.NumbaStrategy()
    for grid, before in zip(grids, expected, strict=True):
        again = fresh.solve(grid, limit=2)
        assert (again.status, again.count, again.exact, again.solution) == (
            before.status,
            before.count,
            before.exact,
            before.solution,
        )
        assert again.stats == before.stats
        plain = fresh.solve_plain(grid, limit=2)  # the 9x9 bit board's packed call goes on through ``search`` too
        assert plain[:4] == (before.status.value, (bytes(before.solution.cells),), before.count, before.exact)
    assert fresh._work(grids[-1].shape).stack.shape[0] > 2
    assert fresh._work(grids[0].shape).stack.shape[0] > 2 and fresh._work(grids[0].shape).packed
    counted_again = fresh.solve(Grid([0] * 16, "2x2"), limit=1000)
    assert counted_again.count == 288 and len({s.cells for s in counted_again.solutions}) == 288


def test_solve_plain_is_solve_in_plain_data_and_what_sudokit_solve_returns(numba, singles) -> None:  # type: ignore[no-untyped-def]
    """solve_plain (what sudokit's run() calls) answers as solve does, field by field, on every kind of board and
    answer: unique, counted with keep, unsolvable, timed out; and sudokit.solve gives that answer as a Result."""
    clash = list(Grid.parse(puzzles("17clue.txt")[0]).cells)
    clash[clash.index(0)] = next(v for v in clash if v)  # a digit that some unit already holds
    cases = [(Grid.parse(p), 2, None, None) for p in puzzles("17clue.txt")[:100] + puzzles("hardest.txt")]
    cases += [(Grid.parse(t), 10, 3, None) for t, _ in counted()[:20]]
    cases += [(sized("4x4")[0][0], 2, None, None), (Grid(clash, validate=False), 1, None, None)]
    cases += [(Grid([0] * 81), 10**9, 2, 0.05), (hard25(), 1, None, 0.05)]
    for engine in (numba, singles):
        for grid, limit, keep, time_limit in cases:
            result = engine.solve(grid, limit=limit, keep=keep, time_limit=time_limit)
            answer = engine.solve_plain(grid, limit=limit, keep=keep, time_limit=time_limit)
            status, cells, count, exact, elapsed, stats, error = answer
            assert (status, error, type(exact), type(elapsed)) == (result.status.value, None, bool, float)
            if result.status is Status.TIMEOUT:  # how far a timed-out count got is the clock's
                assert not exact and len(cells) == min(count, keep or limit), (grid, answer)
                continue
            assert cells == tuple(bytes(s.cells) for s in result.solutions), grid
            assert (count, exact, dict(stats)) == (result.count, result.exact, result.stats), grid
            through = solve(grid, "numba" if engine is numba else engine, limit=limit, keep=keep)
            assert (through.status, through.count, through.exact, through.solutions) == (
                result.status,
                result.count,
                result.exact,
                result.solutions,
            )


# --- start-up and the disk cache -------------------------------------------------------------------------


def python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**clean, **env},
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
    )


def test_importing_the_engine_does_not_import_numba() -> None:
    proc = python(
        "import sys, sudokit, sudokit_strategies.jit\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numba', 'numpy', 'llvmlite')))"
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_the_kernel_is_cached_in_the_users_cache_directory(tmp_path: Path) -> None:
    where = (
        "from sudokit_strategies.jit import kernels as k\n"
        "print(k.numba.config.CACHE_DIR)\n"
        "print(k.search._cache._cache_path)\n"
    )
    proc = python(where, XDG_CACHE_HOME=str(tmp_path / "xdg"))
    assert proc.returncode == 0, proc.stderr
    config, path = proc.stdout.splitlines()
    assert config == str(tmp_path / "xdg" / "sudokit" / "numba")
    assert Path(path).is_relative_to(config)
    proc = python(where, XDG_CACHE_HOME=str(tmp_path / "xdg"), NUMBA_CACHE_DIR=str(tmp_path / "mine"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0] == str(tmp_path / "mine")  # the user's choice wins


def test_this_process_left_its_compiled_kernel_on_disk(numba) -> None:  # type: ignore[no-untyped-def]
    kernels = sys.modules["sudokit_strategies.jit.kernels"]
    cached = Path(kernels.search._cache._cache_path)
    assert cached.is_relative_to(kernels.cache_dir())
    assert list(cached.glob("kernels.search-*.nbi")) and list(cached.glob("kernels.search-*.nbc"))


def test_the_cli_solves_a_file_with_numba(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "sudokit",
            "solve",
            "-s",
            "numba",
            "-f",
            "line",
            "--jobs",
            "1",
            str(PUZZLES / "hardest.txt"),
        ],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == len(puzzles("hardest.txt"))
    for text, line in zip(puzzles("hardest.txt"), lines, strict=True):
        puzzle, answer = line.split(":")[:2]
        assert puzzle == text and is_solution(Grid.parse(text), Grid.parse(answer).cells)
