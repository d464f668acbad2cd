"""backtrack on 9x9 variant puzzles: seconds per puzzle, kind by kind (issue 10's target: each under 5 s).

Two sets, both timed here with ``limit=2`` (the solution and the proof that it is the only one):

* the variant corpus, ``puzzles/variants/corpus.txt`` (made with CP-SAT by tools/make_variant_corpus.py),
  when it is there: every 9x9 puzzle, its answer checked against ``answers.txt``;
* puzzles made here, one per kind (and a few mixes), from a seed: a solved grid under the kind's
  global rules (a plain backtrack solve of the empty board from a few drawn givens), clues read off
  it (killer cages over the whole board, every little killer diagonal and sandwich, thermometers,
  arrows and lines along drawn paths, every kropki dot and X/V, a parity on each cell), givens
  added until the solution is unique, then givens and clues taken away in a drawn order while it
  stays unique. cp-sat decides that (``--decider backtrack`` for backtrack itself, which biases the
  set: what backtrack cannot settle in ``MAKE_TIME_LIMIT`` stays); what it cannot settle in that time
  stays. The result is counted by cp-sat too (its count and solution must agree).

    python benchmarks/bench_backtrack_variants.py                 # both sets
    python benchmarks/bench_backtrack_variants.py --only killer,arrow --reps 3
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from sudokit import Grid, Shape, Status, capabilities_of, get_strategy, solution_problem
from sudokit.model import variants as v
from sudokit.model.variants import Constraint

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "puzzles" / "variants" / "corpus.txt"
ANSWERS = ROOT / "puzzles" / "variants" / "answers.txt"
ENGINE = get_strategy("backtrack")
SHAPE = Shape.parse("3x3")
N = 9
#: Seconds the deciding engine gets for one count while a puzzle is made (past it, the given or clue stays).
MAKE_TIME_LIMIT = 5.0

Values = list[int]


# --- the solved grid -------------------------------------------------------------------------------


def grow_regions(rng: random.Random) -> list[list[int]]:
    """Nine regions of nine orthogonally connected cells, grown from drawn seeds until they fill the board."""
    while True:
        owner = [-1] * 81
        for k, seed in enumerate(rng.sample(range(81), N)):
            owner[seed] = k
        sizes = [1] * N
        stuck = 0
        while -1 in owner and stuck < 2000:
            k = rng.choice([k for k in range(N) if sizes[k] < N])
            edge = [j for i in range(81) if owner[i] == k for j in neighbours(i) if owner[j] < 0]
            if not edge:
                stuck += 1
                continue
            owner[rng.choice(edge)] = k
            sizes[k] += 1
        if -1 not in owner:
            return [[i for i in range(81) if owner[i] == k] for k in range(N)]


def neighbours(i: int) -> list[int]:
    r, c = divmod(i, N)
    return [rr * N + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if 0 <= rr < N and 0 <= cc < N]


def touching(i: int) -> list[int]:
    r, c = divmod(i, N)
    return [
        rr * N + cc
        for rr in (r - 1, r, r + 1)
        for cc in (c - 1, c, c + 1)
        if (rr, cc) != (r, c) and 0 <= rr < N and 0 <= cc < N
    ]


def solved_grid(rng: random.Random, regions: list[list[int]] | None, rules: list[Constraint]) -> Values:
    """A solution of the empty board under ``regions`` and ``rules``, from a few drawn givens."""
    while True:
        cells = [0] * 81
        for i in rng.sample(range(81), 7):
            cells[i] = rng.randint(1, N)
        try:
            puzzle = Grid(cells, SHAPE, regions=regions, constraints=rules)
        except v.VariantError:
            raise
        except Exception:  # drawn givens that repeat in a unit
            continue
        result = ENGINE.solve(puzzle, time_limit=MAKE_TIME_LIMIT)
        if result.solution is not None:
            return list(result.solution.cells)


# --- clues read off a solved grid ------------------------------------------------------------------


def cells_of(indexes: list[int]) -> list[tuple[int, int]]:
    return [divmod(i, N) for i in indexes]


def path(
    rng: random.Random, s: Values, length: int, ok: Callable[[list[int], int], bool], start: int | None = None
) -> list[int]:
    """A drawn path of touching cells from ``start``, up to ``length`` long, each step kept by ``ok(path, next)``."""
    line = [rng.randrange(81) if start is None else start]
    while len(line) < length:
        steps = [j for j in touching(line[-1]) if j not in line and ok(line, j)]
        if not steps:
            break
        line.append(rng.choice(steps))
    return line


def paths(rng: random.Random, s: Values, count: int, low: int, high: int, ok: Callable[[list[int], int], bool]) -> list:
    """``count`` drawn paths of ``low``..``high`` cells, not crossing each other."""
    out: list[list[int]] = []
    used: set[int] = set()
    for _ in range(2000):
        if len(out) == count:
            break
        line = path(rng, s, rng.randint(low, high), lambda p, j: j not in used and ok(p, j))
        if len(line) >= low and not used & set(line):
            out.append(line)
            used.update(line)
    return out


def killer(rng: random.Random, s: Values) -> list[Constraint]:
    owner = [-1] * 81
    cages: list[list[int]] = []
    for start in rng.sample(range(81), 81):
        if owner[start] >= 0:
            continue
        cage = [start]
        owner[start] = len(cages)
        size = rng.choice((2, 2, 3, 3, 3, 4, 4, 5))
        while len(cage) < size:
            edge = [j for i in cage for j in neighbours(i) if owner[j] < 0 and s[j] not in {s[c] for c in cage}]
            if not edge:
                break
            j = rng.choice(edge)
            owner[j] = len(cages)
            cage.append(j)
        cages.append(cage)
    return [v.Killer(cells_of(c), sum(s[i] for i in c)) for c in cages]


def little_killer(rng: random.Random, s: Values) -> list[Constraint]:
    out: list[Constraint] = []
    for dr, dc in ((1, 1), (1, -1)):
        for start in [(0, c) for c in range(N)] + [(r, 0 if dc == 1 else N - 1) for r in range(1, N)]:
            line = []
            r, c = start
            while 0 <= r < N and 0 <= c < N:
                line.append(r * N + c)
                r, c = r + dr, c + dc
            if 2 <= len(line) < N:
                out.append(v.LittleKiller(cells_of(line), sum(s[i] for i in line)))
    return out


def sandwich(rng: random.Random, s: Values) -> list[Constraint]:
    out: list[Constraint] = []
    for axis in ("row", "column"):
        for index in range(N):
            line = [s[index * N + k] if axis == "row" else s[k * N + index] for k in range(N)]
            a, b = sorted((line.index(1), line.index(N)))
            out.append(v.Sandwich(axis, index, sum(line[a + 1 : b])))
    return out


def thermometer(rng: random.Random, s: Values) -> list[Constraint]:
    return [v.Thermometer(cells_of(p)) for p in paths(rng, s, 8, 3, 7, lambda p, j: s[j] > s[p[-1]])]


def slow_thermometer(rng: random.Random, s: Values) -> list[Constraint]:
    return [v.SlowThermometer(cells_of(p)) for p in paths(rng, s, 8, 3, 7, lambda p, j: s[j] >= s[p[-1]])]


def arrow(rng: random.Random, s: Values) -> list[Constraint]:
    out: list[Constraint] = []
    used: set[int] = set()
    for _ in range(4000):
        if len(out) == 8:
            break
        circle = rng.randrange(81)
        if circle in used:
            continue
        starts = [j for j in touching(circle) if j not in used and s[j] < s[circle]]
        if not starts:
            continue
        taken = used | {circle}

        def ok(p: list[int], j: int, want: int = s[circle], taken: set[int] = taken) -> bool:
            return j not in taken and sum(s[i] for i in p) + s[j] <= want

        line = path(rng, s, 4, ok, start=rng.choice(starts))
        if len(line) >= 2 and sum(s[i] for i in line) == s[circle]:
            out.append(v.Arrow(cells_of([circle]), cells_of(line)))
            used.update([*line, circle])
    return out


def kropki(rng: random.Random, s: Values) -> list[Constraint]:
    out: list[Constraint] = []
    for a, b in v.orthogonal_pairs(N):
        x, y = s[a], s[b]
        colors = [c for c, ok in (("white", abs(x - y) == 1), ("black", x in (2 * y, y / 2))) if ok]
        if colors:
            out.append(v.Kropki(rng.choice(colors), cells_of([a, b])))
    return out


def xv(rng: random.Random, s: Values) -> list[Constraint]:
    letters = {10: "X", 5: "V"}
    return [v.XV(letters[s[a] + s[b]], cells_of([a, b])) for a, b in v.orthogonal_pairs(N) if s[a] + s[b] in letters]


def odd_even(rng: random.Random, s: Values) -> list[Constraint]:
    return [v.OddEven(divmod(i, N), "odd" if s[i] % 2 else "even") for i in range(81)]


def renban(rng: random.Random, s: Values) -> list[Constraint]:
    def ok(p: list[int], j: int) -> bool:
        digits = [s[i] for i in p] + [s[j]]
        return len(set(digits)) == len(digits) and max(digits) - min(digits) <= 4

    found = paths(rng, s, 30, 3, 5, ok)
    runs = [p for p in found if max(s[i] for i in p) - min(s[i] for i in p) == len(p) - 1]
    return [v.Renban(cells_of(p)) for p in runs[:8]]


def whisper(rng: random.Random, s: Values) -> list[Constraint]:
    return [v.Whisper(cells_of(p)) for p in paths(rng, s, 8, 3, 7, lambda p, j: abs(s[j] - s[p[-1]]) >= 5)]


def palindrome(rng: random.Random, s: Values) -> list[Constraint]:
    """Up to 8 lines that read the same both ways, apart from each other, from every such line of 3-5 cells."""
    found: list[list[int]] = []

    def extend(line: list[int]) -> None:
        if len(line) >= 3 and [s[i] for i in line] == [s[i] for i in reversed(line)]:
            found.append(line)
        if len(line) < 5:
            for j in touching(line[-1]):
                if j not in line:
                    extend([*line, j])

    for start in range(81):
        extend([start])
    out: list[Constraint] = []
    used: set[int] = set()
    for line in rng.sample(found, len(found)):
        if len(out) < 8 and not used & set(line):
            out.append(v.Palindrome(cells_of(line)))
            used.update(line)
    return out


CLUES: dict[str, Callable[[random.Random, Values], list[Constraint]]] = {
    "killer": killer,
    "little-killer": little_killer,
    "sandwich": sandwich,
    "thermometer": thermometer,
    "slow-thermometer": slow_thermometer,
    "arrow": arrow,
    "kropki": kropki,
    "xv": xv,
    "odd-even": odd_even,
    "renban": renban,
    "whisper": whisper,
    "palindrome": palindrome,
}
WINDOWS = [[(r + dr, c + dc) for dr in range(3) for dc in range(3)] for r in (1, 5) for c in (1, 5)]
GLOBAL: dict[str, list[Constraint]] = {
    "diagonal": [v.Diagonal("main"), v.Diagonal("anti")],
    "extra-region": [v.ExtraRegion(w) for w in WINDOWS],
    "anti-knight": [v.AntiKnight()],
    "anti-king": [v.AntiKing()],
    "non-consecutive": [v.NonConsecutive()],
}
NEGATIVE = {"kropki-negative": (v.KropkiNegative(), "kropki"), "xv-negative": (v.XVNegative(), "xv")}
#: name -> the kinds of its puzzle
SPECS: dict[str, tuple[str, ...]] = {
    **{kind: (kind,) for kind in CLUES},
    **{kind: (kind,) for kind in GLOBAL},
    **{kind: (kind,) for kind in NEGATIVE},
    "jigsaw": ("jigsaw",),
    "jigsaw-killer": ("jigsaw", "killer"),
    "killer-anti-knight": ("killer", "anti-knight"),
    "thermo-arrow-kropki": ("thermometer", "arrow", "kropki"),
    "sandwich-little-killer": ("sandwich", "little-killer"),
    "renban-whisper-palindrome": ("renban", "whisper", "palindrome"),
    "diagonal-anti-king-odd-even": ("diagonal", "anti-king", "odd-even"),
    "windoku-killer": ("extra-region", "killer"),
}


#: The engine that decides uniqueness while a puzzle is made (main() may make it cp-sat).
DECIDER = {"engine": ENGINE}


def unique_count(puzzle: Grid) -> tuple[int, list[Grid]] | None:
    """(count up to 2, the solutions) by the deciding engine, or None when it does not settle it in time."""
    result = DECIDER["engine"].solve(puzzle, limit=2, time_limit=MAKE_TIME_LIMIT)
    if result.status is Status.TIMEOUT:
        return None
    return result.count, list(result.solutions)


def make(name: str, kinds: tuple[str, ...], seed: str) -> tuple[Grid, Values]:
    """A unique 9x9 puzzle of ``kinds`` and its solution, thinned while backtrack keeps it unique."""
    rng = random.Random(f"{seed}/{name}")
    regions = grow_regions(rng) if "jigsaw" in kinds else None
    fixed: list[Constraint] = [rule for kind in kinds for rule in GLOBAL.get(kind, [])]
    s = solved_grid(rng, regions, fixed)
    clues: list[Constraint] = []
    for kind in kinds:
        if kind in CLUES:
            clues += CLUES[kind](rng, s)
        elif kind in NEGATIVE:
            rule, base = NEGATIVE[kind]
            fixed.append(rule)
            clues += CLUES[base](rng, s)
    if any(kind in NEGATIVE for kind in kinds):  # a negative rule needs every dot: none is thinned
        fixed += clues
        clues = []
    cells = [0] * 81

    def puzzle(cells: Values, clues: list[Constraint]) -> Grid:
        return Grid(cells, SHAPE, regions=regions, constraints=fixed + clues)

    while True:  # givens where two solutions differ, until one is left
        counted = unique_count(puzzle(cells, clues))
        if counted is None:  # too slow to settle: give a drawn cell of the solution
            i = rng.choice([i for i in range(81) if not cells[i]])
        elif counted[0] == 1:
            break
        else:
            a, b = counted[1][0].cells, counted[1][1].cells
            i = rng.choice([i for i in range(81) if a[i] != b[i]])
        cells[i] = s[i]
    for i in rng.sample(range(81), 81):  # thin the givens, then the clues
        if cells[i]:
            trial = cells[:]
            trial[i] = 0
            counted = unique_count(puzzle(trial, clues))
            if counted is not None and counted[0] == 1:
                cells = trial
    for rule in rng.sample(clues, len(clues)):
        fewer = [c for c in clues if c != rule]
        if sum(c.kind == rule.kind for c in fewer) == 0:
            continue  # the last clue of its kind stays
        counted = unique_count(puzzle(cells, fewer))
        if counted is not None and counted[0] == 1:
            clues = fewer
    return puzzle(cells, clues), s


def cross_check(puzzle: Grid, solution: Values) -> str:
    """cp-sat's word on the puzzle: 'agrees', 'n/a' (absent or lacking a kind), or what differs."""
    try:
        engine = get_strategy("cp-sat")
    except Exception:
        return "n/a"
    if not puzzle.kinds <= capabilities_of(engine).constraints:
        return "n/a"
    result = engine.solve(puzzle, limit=2, time_limit=60)
    if result.count == 1 and result.exact and list(result.solutions[0].cells) == solution:
        return "agrees"
    return f"DIFFERS ({result.status.value}, count {result.count}, exact {result.exact})"


