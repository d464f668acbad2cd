"""The immutable board: a shape and n*n cell values, 0 for a blank."""

from __future__ import annotations

import json
import operator
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from sudokit.errors import (
    BadCharacterError,
    BoxShapeError,
    DigitOutOfRangeError,
    DuplicateGivenError,
    WrongCellCountError,
)
from sudokit.model.formats import format_line, format_pretty, format_rows, parse_cells, rows_to_cells
from sudokit.model.shape import Shape

if TYPE_CHECKING:
    from sudokit.model.variants import Constraint

__all__ = ["Grid", "from_dict", "from_json"]

_UNIT_NAMES = ("row", "column", "box")


class Grid:
    """An immutable Sudoku board of any box shape; cells in reading order, 0 for a blank.

    ``Grid.parse`` reads every text form and ``to_line`` prints one that parses back::

        >>> g = Grid.parse("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
        >>> g[0, 1], g.n, g.count_givens()
        (3, 9, 30)
        >>> Grid.parse(g.to_pretty()) == g
        True
    """

    __slots__ = ("_bytes", "_hash", "_regions", "cells", "constraints", "shape")
    shape: Shape
    cells: tuple[int, ...]
    #: The variant rules on top of rows, columns and regions (``sudokit.model.variants``); () for a classic puzzle.
    constraints: tuple[Constraint, ...]
    _regions: tuple[tuple[int, ...], ...] | None  # a jigsaw's regions; None: the boxes
    _hash: int | None  # computed on the first hash()
    _bytes: bytes | None  # the cells as bytes, made on the first to_bytes() (or kept from the check of the digits)

    def __init__(
        self,
        cells: Iterable[int],
        shape: Shape | str | None = None,
        *,
        validate: bool = True,
        regions: Iterable[Iterable[int | tuple[int, int] | str]] | str | None = None,
        constraints: Iterable[Constraint] = (),
    ) -> None:
        """A grid of ``cells`` (any integers, numpy's too; 0 blank) on ``shape`` (the side's default box if None).

        A variant puzzle also has irregular ``regions`` (n lists of cells, as indexes, ``(row, col)``
        or ``"r1c1"``, or one region symbol per cell as in ``"111222333..."``) in place of the boxes,
        and ``constraints`` from :mod:`sudokit.model.variants`. Raises ``TypeError`` for cells that are not
        an iterable, or a ``shape`` that is not a Shape or a text like "2x3", and an
        ``InvalidPuzzleError`` for a cell that is not a digit of the board, a digit that repeats in a
        unit (unless ``validate`` is False), or a rule that does not fit (``VariantError``).
        """
        if (  # the grids sudokit makes of an engine's answer: a classic board's cells as they are (a quarter the time)
            not validate
            and type(cells) is tuple
            and type(shape) is Shape
            and regions is None
            and constraints == ()
            and len(cells) == shape.size
        ):
            _classic(self, shape, cells, None)
            return
        if isinstance(cells, str | bytes):
            raise TypeError(f"cells must be integers, not the text {cells!r:.40}: Grid.parse reads a puzzle text")
        try:
            cells = tuple(cells)
        except TypeError:
            raise TypeError(f"cells must be an iterable of integers, not {cells!r:.80}") from None
        if shape is not None and type(shape) is not Shape:
            shape = _shape(shape)
        if shape is None:
            side = round(len(cells) ** 0.5)
            if side * side != len(cells):
                raise WrongCellCountError(f"{len(cells)} cells: a board needs a square number of cells")
            shape = Shape.for_side(side)
        elif len(cells) != shape.size:
            raise WrongCellCountError(f"{len(cells)} cells, but a {shape.n}x{shape.n} board needs {shape.size}")
        raw = None
        if validate:
            cells, raw = _digits(cells, shape.n)
        object.__setattr__(self, "shape", shape)
        object.__setattr__(self, "cells", cells)
        object.__setattr__(self, "_hash", None)
        object.__setattr__(self, "_bytes", raw)  # the bytes the check of the digits made: to_bytes() at no cost
        if regions is None and (constraints == () or constraints == []):
            object.__setattr__(self, "_regions", None)
            object.__setattr__(self, "constraints", ())
        else:
            from sudokit.model.variants import check_rules

            checked, rules = check_rules(shape, regions, constraints)
            object.__setattr__(self, "_regions", checked)
            object.__setattr__(self, "constraints", rules)
        if validate:
            self._check_duplicates()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Grid is immutable")

    def __reduce__(self) -> tuple[object, ...]:
        if self.is_classic:
            return (_unpickle, (self.cells, self.shape))
        return (_unpickle, (self.cells, self.shape, self._regions, self.constraints))

    # --- construction -------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str, box: Shape | str | None = None) -> Grid:
        """A grid from any accepted text form; ``box`` ("2x3" or a Shape) where the side leaves it open.

        Variant puzzles come as our JSON object (``{"givens": ..., "constraints": [...]}``, see
        :func:`from_json`); f-puzzles and SudokuPad links are read by :func:`sudokit.parse_puzzle`
        (:mod:`sudokit.io.puzzles`), which takes every form. Raises an
        :class:`~sudokit.errors.InvalidPuzzleError` subclass naming what is wrong and where,
        and ``TypeError`` for a ``text`` that is not a str or a ``box`` that is not a Shape or a str.
        """
        if not isinstance(text, str):
            raise TypeError(f"puzzle text must be a str, not {text!r:.80}")
        stripped = text.lstrip("\ufeff").strip()
        if stripped.startswith("{"):
            grid = from_json(stripped)
            if box is not None and _shape(box) != grid.shape:
                raise BoxShapeError(f"box {_shape(box)} does not fit the puzzle, whose boxes are {grid.shape}")
            return grid
        shape, cells = parse_cells(text, _shape(box))
        return cls(cells, shape)

    @classmethod
    def _of_bytes(cls, raw: bytes, shape: Shape) -> Grid:
        """A classic grid of the cells ``raw`` (n*n bytes, each a cell's value; ``bytes`` exactly), not validated.

        How sudokit makes the grids of an engine's answer that its check read as these same bytes: the
        cells are ``tuple(raw)`` and ``to_bytes()`` is ``raw`` itself, with no work per cell in Python.
        Raises ``TypeError`` for ``raw`` that is no ``bytes`` or a ``shape`` that is no ``Shape``, and
        ``WrongCellCountError`` for a length other than ``shape.size``, as ``Grid`` itself would.
        """
        if type(raw) is not bytes or type(shape) is not Shape:
            raise TypeError(f"a grid of bytes takes bytes and a Shape, not {type(raw).__name__} and {shape!r:.40}")
        if len(raw) != shape.size:
            raise WrongCellCountError(f"{len(raw)} cells, but a {shape.n}x{shape.n} board needs {shape.size}")
        grid = object.__new__(cls)
        _classic(grid, shape, tuple(raw), raw)
        return grid

    @classmethod
    def from_rows(cls, rows: Sequence[Sequence[int | str]], box: Shape | str | None = None) -> Grid:
        """A grid from rows of ints (0 blank) or one-character strings (``"."`` blank), as LeetCode's board.

        Any integers do (numpy's too, and a numpy array of rows). Raises ``TypeError`` when ``rows``
        is not a sequence of rows, and an ``InvalidPuzzleError`` subclass for a bad board.
        """
        shape, cells = rows_to_cells(rows, _shape(box))
        return cls(cells, shape)

    @classmethod
    def empty(cls, shape: Shape | str | None = None) -> Grid:
        """An empty board of the given shape (9x9 by default)."""
        shape = _shape(shape) or Shape.of(3, 3)
        return cls((0,) * shape.size, shape, validate=False)

    # --- reading ------------------------------------------------------------------------------

    @property
    def n(self) -> int:
        """The board side (9 for a classic Sudoku)."""
        return self.shape.n

    def __getitem__(self, key: int | tuple[int, int]) -> int:
        """The value at cell index ``i`` or at ``(row, column)``, both 0-based; 0 for a blank."""
        if isinstance(key, tuple):
            r, c = key
            if not (0 <= r < self.shape.n and 0 <= c < self.shape.n):
                raise IndexError(f"({r}, {c}) is off a {self.shape.n}x{self.shape.n} board")
            return self.cells[r * self.shape.n + c]
        return self.cells[key]

    def __len__(self) -> int:
        return len(self.cells)

    def __iter__(self) -> Iterator[int]:
        return iter(self.cells)

    def rows(self) -> list[list[int]]:
        """The board as rows of ints, 0 for a blank."""
        return format_rows(self.cells, self.shape.n)

    def count_givens(self) -> int:
        """How many cells are filled."""
        return sum(1 for v in self.cells if v)

    def is_complete(self) -> bool:
        """True when no cell is blank (says nothing about validity: see ``is_solution``)."""
        return all(self.cells)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Grid):
            return NotImplemented
        return (
            self.shape == other.shape
            and self.cells == other.cells
            and self._regions == other._regions
            and self.constraints == other.constraints
        )

    def __hash__(self) -> int:
        found = self._hash
        if found is None:
            key: tuple[object, ...] = (self.shape, self.cells)
            if not self.is_classic:
                key += (self._regions, self.constraints)
            found = hash(key)
            object.__setattr__(self, "_hash", found)
        return found

    # --- variant rules ------------------------------------------------------------------------

    @property
    def is_classic(self) -> bool:
        """True for a classic puzzle: boxes as regions and no constraints."""
        return self._regions is None and not self.constraints

    @property
    def jigsaw(self) -> bool:
        """True when the regions are irregular (not the boxes)."""
        return self._regions is not None

    @property
    def regions(self) -> tuple[tuple[int, ...], ...]:
        """The regions whose cells hold every digit once: the boxes, or a jigsaw's irregular ones."""
        return self.shape.boxes if self._regions is None else self._regions

    @property
    def region_of(self) -> tuple[int, ...]:
        """The region index of each cell."""
        if self._regions is None:
            return self.shape.box_of
        owner = [0] * self.shape.size
        for k, region in enumerate(self._regions):
            for i in region:
                owner[i] = k
        return tuple(owner)

    @property
    def units(self) -> tuple[tuple[int, ...], ...]:
        """Every row, then every column, then every region."""
        return self.shape.rows + self.shape.cols + self.regions

    @property
    def kinds(self) -> frozenset[str]:
        """The names of the variant kinds the puzzle uses ("jigsaw" for irregular regions); empty when classic."""
        kinds = {rule.kind for rule in self.constraints}
        if self._regions is not None:
            kinds.add("jigsaw")
        return frozenset(kinds)

    def with_rules(
        self,
        *,
        regions: Iterable[Iterable[int | tuple[int, int] | str]] | str | None = None,
        constraints: Iterable[Constraint] = (),
    ) -> Grid:
        """This grid's givens with other regions and constraints (none given: a classic puzzle)."""
        return Grid(self.cells, self.shape, regions=regions, constraints=constraints)

    def with_cells(self, cells: Iterable[int]) -> Grid:
        """A grid of other cells with this one's shape, regions and constraints (the duplicates checked)."""
        return Grid(cells, self.shape, regions=self._regions, constraints=self.constraints)

    # --- printing -----------------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        """The cells as bytes, one a cell in reading order (0 blank); made once and kept.

        What compiled engines and sudokit's check read. Raises ``ValueError`` or ``TypeError`` for cells
        that bytes cannot hold (a grid made with ``validate=False`` of other values).
        """
        raw = self._bytes
        if raw is None:
            raw = bytes(bytearray(self.cells))  # (bytearray reads a tuple of ints in half the time bytes takes)
            object.__setattr__(self, "_bytes", raw)
        return raw

    def to_line(self) -> str:
        """The one-line form (``.`` for a blank); parses back to this grid."""
        return format_line(self.shape, self.cells)

    def to_pretty(self, *, givens: Grid | None = None, color: bool = False) -> str:
        """Rows with region borders; with ``color``, cells blank in ``givens`` are drawn in red.

        The borders are this grid's regions, or those of ``givens`` (the puzzle a solution solves).
        """
        regions = self if givens is None or self.jigsaw else givens
        return format_pretty(
            self.shape,
            self.cells,
            givens=givens.cells if givens else None,
            color=color,
            **({"region_of": regions.region_of} if regions.jigsaw else {}),
        )

    def to_json(self) -> str:
        """A JSON list of rows of ints (0 for a blank); parses back to this grid."""
        return json.dumps(self.rows(), separators=(",", ":"))

    def to_leetcode(self) -> list[list[str]]:
        """LeetCode 37's board: rows of one-character strings, ``"."`` for a blank (boards up to 9x9)."""
        return [["." if v == 0 else str(v) for v in row] for row in self.rows()]

    def format(self, fmt: str, **options: Any) -> str:
        """The grid in the named form: ``line``, ``pretty`` or ``json``."""
        if fmt == "line":
            return self.to_line()
        if fmt == "pretty":
            return self.to_pretty(**options)
        if fmt == "json":
            return self.to_json()
        raise ValueError(f"unknown format {fmt!r}: choose line, pretty or json")

    def __str__(self) -> str:
        return self.to_pretty()

    def __repr__(self) -> str:
        if not self.is_classic:
            from sudokit.model.variants import to_json

            return f"sudokit.from_json({to_json(self)!r})"
        shape = self.shape
        # A 1xC box (rows as boxes) is never the default, and a prime side (5, 7) has no default to ask for.
        default = 1 not in (shape.box_rows, shape.box_cols) and shape == Shape.for_side(shape.n)
        box = "" if default else f", box={str(shape)!r}"
        return f"Grid.parse({self.to_line()!r}{box})"

    # --- validation ---------------------------------------------------------------------------

    def _check_duplicates(self) -> None:
        shape = self.shape
        n = shape.n
        names = _UNIT_NAMES if self._regions is None else ("row", "column", "region")
        for kind, units in zip(names, (shape.rows, shape.cols, self.regions), strict=True):
            for unit in units:
                seen: dict[int, int] = {}
                for i in unit:
                    v = self.cells[i]
                    if not v:
                        continue
                    if v in seen:
                        j = seen[v]
                        raise DuplicateGivenError(
                            f"digit {v} repeats the {v} at row {j // n + 1}, column {j % n + 1} (same {kind})",
                            row=i // n + 1,
                            column=i % n + 1,
                            digit=v,
                            other=(j // n + 1, j % n + 1),
                        )
                    seen[v] = i


#: The setters of Grid's slots, for ``_classic``; every slot is one of them (checked on import).
_SET_SHAPE, _SET_CELLS, _SET_HASH, _SET_BYTES, _SET_REGIONS, _SET_CONSTRAINTS = (
    Grid.__dict__[name].__set__ for name in ("shape", "cells", "_hash", "_bytes", "_regions", "constraints")
)
if set(Grid.__slots__) != {"shape", "cells", "_hash", "_bytes", "_regions", "constraints"}:
    raise ImportError("Grid's slots and Grid._of_bytes differ")  # pragma: no cover - a change to Grid


def _classic(grid: Grid, shape: Shape, cells: tuple[int, ...], raw: bytes | None) -> None:
    """Fill the slots of a new classic ``grid`` (no regions, no rules) with cells taken as they are."""
    _SET_SHAPE(grid, shape)  # each slot's own setter: a third of object.__setattr__'s time
    _SET_CELLS(grid, cells)
    _SET_HASH(grid, None)
    _SET_BYTES(grid, raw)
    _SET_REGIONS(grid, None)
    _SET_CONSTRAINTS(grid, ())


def _unpickle(
    cells: tuple[int, ...],
    shape: Shape,
    regions: tuple[tuple[int, ...], ...] | None = None,
    constraints: tuple[Constraint, ...] = (),
) -> Grid:
    if regions is None and not constraints:
        return Grid(cells, shape, validate=False)
    return Grid(cells, shape, validate=False, regions=regions, constraints=constraints)


def _digits(cells: tuple[Any, ...], n: int) -> tuple[tuple[int, ...], bytes | None]:
    """``cells`` as ints 0..n (numpy's integers and other ``__index__`` types converted), or the error at fault;
    with them their bytes, where the check made them (else None)."""
    try:
        raw = bytes(bytearray(cells))  # at C speed: refuses what is no integer 0..255 (bytearray: twice bytes' speed)
    except (TypeError, ValueError):
        pass
    else:
        if n < 256 and not raw.translate(None, bytes(range(n + 1))):
            return tuple(raw), raw  # plain ints, whatever integer type came in
    digits = []
    for i, v in enumerate(cells):
        if type(v) is not int:
            try:
                v = operator.index(v)
            except TypeError:
                raise BadCharacterError(
                    f"{v!r:.20} is not a digit or a blank", row=i // n + 1, column=i % n + 1
                ) from None
        if not 0 <= v <= n:
            raise DigitOutOfRangeError(
                f"digit {v} is out of range for a {n}x{n} board (1-{n})", row=i // n + 1, column=i % n + 1, digit=v
            )
        digits.append(v)
    return tuple(digits), None


def _shape(box: Shape | str | None) -> Shape | None:
    if box is None or isinstance(box, Shape):
        return box
    if isinstance(box, str):
        return Shape.parse(box)
    raise TypeError(f"box must be a Shape or a text like '2x3', not {box!r:.80}")


# --- our JSON form ----------------------------------------------------------------------------------


def from_dict(data: object) -> Grid:
    """A puzzle from our JSON object; VariantError (or another InvalidPuzzleError) naming what is wrong."""
    from sudokit.model.variants import VariantError, constraint_from_dict  # not for a classic puzzle: start-up

    if not isinstance(data, dict):
        raise VariantError(f"a variant puzzle is a JSON object, not {type(data).__name__}")
    extra = sorted(set(data) - {"box", "givens", "regions", "constraints", "solution"})
    if extra:
        known = "box, givens, regions, constraints"
        raise VariantError(f"variant puzzle: unknown field {extra[0]!r:.40} (fields: {known})")
    givens = data.get("givens")
    if not isinstance(givens, str):
        raise VariantError("variant puzzle: 'givens' must be the puzzle's line form, e.g. '53..7....'")
    box = data.get("box")
    if box is not None and not isinstance(box, str):
        raise VariantError(f"variant puzzle: 'box' must be a text like '3x3', not {box!r:.20}")
    shape, cells = parse_cells(givens, Shape.parse(box) if box else None)
    rules = data.get("constraints", [])
    if not isinstance(rules, list):
        raise VariantError("variant puzzle: 'constraints' must be a list")
    regions = data.get("regions")
    if regions is not None and not isinstance(regions, str | list):
        raise VariantError(f"variant puzzle: 'regions' must be a list of regions or a text, not {regions!r:.20}")
    constraints = [constraint_from_dict(d, f"constraint {k}") for k, d in enumerate(rules, 1)]
    return Grid(cells, shape, regions=regions, constraints=constraints)


def from_json(text: str) -> Grid:
    """A puzzle from our JSON form::

    {"box": "3x3", "givens": "...", "regions": "111222333...", "constraints": [{"kind": "killer", ...}]}
    """
    from sudokit.model.variants import read_json

    return from_dict(read_json(text, "variant puzzle"))
