"""When a Dask cluster pays: the same file through ``--executor local --jobs 2`` and a cluster of 2 workers.

    python benchmarks/bench_dask.py                    # backtrack and numba on 17clue, cp-sat on top95
    python benchmarks/bench_dask.py --cheap 5000 --expensive 95

A ``LocalCluster`` of two single-threaded worker processes is started here, on this machine, so both
ways get the same two cores: the ratio is the price (or the gain) of Dask itself, not of more cores.
Each batch is a whole ``sudoku solve FILE -f line -O OUT -q`` process, timed from start to end (its
start-up included: ``--executor dask`` imports distributed and connects, about a second), and once more
on one puzzle to show that fixed cost alone. Puzzles/s is records / whole seconds; "steady" leaves out
the one-puzzle run's seconds. Records of both ways are compared (timings are not in ``-f line``).
Each figure is the best of two runs. The cluster lives through the whole script, as a real one would:
its worker processes load an engine on their first chunk of the first run and keep it for the next
runs, while ``--executor local`` starts new worker processes, which load the engine, on every run.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"


def batch(path: Path, strategy: str, executor: list[str], out: Path) -> float:
    """Seconds of one ``sudoku solve`` batch in a fresh process."""
    argv = [sys.executable, "-m", "sudokit", "solve", str(path), "-s", strategy, "-f", "line", "-O", str(out)]
    start = time.perf_counter()
    subprocess.run([*argv, "--force", "-q", *executor], check=True, stdin=subprocess.DEVNULL)
    return time.perf_counter() - start


def compare(name: str, path: Path, strategy: str, address: str, tmp: Path) -> None:
    """Both ways on ``path``, best of two each, and their ratio."""
    ways = {"local --jobs 2": ["--jobs", "2"], "dask, 2 workers": ["--executor", "dask", "--scheduler", address]}
    records = sum(1 for line in path.read_text().splitlines() if line.strip())
    one = tmp / "one.txt"
    one.write_text(path.read_text().splitlines()[0] + "\n")
    rates, outputs = {}, {}
    for way, args in ways.items():
        out = tmp / f"{strategy}-{way.split()[0].strip(',')}.txt"
        seconds = min(batch(path, strategy, args, out) for _ in range(2))
        fixed = min(batch(one, strategy, args, tmp / "one.out") for _ in range(2))
        outputs[way] = out.read_text()
        rates[way] = records / seconds
        steady = records / max(seconds - fixed, 1e-9)
        print(
            f"{name:<28} {way:<16} {seconds:7.2f} s  {rates[way]:8.0f} puzzles/s  "
            f"(start-up and one puzzle: {fixed:5.2f} s; steady {steady:8.0f} puzzles/s)"
        )
    local, dask = rates.values()
    same = "same records" if len(set(outputs.values())) == 1 else "RECORDS DIFFER"
    print(f"{name:<28} dask / local = {dask / local:.2f}x  ({records} puzzles, {same})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cheap", type=int, default=20000, help="17-clue puzzles for backtrack (default 20000)")
    parser.add_argument("--expensive", type=int, default=190, help="top95 puzzles for cp-sat, repeated (default 190)")
    args = parser.parse_args()
    from distributed import LocalCluster

    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        cheap = tmp / "17clue.txt"
        cheap.write_text("\n".join((PUZZLES / "17clue.txt").read_text().splitlines()[: args.cheap]) + "\n")
        top = (PUZZLES / "top95.txt").read_text().splitlines()
        expensive = tmp / "top95.txt"
        expensive.write_text("\n".join((top * (args.expensive // len(top) + 1))[: args.expensive]) + "\n")
        with LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=50
        ) as cluster:
            print(f"machine: {os.cpu_count()} cores; cluster: 2 worker processes x 1 thread, on this machine")
            compare("backtrack, 17clue (cheap)", cheap, "backtrack", cluster.scheduler_address, tmp)
            if _installed("numba"):
                compare("numba, 17clue (cheapest)", cheap, "numba", cluster.scheduler_address, tmp)
            compare("cp-sat, top95 (expensive)", expensive, "cp-sat", cluster.scheduler_address, tmp)


def _installed(engine: str) -> bool:
    from sudokit.engines.registry import default_registry

    return engine in default_registry().ready_names()


if __name__ == "__main__":
    main()
