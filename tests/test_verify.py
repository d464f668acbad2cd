"""The independent checker: accepts true solutions and rejects each way a grid can fail to be one."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from sudokit import Grid, Result, Shape, Status, is_solution, solution_problem, solve
from sudokit.engines import verify
from sudokit.engines.verify import all_verified, answer_holds, result_problem, solved_once_holds, verify_many

from .conftest import BOXES, puzzles, sized

PAIRS = [(box, puzzle, solution) for box in BOXES for puzzle, solution in sized(box)]
IDS = [f"{box}-{k}" for k, (box, _, _) in enumerate(PAIRS)]


def with_cells(grid: Grid, cells: list[int]) -> Grid:
    """A grid of ``grid``'s shape holding ``cells``, not checked for duplicates (as a wrong answer may be)."""
    return Grid(cells, grid.shape, validate=False)


@pytest.mark.parametrize(("box", "puzzle", "solution"), PAIRS, ids=IDS)
def test_accepts_the_data_files_solutions(box: str, puzzle: Grid, solution: Grid) -> None:
    assert is_solution(puzzle, solution)
    assert is_solution(solution, solution)
    assert is_solution(Grid.empty(box), solution)
    assert solution_problem(puzzle, solution) is None


@pytest.mark.parametrize(("box", "puzzle", "solution"), PAIRS, ids=IDS)
def test_rejects_an_incomplete_grid(box: str, puzzle: Grid, solution: Grid) -> None:
    assert not is_solution(puzzle, puzzle)
    blank = next(i for i, v in enumerate(puzzle.cells) if not v)
    cells = list(solution.cells)
    cells[blank] = 0
    assert not is_solution(puzzle, with_cells(solution, cells))
    assert "row" in (solution_problem(puzzle, with_cells(solution, cells)) or "")


@pytest.mark.parametrize(("box", "puzzle", "solution"), PAIRS, ids=IDS)
def test_rejects_a_swapped_pair(box: str, puzzle: Grid, solution: Grid) -> None:
    n, shape = solution.n, solution.shape
    cells = list(solution.cells)
    # Two cells of one row, in different boxes: the row still holds 1..n, two columns do not.
    a, b = 0, shape.box_cols
    cells[a], cells[b] = cells[b], cells[a]
    assert not is_solution(Grid.empty(shape), with_cells(solution, cells))
    assert "column" in (solution_problem(Grid.empty(shape), with_cells(solution, cells)) or "")
    # Two rows of different bands: every row and column still holds 1..n, but a box breaks (the row
    # taken into the first box brings other digits there than the row it replaces).
    rows = solution.rows()
    br, bc = shape.box_rows, shape.box_cols
    k = next(k for k in range(br, 2 * br) if set(rows[k][:bc]) != set(rows[0][:bc]))
    rows[0], rows[k] = rows[k], rows[0]
    swapped = with_cells(solution, [v for row in rows for v in row])
    problem = solution_problem(Grid.empty(shape), swapped)
    assert problem is not None and "box" in problem
    assert not is_solution(Grid.empty(shape), swapped)
    assert all(sorted(row) == list(range(1, n + 1)) for row in rows)


@pytest.mark.parametrize(("box", "puzzle", "solution"), PAIRS, ids=IDS)
def test_rejects_a_changed_given(box: str, puzzle: Grid, solution: Grid) -> None:
    n = solution.n
    given = next(i for i, v in enumerate(puzzle.cells) if v)
    old = puzzle.cells[given]
    new = old % n + 1
    # Relabelling two digits everywhere keeps every unit a permutation, but changes the given.
    relabelled = with_cells(solution, [new if v == old else old if v == new else v for v in solution.cells])
    assert is_solution(Grid.empty(solution.shape), relabelled)
    assert not is_solution(puzzle, relabelled)
    problem = solution_problem(puzzle, relabelled) or ""
    assert f"given {old} changed to {new}" in problem


def test_rejects_a_grid_of_another_shape() -> None:
    (p6, s6), (p4, s4), (p9, s9) = sized("2x3")[0], sized("2x2")[0], sized("3x3")[0]
    n = s6.n
    # The mirror image of a 2x3 solution is a valid board of 3x2 boxes, but not of this puzzle's.
    flipped = Grid([s6.cells[c * n + r] for r in range(n) for c in range(n)], Shape.of(3, 2))
    assert is_solution(Grid.empty("3x2"), flipped)
    assert not is_solution(Grid.empty("2x3"), flipped)
    assert "shape" in (solution_problem(Grid.empty("2x3"), flipped) or "")
    assert not is_solution(p4, s9)
    assert not is_solution(p9, s4)
    assert not is_solution(p6, s6.to_line())  # type: ignore[arg-type]
    assert solution_problem(p6, None) == "not a grid: NoneType"  # type: ignore[arg-type]


