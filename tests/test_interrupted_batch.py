"""Interrupted batches: a batch killed at any moment leaves only complete records, no process behind,
and ``--resume`` finishes it with exactly one record per puzzle, in order.

A real ``python -m sudokit solve FILE --jobs 2 --output OUT`` on a few thousand 17-clue puzzles is
killed (SIGTERM, SIGKILL, SIGINT) once OUT holds some records, then resumed with the same arguments.
"""

from __future__ import annotations

import csv
import io
import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sudokit import Grid, is_solution
from tests.conftest import sudoku

from .conftest import PUZZLES, assert_complete_records, interrupt_batch, wait_for_records
from .test_time_limits import marked, marker_env, settle, with_cmdline
from .timing import children_cpu, hang_guard, tree_cpu

COUNT = 5000  # about 1.5 s of work on two cores: time to kill it half-way and more
EXIT = {signal.SIGTERM: 143, signal.SIGINT: 130, signal.SIGKILL: -signal.SIGKILL}


@pytest.fixture(scope="module")
def clues(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """The first COUNT puzzles of 17clue.txt, in a file of their own, and the puzzles."""
    lines = (PUZZLES / "17clue.txt").read_text().splitlines()[:COUNT]
    path = tmp_path_factory.mktemp("clues") / "clues.txt"
    path.write_text("\n".join(lines) + "\n")
    return path, lines


def command(source: Path, out: Path) -> list[str]:
    """The batch: two worker processes, JSON records into ``out``."""
    return [sys.executable, "-m", "sudokit", "solve", str(source), "--jobs", "2", "-f", "json", "--output", str(out)]


def assert_finished(out: Path, puzzles: list[str]) -> None:
    """One record per input puzzle, lines 1..N in order, none repeated or skipped, each solution valid."""
    records = assert_complete_records(out)
    assert [r["line"] for r in records] == list(range(1, len(puzzles) + 1))
    for record, puzzle in zip(records, puzzles, strict=True):
        assert record["status"] == "solved", record
        assert record["puzzle"] == puzzle.replace("0", ".")
        assert is_solution(Grid.parse(puzzle), Grid.parse(str(record["solution"])))


@pytest.mark.parametrize(
    ("sig", "group"),
    [
        (signal.SIGTERM, False),
        (signal.SIGKILL, False),
        (signal.SIGINT, False),
        (signal.SIGINT, True),  # Ctrl-C in a terminal: the whole process group gets it, workers too
        (signal.SIGTERM, True),  # kill -- -PGID, or a service manager stopping the job
    ],
    ids=["SIGTERM", "SIGKILL", "SIGINT", "SIGINT-group", "SIGTERM-group"],
)
def test_a_killed_batch_resumes_to_one_record_per_puzzle(
    tmp_path: Path, clues: tuple[Path, list[str]], sig: signal.Signals, group: bool
) -> None:
    source, puzzles = clues
    out = tmp_path / "out.jsonl"
    marker, env = marker_env()
    process = subprocess.Popen(
        command(source, out),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=group,
    )
    stderr = interrupt_batch(process, out, sig, group=group)
    assert process.returncode == EXIT[sig], stderr
    assert "Traceback" not in stderr
    if sig != signal.SIGKILL:
        message, *rest = stderr.strip().splitlines()
        assert message.startswith("sudoku: interrupted after ") and f"--resume --output {out}" in message
        # Then the summary of the puzzles done so far, and nothing else.
        assert len(rest) <= 1 and all(re.match(r"[\d,]+ puzzles?: [\d,]+ solved, ", line) for line in rest), stderr
    written = assert_complete_records(out)
    assert 0 < len(written) < len(puzzles), "not interrupted half-way"
    assert [r["line"] for r in written] == list(range(1, len(written) + 1))
    # No worker outlives the batch, whatever killed it.
    settle(lambda: not with_cmdline(str(out)) and not marked(marker), seconds=5)

    done = subprocess.run([*command(source, out), "--resume"], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert f"(resumed after {len(written)} already written)" in done.stderr
    assert_finished(out, puzzles)
    settle(lambda: not marked(marker))


def test_an_interrupted_pretty_batch_does_not_offer_resume(tmp_path: Path, clues: tuple[Path, list[str]]) -> None:
    """Records in pretty form cannot be continued (--resume refuses them), yet a stopped batch said
    "continue with --resume --output OUT"; it says how far it got, as generate -f pretty always did."""
    source, _ = clues
    out = tmp_path / "out.txt"
    args = [sys.executable, "-m", "sudokit", "solve", str(source), "-j", "1", "-f", "pretty", "-O", str(out)]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        wait_for_records(out, process, least=200)  # lines: a pretty record is a heading and its grid
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 143, stderr
    message = stderr.splitlines()[0]
    assert re.fullmatch(r"sudoku: interrupted after [\d,]+ puzzles?; every record written is complete", message), stderr
    again = sudoku("solve", str(source), "-f", "pretty", "-O", str(out), "--resume")
    assert again.exit_code == 2 and "--resume needs --format line, json or csv" in again.stderr


# --- the resumed file, in every one-line form --------------------------------------------------------


def without_times(fmt: str, text: str) -> list[object]:
    """The records of ``text`` without the fields that differ run to run (elapsed time)."""
    if fmt == "line":
        return text.splitlines()
    if fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(text)))
        return [{k: v for k, v in row.items() if k != "elapsed_ms"} for row in rows]
    return [{k: v for k, v in json.loads(line).items() if k != "elapsed_ms"} for line in text.splitlines()]


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """300 puzzles, an invalid line and an unsolvable puzzle among them."""
    lines = (PUZZLES / "17clue.txt").read_text().splitlines()[:300]
    lines[100] = "this line is not a puzzle"
    lines[200] = "11" + lines[200][2:]  # two equal givens: invalid too
    path = tmp_path_factory.mktemp("small") / "small.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("torn", [False, True], ids=["clean", "torn"])
