"""The step solver on the variant puzzles sudokit ships: how many ``explain`` solves by logic alone, and how fast.

    python benchmarks/bench_variant_logic.py            # every puzzle of puzzles/variants/
    python benchmarks/bench_variant_logic.py --links    # only the 155 real links
    python benchmarks/bench_variant_logic.py --only killer

For each puzzle of ``corpus.txt`` (its solution from ``answers.txt``) and each real link of every accepted links
file (``links.txt``, ``links-sudokusolver.txt``, ``links-variantsolverjs.txt``, ``links-kaji.txt``; its published
solution, checked by sudokit's independent checker), the whole path of :func:`sudokit.features.logic.steps`,
every step checked against the solution (no elimination of the solution's digit, every placement the
solution's). Reported: the share solved by logic alone (no "needs search"; target >= 80 % of the real links),
CPU seconds per ``explain`` (the whole path; target < 10 s; one over ``--budget`` CPU seconds is cut off and
counted as not solved), the slowest step of each path (a hint asked for there; target < 1 s), the techniques
used, and the load average. tests/test_logic_variants.py runs the same check on a sample.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from sudokit.engines.verify import solution_problem
from sudokit.features.logic import Step, steps
from sudokit.io.puzzles import parse_puzzle
from sudokit.model.grid import Grid

VARIANTS = Path(__file__).resolve().parent.parent / "puzzles" / "variants"


#: Every file of real links sudokit accepts (links-refused.txt holds those it refuses).
LINK_FILES = ("links.txt", "links-sudokusolver.txt", "links-variantsolverjs.txt", "links-kaji.txt")


def shipped() -> list[tuple[str, bool, Grid, tuple[int, ...]]]:
    """(name, real, puzzle, solution cells) for each puzzle of corpus.txt and each link of every accepted links
    file (real: a link); each solution checked by the independent checker."""
    out = []
    corpus = [line for line in (VARIANTS / "corpus.txt").read_text().splitlines() if line.startswith("{")]
    answers = [line.split() for line in (VARIANTS / "answers.txt").read_text().splitlines() if line[:1].isalpha()]
    assert len(corpus) == len(answers), "corpus.txt and answers.txt differ in length"
    for text, (name, _kinds, _count, solution) in zip(corpus, answers, strict=True):
        grid = parse_puzzle(text)
        out.append((name, False, grid, _cells(solution, grid)))
    for file in LINK_FILES:
        comments: list[str] = []
        for raw in (VARIANTS / file).read_text(encoding="utf-8").splitlines():
            if raw.startswith("# "):
                comments.append(raw[2:])
            elif not raw.strip():
                comments = []  # a blank line ends the file's header (and separates puzzles)
            else:
                kinds = next(c for c in comments if c.startswith("kinds: "))
                grid = parse_puzzle(raw.strip())
                out.append((comments[0], True, grid, _cells(kinds.partition("; solution: ")[2], grid)))
                comments = []
    return out


def _cells(solution: str, grid: Grid) -> tuple[int, ...]:
    """The published solution's digits, one a character, checked by sudokit's independent checker; a 16x16
    board's is written without separators (10 as "10"), so there cp-sat's solution stands in, once it is checked
    to read as the published one."""
    text = solution.strip()
    if len(text) == grid.n * grid.n:
        cells = tuple(int(ch) for ch in text)
    else:
        from sudokit import solve

        found = solve(grid, "cp-sat", time_limit=60).solution
        assert found is not None and "".join(map(str, found.cells)) == text, "not the published solution"
        cells = tuple(found.cells)
    problem = solution_problem(grid, Grid(list(cells), grid.shape, validate=False))
    assert problem is None, f"the published solution is wrong: {problem}"
    return cells


class _OverBudget(Exception):
    """The puzzle's explain took more CPU seconds than --budget."""


def checked_path(grid: Grid, solution: tuple[int, ...], times: list[float] | None = None) -> list[Step]:
    """The whole logical path of ``grid``, each step checked against ``solution`` (AssertionError naming it);
    each step's CPU seconds appended to ``times`` (the time of a hint at that point)."""
    path = []
    clock = time.process_time()
    for k, step in enumerate(steps(grid)):
        if times is not None:
            times.append(time.process_time() - clock)
        where = f"step {k}: {step.technique}: {step.explanation}"
        for cell, digit in step.placements:
            assert solution[cell] == digit, f"{where}: places {digit}, the solution has {solution[cell]}"
        for cell, digit in step.eliminations:
            assert solution[cell] != digit, f"{where}: removes the solution's {digit}"
        path.append(step)
        clock = time.process_time()
    return path


def _over_budget(signum: int, frame: object) -> None:
    raise _OverBudget


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="only the puzzles whose name holds this text")
    parser.add_argument("--links", action="store_true", help="only the real links, not corpus.txt")
    parser.add_argument("--budget", type=float, default=120.0, help="CPU seconds an explain may take (120)")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGPROF, _over_budget)
    rows = []
    for name, real, grid, solution in shipped():
        if args.only not in name or (args.links and not real):
            continue
        times: list[float] = []
        start = time.process_time()
        signal.setitimer(signal.ITIMER_PROF, args.budget)
        try:
            path = checked_path(grid, solution, times)
            over = False
        except _OverBudget:
            path, over = [], True
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
        explain_s = time.process_time() - start
        hint_s = max(times, default=0.0)  # the slowest step: a hint asked for at that point of the path
        solved = bool(path) and path[-1].technique not in ("needs search", "contradiction")
        rows.append((name, real, solved, hint_s, explain_s, Counter(s.technique for s in path)))
        shown = f"{'link ' if real else ''}{name[:60]}"
        verdict = "" if solved else f"OVER {args.budget:.0f} s" if over else "STALLS"
        print(f"{shown:65} {len(path):4} steps {explain_s:6.2f} s  hint {hint_s:5.2f} s  {verdict}", flush=True)
    for label, chosen in (("real links", [r for r in rows if r[1]]), ("corpus", [r for r in rows if not r[1]])):
        if not chosen:
            continue
        share = sum(r[2] for r in chosen) / len(chosen)
        hints = [r[3] for r in chosen]
        explains = [r[4] for r in chosen]
        print(
            f"{label}: {sum(r[2] for r in chosen)}/{len(chosen)} solved by logic alone ({share:.0%}); "
            f"slowest step (a hint there) median {statistics.median(hints):.3f} s, max {max(hints):.2f} s; "
            f"explain median {statistics.median(explains):.2f} s, max {max(explains):.2f} s (CPU); "
            f"{sum(r[4] > 10 for r in chosen)} explains over 10 s, {sum(r[3] > 1 for r in chosen)} hints over 1 s"
        )
    used: Counter[str] = Counter()
    for row in rows:
        used.update(row[5])
    print("techniques:", ", ".join(f"{t} {c}" for t, c in used.most_common()))
    print(f"load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
