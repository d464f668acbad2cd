"""Big inputs stream in bounded memory: a 100 MB file of puzzles, a line of tens of MB, a JSON board
that is never closed. Peak memory of a fresh process is compared with a small input read the same
way, so the interpreter's own size does not matter.

Peak memory is ``VmHWM`` of /proc/self/status, not ``ru_maxrss``: on Linux a child's ``ru_maxrss``
starts at its parent's peak (kept across exec), and the parent here is pytest, which can be larger.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sudokit import Grid, is_solution
from sudokit.io.reader import MAX_BLOCK, MAX_LINE

from .conftest import PUZZLES, puzzles

MB = 1 << 20
CLUES = (PUZZLES / "17clue.txt").read_text().splitlines()

PEAK_RSS = """
def peak_rss():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmHWM:"))
"""

COUNT_RECORDS = (
    PEAK_RSS
    + """
import sys
from sudokit.io.reader import read_file
records = longest = 0
last = ""
for record in read_file(sys.argv[1]):
    records += 1
    longest = max(longest, len(record.text))
    last = record.text
print(records, longest, peak_rss(), last)
"""
)

#: ``sudoku ARGS`` in this process, then its peak memory on the last line of stderr (``main`` ends the
#: process with ``os._exit``: the report goes just before, in this process and not in its workers).
SUDOKU_WITH_RSS = (
    PEAK_RSS
    + """
import os, sys
from sudokit.cli import main
me, end = os.getpid(), os._exit
def report_and_end(code):
    if os.getpid() == me:
        print("maxrss", peak_rss(), file=sys.stderr, flush=True)
    end(code)
os._exit = report_and_end
sys.argv = ["sudoku", *sys.argv[1:]]
main()
"""
)


def python(script: str, *args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "PYTHONWARNINGS")}
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        input=stdin,
        capture_output=True,
        timeout=120,
        env={**env, "NO_COLOR": "1"},
    )
    out, err = (stream.decode("utf-8", "replace") for stream in (done.stdout, done.stderr))
    return subprocess.CompletedProcess(done.args, done.returncode, out, err)


def count_records(path: Path) -> tuple[int, int, int, str]:
    """Records, longest record text, peak RSS in bytes and the last record's text, reading ``path`` afresh."""
    done = python(COUNT_RECORDS, str(path))
    assert done.returncode == 0, done.stderr
    records, longest, rss, last = done.stdout.split()
    return int(records), int(longest), int(rss), last


def sudoku_rss(*args: str, stdin: bytes = b"") -> tuple[subprocess.CompletedProcess[str], int]:
    """``sudoku ARGS`` run in a fresh process, and its peak RSS in bytes."""
    done = python(SUDOKU_WITH_RSS, *args, stdin=stdin)
    last = done.stderr.splitlines()[-1]
    assert last.startswith("maxrss "), done.stderr
    done.stderr = "\n".join(done.stderr.splitlines()[:-1])
    return done, int(last.split()[1])


def write_repeated(path: Path, block: str, size: int) -> int:
    """Write ``block`` over and over until ``path`` holds at least ``size`` bytes; return how many times."""
    times = -(-size // len(block.encode()))
    with path.open("w", encoding="utf-8") as handle:
        for _ in range(times):
            handle.write(block)
    return times


@pytest.fixture(scope="module")
def small_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, int]:
    """About 1 MB of 17-clue puzzles: the baseline. Returns (path, records, peak RSS)."""
    path = tmp_path_factory.mktemp("small") / "small.txt"
    path.write_text("\n".join(CLUES[:12_000]) + "\n")
    records, _, rss, _ = count_records(path)
    assert records == 12_000
    return path, records, rss


def test_a_100_mb_file_streams_in_bounded_memory(tmp_path: Path, small_file: tuple[Path, int, int]) -> None:
    path = tmp_path / "big.txt"
    block = "# a comment line\n\n" + "\n".join(CLUES) + "\n"
    times = write_repeated(path, block, 100 * MB)
    assert path.stat().st_size >= 100 * MB
    records, longest, rss, last = count_records(path)
    assert records == times * len(CLUES)
    assert longest == 81 and last == CLUES[-1]
    assert rss - small_file[2] < 30 * MB, f"peak RSS {rss / MB:.0f} MB, {small_file[2] / MB:.0f} MB for 1 MB"


