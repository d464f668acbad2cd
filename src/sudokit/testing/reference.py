"""An independent reference counter: exact solution counts without trusting any engine under test.

This module shares no code with sudokit's engines (``strategies/``) and does not go through
``sudokit.engines.api``: it reads a puzzle's cells and box shape (``Grid``, ``Shape``) and nothing else,
and builds its own rows, columns and boxes from the box's rows and columns. It is small and slow
on purpose, so that it can be read and trusted:

* every cell keeps a bit mask of the digits it may still take (bit ``d - 1`` for digit ``d``);
* placing a digit removes it from the cell's peers, and a peer left with one digit is placed in
  turn (naked singles); a digit with one place left in a row, column or box is placed there
  (hidden singles); both run to a fixpoint, and a cell or unit with no way left is a contradiction;
* the search branches on the blank cell with the fewest candidates, depth first, on a stack.

``count_solutions`` counts (to a limit, within a budget of search nodes when asked) and keeps the
first solutions; ``propagate`` runs the singles alone::

    >>> from sudokit import Grid
    >>> count_solutions(Grid.parse("1234341221434321"))
    Count(count=1, exact=True, solutions=(Grid.parse('1234341221434321'),))
    >>> count_solutions(Grid.empty("2x2")).count        # every 4x4 Sudoku
    288
    >>> count_solutions(Grid.empty("3x3"), limit=5)[:2]
    (5, False)
    >>> propagate(Grid.parse("12.4341221434321"))
    Grid.parse('1234341221434321')
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from sudokit.model.grid import Grid

__all__ = ["BudgetExceeded", "Count", "count_solutions", "propagate"]


class BudgetExceeded(Exception):
    """The search needed more nodes than its budget allowed; nothing is known about the count."""

    def __init__(self, budget: int) -> None:
        super().__init__(f"the search needed more than {budget} nodes")
        self.budget = budget


class Count(NamedTuple):
    """What ``count_solutions`` found: ``count`` solutions, the first of them, and whether that is all.

    ``exact`` is True when the search finished below the limit, so ``count`` is the true number of
    solutions; False when it stopped at the limit (there may be more), as an engine's ``Result``.
    """

    count: int  # type: ignore[assignment]  # a field named as tuple's count() method: its public name
    exact: bool
    solutions: tuple[Grid, ...]


class _Board(NamedTuple):
    """The geometry of one box shape, built here from the box's sides alone."""

    n: int
    #: Every row, column and box, as tuples of cell indices (reading order, 0-based).
    units: tuple[tuple[int, ...], ...]
    #: For each cell, the other cells sharing a row, column or box with it.
    peers: tuple[tuple[int, ...], ...]
    #: For each cell, the indices (into ``units``) of its row, column and box.
    units_of: tuple[tuple[int, ...], ...]


@cache
def _board(box_rows: int, box_cols: int) -> _Board:
    """The rows, columns, boxes and peers of a board with boxes of ``box_rows`` x ``box_cols``."""
    n = box_rows * box_cols
    rows = [tuple(y * n + x for x in range(n)) for y in range(n)]
    cols = [tuple(y * n + x for y in range(n)) for x in range(n)]
    # box_cols bands of box_rows rows each, box_rows stacks of box_cols columns each.
    boxes = [
        tuple((band * box_rows + y) * n + stack * box_cols + x for y in range(box_rows) for x in range(box_cols))
        for band in range(box_cols)
        for stack in range(box_rows)
    ]
    units = (*rows, *cols, *boxes)
    neighbours: list[set[int]] = [set() for _ in range(n * n)]
    units_of: list[list[int]] = [[] for _ in range(n * n)]
    for k, unit in enumerate(units):
        for cell in unit:
            neighbours[cell].update(unit)
            units_of[cell].append(k)
    peers = tuple(tuple(sorted(cells - {cell})) for cell, cells in enumerate(neighbours))
    return _Board(n, units, peers, tuple(map(tuple, units_of)))


#: A search state: each cell's digit (0 blank) and each cell's candidate mask (a filled cell's is its one bit).
_State = tuple[list[int], list[int]]


def _place(board: _Board, state: _State, cell: int, digit: int) -> bool:
    """Put ``digit`` in ``cell`` and every naked single that follows; False on a contradiction."""
    values, masks = state
    todo = [(cell, digit)]
    while todo:
        cell, digit = todo.pop()
        if values[cell]:
            if values[cell] != digit:
                return False  # two singles claim the same cell with different digits
            continue
        bit = 1 << (digit - 1)
        if not masks[cell] & bit:
            return False  # a peer holds that digit already
        values[cell] = digit
        masks[cell] = bit
        for peer in board.peers[cell]:
            mask = masks[peer]
            if mask & bit:
                if values[peer]:
                    return False  # the peer holds that very digit
                mask ^= bit
                if not mask:
                    return False  # the peer has no digit left
                masks[peer] = mask
                if not mask & (mask - 1):
                    todo.append((peer, mask.bit_length()))  # a naked single
    return True


