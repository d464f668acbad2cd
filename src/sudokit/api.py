"""The library's entry points: solve a puzzle with any engine, count solutions, list engines."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sudokit.errors import StrategyError
from sudokit.grid import Grid
from sudokit.registry import StrategyInfo, default_registry
from sudokit.shape import Shape
from sudokit.strategy import Result, Status, Strategy

__all__ = [
    "DEFAULT_COUNT_LIMIT",
    "PuzzleLike",
    "as_grid",
    "available_strategies",
    "count_solutions",
    "get_strategy",
    "run",
    "solve",
    "solve_sudoku",
]

#: How many solutions ``count_solutions`` and ``sudoku solve --count`` look for unless told.
DEFAULT_COUNT_LIMIT = 10_000

PuzzleLike = Grid | str | Sequence[Sequence[int | str]]


def as_grid(puzzle: PuzzleLike, box: Shape | str | None = None) -> Grid:
    """A Grid from a Grid, any accepted text form, or rows (LeetCode's ``list[list[str]]``)."""
    if isinstance(puzzle, Grid):
        return puzzle
    if isinstance(puzzle, str):
        return Grid.parse(puzzle, box)
    return Grid.from_rows(puzzle, box)


def get_strategy(strategy: str | Strategy = "backtrack", **options: Any) -> Strategy:
    """A strategy by registered name (built with ``options``), or the object itself."""
    if isinstance(strategy, str):
        return default_registry().get(strategy, **options)
    if options:
        raise StrategyError("options go with a strategy name, not a strategy object")
    if not isinstance(strategy, Strategy):
        raise StrategyError(f"{strategy!r} is not a Strategy (it needs name, description and solve)")
    return strategy


def run(strategy: Strategy, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
    """Run one engine on one puzzle, turning a crash or a malformed answer into an ``error`` result."""
    if limit < 1:
        raise ValueError(f"limit must be at least 1, not {limit}")
    if time_limit is not None and time_limit <= 0:
        raise ValueError(f"time limit must be positive, not {time_limit}")
    name = getattr(strategy, "name", type(strategy).__name__)
    start = time.perf_counter()
    try:
        with _watchdog(time_limit):
            result = strategy.solve(puzzle, limit=limit, time_limit=time_limit)
    except EngineOverranError as err:
        return _failed(puzzle, name, start, str(err))
    except (Exception, SystemExit) as err:  # an engine may fail in any way, even sys.exit(): a result, not a crash
        return _failed(puzzle, name, start, f"{type(err).__name__}: {err}")
    problem = _malformed(result, puzzle, limit)
    if problem:
        return _failed(puzzle, name, start, f"engine returned {problem}")
    return result


class EngineOverranError(BaseException):
    """An engine still running well past its time limit (raised into it by the watchdog).

    Not an ``Exception``: an engine that catches every ``Exception`` in its loop cannot swallow it.
    """


def watchdog_seconds(time_limit: float) -> float:
    """How long an engine may run before the watchdog stops it: its limit plus 2 s and 10 %."""
    return time_limit * 1.1 + 2.0


@contextmanager
def _watchdog(time_limit: float | None) -> Iterator[None]:
    """Stop an engine that ignores its time limit, by raising into it from a SIGALRM timer.

    Only where a timer can interrupt the caller: with a time limit, on POSIX, in the main thread,
    and when no other timer is set. Engines that keep their limit never see it.
    """
    if (
        time_limit is None
        or not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
        or signal.getitimer(signal.ITIMER_REAL)[0] > 0
    ):
        yield
        return
    seconds = watchdog_seconds(time_limit)

    def overran(signum: int, frame: object) -> None:
        raise EngineOverranError(f"still running {seconds:.1f} s after a time limit of {time_limit:g} s: stopped")

    previous = signal.signal(signal.SIGALRM, overran)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _failed(puzzle: Grid, name: str, start: float, message: str) -> Result:
    elapsed = time.perf_counter() - start
    error = " ".join(f"strategy {name!r} failed: {message}".split())  # one line, whatever the engine said
    return Result(Status.ERROR, puzzle, name, elapsed=elapsed, error=error)


def _malformed(result: object, puzzle: Grid, limit: int) -> str | None:
    if not isinstance(result, Result):
        return f"a {type(result).__name__}, not a Result"
    if not isinstance(result.status, Status) or (result.status is Status.ERROR and not result.error):
        return f"status {result.status!r}"
    for s in result.solutions:
        if not isinstance(s, Grid) or s.shape != puzzle.shape:
            return f"a solution that is not a {puzzle.shape} grid: {s!r:.80}"
    if len(result.solutions) > limit or result.count < len(result.solutions):
        return f"{len(result.solutions)} solutions with count {result.count} for limit {limit}"
    return None


def solve(
    puzzle: PuzzleLike,
    strategy: str | Strategy = "backtrack",
    *,
    limit: int = 1,
    time_limit: float | None = None,
    box: Shape | str | None = None,
    **options: Any,
) -> Result:
    """Solve ``puzzle`` with ``strategy`` (a registered name or a Strategy object).

    ``limit`` 1 finds one solution, 2 decides uniqueness, more counts; ``time_limit`` is in seconds
    (None: no limit). Engine ``options`` go to a named strategy's constructor. Raises
    ``InvalidPuzzleError`` for a bad puzzle and ``StrategyError`` for an unknown or broken engine::

        >>> r = solve("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
        >>> r.status.value, r.solution.to_line()[:9]
        ('solved', '534678912')
    """
    grid = as_grid(puzzle, box)
    return run(get_strategy(strategy, **options), grid, limit=limit, time_limit=time_limit)


def count_solutions(
    puzzle: PuzzleLike,
    limit: int = DEFAULT_COUNT_LIMIT,
    strategy: str | Strategy = "backtrack",
    *,
    time_limit: float | None = None,
    box: Shape | str | None = None,
    **options: Any,
) -> Result:
    """Count the solutions of ``puzzle`` up to ``limit``: ``.count``, and ``.exact`` when below it."""
    return solve(puzzle, strategy, limit=limit, time_limit=time_limit, box=box, **options)


def available_strategies() -> list[StrategyInfo]:
    """Every installed engine: name, description, whether it loaded and why not."""
    return default_registry().info()


def solve_sudoku(board: list[list[str]]) -> None:
    """LeetCode 37: fill ``board`` (rows of ``"1"``-``"9"`` and ``"."``) in place with its solution.

    Raises ``InvalidPuzzleError`` for a malformed board and ``ValueError`` when it has no solution.
    """
    grid = Grid.from_rows(board)
    result = solve(grid, "backtrack")
    if result.solution is None:
        raise ValueError(f"the board has no solution ({result.status.value})")
    for r, row in enumerate(result.solution.to_leetcode()):
        board[r][:] = row
