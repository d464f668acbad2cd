"""Text forms of a board: parsing (format detected from the text) and printing.

The forms read are: one line of n*n symbols (``1-9``, ``A``=10 ... ``P``=25, ``.`` or ``0`` for a
blank); the same spread over several lines with the separators ``| - + *``, spaces and blank lines
ignored (so pretty output parses back); the LeetCode JSON list of lists (``"."`` for a blank); and
whitespace-separated integers (``0`` for a blank), the unambiguous form for any size.
"""

from __future__ import annotations

import json
import operator
import re
from collections.abc import Callable, Sequence
from math import isqrt
from typing import SupportsIndex, cast

from sudokit.errors import (
    BadCharacterError,
    BoxShapeError,
    DigitOutOfRangeError,
    InvalidPuzzleError,
    WrongCellCountError,
)
from sudokit.model.shape import ALPHABET, Shape

__all__ = ["FORMATS", "format_line", "format_pretty", "format_rows", "parse_cells"]

FORMATS = ("pretty", "line", "json")
SEPARATORS = "|-+*"
BLANKS = ".0"
ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")
_SEPARATOR_TABLE = str.maketrans(SEPARATORS, " " * len(SEPARATORS))
_INTEGER = re.compile(r"[0-9]+")
_SIGNED = re.compile(r"-?[0-9]+")
_VALUE = {ch: i + 1 for i, ch in enumerate(ALPHABET)} | {ch.lower(): i + 1 for i, ch in enumerate(ALPHABET)}
_VALUE |= {b: 0 for b in BLANKS}
_RED = "\x1b[1;31m"
_RESET = "\x1b[0m"


def parse_cells(text: str, box: Shape | None = None) -> tuple[Shape, tuple[int, ...]]:
    """The shape and the cell values (0 = blank) of a puzzle text in any of the accepted forms."""
    text = ANSI_ESCAPE.sub("", text.lstrip("\ufeff")).strip()
    if not text:
        raise WrongCellCountError("empty puzzle: no cells")
    if text.startswith("["):
        return _parse_json(text, box)
    if "-" in text:
        _refuse_negative(text)
    tokens = text.translate(_SEPARATOR_TABLE).split()
    if len(tokens) > 1 and any(len(t) > 1 for t in tokens) and all(_INTEGER.fullmatch(t) for t in tokens):
        n = isqrt(len(tokens))
        # An integer has at most as many digits as n: rows of symbols ("0000" x 4) are not integers,
        # and an integer above n (17 on 16x16) is reported as out of range, not as a cell count.
        if n * n == len(tokens) and all(len(t) <= len(str(n)) for t in tokens):
            return _checked(n, [int(t) for t in tokens], box)
    return _parse_symbols("".join(tokens), box)


def _refuse_negative(text: str) -> None:
    """Whitespace-separated integers with a negative one (``0 -1 0 ...``): out of range, not a 1 after a separator."""
    words = [w for w in text.split() if w.strip(SEPARATORS)]  # a border line of separators alone is no cell
    if len(words) < 16 or not all(_SIGNED.fullmatch(w) for w in words):
        return
    n = isqrt(len(words))
    for i, word in enumerate(words):
        if word[0] == "-" and n * n == len(words):
            digits = word[1:].lstrip("0") or "0"
            value = -int(digits) if len(digits) <= 9 else None  # int() of thousands of digits is slow
            shown = f"-{digits}" if value is not None else f"-{digits[:9]}..."
            raise DigitOutOfRangeError(
                f"digit {shown} is out of range for a {n}x{n} board (1-{n})",
                row=i // n + 1,
                column=i % n + 1,
                digit=value,
            )


