"""The ``cp-sat`` engine's variant encodings against their alternatives, and its classic speed against a git revision.

    python benchmarks/bench_cpsat_variants.py                  # every section
    python benchmarks/bench_cpsat_variants.py classic --rev HEAD
    python benchmarks/bench_cpsat_variants.py sandwich kropki

Sections:
  classic    the engine on puzzles/top95.txt and hardest.txt against the engine of git revision ``--rev``
             (default HEAD): mean ms/puzzle, alternating puzzle by puzzle; the classic path must not slow
             down (ratio ~1.00).
  sandwich, killer, kropki, xv, non-consecutive, whisper, renban
             the engine's encoding of the rule against the alternatives written here, on generated 9x9
             puzzles (seeded): the rules read off a random solution, a few givens, solved with limit 2
             (a uniqueness check: the whole search). Mean ms per puzzle, the engine's as the baseline.

Runs alternate encoding by encoding over the same puzzles (the order rotating), so machine noise hits
every side alike. An alternative is swapped into the engine's table of rule adders for its runs.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import combinations, pairwise, permutations
from pathlib import Path
from typing import Any

from ortools.sat.python import cp_model

from sudokit import Grid
from sudokit.io.reader import read_file
from sudokit.model.variants import (
    XV,
    Constraint,
    Killer,
    Kropki,
    KropkiNegative,
    NonConsecutive,
    Renban,
    Sandwich,
    Whisper,
    XVNegative,
    orthogonal_pairs,
    undotted_pairs,
)
from sudokit_strategies import cpsat
from sudokit_strategies.cpsat import CpSatStrategy

ROOT = Path(__file__).resolve().parent.parent
Vars = list[cp_model.IntVar]
Adder = Callable[[cp_model.CpModel, Vars, Any, Grid], None]


# --- the alternatives ---------------------------------------------------------------------------------


def _pair_table(ok: Callable[[int, int], bool], n: int) -> list[tuple[int, int]]:
    return [(a, b) for a in range(1, n + 1) for b in range(1, n + 1) if ok(a, b)]


def _forbid_linear(model: cp_model.CpModel, expr: Any, values: list[int], low: int, high: int) -> None:
    model.add_linear_expression_in_domain(
        expr, cp_model.Domain.from_values([v for v in range(low, high + 1) if v not in values])
    )


def sandwich_element(model: cp_model.CpModel, x: Vars, rule: Any, puzzle: Grid) -> None:
    """Positions of the 1 and the n by element constraints; the sum as a difference of prefix sums."""
    n = puzzle.shape.n
    line = [x[r * n + c] for r, c in rule.line_cells(n)]
    one, top = model.new_int_var(0, n - 1, ""), model.new_int_var(0, n - 1, "")
    model.add_element(one, line, 1)
    model.add_element(top, line, n)
    low, high = model.new_int_var(0, n - 1, ""), model.new_int_var(0, n - 1, "")
    model.add_min_equality(low, [one, top])
    model.add_max_equality(high, [one, top])
    prefix = [cp_model.LinearExpr.sum(line[:k]) for k in range(n + 1)]  # prefix[k]: the first k cells
    upto, after_low = model.new_int_var(0, n * n, ""), model.new_int_var(0, n * n, "")
    model.add_element(high, prefix, upto)
    model.add_element(low + 1, prefix, after_low)
    model.add(upto - after_low == rule.total)


def sandwich_plain_booleans(model: cp_model.CpModel, x: Vars, rule: Any, puzzle: Grid) -> None:
    """The engine's reified booleans without its redundant count of the cells between the 1 and the n."""
    n = puzzle.shape.n
    line = [x[r * n + c] for r, c in rule.line_cells(n)]
    ends, middle = cp_model.Domain.from_values([1, n]), cp_model.Domain(2, n - 1)
    end = []
    for v in line:
        e = model.new_bool_var("")
        model.add_linear_expression_in_domain(v, ends).only_enforce_if(e)
        model.add_linear_expression_in_domain(v, middle).only_enforce_if(~e)
        end.append(e)
    before = cpsat._running_or(model, end)
    after = cpsat._running_or(model, end[::-1])[::-1]
    parts = []
    for k in range(1, n - 1):
        inside = model.new_bool_var("")
        model.add_bool_and([before[k - 1], after[k + 1]]).only_enforce_if(inside)
        model.add_bool_or([~before[k - 1], ~after[k + 1], inside])
        part = model.new_int_var(0, n, "")
        model.add(part == line[k]).only_enforce_if(inside)
        model.add(part == 0).only_enforce_if(~inside)
        parts.append(part)
    model.add(cp_model.LinearExpr.sum(parts) == rule.total)


