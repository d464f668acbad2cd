"""backtrack on the big boards of puzzles/sizes (16x16, 25x25, 36x36), and on 9x9 against a git revision.

From 25x25 up the engine turns to clause learning after ``LEARN_AFTER`` nodes without a solution: the
``conflicts`` column counts its conflicts (0 when the search without learning finished first). The
times are wall-clock seconds on whatever else the machine is running; ``cpu`` is the process's own.

Every puzzle of ``puzzles/sizes/box4x4.txt``, ``box5x5.txt`` and (when present) ``box6x6.txt`` is
solved by the working copy's engine (limit 1, ``--time-limit`` seconds each), its answer checked
against the file's solution; the time, the nodes and the locked candidates removed are printed, and
with ``--base-big`` the engine committed at ``--base`` runs the same puzzles too (16x16 only unless
``--base-time-limit`` lets it try the rest). Then the issue's targets, as PASS/FAIL lines: every 16x16
under 1 s, the first 25x25 under 60 s. Last, unless ``--no-9x9``, the classic puzzles through
``bench_backtrack_hook.measure``: top95 and a sample of 17clue, the working copy against the engine at
``--base``, interleaved, with a noise control (a second copy of the base); the 9x9 target is a ratio
of at most 1.05.

    python benchmarks/bench_backtrack_sizes.py                        # everything (a few minutes)
    python benchmarks/bench_backtrack_sizes.py --no-9x9 --base-big    # the big boards, old engine too
    python benchmarks/bench_backtrack_sizes.py --only 4x4 --no-9x9    # the 16x16 boards alone
    python benchmarks/bench_backtrack_sizes.py --reps 11 --sample 2000 # a steadier 9x9 ratio
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

from sudokit import Grid, Status, is_solution
from sudokit.io.reader import read_file
from sudokit_strategies.backtrack import BacktrackStrategy

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_backtrack_hook import head_module, measure

ROOT = Path(__file__).resolve().parent.parent
SIZES = ROOT / "puzzles" / "sizes"
BOXES = ("4x4", "5x5", "6x6")
#: The issue's targets: seconds per puzzle for every 16x16, and for the first 25x25.
TARGET_16 = 1.0
TARGET_25 = 60.0
TARGET_9_RATIO = 1.05


def sized(box: str) -> list[tuple[Grid, Grid]]:
    """(puzzle, solution) pairs of ``puzzles/sizes/box{box}.txt`` (none when the file is absent)."""
    path = SIZES / f"box{box}.txt"
    if not path.exists():
        return []
    pairs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        text = line.strip()
        if text and not text.startswith("#"):
            puzzle, _, solution = text.partition(":")
            pairs.append((Grid.parse(puzzle, box), Grid.parse(solution, box)))
    return pairs


def run(engine: object, puzzle: Grid, solution: Grid, time_limit: float) -> tuple[str, float, float, dict[str, int]]:
    """Solve ``puzzle`` once: its status (``wrong`` for another answer than ``solution``), seconds, CPU time, stats."""
    start, cpu = time.perf_counter(), time.process_time()
    result = engine.solve(puzzle, time_limit=time_limit)  # type: ignore[attr-defined]
    took, cpu = time.perf_counter() - start, time.process_time() - cpu
    status = result.status.value
    if result.status is Status.SOLVED and (result.solution != solution or not is_solution(puzzle, result.solution)):
        status = "wrong"
    return status, took, cpu, result.stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=TARGET_25, help="seconds a big puzzle (default 60)")
    parser.add_argument("--only", choices=BOXES, action="append", help="only these box shapes (repeatable)")
    parser.add_argument("--base", default="HEAD", help="the git revision whose engine is the baseline (default HEAD)")
    parser.add_argument("--base-big", action="store_true", help="run the baseline engine on the big boards too")
    parser.add_argument(
        "--base-time-limit", type=float, default=5.0, help="seconds a big puzzle for the baseline (default 5)"
    )
    parser.add_argument("--no-9x9", action="store_true", help="skip the 9x9 comparison")
    parser.add_argument("--reps", type=int, default=7, help="9x9 repetitions (default 7)")
    parser.add_argument("--sample", type=int, default=1000, help="puzzles of 17clue for the 9x9 ratio (default 1000)")
    args = parser.parse_args()

    new = BacktrackStrategy()
    old = head_module(base=args.base).BacktrackStrategy() if args.base_big or not args.no_9x9 else None
    verdicts: list[tuple[bool, str]] = []
    print(f"new: the working copy; old: the engine at {args.base}; time limit {args.time_limit:g} s a puzzle")
    for box in args.only or BOXES:
        pairs = sized(box)
        if not pairs:
            print(f"box{box}: no puzzles/sizes/box{box}.txt")
            continue
        n = pairs[0][0].n
        times = []
        for k, (puzzle, solution) in enumerate(pairs):
            status, took, cpu, stats = run(new, puzzle, solution, args.time_limit)
            times.append((status, took))
            line = (
                f"box{box} #{k + 1} ({n}x{n}, {puzzle.count_givens()} givens): new {status:<8} {took:8.3f} s "
                f"(cpu {cpu:7.3f}) "
                f"{stats.get('nodes', 0):>9} nodes {stats.get('locked_candidates', 0):>9} locked"
                f" {stats.get('conflicts', 0):>7} conflicts"
            )
            if args.base_big and old is not None:
                base_limit = args.base_time_limit if n > 16 else max(args.base_time_limit, args.time_limit)
                o_status, o_took, _, o_stats = run(old, puzzle, solution, base_limit)
                line += f"  | old {o_status:<8} {o_took:8.3f} s {o_stats.get('nodes', 0):>9} nodes"
            print(line, flush=True)
        if box == "4x4":
            worst = max(t for _, t in times)
            ok = all(s == "solved" and t < TARGET_16 for s, t in times)
            verdicts.append((ok, f"every 16x16 solved under {TARGET_16:g} s (slowest {worst:.3f} s)"))
        elif box == "5x5":
            status, took = times[0]
            ok = status == "solved" and took < TARGET_25
            verdicts.append((ok, f"the first 25x25 solved under {TARGET_25:g} s ({status}, {took:.3f} s)"))
            if len(times) > 1:
                solved = sum(s == "solved" for s, _ in times)
                print(f"box5x5: {solved} of {len(times)} solved within {args.time_limit:g} s")
        else:
            solved = sum(s == "solved" for s, _ in times)
            print(f"box{box}: {solved} of {len(times)} solved within {args.time_limit:g} s")
    if not args.no_9x9 and old is not None:
        engines: dict[str, object] = {
            "old": old,
            "new": new,
            "control": head_module("backtrack_control", args.base).BacktrackStrategy(),
        }
        puzzles = ROOT / "puzzles"
        sets = {
            "top95": [Grid.parse(r.text) for r in read_file(puzzles / "top95.txt")],
            f"17clue[:{args.sample}]": [
                Grid.parse(r.text) for r in itertools.islice(read_file(puzzles / "17clue.txt"), args.sample)
            ],
        }
        for label, grids in sets.items():
            ratios = measure(label, grids, engines, args.reps, 1)
            ok = ratios["new"] <= TARGET_9_RATIO
            verdicts.append(
                (ok, f"{label}: new/old {ratios['new']:.4f} (control/old {ratios['control']:.4f}, the noise)")
            )
    print("targets:")
    for ok, text in verdicts:
        print(f"  {'PASS' if ok else 'FAIL'} {text}")


if __name__ == "__main__":
    main()
