"""``cp-sat``: Google OR-Tools' CP-SAT solver on the textbook integer model.

One integer variable per cell with domain 1..n (a given's domain is its digit alone) and one
``AllDifferent`` per row, column and box. The wrapper is kept thin on purpose: one variable call per
cell, one constraint call per unit, and the solution is read back as the solver's value vector
(cell ``i`` is variable ``i``), with no per-cell Python work after the solve.

* ``limit`` 1 is a plain solve, on ``workers`` search workers (1 by default: deterministic, and the
  fastest on boards this small).
* ``limit`` > 1 enumerates every solution and stops at the limit. CP-SAT enumerates correctly only
  on one worker (on more it can report a solution twice), so counting always uses one worker;
  ``stats["workers"]`` says how many were used. Only the first ``keep`` solutions are stored.
* ``time_limit`` of any size works (CP-SAT takes 1e10 s and infinity alike).
* Classic boards above 25x25 (``BIG_SIDE``) get a Boolean model built here instead, without CP-SAT's
  presolve: a boolean per open cell and digit that no given's peer excludes, exactly one per cell and
  per unit and missing digit. CP-SAT turned each AllDifferent of n cells into that same encoding
  itself, in C++ that never looks at the clock: on an empty 64x64 1.4 CPU s before its time limit
  could stop anything, and its presolve then ran on past the limit (2.2 s at ``-t 5`` on a loaded
  machine, when the watchdog killed it). Built here, the model is checked against the limit as it
  grows (0.5 CPU s for an empty 64x64); CP-SAT then takes 0.2 CPU s to load it, and an empty 36x36
  is solved in 1.8 CPU s instead of 7.5.
* ``candidates`` (the fast way to true candidates, ``sudokit.candidates``): rounds on one model, each
  asking for a solution that holds a candidate not yet seen (see the method); on the integer model
  for every board, so it is meant for boards up to 25x25 (27 ms a classic 9x9 against 800 ms through
  ``solve``, benchmarks/bench_candidates.py).

Ctrl-C (or a kill, or the core's watchdog) stops the search at once and its Python handler runs as
soon as the search returns, so Ctrl-C raises ``KeyboardInterrupt`` as in any Python code; see
``_solve``. A search stopped by its time limit is a timeout even when CP-SAT stops it a little early
(it stops when its longest step so far would overrun the limit: 0.18 s into 0.3 s on an empty 25x25).

Statistics are the solver's own: ``branches``, ``conflicts``, ``booleans`` and ``wall_time``.
On puzzles/top95.txt a solve takes about 4 ms, within 3% of a bare inline CP-SAT model; the 25x25
board of puzzles/sizes/box5x5.txt takes 3-5 s.

Variant puzzles (every kind of ``sudokit.variants`` and jigsaw) take a model of their own; a classic
puzzle never reaches it, so its path is the one above. The cells are still variables 0..size-1 (a
parity clue cuts a cell's domain) and every unit of ``puzzle.units`` (rows, columns, the regions,
irregular or not) is an AllDifferent. Each rule then adds:

* AllDifferent for extra regions, diagonals, disjoint groups, killer cages and renban lines;
* linear sums for killer and little killer totals and arrows (a two-cell circle is ``10*a + b``),
  each killer cell kept to the digits of the sets of different digits that make its total; with a killer
  total, every unit of n cells also sums to ``n(n+1)/2`` (redundant: the linear relaxation then finds
  the set-equivalence deductions, so "Solver needs SET" takes 0.6-1.0 s of CPU, not 4-5 s);
* ``<`` / ``<=`` chains for thermometers, ``<`` or ``>`` around minimum and maximum cells, ``==`` for
  palindromes and clones, ``!=`` on the anti-knight and anti-king pairs that a region does not already keep apart;
* the difference ``a - b`` in a domain for white dots, non-consecutive pairs and whisper neighbours
  (``|a - b| >= d``); the sum ``a + b`` for X and V, and in a domain for the XV negative rule;
* tables of allowed pairs for black dots and the kropki negative rule;
* given pencil marks: the cell's digit in a domain;
* quadruple: a boolean per cell and listed digit (the cell holds it), at least as many of them true as listed;
* renban: every digit inside a window ``low <= x <= low + len - 1`` (``low`` a variable);
* sandwich: reified booleans (a cell lies between the 1 and the n when an end is before it and
  another after it; its digit counts only then), and a redundant count of the cells between.

Every helper variable is a function of the cells, so an enumeration counts each grid once.

Those choices were measured (benchmarks/bench_cpsat_variants.py: generated 9x9 puzzles, 30 a rule,
solved with limit 2; mean ms per puzzle, the engine's choice first):
sandwich booleans + count 38 / booleans alone 44 / element constraints 312; killer with the sets'
digits 25 / AllDifferent + sum alone 34 / a table of orderings 46; kropki tables for black dots and
the negative rule 13.1 / reified booleans and linear != 16.4 / tables for white dots too 14.0;
XV negative as a sum domain 6.7 / table 10.1; renban window 27.6 / max - min 28.7; whisper
difference domain 11.7 / AddAbsEquality 12.1 / table 10.9 (0.99 and 1.09 of it on two more sets
of 60: a tie, the smaller model kept); non-consecutive difference domain 29.5 / table 25.8 (0.90
and 0.96 on two more sets of 60, but 275 and 427 ms against 214 and 229 on the corpus's two hard
non-consecutive puzzles).
"""

