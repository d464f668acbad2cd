"""Batch throughput with 1 and 2 workers, and memory against the file's length, in one run.

    python benchmarks/batch_scaling.py            # 17clue: scaling on 20,000 puzzles, memory on all 49,151

Isolation: the same solve task run through one killable worker process and in this process;
Scaling: ``sudoku solve FILE --jobs 1`` vs ``--jobs 2`` as whole processes on the same puzzles;
target >= 1.7x the throughput with 2 workers on a 2-core machine.
Memory: the peak resident size of the batch (the largest of its processes) on the first 2,000
puzzles and on the whole file; flat means the ratio stays near 1.0 while the input grows ~25x.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from itertools import islice
from pathlib import Path

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"


def run_batch(path: Path, jobs: int, strategy: str) -> tuple[float, int, int]:
    """Seconds, output records and peak RSS (KiB) of one ``sudoku solve`` batch in a fresh process."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.txt"
        argv = [
            sys.executable,
            "-m",
            "sudokit",
            "solve",
            str(path),
            "--strategy",
            strategy,
            "--jobs",
            str(jobs),
            "--format",
            "line",
            "--output",
            str(out),
            "--quiet",
        ]
        code = (
            "import resource, subprocess, sys, time\n"
            "t = time.perf_counter(); rc = subprocess.run(sys.argv[1:]).returncode\n"
            "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, rc)\n"
        )
        # A fresh parent per batch, so the peak RSS of its children is this batch's alone.
        line = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, check=True).stdout
        seconds, peak, rc = line.split()
        assert rc == "0", f"batch exited {rc}"
        with open(out) as handle:
            records = sum(1 for _ in handle)
        return float(seconds), records, int(peak)


def isolation_cost(path: Path, count: int, strategy: str) -> None:
    """The price of running engines in a killable worker: the same solve task in one worker, and in this process."""
    from sudokit.engines.workers import WorkerPool
    from sudokit.io.reader import read_file
    from sudokit.runtime.batch import SolveTask
    from sudokit.runtime.output import RecordFormat

    records = list(islice(read_file(path), count))
    rates = {}
    for isolate in (False, True, False, True):
        task = SolveTask(strategy, {}, time_limit=60.0, render=RecordFormat("line"))
        start = time.perf_counter()
        with WorkerPool(task, 1, isolate=isolate) as pool:
            done = sum(1 for _ in pool.map(enumerate(records)))
        rates.setdefault(isolate, []).append(done / (time.perf_counter() - start))
    inside, worker = max(rates[False]), max(rates[True])
    print(
        f"isolation  in this process: {inside:7.0f} puzzles/s  in a killable worker: {worker:7.0f} puzzles/s  "
        f"cost {100 * (1 - worker / inside):4.1f} %  (best of 2 each, {count} puzzles, time limit 60 s)"
    )


def head(path: Path, count: int, folder: str) -> Path:
    target = Path(folder) / f"{path.stem}-{count}.txt"
    with open(path) as source, open(target, "w") as sink:
        sink.writelines(islice(source, count))
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, default=PUZZLES / "17clue.txt")
    parser.add_argument("--scaling-sample", type=int, default=20000)
    parser.add_argument("--strategy", default="backtrack")
    args = parser.parse_args()
    print(f"cores: {len(os.sched_getaffinity(0))}; file: {args.file.name}; strategy: {args.strategy}")
    isolation_cost(args.file, 5000, args.strategy)
    with tempfile.TemporaryDirectory() as tmp:
        sample = head(args.file, args.scaling_sample, tmp)
        one_s, one_n, _ = run_batch(sample, 1, args.strategy)
        two_s, two_n, _ = run_batch(sample, 2, args.strategy)
        ratio = (two_n / two_s) / (one_n / one_s)
        print(
            f"scaling  jobs=1: {one_n / one_s:7.0f} puzzles/s  jobs=2: {two_n / two_s:7.0f} puzzles/s  "
            f"ratio {ratio:4.2f}  (target >= 1.7: {'PASS' if ratio >= 1.7 else 'FAIL'})"
        )
        small = head(args.file, 2000, tmp)
        _, small_n, small_rss = run_batch(small, 2, args.strategy)
        _, big_n, big_rss = run_batch(args.file, 2, args.strategy)
        print(
            f"memory   {small_n} puzzles: peak {small_rss / 1024:6.1f} MiB  {big_n} puzzles: peak "
            f"{big_rss / 1024:6.1f} MiB  ratio {big_rss / small_rss:4.2f} for {big_n / small_n:.0f}x the input"
        )


if __name__ == "__main__":
    main()
