"""Human-style logical solving: steps a person can follow, easiest technique first, never a guess.

``steps(puzzle)`` yields :class:`Step` values (technique, cells, digits, placements, eliminations and a
one-sentence explanation naming cells as ``r1c1``) until the puzzle is solved or every technique stalls,
when a last step says ``"needs search"``. ``hint(puzzle)`` is the first step. Classic puzzles of every
box shape, and variant ones: the classic techniques on every house (jigsaw regions, diagonals, extra
regions), each rule's own eliminations, and forcing steps (see :func:`steps`). The pencil marks are a
:class:`Candidates` state, one bit mask per cell (bit d-1 for digit d).

    >>> step = hint("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
    >>> step.technique, step.placements
    ('naked single', ((40, 5),))
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Any

from sudokit.features.rules import MAX_NODES, RULE_PROPAGATION, Rule, compile_rules, enumerate_rule, pair_table
from sudokit.io.puzzles import parse_puzzle
from sudokit.model.grid import Grid
from sudokit.model.shape import ALPHABET, Shape

__all__ = ["LOGIC_FAMILIES", "TECHNIQUES", "Candidates", "Step", "disabled_techniques", "hint", "step_dict", "steps"]

#: The techniques tried, easiest first (the order in which ``steps`` looks for progress): HoDoKu 2.2's solving order.
TECHNIQUES = (
    "naked single",
    "hidden single",
    "locked pair",
    "locked triple",
    "locked candidates",
    "naked pair",
    "naked triple",
    "hidden pair",
    "hidden triple",
    "naked quad",
    "hidden quad",
    "X-Wing",
    "Swordfish",
    "Jellyfish",
    "remote pair",
    "BUG+1",
    "skyscraper",
    "2-string kite",
    "turbot fish",
    "empty rectangle",
    "W-Wing",
    "XY-Wing",
    "XYZ-Wing",
    "unique rectangle type 1",
    "unique rectangle type 2",
    "unique rectangle type 4",
    "X-chain",
    "XY-chain",
)

#: The longest chains looked for: strong links of an X-chain, cells of an XY-chain.
MAX_X_CHAIN = 8
MAX_XY_CHAIN = 10

_SIZE_NAMES = {2: "pair", 3: "triple", 4: "quad"}
_FISH_NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}


@dataclass(frozen=True)
class Step:
    """One logical step: the technique, what it involves, what it places and removes, and why in one sentence."""

    technique: str
    cells: tuple[int, ...] = ()
    digits: tuple[int, ...] = ()
    placements: tuple[tuple[int, int], ...] = ()
    eliminations: tuple[tuple[int, int], ...] = ()
    explanation: str = ""

    @property
    def progress(self) -> bool:
        """True when the step places a digit or removes a candidate."""
        return bool(self.placements or self.eliminations)


class _Geometry:
    """Per-board tables: units with names, peers as sets, the units of each cell.

    A classic board's units are its rows, columns and boxes; a variant's add its houses (diagonals,
    extra regions of n cells, disjoint groups) after them, its regions may be a jigsaw's, its peers
    take in every pair of cells its rules keep apart, and ``rules`` are its clues
    (:func:`sudokit.features.rules.compile_rules`).
    """

    def __init__(self, shape: Shape, grid: Grid | None = None) -> None:
        self.shape = shape
        self.n = n = shape.n
        regions = shape.boxes if grid is None else grid.regions
        kit = None if grid is None or not grid.constraints else compile_rules(grid)
        houses = () if kit is None else kit.houses
        self.units = shape.rows + shape.cols + regions + tuple(cells for _, cells in houses)
        region = "region" if grid is not None and grid.jigsaw else "box"
        self.unit_names = tuple(f"{('row', 'column', region)[k // n]} {k % n + 1}" for k in range(3 * n)) + tuple(
            name for name, _ in houses
        )
        self.box_of = shape.box_of if grid is None else grid.region_of
        #: True for a variant board: the uniqueness techniques (which assume classic units only) are left out.
        self.variant = grid is not None
        self.rules: tuple[Rule, ...] = () if kit is None else kit.rules
        #: What each rule allows for given candidates of its cells (shared by every state of this board).
        #: (budget, answer, partial fillings tried) by rule and its cells' candidates.
        self.memo: dict[tuple[int, tuple[int, ...]], tuple[int, tuple[list[int], int] | None, int]] = {}
        #: For each rule, candidates of its cells whose enumeration took more than the budget given (that budget
        #: and the masks): every partial filling of theirs is one of any larger candidates' (a sandwich's or an
        #: X-sum's search too tries more of them), so those take more too, and say nothing (:func:`_rule_result`).
        self.over_budget: tuple[list[tuple[int, list[int]]], ...] = tuple([] for _ in self.rules)
        if grid is None:
            self.peers = shape.peers
        else:
            sets: list[set[int]] = [set() for _ in range(shape.size)]
            for unit in self.units:
                for i in unit:
                    sets[i].update(unit)
            for a, b in () if kit is None else kit.peer_pairs:
                sets[a].add(b)
                sets[b].add(a)
            self.peers = tuple(tuple(sorted(p - {i})) for i, p in enumerate(sets))
        self.peer_sets = tuple(frozenset(p) for p in self.peers)
        rules_of: list[list[int]] = [[] for _ in range(shape.size)]
        for k, rule in enumerate(self.rules):
            for i in rule.cells:
                rules_of[i].append(k)
        #: The indexes of the rules on each cell.
        self.rules_of = tuple(tuple(ks) for ks in rules_of)
        #: For each rule on two cells, the digits of the second each digit of the first allows (None: another rule).
        self.pair_tables = tuple(
            None if r.pair is None else pair_table(r.pair, n, r.cells[1] in self.peer_sets[r.cells[0]])
            for r in self.rules
        )
        self.cell_units = (
            tuple(tuple(k for k, unit in enumerate(self.units) if i in unit) for i in range(shape.size))
            if grid is not None
            else tuple((shape.row_of[i], n + shape.col_of[i], 2 * n + shape.box_of[i]) for i in range(shape.size))
        )
        # Boxes, then rows, then columns: the order a person scans for hidden singles; then the houses.
        self.scan_order = tuple(range(2 * n, 3 * n)) + tuple(range(2 * n)) + tuple(range(3 * n, len(self.units)))


@cache
def _geometry(shape: Shape) -> _Geometry:
    return _Geometry(shape)


_VARIANT_GEOMETRY: dict[tuple[object, ...], _Geometry] = {}


def _variant_geometry(grid: Grid) -> _Geometry:
    """The geometry of a variant board (one per board and set of rules), kept for the last few boards."""
    key = (grid.shape, grid.regions, grid.constraints)
    geo = _VARIANT_GEOMETRY.get(key)
    if geo is None:
        if len(_VARIANT_GEOMETRY) >= 16:
            _VARIANT_GEOMETRY.clear()
        geo = _VARIANT_GEOMETRY[key] = _Geometry(grid.shape, grid)
    return geo


class Candidates:
    """The pencil marks of a puzzle: each cell's value (0 blank) and candidate mask (0 once filled).

    Starts from the digits not excluded by the givens' peers.
    """

    __slots__ = ("_trials", "geo", "masks", "shape", "values")

    def __init__(self, grid: Grid) -> None:
        """The candidates of ``grid``: for each blank, every digit no given among its peers holds."""
        self.shape = grid.shape
        self.geo = _geometry(grid.shape) if grid.is_classic else _variant_geometry(grid)
        self.values = list(grid.cells)
        #: The settled trials of this state's last forcing sweep (:func:`_forcing`), with their work.
        self._trials: dict[tuple[int, int], tuple[Candidates, int]] = {}
        full = grid.shape.full_mask
        self.masks = [0] * grid.shape.size
        for i, v in enumerate(self.values):
            if not v:
                seen = 0
                for p in self.geo.peers[i]:
                    if self.values[p]:
                        seen |= 1 << (self.values[p] - 1)
                self.masks[i] = full & ~seen

    def copy(self) -> Candidates:
        """An independent copy of this state."""
        other = object.__new__(Candidates)
        other.shape, other.geo, other.values, other.masks = self.shape, self.geo, list(self.values), list(self.masks)
        other._trials = {}
        return other

    def candidates(self, cell: int) -> tuple[int, ...]:
        """The candidate digits of ``cell``, smallest first (empty once it is filled)."""
        return _digits(self.masks[cell])

    def place(self, cell: int, digit: int) -> None:
        """Fill ``cell`` with ``digit`` and remove the digit from its peers' candidates."""
        self.values[cell] = digit
        self.masks[cell] = 0
        off = ~(1 << (digit - 1))
        masks = self.masks
        for p in self.geo.peers[cell]:
            masks[p] &= off

    def eliminate(self, cell: int, digit: int) -> None:
        """Remove ``digit`` from the candidates of ``cell``."""
        self.masks[cell] &= ~(1 << (digit - 1))

    def apply(self, step: Step) -> None:
        """Apply a step's placements, then its eliminations."""
        for cell, digit in step.placements:
            self.place(cell, digit)
        for cell, digit in step.eliminations:
            self.eliminate(cell, digit)

    def is_solved(self) -> bool:
        """True when every cell is filled."""
        return all(self.values)

    def to_grid(self) -> Grid:
        """The filled cells as a grid (blanks where no digit is placed yet)."""
        return Grid(self.values, self.shape, validate=False)