def killer_plain(model: cp_model.CpModel, x: Vars, rule: Any, puzzle: Grid) -> None:
    """AllDifferent and the sum alone (no digits taken from the cell domains)."""
    cage = [x[i] for i in rule.indexes(puzzle.shape.n)]
    model.add_all_different(cage)
    if rule.total is not None:
        model.add(cp_model.LinearExpr.sum(cage) == rule.total)


def killer_table(model: cp_model.CpModel, x: Vars, rule: Any, puzzle: Grid) -> None:
    """AllDifferent, the sum, and a table of every ordering of every set of digits making the total."""
    n = puzzle.shape.n
    killer_plain(model, x, rule, puzzle)
    cage = [x[i] for i in rule.indexes(n)]
    sets = [c for c in combinations(range(1, n + 1), len(cage)) if sum(c) == rule.total]
    model.add_allowed_assignments(cage, [p for c in sets for p in permutations(c)])


def kropki_reified(model: cp_model.CpModel, x: Vars, rule: Any, puzzle: Grid) -> None:
    """White as a difference domain; black as a boolean choosing a == 2b or b == 2a."""
    a, b = (x[i] for i in rule.indexes(puzzle.shape.n))
    if rule.color == "white":
        _forbid_linear(model, a - b, [0], -1, 1)
        return
    double = model.new_bool_var("")
    model.add(a == 2 * b).only_enforce_if(double)
    model.add(b == 2 * a).only_enforce_if(~double)


def kropki_table(model: cp_model.CpModel, x: Vars, rule: Any, puzzle: Grid) -> None:
    """Both colours as tables."""
    n = puzzle.shape.n
    a, b = (x[i] for i in rule.indexes(n))
    model.add_allowed_assignments([a, b], _pair_table(rule.holds, n))


def kropki_negative_linear(model: cp_model.CpModel, x: Vars, rule: Any, puzzle: Grid) -> None:
    """|a - b| >= 2 as a difference domain, a != 2b and b != 2a as linear !=."""
    n = puzzle.shape.n
    for i, j in undotted_pairs(puzzle, "kropki"):
        _forbid_linear(model, x[i] - x[j], [-1, 0, 1], 1 - n, n - 1)
        model.add(x[i] != 2 * x[j])
        model.add(x[j] != 2 * x[i])


def xv_negative_table(model: cp_model.CpModel, x: Vars, rule: Any, puzzle: Grid) -> None:
    n = puzzle.shape.n
    table = _pair_table(lambda a, b: a != b and a + b not in (5, 10), n)
    for i, j in undotted_pairs(puzzle, "xv"):
        model.add_allowed_assignments([x[i], x[j]], table)


def non_consecutive_table(model: cp_model.CpModel, x: Vars, rule: Any, puzzle: Grid) -> None:
    n = puzzle.shape.n
    table = _pair_table(lambda a, b: abs(a - b) > 1, n)
    for i, j in orthogonal_pairs(n):
        model.add_allowed_assignments([x[i], x[j]], table)


def whisper_abs(model: cp_model.CpModel, x: Vars, rule: Any, puzzle: Grid) -> None:
    n = puzzle.shape.n
    for i, j in pairwise(rule.indexes(n)):
        gap = model.new_int_var(0, n - 1, "")
        model.add_abs_equality(gap, x[i] - x[j])
        model.add(gap >= rule.difference)


