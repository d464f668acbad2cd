"""Make ``src/sudokit/testing/data/variants.txt``: small variant puzzles of every kind with exact counts.

Every puzzle is a 4x4 board, so its solutions are counted by brute force here, over all 576 Latin
squares of order 4, keeping those whose regions (the 2x2 boxes or a jigsaw's) hold 1..4 and that
keep every rule (``Constraint.violation``, the checker's own words). No engine takes part. Per kind,
the rules are drawn true of a random solved grid, then givens of that grid are added until the count
falls to one; puzzles stopping at 2..40 solutions and puzzles with none (the givens of another grid)
are kept too. Global rules with no 4x4 solution (anti-king, non-consecutive, the negative kropki
rule without dots) give count-0 puzzles.

Usage: python tools/make_kit_variants.py > src/sudokit/testing/data/variants.jsonl
"""

from __future__ import annotations

import itertools
import json
import random
import sys
from collections.abc import Callable

from sudokit import Grid, Shape
from sudokit.model.variants import (
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
    to_dict,
)

N = 4
SEED = 20261122
BOXES = "1122112233443344"
JIGSAWS = ("1112122233343444", "1122133213324444", "1111222233334444")
LATIN = [
    a + b + c + d
    for a, b, c, d in itertools.product(itertools.permutations(range(1, N + 1)), repeat=N)
    if all(len({(a + b + c + d)[r * N + k] for r in range(N)}) == N for k in range(N))
]


def regions_ok(g: tuple[int, ...], regions: str) -> bool:
    return all(len({g[i] for i in range(N * N) if regions[i] == s}) == N for s in set(regions))


def solutions(puzzle: Grid, regions: str) -> list[tuple[int, ...]]:
    """Every solution of ``puzzle`` by brute force over the Latin squares."""
    out = []
    for g in LATIN:
        if any(v and v != g[i] for i, v in enumerate(puzzle.cells)) or not regions_ok(g, regions):
            continue
        if all(rule.violation(g, puzzle) is None for rule in puzzle.constraints):
            out.append(g)
    return out


def touching(cell: tuple[int, int]) -> list[tuple[int, int]]:
    r, c = cell
    return [
        (r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr or dc) and 0 <= r + dr < N and 0 <= c + dc < N
    ]


def path(rng: random.Random, g: tuple[int, ...], length: int, ok: Callable[[list[int]], bool]) -> list | None:
    """A random line of touching cells whose digits in ``g`` satisfy ``ok`` (tried a few times)."""
    for _ in range(60):
        cells = [(rng.randrange(N), rng.randrange(N))]
        while len(cells) < length:
            options = [c for c in touching(cells[-1]) if c not in cells]
            if not options:
                break
            cells.append(rng.choice(options))
        if len(cells) == length and ok([g[r * N + c] for r, c in cells]):
            return cells
    return None


def value(g: tuple[int, ...], cell: tuple[int, int]) -> int:
    return g[cell[0] * N + cell[1]]


def adjacent_pairs(rng: random.Random) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    pairs = [((r, c), (r, c + 1)) for r in range(N) for c in range(N - 1)]
    pairs += [((r, c), (r + 1, c)) for r in range(N - 1) for c in range(N)]
    rng.shuffle(pairs)
    return pairs


