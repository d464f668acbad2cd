"""``backtrack``: the LeetCode 37 write-ups' recursive backtracker, with bit masks and singles.

The write-ups fill the board recursively: pick an empty cell, try each digit that the row, column
and box "used" tables allow, recurse, and undo the placement when nothing below it works. This
engine keeps that shape and makes it fast:

* the used tables are int bit masks (bit d-1 stands for digit d), one per row, column and box;
* every blank cell keeps its candidate mask, narrowed as its peers are filled;
* singles are placed before guessing: a cell with one candidate (naked single) and a digit with one
  place left in a row, column or box (hidden single);
* the cell with the fewest candidates is the one guessed on.

Boards of 16x16 and more, where singles leave too much to guessing, take two more steps
(``inference="auto"``; ``"strong"`` forces them on any classic board, ``"singles"`` leaves them out):

* locked candidates: a digit whose places in a box lie on one line leaves the rest of that line, and
  a digit whose places on a line lie in one box leaves the rest of that box;
* a look-ahead on the cells with two candidates: each digit is tried with its singles; one that
  fails cannot be the cell's (the other is placed), and the cell whose two tries removed the most
  candidates is the one guessed on, the try that removed fewer first.

On 9x9 they cost more than they save, so classic 9x9 puzzles run the search above as it was.

From 25x25 up, a search that has failed 100 guesses without a solution starts again from the root with
clause learning (``inference="learn"`` starts with it on any classic board): the literals are "cell c
holds digit d", propagated by the singles and locked candidates above with the reason of each
deduction kept; a conflict is analysed to a learned clause (first unique implication point, minimised)
and the search jumps back to where that clause asserts a literal; branching on the most active
literal (VSIDS) with saved phases, Luby restarts, and learned clauses halved by LBD. A hard 25x25 that
the search above does not finish in minutes takes it some 19,000 conflicts. Counting goes on past a
solution by the clause "not all of its decisions", and is exact when a conflict is left at the root.

``order="plain"`` runs the write-ups' search exactly: the first empty cell in reading order, digits
in increasing order, no singles, so the two can be compared on the same puzzle (``--stats``).

Variant puzzles (``sudokit.variants``) take the same search through one hook: every rule is lowered,
once, into what placing a digit already does. All-different rules (a jigsaw's regions, extra
regions, diagonals, killer cages, renban lines, anti-knight and anti-king) become more peers; rules
between two cells (non-consecutive, kropki, XV and their negatives, thermometers, whispers,
palindromes) become pair tables that narrow the partner's candidates whenever a cell's candidates
narrow; rules over many cells (killer and little killer totals, arrows, sandwiches, renban runs) are
small propagators run when one of their cells changes: the digit sets a cage or a renban line can
still hold (a digit all of them need leaves the cells that see the whole cage), the sums a line or
an arrow can still reach, where the 1 and the n of a sandwich can still go. Killer cages also give
the units they cover a rule for the cells they leave (the "45 rule"). Hidden singles look at every
all-different unit of n cells; among the cells of fewest candidates, the one the most rules touch
(and that failed most often) is guessed on. Classic puzzles never see any of it: they run the search
above, unchanged.

Solutions are counted up to ``limit`` and only the first ``keep`` are stored, so counting a board
with millions of solutions takes no memory.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from functools import cache
from heapq import heapify, heappop, heappush
from itertools import combinations, pairwise
from operator import itemgetter
from typing import Literal

from sudokit import Capabilities, Grid, Result, Shape, Status

__all__ = ["BacktrackStrategy"]

#: Boards of this side and more get locked candidates (``inference="auto"``): on 9x9 they cost more than they save.
_BIG_SIDE = 16
#: Boards of this side and more turn to clause learning (``inference="auto"``) when the search has failed
#: ``_LEARN_AFTER`` guesses without a solution: it solves three of the five 25x25 of puzzles/sizes within that,
#: the learning search is faster on the fourth, and the first needs it (19,000 conflicts). An empty board,
#: whose search goes deep but seldom fails, keeps the search.
_LEARN_SIDE = 25
_LEARN_AFTER = 100
_DECAY = 0.95  # the learning search's activities decay by this at each conflict (VSIDS)
_RESTART_UNIT = 100  # conflicts: the restarts are this times the Luby sequence
_FIRST_REDUCE, _MORE_REDUCE = 2000, 1000  # learned clauses kept before halving them, and the step after each
_PLAIN_DEADLINE_EVERY = 4095  # the plain order's nodes take ~1 us: look at the clock every 4096


class _Stop(Exception):
    """The limit of solutions was reached."""


class _Timeout(Exception):
    """The time limit ran out."""


class _Learn(Exception):
    """The big-board search failed its guesses without a solution: clause learning takes over."""


class BacktrackStrategy:
    """Recursive backtracking with bit-mask used tables, fewest-candidates-first and singles."""

    name = "backtrack"
    #: The default order's description (what ``sudoku strategies`` reads without loading the engine).
    description = "recursive backtracking: bit-mask used tables, singles first, fewest-candidates cell"
    #: Boards up to 36x36: from 16x16 up the search adds locked candidates (benchmarks/bench_backtrack_sizes.py
    #: times puzzles/sizes). Every variant kind of sudokit.variants (benchmarks/bench_backtrack_variants.py
    #: times the 9x9 ones).
    capabilities = Capabilities(
        max_side=36,
        constraints=frozenset(
            {
                "jigsaw",
                "extra-region",
                "diagonal",
                "anti-knight",
                "anti-king",
                "non-consecutive",
                "killer",
                "little-killer",
                "sandwich",
                "thermometer",
                "slow-thermometer",
                "arrow",
                "kropki",
                "kropki-negative",
                "xv",
                "xv-negative",
                "odd-even",
                "renban",
                "whisper",
                "palindrome",
            }
        ),
    )

    def __init__(
        self,
        order: Literal["smart", "plain"] = "smart",
        inference: Literal["auto", "singles", "strong", "learn"] = "auto",
    ) -> None:
        if order not in ("smart", "plain"):
            raise ValueError(f"order must be 'smart' or 'plain', not {order!r}")
        if inference not in ("auto", "singles", "strong", "learn"):
            raise ValueError(f"inference must be 'auto', 'singles', 'strong' or 'learn', not {inference!r}")
        self.order = order
        self.inference = inference
        if order == "plain":
            self.description = "the write-ups' plain backtracker: first empty cell, digits in order, no singles"
            #: The plain order guesses blindly: boards up to 9x9 (hard ones take seconds).
            self.capabilities = Capabilities(max_side=9)

    def __repr__(self) -> str:
        extra = "" if self.inference == "auto" else f", inference={self.inference!r}"
        return f"BacktrackStrategy(order={self.order!r}{extra})"

    def solve(
        self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> Result:
        """Count up to ``limit`` solutions of ``puzzle`` within ``time_limit`` seconds, keeping the first ``keep``."""
        start = time.perf_counter()
        deadline = None if time_limit is None else start + time_limit
        if self.order == "plain":
            search: type[_PlainSearch] | type[_Search] = _PlainSearch
        elif not puzzle.is_classic:
            search = _VariantSearch
        elif self.inference in ("strong", "learn") or (self.inference == "auto" and puzzle.n >= _BIG_SIDE):
            search = _BigSearch
        else:
            search = _Search
        keep = limit if keep is None else keep
        if search is _BigSearch:  # clause learning: at once, or from 25x25 up
            learn_after = 0 if self.inference == "learn" else None
            if self.inference == "auto" and puzzle.n >= _LEARN_SIDE:
                learn_after = _LEARN_AFTER
            engine: _Base = _BigSearch(puzzle, limit, deadline, keep, learn_after)
        else:
            engine = search(puzzle, limit, deadline, keep)
        status = Status.SOLVED
        exact = False
        old_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old_limit, 4 * puzzle.shape.size + 1000))
        try:
            engine.run()
            exact = True
        except _Stop:
            pass
        except _Timeout:
            status = Status.TIMEOUT
        finally:
            sys.setrecursionlimit(old_limit)
        if status is Status.SOLVED and not engine.count:
            status = Status.UNSOLVABLE
        solutions = tuple(Grid(cells, puzzle.shape, validate=False) for cells in engine.solutions)
        return Result(
            status=status,
            puzzle=puzzle,
            strategy=self.name,
            solutions=solutions,
            count=engine.count,
            exact=exact,
            stats=engine.stats(),
            elapsed=time.perf_counter() - start,
        )


class _Base:
    """What both searches keep: the puzzle, the limits, the solutions found (the first ``keep``), the counters."""

    def __init__(self, puzzle: Grid, limit: int, deadline: float | None, keep: int) -> None:
        self.puzzle = puzzle
        self.n = puzzle.shape.n
        self.limit = limit
        self.deadline = deadline
        self.keep = keep
        self.count = 0  # solutions found; only the first ``keep`` are stored, so counting takes no memory
        self.solutions: list[tuple[int, ...]] = []
        self.nodes = self.guesses = self.backtracks = self.max_depth = 0

    def found(self, cells: tuple[int, ...]) -> None:
        """Count a solution (keeping it while fewer than ``keep`` are kept); stop the search at the limit."""
        self.count += 1
        if self.count <= self.keep:
            self.solutions.append(cells)
        if self.count >= self.limit:
            raise _Stop

    def stats(self) -> dict[str, int]:
        return {
            "nodes": self.nodes,
            "guesses": self.guesses,
            "backtracks": self.backtracks,
            "max_depth": self.max_depth,
        }


class _Search(_Base):
    """Candidate masks per cell, singles before guessing, fewest candidates first."""

    def __init__(self, puzzle: Grid, limit: int, deadline: float | None, keep: int) -> None:
        super().__init__(puzzle, limit, deadline, keep)
        shape = puzzle.shape
        self.full = shape.full_mask
        self.peers = shape.peers
        self.units = shape.units
        # Per unit: its cells, a getter of their candidates, and where its used table sits in the state.
        self.unit_info = [(unit, itemgetter(*unit), 2 + j // self.n, j % self.n) for j, unit in enumerate(shape.units)]
        self.rof, self.cof, self.bof = shape.row_of, shape.col_of, shape.box_of
        # Units whose cells changed since they were last scanned for hidden singles, as a bit set.
        n = self.n
        self.units_of = [
            1 << r | 1 << (n + c) | 1 << (2 * n + b) for r, c, b in zip(self.rof, self.cof, self.bof, strict=True)
        ]
        self.dirty = 0
        self.naked = self.hidden = 0

    def stats(self) -> dict[str, int]:
        return {**super().stats(), "naked_singles": self.naked, "hidden_singles": self.hidden}

    def run(self) -> None:
        state = self.root()
        if state is not None:
            self.search(state, 0)

    def root(self) -> tuple[list[int], ...] | None:
        """The state with the givens placed (and the naked singles they leave), every unit to scan; None
        when the givens contradict each other through their consequences."""
        full, size = self.full, len(self.puzzle.cells)
        # The used tables: one mask per row, column and box of the digits placed there.
        rows, cols, boxes = [0] * self.n, [0] * self.n, [0] * self.n
        cand = [full] * size  # candidates of each blank; 0 once a cell is filled
        values = [0] * size  # the placed digit of each cell, as its bit
        state = (cand, values, rows, cols, boxes)
        for i, v in enumerate(self.puzzle.cells):
            if v and not self.assign(state, i, 1 << (v - 1)):
                return None
        self.dirty = (1 << len(self.units)) - 1
        return state

    def assign(self, state: tuple[list[int], ...], i: int, bit: int) -> bool:
        """Place ``bit`` at cell ``i``, remove it from the peers, and place every naked single that follows."""
        cand, values, rows, cols, boxes = state
        rof, cof, bof, peers, units_of = self.rof, self.cof, self.bof, self.peers, self.units_of
        dirty = self.dirty
        queue = [(i, bit)]
        for i, bit in queue:
            if values[i]:
                if values[i] != bit:
                    return False
                continue
            if not cand[i] & bit:
                return False
            values[i] = bit
            cand[i] = 0
            rows[rof[i]] |= bit
            cols[cof[i]] |= bit
            boxes[bof[i]] |= bit
            dirty |= units_of[i]
            for p in peers[i]:
                m = cand[p]
                if m & bit:
                    m ^= bit
                    if not m:
                        return False
                    cand[p] = m
                    dirty |= units_of[p]
                    if not m & (m - 1):
                        queue.append((p, m))
        self.dirty = dirty
        self.naked += len(queue) - 1
        return True

    def hidden_singles(self, state: tuple[list[int], ...]) -> bool:
        """Place digits with one place left in a unit, until none is left; False on a contradiction.

        Only the units whose cells changed since their last scan are looked at again.
        """
        cand = state[0]
        full, unit_info = self.full, self.unit_info
        dirty, self.dirty = self.dirty, 0
        while dirty:
            low = dirty & -dirty
            dirty ^= low
            unit, cells_of, table, k = unit_info[low.bit_length() - 1]
            used = state[table][k]  # the used table of this row, column or box
            once = twice = 0
            for m in cells_of(cand):
                twice |= once & m
                once |= m
            if once | used != full:
                return False  # some digit has no place left in this unit
            single = once & ~twice
            if single:
                for c in unit:
                    m = cand[c] & single
                    if m:
                        if m & (m - 1):
                            return False  # one cell is the only place for two digits
                        self.hidden += 1
                        if not self.assign(state, c, m):
                            return False
                dirty |= self.dirty
                self.dirty = 0
        return True

    def search(self, state: tuple[list[int], ...], depth: int) -> None:
        """Place singles, then guess on the cell with the fewest candidates; record solutions."""
        self.nodes += 1
        if depth > self.max_depth:
            self.max_depth = depth
        if self.deadline is not None and time.perf_counter() > self.deadline:  # ~50 ns against a node's ~30 us
            raise _Timeout
        if not self.hidden_singles(state):
            return
        cand = state[0]
        best, best_count = -1, self.n + 1
        for i, m in enumerate(cand):
            if m:
                k = m.bit_count()
                if k < best_count:
                    best, best_count = i, k
                    if k == 2:
                        break
        if best < 0:
            self.found(tuple(v.bit_length() for v in state[1]))
            return
        m = cand[best]
        while m:
            bit = m & -m
            m ^= bit
            self.guesses += 1
            trial = tuple(table[:] for table in state)  # undo = drop this copy
            self.dirty = 0
            if self.assign(trial, best, bit):
                before = self.count
                self.search(trial, depth + 1)
                if self.count == before:
                    self.backtracks += 1
            else:
                self.backtracks += 1


_Cells = tuple[tuple[int, ...], ...]


@cache
def box_line_segments(shape: Shape) -> tuple[_Cells, _Cells, _Cells, tuple[tuple[int, int], ...]]:
    """Where boxes meet lines on boards of ``shape``, in the order locked candidates visit them.

    ``(segments, groups, rests, of_segment)``: ``segments[s]``, the cells where a box meets a row or
    a column; ``groups[g]``, the segments of group g (box b's row segments are group 2b, its column
    segments 2b+1; row k's segments 2n+k, column k's 3n+k); ``rests[2s]`` and ``rests[2s+1]``, the
    rest of segment s's line and of its box; ``of_segment[s]``, its box group and line group. The
    ``numba`` engine builds its tables from these, so that both engines search node for node alike.
    """
    n = shape.n
    lines_of = ((shape.rows, shape.row_of), (shape.cols, shape.col_of))
    segments: list[tuple[int, ...]] = []
    groups: list[list[int]] = [[] for _ in range(4 * n)]  # box b's row and column segments, then each line's
    rests: list[tuple[int, ...]] = []  # per segment s: the rest of its line at 2s, the rest of its box at 2s+1
    of_segment: list[tuple[int, int]] = []
    for b, box in enumerate(shape.boxes):
        for kind, (lines, line_of) in enumerate(lines_of):
            for k in sorted({line_of[i] for i in box}):
                inside = frozenset(lines[k]) & frozenset(box)
                s = len(segments)
                segments.append(tuple(sorted(inside)))
                gb, gl = 2 * b + kind, 2 * n + kind * n + k
                groups[gb].append(s)
                groups[gl].append(s)
                of_segment.append((gb, gl))
                rests.append(tuple(i for i in lines[k] if i not in inside))
                rests.append(tuple(i for i in box if i not in inside))
    return tuple(segments), tuple(map(tuple, groups)), tuple(rests), tuple(of_segment)


@cache
def _locked_finder(shape: Shape) -> tuple[Callable[[list[int]], list[tuple[int, int]]], list[tuple[int, ...]]]:
    """A function finding locked candidates on boards of ``shape``, and the cells each of its finds is about.

    A segment is where a box meets a row or a column. A digit in one segment of its box and in two or
    more of its line leaves the rest of that line (pointing); a digit in one segment of its line and in
    two or more of its box's segments of that direction leaves the rest of the box (claiming). The
    function takes the candidates and returns ``(k, digits)`` pairs: ``digits`` leave the cells
    ``rests[k]`` (those of them that still hold one). It is straight-line Python generated for the shape,
    about four times faster than the same loops over lists of segments (it runs at every node).
    """
    segments, groups, rests, of_segment = box_line_segments(shape)
    code = ["def find(c):"]
    code += [f"    s{s} = " + " | ".join(f"c[{i}]" for i in cells) for s, cells in enumerate(segments)]
    for g, members in enumerate(groups):  # digits in one segment of the group (a), in two or more (t)
        code.append(f"    o = s{members[0]}; t = 0")
        code += [f"    t |= o & s{s}; o |= s{s}" for s in members[1:]]
        code.append(f"    a{g} = o & ~t; t{g} = t")
    code.append("    out = []")
    for s, (gb, gl) in enumerate(of_segment):
        for k, (alone, spread) in ((2 * s, (gb, gl)), (2 * s + 1, (gl, gb))):
            code.append(f"    x = s{s} & a{alone} & t{spread}")
            code.append(f"    if x: out.append(({k}, x))")
    code.append("    return out")
    namespace: dict[str, Callable[[list[int]], list[tuple[int, int]]]] = {}
    exec(compile("\n".join(code), f"<locked candidates {shape}>", "exec"), namespace)
    return namespace["find"], rests


class _BigSearch(_Search):
    """The smart search with locked candidates and a look-ahead, for boards of 16x16 and more.

    With ``learn_after`` (25x25 and more), the search hands over to :class:`_Learner` from the settled
    root once more than that many guesses failed without a solution (at once for 0).

    The singles alone guess too much there. Locked candidates (:func:`_locked_finder`) run after the
    singles, to a fixed point; then :meth:`look_ahead` tries both digits of every cell with two
    candidates, places the other digit where one fails, and chooses the cell to guess on. Without
    such a cell, the guess is on a cell of fewest candidates, the one whose guesses failed most often.
    The statistics add the candidates locked candidates removed, the look-ahead's tries and the digits
    they ruled out (failed literals); the singles counted include those placed in the tries.
    """

    def __init__(
        self, puzzle: Grid, limit: int, deadline: float | None, keep: int, learn_after: int | None = None
    ) -> None:
        super().__init__(puzzle, limit, deadline, keep)
        self.find_locked, self.rests = _locked_finder(puzzle.shape)
        self.weight = [0] * len(puzzle.cells)  # failed guesses per cell: among the fewest candidates, the most failed
        self.eliminated = self.probes = self.failed_literals = 0
        #: Failed guesses without a solution before clause learning takes over (None: never).
        self.learn_after = learn_after
        self.learner: _Learner | None = None

    def stats(self) -> dict[str, int]:
        stats = {
            **super().stats(),
            "locked_candidates": self.eliminated,
            "probes": self.probes,
            "failed_literals": self.failed_literals,
        }
        if self.learn_after is not None:
            learner = self.learner
            decisions = learner.decisions if learner else 0
            conflicts = learner.conflicts if learner else 0
            stats["nodes"] += decisions
            stats["guesses"] += decisions
            stats["backtracks"] += conflicts
            stats["max_depth"] = max(stats["max_depth"], learner.max_level if learner else 0)
            stats["conflicts"] = conflicts
            stats["learned_clauses"] = len(learner.learned) if learner else 0
            stats["restarts"] = learner.restarts if learner else 0
            stats["propagations"] = learner.propagations if learner else 0
        return stats

    def run(self) -> None:
        """The search from the givens; with ``learn_after``, clause learning from the settled root after those nodes."""
        if self.learn_after is None:
            super().run()
            return
        state = self.root()
        if state is None or not self.settle(state):
            return
        root = (state[0][:], state[1][:])
        if self.learn_after:
            try:
                self.search(state, 0)
                return
            except _Learn:
                pass
        self.learner = _Learner(self, *root)
        self.learner.run()

    def locked(self, state: tuple[list[int], ...]) -> bool:
        """Remove the candidates that locked candidates rule out (one pass); False on a contradiction."""
        cand, rests = state[0], self.rests
        units_of, dirty, singles = self.units_of, self.dirty, []
        for k, gone in self.find_locked(cand):
            for c in rests[k]:
                m = cand[c]
                if m & gone:
                    m &= ~gone
                    if not m:
                        return False
                    cand[c] = m
                    self.eliminated += 1
                    dirty |= units_of[c]
                    if not m & (m - 1):
                        singles.append((c, m))
        self.dirty = dirty
        return all(self.assign(state, c, m) for c, m in singles)

    def settle(self, state: tuple[list[int], ...]) -> bool:
        """Hidden singles and locked candidates until neither finds more; False on a contradiction."""
        while True:
            if not self.hidden_singles(state):
                return False
            before = self.eliminated
            if not self.locked(state):
                return False
            if self.eliminated == before:
                return True

    def look_ahead(self, state: tuple[list[int], ...]) -> tuple[int, int] | None:
        """Try both digits of every cell with two candidates: the cell to guess on and its first digit, or None.

        Each try places the digit and its singles on a copy of the state. A digit that leads to a
        contradiction cannot be the cell's (a failed literal): the other one is placed, and the cells
        are tried again; None when that contradicts too. Otherwise the cell whose two tries removed
        the most candidates (their product, then their sum) is the one to guess on, both its branches
        being small, with the digit whose try removed fewer first. ``(-1, 0)`` when no cell has two
        candidates.
        """
        deadline, assign, hidden_singles = self.deadline, self.assign, self.hidden_singles
        while True:
            cand = state[0]
            total = sum(map(int.bit_count, cand))
            best, first, best_score, forced = -1, 0, -1, False
            for i in range(len(cand)):
                m = cand[i]
                if m.bit_count() != 2:
                    continue
                low = m & -m
                left = -1
                for bit in (low, m ^ low):
                    if deadline is not None and time.perf_counter() > deadline:
                        raise _Timeout
                    self.probes += 1
                    trial = tuple(table[:] for table in state)
                    self.dirty = 0
                    if not (assign(trial, i, bit) and hidden_singles(trial)):
                        self.failed_literals += 1
                        self.dirty = 0
                        if not (assign(state, i, m ^ bit) and self.settle(state)):
                            return None
                        forced = True
                        break
                    gone = total - sum(map(int.bit_count, trial[0]))
                    if left < 0:
                        left = gone
                    else:
                        score = left * gone + left + gone
                        if score > best_score:
                            best, best_score = i, score
                            first = low if left <= gone else m ^ low
            if not forced:
                return best, first

    def search(self, state: tuple[list[int], ...], depth: int) -> None:
        """Singles and locked candidates to a fixed point, the look-ahead, then guess on the cell it chose.

        Without a cell of two candidates, the cell guessed on is one of fewest candidates, the one whose
        guesses failed most often.
        """
        self.nodes += 1
        if depth > self.max_depth:
            self.max_depth = depth
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise _Timeout
        if self.learn_after and self.backtracks > self.learn_after and not self.count:
            raise _Learn
        if not self.settle(state):
            return
        chosen = self.look_ahead(state)
        if chosen is None:
            return
        best, first = chosen
        cand, weight = state[0], self.weight
        if best < 0:
            best_score = 1 << 62
            for i, m in enumerate(cand):
                if m:
                    score = (m.bit_count() << 40) - weight[i]
                    if score < best_score:
                        best, best_score = i, score
            if best < 0:
                self.found(tuple(v.bit_length() for v in state[1]))
                return
        m = cand[best]
        digits = (first, m ^ first) if first else [1 << d for d in range(self.n) if m >> d & 1]
        for bit in digits:
            self.guesses += 1
            trial = tuple(table[:] for table in state)
            self.dirty = 0
            if self.assign(trial, best, bit):
                before = self.count
                self.search(trial, depth + 1)
                if self.count == before:
                    self.backtracks += 1
            else:
                self.backtracks += 1
                weight[best] += 1


class _LearningTables:
    """What the learning search needs of a board's shape, built once per shape.

    A literal is ``2v`` ("cell c holds digit d", with ``v = c*n + d``) or ``2v + 1`` (it does not). A
    group is a set of such variables whose falsity explains a deduction: a cell's digits (its last
    candidate is a naked single), a unit's places for a digit (a hidden single), and, for locked
    candidates, a unit's places for a digit outside one segment (the digit is in the segment).
    """

    def __init__(self, shape: Shape) -> None:
        n = shape.n
        units = shape.units
        self.units = units
        where: list[list[tuple[int, int]]] = [[] for _ in range(shape.size)]  # (unit, position) of each cell
        for u, unit in enumerate(units):
            for pos, c in enumerate(unit):
                where[c].append((u, pos))
        #: Per variable: its cell, its digit's bit, and its place (index, bit) in each of its three units.
        self.update = [
            (c, 1 << d, *(x for u, pos in where[c] for x in (u * n + d, 1 << pos)))
            for c in range(shape.size)
            for d in range(n)
        ]
        #: Per cell: its units with the cell's bit in each.
        self.cell_units = [tuple((u, 1 << pos) for u, pos in where[c]) for c in range(shape.size)]
        groups = [tuple(range(c * n, c * n + n)) for c in range(shape.size)]
        groups += [tuple(c * n + d for c in unit) for unit in units for d in range(n)]
        #: Per unit and position: the segments holding the position, as (positions in the unit, the other
        #: unit the segment lies in, that unit's positions outside the segment, the group of the unit's
        #: places outside the segment, for digit 0).
        segments: list[list[list[tuple[int, int, int, int]]]] = [[[] for _ in range(n)] for _ in units]
        lines = len(shape.rows) + len(shape.cols)
        for u, unit in enumerate(units):
            # a line meets boxes; a box meets rows and columns
            splits = [(shape.box_of, lines)] if u < lines else [(shape.row_of, 0), (shape.col_of, len(shape.rows))]
            for part_of, base in splits:
                parts: dict[int, list[int]] = {}
                for pos, c in enumerate(unit):
                    parts.setdefault(part_of[c], []).append(pos)
                for k, inside in parts.items():
                    other = base + k
                    cells = {unit[p] for p in inside}
                    mask = sum(1 << p for p in inside)
                    outside = sum(1 << q for q, c in enumerate(units[other]) if c not in cells)
                    rest = [c for p, c in enumerate(unit) if not mask >> p & 1]
                    entry = (mask, other, outside, len(groups))
                    groups += [tuple(c * n + d for c in rest) for d in range(n)]
                    for p in inside:
                        segments[u][p].append(entry)
        self.groups = groups
        self.widest = max(shape.box_rows, shape.box_cols)  # the most cells a segment has
        self.segments = [[tuple(at) for at in unit] for unit in segments]


@cache
def _learning_tables(shape: Shape) -> _LearningTables:
    """The learning search's tables for ``shape`` (shared by every puzzle of that shape)."""
    return _LearningTables(shape)


