"""Output records of ``sudoku solve``: one per input puzzle, in the forms pretty, line, json and csv.

``RecordFormat`` is a picklable callable, so worker processes render their own outcomes and the
parent only writes text. Every record is one complete string: written whole, then flushed.
"""

from __future__ import annotations

import csv
import io
import json
import os
from dataclasses import dataclass
from typing import TextIO

from sudokit.batch import Outcome
from sudokit.strategy import Status

__all__ = ["CSV_FIELDS", "OUTPUT_FORMATS", "RecordFormat", "RecordWriter", "Rendered", "csv_header", "resume_point"]

OUTPUT_FORMATS = ("pretty", "line", "json", "csv")
CSV_FIELDS = ("puzzle", "status", "solution", "count", "exact", "elapsed_ms", "strategy", "source", "line", "error")


@dataclass(frozen=True, slots=True)
class Rendered:
    """One outcome as text: ``text`` for the output (may be empty), ``error`` for standard error."""

    index: int
    status: str
    text: str
    error: str | None
    elapsed: float
    note: str | None = None


def csv_header() -> str:
    """The header row of ``--format csv``."""
    return _csv_row(CSV_FIELDS)


def _csv_row(values: tuple[object, ...] | list[object]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="").writerow(values)
    return buffer.getvalue()


@dataclass(frozen=True, slots=True)
class RecordFormat:
    """Renders an outcome as an output record; ``counting`` reports counts instead of grids."""

    fmt: str = "pretty"
    counting: bool = False
    limit: int = 1
    color: bool = False
    header: bool = False
    stats: bool = False

    def __call__(self, outcome: Outcome) -> Rendered:
        record, note = outcome.record, None
        error = record.locate(outcome.error) if outcome.error else None
        if self.stats and outcome.result is not None and self.fmt in ("line", "csv"):
            note = f"{record.where}: {self.stats_text(outcome)}"  # to stderr, beside a machine-readable record
        elapsed = outcome.result.elapsed if outcome.result else 0.0
        return Rendered(outcome.index, outcome.status, self.text(outcome), error, elapsed, note)

    def text(self, outcome: Outcome) -> str:
        """The record for the output stream."""
        if self.fmt == "json":
            return json.dumps(outcome.to_dict(solutions=self.limit > 1 and not self.counting))
        if self.fmt == "line":
            return self.line(outcome)
        if self.fmt == "csv":
            d = outcome.to_dict()
            return _csv_row([("" if d[k] is None else d[k]) for k in CSV_FIELDS])
        if outcome.result is None and not self.header:
            return ""  # a lone invalid puzzle: its one-line error on stderr says it all
        return self.pretty(outcome)

    def count_text(self, outcome: Outcome) -> str:
        """``N`` for an exact count, ``N+`` when the limit stopped the count, ``timeout``."""
        result = outcome.result
        assert result is not None
        if result.status is Status.TIMEOUT:
            return "timeout"
        return f"{result.count}" if result.exact else f"{result.count}+"

    def line(self, outcome: Outcome) -> str:
        """``puzzle:answer``: the solution, the count (``--count``) or the status of a failure."""
        result = outcome.result
        if result is None or result.status is Status.ERROR:
            return f"{outcome.puzzle_text}:{outcome.status}"
        if self.counting:
            return f"{outcome.puzzle_text}:{self.count_text(outcome)}"
        if result.solution is None:
            return f"{outcome.puzzle_text}:{result.status.value}"
        return f"{outcome.puzzle_text}:{result.solution.to_line()}"

    def stats_text(self, outcome: Outcome) -> str:
        """``engine: status in X ms; counter value, ...``."""
        result = outcome.result
        assert result is not None
        counters = ", ".join(f"{key} {value}" for key, value in result.stats.items())
        head = f"{result.strategy}: {result.status.value} in {result.elapsed * 1000:.2f} ms"
        return f"{head}; {counters}" if counters else head

    def pretty(self, outcome: Outcome) -> str:
        """The solution grid with box borders (filled cells red with ``color``), or what happened."""
        result = outcome.result
        parts = [f"# {outcome.record.where}"] if self.header else []
        if result is None:
            parts.append(f"invalid: {outcome.invalid}")
        elif result.status is Status.ERROR:
            parts.append(f"error: {result.error}")
        elif self.counting:
            parts.append(self._count_sentence(outcome))
        elif not result.solutions:
            parts.append("no solution" if result.status is Status.UNSOLVABLE else "timeout: no solution found in time")
        else:
            grids = [s.to_pretty(givens=outcome.grid, color=self.color) for s in result.solutions]
            if len(grids) > 1:
                grids = [f"solution {k}:\n{g}" for k, g in enumerate(grids, 1)]
            parts.append("\n\n".join(grids))
            if result.status is Status.TIMEOUT:
                parts.append("timeout: the search for more solutions was stopped")
        if self.stats and result is not None:
            parts.append(self.stats_text(outcome))
        return "\n".join(parts)

    def _count_sentence(self, outcome: Outcome) -> str:
        result = outcome.result
        assert result is not None
        if result.status is Status.TIMEOUT:
            return f"timeout: at least {result.count} solutions found"
        if result.exact:
            return f"{result.count} solution" + ("" if result.count == 1 else "s")
        return f"at least {result.count} solutions (stopped at the limit of {self.limit})"


class RecordWriter:
    """Writes each record whole, with one ``write`` call, and flushes it at once.

    A batch killed at any moment leaves only complete records behind (at worst a torn last line,
    which ``resume_point`` cuts off). Undecodable input bytes are written back as they came.
    """

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        try:
            self.fd: int | None = stream.fileno()
        except (AttributeError, OSError, io.UnsupportedOperation):
            self.fd = None  # not a real file (a test's capture): plain writes

    def write(self, text: str) -> None:
        """Write ``text`` and a newline as one record."""
        if self.fd is None:
            self.stream.write(text + "\n")
            self.stream.flush()
            return
        self.stream.flush()  # anything written through the stream goes first
        data = (text + "\n").encode("utf-8", "surrogateescape")
        while data:
            written = os.write(self.fd, data)
            data = data[written:]


def resume_point(path: str | os.PathLike[str], *, header: bool = False) -> int:
    """How many records an output file already holds; a torn last line is cut off first.

    ``header`` says the file starts with a header line (csv) that is not a record.
    """
    try:
        handle = open(path, "r+b")  # noqa: SIM115
    except FileNotFoundError:
        return 0
    with handle:
        data = handle.read()
        end = data.rfind(b"\n") + 1
        if end < len(data):
            handle.truncate(end)
        lines = data.count(b"\n", 0, end)
    return max(0, lines - 1) if header else lines