#: Seconds backtrack gets for one timed count (past it, the count shows as -1 and the time as this limit).
TIME_LIMIT = 60.0


def time_it(puzzle: Grid, reps: int) -> tuple[float, float, int]:
    """(best, mean) seconds of backtrack counting up to 2 solutions, and the count (-1: timed out)."""
    times, count = [], 0
    for _ in range(reps):
        result = ENGINE.solve(puzzle, limit=2, time_limit=TIME_LIMIT)
        times.append(result.elapsed)
        if result.status is Status.TIMEOUT:
            return TIME_LIMIT, TIME_LIMIT, -1
        count = result.count
        assert result.exact and all(solution_problem(puzzle, s) is None for s in result.solutions)
    return min(times), statistics.mean(times), count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="made puzzles: only these names, joined by commas (skips the corpus)")
    parser.add_argument("--reps", type=int, default=3, help="timed runs per puzzle (default 3)")
    parser.add_argument("--seed", default="bench-backtrack-variants-1")
    parser.add_argument("--no-corpus", action="store_true", help="skip puzzles/variants/corpus.txt")
    parser.add_argument("--no-made", action="store_true", help="time the corpus alone")
    parser.add_argument(
        "--decider",
        choices=("cp-sat", "backtrack"),
        default="cp-sat",
        help="the engine that keeps made puzzles unique while they are thinned (default cp-sat, if it is installed)",
    )
    args = parser.parse_args()
    worst = 0.0
    if CORPUS.exists() and not args.only and not args.no_corpus:
        answers = [line.split() for line in ANSWERS.read_text().splitlines() if line.strip() and line[0] != "#"]
        texts = [line for line in CORPUS.read_text().splitlines() if line.startswith("{")]
        print(f"corpus ({CORPUS.relative_to(ROOT)}), 9x9 puzzles, backtrack limit 2:")
        for text, (name, kinds, count, solution) in zip(texts, answers, strict=True):
            puzzle = Grid.parse(text)
            if puzzle.n != N:
                continue
            best, mean, got = time_it(puzzle, args.reps)
            right = ENGINE.solve(puzzle).solution
            ok = got == int(count) and right is not None and right.to_line() == solution
            worst = max(worst, mean)
            print(f"  {name:<28} {kinds:<44} best {best:7.3f} s  mean {mean:7.3f} s  {'ok' if ok else 'WRONG'}")
    names = args.only.split(",") if args.only else [] if args.no_made else list(SPECS)
    if names:
        try:
            DECIDER["engine"] = get_strategy(args.decider)
        except Exception:
            print(f"{args.decider} is not available: backtrack decides uniqueness")
        print(f"made here (seed {args.seed!r}, thinned by {DECIDER['engine'].name}), backtrack limit 2:")
    for name in names:
        start = time.perf_counter()
        puzzle, solution = make(name, SPECS[name], args.seed)
        made_in = time.perf_counter() - start
        best, mean, count = time_it(puzzle, args.reps)
        worst = max(worst, mean)
        print(
            f"  {name:<28} {puzzle.count_givens():2} givens {len(puzzle.constraints):3} rules  "
            f"best {best:7.3f} s  mean {mean:7.3f} s  count {count}  cp-sat {cross_check(puzzle, solution)}  "
            f"(made in {made_in:.0f} s)",
            flush=True,
        )
        print(f"    {v.to_json(puzzle)}", flush=True)
    print(f"slowest mean: {worst:.3f} s")


if __name__ == "__main__":
    main()
