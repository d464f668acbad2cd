"""Checks of group api: what the ``Strategy`` protocol and ``Result`` promise, whatever the engine.

An engine names and describes itself, returns a ``Result`` for this puzzle under its own name, with
a status that means what the docs say, ``count`` and ``exact`` right for limits 1, 2 and N, distinct
solutions of the puzzle's shape that keep every given, honest ``elapsed`` seconds and JSON-safe
``stats``. It leaves its input alone, pickles (it must run in worker processes), answers the same
question the same way every time, carries nothing from one puzzle to the next, and takes every
time limit from None to 1e10. The puzzles are moderate 9x9 ones of the shipped corpus with known
answers (boxes of 2x3 and 3x2 for the shape check), so the whole group takes well under a second
on ``backtrack``.
"""

from __future__ import annotations

import json
import math
import pickle
import time
from collections.abc import Mapping

from sudokit.engines.api import described, offers_plain
from sudokit.engines.strategy import Result, Status, capabilities_of, offers_candidates
from sudokit.engines.verify import shown, solution_problem
from sudokit.model.grid import Grid
from sudokit.model.shape import Shape
from sudokit.testing import corpus
from sudokit.testing._kit import Subject, check, shown_status
from sudokit.testing.checks_time import LONG_LIMIT, expect_timeout, long_search
from sudokit.testing.reference import count_solutions

#: The classic board, the one most api checks ask about.
NINE = Shape.of(3, 3)
#: A call's ``elapsed`` may exceed the wall time measured around it by this much (s) and this fraction:
#: an engine may read a coarser clock than ``perf_counter`` (``time.monotonic`` ticks every 15.6 ms on Windows).
ELAPSED_SLACK = (0.02, 0.1)
#: ``elapsed`` must not be 0.0 in every one of calls that took at least this much wall time (s) together.
MEASURABLE = 0.1


# --- the puzzles ---------------------------------------------------------------------------------


def _unique() -> corpus.Known:
    """LeetCode 37's board: one solution, found at once by any engine."""
    return corpus.load("unique")[0]


def _unsolvable() -> corpus.Known:
    """A 9x9 puzzle with no solution."""
    return corpus.load("unsolvable")[0]


def _multi(at_least: int) -> corpus.Known:
    """The multi-solution puzzle with the fewest solutions that has at least ``at_least`` of them."""
    return min((k for k in corpus.load("multi") if k.count >= at_least), key=lambda k: k.count)


def _busiest() -> corpus.Known:
    """The multi-solution puzzle with the most solutions: counting them all takes an engine some work."""
    return max(corpus.load("multi"), key=lambda k: k.count)


def _fresh(puzzle: Grid) -> Grid:
    """A new Grid equal to ``puzzle``: an engine that alters its input then cannot touch the shared corpus."""
    return Grid(list(puzzle.cells), puzzle.shape, validate=False)


# --- helpers -------------------------------------------------------------------------------------


def _classic(subject: Subject) -> None:
    """Skip unless the engine claims 9x9 boards (every api check but two asks about them)."""
    subject.require_shape(NINE)


def _solutions(subject: Subject, result: Result, puzzle: Grid) -> tuple[Grid, ...]:
    """The result's solutions as a tuple; fails when they are not a tuple or list."""
    found = result.solutions
    if not isinstance(found, tuple | list):
        subject.fail(f"returned solutions as {shown(found)}, not a tuple of grids", puzzle)
    return tuple(found)


def _said(result: Result) -> str:
    """A result's status, count and exact, as a failure message shows them."""
    return f"status {shown_status(result.status)}, count {result.count}, exact {result.exact}"


def _solutions_text(k: int) -> str:
    """``k`` solutions in words: "no solution", "1 solution", "3 solutions"."""
    if k == 0:
        return "no solution"
    return f"{k} solution" if k == 1 else f"{k} solutions"


def _limits(subject: Subject) -> tuple[int, ...]:
    """Limit 1, and 2 too when the engine claims counting."""
    return (1, 2) if subject.capabilities.counting else (1,)


# --- naming and declaring ------------------------------------------------------------------------


@check("api")
def has_name_and_description(subject: Subject) -> None:
    """``name`` is a non-empty str without whitespace and ``description`` a non-empty one-line str.

    The name is what ``-s NAME`` selects and what test ids (``NAME-check``) are made of; the
    description is the engine's line in ``sudoku strategies``.
    """
    engine = subject.strategy
    name = getattr(engine, "name", None)
    if not isinstance(name, str):
        subject.fail(f"name is {shown(name)}, not a str")
    if not name:
        subject.fail("name is empty: give the engine the name -s selects it by")
    if any(ch.isspace() for ch in name):
        subject.fail(f"name {name!r} holds whitespace: -s NAME and test ids need one word (use '-')")
    description = getattr(engine, "description", None)
    if not isinstance(description, str):
        subject.fail(f"description is {shown(description)}, not a str")
    if not description.strip():
        subject.fail("description is empty: say in one line what the engine does")
    if len(description.splitlines()) != 1:
        subject.fail(f"description {shown(description)} is not one line: sudoku strategies lists it on one")