def test_rejects_values_out_of_range() -> None:
    _, solution = sized("2x2")[0]
    # Every row, column and box of digits shifted by n: complete, no repeats, but not 1..n.
    shifted = with_cells(solution, [v + solution.n if v else v for v in solution.cells])
    assert not is_solution(Grid.empty("2x2"), shifted)


def test_a_value_that_only_equals_a_digit_is_not_one() -> None:
    puzzle, solution = sized("3x3")[0]
    blank = next(i for i, v in enumerate(puzzle.cells) if not v)
    cells: list[object] = list(solution.cells)
    cells[blank] = float(solution.cells[blank])  # 3.0 == 3, but no digit: it cannot even be printed
    grid = with_cells(solution, cells)  # type: ignore[arg-type]
    assert not is_solution(puzzle, grid)
    assert solution_problem(puzzle, grid) == (
        f"row {blank // 9 + 1}, column {blank % 9 + 1}: {float(solution.cells[blank])!r} is not a digit"
    )


# Box shapes from 4x4 boards to 64x64: the fast check's fields are 1 to 9 bytes wide.
SHAPES = ["1x4", "2x2", "2x3", "3x2", "2x4", "3x3", "1x8", "8x1", "3x4", "4x3", "4x4", "3x5", "5x5", "6x6", "7x7"]
SHAPES += ["8x8"]


