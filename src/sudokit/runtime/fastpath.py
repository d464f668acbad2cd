"""The batch path: plain one-line puzzles go from text to output records in blocks, not one object each.

When the engine of a batch offers ``solve_many`` (:class:`sudokit.engines.strategy.ManyResults`), the parent
process reads a file in large pieces and cuts it, with one regular expression, into runs of *plain*
lines (a whole classic puzzle of symbols on one line, with a note too: ``puzzle:note``,
``puzzle # note``, ``puzzle<TAB>note``) and the rest. A run of
plain lines travels to a worker as one :class:`Block` of text; everything else is read by
:func:`sudokit.io.reader.iter_records` as before and solved one puzzle at a time. In the worker a block
becomes one cell buffer per box shape and one ``solve_many`` call, whose buffers go back as plain
data (:func:`answer_block`); the parent checks every answer against its own reading of the block
(the same guarantee as :func:`sudokit.engines.verify.result_problem`) and makes the text of its records from
the checked data (:func:`finish_block`), without a Python object per puzzle.

Every line a block holds would be a record of its own for the reader too: a plain line (n*n symbols
of a board of side 9 to 22, nothing else on it but a note) ends any multi-line record before it
and begins none, so the runs between plain lines are read on their own with the same result. A
puzzle the engine does not answer as solved is parsed in full, so a repeated given is ``invalid``
with the reader's own message; an answer that fails the check is an ``error`` record naming the
engine, rendered by the same code as today's path.
"""

from __future__ import annotations

import io
import math
import os
import re
import stat
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields, replace
from functools import cache
from typing import TYPE_CHECKING, Any, TextIO, cast, final

from sudokit.engines.strategy import MANY_STATUS, Result, Status, capabilities_of
from sudokit.engines.verify import all_verified, lines_verified, result_problem, verify_many
from sudokit.errors import BoxShapeError, InvalidPuzzleError
from sudokit.io.reader import Record, bounded_lines, is_table, iter_records, read_arguments, split_note, stat_path
from sudokit.model.shape import ALPHABET, Shape

if TYPE_CHECKING:
    from sudokit.io.reader import StreamLines

__all__ = [
    "BLOCK_LINES",
    "FIRST_SLICE",
    "SLICE_SECONDS",
    "Block",
    "Many",
    "Resumable",
    "TextForm",
    "answer_block",
    "enabled",
    "expand_blocks",
    "finish_block",
    "group_records",
    "plain_sides",
    "read_items",
]

#: The most plain lines one block holds: large enough that a block costs the parent next to nothing per
#: puzzle, small enough that a few blocks per worker in flight keep memory flat and progress steady.
BLOCK_LINES = 2048
#: Characters read from an input at a time.
READ_SIZE = 1 << 18
#: With a time limit, ``solve_many`` takes a block's puzzles in slices of about this many seconds (a
#: worker's first of ``FIRST_SLICE`` puzzles, each at most 8 times the one before): each slice has one
#: puzzle's time, as the worker pool enforces it.
SLICE_SECONDS = 0.5
FIRST_SLICE = 1
#: The size of the next slice by engine and board size, kept from one block to the next: a worker sizes its
#: first slice of a block as it would have sized the next one of the block before (fewer calls, same rule).
_next_slice: dict[int, tuple[Any, dict[int, int]]] = {}
#: The longest ``:note`` a plain line may carry (a longer line goes through the reader).
MAX_NOTE = 4096
#: A run of lines that are not plain longer than this goes to the reader for the rest of its input (kept
#: small: the reader gets it through a StringIO, four bytes a character, and a 40 MB line must not be read whole).
MAX_CARRY = 1 << 18
#: The widest board a plain line may be without ``--box``: above it a line of symbols could begin
#: like a link (``N4Ig...``), which the reader tells apart.
MAX_PLAIN_SIDE = 22
_EOL = r"(?:\r\n|\r|\n)"
#: A note after a plain puzzle (:func:`sudokit.io.reader.split_note`): ``:note``, `` # note``, ``<TAB>note``.
_NOTE = rf"(?:(?::|[ \t]+#|[ \t]*\t)[^\r\n\[\]{{}}\",]{{0,{MAX_NOTE}}})?"


def enabled() -> bool:
    """False when ``SUDOKIT_FASTPATH=0`` is set: every puzzle then goes alone (to compare, or to rule it out)."""
    return os.environ.get("SUDOKIT_FASTPATH", "").strip() != "0"


# --- which lines are plain -------------------------------------------------------------------------


@cache
def plain_sides(box: Shape | None) -> tuple[int, ...]:
    """The board sides a plain line may have: ``box``'s, or every side from 9 to 22 with a default box."""
    if box is not None:
        return (box.n,) if box.n <= MAX_PLAIN_SIDE else ()
    sides = []
    for n in range(9, MAX_PLAIN_SIDE + 1):
        try:
            Shape.box_for_side(n)  # (building every shape's tables took 30 ms before the first block was read)
        except (BoxShapeError, ValueError):
            continue
        sides.append(n)
    return tuple(sides)


def _symbols(n: int) -> str:
    """The characters of a one-line board of side ``n``: blanks, digits, letters in either case."""
    letters = ALPHABET[9:n]
    return ".0" + ALPHABET[:n] + letters.lower()


@cache
def _patterns(box: Shape | None) -> tuple[re.Pattern[str], re.Pattern[str]] | None:
    """(a run of up to BLOCK_LINES plain lines, the line end before the next plain line), or None."""
    sides = plain_sides(box)
    if not sides:
        return None
    line = "(?:" + "|".join(f"[{re.escape(_symbols(n))}]{{{n * n}}}" for n in sides) + ")" + _NOTE
    run = re.compile(rf"(?:{line}{_EOL}){{1,{BLOCK_LINES}}}")
    before = re.compile(rf"{_EOL}(?={line}{_EOL})")
    return run, before


@cache
def _plain_line(box: Shape | None) -> re.Pattern[str] | None:
    """One plain puzzle text (no note, no line end)."""
    sides = plain_sides(box)
    if not sides:
        return None
    return re.compile("|".join(f"[{re.escape(_symbols(n))}]{{{n * n}}}" for n in sides))


# --- the parent: input to items ---------------------------------------------------------------------


@final  # so that `type(item) is Block` tells a type checker what item is in both branches
@dataclass(frozen=True, slots=True)
class Block:
    """Consecutive plain lines of one input: ``text`` (each line with its line end), the first one's number."""

    source: str
    first: int
    text: str
    lines: int

    def entries(self) -> list[tuple[str, int | None, str | None]]:
        """(puzzle, line number, note) of each line, as the reader's records hold them."""
        text = self.text
        rows = text.split("\n") if "\r" not in text else re.split(_EOL, text)
        if rows and rows[-1] == "":
            rows.pop()
        first = self.first
        if ":" not in text and "\t" not in text and "#" not in text:
            return [(row, first + j, None) for j, row in enumerate(rows)]
        out: list[tuple[str, int | None, str | None]] = []
        for j, row in enumerate(rows):
            row = row.rstrip()  # a tab before no note
            noted = split_note(row)
            puzzle, note = (row, None) if noted is None else noted
            out.append((puzzle, first + j, note))
        return out

    def records(self) -> list[Record]:
        """The reader's record of each line."""
        source = self.source
        return [Record(puzzle, source, line, note) for puzzle, line, note in self.entries()]

    def after(self, count: int) -> Block | None:
        """The block without its first ``count`` lines (None when nothing is left)."""
        if count >= self.lines:
            return None
        ends = [m.end() for m in re.finditer(_EOL, self.text)]
        return Block(self.source, self.first + count, self.text[ends[count - 1] :], self.lines - count)