def _hidden_singles(board: _Board, state: _State) -> list[tuple[int, int]] | None:
    """(cell, digit) of every digit with one place left in some unit, not yet placed; None on a contradiction."""
    values, masks = state
    full = (1 << board.n) - 1
    found = []
    for unit in board.units:
        once = twice = 0
        for cell in unit:
            mask = masks[cell]
            twice |= once & mask
            once |= mask
        if once != full:
            return None  # some digit has no place left in this unit
        only = once & ~twice
        if not only:
            continue
        for cell in unit:
            mask = masks[cell] & only
            if mask and not values[cell]:
                if mask & (mask - 1):
                    return None  # one cell is the only place of two digits
                found.append((cell, mask.bit_length()))
    return found


def _settle(board: _Board, state: _State) -> bool:
    """Place hidden singles (and the naked singles they bring) until none is left; False on a contradiction."""
    while True:
        found = _hidden_singles(board, state)
        if found is None:
            return False
        if not found:
            return True
        for cell, digit in found:
            if not _place(board, state, cell, digit):
                return False


def _start(puzzle: Grid) -> tuple[_Board, _State | None]:
    """The board of ``puzzle`` and its givens placed and settled (None when they contradict)."""
    shape = puzzle.shape
    board = _board(shape.box_rows, shape.box_cols)
    values = list(puzzle.cells)
    # The digits each unit's givens hold (a digit given twice in a unit is a contradiction) ...
    held = []
    for unit in board.units:
        mask = 0
        for cell in unit:
            if values[cell]:
                bit = 1 << (values[cell] - 1)
                if mask & bit:
                    return board, None
                mask |= bit
        held.append(mask)
    # ... and so each blank cell's candidates: the digits none of its units holds.
    full = (1 << board.n) - 1
    masks = [
        1 << (value - 1) if value else full & ~(held[a] | held[b] | held[c])
        for value, (a, b, c) in zip(values, board.units_of, strict=True)
    ]
    state: _State = (values, masks)
    for cell, mask in enumerate(masks):  # read as it goes: placing a single narrows the masks after it
        if values[cell]:
            continue
        if not mask:
            return board, None  # a blank with no candidate
        if not mask & (mask - 1) and not _place(board, state, cell, mask.bit_length()):
            return board, None
    return board, state if _settle(board, state) else None


def propagate(puzzle: Grid) -> Grid | None:
    """``puzzle`` with every cell that naked and hidden singles decide filled in; None when they find a contradiction.

    The givens are checked against each other too, so a grid built with ``validate=False`` whose
    givens repeat a digit in a unit gives None. A None proves the puzzle has no solution; a grid
    says nothing about how many it has, unless it is complete (then exactly one).
    """
    state = _start(puzzle)[1]
    return None if state is None else Grid(state[0], puzzle.shape)


def count_solutions(
    puzzle: Grid, limit: int | None = None, *, keep: int | None = None, budget: int | None = None
) -> Count:
    """Count the solutions of ``puzzle``, up to ``limit`` (None: all), keeping the first ``keep`` (None: all found).

    ``budget`` caps the search nodes (states taken off the search stack, solutions included): past
    it the search stops with ``BudgetExceeded``, so a caller can ask "is this cheap to count?" and
    get the same answer every time. Without a budget and a limit, counting a board with millions of
    solutions takes as long as it takes. Raises ``ValueError`` for a limit or budget below 1 or a keep below 0.
    """
    for name, value, least in (("limit", limit, 1), ("keep", keep, 0), ("budget", budget, 1)):
        if value is not None and (type(value) is not int or value < least):
            raise ValueError(f"{name} must be a whole number of at least {least} or None, not {value!r:.40}")
    board, start = _start(puzzle)
    if start is None:
        return Count(0, True, ())
    count = 0
    solutions: list[Grid] = []
    nodes = 0
    stack = [start]
    while stack:
        values, masks = stack.pop()
        nodes += 1
        if budget is not None and nodes > budget:
            raise BudgetExceeded(budget)
        # The blank cell with the fewest candidates (two is the fewest a blank has after the singles).
        branch, fewest = -1, board.n + 1
        for cell, value in enumerate(values):
            if not value:
                size = masks[cell].bit_count()
                if size < fewest:
                    branch, fewest = cell, size
                    if size == 2:
                        break
        if branch < 0:
            count += 1
            if keep is None or len(solutions) < keep:
                solutions.append(Grid(values, puzzle.shape))
            if count == limit:
                return Count(count, False, tuple(solutions))
            continue
        mask = masks[branch]
        for digit in range(board.n, 0, -1):  # pushed largest first: the smallest digit is tried first
            if mask & (1 << (digit - 1)):
                child: _State = (values[:], masks[:])
                if _place(board, child, branch, digit) and _settle(board, child):
                    stack.append(child)
    return Count(count, True, tuple(solutions))
