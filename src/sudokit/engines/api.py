"""The library's entry points: solve a puzzle with any engine, count solutions, list engines.

Every engine is called through ``run``, which vouches for what comes back: an answer that is not
consistent (``sudokit.engines.verify.result_problem``), a crash, or an answer long past the time limit is
an ``error`` result naming the engine, never a ``solved`` one.
"""

from __future__ import annotations

import inspect
import math
import operator
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, SupportsFloat, SupportsIndex, cast

from sudokit.engines.registry import StrategyInfo, default_registry
from sudokit.engines.strategy import Capabilities, Result, Status, Strategy, capabilities_of
from sudokit.engines.verify import answer_holds, result_problem, solved_once_holds
from sudokit.engines.watchdog import KILL_GRACE, EngineOverranError, Guard, raised_by_a_signal, watchdog_seconds
from sudokit.errors import BoxShapeError, StrategyError, StrategyLoadError
from sudokit.io.puzzles import parse_puzzle
from sudokit.model.grid import Grid
from sudokit.model.shape import Shape

__all__ = [
    "DEFAULT_COUNT_LIMIT",
    "FAILED",
    "MAX_ELAPSED",
    "Answer",
    "EngineOverranError",
    "IsolatedCall",
    "PuzzleLike",
    "answer_of",
    "as_grid",
    "available_strategies",
    "count_solutions",
    "described",
    "get_strategy",
    "normalize_time_limit",
    "offers_plain",
    "result_of",
    "run",
    "run_isolated",
    "solve",
    "solve_sudoku",
    "takes_keep",
    "unsupported_kinds",
    "unsupported_message",
    "unsupported_shape",
    "watchdog_seconds",
]

#: How many solutions ``count_solutions`` and ``sudoku solve --count`` look for unless told.
DEFAULT_COUNT_LIMIT = 10_000

PuzzleLike = Grid | str | Sequence[Sequence[int | str]]


def as_grid(puzzle: PuzzleLike, box: Shape | str | None = None) -> Grid:
    """A Grid from a Grid, any accepted text form, or rows (LeetCode's ``list[list[str]]``, a numpy array).

    Raises ``TypeError`` for anything else (or a ``box`` that is not a Shape or a str), and an
    ``InvalidPuzzleError`` for a bad puzzle or a ``box`` that a given Grid does not have.
    """
    if isinstance(puzzle, Grid):
        if box is not None:
            shape = Shape.parse(box) if isinstance(box, str) else box
            if not isinstance(shape, Shape):
                raise TypeError(f"box must be a Shape or a text like '2x3', not {box!r:.80}")
            if shape != puzzle.shape:
                raise BoxShapeError(f"box {shape} does not fit the grid, whose boxes are {puzzle.shape}")
        return puzzle
    if isinstance(puzzle, str):
        return parse_puzzle(puzzle, box)
    if isinstance(puzzle, bytes | bytearray) or not hasattr(puzzle, "__len__") or not hasattr(puzzle, "__iter__"):
        raise TypeError(f"puzzle must be a Grid, a puzzle text or rows of cells, not {puzzle!r:.80}")
    return Grid.from_rows(puzzle, box)


def get_strategy(strategy: str | Strategy = "backtrack", **options: Any) -> Strategy:
    """A strategy by registered name (built with ``options``), or the object itself."""
    if isinstance(strategy, str):
        return default_registry().get(strategy, **options)
    if options:
        raise StrategyError("options go with a strategy name, not a strategy object")
    if not _is_strategy(strategy):
        raise StrategyError(f"{strategy!r:.80} is not a Strategy (it needs name, description and solve)")
    return strategy


def _is_strategy(candidate: object) -> bool:
    """``isinstance(candidate, Strategy)``, the protocol's own test (its members are there), without its cost.

    ``isinstance`` against a runtime-checkable protocol walks the protocol's members on every call
    (about 10 us), a third of a whole compiled solve; this asks the same three questions directly.
    """
    return (
        hasattr(candidate, "name") and hasattr(candidate, "description") and callable(getattr(candidate, "solve", None))
    )


