"""What a batch tells the person running it: a progress bar on a terminal, messages, and the summary."""

from __future__ import annotations

import contextlib
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TextIO

__all__ = ["Console", "Progress", "Tally", "counted", "same_terminal"]


def counted(k: int, noun: str, plural: str | None = None) -> str:
    """A count and its noun, for people: ``1 puzzle``, ``5,000 puzzles`` (thousands separated everywhere)."""
    return f"{k:,} {noun if k == 1 else plural or noun + 's'}"


@dataclass(eq=False, repr=False)  # no generated methods it does not use: start-up
class Tally:
    """Counts of a batch's answers (``solved``, ``unsolvable``, ... or ``unique``, ``several``, ...).

    ``ok`` are the answers that count as success: the others make the exit status 1 (2 for
    ``invalid`` and ``error``) and show as failures on the progress bar.
    """

    ok: tuple[str, ...] = ("solved",)
    start: float = field(default_factory=time.perf_counter)
    by_answer: Counter[str] = field(default_factory=Counter)

    def add(self, answer: str) -> None:
        """Count one puzzle's answer."""
        self.by_answer[answer] += 1

    @property
    def done(self) -> int:
        """Puzzles counted so far."""
        return sum(self.by_answer.values())

    @property
    def failed(self) -> int:
        """Puzzles counted so far whose answer is not a success."""
        return self.done - sum(self.by_answer[a] for a in self.ok)

    def exit_status(self) -> int:
        """0 every answer a success, 2 some invalid input, engine error or unsupported rule, else 1."""
        if self.by_answer["invalid"] or self.by_answer["error"] or self.by_answer["unsupported"]:
            return 2
        return 1 if self.failed else 0

    def summary(self) -> str:
        """``N puzzles: a solved, b unsolvable, c timed out, d invalid, e engine errors in S s (R puzzles/s)``."""
        seconds = time.perf_counter() - self.start
        s = self.by_answer
        rate = self.done / seconds if seconds > 0 else 0.0
        if "unique" in self.ok:
            parts = [f"{s['unique']:,} unique", f"{s['several']:,} several", f"{s['none']:,} none"]
        else:
            parts = [f"{s['solved']:,} solved", f"{s['unsolvable']:,} unsolvable"]
            if s["several"]:  # sudoku rate: puzzles with several solutions are not rated
                parts.append(f"{s['several']:,} not unique")
        parts += [f"{s['timeout']:,} timed out", f"{s['invalid']:,} invalid"]
        if s["error"]:
            parts.append(counted(s["error"], "engine error"))
        if s["unsupported"]:
            parts.append(f"{s['unsupported']:,} unsupported")
        return f"{counted(self.done, 'puzzle')}: {', '.join(parts)} in {seconds:.2f} s ({rate:,.1f} puzzles/s)"


class Progress:
    """Puzzles done, failures, rate and time left, redrawn in place at most ten times a second."""

    def __init__(self, stream: TextIO, total: int | None = None, *, noun: str = "puzzles") -> None:
        self.stream = stream
        self.total = total
        self.noun = noun
        self.start = time.perf_counter()
        self.last = 0.0
        self.drawn = False

    def update(self, done: int, failed: int = 0, *, failures: str = "failed", force: bool = False) -> None:
        """Redraw the bar (unless it was drawn less than 0.1 s ago)."""
        now = time.perf_counter()
        if not force and self.drawn and now - self.last < 0.1:
            return
        self.last = now
        elapsed = now - self.start
        rate = done / elapsed if elapsed > 0 else 0.0
        failing = f"  {failed} {failures}" if failed else ""
        if self.total:
            total = max(self.total, done)
            width = 30
            filled = int(width * done / total)
            left = (total - done) / rate if rate > 0 else 0.0
            bar = "#" * filled + "-" * (width - filled)
            text = f"[{bar}] {done}/{total}{failing}  {rate:.0f}/s  {_clock(elapsed)} elapsed, {_clock(left)} left"
        else:
            text = f"{done} {self.noun}{failing}  {rate:.0f}/s  {_clock(elapsed)} elapsed"
        self.stream.write("\r" + text + "\x1b[K")
        self.stream.flush()
        self.drawn = True

    def clear(self) -> None:
        """Erase the bar, so that what is written next starts on a clean line; the next update redraws it."""
        if self.drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.drawn = False


class Console:
    """Standard error for a batch: one-line messages and the progress bar, never glued together.

    The bar is erased before any message, and before any record when the records go to the same
    terminal; a stream that is closed or full is given up on silently (the exit status still tells).
    """

    def __init__(self, err: TextIO | None, *, progress: Progress | None = None, shared: bool = False) -> None:
        self.err = err
        self.progress = progress
        self.shared = shared  # the records are written to the terminal the bar is on

    def say(self, message: str) -> None:
        """One line on standard error."""
        if self.progress is not None:
            self.progress.clear()
        if self.err is None:
            return
        try:
            self.err.write(message + "\n")
            self.err.flush()
        except (OSError, ValueError):
            self.err = None

    def before_record(self) -> None:
        """Erase the bar if the record about to be written goes to its terminal."""
        if self.shared and self.progress is not None:
            self.progress.clear()

    def update(self, done: int, failed: int, *, failures: str = "failed") -> None:
        """Redraw the bar, if there is one."""
        if self.progress is not None:
            try:
                self.progress.update(done, failed, failures=failures)
            except (OSError, ValueError):
                self.progress = None

    def close(self) -> None:
        """Erase the bar for good."""
        if self.progress is not None:
            with contextlib.suppress(OSError, ValueError):
                self.progress.clear()
            self.progress = None


def same_terminal(a: TextIO | None, b: TextIO | None) -> bool:
    """True when both streams are the same terminal."""
    try:
        if a is None or b is None or not (a.isatty() and b.isatty()):
            return False
        return os.path.samestat(os.fstat(a.fileno()), os.fstat(b.fileno()))
    except (OSError, ValueError, AttributeError):
        return False


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}"
