"""Issue 27's batch: eight copies of 17clue through ``sudoku solve -s numba --unique -f line -q -O FILE``.

    python benchmarks/bench_batch_throughput.py            # 8 copies (393,208 lines), built in a temporary folder
    python benchmarks/bench_batch_throughput.py --copies 2 --repeat 1

Every figure is a whole ``sudoku`` process, start-up included, measured in this run:

* puzzles/s with ``--jobs 1`` and ``--jobs 2`` (wall time, the best of ``--repeat``) and their ratio
  (targets: at least 115,000 puzzles/s with one worker, 2 workers at least 1.8x one);
* CPU time per puzzle (user + system, the caller and its workers): it holds on a busy machine, where
  wall time does not; the load average is printed before and after;
* where a puzzle's CPU goes (``--split`` copies, each side of the path run in this process): the
  parent's reading, its check and records, the worker's work around the kernel, and the kernel;
* memory: the peak resident size of the whole process tree (sampled from /proc) for ``--jobs 1`` on one
  copy and on all of them: flat means a ratio near 1.0 for ``--copies`` times the input;
* when tdoku's shared library is there (built by ``benchmarks/bench_tdoku.py`` into
  ``~/.cache/sudokit-bench/tdoku``, or ``--tdoku PATH``): a plain Python loop calling it through ctypes
  over the same lines with a limit of 2, writing the same records, and sudokit's time over its (target:
  within 2x). Without it, sudokit's figures alone.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_batch_path import run_batch  # one batch: wall, CPU, records, peak RSS of the process tree
from bench_tdoku import CACHE as TDOKU_CACHE  # where bench_tdoku.py builds tdoku
from bench_tdoku import tdoku_function

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"


def copies(path: Path, times: int, folder: str) -> Path:
    """``times`` copies of ``path`` one after the other, each ending its last line."""
    target = Path(folder) / f"{path.stem}-x{times}.txt"
    text = path.read_text()
    target.write_text((text if text.endswith("\n") else text + "\n") * times)
    return target


def run(path: Path, jobs: int, folder: str) -> dict[str, float]:
    """One batch in a fresh process: wall and CPU seconds, records written, peak resident KiB of the tree."""
    found = run_batch(path, "numba", jobs, folder, "--unique")
    return {**found, "rss": found["rss_sum"]}


def best(path: Path, jobs: int, folder: str, repeat: int) -> dict[str, float]:
    return min((run(path, jobs, folder) for _ in range(repeat)), key=lambda r: r["wall"])


def find_tdoku(given: Path | None) -> Path | None:
    """tdoku's shared library: ``given``, else the first ``libtdoku*.so`` (or .dylib) under the benchmark's cache."""
    if given is not None:
        return given
    if not TDOKU_CACHE.is_dir():
        return None
    found = sorted(p for p in TDOKU_CACHE.rglob("libtdoku*") if p.suffix in (".so", ".dylib"))
    return found[0] if found else None


def tdoku_loop(library: Path, path: Path, folder: str) -> dict[str, float]:
    """A Python loop calling tdoku (limit 2) on each line, writing ``puzzle:unique`` records: wall and CPU seconds."""
    solve = tdoku_function(library)
    words = {0: b":none", 1: b":unique"}
    solution = ctypes.create_string_buffer(82)
    guesses = ctypes.c_size_t()
    start, cpu = time.perf_counter(), time.process_time()
    records = 0
    with open(path, "rb") as source, open(Path(folder) / "tdoku.txt", "wb") as out:
        lines = []
        for line in source:
            puzzle = line[:81]
            count = solve(puzzle, 2, 0, solution, ctypes.byref(guesses))
            lines.append(puzzle + words.get(count, b":several"))
            records += 1
            if len(lines) >= 4096:
                out.write(b"\n".join(lines) + b"\n")
                lines = []
        out.write(b"\n".join(lines) + b"\n" if lines else b"")
    return {"wall": time.perf_counter() - start, "cpu": time.process_time() - cpu, "records": records}


def split(path: Path) -> str:
    """Where a puzzle's CPU goes, each side of the batch path run in this process: the parent's reading, the
    worker's work around the kernel, the kernel (``solve_many``), the parent's check and records."""
    from sudokit.runtime.batch import SolveJob
    from sudokit.runtime.fastpath import read_items
    from sudokit.runtime.output import RecordFormat
    from sudokit_strategies.jit import NumbaStrategy

    job = SolveJob("numba", {}, RecordFormat("line", limit=2, unique=True), time_limit=60.0)
    task = job.task()
    answer = task.start(lambda part: None)
    kernel = [0.0]
    solve_many = NumbaStrategy.solve_many

    def timed(self: NumbaStrategy, *args: object, **options: object) -> object:
        start = time.process_time()
        try:
            return solve_many(self, *args, **options)  # type: ignore[arg-type]
        finally:
            kernel[0] += time.process_time() - start

    NumbaStrategy.solve_many = timed  # type: ignore[assignment,method-assign]
    try:
        start = time.process_time()
        items = list(job.items(read_items([str(path)])))
        reading = time.process_time() - start
        worker = finishing = 0.0
        for item in items:
            start = time.process_time()
            answered = answer(item)
            middle = time.process_time()
            task.finish(item, answered)
            worker += middle - start
            finishing += time.process_time() - middle
    finally:
        NumbaStrategy.solve_many = solve_many  # type: ignore[method-assign]
    n = path.read_bytes().count(b"\n")  # every line ends with one
    return (
        f"CPU a puzzle, in one process: parent's reading {reading / n * 1e6:.2f} us, its check and records "
        f"{finishing / n * 1e6:.2f} us; the worker around the kernel {(worker - kernel[0]) / n * 1e6:.2f} us, "
        f"the kernel {kernel[0] / n * 1e6:.2f} us"
    )


def bytecode() -> str:
    """Whether the processes started here find numba's modules compiled (.pyc): without, each compiles them."""
    import importlib.util

    spec = importlib.util.find_spec("numba")
    source = spec.origin if spec is not None else None
    if source is None:
        return "bytecode: numba is not installed"
    cached = importlib.util.cache_from_source(source)  # (PYTHONPYCACHEPREFIX applies)
    if os.path.exists(cached):
        return f"bytecode: numba's modules are compiled ({Path(cached).parent})"
    why = "PYTHONDONTWRITEBYTECODE is set" if sys.dont_write_bytecode else "not written yet"
    return (
        f"bytecode: numba's modules have no .pyc ({why}; the install did not compile them): every process "
        "compiles them from source, about 1.5 s of CPU at start-up (uv: --compile-bytecode)"
    )


