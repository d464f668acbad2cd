"""Every engine side by side: ms/puzzle per engine and data set, all measured in this one run.

Runs ``backtrack`` (fewest candidates first, singles before guessing), ``backtrack -o order=plain``
(the write-ups' search: first empty cell, digits in order, no singles), ``cp-sat`` and
``python-constraint`` on top95, hardest and the first 1,000 of 17clue, and prints ms/puzzle
(mean, median, max), timeouts, and each engine's mean as a multiple of ``backtrack``'s.

The plain order needs a per-puzzle time limit (it takes more than 10 s on several top95 puzzles),
and so may python-constraint; a puzzle stopped at its limit counts the limit as its time, so a mean
with timeouts is a lower bound (shown with ``>=``).

    python benchmarks/backtrack_orders.py -j 2                        # everything (about 15 min)
    python benchmarks/backtrack_orders.py -j 2 --sample 100 --plain-time-limit 0.5
    python benchmarks/backtrack_orders.py --engines backtrack,plain   # the two orders alone
"""

from __future__ import annotations

import argparse
import itertools
import statistics
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from sudokit import solve
from sudokit.io.reader import read_file

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
DATA_SETS = {"top95": "top95.txt", "hardest": "hardest.txt", "17clue": "17clue.txt"}
#: label -> (strategy, options)
ENGINES = {
    "backtrack": ("backtrack", {}),
    "plain": ("backtrack", {"order": "plain"}),
    "cp-sat": ("cp-sat", {}),
    "python-constraint": ("python-constraint", {}),
}


def _time_one(job: tuple[str, str, dict[str, object], float]) -> tuple[float, str]:
    text, strategy, options, time_limit = job
    result = solve(text, strategy, time_limit=time_limit, **options)
    return result.elapsed, result.status.value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engines", default=",".join(ENGINES), help=f"comma-separated, of {', '.join(ENGINES)}")
    parser.add_argument("--sample", type=int, default=1000, help="puzzles of 17clue to take (default 1000)")
    parser.add_argument("--plain-time-limit", type=float, default=1.0, help="seconds per puzzle, plain order")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per puzzle, other engines")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="worker processes (one puzzle each at a time)")
    args = parser.parse_args()
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    unknown = sorted(set(engines) - set(ENGINES))
    if unknown:
        parser.error(f"unknown engines {unknown}")

    print(f"{'data set':<14} {'engine':<18} {'mean ms':>11} {'median':>9} {'max':>9} {'timeouts':>11}  x backtrack")
    with ProcessPoolExecutor(args.jobs) as pool:
        for label, name in DATA_SETS.items():
            records = read_file(PUZZLES / name)
            if name == "17clue.txt":
                records = itertools.islice(records, args.sample)
                label = f"17clue[:{args.sample}]"
            texts = [record.text for record in records]
            base = None
            for engine in engines:
                strategy, options = ENGINES[engine]
                limit = args.plain_time_limit if engine == "plain" else args.time_limit
                runs = list(pool.map(_time_one, [(t, strategy, options, limit) for t in texts], chunksize=4))
                ms = [elapsed * 1000 for elapsed, _ in runs]
                timeouts = sum(status == "timeout" for _, status in runs)
                unsolved = sum(status not in ("solved", "timeout") for _, status in runs)
                mean = statistics.mean(ms)
                bound = ">=" if timeouts else "  "
                line = (
                    f"{label:<14} {engine:<18} {bound}{mean:9.2f} {statistics.median(ms):9.2f} {max(ms):9.1f} "
                    f"{timeouts:5d}/{len(ms):<5d}"
                )
                if engine == "backtrack":
                    base = mean
                elif base:
                    line += f"  {bound}{mean / base:8.1f}x"
                if unsolved:
                    line += f"  ({unsolved} not solved!)"
                print(line, flush=True)
    print(
        f"time limits: plain order {args.plain_time_limit} s, other engines {args.time_limit} s a puzzle; "
        f"{args.jobs} worker process(es)"
    )


if __name__ == "__main__":
    main()
