"""Every pair of engines agrees on the number of solutions of random small variant puzzles.

Hypothesis draws 4x4 and 6x6 puzzles with constraints of every kind (each test forces one kind and
draws a few others), sometimes jigsaw regions, and givens taken from a solved grid. Most clues are
made true of that grid (a thermometer follows increasing digits, a cage sums to its digits), so that
many puzzles have solutions to count; the rest carry drawn values, so that unsolvable ones come too.
Every engine that declares the puzzle's kinds counts to ``LIMIT``; any two must give the same count
and both say it is exact, or both stop at the limit. Every draw is a Hypothesis primitive, so a
failure shrinks: to fewer swaps of cells between regions, shorter lines, fewer givens.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import combinations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sudokit import Grid, Result, Shape, Status, Strategy, capabilities_of, get_strategy, solution_problem, solve
from sudokit.model.variants import (
    ALL_KINDS,
    JIGSAW,
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
    VariantError,
    Whisper,
    XSum,
    XVNegative,
    ZipperLine,
)
from sudokit.testing.strategies import solved_grids

#: The built-in engines compared.
ENGINES = ("backtrack", "cp-sat", "python-constraint", "sat")
#: Each engine counts up to this many solutions.
LIMIT = 50
#: Seconds an engine gets for one count (none should need a tenth of it).
TIME_LIMIT = 10.0
SHAPES = (Shape.of(2, 2), Shape.of(2, 3))
#: Kinds whose rule needs a side that splits into thirds (6x6 here): never drawn on 4x4.
THIRDS = {"entropic-line"}
#: The eight steps from a cell to a touching one.
STEPS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
ORTHOGONAL = ((-1, 0), (0, -1), (0, 1), (1, 0))
AGREE = settings(
    database=None,
    derandomize=True,
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@dataclass(frozen=True)
class Instance:
    """A drawn puzzle and the solved grid its true clues were read from (None: its regions have no solution)."""

    puzzle: Grid
    solution: tuple[int, ...] | None


# --- drawing ---------------------------------------------------------------------------------------------


@st.composite
def jigsaw_regions(draw: st.DrawFn, shape: Shape) -> tuple[tuple[int, ...], ...]:
    """The boxes with drawn pairs of cells exchanged between their regions (at least one exchange made)."""
    n = shape.n
    owner = list(shape.box_of)
    for a, b in draw(st.lists(st.tuples(_index(n * n), _index(n * n)), max_size=2 * n)):
        owner[a], owner[b] = owner[b], owner[a]
    if owner == list(shape.box_of):
        owner[0], owner[-1] = owner[-1], owner[0]  # two cells of different boxes
    return tuple(tuple(i for i in range(n * n) if owner[i] == k) for k in range(n))


def first_solution(
    shape: Shape, regions: tuple[tuple[int, ...], ...], digits: list[int], budget: int = 2_000
) -> tuple[int, ...] | None:
    """The first solution of the empty board with ``regions``, trying digits in the order ``digits``.

    A plain search of its own (fewest candidates first), independent of the engines; None when there is
    none or the search takes more than ``budget`` steps.
    """
    n = shape.n
    peers = [set() for _ in range(n * n)]
    for unit in (*shape.rows, *shape.cols, *regions):
        for i in unit:
            peers[i].update(unit)
    cells = [0] * (n * n)
    steps = [0]

    def candidates(i: int) -> list[int]:
        used = {cells[j] for j in peers[i]}
        return [d for d in digits if d not in used]

    def fill() -> bool:
        steps[0] += 1
        if steps[0] > budget:
            return False
        options = [(len(c), i, c) for i in range(n * n) if not cells[i] for c in [candidates(i)]]
        if not options:
            return True
        _, i, found = min(options)
        for d in found:
            cells[i] = d
            if fill():
                return True
        cells[i] = 0
        return False

    return tuple(cells) if fill() else None


def _index(k: int) -> st.SearchStrategy[int]:
    return st.integers(0, k - 1)


class Drawer:
    """Draws constraints of each kind on a board of side n, true of ``solution`` when told (and it exists)."""

    def __init__(self, draw: st.DrawFn, n: int, solution: tuple[int, ...] | None) -> None:
        self.draw, self.n, self.s = draw, n, solution

    def true(self) -> bool:
        """Whether this clue is to be made true of the solution (mostly, when there is one)."""
        return self.s is not None and self.draw(st.sampled_from((True, True, True, False)))

    def cell(self) -> int:
        return self.draw(_index(self.n * self.n))

    def walk(
        self,
        steps: tuple[tuple[int, int], ...],
        longest: int,
        ok: Callable[[list[int], int], bool] | None = None,
        start: int | None = None,
    ) -> list[int]:
        """Up to ``longest`` cells from ``start`` (drawn if None), each step drawn among those ``ok`` allows."""
        n = self.n
        path = [self.cell() if start is None else start]
        for choice in self.draw(st.lists(_index(len(steps)), max_size=longest - 1)):
            r, c = divmod(path[-1], n)
            options = [
                (r + dr) * n + c + dc
                for dr, dc in steps
                if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr) * n + c + dc not in path
            ]
            options = [j for j in options if ok is None or ok(path, j)]
            if not options:
                break
            path.append(options[choice % len(options)])
        return path

    def line(self, ok: Callable[[list[int], int], bool] | None = None, longest: int | None = None) -> list[int]:
        """A line of at least two touching cells (a drawn neighbour is added to a line stuck at one)."""
        path = self.walk(STEPS, longest or self.n, ok if self.true() else None)
        if len(path) < 2:
            path = self.walk(STEPS, 2)
        if len(path) < 2:  # a lone cell has a neighbour on any board
            path.append(path[0] + 1 if path[0] % self.n < self.n - 1 else path[0] - 1)
        return path

    def pair(self) -> list[int]:
        """Two orthogonally adjacent cells."""
        n = self.n
        a = self.cell()
        r, c = divmod(a, n)
        options = [(r + dr) * n + c + dc for dr, dc in ORTHOGONAL if 0 <= r + dr < n and 0 <= c + dc < n]
        return [a, options[self.draw(_index(len(options)))]]

    def cells(self, indexes: list[int]) -> list[tuple[int, int]]:
        return [divmod(i, self.n) for i in indexes]

    def digits(self, indexes: list[int]) -> list[int]:
        assert self.s is not None
        return [self.s[i] for i in indexes]

    def make(self, kind: str) -> list[Constraint]:
        """One or two constraints of ``kind``."""
        draw, n, s = self.draw, self.n, self.s
        if kind == "extra-region":
            picked = draw(st.lists(_index(n * n), min_size=2, max_size=n, unique=True))
            return [ExtraRegion(self.cells(picked))]
        if kind == "diagonal":
            return [Diagonal(draw(st.sampled_from(("main", "anti"))))]
        if kind in ("anti-knight", "anti-king", "non-consecutive", "kropki-negative", "xv-negative"):
            rule = {
                "anti-knight": AntiKnight,
                "anti-king": AntiKing,
                "non-consecutive": NonConsecutive,
                "kropki-negative": KropkiNegative,
                "xv-negative": XVNegative,
            }[kind]()
            partner = {"kropki-negative": "kropki", "xv-negative": "xv"}.get(kind)
            return [rule, *(self.make(partner) if partner and draw(st.booleans()) else [])]
        if kind == "killer":
            cage = self.walk(ORTHOGONAL, n, lambda p, j: s is None or s[j] not in self.digits(p))
            total = sum(self.digits(cage)) if self.true() else draw(st.none() | st.integers(1, n * len(cage)))
            return [Killer(self.cells(cage), total=total)]
        if kind == "little-killer":
            r, c = divmod(self.cell(), n)
            dr, dc = draw(st.sampled_from(((1, 1), (1, -1), (-1, 1), (-1, -1))))
            line = [(r, c)]
            while len(line) < n and 0 <= line[-1][0] + dr < n and 0 <= line[-1][1] + dc < n:
                line.append((line[-1][0] + dr, line[-1][1] + dc))
            indexes = [a * n + b for a, b in line]
            total = sum(self.digits(indexes)) if self.true() else draw(st.integers(1, n * len(line)))
            return [LittleKiller(line, total=total)]
        if kind == "sandwich":
            axis, index = draw(st.sampled_from(("row", "column"))), draw(_index(n))
            largest = n * (n + 1) // 2 - 1 - n
            if self.true():
                line = self.digits([index * n + k if axis == "row" else k * n + index for k in range(n)])
                a, b = sorted((line.index(1), line.index(n)))
                total = sum(line[a + 1 : b])
            else:
                total = draw(st.integers(0, largest))
            return [Sandwich(axis, index, total)]
        if kind == "x-sum":
            side, index = draw(st.sampled_from(("left", "right", "top", "bottom"))), draw(_index(n))
            line = XSum(side, index, 1).line_cells(n)
            if self.true():
                digits = self.digits([r * n + c for r, c in line])
                total = sum(digits[: digits[0]])
            else:
                total = draw(st.integers(1, n * (n + 1) // 2))
            return [XSum(side, index, total)]
        if kind == "skyscraper":
            side, index = draw(st.sampled_from(("left", "right", "top", "bottom"))), draw(_index(n))
            line = Skyscraper(side, index, 1).line_cells(n)
            if self.true():
                digits = self.digits([r * n + c for r, c in line])
                count = sum(d > max(digits[:k], default=0) for k, d in enumerate(digits))
            else:
                count = draw(st.integers(1, n))
            return [Skyscraper(side, index, count)]
        if kind == "indexer":
            axis = draw(st.sampled_from(("row", "column", "box")))
            picked = draw(st.lists(_index(n * n), min_size=1, max_size=3, unique=True))
            if self.true():
                board = Grid(s, Shape.for_side(n), validate=False)  # type: ignore[arg-type]
                kept = [i for i in picked if Indexer(axis, [divmod(i, n)]).violation(s, board) is None]  # type: ignore[arg-type]
                picked = kept or picked
            return [Indexer(axis, self.cells(picked))]
        if kind == "thermometer":
            return [Thermometer(self.cells(self.line(lambda p, j: s[j] > s[p[-1]])))]  # type: ignore[index]
        if kind == "slow-thermometer":
            return [SlowThermometer(self.cells(self.line(lambda p, j: s[j] >= s[p[-1]])))]  # type: ignore[index]
        if kind == "arrow":
            return [self.arrow()]
        if kind == "kropki":
            pair = self.pair()
            color = draw(st.sampled_from(("white", "black")))
            if self.true():
                a, b = self.digits(pair)
                color = "white" if abs(a - b) == 1 else "black" if a == 2 * b or b == 2 * a else color
            return [Kropki(color, self.cells(pair))]
        if kind == "xv":
            pair = self.pair()
            letter = draw(st.sampled_from(("X", "V")))
            if self.true():
                total = sum(self.digits(pair))
                letter = "X" if total == 10 else "V" if total == 5 else letter
            return [XV(letter, self.cells(pair))]
        if kind == "odd-even":
            i = self.cell()
            parity = draw(st.sampled_from(("odd", "even")))
            if self.true():
                parity = "odd" if s[i] % 2 else "even"  # type: ignore[index]
            return [OddEven(divmod(i, n), parity)]
        if kind == "renban":

            def run(p: list[int], j: int) -> bool:
                digits = {*self.digits(p), s[j]}  # type: ignore[index]
                return len(digits) == len(p) + 1 and max(digits) - min(digits) <= len(p)

            return [Renban(self.cells(self.line(run)))]
        if kind == "whisper":
            gap = draw(st.integers(1, n // 2 + 1))
            return [Whisper(self.cells(self.line(lambda p, j: abs(s[j] - s[p[-1]]) >= gap)), difference=gap)]  # type: ignore[index]
        if kind == "palindrome":
            line = self.line()
            if self.true() and len(line) >= 3:
                line = line[:3]  # a short line whose ends hold the same digit, when the grid has one here
                r, c = divmod(line[1], n)
                twins = [
                    (line[0], j)
                    for dr, dc in STEPS
                    if 0 <= r + dr < n and 0 <= c + dc < n
                    for j in [(r + dr) * n + c + dc]
                    if j != line[0] and s[j] == s[line[0]]  # type: ignore[index]
                ]
                if twins:
                    line = [twins[0][0], line[1], twins[0][1]]
            return [Palindrome(self.cells(line))]
        if kind == "quadruple":
            r, c = draw(_index(n - 1)), draw(_index(n - 1))
            square = [r * n + c, r * n + c + 1, (r + 1) * n + c, (r + 1) * n + c + 1]
            k = draw(st.integers(1, 4))
            if self.true():  # digits the grid has there, a repeat listed twice when drawn
                digits = [self.digits(square)[j] for j in draw(st.permutations(range(4)))[:k]]
            else:
                digits = draw(st.lists(st.integers(1, n), min_size=k, max_size=k))
            return [Quadruple(self.cells(square), digits)]
        if kind == "clone":
            cells = self.cells(self.walk(STEPS, 3))
            moves = [
                (dr, dc)
                for dr in range(1 - n, n)
                for dc in range(1 - n, n)
                if (dr, dc) != (0, 0) and all(0 <= r + dr < n and 0 <= c + dc < n for r, c in cells)
            ]
            if self.true():  # a move whose copy holds the same digits, when the grid has one
                same = [m for m in moves if all(s[r * n + c] == s[(r + m[0]) * n + c + m[1]] for r, c in cells)]  # type: ignore[index]
                moves = same or moves
            dr, dc = draw(st.sampled_from(moves))
            return [Clone(cells, [(r + dr, c + dc) for r, c in cells])]
        if kind == "disjoint-groups":
            return [DisjointGroups()]
        if kind == "min-max":
            i = self.cell()
            rule = MinMax(divmod(i, n), draw(st.sampled_from(("minimum", "maximum"))))
            if self.true():  # the extreme the grid has there, when it has one
                for extreme in ("minimum", "maximum"):
                    maybe = MinMax(divmod(i, n), extreme)
                    if all(maybe.holds(s[i], s[r * n + c]) for r, c in maybe.neighbours(n)):  # type: ignore[index]
                        rule = maybe
            return [rule]
        if kind == "pencil-marks":
            i = self.cell()
            digits = set(draw(st.lists(st.integers(1, n), min_size=1, max_size=n - 1)))
            if self.true():
                digits.add(s[i])  # type: ignore[index]
            return [PencilMarks(divmod(i, n), digits)]
        if kind == "between-line":
            path = self.line()
            if len(path) < 3:  # a third cell touching the line's last, not on it
                r, c = divmod(path[-1], n)
                path.append(
                    next(
                        (r + dr) * n + c + dc
                        for dr, dc in STEPS
                        if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr) * n + c + dc not in path
                    )
                )
            if self.true():  # cut where the grid's digits stop lying between the first cell's and the last's
                for end in range(len(path), 2, -1):
                    low, high = sorted(self.digits([path[0], path[end - 1]]))
                    if all(low < d < high for d in self.digits(path[1 : end - 1])):
                        path = path[:end]
                        break
            return [BetweenLine(self.cells(path))]
        if kind == "nabner-line":
            far = lambda p, j: all(abs(s[j] - s[i]) >= 2 for i in p)  # type: ignore[index]  # noqa: E731
            return [NabnerLine(self.cells(self.line(far, longest=(n + 1) // 2)))]
        if kind == "lockout-line":
            path = self.line()
            gap = draw(st.integers(1, n // 2))
            if self.true():
                ends = self.digits([path[0], path[-1]])
                gap = max(1, min(gap, abs(ends[0] - ends[1])))
            return [LockoutLine(self.cells(path), difference=gap)]
        if kind in ("zipper-line", "double-arrow"):
            path = self.line()
            if len(path) < 3:  # a third cell touching the line's last, not on it
                r, c = divmod(path[-1], n)
                path.append(
                    next(
                        (r + dr) * n + c + dc
                        for dr, dc in STEPS
                        if 0 <= r + dr < n and 0 <= c + dc < n and (r + dr) * n + c + dc not in path
                    )
                )
            return [(ZipperLine if kind == "zipper-line" else DoubleArrow)(self.cells(path))]
        if kind == "region-sum-line":
            return [RegionSumLine(self.cells(self.line()))]
        if kind in ("entropic-line", "modular-line"):
            third = n // 3

            def apart(p: list[int], j: int) -> bool:
                if kind == "modular-line":
                    return all(s[j] % 3 != s[i] % 3 for i in p[-2:])  # type: ignore[index]
                return all((s[j] - 1) // third != (s[i] - 1) // third for i in p[-2:])  # type: ignore[index]

            path = self.line(apart)
            if len(path) < 3:
                path = self.walk(STEPS, 3)
            if len(path) < 3:  # a corner hemmed in: a straight run of three from it
                r, c = divmod(path[0], n)
                path = [r * n + (c + k if c + 2 < n else c - k) for k in range(3)]
            return [(EntropicLine if kind == "entropic-line" else ModularLine)(self.cells(path))]
        raise AssertionError(f"no drawing for {kind}")

    def arrow(self) -> Arrow:
        """An arrow leaving a one-cell circle (or a two-cell one on 6x6); when true, its cells never pass the circle."""
        draw, n = self.draw, self.n
        circle = self.pair() if n >= 6 and draw(st.booleans()) else [self.cell()]
        ok = None
        if self.true():
            target = int("".join(map(str, self.digits(circle))))
            ok = lambda p, j: sum(self.digits([*p[1:], j])) <= target  # noqa: E731
        path = [i for i in self.walk(STEPS, n, ok, start=circle[-1]) if i not in circle]
        if not path:  # a circle in a corner hemmed in by its other cell: any other cell
            path = [next(i for i in range(n * n) if i not in circle)]
        return Arrow(self.cells(circle), self.cells(path))


@st.composite
def instances(draw: st.DrawFn, kind: str) -> Instance:
    """A 4x4 or 6x6 puzzle with constraints of ``kind`` (or jigsaw regions), a few of other drawn kinds, and givens."""
    shape = draw(st.sampled_from([s for s in SHAPES if s.n % 3 == 0] if kind in THIRDS else SHAPES))
    n = shape.n
    jigsaw = kind == JIGSAW or draw(st.sampled_from((False, False, False, True)))
    if jigsaw:
        regions = draw(jigsaw_regions(shape))
        solution = first_solution(shape, regions, draw(st.permutations(range(1, n + 1))))
        # 6x6 regions with no solution at all cost the plainer engines seconds to rule out: 4x4 ones bring those.
        assume(solution is not None or n == 4)
    else:
        regions, solution = None, draw(solved_grids(shape)).cells
    # The kind asked for, one to three times (cages, lines and dots interact), then up to two others.
    forced = [] if kind == JIGSAW else [kind] * draw(st.integers(1, 3))
    others = draw(st.lists(st.sampled_from(sorted(set(KINDS) - (THIRDS if n % 3 else set()))), max_size=2, unique=True))
    drawer = Drawer(draw, n, solution)
    rules: list[Constraint] = []
    for k in [*forced, *others]:
        rules += drawer.make(k)
    rules = list(dict.fromkeys(rules))
    cells = [0] * (n * n)
    if solution is not None:
        # A 6x6 board keeps a third of its cells or more: a false clue on an empty one is slow to rule out.
        least = 0 if n == 4 else n * n // 3
        kept = draw(st.lists(_index(n * n), min_size=least, max_size=n * n * 2 // 3, unique=True))
        for i in kept:
            cells[i] = solution[i]
    try:
        puzzle = Grid(cells, shape, regions=regions, constraints=rules)
    except VariantError:  # two dots of one kind on one pair, drawn by two kinds
        assume(False)
        raise
    return Instance(puzzle, solution)


# --- the property ----------------------------------------------------------------------------------------


@cache
def engine(name: str) -> Strategy:
    """One instance per engine for the whole file (python-constraint starts its worker process once)."""
    return get_strategy(name)


def counts(puzzle: Grid) -> dict[str, Result]:
    """Every engine's count of ``puzzle`` (up to LIMIT), for the engines that take its kinds."""
    out = {}
    for name in ENGINES:
        strategy = engine(name)
        if puzzle.kinds <= capabilities_of(strategy).constraints:
            out[name] = solve(puzzle, strategy, limit=LIMIT, keep=1, time_limit=TIME_LIMIT)
    return out


