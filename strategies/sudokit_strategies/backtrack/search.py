"""The classic search of ``backtrack`` (``order="smart"``): bit-mask used tables, singles, fewest candidates first.

Every blank cell keeps its candidates as a bit mask (bit d-1 stands for digit d), narrowed as its peers
are filled; naked and hidden singles are placed before guessing, and the guess is on the first cell of
fewest candidates. Classic boards below 16x16 run it as it is; :mod:`.big` and :mod:`.variants` build on it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from operator import itemgetter

from sudokit import Grid
from sudokit_strategies.backtrack.base import Base, Timeout

__all__ = ["Search"]


class Search(Base):
    """Candidate masks per cell, singles before guessing, fewest candidates first."""

    def __init__(self, puzzle: Grid, limit: int, deadline: float | None, keep: int) -> None:
        super().__init__(puzzle, limit, deadline, keep)
        shape = puzzle.shape
        self.full = shape.full_mask
        self.peers: Sequence[tuple[int, ...]] = shape.peers
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
            raise Timeout
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
