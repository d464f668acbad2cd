"""The speed targets, each a ratio against a baseline measured in this same run.

    python benchmarks/speed_targets.py                 # every section
    python benchmarks/speed_targets.py backtrack startup

Sections:
  backtrack  ``backtrack`` vs ``cp-sat`` (one worker): mean ms/puzzle on top95, hardest and the first
             1,000 of 17clue; target ratio <= 0.5, and no backtrack puzzle over 200 ms.
  cpsat      our ``cp-sat`` engine vs a bare CP-SAT model built and solved inline here (the same
             model, one worker); target ratio <= 1.15.
  startup    ``sudoku solve --strategy backtrack PUZZLE`` as a whole process vs
             ``python -c "import typer"``; target ratio <= 1.5.

``python-constraint`` has its own script, ``bench_csp.py`` (against an earlier revision of the engine),
and ``sat`` its own, ``bench_sat.py``.

Runs alternate engine by engine over the same puzzles, so machine noise hits both sides alike.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from itertools import islice
from pathlib import Path

from sudokit import Grid, get_strategy
from sudokit.io.reader import read_file

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
SETS = {"top95": ("top95.txt", None), "hardest": ("hardest.txt", None), "17clue[:1000]": ("17clue.txt", 1000)}


def load(name: str, sample: int | None = None) -> list[Grid]:
    return [record.parse() for record in islice(read_file(PUZZLES / name), sample)]


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def section_backtrack() -> bool:
    print("backtrack vs cp-sat (1 worker): mean ms/puzzle; target ratio <= 0.50, backtrack max <= 200 ms")
    backtrack, cpsat = get_strategy("backtrack"), get_strategy("cp-sat")
    ok = True
    for label, (name, sample) in SETS.items():
        grids = load(name, sample)
        times: dict[str, list[float]] = {"backtrack": [], "cp-sat": []}
        for grid in grids:
            for engine in (backtrack, cpsat):
                result = engine.solve(grid, time_limit=60)
                assert result.status.value == "solved", (engine.name, grid.to_line(), result.status)
                times[engine.name].append(result.elapsed * 1000)
        bt, cs = statistics.fmean(times["backtrack"]), statistics.fmean(times["cp-sat"])
        worst = max(times["backtrack"])
        passed = bt / cs <= 0.5 and worst <= 200
        ok &= passed
        print(
            f"  {label:<14} backtrack {bt:7.2f} ms (median {statistics.median(times['backtrack']):6.2f}, "
            f"max {worst:6.1f})  cp-sat {cs:7.2f} ms  ratio {bt / cs:5.2f}  {verdict(passed)}"
        )
    return ok


def bare_cpsat(grid: Grid) -> float:
    """The same CP-SAT model as the engine, built and solved inline; returns seconds."""
    from ortools.sat.python import cp_model

    start = time.perf_counter()
    shape, n = grid.shape, grid.shape.n
    model = cp_model.CpModel()
    cells = [model.new_int_var(v, v, "") if v else model.new_int_var(1, n, "") for v in grid.cells]
    for unit in shape.rows + shape.cols + shape.boxes:
        model.add_all_different([cells[i] for i in unit])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    status = solver.solve(model)
    assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    list(solver.response_proto.solution)
    return time.perf_counter() - start


def section_cpsat() -> bool:
    print("cp-sat engine vs bare inline CP-SAT model (1 worker): mean ms/puzzle; target ratio <= 1.15")
    engine = get_strategy("cp-sat")
    ok = True
    for label, (name, sample) in SETS.items():
        grids = load(name, sample)
        ours, bare = [], []
        for grid in grids:
            start = time.perf_counter()
            engine.solve(grid)
            ours.append(time.perf_counter() - start)
            bare.append(bare_cpsat(grid))
        ratio = statistics.fmean(ours) / statistics.fmean(bare)
        ok &= ratio <= 1.15
        print(
            f"  {label:<14} engine {1000 * statistics.fmean(ours):7.2f} ms  "
            f"bare {1000 * statistics.fmean(bare):7.2f} ms"
            f"  ratio {ratio:5.2f}  {verdict(ratio <= 1.15)}"
        )
    return ok


def _time_process(argv: list[str], runs: int, env: dict[str, str]) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env)
        times.append(time.perf_counter() - start)
    return times


def section_startup() -> bool:
    print("start-up: sudoku solve --strategy backtrack PUZZLE vs python -c 'import typer'; target ratio <= 1.5")
    puzzle = (PUZZLES / "leetcode37.txt").read_text().strip()
    sudoku = [sys.executable, "-m", "sudokit", "solve", "--strategy", "backtrack", puzzle]
    typer = [sys.executable, "-c", "import typer"]
    # Both with their bytecode cached, as after a first run (pip compiles at install; Python writes it on
    # first import): a run from source would time the compiler, not start-up, and unevenly, since any
    # .pyc a package already has is used whatever PYTHONDONTWRITEBYTECODE says.
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    _time_process(sudoku, 1, env)
    _time_process(typer, 1, env)
    ours, base = [], []
    for _ in range(15):  # interleaved, so both see the same machine
        ours += _time_process(sudoku, 1, env)
        base += _time_process(typer, 1, env)
    ratio = statistics.median(ours) / statistics.median(base)
    print(
        f"  median of 15, bytecode cached: sudoku {1000 * statistics.median(ours):6.1f} ms  import typer "
        f"{1000 * statistics.median(base):6.1f} ms  ratio {ratio:4.2f}  {verdict(ratio <= 1.5)}"
    )
    return ratio <= 1.5


SECTIONS = {"backtrack": section_backtrack, "cpsat": section_cpsat, "startup": section_startup}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sections", nargs="*", choices=[*SECTIONS, []], help="default: all")
    args = parser.parse_args()
    results = {name: SECTIONS[name]() for name in (args.sections or SECTIONS)}
    print("summary:", ", ".join(f"{name} {verdict(ok)}" for name, ok in results.items()))
    sys.exit(0 if all(results.values()) else 1)


if __name__ == "__main__":
    main()
