"""Board geometry: the box shape of a board and its unit and peer tables, built once per shape."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from functools import cache
from typing import SupportsIndex, cast

from sudokit.errors import BoxShapeError

__all__ = ["ALPHABET", "MAX_BOX", "Shape"]

#: Cell symbols of the one-line form: 1..9, then A=10 ... Z=35.
ALPHABET = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: The largest box side supported (a 6x6 box is a 36x36 board; 5x5 is the usual upper end).
MAX_BOX = 8


@dataclass(frozen=True, slots=True)
class Shape:
    """A board's geometry: boxes of ``box_rows`` x ``box_cols`` cells on an ``n`` x ``n`` board.

    Cells are numbered 0 .. n*n-1 in reading order. Build shapes with :meth:`of`, which shares one
    instance (and its tables) per box shape::

        >>> Shape.of(3, 3).n
        9
        >>> Shape.for_side(6)
        Shape(box_rows=2, box_cols=3)
    """

    box_rows: int
    box_cols: int
    n: int = field(init=False, repr=False, compare=False)
    size: int = field(init=False, repr=False, compare=False)
    row_of: tuple[int, ...] = field(init=False, repr=False, compare=False)
    col_of: tuple[int, ...] = field(init=False, repr=False, compare=False)
    box_of: tuple[int, ...] = field(init=False, repr=False, compare=False)
    rows: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    cols: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    boxes: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    peers: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        r, c = self.box_rows, self.box_cols
        if type(r) is not int or type(c) is not int:  # numpy's integers, say: as ints, or a TypeError
            try:
                r, c = _whole(r), _whole(c)
            except TypeError:
                raise TypeError(f"box rows and columns must be whole numbers, not {r!r:.20} x {c!r:.20}") from None
            object.__setattr__(self, "box_rows", r)
            object.__setattr__(self, "box_cols", c)
        _supported(r, c)
        n = r * c
        cells = range(n * n)
        row_of = tuple(i // n for i in cells)
        col_of = tuple(i % n for i in cells)
        box_of = tuple((i // n) // r * r + (i % n) // c for i in cells)
        rows = tuple(tuple(range(k * n, k * n + n)) for k in range(n))
        cols = tuple(tuple(range(k, n * n, n)) for k in range(n))
        boxes = tuple(tuple(i for i in cells if box_of[i] == k) for k in range(n))
        peers = tuple(
            tuple(sorted((set(rows[row_of[i]]) | set(cols[col_of[i]]) | set(boxes[box_of[i]])) - {i})) for i in cells
        )
        for name, value in (
            ("n", n),
            ("size", n * n),
            ("row_of", row_of),
            ("col_of", col_of),
            ("box_of", box_of),
            ("rows", rows),
            ("cols", cols),
            ("boxes", boxes),
            ("peers", peers),
        ):
            object.__setattr__(self, name, value)

    @staticmethod
    @cache
    def of(box_rows: int, box_cols: int) -> Shape:
        """The shared shape for boxes of ``box_rows`` x ``box_cols``."""
        return Shape(box_rows, box_cols)

    @staticmethod
    def for_side(n: int) -> Shape:
        """The default shape for an n x n board: the box closest to square, box rows <= box columns."""
        return Shape.of(*Shape.box_for_side(n))

    @staticmethod
    def box_for_side(n: int) -> tuple[int, int]:
        """(box rows, box columns) of :meth:`for_side`'s shape, without building it and its tables."""
        best = None
        for r in range(2, int(n**0.5) + 1):
            if n % r == 0:
                best = (r, n // r)
        if best is None:
            raise BoxShapeError(f"a {n}x{n} board has no box shape (the side must be a product like 2x3 or 3x3)")
        _supported(*best)
        return best

    @staticmethod
    def parse(text: str) -> Shape:
        """A shape from ``"RxC"`` (box rows x box columns), e.g. ``"2x3"``."""
        if not isinstance(text, str):
            raise TypeError(f"box shape must be a text like '2x3', not {text!r:.80}")
        parts = [p.strip() for p in text.lower().replace("*", "x").split("x")]
        if len(parts) != 2 or not all(p.isascii() and p.isdigit() for p in parts):
            raise BoxShapeError(f"box shape {text!r:.40} is not of the form RxC, e.g. 2x3")
        if any(len(p.lstrip("0")) > 3 for p in parts):  # int() of thousands of digits is slow, or refused
            raise BoxShapeError(f"box shape {text:.20}... is not supported (each side 1..{MAX_BOX})")
        return Shape.of(int(parts[0]), int(parts[1]))

    def __reduce__(self) -> tuple[object, ...]:
        return (Shape.of, (self.box_rows, self.box_cols))

    @property
    def units(self) -> tuple[tuple[int, ...], ...]:
        """Every row, then every column, then every box."""
        return self.rows + self.cols + self.boxes

    @property
    def full_mask(self) -> int:
        """The bit mask with one bit per digit, bit d-1 standing for digit d."""
        return (1 << self.n) - 1

    def __str__(self) -> str:
        return f"{self.box_rows}x{self.box_cols}"


def _supported(r: int, c: int) -> None:
    """BoxShapeError unless boxes of r x c cells are supported."""
    if not (1 <= r <= MAX_BOX and 1 <= c <= MAX_BOX) or r * c < 4:
        raise BoxShapeError(f"box shape {r}x{c} is not supported (each side 1..{MAX_BOX}, board side at least 4)")


def _whole(value: object) -> int:
    """An integer of any type (numpy's too) as an int; TypeError for a bool or anything else."""
    if isinstance(value, bool):
        raise TypeError("a bool is not a whole number")
    return operator.index(cast("SupportsIndex", value))  # any object: its TypeError is the answer
