"""The independent checker: is a grid a solution of a puzzle? Shares no code with any engine."""

from __future__ import annotations

from sudokit.grid import Grid

__all__ = ["is_solution", "solution_problem"]


def solution_problem(puzzle: Grid, grid: Grid) -> str | None:
    """None when ``grid`` solves ``puzzle``; otherwise one line saying what is wrong and where.

    A solution is complete, every row, column and box holds each digit 1..n exactly once, and every
    given of the puzzle is kept. The units are computed here from the box shape directly, not from
    the tables the engines use, so a bug there cannot hide from this check.
    """
    if not isinstance(grid, Grid):
        return f"not a grid: {type(grid).__name__}"
    n, br, bc = puzzle.shape.n, puzzle.shape.box_rows, puzzle.shape.box_cols
    if (grid.shape.box_rows, grid.shape.box_cols) != (br, bc) or len(grid.cells) != n * n:
        return f"shape {grid.shape} differs from the puzzle's {puzzle.shape}"
    cells = grid.cells
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
    for top in range(0, n, br):
        for left in range(0, n, bc):
            box = {cells[(top + dr) * n + left + dc] for dr in range(br) for dc in range(bc)}
            if box != digits:
                return f"the box at row {top + 1}, column {left + 1} is not a permutation of 1..{n}"
    return None


def is_solution(puzzle: Grid, grid: Grid) -> bool:
    """True when ``grid`` is complete, every unit is a permutation of 1..n, and every given is kept."""
    return solution_problem(puzzle, grid) is None
