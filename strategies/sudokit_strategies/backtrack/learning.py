"""The clause learning of ``backtrack``, for the hardest big boards (from 25x25 up, or ``inference="learn"``).

:class:`Learner` takes over from :class:`~sudokit_strategies.backtrack.big.BigSearch` at its settled root:
conflict-driven clause learning on the literals "cell c holds digit d", propagated by the singles and
locked candidates, with first-UIP learned clauses, VSIDS branching, Luby restarts and LBD reduction.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import cache
from heapq import heapify, heappop, heappush

from sudokit import Shape
from sudokit_strategies.backtrack.base import Base, Timeout

__all__ = ["Learner"]

_DECAY = 0.95  # the learning search's activities decay by this at each conflict (VSIDS)
_RESTART_UNIT = 100  # conflicts: the restarts are this times the Luby sequence
_FIRST_REDUCE, _MORE_REDUCE = 2000, 1000  # learned clauses kept before halving them, and the step after each


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


class Learner:
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

    def __init__(self, owner: Base, cand: list[int], values: list[int]) -> None:
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
            path: list[tuple[int, int, Sequence[int]]]
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
            raise Timeout
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
                    raise Timeout
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
                raise Timeout
            self.levels.append(len(self.trail))
            self.max_level = max(self.max_level, len(self.levels))
            self.assign(lit, None)
