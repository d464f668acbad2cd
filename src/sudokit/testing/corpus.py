"""The puzzles the kit ships, with known answers: ``load("unique")``, ``load("multi")``, ... (``data/*.txt``).

Each line of a data file is ``puzzle:count[:solution[:box]]``: the puzzle in the one-line form, its
exact number of solutions, the solution when there is exactly one, and the box shape (``RxC``) where
the side leaves it open. ``#`` starts a comment; ``data/README.md`` says where each puzzle comes from,
and ``tools/make_kit_corpus.py`` made, counted and classified them.

The puzzles with no solution are also sorted by what it takes to see that (``unsolvable_kind``):
``unsolvable_glance`` (the givens alone leave a blank cell no digit, or a digit no place in a unit),
``unsolvable_propagation`` (repeated naked and hidden singles reach such a contradiction) and
``unsolvable_search`` (singles stall without one: only a search proves it).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal

from sudokit.model.grid import Grid
from sudokit.model.shape import Shape

__all__ = [
    "Known",
    "Singles",
    "contradiction_at_a_glance",
    "load",
    "names",
    "of_shape",
    "propagate_singles",
    "unsolvable_kind",
    "variants",
]

_UNIT_KINDS = ("row", "column", "box")


@dataclass(frozen=True)
class Known:
    """A puzzle with a known answer: its exact ``count`` of solutions and, when that is one, the ``solution``."""

    puzzle: Grid
    count: int
    solution: Grid | None
    #: Where it is: the data file and line, e.g. ``unique.txt:3``.
    where: str


def names() -> tuple[str, ...]:
    """The data sets shipped: the data files' names without ``.txt``."""
    folder = resources.files("sudokit.testing") / "data"
    return tuple(sorted(p.name[:-4] for p in folder.iterdir() if p.name.endswith(".txt")))


def load(name: str) -> tuple[Known, ...]:
    """Every puzzle of the data set ``name`` (``data/NAME.txt``), in file order.

    Each call gives grids of its own: an engine that writes into its puzzle (through
    ``object.__setattr__`` or ctypes) spoils only its own copy, not the next check's.
    """
    return tuple(
        Known(_copy(k.puzzle), k.count, None if k.solution is None else _copy(k.solution), k.where) for k in _read(name)
    )


def _copy(grid: Grid) -> Grid:
    return Grid(list(grid.cells), grid.shape, validate=False)


@cache
def _read(name: str) -> tuple[Known, ...]:
    """The data set ``name`` parsed, once."""
    text = (resources.files("sudokit.testing") / "data" / f"{name}.txt").read_text(encoding="utf-8")
    known = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        fields = line.split(":")
        box = Shape.parse(fields[3]) if len(fields) > 3 and fields[3] else None
        puzzle = Grid.parse(fields[0], box)
        solution = Grid.parse(fields[2], puzzle.shape) if len(fields) > 2 and fields[2] else None
        known.append(Known(puzzle, int(fields[1]), solution, f"{name}.txt:{number}"))
    return tuple(known)


#: The board of the variant puzzles (``data/variants.jsonl``): 4x4, of 2x2 boxes or a jigsaw's regions.
VARIANT_SHAPE = Shape.of(2, 2)


def variants() -> tuple[Known, ...]:
    """The variant puzzles of ``data/variants.jsonl`` (our JSON form, with exact counts), fresh grids each call."""
    return tuple(Known(k.puzzle.with_cells(list(k.puzzle.cells)), k.count, k.solution, k.where) for k in _variants())


@cache
def _variants() -> tuple[Known, ...]:
    import json

    from sudokit import from_dict

    text = (resources.files("sudokit.testing") / "data" / "variants.jsonl").read_text(encoding="utf-8")
    known = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        record = json.loads(line)
        puzzle = from_dict(record["puzzle"])
        solution = None
        if "solution" in record:  # a jigsaw's solution need not keep the boxes: not checked against them
            solution = Grid([int(d, 36) for d in record["solution"]], puzzle.shape, validate=False)
        known.append(Known(puzzle, record["count"], solution, f"variants.jsonl:{number}"))
    return tuple(known)


