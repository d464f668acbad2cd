"""Hypothesis strategies for an engine author's own property tests: random puzzles with known answers.

``puzzles()`` draws a ``KnownPuzzle``: a puzzle, the solved grid it was cut from (always one of its
solutions) and, when that is cheap to find, its exact number of solutions, counted by the kit's
independent reference counter (``sudokit.testing.reference``), never by an engine::

    from hypothesis import given
    from sudokit import is_solution
    from sudokit.testing.strategies import KnownPuzzle, puzzles

    @given(puzzles(box="3x3", blanks=(0.2, 0.7)))
    def test_my_engine(known: KnownPuzzle) -> None:
        result = MyEngine().solve(known.puzzle, limit=2)
        assert is_solution(known.puzzle, result.solution)
        if known.count is not None:
            assert (result.count, result.exact) == (min(known.count, 2), known.count < 2)

    @given(puzzles(unique=True))            # boards up to 9x9, exactly one solution each
    def test_my_engine_finds_the_solution(known: KnownPuzzle) -> None:
        assert MyEngine().solve(known.puzzle).solution == known.solution

How a grid is drawn, and why it shrinks well: every draw is a Hypothesis primitive (no ``Random``
seeded by one integer). A solved grid starts as the pattern ``digit(y, x) = (C*(y%R) + y//R + x) % n
+ 1`` for boxes of R x C, gets a drawn list of "swap cycles" (two rows of one band, or two columns of
one stack, exchange the cells of a set of columns or rows holding the same digits: still a solution,
and most are not a symmetry of the pattern), then drawn permutations of the digits, of the rows in
each band, of the bands, of the columns in each stack and of the stacks, and a transpose when the box
is square. The cells to blank are drawn one by one among the cells left. Each draw shrinks
to its simplest value: no swaps, identity permutations, fewer blanks, blanks first in reading
order; so a failing example shrinks towards the pattern grid with its first few cells blank.

``sudokit.testing`` itself does not need Hypothesis; this module does (``pip install sudokit[testing]``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import cast

from hypothesis import strategies as st

from sudokit.model.grid import Grid
from sudokit.model.shape import Shape
from sudokit.testing.reference import BudgetExceeded, count_solutions

__all__ = ["DEFAULT_BUDGET", "DEFAULT_SHAPES", "KnownPuzzle", "pattern_grid", "puzzles", "solved_grids"]

#: The boxes drawn when no ``box`` is given: every board of the issue's list up to 9x9.
DEFAULT_SHAPES: tuple[Shape, ...] = tuple(Shape.of(r, c) for r, c in ((2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)))
#: Search nodes the reference counter may spend on one count (or on one uniqueness test, with ``unique``):
#: enough for the 288 solutions of an empty 4x4 board; about 0.05 s at most on 9x9, 0.2 s on 16x16.
DEFAULT_BUDGET = 600
#: The share of blank cells ``unique=True`` aims at by default, by board side: the counter pays for each blank.
_UNIQUE_BLANKS = ((9, 0.6), (12, 0.5), (16, 0.35))
_UNIQUE_BLANKS_BEYOND = 0.2

Box = Shape | str | Iterable[Shape | str] | None


@dataclass(frozen=True, slots=True)
class KnownPuzzle:
    """A drawn puzzle, the solved grid it was cut from, and its exact number of solutions when known.

    ``solution`` is always a solution of ``puzzle`` (one of several when ``count`` is above 1);
    ``count`` is the exact number of solutions, as the reference counter found it within its budget,
    or None when counting them was not cheap (or not asked for).
    """

    puzzle: Grid
    solution: Grid
    count: int | None

    @property
    def shape(self) -> Shape:
        """The puzzle's box shape."""
        return self.puzzle.shape

    @property
    def blanks(self) -> int:
        """How many cells of the puzzle are blank."""
        return self.puzzle.cells.count(0)

    @property
    def unique(self) -> bool | None:
        """True/False when the count is known, None when it is not."""
        return None if self.count is None else self.count == 1

    def __repr__(self) -> str:
        return f"KnownPuzzle({self.puzzle!r}, solution={self.solution.to_line()!r}, count={self.count})"


