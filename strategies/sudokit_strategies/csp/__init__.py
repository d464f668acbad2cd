"""``python-constraint``: Sudoku as a CSP on python-constraint2 (the maintained, compiled fork).

A classic puzzle is one variable per cell left open and one constraint, the all-different of every row,
column and box, that propagates to a fixed point after each assignment and at the root, where it decides
what it can before the search (:mod:`.classic`, with its measurements). A puzzle with irregular regions
or variant rules is the variant model below: the digits each cell may hold, pruned to a fixed point
before the search, the all-different of its groups and its rules, all propagated together to a fixed point
after each assignment by one constraint (:mod:`.propagation`). Either model is searched
in a worker process, a child ``python`` that streams each solution back and is killed at the time
limit (:mod:`.worker`).

The solver is chosen by name, ``backtracking`` by default (the fewest values first, at each node; the
variant model relies on it). With this model ``optimized`` (an order fixed once, by the root's domains)
is quicker on classic boards (top95 4.1 ms a puzzle against 6.1; the five 16x16 0.1-4.1 s against
0.3-5.3); ``recursive`` ties on top95 and varies on 16x16 (0.1-8.2 s). ``backtracking`` stays the
default for the variants' sake.

The package, a module per idea: this module is the engine (its options, the model a puzzle gets, its
answer) and the variant model, :mod:`.propagation` the one constraint that propagates the variant model's
groups and rules in the search, :mod:`.classic` the classic model and its propagation, :mod:`.worker` the
worker processes that run the searches.
"""

from __future__ import annotations

import math
import queue
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from itertools import combinations, pairwise, permutations
from typing import Any

import constraint

from sudokit import (
    ALL_KINDS,
    Capabilities,
    Constraint,
    Grid,
    Result,
    Status,
    king_pairs,
    knight_pairs,
    orthogonal_pairs,
    undotted_pairs,
)
from sudokit_strategies.csp.classic import ClassicModel, Propagator, board_of, classic_model
from sudokit_strategies.csp.propagation import Propagate, skyline_masks
from sudokit_strategies.csp.worker import run_in_worker, stop_workers

__all__ = ["BRANCHING", "INFERENCE", "SOLVERS", "ConstraintStrategy", "stop_workers"]

#: The solvers of python-constraint2 that can enumerate solutions lazily, by option name.
SOLVERS: dict[str, type[constraint.Solver]] = {
    "backtracking": constraint.BacktrackingSolver,
    "recursive": constraint.RecursiveBacktrackingSolver,
    "optimized": constraint.OptimizedBacktrackingSolver,
}

#: What the search may branch on (``branching`` option): ``cells`` (a cell's digits: the default), or
#: ``places`` (also a digit's places in a unit, as variables of their own; measured slower, see classic).
BRANCHING = ("cells", "places")
#: How much the all-different infers (``inference`` option, see classic.Board): ``singles``, ``pairs`` (also
#: locked candidates and failed literals of two-digit cells), ``places`` (also of a digit's two places in a
#: unit); ``auto`` picks by the board's side: _INFERENCE_BY_SIDE[side] for the first side listed at or above it.
INFERENCE = ("auto", "singles", "pairs", "places")
_LEVELS = {"singles": 0, "pairs": 1, "places": 2}
_INFERENCE_BY_SIDE = ((12, 0), (16, 1), (10**9, 2))

_FAILSAFE = 5.0  # a worker left running this long past its time limit ends itself
_LONGEST_ALARM = 1e9  # seconds (about 31 years): setitimer refuses 1e10

# What one search needs, all plain data (it travels to the worker by pickle). A classic puzzle's model is a
# ClassicModel. A variant puzzle's is a tuple (cells, variables, groups, rules, weights): groups are (blanks,
# digits) of cells that hold different digits (digits: those a whole row, column or region must hold, else
# None), rules are _Rule, weights say how many of the puzzle's clues each variable is in (the search order:
# _level_degrees).
_Model = tuple[Any, ...]


# A variant rule, and the constraint the worker makes of it (_library_constraint):
#   ("pair", a, b, table)                        FunctionConstraint of _in_table: (digit a, digit b) is in table
#   ("sum", blanks, multipliers or None, total)  _Sum: the sum of multiplier * digit is total
#   ("layouts", blanks, masks)                   _Layouts: the digits fit one layout (a digit bit mask per blank)
#   ("skyline", blanks, line, left, right)       _skyline: a row or column (its givens, 0: a blank) with left
#                                                digits seen from its start and right from its end (0: no clue)
_Rule = tuple[Any, ...]


