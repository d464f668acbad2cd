"""Output records of ``sudoku solve``: one per input puzzle, in the forms pretty, line, json, csv and fpuzzles.

``RecordFormat`` is a picklable callable, so worker processes render their own outcomes and the
parent only writes text. Every record is one complete string: written whole, then flushed. The
machine-readable forms say where each record came from (``source``, ``line``) and which puzzle it
is, which is what ``--resume`` checks before it appends to an output file (:func:`resume_point`).
"""

from __future__ import annotations

import io
import os
import stat
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, BinaryIO, TextIO

from sudokit.engines.strategy import Result, Status
from sudokit.errors import DuplicateGivenError, InvalidPuzzleError, SudokitError
from sudokit.io.reader import Record
from sudokit.model.grid import Grid
from sudokit.model.shape import Shape
from sudokit.runtime.records import INVALID, Outcome

__all__ = [
    "CHECK_CSV_FIELDS",
    "CHECK_VERDICTS",
    "CSV_FIELDS",
    "OutputError",
    "RecordFormat",
    "RecordWriter",
    "Rendered",
    "ResumeError",
    "complete_lines",
    "counters_text",
    "csv_header",
    "csv_row",
    "heading",
    "parsed_key",
    "record_key",
    "resume_point",
    "uniqueness",
]

CSV_FIELDS = ("puzzle", "status", "solution", "count", "exact", "elapsed_ms", "strategy", "source", "line", "error")
#: The csv columns of ``sudoku check`` (then ``uniqueness`` with ``--unique``); ``engines`` as in its line form.
CHECK_CSV_FIELDS = ("puzzle", "verdict", "count", "exact", "limit", "engines", "source", "line", "problems")
#: The verdicts a cross-check record may hold (``sudokit.features.crosscheck.Verdict``'s values; the
#: features sit above this module, which reads them back for ``--resume``).
CHECK_VERDICTS = ("agree", "undecided", "invalid", "error", "disagree")
#: The longest output line ``--resume`` reads as a record (a 64x64 json record with solutions fits).
MAX_RECORD = 1 << 24
#: The most solutions one record shows (pretty and json with ``--limit N``); the count goes on past it.
#: A 64x64 json record of that many (12 kB each) stays within ``MAX_RECORD``.
SHOWN_AT_MOST = 1000


class OutputError(SudokitError):
    """An output file that cannot be used as asked (it is an input, is locked, holds records, ...)."""


class ResumeError(OutputError):
    """An output file that ``--resume`` cannot continue: another format, other puzzles, not records."""


@dataclass(frozen=True, slots=True)
class Rendered:
    """One outcome as text: ``text`` for the output (may be empty), ``messages`` and ``note`` for stderr.

    ``messages`` are whole lines such as ``error: FILE:LINE: why`` (the program's name goes before
    each); ``note`` is a line of statistics; ``answer`` is what the summary counts: the status, or
    with ``--unique`` the uniqueness (for a cross-check, the verdict).
    """

    index: int
    status: str
    text: str
    messages: tuple[str, ...] = ()
    note: str | None = None
    answer: str = ""
    compared: str | None = None  # with expected solutions: same, differs, several or invalid (None: not compared)


def heading(index: int, record: Record) -> str:
    """The ``# ...`` line above a record of a batch in pretty form: ``# FILE:LINE``, or for a puzzle given as an
    argument, which has no file to name, its place among the run's puzzles (``# 2: <argument>``), as grep and
    ripgrep label several inputs."""
    if record.line is None and record.source == "<argument>":
        return f"# {index + 1}: {record.where}"
    return f"# {record.where}"


def csv_row(values: tuple[object, ...] | list[Any]) -> str:
    """One csv record (RFC 4180: a field with a comma, quote or line break is quoted); booleans as true/false."""
    import csv  # here: most runs write no csv

    buffer = io.StringIO()
    cells = ["" if v is None else ("true" if v else "false") if isinstance(v, bool) else v for v in values]
    csv.writer(buffer, lineterminator="\n").writerow(cells)
    return buffer.getvalue()[:-1]


def csv_header(*, unique: bool = False, expect: bool = False) -> str:
    """The header row of ``--format csv`` (with ``uniqueness`` for ``--unique``, ``expected`` when comparing)."""
    return csv_row(_csv_fields(unique, expect))


