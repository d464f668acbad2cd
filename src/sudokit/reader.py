"""Reading puzzles from files, standard input and arguments, one record at a time (streamed).

A file holds one puzzle per line; ``#`` lines and blank lines are skipped, and a ``:suffix`` (the
``puzzle:count`` and ``puzzle:solution`` forms) is kept aside as the record's ``note``. A grid spread
over several lines (pretty output, a typed grid, multi-line JSON) is gathered into one record too.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from math import isqrt
from typing import TextIO

from sudokit.errors import InvalidPuzzleError
from sudokit.formats import ANSI_ESCAPE, SEPARATORS, parse_cells
from sudokit.grid import Grid
from sudokit.shape import MAX_BOX, Shape

__all__ = ["Record", "bounded_lines", "check_arguments", "iter_records", "read_arguments", "read_file"]

_SEPARATOR_TABLE = str.maketrans(SEPARATORS, " " * len(SEPARATORS))
#: The longest line read as a puzzle: a 36x36 board in integers is under 5,000 characters.
MAX_LINE = 1 << 16
#: The most text gathered into one multi-line record: a 64x64 board in indented JSON is under 70,000 characters.
MAX_BLOCK = 4 * MAX_LINE
_JSON_MARKS = frozenset('[]",')
_FILE_SUFFIX = re.compile(r"\.[a-z][a-z0-9]{1,4}$")


@dataclass(frozen=True, slots=True)
class Record:
    """One puzzle's text and where it came from; ``line`` is 1-based, None for a command-line puzzle."""

    text: str
    source: str
    line: int | None = None
    note: str | None = None
    problem: str | None = None  # why the input could not even be read as a puzzle text

    def parse(self, box: Shape | None = None) -> Grid:
        """The record's grid; an ``InvalidPuzzleError`` carries the record's line number."""
        if self.problem:
            raise InvalidPuzzleError(self.problem, line=self.line)
        try:
            shape, cells = parse_cells(self.text, box)
            return Grid(cells, shape)
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
        return f"{self.where}: {message.removeprefix(f'line {self.line}: ')}"

    @property
    def where(self) -> str:
        """``file:line`` or the source alone."""
        return self.source if self.line is None else f"{self.source}:{self.line}"


def _cells_in(line: str) -> int:
    tokens = line.translate(_SEPARATOR_TABLE).split()
    # Integers (``0 0 12 0``) only when none is longer than the count allows, as ``parse_cells`` reads
    # them: ``000000010 400000000 ...`` is a board of symbols in groups, not a row of nine integers.
    width = len(str(len(tokens)))
    if (
        len(tokens) > 1
        and any(len(t) > 1 for t in tokens)
        and all(t.isascii() and t.isdigit() and len(t) <= width for t in tokens)
    ):
        return len(tokens)
    return sum(len(t) for t in tokens)


def _ends_json(line: str) -> bool:
    """True when ``line`` cannot continue a JSON board: a whole puzzle with no JSON marks."""
    return _JSON_MARKS.isdisjoint(line) and _whole_puzzle(line, _cells_in(line.split(":", 1)[0]))


def _whole_puzzle(line: str, cells: int) -> bool:
    """True when one line holds a whole board (rather than one row of a multi-line grid)."""
    n = isqrt(cells)
    if n * n != cells or n < 4 or "|" in line:
        return False
    return any(n % r == 0 for r in range(2, isqrt(n) + 1))


