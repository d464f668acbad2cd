"""The strategy interface every engine implements, and the one result type every engine returns."""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, Protocol, runtime_checkable

from sudokit.errors import BoxShapeError, StrategyError
from sudokit.model.grid import Grid
from sudokit.model.shape import Shape

__all__ = [
    "MANY_STATUS",
    "Capabilities",
    "ManyResults",
    "Result",
    "Status",
    "Strategy",
    "capabilities_of",
    "offers_candidates",
    "offers_many",
]


class Status(StrEnum):
    """How a solve ended."""

    SOLVED = "solved"  #: at least one solution found (``count`` says how many, up to the limit)
    UNSOLVABLE = "unsolvable"  #: proved to have no solution
    TIMEOUT = "timeout"  #: the time limit ran out before the question was answered
    ERROR = "error"  #: the engine failed (set by sudokit, never by a working engine)
    UNSUPPORTED = "unsupported"  #: not run: the puzzle has a rule the engine does not take (set by sudokit)


@dataclass(frozen=True, slots=True, repr=False)
class Result:
    """What any engine returns for one puzzle.

    ``count`` is how many solutions were found, up to the limit asked for, and ``exact`` says
    whether that is the true number of solutions (the search finished below the limit).
    ``solutions`` holds the first ``min(count, keep)`` of them, distinct (``keep``, asked with the
    limit, is how many to return: all of them unless told, one when counting). ``stats`` are the
    engine's own counters (nodes, branches, ...); ``elapsed`` is wall time in seconds; ``error``
    says why, with status ``error`` or ``unsupported`` only.
    """

    status: Status
    puzzle: Grid
    strategy: str
    solutions: tuple[Grid, ...] = ()
    count: int = 0
    exact: bool = False
    stats: Mapping[str, int | float | str] = field(default_factory=dict)
    elapsed: float = 0.0
    error: str | None = None

    @property
    def solution(self) -> Grid | None:
        """The first solution found, or None."""
        return self.solutions[0] if self.solutions else None

    @property
    def solved(self) -> bool:
        """True when a solution was found."""
        return bool(self.solutions)

    @property
    def unique(self) -> bool | None:
        """True/False when the search decided uniqueness (ask with limit >= 2), None when it did not."""
        if self.exact:
            return self.count == 1
        if self.count >= 2:
            return False
        return None

    @classmethod
    def _made(
        cls,
        status: Status,
        puzzle: Grid,
        strategy: str,
        solutions: tuple[Grid, ...],
        count: int,
        exact: bool,
        stats: Mapping[str, int | float | str],
        elapsed: float,
        error: str | None,
    ) -> Result:
        """``Result(status, puzzle, ...)`` with every field given, in half the time: its slots set directly.

        For sudokit's core, on values it has already checked (``sudokit.engines.api.result_of``): the same
        object as the dataclass makes (``==``, frozen, the same fields). The fields and these arguments are
        held equal when the module is imported (``_RESULT_SLOTS``).
        """
        result = object.__new__(cls)
        _SET_STATUS(result, status)
        _SET_PUZZLE(result, puzzle)
        _SET_STRATEGY(result, strategy)
        _SET_SOLUTIONS(result, solutions)
        _SET_COUNT(result, count)
        _SET_EXACT(result, exact)
        _SET_STATS(result, stats)
        _SET_ELAPSED(result, elapsed)
        _SET_ERROR(result, error)
        return result

    def __repr__(self) -> str:
        puzzle = self.puzzle
        if isinstance(puzzle, Grid):
            shape = puzzle.shape
            boxes = "" if shape.box_rows == shape.box_cols else f" of {shape} boxes"
            shown = f"<{shape.n}x{shape.n} grid{boxes}, {puzzle.count_givens()} givens>"
        else:
            shown = _short(puzzle, 40)
        status = self.status.value if isinstance(self.status, Status) else repr(self.status)
        elapsed = self.elapsed
        took = f"{elapsed * 1000:.3f} ms" if isinstance(elapsed, int | float) else _short(elapsed, 20)
        error = "" if self.error is None else f", error={_short(self.error, 80)}"
        return (
            f"Result({status}, strategy={_short(self.strategy, 40)}, count={_short(self.count, 20)}, "
            f"exact={_short(self.exact, 10)}, elapsed={took}, puzzle={shown}{error})"
        )

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready summary: puzzle, strategy, status, solution, count, exact, elapsed_ms, stats, error."""
        return {
            "puzzle": self.puzzle.to_line(),
            "strategy": self.strategy,
            "status": self.status.value,
            "solution": self.solution.to_line() if self.solution else None,
            "count": self.count,
            "exact": self.exact,
            "elapsed_ms": round(self.elapsed * 1000, 3),
            "stats": dict(self.stats),
            "error": self.error,
        }


#: The slots of ``Result`` in the order of its fields, each one's setter: ``Result._made`` fills them. Made of
#: ``fields(Result)`` itself and checked against ``_made``'s arguments when sudokit is imported: a field added
#: to the class and not to ``_made`` stops the import, never a result made without it.
_RESULT_SLOTS = tuple(Result.__dict__[f.name].__set__ for f in fields(Result))
if [f.name for f in fields(Result)] != list(inspect.signature(Result._made).parameters):
    raise ImportError("Result's fields and Result._made's arguments differ")  # pragma: no cover - a change to Result
(
    _SET_STATUS,
    _SET_PUZZLE,
    _SET_STRATEGY,
    _SET_SOLUTIONS,
    _SET_COUNT,
    _SET_EXACT,
    _SET_STATS,
    _SET_ELAPSED,
    _SET_ERROR,
) = _RESULT_SLOTS


def _short(value: object, width: int) -> str:
    """The repr of ``value``, cut to about ``width`` characters with ``...`` (a string keeps its quotes)."""
    if isinstance(value, str) and len(value) > width:
        return repr(value[: width - 3] + "...")
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


@runtime_checkable
class Strategy(Protocol):
    """A Sudoku engine. Register one under the entry-point group ``sudokit.strategies``.

    The entry point names a class (or any callable) that builds the strategy from keyword options;
    ``sudoku solve -o key=value`` and ``solve(..., key=value)`` pass them through.

    ``solve`` may also take ``keep: int | None = None``, how many of the solutions found to return
    (None: all, up to ``limit``), so that counting to a large limit need not hold every solution;
    sudokit passes ``keep`` only to an engine whose ``solve`` takes it (or ``**kwargs``), and trims
    the solutions of the others. An engine may also offer ``candidates(puzzle, *, cap, time_limit)``,
    a fast way to the true candidates (:func:`offers_candidates`), and ``solve_plain``, ``solve``'s
    answer as plain data, which sudokit then calls instead (``sudokit.engines.api.offers_plain``).
    sudokit checks every result (``sudokit.engines.verify.result_problem``): an answer that is not
    consistent, or that arrives long after ``time_limit``, becomes an ``error`` result naming the engine.
    """

    name: str
    description: str

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        """Search ``puzzle`` for up to ``limit`` solutions, stopping at ``time_limit`` seconds.

        ``limit`` 1 finds one solution, 2 decides uniqueness, more counts; ``time_limit`` None is no
        limit, and any positive value (1e10 too) must work. The result's status is ``solved``
        (count >= 1, with solutions), ``unsolvable`` (proved: count 0, exact) or ``timeout`` (not
        exact; the solutions found so far), and ``len(solutions) == count`` (``min(count, keep)``
        for an engine taking ``keep``).
        """
        ...


#: What ``ManyResults.status`` holds, by index: 0 solved, 1 unsolvable, 2 timeout.
MANY_STATUS = (Status.SOLVED, Status.UNSOLVABLE, Status.TIMEOUT)


@dataclass(frozen=True, slots=True)
class ManyResults:
    """What an engine's optional ``solve_many`` returns for k puzzles of one box shape: a buffer per field.

    Every field supports the buffer protocol (bytes, bytearray, ``array.array``, a numpy array), so
    sudokit reads it without numpy. Per puzzle i: ``status[i]`` indexes ``MANY_STATUS`` (uint8);
    ``count[i]`` the solutions found up to the limit (int64); ``exact[i]`` 1 when that is the true
    number (uint8); ``solutions[i*n*n:(i+1)*n*n]`` the first solution found, all 0 when none (uint8);
    ``elapsed[i]`` seconds (float64); ``stats`` maps each counter of the engine's ``solve()`` stats
    to k int64 values. The answers must be those ``solve()`` gives for each puzzle alone.

    An engine offers the batch method as::

        def solve_many(self, cells: memoryview, shape: Shape, *, limit: int = 1,
                       time_limit: float | None = None) -> ManyResults: ...

    ``cells`` holds k*n*n unsigned bytes (0 blank, 1..n a digit), puzzle after puzzle; ``time_limit``
    is per puzzle. sudokit calls it only for classic puzzles of a shape the engine claims, and checks
    every answer as it checks ``solve()``'s.
    """

    status: Any
    count: Any
    exact: Any
    solutions: Any
    elapsed: Any
    stats: Mapping[str, Any] = field(default_factory=dict)


def offers_candidates(strategy: object) -> bool:
    """True when ``strategy`` has the optional fast method ``candidates(puzzle, *, cap, time_limit)``.

    It returns a :class:`sudokit.Result` whose ``solutions`` are witnesses: distinct solutions such that
    every (cell, digit) pair some solution holds is held by at least ``min(cap, solutions with it)``
    of them (so a pair no witness holds is one no solution has). Status ``solved``, ``unsolvable``
    (none), or ``timeout`` with the witnesses found so far. sudokit checks each witness as it checks a
    solve's solutions; that no other solution holds a pair is the engine's word
    (``sudokit.candidates(..., check=...)`` asks a second engine).
    """
    return callable(getattr(strategy, "candidates", None))


def offers_many(strategy: object) -> bool:
    """True when ``strategy`` has a ``solve_many`` method (see :class:`ManyResults`)."""
    return callable(getattr(strategy, "solve_many", None))


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What an engine says it supports: its optional ``capabilities`` attribute (this default when absent).

    The default claims what the ``Strategy`` protocol asks of every engine: every box shape, counting
    and time limits. An engine with a documented limit declares it, and the conformance kit
    (``sudokit.testing``) skips the checks that need more, saying why::

        >>> caps = Capabilities(max_side=12)
        >>> caps.shape_problem(Shape.of(4, 4))
        'claims boards up to 12x12, not 16x16'
    """

    #: The largest board side it takes (None: every board sudokit has).
    max_side: int | None = None
    #: Only these box shapes, as ``"RxC"`` texts or Shapes (None: every one up to ``max_side``).
    box_shapes: frozenset[Shape] | None = None
    #: Counts past the first solution (``limit`` above 1) and says when a count is exact.
    counting: bool = True
    #: Stops at ``time_limit`` and reports ``timeout``.
    time_limit: bool = True
    #: The variant kinds it takes on top of the classic rules (``sudokit.model.variants``: "killer", "jigsaw", ...).
    constraints: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        side = self.max_side
        if side is not None and (type(side) is not int or side < 4):
            raise StrategyError(f"capabilities: max_side must be a board side of at least 4 or None, not {side!r:.40}")
        if self.box_shapes is not None:
            object.__setattr__(self, "box_shapes", frozenset(_shapes(self.box_shapes)))
        for name in ("counting", "time_limit"):
            if type(getattr(self, name)) is not bool:
                raise StrategyError(f"capabilities: {name} must be True or False, not {getattr(self, name)!r:.40}")
        kinds = self.constraints
        if isinstance(kinds, str) or not isinstance(kinds, Iterable) or not all(isinstance(k, str) for k in kinds):
            raise StrategyError(f"capabilities: constraints must be a set of kind names, not {kinds!r:.40}")
        object.__setattr__(self, "constraints", frozenset(kinds))

    def shape_problem(self, shape: Shape) -> str | None:
        """None when the engine claims boards of ``shape``; else why not, in a few words."""
        if self.max_side is not None and shape.n > self.max_side:
            return f"claims boards up to {self.max_side}x{self.max_side}, not {shape.n}x{shape.n}"
        if self.box_shapes is not None and shape not in self.box_shapes:
            claimed = ", ".join(sorted(str(s) for s in self.box_shapes)) or "none"
            return f"claims boxes of {claimed}, not {shape}"
        return None

    def supports(self, shape: Shape) -> bool:
        """True when the engine claims boards of ``shape``."""
        return self.shape_problem(shape) is None

    def unsupported_kinds(self, puzzle: Grid) -> list[str]:
        """The variant kinds of ``puzzle`` the engine does not take, sorted (empty: it takes them all)."""
        if puzzle.is_classic:
            return []
        return sorted(puzzle.kinds - self.constraints)