def _csv_fields(unique: bool, expect: bool) -> tuple[str, ...]:
    return CSV_FIELDS + (("uniqueness",) if unique else ()) + (("expected",) if expect else ())


def counters_text(stats: Mapping[str, object]) -> str:
    """An engine's counters for people: ``nodes 12, wall_time 4.54 ms, ratio 0.3333``.

    Whole numbers as they are; a float counter of time (its name holds ``time`` or ``start``: seconds)
    in us, ms or s to three significant digits, any other float to four. JSON records keep the full values.
    """
    parts = []
    for key, value in stats.items():
        if isinstance(value, float) and ("time" in key or "start" in key):
            if abs(value) >= 1:
                text = f"{value:.3g} s"
            elif abs(value) >= 0.001 or not value:
                text = f"{value * 1000:.3g} ms"
            else:  # under a millisecond: 0.00899 ms reads as 8.99 us
                text = f"{value * 1e6:.3g} us"
        elif isinstance(value, float):
            text = f"{value:.4g}"
        else:
            text = str(value)
        parts.append(f"{key} {text}")
    return ", ".join(parts)


class _Unset:
    """Stands for an argument not given (None is an answer of :meth:`RecordFormat.compare`)."""


_UNSET = _Unset()

#: The statuses of an engine that gave no answer: it failed, or it does not take the puzzle's rules.
_NOT_RUN = (Status.ERROR, Status.UNSUPPORTED)


def uniqueness(outcome: Outcome) -> str:
    """``unique``, ``several``, ``none`` or ``timeout`` (undecided); ``invalid`` or ``error`` for a failure."""
    result = outcome.result
    if result is None:
        return INVALID
    if result.status in _NOT_RUN:
        return result.status.value
    if result.count >= 2:
        return "several"
    if result.status is Status.UNSOLVABLE:
        return "none"
    if result.status is Status.SOLVED and result.exact:
        return "unique"
    return "timeout"


