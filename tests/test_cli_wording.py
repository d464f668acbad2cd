"""What the command prints for people: counters, plurals, one number style, partial counts, labels, ``-t 0``.

Each test runs the real command (or the library) and reads what a user reads: the engines' float
counters in a readable unit, ``1 attempt`` but ``2 attempts``, thousands separated in every
summary, a timed-out count that keeps its partial count in every form, several puzzle arguments
told apart in pretty output, and a time limit of 0 meaning no limit in Python as on the command line.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sudokit import Status, normalize_time_limit, solve
from tests.conftest import counted as counted_puzzles
from tests.conftest import puzzles, sudoku

EASY = puzzles("easy50.txt")
ONE_SOLUTION = next(p for p, c in counted_puzzles() if c == 1)
BLANK_16 = "." * 256


def test_float_counters_are_shown_in_a_unit_with_a_few_digits() -> None:
    """--stats printed timings as raw floats: 'wall_time 0.0032499820000000002', 'search_time 0.00049489199'."""
    pytest.importorskip("constraint")
    timing = r"search_time \d+(\.\d{1,4})? (us|ms|s)\b"
    line = sudoku("solve", "-s", "python-constraint", "--stats", "-f", "line", EASY[0])
    assert line.exit_code == 0, line.stderr
    [note] = line.stderr.splitlines()
    assert re.search(timing, note), note
    assert not re.search(r"\d\.\d{5,}", note), note  # no raw float anywhere among the counters
    check = sudoku("check", "-s", "python-constraint", "--stats", EASY[0])
    assert re.search(timing, check.stdout) and not re.search(r"\d\.\d{5,}", check.stdout), check.stdout
    data = json.loads(sudoku("solve", "-s", "python-constraint", "-f", "json", EASY[0]).stdout)
    assert isinstance(data["stats"]["search_time"], float)  # json keeps the full value


def test_a_time_counter_reads_in_the_unit_that_keeps_it_short() -> None:
    # a search of 9 us printed as 'search_time 0.00899 ms' (a whole-suite run found it): a few digits in every unit
    from sudokit.runtime.output import counters_text

    shown = counters_text({"search_time": 0.00000899, "wall_time": 0.0032, "load_time": 2.5, "start": 0.0, "r": 1 / 3})
    assert shown == "search_time 8.99 us, wall_time 3.2 ms, load_time 2.5 s, start 0 ms, r 0.3333"


def test_counts_of_one_are_singular() -> None:
    from sudokit.runtime.progress import counted

    shown = [counted(k, "attempt") for k in (0, 1, 2, 5000)]
    assert shown == ["0 attempts", "1 attempt", "2 attempts", "5,000 attempts"]
    made = sudoku("generate", "--box", "2x2", "--seed", "1")
    assert made.exit_code == 0, made.stderr
    summary = made.stderr.splitlines()[-1]
    number, noun = re.search(r"\((\d+) (attempts?)\)", summary).groups()  # type: ignore[union-attr]
    assert summary.startswith("1 puzzle made (") and noun == ("attempt" if number == "1" else "attempts"), summary
    several = sudoku("solve", "--count", "--limit", "1", ONE_SOLUTION)
    assert several.stdout.strip() == "at least 1 solution (stopped at the limit of 1)"


def test_bench_note_of_one_failed_run_is_singular(tmp_path: Path) -> None:
    path = tmp_path / "one.txt"
    path.write_text(EASY[0] + "\n" + "55" + EASY[0][2:] + "\n")  # a solvable puzzle and an invalid one
    bench = sudoku("bench", str(path), "-s", "backtrack")
    assert bench.exit_code == 0, bench.stderr
    assert bench.stdout.splitlines()[-1] == "note: 1 puzzle run was unsolvable, invalid or failed (see --format json)"


def test_a_summary_separates_thousands_in_every_count(tmp_path: Path) -> None:
    """'5000 puzzles ... 5,000 same': one number style across the summary."""
    path = tmp_path / "many.txt"
    path.write_text("\n".join((EASY * 21)[:1001]) + "\n")
    run = sudoku("solve", str(path), "-f", "line", "-j", "1", "-O", str(tmp_path / "out.txt"))
    assert run.exit_code == 0, run.stderr
    summary = run.stderr.splitlines()[-1]
    assert summary.startswith("1,001 puzzles: 1,001 solved, 0 unsolvable, 0 timed out, 0 invalid in "), summary
    assert not re.search(r"\d{4}", summary.split(" in ")[0]), summary


def test_a_timed_out_count_keeps_its_partial_count_in_every_form(tmp_path: Path) -> None:
    """pretty said 'timeout: at least N solutions found', the line form only 'timeout'."""
    args = ["solve", "--count", "--limit", str(10**9), "-t", "0.3", BLANK_16]
    line = sudoku(*args, "-f", "line")
    assert line.exit_code == 1, line.stderr
    partial = re.fullmatch(rf"{re.escape(BLANK_16)}:timeout:(\d+)\+", line.stdout.strip())
    assert partial is not None, line.stdout
    record = json.loads(sudoku(*args, "-f", "json").stdout)
    assert (record["status"], record["exact"], type(record["count"])) == ("timeout", False, int)
    pretty = sudoku(*args)
    assert re.fullmatch(r"timeout: at least \d+ solutions? found", pretty.stdout.strip()), pretty.stdout
    out = tmp_path / "out.txt"
    out.write_text(line.stdout)
    resumed = sudoku(*args, "-f", "line", "-O", str(out), "--resume")  # the record is one this run writes
    assert resumed.exit_code in (0, 1) and "cannot resume" not in resumed.stderr, resumed.stderr
    assert out.read_text() == line.stdout


def test_several_puzzle_arguments_are_told_apart_in_pretty_output(tmp_path: Path) -> None:
    """Each was headed '# <argument>', with nothing to tell which is which."""
    two = sudoku("solve", EASY[0], EASY[1], "-q")
    assert two.exit_code == 0, two.stderr
    assert [line for line in two.stdout.splitlines() if line.startswith("#")] == ["# 1: <argument>", "# 2: <argument>"]
    path = tmp_path / "one.txt"
    path.write_text(EASY[2] + "\n")
    mixed = sudoku("check", "-s", "backtrack", str(path), EASY[0], "-q")
    assert [line for line in mixed.stdout.splitlines() if line.startswith("#")] == [f"# {path}:1", "# 2: <argument>"]


def test_time_limit_0_means_no_limit_in_python_as_on_the_command_line() -> None:
    """``sudoku -t 0`` is no limit, but solve(..., time_limit=0) raised ValueError."""
    assert normalize_time_limit(0) is None and normalize_time_limit(0.0) is None
    result = solve(EASY[0], time_limit=0)
    assert result.status is Status.SOLVED
    assert sudoku("solve", "-t", "0", "-f", "line", EASY[0]).exit_code == 0
    with pytest.raises(ValueError, match="0 or None for no limit"):
        solve(EASY[0], time_limit=-1)
