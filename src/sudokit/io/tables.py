"""Data sets as tables: puzzles in a column of a CSV or Parquet file, an expected solution beside them.

Reading. A file named ``*.csv`` (or ``*.csv.gz``) or ``*.parquet`` given to ``sudoku solve`` or
``sudoku check`` is a table: one record per row, in order, streamed (a CSV line by line, a Parquet
file a row group at a time), so memory stays flat whatever the size.

- The puzzle column is ``--column NAME``, or else the first header name (any case) of
  :data:`PUZZLE_NAMES`: ``quizzes`` (Kaggle's "1 million Sudoku games"), ``puzzle`` (Kaggle's "3
  million Sudoku puzzles with ratings", and sudokit's own csv records), ``question``
  (sapientinc/sudoku-extreme). A table with none of them, and no ``--column``, is refused with its
  columns listed; so is a ``--column`` the header does not have. A CSV file must start with its header.
- The expected-solution column is ``--expect NAME``, or else the first header name of
  :data:`SOLUTION_NAMES` (``solutions``, ``solution``, ``answer``); ``--expect none`` compares nothing.
  An empty cell expects no solution (as sudokit's own csv records of unsolvable puzzles have it).
- A CSV record's line is the file line its row starts on; a Parquet record's line is its row number
  (the first row is 1). A row that cannot be read (fields missing or too many, a line over
  ``MAX_LINE`` characters, an empty Parquet cell) is an ``invalid`` record like a bad puzzle line.

Comparing (:meth:`sudokit.runtime.output.RecordFormat.compare`): ``same``, ``differs`` (another solution,
or none), ``several`` (with ``--unique``: the puzzle has more than one) or ``invalid`` (the cell is
not a grid of the puzzle's size). Puzzles that time out, fail, or do not parse are not compared:
their status says it already.

Writing. ``--format csv`` records; ``--output FILE.parquet`` writes the same columns as a Parquet
file, a row group every :data:`ROW_GROUP` records, closed (readable) at the end of the run, after
Ctrl-C or a kill, but not after ``kill -9``: so ``--resume`` is refused for it.
"""

from __future__ import annotations

import csv
import os
import stat
import zlib
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from sudokit.errors import SudokitError
from sudokit.io.records import MAX_LINE, Columns, Record, TableOptions, bounded_lines, count_lines, is_table

__all__ = [
    "COMPARISONS",
    "PUZZLE_NAMES",
    "ROW_GROUP",
    "SOLUTION_NAMES",
    "DatasetError",
    "ParquetStream",
    "TablePlan",
    "choose_columns",
    "estimate_rows",
    "plan_tables",
    "read_table",
    "table_columns",
]

#: Header names taken as the puzzle column, the first found wins (compared without case).
PUZZLE_NAMES = ("quizzes", "puzzle", "question", "puzzles", "quiz")
#: Header names taken as the expected-solution column, the first found wins.
SOLUTION_NAMES = ("solutions", "solution", "answer", "answers")
#: What a comparison says: the first is agreement, the rest are reported (``invalid`` as bad input).
COMPARISONS = ("same", "differs", "several", "invalid")
#: Records per Parquet row group written.
ROW_GROUP = 10_000
#: Rows per batch read from a Parquet file.
READ_BATCH = 8_192
#: Typed columns of the records written as Parquet; any other is text.
_PARQUET_TYPES = {"count": "int64", "exact": "bool", "elapsed_ms": "float64", "line": "int64"}
_INSTALL = "pip install 'sudokit[parquet]'"


class DatasetError(SudokitError):
    """A table that cannot be read as asked: no such column, no header, no pyarrow, ..."""