from __future__ import annotations

import math
import os
import signal
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import suppress
from functools import cache
from itertools import combinations, pairwise
from typing import Any

from ortools.sat.python import cp_model

from sudokit import (
    ALL_KINDS,
    Capabilities,
    Grid,
    OddEven,
    Result,
    Status,
    king_pairs,
    knight_pairs,
    orthogonal_pairs,
    undotted_pairs,
)

__all__ = ["BIG_SIDE", "CpSatStrategy"]

#: Classic boards above this side get the Boolean model (``_boolean_model``).
BIG_SIDE = 25

_FOUND = (cp_model.OPTIMAL, cp_model.FEASIBLE)
#: Signals that stop a search at once so that their Python handlers run: Ctrl-C, a kill, the core's watchdog.
_STOPPING = frozenset(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGALRM") if hasattr(signal, name))


class CpSatStrategy:
    """OR-Tools CP-SAT: integer cell variables, one AllDifferent per row, column and region, and every variant rule."""

    name = "cp-sat"
    description = "Google OR-Tools CP-SAT: integer cells, AllDifferent per row, column and box"
    #: Every board, counting and time limits: 25x25 in about 3.3 s; every variant kind and jigsaw.
    capabilities = Capabilities(constraints=ALL_KINDS)

    def __init__(self, workers: int = 1) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ValueError(f"workers must be a whole number of at least 1, not {workers!r}")
        self.workers = workers

    def __repr__(self) -> str:
        return f"CpSatStrategy(workers={self.workers})"

    def solve(
        self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> Result:
        """Count up to ``limit`` solutions of ``puzzle`` within ``time_limit`` seconds, keeping the first ``keep``."""
        start = time.perf_counter()
        shape = puzzle.shape
        n = shape.n
        model = cp_model.CpModel()
        decode = None
        if puzzle.is_classic and n > BIG_SIDE:
            deadline = math.inf if time_limit is None else start + time_limit
            try:
                decode = _boolean_model(model, puzzle, deadline)
            except _OutOfTime:
                return Result(Status.TIMEOUT, puzzle, self.name, elapsed=time.perf_counter() - start)
            if decode is None:  # the givens leave a cell, or a digit of a unit, without a place
                return Result(Status.UNSOLVABLE, puzzle, self.name, exact=True, elapsed=time.perf_counter() - start)
        elif puzzle.is_classic:
            _classic_model(model, puzzle)
        else:
            _variant_model(model, puzzle)

        solver = cp_model.CpSolver()
        params = solver.parameters
        params.num_workers = self.workers if limit == 1 else 1
        if decode is not None:
            params.cp_model_presolve = False
        if time_limit is not None:
            params.max_time_in_seconds = max(time_limit - (time.perf_counter() - start), 1e-3)
        if limit == 1:
            status = _solve(solver, model)
            if status not in _FOUND:
                found = []
            elif decode is None:
                found = [tuple(solver.response_proto.solution)[: shape.size]]
            else:
                found = [decode(solver.response_proto.solution)]
            count = len(found)
        else:
            params.enumerate_all_solutions = True
            collector = _Collector(limit, limit if keep is None else keep, shape.size, decode)
            status = _solve(solver, model, collector)
            found, count = collector.solutions, collector.count

        if status == cp_model.INFEASIBLE:
            outcome, exact = Status.UNSOLVABLE, True
        elif count and (status == cp_model.OPTIMAL or count == limit):
            # OPTIMAL after enumerating means the search finished; at the limit it was stopped on purpose.
            outcome, exact = Status.SOLVED, count < limit
        elif status in (cp_model.UNKNOWN, cp_model.FEASIBLE):
            if time_limit is None:  # stopped by a signal whose handler did not raise
                raise RuntimeError("the CP-SAT search was stopped by a signal before it answered")
            outcome, exact = Status.TIMEOUT, False  # the time limit stopped the search first
        else:
            raise RuntimeError(f"CP-SAT ended with status {status!r}")
        response = solver.response_proto
        return Result(
            status=outcome,
            puzzle=puzzle,
            strategy=self.name,
            solutions=tuple(Grid(values, shape, validate=False) for values in found),
            count=count,
            exact=exact,
            stats={
                "branches": response.num_branches,
                "conflicts": response.num_conflicts,
                "booleans": response.num_booleans,
                "wall_time": response.wall_time,
                "workers": params.num_workers,
            },
            elapsed=time.perf_counter() - start,
        )

    def candidates(self, puzzle: Grid, *, cap: int = 1, time_limit: float | None = None) -> Result:
        """True candidates: the witnesses of every (cell, digit) pair, found by rounds on one model.

        The puzzle's model gets a boolean for each blank cell and digit (the cell holds it or not).
        After a first solve, each round asks for a solution holding one of the booleans with fewer
        than ``cap`` witnesses (a clause of them all, enforced by that round's literal, assumed for the
        round and then fixed false); with ``cap`` > 1 each solution found is blocked. An infeasible round
        settles every pair left, so a puzzle with one solution takes two solves. ``solved``,
        ``unsolvable`` or ``timeout`` with the witnesses found so far.
        """
        start = time.perf_counter()
        shape = puzzle.shape
        n, size = shape.n, shape.size
        model = cp_model.CpModel()
        if puzzle.is_classic:
            cells = _classic_model(model, puzzle)
        else:
            _variant_model(model, puzzle)
            cells = [model.get_int_var_from_proto_index(i) for i in range(size)]
        holds: list[tuple[int, int, Any]] = []  # (cell, digit, its boolean)
        for i, v in enumerate(puzzle.cells):
            if v:
                continue
            for d in range(1, n + 1):
                b = model.new_bool_var("")
                model.add(cells[i] == d).only_enforce_if(b)
                model.add(cells[i] != d).only_enforce_if(~b)
                holds.append((i, d, b))
        held = [0] * len(holds)
        index = {(i, d): k for k, (i, d, _) in enumerate(holds)}
        found: list[tuple[int, ...]] = []
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = self.workers
        outcome, solves = Status.SOLVED, 0
        while True:
            model.clear_assumptions()
            if solves:
                wanted = [b for k, (_, _, b) in enumerate(holds) if held[k] < cap]
                if not wanted:
                    break
                act = model.new_bool_var("")
                model.add_bool_or(wanted).only_enforce_if(act)
                model.add_assumptions([act])
            if time_limit is not None:
                left = time_limit - (time.perf_counter() - start)
                if left <= 0:
                    outcome = Status.TIMEOUT
                    break
                solver.parameters.max_time_in_seconds = left
            solves += 1
            status = _solve(solver, model)
            if solves > 1:
                model.add_bool_or([~act])  # that round's clause, retired
            if status == cp_model.INFEASIBLE:
                if not found:
                    outcome = Status.UNSOLVABLE
                break
            if status not in _FOUND:
                if time_limit is None:
                    raise RuntimeError("the CP-SAT search was stopped by a signal before it answered")
                outcome = Status.TIMEOUT
                break
            solution = tuple(solver.response_proto.solution)[:size]
            found.append(solution)
            chosen = []
            for i, v in enumerate(puzzle.cells):
                if not v:
                    k = index[i, solution[i]]
                    held[k] += 1
                    chosen.append(holds[k][2])
            if cap > 1 and chosen:
                model.add_bool_or([~b for b in chosen])
            if not chosen:
                break  # no blank cell: the one solution is the puzzle itself
        return Result(
            status=outcome,
            puzzle=puzzle,
            strategy=self.name,
            solutions=tuple(Grid(values, shape, validate=False) for values in found),
            count=len(found),
            exact=outcome is Status.UNSOLVABLE,
            stats={"solves": solves, "booleans": len(holds)},
            elapsed=time.perf_counter() - start,
        )


def _classic_model(model: cp_model.CpModel, puzzle: Grid) -> list[cp_model.IntVar]:
    """The textbook model of a classic puzzle in ``model``: its cell variables (0..size-1), one AllDifferent a unit."""
    shape, n = puzzle.shape, puzzle.shape.n
    new_var = model.new_int_var
    cells = [new_var(v, v, "") if v else new_var(1, n, "") for v in puzzle.cells]
    for units in (shape.rows, shape.cols, shape.boxes):
        for unit in units:
            model.add_all_different([cells[i] for i in unit])
    return cells


# --- big boards -----------------------------------------------------------------------------------------


class _OutOfTime(Exception):
    """The time limit came while the Boolean model was being built."""


def _boolean_model(
    model: cp_model.CpModel, puzzle: Grid, deadline: float
) -> Callable[[Sequence[int]], tuple[int, ...]] | None:
    """A classic puzzle's Boolean model in ``model``; the function that reads a grid from the solver's values.

    None when the givens already rule a solution out (a digit twice in a unit, a cell or a unit's
    digit left without a place). Raises ``_OutOfTime`` past ``deadline`` (perf_counter seconds).
    """
    shape = puzzle.shape
    n = shape.n
    cells = puzzle.cells
    row_of, col_of, box_of = shape.row_of, shape.col_of, shape.box_of
    used = [0] * (3 * n)  # the digits the givens place in each row, column and box, as bit masks
    for i, v in enumerate(cells):
        if v:
            bit = 1 << (v - 1)
            r, c, b = row_of[i], n + col_of[i], 2 * n + box_of[i]
            if (used[r] | used[c] | used[b]) & bit:
                return None
            used[r] |= bit
            used[c] |= bit
            used[b] |= bit
    full = (1 << n) - 1
    # Written into the model's proto by index: 262,144 variable objects of an empty 64x64 took 1 CPU s to
    # make and 0.45 s to free, the proto's entries 0.5 s and nothing.
    places: list[list[int]] = [[] for _ in range(3 * n * n)]  # (unit, digit) -> its booleans
    where: list[tuple[int, int]] = []  # variable index -> (cell, digit)
    variables = model.proto.variables
    constraints = model.proto.constraints
    for i, v in enumerate(cells):
        if v:
            continue
        if not i % 64 and time.perf_counter() >= deadline:
            raise _OutOfTime
        r, c, b = row_of[i], n + col_of[i], 2 * n + box_of[i]
        free = full & ~(used[r] | used[c] | used[b])
        if not free:
            return None
        lits = []
        for d in range(n):
            if free >> d & 1:
                x = len(where)
                variables.add().domain.extend((0, 1))
                lits.append(x)
                where.append((i, d + 1))
                places[r * n + d].append(x)
                places[c * n + d].append(x)
                places[b * n + d].append(x)
        constraints.add().exactly_one.literals.extend(lits)
    for u in range(3 * n):
        if time.perf_counter() >= deadline:
            raise _OutOfTime
        missing = full & ~used[u]
        for d in range(n):
            if missing >> d & 1:
                if not places[u * n + d]:
                    return None
                constraints.add().exactly_one.literals.extend(places[u * n + d])
    givens = list(cells)

    def decode(values: Sequence[int]) -> tuple[int, ...]:
        grid = givens[:]
        for (i, d), value in zip(where, values, strict=False):
            if value:
                grid[i] = d
        return tuple(grid)

    return decode


# --- variant puzzles ------------------------------------------------------------------------------------
#: What every rule adder takes: the model, the cell variables (cell i is variable i), the rule, the puzzle.
_Adder = Callable[[cp_model.CpModel, list[cp_model.IntVar], Any, Grid], None]


def _variant_model(model: cp_model.CpModel, puzzle: Grid) -> None:
    """The cells as variables 0..size-1 (parity clues cut their domains), one AllDifferent per unit, then each rule.

    Every helper variable a rule adds is a function of the cells, so enumerating the model's
    solutions enumerates the puzzle's, each once.
    """
    n = puzzle.shape.n
    domains: list[Sequence[int]] = [(v,) if v else range(1, n + 1) for v in puzzle.cells]
    parity: dict[int, set[int]] = {}
    for rule in puzzle.constraints:
        if isinstance(rule, OddEven):
            i = rule.indexes(n)[0]
            digits = set(range(1 if rule.parity == "odd" else 2, n + 1, 2))
            parity[i] = parity.get(i, digits) & digits
    for i, digits in parity.items():
        allowed = sorted(digits.intersection(domains[i]))
        if not allowed:  # a parity clue against a given, or an odd and an even clue on one cell
            model.add_bool_or([])
        domains[i] = allowed or domains[i]
    new_var, from_values = model.new_int_var_from_domain, cp_model.Domain.from_values
    cells = [new_var(from_values(d), "") for d in domains]
    sums = any(rule.kind == "killer" and rule.total is not None for rule in puzzle.constraints)  # type: ignore[attr-defined]
    for unit in puzzle.units:
        model.add_all_different([cells[i] for i in unit])
        if sums and len(unit) == n:
            model.add(cp_model.LinearExpr.sum([cells[i] for i in unit]) == n * (n + 1) // 2)
    for rule in puzzle.constraints:
        _RULES[rule.kind](model, cells, rule, puzzle)


def _all_different(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    """An extra region: AllDifferent."""
    model.add_all_different([x[i] for i in rule.indexes(puzzle.shape.n)])


def _disjoint_groups(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    """AllDifferent on each group of cells in the same place of their boxes."""
    for group in rule.groups(puzzle.shape):
        model.add_all_different([x[i] for i in group])


def _diagonal(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    n = puzzle.shape.n
    model.add_all_different([x[r * n + c] for r, c in rule.diagonal_cells(n)])


def _killer(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    """AllDifferent and the sum; each cell kept to the digits of the sets that make the total (when few)."""
    n = puzzle.shape.n
    cage = [x[i] for i in rule.indexes(n)]
    model.add_all_different(cage)
    if rule.total is not None:
        model.add(cp_model.LinearExpr.sum(cage) == rule.total)
        digits = _cage_digits(n, len(cage), rule.total)
        if digits == ():
            model.add_bool_or([])  # no set of different digits makes the total
        elif digits is not None and len(digits) < n:
            allowed = cp_model.Domain.from_values(digits)
            for v in cage:
                model.add_linear_expression_in_domain(v, allowed)


@cache
def _cage_digits(n: int, size: int, total: int) -> tuple[int, ...] | None:
    """The digits 1..n in some set of ``size`` different digits summing to ``total``; None when too many to list."""
    if math.comb(n, size) > 20_000:
        return None
    return tuple(sorted({d for c in combinations(range(1, n + 1), size) if sum(c) == total for d in c}))


def _little_killer(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    model.add(cp_model.LinearExpr.sum([x[i] for i in rule.indexes(puzzle.shape.n)]) == rule.total)


def _arrow(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    """The arrow's sum equals the circle: ``a`` for one cell, ``10*a + b`` for two."""
    n = puzzle.shape.n
    circle = [x[r * n + c] for r, c in rule.circle]
    value = circle[0] if len(circle) == 1 else 10 * circle[0] + circle[1]
    model.add(cp_model.LinearExpr.sum([x[r * n + c] for r, c in rule.cells]) == value)


def _thermometer(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    line = [x[i] for i in rule.indexes(puzzle.shape.n)]
    for a, b in pairwise(line):
        model.add(a < b)


def _slow_thermometer(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    line = [x[i] for i in rule.indexes(puzzle.shape.n)]
    for a, b in pairwise(line):
        model.add(a <= b)


def _palindrome(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    line = [x[i] for i in rule.indexes(puzzle.shape.n)]
    for k in range(len(line) // 2):
        model.add(line[k] == line[-1 - k])


def _quadruple(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    """Each listed digit: at least as many of the four cells hold it (a boolean per cell, ``x == d`` both ways)."""
    square = [x[i] for i in rule.indexes(puzzle.shape.n)]
    for d in set(rule.digits):
        holds = []
        for v in square:
            b = model.new_bool_var("")
            model.add(v == d).only_enforce_if(b)
            model.add(v != d).only_enforce_if(~b)
            holds.append(b)
        model.add(cp_model.LinearExpr.sum(holds) >= rule.digits.count(d))


def _pencil_marks(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    """The cell's digit in the listed ones."""
    (i,) = rule.indexes(puzzle.shape.n)
    model.add_linear_expression_in_domain(x[i], cp_model.Domain.from_values(rule.digits))


def _min_max(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    """``<`` (``>``) between the cell and each orthogonal neighbour (but other minimum (maximum) cells)."""
    n = puzzle.shape.n
    (i,) = rule.indexes(n)
    for r, c in rule.compared(puzzle):
        model.add(x[i] < x[r * n + c] if rule.extreme == "minimum" else x[i] > x[r * n + c])


def _clone(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    for a, b in rule.pairs(puzzle.shape.n):
        model.add(x[a] == x[b])


def _between_line(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    """``low`` and ``high`` the ends' least and greatest (functions of the cells); each cell between above and below."""
    n = puzzle.shape.n
    line = [x[i] for i in rule.indexes(n)]
    low, high = model.new_int_var(1, n, ""), model.new_int_var(1, n, "")
    model.add_min_equality(low, [line[0], line[-1]])
    model.add_max_equality(high, [line[0], line[-1]])
    for v in line[1:-1]:
        model.add(v > low)
        model.add(v < high)


def _region_sum_line(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    """Each segment after the first sums to what the first does."""
    n = puzzle.shape.n
    first, *others = [[x[r * n + c] for r, c in segment] for segment in rule.segments(puzzle)]
    for segment in others:
        model.add(cp_model.LinearExpr.sum(segment) == cp_model.LinearExpr.sum(first))


def _groups_apart(grouping: str) -> _Adder:
    """Entropic and modular lines: cells one or two apart along the line hold digits of different groups (a table
    of allowed pairs)."""

    def add(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
        n = puzzle.shape.n
        line = [x[i] for i in rule.indexes(n)]
        table = _group_table(n, grouping)
        for k in range(len(line) - 1):
            for b in line[k + 1 : k + 3]:
                model.add_allowed_assignments([line[k], b], table)

    return add


@cache
def _group_table(n: int, grouping: str) -> list[tuple[int, int]]:
    """The digit pairs 1..n in different groups: the thirds of 1..n, or the residues mod 3."""

    def group(d: int) -> int:
        return (d - 1) * 3 // n if grouping == "third" else d % 3

    return [(a, b) for a in range(1, n + 1) for b in range(1, n + 1) if group(a) != group(b)]


def _zipper_line(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    """Each pair the same distance from the centre sums to the centre cell (odd length) or to the outermost pair."""
    n = puzzle.shape.n
    pairs, centre = rule.zips()
    sums = [x[a[0] * n + a[1]] + x[b[0] * n + b[1]] for a, b in pairs]
    total = x[centre[0][0] * n + centre[0][1]] if centre else sums[0]
    for s in sums if centre else sums[1:]:
        model.add(s == total)


def _lockout_line(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    """``low`` and ``high`` the ends' least and greatest, ``difference`` apart; each cell between below ``low`` or
    above ``high`` (a boolean says which: a function of the cells)."""
    n = puzzle.shape.n
    line = [x[i] for i in rule.indexes(n)]
    low, high = model.new_int_var(1, n, ""), model.new_int_var(1, n, "")
    model.add_min_equality(low, [line[0], line[-1]])
    model.add_max_equality(high, [line[0], line[-1]])
    model.add(high - low >= rule.difference)
    for v in line[1:-1]:
        below = model.new_bool_var("")
        model.add(v < low).only_enforce_if(below)
        model.add(v > high).only_enforce_if(~below)


def _nabner_line(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    """Every two cells of the line differ by 2 or more."""
    n = puzzle.shape.n
    allowed = _differences(n, lambda d: abs(d) >= 2)
    for a, b in combinations(rule.indexes(n), 2):
        _difference_in(model, x[a], x[b], allowed)


def _double_arrow(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    line = [x[i] for i in rule.indexes(puzzle.shape.n)]
    model.add(cp_model.LinearExpr.sum(line[1:-1]) == line[0] + line[-1])


def _renban(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    """AllDifferent, and every digit within ``low .. low + len - 1`` (``low`` is then the smallest digit)."""
    line = [x[i] for i in rule.indexes(puzzle.shape.n)]
    model.add_all_different(line)
    low = model.new_int_var(1, puzzle.shape.n - len(line) + 1, "")
    for v in line:
        model.add(v >= low)
        model.add(v <= low + len(line) - 1)


def _unequal_pairs(pairs: Callable[[int], tuple[tuple[int, int], ...]]) -> _Adder:
    """Anti-knight, anti-king: ``!=`` on each pair that its region does not already keep apart."""

    def add(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
        region_of = puzzle.region_of
        for a, b in pairs(puzzle.shape.n):
            if region_of[a] != region_of[b]:
                model.add(x[a] != x[b])

    return add


def _difference_in(model: cp_model.CpModel, a: cp_model.IntVar, b: cp_model.IntVar, differences: list[int]) -> None:
    model.add_linear_expression_in_domain(a - b, cp_model.Domain.from_values(differences))


def _differences(n: int, ok: Callable[[int], bool]) -> list[int]:
    """The differences ``a - b`` of two digits 1..n that ``ok`` allows."""
    return [d for d in range(1 - n, n) if ok(d)]


def _non_consecutive(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    n = puzzle.shape.n
    allowed = _differences(n, lambda d: abs(d) > 1)
    for a, b in orthogonal_pairs(n):
        _difference_in(model, x[a], x[b], allowed)


def _whisper(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    n = puzzle.shape.n
    allowed = _differences(n, lambda d: abs(d) >= rule.difference)
    line = rule.indexes(n)
    for a, b in pairwise(line):
        if allowed:
            _difference_in(model, x[a], x[b], allowed)
        else:
            model.add_bool_or([])  # no two digits 1..n differ that much


def _kropki(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    n = puzzle.shape.n
    a, b = rule.indexes(n)
    k = rule.amount  # the difference of a white dot, the ratio of a black one
    if rule.color == "white":
        _difference_in(model, x[a], x[b], [-k, k])
    else:
        model.add_allowed_assignments([x[a], x[b]], _ratio_table(n, k))


def _kropki_negative(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    n = puzzle.shape.n
    table = _table(n, "no-dot")
    if rule.color is not None:  # one colour's rule alone: its own pairs and relation
        allowed = [(a, b) for a in range(1, n + 1) for b in range(1, n + 1) if rule.holds(a, b)]
        for a, b in rule.pairs(puzzle):
            model.add_allowed_assignments([x[a], x[b]], allowed)
        return
    for a, b in undotted_pairs(puzzle, "kropki"):
        model.add_allowed_assignments([x[a], x[b]], table)


def _xv(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    a, b = rule.indexes(puzzle.shape.n)
    model.add(x[a] + x[b] == rule.total)


def _xv_negative(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    n = puzzle.shape.n
    sums = cp_model.Domain.from_values([s for s in range(2, 2 * n + 1) if s not in (5, 10)])
    for a, b in undotted_pairs(puzzle, "xv"):
        model.add_linear_expression_in_domain(x[a] + x[b], sums)


_PAIR_RULES: dict[str, Callable[[int, int], bool]] = {
    "no-dot": lambda a, b: a != b and abs(a - b) != 1 and a != 2 * b and b != 2 * a,
}


@cache
def _ratio_table(n: int, k: int) -> list[tuple[int, int]]:
    """The digit pairs 1..n one of which is ``k`` times the other."""
    return [(a, b) for a in range(1, n + 1) for b in range(1, n + 1) if a == k * b or b == k * a]


@cache
def _table(n: int, name: str) -> list[tuple[int, int]]:
    """The digit pairs 1..n that the pair rule ``name`` allows."""
    ok = _PAIR_RULES[name]
    return [(a, b) for a in range(1, n + 1) for b in range(1, n + 1) if ok(a, b)]


def _sandwich(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    """Reified booleans: ``end[k]`` (cell k holds 1 or n), prefix/suffix ORs of them, ``inside[k]`` their AND.

    A cell is strictly between the 1 and the n exactly when an end lies before it and another after
    it (two ends only, so it is not an end itself); ``part[k]`` is its digit when inside, else 0.
    A redundant constraint says how many cells can lie between: the sizes of the sets of different
    digits 2..n-1 with the total as sum (it halves the search of some puzzles).
    """
    n = puzzle.shape.n
    line = [x[r * n + c] for r, c in rule.line_cells(n)]
    ends, middle = cp_model.Domain.from_values([1, n]), cp_model.Domain(2, n - 1)
    end = []
    for v in line:
        e = model.new_bool_var("")
        model.add_linear_expression_in_domain(v, ends).only_enforce_if(e)
        model.add_linear_expression_in_domain(v, middle).only_enforce_if(~e)
        end.append(e)
    before = _running_or(model, end)  # before[k]: an end at k or earlier
    after = _running_or(model, end[::-1])[::-1]  # after[k]: an end at k or later
    part_digits = cp_model.Domain.from_values([0, *range(2, n)])
    insides, parts = [], []
    for k in range(1, n - 1):
        inside = model.new_bool_var("")
        model.add_bool_and([before[k - 1], after[k + 1]]).only_enforce_if(inside)
        model.add_bool_or([~before[k - 1], ~after[k + 1], inside])
        part = model.new_int_var_from_domain(part_digits, "")
        model.add(part == line[k]).only_enforce_if(inside)
        model.add(part == 0).only_enforce_if(~inside)
        insides.append(inside)
        parts.append(part)
    model.add(cp_model.LinearExpr.sum(parts) == rule.total)
    sizes = _sandwich_sizes(n, rule.total)
    if sizes:
        model.add_linear_expression_in_domain(cp_model.LinearExpr.sum(insides), cp_model.Domain.from_values(sizes))
    else:
        model.add_bool_or([])  # no set of digits 2..n-1 sums to the total


def _x_sum(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    """A boolean per digit X of the first cell: when it holds X, the first X cells sum to the total."""
    n = puzzle.shape.n
    line = [x[r * n + c] for r, c in rule.line_cells(n)]
    for k in range(1, n + 1):
        first = model.new_bool_var("")
        model.add(line[0] == k).only_enforce_if(first)
        model.add(line[0] != k).only_enforce_if(~first)
        model.add(cp_model.LinearExpr.sum(line[:k]) == rule.total).only_enforce_if(first)


def _skyscraper(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    """The running maximum along the line from the clue; a cell is seen when it is above the maximum before it."""
    n = puzzle.shape.n
    line = [x[r * n + c] for r, c in rule.line_cells(n)]
    tallest = line[0]
    seen = []
    for v in line[1:]:
        up = model.new_bool_var("")
        model.add(v > tallest).only_enforce_if(up)
        model.add(v < tallest).only_enforce_if(~up)  # a row's or column's digits differ
        seen.append(up)
        higher = model.new_int_var(1, n, "")
        model.add_max_equality(higher, [tallest, v])
        tallest = higher
    model.add(cp_model.LinearExpr.sum(seen) == rule.count - 1)  # the first cell is always seen


def _indexer(model: cp_model.CpModel, x: list[cp_model.IntVar], rule: Any, puzzle: Grid) -> None:
    """A reified boolean per indexer cell and digit: when the cell holds the digit, its target holds the value."""
    for i, d, target, value in rule.links(puzzle):
        holds = model.new_bool_var("")
        model.add(x[i] == d).only_enforce_if(holds)
        model.add(x[i] != d).only_enforce_if(~holds)
        model.add(x[target] == value).only_enforce_if(holds)


@cache
def _sandwich_sizes(n: int, total: int) -> list[int]:
    """How many different digits of 2..n-1 can sum to ``total``."""
    reach = [{0}] + [set() for _ in range(n - 2)]  # reach[k]: the sums of k different digits seen so far
    for d in range(2, n):
        for k in range(n - 2, 0, -1):
            reach[k] |= {s + d for s in reach[k - 1] if s + d <= total}
    return [k for k, sums in enumerate(reach) if total in sums]


def _running_or(model: cp_model.CpModel, literals: list[Any]) -> list[Any]:
    """``out[k]`` == literals[0] or ... or literals[k], each a new boolean (the first is literals[0] itself)."""
    out = [literals[0]]
    for lit in literals[1:]:
        prev = out[-1]
        now = model.new_bool_var("")
        model.add_bool_or([~now, prev, lit])
        model.add_implication(prev, now)
        model.add_implication(lit, now)
        out.append(now)
    return out


#: The adder of each rule kind (parity clues are cell domains, set before the rules).
_RULES: dict[str, _Adder] = {
    "extra-region": _all_different,
    "diagonal": _diagonal,
    "anti-knight": _unequal_pairs(knight_pairs),
    "anti-king": _unequal_pairs(king_pairs),
    "non-consecutive": _non_consecutive,
    "killer": _killer,
    "little-killer": _little_killer,
    "sandwich": _sandwich,
    "x-sum": _x_sum,
    "skyscraper": _skyscraper,
    "indexer": _indexer,
    "thermometer": _thermometer,
    "slow-thermometer": _slow_thermometer,
    "arrow": _arrow,
    "kropki": _kropki,
    "kropki-negative": _kropki_negative,
    "xv": _xv,
    "xv-negative": _xv_negative,
    "odd-even": lambda model, x, rule, puzzle: None,
    "renban": _renban,
    "whisper": _whisper,
    "palindrome": _palindrome,
    "quadruple": _quadruple,
    "pencil-marks": _pencil_marks,
    "min-max": _min_max,
    "disjoint-groups": _disjoint_groups,
    "clone": _clone,
    "between-line": _between_line,
    "region-sum-line": _region_sum_line,
    "entropic-line": _groups_apart("third"),
    "modular-line": _groups_apart("residue"),
    "zipper-line": _zipper_line,
    "lockout-line": _lockout_line,
    "nabner-line": _nabner_line,
    "double-arrow": _double_arrow,
}


def _solve(
    solver: cp_model.CpSolver, model: cp_model.CpModel, callback: _Collector | None = None
) -> cp_model.CpSolverStatus:
    """``solver.solve(model, callback)``, stopped at once by Ctrl-C, a kill or the core's watchdog.

    While the compiled search runs, Python only notes a signal; its handler runs when the search
    returns. The watcher thread, woken through the signal wakeup fd, stops the search at once, so
    Ctrl-C raises ``KeyboardInterrupt`` now rather than at the time limit. CP-SAT's own Ctrl-C
    handling is off: it swallows the signal, which made the stop look like a timeout. Where Python
    takes no signals (a thread other than the main one) or off POSIX, the search runs to its limit.
    """
    solver.parameters.catch_sigint_signal = False
    if os.name != "posix" or threading.current_thread() is not threading.main_thread():
        return solver.solve(model, callback)
    watcher = _watcher()
    previous = signal.set_wakeup_fd(watcher.write, warn_on_full_buffer=False)
    watcher.solver, watcher.forward = solver, previous
    try:
        return solver.solve(model, callback)
    finally:
        watcher.solver = None
        signal.set_wakeup_fd(previous)


class _Watcher:
    """A thread that stops the main thread's search when a stopping signal arrives.

    One per process, started on first use (a thread per solve cost 10 % of a 9x9 solve); it sleeps
    on the pipe that Python's signal handler writes each signal's number to while a search runs.
    """

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.read, self.write = os.pipe()
        os.set_blocking(self.write, False)
        self.solver: cp_model.CpSolver | None = None
        self.forward = -1  # the wakeup fd set before ours (asyncio's, say): it gets every signal too
        threading.Thread(target=self._run, name="cp-sat signal watcher", daemon=True).start()

    def _run(self) -> None:
        while signals := os.read(self.read, 512):
            forward, solver = self.forward, self.solver
            if forward != -1:
                with suppress(OSError):
                    os.write(forward, signals)
            if solver is not None and not _STOPPING.isdisjoint(signals):
                solver.stop_search()


_watchers: list[_Watcher] = []


def _watcher() -> _Watcher:
    """This process's watcher (a forked child has a copy of its parent's, without the thread)."""
    if not _watchers or _watchers[0].pid != os.getpid():
        _watchers[:] = [_Watcher()]
    return _watchers[0]


class _Collector(cp_model.CpSolverSolutionCallback):
    """Counts the solutions, keeps the value vectors of the first ``keep``, and stops the search at the limit."""

    def __init__(
        self, limit: int, keep: int, size: int, decode: Callable[[Sequence[int]], tuple[int, ...]] | None = None
    ) -> None:
        super().__init__()
        self.limit = limit
        self.keep = keep
        self.size = size  # the cells are the first variables; a variant model has more after them
        self.decode = decode  # the grid of a Boolean model's values (None: the cells are the first variables)
        self.count = 0
        self.solutions: list[tuple[int, ...]] = []

    def on_solution_callback(self) -> None:
        self.count += 1
        if self.count <= self.keep:
            if self.decode is not None:
                self.solutions.append(self.decode(self.response_proto.solution))
            else:
                self.solutions.append(tuple(self.response_proto.solution)[: self.size])
        if self.count >= self.limit:
            self.stop_search()
