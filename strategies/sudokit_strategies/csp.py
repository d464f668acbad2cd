"""``python-constraint``: Sudoku as a CSP on python-constraint2 (the maintained, compiled fork).

The model: one variable per cell left open, and the all-different of every row, column and box as one
constraint that propagates (_Propagator). Before the search the givens are propagated to a fixed point
(_Board.settle: naked and hidden singles, and locked candidates, a digit confined to one line of a box or
one box of a line); the cells that decides are filled in, the others keep the digits left as their
domains, and a contradiction there is ``unsolvable`` without a search. In the search, after each
assignment, the constraint propagates the digit to a fixed point (naked and hidden singles, through every
unit, not only the assigned cell's) and hides what it rules out from the domains the solver pushed, so a
forced cell costs no branching: the solver, taking the variable with the fewest values first, assigns it
next. The library's own ``AllDifferentConstraint`` hides the assigned digit from the cell's units only.

Measured (benchmarks/bench_csp.py against the engine before this model, same run, 2-core shared
machine; first solution, mean ms a puzzle, ``Result.elapsed``)::

    top95 (95 hard 9x9)            599 (before) -> 7.4       81x; max 9,985 -> 48 ms
    box4x4.txt (five 16x16)        none in 120 s before -> 4.3, 0.27, 0.14, 2.0, 0.45 s
    box5x5.txt (25x25)             not in 60 s, nor 90 s with the optimized or recursive solver

Steps on the way (search alone): on top95's first 20, the library's all-different 19.8 s in all, an
all-different per unit that also places the unit's hidden singles 1.3 s (16x16: 8-51 s each), those
chained through the units to a fixed point 0.56 s (16x16: 1.5-26 s); the board-wide propagation here,
with locked candidates at the root, all 95 of top95 in 0.57 s (16x16: 0.2-5.4 s). Locked candidates
after every assignment too halve the nodes but double the time (9x9 and 16x16). So 16x16 is declared
(max_side) and 25x25 is not: singles and cell-by-cell branching do not reach it in minutes.

From 16x16 up the all-different infers more (``inference="auto"``; option ``singles|pairs|places``), at
the root and after each assignment: locked candidates, then failed literals (_Board.probe): each digit of
every two-digit cell is tried with its singles on a copy; one that fails leaves the cell, and what both
rule out leaves the board. From 25x25 up the two places of a digit in a unit are probed the same way.
Measured (this machine, first solution, in a worker, 60 s limit; benchmarks/bench_csp.py --base cff8310)::

    box4x4.txt (five 16x16)   singles 3.88, 0.33, 0.17, 2.08, 0.42 s -> pairs 0.59, 0.16, 0.16, 0.31, 0.08 s
    box5x5.txt (five 25x25)   singles none in 40 s -> places: the first none in 60 s (cp-sat 4.8 s; backtrack
                              none either), the others 1.7, 0.55, 3.0, 2.0 s (pairs: 4.5-27 s, one not in 40 s)
    box6x6.txt (two 36x36)    0.17, 0.05 s (the root's probing decides every cell)
    top95                     singles as before (search alone 0.47 s in all, before 0.51); probing there
                              is a little quicker still (0.20 s against 0.27) but 9x9 keeps the old search

Branching on a digit's places (option ``branching=places``: a variable per unit and digit, whose values
are the cells that may hold it, channelled with the cells in _Propagator so that each grid is found once)
does not pay: the solver takes the fewest values first, a two-digit cell is always there to tie with a
two-place digit, and the extra variables cost at every node. Cells first on ties: the same nodes as
without, 16x16 8x slower (4x4 #1 42 s against 5.3); places first: 10-15x the nodes (the third: 59 s against 0.23).
So it is off by default; the probing of two places above is where a digit's places pay.

The solver is chosen by name, ``backtracking`` by default (the fewest values first, at each node; the
variant model relies on it). With this model ``optimized`` (an order fixed once, by the root's domains)
is quicker on classic boards (top95 4.1 ms a puzzle against 6.1; the five 16x16 0.1-4.1 s against
0.3-5.3); ``recursive`` ties on top95 and varies on 16x16 (0.1-8.2 s). ``backtracking`` stays the
default for the variants' sake.

Every search runs in a worker process (a child ``python``) that streams each solution back as it is
found. Not in this process, because the compiled search never returns to the interpreter between
solutions: while it runs, Ctrl-C goes unseen and every other thread of the process stalls (a timer
thread did not fire once in 20 s of search). At the time limit the worker is killed and the
solutions received so far are reported with status ``timeout``. Only the first ``keep`` solutions
travel back; after them the worker sends the count every 0.1 s, so counting takes no memory here. A
worker that answers in time is kept for the next puzzle, so only the first puzzle and the first
after a timeout pay for starting one (about 70 ms, 0.1-1.2 s on a loaded machine; ``stats``:
``workers_started`` 1, and ``worker_start`` the seconds spent on it); reusing one costs about 0.1-0.2 ms a puzzle, and
a timed-out call returns within a few ms of its limit. Threads may solve at once: each takes a
worker of its own. No worker outlives its use: an idle one ends with its input (when this process
ends, or at exit), a busy one ends itself 5 s past its time limit should no one kill it, and on
Linux one started from the main thread is killed by the kernel when this process dies.
"""

from __future__ import annotations

import atexit
import ctypes
import math
import os
import pickle
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from functools import cache, partial
from itertools import combinations, pairwise
from typing import Any, NamedTuple

import constraint

from sudokit import (
    ALL_KINDS,
    Capabilities,
    Constraint,
    Grid,
    Result,
    Shape,
    Status,
    king_pairs,
    knight_pairs,
    orthogonal_pairs,
    undotted_pairs,
)

__all__ = ["BRANCHING", "INFERENCE", "SOLVERS", "ConstraintStrategy", "stop_workers"]

#: The solvers of python-constraint2 that can enumerate solutions lazily, by option name.
SOLVERS: dict[str, type[constraint.Solver]] = {
    "backtracking": constraint.BacktrackingSolver,
    "recursive": constraint.RecursiveBacktrackingSolver,
    "optimized": constraint.OptimizedBacktrackingSolver,
}

#: What the search may branch on (``branching`` option): ``cells`` (a cell's digits: the default), or
#: ``places`` (also a digit's places in a unit, as variables of their own; measured slower, see above).
BRANCHING = ("cells", "places")
#: How much the all-different infers (``inference`` option, see _Board): ``singles``, ``pairs`` (also
#: locked candidates and failed literals of two-digit cells), ``places`` (also of a digit's two places in a
#: unit); ``auto`` picks by the board's side: _INFERENCE_BY_SIDE[side] for the first side listed at or above it.
INFERENCE = ("auto", "singles", "pairs", "places")
_LEVELS = {"singles": 0, "pairs": 1, "places": 2}
_INFERENCE_BY_SIDE = ((12, 0), (16, 1), (10**9, 2))

_FAILSAFE = 5.0  # a worker left running this long past its time limit ends itself
_LONGEST_ALARM = 1e9  # seconds (about 31 years): setitimer refuses 1e10
_LONGEST_WAIT = 3600.0  # seconds one wait for a message may take (a queue's timeout has a ceiling, ~9.2e9 s)
_COUNT_EVERY = 0.1  # seconds between the counts a worker sends once it has sent the solutions to keep
_PR_SET_PDEATHSIG = 1  # Linux prctl: the signal a process gets when its parent ends

# What one search needs, all plain data (it travels to the worker by pickle). A classic puzzle's model is a
# _ClassicModel. A variant puzzle's is a tuple (cells, variables, groups, rules, weights): groups are (blanks,
# digits) of cells that hold different digits (digits: those a whole row, column or region must hold, else
# None), rules are _Rule, weights say how many of the puzzle's clues each variable is in (the search order:
# _level_degrees).
_Model = tuple[Any, ...]


class _ClassicModel(NamedTuple):
    """A classic puzzle after the root's propagation (see _Board.settle and _Board.probe)."""

    cells: tuple[int, ...]  # the givens, and the digits the propagation decided; 0 where still open
    variables: list[tuple[int, list[int]]]  # (cell, digits) per cell left open
    units: list[tuple[int, ...]]  # the open cells of each unit that has two or more
    shape: Shape
    places: bool  # search on digits' places too (branching=places)
    level: int  # the inference after each placement: 0 singles, 1 pairs, 2 places


