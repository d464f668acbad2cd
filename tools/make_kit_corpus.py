"""Make, count and classify the conformance kit's data: ``src/sudokit/testing/data/*.txt``.

    python tools/make_kit_corpus.py            # write every data file, each puzzle counted by backtrack AND cp-sat
    python tools/make_kit_corpus.py --check    # the same, but compare with the files instead of writing (exit 1)
    python tools/make_kit_corpus.py --find     # list candidates to add: clue removals by count, wrong clues by kind

Every puzzle is derived from the repository's ``puzzles/`` (see ``puzzles/README.md`` for their
sources) by the steps written out below: taken as is, with givens removed (``without``), with a
wrong clue added (``plus``), transposed, or with cells of its one solution filled in (``filled``).
Nothing is drawn at random except ``filled``'s cells, from ``random.Random`` seeded with a text.

Each puzzle is counted exactly by two independent engines, ``backtrack`` and ``cp-sat`` (asked for
up to ``CAP`` solutions: both must finish below it and agree, on the solution too when there is
one). A puzzle with no solution is classified with ``sudokit.testing.corpus.unsolvable_kind`` and
must land in the file its derivation was meant for. ``--check`` is what the tests of the kit's data
run, with the shipped counts standing in for the engines (``render(oracle)``).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from sudokit import Grid, Shape, get_strategy, is_solution
from sudokit.testing import corpus

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
DATA = ROOT / "src" / "sudokit" / "testing" / "data"
#: Counting stops here: a puzzle with this many solutions or more is not counted exactly (none is shipped).
CAP = 2000
#: Seconds an engine gets for one puzzle.
TIME_LIMIT = 120.0

#: An answer for a puzzle: its exact count of solutions and, when that is one, the solution.
Answer = tuple[int, Grid | None]
Oracle = Callable[[Grid], Answer]


# --- derivations ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Puzzle:
    """A puzzle of a ``puzzles/`` file and line (1-based, every line counted), with the steps that change it."""

    file: str
    line: int
    box: str | None = None
    steps: tuple[tuple[str, object], ...] = field(default=())

    def without(self, *cells: str) -> Puzzle:
        """The puzzle with the givens at ``cells`` ("r6c4": row 6, column 4) removed."""
        return Puzzle(self.file, self.line, self.box, (*self.steps, *(("without", c) for c in cells)))

    def plus(self, cell: str, digit: int) -> Puzzle:
        """The puzzle with ``digit`` given at the blank ``cell``."""
        return Puzzle(self.file, self.line, self.box, (*self.steps, ("plus", (cell, digit))))

    def transposed(self) -> Puzzle:
        """The puzzle mirrored on its main diagonal (RxC boxes become CxR)."""
        return Puzzle(self.file, self.line, self.box, (*self.steps, ("transposed", None)))

    def filled(self, count: int, seed: str) -> Puzzle:
        """The puzzle with ``count`` blanks, drawn by ``random.Random(seed)``, filled from its one solution."""
        return Puzzle(self.file, self.line, self.box, (*self.steps, ("filled", (count, seed))))

    @property
    def note(self) -> str:
        """Where it comes from, in words: ``easy50.txt line 1 without r6c4``."""
        words = [f"{self.file} line {self.line}"]
        for step, arg in self.steps:
            if step == "without":
                words.append(f"without {arg}")
            elif step == "plus":
                cell, digit = arg  # type: ignore[misc]
                words.append(f"plus {cell}={digit}")
            elif step == "transposed":
                words.append("transposed")
            else:
                count, seed = arg  # type: ignore[misc]
                words.append(f"with {count} cells of its solution filled (seed {seed!r})")
        return " ".join(words)

    def fields(self) -> list[str]:
        """The source line's ``:``-separated fields."""
        lines = (PUZZLES / self.file).read_text(encoding="utf-8").splitlines()
        return lines[self.line - 1].strip().split(":")

    def grid(self, oracle: Oracle) -> Grid:
        """The puzzle after its steps (``oracle`` gives the solution that ``filled`` needs)."""
        fields = self.fields()
        grid = Grid.parse(fields[0], self.box)
        for step, arg in self.steps:
            cells = list(grid.cells)
            n = grid.n
            if step == "without":
                i = _cell(str(arg), n)
                if not cells[i]:
                    raise ValueError(f"{self.note}: {arg} is blank already")
                cells[i] = 0
                grid = Grid(cells, grid.shape)
            elif step == "plus":
                cell, digit = arg  # type: ignore[misc]
                i = _cell(cell, n)
                if cells[i]:
                    raise ValueError(f"{self.note}: {cell} is a given already")
                cells[i] = digit
                grid = Grid(cells, grid.shape)
            elif step == "transposed":
                shape = Shape.of(grid.shape.box_cols, grid.shape.box_rows)
                grid = Grid([cells[c * n + r] for r in range(n) for c in range(n)], shape)
            else:
                count, seed = arg  # type: ignore[misc]
                known = fields[1] if len(fields) > 1 and len(fields[1]) == len(fields[0]) else None
                solution = Grid.parse(known, grid.shape) if known else None
                if solution is None or not is_solution(grid, solution):
                    solution = oracle(grid)[1]
                if solution is None:
                    raise ValueError(f"{self.note}: 'filled' needs a puzzle with one solution")
                blanks = [i for i, v in enumerate(cells) if not v]
                for i in random.Random(seed).sample(blanks, count):
                    cells[i] = solution.cells[i]
                grid = Grid(cells, grid.shape)
        return grid


