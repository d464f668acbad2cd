"""The immutable board: a shape and n*n cell values, 0 for a blank."""

from __future__ import annotations

import json
import operator
from collections.abc import Iterable, Sequence
from typing import Any

from sudokit.errors import BadCharacterError, DigitOutOfRangeError, DuplicateGivenError, WrongCellCountError
from sudokit.formats import format_line, format_pretty, format_rows, parse_cells, rows_to_cells
from sudokit.shape import Shape

__all__ = ["Grid"]

_UNIT_NAMES = ("row", "column", "box")


class Grid:
    """An immutable Sudoku board of any box shape; cells in reading order, 0 for a blank.

    ``Grid.parse`` reads every text form and ``to_line`` prints one that parses back::

        >>> g = Grid.parse("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
        >>> g[0, 1], g.n, g.count_givens()
        (3, 9, 30)
        >>> Grid.parse(g.to_pretty()) == g
        True
    """

    __slots__ = ("_hash", "cells", "shape")
    shape: Shape
    cells: tuple[int, ...]

    def __init__(self, cells: Iterable[int], shape: Shape | str | None = None, *, validate: bool = True) -> None:
        """A grid of ``cells`` (any integers, numpy's too; 0 blank) on ``shape`` (the side's default box if None).

        Raises ``TypeError`` for cells that are not an iterable, or a ``shape`` that is not a Shape
        or a text like "2x3", and an ``InvalidPuzzleError`` for a cell that is not a digit of the
        board or a digit that repeats in a unit (unless ``validate`` is False).
        """
        if isinstance(cells, str | bytes):
            raise TypeError(f"cells must be integers, not the text {cells!r:.40}: Grid.parse reads a puzzle text")
        try:
            cells = tuple(cells)
        except TypeError:
            raise TypeError(f"cells must be an iterable of integers, not {cells!r:.80}") from None
        if shape is not None and type(shape) is not Shape:
            shape = _shape(shape)
        if shape is None:
            side = round(len(cells) ** 0.5)
            if side * side != len(cells):
                raise WrongCellCountError(f"{len(cells)} cells: a board needs a square number of cells")
            shape = Shape.for_side(side)
        elif len(cells) != shape.size:
            raise WrongCellCountError(f"{len(cells)} cells, but a {shape.n}x{shape.n} board needs {shape.size}")
        if validate:
            cells = _digits(cells, shape.n)
        object.__setattr__(self, "shape", shape)
        object.__setattr__(self, "cells", cells)
        object.__setattr__(self, "_hash", None)
        if validate:
            self._check_duplicates()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Grid is immutable")

    def __reduce__(self) -> tuple[object, ...]:
        return (_unpickle, (self.cells, self.shape))

    # --- construction -------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str, box: Shape | str | None = None) -> Grid:
        """A grid from any accepted text form; ``box`` ("2x3" or a Shape) where the side leaves it open.

        Raises an :class:`~sudokit.errors.InvalidPuzzleError` subclass naming what is wrong and where,
        and ``TypeError`` for a ``text`` that is not a str or a ``box`` that is not a Shape or a str.
        """
        if not isinstance(text, str):
            raise TypeError(f"puzzle text must be a str, not {text!r:.80}")
        shape, cells = parse_cells(text, _shape(box))
        return cls(cells, shape)

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[int | str]], box: Shape | str | None = None) -> Grid:
        """A grid from rows of ints (0 blank) or one-character strings (``"."`` blank), as LeetCode's board.

        Any integers do (numpy's too, and a numpy array of rows). Raises ``TypeError`` when ``rows``
        is not a sequence of rows, and an ``InvalidPuzzleError`` subclass for a bad board.
        """
        shape, cells = rows_to_cells(rows, _shape(box))
        return cls(cells, shape)

    @classmethod
    def empty(cls, shape: Shape | str | None = None) -> Grid:
        """An empty board of the given shape (9x9 by default)."""
        shape = _shape(shape) or Shape.of(3, 3)
        return cls((0,) * shape.size, shape, validate=False)

    # --- reading ------------------------------------------------------------------------------

    @property
    def n(self) -> int:
        """The board side (9 for a classic Sudoku)."""
        return self.shape.n

    def __getitem__(self, key: int | tuple[int, int]) -> int:
        """The value at cell index ``i`` or at ``(row, column)``, both 0-based; 0 for a blank."""
        if isinstance(key, tuple):
            r, c = key
            if not (0 <= r < self.shape.n and 0 <= c < self.shape.n):
                raise IndexError(f"({r}, {c}) is off a {self.shape.n}x{self.shape.n} board")
            return self.cells[r * self.shape.n + c]
        return self.cells[key]

    def __len__(self) -> int:
        return len(self.cells)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.cells)

    def rows(self) -> list[list[int]]:
        """The board as rows of ints, 0 for a blank."""
        return format_rows(self.cells, self.shape.n)

    def count_givens(self) -> int:
        """How many cells are filled."""
        return sum(1 for v in self.cells if v)

    def is_complete(self) -> bool:
        """True when no cell is blank (says nothing about validity: see ``is_solution``)."""
        return all(self.cells)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Grid):
            return NotImplemented
        return self.shape == other.shape and self.cells == other.cells

    def __hash__(self) -> int:
        if self._hash is None:
            object.__setattr__(self, "_hash", hash((self.shape, self.cells)))
        return self._hash  # type: ignore[return-value]

    # --- printing -----------------------------------------------------------------------------

    def to_line(self) -> str:
        """The one-line form (``.`` for a blank); parses back to this grid."""
        return format_line(self.shape, self.cells)

    def to_pretty(self, *, givens: Grid | None = None, color: bool = False) -> str:
        """Rows with box borders; with ``color``, cells blank in ``givens`` are drawn in red."""
        return format_pretty(self.shape, self.cells, givens=givens.cells if givens else None, color=color)

    def to_json(self) -> str:
        """A JSON list of rows of ints (0 for a blank); parses back to this grid."""
        return json.dumps(self.rows(), separators=(",", ":"))

    def to_leetcode(self) -> list[list[str]]:
        """LeetCode 37's board: rows of one-character strings, ``"."`` for a blank (boards up to 9x9)."""
        return [["." if v == 0 else str(v) for v in row] for row in self.rows()]

    def format(self, fmt: str, **options: Any) -> str:
        """The grid in the named form: ``line``, ``pretty`` or ``json``."""
        if fmt == "line":
            return self.to_line()
        if fmt == "pretty":
            return self.to_pretty(**options)
        if fmt == "json":
            return self.to_json()
        raise ValueError(f"unknown format {fmt!r}: choose line, pretty or json")

    def __str__(self) -> str:
        return self.to_pretty()

    def __repr__(self) -> str:
        shape = self.shape
        # A 1xC box (rows as boxes) is never the default, and a prime side (5, 7) has no default to ask for.
        default = 1 not in (shape.box_rows, shape.box_cols) and shape == Shape.for_side(shape.n)
        box = "" if default else f", box={str(shape)!r}"
        return f"Grid.parse({self.to_line()!r}{box})"

    # --- validation ---------------------------------------------------------------------------

    def _check_duplicates(self) -> None:
        shape = self.shape
        n = shape.n
        for kind, units in zip(_UNIT_NAMES, (shape.rows, shape.cols, shape.boxes), strict=True):
            for unit in units:
                seen: dict[int, int] = {}
                for i in unit:
                    v = self.cells[i]
                    if not v:
                        continue
                    if v in seen:
                        j = seen[v]
                        raise DuplicateGivenError(
                            f"digit {v} repeats the {v} at row {j // n + 1}, column {j % n + 1} (same {kind})",
                            row=i // n + 1,
                            column=i % n + 1,
                            digit=v,
                            other=(j // n + 1, j % n + 1),
                        )
                    seen[v] = i


def _unpickle(cells: tuple[int, ...], shape: Shape) -> Grid:
    return Grid(cells, shape, validate=False)


def _digits(cells: tuple[Any, ...], n: int) -> tuple[int, ...]:
    """``cells`` as ints 0..n (numpy's integers and other ``__index__`` types converted), or the error at fault."""
    try:
        raw = bytes(cells)  # at C speed: refuses what is no integer 0..255
    except (TypeError, ValueError):
        pass
    else:
        if n < 256 and not raw.translate(None, bytes(range(n + 1))):
            return tuple(raw)  # plain ints, whatever integer type came in
    digits = []
    for i, v in enumerate(cells):
        if type(v) is not int:
            try:
                v = operator.index(v)
            except TypeError:
                raise BadCharacterError(
                    f"{v!r:.20} is not a digit or a blank", row=i // n + 1, column=i % n + 1
                ) from None
        if not 0 <= v <= n:
            raise DigitOutOfRangeError(
                f"digit {v} is out of range for a {n}x{n} board (1-{n})", row=i // n + 1, column=i % n + 1, digit=v
            )
        digits.append(v)
    return tuple(digits)


def _shape(box: Shape | str | None) -> Shape | None:
    if box is None or isinstance(box, Shape):
        return box
    if isinstance(box, str):
        return Shape.parse(box)
    raise TypeError(f"box must be a Shape or a text like '2x3', not {box!r:.80}")