@check("api")
def declares_valid_capabilities(subject: Subject) -> None:
    """``capabilities`` is absent (the default) or a ``sudokit.Capabilities`` or a mapping of its fields."""
    declared = getattr(subject.strategy, "capabilities", None)
    try:
        capabilities_of(subject.strategy)
    except Exception as err:
        subject.fail(
            f"its capabilities attribute {shown(declared)} cannot be read ({described(err)}): declare a "
            "sudokit.Capabilities (or a mapping of its fields), or leave it out for the default"
        )


# --- the result ----------------------------------------------------------------------------------


@check("api")
def returns_result(subject: Subject) -> None:
    """``solve`` returns a ``sudokit.Result`` for a puzzle with one solution, one with several and one with none."""
    _classic(subject)
    for known in (_unique(), _multi(3), _unsolvable()):
        subject.solve(known.puzzle)  # fails on anything but a Result


@check("api")
def names_itself_in_result(subject: Subject) -> None:
    """``result.strategy`` is the engine's own ``name`` (not that of an engine it wraps)."""
    _classic(subject)
    name = getattr(subject.strategy, "name", None)
    for known in (_unique(), _unsolvable()):
        result = subject.solve(known.puzzle)
        if result.strategy != name:
            subject.fail(f"result.strategy is {shown(result.strategy)}, not the engine's name {name!r}", known.puzzle)


@check("api")
def returns_the_puzzle_asked(subject: Subject) -> None:
    """``result.puzzle`` is the puzzle passed to ``solve`` (an equal Grid, same shape and cells)."""
    _classic(subject)
    for known in (_unique(), _multi(3), _unsolvable()):
        result = subject.solve(known.puzzle)
        if not isinstance(result.puzzle, Grid) or result.puzzle != known.puzzle:
            subject.fail(f"result.puzzle is {shown(result.puzzle)}, not the puzzle asked", known.puzzle)


@check("api")
def status_is_a_status(subject: Subject) -> None:
    """``status`` is a ``sudokit.Status`` member, never ``error`` from a working engine; ``error`` is None.

    Status ``error`` is what sudokit reports when an engine fails (raises, answers inconsistently,
    overruns); an engine that works answers solved, unsolvable or timeout, with ``error`` None.
    """
    _classic(subject)
    for known in (_unique(), _multi(3), _unsolvable()):
        for limit in _limits(subject):
            result = subject.solve(known.puzzle, limit=limit)
            status = result.status
            if not isinstance(status, Status):
                subject.fail(
                    f"status is {shown(status)}, a {type(status).__name__}, not a sudokit.Status", known.puzzle
                )
            if status is Status.ERROR:
                subject.fail(
                    f"returned status error (error {shown(result.error)}) for a puzzle with "
                    f"{_solutions_text(known.count)}: a working engine never does (sudokit sets it when an "
                    "engine fails; a puzzle with no solution is unsolvable)",
                    known.puzzle,
                )
            if result.error is not None:
                subject.fail(
                    f"status {status.value} with error {shown(result.error)}: error is None unless the status is error",
                    known.puzzle,
                )


@check("api")
def solved_means_a_solution(subject: Subject) -> None:
    """Status ``solved`` comes with count >= 1 and at least one solution; a solvable puzzle gets ``solved``."""
    _classic(subject)
    for known in (_unique(), _multi(3)):
        for limit in _limits(subject):
            result = subject.solve(known.puzzle, limit=limit)
            found = _solutions(subject, result, known.puzzle)
            if result.status is not Status.SOLVED:
                subject.fail(
                    f"{_said(result)} with limit {limit} for a puzzle with {_solutions_text(known.count)}; "
                    "expected solved",
                    known.puzzle,
                )
            if not (isinstance(result.count, int) and result.count >= 1) or not found:
                subject.fail(
                    f"status solved with count {shown(result.count)} and {_solutions_text(len(found))} "
                    f"(limit {limit}): solved means count >= 1 and at least one solution",
                    known.puzzle,
                )


