"""Third-party engines that take their process down, or hold it, for the isolation tests.

Each one loads and passes for a Strategy; what it does in ``solve`` is the point. The ones that
misbehave only on some puzzles (those whose first cell is blank) solve the others with sudokit's
``backtrack``, so that a batch shows exactly which records failed.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

from sudokit import Capabilities, Grid, Result, get_strategy


class _Plugin:
    name = "killer"
    description = "a test double of an engine that takes its process down"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        if puzzle.cells[0] == 0:
            self.misbehave()
        result = get_strategy("backtrack").solve(puzzle, limit=limit, time_limit=time_limit)
        return Result(result.status, puzzle, self.name, result.solutions, result.count, result.exact)

    def misbehave(self) -> None:
        raise NotImplementedError


class ExitsProcess(_Plugin):
    """``os._exit(3)`` on a puzzle whose first cell is blank: no exception, no cleanup, the process is gone."""

    name = "exits-process"

    def misbehave(self) -> None:
        os._exit(3)


class Segfaults(_Plugin):
    """Reads address 0 on a puzzle whose first cell is blank: SIGSEGV."""

    name = "segfaults"

    def misbehave(self) -> None:
        ctypes.string_at(0)


class KillsItself(_Plugin):
    """SIGKILL to its own process on a puzzle whose first cell is blank."""

    name = "kills-itself"

    def misbehave(self) -> None:
        os.kill(os.getpid(), signal.SIGKILL)


class SwallowsEverything(_Plugin):
    """Ignores its time limit in a loop whose bare ``except:`` swallows even the watchdog's BaseException."""

    name = "swallows-everything"

    def misbehave(self) -> None:
        while True:
            try:  # noqa: SIM105 - the point: a bare except
                time.sleep(0.01)
            except:  # noqa: E722
                pass


class HoldsItsWorker(_Plugin):
    """Sleeps for up to 120 s (0.01 s at a time) on a puzzle whose first cell is blank: an item still running."""

    name = "holds-its-worker"

    def misbehave(self) -> None:
        began = time.monotonic()
        while time.monotonic() - began < 120:
            time.sleep(0.01)


class LongCCall(_Plugin):
    """Spends its time in one C-level call that never lets a Python signal handler run."""

    name = "long-c-call"

    def misbehave(self) -> None:
        sum(range(10**15))


class LongCCallOnCages(LongCCall):
    """``long-c-call`` that declares killer cages: a variant generation's counts (a blank first cell) hold it in C."""

    name = "long-c-call-cages"
    capabilities = Capabilities(constraints=frozenset({"killer"}))


class Prints(_Plugin):
    """Prints to stdout while solving, as a chatty library might."""

    name = "prints"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        print("chatter from the engine")
        sys.stdout.flush()
        return super().solve(puzzle, limit=limit, time_limit=time_limit)

    def misbehave(self) -> None:
        pass


class StartsAThread(_Plugin):
    """Leaves a non-daemon thread running forever behind every solve."""

    name = "starts-a-thread"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        threading.Thread(target=time.sleep, args=(3600,), daemon=False).start()
        return super().solve(puzzle, limit=limit, time_limit=time_limit)

    def misbehave(self) -> None:
        pass


class ReadsStdin(_Plugin):
    """Reads a line from standard input while solving (the caller's puzzles, if it could)."""

    name = "reads-stdin"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        stolen = os.read(0, 1 << 16)
        if stolen:
            raise RuntimeError(f"read {len(stolen)} bytes of the caller's input")
        return super().solve(puzzle, limit=limit, time_limit=time_limit)

    def misbehave(self) -> None:
        pass


class ClearsTheTimerForever(_Plugin):
    """Switches off the real-time timer (the watchdog's) and then ignores its time limit for good."""

    name = "clears-the-timer-forever"

    def misbehave(self) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        while True:
            time.sleep(0.01)


def _fork_a_sleeper() -> None:
    """Fork a child that sleeps an hour, holding what it inherited; its pid goes to ``SUDOKIT_TEST_CHILDREN``."""
    child = os.fork()
    if child == 0:
        time.sleep(3600)
        os._exit(0)
    where = os.environ.get("SUDOKIT_TEST_CHILDREN")
    if where:
        with open(where, "a") as handle:
            handle.write(f"{child}\n")


class ForksThenExits(_Plugin):
    """Forks a child that sleeps an hour, then ``os._exit(3)`` on a puzzle whose first cell is blank.

    As a multiprocessing engine whose process dies: the child holds every pipe its parent held open,
    the worker's results pipe among them. Each child's pid is added to the file ``SUDOKIT_TEST_CHILDREN``.
    """

    name = "forks-then-exits"

    def misbehave(self) -> None:
        _fork_a_sleeper()
        os._exit(3)


class LeavesAChild(_Plugin):
    """Forks a child that sleeps an hour at every solve (its pid added to ``SUDOKIT_TEST_CHILDREN``), then answers."""

    name = "leaves-a-child"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        _fork_a_sleeper()
        return super().solve(puzzle, limit=limit, time_limit=time_limit)

    def misbehave(self) -> None:
        pass


class ReportsTimeLimit:
    """Solves with backtrack and reports, in its stats, the time limit it was given."""

    name = "reports-time-limit"
    description = "a test double that says what time limit it got"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        result = get_strategy("backtrack").solve(puzzle, limit=limit, time_limit=time_limit)
        stats = {"time_limit": repr(time_limit)}
        return Result(result.status, puzzle, self.name, result.solutions, result.count, result.exact, stats)
