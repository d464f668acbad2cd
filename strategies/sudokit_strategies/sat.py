"""``sat``: a CDCL SAT solver from PySAT (``python-sat``) on the boolean model of the puzzle.

One boolean per cell and digit; exactly one digit per cell, and each digit exactly once per unit
(row, column, box or jigsaw region): the "extended" encoding, at-least-one clauses plus an
at-most-one in one of PySAT's cardinality encodings (``encoding``, pairwise by default).

* Classic boards up to 16x16 reuse one solver per box shape, kept on the engine object: the whole
  board's clauses are loaded once and each puzzle's givens are the solve's assumptions, so a puzzle
  costs no clause building at all. Counting blocks each solution found with a clause over the cell
  variables, guarded by an activation literal of that puzzle (assumed while it is searched, then
  set false for good), so nothing of one puzzle reaches the next; what the solver learns stays
  valid, as it follows from the board's clauses alone.
* Larger boards, and every variant puzzle, get a solver of their own on a formula simplified by the
  givens: no variable for a digit that a given's peer excludes, no clause for a digit a given
  already places in a unit.
* ``limit`` > 1 counts distinct grids: each solution's blocking clause names its cell variables only
  (auxiliary variables of an encoding never make a grid count twice); the count is ``exact`` when
  the solver proves that no other grid exists.
* The time limit, Ctrl-C, a kill or the core's watchdog stop the solver at once from a watcher
  thread (``interrupt``; the solve runs with ``solve_limited(expect_interrupt=True)`` and releases
  the GIL meanwhile). The thread is started once per process: a ``threading.Timer`` per solve cost
  about 0.1 ms (0.6 ms and more on a loaded machine), a third of a reused 9x9 solve.
* ``solver`` picks the SAT solver among those that can be interrupted (CaDiCaL and Kissat keep the
  GIL while they search, and Lingeling has no limited solve): ``-o solver=minisat22``.
* Boards above 25x25 (``BIG_SIDE``) default to MiniSat 2.2 and the sequential-counter at-most-one:
  Glucose looks at an interrupt only when it restarts, which on an empty 36x36 came 7 s after the
  limit (minutes on a 49x49), while MiniSat looks at every decision; and pairwise at-most-one makes
  11.3 million clauses (2.3 GB, 20 s to build) of an empty 49x49 against 1.4 million (300 MB, 3 s).
  MiniSat with it solves an empty 36x36 in 3.5 s, 49x49 in 7 s. A solver of ``LATE_STOPPERS``
  named on such a board with a time limit is refused (an ``error`` result naming the others).

Measured (benchmarks/bench_sat.py, every figure against a baseline of the same run): on top95 a
reused solver takes 0.26 ms a puzzle (0.35 ms for a uniqueness check) against 2.7 ms for a fresh
solver on the simplified formula, and 0.2 of ``cp-sat``'s time (one worker) end to end; reuse pays
up to 16x16 (ratio 0.5 with limit 2 on puzzles/sizes/box4x4.txt). Pairwise at-most-one beats every
other encoding on every solver (glucose3: 0.26 ms; bitwise 0.45, seqcounter 0.62, ladder 1.07,
totalizer 1.8), and Glucose 3 is among the fastest solvers there and on the 25x25 board
(2.5 s, Glucose 4 2.6, CaDiCaL 1.9.5 2.7, MiniSat 8.5, MapleChrono 20; CP-SAT 5.7).

Statistics are the solver's own counters for this puzzle (``conflicts``, ``decisions``,
``propagations``, ``restarts``), the formula's size (``variables``, ``clauses``: for a reused
solver, the whole board's), the solver's name, and ``reused`` (1 when the per-shape solver was used).

Variant rules become clauses over the same cell variables: all-different rules (extra regions,
diagonals, disjoint groups, killer cages, renban lines) are at-most-one per digit; two-cell rules (kropki, XV,
non-consecutive, whispers, thermometers, palindromes, clones, renban spans, anti-knight and anti-king, minimum
and maximum cells against their neighbours) are either conflict clauses (few forbidden digit pairs) or
support clauses ("a is d implies b is one of ..."); a killer total picks one of the digit sets that make
it (a boolean per set); little killers, arrows and sandwiches are automata over the line's cells whose
states are booleans (partial sums, and before / between / after the 1 and the n for a sandwich); a
quadruple's digit listed m times is a clause "one of these cells holds it" on every 5 - m of its four
cells; given pencil marks a clause of the cell's listed digits.
"""

from __future__ import annotations

import atexit
import math
import os
import select
import signal
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import replace
from functools import cache
from itertools import combinations, pairwise
from typing import Any

from pysat.card import CardEnc, EncType
from pysat.solvers import Solver

from sudokit import (
    ALL_KINDS,
    Capabilities,
    Grid,
    OddEven,
    Result,
    Shape,
    Status,
    king_pairs,
    knight_pairs,
    orthogonal_pairs,
    undotted_pairs,
)

__all__ = ["ENCODINGS", "SOLVERS", "SatStrategy"]

#: The solvers that can be stopped from another thread (``interrupt``), by their PySAT names.
SOLVERS: tuple[str, ...] = (
    "glucose3",
    "glucose4",
    "glucose42",
    "gluecard3",
    "gluecard4",
    "maplechrono",
    "maplecm",
    "maplesat",
    "mergesat3",
    "minicard",
    "minisat22",
)
#: The encodings of "at most one" (PySAT's ``EncType`` names); lists of up to 4 are always pairwise.
ENCODINGS: tuple[str, ...] = ("pairwise", "seqcounter", "ladder", "bitwise", "totalizer", "sortnetwrk", "cardnetwrk")