@check("api")
def unsolvable_means_proved_none(subject: Subject) -> None:
    """A puzzle with no solution gets status ``unsolvable``, with count 0, exact True and no solutions."""
    _classic(subject)
    known = _unsolvable()
    for limit in _limits(subject):
        result = subject.solve(known.puzzle, limit=limit)
        found = _solutions(subject, result, known.puzzle)
        if result.status is not Status.UNSOLVABLE:
            subject.fail(
                f"{_said(result)} with limit {limit} for a puzzle with no solution; expected unsolvable", known.puzzle
            )
        if result.count != 0 or result.exact is not True or found:
            subject.fail(
                f"status unsolvable with count {shown(result.count)}, exact {shown(result.exact)} and "
                f"{_solutions_text(len(found))} (limit {limit}): unsolvable means proved to have none "
                "(count 0, exact True, no solutions)",
                known.puzzle,
            )


@check("api")
def candidates_method_is_true(subject: Subject) -> None:
    """An engine offering the optional ``candidates(puzzle, *, cap, time_limit)`` method answers it truly.

    Its result's solutions are the witnesses: distinct solutions of the puzzle, together showing every
    digit that some solution has in each blank cell, ``cap`` times where that many solutions have it
    (fewer only where fewer exist), so that sudokit's true candidates from them are the puzzle's.
    Checked with caps 1 and 2 on a 9x9 puzzle with four solutions, against the kit's own reference
    counter; a puzzle with no solution gets ``unsolvable`` and no witness. Skipped for an engine
    without the method (it is optional: sudokit then asks ``solve``, a cell and digit at a time).
    """
    if not offers_candidates(subject.strategy):
        subject.skip("it offers no candidates method (optional)")
    _classic(subject)
    known = _multi(4)
    puzzle = known.puzzle
    everyone = [bytes(s.cells) for s in count_solutions(puzzle).solutions]
    n = puzzle.n
    blanks = [cell for cell, digit in enumerate(puzzle.cells) if not digit]
    for cap in (1, 2):
        result = subject.candidates(_fresh(puzzle), cap=cap)
        if result.status is not Status.SOLVED:
            subject.fail(f"candidates(cap={cap}) gave {_said(result)}; expected solved", puzzle)
        witnesses: set[bytes] = set()
        for k, grid in enumerate(result.solutions, 1):
            problem = solution_problem(puzzle, grid) if isinstance(grid, Grid) else f"{shown(grid)} is not a Grid"
            if problem is not None:
                subject.fail(f"candidates(cap={cap}): witness {k} is no solution: {problem}", puzzle)
            if bytes(grid.cells) in witnesses:
                subject.fail(f"candidates(cap={cap}): witness {k} repeats an earlier one", puzzle)
            witnesses.add(bytes(grid.cells))
        for cell in blanks:
            for digit in range(1, n + 1):
                have = sum(1 for w in everyone if w[cell] == digit)
                shown_ = sum(1 for w in witnesses if w[cell] == digit)
                if min(cap, shown_) < min(cap, have):
                    row, col = divmod(cell, n)
                    subject.fail(
                        f"candidates(cap={cap}): digit {digit} at r{row + 1}c{col + 1} is in {have} of the "
                        f"puzzle's {len(everyone)} solutions, in {shown_} of its witnesses: "
                        f"the true candidates would miss it",
                        puzzle,
                    )
    none = _unsolvable()
    result = subject.candidates(_fresh(none.puzzle), cap=1)
    if result.status is not Status.UNSOLVABLE or result.solutions:
        subject.fail(
            f"candidates(cap=1) gave {_said(result)} with {_solutions_text(len(result.solutions))} "
            "for a puzzle with no solution; expected unsolvable and no witness",
            none.puzzle,
        )