def pattern_grid(shape: Shape) -> Grid:
    """The solved grid every draw starts from, and the one a failing example shrinks to."""
    r, c, n = shape.box_rows, shape.box_cols, shape.n
    return Grid([(c * (y % r) + y // r + x) % n + 1 for y in range(n) for x in range(n)], shape)


def solved_grids(box: Box = None) -> st.SearchStrategy[Grid]:
    """Random solutions of an empty board with boxes of ``box`` ("3x3", a Shape, several of them, None: DEFAULT_SHAPES).

    >>> from hypothesis import given
    >>> from sudokit import Grid, is_solution
    >>> @given(solved_grids(box="2x3"))
    ... def test_valid(grid):
    ...     assert is_solution(Grid.empty("2x3"), grid)
    >>> test_valid()
    """
    return st.sampled_from(_shapes(box)).flatmap(_solved)


def puzzles(
    box: Box = None,
    *,
    blanks: tuple[float, float] | None = None,
    unique: bool = False,
    count: bool = True,
    budget: int = DEFAULT_BUDGET,
) -> st.SearchStrategy[KnownPuzzle]:
    """Random puzzles with a known solution, and their exact count of solutions where that is cheap.

    ``box``: a box shape ("3x3" or a Shape), several (one is drawn for each puzzle), or None for
    ``DEFAULT_SHAPES`` (boards up to 9x9). ``blanks``: the share of cells to blank, a range
    ``(lo, hi)`` within 0..1 from which each puzzle's share is drawn (None: 0..1, or with ``unique``
    0..0.6 on boards up to 9x9, less on larger ones). ``unique``: only puzzles with exactly one
    solution: clues are taken away in a drawn order, each only if the reference counter then still
    proves the solution unique within ``budget`` nodes, until the drawn share is blank or every cell
    has been tried (so a puzzle may have fewer blanks than asked: no 9x9 puzzle with one solution has
    more than 64). ``count``: count the solutions with the reference counter, giving up (``count``
    None) past ``budget`` search nodes; with ``unique`` the count is always 1.

    The cost is the reference counter's: a search node takes about 0.1 ms on a 9x9 board and 0.3 ms
    on a 16x16 one, so a count gives up within about 0.05 s and 0.2 s with the default budget (pass
    ``count=False`` where the count is not used, and a smaller ``budget`` to give up sooner). With
    ``unique`` every clue taken away costs one such test, most of them settled by singles alone.

    >>> from hypothesis import given
    >>> from sudokit import is_solution
    >>> @given(puzzles(box="2x2"))
    ... def test_known(known):
    ...     assert is_solution(known.puzzle, known.solution) and known.count >= 1  # always counted on 4x4
    >>> test_known()
    """
    shapes = _shapes(box)
    if type(unique) is not bool or type(count) is not bool:
        raise TypeError(f"unique and count must be True or False, not {unique!r:.20} and {count!r:.20}")
    if type(budget) is not int or budget < 1:
        raise ValueError(f"budget must be a whole number of search nodes, at least 1, not {budget!r:.40}")
    if blanks is not None:
        lo, hi = _share_range(blanks)
    strategies = []
    for shape in shapes:
        share = (lo, hi) if blanks is not None else (0.0, _unique_share(shape) if unique else 1.0)
        # The blank counts the share range allows (a range narrower than one cell gives the next count up).
        least = math.ceil(share[0] * shape.size - 1e-9)
        most = max(least, math.floor(share[1] * shape.size + 1e-9))
        strategies.append(_known(shape, least, most, unique, count, budget))
    return st.one_of(strategies) if len(strategies) > 1 else strategies[0]


# --- the draws ---------------------------------------------------------------------------------------


@st.composite
def _solved(draw: st.DrawFn, shape: Shape) -> Grid:
    """A random solution of an empty board of ``shape`` (see the module's docstring for how)."""
    r, c, n = shape.box_rows, shape.box_cols, shape.n
    cells = list(pattern_grid(shape).cells)
    # Swap cycles: exchange, between two lines of one band (stack), the cells of a set of positions that
    # hold the same digits in both; each line keeps its digits, and each box too (both cells share one).
    for by_columns, line, step, start in draw(_swaps(r, c)):
        side = c if by_columns else r  # lines per stack (band)
        if step % side == 0:
            continue  # the line itself (or a band of one row)
        other = line - line % side + (line % side + step) % side
        if by_columns:
            _swap_cycle(cells, range(line, n * n, n), range(other, n * n, n), start)
        else:
            _swap_cycle(cells, range(line * n, line * n + n), range(other * n, other * n + n), start)
    digits = draw(_permutation(n))
    bands = draw(_permutation(c))  # c bands of r rows
    row_orders = [draw(_permutation(r)) for _ in range(c)]
    stacks = draw(_permutation(r))  # r stacks of c columns
    col_orders = [draw(_permutation(c)) for _ in range(r)]
    rows = [band * r + k for band in bands for k in row_orders[band]]
    cols = [stack * c + k for stack in stacks for k in col_orders[stack]]
    if r == c and draw(st.booleans()):  # transposed: the result's row i is the permuted grid's column i
        return Grid([digits[cells[y * n + x] - 1] + 1 for x in cols for y in rows], shape)
    return Grid([digits[cells[y * n + x] - 1] + 1 for y in rows for x in cols], shape)


def _swap_cycle(cells: list[int], a: range, b: range, start: int) -> None:
    """Exchange between lines ``a`` and ``b`` (cell indices) the cells at the smallest set of positions, holding
    ``start``, whose digits are the same set in both: follow b's digit to where a holds it, until back at a's first.
    """
    where = {cells[i]: k for k, i in enumerate(a)}
    cycle = [start]
    while cells[b[cycle[-1]]] != cells[a[start]]:
        cycle.append(where[cells[b[cycle[-1]]]])
    for k in cycle:
        cells[a[k]], cells[b[k]] = cells[b[k]], cells[a[k]]


@cache
def _swaps(r: int, c: int) -> st.SearchStrategy[list[tuple[bool, int, int, int]]]:
    """Swap cycles for boxes of r x c: (between columns?, line, step to the other line of its band, first position)."""
    n = r * c
    swap = st.tuples(st.booleans(), st.integers(0, n - 1), st.integers(1, max(r, c) - 1), st.integers(0, n - 1))
    return st.lists(swap, max_size=n // 2)


@cache
def _permutation(k: int) -> st.SearchStrategy[list[int]]:
    """Permutations of 0..k-1, shrinking to the identity (made once per k: drawing is what costs)."""
    return st.permutations(range(k))


@cache
def _index(k: int) -> st.SearchStrategy[int]:
    """An index below ``k``, drawn evenly (``integers`` favours small values), shrinking to 0."""
    return st.sampled_from(range(k))


@st.composite
def _known(draw: st.DrawFn, shape: Shape, least: int, most: int, unique: bool, count: bool, budget: int) -> KnownPuzzle:
    """A solved grid of ``shape`` with ``least``..``most`` of its cells drawn to be blank."""
    solution = draw(_solved(shape))
    target = draw(st.sampled_from(range(least, most + 1)))  # evenly over the range, shrinking to ``least``
    cells = list(solution.cells)
    if not unique:
        for cell in _drawn_cells(draw, shape.size, target):
            cells[cell] = 0
        puzzle = Grid(cells, shape)
        return KnownPuzzle(puzzle, solution, _count(puzzle, budget) if count else None)
    blank = 0
    for cell in _drawn_cells(draw, shape.size, shape.size):
        if blank >= target:
            break
        cells[cell] = 0
        if _count(Grid(cells, shape, validate=False), budget, limit=2) == 1:
            blank += 1
        else:
            cells[cell] = solution.cells[cell]  # a second solution comes in (or proving it would cost too much)
    return KnownPuzzle(Grid(cells, shape), solution, 1)


def _drawn_cells(draw: st.DrawFn, size: int, how_many: int) -> Iterator[int]:
    """Up to ``how_many`` distinct cells of ``size``, drawn one at a time as they are needed (each shrinks to the first
    cell left, so the cells shrink to reading order)."""
    left = list(range(size))
    for _ in range(how_many):
        yield left.pop(draw(_index(len(left))))


def _count(puzzle: Grid, budget: int, limit: int | None = None) -> int | None:
    """The reference counter's count (up to ``limit``) within ``budget`` nodes, None past it."""
    try:
        return count_solutions(puzzle, limit, keep=0, budget=budget).count
    except BudgetExceeded:
        return None


# --- the arguments -----------------------------------------------------------------------------------


def _shapes(box: Box) -> tuple[Shape, ...]:
    """The shapes ``box`` names: one, several, or DEFAULT_SHAPES for None; TypeError/BoxShapeError otherwise."""
    if box is None:
        return DEFAULT_SHAPES
    if isinstance(box, Shape | str):
        box = [box]
    if not isinstance(box, Iterable):
        raise TypeError(f"box must be a Shape, a text like '3x3', several of them or None, not {box!r:.60}")
    shapes = []
    for item in box:
        if isinstance(item, Shape):
            shapes.append(item)
        elif isinstance(item, str):
            shapes.append(Shape.parse(item))
        else:
            raise TypeError(f"box must be a Shape or a text like '3x3', not {item!r:.60}")
    if not shapes:
        raise ValueError("box: no shape given")
    return tuple(dict.fromkeys(shapes))


def _share_range(blanks: object) -> tuple[float, float]:
    """``blanks`` as a (lo, hi) range of shares within 0..1; ValueError/TypeError naming what is wrong."""
    try:
        lo, hi = cast("tuple[float, float]", blanks)  # or the lines below raise the TypeError
        lo, hi = float(lo), float(hi)
    except (TypeError, ValueError):
        raise TypeError(f"blanks must be a (lo, hi) range of shares such as (0.2, 0.6), not {blanks!r:.60}") from None
    if not 0.0 <= lo <= hi <= 1.0:
        raise ValueError(f"blanks must be a range within 0..1 with lo <= hi, not {blanks!r:.60}")
    return lo, hi


def _unique_share(shape: Shape) -> float:
    """The largest share of blanks ``unique=True`` aims at by default on boards of ``shape``."""
    for side, share in _UNIQUE_BLANKS:
        if shape.n <= side:
            return share
    return _UNIQUE_BLANKS_BEYOND