def _cell(text: str, n: int) -> int:
    """The index of cell ``rRcC`` (1-based) on a board of side ``n``."""
    r, c = text[1:].split("c")
    return (int(r) - 1) * n + int(c) - 1


def _counts_lines(keep: Callable[[int], bool]) -> list[Puzzle]:
    """The lines of puzzles/counts.txt whose count ``keep`` takes."""
    lines = (PUZZLES / "counts.txt").read_text(encoding="utf-8").splitlines()
    return [Puzzle("counts.txt", k) for k, line in enumerate(lines, 1) if keep(int(line.split(":")[1]))]


# --- what each data file holds ---------------------------------------------------------------------

UNIQUE = [
    Puzzle("leetcode37.txt", 1),  # the first line: LeetCode's board (the kit's other groups rely on it)
    Puzzle("easy50.txt", 1),
    Puzzle("easy50.txt", 18),
    Puzzle("top95.txt", 1),
    Puzzle("top95.txt", 2),
    Puzzle("top95.txt", 12),
    Puzzle("top95.txt", 31),
    Puzzle("top95.txt", 52),
    Puzzle("top95.txt", 78),
    Puzzle("hardest.txt", 3),
    Puzzle("hardest.txt", 7),
    Puzzle("17clue.txt", 1),
    Puzzle("17clue.txt", 20001),
]

SEVENTEEN = [
    Puzzle("17clue.txt", 20),  # singles alone solve it
    Puzzle("17clue.txt", 13),
    Puzzle("17clue.txt", 998),
    Puzzle("17clue.txt", 47857),
]

#: counts.txt's puzzles of 2 to 500 solutions, then one given removed from a unique puzzle.
MULTI = [
    *_counts_lines(lambda count: 2 <= count <= 500),
    Puzzle("easy50.txt", 1).without("r6c4"),
    Puzzle("easy50.txt", 18).without("r1c6"),
    Puzzle("hardest.txt", 7).without("r3c9"),
    Puzzle("easy50.txt", 18).without("r8c4"),
    Puzzle("top95.txt", 32).without("r8c3"),
    Puzzle("easy50.txt", 7).without("r9c7"),
    Puzzle("hardest.txt", 7).without("r7c5"),
    Puzzle("easy50.txt", 7).without("r7c2"),
    Puzzle("top95.txt", 29).without("r3c7"),
    Puzzle("top95.txt", 93).without("r1c5"),
]

#: counts.txt's puzzles with no solution, then a unique puzzle with a wrong clue added, by what shows it.
UNSOLVABLE = [
    *_counts_lines(lambda count: count == 0),
    Puzzle("leetcode37.txt", 1).plus("r5c7", 5),  # glance: r5c5 is left no digit
    Puzzle("leetcode37.txt", 1).plus("r9c3", 2),  # glance: 2 has no place left in row 8
    Puzzle("top95.txt", 2).plus("r3c2", 9),  # glance: the 9 takes 1's last place in box 1
    Puzzle("leetcode37.txt", 1).plus("r1c7", 4),
    Puzzle("hardest.txt", 7).plus("r6c6", 7),
    Puzzle("top95.txt", 29).plus("r9c3", 4),
    Puzzle("top95.txt", 2).plus("r5c9", 9),
]

