"""Standard streams that are closed, full or gone: one line and a meaningful status, never a traceback.

Run as a real process: a closed stdin, stdout or stderr (``<&-``, ``>&-``, ``2>&-``), a full disk
(``> /dev/full``) for every command and for ``--help``, a reader that goes away (``| head -1``:
exit 141, as for a process ended by SIGPIPE, not 1, which means "unsolvable"), and inputs that are
not regular files (``<(cmd)``, ``/dev/stdin``).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from sudokit import Grid, is_solution
from tests.conftest import PUZZLES, puzzles

UNIQUE = puzzles("top95.txt")[1]
SUDOKU = f"{shlex.quote(sys.executable)} -m sudokit"


def bash(script: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1"}
    env.pop("FORCE_COLOR", None)
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env, timeout=60, **kwargs)  # type: ignore[call-overload]


def test_closed_stdout_is_an_error_on_stderr() -> None:
    done = bash(f"{SUDOKU} solve {UNIQUE} >&-")
    assert done.returncode == 2
    assert done.stderr.strip() == "sudoku: error: standard output is closed: nothing can be written (use --output FILE)"


def test_closed_stdout_with_an_output_file_is_fine(tmp_path: Path) -> None:
    out = tmp_path / "out.txt"
    done = bash(f"{SUDOKU} solve -f line -O {out} {UNIQUE} >&-")
    assert done.returncode == 0, done.stderr
    puzzle, solution = out.read_text().strip().split(":")
    assert is_solution(Grid.parse(puzzle), Grid.parse(solution))


def test_closed_stdin_read_as_dash_is_an_error() -> None:
    done = bash(f"{SUDOKU} solve - <&-")
    assert done.returncode == 2
    assert done.stderr.strip() == "sudoku: error: standard input is closed: there are no puzzles to read from -"


def test_closed_stderr_does_not_stop_the_records() -> None:
    done = bash(f"{SUDOKU} solve -f line {UNIQUE} {PUZZLES / 'counts.txt'} 2>&-")
    assert done.returncode == 1  # counts.txt holds puzzles with no solution
    assert len(done.stdout.splitlines()) == 1 + 50


@pytest.mark.parametrize(
    "command",
    [
        f"solve {UNIQUE}",
        f"solve -f json {PUZZLES / 'easy50.txt'}",
        "strategies",
        f"bench {PUZZLES / 'hardest.txt'} -s backtrack --first 2",
        "--help",
        "solve -h",
        "--version",
    ],
)
def test_a_full_stdout_is_one_line_naming_standard_output(command: str) -> None:
    done = bash(f"{SUDOKU} {command} > /dev/full")
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert (
        done.stderr.strip().splitlines()[-1] == "sudoku: error: cannot write standard output: No space left on device"
    )


def test_a_full_output_file_is_named() -> None:
    done = bash(f"{SUDOKU} solve -f line -O /dev/full {UNIQUE}")
    assert done.returncode == 2
    assert done.stderr.strip() == "sudoku: error: cannot write /dev/full: No space left on device"


def test_a_reader_that_goes_away_ends_the_run_with_141() -> None:
    args = [sys.executable, "-m", "sudokit", "solve", "-f", "line", "-j", "2", str(PUZZLES / "17clue.txt")]
    with subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        first = proc.stdout.readline()
        proc.stdout.close()  # as `| head -1` does
        stderr = proc.stderr.read()
        status = proc.wait(timeout=60)
    assert ":" in first
    assert status == 141, stderr
    assert "Traceback" not in stderr and "Exception ignored" not in stderr
    assert "BrokenPipe" not in stderr


def test_head_in_a_shell_pipeline() -> None:
    done = bash(f"set -o pipefail; {SUDOKU} solve -f line {PUZZLES / '17clue.txt'} | head -1")
    assert done.returncode == 141
    assert done.stderr == ""
    assert len(done.stdout.splitlines()) == 1


def test_process_substitution_and_dev_stdin_are_inputs() -> None:
    done = bash(f"{SUDOKU} solve -f line <(head -3 {PUZZLES / 'easy50.txt'}) /dev/stdin < {PUZZLES / 'hardest.txt'}")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 3 + 11
    for line in lines:
        puzzle, solution = line.split(":")
        assert is_solution(Grid.parse(puzzle), Grid.parse(solution))


def test_a_fifo_is_an_input(tmp_path: Path) -> None:
    fifo = tmp_path / "puzzles.fifo"
    os.mkfifo(fifo)
    done = bash(f"(head -4 {PUZZLES / 'easy50.txt'} > {fifo} &) ; {SUDOKU} solve -f line {fifo}")
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 4
