"""The ``python-constraint`` engine (real python-constraint2): puzzle sets, counts, time limits, its worker.

Searches that must outlast a timer count the solutions of an empty 25x25 board: no engine ends that.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

import pytest

from sudokit import Grid, Result, Shape, Status, StrategyError, get_strategy, is_solution, solve
from sudokit.io.reader import read_file
from sudokit_strategies import csp
from sudokit_strategies.csp import SOLVERS, ConstraintStrategy, stop_workers

from .timing import hang_guard, spent

PUZZLES = Path(__file__).parent.parent / "puzzles"
MORNING = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
T = TypeVar("T")
SLACK = 1.5  # CPU seconds a timed-out call may spend past its limit (starting and killing the worker)
NEVER_ENDS = 10**9  # a count limit no search reaches: counting an empty 25x25 board runs until stopped


# For scripts run in a child python: the running children of that python.
CHILDREN = textwrap.dedent("""
    import os

    def children():
        me, found = str(os.getpid()), []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/stat") as stat:
                    state, parent = stat.read().rpartition(")")[2].split()[:2]
            except OSError:
                continue
            if parent == me and state != "Z":
                found.append(int(pid))
        return found
""")


@pytest.fixture(scope="module")
def engine() -> ConstraintStrategy:
    strategy = get_strategy("python-constraint")  # through the entry point, as users reach it
    assert isinstance(strategy, ConstraintStrategy)
    return strategy


def puzzles(name: str) -> list[Grid]:
    return [record.parse() for record in read_file(PUZZLES / name)]


def in_pairs(work: Callable[[T], Result], items: Iterable[T]) -> list[Result]:
    """Run two at a time: with a time limit, each search runs in its own worker process."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(work, items))


def _stat(pid: int | str) -> list[str]:
    """The fields of /proc/PID/stat after the command name: state, parent, ..."""
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rpartition(")")[2].split()


def running(pids: Iterable[int]) -> set[int]:
    """Those of ``pids`` still running (a zombie, ended but not yet reaped, is not)."""
    alive = set()
    for pid in pids:
        try:
            if _stat(pid)[0] != "Z":
                alive.add(pid)
        except OSError:
            pass  # gone
    return alive


def children() -> set[int]:
    """This process's running children, by a scan of /proc."""
    me = str(os.getpid())
    found = set()
    for entry in os.listdir("/proc"):
        try:
            if entry.isdigit() and _stat(entry)[1] == me:
                found.add(int(entry))
        except OSError:
            pass  # ended meanwhile
    return running(found)


@pytest.mark.parametrize("name", ["easy50.txt", "hardest.txt"])
def test_solves_every_puzzle_of_a_set(engine: ConstraintStrategy, name: str) -> None:
    for puzzle in puzzles(name):
        result = engine.solve(puzzle)  # no time limit
        assert result.status is Status.SOLVED, puzzle
        assert (result.count, result.exact) == (1, False)
        assert is_solution(puzzle, result.solution)


def test_solves_all_of_top95(engine: ConstraintStrategy) -> None:
    grids = puzzles("top95.txt")
    results = in_pairs(lambda grid: engine.solve(grid, time_limit=60), grids)  # the slowest takes ~6 s alone
    assert len(results) == 95
    for puzzle, result in zip(grids, results, strict=True):
        assert result.status is Status.SOLVED, puzzle
        assert is_solution(puzzle, result.solution)


@pytest.mark.parametrize("box", ["2x2", "2x3", "2x4", "3x3", "3x4"])
def test_solves_every_board_shape_up_to_12x12(engine: ConstraintStrategy, box: str) -> None:
    for record in read_file(PUZZLES / "sizes" / f"box{box}.txt"):
        puzzle = record.parse()
        assert str(puzzle.shape) == box
        result = engine.solve(puzzle, time_limit=60)
        assert result.status is Status.SOLVED, record.where
        assert result.solution == Grid.parse(record.note or "", puzzle.shape)


#: Which boards of puzzles/sizes the tests solve: quick ones (well under 1 s each here; 16x16 with singles
#: alone took up to 2.9 s, 25x25 and 36x36 none in 60 s). benchmarks/bench_csp.py times them all.
QUICK = [("4x4", 1), ("4x4", 4), ("5x5", 2), ("6x6", 0), ("6x6", 1)]


@pytest.mark.parametrize(("box", "index"), QUICK)
def test_solves_boards_up_to_36x36(engine: ConstraintStrategy, box: str, index: int) -> None:
    record = list(read_file(PUZZLES / "sizes" / f"box{box}.txt"))[index]
    puzzle = record.parse()
    result = solve(puzzle, "python-constraint", time_limit=60)  # through the core: every size is declared
    assert result.status is Status.SOLVED, record.where
    assert result.solution == Grid.parse(record.note or "", puzzle.shape)
    assert engine.capabilities.max_side == 36


