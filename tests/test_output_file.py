"""``--output``: never the input, never clobbered, locked, and resumed only when it is this run's output.

What users rely on: a batch's output file cannot destroy its input (directly, through a link, or as
standard input); an existing file is replaced only with ``--force`` and continued only with
``--resume``, and only when it holds records of the same format for the same puzzles (checked
record by record, streamed); two runs cannot write into one file; an input that cannot be read is
found before any work; csv fields that hold line breaks are quoted, and resume across them.
"""

from __future__ import annotations

import csv
import fcntl
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sudokit import Grid, is_solution
from sudokit.runtime.output import csv_header
from tests.conftest import PUZZLES, puzzles, refused, sudoku

from .test_big_inputs import sudoku_rss

EASY = puzzles("easy50.txt")[:6]
HARD = puzzles("top95.txt")[:6]


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture
def easy(tmp_path: Path) -> Path:
    return write(tmp_path / "easy.txt", EASY)


# --- never the input ------------------------------------------------------------------------------------


def test_output_naming_the_input_is_refused(easy: Path) -> None:
    before = easy.read_bytes()
    refused(sudoku("solve", str(easy), "-f", "line", "-O", str(easy), "--force"), f"--output {easy} is the input")
    assert easy.read_bytes() == before


@pytest.mark.parametrize("link", ["symlink", "hardlink"])
def test_output_reaching_the_input_through_a_link_is_refused(tmp_path: Path, easy: Path, link: str) -> None:
    other = tmp_path / "out.txt"
    (os.symlink if link == "symlink" else os.link)(easy, other)
    before = easy.read_bytes()
    refused(sudoku("solve", str(easy), "-f", "line", "-O", str(other), "--force"), "is the input")
    assert easy.read_bytes() == before