def of_shape(shape: Shape) -> tuple[Known, ...]:
    """The puzzles of ``data/shapes.txt`` with boxes of ``shape``."""
    return tuple(k for k in load("shapes") if k.puzzle.shape == shape)


# --- what it takes to see that a puzzle has no solution --------------------------------------------


@dataclass(frozen=True)
class Singles:
    """Where repeated naked and hidden singles lead: the ``grid`` they fill, how many digits they ``placed``.

    ``contradiction`` says what they ran into ("row 3, column 4 has no candidate left", "digit 5 has
    no place left in box 2"), or is None when they stalled (or solved the puzzle) without one.
    """

    grid: Grid
    placed: int
    contradiction: str | None


def contradiction_at_a_glance(puzzle: Grid) -> str | None:
    """What the givens alone show to be impossible (a blank cell with no candidate, a digit with no place left in a
    unit), or None."""
    return propagate_singles(puzzle, max_placed=0).contradiction


def propagate_singles(puzzle: Grid, *, max_placed: int | None = None) -> Singles:
    """Place naked singles (a cell with one candidate) and hidden singles (a digit with one place left in a unit),
    one at a time, until a contradiction shows, none is left, or ``max_placed`` have been placed."""
    shape = puzzle.shape
    n, full = shape.n, shape.full_mask
    cells = list(puzzle.cells)
    cand = [0] * shape.size
    for i, value in enumerate(cells):
        if not value:
            used = 0
            for p in shape.peers[i]:
                if cells[p]:
                    used |= 1 << (cells[p] - 1)
            cand[i] = full & ~used
    units = [
        (kind, k + 1, unit)
        for kind, group in zip(_UNIT_KINDS, (shape.rows, shape.cols, shape.boxes), strict=True)
        for k, unit in enumerate(group)
    ]
    placed = 0

    def place(i: int, bit: int) -> None:
        cells[i] = bit.bit_length()
        cand[i] = 0
        for p in shape.peers[i]:
            cand[p] &= ~bit

    while True:
        for i, value in enumerate(cells):
            if not value and not cand[i]:
                return Singles(
                    _grid(cells, shape), placed, f"row {i // n + 1}, column {i % n + 1} has no candidate left"
                )
        hidden: tuple[int, int] | None = None
        for kind, number, unit in units:
            filled = once = twice = 0  # the unit's digits, and those a blank can take once and more than once
            for i in unit:
                if cells[i]:
                    filled |= 1 << (cells[i] - 1)
                else:
                    twice |= once & cand[i]
                    once |= cand[i]
            dead = full & ~filled & ~once
            if dead:
                digit = (dead & -dead).bit_length()
                return Singles(_grid(cells, shape), placed, f"digit {digit} has no place left in {kind} {number}")
            single = once & ~twice
            if single and hidden is None:
                bit = single & -single
                hidden = (next(i for i in unit if cand[i] & bit), bit)
        if max_placed is not None and placed >= max_placed:
            break
        naked = next((i for i, c in enumerate(cand) if c and not c & (c - 1)), None)
        if naked is not None:
            place(naked, cand[naked])
        elif hidden is not None:
            place(*hidden)
        else:
            break
        placed += 1
    return Singles(_grid(cells, shape), placed, None)


def unsolvable_kind(puzzle: Grid) -> Literal["glance", "propagation", "search"]:
    """For a puzzle with no solution, what shows it: the givens at a ``glance``, ``propagation`` of singles, or only
    a ``search`` (the puzzle is assumed to have none: a solvable one comes out as ``search`` too)."""
    if contradiction_at_a_glance(puzzle) is not None:
        return "glance"
    if propagate_singles(puzzle).contradiction is not None:
        return "propagation"
    return "search"


def _grid(cells: list[int], shape: Shape) -> Grid:
    return Grid(cells, shape, validate=False)