def whisper_table(model: cp_model.CpModel, x: Vars, rule: Any, puzzle: Grid) -> None:
    n = puzzle.shape.n
    table = _pair_table(lambda a, b: abs(a - b) >= rule.difference, n)
    for i, j in pairwise(rule.indexes(n)):
        model.add_allowed_assignments([x[i], x[j]], table)


def renban_max_min(model: cp_model.CpModel, x: Vars, rule: Any, puzzle: Grid) -> None:
    n = puzzle.shape.n
    line = [x[i] for i in rule.indexes(n)]
    model.add_all_different(line)
    top, low = model.new_int_var(1, n, ""), model.new_int_var(1, n, "")
    model.add_max_equality(top, line)
    model.add_min_equality(low, line)
    model.add(top - low == len(line) - 1)


# --- generated puzzles --------------------------------------------------------------------------------


def random_solution(rng: random.Random, rules: list[Constraint] = ()) -> tuple[int, ...]:  # type: ignore[assignment]
    """A random 9x9 grid keeping ``rules``: the engine's answer to a few random givens (redrawn until it has one)."""
    engine = CpSatStrategy()
    while True:
        cells = [0] * 81
        for i in rng.sample(range(81), 8):
            cells[i] = rng.randint(1, 9)
        try:
            puzzle = Grid(cells, "3x3", constraints=rules)
        except ValueError:
            continue
        result = engine.solve(puzzle, time_limit=10)
        if result.solution is not None:
            return result.solution.cells


def lines_where(rng: random.Random, ref: tuple[int, ...], keeps: Callable[[list[int]], bool], count: int) -> list:
    """``count`` random lines (3 to 7 touching cells) whose digits in ``ref`` pass ``keeps``, not overlapping."""
    used: set[int] = set()
    out = []
    while len(out) < count:
        length = rng.randint(3, 7)
        line = [rng.randrange(81)]
        while len(line) < length:
            r, c = divmod(line[-1], 9)
            steps = [
                (r + dr) * 9 + c + dc
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
                if 0 <= r + dr < 9 and 0 <= c + dc < 9 and (r + dr) * 9 + c + dc not in line
            ]
            steps = [s for s in steps if s not in used and keeps([ref[i] for i in [*line, s]])]
            if not steps:
                break
            line.append(rng.choice(steps))
        if len(line) >= 3 and not used.intersection(line):
            used.update(line)
            out.append([divmod(i, 9) for i in line])
    return out


def givens(rng: random.Random, ref: tuple[int, ...], shown: int) -> list[int]:
    cells = [0] * 81
    for i in rng.sample(range(81), shown):
        cells[i] = ref[i]
    return cells


def sandwich_puzzles(rng: random.Random) -> Grid:
    ref = random_solution(rng)
    rules = []
    for axis in ("row", "column"):
        for k in range(9):
            line = Sandwich(axis, k, 0).line_cells(9)
            digits = [ref[r * 9 + c] for r, c in line]
            lo, hi = sorted((digits.index(1), digits.index(9)))
            rules.append(Sandwich(axis, k, sum(digits[lo + 1 : hi])))
    return Grid(givens(rng, ref, 8), "3x3", constraints=rules)


def killer_puzzles(rng: random.Random) -> Grid:
    """The whole board in cages of 2 to 5 cells (grown at random, no digit twice), their totals, no givens."""
    ref = random_solution(rng)
    owner = [-1] * 81
    rules: list[Constraint] = []
    for start in rng.sample(range(81), 81):
        if owner[start] != -1:
            continue
        cage, size = [start], rng.choice((2, 2, 3, 3, 3, 4, 4, 5))
        owner[start] = len(rules)
        while len(cage) < size:
            steps = [
                j
                for i in cage
                for j, ok in ((i - 9, True), (i + 9, True), (i - 1, i % 9 > 0), (i + 1, i % 9 < 8))
                if ok and 0 <= j < 81 and owner[j] == -1 and ref[j] not in {ref[k] for k in cage}
            ]
            if not steps:
                break
            j = rng.choice(steps)
            owner[j] = len(rules)
            cage.append(j)
        rules.append(Killer([divmod(i, 9) for i in cage], sum(ref[i] for i in cage)))
    return Grid([0] * 81, "3x3", constraints=rules)


