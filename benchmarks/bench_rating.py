"""``sudokit.features.rating.rate`` against an outside oracle, hodoku-py (HoDoKu 2.2's rating in Python).

    python benchmarks/bench_rating.py              # the 200-puzzle sample
    python benchmarks/bench_rating.py --show 10    # and the first 10 disagreements, technique by technique

The sample spans easy to very hard: all of easy50, top95 and hardest, and a seeded random sample of
17clue.txt to make 200 puzzles. Reported: the share of puzzles with the same level (target >= 90 %),
the confusion table, the score correlation (Pearson on the scores, Spearman on their ranks, both
computed here), and the time per puzzle of each rater, measured interleaved (one puzzle by one, then
by the other). hodoku-py is a benchmark-only dependency (``pip install hodoku-py``).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from itertools import islice
from pathlib import Path

from sudokit.features.rating import LEVELS, rate
from sudokit.io.reader import read_file

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
SAMPLE = 200


def load(name: str, count: int | None = None) -> list[str]:
    return [record.parse().to_line() for record in islice(read_file(PUZZLES / name), count)]


def sample(seed: int) -> list[tuple[str, str]]:
    """(data set, puzzle) pairs: easy50, top95, hardest, then 17clue puzzles drawn with ``seed`` up to SAMPLE."""
    chosen = [(name, p) for name in ("easy50", "top95", "hardest") for p in load(f"{name}.txt")]
    clues = load("17clue.txt")
    chosen += [("17clue", p) for p in random.Random(seed).sample(clues, SAMPLE - len(chosen))]
    return chosen


def ranks(values: list[float]) -> list[float]:
    """1-based ranks, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0.0] * len(values)
    k = 0
    while k < len(order):
        j = k
        while j + 1 < len(order) and values[order[j + 1]] == values[order[k]]:
            j += 1
        for m in range(k, j + 1):
            out[order[m]] = (k + j) / 2 + 1
        k = j + 1
    return out


def pearson(xs: list[float], ys: list[float]) -> float:
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0, help="the seed of the 17clue sample")
    parser.add_argument("--show", type=int, default=0, metavar="N", help="print the first N disagreements")
    args = parser.parse_args()
    try:
        from hodoku import Solver
    except ImportError:
        print("hodoku-py is not installed: pip install hodoku-py", file=sys.stderr)
        return 2
    oracle = Solver()
    rows = []
    ours_s = theirs_s = 0.0
    for data_set, puzzle in sample(args.seed):
        t0 = time.perf_counter()
        ours = rate(puzzle)
        t1 = time.perf_counter()
        theirs = oracle.solve(puzzle)
        t2 = time.perf_counter()
        ours_s += t1 - t0
        theirs_s += t2 - t1
        rows.append((data_set, puzzle, ours, theirs.level.name.title(), theirs.score, theirs))
    n = len(rows)
    same = sum(1 for _, _, ours, level, _, _ in rows if ours.level == level)
    print(
        f"sample: {n} puzzles (seed {args.seed}): "
        + ", ".join(f"{d} {sum(r[0] == d for r in rows)}" for d in ("easy50", "top95", "hardest", "17clue"))
    )
    verdict = "PASS" if same / n >= 0.9 else "FAIL"
    print(f"same level: {same}/{n} = {100 * same / n:.1f} % (target >= 90 %: {verdict})")
    print("\nconfusion (rows: sudokit, columns: hodoku-py)")
    print("          " + "".join(f"{lv:>9}" for lv in LEVELS))
    for mine in LEVELS:
        print(f"{mine:<10}" + "".join(f"{sum(r[2].level == mine and r[3] == lv for r in rows):>9}" for lv in LEVELS))
    for data_set in ("easy50", "top95", "hardest", "17clue"):
        part = [r for r in rows if r[0] == data_set]
        agree = sum(r[2].level == r[3] for r in part)
        print(f"  {data_set:<8} same level {agree}/{len(part)}")
    xs = [float(r[2].score) for r in rows]
    ys = [float(r[4]) for r in rows]
    print(f"\nscore correlation: Pearson {pearson(xs, ys):.3f}, Spearman {pearson(ranks(xs), ranks(ys)):.3f}")
    solved = [r for r in rows if r[2].solved_by_logic]
    if len(solved) > 2:
        xs = [float(r[2].score) for r in solved]
        ys = [float(r[4]) for r in solved]
        print(
            f"  on the {len(solved)} puzzles our techniques solve: Pearson {pearson(xs, ys):.3f}, "
            f"Spearman {pearson(ranks(xs), ranks(ys)):.3f}"
        )
    print(
        f"\ntime per puzzle: sudokit {1000 * ours_s / n:.1f} ms, hodoku-py {1000 * theirs_s / n:.1f} ms "
        f"(ratio {ours_s / theirs_s:.2f})"
    )
    shown = 0
    for data_set, puzzle, ours, level, score, theirs in rows:
        if shown >= args.show or ours.level == level:
            continue
        shown += 1
        used: dict[str, int] = {}
        for step in theirs.steps:
            used[step.type.name] = used.get(step.type.name, 0) + 1
        print(f"\n{data_set} {puzzle}\n  sudokit {ours.level} {ours.score}: {ours.techniques}")
        print(f"  hodoku  {level} {score}: {used}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
