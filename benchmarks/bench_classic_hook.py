"""Classic puzzles at the current code against the engines before issue 24's variant kinds, in one run.

Issue 24 plugged 15 more variant kinds into every engine that takes variants; its target is that classic
puzzles stay as fast as before (the hook costs nothing where no rule applies): ``backtrack`` within 5 % on
top95 and 17clue. This script checks that for ``backtrack``, and reports the same ratio for ``cp-sat`` (one
worker), ``sat`` and ``python-constraint`` on a smaller sample.

The baseline is the code as committed at ``--base`` (default cd0152d, the last main commit before issue 24),
taken with ``git archive`` into a temporary folder; the current side is this working copy. Each side runs
in a child process of its own (this script with ``--serve``), its ``PYTHONPATH`` that side's ``src`` and
``strategies``, so both import their own ``sudokit`` under its own name. The parent sends each child the
same puzzles, a chunk at a time, alternating which side goes first from chunk to chunk. Each round starts
new children (the sides of a round share a hash seed, the round's number): a process's own speed, which
varies by a few per cent with where its code and data happen to land, averages out over the rounds. Each
child warms up each engine untimed on three puzzles, then times every solve by CPU time
(``time.process_time``, plus the CPU its worker processes spent, for ``python-constraint``, which searches
in one): time other processes take from the machine does not count. Both sides' answers (status, count,
first solution) are compared on every puzzle.

Printed per engine and set: the mean of each puzzle's median over the rounds per side (ms a puzzle), the
ratio current / baseline of their sums, the median of the per-puzzle ratios, and PASS/FAIL against
``--target`` (1.05; the issue's target is ``backtrack``'s, the other engines' verdicts are reported).
``--control`` adds a third child, a second copy of the current code, timed in the same rotation: its ratio
to the current side is the noise of the measurement. ``--per-puzzle`` prints every puzzle's medians.
``--variants`` adds the variant corpus as committed at the base (kinds both sides take), reported for each
engine: what issue 24 added should not slow the kinds there were either.
The exit status is 1 when a ``backtrack`` ratio misses the target, or when the sides' answers differ.

    python benchmarks/bench_classic_hook.py                  # 80 s of CPU: 3 min on 2 shared cores
    python benchmarks/bench_classic_hook.py --quick          # 12 s of CPU: backtrack only, fewer puzzles and rounds
    python benchmarks/bench_classic_hook.py --control        # and the current code against itself: the noise
    python benchmarks/bench_classic_hook.py --engines backtrack --rounds 9 --sample 4000
    python benchmarks/bench_classic_hook.py --engines backtrack,cp-sat,sat --variants
    python benchmarks/bench_classic_hook.py --base 029b3eb   # issue 23's end (same engines, new packages)
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterable
from io import BytesIO
from pathlib import Path
from typing import Any, TextIO

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
CORPUS = "puzzles/variants/corpus.txt"

#: Each engine: its module, class and options (as ``sudokit.solve`` would make it), and whether it searches
#: in worker processes of its own (their CPU time is added to the child's).
ENGINES: dict[str, tuple[str, str, dict[str, Any], bool]] = {
    "backtrack": ("sudokit_strategies.backtrack", "BacktrackStrategy", {}, False),
    "cp-sat": ("sudokit_strategies.cpsat", "CpSatStrategy", {"workers": 1}, False),
    "sat": ("sudokit_strategies.sat", "SatStrategy", {}, False),
    "python-constraint": ("sudokit_strategies.csp", "ConstraintStrategy", {}, True),
}
#: The engine the issue's target is for.
TARGETED = "backtrack"


# --- the child: one side's code, timing what the parent asks --------------------------------------------


def _descendants() -> list[int]:
    """The processes below this one (a scan of /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/stat", encoding="ascii", errors="replace") as stat:
                    ppid = int(stat.read().rpartition(")")[2].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [os.getpid()]
    while todo:
        for child in children.get(todo.pop(), ()):
            found.append(child)
            todo.append(child)
    return found


def _cpu_of(pids: list[int]) -> dict[int, int]:
    """Nanoseconds of CPU each process's threads have run (/proc/PID/task/TID/schedstat), by process."""
    spent = {}
    for pid in pids:
        total = 0
        try:
            for task in os.scandir(f"/proc/{pid}/task"):
                with open(f"{task.path}/schedstat", encoding="ascii") as schedstat:
                    total += int(schedstat.read().split()[0])
        except (OSError, ValueError):
            continue
        spent[pid] = total
    return spent


def _workers_cpu(before: dict[int, int]) -> tuple[float, dict[int, int]]:
    """Seconds the worker processes ran since ``before`` (a process new since then: all of its time)."""
    now = _cpu_of(_descendants())
    return sum(ns - before.get(pid, 0) for pid, ns in now.items()) / 1e9, now


def serve() -> None:
    """Answer the parent's requests, one JSON line each on stdin, with a JSON line on stdout."""
    import sudokit  # this side's: PYTHONPATH names its src first
    from sudokit import Grid

    home = Path(os.environ["BENCH_SIDE"]).resolve()
    if not Path(sudokit.__file__).resolve().is_relative_to(home):
        raise SystemExit(f"the child imported {sudokit.__file__}, not the side at {home}")
    engines: dict[str, Any] = {}
    grids: dict[str, list[Any]] = {}
    out = sys.stdout
    for line in sys.stdin:
        request = json.loads(line)
        if request["op"] == "load":
            grids[request["set"]] = [Grid.parse(text) for text in request["lines"]]
            reply: dict[str, Any] = {"ok": True}
        elif request["op"] == "run":
            name = request["engine"]
            if name not in engines:
                module, cls, options, _ = ENGINES[name]
                engines[name] = getattr(__import__(module, fromlist=[cls]), cls)(**options)
            reply = _run(engines[name], ENGINES[name][3], grids[request["set"]], request["indexes"], request["limit"])
        else:
            raise SystemExit(f"unknown request {request['op']!r}")
        out.write(json.dumps(reply) + "\n")
        out.flush()


def _run(engine: Any, workers: bool, grids: list[Any], indexes: list[int], limit: int) -> dict[str, Any]:
    """CPU seconds and the answer of each puzzle of ``indexes``."""
    times, answers = [], []
    gc.collect()
    spent: dict[int, int] = _cpu_of(_descendants()) if workers else {}
    for k in indexes:
        grid = grids[k]
        start = time.process_time()
        result = engine.solve(grid, limit=limit)
        cpu = time.process_time() - start
        if workers:
            extra, spent = _workers_cpu(spent)
            cpu += extra
        times.append(cpu)
        first = result.solutions[0].to_line() if result.solutions else ""
        answers.append([str(result.status.value), result.count, first])
    return {"times": times, "answers": answers}


# --- the parent: the sides, the rounds, the figures ---------------------------------------------------


class Side:
    """A child process running this script on one side's code."""

    def __init__(self, label: str, home: Path, seed: int) -> None:
        self.label = label
        path = f"{home / 'src'}{os.pathsep}{home / 'strategies'}"
        # The sides of a round share a hash seed: set orders, and where objects land, differ less between them.
        env = dict(os.environ, PYTHONPATH=path, BENCH_SIDE=str(home), PYTHONHASHSEED=str(seed))
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=home,
        )

    def ask(self, **request: Any) -> dict[str, Any]:
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        stdin.write(json.dumps(request) + "\n")
        stdin.flush()
        line = stdout.readline()
        if not line:
            raise SystemExit(f"the {self.label} child ended (exit status {self.process.wait()})")
        reply: dict[str, Any] = json.loads(line)
        return reply

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def baseline_tree(base: str) -> Path:
    """``src`` and ``strategies`` as committed at ``base``, in a new temporary folder (``git archive``)."""
    done = subprocess.run(["git", "archive", "--format=tar", base, "src", "strategies"], cwd=ROOT, capture_output=True)
    if done.returncode:
        print(f"--base {base}: git archive failed: {done.stderr.decode(errors='replace').strip()}", file=sys.stderr)
        raise SystemExit(2)
    folder = Path(tempfile.mkdtemp(prefix="sudokit-base-"))
    with tarfile.open(fileobj=BytesIO(done.stdout)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def puzzles_of(lines: Iterable[str]) -> list[str]:
    """The puzzle lines of ``lines`` (blank lines and # comments skipped)."""
    return [text for line in lines if (text := line.strip()) and not text.startswith("#")]


def puzzle_lines(name: str) -> list[str]:
    """The puzzle lines of ``puzzles/NAME``."""
    with open(PUZZLES / name, encoding="utf-8") as file:
        return puzzles_of(file)


def base_corpus(base: str) -> list[str]:
    """The variant corpus as committed at ``base`` (``git show``): kinds that both sides take."""
    done = subprocess.run(["git", "show", f"{base}:{CORPUS}"], cwd=ROOT, capture_output=True, text=True)
    if done.returncode:
        print(f"--variants: no {CORPUS} at {base}: {done.stderr.strip()}", file=sys.stderr)
        raise SystemExit(2)
    return puzzles_of(done.stdout.splitlines())


def sample_17clue(count: int) -> list[str]:
    """``count`` puzzles of 17clue.txt spread evenly over the file (every k-th), not only its first ones."""
    lines = puzzle_lines("17clue.txt")
    step = max(1, len(lines) // max(1, count))
    return lines[::step][:count]


class Figures:
    """CPU seconds per puzzle per side over the rounds, and the answers, of one engine on one set."""

    def __init__(self, engine: str, label: str, count: int, sides: list[str]) -> None:
        self.engine, self.label = engine, label
        self.times: dict[str, list[list[float]]] = {side: [[] for _ in range(count)] for side in sides}
        self.disagree: list[str] = []

    def medians(self, side: str) -> list[float]:
        return [statistics.median(t) for t in self.times[side]]


def measure(sides: dict[str, Side], figures: Figures, chunk: int, limit: int, turn: int) -> int:
    """One round of an engine on a set: every puzzle by every side, in chunks, the side that goes first turning
    with ``turn`` (returned, moved on)."""
    names = list(sides)
    engine, label, count = figures.engine, figures.label, len(figures.times[names[0]])
    for side in sides.values():  # warm-up: imports, caches, worker processes; untimed
        side.ask(op="run", engine=engine, set=label, indexes=list(range(min(3, count))), limit=limit)
    for first in range(0, count, chunk):
        indexes = list(range(first, min(first + chunk, count)))
        shift = turn % len(names)
        turn += 1
        answers = {}
        for name in names[shift:] + names[:shift]:
            reply = sides[name].ask(op="run", engine=engine, set=label, indexes=indexes, limit=limit)
            for k, t in zip(indexes, reply["times"], strict=True):
                figures.times[name][k].append(t)
            answers[name] = reply["answers"]
        reference = answers[names[0]]
        for name in names[1:]:
            for k, a, b in zip(indexes, reference, answers[name], strict=True):
                if a != b:
                    figures.disagree.append(f"puzzle {k + 1}: {names[0]} {a} but {name} {b}")
    return turn


def report(figures: Figures, target: float, targeted: bool, per_puzzle: bool, out: TextIO) -> bool:
    """Print the figures of one engine on one set; True when the ratio meets the target (``targeted``: the
    issue's, else a figure reported)."""
    base = figures.medians("baseline")
    current = figures.medians("current")
    ratio = sum(current) / sum(base)
    per = statistics.median(c / b for c, b in zip(current, base, strict=True) if b > 0)
    ok = ratio <= target and not figures.disagree
    verdict = "PASS" if ok else "FAIL"
    if not targeted:
        verdict += " (reported)"
    line = (
        f"{figures.engine:<18} {figures.label:<14} {len(base):>5} {1000 * statistics.fmean(base):>10.3f} "
        f"{1000 * statistics.fmean(current):>10.3f} {ratio:>7.4f} {per:>7.4f}"
    )
    if "control" in figures.times:
        line += f" {sum(figures.medians('control')) / sum(current):>8.4f}"
    print(f"{line}  <= {target:.2f} {verdict}", file=out)
    for problem in figures.disagree[:5]:
        print(f"    the sides disagree: {problem}", file=out)
    if per_puzzle:
        for k, (b, c) in enumerate(zip(base, current, strict=True)):
            ratio = c / b if b else float("nan")
            print(
                f"    puzzle {k + 1:>5}: baseline {1000 * b:9.3f} ms  current {1000 * c:9.3f} ms  {ratio:7.4f}",
                file=out,
            )
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="cd0152d", help="the git revision of the baseline (default cd0152d)")
    parser.add_argument("--engines", default=",".join(ENGINES), help=f"comma-separated (default {','.join(ENGINES)})")
    parser.add_argument("--rounds", type=int, default=7, help="rounds over every puzzle (default 7; 5 with --quick)")
    parser.add_argument("--sample", type=int, default=2000, help="17clue puzzles for backtrack (default 2000)")
    parser.add_argument(
        "--others", type=int, default=100, help="top95 and 17clue puzzles for the other engines (default 100 of each)"
    )
    parser.add_argument("--limit", type=int, default=1, help="solutions to look for (2 proves uniqueness)")
    parser.add_argument("--chunk", type=int, default=10, help="puzzles a side solves before the other's turn")
    parser.add_argument("--target", type=float, default=1.05, help="the most current / baseline may be (1.05)")
    parser.add_argument("--control", action="store_true", help="a second copy of the current code: the noise")
    parser.add_argument(
        "--variants",
        action="store_true",
        help=f"also {CORPUS} as at --base (its kinds): reported; python-constraint takes 17 s a round on it",
    )
    parser.add_argument("--per-puzzle", action="store_true", help="print every puzzle's medians and ratio")
    parser.add_argument("--quick", action="store_true", help="backtrack only, 500 of 17clue, 5 rounds")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve()
        return
    engines = [name.strip() for name in args.engines.split(",") if name.strip()]
    if args.quick:
        engines, args.sample, args.rounds = [TARGETED], min(args.sample, 500), min(args.rounds, 5)
    unknown = sorted(set(engines) - set(ENGINES))
    if unknown or args.rounds < 1 or args.sample < 1 or args.others < 1 or args.chunk < 1 or args.limit < 1:
        parser.error(f"engines are {', '.join(ENGINES)}; counts at least 1" + (f" (not {unknown})" if unknown else ""))
    top95 = puzzle_lines("top95.txt")
    sets = {
        TARGETED: {"top95": top95, f"17clue/{args.sample}": sample_17clue(args.sample)},
        "others": {f"top95/{args.others}": top95[: args.others], f"17clue/{args.others}": sample_17clue(args.others)},
    }
    if args.variants:
        corpus = base_corpus(args.base)
        for group in sets.values():
            group[f"variants/{len(corpus)}"] = corpus
    folder = baseline_tree(args.base)
    homes = {"baseline": folder, "current": ROOT}
    if args.control:
        homes["control"] = ROOT
    loads = {label: lines for e in engines for label, lines in sets[TARGETED if e == TARGETED else "others"].items()}
    jobs = [
        Figures(e, label, len(lines), list(homes))
        for e in engines
        for label, lines in sets[TARGETED if e == TARGETED else "others"].items()
    ]
    started = time.perf_counter()
    turn = 0
    try:
        for r in range(args.rounds):  # new children each round: how a process lays out its memory averages out
            sides = {name: Side(name, home, seed=r) for name, home in homes.items()}
            try:
                for label, lines in loads.items():
                    for side in sides.values():
                        side.ask(op="load", set=label, lines=lines)
                for figures in jobs:
                    turn = measure(sides, figures, args.chunk, args.limit, turn)
            finally:
                for side in sides.values():
                    side.close()
            print(f"round {r + 1} of {args.rounds} done ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(
        f"baseline: src and strategies at {args.base}; current: {ROOT}; CPU time a puzzle, median of "
        f"{args.rounds} rounds, limit {args.limit}"
    )
    head = f"{'engine':<18} {'set':<14} {'n':>5} {'base ms':>10} {'cur ms':>10} {'cur/base':>7} {'per-pz':>7}"
    print(head + (f" {'ctl/cur':>8}" if args.control else "") + "  target")
    ok = True
    for figures in jobs:
        targeted = figures.engine == TARGETED and not figures.label.startswith("variants")
        passed = report(figures, args.target, targeted, args.per_puzzle, sys.stdout)
        ok = ok and (passed or (not targeted and not figures.disagree))
    print(f"({time.perf_counter() - started:.0f} s)")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
