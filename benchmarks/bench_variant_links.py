"""Every real f-puzzles/SudokuPad link sudokit ships: accepted or refused, and each engine's time to prove it unique.

    python benchmarks/bench_variant_links.py                       # cp-sat, sat, backtrack, python-constraint
    python benchmarks/bench_variant_links.py --engines cp-sat,sat --time-limit 10
    python benchmarks/bench_variant_links.py --check                # issue 24: `sudoku check` on the new kinds

The links are those of ``puzzles/variants/links*.txt`` (see its README): the accepted ones of
``links.txt``, ``links-sudokusolver.txt`` and ``links-kaji.txt`` and the refused ones of
``links-refused.txt``. Every link is read; a refused one is listed with its reason. Each accepted one is
solved by each engine with limit 2 (which proves uniqueness), the engines taking turns puzzle by
puzzle, and each answer is compared with the solution published beside the link. Printed: the
acceptance percentage, the puzzles that use a kind added by issue 24 (the ``NEW`` kinds, or a dot of
another value, or the negative rule of one dot colour), and per engine the median and the slowest
time. Targets, each printed as PASS or FAIL:

* at least 95 % of the links accepted and proved unique by ``cp-sat`` and ``sat`` (both finding the published
  solution);
* every accepted puzzle proved unique, with the published solution, by ``cp-sat`` and ``sat`` in under
  5 s each and by ``backtrack`` in under 60 s; ``python-constraint`` has no target (its times are shown).

With ``--check``, only the accepted puzzles that use a kind issue 24 added are taken, each cross-checked
(what ``sudoku check -s ENGINES --time-limit T`` does, limit 2) by the engines: one line a puzzle (the
verdict, the count, each engine's seconds), then how many agree on the published solution, unique, and
each engine's slowest. Target: every one agrees.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

from sudokit import Grid, Status, get_strategy, solve
from sudokit.errors import InvalidPuzzleError
from sudokit.features.crosscheck import cross_check
from sudokit.io.links import parse_link
from sudokit.model.variants import KINDS, Kropki, KropkiNegative

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ROOT / "puzzles" / "variants"
ENGINES = ("cp-sat", "sat", "backtrack", "python-constraint")
#: The most seconds each engine may take to prove one real puzzle unique (None: no target).
TARGETS: dict[str, float | None] = {"cp-sat": 5.0, "sat": 5.0, "backtrack": 60.0, "python-constraint": None}
#: The engines whose agreement proves a puzzle unique for the acceptance figure (as issue 24 measured it).
PROVERS = ("cp-sat", "sat")
#: The share of the shipped links that must be accepted and proved unique.
ACCEPTED = 0.95
#: The kinds issue 24 added: those after palindrome in the model's order (a dot of another value and the negative
#: rule of one colour are told apart below).
NEW = frozenset(list(KINDS)[list(KINDS).index("quadruple") :])


@dataclass
class Link:
    """One link of a links file: the title (its first comment), the other comments by key, the link."""

    path: Path
    title: str
    link: str
    fields: dict[str, str] = field(default_factory=dict)

    @property
    def solution(self) -> str:
        return self.fields.get("kinds", "").partition("; solution: ")[2]


def links(path: Path) -> list[Link]:
    """The links of ``path``, each with the comments just above it (a blank line ends a header)."""
    out: list[Link] = []
    comments: list[str] = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        if raw.startswith("# "):
            comments.append(raw[2:])
        elif raw.strip():
            item = Link(path, comments[0] if comments else raw[:40], raw.strip())
            for comment in comments[1:]:
                key, _, value = comment.partition(": ")
                item.fields[key] = value
            out.append(item)
            comments = []
        else:
            comments = []
    return out


def uses_new_kind(grid: Grid) -> bool:
    """Whether the puzzle uses a kind issue 24 added (a dot of another value or the one-colour rule included)."""
    if grid.kinds & NEW:
        return True
    for rule in grid.constraints:
        if isinstance(rule, Kropki) and rule.value is not None:
            return True
        if isinstance(rule, KropkiNegative) and rule.color is not None:
            return True
    return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engines", default=",".join(ENGINES), help="engines to time (names joined by commas)")
    parser.add_argument("--time-limit", type=float, default=120.0, help="seconds per engine and puzzle")
    parser.add_argument("--check", action="store_true", help="cross-check the puzzles of the new kinds instead")
    args = parser.parse_args(argv)
    names = args.engines.split(",")
    if args.check:
        return check(names, args.time_limit)
    engines = {name: get_strategy(name) for name in names}
    files = sorted(VARIANTS.glob("links*.txt"))
    every = [item for path in files for item in links(path)]

    accepted: list[tuple[Link, Grid]] = []
    refused: list[tuple[Link, str]] = []
    for item in every:
        try:
            accepted.append((item, parse_link(item.link)))
        except InvalidPuzzleError as err:
            refused.append((item, str(err)))

    # seconds[engine][k]: engine's time on accepted puzzle k; None when it did not prove the published solution unique.
    seconds: dict[str, list[float | None]] = {name: [] for name in names}
    problems: list[str] = []
    for item, grid in accepted:
        for name, engine in engines.items():
            result = solve(grid, engine, limit=2, time_limit=args.time_limit)
            proved = result.status is Status.SOLVED and result.count == 1 and result.exact
            if proved and result.solution is not None and item.solution:
                proved = "".join(map(str, result.solution.cells)) == item.solution
            seconds[name].append(result.elapsed if proved else None)
            if not proved:
                problems.append(f"{name} on {item.title}: {result.status.value}, {result.count} found")
        print(".", end="", flush=True, file=sys.stderr)
    print(file=sys.stderr)

    print(f"real links shipped: {len(every)} in {', '.join(p.name for p in files)}")
    for item, reason in refused:
        print(f"  refused: {item.title} ({item.path.name}): {reason}")
    # proved unique: by cp-sat and sat agreeing (the measure), or by every engine timed when neither is
    provers = [name for name in names if name in PROVERS] or names
    unique = [k for k in range(len(accepted)) if all(seconds[name][k] is not None for name in provers)]
    share = len(unique) / len(every) if every else 0.0
    by = " and ".join(provers)
    print(f"accepted: {len(accepted)}, refused: {len(refused)}; proved unique by {by}: {len(unique)}")
    new = sum(uses_new_kind(grid) for _, grid in accepted)
    new_unique = sum(uses_new_kind(accepted[k][1]) for k in unique)
    print(f"puzzles using a kind issue 24 added: {new}, proved unique by {by}: {new_unique}")
    ok = share >= ACCEPTED
    print(f"{'PASS' if ok else 'FAIL'} {share:.1%} of the links accepted and proved unique (target {ACCEPTED:.0%})")
    for name in names:
        taken = seconds[name]
        done = sorted(s for s in taken if s is not None)
        if not done:
            print(f"FAIL {name}: proved no puzzle unique")
            ok = False
            continue
        line = f"{name}: median {statistics.median(done):.3f} s, slowest proved {done[-1]:.2f} s"
        target = TARGETS.get(name)
        over = [accepted[k][0].title for k, s in enumerate(taken) if s is None or (target is not None and s >= target)]
        if len(done) < len(taken):
            line += f", {len(taken) - len(done)} not proved in {args.time_limit:g} s"
        if target is None:
            print(f"     {line}")
            continue
        ok &= not over
        print(f"{'PASS' if not over else 'FAIL'} {line}; target under {target:g} s on each of {len(taken)}")
        for title in over:
            print(f"       over {target:g} s or not proved: {title}")
    for problem in problems:
        print(f"  {problem}")
    return 0 if ok else 1


def check(names: list[str], time_limit: float) -> int:
    """Cross-check every accepted puzzle of a new kind with the engines ``names``; 0 when all agree, unique."""
    taken: list[tuple[Link, Grid]] = []
    for path in sorted(VARIANTS.glob("links*.txt")):
        for item in links(path):
            try:
                grid = parse_link(item.link)
            except InvalidPuzzleError:
                continue
            if uses_new_kind(grid):
                taken.append((item, grid))
    agreed = 0
    slowest = dict.fromkeys(names, (0.0, ""))
    for item, grid in taken:
        report = cross_check(grid, names, time_limit=time_limit)
        ok = report.agree and report.count == 1 and report.exact
        solution = report.engines[0].result.solution if report.engines[0].result else None
        if ok and item.solution and solution is not None:
            ok = "".join(map(str, solution.cells)) == item.solution
        agreed += ok
        times = []
        for answer in report.engines:
            seconds = answer.elapsed or 0.0
            times.append(f"{answer.name} {seconds:.2f}")
            slowest[answer.name] = max(slowest[answer.name], (seconds, item.title))
        print(f"{'agree' if ok else report.verdict.value:9} {report.count_text:3} {item.title}: {', '.join(times)}")
        for problem in report.problems:
            print(f"          {problem}")
    verdict = "PASS" if agreed == len(taken) else "FAIL"
    print(f"{verdict} {agreed} of {len(taken)} agree (unique, the published solution)")
    for name, (seconds, title) in slowest.items():
        print(f"     {name}: slowest {seconds:.2f} s ({title})")
    return 0 if agreed == len(taken) else 1


if __name__ == "__main__":
    sys.exit(main())
