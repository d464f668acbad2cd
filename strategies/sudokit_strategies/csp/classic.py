"""The classic model of the ``python-constraint`` engine: a classic puzzle as a CSP whose all-different propagates.

The model: one variable per cell left open, and the all-different of every row, column and box as one
constraint that propagates (Propagator). Before the search the givens are propagated to a fixed point
(Board.settle: naked and hidden singles, and locked candidates, a digit confined to one line of a box or
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
the root and after each assignment: locked candidates, then failed literals (Board.probe): each digit of
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
are the cells that may hold it, channelled with the cells in Propagator so that each grid is found once)
does not pay: the solver takes the fewest values first, a two-digit cell is always there to tie with a
two-place digit, and the extra variables cost at every node. Cells first on ties: the same nodes as
without, 16x16 8x slower (4x4 #1 42 s against 5.3); places first: 10-15x the nodes (the third: 59 s against 0.23).
So it is off by default; the probing of two places above is where a digit's places pay.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import cache
from typing import NamedTuple

import constraint

from sudokit import Grid, Shape

__all__ = ["Board", "ClassicModel", "Propagator", "board_of", "classic_model"]


class ClassicModel(NamedTuple):
    """A classic puzzle after the root's propagation (see Board.settle and Board.probe)."""

    cells: tuple[int, ...]  # the givens, and the digits the propagation decided; 0 where still open
    variables: list[tuple[int, list[int]]]  # (cell, digits) per cell left open
    units: list[tuple[int, ...]]  # the open cells of each unit that has two or more
    shape: Shape
    places: bool  # search on digits' places too (branching=places)
    level: int  # the inference after each placement: 0 singles, 1 pairs, 2 places


def classic_model(puzzle: Grid, *, places: bool = False, level: int = 0) -> ClassicModel | None:
    """A classic ``puzzle``'s CSP after propagation at the root (see Board.settle); None when it proves it unsolvable.

    ``places`` searches on digits' places too (``branching="places"``), ``level`` is the inference after each
    placement (see ClassicModel).
    """
    shape, cells = puzzle.shape, puzzle.cells
    for unit in shape.units:
        mask = 0
        for i in unit:
            if cells[i]:
                bit = 1 << cells[i]
                if mask & bit:
                    return None  # two equal givens in one unit
                mask |= bit
    board = board_of(shape)
    masks = board.settle(cells)
    if masks is None or (level and not board.probe(masks, set(), locked=True, places=level > 1)):
        return None
    fixed = tuple(0 if m & (m - 1) else m.bit_length() - 1 for m in masks)
    variables = [(i, [d for d in range(1, shape.n + 1) if m >> d & 1]) for i, m in enumerate(masks) if m & (m - 1)]
    units = [blanks for unit in shape.units if len(blanks := tuple(i for i in unit if not fixed[i])) > 1]
    return ClassicModel(fixed, variables, units, shape, places, level)


@cache
def board_of(shape: Shape) -> Board:
    """The board of ``shape``: its tables, made once per shape."""
    return Board(shape)


class Board:
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


class Propagator(constraint.Constraint):
    """The all-different of every row, column and box as one constraint on all the open cells, propagating.

    The library's solvers call a variable's constraints after each assignment, with the domains of the
    variables still open pushed, so that a constraint may hide values (forward checking). This one
    takes the variable just assigned (the last key of the assignments, in each of the library's solvers)
    and propagates its digit to a fixed point (Board.propagate: naked and hidden singles), hiding every
    digit it rules out and failing on a cell or a unit digit with no place left. The domains it starts
    from are those the previous assignment left at a fixed point, and the root's are (Board.settle).
    """

    def __init__(self, board: Board, fixed: Sequence[int], *, places: bool = False, level: int = 0) -> None:
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
