"""Make the variant corpus: ``puzzles/variants/corpus.txt`` and ``puzzles/variants/answers.txt``.

    python tools/make_variant_corpus.py            # make every puzzle and write both files
    python tools/make_variant_corpus.py --check    # make them again and compare with the files (exit 1)
    python tools/make_variant_corpus.py --only killer,jigsaw   # make (and print) some puzzles, write nothing

Every puzzle is made from ``SEED`` and its name alone (``random.Random(f"{SEED}/{name}")``), in five steps:

1. A solved grid. Its regions are the boxes or, for a jigsaw, grown at random from n seeds until they
   partition the board. The grid is a solution of the empty board under the puzzle's global rules
   (diagonals, windoku windows, disjoint groups, anti-knight, anti-king, non-consecutive, the jigsaw regions), found by
   CP-SAT on one worker steered by a drawn digit per cell (a solution hint) and a drawn search seed.
2. Clues that are true of that grid, of each kind the puzzle asks for: killer cages partitioning the
   board, every little killer diagonal, every sandwich total, every X-sum and skyscraper, every indexer
   cell, thermometers along increasing paths, arrows whose cells sum to their circle (one two-cell circle
   where one fits), every kropki dot and every X and V (all of them, and kept, under a negative rule), a
   parity on every cell, and renban, whisper, palindrome, between, region sum, entropic, modular, zipper,
   lockout and nabner lines and double arrows found in the grid, quadruples on drawn 2x2 squares, and given
   pencil marks (the digit and one or two others) on drawn cells, every minimum and maximum cell, and clones
   (a line and a moved copy holding the same digits).
3. Givens are taken away, all cells in a drawn order, each one only if the ``cp-sat`` engine still
   counts exactly one solution (``limit=2``, exact) within ``MAX_CONFLICTS`` (a count that costs more
   is "too hard": the given stays); then the clues, in a drawn order, the same way, never the last
   clue of its kind.
4. Givens of the grid come back, in a drawn order, until each other engine that takes the kinds
   proves the puzzle unique within ``EASE_SECONDS`` (python-constraint is far slower than cp-sat on
   near-minimal variant puzzles). The one step that depends on the machine: a run on a slower or busier
   one may put back a given more or fewer, so ``--check`` says which puzzles differ.
5. The result is counted again by ``cp-sat`` and by every other installed engine that takes its kinds
   (count 1, exact, the grid of step 1); any other answer stops the run.

The files: ``corpus.txt`` holds one puzzle a line in our JSON form (``sudokit.model.variants.to_json``),
each after a ``# name: kinds`` comment; ``answers.txt`` a line per puzzle, in the same order:
``name kinds count solution`` (kinds joined by commas, the solution in the line form). The grids of
step 1 depend on OR-Tools' CP-SAT (the version in ``uv.lock``); everything else is this file's code.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

from ortools.sat.python import cp_model

from sudokit import Grid, Shape, Status, capabilities_of, get_strategy, solution_problem, solve
from sudokit.model.variants import (
    ALL_KINDS,
    XV,
    AntiKing,
    AntiKnight,
    Arrow,
    BetweenLine,
    Clone,
    Constraint,
    Diagonal,
    DisjointGroups,
    DoubleArrow,
    EntropicLine,
    ExtraRegion,
    Indexer,
    Killer,
    Kropki,
    KropkiNegative,
    LittleKiller,
    LockoutLine,
    MinMax,
    ModularLine,
    NabnerLine,
    NonConsecutive,
    OddEven,
    Palindrome,
    PencilMarks,
    Quadruple,
    RegionSumLine,
    Renban,
    Sandwich,
    Skyscraper,
    SlowThermometer,
    Thermometer,
    Whisper,
    XSum,
    XVNegative,
    ZipperLine,
    king_pairs,
    knight_pairs,
    orthogonal_pairs,
    to_json,
)

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "puzzles" / "variants"
CORPUS = OUT / "corpus.txt"
ANSWERS = OUT / "answers.txt"
#: Every puzzle's random draws start from this text and its name.
SEED = "sudokit-variants-2025-06"
#: Seconds an engine gets to count one puzzle's solutions (generation and the final cross-check).
TIME_LIMIT = 60.0
#: The slowest (seconds) any other engine may be to prove a corpus puzzle unique: past it, givens come back.
#: A time, so the one step of the making that depends on the machine (see ``ease``).
EASE_SECONDS = 1.0
#: The engine that decides uniqueness while clues are taken away.
ENGINE = "cp-sat"
#: A puzzle whose uniqueness costs the engine more conflicts than this (or its time limit) is too hard to make:
#: the given or clue stays. Deterministic (CP-SAT counts on one worker), unlike a time; it keeps every count fast.
MAX_CONFLICTS = 1_500
#: Seconds the engine gets for one count while thinning: past it a puzzle is too hard (CP-SAT's conflicts cap it first).
THIN_TIME_LIMIT = 2.0

Cell = tuple[int, int]


@dataclass(frozen=True)
class Spec:
    """One puzzle to make: its name, box shape, global rules, the clue kinds to derive, and jigsaw or not."""

    name: str
    box: str
    clues: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    jigsaw: bool = False

    @property
    def kinds(self) -> frozenset[str]:
        """Every kind the puzzle is meant to hold."""
        return frozenset(self.clues) | frozenset(self.rules) | ({"jigsaw"} if self.jigsaw else set())


#: The corpus, in file order: every kind alone on 9x9, then combinations, then 6x6 boards.
SPECS: tuple[Spec, ...] = (
    Spec("killer", "3x3", clues=("killer",)),
    Spec("little-killer", "3x3", clues=("little-killer",)),
    Spec("sandwich", "3x3", clues=("sandwich",)),
    Spec("thermometer", "3x3", clues=("thermometer",)),
    Spec("slow-thermometer", "3x3", clues=("slow-thermometer",)),
    Spec("arrow", "3x3", clues=("arrow",)),
    Spec("kropki", "3x3", clues=("kropki",)),
    Spec("kropki-negative", "3x3", clues=("kropki", "kropki-negative")),
    Spec("xv", "3x3", clues=("xv",)),
    Spec("xv-negative", "3x3", clues=("xv", "xv-negative")),
    Spec("odd-even", "3x3", clues=("odd-even",)),
    Spec("renban", "3x3", clues=("renban",)),
    Spec("whisper", "3x3", clues=("whisper",)),
    Spec("palindrome", "3x3", clues=("palindrome",)),
    Spec("quadruple", "3x3", clues=("quadruple",)),
    Spec("pencil-marks", "3x3", clues=("pencil-marks",)),
    Spec("min-max", "3x3", clues=("min-max",)),
    Spec("disjoint-groups", "3x3", rules=("disjoint-groups",)),
    Spec("clone", "3x3", clues=("clone",)),
    Spec("between-line", "3x3", clues=("between-line",)),
    Spec("region-sum-line", "3x3", clues=("region-sum-line",)),
    Spec("entropic-line", "3x3", clues=("entropic-line",)),
    Spec("modular-line", "3x3", clues=("modular-line",)),
    Spec("zipper-line", "3x3", clues=("zipper-line",)),
    Spec("lockout-line", "3x3", clues=("lockout-line",)),
    Spec("nabner-line", "3x3", clues=("nabner-line",)),
    Spec("double-arrow", "3x3", clues=("double-arrow",)),
    Spec("x-sum", "3x3", clues=("x-sum",)),
    Spec("skyscraper", "3x3", clues=("skyscraper",)),
    Spec("indexer", "3x3", clues=("indexer",)),
    Spec("sudoku-x", "3x3", rules=("diagonal",)),
    Spec("windoku", "3x3", rules=("extra-region",)),
    Spec("anti-knight", "3x3", rules=("anti-knight",)),
    Spec("anti-king", "3x3", rules=("anti-king",)),
    Spec("non-consecutive", "3x3", rules=("non-consecutive",)),
    Spec("jigsaw", "3x3", jigsaw=True),
    Spec("jigsaw-killer", "3x3", clues=("killer",), jigsaw=True),
    Spec("x-anti-king", "3x3", rules=("diagonal", "anti-king")),
    Spec("thermo-arrow-kropki", "3x3", clues=("thermometer", "arrow", "kropki")),
    Spec("sandwich-little-killer", "3x3", clues=("sandwich", "little-killer")),
    Spec("renban-whisper-palindrome", "3x3", clues=("renban", "whisper", "palindrome")),
    Spec("odd-even-xv", "3x3", clues=("odd-even", "xv")),
    Spec("anti-knight-thermo", "3x3", clues=("thermometer",), rules=("anti-knight",)),
    Spec("windoku-killer", "3x3", clues=("killer",), rules=("extra-region",)),
    Spec("jigsaw-x-odd-even", "3x3", clues=("odd-even",), rules=("diagonal",), jigsaw=True),
    Spec("non-consecutive-arrow", "3x3", clues=("arrow",), rules=("non-consecutive",)),
    Spec("killer-6x6", "2x3", clues=("killer",)),
    Spec("jigsaw-6x6", "2x3", jigsaw=True),
    Spec("thermo-arrow-6x6", "2x3", clues=("thermometer", "arrow")),
    Spec("sandwich-6x6", "2x3", clues=("sandwich",)),
    Spec("kropki-negative-6x6", "2x3", clues=("kropki", "kropki-negative")),
    Spec("non-consecutive-6x6", "2x3", rules=("non-consecutive",)),
    Spec("whisper-palindrome-6x6", "2x3", clues=("whisper", "palindrome")),
    Spec("xv-odd-even-6x6", "2x3", clues=("xv", "xv-negative", "odd-even", "slow-thermometer")),
    Spec("anti-king-6x6", "2x3", clues=("arrow",), rules=("anti-king",)),
    Spec("sudoku-x-6x6", "2x3", rules=("diagonal",)),
    Spec("little-killer-renban-6x6", "2x3", clues=("little-killer", "renban"), jigsaw=True),
)


# --- the solved grid ---------------------------------------------------------------------------------


def grow_regions(n: int, rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """n regions of n orthogonally connected cells partitioning an n x n board, grown from drawn seeds."""
    while True:
        owner = [-1] * (n * n)
        regions: list[list[int]] = []
        for seed in rng.sample(range(n * n), n):
            owner[seed] = len(regions)
            regions.append([seed])
        stuck = False
        while not stuck and any(len(r) < n for r in regions):
            stuck = True
            # The smallest region grows first; ties are drawn.
            for k in sorted(range(n), key=lambda k: (len(regions[k]), rng.random())):
                if len(regions[k]) == n:
                    continue
                frontier = sorted({j for i in regions[k] for j in _orthogonal(i, n) if owner[j] < 0})
                if frontier:
                    j = rng.choice(frontier)
                    owner[j] = k
                    regions[k].append(j)
                    stuck = False
                    break
        if not stuck:
            return tuple(tuple(sorted(r)) for r in regions)


def global_rules(spec: Spec, n: int) -> list[Constraint]:
    """The global rules of ``spec`` as constraint objects (both diagonals; the four windoku windows on 9x9)."""
    out: list[Constraint] = []
    for rule in spec.rules:
        if rule == "diagonal":
            out += [Diagonal("main"), Diagonal("anti")]
        elif rule == "extra-region":
            if n != 9:
                raise ValueError("windoku windows are made for 9x9 boards only")
            for top in (1, 5):
                for left in (1, 5):
                    out.append(ExtraRegion([(top + r, left + c) for r in range(3) for c in range(3)]))
        elif rule == "anti-knight":
            out.append(AntiKnight())
        elif rule == "disjoint-groups":
            out.append(DisjointGroups())
        elif rule == "anti-king":
            out.append(AntiKing())
        elif rule == "non-consecutive":
            out.append(NonConsecutive())
        else:
            raise ValueError(f"{spec.name}: {rule} is not a global rule")
    return out


def solved_grid(
    shape: Shape, regions: Iterable[Iterable[int]], rules: list[Constraint], rng: random.Random
) -> list[int]:
    """A solution of the empty board under ``regions`` and the global ``rules``, steered by drawn hints.

    An empty list when there is none (a jigsaw whose regions cannot be filled, say).
    """
    n = shape.n
    model = cp_model.CpModel()
    x = [model.new_int_var(1, n, f"c{i}") for i in range(n * n)]
    units: list[Iterable[int]] = [*shape.rows, *shape.cols, *regions]
    pairs: list[tuple[int, int]] = []
    for rule in rules:
        if isinstance(rule, Diagonal):
            units.append([r * n + c for r, c in rule.diagonal_cells(n)])
        elif isinstance(rule, ExtraRegion):
            units.append(rule.indexes(n))
        elif isinstance(rule, AntiKnight):
            pairs += knight_pairs(n)
        elif isinstance(rule, DisjointGroups):
            units.extend(rule.groups(shape))
        elif isinstance(rule, AntiKing):
            pairs += king_pairs(n)
        elif isinstance(rule, NonConsecutive):
            for a, b in orthogonal_pairs(n):
                model.add(x[a] - x[b] != 1)
                model.add(x[b] - x[a] != 1)
    for unit in units:
        model.add_all_different([x[i] for i in unit])
    for a, b in pairs:
        model.add(x[a] != x[b])
    for i in range(n * n):
        model.add_hint(x[i], rng.randint(1, n))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = rng.randrange(1 << 30)
    solver.parameters.max_deterministic_time = 60.0
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return []
    return [solver.value(v) for v in x]


# --- clues true of the grid --------------------------------------------------------------------------


def _orthogonal(i: int, n: int) -> list[int]:
    r, c = divmod(i, n)
    return [rr * n + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if 0 <= rr < n and 0 <= cc < n]


def _touching(i: int, n: int) -> list[int]:
    r, c = divmod(i, n)
    return [
        rr * n + cc
        for rr in (r - 1, r, r + 1)
        for cc in (c - 1, c, c + 1)
        if (rr, cc) != (r, c) and 0 <= rr < n and 0 <= cc < n
    ]


def _cells(indexes: Iterable[int], n: int) -> list[Cell]:
    return [divmod(i, n) for i in indexes]


class Clues:
    """Clue makers for one solved grid: each returns the clues of its kind that the grid makes true."""

    def __init__(self, grid: list[int], n: int, rng: random.Random) -> None:
        self.s, self.n, self.rng = grid, n, rng
        self.used: set[int] = set()  # cells already on a line (lines do not cross)
        self.long = 6 if n == 9 else 4  # the longest line drawn

    def scaled(self, count: int) -> int:
        """How many lines to draw where a 9x9 board gets ``count``: a 6x6 board gets half."""
        return count if self.n == 9 else max(1, count // 2)

    def make(self, kind: str) -> list[Constraint]:
        """Every clue of ``kind`` this maker draws for the grid."""
        maker: Callable[[], list[Constraint]] = getattr(self, kind.replace("-", "_"))
        return maker()

    # The whole-board clue sets.

    def killer(self) -> list[Constraint]:
        """Cages of 2-5 cells with different digits partitioning the board (a lone cell joins a neighbour's cage)."""
        n, s, rng = self.n, self.s, self.rng
        free = set(range(n * n))
        cages: list[list[int]] = []
        while free:
            start = rng.choice(sorted(free))
            size = rng.choice((2, 2, 3, 3, 3, 4, 4, 5) if n == 9 else (2, 2, 3, 3, 4))
            cage = [start]
            free.discard(start)
            while len(cage) < size:
                options = sorted(
                    {j for i in cage for j in _orthogonal(i, n) if j in free and s[j] not in {s[k] for k in cage}}
                )
                if not options:
                    break
                j = rng.choice(options)
                cage.append(j)
                free.discard(j)
            cages.append(cage)
        for lone in [c for c in cages if len(c) == 1]:
            hosts = [c for c in cages if c is not lone and len(c) < n and s[lone[0]] not in {s[k] for k in c}]
            hosts = [c for c in hosts if set(_orthogonal(lone[0], n)) & set(c)]
            if hosts:
                rng.choice(hosts).append(lone.pop())
        return [Killer(_cells(sorted(c), n), total=sum(s[i] for i in c)) for c in cages if c]

    def little_killer(self) -> list[Constraint]:
        """Every diagonal of 2 or more cells from the top edge or a side, with its sum."""
        n, s = self.n, self.s
        out = []
        for dc in (1, -1):
            starts = [(0, c) for c in range(n)] + [(r, 0 if dc == 1 else n - 1) for r in range(1, n)]
            for r, c in starts:
                line = []
                while 0 <= r < n and 0 <= c < n:
                    line.append((r, c))
                    r, c = r + 1, c + dc
                if len(line) >= 2:
                    out.append(LittleKiller(line, total=sum(s[a * n + b] for a, b in line)))
        return out

    def sandwich(self) -> list[Constraint]:
        """Every row's and column's sandwich total."""
        n, s = self.n, self.s
        out = []
        for axis in ("row", "column"):
            for k in range(n):
                line = [s[k * n + j] if axis == "row" else s[j * n + k] for j in range(n)]
                a, b = sorted((line.index(1), line.index(n)))
                out.append(Sandwich(axis, k, sum(line[a + 1 : b])))
        return out

    def x_sum(self) -> list[Constraint]:
        """Every row's and column's X-sum, from each of the four sides."""
        n, s = self.n, self.s
        out: list[Constraint] = []
        for side in ("left", "right", "top", "bottom"):
            for k in range(n):
                line = [s[r * n + c] for r, c in XSum(side, k, 1).line_cells(n)]
                out.append(XSum(side, k, sum(line[: line[0]])))
        return out

    def skyscraper(self) -> list[Constraint]:
        """Every row's and column's skyscraper count, from each of the four sides."""
        n, s = self.n, self.s
        out: list[Constraint] = []
        for side in ("left", "right", "top", "bottom"):
            for k in range(n):
                line = [s[r * n + c] for r, c in Skyscraper(side, k, 1).line_cells(n)]
                out.append(Skyscraper(side, k, sum(d > max(line[:j], default=0) for j, d in enumerate(line))))
        return out

    def indexer(self) -> list[Constraint]:
        """A row, column and box indexer on every cell whose digit points right in the grid (one rule a cell)."""
        n, s = self.n, self.s
        board = Grid(s, Shape.for_side(n), validate=False)
        cells = [(r, c) for r in range(n) for c in range(n)]
        return [
            rule
            for axis in ("row", "column", "box")
            for rule in (Indexer(axis, [cell]) for cell in cells)
            if rule.violation(s, board) is None
        ]

    def _pairs(self) -> Iterator[tuple[int, int, int, int]]:
        for a, b in orthogonal_pairs(self.n):
            yield a, b, self.s[a], self.s[b]

    def kropki(self) -> list[Constraint]:
        """Every dot the grid has: white between consecutive digits, black where one is double (1-2: drawn)."""
        out = []
        for a, b, x, y in self._pairs():
            white, black = abs(x - y) == 1, x == 2 * y or y == 2 * x
            if white and black:
                white = self.rng.random() < 0.5
            if white or black:
                out.append(Kropki("white" if white else "black", _cells((a, b), self.n)))
        return out

    def xv(self) -> list[Constraint]:
        """Every X (sum 10) and V (sum 5) the grid has."""
        out = []
        for a, b, x, y in self._pairs():
            if x + y in (5, 10):
                out.append(XV("X" if x + y == 10 else "V", _cells((a, b), self.n)))
        return out

    def kropki_negative(self) -> list[Constraint]:
        """The negative rule (the puzzle then keeps every dot)."""
        return [KropkiNegative()]

    def xv_negative(self) -> list[Constraint]:
        """The negative rule (the puzzle then keeps every X and V)."""
        return [XVNegative()]

    def odd_even(self) -> list[Constraint]:
        """Every cell's parity."""
        return [OddEven(divmod(i, self.n), "odd" if d % 2 else "even") for i, d in enumerate(self.s)]

    # Lines found in the grid.

    def _lines(
        self,
        count: int,
        step: Callable[[list[int], int], bool],
        done: Callable[[list[int]], bool],
        shortest: int = 3,
    ) -> list[list[int]]:
        """Up to ``count`` lines of touching cells not on another line, each step allowed by ``step(path, cell)``.

        A line is searched depth first from a drawn cell, for a drawn length, and kept when ``done(path)``.
        """
        n, rng = self.n, self.rng
        count = self.scaled(count)
        lines: list[list[int]] = []
        for _ in range(count * 30):
            if len(lines) == count:
                break
            start = rng.choice([i for i in range(n * n) if i not in self.used])
            length = rng.randint(shortest, self.long)
            path = self._search([start], length, step, done, [0])
            if path is not None:
                lines.append(path)
                self.used |= set(path)
        return lines

    def _search(
        self,
        path: list[int],
        length: int,
        step: Callable[[list[int], int], bool],
        done: Callable[[list[int]], bool],
        budget: list[int],
    ) -> list[int] | None:
        budget[0] += 1
        if budget[0] > 2000:
            return None
        if len(path) == length:
            return list(path) if done(path) else None
        options = [j for j in _touching(path[-1], self.n) if j not in self.used and j not in path and step(path, j)]
        self.rng.shuffle(options)
        for j in options:
            path.append(j)
            found = self._search(path, length, step, done, budget)
            path.pop()
            if found is not None:
                return found
        return None

    def thermometer(self) -> list[Constraint]:
        """Thermometers whose digits strictly increase from the bulb."""
        s = self.s
        lines = self._lines(10, lambda p, j: s[j] > s[p[-1]], lambda p: True)
        return [Thermometer(_cells(p, self.n)) for p in lines]

    def slow_thermometer(self) -> list[Constraint]:
        """Slow thermometers (never decreasing); one with a repeated digit where the grid has one."""
        s = self.s
        lines = self._lines(2, lambda p, j: s[j] == s[p[-1]] or s[j] > s[p[-1]], lambda p: _repeats(p, s), 3)
        lines += self._lines(8, lambda p, j: s[j] >= s[p[-1]], lambda p: True)
        return [SlowThermometer(_cells(p, self.n)) for p in lines]

    def renban(self) -> list[Constraint]:
        """Renban lines: different digits forming a run."""
        s = self.s

        def step(path: list[int], j: int) -> bool:
            digits = {s[i] for i in path}
            return s[j] not in digits and max(digits | {s[j]}) - min(digits | {s[j]}) < self.long

        def done(path: list[int]) -> bool:
            digits = [s[i] for i in path]
            return max(digits) - min(digits) == len(digits) - 1

        return [Renban(_cells(p, self.n)) for p in self._lines(8, step, done)]

    def whisper(self) -> list[Constraint]:
        """Whisper lines: neighbours differ by at least 5 (3 on 6x6, 2 on 4x4)."""
        s, gap = self.s, self.whisper_gap
        lines = self._lines(8, lambda p, j: abs(s[j] - s[p[-1]]) >= gap, lambda p: True)
        return [Whisper(_cells(p, self.n), difference=gap) for p in lines]

    @property
    def whisper_gap(self) -> int:
        """The whisper difference of the board: about half its side."""
        return (self.n + 1) // 2

    def palindrome(self) -> list[Constraint]:
        """Palindrome lines, grown outwards from a middle cell (or a middle pair of equal digits)."""
        n, s, rng = self.n, self.s, self.rng
        out = []
        for _ in range(200):
            if len(out) == self.scaled(6):
                break
            free = [i for i in range(n * n) if i not in self.used]
            middle = [rng.choice(free)]
            if rng.random() < 0.4:
                twins = [j for j in _touching(middle[0], n) if j not in self.used and s[j] == s[middle[0]]]
                if twins:
                    middle.append(rng.choice(twins))
            left, right = [middle[0]], [middle[-1]]
            target = rng.randint(3, self.long + 1)
            while len(left) + len(right) + len(middle) - 2 < target:
                taken = set(left) | set(right) | set(middle)
                ends = [
                    (a, b)
                    for a in _touching(left[-1], n)
                    for b in _touching(right[-1], n)
                    if a != b and s[a] == s[b] and not ({a, b} & (taken | self.used))
                ]
                if not ends:
                    break
                a, b = rng.choice(ends)
                left.append(a)
                right.append(b)
            path = left[:0:-1] + middle + right[1:]
            if len(path) >= 3:
                out.append(Palindrome(_cells(path, n)))
                self.used |= set(path)
        return out

    def clone(self) -> list[Constraint]:
        """Clones: a drawn line of 2 to 4 cells and a copy of it moved where the grid holds the same digits."""
        n, s, rng = self.n, self.s, self.rng
        out: list[Constraint] = []
        for _ in range(400):
            if len(out) == self.scaled(8):
                break
            free = [i for i in range(n * n) if i not in self.used]
            path = self._search([rng.choice(free)], rng.randint(2, 4), lambda p, j: True, lambda p: True, [0])
            if path is None:
                continue
            cells = _cells(path, n)
            moves = [
                (dr, dc)
                for dr in range(1 - n, n)
                for dc in range(1 - n, n)
                if (dr, dc) != (0, 0)
                and all(
                    0 <= r + dr < n
                    and 0 <= c + dc < n
                    and (r + dr) * n + c + dc not in self.used | set(path)
                    and s[(r + dr) * n + c + dc] == s[r * n + c]
                    for r, c in cells
                )
            ]
            if moves:
                dr, dc = rng.choice(moves)
                copy = [(r + dr, c + dc) for r, c in cells]
                out.append(Clone(cells, copy))
                self.used |= set(path) | {r * n + c for r, c in copy}
        return out

    def min_max(self) -> list[Constraint]:
        """Every cell below (above) all its orthogonal neighbours, as a minimum (maximum) cell."""
        n, s = self.n, self.s
        out: list[Constraint] = []
        for i in range(n * n):
            for extreme in ("minimum", "maximum"):
                rule = MinMax(divmod(i, n), extreme)
                if all(rule.holds(s[i], s[r * n + c]) for r, c in rule.neighbours(n)):
                    out.append(rule)
        return out

    def pencil_marks(self) -> list[Constraint]:
        """Given pencil marks on drawn cells: the cell's digit and one or two others."""
        n, s, rng = self.n, self.s, self.rng
        out: list[Constraint] = []
        for i in rng.sample(range(n * n), self.scaled(40)):
            others = rng.sample([d for d in range(1, n + 1) if d != s[i]], rng.choice((1, 1, 2)))
            out.append(PencilMarks(divmod(i, n), [s[i], *others]))
        return out

    def quadruple(self) -> list[Constraint]:
        """Quadruples on drawn 2x2 squares, each listing two to four of the square's digits (a repeat listed twice)."""
        n, s, rng = self.n, self.s, self.rng
        corners = rng.sample([(r, c) for r in range(n - 1) for c in range(n - 1)], self.scaled(16))
        out: list[Constraint] = []
        for r, c in corners:
            square = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
            out.append(Quadruple(square, rng.sample([s[a * n + b] for a, b in square], rng.choice((2, 3, 3, 4)))))
        return out

    def between_line(self) -> list[Constraint]:
        """Between lines: from one end, the cells after it all above (or all below) it, up to an end beyond them."""
        s = self.s

        def step(path: list[int], j: int) -> bool:
            first = s[path[0]]
            if len(path) == 1:
                return s[j] != first
            return (s[j] > first) == (s[path[1]] > first)

        def done(path: list[int]) -> bool:
            low, high = sorted((s[path[0]], s[path[-1]]))
            return all(low < s[i] < high for i in path[1:-1])

        return [BetweenLine(_cells(p, self.n)) for p in self._lines(6, step, done)]

    def region_sum_line(self) -> list[Constraint]:
        """Region sum lines: lines crossing region borders whose segments add up alike in the grid."""
        s, n = self.s, self.n
        region_of = Shape.for_side(n).box_of  # no jigsaw puzzle asks for these lines

        def sums(path: list[int]) -> list[int]:
            out = [s[path[0]]]
            for a, b in pairwise(path):
                if region_of[a] == region_of[b]:
                    out[-1] += s[b]
                else:
                    out.append(s[b])
            return out

        def step(path: list[int], j: int) -> bool:
            totals = sums([*path, j])  # the last segment may still grow: at most the first's total
            return all(t == totals[0] for t in totals[:-1]) and (len(totals) == 1 or totals[-1] <= totals[0])

        def done(path: list[int]) -> bool:
            totals = sums(path)
            return len(totals) > 1 and all(t == totals[0] for t in totals)

        return [RegionSumLine(_cells(p, n)) for p in self._lines(6, step, done)]

    def entropic_line(self) -> list[Constraint]:
        """Entropic lines: every three cells in a row along them hold a low, a middle and a high digit."""
        s, third = self.s, self.n // 3

        def step(path: list[int], j: int) -> bool:
            return all((s[j] - 1) // third != (s[i] - 1) // third for i in path[-2:])

        return [EntropicLine(_cells(p, self.n)) for p in self._lines(6, step, lambda p: True)]

    def modular_line(self) -> list[Constraint]:
        """Modular lines: every three cells in a row along them hold three different residues mod 3."""
        s = self.s

        def step(path: list[int], j: int) -> bool:
            return all(s[j] % 3 != s[i] % 3 for i in path[-2:])

        return [ModularLine(_cells(p, self.n)) for p in self._lines(6, step, lambda p: True)]

    def zipper_line(self) -> list[Constraint]:
        """Zipper lines: the pairs about the centre add up alike (to the centre cell on odd lines)."""
        s, n = self.s, self.n
        board = Grid(s, Shape.for_side(n), validate=False)

        def done(path: list[int]) -> bool:
            return ZipperLine(_cells(path, n)).violation(s, board) is None

        return [ZipperLine(_cells(p, n)) for p in self._lines(6, lambda p, j: True, done)]

    def lockout_line(self) -> list[Constraint]:
        """Lockout lines: the ends at least n // 2 apart (4 on 9x9), every digit between outside them."""
        s, n, gap = self.s, self.n, self.n // 2

        def done(path: list[int]) -> bool:
            low, high = sorted((s[path[0]], s[path[-1]]))
            return high - low >= gap and all(not low <= s[i] <= high for i in path[1:-1])

        return [LockoutLine(_cells(p, n), difference=gap) for p in self._lines(6, lambda p, j: True, done)]

    def nabner_line(self) -> list[Constraint]:
        """Nabner lines: no two digits on them equal or consecutive."""
        s = self.s

        def step(path: list[int], j: int) -> bool:
            return len(path) < (self.n + 1) // 2 and all(abs(s[j] - s[i]) >= 2 for i in path)

        return [NabnerLine(_cells(p, self.n)) for p in self._lines(8, step, lambda p: True, 2)]

    def double_arrow(self) -> list[Constraint]:
        """Double arrows: the two ends add up to the cells between."""
        s = self.s

        def done(path: list[int]) -> bool:
            return s[path[0]] + s[path[-1]] == sum(s[i] for i in path[1:-1])

        return [DoubleArrow(_cells(p, self.n)) for p in self._lines(6, lambda p, j: True, done)]

    def arrow(self) -> list[Constraint]:
        """Arrows from a circle, their digits summing to it; one circle of two cells (read as 1x) where it fits."""
        n, s, rng = self.n, self.s, self.rng
        out: list[Constraint] = []
        ones = [
            (a, b) for a, b in orthogonal_pairs(n) if s[a] == 1 and a not in self.used and b not in self.used and n == 9
        ]
        rng.shuffle(ones)
        for circle in ones[:10]:
            arrow = self._arrow(list(circle), 10 * s[circle[0]] + s[circle[1]])
            if arrow is not None:
                out.append(arrow)
                break
        for _ in range(100):
            if len(out) == self.scaled(8):
                break
            circle = rng.choice([i for i in range(n * n) if i not in self.used and s[i] >= 3])
            arrow = self._arrow([circle], s[circle])
            if arrow is not None:
                out.append(arrow)
        return out

    def _arrow(self, circle: list[int], total: int) -> Arrow | None:
        """An arrow leaving the last circle cell whose digits sum to ``total`` (2 cells at least), or None."""
        n, s = self.n, self.s
        self.used |= set(circle)
        length = self.rng.randint(2, 4 if len(circle) == 1 else 6)

        def step(path: list[int], j: int) -> bool:
            return sum(s[i] for i in path[1:]) + s[j] <= total and j not in circle

        path = self._search([circle[-1]], length + 1, step, lambda p: sum(s[i] for i in p[1:]) == total, [0])
        if path is None:
            self.used -= set(circle)
            return None
        self.used |= set(path)
        return Arrow(_cells(circle, n), _cells(path[1:], n))


def _repeats(path: list[int], s: list[int]) -> bool:
    return any(s[a] == s[b] for a, b in pairwise(path))


# --- uniqueness and thinning -------------------------------------------------------------------------


class Counter:
    """Decides uniqueness with one engine, among puzzles it settles quickly; remembers its counts and their time."""

    def __init__(self, name: str) -> None:
        self.engine = get_strategy(name)
        self.name = name
        self.calls = 0
        self.hard = 0
        self.seconds = 0.0

    def unique(self, puzzle: Grid) -> bool:
        """True when the engine counts exactly one solution within ``MAX_CONFLICTS`` (too hard counts as not unique).

        RuntimeError when the engine fails.
        """
        self.calls += 1
        result = solve(puzzle, self.engine, limit=2, keep=1, time_limit=THIN_TIME_LIMIT)
        self.seconds += result.elapsed
        if result.status is Status.TIMEOUT:
            self.hard += 1
            return False
        if result.status not in (Status.SOLVED, Status.UNSOLVABLE) or (result.count < 2 and not result.exact):
            raise RuntimeError(f"{self.name}: {result.status.value} ({result.error or 'no answer'})")
        if result.count == 1 and int(result.stats.get("conflicts", 0)) > MAX_CONFLICTS:
            self.hard += 1
            return False
        return result.count == 1 and result.exact


def thin(puzzle: Grid, rng: random.Random, counter: Counter, fixed: list[Constraint], clues: list[Constraint]) -> Grid:
    """Take away givens, then clues, in drawn orders, each while ``counter`` still says unique.

    ``fixed`` rules stay, and so does the last clue of each kind.
    """
    n = puzzle.n
    cells = list(puzzle.cells)
    regions = puzzle.regions if puzzle.jigsaw else None

    def grid(cells: list[int], clues: list[Constraint]) -> Grid:
        return Grid(cells, puzzle.shape, regions=regions, constraints=[*fixed, *clues])

    for i in rng.sample(range(n * n), n * n):
        digit, cells[i] = cells[i], 0
        if not counter.unique(grid(cells, clues)):
            cells[i] = digit
    for clue in rng.sample(clues, len(clues)):
        if sum(c.kind == clue.kind for c in clues) == 1:
            continue
        k = clues.index(clue)
        fewer = clues[:k] + clues[k + 1 :]
        if counter.unique(grid(cells, fewer)):
            clues = fewer
    return grid(cells, clues)


# --- one puzzle, the corpus --------------------------------------------------------------------------


@dataclass(frozen=True)
class Made:
    """A made puzzle with its solution and how long the making took."""

    spec: Spec
    puzzle: Grid
    solution: Grid
    seconds: float
    counts: int
    eased: int


def make(spec: Spec, counter: Counter, skip: Iterable[str] = ()) -> Made:
    """The puzzle of ``spec`` (see the module docstring), proved unique by ``counter``."""
    start, calls = time.perf_counter(), counter.calls
    rng = random.Random(f"{SEED}/{spec.name}")
    shape = Shape.parse(spec.box)
    n = shape.n
    rules = global_rules(spec, n)
    while True:
        regions = grow_regions(n, rng) if spec.jigsaw else shape.boxes
        cells = solved_grid(shape, regions, rules, rng)
        if cells:
            break
        if not spec.jigsaw:
            raise RuntimeError(f"{spec.name}: no grid keeps {', '.join(spec.rules)}")
    maker = Clues(cells, n, rng)
    negative = [k.removesuffix("-negative") for k in spec.clues if k.endswith("-negative")]
    fixed: list[Constraint] = list(rules)
    clues: list[Constraint] = []
    for kind in spec.clues:
        made = maker.make(kind)
        if not made:
            raise RuntimeError(f"{spec.name}: the grid has no {kind} clue")
        if kind in negative or kind.endswith("-negative"):
            fixed += made  # under a negative rule every dot is given, and stays
        else:
            clues += made
    full = Grid(cells, shape, regions=regions if spec.jigsaw else None, constraints=[*fixed, *clues])
    solution = Grid(cells, shape, validate=False)
    problem = solution_problem(full.with_cells([0] * n * n), solution)
    if problem:
        raise RuntimeError(f"{spec.name}: a clue is false of its own grid: {problem}")
    puzzle = thin(full, rng, counter, fixed, clues)
    if puzzle.kinds != spec.kinds:
        raise RuntimeError(f"{spec.name}: holds {sorted(puzzle.kinds)}, not {sorted(spec.kinds)}")
    puzzle, eased = ease(puzzle, solution, rng, skip)
    return Made(spec, puzzle, solution, time.perf_counter() - start, counter.calls - calls, eased)


def ease(puzzle: Grid, solution: Grid, rng: random.Random, skip: Iterable[str] = ()) -> tuple[Grid, int]:
    """The puzzle with givens of its solution put back, in a drawn order, until every other engine that takes
    its kinds (but those in ``skip``) proves it unique within ``EASE_SECONDS``; and how many were put back.
    """
    from sudokit import available_strategies

    cells = list(puzzle.cells)
    blanks = rng.sample([i for i, v in enumerate(cells) if not v], cells.count(0))
    added = 0
    for info in available_strategies():
        engine = get_strategy(info.name)
        if info.name == ENGINE or info.name in skip or puzzle.kinds - capabilities_of(engine).constraints:
            continue
        while blanks:
            grid = puzzle.with_cells(cells)
            # The better of two runs: the first may pay for starting the engine (python-constraint's worker).
            runs = [solve(grid, engine, limit=2, time_limit=3 * EASE_SECONDS) for _ in range(2)]
            for r in runs:
                if r.status not in (Status.SOLVED, Status.TIMEOUT) or (r.status is Status.SOLVED and r.count != 1):
                    raise RuntimeError(f"{info.name}: {r.status.value}, count {r.count} ({r.error or 'no error'})")
            if any(r.status is Status.SOLVED and r.elapsed <= EASE_SECONDS for r in runs):
                break
            i = blanks.pop()
            cells[i] = solution.cells[i]
            added += 1
    return puzzle.with_cells(cells), added


def cross_check(made: Made, skip: Iterable[str] = ()) -> list[str]:
    """Every installed engine that takes the puzzle's kinds counts it: one solution, exact, the right one.

    Returns the engines that took it, each with its time; RuntimeError on any other answer. ``skip``: engines not asked.
    """
    from sudokit import available_strategies

    took = []
    for info in available_strategies():
        if info.name in skip:
            continue
        engine = get_strategy(info.name)
        if made.puzzle.kinds - capabilities_of(engine).constraints:
            continue
        result = solve(made.puzzle, engine, limit=2, time_limit=TIME_LIMIT)
        if (result.status, result.count, result.exact) != (Status.SOLVED, 1, True) or result.solution != made.solution:
            raise RuntimeError(
                f"{made.spec.name}: {info.name} says {result.status.value}, count {result.count}"
                f"{'' if result.exact else ' (not exact)'}{f': {result.error}' if result.error else ''}"
            )
        took.append(f"{info.name} {result.elapsed:.2f} s")
    return took


def kinds_text(grid: Grid) -> str:
    """The puzzle's kinds joined by commas, sorted."""
    return ",".join(sorted(grid.kinds))


def render(made: list[Made]) -> tuple[str, str]:
    """The texts of corpus.txt and answers.txt."""
    head = (
        "# Variant puzzles with exactly one solution, made by tools/make_variant_corpus.py (see README.md here).\n"
        "# One puzzle a line in sudokit's JSON form, each after a '# name: kinds' line.\n"
    )
    corpus = [head]
    answers = [
        "# The answers of corpus.txt, in its order: name, kinds, count of solutions, the solution (line form).\n"
    ]
    for m in made:
        corpus.append(f"\n# {m.spec.name}: {kinds_text(m.puzzle)}\n{to_json(m.puzzle)}\n")
        answers.append(f"{m.spec.name} {kinds_text(m.puzzle)} 1 {m.solution.to_line()}\n")
    return "".join(corpus), "".join(answers)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the files instead of writing them")
    parser.add_argument("--only", help="make only these puzzles (names joined by commas) and write nothing")
    parser.add_argument("--skip", default="", help="engines left out of the final cross-check (names joined by commas)")
    args = parser.parse_args(argv)
    specs = SPECS
    if args.only:
        wanted = args.only.split(",")
        specs = tuple(s for s in SPECS if s.name in wanted)
        if len(specs) != len(wanted):
            parser.error(f"unknown names: {sorted(set(wanted) - {s.name for s in SPECS})}")
    missing = ALL_KINDS - frozenset().union(*(s.kinds for s in SPECS))
    if missing:
        parser.error(f"no puzzle holds {', '.join(sorted(missing))}")
    skip = args.skip.split(",")
    counter = Counter(ENGINE)
    if not set(ALL_KINDS) <= capabilities_of(counter.engine).constraints:
        lacking = sorted(ALL_KINDS - capabilities_of(counter.engine).constraints)
        print(f"{ENGINE} does not take {', '.join(lacking)} yet", file=sys.stderr)
        return 2
    made = []
    for spec in specs:
        m = make(spec, counter, skip)
        engines = cross_check(m, skip)
        made.append(m)
        print(
            f"{spec.name:<28} {m.puzzle.n}x{m.puzzle.n} {m.puzzle.count_givens():2} givens "
            f"({m.eased} put back) {len(m.puzzle.constraints):3} rules  {m.counts:4} counts in {m.seconds:6.2f} s  "
            f"unique for {', '.join(engines)}",
            flush=True,
        )
        if args.only:
            print(to_json(m.puzzle))
    if args.only:
        return 0
    corpus, answers = render(made)
    if args.check:
        old = CORPUS.read_text(encoding="utf-8").split("\n# ")
        new = corpus.split("\n# ")
        differ = [block.split(":")[0] for block in new if block not in old]
        if ANSWERS.read_text(encoding="utf-8") != answers:
            differ.append("answers.txt")
        print(f"differ from what is made now: {', '.join(differ)}" if differ else "the files are as made")
        return 1 if differ else 0
    OUT.mkdir(parents=True, exist_ok=True)
    CORPUS.write_text(corpus, encoding="utf-8")
    ANSWERS.write_text(answers, encoding="utf-8")
    covered = {k: sum(k in m.puzzle.kinds for m in made) for k in sorted(ALL_KINDS)}
    print(f"wrote {len(made)} puzzles; puzzles per kind: {covered}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
