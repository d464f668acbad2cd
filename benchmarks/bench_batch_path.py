"""The batch path through the command line: numba's solve_many vs backtrack, 2 workers vs 1, memory vs input.

    python benchmarks/bench_batch_path.py              # puzzles/17clue.txt; backtrack timed on its first 5,000

Every figure is a whole ``sudoku solve FILE -f line --jobs N -q -O OUT`` process, start-up included
(numba's import and its cached kernel are about 1 s of it), measured in this run:

* throughput: ``-s numba --jobs 1`` on the whole file against ``-s backtrack --jobs 1`` on its first
  ``--baseline`` puzzles (backtrack's rate does not depend on the length; the full file would take
  it some 20 s); target >= 10x.
* scaling: ``-s numba --jobs 2`` against ``--jobs 1``, both on the whole file; target >= 1.7x.
* steady state: the same two on ``--times`` copies of the file; the extra puzzles over the extra
  time give the rates past the start-up (each worker loads numba itself, about 1.3 s of CPU).
* memory: the peak resident size of a ``--jobs 1`` batch, parent and worker added up (sampled from
  /proc every 20 ms), and the largest single process (``getrusage`` of the children), on the copies and
  on the first 5,000 puzzles; flat means ratios near 1.0 for ~40x the input.

Wall time is what a user waits for, but on a shared machine other processes take cores from the
batch: each figure is the best of ``--repeat`` runs, and the CPU seconds (user + system, parent and
workers) are printed beside it, with the rate they give.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from batch_scaling import head  # the first lines of a file, in a file of their own

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"


def tree_rss(root: int) -> int:
    """The resident size (KiB) of process ``root`` and all its descendants, from /proc."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(entry), int(fields[1])
        children.setdefault(ppid, []).append(pid)
        rss[pid] = int(fields[21]) * (os.sysconf("SC_PAGE_SIZE") // 1024)
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        todo.extend(children.get(pid, []))
    return total


def tree_cpu(root: int) -> dict[int, float]:
    """CPU seconds (user + system) of process ``root`` and of each of its children so far, from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    found: dict[int, float] = {}
    pids = [root]
    try:
        for task in os.listdir(f"/proc/{root}/task"):
            with open(f"/proc/{root}/task/{task}/children") as handle:
                pids += [int(pid) for pid in handle.read().split()]
    except OSError:
        pass
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        found[pid] = (int(fields[11]) + int(fields[12])) / tick
    return found


def run_batch(path: Path, strategy: str, jobs: int, folder: str, *options: str) -> dict[str, float]:
    """One ``sudoku solve`` batch in a fresh process: wall seconds, CPU seconds, records, peak RSS (sum, max)."""
    out = Path(folder) / "out.txt"
    argv = [sys.executable, "-m", "sudokit", "solve", str(path), "-s", strategy, "-f", "line", *options]
    argv += ["--jobs", str(jobs), "-q", "-O", str(out), "--force"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    process = subprocess.Popen(argv)
    peak = 0
    done = threading.Event()
    cpu_seen: dict[int, float] = {}  # by process: the parent's and each worker's CPU, as last sampled

    def sample() -> None:
        nonlocal peak
        while not done.wait(0.02):
            peak = max(peak, tree_rss(process.pid))
            cpu_seen.update(tree_cpu(process.pid))

    sampler = threading.Thread(target=sample)
    sampler.start()
    code = process.wait()
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if code != 0:
        raise SystemExit(f"{' '.join(argv)} exited {code}")
    with open(out) as handle:
        records = sum(1 for _ in handle)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    parent = cpu_seen.pop(process.pid, 0.0)
    return {
        "wall": wall,
        "cpu": cpu,
        "records": records,
        "rss_sum": peak,
        "rss_max": after.ru_maxrss,
        "cpu_parent": parent,  # sampled every 20 ms: the last few ms of each process may be missing
        "cpu_workers": sum(cpu_seen.values()),
        "workers": len(cpu_seen),
    }


def best(path: Path, strategy: str, jobs: int, folder: str, repeat: int) -> dict[str, float]:
    """The run with the shortest wall time of ``repeat``."""
    runs = [run_batch(path, strategy, jobs, folder) for _ in range(repeat)]
    return min(runs, key=lambda r: r["wall"])


def shown(name: str, run: dict[str, float]) -> str:
    n = run["records"]
    return (
        f"{name:<22} {n:6.0f} puzzles  wall {run['wall']:6.2f} s = {n / run['wall']:8.0f} puzzles/s   "
        f"cpu {run['cpu']:6.2f} s = {n / run['cpu']:8.0f} puzzles/s"
    )


def repeated(path: Path, times: int, folder: str) -> Path:
    target = Path(folder) / f"{path.stem}-x{times}.txt"
    text = path.read_text()
    target.write_text((text if text.endswith("\n") else text + "\n") * times)
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, default=PUZZLES / "17clue.txt")
    parser.add_argument("--baseline", type=int, default=5000, help="puzzles backtrack is timed on")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--times", type=int, default=4, help="copies of the file for the steady-state figures")
    args = parser.parse_args()
    print(f"cores: {len(os.sched_getaffinity(0))}; load average: {os.getloadavg()[0]:.1f}; file: {args.file.name}")
    with tempfile.TemporaryDirectory() as tmp:
        one_puzzle = head(args.file, 1, tmp)
        run_batch(one_puzzle, "numba", 1, tmp)  # numba compiles (or reads its cache) once before anything is timed
        start = best(one_puzzle, "numba", 1, tmp, args.repeat)
        base = best(head(args.file, args.baseline, tmp), "backtrack", 1, tmp, args.repeat)
        one = best(args.file, "numba", 1, tmp, args.repeat)
        two = best(args.file, "numba", 2, tmp, args.repeat)
        print(shown("numba, one puzzle", start) + "   (start-up: interpreter, numba, the cached kernel)")
        print(shown("backtrack --jobs 1", base) + f"   (the first {args.baseline} puzzles)")
        print(shown("numba --jobs 1", one))
        print(shown("numba --jobs 2", two))
        rate = {k: r["records"] / r["wall"] for k, r in (("base", base), ("one", one), ("two", two))}
        cpu_rate = {k: r["records"] / r["cpu"] for k, r in (("base", base), ("one", one), ("two", two))}
        speed, scaling = rate["one"] / rate["base"], rate["two"] / rate["one"]
        print(
            f"throughput numba/backtrack, --jobs 1: {speed:5.1f}x wall ({cpu_rate['one'] / cpu_rate['base']:.1f}x "
            f"by CPU time)  target >= 10x: {'PASS' if speed >= 10 else 'FAIL'}"
        )
        print(
            f"scaling    numba --jobs 2 / --jobs 1: {scaling:5.2f}x wall (CPU per puzzle "
            f"{cpu_rate['one'] / cpu_rate['two']:.2f}x of --jobs 1's)  target >= 1.7x: "
            f"{'PASS' if scaling >= 1.7 else 'FAIL'}"
        )
        # Each worker loads numba itself: start-up is paid once per worker, so on a file that takes about as
        # long to solve as numba takes to load, two workers cannot double the rate. Past the start-up:
        more = repeated(args.file, args.times, tmp)
        one_more = best(more, "numba", 1, tmp, args.repeat)
        two_more = best(more, "numba", 2, tmp, args.repeat)
        print(shown(f"numba --jobs 1, x{args.times}", one_more))
        print(shown(f"numba --jobs 2, x{args.times}", two_more))
        extra = one_more["records"] - one["records"]
        wall_one, wall_two = one_more["wall"] - one["wall"], two_more["wall"] - two["wall"]
        cpu_one, cpu_two = one_more["cpu"] - one["cpu"], two_more["cpu"] - two["cpu"]
        print(
            f"steady state (the extra {extra:.0f} puzzles of the x{args.times} file, start-up excluded): wall "
            f"--jobs 1 {extra / wall_one:8.0f} puzzles/s ({extra / wall_one / rate['base']:.1f}x backtrack), "
            f"--jobs 2 {extra / wall_two:8.0f} puzzles/s ({wall_one / wall_two:.2f}x --jobs 1); CPU per puzzle "
            f"{cpu_one / extra * 1e6:.1f} us with 1 worker, {cpu_two / extra * 1e6:.1f} us with 2 "
            f"({cpu_two / cpu_one:.2f}x: what 2 free cores would lose to the second worker)"
        )
        # One worker for both sizes: with two, a short run may end before its second worker has loaded
        # numba (that worker is then killed), and the sum would count one numba process against two.
        small = run_batch(head(args.file, 5000, tmp), "numba", 1, tmp)
        big = run_batch(more, "numba", 1, tmp)
        print(
            f"memory     numba --jobs 1, {small['records']:.0f} puzzles: {small['rss_sum'] / 1024:6.1f} MiB "
            f"(largest process {small['rss_max'] / 1024:5.1f} MiB); {big['records']:.0f} puzzles: "
            f"{big['rss_sum'] / 1024:6.1f} MiB ({big['rss_max'] / 1024:5.1f} MiB); ratio "
            f"{big['rss_sum'] / small['rss_sum']:4.2f} ({big['rss_max'] / small['rss_max']:4.2f}) for "
            f"{big['records'] / small['records']:.0f}x the input"
        )


if __name__ == "__main__":
    main()
