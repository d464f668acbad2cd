"""Each engine's time on the variant corpus, per kind, and the variant speed targets.

    python benchmarks/bench_variants.py                  # every engine, uniqueness (limit 2), once each
    python benchmarks/bench_variants.py --repeat 3 --limit 1

For each kind, the mean time of each engine over the corpus puzzles holding that kind (an engine that
does not take a kind shows ``-``), and, as the baseline measured in the same run, each engine's mean
time on the first classic puzzles of ``puzzles/top95.txt`` with the same limit. The engines take turns
puzzle by puzzle, so machine noise hits them alike. Targets, each printed as PASS or FAIL:

* every corpus puzzle under 1 s with ``cp-sat``;
* every corpus puzzle under 5 s with ``backtrack``, where it takes the puzzle's kinds.

``python-constraint`` has no target; its puzzles over 5 s are listed. The corpus is
``puzzles/variants/corpus.txt`` (see its README); every answer is checked against ``answers.txt``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from itertools import islice
from pathlib import Path

from sudokit import Grid, Status, capabilities_of, get_strategy, read_puzzles, solve
from sudokit.io.reader import read_file
from sudokit.model.variants import JIGSAW, KINDS

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "puzzles" / "variants" / "corpus.txt"
ANSWERS = ROOT / "puzzles" / "variants" / "answers.txt"
ENGINES = ("cp-sat", "backtrack", "python-constraint", "sat")
#: The most seconds each engine may take on one corpus puzzle (None: no target).
TARGETS = {"cp-sat": 1.0, "backtrack": 5.0, "python-constraint": None}
#: Seconds an engine gets for one puzzle before it counts as a timeout.
TIME_LIMIT = 60.0
#: Classic puzzles timed as the baseline.
BASELINE = 10


def answers() -> list[tuple[str, str]]:
    """(name, solution) per puzzle of the corpus, in order."""
    out = []
    for line in ANSWERS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, _, solution = line.split()
            out.append((name, solution))
    return out


def timed(engine: object, grid: Grid, limit: int, repeat: int) -> float | None:
    """The best of ``repeat`` wall times (seconds) of ``engine`` on ``grid``; None on a timeout or a failure."""
    best = None
    for _ in range(repeat):
        result = solve(grid, engine, limit=limit, time_limit=TIME_LIMIT)  # type: ignore[arg-type]
        if result.status is not Status.SOLVED:
            return None
        best = result.elapsed if best is None else min(best, result.elapsed)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=2, help="solutions to look for (2: prove uniqueness)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per engine and puzzle (the best is kept)")
    parser.add_argument("--engines", default=",".join(ENGINES), help="engines to time (names joined by commas)")
    args = parser.parse_args(argv)
    names = args.engines.split(",")
    engines = {name: get_strategy(name) for name in names}
    grids = list(read_puzzles(CORPUS))
    known = answers()
    assert len(grids) == len(known), "corpus.txt and answers.txt differ in length"

    # seconds[engine][k]: the time on puzzle k; None when it timed out or failed, absent when not taken.
    seconds: dict[str, dict[int, float | None]] = {name: {} for name in names}
    wrong = []
    for k, grid in enumerate(grids):
        for name, engine in engines.items():
            if grid.kinds - capabilities_of(engine).constraints:
                continue
            seconds[name][k] = timed(engine, grid, args.limit, args.repeat)
            check = solve(grid, engine, limit=1, time_limit=TIME_LIMIT) if seconds[name][k] is not None else None
            if check is not None and (check.solution is None or check.solution.to_line() != known[k][1]):
                wrong.append(f"{name} on {known[k][0]}")
        print(".", end="", flush=True, file=sys.stderr)
    print(file=sys.stderr)
    classic = [r.parse() for r in islice(read_file(ROOT / "puzzles" / "top95.txt"), BASELINE)]
    base = {
        name: statistics.fmean(timed(e, g, args.limit, args.repeat) or TIME_LIMIT for g in classic)
        for name, e in engines.items()
    }

    print(f"variant corpus: {len(grids)} puzzles, limit {args.limit}, best of {args.repeat}; mean ms per puzzle")
    width = max(len(n) for n in names) + 2
    print(f"{'kind':<18} {'puzzles':>7} " + "".join(f"{n:>{width + 6}}" for n in names))
    for kind in [JIGSAW, *KINDS, "(all)"]:
        ks = [k for k, g in enumerate(grids) if kind == "(all)" or kind in g.kinds]
        cells = []
        for name in names:
            taken = [seconds[name][k] for k in ks if k in seconds[name]]
            if not taken:
                cells.append("-")
            elif None in taken:
                cells.append(f"{taken.count(None)} timeout")
            else:
                cells.append(f"{statistics.fmean(taken) * 1000:.1f}")  # type: ignore[arg-type]
        print(f"{kind:<18} {len(ks):>7} " + "".join(f"{c:>{width + 6}}" for c in cells))
    print(
        "classic baseline: " + ", ".join(f"{n} {base[n] * 1000:.1f} ms" for n in names) + f" (top95, first {BASELINE})"
    )

    ok = not wrong
    for name in names:
        taken = seconds[name]
        worst_k = max(taken, key=lambda k: taken[k] if taken[k] is not None else float("inf"), default=None)
        if worst_k is None:
            print(f"{name}: takes no corpus puzzle")
            continue
        worst = taken[worst_k]
        shown = "timeout" if worst is None else f"{worst * 1000:.0f} ms"
        target = TARGETS.get(name)
        slow = [known[k][0] for k, s in taken.items() if s is None or s > 5.0]
        if target is None:
            over = ", ".join(slow) or "none"
            print(f"{name}: {len(taken)} puzzles, slowest {known[worst_k][0]} {shown}; over 5 s: {over}")
            continue
        passed = worst is not None and worst < target
        ok &= passed
        print(
            f"{'PASS' if passed else 'FAIL'} {name}: every one of its {len(taken)} puzzles under {target:g} s "
            f"(slowest {known[worst_k][0]} {shown})"
        )
    for line in wrong:
        print(f"FAIL wrong solution: {line}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