@check("api")
def solve_plain_agrees_with_solve(subject: Subject) -> None:
    """An engine offering the optional ``solve_plain(puzzle, *, limit, time_limit, keep)`` method answers as ``solve``.

    Each answer must be plain data sudokit reads and accepts (``result_of``: the documented types, consistent,
    every solution passing the independent check), with the status, count and exact that ``solve`` gives the
    same question, the puzzle's one solution on a unique puzzle, every solution when the count is exact, and an
    ``elapsed`` no longer than the call. Asked on 9x9 puzzles with one solution, several and none, at limits 1
    and 2 and (for an engine claiming counting) above, at and below a count, with ``keep`` 3 of 10; with
    ``time_limit`` None and 1e10; and (for an engine claiming time limits and counting) a 0.5 s limit on a
    search far longer must give ``timeout`` within it. Skipped for an engine without the method (it is
    optional: sudokit then calls ``solve``).
    """
    if not offers_plain(subject.strategy):
        subject.skip("it offers no solve_plain method (optional)")
    _classic(subject)
    unique = _unique()
    asked: list[tuple[corpus.Known, int, int | None]] = [
        (unique, 1, None),
        (_multi(3), 1, None),
        (_unsolvable(), 1, None),
    ]
    if subject.capabilities.counting:
        several, many = _multi(8), _multi(11)
        asked += [
            (unique, 2, None),
            (_unsolvable(), 2, None),
            (_multi(3), 2, None),
            (several, several.count + 5, None),
            (several, several.count, None),
            (_multi(10), 3, None),
            (many, 10, 3),
        ]
    absolute, relative = ELAPSED_SLACK
    for known, limit, keep in asked:
        puzzle = known.puzzle
        question = f"limit {limit}" + ("" if keep is None else f", keep {keep}")
        said = subject.solve(puzzle, limit=limit, keep=keep)
        start = time.perf_counter()
        plain = subject.solve_plain(_fresh(puzzle), limit=limit, keep=keep)
        wall = time.perf_counter() - start
        if (plain.status, plain.count, plain.exact) != (said.status, said.count, said.exact):
            subject.fail(
                f"solve_plain ({question}) answered {_said(plain)}; solve answered {_said(said)}: "
                "solve_plain is solve's answer in plain data",
                puzzle,
            )
        found = plain.solutions
        if known.solution is not None and found and found[0] != known.solution:
            subject.fail(
                f"solve_plain ({question}) returned {found[0].to_line()}, not the puzzle's one solution", puzzle
            )
        if keep is None and plain.exact and set(found) != set(said.solutions):
            subject.fail(
                f"solve_plain ({question}) found all {plain.count} solutions, but not the {len(said.solutions)} "
                "that solve found",
                puzzle,
            )
        if plain.elapsed > wall * (1 + relative) + absolute:
            subject.fail(
                f"solve_plain ({question}) gave elapsed {plain.elapsed:g} s, but the call took {wall:.6f} s of "
                "wall time: elapsed is wall seconds",
                puzzle,
            )
    for seconds in (None, 1e10):
        plain = subject.solve_plain(_fresh(unique.puzzle), time_limit=seconds)
        if plain.status is not Status.SOLVED or plain.solutions[0] != unique.solution:
            subject.fail(
                f"solve_plain (limit 1, time_limit {seconds}) answered {_said(plain)}, not the puzzle's one solution",
                unique.puzzle,
            )
    if subject.capabilities.time_limit and subject.capabilities.counting:
        result, took = long_search(subject, 0.5, plain=True)
        expect_timeout(subject, result, took, 0.5, "solve_plain: ")
        if result.exact is not False or not 1 <= result.count <= LONG_LIMIT:
            subject.fail(
                f"solve_plain: a timeout with count {result.count}, exact {result.exact}; expected the count found "
                "before the limit (at least 1), not exact",
                Grid.empty(NINE),
            )


# --- elapsed and stats ---------------------------------------------------------------------------


@check("api")
def elapsed_is_wall_seconds(subject: Subject) -> None:
    """``elapsed`` is a finite float >= 0: the call's wall time in seconds, never more than the time the call took.

    It may exceed the wall time measured around the call by 20 ms and 10 % (an engine may read a
    coarser clock), no more: milliseconds reported as seconds fail on any call taking 20 us or
    longer. It is not required to be above 0 here: a fast engine's call may take less than its
    clock's tick (``elapsed_is_measured`` catches an engine that never measures).
    """
    _classic(subject)
    calls = [(_unique(), 1), (_unsolvable(), 1)]
    if subject.capabilities.counting:
        busiest = _busiest()
        calls.append((busiest, busiest.count + 2))
    absolute, relative = ELAPSED_SLACK
    for known, limit in calls:
        start = time.perf_counter()
        result = subject.solve(known.puzzle, limit=limit)
        wall = time.perf_counter() - start
        elapsed = result.elapsed
        if type(elapsed) is not float:
            subject.fail(
                f"elapsed is {shown(elapsed)}, a {type(elapsed).__name__}, not a float of seconds", known.puzzle
            )
        if not (math.isfinite(elapsed) and elapsed >= 0.0):
            subject.fail(f"elapsed is {elapsed!r}: a finite number of seconds >= 0", known.puzzle)
        if elapsed > wall * (1 + relative) + absolute:
            ratio = elapsed / wall if wall > 0 else math.inf
            hint = ""
            if 300 <= ratio <= 3000:
                hint = f" ({ratio:.0f} times the wall time: milliseconds?)"
            elif ratio > 3000:
                hint = f" ({ratio:.3g} times the wall time: microseconds or nanoseconds?)"
            subject.fail(
                f"elapsed {elapsed:g} s, but the call took {wall:.6f} s of wall time{hint}: elapsed is wall seconds",
                known.puzzle,
            )


