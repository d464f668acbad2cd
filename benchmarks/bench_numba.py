"""The ``numba`` engine's speed targets and start-up costs, against ``backtrack`` measured in the same run.

    python benchmarks/bench_numba.py                 # every section
    python benchmarks/bench_numba.py targets startup

Sections:
  targets  per puzzle through ``sudokit.solve(grid, "numba")`` against ``sudokit.solve(grid, "backtrack")``,
           set by set in alternating rounds (and, shown beside, interleaved puzzle by puzzle), on
           top95, puzzles/hardest.txt and the first 2000 of puzzles/17clue.txt (issue 13's target: at
           least 10x on top95 and on hard puzzles; its "hard375" set is not shipped, hardest.txt and
           17clue stand in). Also the engine's own ``solve`` and ``solve_many`` per puzzle, to show what
           the core's per-call work costs.
  sizes    16x16 and 25x25 boards (puzzles/sizes; the 25x25 file but its first line, which neither engine
           solves in seconds), ms a puzzle through ``sudokit.solve`` with limit 2, one round each.
  startup  a cold first call (new process, empty cache directory: numba compiles the kernel), a warm first
           call (new process, the cache filled by the cold one) and the steady state, each split into
           numba's import, building the engine (the kernel's load or compile) and the first solve.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
import tempfile
import time
from itertools import islice
from pathlib import Path

from sudokit import Grid, get_strategy, solve
from sudokit.io.reader import read_file

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
TARGET = 10.0


def load(name: str, sample: int | None = None) -> list[Grid]:
    return [record.parse() for record in islice(read_file(PUZZLES / name), sample)]


def best_times(grids: list[Grid], limit: int, rounds: int, *, interleave: bool) -> dict[str, float]:
    """Mean ms a puzzle through ``sudokit.solve`` for backtrack and numba; each puzzle's time is its best of ``rounds``.

    Set by set (``interleave`` False): each round runs backtrack over the whole set, then numba over it, as
    someone solving a set with one engine would; the rounds alternate, so a slow spell of this shared
    machine weighs on both. Interleaved: one engine after the other on each puzzle, so each numba call
    starts with the processor's caches full of backtrack's data (this costs numba 5-7 us a puzzle).
    """
    best: dict[str, list[float]] = {"backtrack": [math.inf] * len(grids), "numba": [math.inf] * len(grids)}

    def one(name: str, i: int, grid: Grid) -> None:
        start = time.perf_counter()
        result = solve(grid, name, limit=limit)
        best[name][i] = min(best[name][i], (time.perf_counter() - start) * 1000)
        assert result.status.value == "solved", (name, grid.to_line(), result.status, result.error)

    for _ in range(rounds):
        if interleave:
            for i, grid in enumerate(grids):
                for name in best:
                    one(name, i, grid)
        else:
            for name in best:
                for i, grid in enumerate(grids):
                    one(name, i, grid)
    return {name: statistics.fmean(times) for name, times in best.items()}


def engine_only(grids: list[Grid], limit: int, rounds: int) -> tuple[float, float]:
    """Mean ms a puzzle of the engine's own ``solve`` and of ``solve_many`` over the whole set."""
    engine = get_strategy("numba")
    start = time.perf_counter()
    for grid in grids * rounds:
        engine.solve(grid, limit=limit)
    alone = (time.perf_counter() - start) * 1000 / (len(grids) * rounds)
    cells = memoryview(b"".join(bytes(g.cells) for g in grids))
    start = time.perf_counter()
    for _ in range(rounds):
        many = engine.solve_many(cells, grids[0].shape, limit=limit)  # type: ignore[attr-defined]
        assert all(s == 0 for s in many.status)
    batch = (time.perf_counter() - start) * 1000 / (len(grids) * rounds)
    return alone, batch


