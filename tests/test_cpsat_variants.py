"""The ``cp-sat`` engine on variant puzzles: every kind's count matches an independent brute force.

The brute force here shares nothing with the engine: it lists every 4x4 grid (the 576 Latin
squares, kept when their regions hold different digits: the 288 sudoku grids for the boxes) or
backtracks over a 6x6 board, and keeps the grids that every rule's own ``violation`` accepts.
Each kind is tried with several random rule sets (``random.Random(seed)``): rules read off a random
solution (the puzzle then has one) and rules drawn at random (often none).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from functools import cache
from itertools import pairwise, permutations
from pathlib import Path

import pytest

from sudokit import Grid, Shape, Status, get_strategy
from sudokit.engines.api import run
from sudokit.engines.verify import solution_problem
from sudokit.model.grid import from_json
from sudokit.model.variants import (
    ALL_KINDS,
    KINDS,
    XV,
    AntiKing,
    AntiKnight,
    Arrow,
    Clone,
    Constraint,
    Diagonal,
    ExtraRegion,
    Indexer,
    Killer,
    Kropki,
    KropkiNegative,
    LittleKiller,
    LockoutLine,
    MinMax,
    NonConsecutive,
    OddEven,
    PencilMarks,
    Quadruple,
    Sandwich,
    Skyscraper,
    Thermometer,
    Whisper,
    XSum,
    to_json,
)
from sudokit_strategies.cpsat import CpSatStrategy

Cell = tuple[int, int]
Values = tuple[int, ...]

# --- the independent brute force -----------------------------------------------------------------------


@cache
def latin_squares_4() -> list[Values]:
    """Every 4x4 Latin square (576), as 16 values row by row."""
    rows = list(permutations(range(1, 5)))
    out = []
    for a in rows:
        for b in rows:
            if any(x == y for x, y in zip(a, b, strict=True)):
                continue
            for c in rows:
                if any(x in (y, z) for x, y, z in zip(c, a, b, strict=True)):
                    continue
                d = tuple(10 - x - y - z for x, y, z in zip(a, b, c, strict=True))
                out.append(a + b + c + d)
    return out


def regions_hold_every_digit(values: Values, regions: tuple[tuple[int, ...], ...]) -> bool:
    return all(len({values[i] for i in region}) == len(region) for region in regions)


def brute_force_4(puzzle: Grid) -> set[Values]:
    """Every solution of a 4x4 puzzle: the grids that fit its givens, regions and each rule's ``violation``."""
    return {
        v
        for v in latin_squares_4()
        if all(g in (0, d) for g, d in zip(puzzle.cells, v, strict=True))
        and regions_hold_every_digit(v, puzzle.regions)
        and all(rule.violation(v, puzzle) is None for rule in puzzle.constraints)
    }


#: Pairs of cells (as row and column steps) and what two digits there must keep, for the global rules.
GLOBAL_PAIRS: dict[str, tuple[tuple[tuple[int, int], ...], Callable[[int, int], bool]]] = {
    "anti-knight": (((1, 2), (1, -2), (2, 1), (2, -1)), lambda a, b: a != b),
    "anti-king": (((1, 1), (1, -1)), lambda a, b: a != b),
    "non-consecutive": (((0, 1), (1, 0)), lambda a, b: abs(a - b) != 1),
}


