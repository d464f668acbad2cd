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

from sudokit import Grid
from sudokit.model.variants import (
    XV,
    AntiKing,
    AntiKnight,
    Arrow,
    Constraint,
    Diagonal,
    ExtraRegion,
    Indexer,
    Killer,
    Kropki,
    KropkiNegative,
    LittleKiller,
    NonConsecutive,
    OddEven,
    Palindrome,
    Renban,
    Sandwich,
    Skyscraper,
    SlowThermometer,
    Thermometer,
    Whisper,
    XSum,
    XVNegative,
    to_dict,
)

N = 4
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


#: Puzzles of kinds above with more to them: dots of any value, the negative rule of one colour alone.
MORE = ["kropki-values", "kropki-negative-white", "kropki-negative-black"]


def puzzles(rng: random.Random) -> list[tuple[Grid, int, tuple[int, ...] | None]]:
    found: dict[str, list] = {}
    # Dots of other values and the negative rule of one colour come last: the records before them stay as they were.
    for kind in [*KINDS, "jigsaw", *MORE]:
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


def main() -> None:
    rng = random.Random(20261122)
    out = sys.stdout
    out.write("# 4x4 variant puzzles with exact counts (tools/make_kit_variants.py, seed 20261122): JSON per line\n")
    for puzzle, count, solution in puzzles(rng):
        record = {"puzzle": to_dict(puzzle), "count": count}
        if solution is not None:
            record["solution"] = "".join(map(str, solution))
        out.write(json.dumps(record, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