@check("api")
def elapsed_is_measured(subject: Subject) -> None:
    """``elapsed`` is measured: not 0.0 in every one of calls that together took 0.1 s of wall time or more.

    ``Result``'s default ``elapsed`` is 0.0, so an engine that never sets it reports every solve as
    instant (``sudoku bench`` and the CLI's times read it). One fast call may report 0.0 (a clock
    tick longer than the call); calls that fill 0.1 s cannot all, with any clock. An engine so fast
    that 500 calls take less than 0.1 s passes unjudged.
    """
    _classic(subject)
    if subject.capabilities.counting:
        known = _busiest()
        limit = known.count + 2
    else:
        known, limit = _unique(), 1
    total, calls, measured = 0.0, 0, False
    while total < MEASURABLE and calls < 500:
        start = time.perf_counter()
        result = subject.solve(known.puzzle, limit=limit)
        total += time.perf_counter() - start
        calls += 1
        measured = measured or result.elapsed != 0.0
    if total >= MEASURABLE and not measured:
        subject.fail(
            f"elapsed was 0.0 in all {calls} calls, which took {total:.3f} s of wall time together: set elapsed "
            "to the call's wall time (Result's default 0.0 left unset?)",
            known.puzzle,
        )


@check("api")
def stats_are_json_safe(subject: Subject) -> None:
    """``stats`` is a mapping of str keys to bool, int, finite float or str values, and ``json.dumps`` takes it."""
    _classic(subject)
    for known in (_unique(), _multi(3), _unsolvable()):
        for limit in _limits(subject):
            result = subject.solve(known.puzzle, limit=limit)
            stats = result.stats
            if not isinstance(stats, Mapping):
                subject.fail(f"stats is {shown(stats)}, a {type(stats).__name__}, not a mapping", known.puzzle)
            for key, value in stats.items():
                if type(key) is not str:
                    subject.fail(f"stats key {shown(key)} is a {type(key).__name__}, not a str", known.puzzle)
                kind = type(value)
                if not (kind in (bool, int, str) or (kind is float and math.isfinite(float(value)))):
                    subject.fail(
                        f"stats[{key!r}] is {shown(value)}, a {kind.__name__}: stats values are bool, int, "
                        "finite float or str",
                        known.puzzle,
                    )
            try:
                json.dumps(dict(stats), allow_nan=False)
            except Exception as err:
                subject.fail(f"json.dumps(dict(stats), allow_nan=False) failed: {described(err)}", known.puzzle)


# --- count and exact -----------------------------------------------------------------------------


@check("api")
def limit_1_finds_one(subject: Subject) -> None:
    """With limit 1 a puzzle with several solutions gives count 1, one solution and exact False."""
    _classic(subject)
    known = _multi(3)
    result = subject.answer(known.puzzle, limit=1)
    found = _solutions(subject, result, known.puzzle)
    if (result.count, len(found), result.exact) != (1, 1, False):
        subject.fail(
            f"count {result.count}, {_solutions_text(len(found))}, exact {result.exact} with limit 1 for a "
            f"puzzle with {known.count} solutions; expected count 1, 1 solution, exact False (exact True "
            "claims there is no other)",
            known.puzzle,
        )


@check("api")
def limit_2_proves_unique(subject: Subject) -> None:
    """With limit 2 a puzzle with one solution gives count 1 and exact True: uniqueness decided."""
    subject.require_counting()
    _classic(subject)
    known = _unique()
    result = subject.answer(known.puzzle, limit=2)
    if (result.count, result.exact) != (1, True):
        subject.fail(
            f"count {result.count}, exact {result.exact} with limit 2 for a puzzle with one solution; expected "
            "count 1, exact True (the search finished below the limit)",
            known.puzzle,
        )
    if result.solutions[0] != known.solution:
        subject.fail(f"returned {result.solutions[0].to_line()}, not the puzzle's one solution", known.puzzle)


@check("api")
def limit_2_finds_second(subject: Subject) -> None:
    """With limit 2 a puzzle with several solutions gives count 2, exact False and two distinct solutions."""
    subject.require_counting()
    _classic(subject)
    known = _multi(3)
    result = subject.answer(known.puzzle, limit=2)
    found = _solutions(subject, result, known.puzzle)
    if (result.count, result.exact) != (2, False):
        subject.fail(
            f"count {result.count}, exact {result.exact} with limit 2 for a puzzle with {known.count} solutions; "
            "expected count 2, exact False (the limit stopped the search)",
            known.puzzle,
        )
    if len(set(found)) != 2:
        subject.fail(f"{_solutions_text(len(set(found)))} with count 2; expected two distinct ones", known.puzzle)