SHAPES = [
    Puzzle("sizes/box2x2.txt", 1, "2x2"),
    Puzzle("sizes/box2x2.txt", 2, "2x2"),
    Puzzle("sizes/box2x3.txt", 1, "2x3"),
    Puzzle("sizes/box2x3.txt", 1, "2x3").transposed(),
    Puzzle("sizes/box2x3.txt", 2, "2x3"),
    Puzzle("sizes/box2x3.txt", 2, "2x3").transposed(),
    Puzzle("sizes/box2x4.txt", 1, "2x4"),
    Puzzle("sizes/box2x4.txt", 2, "2x4"),
    Puzzle("sizes/box3x3.txt", 1, "3x3"),
    Puzzle("sizes/box3x3.txt", 2, "3x3"),
    Puzzle("sizes/box3x4.txt", 1, "3x4"),
    # python-constraint proves line 2 unique in ~1 s as it is, in ~0.06 s with 3 more givens
    Puzzle("sizes/box3x4.txt", 2, "3x4").filled(3, "box3x4"),
    # backtrack: line 1 in 0.06 s, line 2 in 0.2 s (limit 1); the other three take 0.6-2 s
    Puzzle("sizes/box4x4.txt", 1, "4x4"),
    Puzzle("sizes/box4x4.txt", 2, "4x4"),
    # backtrack does not solve the line as it is in 60 s; with 20 more givens in 0.2 s (3,204 guesses)
    Puzzle("sizes/box5x5.txt", 1, "5x5").filled(20, "box5x5"),
]

KINDS = ("glance", "propagation", "search")

HEADERS = {
    "unique": "Unique 9x9 puzzles with their solutions: puzzle:1:solution. LeetCode 37's board first.",
    "seventeen": "Unique 9x9 puzzles of 17 givens (the fewest a unique puzzle can have): puzzle:1:solution.",
    "multi": "9x9 puzzles with several solutions and the exact count (2 to several hundred): puzzle:count.",
    "unsolvable": "Every 9x9 puzzle with no solution the kit ships: puzzle:0 (unsolvable_*.txt sort them).",
    "unsolvable_glance": "No solution, and the givens alone show it: a blank cell with no candidate, or a digit "
    "with no place left in a unit.",
    "unsolvable_propagation": "No solution; nothing shows at a glance, but repeated naked and hidden singles reach "
    "a contradiction.",
    "unsolvable_search": "No solution; singles stall without a contradiction: only a search proves it.",
    "shapes": "Unique puzzles of every box shape the kit checks: puzzle:1:solution:box (boxes of box rows x columns).",
}


# --- rendering ---------------------------------------------------------------------------------------


def render(oracle: Oracle) -> dict[str, str]:
    """Every data file's text, by data set name, each puzzle counted by ``oracle``."""
    files: dict[str, list[str]] = {name: [] for name in HEADERS}
    for item in UNIQUE:
        files["unique"].append(_unique_line(item, oracle))
    for item in SEVENTEEN:
        line = _unique_line(item, oracle)
        if item.grid(oracle).count_givens() != 17:
            raise ValueError(f"{item.note} has not 17 givens")
        files["seventeen"].append(line)
    for item in MULTI:
        puzzle = item.grid(oracle)
        count, _ = oracle(puzzle)
        if count < 2:
            raise ValueError(f"{item.note} has {count} solutions, not several")
        files["multi"].append(f"{puzzle.to_line()}:{count}  # {item.note}")
    for item in UNSOLVABLE:
        puzzle = item.grid(oracle)
        count, _ = oracle(puzzle)
        if count:
            raise ValueError(f"{item.note} has {count} solutions, not none")
        kind = corpus.unsolvable_kind(puzzle)
        why = {
            "glance": corpus.contradiction_at_a_glance(puzzle),
            "propagation": corpus.propagate_singles(puzzle).contradiction,
            "search": f"singles stall after {corpus.propagate_singles(puzzle).placed} placed",
        }[kind]
        line = f"{puzzle.to_line()}:0  # {item.note}; {kind}: {why}"
        files["unsolvable"].append(line)
        files[f"unsolvable_{kind}"].append(line)
    for item in SHAPES:
        puzzle = item.grid(oracle)
        count, solution = oracle(puzzle)
        if count != 1 or solution is None:
            raise ValueError(f"{item.note} has {count} solutions, not one")
        files["shapes"].append(f"{puzzle.to_line()}:1:{solution.to_line()}:{puzzle.shape}  # {item.note}")
    for kind in KINDS:
        if len(files[f"unsolvable_{kind}"]) < 3:
            raise ValueError(f"fewer than 3 puzzles are unsolvable at {kind}")
    return {name: _text(name, lines) for name, lines in files.items()}