@dataclass(frozen=True, slots=True)
class RecordFormat:
    """Renders an outcome as an output record.

    ``counting`` reports counts instead of grids (``--count``), ``unique`` the uniqueness
    (``--unique``); ``limit`` is the number of solutions asked for; with ``stats`` the engine's
    counters go with the record (pretty, json) or to stderr (line, csv). With ``expect`` each record
    of a table row with an expected solution says how the answer compares (:meth:`compare`): an
    ``expected`` field (json), column (csv), a last ``:same`` (line) or a line (pretty).
    """

    fmt: str = "pretty"
    counting: bool = False
    limit: int = 1
    color: bool = False
    header: bool = False
    stats: bool = False
    unique: bool = False
    expect: bool = False

    def keep(self) -> int:
        """How many solutions a record shows, and so how many an engine need keep (it counts on past them).

        One, but pretty and json (not ``--unique``, whose json has one) with a limit above 1 list the
        solutions found, up to ``SHOWN_AT_MOST``.
        """
        if self.counting:
            return 1
        lists = self.fmt == "pretty" or (self.fmt == "json" and not self.unique)
        return min(self.limit, SHOWN_AT_MOST) if lists else 1

    def first_line(self) -> str | None:
        """The line before the records: the csv header, else None."""
        return csv_header(unique=self.unique, expect=self.expect) if self.fmt == "csv" else None

    def __call__(self, outcome: Outcome) -> Rendered:
        record, note = outcome.record, None
        error = record.locate(outcome.error) if outcome.error else None
        if self.stats and outcome.result is not None and self.fmt in ("line", "csv", "fpuzzles"):
            note = f"{record.where}: {self.stats_text(outcome.result)}"  # to stderr, beside a machine-readable record
        answer = uniqueness(outcome) if self.unique else outcome.status
        messages: tuple[str, ...] = (f"error: {error}",) if error else ()
        compared = self.compare(outcome)
        if compared not in (None, "same"):
            messages += (f"{compared}: {self._mismatch(outcome, compared)}",)
        if self.fmt == "fpuzzles":
            text, problem = self.link(outcome)
            messages += (f"error: {record.locate(problem)}",) if problem else ()
        else:
            text = self.text(outcome, compared)
        return Rendered(outcome.index, outcome.status, text, messages, note, answer, compared)

    def compare(self, outcome: Outcome) -> str | None:
        """How the answer compares with the record's expected solution: same, differs, several or invalid.

        None when not comparing, for a record without an expected solution, and for a puzzle that
        did not parse, timed out or failed (its status says so). An empty expected cell expects no
        solution. Without ``unique`` only the solution found is compared: a puzzle with several
        solutions may give another one.
        """
        record, result = outcome.record, outcome.result
        if not self.expect or record.expected is None or result is None or outcome.grid is None:
            return None
        if self.unique and result.count >= 2:
            return "several"
        if result.status is Status.UNSOLVABLE:
            return "same" if not record.expected else "differs"
        if result.status is not Status.SOLVED or result.solution is None:
            return None
        if not record.expected:
            return "differs"
        found = result.solution.to_line()
        if record.expected == found:
            return "same"
        try:
            expected = Grid.parse(record.expected, outcome.grid.shape)
        except DuplicateGivenError:
            return "differs"  # a whole grid, but no solution: a digit repeats
        except InvalidPuzzleError:
            return "invalid"
        return "same" if expected.to_line() == found else "differs"

    def _mismatch(self, outcome: Outcome, compared: str) -> str:
        """The one-line message of a comparison that is not ``same``: where, and what."""
        record = outcome.record
        column = record.columns.expected if record.columns is not None else None
        if compared == "several":
            why = f"the puzzle has several solutions (expected the one in column {column})"
        elif compared == "invalid":
            try:
                Grid.parse(record.expected or "", outcome.grid.shape if outcome.grid else None)
                why = f"column {column} does not hold a grid"
            except InvalidPuzzleError as err:
                why = f"column {column} does not hold a grid: {err}"
        elif not record.expected:
            why = f"solved, but column {column} is empty: no solution expected"
        elif outcome.result is not None and outcome.result.status is Status.UNSOLVABLE:
            why = f"no solution, but column {column} holds one"
        else:
            why = f"the solution found is not the one in column {column}"
        return f"{record.where}: {why}"

    def text(self, outcome: Outcome, compared: str | _Unset | None = _UNSET) -> str:
        """The record for the output stream (``compared``: :meth:`compare`'s answer, if the caller has it)."""
        if isinstance(compared, _Unset):
            compared = self.compare(outcome)
        if self.fmt == "json":
            import json  # here: most runs write no json

            return json.dumps(self.to_dict(outcome, compared), allow_nan=False)
        if self.fmt == "line":
            return self.line(outcome) + (f":{compared}" if compared else "")
        if self.fmt == "fpuzzles":
            return self.link(outcome)[0]
        if self.fmt == "csv":
            d = self.to_dict(outcome, compared)
            return csv_row([d[k] for k in _csv_fields(self.unique, self.expect)])
        if (outcome.result is None or outcome.result.status in _NOT_RUN) and not self.header:
            return ""  # a lone puzzle that failed: its one-line error on stderr says it all
        text = self.pretty(outcome)
        return f"{text}\nexpected: {compared}" if compared else text

    def to_dict(self, outcome: Outcome, compared: str | _Unset | None = _UNSET) -> dict[str, object]:
        """The JSON record: puzzle, strategy, status, solution, count, exact, elapsed_ms, stats, error, source, line.

        A variant puzzle's record also has ``variant``, the whole puzzle in sudokit's JSON form
        (``puzzle`` is its givens in the line form).

        With a limit above 1 (not counting) ``solutions`` lists the solutions found (the first
        ``SHOWN_AT_MOST``; ``count`` says how many); with ``unique``, ``uniqueness`` says unique,
        several, none or timeout.
        """
        result = outcome.result
        data: dict[str, object] = {
            "puzzle": outcome.puzzle_text,
            "strategy": None if result is None else result.strategy,
            "status": outcome.status,
            "solution": None if result is None or result.solution is None else result.solution.to_line(),
            "count": None if result is None else result.count,
            "exact": None if result is None else result.exact,
            "elapsed_ms": 0.0 if result is None else round(result.elapsed * 1000, 3),
            "stats": {} if result is None else dict(result.stats),
            "error": outcome.error,
            "source": outcome.record.source,
            "line": outcome.record.line,
        }
        if outcome.grid is not None and not outcome.grid.is_classic:
            from sudokit.model.variants import to_dict  # here: classic records never need it

            data["variant"] = to_dict(outcome.grid)  # the whole puzzle: "puzzle" holds its givens alone
        if self.limit > 1 and not self.counting and not self.unique:
            data["solutions"] = [] if result is None else [g.to_line() for g in result.solutions]
        if self.unique:
            data["uniqueness"] = uniqueness(outcome)
        if self.expect:
            data["expected"] = self.compare(outcome) if isinstance(compared, _Unset) else compared
        return data

    def count_text(self, result: Result) -> str:
        """``N`` for an exact count, ``N+`` when the limit stopped the count, ``timeout:N+`` when time did."""
        if result.status is Status.TIMEOUT:
            return f"timeout:{result.count}+"  # the solutions found in time, as pretty says and json/csv's count
        return f"{result.count}" if result.exact else f"{result.count}+"

    def line(self, outcome: Outcome) -> str:
        """``puzzle:answer``: the solution, the count (``--count``), the uniqueness, or the status of a failure."""
        result = outcome.result
        if result is None or result.status in _NOT_RUN:
            return f"{outcome.puzzle_text}:{outcome.status}"
        if self.unique:
            return f"{outcome.puzzle_text}:{uniqueness(outcome)}"
        if self.counting:
            return f"{outcome.puzzle_text}:{self.count_text(result)}"
        if result.solution is None:
            return f"{outcome.puzzle_text}:{result.status.value}"
        return f"{outcome.puzzle_text}:{result.solution.to_line()}"

    def refusal(self, grid: Grid) -> str | None:
        """Why this form cannot write a record of ``grid`` at all, checked before it is solved (None: it can).

        Only ``fpuzzles`` refuses: a puzzle f-puzzles cannot hold (a board above 16x16, say) gets no
        link, so it is not solved; its record is the input as read, like a puzzle that does not parse.
        """
        if self.fmt != "fpuzzles":
            return None
        from sudokit.io.links import to_fpuzzles  # here: only this form writes links

        try:
            to_fpuzzles(grid)
        except InvalidPuzzleError as err:
            return str(err)
        return None

    def link(self, outcome: Outcome) -> tuple[str, str | None]:
        """The puzzle's f-puzzles link, with its solution when solved; and why there is none, if so.

        A record that did not parse, or that f-puzzles cannot hold (:meth:`refusal`: it was not
        solved), is the input as read; should the link still fail, the record falls back to the
        ``line`` form, and the reason goes to stderr.
        """
        if outcome.grid is None:
            return outcome.record.as_read, None
        from sudokit.io.links import fpuzzles_link  # here: only this form writes links

        result = outcome.result
        solution = result.solution if result is not None and result.status is Status.SOLVED else None
        try:
            return fpuzzles_link(outcome.grid, solution), None
        except InvalidPuzzleError as err:
            return self.line(outcome), f"no f-puzzles link: {err}"

    def stats_text(self, result: Result) -> str:
        """``engine: status in X ms; counter value, ...``."""
        counters = counters_text(result.stats)
        head = f"{result.strategy}: {result.status.value} in {result.elapsed * 1000:.2f} ms"
        return f"{head}; {counters}" if counters else head

    def pretty(self, outcome: Outcome) -> str:
        """The solution grid with box borders (filled cells red with ``color``), or what happened."""
        result = outcome.result
        parts = [heading(outcome.index, outcome.record)] if self.header else []
        if result is None:
            parts.append(f"invalid: {outcome.invalid}")
        elif result.status in _NOT_RUN:
            parts.append(f"{result.status.value}: {result.error}")
        elif self.counting:
            parts.append(self._count_sentence(result))
        elif self.unique:
            parts.append(self._unique_sentence(outcome))
        elif not result.solutions:
            parts.append("no solution" if result.status is Status.UNSOLVABLE else "timeout: no solution found in time")
        else:
            parts.append(self._grids(outcome, result))
            if result.status is Status.TIMEOUT:
                parts.append("timeout: the search for more solutions was stopped")
        if self.stats and result is not None:
            parts.append(self.stats_text(result))
        return "\n".join(parts)

    # --- reading a record back (--resume) -----------------------------------------------------------------

    def fits(
        self,
        text: str,
        record: Record,
        key: RecordKey,
        grid: Grid | _Unset | None = _UNSET,
        *,
        box: Shape | None = None,
        strategy: str | None = None,
        engines: Collection[str] | None = None,
    ) -> str | None:
        """Why ``text``, read back from an output file, is not a record this format writes for ``record`` (or None).

        What a run writes shows in each record: the kind of answer of a line record (a solution, a
        count with ``counting``, a uniqueness with ``unique``, a comparison last with ``expect``), the
        fields of a json record, and in json and csv the engine (``strategy``, when given; a record of
        another is refused when it is one of ``engines``, the names the registry knows, if given), the
        count as far as ``limit`` (exact below it), the uniqueness. A solution must solve the puzzle
        as this run reads it (with ``box``): a record of another --box, or a damaged one, does not.
        ``key`` is (puzzle, source, line) as the record names its puzzle, ``grid`` the record's puzzle
        (None: it does not parse), if the caller has it.
        """
        if isinstance(grid, _Unset):
            grid = parsed_key(record, box)[1]
        if self.fmt == "line":
            return self._fits_line(text[len(key[0]) + 1 :], grid, box)
        if self.fmt == "json":
            import json

            data = json.loads(text)
            fields = set(_JSON_FIELDS)
            fields |= {"variant"} if grid is not None and not grid.is_classic else set()
            fields |= {"solutions"} if self.limit > 1 and not self.counting and not self.unique else set()
            fields |= {"uniqueness"} if self.unique else set()
            fields |= {"expected"} if self.expect else set()
            if set(data) != fields:
                return _other_fields(set(data), fields)
        elif self.fmt == "csv":
            import csv

            rows = list(csv.reader(text.splitlines(keepends=True)))
            data = dict(zip(_csv_fields(self.unique, self.expect), rows[0], strict=False)) if rows else {}
            data = {k: None if v == "" else {"true": True, "false": False}.get(v, v) for k, v in data.items()}
            if data.get("count") is not None:
                data["count"] = int(data["count"]) if str(data["count"]).isdigit() else data["count"]
        else:
            return None
        return self._fits_fields(data, grid, box, strategy, engines)

    def _fits_line(self, answer: str, grid: Grid | None, box: Shape | None) -> str | None:
        """Why the answer of a line record (after ``puzzle:``) is not one this run writes."""
        if self.expect:
            head, sep, tail = answer.rpartition(":")
            if sep and tail in _COMPARED:
                answer = head
        if grid is None or answer in _NOT_RUN_TEXT:
            return _invalid_problem(answer == INVALID, grid, box)
        if self.unique:
            if answer in _UNIQUENESS:
                return None
            return f"{_short(answer)} is not what --unique says (unique, several, none or timeout)"
        if self.counting:
            partial = answer.removeprefix("timeout:")  # timeout:N+, the solutions found in time (before: timeout)
            if answer == "timeout" or (partial != answer and partial[:-1].isdigit() and partial.endswith("+")):
                return None
            number = answer[:-1] if answer.endswith("+") else answer
            if number.isdigit() and int(number) <= self.limit:
                return None
            return f"{_short(answer)} is not a count of --count (up to {self.limit})"
        if answer in (Status.UNSOLVABLE.value, Status.TIMEOUT.value):
            return None
        return self._solution_problem(answer, grid)

    def _fits_fields(
        self,
        data: dict[str, Any],
        grid: Grid | None,
        box: Shape | None,
        strategy: str | None,
        engines: Collection[str] | None,
    ) -> str | None:
        """Why the fields of a json or csv record are not this run's."""
        status, count, exact = data.get("status"), data.get("count"), data.get("exact")
        if (grid is None) != (status == INVALID):
            return _invalid_problem(status == INVALID, grid, box)
        engine = data.get("strategy")
        if (
            strategy is not None
            and engine is not None
            and engine != strategy
            and (engines is None or engine in engines)
        ):
            return f"it was solved by {_short(engine)}, not by {strategy!r} (--strategy)"
        if grid is None or status in _NOT_RUN_TEXT:
            return None
        if self.unique and data.get("uniqueness") not in _UNIQUENESS:
            return f"uniqueness {_short(data.get('uniqueness'))} is not what --unique says"
        solution = data.get("solution")
        if solution is not None:
            problem = self._solution_problem(str(solution), grid)
            if problem is not None:
                return problem
        solved = status == Status.SOLVED.value
        if solved and (type(count) is not int or count > self.limit or exact != (count < self.limit)):
            shown = "true" if exact is True else "false" if exact is False else _short(exact)
            stops = f"{self.limit} solution" + ("s" if self.limit > 1 else "")
            return f"count {_short(count)}, exact {shown} (this run stops at {stops}: --count, --unique, --limit)"
        return None

    def _solution_problem(self, text: str, grid: Grid) -> str | None:
        """Why ``text`` is not a solution of ``grid`` (the puzzle as this run reads it), or None."""
        from sudokit.engines.verify import is_solution

        try:
            solution = Grid.parse(text, grid.shape)
        except InvalidPuzzleError:
            solution = None
        if solution is None or not is_solution(grid, solution):
            return f"{_short(text)} is not a solution of the puzzle (box {grid.shape})"
        return None

    def _grids(self, outcome: Outcome, result: Result) -> str:
        grids = [s.to_pretty(givens=outcome.grid, color=self.color) for s in result.solutions]
        if len(grids) > 1:
            grids = [f"solution {k}:\n{g}" for k, g in enumerate(grids, 1)]
        if result.count > len(grids) > 0:
            grids.append(f"(the first {len(grids)} of the {result.count} solutions found are shown)")
        return "\n\n".join(grids)

    def _count_sentence(self, result: Result) -> str:
        if result.status is Status.TIMEOUT:
            return f"timeout: at least {_solutions(result.count)} found"
        if result.exact:
            return _solutions(result.count)
        return f"at least {_solutions(result.count)} (stopped at the limit of {self.limit})"

    def _unique_sentence(self, outcome: Outcome) -> str:
        result = outcome.result
        assert result is not None
        answer = uniqueness(outcome)
        if answer == "unique":
            return f"unique: one solution\n{self._grids(outcome, result)}"
        if answer == "several":
            return f"several: at least two solutions\n{self._grids(outcome, result)}"
        if answer == "none":
            return "none: no solution"
        return "timeout: uniqueness not decided in time"


