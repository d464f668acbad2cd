"""The backtracker in both orders, side by side: the write-ups' plain order and the fast one.

Runs ``backtrack`` (fewest candidates first, singles before guessing) and ``backtrack -o order=plain``
(first empty cell, digits in order, no singles) on top95, hardest and the first 1,000 of 17clue,
and prints ms/puzzle (mean, median, max), timeouts, and the ratio plain/fast of the means, all
measured in this one run. The plain order needs a per-puzzle time limit (it takes more than 10 s on
several top95 puzzles); a puzzle stopped at the limit counts its limit as its time, so the plain
mean and the ratio are lower bounds when it has timeouts (shown with ``>=``).

    python benchmarks/backtrack_orders.py                  # the whole run (about 10 min on 2 cores)
    python benchmarks/backtrack_orders.py --sample 100 -j 2 --plain-time-limit 0.5   # quicker
"""

from __future__ import annotations

import argparse
import itertools
import statistics
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from sudokit import solve
from sudokit.reader import read_file

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
DATA_SETS = {"top95": "top95.txt", "hardest": "hardest.txt", "17clue[:1000]": "17clue.txt"}


def _time_one(job: tuple[str, str, float | None]) -> tuple[float, str]:
    text, order, time_limit = job
    result = solve(text, "backtrack", order=order, time_limit=time_limit)
    if result.status.value == "solved":
        return result.elapsed, "solved"
    return result.elapsed, result.status.value


def _summary(times: list[float], timeouts: int) -> str:
    ms = [t * 1000 for t in times]
    lower = ">=" if timeouts else "  "
    return f"{lower}{statistics.mean(ms):9.2f} {statistics.median(ms):9.2f} {max(ms):9.1f} {timeouts:5d}/{len(ms):<5d}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=1000, help="puzzles of 17clue to take (default 1000)")
    parser.add_argument("--plain-time-limit", type=float, default=1.0, help="seconds per puzzle, plain order")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per puzzle, fast order")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="worker processes (one puzzle each at a time)")
    args = parser.parse_args()

    print(f"{'data set':<14} {'order':<6} {'mean ms':>11} {'median':>9} {'max':>9} {'timeouts':>11}  plain/fast")
    with ProcessPoolExecutor(args.jobs) as pool:
        for label, name in DATA_SETS.items():
            records = read_file(PUZZLES / name)
            if name == "17clue.txt":
                records = itertools.islice(records, args.sample)
            texts = [record.text for record in records]
            means = {}
            for order, limit in (("smart", args.time_limit), ("plain", args.plain_time_limit)):
                runs = list(pool.map(_time_one, [(t, order, limit) for t in texts], chunksize=4))
                times = [elapsed for elapsed, _ in runs]
                timeouts = sum(status == "timeout" for _, status in runs)
                unsolved = sum(status not in ("solved", "timeout") for _, status in runs)
                means[order] = (statistics.mean(times), timeouts)
                line = f"{label:<14} {order:<6} {_summary(times, timeouts)}"
                if order == "plain":
                    fast, _ = means["smart"]
                    bound = ">=" if timeouts else "  "
                    line += f"  {bound}{statistics.mean(times) / fast:8.1f}x"
                if unsolved:
                    line += f"  ({unsolved} not solved!)"
                print(line, flush=True)
    print(f"plain order limited to {args.plain_time_limit} s per puzzle; {args.jobs} worker process(es)")


if __name__ == "__main__":
    main()