def kropki_puzzles(rng: random.Random) -> Grid:
    ref = random_solution(rng)
    rules: list[Constraint] = []
    for i, j in orthogonal_pairs(9):
        a, b = ref[i], ref[j]
        colors = [c for c, ok in (("white", abs(a - b) == 1), ("black", a == 2 * b or b == 2 * a)) if ok]
        if colors:
            rules.append(Kropki(rng.choice(colors), [divmod(i, 9), divmod(j, 9)]))
    return Grid(givens(rng, ref, 2), "3x3", constraints=[*rules, KropkiNegative()])


def xv_puzzles(rng: random.Random) -> Grid:
    ref = random_solution(rng)
    rules: list[Constraint] = [
        XV("X" if ref[i] + ref[j] == 10 else "V", [divmod(i, 9), divmod(j, 9)])
        for i, j in orthogonal_pairs(9)
        if ref[i] + ref[j] in (5, 10)
    ]
    return Grid(givens(rng, ref, 8), "3x3", constraints=[*rules, XVNegative()])


def non_consecutive_puzzles(rng: random.Random) -> Grid:
    ref = random_solution(rng, [NonConsecutive()])
    return Grid(givens(rng, ref, 12), "3x3", constraints=[NonConsecutive()])


def whisper_puzzles(rng: random.Random) -> Grid:
    ref = random_solution(rng)
    lines = lines_where(rng, ref, lambda d: all(abs(a - b) >= 5 for a, b in pairwise(d)), 8)
    return Grid(givens(rng, ref, 16), "3x3", constraints=[Whisper(line) for line in lines])


def renban_puzzles(rng: random.Random) -> Grid:
    ref = random_solution(rng)
    lines = lines_where(rng, ref, lambda d: len(set(d)) == len(d) and max(d) - min(d) == len(d) - 1, 8)
    return Grid(givens(rng, ref, 16), "3x3", constraints=[Renban(line) for line in lines])


#: Each section: its puzzle maker, and the encodings as (label, {kind: adder}); the engine's own first.
CONTESTS: dict[str, tuple[Callable[[random.Random], Grid], list[tuple[str, dict[str, Adder]]]]] = {
    "sandwich": (
        sandwich_puzzles,
        [
            ("booleans + count (engine)", {}),
            ("booleans alone", {"sandwich": sandwich_plain_booleans}),
            ("element", {"sandwich": sandwich_element}),
        ],
    ),
    "killer": (
        killer_puzzles,
        [
            ("+ digits of the sets (engine)", {}),
            ("AllDifferent + sum alone", {"killer": killer_plain}),
            ("+ table of orderings", {"killer": killer_table}),
        ],
    ),
    "kropki": (
        kropki_puzzles,
        [
            ("black & negative tables (engine)", {}),
            ("reified / linear", {"kropki": kropki_reified, "kropki-negative": kropki_negative_linear}),
            ("all tables", {"kropki": kropki_table}),
        ],
    ),
    "xv": (
        xv_puzzles,
        [("negative as sum domain (engine)", {}), ("negative as table", {"xv-negative": xv_negative_table})],
    ),
    "non-consecutive": (
        non_consecutive_puzzles,
        [("difference domain (engine)", {}), ("table", {"non-consecutive": non_consecutive_table})],
    ),
    "whisper": (
        whisper_puzzles,
        [
            ("difference domain (engine)", {}),
            ("abs equality", {"whisper": whisper_abs}),
            ("table", {"whisper": whisper_table}),
        ],
    ),
    "renban": (renban_puzzles, [("window variable (engine)", {}), ("max - min", {"renban": renban_max_min})]),
}