def backtrack(
    n: int,
    regions: tuple[tuple[int, ...], ...],
    givens: Values,
    order: Callable[[], list[int]] | None = None,
    kind: str | None = None,
) -> Iterator[Values]:
    """Every grid of side ``n`` with all-different rows, columns and ``regions`` that extends ``givens``.

    With a ``kind`` of GLOBAL_PAIRS, or "diagonal" (both diagonals), it keeps that rule too (only to make
    reference solutions: the counts compare with the rules' own ``violation``).
    """
    size = n * n
    units_of: list[list[set[int]]] = [[] for _ in range(size)]
    rows = [set() for _ in range(n)]
    cols = [set() for _ in range(n)]
    regs = [set() for _ in range(n)]
    region_of = [0] * size
    for k, region in enumerate(regions):
        for i in region:
            region_of[i] = k
    for i in range(size):
        units_of[i] = [rows[i // n], cols[i % n], regs[region_of[i]]]
    values = list(givens)
    for i, v in enumerate(values):
        if v:
            for unit in units_of[i]:
                unit.add(v)
    blanks = [i for i, v in enumerate(values) if not v]
    linked: list[list[tuple[int, Callable[[int, int], bool]]]] = [[] for _ in range(size)]
    if kind in GLOBAL_PAIRS:
        steps, ok = GLOBAL_PAIRS[kind]
        for i in range(size):
            for dr, dc in steps:
                for sign in (1, -1):
                    r, c = i // n + sign * dr, i % n + sign * dc
                    if 0 <= r < n and 0 <= c < n:
                        linked[i].append((r * n + c, ok))
    elif kind == "diagonal":
        for line in ([k * n + k for k in range(n)], [k * n + n - 1 - k for k in range(n)]):
            for i in line:
                linked[i] += [(j, lambda a, b: a != b) for j in line if j != i]

    def go(k: int) -> Iterator[Values]:
        if k == len(blanks):
            yield tuple(values)
            return
        i = blanks[k]
        digits = order() if order else range(1, n + 1)
        for d in digits:
            if all(d not in unit for unit in units_of[i]) and all(
                not values[j] or ok(d, values[j]) for j, ok in linked[i]
            ):
                for unit in units_of[i]:
                    unit.add(d)
                values[i] = d
                yield from go(k + 1)
                values[i] = 0
                for unit in units_of[i]:
                    unit.discard(d)

    yield from go(0)


def brute_force(puzzle: Grid) -> set[Values]:
    """Every solution of ``puzzle`` (4x4: all 576 squares filtered; larger: backtracking, rules checked at the end)."""
    if puzzle.shape.n == 4:
        return brute_force_4(puzzle)
    return {
        v
        for v in backtrack(puzzle.shape.n, puzzle.regions, puzzle.cells)
        if all(rule.violation(v, puzzle) is None for rule in puzzle.constraints)
    }


# --- random rule sets ----------------------------------------------------------------------------------


def neighbours(cell: Cell, n: int, *, diagonal: bool = True, orthogonal: bool = True) -> list[Cell]:
    r, c = cell
    steps = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
    steps = [(dr, dc) for dr, dc in steps if (dr and dc and diagonal) or (not (dr and dc) and orthogonal)]
    return [(r + dr, c + dc) for dr, dc in steps if 0 <= r + dr < n and 0 <= c + dc < n]


def random_line(
    rng: random.Random, n: int, length: int, avoid: frozenset[Cell] | set[Cell] = frozenset()
) -> list[Cell]:
    """A random self-avoiding line of up to ``length`` cells, each touching the next."""
    free = [(r, c) for r in range(n) for c in range(n) if (r, c) not in avoid]
    line = [rng.choice(free)]
    while len(line) < length:
        nxt = [x for x in neighbours(line[-1], n) if x not in line and x not in avoid]
        if not nxt:
            break
        line.append(rng.choice(nxt))
    return line


def random_diagonal(rng: random.Random, n: int) -> list[Cell]:
    r, c = rng.randrange(n), rng.randrange(n)
    dr, dc = rng.choice((-1, 1)), rng.choice((-1, 1))
    cells = [(r, c)]
    while 0 <= cells[-1][0] + dr < n and 0 <= cells[-1][1] + dc < n and rng.random() < 0.8:
        cells.append((cells[-1][0] + dr, cells[-1][1] + dc))
    return cells


def random_pairs(rng: random.Random, n: int, k: int) -> list[tuple[Cell, Cell]]:
    pairs = [((r, c), (r, c + 1)) for r in range(n) for c in range(n - 1)]
    pairs += [((r, c), (r + 1, c)) for r in range(n - 1) for c in range(n)]
    return rng.sample(pairs, k)


def at(ref: Values, n: int, cells: list[Cell]) -> list[int]:
    return [ref[r * n + c] for r, c in cells]


def rules_for(kind: str, rng: random.Random, ref: Values, n: int, honesty: float = 1.0) -> list[Constraint]:
    """A random set of rules of ``kind`` on a board of side ``n``, each read off ``ref`` with odds ``honesty``.

    A rule read off ``ref`` is redrawn until ``ref`` keeps it (a global rule is what it is); the
    others are drawn at random, and the puzzle then often has no solution.
    """
    board = Grid(ref, Shape.for_side(n), validate=False)
    if kind == "entropic-line" and n % 3:
        return []  # no board of this side takes one (a jigsaw drawing a kind at random)
    if kind in ("anti-knight", "anti-king", "non-consecutive", "disjoint-groups"):
        return [KINDS[kind]()]
    if kind == "diagonal":
        return [Diagonal(d) for d in rng.choice((["main"], ["anti"], ["main", "anti"]))]
    if kind in ("kropki-negative-white", "kropki-negative-black"):  # the negative rule of one colour alone
        color = kind.rsplit("-", 1)[1]
        pairs = random_pairs(rng, n, 2 * n * (n - 1))
        if rng.random() < honesty:  # every dot of that colour the reference has
            rules = [Kropki(color, [a, b]) for a, b in pairs if Kropki(color, [a, b]).holds(*at(ref, n, [a, b]))]
        else:
            rules = [draw("kropki", rng, ref, n, False, pair) for pair in pairs[: rng.randint(0, 4)]]
        return distinct([*rules, KropkiNegative(color)])
    if kind in ("kropki-negative", "xv-negative"):
        dots = kind.removesuffix("-negative")
        pairs = random_pairs(rng, n, 2 * n * (n - 1))
        if rng.random() < honesty:  # every dot the reference has, so that it keeps the negative rule
            drawn = [draw(dots, rng, ref, n, True, pair) for pair in pairs]
            rules = [r for r in drawn if r.violation(ref, board) is None]
        else:
            rules = [draw(dots, rng, ref, n, False, pair) for pair in pairs[: rng.randint(0, 4)]]
        return distinct([*rules, KINDS[kind]()])
    out = []
    for _ in range(rng.randint(1, 3)):
        honest = rng.random() < honesty
        for _ in range(100):
            rule = draw(kind, rng, ref, n, honest)
            if not honest or rule.violation(ref, board) is None:
                break
        out.append(rule)
    return distinct(out)


def draw(
    kind: str, rng: random.Random, ref: Values, n: int, honest: bool, pair: tuple[Cell, Cell] | None = None
) -> Constraint:
    """One random rule of ``kind``; its numbers (totals, colours, parity) read off ``ref`` when ``honest``."""
    cells = random_line(rng, n, rng.randint(2, min(4, n)))
    if kind == "extra-region":
        return ExtraRegion(rng.sample([(r, c) for r in range(n) for c in range(n)], rng.randint(2, n)))
    if kind == "killer":
        cells = cells[: rng.randint(1, len(cells))]
        total = sum(at(ref, n, cells)) if honest else rng.randint(1, 3 * n)
        return Killer(cells, None if rng.random() < 0.2 else total)
    if kind == "little-killer":
        cells = random_diagonal(rng, n)
        return LittleKiller(cells, sum(at(ref, n, cells)) if honest else rng.randint(1, 2 * n))
    if kind == "sandwich":
        axis, index = rng.choice(("row", "column")), rng.randrange(n)
        digits = at(ref, n, list(Sandwich(axis, index, 0).line_cells(n)))
        lo, hi = sorted((digits.index(1), digits.index(n)))
        total = sum(digits[lo + 1 : hi]) if honest else rng.randint(0, n * (n + 1) // 2 - 1 - n)
        return Sandwich(axis, index, total)
    if kind == "x-sum":
        side, index = rng.choice(("left", "right", "top", "bottom")), rng.randrange(n)
        digits = at(ref, n, list(XSum(side, index, 1).line_cells(n)))
        total = sum(digits[: digits[0]]) if honest else rng.randint(1, n * (n + 1) // 2)
        return XSum(side, index, total)
    if kind == "kropki-values":  # dots of any difference or ratio (pseudo-kind: kropki)
        a, b = pair or random_pairs(rng, n, 1)[0]
        x, y = sorted(at(ref, n, [a, b]))
        if honest and y % x == 0 and rng.random() < 0.5:
            return Kropki("black", [a, b], y // x)
        if honest:
            return Kropki("white", [a, b], y - x)
        color = rng.choice(("white", "black"))
        return Kropki(color, [a, b], rng.randint(1, n - 1) if color == "white" else rng.randint(2, n))
    if kind == "xv-sums":  # XV clues of any sum (pseudo-kind: xv)
        a, b = pair or random_pairs(rng, n, 1)[0]
        return XV(cells=[a, b], value=sum(at(ref, n, [a, b])) if honest else rng.randint(3, 2 * n - 1))
    if kind == "skyscraper":
        side, index = rng.choice(("left", "right", "top", "bottom")), rng.randrange(n)
        digits = at(ref, n, list(Skyscraper(side, index, 1).line_cells(n)))
        count = sum(d > max(digits[:k], default=0) for k, d in enumerate(digits))
        return Skyscraper(side, index, count if honest else rng.randint(1, n))
    if kind == "indexer":
        axis = rng.choice(("row", "column", "box"))
        picked = rng.sample([(r, c) for r in range(n) for c in range(n)], rng.randint(1, 3))
        if honest:  # the cells whose digit in the reference points right
            board = Grid(ref, Shape.for_side(n), validate=False)
            picked = [c for c in picked if Indexer(axis, [c]).violation(ref, board) is None] or picked[:1]
        return Indexer(axis, picked)
    if kind == "arrow":
        circle = cells[: rng.choice((1, 1, 2))]
        return Arrow(circle, random_line(rng, n, rng.randint(1, 3), set(circle)))
    if kind in ("kropki", "xv"):
        a, b = pair or random_pairs(rng, n, 1)[0]
        x, y = at(ref, n, [a, b])
        if kind == "kropki":
            fits = [c for c, ok in (("white", abs(x - y) == 1), ("black", x == 2 * y or y == 2 * x)) if ok]
            return Kropki(rng.choice(fits if honest and fits else ["white", "black"]), [a, b])
        letter = {5: "V", 10: "X"}.get(x + y) if honest else None
        return XV(letter or rng.choice("XV"), [a, b])
    if kind == "odd-even":
        (cell,) = cells[:1]
        parity = ("even", "odd")[at(ref, n, [cell])[0] % 2] if honest else rng.choice(("odd", "even"))
        return OddEven(cell, parity)
    if kind == "nabner-line":
        return KINDS[kind](cells[: (n + 1) // 2])
    if kind == "lockout-line":
        ends = at(ref, n, [cells[0], cells[-1]])
        gap = abs(ends[0] - ends[1])
        return LockoutLine(cells, rng.randint(1, gap) if honest and gap else rng.randint(1, n // 2))
    if kind == "whisper":
        gaps = [abs(x - y) for x, y in pairwise(at(ref, n, cells))]
        return Whisper(cells, rng.randint(1, min(gaps)) if honest and min(gaps) else rng.randint(1, n - 1))
    if kind == "clone":  # a line and a copy of it moved within the board; redrawn until the reference keeps it
        dr, dc = rng.randint(1 - n, n - 1), rng.randint(1 - n, n - 1)
        moved = [(r + dr, c + dc) for r, c in cells]
        if (dr, dc) == (0, 0) or not all(0 <= r < n and 0 <= c < n for r, c in moved):
            (r, c) = cells[0]
            return Clone([(r, c)], [(r, (c + 1) % n)])  # a cell and its neighbour in the row: never equal
        return Clone(cells, moved)
    if kind == "min-max":  # redrawn until the reference keeps it, when honest
        return MinMax(cells[0], rng.choice(("minimum", "maximum")))
    if kind == "pencil-marks":
        (cell,) = cells[:1]
        others = rng.sample(range(1, n + 1), rng.randint(1, n - 1))
        return PencilMarks(cell, sorted({*others[:-1], at(ref, n, [cell])[0]}) if honest else others)
    if kind == "quadruple":
        r, c = rng.randrange(n - 1), rng.randrange(n - 1)
        square = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
        k = rng.randint(1, 4)
        return Quadruple(square, rng.sample(at(ref, n, square), k) if honest else rng.choices(range(1, n + 1), k=k))
    if kind in ("between-line", "entropic-line", "modular-line", "zipper-line", "double-arrow"):
        while len(cells) < 3:
            cells = random_line(rng, n, rng.randint(3, min(5, n)))
    return KINDS[kind](cells)  # thermometers, renban, palindrome, between: redrawn until the reference keeps them


def distinct(rules: list[Constraint]) -> list[Constraint]:
    """The rules without repeats: a rule given twice, or two dots (or letters) on one pair, is no puzzle."""
    seen: set[object] = set()
    out = []
    for rule in rules:
        key = (rule.kind, frozenset(rule.all_cells())) if rule.kind in ("kropki", "xv") else rule
        if key not in seen:
            seen.add(key)
            out.append(rule)
    return out


def random_regions(rng: random.Random, n: int) -> tuple[tuple[int, ...], ...]:
    """n connected regions of n cells each, grown at random (retried until they tile the board)."""
    while True:
        owner = [-1] * (n * n)
        seeds = rng.sample(range(n * n), n)
        for k, s in enumerate(seeds):
            owner[s] = k
        sizes = [1] * n
        stuck = False
        while min(sizes) < n and not stuck:
            stuck = True
            for k in rng.sample(range(n), n):
                if sizes[k] == n:
                    continue
                frontier = [
                    r * n + c
                    for i, o in enumerate(owner)
                    if o == k
                    for r, c in neighbours(divmod(i, n), n, diagonal=False)
                    if owner[r * n + c] == -1
                ]
                if frontier:
                    owner[rng.choice(frontier)] = k
                    sizes[k] += 1
                    stuck = False
        if min(sizes) == n:
            regions = tuple(tuple(i for i in range(n * n) if owner[i] == k) for k in range(n))
            boxes = Shape.for_side(n).boxes
            if sorted(regions) != sorted(boxes):
                return regions


def reference(
    rng: random.Random, n: int, regions: tuple[tuple[int, ...], ...], kind: str | None = None
) -> Values | None:
    """A random solution of the empty board with these regions (None when it has none), by the backtracker.

    On 6x6 and up it keeps a global ``kind`` too (anti-knight, anti-king, non-consecutive, diagonal) when
    one exists; the others are read off it later.
    """
    if n == 4:
        grids = [v for v in latin_squares_4() if regions_hold_every_digit(v, regions)]
        return rng.choice(grids) if grids else None

    def order() -> list[int]:
        return rng.sample(range(1, n + 1), n)

    empty = (0,) * (n * n)
    return next(backtrack(n, regions, empty, order, kind), None) or next(backtrack(n, regions, empty, order), None)


def random_puzzle(kind: str, seed: int, n: int) -> Grid:
    """A random puzzle of side ``n`` using ``kind`` (jigsaw: irregular regions and one other random kind).

    Two puzzles in three are honest: their rules are read off a random solution, which then solves the
    puzzle (on 4x4, a solution that keeps the global rules too is looked for).
    """
    rng = random.Random(f"{kind}/{seed}/{n}")
    shape = Shape.for_side(n)
    regions = shape.boxes
    if kind == "jigsaw":
        while True:
            regions = random_regions(rng, n)
            if reference(rng, n, regions) is not None:
                break
    honesty = rng.choice((1.0, 1.0, 0.5))
    other = kind if kind != "jigsaw" else rng.choice(sorted(KINDS)) if rng.random() < 0.5 else None
    for _ in range(30 if n == 4 and honesty == 1 else 1):
        ref = reference(rng, n, regions, other)
        assert ref is not None
        rules = rules_for(other, rng, ref, n, honesty) if other else []
        puzzle = Grid(ref, shape, regions=regions if kind == "jigsaw" else None, constraints=rules)
        if all(rule.violation(ref, puzzle) is None for rule in rules):
            break
    shown = rng.randint(0, 3) if n == 4 else rng.randint(n * n // 2, n * n // 2 + 4)
    givens = [0] * (n * n)
    for i in rng.sample(range(n * n), shown):
        givens[i] = ref[i]
    return puzzle.with_cells(givens)


# --- the tests ----------------------------------------------------------------------------------------

ENGINE = CpSatStrategy()
MIRACLE = "483726159726159483159483726837261594261594837594837261372615948615948372948372615"
EVERY_KIND = sorted(ALL_KINDS)


def assert_counts_match(puzzle: Grid) -> None:
    expected = brute_force(puzzle)
    result = run(ENGINE, puzzle, limit=len(expected) + 1)  # run() checks each solution against every rule
    assert result.error is None, (result.error, to_json(puzzle))
    assert (result.count, result.exact) == (len(expected), True), to_json(puzzle)
    assert {s.cells for s in result.solutions} == expected, to_json(puzzle)
    assert result.status is (Status.SOLVED if expected else Status.UNSOLVABLE)


def test_takes_every_kind() -> None:
    assert set(KINDS) | {"jigsaw"} == ALL_KINDS
    assert get_strategy("cp-sat").capabilities.constraints == ALL_KINDS  # type: ignore[attr-defined]


#: Kinds whose rule needs a side that splits into thirds: none on 4x4 (a 4x4 board refuses them, test_variants_model).
THIRDS = {"entropic-line"}


@pytest.mark.parametrize("kind", sorted(ALL_KINDS - THIRDS))
def test_counts_4x4_puzzles_of_each_kind_as_brute_force_does(kind: str) -> None:
    puzzles = [random_puzzle(kind, seed, 4) for seed in range(8)]
    assert any(p.kinds >= {kind} for p in puzzles)
    for puzzle in puzzles:
        assert kind in puzzle.kinds
        assert_counts_match(puzzle)


@pytest.mark.parametrize("kind", EVERY_KIND)
def test_counts_6x6_puzzles_of_each_kind_as_brute_force_does(kind: str) -> None:
    for seed in range(3):
        puzzle = random_puzzle(kind, seed, 6)
        assert kind in puzzle.kinds
        assert_counts_match(puzzle)


@pytest.mark.parametrize("color", ["white", "black"])
def test_counts_puzzles_with_the_negative_rule_of_one_colour_as_brute_force_does(color: str) -> None:
    for n, seeds in ((4, range(8)), (6, range(3))):
        for seed in seeds:
            puzzle = random_puzzle(f"kropki-negative-{color}", seed, n)
            assert KropkiNegative(color) in puzzle.constraints
            assert_counts_match(puzzle)


@pytest.mark.parametrize(("n", "seeds"), [(4, range(10)), (6, range(4))])
def test_counts_puzzles_with_dots_of_any_difference_or_ratio_as_brute_force_does(n: int, seeds: range) -> None:
    puzzles = [random_puzzle("kropki-values", seed, n) for seed in seeds]
    assert any(r.value is not None for p in puzzles for r in p.constraints)  # type: ignore[attr-defined]
    for puzzle in puzzles:
        assert_counts_match(puzzle)


@pytest.mark.parametrize(("n", "seeds"), [(4, range(10)), (6, range(4))])
def test_counts_puzzles_with_xv_clues_of_any_sum_as_brute_force_does(n: int, seeds: range) -> None:
    puzzles = [random_puzzle("xv-sums", seed, n) for seed in seeds]
    assert any(r.value not in (None, 5, 10) for p in puzzles for r in p.constraints)  # type: ignore[attr-defined]
    for puzzle in puzzles:
        assert_counts_match(puzzle)


def test_two_cell_circles_read_as_two_digit_numbers() -> None:
    # Arrows whose two-cell circle reads 10*a + b in a 6x6 solution; read the other way round, 10*b + a.
    rng = random.Random(2)
    tried = 0
    for _ in range(4):
        ref = reference(rng, 6, Shape.of(2, 3).boxes)
        assert ref is not None
        while True:
            circle = random_line(rng, 6, 2)
            cells = random_line(rng, 6, rng.randint(2, 4), set(circle))
            a, b = at(ref, 6, circle)
            if len(circle) == 2 and a != b and sum(at(ref, 6, cells)) == 10 * a + b:
                break
        givens = [v if rng.random() < 0.45 else 0 for v in ref]
        for arrow in (Arrow(circle, cells), Arrow(circle[::-1], cells)):
            puzzle = Grid(givens, "2x3", constraints=[arrow])
            assert_counts_match(puzzle)
            tried += 1
        assert Arrow(circle[::-1], cells).violation(ref, puzzle) is not None
    assert tried == 8


def test_4x4_diagonal_sudoku_has_48_solutions() -> None:
    # Known by hand: the X-sudoku constraint leaves 48 of the 288 4x4 grids.
    puzzle = Grid.empty("2x2").with_rules(constraints=[Diagonal("main"), Diagonal("anti")])
    assert len(brute_force_4(puzzle)) == 48
    result = run(ENGINE, puzzle, limit=1000)
    assert (result.count, result.exact) == (48, True)


def test_miracle_sudoku_is_unique() -> None:
    # Mitchell Lee's "Miracle Sudoku": anti-knight, anti-king and non-consecutive, two givens, one solution.
    givens = ["0"] * 81
    givens[4 * 9 + 2], givens[5 * 9 + 6] = "1", "2"
    puzzle = Grid.parse("".join(givens)).with_rules(constraints=[AntiKnight(), AntiKing(), NonConsecutive()])
    result = run(ENGINE, puzzle, limit=2)
    assert (result.status, result.count, result.exact) == (Status.SOLVED, 1, True)
    solution = result.solution
    assert solution is not None and solution_problem(puzzle, solution) is None
    # The published answer (Cracking the Cryptic, 2020): each band's rows shift by three, each band by one.
    assert solution == Grid.parse(MIRACLE)


def reshaped(rng: random.Random, ref: Values, n: int, swaps: int) -> tuple[tuple[int, ...], ...]:
    """The boxes made irregular around the grid ``ref``: cells of one digit traded between touching regions."""
    owner = list(Shape.for_side(n).box_of)
    traded = 0
    while traded < swaps:
        a = rng.randrange(n * n)
        # b: a cell of a's digit in another region that touches a's region
        touching = {owner[r * n + c] for r, c in neighbours(divmod(a, n), n, diagonal=False)} - {owner[a]}
        others = [b for b in range(n * n) if ref[b] == ref[a] and owner[b] in touching]
        if others:
            b = rng.choice(others)
            owner[a], owner[b] = owner[b], owner[a]
            traded += 1
    return tuple(tuple(i for i in range(n * n) if owner[i] == k) for k in range(n))


def test_9x9_jigsaw_with_irregular_regions() -> None:
    rng = random.Random(4)
    ref = next(backtrack(9, Shape.of(3, 3).boxes, (0,) * 81, lambda: rng.sample(range(1, 10), 9)))
    regions = reshaped(rng, ref, 9, 16)
    givens = [ref[i] if rng.random() < 0.38 else 0 for i in range(81)]
    puzzle = Grid(givens, "3x3", regions=regions)
    assert puzzle.jigsaw and puzzle.kinds == {"jigsaw"}
    expected = {v for _, v in zip(range(50), backtrack(9, regions, puzzle.cells), strict=False)}
    assert 1 < len(expected) < 50
    result = run(ENGINE, puzzle, limit=50)
    assert result.error is None and result.exact
    assert {s.cells for s in result.solutions} == expected and ref in expected
    # The regions are what counts: read with the boxes, the same givens have other solutions.
    classic = run(ENGINE, Grid(givens, "3x3"), limit=50)
    assert {s.cells for s in classic.solutions} != expected


def test_9x9_puzzle_with_many_kinds_read_off_one_solution() -> None:
    # Rules of many kinds that one grid keeps (the others dropped): the engine finds a grid keeping them all.
    rng = random.Random(4)
    ref = next(backtrack(9, Shape.of(3, 3).boxes, (0,) * 81, lambda: rng.sample(range(1, 10), 9)))
    drawn = distinct([rule for kind in sorted(KINDS) for rule in rules_for(kind, random.Random(kind), ref, 9)])
    plain = Grid(ref, "3x3", constraints=[r for r in drawn if r.kind not in ("kropki-negative", "xv-negative")])
    kept = [r for r in plain.constraints if r.violation(ref, plain) is None]
    puzzle = Grid([v if rng.random() < 0.3 else 0 for v in ref], "3x3", constraints=kept)
    assert len(puzzle.kinds) >= 12 and solution_problem(puzzle, Grid(ref)) is None
    result = run(ENGINE, puzzle, limit=2)
    assert result.status is Status.SOLVED and result.error is None
    assert all(solution_problem(puzzle, s) is None for s in result.solutions)


def test_counting_keep_and_stats_as_for_classic_puzzles() -> None:
    puzzle = Grid.empty("2x2").with_rules(constraints=[Diagonal("main")])
    assert len(brute_force_4(puzzle)) > 10
    result = run(ENGINE, puzzle, limit=7, keep=3)
    assert (result.status, result.count, result.exact, len(result.solutions)) == (Status.SOLVED, 7, False, 3)
    assert len(set(result.solutions)) == 3 and all(len(s.cells) == 16 for s in result.solutions)
    assert set(result.stats) == {"branches", "conflicts", "booleans", "wall_time", "workers"}
    assert result.stats["workers"] == 1
    several = CpSatStrategy(workers=2).solve(puzzle, limit=5)
    assert (several.count, several.stats["workers"]) == (5, 1)  # counting runs on one worker
    one = CpSatStrategy(workers=2).solve(puzzle)
    assert (one.status, one.stats["workers"]) == (Status.SOLVED, 2)


def test_counting_stops_at_the_time_limit() -> None:
    # A sandwich row on an empty 9x9 board has billions of solutions: the count runs out of time.
    puzzle = Grid.empty("3x3").with_rules(constraints=[Sandwich("row", 0, 10), Diagonal("main")])
    result = run(ENGINE, puzzle, limit=10**9, time_limit=1.0)  # 1 s: on a busy machine the first must still come
    assert result.error is None
    assert result.status is Status.TIMEOUT and not result.exact and result.count == len(result.solutions) > 0


@pytest.mark.parametrize(
    ("rules", "why"),
    [
        ([OddEven("r1c1", "even")], "a parity clue against a given 1"),
        ([OddEven("r1c2", "even"), OddEven("r1c2", "odd")], "two parity clues on one cell"),
        ([Whisper(["r2c1", "r2c2"], 4)], "a whisper difference above n - 1"),
        ([Thermometer(["r1c1", "r2c2"]), Thermometer(["r2c2", "r1c1"])], "two thermometers the wrong way"),
        ([Killer(["r2c1", "r2c2"], 2)], "a cage total no two different digits make"),
        ([Sandwich("row", 1, 1)], "a sandwich total no digits 2..3 make"),
    ],
)
def test_contradictions_are_unsolvable(rules: list[Constraint], why: str) -> None:
    puzzle = Grid([1] + [0] * 15, "2x2", constraints=rules)
    assert brute_force_4(puzzle) == set(), why
    result = run(ENGINE, puzzle, limit=2)
    assert (result.status, result.count, result.exact, result.error) == (Status.UNSOLVABLE, 0, True, None), why


def test_solves_a_json_puzzle_from_the_command_line() -> None:
    # Worked by hand: the cage is 3+4, the thermometer climbs 1-2-3 from r4c1, the V is 1+4 or 2+3.
    puzzle = Grid.empty("2x2").with_rules(
        constraints=[
            Killer(["r1c1", "r1c2"], 7),
            Thermometer(["r4c1", "r3c1", "r3c2"]),
            Sandwich("row", 1, 2),
            XV("V", ["r3c3", "r4c3"]),
        ]
    )
    text = to_json(puzzle)
    assert from_json(text) == puzzle and len(brute_force_4(puzzle)) == 1
    script = Path(sys.executable).parent / "sudoku"
    done = subprocess.run(
        [str(script), "solve", "-s", "cp-sat", "-f", "json", text], capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stderr) == (0, "")
    record = json.loads(done.stdout.splitlines()[0])
    assert record["status"] == "solved" and record["strategy"] == "cp-sat"
    solution = Grid.parse(record["solution"], "2x2")
    assert solution.cells in brute_force_4(puzzle)
    assert solution_problem(puzzle, solution) is None


def test_killer_units_sum_so_a_jigsaw_killer_needs_few_conflicts() -> None:
    """Each unit's redundant sum lets "Solver needs SET" (a jigsaw killer) be proved unique in few conflicts."""
    from sudokit.io.links import parse_link

    from .test_links import REAL

    [(fields, link)] = [(fields, link) for title, fields, link in REAL if title == '"Solver needs SET" by TopAutism']
    result = ENGINE.solve(parse_link(link), limit=2, time_limit=120)
    assert (result.status, result.count, result.exact) == (Status.SOLVED, 1, True)
    assert "".join(map(str, result.solutions[0].cells)) == fields["solution"]
    assert result.stats["conflicts"] < 15_000  # 3090 with the unit sums; 44058 without them (ortools 9.15, 1 worker)