# --- naming -------------------------------------------------------------------------------------------


def _digits(mask: int) -> tuple[int, ...]:
    out = []
    d = 1
    while mask:
        if mask & 1:
            out.append(d)
        mask >>= 1
        d += 1
    return tuple(out)


def _bit(mask: int) -> int:
    """The digit of a one-bit mask."""
    return mask.bit_length()


def _name(cell: int, n: int) -> str:
    return f"r{cell // n + 1}c{cell % n + 1}"


def _names(cells: Iterable[int], n: int) -> str:
    names = [_name(c, n) for c in cells]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _list(items: Iterable[object]) -> str:
    words = [str(x) for x in items]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _sym(digit: int, n: int) -> str:
    """A digit as a board of side ``n`` writes it (``G`` for 16 on a 16x16 board), as the grid and the input do."""
    return ALPHABET[digit - 1] if n <= len(ALPHABET) else str(digit)


def _set(mask: int, n: int) -> str:
    """Candidates as ``{1,5,G}``, in the board's symbols."""
    return "{" + ",".join(_sym(d, n) for d in _digits(mask)) + "}"


def _removals(elims: list[tuple[int, int]], n: int) -> str:
    """ "7 from r1c1, r1c2; 8 from r3c3" """
    by_digit: dict[int, list[int]] = {}
    for cell, d in elims:
        by_digit.setdefault(d, []).append(cell)
    return "; ".join(
        f"{_sym(d, n)} from {', '.join(_name(c, n) for c in sorted(cells))}" for d, cells in sorted(by_digit.items())
    )


def _removed(elims: list[tuple[int, int]], n: int) -> str:
    """ "5 is removed from r4c3 and r5c5", "1 and 2 are removed from r6c4", or a list by digit."""
    digits = sorted({d for _, d in elims})
    cells = sorted({c for c, _ in elims})
    if len(digits) == 1:
        return f"{_sym(digits[0], n)} is removed from {_names(cells, n)}"
    if len(cells) == 1:
        return f"{_list(_sym(d, n) for d in digits)} are removed from {_name(cells[0], n)}"
    return f"these candidates are removed ({_removals(elims, n)})"


def _step(
    technique: str,
    cells: Iterable[int],
    digits: Iterable[int],
    explanation: str,
    *,
    placements: Iterable[tuple[int, int]] = (),
    eliminations: Iterable[tuple[int, int]] = (),
) -> Step:
    return Step(
        technique,
        tuple(cells),
        tuple(sorted(set(digits))),
        tuple(placements),
        tuple(sorted(set(eliminations))),
        explanation,
    )


# --- singles ------------------------------------------------------------------------------------------


def _naked_single(s: Candidates) -> Step | None:
    n = s.shape.n
    for i, m in enumerate(s.masks):
        if m and not m & (m - 1):
            d = _bit(m)
            return _step(
                "naked single",
                (i,),
                (d,),
                f"{_name(i, n)} can only be {_sym(d, n)}: "
                + (
                    "every other candidate has been removed"
                    if s.geo.variant
                    else "every other digit is already in its row, column or box"
                ),
                placements=((i, d),),
            )
    return None


def _hidden_single(s: Candidates) -> Step | None:
    geo = s.geo
    masks = s.masks
    for k in geo.scan_order:
        once = twice = 0
        for i in geo.units[k]:
            m = masks[i]
            twice |= once & m
            once |= m
        single = once & ~twice
        if single:
            low = single & -single
            d = _bit(low)
            cell = next(i for i in geo.units[k] if masks[i] & low)
            return _step(
                "hidden single",
                (cell,),
                (d,),
                f"{_name(cell, geo.n)} is the only place for {_sym(d, geo.n)} in {geo.unit_names[k]}",
                placements=((cell, d),),
            )
    return None


def _contradiction(s: Candidates) -> Step | None:
    """A cell with no candidate, or a digit with no place in a unit: the puzzle has no solution from here."""
    geo = s.geo
    n = geo.n
    for i, m in enumerate(s.masks):
        if not m and not s.values[i]:
            return _step(
                "contradiction", (i,), (), f"{_name(i, n)} has no candidate left, so the puzzle has no solution"
            )
    full = s.shape.full_mask
    for k, unit in enumerate(geo.units):
        have = 0
        for i in unit:
            have |= s.masks[i] | (1 << (s.values[i] - 1) if s.values[i] else 0)
        missing = full & ~have
        if missing:
            d = _bit(missing & -missing)
            return _step(
                "contradiction",
                unit,
                (d,),
                f"{_sym(d, n)} has no place left in {geo.unit_names[k]}, so the puzzle has no solution",
            )
    return None


# --- locked candidates --------------------------------------------------------------------------------


def _locked_candidates(s: Candidates) -> Step | None:
    geo = s.geo
    n = geo.n
    masks = s.masks
    shape = s.shape
    # Pointing: in a box, a digit confined to one row or column leaves the rest of that line.
    for b in range(n):
        box = geo.units[2 * n + b]
        for d in range(1, n + 1):
            bit = 1 << (d - 1)
            where = [i for i in box if masks[i] & bit]
            if len(where) < 2:
                continue
            for line_of, offset in ((shape.row_of, 0), (shape.col_of, n)):
                lines = {line_of[i] for i in where}
                if len(lines) == 1:
                    k = offset + lines.pop()
                    elims = [(i, d) for i in geo.units[k] if masks[i] & bit and geo.box_of[i] != b]
                    if elims:
                        return _step(
                            "locked candidates (pointing)",
                            where,
                            (d,),
                            f"in box {b + 1}, {_sym(d, n)} can only be in {geo.unit_names[k]}, so it is removed from "
                            f"the rest of {geo.unit_names[k]} ({_removals(elims, n)})",
                            eliminations=elims,
                        )
    # Claiming: in a row or column, a digit confined to one box leaves the rest of that box.
    for k in range(2 * n):
        line = geo.units[k]
        for d in range(1, n + 1):
            bit = 1 << (d - 1)
            where = [i for i in line if masks[i] & bit]
            if len(where) < 2:
                continue
            boxes = {geo.box_of[i] for i in where}
            if len(boxes) == 1:
                b = boxes.pop()
                elims = [(i, d) for i in geo.units[2 * n + b] if masks[i] & bit and i not in where]
                if elims:
                    return _step(
                        "locked candidates (claiming)",
                        where,
                        (d,),
                        f"in {geo.unit_names[k]}, {_sym(d, n)} can only be in box {b + 1}, so it is removed from the "
                        f"rest of box {b + 1} ({_removals(elims, n)})",
                        eliminations=elims,
                    )
    return None


# --- subsets ------------------------------------------------------------------------------------------


def _naked_subset(size: int) -> Callable[[Candidates], Step | None]:
    def find(s: Candidates) -> Step | None:
        geo = s.geo
        n = geo.n
        masks = s.masks
        for k, unit in enumerate(geo.units):
            empty = [i for i in unit if masks[i]]
            if len(empty) <= size:
                continue
            eligible = [i for i in empty if 2 <= masks[i].bit_count() <= size]
            for group in combinations(eligible, size):
                union = 0
                for i in group:
                    union |= masks[i]
                if union.bit_count() != size:
                    continue
                elims = [(i, d) for i in empty if i not in group for d in _digits(masks[i] & union)]
                if elims:
                    digits = _digits(union)
                    return _step(
                        f"naked {_SIZE_NAMES[size]}",
                        group,
                        digits,
                        f"{_names(group, n)} hold only {_list(_sym(d, n) for d in digits)} between them, so those "
                        f"digits are removed from "
                        f"the rest of {geo.unit_names[k]} ({_removals(elims, n)})",
                        eliminations=elims,
                    )
        return None

    return find