def _solutions(count: int) -> str:
    """``1 solution``, ``2 solutions``: a record's count (plain digits, as its line, json and csv forms write it)."""
    return f"{count} solution" + ("" if count == 1 else "s")


#: The fields of every json record of ``sudoku solve``.
_JSON_FIELDS = (*CSV_FIELDS, "stats")
#: What a comparison with an expected solution says (the last field of a line record with ``expect``).
_COMPARED = ("same", "differs", "several", "invalid")
#: What --unique says of a puzzle that ran.
_UNIQUENESS = ("unique", "several", "none", "timeout")
#: The answers of a puzzle that did not run: it did not parse, the engine failed or does not take it.
_NOT_RUN_TEXT = (INVALID, Status.ERROR.value, Status.UNSUPPORTED.value)


def _other_fields(have: set[str], want: set[str]) -> str:
    """Which fields a json record has that this run's have not, and lacks that they have."""
    parts = []
    if have - want:
        parts.append(f"with {', '.join(sorted(have - want))}")
    if want - have:
        parts.append(f"without {', '.join(sorted(want - have))}")
    return f"its fields are not this run's ({'; '.join(parts)})"


def _invalid_problem(invalid: bool, grid: Grid | None, box: Shape | None) -> str | None:
    """Why a record saying ``invalid`` (or not) is not this run's, whose reading of the puzzle is ``grid``."""
    where = "" if box is None else f" with --box {box}"
    if invalid and grid is not None:
        return f"it says invalid, but this run reads the puzzle{where}"
    if not invalid and grid is None:
        return f"it has an answer, but this run finds the puzzle invalid{where}"
    return None


