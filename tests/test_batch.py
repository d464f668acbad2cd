"""Batch solving: ``sudoku solve FILE --jobs N --output OUT`` and ``solve_records`` from Python.

What users rely on: one record per input puzzle, in input order, failed puzzles included; the same
records whatever the number of worker processes; the exit status and the summary; no worker left behind.
"""

from __future__ import annotations

import csv
import json
import os
import random
import re
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

import pytest

from sudokit import Grid, is_solution, solve
from sudokit.io.reader import Record, iter_records, read_file
from sudokit.runtime.batch import solve_records
from sudokit.runtime.output import CSV_FIELDS, RecordFormat, Rendered
from sudokit.runtime.records import Outcome
from tests.conftest import sudoku

from .conftest import counted, puzzles
from .test_time_limits import children

FORMATS = ("line", "json", "csv")
FAILED = ("unsolvable", "timeout", "invalid", "error")
SUMMARY = re.compile(
    r"^(\d+) puzzles: (\d+) solved, (\d+) unsolvable, (\d+) timed out, (\d+) invalid(?:, \d+ engine errors)?"
    r" in [\d.]+ s \(([\d.,]+) puzzles/s\)$"  # the rate with thousands separated (1,939.7)
)
PROGRESS_MARKS = ("\r", "\x1b[K", "[#", "[-", "elapsed")


# --- helpers ------------------------------------------------------------------------------------


def run(args: list[str], **kwargs) -> subprocess.CompletedProcess[str]:  # type: ignore[no-untyped-def]
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "PYTHONWARNINGS")}
    return subprocess.run(args, text=True, timeout=60, env=env, check=False, **kwargs)


def workers() -> set[int]:
    """This process's running children that are the pool's workers: forked copies of it, or interpreters spawned
    for it (multiprocessing's ``spawn_main``, under ``SUDOKIT_START_METHOD=spawn``), not other helpers."""
    with open(f"/proc/{os.getpid()}/cmdline", "rb") as own:
        mine = own.read()
    found = set()
    for pid in children():
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                line = cmdline.read()
                if line == mine or b"multiprocessing.spawn import spawn_main" in line:
                    found.add(pid)
        except OSError:
            continue  # ended meanwhile
    return found


def assert_no_workers_left() -> None:
    """Every worker process has ended (they may take a moment to be reaped)."""
    deadline = time.monotonic() + 60  # a hang guard: it returns once they are gone
    while workers() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert workers() == set()


def near_solved(count: int) -> list[str]:
    """Puzzles any order solves in a few dozen nodes: easy50 solutions with every third cell cleared."""
    result = []
    for text in puzzles("easy50.txt")[:count]:
        solution = solve(text).solution
        assert solution is not None
        result.append("".join("." if k % 3 == 0 else c for k, c in enumerate(solution.to_line())))
    return result


@dataclass(frozen=True)
class Expected:
    """One input puzzle: its text, its line in the file and the status its record must have."""

    text: str
    line: int
    status: str


def write_batch(path: Path, items: list[tuple[str, str]]) -> list[Expected]:
    """Write (text, status) puzzles to ``path`` with a comment and a blank line among them."""
    lines: list[str] = ["# a batch for the tests"]
    expected = []
    for k, (text, status) in enumerate(items):
        if k == len(items) // 2:
            lines += ["", "# halfway"]
        lines.append(text)
        expected.append(Expected(text, len(lines), status))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return expected


def invalid_lines(base: str) -> list[str]:
    """Three ways a puzzle line can be wrong: a repeated digit, a bad character, a cell missing."""
    return ["55" + base[2:], base[:12] + "?" + base[13:], base[:-1]]


def mixed_items() -> list[tuple[str, str]]:
    """200 17-clue puzzles from all over the file, with invalid and unsolvable lines in the middle."""
    items = [(text, "solved") for text in puzzles("17clue.txt")[::97][:200]]
    unsolvable = [t for t, c in counted() if c == 0][:2]
    bad = invalid_lines(items[0][0])
    for position, text, status in [
        (40, bad[0], "invalid"),
        (41, unsolvable[0], "unsolvable"),
        (100, bad[1], "invalid"),
        (150, bad[2], "invalid"),
        (170, unsolvable[1], "unsolvable"),
    ]:
        items.insert(position, (text, status))
    return items


