"""``backtrack``: the LeetCode 37 write-ups' recursive backtracker, with bit masks and singles.

The write-ups fill the board recursively: pick an empty cell, try each digit that the row, column
and box "used" tables allow, recurse, and undo the placement when nothing below it works. This
engine keeps that shape and makes it fast:

* the used tables are int bit masks (bit d-1 stands for digit d), one per row, column and box;
* every blank cell keeps its candidate mask, narrowed as its peers are filled;
* singles are placed before guessing: a cell with one candidate (naked single) and a digit with one
  place left in a row, column or box (hidden single);
* the cell with the fewest candidates is the one guessed on.

``order="plain"`` runs the write-ups' search exactly: the first empty cell in reading order, digits
in increasing order, no singles, so the two can be compared on the same puzzle (``--stats``).

Solutions are counted up to ``limit`` and only the first ``keep`` are stored, so counting a board
with millions of solutions takes no memory.
"""

from __future__ import annotations

import sys
import time
from operator import itemgetter
from typing import Literal

from sudokit import Capabilities, Grid, Result, Status

__all__ = ["BacktrackStrategy"]

_PLAIN_DEADLINE_EVERY = 4095  # the plain order's nodes take ~1 us: look at the clock every 4096


class _Stop(Exception):
    """The limit of solutions was reached."""


class _Timeout(Exception):
    """The time limit ran out."""


class BacktrackStrategy:
    """Recursive backtracking with bit-mask used tables, fewest-candidates-first and singles."""

    name = "backtrack"
    #: The default order's description (what ``sudoku strategies`` reads without loading the engine).
    description = "recursive backtracking: bit-mask used tables, singles first, fewest-candidates cell"
    #: Boards up to 16x16 (0.1-1.5 s each of puzzles/sizes/box4x4.txt); it does not finish the 25x25 of
    #: puzzles/sizes/box5x5.txt in 60 s: singles and fewest candidates are too weak there.
    capabilities = Capabilities(max_side=16)

    def __init__(self, order: Literal["smart", "plain"] = "smart") -> None:
        if order not in ("smart", "plain"):
            raise ValueError(f"order must be 'smart' or 'plain', not {order!r}")
        self.order = order
        if order == "plain":
            self.description = "the write-ups' plain backtracker: first empty cell, digits in order, no singles"
            #: The plain order guesses blindly: boards up to 9x9 (hard ones take seconds).
            self.capabilities = Capabilities(max_side=9)

    def __repr__(self) -> str:
        return f"BacktrackStrategy(order={self.order!r})"

    def solve(
        self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> Result:
        """Count up to ``limit`` solutions of ``puzzle`` within ``time_limit`` seconds, keeping the first ``keep``."""
        start = time.perf_counter()
        deadline = None if time_limit is None else start + time_limit
        search = _PlainSearch if self.order == "plain" else _Search
        engine = search(puzzle, limit, deadline, limit if keep is None else keep)
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
        full, size = self.full, len(self.puzzle.cells)
        # The used tables: one mask per row, column and box of the digits placed there.
        rows, cols, boxes = [0] * self.n, [0] * self.n, [0] * self.n
        cand = [full] * size  # candidates of each blank; 0 once a cell is filled
        values = [0] * size  # the placed digit of each cell, as its bit
        state = (cand, values, rows, cols, boxes)
        for i, v in enumerate(self.puzzle.cells):
            if v and not self.assign(state, i, 1 << (v - 1)):
                return  # the givens contradict each other through their consequences
        self.dirty = (1 << len(self.units)) - 1
        self.search(state, 0)

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
