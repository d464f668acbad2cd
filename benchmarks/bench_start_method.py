"""What the spawn (and forkserver) worker pool costs against the fork pool, measured in one run.

    python benchmarks/bench_start_method.py                 # 9 lone solves and one 20,000-puzzle batch each
    python benchmarks/bench_start_method.py --runs 5 --count 5000 --methods fork,spawn

Lone solve: ``sudoku solve PUZZLE --strategy backtrack --time-limit 10`` as a whole process (a time
limit: the puzzle runs in a killable worker), the median wall time of ``--runs`` runs per start method.
Batch: ``sudoku solve FILE --jobs 2`` on the first ``--count`` puzzles of 17clue.txt, wall time and
puzzles per second, twice per start method in the order A B C C B A (the mean of the two is shown), so
that a steady change in the machine's load falls on every method alike. ``SUDOKIT_START_METHOD``
chooses the method; the lone solves take turns too. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from itertools import islice
from pathlib import Path

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def sudoku(method: str, *args: str) -> float:
    """Wall seconds of one ``sudoku`` command in a fresh process with workers started by ``method``."""
    env = dict(os.environ, SUDOKIT_START_METHOD=method)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "sudokit", *args], env=env, capture_output=True, text=True)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"sudoku {' '.join(args)} under {method} exited {done.returncode}: {done.stderr.strip()}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="lone solves per start method (the median is shown)")
    parser.add_argument("--count", type=int, default=20_000, help="puzzles of 17clue.txt in the batch")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--methods", default="fork,spawn,forkserver")
    options = parser.parse_args()
    methods = options.methods.split(",")

    lone: dict[str, list[float]] = {m: [] for m in methods}
    for _ in range(options.runs):
        for method in methods:
            lone[method].append(sudoku(method, "solve", PUZZLE, "--strategy", "backtrack", "--time-limit", "10"))

    batch: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "batch.txt"
        with open(PUZZLES / "17clue.txt") as source:
            lines = (line for line in source if line.strip() and not line.startswith("#"))
            path.write_text("".join(islice(lines, options.count)))
        for method in [*methods, *reversed(methods)]:
            out = Path(tmp) / f"{method}.txt"
            args = ["solve", str(path), "-s", "backtrack", "--jobs", str(options.jobs), "-f", "line"]
            took = sudoku(method, *args, "--output", str(out), "--quiet", "--force")
            batch[method] = batch.get(method, 0.0) + took / 2
            with open(out) as handle:
                records = sum(1 for _ in handle)
            assert records == options.count, f"{method}: {records} records for {options.count} puzzles"

    base = methods[0]
    print(f"cores: {len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count()}")
    print()
    batch_title = f"{options.count:,}-puzzle batch, --jobs {options.jobs} (mean of 2)"
    print(f"| start method | lone solve (median of {options.runs}) | {batch_title} |")
    print("|---|---|---|")
    for method in methods:
        median = statistics.median(lone[method])
        extra = "" if method == base else f" (+{(median - statistics.median(lone[base])) * 1000:.0f} ms)"
        rate = options.count / batch[method]
        ratio = "" if method == base else f", {batch[method] / batch[base]:.2f}x {base}'s time"
        print(f"| {method} | {median * 1000:.0f} ms{extra} | {batch[method]:.2f} s ({rate:,.0f} puzzles/s{ratio}) |")


if __name__ == "__main__":
    main()