@check("api")
def limit_n_counts_exactly(subject: Subject) -> None:
    """With a limit above a puzzle's count c, the count is c, exact True, with c distinct solutions."""
    subject.require_counting()
    _classic(subject)
    known = _multi(8)
    limit = known.count + 5
    result = subject.answer(known.puzzle, limit=limit)
    found = _solutions(subject, result, known.puzzle)
    if (result.count, result.exact, len(set(found))) != (known.count, True, known.count):
        subject.fail(
            f"count {result.count}, exact {result.exact}, {_solutions_text(len(set(found)))} with limit {limit} for "
            f"a puzzle with {known.count} solutions; expected count {known.count}, exact True and every solution",
            known.puzzle,
        )


@check("api")
def limit_at_count_stops_there(subject: Subject) -> None:
    """With a limit equal to a puzzle's count c, the count is c, with c distinct solutions; exact may be either.

    ``exact`` says that ``count`` is the true number of solutions, and strategy.py defines it as
    "the search finished below the limit". The rule here: ``exact`` must never claim what is not
    so, and need not claim what the engine did not look for. An engine stopped by the limit at the
    c-th solution has not searched for a (c+1)-th, so exact False is the expected answer (the
    built-in engines give it); exact True is accepted too, being true (the engine went on and
    proved there is no other). Where exact True would be false, below the count,
    ``limit_below_count_stops`` fails it.
    """
    subject.require_counting()
    _classic(subject)
    known = _multi(8)
    result = subject.answer(known.puzzle, limit=known.count)
    found = _solutions(subject, result, known.puzzle)
    if result.count != known.count or len(set(found)) != known.count:
        subject.fail(
            f"count {result.count} and {_solutions_text(len(set(found)))} with limit {known.count} for a puzzle with "
            f"{known.count} solutions; expected count {known.count} and every solution",
            known.puzzle,
        )


@check("api")
def limit_below_count_stops(subject: Subject) -> None:
    """With limit 3 on a puzzle with 10 or more solutions, count 3, exact False and three distinct solutions."""
    subject.require_counting()
    _classic(subject)
    known = _multi(10)
    result = subject.answer(known.puzzle, limit=3)
    found = _solutions(subject, result, known.puzzle)
    if (result.count, result.exact, len(set(found))) != (3, False, 3):
        subject.fail(
            f"count {result.count}, exact {result.exact}, {_solutions_text(len(set(found)))} with limit 3 for a "
            f"puzzle with {known.count} solutions; expected count 3, exact False (there are more), 3 solutions",
            known.puzzle,
        )


@check("api")
def keep_is_honoured(subject: Subject) -> None:
    """An engine whose ``solve`` takes ``keep`` returns the first ``keep`` solutions, still counting to the limit.

    Asked for limit 10 and keep 3 on a puzzle with more than 10 solutions: count 10, 3 solutions.
    An engine whose ``solve`` does not take ``keep`` is skipped: sudokit trims its solutions itself.
    """
    if not subject.takes_keep:
        subject.skip("its solve takes no keep (sudokit keeps the first solutions itself)")
    subject.require_counting()
    _classic(subject)
    known = _multi(11)
    result = subject.solve(known.puzzle, limit=10, keep=3)
    found = _solutions(subject, result, known.puzzle)
    if result.count != 10 or len(found) != 3:
        subject.fail(
            f"count {result.count} and {_solutions_text(len(found))} with limit 10, keep 3 for a puzzle with "
            f"{known.count} solutions; expected count 10 and 3 solutions",
            known.puzzle,
        )
    subject.consistent(result, known.puzzle, limit=10, keep=3)


# --- the solutions -------------------------------------------------------------------------------


@check("api")
def solutions_are_distinct(subject: Subject) -> None:
    """No solution is returned twice: limit 20 on a puzzle with more than 20 solutions gives 20 distinct ones."""
    subject.require_counting()
    _classic(subject)
    known = _multi(21)
    result = subject.solve(known.puzzle, limit=20)
    found = _solutions(subject, result, known.puzzle)
    first: dict[object, int] = {}
    for k, grid in enumerate(found, 1):
        key = grid.cells if isinstance(grid, Grid) else repr(grid)
        j = first.setdefault(key, k)
        if j != k:
            subject.fail(
                f"solutions {j} and {k} of {len(found)} are the same grid: each solution found is returned once",
                known.puzzle,
            )
    if result.count != 20 or len(found) != 20:
        subject.fail(
            f"count {result.count} and {_solutions_text(len(found))} with limit 20 for a puzzle with {known.count} "
            "solutions; expected 20 of each",
            known.puzzle,
        )
    subject.consistent(result, known.puzzle, limit=20)


