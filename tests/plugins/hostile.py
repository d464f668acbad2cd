"""Third-party engines that misbehave in every way a plugin can, for the robustness tests.

Each loads and passes for a Strategy; what it does in ``solve`` is the point. ``CrashesOnImport`` is
the exception, and ``ExitsOnImport``: looking them up fails as an import that raises (or calls
``sys.exit``) would; the module itself imports fine, so that the others can be loaded from it.
"""

from __future__ import annotations

import math
import signal
import sys
import time
from dataclasses import replace

from sudokit import Grid, Result, Shape, Status
from sudokit.engines.api import watchdog_seconds
from sudokit_strategies.backtrack import BacktrackStrategy

_RIGHT = BacktrackStrategy()


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


# --- liars: each returns a Result that is not a true answer ---------------------------------------------


def _answer(puzzle: Grid, limit: int, name: str) -> Result:
    """The right answer (from ``backtrack``), under the liar's name."""
    return replace(_RIGHT.solve(puzzle, limit=limit), strategy=name)


class WrongGrid(_Plugin):
    """Claims a grid with one filled cell changed (its row then holds a digit twice) as the solution."""

    name = "wrong-grid"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        right = _answer(puzzle, 1, self.name)
        assert right.solution is not None
        cells = list(right.solution.cells)
        blank = puzzle.cells.index(0)
        cells[blank] = cells[blank] % puzzle.n + 1
        return replace(right, solutions=(Grid(cells, puzzle.shape, validate=False),))


class SolvedWithoutGrid(_Plugin):
    """Says solved, and returns no solution."""

    name = "solved-without-grid"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        return Result(Status.SOLVED, puzzle, self.name, (), 1, False)


class UnsolvableWithSolution(_Plugin):
    """Says unsolvable (proved), and returns a solution."""

    name = "unsolvable-with-solution"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        right = _answer(puzzle, 1, self.name)
        return replace(right, status=Status.UNSOLVABLE, count=0, exact=True)


class ReturnsThePuzzle(_Plugin):
    """Returns the puzzle itself, unfilled, as its solution."""

    name = "returns-the-puzzle"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        return Result(Status.SOLVED, puzzle, self.name, (puzzle,), 1, False)


class SameSolutionTwice(_Plugin):
    """Returns its one solution twice, counted as two."""

    name = "same-solution-twice"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        right = _answer(puzzle, 1, self.name)
        return replace(right, solutions=right.solutions * 2, count=2, exact=limit > 2)


class CountsMore(_Plugin):
    """Claims an exact count one above the solutions it returns (all it found)."""

    name = "counts-more"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        right = _answer(puzzle, limit, self.name)
        return replace(right, count=right.count + 1, exact=True)


class AnotherPuzzle(_Plugin):
    """Answers another puzzle (the empty board of the same shape) with that one's solution."""

    name = "another-puzzle"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        return _answer(Grid.empty(puzzle.shape), 1, self.name)


class OddStats(_Plugin):
    """Answers right, with statistics JSON cannot hold: NaN, infinities, an object, a key that is no str."""

    name = "odd-stats"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        stats = {"nodes": 3, "ratio": math.nan, "rate": math.inf, "low": -math.inf, "engine": self, 7: "seven"}
        return replace(_answer(puzzle, limit, self.name), stats=stats, elapsed=math.nan)


class StopsAfterOne(_Plugin):
    """Finds the right first solution, then says time ran out before the count to ``limit`` ended (a slow count)."""

    name = "stops-after-one"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        right = _answer(puzzle, 1, self.name)
        return replace(right, status=Status.TIMEOUT, count=1, exact=False) if limit > 1 else right


# --- engines that defeat the watchdog in process ------------------------------------------------------


def _spin(seconds: float) -> None:
    """Busy Python code for ``seconds`` (a loop that is interrupted only by a raise)."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


class SwallowsTheWatchdog(_Plugin):
    """Runs past its time limit inside a bare ``except:``, which swallows the watchdog's raise, then answers right."""

    name = "swallows-the-watchdog"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        try:  # noqa: SIM105 - written as careless plugins write it
            _spin(3600)
        except:  # noqa: E722 - the point: it swallows even a BaseException
            pass
        return _answer(puzzle, limit, self.name)


