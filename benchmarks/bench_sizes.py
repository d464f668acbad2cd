"""Every engine on every board size of ``puzzles/sizes``: a markdown table of mean times and timeouts.

    python benchmarks/bench_sizes.py                          # every engine, every size file, 60 s a puzzle
    python benchmarks/bench_sizes.py --engines cp-sat,sat --sizes 4x4,5x5 --time-limit 10
    python benchmarks/bench_sizes.py --check                  # `sudoku check` on every size file instead

The table (docs/performance.md's): a row per size file (``boxRxC.txt``, boards 4x4 to 36x36), a column per
registered engine, each cell ``mean (timeouts)``: the engine's mean time to solve the puzzles of the
file (``limit`` 1) that it finished, and how many it did not finish within the time limit. ``n/a``:
the engine does not claim boards of that size (its capabilities, as ``sudoku strategies`` shows
them); ``-``: it finished none. Each puzzle runs in a killable worker process (``isolate=True``, as
``sudoku`` runs them) and its time is the engine's own; the engines take turns puzzle by puzzle, so
machine noise hits them alike. Every answer is checked against the file's stored solution: a wrong
answer or an engine failure is listed under the table, counted as ``k wrong`` in the cell, and makes
the exit status 1.

``--check`` runs the real command line instead, ``sudoku check`` (every engine that claims the size,
``--box``, ``--time-limit``, JSON records) over each file, and reports per file whether the engines
agree, that the agreed count is one and that every engine's grid is the stored solution; exit status
1 when any file has a disagreement, a wrong grid or an undecided (timed-out) puzzle.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from sudokit import Grid, Shape, Status, StrategyError, available_strategies, capabilities_of, get_strategy, solve
from sudokit.io.reader import read_file

ROOT = Path(__file__).resolve().parent.parent
SIZES = ROOT / "puzzles" / "sizes"
#: Seconds an engine gets for one puzzle before it counts as a timeout.
TIME_LIMIT = 60.0
_FILE = re.compile(r"box(\d+)x(\d+)\.txt")


@dataclass(frozen=True)
class SizeFile:
    """One file of ``puzzles/sizes``: its box shape, and its (puzzle, stored solution) pairs."""

    path: Path
    shape: Shape
    puzzles: tuple[tuple[Grid, Grid], ...]

    @property
    def label(self) -> str:
        """``16x16 (box 4x4, 5 puzzles)``."""
        n = self.shape.n
        return f"{n}x{n} (box {self.shape}, {len(self.puzzles)})"


@dataclass
class Tally:
    """One engine's results on one size file."""

    seconds: list[float] = field(default_factory=list)
    timeouts: int = 0
    wrong: int = 0

    def cell(self) -> str:
        """``1.23 s (0)``, ``45 ms (1)``, ``- (3)``, with ``, k wrong`` when some answer was wrong."""
        mean = _seconds(statistics.fmean(self.seconds)) if self.seconds else "-"
        wrong = f", {self.wrong} wrong" if self.wrong else ""
        return f"{mean} ({self.timeouts}{wrong})"


def _seconds(value: float) -> str:
    if value < 0.0095:
        return f"{value * 1000:.1f} ms"
    if value < 0.995:
        return f"{value * 1000:.0f} ms"
    return f"{value:.2f} s" if value < 9.995 else f"{value:.1f} s"


def size_files(sizes: list[str] | None = None) -> list[SizeFile]:
    """The size files (all, or those of the box shapes ``sizes``, ``"4x4"``...), smallest board first."""
    found = []
    for path in SIZES.glob("box*x*.txt"):
        match = _FILE.fullmatch(path.name)
        if match is None:
            continue
        shape = Shape.of(int(match[1]), int(match[2]))
        if sizes is not None and str(shape) not in sizes:
            continue
        pairs = []
        for record in read_file(path, box=shape):
            if record.note is None:
                raise SystemExit(f"{record.where}: no stored solution (the lines are puzzle:solution)")
            pairs.append((record.parse(shape), Grid.parse(record.note, shape)))
        found.append(SizeFile(path, shape, tuple(pairs)))
    if sizes is not None and len(found) != len(sizes):
        missing = sorted(set(sizes) - {str(f.shape) for f in found})
        raise SystemExit(f"no size file for {', '.join(missing)} in {SIZES}")
    return sorted(found, key=lambda f: (f.shape.n, f.shape.box_rows))


def engine_names(wanted: list[str] | None = None) -> list[str]:
    """The registered engines that load (all, or ``wanted`` in that order); exits naming a wanted one that does not."""
    names = [info.name for info in available_strategies()] if wanted is None else wanted
    loaded = []
    for name in names:
        try:
            get_strategy(name)
        except StrategyError as err:
            if wanted is not None:
                raise SystemExit(f"engine {name!r}: {err}") from None
            print(f"skipped engine {name!r}: {err}", file=sys.stderr)
            continue
        loaded.append(name)
    return loaded