@pytest.mark.parametrize("fmt", ["line", "csv", "json"])
def test_resume_completes_a_cut_output_file(tmp_path: Path, small: Path, fmt: str, torn: bool) -> None:
    full = tmp_path / f"full.{fmt}"
    whole = sudoku("solve", str(small), "-f", fmt, "--jobs", "1", "-q", "--output", str(full))
    assert whole.exit_code == 2  # the invalid lines
    text = full.read_text()
    header = 1 if fmt == "csv" else 0
    assert len(text.splitlines()) == 300 + header
    # Cut after 150 records, as an interrupted batch would have left it; torn: half a record more.
    lines = text.splitlines(keepends=True)
    kept = "".join(lines[: header + 150])
    if torn:
        kept += lines[header + 150][:37]  # no newline: a record cut short
    out = tmp_path / f"out.{fmt}"
    out.write_text(kept)
    resumed = sudoku("solve", str(small), "-f", fmt, "--jobs", "1", "--output", str(out), "--resume")
    assert resumed.exit_code == 2  # the second invalid line is in the part redone
    assert "(resumed after 150 already written)" in resumed.stderr
    again = out.read_text()
    assert without_times(fmt, again) == without_times(fmt, text)
    if fmt == "csv":
        assert again.count("puzzle,status,solution") == 1


def test_resume_of_a_finished_file_adds_nothing(tmp_path: Path, small: Path) -> None:
    out = tmp_path / "out.txt"
    sudoku("solve", str(small), "-f", "line", "--jobs", "1", "--output", str(out))
    before = out.read_text()
    again = sudoku("solve", str(small), "-f", "line", "--jobs", "1", "--output", str(out), "--resume")
    assert again.exit_code in (0, 2) and out.read_text() == before
    assert "(resumed after 300 already written)" in again.stderr