class ConstraintStrategy:
    """A python-constraint2 CSP: the open cells, and a propagating all-different of every unit."""

    name = "python-constraint"
    #: The default solver's description (what ``sudoku strategies`` reads without loading the engine).
    description = "python-constraint2 CSP (backtracking solver): open cells, all-different units with singles"
    #: Boards up to 36x36 (see classic: the first 25x25 of puzzles/sizes is not solved in 60 s); every variant.
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
        stats["constraints"] = len(model[2]) + (0 if isinstance(model, ClassicModel) else len(model[3]))  # +rules
        keep = limit if keep is None else keep
        if time_limit is None:
            run = run_in_worker(_search, model, self.solver, (limit, keep), deadline=None, failsafe=0.0)
        else:
            failsafe = min(time_limit + _FAILSAFE, _LONGEST_ALARM)
            run = run_in_worker(_search, model, self.solver, (limit, keep), start + time_limit, failsafe)
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
    """The CSP after propagation at the root (see classic.Board.settle); None when it proves the puzzle unsolvable.

    A classic puzzle's is a ClassicModel (classic_model); a variant puzzle's comes from _variant_model.
    """
    if not puzzle.is_classic:
        return _variant_model(puzzle)
    return classic_model(puzzle, places=places, level=level)


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
        skylines = self.skylines()
        if skylines is None:
            return None  # two clues of one end that differ
        for line, (left, right) in skylines.items():
            digits = tuple(cells[i] for i in line)
            blanks = tuple(i for i in line if not cells[i])
            if not blanks:
                if skyline_masks([1 << d for d in digits], left, right) is None:
                    return None  # the givens break it
                continue
            rules.append(("skyline", blanks, digits, left, right))
        weights = {i: self.weights[i] for i, _ in variables}
        return cells, variables, list(groups.values()), rules, weights

    def skylines(self) -> dict[tuple[int, ...], tuple[int, int]] | None:
        """The skyscraper clues by row or column (its cells from one end): the counts seen from that end and
        from the other (0: no clue); None when two clues of one end differ."""
        out: dict[tuple[int, ...], list[int]] = {}
        for line, count in self.skyscrapers:
            key, end = (line[::-1], 1) if line[::-1] in out else (line, 0)
            ends = out.setdefault(key, [0, 0])
            if ends[end] not in (0, count):
                return None
            ends[end] = count
        return {line: (left, right) for line, (left, right) in out.items()}

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
    # odd-even and pencil marks show in the cell's digits; a skyscraper clue weighs its whole row or column
    # alike, and on a board clued all round that order is noise (measured: Renban Skyscrapers 7 s of CPU in
    # it, 1.2 s by values left alone; Trollscraper 118 s and 18 s)
    if kind not in _EVERYWHERE and kind not in ("odd-even", "pencil-marks", "skyscraper"):
        for i in cells:
            model.weights[i] += 1
    if kind in ("extra-region", "renban"):
        model.groups.append(cells)
        if kind == "renban":  # different digits making a run: a layout per run (its digits on every cell)
            runs = (frozenset(range(low, low + len(cells))) for low in range(1, n - len(cells) + 2))
            model.layouts.append((cells, [(run,) * len(cells) for run in runs]))
    elif kind == "clone":
        for a, b in rule.pairs(n):  # type: ignore[attr-defined]
            model.relate(a, b, _table(n, "equal"))
    elif kind == "disjoint-groups":
        model.groups.extend(rule.groups(model.puzzle.shape))  # type: ignore[attr-defined]
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
    elif kind == "quadruple":  # a layout per placing of the listed digits in the four cells, the rest free
        digits, every = rule.digits, frozenset(range(1, n + 1))  # type: ignore[attr-defined]
        layouts = (
            tuple(frozenset((digits[at.index(k)],)) if k in at else every for k in range(len(cells)))
            for at in permutations(range(len(cells)), len(digits))
        )
        model.layouts.append((cells, list(dict.fromkeys(layouts))))
    elif kind == "min-max":  # the cell below (above) each neighbour but other minimum (maximum) cells
        (i,) = cells
        for r, c in rule.compared(model.puzzle):  # type: ignore[attr-defined]
            j = r * n + c
            a, b = (i, j) if rule.extreme == "minimum" else (j, i)  # type: ignore[attr-defined]
            model.relate(a, b, _table(n, "rise", 1))
    elif kind == "pencil-marks":
        model.domains[cells[0]] &= set(rule.digits)  # type: ignore[attr-defined]
    elif kind == "between-line":  # each cell between with the two ends: the triples of digits it brackets
        a, b = cells[0], cells[-1]
        model.relate(a, b, _table(n, "far", 2))
        for i in cells[1:-1]:
            model.layouts.append(((a, i, b), _between(n)))
    elif kind == "region-sum-line":  # each segment after the first less the first sums to 0
        first, *others = [tuple(r * n + c for r, c in seg) for seg in rule.segments(model.puzzle)]  # type: ignore[attr-defined]
        for segment in others:
            model.sums.append((tuple([(i, 1) for i in segment] + [(i, -1) for i in first]), 0))
    elif kind in ("entropic-line", "modular-line"):  # cells one or two apart: digits of different groups
        for k in range(len(cells) - 1):
            for b in cells[k + 1 : k + 3]:
                model.relate(cells[k], b, _table(n, "thirds" if kind == "entropic-line" else "residues"))
    elif kind == "zipper-line":  # each pair less the centre (or the outermost pair) sums to 0
        pairs, centre = rule.zips()  # type: ignore[attr-defined]
        sums = [[(a[0] * n + a[1], 1), (b[0] * n + b[1], 1)] for a, b in pairs]
        total = [(centre[0][0] * n + centre[0][1], -1)] if centre else [(i, -1) for i, _ in sums[0]]
        for s in sums if centre else sums[1:]:
            model.sums.append((tuple(s + total), 0))
    elif kind == "lockout-line":  # each cell between with the two ends: the triples of digits it stays outside
        a, b = cells[0], cells[-1]
        gap = rule.difference  # type: ignore[attr-defined]
        model.relate(a, b, _table(n, "far", gap))
        for i in cells[1:-1]:
            model.layouts.append(((a, i, b), _lockout(n, gap)))
    elif kind == "nabner-line":  # every two cells: neither equal nor consecutive
        for a, b in combinations(cells, 2):
            model.relate(a, b, _table(n, "far", 2))
    elif kind == "double-arrow":  # the two ends less the cells between sum to 0
        model.sums.append((((cells[0], 1), (cells[-1], 1), *((i, -1) for i in cells[1:-1])), 0))
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
        "thirds": lambda x, y: (x - 1) * 3 // n != (y - 1) * 3 // n,
        "residues": lambda x, y: x % 3 != y % 3,
    }[relation]
    digits = range(1, n + 1)
    return frozenset((x, y) for x in digits for y in digits if holds(x, y))