def test_stronger_inference_shrinks_a_16x16_search() -> None:
    # Locked candidates and failed literals, on by default from 16x16: they decide cells singles leave open.
    puzzle = list(read_file(PUZZLES / "sizes" / "box4x4.txt"))[1].parse()
    singles, pairs = csp._model(puzzle, level=0), csp._model(puzzle, level=1)
    assert singles is not None and pairs is not None
    assert len(pairs[1]) < len(singles[1])  # fewer cells left open for the search
    assert ConstraintStrategy().level(16) == 1 and ConstraintStrategy().level(9) == 0


def random_puzzle(rng: random.Random, shape: Shape, givens: int) -> Grid:
    """``givens`` cells of a random solution of ``shape``, the rest blank; one in ten changed to a random digit."""
    solution = solve(Grid.empty(shape), "cp-sat").solution
    assert solution is not None
    digits = list(range(1, shape.n + 1))
    relabel = dict(zip(digits, rng.sample(digits, shape.n), strict=True))
    cells = [0] * shape.size
    for i in rng.sample(range(shape.size), givens):
        cells[i] = relabel[solution.cells[i]] if rng.random() > 0.1 else rng.choice(digits)
    return Grid(tuple(cells), shape, validate=False)


def test_propagation_keeps_every_solution(engine: ConstraintStrategy) -> None:
    # The all-different's propagation (singles, and locked candidates at the root) prunes only digits that
    # no solution holds: on random boards, few givens or many, some clashing, every count equals cp-sat's.
    rng = random.Random(11)
    cases = [(Shape.of(2, 2), g) for g in (3, 5, 7)] + [(Shape.of(2, 3), g) for g in (8, 11, 14, 17)]
    cases += [(Shape.of(3, 3), g) for g in (26, 28, 30)]
    seen = set()
    for shape, givens in cases * 2:
        puzzle = random_puzzle(rng, shape, givens)
        ours = engine.solve(puzzle, limit=300, keep=1, time_limit=60)
        theirs = solve(puzzle, "cp-sat", limit=300, keep=1)
        assert (ours.count, ours.exact) == (theirs.count, theirs.exact), puzzle.to_line()
        seen.add(min(theirs.count, 2))
    assert seen == {0, 1, 2}  # unsolvable, unique and several-solution boards were all met


def test_every_inference_and_branching_keeps_every_count() -> None:
    # Failed literals (of a cell's two digits, of a digit's two places) and the place variables, forced on
    # small boards: every count equals cp-sat's, each grid found once.
    rng = random.Random(5)
    cases = [(Shape.of(2, 2), 3), (Shape.of(2, 3), 8), (Shape.of(2, 3), 11), (Shape.of(3, 3), 24), (Shape.of(3, 3), 27)]
    puzzles = [random_puzzle(rng, shape, givens) for shape, givens in cases] + [Grid.parse(MORNING)]
    expected = [solve(p, "cp-sat", limit=200, keep=1) for p in puzzles]
    seen = set()
    for branching, inference in (("cells", "pairs"), ("places", "places")):
        engine = ConstraintStrategy(branching=branching, inference=inference)
        for puzzle, theirs in zip(puzzles, expected, strict=True):
            ours = engine.solve(puzzle, limit=200, keep=200, time_limit=60)
            assert (ours.count, ours.exact) == (theirs.count, theirs.exact), (branching, inference, puzzle.to_line())
            assert len(set(ours.solutions)) == ours.count
            seen.add(min(theirs.count, 2))
    assert seen == {0, 1, 2}


@pytest.mark.parametrize(("box", "limit"), [("4x4", 1.0), ("5x5", 2.0)])
def test_large_boards_are_solved_or_stopped_in_time(engine: ConstraintStrategy, box: str, limit: float) -> None:
    # Some of these take seconds (box5x5's first far more than the limit): the point is the clean stop.
    # On a busy machine the wall time grows with the load: the CPU time the workers spent is what is bounded.
    records = list(read_file(PUZZLES / "sizes" / f"box{box}.txt"))[:3]
    with spent() as took:
        results = in_pairs(lambda record: engine.solve(record.parse(), time_limit=limit), records)
    assert took.cpu < len(records) * (limit + SLACK), took
    assert took.wall < hang_guard(limit * (len(records) + 1) / 2), took
    for record, result in zip(records, results, strict=True):
        assert result.status in (Status.SOLVED, Status.TIMEOUT), record.where
        assert result.elapsed < hang_guard(limit)
        if result.status is Status.TIMEOUT:
            assert result.elapsed >= limit, record.where  # stopped at the limit, not before
        if result.solved:
            assert result.solution == Grid.parse(record.note or "", result.puzzle.shape)