@pytest.mark.parametrize(
    ("opening", "filler"),
    [
        ("[\n", "[1, 2, 3, 4, 5, 6, 7, 8, 9],\n"),  # a JSON board never closed: rows without end
        # A grid's first row, then separator lines without end: past one more than the rows, each is a
        # record of its own (wide lines, so that 20 MB is not millions of records).
        ("1 2 | 3 4\n", "------+------" * 80 + "\n"),
    ],
    ids=["unclosed-json", "endless-grid"],
)
def test_a_record_that_never_ends_is_cut_into_bounded_pieces(
    tmp_path: Path, small_file: tuple[Path, int, int], opening: str, filler: str
) -> None:
    path = tmp_path / "endless.txt"
    with path.open("w") as handle:
        handle.write(opening)
        handle.write(filler * (20 * MB // len(filler)))
        handle.write(CLUES[0] + "\n")
    _, longest, rss, last = count_records(path)
    assert longest <= MAX_BLOCK + MAX_LINE  # once gathered whole: 20 MB in one record
    assert rss - small_file[2] < 30 * MB, f"peak RSS {rss / MB:.0f} MB"
    assert last == CLUES[0]  # the puzzle after the flood is still read on its own


# --- one huge line among good puzzles ---------------------------------------------------------------


def huge_line_file(path: Path, size: int) -> list[str]:
    """Two good puzzles, a line of ``size`` characters, two good puzzles; returns the good ones."""
    good = puzzles("easy50.txt")[:4]
    with path.open("w") as handle:
        handle.write(f"{good[0]}\n{good[1]}\n")
        chunk = "123456789" * (MB // 9)
        for start in range(0, size, len(chunk)):
            handle.write(chunk[: size - start])
        handle.write(f"\n{good[2]}\n{good[3]}\n")
    return good


def check_huge_line_output(done: subprocess.CompletedProcess[str], good: list[str], where: str) -> None:
    assert "Traceback" not in done.stderr
    assert done.returncode == 2, done.stderr
    out = done.stdout.splitlines()
    assert len(out) == 5, done.stdout[:300]
    assert out[2] == ":invalid"  # the line was never kept, so there is no text to echo
    for line, puzzle in zip(out[:2] + out[3:], good, strict=True):
        text, _, answer = line.partition(":")
        assert text == puzzle.replace("0", ".") and is_solution(Grid.parse(puzzle), Grid.parse(answer))
    [error] = [line for line in done.stderr.splitlines() if line.startswith("sudoku: error:")]
    assert error.startswith(f"sudoku: error: {where}:3: ") and f"more than {MAX_LINE:,} characters" in error
    assert len(error) < 200


def test_a_line_of_5_million_characters_is_one_invalid_record(tmp_path: Path) -> None:
    path = tmp_path / "huge.txt"
    good = huge_line_file(path, 5_000_000)
    done, _ = sudoku_rss("solve", str(path), "-f", "line")
    check_huge_line_output(done, good, str(path))


@pytest.fixture(scope="module")
def baseline_rss(tmp_path_factory: pytest.TempPathFactory) -> int:
    """Peak RSS of ``sudoku solve FILE -f line --jobs 1`` on four easy puzzles."""
    path = tmp_path_factory.mktemp("baseline") / "four.txt"
    path.write_text("\n".join(puzzles("easy50.txt")[:4]) + "\n")
    done, rss = sudoku_rss("solve", str(path), "-f", "line", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    return rss


@pytest.mark.parametrize("via", ["file", "stdin"])
def test_a_line_of_40_mb_is_skipped_in_pieces_not_read_whole(tmp_path: Path, baseline_rss: int, via: str) -> None:
    path = tmp_path / "huge.txt"
    good = huge_line_file(path, 40 * MB)
    if via == "file":
        done, rss = sudoku_rss("solve", str(path), "-f", "line", "--jobs", "1")
        check_huge_line_output(done, good, str(path))
    else:
        done, rss = sudoku_rss("solve", "-", "-f", "line", "--jobs", "1", stdin=path.read_bytes())
        check_huge_line_output(done, good, "<stdin>")
    # Read whole, the line alone would take 40 MB (and its decoding as much again).
    assert rss - baseline_rss < 15 * MB, f"peak RSS {rss / MB:.0f} MB against {baseline_rss / MB:.0f} MB"


# --- the record estimate for the progress bar ---------------------------------------------------------

ESTIMATE = (
    PEAK_RSS
    + """
import sys
from sudokit.io.reader import estimate_records
print(estimate_records(sys.argv[1:]), peak_rss())
"""
)


def estimate_with_rss(*paths: Path) -> tuple[int, int]:
    """``estimate_records(paths)`` and the peak RSS in bytes, in a fresh process."""
    done = python(ESTIMATE, *map(str, paths))
    assert done.returncode == 0, done.stderr
    estimate, rss = done.stdout.split()
    return int(estimate), int(rss)


def test_estimating_records_reads_a_huge_line_in_bounded_memory(
    tmp_path: Path, small_file: tuple[Path, int, int]
) -> None:
    baseline_estimate, baseline = estimate_with_rss(small_file[0])
    assert baseline_estimate == small_file[1]
    path = tmp_path / "huge.txt"
    huge_line_file(path, 60 * MB)
    estimate, rss = estimate_with_rss(path, small_file[0])
    assert estimate == 5 + small_file[1]  # four puzzles and the huge line, then the small file's
    # Read whole, the line alone would take 60 MB.
    assert rss - baseline < 15 * MB, f"peak RSS {rss / MB:.0f} MB against {baseline / MB:.0f} MB"