def _hidden_subset(size: int) -> Callable[[Candidates], Step | None]:
    def find(s: Candidates) -> Step | None:
        geo = s.geo
        n = geo.n
        masks = s.masks
        for k, unit in enumerate(geo.units):
            where: dict[int, int] = {}  # digit -> bit mask of positions in the unit
            for pos, i in enumerate(unit):
                m = masks[i]
                while m:
                    low = m & -m
                    d = _bit(low)
                    where[d] = where.get(d, 0) | (1 << pos)
                    m ^= low
            if len(where) <= size:
                continue
            eligible = [d for d, p in where.items() if 2 <= p.bit_count() <= size]
            for group in combinations(sorted(eligible), size):
                union = 0
                for d in group:
                    union |= where[d]
                if union.bit_count() != size:
                    continue
                cells = tuple(unit[pos] for pos in range(n) if union >> pos & 1)
                keep = 0
                for d in group:
                    keep |= 1 << (d - 1)
                elims = [(i, d) for i in cells for d in _digits(masks[i] & ~keep)]
                if elims:
                    return _step(
                        f"hidden {_SIZE_NAMES[size]}",
                        cells,
                        group,
                        f"in {geo.unit_names[k]}, {_list(_sym(d, n) for d in group)} fit only in {_names(cells, n)}, "
                        f"so the other candidates are removed from those cells ({_removals(elims, n)})",
                        eliminations=elims,
                    )
        return None

    return find


# --- fish ---------------------------------------------------------------------------------------------


def _fish(size: int) -> Callable[[Candidates], Step | None]:
    def find(s: Candidates) -> Step | None:
        geo = s.geo
        n = geo.n
        masks = s.masks
        for d in range(1, n + 1):
            bit = 1 << (d - 1)
            for base_kind, cover_kind in (("row", "column"), ("column", "row")):
                # Positions of d along each base line, as a bit mask of cover lines.
                covers = []
                for line in range(n):
                    p = 0
                    for j in range(n):
                        cell = line * n + j if base_kind == "row" else j * n + line
                        if masks[cell] & bit:
                            p |= 1 << j
                    covers.append(p)
                eligible = [line for line in range(n) if 2 <= covers[line].bit_count() <= size]
                for group in combinations(eligible, size):
                    union = 0
                    for line in group:
                        union |= covers[line]
                    if union.bit_count() != size:
                        continue
                    cover_lines = [j for j in range(n) if union >> j & 1]
                    elims = []
                    for j in cover_lines:
                        for line in range(n):
                            if line in group:
                                continue
                            cell = line * n + j if base_kind == "row" else j * n + line
                            if masks[cell] & bit:
                                elims.append((cell, d))
                    if elims:
                        cells = [
                            (line * n + j if base_kind == "row" else j * n + line)
                            for line in group
                            for j in cover_lines
                            if masks[line * n + j if base_kind == "row" else j * n + line] & bit
                        ]
                        return _step(
                            _FISH_NAMES[size],
                            sorted(cells),
                            (d,),
                            f"in {base_kind}s {_list(x + 1 for x in group)}, {_sym(d, n)} can only be in {cover_kind}s "
                            f"{_list(j + 1 for j in cover_lines)}, so it is removed from the rest of those "
                            f"{cover_kind}s ({_removals(elims, n)})",
                            eliminations=elims,
                        )
        return None

    return find


# --- wings --------------------------------------------------------------------------------------------


def _xy_wing(s: Candidates) -> Step | None:
    geo = s.geo
    n = geo.n
    masks = s.masks
    bivalue = [i for i, m in enumerate(masks) if m.bit_count() == 2]
    for pivot in bivalue:
        pm = masks[pivot]
        wings = [a for a in geo.peers[pivot] if masks[a].bit_count() == 2 and (masks[a] & pm).bit_count() == 1]
        for a, b in combinations(wings, 2):
            am, bm = masks[a], masks[b]
            z = am & bm & ~pm
            if not z or (am & pm) == (bm & pm):
                continue
            d = _bit(z)
            elims = [(i, d) for i in geo.peer_sets[a] & geo.peer_sets[b] if masks[i] & z and i != pivot]
            if elims:
                return _step(
                    "XY-Wing",
                    (pivot, a, b),
                    _digits(pm | am | bm),
                    f"pivot {_name(pivot, n)} {_set(pm, n)} makes one of {_name(a, n)} {_set(am, n)} and "
                    f"{_name(b, n)} {_set(bm, n)} a {_sym(d, n)}, so {_removed(elims, n)}",
                    eliminations=elims,
                )
    return None


def _xyz_wing(s: Candidates) -> Step | None:
    geo = s.geo
    n = geo.n
    masks = s.masks
    for pivot, pm in enumerate(masks):
        if pm.bit_count() != 3:
            continue
        wings = [a for a in geo.peers[pivot] if masks[a].bit_count() == 2 and masks[a] & ~pm == 0]
        for a, b in combinations(wings, 2):
            am, bm = masks[a], masks[b]
            if am | bm != pm:
                continue
            z = am & bm
            d = _bit(z)
            common = geo.peer_sets[pivot] & geo.peer_sets[a] & geo.peer_sets[b]
            elims = [(i, d) for i in common if masks[i] & z]
            if elims:
                return _step(
                    "XYZ-Wing",
                    (pivot, a, b),
                    _digits(pm),
                    f"one of {_name(pivot, n)} {_set(pm, n)}, {_name(a, n)} {_set(am, n)} and {_name(b, n)} "
                    f"{_set(bm, n)} is a {_sym(d, n)}, so {_removed(elims, n)}",
                    eliminations=elims,
                )
    return None


def _strong_links(s: Candidates, d: int) -> list[tuple[int, int, int]]:
    """(cell, cell, unit) for each unit where ``d`` has exactly two places."""
    bit = 1 << (d - 1)
    links = []
    for k, unit in enumerate(s.geo.units):
        where = [i for i in unit if s.masks[i] & bit]
        if len(where) == 2:
            links.append((where[0], where[1], k))
    return links


def _w_wing(s: Candidates) -> Step | None:
    geo = s.geo
    n = geo.n
    masks = s.masks
    bivalue = [i for i, m in enumerate(masks) if m.bit_count() == 2]
    links: dict[int, list[tuple[int, int, int]]] = {}
    for a, b in combinations(bivalue, 2):
        m = masks[a]
        if masks[b] != m or b in geo.peer_sets[a]:
            continue
        for x in _digits(m):
            y_bit = m & ~(1 << (x - 1))
            y = _bit(y_bit)
            common = geo.peer_sets[a] & geo.peer_sets[b]
            elims = [(i, y) for i in common if masks[i] & y_bit]
            if not elims:
                continue
            if x not in links:
                links[x] = _strong_links(s, x)
            for p, q, k in links[x]:
                for p1, q1 in ((p, q), (q, p)):
                    if p1 in (a, b) or q1 in (a, b):
                        continue
                    if p1 in geo.peer_sets[a] and q1 in geo.peer_sets[b]:
                        return _step(
                            "W-Wing",
                            (a, b, p1, q1),
                            (x, y),
                            f"{_name(a, n)} and {_name(b, n)} are both {_set(m, n)} and {_sym(x, n)} in "
                            f"{geo.unit_names[k]} is "
                            f"in {_name(p1, n)} or {_name(q1, n)}, so one of them is {_sym(y, n)} and "
                            f"{_removed(elims, n)}",
                            eliminations=elims,
                        )
    return None


# --- chains -------------------------------------------------------------------------------------------


def _x_chain(s: Candidates) -> Step | None:
    geo = s.geo
    n = geo.n
    masks = s.masks
    best: tuple[int, list[int], list[tuple[int, int]], int] | None = None
    for d in range(1, n + 1):
        bit = 1 << (d - 1)
        strong: dict[int, set[int]] = {}
        for p, q, _k in _strong_links(s, d):
            strong.setdefault(p, set()).add(q)
            strong.setdefault(q, set()).add(p)
        if len(strong) < 4:
            continue
        nodes = sorted(strong)
        weak = {u: [v for v in nodes if v != u and v in geo.peer_sets[u]] for u in nodes}
        for start in nodes:
            # States (cell, on): on=True after a strong link (the cell is then d if start is not).
            parent: dict[tuple[int, bool], tuple[int, bool] | None] = {}
            queue: deque[tuple[tuple[int, bool], int]] = deque()
            for t in sorted(strong[start]):
                parent[(t, True)] = None
                queue.append(((t, True), 1))
            found = None
            while queue and found is None:
                (u, on), links = queue.popleft()
                if on:
                    if links >= 2 and u != start:
                        both = geo.peer_sets[start] & geo.peer_sets[u]
                        elims = [(i, d) for i in sorted(both) if masks[i] & bit and i != start and i != u]
                        if elims:
                            found = ((u, on), links, elims)
                            break
                    for v in weak[u]:
                        if (v, False) not in parent:
                            parent[(v, False)] = (u, on)
                            queue.append(((v, False), links))
                elif links < MAX_X_CHAIN:
                    for v in sorted(strong[u]):
                        if (v, True) not in parent:
                            parent[(v, True)] = (u, on)
                            queue.append(((v, True), links + 1))
            if found is not None and (best is None or found[1] < best[0]):
                state, links, elims = found
                path = []
                cur: tuple[int, bool] | None = state
                while cur is not None:
                    path.append(cur[0])
                    cur = parent[cur]
                path.append(start)
                path.reverse()
                best = (links, path, elims, d)
        if best is not None and best[0] == 2:
            break
    if best is None:
        return None
    _links, path, elims, d = best
    chain = "".join(_name(c, n) if j == 0 else (" = " if j % 2 else " - ") + _name(c, n) for j, c in enumerate(path))
    return _step(
        "X-chain",
        path,
        (d,),
        f"the chain of {_sym(d, n)} {chain} (= only two places in a unit, - seeing each other) puts {_sym(d, n)} in "
        f"{_name(path[0], n)} or {_name(path[-1], n)}, so {_removed(elims, n)}",
        eliminations=elims,
    )