def test_reproduces_every_count(engine: ConstraintStrategy) -> None:
    records = list(read_file(PUZZLES / "counts.txt"))
    expected = [int(r.note or "") for r in records]
    grids = [r.parse() for r in records]
    results = in_pairs(lambda k: engine.solve(grids[k], limit=expected[k] + 1, time_limit=60), range(len(grids)))
    for record, count, result in zip(records, expected, results, strict=True):
        assert (result.count, result.exact) == (count, True), record.where
        assert result.status is (Status.SOLVED if count else Status.UNSOLVABLE)
        assert len(set(result.solutions)) == count
        assert all(is_solution(result.puzzle, s) for s in result.solutions)


def test_stops_counting_at_the_limit(engine: ConstraintStrategy) -> None:
    record = next(r for r in read_file(PUZZLES / "counts.txt") if r.note == "1618")
    for time_limit in (None, 60):
        result = engine.solve(record.parse(), limit=100, time_limit=time_limit)
        assert (result.status, result.count, result.exact, result.unique) == (Status.SOLVED, 100, False, False)
        assert len(set(result.solutions)) == 100


def test_unsolvable_on_sight_without_a_search(engine: ConstraintStrategy) -> None:
    no_digit_left = Grid.parse(".23456789" + "1" + "." * 71)  # row 1 holds 2..9, column 1 the 1
    clashing_givens = Grid((5, 5) + (0,) * 79, Shape.of(3, 3), validate=False)  # built unchecked on purpose
    for puzzle in (no_digit_left, clashing_givens):
        result = engine.solve(puzzle, limit=2, time_limit=5)
        assert (result.status, result.count, result.exact, result.solutions) == (Status.UNSOLVABLE, 0, True, ())
        assert "search_time" not in result.stats


def test_unsolvable_after_a_search(engine: ConstraintStrategy) -> None:
    # Most unsolvable puzzles of counts.txt fall to the propagation before the search: take one that does not.
    record = next(r for r in read_file(PUZZLES / "counts.txt") if r.note == "0" and csp._model(r.parse()) is not None)
    for time_limit in (None, 30):
        result = engine.solve(record.parse(), time_limit=time_limit)
        assert (result.status, result.count, result.exact) == (Status.UNSOLVABLE, 0, True)
        assert result.stats["variables"] > 0 and result.stats["constraints"] > 0


def test_a_full_board_is_its_own_solution(engine: ConstraintStrategy) -> None:
    solution = engine.solve(Grid.parse(MORNING)).solution
    assert solution is not None
    result = engine.solve(solution, limit=2)
    assert (result.status, result.solutions, result.exact) == (Status.SOLVED, (solution,), True)


def test_time_limit_kills_the_search_and_keeps_what_it_found(engine: ConstraintStrategy) -> None:
    stop_workers()
    others = children()  # not the engine's: e.g. multiprocessing's resource tracker, left by a Dask test
    # A worker started first, and the empty 9x9 board (its first solutions take milliseconds, 16x16's a third of
    # a second): on a busy machine starting a worker may take longer than the limit by itself.
    assert engine.solve(Grid.parse(MORNING), time_limit=60).solved
    with spent() as took:
        result = engine.solve(Grid.empty(Shape.of(3, 3)), limit=10**9, time_limit=0.5)
    assert took.cpu < 0.5 + SLACK and took.wall < hang_guard(0.5), took  # the search's CPU time, the worker's too
    assert result.status is Status.TIMEOUT and not result.exact and result.elapsed >= 0.5
    assert result.count == len(result.solutions) > 0  # streamed back before the kill
    assert all(is_solution(result.puzzle, s) for s in result.solutions[:50])
    assert children() <= others  # the worker was killed and reaped


def test_a_worker_is_reused_until_stopped(engine: ConstraintStrategy) -> None:
    stop_workers()
    others = children()  # not the engine's: e.g. multiprocessing's resource tracker, left by a Dask test
    first = engine.solve(Grid.parse(MORNING), time_limit=10)
    second = engine.solve(Grid.parse(MORNING), time_limit=10)
    assert first.solution == second.solution
    assert first.stats["worker_start"] > 0 and second.stats["worker_start"] == 0
    assert len(children() - others) == 1
    stop_workers()
    assert children() <= others


def test_an_orphaned_worker_ends_itself() -> None:
    # Should the parent never kill it, a worker ends at its failsafe time, searching or not.
    model = csp._model(Grid.empty(Shape.of(5, 5)))
    assert model is not None
    worker = csp.worker._Worker()
    worker.send((csp._search, model, "backtracking", (10**9, 1), 0.5))  # count to 10**9, send back 1
    assert worker.process.wait(timeout=hang_guard(0.5 + 5)) == -signal.SIGALRM  # 5 s: a start on a busy machine
    worker.kill()


