"""Standard streams that are closed, full or gone: one line and a meaningful status, never a traceback.

Run as a real process: a closed stdin, stdout or stderr (``<&-``, ``>&-``, ``2>&-``), a full disk
(``> /dev/full``) for every command and for ``--help``, a reader that goes away (``| head -1``:
exit 141, as for a process ended by SIGPIPE, not 1, which means "unsolvable"), and inputs that are
not regular files (``<(cmd)``, ``/dev/stdin``).
"""

from __future__ import annotations

import os
import select
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from sudokit import Grid, is_solution
from tests.conftest import PUZZLES, SIZES, puzzle_lines, puzzles

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


# --- --output a pipe: written only, so that it breaks when its reader goes ----------------------------


def test_output_to_dev_stdout_in_a_pipeline_ends_when_the_reader_goes() -> None:
    """``-O /dev/stdout | head -1``: the output was opened read-write, holding a read end of the pipe
    itself, so the pipe never broke and the run hung once it was full."""
    done = bash(f"set -o pipefail; {SUDOKU} solve -f line -q -O /dev/stdout {PUZZLES / '17clue.txt'} | head -1")
    assert done.returncode == 141, done.stderr
    assert done.stderr == ""
    assert len(done.stdout.splitlines()) == 1


def test_output_to_a_fifo_ends_when_the_reader_goes(tmp_path: Path) -> None:
    fifo = tmp_path / "records.fifo"
    os.mkfifo(fifo)
    first = tmp_path / "first.txt"
    done = bash(f"head -1 {fifo} > {first} & {SUDOKU} solve -f line -O {fifo} {PUZZLES / '17clue.txt'}")
    assert done.returncode == 141, done.stderr
    assert done.stderr == ""
    puzzle, solution = first.read_text().strip().split(":")
    assert is_solution(Grid.parse(puzzle), Grid.parse(solution))


