"""The ``python-constraint`` engine on variant puzzles: its counts against brute force, for every kind.

Every 4x4 grid is enumerated here (the 576 Latin squares of side 4, of which 288 keep the 2x2 boxes),
and the solutions of a puzzle are those that keep its givens, its regions and every rule's own
``violation`` check: an independent count the engine's exact one must equal, solution for solution.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from itertools import permutations
from pathlib import Path

import pytest

from sudokit import Grid, Shape, Status, get_strategy, solve
from sudokit.model.grid import from_json
from sudokit.model.variants import (
    ALL_KINDS,
    KINDS,
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
    orthogonal_pairs,
    to_json,
)

ENGINE = "python-constraint"
SUDOKU = Path(sys.executable).with_name("sudoku")
Cell = tuple[int, int]
Rules = Callable[[random.Random, tuple[int, ...]], list[Constraint]]


# --- brute force ---------------------------------------------------------------------------------


@cache
def latin_squares(n: int) -> tuple[tuple[int, ...], ...]:
    """Every Latin square of side ``n`` (rows are permutations, columns hold different digits)."""
    rows = list(permutations(range(1, n + 1)))
    squares: list[tuple[int, ...]] = []

    def extend(done: list[tuple[int, ...]]) -> None:
        if len(done) == n:
            squares.append(sum(done, ()))
            return
        for row in rows:
            if all(row[c] != above[c] for above in done for c in range(n)):
                extend([*done, row])

    extend([])
    return tuple(squares)


def brute_solutions(puzzle: Grid) -> set[tuple[int, ...]]:
    """The 4x4 grids that keep the puzzle's givens, regions and rules."""
    return {
        cells
        for cells in latin_squares(puzzle.n)
        if all(g in (0, v) for g, v in zip(puzzle.cells, cells, strict=True))
        and all(len({cells[i] for i in region}) == puzzle.n for region in puzzle.regions)
        and all(rule.violation(cells, puzzle) is None for rule in puzzle.constraints)
    }


def completions(puzzle: Grid) -> Iterator[tuple[int, ...]]:
    """Every grid that keeps the puzzle's givens, rows, columns and regions, by plain depth-first search."""
    n, cells = puzzle.n, list(puzzle.cells)
    peers = [{j for unit in puzzle.units if i in unit for j in unit} - {i} for i in range(n * n)]

    def fill() -> Iterator[tuple[int, ...]]:
        if 0 not in cells:
            yield tuple(cells)
            return
        i = cells.index(0)
        for d in range(1, n + 1):
            if all(cells[j] != d for j in peers[i]):
                cells[i] = d
                yield from fill()
                cells[i] = 0

    return fill()


def searched_solutions(puzzle: Grid) -> set[tuple[int, ...]]:
    """The solutions of a puzzle on any board: the completions that keep every rule."""
    return {s for s in completions(puzzle) if all(rule.violation(s, puzzle) is None for rule in puzzle.constraints)}


def engine_solutions(puzzle: Grid) -> set[tuple[int, ...]]:
    result = solve(puzzle, ENGINE, limit=1000, time_limit=60)
    assert result.status in (Status.SOLVED, Status.UNSOLVABLE), result
    assert result.exact and result.count == len(result.solutions) < 1000, result
    found = {grid.cells for grid in result.solutions}
    assert len(found) == result.count
    return found


# --- random rules on a 4x4 board --------------------------------------------------------------------

N = 4
STEPS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
ORTHOGONAL = [(0, 1), (1, 0), (0, -1), (-1, 0)]


def on_board(r: int, c: int) -> bool:
    return 0 <= r < N and 0 <= c < N


def line(rng: random.Random, longest: int = N, steps: Sequence[Cell] = STEPS) -> list[Cell]:
    """A random walk of touching cells, none twice, 2..longest long (shorter when it gets stuck)."""
    cells = [(rng.randrange(N), rng.randrange(N))]
    for _ in range(rng.randint(1, longest - 1)):
        r, c = cells[-1]
        nexts = [(r + dr, c + dc) for dr, dc in steps if on_board(r + dr, c + dc) and (r + dr, c + dc) not in cells]
        if not nexts:
            break
        cells.append(rng.choice(nexts))
    return cells if len(cells) > 1 else line(rng, longest, steps)