def test_resume_with_no_output_file_yet_runs_the_whole_batch(tmp_path: Path, small: Path) -> None:
    out = tmp_path / "new.csv"
    result = sudoku("solve", str(small), "-f", "csv", "--jobs", "1", "--output", str(out), "--resume")
    assert result.exit_code == 2
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert [int(r["line"]) for r in rows] == list(range(1, 301))


@pytest.mark.parametrize(
    "args",
    [["-f", "json", "--resume"], ["-f", "line", "--resume"], ["-f", "pretty", "--resume", "--output", "OUT"]],
    ids=["json-no-output", "line-no-output", "pretty"],
)
def test_resume_needs_an_output_file_and_a_one_line_format(tmp_path: Path, small: Path, args: list[str]) -> None:
    out = tmp_path / "out.txt"
    out.write_text("kept as it is\n")
    result = sudoku("solve", str(small), *[str(out) if a == "OUT" else a for a in args])
    assert result.exit_code == 2
    [line] = result.stderr.splitlines()
    assert line.startswith("sudoku: error: ") and "--resume" in line
    assert result.stdout == "" and out.read_text() == "kept as it is\n"


# --- a long search in the main process --------------------------------------------------------------


def test_a_kill_stops_a_long_cp_sat_search_at_once() -> None:
    """With one job the search runs in the command's own process: a kill must not wait for it to end."""
    empty = " ".join(["0"] * 49 * 49)  # CP-SAT takes some 13 s to fill an empty 49x49 board
    marker, env = marker_env()
    process = subprocess.Popen(
        [sys.executable, "-m", "sudokit", "solve", "-s", "cp-sat", "-t", "60", "--jobs", "1", empty],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    before = children_cpu()
    try:
        # OR-Tools loaded, the model built, the search under way: 3 s of the process's CPU time (the wall time it
        # takes grows with the machine's load), of the 13 s or so the search alone takes.
        deadline = time.monotonic() + 120
        while tree_cpu(process.pid) < 3.0 and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert process.poll() is None
        at_kill = tree_cpu(process.pid)
        process.terminate()
        killed = time.perf_counter()
        _, stderr = process.communicate(timeout=90)
        took = time.perf_counter() - killed
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 143, stderr
    assert "Traceback" not in stderr and stderr.startswith("sudoku: interrupted after 0 puzzles")
    # The search alone would go on for 10 s of CPU time and more: from the signal to the end, little or none.
    after_kill = children_cpu() - before - at_kill
    assert after_kill < 2 and took < hang_guard(2), (
        f"{after_kill:.1f} s of CPU, {took:.1f} s from the signal to the end"
    )
    settle(lambda: not marked(marker))


def test_an_interrupted_check_says_how_far_it_got_and_resumes(tmp_path: Path, clues: tuple[Path, list[str]]) -> None:
    source, puzzles = clues
    out = tmp_path / "checked.jsonl"
    args = [sys.executable, "-m", "sudokit", "check", str(source), "-s", "backtrack", "-j", "2", "-f", "json"]
    process = subprocess.Popen([*args, "-O", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        wait_for_records(out, process)
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, stderr
    message, summary, times = stderr.strip().splitlines()
    assert times.startswith("time per engine: backtrack ")
    assert message.startswith("sudoku: interrupted after ") and f"--resume --output {out}" in message
    done = int(message.split("after ")[1].split()[0].replace(",", ""))  # thousands are separated: 1,234
    noun = "puzzle" if done == 1 else "puzzles"
    assert summary.startswith(f"{done:,} {noun}: {done:,} agreed, 0 disagreed")  # the partial summary
    written = assert_complete_records(out)
    assert 0 < len(written) < len(puzzles)
    resumed = subprocess.run([*args, "-O", str(out), "--resume", "-q"], capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert [r["line"] for r in assert_complete_records(out)] == list(range(1, len(puzzles) + 1))