def test_killed_twice_while_its_output_and_stderr_are_stuck_it_ends_quietly(tmp_path: Path) -> None:
    """A reader that holds the FIFO but reads nothing: the records, then the message (stderr is the same
    pipe) would block. A kill ends the run all the same, and a second kill during that stop neither
    breaks it off (exit 130, a traceback) nor is needed."""
    import fcntl
    import signal
    import termios

    fifo = tmp_path / "stuck.fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # held, never read until the end
    try:
        with open(fifo, "wb") as stderr:
            clues = str(PUZZLES / "17clue.txt")
            args = [sys.executable, "-m", "sudokit", "solve", "-f", "line", "-O", str(fifo), clues]
            process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=stderr)
        try:
            for _ in range(6000):  # until the pipe is full (the run is blocked writing a record), or 60 s
                waiting = bytearray(4)
                fcntl.ioctl(reader, termios.FIONREAD, waiting)
                if int.from_bytes(waiting, sys.byteorder) >= 60_000 or process.poll() is not None:
                    break
                time.sleep(0.01)
            assert process.poll() is None, "the run ended before its output was stuck"
            process.send_signal(signal.SIGTERM)
            time.sleep(0.2)
            process.send_signal(signal.SIGTERM)
            status = process.wait(timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
        data = b""
        while chunk := os.read(reader, 1 << 16):
            data += chunk
    finally:
        os.close(reader)
    assert status == 143
    assert b"Traceback" not in data and b"Exception" not in data


# --- standard input read as a file is: lines end at \n, \r\n or \r --------------------------------------


def _stdin_lines(count: int) -> list[str]:
    """``count`` puzzle lines: easy50's puzzles among the solved grids of sizes/box3x3.txt (quick to solve)."""
    solved = [line.note for line in puzzle_lines(SIZES / "box3x3.txt")]
    easy = puzzles("easy50.txt")
    return [easy[i % len(easy)] if i % 20 == 0 else str(solved[i % len(solved)]) for i in range(count)]


@pytest.mark.parametrize("newline", ["\r", "\r\n", "\n"])
@pytest.mark.parametrize("count", [2, 1000])
def test_standard_input_is_split_into_lines_as_a_file_is(tmp_path: Path, newline: str, count: int) -> None:
    """``printf 'P1\\rP2\\r' | sudoku solve -`` was one puzzle of 162 cells (Python's stdin splits at \\n
    only); 1,000 lines (82 kB) are more than a pipe holds and than one read of the stream."""
    lines = _stdin_lines(count)
    path = tmp_path / "puzzles.txt"
    path.write_bytes(newline.join(lines).encode() + newline.encode())
    piped = bash(f"cat {path} | {SUDOKU} solve - -f line -j 1")
    assert piped.returncode == 0, piped.stderr[-500:]
    records = piped.stdout.splitlines()
    assert len(records) == count
    for line, record in zip(lines, records, strict=True):
        puzzle, solution = record.split(":")
        assert Grid.parse(puzzle) == Grid.parse(line)
        assert is_solution(Grid.parse(line), Grid.parse(solution))
    assert piped.stderr.splitlines()[-1].startswith(f"{count:,} puzzle{'s' if count > 1 else ''}: {count:,} solved,")
    if count == 2:  # the file itself, named: the same records
        named = bash(f"{SUDOKU} solve {path} -f line -j 1")
        assert named.stdout == piped.stdout


@pytest.mark.parametrize("newline", ["\r", "\r\n"])
@pytest.mark.parametrize("how", ["pipe", "file"])
def test_standard_input_gives_the_files_records_on_the_batch_paths_reader(
    tmp_path: Path, newline: str, how: str
) -> None:
    """The batch path's reader (``read_items``) of ``-`` and ``/dev/stdin``, from a pipe and from a file,
    gives the records of the file read by name: line numbers and notes too, a read cut anywhere."""
    lines = [f"{line}:{i}" if i % 7 == 0 else line for i, line in enumerate(_stdin_lines(1500))]
    lines[10:10] = ["# a comment", "", *Grid.parse(puzzles("top95.txt")[0]).to_pretty().splitlines()]
    path = tmp_path / "puzzles.txt"
    path.write_bytes(newline.join(lines).encode() + newline.encode())
    script = (
        "import sys\n"
        "from sudokit.runtime import fastpath\n"
        "fastpath.READ_SIZE = 4099\n"  # blocks cut anywhere: a \r\n split between two of them too
        "for arg in sys.argv[1:]:\n"
        "    for record in fastpath.expand_blocks(fastpath.read_items([arg])):\n"
        "        print(record.line, record.text.replace(chr(10), '/'), record.note, sep='|')\n"
    )
    feed = f"cat {path} |" if how == "pipe" else ""
    into = "" if how == "pipe" else f"< {path}"
    runs = {}
    for arg in ("-", "/dev/stdin", str(path)):
        done = bash(f"{feed} {shlex.quote(sys.executable)} -c {shlex.quote(script)} {arg} {into}")
        assert done.returncode == 0, done.stderr[-500:]
        runs[arg] = done.stdout.splitlines()
    assert len(runs[str(path)]) == 1500 + 1
    assert runs["-"] == runs[str(path)]
    assert runs["/dev/stdin"] == runs[str(path)]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_line_of_standard_input_is_answered_before_the_next_line_comes(jobs: int) -> None:
    """``producer | sudoku solve -``: each record is written as soon as its line is solved, while the producer
    is still to write the next one. The worker pool drew the next line before it wrote the answers it held,
    and a read of a pipe waits: no answer came until the producer wrote on (or ended)."""
    lines = puzzles("top95.txt")[:3]
    env = {**os.environ, "NO_COLOR": "1"}
    command = [sys.executable, "-m", "sudokit", "solve", "-", "-f", "line", "-j", str(jobs)]
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        try:
            for line in lines:
                process.stdin.write(line.encode() + b"\n")
                process.stdin.flush()
                # the answer, with the pipe left open: 60 s is a hang, not a slow machine (a record takes ~1 s)
                ready, _, _ = select.select([process.stdout], [], [], 60)
                assert ready, f"no record for {line[:20]}... while standard input stays open"
                puzzle, solution = process.stdout.readline().decode().strip().split(":")
                assert Grid.parse(puzzle) == Grid.parse(line)
                assert is_solution(Grid.parse(line), Grid.parse(solution))
            process.stdin.close()
            assert process.wait(timeout=60) == 0
            assert process.stdout.read() == b""
        finally:
            process.kill()


def _own_cpu_seconds(pid: int) -> float:
    """The CPU time of process ``pid`` itself (user + system, not its children), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
def test_waiting_for_its_workers_with_standard_input_unread_costs_the_caller_no_cpu() -> None:
    """More lines piped in than the pool draws ahead: while its worker is busy the caller waits, asleep. It
    waited for standard input too, which is readable at once when lines are left: a loop at full speed."""
    lines = puzzles("17clue.txt")[:2500]  # 205 kB: more than a pipe holds, and about 1-2 s of backtrack's work
    env = {**os.environ, "NO_COLOR": "1"}
    command = [sys.executable, "-m", "sudokit", "solve", "-", "-s", "backtrack", "-f", "line", "-q", "-j", "1"]
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        try:
            data = "".join(f"{line}\n" for line in lines).encode()
            feed = threading.Thread(target=lambda: (process.stdin.write(data), process.stdin.flush()), daemon=True)
            start = time.monotonic()
            feed.start()  # the pipe left open: the caller cannot tell that no more will come
            records = [process.stdout.readline() for _ in lines]
            wall = time.monotonic() - start
            cpu = _own_cpu_seconds(process.pid)
            feed.join(timeout=60)
            process.stdin.close()
            assert process.wait(timeout=60) == 0
        finally:
            process.kill()
    assert all(record.endswith(b"\n") and b":" in record for record in records)
    # asleep while its worker works: start-up and the records, well under a second; spinning, most of the wall
    assert cpu < max(0.8, 0.4 * wall), f"the caller used {cpu:.2f} s of CPU in {wall:.2f} s"