def some_cells(rng: random.Random, low: int, high: int) -> list[Cell]:
    return rng.sample([(r, c) for r in range(N) for c in range(N)], rng.randint(low, high))


def digits_of(solution: tuple[int, ...], cells: Sequence[Cell]) -> list[int]:
    return [solution[r * N + c] for r, c in cells]


def adjacent_pair(rng: random.Random) -> list[Cell]:
    return line(rng, 2, ORTHOGONAL)[:2]


def between_line(rng: random.Random, solution: tuple[int, ...]) -> BetweenLine:
    """A line of three or more cells, mostly one whose middle digits the grid's ends bracket."""
    for _ in range(50):
        cells = line(rng)
        if len(cells) < 3:
            continue
        digits = digits_of(solution, cells)
        low, high = sorted((digits[0], digits[-1]))
        if rng.random() < 0.3 or all(low < d < high for d in digits[1:-1]):
            break
    return BetweenLine(cells if len(cells) >= 3 else [(0, 0), (0, 1), (0, 2)])


def region_sum_line(rng: random.Random, solution: tuple[int, ...]) -> RegionSumLine:
    """A line crossing a box border, mostly one whose segments the grid makes add up alike."""
    board = Grid(solution, Shape.of(2, 2), validate=False)
    for _ in range(50):
        rule = RegionSumLine(line(rng))
        if len(rule.segments(board)) > 1 and (rng.random() < 0.3 or rule.violation(solution, board) is None):
            return rule
    return RegionSumLine([(0, 1), (0, 2)])


def modular_line(rng: random.Random, solution: tuple[int, ...]) -> ModularLine:
    """A line of three or more cells, mostly one whose every three cells in a row hold three residues mod 3."""
    for _ in range(50):
        cells = line(rng)
        residues = [d % 3 for d in digits_of(solution, cells)]
        kept = all(len(set(residues[k : k + 3])) == 3 for k in range(len(cells) - 2))
        if len(cells) >= 3 and (rng.random() < 0.3 or kept):
            return ModularLine(cells)
    return ModularLine([(0, 0), (0, 1), (0, 2)])


def zipper_line(rng: random.Random, solution: tuple[int, ...]) -> ZipperLine:
    """A line of three or more cells, mostly one whose pairs about the centre the grid makes add up alike."""
    board = Grid(solution, Shape.of(2, 2), validate=False)
    for _ in range(50):
        cells = line(rng)
        if len(cells) >= 3 and (rng.random() < 0.3 or ZipperLine(cells).violation(solution, board) is None):
            return ZipperLine(cells)
    return ZipperLine([(0, 0), (0, 1), (0, 2)])


def lockout_line(rng: random.Random, solution: tuple[int, ...]) -> LockoutLine:
    """A line whose ends differ by 2 (or 1) or more, mostly one the grid keeps."""
    board = Grid(solution, Shape.of(2, 2), validate=False)
    difference = rng.choice((1, 2, 2))
    for _ in range(50):
        rule = LockoutLine(line(rng), difference=difference)
        if rng.random() < 0.3 or rule.violation(solution, board) is None:
            return rule
    return LockoutLine([(0, 0), (0, 1)], difference=difference)


def double_arrow(rng: random.Random, solution: tuple[int, ...]) -> DoubleArrow:
    """A line of three or more cells, mostly one whose ends the grid makes add up to the cells between."""
    for _ in range(50):
        cells = line(rng)
        digits = digits_of(solution, cells)
        if len(cells) >= 3 and (rng.random() < 0.3 or digits[0] + digits[-1] == sum(digits[1:-1])):
            return DoubleArrow(cells)
    return DoubleArrow([(0, 0), (0, 1), (0, 2)])


def little_killer(rng: random.Random, solution: tuple[int, ...]) -> LittleKiller:
    (r, c), (dr, dc) = (rng.randrange(N), rng.randrange(N)), rng.choice([(1, 1), (1, -1), (-1, 1), (-1, -1)])
    cells = [(r, c)]
    while on_board(r + dr, c + dc) and len(cells) < rng.randint(1, N):
        r, c = r + dr, c + dc
        cells.append((r, c))
    return LittleKiller(cells, sum(digits_of(solution, cells)) + rng.choice((0, 0, 1)))