def _unique_line(item: Puzzle, oracle: Oracle) -> str:
    puzzle = item.grid(oracle)
    count, solution = oracle(puzzle)
    if count != 1 or solution is None:
        raise ValueError(f"{item.note} has {count} solutions, not one")
    return f"{puzzle.to_line()}:1:{solution.to_line()}  # {item.note}"


def _text(name: str, lines: list[str]) -> str:
    head = [
        f"# {HEADERS[name]}",
        "# Made by tools/make_kit_corpus.py (counted by backtrack and cp-sat); data/README.md says where from.",
    ]
    return "\n".join(head + lines) + "\n"


def engines_oracle(log: Callable[[str], None] = print) -> Oracle:
    """Count with ``backtrack`` and ``cp-sat``: both must finish below ``CAP`` and agree (on the solution too)."""
    engines = [get_strategy("backtrack"), get_strategy("cp-sat")]
    seen: dict[Grid, Answer] = {}

    def oracle(puzzle: Grid) -> Answer:
        if puzzle in seen:
            return seen[puzzle]
        answers = []
        for engine in engines:
            result = engine.solve(puzzle, limit=CAP, time_limit=TIME_LIMIT, keep=1)
            if not result.exact:
                raise RuntimeError(f"{engine.name}: {result.status} at count {result.count} on {puzzle.to_line()}")
            answers.append((result.count, result.solution if result.count == 1 else None))
            log(f"  {engine.name:9} {result.count:5} solutions in {result.elapsed:7.3f} s  {puzzle.to_line()[:60]}")
        if answers[0] != answers[1]:
            raise RuntimeError(f"backtrack and cp-sat disagree on {puzzle.to_line()}: {answers}")
        seen[puzzle] = answers[0]
        return answers[0]

    return oracle


def shipped_oracle() -> Oracle:
    """The counts and solutions of the shipped data files (for ``--check`` without engines)."""
    known: dict[Grid, Answer] = {}
    for name in corpus.names():
        for item in corpus.load(name):
            known[item.puzzle] = (item.count, item.solution)

    def oracle(puzzle: Grid) -> Answer:
        if puzzle not in known:
            raise KeyError(f"{puzzle.to_line()} is not in the shipped data")
        return known[puzzle]

    return oracle


# --- finding candidates ----------------------------------------------------------------------------


def find(sources: list[Puzzle]) -> Iterator[str]:
    """For each unique source: the count after removing each given, and the kind of each wrong clue added."""
    engine = get_strategy("backtrack")
    for source in sources:
        puzzle = source.grid(_no_oracle)
        solution = engine.solve(puzzle, limit=2).solution
        assert solution is not None
        n = puzzle.n
        for i, value in enumerate(puzzle.cells):
            cell = f"r{i // n + 1}c{i % n + 1}"
            if value:
                count = engine.solve(source.without(cell).grid(_no_oracle), limit=CAP, keep=1).count
                yield f"{source.note}: without {cell}: {count}{'+' if count == CAP else ''} solutions"
                continue
            for digit in range(1, n + 1):
                if digit == solution.cells[i]:
                    continue
                try:
                    wrong = source.plus(cell, digit).grid(_no_oracle)
                except ValueError:
                    continue  # the digit repeats a given
                yield f"{source.note}: plus {cell}={digit}: {corpus.unsolvable_kind(wrong)}"


def _no_oracle(puzzle: Grid) -> Answer:
    raise ValueError("--find takes puzzles as they are, or with givens removed or added")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the data files instead of writing them")
    parser.add_argument("--find", nargs="*", metavar="FILE:LINE", help="candidates from these unique puzzles")
    parser.add_argument("--quiet", action="store_true", help="do not print each count")
    args = parser.parse_args(argv)
    if args.find is not None:
        sources = [Puzzle(s.split(":")[0], int(s.split(":")[1])) for s in args.find or ["easy50.txt:1"]]
        for line in find(sources):
            print(line)
        return 0
    texts = render(engines_oracle((lambda _: None) if args.quiet else print))
    stale = []
    for name, text in texts.items():
        path = DATA / f"{name}.txt"
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old == text:
            continue
        stale.append(path.name)
        if not args.check:
            path.write_text(text, encoding="utf-8")
    if args.check:
        print(f"differ from what the script makes: {', '.join(stale)}" if stale else "every data file is up to date")
        return 1 if stale else 0
    print(f"wrote {', '.join(stale)}" if stale else "every data file was up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