# A variant rule, and the constraint the worker makes of it (_library_constraint):
#   ("pair", a, b, table)                        FunctionConstraint of _in_table: (digit a, digit b) is in table
#   ("sum", blanks, multipliers or None, total)  _Sum: the sum of multiplier * digit is total
#   ("layouts", blanks, masks)                   _Layouts: the digits fit one layout (a digit bit mask per blank)
#   ("skyscraper", blanks, line, count)          _Skyscraper: count digits seen along line (its givens, 0: a blank)
_Rule = tuple[Any, ...]


class ConstraintStrategy:
    """A python-constraint2 CSP: the open cells, and a propagating all-different of every unit."""

    name = "python-constraint"
    #: The default solver's description (what ``sudoku strategies`` reads without loading the engine).
    description = "python-constraint2 CSP (backtracking solver): open cells, all-different units with singles"
    #: Boards up to 36x36 (see above: the first 25x25 of puzzles/sizes is not solved in 60 s); every variant.
    capabilities = Capabilities(max_side=36, constraints=ALL_KINDS)

    def __init__(self, solver: str = "backtracking", branching: str = "cells", inference: str = "auto") -> None:
        if solver not in SOLVERS:
            raise ValueError(f"unknown solver {solver!r}: choose {', '.join(SOLVERS)}")
        if branching not in BRANCHING:
            raise ValueError(f"unknown branching {branching!r}: choose {', '.join(BRANCHING)}")
        if inference not in INFERENCE:
            raise ValueError(f"unknown inference {inference!r}: choose {', '.join(INFERENCE)}")
        self.solver = solver
        self.branching = branching
        self.inference = inference
        self.description = f"python-constraint2 CSP ({solver} solver): open cells, all-different units with singles"

    def __repr__(self) -> str:
        return f"ConstraintStrategy(solver={self.solver!r}, branching={self.branching!r}, inference={self.inference!r})"

    def level(self, n: int) -> int:
        """The inference on an ``n`` x ``n`` classic board: 0 singles, 1 pairs, 2 places (see ``INFERENCE``)."""
        if self.inference != "auto":
            return _LEVELS[self.inference]
        return next(level for side, level in _INFERENCE_BY_SIDE if n <= side)

    def solve(
        self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> Result:
        """Count up to ``limit`` solutions of ``puzzle`` within ``time_limit`` seconds in a worker, keeping ``keep``."""
        start = time.perf_counter()
        model = _model(puzzle, places=self.branching == "places", level=self.level(puzzle.n))
        stats: dict[str, int | float] = {"variables": 0, "constraints": 0}
        if model is None:  # a blank with no digit left, or clashing givens
            return Result(Status.UNSOLVABLE, puzzle, self.name, exact=True, stats=stats, elapsed=_since(start))
        stats["variables"] = len(model[1])  # the cells left open (by the root propagation, on a classic board)
        stats["constraints"] = len(model[2]) + (0 if isinstance(model, _ClassicModel) else len(model[3]))  # +rules
        keep = limit if keep is None else keep
        if time_limit is None:
            run = _run_in_worker(model, self.solver, (limit, keep), deadline=None, failsafe=0.0)
        else:
            failsafe = min(time_limit + _FAILSAFE, _LONGEST_ALARM)
            run = _run_in_worker(model, self.solver, (limit, keep), start + time_limit, failsafe)
        stats["search_time"] = run.search_time
        stats["worker_start"] = run.worker_start
        stats["workers_started"] = run.workers_started
        status = Status.TIMEOUT
        if run.finished:
            status = Status.SOLVED if run.solutions else Status.UNSOLVABLE
        return Result(
            status=status,
            puzzle=puzzle,
            strategy=self.name,
            solutions=tuple(Grid(cells, puzzle.shape, validate=False) for cells in run.solutions),
            count=run.count,
            exact=run.finished and run.exhausted,
            stats=stats,
            elapsed=_since(start),
        )


def _since(start: float) -> float:
    return time.perf_counter() - start


def _model(puzzle: Grid, *, places: bool = False, level: int = 0) -> _Model | None:
    """The CSP after propagation at the root (see _Board.settle); None when it proves the puzzle unsolvable.

    A classic puzzle's is a _ClassicModel; a variant puzzle's comes from _variant_model.
    """
    if not puzzle.is_classic:
        return _variant_model(puzzle)
    shape, cells = puzzle.shape, puzzle.cells
    for unit in shape.units:
        mask = 0
        for i in unit:
            if cells[i]:
                bit = 1 << cells[i]
                if mask & bit:
                    return None  # two equal givens in one unit
                mask |= bit
    board = _board(shape)
    masks = board.settle(cells)
    if masks is None or (level and not board.probe(masks, set(), locked=True, places=level > 1)):
        return None
    fixed = tuple(0 if m & (m - 1) else m.bit_length() - 1 for m in masks)
    variables = [(i, [d for d in range(1, shape.n + 1) if m >> d & 1]) for i, m in enumerate(masks) if m & (m - 1)]
    units = [blanks for unit in shape.units if len(blanks := tuple(i for i in unit if not fixed[i])) > 1]
    return _ClassicModel(fixed, variables, units, shape, places, level)


@cache
def _board(shape: Shape) -> _Board:
    return _Board(shape)


class _Board:
    """A board shape's tables, and the propagation of the all-different of its rows, columns and boxes.

    Digit d is bit d of a cell's mask (a mask with one bit: the cell is decided). The propagation runs to
    a fixed point: a decided cell's digit leaves its peers (naked single), a digit with one place left in
    a unit is put there (hidden single), a unit with a digit that has no place left fails; and, at the
    root only (``locked``), a digit that a box has only within one row or column leaves the rest of that
    line, and one that a line has only within one box the rest of that box (locked candidates).
    """

    def __init__(self, shape: Shape) -> None:
        n = shape.n
        self.n = n
        self.full = (1 << (n + 1)) - 2  # digits 1..n
        self.bits = [0] + [1 << d for d in range(1, n + 1)]  # digit -> its bit
        self.units = shape.units  # rows, then columns, then boxes
        self.units_of = [(shape.row_of[i], n + shape.col_of[i], 2 * n + shape.box_of[i]) for i in range(shape.size)]
        self.peers = shape.peers
        self.size = size = shape.size
        # The place variables (see places): unit u's for digit d is size + u * n + d - 1; per cell, each
        # of its units' size + u * n - 1, to which a digit is added.
        self.place_bases = [tuple(size + u * n - 1 for u in units) for units in self.units_of]
        # The segments (a line within a box) and, for locked candidates, each segment's group (the other
        # segments of its box along the same direction, or of its line) with the cells outside it to clear.
        where: dict[tuple[int, int], list[int]] = {}
        for i in range(shape.size):
            box = 2 * n + shape.box_of[i]
            where.setdefault((shape.row_of[i], box), []).append(i)
            where.setdefault((n + shape.col_of[i], box), []).append(i)
        self.segments = [tuple(cells) for cells in where.values()]
        keys = list(where)
        by_box: dict[tuple[int, bool], list[int]] = {}
        by_line: dict[int, list[int]] = {}
        for k, (line, box) in enumerate(keys):
            by_box.setdefault((box, line < n), []).append(k)
            by_line.setdefault(line, []).append(k)
        groups = []
        for key, members in list(by_box.items()) + list(by_line.items()):
            if len(members) > 1:
                target = [keys[k][0] if isinstance(key, tuple) else keys[k][1] for k in members]
                groups.append(
                    tuple(
                        (k, tuple(i for i in self.units[t] if i not in where[keys[k]]))
                        for k, t in zip(members, target, strict=True)
                    )
                )
        self.groups = groups

    def places(self, open_cells: Sequence[tuple[int, list[int]]]) -> list[tuple[int, list[int]]]:
        """The place variables of a settled board: per unit and digit not yet in it, the cells that may hold it.

        ``open_cells`` holds the (cell, digits) of the cells left open. A digit placed in a unit (given, or
        decided at the root) has no variable there: the settled board holds it nowhere else in the unit.
        """
        where: dict[int, list[int]] = {}
        for i, digits in open_cells:
            for base in self.place_bases[i]:
                for d in digits:
                    where.setdefault(base + d, []).append(i)
        return sorted(where.items())

    def settle(self, cells: Sequence[int]) -> list[int] | None:
        """Each cell's digits after propagation from the givens, locked candidates included; None on a contradiction."""
        bits = self.bits
        masks = [bits[v] if v else self.full for v in cells]
        naked = [(i, bits[v]) for i, v in enumerate(cells) if v]
        if not self.propagate(masks, masks.__getitem__, naked, set(range(len(self.units))), set(), locked=True):
            return None
        return masks

    def propagate(
        self,
        masks: list[int],
        read: Callable[[int], int],
        naked: list[tuple[int, int]],
        touched: set[int],
        changed: set[int],
        *,
        locked: bool,
    ) -> bool:
        """Propagate to a fixed point; False on a contradiction.

        ``masks`` holds each cell's digits, 0 where not read yet (``read`` reads it); ``naked`` the decided
        cells whose digit still has to leave their peers, with that digit's bit; ``touched`` the units to
        look at for hidden singles. The cells whose mask shrinks are added to ``changed``.
        """
        peers, units, units_of, full = self.peers, self.units, self.units_of, self.full
        while True:
            while naked:
                i, bit = naked.pop()
                for p in peers[i]:
                    m = masks[p] or read(p)
                    if m & bit:
                        m ^= bit
                        if not m:
                            return False
                        masks[p] = m
                        changed.add(p)
                        touched.update(units_of[p])
                        if not m & (m - 1):
                            naked.append((p, m))
            if touched:
                unit = units[touched.pop()]
                once = twice = 0
                for i in unit:
                    m = masks[i] or read(i)
                    twice |= once & m
                    once |= m
                if once != full:
                    return False  # a digit with no place left in the unit
                singles = once & ~twice
                if singles:
                    for i in unit:
                        m = masks[i]
                        hidden = m & singles
                        if hidden and hidden != m:
                            if hidden & (hidden - 1):
                                return False  # one cell is the only place of two digits
                            masks[i] = hidden
                            changed.add(i)
                            naked.append((i, hidden))
                            touched.update(units_of[i])
                continue
            if not locked:
                return True
            found = self._locked(masks, read, naked, touched, changed)
            if found is None:
                return False
            if not found:
                return True

    def probe(self, masks: list[int], changed: set[int], *, locked: bool, places: bool) -> bool:
        """Failed literals: a digit of a two-digit cell whose singles fail leaves it; False on a contradiction.

        ``masks`` holds every cell's digits, at a fixed point of propagate. Each digit of each cell with two
        is tried on a copy, with the singles (and locked candidates if ``locked``); where one fails the
        other is placed, and propagated, until a pass finds nothing. Cells that shrink are added to ``changed``.
        """
        units_of, propagate = self.units_of, self.propagate
        found = True
        while found:
            found = False
            for options in self._pairs(masks, places=places):
                trials = []
                for i, bit in options:
                    trial = masks[:]
                    trial[i] = bit
                    if propagate(trial, trial.__getitem__, [(i, bit)], set(units_of[i]), set(), locked=False):
                        trials.append(trial)
                if not trials:
                    return False
                # One failed: the other choice holds. Else what both rule out goes.
                keep = trials[0] if len(trials) == 1 else [a | b for a, b in zip(*trials, strict=True)]
                naked: list[tuple[int, int]] = []
                touched: set[int] = set()
                for j, (now, kept) in enumerate(zip(masks, keep, strict=True)):
                    if kept != now:
                        masks[j] = kept
                        changed.add(j)
                        touched.update(units_of[j])
                        if not kept & (kept - 1):
                            naked.append((j, kept))
                if touched:
                    found = True
                    if not propagate(masks, masks.__getitem__, naked, touched, changed, locked=locked):
                        return False
        return True

    def _pairs(self, masks: list[int], *, places: bool) -> Iterator[tuple[tuple[int, int], tuple[int, int]]]:
        """The two-way choices, each as its two (cell, digit bit): a cell's two digits, a unit digit's two places."""
        for i, m in enumerate(masks):
            if m.bit_count() == 2:
                yield (i, m & -m), (i, m & (m - 1))
        if not places:
            return
        for unit in self.units:
            once = twice = thrice = 0
            for i in unit:
                m = masks[i]
                thrice |= twice & m
                twice |= once & m
                once |= m
            two = twice & ~thrice
            while two:
                bit = two & -two
                two ^= bit
                where = [i for i in unit if masks[i] & bit and masks[i] != bit]
                if len(where) == 2:
                    yield (where[0], bit), (where[1], bit)

    def _locked(
        self,
        masks: list[int],
        read: Callable[[int], int],
        naked: list[tuple[int, int]],
        touched: set[int],
        changed: set[int],
    ) -> bool | None:
        """One pass of locked candidates: whether it cleared a digit anywhere; None on a contradiction."""
        units_of = self.units_of
        seen = []
        for segment in self.segments:
            m = 0
            for i in segment:
                m |= masks[i] or read(i)
            seen.append(m)
        found = False
        for group in self.groups:
            once = twice = 0
            for k, _ in group:
                twice |= once & seen[k]
                once |= seen[k]
            alone = once & ~twice  # digits in one segment of the group only
            if not alone:
                continue
            for k, outside in group:
                only = seen[k] & alone
                if not only:
                    continue
                for i in outside:
                    m = masks[i] or read(i)
                    if m & only:
                        m &= ~only
                        if not m:
                            return None
                        masks[i] = m
                        changed.add(i)
                        touched.update(units_of[i])
                        if not m & (m - 1):
                            naked.append((i, m))
                        found = True
        return found


class _Propagator(constraint.Constraint):
    """The all-different of every row, column and box as one constraint on all the open cells, propagating.

    The library's solvers call a variable's constraints after each assignment, with the domains of the
    variables still open pushed, so that a constraint may hide values (forward checking). This one
    takes the variable just assigned (the last key of the assignments, in each of the library's solvers)
    and propagates its digit to a fixed point (_Board.propagate: naked and hidden singles), hiding every
    digit it rules out and failing on a cell or a unit digit with no place left. The domains it starts
    from are those the previous assignment left at a fixed point, and the root's are (_Board.settle).
    """

    def __init__(self, board: _Board, fixed: Sequence[int], *, places: bool = False, level: int = 0) -> None:
        self.board = board
        self.start = [board.bits[v] for v in fixed]  # the decided cells' masks; 0 for the open ones
        self.places = places
        self.level = level

    def __call__(
        self,
        variables: Sequence[int],
        domains: dict[int, constraint.Domain],
        assignments: dict[int, int],
        forwardcheck: object = False,
    ) -> bool:
        board = self.board
        bits = board.bits
        digit = bits.__getitem__
        get = assignments.get
        masks = self.start[:]

        def read(i: int) -> int:
            x = get(i)
            m = masks[i] = digit(x) if x is not None else sum(map(digit, domains[i]))
            return m

        var = next(reversed(assignments))  # the variable just assigned
        value = assignments[var]
        if var < board.size:  # a cell, and its digit
            cell, bit = var, bits[value]
        else:  # a place variable: its digit goes to the cell assigned
            cell, bit = value, bits[(var - board.size) % board.n + 1]
        if not forwardcheck:  # no open variable left (or a check alone): the digit must fit
            if var >= board.size:
                return read(cell) == bit
            return all((masks[p] or read(p)) != bit for p in board.peers[cell])
        if len(domains[var]) == 1:
            return True  # forced: the propagation that left it one value has placed it, to a fixed point
        if var >= board.size:
            m = read(cell)
            if not m & bit:
                return False
            if m == bit:
                return True  # placed already
        masks[cell] = bit
        changed: set[int] = set()
        level = self.level
        if not board.propagate(masks, read, [(cell, bit)], set(board.units_of[cell]), changed, locked=level > 0):
            return False
        if level:
            for i, m in enumerate(masks):
                if not m:
                    read(i)
            if not board.probe(masks, changed, locked=True, places=level > 1):
                return False
        if not self.places:
            for i in changed:
                m, domain = masks[i], domains[i]
                for x in [x for x in domain if not m >> x & 1]:
                    domain.hideValue(x)
            return True
        place_bases = board.place_bases
        if var < board.size:  # the cell assigned is no place of its units for its other digits
            for base in place_bases[cell]:
                for x in domains[cell]:
                    if x != value and base + x not in assignments:
                        domains[base + x].hideValue(cell)
        else:
            changed.add(cell)
        for i in changed:
            m, domain = masks[i], domains[i]
            gone = [x for x in domain if not m >> x & 1]
            for x in gone:
                domain.hideValue(x)
            for base in place_bases[i]:  # the cell is no place of its units for the digits it lost
                for x in gone:
                    if base + x not in assignments:
                        domains[base + x].hideValue(i)
        return True


# --- the variant model -----------------------------------------------------------------------------

#: Kinds that hold everywhere (or shape the regions): they say nothing of where the search should start.
_EVERYWHERE = frozenset(
    ("anti-knight", "anti-king", "non-consecutive", "kropki-negative", "xv-negative", "diagonal", "extra-region")
)


def _variant_model(puzzle: Grid) -> _Model | None:
    """The model of a puzzle with irregular regions or variant rules; None when unsolvable on sight."""
    model = _VariantModel(puzzle)
    for rule in puzzle.constraints:
        _add_rule(model, rule)
    return model.finish()


class _VariantModel:
    """A variant puzzle's model as it is built: the digits each cell may hold (a given: its own), and the rules.

    Before the search the digits are pruned to a fixed point: a cell's last digit leaves the other cells of
    its groups, a digit with no partner in a pair's table goes, a layout rule keeps the digits of the
    layouts that still fit, and a sum the digits its bounds leave. Then the givens leave the model: a rule
    sees their digits as constants (a sum's total less theirs, the layouts that fit them).
    """

    def __init__(self, puzzle: Grid) -> None:
        self.n = n = puzzle.n
        self.puzzle = puzzle
        self.cells = puzzle.cells
        self.domains: list[set[int]] = [{v} if v else set(range(1, n + 1)) for v in self.cells]
        #: Cells that hold different digits: the rows, columns and regions first.
        self.groups: list[tuple[int, ...]] = list(puzzle.units)
        #: (a, b) with a < b: the pairs of digits the two cells may hold.
        self.tables: dict[tuple[int, int], frozenset[tuple[int, int]]] = {}
        #: ((cell, multiplier), ...), total: the sum of multiplier * digit is the total.
        self.sums: list[tuple[tuple[tuple[int, int], ...], int]] = []
        #: cells, layouts: the cells hold digits of one layout (a set of digits per cell) at least.
        self.layouts: list[tuple[tuple[int, ...], list[tuple[frozenset[int], ...]]]] = []
        #: Skyscraper clues: (the line's cells from the clue, how many digits are seen).
        self.skyscrapers: list[tuple[tuple[int, ...], int]] = []
        #: The killer cages with a total (cells, total).
        self.cages: list[tuple[tuple[int, ...], int]] = []
        #: How many of the puzzle's own clues each cell is in: the cells with most come first in the search.
        self.weights = [0] * (n * n)

    def relate(self, a: int, b: int, table: frozenset[tuple[int, int]]) -> None:
        """The digits of cells ``a`` and ``b`` make a pair of ``table``."""
        if a > b:
            a, b, table = b, a, _transposed(table)
        known = self.tables.get((a, b))
        self.tables[a, b] = table if known is None else known & table

    def cage(self, cells: tuple[int, ...], total: int, *, clue: bool = True) -> None:
        """Different digits on ``cells`` summing to ``total``: one of the sets of digits with that sum.

        ``clue`` False: cells of one unit whose sum the others' cages tell (they differ already).
        """
        if clue:
            self.groups.append(cells)
            self.cages.append((cells, total))
        sets = [frozenset(c) for c in combinations(range(1, self.n + 1), len(cells)) if sum(c) == total]
        self.layouts.append((cells, [(s,) * len(cells) for s in sets]))

    def unit_sums(self) -> None:
        """What the cages tell of each unit, whose digits sum to 1 + 2 + ... + n (the killer's "45 rule").

        The cells of a unit outside the cages within it make a cage of the rest of the sum ("innies"); when
        cages cover the unit, their cells outside it sum to their totals less the unit's ("outies"). Only for
        cages that do not overlap.
        """
        whole = self.n * (self.n + 1) // 2
        if sum(len(c) for c, _ in self.cages) != len(set().union(*(c for c, _ in self.cages))):
            return  # cages that overlap: their totals do not add up
        for unit in {frozenset(g) for g in self.groups if len(g) == self.n}:  # rows, columns, regions, windows...
            inside = [(c, t) for c, t in self.cages if unit.issuperset(c)]
            across = [(c, t) for c, t in self.cages if not unit.issuperset(c) and not unit.isdisjoint(c)]
            rest = tuple(sorted(unit.difference(*(c for c, _ in inside))))
            if inside and rest:
                self.cage(rest, whole - sum(t for _, t in inside), clue=False)
            if across and unit <= set().union(*(c for c, _ in inside + across)):
                outside = tuple(i for c, _ in across for i in c if i not in unit)
                self.sums.append((tuple((i, 1) for i in outside), sum(t for _, t in inside + across) - whole))

    def small_sums(self, limit: int = 2000) -> None:
        """Turn each sum with at most ``limit`` ways to make it into layouts (one per way): they prune better."""
        member: list[set[int]] = [set() for _ in self.cells]  # the groups of each cell (whose digits differ)
        for k, group in enumerate(self.groups):
            for i in group:
                member[i].add(k)
        kept = []
        for terms, total in self.sums:
            ways = _ways(terms, total, [sorted(self.domains[i]) for i, _ in terms], member, limit)
            if ways is None:
                kept.append((terms, total))
            else:
                self.layouts.append((tuple(i for i, _ in terms), [tuple(frozenset((x,)) for x in w) for w in ways]))
        self.sums = kept

    def sandwich(self, line: tuple[int, ...], total: int) -> None:
        """The digits between the 1 and the n of ``line`` sum to ``total``: one layout per placing of them."""
        n = self.n
        ends, middle = frozenset((1, n)), range(2, n)
        layouts = []
        for p, q in combinations(range(n), 2):
            for inside in map(frozenset, combinations(middle, q - p - 1)):
                if sum(inside) == total:
                    outside = frozenset(middle) - inside
                    layouts.append(tuple(ends if k in (p, q) else inside if p < k < q else outside for k in range(n)))
        self.layouts.append((line, layouts))

    def x_sum(self, line: tuple[int, ...], total: int) -> None:
        """The first X cells of ``line`` sum to ``total``, X the first digit: one layout per X and set of X digits."""
        n = self.n
        digits = frozenset(range(1, n + 1))
        layouts = []
        for x in range(1, n + 1):
            for rest in _sets_summing(tuple(sorted(digits - {x})), x - 1, total - x):
                after = digits - rest - {x}
                layouts.append((frozenset((x,)), *(rest if k < x else after for k in range(1, n))))
        self.layouts.append((line, layouts))

    def finish(self) -> _Model | None:
        """The model for the worker (see _Model), or None when the puzzle has no solution."""
        self.unit_sums()
        if not self._prune():
            return None
        self.small_sums()
        if not self._prune():
            return None
        n, cells, domains = self.n, self.cells, self.domains
        variables = [(i, sorted(domains[i])) for i, v in enumerate(cells) if not v]
        units = [frozenset(u) for u in self.puzzle.units]
        groups: dict[frozenset[int], tuple[tuple[int, ...], frozenset[int] | None]] = {}
        for k, group in enumerate(self.groups):
            blanks = tuple(i for i in group if not cells[i])
            key = frozenset(blanks)
            if len(blanks) < 2 or key in groups:
                continue
            if k >= len(units) and any(key <= unit for unit in units):
                continue  # a row, column or region keeps them apart already (an anti-king pair in one box, say)
            whole = len(group) == n  # then its blanks hold exactly the digits its givens leave
            groups[key] = (blanks, frozenset(range(1, n + 1)) - {cells[i] for i in group} if whole else None)
        rules: list[_Rule] = []
        for (a, b), table in self.tables.items():
            if not cells[a] and not cells[b]:  # with a given, pruning has applied it
                rules.append(("pair", a, b, table))
        for terms, total in self.sums:
            open_terms = [(i, m) for i, m in terms if not cells[i]]
            total -= sum(m * cells[i] for i, m in terms if cells[i])
            if len(open_terms) > 1:  # with one blank or none, pruning has applied it
                if all(m < 0 for _, m in open_terms):
                    open_terms, total = [(i, -m) for i, m in open_terms], -total
                multipliers = None if all(m == 1 for _, m in open_terms) else tuple(m for _, m in open_terms)
                rules.append(("sum", tuple(i for i, _ in open_terms), multipliers, total))
        for where, layouts in self.layouts:
            open_ = [k for k, i in enumerate(where) if not cells[i]]
            if len(open_) > 1:  # the layouts that fit the givens, on the blanks, as bit masks of digits
                masks = {tuple(sum(1 << d for d in layout[k]) for k in open_) for layout in layouts}
                rules.append(("layouts", tuple(where[k] for k in open_), tuple(sorted(masks))))
        for line, count in self.skyscrapers:
            digits = tuple(cells[i] for i in line)
            blanks = tuple(i for i in line if not cells[i])
            if not blanks:
                if _seen_counts([[d] for d in digits], count) is None:
                    return None  # the givens break it
                continue
            rules.append(("skyscraper", blanks, digits, count))
        weights = {i: self.weights[i] for i, _ in variables}
        return cells, variables, list(groups.values()), rules, weights

    def _prune(self) -> bool:
        """Prune the digits to a fixed point; False when a cell has none left (or two cells of a group one)."""
        domains = self.domains
        if not all(domains):  # a rule left a cell no digit (an odd cell given an even digit, say)
            return False
        partners = []  # (a, b, the digits b may hold by each of a's, and a by each of b's)
        for (a, b), table in self.tables.items():
            forward: dict[int, set[int]] = {}
            backward: dict[int, set[int]] = {}
            for x, y in table:
                forward.setdefault(x, set()).add(y)
                backward.setdefault(y, set()).add(x)
            partners.append((a, b, forward, backward))
        none: set[int] = set()
        changed = True
        while changed:
            changed = False

            def keep(i: int, digits: set[int]) -> bool:
                """Cell ``i`` keeps only ``digits``; False when none is left."""
                nonlocal changed
                if len(digits) < len(domains[i]):
                    domains[i] = digits
                    changed = True
                return bool(digits)

            for group in self.groups:
                fixed: set[int] = set()
                for i in group:
                    if len(domains[i]) == 1:
                        if not fixed.isdisjoint(domains[i]):
                            return False
                        fixed |= domains[i]
                if fixed and not all(keep(i, domains[i] - fixed) for i in group if len(domains[i]) > 1):
                    return False
            for a, b, forward, backward in partners:
                for i, j, digits in ((a, b, forward), (b, a, backward)):
                    if not keep(i, {x for x in domains[i] if not digits.get(x, none).isdisjoint(domains[j])}):
                        return False
            for k, (where, layouts) in enumerate(self.layouts):
                doms = [domains[i] for i in where]
                fits = [lay for lay in layouts if all(not s.isdisjoint(d) for s, d in zip(lay, doms, strict=True))]
                if not fits:
                    return False
                self.layouts[k] = (where, fits)
                for p, i in enumerate(where):
                    if not keep(i, domains[i] & set().union(*(lay[p] for lay in fits))):
                        return False
            for terms, total in self.sums:
                lows = [min(m * x for x in domains[i]) for i, m in terms]
                highs = [max(m * x for x in domains[i]) for i, m in terms]
                low, high = sum(lows), sum(highs)
                for (i, m), lo, hi in zip(terms, lows, highs, strict=True):
                    rest_low, rest_high = low - lo, high - hi
                    if not keep(i, {x for x in domains[i] if rest_low <= total - m * x <= rest_high}):
                        return False
        return True


def _sets_summing(pool: tuple[int, ...], k: int, total: int) -> Iterator[frozenset[int]]:
    """The sets of ``k`` digits of ``pool`` (ascending) summing to ``total``; branches that cannot reach it cut."""
    if k == 0:
        if total == 0:
            yield frozenset()
        return
    for j in range(len(pool) - k + 1):
        d = pool[j]
        if k * d > total:
            return  # the least set from here on is too much already
        if d + sum(pool[len(pool) - k + 1 :]) < total:
            continue  # the greatest set with d is too little
        for rest in _sets_summing(pool[j + 1 :], k - 1, total - d):
            yield rest | {d}


def _ways(
    terms: tuple[tuple[int, int], ...], total: int, digits: list[list[int]], member: list[set[int]], limit: int
) -> list[tuple[int, ...]] | None:
    """The digits of the cells of ``terms`` (from ``digits``, different in a shared group) making the sum.

    None when there are more than ``limit``.
    """
    count = len(terms)
    lows = [min(m * x for x in ds) for (_, m), ds in zip(terms, digits, strict=True)]
    highs = [max(m * x for x in ds) for (_, m), ds in zip(terms, digits, strict=True)]
    low_after = [sum(lows[k + 1 :]) for k in range(count)]
    high_after = [sum(highs[k + 1 :]) for k in range(count)]
    apart = [[j for j in range(k) if member[terms[j][0]] & member[terms[k][0]]] for k in range(count)]
    ways: list[tuple[int, ...]] = []
    chosen: list[int] = []

    def extend(k: int, rest: int) -> bool:
        if k == count:
            if rest == 0:
                ways.append(tuple(chosen))
            return len(ways) <= limit
        m = terms[k][1]
        for x in digits[k]:
            left = rest - m * x
            if low_after[k] <= left <= high_after[k] and all(chosen[j] != x for j in apart[k]):
                chosen.append(x)
                more = extend(k + 1, left)
                chosen.pop()
                if not more:
                    return False
        return True

    return ways if extend(0, total) else None


def _add_rule(model: _VariantModel, rule: Constraint) -> None:
    """Put one variant rule into ``model``."""
    n, kind = model.n, rule.kind
    cells = rule.indexes(n)
    if kind in ("sandwich", "x-sum", "skyscraper"):
        cells = tuple(r * n + c for r, c in rule.line_cells(n))  # type: ignore[attr-defined]
    if kind not in _EVERYWHERE and kind != "odd-even":  # a parity shows in the cell's digits already
        for i in cells:
            model.weights[i] += 1
    if kind in ("extra-region", "renban"):
        model.groups.append(cells)
        if kind == "renban":  # different digits within len - 1 of each other: a run
            for a, b in combinations(cells, 2):
                model.relate(a, b, _table(n, "near", len(cells) - 1))
    elif kind == "diagonal":
        model.groups.append(tuple(r * n + c for r, c in rule.diagonal_cells(n)))  # type: ignore[attr-defined]
    elif kind in ("anti-knight", "anti-king"):
        model.groups.extend(knight_pairs(n) if kind == "anti-knight" else king_pairs(n))
    elif kind == "non-consecutive":
        for a, b in orthogonal_pairs(n):
            model.relate(a, b, _table(n, "apart"))
    elif kind == "kropki-negative":
        table = _table(n, {"white": "apart", "black": "no-double"}.get(rule.color or "", "no-dot"))  # type: ignore[attr-defined]
        for a, b in rule.pairs(model.puzzle):  # type: ignore[attr-defined]
            model.relate(a, b, table)
    elif kind == "xv-negative":
        for a, b in undotted_pairs(model.puzzle, "xv"):
            model.relate(a, b, _table(n, "no-xv"))
    elif kind == "kropki":
        a, b = cells  # a dot joins two cells
        model.relate(a, b, _table(n, rule.color, rule.amount))  # type: ignore[attr-defined]
    elif kind == "xv":
        a, b = cells
        model.relate(a, b, _table(n, "sum", rule.total))  # type: ignore[attr-defined]
    elif kind == "killer":
        if rule.total is None:  # type: ignore[attr-defined]
            model.groups.append(cells)
        else:
            model.cage(cells, rule.total)  # type: ignore[attr-defined]
    elif kind == "little-killer":
        model.sums.append((tuple((i, 1) for i in cells), rule.total))  # type: ignore[attr-defined]
    elif kind == "arrow":  # the circle's number less the arrow's digits is 0
        circle = len(rule.circle)  # type: ignore[attr-defined]
        terms = [(i, 10 ** (circle - 1 - k)) for k, i in enumerate(cells[:circle])]
        model.sums.append((tuple(terms + [(i, -1) for i in cells[circle:]]), 0))
    elif kind in ("thermometer", "slow-thermometer"):
        step = 1 if kind == "thermometer" else 0
        for (j, a), (k, b) in combinations(enumerate(cells), 2):  # every pair, not only neighbours: the bounds
            model.relate(a, b, _table(n, "rise", step * (k - j)))
    elif kind == "whisper":
        for a, b in pairwise(cells):
            model.relate(a, b, _table(n, "far", rule.difference))  # type: ignore[attr-defined]
    elif kind == "palindrome":
        for k in range(len(cells) // 2):
            model.relate(cells[k], cells[-1 - k], _table(n, "equal"))
    elif kind == "odd-even":
        model.domains[cells[0]] &= set(range(1 if rule.parity == "odd" else 2, n + 1, 2))  # type: ignore[attr-defined]
    elif kind == "sandwich":
        model.sandwich(cells, rule.total)  # type: ignore[attr-defined]
    elif kind == "x-sum":
        model.x_sum(cells, rule.total)  # type: ignore[attr-defined]
    elif kind == "skyscraper":
        model.skyscrapers.append((cells, rule.count))  # type: ignore[attr-defined]
    elif kind == "indexer":  # the indexer cell holding d implies its target's value
        for i, d, target, value in rule.links(model.puzzle):  # type: ignore[attr-defined]
            model.relate(i, target, _index_table(n, d, value))
    else:  # a kind this engine does not declare never reaches it (sudokit.run says "unsupported")
        raise ValueError(f"python-constraint: no model for the variant kind {kind!r}")


@cache
def _table(n: int, relation: str, k: int = 0) -> frozenset[tuple[int, int]]:
    """The pairs of digits 1..n (of a first and a second cell) that ``relation`` allows."""
    holds: Callable[[int, int], bool] = {
        "white": lambda x, y: abs(x - y) == k,  # k: the dot's difference
        "black": lambda x, y: x == k * y or y == k * x,  # k: the dot's ratio
        "sum": lambda x, y: x + y == k,
        "apart": lambda x, y: abs(x - y) != 1,
        "no-double": lambda x, y: x != 2 * y and y != 2 * x,
        "no-dot": lambda x, y: abs(x - y) != 1 and x != 2 * y and y != 2 * x,
        "no-xv": lambda x, y: x + y not in (5, 10),
        "rise": lambda x, y: y - x >= k,
        "near": lambda x, y: abs(x - y) <= k,
        "far": lambda x, y: abs(x - y) >= k,
        "equal": lambda x, y: x == y,
    }[relation]
    digits = range(1, n + 1)
    return frozenset((x, y) for x in digits for y in digits if holds(x, y))


@cache
def _index_table(n: int, d: int, value: int) -> frozenset[tuple[int, int]]:
    """The pairs of digits 1..n of an indexer cell and its target: the first d makes the second ``value``."""
    digits = range(1, n + 1)
    return frozenset((x, y) for x in digits for y in digits if x != d or y == value)


@cache
def _transposed(table: frozenset[tuple[int, int]]) -> frozenset[tuple[int, int]]:
    return frozenset((y, x) for x, y in table)


# --- the variant rules in the worker ------------------------------------------------------------------


def _variant_search(model: _Model, solver: str) -> Iterator[tuple[int, ...]]:
    """Every solution of a variant model: two searches in two orders take turns until one finishes (_Turns).

    Which order is quicker varies by puzzle, by a factor of 100 and more (measured on the variant corpus):
    the order by the puzzle's clues (the model's weights) or the one by values left alone. A puzzle whose
    clues all hold everywhere has one order, and one search.
    """
    cells, weights = model[0], model[4]
    orders = [weights]
    if any(weights.values()):
        orders.append(dict.fromkeys(weights, 0))
    if len(orders) == 1:
        yield from _solutions(cells, _variant_problem(model, solver, weights, None))
        return
    yield from _Turns(model, solver, orders).solutions()


def _variant_problem(model: _Model, solver: str, weights: dict[int, int], clock: _Clock | None) -> constraint.Problem:
    """The problem of a variant model, its variables ordered by ``weights`` (and ``clock`` on every variable)."""
    _, domains, groups, rules, _ = model
    problem = constraint.Problem(SOLVERS[solver]())
    for i, domain in domains:
        problem.addVariable(i, domain)
    _add_variant_rules(problem, groups, rules, weights, clock)
    return problem


def _solutions(cells: tuple[int, ...], problem: constraint.Problem) -> Iterator[tuple[int, ...]]:
    """The problem's solutions as full tuples of cells."""
    board = list(cells)
    for assignment in problem.getSolutionIter():
        for i, v in assignment.items():
            board[i] = v
        yield tuple(board)


_TURN = 0.05  # seconds a search runs before the other one's turn
_REMEMBERED = 100  # solutions remembered to yield each once; past them only the search that found the last goes on


class _OutOfTime(Exception):
    """The search is stopped."""


class _Turns:
    """Searches of one model in threads of their own, taking turns of ``_TURN`` seconds: one runs at a time.

    Each search's _Clock, called at every assignment, hands the turn on when it is over and waits for the
    next: a search resumes where it was, so the first to finish takes about as many times its own time as
    there are searches. Its solutions are all the solutions; those the other found first are not repeated.
    """

    def __init__(self, model: _Model, solver: str, orders: list[dict[int, int]]) -> None:
        self.model, self.solver, self.orders = model, solver, orders
        self.turn = 0  # the search whose turn it is
        self.ends = math.inf  # when its turn ends
        self.alone: int | None = None  # the one search left, if the others were stopped
        self.stopped = False
        self.changed = threading.Condition()
        self.events: queue.SimpleQueue[tuple[Any, ...]] = queue.SimpleQueue()

    def solutions(self) -> Iterator[tuple[int, ...]]:
        """Every solution once, as the searches find them; the searches end with the iteration."""
        threads = [
            threading.Thread(target=self._search, args=(k,), name=f"python-constraint search {k}", daemon=True)
            for k in range(len(self.orders))
        ]
        found: set[tuple[int, ...]] = set()
        with self.changed:
            self.ends = time.perf_counter() + _TURN
        for thread in threads:
            thread.start()
        try:
            while True:
                kind, k, payload = self.events.get()
                if self.alone is not None and k != self.alone:
                    continue  # a stopped search's late news: the one left finds it all
                if kind == "done":
                    return
                if kind == "error":
                    raise payload
                if payload in found:
                    continue
                if len(found) < _REMEMBERED:
                    found.add(payload)
                else:  # too many to remember: search k goes on alone
                    self._keep_only(k)
                yield payload
        finally:
            with self.changed:
                self.stopped = True
                self.changed.notify_all()
            for thread in threads:
                thread.join(timeout=2)

    def wait(self, k: int) -> None:
        """Search ``k`` goes on in its turn; else it hands the turn on and waits for its next one."""
        if self.turn == k and not self.stopped and (self.alone == k or time.perf_counter() < self.ends):
            return
        with self.changed:
            if self.turn == k and self.alone is None:
                self.turn = (k + 1) % len(self.orders)
                self.ends = time.perf_counter() + _TURN
                self.changed.notify_all()
            while self.turn != k and not self.stopped:
                self.changed.wait()
            if self.stopped or (self.alone is not None and self.alone != k):
                raise _OutOfTime

    def _keep_only(self, k: int) -> None:
        with self.changed:
            self.alone = self.turn = k
            self.changed.notify_all()

    def _search(self, k: int) -> None:
        try:
            self.wait(k)
            problem = _variant_problem(self.model, self.solver, self.orders[k], _Clock(self, k))
            for solution in _solutions(self.model[0], problem):
                self.events.put(("solution", k, solution))
            self.events.put(("done", k, None))
        except _OutOfTime:
            pass
        except BaseException as err:  # reported by the iteration, in the worker's thread
            self.events.put(("error", k, err))


class _Clock(constraint.Constraint):
    """Always holds: on every variable, it runs at each assignment, to let search ``k`` of ``turns`` take turns."""

    def __init__(self, turns: _Turns, k: int) -> None:
        self.turns, self.k = turns, k

    def __call__(
        self,
        variables: Sequence[int],
        domains: dict[int, constraint.Domain],
        assignments: dict[int, int],
        forwardcheck: object = False,
    ) -> bool:
        self.turns.wait(self.k)
        return True


def _add_variant_rules(
    problem: constraint.Problem,
    groups: list[tuple[tuple[int, ...], frozenset[int] | None]],
    rules: list[_Rule],
    weights: dict[int, int],
    clock: _Clock | None,
) -> None:
    """Add a variant model's groups, rules and ``clock`` to ``problem``; order its variables (_level_degrees)."""
    scopes: list[Sequence[int]] = []
    for blanks, digits in groups:
        problem.addConstraint(constraint.AllDifferentConstraint() if digits is None else _Unit(digits), blanks)
        scopes.append(blanks)
    for rule in rules:
        made, variables = _library_constraint(rule)
        problem.addConstraint(made, variables)
        scopes.append(variables)
    if clock is not None and len(weights) > 1:
        problem.addConstraint(clock, list(weights))
    _level_degrees(problem, weights, scopes)


def _library_constraint(rule: _Rule) -> tuple[constraint.Constraint, Sequence[int]]:
    """The constraint of one rule of the model (see _Rule), and its variables."""
    if rule[0] == "pair":
        _, a, b, table = rule
        return constraint.FunctionConstraint(partial(_in_table, table)), (a, b)
    if rule[0] == "sum":
        _, blanks, multipliers, total = rule
        return _Sum(total, multipliers), blanks
    if rule[0] == "skyscraper":
        _, blanks, line, count = rule
        return _Skyscraper(line, count), blanks
    _, blanks, masks = rule
    return _Layouts(masks), blanks


def _in_table(table: frozenset[tuple[int, int]], a: int, b: int) -> bool:
    """Whether the digits ``a`` and ``b`` make a pair of ``table``."""
    return (a, b) in table


def _level_degrees(problem: constraint.Problem, weights: dict[int, int], scopes: list[Sequence[int]]) -> None:
    """Order the search: the variables in most of the puzzle's clues first, then those with fewest values left.

    The library's solvers take the variable in the most constraints first and, among those, the one with
    the fewest values left. On a variant puzzle that count is mostly noise (a cell in the centre has more
    knight's-move partners than a corner): each variable is made up, with a no-op constraint (the library's
    base ``Constraint``, always true) naming it as many times as it lacks, to the same count plus its weight.
    """
    degree = dict.fromkeys(weights, 0)
    for scope in scopes:
        if len(scope) > 1:  # a constraint on one variable is applied to its domain and dropped before the search
            for i in scope:
                degree[i] += 1
    top = max(d - weights[i] for i, d in degree.items()) + 2  # every one lacks 2 at least (a no-op on 1 is dropped)
    for i, d in degree.items():
        problem.addConstraint(constraint.Constraint(), [i] * (top + weights[i] - d))


class _Unit(constraint.Constraint):
    """AllDifferentConstraint that also places a digit with one cell left for it (a hidden single).

    For a whole row, column or region: ``digits`` are those its variables must hold.
    """

    def __init__(self, digits: frozenset[int]) -> None:
        self.digits = tuple(sorted(digits))
        self.size = max(digits) + 1

    def __call__(
        self,
        variables: Sequence[int],
        domains: dict[int, constraint.Domain],
        assignments: dict[int, int],
        forwardcheck: object = False,
    ) -> bool:
        seen = 0  # the digits placed, as a bit mask
        open_ = []
        get = assignments.get
        for v in variables:
            x = get(v)
            if x is None:
                open_.append(v)
            elif seen >> x & 1:
                return False
            else:
                seen |= 1 << x
        if not forwardcheck or not open_:
            return True
        count, last = [0] * self.size, [0] * self.size  # for each digit, the cells that may hold it, and one
        for v in open_:
            domain = domains[v]
            taken = [x for x in domain if seen >> x & 1]
            for x in taken:
                domain.hideValue(x)
            if not domain:
                return False
            for x in domain:
                count[x] += 1
                last[x] = v
        for x in self.digits:
            if not seen >> x & 1:
                if not count[x]:
                    return False
                if count[x] == 1 and len(domain := domains[last[x]]) > 1:
                    for y in [y for y in domain if y != x]:
                        domain.hideValue(y)
        return True


class _Layouts(constraint.Constraint):
    """The variables hold digits of one of the layouts (a bit mask of digits per variable).

    A killer cage's layouts are its sets of digits with the right sum; a sandwich's, every placing of
    the 1, the n and a set of digits between them with the right sum. A variable keeps the digits of the
    layouts that fit the digits placed.
    """

    def __init__(self, layouts: tuple[tuple[int, ...], ...]) -> None:
        top = max(max(layout) for layout in layouts).bit_length()
        #: For each variable and digit, the layouts (as bits of an int) in which the variable may hold it.
        self.fits = [[0] * top for _ in layouts[0]]
        for k, layout in enumerate(layouts):
            for fits, mask in zip(self.fits, layout, strict=True):
                for x in range(top):
                    if mask >> x & 1:
                        fits[x] |= 1 << k
        self.every = (1 << len(layouts)) - 1

    def __call__(
        self,
        variables: Sequence[int],
        domains: dict[int, constraint.Domain],
        assignments: dict[int, int],
        forwardcheck: object = False,
    ) -> bool:
        left = self.every
        open_ = []
        get = assignments.get
        for v, fits in zip(variables, self.fits, strict=True):
            x = get(v)
            if x is None:
                open_.append((v, fits))
            else:
                left &= fits[x]
                if not left:
                    return False
        if forwardcheck:
            for v, fits in open_:
                domain = domains[v]
                for x in [x for x in domain if not fits[x] & left]:
                    domain.hideValue(x)
                if not domain:
                    return False
        return True


def _seen_counts(options: list[list[int]], count: int) -> list[set[int]] | None:
    """The digits of each place of a line (``options``) from which ``count`` digits can be seen; None: none.

    Read from the start, a digit is seen when it is above every digit before it: states (the tallest so
    far, how many seen) forwards to those reached, backwards to those still ending at ``count``.
    """
    layers: list[set[tuple[int, int]]] = [{(0, 0)}]
    for digits in options:
        nxt = set()
        for tallest, seen in layers[-1]:
            for d in digits:
                if d < tallest:
                    nxt.add((tallest, seen))
                elif seen < count:
                    nxt.add((d, seen + 1))
        layers.append(nxt)
    good = {state for state in layers[-1] if state[1] == count}
    if not good:
        return None
    kept: list[set[int]] = [set() for _ in options]
    for j in range(len(options) - 1, -1, -1):
        before = set()
        for tallest, seen in layers[j]:
            for d in options[j]:
                if ((tallest, seen) if d < tallest else (d, seen + 1)) in good:
                    kept[j].add(d)
                    before.add((tallest, seen))
        good = before
    return kept


class _Skyscraper(constraint.Constraint):
    """``count`` digits of a line are seen from its start (each above every one before it).

    ``line`` holds the line's givens (0 for each blank, the variables in order); the forward check keeps
    the digits of the blanks that some reading with ``count`` seen still takes (see _seen_counts).
    """

    def __init__(self, line: tuple[int, ...], count: int) -> None:
        self.line = line
        self.count = count

    def __call__(
        self,
        variables: Sequence[int],
        domains: dict[int, constraint.Domain],
        assignments: dict[int, int],
        forwardcheck: object = False,
    ) -> bool:
        get = assignments.get
        blanks = iter(variables)
        options: list[list[int]] = []
        open_: list[tuple[int, int]] = []  # (place on the line, variable) of each blank not assigned
        for k, d in enumerate(self.line):
            if d:
                options.append([d])
                continue
            v = next(blanks)
            x = get(v)
            if x is None:
                options.append(list(domains[v]))
                open_.append((k, v))
            else:
                options.append([x])
        kept = _seen_counts(options, self.count)
        if kept is None:
            return False
        if forwardcheck:
            for k, v in open_:
                domain = domains[v]
                for x in [x for x in domain if x not in kept[k]]:
                    domain.hideValue(x)
                if not domain:
                    return False
        return True


class _Sum(constraint.Constraint):
    """ExactSumConstraint whose forward check bounds every open variable by the others' current digits.

    The sum of multiplier * digit is ``total``; the library's own one checks the bounds of the digits the
    variables had before the search, and hides only digits that would overshoot.
    """

    def __init__(self, total: int, multipliers: tuple[int, ...] | None) -> None:
        self.total = total
        self.multipliers = multipliers

    def __call__(
        self,
        variables: Sequence[int],
        domains: dict[int, constraint.Domain],
        assignments: dict[int, int],
        forwardcheck: object = False,
    ) -> bool:
        rest = self.total
        open_ = []
        get = assignments.get
        for k, v in enumerate(variables):
            m = 1 if self.multipliers is None else self.multipliers[k]
            x = get(v)
            if x is None:
                open_.append((v, m))
            else:
                rest -= m * x
        if not open_:
            return rest == 0
        bounds = []
        low = high = 0
        for v, m in open_:
            domain = domains[v]
            if not domain:
                return False
            a, b = (m * min(domain), m * max(domain)) if m > 0 else (m * max(domain), m * min(domain))
            bounds.append((a, b))
            low += a
            high += b
        if not low <= rest <= high:
            return False
        if forwardcheck:
            for (v, m), (a, b) in zip(open_, bounds, strict=True):
                top, bottom = rest - (low - a), rest - (high - b)  # what m * digit may be, given the others
                if bottom <= a and b <= top:
                    continue
                domain = domains[v]
                for x in [x for x in domain if not bottom <= m * x <= top]:
                    domain.hideValue(x)
                if not domain:
                    return False
        return True


def _search(model: _Model, solver: str) -> Iterator[tuple[int, ...]]:
    """Every solution of the model as a full tuple of cells, lazily."""
    cells, domains = model[0], model[1]
    if not domains:  # no blank: the puzzle is its own solution (its givens do not clash, nor break a rule)
        yield cells
        return
    if not isinstance(model, _ClassicModel):
        yield from _variant_search(model, solver)
        return
    shape, places, level = model.shape, model.places, model.level
    board = _board(shape)
    problem = constraint.Problem(SOLVERS[solver]())
    variables = list(domains) + (board.places(domains) if places else [])
    for var, values in variables:
        problem.addVariable(var, values)
    problem.addConstraint(_Propagator(board, cells, places=places, level=level), [var for var, _ in variables])
    grid = list(cells)
    size = shape.size
    for assignment in problem.getSolutionIter():
        for i, v in assignment.items():
            if i < size:
                grid[i] = v
        yield tuple(grid)


class _Run:
    """What one search produced: the solutions, and whether it finished and found them all."""

    def __init__(self) -> None:
        self.solutions: list[tuple[int, ...]] = []  # the first ``keep`` found
        self.count = 0  # how many were found (so far)
        self.finished = False  # the search answered (found the limit, or ran out of solutions)
        self.exhausted = False  # the search ran out of solutions below the limit
        self.search_time = 0.0
        self.worker_start = 0.0  # seconds this search waited for its worker to start
        self.workers_started = 0  # 1 when this search started a new worker process


# --- the worker process --------------------------------------------------------------------------


class _Worker:
    """A child ``python`` that runs the searches sent to it and streams each solution back.

    Messages are pickles on the child's standard input (jobs) and output (results); a reader thread
    moves the results into ``inbox`` so that the caller can wait on them with a timeout.
    """

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.owner = os.getpid()
        boot = f"import pickle, sys; sys.path[:] = pickle.load(sys.stdin.buffer); import {__name__} as m; m._serve()"
        self.process = subprocess.Popen([sys.executable, "-c", boot], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.inbox: queue.SimpleQueue[tuple[Any, ...]] = queue.SimpleQueue()
        self.reader = threading.Thread(target=self._read, name="python-constraint worker reader", daemon=True)
        self.reader.start()
        self.send(sys.path)
        # The kernel's parent-death signal follows the thread that started the child: ask for it only
        # from the main thread, whose end is the process's end.
        self.send((self.owner, threading.current_thread() is threading.main_thread()))
        self.fresh = True  # the first job's run reports the start-up time (until the child's "ready")

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        try:
            while True:
                self.inbox.put(pickle.load(stream))
        except Exception:  # end of the stream (or a message cut short by a kill): the child is gone
            self.inbox.put(("exit",))

    def send(self, message: object) -> None:
        stream = self.process.stdin
        assert stream is not None
        pickle.dump(message, stream, protocol=pickle.HIGHEST_PROTOCOL)
        stream.flush()

    def alive(self) -> bool:
        return self.owner == os.getpid() and self.process.poll() is None

    def kill(self) -> None:
        """End the child now, and wait for it and for the reader: nothing is left running."""
        self.process.kill()
        self._reap()

    def close(self) -> None:
        """Let an idle child end by closing its input; kill it if it has not ended within 2 s."""
        self._close_input()
        try:
            self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self._reap()

    def _close_input(self) -> None:
        try:
            if self.process.stdin is not None:
                self.process.stdin.close()
        except OSError:
            pass  # the child is gone already

    def _reap(self) -> None:
        self.process.wait()
        self._close_input()
        self.reader.join(timeout=2)  # it ends at the end of the child's output
        if self.process.stdout is not None:
            self.process.stdout.close()


_idle: list[_Worker] = []
_idle_lock = threading.Lock()


def _take_worker() -> _Worker:
    """An idle worker of this process, or a new one."""
    while True:
        with _idle_lock:
            if not _idle:
                return _Worker()
            worker = _idle.pop()
        if worker.alive():
            return worker
        if worker.owner == os.getpid():  # it died while idle: reap it (a forked copy is its parent's)
            worker.kill()


def stop_workers() -> None:
    """End the idle worker processes kept for reuse (done at exit too)."""
    with _idle_lock:
        workers = [w for w in _idle if w.owner == os.getpid()]
        _idle.clear()
    for worker in workers:
        worker.close()


atexit.register(stop_workers)


def _run_in_worker(
    model: _Model, solver: str, limits: tuple[int, int], deadline: float | None, failsafe: float
) -> _Run:
    """Run the search in a worker until it answers or ``deadline`` passes (then kill the worker).

    ``limits`` is (how many solutions to count, how many of them to send back); ``failsafe`` is when
    the worker ends itself, 0 for never.
    """
    run = _Run()
    worker = _take_worker()
    fresh, worker.fresh = worker.fresh, False
    run.workers_started = int(fresh)
    ready = not fresh
    reusable = False
    try:
        worker.send((model, solver, limits, failsafe))
        while not run.finished:
            remaining = _LONGEST_WAIT if deadline is None else deadline - time.perf_counter()
            if remaining <= 0:
                break
            try:
                message = worker.inbox.get(timeout=min(remaining, _LONGEST_WAIT))  # Ctrl-C interrupts the wait
            except queue.Empty:
                continue  # the deadline, or only the longest wait, has passed: the loop looks again
            if message[0] == "ready":
                ready = True
                run.worker_start = _since(worker.started) if fresh else 0.0
            else:
                _receive(run, message, worker)
        reusable = run.finished
        if not ready:  # the time ran out while it started: all of it went to the start
            run.worker_start = _since(worker.started)
    finally:
        if reusable:
            with _idle_lock:
                _idle.append(worker)
        else:  # time is up (or the wait was interrupted, or failed): kill, then keep what had arrived
            worker.kill()
            while not run.finished:
                try:
                    message = worker.inbox.get_nowait()
                except queue.Empty:
                    break
                if message[0] in ("solution", "count", "done"):
                    _receive(run, message, worker)
    return run


def _receive(run: _Run, message: tuple[Any, ...], worker: _Worker) -> None:
    kind = message[0]
    if kind == "solution":
        run.solutions.append(message[1])
        run.count = max(run.count, len(run.solutions))
    elif kind == "count":
        run.count = max(run.count, message[1])
    elif kind == "done":
        run.finished, run.exhausted, run.search_time, run.count = True, message[1], message[2], message[3]
    elif kind == "error":
        raise RuntimeError(f"the search failed in the worker process: {message[1]}")
    else:
        raise RuntimeError(f"the worker process ended unexpectedly (exit code {worker.process.poll()})")


def _serve() -> None:
    """The worker's loop: read a job, stream its solutions and then ``done``; stop at end of input."""
    jobs = sys.stdin.buffer
    parent, tie_to_parent = pickle.load(jobs)
    if tie_to_parent and not _end_with_parent(parent):
        return
    channel = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # a stray print must not corrupt the channel
    sys.stdout = sys.stderr
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it kills us

    def send(message: tuple[Any, ...]) -> None:
        pickle.dump(message, channel, protocol=pickle.HIGHEST_PROTOCOL)
        channel.flush()

    try:
        send(("ready",))
        while True:
            try:
                model, solver, limits, failsafe = pickle.load(jobs)
            except EOFError:
                return
            _alarm(failsafe)  # should the parent be gone or stuck, the kernel ends this process
            try:
                _serve_job(send, model, solver, *limits)
            finally:
                _alarm(0)
    except OSError:  # the parent is gone (a broken pipe): there is no one to report to
        pass


def _serve_job(send: Callable[[tuple[Any, ...]], None], model: _Model, solver: str, limit: int, keep: int) -> None:
    """Stream the first ``keep`` solutions, then now and then the count, then ``done`` (or ``error``)."""
    started = last = time.perf_counter()
    count = 0
    try:
        for solution in _search(model, solver):
            count += 1
            if count <= keep:
                send(("solution", solution))
            elif (now := time.perf_counter()) - last >= _COUNT_EVERY:  # a timeout keeps the count so far
                send(("count", count))
                last = now
            if count >= limit:
                break
    except OSError:
        raise
    except Exception as err:  # report any failure of the search to the parent, then serve the next job
        send(("error", f"{type(err).__name__}: {err}"))
        return
    send(("done", count < limit, _since(started), count))


def _end_with_parent(parent: int) -> bool:
    """Have the kernel kill this process when its parent ends (Linux); False if it has ended already."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    return os.getppid() == parent


def _alarm(seconds: float) -> None:
    """Arm (or with 0, disarm) the real-time timer whose default action ends the process (POSIX)."""
    if hasattr(signal, "setitimer"):
        signal.setitimer(signal.ITIMER_REAL, seconds)
