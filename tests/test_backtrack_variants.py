"""``backtrack`` on variant puzzles: solution counts equal an independent brute force, kind by kind.

The brute force here shares nothing with the engine: it lists every grid that fills the givens with
rows, columns and regions all different (a plain recursive fill), then keeps those for which every
constraint's ``violation`` is None. Each declared kind gets random instances on 4x4 boards (every
one of its 288 grids, or every Latin square for a jigsaw) and on 6x6 boards with a few blanks;
most of the rules are read off a random solution, so the counts are seldom all zero.
"""

from __future__ import annotations

import json
import random
import subprocess
from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations

import pytest

from sudokit import Grid, Shape, Status, solve
from sudokit.engines.verify import solution_problem
from sudokit.errors import InvalidPuzzleError
from sudokit.model import variants as v
from sudokit_strategies.backtrack import BacktrackStrategy

from .conftest import ROOT

ENGINE = BacktrackStrategy()
Cell = tuple[int, int]


# --- the independent brute force ----------------------------------------------------------------------


def fills(cells: Sequence[int], n: int, units: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    """Every grid that keeps ``cells``' givens with each unit holding different digits."""
    board = list(cells)
    units_of = [[u for u in units if i in u] for i in range(n * n)]
    blanks = [i for i, d in enumerate(board) if not d]
    out: list[tuple[int, ...]] = []

    def fill(k: int) -> None:
        if k == len(blanks):
            out.append(tuple(board))
            return
        i = blanks[k]
        used = {board[j] for u in units_of[i] for j in u}
        for d in range(1, n + 1):
            if d not in used:
                board[i] = d
                fill(k + 1)
        board[i] = 0

    for u in units:  # givens that repeat in a unit leave nothing to fill
        given = [board[i] for i in u if board[i]]
        if len(given) != len(set(given)):
            return []
    fill(0)
    return out


@cache
def all_grids(box: str, regions: tuple[tuple[int, ...], ...] | None = None) -> list[tuple[int, ...]]:
    """Every complete grid of an empty board (288 for 2x2 boxes), with its boxes or other regions."""
    shape = Shape.parse(box)
    blocks = shape.boxes if regions is None else regions
    return fills([0] * shape.size, shape.n, shape.rows + shape.cols + blocks)


def brute_force(puzzle: Grid) -> set[tuple[int, ...]]:
    """The solutions of ``puzzle``, by listing grids and asking each constraint's ``violation``."""
    n = puzzle.n
    if not any(puzzle.cells) and n == 4:
        grids = all_grids(str(puzzle.shape), puzzle.regions if puzzle.jigsaw else None)
    else:
        grids = fills(puzzle.cells, n, puzzle.units)
    keep = puzzle.cells
    return {
        g
        for g in grids
        if all(d == 0 or d == x for d, x in zip(keep, g, strict=True))
        and all(rule.violation(g, puzzle) is None for rule in puzzle.constraints)
    }


def assert_counts_like_brute_force(puzzle: Grid) -> int:
    """The engine's count and solutions equal the brute force's; the count, for the caller."""
    expected = brute_force(puzzle)
    result = ENGINE.solve(puzzle, limit=10_000, keep=10_000)
    shown = v.to_json(puzzle)
    assert result.exact, shown
    assert result.count == len(expected), shown
    assert {s.cells for s in result.solutions} == expected, shown
    assert result.status is (Status.SOLVED if expected else Status.UNSOLVABLE), shown
    return result.count


# --- random instances ----------------------------------------------------------------------------------


#: The rules between two cells some generators' rules add to every grid: (steps apart, what the two digits keep).
PAIR_RULES: dict[str, tuple[tuple[tuple[int, int], ...], Callable[[int, int], bool]]] = {
    "anti-knight": (((1, 2), (1, -2), (2, 1), (2, -1)), lambda a, b: a != b),
    "anti-king": (((1, 1), (1, -1)), lambda a, b: a != b),
    "non-consecutive": (((0, 1), (1, 0)), lambda a, b: abs(a - b) != 1),
}


def random_solution(
    rng: random.Random, box: str, regions: Sequence[Sequence[int]] | None = None, kinds: Sequence[str] = ()
) -> list[int] | None:
    """A random complete grid (a plain fill, digits in random order) keeping the rules of ``kinds``; None if none does.

    Diagonals and the rules of ``PAIR_RULES`` are kept; other kinds are read off the grid by their generators.
    """
    shape = Shape.parse(box)
    n = shape.n
    units = list(shape.rows + shape.cols + (shape.boxes if regions is None else tuple(map(tuple, regions))))
    if "diagonal" in kinds:
        units += [tuple(k * n + k for k in range(n)), tuple(k * n + n - 1 - k for k in range(n))]
    units_of = [[u for u in units if i in u] for i in range(n * n)]
    partners: list[list[tuple[int, Callable[[int, int], bool]]]] = [[] for _ in range(n * n)]
    for kind in kinds:
        steps, ok = PAIR_RULES.get(kind, ((), lambda a, b: True))
        for i in range(n * n):
            r, c = divmod(i, n)
            for dr, dc in steps:
                for rr, cc in ((r + dr, c + dc), (r - dr, c - dc)):
                    if 0 <= rr < n and 0 <= cc < n:
                        partners[i].append((rr * n + cc, ok))
    board = [0] * (n * n)

    def fill(i: int) -> bool:
        if i == n * n:
            return True
        used = {board[j] for u in units_of[i] for j in u}
        for d in rng.sample(range(1, n + 1), n):
            if d not in used and all(not board[j] or ok(d, board[j]) for j, ok in partners[i]):
                board[i] = d
                if fill(i + 1):
                    return True
        board[i] = 0
        return False

    return board if fill(0) else None


def touching(cell: Cell, n: int, *, diagonal: bool = True) -> list[Cell]:
    r, c = cell
    steps = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
    if not diagonal:
        steps = [(dr, dc) for dr, dc in steps if not dr or not dc]
    return [(r + dr, c + dc) for dr, dc in steps if 0 <= r + dr < n and 0 <= c + dc < n]


def walk(rng: random.Random, n: int, length: int, ok: Callable[[Cell, Cell], bool] = lambda a, b: True) -> list[Cell]:
    """A line of up to ``length`` cells, each touching the last, with ``ok(last, next)`` for every step."""
    line = [(rng.randrange(n), rng.randrange(n))]
    while len(line) < length:
        steps = [c for c in touching(line[-1], n) if c not in line and ok(line[-1], c)]
        if not steps:
            break
        line.append(rng.choice(steps))
    return line


def cage(rng: random.Random, n: int, size: int) -> list[Cell]:
    """Up to ``size`` orthogonally connected cells."""
    cells = [(rng.randrange(n), rng.randrange(n))]
    while len(cells) < size:
        steps = sorted({c for cell in cells for c in touching(cell, n, diagonal=False)} - set(cells))
        cells.append(rng.choice(steps))
    return cells


def orthogonal_pair(rng: random.Random, n: int) -> tuple[Cell, Cell]:
    a, b = rng.choice(v.orthogonal_pairs(n))
    return divmod(a, n), divmod(b, n)


#: A rule generator: (rng, n, solution digit of a cell) -> constraints (several of the kind, or one).
Generator = Callable[[random.Random, int, Callable[[Cell], int]], list[v.Constraint]]


def gen_extra_region(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    cells: list[Cell] = []
    for cell in rng.sample([(r, c) for r in range(n) for c in range(n)], n * n):
        if rng.random() < 0.3 or at(cell) not in {at(x) for x in cells}:
            cells.append(cell)
        if len(cells) == rng.choice((2, 3, n, n)):
            break
    return [v.ExtraRegion(cells[:n])]


def gen_diagonal(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    return [v.Diagonal(d) for d in rng.choice((["main"], ["anti"], ["main", "anti"]))]


def gen_global(cls: type[v.Constraint]) -> Generator:
    return lambda rng, n, at: [cls()]


def gen_killer(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    """A few cages, or (a third of the time) cages over the whole board, a few of them without a total."""
    rules: list[v.Constraint] = []
    taken: set[Cell] = set()
    if rng.random() < 0.35:
        for cell in rng.sample([(r, c) for r in range(n) for c in range(n)], n * n):
            if cell in taken:
                continue
            cells = [cell]
            while len(cells) < rng.randint(1, 4):
                steps = [x for c in cells for x in touching(c, n, diagonal=False) if x not in taken | set(cells)]
                steps = [x for x in steps if at(x) not in map(at, cells)]
                if not steps:
                    break
                cells.append(rng.choice(steps))
            taken.update(cells)
            rules.append(v.Killer(cells, None if rng.random() < 0.15 else sum(map(at, cells))))
        return rules
    for _ in range(rng.randint(1, 3)):
        cells = [c for c in cage(rng, n, rng.randint(1, 4)) if c not in taken]
        if not cells:
            continue
        taken.update(cells)
        roll = rng.random()
        total = None if roll < 0.15 else sum(map(at, cells)) if roll < 0.8 else rng.randint(1, n * len(cells))
        rules.append(v.Killer(cells, total))
    return rules


def gen_little_killer(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    r, c = rng.randrange(n), rng.randrange(n)
    dr, dc = rng.choice((1, -1)), rng.choice((1, -1))
    cells = [(r, c)]
    while 0 <= r + dr < n and 0 <= c + dc < n and len(cells) < rng.randint(2, n):
        r, c = r + dr, c + dc
        cells.append((r, c))
    total = sum(map(at, cells)) if rng.random() < 0.8 else rng.randint(1, n * len(cells))
    return [v.LittleKiller(cells, total)]


def gen_sandwich(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    rules: list[v.Constraint] = []
    for axis in rng.sample(("row", "column"), rng.randint(1, 2)):
        index = rng.randrange(n)
        line = v.Sandwich(axis, index, 0).line_cells(n)
        digits = [at(c) for c in line]
        a, b = sorted((digits.index(1), digits.index(n)))
        total = sum(digits[a + 1 : b]) if rng.random() < 0.8 else rng.randint(0, n * (n + 1) // 2 - 1 - n)
        rules.append(v.Sandwich(axis, index, total))
    return rules


def gen_x_sum(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    rules: dict[tuple[str, int], v.Constraint] = {}
    for side in rng.sample(("left", "right", "top", "bottom"), rng.randint(1, 3)):
        index = rng.randrange(n)
        digits = [at(c) for c in v.XSum(side, index, 1).line_cells(n)]
        total = sum(digits[: digits[0]]) if rng.random() < 0.8 else rng.randint(1, n * (n + 1) // 2)
        rules[side, index] = v.XSum(side, index, total)
    return list(rules.values())


def gen_skyscraper(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    rules: dict[tuple[str, int], v.Constraint] = {}
    for side in rng.sample(("left", "right", "top", "bottom"), rng.randint(1, 3)):
        index = rng.randrange(n)
        digits = [at(c) for c in v.Skyscraper(side, index, 1).line_cells(n)]
        count = sum(d > max(digits[:k], default=0) for k, d in enumerate(digits))
        rules[side, index] = v.Skyscraper(side, index, count if rng.random() < 0.8 else rng.randint(1, n))
    return list(rules.values())


def gen_indexer(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    axis = rng.choice(("row", "column", "box"))
    cells = rng.sample([(r, c) for r in range(n) for c in range(n)], rng.randint(1, 3))
    values = [at((r, c)) for r in range(n) for c in range(n)]
    board = Grid(values, Shape.for_side(n), validate=False)
    kept = [c for c in cells if v.Indexer(axis, [c]).violation(values, board) is None]
    return [v.Indexer(axis, kept if kept and rng.random() < 0.8 else cells)]


def gen_thermometer(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    derived = rng.random() < 0.8
    line = walk(rng, n, rng.randint(2, n), lambda a, b: not derived or at(b) > at(a))
    return [v.Thermometer(line)] if len(line) > 1 else []


def gen_slow_thermometer(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    derived = rng.random() < 0.8
    line = walk(rng, n, rng.randint(2, n + 2), lambda a, b: not derived or at(b) >= at(a))
    return [v.SlowThermometer(line)] if len(line) > 1 else []


def gen_arrow(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    everything = [(r, c) for r in range(n) for c in range(n)]
    for _ in range(50):
        cells = walk(rng, n, rng.randint(1, 4))
        total = sum(map(at, cells))
        rest = [x for x in everything if x not in cells]
        if rng.random() < 0.3:  # a two-cell circle reading total (10 * first + second)
            firsts = [x for x in rest if at(x) == total // 10]
            seconds = [x for x in rest if at(x) == total % 10]
            pairs = [(a, b) for a in firsts for b in seconds if a != b]
            if pairs:
                return [v.Arrow(list(rng.choice(pairs)), cells)]
        circles = [x for x in rest if at(x) == total] if rng.random() < 0.8 else rest
        if circles:
            return [v.Arrow([rng.choice(circles)], cells)]
    return []


def gen_kropki(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    pairs = [(divmod(i, n), divmod(j, n)) for i, j in v.orthogonal_pairs(n)]
    dotted = [(a, b) for a, b in pairs if abs(at(a) - at(b)) == 1 or at(a) in (2 * at(b), at(b) / 2)]
    rules: dict[tuple[Cell, Cell], v.Constraint] = {}
    for _ in range(rng.randint(1, 4)):
        a, b = rng.choice(dotted if dotted and rng.random() < 0.8 else pairs)
        fits = [c for c in ("white", "black") if v.Kropki(c, [a, b]).holds(at(a), at(b))]
        rules[a, b] = v.Kropki(rng.choice(fits or ["white", "black"]), [a, b])
    return list(rules.values())


def dots(n: int, at: Callable[[Cell], int], make: Callable[[Cell, Cell, int, int], v.Constraint | None]) -> list:
    """The clue ``make`` gives for each orthogonal pair of the solution, if any (a negative rule's board)."""
    out = []
    for i, j in v.orthogonal_pairs(n):
        a, b = divmod(i, n), divmod(j, n)
        rule = make(a, b, at(a), at(b))
        if rule is not None:
            out.append(rule)
    return out


def gen_kropki_negative(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    keep = 1 if rng.random() < 0.7 else 0.9  # every dot the solution has, or nearly

    def make(a: Cell, b: Cell, x: int, y: int) -> v.Constraint | None:
        fits = [c for c in ("white", "black") if v.Kropki(c, [a, b]).holds(x, y)]
        return v.Kropki(rng.choice(fits), [a, b]) if fits and rng.random() < keep else None

    return [*dots(n, at, make), v.KropkiNegative()]


def gen_xv(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    rules: dict[tuple[Cell, Cell], v.Constraint] = {}
    pairs = [(divmod(i, n), divmod(j, n)) for i, j in v.orthogonal_pairs(n)]
    summing = [(a, b) for a, b in pairs if at(a) + at(b) in (5, 10)]
    for _ in range(rng.randint(1, 4)):
        a, b = rng.choice(summing if summing and rng.random() < 0.8 else pairs)
        letter = {10: "X", 5: "V"}.get(at(a) + at(b)) or rng.choice("XV")
        rules[a, b] = v.XV(letter, [a, b])
    return list(rules.values())


def gen_xv_negative(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    keep = 1 if rng.random() < 0.7 else 0.9  # every X and V the solution has, or nearly

    def make(a: Cell, b: Cell, x: int, y: int) -> v.Constraint | None:
        letter = {10: "X", 5: "V"}.get(x + y)
        return v.XV(letter, [a, b]) if letter and rng.random() < keep else None

    return [*dots(n, at, make), v.XVNegative()]


def gen_odd_even(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    cells = rng.sample([(r, c) for r in range(n) for c in range(n)], rng.randint(1, n))
    rules: list[v.Constraint] = []
    for cell in cells:
        odd = at(cell) % 2 == 1 if rng.random() < 0.85 else rng.random() < 0.5
        rules.append(v.OddEven(cell, "odd" if odd else "even"))
    return rules


def gen_renban(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    for _ in range(30):
        line = walk(rng, n, rng.randint(2, n))
        digits = [at(c) for c in line]
        if len(line) > 1 and (rng.random() < 0.2 or max(digits) - min(digits) == len(set(digits)) - 1 == len(line) - 1):
            return [v.Renban(line)]
    return []


def gen_whisper(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    difference = rng.randint(1, n // 2 + 1)
    derived = rng.random() < 0.8
    line = walk(rng, n, rng.randint(2, 5), lambda a, b: not derived or abs(at(a) - at(b)) >= difference)
    return [v.Whisper(line, difference)] if len(line) > 1 else []


def gen_palindrome(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    for _ in range(30):
        line = walk(rng, n, rng.randint(2, 5))
        digits = [at(c) for c in line]
        if len(line) > 1 and (rng.random() < 0.2 or digits == digits[::-1]):
            return [v.Palindrome(line)]
    return []


def gen_quadruple(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    rules: dict[tuple[Cell, ...], v.Constraint] = {}
    for _ in range(rng.randint(1, 3)):
        r, c = rng.randrange(n - 1), rng.randrange(n - 1)
        square = ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))
        k = rng.randint(1, 4)
        if rng.random() < 0.8:  # digits the solution has there (a repeat listed twice), or any
            digits = rng.sample([at(cell) for cell in square], k)
        else:
            digits = rng.choices(range(1, n + 1), k=k)
        rules[square] = v.Quadruple(square, digits)
    return list(rules.values())


def gen_pencil_marks(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    rules: list[v.Constraint] = []
    for cell in rng.sample([(r, c) for r in range(n) for c in range(n)], rng.randint(1, n)):
        digits = set(rng.sample(range(1, n + 1), rng.randint(1, n // 2)))
        if rng.random() < 0.85:  # the solution's digit among them, or not
            digits.add(at(cell))
        rules.append(v.PencilMarks(cell, digits))
    return rules


def gen_min_max(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    rules: list[v.Constraint] = []
    for cell in rng.sample([(r, c) for r in range(n) for c in range(n)], rng.randint(1, 3)):
        for extreme in rng.sample(("minimum", "maximum"), 2):
            rule = v.MinMax(cell, extreme)
            digits = [at(o) for o in rule.neighbours(n)]
            if rng.random() < 0.2 or all(rule.holds(at(cell), d) for d in digits):  # true of the solution, mostly
                rules.append(rule)
                break
    return rules


def gen_clone(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    for _ in range(50):
        cells = walk(rng, n, rng.randint(1, 4))
        dr, dc = rng.randint(1 - n, n - 1), rng.randint(1 - n, n - 1)
        moved = [(r + dr, c + dc) for r, c in cells]
        if (dr, dc) == (0, 0) or not all(0 <= r < n and 0 <= c < n for r, c in moved):
            continue
        if rng.random() < 0.2 or [at(c) for c in cells] == [at(c) for c in moved]:  # true of the solution, mostly
            return [v.Clone(cells, moved)]
    return [v.Clone([(0, 0)], [(n - 1, n - 1)])]


def gen_between_line(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    for _ in range(30):
        line = walk(rng, n, rng.randint(3, 5))
        if len(line) < 3:
            continue
        low, high = sorted((at(line[0]), at(line[-1])))
        if rng.random() < 0.2 or all(low < at(c) < high for c in line[1:-1]):
            return [v.BetweenLine(line)]
    return []


def gen_region_sum_line(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    board = Grid([at((r, c)) for r in range(n) for c in range(n)], Shape.for_side(n), validate=False)
    for _ in range(30):
        line = walk(rng, n, rng.randint(2, 5))
        if len(line) < 2:
            continue
        rule = v.RegionSumLine(line)
        if len(rule.segments(board)) > 1 and (rng.random() < 0.2 or rule.violation(board.cells, board) is None):
            return [rule]
    return []


def gen_entropic_line(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    if n % 3:
        return []  # the digits 1..n do not split into thirds: no board of this side takes one
    third = n // 3
    derived = rng.random() < 0.8
    for _ in range(30):
        line = walk(rng, n, rng.randint(3, 6), lambda a, b: not derived or (at(a) - 1) // third != (at(b) - 1) // third)
        groups = [(at(c) - 1) // third for c in line]
        if len(line) >= 3 and (not derived or all(len(set(groups[k : k + 3])) == 3 for k in range(len(line) - 2))):
            return [v.EntropicLine(line)]
    return []


def gen_modular_line(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    derived = rng.random() < 0.8
    out: list[v.Constraint] = []
    for _ in range(60):
        if len(out) == 2:
            break
        line = walk(rng, n, rng.randint(3, 6), lambda a, b: not derived or at(a) % 3 != at(b) % 3)
        residues = [at(c) % 3 for c in line]
        if len(line) >= 3 and (not derived or all(len(set(residues[k : k + 3])) == 3 for k in range(len(line) - 2))):
            out.append(v.ModularLine(line))
    return list(dict.fromkeys(out))


def gen_zipper_line(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    board = Grid([at((r, c)) for r in range(n) for c in range(n)], Shape.for_side(n), validate=False)
    derived = rng.random() < 0.8
    out: list[v.Constraint] = []
    for _ in range(200):
        if len(out) == 2:
            break
        line = walk(rng, n, rng.randint(3, 6))
        if len(line) >= 3 and (not derived or v.ZipperLine(line).violation(board.cells, board) is None):
            out.append(v.ZipperLine(line))
    return list(dict.fromkeys(out))


def gen_lockout_line(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    board = Grid([at((r, c)) for r in range(n) for c in range(n)], Shape.for_side(n), validate=False)
    derived = rng.random() < 0.8
    difference = rng.randint(1, n // 2)
    out: list[v.Constraint] = []
    for _ in range(200):
        if len(out) == 2:
            break
        rule = v.LockoutLine(walk(rng, n, rng.randint(2, 5)), difference=difference)
        if len(rule.cells) >= 2 and (not derived or rule.violation(board.cells, board) is None):
            out.append(rule)
    return list(dict.fromkeys(out))


def gen_nabner_line(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    derived = rng.random() < 0.8
    out: list[v.Constraint] = []
    for _ in range(200):
        if len(out) == 2:
            break
        line = walk(rng, n, rng.randint(2, (n + 1) // 2))
        if len(line) >= 2 and (not derived or all(abs(at(a) - at(b)) >= 2 for a, b in combinations(line, 2))):
            out.append(v.NabnerLine(line))
    return list(dict.fromkeys(out))


def gen_double_arrow(rng: random.Random, n: int, at: Callable[[Cell], int]) -> list[v.Constraint]:
    derived = rng.random() < 0.8
    out: list[v.Constraint] = []
    for _ in range(200):
        if len(out) == 2:
            break
        line = walk(rng, n, rng.randint(3, 5))
        digits = [at(c) for c in line]
        if len(line) >= 3 and (not derived or digits[0] + digits[-1] == sum(digits[1:-1])):
            out.append(v.DoubleArrow(line))
    return list(dict.fromkeys(out))


GENERATORS: dict[str, Generator] = {
    "extra-region": gen_extra_region,
    "diagonal": gen_diagonal,
    "anti-knight": gen_global(v.AntiKnight),
    "anti-king": gen_global(v.AntiKing),
    "non-consecutive": gen_global(v.NonConsecutive),
    "killer": gen_killer,
    "little-killer": gen_little_killer,
    "sandwich": gen_sandwich,
    "x-sum": gen_x_sum,
    "skyscraper": gen_skyscraper,
    "indexer": gen_indexer,
    "thermometer": gen_thermometer,
    "slow-thermometer": gen_slow_thermometer,
    "arrow": gen_arrow,
    "kropki": gen_kropki,
    "kropki-negative": gen_kropki_negative,
    "xv": gen_xv,
    "xv-negative": gen_xv_negative,
    "odd-even": gen_odd_even,
    "renban": gen_renban,
    "whisper": gen_whisper,
    "palindrome": gen_palindrome,
    "quadruple": gen_quadruple,
    "pencil-marks": gen_pencil_marks,
    "min-max": gen_min_max,
    "disjoint-groups": gen_global(v.DisjointGroups),
    "clone": gen_clone,
    "between-line": gen_between_line,
    "region-sum-line": gen_region_sum_line,
    "entropic-line": gen_entropic_line,
    "modular-line": gen_modular_line,
    "zipper-line": gen_zipper_line,
    "lockout-line": gen_lockout_line,
    "nabner-line": gen_nabner_line,
    "double-arrow": gen_double_arrow,
}
#: Kinds whose rule needs a side that splits into thirds: none on 4x4 (a 4x4 board refuses them).
THIRDS = {"entropic-line"}
#: Rules that leave few grids of a 6x6 board by themselves: their instances there get fewer blanks.
GLOBAL = {"anti-knight", "anti-king", "non-consecutive", "kropki-negative", "xv-negative", "diagonal"}


def random_puzzle(rng: random.Random, box: str, kinds: Sequence[str], blanks: int | None = None) -> Grid:
    """Rules of ``kinds`` read off (mostly) a random solution, and that solution's digits outside ``blanks`` cells."""
    shape = Shape.parse(box)
    n = shape.n
    solution = random_solution(rng, box, kinds=kinds) or random_solution(rng, box)  # no 4x4 grid is anti-king
    assert solution is not None
    rules: list[v.Constraint] = []
    for kind in kinds:
        rules += GENERATORS[kind](rng, n, lambda cell: solution[cell[0] * n + cell[1]])
    try:
        Grid.empty(shape).with_rules(constraints=rules)
    except v.VariantError:  # two rules of one kind on one pair of cells, say: draw again
        return random_puzzle(rng, box, kinds, blanks)
    cells = solution[:]
    for i in rng.sample(range(shape.size), shape.size if blanks is None else blanks):
        cells[i] = 0
    if blanks is None and rng.random() < 0.4:  # a given or two, from the solution or not
        for i in rng.sample(range(shape.size), rng.randint(1, 2)):
            cells[i] = solution[i] if rng.random() < 0.8 else rng.randint(1, n)
    try:
        return Grid(cells, shape, constraints=rules)
    except InvalidPuzzleError:  # a random given repeats a digit of its row, column or box
        return Grid([d if d == s else 0 for d, s in zip(cells, solution, strict=True)], shape, constraints=rules)


# --- the tests -----------------------------------------------------------------------------------------


def test_declares_exactly_the_kinds_tested_here() -> None:
    assert ENGINE.capabilities.constraints == set(GENERATORS) | {"jigsaw"}
    assert ENGINE.capabilities.max_side == 36
    plain = BacktrackStrategy(order="plain").capabilities
    assert (plain.max_side, plain.constraints) == (9, frozenset())


#: No 4x4 grid keeps these rules (the brute force finds none): their 4x4 instances all have no solution.
NO_4X4_GRID = {"anti-king", "non-consecutive"}


@pytest.mark.parametrize("kind", sorted(set(GENERATORS) - THIRDS))
def test_4x4_counts_equal_brute_force(kind: str) -> None:
    assert len(set(all_grids("2x2"))) == 288  # the brute force knows every 4x4 grid
    counts = []
    for k in range(24):
        rng = random.Random(f"4x4 {kind} {k}")
        counts.append(assert_counts_like_brute_force(random_puzzle(rng, "2x2", [kind])))
    if kind not in NO_4X4_GRID:
        assert sum(c > 0 for c in counts) >= 6, counts


@pytest.mark.parametrize("kind", sorted(GENERATORS))
def test_6x6_counts_equal_brute_force(kind: str) -> None:
    counts, cut = [], 0
    for k in range(4):
        rng = random.Random(f"6x6 {kind} {k}")
        puzzle = random_puzzle(rng, "2x3", [kind], blanks=24 if kind in GLOBAL else 20)
        counts.append(assert_counts_like_brute_force(puzzle))
        cut += counts[-1] < len(fills(puzzle.cells, 6, puzzle.units))  # the rules leave fewer than the givens
    assert max(counts) >= 1 and cut >= 1


@pytest.mark.parametrize("k", range(12))
def test_mixed_rules_count_like_brute_force(k: int) -> None:
    rng = random.Random(f"mixed {k}")
    kinds = rng.sample(sorted(GENERATORS), 3)
    assert_counts_like_brute_force(random_puzzle(rng, "2x2", kinds))
    assert_counts_like_brute_force(random_puzzle(rng, "2x3", kinds, blanks=16))


def random_regions(rng: random.Random, n: int, rows: int, solution: Sequence[int]) -> list[list[int]]:
    """n connected regions of n cells that ``solution`` fills: its boxes (``rows`` rows each), cells traded away.

    Two cells holding the same digit trade regions when both stay connected, so each region still holds 1..n.
    """
    owner = [(i // n) // rows * rows + (i % n) // (n // rows) for i in range(n * n)]
    for _ in range(500):
        i = rng.randrange(n * n)
        a = owner[i]
        others = sorted({owner[r * n + c] for r, c in touching(divmod(i, n), n, diagonal=False)} - {a})
        if not others:
            continue
        b = rng.choice(others)
        (j,) = [j for j in range(n * n) if owner[j] == b and solution[j] == solution[i]]
        trial = owner[:]
        trial[i], trial[j] = b, a
        if all(connected([x for x in range(n * n) if trial[x] == k], n) for k in (a, b)):
            owner = trial
    return [[i for i in range(n * n) if owner[i] == k] for k in range(n)]


def connected(cells: list[int], n: int) -> bool:
    seen, todo = {cells[0]}, [cells[0]]
    while todo:
        r, c = divmod(todo.pop(), n)
        for rr, cc in touching((r, c), n, diagonal=False):
            if rr * n + cc in cells and rr * n + cc not in seen:
                seen.add(rr * n + cc)
                todo.append(rr * n + cc)
    return len(seen) == len(cells)


@pytest.mark.parametrize(("box", "rows", "blanks"), [("2x2", 2, 16), ("2x3", 2, 16), ("2x3", 3, 14)])
def test_jigsaw_counts_equal_brute_force(box: str, rows: int, blanks: int) -> None:
    shape = Shape.parse(box)
    for k in range(8):
        rng = random.Random(f"jigsaw {box} {k}")
        regions: list[list[int]] = []
        while not regions or sorted(map(tuple, regions)) == sorted(shape.boxes):  # until some cells were traded
            solution = random_solution(rng, f"{rows}x{shape.n // rows}")
            assert solution is not None
            regions = random_regions(rng, shape.n, rows, solution)
        cells = solution[:]
        for i in rng.sample(range(shape.size), blanks):
            cells[i] = 0
        puzzle = Grid(cells, shape, regions=regions)
        assert puzzle.jigsaw and puzzle.kinds == {"jigsaw"}
        assert assert_counts_like_brute_force(puzzle) >= 1
        if k % 2:  # jigsaw regions and a rule together
            kind = rng.choice(sorted(GENERATORS))
            rules = GENERATORS[kind](rng, shape.n, lambda cell, s=solution: s[cell[0] * shape.n + cell[1]])
            assert_counts_like_brute_force(puzzle.with_rules(regions=regions, constraints=rules))


def test_rules_that_contradict_each_other_leave_no_solution() -> None:
    shape = Shape.parse("2x2")
    pair = [(0, 0), (0, 1)]
    for rules in (
        [v.Kropki("white", pair), v.NonConsecutive()],
        [v.XV("V", pair), v.Killer(pair, 4)],
        [v.Thermometer(pair), v.Thermometer(pair[::-1])],
        [v.Palindrome([(0, 0), (1, 1), (0, 1)])],
        [v.Killer([(0, 0), (0, 1), (1, 0)], 5)],
    ):
        puzzle = Grid([0] * 16, shape, constraints=rules)
        result = ENGINE.solve(puzzle, limit=2)
        assert (result.status, result.count, result.exact) == (Status.UNSOLVABLE, 0, True)
        assert brute_force(puzzle) == set()


def puzzle_9x9() -> Grid:
    """A classic puzzle with 8 of its givens taken away, and killer cages and a thermometer read off its solution."""
    classic = Grid.parse((ROOT / "puzzles" / "easy50.txt").read_text().split()[0])
    solution = ENGINE.solve(classic).solution
    assert solution is not None
    at = solution.cells
    cages = [[(0, 0), (0, 1)], [(4, 4), (4, 5), (5, 4)], [(8, 7), (8, 8)]]
    rules: list[v.Constraint] = [v.Killer(c, sum(at[r * 9 + k] for r, k in c)) for c in cages]
    line = walk(random.Random(9), 9, 5, lambda a, b: at[b[0] * 9 + b[1]] > at[a[0] * 9 + a[1]])
    rules.append(v.Thermometer(line))
    cells = list(classic.cells)
    for i in random.Random(10).sample([i for i, d in enumerate(cells) if d], 8):
        cells[i] = 0
    return Grid(cells, classic.shape, constraints=rules)


def test_9x9_variant_solution_is_checked_and_unique() -> None:
    puzzle = puzzle_9x9()
    result = solve(puzzle, "backtrack", limit=1000)
    assert result.status is Status.SOLVED and result.exact
    for s in result.solutions:
        assert solution_problem(puzzle, s) is None


def test_plain_order_is_unsupported_on_a_variant_puzzle() -> None:
    puzzle = puzzle_9x9()
    assert solve(puzzle, "backtrack").status is Status.SOLVED  # the default order takes it
    result = solve(puzzle, "backtrack", order="plain")
    assert result.status is Status.UNSUPPORTED
    assert result.error is not None and "killer" in result.error and "thermometer" in result.error
    assert solve(puzzle.with_rules(), "backtrack", order="plain").status is Status.SOLVED


def test_cli_solves_a_json_puzzle_with_backtrack() -> None:
    puzzle = puzzle_9x9()
    text = v.to_json(puzzle)
    assert json.loads(text)["constraints"]
    sudoku = ROOT / ".venv" / "bin" / "sudoku"
    proc = subprocess.run(
        [str(sudoku), "solve", "-s", "backtrack", "-f", "line", text],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (proc.returncode, proc.stderr) == (0, ""), proc.stderr
    answer = proc.stdout.strip().rsplit(":", 1)[-1].strip()
    grid = Grid.parse(answer)
    assert solution_problem(puzzle, grid) is None


def test_a_quadruple_digit_confined_to_one_row_of_its_square_leaves_the_rest_of_that_row() -> None:
    from sudokit_strategies.backtrack.rules import QuadrupleRule

    full = (1 << 9) - 1
    square = (0, 1, 9, 10)  # r1c1 r1c2 r2c1 r2c2
    rule = QuadrupleRule(square, [5, 7])
    rule.peers = tuple(frozenset(set(range(r * 9, r * 9 + 9)) - set(square)) for r in (0, 0, 1, 1))  # rows only
    cand = [full] * 81
    five = 1 << 4
    cand[9] &= ~five
    cand[10] &= ~five  # 5 can go only in row 1 of the square
    narrowed = dict(rule.propagate(cand, [0] * 81))
    assert {i for i, m in narrowed.items() if not m & five} == set(range(2, 9))  # the rest of row 1 loses 5
    assert all(m == full & ~five for m in narrowed.values())  # and nothing else: 7 may still go in either row
    cand[0] = cand[1] = full & ~five & ~(1 << 6)  # now neither 5 nor 7 fits row 1, and 5 nowhere: no placing
    assert rule.propagate(cand, [0] * 81) is None


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


def test_skyscraper_propagation_keeps_every_solution_digit_and_makes_the_classic_deductions() -> None:
    """Sound (never removes a digit of a line that reads ``count``, shipped clues included) and strong enough."""
    from sudokit.io.links import parse_link
    from sudokit_strategies.backtrack.rules import SkyscraperRule

    from .test_links import REAL

    rng = random.Random(24)
    lines: list[tuple[int, list[int]]] = []  # (count, the line's digits from the clue)
    for _, fields, link in REAL:
        puzzle = parse_link(link)
        digits = [int(d) for d in fields["solution"]]
        for rule in puzzle.constraints:
            if isinstance(rule, v.Skyscraper) and len(digits) == puzzle.n * puzzle.n:
                lines.append((rule.count, [digits[r * puzzle.n + c] for r, c in rule.line_cells(puzzle.n)]))
    assert len(lines) >= 20  # the shipped skyscraper puzzles' clues
    for n in (4, 6, 9):
        lines += [(0, rng.sample(range(1, n + 1), n)) for _ in range(300)]
    for count, line in lines:
        n = len(line)
        count = count or sum(d > max(line[:k], default=0) for k, d in enumerate(line))
        rule = SkyscraperRule(range(n), count, n)
        for _ in range(5):  # candidates: the line's digit and some others; a few cells placed
            cand = [1 << (d - 1) | rng.getrandbits(n) for d in line]
            values = [1 << (d - 1) if rng.random() < 0.2 else 0 for d in line]
            out = rule.propagate(cand, values)
            assert out is not None, (count, line)
            for c, m in out:
                assert m >> (line[c] - 1) & 1, (count, line, c)
    full = (1 << 9) - 1

    def narrowed(count: int) -> list[int]:
        out = dict(SkyscraperRule(range(9), count, 9).propagate([full] * 9, [0] * 9) or [])
        return [out.get(c, full) for c in range(9)]

    three = narrowed(3)  # 3 seen: the first cell is at most 7, the second at most 8, 9 not in the first two
    assert [three[c].bit_length() for c in range(3)] == [7, 8, 9]
    assert narrowed(1)[0] == 1 << 8  # 1 seen: 9 comes first
    assert narrowed(9) == [1 << d for d in range(9)]  # 9 seen: 1 to 9 in order


def test_skyscraper_propagation_keeps_exactly_the_digits_of_the_lines_readings() -> None:
    """On a line of at most 7 undecided cells, a digit stays iff some line of different digits reads ``count``."""
    from itertools import permutations

    from sudokit_strategies.backtrack.rules import SkyscraperRule

    rng = random.Random(7)
    pruned = 0
    for _ in range(1500):
        n = rng.choice((4, 5, 6))
        count = rng.randint(1, n)
        cand = [rng.getrandbits(n) | 1 << rng.randrange(n) for _ in range(n)]
        exact = [0] * n
        for line in permutations(range(1, n + 1)):
            seen = sum(d > max(line[:k], default=0) for k, d in enumerate(line))
            if seen == count and all(cand[c] >> (d - 1) & 1 for c, d in enumerate(line)):
                exact = [m | 1 << (d - 1) for m, d in zip(exact, line, strict=True)]
        out = SkyscraperRule(range(n), count, n).propagate(cand, [0] * n)
        if not any(exact):
            assert out is None
            continue
        assert out is not None
        got = cand[:]
        for c, m in out:
            got[c] = m
        assert got == exact, (n, count, cand)
        pruned += got != cand
    assert pruned > 300


def test_short_arrows_become_tables_that_keep_every_solution_digit_and_know_peers_differ() -> None:
    """A short arrow's table never removes a digit of a shipped puzzle's solution; peers on it take different digits."""
    from sudokit.io.links import parse_link
    from sudokit_strategies.backtrack.rules import TableRule
    from sudokit_strategies.backtrack.variants import VariantSearch

    from .test_links import REAL

    rng = random.Random(24)
    tables = 0
    for _, fields, link in REAL:
        puzzle = parse_link(link)
        if "arrow" not in puzzle.kinds or len(fields["solution"]) != puzzle.n * puzzle.n:
            continue
        n, digits = puzzle.n, [int(d) for d in fields["solution"]]
        for rule in VariantSearch(puzzle, 2, None, 1).rules:
            if not isinstance(rule, TableRule):
                continue
            tables += 1
            for _ in range(20):
                cand = [1 << (digits[c] - 1) | rng.getrandbits(n) for c in range(n * n)]
                out = rule.propagate(cand, [0] * (n * n))
                assert out is not None
                assert all(m >> (digits[c] - 1) & 1 for c, m in out), (link, rule.cells)
    assert tables >= 20
    # A circle of 4 over two cells of one box: 1 and 3 (2 + 2 would repeat), the circle not in the box's row.
    puzzle = Grid([0] * 81, Shape.for_side(9), constraints=[v.Arrow(((4, 4),), ((0, 0), (0, 1)))])
    [rule] = [r for r in VariantSearch(puzzle, 2, None, 1).rules if isinstance(r, TableRule)]
    cand = [(1 << 9) - 1] * 81
    cand[40] = 1 << 3
    assert dict(rule.propagate(cand, [0] * 81) or []) == {0: 0b101, 1: 0b101}


def _solved_puzzles(kinds: set[str]) -> list[tuple[str, Grid, list[int]]]:
    """Every shipped puzzle using one of ``kinds`` with one known solution: the kit's, the corpus', the links'."""
    from sudokit.io.links import parse_link
    from sudokit.io.puzzles import parse_puzzle
    from sudokit.testing import corpus

    from .test_links import REAL

    found = []
    for k in corpus.variants():
        if k.puzzle.kinds & kinds and k.solution is not None:
            found.append((k.where, k.puzzle, list(k.solution.cells)))
    lines = [line for line in (ROOT / "puzzles/variants/corpus.txt").read_text().splitlines() if line[:1] == "{"]
    answers = [line.split() for line in (ROOT / "puzzles/variants/answers.txt").read_text().splitlines()[1:]]
    assert len(lines) == len(answers)
    for number, (line, answer) in enumerate(zip(lines, answers, strict=True)):
        puzzle = parse_puzzle(line)
        if puzzle.kinds & kinds:
            found.append((f"corpus.txt puzzle {number + 1}", puzzle, [int(d, 36) for d in answer[-1]]))
    for _, fields, link in REAL:
        puzzle = parse_link(link)
        if puzzle.kinds & kinds and len(fields["solution"]) == puzzle.n * puzzle.n:
            found.append((link[:60], puzzle, [int(d) for d in fields["solution"]]))
    return found


def test_long_arrows_and_double_arrows_never_remove_a_digit_of_the_solution() -> None:
    """The arrow rule (sum bounds with the digits that must differ) keeps every shipped puzzle's solution digits.

    Each arrow or double arrow that is not a table is put random candidates around the solution, with some
    of its cells placed (their solution digits): it never answers a contradiction nor removes a solution digit,
    nor do the bounds it falls back on past its search budget.
    """
    from sudokit_strategies.backtrack.rules import ArrowRule
    from sudokit_strategies.backtrack.variants import VariantSearch

    rng = random.Random(25)
    rules = narrowed = 0
    puzzles = _solved_puzzles({"arrow", "double-arrow"})
    assert {p.n for _, p, _ in puzzles} >= {4, 9}
    for where, puzzle, digits in puzzles:
        n, size = puzzle.n, puzzle.n * puzzle.n
        for rule in VariantSearch(puzzle, 2, None, 1).rules:
            if not isinstance(rule, ArrowRule):
                continue
            rules += 1
            for _ in range(30):
                cand = [1 << (digits[c] - 1) | rng.getrandbits(n) for c in range(size)]
                values = [0] * size
                for c in rule.cells:
                    if rng.random() < 0.25:
                        values[c], cand[c] = 1 << (digits[c] - 1), 0
                rule.memo.clear()
                out = rule.propagate(cand, values)
                assert out is not None, (where, rule.cells)
                assert all(m >> (digits[c] - 1) & 1 for c, m in out), (where, rule.cells)
                narrowed += bool(out)
                # What it falls back on past its search budget (long lines on big boards) keeps them too.
                dom = tuple(values[c] or cand[c] for c in rule.cells)
                out = rule._by_bounds(dom, values)
                assert out is not None, (where, rule.cells)
                assert all(m >> (digits[c] - 1) & 1 for c, m in out), (where, rule.cells)
    assert rules >= 10
    assert narrowed >= rules  # the rule does narrow


def test_arrow_rule_keeps_exactly_the_digits_of_sums_whose_peers_differ() -> None:
    """Shaft cells that see each other take different digits: the rule keeps just the digits of such sums.

    Compared with every row of digits listed by brute force, under random candidates: an arrow from r9c9
    over three cells of row 1 and r2c6, and a double arrow whose six cells fill two rows of box 7.
    """
    from itertools import permutations, product

    from sudokit_strategies.backtrack.rules import ArrowRule
    from sudokit_strategies.backtrack.variants import VariantSearch

    full = (1 << 9) - 1
    # Four cells of row 1: at least 1+2+3+4 = 10, more than a digit: no arrow fits.
    puzzle = Grid([0] * 81, Shape.for_side(9), constraints=[v.Arrow(((8, 8),), ((0, 0), (0, 1), (0, 2), (0, 3)))])
    [rule] = [r for r in VariantSearch(puzzle, 2, None, 1).rules if isinstance(r, ArrowRule)]
    assert rule.propagate([full] * 81, [0] * 81) is None
    arrow = v.Arrow(((8, 8),), ((0, 0), (0, 1), (0, 2), (1, 5)))
    double = v.DoubleArrow(((8, 2), (8, 1), (8, 0), (7, 0), (7, 1), (7, 2)))
    rows = {  # every row of digits that keeps the rule, in the order of its cells
        arrow: [(a + b + c + d, a, b, c, d) for a, b, c, d in product(range(1, 10), repeat=4) if len({a, b, c}) == 3],
        double: [p for p in permutations(range(1, 10), 6) if p[0] + p[-1] == sum(p[1:-1])],
    }
    rng = random.Random(26)
    for constraint, listed in rows.items():
        listed = [r for r in listed if r[0] <= 9]
        puzzle = Grid([0] * 81, Shape.for_side(9), constraints=[constraint])
        [rule] = [r for r in VariantSearch(puzzle, 2, None, 1).rules if isinstance(r, ArrowRule)]
        cells = rule.cells
        order = constraint.indexes(9)  # the circle first, as the rows list the digits
        for trial in range(300):
            cand = [full] * 81
            if trial:
                for c in cells:
                    cand[c] = rng.getrandbits(9) | 1 << rng.randrange(9)
            exact = dict.fromkeys(cells, 0)
            for r in listed:
                if all(cand[c] >> (d - 1) & 1 for c, d in zip(order, r, strict=True)):
                    for c, d in zip(order, r, strict=True):
                        exact[c] |= 1 << (d - 1)
            rule.memo.clear()
            out = rule.propagate(cand, [0] * 81)
            if not any(exact.values()):
                assert out is None
                continue
            assert out is not None
            got = dict(zip(cells, (cand[c] for c in cells), strict=True)) | dict(out)
            assert got == exact, (constraint, [cand[c] for c in cells])


def test_kropki_chains_never_remove_a_digit_of_the_solution_and_keep_a_black_1_from_two_2s() -> None:
    """A cell between two kropki dots whose far cells see each other is a table of the three: sound, and stronger.

    Every such table of the kit's, the corpus' and the links' kropki puzzles, under random candidates
    around the solution, keeps every solution digit; on a row ``r1c1 - r1c2 - r1c3`` of two black dots the
    middle cannot be 1 (both ends would be 2), which the two pair tables alone allow.
    """
    from sudokit_strategies.backtrack.rules import TableRule
    from sudokit_strategies.backtrack.variants import VariantSearch

    rng = random.Random(38)
    chains = 0
    for where, puzzle, digits in _solved_puzzles({"kropki"}):
        n, size = puzzle.n, puzzle.n * puzzle.n
        for rule in VariantSearch(puzzle, 2, None, 1).rules:
            if not isinstance(rule, TableRule) or "arrow" in puzzle.kinds:
                continue
            chains += 1
            for _ in range(20):
                cand = [1 << (digits[c] - 1) | rng.getrandbits(n) for c in range(size)]
                out = rule.propagate(cand, [0] * size)
                assert out is not None, (where, rule.cells)
                assert all(m >> (digits[c] - 1) & 1 for c, m in out), (where, rule.cells)
    assert chains >= 5
    dots = [v.Kropki("black", ((0, 0), (0, 1))), v.Kropki("black", ((0, 1), (0, 2)))]
    [rule] = VariantSearch(Grid([0] * 81, Shape.for_side(9), constraints=dots), 2, None, 1).rules
    assert isinstance(rule, TableRule)
    narrowed = dict(rule.propagate([(1 << 9) - 1] * 81, [0] * 81) or [])
    assert narrowed[1] == 0b1010  # the middle: 2 (1 and 4 at the ends) or 4 (2 and 8); not 1, 3 (6 twice), 6, 8


def test_arrow_rule_bounds_cells_that_all_see_each_other_by_their_least_different_digits() -> None:
    """Too many cells for a search to list: the cells of one column add at least 1 + 2 + ... over their digits.

    On a 16x16 board, eight middle cells of a double arrow in one column add at least 36, more than two
    ends can (16 + 15): the rule refuses the board's full candidates at once, and the solve says
    unsolvable (the sum's bounds alone, 8 at least, left the search to run out its time).
    """
    from sudokit_strategies.backtrack.rules import ArrowRule
    from sudokit_strategies.backtrack.variants import VariantSearch

    double = v.DoubleArrow(tuple((r, 3) for r in range(2, 12)))
    puzzle = Grid([0] * 256, Shape.for_side(16), constraints=[double])
    [rule] = [r for r in VariantSearch(puzzle, 2, None, 1).rules if isinstance(r, ArrowRule)]
    assert rule.propagate([(1 << 16) - 1] * 256, [0] * 256) is None
    result = solve(puzzle, "backtrack", time_limit=20)
    assert result.status == Status.UNSOLVABLE
    # Seven middle cells (28 at least): the rule keeps the ends' digits that two different ends reach.
    double = v.DoubleArrow(tuple((r, 3) for r in range(2, 11)))
    puzzle = Grid([0] * 256, Shape.for_side(16), constraints=[double])
    [rule] = [r for r in VariantSearch(puzzle, 2, None, 1).rules if isinstance(r, ArrowRule)]
    out = dict(rule.propagate([(1 << 16) - 1] * 256, [0] * 256) or [])
    assert out[2 * 16 + 3] == out[10 * 16 + 3] == sum(1 << (d - 1) for d in range(12, 17))  # 12..16: 28 - 16 up
