"""The progress bar on a terminal: never glued to a record or a message, counting failures, also in bench.

The command runs on a real pseudo-terminal (stdout and stderr both on it, as in an interactive
shell). The bar is drawn as ``\\r<bar>\\x1b[K``; before anything else is written the bar is erased
(``\\r\\x1b[K``), so every record and every message starts at the beginning of a clean line.
"""

from __future__ import annotations

import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import PUZZLES, puzzles

pty = pytest.importorskip("pty")

CLEAR = "\r\x1b[K"
BAR = re.compile(r"\r(\[[#-]+\] \d+/\d+|\d+ \w+)")


def on_a_terminal(args: list[str], *, interrupt_after: float | None = None) -> tuple[int, str]:
    """Run ``args`` with stdout and stderr on one pseudo-terminal; (exit status, all it wrote)."""
    master, slave = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "PYTHONWARNINGS")}
    proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, env=env)
    os.close(slave)
    chunks: list[bytes] = []
    start = time.monotonic()
    interrupted = False
    while time.monotonic() - start < 120:
        if interrupt_after is not None and not interrupted and time.monotonic() - start > interrupt_after:
            proc.send_signal(signal.SIGINT)
            interrupted = True
        if select.select([master], [], [], 0.05)[0]:
            try:
                data = os.read(master, 65536)
            except OSError:  # the terminal's other end closed: the process and its workers are done
                break
            if not data:
                break
            chunks.append(data)
    os.close(master)
    return proc.wait(timeout=30), b"".join(chunks).decode("utf-8", "replace")


def starts_clean(text: str, position: int) -> bool:
    """True when what is written at ``position`` begins a line: after a newline, or after the bar was erased."""
    return position == 0 or text[position - 1] == "\n" or text.endswith(CLEAR, 0, position)


def assert_nothing_glued(output: str, starts: list[str]) -> None:
    for start in starts:
        for match in re.finditer(re.escape(start), output):
            assert starts_clean(output, match.start()), repr(output[max(0, match.start() - 80) : match.end() + 20])


@pytest.fixture
def batch(tmp_path: Path) -> tuple[Path, list[str]]:
    """600 puzzles with an invalid line every 50: records, error messages and a bar, all on one terminal."""
    lines = puzzles("17clue.txt")[:600]
    for k in range(25, 600, 50):
        lines[k] = "not a puzzle"
    path = tmp_path / "batch.txt"
    path.write_text("\n".join(lines) + "\n")
    return path, lines


def test_records_and_messages_never_share_a_line_with_the_bar(batch: tuple[Path, list[str]]) -> None:
    path, lines = batch
    status, output = on_a_terminal([sys.executable, "-m", "sudokit", "solve", str(path), "-f", "line", "-j", "2"])
    assert status == 2
    assert BAR.search(output), "no progress bar was drawn"
    records = [text.split(":")[0] for text in lines if text != "not a puzzle"]
    assert_nothing_glued(output, [*records[:100], "sudoku: error:", "600 puzzles:"])
    assert re.search(r"\d+ failed", output), "the bar does not count the failures"


def test_the_interrupted_message_starts_a_line(tmp_path: Path) -> None:
    path = tmp_path / "many.txt"
    path.write_text("\n".join(puzzles("17clue.txt")[:20000]) + "\n")
    out = tmp_path / "out.txt"
    args = [sys.executable, "-m", "sudokit", "solve", str(path), "-f", "line", "-j", "2", "-O", str(out)]
    status, output = on_a_terminal(args, interrupt_after=2.0)
    assert status == 130, output[-500:]
    assert BAR.search(output)
    assert_nothing_glued(output, ["sudoku: interrupted after"])


def test_bench_shows_progress_and_erases_it_before_the_table() -> None:
    args = [sys.executable, "-m", "sudokit", "bench", str(PUZZLES / "top95.txt"), "-s", "backtrack", "--first", "60"]
    status, output = on_a_terminal(args)
    assert status == 0, output
    assert re.search(r"\r\[[#-]+\] \d+/60", output), "no progress bar in bench"
    assert_nothing_glued(output, ["data set", "top95 "])