def arrow(rng: random.Random, solution: tuple[int, ...]) -> Arrow:
    cells = some_cells(rng, 2, 4)
    circle = 2 if len(cells) > 3 and rng.random() < 0.5 else 1
    return Arrow(cells[:circle], cells[circle:])


def sandwich(rng: random.Random, solution: tuple[int, ...]) -> Sandwich:
    axis, index = rng.choice(("row", "column")), rng.randrange(N)
    cells = [(index, k) if axis == "row" else (k, index) for k in range(N)]
    digits = digits_of(solution, cells)
    a, b = sorted((digits.index(1), digits.index(N)))
    return Sandwich(axis, index, rng.choice((sum(digits[a + 1 : b]), rng.randint(0, 5))))


def x_sum(rng: random.Random, solution: tuple[int, ...]) -> XSum:
    side, index = rng.choice(("left", "right", "top", "bottom")), rng.randrange(N)
    digits = digits_of(solution, list(XSum(side, index, 1).line_cells(N)))
    return XSum(side, index, rng.choice((sum(digits[: digits[0]]), rng.randint(1, 10))))


def skyscraper(rng: random.Random, solution: tuple[int, ...]) -> Skyscraper:
    side, index = rng.choice(("left", "right", "top", "bottom")), rng.randrange(N)
    digits = digits_of(solution, list(Skyscraper(side, index, 1).line_cells(N)))
    count = sum(d > max(digits[:k], default=0) for k, d in enumerate(digits))
    return Skyscraper(side, index, rng.choice((count, rng.randint(1, N))))


def indexer(rng: random.Random, solution: tuple[int, ...]) -> Indexer:
    axis = rng.choice(("row", "column", "box"))
    cells = rng.sample([(r, c) for r in range(N) for c in range(N)], rng.randint(1, 3))
    board = Grid(solution, Shape.of(2, 2), validate=False)
    kept = [c for c in cells if Indexer(axis, [c]).violation(solution, board) is None]
    return Indexer(axis, rng.choice((kept or cells, cells)))


def killer(rng: random.Random, solution: tuple[int, ...]) -> Killer:
    cells = line(rng, N, ORTHOGONAL)
    total = sum(digits_of(solution, cells)) + rng.choice((0, 0, -1, 1))
    return Killer(cells, total=max(total, 1) if rng.random() < 0.8 else None)


def killer_board(rng: random.Random, solution: tuple[int, ...]) -> list[Constraint]:
    """Cages that cover the board, most with their true totals (the unit sums tell the rest)."""
    free = {(r, c) for r in range(N) for c in range(N)}
    cages = []
    while free:
        cells = [min(free)]
        free.discard(cells[0])
        for _ in range(rng.randint(0, 3)):
            nexts = sorted({(r + dr, c + dc) for r, c in cells for dr, dc in ORTHOGONAL} & free)
            if not nexts:
                break
            cells.append(rng.choice(nexts))
            free.discard(cells[-1])
        total = sum(digits_of(solution, cells)) + (rng.random() < 0.1)
        cages.append(Killer(cells, total=total if rng.random() < 0.8 else None))
    return cages


def killers(rng: random.Random, solution: tuple[int, ...]) -> list[Constraint]:
    if rng.random() < 0.5:
        return killer_board(rng, solution)
    return list({k.cells: k for k in (killer(rng, solution) for _ in range(rng.randint(1, 3)))}.values())


def kropki(rng: random.Random, solution: tuple[int, ...]) -> Kropki:
    pair = adjacent_pair(rng)
    a, b = digits_of(solution, pair)
    color = "black" if a == 2 * b or b == 2 * a else "white" if abs(a - b) == 1 else rng.choice(("white", "black"))
    return Kropki(color, pair)


def xv(rng: random.Random, solution: tuple[int, ...]) -> XV:
    pair = adjacent_pair(rng)
    return XV("V" if sum(digits_of(solution, pair)) == 5 or rng.random() < 0.8 else "X", pair)