@contextmanager
def encoded(adders: dict[str, Adder]) -> Iterator[None]:
    """The engine with ``adders`` in place of its own for their kinds."""
    saved = dict(cpsat._RULES)
    cpsat._RULES.update(adders)
    try:
        yield
    finally:
        cpsat._RULES.clear()
        cpsat._RULES.update(saved)


def section_contest(name: str, count: int, seed: int) -> None:
    make, encodings = CONTESTS[name]
    rng = random.Random(f"{name}/{seed}")
    puzzles = [make(rng) for _ in range(count)]
    engine = CpSatStrategy()
    times: dict[str, list[float]] = {label: [] for label, _ in encodings}
    answers: dict[str, list[int]] = {label: [] for label, _ in encodings}
    for k, puzzle in enumerate(puzzles):
        order = encodings[k % len(encodings) :] + encodings[: k % len(encodings)]
        for label, adders in order:
            with encoded(adders):
                result = engine.solve(puzzle, limit=2, time_limit=60)
            assert result.status.value == "solved", (name, label, result.status)
            times[label].append(result.elapsed * 1000)
            answers[label].append(result.count)
    base = statistics.fmean(times[encodings[0][0]])
    unique = sum(c == 1 for c in answers[encodings[0][0]])
    print(f"{name}: {count} generated 9x9 puzzles ({unique} unique), solved with limit 2; mean ms per puzzle")
    for label, _ in encodings:
        assert answers[label] == answers[encodings[0][0]], (name, label, "counts differ")
        mean = statistics.fmean(times[label])
        print(
            f"  {label:<34} {mean:8.2f} ms  (median {statistics.median(times[label]):7.2f})  ratio {mean / base:5.2f}"
        )


# --- classic speed -----------------------------------------------------------------------------------


def engine_at(rev: str) -> Any:
    """The cp-sat engine class as it is in git revision ``rev``."""
    source = subprocess.run(
        ["git", "show", f"{rev}:strategies/sudokit_strategies/cpsat.py"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    path = Path(tempfile.mkdtemp()) / "cpsat_at_rev.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("cpsat_at_rev", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.CpSatStrategy()


def section_classic(rev: str, rounds: int) -> None:
    engines = {"now": CpSatStrategy(), rev: engine_at(rev)}
    for name in ("top95.txt", "hardest.txt"):
        grids = [record.parse() for record in read_file(ROOT / "puzzles" / name)]
        times: dict[str, list[float]] = {label: [] for label in engines}
        for _ in range(rounds):
            for k, grid in enumerate(grids):
                for label in list(engines)[k % 2 :] + list(engines)[: k % 2]:
                    result = engines[label].solve(grid)
                    assert result.status.value == "solved"
                    times[label].append(result.elapsed * 1000)
        now, then = statistics.fmean(times["now"]), statistics.fmean(times[rev])
        print(f"classic: puzzles/{name} x {rounds}, mean ms per puzzle (alternating)")
        print(f"  engine now       {now:7.3f} ms  (median {statistics.median(times['now']):6.3f})")
        median = statistics.median(times[rev])
        print(f"  engine at {rev:<6} {then:7.3f} ms  (median {median:6.3f})  ratio now/then {now / then:5.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sections", nargs="*", choices=["classic", *CONTESTS, []], help="default: all")
    parser.add_argument("--rev", default="HEAD", help="git revision of the classic baseline (default HEAD)")
    parser.add_argument("--rounds", type=int, default=5, help="passes over each set in the classic section")
    parser.add_argument("--count", type=int, default=20, help="generated puzzles per encoding section")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name in args.sections or ["classic", *CONTESTS]:
        if name == "classic":
            section_classic(args.rev, args.rounds)
        else:
            section_contest(name, args.count, args.seed)
        sys.stdout.flush()


if __name__ == "__main__":
    main()