def read_items(
    args: Iterable[str], *, box: Shape | None = None, stdin: TextIO | StreamLines | None = None, **options: Any
) -> Iterator[Block | Record]:
    """The inputs as :func:`sudokit.io.reader.read_arguments` reads them, runs of plain lines as blocks.

    Expanding every block into its records (:func:`expand_blocks`) gives exactly the records the
    reader gives. Only regular puzzle files are cut into blocks (read a megabyte at a time); standard
    input, FIFOs and tables are read as the reader reads them (``options`` go to it).
    """
    for arg in args:
        found = None if arg == "-" else stat_path(arg)
        if not isinstance(found, os.stat_result) or not stat.S_ISREG(found.st_mode) or is_table(arg):
            # standard input, a FIFO, a puzzle, a path that cannot be read: the reader, line by line, so
            # that a record is solved as soon as its line arrives
            yield from read_arguments([arg], stdin, box=box, **options)
            continue
        with open(arg, encoding="utf-8", errors="surrogateescape", newline="") as handle:
            yield from scan(handle, arg, box)


def scan(handle: TextIO, source: str, box: Shape | None) -> Iterator[Block | Record]:
    """Blocks of plain lines and the records of the lines between them, in order, from one text stream."""
    if not plain_sides(box):
        yield from iter_records(bounded_lines(handle), source, box=box)
        return
    patterns = None  # compiled when a line is not like the ones before it (some 17 ms): a file of alike lines never is
    buf, pos, number = "", 0, 1  # the text in hand, where the unread part starts, its first line's number
    eof = False
    while not eof:
        data = handle.read(READ_SIZE)
        eof = not data
        buf = buf[pos:] + data
        pos = 0
        if eof:
            if buf and not buf.endswith(("\n", "\r")):
                buf += "\n"  # the last line's end, for the patterns (the reader needs none)
            end = len(buf)
        else:
            end = max(buf.rfind("\n"), buf.rfind("\r", 0, len(buf) - 1)) + 1  # a "\r" last may lose its "\n"
        while pos < end:
            lines, stop = _alike(buf, pos, end, box)
            if lines:  # what the pattern would match, found without it (the common case: no notes, "\n" ends)
                yield Block(source, number, buf[pos:stop], lines)
                number += lines
                pos = stop
                continue
            if patterns is None:
                patterns = _patterns(box)
                assert patterns is not None  # (there are plain sides)
            run, before = patterns
            m = run.match(buf, pos, end)
            if m is not None:
                text = buf[pos : m.end()]
                lines = _count_lines(text)
                yield Block(source, number, text, lines)
                number += lines
                pos = m.end()
                continue
            nxt = before.search(buf, pos, end)
            if nxt is None and not eof:
                break  # the lines that are not plain may go on: read more first
            stop = end if nxt is None else nxt.end()
            text = buf[pos:stop]
            yield from _records(text, source, number, box)
            number += _count_lines(text)
            pos = stop
        if not eof and len(buf) - pos > MAX_CARRY:  # a huge line or run: the reader takes the rest
            yield from _rest(buf[pos:], handle, source, number, box)
            return


