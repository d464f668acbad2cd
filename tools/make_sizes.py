"""Make the larger boards of ``puzzles/sizes`` (25x25 and 36x36) and audit every size file.

    python tools/make_sizes.py                 # make the planned puzzles, prove them, print them; write nothing
    python tools/make_sizes.py --write         # ... and write them after each file's kept lines
    python tools/make_sizes.py --check         # make them again and compare with the files (exit 1 if they differ)
    python tools/make_sizes.py --audit         # every line of every size file: valid, unique, recounted, minimal?
    python tools/make_sizes.py --audit --sizes 4x4,5x5 --budget 20000

Every planned puzzle (``PLAN``) is made from ``SEED``, its box shape and its number alone
(``random.Random(f"{SEED}/{box}/{number}")``), in four steps:

1. A full grid: a SAT solver (PySAT's CaDiCaL 1.9.5, ``SOLVER``) solves the empty board with a
   drawn preferred digit per cell (its phases), and the grid is shuffled by the board's symmetries
   (digits relabelled, bands and the rows in each band, stacks and the columns in each, transposed
   for square boxes).
2. Givens are taken away, every cell in a drawn order, each one only if the puzzle stays unique:
   the solver is asked for a grid that keeps the remaining givens and differs from the full grid in
   some cell (one clause), with the givens as assumptions of one incremental solver. "No such grid"
   (unsatisfiable) proves uniqueness and the given goes; a grid found, or no answer within the
   puzzle's conflict budget, keeps it. The budget is the difficulty knob: on 25x25 a few tens of
   conflicts give puzzles that need a little search (the existing first line of box5x5.txt, made
   earlier, is a hard near-minimal one), and it keeps the making to seconds: proofs of uniqueness of
   near-minimal 25x25 boards take the solver thousands of conflicts each. A budget of 0 asks for
   more: the given goes only when unit propagation alone (naked and hidden singles, no search)
   still fills the board, which proves uniqueness too; the 36x36 are made so, as every engine must
   solve them (two 36x36 made with a budget of 10, with as many givens, took ``backtrack`` past 60 s). The
   conflict counts are deterministic (one thread, no clock), so the output depends only on this
   file and the PySAT version in ``uv.lock``; ``--check`` says which puzzles differ.
3. The result is proved unique by ``cp-sat`` (``limit=2``: count 1, exact, the full grid), and
   recounted by every other installed engine that claims the board size, or by ``backtrack`` when
   none does (each within ``RECOUNT_SECONDS``); the tool's own SAT proof of step 2 is a third count.
   A count that is not 1, or a different grid, stops the run; a recount that times out is reported.
4. Minimality (``--audit``, any file): a given is removable when the puzzle without it is still
   unique (the same SAT question). "minimal" means every given was shown needed; a check that runs
   past ``--budget`` conflicts is "undecided".

The files hold ``puzzle:solution`` lines. Boards up to 35x35 use the one-symbol alphabet
(``123456789A...``, ``.`` blank); 36x36 lines are space-separated integers, 0 = blank, a ``:``, then
the solution as integers (``Grid.to_line``). The first ``KEPT[box]`` lines of a file were made
earlier (by hand with CP-SAT) and are never touched; ``--write`` replaces only what follows them.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from pysat.solvers import Solver

from sudokit import Grid, Shape, Status, capabilities_of, get_strategy, solution_problem, solve
from sudokit.io.reader import read_file

ROOT = Path(__file__).resolve().parent.parent
SIZES = ROOT / "puzzles" / "sizes"
#: Every puzzle's random draws start from this text, its box shape and its number.
SEED = "sudokit-sizes-2025-06"
#: PySAT's solver for the full grids and the uniqueness questions (CaDiCaL 1.9.5).
SOLVER = "cadical195"
#: The engine that proves every puzzle unique.
PROVER = "cp-sat"
#: Seconds an engine gets for one count (the proof and each recount).
RECOUNT_SECONDS = 60.0
#: How many leading lines of each file were made before this tool (kept as they are).
KEPT = {"2x2": 5, "2x3": 5, "2x4": 3, "3x3": 3, "3x4": 3, "4x4": 5, "5x5": 1, "6x6": 0}
#: Default conflict budget of one minimality check in ``--audit``.
AUDIT_BUDGET = 2_000


@dataclass(frozen=True)
class Plan:
    """Puzzles to make for one box shape: one per conflict budget, in file order after the kept lines."""

    box: str
    budgets: tuple[int, ...]


#: What is made: four 25x25 of moderate difficulty (budgets of 10-40 conflicts; the first line, kept, is the hard
#: one) and two 36x36 that singles alone solve (budget 0).
PLAN: tuple[Plan, ...] = (
    Plan("5x5", (10, 20, 30, 40)),
    Plan("6x6", (0, 0)),
)


def file_of(box: str) -> Path:
    """The size file of a box shape: ``puzzles/sizes/box5x5.txt``."""
    return SIZES / f"box{box}.txt"


# --- the SAT model -----------------------------------------------------------------------------


def var(n: int, cell: int, digit: int) -> int:
    """The boolean "``cell`` holds ``digit``" (digits 1..n), numbered from 1 as SAT solvers want."""
    return cell * n + digit


def clauses(shape: Shape) -> Iterator[list[int]]:
    """The rules as CNF: one digit per cell (at least one, at most one), every digit in every unit, no equal peers."""
    n = shape.n
    for cell in range(shape.size):
        yield [var(n, cell, d) for d in range(1, n + 1)]
        for a in range(1, n + 1):
            for b in range(a + 1, n + 1):
                yield [-var(n, cell, a), -var(n, cell, b)]
    for unit in shape.units:
        for d in range(1, n + 1):
            yield [var(n, cell, d) for cell in unit]
    for cell in range(shape.size):
        for peer in shape.peers[cell]:
            if peer > cell:
                for d in range(1, n + 1):
                    yield [-var(n, cell, d), -var(n, peer, d)]


class Uniqueness:
    """One incremental solver asking "is there a grid other than ``solution`` that keeps these givens?"."""

    def __init__(self, solution: Grid, *, singles: bool = False) -> None:
        self.shape = solution.shape
        self.cells = solution.cells
        n = self.shape.n
        self.solver = Solver(name=SOLVER, bootstrap_with=clauses(self.shape))
        if not singles:  # only the rules for ``by_singles``: the solution itself must propagate without a conflict
            self.solver.add_clause([-var(n, c, v) for c, v in enumerate(self.cells)])
        self.conflicts = 0

    def unique(self, givens: Sequence[int], budget: int | None = None) -> bool | None:
        """True when the cells ``givens`` (kept as in the solution) have no other solution, False when they do.

        None when the solver ran past ``budget`` conflicts (None: no budget) without deciding.
        """
        n = self.shape.n
        assumptions = [var(n, c, self.cells[c]) for c in givens]
        before = self._conflicts()
        if budget is None:
            answer: bool | None = self.solver.solve(assumptions=assumptions)
        else:
            self.solver.conf_budget(budget)
            answer = self.solver.solve_limited(assumptions=assumptions)
        self.conflicts += self._conflicts() - before
        return None if answer is None else not answer

    def by_singles(self, givens: Sequence[int]) -> bool:
        """True when unit propagation alone (naked and hidden singles) fills every cell from ``givens``: unique."""
        n = self.shape.n
        consistent, implied = self.solver.propagate(assumptions=[var(n, c, self.cells[c]) for c in givens])
        return bool(consistent) and sum(1 for literal in implied if literal > 0) == self.shape.size

    def _conflicts(self) -> int:
        return int(self.solver.accum_stats().get("conflicts", 0))

    def close(self) -> None:
        """Free the solver."""
        self.solver.delete()


# --- making ------------------------------------------------------------------------------------


def full_grid(shape: Shape, rng: random.Random) -> Grid:
    """A random full grid: the SAT solver steered by a drawn digit per cell, then shuffled by the board's symmetries."""
    n = shape.n
    with Solver(name=SOLVER, bootstrap_with=clauses(shape)) as solver:
        phases = []
        for cell in range(shape.size):
            pick = rng.randrange(1, n + 1)
            phases.extend(var(n, cell, d) if d == pick else -var(n, cell, d) for d in range(1, n + 1))
        solver.set_phases(phases)
        if not solver.solve():
            raise RuntimeError(f"the solver found no full {n}x{n} grid")
        model = solver.get_model()
    cells = [next(d for d in range(1, n + 1) if model[var(n, c, d) - 1] > 0) for c in range(shape.size)]
    return Grid(shuffled(shape, cells, rng), shape)