@dataclass(frozen=True)
class Got:
    """One output record, whatever its format; ``line`` is None in the line format (it has none)."""

    puzzle: str
    status: str
    solution: str | None
    line: int | None


def parse_output(fmt: str, text: str) -> list[Got]:
    if fmt == "line":
        got = []
        for record in text.splitlines():
            puzzle, answer = record.rsplit(":", 1)
            failed = answer in FAILED
            got.append(Got(puzzle, answer if failed else "solved", None if failed else answer, None))
        return got
    if fmt == "json":
        objects = [json.loads(record) for record in text.splitlines()]
        return [Got(o["puzzle"], o["status"], o["solution"], o["line"]) for o in objects]
    rows = list(csv.reader(text.splitlines()))
    assert tuple(rows[0]) == CSV_FIELDS
    dicts = [dict(zip(CSV_FIELDS, row, strict=True)) for row in rows[1:]]
    return [Got(d["puzzle"], d["status"], d["solution"] or None, int(d["line"])) for d in dicts]


def same_puzzle(a: str, b: str) -> bool:
    """True when two puzzle texts are the same board (or the same bad text, spaces aside)."""
    try:
        return Grid.parse(a) == Grid.parse(b)
    except ValueError:
        return a.replace(" ", "") == b.replace(" ", "")


def check_records(got: list[Got], expected: list[Expected]) -> None:
    """Exactly one record per input puzzle, in input order, each with its status; solutions valid."""
    assert len(got) == len(expected)
    for want, record in zip(expected, got, strict=True):
        assert record.status == want.status, (want, record)
        assert same_puzzle(record.puzzle, want.text), (want, record)
        if record.line is not None:
            assert record.line == want.line
        if want.status == "solved":
            assert record.solution is not None
            assert is_solution(Grid.parse(want.text), Grid.parse(record.solution)), (want, record)
        else:
            assert record.solution is None


def without_times(fmt: str, text: str) -> list[object]:
    """The records with their timings (elapsed_ms, stats) left out, for comparing two runs."""
    if fmt == "json":
        return [{k: v for k, v in json.loads(r).items() if k not in ("elapsed_ms", "stats")} for r in text.splitlines()]
    if fmt == "csv":
        drop = CSV_FIELDS.index("elapsed_ms")
        return [row[:drop] + row[drop + 1 :] for row in csv.reader(text.splitlines())]
    return text.splitlines()


def summary_counts(stderr: str) -> tuple[int, ...]:
    """(puzzles, solved, unsolvable, timed out, invalid) from the summary, the last line of stderr."""
    match = SUMMARY.match(stderr.strip().splitlines()[-1])
    assert match, stderr
    assert float(match[6].replace(",", "")) > 0  # puzzles/s
    return tuple(int(match[k]) for k in range(1, 6))


def expected_counts(expected: list[Expected]) -> tuple[int, ...]:
    by = Counter(e.status for e in expected)
    return (len(expected), by["solved"], by["unsolvable"], by["timeout"], by["invalid"])


def error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.strip().splitlines() if not SUMMARY.match(line)]


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Expected]]:
    """A file of 205 puzzles: 200 solvable, 2 unsolvable and 3 invalid lines, as items and lines."""
    path = tmp_path_factory.mktemp("batch") / "mixed.txt"
    return path, write_batch(path, mixed_items())


