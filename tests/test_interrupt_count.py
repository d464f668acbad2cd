"""Ctrl-C that lands while a record is being written: the count the run reports is what the file holds.

The run counted a record, then wrote it; a signal between the two (a busy machine makes that window real) made
"interrupted after N puzzles" one more than the file held, or a whole block more on the fast path.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles" / "17clue.txt"

#: The run, with the record writer sending the process SIGINT (or SIGTERM) just before its WRITE-th write (of one
#: record's text or of a block's bytes): the signal's handler runs inside that write, as a Ctrl-C coming then would.
SCRIPT = """
import os, signal, sys
from sudokit.cli import main
from sudokit.runtime import output
calls = [0]
def signalling(write):
    def signalled(self, text):
        calls[0] += 1
        if calls[0] == int(os.environ["WRITE"]):
            os.kill(os.getpid(), int(os.environ["SIGNAL"]))
        write(self, text)
    return signalled
output.RecordWriter.write = signalling(output.RecordWriter.write)
output.RecordWriter.write_lines = signalling(output.RecordWriter.write_lines)  # a block's records made as bytes
sys.argv = ["sudoku", *sys.argv[1:]]
main()
"""


def run(tmp_path: Path, write: int, signum: int, *args: str) -> tuple[int, str, list[str]]:
    out = tmp_path / "out.txt"
    env = {**__import__("os").environ, "WRITE": str(write), "SIGNAL": str(int(signum))}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, *args, "-O", str(out)], capture_output=True, text=True, timeout=120, env=env
    )
    return done.returncode, done.stderr, out.read_text().splitlines()


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_generated_run_stopped_mid_write_reports_the_records_the_file_holds(tmp_path: Path, signum: int) -> None:
    code, stderr, lines = run(tmp_path, 5, signum, "generate", "--box", "2x2", "-n", "50", "--seed", "3", "-f", "json")
    assert code == (130 if signum == signal.SIGINT else 143), stderr
    assert len(lines) == 5 and all(json.loads(line)["index"] for line in lines)
    assert "interrupted after 5 puzzles; every record written is complete" in stderr.splitlines()[-1]


@pytest.mark.parametrize(("engine", "write"), [("backtrack", 3), ("numba", 1)])  # records one by one; blocks
def test_a_batch_stopped_mid_write_reports_the_records_the_file_holds(tmp_path: Path, engine: str, write: int) -> None:
    puzzles = tmp_path / "in.txt"
    puzzles.write_text("".join(PUZZLES.read_text().splitlines(keepends=True)[:30000]))
    code, stderr, lines = run(tmp_path, write, signal.SIGINT, "solve", "-s", engine, "-f", "line", "-q", str(puzzles))
    assert code == 130, stderr
    assert write <= len(lines) < 30000
    assert f"interrupted after {len(lines):,} puzzles; every record written is complete" in stderr, stderr