def shown(name: str, r: dict[str, float]) -> str:
    n = r["records"]
    line = (
        f"{name:<24} {n:7.0f} puzzles  wall {r['wall']:6.2f} s = {n / r['wall']:8.0f}/s   "
        f"cpu {r['cpu']:6.2f} s = {r['cpu'] / n * 1e6:5.1f} us a puzzle"
    )
    if "cpu_parent" in r:  # a sudoku process: the caller's CPU and its workers' apart
        line += f" (caller {r['cpu_parent']:.2f} s, {r['workers']:.0f} worker(s) {r['cpu_workers']:.2f} s)"
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, default=PUZZLES / "17clue.txt")
    parser.add_argument("--copies", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--split", type=int, default=2, help="copies for the in-process split of the CPU time")
    parser.add_argument("--tdoku", type=Path, default=None, help="tdoku's shared library (default: the cache's)")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"cores: {len(os.sched_getaffinity(0))}; load average: {load:.1f}; file: {args.file.name} x{args.copies}")
    print(bytecode())
    with tempfile.TemporaryDirectory() as tmp:
        big = copies(args.file, args.copies, tmp)
        run(copies(args.file, 1, tmp), 1, tmp)  # numba's cache read (or compiled) once before anything is timed
        one = best(big, 1, tmp, args.repeat)
        two = best(big, 2, tmp, args.repeat)
        print(shown("numba --jobs 1", one))
        print(shown("numba --jobs 2", two))
        rate_one, rate_two = one["records"] / one["wall"], two["records"] / two["wall"]
        print(f"--jobs 1: {rate_one:,.0f} puzzles/s (target >= 115,000: {'PASS' if rate_one >= 115_000 else 'FAIL'})")
        scaling = rate_two / rate_one
        print(
            f"--jobs 2 / --jobs 1: {scaling:.2f}x wall (target >= 1.8x: {'PASS' if scaling >= 1.8 else 'FAIL'}); "
            f"CPU per puzzle {two['cpu'] / one['cpu']:.2f}x --jobs 1's"
        )
        cores = len(os.sched_getaffinity(0))
        if one.get("workers") and two.get("workers"):  # what the CPU alone allows, the machine free
            floor_one = max(one["cpu_parent"], one["cpu_workers"])  # caller and worker side by side
            floor_two = max(two["cpu_parent"], two["cpu_workers"] / 2, two["cpu"] / min(cores, 3))
            print(
                f"--jobs 2 ceiling on {cores} free cores from the CPU measured: {floor_one / floor_two:.2f}x "
                f"(--jobs 1 cannot end before its busier process, {floor_one:.2f} s; --jobs 2 not before "
                f"{floor_two:.2f} s: the caller, each worker's half, or all CPU spread over the cores)"
            )
        small = run(copies(args.file, 1, tmp), 1, tmp)
        print(
            f"memory (--jobs 1, process tree): {small['records']:.0f} puzzles {small['rss'] / 1024:.0f} MiB, "
            f"{one['records']:.0f} puzzles {one['rss'] / 1024:.0f} MiB: ratio {one['rss'] / small['rss']:.2f} "
            f"for {one['records'] / small['records']:.0f}x the input"
        )
        print(split(copies(args.file, args.split, tmp)))
        library = find_tdoku(args.tdoku)
        if library is None:
            print(f"tdoku: no shared library under {TDOKU_CACHE} (benchmarks/bench_tdoku.py builds it): not compared")
        else:
            loop = tdoku_loop(library, big, tmp)
            print(shown("Python loop over tdoku", loop))
            ratio = one["wall"] / loop["wall"]
            print(
                f"sudokit --jobs 1 / tdoku loop: {ratio:.2f}x wall, {one['cpu'] / loop['cpu']:.2f}x CPU "
                f"(target within 2x: {'PASS' if ratio <= 2 else 'FAIL'})"
            )
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
