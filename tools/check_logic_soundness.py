"""Every step of ``sudokit.features.logic.steps`` on every unique puzzle of the shipped data sets, checked against its
solution.

    python tools/check_logic_soundness.py              # everything (17clue whole: a few minutes)
    python tools/check_logic_soundness.py --17clue 2000

A step is sound when each placement is the solution's digit and no elimination removes the solution's
digit. Unique rectangles and BUG+1 assume one solution, so only puzzles with exactly one are taken:
top95, hardest, easy50 and 17clue (each puzzle proved unique here by ``backtrack``, limit 2) and the
size files up to 16x16 (their stored solutions; the 25x25 and 36x36 are left to the tests' time).
Prints the puzzles checked, the steps per technique, and every unsound step; exit status 1 if any.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Iterator
from itertools import islice
from pathlib import Path

from sudokit import Grid, solve
from sudokit.features.logic import steps
from sudokit.io.reader import read_file

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"


def puzzles(count_17: int | None) -> Iterator[tuple[str, Grid, Grid]]:
    """(where, puzzle, solution) for every unique puzzle checked."""
    for name, cap in (("top95.txt", None), ("hardest.txt", None), ("easy50.txt", None), ("17clue.txt", count_17)):
        for record in islice(read_file(PUZZLES / name), cap):
            grid = record.parse()
            result = solve(grid, "backtrack", limit=2)
            if result.count == 1 and result.exact and result.solution is not None:
                yield f"{name}:{record.line}", grid, result.solution
    for path in sorted((PUZZLES / "sizes").glob("box*.txt")):
        for record in read_file(path):
            grid = record.parse()
            if grid.n <= 16:
                yield f"sizes/{path.name}:{record.line}", grid, Grid.parse(record.note or "", str(grid.shape))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--17clue", dest="count_17", type=int, default=None, help="only the first N of 17clue")
    args = parser.parse_args()
    start = time.perf_counter()
    fired: Counter[str] = Counter()
    checked = unsound = 0
    for where, puzzle, solution in puzzles(args.count_17):
        checked += 1
        for step in steps(puzzle):
            fired[step.technique] += 1
            wrong = [(c, d) for c, d in step.placements if solution.cells[c] != d]
            wrong += [(c, d) for c, d in step.eliminations if solution.cells[c] == d]
            if wrong:
                unsound += 1
                print(f"UNSOUND {where}: {step.technique}: {step.explanation}")
    took = time.perf_counter() - start
    print(f"{checked} puzzles, {sum(fired.values())} steps, {unsound} unsound, in {took:.0f} s")
    for technique, count in fired.most_common():
        print(f"  {technique:32} {count:8}")
    return 1 if unsound else 0


if __name__ == "__main__":
    sys.exit(main())