def dots(make: Callable[[random.Random, tuple[int, ...]], Constraint], rng: random.Random, solution: tuple[int, ...]):  # type: ignore[no-untyped-def]
    """A few distinct clues of one kind (one per pair of cells)."""
    rules: dict[frozenset[Cell], Constraint] = {}
    for _ in range(rng.randint(0, 4)):
        rule = make(rng, solution)
        rules[frozenset(rule.cells)] = rule  # type: ignore[attr-defined]
    return list(rules.values())


def quadruple(rng: random.Random, solution: tuple[int, ...]) -> Quadruple:
    """A 2x2 square's quadruple: digits read off ``solution`` (some listed twice) or, one time in three, at random."""
    r, c = rng.randrange(N - 1), rng.randrange(N - 1)
    square = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
    k = rng.randint(1, 4)
    if rng.random() < 1 / 3:
        return Quadruple(square, rng.choices(range(1, N + 1), k=k))
    return Quadruple(square, rng.sample(digits_of(solution, square), k))


def clone(rng: random.Random, solution: tuple[int, ...]) -> list[Clone]:
    """A short line and its copy moved within the board (none when the move leaves it), true of ``solution`` or not."""
    cells = line(rng, 3)
    for _ in range(20):
        dr, dc = rng.randint(1 - N, N - 1), rng.randint(1 - N, N - 1)
        moved = [(r + dr, c + dc) for r, c in cells]
        fits = (dr, dc) != (0, 0) and all(on_board(r, c) for r, c in moved)
        if fits and (rng.random() < 0.3 or digits_of(solution, cells) == digits_of(solution, moved)):
            return [Clone(cells, moved)]
    return []


#: For each kind, random rules of that kind on a 4x4 board (``solution`` is a grid many of them keep).
RULES: dict[str, Rules] = {
    "extra-region": lambda rng, s: [ExtraRegion(some_cells(rng, 2, 4))],
    "diagonal": lambda rng, s: [Diagonal(d) for d in rng.choice((["main"], ["anti"], ["main", "anti"]))],
    "anti-knight": lambda rng, s: [AntiKnight()],
    "anti-king": lambda rng, s: [AntiKing()],
    "non-consecutive": lambda rng, s: [NonConsecutive()],
    "killer": killers,
    "little-killer": lambda rng, s: list({k.cells: k for k in (little_killer(rng, s) for _ in range(2))}.values()),
    "sandwich": lambda rng, s: list({(w.axis, w.index): w for w in (sandwich(rng, s) for _ in range(3))}.values()),
    "thermometer": lambda rng, s: [Thermometer(line(rng)) for _ in range(rng.randint(1, 2))],
    "slow-thermometer": lambda rng, s: [SlowThermometer(line(rng)) for _ in range(rng.randint(1, 2))],
    "arrow": lambda rng, s: [arrow(rng, s) for _ in range(rng.randint(1, 2))],
    "kropki": lambda rng, s: dots(kropki, rng, s) or [kropki(rng, s)],
    "kropki-negative": lambda rng, s: [KropkiNegative(), *dots(kropki, rng, s)],
    "xv": lambda rng, s: dots(xv, rng, s) or [xv(rng, s)],
    "xv-negative": lambda rng, s: [XVNegative(), *dots(xv, rng, s)],
    "odd-even": lambda rng, s: [OddEven(c, rng.choice(("odd", "even"))) for c in some_cells(rng, 1, 4)],
    "renban": lambda rng, s: [Renban(line(rng, 3))],
    "whisper": lambda rng, s: [Whisper(line(rng), difference=rng.randint(1, 3))],
    "palindrome": lambda rng, s: [Palindrome(line(rng)) for _ in range(rng.randint(1, 2))],
    "quadruple": lambda rng, s: list({q.cells: q for q in (quadruple(rng, s) for _ in range(2))}.values()),
    "disjoint-groups": lambda rng, s: [DisjointGroups()],
    "clone": lambda rng, s: clone(rng, s) or clone(rng, s) or [Clone([(0, 0)], [(1, 2)])],
    "min-max": lambda rng, s: [MinMax(c, rng.choice(("minimum", "maximum"))) for c in some_cells(rng, 1, 3)],
    "pencil-marks": lambda rng, s: [
        PencilMarks(c, {*rng.sample(range(1, N + 1), rng.randint(1, 3)), *digits_of(s, [c])[: rng.randint(0, 1)]})
        for c in some_cells(rng, 1, 4)
    ],
    "between-line": lambda rng, s: [between_line(rng, s) for _ in range(rng.randint(1, 2))],
    "region-sum-line": lambda rng, s: [region_sum_line(rng, s) for _ in range(rng.randint(1, 2))],
    "modular-line": lambda rng, s: [modular_line(rng, s) for _ in range(rng.randint(1, 2))],
    "zipper-line": lambda rng, s: [zipper_line(rng, s) for _ in range(rng.randint(1, 2))],
    "lockout-line": lambda rng, s: [lockout_line(rng, s) for _ in range(rng.randint(1, 2))],
    "nabner-line": lambda rng, s: [NabnerLine(line(rng, 2)) for _ in range(rng.randint(1, 3))],
    "double-arrow": lambda rng, s: [double_arrow(rng, s) for _ in range(rng.randint(1, 2))],
    "entropic-line": lambda rng, s: [],  # no 4x4 board takes one: test_entropic_lines_on_6x6_match_a_search
    "x-sum": lambda rng, s: list({(w.side, w.index): w for w in (x_sum(rng, s) for _ in range(3))}.values()),
    "indexer": lambda rng, s: [indexer(rng, s)],
    "skyscraper": lambda rng, s: list({(w.side, w.index): w for w in (skyscraper(rng, s) for _ in range(3))}.values()),
}
#: Kinds whose rule needs a side that splits into thirds: tested on 6x6 below.
THIRDS = {"entropic-line"}
#: Irregular 4x4 regions (each row of the text is the symbol of a cell's region).
JIGSAW_4 = ["1122112233443344", "1112312233423444", "1222113241334443"]