@cache
def _between(n: int) -> list[tuple[frozenset[int], ...]]:
    """The layouts of (an end, a cell between, the other end): one per triple of digits, the middle strictly between."""
    digits = range(1, n + 1)
    return [
        (frozenset((x,)), frozenset((m,)), frozenset((y,)))
        for x in digits
        for y in digits
        for m in digits
        if min(x, y) < m < max(x, y)
    ]


@cache
def _lockout(n: int, gap: int) -> list[tuple[frozenset[int], ...]]:
    """The layouts of (an end, a cell between, the other end): the ends ``gap`` apart, the middle outside them."""
    digits = range(1, n + 1)
    return [
        (frozenset((x,)), frozenset((m,)), frozenset((y,)))
        for x in digits
        for y in digits
        for m in digits
        if abs(x - y) >= gap and not min(x, y) <= m <= max(x, y)
    ]


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
    cells, domains, groups, rules, _ = model
    problem = constraint.Problem(SOLVERS[solver]())
    for i, domain in domains:
        problem.addVariable(i, domain)
    _add_variant_rules(problem, len(cells), groups, rules, weights, clock)
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
    size: int,
    groups: list[tuple[tuple[int, ...], frozenset[int] | None]],
    rules: list[_Rule],
    weights: dict[int, int],
    clock: _Clock | None,
) -> None:
    """Add a variant model's groups and rules (one Propagate, on a board of ``size`` cells) and ``clock`` to
    ``problem``; order its variables."""
    variables = list(weights)
    if variables:
        problem.addConstraint(Propagate(size, groups, rules), variables)
    if clock is not None and len(weights) > 1:
        problem.addConstraint(clock, variables)
    _level_degrees(problem, weights, [variables])


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


def _search(model: _Model, solver: str) -> Iterator[tuple[int, ...]]:
    """Every solution of the model as a full tuple of cells, lazily."""
    cells, domains = model[0], model[1]
    if not domains:  # no blank: the puzzle is its own solution (its givens do not clash, nor break a rule)
        yield cells
        return
    if not isinstance(model, ClassicModel):
        yield from _variant_search(model, solver)
        return
    shape, places, level = model.shape, model.places, model.level
    board = board_of(shape)
    problem = constraint.Problem(SOLVERS[solver]())
    variables = list(domains) + (board.places(domains) if places else [])
    for var, values in variables:
        problem.addVariable(var, values)
    problem.addConstraint(Propagator(board, cells, places=places, level=level), [var for var, _ in variables])
    grid = list(cells)
    size = shape.size
    for assignment in problem.getSolutionIter():
        for i, v in assignment.items():
            if i < size:
                grid[i] = v
        yield tuple(grid)
