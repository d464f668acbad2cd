"""The cost of trusting an answer, as a share of ``backtrack``'s own solve time, measured in this same run.

    python benchmarks/verify_cost.py              # the first 2,000 puzzles of 17clue
    python benchmarks/verify_cost.py -n 10000

Each puzzle is solved by ``backtrack`` (its ``solve`` called directly, timed), then its result is
checked by ``sudokit.engines.verify.result_problem`` (timed), then passed through ``run`` by an engine that
returns that very result at once, so that what ``run`` adds (argument checks, the Ctrl-C record and
the watchdog armed for the call, the check, making the result safe to pass on) is timed apart from
any solving (the answer is made anew of what is checked). Target: the check costs at most 3 % of a
solve; run's whole overhead is reported beside, and what the caller's process adds to an answer from
a worker (``result_of``: the Result made again of plain data and checked there).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from itertools import islice
from pathlib import Path

from sudokit import Grid, Result, get_strategy
from sudokit.engines.api import answer_of, result_of, run
from sudokit.engines.verify import result_problem
from sudokit.io.reader import read_file

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
TARGET = 0.03
REPEAT = 20  # the check and run take microseconds: each is timed over this many calls


class Answers:
    """An engine that returns a given result at once: what ``run`` costs beside the solve."""

    name = "backtrack"
    description = "returns the result it holds"

    def __init__(self) -> None:
        self.result: Result | None = None

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        assert self.result is not None
        return self.result


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--sample", type=int, default=2000, help="puzzles of 17clue (default: 2,000)")
    args = parser.parse_args()
    grids = [record.parse() for record in islice(read_file(PUZZLES / "17clue.txt"), args.sample)]
    backtrack, answers = get_strategy("backtrack"), Answers()
    solves, checks, runs, bare, parents = [], [], [], [], []
    clock = time.perf_counter
    for grid in grids:  # one puzzle at a time, all three measures: machine noise hits each alike
        start = clock()
        result = backtrack.solve(grid, time_limit=60)
        solves.append(clock() - start)
        start = clock()
        for _ in range(REPEAT):
            problem = result_problem(result, grid, limit=1)
        checks.append((clock() - start) / REPEAT)
        assert problem is None, problem
        answers.result = result
        start = clock()
        for _ in range(REPEAT):
            answers.solve(grid, limit=1, time_limit=60.0)
        bare.append((clock() - start) / REPEAT)
        start = clock()
        for _ in range(REPEAT):
            passed = run(answers, grid, time_limit=60)  # with a limit, as the CLI runs: the watchdog is armed
        runs.append((clock() - start) / REPEAT)
        assert passed.solutions == result.solutions and passed.status is result.status, passed
        answer = answer_of(passed)
        start = clock()
        for _ in range(REPEAT):
            again = result_of(answer, grid, "backtrack", limit=1)
        parents.append((clock() - start) / REPEAT)
        assert again.solutions == result.solutions, again
    solve_mean, check_mean = statistics.fmean(solves), statistics.fmean(checks)
    overhead = statistics.fmean(runs) - statistics.fmean(bare)
    share = check_mean / solve_mean
    print(f"backtrack on {len(grids):,} puzzles of 17clue: mean {solve_mean * 1e3:.3f} ms a solve")
    print(
        f"  result_problem  mean {check_mean * 1e6:6.2f} us a result (median {statistics.median(checks) * 1e6:5.2f})"
        f"  {share:6.2%} of a solve  target <= {TARGET:.0%}  {verdict(share <= TARGET)}"
    )
    print(
        f"  run's overhead  mean {overhead * 1e6:6.2f} us a call (the check included)"
        f"  {overhead / solve_mean:6.2%} of a solve  (reported)"
    )
    parent = statistics.fmean(parents)
    print(
        f"  in the caller   mean {parent * 1e6:6.2f} us a result (a worker's answer made a Result again and checked)"
        f"  {parent / solve_mean:6.2%} of a solve  (reported)"
    )
    sys.exit(0 if share <= TARGET else 1)


if __name__ == "__main__":
    main()