def _parse_symbols(symbols: str, box: Shape | None) -> tuple[Shape, tuple[int, ...]]:
    count = len(symbols)
    n = isqrt(count)
    square = n * n == count
    for i, ch in enumerate(symbols):
        if ch not in _VALUE:
            problem = f"{ch!r} is not a digit or a blank"
            if square:
                raise BadCharacterError(problem, row=i // n + 1, column=i % n + 1)
            raise BadCharacterError(f"character {i + 1}: {problem}")
    if not square:
        raise _wrong_count(count)
    return _checked(n, [_VALUE[ch] for ch in symbols], box, symbols.__getitem__)


def _wrong_count(count: int) -> WrongCellCountError:
    n = isqrt(count)
    near = " or ".join(f"{k * k} for {k}x{k}" for k in (n, n + 1) if k >= 4) or "the smallest board, 4x4, has 16"
    return WrongCellCountError(f"{count} cells: a board needs a square number of cells ({near})")


def _parse_json(text: str, box: Shape | None) -> tuple[Shape, tuple[int, ...]]:
    try:
        rows = json.loads(text)
    except json.JSONDecodeError as err:
        raise InvalidPuzzleError(f"not valid JSON: {err.msg} at line {err.lineno}, column {err.colno}") from None
    except RecursionError:
        raise InvalidPuzzleError("not valid JSON: lists nested too deeply") from None
    except ValueError:  # a number too long for int() (over 4,300 digits)
        raise InvalidPuzzleError("not valid JSON: a number too long to read") from None
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise InvalidPuzzleError("a JSON puzzle must be a list of rows, each a list of cells")
    return rows_to_cells(rows, box)


def rows_to_cells(rows: Sequence[Sequence[object]], box: Shape | None = None) -> tuple[Shape, tuple[int, ...]]:
    """Shape and cells of a board given as rows of one-character strings (``"."`` blank) or integers.

    Raises ``TypeError`` when ``rows`` is not a sequence of sequences, and an ``InvalidPuzzleError``
    subclass for a bad board.
    """
    if isinstance(rows, str | bytes):
        raise TypeError(f"rows must be a sequence of rows of cells, not the text {rows!r:.40}: parse a text instead")
    try:
        n = len(rows)
    except TypeError:
        raise TypeError(f"rows must be a sequence of rows of cells, not {rows!r:.80}") from None
    values: list[int] = []
    for r, row in enumerate(rows):
        try:
            width = len(row)
        except TypeError:
            raise TypeError(f"row {r + 1} must be a sequence of cells, not {row!r:.40}") from None
        if width != n:
            raise WrongCellCountError(f"row {r + 1} has {width} cells, but a {n}x{n} board needs {n}")
        for c, cell in enumerate(row):
            if type(cell) is int:
                values.append(cell)
            elif isinstance(cell, str):
                if cell in _VALUE:
                    values.append(_VALUE[cell])
                elif _INTEGER.fullmatch(cell):
                    digits = cell.lstrip("0") or "0"
                    if len(digits) > 9:  # out of range for any board, and int() refuses the longest
                        raise DigitOutOfRangeError(
                            f"digit {digits[:9]}... is out of range for a {n}x{n} board (1-{n})",
                            row=r + 1,
                            column=c + 1,
                        )
                    values.append(int(digits))
                else:
                    raise BadCharacterError(f"{cell!r:.20} is not a digit or a blank", row=r + 1, column=c + 1)
            else:
                values.append(_integer(cell, r, c))
    return _checked(n, values, box, lambda i: rows[i // n][i % n])


def _integer(cell: object, r: int, c: int) -> int:
    """A cell given as an integer of any type (numpy's too); not a bool, a float or anything else."""
    if not isinstance(cell, bool):
        try:
            return operator.index(cast("SupportsIndex", cell))  # any object: its TypeError is the answer
        except TypeError:
            pass
    raise BadCharacterError(f"{cell!r:.20} is not a digit or a blank", row=r + 1, column=c + 1)


def _checked(
    n: int, values: list[int], box: Shape | None, written: Callable[[int], object] | None = None
) -> tuple[Shape, tuple[int, ...]]:
    """The shape and the cells, after checking the side, the box and each value; ``written(i)`` is cell i as given."""
    if n < 4:
        raise WrongCellCountError(f"{n * n} cells: the smallest board is 4x4 (16 cells)")
    if box is None:
        shape = Shape.for_side(n)
    elif box.n != n:
        raise BoxShapeError(f"box {box} makes a {box.n}x{box.n} board, but the puzzle is {n}x{n}")
    else:
        shape = box
    for i, v in enumerate(values):
        if not 0 <= v <= n:
            symbol = written(i) if written else None
            shown = f"{symbol!r}" if isinstance(symbol, str) and symbol.isalpha() else f"digit {v}"  # as written
            raise DigitOutOfRangeError(
                f"{shown} is out of range for a {n}x{n} board (1-{n})", row=i // n + 1, column=i % n + 1, digit=v
            )
    return shape, tuple(values)


def symbol(v: int, n: int) -> str:
    """The text of cell value ``v`` on a board of side ``n``: its letter or digit, ``.`` for a blank (0).

    Past the alphabet (sides over 36) a value is its number, right-aligned to the width of ``n``.
    """
    if n > len(ALPHABET):
        return str(v).rjust(len(str(n)))
    return ALPHABET[v - 1] if v else "."


def format_line(shape: Shape, cells: Sequence[int]) -> str:
    """One line: symbols for boards up to 35x35, space-separated integers above."""
    if shape.n > len(ALPHABET):
        return " ".join(map(str, cells))
    return "".join(ALPHABET[v - 1] if v else "." for v in cells)


def format_pretty(
    shape: Shape,
    cells: Sequence[int],
    *,
    givens: Sequence[int] | None = None,
    color: bool = False,
    region_of: Sequence[int] | None = None,
) -> str:
    """Rows with box borders; with ``color``, cells blank in ``givens`` (the filled ones) in red.

    ``region_of`` (each cell's region, for irregular regions) draws the borders between regions instead:
    ``|`` between cells of two regions, ``-`` under a cell whose lower neighbour is in another one.
    """
    n, bc = shape.n, shape.box_cols
    if region_of is not None:
        return _format_regions(n, cells, region_of, givens if color else None)
    lines: list[str] = []
    for r in range(n):
        if r and r % shape.box_rows == 0:
            lines.append("-+-".join("-" * len(group) for group in _plain_groups(n, bc)))
        groups = []
        for g in range(0, n, bc):
            parts = []
            for c in range(g, g + bc):
                i = r * n + c
                s = symbol(cells[i], n)
                if color and givens is not None and not givens[i] and cells[i]:
                    s = f"{_RED}{s}{_RESET}"
                parts.append(s)
            groups.append(" ".join(parts))
        lines.append(" | ".join(groups))
    return "\n".join(lines)


def _format_regions(n: int, cells: Sequence[int], region_of: Sequence[int], givens: Sequence[int] | None) -> str:
    """Rows of cells one gap apart, the gap a ``|`` between regions; border lines of ``-`` and ``+`` between rows."""
    if len(region_of) != n * n:
        raise ValueError(f"region_of has {len(region_of)} cells, but a {n}x{n} board has {n * n}")
    width = len(symbol(n, n))

    def across(r: int, c: int) -> bool:  # a border between (r, c) and (r, c + 1)
        return 0 <= r < n and region_of[r * n + c] != region_of[r * n + c + 1]

    def down(r: int, c: int) -> bool:  # a border between (r, c) and (r + 1, c)
        return 0 <= c < n and region_of[r * n + c] != region_of[(r + 1) * n + c]

    lines: list[str] = []
    for r in range(n):
        if r:
            border = []
            for c in range(n):
                border.append(("-" if down(r - 1, c) else " ") * width)
                if c < n - 1:
                    sideways = down(r - 1, c) or down(r - 1, c + 1)
                    upright = across(r - 1, c) or across(r, c)
                    border.append("+" if sideways and upright else "-" if sideways else "|" if upright else " ")
            lines.append("".join(border).rstrip())
        row = []
        for c in range(n):
            i = r * n + c
            s = symbol(cells[i], n)
            if givens is not None and not givens[i] and cells[i]:
                s = f"{_RED}{s}{_RESET}"
            row.append(s)
            if c < n - 1:
                row.append("|" if across(r, c) else " ")
        lines.append("".join(row))
    return "\n".join(lines)


def _plain_groups(n: int, bc: int) -> list[str]:
    width = len(symbol(n, n))
    return [" ".join(["x" * width] * bc) for _ in range(0, n, bc)]


def format_rows(cells: Sequence[int], n: int) -> list[list[int]]:
    """The board as a list of rows of ints, 0 for a blank."""
    return [list(cells[r * n : r * n + n]) for r in range(n)]
