"""sudokit: Sudoku of any box shape, solved by interchangeable engines.

>>> from sudokit import solve
>>> result = solve("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
>>> result.status.value, result.count
('solved', 1)
"""

from typing import TYPE_CHECKING

from sudokit.api import (
    available_strategies,
    count_solutions,
    get_strategy,
    normalize_time_limit,
    solve,
    solve_sudoku,
)
from sudokit.errors import InvalidPuzzleError, StrategyError, SudokitError
from sudokit.grid import Grid
from sudokit.registry import StrategyInfo
from sudokit.shape import Shape
from sudokit.strategy import (
    MANY_STATUS,
    Capabilities,
    ManyResults,
    Result,
    Status,
    Strategy,
    capabilities_of,
    offers_many,
)
from sudokit.verify import is_solution, result_problem, solution_problem

if TYPE_CHECKING:  # imported on first use at run time (see __getattr__): ``sudoku solve`` does not pay for them
    from sudokit.batch import solve_records
    from sudokit.crosscheck import CrossCheckReport, Verdict, cross_check
    from sudokit.generation import generate
    from sudokit.logic import Step, hint, steps
    from sudokit.rating import Rating, rate
    from sudokit.reader import read_puzzles
    from sudokit.variants import (
        ALL_KINDS,
        Constraint,
        OddEven,
        king_pairs,
        knight_pairs,
        orthogonal_pairs,
        undotted_pairs,
    )

__all__ = [
    "ALL_KINDS",
    "MANY_STATUS",
    "Capabilities",
    "Constraint",
    "CrossCheckReport",
    "Grid",
    "InvalidPuzzleError",
    "ManyResults",
    "OddEven",
    "Rating",
    "Result",
    "Shape",
    "Status",
    "Step",
    "Strategy",
    "StrategyError",
    "StrategyInfo",
    "SudokitError",
    "Verdict",
    "available_strategies",
    "capabilities_of",
    "count_solutions",
    "cross_check",
    "generate",
    "get_strategy",
    "hint",
    "is_solution",
    "king_pairs",
    "knight_pairs",
    "normalize_time_limit",
    "offers_many",
    "orthogonal_pairs",
    "rate",
    "read_puzzles",
    "result_problem",
    "solution_problem",
    "solve",
    "solve_records",
    "solve_sudoku",
    "steps",
    "undotted_pairs",
]

__version__ = "0.1.0"

#: The names imported on first use, and the module of each.
_LAZY = {
    "cross_check": "crosscheck",
    "CrossCheckReport": "crosscheck",
    "Verdict": "crosscheck",
    "read_puzzles": "reader",
    "solve_records": "batch",
    "Step": "logic",
    "generate": "generation",
    "Rating": "rating",
    "rate": "rating",
    "hint": "logic",
    "steps": "logic",
    # The variant rules, for engines (sudokit.variants takes some 8 ms to import; a classic solve never needs it).
    "ALL_KINDS": "variants",
    "Constraint": "variants",
    "king_pairs": "variants",
    "knight_pairs": "variants",
    "orthogonal_pairs": "variants",
    "undotted_pairs": "variants",
    "OddEven": "variants",
}


def __getattr__(name: str) -> object:
    """The cross-check, the reader, the batch runner, the step solver, rating, generation and the variant rules load
    on first use."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"sudokit.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'sudokit' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's names, the ones imported on first use included (``dir(sudokit)``, ``help(sudokit)``)."""
    return sorted({*globals(), *_LAZY})
