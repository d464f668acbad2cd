"""Reading puzzles from files, standard input and arguments, one record at a time (streamed).

The file format. Lines end at ``\\n``, ``\\r\\n`` or ``\\r``; a byte-order mark at the start, spaces at
either end of a line and ANSI colour codes are ignored. Each puzzle gives one record, numbered by its
first line:

- A blank line or a ``#`` comment is skipped.
- A link to an f-puzzles or SudokuPad puzzle (``https://www.f-puzzles.com/?load=...``,
  ``https://sudokupad.app/...``, or the bare data of one, see :mod:`sudokit.io.links`) is one puzzle,
  the whole line (its ``:`` included).
- A line with a ``:`` is one puzzle: the text before the first ``:``; the text after it (the
  ``puzzle:count`` and ``puzzle:solution`` forms) is kept aside as the record's ``note``. So is a
  line with a ``#`` after a space or a tab (``puzzle # name``), and one whose puzzle, one word of
  k*k cells, is followed by a tab (``puzzle<TAB>rating``): see :func:`split_note`.
- A line starting with ``[`` begins a JSON board, and one starting with ``{`` a variant puzzle in
  sudokit's JSON (:func:`sudokit.model.grid.from_json`); either runs until its brackets close, or until a
  line without any of ``[ ] { } " ,`` that holds a whole board (that line is then read on its own).
- Any other line is one puzzle, unless it is a row of a multi-line grid: n consecutive lines of n
  cells each. A line's cells are its symbols, or its numbers when it is whitespace-separated integers
  (``0 0 12 0 ...``); ``| - + *`` are separators, and a line of separators alone may come before,
  between and (once) right after the rows, at most one more than the rows before it.
- Which lines are rows. With a box shape (``--box RxC``, a board of side n), a line of n cells is a
  row and a line of n*n cells a whole puzzle, whatever they hold. Without one, a line of more than 64
  cells (the widest row) or fewer than 4 is a whole puzzle (or a bad one); a line with ``|`` in it,
  or whose cell count is not a square of 16 or more, is a row. A line of k*k cells (16, 25, 36, 49
  or 64) is either a whole k x k puzzle or a row of a board of side k*k: n such lines make one grid
  only when more than half of them cannot be a whole k x k puzzle (they hold a ``|``, an integer of
  several digits or a symbol above k, such as ``G`` or ``12`` where a 4x4 allows 1-4); otherwise
  each is a puzzle of its own. No more than one board is read ahead to decide: the n lines are taken
  from the first line of a run, so a grid that follows one-line puzzles of its width needs a blank
  line before it (one-line puzzles right after a grid need none).
- Rows that end before they make a whole grid (at a blank line, a comment, a line of another width,
  a one-line puzzle, the end of the input) are each a record of their own, with their own line
  number: invalid puzzles, each with the error of its line.
- A line longer than ``MAX_LINE`` characters is one invalid record, skipped without being read whole;
  a JSON board still open, or rows still gathering, after ``MAX_BLOCK`` characters end there.

A file named ``*.csv``, ``*.csv.gz`` or ``*.parquet`` is a table instead: one record per row, the
puzzle taken from one column (see :mod:`sudokit.io.tables`).

A command-line argument is ``-`` (standard input), an existing path that is not a directory (a file,
a FIFO, ``/dev/stdin``, bash's ``<(cmd)``), or else one puzzle: its whole text, read as
:meth:`Grid.parse` reads it (a one-line argument's ``:note`` kept aside, but for a link or a JSON
object, whose ``:`` belong to it).
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import re
import stat
import sys
from collections.abc import Generator, Iterable, Iterator
from functools import cache
from math import isqrt
from typing import TextIO, cast

from sudokit.errors import InvalidPuzzleError
from sudokit.io.records import (
    MAX_LINE,
    Columns,
    Record,
    TableOptions,
    TooLong,
    bounded_lines,
    count_lines,
    is_table,
)
from sudokit.model.formats import ANSI_ESCAPE, SEPARATORS
from sudokit.model.grid import Grid
from sudokit.model.shape import ALPHABET, MAX_BOX, Shape

__all__ = [
    "Columns",
    "Record",
    "StreamLines",
    "TableOptions",
    "bounded_lines",
    "check_arguments",
    "estimate_records",
    "is_table",
    "iter_records",
    "on_line",
    "read_arguments",
    "read_file",
    "read_puzzles",
    "split_note",
]

_SEPARATOR_TABLE = str.maketrans(SEPARATORS, " " * len(SEPARATORS))
#: The most text gathered into one multi-line record: a 64x64 board in indented JSON is under 70,000 characters.
MAX_BLOCK = 4 * MAX_LINE
#: The widest row of a board (side MAX_BOX * MAX_BOX); a line of more cells is a whole puzzle.
MAX_ROW = MAX_BOX * MAX_BOX
_JSON_MARKS = frozenset('[]{}",')
_BRACKETS = {"[": "]", "{": "}"}
#: How a line that may be a link starts (a URL, a known host, f-puzzles' ?load= or puzzle data); only
#: such a line makes the reader ask :func:`sudokit.io.links.is_link`, so other lines never import it.
_LINK_START = re.compile(
    r"(?i:https?://|www\.|f-puzzles\.com/|sudokupad\.app/|app\.crackingthecryptic\.com/|\??load=)|fpuz|scl|ctc|N4Ig"
)
_FILE_SUFFIX = re.compile(r"\.[a-z][a-z0-9]{1,4}$")
_VALUE = {ch: i + 1 for i, ch in enumerate(ALPHABET)} | {ch.lower(): i + 1 for i, ch in enumerate(ALPHABET)}
_ONLY_SEPARATORS = f"only separators ({' '.join(SEPARATORS)}), no cells: not a puzzle"


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


#: Where a note may begin after a puzzle: ``:``, a ``#`` after spaces or tabs, or a tab (see :func:`split_note`).
_NOTE_MARK = re.compile(r":|(?<!\s)\s+#|(?<!\s)\s*\t")  # from a run of spaces' start: linear time


def split_note(line: str) -> tuple[str, str | None] | None:
    """(puzzle, note) of a line (stripped) that holds one puzzle and a note after it, else None.

    The note begins at the first ``:`` (``puzzle:count``, ``puzzle:solution``), at the first ``#``
    after a space or a tab (``puzzle # name``), or at a tab right after a puzzle written as one word
    of k*k cells (``puzzle<TAB>rating``: a tab between the cells of a row or of integers is no note).
    A ``#`` is never a cell or a separator, and a line that starts with one is a comment. The note is
    the text after the mark, without spaces at either end; None when that is empty.
    """
    for mark in _NOTE_MARK.finditer(line):
        puzzle = line[: mark.start()]
        if mark.group()[-1] == "\t":
            if any(ch.isspace() for ch in puzzle):
                continue
            cells = _cells_in(puzzle)
            k = isqrt(cells)
            if k * k != cells or k < 4:
                continue
        return puzzle.strip(), line[mark.end() :].strip() or None
    return None


def _link_and_note(line: str) -> tuple[str, str | None] | None:
    """(link, note) of a link followed by a note (``link # name``, ``link<TAB>rating``), else None.

    A link holds no spaces and its own ``:`` and ``#``: only the first space or tab may end it.
    """
    if _LINK_START.match(line) is None:
        return None
    space = re.search(r"\s+", line)
    if space is None:
        return None
    head, gap, rest = line[: space.start()], space.group(), line[space.end() :]
    if rest.startswith("#"):
        rest = rest[1:]
    elif "\t" not in gap:
        return None  # words after a space: no note form
    return (head, rest.strip() or None) if _is_link(head) else None


def _is_link(line: str) -> bool:
    """True for a line that is a link (or a link's puzzle data): one puzzle, whatever ``:`` it holds."""
    if _LINK_START.match(line) is None:
        return False
    from sudokit.io.links import is_link

    return is_link(line)


def _ends_json(line: str) -> bool:
    """True when ``line`` cannot continue a JSON board: no JSON marks, and a note (``:``, ``#``, tab) or a board."""
    if not _JSON_MARKS.isdisjoint(line):
        return False
    if split_note(line) is not None:
        return True
    cells = _cells_in(line)
    k = isqrt(cells)
    return k * k == cells and k >= 4 and "|" not in line


# What a line (with no ``:``, not JSON) can be in a file: see the module's docstring.
_ALONE, _ROW, _EITHER, _SEPARATOR = "alone", "row", "either", "separator"


def _kind(line: str, cells: int, box: Shape | None) -> str:
    """Whether ``line`` of ``cells`` cells is a puzzle alone, a row of a grid, either one, or separators only."""
    if not cells:
        return _SEPARATOR
    if box is not None:
        return _ROW if cells == box.n else _ALONE
    if cells > MAX_ROW or cells < 4:
        return _ALONE
    if "|" in line:
        return _ROW
    k = isqrt(cells)
    return _EITHER if k * k == cells and k >= 4 else _ROW


def _no_whole_board(line: str, k: int) -> bool:
    """True when ``line`` cannot be a whole k x k puzzle: a ``|``, an integer of several digits, or a symbol above k."""
    if "|" in line:
        return True
    tokens = line.translate(_SEPARATOR_TABLE).split()
    if len(tokens) > 1 and any(len(t) > 1 for t in tokens):
        return True  # integers (``0 0 12 0``) or groups: a board of side 8 or less is one symbol a cell
    return any(_VALUE.get(ch, 0) > k for ch in "".join(tokens))


class _Rows:
    """Consecutive row-like lines that may make one multi-line grid, held until it is whole or cannot be."""

    __slots__ = ("guess", "lines", "numbered", "rows", "separators", "side", "size", "source", "unlike", "width")

    def __init__(self, source: str, numbered: bool, box: Shape | None) -> None:
        self.source = source
        self.numbered = numbered
        self.guess = box is None  # without a box shape, a row of k*k cells may be a whole k x k puzzle
        self.clear()

    def clear(self) -> None:
        self.lines: list[tuple[int, str, str]] = []  # (number, line, kind)
        self.width = self.rows = self.separators = self.size = 0
        self.side = 0  # k when the width is k*k and each row may be a whole k x k puzzle instead
        self.unlike = 0  # rows that cannot be a whole k x k puzzle

    def add(self, number: int, line: str, cells: int, kind: str) -> Generator[Record, None, bool]:
        """Records that ``line`` completes (the grid) or breaks off (the lines before, each alone); True for a grid."""
        if self.lines and (
            self.size > MAX_BLOCK
            or (self.separators > self.rows if kind is _SEPARATOR else self.width and cells != self.width)
        ):
            yield from self.alone()
        self.lines.append((number, line, kind))
        self.size += len(line)
        if kind is _SEPARATOR:
            self.separators += 1
            return False
        if not self.rows:
            self.width = cells
            k = isqrt(cells)
            self.side = k if self.guess and k * k == cells and k >= 4 else 0
        self.rows += 1
        if self.side:  # a grid only if most of its n rows cannot be whole k x k puzzles
            self.unlike += kind is _ROW or _no_whole_board(line, self.side)
            if self.rows - self.unlike >= self.width - self.width // 2:
                yield from self.alone()
                return False
        if self.rows < self.width:
            return False
        first = self.lines[0][0]
        yield Record("\n".join(text for _, text, _ in self.lines), self.source, first if self.numbered else None)
        self.clear()
        return True

    def alone(self) -> Iterator[Record]:
        """Each held line as a record of its own: they did not make a whole grid."""
        for number, line, kind in self.lines:
            problem = _ONLY_SEPARATORS if kind is _SEPARATOR else None
            yield Record(line, self.source, number if self.numbered else None, problem=problem)
        self.clear()


def iter_records(
    lines: Iterable[str | TooLong], source: str, *, numbered: bool = True, box: Shape | None = None
) -> Iterator[Record]:
    """The puzzles in ``lines``, in order, one record each; never reads ahead more than one board.

    With ``box``, a line of ``box.n`` cells is a row and a line of any other count a puzzle of its own.
    """
    rows = _Rows(source, numbered, box)
    block: list[str] = []  # a JSON board over several lines, until its brackets close
    start = depth = size = 0
    opener = "["  # the bracket the block opened with: "[" a board, "{" a variant puzzle
    border = False  # the line before completed a grid: a line of separators now is its bottom border
    for number, raw in enumerate(lines, 1):
        at = number if numbered else None
        if isinstance(raw, TooLong):
            if block:
                yield Record("\n".join(block), source, start if numbered else None)
                block = []
            if rows.lines:
                yield from rows.alone()
            border = False
            yield Record("", source, at, problem=f"a line of more than {MAX_LINE:,} characters is not a puzzle")
            continue
        line = raw.lstrip("\ufeff").strip() if number == 1 else raw.strip()
        if "\x1b" in line:  # colored pretty output read back
            line = ANSI_ESCAPE.sub("", line)
        if block:  # inside a multi-line JSON board
            if size <= MAX_BLOCK and not _ends_json(line):
                block.append(line)
                size += len(line)
                depth += line.count(opener) - line.count(_BRACKETS[opener])
                if depth <= 0:
                    yield Record("\n".join(block), source, start if numbered else None)
                    block = []
                continue
            # An unclosed "[" is one bad record, not the rest of the file.
            yield Record("\n".join(block), source, start if numbered else None)
            block = []
        if not line or line[0] == "#":
            if rows.lines:
                yield from rows.alone()
            border = False
            continue
        if line[0] in _BRACKETS:
            if rows.lines:
                yield from rows.alone()
            border = False
            opener = line[0]
            depth = line.count(opener) - line.count(_BRACKETS[opener])
            if depth <= 0:
                yield Record(line, source, at)
            else:
                block, start, size = [line], number, len(line)
            continue
        if _is_link(line):
            if rows.lines:
                yield from rows.alone()
            border = False
            yield Record(line, source, at)
            continue
        noted = _link_and_note(line) or split_note(line)
        if noted is not None:
            if rows.lines:
                yield from rows.alone()
            border = False
            yield Record(noted[0], source, at, noted[1])
            continue
        cells = _cells_in(line)
        kind = _kind(line, cells, box)
        if kind is _ALONE:
            if rows.lines:
                yield from rows.alone()
            border = False
            yield Record(line, source, at)
        elif border and kind is _SEPARATOR:
            border = False  # the grid's bottom border
        else:
            border = yield from rows.add(number, line, cells, kind)
    if block:
        yield Record("\n".join(block), source, start if numbered else None)
    yield from rows.alone()


def read_file(path: str | os.PathLike[str], *, box: Shape | None = None) -> Iterator[Record]:
    """The records of a file, streamed line by line; ``box`` as for :func:`iter_records`."""
    with open(path, encoding="utf-8", errors="surrogateescape", newline="") as handle:
        yield from iter_records(bounded_lines(handle), os.fspath(path), box=box)


def read_puzzles(path: str | os.PathLike[str], *, box: Shape | None = None) -> Iterator[Grid]:
    """The grids of a puzzle file, in order, streamed; a bad puzzle raises its error, naming ``file:line``.

    >>> from sudokit.io.reader import read_puzzles
    >>> [grid.n for grid in read_puzzles("puzzles/sizes/box2x3.txt")][:2]
    [6, 6]

    The error is the ``InvalidPuzzleError`` subclass of the fault, with ``line`` set; its message reads
    ``puzzles.txt:3: row 1, column 2: digit 5 repeats the 5 at row 1, column 1 (same row)``.
    """
    for record in read_file(path, box=box):
        try:
            grid = record.parse(box)
        except InvalidPuzzleError as err:
            err.__class__ = _in_file(type(err))  # type: ignore[arg-type]  # mypy takes a type[...] of two bases as unhashable
            err.source = record.source  # type: ignore[attr-defined]
            raise
        yield grid


@cache
def _in_file(kind: type[InvalidPuzzleError]) -> type[InvalidPuzzleError]:
    """``kind`` whose message begins with the file and line, ``puzzles.txt:3: ...`` (see :func:`read_puzzles`)."""

    def __str__(self: InvalidPuzzleError) -> str:
        return f"{self.source}:{self.line}: {kind.__str__(self).removeprefix(f'line {self.line}: ')}"  # type: ignore[attr-defined]

    return type(kind.__name__, (kind,), {"__str__": __str__, "__module__": kind.__module__, "__doc__": kind.__doc__})


def estimate_records(paths: Iterable[str | os.PathLike[str]]) -> int | None:
    """Roughly how many records the files hold (their lines not blank or ``#``); None unless all are regular files."""
    paths = list(paths)
    try:
        if not all(stat.S_ISREG(os.stat(path).st_mode) for path in paths):
            return None  # a FIFO or a terminal cannot be read twice
        total = 0
        for path in paths:
            if is_table(path):
                from sudokit.io.tables import estimate_rows

                total += estimate_rows(path)
                continue
            with open(path, "rb") as handle:
                total += count_lines(handle)
    except (OSError, ValueError):
        return None
    return total


class StreamLines:
    """Standard input from a pipe, a FIFO, a socket or a terminal, read as :func:`_stdin` reads it (UTF-8, bad
    bytes kept as surrogates, lines ending at ``\\n``, ``\\r\\n`` or ``\\r``), that can tell whether its next
    line is in hand.

    A worker pool draws a record from it only when ``ready()``: reading that record cannot wait for its
    producer. Otherwise it waits for ``fileno()`` to be readable together with its workers, and writes the
    answers it holds meanwhile (:class:`sudokit.engines.workers.Streamed`). Made by :meth:`of_stdin`, on
    POSIX only (``select`` takes no pipe on Windows); it reads at most ``CHUNK`` bytes at a time, and holds
    what it read up to the line after the one asked for.
    """

    CHUNK = 1 << 16

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buf = b""
        self.pos = 0  # where the unread part of buf starts
        self.eof = False
        self.active = False  # a reader is in it (``read_arguments`` on ``-``): else a draw never waits for it

    @classmethod
    def of_stdin(cls) -> StreamLines | None:
        """This process's standard input when it is a pipe, FIFO, socket or terminal (on POSIX), else None.

        None too when ``sys.stdin`` is no stream of the process's file descriptor 0 (replaced in a test).
        """
        stdin = sys.stdin
        if os.name != "posix" or stdin is None or stdin is not sys.__stdin__:
            return None
        try:
            fd = cast("TextIO", stdin).fileno()
            mode = os.fstat(fd).st_mode
        except (AttributeError, OSError, ValueError):  # closed, or no descriptor: read as before
            return None
        if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode)):
            return None  # a regular file never keeps a reader waiting
        return cls(fd)

    def fileno(self) -> int:
        return self.fd

    def _line_end(self) -> int:
        """Where the first whole line in hand ends (an index of ``buf``), or -1."""
        buf, pos = self.buf, self.pos
        nl = buf.find(b"\n", pos)
        cr = buf.find(b"\r", pos, nl if nl >= 0 else len(buf))
        if cr < 0:
            return nl + 1 if nl >= 0 else -1
        if cr + 1 < len(buf):
            return cr + 2 if buf[cr + 1] == 0x0A else cr + 1
        return cr + 1 if self.eof else -1  # a "\r" last: a "\n" may follow it

    def _fill(self) -> None:
        """Read once more (waits for the producer when nothing is there)."""
        data = os.read(self.fd, self.CHUNK)
        if not data:
            self.eof = True
            return
        self.buf = self.buf[self.pos :] + data
        self.pos = 0

    def ready(self) -> bool:
        """True when the next line can be read without waiting: one is in hand, the input ended, or no reader
        is in it; else reads what the producer has written so far (one read that does not wait)."""
        if not self.active or self.eof or self._line_end() >= 0 or len(self.buf) - self.pos >= 4 * MAX_LINE + 8:
            return True
        import select

        readable, _, _ = select.select([self.fd], [], [], 0)
        if readable:
            self._fill()
        return self.eof or self._line_end() >= 0

    def readline(self, limit: int = -1) -> str:
        """The next line with its end, or at most ``limit`` characters of it; "" at the end of the input."""
        while True:
            end = self._line_end()
            if end >= 0 or self.eof or (limit >= 0 and len(self.buf) - self.pos >= 4 * limit + 4):
                break  # (4 bytes or more a character: enough for ``limit`` of them)
            self._fill()
        stop = len(self.buf) if end < 0 else end
        text = self.buf[self.pos : stop].decode("utf-8", "surrogateescape")
        if 0 <= limit < len(text):
            text = text[:limit]
            stop = self.pos + len(text.encode("utf-8", "surrogateescape"))
        self.pos = stop
        return text


def _stdin() -> TextIO:
    """Standard input read as a file is: UTF-8, lines ending at ``\\n``, ``\\r\\n`` or ``\\r``.

    Python's own stdin ends lines at ``\\n`` only (a file of ``\\r`` line ends would be one line) and
    decodes in the locale's encoding; undecodable bytes become bad characters, not a crash.
    """
    stream = sys.stdin
    if hasattr(stream, "reconfigure"):
        with contextlib.suppress(io.UnsupportedOperation, ValueError):  # read from already: it stays as it is
            stream.reconfigure(encoding="utf-8", errors="surrogateescape", newline="")
    return stream


def read_arguments(
    args: Iterable[str],
    stdin: TextIO | StreamLines | None = None,
    *,
    box: Shape | None = None,
    tables: TableOptions | None = None,
) -> Iterator[Record]:
    """Records for command-line arguments: ``-`` is standard input, a path is a file, else one puzzle.

    A path named like a table (:func:`is_table`) is read a row a record, with the ``tables`` options.
    """
    for arg in args:
        if arg == "-":
            stream = stdin or _stdin()
            if isinstance(stream, StreamLines):
                stream.active = True  # its readiness counts while its records are read
                try:
                    yield from iter_records(bounded_lines(stream), "<stdin>", box=box)
                finally:
                    stream.active = False
                continue
            yield from iter_records(bounded_lines(stream), "<stdin>", box=box)
            continue
        found = stat_path(arg)
        if isinstance(found, OSError):
            raise InvalidPuzzleError(f"cannot read {_shown(arg)}: {found.strerror}")
        if found is None:
            yield _argument_record(arg)
        elif stat.S_ISDIR(found.st_mode):
            raise InvalidPuzzleError(f"{_shown(arg)} is a directory, not a puzzle file")
        elif is_table(arg):
            from sudokit.io.tables import read_table  # here: only tables need it

            yield from read_table(arg, tables or TableOptions())
        else:
            yield from read_file(arg, box=box)


def on_line(records: Iterable[Record], line: int) -> Iterator[Record]:
    """Of each input's records (a file's, stdin's), the one that holds ``line``: ``--line N``.

    Lines are numbered from 1, as editors and ``sed -n Np`` count; a puzzle over several lines (a grid,
    a JSON board) is picked by any of them. An input with no puzzle on ``line``, or a puzzle given as
    an argument (it has no lines), raises an ``InvalidPuzzleError`` naming the file and the line.
    """
    source: str | None = None  # the input being read
    found, end, start = False, 0, 0  # its record on ``line`` was found; its last line so far; the last record's
    for record in records:
        if record.line is None:
            raise InvalidPuzzleError(
                f"--line {line} picks a puzzle of a file; a puzzle given as an argument has no lines"
            )
        if record.source != source or record.line <= start:  # the next input (or the same file again)
            if source is not None and not found:
                raise _not_on_line(source, line, end)
            source, found, end = record.source, False, 0
        start = record.line
        if found:
            continue  # the rest of the input is read, never held
        if record.line > line:
            raise InvalidPuzzleError(f"{source}:{line}: no puzzle on line {line} (a blank line or a comment)")
        end = record.line + record.text.count("\n")
        if line <= end:
            found = True
            yield record
    if source is not None and not found:
        raise _not_on_line(source, line, end)


def _not_on_line(source: str, line: int, end: int) -> InvalidPuzzleError:
    return InvalidPuzzleError(
        f"{source}:{line}: no puzzle on line {line}: the last puzzle of {source} ends on line {end}"
    )


def check_arguments(args: Iterable[str]) -> None:
    """Raise for an argument naming a missing, unreadable or directory path, before any work starts."""
    for arg in args:
        if arg == "-":
            continue
        found = stat_path(arg)
        if found is None:
            if _whole_text(arg.strip()) or _link_and_note(arg.strip()):
                continue  # a link (with a note) or a variant puzzle in JSON: its '/' and '.' are no path
            if "/" in arg or os.sep in arg or _FILE_SUFFIX.search(arg):
                raise InvalidPuzzleError(f"no such file: {_shown(arg)}")
            continue
        if isinstance(found, OSError):
            raise InvalidPuzzleError(f"cannot read {_shown(arg)}: {found.strerror}")
        if stat.S_ISDIR(found.st_mode):
            raise InvalidPuzzleError(f"{_shown(arg)} is a directory, not a puzzle file")
        if stat.S_ISREG(found.st_mode):
            try:
                open(arg, "rb").close()
            except OSError as err:
                raise InvalidPuzzleError(f"cannot read {_shown(arg)}: {err.strerror}") from None
        elif not os.access(arg, os.R_OK):  # a FIFO or a device: opening it could block or take its data
            raise InvalidPuzzleError(f"cannot read {_shown(arg)}: {os.strerror(errno.EACCES)}")


def stat_path(arg: str) -> os.stat_result | OSError | None:
    """What ``arg`` names: its status, the error that keeps it from being looked at, or None for no such path."""
    try:
        return os.stat(arg)
    except PermissionError as err:  # a directory on the way that may not be entered
        return err
    except (OSError, ValueError):  # missing, a name too long or with a NUL in it: not a path
        return None


def _shown(arg: str) -> str:
    """``arg`` for a one-line message: as it is, or quoted with escapes if it holds a line break or control."""
    return arg if arg.isprintable() else repr(arg)


def _argument_record(arg: str) -> Record:
    """One puzzle given as an argument: its whole text, or on one line the puzzle before a ``:note``."""
    check_arguments([arg])
    text = arg.strip()
    if len(text.splitlines()) > 1 or _whole_text(text):
        return Record(text, "<argument>")
    noted = _link_and_note(text) or split_note(text)
    if noted is None:
        return Record(text, "<argument>")
    return Record(noted[0], "<argument>", None, noted[1])


def _whole_text(text: str) -> bool:
    """True for an argument read whole, ``:`` and all: a variant puzzle in JSON, or a link."""
    return text.startswith("{") or _is_link(text)