class SwallowsTheWatchdogOnce(_Plugin):
    """Swallows the watchdog's first raise, then runs on for ``seconds`` (for ever, to a test) and answers right."""

    name = "swallows-the-watchdog-once"

    def __init__(self, seconds: float = 30.0) -> None:
        self.seconds = seconds

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        try:  # noqa: SIM105
            _spin(3600)
        except:  # noqa: E722
            pass
        _spin(self.seconds)
        return _answer(puzzle, limit, self.name)


class ClearsTheTimer(_Plugin):
    """Clears the real-time timer (the watchdog's), sleeps past the watchdog's time, and answers right."""

    name = "clears-the-timer"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        if hasattr(signal, "setitimer"):
            signal.setitimer(signal.ITIMER_REAL, 0)
        time.sleep(watchdog_seconds(time_limit or 0.0) + 0.3)
        return _answer(puzzle, limit, self.name)


class HoldsTheAlarm(_Plugin):
    """Blocks SIGALRM for ``seconds``, as a long call into C holds off every Python signal handler, then answers."""

    name = "holds-the-alarm"

    def __init__(self, seconds: float = 3.0) -> None:
        self.seconds = seconds

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        try:
            time.sleep(self.seconds)
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM})  # the watchdog's raise lands here
        return _answer(puzzle, limit, self.name)


class Spins(_Plugin):
    """Busy for ``seconds``, then answers right: Ctrl-C must interrupt it."""

    name = "spins"

    def __init__(self, seconds: float = 20.0) -> None:
        self.seconds = seconds

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        _spin(self.seconds)
        return _answer(puzzle, limit, self.name)


class SwallowsCtrlC(_Plugin):
    """Busy for ``seconds``, answering right at once when Ctrl-C interrupts it (as if it had been asked to stop)."""

    name = "swallows-ctrl-c"

    def __init__(self, seconds: float = 20.0) -> None:
        self.seconds = seconds

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        try:  # noqa: SIM105
            _spin(self.seconds)
        except KeyboardInterrupt:
            pass
        return _answer(puzzle, limit, self.name)


class EatsMemory(_Plugin):
    """Takes memory fast (16 MB each 50 ms, each page touched) on a puzzle whose first cell is blank; answers others.

    Its own bound, so that a test of the pool's cannot take the machine: its address space may grow 1.5 GB
    past what it was (past that, a MemoryError, not a kill).
    """

    name = "eats-memory"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        if puzzle.cells[0] != 0:
            return _answer(puzzle, limit, self.name)
        import resource

        with open("/proc/self/statm") as statm:
            size = int(statm.read().split()[0]) * resource.getpagesize()
        hard = resource.getrlimit(resource.RLIMIT_AS)[1]
        bound = size + (3 << 29) if hard == resource.RLIM_INFINITY else min(size + (3 << 29), hard)
        resource.setrlimit(resource.RLIMIT_AS, (bound, hard))
        eaten = []
        while True:
            eaten.append(bytearray(16 << 20))  # zeroed: every page written
            time.sleep(0.05)


# --- engines that raise what is not an Exception ---------------------------------------------------------


class PluginAbort(BaseException):
    """A plugin's own ``BaseException``, as some libraries define to get past ``except Exception``."""


class RaisesBaseException(_Plugin):
    """Raises its own subclass of ``BaseException``."""

    name = "raises-base-exception"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        raise PluginAbort("the plugin gave up")


class RaisesGeneratorExit(_Plugin):
    """Raises ``GeneratorExit`` (as closing a generator it drives from outside can leak)."""

    name = "raises-generator-exit"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        raise GeneratorExit


class RaisesKeyboardInterrupt(_Plugin):
    """Raises ``KeyboardInterrupt`` itself, with no Ctrl-C pressed (a library's way to cancel)."""

    name = "raises-keyboard-interrupt"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        raise KeyboardInterrupt("cancelled by the plugin")


