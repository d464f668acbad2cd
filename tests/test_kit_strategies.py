"""The kit's Hypothesis strategies and its reference counter, cross-checked by two independent engines.

``sudokit.testing.strategies.puzzles`` promises a solution that solves the puzzle and, when given,
the exact count of solutions; the count comes from ``sudokit.testing.reference``, which is checked
here against the counts of ``puzzles/counts.txt`` and the kit's corpus, and against cp-sat and
backtrack (which share no code with it, nor with each other) on drawn puzzles.
"""

from __future__ import annotations

import ast
import doctest
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import strategies as st

from sudokit import Grid, Result, Shape, Status, get_strategy, is_solution, solve
from sudokit.testing import corpus
from sudokit.testing.reference import BudgetExceeded, Count, count_solutions, propagate
from sudokit.testing.strategies import DEFAULT_SHAPES, KnownPuzzle, pattern_grid, puzzles, solved_grids

from .conftest import puzzle_lines

#: Every box shape the kit checks, both ways round, and boxes of one row or column (boxes that are lines).
SHAPES = [
    Shape.parse(box)
    for box in ("2x2", "2x3", "3x2", "2x4", "4x2", "3x3", "3x4", "4x3", "4x4", "5x5", "1x4", "4x1", "1x6", "2x6")
]
CROSS_CHECKERS = ("backtrack", "cp-sat")
FEW = settings(database=None, max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SOME = settings(database=None, max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SRC = Path(__file__).resolve().parent.parent / "src" / "sudokit" / "testing"


def engine_count(puzzle: Grid, engine: str, limit: int) -> Result:
    """``engine``'s answer counting to ``limit``, every solution kept and checked valid."""
    result = solve(puzzle, engine, limit=limit, time_limit=30.0)
    assert result.status in (Status.SOLVED, Status.UNSOLVABLE), (engine, result)
    assert all(is_solution(puzzle, s) for s in result.solutions), engine
    return result


def check_drawn(known: KnownPuzzle, shape: Shape) -> None:
    """The drawn puzzle has ``shape``, its solution is complete and solves it, and the puzzle was cut from it."""
    assert isinstance(known, KnownPuzzle)
    assert known.puzzle.shape == known.solution.shape == shape
    assert known.solution.is_complete() and is_solution(Grid.empty(shape), known.solution)
    assert is_solution(known.puzzle, known.solution)
    assert all(v in (0, s) for v, s in zip(known.puzzle.cells, known.solution.cells, strict=True))
    assert known.count is None or known.count >= 1


# --- the strategies --------------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_every_box_shape_draws_puzzles_whose_solution_solves_them(shape: Shape) -> None:
    @FEW
    @given(solved=solved_grids(shape), known=puzzles(shape, count=shape.n <= 6))
    def draws(solved: Grid, known: KnownPuzzle) -> None:
        assert solved.shape == shape and is_solution(Grid.empty(shape), solved)
        check_drawn(known, shape)

    draws()


@SOME
@given(known=st.one_of(puzzles(), puzzles(["2x2", "2x3", "3x2"], blanks=(0.5, 0.9))))  # the latter: many solutions
def test_known_counts_agree_with_cp_sat_and_backtrack(known: KnownPuzzle) -> None:
    assert known.shape in DEFAULT_SHAPES
    check_drawn(known, known.shape)
    if known.count is None:
        return
    for engine in CROSS_CHECKERS:
        result = engine_count(known.puzzle, engine, limit=known.count + 1)
        assert (result.count, result.exact) == (known.count, True), engine
        assert known.solution in result.solutions, engine


@FEW
@given(known=puzzles(box=["2x2", "3x2", "2x4", "3x3", "3x4"], unique=True))
def test_unique_puzzles_have_exactly_the_drawn_solution(known: KnownPuzzle) -> None:
    check_drawn(known, known.shape)
    assert known.count == 1 and known.unique
    for engine in CROSS_CHECKERS:
        result = engine_count(known.puzzle, engine, limit=2)
        assert (result.count, result.exact, result.solutions) == (1, True, (known.solution,)), engine


@settings(database=None, max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(known=puzzles(box="4x4", unique=True, blanks=(0.3, 0.35)))
def test_unique_sixteen_by_sixteen(known: KnownPuzzle) -> None:
    assert known.count == 1 and known.blanks <= 0.35 * 256
    result = engine_count(known.puzzle, "cp-sat", limit=2)
    assert (result.count, result.exact, result.solutions) == (1, True, (known.solution,))


@SOME
@given(known=puzzles(box="3x3", blanks=(0.3, 0.5), count=False))
def test_the_share_of_blanks_is_drawn_from_the_range(known: KnownPuzzle) -> None:
    assert 0.3 * 81 <= known.blanks <= 0.5 * 81
    assert known.count is None  # not asked for


@FEW
@given(full=puzzles("3x3", blanks=(0, 0)), empty=puzzles("2x2", blanks=(1, 1)), big=puzzles("3x3", blanks=(1, 1)))
def test_no_blanks_and_all_blanks(full: KnownPuzzle, empty: KnownPuzzle, big: KnownPuzzle) -> None:
    assert (full.puzzle, full.count) == (full.solution, 1)
    assert (empty.puzzle, empty.count) == (Grid.empty("2x2"), 288)  # every 4x4 Sudoku, within the default budget
    assert (big.puzzle, big.count) == (Grid.empty("3x3"), None)  # 6.7e21 solutions: past any budget


def test_failing_examples_shrink_to_the_pattern_grid() -> None:
    """Every draw is a Hypothesis primitive: a failure shrinks to the pattern grid with its first cells blank."""
    shape = Shape.of(2, 2)
    known = find(puzzles(shape, count=False), lambda k: k.blanks >= 3, settings=settings(database=None))
    assert known.solution == pattern_grid(shape)
    assert known.puzzle.cells[:3] == (0, 0, 0) and known.puzzle.cells[3:] == pattern_grid(shape).cells[3:]
    grid = find(solved_grids(shape), lambda g: g.cells[0] != 1, settings=settings(database=None))
    moved = sum(a != b for a, b in zip(grid.cells, pattern_grid(shape).cells, strict=True))
    assert moved <= 2 * shape.n  # two digits or two rows exchanged, nothing else


def test_swap_cycles_leave_the_patterns_symmetry_class() -> None:
    """Not only the pattern's relabellings and permutations: a band whose boxes split its digits differently."""

    def splits(rows: list[list[int]]) -> bool:
        """Some band's boxes cut its rows into different sets of three digits (never so on the pattern's orbit)."""
        for band in range(3):
            cuts = {frozenset(frozenset(rows[band * 3 + k][s * 3 : s * 3 + 3]) for k in range(3)) for s in range(3)}
            if len(cuts) > 1:
                return True
        return False

    def off_pattern(grid: Grid) -> bool:
        rows = grid.rows()
        return splits(rows) and splits([list(col) for col in zip(*rows, strict=True)])

    assert not off_pattern(pattern_grid(Shape.of(3, 3)))
    grid = find(solved_grids("3x3"), off_pattern, settings=settings(database=None, phases=[Phase.generate]))
    assert is_solution(Grid.empty("3x3"), grid)


def test_arguments_are_checked_when_the_strategy_is_made() -> None:
    with pytest.raises(ValueError, match=r"within 0\.\.1"):
        puzzles(blanks=(0.6, 0.2))
    with pytest.raises(TypeError, match="range of shares"):
        puzzles(blanks=0.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="box must be"):
        puzzles(box=9)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="budget"):
        puzzles(budget=0)
    with pytest.raises(ValueError, match="no shape"):
        solved_grids(box=[])


# --- the reference counter ---------------------------------------------------------------------------------


def test_reference_counts_agree_with_puzzles_counts_txt() -> None:
    lines = [line for line in puzzle_lines("counts.txt") if int(line.note or "") < 1000]  # the two largest: 0.3 s
    assert len(lines) >= 45
    for line in lines:
        expected = int(line.note or "")
        assert count_solutions(Grid.parse(line.puzzle), keep=0)[:2] == (expected, True), line.id


def test_reference_counts_agree_with_the_kits_corpus() -> None:
    checked = 0
    for name in corpus.names():
        for known in corpus.load(name):
            if known.puzzle.n > 12:
                continue  # the reference is a slow search on hard 16x16 puzzles
            count, exact, solutions = count_solutions(known.puzzle, known.count + 1)
            assert (count, exact) == (known.count, True), known.where
            assert known.solution is None or solutions == (known.solution,), known.where
            checked += 1
    assert checked >= 40


def test_propagate_is_sound() -> None:
    """None only for puzzles with no solution; every cell it fills agrees with the unique solution."""
    found_none = found_complete = 0
    for name in corpus.names():
        for known in corpus.load(name):
            if known.puzzle.n > 12:
                continue
            grid = propagate(known.puzzle)
            if grid is None:
                assert known.count == 0, known.where
                found_none += 1
                continue
            assert all(v == g for v, g in zip(known.puzzle.cells, grid.cells, strict=True) if v), known.where
            if known.solution is not None:
                assert all(g in (0, s) for g, s in zip(grid.cells, known.solution.cells, strict=True)), known.where
                found_complete += grid.is_complete()
    assert found_none >= 5 and found_complete >= 1


@pytest.mark.parametrize(
    ("name", "refuted"), [("unsolvable_glance", True), ("unsolvable_propagation", True), ("unsolvable_search", False)]
)
def test_propagate_refutes_what_singles_refute(name: str, refuted: bool) -> None:
    """The kit's corpus sorts puzzles with no solution by what refutes them: singles do, or only a search."""
    sample = corpus.load(name)
    assert sample
    for known in sample:
        assert known.count == 0
        assert (propagate(known.puzzle) is None) == refuted, known.where


def test_propagate_finds_a_repeated_given_and_a_forced_contradiction() -> None:
    assert propagate(Grid([1, 1, *[0] * 14], "2x2", validate=False)) is None
    assert propagate(Grid.parse("123.............", "2x2")) == Grid.parse("1234............", "2x2")
    # Row 1 needs its 4 in column 4, which has a 4 already.
    assert propagate(Grid.parse("123....4........", "2x2")) is None
    assert count_solutions(Grid.parse("123....4........", "2x2")) == Count(0, True, ())


def test_limit_keep_and_budget() -> None:
    empty = Grid.empty("2x2")
    count, exact, solutions = count_solutions(empty, 5, keep=3)
    assert (count, exact, len(solutions)) == (5, False, 3)
    assert len(set(solutions)) == 3 and all(is_solution(empty, s) for s in solutions)
    assert count_solutions(empty, 288)[:2] == (288, False)  # the limit reached: not known to be all
    assert count_solutions(empty, 289)[:2] == (288, True)
    assert len(count_solutions(empty, keep=0).solutions) == 0
    assert count_solutions(empty, budget=10_000).count == 288
    for _ in range(2):  # the same answer every time: a budget is nodes, not seconds
        with pytest.raises(BudgetExceeded):
            count_solutions(empty, budget=100)
    for bad in ({"limit": 0}, {"keep": -1}, {"budget": 0}, {"limit": 1.5}):
        with pytest.raises(ValueError):
            count_solutions(empty, **bad)  # type: ignore[arg-type]


@FEW
@given(grid=solved_grids(SHAPES), blank=st.integers(0, 2**16))
def test_a_grid_with_one_blank_has_one_solution(grid: Grid, blank: int) -> None:
    cells = list(grid.cells)
    cells[blank % len(cells)] = 0
    assert count_solutions(Grid(cells, grid.shape)) == Count(1, True, (grid,))


# --- the documentation ---------------------------------------------------------------------------------------


def test_the_docstring_examples_run() -> None:
    from sudokit.testing import reference, strategies

    for module in (reference, strategies):
        failed, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert (failed, tried > 0) == (0, True), module.__name__


def test_the_authors_example_runs_as_written() -> None:
    """The module docstring's property tests, with sudokit's backtrack as the author's engine."""
    from sudokit.testing import strategies

    doc = strategies.__doc__ or ""
    code = textwrap.dedent(doc.split("::\n", 1)[1].split("\nHow a grid", 1)[0])
    namespace: dict[str, object] = {"MyEngine": lambda: get_strategy("backtrack")}
    exec(compile(code, "strategies.__doc__", "exec"), namespace)
    tests = [v for k, v in namespace.items() if k.startswith("test_")]
    assert len(tests) == 2
    for test in tests:
        settings(FEW, max_examples=15)(test)()


# --- independence --------------------------------------------------------------------------------------------


def imported_modules(path: Path) -> set[str]:
    """The modules a source file imports (at any level)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_reference_reads_only_the_grid() -> None:
    """It shares no code with the engines and does not go through sudokit.engines.api: Grid (and its Shape) only."""
    sudokit_modules = {
        m for m in imported_modules(SRC / "reference.py") if m.split(".")[0] in ("sudokit", "sudokit_strategies")
    }
    assert sudokit_modules == {"sudokit.model.grid"}
    strategies = {m for m in imported_modules(SRC / "strategies.py") if m.startswith("sudokit")}
    assert strategies <= {"sudokit.model.grid", "sudokit.model.shape", "sudokit.testing.reference"}


def test_the_kit_and_the_reference_do_not_need_hypothesis() -> None:
    code = (
        "import sys, sudokit.testing, sudokit.testing.reference, sudokit.testing.corpus; "
        "assert 'hypothesis' not in sys.modules, 'hypothesis imported'"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
