"""Transformations that map a puzzle to an equivalent one: same number of solutions, each solution mapped too.

Relabelling the digits, permuting the rows within a band (a row of boxes), the bands, the columns
within a stack (a column of boxes), the stacks, and transposing (boxes of R x C become C x R) all
keep a board's rules: a grid solves a puzzle exactly when its image solves the puzzle's image. So an
engine must give a puzzle and its image the same count, and the images of the one's solutions as the
other's. The functions are pure and take any ``sudokit.Grid``, puzzle or solution alike::

    >>> from sudokit import Grid
    >>> puzzle = Grid.parse("4..2.......31...")
    >>> transpose(puzzle).to_line()
    '4..1........2.3.'
    >>> t = Transform("permute_bands", order=(1, 0))
    >>> print(t)
    permute_bands(order=(1, 0))
    >>> t.apply(puzzle).to_line()
    '...31...4..2....'
    >>> t.inverse().apply(t.apply(puzzle)) == puzzle
    True

Bands, stacks, and the rows and columns within one are numbered from 0. An ``order`` lists, for each
new position, the old position it takes: ``permute_bands(grid, (2, 0, 1))`` puts old band 2 on top.
``random_transforms(shape, rng)`` draws a seeded sequence of them for an author's own property tests.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, SupportsIndex, cast

from sudokit.model.grid import Grid
from sudokit.model.shape import Shape

__all__ = [
    "KINDS",
    "Transform",
    "apply_all",
    "permute_bands",
    "permute_columns_in_stack",
    "permute_rows_in_band",
    "permute_stacks",
    "random_transform",
    "random_transforms",
    "relabel_digits",
    "transpose",
]


def relabel_digits(grid: Grid, mapping: Mapping[int, int] | Sequence[int]) -> Grid:
    """``grid`` with every digit ``d`` replaced by ``mapping[d]`` (a sequence: ``mapping[d - 1]``); blanks stay blank.

    ``mapping`` must be a permutation of the digits 1..n, given for every digit; ``ValueError`` otherwise.
    """
    images = _images(mapping, grid.n)
    table = (0, *images)
    return Grid(tuple(table[v] for v in grid.cells), grid.shape, validate=False)


def permute_rows_in_band(grid: Grid, band: int, order: Sequence[int]) -> Grid:
    """``grid`` with the rows of band ``band`` reordered: its new row ``k`` is its old row ``order[k]``."""
    shape = grid.shape
    height = shape.box_rows
    _index(band, shape.n // height, "band")
    rows = list(range(shape.n))
    top = band * height
    rows[top : top + height] = [top + k for k in _order(order, height, "rows in a band")]
    return _take_rows(grid, rows)


def permute_bands(grid: Grid, order: Sequence[int]) -> Grid:
    """``grid`` with its bands (rows of boxes) reordered: its new band ``k`` is its old band ``order[k]``."""
    shape = grid.shape
    height = shape.box_rows
    bands = _order(order, shape.n // height, "bands")
    return _take_rows(grid, [b * height + r for b in bands for r in range(height)])


def permute_columns_in_stack(grid: Grid, stack: int, order: Sequence[int]) -> Grid:
    """``grid`` with the columns of stack ``stack`` reordered: its new column ``k`` is its old column ``order[k]``."""
    shape = grid.shape
    width = shape.box_cols
    _index(stack, shape.n // width, "stack")
    cols = list(range(shape.n))
    left = stack * width
    cols[left : left + width] = [left + k for k in _order(order, width, "columns in a stack")]
    return _take_cols(grid, cols)


def permute_stacks(grid: Grid, order: Sequence[int]) -> Grid:
    """``grid`` with its stacks (columns of boxes) reordered: its new stack ``k`` is its old stack ``order[k]``."""
    shape = grid.shape
    width = shape.box_cols
    stacks = _order(order, shape.n // width, "stacks")
    return _take_cols(grid, [s * width + c for s in stacks for c in range(width)])


def transpose(grid: Grid) -> Grid:
    """``grid`` mirrored in its main diagonal: the cell at (r, c) goes to (c, r), and RxC boxes become CxR."""
    shape = grid.shape
    n, cells = shape.n, grid.cells
    image = tuple(cells[c * n + r] for r in range(n) for c in range(n))
    return Grid(image, Shape.of(shape.box_cols, shape.box_rows), validate=False)


#: The transformations, by name: the names of the functions above, in a fixed order.
KINDS: tuple[str, ...] = (
    "relabel_digits",
    "permute_rows_in_band",
    "permute_bands",
    "permute_columns_in_stack",
    "permute_stacks",
    "transpose",
)

_FUNCTIONS: dict[str, Callable[..., Grid]] = {
    "relabel_digits": relabel_digits,
    "permute_rows_in_band": permute_rows_in_band,
    "permute_bands": permute_bands,
    "permute_columns_in_stack": permute_columns_in_stack,
    "permute_stacks": permute_stacks,
    "transpose": transpose,
}

_PARAMETERS: dict[str, tuple[str, ...]] = {
    "relabel_digits": ("mapping",),
    "permute_rows_in_band": ("band", "order"),
    "permute_bands": ("order",),
    "permute_columns_in_stack": ("stack", "order"),
    "permute_stacks": ("order",),
    "transpose": (),
}


@dataclass(frozen=True, init=False)
class Transform:
    """One transformation with its parameters, e.g. ``Transform("permute_bands", order=(2, 0, 1))``.

    ``apply(grid)`` maps a puzzle or a solution; ``inverse()`` undoes it; ``str()`` prints it as a
    call, ``permute_bands(order=(2, 0, 1))``. A ``relabel_digits`` mapping is kept as the tuple of the
    images of 1..n and printed as a dict. Transforms are values: equal, hashable, picklable.
    """

    name: str
    params: tuple[tuple[str, Any], ...]

    def __init__(self, name: str, **params: Any) -> None:
        if name not in _FUNCTIONS:
            raise ValueError(f"no transformation is named {name!r} (known: {', '.join(KINDS)})")
        expected = _PARAMETERS[name]
        if set(params) != set(expected):
            wanted = ", ".join(expected) or "no parameters"
            raise ValueError(f"{name} takes {wanted}, not {', '.join(sorted(params)) or 'none'}")
        values: dict[str, Any] = {}
        for key in expected:
            value = params[key]
            if key == "mapping":
                value = _images(value, len(value))
            elif key == "order":
                value = tuple(_whole(v, "order") for v in value)
            else:
                value = _whole(value, key)
            values[key] = value
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "params", tuple(values.items()))

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (self.name, self.params))

    @property
    def kwargs(self) -> dict[str, Any]:
        """The parameters as keyword arguments of the function ``name``."""
        return dict(self.params)

    def apply(self, grid: Grid) -> Grid:
        """The image of ``grid`` (a puzzle or a solution); ``ValueError`` when the parameters do not fit its shape."""
        return _FUNCTIONS[self.name](grid, **self.kwargs)

    __call__ = apply

    def inverse(self) -> Transform:
        """The transformation that undoes this one."""
        params = self.kwargs
        if "mapping" in params:
            images = params["mapping"]
            back = [0] * len(images)
            for digit, image in enumerate(images, 1):
                back[image - 1] = digit
            params["mapping"] = tuple(back)
        if "order" in params:
            order = params["order"]
            back = [0] * len(order)
            for new, old in enumerate(order):
                back[old] = new
            params["order"] = tuple(back)
        return Transform(self.name, **params)

    def is_identity(self) -> bool:
        """True when this maps every grid (of a shape it fits) to itself; ``transpose`` never is."""
        params = self.kwargs
        if "mapping" in params:
            return bool(params["mapping"] == tuple(range(1, len(params["mapping"]) + 1)))
        if "order" in params:
            return bool(params["order"] == tuple(range(len(params["order"]))))
        return False

    def __str__(self) -> str:
        shown = []
        for key, value in self.params:
            if key == "mapping":
                value = "{" + ", ".join(f"{d}: {v}" for d, v in enumerate(value, 1)) + "}"
            else:
                value = repr(value)
            shown.append(f"{key}={value}")
        return f"{self.name}({', '.join(shown)})"

    def __repr__(self) -> str:
        args = "".join(f", {key}={value!r}" for key, value in self.params)
        return f"Transform({self.name!r}{args})"


def apply_all(transforms: Iterable[Transform], grid: Grid) -> Grid:
    """``grid`` mapped by each transformation in turn."""
    for transform in transforms:
        grid = transform.apply(grid)
    return grid


def random_transform(kind: str, shape: Shape, rng: random.Random) -> Transform:
    """A transformation of ``kind`` drawn with ``rng`` for grids of ``shape``; not the identity where the shape allows.

    Seed ``rng`` (``random.Random("my-test")``) for the same draw every run.
    """
    if kind not in _FUNCTIONS:
        raise ValueError(f"no transformation is named {kind!r} (known: {', '.join(KINDS)})")
    n, height, width = shape.n, shape.box_rows, shape.box_cols
    if kind == "transpose":
        return Transform(kind)
    if kind == "relabel_digits":
        return Transform(kind, mapping=_shuffled(n, rng, 1))
    if kind == "permute_rows_in_band":
        bands = n // height
        band = rng.randrange(bands)
        return Transform(kind, band=band, order=_shuffled(height, rng))
    if kind == "permute_bands":
        return Transform(kind, order=_shuffled(n // height, rng))
    if kind == "permute_columns_in_stack":
        stack = rng.randrange(n // width)
        return Transform(kind, stack=stack, order=_shuffled(width, rng))
    return Transform(kind, order=_shuffled(n // width, rng))


def random_transforms(shape: Shape, rng: random.Random, count: int = 6) -> tuple[Transform, ...]:
    """``count`` transformations of kinds drawn with ``rng``, each fitting the shape its predecessors leave.

    ``apply_all`` maps a puzzle of ``shape`` (and each of its solutions) through them; a ``transpose``
    among them turns RxC boxes into CxR for the ones after it.
    """
    drawn = []
    for _ in range(count):
        transform = random_transform(rng.choice(KINDS), shape, rng)
        if transform.name == "transpose":
            shape = Shape.of(shape.box_cols, shape.box_rows)
        drawn.append(transform)
    return tuple(drawn)


def _shuffled(size: int, rng: random.Random, first: int = 0) -> tuple[int, ...]:
    """A random permutation of ``first .. first + size - 1``, not the identity when ``size`` > 1."""
    items = list(range(first, first + size))
    if size < 2:
        return tuple(items)
    while True:
        shuffled = items[:]
        rng.shuffle(shuffled)
        if shuffled != items:
            return tuple(shuffled)


def _images(mapping: Mapping[int, int] | Sequence[int], n: int) -> tuple[int, ...]:
    """The images of the digits 1..n under ``mapping``, checked to be a permutation of 1..n."""
    if isinstance(mapping, Mapping):
        if set(mapping) != set(range(1, n + 1)):
            raise ValueError(f"a digit mapping must map each digit 1..{n}, not {sorted(mapping)!r:.80}")
        images = tuple(_whole(mapping[d], "mapping") for d in range(1, n + 1))
    else:
        if isinstance(mapping, str | bytes) or len(mapping) != n:
            raise ValueError(f"a digit mapping for a {n}x{n} board lists the images of 1..{n}, not {mapping!r:.80}")
        images = tuple(_whole(v, "mapping") for v in mapping)
    if sorted(images) != list(range(1, n + 1)):
        raise ValueError(f"a digit mapping must be a permutation of 1..{n}, not {images!r:.80}")
    return images


def _order(order: Sequence[int], size: int, what: str) -> tuple[int, ...]:
    """``order`` checked to be a permutation of 0..size-1 (of the ``what``)."""
    values = tuple(order)
    if sorted(values) != list(range(size)):
        raise ValueError(f"an order of the {size} {what} must be a permutation of 0..{size - 1}, not {values!r:.80}")
    return values


def _index(value: int, size: int, what: str) -> None:
    if not 0 <= value < size:
        raise ValueError(f"{what} {value!r} does not exist: the board has {size}, numbered from 0")


def _whole(value: object, what: str) -> int:
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise ValueError(f"{what}: {value!r:.20} is not a whole number")
    return int(cast("SupportsIndex", value))  # it has __index__, as just seen


def _take_rows(grid: Grid, rows: Sequence[int]) -> Grid:
    n, cells = grid.n, grid.cells
    return Grid(tuple(cells[r * n + c] for r in rows for c in range(n)), grid.shape, validate=False)


def _take_cols(grid: Grid, cols: Sequence[int]) -> Grid:
    n, cells = grid.n, grid.cells
    return Grid(tuple(cells[r * n + c] for r in range(n) for c in cols), grid.shape, validate=False)


def _rebuild(name: str, params: tuple[tuple[str, Any], ...]) -> Transform:
    return Transform(name, **dict(params))
