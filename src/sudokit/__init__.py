"""sudokit: Sudoku of any box shape, solved by interchangeable engines.

>>> from sudokit import solve
>>> result = solve("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
>>> result.status.value, result.count
('solved', 1)
"""

from typing import TYPE_CHECKING

from sudokit.engines.api import (
    available_strategies,
    count_solutions,
    get_strategy,
    normalize_time_limit,
    solve,
    solve_sudoku,
)
from sudokit.engines.registry import StrategyInfo
from sudokit.engines.strategy import (
    MANY_STATUS,
    Capabilities,
    ManyResults,
    Result,
    Status,
    Strategy,
    capabilities_of,
    offers_candidates,
    offers_many,
)
from sudokit.engines.verify import is_solution, result_problem, solution_problem
from sudokit.errors import InvalidPuzzleError, StrategyError, SudokitError
from sudokit.io.puzzles import parse_puzzle
from sudokit.model.grid import Grid
from sudokit.model.shape import Shape

if TYPE_CHECKING:  # imported on first use at run time (see __getattr__): ``sudoku solve`` does not pay for them
    from sudokit.features.candidates import TrueCandidates, candidates
    from sudokit.features.crosscheck import CrossCheckReport, Verdict, cross_check
    from sudokit.features.generation import generate
    from sudokit.features.logic import Step, hint, steps
    from sudokit.features.rating import Rating, rate
    from sudokit.io.reader import read_puzzles
    from sudokit.model.grid import from_dict, from_json
    from sudokit.model.variants import (
        ALL_KINDS,
        Constraint,
        OddEven,
        king_pairs,
        knight_pairs,
        orthogonal_pairs,
        undotted_pairs,
    )
    from sudokit.runtime.batch import solve_records

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
    "TrueCandidates",
    "Verdict",
    "available_strategies",
    "candidates",
    "capabilities_of",
    "count_solutions",
    "cross_check",
    "from_dict",
    "from_json",
    "generate",
    "get_strategy",
    "hint",
    "is_solution",
    "king_pairs",
    "knight_pairs",
    "normalize_time_limit",
    "offers_candidates",
    "offers_many",
    "orthogonal_pairs",
    "parse_puzzle",
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
    "candidates": "sudokit.features.candidates",
    "TrueCandidates": "sudokit.features.candidates",
    "cross_check": "sudokit.features.crosscheck",
    "CrossCheckReport": "sudokit.features.crosscheck",
    "Verdict": "sudokit.features.crosscheck",
    "read_puzzles": "sudokit.io.reader",
    "solve_records": "sudokit.runtime.batch",
    "Step": "sudokit.features.logic",
    "generate": "sudokit.features.generation",
    "Rating": "sudokit.features.rating",
    "rate": "sudokit.features.rating",
    "hint": "sudokit.features.logic",
    "steps": "sudokit.features.logic",
    # The variant rules engines lower (sudokit.model.variants takes ~8 ms to import; a classic solve never needs it).
    "ALL_KINDS": "sudokit.model.variants",
    "Constraint": "sudokit.model.variants",
    "from_dict": "sudokit.model.grid",
    "from_json": "sudokit.model.grid",
    "king_pairs": "sudokit.model.variants",
    "knight_pairs": "sudokit.model.variants",
    "orthogonal_pairs": "sudokit.model.variants",
    "undotted_pairs": "sudokit.model.variants",
    "OddEven": "sudokit.model.variants",
}


def __getattr__(name: str) -> object:
    """The cross-check, the reader, the batch runner, the step solver, rating, generation and the variant rules load
    on first use."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'sudokit' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's names, the ones imported on first use included (``dir(sudokit)``, ``help(sudokit)``)."""
    return sorted({*globals(), *_LAZY})
