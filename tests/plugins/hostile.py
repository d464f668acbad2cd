"""Third-party engines that misbehave in every way a plugin can, for the robustness tests.

Each loads and passes for a Strategy; what it does in ``solve`` is the point. ``CrashesOnImport`` is
the exception, and ``ExitsOnImport``: looking them up fails as an import that raises (or calls
``sys.exit``) would; the module itself imports fine, so that the others can be loaded from it.
"""

from __future__ import annotations

import sys
import time

from sudokit import Grid, Result, Shape, Status


class _Plugin:
    name = "hostile"
    description = "a test double of a misbehaving plugin"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        raise NotImplementedError


class Crasher(_Plugin):
    """Raises while solving, with a message of several lines (as some libraries' errors have)."""

    name = "crasher"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        raise RuntimeError("the solver blew up\n  detail: line two\n  detail: line three")


class WrongShape(_Plugin):
    """Returns a Result whose solution is a grid of another shape (a solved 4x4 for any puzzle)."""

    name = "wrong-shape"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        small = Grid.parse("1234341221434321", Shape.of(2, 2))
        return Result(Status.SOLVED, puzzle, self.name, (small,), 1, True)


class ReturnsDict(_Plugin):
    """Returns what looks like a result, as a dict."""

    name = "returns-dict"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        return {"status": "solved", "solution": puzzle.to_line()}


class ReturnsNone(_Plugin):
    """Forgets to return anything."""

    name = "returns-none"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        return None


class BadStatus(_Plugin):
    """Returns a Result whose status is a plain string, not a Status."""

    name = "bad-status"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        return Result("solved", puzzle, self.name)  # type: ignore[arg-type]


class NeverReturns(_Plugin):
    """Loops forever in pure Python, ignoring its time limit."""

    name = "never-returns"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        spins = 0
        while True:
            spins += 1


class SwallowsErrors(_Plugin):
    """Loops forever ignoring its time limit, and swallows every ``Exception`` raised in its loop."""

    name = "swallows-errors"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        while True:
            try:
                sum(range(1000))
            except Exception:  # a plugin's idea of resilience
                continue


class Sleeper(_Plugin):
    """Sleeps an hour, ignoring its time limit."""

    name = "sleeper"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        time.sleep(3600)
        raise AssertionError("slept an hour")


class Exits(_Plugin):
    """Calls ``sys.exit`` while solving, as a careless command-line tool turned plugin might."""

    name = "exits"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        sys.exit(0)


class FailsToBuild(_Plugin):
    """Its constructor raises."""

    name = "fails-to-build"

    def __init__(self) -> None:
        raise OSError("cannot open the licence file")


def __getattr__(name: str) -> object:
    if name == "CrashesOnImport":
        raise ZeroDivisionError("division by zero while importing the plugin\n\nIMPORTANT: READ THIS ADVICE\n")
    if name == "ExitsOnImport":
        sys.exit("this plugin is a script: run it as one")
    raise AttributeError(name)
