"""``python-constraint``: the propagating all-different against a baseline revision of the engine, same run.

    python benchmarks/bench_csp.py                       # top95 vs HEAD's engine, then every board size
    python benchmarks/bench_csp.py --base af9608f --target 3   # the round that asked for 3x on top95
    python benchmarks/bench_csp.py --sample 30 --skip-sizes
    python benchmarks/bench_csp.py --solvers             # also each of the library's solvers on top95

Sections:
  top95   mean ms per puzzle (first solution, ``--time-limit`` each, a timeout counted at the limit), the engine
          of this tree and the baseline's (strategies/sudokit_strategies/csp/ at ``--base``, or csp.py before it
          was a package, loaded as a module of its own), one puzzle after the other alternately so that machine
          noise hits both; target: the baseline's mean at least ``--target`` times ours (default 0.95: no slower,
          within noise), no timeout of ours.
  sizes   each puzzle of puzzles/sizes/box4x4.txt, box5x5.txt and box6x6.txt (when present), with ``--big-limit``
          s each: time, status, and whether the solution is the stored one; the 16x16 against the baseline too,
          alternately; target: every 16x16 solved, in no more time in all than the baseline. Larger boards, ours
          alone: every one within the limit where ``max_side`` declares them.
  solvers (with ``--solvers``) ours on top95 with each solver of the library, alternately.

Times are ``Result.elapsed``: the model, the round trip to the worker process and the search.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import subprocess
import sys
import tempfile
from itertools import islice
from pathlib import Path
from types import ModuleType

from sudokit import Grid, Result, Status, get_strategy
from sudokit.io.reader import read_file
from sudokit_strategies.csp import SOLVERS, ConstraintStrategy, stop_workers

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
PACKAGE = "strategies/sudokit_strategies/csp"  # the engine: csp/__init__.py and the modules beside it
MODULE = "strategies/sudokit_strategies/csp.py"  # the engine before it was a package


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout


def load_baseline(revision: str, where: Path) -> ModuleType:
    """The engine of ``revision`` as the module ``csp_baseline``, importable by name (its worker process imports it
    again): the package's files, their imports of each other renamed to it, or the one module of older revisions.
    """
    listed = git("ls-tree", "-r", "--name-only", revision, f"{PACKAGE}/").split()
    files = [path for path in listed if path.endswith(".py")]
    if files:
        package = where / "csp_baseline"
        package.mkdir()
        for path in files:
            source = git("show", f"{revision}:{path}").replace("sudokit_strategies.csp.", "csp_baseline.")
            (package / Path(path).relative_to(PACKAGE)).write_text(source)
    else:
        (where / "csp_baseline.py").write_text(git("show", f"{revision}:{MODULE}"))
    sys.path.insert(0, str(where))
    return importlib.import_module("csp_baseline")


def timed(engine: object, grid: Grid, time_limit: float) -> tuple[float, Result]:
    result: Result = engine.solve(grid, time_limit=time_limit)  # type: ignore[attr-defined]
    seconds = time_limit if result.status is Status.TIMEOUT else result.elapsed
    return seconds, result


def section_top95(base: ModuleType, sample: int | None, time_limit: float, args_target: float) -> bool:
    grids = [record.parse() for record in islice(read_file(PUZZLES / "top95.txt"), sample)]
    print(f"top95 ({len(grids)} puzzles), {time_limit:g} s limit each: ours vs baseline, mean ms per puzzle")
    ours_engine, base_engine = get_strategy("python-constraint"), base.ConstraintStrategy()
    ours_engine.solve(grids[0]), base_engine.solve(grids[0])  # start both workers
    ours, theirs, ours_out, base_out = [], [], 0, 0
    for grid in grids:
        a, mine = timed(ours_engine, grid, time_limit)
        b, other = timed(base_engine, grid, time_limit)
        assert mine.status is not Status.UNSOLVABLE and other.status is not Status.UNSOLVABLE, grid.to_line()
        ours_out += mine.status is Status.TIMEOUT
        base_out += other.status is Status.TIMEOUT
        ours.append(a * 1000)
        theirs.append(b * 1000)
    ratio = statistics.fmean(theirs) / statistics.fmean(ours)
    for label, times, out in (("ours", ours, ours_out), ("baseline", theirs, base_out)):
        print(
            f"  {label:9} mean {statistics.fmean(times):9.1f}  median {statistics.median(times):8.1f}  "
            f"max {max(times):9.1f}  timeouts {out}"
        )
    passed = ratio >= args_target and ours_out == 0
    print(
        f"  speed-up (baseline mean / ours) {ratio:6.2f}x  target >= {args_target:g}x, no timeout of ours: "
        f"{verdict(passed)}"
    )
    return passed


def section_sizes(base: ModuleType, time_limit: float) -> bool:
    """Every board of puzzles/sizes from 16x16 up; 16x16 against the baseline too (alternately)."""
    engine = get_strategy("python-constraint")
    declared = engine.capabilities.max_side
    print(f"board sizes, {time_limit:g} s limit each (declared max_side {declared}); 16x16 against the baseline")
    passed = True
    base_engine = base.ConstraintStrategy()
    for box in ("4x4", "5x5", "6x6"):
        path = PUZZLES / "sizes" / f"box{box}.txt"
        if not path.exists():
            print(f"  box{box}: no {path.name}")
            continue
        times, base_times = [], []
        for record in read_file(path):
            grid = record.parse()
            seconds, result = timed(engine, grid, time_limit)
            right = result.solution == Grid.parse(record.note, grid.shape) if result.solution and record.note else None
            times.append(seconds)
            line = (
                f"  {grid.n}x{grid.n} {record.where:28} {seconds:8.2f} s  {result.status.value:8}"
                f"  stored solution: {'yes' if right else 'NO' if right is False else '-'}"
            )
            if box == "4x4":
                base_seconds, _ = timed(base_engine, grid, time_limit)
                base_times.append(base_seconds)
                line += f"  baseline {base_seconds:8.2f} s"
            print(line)
            passed &= result.status is Status.SOLVED and bool(right) if box == "4x4" else True
        side = int(box[0]) * int(box[2])
        solved = sum(t < time_limit for t in times)
        mean = statistics.fmean(times)
        print(f"  {side}x{side}: {solved}/{len(times)} solved, mean {mean:.2f} s (a timeout counted as the limit)")
        if base_times:
            faster = sum(times) <= sum(base_times)
            passed &= faster
            print(
                f"  16x16 total {sum(times):.2f} s, baseline {sum(base_times):.2f} s; "
                f"target: every one solved, the stored solution, total no slower: {verdict(passed)}"
            )
        elif side <= (declared or side):
            every = solved == len(times)
            passed &= every
            print(f"  {side}x{side} declared: target every one within {time_limit:g} s: {verdict(every)}")
    return passed


def section_solvers(sample: int | None, time_limit: float) -> None:
    grids = [record.parse() for record in islice(read_file(PUZZLES / "top95.txt"), sample)]
    print(f"solvers of the library, ours on top95 ({len(grids)} puzzles), mean ms per puzzle")
    engines = {name: ConstraintStrategy(solver=name) for name in SOLVERS}
    times: dict[str, list[float]] = {name: [] for name in engines}
    for grid in grids:
        for name, engine in engines.items():
            times[name].append(timed(engine, grid, time_limit)[0] * 1000)
    for name, ms in times.items():
        print(f"  {name:13} mean {statistics.fmean(ms):8.1f}  median {statistics.median(ms):7.1f}  max {max(ms):8.1f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="HEAD", help="the baseline revision (default HEAD)")
    parser.add_argument("--sample", type=int, default=None, help="the first N puzzles of top95 only")
    parser.add_argument("--time-limit", type=float, default=30.0, help="seconds a top95 puzzle (default 30)")
    parser.add_argument("--big-limit", type=float, default=60.0, help="seconds a board of puzzles/sizes (default 60)")
    parser.add_argument(
        "--target", type=float, default=0.95, help="top95: least baseline/ours ratio (default 0.95, no slower)"
    )
    parser.add_argument("--skip-sizes", action="store_true", help="top95 only")
    parser.add_argument("--solvers", action="store_true", help="also time each solver of the library")
    args = parser.parse_args()
    ok = True
    with tempfile.TemporaryDirectory() as where:
        base = load_baseline(args.base, Path(where))
        try:
            ok &= section_top95(base, args.sample, args.time_limit, args.target)
            if args.solvers:
                section_solvers(args.sample, args.time_limit)
            if not args.skip_sizes:
                ok &= section_sizes(base, args.big_limit)
        finally:
            stop_workers()
            base.stop_workers()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