def section_targets() -> bool:
    solve(load("top95.txt", 1)[0], "numba")  # load numba and the kernel before timing
    ok = True
    print("ms a puzzle through sudokit.solve(), each puzzle's best of the rounds, set by set (target >= 10x);")
    print("then the same interleaved puzzle by puzzle, and the engine's own solve() and solve_many(), ms a puzzle:")
    print(
        f"{'set':22s} {'limit':>5s} {'backtrack ms':>12s} {'numba ms':>9s} {'ratio':>7s}  "
        f"{'interleaved':>19s} {'engine.solve ms':>15s} {'solve_many ms':>13s}"
    )
    for name, sample, rounds in (("top95.txt", None, 3), ("hardest.txt", None, 10), ("17clue.txt", 2000, 2)):
        grids = load(name, sample)
        label = name if sample is None else f"{name} (first {sample})"
        for limit in (1, 2):
            means = best_times(grids, limit, rounds, interleave=False)
            ratio = means["backtrack"] / means["numba"]
            mixed = best_times(grids, limit, rounds, interleave=True)
            mixed_text = f"{mixed['numba']:.4f} ms {mixed['backtrack'] / mixed['numba']:4.1f}x"
            alone, batch = engine_only(grids, limit, rounds)
            passed = ratio >= TARGET
            ok = ok and passed
            print(
                f"{label:22s} {limit:5d} {means['backtrack']:12.3f} {means['numba']:9.4f} {ratio:6.1f}x  "
                f"{mixed_text:>19s} {alone:15.4f} {batch:13.4f}  {'PASS' if passed else 'FAIL'}"
            )
    return ok


def section_sizes() -> bool:
    solve(load("sizes/box4x4.txt", 1)[0], "numba")  # the big boards' work arrays
    print("seconds a puzzle through sudokit.solve(), limit 2 (uniqueness), backtrack then numba on each:")
    print(f"{'file':22s} {'line':>4s} {'backtrack s':>11s} {'numba s':>8s} {'ratio':>7s} {'nodes':>7s}")
    ok = True
    for name, skip in (("sizes/box4x4.txt", 0), ("sizes/box5x5.txt", 1)):
        for line, grid in enumerate(load(name)[skip:], skip + 1):
            took = {}
            for engine in ("backtrack", "numba"):
                start = time.perf_counter()
                result = solve(grid, engine, limit=2, time_limit=120)
                took[engine] = time.perf_counter() - start
                assert result.unique, (engine, name, line, result.status)
            ok = ok and took["numba"] < took["backtrack"]
            print(
                f"{name:22s} {line:4d} {took['backtrack']:11.3f} {took['numba']:8.4f} "
                f"{took['backtrack'] / took['numba']:6.1f}x {result.stats['nodes']:7d}"
            )
    return ok


_PROBE = """
import json, sys, time
t0 = time.perf_counter()
import numba
t1 = time.perf_counter()
from sudokit import Grid
from sudokit_strategies.jit import NumbaStrategy
t2 = time.perf_counter()
engine = NumbaStrategy()
t3 = time.perf_counter()
grid = Grid.parse(sys.argv[1])
engine.solve(grid)
t4 = time.perf_counter()
for _ in range(200):
    engine.solve(grid)
t5 = time.perf_counter()
print(json.dumps({"numba import": t1 - t0, "build (load or compile)": t3 - t2, "first solve": t4 - t3,
                  "steady solve": (t5 - t4) / 200}))
"""


def probe(cache: Path, puzzle: str) -> dict[str, float]:
    env_code = f"import os; os.environ['NUMBA_CACHE_DIR'] = {str(cache)!r}\n" + _PROBE
    proc = subprocess.run([sys.executable, "-c", env_code, puzzle], capture_output=True, text=True, check=True)
    return json.loads(proc.stdout)


def section_startup() -> bool:
    puzzle = load("top95.txt", 1)[0].to_line()
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "numba-cache"
        cold = probe(cache, puzzle)
        warm = [probe(cache, puzzle) for _ in range(3)]
    print("start-up, seconds (each run a new process; warm: the median of 3 runs on the cache the cold run filled):")
    print(f"{'':26s} {'cold':>9s} {'warm':>9s}")
    for key in cold:
        warm_value = statistics.median(w[key] for w in warm)
        if key == "steady solve":
            print(f"{key + ' (ms)':26s} {cold[key] * 1000:9.4f} {warm_value * 1000:9.4f}")
        else:
            print(f"{key:26s} {cold[key]:9.3f} {warm_value:9.3f}")
    first = {name: sum(v for k, v in run.items() if k != "steady solve") for name, run in (("cold", cold),)}
    warm_first = statistics.median(sum(v for k, v in run.items() if k != "steady solve") for run in warm)
    print(
        f"first call in all (numba import + build + first solve): cold {first['cold']:.2f} s, warm {warm_first:.2f} s"
    )
    return warm_first < first["cold"]


SECTIONS = {"targets": section_targets, "sizes": section_sizes, "startup": section_startup}


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