def random_puzzle(rng: random.Random, kinds: Sequence[str], jigsaw: bool = False) -> Grid:
    """A 4x4 puzzle with random rules of ``kinds`` and a few givens from a grid that keeps them (if one does)."""
    regions = rng.choice(JIGSAW_4[1:]) if jigsaw else None
    plain = Grid((0,) * 16, Shape.of(2, 2), regions=regions)
    solution = rng.choice(sorted(brute_solutions(plain)))
    rules = list(dict.fromkeys(rule for kind in kinds for rule in RULES[kind](rng, solution)))
    # Two kinds may draw a dot (or an X and a V) on one pair, xv and xv-negative say: the first stays.
    marked = {
        (rule.kind, frozenset(rule.all_cells())): rule for rule in reversed(rules) if rule.kind in ("kropki", "xv")
    }
    rules = [r for r in rules if r.kind not in ("kropki", "xv") or marked[r.kind, frozenset(r.all_cells())] is r]
    keeping = sorted(brute_solutions(plain.with_rules(regions=regions, constraints=rules)))
    solution = rng.choice(keeping) if keeping else solution
    shown = set(rng.sample(range(16), rng.choice((0, 1, 2, 3, 5))))
    givens = [v if i in shown else 0 for i, v in enumerate(solution)]
    return Grid(givens, Shape.of(2, 2), regions=regions, constraints=rules)


# --- the counts ----------------------------------------------------------------------------------


def test_the_engine_declares_every_kind() -> None:
    caps = get_strategy(ENGINE).capabilities
    assert caps.constraints == ALL_KINDS and caps.max_side == 36


def test_brute_force_sees_every_4x4_grid() -> None:
    assert len(latin_squares(4)) == 576
    assert len(brute_solutions(Grid.empty(Shape.of(2, 2)))) == 288


#: Kinds no 4x4 grid keeps (with the 2x2 boxes): they are counted on 6x6 boards too, below.
ZERO_ON_4 = ("anti-king", "non-consecutive", "kropki-negative")