def a_solution(shape: Shape) -> list[int]:
    """A filled grid of ``shape`` (the pattern that shifts each row by a box's width)."""
    n, br, bc = shape.n, shape.box_rows, shape.box_cols
    return [((r % br) * bc + r // br + c) % n + 1 for r in range(n) for c in range(n)]


def permutations_everywhere(cells: list[int], shape: Shape) -> bool:
    """The definition, with sets: every row, column and box holds 1..n."""
    n, br, bc = shape.n, shape.box_rows, shape.box_cols
    digits = set(range(1, n + 1))
    units = [[r * n + c for c in range(n)] for r in range(n)] + [[r * n + c for r in range(n)] for c in range(n)]
    units += [
        [(top + i) * n + left + j for i in range(br) for j in range(bc)]
        for top in range(0, n, br)
        for left in range(0, n, bc)
    ]
    return all({cells[i] for i in unit} == digits for unit in units)


def damaged_grids(shape: Shape) -> list[list[int]]:
    """A filled grid of ``shape`` damaged in six ways, taking turns: 600 grids (60 from 25x25 up)."""
    n = shape.n
    rng = random.Random(str(shape))
    good = a_solution(shape)
    grids = []
    for trial in range(600 if n <= 16 else 60):
        cells = list(good)
        kind = trial % 6
        if kind == 0:  # one cell any byte, 0 (a blank) and values past n included
            cells[rng.randrange(n * n)] = rng.randrange(256)
        elif kind == 1:  # two cells swapped anywhere
            i, j = rng.randrange(n * n), rng.randrange(n * n)
            cells[i], cells[j] = cells[j], cells[i]
        elif kind == 2:  # a few cells set to digits (repeats that keep every sum of digits possible)
            for _ in range(rng.randrange(1, 5)):
                cells[rng.randrange(n * n)] = rng.randrange(1, n + 1)
        elif kind == 3:  # two cells of one row swapped: the row stays a permutation
            r = rng.randrange(n)
            a, b = rng.sample(range(n), 2)
            cells[r * n + a], cells[r * n + b] = cells[r * n + b], cells[r * n + a]
        elif kind == 4:  # the digits relabelled: still a solution
            relabel = rng.sample(range(1, n + 1), n)
            cells = [relabel[v - 1] for v in cells]
        else:  # one row replaced by a random permutation
            r = rng.randrange(n)
            cells[r * n : (r + 1) * n] = rng.sample(range(1, n + 1), n)
        grids.append(cells)
    return grids


@pytest.mark.parametrize("box", SHAPES)
def test_the_fast_check_agrees_with_the_definition_on_damaged_grids(box: str) -> None:
    """is_solution (the fast check) against the definition, on damaged grids."""
    shape = Shape.parse(box)
    empty = Grid.empty(shape)
    seen = set()
    for cells in damaged_grids(shape):
        expected = permutations_everywhere(cells, shape)
        seen.add(expected)
        assert is_solution(empty, with_cells(empty, cells)) is expected, (box, cells)
    assert seen == {True, False}


@pytest.mark.parametrize("numpy", [True, False], ids=["numpy", "without-numpy"])
@pytest.mark.parametrize("box", ["2x2", "2x3", "3x3", "3x4", "4x4", "5x5", "6x6", "8x8"])
def test_the_block_check_agrees_with_the_definition(box: str, numpy: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """verify_many (the batch path's check: numpy over a block, else the fast check) on damaged grids and givens."""
    if numpy:
        pytest.importorskip("numpy")
    else:
        monkeypatch.setitem(sys.modules, "numpy", None)  # its import fails
    shape = Shape.parse(box)
    good = a_solution(shape)
    puzzle = [v if i % 3 == 0 else 0 for i, v in enumerate(good)]  # every third cell a given
    grids = [good, *damaged_grids(shape)]  # the grid itself solves the puzzle; relabelled ones change its givens
    k = len(grids)
    found = verify_many(bytes(puzzle) * k, b"".join(bytes(cells) for cells in grids), k, shape)
    expected = [
        permutations_everywhere(cells, shape) and all(cells[i] == v for i, v in enumerate(puzzle) if v)
        for cells in grids
    ]
    assert found == expected
    assert True in expected and False in expected
    assert any(permutations_everywhere(cells, shape) and not ok for cells, ok in zip(grids, expected, strict=True))
    # all_verified (a whole block at once, what the batch path asks first) is True only for a block of good answers
    for j, ok in enumerate(expected):
        block = [good, grids[j], good]
        solutions = b"".join(bytes(cells) for cells in block)
        assert all_verified(bytes(puzzle) * 3, solutions, 3, shape) is ok
    assert all_verified(bytes(puzzle) * 2, bytes(good) * 2, 2, shape) is True
    assert all_verified(b"", b"", 0, shape) is True


# --- the plain answer's check (answer_holds: what result_of asks first, on bytes) -----------------------


def plain_answers(puzzle: Grid, good: bytes) -> list[tuple[Status, tuple[bytes, ...], int, bool, int, int | None]]:
    """Answers for ``puzzle`` (whose solution is ``good``), right and wrong: status, solutions, count, exact, limit,
    keep."""
    other = bytes([good[1], good[0], *good[2:]])  # two cells swapped
    return [
        (Status.SOLVED, (good,), 1, True, 2, None),
        (Status.SOLVED, (good,), 1, False, 1, None),
        (Status.SOLVED, (good,), 2, False, 2, 1),  # two found, one kept as asked
        (Status.SOLVED, (good, good), 2, False, 2, None),  # the same solution twice
        (Status.SOLVED, (good, other), 2, False, 2, None),  # a second one that is no solution
        (Status.SOLVED, (good,), 2, False, 2, None),  # count 2, one solution, none trimmed
        (Status.SOLVED, (good,), 3, False, 2, None),  # past the limit
        (Status.SOLVED, (good,), 0, False, 1, None),  # solved, count 0
        (Status.SOLVED, (), 1, False, 1, None),  # solved without a solution
        (Status.SOLVED, (), 1, False, 1, 0),  # nor with none asked for
        (Status.SOLVED, (bytes(puzzle.cells),), 1, False, 1, None),  # the puzzle itself
        (Status.SOLVED, (other,), 1, False, 1, None),
        (Status.UNSOLVABLE, (), 0, True, 1, None),
        (Status.UNSOLVABLE, (), 0, False, 1, None),  # unsolvable, not proved
        (Status.UNSOLVABLE, (good,), 0, True, 1, None),
        (Status.UNSOLVABLE, (), 1, True, 1, None),
        (Status.TIMEOUT, (), 0, False, 1, None),
        (Status.TIMEOUT, (good,), 1, False, 2, None),  # one found before the time ran out
        (Status.TIMEOUT, (), 0, True, 1, None),  # a timeout cannot be exact
        (Status.TIMEOUT, (good,), -1, False, 1, None),
        (Status.ERROR, (), 0, False, 1, None),  # an error goes to result_problem, which wants its message
    ]


@pytest.fixture(params=["python", "compiled"])
def check_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """answer_holds's 9x9 check in Python, or compiled by numba (verify_jit: where numba is imported)."""
    if request.param == "python":
        monkeypatch.setattr(verify, "_COMPILED", False)
    else:
        pytest.importorskip("numba")
        monkeypatch.setattr(verify, "_COMPILED", None)
        assert verify._compiled_check() is not None
    return str(request.param)


@pytest.mark.parametrize("box", ["2x2", "2x3", "3x3", "3x4", "4x4"])
def test_the_plain_answer_check_passes_only_what_result_problem_passes(box: str, check_path: str) -> None:
    """answer_holds (on bytes, no Result built) against result_problem (on the Result of the same answer)."""
    shape = Shape.parse(box)
    good = a_solution(shape)
    puzzle = Grid([v if i % 3 == 0 else 0 for i, v in enumerate(good)], shape, validate=False)
    answers = plain_answers(puzzle, bytes(good))
    answers += [(Status.SOLVED, (bytes(cells),), 1, False, 1, None) for cells in damaged_grids(shape)]
    held = set()
    for status, cells, count, exact, limit, keep in answers:
        grids = tuple(Grid(tuple(raw), shape, validate=False) for raw in cells)
        result = Result(status, puzzle, "plain", grids, count, exact)
        expected = result_problem(result, puzzle, limit=limit, keep=keep) is None
        holds = answer_holds(puzzle, status, cells, count, exact, limit=limit, keep=keep)
        assert holds is (expected and status is not Status.ERROR), (status, cells, count, exact, limit, keep)
        held.add(holds)
    assert held == {True, False}


@pytest.mark.parametrize("box", ["2x2", "3x3", "3x4"])
def test_the_one_solution_check_is_answer_holds_on_a_solved_answer(box: str, check_path: str) -> None:
    """solved_once_holds (run()'s one-pass read of a solved answer of one solution) passes exactly what answer_holds
    passes, on every solved answer of one solution above (counts, limits, keeps, wrong grids) and cells that are
    no bytes or of another size."""
    shape = Shape.parse(box)
    good = a_solution(shape)
    puzzle = Grid([v if i % 3 == 0 else 0 for i, v in enumerate(good)], shape, validate=False)
    answers = [a for a in plain_answers(puzzle, bytes(good)) if a[0] is Status.SOLVED and len(a[1]) == 1]
    answers += [(Status.SOLVED, (bytes(cells),), 1, False, 1, None) for cells in damaged_grids(shape)]
    answers += [(Status.SOLVED, (cells,), 1, False, 1, None) for cells in (bytearray(good), bytes(good)[:-1])]
    held = set()
    for status, (raw,), count, exact, limit, keep in answers:
        holds = solved_once_holds(puzzle, raw, count, limit=limit, keep=keep)
        assert holds is answer_holds(puzzle, status, (raw,), count, exact, limit=limit, keep=keep), (raw, count, keep)
        held.add(holds)
    assert held == {True, False}


def test_the_plain_answer_check_rejects_each_kind_of_wrong_grid_on_a_17_clue_puzzle(check_path: str) -> None:
    """The 9x9 fast path (two groups of digits, 1-5 and 6-9): a blank, a swap, a changed given, a value past 9,
    a digit twice whose powers of two add up to a third (1 + 1 = 2), a row shifted so only columns fail."""
    puzzle = Grid.parse(puzzles("17clue.txt")[0])
    good = bytes(solve(puzzle, "backtrack").solution.cells)  # type: ignore[union-attr]
    assert answer_holds(puzzle, Status.SOLVED, (good,), 1, False, limit=1)
    given = next(i for i, v in enumerate(puzzle.cells) if v)
    blank = next(i for i, v in enumerate(puzzle.cells) if not v)

    def changed(*pairs: tuple[int, int]) -> bytes:
        cells = bytearray(good)
        for i, v in pairs:
            cells[i] = v
        return bytes(cells)

    one, two = good.index(1), good.index(2)
    wrong = {
        "blank": changed((blank, 0)),
        "swap in a row": changed((0, good[1]), (1, good[0])),
        "swap anywhere": changed((one, 2), (two, 1)),  # every sum of digits kept
        "given": changed((given, good[given] % 9 + 1)),
        "ten": changed((blank, 10)),
        "byte 255": changed((blank, 255)),
        "1 + 1 for 2": changed((two, 1)),  # the 2's row, column and box now hold two 1s and no 2
        "row shifted": good[1:9] + good[0:1] + good[9:],  # the first row still a permutation
    }
    for kind, cells in wrong.items():
        assert not answer_holds(puzzle, Status.SOLVED, (cells,), 1, False, limit=1), kind
        grid = Grid(tuple(cells), puzzle.shape, validate=False)
        assert result_problem(Result(Status.SOLVED, puzzle, "x", (grid,), 1), puzzle, limit=1), kind


def test_the_compiled_check_agrees_with_the_definition_on_damaged_grids() -> None:
    """verify_jit.solves9 (numba) on 600 damaged 9x9 grids and a puzzle of every third cell: True exactly when
    every unit holds 1..9 and every given is kept; bytes that are no digit, and grids of another size, refused."""
    pytest.importorskip("numba")
    from sudokit.engines.verify_jit import solves9

    shape = Shape.parse("3x3")
    good = a_solution(shape)
    puzzle = bytes(v if i % 3 == 0 else 0 for i, v in enumerate(good))
    latin = [(r + c) % 9 + 1 for r in range(9) for c in range(9)]  # every row and column 1..9, no box
    seen = set()
    for cells in [good, latin, *damaged_grids(shape)]:
        expected = permutations_everywhere(cells, shape) and all(cells[i] == v for i, v in enumerate(puzzle) if v)
        seen.add(expected)
        assert solves9(bytes(cells), puzzle) is expected, cells
        assert solves9(bytes(cells), bytes(81)) is permutations_everywhere(cells, shape), cells
    assert seen == {True, False}
    assert not solves9(bytes(good[:80]), bytes(80)) and not solves9(bytes(good), bytes(80))


def test_the_compiled_block_check_agrees_with_the_definition_on_damaged_grids() -> None:
    """verify_jit.lines_hold9 (numba, the batch caller's check of a block read from its text) on 600 damaged 9x9
    grids, each alone and among good ones: True exactly when every unit holds 1..9 and every given is kept;
    blanks "." or "0"; any other symbol refused, and so is a block of other sizes."""
    pytest.importorskip("numba")
    import numpy as np

    from sudokit.engines.verify_jit import lines_hold9

    shape = Shape.parse("3x3")
    good = a_solution(shape)
    puzzle = "".join(str(v) if i % 3 == 0 else ".0"[i % 2] for i, v in enumerate(good))
    blank = "".join(".0"[i % 2] for i in range(81))

    def held(texts: list[str], grids: list[list[int]]) -> bool:
        text = np.frombuffer("".join(t + "\n" for t in texts).encode(), np.uint8).reshape(len(texts), 82)
        solutions = np.frombuffer(bytes(v for grid in grids for v in grid), np.uint8)  # read-only, as the caller's
        return bool(lines_hold9(text, solutions.reshape(len(grids), 81)))

    seen = set()
    for cells in damaged_grids(shape):
        everywhere = permutations_everywhere(cells, shape)
        kept = everywhere and all(cells[i] == int(ch) for i, ch in enumerate(puzzle) if ch not in ".0")
        seen.add(kept)
        assert held([puzzle], [cells]) is kept, cells
        assert held([blank], [cells]) is everywhere, cells
        assert held([blank, puzzle, blank], [good, cells, good]) is kept, cells
    assert seen == {True, False}
    for symbol in ":a \x00/":  # a given's symbol that is no digit or blank
        assert not held([puzzle[:1] + symbol + puzzle[2:]], [good])
    assert held([puzzle] * 3, [good] * 3)
    three = np.frombuffer(bytes(3 * 82), np.uint8).reshape(3, 82)
    two = np.frombuffer(bytes(2 * 81), np.uint8).reshape(2, 81)
    narrow = np.frombuffer(bytes(2 * 80), np.uint8).reshape(2, 80)
    assert not lines_hold9(three, two) and not lines_hold9(narrow, two)


def test_sudokit_imports_numba_for_no_check() -> None:
    """Without the numba engine, the check stays Python: a backtrack solve imports neither numba nor verify_jit."""
    code = (
        "import sys\n"
        "from sudokit import solve\n"
        "from sudokit.engines import verify\n"
        "solve('53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79', 'backtrack')\n"
        "print(sorted(m for m in ('numba', 'sudokit.engines.verify_jit') if m in sys.modules), verify._COMPILED)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[] None"