def iter_records(lines: Iterable[str | _TooLong], source: str, *, numbered: bool = True) -> Iterator[Record]:
    """The puzzles in ``lines``, in order, one record each; never reads ahead more than one grid."""
    block: list[str] = []
    start = 0
    width = rows = depth = size = 0

    def flush() -> Record:
        nonlocal block, width, rows, depth, size
        record = Record("\n".join(block), source, start if numbered else None)
        block, width, rows, depth, size = [], 0, 0, 0, 0
        return record

    for number, raw in enumerate(lines, 1):
        if isinstance(raw, _TooLong):
            if block:
                yield flush()
            problem = f"a line of more than {MAX_LINE:,} characters is not a puzzle"
            yield Record("", source, number if numbered else None, problem=problem)
            continue
        line = raw.lstrip("\ufeff").strip() if number == 1 else raw.strip()
        if "\x1b" in line:  # colored pretty output read back
            line = ANSI_ESCAPE.sub("", line)
        if block and (size > MAX_BLOCK or (depth and _ends_json(line))):
            # An unclosed "[" (or a grid that never ends) is one bad record, not the rest of the file.
            yield flush()
        size = size + len(line) if block else len(line)
        if depth:  # inside a multi-line JSON board
            block.append(line)
            depth += line.count("[") - line.count("]")
            if depth <= 0:
                yield flush()
            continue
        if not line or line.startswith("#"):
            if block:
                yield flush()
            continue
        if line.startswith("[") and not block:
            start, depth = number, line.count("[") - line.count("]")
            block.append(line)
            if depth <= 0:
                yield flush()
            continue
        cells = _cells_in(line.split(":", 1)[0])
        if block and cells != width and (":" in line or _whole_puzzle(line, cells)):
            yield flush()  # a one-line puzzle ends an unfinished block (e.g. a line with a cell missing)
        # A line longer than any board's row (side at most MAX_BOX**2) is a puzzle of its own, if a bad one.
        if not block and (":" in line or _whole_puzzle(line, cells) or cells > MAX_BOX * MAX_BOX):
            text, _, note = line.partition(":")
            yield Record(text.strip(), source, number if numbered else None, note.strip() or None)
            continue
        if not block:
            start = number
        block.append(line)
        if cells:
            rows += 1
            width = width or cells
            if rows >= width:
                yield flush()
    if block:
        yield flush()


class _TooLong:
    """Stands in for a line too long to be a puzzle, which is skipped rather than read whole."""


def bounded_lines(handle: TextIO, limit: int = MAX_LINE) -> Iterator[str | _TooLong]:
    """The lines of ``handle``; one longer than ``limit`` is skipped in pieces and yields a marker."""
    readline = handle.readline
    while line := readline(limit + 1):
        if len(line) > limit and not line.endswith("\n"):
            while (rest := readline(limit)) and not rest.endswith("\n"):
                pass
            yield _TooLong()
        else:
            yield line


def read_file(path: str | os.PathLike[str]) -> Iterator[Record]:
    """The records of a file, streamed line by line."""
    with open(path, encoding="utf-8", errors="surrogateescape", newline="") as handle:
        yield from iter_records(bounded_lines(handle), os.fspath(path))


def _stdin() -> TextIO:
    stream = sys.stdin
    if hasattr(stream, "reconfigure"):
        stream.reconfigure(errors="surrogateescape")  # undecodable bytes become bad characters, not a crash
    return stream


def read_arguments(args: Iterable[str], stdin: TextIO | None = None) -> Iterator[Record]:
    """Records for command-line arguments: ``-`` is standard input, a path is a file, else a puzzle."""
    for arg in args:
        if arg == "-":
            yield from iter_records(bounded_lines(stdin or _stdin()), "<stdin>")
        elif os.path.isfile(arg):
            yield from read_file(arg)
        elif os.path.isdir(arg):
            raise InvalidPuzzleError(f"{_shown(arg)} is a directory, not a puzzle file")
        else:
            yield from _argument_records(arg)


def check_arguments(args: Iterable[str]) -> None:
    """Raise for an argument that names a missing file or a directory, before any work starts."""
    for arg in args:
        if arg == "-" or os.path.isfile(arg):
            continue
        if os.path.isdir(arg):
            raise InvalidPuzzleError(f"{_shown(arg)} is a directory, not a puzzle file")
        if "/" in arg or os.sep in arg or _FILE_SUFFIX.search(arg):
            raise InvalidPuzzleError(f"no such file: {_shown(arg)}")


def _shown(arg: str) -> str:
    """``arg`` for a one-line message: as it is, or quoted with escapes if it holds a line break or control."""
    return arg if arg.isprintable() else repr(arg)


def _argument_records(arg: str) -> Iterator[Record]:
    check_arguments([arg])
    records = list(iter_records(arg.splitlines(), "<argument>", numbered=False))
    yield from records or [Record(arg, "<argument>")]