@pytest.mark.parametrize("kind", sorted(set(RULES) - THIRDS))
def test_counts_of_each_kind_match_brute_force(kind: str) -> None:
    rng = random.Random(f"csp {kind}")
    outcomes = set()
    for _ in range(10):
        puzzle = random_puzzle(rng, [kind])
        expected = brute_solutions(puzzle)
        assert engine_solutions(puzzle) == expected, to_json(puzzle)
        outcomes.add(min(len(expected), 2))
    assert outcomes != {0} or kind in ZERO_ON_4, outcomes  # the draws test counts, not only "none"


def test_every_kind_is_drawn() -> None:
    assert set(RULES) == set(KINDS) == ALL_KINDS - {"jigsaw"}


@pytest.mark.parametrize("seed", range(6))
def test_counts_of_mixed_rules_and_jigsaw_regions_match_brute_force(seed: int) -> None:
    rng = random.Random(f"csp mix {seed}")
    for _ in range(5):
        puzzle = random_puzzle(rng, rng.sample(sorted(RULES), 3), jigsaw=rng.random() < 0.5)
        assert engine_solutions(puzzle) == brute_solutions(puzzle), to_json(puzzle)


def test_a_4x4_jigsaw_counts_its_grids() -> None:
    for regions in JIGSAW_4[1:]:
        puzzle = Grid.empty(Shape.of(2, 2)).with_rules(regions=regions)
        assert puzzle.jigsaw
        assert engine_solutions(puzzle) == brute_solutions(puzzle)


# A 6x6 jigsaw: its regions, one symbol a cell, and givens leaving a few dozen solutions.
JIGSAW_6 = "111222113422331244533446355664555666"


def test_a_6x6_jigsaw_matches_a_plain_search() -> None:
    empty = Grid((0,) * 36, Shape.of(2, 3), regions=JIGSAW_6)
    solved = solve(empty, ENGINE)
    assert solved.status is Status.SOLVED
    rng = random.Random("jigsaw 6")
    for shown in (20, 14, 10):
        keep = set(rng.sample(range(36), shown))
        puzzle = empty.with_cells([v if i in keep else 0 for i, v in enumerate(solved.solutions[0].cells)])
        result = solve(puzzle, ENGINE, limit=10_000, keep=1)
        assert result.exact and result.count == sum(1 for _ in completions(puzzle)) >= 1


#: The rules that need a bigger board than 4x4 to be kept, with other global ones, each on 6x6 boards.
GLOBAL_6 = {
    "anti-king": [AntiKing()],
    "non-consecutive": [NonConsecutive()],
    "kropki-negative": [KropkiNegative()],  # with the dots of a grid, below
    "anti-knight": [AntiKnight()],
    "xv-negative": [XVNegative(), XV("V", [(1, 1), (1, 2)])],
    "diagonal": [Diagonal("main"), Diagonal("anti")],
}


def every_dot(grid: Grid) -> list[Constraint]:
    """The kropki dots of every adjacent pair of ``grid`` with consecutive digits (white) or one double (black)."""
    n, dots = grid.n, []
    for a, b in orthogonal_pairs(n):
        x, y = grid.cells[a], grid.cells[b]
        if abs(x - y) == 1 or x == 2 * y or y == 2 * x:
            dots.append(Kropki("white" if abs(x - y) == 1 else "black", [divmod(a, n), divmod(b, n)]))
    return dots