def claims(name: str, shape: Shape) -> bool:
    """True when engine ``name`` declares boards of ``shape`` in its capabilities."""
    return capabilities_of(get_strategy(name)).supports(shape)


def bench(files: list[SizeFile], names: list[str], time_limit: float) -> int:
    """Time every engine on every file; print the markdown table and any wrong answer. 1 when one was wrong."""
    tallies: dict[tuple[Path, str], Tally] = {}
    problems = []
    for f in files:
        runners = [name for name in names if claims(name, f.shape)]
        for name in runners:
            tallies[f.path, name] = Tally()
        for k, (puzzle, solution) in enumerate(f.puzzles, start=1):
            for name in runners:
                tally = tallies[f.path, name]
                result = solve(puzzle, name, time_limit=time_limit, isolate=True)
                if result.status is Status.TIMEOUT:
                    tally.timeouts += 1
                elif result.status is Status.SOLVED and result.solution == solution:
                    tally.seconds.append(result.elapsed)
                else:
                    tally.wrong += 1
                    why = result.error or ("another grid" if result.solved else result.status.value)
                    problems.append(f"{f.path.name} puzzle {k}: {name}: {why}")
            print(f"  {f.path.name} puzzle {k}/{len(f.puzzles)} done", file=sys.stderr, flush=True)
    print(f"| board (box, puzzles) | {' | '.join(names)} |")
    print(f"|---|{'---|' * len(names)}")
    for f in files:
        cells = [tallies[f.path, name].cell() if (f.path, name) in tallies else "n/a" for name in names]
        print(f"| {f.label} | {' | '.join(cells)} |")
    print()
    print(
        f"Mean time to solve (limit 1) the puzzles each engine finished, (timeouts) at {time_limit:g} s a puzzle; "
        "n/a: the engine does not claim the size."
    )
    for problem in problems:
        print(f"WRONG: {problem}")
    return 1 if problems else 0


def check(files: list[SizeFile], names: list[str], time_limit: float) -> int:
    """``sudoku check`` with every claiming engine on every file; print agreement per file. 1 on any problem."""
    bad = 0
    for f in files:
        runners = [name for name in names if claims(name, f.shape)]
        skipped = [name for name in names if name not in runners]
        command = [sys.executable, "-m", "sudokit", "check", "-s", ",".join(runners), "--box", str(f.shape)]
        command += ["-t", f"{time_limit:g}", "-f", "json", "-q", "-j", "1", str(f.path)]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        records = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
        problems = []
        if len(records) != len(f.puzzles):
            problems.append(f"{len(records)} records for {len(f.puzzles)} puzzles: {done.stderr.strip()[:300]}")
        for k, (record, (_, solution)) in enumerate(zip(records, f.puzzles, strict=False), start=1):
            if record["verdict"] != "agree":
                problems.append(f"puzzle {k}: {record['verdict']} ({'; '.join(record['problems'])})")
            elif record["count"] != 1 or not record["exact"]:
                problems.append(f"puzzle {k}: the engines agree on {record['count']} solutions, not exactly 1")
            for engine in record["engines"]:
                if engine["solution"] is not None and Grid.parse(engine["solution"], f.shape) != solution:
                    problems.append(f"puzzle {k}: {engine['strategy']} returns a grid other than the stored solution")
        not_run = f"; not claimed by {', '.join(skipped)}" if skipped else ""
        state = "all agree (count 1, the stored solution)" if not problems else "PROBLEMS"
        print(
            f"{f.path.name}: {len(f.puzzles)} puzzles, {', '.join(runners)} (exit {done.returncode}): {state}{not_run}"
        )
        for problem in problems:
            print(f"  {problem}")
        bad += bool(problems) or done.returncode != 0
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engines", help="engines joined by commas (default: every registered one that loads)")
    parser.add_argument("--sizes", help="box shapes joined by commas, e.g. 4x4,5x5 (default: every size file)")
    parser.add_argument("--time-limit", "--limit", type=float, default=TIME_LIMIT, help="seconds a puzzle (60)")
    parser.add_argument("--check", action="store_true", help="run `sudoku check` on every file instead of timing")
    args = parser.parse_args(argv)
    names = engine_names(args.engines.split(",") if args.engines else None)
    files = size_files(args.sizes.split(",") if args.sizes else None)
    if args.check:
        return check(files, names, args.time_limit)
    return bench(files, names, args.time_limit)


if __name__ == "__main__":
    sys.exit(main())
