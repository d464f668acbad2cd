"""Variant rules: the constraints a puzzle may carry on top of rows, columns and regions.

A puzzle is a :class:`~sudokit.Grid`; a variant one also carries irregular ``regions`` (jigsaw) and a
tuple of ``constraints``, each an immutable value of one of the classes here, validated when the
grid is built. Every engine reads the same objects, declares the kinds it takes
(``Capabilities.constraints``), and is not run on a puzzle with a kind it lacks. The checker
(:func:`sudokit.engines.verify.solution_problem`) tests every rule with :meth:`Constraint.violation`.

Cells are ``(row, column)`` pairs, 0-based; every constructor also takes ``"r1c1"`` texts (1-based),
the form of the JSON and of error messages::

    >>> k = Killer(["r1c1", "r1c2"], total=3)
    >>> k.cells, k.to_dict()
    (((0, 0), (0, 1)), {'kind': 'killer', 'cells': ['r1c1', 'r1c2'], 'total': 3})
    >>> rule = '{"kind": "diagonal", "direction": "main"}'
    >>> grid = from_json('{"box": "2x2", "givens": "................", "constraints": [' + rule + ']}')
    >>> sorted(grid.kinds)
    ['diagonal']
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import Field, dataclass, fields
from difflib import get_close_matches
from functools import cache
from itertools import combinations, pairwise
from typing import TYPE_CHECKING, Any, ClassVar

from sudokit.errors import InvalidPuzzleError

if TYPE_CHECKING:
    from sudokit.model.grid import Grid
    from sudokit.model.shape import Shape

__all__ = [
    "ALL_KINDS",
    "JIGSAW",
    "KINDS",
    "XV",
    "AntiKing",
    "AntiKnight",
    "Arrow",
    "BetweenLine",
    "Cell",
    "Clone",
    "Constraint",
    "Diagonal",
    "DisjointGroups",
    "DoubleArrow",
    "EntropicLine",
    "ExtraRegion",
    "Indexer",
    "Killer",
    "Kropki",
    "KropkiNegative",
    "LittleKiller",
    "LockoutLine",
    "MinMax",
    "ModularLine",
    "NabnerLine",
    "NonConsecutive",
    "OddEven",
    "Palindrome",
    "PencilMarks",
    "Quadruple",
    "RegionSumLine",
    "Renban",
    "Sandwich",
    "Skyscraper",
    "SlowThermometer",
    "Thermometer",
    "VariantError",
    "Whisper",
    "XSum",
    "XVNegative",
    "ZipperLine",
    "cell_name",
    "check_rules",
    "constraint_from_dict",
    "king_pairs",
    "knight_pairs",
    "orthogonal_pairs",
    "read_json",
    "regions_text",
    "to_dict",
    "to_json",
    "undotted_pairs",
]

#: A cell as (row, column), 0-based.
Cell = tuple[int, int]

_CELL_TEXT = re.compile(r"\s*[rR](\d{1,9})\s*[cC](\d{1,9})\s*")  # digits capped: int() stays cheap
#: The deepest nesting of arrays and objects read from JSON (sudokit's, f-puzzles' and SudokuPad's need under 10).
MAX_JSON_DEPTH = 64
#: The longest number read from JSON, in characters (a float as JavaScript writes it takes up to 24).
MAX_JSON_NUMBER = 32
# A JSON string (possessive: linear time, an unclosed one runs to the end), a bracket, or a run of number
# characters longer than MAX_JSON_NUMBER outside strings.
_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*+"?|[\[\]{}]|[-+.0-9eE]{' + str(MAX_JSON_NUMBER + 1) + ",}", re.DOTALL)


class VariantError(InvalidPuzzleError):
    """A variant rule that is malformed or does not fit the board; the message names the rule and the cell."""


def cell_name(cell: Cell) -> str:
    """``"r1c1"`` for the cell (0, 0)."""
    return f"r{cell[0] + 1}c{cell[1] + 1}"


def _cell(value: object, what: str) -> Cell:
    """A cell from ``(row, column)`` (0-based) or ``"r1c1"``; VariantError naming ``what`` otherwise."""
    if isinstance(value, str):
        m = _CELL_TEXT.fullmatch(value)
        if m is None or int(m[1]) < 1 or int(m[2]) < 1:
            raise VariantError(f"{what}: {value!r:.20} is not a cell like 'r1c1'")
        return int(m[1]) - 1, int(m[2]) - 1
    if isinstance(value, Sequence) and len(value) == 2 and all(type(v) is int and v >= 0 for v in value):
        return value[0], value[1]
    raise VariantError(f"{what}: {value!r:.30} is not a cell: give (row, column), 0-based, or 'r1c1'")


def _cells(values: object, what: str, *, at_least: int = 1) -> tuple[Cell, ...]:
    if isinstance(values, str) or not isinstance(values, Iterable):
        raise VariantError(f"{what}: cells must be a list of cells, not {values!r:.30}")
    cells = tuple(_cell(v, what) for v in values)
    if len(cells) < at_least:
        raise VariantError(f"{what}: needs at least {at_least} cell{'s' if at_least > 1 else ''}, got {len(cells)}")
    seen: set[Cell] = set()
    for c in cells:
        if c in seen:
            raise VariantError(f"{what}: cell {cell_name(c)} appears twice")
        seen.add(c)
    return cells


def _whole(value: object, what: str, *, low: int = 0) -> int:
    if type(value) is not int or value < low:
        raise VariantError(f"{what}: {value!r:.20} is not a whole number of at least {low}")
    return value


def _choice(value: object, choices: tuple[str, ...], what: str) -> str:
    if value not in choices:
        raise VariantError(f"{what}: {value!r:.20} is not one of {', '.join(choices)}")
    return value


def _adjacent(a: Cell, b: Cell) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def _touching(a: Cell, b: Cell) -> bool:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1


class Constraint:
    """The base of every rule: a frozen dataclass with a ``kind`` name, a dict form and a checker."""

    kind: ClassVar[str]
    #: What it is called in messages ("killer cage").
    label: ClassVar[str]
    #: Declared only (every subclass is a dataclass, which sets it): ``fields()`` takes any rule.
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    def __post_init__(self) -> None:
        """Normalise and check the fields (each subclass's ``_normalise``); VariantError naming the rule."""
        self._normalise()

    def _normalise(self) -> None:
        pass

    def _set(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)

    def all_cells(self) -> tuple[Cell, ...]:
        """Every cell the rule names (none for a global rule)."""
        out: list[Cell] = []
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "cell":
                out.append(value)
            elif f.name in ("cells", "circle"):
                out.extend(value)
        return tuple(out)

    def indexes(self, n: int) -> tuple[int, ...]:
        """The cell indexes (``row * n + column``) of :meth:`all_cells` on a board of side ``n``."""
        return tuple(r * n + c for r, c in self.all_cells())

    def validate(self, shape: Shape) -> None:
        """Raise VariantError when the rule does not fit a board of ``shape`` (a cell off it, a digit too big)."""
        n = shape.n
        for r, c in self.all_cells():
            if r >= n or c >= n:
                raise VariantError(f"{self.label}: cell {cell_name((r, c))} is off the {n}x{n} board")
        self._fits(n)

    def _fits(self, n: int) -> None:
        pass

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        """None when the complete grid ``values`` keeps this rule; else what breaks it, in a few words."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``kind``, then each field (cells as ``"r1c1"`` texts)."""
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "cell":
                value = cell_name(value)
            elif f.name in ("cells", "circle"):
                value = [cell_name(c) for c in value]
            out[f.name] = value
        return out

    def _values(self, values: Sequence[int], n: int, cells: Sequence[Cell] | None = None) -> list[int]:
        return [values[r * n + c] for r, c in (self.cells if cells is None else cells)]  # type: ignore[attr-defined]

    def _where(self) -> str:
        cells = self.all_cells()
        if not cells:
            return self.label
        more = "" if len(cells) == 1 else f"..{cell_name(cells[-1])}"
        return f"{self.label} at {cell_name(cells[0])}{more}"


@dataclass(frozen=True, slots=True)
class ExtraRegion(Constraint):
    """An extra region (windoku's windows, say): its cells hold different digits."""

    kind: ClassVar[str] = "extra-region"
    label: ClassVar[str] = "extra region"
    cells: tuple[Cell, ...]

    def _normalise(self) -> None:
        self._set("cells", _cells(self.cells, self.label, at_least=2))

    def _fits(self, n: int) -> None:
        if len(self.cells) > n:
            raise VariantError(f"{self._where()}: {len(self.cells)} cells cannot hold different digits 1..{n}")

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        return _repeat(self, self._values(values, grid.n))


@dataclass(frozen=True, slots=True)
class Diagonal(Constraint):
    """A main diagonal holds different digits: ``main`` from r1c1 down, ``anti`` from rnc1 up."""

    kind: ClassVar[str] = "diagonal"
    label: ClassVar[str] = "diagonal"
    direction: str = "main"

    def _normalise(self) -> None:
        _choice(self.direction, ("main", "anti"), self.label)

    def diagonal_cells(self, n: int) -> tuple[Cell, ...]:
        """The cells of the diagonal on a board of side ``n``, from the top row down."""
        return tuple((k, k) if self.direction == "main" else (k, n - 1 - k) for k in range(n))

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        problem = _repeat(self, self._values(values, grid.n, self.diagonal_cells(grid.n)))
        return problem and f"{self.direction} {problem}"


@dataclass(frozen=True, slots=True)
class AntiKnight(Constraint):
    """Two cells a knight's move apart never hold the same digit."""

    kind: ClassVar[str] = "anti-knight"
    label: ClassVar[str] = "anti-knight"

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        return _pairs_broken(self, values, grid.n, knight_pairs(grid.n), lambda a, b: a != b, "the same digit")


@dataclass(frozen=True, slots=True)
class AntiKing(Constraint):
    """Two cells a king's move apart never hold the same digit."""

    kind: ClassVar[str] = "anti-king"
    label: ClassVar[str] = "anti-king"

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        return _pairs_broken(self, values, grid.n, king_pairs(grid.n), lambda a, b: a != b, "the same digit")


@dataclass(frozen=True, slots=True)
class NonConsecutive(Constraint):
    """Orthogonally adjacent cells never hold consecutive digits."""

    kind: ClassVar[str] = "non-consecutive"
    label: ClassVar[str] = "non-consecutive"

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        return _pairs_broken(
            self, values, grid.n, orthogonal_pairs(grid.n), lambda a, b: abs(a - b) != 1, "consecutive digits"
        )


@dataclass(frozen=True, slots=True)
class Killer(Constraint):
    """A killer cage: different digits, summing to ``total`` when it is given."""

    kind: ClassVar[str] = "killer"
    label: ClassVar[str] = "killer cage"
    cells: tuple[Cell, ...]
    total: int | None = None

    def _normalise(self) -> None:
        self._set("cells", _cells(self.cells, self.label))
        if self.total is not None:
            _whole(self.total, f"{self._where()}: total", low=1)

    def _fits(self, n: int) -> None:
        if len(self.cells) > n:
            raise VariantError(f"{self._where()}: {len(self.cells)} cells cannot hold different digits 1..{n}")

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        digits = self._values(values, grid.n)
        problem = _repeat(self, digits)
        if problem is None and self.total is not None and sum(digits) != self.total:
            problem = f"{self._where()} sums to {sum(digits)}, not {self.total}"
        return problem


@dataclass(frozen=True, slots=True)
class LittleKiller(Constraint):
    """A little killer clue: the cells along its diagonal sum to ``total`` (digits may repeat)."""

    kind: ClassVar[str] = "little-killer"
    label: ClassVar[str] = "little killer"
    cells: tuple[Cell, ...]
    total: int

    def _normalise(self) -> None:
        self._set("cells", _cells(self.cells, self.label))
        _whole(self.total, f"{self._where()}: total", low=1)
        for a, b in pairwise(self.cells):
            if abs(a[0] - b[0]) != 1 or abs(a[1] - b[1]) != 1:
                raise VariantError(f"{self._where()}: {cell_name(a)} and {cell_name(b)} are not on one diagonal")

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        total = sum(self._values(values, grid.n))
        return None if total == self.total else f"{self._where()} sums to {total}, not {self.total}"


@dataclass(frozen=True, slots=True)
class Sandwich(Constraint):
    """The digits between the 1 and the n of a row or column sum to ``total``."""

    kind: ClassVar[str] = "sandwich"
    label: ClassVar[str] = "sandwich"
    axis: str
    index: int
    total: int

    def _normalise(self) -> None:
        _choice(self.axis, ("row", "column"), self.label)
        _whole(self.index, f"{self.label}: index")
        _whole(self.total, f"{self.label} of {self.axis} {self.index + 1}: total")

    def _fits(self, n: int) -> None:
        if self.index >= n:
            raise VariantError(f"{self.label}: {self.axis} {self.index + 1} is off the {n}x{n} board")
        if self.total > n * (n + 1) // 2 - 1 - n:
            raise VariantError(f"{self.label} of {self.axis} {self.index + 1}: total {self.total} is too large")

    def line_cells(self, n: int) -> tuple[Cell, ...]:
        """The cells of its row or column, in order."""
        return tuple((self.index, k) if self.axis == "row" else (k, self.index) for k in range(n))

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        n = grid.n
        digits = self._values(values, n, self.line_cells(n))
        if 1 not in digits or n not in digits:
            return f"{self.label} of {self.axis} {self.index + 1} lacks a 1 or a {n}"
        a, b = sorted((digits.index(1), digits.index(n)))
        total = sum(digits[a + 1 : b])
        if total != self.total:
            return f"{self.label} of {self.axis} {self.index + 1} sums to {total}, not {self.total}"
        return None


@dataclass(frozen=True, slots=True)
class Thermometer(Constraint):
    """Digits strictly increase from the bulb (the first cell) along the thermometer."""

    kind: ClassVar[str] = "thermometer"
    label: ClassVar[str] = "thermometer"
    cells: tuple[Cell, ...]

    def _normalise(self) -> None:
        self._set("cells", _cells(self.cells, self.label, at_least=2))
        _line(self)

    def _fits(self, n: int) -> None:
        if len(self.cells) > n:
            raise VariantError(f"{self._where()}: {len(self.cells)} cells cannot strictly increase within 1..{n}")

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        digits = self._values(values, grid.n)
        if all(a < b for a, b in pairwise(digits)):
            return None
        return f"{self._where()} does not increase: {_shown(digits)}"


@dataclass(frozen=True, slots=True)
class SlowThermometer(Constraint):
    """Digits never decrease from the bulb (the first cell) along the thermometer."""

    kind: ClassVar[str] = "slow-thermometer"
    label: ClassVar[str] = "slow thermometer"
    cells: tuple[Cell, ...]

    def _normalise(self) -> None:
        self._set("cells", _cells(self.cells, self.label, at_least=2))
        _line(self)

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        digits = self._values(values, grid.n)
        if all(a <= b for a, b in pairwise(digits)):
            return None
        return f"{self._where()} decreases: {_shown(digits)}"


@dataclass(frozen=True, slots=True)
class Arrow(Constraint):
    """The digits on the arrow sum to its circle (two circle cells read as a two-digit number, in order)."""

    kind: ClassVar[str] = "arrow"
    label: ClassVar[str] = "arrow"
    circle: tuple[Cell, ...]
    cells: tuple[Cell, ...]

    def _normalise(self) -> None:
        self._set("circle", _cells(self.circle, f"{self.label} circle"))
        if len(self.circle) > 2:
            raise VariantError(f"{self.label}: a circle of {len(self.circle)} cells (1 or 2 are read as a number)")
        self._set("cells", _cells(self.cells, self.label))
        both = set(self.circle) & set(self.cells)
        if both:
            raise VariantError(f"{self._where()}: cell {cell_name(min(both))} is both circle and arrow")

    def circle_value(self, values: Sequence[int], n: int) -> int:
        """The number the circle reads."""
        value = 0
        for d in self._values(values, n, self.circle):
            value = value * 10 + d
        return value

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        total, circle = sum(self._values(values, grid.n)), self.circle_value(values, grid.n)
        return None if total == circle else f"{self._where()} sums to {total}, but its circle reads {circle}"


@dataclass(frozen=True, slots=True)
class Kropki(Constraint):
    """A dot between two adjacent cells: white, consecutive digits; black, one digit double the other.

    A dot of another ``value``: white, the digits differ by it; black, one is that many times the other
    (``value`` None: 1 for white, 2 for black; the JSON leaves it out then).
    """

    kind: ClassVar[str] = "kropki"
    label: ClassVar[str] = "kropki dot"
    color: str
    cells: tuple[Cell, ...]
    value: int | None = None

    def _normalise(self) -> None:
        _choice(self.color, ("white", "black"), self.label)
        self._set("cells", _cells(self.cells, self.label, at_least=2))
        _pair(self)
        if self.value is not None:
            _whole(self.value, f"{self.color} {self._where()}: value", low=1 if self.color == "white" else 2)
            if self.value == (1 if self.color == "white" else 2):
                self._set("value", None)  # the standard dot: one form only

    @property
    def amount(self) -> int:
        """The difference of a white dot, the ratio of a black one."""
        return self.value or (1 if self.color == "white" else 2)

    def _fits(self, n: int) -> None:
        if self.amount > (n - 1 if self.color == "white" else n):
            raise VariantError(f"{self.color} {self._where()}: no two digits 1..{n} fit a value of {self.amount}")

    def holds(self, a: int, b: int) -> bool:
        """Whether digits ``a`` and ``b`` fit the dot."""
        k = self.amount
        return abs(a - b) == k if self.color == "white" else a == k * b or b == k * a

    def to_dict(self) -> dict[str, Any]:
        out = Constraint.to_dict(self)
        if out["value"] is None:
            del out["value"]
        return out

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        a, b = self._values(values, grid.n)
        return None if self.holds(a, b) else f"{self.color} {self._where()}: {a} and {b}"


@dataclass(frozen=True, slots=True)
class KropkiNegative(Constraint):
    """Every dot is given: adjacent cells without a dot are neither consecutive nor one double the other.

    With a ``color``, the rule of that colour alone: every white dot is given (adjacent cells without a
    white dot are not consecutive), or every black one (without a black dot, neither is double the other).
    """

    kind: ClassVar[str] = "kropki-negative"
    label: ClassVar[str] = "kropki negative constraint"
    color: str | None = None

    def _normalise(self) -> None:
        if self.color is not None:
            _choice(self.color, ("white", "black"), self.label)

    def pairs(self, grid: Grid) -> tuple[tuple[int, int], ...]:
        """The orthogonal pairs (indexes) the rule applies to: those without a dot (of its colour)."""
        if self.color is None:
            return undotted_pairs(grid, "kropki")
        n = grid.n
        dots = [c for c in grid.constraints if isinstance(c, Kropki) and c.color == self.color]
        marked = {tuple(sorted(c.indexes(n))) for c in dots}
        return tuple(p for p in orthogonal_pairs(n) if p not in marked)

    def holds(self, a: int, b: int) -> bool:
        """Whether digits ``a`` and ``b`` may stand side by side without a dot (of its colour)."""
        consecutive, double = abs(a - b) == 1, a == 2 * b or b == 2 * a
        if self.color == "white":
            return not consecutive
        if self.color == "black":
            return not double
        return not consecutive and not double

    def to_dict(self) -> dict[str, Any]:
        out = Constraint.to_dict(self)
        if out["color"] is None:
            del out["color"]
        return out

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        what = {"white": "consecutive digits", "black": "digits one double the other"}
        return _pairs_broken(
            self, values, grid.n, self.pairs(grid), self.holds, what.get(self.color or "", "digits a dot would join")
        )


@dataclass(frozen=True, slots=True)
class XV(Constraint):
    """An X (sum 10) or a V (sum 5) between two adjacent cells."""

    kind: ClassVar[str] = "xv"
    label: ClassVar[str] = "XV clue"
    letter: str
    cells: tuple[Cell, ...]

    def _normalise(self) -> None:
        _choice(self.letter, ("X", "V"), self.label)
        self._set("cells", _cells(self.cells, self.label, at_least=2))
        _pair(self)

    @property
    def total(self) -> int:
        """10 for an X, 5 for a V."""
        return 10 if self.letter == "X" else 5

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        a, b = self._values(values, grid.n)
        return None if a + b == self.total else f"{self.letter} {self._where()}: {a} + {b} is not {self.total}"


@dataclass(frozen=True, slots=True)
class XVNegative(Constraint):
    """Every X and V is given: adjacent cells without one sum to neither 5 nor 10."""

    kind: ClassVar[str] = "xv-negative"
    label: ClassVar[str] = "XV negative constraint"

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        return _pairs_broken(
            self, values, grid.n, undotted_pairs(grid, "xv"), lambda a, b: a + b not in (5, 10), "a sum of 5 or 10"
        )


@dataclass(frozen=True, slots=True)
class OddEven(Constraint):
    """A cell that holds an odd (or an even) digit."""

    kind: ClassVar[str] = "odd-even"
    label: ClassVar[str] = "parity clue"
    cell: Cell
    parity: str

    def _normalise(self) -> None:
        self._set("cell", _cell(self.cell, self.label))
        _choice(self.parity, ("odd", "even"), self.label)

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        r, c = self.cell
        d = values[r * grid.n + c]
        if (d % 2 == 1) == (self.parity == "odd"):
            return None
        return f"{self.parity} cell {cell_name(self.cell)} holds {d}"


@dataclass(frozen=True, slots=True)
class Renban(Constraint):
    """A renban line: different digits forming a run of consecutive numbers, in any order."""

    kind: ClassVar[str] = "renban"
    label: ClassVar[str] = "renban line"
    cells: tuple[Cell, ...]

    def _normalise(self) -> None:
        self._set("cells", _cells(self.cells, self.label, at_least=2))
        _line(self)

    def _fits(self, n: int) -> None:
        if len(self.cells) > n:
            raise VariantError(f"{self._where()}: {len(self.cells)} cells cannot hold different digits 1..{n}")

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        digits = self._values(values, grid.n)
        if len(set(digits)) == len(digits) and max(digits) - min(digits) == len(digits) - 1:
            return None
        return f"{self._where()} is not a run of consecutive digits: {_shown(digits)}"


@dataclass(frozen=True, slots=True)
class Whisper(Constraint):
    """A German whispers line: neighbours along it differ by at least ``difference`` (5 on 9x9)."""

    kind: ClassVar[str] = "whisper"
    label: ClassVar[str] = "whisper line"
    cells: tuple[Cell, ...]
    difference: int = 5

    def _normalise(self) -> None:
        self._set("cells", _cells(self.cells, self.label, at_least=2))
        _line(self)
        _whole(self.difference, f"{self._where()}: difference", low=1)

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        digits = self._values(values, grid.n)
        for a, b in pairwise(digits):
            if abs(a - b) < self.difference:
                return f"{self._where()}: {a} next to {b} differ by less than {self.difference}"
        return None


@dataclass(frozen=True, slots=True)
class Palindrome(Constraint):
    """A palindrome line: it reads the same from either end."""

    kind: ClassVar[str] = "palindrome"
    label: ClassVar[str] = "palindrome line"
    cells: tuple[Cell, ...]

    def _normalise(self) -> None:
        self._set("cells", _cells(self.cells, self.label, at_least=2))
        _line(self)

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        digits = self._values(values, grid.n)
        return None if digits == digits[::-1] else f"{self._where()} is no palindrome: {_shown(digits)}"


@dataclass(frozen=True, slots=True)
class Quadruple(Constraint):
    """A quadruple: a 2x2 square holds each of the 1 to 4 digits on its corner (one listed twice, in two cells)."""

    kind: ClassVar[str] = "quadruple"
    label: ClassVar[str] = "quadruple"
    cells: tuple[Cell, ...]
    digits: tuple[int, ...]

    def _normalise(self) -> None:
        self._set("cells", _cells(self.cells, self.label))
        rows = {r for r, _ in self.cells}
        cols = {c for _, c in self.cells}
        if len(self.cells) != 4 or max(rows) - min(rows) != 1 or max(cols) - min(cols) != 1:  # 4 cells: the square
            shown = ", ".join(cell_name(c) for c in self.cells)
            raise VariantError(f"{self.label}: needs the four cells of a 2x2 square, not {shown}")
        if isinstance(self.digits, str) or not isinstance(self.digits, Iterable):
            raise VariantError(f"{self._where()}: digits must be a list of 1 to 4 digits, not {self.digits!r:.30}")
        digits = tuple(self.digits)
        if not 1 <= len(digits) <= 4:
            raise VariantError(f"{self._where()}: {len(digits)} digits (a quadruple lists 1 to 4)")
        self._set("digits", tuple(sorted(_whole(d, f"{self._where()}: digit", low=1) for d in digits)))

    def _fits(self, n: int) -> None:
        if max(self.digits) > n:
            raise VariantError(f"{self._where()}: digit {max(self.digits)} is off the digits 1..{n}")

    def to_dict(self) -> dict[str, Any]:
        """The JSON form, its digits a list."""
        return {"kind": self.kind, "cells": [cell_name(c) for c in self.cells], "digits": list(self.digits)}

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        digits = self._values(values, grid.n)
        for d in dict.fromkeys(self.digits):
            want = self.digits.count(d)
            have = digits.count(d)
            if have < want:
                what = f"lacks {d}" if want == 1 else f"has {d} in {have} cell{'s' * (have != 1)}, not {want}"
                return f"{self._where()} {what}: {_shown(digits)}"
        return None


@dataclass(frozen=True, slots=True)
class PencilMarks(Constraint):
    """Given pencil marks: the cell holds one of the digits listed."""

    kind: ClassVar[str] = "pencil-marks"
    label: ClassVar[str] = "given pencil marks"
    cell: Cell
    digits: tuple[int, ...]

    def _normalise(self) -> None:
        self._set("cell", _cell(self.cell, self.label))
        where = self._where()
        if isinstance(self.digits, str) or not isinstance(self.digits, Iterable):
            raise VariantError(f"{where}: digits must be a list of digits, not {self.digits!r:.30}")
        digits = tuple(_whole(d, f"{where}: digit", low=1) for d in self.digits)
        if not digits:
            raise VariantError(f"{where}: no digit listed")
        if len(set(digits)) != len(digits):
            raise VariantError(f"{where}: digit {next(d for d in digits if digits.count(d) > 1)} listed twice")
        self._set("digits", tuple(sorted(digits)))

    def _fits(self, n: int) -> None:
        if max(self.digits) > n:
            raise VariantError(f"{self._where()}: digit {max(self.digits)} is off the digits 1..{n}")

    def to_dict(self) -> dict[str, Any]:
        """The JSON form, its digits a list."""
        return {"kind": self.kind, "cell": cell_name(self.cell), "digits": list(self.digits)}

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        r, c = self.cell
        d = values[r * grid.n + c]
        if d in self.digits:
            return None
        return f"{cell_name(self.cell)} holds {d}, not one of its given pencil marks {_shown(self.digits)}"


@dataclass(frozen=True, slots=True)
class MinMax(Constraint):
    """A minimum (maximum) cell: its digit is less (greater) than each orthogonal neighbour's.

    The neighbours in ``exempt`` are not compared: f-puzzles compares a minimum (maximum) cell only with
    the neighbours that are not minimum (maximum) cells too, and its import names those here.
    """

    kind: ClassVar[str] = "min-max"
    label: ClassVar[str] = "minimum/maximum cell"
    cell: Cell
    extreme: str
    exempt: tuple[Cell, ...] = ()

    def _normalise(self) -> None:
        self._set("cell", _cell(self.cell, self.label))
        _choice(self.extreme, ("minimum", "maximum"), self.label)
        exempt = tuple(sorted(_cells(self.exempt, self.label, at_least=0)))
        for other in exempt:
            if not _adjacent(self.cell, other):
                where = f"{cell_name(other)} is not an orthogonal neighbour of {cell_name(self.cell)}"
                raise VariantError(f"{self.label}: exempt cell {where}")
        self._set("exempt", exempt)

    def _fits(self, n: int) -> None:
        for r, c in self.exempt:
            if r >= n or c >= n:
                raise VariantError(f"{self.label}: exempt cell {cell_name((r, c))} is off the {n}x{n} board")

    def neighbours(self, n: int) -> tuple[Cell, ...]:
        """The orthogonal neighbours of the cell on a board of side ``n`` that it is compared with (not exempt)."""
        r, c = self.cell
        return tuple(
            (a, b)
            for a, b in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if 0 <= a < n and 0 <= b < n and (a, b) not in self.exempt
        )

    def to_dict(self) -> dict[str, Any]:
        out = Constraint.to_dict(self)
        if self.exempt:
            out["exempt"] = [cell_name(c) for c in self.exempt]
        else:
            del out["exempt"]
        return out

    def holds(self, mine: int, theirs: int) -> bool:
        """Whether the cell's digit ``mine`` fits beside a neighbour's ``theirs``."""
        return mine < theirs if self.extreme == "minimum" else mine > theirs

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        n = grid.n
        r, c = self.cell
        mine = values[r * n + c]
        for a, b in self.neighbours(n):
            if not self.holds(mine, values[a * n + b]):
                side = "less" if self.extreme == "minimum" else "greater"
                return (
                    f"{self.extreme} cell {cell_name(self.cell)} holds {mine}, "
                    f"not {side} than {values[a * n + b]} at {cell_name((a, b))}"
                )
        return None


@dataclass(frozen=True, slots=True)
class DisjointGroups(Constraint):
    """Disjoint groups: cells in the same place of their boxes (every box's centre, say) hold different digits."""

    kind: ClassVar[str] = "disjoint-groups"
    label: ClassVar[str] = "disjoint groups"

    @staticmethod
    def groups(shape: Shape) -> tuple[tuple[int, ...], ...]:
        """The n groups of ``shape``'s board: group k holds each box's k-th cell (reading order)."""
        return tuple(zip(*shape.boxes, strict=True))

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        for k, group in enumerate(self.groups(grid.shape)):
            seen: dict[int, int] = {}
            for i in group:
                if values[i] in seen:
                    first, again = cell_name(divmod(seen[values[i]], grid.n)), cell_name(divmod(i, grid.n))
                    return f"disjoint group {k + 1} repeats {values[i]} (at {first} and {again})"
                seen[values[i]] = i
        return None


@dataclass(frozen=True, slots=True)
class Clone(Constraint):
    """A clone: ``copy`` is ``cells`` moved (the same shape), and each cell holds the digit of its copy."""

    kind: ClassVar[str] = "clone"
    label: ClassVar[str] = "clone"
    cells: tuple[Cell, ...]
    copy: tuple[Cell, ...]

    def _normalise(self) -> None:
        cells = sorted(_cells(self.cells, self.label))
        copy = sorted(_cells(self.copy, f"{self.label} copy"))
        self._set("cells", tuple(cells))
        self._set("copy", tuple(copy))
        offsets = {(b[0] - a[0], b[1] - a[1]) for a, b in zip(cells, copy, strict=False)}
        if len(cells) != len(copy) or len(offsets) != 1:
            raise VariantError(f"{self._where()}: the copy ({_names_text(copy)}) is not the same shape moved")
        if offsets == {(0, 0)}:
            raise VariantError(f"{self._where()}: the copy is the cells themselves")

    def all_cells(self) -> tuple[Cell, ...]:
        """The cells, then their copy."""
        return self.cells + self.copy

    def _where(self) -> str:
        more = f"..{cell_name(self.cells[-1])}" if len(self.cells) > 1 else ""
        return f"{self.label} at {cell_name(self.cells[0])}{more}"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: cells and copy as ``"r1c1"`` texts, in reading order."""
        return {"kind": self.kind, "cells": _names_list(self.cells), "copy": _names_list(self.copy)}

    def pairs(self, n: int) -> tuple[tuple[int, int], ...]:
        """Each cell with its copy, as indexes on a board of side ``n``."""
        return tuple((a[0] * n + a[1], b[0] * n + b[1]) for a, b in zip(self.cells, self.copy, strict=True))

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        n = grid.n
        for a, b in self.pairs(n):
            if values[a] != values[b]:
                return (
                    f"{self._where()}: {cell_name(divmod(a, n))} holds {values[a]}, "
                    f"its copy {cell_name(divmod(b, n))} {values[b]}"
                )
        return None


def _names_list(cells: Iterable[Cell]) -> list[str]:
    return [cell_name(c) for c in cells]


def _names_text(cells: Iterable[Cell]) -> str:
    names = _names_list(cells)
    return ", ".join(names) if len(names) <= 4 else f"{names[0]}..{names[-1]}"


@dataclass(frozen=True, slots=True)
class BetweenLine(Constraint):
    """A between line: every digit on it lies strictly between the digits of the two circles at its ends."""

    kind: ClassVar[str] = "between-line"
    label: ClassVar[str] = "between line"
    cells: tuple[Cell, ...]

    def _normalise(self) -> None:
        self._set("cells", _cells(self.cells, self.label, at_least=3))
        _line(self)

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        digits = self._values(values, grid.n)
        low, high = sorted((digits[0], digits[-1]))
        for cell, d in zip(self.cells[1:-1], digits[1:-1], strict=True):
            if not low < d < high:
                return f"{self._where()}: {d} at {cell_name(cell)} is not strictly between {digits[0]} and {digits[-1]}"
        return None


@dataclass(frozen=True, slots=True)
class RegionSumLine(Constraint):
    """A region sum line: region borders cut it into segments, and every segment's digits add up to the same total."""

    kind: ClassVar[str] = "region-sum-line"
    label: ClassVar[str] = "region sum line"
    cells: tuple[Cell, ...]

    def _normalise(self) -> None:
        self._set("cells", _cells(self.cells, self.label, at_least=2))
        _line(self)

    def segments(self, grid: Grid) -> list[tuple[Cell, ...]]:
        """The runs of the line's consecutive cells within one region of ``grid``, in order."""
        n, region_of = grid.n, grid.region_of
        out: list[list[Cell]] = []
        for k, (r, c) in enumerate(self.cells):
            if k and region_of[r * n + c] == region_of[out[-1][-1][0] * n + out[-1][-1][1]]:
                out[-1].append((r, c))
            else:
                out.append([(r, c)])
        return [tuple(segment) for segment in out]

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        segments = self.segments(grid)
        sums = [sum(self._values(values, grid.n, segment)) for segment in segments]
        for segment, total in zip(segments[1:], sums[1:], strict=True):
            if total != sums[0]:
                return (
                    f"{self._where()}: the segment from {cell_name(segment[0])} sums to {total}, the first to {sums[0]}"
                )
        return None


@dataclass(frozen=True, slots=True)
class EntropicLine(Constraint):
    """An entropic line: every three cells in a row along it hold a low, a middle and a high digit (the thirds of
    1..n: 1-3, 4-6 and 7-9 on 9x9); a line of two cells, digits of two different thirds."""

    kind: ClassVar[str] = "entropic-line"
    label: ClassVar[str] = "entropic line"
    cells: tuple[Cell, ...]

    def _normalise(self) -> None:
        self._set("cells", _cells(self.cells, self.label, at_least=2))
        _line(self)

    def _fits(self, n: int) -> None:
        if n % 3:
            raise VariantError(f"{self._where()}: the digits 1..{n} do not split into three equal thirds")

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        third = grid.n // 3
        low_middle_high = "a low, a middle and a high digit"
        return _runs_of_three(self, values, grid, lambda d: (d - 1) // third, low_middle_high, "two different thirds")


@dataclass(frozen=True, slots=True)
class ModularLine(Constraint):
    """A modular line: every three cells in a row along it hold digits of three different residues mod 3; a line
    of two cells, digits of two different residues."""

    kind: ClassVar[str] = "modular-line"
    label: ClassVar[str] = "modular line"
    cells: tuple[Cell, ...]

    def _normalise(self) -> None:
        self._set("cells", _cells(self.cells, self.label, at_least=2))
        _line(self)

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        return _runs_of_three(
            self, values, grid, lambda d: d % 3, "three different residues mod 3", "two different residues mod 3"
        )


@dataclass(frozen=True, slots=True)
class ZipperLine(Constraint):
    """A zipper line: every two cells the same distance from its centre add up to the same total, which the centre
    cell holds when the line's length is odd."""

    kind: ClassVar[str] = "zipper-line"
    label: ClassVar[str] = "zipper line"
    cells: tuple[Cell, ...]

    def _normalise(self) -> None:
        self._set("cells", _cells(self.cells, self.label, at_least=3))
        _line(self)

    def zips(self) -> tuple[tuple[tuple[Cell, ...], ...], tuple[Cell, ...] | None]:
        """The pairs of cells the same distance from the centre (outermost first) and the centre cell (None: even)."""
        cells = self.cells
        pairs = tuple((cells[k], cells[-1 - k]) for k in range(len(cells) // 2))
        return pairs, (cells[len(cells) // 2],) if len(cells) % 2 else None

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        pairs, centre = self.zips()
        sums = [sum(self._values(values, grid.n, pair)) for pair in pairs]
        total = self._values(values, grid.n, centre)[0] if centre else sums[0]
        for (a, b), s in zip(pairs, sums, strict=True):
            if s != total:
                whose = f"the centre {cell_name(centre[0])}" if centre else "the outermost pair"
                return f"{self._where()}: {cell_name(a)} and {cell_name(b)} add up to {s}, {whose} to {total}"
        return None


@dataclass(frozen=True, slots=True)
class LockoutLine(Constraint):
    """A lockout line: the digits of the two diamonds at its ends differ by at least ``difference`` (4 on 9x9), and
    no digit on the line lies between them, inclusive."""

    kind: ClassVar[str] = "lockout-line"
    label: ClassVar[str] = "lockout line"
    cells: tuple[Cell, ...]
    difference: int = 4

    def _normalise(self) -> None:
        self._set("cells", _cells(self.cells, self.label, at_least=2))
        _line(self)
        _whole(self.difference, f"{self._where()}: difference", low=1)

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        digits = self._values(values, grid.n)
        low, high = sorted((digits[0], digits[-1]))
        if high - low < self.difference:
            return f"{self._where()}: its ends {digits[0]} and {digits[-1]} differ by less than {self.difference}"
        for cell, d in zip(self.cells[1:-1], digits[1:-1], strict=True):
            if low <= d <= high:
                return f"{self._where()}: {d} at {cell_name(cell)} lies between its ends {digits[0]} and {digits[-1]}"
        return None


@dataclass(frozen=True, slots=True)
class NabnerLine(Constraint):
    """A nabner line: no two digits on it are equal or consecutive."""

    kind: ClassVar[str] = "nabner-line"
    label: ClassVar[str] = "nabner line"
    cells: tuple[Cell, ...]

    def _normalise(self) -> None:
        self._set("cells", _cells(self.cells, self.label, at_least=2))
        _line(self)

    def _fits(self, n: int) -> None:
        if len(self.cells) > (n + 1) // 2:
            raise VariantError(f"{self._where()}: {len(self.cells)} cells cannot hold digits 1..{n} no two within 1")

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        digits = self._values(values, grid.n)
        for (a, x), (b, y) in combinations(zip(self.cells, digits, strict=True), 2):
            if abs(x - y) < 2:
                return f"{self._where()}: {x} at {cell_name(a)} and {y} at {cell_name(b)} are equal or consecutive"
        return None


@dataclass(frozen=True, slots=True)
class DoubleArrow(Constraint):
    """A double arrow: the digits of the two circles at its ends add up to the sum of the cells between them."""

    kind: ClassVar[str] = "double-arrow"
    label: ClassVar[str] = "double arrow"
    cells: tuple[Cell, ...]

    def _normalise(self) -> None:
        self._set("cells", _cells(self.cells, self.label, at_least=3))
        _line(self)

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        digits = self._values(values, grid.n)
        ends, between = digits[0] + digits[-1], sum(digits[1:-1])
        return (
            None if ends == between else f"{self._where()}: its ends add up to {ends}, the cells between to {between}"
        )


#: The sides of the board an outside clue stands on.
_SIDES = ("left", "right", "top", "bottom")


def _outside_cells(side: str, index: int, n: int) -> tuple[Cell, ...]:
    """The cells of a row (``left``/``right``) or column (``top``/``bottom``), in order from the clue's side."""
    row = side in ("left", "right")
    cells = tuple((index, k) if row else (k, index) for k in range(n))
    return cells[::-1] if side in ("right", "bottom") else cells


@dataclass(frozen=True, slots=True)
class XSum(Constraint):
    """An X-sum clue outside the board: the first X cells from its side sum to ``total``, X the first cell's digit.

    ``side`` is where the clue stands (``left``/``right`` of row ``index``, ``top``/``bottom`` of column
    ``index``, 0-based), and the cells are read from there inwards.
    """

    kind: ClassVar[str] = "x-sum"
    label: ClassVar[str] = "X-sum"
    side: str
    index: int
    total: int

    def _normalise(self) -> None:
        _choice(self.side, _SIDES, self.label)
        _whole(self.index, f"{self.label}: index")
        _whole(self.total, f"{self._place()}: total", low=1)

    def _place(self) -> str:
        line = "row" if self.side in ("left", "right") else "column"
        return f"{self.label} {self.side} of {line} {self.index + 1}"

    def _fits(self, n: int) -> None:
        if self.index >= n:
            line = "row" if self.side in ("left", "right") else "column"
            raise VariantError(f"{self.label}: {line} {self.index + 1} is off the {n}x{n} board")
        if self.total > n * (n + 1) // 2:
            raise VariantError(f"{self._place()}: total {self.total} is more than 1 + 2 + ... + {n}")

    def line_cells(self, n: int) -> tuple[Cell, ...]:
        """The cells of its row or column, in order from the clue."""
        return _outside_cells(self.side, self.index, n)

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        digits = self._values(values, grid.n, self.line_cells(grid.n))
        total = sum(digits[: digits[0]])
        if total != self.total:
            return f"{self._place()}: the first {digits[0]} cells sum to {total}, not {self.total}"
        return None


@dataclass(frozen=True, slots=True)
class Skyscraper(Constraint):
    """A skyscraper clue outside the board: ``count`` digits are seen from its side, a taller digit hiding lower ones.

    ``side`` and ``index`` are as for an X-sum; a digit is seen when it is greater than every digit
    before it, read from the clue's side inwards.
    """

    kind: ClassVar[str] = "skyscraper"
    label: ClassVar[str] = "skyscraper"
    side: str
    index: int
    count: int

    def _normalise(self) -> None:
        _choice(self.side, _SIDES, self.label)
        _whole(self.index, f"{self.label}: index")
        _whole(self.count, f"{self._place()}: count", low=1)

    def _place(self) -> str:
        line = "row" if self.side in ("left", "right") else "column"
        return f"{self.label} {self.side} of {line} {self.index + 1}"

    def _fits(self, n: int) -> None:
        if self.index >= n:
            line = "row" if self.side in ("left", "right") else "column"
            raise VariantError(f"{self.label}: {line} {self.index + 1} is off the {n}x{n} board")
        if self.count > n:
            raise VariantError(f"{self._place()}: count {self.count} is more than the {n} cells of the line")

    def line_cells(self, n: int) -> tuple[Cell, ...]:
        """The cells of its row or column, in order from the clue."""
        return _outside_cells(self.side, self.index, n)

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        seen = tallest = 0
        for d in self._values(values, grid.n, self.line_cells(grid.n)):
            if d > tallest:
                seen, tallest = seen + 1, d
        return None if seen == self.count else f"{self._place()}: {seen} seen, not {self.count}"


@dataclass(frozen=True, slots=True)
class Indexer(Constraint):
    """Indexer cells: the digit d in one says where a digit goes along its row, column or box (``axis``).

    A column indexer at row r, column c holding d: the digit c is in column d of row r. A row indexer
    there: the digit r is in row d of column c. A box indexer at the k-th cell of its region (box, or
    jigsaw region; cells counted in reading order) holding d: the digit k is in the region's d-th cell.
    """

    kind: ClassVar[str] = "indexer"
    label: ClassVar[str] = "indexer"
    axis: str
    cells: tuple[Cell, ...]

    def _normalise(self) -> None:
        _choice(self.axis, ("row", "column", "box"), self.label)
        self._set("cells", _cells(self.cells, f"{self.axis} {self.label}"))

    def links(self, grid: Grid) -> tuple[tuple[int, int, int, int], ...]:
        """``(cell, digit, target, value)`` for each indexer cell (as an index) and digit sending it to another
        cell: when the cell holds ``digit``, ``target`` holds ``value``."""
        n = grid.n
        out = []
        regions, region_of = grid.regions, grid.region_of
        for r, c in self.cells:
            i = r * n + c
            for d in range(1, n + 1):
                if self.axis == "row":
                    target, value = (d - 1) * n + c, r + 1
                elif self.axis == "column":
                    target, value = r * n + d - 1, c + 1
                else:
                    region = regions[region_of[i]]
                    target, value = region[d - 1], region.index(i) + 1
                if target != i:
                    out.append((i, d, target, value))
        return tuple(out)

    def violation(self, values: Sequence[int], grid: Grid) -> str | None:
        n = grid.n
        for i, d, target, value in self.links(grid):
            if values[i] == d and values[target] != value:
                return (
                    f"{self.axis} {self.label} {cell_name(divmod(i, n))} holds {d}, but "
                    f"{cell_name(divmod(target, n))} holds {values[target]}, not {value}"
                )
        return None


#: Every constraint class by its kind name.
KINDS: dict[str, type[Constraint]] = {
    cls.kind: cls
    for cls in (
        ExtraRegion,
        Diagonal,
        AntiKnight,
        AntiKing,
        NonConsecutive,
        Killer,
        LittleKiller,
        Sandwich,
        Thermometer,
        SlowThermometer,
        Arrow,
        Kropki,
        KropkiNegative,
        XV,
        XVNegative,
        OddEven,
        Renban,
        Whisper,
        Palindrome,
        Quadruple,
        PencilMarks,
        MinMax,
        DisjointGroups,
        Clone,
        BetweenLine,
        RegionSumLine,
        EntropicLine,
        ModularLine,
        ZipperLine,
        LockoutLine,
        NabnerLine,
        DoubleArrow,
        XSum,
        Skyscraper,
        Indexer,
    )
}
#: The kind name of irregular regions (not a constraint: the grid's ``regions``).
JIGSAW = "jigsaw"
#: Every kind an engine may declare: the constraint kinds and jigsaw.
ALL_KINDS: frozenset[str] = frozenset(KINDS) | {JIGSAW}


def _line(rule: Constraint) -> None:
    """A line's cells follow each other: each touches the next (orthogonally or diagonally)."""
    for a, b in pairwise(rule.cells):  # type: ignore[attr-defined]
        if not _touching(a, b):
            raise VariantError(f"{rule._where()}: {cell_name(a)} and {cell_name(b)} do not touch")


def _runs_of_three(
    rule: Constraint, values: Sequence[int], grid: Grid, group: Any, what: str, what_two: str
) -> str | None:
    """None when every three cells in a row along ``rule``'s line (both, on a line of two) hold digits of different
    ``group``s."""
    cells = rule.cells  # type: ignore[attr-defined]
    digits = rule._values(values, grid.n)
    run = min(3, len(cells))
    for k in range(len(cells) - run + 1):
        if len({group(d) for d in digits[k : k + run]}) < run:
            shown = _shown(digits[k : k + run])
            said = what if run == 3 else what_two
            return f"{rule._where()}: {cell_name(cells[k])}..{cell_name(cells[k + run - 1])} hold {shown}, not {said}"
    return None


def _pair(rule: Constraint) -> None:
    cells = rule.cells  # type: ignore[attr-defined]
    if len(cells) != 2 or not _adjacent(*cells):
        shown = ", ".join(cell_name(c) for c in cells)
        raise VariantError(f"{rule.label}: needs two orthogonally adjacent cells, not {shown}")


def _repeat(rule: Constraint, digits: list[int]) -> str | None:
    seen = set()
    for d in digits:
        if d in seen:
            return f"{rule._where()} repeats {d}"
        seen.add(d)
    return None


def _shown(digits: Iterable[int]) -> str:
    return " ".join(map(str, digits))


def _pairs_broken(
    rule: Constraint, values: Sequence[int], n: int, pairs: Iterable[tuple[int, int]], ok: Any, what: str
) -> str | None:
    for a, b in pairs:
        if not ok(values[a], values[b]):
            return (
                f"{rule.label}: {cell_name(divmod(a, n))} and {cell_name(divmod(b, n))} "
                f"hold {what} ({values[a]}, {values[b]})"
            )
    return None


# --- geometry ---------------------------------------------------------------------------------------


def _offset_pairs(n: int, steps: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    out = []
    for r in range(n):
        for c in range(n):
            for dr, dc in steps:
                rr, cc = r + dr, c + dc
                if 0 <= rr < n and 0 <= cc < n and r * n + c < rr * n + cc:
                    out.append((r * n + c, rr * n + cc))
    return tuple(sorted(out))


@cache
def orthogonal_pairs(n: int) -> tuple[tuple[int, int], ...]:
    """Every pair of orthogonally adjacent cells (as indexes ``a < b``) on a board of side ``n``."""
    return _offset_pairs(n, ((0, 1), (1, 0)))


@cache
def knight_pairs(n: int) -> tuple[tuple[int, int], ...]:
    """Every pair of cells a knight's move apart (``a < b``)."""
    return _offset_pairs(n, ((1, 2), (1, -2), (2, 1), (2, -1)))


@cache
def king_pairs(n: int) -> tuple[tuple[int, int], ...]:
    """Every pair of diagonally touching cells (``a < b``): a king's moves that rows and columns leave open."""
    return _offset_pairs(n, ((1, 1), (1, -1)))


def undotted_pairs(grid: Grid, kind: str) -> tuple[tuple[int, int], ...]:
    """The orthogonal pairs with no clue of ``kind`` ("kropki" or "xv") between them: the negative rule's pairs."""
    n = grid.n
    marked = {tuple(sorted(c.indexes(n))) for c in grid.constraints if c.kind == kind}
    return tuple(p for p in orthogonal_pairs(n) if p not in marked)


# --- whole puzzles ----------------------------------------------------------------------------------


def check_rules(
    shape: Shape, regions: object, constraints: object
) -> tuple[tuple[tuple[int, ...], ...] | None, tuple[Constraint, ...]]:
    """Validated ``(regions or None when they are the boxes, constraints)`` for a board of ``shape``."""
    n = shape.n
    checked_regions = None
    if regions is not None:
        checked_regions = _regions(shape, regions)
        if checked_regions == shape.boxes:
            checked_regions = None
    if isinstance(constraints, Constraint) or not isinstance(constraints, Iterable):
        raise TypeError(
            f"constraints must be an iterable of variant constraints (sudokit.model.variants), not {constraints!r:.60}"
        )
    rules = tuple(constraints)
    for k, rule in enumerate(rules, 1):
        if not isinstance(rule, Constraint):
            raise TypeError(f"constraint {k}: {rule!r:.60} is not a sudokit.model.variants constraint")
        try:
            rule.validate(shape)
        except VariantError as err:
            raise VariantError(f"constraint {k}: {err.problem}") from None
    first: dict[Constraint, int] = {}
    for k, rule in enumerate(rules, 1):
        if first.setdefault(rule, k) != k:
            raise VariantError(f"constraint {k} ({rule.label}) repeats constraint {first[rule]}")
    seen_pairs: dict[tuple[int, ...], str] = {}
    for rule in rules:
        if rule.kind in ("kropki", "xv"):
            pair = tuple(sorted(rule.indexes(n)))
            if pair in seen_pairs and seen_pairs[pair] == rule.kind:
                raise VariantError(f"{rule._where()}: two {rule.label}s on one pair of cells")
            seen_pairs[pair] = rule.kind
    return checked_regions, rules


def _regions(shape: Shape, regions: object) -> tuple[tuple[int, ...], ...]:
    """Regions as n tuples of cell indexes (sorted, in order of their first cell) partitioning the board."""
    n = shape.n
    if isinstance(regions, str):
        symbols = regions.strip()
        if len(symbols) != n * n:
            raise VariantError(f"regions: {len(symbols)} symbols, but a {n}x{n} board needs {n * n}")
        from sudokit.model.shape import ALPHABET

        groups: dict[str, list[int]] = {}
        for i, s in enumerate(symbols):
            if s.upper() not in ALPHABET[:n]:
                raise VariantError(f"regions: row {i // n + 1}, column {i % n + 1}: {s!r} is not a region 1..{n}")
            groups.setdefault(s.upper(), []).append(i)
        parts: list[list[int]] = list(groups.values())
    elif isinstance(regions, Iterable):
        parts = []
        for k, region in enumerate(regions, 1):
            if isinstance(region, str) or not isinstance(region, Iterable):
                raise VariantError(f"regions: region {k} is not a list of cells")
            part = []
            for cell in region:
                if type(cell) is int:
                    if not 0 <= cell < n * n:
                        raise VariantError(f"regions: region {k}: cell index {cell} is off the {n}x{n} board")
                    part.append(cell)
                else:
                    r, c = _cell(cell, f"regions: region {k}")
                    if r >= n or c >= n:
                        raise VariantError(f"regions: region {k}: cell {cell_name((r, c))} is off the {n}x{n} board")
                    part.append(r * n + c)
            parts.append(part)
    else:
        raise TypeError(f"regions must be n lists of cells or a text of region symbols, not {regions!r:.60}")
    owner: dict[int, int] = {}
    for k, part in enumerate(parts, 1):
        for i in part:
            if i in owner:
                raise VariantError(f"regions: {cell_name(divmod(i, n))} is in region {owner[i]} and region {k}")
            owner[i] = k
    for k, part in enumerate(parts, 1):
        if len(list(part)) != n:
            raise VariantError(f"regions: region {k} has {len(list(part))} cells, not {n}")
    if len(parts) != n:
        raise VariantError(f"regions: {len(parts)} regions, but a {n}x{n} board needs {n}")
    return tuple(sorted(tuple(sorted(p)) for p in parts))


def regions_text(grid: Grid) -> str:
    """The regions as one symbol per cell (region k+1 as the k-th symbol of the alphabet)."""
    from sudokit.model.shape import ALPHABET

    out = [""] * grid.shape.size
    for k, region in enumerate(grid.regions):
        for i in region:
            out[i] = ALPHABET[k]
    return "".join(out)


def to_dict(grid: Grid) -> dict[str, Any]:
    """The puzzle as our JSON object: box, givens (the line form), regions (when jigsaw), constraints."""
    out: dict[str, Any] = {"box": str(grid.shape), "givens": grid.to_line()}
    if grid.jigsaw:
        out["regions"] = regions_text(grid)
    out["constraints"] = [rule.to_dict() for rule in grid.constraints]
    return out


def to_json(grid: Grid) -> str:
    """The puzzle as one line of our JSON (see :func:`from_json`)."""
    return json.dumps(to_dict(grid), separators=(", ", ": "))


def constraint_from_dict(data: object, where: str = "constraint") -> Constraint:
    """A constraint from its JSON form (``{"kind": ..., fields...}``); VariantError naming what is wrong."""
    if not isinstance(data, dict):
        raise VariantError(f"{where}: {data!r:.40} is not an object with a 'kind'")
    kind = data.get("kind")
    cls = KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:  # the kinds are too many to list in one line: the nearest, and where they all are
        near = get_close_matches(kind, KINDS, n=1) if isinstance(kind, str) and len(kind) <= 40 else []
        hint = f"did you mean {near[0]!r}? " if near else ""
        raise VariantError(f"{where}: unknown kind {kind!r:.30} ({hint}every kind is in docs/variants.md)")
    names = {f.name for f in fields(cls)}
    extra = sorted(set(data) - names - {"kind"})
    if extra:
        known = ", ".join(sorted(names)) or "none"
        raise VariantError(f"{where}: {kind} has no field {extra[0]!r:.40} (fields: {known})")
    try:
        return cls(**{k: v for k, v in data.items() if k != "kind"})
    except TypeError:
        missing = sorted(f.name for f in fields(cls) if f.name not in data and f.default is f.default_factory)
        raise VariantError(f"{where}: {kind} needs {', '.join(missing) or 'other fields'}") from None
    except VariantError as err:
        raise VariantError(f"{where}: {err.problem}") from None


def read_json(text: str, where: str) -> Any:
    """``json.loads(text)`` in time and memory bounded by the text's length; VariantError naming ``where`` else.

    Before parsing, one linear scan refuses nesting deeper than ``MAX_JSON_DEPTH`` (which would
    exhaust the parser's recursion) and numbers longer than ``MAX_JSON_NUMBER`` characters (which
    ``int()`` reads in quadratic time, or refuses past 4,300 digits).
    """
    depth = 0
    for m in _JSON_TOKEN.finditer(text):
        first = m[0][0]
        if first == '"':
            continue
        if first in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                raise VariantError(
                    f"{where}: the JSON nests deeper than {MAX_JSON_DEPTH} levels (at character {m.start() + 1})"
                )
        elif first in "]}":
            depth -= 1
        else:
            raise VariantError(
                f"{where}: a number of {len(m[0]):,} characters at character {m.start() + 1} "
                f"(at most {MAX_JSON_NUMBER} are read)"
            )
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise VariantError(f"{where}: not valid JSON ({err.msg} at character {err.pos + 1})") from None
    except (ValueError, RecursionError) as err:  # what the scan lets through should not get here
        raise VariantError(f"{where}: not valid JSON ({' '.join(str(err).split())[:80]})") from None
