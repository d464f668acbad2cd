"""What a lone puzzle costs ``python-constraint``, its worker's start included, against a puzzle in a batch.

    python benchmarks/bench_csp_start.py                  # the README's check puzzle, and hardest.txt
    python benchmarks/bench_csp_start.py --repeat 20 --batch 100

python-constraint searches in a child ``python`` of its own (its worker), started by the first puzzle
and kept for the next ones (again only after a timeout kills it). A lone puzzle, e.g. ``sudoku check
PUZZLE``, pays for that start; a batch pays once. Measured in one run, each as ``Result.elapsed`` (the
time ``sudoku check`` shows):

- lone: ``--repeat`` solves each with a new worker (the idle one stopped first), as a new ``sudoku``
  process has: the median, and the worker's start inside it (``stats["worker_start"]``);
- in a batch: the same puzzle ``--batch`` times with one worker: the median of the warm solves, and
  the batch's mean a puzzle with its one start;

then the ratios, and the same for every puzzle of ``hardest.txt`` (lone: one new worker each).
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from sudokit import Grid, Result, get_strategy
from sudokit.io.reader import read_file
from sudokit_strategies.csp import stop_workers

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
#: The puzzle of the README's ``sudoku check`` example.
README_PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
TIME_LIMIT = 60.0


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def lone(engine: object, puzzle: Grid) -> Result:
    """``puzzle`` solved with a new worker, as by a new process."""
    stop_workers()
    return engine.solve(puzzle, time_limit=TIME_LIMIT)  # type: ignore[attr-defined,no-any-return]


def batch(engine: object, puzzles: list[Grid]) -> list[Result]:
    """``puzzles`` solved in turn, the first with a new worker and the others with the same one."""
    stop_workers()
    return [engine.solve(puzzle, time_limit=TIME_LIMIT) for puzzle in puzzles]  # type: ignore[attr-defined]


def report(title: str, lone_runs: list[Result], batch_runs: list[Result]) -> None:
    assert all(r.solved for r in lone_runs + batch_runs), "every puzzle is solved"
    starts = sum(int(r.stats["workers_started"]) for r in batch_runs)
    alone = statistics.median(r.elapsed for r in lone_runs)
    started = statistics.median(float(r.stats["worker_start"]) for r in lone_runs)
    warm = statistics.median(r.elapsed for r in batch_runs[1:])
    mean = statistics.fmean(r.elapsed for r in batch_runs)
    print(title)
    print(f"  lone puzzle, a new worker each:   median {ms(alone)} (of which the worker's start {ms(started)})")
    print(f"  in a batch of {len(batch_runs)} ({starts} worker started): median {ms(warm)} a puzzle after the first,")
    print(f"                                    mean {ms(mean)} a puzzle with the start")
    print(
        f"  ratio lone / in a batch:          {alone / warm:.1f}x (median), {alone / mean:.1f}x (mean with the start)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=10, help="lone solves of the README's puzzle (default 10)")
    parser.add_argument("--batch", type=int, default=50, help="its solves in one batch (default 50)")
    args = parser.parse_args()
    engine = get_strategy("python-constraint")
    puzzle = Grid.parse(README_PUZZLE)
    lone_runs = [lone(engine, puzzle) for _ in range(args.repeat)]
    batch_runs = batch(engine, [puzzle] * args.batch)
    report(f"the README's check puzzle, {args.repeat} lone solves, {args.batch} in a batch:", lone_runs, batch_runs)
    hardest = [record.parse() for record in read_file(PUZZLES / "hardest.txt")]
    lone_runs = [lone(engine, p) for p in hardest]
    batch_runs = batch(engine, hardest)
    report(f"hardest.txt ({len(hardest)} puzzles), each alone and all in one batch:", lone_runs, batch_runs)
    stop_workers()


if __name__ == "__main__":
    main()
