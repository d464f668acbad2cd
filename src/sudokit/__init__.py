"""sudokit: Sudoku of any box shape, solved by interchangeable engines.

>>> from sudokit import solve
>>> result = solve("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
>>> result.status.value, result.count
('solved', 1)
"""

from sudokit.api import available_strategies, count_solutions, get_strategy, solve, solve_sudoku
from sudokit.errors import InvalidPuzzleError, StrategyError, SudokitError
from sudokit.grid import Grid
from sudokit.shape import Shape
from sudokit.strategy import Result, Status, Strategy
from sudokit.verify import is_solution, solution_problem

__all__ = [
    "CrossCheckReport",
    "Grid",
    "InvalidPuzzleError",
    "Result",
    "Shape",
    "Status",
    "Strategy",
    "StrategyError",
    "SudokitError",
    "available_strategies",
    "count_solutions",
    "cross_check",
    "get_strategy",
    "is_solution",
    "solution_problem",
    "solve",
    "solve_sudoku",
]

__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    """The cross-check is imported on first use: ``sudoku solve`` does not pay for it."""
    if name in ("cross_check", "CrossCheckReport"):
        from sudokit import crosscheck

        return getattr(crosscheck, name)
    raise AttributeError(f"module 'sudokit' has no attribute {name!r}")