def _pyarrow() -> Any:
    """``pyarrow.parquet``, or a ``DatasetError`` naming the install command."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise DatasetError(f"Parquet files need pyarrow: {_INSTALL}") from None
    return pq


def _find(names: Sequence[str], wanted: str) -> str | None:
    """The header name that is ``wanted``: exactly, else the one equal without case."""
    if wanted in names:
        return wanted
    matches = [n for n in names if n.strip().lower() == wanted.strip().lower()]
    return matches[0] if len(matches) == 1 else None


def _listed(names: Sequence[str]) -> str:
    return ", ".join(repr(n) for n in names) if names else "none"


def choose_columns(names: Sequence[str], where: str, options: TableOptions) -> Columns:
    """The puzzle and expected-solution columns of a table with header ``names``; ``DatasetError`` if none fits."""
    if options.column is not None:
        puzzle = _find(names, options.column)
        if puzzle is None:
            raise DatasetError(f"{where} has no column {options.column!r} (its columns: {_listed(names)})")
    else:
        puzzle = next((n for want in PUZZLE_NAMES for n in names if n.strip().lower() == want), None)
        if puzzle is None:
            raise DatasetError(
                f"{where}: no puzzle column in the header (its columns: {_listed(names)}): "
                f"name one with --column, or use a header naming it {' or '.join(PUZZLE_NAMES[:3])}"
            )
    expect = options.expect
    if expect is not None and expect.lower() == "none":
        return Columns(puzzle)
    if expect is not None:
        expected = _find(names, expect)
        if expected is None:
            raise DatasetError(f"{where} has no column {expect!r} to --expect (its columns: {_listed(names)})")
        if expected == puzzle:
            raise DatasetError(f"--expect {expect}: that is the puzzle column of {where}")
        return Columns(puzzle, expected)
    found = next((n for want in SOLUTION_NAMES for n in names if n.strip().lower() == want), None)
    return Columns(puzzle, None if found == puzzle else found)


# --- reading ---------------------------------------------------------------------------------------


def _open_csv(path: str) -> TextIO:
    if path.lower().endswith(".gz"):
        import gzip

        return gzip.open(path, "rt", encoding="utf-8-sig", errors="surrogateescape", newline="")
    return open(path, encoding="utf-8-sig", errors="surrogateescape", newline="")


class _Lines:
    """The lines of a CSV file for ``csv.reader``, numbered; a line over ``MAX_LINE`` characters is skipped.

    ``taken`` holds the lines handed out for the row being read, and lines put in ``again`` are
    handed out once more, before the rest of the file, to a new reader (a row that swallowed them).
    """

    def __init__(self, handle: TextIO) -> None:
        self.lines = bounded_lines(handle)
        self.number = 0
        self.taken: list[tuple[int, str | None]] = []  # (number, line), None for a line too long
        self.again: deque[tuple[int, str | None]] = deque()

    def __iter__(self) -> Iterator[str]:
        while True:
            if self.again:
                number, line = self.again.popleft()
            else:
                raw = next(self.lines, None)
                if raw is None:
                    return
                self.number += 1
                number, line = self.number, raw if isinstance(raw, str) else None
            self.taken.append((number, line))
            yield "\n" if line is None else line


def _open_quote(line: str) -> int:
    """The column (1-based) of the quote that opens a field ``line`` leaves open (the first quote if none does)."""
    start, quoted, at, i = True, False, 0, 0
    while i < len(line):
        ch = line[i]
        if quoted:
            if ch == '"':
                if line[i + 1 : i + 2] == '"':
                    i += 1  # a doubled quote inside the field
                else:
                    quoted = False
        elif ch == '"' and start:
            quoted, at = True, i
        start = not quoted and ch == ","
        i += 1
    return (at if quoted else line.find('"')) + 1


def _csv_rows(path: str) -> Iterator[tuple[int, list[str] | None, str | None]]:
    """(line, fields, problem) of each row that is not blank; the header is the first.

    A row over several lines (a quoted field with line breaks in it) that is not a whole row of the
    header's width comes of a quote left open: its first line is one invalid record, saying where the
    quote opens, and the lines after it are read again as rows of their own, so that none is lost.
    """
    with _open_csv(path) as handle:
        lines = _Lines(handle)
        rows = csv.reader(lines, strict=True)
        width = None
        while True:
            lines.taken.clear()
            problem = None
            try:
                row: list[str] | None = next(rows)
            except StopIteration:
                return
            except (EOFError, OSError, zlib.error) as err:  # a damaged or cut .gz file, a failing disk
                raise DatasetError(f"cannot read {path} after line {lines.number}: {err}") from None
            except csv.Error as err:
                row, problem = None, f"not a CSV row: {err}"
            if not lines.taken:
                return
            start, first = lines.taken[0]
            if len(lines.taken) > 1 and (row is None or (width is not None and len(row) != width)):
                column = _open_quote(first) if first is not None else 1
                yield start, None, f"not a CSV row: the quote at column {column} does not close on its line"
                lines.again.extendleft(reversed(lines.taken[1:]))
                rows = csv.reader(lines, strict=True)  # the lines it took go to a new reader, row by row
                continue
            if row is None:
                yield start, None, problem
                continue
            if any(line is None for _, line in lines.taken):
                yield start, None, f"a line of more than {MAX_LINE:,} characters is not a puzzle"
                continue
            if row:
                width = len(row) if width is None else width
                yield start, row, None


def table_columns(path: str) -> list[str]:
    """The column names of a table file (a CSV file's header row); ``DatasetError`` for an empty file."""
    if is_table(path) == "parquet":
        return list(_parquet_file(path).schema_arrow.names)
    for line, row, problem in _csv_rows(path):
        if row is None:
            raise DatasetError(f"{path}:{line}: the header row cannot be read: {problem}")
        return [name.strip() for name in row]
    raise DatasetError(f"{path} is empty: a CSV file of puzzles starts with a header row")


def read_table(path: str, options: TableOptions) -> Iterator[Record]:
    """The records of a table file, one per row, streamed; see the module's docstring."""
    if is_table(path) == "parquet":
        yield from _read_parquet(path, options)
        return
    rows = _csv_rows(path)
    for line, header, problem in rows:
        if header is None:
            raise DatasetError(f"{path}:{line}: the header row cannot be read: {problem}")
        names = [name.strip() for name in header]
        columns = choose_columns(names, path, options)
        at = names.index(columns.puzzle)
        expect = None if columns.expected is None else names.index(columns.expected)
        width = len(names)
        for number, row, problem in rows:
            if row is None or len(row) != width:
                text = ""  # what the record shows as its puzzle: the puzzle's cell if there is one, else the row
                if problem is None and row is not None:
                    fields = len(row)
                    problem = f"{fields} field{'' if fields == 1 else 's'} where the header has {width}"
                    text = row[at].strip() if fields > at else ",".join(row)
                yield Record(text, path, number, problem=problem, columns=columns)
                continue
            expected = None if expect is None else row[expect].strip()
            yield Record(row[at].strip(), path, number, columns=columns, expected=expected)
        return


def _parquet_file(path: str) -> Any:
    pq = _pyarrow()
    try:
        return pq.ParquetFile(path)
    except Exception as err:  # OSError, pyarrow's ArrowInvalid and kin: not Parquet, or damaged
        raise DatasetError(f"{path} is not a Parquet file: {' '.join(str(err).split())}") from None


def _cell(value: object) -> str | None:
    """A Parquet cell as puzzle text: a string, bytes decoded, a list of numbers joined; None if empty."""
    if value is None:
        return None
    if isinstance(value, bytes):
        return value.decode("utf-8", "surrogateescape")
    if isinstance(value, list | tuple):
        return " ".join("0" if v is None else str(v) for v in value)
    return str(value)


def _read_parquet(path: str, options: TableOptions) -> Iterator[Record]:
    table = _parquet_file(path)
    columns = choose_columns(table.schema_arrow.names, path, options)
    wanted = [columns.puzzle] + ([columns.expected] if columns.expected is not None else [])
    number = 0
    batches = table.iter_batches(batch_size=READ_BATCH, columns=wanted)
    while True:
        try:
            batch = next(batches, None)
        except Exception as err:  # pyarrow's ArrowInvalid, OSError and kin: a damaged file
            raise DatasetError(f"cannot read {path} after row {number}: {' '.join(str(err).split())}") from None
        if batch is None:
            return
        puzzles = batch.column(0).to_pylist()
        expected = batch.column(1).to_pylist() if columns.expected is not None else [None] * len(puzzles)
        for puzzle, solution in zip(puzzles, expected, strict=True):
            number += 1
            text = _cell(puzzle)
            if text is None:
                yield Record("", path, number, problem="the puzzle cell is empty", columns=columns)
                continue
            want = None if columns.expected is None else (_cell(solution) or "").strip()
            yield Record(text.strip(), path, number, columns=columns, expected=want)


def estimate_rows(path: str | os.PathLike[str]) -> int:
    """About how many rows a table file holds: a CSV file's lines less the header, a Parquet file's row count."""
    name = os.fspath(path)
    if is_table(name) == "parquet":
        try:
            return int(_parquet_file(name).metadata.num_rows)
        except DatasetError:
            return 0
    if name.lower().endswith(".gz"):
        return 0  # unknown without reading it all
    with open(name, "rb") as handle:
        return max(0, count_lines(handle) - 1)


# --- the command line's checks ---------------------------------------------------------------------


@dataclass(frozen=True)
class TablePlan:
    """What the options and inputs of a run come to: how tables are read, and whether records are compared."""

    options: TableOptions
    compare: bool = False


def plan_tables(
    inputs: Iterable[str],
    *,
    column: str | None = None,
    expect: str | None = None,
    output: str | os.PathLike[str] | None = None,
    fmt: str = "pretty",
    resume: bool = False,
    compare: bool = True,
) -> TablePlan:
    """Check ``--column``, ``--expect`` and a Parquet ``--output`` against the inputs before any work.

    Every table input that is a regular file has its header read: a column it lacks is a
    ``DatasetError`` listing its columns. ``compare`` False (``sudoku check``) reads puzzles only.
    """
    inputs = list(inputs)
    tables = [arg for arg in inputs if arg != "-" and is_table(arg)]
    if (column is not None or expect is not None) and not tables:
        option = "--column" if column is not None else "--expect"
        raise DatasetError(f"{option} names a column of a .csv or .parquet input, and there is none")
    if expect is not None and expect.lower() != "none":
        if not compare:
            raise DatasetError("--expect compares the answer of one engine: the cross-check does not take it")
        others = [arg for arg in inputs if arg not in tables]
        if others:
            raise DatasetError(f"--expect compares the rows of tables (.csv, .parquet), and {others[0]} is not one")
    options = TableOptions(column, expect if compare else "none")
    comparing = False
    for arg in tables:
        try:
            regular = stat.S_ISREG(os.stat(arg).st_mode)
        except OSError:
            continue  # missing or unreadable: said when the run checks its inputs
        if regular:
            columns = choose_columns(table_columns(arg), arg, options)
            comparing = comparing or columns.expected is not None
    if output is not None and is_table(output) == "parquet":
        if not compare:
            only = "Parquet files are written from the csv records of 'sudoku solve -f csv' only"
            raise DatasetError(f"--output {os.fspath(output)}: {only}")
        if fmt != "csv":
            raise DatasetError(f"--output {os.fspath(output)} writes the columns of csv records: add --format csv")
        if resume:
            raise DatasetError(
                f"--resume cannot continue {os.fspath(output)}: a Parquet file is whole only once closed; "
                "write csv records to resume a run"
            )
        _pyarrow()
    return TablePlan(options, comparing)


# --- writing Parquet -------------------------------------------------------------------------------


class ParquetStream:
    """A text stream taking csv records (header first) and writing them as a Parquet file, a row group at a time.

    It stands where :class:`sudokit.runtime.output.RecordWriter` expects a stream: each ``write`` is one
    whole record. ``close`` writes the last row group and the footer that makes the file readable.
    """

    def __init__(self, fd: int, name: str, *, row_group: int = ROW_GROUP) -> None:
        self.pq = _pyarrow()
        self.handle = open(fd, "wb", closefd=True)  # noqa: SIM115
        self.name = name
        self.row_group = row_group
        self.names: list[str] = []
        self.rows: list[list[str]] = []
        self.writer: Any = None
        self.closed = False

    def fileno(self) -> int:
        """Not a file to write text to: :class:`RecordWriter` writes whole records with ``write``."""
        import io

        raise io.UnsupportedOperation("a Parquet stream takes whole records")

    def isatty(self) -> bool:
        """Never a terminal."""
        return False

    def write(self, text: str) -> int:
        """Take one csv record (the first is the header)."""
        for row in csv.reader(text.splitlines(keepends=True)):
            if not self.names:
                self.names = row
                self._open()
            else:
                self.rows.append(row)
        if len(self.rows) >= self.row_group:
            self._flush()
        return len(text)

    def flush(self) -> None:
        """Records are written a row group at a time: nothing to do between them."""

    def _open(self) -> None:
        import pyarrow as pa

        types = {"int64": pa.int64(), "bool": pa.bool_(), "float64": pa.float64(), "string": pa.string()}
        fields = [pa.field(n, types[_PARQUET_TYPES.get(n, "string")]) for n in self.names]
        self.schema = pa.schema(fields)
        self.writer = self.pq.ParquetWriter(self.handle, self.schema)

    def _flush(self) -> None:
        if not self.rows:
            return
        import pyarrow as pa

        arrays = []
        for k, item in enumerate(self.schema):
            values: list[Any] = [row[k] if k < len(row) and row[k] != "" else None for row in self.rows]
            kind = _PARQUET_TYPES.get(item.name)
            if kind == "bool":
                values = [None if v is None else v == "true" for v in values]
            elif kind == "int64":
                values = [None if v is None else int(v) for v in values]
            elif kind == "float64":
                values = [None if v is None else float(v) for v in values]
            arrays.append(pa.array(values, type=item.type))
        self.writer.write_table(pa.Table.from_arrays(arrays, schema=self.schema))
        self.handle.flush()  # the row group is in the file, not in a buffer
        self.rows = []

    def close(self) -> None:
        """Write what is left and the footer; close the file."""
        if self.closed:
            return
        self.closed = True
        try:
            if self.writer is not None:
                self._flush()
                self.writer.close()
        finally:
            self.handle.close()