def _luby(i: int) -> int:
    """Term ``i`` (from 0) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 ...: the restart intervals."""
    size, seq = 1, 0
    while size < i + 1:
        seq += 1
        size = 2 * size + 1
    while size - 1 != i:
        size = (size - 1) >> 1
        seq -= 1
        i %= size
    return 1 << seq


class _Learner:
    """Conflict-driven clause learning on the literals "cell c holds digit d", for the hardest big boards.

    Propagation is the sudoku's own, on candidate masks kept along a trail: a placed digit leaves its
    cell and its peers; a cell with one candidate left, a digit with one place left in a unit (singles)
    and a digit confined to where a box meets a line (locked candidates) are deduced. Each deduction
    keeps its reason as a small code (the placed peer, or a group of variables that are all false), so
    a conflict is analysed to its first unique implication point: the learned clause (minimised by
    dropping the literals its other literals imply) sends the search back to the level where it
    asserts a literal. Branching takes the most active variable (VSIDS, bumped in conflicts) with its
    saved phase; restarts follow the Luby sequence and halve the learned clauses by their LBD.

    Solutions are counted by blocking: after one, the clause "not all of these decisions" rules out
    exactly that grid, and the search goes on; it ends (exact) with a conflict at level 0, or a solution
    reached without a decision.
    """

    def __init__(self, owner: _BigSearch, cand: list[int], values: list[int]) -> None:
        self.owner = owner
        shape = owner.puzzle.shape
        tables = _learning_tables(shape)
        n = shape.n
        self.n, self.tables = n, tables
        variables = shape.size * n
        self.value = value = [0] * (2 * variables)  # per literal: 1 true, -1 false, 0 unassigned
        self.level = [0] * variables
        self.reason: list[object] = [None] * variables
        self.cand = cand = [v or m for m, v in zip(cand, values, strict=True)]
        self.places = places = [0] * (len(tables.units) * n)
        for c, m in enumerate(cand):
            digits = [d for d in range(n) if m >> d & 1]
            for u, bit in tables.cell_units[c]:
                for d in digits:
                    places[u * n + d] |= bit
        self.live = []
        for c, m in enumerate(cand):
            for d in range(n):
                v = c * n + d
                if not m >> d & 1:
                    value[2 * v], value[2 * v + 1] = -1, 1
                elif values[c]:
                    value[2 * v], value[2 * v + 1] = 1, -1
                else:
                    self.live.append(v)
        self.trail: list[int] = []
        self.levels: list[int] = []  # where each decision level starts on the trail
        self.head = 0  # the trail's literals before it are propagated
        self.watches: list[list[list[int]]] = [[] for _ in range(2 * variables)]
        self.learned: list[list[int]] = []
        self.lbd: dict[int, int] = {}
        self.activity = [0.0] * variables
        self.bump = 1.0
        self.phase = bytearray(variables)  # the saved phase: 0 tries "does not hold" first
        self.seen = bytearray(variables)
        self.heap = [(0.0, v) for v in self.live]
        self.in_heap = bytearray(variables)
        for v in self.live:
            self.in_heap[v] = 1
        self.conflicts = self.decisions = self.propagations = self.restarts = self.max_level = 0

    def propagate(self) -> Sequence[int] | None:
        """Propagate the trail to a fixed point: None, or the variables of a conflict (all of them false or true)."""
        trail, value, level, reason = self.trail, self.value, self.level, self.reason
        cand, places, n = self.cand, self.places, self.n
        tables = self.tables
        update, units, groups, cell_units, segments = (
            tables.update,
            tables.units,
            tables.groups,
            tables.cell_units,
            tables.segments,
        )
        watches = self.watches
        widest = tables.widest
        cells = len(cand)
        here = len(self.levels)
        head = self.head
        conflict: Sequence[int] | None = None
        while head < len(trail):
            lit = trail[head]
            head += 1
            v = lit >> 1
            if lit & 1:  # v's digit left v's cell: a single or a locked candidate may follow
                c, _, u1, _, u2, _, u3, _ = update[v]
                d = v - c * n
                m = cand[c]
                if not m & (m - 1):
                    if not m:
                        conflict = groups[c]
                        break
                    w = c * n + m.bit_length() - 1
                    if not value[2 * w]:  # a naked single
                        value[2 * w], value[2 * w + 1] = 1, -1
                        level[w] = here
                        reason[w] = -1 - c
                        trail.append(2 * w)
                for pu in (u1, u2, u3):
                    m = places[pu]
                    if not m & (m - 1):
                        if not m:
                            conflict = groups[cells + pu]
                            break
                        w = units[pu // n][m.bit_length() - 1] * n + d
                        if not value[2 * w]:  # a hidden single
                            value[2 * w], value[2 * w + 1] = 1, -1
                            level[w] = here
                            reason[w] = -1 - cells - pu
                            trail.append(2 * w)
                        continue
                    # Locked candidates: measured on the 25x25 of puzzles/sizes, up to half the conflicts for
                    # a step 25 % slower.
                    if m.bit_count() > widest:
                        continue  # more places than a segment holds
                    low = m & -m
                    for inside, other, outside, group in segments[pu // n][low.bit_length() - 1]:
                        if m & ~inside:
                            continue
                        gone = places[other * n + d] & outside
                        if not gone:
                            continue
                        # the digit's places in this unit lie in one segment: it leaves the rest of the other unit
                        line = units[other]
                        why = -1 - group - d
                        while gone:
                            low = gone & -gone
                            gone ^= low
                            w = line[low.bit_length() - 1] * n + d
                            x = value[2 * w]
                            if x > 0:
                                conflict = (*groups[group + d], w)
                                break
                            if not x:
                                value[2 * w], value[2 * w + 1] = -1, 1
                                level[w] = here
                                reason[w] = why
                                trail.append(2 * w + 1)
                                cw, bw, p1, q1, p2, q2, p3, q3 = update[w]
                                cand[cw] &= ~bw
                                places[p1] &= ~q1
                                places[p2] &= ~q2
                                places[p3] &= ~q3
                        if conflict is not None:
                            break
                    if conflict is not None:
                        break
                if conflict is not None:
                    break
            else:  # v's digit is placed: it leaves v's cell and its peers
                c = v // n
                d = v - c * n
                m = cand[c] & ~(1 << d)
                base = c * n
                spots = []
                while m:
                    low = m & -m
                    m ^= low
                    spots.append(base + low.bit_length() - 1)
                for u, bit in cell_units[c]:
                    m = places[u * n + d] & ~bit
                    if m:
                        line = units[u]
                        while m:
                            low = m & -m
                            m ^= low
                            spots.append(line[low.bit_length() - 1] * n + d)
                for w in spots:
                    x = value[2 * w]
                    if x > 0:
                        conflict = (v, w)
                        break
                    if not x:
                        value[2 * w], value[2 * w + 1] = -1, 1
                        level[w] = here
                        reason[w] = v
                        trail.append(2 * w + 1)
                        cw, bw, p1, q1, p2, q2, p3, q3 = update[w]
                        cand[cw] &= ~bw
                        places[p1] &= ~q1
                        places[p2] &= ~q2
                        places[p3] &= ~q3
                if conflict is not None:
                    break
            # the learned clauses watching the literal that just became false
            false = lit ^ 1
            watching = watches[false]
            if watching:
                kept = []
                for k, clause in enumerate(watching):
                    if clause[0] == false:
                        clause[0], clause[1] = clause[1], false
                    first = clause[0]
                    if value[first] > 0:
                        kept.append(clause)
                        continue
                    for j in range(2, len(clause)):
                        other = clause[j]
                        if value[other] >= 0:
                            clause[1], clause[j] = other, false
                            watches[other].append(clause)
                            break
                    else:
                        kept.append(clause)
                        if value[first] < 0:
                            kept += watching[k + 1 :]
                            conflict = [x >> 1 for x in clause]
                            break
                        w = first >> 1
                        value[first], value[first ^ 1] = 1, -1
                        level[w] = here
                        reason[w] = clause
                        trail.append(first)
                        if first & 1:
                            cw, bw, p1, q1, p2, q2, p3, q3 = update[w]
                            cand[cw] &= ~bw
                            places[p1] &= ~q1
                            places[p2] &= ~q2
                            places[p3] &= ~q3
                watches[false] = kept
                if conflict is not None:
                    break
        self.propagations += head - self.head
        self.head = head
        return conflict

    def antecedents(self, why: object) -> Sequence[int]:
        """The variables whose values imply a deduction whose reason is ``why``."""
        if type(why) is int:
            return (why,) if why >= 0 else self.tables.groups[-1 - why]
        return [x >> 1 for x in why]  # type: ignore[attr-defined]

    def analyse(self, conflict: Sequence[int]) -> tuple[list[int], int, int]:
        """The learned clause of ``conflict`` (asserting literal first), the level to go back to, its LBD."""
        seen, level, trail, reason, value = self.seen, self.level, self.trail, self.reason, self.value
        activity, bump, heap, in_heap = self.activity, self.bump, self.heap, self.in_heap
        groups = self.tables.groups
        here = len(self.levels)
        lower: list[int] = []  # the clause's variables below the current level
        touched: list[int] = []
        pending = 0
        k = len(trail) - 1
        p = -1
        antecedents = conflict
        while True:
            for w in antecedents:
                if w == p or seen[w] or not level[w]:
                    continue
                seen[w] = 1
                touched.append(w)
                a = activity[w] + bump
                activity[w] = a
                if in_heap[w]:
                    heappush(heap, (-a, w))
                if level[w] >= here:
                    pending += 1
                else:
                    lower.append(w)
            while not seen[trail[k] >> 1]:
                k -= 1
            p = trail[k] >> 1
            k -= 1
            seen[p] = 0
            pending -= 1
            if not pending:
                break
            why = reason[p]
            antecedents = self.antecedents(why) if type(why) is not int else (why,) if why >= 0 else groups[-1 - why]
        # Drop a variable whose reasons lead back to the clause's other variables (recursive minimisation),
        # depth first: a variable shown implied by the clause keeps seen 1, one shown not implied gets 2.
        levels = 0
        for w in lower:
            levels |= 1 << (level[w] & 63)
        kept = []
        for w in lower:
            why = reason[w]
            if why is None:
                kept.append(w)
                continue
            x, i, path = w, 0, []
            antecedents = (why,) if type(why) is int and why >= 0 else self.antecedents(why)
            while True:
                if i < len(antecedents):
                    a = antecedents[i]
                    i += 1
                    if a == x or not level[a] or seen[a] == 1:
                        continue
                    why = reason[a]
                    if why is None or seen[a] == 2 or not levels >> (level[a] & 63) & 1:
                        for y, _, _ in path[1:]:
                            seen[y] = 2
                            touched.append(y)
                        if x != w:
                            seen[x] = 2
                            touched.append(x)
                        kept.append(w)
                        break
                    path.append((x, i, antecedents))
                    x, i = a, 0
                    antecedents = (why,) if type(why) is int and why >= 0 else self.antecedents(why)
                    continue
                if x == w:
                    break  # w is implied by the others: dropped
                seen[x] = 1
                touched.append(x)
                x, i, antecedents = path.pop()
        for w in touched:
            seen[w] = 0
        clause = [2 * p + (value[2 * p] > 0)]  # each literal is its variable's value negated
        back = second = 0
        for j, w in enumerate(kept):
            clause.append(2 * w + (value[2 * w] > 0))
            if level[w] > back:
                back, second = level[w], j + 1
        if second > 1:
            clause[1], clause[second] = clause[second], clause[1]
        self.bump = bump / _DECAY
        if self.bump > 1e100:  # rescale every activity
            for v in self.live:
                activity[v] *= 1e-100
            self.bump *= 1e-100
            self.heap = [(-activity[v], v) for v in self.live if in_heap[v]]
            heapify(self.heap)
        return clause, back, len({level[x >> 1] for x in clause})

    def backjump(self, target: int) -> None:
        """Undo the trail down to decision level ``target``, saving the phases."""
        if len(self.levels) <= target:
            return
        start = self.levels[target]
        value, update, cand, places, phase, activity, heap, in_heap = (
            self.value,
            self.tables.update,
            self.cand,
            self.places,
            self.phase,
            self.activity,
            self.heap,
            self.in_heap,
        )
        for lit in self.trail[start:]:
            v = lit >> 1
            value[lit] = value[lit ^ 1] = 0
            if lit & 1:
                phase[v] = 0
                c, bit, u1, b1, u2, b2, u3, b3 = update[v]
                cand[c] |= bit
                places[u1] |= b1
                places[u2] |= b2
                places[u3] |= b3
            else:
                phase[v] = 1
            if not in_heap[v]:
                in_heap[v] = 1
                heappush(heap, (-activity[v], v))
        del self.trail[start:]
        del self.levels[target:]
        self.head = start

    def assign(self, lit: int, why: object) -> None:
        """Put ``lit`` on the trail at the current level with reason ``why``."""
        v = lit >> 1
        self.value[lit], self.value[lit ^ 1] = 1, -1
        self.level[v] = len(self.levels)
        self.reason[v] = why
        self.trail.append(lit)
        if lit & 1:
            c, bit, u1, b1, u2, b2, u3, b3 = self.tables.update[v]
            self.cand[c] &= ~bit
            self.places[u1] &= ~b1
            self.places[u2] &= ~b2
            self.places[u3] &= ~b3

    def add(self, clause: list[int], learned: bool, lbd: int = 0) -> None:
        """Watch ``clause`` (its first literal unassigned, the others false) and assert its first literal."""
        if len(clause) == 1:
            self.assign(clause[0], None)
            return
        self.watches[clause[0]].append(clause)
        self.watches[clause[1]].append(clause)
        if learned:
            self.learned.append(clause)
            self.lbd[id(clause)] = lbd
        self.assign(clause[0], clause)

    def decide(self) -> int:
        """The next decision: the most active unassigned variable in its saved phase; -1 when all are assigned."""
        heap, value, activity, in_heap = self.heap, self.value, self.activity, self.in_heap
        while heap:
            a, v = heappop(heap)
            if -a != activity[v]:
                continue  # an older entry of a bumped variable
            in_heap[v] = 0
            if not value[2 * v]:
                return 2 * v + (not self.phase[v])
        return -1

    def reduce(self) -> None:
        """Forget the learned clauses of the worse half by LBD (keeping those of LBD 2 and the reasons)."""
        lbd, reason, value = self.lbd, self.reason, self.value
        ranked = sorted(self.learned, key=lambda clause: lbd[id(clause)])
        keep, gone = [], set()
        for k, clause in enumerate(ranked):
            if (
                k < len(ranked) // 2
                or lbd[id(clause)] <= 2
                or (value[clause[0]] > 0 and reason[clause[0] >> 1] is clause)
            ):
                keep.append(clause)
            else:
                gone.add(id(clause))
                del lbd[id(clause)]
        self.learned = keep
        watches = self.watches
        for lit, watching in enumerate(watches):
            if watching:
                watches[lit] = [clause for clause in watching if id(clause) not in gone]

    def solution(self) -> bool:
        """Count the solution on the trail; rule it out and go back: False when no decision is left to undo."""
        self.owner.found(tuple(m.bit_length() for m in self.cand))  # each cell has its one digit left
        if self.owner.deadline is not None and time.perf_counter() > self.owner.deadline:
            raise _Timeout
        decisions = [self.trail[k] ^ 1 for k in reversed(self.levels)]
        if not decisions:
            return False
        self.backjump(len(decisions) - 1)
        self.add(decisions, False)
        return True

    def run(self) -> None:
        """Search to the end, every solution counted by the owner (which stops the search at its limit)."""
        deadline = self.owner.deadline
        if self.propagate() is not None:
            return
        budget, since, next_reduce = _RESTART_UNIT, 0, _FIRST_REDUCE
        while True:
            conflict = self.propagate()
            if conflict is not None:
                self.conflicts += 1
                since += 1
                if not self.levels:
                    return  # a conflict at level 0: nothing more to find
                clause, back, lbd = self.analyse(conflict)
                self.backjump(back)
                self.add(clause, True, lbd)
                if not self.conflicts & 255 and deadline is not None and time.perf_counter() > deadline:
                    raise _Timeout
                continue
            if since >= budget:
                self.restarts += 1
                since = 0
                budget = _luby(self.restarts) * _RESTART_UNIT
                self.backjump(0)
                if len(self.learned) > next_reduce:
                    self.reduce()
                    next_reduce += _MORE_REDUCE
                continue
            lit = self.decide()
            if lit < 0:
                if not self.solution():
                    return
                continue
            self.decisions += 1
            if not self.decisions & 1023 and deadline is not None and time.perf_counter() > deadline:
                raise _Timeout
            self.levels.append(len(self.trail))
            self.max_level = max(self.max_level, len(self.levels))
            self.assign(lit, None)


class _PlainSearch(_Base):
    """The write-ups' search: first empty cell in reading order, digits 1..n in order, no singles."""

    def run(self) -> None:
        shape, cells = self.puzzle.shape, self.puzzle.cells
        self.board = list(cells)
        self.rows, self.cols, self.boxes = [0] * self.n, [0] * self.n, [0] * self.n
        for i, v in enumerate(cells):
            if v:
                bit = 1 << (v - 1)
                r, c, b = shape.row_of[i], shape.col_of[i], shape.box_of[i]
                if (self.rows[r] | self.cols[c] | self.boxes[b]) & bit:
                    return  # two equal givens in a unit: no solution
                self.rows[r] |= bit
                self.cols[c] |= bit
                self.boxes[b] |= bit
        self.blanks = [(i, shape.row_of[i], shape.col_of[i], shape.box_of[i]) for i, v in enumerate(cells) if not v]
        self.backtracking(0)

    def backtracking(self, k: int) -> None:
        """Fill blank number ``k`` (the first empty cell, all before it being filled) and the rest."""
        self.nodes += 1
        if k > self.max_depth:
            self.max_depth = k
        if self.deadline is not None and not self.nodes & _PLAIN_DEADLINE_EVERY and time.perf_counter() > self.deadline:
            raise _Timeout
        if k == len(self.blanks):  # no empty cell left: a solution
            self.found(tuple(self.board))
            return
        i, r, c, b = self.blanks[k]
        rows, cols, boxes = self.rows, self.cols, self.boxes
        for digit in range(1, self.n + 1):  # is digit allowed here? the used tables say
            bit = 1 << (digit - 1)
            if (rows[r] | cols[c] | boxes[b]) & bit:
                continue
            self.guesses += 1
            self.board[i] = digit  # place it
            rows[r] |= bit
            cols[c] |= bit
            boxes[b] |= bit
            self.backtracking(k + 1)
            self.board[i] = 0  # undo it
            rows[r] ^= bit
            cols[c] ^= bit
            boxes[b] ^= bit
            self.backtracks += 1


# --- variant puzzles ---------------------------------------------------------------------------------

#: What a rule over many cells answers: the narrowed candidates ``(cell, mask)``, or None for a contradiction.
_Narrowing = list[tuple[int, int]] | None
#: A pair table as two byte tables: the digits allowed at the partner of a cell whose candidates are ``m``
#: are ``low[m & 255] | high[m >> 8]`` (``high`` a :class:`_HighBytes` above 16 digits).
_PairTable = tuple[tuple[int, ...], "tuple[int, ...] | _HighBytes"]


class _HighBytes:
    """The ``high`` table of a pair on a board of over 16 digits: a byte table per byte of the mask above the first.

    A flat table of the masks above the first byte has ``1 << (n - 8)`` entries: at 36x36, 268 million
    (gigabytes, and minutes to build, before the search even looks at its deadline).
    """

    __slots__ = ("tables",)

    def __init__(self, tables: tuple[tuple[int, ...], ...]) -> None:
        self.tables = tables

    def __getitem__(self, m: int) -> int:
        out = 0
        for table in self.tables:
            if not m:
                break
            out |= table[m & 255]
            m >>= 8
        return out


@cache
def _sets(n: int, k: int, total: int) -> tuple[int, ...]:
    """Every set of ``k`` different digits 1..n summing to ``total``, as masks."""
    return tuple(sum(1 << (d - 1) for d in combo) for combo in combinations(range(1, n + 1), k) if sum(combo) == total)


class _SetRule:
    """Different digits on ``cells`` that together form one of the sets ``sets`` (a killer total, a renban run)."""

    __slots__ = ("cells", "sets", "watchers")

    def __init__(self, cells: Sequence[int], sets: Sequence[int]) -> None:
        self.cells = tuple(cells)
        self.sets = tuple(sets)
        #: The cells that see every cell of the rule (set by the model once it knows the peers).
        self.watchers: tuple[int, ...] = ()

    def propagate(self, cand: list[int], values: list[int]) -> _Narrowing:
        """Keep the sets the placed digits and the candidates still allow; narrow the free cells to them.

        A digit that every set still allowed leaves for the free cells is theirs: the cells that see all
        of the rule's cells lose it.
        """
        placed = 0
        free = []
        for c in self.cells:
            v = values[c]
            if v:
                placed |= v
            else:
                free.append(c)
        allowed = 0
        required = -1
        for digits in self.sets:
            if digits & placed != placed:
                continue
            rest = digits ^ placed
            union = 0
            for c in free:
                m = cand[c] & rest
                if not m:
                    break
                union |= m
            else:
                if union == rest:  # every digit left has a cell to go to
                    allowed |= rest
                    required &= rest
        if required < 0:
            return None  # no set fits
        out = [(c, cand[c] & allowed) for c in free if cand[c] & ~allowed]
        if required:
            for w in self.watchers:
                m = cand[w]
                if m & required:
                    m &= ~required
                    if not m:
                        return None
                    out.append((w, m))
        return out


class _LinearRule:
    """``sum(coefficient * digit) == total`` over cells (little killer, arrow): each digit kept has a completion."""

    __slots__ = ("cells", "n", "plain", "terms", "total")

    def __init__(self, terms: Sequence[tuple[int, int]], total: int, n: int) -> None:
        self.terms = tuple(terms)
        self.cells = tuple(c for c, _ in terms)
        self.total = total
        self.n = n
        self.plain = all(k == 1 for _, k in terms)  # a plain sum (a little killer)

    def propagate(self, cand: list[int], values: list[int]) -> _Narrowing:
        """Keep the digits of each free cell that the others' candidates can complete to the total.

        Each free cell adds ``coefficient * digit`` (shifted up by ``-coefficient * n`` when negative, so
        every addend is at least 0); the sums reachable by the cells before it and after it are bit sets,
        and a digit stays when the total less its addend is a sum of one from each. With more than three
        free cells it keeps what the least and the most of the others leave (see :meth:`_bounds`).
        """
        if self.plain:  # the common case first, cheaply: a plain sum whose bounds narrow nothing
            target = self.total
            low = high = spread = free_cells = 0
            for c in self.cells:
                v = values[c]
                if v:
                    target -= v.bit_length()
                else:
                    m = cand[c]
                    least, most = (m & -m).bit_length(), m.bit_length()
                    low += least
                    high += most
                    free_cells += 1
                    if most - least > spread:
                        spread = most - least
            if low > target or high < target:
                return None
            if free_cells > 3 and target - low >= spread and high - target >= spread:
                return []
        target = self.total
        n = self.n
        free = []
        for c, k in self.terms:
            v = values[c]
            if v:
                target -= k * v.bit_length()
                continue
            m = cand[c]
            if k == 1:
                adds = m << 1
            else:
                shift = -k * n if k < 0 else 0
                target += shift
                adds = 0
                while m:
                    bit = m & -m
                    m ^= bit
                    adds |= 1 << (k * bit.bit_length() + shift)
            free.append((c, k, adds))
        if target < 0:
            return None
        if not free:
            return None if target else []
        if len(free) > 3:
            low = high = spread = 0
            for _, _, adds in free:
                least, most = (adds & -adds).bit_length(), adds.bit_length()
                low += least
                high += most
                if most - least > spread:
                    spread = most - least
            low -= len(free)
            high -= len(free)
            if low > target or high < target:
                return None
            if target - low >= spread and high - target >= spread:
                return []  # every addend of every cell fits between the others' least and most
            return self._bounds(free, target)
        window = (2 << target) - 1
        before = [1]  # before[i]: the sums the first i free cells reach
        reach = 1
        for _, _, adds in free:
            step = 0
            while adds:
                bit = adds & -adds
                adds ^= bit
                step |= reach << (bit.bit_length() - 1)
            reach = step & window
            before.append(reach)
        if not reach >> target & 1:
            return None
        out = []
        after = 1  # the sums the free cells after the current one reach
        for i in range(len(free) - 1, -1, -1):
            c, k, adds = free[i]
            a, b = before[i], after
            if a.bit_count() > b.bit_count():
                a, b = b, a
            others = 0
            while a:
                bit = a & -a
                a ^= bit
                others |= b << (bit.bit_length() - 1)
            kept = 0
            rest = adds
            step = 0
            while rest:
                bit = rest & -rest
                rest ^= bit
                add = bit.bit_length() - 1
                if add <= target and others >> (target - add) & 1:
                    kept |= bit
                    step |= after << add
            after = step & window
            if kept != adds:
                out.append((c, self._digits(kept, k)))
        return out

    def _bounds(self, free: list[tuple[int, int, int]], target: int) -> _Narrowing:
        """Keep each free cell's addends between what the others add at least and at most, to a fixed point."""
        adds = [a for _, _, a in free]
        changed = True
        while changed:
            changed = False
            low = high = 0
            for a in adds:
                low += (a & -a).bit_length() - 1
                high += a.bit_length() - 1
            if low > target or high < target:
                return None
            for i, a in enumerate(adds):
                least, most = (a & -a).bit_length() - 1, a.bit_length() - 1
                top, bottom = target - (low - least), target - (high - most)
                if bottom > least or most > top:
                    kept = a & ((2 << top) - 1) & -(1 << max(bottom, 0)) if top >= 0 else 0
                    if not kept:
                        return None
                    adds[i] = kept
                    changed = True
                    low += ((kept & -kept).bit_length() - 1) - least
                    high += (kept.bit_length() - 1) - most
        return [(c, self._digits(a, k)) for (c, k, old), a in zip(free, adds, strict=True) if a != old]

    def _digits(self, adds: int, k: int) -> int:
        """The digits whose addends (``k * digit``, shifted up when ``k`` is negative) are the bits of ``adds``."""
        if k == 1:
            return adds >> 1
        shift = -k * self.n if k < 0 else 0
        m = 0
        while adds:
            bit = adds & -adds
            adds ^= bit
            m |= 1 << ((bit.bit_length() - 1 - shift) // k - 1)
        return m


class _SandwichRule:
    """The digits between the 1 and the n of a line sum to ``total``: every (1 place, n place, set between) kept."""

    __slots__ = ("cells", "n", "sets")

    def __init__(self, cells: Sequence[int], total: int, n: int) -> None:
        self.cells = tuple(cells)
        self.n = n
        ends = 1 | 1 << (n - 1)
        self.sets = [tuple(s for s in _sets(n, k, total) if not s & ends) for k in range(n - 1)]

    def propagate(self, cand: list[int], values: list[int]) -> _Narrowing:
        """Narrow each cell to what some placement of the 1, the n and the digits between still allows."""
        n = self.n
        top = 1 << (n - 1)
        middle = ((1 << n) - 1) ^ (1 | top)
        dom = [values[c] or cand[c] for c in self.cells]
        ones = [j for j, m in enumerate(dom) if m & 1]
        tops = [j for j, m in enumerate(dom) if m & top]
        allowed = [0] * n
        found = False
        for p in ones:
            for q in tops:
                if p == q:
                    continue
                a, b = (p, q) if p < q else (q, p)
                inside = dom[a + 1 : b]
                outside = dom[:a] + dom[b + 1 :]
                for digits in self.sets[b - a - 1]:
                    rest = middle ^ digits
                    union = 0
                    for m in inside:
                        if not m & digits:
                            break
                        union |= m
                    else:
                        if union & digits != digits:
                            continue
                        union = 0
                        for m in outside:
                            if not m & rest:
                                break
                            union |= m
                        else:
                            if union & rest != rest:
                                continue
                            found = True
                            allowed[p] |= 1
                            allowed[q] |= top
                            for j in range(n):
                                if j < a or j > b:
                                    allowed[j] |= rest
                                elif a < j < b:
                                    allowed[j] |= digits
        if not found:
            return None
        out = []
        for j, c in enumerate(self.cells):
            m = dom[j]
            if m & ~allowed[j]:
                if values[c]:
                    return None
                out.append((c, m & allowed[j]))
        return out


_Rule = _SetRule | _LinearRule | _SandwichRule


@cache
def _pair_table(allowed: tuple[int, ...]) -> _PairTable:
    """The byte tables of a pair whose partner may hold ``allowed[d - 1]`` when the cell holds ``d``."""
    n = len(allowed)

    def table(first: int, size: int) -> tuple[int, ...]:
        """The digits allowed for each mask of the ``size`` digits from ``first`` up."""
        out = [0] * size
        for m in range(1, size):
            d = first + (m & -m).bit_length() - 1
            out[m] = out[m & (m - 1)] | (allowed[d] if d < n else 0)
        return tuple(out)

    low = table(0, 256)
    if n <= 16:
        return low, table(8, 1 << max(n - 8, 0))
    return low, _HighBytes(tuple(table(first, 256) for first in range(8, n, 8)))


class _Model:
    """A variant puzzle lowered for the search: peers, units, pair tables, rules over many cells, first candidates."""

    def __init__(self, puzzle: Grid) -> None:
        n, size = puzzle.n, puzzle.shape.size
        self.n, self.full = n, (1 << n) - 1
        self.cand = [self.full] * size
        peers: list[set[int]] = [set() for _ in range(size)]
        groups = [tuple(u) for u in puzzle.units]  # all-different groups of cells
        pairs: list[tuple[int, int]] = []  # all-different pairs of cells
        self.tables: dict[tuple[int, int], list[int]] = {}
        self.rules: list[_Rule] = []
        self.cages: list[tuple[tuple[int, ...], int]] = []  # killer cages with a total
        odd = sum(1 << d for d in range(0, n, 2))
        for rule in puzzle.constraints:
            self._lower(rule, puzzle, groups, pairs, odd)
        for group in groups:
            for i in group:
                peers[i].update(group)
        for a, b in pairs:
            peers[a].add(b)
            peers[b].add(a)
        for i in range(size):
            peers[i].discard(i)
        self.peers = [tuple(sorted(p)) for p in peers]
        # Hidden singles: every all-different group of exactly n cells, once.
        seen: set[frozenset[int]] = set()
        self.units: list[tuple[int, ...]] = []
        for group in groups:
            key = frozenset(group)
            if len(group) == n and key not in seen:
                seen.add(key)
                self.units.append(group)
        unit_ids: list[list[int]] = [[] for _ in range(size)]
        for j, unit in enumerate(self.units):
            for i in unit:
                unit_ids[i].append(j)
        self.unit_ids = [tuple(ids) for ids in unit_ids]
        self.units_of = [sum(1 << j for j in ids) for ids in unit_ids]
        # Pair tables, both ways; two peers also differ, which the table knows too.
        related: list[list[tuple[int, tuple[int, ...], tuple[int, ...]]]] = [[] for _ in range(size)]
        for (a, b), allowed in sorted(self.tables.items()):
            if b in peers[a]:
                allowed = [m & ~(1 << d) for d, m in enumerate(allowed)]
            related[a].append((b, *_pair_table(tuple(allowed))))
        self.related = [tuple(r) for r in related]
        if self.cages:
            self._unit_sums(puzzle)
        for rule in self.rules:
            if isinstance(rule, _SetRule):
                rule.watchers = tuple(sorted(set.intersection(*(peers[i] for i in rule.cells)) - set(rule.cells)))
        rules_of = [0] * size
        for k, rule in enumerate(self.rules):
            for i in rule.cells:
                rules_of[i] |= 1 << k
        self.rules_of = rules_of

    def _unit_sums(self, puzzle: Grid) -> None:
        """Killer cages and the digits of whole units (the "45 rule"): a sum rule for what the cages leave of a unit.

        A unit of n different digits sums to n(n+1)/2 (k rows or columns side by side, k times that). The
        cages that meet it (taken apart from each other) add their totals; so the cells of the unit in no
        cage, less the cells of those cages outside the unit, sum to what is left. Short ones become rules.
        """
        n, whole = self.n, self.n * (self.n + 1) // 2
        owner: dict[int, int] = {}
        cages: list[tuple[frozenset[int], int]] = []
        for cells, total in self.cages:
            if not any(i in owner for i in cells):
                owner.update(dict.fromkeys(cells, len(cages)))
                cages.append((frozenset(cells), total))
        shape = puzzle.shape
        areas = [(unit, whole, True) for unit in self.units]
        for lines in (shape.rows, shape.cols):
            for k in range(2, n // 2 + 1):
                for first in range(n - k + 1):
                    areas.append((tuple(i for line in lines[first : first + k] for i in line), k * whole, False))
        seen = set()
        for area, area_total, distinct in areas:
            inside_area = set(area)
            met = {owner[i] for i in area if i in owner}
            if not met:
                continue
            free = [i for i in area if i not in owner]
            out = sorted(i for k in met for i in cages[k][0] - inside_area)
            total = area_total - sum(cages[k][1] for k in met)
            key = (frozenset(free), frozenset(out))
            if key in seen or not (free or out) or len(free) + len(out) > n // 2 + 1:
                continue
            seen.add(key)
            if not out and distinct:
                self.rules.append(_SetRule(free, _sets(n, len(free), total)))
            else:
                self.rules.append(_LinearRule([(i, 1) for i in free] + [(i, -1) for i in out], total, n))

    def relate(self, a: int, b: int, ok: Callable[[int, int], bool]) -> None:
        """Digits ``x`` at ``a`` and ``y`` at ``b`` must have ``ok(x, y)``: narrow both pair tables."""
        digits = range(1, self.n + 1)
        forward = self.tables.setdefault((a, b), [self.full] * self.n)
        backward = self.tables.setdefault((b, a), [self.full] * self.n)
        for x in digits:
            forward[x - 1] &= sum(1 << (y - 1) for y in digits if ok(x, y))
            backward[x - 1] &= sum(1 << (y - 1) for y in digits if ok(y, x))

    def _lower(
        self, rule: object, puzzle: Grid, groups: list[tuple[int, ...]], pairs: list[tuple[int, int]], odd: int
    ) -> None:
        """Lower one constraint into groups, pairs, pair tables, rules or first candidates."""
        # Here, not at the top: sudokit.variants takes 8 ms to import, and a classic solve never needs it.
        from sudokit.variants import king_pairs, knight_pairs, orthogonal_pairs, undotted_pairs

        n = self.n
        kind: str = rule.kind  # type: ignore[attr-defined]
        cells = rule.indexes(n)  # type: ignore[attr-defined]
        if kind == "extra-region":
            groups.append(cells)
        elif kind == "diagonal":
            groups.append(tuple(r * n + c for r, c in rule.diagonal_cells(n)))  # type: ignore[attr-defined]
        elif kind == "anti-knight":
            pairs.extend(knight_pairs(n))
        elif kind == "anti-king":
            pairs.extend(king_pairs(n))
        elif kind == "non-consecutive":
            for a, b in orthogonal_pairs(n):
                self.relate(a, b, lambda x, y: abs(x - y) != 1)
        elif kind == "killer":
            groups.append(cells)
            total = rule.total  # type: ignore[attr-defined]
            if total is not None:
                self.rules.append(_SetRule(cells, _sets(n, len(cells), total)))
                self.cages.append((cells, total))
        elif kind == "little-killer":
            self.rules.append(_LinearRule([(c, 1) for c in cells], rule.total, n))  # type: ignore[attr-defined]
        elif kind == "arrow":
            circle = rule.circle  # type: ignore[attr-defined]
            weights = (-1,) if len(circle) == 1 else (-10, -1)
            terms = [(c, w) for c, w in zip(cells, weights, strict=False)] + [(c, 1) for c in cells[len(circle) :]]
            self.rules.append(_LinearRule(terms, 0, n))
        elif kind == "sandwich":
            line = tuple(r * n + c for r, c in rule.line_cells(n))  # type: ignore[attr-defined]
            self.rules.append(_SandwichRule(line, rule.total, n))  # type: ignore[attr-defined]
        elif kind == "thermometer":
            for i, j in combinations(range(len(cells)), 2):
                self.relate(cells[i], cells[j], lambda x, y, gap=j - i: y - x >= gap)
        elif kind == "slow-thermometer":
            for i, j in combinations(range(len(cells)), 2):
                self.relate(cells[i], cells[j], lambda x, y: y >= x)
        elif kind == "kropki":
            self.relate(*cells, rule.holds)  # type: ignore[attr-defined]
        elif kind == "kropki-negative":
            for a, b in undotted_pairs(puzzle, "kropki"):
                self.relate(a, b, lambda x, y: abs(x - y) != 1 and x != 2 * y and y != 2 * x)
        elif kind == "xv":
            self.relate(*cells, lambda x, y, total=rule.total: x + y == total)  # type: ignore[attr-defined]
        elif kind == "xv-negative":
            for a, b in undotted_pairs(puzzle, "xv"):
                self.relate(a, b, lambda x, y: x + y not in (5, 10))
        elif kind == "odd-even":
            (i,) = cells
            self.cand[i] &= odd if rule.parity == "odd" else self.full & ~odd  # type: ignore[attr-defined]
        elif kind == "renban":
            k = len(cells)
            groups.append(cells)
            for a, b in combinations(cells, 2):
                self.relate(a, b, lambda x, y: abs(x - y) < k)
            self.rules.append(_SetRule(cells, [((1 << k) - 1) << s for s in range(n - k + 1)]))
        elif kind == "whisper":
            for a, b in pairwise(cells):
                self.relate(a, b, lambda x, y, gap=rule.difference: abs(x - y) >= gap)  # type: ignore[attr-defined]
        elif kind == "palindrome":
            for k in range(len(cells) // 2):
                self.relate(cells[k], cells[-1 - k], lambda x, y: x == y)
        else:  # the engine declares only the kinds above; the core refuses the others
            raise ValueError(f"backtrack does not take {kind} constraints")


class _VariantSearch(_Search):
    """The smart search on a variant puzzle: the lowered rules narrow candidates whenever a cell's candidates narrow."""

    def __init__(self, puzzle: Grid, limit: int, deadline: float | None, keep: int) -> None:
        _Base.__init__(self, puzzle, limit, deadline, keep)
        model = _Model(puzzle)
        self.model = model
        self.full = model.full
        self.peers = model.peers
        self.related = model.related
        self.rules = model.rules
        self.rules_of = model.rules_of
        self.units_of = model.units_of
        self.unit_ids = model.unit_ids
        # Every unit's used table sits in state[2] (one list for all of them).
        self.unit_info = [(unit, itemgetter(*unit), 2, j) for j, unit in enumerate(model.units)]
        self.dirty = self.dirty_rules = 0
        self.naked = self.hidden = 0
        # Among the cells of fewest candidates, the one most rules touch is guessed on.
        self.weight = [
            len(model.peers[i]) + 2 * len(model.related[i]) + 4 * model.rules_of[i].bit_count()
            for i in range(len(model.peers))
        ]

    def run(self) -> None:
        cells = self.puzzle.cells
        state = (self.model.cand[:], [0] * len(cells), [0] * len(self.unit_info))
        places = [(i, 1 << (v - 1)) for i, v in enumerate(cells) if v]
        changed = [i for i, r in enumerate(self.related) if r]  # every pair table narrows from the start
        if not self.propagate(state, places, changed, len(places)):
            return
        self.dirty = (1 << len(self.unit_info)) - 1
        self.dirty_rules = (1 << len(self.rules)) - 1
        self.search(state, 0)

    def assign(self, state: tuple[list[int], ...], i: int, bit: int) -> bool:
        """Place ``bit`` at cell ``i`` and everything that follows from it (see :meth:`propagate`)."""
        return self.propagate(state, [(i, bit)], [], 1)

    def propagate(
        self, state: tuple[list[int], ...], places: list[tuple[int, int]], changed: list[int], asked: int
    ) -> bool:
        """Place ``places`` and narrow the partners of ``changed`` cells, to a fixed point; False on a contradiction.

        A placed digit leaves its peers; a cell whose candidates narrowed narrows its pair partners; a cell
        left with one candidate is placed (a naked single). The units and rules of every cell that changed
        are marked for hidden singles and the rules' propagators. ``asked`` placements are not counted as singles.
        """
        cand, values, used = state
        peers, related, units_of, unit_ids, rules_of = (
            self.peers,
            self.related,
            self.units_of,
            self.unit_ids,
            self.rules_of,
        )
        dirty, dirty_rules = self.dirty, self.dirty_rules
        placed = 0
        while True:
            while places:
                i, bit = places.pop()
                if values[i]:
                    if values[i] != bit:
                        return False
                    continue
                if not cand[i] & bit:
                    return False
                values[i] = bit
                cand[i] = 0
                placed += 1
                for u in unit_ids[i]:
                    used[u] |= bit
                dirty |= units_of[i]
                dirty_rules |= rules_of[i]
                for p in peers[i]:
                    m = cand[p]
                    if m & bit:
                        m ^= bit
                        if not m:
                            return False
                        cand[p] = m
                        dirty |= units_of[p]
                        dirty_rules |= rules_of[p]
                        if not m & (m - 1):
                            places.append((p, m))
                        elif related[p]:
                            changed.append(p)
                for b, low, high in related[i]:
                    allowed = low[bit & 255] | high[bit >> 8]
                    v = values[b]
                    if v:
                        if not v & allowed:
                            return False
                        continue
                    m = cand[b]
                    if m & ~allowed:
                        m &= allowed
                        if not m:
                            return False
                        cand[b] = m
                        dirty |= units_of[b]
                        dirty_rules |= rules_of[b]
                        if not m & (m - 1):
                            places.append((b, m))
                        elif related[b]:
                            changed.append(b)
            if not changed:
                break
            a = changed.pop()
            mine = cand[a]
            if not mine:
                continue  # placed since: its placement narrowed its partners
            for b, low, high in related[a]:
                allowed = low[mine & 255] | high[mine >> 8]
                v = values[b]
                if v:
                    if not v & allowed:
                        return False
                    continue
                m = cand[b]
                if m & ~allowed:
                    m &= allowed
                    if not m:
                        return False
                    cand[b] = m
                    dirty |= units_of[b]
                    dirty_rules |= rules_of[b]
                    if not m & (m - 1):
                        places.append((b, m))
                    elif related[b]:
                        changed.append(b)
        self.dirty, self.dirty_rules = dirty, dirty_rules
        self.naked += placed - asked
        return True

    def run_rules(self, state: tuple[list[int], ...]) -> bool:
        """Run the propagator of every rule whose cells changed, until none did; False on a contradiction."""
        cand, values = state[0], state[1]
        rules, units_of, rules_of, related = self.rules, self.units_of, self.rules_of, self.related
        while self.dirty_rules:
            low = self.dirty_rules & -self.dirty_rules
            self.dirty_rules ^= low
            narrowed = rules[low.bit_length() - 1].propagate(cand, values)
            if narrowed is None:
                return False
            if narrowed:
                places, changed = [], []
                for c, m in narrowed:
                    cand[c] = m
                    self.dirty |= units_of[c]
                    self.dirty_rules |= rules_of[c]
                    if not m & (m - 1):
                        places.append((c, m))
                    elif related[c]:
                        changed.append(c)
                self.dirty_rules &= ~low  # each propagator is at its fixed point after one call
                if not self.propagate(state, places, changed, 0):
                    return False
        return True

    def search(self, state: tuple[list[int], ...], depth: int) -> None:
        """Hidden singles and the rules' propagators to a fixed point, then guess on the fewest candidates."""
        self.nodes += 1
        if depth > self.max_depth:
            self.max_depth = depth
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise _Timeout
        while True:
            if not self.hidden_singles(state):
                return
            if not self.dirty_rules:
                break
            if not self.run_rules(state):
                return
        cand = state[0]
        best, best_score = -1, 1 << 30
        weight = self.weight
        for i, m in enumerate(cand):
            if m:
                score = (m.bit_count() << 12) - weight[i]
                if score < best_score:
                    best, best_score = i, score
        if best < 0:
            self.found(tuple(v.bit_length() for v in state[1]))
            return
        m = cand[best]
        while m:
            bit = m & -m
            m ^= bit
            self.guesses += 1
            trial = (state[0][:], state[1][:], state[2][:])
            self.dirty = self.dirty_rules = 0
            if self.assign(trial, best, bit):
                before = self.count
                self.search(trial, depth + 1)
                if self.count == before:
                    self.backtracks += 1
            else:
                self.backtracks += 1
                weight[best] += 1
