"""The ``sat`` engine (real PySAT): puzzle sets, every board shape, counts, time limits, options, reuse, variants."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sudokit import Grid, Shape, Status, StrategyError, get_strategy, is_solution
from sudokit.cli import app
from sudokit.engines.api import run
from sudokit.io.reader import read_file
from sudokit.model.variants import Diagonal, Killer, OddEven, Sandwich, Thermometer, Whisper, to_json
from sudokit_strategies.cpsat import CpSatStrategy
from sudokit_strategies.sat import SOLVERS, SatStrategy
from tests.test_cpsat_variants import EVERY_KIND, brute_force, brute_force_4, random_puzzle

from .timing import hang_guard, spent

PUZZLES = Path(__file__).parent.parent / "puzzles"
SIZES = sorted((PUZZLES / "sizes").glob("box*.txt"))
SMALL_SIZES = [p for p in SIZES if p.stem not in ("box5x5", "box6x6")]  # the 25x25 and up take seconds
MORNING = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
#: counts.txt puzzles with these counts: unique, none, several, and one to count to a limit.
SAMPLE_COUNTS = ("1", "0", "357", "1490")


@pytest.fixture(scope="module")
def engine() -> SatStrategy:
    strategy = get_strategy("sat")  # through the entry point, as users reach it
    assert isinstance(strategy, SatStrategy)
    return strategy


def records(name: str, every: int = 1) -> list:
    return list(read_file(PUZZLES / name))[::every]


@pytest.mark.parametrize("reuse", [True, False], ids=["reused", "fresh"])
def test_solves_top95_and_hardest(reuse: bool) -> None:
    engine = SatStrategy(reuse=reuse)
    for record in records("top95.txt", 5) + records("hardest.txt"):
        puzzle = record.parse()
        result = engine.solve(puzzle, time_limit=60)
        assert result.status is Status.SOLVED, record.where
        assert (result.count, len(result.solutions), result.exact) == (1, 1, False), record.where
        assert is_solution(puzzle, result.solution), record.where
        assert result.strategy == "sat" and result.stats["reused"] == int(reuse)


@pytest.mark.parametrize("path", SMALL_SIZES, ids=[p.stem for p in SMALL_SIZES])
def test_solves_every_board_shape(engine: SatStrategy, path: Path) -> None:
    for record in read_file(path):
        puzzle = record.parse()
        assert path.stem == f"box{puzzle.shape}"
        result = engine.solve(puzzle, limit=2, time_limit=60)
        assert (result.status, result.count, result.exact) == (Status.SOLVED, 1, True), record.where
        assert result.solution == Grid.parse(record.note or "", puzzle.shape), record.where


@pytest.mark.parametrize("reuse", [True, False], ids=["reused", "fresh"])
def test_reproduces_counts(reuse: bool) -> None:
    engine = SatStrategy(reuse=reuse)
    sample = [r for r in read_file(PUZZLES / "counts.txt") if r.note in SAMPLE_COUNTS]
    assert {r.note for r in sample} == set(SAMPLE_COUNTS)
    for record in sample:
        puzzle, expected = record.parse(), int(record.note or "")
        result = engine.solve(puzzle, limit=expected + 1, time_limit=60)
        assert (result.count, result.exact) == (expected, True), record.where
        assert result.status is (Status.SOLVED if expected else Status.UNSOLVABLE)
        assert len(set(result.solutions)) == expected
        assert all(is_solution(puzzle, s) for s in result.solutions)


def test_limit_keep_and_exact(engine: SatStrategy) -> None:
    several = next(r for r in read_file(PUZZLES / "counts.txt") if r.note == "357").parse()
    result = engine.solve(several, limit=100, keep=3)
    assert (result.status, result.count, result.exact, result.unique) == (Status.SOLVED, 100, False, False)
    assert len(set(result.solutions)) == 3
    assert engine.solve(several, limit=357).exact is False  # the limit reached: no proof that none is left
    assert (engine.solve(several, limit=358).count, engine.solve(several, limit=358).exact) == (357, True)
    unique = engine.solve(Grid.parse(MORNING), limit=2)
    assert (unique.status, unique.count, unique.exact, unique.unique) == (Status.SOLVED, 1, True, True)


@pytest.mark.parametrize("reuse", [True, False], ids=["reused", "fresh"])
def test_detects_unsolvable_boards(reuse: bool) -> None:
    no_digit_left = Grid.parse(".23456789" + "1" + "." * 71)
    clashing_givens = Grid((5, 5) + (0,) * 79, Shape.of(3, 3), validate=False)  # built unchecked on purpose
    for puzzle in (no_digit_left, clashing_givens):
        result = SatStrategy(reuse=reuse).solve(puzzle, limit=2)
        assert (result.status, result.count, result.exact, result.solutions) == (Status.UNSOLVABLE, 0, True, ())


def test_a_full_board_is_its_own_solution(engine: SatStrategy) -> None:
    solution = engine.solve(Grid.parse(MORNING)).solution
    assert solution is not None
    result = engine.solve(solution, limit=2)
    assert (result.status, result.solutions, result.exact) == (Status.SOLVED, (solution,), True)


def test_solving_stops_at_a_tiny_time_limit() -> None:
    puzzle = next(read_file(PUZZLES / "sizes" / "box5x5.txt")).parse()
    with spent() as took:
        result = get_strategy("sat").solve(puzzle, time_limit=0.001)
    assert took.cpu < 2 and took.wall < hang_guard(2), took
    assert (result.status, result.count, result.exact) == (Status.TIMEOUT, 0, False)


@pytest.mark.parametrize("reuse", [True, False], ids=["reused", "fresh"])
def test_counting_stops_at_the_time_limit(reuse: bool) -> None:
    # 1 s, not less: on a busy machine the first solutions must still come within the limit.
    with spent() as took:
        result = SatStrategy(reuse=reuse).solve(Grid.empty(Shape.of(3, 3)), limit=10**9, time_limit=1.0)
    assert took.cpu < 1.0 + 1.5 and took.wall < hang_guard(1.0), took
    assert result.status is Status.TIMEOUT and not result.exact and result.elapsed >= 1.0
    assert result.count == len(result.solutions) > 0
    assert len(set(result.solutions)) == result.count
    assert all(is_solution(result.puzzle, s) for s in result.solutions)


def test_ctrl_c_interrupts_rather_than_timing_out() -> None:
    script = textwrap.dedent("""
        import os, signal, threading
        from sudokit import Grid, Shape
        from sudokit_strategies.sat import SatStrategy

        threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
        try:
            result = SatStrategy().solve(Grid.empty(Shape.of(5, 5)), limit=10**9, time_limit=30)
            print(result.status.value)
        except KeyboardInterrupt:
            print("interrupted")
    """)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["interrupted"], done.stderr
    assert time.perf_counter() - start < 20  # well before the 30 s limit


def test_no_state_leaks_from_one_puzzle_to_the_next() -> None:
    counts = {r.note: r.parse() for r in read_file(PUZZLES / "counts.txt") if r.note in ("357", "1490")}
    several, more = counts["357"], counts["1490"]
    reused = SatStrategy()
    first = reused.solve(several, limit=1000)
    for record in records("top95.txt", 10):
        assert reused.solve(record.parse(), limit=2).unique, record.where
    cut = reused.solve(more, limit=10**6, time_limit=0.01)  # stopped mid-count: its clauses must not stay
    assert cut.status is Status.TIMEOUT and cut.count < 1490
    again = reused.solve(several, limit=1000)
    fresh = SatStrategy(reuse=False).solve(several, limit=1000)
    assert (first.count, first.exact) == (again.count, again.exact) == (fresh.count, fresh.exact) == (357, True)
    # The same solutions in the same order: a puzzle with several is answered by a fresh solver, history-free.
    assert first.solutions == again.solutions == fresh.solutions
    assert (reused.solve(more, limit=2000).count, reused.solve(more, limit=2000).exact) == (1490, True)
    assert reused.solve(several, limit=1).solution == fresh.solutions[0]
    # A unique puzzle after all that is still decided by the reused solver, and still unique.
    after = [reused.solve(record.parse(), limit=2) for record in records("top95.txt", 10)]
    assert all(r.unique and r.stats["reused"] == 1 for r in after)
    assert fresh.stats["reused"] == 0


def test_reports_the_solver_statistics(engine: SatStrategy) -> None:
    result = engine.solve(next(read_file(PUZZLES / "top95.txt")).parse(), limit=2)
    assert set(result.stats) == {
        "conflicts",
        "decisions",
        "propagations",
        "restarts",
        "variables",
        "clauses",
        "reused",
        "solver",
    }
    assert result.stats["propagations"] > 0 and result.stats["solver"] == engine.solver


@pytest.mark.parametrize("solver", ["minisat22", "maplechrono"])
def test_command_line_picks_the_solver(solver: str) -> None:
    assert solver in SOLVERS
    result = CliRunner().invoke(app, ["solve", "-s", "sat", "-o", f"solver={solver}", "--stats", "-f", "line", MORNING])
    assert result.exit_code == 0, result.output
    line = result.stdout.strip()
    puzzle, _, solution = line.partition(":")
    assert puzzle == MORNING and is_solution(Grid.parse(MORNING), Grid.parse(solution.split()[0]))
    assert f"solver {solver}" in result.output


def test_an_unknown_solver_is_a_usage_error() -> None:
    with pytest.raises(StrategyError, match=r"unknown solver 'nope'.*glucose3"):
        get_strategy("sat", solver="nope")
    script = Path(sys.executable).parent / "sudoku"
    done = subprocess.run(
        [str(script), "solve", "-s", "sat", "-o", "solver=nope", MORNING], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "nope" in lines[0] and all(name in lines[0] for name in SOLVERS), done.stderr


@pytest.mark.parametrize(("option", "value"), [("encoding", "nope"), ("reuse", "maybe")])
def test_rejects_bad_options(option: str, value: str) -> None:
    with pytest.raises(StrategyError, match=option):
        get_strategy("sat", **{option: value})


@pytest.mark.parametrize("encoding", ["seqcounter", "ladder"])
def test_other_encodings_count_alike(encoding: str) -> None:
    several = next(r for r in read_file(PUZZLES / "counts.txt") if r.note == "357").parse()
    for reuse in (True, False):
        result = SatStrategy(encoding=encoding, reuse=reuse).solve(several, limit=400)
        assert (result.count, result.exact, len(set(result.solutions))) == (357, True, 357)
    big = next(read_file(PUZZLES / "sizes" / "box4x4.txt")).parse()
    assert is_solution(big, SatStrategy(encoding=encoding).solve(big, time_limit=60).solution)


# --- variants ---------------------------------------------------------------------------------------------

SAT = SatStrategy()
CPSAT = CpSatStrategy()


def test_declares_every_kind() -> None:
    assert get_strategy("sat").capabilities.constraints == frozenset(EVERY_KIND)  # type: ignore[attr-defined]


#: Pseudo-kinds of tests.test_cpsat_variants: dots of any difference or ratio, the negative rule of one colour alone,
#: XV clues of any sum.
MORE = ["kropki-values", "kropki-negative-white", "kropki-negative-black", "xv-sums"]


@pytest.mark.parametrize("kind", [*EVERY_KIND, *MORE])
def test_counts_variant_puzzles_as_brute_force_and_cpsat_do(kind: str) -> None:
    for n, seeds in ((4, range(6)), (6, range(3))):
        for seed in seeds:
            puzzle = random_puzzle(kind, seed, n)
            expected = brute_force(puzzle) if n == 4 else None
            limit = 60 if expected is None else len(expected) + 1
            mine = run(SAT, puzzle, limit=limit)  # run() checks each solution against every rule
            theirs = run(CPSAT, puzzle, limit=limit)
            assert mine.error is None, (mine.error, to_json(puzzle))
            assert (mine.count, mine.exact) == (theirs.count, theirs.exact), to_json(puzzle)
            if expected is not None:
                assert (mine.count, mine.exact) == (len(expected), True), to_json(puzzle)
                assert {s.cells for s in mine.solutions} == expected, to_json(puzzle)
            elif mine.exact:
                assert set(mine.solutions) == set(theirs.solutions), to_json(puzzle)


@pytest.mark.parametrize(
    ("rules", "why"),
    [
        ([OddEven("r1c1", "even")], "a parity clue against a given 1"),
        ([OddEven("r1c2", "even"), OddEven("r1c2", "odd")], "two parity clues on one cell"),
        ([Whisper(["r2c1", "r2c2"], 4)], "a whisper difference above n - 1"),
        ([Thermometer(["r1c1", "r2c2"]), Thermometer(["r2c2", "r1c1"])], "two thermometers the wrong way"),
        ([Killer(["r2c1", "r2c2"], 2)], "a cage total no two different digits make"),
        ([Sandwich("row", 1, 1)], "a sandwich total no digits 2..3 make"),
    ],
)
def test_contradictions_are_unsolvable(rules: list, why: str) -> None:
    puzzle = Grid([1] + [0] * 15, "2x2", constraints=rules)
    assert brute_force_4(puzzle) == set(), why
    result = run(SAT, puzzle, limit=2)
    assert (result.status, result.count, result.exact, result.error) == (Status.UNSOLVABLE, 0, True, None), why


def test_variant_counting_stops_at_the_time_limit() -> None:
    puzzle = Grid.empty("3x3").with_rules(constraints=[Sandwich("row", 0, 10), Diagonal("main")])
    with spent() as took:  # 1 s, not less: on a busy machine the first solutions must still come within the limit
        result = run(SAT, puzzle, limit=10**9, time_limit=1.0)
    assert result.error is None and took.cpu < 1.0 + 1.5 and took.wall < hang_guard(1.0), took
    assert result.status is Status.TIMEOUT and not result.exact and result.count == len(result.solutions) > 0


def test_backtrack_never_imports_pysat() -> None:
    check = textwrap.dedent(f"""
        import sys
        from sudokit import solve
        assert solve({MORNING!r}, "backtrack").solved
        from sudokit.cli import main
        assert not any(name == "pysat" or name.startswith("pysat.") for name in sys.modules), "pysat imported"
    """)
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_the_time_limit_holds_while_a_big_formula_is_built() -> None:
    """An empty 36x36 is 2.4 million clauses, seconds to build and load: a 0.1 s limit stops that too."""
    with spent() as took:
        result = SatStrategy().solve(Grid.empty(Shape.of(6, 6)), limit=1, time_limit=0.1)
    assert result.status is Status.TIMEOUT and result.count == 0 and not result.exact
    assert took.cpu < 0.1 + 1.0 and took.wall < hang_guard(0.1 + 1.0), took