def _short(value: object) -> str:
    """A value read back from a file, shown short."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class RecordWriter:
    """Writes each record whole, with one ``write`` call, and flushes it at once.

    A batch killed at any moment leaves only complete records behind (at worst a torn last line,
    which ``resume_point`` cuts off). Undecodable input bytes are written back as they came.
    ``name`` says where the records go, for error messages.
    """

    def __init__(self, stream: TextIO, name: str) -> None:
        self.stream = stream
        self.name = name
        try:
            self.fd: int | None = stream.fileno()
        except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
            self.fd = None  # not a real file (a test's capture): plain writes

    def write(self, text: str) -> None:
        """Write ``text`` and a newline as one record; ``OutputError`` naming the file if that fails.

        ``BrokenPipeError`` passes through: the reader went away, which is not an error of ours.
        """
        self._put(text + "\n")

    def write_lines(self, data: bytes) -> None:
        """Write ``data``, whole records each with its newline (a block's, made as bytes), as :meth:`write` does."""
        self._put(data)

    def _put(self, text: str | bytes) -> None:
        try:
            if self.fd is None:
                self.stream.write(text if isinstance(text, str) else text.decode("utf-8", "surrogateescape"))
                self.stream.flush()
                return
            self.stream.flush()  # anything written through the stream goes first
            data = memoryview(text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text)
            while data:
                data = data[os.write(self.fd, data) :]
        except BrokenPipeError:
            raise
        except OSError as err:
            raise OutputError(f"cannot write {self.name}: {err.strerror or err}") from None


# --- resuming --------------------------------------------------------------------------------------

#: How a record of each kind names its puzzle and where it came from: (puzzle, source, line).
RecordKey = tuple[str, str | None, int | None]


def record_key(record: Record, box: Shape | None = None) -> RecordKey:
    """(puzzle, source, line) as an output record names ``record``: its line form, or the text as read."""
    return parsed_key(record, box)[0]


def parsed_key(record: Record, box: Shape | None = None) -> tuple[RecordKey, Grid | None]:
    """:func:`record_key`, and the record's grid (None: it does not parse)."""
    try:
        grid: Grid | None = record.parse(box)
    except InvalidPuzzleError:
        grid = None
    text = record.as_read if grid is None else grid.to_line()
    return (text, record.source, record.line), grid


#: Says why a record read back is not one this run writes for an input record, or None: (text, record, key).
Fits = Callable[[str, Record, RecordKey], "str | None"]


def resume_point(
    handle: BinaryIO,
    name: str,
    fmt: str,
    expected: Iterator[tuple[RecordKey, Record]],
    *,
    header: str | None = None,
    kind: str = "status",
    fits: Fits | None = None,
) -> tuple[int, int]:
    """Check that an output file continues this run; (records it holds, where its complete records end).

    ``handle`` is the output file open for reading, ``expected`` the (puzzle, source, line) of the
    run's input records in order, each with its record (drawn only as far as the file goes),
    ``header`` the csv header line the file must start with, ``kind`` the key every json record has
    (``status`` for solve, ``verdict`` for check), ``fits`` the job's check that a record is one this
    very run writes (its kind of answer, its fields, its engine; a solution that solves the puzzle).
    The file is read streamed. A last line without its newline is torn: it is not counted, and the
    caller cuts the file at the offset returned. Raises ``ResumeError`` naming the file and the line
    when the file holds another format, other puzzles, records of another kind of run, more records
    than the input, or lines that are not records; nothing is written.
    """
    try:
        mode = os.fstat(handle.fileno()).st_mode
    except (AttributeError, OSError, io.UnsupportedOperation):
        mode = stat.S_IFREG
    if not stat.S_ISREG(mode):
        raise ResumeError(f"cannot resume {name}: not a regular file")
    parse = _key_reader(fmt, kind)
    count = end = 0  # records checked, the offset after the last complete one
    pending, quotes, first = bytearray(), 0, 0  # a csv record whose quoted field spans lines: its quotes, first line
    for number, raw in complete_lines(handle, name):
        pending += raw
        first = first or number
        if fmt == "csv":
            quotes += raw.count(b'"')
            if quotes % 2:  # inside a quoted field: the record goes on
                if len(pending) > MAX_RECORD:
                    raise ResumeError(f"cannot resume {name}: line {first} opens a quoted field that does not end")
                continue
        text = pending.decode("utf-8", "surrogateescape").rstrip("\r\n")
        pending, quotes, at = bytearray(), 0, first
        first = 0
        if header is not None and at == 1:
            if text != header:
                raise ResumeError(f"cannot resume {name}: line 1 is not the csv header of this run ({header})")
        else:
            item = next(expected, None)
            try:  # a line record is read knowing its puzzle: the text of one that did not parse may hold ':'
                key = parse(text) if fmt != "line" or item is None else _line_key(text, item[0][0])
            except ValueError as err:
                raise ResumeError(
                    f"cannot resume {name}: line {at} is not a {fmt} record of this run ({err})"
                ) from None
            if item is None:
                raise ResumeError(f"cannot resume {name}: it holds more records than the input has puzzles")
            want, record = item
            if not _same(key, want):
                raise ResumeError(
                    f"cannot resume {name}: line {at} is the record of {_shown(key)}, but puzzle {count + 1} of "
                    f"this run is {_shown(want)}"
                )
            why = None if fits is None else fits(text, record, want)
            if why is not None:
                raise ResumeError(f"cannot resume {name}: line {at} is not a record this run writes: {why}")
            count += 1
        end = handle.tell()
    return count, end


def complete_lines(handle: BinaryIO, name: str) -> Iterator[tuple[int, bytes]]:
    """The complete lines of an output file to resume (``handle`` reads the file ``name``), numbered from 1,
    each with its line end; ``handle.tell()`` is then the offset after it. A last line without its newline is
    torn: it ends the lines (the caller cuts it off and writes it again). No line is read past
    ``MAX_RECORD`` bytes: a longer one raises ``ResumeError`` naming the file and the line."""
    for number, raw in enumerate(iter(lambda: handle.readline(MAX_RECORD + 1), b""), 1):
        if len(raw) > MAX_RECORD:
            raise ResumeError(f"cannot resume {name}: line {number} is longer than {MAX_RECORD:,} bytes: not a record")
        if not raw.endswith(b"\n"):
            return
        yield number, raw


def _same(key: RecordKey, want: RecordKey) -> bool:
    puzzle, source, line = key
    return puzzle == want[0] and (source is None or source == want[1]) and (line is None or line == want[2])


def _shown(key: RecordKey) -> str:
    puzzle, source, line = key
    where = f" ({source}:{line})" if source is not None and line is not None else f" ({source})" if source else ""
    text = puzzle if len(puzzle) <= 90 else puzzle[:87] + "..."
    return f"{text!r}{where}"


def _key_reader(fmt: str, kind: str) -> Callable[[str], RecordKey]:
    """A function reading (puzzle, source, line) from one record of the format, or raising ValueError."""
    if fmt == "json":
        import json

        def from_json(text: str) -> RecordKey:
            try:
                data: Any = json.loads(text)
            except ValueError:
                raise ValueError("not JSON") from None
            if not isinstance(data, dict) or not isinstance(data.get("puzzle"), str) or kind not in data:
                raise ValueError(f"not a record with puzzle and {kind}")
            source, line = data.get("source"), data.get("line")
            if not isinstance(source, str | None) or not isinstance(line, int | None) or isinstance(line, bool):
                raise ValueError("a bad source or line")
            return data["puzzle"], source, line

        return from_json
    if fmt == "csv":
        import csv

        fields = CHECK_CSV_FIELDS if kind == "verdict" else CSV_FIELDS

        def from_csv(text: str) -> RecordKey:
            rows = list(csv.reader([text] if "\n" not in text else text.splitlines(keepends=True)))
            if len(rows) != 1 or len(rows[0]) < len(fields):
                raise ValueError(f"not a row of {len(fields)} fields")
            row = dict(zip(fields, rows[0], strict=False))
            if kind == "verdict":
                if row["verdict"] not in CHECK_VERDICTS:
                    raise ValueError(f"verdict {row['verdict']!r}")
            elif row["status"] not in (*(s.value for s in Status), INVALID):
                raise ValueError(f"status {row['status']!r}")
            line = row["line"]
            if line and not line.isdigit():
                raise ValueError(f"line {line!r}")
            return row["puzzle"], row["source"], int(line) if line else None

        return from_csv

    return _line_key


def _line_key(text: str, puzzle: str | None = None) -> RecordKey:
    """(puzzle, None, None) of a line record ``puzzle:answer``; ``puzzle``: the one it should name, if known.

    A known puzzle may be empty: an input row whose text could not be read (a CSV quote left open) is
    written ``:invalid``.
    """
    if puzzle is not None and text.startswith(puzzle + ":") and len(text) > len(puzzle) + 1:
        return puzzle, None, None
    if text.startswith("{"):
        raise ValueError("a json record")
    found, sep, answer = text.partition(":")
    if not sep or not found or not answer:
        raise ValueError("not puzzle:answer")
    return found, None, None