def _every_solution(subject: Subject) -> list[tuple[Grid, tuple[Grid, ...]]]:
    """The puzzles the solution checks look at, each with the solutions the engine returned (one at least)."""
    asked = [(_unique(), 1)]
    if subject.capabilities.counting:
        several = _multi(3)
        asked.append((several, several.count + 2))
    answers = []
    for known, limit in asked:
        result = subject.solve(known.puzzle, limit=limit)
        found = _solutions(subject, result, known.puzzle)
        if not found:
            subject.fail(
                f"{_said(result)} and no solution, for a puzzle with {_solutions_text(known.count)}", known.puzzle
            )
        answers.append((known.puzzle, found))
    return answers


@check("api")
def solutions_solve_the_puzzle(subject: Subject) -> None:
    """Every solution is complete, every row, column and box a permutation of 1..n, every given kept."""
    _classic(subject)
    for puzzle, found in _every_solution(subject):
        for k, grid in enumerate(found, 1):
            problem = solution_problem(puzzle, grid)
            if problem is not None:
                subject.fail(f"solution {k} of {len(found)} does not solve the puzzle: {problem}", puzzle)


@check("api")
def solutions_have_puzzle_shape(subject: Subject) -> None:
    """Every solution is a Grid with the puzzle's box shape: 2x3 boxes stay 2x3, not 3x2 (nor 6x6's default)."""
    boards = [known for shape in (Shape.of(2, 3), Shape.of(3, 2), NINE) for known in corpus.of_shape(shape)[:1]]
    claimed = [known for known in boards if subject.capabilities.supports(known.puzzle.shape)]
    if not claimed:
        subject.skip("claims none of the boards with 2x3, 3x2 or 3x3 boxes")
    for known in claimed:
        puzzle = known.puzzle
        result = subject.solve(puzzle)
        found = _solutions(subject, result, puzzle)
        if not found:
            subject.fail(f"{_said(result)} and no solution, for a puzzle with one", puzzle)
        for k, grid in enumerate(found, 1):
            if not isinstance(grid, Grid):
                subject.fail(f"solution {k} of {len(found)} is {shown(grid)}, not a Grid", puzzle)
            if grid.shape != puzzle.shape or len(grid.cells) != puzzle.shape.size:
                subject.fail(
                    f"solution {k} of {len(found)} has {grid.shape} boxes and {len(grid.cells)} cells; the puzzle "
                    f"has {puzzle.shape} boxes and {puzzle.shape.size} cells",
                    puzzle,
                )


@check("api")
def keeps_every_given(subject: Subject) -> None:
    """Every solution keeps every given of the puzzle in its place (a relabelled solution is no solution)."""
    _classic(subject)
    for puzzle, found in _every_solution(subject):
        n = puzzle.shape.n
        for k, grid in enumerate(found, 1):
            if not isinstance(grid, Grid) or len(grid.cells) != len(puzzle.cells):
                subject.fail(f"solution {k} of {len(found)} is {shown(grid)}, not a grid of the puzzle's", puzzle)
            for i, (given, value) in enumerate(zip(puzzle.cells, grid.cells, strict=True)):
                if given and value != given:
                    subject.fail(
                        f"solution {k} of {len(found)}: row {i // n + 1}, column {i % n + 1}: the given {given} "
                        f"became {shown(value)}",
                        puzzle,
                    )


# --- the engine's conduct ------------------------------------------------------------------------


def _deep_copy(value: object) -> object:
    """Tuples (of tuples) as new lists: a copy an engine reaching into the originals cannot change."""
    if isinstance(value, tuple | list):
        return [_deep_copy(v) for v in value]
    return value


_SHAPE_TABLES = ("box_rows", "box_cols", "n", "size", "row_of", "col_of", "box_of", "rows", "cols", "boxes", "peers")


def _shape_tables(shape: Shape) -> dict[str, object]:
    return {name: _deep_copy(getattr(shape, name, None)) for name in _SHAPE_TABLES}


@check("api")
def does_not_mutate_puzzle(subject: Subject) -> None:
    """``solve`` leaves its puzzle (cells, shape, hash, text) and the shared Shape tables (peers, ...) as they were.

    Grids and Shapes are immutable to Python code, but an engine can still write into them
    (``object.__setattr__``, ctypes); one that does corrupts every later solve of the same puzzle or
    shape. Each solve gets a fresh copy of a corpus puzzle, compared before and after.
    """
    _classic(subject)
    asked = [(_unique(), 1), (_unsolvable(), 1)]
    if subject.capabilities.counting:
        asked.append((_multi(3), 2))
    for known, limit in asked:
        puzzle = _fresh(known.puzzle)
        shape = puzzle.shape
        cells, line, hashed, tables = list(puzzle.cells), puzzle.to_line(), hash(puzzle), _shape_tables(shape)
        subject.solve(puzzle, limit=limit)
        if list(puzzle.cells) != cells or puzzle.to_line() != line:
            subject.fail(f"solve changed the puzzle's cells: {line} became {puzzle.to_line()}", line)
        if puzzle.shape is not shape:
            subject.fail(f"solve changed the puzzle's shape from {shape} to {shown(puzzle.shape)}", line)
        if hash(puzzle) != hashed:
            subject.fail(f"solve changed the puzzle's hash from {hashed} to {hash(puzzle)}", line)
        after = _shape_tables(shape)
        for name in _SHAPE_TABLES:
            if after[name] != tables[name]:
                subject.fail(f"solve changed the shared Shape {shape}'s table {name}", line)