def _alike(buf: str, pos: int, end: int, box: Shape | None) -> tuple[int, int]:
    """(lines, where they end) of the run from ``pos`` the pattern would match, when its lines are all alike;
    else (0, pos).

    Alike: each of n*n symbols of one side and a "\n", nothing else. Either the block's BLOCK_LINES lines,
    or every line up to ``end`` (where the pattern stops too). Checked by whole-text operations (an ASCII
    test, a count, a slice, a deletion), a few times faster than the pattern; anything else is left to the
    pattern.
    """
    first = buf.find("\n", pos, end)
    width = first - pos + 1
    n = math.isqrt(max(width - 1, 0))
    if first < 0 or n * n != width - 1 or n not in plain_sides(box):
        return 0, pos
    lines = min(BLOCK_LINES, (end - pos) // width)
    stop = pos + lines * width
    if lines < BLOCK_LINES and stop != end:  # something else before the end: the pattern decides
        return 0, pos
    text = buf[pos:stop]
    if not text.isascii():
        return 0, pos
    data = text.encode("ascii")
    ends = b"\n" * lines
    if data[width - 1 :: width] != ends:
        return 0, pos
    if data.translate(None, _symbol_bytes(n)) != ends:  # another byte than a symbol, or a line end elsewhere
        return 0, pos
    return lines, stop


@cache
def _symbol_bytes(n: int) -> bytes:
    """The symbols of a plain line of side ``n``."""
    return _symbols(n).encode("ascii")


def _count_lines(text: str) -> int:
    return text.count("\n") + text.count("\r") - text.count("\r\n")


def _records(text: str, source: str, number: int, box: Shape | None) -> Iterator[Record]:
    """The reader's records of lines ``number``.. (between plain lines, or at the start of the input)."""
    lead = "" if number == 1 else "\n"  # a blank line first: only line 1 of an input loses a byte-order mark
    shift = number - 1 - len(lead)
    lines = bounded_lines(io.StringIO(lead + text, newline=""))
    for record in iter_records(lines, source, box=box):
        yield replace(record, line=record.line + shift) if record.line is not None and shift else record


def _rest(text: str, handle: TextIO, source: str, number: int, box: Shape | None) -> Iterator[Record]:
    """The reader's records of ``text`` and everything after it in ``handle``."""
    lead = "" if number == 1 else "\n"
    shift = number - 1 - len(lead)
    lines = bounded_lines(_Joined(lead + text, handle))
    for record in iter_records(lines, source, box=box):
        yield replace(record, line=record.line + shift) if record.line is not None and shift else record


class _Joined:
    """``readline`` over some text and then a stream: what :func:`bounded_lines` needs."""

    def __init__(self, text: str, handle: TextIO) -> None:
        if text.endswith("\r"):  # a "\r\n" cut between the two: take its "\n" (or the next line's start)
            text += handle.read(1)
        self.head = io.StringIO(text, newline="")
        self.handle = handle

    def readline(self, limit: int = -1) -> str:
        line = self.head.readline(limit)
        if not line:
            return self.handle.readline(limit)
        if line.endswith(("\n", "\r")) or 0 < limit <= len(line):
            return line
        return line + self.handle.readline(limit - len(line) if limit > 0 else -1)


def expand_blocks(items: Iterable[Block | Record]) -> Iterator[Record]:
    """Every record, each block's lines made records as the reader makes them."""
    for item in items:
        if type(item) is Block:
            yield from item.records()
        else:
            yield item


def uniform_cells(block: Block, box: Shape | None) -> tuple[Shape, bytes] | None:
    """A block whose lines are all one board of the same size with nothing else: (shape, cell values); else None.

    The values (0 blank, 1..n) come row by row, puzzle after puzzle, read from the block's bytes at once
    (one translation, the line ends dropped): its lengths and every symbol checked at once. A block with a
    note, a ``\r``, boards of two sizes, or a side without a default box is None: it is read line by line,
    as the reader does.
    """
    read = _uniform_text(block, box)
    if read is None:
        return None
    cells = _read_cells(read[1], block.lines, read[0])
    return None if cells is None else (read[0], cells)


def _read_cells(data: bytes, k: int, shape: Shape) -> bytes | None:
    """The cell values of k lines of ``data`` (each n*n symbols and "\n"), row by row; None when one is not."""
    cells = data.translate(_tables(shape.n)[0], b"\n")
    if len(cells) != k * shape.size or 255 in cells:  # a line end elsewhere; a symbol of another side, a ":", ...
        return None
    return cells


def _uniform_text(block: Block, box: Shape | None) -> tuple[Shape, bytes] | None:
    """(shape, the block's text as bytes) when its lines are all n*n bytes and a line end; else None.

    Its symbols are not read yet: :func:`_read_cells` reads them, or the compiled check does
    (:func:`sudokit.engines.verify.lines_verified`).
    """
    if _numpy() is None:  # a core install without numpy (no solve_many to take the cells): line by line
        return None
    try:
        data = block.text.encode("ascii")
    except UnicodeEncodeError:
        return None
    k = block.lines
    width = data.find(b"\n") + 1
    size = width - 1
    n = math.isqrt(max(size, 0))
    if size < 1 or n * n != size or len(data) != k * width:
        return None
    try:
        shape = box if box is not None else Shape.for_side(n)
    except (BoxShapeError, ValueError):
        return None
    if shape.size != size:
        return None
    if data[size::width] != b"\n" * k:  # every line end where it belongs
        return None
    return shape, data


class _Entries:
    """A uniform block's entries (puzzle, line, note), made only if one is asked for (a puzzle that goes alone)."""

    def __init__(self, block: Block) -> None:
        self.block = block
        self.made: list[tuple[str, int | None, str | None]] | None = None

    def __len__(self) -> int:
        return self.block.lines

    def __getitem__(self, i: int) -> tuple[str, int | None, str | None]:
        if self.made is None:
            self.made = self.block.entries()
        return self.made[i]


class Resumable:
    """The record keys of items for ``--resume``, and the items that remain once as many were drawn."""

    def __init__(self, items: Iterable[Block | Record], key: Callable[[Record], Any]) -> None:
        self.items = iter(items)
        self.key = key
        self.current: Block | Record | None = None
        self.used = 0  # keys drawn from the current item

    def keys(self) -> Iterator[Any]:
        """The key of each record, in order."""
        for item in self.items:
            self.current, self.used = item, 0
            for record in item.records() if type(item) is Block else [item]:
                self.used += 1
                yield self.key(record)
        self.current = None

    def rest(self) -> Iterator[Block | Record]:
        """The items after the records whose keys were drawn (a block cut where they end)."""
        current = self.current
        if type(current) is Block:
            remainder = current.after(self.used)
            if remainder is not None:
                yield remainder
        yield from self.items


def group_records(items: Iterable[tuple[int, Record]], box: Shape | None) -> Iterator[tuple[int, Any]]:
    """Numbered records with runs of plain ones (for the library) as lists: one ``solve_many`` each."""
    plain = _plain_line(box)
    run: list[Record] = []
    start = 0
    for index, record in items:
        if plain is not None and record.problem is None and plain.fullmatch(record.text):
            if not run:
                start = index
            run.append(record)
            if len(run) >= BLOCK_LINES:
                yield start, run
                run = []
            continue
        if run:
            yield start, run
            run = []
        yield index, record
    if run:
        yield start, run


# --- the worker: a block solved, checked and rendered -----------------------------------------------


@dataclass(frozen=True, slots=True)
class Many:
    """The records of a block, in order: runs of record text and single records.

    A run of text is a str (its lines joined, no newline last) or, made at once from a block's bytes,
    bytes (ASCII, each line with its newline): written as they are (``RecordWriter.write_lines``).

    ``answers`` counts what the summary counts (solved, unsolvable, ... or unique, several, ...) for
    the runs of text; a single record (a ``Rendered`` or a library object) carries its own.
    """

    index: int
    parts: list[Any]
    answers: dict[str, int] = field(default_factory=dict)


#: bytes.translate tables of a side: a symbol to its value (255 for any other byte), a value to its symbol.
@cache
def _tables(n: int) -> tuple[bytes, bytes]:
    value = bytearray([255] * 256)
    for ch in ".0":
        value[ord(ch)] = 0
    for v, ch in enumerate(ALPHABET[:n], 1):
        value[ord(ch)] = v
        value[ord(ch.lower())] = v
    symbol = bytearray(b"?" * 256)
    symbol[0] = ord(".")
    for v, ch in enumerate(ALPHABET[:n], 1):
        symbol[v] = ord(ch)
    return bytes(value), bytes(symbol)


@dataclass(frozen=True, slots=True)
class TextForm:
    """The records of ``sudokit.runtime.output.RecordFormat`` (line, json, csv) written straight from the answers."""

    fmt: str
    counting: bool
    limit: int
    stats: bool
    unique: bool

    @staticmethod
    def of(render: object) -> TextForm | None:
        """The text form of a ``RecordFormat`` this module renders byte for byte; None for any other."""
        from sudokit.runtime.output import RecordFormat

        if type(render) is not RecordFormat:
            return None
        for f in fields(render):  # an option added since must be at its default (off)
            if f.name not in _KNOWN_FIELDS and (f.default is MISSING or getattr(render, f.name) != f.default):
                return None
        fmt = render.fmt
        if fmt not in ("line", "json", "csv"):
            return None
        if fmt == "json" and render.limit > 1 and not render.counting and not render.unique:
            return None  # it lists every solution found; solve_many returns the first
        return TextForm(fmt, render.counting, render.limit, render.stats, render.unique)


_KNOWN_FIELDS = frozenset({"fmt", "counting", "limit", "color", "header", "stats", "unique"})


def serves(render: object, keep: int | None, limit: int) -> bool:
    """True when blocks answered by ``solve_many`` render exactly as today's path renders each puzzle."""
    if TextForm.of(render) is not None:
        return True
    return _keeps_one(keep, limit) and _object_render_ok(render)


def _keeps_one(keep: int | None, limit: int) -> bool:
    """True when a result holds at most one solution (what ``solve_many`` returns)."""
    return limit == 1 or keep == 1


def _object_render_ok(render: object) -> bool:
    from sudokit.runtime.output import RecordFormat

    return not isinstance(render, RecordFormat) or render.fmt != "pretty"


def answer_block(
    entries: list[tuple[str, int | None, str | None]] | Block,
    records: list[Record] | None,
    engine: Any,
    source: str,
    box: Shape | None,
    limit: int,
    keep: int | None,
    time_limit: float | None,
    render: Callable[[Any], Any],
    answer_one: Callable[[Record], Any],
    mark: Callable[[int], None] | None = None,
) -> tuple[tuple[Any, ...], ...]:
    """In the worker: the plain answers of plain puzzles ``entries`` (puzzle, line, note), for :func:`finish_block`.

    ``entries`` may be a :class:`Block`: one whose lines are alike (:func:`uniform_cells`) is read as one
    array, without a Python object per line; any other is read as its entries.

    One part per group of puzzles of one size, in the order of their first puzzle: ``("each",
    answers)``, ``answer_one(record)`` of each puzzle, for what ``solve_many`` does not take; or
    ``("slices", slices, alone)``: ``slices`` are ``(at, n, answer)``, the answer of one ``solve_many``
    call on the group's puzzles ``at`` to ``at + n`` read as plain data (:func:`_raw_answers`), and
    ``alone`` are ``(at, answer)``, ``answer_one`` of a puzzle that a call could not answer in time.
    Nothing is checked or rendered here: the caller does both, with its own code. ``mark(part)`` is
    called as each part starts (the worker pool's ``mark``: the block's budget starts again): ``-1``
    before each ``solve_many`` call, ``i`` before puzzle ``i`` goes alone to ``answer_one``. With a time
    limit, ``solve_many`` takes the puzzles in slices sized to take about ``SLICE_SECONDS`` each, so
    that no call needs more than one puzzle's time; a call measured past one puzzle's limit is not
    taken (its puzzles go alone).
    """
    from sudokit.engines.api import watchdog_seconds

    if mark is None:
        mark = _unmarked
    late = None if time_limit is None else watchdog_seconds(time_limit)
    text_form = TextForm.of(render)
    object_ok = _keeps_one(keep, render.limit if hasattr(render, "limit") else limit)
    # line records without --stats never show the search's counters: not sent (about 40% of an answer's bytes)
    stats = text_form is None or text_form.fmt != "line" or text_form.stats
    parts: list[tuple[Any, ...]] = []
    caps = None
    uniform = None
    lines: Sequence[tuple[str, int | None, str | None]]
    if type(entries) is Block:  # read as one array when its lines are alike (no Python object per line)
        uniform = uniform_cells(entries, box)
        lines = cast("Sequence[Any]", _Entries(entries)) if uniform is not None else entries.entries()
    else:
        lines = entries
    groups: Mapping[int, Sequence[int]]
    groups = {uniform[0].size: range(len(lines))} if uniform is not None else _groups(lines)

    def record_of(i: int) -> Record:
        puzzle, line, note = lines[i]
        return records[i] if records is not None else Record(puzzle, source, line, note)

    def cells_of(piece: Sequence[int], n: int) -> bytes | None:
        if uniform is not None:  # a range of the block's lines
            return uniform[1][piece[0] * uniform[0].size : (piece[-1] + 1) * uniform[0].size]
        return _cells([lines[i][0] for i in piece], n)

    for size, members in groups.items():
        n = math.isqrt(size)
        try:
            shape = box if box is not None else Shape.for_side(n)
            if caps is None:
                caps = capabilities_of(engine)
            claimed = caps.supports(shape)
        except Exception:
            claimed = False
        if not (claimed and (text_form is not None or object_ok)):
            each = []
            for i in members:
                mark(i)
                each.append(answer_one(record_of(i)))
            parts.append(("each", tuple(each)))
            continue
        slices: list[tuple[int, int, Any]] = []
        left: list[int] = []  # positions in members of the puzzles that go alone
        kept = _next_slice.get(id(engine))  # the slices go on from the last block's (a new worker: FIRST_SLICE)
        sizes: dict[int, int] = kept[1] if kept is not None and kept[0] is engine else {}
        at, count = 0, len(members) if time_limit is None else sizes.get(size, FIRST_SLICE)
        while at < len(members):
            piece = members[at : at + count]
            mark(-1)
            start = time.perf_counter()
            raw = _raw_answers(engine, cells_of(piece, n), len(piece), shape, limit, time_limit, stats=stats)
            took = time.perf_counter() - start
            if raw is None or (late is not None and took > late):
                left.extend(range(at, at + len(piece)))  # measured, not as it says: each goes alone
            else:
                slices.append((at, len(piece), raw))
            at += len(piece)
            per = took / len(piece)
            count = max(1, min(8 * len(piece), int(SLICE_SECONDS / per) if per > 0 else 8 * len(piece)))
        if time_limit is not None:
            if len(_next_slice) > 16:  # engines built and dropped in a long-lived process: forget them
                _next_slice.clear()
            sizes[size] = count
            _next_slice[id(engine)] = (engine, sizes)
        alone = []
        for j in left:
            mark(members[j])
            alone.append((j, answer_one(record_of(members[j]))))
        parts.append(("slices", tuple(slices), tuple(alone)))
    return tuple(parts)


def _groups(entries: Sequence[tuple[str, int | None, str | None]]) -> dict[int, list[int]]:
    """The puzzles of a block by size (their number of cells), in the order of each size's first."""
    groups: dict[int, list[int]] = {}
    for i, (puzzle, _, _) in enumerate(entries):
        groups.setdefault(len(puzzle), []).append(i)
    return groups


def _covering(part: Any, members: int) -> tuple[list[tuple[int, int, Any]], list[tuple[int, Any]]] | None:
    """A ``("slices", ...)`` part's slices and lone answers, when they cover ``members`` puzzles once each."""
    if type(part) is not tuple or len(part) != 3 or part[0] != "slices":
        return None
    slices, alone = part[1], part[2]
    if type(slices) is not tuple or type(alone) is not tuple:
        return None
    spans = []  # (first, end) of each slice and each puzzle alone: they must tile 0..members, in some order
    for piece in slices:
        if type(piece) is not tuple or len(piece) != 3 or type(piece[0]) is not int or type(piece[1]) is not int:
            return None
        spans.append((piece[0], piece[0] + piece[1]) if piece[1] >= 1 else (0, -1))
    for one in alone:
        if type(one) is not tuple or len(one) != 2 or type(one[0]) is not int:
            return None
        spans.append((one[0], one[0] + 1))
    end = 0
    for first, stop in sorted(spans):  # (a Python loop over the pieces, not over every puzzle)
        if first != end or stop <= first:
            return None
        end = stop
    return (list(slices), list(alone)) if end == members else None


def finish_block(
    index: int, block: Block | list[Record], answer: Any, task: Any, finish_one: Callable[..., Any]
) -> Many:
    """In the caller: the records of a block, made of its worker's plain answer (:func:`answer_block`) and checked here.

    ``task`` is the :class:`sudokit.runtime.batch.SolveTask` (its limit, keep, time limit, box, render and the
    engine's name as asked for); ``finish_one(index, record, answer)`` makes the record of one puzzle
    answered alone. Each ``solve_many`` answer is checked by :func:`sudokit.engines.verify.verify_many` against
    this process's own reading of the block, and the records are made of the checked data alone.
    """
    source: str | list[Record]
    if type(block) is Block:
        checked = _every_checked(index, block, answer, task)
        if checked is not None:
            return checked
        entries, source = block.entries(), block.source
        records = None
    else:
        entries = [(r.text, r.line, r.note) for r in block]
        source, records = block, block
    k = len(entries)
    limit, keep, time_limit, box, render = task.limit, task.keep, task.time_limit, task.box, task.render
    name = task.name
    text_form = TextForm.of(render)
    out: list[Any] = [None] * k
    groups = _groups(entries)
    parts = answer if type(answer) is tuple and len(answer) == len(groups) else (None,) * len(groups)

    def one(i: int, answered: Any) -> Any:
        puzzle, line, note = entries[i]
        record = records[i] if records is not None else Record(puzzle, str(source), line, note)
        return finish_one(index + i, record, answered)

    for (size, members), part in zip(groups.items(), parts, strict=True):
        if type(part) is tuple and len(part) == 2 and part[0] == "each":
            each = part[1] if type(part[1]) is tuple and len(part[1]) == len(members) else (None,) * len(members)
            for i, answered in zip(members, each, strict=True):
                out[i] = one(i, answered)
            continue
        covering = _covering(part, len(members))
        if covering is None:  # not an answer for these puzzles: each is an error of the engine's
            for i in members:
                out[i] = one(i, None)
            continue
        slices, alone = covering
        try:
            shape = box if box is not None else Shape.for_side(math.isqrt(size))
        except (BoxShapeError, ValueError):
            shape = Shape.of(1, math.isqrt(size))  # no default box: every answer fails to read below
        found: list[_Answers] = []
        for at, n, raw in sorted(slices, key=lambda piece: piece[0]):
            piece = members[at : at + n]
            answers = _checked(raw, [entries[i][0] for i in piece], shape, limit, time_limit)
            found.append(answers)
            for j, i in enumerate(piece):
                out[i] = (answers, j)
        for at, answered in alone:
            out[members[at]] = one(members[at], answered)
        joined = _joined(found) if len(found) > 1 and not alone else None
        if joined is not None:  # the slices' answers as one call's: written at once when all is well
            for j, i in enumerate(members):
                out[i] = (joined, j)
    one_call = type(out[0]) is tuple and type(out[-1]) is tuple and out[-1][0] is out[0][0]  # not slices
    if text_form is not None and len(groups) == 1 and one_call:
        whole = _whole(out[0][0], text_form, entries, source)
        if whole is not None:
            return Many(index, [whole], {"solved": k})
    return _assemble(index, entries, source, out, text_form, render, name, limit, keep, box)


#: The end of a ``--unique`` line record, by answer (unique, several, timeout), padded with zero bytes.
_UNIQUE_ENDS = (b":unique\n\0", b":several\n", b":timeout\n")
_UNIQUE_NAMES = ("unique", "several", "timeout")
#: A packed buffer's 1 (an int64 as numpy writes it on this machine).
_ONE = (1).to_bytes(8, sys.byteorder)


def _every_checked(index: int, block: Block, answer: Any, task: Any) -> Many | None:
    """The line records of a uniform block whose every answer is checked and solved, made at once; else None.

    The block is this process's own reading (:func:`uniform_cells`); each packed ``solve_many`` answer
    must pass what :func:`_checked` asks of every answer (status solved, a count in range, exact 0 or
    1, an elapsed time within the call's and the time limit) and the independent check
    (:func:`sudokit.engines.verify.all_verified`). Anything else (an answer to read value by value, a
    puzzle answered alone, a problem, another form of records) is None: :func:`finish_block` makes
    those records one by one, as it always has, with the same text.

    No Python object per puzzle, and in the common case (every count 1 and exact: each puzzle unique, or
    solved with ``limit`` 1) no numpy either: the buffers are compared whole with a buffer of ones, and
    the records are the block's own text (its symbols as ``to_line`` writes them) with each line end
    become ``:unique`` and a line end: bytes, written as they are (no decoding, no encoding again).
    """
    form = TextForm.of(task.render)
    if form is None or form.fmt != "line" or form.stats or form.counting:
        return None
    if type(answer) is not tuple or len(answer) != 1:
        return None
    k = block.lines
    covering = _covering(answer[0], k)
    if covering is None or covering[1]:
        return None
    uniform = _uniform_text(block, task.box)
    if uniform is None:
        return None
    np = _numpy()
    shape, data = uniform
    size = shape.size
    late = math.inf if task.time_limit is None else _watchdog(task.time_limit)
    counts, exacts, solutions = [], [], []
    unique = True  # every count 1 and every exact 1 (read without numpy)
    for _, n, part in sorted(covering[0], key=lambda piece: piece[0]):
        if type(part) is not tuple or len(part) != 8 or part[0] != "packed":
            return None
        _, status, count, exact, raw, elapsed, stats, took = part
        buffers = [status, count, exact, elapsed]
        if type(stats) is not tuple or any(type(p) is not tuple or len(p) != 2 or type(p[0]) is not str for p in stats):
            return None
        buffers += [p[1] for p in stats]
        if any(type(b) is not bytes or len(b) != 8 * n for b in buffers) or type(raw) is not bytes:
            return None
        if len(raw) != n * size or type(took) is not float or not 0.0 <= took <= 1e9:
            return None
        if status != bytes(8 * n):  # every puzzle solved
            return None
        ones = _ONE * n
        if count == ones and exact in (ones, bytes(8 * n)):  # counts 1, exact all 1 or all 0: in range
            unique = unique and exact == ones
        else:
            c, e = np.frombuffer(count, np.int64), np.frombuffer(exact, np.int64)
            if not ((c >= 1) & (c <= task.limit) & ((e == 0) | (e == 1))).all():
                return None
            unique = False
        t = np.frombuffer(elapsed, np.float64)
        if not (t.min() >= 0.0 and t.max() <= min(took, late)):  # (a NaN fails both)
            return None
        counts.append(count)
        exacts.append(exact)
        solutions.append(raw)
    found = b"".join(solutions)
    if not _all_verified(data, found, k, shape):
        return None
    if shape.n > 9:  # a letter in lower case, a "0" for a blank: the symbols to_line writes
        data = data.translate(_normal(shape.n))
    elif b"0" in data:  # a "0" for a blank: "." (four times as fast as the translation)
        text = np.frombuffer(data, np.uint8)
        zero = (text == ord("0")).view(np.uint8)
        data = (text - (zero + zero)).tobytes()
    if form.unique and unique:
        return Many(index, [data.replace(b"\n", b":unique\n")], {"unique": k})
    puzzles = np.frombuffer(data, np.uint8).reshape(k, size + 1)[:, :size]
    if form.unique:
        count, exact = np.frombuffer(b"".join(counts), np.int64), np.frombuffer(b"".join(exacts), np.int64)
        code = np.where(count >= 2, 1, np.where(exact == 1, 0, 2))
        ends = np.frombuffer(b"".join(_UNIQUE_ENDS), np.uint8).reshape(3, -1)
        rows = np.concatenate([puzzles, ends[code]], axis=1)
        text = rows.tobytes().replace(b"\0", b"")  # the padding of ":unique\n" (no symbol is a zero byte)
        tally = np.bincount(code, minlength=3).tolist()
        answers = {name: int(v) for name, v in zip(_UNIQUE_NAMES, tally, strict=True) if v}
    else:
        rows = np.empty((k, 2 * size + 2), np.uint8)
        rows[:, :size] = puzzles
        rows[:, size] = ord(":")
        answer_symbols = found.translate(_tables(shape.n)[1])
        rows[:, size + 1 : 2 * size + 1] = np.frombuffer(answer_symbols, np.uint8).reshape(k, size)
        rows[:, -1] = ord("\n")
        text = rows.tobytes()
        answers = {"solved": k}
    return Many(index, [text], answers)


@cache
def _normal(n: int) -> bytes:
    """A bytes.translate table: each symbol of side ``n`` to the one ``to_line`` writes for its value; others kept."""
    value, symbol = _tables(n)
    return bytes(b if value[b] == 255 else symbol[value[b]] for b in range(256))


def _watchdog(time_limit: float) -> float:
    from sudokit.engines.api import watchdog_seconds

    return watchdog_seconds(time_limit)


def _all_verified(
    data: bytes,
    solutions: bytes,
    k: int,
    shape: Shape,
    _lines: Callable[..., bool | None] = lines_verified,
    _check: Callable[..., bool] = all_verified,
) -> bool:
    """The independent check of a whole block of k lines (``data``, each n*n symbols and "\n"): compiled from its
    text where it can be, else of the cells read from it; bound at import, as in ``_checked``."""
    held = _lines(data, shape.size + 1, solutions, k, shape)
    if held is not None:
        return held
    cells = _read_cells(data, k, shape)
    return cells is not None and _check(cells, solutions, k, shape)


def _joined(found: list[_Answers]) -> _Answers | None:
    """The answers of consecutive slices as those of one call; None when one could not be read (kept apart)."""
    keys = [k for k, _ in found[0].stats]
    if any(len(f.puzzles) != len(f.status) or [k for k, _ in f.stats] != keys for f in found):
        return None
    problems: dict[int, str] = {}
    at = 0
    for f in found:
        problems.update((at + j, problem) for j, problem in f.problems.items())
        at += len(f.status)
    return _Answers(
        found[0].shape,
        [p for f in found for p in f.puzzles],
        "".join(f.solutions for f in found),
        [v for f in found for v in f.status],
        [v for f in found for v in f.count],
        [v for f in found for v in f.exact],
        [v for f in found for v in f.elapsed],
        [(key, [v for f in found for v in f.stats[n][1]]) for n, key in enumerate(keys)],
        problems,
        b"".join(f.cells for f in found),
        b"".join(f.raw_solutions for f in found),
    )


def _unmarked(part: int) -> None:
    """No worker pool to tell which part of a block runs."""


def _whole(found: _Answers, form: TextForm, entries: list[Any], source: Any) -> str | None:
    """The records of a block whose every puzzle was solved with a checked answer, in the line form; else None."""
    if form.fmt != "line" or form.stats or form.unique or form.counting or found.problems:
        return None
    if found.status.count(0) != len(found.status):
        return None
    size = found.shape.size
    text = found.solutions
    return "\n".join([f"{p}:{text[j * size : (j + 1) * size]}" for j, p in enumerate(found.puzzles)])


@dataclass
class _Answers:
    """The checked answers of one ``solve_many`` call: per puzzle its text, status, count, ... or a problem."""

    shape: Shape
    puzzles: list[str]  # as to_line() prints them
    solutions: str  # the first solutions' symbols, puzzle after puzzle
    status: list[int]
    count: list[int]
    exact: list[int]
    elapsed: list[float]
    stats: list[tuple[str, list[int]]]
    problems: dict[int, str]  # puzzle -> what is wrong with its answer ("returned ...")
    cells: bytes
    raw_solutions: bytes


def _cells(puzzles: list[str], n: int) -> bytes | None:
    """The cell values of plain puzzles of side ``n``, row by row (None when a symbol is not one of the side's)."""
    value, _ = _tables(n)
    try:
        cells = "".join(puzzles).encode("ascii").translate(value)
    except UnicodeEncodeError:
        return None
    return None if 255 in cells else cells


def _raw_answers(
    engine: Any,
    cells: bytes | None,
    k: int,
    shape: Shape,
    limit: int,
    time_limit: float | None,
    *,
    stats: bool = True,
) -> tuple[Any, ...] | None:
    """In the worker: ``engine.solve_many`` on the puzzles, its buffers read as plain data; None when it cannot be used.

    ``("many", status, count, exact, solutions, elapsed, stats, seconds)``: bytes, a tuple of ints,
    bytes, bytes, a tuple of floats, ``((key, ints), ...)`` and the time of the call; or
    ``("unread", why, seconds)`` for buffers that cannot be read. Checked by :func:`_checked`, in the caller.
    Without ``stats`` (records that do not show them) the stats are left out: ``()``.
    """

    size = shape.size
    if cells is None:
        return None
    start = time.perf_counter()
    try:
        result = engine.solve_many(memoryview(cells), shape, limit=limit, time_limit=time_limit)
    except Exception:
        return None  # each puzzle alone says how the engine fails, as today's path would
    took = time.perf_counter() - start
    packed = _packed(result, k, size, send_stats=stats)
    if packed is not None:
        return (*packed, took)
    try:
        status = tuple(int(v) for v in _values(result.status, k, "status"))
        count = tuple(int(v) for v in _values(result.count, k, "count"))
        exact = tuple(int(v) for v in _values(result.exact, k, "exact"))
        elapsed = tuple(float(e) for e in _values(result.elapsed, k, "elapsed"))
        raw = bytes(memoryview(result.solutions).cast("B"))
        if len(raw) != k * size:
            raise ValueError(f"solutions holds {len(raw)} bytes, not {k * size}")
        table = tuple(
            (str(key), tuple(int(v) for v in _values(values, k, f"stats[{key!r}]"))) for key, values in _items(result)
        )
    except Exception as err:
        return ("unread", f"{type(err).__name__}: {err}", took)
    return ("many", status, count, exact, raw, elapsed, table if stats else (), took)


def _checked(
    part: Any,
    puzzles: list[str],
    shape: Shape,
    limit: int,
    time_limit: float | None,
    _verify_many: Callable[[bytes, bytes, int, Shape], list[bool]] = verify_many,
) -> _Answers:
    """In the caller: the answers of one ``solve_many`` call (from :func:`_raw_answers`), each checked here.

    The puzzles are this process's own reading of the block's lines; an answer that is not plain data
    of the right size is a problem of every puzzle. ``_verify_many`` is not an option: the check, bound
    when this module is imported (an engine run in this process cannot replace it).
    """
    from sudokit.engines.api import watchdog_seconds

    n, size, k = shape.n, shape.size, len(puzzles)
    value, symbol = _tables(n)
    cells = "".join(puzzles).encode("ascii", "replace").translate(value)
    part = _unpacked(part, k)
    unread = _unread(part, k, size) if 255 not in cells and len(cells) == k * size else "puzzles it was not given"
    if unread is not None:
        took = part[-1] if type(part) is tuple and part and type(part[-1]) is float else 0.0
        took = took if 0.0 <= took <= 1e9 else 0.0
        problems = dict.fromkeys(range(k), f"returned ManyResults that cannot be read: {unread}")
        return _Answers(shape, [], "", [1] * k, [0] * k, [1] * k, [took / k] * k, [], problems, cells, b"")
    _, status_raw, count_raw, exact_raw, raw, elapsed_raw, stats_raw, took = part
    status, count, exact, elapsed = list(status_raw), list(count_raw), list(exact_raw), list(elapsed_raw)
    stats = [(key, list(values)) for key, values in stats_raw]
    problems = {}
    late = None if time_limit is None else watchdog_seconds(time_limit)
    valid = _verify_many(cells, raw, k, shape)
    every = (
        status.count(0) == k  # all solved, each with a checked solution, a count in range, in time:
        and all(valid)
        and 1 <= min(count) <= max(count) <= limit
        and set(exact) <= {0, 1}
        and 0.0 <= min(elapsed) <= max(elapsed) <= min(took, math.inf if late is None else late)
    )
    for i in () if every else range(k):  # else each answer on its own
        e = elapsed[i]
        if not (0.0 <= e <= took):  # no puzzle takes longer than the whole call (1e308 s, NaN, -1)
            elapsed[i] = e = took / k
        if late is not None and e > late:
            problem: str | None = f"returned after {e:.1f} s, past its time limit of {time_limit:g} s"
        else:
            problem = _problem(status[i], count[i], exact[i], raw[i * size : (i + 1) * size], valid[i], limit)
        if problem is not None:
            problems[i] = problem
    text = raw.translate(symbol).decode("ascii")
    normalized = cells.translate(symbol).decode("ascii")  # the puzzles as to_line() prints them
    lines = [normalized[i * size : (i + 1) * size] for i in range(k)]
    return _Answers(shape, lines, text, status, count, exact, elapsed, stats, problems, cells, raw)


def _packed(result: Any, k: int, size: int, *, send_stats: bool = True) -> tuple[Any, ...] | None:
    """``("packed", status, count, exact, solutions, elapsed, stats)`` of numpy answers, each a bytes of int64
    (elapsed float64); None for answers of any other kind (read value by value by :func:`_raw_answers`).

    Plain data as :func:`_raw_answers`' tuples are, without a Python object per puzzle; the caller reads
    them back (:func:`_unpacked`) to the same values. Without ``send_stats`` the stats are checked, not sent: ``()``.
    """
    np = _numpy()
    if np is None:
        return None
    try:
        stats = result.stats
        if not isinstance(stats, Mapping):
            return None
        pairs = list(stats.items())
        ints = [result.status, result.count, result.exact, *[v for _, v in pairs]]
        elapsed = result.elapsed
        for a in [*ints, elapsed]:
            if type(a) is not np.ndarray or a.shape != (k,):
                return None
        for a in ints:  # whole numbers an int64 holds exactly
            if a.dtype.kind not in "iu" or (a.dtype == np.uint64 and k and int(a.max()) >= 1 << 63):
                return None
        if elapsed.dtype.kind != "f" or any(type(key) is not str for key, _ in pairs):
            return None
        raw = bytes(memoryview(result.solutions).cast("B"))
        if len(raw) != k * size:
            return None
        status, count, exact = (a.astype(np.int64).tobytes() for a in ints[:3])
        table = tuple((key, v.astype(np.int64).tobytes()) for key, v in pairs) if send_stats else ()
        return ("packed", status, count, exact, raw, elapsed.astype(np.float64).tobytes(), table)
    except Exception:
        return None


def _unpacked(part: Any, k: int) -> Any:
    """A ``("packed", ...)`` answer as :func:`_raw_answers`' ``("many", ...)`` tuple of its values; else ``part``."""
    if type(part) is not tuple or len(part) != 8 or part[0] != "packed":
        return part
    try:
        np = _numpy()
        assert np is not None  # a packed answer is made where numpy is
        _, status, count, exact, raw, elapsed, stats, took = part
        ints = [status, count, exact, *[v for _, v in stats]]
        if any(type(b) is not bytes or len(b) != 8 * k for b in [*ints, elapsed]):
            raise ValueError("buffers of another size")
        status, count, exact = (tuple(np.frombuffer(b, np.int64).tolist()) for b in ints[:3])
        table = tuple((key, tuple(np.frombuffer(v, np.int64).tolist())) for key, v in stats)
        times = tuple(np.frombuffer(elapsed, np.float64).tolist())
        return ("many", status, count, exact, raw, times, table, took)
    except Exception as err:
        took = part[-1] if type(part[-1]) is float else 0.0
        return ("unread", f"{type(err).__name__}: {err}", took)


@cache
def _numpy() -> Any:
    """numpy, or None on a core install without it."""
    try:
        import numpy
    except ImportError:
        return None
    return numpy


_INT, _FLOAT = {int}, {float}


def _unread(part: Any, k: int, size: int) -> str | None:
    """None when ``part`` is a ``("many", ...)`` answer of plain data for k puzzles of ``size`` cells; else why not."""
    if type(part) is tuple and len(part) == 3 and part[0] == "unread" and type(part[1]) is str:
        return part[1]
    if type(part) is not tuple or len(part) != 8 or part[0] != "many":
        return "not a batch answer"
    _, status, count, exact, raw, elapsed, stats, took = part
    for what, values in (("status", status), ("count", count), ("exact", exact)):
        if type(values) is not tuple or len(values) != k or not set(map(type, values)) <= _INT:
            return f"{what} that is not {k} whole numbers"
    if type(raw) is not bytes or len(raw) != k * size:
        return "solutions of another kind or size"
    if type(elapsed) is not tuple or len(elapsed) != k or not set(map(type, elapsed)) <= _FLOAT:
        return "elapsed times that are not k numbers"
    if type(took) is not float or not 0.0 <= took <= 1e9:
        return "no time measured"
    for pair in stats if type(stats) is tuple else [None]:
        if type(pair) is not tuple or len(pair) != 2 or type(pair[0]) is not str or type(pair[1]) is not tuple:
            return "stats that are not (name, values) pairs"
        if len(pair[1]) != k or not set(map(type, pair[1])) <= _INT:
            return f"stats[{pair[0]!r}] that are not k whole numbers"
    return None


def _values(buffer: Any, k: int, what: str) -> list[Any]:
    view = memoryview(buffer)
    if view.ndim != 1:
        # typeshed's memoryview.cast takes only literal formats, not one read from a buffer
        view = view.cast("B").cast(view.format) if view.c_contiguous else memoryview(bytes(view)).cast(view.format)  # type: ignore[call-overload]
    values = view.tolist()
    if len(values) != k:
        raise ValueError(f"{what} holds {len(values)} values for {k} puzzles")
    return values


def _items(result: Any) -> list[tuple[Any, Any]]:
    stats = result.stats
    if not isinstance(stats, Mapping):
        raise TypeError("stats is not a mapping")
    return list(stats.items())


def _problem(status: int, count: int, exact: int, solution: bytes, valid: bool, limit: int) -> str | None:
    """What is wrong with one answer, in ``result_problem``'s words for a result of at most one solution; else None."""
    if status not in (0, 1, 2):
        return f"returned status {status}, not one of 0 (solved), 1 (unsolvable), 2 (timeout)"
    if exact not in (0, 1):
        return f"returned exact {exact}, not 0 or 1"
    if count < 0 or count > limit:
        return f"returned count {count} for a limit of {limit}"
    found = 1 if solution.count(0) != len(solution) else 0
    if status == 0 and (count < 1 or not found):
        return f"returned status solved with count {count} and {found} solution{'' if found == 1 else 's'}"
    if status == 1 and (count or found or not exact):
        return (
            f"returned status unsolvable with count {count}, {found} solution{'' if found == 1 else 's'} "
            f"and exact {bool(exact)}"
        )
    if status == 2 and exact:
        return "returned status timeout with exact True"
    if found != min(count, 1):
        return f"returned {found} solution{'' if found == 1 else 's'} with count {count}"
    if found and not valid:
        return "WRONG"  # worded by result_problem, which sees the grids
    return None


# --- records ---------------------------------------------------------------------------------------


def _assemble(
    index: int,
    entries: list[tuple[str, int | None, str | None]],
    source: str | list[Record],
    out: list[Any],
    text_form: TextForm | None,
    render: Callable[[Any], Any],
    name: str,
    limit: int,
    keep: int | None,
    box: Shape | None,
) -> Many:
    """The block's records: answered ones as text where the form allows, the rest rendered as today."""
    parts: list[Any] = []
    run: list[str] = []
    answers: dict[str, int] = {}
    writer = _Writer(text_form, name) if text_form is not None else None
    records = source if isinstance(source, list) else None
    for i, item in enumerate(out):
        if type(item) is not tuple:  # rendered by the fallback
            if run:
                parts.append("\n".join(run))
                run = []
            parts.append(item)
            continue
        found, j = item
        problem = found.problems.get(j)
        where = records[i].source if records is not None else source
        if writer is not None and problem is None and found.status[j] == 0 and _plain_record(records, i):
            text, answer, note = writer.record(where, entries[i][1], found, j)  # type: ignore[arg-type]
            if note is None:
                answers[answer] = answers.get(answer, 0) + 1
                run.append(text)
                continue
            from sudokit.runtime.output import Rendered

            if run:
                parts.append("\n".join(run))
                run = []
            parts.append(Rendered(index + i, "solved", text, (), note, answer))
            continue
        puzzle, line, note = entries[i]
        record = records[i] if records is not None else Record(puzzle, str(where), line, note)
        rendered = render(_outcome(index + i, record, found, j, problem, name, limit, keep, box))
        if writer is not None and not rendered.messages and rendered.note is None:
            answers[rendered.answer or rendered.status] = answers.get(rendered.answer or rendered.status, 0) + 1
            run.append(rendered.text)
            continue
        if run:
            parts.append("\n".join(run))
            run = []
        parts.append(rendered)
    if run:
        parts.append("\n".join(run))
    return Many(index, parts, answers)


def _plain_record(records: list[Record] | None, i: int) -> bool:
    """True unless record ``i`` (a caller's) carries more than a text file's record does (a table row's columns)."""
    if records is None:
        return True
    record = records[i]
    return getattr(record, "columns", None) is None and getattr(record, "expected", None) is None


def _outcome(
    index: int,
    record: Record,
    found: _Answers,
    j: int,
    problem: str | None,
    name: str,
    limit: int,
    keep: int | None,
    box: Shape | None,
) -> Any:
    """The ``Outcome`` of puzzle ``j`` of a ``solve_many`` call, as ``solve_record`` would make it."""
    from sudokit.model.grid import Grid
    from sudokit.runtime.records import Outcome

    shape, size = found.shape, found.shape.size
    if problem is not None or found.status[j] != 0:
        try:
            grid = record.parse(box)  # a repeated given is an invalid record, as today
        except InvalidPuzzleError as err:
            return Outcome(index, record, invalid=str(err))
    else:
        grid = Grid(tuple(found.cells[j * size : (j + 1) * size]), shape, validate=False)
    elapsed = found.elapsed[j]
    if problem is not None:
        if problem == "WRONG":
            problem = _worded(found, j, grid)
        error = " ".join(f"strategy {name!r} failed: {problem}".split())
        return Outcome(index, record, grid, Result(Status.ERROR, grid, name, elapsed=elapsed, error=error))
    raw = found.raw_solutions[j * size : (j + 1) * size]
    solutions = (Grid(tuple(raw), shape, validate=False),) if raw.count(0) != size else ()
    stats = {key: values[j] for key, values in found.stats}
    status = MANY_STATUS[found.status[j]]
    result = Result(status, grid, name, solutions, found.count[j], bool(found.exact[j]), stats, elapsed)
    return Outcome(index, record, grid, result)


def _worded(found: _Answers, j: int, grid: Any, _problem: Callable[..., str | None] = result_problem) -> str:
    """``result_problem``'s words for a wrong solution (it sees the grids); bound at import, as in ``_checked``."""
    from sudokit.model.grid import Grid

    size = found.shape.size
    solution = Grid(tuple(found.raw_solutions[j * size : (j + 1) * size]), found.shape, validate=False)
    status = MANY_STATUS[found.status[j]]
    count = found.count[j]
    result = Result(status, grid, "", (solution,), count, bool(found.exact[j]), {}, found.elapsed[j])
    problem = _problem(result, grid, limit=max(count, 1), keep=1)
    return problem or "returned a solution that does not solve the puzzle"


class _Writer:
    """Line, json and csv records of answered puzzles, made from strings and numbers only."""

    def __init__(self, form: TextForm, name: str) -> None:
        import json

        from sudokit.runtime.output import csv_row

        self.form = form
        self.name = name
        self.json = json
        self.csv_row = csv_row
        self.quoted: dict[str, tuple[str, str]] = {}
        self.keys: dict[str, str] = {}
        self.strategy_json = json.dumps(name)
        self.strategy_csv = csv_row([name, "x"])[:-2]

    def _key(self, key: str) -> str:
        found = self.keys.get(key)
        if found is None:
            found = self.keys[key] = self.json.dumps(key)
        return found

    def _source(self, source: str) -> tuple[str, str]:
        found = self.quoted.get(source)
        if found is None:
            found = self.quoted[source] = (self.json.dumps(source), self.csv_row([source, "x"])[:-2])
        return found

    def record(self, source: str, line: int | None, found: _Answers, j: int) -> tuple[str, str, str | None]:
        """(text, answer for the summary, stats note or None) of a solved puzzle with a checked answer."""
        form = self.form
        size = found.shape.size
        puzzle = found.puzzles[j]
        count, exact = found.count[j], found.exact[j]
        unique = "several" if count >= 2 else "unique" if exact else "timeout"
        answer = unique if form.unique else "solved"
        elapsed = found.elapsed[j]
        note = None
        if form.stats and form.fmt != "json":
            counters = ", ".join(f"{key} {values[j]}" for key, values in found.stats)
            head = f"{self.name}: solved in {elapsed * 1000:.2f} ms"
            where = source if line is None else f"{source}:{line}"
            note = f"{where}: {head}; {counters}" if counters else f"{where}: {head}"
        if form.fmt == "line":
            if form.unique:
                return f"{puzzle}:{unique}", answer, note
            if form.counting:
                return f"{puzzle}:{count}" + ("" if exact else "+"), answer, note
            return f"{puzzle}:{found.solutions[j * size : (j + 1) * size]}", answer, note
        solution = found.solutions[j * size : (j + 1) * size]
        ms = round(elapsed * 1000, 3)
        source_json, source_csv = self._source(source)
        number = "" if line is None else str(line)
        if form.fmt == "json":
            stats = ", ".join(f"{self._key(key)}: {values[j]}" for key, values in found.stats)
            tail = f', "uniqueness": "{unique}"' if form.unique else ""
            return (
                f'{{"puzzle": "{puzzle}", "strategy": {self.strategy_json}, "status": "solved", '
                f'"solution": "{solution}", "count": {count}, "exact": {"true" if exact else "false"}, '
                f'"elapsed_ms": {ms!r}, "stats": {{{stats}}}, "error": null, "source": {source_json}, '
                f'"line": {number or "null"}{tail}}}',
                answer,
                note,
            )
        tail = f",{unique}" if form.unique else ""
        return (
            f"{puzzle},solved,{solution},{count},{'true' if exact else 'false'},{ms!r},{self.strategy_csv},"
            f"{source_csv},{number},{tail}",
            answer,
            note,
        )