def test_output_that_is_standard_input_is_refused(easy: Path) -> None:
    before = easy.read_bytes()
    with easy.open("rb") as stdin:
        done = subprocess.run(
            [sys.executable, "-m", "sudokit", "solve", "-", "-f", "line", "-O", str(easy), "--force"],
            stdin=stdin,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 2
    assert (
        done.stderr.strip()
        == f"sudoku: error: --output {easy} is the input standard input: writing it would destroy the puzzles"
    )
    assert easy.read_bytes() == before


def test_output_that_is_standard_input_through_a_pipe_is_read_whole(tmp_path: Path) -> None:
    """``cat f | sudoku solve - -O f --force``: f is replaced only once the run has read it to its end.

    5,000 puzzles (410 kB, more than cat reads ahead and the pipe holds): cutting f as the run starts
    left the records of the first 1,599 puzzles of 20,000.
    """
    lines = [Grid.parse(p).to_line() for p in puzzles("easy50.txt")] * 100
    both = write(tmp_path / "both.txt", lines)
    command = f"cat {both} | {sys.executable} -m sudokit solve - -f line -q -O {both} --force"
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    records = both.read_text().splitlines()
    assert [record.split(":")[0] for record in records] == lines
    for record in records[:50]:
        puzzle, solution = record.split(":")
        assert is_solution(Grid.parse(puzzle), Grid.parse(solution))
    assert sorted(tmp_path.iterdir()) == [both], "the new file was renamed over the old one, nothing left beside"


def test_a_forced_run_that_cannot_start_leaves_the_old_file(tmp_path: Path, easy: Path) -> None:
    out = write(tmp_path / "out.txt", ["old record"] * 3)
    refused(sudoku("solve", str(easy), "-o", "color=red", "-f", "line", "-O", str(out), "--force"), "no option")
    assert out.read_text() == "old record\n" * 3
    assert sorted(tmp_path.iterdir()) == sorted([easy, out])


# --- never clobbered ------------------------------------------------------------------------------------


def test_an_output_file_that_holds_data_is_not_replaced(tmp_path: Path, easy: Path) -> None:
    out = write(tmp_path / "out.txt", ["precious record"] * 3)
    refused(sudoku("solve", str(easy), "-f", "line", "-O", str(out)), str(out), "already holds", "--force", "--resume")
    assert out.read_text() == "precious record\n" * 3


@pytest.mark.parametrize("fmt", ["pretty", "fpuzzles"])
def test_the_refusal_offers_resume_only_for_records_that_can_be_resumed(tmp_path: Path, easy: Path, fmt: str) -> None:
    """pretty and fpuzzles records cannot be continued (--resume refuses them): the refusal offered --resume all
    the same, where generate, before it ran on the shared session, already left it out for its line and pretty."""
    out = write(tmp_path / "out.txt", ["precious record"] * 3)
    done = sudoku("solve", str(easy), "-f", fmt, "-O", str(out))
    refused(done, f"{out} already holds 48 bytes: --force replaces it")
    assert "--resume" not in done.stderr and out.read_text() == "precious record\n" * 3
    generated = sudoku("generate", "--box", "2x2", "--seed", "1", "-f", "pretty", "-O", str(out))
    assert generated.stderr == done.stderr


def test_force_replaces_it(tmp_path: Path, easy: Path) -> None:
    out = write(tmp_path / "out.txt", ["old"] * 100)
    result = sudoku("solve", str(easy), "-f", "line", "-O", str(out), "--force", "-q")
    assert result.exit_code == 0, result.stderr
    assert [line.split(":")[0] for line in out.read_text().splitlines()] == [Grid.parse(p).to_line() for p in EASY]


def test_an_empty_output_file_is_written_without_force(tmp_path: Path, easy: Path) -> None:
    out = tmp_path / "out.txt"
    out.touch()
    assert sudoku("solve", str(easy), "-f", "line", "-O", str(out), "-q").exit_code == 0
    assert len(out.read_text().splitlines()) == len(EASY)


def test_a_refused_run_leaves_no_new_file(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    refused(sudoku("solve", "-s", "no-such-engine", EASY[0], "-O", str(out)), "unknown strategy")
    refused(sudoku("solve", "-o", "color=red", EASY[0], "-O", str(out)), "no option 'color'")
    assert not out.exists()


def test_force_and_resume_go_with_output(easy: Path) -> None:
    refused(sudoku("solve", str(easy), "--force"), "--force goes with --output")
    refused(sudoku("solve", str(easy), "--resume", "-f", "json"), "--resume needs --output")


@pytest.mark.parametrize(
    ("command", "args"),
    [
        ("solve", ["-f", "line", EASY[0]]),
        ("check", ["-s", "backtrack,sat", "-f", "line", EASY[0]]),
        ("rate", [EASY[0]]),
        ("generate", ["--box", "2x2", "--seed", "1", "-n", "2"]),
    ],
)
def test_output_dash_is_standard_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str, args: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    to_stdout = sudoku(command, *args, "-q")
    dashed = sudoku(command, *args, "-q", "-O", "-")
    assert dashed.exit_code == to_stdout.exit_code == 0, dashed.stderr
    untimed = [re.sub(r"/[0-9.]+ms", "", line) for line in dashed.stdout.splitlines()]  # check's times vary
    assert untimed == [re.sub(r"/[0-9.]+ms", "", line) for line in to_stdout.stdout.splitlines()] != []
    assert list(tmp_path.iterdir()) == []  # no file named '-'


def test_force_and_resume_with_output_dash_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for command in (["solve", EASY[0], "-f", "json"], ["generate", "--seed", "1", "-f", "json"]):
        refused(sudoku(*command, "-O", "-", "--resume"), "--resume", "-O - is standard output")
        refused(sudoku(*command, "-O", "-", "--force"), "--force", "-O - is standard output")
    assert list(tmp_path.iterdir()) == []


# --- locked ---------------------------------------------------------------------------------------------


def test_a_second_run_on_a_locked_output_is_refused(tmp_path: Path, easy: Path) -> None:
    out = tmp_path / "out.jsonl"
    with out.open("a") as held:  # another run holds it (the lock is the one sudoku takes)
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        held.write("a record being written\n")
        held.flush()
        for extra in (["--force"], ["--resume"]):
            refused(sudoku("solve", str(easy), "-f", "json", "-O", str(out), *extra), str(out), "locked")
    assert out.read_text() == "a record being written\n"


def test_a_run_that_loses_the_race_to_make_the_output_does_not_remove_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two runs start on an absent OUT: both find it absent, the other makes and locks it first.

    The loser is refused ("locked") and must leave the file alone: it did not make it, although it
    found it absent (it removed it as empty, and the winner went on writing into a removed file: 4
    of 60 real pairs of runs). The other run's making of the file is put exactly between this run's
    look and its open by wrapping ``os.open``; the file, the lock and the run's code are real.
    """
    out = tmp_path / "race.txt"
    winner: list[int] = []
    real_open = os.open

    def other_run_first(path: object, flags: int, *args: object) -> int:
        if os.fspath(path) == str(out) and not winner:  # type: ignore[arg-type]
            fd = real_open(out, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o666)
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            winner.append(fd)
        return real_open(path, flags, *args)  # type: ignore[arg-type]

    from sudokit.runtime.output import OutputError
    from sudokit.runtime.session import OutputFile

    monkeypatch.setattr(os, "open", other_run_first)
    loser = OutputFile(out)
    try:
        with pytest.raises(OutputError, match="is being written by another run"):
            loser.open([])
        monkeypatch.undo()
        assert winner and out.exists(), "the file the other run is writing was removed"
        assert os.path.samestat(os.fstat(winner[0]), out.stat())
    finally:
        for fd in winner:
            os.close(fd)


def test_two_real_runs_on_one_output_never_interleave(tmp_path: Path) -> None:
    source = write(tmp_path / "many.txt", puzzles("17clue.txt")[:3000])
    out = tmp_path / "out.jsonl"
    args = [sys.executable, "-m", "sudokit", "solve", str(source), "-f", "json", "-O", str(out), "-j", "1"]
    first = subprocess.Popen([*args, "-q"], stderr=subprocess.PIPE, text=True)
    try:
        while not out.exists() or not out.stat().st_size:  # the first run holds the file
            assert first.poll() is None, first.stderr.read() if first.stderr else ""
        second = subprocess.run([*args, "--resume"], capture_output=True, text=True, timeout=60)
    finally:
        first.wait(timeout=120)
    assert second.returncode == 2 and "locked" in second.stderr
    assert first.returncode == 0
    lines = out.read_text().splitlines()
    assert [json.loads(line)["line"] for line in lines] == list(range(1, 3001))


# --- resumed only when it is this run's output ----------------------------------------------------------


def finished(tmp_path: Path, source: Path, fmt: str) -> Path:
    out = tmp_path / f"out.{fmt}"
    result = sudoku("solve", str(source), "-f", fmt, "-O", str(out), "-q", "-j", "1")
    assert result.exit_code == 0, result.stderr
    return out


def test_resume_with_other_puzzles_is_refused(tmp_path: Path, easy: Path) -> None:
    out = finished(tmp_path, easy, "json")
    before = out.read_bytes()
    hard = write(tmp_path / "hard.txt", HARD)
    refused(
        sudoku("solve", str(hard), "-f", "json", "-O", str(out), "--resume"),
        "line 1 is the record of",
        "puzzle 1 of this run is",
    )
    assert out.read_bytes() == before


@pytest.mark.parametrize(
    ("written", "asked"), [("line", "json"), ("json", "line"), ("json", "csv"), ("csv", "json"), ("line", "csv")]
)
def test_resume_in_another_format_is_refused(tmp_path: Path, easy: Path, written: str, asked: str) -> None:
    out = finished(tmp_path, easy, written)
    before = out.read_bytes()
    refused(sudoku("solve", str(easy), "-f", asked, "-O", str(out), "--resume"), f"cannot resume {out}")
    assert out.read_bytes() == before


def test_resume_over_a_corrupted_middle_line_is_refused(tmp_path: Path, easy: Path) -> None:
    out = finished(tmp_path, easy, "json")
    lines = out.read_text().splitlines()
    lines[2] = lines[2][:40] + "\x00\x00\x00" + lines[2][60:]
    out.write_text("\n".join(lines[:4]) + "\n")
    before = out.read_bytes()
    refused(sudoku("solve", str(easy), "-f", "json", "-O", str(out), "--resume"), "line 3 is not a json record")
    assert out.read_bytes() == before


def test_resume_of_a_file_that_is_not_an_output_is_refused(tmp_path: Path, easy: Path) -> None:
    passwd = tmp_path / "passwd"
    passwd.write_text("root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n")
    before = passwd.read_bytes()
    for fmt in ("line", "json", "csv"):
        refused(sudoku("solve", str(easy), "-f", fmt, "-O", str(passwd), "--resume"), f"cannot resume {passwd}")
    assert passwd.read_bytes() == before


def test_resume_of_something_that_is_not_a_regular_file_is_refused(easy: Path) -> None:
    refused(
        sudoku("solve", str(easy), "-f", "json", "-O", "/dev/full", "--resume"),
        "cannot resume /dev/full: not a regular file",
    )


def test_resume_of_an_output_with_more_records_than_the_input_is_refused(tmp_path: Path, easy: Path) -> None:
    out = finished(tmp_path, easy, "line")
    shorter = write(tmp_path / "shorter.txt", EASY[:4])
    refused(sudoku("solve", str(shorter), "-f", "line", "-O", str(out), "--resume"), "more records than the input")


# A run's records show what kind of run wrote them: a line record's answer (a solution, a count, a
# uniqueness), a json record's fields, and in json and csv the engine and the count up to the limit.
# Resumed by another kind of run, the file would end as records of two runs: refused, untouched.
OTHER_RUNS = [
    ("line", [], ["--count"], "is not a count of --count"),
    ("line", ["--count"], [], "is not a solution of the puzzle"),
    ("line", [], ["--unique"], "is not what --unique says"),
    ("line", ["--unique"], ["--count"], "is not a count of --count"),
    ("json", [], ["--count"], "count 1, exact false (this run stops at 10000 solutions"),
    ("json", ["--count"], [], "count 1, exact true (this run stops at 1 solution"),
    ("json", [], ["--unique"], "its fields are not this run's (without uniqueness)"),
    ("json", [], ["--limit", "3"], "its fields are not this run's (without solutions)"),
    ("json", [], ["-s", "python-constraint"], "it was solved by 'backtrack', not by 'python-constraint' (--strategy)"),
    ("csv", ["-s", "python-constraint"], [], "solved by 'python-constraint', not by 'backtrack' (--strategy)"),
    ("csv", [], ["--count"], "count 1, exact false"),
]


@pytest.mark.parametrize(("fmt", "first", "then", "says"), OTHER_RUNS)
def test_resume_by_another_kind_of_run_is_refused(
    tmp_path: Path, fmt: str, first: list[str], then: list[str], says: str
) -> None:
    source = write(tmp_path / "in.txt", EASY[:4])
    out = tmp_path / f"out.{fmt}"
    assert sudoku("solve", str(source), "-f", fmt, "-j", "1", "-q", "-O", str(out), *first).exit_code == 0
    before = out.read_bytes()
    write(source, EASY)  # more puzzles, then the same command with other options
    result = sudoku("solve", str(source), "-f", fmt, "-j", "1", "-O", str(out), "--resume", *then)
    refused(result, f"cannot resume {out}: line {2 if fmt == 'csv' else 1} is not a record this run writes", says)
    assert out.read_bytes() == before


def test_resume_with_another_box_is_refused(tmp_path: Path) -> None:
    """A 6x6 puzzle read with 2x3 boxes or 3x2: the same text, and a solution of one is none of the other."""
    six = [".1....3.4..1..6..3...1..6........45.", ".....2..6..5..53..4...6..1.....2...."]
    source = write(tmp_path / "six.txt", six)
    out = tmp_path / "out.txt"
    assert sudoku("solve", str(source), "-f", "line", "--box", "2x3", "-q", "-O", str(out)).exit_code == 0
    before = out.read_bytes()
    result = sudoku("solve", str(source), "-f", "line", "--box", "3x2", "-O", str(out), "--resume")
    refused(result, "line 1 is not a record this run writes", "is not a solution of the puzzle (box 3x2)")
    assert out.read_bytes() == before


@pytest.mark.parametrize(
    ("command", "first", "then", "says"),
    [
        ("check", ["-s", "backtrack,python-constraint"], ["-s", "python-constraint,backtrack"], "--strategies"),
        ("check", ["-s", "backtrack,python-constraint", "-f", "json"], ["-s", "backtrack", "-f", "json"], "compares"),
        ("check", ["-s", "backtrack", "-f", "json"], ["-s", "backtrack", "-f", "json", "--count"], "--count, --limit"),
        ("rate", [], [], "is not a rating"),
    ],
)
def test_resume_of_check_and_rate_records_by_another_run_is_refused(
    tmp_path: Path, command: str, first: list[str], then: list[str], says: str
) -> None:
    source = write(tmp_path / "in.txt", EASY[:4])
    out = tmp_path / "out.txt"
    made = sudoku("solve" if command == "rate" else command, str(source), "-f", "line", "-q", "-O", str(out), *first)
    assert made.exit_code == 0, made.stderr
    before = out.read_bytes()
    write(source, EASY)
    refused(sudoku(command, str(source), "-f", "line", "-O", str(out), "--resume", *then), "line 1", says)
    assert out.read_bytes() == before


@pytest.mark.parametrize(
    ("command", "args", "fmt"),
    [
        ("solve", ["--count"], "line"),
        ("solve", ["--unique"], "json"),
        ("solve", ["--limit", "3"], "json"),
        ("solve", ["-s", "python-constraint"], "csv"),
        ("check", ["-s", "backtrack,python-constraint"], "line"),
        ("check", ["-s", "backtrack,python-constraint", "--count"], "json"),
        ("rate", [], "line"),
        ("rate", [], "csv"),
    ],
)
def test_every_kind_of_run_resumes_its_own_output(tmp_path: Path, command: str, args: list[str], fmt: str) -> None:
    source = write(tmp_path / "in.txt", [*EASY[:4], "https://example.com/not:a:puzzle", *EASY[4:]])
    out = tmp_path / f"out.{fmt}"
    whole = sudoku(command, str(source), "-f", fmt, "-j", "1", "-q", "-O", str(out), *args)
    assert whole.exit_code == 2, whole.stderr  # the line that is not a puzzle
    lines = out.read_text().splitlines(keepends=True)
    header = fmt == "csv"
    out.write_text("".join(lines[: header + 5]) + lines[header + 5][:5])  # after the line that is not a puzzle: torn
    again = sudoku(command, str(source), "-f", fmt, "-j", "1", "-O", str(out), "--resume", *args)
    assert again.exit_code == 0, again.stderr  # the status of the puzzles this run did
    assert "(resumed after 5 already written)" in again.stderr
    assert len(out.read_text().splitlines()) == len(lines)


def test_line_records_of_lines_that_hold_colons_resume(tmp_path: Path) -> None:
    """The record of a line that is not a puzzle holds its text, colons and all (a link, a JSON object)."""
    source = write(tmp_path / "in.txt", [EASY[0], "https://example.com/?load=x", '{"bad": json}', EASY[1], EASY[2]])
    out = tmp_path / "out.txt"
    assert sudoku("solve", str(source), "-f", "line", "-q", "-O", str(out)).exit_code == 2
    full = out.read_text()
    assert full.splitlines()[1:3] == ["https://example.com/?load=x:invalid", '{"bad": json}:invalid']
    out.write_text("".join(full.splitlines(keepends=True)[:4]))
    again = sudoku("solve", str(source), "-f", "line", "-O", str(out), "--resume")
    assert "(resumed after 4 already written)" in again.stderr, again.stderr
    assert out.read_text() == full


def test_line_record_of_a_csv_row_with_a_quote_left_open_resumes(tmp_path: Path) -> None:
    """A CSV row whose quote does not close is an invalid record of no text, ``:invalid``: --resume read it as
    no record of the run ("not puzzle:answer") and refused the file it had written itself."""
    source = tmp_path / "in.csv"
    source.write_text("puzzle\n" + EASY[0] + '\n"' + EASY[1] + "\n" + EASY[2] + "\n")
    out = tmp_path / "out.txt"
    assert sudoku("solve", str(source), "-f", "line", "-q", "-O", str(out)).exit_code == 2
    full = out.read_text()
    assert full.splitlines()[1] == ":invalid"
    out.write_text("".join(full.splitlines(keepends=True)[:2]))
    again = sudoku("solve", str(source), "-f", "line", "-O", str(out), "--resume")
    assert "(resumed after 2 already written)" in again.stderr, again.stderr
    assert out.read_text() == full


@pytest.mark.parametrize("fmt", ["line", "json", "csv"])
def test_resume_over_a_damaged_solution_is_refused(tmp_path: Path, easy: Path, fmt: str) -> None:
    """Only the puzzle and where it came from were compared: a solution damaged in place was kept."""
    out = finished(tmp_path, easy, fmt)
    lines = out.read_bytes().splitlines(keepends=True)
    k = 1 + (fmt == "csv")  # the second record
    found = _solution_of(fmt, lines[k]).encode()
    damaged = found[:-2] + found[-1:] + found[-2:-1] if fmt == "json" else found[:-3] + b"\x00\xff6"
    assert damaged != found
    lines[k] = lines[k].replace(found, damaged)
    out.write_bytes(b"".join(lines))
    before = out.read_bytes()
    refused(
        sudoku("solve", str(easy), "-f", fmt, "-O", str(out), "--resume"),
        f"line {k + 1} is not a record this run writes",
        "is not a solution of the puzzle",
    )
    assert out.read_bytes() == before


def _solution_of(fmt: str, record: bytes) -> str:
    text = record.decode().rstrip("\n")
    if fmt == "line":
        return text.split(":")[1]
    if fmt == "json":
        return str(json.loads(text)["solution"])
    return next(csv.DictReader(io.StringIO(csv_header() + "\n" + text)))["solution"]


def test_resume_continues_a_cut_output_of_this_run(tmp_path: Path, easy: Path) -> None:
    for fmt in ("line", "json", "csv"):
        out = finished(tmp_path, easy, fmt)
        whole = out.read_text()
        lines = whole.splitlines(keepends=True)
        out.write_text("".join(lines[:3]) + lines[3][:10])  # cut, with a torn last line
        result = sudoku("solve", str(easy), "-f", fmt, "-O", str(out), "--resume")
        assert result.exit_code == 0, result.stderr
        kept = 2 if fmt == "csv" else 3  # the csv header is not a record
        assert f"(resumed after {kept} already written)" in result.stderr
        assert strip_times(fmt, out.read_text()) == strip_times(fmt, whole)


def strip_times(fmt: str, text: str) -> list[object]:
    if fmt == "line":
        return text.splitlines()
    if fmt == "csv":
        return [{k: v for k, v in row.items() if k != "elapsed_ms"} for row in csv.DictReader(io.StringIO(text))]
    return [{k: v for k, v in json.loads(line).items() if k != "elapsed_ms"} for line in text.splitlines()]


def test_resume_reads_the_output_streamed(tmp_path: Path) -> None:
    """A 100 MB output of this run's records: checked to its end without holding it in memory.

    Each record is a puzzle that timed out (no solution to check), with 2 kB of an engine's stats.
    """
    clues = puzzles("17clue.txt")
    source = write(tmp_path / "clues.txt", clues)
    out = tmp_path / "out.jsonl"
    stats = {"trail": "x" * 2000}
    with out.open("w") as handle:
        for number, text in enumerate(clues, 1):
            record = {
                "puzzle": Grid.parse(text).to_line(),
                "strategy": "backtrack",
                "status": "timeout",
                "solution": None,
                "count": 0,
                "exact": False,
                "elapsed_ms": 60000.0,
                "stats": stats,
                "error": None,
                "source": str(source),
                "line": number,
            }
            handle.write(json.dumps(record) + "\n")
    size = out.stat().st_size
    assert size > 100_000_000
    done, rss = sudoku_rss("solve", str(source), "-f", "json", "-O", str(out), "--resume", "-j", "1")
    assert done.returncode == 0, done.stderr
    assert f"(resumed after {len(clues)} already written)" in done.stderr
    assert out.stat().st_size == size
    assert rss < 120 * 2**20, f"peak RSS {rss / 2**20:.0f} MiB reading a {size / 2**20:.0f} MiB output"


# --- inputs checked before any work ---------------------------------------------------------------------


SETPRIV = shutil.which("setpriv")


@pytest.mark.skipif(SETPRIV is None or os.geteuid() != 0, reason="needs setpriv to make root obey file modes")
def test_an_unreadable_second_input_stops_the_run_before_any_work(tmp_path: Path, easy: Path) -> None:
    locked = write(tmp_path / "locked.txt", HARD)
    locked.chmod(0)
    out = tmp_path / "out.jsonl"
    args = [sys.executable, "-m", "sudokit", "solve", str(easy), str(locked), "-j", "2", "-f", "json", "-O", str(out)]
    done = subprocess.run(
        [str(SETPRIV), "--inh-caps=-all", "--bounding-set=-all", *args], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr.strip() == f"sudoku: error: cannot read {locked}: Permission denied"
    assert not out.exists()


# --- csv ------------------------------------------------------------------------------------------------


def test_csv_quotes_a_file_name_with_a_line_break_and_resumes_across_it(tmp_path: Path) -> None:
    source = write(tmp_path / "two\nlines.txt", EASY)
    out = finished(tmp_path, source, "csv")
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert [row["source"] for row in rows] == [str(source)] * len(EASY)
    assert [int(row["line"]) for row in rows] == list(range(1, len(EASY) + 1))
    assert {row["exact"] for row in rows} == {"false"}  # csv booleans are true/false
    whole = out.read_text()
    out.write_text(whole[: whole.index(str(source), whole.index(str(source)) + 1) + 5])  # cut inside record 2's name
    result = sudoku("solve", str(source), "-f", "csv", "-O", str(out), "--resume")
    assert result.exit_code == 0, result.stderr
    assert "(resumed after 1 already written)" in result.stderr
    assert strip_times("csv", out.read_text()) == strip_times("csv", whole)


def test_puzzles_dir_is_not_touched_by_resume_of_a_data_file() -> None:
    """A data file named as --output with --resume is checked like any output: refused, unchanged."""
    data = PUZZLES / "hardest.txt"
    before = data.read_bytes()
    refused(sudoku("solve", str(PUZZLES / "easy50.txt"), "-f", "line", "-O", str(data), "--resume"), "cannot resume")
    assert data.read_bytes() == before


def test_resume_over_a_quote_that_never_closes_is_refused_in_bounded_memory(tmp_path: Path, easy: Path) -> None:
    out = finished(tmp_path, easy, "csv")
    with out.open("a") as handle:
        handle.write('"' + "x" * 1000 + "\n")
        for _ in range(20_000):
            handle.write("y" * 1000 + "\n")  # 20 MB that a csv reader would gather into one field
    done, rss = sudoku_rss("solve", str(easy), "-f", "csv", "-O", str(out), "--resume")
    assert done.returncode == 2
    assert done.stderr.strip().endswith(f"line {len(EASY) + 2} opens a quoted field that does not end")
    assert rss < 100 * 2**20, f"{rss / 2**20:.0f} MiB"
