"""Arguments that name paths: FIFOs, ``/dev/fd/N`` and ``<(cmd)`` are files; unreadable ones fail before any work.

Permission checks run in a child process whose capabilities ``setpriv`` dropped, so that root (as
tests run here and in CI) obeys the file modes like anyone else.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from sudokit import Grid
from sudokit.io.reader import check_arguments, read_arguments

from .conftest import ROOT, puzzles

SETPRIV = shutil.which("setpriv")
#: The check, in a child: prints the error of ``check_arguments(argv)``, or ``ok``.
CHECK = """
import sys
from sudokit.errors import InvalidPuzzleError
from sudokit.io.reader import check_arguments
try:
    check_arguments(sys.argv[1:])
    print("ok")
except InvalidPuzzleError as err:
    print(err)
"""


def checked_without_privileges(*args: str) -> str:
    """What ``check_arguments(args)`` says in a child process that file modes apply to, even as root."""
    if os.geteuid() == 0 and SETPRIV is None:
        pytest.skip("root ignores file modes, and setpriv (util-linux) is not there to drop that")
    prefix = [SETPRIV, "--inh-caps=-all", "--bounding-set=-all"] if os.geteuid() == 0 and SETPRIV else []
    done = subprocess.run(
        [*prefix, sys.executable, "-c", CHECK, *args], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_an_unreadable_file_fails_the_check_naming_it(tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    good.write_text(puzzles("easy50.txt")[0] + "\n")
    locked = tmp_path / "locked.txt"
    locked.write_text(puzzles("easy50.txt")[1] + "\n")
    locked.chmod(0)
    assert checked_without_privileges(str(good)) == "ok"
    assert checked_without_privileges(str(good), str(locked)) == f"cannot read {locked}: Permission denied"


def test_a_directory_that_may_not_be_entered_fails_the_check(tmp_path: Path) -> None:
    closed = tmp_path / "closed"
    closed.mkdir()
    (closed / "puzzles.txt").write_text(puzzles("easy50.txt")[0] + "\n")
    closed.chmod(0o600)  # no x: the file in it cannot be reached
    inside = str(closed / "puzzles.txt")
    assert checked_without_privileges(inside) == f"cannot read {inside}: Permission denied"


def test_an_unreadable_fifo_fails_the_check_without_being_opened(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo, 0o200)  # write-only; opening it to read would also wait for a writer forever
    assert checked_without_privileges(str(fifo)) == f"cannot read {fifo}: Permission denied"


def test_a_fifo_passes_the_check_unopened_and_is_read_as_a_file(tmp_path: Path) -> None:
    easy = puzzles("easy50.txt")[:3]
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    # With no writer, a check that opened the FIFO would never return (the child is killed at the timeout).
    assert checked_without_privileges(str(fifo)) == "ok"

    def write() -> None:
        with fifo.open("w") as pipe:
            pipe.write("".join(p + "\n" for p in easy))

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    records = list(read_arguments([str(fifo)]))
    writer.join(timeout=10)
    assert [(r.source, r.line) for r in records] == [(str(fifo), n) for n in (1, 2, 3)]
    assert [r.parse() for r in records] == [Grid.parse(p) for p in easy]


def test_a_pipe_named_by_dev_fd_is_read_as_a_file() -> None:
    easy = puzzles("easy50.txt")[:2]
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, "".join(p + "\n" for p in easy).encode())
        os.close(write_end)
        name = f"/dev/fd/{read_end}"
        check_arguments([name])
        records = list(read_arguments([name]))
    finally:
        os.close(read_end)
    assert [(r.source, r.line) for r in records] == [(name, 1), (name, 2)]
    assert [r.parse() for r in records] == [Grid.parse(p) for p in easy]


READ = """
import sys
from sudokit.io.reader import check_arguments, read_arguments
check_arguments(sys.argv[1:])
for record in read_arguments(sys.argv[1:]):
    print(record.line, record.parse().to_line())
"""


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash for <(cmd)")
def test_bash_process_substitution_is_read_as_a_file(tmp_path: Path) -> None:
    easy = puzzles("easy50.txt")[:2]
    script = tmp_path / "read.py"
    script.write_text(READ)
    command = '"$0" "$1" <(printf "%s\\n" "$2" "$3")'
    done = subprocess.run(
        ["bash", "-c", command, sys.executable, str(script), *easy],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"{n} {Grid.parse(p).to_line()}" for n, p in enumerate(easy, 1)]


def test_a_puzzle_longer_than_a_file_name_can_be_is_a_puzzle() -> None:
    """A 25x25 puzzle (625 characters, past the 255 of a file name) is looked up as a path, then read as a puzzle."""
    puzzle, _, _ = (ROOT / "puzzles" / "sizes" / "box5x5.txt").read_text().strip().partition(":")
    assert len(puzzle) > 255
    check_arguments([puzzle])
    [record] = read_arguments([puzzle])
    assert (record.source, record.line) == ("<argument>", None)
    assert record.parse() == Grid.parse(puzzle)