_DEFAULT_SOLVER = "glucose3"
_DEFAULT_ENCODING = "pairwise"
#: Boards above this side take their own defaults, ``_BIG_SOLVER`` and ``_BIG_ENCODING`` (see the module's notes).
BIG_SIDE = 25
_BIG_SOLVER = "minisat22"
_BIG_ENCODING = "seqcounter"
#: Solvers that look at an interrupt only when they restart (or, MapleCM, not while they preprocess): on a board
#: above ``BIG_SIDE`` that can be minutes after the time limit (Glucose 3 on an empty 36x36: 7 s late every time).
LATE_STOPPERS = frozenset({"glucose3", "glucose4", "glucose42", "gluecard3", "gluecard4", "maplecm"})
#: Classic boards up to this side reuse one solver per box shape.
REUSE_MAX_SIDE = 16
#: A reused solver is rebuilt after this many activation literals (each counting puzzle takes one).
_MAX_ACTIVATIONS = 5000
#: Signals that stop a search at once so that their Python handlers run: Ctrl-C, a kill, the core's watchdog.
_STOPPING = frozenset(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGALRM") if hasattr(signal, name))


#: Every engine object, so that its kept solvers are freed before the interpreter takes PySAT's module apart
#: (a solver freed after that prints "Exception ignored in Solver.__del__" at exit).
_LIVE: weakref.WeakSet[SatStrategy] = weakref.WeakSet()


@atexit.register
def _free_kept_solvers() -> None:
    for engine in list(_LIVE):
        for reused in engine._reused.values():
            with suppress(Exception):
                reused.solver.delete()
        engine._reused.clear()


class SatStrategy:
    """PySAT: one boolean per cell and digit, exactly-one clauses per cell and per unit and digit."""

    name = "sat"
    description = "PySAT SAT solver (Glucose 3): a boolean per cell and digit, exactly-one clauses"
    #: Every board, counting and time limits; every variant kind and jigsaw.
    capabilities = Capabilities(constraints=ALL_KINDS)

    def __init__(self, solver: str | None = None, encoding: str | None = None, reuse: bool = True) -> None:
        if solver is not None and solver not in SOLVERS:
            raise ValueError(f"unknown solver {solver!r:.40} (solvers: {', '.join(SOLVERS)})")
        if encoding is not None and encoding not in ENCODINGS:
            raise ValueError(f"unknown encoding {encoding!r:.40} (encodings: {', '.join(ENCODINGS)})")
        if type(reuse) is not bool:
            raise ValueError(f"reuse must be true or false, not {reuse!r:.40}")
        self._options = {"solver": solver, "encoding": encoding, "reuse": reuse}
        #: The solver and encoding of boards up to ``BIG_SIDE``, and of bigger ones.
        self.solver = solver or _DEFAULT_SOLVER
        self.encoding = encoding or _DEFAULT_ENCODING
        self.big_solver = solver or _BIG_SOLVER
        self.big_encoding = encoding or _BIG_ENCODING
        self.reuse = reuse
        self._lock = threading.Lock()  # guards the reused solvers; a second thread builds its own
        self._reused: dict[Shape, _Reused] = {}
        _LIVE.add(self)

    def __repr__(self) -> str:
        options = self._options
        return f"SatStrategy(solver={options['solver']!r}, encoding={options['encoding']!r}, reuse={self.reuse})"

    def __getstate__(self) -> dict[str, Any]:
        return dict(self._options)

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(**state)  # type: ignore[misc]

    def solve(
        self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> Result:
        """Count up to ``limit`` solutions of ``puzzle`` within ``time_limit`` seconds, keeping the first ``keep``."""
        start = time.perf_counter()
        deadline = math.inf if time_limit is None else start + time_limit
        keep = limit if keep is None else keep
        if self.reuse and puzzle.is_classic and puzzle.shape.n <= REUSE_MAX_SIDE and self._lock.acquire(False):
            # The reused solver answers what does not depend on its history: that the puzzle has no solution,
            # or exactly one. A puzzle with several goes to a fresh solver, so that which solutions are found,
            # and in what order, depends on the puzzle alone (the same call gives the same answer every time).
            try:
                probe = self._solve_reused(puzzle, 2, 1, deadline, start)
            finally:
                self._lock.release()
            if probe.status is Status.UNSOLVABLE or probe.count == 1:
                if probe.status is Status.SOLVED and limit == 1:
                    probe = replace(probe, exact=False)
                return probe if keep else replace(probe, solutions=())
            if probe.status is Status.TIMEOUT:
                if limit == 1 and probe.count:  # the one solution asked for came before the time ran out
                    return replace(probe, status=Status.SOLVED, exact=False)
                return probe
        search = _Search(limit, keep, deadline)

        def run(solver: Solver, cnf: _Cnf) -> None:
            search.run(solver, [], cnf.cell_vars, list(puzzle.cells), cnf.digit_of, None)

        solver_name, cnf = self._fresh(puzzle, search, time_limit, run)
        extra = {"variables": cnf.top, "clauses": len(cnf.clauses), "reused": 0}
        return self._result(puzzle, search, extra, start, time_limit, solver_name)

    def _fresh(
        self, puzzle: Grid, search: _Search, time_limit: float | None, run: Callable[[Solver, _Cnf], None]
    ) -> tuple[str, _Cnf]:
        """``run`` the search on a solver of its own holding the puzzle's formula; the solver's name, the formula.

        The solver and encoding are the board's (see the module's notes). A big board's formula takes a while
        to build and load (750,000 clauses on an empty 25x25): the time limit holds there too.
        """
        solver_name, encoding = self.solver, self.encoding
        if puzzle.shape.n > BIG_SIDE:
            solver_name, encoding = self.big_solver, self.big_encoding
            if time_limit is not None and solver_name in LATE_STOPPERS:
                stops = ", ".join(s for s in SOLVERS if s not in LATE_STOPPERS)
                raise ValueError(
                    f"solver {solver_name} cannot keep a time limit on boards above {BIG_SIDE}x{BIG_SIDE} "
                    f"(it looks at the clock only when it restarts): choose one of {stops}, or no time limit"
                )
        cnf = _Cnf(encoding)
        cnf.deadline = search.deadline
        try:
            cnf.build(puzzle)
            if not cnf.unsat:
                with Solver(name=solver_name) as solver:
                    cnf.load(solver)
                    before = solver.accum_stats()
                    run(solver, cnf)
                    search.stats(before, solver.accum_stats())
        except _OutOfTime:
            search.stopped = True
        return solver_name, cnf

    def candidates(self, puzzle: Grid, *, cap: int = 1, time_limit: float | None = None) -> Result:
        """True candidates by incremental solving under assumptions: the witnesses of every (cell, digit) pair.

        One solver on the puzzle's formula. Each model found is a solution and a witness of every digit
        it places; each next solve asks, under an assumption, for a solution holding some cell variable
        with fewer than ``cap`` witnesses (and, when ``cap`` > 1, none found before): no model settles them
        all at once, so a puzzle with one solution takes two solves. A variable the givens exclude from
        the formula is a pair no solution has. The result's solutions are the witnesses (distinct),
        ``solved``, ``unsolvable`` or ``timeout`` with those found so far.
        """
        start = time.perf_counter()
        deadline = math.inf if time_limit is None else start + time_limit
        most = cap * puzzle.shape.size * puzzle.shape.n  # a witness for each pair and count up to the cap
        search = _Search(most + 1, most, deadline)

        def run(solver: Solver, cnf: _Cnf) -> None:
            search.witnesses(solver, cnf.cell_vars, cnf.top, list(puzzle.cells), cnf.digit_of, cap)

        solver_name, cnf = self._fresh(puzzle, search, time_limit, run)
        extra = {"variables": cnf.top, "clauses": len(cnf.clauses), "reused": 0, "solves": search.solves}
        result = self._result(puzzle, search, extra, start, time_limit, solver_name)
        return replace(result, exact=False) if result.status is Status.SOLVED else result

    def _solve_reused(self, puzzle: Grid, limit: int, keep: int, deadline: float, start: float) -> Result:
        shape = puzzle.shape
        reused = self._reused.get(shape)
        if reused is None or reused.activations >= _MAX_ACTIVATIONS:
            if reused is not None:
                reused.solver.delete()
            reused = self._reused[shape] = _Reused(shape, self.solver, self.encoding)
        n = shape.n
        cells = puzzle.cells
        assumptions = [i * n + v for i, v in enumerate(cells) if v]
        search = _Search(limit, keep, deadline)
        solver = reused.solver
        before = solver.accum_stats()
        try:
            search.run(solver, assumptions, reused.cell_vars, list(cells), reused.digit_of, reused.activation)
        except BaseException:
            # A Ctrl-C between two solves can leave a blocking clause unretired: start afresh next time.
            del self._reused[shape]
            solver.delete()
            raise
        search.stats(before, solver.accum_stats())
        extra = {"variables": reused.variables, "clauses": reused.clauses, "reused": 1}
        limit_left = None if deadline == math.inf else deadline - start
        return self._result(puzzle, search, extra, start, limit_left, self.solver)

    def _result(
        self,
        puzzle: Grid,
        search: _Search,
        extra: dict[str, int],
        start: float,
        time_limit: float | None,
        solver_name: str,
    ) -> Result:
        if search.stopped:
            if time_limit is None:
                raise RuntimeError("the SAT search was stopped by a signal before it answered")
            outcome, exact = Status.TIMEOUT, False
        elif search.count:
            outcome, exact = Status.SOLVED, search.count < search.limit
        else:
            outcome, exact = Status.UNSOLVABLE, True
        shape = puzzle.shape
        return Result(
            status=outcome,
            puzzle=puzzle,
            strategy=self.name,
            solutions=tuple(Grid(values, shape, validate=False) for values in search.found),
            count=search.count,
            exact=exact,
            stats={**search.counters, **extra, "solver": solver_name},
            elapsed=time.perf_counter() - start,
        )


class _Search:
    """One puzzle's search: solutions up to the limit, each blocked by a clause over the cell variables."""

    def __init__(self, limit: int, keep: int, deadline: float) -> None:
        self.limit = limit
        self.keep = keep
        self.deadline = deadline
        self.count = 0
        self.found: list[tuple[int, ...]] = []
        self.stopped = False
        self.solves = 0
        self.counters: dict[str, int] = {"conflicts": 0, "decisions": 0, "propagations": 0, "restarts": 0}

    def run(
        self,
        solver: Solver,
        assumptions: list[int],
        cell_vars: int,
        values: list[int],
        digit_of: Sequence[tuple[int, int]],
        activation: Callable[[], int] | None,
    ) -> None:
        """Solve, block, solve again... up to the limit; ``activation`` (reused solvers) guards the blocking clauses.

        Variables 1..``cell_vars`` are the cells' (``digit_of`` maps each to its cell and digit);
        ``values`` are the givens, the solution's other cells filled in from each model.
        """
        if time.perf_counter() >= self.deadline:
            self.stopped = True
            return
        act = 0
        alarm = _alarm()
        alarm.arm(solver, self.deadline)
        try:
            while self.count < self.limit:
                if alarm.fired:  # the interrupt came between two solves, where the solver does not see it
                    self.stopped = True
                    break
                answer = solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
                if answer is None:
                    self.stopped = True
                    break
                if not answer:
                    break
                chosen = [v for v in solver.get_model()[:cell_vars] if v > 0]
                self.count += 1
                if self.count <= self.keep:
                    solution = values[:]
                    for v in chosen:
                        i, d = digit_of[v]
                        solution[i] = d
                    self.found.append(tuple(solution))
                if self.count < self.limit:
                    block = [-v for v in chosen]
                    if activation is not None:
                        if not act:
                            act = activation()
                            assumptions = [*assumptions, act]
                        block.append(-act)
                    solver.add_clause(block)
        finally:
            alarm.disarm()
            solver.clear_interrupt()
            if act:
                solver.add_clause([-act])  # retire this puzzle's blocking clauses for good

    def witnesses(
        self, solver: Solver, cell_vars: int, top: int, values: list[int], digit_of: Sequence[tuple[int, int]], cap: int
    ) -> None:
        """Solutions until no other solution holds a cell variable with fewer than ``cap`` of them (``candidates``).

        After the first solve, each solve asks for a solution holding one of those variables: a clause of them
        all, guarded by a fresh activation literal (assumed for that solve, then set false for good). With
        ``cap`` > 1 each solution found is blocked, so that the next is another one.
        """
        if time.perf_counter() >= self.deadline:
            self.stopped = True
            return
        held = [0] * (cell_vars + 1)
        alarm = _alarm()
        alarm.arm(solver, self.deadline)
        act = 0
        try:
            while True:
                if alarm.fired:
                    self.stopped = True
                    return
                assumptions = []
                if self.solves:
                    wanted = [v for v in range(1, cell_vars + 1) if held[v] < cap]
                    if not wanted:
                        return
                    top += 1
                    act = top
                    solver.add_clause([-act, *wanted])
                    assumptions = [act]
                self.solves += 1
                answer = solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
                if act:
                    solver.add_clause([-act])
                if not answer:  # None: interrupted; False: no solution (left)
                    self.stopped = answer is None
                    return
                chosen = [v for v in solver.get_model()[:cell_vars] if v > 0]
                solution = values[:]
                for v in chosen:
                    i, d = digit_of[v]
                    solution[i] = d
                    held[v] += 1
                self.count += 1
                self.found.append(tuple(solution))
                if cap > 1:
                    solver.add_clause([-v for v in chosen])
        finally:
            alarm.disarm()
            solver.clear_interrupt()

    def stats(self, before: dict[str, int], after: dict[str, int]) -> None:
        """The solver's counters for this search: ``after`` less ``before``."""
        for key in self.counters:
            self.counters[key] = after.get(key, 0) - before.get(key, 0)


class _Reused:
    """A solver holding every clause of a box shape's classic board; givens come as assumptions.

    Variable ``i * n + d`` says cell ``i`` holds digit ``d`` (1..n); activation literals follow.
    """

    def __init__(self, shape: Shape, name: str, encoding: str) -> None:
        n = shape.n
        cnf = _Cnf(encoding)
        cnf.full_board(shape)
        self.cell_vars = cnf.cell_vars
        self.digit_of = cnf.digit_of
        self.variables = cnf.top
        self.clauses = len(cnf.clauses)
        self.solver = Solver(name=name, bootstrap_with=cnf.clauses)
        self.top = max(cnf.top, n * n * n)
        self.activations = 0

    def activation(self) -> int:
        """A fresh activation literal."""
        self.top += 1
        self.activations += 1
        return self.top


# --- the watcher ------------------------------------------------------------------------------------------


class _Alarm:
    """A thread that interrupts the running solve at its deadline, or when a stopping signal arrives.

    One per process, started on first use; it sleeps in ``select`` on a pipe until the deadline.
    ``arm`` writes a byte to wake it (a new deadline); in the main thread the pipe is also the signal
    wakeup fd, so Python's signal handler writes each signal's number there while a search runs.
    """

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.read, self.write = os.pipe()
        if hasattr(os, "set_blocking"):  # not on Windows before Python 3.12 (arm's byte a solve fits in any pipe)
            os.set_blocking(self.write, False)
        self.lock = threading.Lock()
        self.solver: Solver | None = None
        self.deadline = math.inf
        self.fired = False  # the armed solve was interrupted
        self.forward = -1  # the wakeup fd set before ours (asyncio's, say): it gets every signal too
        self.previous: int | None = None
        threading.Thread(target=self._run, name="sat watcher", daemon=True).start()

    def arm(self, solver: Solver, deadline: float) -> None:
        """Watch ``solver`` until ``disarm``: interrupt it at ``deadline`` (perf_counter seconds) or on a signal."""
        with self.lock:
            self.solver, self.deadline, self.fired = solver, deadline, False
        if os.name == "posix" and threading.current_thread() is threading.main_thread():
            with suppress(ValueError):
                self.previous = signal.set_wakeup_fd(self.write, warn_on_full_buffer=False)
                self.forward = self.previous
        if deadline != math.inf:
            with suppress(BlockingIOError):
                os.write(self.write, b"\0")

    def disarm(self) -> None:
        """Stop watching; the solver is not interrupted after this returns."""
        with self.lock:
            self.solver = None
        if self.previous is not None:
            signal.set_wakeup_fd(self.previous)
            self.previous = None
            self.forward = -1

    def _run(self) -> None:
        while True:
            with self.lock:
                deadline = self.deadline if self.solver is not None and not self.fired else math.inf
            wait = None if deadline == math.inf else min(max(deadline - time.perf_counter(), 0.0), 3600.0)
            ready, _, _ = select.select([self.read], [], [], wait)
            stop = False
            if ready:
                data = os.read(self.read, 512)
                signals = data.replace(b"\0", b"")
                forward = self.forward
                if signals and forward != -1:
                    with suppress(OSError):
                        os.write(forward, signals)
                stop = not _STOPPING.isdisjoint(signals)
            with self.lock:
                solver = self.solver
                if solver is not None and not self.fired and (stop or time.perf_counter() >= self.deadline):
                    self.fired = True
                    solver.interrupt()


_alarms: list[_Alarm] = []


def _alarm() -> _Alarm:
    """This process's watcher (a forked child has a copy of its parent's, without the thread)."""
    if not _alarms or _alarms[0].pid != os.getpid():
        _alarms[:] = [_Alarm()]
    return _alarms[0]


# --- the formula ------------------------------------------------------------------------------------------


class _OutOfTime(Exception):
    """The time limit came while the formula was being built or loaded."""


#: Clauses loaded into a solver between two looks at the clock.
_LOAD_CHUNK = 20_000


class _Cnf:
    """A CNF under construction: cell variables first (1..cell_vars), then any auxiliary ones."""

    def __init__(self, encoding: str) -> None:
        self.deadline = math.inf
        self.encoding = encoding
        self.top = 0
        self.cell_vars = 0
        self.clauses: list[list[int]] = []
        self.digit_of: list[tuple[int, int]] = [(-1, 0)]  # variable -> (cell, digit)
        self.unsat = False

    def new_var(self) -> int:
        """A fresh auxiliary variable."""
        self.top += 1
        return self.top

    def check_time(self) -> None:
        """Raise ``_OutOfTime`` past the deadline."""
        if time.perf_counter() >= self.deadline:
            raise _OutOfTime

    def build(self, puzzle: Grid) -> None:
        """The puzzle's formula: the classic rules simplified by the givens, or the variant's cells, units and rules."""
        if puzzle.is_classic:
            self.classic(puzzle)
        else:
            self.variant(puzzle)

    def load(self, solver: Solver) -> None:
        """Load the clauses into ``solver`` a chunk at a time, looking at the clock between chunks."""
        clauses = self.clauses
        for k in range(0, len(clauses), _LOAD_CHUNK):
            self.check_time()
            solver.append_formula(clauses[k : k + _LOAD_CHUNK])

    def exactly_one(self, lits: Sequence[int]) -> None:
        """At least one and at most one of ``lits``."""
        if not lits:
            self.unsat = True
            return
        self.clauses.append(list(lits))
        self.at_most_one(lits)

    def at_most_one(self, lits: Sequence[int]) -> None:
        """At most one of ``lits``, in the chosen encoding."""
        if len(lits) < 2:
            return
        if self.encoding == "pairwise" or len(lits) <= 4:
            self.clauses.extend([-a, -b] for a, b in combinations(lits, 2))
            return
        enc = CardEnc.atmost(list(lits), 1, top_id=self.top, encoding=getattr(EncType, self.encoding))
        self.top = max(self.top, enc.nv)
        self.clauses.extend(enc.clauses)

    def full_board(self, shape: Shape) -> None:
        """The classic rules of an empty board of ``shape``: variable ``i * n + d`` is cell ``i`` holding ``d``."""
        n = shape.n
        self.top = self.cell_vars = n * n * n
        self.digit_of = [(-1, 0)] + [(i, d) for i in range(n * n) for d in range(1, n + 1)]
        for i in range(n * n):
            self.exactly_one(range(i * n + 1, i * n + n + 1))
        for unit in shape.units:
            for d in range(1, n + 1):
                self.exactly_one([i * n + d for i in unit])

    def classic(self, puzzle: Grid) -> None:
        """The classic rules, simplified by the givens: variables only for the digits no given's peer excludes."""
        shape = puzzle.shape
        n = shape.n
        cells = puzzle.cells
        row_of, col_of, box_of = shape.row_of, shape.col_of, shape.box_of
        used = [0] * (3 * n)  # the digits placed in each row, column and box, as bit masks
        for i, v in enumerate(cells):
            if v:
                bit = 1 << (v - 1)
                r, c, b = row_of[i], n + col_of[i], 2 * n + box_of[i]
                if (used[r] | used[c] | used[b]) & bit:
                    self.unsat = True  # a digit twice in a unit
                    return
                used[r] |= bit
                used[c] |= bit
                used[b] |= bit
        full = (1 << n) - 1
        places: list[list[int]] = [[] for _ in range(3 * n * n)]  # (unit, digit) -> its variables
        digit_of = self.digit_of
        cell_lits: list[list[int]] = []
        top = 0
        for i, v in enumerate(cells):
            if v:
                continue
            r, c, b = row_of[i], n + col_of[i], 2 * n + box_of[i]
            free = full & ~(used[r] | used[c] | used[b])
            if not free:
                self.unsat = True
                return
            lits = []
            d = 0
            while free:
                if free & 1:
                    top += 1
                    lits.append(top)
                    digit_of.append((i, d + 1))
                    places[r * n + d].append(top)
                    places[c * n + d].append(top)
                    places[b * n + d].append(top)
                free >>= 1
                d += 1
            cell_lits.append(lits)
        self.top = self.cell_vars = top
        for k, lits in enumerate(cell_lits):
            if not k % 64:
                self.check_time()
            self.exactly_one(lits)
        for u in range(3 * n):
            self.check_time()
            missing = full & ~used[u]
            d = 0
            while missing:
                if missing & 1:
                    self.exactly_one(places[u * n + d])
                missing >>= 1
                d += 1

    # --- variant puzzles ----------------------------------------------------------------------------------

    def variant(self, puzzle: Grid) -> None:
        """The cells of ``puzzle`` (givens and parity clues cut their digits), its units, then each rule's clauses.

        ``self.x[i]`` maps each digit cell ``i`` may hold to its variable; a digit absent is false.
        """
        n = puzzle.shape.n
        cells = puzzle.cells
        units = puzzle.units
        units_of: list[list[int]] = [[] for _ in cells]
        for k, unit in enumerate(units):
            for i in unit:
                units_of[i].append(k)
        taken: list[set[int]] = [set() for _ in units]  # the digits the givens place in each unit
        for i, v in enumerate(cells):
            if v:
                for k in units_of[i]:
                    if v in taken[k]:
                        self.unsat = True  # a digit twice in a unit
                        return
                    taken[k].add(v)
        domains: list[set[int]] = []
        for i, v in enumerate(cells):
            if v:
                domains.append({v})
            else:
                domains.append(set(range(1, n + 1)).difference(*(taken[k] for k in units_of[i])))
        for rule in puzzle.constraints:
            if isinstance(rule, OddEven):
                i = rule.indexes(n)[0]
                domains[i] &= set(range(1 if rule.parity == "odd" else 2, n + 1, 2))
        self.n = n
        self.x: list[dict[int, int]] = []
        for i, digits in enumerate(domains):
            lits = {}
            for d in sorted(digits):
                self.top += 1
                lits[d] = self.top
                self.digit_of.append((i, d))
            self.x.append(lits)
        self.cell_vars = self.top
        for lits in self.x:
            self.exactly_one(list(lits.values()))
        for unit in units:
            for d in range(1, n + 1):
                self.exactly_one([self.x[i][d] for i in unit if d in self.x[i]])
        for rule in puzzle.constraints:
            _RULES[rule.kind](self, rule, puzzle)

    def all_different(self, cells: Sequence[int]) -> None:
        """The cells hold different digits (each digit exactly once when there are n cells)."""
        x = self.x
        for d in range(1, self.n + 1):
            lits = [x[i][d] for i in cells if d in x[i]]
            if len(cells) == self.n:
                self.exactly_one(lits)
            else:
                self.at_most_one(lits)

    def relation(self, a: int, b: int, ok: Callable[[int, int], bool]) -> None:
        """Cells ``a`` and ``b`` hold digits that ``ok`` accepts: conflict clauses when few pairs are forbidden,
        else support clauses both ways (``a`` is ``d`` implies ``b`` is one of the digits ``ok`` pairs with it)."""
        xa, xb = self.x[a], self.x[b]
        forbidden = [(d, e) for d in xa for e in xb if not ok(d, e)]
        if not forbidden:
            return
        clauses = self.clauses
        if len(forbidden) <= len(xa) + len(xb):
            clauses.extend([-xa[d], -xb[e]] for d, e in forbidden)
            return
        for d, lit in xa.items():
            support = [xb[e] for e in xb if ok(d, e)]
            if len(support) < len(xb):
                clauses.append([-lit, *support])
        for e, lit in xb.items():
            support = [xa[d] for d in xa if ok(d, e)]
            if len(support) < len(xa):
                clauses.append([-lit, *support])

    def automaton(
        self, cells: Sequence[int], step: Callable[[int, Any, int], Any], start: Any, accept: Callable[[Any], bool]
    ) -> None:
        """The digits of ``cells``, read in order by an automaton from ``start``, end in a state ``accept`` takes.

        ``step(k, state, digit)`` is the next state after the k-th cell (None: no way on). The states
        that can be reached and can still reach an accepting state each get a boolean (the start is
        true); clauses say that a state and a digit imply the next state, or are impossible.
        """
        x = self.x
        layers: list[set[Any]] = [{start}]
        for k, i in enumerate(cells):
            layers.append({t for s in layers[-1] for d in x[i] if (t := step(k, s, d)) is not None})
        layers[-1] = {s for s in layers[-1] if accept(s)}
        for k in range(len(cells) - 1, -1, -1):  # keep the states that lead to an accepting one
            i, after = cells[k], layers[k + 1]
            layers[k] = {s for s in layers[k] if any(step(k, s, d) in after for d in x[i])}
        if not layers[0]:
            self.unsat = True
            return
        state_vars: list[dict[Any, int]] = [{start: 0}]  # 0: the start, always true
        for layer in layers[1:]:
            state_vars.append({s: self.new_var() for s in layer})
        clauses = self.clauses
        for k, i in enumerate(cells):
            here, there = state_vars[k], state_vars[k + 1]
            for s, sv in here.items():
                pre = [-sv] if sv else []
                for d, lit in x[i].items():
                    t = step(k, s, d)
                    if t in there:
                        clauses.append([*pre, -lit, there[t]])
                    else:
                        clauses.append([*pre, -lit])
            if k + 1 < len(cells):
                self.clauses.append(list(there.values()))


# --- the rules --------------------------------------------------------------------------------------------


def _extra_region(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
    cnf.all_different(rule.indexes(puzzle.shape.n))


def _disjoint_groups(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
    for group in rule.groups(puzzle.shape):
        cnf.all_different(group)


def _diagonal(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
    n = puzzle.shape.n
    cnf.all_different([r * n + c for r, c in rule.diagonal_cells(n)])


def _killer(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
    """Different digits; a total picks one of the digit sets that make it (a boolean per set), or an automaton."""
    n = puzzle.shape.n
    cage = rule.indexes(n)
    cnf.all_different(cage)
    if rule.total is None:
        return
    sets = _digit_sets(n, len(cage), rule.total)
    if sets is None:
        _sum_automaton(cnf, [(i, 1) for i in cage], rule.total)
        return
    if not sets:
        cnf.unsat = True
        return
    x = cnf.x
    chosen = {s: cnf.new_var() for s in sets}
    cnf.clauses.append(list(chosen.values()))
    for s, sv in chosen.items():
        for i in cage:
            cnf.clauses.extend([-sv, -lit] for d, lit in x[i].items() if d not in s)
    for i in cage:
        for d, lit in x[i].items():
            cnf.clauses.append([-lit, *(sv for s, sv in chosen.items() if d in s)])


@cache
def _digit_sets(n: int, size: int, total: int) -> tuple[frozenset[int], ...] | None:
    """The sets of ``size`` different digits 1..n summing to ``total``; None when too many to list."""
    if math.comb(n, size) > 5_000:
        return None
    return tuple(frozenset(c) for c in combinations(range(1, n + 1), size) if sum(c) == total)


def _sum_automaton(cnf: _Cnf, terms: list[tuple[int, int]], total: int) -> None:
    """``sum(coefficient * digit)`` over ``terms`` (cell, coefficient) equals ``total``: partial sums as states."""
    n = cnf.n
    low = [0] * (len(terms) + 1)  # the least and greatest sums the remaining terms can add
    high = [0] * (len(terms) + 1)
    for k in range(len(terms) - 1, -1, -1):
        c = terms[k][1]
        low[k] = low[k + 1] + min(c, c * n)
        high[k] = high[k + 1] + max(c, c * n)

    def step(k: int, s: int, d: int) -> int | None:
        t = s + terms[k][1] * d
        return t if low[k + 1] <= total - t <= high[k + 1] else None

    cnf.automaton([i for i, _ in terms], step, 0, lambda s: s == total)


def _little_killer(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
    _sum_automaton(cnf, [(i, 1) for i in rule.indexes(puzzle.shape.n)], rule.total)


def _arrow(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
    """The arrow's sum less its circle (``a`` or ``10*a + b``) is 0."""
    n = puzzle.shape.n
    circle = [r * n + c for r, c in rule.circle]
    weights = [-1] if len(circle) == 1 else [-10, -1]
    terms = [(r * n + c, 1) for r, c in rule.cells] + list(zip(circle, weights, strict=True))
    _sum_automaton(cnf, terms, 0)


def _sandwich(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
    """An automaton along the line: before the first end (1 or n), between the ends with the sum so far, after."""
    n = puzzle.shape.n
    total = rule.total
    line = [r * n + c for r, c in rule.line_cells(n)]

    def step(k: int, state: tuple[int, int], d: int) -> tuple[int, int] | None:
        phase, s = state
        end = d in (1, n)
        if phase == 0:
            return (1, 0) if end else state
        if phase == 1:
            if end:
                return (2, s) if s == total else None
            return (1, s + d) if s + d <= total else None
        return None if end else state

    cnf.automaton(line, step, (0, 0), lambda state: state[0] == 2)


def _x_sum(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
    """An automaton along the line from the clue: the first digit X, then the sum so far while X cells are not read."""
    n = puzzle.shape.n
    total = rule.total
    line = [r * n + c for r, c in rule.line_cells(n)]

    def step(k: int, state: tuple[int, int], d: int) -> tuple[int, int] | None:
        count, s = state  # count: the cells of the sum still to read (from the first digit on)
        if k == 0:
            count = d
        if count == 0:
            return state
        s += d
        return (count - 1, s) if s <= total else None

    cnf.automaton(line, step, (0, 0), lambda state: state == (0, total))


def _skyscraper(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
    """An automaton along the line from the clue: the tallest digit so far and how many were seen."""
    n = puzzle.shape.n
    count = rule.count
    line = [r * n + c for r, c in rule.line_cells(n)]

    def step(k: int, state: tuple[int, int], d: int) -> tuple[int, int] | None:
        tallest, seen = state
        if d < tallest:
            return state
        return (d, seen + 1) if seen < count else None

    cnf.automaton(line, step, (0, 0), lambda state: state[1] == count)


def _indexer(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
    """Each indexer cell holding a digit implies its target's value: a relation on the two cells."""
    for i, d, target, value in rule.links(puzzle):
        cnf.relation(i, target, _implies(d, value))


def _implies(d: int, value: int) -> Callable[[int, int], bool]:
    """The pairs of digits where the first being ``d`` makes the second ``value``."""
    return lambda a, b: a != d or b == value


def _pair_rule(ok: Callable[[int, int], bool]) -> Callable[[_Cnf, Any, Grid], None]:
    """A rule on its two cells."""

    def add(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
        a, b = rule.indexes(puzzle.shape.n)
        cnf.relation(a, b, ok)

    return add


def _line_rule(ok: Callable[[int, int], bool]) -> Callable[[_Cnf, Any, Grid], None]:
    """A rule on each two neighbours along a line."""

    def add(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
        for a, b in pairwise(rule.indexes(puzzle.shape.n)):
            cnf.relation(a, b, ok)

    return add


def _kropki(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
    a, b = rule.indexes(puzzle.shape.n)
    cnf.relation(a, b, rule.holds)


def _xv(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
    a, b = rule.indexes(puzzle.shape.n)
    total = rule.total
    cnf.relation(a, b, lambda d, e: d + e == total)


def _whisper(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
    difference = rule.difference
    _line_rule(lambda d, e: abs(d - e) >= difference)(cnf, rule, puzzle)


def _palindrome(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
    line = rule.indexes(puzzle.shape.n)
    for k in range(len(line) // 2):
        cnf.relation(line[k], line[-1 - k], lambda d, e: d == e)


def _quadruple(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
    """A digit listed ``m`` times is in at least ``m`` of the four cells: every ``5 - m`` of them hold it once."""
    square = rule.indexes(puzzle.shape.n)
    x = cnf.x
    for d in set(rule.digits):
        want = rule.digits.count(d)
        for some in combinations(square, len(square) - want + 1):
            clause = [x[i][d] for i in some if d in x[i]]
            if not clause:  # none of these cells may hold it
                cnf.unsat = True
                return
            cnf.clauses.append(clause)


def _pencil_marks(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
    """The cell holds one of the listed digits: a clause of them (a digit its domain lost is false)."""
    (i,) = rule.indexes(puzzle.shape.n)
    clause = [lit for d, lit in cnf.x[i].items() if d in rule.digits]
    if not clause:
        cnf.unsat = True
        return
    cnf.clauses.append(clause)


def _min_max(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
    """The cell against each orthogonal neighbour (but other minimum (maximum) cells): a pair rule."""
    n = puzzle.shape.n
    (i,) = rule.indexes(n)
    for r, c in rule.compared(puzzle):
        cnf.relation(i, r * n + c, rule.holds)


def _clone(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
    for a, b in rule.pairs(puzzle.shape.n):
        cnf.relation(a, b, lambda d, e: d == e)


def _between_line(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
    """The ends at least 2 apart; a digit between and the ends' digits that do not bracket it: a conflict clause."""
    line = rule.indexes(puzzle.shape.n)
    a, b = line[0], line[-1]
    cnf.relation(a, b, lambda d, e: abs(d - e) >= 2)
    xa, xb, clauses = cnf.x[a], cnf.x[b], cnf.clauses
    for i in line[1:-1]:
        cnf.relation(a, i, lambda d, e: d != e)
        cnf.relation(b, i, lambda d, e: d != e)
        for m, lit in cnf.x[i].items():
            clauses.extend(
                [-xa[d], -xb[e], -lit] for d in xa for e in xb if abs(d - e) >= 2 and not min(d, e) < m < max(d, e)
            )


def _region_sum_line(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
    """Each segment after the first, less the first, sums to 0 (an automaton over the two)."""
    n = puzzle.shape.n
    first, *others = [[r * n + c for r, c in segment] for segment in rule.segments(puzzle)]
    for segment in others:
        _sum_automaton(cnf, [(i, 1) for i in segment] + [(i, -1) for i in first], 0)


def _groups_apart(group: Callable[[int, int], int]) -> Callable[[_Cnf, Any, Grid], None]:
    """Cells one or two apart along a line hold digits of different groups (``group(n, digit)``)."""

    def add(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
        n = puzzle.shape.n
        line = rule.indexes(n)
        for k in range(len(line) - 1):
            for b in line[k + 1 : k + 3]:
                cnf.relation(line[k], b, lambda d, e: group(n, d) != group(n, e))

    return add


def _zipper_terms(rule: Any, n: int) -> list[list[tuple[int, int]]]:
    """Zipper lines: each pair the same distance from the centre less the centre cell (odd length) or less the
    outermost pair, as terms (cell, coefficient) summing to 0."""
    pairs, centre = rule.zips()
    sums = [[(a[0] * n + a[1], 1), (b[0] * n + b[1], 1)] for a, b in pairs]
    total = [(centre[0][0] * n + centre[0][1], -1)] if centre else [(i, -1) for i, _ in sums[0]]
    return [s + total for s in (sums if centre else sums[1:])]


def _zipper_line(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
    for terms in _zipper_terms(rule, puzzle.shape.n):
        _sum_automaton(cnf, terms, 0)


def _lockout_line(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
    """The ends ``difference`` apart; a digit between and the ends' digits that bracket it (inclusive): a conflict."""
    line = rule.indexes(puzzle.shape.n)
    a, b, gap = line[0], line[-1], rule.difference
    cnf.relation(a, b, lambda d, e: abs(d - e) >= gap)
    xa, xb, clauses = cnf.x[a], cnf.x[b], cnf.clauses
    for i in line[1:-1]:
        for m, lit in cnf.x[i].items():
            clauses.extend(
                [-xa[d], -xb[e], -lit] for d in xa for e in xb if abs(d - e) >= gap and min(d, e) <= m <= max(d, e)
            )


def _nabner_line(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
    for a, b in combinations(rule.indexes(puzzle.shape.n), 2):
        cnf.relation(a, b, lambda d, e: abs(d - e) >= 2)


def _double_arrow(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
    """The cells between less the two ends sum to 0."""
    line = rule.indexes(puzzle.shape.n)
    _sum_automaton(cnf, [(i, 1) for i in line[1:-1]] + [(line[0], -1), (line[-1], -1)], 0)


def _renban(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
    """Different digits, no two further apart than the line is long: then they are a run."""
    line = rule.indexes(puzzle.shape.n)
    cnf.all_different(line)
    span = len(line) - 1
    for a, b in combinations(line, 2):
        cnf.relation(a, b, lambda d, e: abs(d - e) <= span)


def _global_pairs(pairs: Callable[[int], tuple[tuple[int, int], ...]], ok: Callable[[int, int], bool]) -> Any:
    """A rule on every pair of ``pairs(n)`` (anti-knight and anti-king skip the pairs a region keeps apart)."""

    def add(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
        region_of = puzzle.region_of
        for a, b in pairs(puzzle.shape.n):
            if region_of[a] != region_of[b]:
                cnf.relation(a, b, ok)

    return add


def _negative(kind: str, ok: Callable[[int, int], bool]) -> Any:
    """The negative rule of ``kind``'s clues: every undotted orthogonal pair keeps ``ok``."""

    def add(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
        for a, b in undotted_pairs(puzzle, kind):
            cnf.relation(a, b, ok)

    return add


def _kropki_negative(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
    """Every pair without a dot (of the rule's colour, when it has one) keeps the rule's relation."""
    for a, b in rule.pairs(puzzle):
        cnf.relation(a, b, rule.holds)


def _non_consecutive(cnf: _Cnf, rule: Any, puzzle: Grid) -> None:
    for a, b in orthogonal_pairs(puzzle.shape.n):
        cnf.relation(a, b, lambda d, e: abs(d - e) != 1)


#: The clauses of each rule kind (parity clues cut the cells' digits before the rules).
_RULES: dict[str, Callable[[_Cnf, Any, Grid], None]] = {
    "extra-region": _extra_region,
    "diagonal": _diagonal,
    "anti-knight": _global_pairs(knight_pairs, lambda d, e: d != e),
    "anti-king": _global_pairs(king_pairs, lambda d, e: d != e),
    "non-consecutive": _non_consecutive,
    "killer": _killer,
    "little-killer": _little_killer,
    "sandwich": _sandwich,
    "x-sum": _x_sum,
    "skyscraper": _skyscraper,
    "indexer": _indexer,
    "thermometer": _line_rule(lambda d, e: d < e),
    "slow-thermometer": _line_rule(lambda d, e: d <= e),
    "arrow": _arrow,
    "kropki": _kropki,
    "kropki-negative": _kropki_negative,
    "xv": _xv,
    "xv-negative": _negative("xv", lambda d, e: d + e not in (5, 10)),
    "odd-even": lambda cnf, rule, puzzle: None,
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
    "entropic-line": _groups_apart(lambda n, d: (d - 1) * 3 // n),
    "modular-line": _groups_apart(lambda n, d: d % 3),
    "zipper-line": _zipper_line,
    "lockout-line": _lockout_line,
    "nabner-line": _nabner_line,
    "double-arrow": _double_arrow,
}
