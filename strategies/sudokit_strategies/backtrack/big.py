"""The search of ``backtrack`` on big boards: locked candidates and a look-ahead on the cells of two candidates.

Boards of 16x16 and more (``BIG_SIDE``, ``inference="auto"``; any classic board with ``"strong"``) add, after
the singles of :mod:`.search`, locked candidates to a fixed point (a digit whose places in a box lie on one
line leaves the rest of that line, and the other way round), then try both digits of every cell with two
candidates (failed literals). With ``learn_after`` the search hands over to the clause learning of
:mod:`.learning`. The ``numba`` engine builds its tables from :func:`box_line_segments`, so that both
engines search node for node alike.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import cache

from sudokit import Grid, Shape
from sudokit_strategies.backtrack.base import Timeout
from sudokit_strategies.backtrack.learning import Learner
from sudokit_strategies.backtrack.search import Search

__all__ = ["BigSearch", "box_line_segments"]


class _Learn(Exception):
    """The big-board search failed its guesses without a solution: clause learning takes over."""


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
def _locked_finder(shape: Shape) -> tuple[Callable[[list[int]], list[tuple[int, int]]], _Cells]:
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


class BigSearch(Search):
    """The smart search with locked candidates and a look-ahead, for boards of 16x16 and more.

    With ``learn_after`` (25x25 and more), the search hands over to :class:`Learner` from the settled
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
        self.learner: Learner | None = None

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
        self.learner = Learner(self, *root)
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
                        raise Timeout
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
            raise Timeout
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
