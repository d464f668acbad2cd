"""The records a puzzle source yields (:class:`Record`: a puzzle's text and where it came from), how table
files are named and read (:func:`is_table`, :class:`TableOptions`, :class:`Columns`), and the bounded
reading of a source's lines (:func:`bounded_lines`, :func:`count_lines`).

Shared by the text reader (:mod:`sudokit.io.reader`) and the table reader (:mod:`sudokit.io.tables`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, BinaryIO

from sudokit.errors import InvalidPuzzleError
from sudokit.io.puzzles import parse_puzzle
from sudokit.model.grid import Grid
from sudokit.model.shape import Shape

if TYPE_CHECKING:
    from _typeshed import SupportsReadline

__all__ = [
    "MAX_LINE",
    "READ_BLOCK",
    "TABLE_SUFFIXES",
    "Columns",
    "Record",
    "TableOptions",
    "TooLong",
    "bounded_lines",
    "count_lines",
    "is_table",
]

#: The longest line read as a puzzle: a 36x36 board in integers is under 5,000 characters.
MAX_LINE = 1 << 16
#: The size of the binary blocks :func:`estimate_records` reads: memory stays bounded whatever the lines.
READ_BLOCK = 1 << 16
_LINE_ENDS = ("\n", "\r")


#: The names a table file ends with (any case): read by :mod:`sudokit.io.tables`, a row a record.
TABLE_SUFFIXES = (".csv", ".csv.gz", ".parquet")


def is_table(path: str | os.PathLike[str]) -> str | None:
    """``csv`` or ``parquet`` for a path named like a table file (``*.csv``, ``*.csv.gz``, ``*.parquet``), else None."""
    name = os.fspath(path).lower()
    if not name.endswith(TABLE_SUFFIXES):
        return None
    return "parquet" if name.endswith(".parquet") else "csv"


@dataclass(frozen=True, slots=True)
class TableOptions:
    """How to read table files: the puzzle column and the expected-solution column, by name.

    ``column`` is ``--column``, ``expect`` is ``--expect`` (``"none"``: no comparison); None for
    either lets the header decide (:func:`sudokit.io.tables.choose_columns`).
    """

    column: str | None = None
    expect: str | None = None


@dataclass(frozen=True, slots=True)
class Columns:
    """The columns a table record came from: its puzzle's, and the expected solution's (None: no comparison)."""

    puzzle: str
    expected: str | None = None


@dataclass(frozen=True, slots=True)
class Record:
    """One puzzle's text and where it came from; ``line`` is 1-based, None for a command-line puzzle.

    A table row's record also names its ``columns`` and holds the ``expected`` solution ("" for an
    empty cell: no solution expected); for a Parquet row, ``line`` is the row's number.
    """

    text: str
    source: str
    line: int | None = None
    note: str | None = None
    problem: str | None = None  # why the input could not even be read as a puzzle text
    columns: Columns | None = None
    expected: str | None = None

    def parse(self, box: Shape | None = None) -> Grid:
        """The record's grid; an ``InvalidPuzzleError`` carries the record's line number."""
        if self.problem:
            raise InvalidPuzzleError(self.problem, line=self.line)
        try:
            return parse_puzzle(self.text, box)
        except InvalidPuzzleError as err:
            if self.line is not None:
                err.at_line(self.line)
            raise

    @property
    def as_read(self) -> str:
        """The input text on one line (a multi-line grid's lines joined), for a record that did not parse."""
        return " ".join(self.text.split())

    def locate(self, message: str) -> str:
        """``file:line: message`` (a parse error's own ``line N:`` folded in), or the message alone."""
        if self.line is None:
            return message
        where = self.where if self.columns is None else f"{self.where}, column {self.columns.puzzle}"
        return f"{where}: {message.removeprefix(f'line {self.line}: ')}"

    @property
    def where(self) -> str:
        """``file:line`` or the source alone."""
        return self.source if self.line is None else f"{self.source}:{self.line}"


class TooLong:
    """Stands in for a line too long to be a puzzle, which is skipped rather than read whole."""


def bounded_lines(handle: SupportsReadline[str], limit: int = MAX_LINE) -> Iterator[str | TooLong]:
    """The lines of ``handle`` (ending at ``\\n``, ``\\r\\n`` or ``\\r``); one over ``limit`` is skipped in pieces."""
    readline = handle.readline
    cut = False  # the last piece read was cut by the size limit right after a "\r": a "\n" now belongs to it
    while line := readline(limit + 1):
        if cut and line == "\n":
            cut = False
        elif len(line) > limit and not line.endswith(_LINE_ENDS):
            while (line := readline(limit)) and not line.endswith(_LINE_ENDS):
                pass
            cut = len(line) == limit and line.endswith("\r")
            yield TooLong()
        else:
            cut = len(line) > limit and line.endswith("\r")
            yield line


def count_lines(handle: BinaryIO) -> int:
    """The lines of ``handle`` that are not blank or ``#`` comments, read in blocks of ``READ_BLOCK`` bytes."""
    count = 0
    state = 0  # the line so far: 0 nothing but spaces, 1 a puzzle line, 2 a comment
    block = handle.read(READ_BLOCK).removeprefix(b"\xef\xbb\xbf")
    while block:
        # A "\r\n" cut between two blocks leaves a "\n" alone: a blank line, which does not count.
        for piece in block.splitlines(keepends=True):
            if not state:
                head = piece.lstrip()
                if head:
                    state = 2 if head.startswith(b"#") else 1
            if piece.endswith((b"\n", b"\r")):
                count += state == 1
                state = 0
        block = handle.read(READ_BLOCK)
    return count + (state == 1)