# --- sudoku solve FILE --jobs N --output OUT ------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_one_record_per_puzzle_in_order_with_one_or_two_jobs(
    tmp_path: Path, mixed: tuple[Path, list[Expected]], fmt: str
) -> None:
    path, expected = mixed
    outputs = {}
    for jobs in (1, 2):
        out = tmp_path / f"out-{jobs}.{fmt}"
        result = sudoku("solve", str(path), "--jobs", str(jobs), "--output", str(out), "--format", fmt)
        assert result.exit_code == 2  # the invalid lines; their records are written all the same
        assert result.stdout == ""
        errors = error_lines(result.stderr)
        assert len(errors) == 3
        bad_lines = [e.line for e in expected if e.status == "invalid"]
        for error, line in zip(errors, bad_lines, strict=True):
            assert error.startswith(f"sudoku: error: {path}:{line}: ")
        assert summary_counts(result.stderr) == expected_counts(expected) == (205, 200, 2, 0, 3)
        outputs[jobs] = out.read_text(encoding="utf-8")
        check_records(parse_output(fmt, outputs[jobs]), expected)
        assert_no_workers_left()
    if fmt == "line":
        assert outputs[2] == outputs[1]  # byte for byte
    assert without_times(fmt, outputs[2]) == without_times(fmt, outputs[1])


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_timeout_gets_its_record(tmp_path: Path, hard: str, fmt: str, jobs: int) -> None:
    easy = near_solved(12)
    items = [(t, "solved") for t in easy[:6]] + [(hard, "timeout")] + [(t, "solved") for t in easy[6:]]
    path = tmp_path / "timeout.txt"
    expected = write_batch(path, items)
    out = tmp_path / f"out.{fmt}"
    # 0.3 s: the hard puzzle takes the plain order seconds; an easy one, a millisecond of CPU, must not time out
    # however busy the machine (0.05 s was a few time slices of a loaded core).
    args = ["-o", "order=plain", "-t", "0.3", "--jobs", str(jobs), "--output", str(out), "--format", fmt]
    result = sudoku("solve", str(path), *args)
    assert result.exit_code == 1
    assert error_lines(result.stderr) == []
    assert summary_counts(result.stderr) == (13, 12, 0, 1, 0)
    text = out.read_text(encoding="utf-8")
    check_records(parse_output(fmt, text), expected)
    if fmt == "json":
        (timed_out,) = [o for o in map(json.loads, text.splitlines()) if o["status"] == "timeout"]
        assert 300 <= timed_out["elapsed_ms"] < 5000  # not before the limit; after it, a hang guard
    assert_no_workers_left()


def exit_case(kind: str, hard: str) -> tuple[list[tuple[str, str]], list[str]]:
    """A batch of the given kind, and the options it needs."""
    clue = [(t, "solved") for t in puzzles("17clue.txt")[:20]]
    unsolvable = (next(t for t, c in counted() if c == 0), "unsolvable")
    invalid = (invalid_lines(clue[0][0])[0], "invalid")
    if kind == "solved":
        return clue, []
    if kind == "unsolvable":
        return [*clue[:10], unsolvable, *clue[10:]], []
    if kind == "invalid":
        return [*clue[:10], invalid, unsolvable, *clue[10:]], []
    easy = [(t, "solved") for t in near_solved(8)]
    timeout = (hard, "timeout")
    plain = ["-o", "order=plain", "-t", "0.3"]  # the hard puzzle times out, the easy ones never (a busy machine)
    if kind == "timeout":
        return [*easy[:4], timeout, *easy[4:]], plain
    return [*easy[:4], timeout, invalid, *easy[4:]], plain  # invalid and timeout: invalid wins


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize(
    ("kind", "status"),
    [("solved", 0), ("unsolvable", 1), ("timeout", 1), ("invalid", 2), ("invalid+timeout", 2)],
)
def test_exit_status_of_a_batch(tmp_path: Path, hard: str, kind: str, status: int, jobs: int) -> None:
    items, options = exit_case(kind, hard)
    path = tmp_path / "batch.txt"
    expected = write_batch(path, items)
    out = tmp_path / "out.jsonl"
    result = sudoku("solve", str(path), *options, "-j", str(jobs), "-O", str(out), "-f", "json")
    assert result.exit_code == status
    check_records(parse_output("json", out.read_text(encoding="utf-8")), expected)
    assert summary_counts(result.stderr) == expected_counts(expected)


# --- standard error: errors, summary, no progress bar off a terminal ---------------------------------


def test_quiet_silences_the_summary_but_not_the_errors(tmp_path: Path, mixed: tuple[Path, list[Expected]]) -> None:
    path, expected = mixed
    result = sudoku("solve", str(path), "--quiet", "-j", "2", "-O", str(tmp_path / "out.txt"), "-f", "line")
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 3 and all(line.startswith("sudoku: error: ") for line in lines)
    check_records(parse_output("line", (tmp_path / "out.txt").read_text(encoding="utf-8")), expected)

    good = write_batch(tmp_path / "good.txt", [(t, "solved") for t in puzzles("17clue.txt")[:30]])
    quiet = sudoku("solve", str(tmp_path / "good.txt"), "-q", "-j", "2", "-f", "line")
    assert (quiet.exit_code, quiet.stderr) == (0, "")
    check_records(parse_output("line", quiet.stdout), good)
    loud = sudoku("solve", str(tmp_path / "good.txt"), "-j", "2", "-f", "line")
    assert summary_counts(loud.stderr) == (30, 30, 0, 0, 0)
    assert len(loud.stderr.splitlines()) == 1


