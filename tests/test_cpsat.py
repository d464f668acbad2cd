"""The ``cp-sat`` engine (real OR-Tools): every puzzle set, exact counts, unsolvable boards, time limits, options."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sudokit import Grid, Shape, Status, StrategyError, get_strategy, is_solution, solve
from sudokit.cli import app
from sudokit.io.reader import read_file
from sudokit_strategies.cpsat import CpSatStrategy

from .timing import hang_guard, spent

PUZZLES = Path(__file__).parent.parent / "puzzles"
SIZES = sorted((PUZZLES / "sizes").glob("box*.txt"))
MORNING = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


@pytest.fixture(scope="module")
def engine() -> CpSatStrategy:
    strategy = get_strategy("cp-sat")  # through the entry point, as users reach it
    assert isinstance(strategy, CpSatStrategy)
    return strategy


@pytest.mark.parametrize("name", ["easy50.txt", "top95.txt", "hardest.txt"])
def test_solves_every_puzzle_of_a_set(engine: CpSatStrategy, name: str) -> None:
    records = list(read_file(PUZZLES / name))
    assert records
    for record in records:
        puzzle = record.parse()
        result = engine.solve(puzzle)
        assert result.status is Status.SOLVED, record.where
        assert result.count == 1 and len(result.solutions) == 1 and not result.exact
        assert is_solution(puzzle, result.solution), record.where
        assert result.strategy == "cp-sat"


@pytest.mark.parametrize("path", SIZES, ids=[p.stem for p in SIZES])
def test_solves_every_board_shape(engine: CpSatStrategy, path: Path) -> None:
    records = list(read_file(path))
    assert records
    for record in records:
        puzzle = record.parse()
        assert path.stem == f"box{puzzle.shape}"
        result = engine.solve(puzzle, time_limit=60)
        assert result.status is Status.SOLVED, record.where
        assert result.solution == Grid.parse(record.note or "", puzzle.shape), record.where
        assert is_solution(puzzle, result.solution)


def test_reproduces_every_count(engine: CpSatStrategy) -> None:
    records = list(read_file(PUZZLES / "counts.txt"))
    assert len(records) == 50
    for record in records:
        puzzle, expected = record.parse(), int(record.note or "")
        result = engine.solve(puzzle, limit=expected + 1, time_limit=60)
        assert (result.count, result.exact) == (expected, True), record.where
        assert result.status is (Status.SOLVED if expected else Status.UNSOLVABLE)
        assert len(set(result.solutions)) == expected
        assert all(is_solution(puzzle, s) for s in result.solutions)


def test_stops_counting_at_the_limit(engine: CpSatStrategy) -> None:
    record = next(r for r in read_file(PUZZLES / "counts.txt") if r.note == "1618")
    result = engine.solve(record.parse(), limit=100)
    assert (result.status, result.count, result.exact, result.unique) == (Status.SOLVED, 100, False, False)
    assert len(set(result.solutions)) == 100


def test_decides_uniqueness(engine: CpSatStrategy) -> None:
    result = engine.solve(Grid.parse(MORNING), limit=2)
    assert (result.status, result.count, result.exact, result.unique) == (Status.SOLVED, 1, True, True)


def test_detects_unsolvable_boards(engine: CpSatStrategy) -> None:
    # The top-left blank: its row holds 2..9 and its column the 1.
    no_digit_left = Grid.parse(".23456789" + "1" + "." * 71)
    clashing_givens = Grid((5, 5) + (0,) * 79, Shape.of(3, 3), validate=False)  # built unchecked on purpose
    for puzzle in (no_digit_left, clashing_givens):
        result = engine.solve(puzzle, limit=2)
        assert (result.status, result.count, result.exact, result.solutions) == (Status.UNSOLVABLE, 0, True, ())


def test_a_full_board_is_its_own_solution(engine: CpSatStrategy) -> None:
    solution = engine.solve(Grid.parse(MORNING)).solution
    assert solution is not None
    result = engine.solve(solution, limit=2)
    assert (result.status, result.solutions, result.exact) == (Status.SOLVED, (solution,), True)


def test_counting_stops_at_the_time_limit(engine: CpSatStrategy) -> None:
    with spent() as took:  # CPU time: a busy machine stretches the wall time, a hang guard only
        result = engine.solve(Grid.empty(Shape.of(4, 4)), limit=10**9, time_limit=0.5)
    assert took.cpu < 0.5 + 2 and took.wall < hang_guard(0.5), took
    assert result.status is Status.TIMEOUT and not result.exact
    assert result.count == len(result.solutions)
    assert all(is_solution(result.puzzle, s) for s in result.solutions)


def test_solving_stops_at_the_time_limit(engine: CpSatStrategy) -> None:
    puzzle = next(read_file(PUZZLES / "sizes" / "box5x5.txt")).parse()  # takes CP-SAT seconds, not 10 ms
    with spent() as took:
        result = engine.solve(puzzle, time_limit=0.01)
    assert took.cpu < 0.01 + 2 and took.wall < hang_guard(0.01 + 2), took
    assert (result.status, result.count, result.exact) == (Status.TIMEOUT, 0, False)


def test_ctrl_c_interrupts_rather_than_timing_out() -> None:
    # CP-SAT catches SIGINT itself; the engine must not report the stop as a timeout.
    script = textwrap.dedent("""
        import os, signal, threading
        from sudokit import Grid, Shape
        from sudokit_strategies.cpsat import CpSatStrategy

        threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
        try:
            result = CpSatStrategy().solve(Grid.empty(Shape.of(4, 4)), limit=10**9, time_limit=30)
            print(result.status.value)
        except KeyboardInterrupt:
            print("interrupted")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["interrupted"], done.stderr