@pytest.mark.parametrize("kind", sorted(ALL_KINDS))
@AGREE
@given(data=st.data())
def test_every_pair_of_engines_agrees_on_the_count(kind: str, data: st.DataObject) -> None:
    instance = data.draw(instances(kind), label="instance")
    puzzle = instance.puzzle
    assert kind in puzzle.kinds
    results = counts(puzzle)
    assert len(results) >= 2, f"fewer than two engines take {sorted(puzzle.kinds)}: {sorted(results)}"
    for name, result in results.items():
        assert result.status in (Status.SOLVED, Status.UNSOLVABLE), f"{name}: {result.status.value} {result.error}"
    for (a, ra), (b, rb) in combinations(results.items(), 2):
        assert (ra.count, ra.exact) == (rb.count, rb.exact), (
            f"{a} counts {ra.count} (exact {ra.exact}), {b} counts {rb.count} (exact {rb.exact}) on {puzzle!r}"
        )
    if (
        instance.solution is not None
        and solution_problem(puzzle, Grid(instance.solution, puzzle.shape, validate=False)) is None
    ):
        # Every clue came out true of the grid the givens were taken from: that grid is a solution.
        for name, result in results.items():
            assert result.count >= 1, f"{name} finds no solution of {puzzle!r}, which {instance.solution} solves"
