"""What ``isolate=True`` costs a call: ``sudokit.solve`` in a killable worker process against in this process.

    python benchmarks/bench_isolate.py              # the LeetCode 37 board, medians of 100 calls each way
    python benchmarks/bench_isolate.py -n 30 --puzzle puzzles/hardest.txt

The calls alternate (one in process, one isolated), so that machine noise hits both ways alike; each is
timed as a whole (``time.perf_counter`` around ``solve``), the same puzzle with ``backtrack``. Printed: the
median of each way, and their ratio. The first call of each way is left out (it imports the engine, or
starts the worker's machinery).
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from sudokit import solve

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=100, help="calls each way (default 100)")
    parser.add_argument("--puzzle", default="puzzles/leetcode37.txt", help="a file whose first line is the puzzle")
    parser.add_argument("-s", "--strategy", default="backtrack")
    args = parser.parse_args()
    puzzle = (ROOT / args.puzzle).read_text(encoding="utf-8").splitlines()[0]
    times: dict[bool, list[float]] = {False: [], True: []}
    for isolate in (False, True):  # warm-up, not counted
        assert solve(puzzle, args.strategy, isolate=isolate).status == "solved"
    for _ in range(args.n):
        for isolate in (False, True):
            start = time.perf_counter()
            result = solve(puzzle, args.strategy, isolate=isolate)
            times[isolate].append(time.perf_counter() - start)
            assert result.status == "solved", result
    inside, isolated = (statistics.median(times[k]) * 1000 for k in (False, True))
    print(f"{args.puzzle}, {args.strategy}, medians of {args.n}:")
    print(f"  in process   {inside:8.2f} ms")
    print(f"  isolate=True {isolated:8.2f} ms  ({isolated / inside:.1f}x)")


if __name__ == "__main__":
    main()
