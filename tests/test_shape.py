"""Board geometry: box shapes, their default choice per side, and the unit and peer tables."""

from __future__ import annotations

from itertools import product

import pytest

from sudokit import Shape
from sudokit.errors import BoxShapeError, InvalidPuzzleError

from .conftest import BOXES


def shape_of(box: str) -> Shape:
    rows, cols = map(int, box.split("x"))
    return Shape.of(rows, cols)


def same_unit(shape: Shape, a: int, b: int) -> bool:
    """Whether cells a and b share a row, a column or a box, worked out from coordinates alone."""
    n = shape.n
    (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
    same_box = ra // shape.box_rows == rb // shape.box_rows and ca // shape.box_cols == cb // shape.box_cols
    return ra == rb or ca == cb or same_box


@pytest.mark.parametrize("box", [*BOXES[:-1], "3x2", "2x5"])
def test_tables_match_the_rules_of_sudoku(box: str) -> None:
    shape = shape_of(box)
    n = shape.n
    assert (shape.n, shape.size) == (shape.box_rows * shape.box_cols, n * n)
    assert shape.full_mask == sum(1 << (d - 1) for d in range(1, n + 1))
    units = shape.units
    assert len(units) == 3 * n
    assert all(sorted(unit) == sorted(set(unit)) and len(unit) == n for unit in units)
    for i in range(shape.size):
        assert sum(i in unit for unit in units) == 3, f"cell {i} is not in exactly one row, column and box"
        assert i in shape.rows[shape.row_of[i]]
        assert i in shape.cols[shape.col_of[i]]
        assert i in shape.boxes[shape.box_of[i]]
        expected = {j for j in range(shape.size) if j != i and same_unit(shape, i, j)}
        assert set(shape.peers[i]) == expected
    for box_cells in shape.boxes:
        rows = {i // n for i in box_cells}
        cols = {i % n for i in box_cells}
        assert (len(rows), len(cols)) == (shape.box_rows, shape.box_cols)


def test_a_shape_is_built_once_and_shared() -> None:
    assert Shape.of(2, 3) is Shape.of(2, 3)
    assert Shape.parse("2x3") is Shape.of(2, 3)
    assert Shape.for_side(9) is Shape.of(3, 3)
    assert Shape.of(2, 3) == Shape(2, 3)
    assert Shape.of(2, 3) != Shape.of(3, 2)


@pytest.mark.parametrize(
    ("side", "box"),
    [(4, "2x2"), (6, "2x3"), (8, "2x4"), (9, "3x3"), (10, "2x5"), (12, "3x4"), (16, "4x4"), (20, "4x5"), (25, "5x5")],
)
def test_default_shape_is_the_box_closest_to_square_with_fewer_rows(side: int, box: str) -> None:
    shape = Shape.for_side(side)
    assert str(shape) == box
    assert shape.n == side


@pytest.mark.parametrize("side", [1, 2, 3, 5, 7, 11, 13])
def test_a_side_with_no_box_shape_is_refused(side: int) -> None:
    with pytest.raises(BoxShapeError, match=f"{side}x{side} board has no box shape"):
        Shape.for_side(side)


@pytest.mark.parametrize(("text", "rows", "cols"), [("2x3", 2, 3), ("3X2", 3, 2), ("3*4", 3, 4), (" 4 x 4 ", 4, 4)])
def test_parse_reads_rows_by_columns(text: str, rows: int, cols: int) -> None:
    shape = Shape.parse(text)
    assert (shape.box_rows, shape.box_cols) == (rows, cols)


@pytest.mark.parametrize("text", ["", "3", "3x", "x3", "2x3x4", "axb", "-2x3", "2.5x2"])
def test_parse_refuses_what_is_not_rxc(text: str) -> None:
    with pytest.raises(BoxShapeError) as caught:
        Shape.parse(text)
    assert "RxC" in str(caught.value)
    assert isinstance(caught.value, InvalidPuzzleError)


@pytest.mark.parametrize(("rows", "cols"), [(0, 3), (3, 0), (1, 2), (1, 3), (9, 2), (2, 9)])
def test_unsupported_box_shapes_are_refused(rows: int, cols: int) -> None:
    with pytest.raises(BoxShapeError, match=f"{rows}x{cols}"):
        Shape.of(rows, cols)


def test_str_round_trips_through_parse() -> None:
    for rows, cols in product(range(1, 6), repeat=2):
        if rows * cols >= 4:
            shape = Shape.of(rows, cols)
            assert Shape.parse(str(shape)) is shape
