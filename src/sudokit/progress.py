"""A one-line progress bar on a terminal, and the batch summary."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TextIO

__all__ = ["Progress", "Tally", "count_puzzle_lines"]


def count_puzzle_lines(paths: Iterable[str]) -> int:
    """Roughly how many puzzles the files hold (lines that are not blank or comments), read fast."""
    total = 0
    for path in paths:
        with open(path, "rb") as handle:
            for line in handle:
                stripped = line.strip()
                if stripped and not stripped.startswith(b"#"):
                    total += 1
    return total


@dataclass
class Tally:
    """Counts of outcomes by status, and the time since the batch began."""

    start: float = field(default_factory=time.perf_counter)
    by_status: Counter[str] = field(default_factory=Counter)

    def add(self, status: str) -> None:
        self.by_status[status] += 1

    @property
    def done(self) -> int:
        return sum(self.by_status.values())

    def summary(self) -> str:
        """``N puzzles: a solved, b unsolvable, c timed out, d invalid, e errors in S s (R puzzles/s)``."""
        seconds = time.perf_counter() - self.start
        s = self.by_status
        rate = self.done / seconds if seconds > 0 else 0.0
        parts = [
            f"{s['solved']} solved",
            f"{s['unsolvable']} unsolvable",
            f"{s['timeout']} timed out",
            f"{s['invalid']} invalid",
        ]
        if s["error"]:
            parts.append(f"{s['error']} engine errors")
        noun = "puzzle" if self.done == 1 else "puzzles"
        return f"{self.done} {noun}: {', '.join(parts)} in {seconds:.2f} s ({rate:.1f} puzzles/s)"


class Progress:
    """Puzzles done, rate and time left, redrawn in place at most ten times a second."""

    def __init__(self, stream: TextIO, total: int | None = None) -> None:
        self.stream = stream
        self.total = total
        self.start = time.perf_counter()
        self.last = 0.0
        self.drawn = False

    def update(self, done: int, *, force: bool = False) -> None:
        now = time.perf_counter()
        if not force and now - self.last < 0.1:
            return
        self.last = now
        elapsed = now - self.start
        rate = done / elapsed if elapsed > 0 else 0.0
        if self.total:
            total = max(self.total, done)
            width = 30
            filled = int(width * done / total)
            left = (total - done) / rate if rate > 0 else 0.0
            bar = "#" * filled + "-" * (width - filled)
            text = f"[{bar}] {done}/{total}  {rate:.0f}/s  {_clock(elapsed)} elapsed, {_clock(left)} left"
        else:
            text = f"{done} puzzles  {rate:.0f}/s  {_clock(elapsed)} elapsed"
        self.stream.write("\r" + text + "\x1b[K")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}"