def capabilities_of(strategy: object) -> Capabilities:
    """The capabilities ``strategy`` declares (a ``Capabilities``, or a mapping of its fields), else the default.

    Raises ``StrategyError`` naming what is wrong with a declaration that is neither.
    """
    declared = getattr(strategy, "capabilities", None)
    if declared is None:
        return Capabilities()
    if isinstance(declared, Capabilities):
        return declared
    if isinstance(declared, Mapping):
        known = {f.name for f in fields(Capabilities)}
        unknown = sorted(str(k) for k in declared if k not in known)
        if unknown:
            raise StrategyError(f"capabilities: unknown field {unknown[0]!r} (known: {', '.join(sorted(known))})")
        return Capabilities(**declared)
    raise StrategyError(f"capabilities must be a sudokit.Capabilities or a mapping, not {declared!r:.60}")


def _shapes(values: Any) -> Iterable[Shape]:
    """Shapes from an iterable of Shapes and ``"RxC"`` texts; StrategyError for anything else."""
    if isinstance(values, str | Shape) or not isinstance(values, Iterable):
        values = [values]
    for value in values:
        if isinstance(value, Shape):
            yield value
            continue
        try:
            yield Shape.parse(value)
        except (BoxShapeError, TypeError) as err:
            raise StrategyError(f"capabilities: box_shapes: {err}") from None