def shuffled(shape: Shape, cells: Sequence[int], rng: random.Random) -> list[int]:
    """``cells`` under a drawn symmetry of the board: relabelled digits, permuted bands, stacks, rows, columns."""
    n, r, c = shape.n, shape.box_rows, shape.box_cols
    labels = list(range(1, n + 1))
    rng.shuffle(labels)

    def order(blocks: int, size: int) -> list[int]:
        outer = list(range(blocks))
        rng.shuffle(outer)
        result = []
        for block in outer:
            inner = list(range(size))
            rng.shuffle(inner)
            result.extend(block * size + i for i in inner)
        return result

    rows = order(n // r, r)
    cols = order(n // c, c)
    out = [labels[cells[rows[i] * n + cols[j]] - 1] for i in range(n) for j in range(n)]
    if r == c and rng.random() < 0.5:
        out = [out[j * n + i] for i in range(n) for j in range(n)]
    return out


@dataclass
class Made:
    """A puzzle made from a plan: its number, budget, puzzle, solution and what making it cost."""

    box: str
    number: int
    budget: int
    puzzle: Grid
    solution: Grid
    removed: int
    kept_needed: int
    kept_budget: int
    conflicts: int
    seconds: float

    @property
    def line(self) -> str:
        """The file line: ``puzzle:solution``."""
        return f"{self.puzzle.to_line()}:{self.solution.to_line()}"


def make(box: str, number: int, budget: int) -> Made:
    """Puzzle ``number`` of ``box``: a full grid, then givens gone while SAT proves it unique within ``budget``."""
    start = time.perf_counter()
    shape = Shape.parse(box)
    rng = random.Random(f"{SEED}/{box}/{number}")
    solution = full_grid(shape, rng)
    order = list(range(shape.size))
    rng.shuffle(order)
    givens = set(order)
    checker = Uniqueness(solution, singles=not budget)
    needed = over_budget = 0
    try:
        for cell in order:
            givens.discard(cell)
            answer = checker.unique(sorted(givens), budget) if budget else checker.by_singles(sorted(givens)) or None
            if answer is not True:
                givens.add(cell)
                needed += answer is False
                over_budget += answer is None
    finally:
        checker.close()
    puzzle = Grid([v if i in givens else 0 for i, v in enumerate(solution.cells)], shape)
    seconds = time.perf_counter() - start
    return Made(
        box, number, budget, puzzle, solution, shape.size - len(givens), needed, over_budget, checker.conflicts, seconds
    )


# --- proving and auditing ------------------------------------------------------------------------


def counters(shape: Shape) -> list[str]:
    """The engines that recount a puzzle of ``shape``: every other installed one claiming it, else backtrack."""
    from sudokit import StrategyError, available_strategies

    names = []
    for info in available_strategies():
        if info.name == PROVER:
            continue
        try:
            engine = get_strategy(info.name)
        except StrategyError:  # registered but not loadable here
            continue
        if capabilities_of(engine).supports(shape):
            names.append(info.name)
    return names or ["backtrack"]


def count(puzzle: Grid, solution: Grid, engine: str) -> str:
    """``engine``'s verdict on ``puzzle``: "1" (unique, and the solution), "timeout", or what went wrong."""
    result = solve(puzzle, engine, limit=2, time_limit=RECOUNT_SECONDS)
    if result.status is Status.TIMEOUT:
        return "timeout"
    if result.status is not Status.SOLVED:
        return f"{result.status.value}: {result.error}"
    if not result.exact or result.count != 1:
        return f"{result.count}{'' if result.exact else '+'} solutions"
    if result.solution != solution:
        return "another solution"
    return "1"


def prove(puzzle: Grid, solution: Grid) -> dict[str, tuple[str, float]]:
    """Each counting engine's verdict and seconds; the prover's first. Raises SystemExit when the prover disagrees."""
    verdicts = {}
    for engine in [PROVER, *counters(puzzle.shape)]:
        start = time.perf_counter()
        verdict = count(puzzle, solution, engine)
        verdicts[engine] = (verdict, time.perf_counter() - start)
        if engine == PROVER and verdict != "1":
            raise SystemExit(f"{PROVER} does not prove the puzzle unique ({verdict}): {puzzle.to_line()[:80]}...")
        if verdict not in ("1", "timeout"):
            raise SystemExit(f"{engine} disagrees ({verdict}): {puzzle.to_line()[:80]}...")
    return verdicts


def shown(verdicts: dict[str, tuple[str, float]]) -> str:
    """``cp-sat 1 (0.31 s), backtrack 1 (0.52 s)``."""
    return ", ".join(f"{engine} {verdict} ({seconds:.2f} s)" for engine, (verdict, seconds) in verdicts.items())


def minimality(puzzle: Grid, solution: Grid, budget: int | None) -> tuple[int, int, int]:
    """(needed, removable, undecided) givens of ``puzzle``: each one checked alone, within ``budget`` conflicts."""
    givens = [i for i, v in enumerate(puzzle.cells) if v]
    checker = Uniqueness(solution)
    needed = removable = undecided = 0
    try:
        for cell in givens:
            answer = checker.unique([g for g in givens if g != cell], budget)
            needed += answer is False
            removable += answer is True
            undecided += answer is None
    finally:
        checker.close()
    return needed, removable, undecided


def audit(boxes: Sequence[str], budget: int | None) -> int:
    """Check every line of the size files of ``boxes``; print one line each and a markdown summary. 1 on a problem."""
    rows = []
    bad = 0
    for box in boxes:
        path = file_of(box)
        if not path.exists():
            continue
        for record in read_file(path):
            where = f"{path.name}:{record.line}"
            puzzle = record.parse(Shape.parse(box))
            solution = Grid.parse(record.note or "", Shape.parse(box))
            problem = solution_problem(puzzle, solution)
            if problem:
                print(f"{where}: the stored solution is wrong: {problem}")
                bad += 1
                continue
            start = time.perf_counter()
            checker = Uniqueness(solution)
            sat_unique = checker.unique([i for i, v in enumerate(puzzle.cells) if v])
            checker.close()
            verdicts = prove(puzzle, solution)
            needed, removable, undecided = minimality(puzzle, solution, budget)
            if not sat_unique:
                print(f"{where}: SAT finds a second solution")
                bad += 1
            if needed == puzzle.count_givens():
                state = "minimal"
            elif removable:
                state = f"not minimal ({removable} removable)"
            else:
                state = f"undecided ({undecided} undecided)"
            took = time.perf_counter() - start
            print(
                f"{where}: {puzzle.count_givens()} givens, SAT unique, {shown(verdicts)}; {state} [{took:.1f} s]",
                flush=True,
            )
            rows.append((where, puzzle.n, puzzle.count_givens(), state))
    print()
    print("| line | board | givens | minimal |")
    print("|---|---|---|---|")
    for where, n, givens, state in rows:
        print(f"| {where} | {n}x{n} | {givens} | {state} |")
    return 1 if bad else 0


# --- files ---------------------------------------------------------------------------------------


def kept_lines(box: str) -> list[str]:
    """The first ``KEPT[box]`` puzzle lines of the file (made before this tool), as they are."""
    path = file_of(box)
    if not path.exists():
        return []
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return lines[: KEPT[box]]


def made_lines(box: str) -> list[str]:
    """The lines of the file after the kept ones."""
    path = file_of(box)
    if not path.exists():
        return []
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return lines[KEPT[box] :]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="write the made puzzles after each file's kept lines")
    mode.add_argument("--check", action="store_true", help="compare what is made with the files (exit 1 if differ)")
    mode.add_argument("--audit", action="store_true", help="check every line of the size files (no making)")
    parser.add_argument("--sizes", help="box shapes joined by commas (default: the planned ones; --audit: all)")
    parser.add_argument(
        "--budget", type=int, default=AUDIT_BUDGET, help="--audit: conflicts per minimality check, 0 for none"
    )
    args = parser.parse_args(argv)
    if args.audit:
        boxes = args.sizes.split(",") if args.sizes else list(KEPT)
        return audit(boxes, args.budget or None)
    plans = [p for p in PLAN if not args.sizes or p.box in args.sizes.split(",")]
    differ = []
    for plan in plans:
        lines = []
        for number, budget in enumerate(plan.budgets, start=1):
            m = make(plan.box, number, budget)
            verdicts = prove(m.puzzle, m.solution)
            n = m.puzzle.n
            how = (
                f"budget {budget} conflicts, {m.puzzle.count_givens()} givens ({m.kept_needed} needed, "
                f"{m.kept_budget} kept past the budget)"
                if budget
                else f"singles only, {m.puzzle.count_givens()} givens"
            )
            print(
                f"{n}x{n} #{number}: {how}, SAT unique; "
                f"{shown(verdicts)}; made in {m.seconds:.1f} s ({m.conflicts} conflicts)",
                flush=True,
            )
            lines.append(m.line)
        if args.check:
            old = made_lines(plan.box)
            changed = [k + 1 for k in range(max(len(old), len(lines))) if old[k : k + 1] != lines[k : k + 1]]
            if changed:
                differ.append(f"box{plan.box}.txt puzzles {changed}")
        elif args.write:
            text = "\n".join([*kept_lines(plan.box), *lines]) + "\n"
            file_of(plan.box).write_text(text, encoding="utf-8")
            print(f"wrote {file_of(plan.box).relative_to(ROOT)}: {KEPT[plan.box]} kept + {len(lines)} made")
        else:
            for line in lines:
                print(line)
    if args.check:
        print(f"differ from what is made now: {'; '.join(differ)}" if differ else "the files are as made")
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