def test_reports_the_solver_statistics(engine: CpSatStrategy) -> None:
    result = engine.solve(next(read_file(PUZZLES / "top95.txt")).parse())
    assert set(result.stats) == {"branches", "conflicts", "booleans", "wall_time", "workers"}
    assert result.stats["workers"] == 1 and result.stats["wall_time"] > 0
    assert result.to_dict()["stats"] == dict(result.stats)


def test_more_workers_solve_and_counting_uses_one() -> None:
    puzzle = next(read_file(PUZZLES / "hardest.txt")).parse()
    result = solve(puzzle, "cp-sat", workers=2)
    assert result.status is Status.SOLVED and is_solution(puzzle, result.solution)
    assert result.stats["workers"] == 2
    counted = solve(puzzle, "cp-sat", limit=2, workers=2)
    assert (counted.count, counted.exact, counted.stats["workers"]) == (1, True, 1)


@pytest.mark.parametrize("workers", [0, -1, 1.5, True, "2"])
def test_rejects_bad_worker_counts(workers: object) -> None:
    with pytest.raises(ValueError, match="workers"):
        CpSatStrategy(workers=workers)  # type: ignore[arg-type]
    with pytest.raises(StrategyError, match="workers"):
        get_strategy("cp-sat", workers=workers)


def test_command_line_passes_options() -> None:
    result = CliRunner().invoke(app, ["solve", "-s", "cp-sat", "-o", "workers=2", "-f", "line", MORNING])
    assert result.exit_code == 0, result.output
    puzzle, _, solution = result.output.strip().partition(":")
    assert puzzle == MORNING and is_solution(Grid.parse(MORNING), Grid.parse(solution))


@pytest.mark.parametrize(
    "run",
    [
        f"from sudokit import solve; assert solve({MORNING!r}, 'backtrack').solved",
        f"from sudokit.cli import main; sys.argv = ['sudoku', 'solve', '--strategy', 'backtrack', {MORNING!r}]; main()",
    ],
    ids=["library", "command"],
)
def test_backtrack_never_imports_the_solver_libraries(run: str) -> None:
    # An import of either library fails loudly; checked at import time, as the command may end with os._exit.
    check = textwrap.dedent("""
        import sys

        class Refuse:
            def find_spec(self, name, path=None, target=None):
                if name.partition(".")[0] in ("ortools", "constraint", "pysat"):
                    sys.stderr.write(f"IMPORTED {name}\\n")
                    raise ImportError(f"{name} must not be imported")

        sys.meta_path.insert(0, Refuse())
    """)
    done = subprocess.run([sys.executable, "-c", f"{check}\n{run}"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "IMPORTED" not in done.stderr, done.stderr
    assert "5 3 4 | 6 7 8 | 9 1 2" in done.stdout or run.startswith("from sudokit import solve")