def test_entropic_lines_on_6x6_match_a_search() -> None:
    seed = solve(Grid.empty(Shape.of(2, 3)), ENGINE).solutions[0].cells
    rng = random.Random("6x6 entropic")
    lines: list[list[Cell]] = []
    while len(lines) < 3:  # lines of a random walk whose every three cells in a row the grid keeps
        r, c = rng.randrange(6), rng.randrange(6)
        walk = [(r, c)]
        for _ in range(rng.randint(2, 5)):
            r, c = walk[-1]
            nexts = [(r + dr, c + dc) for dr, dc in STEPS if 0 <= r + dr < 6 and 0 <= c + dc < 6]
            walk.append(rng.choice([x for x in nexts if x not in walk] or [walk[-1]]))
        thirds = [(seed[r * 6 + c] - 1) // 2 for r, c in walk]
        if len(set(walk)) == len(walk) and all(len(set(thirds[k : k + 3])) == 3 for k in range(len(walk) - 2)):
            lines.append(walk)
    for shown in (14, 10, 8):
        keep = set(rng.sample(range(36), shown))
        rules = [EntropicLine(line) for line in lines]
        puzzle = Grid([v if i in keep else 0 for i, v in enumerate(seed)], Shape.of(2, 3), constraints=rules)
        expected = searched_solutions(puzzle)
        assert engine_solutions(puzzle) == expected, to_json(puzzle)
        assert seed in expected  # the grid the lines and givens come from


@pytest.mark.parametrize("kind", sorted(GLOBAL_6))
def test_counts_of_global_rules_on_6x6_match_a_search(kind: str) -> None:
    rules = GLOBAL_6[kind]
    if kind == "kropki-negative":
        rules = rules + every_dot(solve(Grid.empty(Shape.of(2, 3)), ENGINE).solutions[0])
    empty = Grid.empty(Shape.of(2, 3)).with_rules(constraints=rules)
    seed = solve(empty, ENGINE)
    assert seed.status is Status.SOLVED  # the grid the givens come from (each count is checked below)
    rng = random.Random(f"6x6 {kind}")
    for shown in (14, 10, 8):
        keep = set(rng.sample(range(36), shown))
        puzzle = empty.with_cells([v if i in keep else 0 for i, v in enumerate(seed.solutions[0].cells)])
        expected = searched_solutions(puzzle)
        assert engine_solutions(puzzle) == expected, to_json(puzzle)
        assert expected


def test_givens_that_break_a_rule_are_unsolvable_without_search() -> None:
    # Every cell given: nothing is left to search, the rules alone decide.
    solution = min(brute_solutions(Grid.empty(Shape.of(2, 2))))
    grid = Grid(solution, Shape.of(2, 2))
    kept = grid.with_rules(constraints=[Killer([(0, 0), (0, 1)], total=solution[0] + solution[1])])
    broken = grid.with_rules(constraints=[Killer([(0, 0), (0, 1)], total=solution[0] + solution[1] + 1)])
    assert solve(kept, ENGINE).status is Status.SOLVED
    result = solve(broken, ENGINE)
    assert result.status is Status.UNSOLVABLE and result.exact


# --- through the command line and with a time limit ----------------------------------------------------

KILLER_4 = {  # four solutions
    "box": "2x2",
    "givens": "." * 16,
    "constraints": [
        {"kind": "killer", "cells": ["r1c1", "r1c2"], "total": 3},
        {"kind": "killer", "cells": ["r2c1", "r3c1"], "total": 7},
        {"kind": "thermometer", "cells": ["r3c2", "r4c3"]},
        {"kind": "xv", "letter": "V", "cells": ["r3c4", "r4c4"]},
    ],
}


def test_the_cli_solves_a_variant_puzzle_in_a_real_process() -> None:
    text = json.dumps(KILLER_4)
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR")}
    done = subprocess.run(
        [SUDOKU, "solve", "-s", ENGINE, "--count", "-f", "json", text],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    expected = brute_solutions(from_json(text))
    assert record["status"] == "solved" and record["exact"] is True
    assert record["count"] == len(expected) >= 1
    assert tuple(int(d) for d in record["solution"]) in expected


def test_a_time_limit_stops_a_variant_search() -> None:
    # Counting every 9x9 anti-knight killer grid takes far longer than the limit: the call must stop.
    n = 9
    cages = [Killer([(r, c), (r, c + 1)], total=None) for r in range(n) for c in range(0, n - 1, 3)]
    puzzle = Grid.empty(Shape.of(3, 3)).with_rules(constraints=[AntiKnight(), *cages])
    result = solve(puzzle, ENGINE, limit=10**9, keep=1, time_limit=0.5)
    assert result.status is Status.TIMEOUT and not result.exact


def test_dots_and_xv_clues_of_any_value_count_as_brute_force_does() -> None:
    from tests.test_cpsat_variants import brute_force as counted
    from tests.test_cpsat_variants import random_puzzle as cpsat_puzzle

    sizes = ((4, range(8)), (6, range(2)))
    puzzles = [cpsat_puzzle("kropki-values", seed, n) for n, seeds in sizes for seed in seeds]
    assert any(r.value is not None for p in puzzles for r in p.constraints)  # type: ignore[attr-defined]
    for color in ("white", "black"):  # and the negative rule of one colour alone
        puzzles += [cpsat_puzzle(f"kropki-negative-{color}", seed, n) for n, seeds in sizes for seed in seeds]
    puzzles += [cpsat_puzzle("xv-sums", seed, n) for n, seeds in sizes for seed in seeds]  # XV clues of any sum
    for puzzle in puzzles:
        expected = counted(puzzle)
        result = solve(puzzle, ENGINE, limit=len(expected) + 1)
        assert (result.count, result.exact) == (len(expected), True), puzzle


#: Real puzzles whose rules work together, which python-constraint did not prove unique in 26-50 s of CPU
#: while each rule was a constraint of its own, run once after each assignment; with the rules propagated
#: together to a fixed point (csp/propagation.py) each takes a few seconds (bench_variant_links.py --check).
FORMERLY_SLOW = ("Fortress Coverage", "Exclusive Singularity")


@pytest.mark.parametrize("title", FORMERLY_SLOW)
def test_real_puzzles_of_rules_working_together_are_proved_unique(title: str) -> None:
    from sudokit.io.links import parse_link
    from tests.test_links import PUZZLES, linked

    (fields, link), *_ = [
        (f, k) for t, f, k in linked(PUZZLES / "variants" / "links-variantsolverjs.txt") if title in t
    ]
    result = solve(parse_link(link), ENGINE, limit=2, time_limit=120)
    assert (result.status, result.count, result.exact) == (Status.SOLVED, 1, True), result
    assert result.solution is not None and "".join(map(str, result.solution.cells)) == fields["solution"]


def _seen(line: Sequence[int]) -> int:
    seen = tallest = 0
    for d in line:
        if d > tallest:
            seen, tallest = seen + 1, d
    return seen


def test_a_skyscraper_line_keeps_exactly_the_digits_of_its_orderings() -> None:
    """The filter of a clued row or column keeps the digits that some ordering of 1..n fitting the cells'
    digits and both clues takes, as a brute force over every ordering does; no ordering: None."""
    from sudokit_strategies.csp.propagation import skyline_masks

    rng = random.Random(24)
    none = 0
    for _ in range(400):
        n = rng.randint(4, 6)
        line = [sum(1 << d for d in range(1, n + 1) if rng.random() < 0.7) or 1 << rng.randint(1, n) for _ in range(n)]
        left, right = rng.randint(0, n), rng.randint(0, n)  # 0: no clue at that end
        kept = [0] * n
        for order in permutations(range(1, n + 1)):
            fits = all(line[k] >> d & 1 for k, d in enumerate(order))
            if fits and left in (0, _seen(order)) and right in (0, _seen(order[::-1])):
                kept = [m | 1 << d for m, d in zip(kept, order, strict=True)]
        expected = kept if any(kept) else None
        none += expected is None
        assert skyline_masks(line, left, right) == expected, (line, left, right)
    assert 50 < none < 350  # both outcomes are tried


#: Real skyscraper puzzles python-constraint did not prove unique in 120 s while each clue was a filter of its
#: own (the digits of its readings); with a clued row or column one filter (generalised arc consistency of
#: its orderings, both clues together, run once the other filters settle) Renban Skyscrapers takes 0.6 s of CPU
#: (Trollscraper about 10 s: too long for a test; bench_variant_links.py --check).
@pytest.mark.parametrize(("file", "title"), [("links-sudokusolver.txt", "Renban Skyscrapers")])
def test_a_real_skyscraper_puzzle_is_proved_unique(file: str, title: str) -> None:
    from sudokit.io.links import parse_link
    from tests.test_links import PUZZLES, linked

    (fields, link), *_ = [(f, k) for t, f, k in linked(PUZZLES / "variants" / file) if title in t]
    result = solve(parse_link(link), ENGINE, limit=2, time_limit=120)
    assert (result.status, result.count, result.exact) == (Status.SOLVED, 1, True), result
    assert result.solution is not None and "".join(map(str, result.solution.cells)) == fields["solution"]
