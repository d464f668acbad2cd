"""Engines broken in exactly the way one time check looks for: overrunning, losing what a timeout found, ...

Each answers as ``Reference`` does except in its one way. Some keep state between calls on purpose
(``InheritsDeadline``) or leave threads and processes behind; build a fresh one for each run where
that matters (``type(MUTANTS[name])()``), and ``reap()`` the processes of ``LeavesProcess``.
"""

from __future__ import annotations

import _thread
import subprocess
import sys
import threading
import time
from dataclasses import replace

from sudokit import Grid, Result, Status

from .base import Reference

#: How long what the thread and process mutants leave behind keeps running.
LINGER = 3.0


class OverrunsLimit(Reference):
    """Runs 75 % past every time limit: 1.75 s on a 1 s limit, past the 1.6 s allowed (short ones stay within).

    Past the limit it works on (0.75 s of this thread's CPU time on a 1 s limit) rather than waiting for a
    later clock: on a busy machine the kit forgives the waiting for a CPU after the limit, never the work.
    """

    name = "broken-overruns-limit"

    def solve(
        self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> Result:
        """Reference's answer, after 0.75 times the time limit of CPU time spent past it."""
        result = super().solve(puzzle, limit=limit, time_limit=time_limit, keep=keep)
        if time_limit is not None and result.status is Status.TIMEOUT:
            until = time.thread_time() + time_limit * 0.75
            while time.thread_time() < until:
                pass
        return result


class DropsSolutionsOnTimeout(Reference):
    """On a timeout, reports the count found but none of the solutions (it kept them in the abandoned search)."""

    name = "broken-drops-solutions-on-timeout"

    def solve(
        self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> Result:
        """Reference's answer, with no solutions on a timeout."""
        result = super().solve(puzzle, limit=limit, time_limit=time_limit, keep=keep)
        return replace(result, solutions=()) if result.status is Status.TIMEOUT else result


class ExactOnTimeout(Reference):
    """Says a timeout's count is exact. Not a check's own mutant: times_out_within_limit catches it too."""

    name = "broken-exact-on-timeout"

    def solve(
        self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> Result:
        """Reference's answer, exact even on a timeout."""
        result = super().solve(puzzle, limit=limit, time_limit=time_limit, keep=keep)
        return replace(result, exact=True) if result.status is Status.TIMEOUT else result


class ForgetsCountOnTimeout(Reference):
    """On a timeout, reports count 0 and no solution: what it found is lost. Not a check's own mutant."""

    name = "broken-forgets-count-on-timeout"

    def solve(
        self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> Result:
        """Reference's answer, with nothing found on a timeout."""
        result = super().solve(puzzle, limit=limit, time_limit=time_limit, keep=keep)
        return replace(result, count=0, solutions=()) if result.status is Status.TIMEOUT else result


class TruncatesShortLimit(Reference):
    """Its plain-solve path (limit 1) takes the time limit in whole seconds: under 1 s it times out at once."""

    name = "broken-truncates-short-limit"

    def solve(
        self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> Result:
        """Reference's answer, but with ``int(time_limit)`` when finding one solution."""
        if limit == 1 and time_limit is not None and int(time_limit) == 0:
            return Result(Status.TIMEOUT, puzzle, self.name)
        return super().solve(puzzle, limit=limit, time_limit=time_limit, keep=keep)


class InheritsDeadline(Reference):
    """The call after a timed-out one keeps that call's deadline (long passed) instead of its own limit."""

    name = "broken-inherits-deadline"

    def __init__(self) -> None:
        super().__init__()
        self.deadline: float | None = None

    def solve(
        self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> Result:
        """Reference's answer by the deadline of the previous call if it timed out, else by its own."""
        start = time.perf_counter()
        deadline, self.deadline = self.deadline, None
        if deadline is None and time_limit is not None:
            deadline = start + time_limit
        if deadline is not None and deadline <= start:
            result = Result(Status.TIMEOUT, puzzle, self.name)
        else:
            remaining = None if deadline is None else deadline - start
            result = super().solve(puzzle, limit=limit, time_limit=remaining, keep=keep)
        if result.status is Status.TIMEOUT:
            self.deadline = deadline
        return result


class StaysStopped(Reference):
    """After a timeout, its stop flag stays set until a timed call clears it: an untimed call times out at once.

    Not a check's own mutant: it shows that later_calls_get_their_own_limit asks for an untimed solve too.
    """

    name = "broken-stays-stopped"

    def __init__(self) -> None:
        super().__init__()
        self.stopped = False

    def solve(
        self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> Result:
        """Reference's answer, or at once a timeout for an untimed call after a timed-out one."""
        if time_limit is None and self.stopped:
            return Result(Status.TIMEOUT, puzzle, self.name)
        result = super().solve(puzzle, limit=limit, time_limit=time_limit, keep=keep)
        self.stopped = result.status is Status.TIMEOUT
        return result


class LeavesThread(Reference):
    """On a timeout, hands the abandoned search to a background thread that winds down over 3 s, unjoined."""

    name = "broken-leaves-thread"

    def solve(
        self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> Result:
        """Reference's answer; a timeout leaves a thread running for 3 s."""
        result = super().solve(puzzle, limit=limit, time_limit=time_limit, keep=keep)
        if result.status is Status.TIMEOUT:
            self.start_thread()
        return result

    def start_thread(self) -> None:
        threading.Thread(target=time.sleep, args=(LINGER,), name="abandoned search", daemon=True).start()


class LeavesBareThread(LeavesThread):
    """As ``LeavesThread``, with a thread only the OS knows of (not ``threading``). Not a check's own mutant."""

    name = "broken-leaves-bare-thread"

    def start_thread(self) -> None:
        _thread.start_new_thread(time.sleep, (LINGER,))


class LeavesProcess(Reference):
    """On a timeout, starts a child process (a 3 s clean-up) it never waits for."""

    name = "broken-leaves-process"
    #: What the child runs.
    code = f"import time; time.sleep({LINGER})"

    def __init__(self) -> None:
        super().__init__()
        self.children: list[subprocess.Popen[bytes]] = []

    def solve(
        self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> Result:
        """Reference's answer; a timeout leaves a child process behind."""
        result = super().solve(puzzle, limit=limit, time_limit=time_limit, keep=keep)
        if result.status is Status.TIMEOUT:
            self.children.append(subprocess.Popen([sys.executable, "-c", self.code]))
        return result

    def reap(self) -> None:
        """End and wait for the children left behind (for the tests' own tidiness)."""
        for child in self.children:
            child.kill()
            child.wait()
        self.children.clear()


class LeavesZombie(LeavesProcess):
    """On a timeout, starts a child that ends at once and is never waited for: a zombie. Not a check's own mutant."""

    name = "broken-leaves-zombie"
    code = "pass"


MUTANTS: dict[str, object] = {
    "times_out_within_limit": OverrunsLimit(),
    "timeout_keeps_what_it_found": DropsSolutionsOnTimeout(),
    "short_limit_still_solves": TruncatesShortLimit(),
    "later_calls_get_their_own_limit": InheritsDeadline(),
    "leaves_no_thread_behind": LeavesThread(),
    "leaves_no_process_behind": LeavesProcess(),
}