def _xy_chain(s: Candidates) -> Step | None:
    geo = s.geo
    n = geo.n
    masks = s.masks
    bivalue = [i for i, m in enumerate(masks) if m.bit_count() == 2]
    if len(bivalue) < 3:
        return None
    near = {u: [v for v in bivalue if v != u and v in geo.peer_sets[u]] for u in bivalue}
    best: tuple[int, list[int], list[tuple[int, int]], int] | None = None
    for start in bivalue:
        for x in _digits(masks[start]):
            xbit = 1 << (x - 1)
            # States (cell, digit): the cell is that digit if start is not x.
            first = (start, _bit(masks[start] & ~xbit))
            parent: dict[tuple[int, int], tuple[tuple[int, int] | None, int]] = {first: (None, 1)}
            queue = deque([first])
            found = None
            while queue:
                u, y = queue.popleft()
                length = parent[(u, y)][1]
                if y == x and u != start and length >= 3:
                    both = geo.peer_sets[start] & geo.peer_sets[u]
                    elims = [(i, x) for i in sorted(both) if masks[i] & xbit]
                    if elims:
                        found = ((u, y), length, elims)
                        break
                if length >= MAX_XY_CHAIN:
                    continue
                ybit = 1 << (y - 1)
                for v in near[u]:
                    if masks[v] & ybit:
                        nxt = (v, _bit(masks[v] & ~ybit))
                        if nxt not in parent:
                            parent[nxt] = ((u, y), length + 1)
                            queue.append(nxt)
            if found is not None and (best is None or found[1] < best[0]):
                state, length, elims = found
                path = []
                cur: tuple[int, int] | None = state
                while cur is not None:
                    path.append(cur[0])
                    cur = parent[cur][0]
                path.reverse()
                best = (length, path, elims, x)
        if best is not None and best[0] == 3:
            break
    if best is None:
        return None
    _length, path, elims, x = best
    chain = " - ".join(f"{_name(c, n)} {_set(masks[c], n)}" for c in path)
    return _step(
        "XY-chain",
        path,
        (x,),
        f"the chain {chain} makes {_name(path[0], n)} or {_name(path[-1], n)} a {_sym(x, n)}, so {_removed(elims, n)}",
        eliminations=elims,
    )


# --- uniqueness ---------------------------------------------------------------------------------------


def _unique_rectangle_1(s: Candidates) -> Step | None:
    geo = s.geo
    n = geo.n
    masks = s.masks
    box_of = s.geo.box_of
    for r in range(n):
        row = [r * n + c for c in range(n) if masks[r * n + c].bit_count() == 2]
        for a, b in combinations(row, 2):
            m = masks[a]
            if masks[b] != m:
                continue
            c1, c2 = a % n, b % n
            for r2 in range(n):
                if r2 == r:
                    continue
                c, d = r2 * n + c1, r2 * n + c2
                if len({box_of[a], box_of[b], box_of[c], box_of[d]}) != 2:
                    continue
                for same, other in ((c, d), (d, c)):
                    if masks[same] == m and masks[other] & m == m and masks[other] != m:
                        elims = [(other, x) for x in _digits(m)]
                        corners = sorted((a, b, c, d))
                        either = " or ".join(_sym(x, n) for x in _digits(m))
                        return _step(
                            "unique rectangle type 1",
                            corners,
                            _digits(m),
                            f"if {_name(other, n)} were {either}, the rectangle {_names(corners, n)} "
                            f"could swap its {_set(m, n)} pairs and the puzzle would have two solutions, so "
                            f"{_removed(elims, n)}",
                            eliminations=elims,
                        )
    return None


# --- locked subsets -----------------------------------------------------------------------------------


def _locked_subset(size: int) -> Callable[[Candidates], Step | None]:
    """A naked pair or triple inside a box and along one line, clearing digits from both (HoDoKu's locked subset)."""

    def find(s: Candidates) -> Step | None:
        geo = s.geo
        n = geo.n
        masks = s.masks
        shape = s.shape
        for b in range(n):
            box = geo.units[2 * n + b]
            eligible = [i for i in box if masks[i] and masks[i].bit_count() <= size]
            for group in combinations(eligible, size):
                union = 0
                for i in group:
                    union |= masks[i]
                if union.bit_count() != size:
                    continue
                for line_of, offset in ((shape.row_of, 0), (shape.col_of, n)):
                    lines = {line_of[i] for i in group}
                    if len(lines) != 1:
                        continue
                    k = offset + lines.pop()
                    in_box = [(i, d) for i in box if i not in group for d in _digits(masks[i] & union)]
                    in_line = [(i, d) for i in geo.units[k] if geo.box_of[i] != b for d in _digits(masks[i] & union)]
                    if in_box and in_line:
                        digits = _digits(union)
                        elims = in_box + in_line
                        return _step(
                            f"locked {_SIZE_NAMES[size]}",
                            group,
                            digits,
                            f"{_names(group, n)} hold only {_list(_sym(d, n) for d in digits)} between them and lie in "
                            f"both box {b + 1} "
                            f"and {geo.unit_names[k]}, so those digits are removed from the rest of both "
                            f"({_removals(elims, n)})",
                            eliminations=elims,
                        )
        return None

    return find


# --- remote pair, BUG+1 -------------------------------------------------------------------------------


def _remote_pair(s: Candidates) -> Step | None:
    geo = s.geo
    n = geo.n
    masks = s.masks
    by_pair: dict[int, list[int]] = {}
    for i, m in enumerate(masks):
        if m.bit_count() == 2:
            by_pair.setdefault(m, []).append(i)
    for m, cells in by_pair.items():
        if len(cells) < 4:
            continue
        members = set(cells)
        seen: set[int] = set()
        for root in cells:
            if root in seen:
                continue
            # Colour the chain of peers holding the same pair: neighbours hold opposite digits.
            colour = {root: 0}
            queue = deque([root])
            while queue:
                u = queue.popleft()
                for v in geo.peers[u]:
                    if v in members and v not in colour:
                        colour[v] = 1 - colour[u]
                        queue.append(v)
            seen |= colour.keys()
            if len(colour) < 4:
                continue
            chain = sorted(colour)
            for i, mi in enumerate(masks):
                if not mi & m or i in colour:
                    continue
                near = [c for c in chain if c in geo.peer_sets[i]]
                ends = [(a, b) for a in near for b in near if colour[a] < colour[b] and b not in geo.peer_sets[a]]
                if ends:
                    a, b = ends[0]
                    elims = [(i, d) for d in _digits(mi & m)]
                    return _step(
                        "remote pair",
                        chain,
                        _digits(m),
                        f"the chain of {_set(m, n)} cells {_names(chain, n)} alternates its two digits, so "
                        f"{_name(a, n)} and {_name(b, n)} hold both and {_removed(elims, n)}",
                        eliminations=elims,
                    )
    return None


def _bug_plus_1(s: Candidates) -> Step | None:
    geo = s.geo
    n = geo.n
    masks = s.masks
    odd = [i for i, m in enumerate(masks) if m and m.bit_count() != 2]
    if len(odd) != 1 or masks[odd[0]].bit_count() != 3:
        return None
    cell = odd[0]
    for d in _digits(masks[cell]):
        bit = 1 << (d - 1)
        rest = list(masks)
        rest[cell] &= ~bit
        # Without d in that cell, every digit would fill each unit exactly twice: a deadly pattern.
        if all(sum(1 for i in unit if rest[i] >> e & 1) in (0, 2) for unit in geo.units for e in range(n)):
            return _step(
                "BUG+1",
                (cell,),
                (d,),
                f"every blank but {_name(cell, n)} has two candidates, and without {_sym(d, n)} there every digit "
                f"would be "
                f"left twice in each unit and the puzzle would have two solutions, so {_name(cell, n)} is {_sym(d, n)}",
                placements=((cell, d),),
            )
    return None


# --- single-digit patterns ----------------------------------------------------------------------------