def test_a_worker_dies_with_its_parent() -> None:
    # A parent killed outright cannot kill its worker: the kernel does (Linux's parent-death signal).
    script = CHILDREN + textwrap.dedent(f"""
        import threading
        from sudokit import Grid, Shape, solve

        threading.Timer(1, lambda: print(*children(), flush=True)).start()
        solve(Grid.empty(Shape.of(5, 5)), "python-constraint", limit={NEVER_ENDS}, keep=1, time_limit=60)
    """)
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        workers = {int(pid) for pid in parent.stdout.readline().split()}
    finally:
        parent.kill()
        parent.wait()
    assert len(workers) == 1
    deadline = time.perf_counter() + 60  # a hang guard: the kernel kills it at once
    while running(workers) and time.perf_counter() < deadline:
        time.sleep(0.05)
    assert not running(workers)


def test_ctrl_c_stops_a_search_without_a_time_limit() -> None:
    # The search runs in a worker, so this process stays responsive: a timer thread fires, Ctrl-C lands.
    script = CHILDREN + textwrap.dedent(f"""
        import signal, threading, time
        from sudokit import Grid, Shape, solve

        threading.Timer(1, os.kill, (os.getpid(), signal.SIGINT)).start()
        start = time.perf_counter()
        try:
            solve(Grid.empty(Shape.of(5, 5)), "python-constraint", limit={NEVER_ENDS}, keep=1)
        except KeyboardInterrupt:
            print(time.perf_counter() - start, len(children()))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.stdout, f"no KeyboardInterrupt: {done.stderr}"
    seconds, left = done.stdout.split()
    assert float(seconds) < hang_guard(1) and left == "0", done.stderr  # the worker was killed on the way out


@pytest.mark.parametrize("solver", sorted(SOLVERS))
def test_every_solver_option(solver: str) -> None:
    for puzzle in puzzles("easy50.txt")[:3]:
        result = solve(puzzle, "python-constraint", limit=2, solver=solver)
        assert (result.count, result.exact) == (1, True)
        assert is_solution(puzzle, result.solution)
        assert solver in get_strategy("python-constraint", solver=solver).description


def test_unknown_solver_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown solver 'minconflicts'"):
        ConstraintStrategy(solver="minconflicts")
    with pytest.raises(StrategyError, match="unknown branching"):
        get_strategy("python-constraint", branching="digits")
    with pytest.raises(StrategyError, match="unknown inference"):
        get_strategy("python-constraint", inference="triples")
    with pytest.raises(StrategyError, match="unknown solver"):
        get_strategy("python-constraint", solver="minconflicts")


def test_the_start_of_a_worker_is_counted_and_timed_even_when_the_time_runs_out_first(
    engine: ConstraintStrategy,
) -> None:
    # A limit that has passed before the worker can say "ready": the whole call went to starting it (reported
    # 0.0 before), and it is killed as any timed-out search's worker is; the next puzzle starts one, and keeps it.
    stop_workers()
    others = children()  # not the engine's: e.g. multiprocessing's resource tracker, left by a Dask test
    first = engine.solve(Grid.parse(MORNING), time_limit=0.001)
    assert first.status is Status.TIMEOUT and first.stats["worker_start"] > 0
    assert first.stats["workers_started"] == 1 and children() <= others
    later = [engine.solve(Grid.parse(MORNING), time_limit=60) for _ in range(3)]
    assert [r.status for r in later] == [Status.SOLVED] * 3
    assert [r.stats["workers_started"] for r in later] == [1, 0, 0]
    assert [r.stats["worker_start"] > 0 for r in later] == [True, False, False]
    stop_workers()


def test_a_batch_starts_one_worker_and_another_only_after_a_timeout(tmp_path: Path) -> None:
    # Six classic puzzles around a 25x25 that python-constraint does not solve in 2 s: one worker serves the
    # first three, the timeout kills it, and one new worker serves the last three. Counted, never timed.
    hardest = [record.text for record in read_file(PUZZLES / "hardest.txt")]
    [big, *_] = [record.text for record in read_file(PUZZLES / "sizes" / "box5x5.txt")]
    batch = tmp_path / "batch.txt"
    batch.write_text("\n".join([*hardest[:3], big, *hardest[3:6]]) + "\n")
    command = [sys.executable, "-m", "sudokit", "solve", "-s", "python-constraint", "-j", "1", "-t", "2", "-f", "json"]
    done = subprocess.run(
        [*command, str(batch)], capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=hang_guard(60)
    )
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["status"] for r in records] == ["solved"] * 3 + ["timeout"] + ["solved"] * 3, done.stderr
    assert [r["stats"]["workers_started"] for r in records] == [1, 0, 0, 0, 1, 0, 0]
    assert [r["stats"]["worker_start"] > 0 for r in records] == [True, False, False, False, True, False, False]