def normalize_time_limit(value: float | None) -> float | None:
    """A time limit as engines take it: None for none (None, 0 or infinity), else a positive float of seconds.

    0 means no limit, as ``sudoku -t 0`` and timeout-style options do. Raises ``TypeError`` for what
    is not a number and ``ValueError`` for a negative number or NaN.
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        kind = type(value)
        if isinstance(value, bool) or not (hasattr(kind, "__index__") or hasattr(kind, "__float__")):
            raise TypeError(f"time_limit must be a number of seconds or None, not {value!r:.80}")
        value = operator.index(value) if hasattr(kind, "__index__") else float(value)  # numpy's numbers, say
    try:
        seconds = float(value)
    except OverflowError:  # an int too large for a float
        seconds = math.inf if value > 0 else -math.inf
    if seconds == math.inf or seconds == 0:
        return None
    if not seconds > 0:  # NaN too
        raise ValueError(f"time_limit must be positive (0 or None for no limit), not {value!r}")
    return seconds


def run(
    strategy: Strategy,
    puzzle: Grid,
    *,
    limit: int = 1,
    keep: int | None = None,
    time_limit: float | None = None,
    _problem: Callable[..., str | None] = result_problem,
) -> Result:
    """Run one engine on one puzzle and vouch for its answer: a lie, a crash or an overrun is an ``error`` result.

    ``limit``, ``keep`` and ``time_limit`` are as for ``solve``; ``keep`` goes to an engine whose
    ``solve`` takes it, the others' solutions are trimmed to it. The answer must pass
    ``sudokit.engines.verify.result_problem``; its ``stats`` are made JSON-safe and a nonsense ``elapsed``
    is replaced by the time measured here. In the main thread (POSIX) a watchdog raises
    ``EngineOverranError`` into an engine still running ``watchdog_seconds(time_limit)`` after it
    began, and again every ``WATCHDOG_REPEAT`` s until it stops; an answer later than that is an
    ``error`` however it came. Ctrl-C raises ``KeyboardInterrupt`` as always, but one the engine
    raises itself (or any other ``BaseException``) is its failure. Raises ``TypeError`` and
    ``ValueError`` for bad arguments, as ``solve`` does. A puzzle with a rule, or on a board, that
    the engine's capabilities do not claim is not run: an ``unsupported`` result says why.

    What comes back is made here from the engine's answer read once, as plain data: its grids are
    new ``Grid`` objects of the cells that were checked (a subclass that prints other cells, or
    solutions that change once read, cannot survive), its ``strategy`` is ``strategy.name`` as read
    before the call, and its ``elapsed`` is the engine's only when it lies between 0 and the time
    measured around the call. ``_problem`` is not an option: it is the check, bound when sudokit is
    imported, so that an engine that replaces ``result_problem`` in its process does not change it.
    """
    limit = _whole("limit", limit)
    keep = None if keep is None else min(_whole("keep", keep), limit)
    time_limit = normalize_time_limit(time_limit)
    if not isinstance(puzzle, Grid):
        raise TypeError(f"puzzle must be a Grid, not {puzzle!r:.80}")
    return _run(strategy, puzzle, limit, keep, time_limit, _problem)


def _run(
    strategy: Strategy,
    puzzle: Grid,
    limit: int,
    keep: int | None,
    time_limit: float | None,
    _problem: Callable[..., str | None] = result_problem,
) -> Result:
    """``run`` on arguments it has checked: ``limit`` an int of at least 1, ``keep`` None or an int in 1..limit,
    ``time_limit`` as ``normalize_time_limit`` makes it, ``puzzle`` a Grid (``solve`` checks them once)."""
    name = getattr(strategy, "name", None)
    if not isinstance(name, str):
        name = type(strategy).__name__
    if not puzzle.is_classic:
        lacking = unsupported_kinds(strategy, puzzle)
        if lacking:
            return Result(Status.UNSUPPORTED, puzzle, name, error=unsupported_message(name, lacking))
    unclaimed = unsupported_shape(strategy, puzzle)
    if unclaimed is not None:
        return Result(Status.UNSUPPORTED, puzzle, name, error=f"strategy {name!r} {unclaimed}")
    plain = offers_plain(strategy)
    passes_keep = keep is not None and keep < limit and takes_keep(strategy)
    guard = Guard(time_limit)
    start = time.perf_counter()
    failure = None
    overran = False
    try:
        guard.arm()
        if plain:  # plain data: the one Result is made below, of what is checked
            result = strategy.solve_plain(puzzle, limit=limit, time_limit=time_limit, keep=keep)  # type: ignore[attr-defined]
        elif passes_keep:
            result = strategy.solve(puzzle, limit=limit, time_limit=time_limit, keep=keep)  # type: ignore[call-arg]
        else:
            result = strategy.solve(puzzle, limit=limit, time_limit=time_limit)
    except BaseException as err:  # an engine may fail in any way, even sys.exit(): a result, not a crash
        guard.disarm()
        if guard.interrupted:  # Ctrl-C, whatever the engine made of it
            if isinstance(err, KeyboardInterrupt):
                raise
            raise KeyboardInterrupt from err
        overran = isinstance(err, EngineOverranError) and guard.fired
        if not overran and raised_by_a_signal(err):
            raise  # the caller's: a kill it handles, an outer watchdog
        failure = described(err)
    else:
        guard.disarm()
        if guard.interrupted:  # Ctrl-C that the engine swallowed
            raise KeyboardInterrupt
    took = time.perf_counter() - start
    if time_limit is not None and (guard.fired or took > watchdog_seconds(time_limit)):
        late = f"after {took:.1f} s, past its time limit of {time_limit:g} s"
        if failure is None:
            return _failed(puzzle, name, took, f"returned {late}")
        return _failed(puzzle, name, took, f"still running {late}: stopped" if overran else f"{failure} ({late})")
    if failure is not None:
        return _failed(puzzle, name, took, failure)
    if plain:
        solved = _solved_once(result, puzzle, name, limit, keep, took)
        if solved is not None:
            return solved
        return result_of(result, puzzle, name, limit=limit, keep=keep, took=took, _problem=_problem)
    try:
        result = _fresh(result, puzzle, name)  # each part read once, grids made anew: what is checked is kept
        problem = _problem(result, puzzle, limit=limit, keep=keep if passes_keep else None)
        if problem is None and result.status is not Status.ERROR:
            return _vouched(result, puzzle, name, took, keep)
    except Exception as err:  # parts of the answer that raise when looked at (an __eq__, a mapping's items())
        problem = f"returned a result that cannot be checked: {described(err)}"
    return _failed(puzzle, name, took, problem or result.error or "")


def offers_plain(strategy: object) -> bool:
    """True when ``strategy``'s class has the optional method ``solve_plain``: ``solve``'s answer as an ``Answer``.

    ``solve_plain(puzzle, *, limit, time_limit, keep)`` takes what ``solve`` takes (``keep`` always, None for
    every solution found) and returns plain data (:data:`Answer`): ``run`` then makes the one ``Result`` of
    it and checks it as :func:`result_of` checks a worker's answer, with no ``Result`` built by the engine
    and read again. An engine that offers it answers through it: ``solve`` is not called.
    """
    return callable(getattr(type(strategy), "solve_plain", None))


def unsupported_kinds(strategy: Strategy, puzzle: Grid) -> list[str]:
    """The variant kinds of ``puzzle`` that ``strategy`` does not declare in its capabilities (sorted)."""
    try:
        caps = capabilities_of(strategy)
    except StrategyError:
        caps = Capabilities()
    return caps.unsupported_kinds(puzzle)


def unsupported_shape(strategy: Strategy, puzzle: Grid) -> str | None:
    """Why ``strategy`` does not take ``puzzle``'s board (``claims boards up to 36x36, not 49x49``), or None.

    The engine's declared ``max_side`` and ``box_shapes`` (its capabilities); a declaration that
    cannot be read claims every board, as for the variant kinds.
    """
    caps = getattr(strategy, "capabilities", None)
    if caps is None:
        return None
    if type(caps) is not Capabilities:
        try:
            caps = capabilities_of(strategy)
        except StrategyError:
            return None
    if caps.max_side is None and caps.box_shapes is None:
        return None
    return caps.shape_problem(puzzle.shape)


def unsupported_message(name: str, kinds: Sequence[str]) -> str:
    """``strategy 'backtrack' does not support sandwich`` (the message of an ``unsupported`` result)."""
    return f"strategy {name!r} does not support {', '.join(kinds)}"


_TAKES_KEEP: dict[type, bool] = {}


def takes_keep(strategy: Strategy) -> bool:
    """Whether the strategy's ``solve`` takes ``keep`` (or ``**kwargs``); looked up once per class.

    ``run`` passes ``keep`` only to an engine that takes it, and trims the others' solutions.
    """
    kind = type(strategy)
    takes = _TAKES_KEEP.get(kind)
    if takes is None:
        try:
            parameters = list(inspect.signature(strategy.solve).parameters.values())
        except (TypeError, ValueError):  # a builtin without a signature
            parameters = []
        takes = any(
            p.kind is p.VAR_KEYWORD or (p.name == "keep" and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD))
            for p in parameters
        )
        _TAKES_KEEP[kind] = takes
    return takes


def _whole(name: str, value: int) -> int:
    """``value`` as an int of at least 1 (any integer type but bool); TypeError or ValueError naming ``name``."""
    if type(value) is int and value >= 1:
        return value
    if type(value) is not int:
        if isinstance(value, bool):
            raise TypeError(f"{name} must be a whole number, not {value!r}")
        try:
            value = operator.index(value)
        except TypeError:
            raise TypeError(f"{name} must be a whole number, not {value!r:.80}") from None
    if value < 1:
        raise ValueError(f"{name} must be at least 1, not {value}")
    return value


def described(err: BaseException) -> str:
    """``Type: message`` of an exception (just the type without a message, or if its str() fails).

    How an engine's failure is worded in ``error`` results (and by the conformance kit).
    """
    try:
        text = str(err)
    except Exception:
        text = ""
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


def _failed(puzzle: Grid, name: str, took: float, message: str) -> Result:
    error = " ".join(f"strategy {name!r} failed: {message}".split())  # one line, whatever the engine said
    return Result(Status.ERROR, puzzle, name, elapsed=took, error=error)


def _fresh(result: object, puzzle: Grid, name: str) -> Any:
    """A new ``Result`` of the parts of ``result``, each read once, named ``name``; its grids new ones of their cells.

    What is not a ``Result``, and parts that are not what they should be (a solution that is no
    grid, cells that are not digits), are passed on as they are, for the check to word.
    """
    if not isinstance(result, Result):
        return result
    solutions: Any  # whatever the engine put there: the check words what is wrong with it
    status, owner, solutions, count = result.status, result.puzzle, result.solutions, result.count
    exact, stats, elapsed, error = result.exact, result.stats, result.elapsed, result.error
    if isinstance(solutions, tuple | list):
        shape = puzzle.shape  # iterated once: the grids checked are the grids kept
        solutions = tuple(_fresh_grid(grid, shape) if isinstance(grid, Grid) else grid for grid in tuple(solutions))
    if type(stats) is dict or isinstance(stats, Mapping):
        stats = dict(stats)
    return Result(status, puzzle if owner is puzzle else owner, name, solutions, count, exact, stats, elapsed, error)


def _fresh_grid(grid: Grid, shape: Shape) -> Grid | str:
    """A new plain ``Grid`` of ``grid``'s cells and shape, each read once (``shape`` when it is the same).

    The cells are read from the tuple or list itself, not through what a subclass says of it, and
    made bytes: their own values, however they print. Values that are not digits stay as they are
    for the check to word (ints, floats, strs; any other kind by its name); cells that are no tuple
    or list give a text, which the check refuses as no grid.
    """
    cells, own = grid.cells, grid.shape
    if isinstance(cells, tuple):
        cells = tuple.__getitem__(cells, slice(None))
    elif isinstance(cells, list):
        cells = tuple(list.__getitem__(cells, slice(None)))
    else:
        return f"a grid whose cells are a {type(cells).__name__}"
    if own is not shape:
        own = Shape.of(own.box_rows, own.box_cols) if type(own) is not Shape else own
        own = shape if own == shape else own
    try:
        return Grid(tuple(bytes(cells)), own, validate=False)
    except (TypeError, ValueError):  # not all digits (or of another size): the check says what is wrong
        values = tuple(v if type(v) in (int, float, str) else f"<{type(v).__name__}>" for v in cells)
        return Grid(values, own, validate=False)  # type: ignore[arg-type]


def _vouched(result: Result, puzzle: Grid, name: str, took: float, keep: int | None) -> Result:
    """A consistent fresh result to pass on: this puzzle and name, JSON-safe stats, a real time, ``keep`` solutions."""
    elapsed = result.elapsed
    if type(elapsed) is not float or not 0.0 <= elapsed <= took:  # no solve takes longer than the call around it
        elapsed = took
    solutions = result.solutions
    if keep is not None and len(solutions) > keep:
        solutions = solutions[:keep]
    stats = _plain_stats(result.stats)
    count = result.count
    if type(count) is not int:
        count = int.__index__(count)  # an int, not a subclass that prints another number
    if (
        result.puzzle is puzzle
        and elapsed is result.elapsed
        and solutions is result.solutions
        and stats is result.stats
        and count is result.count
    ):
        return result  # made by _fresh: nothing to change
    return Result(result.status, puzzle, name, solutions, count, result.exact, stats, elapsed, result.error)


#: A result as plain data, what crosses a process boundary: (status, the solutions' cells as bytes, count,
#: exact, elapsed, stats as (key, value) pairs, error). Made by ``answer_of``, read back by ``result_of``.
Answer = tuple[str, tuple[bytes, ...], int, bool, float, tuple[tuple[str, int | float | str], ...], str | None]
#: The longest elapsed time an answer may carry (about 31 years): longer is no time measured.
MAX_ELAPSED = 1e9
_STATUSES = {status.value: status for status in Status}
_SOLVED = Status.SOLVED  # (an enum's member read from its class takes 0.3 us in Python 3.11)


def answer_of(result: Result) -> Answer:
    """A result of ``run`` as plain data (builtins only): what a worker process sends for the caller to check.

    An error's message goes without the engine's name that begins it: ``result_of`` names the engine.
    """
    cells = tuple(bytes(grid.cells) for grid in result.solutions)
    stats = tuple(result.stats.items())
    error = result.error
    if error is not None:
        error = error.removeprefix(f"strategy {result.strategy!r} ").removeprefix("failed: ")
    return (result.status.value, cells, result.count, result.exact, result.elapsed, stats, error)


def result_of(
    answer: object,
    puzzle: Grid,
    name: str,
    *,
    limit: int,
    keep: int | None = None,
    took: float | None = None,
    _problem: Callable[..., str | None] = result_problem,
    _holds: Callable[..., bool] = answer_holds,
) -> Result:
    """The result that ``answer`` (from ``answer_of``, in another process) holds, made and checked here.

    Nothing of the answer is trusted: it must be plain data of the right types, and the ``Result``
    is made of it by this process (new grids of the puzzle's shape, the caller's ``puzzle`` and
    ``name``) and checked as ``run`` checks an engine's; an answer that is not, or fails the check,
    is an ``error`` result naming ``name``. ``limit`` and ``keep`` are what the engine was asked for.
    ``took`` is the time measured around an engine's ``solve_plain`` (``run``): an elapsed time past
    it is replaced by it. ``_problem`` and ``_holds`` are not options: the check (``answer_holds`` first, on
    the plain data; ``result_problem`` when it does not pass, to say what is wrong), bound when sudokit is
    imported.
    """
    unread = _unreadable(answer, puzzle.shape.size)
    if unread is not None:
        return _failed(puzzle, name, took or 0.0, f"returned an answer that cannot be read: {unread}")
    text, cells, count, exact, elapsed, stats, error = cast("Answer", answer)  # an Answer, as _unreadable found
    if took is not None and elapsed > took:  # no solve takes longer than the call around it
        elapsed = took
    status = _STATUSES[text]
    if status is Status.ERROR:
        return _failed(puzzle, name, elapsed, error or "")  # never None here: _unreadable saw to it
    if status is Status.UNSUPPORTED:
        return Result(status, puzzle, name, elapsed=elapsed, error=" ".join(f"strategy {name!r} {error}".split()))
    shape = puzzle.shape
    if len(cells) == 1:
        solutions: tuple[Grid, ...] = (Grid._of_bytes(cells[0], shape),)
    else:
        solutions = tuple([Grid._of_bytes(raw, shape) for raw in cells])
    # every field read and typed by _unreadable above: the dataclass's own object, its slots set directly
    result = Result._made(status, puzzle, name, solutions, count, exact, dict(stats), elapsed, error)
    if _holds(puzzle, status, cells, count, exact, limit=limit, keep=keep):
        return result
    problem = _problem(result, puzzle, limit=limit, keep=keep)
    return result if problem is None else _failed(puzzle, name, elapsed, problem)


def _solved_once(
    answer: object,
    puzzle: Grid,
    name: str,
    limit: int,
    keep: int | None,
    took: float,
    _holds: Callable[..., bool] = solved_once_holds,
) -> Result | None:
    """``result_of``'s result for the common answer, read in one pass; None for any other (``result_of`` reads it).

    The common answer: solved, one solution of ``bytes``, no error, stats of int, bool or str values, which
    ``verify.solved_once_holds`` passes. Whatever is not so, or fails the check, goes the whole way (where a
    failure is worded): this path accepts only answers ``result_of`` accepts, and makes the same ``Result``.
    ``_holds`` is not an option: the check, bound when sudokit is imported.
    """
    if type(answer) is not tuple or len(answer) != 7:
        return None
    text, cells, count, exact, elapsed, stats, error = answer
    if (
        type(text) is not str
        or text != "solved"
        or error is not None
        or type(cells) is not tuple
        or len(cells) != 1
        or type(count) is not int
        or type(exact) is not bool
        or type(elapsed) is not float
        or not 0.0 <= elapsed <= MAX_ELAPSED
        or type(stats) is not tuple
    ):
        return None
    plain = {}
    for pair in stats:
        if type(pair) is not tuple or len(pair) != 2:
            return None
        key, value = pair
        kind = type(value)
        if type(key) is not str or not (kind is int or kind is bool or kind is str):
            return None
        plain[key] = value
    raw = cells[0]
    if not _holds(puzzle, raw, count, limit=limit, keep=keep):  # bytes of the puzzle's size that solve it
        return None
    solutions = (Grid._of_bytes(raw, puzzle.shape),)
    elapsed = elapsed if elapsed <= took else took  # no solve takes longer than the call around it
    return Result._made(_SOLVED, puzzle, name, solutions, count, exact, plain, elapsed, None)


def _unreadable(answer: object, size: int) -> str | None:
    """None when ``answer`` is an ``Answer`` of plain builtins for a board of ``size`` cells; else what is wrong."""
    if type(answer) is not tuple or len(answer) != 7:
        return f"{type(answer).__name__}, not a tuple of 7"
    text, cells, count, exact, elapsed, stats, error = answer
    if type(text) is not str or text not in _STATUSES:
        return f"status {text!r:.40}"
    if type(cells) is not tuple:
        return "solutions that are not grids of the puzzle's size"
    for raw in cells:
        if type(raw) is not bytes or len(raw) != size:
            return "solutions that are not grids of the puzzle's size"
    if type(count) is not int or type(exact) is not bool:
        return "a count or exact of another type"
    if type(elapsed) is not float or not 0.0 <= elapsed <= MAX_ELAPSED:
        return f"elapsed {elapsed!r:.40}"
    if type(stats) is not tuple:
        return "stats that are not (name, value) pairs"
    for pair in stats:
        if type(pair) is not tuple or len(pair) != 2:
            return "stats that are not (name, value) pairs"
    for key, value in stats:
        kind = type(value)
        if type(key) is not str or not (kind is int or kind is str or kind is bool or kind is float):
            return f"stats {key!r:.40}: a value of type {kind.__name__}"
        if kind is float and not math.isfinite(value):
            return f"stats {key!r:.40}: {value!r}"
    if error is not None and (type(error) is not str or not error.strip()):
        return f"error {error!r:.40}"
    if (error is None) is (text in ("error", "unsupported")):
        return f"status {text} with error {error!r:.40}"
    return None


def _plain_stats(stats: Mapping[Any, Any]) -> Mapping[str, int | float | str]:
    """``stats`` itself when it holds only str keys and bool, int, finite float or str values; else a cleaned copy."""
    for key, value in stats.items():
        kind = type(value)
        if type(key) is not str or not (
            kind is int or kind is str or kind is bool or (kind is float and value - value == 0.0)
        ):
            return {str(k): _plain(v) for k, v in stats.items()}
    return stats


def _plain(value: object) -> int | float | str:
    """A stats value JSON can hold: a number (NaN and infinities as "nan", "inf"), a str, or a short repr."""
    try:
        if isinstance(value, bool | str):
            return bool(value) if isinstance(value, bool) else str(value)
        if hasattr(type(value), "__index__"):  # ints of any type (numpy's)
            return operator.index(cast("SupportsIndex", value))
        if isinstance(value, float) or (hasattr(type(value), "__float__") and not isinstance(value, complex)):
            number = float(cast("SupportsFloat", value))
            return number if math.isfinite(number) else str(number)
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 80 else text[:77] + "..."


def solve(
    puzzle: PuzzleLike,
    strategy: str | Strategy = "backtrack",
    *,
    limit: int = 1,
    keep: int | None = None,
    time_limit: float | None = None,
    box: Shape | str | None = None,
    isolate: bool = False,
    **options: Any,
) -> Result:
    """Solve ``puzzle`` with ``strategy`` (a registered name or a Strategy object).

    ``puzzle`` is a Grid, a text in any accepted form, or rows of cells; ``box`` ("2x3" or a Shape)
    gives the box shape where the side leaves it open. ``limit`` 1 finds one solution, 2 decides
    uniqueness, more counts; ``keep`` is how many of the solutions found to return (None: all);
    ``time_limit`` is in seconds (None, 0 or ``math.inf``: no limit). Engine ``options`` go to a named
    strategy's constructor. The answer is checked (see ``run``): an engine that crashes, returns
    something that is not a valid answer or overruns its limit gives an ``error`` result. Raises
    ``InvalidPuzzleError`` for a bad puzzle, ``StrategyError`` for an unknown or broken engine,
    ``TypeError`` for an argument of the wrong type and ``ValueError`` for a ``limit`` or ``keep``
    below 1 or a ``time_limit`` of 0, below 0 or NaN.

    The engine runs in this process, where the watchdog stops any engine that lets Python run. With
    ``isolate=True`` it runs in a killable worker process instead, as ``sudoku`` always does (a fork
    a call, about 3 ms, plus importing the engine if this process has not): an engine that ends or
    crashes its process, or holds it in C code past its time limit, then gives an ``error`` result::

        >>> r = solve("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
        >>> r.status.value, r.solution.to_line()[:9]
        ('solved', '534678912')
    """
    if type(limit) is not int or limit < 1:
        limit = _whole("limit", limit)
    keep = None if keep is None else _whole("keep", keep)
    time_limit = None if time_limit is None else normalize_time_limit(time_limit)
    grid = puzzle if type(puzzle) is Grid and box is None else as_grid(puzzle, box)
    if isolate:
        return run_isolated(strategy, grid, limit=limit, keep=keep, time_limit=time_limit, options=options)
    engine = get_strategy(strategy, **options) if options else get_strategy(strategy)
    result = _run(engine, grid, limit, None if keep is None else min(keep, limit), time_limit)
    if isinstance(strategy, str) and result.strategy != strategy:  # the name asked for, not the one it calls itself
        result = replace(result, strategy=strategy)
    return result


def count_solutions(
    puzzle: PuzzleLike,
    strategy: str | Strategy = "backtrack",
    *,
    limit: int = DEFAULT_COUNT_LIMIT,
    keep: int | None = 1,
    time_limit: float | None = None,
    box: Shape | str | None = None,
    isolate: bool = False,
    **options: Any,
) -> Result:
    """Count the solutions of ``puzzle`` up to ``limit``: ``.count``, and ``.exact`` when below it.

    Only the first ``keep`` solutions are kept (one: memory stays flat however many are counted;
    None keeps them all). The rest is as for ``solve``::

        >>> count_solutions("....5..4...8.1.5..4......12.7.5.2.8....6.3....4.1.9...25.....98..1.2.6...8.....2.").count
        357
    """
    return solve(puzzle, strategy, limit=limit, keep=keep, time_limit=time_limit, box=box, isolate=isolate, **options)


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


# --- the isolated call -----------------------------------------------------------------------------

#: What a worker's failure on a puzzle is, as plain data: ``(FAILED, problem)``.
FAILED = "failed"


class IsolatedCall:
    """The worker-pool task (:class:`sudokit.engines.workers.Task`) of checked calls, each item a ``Grid``.

    ``strategy`` is a registered name (built in the worker with ``options``) or a Strategy object;
    ``limit``, ``keep`` and ``time_limit`` are as for :func:`run`.
    """

    __slots__ = ("keep", "limit", "options", "strategy", "time_limit")

    def __init__(
        self,
        strategy: str | Strategy,
        options: Mapping[str, Any] | None = None,
        limit: int = 1,
        keep: int | None = None,
        time_limit: float | None = None,
    ) -> None:
        self.strategy = strategy
        self.options = dict(options or {})
        self.limit = limit
        self.keep = keep
        self.time_limit = time_limit

    @property
    def name(self) -> str:
        """The engine's name, as its results carry it."""
        if isinstance(self.strategy, str):
            return self.strategy
        return str(getattr(self.strategy, "name", type(self.strategy).__name__))

    @property
    def budget(self) -> float | None:
        """Seconds a puzzle may run before its worker is killed: after the in-process watchdog gave up."""
        return None if self.time_limit is None else watchdog_seconds(self.time_limit) + KILL_GRACE

    def start(self, mark: Callable[[int], None]) -> Callable[[Grid], Answer]:
        """Build the engine (in the worker) and return the function that answers one puzzle, as plain data."""
        engine = get_strategy(self.strategy, **self.options)
        limit, keep, time_limit = self.limit, self.keep, self.time_limit

        def answer(grid: Grid) -> Answer:
            return answer_of(run(engine, grid, limit=limit, keep=keep, time_limit=time_limit))

        return answer

    def finish(self, grid: Grid, answer: Any) -> Result:
        """The result of the worker's plain ``answer``, made and checked in this process against ``grid``."""
        if type(answer) is tuple and len(answer) == 2 and answer[0] == FAILED and type(answer[1]) is str:
            problem = answer[1]
            if self.time_limit is not None and problem.startswith("still running"):
                problem = f"{problem} (time limit {self.time_limit:g} s)"
            error = " ".join(f"strategy {self.name!r} failed: {problem}".split())
            return Result(Status.ERROR, grid, self.name, error=error)
        return result_of(answer, grid, self.name, limit=self.limit, keep=self.keep)

    def failed(self, grid: Grid, problem: str) -> Any:
        """What a worker's failure on a puzzle is, as plain data: :meth:`finish` makes its ``error`` result."""
        return (FAILED, problem)

    def load_failed(self, phase: int, problem: str) -> bool:
        """One engine, so nothing to go on with: raise the ``StrategyLoadError`` that stops the call."""
        raise StrategyLoadError(" ".join(f"strategy {self.name!r} failed to load: {problem}".split()))


def run_isolated(
    strategy: str | Strategy,
    puzzle: Grid,
    *,
    limit: int = 1,
    keep: int | None = None,
    time_limit: float | None = None,
    options: Mapping[str, Any] | None = None,
) -> Result:
    """``run`` in a fresh killable worker process: what ``solve(..., isolate=True)`` does.

    An engine that ends its process, crashes it, or is still running ``KILL_GRACE`` s after the
    in-process watchdog gave up, gives an ``error`` result. Raises ``StrategyError`` when the engine
    cannot be loaded (a name), or its load ends or hangs the worker.
    """
    task = IsolatedCall(strategy, dict(options or {}), limit, keep, normalize_time_limit(time_limit))
    from sudokit.engines.workers import WorkerPool  # the worker processes, only for an isolated call

    with WorkerPool(task, 1) as pool:
        pool.start()
        result: Result
        [result] = pool.map([puzzle])
    return result