def _two_links(s: Candidates) -> Step | None:
    """Two strong links of one digit whose near ends see each other: a skyscraper, else a 2-string kite, else
    a turbot fish (the first of that kind found; one search for the three)."""
    geo = s.geo
    n = geo.n
    masks = s.masks
    row_of, col_of, box_of = s.shape.row_of, s.shape.col_of, s.geo.box_of
    found: dict[str, Step] = {}
    for d in range(1, n + 1):
        bit = 1 << (d - 1)
        links = _strong_links(s, d)
        for (a1, b1, k1), (a2, b2, k2) in combinations(links, 2):
            rows, cols = k1 < n and k2 < n, n <= k1 < 2 * n and n <= k2 < 2 * n
            row_col = (k1 < n and n <= k2 < 2 * n) or (k2 < n and n <= k1 < 2 * n)
            for p1, q1 in ((a1, b1), (b1, a1)):
                for p2, q2 in ((a2, b2), (b2, a2)):
                    if q2 not in geo.peer_sets[q1] or len({p1, q1, p2, q2}) != 4:
                        continue
                    if rows or cols:
                        same = col_of if rows else row_of
                        if same[q1] == same[q2] and same[p1] == same[p2]:
                            continue  # an X-Wing
                        kind = "skyscraper" if same[q1] == same[q2] else "turbot fish"
                    elif row_col and box_of[q1] == box_of[q2]:
                        kind = "2-string kite"
                    else:
                        kind = "turbot fish"
                    if kind in found:
                        continue
                    both = geo.peer_sets[p1] & geo.peer_sets[p2]
                    elims = [(i, d) for i in sorted(both) if masks[i] & bit and i not in (q1, q2)]
                    if elims:
                        found[kind] = _step(
                            kind,
                            (p1, q1, q2, p2),
                            (d,),
                            f"{_sym(d, n)} is in {_name(p1, n)} or {_name(q1, n)} ({geo.unit_names[k1]}) and in "
                            f"{_name(p2, n)} or {_name(q2, n)} ({geo.unit_names[k2]}), and {_name(q1, n)} sees "
                            f"{_name(q2, n)}, so {_sym(d, n)} is in {_name(p1, n)} or {_name(p2, n)} and "
                            f"{_removed(elims, n)}",
                            eliminations=elims,
                        )
                        if kind == "skyscraper":
                            return found[kind]  # the kind that comes first: no need to search on
    kite = found.get("2-string kite")
    return kite if kite is not None else found.get("turbot fish")


def _empty_rectangle(s: Candidates) -> Step | None:
    geo = s.geo
    n = geo.n
    masks = s.masks
    shape = s.shape
    row_of, col_of, box_of = shape.row_of, shape.col_of, geo.box_of
    for d in range(1, n + 1):
        bit = 1 << (d - 1)
        for b in range(n):
            box = geo.units[2 * n + b]
            where = [i for i in box if masks[i] & bit]
            if len(where) < 2:
                continue
            for r in sorted({row_of[i] for i in box}):
                for c in sorted({col_of[i] for i in box}):
                    if any(row_of[i] != r and col_of[i] != c for i in where):
                        continue
                    if not any(row_of[i] == r and col_of[i] != c for i in where):
                        continue
                    if not any(col_of[i] == c and row_of[i] != r for i in where):
                        continue
                    # The box's d is in row r or column c. A strong link from row r (or column c) out of the box
                    # ends in a cell whose line meets column c (row r) in the target.
                    for x in geo.units[r] + geo.units[n + c]:
                        if box_of[x] == b or not masks[x] & bit:
                            continue
                        along_row = row_of[x] == r
                        link = [i for i in geo.units[n + col_of[x] if along_row else row_of[x]] if masks[i] & bit]
                        if len(link) != 2:
                            continue
                        y = link[0] if link[1] == x else link[1]
                        t = row_of[y] * n + c if along_row else r * n + col_of[y]
                        if t == y or box_of[t] == b or not masks[t] & bit:
                            continue
                        elims = [(t, d)]
                        return _step(
                            "empty rectangle",
                            (*where, x, y),
                            (d,),
                            f"in box {b + 1}, {_sym(d, n)} is in row {r + 1} or column {c + 1}, and {_sym(d, n)} is in "
                            f"{_name(x, n)} or {_name(y, n)}, so {_name(t, n)}, which sees {_name(y, n)} and the box's "
                            f"{'column' if along_row else 'row'}, cannot be {_sym(d, n)}",
                            eliminations=elims,
                        )
    return None