def rules_for(kind: str, rng: random.Random, g: tuple[int, ...]) -> list[Constraint] | None:
    """One to three rules of ``kind`` that the solved grid ``g`` keeps (None when none could be drawn)."""
    if kind == "diagonal":
        return [Diagonal(rng.choice(("main", "anti")))]
    if kind in ("anti-knight", "anti-king", "non-consecutive"):
        return [{"anti-knight": AntiKnight, "anti-king": AntiKing, "non-consecutive": NonConsecutive}[kind]()]
    if kind == "disjoint-groups":
        return [DisjointGroups()]
    out: list[Constraint] = []
    for _ in range(rng.randint(1, 3)):
        rule: Constraint | None = None
        if kind == "extra-region":
            cells = path(rng, g, rng.randint(2, 4), lambda d: len(set(d)) == len(d))
            rule = cells and ExtraRegion(cells)
        elif kind == "killer":
            cells = path(rng, g, rng.randint(2, 3), lambda d: len(set(d)) == len(d))
            rule = cells and Killer(cells, total=sum(value(g, c) for c in cells) if rng.random() < 0.8 else None)
        elif kind == "little-killer":
            r, c = rng.randrange(N - 1), rng.randrange(N - 1)
            length = rng.randint(2, N - max(r, c))
            cells = [(r + k, c + k) for k in range(length)]
            if rng.random() < 0.5:
                cells = [(r, N - 1 - c) for r, c in cells]
            rule = LittleKiller(cells, total=sum(value(g, x) for x in cells))
        elif kind == "sandwich":
            axis, index = rng.choice(("row", "column")), rng.randrange(N)
            line = [g[index * N + k] if axis == "row" else g[k * N + index] for k in range(N)]
            a, b = sorted((line.index(1), line.index(N)))
            rule = Sandwich(axis, index, sum(line[a + 1 : b]))
        elif kind == "x-sum":
            side, index = rng.choice(("left", "right", "top", "bottom")), rng.randrange(N)
            line = [value(g, c) for c in XSum(side, index, 1).line_cells(N)]
            rule = XSum(side, index, sum(line[: line[0]]))
        elif kind == "skyscraper":
            side, index = rng.choice(("left", "right", "top", "bottom")), rng.randrange(N)
            line = [value(g, c) for c in Skyscraper(side, index, 1).line_cells(N)]
            rule = Skyscraper(side, index, sum(d > max(line[:k], default=0) for k, d in enumerate(line)))
        elif kind == "indexer":
            axis = rng.choice(("row", "column", "box"))
            board = Grid(g, "2x2", validate=False)
            cells = [c for c in rng.sample(sorted(itertools.product(range(N), repeat=2)), 4)]
            cells = [c for c in cells if Indexer(axis, [c]).violation(g, board) is None][:3]
            rule = cells and Indexer(axis, cells)
        elif kind == "thermometer":
            cells = path(rng, g, rng.randint(2, 4), lambda d: all(x < y for x, y in itertools.pairwise(d)))
            rule = cells and Thermometer(cells)
        elif kind == "slow-thermometer":
            cells = path(rng, g, rng.randint(2, 4), lambda d: all(x <= y for x, y in itertools.pairwise(d)))
            rule = cells and SlowThermometer(cells)
        elif kind == "arrow":
            cells = path(rng, g, rng.randint(3, 4), lambda d: d[0] == sum(d[1:]))
            rule = cells and Arrow(cells[:1], cells[1:])
        elif kind == "kropki":
            for a, b in adjacent_pairs(rng):
                x, y = value(g, a), value(g, b)
                if abs(x - y) == 1 or x == 2 * y or y == 2 * x:
                    color = (
                        "white"
                        if abs(x - y) == 1 and (rng.random() < 0.5 or not (x == 2 * y or y == 2 * x))
                        else "black"
                    )
                    if any(set(r.cells) == {a, b} for r in out):  # type: ignore[attr-defined]
                        continue
                    rule = Kropki(color, [a, b])
                    break
        elif kind == "kropki-values":  # dots of any difference or ratio
            for a, b in adjacent_pairs(rng):
                x, y = sorted((value(g, a), value(g, b)))
                if any(set(r.cells) == {a, b} for r in out):  # type: ignore[attr-defined]
                    continue
                black = y % x == 0 and rng.random() < 0.5
                rule = Kropki("black", [a, b], y // x) if black else Kropki("white", [a, b], y - x)
                break
        elif kind == "xv-sums":  # XV clues of sums other than 5 (and 10, which no 4x4 pair reaches)
            for a, b in adjacent_pairs(rng):
                total = value(g, a) + value(g, b)
                if total != 5 and not any(set(r.cells) == {a, b} for r in out):  # type: ignore[attr-defined]
                    rule = XV(cells=[a, b], value=total)
                    break
        elif kind == "xv":
            for a, b in adjacent_pairs(rng):
                if value(g, a) + value(g, b) == 5 and not any(set(r.cells) == {a, b} for r in out):  # type: ignore[attr-defined]
                    rule = XV("V", [a, b])
                    break
        elif kind == "odd-even":
            cell = (rng.randrange(N), rng.randrange(N))
            rule = OddEven(cell, "odd" if value(g, cell) % 2 else "even")
        elif kind == "renban":
            cells = path(rng, g, rng.randint(2, 3), lambda d: len(set(d)) == len(d) and max(d) - min(d) == len(d) - 1)
            rule = cells and Renban(cells)
        elif kind == "whisper":
            cells = path(rng, g, rng.randint(2, 4), lambda d: all(abs(x - y) >= 2 for x, y in itertools.pairwise(d)))
            rule = cells and Whisper(cells, difference=2)
        elif kind == "palindrome":
            cells = path(rng, g, rng.randint(2, 4), lambda d: d == d[::-1])
            rule = cells and Palindrome(cells)
        elif kind == "quadruple":
            r, c = rng.randrange(N - 1), rng.randrange(N - 1)
            square = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
            rule = Quadruple(square, rng.sample([value(g, x) for x in square], rng.randint(1, 3)))
        elif kind == "clone":
            cells = path(rng, g, rng.randint(1, 2), lambda d: True)
            if cells:
                moves = [
                    (dr, dc)
                    for dr in range(1 - N, N)
                    for dc in range(1 - N, N)
                    if (dr, dc) != (0, 0)
                    and all(
                        0 <= r + dr < N and 0 <= c + dc < N and value(g, (r + dr, c + dc)) == value(g, (r, c))
                        for r, c in cells
                    )
                ]
                if moves:
                    dr, dc = rng.choice(moves)
                    rule = Clone(cells, [(r + dr, c + dc) for r, c in cells])
        elif kind == "min-max":
            cell = (rng.randrange(N), rng.randrange(N))
            for extreme in ("minimum", "maximum"):
                maybe = MinMax(cell, extreme)
                if all(maybe.holds(value(g, cell), value(g, x)) for x in maybe.neighbours(N)):
                    rule = maybe
        elif kind == "pencil-marks":
            cell = (rng.randrange(N), rng.randrange(N))
            rule = PencilMarks(cell, {value(g, cell), *rng.sample(range(1, N + 1), rng.randint(0, 2))})
        elif kind == "between-line":
            cells = path(
                rng, g, rng.randint(3, 4), lambda d: all(min(d[0], d[-1]) < x < max(d[0], d[-1]) for x in d[1:-1])
            )
            rule = cells and BetweenLine(cells)
        elif kind == "double-arrow":
            cells = path(rng, g, rng.randint(3, 4), lambda d: d[0] + d[-1] == sum(d[1:-1]))
            rule = cells and DoubleArrow(cells)
        elif kind == "nabner-line":
            cells = path(rng, g, 2, lambda d: abs(d[0] - d[1]) >= 2)
            rule = cells and NabnerLine(cells)
        elif kind == "lockout-line":
            board = Grid(g, "2x2", validate=False)
            cells = path(rng, g, rng.randint(2, 4), lambda d: abs(d[0] - d[-1]) >= 2)
            if cells and LockoutLine(cells, difference=2).violation(g, board) is None:
                rule = LockoutLine(cells, difference=2)
        elif kind == "zipper-line":
            board = Grid(g, "2x2", validate=False)
            cells = path(rng, g, rng.randint(3, 4), lambda d: True)
            if cells and ZipperLine(cells).violation(g, board) is None:
                rule = ZipperLine(cells)
        elif kind == "modular-line":
            cells = path(
                rng,
                g,
                rng.randint(3, 4),
                lambda d: all(len({x % 3 for x in d[k : k + 3]}) == 3 for k in range(len(d) - 2)),
            )
            rule = cells and ModularLine(cells)
        elif kind == "region-sum-line":
            board = Grid(g, "2x2", validate=False)
            cells = path(rng, g, rng.randint(2, 4), lambda d: True)
            candidate = cells and RegionSumLine(cells)
            if candidate and len(candidate.segments(board)) > 1 and candidate.violation(g, board) is None:
                rule = candidate
        if rule and rule not in out:
            out.append(rule)
    if kind == "kropki-negative":
        dots = [r for r in (rules_for("kropki", rng, g) or [])]
        marked = {frozenset(r.cells) for r in dots}
        for a, b in adjacent_pairs(rng):  # every true dot must be given under the negative rule
            x, y = value(g, a), value(g, b)
            if frozenset((a, b)) not in marked and (abs(x - y) == 1 or x == 2 * y or y == 2 * x):
                dots.append(Kropki("white" if abs(x - y) == 1 else "black", [a, b]))
                marked.add(frozenset((a, b)))
        return [*dots, KropkiNegative()]
    if kind in ("kropki-negative-white", "kropki-negative-black"):  # the negative rule of one colour alone
        color = kind.rsplit("-", 1)[1]
        marks = [
            Kropki(color, [a, b])
            for a, b in adjacent_pairs(rng)
            if Kropki(color, [a, b]).holds(value(g, a), value(g, b))
        ]
        return [*marks, KropkiNegative(color)]
    if kind == "xv-negative":
        marks = [XV("V", [a, b]) for a, b in adjacent_pairs(rng) if value(g, a) + value(g, b) == 5]
        return [*marks, XVNegative()]
    return out or None


KINDS = [
    "extra-region",
    "diagonal",
    "anti-knight",
    "anti-king",
    "non-consecutive",
    "killer",
    "little-killer",
    "sandwich",
    "thermometer",
    "slow-thermometer",
    "arrow",
    "kropki",
    "kropki-negative",
    "xv",
    "xv-negative",
    "odd-even",
    "renban",
    "whisper",
    "palindrome",
    "x-sum",
    "skyscraper",
    "indexer",
]
#: Kinds added since: drawn after jigsaw, so that the records of the kinds above stay as they were.
CELL_KINDS = [
    "quadruple",
    "pencil-marks",
    "min-max",
    "disjoint-groups",
    "clone",
]
#: Kinds added since: each drawn with a random generator of its own (seeded by its name) after the others, so that
#: adding one leaves every earlier puzzle as it was.
LATER_KINDS = [
    "between-line",
    "region-sum-line",
    "modular-line",
    "zipper-line",
    "lockout-line",
    "nabner-line",
    "double-arrow",
]


#: Puzzles of kinds above with more to them: dots of any value, the negative rule of one colour alone.
MORE = ["kropki-values", "kropki-negative-white", "kropki-negative-black"]


def puzzles(rng: random.Random, kinds: list[str] | None = None) -> list[tuple[Grid, int, tuple[int, ...] | None]]:
    """Two puzzles of each of ``kinds`` (KINDS and jigsaw) with one solution, two with several, two with none."""
    found: dict[str, list] = {}
    for kind in [*KINDS, "jigsaw", *CELL_KINDS, *MORE] if kinds is None else kinds:
        bucket: dict[str, list] = {"one": [], "several": [], "none": []}
        for _ in range(400):
            if all(len(v) >= 2 for v in bucket.values()):
                break
            regions = rng.choice(JIGSAWS) if kind == "jigsaw" else BOXES
            grids = [g for g in LATIN if regions_ok(g, regions)]
            g = rng.choice(grids)
            rules = [] if kind == "jigsaw" else rules_for(kind, rng, g)
            if rules is None:
                continue
            cells = [0] * (N * N)
            base = Grid(cells, "2x2", regions=None if regions == BOXES else regions, constraints=rules)
            found_grid = base
            order = list(range(N * N))
            rng.shuffle(order)
            target = rng.choice(("one", "several", "none"))
            source = g if target != "none" else rng.choice(grids)
            sols = solutions(base, regions)
            for i in order:
                if target == "one" and len(sols) <= 1:
                    break
                if target == "several" and 2 <= len(sols) <= 40:
                    break
                if target == "none" and not sols:
                    break
                cells[i] = source[i]
                try:
                    found_grid = base.with_cells(cells)
                except ValueError:
                    cells[i] = 0
                    continue
                sols = solutions(found_grid, regions)
            count = len(sols)
            kind_of = "one" if count == 1 else "none" if count == 0 else "several" if count <= 40 else None
            if kind_of and len(bucket[kind_of]) < 2 and all(p != found_grid for p, _, _ in bucket[kind_of]):
                bucket[kind_of].append((found_grid, count, sols[0] if count == 1 else None))
        found[kind] = [p for v in bucket.values() for p in v]
    return [p for kind in found for p in found[kind]]


def later_puzzles() -> list[tuple[Grid, int, tuple[int, ...] | None]]:
    """The puzzles of LATER_KINDS, each kind's from ``random.Random(f"{SEED}-{kind}")``, then SIX_KINDS' on 6x6, then
    LAST_KINDS' (so that adding them left every record before theirs as it was)."""
    out = [p for kind in LATER_KINDS for p in puzzles(random.Random(f"{SEED}-{kind}"), [kind])]
    out += [p for kind in SIX_KINDS for p in puzzles_6x6(random.Random(f"{SEED}-{kind}"), kind)]
    return out + [p for kind in LAST_KINDS for p in puzzles(random.Random(f"{SEED}-{kind}"), [kind])]


#: Puzzles of kinds above with more to them, made last: XV clues of sums other than 5 and 10.
LAST_KINDS = ["xv-sums"]


#: Kinds no 4x4 board takes (their digits split into thirds): 6x6 puzzles, counted by a search of the completions.
SIX_KINDS = ["entropic-line"]
SIX = Shape.of(2, 3)


def completions_6x6(cells: list[int], rules: list[Constraint], limit: int) -> list[tuple[int, ...]]:
    """The solutions of a 6x6 puzzle (up to ``limit``): every completion of the givens keeping rows, columns and
    boxes, kept when every rule's ``violation`` accepts it. No engine takes part."""
    n, box_of = 6, SIX.box_of
    grid = Grid(cells, SIX, constraints=rules)
    board = list(cells)
    rows, cols, boxes = [set() for _ in range(n)], [set() for _ in range(n)], [set() for _ in range(n)]
    for i, v in enumerate(board):
        if v:
            rows[i // n].add(v), cols[i % n].add(v), boxes[box_of[i]].add(v)
    blanks = [i for i, v in enumerate(board) if not v]
    out: list[tuple[int, ...]] = []

    def fill(k: int) -> None:
        if len(out) >= limit:
            return
        if k == len(blanks):
            if all(rule.violation(board, grid) is None for rule in rules):
                out.append(tuple(board))
            return
        i = blanks[k]
        r, c, b = i // n, i % n, box_of[i]
        for d in range(1, n + 1):
            if d not in rows[r] and d not in cols[c] and d not in boxes[b]:
                board[i] = d
                rows[r].add(d), cols[c].add(d), boxes[b].add(d)
                fill(k + 1)
                rows[r].discard(d), cols[c].discard(d), boxes[b].discard(d)
        board[i] = 0

    fill(0)
    return out


def rules_6x6(kind: str, rng: random.Random, g: tuple[int, ...]) -> list[Constraint]:
    """One to three lines of ``kind`` that the solved 6x6 grid ``g`` keeps."""
    out: list[Constraint] = []
    for _ in range(200):
        if len(out) == rng.randint(1, 3):
            break
        cells = [(rng.randrange(6), rng.randrange(6))]
        while len(cells) < rng.randint(3, 5):
            r, c = cells[-1]
            options = [
                (r + dr, c + dc)
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
                if 0 <= r + dr < 6 and 0 <= c + dc < 6 and (r + dr, c + dc) not in cells
            ]
            cells.append(rng.choice(options))
        rule = {"entropic-line": EntropicLine}[kind](cells)
        if rule not in out and rule.violation(g, Grid(g, SIX, validate=False)) is None:
            out.append(rule)
    return out


def puzzles_6x6(rng: random.Random, kind: str) -> list[tuple[Grid, int, tuple[int, ...] | None]]:
    """Two 6x6 puzzles of ``kind`` with one solution, two with several (2..40), two with none (mostly other givens)."""
    bucket: dict[str, list] = {"one": [], "several": [], "none": []}
    for _ in range(400):
        if all(len(v) >= 2 for v in bucket.values()):
            break
        g = random_6x6(rng)
        rules = rules_6x6(kind, rng, g)
        source = g if rng.random() < 0.7 else random_6x6(rng)
        cells = [0] * 36
        for i in rng.sample(range(36), rng.randint(16, 24)):
            cells[i] = source[i]
        try:
            puzzle = Grid(cells, SIX, constraints=rules)
        except ValueError:
            continue
        sols = completions_6x6(cells, rules, 41)
        count = len(sols)
        kind_of = "one" if count == 1 else "none" if count == 0 else "several" if count <= 40 else None
        if kind_of and len(bucket[kind_of]) < 2 and all(p != puzzle for p, _, _ in bucket[kind_of]):
            bucket[kind_of].append((puzzle, count, sols[0] if count == 1 else None))
    return [p for v in bucket.values() for p in v]


def random_6x6(rng: random.Random) -> tuple[int, ...]:
    """A random solved 6x6 grid: the first completion of the empty board, relabelled, its bands of two rows and stacks
    of three columns shuffled, and the rows and columns within them."""
    base = completions_6x6([0] * 36, [], 1)[0]
    relabel = dict(zip(range(1, 7), rng.sample(range(1, 7), 6), strict=True))
    rows = [2 * band + k for band in rng.sample([0, 1, 2], 3) for k in rng.sample([0, 1], 2)]
    cols = [3 * stack + k for stack in rng.sample([0, 1], 2) for k in rng.sample([0, 1, 2], 3)]
    return tuple(relabel[base[r * 6 + c]] for r in rows for c in cols)


def main() -> None:
    rng = random.Random(SEED)
    out = sys.stdout
    out.write("# 4x4 variant puzzles with exact counts (tools/make_kit_variants.py, seed 20261122): JSON per line\n")
    for puzzle, count, solution in puzzles(rng) + later_puzzles():
        record = {"puzzle": to_dict(puzzle), "count": count}
        if solution is not None:
            record["solution"] = "".join(map(str, solution))
        out.write(json.dumps(record, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
