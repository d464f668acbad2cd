"""The independent checker: does a grid solve a puzzle, is a result a consistent answer? Shares no code with any engine.

The units are computed here from the box shape directly, not from the tables the engines use, so a bug
there cannot hide from these checks. ``is_solution``, ``result_problem`` and ``answer_holds`` take a
fast path. The digits 1..n are cut into groups of g (g = 5 on 9x9: 1-5 and 6-9), small enough that n
powers of two below ``2**g`` add up below 256. For each group, each cell becomes a byte holding
``2**k`` for the group's k-th digit (0 for any other digit, a blank or a value that is no digit), all
the cells one int; multiplying it by a comb of ones (one per cell of a unit, at the unit's offsets)
adds up each unit in the byte of its last cell, and the sum of the rows is the int modulo
``2**(8n) - 1``. No byte carries into the next, and a unit holds each digit once exactly when each
group's sum is its ``2**g - 1``: a sum of powers of two has no more one bits than it has terms (fewer
when two are equal), so the groups' g one bits each need g cells of the group, n cells in all, every
one distinct. ``solution_problem`` words what is wrong when that check fails. In a process where numba
is imported (the ``numba`` engine's), ``answer_holds`` checks 9x9 answers with sudokit's own compiled
loop instead (:mod:`sudokit.engines.verify_jit`, about 1 us an answer against 4 in Python), and
``lines_verified`` checks a batch's block of 9x9 lines straight from their text (0.1 us a puzzle,
where ``all_verified``, numpy over the block, takes 0.16 and the cells read from the text before it).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from sudokit.engines.strategy import Result, Status
from sudokit.model.grid import Grid

if TYPE_CHECKING:
    from sudokit.model.shape import Shape

__all__ = [
    "all_verified",
    "answer_holds",
    "is_solution",
    "result_problem",
    "solution_problem",
    "solved_once_holds",
    "verify_many",
]

#: The fast check's plan for a box shape (see ``_units``).
_Units = tuple[int, int, int, int, int, int, tuple[tuple[bytes, int, int, int], ...]]

#: ``bytes.translate`` table making a blank 0 and a given 255: the mask of a puzzle's givens.
_GIVENS = bytes([0] + [255] * 255)


def solution_problem(puzzle: Grid, grid: Grid) -> str | None:
    """None when ``grid`` solves ``puzzle``; otherwise one line saying what is wrong and where.

    A solution is complete, every row, column and box (a jigsaw's regions) holds each digit 1..n
    exactly once, every given of the puzzle is kept, and every variant constraint holds.
    """
    if not isinstance(grid, Grid):
        return f"not a grid: {type(grid).__name__}"
    n, br, bc = puzzle.shape.n, puzzle.shape.box_rows, puzzle.shape.box_cols
    if (grid.shape.box_rows, grid.shape.box_cols) != (br, bc) or len(grid.cells) != n * n:
        return f"shape {grid.shape} differs from the puzzle's {puzzle.shape}"
    cells = grid.cells
    for i, value in enumerate(cells):
        if not hasattr(type(value), "__index__"):  # 3.0 equals 3, but is no digit (nor can it be printed)
            return f"row {i // n + 1}, column {i % n + 1}: {value!r:.20} is not a digit"
    for i, (given, value) in enumerate(zip(puzzle.cells, cells, strict=True)):
        if given and value != given:
            return f"row {i // n + 1}, column {i % n + 1}: given {given} changed to {value}"
    digits = set(range(1, n + 1))
    for r in range(n):
        if {cells[r * n + c] for c in range(n)} != digits:
            return f"row {r + 1} is not a permutation of 1..{n}"
    for c in range(n):
        if {cells[r * n + c] for r in range(n)} != digits:
            return f"column {c + 1} is not a permutation of 1..{n}"
    if puzzle.is_classic:
        for top in range(0, n, br):
            for left in range(0, n, bc):
                box = {cells[(top + dr) * n + left + dc] for dr in range(br) for dc in range(bc)}
                if box != digits:
                    return f"the box at row {top + 1}, column {left + 1} is not a permutation of 1..{n}"
        return None
    return _rules_problem(puzzle, cells, digits)


def _rules_problem(puzzle: Grid, cells: tuple[int, ...], digits: set[int]) -> str | None:
    """What breaks a variant puzzle's regions or constraints in a grid whose rows and columns are permutations."""
    n = puzzle.shape.n
    for region in puzzle.regions:
        if {cells[i] for i in region} != digits:
            r, c = divmod(region[0], n)
            unit = "region" if puzzle.jigsaw else "box"
            return f"the {unit} at row {r + 1}, column {c + 1} is not a permutation of 1..{n}"
    for k, rule in enumerate(puzzle.constraints, 1):
        problem = rule.violation(cells, puzzle)
        if problem:
            return f"constraint {k} broken: {problem}"
    return None


def is_solution(puzzle: Grid, grid: Grid) -> bool:
    """True when ``grid`` is complete, every unit is a permutation of 1..n, and every given is kept."""
    if not isinstance(grid, Grid) or grid.shape != puzzle.shape or len(grid.cells) != puzzle.shape.size:
        return False
    givens = _givens(puzzle)
    if givens is None or not puzzle.is_classic:
        return solution_problem(puzzle, grid) is None
    return _solves(grid.cells, _units(puzzle.shape.box_rows, puzzle.shape.box_cols), givens)


def result_problem(result: object, puzzle: Grid, *, limit: int, keep: int | None = None) -> str | None:
    """None when ``result`` is a consistent answer for ``puzzle``; else one line saying what is wrong.

    ``limit`` and ``keep`` are what the engine was asked for (``keep`` None: every solution found).
    Checked: a ``Result`` with a ``Status``, for this puzzle; ``error`` set exactly with status
    ``error``; ``stats`` a mapping; a whole ``count`` up to ``limit`` and a bool ``exact``;
    ``solved`` with a solution, ``unsolvable`` proved (exact) with none, ``timeout`` not exact;
    ``min(count, keep)`` solutions, distinct, each a grid of the puzzle's shape that solves it.
    A result with status ``error`` and a message is consistent: it says the engine failed. Every
    message starts with "returned", as in "returned an invalid grid (solution 1 of 1): row 3 is not
    a permutation of 1..9"::

        >>> from sudokit import Grid, Result, Status
        >>> puzzle = Grid.parse("4..2.......31...")
        >>> result_problem(Result(Status.SOLVED, puzzle, "liar", (puzzle,), 1), puzzle, limit=1)
        'returned the puzzle itself, unfilled, as solution 1 of 1'
    """
    if not isinstance(result, Result):
        return f"returned {shown(result)}, not a Result"
    status = result.status
    if not isinstance(status, Status):
        return f"returned status {shown(status)}, not a Status"
    if result.puzzle is not puzzle and result.puzzle != puzzle:
        return f"returned a result for another puzzle: {shown(result.puzzle)}"
    error = result.error
    if status is Status.ERROR or status is Status.UNSUPPORTED:
        if not isinstance(error, str) or not error.strip():
            return f"returned status {status.value} without a message (error {shown(error)})"
        return None
    if error is not None:
        return f"returned status {status.value} with an error: {shown(error)}"
    stats = result.stats
    if type(stats) is not dict and not isinstance(stats, Mapping):
        return f"returned stats that are not a mapping: {shown(stats)}"
    count, exact, solutions = result.count, result.exact, result.solutions
    if type(count) is not int and (isinstance(count, bool) or not isinstance(count, int)):
        return f"returned count {shown(count)}, not a whole number"
    if type(exact) is not bool:
        return f"returned exact {shown(exact)}, not True or False"
    if type(solutions) is not tuple and not isinstance(solutions, tuple | list):
        return f"returned solutions as {shown(solutions)}, not a tuple of grids"
    found = len(solutions)
    if count < 0 or count > limit:
        return f"returned count {count} for a limit of {limit}"
    if found > limit:
        return f"returned {found} solutions for a limit of {limit}"
    if status is Status.SOLVED and (count < 1 or not solutions):
        return f"returned status solved with count {count} and {_solutions(found)}"
    if status is Status.UNSOLVABLE and (count or solutions or not exact):
        return f"returned status unsolvable with count {count}, {_solutions(found)} and exact {exact}"
    if status is Status.TIMEOUT and exact:
        return "returned status timeout with exact True"
    kept = limit if keep is None else min(keep, limit)
    if found != min(count, kept):
        asked = "" if keep is None else f" (asked to keep {keep})"
        return f"returned {_solutions(found)} with count {count}{asked}"
    if not found:
        return None
    return _solutions_problem(solutions, puzzle)


def answer_holds(
    puzzle: Grid,
    status: Status,
    solutions: tuple[bytes, ...],
    count: int,
    exact: bool,
    *,
    limit: int,
    keep: int | None = None,
) -> bool:
    """True when a plain answer for ``puzzle`` is consistent, as ``result_problem`` would find its ``Result``.

    The fast way for a classic puzzle, on plain data: ``status`` a ``Status``, ``solutions`` each one's
    cells as n*n bytes, ``count`` an int, ``exact`` a bool (``sudokit.engines.api.result_of`` reads
    them). False when the answer is not consistent, and when this check cannot tell (a variant puzzle,
    status ``error``): ``result_problem`` then judges it, and says what is wrong. Accepts no answer
    that ``result_problem`` refuses: the same rules, each solution's units and givens by ``_solves``.
    """
    found = len(solutions)
    if status is Status.UNSOLVABLE:
        return count == 0 and not found and exact
    if status is Status.SOLVED:
        if count < 1 or not found:
            return False
    elif status is not Status.TIMEOUT or exact or count < 0:
        return False
    kept = limit if keep is None or keep > limit else keep
    if count > limit or found != (count if count < kept else kept):
        return False
    if not found:
        return True  # a timeout before any solution
    return _solve_puzzle(puzzle, solutions) and (found == 1 or len(set(solutions)) == found)


def solved_once_holds(puzzle: Grid, raw: bytes, count: int, *, limit: int, keep: int | None = None) -> bool:
    """``answer_holds(puzzle, Status.SOLVED, (raw,), count, exact, limit=limit, keep=keep)``, in fewer steps.

    The common answer of a solve: solved, with the one solution ``raw`` (its cells as n*n bytes) of ``count``
    found. The same rules: a count of 1..limit that keeps exactly one solution, and ``raw`` solves ``puzzle``.
    """
    kept = limit if keep is None or keep > limit else keep
    if count < 1 or count > limit or (count if count < kept else kept) != 1:
        return False
    return _solve_puzzle(puzzle, (raw,))


def _solve_puzzle(puzzle: Grid, solutions: tuple[bytes, ...]) -> bool:
    """True when each of ``solutions`` (bytes exactly, n*n of them) fills every unit of the classic ``puzzle`` and
    keeps its givens; the puzzle read once for all of them.

    False for a variant puzzle (the full check takes it) and for cells that are not bytes. (Loops, not
    ``all()``: its generator would cost ``solve()`` 0.3-0.5 us a call.)
    """
    if not puzzle.is_classic:
        return False
    shape = puzzle.shape
    if shape.size == 81:
        compiled = _COMPILED or _compiled_check()
        if compiled is not None:
            try:
                raw_puzzle = puzzle.to_bytes()  # made once a grid: the engine may have read it too (bytes: immutable)
            except (TypeError, ValueError):
                return False
            if type(raw_puzzle) is not bytes:
                return False
            for raw in solutions:  # noqa: SIM110
                if type(raw) is not bytes or compiled(raw, raw_puzzle) is not True:
                    return False
            return True
    givens = _givens(puzzle)
    if givens is None:
        return False
    units = _units(shape.box_rows, shape.box_cols)
    size = shape.size
    for raw in solutions:  # noqa: SIM110
        if type(raw) is not bytes or len(raw) != size or not _solves(raw, units, givens):
            return False
    return True


#: ``verify_jit.solves9`` once loaded; False where it cannot be (numba broken or its JIT disabled).
_COMPILED: Any = None


def _compiled_check() -> Callable[[bytes, bytes], bool] | None:
    """The compiled 9x9 check (:mod:`sudokit.engines.verify_jit`) where numba is already imported, else None.

    sudokit never imports numba for it: in a process without the ``numba`` engine the check stays Python.
    """
    global _COMPILED
    if _COMPILED is None:
        function = _load_compiled("solves9", lambda: (bytes(81), bytes(81)))
        if function:  # called on two bytes only: the compiled overload's own entry, without numba's look at the types
            try:
                bytes_type = sys.modules["numba"].typeof(b"")
                entry = getattr(function.overloads.get((bytes_type, bytes_type)), "entry_point", None)
            except Exception:
                entry = None
            function = function if entry is None else entry
        _COMPILED = function
    return _COMPILED or None


def _load_compiled(name: str, blank: Callable[[], tuple[Any, ...]]) -> Any:
    """``verify_jit``'s function ``name``, loaded (or compiled) here and seen to refuse a blank grid (``blank()``
    are its arguments); False where it cannot be (numba broken or its JIT disabled); None while numba is not
    imported (asked again next time: it may be imported later)."""
    numba = sys.modules.get("numba")
    if numba is None:
        return None
    try:
        if getattr(getattr(numba, "config", None), "DISABLE_JIT", False):
            raise ImportError("numba's JIT is disabled")
        from sudokit.engines import verify_jit

        function = getattr(verify_jit, name)
        if function(*blank()) is not False:
            raise ImportError(f"the compiled check {name} passed a blank grid")
        return function
    except Exception:
        return False


def _solutions_problem(solutions: tuple[Grid, ...] | list[Grid], puzzle: Grid) -> str | None:
    """What is wrong with the solutions of a result: one that is no grid, no solution, or repeated."""
    shape, found = puzzle.shape, len(solutions)
    size = shape.size
    givens = _givens(puzzle) if puzzle.is_classic else None  # variants take the full check
    units = _units(shape.box_rows, shape.box_cols) if givens is not None else None
    for k, grid in enumerate(solutions, 1):
        if not isinstance(grid, Grid):
            return f"returned {shown(grid)} as solution {k} of {found}, not a Grid"
        if grid.shape != shape or len(grid.cells) != size:
            return f"returned a grid of {grid.shape} boxes as solution {k} of {found}, for a puzzle of {shape} boxes"
        if units is not None and givens is not None and _solves(grid.cells, units, givens):
            continue
        problem = solution_problem(puzzle, grid)
        if problem is None:
            continue  # the fast check cannot take this board (values bytes() refuses): the full one passed it
        if 0 in grid.cells and grid == puzzle:
            return f"returned the puzzle itself, unfilled, as solution {k} of {found}"
        if 0 in grid.cells:
            r, c = divmod(grid.cells.index(0), shape.n)
            return f"returned an incomplete grid (solution {k} of {found}): row {r + 1}, column {c + 1} is blank"
        return f"returned an invalid grid (solution {k} of {found}): {problem}"
    if found > 1:
        first: dict[tuple[int, ...], int] = {}
        for k, grid in enumerate(solutions, 1):
            j = first.setdefault(grid.cells, k)
            if j != k:
                return f"returned the same solution twice (solutions {j} and {k} of {found})"
    return None


def _givens(puzzle: Grid) -> tuple[int, int] | None:
    """The puzzle's givens as ``_givens_of`` gives them; None where bytes() cannot hold its cells."""
    try:
        raw = bytes(puzzle.cells)
    except (TypeError, ValueError):
        return None
    return _givens_of(raw)


def _givens_of(raw: bytes) -> tuple[int, int]:
    """A puzzle's cells (a byte each, 0 blank) as the mask of its givens and their values, ints over the bytes."""
    return int.from_bytes(raw.translate(_GIVENS), "big"), int.from_bytes(raw, "big")


def _solves(cells: tuple[int, ...] | bytes, units: _Units, givens: tuple[int, int]) -> bool:
    """The fast check: every unit a permutation of 1..n and every given kept (cells: n*n of them)."""
    row_comb, box_comb, cols, row_mask, box_mask, col_mask, groups = units
    mask, value = givens
    try:
        raw = bytes(cells)  # refuses what is not an int 0..255
    except (TypeError, ValueError):
        return False
    if int.from_bytes(raw, "big") & mask != value:
        return False
    for table, rows_full, boxes_full, cols_full in groups:
        fields = int.from_bytes(raw.translate(table), "little")
        if (
            fields * row_comb & row_mask != rows_full
            or fields * box_comb & box_mask != boxes_full
            or fields % cols & col_mask != cols_full
        ):
            return False
    return True


@cache
def _units(box_rows: int, box_cols: int) -> _Units:
    """The fast check's plan for boxes of ``box_rows`` x ``box_cols`` (see the module's docstring).

    The combs that sum the rows and the boxes, the modulus that sums the rows into the columns, the
    masks of the fields where the row, box and column sums land; then for each group of digits its
    ``bytes.translate`` table (a digit of the group as its power of two, any other byte 0) and the
    row, box and column sums of a grid where each unit holds each digit once.
    """
    n = box_rows * box_cols
    size = 1
    while n << size < 256:  # n powers of two of a group add up below 256: no field carries into the next
        size += 1
    width = 8

    def comb(cells: Iterable[int], field: int = 1) -> int:
        return sum(field << (width * i) for i in cells)

    row_comb = comb(range(n))  # field r*n + n-1 of fields * row_comb: the sum of row r
    box_comb = comb(r * n + c for r in range(box_rows) for c in range(box_cols))  # the sum of the box ending there
    cols = (1 << (width * n)) - 1  # fields % cols: the rows added up, field c the sum of column c
    row_ends = [r * n + n - 1 for r in range(n)]
    box_ends = [(r + box_rows - 1) * n + c + box_cols - 1 for r in range(0, n, box_rows) for c in range(0, n, box_cols)]
    groups = []
    for first in range(1, n + 1, size):
        last = min(first + size, n + 1)  # digits first..last-1, as 1, 2, 4, ...
        table = bytes([1 << (v - first) if first <= v < last else 0 for v in range(256)])
        full = (1 << (last - first)) - 1
        groups.append((table, comb(row_ends, full), comb(box_ends, full), comb(range(n), full)))
    return (
        row_comb,
        box_comb,
        cols,
        comb(row_ends, 255),
        comb(box_ends, 255),
        comb(range(n), 255),
        tuple(groups),
    )


def verify_many(cells: bytes, solutions: bytes, k: int, shape: Shape) -> list[bool]:
    """For each of k puzzles, whether its solution (n*n bytes, all 0 for none) keeps the givens and fills every unit.

    Independent of every engine: numpy over the whole block where numpy is installed, else the
    fast check of this module a puzzle at a time. A puzzle without a solution is False.
    """
    np = _block_numpy(cells, solutions, k, shape)
    if np is not None:
        return _verify_numpy(np, cells, solutions, k, shape)
    size = shape.size
    units = _units(shape.box_rows, shape.box_cols)
    return [
        _solves(solutions[i * size : (i + 1) * size], units, _givens_of(cells[i * size : (i + 1) * size]))
        for i in range(k)
    ]


def all_verified(cells: bytes, solutions: bytes, k: int, shape: Shape) -> bool:
    """True when every one of k puzzles' solutions keeps its givens and fills every unit (``verify_many``, all)."""
    np = _block_numpy(cells, solutions, k, shape)
    if np is not None:
        return bool(_verify_array(np, cells, solutions, k, shape).all())
    return all(verify_many(cells, solutions, k, shape))


def lines_verified(text: bytes, width: int, solutions: bytes, k: int, shape: Shape) -> bool | None:
    """:func:`all_verified` of k one-line puzzles read from their text, where sudokit's compiled check can; else None.

    ``text`` holds k lines of ``width`` bytes, each a puzzle's n*n symbols first ("." or "0" a blank); True
    when every solution keeps its line's givens and fills every unit, False when one does not, or a
    symbol is no digit or blank. Compiled (:func:`sudokit.engines.verify_jit.lines_hold9`) for 9x9 boards
    in a process where numba is already imported (the batch's caller that loaded the ``numba`` engine
    before forking its workers): one pass over the text and the solutions, where :func:`all_verified`
    needs the cells translated from the text first. None elsewhere: the caller reads the cells and
    calls :func:`all_verified`.
    """
    if shape.n != 9 or shape.box_rows != 3 or width < 81 or len(text) != k * width or len(solutions) != k * 81:
        return None
    compiled = _compiled_lines()
    if compiled is None:
        return None
    import numpy as np

    lines = np.frombuffer(text, np.uint8).reshape(k, width)
    return bool(compiled(lines, np.frombuffer(solutions, np.uint8).reshape(k, 81)))


#: ``verify_jit.lines_hold9`` once loaded; False where it cannot be (numba broken or its JIT disabled).
_COMPILED_LINES: Any = None


def _compiled_lines() -> Callable[[Any, Any], bool] | None:
    """The compiled block check (:mod:`sudokit.engines.verify_jit`) where numba is already imported, else None."""
    global _COMPILED_LINES
    if _COMPILED_LINES is None:
        _COMPILED_LINES = _load_compiled("lines_hold9", _blank_lines)
    return _COMPILED_LINES or None


def _blank_lines() -> tuple[Any, Any]:
    import numpy as np

    return np.frombuffer(bytes(82), np.uint8).reshape(1, 82), np.frombuffer(bytes(81), np.uint8).reshape(1, 81)


def _block_numpy(cells: bytes, solutions: bytes, k: int, shape: Shape) -> Any:
    """numpy, when it is installed and checks this block (sides up to 36, buffers of k puzzles); else None."""
    if shape.n > 36 or not len(cells) == len(solutions) == k * shape.size:
        return None
    try:
        import numpy as np
    except ImportError:
        return None
    return np


def _bits(np: Any, solutions: Any, n: int) -> Any:
    """The solutions' digits cell by cell (a copy of ``solutions.T``): a digit d of 1..n as 2**d, a blank as 1,
    any other byte as 2**(n+1). Shifts of one array in place: about twice as fast as a table's ``take``,
    which first widens every index to 64 bits.

    A unit's n values then sum to 2**(n+1) - 2 (n one-bits) only if they are the digits 1..n once each: n
    powers of two with a repeat carry, and fewer than n one-bits are left. The kind holds n * 2**(n+1).
    """
    kind = np.uint16 if n <= 11 else np.int32 if n <= 24 else np.int64
    bits = np.empty(solutions.shape[::-1], kind)
    bits[...] = solutions.T
    np.minimum(bits, n + 1, out=bits)
    return np.left_shift(kind(1), bits, out=bits)


def _verify_numpy(np: Any, cells: bytes, solutions: bytes, k: int, shape: Shape) -> list[bool]:
    verdicts: list[bool] = _verify_array(np, cells, solutions, k, shape).tolist()
    return verdicts


def _verify_array(np: Any, cells: bytes, solutions: bytes, k: int, shape: Shape) -> Any:
    """The verdict of each puzzle as a numpy array of bools.

    The block is laid out cell by cell with the puzzles side by side (a cell's k digits in a row), so each
    unit's sum adds whole rows of k values: five times faster than puzzle by puzzle.
    """
    n, br, bc = shape.n, shape.box_rows, shape.box_cols
    s = np.frombuffer(solutions, np.uint8).reshape(k, n * n)
    c = np.frombuffer(cells, np.uint8).reshape(k, n * n)
    ok = ((c == 0) | (c == s)).all(axis=1)
    bits = _bits(np, s, n).reshape(n, n, k)
    kind, full = bits.dtype, (1 << (n + 1)) - 2  # the digits 1..n once each sum to full; nothing else does
    ok &= (bits.sum(axis=1, dtype=kind) == full).all(axis=0)
    ok &= (bits.sum(axis=0, dtype=kind) == full).all(axis=0)
    ok &= (bits.reshape(n // br, br, n // bc, bc, k).sum(axis=(1, 3), dtype=kind) == full).all(axis=(0, 1))
    return ok


def _solutions(k: int) -> str:
    return f"{k} solution" if k == 1 else f"{k} solutions"


def shown(value: object) -> str:
    """A value as a short repr (80 characters at most), or its type's name if repr fails."""
    try:
        text = repr(value)
    except Exception:
        return f"a {type(value).__name__}"
    return text if len(text) <= 80 else text[:77] + "..."