def test_no_progress_bar_when_stderr_is_not_a_terminal(mixed: tuple[Path, list[Expected]]) -> None:
    path, expected = mixed
    result = sudoku("solve", str(path), "-j", "2", "-f", "line")
    assert result.exit_code == 2
    for mark in PROGRESS_MARKS:
        assert mark not in result.stderr
    assert summary_counts(result.stderr) == expected_counts(expected)
    check_records(parse_output("line", result.stdout), expected)


def test_a_single_puzzle_has_no_summary(leetcode: str) -> None:
    result = sudoku("solve", "-f", "line", leetcode)
    assert (result.exit_code, result.stderr) == (0, "")


def test_output_to_an_unwritable_path_is_a_one_line_error(tmp_path: Path, mixed: tuple[Path, list[Expected]]) -> None:
    path, _ = mixed
    target = tmp_path / "no-such-directory" / "out.txt"
    result = sudoku("solve", str(path), "-j", "2", "--output", str(target))
    assert result.exit_code == 2
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith("sudoku: error: cannot write ") and str(target) in line
    assert not target.parent.exists()
    assert_no_workers_left()


# --- real processes -------------------------------------------------------------------------------------


def test_python_m_sudokit_jobs_2_output_file(tmp_path: Path, mixed: tuple[Path, list[Expected]]) -> None:
    path, expected = mixed
    out = tmp_path / "out.txt"
    proc = run(
        [sys.executable, "-m", "sudokit", "solve", str(path), "--jobs", "2", "--output", str(out), "-f", "line"],
        capture_output=True,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == "" and "Traceback" not in proc.stderr
    assert len(error_lines(proc.stderr)) == 3
    assert summary_counts(proc.stderr) == expected_counts(expected)
    check_records(parse_output("line", out.read_text(encoding="utf-8")), expected)


def test_piped_output_has_no_progress_bar(tmp_path: Path) -> None:
    expected = write_batch(tmp_path / "good.txt", [(t, "solved") for t in puzzles("17clue.txt")[:300]])
    proc = run(
        [sys.executable, "-m", "sudokit", "solve", str(tmp_path / "good.txt"), "-j", "2", "-f", "line"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.returncode == 0, proc.stderr
    for mark in PROGRESS_MARKS:
        assert mark not in proc.stdout and mark not in proc.stderr
    assert summary_counts(proc.stderr) == (300, 300, 0, 0, 0)
    check_records(parse_output("line", proc.stdout), expected)


def test_progress_bar_on_a_terminal(tmp_path: Path) -> None:
    """The other side of the two tests above: on a terminal the bar is drawn, then cleared."""
    from .test_progress import on_a_terminal

    expected = write_batch(tmp_path / "good.txt", [(t, "solved") for t in puzzles("17clue.txt")[:300]])
    out = tmp_path / "out.txt"
    args = [sys.executable, "-m", "sudokit", "solve", str(tmp_path / "good.txt"), "-j", "2", "-O", str(out)]
    status, stderr = on_a_terminal([*args, "-f", "line"])
    assert status == 0
    assert "\r[" in stderr and "/300" in stderr and "elapsed" in stderr
    bar, cleared, after = stderr.rpartition("\r\x1b[K")
    assert bar and cleared  # the bar was cleared before the summary was written
    assert summary_counts(after.replace("\r\n", "\n")) == (300, 300, 0, 0, 0)
    check_records(parse_output("line", out.read_text(encoding="utf-8")), expected)


# --- solve_records from Python ---------------------------------------------------------------------


def solution_of(outcome: Outcome) -> tuple[int, int | None, str | None]:
    """A render function: the record's index and line, and the solution found."""
    solution = outcome.result.solution if outcome.result else None
    return outcome.index, outcome.record.line, solution.to_line() if solution else None


def varied_lines() -> list[str]:
    """300 puzzles: fast 17-clue ones and slower top95 ones, shuffled (always the same way)."""
    lines = puzzles("17clue.txt")[:205] + puzzles("top95.txt")
    random.Random(37).shuffle(lines)
    return lines


@pytest.mark.parametrize("render", ["record-format", "function"])
def test_solve_records_keeps_the_input_order(render: str) -> None:
    lines = varied_lines()
    records = iter_records(lines, "varied")
    if render == "record-format":
        results = list(solve_records(records, "backtrack", jobs=2, render=RecordFormat("line")))
        assert all(isinstance(r, Rendered) for r in results)
        assert [r.index for r in results] == list(range(len(lines)))
        assert [r.status for r in results] == ["solved"] * len(lines)
        answers = [r.text.split(":") for r in results]
    else:
        found = list(solve_records(records, "backtrack", jobs=2, render=solution_of))
        assert [(index, line) for index, line, _ in found] == [(k, k + 1) for k in range(len(lines))]
        answers = [["", solution] for _, _, solution in found]
    assert len(answers) == len(lines) == 300
    for text, (puzzle, solution) in zip(lines, answers, strict=True):
        assert not puzzle or Grid.parse(puzzle) == Grid.parse(text)
        assert solution is not None and is_solution(Grid.parse(text), Grid.parse(solution))
    assert_no_workers_left()


def test_solve_records_reads_a_file_and_returns_outcomes(mixed: tuple[Path, list[Expected]]) -> None:
    path, expected = mixed
    outcomes = list(solve_records(read_file(path), "backtrack", jobs=2))
    assert all(isinstance(o, Outcome) for o in outcomes)
    assert [o.index for o in outcomes] == list(range(len(expected)))
    assert [(o.record.line, o.status) for o in outcomes] == [(e.line, e.status) for e in expected]
    for want, outcome in zip(expected, outcomes, strict=True):
        if want.status == "solved":
            assert outcome.result is not None and outcome.result.solution is not None
            assert is_solution(Grid.parse(want.text), outcome.result.solution)
    assert_no_workers_left()


def test_solve_records_pulls_its_input_lazily() -> None:
    available = puzzles("17clue.txt")[:10_000]
    pulled = 0

    def source() -> Iterator[Record]:
        nonlocal pulled
        for number, text in enumerate(available, 1):
            pulled += 1
            yield Record(text, "lazy", number)

    records = source()
    results = solve_records(records, "backtrack", jobs=2, render=RecordFormat("line"))
    try:
        first = list(islice(results, 5))
        assert 5 <= pulled < 2_000  # a few chunks per worker in flight, not the whole input
        assert workers()  # the workers are there, and the check that they end is not vacuous
    finally:
        results.close()
        records.close()
    assert [r.index for r in first] == list(range(5))
    for text, rendered in zip(available, first, strict=False):
        assert is_solution(Grid.parse(text), Grid.parse(rendered.text.split(":")[1]))
    assert_no_workers_left()


def test_solve_records_passes_on_an_input_error() -> None:
    def source() -> Iterator[Record]:
        for number, text in enumerate(puzzles("17clue.txt")[:50], 1):
            yield Record(text, "failing", number)
        raise OSError("the input went away")

    results = solve_records(source(), "backtrack", jobs=2, render=solution_of)
    with pytest.raises(OSError, match="the input went away"):
        for _ in results:
            pass
    assert_no_workers_left()


def test_solve_records_refuses_what_is_not_records() -> None:
    """A text in place of the records once recursed without end; an int among them failed inside the pool."""
    with pytest.raises(TypeError, match="an iterable of sudokit Record objects, not 'abc'"):
        solve_records("abc")  # type: ignore[arg-type]
    good = [Record(text, "api", k) for k, text in enumerate(puzzles("easy50.txt")[:2], 1)]
    results = solve_records([good[0], 5, good[1]], "backtrack", render=solution_of)  # type: ignore[list-item]
    assert next(results)[0] == 0  # the record before it has its outcome
    with pytest.raises(TypeError, match="the one at index 1 is int 5"):
        next(results)
    assert_no_workers_left()


def test_a_record_that_cannot_be_read_at_all_is_one_invalid_outcome() -> None:
    """A record whose reading raises what is no parse error (here its text is no str) still gets its outcome."""
    texts = puzzles("easy50.txt")[:2]
    records = [Record(texts[0], "api", 1), Record(5, "api", 2), Record(texts[1], "api", 3)]  # type: ignore[arg-type]
    outcomes = list(solve_records(records, "backtrack"))
    assert [o.status for o in outcomes] == ["solved", "invalid", "solved"]
    assert outcomes[1].error is not None and "TypeError" in outcomes[1].error and "\n" not in outcomes[1].error
    assert_no_workers_left()
