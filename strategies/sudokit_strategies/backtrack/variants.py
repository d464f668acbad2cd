"""The search of ``backtrack`` on variant puzzles: every rule lowered, once, into what placing a digit does.

All-different rules (a jigsaw's regions, extra regions, diagonals, killer cages, renban lines, anti-knight and
anti-king) become more peers; rules between two cells become pair tables, and rules over many cells (quadruples too) the
propagators of :mod:`.rules`, run when one of their cells changes. Killer cages and the houses give sum rules for
what the cages leave of a house, of lines side by side, or of rows less columns (the "45 rule", innies and outies;
see :meth:`_Model._unit_sums`). Classic puzzles never come here.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from itertools import combinations, pairwise, product
from operator import itemgetter

from sudokit import Grid
from sudokit_strategies.backtrack.base import Base, Timeout
from sudokit_strategies.backtrack.rules import (
    GROUP_CELLS,
    ArrowRule,
    BetweenRule,
    GroupSumRule,
    HighBytes,
    LinearRule,
    QuadrupleRule,
    Rule,
    SandwichRule,
    SetRule,
    SkyscraperRule,
    TableRule,
    XSumRule,
    digit_sets,
    pair_table,
)
from sudokit_strategies.backtrack.search import Search

__all__ = ["VariantSearch"]


#: The most cells (the circle's one included) of an arrow that becomes a :class:`TableRule`.
ARROW_TABLE_CELLS = 4
#: The most cells of a sum the houses and cages leave that becomes a :class:`GroupSumRule` when some of its cells
#: see each other (beyond, a :class:`LinearRule`): on "Solver needs SET" the group rules of 6 cells take the search
#: to a proof in 23,000 nodes, where with linear rules alone it had not finished after 74,000; on rules of 9 or 10
#: cells they cost more time than they save.
GROUP_RULE_CELLS = 6


def arrow_table(cells: Sequence[int], n: int, peers: list[set[int]]) -> TableRule:
    """An arrow of one circle cell as the rows of its digits: the circle the sum, peers on it different."""
    circle, line = cells[0], cells[1:]
    apart = [(i, j) for i, j in combinations(range(len(line)), 2) if line[j] in peers[line[i]]]
    rows = []
    for digits in product(range(1, n + 1), repeat=len(line)):
        total = sum(digits)
        if total > n or any(digits[i] == digits[j] for i, j in apart):
            continue
        if any(total == d and circle in peers[c] for c, d in zip(line, digits, strict=True)):
            continue
        rows.append(tuple(1 << (d - 1) for d in (total, *digits)))
    return TableRule(cells, rows)


def take_out_cages(
    weights: dict[int, int],
    total: int,
    cages: Sequence[tuple[frozenset[int], int]],
    owner: dict[int, int],
    *,
    fewer: bool,
) -> tuple[dict[int, int], int] | None:
    """The cells of an area (``weights``, summing to ``total``) less the cages met: what is left and its total.

    A cage (``owner``: the cage of each caged cell) whose cells in the area all have weight ``w`` is taken
    out (with ``fewer``, only when that leaves no more cells than before): ``w`` times its total leaves the
    area's, and each of its cells loses ``w`` of its weight (a cell outside the area comes in with ``-w``).
    None when no cage is taken out (the houses' rules say it all).
    """
    weights = dict(weights)
    met = False
    for k in sorted({owner[i] for i in weights if i in owner}):
        cells, cage_total = cages[k]
        inside = {weights[i] for i in cells if i in weights}
        if len(inside) != 1:
            continue
        (w,) = inside
        after = {i: weights.get(i, 0) - w for i in cells}
        if fewer and sum(1 for v in after.values() if v) > sum(1 for i in cells if i in weights):
            continue
        met = True
        total -= w * cage_total
        for i, v in after.items():
            if v:
                weights[i] = v
            else:
                del weights[i]
    return (weights, total) if met else None


def different_groups(terms: dict[int, int], peers: list[set[int]]) -> list[tuple[int, list[int]]]:
    """The cells of ``terms`` (cell: weight) in groups of one weight whose cells see each other (so differ)."""
    groups: list[tuple[int, list[int]]] = []
    for i in sorted(terms):
        w = terms[i]
        for gw, cells in groups:
            if gw == w and len(cells) < GROUP_CELLS and all(j in peers[i] for j in cells):
                cells.append(i)
                break
        else:
            groups.append((w, [i]))
    return groups


def dot_chains(
    dots: Sequence[tuple[int, ...]], tables: dict[tuple[int, int], list[int]], peers: list[set[int]], n: int
) -> list[TableRule]:
    """A table for each cell between two kropki dots whose far cells see each other (so differ): ``(middle, a, b)``.

    Pair tables alone let a black dot's 1 sit between two 2s of one row; the three cells' rows do not.
    """
    partners: dict[int, list[int]] = {}
    for a, b in dots:
        partners.setdefault(a, []).append(b)
        partners.setdefault(b, []).append(a)
    out = []
    made: dict[tuple[tuple[int, ...], tuple[int, ...]], TableRule] = {}  # the dots' kinds repeat: rows shared
    for middle, ends in sorted(partners.items()):
        for a, b in combinations(sorted(set(ends)), 2):
            if b not in peers[a]:
                continue
            key = (tuple(tables[(middle, a)]), tuple(tables[(middle, b)]))
            like = made.get(key)
            if like is not None:
                out.append(TableRule((middle, a, b), like.rows, like))
                continue
            rows: list[tuple[int, int, int]] = []
            for x, (to_a, to_b) in enumerate(zip(*key, strict=True)):
                for y in range(n):
                    if to_a >> y & 1:
                        rows.extend((1 << x, 1 << y, 1 << z) for z in range(n) if to_b >> z & 1 and z != y)
            out.append(made.setdefault(key, TableRule((middle, a, b), rows)))
    return out


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
        self.rules: list[Rule] = []
        self.cages: list[tuple[tuple[int, ...], int]] = []  # killer cages with a total
        self.arrows: list[tuple[int, tuple[int, ...]]] = []  # (index in rules, cells) of the short arrows
        self.dots: list[tuple[int, ...]] = []  # the cells of each kropki dot
        odd = sum(1 << d for d in range(0, n, 2))
        for constraint in puzzle.constraints:
            self._lower(constraint, puzzle, groups, pairs, odd)
        for group in groups:
            for i in group:
                peers[i].update(group)
        for a, b in pairs:
            peers[a].add(b)
            peers[b].add(a)
        for i in range(size):
            peers[i].discard(i)
        self.peers = [tuple(sorted(p)) for p in peers]
        for k, cells in self.arrows:
            self.rules[k] = arrow_table(cells, n, peers)
        for rule in self.rules:
            if isinstance(rule, ArrowRule):
                rule.see(peers)
        if "kropki-negative" not in puzzle.kinds:  # with it, the search hardly guesses: chains cost more than they save
            self.rules.extend(dot_chains(self.dots, self.tables, peers, n))
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
        related: list[list[tuple[int, tuple[int, ...], tuple[int, ...] | HighBytes]]] = [[] for _ in range(size)]
        for (a, b), allowed in sorted(self.tables.items()):
            if b in peers[a]:
                allowed = [m & ~(1 << d) for d, m in enumerate(allowed)]
            related[a].append((b, *pair_table(tuple(allowed))))
        self.related = [tuple(r) for r in related]
        if self.cages:
            self._unit_sums(puzzle, peers)
        for rule in self.rules:
            if isinstance(rule, SetRule):
                rule.watchers = tuple(sorted(set.intersection(*(peers[i] for i in rule.cells)) - set(rule.cells)))
            elif isinstance(rule, QuadrupleRule):
                rule.peers = tuple(frozenset(peers[i] - set(rule.cells)) for i in rule.cells)
        rules_of = [0] * size
        for k, rule in enumerate(self.rules):
            for i in rule.cells:
                rules_of[i] |= 1 << k
        self.rules_of = rules_of

    def _unit_sums(self, puzzle: Grid, peers: list[set[int]]) -> None:
        """Killer cages and the digits of whole houses (the "45 rule", innies and outies): sum rules for what is left.

        Each row, column and region holds every digit once, so it sums to n(n+1)/2, and k rows or columns
        side by side to k times that: each such area is cells of weight 1 and a total. A cage met is taken
        out (see :func:`take_out_cages`): its total leaves the area's, its cells outside come in with weight
        -1. What is left, up to n // 2 + 1 cells, is a rule: a set rule when it is cells of one unit, else a
        linear rule.

        Where the cages cover half the board or more, the sums say more, and more is done: a row less a
        column and a region less a row or a column are areas of total 0 (the cells they share cancel; 1 in
        the first part, -1 in the second; two rows less two columns added nothing on "Solver needs SET"), a
        cage is taken out only where that leaves fewer cells, what is left is a rule up to n + 1 cells, and
        a :class:`GroupSumRule` when it has at most :data:`GROUP_RULE_CELLS` cells some of which see each
        other (three cells of one row sum to 6 at least, not 3). Elsewhere the long sums narrow little and
        cost time (Third-Degree Murder, 34 of 81 cells caged: 56 more rules of 7 to 10 cells, each node four
        times the work). Computed once, when the puzzle is lowered (some 8 ms on a 9x9).
        """
        n, whole = self.n, self.n * (self.n + 1) // 2
        owner: dict[int, int] = {}
        cages: list[tuple[frozenset[int], int]] = []
        for cells, total in self.cages:  # cages apart from each other
            if not any(i in owner for i in cells):
                owner.update(dict.fromkeys(cells, len(cages)))
                cages.append((frozenset(cells), total))
        shape = puzzle.shape
        more = 2 * len(owner) >= shape.size
        longest = n + 1 if more else n // 2 + 1
        # Each area: its cells' weights, its total, and whether it is a unit (its digits differ).
        areas: list[tuple[dict[int, int], int, bool]] = [(dict.fromkeys(unit, 1), whole, True) for unit in self.units]
        for lines in (shape.rows, shape.cols):
            for k in range(2, n // 2 + 1):
                for top in range(n - k + 1):
                    block = tuple(i for line in lines[top : top + k] for i in line)
                    areas.append((dict.fromkeys(block, 1), k * whole, False))
        if more:
            pairs = [(row, col) for row in shape.rows for col in shape.cols]
            pairs += [(region, line) for region in puzzle.regions for line in (*shape.rows, *shape.cols)]
            for first, second in pairs:
                weights = dict.fromkeys(first, 1)
                for i in second:
                    weights[i] = weights.get(i, 0) - 1
                areas.append(({i: w for i, w in weights.items() if w}, 0, False))
        seen: set[frozenset[tuple[int, int]]] = set()
        for weights, area_total, unit in areas:
            if sum(1 for i in weights if i not in owner) > longest:
                continue  # the cells no cage covers stay
            left = take_out_cages(weights, area_total, cages, owner, fewer=more)
            if left is None:
                continue
            terms, total = left
            key = frozenset(terms.items())
            if not terms or len(terms) > longest or key in seen or frozenset((i, -w) for i, w in terms.items()) in seen:
                continue
            seen.add(key)
            order = sorted(terms)
            groups = different_groups(terms, peers) if more and len(order) <= GROUP_RULE_CELLS else []
            if unit and all(i in weights for i in order):
                self.rules.append(SetRule(order, digit_sets(n, len(order), total)))
            elif any(len(group) > 1 for _, group in groups):
                self.rules.append(GroupSumRule(groups, total))
            else:
                self.rules.append(LinearRule([(i, terms[i]) for i in order], total, n))

    def relate(self, a: int, b: int, ok: Callable[[int, int], bool]) -> None:
        """Digits ``x`` at ``a`` and ``y`` at ``b`` must have ``ok(x, y)``: narrow both pair tables."""
        self.relate_pairs(((a, b),), ok)

    def relate_pairs(self, pairs: Iterable[tuple[int, int]], ok: Callable[[int, int], bool]) -> None:
        """:meth:`relate` for each of ``pairs``, asking ``ok`` about each two digits once for them all."""
        digits = range(1, self.n + 1)
        forward_masks = [sum(1 << (y - 1) for y in digits if ok(x, y)) for x in digits]
        backward_masks = [sum(1 << (y - 1) for y in digits if ok(y, x)) for x in digits]
        for a, b in pairs:
            forward = self.tables.setdefault((a, b), [self.full] * self.n)
            backward = self.tables.setdefault((b, a), [self.full] * self.n)
            for k in range(self.n):
                forward[k] &= forward_masks[k]
                backward[k] &= backward_masks[k]

    def _lower(
        self, rule: object, puzzle: Grid, groups: list[tuple[int, ...]], pairs: list[tuple[int, int]], odd: int
    ) -> None:
        """Lower one constraint into groups, pairs, pair tables, rules or first candidates."""
        # Here, not at the top: these load the variant rules' module (8 ms), which a classic solve never needs.
        from sudokit import king_pairs, knight_pairs, orthogonal_pairs, undotted_pairs

        n = self.n
        kind: str = rule.kind  # type: ignore[attr-defined]
        cells = rule.indexes(n)  # type: ignore[attr-defined]
        if kind == "extra-region":
            groups.append(cells)
        elif kind == "clone":
            for a, b in rule.pairs(n):  # type: ignore[attr-defined]
                self.relate(a, b, lambda x, y: x == y)
        elif kind == "disjoint-groups":
            groups.extend(rule.groups(puzzle.shape))  # type: ignore[attr-defined]
        elif kind == "diagonal":
            groups.append(tuple(r * n + c for r, c in rule.diagonal_cells(n)))  # type: ignore[attr-defined]
        elif kind == "anti-knight":
            pairs.extend(knight_pairs(n))
        elif kind == "anti-king":
            pairs.extend(king_pairs(n))
        elif kind == "non-consecutive":  # every two neighbours: the digit pairs asked once for them all
            self.relate_pairs(orthogonal_pairs(n), lambda x, y: abs(x - y) != 1)
        elif kind == "killer":
            groups.append(cells)
            total = rule.total  # type: ignore[attr-defined]
            if total is not None:
                self.rules.append(SetRule(cells, digit_sets(n, len(cells), total)))
                self.cages.append((cells, total))
        elif kind == "little-killer":
            self.rules.append(LinearRule([(c, 1) for c in cells], rule.total, n))  # type: ignore[attr-defined]
        elif kind == "arrow":
            circle = rule.circle  # type: ignore[attr-defined]
            weights = (-1,) if len(circle) == 1 else (-10, -1)
            terms = [(c, w) for c, w in zip(cells, weights, strict=False)] + [(c, 1) for c in cells[len(circle) :]]
            if len(circle) == 1 and len(set(cells)) == len(cells) <= ARROW_TABLE_CELLS and n <= 16:
                self.arrows.append((len(self.rules), cells))  # a table once the peers are known
            self.rules.append(ArrowRule(terms, 0, n))
        elif kind == "sandwich":
            line = tuple(r * n + c for r, c in rule.line_cells(n))  # type: ignore[attr-defined]
            self.rules.append(SandwichRule(line, rule.total, n))  # type: ignore[attr-defined]
        elif kind == "x-sum":
            line = tuple(r * n + c for r, c in rule.line_cells(n))  # type: ignore[attr-defined]
            self.rules.append(XSumRule(line, rule.total, n))  # type: ignore[attr-defined]
        elif kind == "skyscraper":
            line = tuple(r * n + c for r, c in rule.line_cells(n))  # type: ignore[attr-defined]
            self.rules.append(SkyscraperRule(line, rule.count, n))  # type: ignore[attr-defined]
        elif kind == "indexer":
            for i, d, target, value in rule.links(puzzle):  # type: ignore[attr-defined]
                self.relate(i, target, lambda x, y, d=d, value=value: x != d or y == value)  # type: ignore[misc]
        elif kind == "thermometer":
            for i, j in combinations(range(len(cells)), 2):
                self.relate(cells[i], cells[j], lambda x, y, gap=j - i: y - x >= gap)  # type: ignore[misc]
        elif kind == "slow-thermometer":
            for i, j in combinations(range(len(cells)), 2):
                self.relate(cells[i], cells[j], lambda x, y: y >= x)
        elif kind == "kropki":
            self.relate(*cells, rule.holds)  # type: ignore[attr-defined, call-arg]
            self.dots.append(cells)
        elif kind == "kropki-negative":  # one rule over most pairs of neighbours: its digit pairs asked once
            self.relate_pairs(rule.pairs(puzzle), rule.holds)  # type: ignore[attr-defined]
        elif kind == "xv":
            self.relate(*cells, lambda x, y, total=rule.total: x + y == total)  # type: ignore[attr-defined, call-arg]
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
            self.rules.append(SetRule(cells, [((1 << k) - 1) << s for s in range(n - k + 1)]))
        elif kind == "whisper":
            for a, b in pairwise(cells):
                self.relate(a, b, lambda x, y, gap=rule.difference: abs(x - y) >= gap)  # type: ignore[attr-defined, misc]
        elif kind == "palindrome":
            for k in range(len(cells) // 2):
                self.relate(cells[k], cells[-1 - k], lambda x, y: x == y)
        elif kind == "min-max":
            (i,) = cells
            for r, c in rule.compared(puzzle):  # type: ignore[attr-defined]
                self.relate(i, r * n + c, rule.holds)  # type: ignore[attr-defined]
        elif kind == "pencil-marks":
            (i,) = cells
            self.cand[i] &= sum(1 << (d - 1) for d in rule.digits)  # type: ignore[attr-defined]
        elif kind == "quadruple":
            self.rules.append(QuadrupleRule(cells, rule.digits))  # type: ignore[attr-defined]
        elif kind == "between-line":
            self.relate(cells[0], cells[-1], lambda x, y: abs(x - y) >= 2)
            self.rules.append(BetweenRule(cells))
        elif kind == "region-sum-line":
            first, *others = [[r * n + c for r, c in seg] for seg in rule.segments(puzzle)]  # type: ignore[attr-defined]
            for segment in others:
                self.rules.append(LinearRule([(c, 1) for c in segment] + [(c, -1) for c in first], 0, n))
        elif kind == "entropic-line":  # cells one or two apart: digits of different thirds
            for k in range(len(cells) - 1):
                for b in cells[k + 1 : k + 3]:
                    self.relate(cells[k], b, lambda x, y: (x - 1) * 3 // n != (y - 1) * 3 // n)
        elif kind == "modular-line":  # cells one or two apart: different residues mod 3
            for k in range(len(cells) - 1):
                for b in cells[k + 1 : k + 3]:
                    self.relate(cells[k], b, lambda x, y: x % 3 != y % 3)
        elif kind == "zipper-line":  # each pair less the centre (or the outermost pair) sums to 0
            zips, centre = rule.zips()  # type: ignore[attr-defined]
            sums = [[(p[0] * n + p[1], 1), (q[0] * n + q[1], 1)] for p, q in zips]
            total = [(centre[0][0] * n + centre[0][1], -1)] if centre else [(i, -1) for i, _ in sums[0]]
            for s in sums if centre else sums[1:]:
                self.rules.append(LinearRule(s + total, 0, n))
        elif kind == "lockout-line":
            gap = rule.difference  # type: ignore[attr-defined]
            self.relate(cells[0], cells[-1], lambda x, y: abs(x - y) >= gap)
            self.rules.append(BetweenRule(cells, lockout=gap, n=n))
        elif kind == "nabner-line":  # every two cells: neither equal nor consecutive
            for a, b in combinations(cells, 2):
                self.relate(a, b, lambda x, y: abs(x - y) >= 2)
        elif kind == "double-arrow":  # the two ends less the cells between sum to 0
            self.rules.append(ArrowRule([(cells[0], 1), (cells[-1], 1)] + [(c, -1) for c in cells[1:-1]], 0, n))
        else:  # the engine declares only the kinds above; the core refuses the others
            raise ValueError(f"backtrack does not take {kind} constraints")


class VariantSearch(Search):
    """The smart search on a variant puzzle: the lowered rules narrow candidates whenever a cell's candidates narrow."""

    def __init__(self, puzzle: Grid, limit: int, deadline: float | None, keep: int) -> None:
        Base.__init__(self, puzzle, limit, deadline, keep)
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
            raise Timeout
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
