"""The ``sat`` engine's speed targets and the measurements behind its defaults, against baselines of this run.

    python benchmarks/bench_sat.py                  # every section
    python benchmarks/bench_sat.py targets table

Sections:
  targets  ``sat`` vs ``cp-sat`` (one worker), engine by engine over the same puzzles: top95 mean
           (target ratio <= 0.5); a uniqueness check (limit 2) on top95 (target < 2 ms a puzzle);
           the 25x25 of puzzles/sizes/box5x5.txt (target: no slower than cp-sat).
  table    mean ms a top95 puzzle (limit 1 and limit 2) for each solver x at-most-one encoding.
  reuse    one reused solver per box shape (givens as assumptions) vs a fresh solver on a formula
           simplified by the givens, per board size.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from itertools import islice
from pathlib import Path

from sudokit import Grid, get_strategy
from sudokit.io.reader import read_file
from sudokit_strategies.sat import ENCODINGS, SOLVERS, SatStrategy

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"


def load(name: str, sample: int | None = None) -> list[Grid]:
    return [record.parse() for record in islice(read_file(PUZZLES / name), sample)]


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def interleaved(engines: dict[str, object], grids: list[Grid], limit: int = 1, rounds: int = 1) -> dict[str, float]:
    """Mean ms a puzzle for each engine, run one after the other on each puzzle (the first round warms up)."""
    times: dict[str, list[float]] = {name: [] for name in engines}
    for grid in grids * rounds:
        for name, engine in engines.items():
            start = time.perf_counter()
            result = engine.solve(grid, limit=limit, time_limit=120)  # type: ignore[attr-defined]
            times[name].append((time.perf_counter() - start) * 1000)
            assert result.status.value == "solved", (name, grid.to_line(), result.status)
    return {name: statistics.fmean(values) for name, values in times.items()}


def section_targets() -> bool:
    top95 = load("top95.txt")
    sat, cpsat = get_strategy("sat"), get_strategy("cp-sat", workers=1)
    engines = {"sat": sat, "cp-sat": cpsat}
    interleaved(engines, top95[:5])  # load the libraries, build the reused solver
    solve = interleaved(engines, top95, rounds=2)
    unique = interleaved(engines, top95, limit=2, rounds=2)
    ok1 = solve["sat"] / solve["cp-sat"] <= 0.5
    ok2 = unique["sat"] < 2.0
    print(f"top95 solve: sat {solve['sat']:.3f} ms, cp-sat {solve['cp-sat']:.3f} ms a puzzle")
    print(f"  ratio {solve['sat'] / solve['cp-sat']:.3f} (target <= 0.5) {verdict(ok1)}")
    print(f"top95 uniqueness (limit 2): sat {unique['sat']:.3f} ms, cp-sat {unique['cp-sat']:.3f} ms a puzzle")
    print(f"  target < 2 ms {verdict(ok2)}")
    big = load("sizes/box5x5.txt", 1)
    big_times = interleaved(engines, big, rounds=2)
    ok3 = big_times["sat"] <= big_times["cp-sat"]
    sat_s, cpsat_s = big_times["sat"] / 1000, big_times["cp-sat"] / 1000
    print(f"25x25 (box5x5.txt line 1, 2 rounds): sat {sat_s:.2f} s, cp-sat {cpsat_s:.2f} s a solve")
    print(f"  ratio {big_times['sat'] / big_times['cp-sat']:.3f} (target <= 1) {verdict(ok3)}")
    return ok1 and ok2 and ok3


def section_table() -> bool:
    top95 = load("top95.txt")
    print("mean ms a top95 puzzle, limit 1 / limit 2 (reused solver; each row's solver built once, warmed on 5)")
    print(f"{'solver':12s} " + " ".join(f"{e:>15s}" for e in ENCODINGS))
    for solver in SOLVERS:
        cells = []
        for encoding in ENCODINGS:
            engine = SatStrategy(solver=solver, encoding=encoding)
            interleaved({"x": engine}, top95[:5])
            one = interleaved({"x": engine}, top95)["x"]
            two = interleaved({"x": engine}, top95, limit=2)["x"]
            cells.append(f"{one:6.3f} / {two:6.3f}")
        print(f"{solver:12s} " + " ".join(f"{c:>15s}" for c in cells), flush=True)
    return True


def section_reuse() -> bool:
    print("reused solver vs a fresh one on the simplified formula: mean ms a puzzle, limit 1 / limit 2")
    sets = [("top95", load("top95.txt")), ("17clue[:500]", load("17clue.txt", 500))]
    sets += [(f"sizes/box{b}", load(f"sizes/box{b}.txt")) for b in ("2x3", "3x4", "4x4")]
    for label, grids in sets:
        engines = {"reused": SatStrategy(), "fresh": SatStrategy(reuse=False)}
        interleaved(engines, grids[:3])
        one = interleaved(engines, grids, rounds=3 if len(grids) < 10 else 1)
        two = interleaved(engines, grids, limit=2, rounds=3 if len(grids) < 10 else 1)
        print(
            f"{label:14s} reused {one['reused']:8.3f} / {two['reused']:8.3f}   fresh {one['fresh']:8.3f} / "
            f"{two['fresh']:8.3f}   ratio {one['reused'] / one['fresh']:.2f} / {two['reused'] / two['fresh']:.2f}",
            flush=True,
        )
    return True


SECTIONS = {"targets": section_targets, "table": section_table, "reuse": section_reuse}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sections", nargs="*", choices=[*SECTIONS, []], default=[])
    args = parser.parse_args()
    ok = True
    for name in args.sections or SECTIONS:
        print(f"== {name}")
        ok = SECTIONS[name]() and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
