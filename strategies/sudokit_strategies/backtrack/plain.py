"""The plain search of ``backtrack`` (``order="plain"``): the LeetCode 37 write-ups' backtracker, exactly.

The first empty cell in reading order, digits in increasing order, no singles: the search the engine
started from, kept so that both can be compared on the same puzzle (``--stats``).
"""

from __future__ import annotations

import time

from sudokit_strategies.backtrack.base import Base, Timeout

__all__ = ["PlainSearch"]

_PLAIN_DEADLINE_EVERY = 4095  # the plain order's nodes take ~1 us: look at the clock every 4096


class PlainSearch(Base):
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
            raise Timeout
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