@check("api")
def pickles(subject: Subject) -> None:
    """The engine pickles, before and after a solve, and the copy answers like the original (engines run in workers)."""
    _classic(subject)
    known = _unique()
    for when in ("as given", "after a solve"):
        try:
            copy = pickle.loads(pickle.dumps(subject.strategy))
        except Exception as err:
            subject.fail(f"pickling the engine {when} failed: {described(err)} (engines run in worker processes)")
        ours = subject.answer(known.puzzle)
        theirs = Subject(copy, subject.check, patience=subject.patience).answer(known.puzzle)
        if (theirs.status, theirs.count, theirs.exact, tuple(theirs.solutions)) != (
            ours.status,
            ours.count,
            ours.exact,
            tuple(ours.solutions),
        ):
            subject.fail(
                f"the engine pickled {when} answers {_said(theirs)}, the original {_said(ours)}",
                known.puzzle,
            )


@check("api")
def repeated_solves_agree(subject: Subject) -> None:
    """Solving one puzzle three times gives the same status, count, exact and set of solutions each time.

    The question is one whose answer is fixed: every solution of a puzzle with a dozen or so (limit above
    the count), or the one solution of a unique puzzle for an engine that does not claim counting.
    """
    _classic(subject)
    if subject.capabilities.counting:
        known = _multi(10)
        limit = known.count + 10
    else:
        known, limit = _unique(), 1
    answers = []
    for _ in range(3):
        result = subject.answer(known.puzzle, limit=limit)
        answers.append((result, (result.status, result.count, result.exact, frozenset(result.solutions))))
    first, said = answers[0]
    for k, (result, answer) in enumerate(answers[1:], 2):
        if answer != said:
            same_set = answer[3] == said[3]
            subject.fail(
                f"solve {k} of 3 answered {_said(result)}, solve 1 {_said(first)}"
                + ("" if same_set else ", with other solutions")
                + f" (limit {limit}): the same question must get the same answer",
                known.puzzle,
            )


@check("api")
def no_state_between_puzzles(subject: Subject) -> None:
    """Solving a unique puzzle, an unsolvable one, a multi-solution one, then the first again, each is right.

    A deadline, a cache or a table left over from one puzzle must not change the answer to the next.
    """
    _classic(subject)
    counting = subject.capabilities.counting
    limit = 5 if counting else 1
    unique, none, several = _unique(), _unsolvable(), _multi(3)
    order = [
        (unique, "a unique puzzle"),
        (none, "an unsolvable puzzle, after a unique one"),
        (several, f"a puzzle with {several.count} solutions, after an unsolvable one"),
        (unique, "the unique puzzle again, after the others"),
    ]
    for k, (known, what) in enumerate(order, 1):
        result = subject.answer(known.puzzle, limit=limit)
        count = min(known.count, limit)
        exact = known.count < limit
        expected = (Status.SOLVED if known.count else Status.UNSOLVABLE, count)
        if (result.status, result.count) != expected or (counting and result.exact is not exact):
            want = f"status {expected[0].value}, count {count}" + (f", exact {exact}" if counting else "")
            subject.fail(f"solve {k} of 4 ({what}, limit {limit}): {_said(result)}; expected {want}", known.puzzle)
        if known.solution is not None and result.solutions[0] != known.solution:
            subject.fail(f"solve {k} of 4 ({what}): not the puzzle's one solution", known.puzzle)


# --- time limits every engine takes --------------------------------------------------------------


@check("api")
def no_time_limit_works(subject: Subject) -> None:
    """``time_limit=None`` (passed explicitly) means no limit: the engine solves."""
    _classic(subject)
    for known in (_unique(), _unsolvable()):
        subject.answer(known.puzzle, time_limit=None)


@check("api")
def huge_time_limit_works(subject: Subject) -> None:
    """Huge time limits (1e9 and 1e10 s) work: the engine solves, with no overflow in a timer or a wait."""
    _classic(subject)
    for seconds in (1e9, 1e10):
        subject.answer(_unique().puzzle, time_limit=seconds)