def _rectangles(s: Candidates) -> Iterator[tuple[int, int, int, int, int]]:
    """(mask, floor, floor, roof, roof): two cells holding only the same pair, sharing a line, and the two cells
    opposite them across two boxes, both holding the pair and more."""
    n = s.shape.n
    masks = s.masks
    box_of = s.geo.box_of
    for a, m in enumerate(masks):
        if m.bit_count() != 2:
            continue
        ra, ca = divmod(a, n)
        for b in [ra * n + c for c in range(ca + 1, n)] + [r * n + ca for r in range(ra + 1, n)]:
            if masks[b] != m:
                continue
            same_row = b // n == ra
            for k in range(n):
                if k == (ra if same_row else ca):
                    continue
                c, d = (k * n + ca, k * n + b % n) if same_row else (ra * n + k, b // n * n + k)
                if len({box_of[a], box_of[b], box_of[c], box_of[d]}) != 2:
                    continue
                if masks[c] & m == m and masks[d] & m == m and masks[c] != m and masks[d] != m:
                    yield m, a, b, c, d


def _unique_rectangle_2(s: Candidates) -> Step | None:
    geo = s.geo
    n = geo.n
    masks = s.masks
    for m, a, b, c, d in _rectangles(s):
        extra = masks[c] & ~m
        if masks[d] != masks[c] or extra.bit_count() != 1:
            continue
        x = _bit(extra)
        both = geo.peer_sets[c] & geo.peer_sets[d]
        elims = [(i, x) for i in sorted(both) if masks[i] & extra]
        if elims:
            corners = sorted((a, b, c, d))
            return _step(
                "unique rectangle type 2",
                corners,
                _digits(masks[c]),
                f"unless {_name(c, n)} or {_name(d, n)} is {_sym(x, n)}, the rectangle {_names(corners, n)} could swap "
                f"its {_set(m, n)} pairs and the puzzle would have two solutions, so {_removed(elims, n)}",
                eliminations=elims,
            )
    return None


def _unique_rectangle_4(s: Candidates) -> Step | None:
    geo = s.geo
    n = geo.n
    masks = s.masks
    for m, a, b, c, d in _rectangles(s):
        for k in set(geo.cell_units[c]) & set(geo.cell_units[d]):
            for x in _digits(m):
                bit = 1 << (x - 1)
                if any(masks[i] & bit for i in geo.units[k] if i not in (c, d)):
                    continue
                y = _bit(m & ~bit)
                elims = [(c, y), (d, y)]
                corners = sorted((a, b, c, d))
                return _step(
                    "unique rectangle type 4",
                    corners,
                    _digits(m),
                    f"{_sym(x, n)} in {geo.unit_names[k]} must be in {_name(c, n)} or {_name(d, n)}, and {_sym(y, n)} "
                    f"with it would "
                    f"let the rectangle {_names(corners, n)} swap its {_set(m, n)} pairs (two solutions), so "
                    f"{_removed(elims, n)}",
                    eliminations=elims,
                )
    return None


# --- variant rules ------------------------------------------------------------------------------------

#: The most rule results a board's memo keeps before it starts afresh.
_MEMO_SIZE = 50_000
#: The most candidates of one rule kept as having taken more than the budget (the latest ones).
_OVER_BUDGET_KEPT = 32


def _pair_support(table: tuple[int, ...], ma: int, mb: int, va: int, vb: int) -> tuple[int, int, int]:
    """A two-cell rule (``table``: :func:`sudokit.features.rules.pair_table`) on cells of candidates ``ma``, ``mb``
    (or values ``va``, ``vb`` once filled): the digits of each some filling allows, and the digits every one holds."""
    ma = ma or (1 << (va - 1) if va else 0)
    mb = mb or (1 << (vb - 1) if vb else 0)
    sa = sb = 0
    needed = -1
    while ma:
        low = ma & -ma
        ma ^= low
        fits = table[low.bit_length() - 1] & mb
        if fits:
            sa |= low
            sb |= fits
            # The digits every filling holds: x itself, or a y every fitting y shares (one fitting y).
            needed &= low | (fits if not fits & (fits - 1) else 0)
    return sa, sb, max(needed, 0)


def _rule_result(
    s: Candidates, k: int, budget: int = MAX_NODES, work: list[int] | None = None
) -> tuple[list[int], int] | None:
    """What the board's k-th rule allows with the current candidates (memoised by its cells' state); None when
    that takes more than ``budget`` partial fillings (:func:`sudokit.features.rules.enumerate_rule`). The partial
    fillings finding it takes are added to ``work[0]``, remembered or not (so the sum does not depend on what was
    asked before)."""
    rule = s.geo.rules[k]
    masks, values = s.masks, s.values
    table = s.geo.pair_tables[k]
    if table is not None:
        a, b = rule.cells
        sa, sb, needed = _pair_support(table, masks[a], masks[b], values[a], values[b])
        return [sa, sb], needed
    key = tuple(masks[i] or -values[i] for i in rule.cells)
    memo = s.geo.memo
    tried, got, nodes = memo.get((k, key), (0, None, 0))
    if got is None and tried < budget:  # not tried, or given up on within a smaller budget
        domains = [masks[i] or (1 << (values[i] - 1) if values[i] else 0) for i in rule.cells]
        over = s.geo.over_budget[k]
        if any(
            spent >= budget and all(not m & ~d for m, d in zip(small, domains, strict=True)) for spent, small in over
        ):
            got, nodes = None, budget + 1  # candidates that include some that took more than the budget take more
        else:
            count = [0]
            got = enumerate_rule(rule, domains, s.geo.peer_sets, budget, count)
            nodes = count[0]
            if got is None:
                if len(over) >= _OVER_BUDGET_KEPT:
                    del over[0]
                over.append((budget, domains))
        if len(memo) >= _MEMO_SIZE:
            memo.clear()
        memo[(k, key)] = (budget, got, nodes)
    if work is not None:
        work[0] += min(nodes, budget + 1)
    return got


def _rule_eliminations(
    s: Candidates, k: int, supported: list[int], needed: int
) -> tuple[list[tuple[int, int]], list[tuple[int, int, tuple[int, ...]]]]:
    """The candidates of the k-th rule's cells no filling allows, and (digit, cell, holders) for each cell outside
    the rule that sees every cell that may hold a digit every filling places."""
    rule = s.geo.rules[k]
    masks = s.masks
    own = [(i, d) for j, i in enumerate(rule.cells) for d in _digits(masks[i] & ~supported[j])]
    seen: list[tuple[int, int, tuple[int, ...]]] = []
    placed = 0  # the digits its cells already hold: those leave their peers as they are placed
    for i in rule.cells:
        if s.values[i]:
            placed |= 1 << (s.values[i] - 1)
    m = needed & ~placed
    if not m:
        return own, seen
    open_cells = [(j, i) for j, i in enumerate(rule.cells) if not s.values[i]]
    peer_sets = s.geo.peer_sets
    while m:
        low = m & -m
        m ^= low
        holders = tuple(i for j, i in open_cells if supported[j] & low)
        if not holders:
            continue
        common = peer_sets[holders[0]].intersection(*(peer_sets[i] for i in holders[1:]))
        hit = sorted(i for i in common if masks[i] & low and i not in rule.cells)
        seen += [(_bit(low), i, holders) for i in hit]
    return own, seen


def _cell_phrase(cell: int, before: int, after: int, n: int) -> str:
    """ "r4c1 must be 7", "r4c1 is at most 5", "r4c1 is at least 3", "r4c2 is from 2 to 6" (every digit between
    them left) or "r2c2 cannot be 5, 7 or 9"."""
    name = _name(cell, n)
    gone = before & ~after
    if after and not after & (after - 1):
        return f"{name} must be {_sym(_bit(after), n)}"
    if after and not gone & ((1 << after.bit_length()) - 1):
        return f"{name} is at most {_sym(after.bit_length(), n)}"
    low, high = _bit(after & -after), after.bit_length()
    if after and gone < (after & -after):
        return f"{name} is at least {_sym(low, n)}"
    if after and not gone & ((1 << high) - 1) & ~((1 << (low - 1)) - 1):
        return f"{name} is from {_sym(low, n)} to {_sym(high, n)}"
    return f"{name} cannot be {_list(_sym(d, n) for d in _digits(gone)).replace(' and ', ' or ')}"


def _rule_step(s: Candidates) -> Step | None:
    """The first rule (easiest kind first) some of whose cells' candidates no filling of its cells allows."""
    geo = s.geo
    n = geo.n
    for k, rule in enumerate(geo.rules):
        if not any(s.masks[i] for i in rule.cells):
            continue
        got = _rule_result(s, k)
        if got is None:
            continue
        supported, needed = got
        if not any(supported):
            return _step(
                "contradiction",
                rule.cells,
                (),
                f"no filling of {_names(rule.cells, n)} keeps the {rule.label}, so the puzzle has no solution",
            )
        own, seen = _rule_eliminations(s, k, supported, needed)
        if not own and not seen:
            continue
        phrases = []
        for j, i in enumerate(rule.cells):
            if s.masks[i] & ~supported[j]:
                phrases.append(_cell_phrase(i, s.masks[i], s.masks[i] & supported[j], n))
        if seen:
            digits = sorted({d for d, _, _ in seen})
            cells = sorted({i for _, i, _ in seen})
            phrases.append(
                f"it must hold {_list(_sym(d, n) for d in digits)}, so {_removed([(i, d) for d, i, _ in seen], n)}, "
                f"which see{'s' if len(cells) == 1 else ''} every cell of it that may hold "
                f"{'it' if len(digits) == 1 else 'them'}"
            )
        prefix = "no filling of its cells allows the rest: " if rule.technique == RULE_PROPAGATION else ""
        return _step(
            rule.technique,
            rule.cells,
            {d for _, d in own} | {d for d, _, _ in seen},
            f"{rule.label}: {prefix}{'; '.join(phrases)}",
            eliminations=own + [(i, d) for d, i, _ in seen],
        )
    return None


def _peer_locked(s: Candidates) -> Step | None:
    """In any house, a digit whose places all see one more cell leaves that cell (pointing across any two groups)."""
    geo = s.geo
    n = geo.n
    masks = s.masks
    for k, unit in enumerate(geo.units):
        for d in range(1, n + 1):
            bit = 1 << (d - 1)
            where = [i for i in unit if masks[i] & bit]
            if not where or any(s.values[i] == d for i in unit):
                continue
            common = frozenset.intersection(*(geo.peer_sets[i] for i in where))
            elims = [(i, d) for i in sorted(common) if masks[i] & bit]
            if elims:
                return _step(
                    "locked candidates (peers)",
                    where,
                    (d,),
                    f"in {geo.unit_names[k]}, {_sym(d, n)} can only be in {_names(where, n)}, which all see "
                    f"{_names([i for i, _ in elims], n)}, so {_removed(elims, n)}",
                    eliminations=elims,
                )
    return None


#: The most rounds of singles and rule propagation one forcing trial makes before it gives up.
MAX_FORCING_ROUNDS = 400
#: The most partial fillings of one rule a forcing trial tries (a rule that needs more tells it nothing).
MAX_FORCING_NODES = 2_000
#: The most work one forcing sweep does, counted in the partial fillings its trials' rule enumerations try (whether
#: remembered or not), two for each rule on two cells tested and one for each house for each round of singles
#: (:func:`_propagate`): past it, no more trials are made, and the sweep finds what the trials made so far show.
MAX_FORCING_WORK = 6_000_000


def _propagate(s: Candidates, settled: list[int] | None = None) -> tuple[str | None, bool, int]:
    """Singles and rule propagation on ``s`` (changed in place) until nothing changes: what breaks, if anything,
    whether nothing changes any more (False: cut off after :data:`MAX_FORCING_ROUNDS` rounds), and its work
    (:data:`MAX_FORCING_WORK`). ``settled``: the masks of a state ``s`` was made from on which propagation changes
    nothing, so that only the rules on cells whose candidates differ from it are tested."""
    geo = s.geo
    n = geo.n
    masks, values = s.masks, s.values
    last = [-1] * len(masks) if settled is None else list(settled)
    dirty: set[int] = set()
    work = [0]
    for _ in range(MAX_FORCING_ROUNDS):
        changed = False
        work[0] += len(geo.units)
        for i, m in enumerate(masks):
            if not m:
                if not values[i]:
                    return f"{_name(i, n)} without a candidate", True, work[0]
            elif not m & (m - 1):
                s.place(i, _bit(m))
                changed = True
        if changed:
            continue
        for k, unit in enumerate(geo.units):
            once = twice = have = 0
            for i in unit:
                m = masks[i]
                twice |= once & m
                once |= m
                if values[i]:
                    have |= 1 << (values[i] - 1)
            missing = s.shape.full_mask & ~(once | have)
            if missing:
                return f"no place for {_sym(_bit(missing & -missing), n)} in {geo.unit_names[k]}", True, work[0]
            single = once & ~twice & ~have
            while single:
                low = single & -single
                single ^= low
                cell = next((i for i in unit if masks[i] & low), None)
                if cell is not None:
                    s.place(cell, _bit(low))
                    changed = True
        if changed:
            continue
        for i, m in enumerate(masks):
            if m != last[i]:
                dirty.update(geo.rules_of[i])
                last[i] = m
        tables = geo.pair_tables
        for k in sorted(dirty):
            dirty.discard(k)
            rule = geo.rules[k]
            table = tables[k]
            if table is not None:  # a rule on two cells, inline: the common case, kept cheap
                a, b = rule.cells
                ma, mb = masks[a], masks[b]
                if not ma and not mb:
                    continue
                work[0] += 2
                sa, sb, _needed = _pair_support(table, ma, mb, values[a], values[b])
                if not sa:
                    return f"no filling of the {rule.label}", True, work[0]
                if masks[a] & ~sa or masks[b] & ~sb:
                    masks[a] &= sa
                    masks[b] &= sb
                    changed = True
                continue
            if not any(masks[i] for i in rule.cells):
                continue
            work[0] += 1  # a rule tested
            got = _rule_result(s, k, MAX_FORCING_NODES, work)
            if got is None:
                continue
            supported, needed = got
            if not any(supported):
                return f"no filling of the {rule.label}", True, work[0]
            own, seen = _rule_eliminations(s, k, supported, needed)
            for i, d in own + [(i, d) for d, i, _ in seen]:
                s.eliminate(i, d)
                changed = True
        if not changed:
            return None, True, work[0]
    return None, False, work[0]


def _forcing(s: Candidates) -> Step | None:
    """A candidate that, placed, leads after singles and rule propagation to a contradiction: it is removed.

    When none does, a cell each of whose candidates, placed in turn, removes the same candidate elsewhere after
    singles and rule propagation: whichever the cell holds, that candidate goes.

    A settled trial of the state's last sweep (it has only lost candidates since) that has lost no candidate the
    trial kept is not made again: it would settle on the same candidates. One that has is cut to what is left and
    propagated on from there (:func:`_narrowed`), not made again from the start.
    A candidate that a trial already made settled on (placed, without a contradiction, its filled rules kept) is not
    tried for a contradiction: placed first, singles and rule propagation would settle on that trial's candidates or
    more (they only remove what no filling allows), so without one. Its trial is made only when the "every
    candidate" pass needs it: each cell keeps at least what that trial left it, so when those already leave every
    candidate of the board to some candidate of the cell, nothing goes and the cell's other trials are not made.
    """
    n = s.geo.n
    blanks = sorted((m.bit_count(), i) for i, m in enumerate(s.masks) if m)
    tried: dict[tuple[int, int], Candidates] = {}  # (cell, digit): what its trial left
    within: dict[tuple[int, int], Candidates] = {}  # (cell, digit): a settled trial that placed it
    kept, s._trials = s._trials, {}
    possible = [m or (1 << (v - 1) if v else 0) for m, v in zip(s.masks, s.values, strict=True)]
    start = s.copy()
    why, settled, _work = _propagate(start)
    base = s.masks if why is None and settled and start.masks == s.masks else None
    spent = 0
    for _count, cell in blanks:
        for d in _digits(s.masks[cell]):
            if (cell, d) in within or spent > MAX_FORCING_WORK:
                continue
            old = kept.get((cell, d))
            if old is not None and _inside(old[0], possible):
                trial, why, settled, work = old[0], None, True, old[1]
            elif old is not None:  # the last sweep's trial, narrowed to what is left and propagated on from there
                trial, why, settled, work = _narrowed(old[0], possible)
                work += old[1]
            else:
                trial, why, settled, work = _trial(s, cell, d, base)
            spent += work
            if why is not None:
                return _refuted(cell, d, why, n)
            tried[(cell, d)] = trial
            if settled and _filled_rules_hold(trial, s.values):
                s._trials[(cell, d)] = (trial, work)
                for i, v in enumerate(trial.values):
                    if v and not s.values[i]:
                        within.setdefault((i, v), trial)
    for _count, cell in blanks:
        digits = _digits(s.masks[cell])
        if not all((cell, d) in tried or (cell, d) in within for d in digits):
            continue  # a cell the sweep did not reach, its work spent
        exact = all((cell, d) in tried for d in digits)
        while True:
            left = [0] * len(s.masks)  # what some branch leaves possible in each cell (at least, until exact)
            for d in digits:
                trial_or_none = tried.get((cell, d))
                if trial_or_none is None and exact:
                    trial, why, settled, work = _trial(s, cell, d, base)
                    spent += work
                    if why is not None:  # a rule's enumeration cut off by its budget in the trial that placed it
                        return _refuted(cell, d, why, n)
                    if settled and _filled_rules_hold(trial, s.values):
                        s._trials[(cell, d)] = (trial, work)
                    tried[(cell, d)] = trial_or_none = trial
                trial = within[(cell, d)] if trial_or_none is None else trial_or_none
                for i, m in enumerate(trial.masks):
                    left[i] |= m or (1 << (trial.values[i] - 1) if trial.values[i] else 0)
            elims = [(i, d) for i, m in enumerate(s.masks) if i != cell for d in _digits(m & ~left[i])]
            if not elims:
                break
            if exact:
                return _step(
                    "forcing (every candidate)",
                    (cell,),
                    digits,
                    f"whichever of {_list(_sym(d, n) for d in digits).replace(' and ', ' or ')} "
                    f"{_name(cell, n)} holds, singles and rule propagation remove the same candidates, so "
                    f"{_removed(elims, n)}",
                    eliminations=elims,
                )
            if spent > MAX_FORCING_WORK:
                break  # the cell's other trials are past the sweep's work
            exact = True
    return None


def _trial(s: Candidates, cell: int, digit: int, settled: list[int] | None) -> tuple[Candidates, str | None, bool, int]:
    """``s`` with ``digit`` placed in ``cell`` after singles and rule propagation (:func:`_propagate`; ``settled``:
    the masks of ``s`` when propagation changes nothing there): the state, what breaks (None: nothing), whether it
    settled and the work of its rules' enumerations."""
    trial = s.copy()
    trial.place(cell, digit)
    why, done, work = _propagate(trial, settled)
    return trial, why, done, work


def _narrowed(old: Candidates, possible: list[int]) -> tuple[Candidates, str | None, bool, int]:
    """The settled trial ``old`` of the last sweep, each cell's candidates cut to what ``possible`` allows, then
    singles and rule propagation: what a trial made now from the start would settle on (it may only remove what
    ``old`` kept, and what the state has lost since), found from where ``old`` stopped. As :func:`_trial`."""
    trial = old.copy()
    n = trial.geo.n
    masks, values = trial.masks, trial.values
    for i, p in enumerate(possible):
        v = values[i]
        if v:
            if not p >> (v - 1) & 1:
                return trial, f"{_name(i, n)} without a candidate", True, 0
        elif masks[i] & ~p:
            masks[i] &= p
    why, done, work = _propagate(trial, old.masks)
    return trial, why, done, work


def _inside(trial: Candidates, possible: list[int]) -> bool:
    """True when every cell of ``trial`` keeps only digits ``possible`` allows it (its candidates, or its digit)."""
    for m, v, p in zip(trial.masks, trial.values, possible, strict=True):
        if (m or (1 << (v - 1) if v else 0)) & ~p:
            return False
    return True


def _filled_rules_hold(s: Candidates, before: list[int]) -> bool:
    """True when every rule all of whose cells are filled, one since ``before`` (the values of the state ``s`` was
    made from), holds (propagation skips those, so a trial may settle with one broken, which a trial that leaves
    one of its cells open would find)."""
    values = s.values
    rules_of = s.geo.rules_of
    for k in {k for i, v in enumerate(values) if v and not before[i] for k in rules_of[i]}:
        rule = s.geo.rules[k]
        digits = [values[i] for i in rule.cells]
        if not all(digits):
            continue
        table = s.geo.pair_tables[k]
        if not (table[digits[0] - 1] >> (digits[1] - 1) & 1 if table is not None else rule.check(digits)):
            return False
    return True


def _refuted(cell: int, digit: int, why: str, n: int) -> Step:
    """The forcing step that removes ``digit`` from ``cell``, whose trial left ``why``."""
    return _step(
        "forcing (contradiction)",
        (cell,),
        (digit,),
        f"if {_name(cell, n)} were {_sym(digit, n)}, singles and rule propagation would leave {why}, so "
        f"{_sym(digit, n)} is removed from {_name(cell, n)}",
        eliminations=((cell, digit),),
    )


_FINDERS: tuple[Callable[[Candidates], Step | None], ...] = (
    _naked_single,
    _hidden_single,
    _locked_subset(2),
    _locked_subset(3),
    _locked_candidates,
    _naked_subset(2),
    _naked_subset(3),
    _hidden_subset(2),
    _hidden_subset(3),
    _naked_subset(4),
    _hidden_subset(4),
    _fish(2),
    _fish(3),
    _fish(4),
    _remote_pair,
    _bug_plus_1,
    _two_links,  # skyscraper, then 2-string kite, then turbot fish
    _empty_rectangle,
    _w_wing,
    _xy_wing,
    _xyz_wing,
    _unique_rectangle_1,
    _unique_rectangle_2,
    _unique_rectangle_4,
    _x_chain,
    _xy_chain,
)


def step_dict(step: Step, n: int, number: int | None = None) -> dict[str, Any]:
    """A step as JSON (what ``sudoku hint -f json`` prints): technique, cells, digits, placements, eliminations,
    explanation; ``step`` (its number) first when ``number`` is given."""

    def name(cell: int) -> str:
        return f"r{cell // n + 1}c{cell % n + 1}"

    data: dict[str, Any] = {} if number is None else {"step": number}
    data.update(
        {
            "technique": step.technique,
            "cells": [name(c) for c in step.cells],
            "digits": list(step.digits),
            "placements": [{"cell": name(c), "digit": d} for c, d in step.placements],
            "eliminations": [{"cell": name(c), "digit": d} for c, d in step.eliminations],
            "explanation": step.explanation,
        }
    )
    return data


#: The finders of a variant board: singles, its rules, then the classic techniques that hold for any units
#: (not the uniqueness ones, whose swapped solutions its rules may forbid), then forcing.
_UNIQUENESS = (_bug_plus_1, _unique_rectangle_1, _unique_rectangle_2, _unique_rectangle_4)
_VARIANT_FINDERS: tuple[Callable[[Candidates], Step | None], ...] = (
    *_FINDERS[:2],  # singles
    _rule_step,
    *_FINDERS[2:5],  # locked pairs and triples, locked candidates
    _peer_locked,
    *(finder for finder in _FINDERS[5:] if finder not in _UNIQUENESS),
    _forcing,
)


#: The techniques of the finders that make steps of several (a finder all of whose are left out is not run).
_EMITS: dict[Callable[[Candidates], Step | None], frozenset[str]] = {
    _locked_candidates: frozenset(("locked candidates (pointing)", "locked candidates (claiming)")),
    _peer_locked: frozenset(("locked candidates (peers)",)),
    _two_links: frozenset(("skyscraper", "2-string kite", "turbot fish")),
    _forcing: frozenset(("forcing (contradiction)", "forcing (every candidate)")),
}


# --- the solver ---------------------------------------------------------------------------------------


def logic_grid(puzzle: Grid | str) -> Grid:
    """``puzzle`` (a Grid or any puzzle text, classic or variant) as a Grid, for the step solver.

    ``TypeError`` for another type.
    """
    grid = parse_puzzle(puzzle) if isinstance(puzzle, str) else puzzle
    if not isinstance(grid, Grid):
        raise TypeError(f"puzzle must be a Grid or a puzzle text, not {puzzle!r:.80}")
    return grid


#: The families of techniques f-puzzles' solver (Rangsk's SudokuSolver) lets a setter leave out, as its puzzles'
#: ``disabledlogic`` names them, and the techniques of sudokit each leaves out (docs/server.md#disabledlogic).
LOGIC_FAMILIES: dict[str, frozenset[str]] = {
    "tuples": frozenset(
        {"locked pair", "locked triple", "naked pair", "naked triple", "naked quad", "hidden pair", "hidden triple"}
        | {"hidden quad"}
    ),
    "pointing": frozenset(
        {"locked pair", "locked triple", "locked candidates (pointing)", "locked candidates (claiming)"}
        | {"locked candidates (peers)"}
    ),
    "fishes": frozenset(("X-Wing", "Swordfish", "Jellyfish")),
    "wings": frozenset(("XY-Wing", "XYZ-Wing", "W-Wing")),
    "aic": frozenset(
        ("remote pair", "skyscraper", "2-string kite", "turbot fish", "empty rectangle", "X-chain", "XY-chain")
    ),
    "contradictions": frozenset(("forcing (contradiction)", "forcing (every candidate)")),
}
#: Names of techniques that stand for several of the steps' names.
_TECHNIQUE_GROUPS = {
    "locked candidates": LOGIC_FAMILIES["pointing"] - {"locked pair", "locked triple"},
    "forcing": LOGIC_FAMILIES["contradictions"],
}


@cache
def _leavable() -> dict[str, frozenset[str]]:
    """Every name ``disabled`` takes, in lower case: the families, the techniques and the steps' names."""
    names = {t.lower(): frozenset((t,)) for t in (*TECHNIQUES, *set().union(*LOGIC_FAMILIES.values()))}
    names |= {t: group for t, group in _TECHNIQUE_GROUPS.items()}
    names |= LOGIC_FAMILIES
    return names


def disabled_techniques(names: Iterable[str]) -> frozenset[str]:
    """The steps' techniques that ``names`` leave out: each name an f-puzzles family of :data:`LOGIC_FAMILIES`
    (its ``disabledlogic``) or a technique of :data:`TECHNIQUES` (``"locked candidates"``: pointing, claiming and
    peers; ``"forcing"``: both forcing steps), in any case.

    ``ValueError`` naming an unknown name (or one that is not text) and the names known.
    """
    known = _leavable()
    out: set[str] = set()
    for name in names:
        group = known.get(name.strip().lower()) if isinstance(name, str) else None
        if group is None:
            raise ValueError(
                f"no technique or f-puzzles logic family {name!r:.60} to leave out; the families are "
                f"{', '.join(LOGIC_FAMILIES)}, the techniques those of 'sudoku hint' (docs/logic.md), "
                "e.g. X-Wing, skyscraper, forcing"
            )
        out |= group
    return frozenset(out)


def steps(puzzle: Grid | str | Candidates, disabled: Iterable[str] = ()) -> Iterator[Step]:
    """The easiest-first path of logical steps from ``puzzle`` until it is solved or every technique stalls.

    At each point the easiest technique of :data:`TECHNIQUES` that makes progress gives the step,
    which is applied before the next is looked for. When none does, the last step is ``"needs search"``
    (no placements or eliminations); a puzzle found to have no solution ends with ``"contradiction"``.
    Unique rectangles and BUG+1 assume the puzzle has one solution. ``puzzle`` may also be a :class:`Candidates`
    state (pencil marks already thinned), which is copied, not changed. On a variant puzzle the
    steps also use its rules (:mod:`sudokit.features.rules`): each clue's eliminations, named after its
    kind, and last a forcing step (a candidate that leads to a contradiction after singles and rule
    propagation); the uniqueness techniques are left out there.

    ``disabled`` names techniques the path must not use (:func:`disabled_techniques`: f-puzzles' families, as
    its ``disabledlogic`` names them, or techniques; ``ValueError`` for an unknown name): where a technique
    left out is the easiest progress, the next technique is looked for instead.
    """
    off = disabled_techniques(disabled)
    state = puzzle.copy() if isinstance(puzzle, Candidates) else Candidates(logic_grid(puzzle))
    n = state.shape.n
    finders = _VARIANT_FINDERS if state.geo.variant else _FINDERS
    if off:
        finders = tuple(f for f in finders if not _EMITS.get(f, frozenset()) or not _EMITS[f] <= off)
    while not state.is_solved():
        step = None
        for finder in finders:
            step = finder(state)
            if step is not None and step.technique in off:
                step = None  # a step of a technique left out (a finder of several kinds found that one first)
            if step is not None:
                break
        if step is None:
            bad = _contradiction(state)
            if bad is not None:
                yield bad
                return
            blanks = sum(1 for v in state.values if not v)
            yield Step(
                "needs search",
                explanation=f"no technique up to {TECHNIQUES[-1]} makes progress with {blanks} of {n * n} cells "
                "still blank, so the next step needs search (trial and error)",
            )
            return
        yield step
        state.apply(step)
        if step.technique == "naked single" or step.technique == "hidden single":
            bad = _contradiction_fast(state, step.placements[0][0])
            if bad is not None:
                yield bad
                return


def _contradiction_fast(s: Candidates, cell: int) -> Step | None:
    """After a placement, a peer of ``cell`` left without a candidate (the cheap check made at every single)."""
    for p in s.geo.peers[cell]:
        if not s.masks[p] and not s.values[p]:
            return _contradiction(s)
    return None


def hint(puzzle: Grid | str | Candidates, disabled: Iterable[str] = ()) -> Step | None:
    """The next logical step of ``puzzle`` without the techniques ``disabled`` names (see :func:`steps`); None
    when it is already complete."""
    return next(steps(puzzle, disabled), None)
