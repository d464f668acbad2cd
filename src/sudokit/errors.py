"""Exceptions: each names what is wrong and where."""

from __future__ import annotations

__all__ = [
    "BadCharacterError",
    "BoxShapeError",
    "DigitOutOfRangeError",
    "DuplicateGivenError",
    "InvalidPuzzleError",
    "StrategyError",
    "StrategyLoadError",
    "SudokitError",
    "UnknownStrategyError",
    "WrongCellCountError",
]


class SudokitError(Exception):
    """Base of every error sudokit raises on purpose."""


class InvalidPuzzleError(SudokitError, ValueError):
    """A puzzle text or board that is not a valid Sudoku; ``str(err)`` is one line naming the place.

    ``line`` is the line number in the file (None for a lone puzzle), ``row`` and ``column`` are
    1-based, ``digit`` the digit at fault; each is None where it does not apply.
    """

    def __init__(
        self,
        problem: str,
        *,
        line: int | None = None,
        row: int | None = None,
        column: int | None = None,
        digit: int | None = None,
    ) -> None:
        self.problem = problem
        self.line = line
        self.row = row
        self.column = column
        self.digit = digit
        super().__init__(problem)

    def __str__(self) -> str:
        where = []
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.row is not None:
            where.append(f"row {self.row}, column {self.column}")
        return ": ".join([*where, self.problem])

    def at_line(self, line: int) -> InvalidPuzzleError:
        """This error with the line number of the file it came from."""
        self.line = line
        return self


class WrongCellCountError(InvalidPuzzleError):
    """The text does not hold n*n cells for any board size."""


class BadCharacterError(InvalidPuzzleError):
    """A character that is neither a digit, a blank nor a separator."""


class DigitOutOfRangeError(InvalidPuzzleError):
    """A digit larger than the board side (e.g. 7 on a 6x6 board)."""


class DuplicateGivenError(InvalidPuzzleError):
    """Two equal givens in one row, column or box; ``other`` is the (row, column) of the first."""

    def __init__(self, problem: str, *, other: tuple[int, int], **where: int | None) -> None:
        self.other = other
        super().__init__(problem, **where)


class BoxShapeError(InvalidPuzzleError):
    """A box shape that does not fit the board, or a board side with no box shape."""


class StrategyError(SudokitError):
    """A solving strategy that cannot be found, loaded or run."""


class UnknownStrategyError(StrategyError, LookupError):
    """No strategy of that name is installed."""


class StrategyLoadError(StrategyError):
    """A registered strategy whose entry point failed to load."""