def __getattr__(name: str) -> object:
    if name == "CrashesOnImport":
        raise ZeroDivisionError("division by zero while importing the plugin\n\nIMPORTANT: READ THIS ADVICE\n")
    if name == "ExitsOnImport":
        sys.exit("this plugin is a script: run it as one")
    raise AttributeError(name)


class _Bytes(bytes):
    """Bytes that are not ``bytes`` exactly."""


class _Str(str):
    """A str that is not ``str`` exactly, and says it equals anything."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = str.__hash__


class _Pair(tuple):  # type: ignore[type-arg]
    """A (name, value) pair that is not a ``tuple`` exactly."""


#: The twists of a solved answer's other parts: each makes part ``index`` of the answer ``value``.
_PART_TWISTS: dict[str, tuple[int, object]] = {
    "status subclass": (0, _Str("solved")),
    "no solution": (1, ()),
    "exact int": (3, 1),
    "negative elapsed": (4, -1.0),
    "nan elapsed": (4, math.nan),
    "nan stats": (5, (("nodes", math.nan),)),
    "float stats": (5, (("nodes", 0.5), ("seconds", 2.0))),  # finite floats: a right answer
    "list stats": (5, [("nodes", 1)]),
    "list pair": (5, (["nodes", 1],)),
    "pair subclass": (5, (_Pair(("nodes", 1)),)),
    "three in a pair": (5, (("nodes", 1, 2),)),
    "key subclass": (5, ((_Str("nodes"), 1),)),
    "int key": (5, ((1, 1),)),
    "list value": (5, (("nodes", [1]),)),
    "error": (6, "it went wrong"),
    "blank error": (6, " "),
}


class PlainAnswers(_Plugin):
    """Answers through ``solve_plain`` (plain data, as ``numba`` does): ``backtrack``'s answer, twisted by ``twist``.

    ``solve`` is never called: sudokit answers through ``solve_plain`` when an engine offers it. Twists:
    ``right`` (none), ``swapped`` (two cells of the solution swapped), ``relabelled`` (its digits
    renamed: a grid that breaks the givens), ``count`` (one more than the limit), ``twice`` (the solution
    twice), ``list`` (a list, not a tuple), ``short`` (a solution of 80 cells), ``bool count`` (True for
    1), ``slow`` (an elapsed time of a day), ``raises`` (a RuntimeError), ``bytes subclass`` (the solution
    a subclass of bytes), and each of ``_PART_TWISTS`` (another part of the answer made something else). It
    reads the puzzle's bytes first (``Grid.to_bytes``), as ``numba`` does: the check reads the same bytes.
    """

    twists = ("right", "swapped", "relabelled", "count", "twice", "list", "short", "bool count", "slow")
    twists += ("bytes subclass", *_PART_TWISTS)

    name = "plain-answers"

    def __init__(self, twist: str = "right") -> None:
        self.twist = twist

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
        raise AssertionError("sudokit calls solve_plain when an engine offers it")

    def solve_plain(
        self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> object:
        twist = self.twist
        if twist == "raises":
            raise RuntimeError("the plain answer blew up")
        puzzle.to_bytes()
        right = _RIGHT.solve(puzzle, limit=limit, time_limit=time_limit, keep=keep)
        cells = [bytes(grid.cells) for grid in right.solutions]
        answer: list[object] = [right.status.value, (), right.count, right.exact, 0.001, (("nodes", 1),), None]
        if twist == "swapped":
            cells[0] = bytes([cells[0][1], cells[0][0], *cells[0][2:]])
        elif twist == "relabelled":
            cells[0] = bytes(v % 9 + 1 for v in cells[0])
        elif twist == "count":
            answer[2] = limit + 1
        elif twist == "twice":
            cells, answer[2] = [cells[0], cells[0]], 2
        elif twist == "short":
            cells[0] = cells[0][:-1]
        elif twist == "bool count":
            answer[2] = True
        elif twist == "slow":
            answer[4] = 86400.0
        elif twist == "bytes subclass":
            cells[0] = _Bytes(cells[0])
        answer[1] = tuple(cells)
        if twist in _PART_TWISTS:
            index, value = _PART_TWISTS[twist]
            answer[index] = value
        return answer if twist == "list" else tuple(answer)
