"""Text forms of a board: every form parses, every printed form parses back, every error names its place."""

from __future__ import annotations

import json
import pickle
import re
from math import isqrt

import pytest

from sudokit import Grid, Shape, is_solution
from sudokit.errors import (
    BadCharacterError,
    BoxShapeError,
    DigitOutOfRangeError,
    DuplicateGivenError,
    InvalidPuzzleError,
    WrongCellCountError,
)

from .conftest import BOXES, sized

SYMBOLS = "123456789ABCDEFGHIJKLMNOP"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def decode(line: str) -> list[int]:
    """The cell values of a one-line puzzle, decoded here independently of sudokit."""
    return [0 if ch in ".0" else SYMBOLS.index(ch.upper()) + 1 for ch in line]


def transposed(grid: Grid, box: str) -> Grid:
    """The grid mirrored on its main diagonal: boxes of R x C become boxes of C x R."""
    n = grid.n
    return Grid([grid.cells[c * n + r] for r in range(n) for c in range(n)], Shape.parse(box))


def all_grids() -> list[tuple[str, Grid]]:
    """Every puzzle and solution of the sizes/ files, with its box shape."""
    return [(box, g) for box in BOXES for pair in sized(box) for g in pair]


GRIDS = all_grids()
GRID_IDS = [f"{box}-{k}" for k, (box, _) in enumerate(GRIDS)]


# --- the accepted forms -------------------------------------------------------------------------


def test_one_line_with_dot_and_zero_blanks(leetcode: str) -> None:
    dots = Grid.parse(leetcode)
    zeros = Grid.parse(leetcode.replace(".", "0"))
    mixed = Grid.parse("".join("0" if ch == "." and k % 2 else ch for k, ch in enumerate(leetcode)))
    assert list(dots.cells) == decode(leetcode)
    assert dots == zeros == mixed
    assert dots.shape == Shape.of(3, 3)
    assert dots.count_givens() == sum(ch != "." for ch in leetcode)
    assert not dots.is_complete()


def test_cells_are_read_by_row_and_column(leetcode: str) -> None:
    g = Grid.parse(leetcode)
    values = decode(leetcode)
    for r in range(9):
        for c in range(9):
            assert g[r, c] == values[r * 9 + c] == g[r * 9 + c]
    assert g.rows() == [values[r * 9 : r * 9 + 9] for r in range(9)]
    with pytest.raises(IndexError):
        g[9, 0]
    with pytest.raises(IndexError):
        g[0, -1]


@pytest.mark.parametrize("box", ["3x4", "4x4", "5x5"])
def test_letters_stand_for_values_above_nine(box: str) -> None:
    for puzzle, solution in sized(box):
        line = solution.to_line()
        assert any(ch.isalpha() for ch in line)
        assert list(Grid.parse(line).cells) == decode(line)
        assert Grid.parse(line.lower()) == solution
        assert Grid.parse(puzzle.to_line(), box) == puzzle


def test_multi_line_grid_with_every_separator_and_blank_lines(leetcode: str) -> None:
    rows = [leetcode[r * 9 : r * 9 + 9] for r in range(9)]
    lines = ["+-------+-------+-------+"]
    for r, row in enumerate(rows):
        lines.append(f"| {' '.join(row[:3])} | {' '.join(row[3:6])} * {' '.join(row[6:])} |")
        if r % 3 == 2:
            lines += ["+-------+-------+-------+", ""]
    text = "\n\n".join(lines)
    assert Grid.parse(text) == Grid.parse(leetcode)
    assert Grid.parse("\n".join(rows)) == Grid.parse(leetcode)
    assert Grid.parse("\n".join(rows).replace(".", "0")) == Grid.parse(leetcode)


def test_rows_of_zeros_are_rows_not_integers() -> None:
    empty4 = "\n".join(["0000"] * 4)
    assert Grid.parse(empty4) == Grid.empty("2x2")
    assert Grid.parse("\n".join(["000000000"] * 9)) == Grid.empty()
    assert Grid.parse("\n".join(["0000 0000 0000"] * 12)) == Grid.empty("3x4")


@pytest.mark.parametrize(("box", "grid"), GRIDS, ids=GRID_IDS)
def test_printed_forms_parse_back(box: str, grid: Grid) -> None:
    assert Grid.parse(grid.to_line(), box) == grid
    assert Grid.parse(grid.to_pretty(), box) == grid
    assert Grid.parse(grid.to_json(), box) == grid
    assert Grid.parse(grid.format("line")) == Grid.parse(grid.format("pretty")) == Grid.parse(grid.format("json"))
    assert Grid.from_rows(grid.rows(), box) == grid
    assert eval(repr(grid), {"Grid": Grid}) == grid
    assert Grid.parse(str(grid)) == grid


@pytest.mark.parametrize("box", BOXES)
def test_colored_pretty_output_parses_back(box: str) -> None:
    puzzle, solution = sized(box)[0]
    colored = solution.to_pretty(givens=puzzle, color=True)
    assert "\x1b[" in colored
    assert ANSI.sub("", colored) == solution.to_pretty()
    assert Grid.parse(colored) == solution
    assert "\x1b[" not in solution.to_pretty(givens=puzzle)


def test_colored_output_marks_exactly_the_filled_cells() -> None:
    puzzle, solution = sized("2x2")[0]
    colored = solution.to_pretty(givens=puzzle, color=True)
    assert len(re.findall(r"\x1b\[[0-9;]*m[^\x1b]\x1b\[0m", colored)) == len(puzzle) - puzzle.count_givens()


def test_leetcode_json_board(leetcode: str) -> None:
    grid = Grid.parse(leetcode)
    board = grid.to_leetcode()
    assert all(isinstance(cell, str) and len(cell) == 1 for row in board for cell in row)
    assert "".join(cell for row in board for cell in row) == leetcode
    assert Grid.parse(json.dumps(board)) == grid
    assert Grid.parse(json.dumps(board, indent=2)) == grid
    assert Grid.parse(json.dumps(grid.rows())) == grid
    assert Grid.from_rows(board) == grid


@pytest.mark.parametrize("box", ["4x4", "5x5"])
def test_whitespace_separated_integers_for_large_boards(box: str) -> None:
    for puzzle, solution in sized(box):
        for grid in (puzzle, solution):
            assert any(v > 9 for v in grid.cells)
            assert Grid.parse(" ".join(map(str, grid.cells))) == grid
            rows = "\n".join(" ".join(str(v) for v in row) for row in grid.rows())
            assert Grid.parse(rows) == grid
            assert Grid.parse(" ".join(f"{v:02d}" for v in grid.cells)) == grid


def test_six_by_six_boxes_are_two_by_three_unless_told() -> None:
    _, solution = sized("2x3")[0]
    assert Grid.parse(solution.to_line()).shape == Shape.of(2, 3)
    flipped = transposed(solution, "3x2")
    assert is_solution(Grid.empty("3x2"), flipped)
    assert Grid.parse(flipped.to_line(), box="3x2") == flipped
    assert Grid.parse(flipped.to_line(), box=Shape.of(3, 2)).shape == Shape.of(3, 2)
    assert Grid.parse(flipped.to_pretty(), box="3x2") == flipped
    # The same 36 symbols are not a valid board with the default 2x3 boxes.
    with pytest.raises(DuplicateGivenError, match="same box"):
        Grid.parse(flipped.to_line())
    assert repr(flipped).endswith("box='3x2')")
    assert eval(repr(flipped), {"Grid": Grid}) == flipped


def test_grid_is_an_immutable_value(leetcode: str) -> None:
    a, b = Grid.parse(leetcode), Grid.parse(leetcode.replace(".", "0"))
    assert a == b and hash(a) == hash(b)
    assert len({a, b}) == 1
    assert a != Grid.empty()
    assert a != leetcode
    with pytest.raises(AttributeError):
        a.cells = (0,) * 81  # type: ignore[misc]
    assert len(a) == 81 and list(a) == list(a.cells)


def test_unknown_output_format_is_refused(leetcode: str) -> None:
    with pytest.raises(ValueError, match="xml"):
        Grid.parse(leetcode).format("xml")


# --- errors ---------------------------------------------------------------------------------------


def one_line(err: Exception) -> str:
    text = str(err)
    assert text and "\n" not in text
    return text


def place(text: str, r: int, c: int, symbol: str, n: int = 9) -> str:
    """``text`` (one line) with the cell at 0-based (r, c) set to ``symbol``."""
    i = r * n + c
    return text[:i] + symbol + text[i + 1 :]


def test_wrong_cell_count(leetcode: str) -> None:
    for text, count in ((leetcode[:-1], 80), (leetcode + "1", 82), ("12.4" * 4 + ".", 17)):
        with pytest.raises(WrongCellCountError) as caught:
            Grid.parse(text)
        assert f"{count} cells" in one_line(caught.value)
        assert (caught.value.line, caught.value.row, caught.value.column) == (None, None, None)
    with pytest.raises(WrongCellCountError, match="smallest board is 4x4"):
        Grid.parse("123456789")
    with pytest.raises(WrongCellCountError, match="80 cells"):
        Grid(range(80))
    with pytest.raises(WrongCellCountError, match="a 9x9 board needs 81"):
        Grid([0] * 36, Shape.of(3, 3))


def test_bad_character_names_row_and_column(leetcode: str) -> None:
    with pytest.raises(BadCharacterError) as caught:
        Grid.parse(place(leetcode, 1, 2, "?"))
    err = caught.value
    assert (err.row, err.column, err.line) == (2, 3, None)
    text = one_line(err)
    assert "row 2, column 3" in text and "'?'" in text


def test_bad_character_on_a_line_of_the_wrong_length_names_its_position(leetcode: str) -> None:
    with pytest.raises(BadCharacterError, match=r"character 5: '\$'"):
        Grid.parse(leetcode[:4] + "$" + leetcode[6:])


@pytest.mark.parametrize(
    ("text", "row", "column", "digit"),
    [
        (" ".join(["0"] * 8 + ["7"] + ["0"] * 27), 2, 3, 7),  # 6x6, integer form
        ("." * 40 + "G" + "." * 40, 5, 5, 16),  # 'G' is 16: a symbol only from 16x16 up
        (" ".join(["0"] * 17 + ["17"] + ["0"] * 238), 2, 2, 17),  # 16x16, integer form
        (" ".join(["0"] * 624 + ["26"]), 25, 25, 26),  # 25x25, integer form
    ],
    ids=["7-on-6x6", "G-on-9x9", "17-on-16x16", "26-on-25x25"],
)
def test_digit_out_of_range(text: str, row: int, column: int, digit: int) -> None:
    with pytest.raises(DigitOutOfRangeError) as caught:
        Grid.parse(text)
    err = caught.value
    assert (err.row, err.column, err.digit) == (row, column, digit)
    message = one_line(err)
    written = next(t for t in re.split(r"[\s.]+", text) if t not in ("", "0"))
    shown = f"{written!r}" if written.isalpha() else f"digit {digit}"  # a letter as written, not as its value
    n = isqrt(len(text.split()) if " " in text else len(text))
    assert message == f"row {row}, column {column}: {shown} is out of range for a {n}x{n} board (1-{n})"


@pytest.mark.parametrize(
    ("text", "row", "column", "digit"),
    [
        (" ".join(["-1"] + ["0"] * 80), 1, 1, -1),
        (" ".join(["0"] * 17 + ["-12"] + ["0"] * 238), 2, 2, -12),
        ("1 0 0 0\n0 0 -3 0\n0 0 0 0\n0 0 0 0", 2, 3, -3),
    ],
    ids=["-1-on-9x9", "-12-on-16x16", "-3-on-4x4-rows"],
)
def test_a_negative_integer_is_out_of_range_not_a_digit_after_a_separator(
    text: str, row: int, column: int, digit: int
) -> None:
    """``-`` is a separator of the pretty form; in the integer form it once made ``-1`` a given 1."""
    with pytest.raises(DigitOutOfRangeError) as caught:
        Grid.parse(text)
    n = isqrt(len(text.split()))
    assert (
        one_line(caught.value)
        == f"row {row}, column {column}: digit {digit} is out of range for a {n}x{n} board (1-{n})"
    )
    assert (caught.value.row, caught.value.column, caught.value.digit) == (row, column, digit)
    assert Grid.parse(text.replace("-", "")).cells[(row - 1) * n + column - 1] == -digit  # as it was read before


@pytest.mark.parametrize(("symbol", "value"), [("W", 32), ("w", 32), ("A", 10), ("Z", 35)])
def test_a_letter_out_of_range_is_named_as_written(leetcode: str, symbol: str, value: int) -> None:
    rows = [list(leetcode[r * 9 : r * 9 + 9]) for r in range(9)]
    rows[2][4] = symbol
    for text in (place(leetcode, 2, 4, symbol), json.dumps(rows)):
        with pytest.raises(DigitOutOfRangeError) as caught:
            Grid.parse(text)
        assert one_line(caught.value) == f"row 3, column 5: {symbol!r} is out of range for a 9x9 board (1-9)"
        assert (caught.value.row, caught.value.column, caught.value.digit) == (3, 5, value)
    with pytest.raises(DigitOutOfRangeError, match=f"^row 3, column 5: {symbol!r} is out of range"):
        Grid.from_rows(rows)


def test_g_is_a_digit_on_a_sixteen_by_sixteen_board() -> None:
    assert Grid.parse("G" + "." * 255)[0] == 16
    with pytest.raises(DigitOutOfRangeError) as caught:
        Grid([0] * 80 + [10])
    assert (caught.value.row, caught.value.column, caught.value.digit) == (9, 9, 10)


def duplicate_for(puzzle: str, kind: str) -> tuple[int, int, int, tuple[int, int]]:
    """A blank cell (r, c) and a digit that repeats a given only in the unit ``kind``, and that given's place."""
    cells = decode(puzzle)

    def unit_keys(i: int) -> dict[str, tuple[int, int]]:
        r, c = divmod(i, 9)
        return {"row": (0, r), "column": (1, c), "box": (2, r // 3 * 3 + c // 3)}

    for i, v in enumerate(cells):
        if v:
            continue
        keys = unit_keys(i)
        for j, d in enumerate(cells):
            if not d:
                continue
            shared = [k for k, key in unit_keys(j).items() if key == keys[k]]
            others = [k for k, key in keys.items() if k != kind]
            clash_elsewhere = any(
                cells[m] == d for m in range(81) if m != j and any(unit_keys(m)[k] == keys[k] for k in others)
            )
            if shared == [kind] and not clash_elsewhere:
                return i // 9, i % 9, d, (j // 9 + 1, j % 9 + 1)
    raise AssertionError(f"no cell for a {kind} duplicate")


@pytest.mark.parametrize("kind", ["row", "column", "box"])
def test_duplicate_given_names_both_cells(leetcode: str, kind: str) -> None:
    r, c, digit, other = duplicate_for(leetcode, kind)
    with pytest.raises(DuplicateGivenError) as caught:
        Grid.parse(place(leetcode, r, c, str(digit)))
    err = caught.value
    # The later of the two cells in reading order is the one at fault; the earlier is ``other``.
    assert sorted([(err.row, err.column), err.other]) == sorted([(r + 1, c + 1), other])
    assert err.digit == digit and err.other < (err.row, err.column)
    message = one_line(err)
    assert f"row {r + 1}, column {c + 1}" in message
    assert f"row {other[0]}, column {other[1]}" in message
    assert f"same {kind}" in message and f"digit {digit}" in message


def test_duplicate_found_when_building_from_rows(leetcode: str) -> None:
    board = Grid.parse(leetcode).to_leetcode()
    board[8][0] = board[0][0]
    with pytest.raises(DuplicateGivenError, match="same column") as caught:
        Grid.from_rows(board)
    assert caught.value.other == (1, 1) and (caught.value.row, caught.value.column) == (9, 1)


@pytest.mark.parametrize(
    ("text", "box", "message"),
    [
        ("." * 81, "2x3", "box 2x3 makes a 6x6 board, but the puzzle is 9x9"),
        ("." * 36, "2x2", "box 2x2 makes a 4x4 board, but the puzzle is 6x6"),
        ("." * 36, "3x", "not of the form RxC"),
        ("." * 36, "1x1", "box shape 1x1 is not supported"),
        ("." * 25, None, "a 5x5 board has no box shape"),
        ("." * 49, None, "a 7x7 board has no box shape"),
    ],
)
def test_box_shape_not_matching_the_board(text: str, box: str | None, message: str) -> None:
    with pytest.raises(BoxShapeError) as caught:
        Grid.parse(text, box)
    assert message in one_line(caught.value)


@pytest.mark.parametrize("text", ["", "   ", "\n\n", "\ufeff", "| - + |\n---+---"])
def test_empty_text(text: str) -> None:
    with pytest.raises(WrongCellCountError) as caught:
        Grid.parse(text)
    assert "empty puzzle" in one_line(caught.value) or "0 cells" in str(caught.value)


@pytest.mark.parametrize("text", ["[[1, 2], [3,", '[["5", "3"] ["6", "."]]', "[1, 2}"])
def test_invalid_json(text: str) -> None:
    with pytest.raises(InvalidPuzzleError) as caught:
        Grid.parse(text)
    assert "not valid JSON" in one_line(caught.value)


@pytest.mark.parametrize("text", ["[1, 2, 3, 4]", '["1234", "3412", "2143", "4321"]', "[[1, 2, 3, 4], 5]"])
def test_json_that_is_not_a_list_of_rows(text: str) -> None:
    with pytest.raises(InvalidPuzzleError, match="list of rows"):
        Grid.parse(text)


def test_ragged_json_rows_name_the_row() -> None:
    rows = [[0] * 4 for _ in range(4)]
    rows[2] = [0] * 3
    with pytest.raises(WrongCellCountError) as caught:
        Grid.parse(json.dumps(rows))
    assert "row 3 has 3 cells" in one_line(caught.value)


@pytest.mark.parametrize("cell", [True, None, 1.5, "x?", [1]])
def test_json_cell_that_is_not_a_digit(cell: object) -> None:
    rows: list[list[object]] = [[0] * 4 for _ in range(4)]
    rows[1][3] = cell
    with pytest.raises(BadCharacterError) as caught:
        Grid.parse(json.dumps(rows))
    assert (caught.value.row, caught.value.column) == (2, 4)
    assert "row 2, column 4" in one_line(caught.value)


def test_every_puzzle_error_is_a_value_error(leetcode: str) -> None:
    for text in ("", leetcode[:-1], place(leetcode, 0, 2, "5"), "[[1,", "." * 25):
        with pytest.raises(ValueError):
            Grid.parse(text)


def test_numpy_integers_are_cells() -> None:
    np = pytest.importorskip("numpy")
    for box in ("2x2", "3x3", "4x4"):
        puzzle, solution = sized(box)[0]
        for grid in (puzzle, solution):
            array = np.array(grid.rows(), dtype=np.int64)
            assert Grid.from_rows(array, box) == grid
            assert Grid.from_rows(array.astype(np.uint8), box) == grid
            assert Grid(array.ravel(), box) == grid == Grid(list(array.ravel()), Shape.parse(box))
            assert all(type(v) is int for v in Grid(array.ravel()).cells)  # plain ints inside
    bad = np.array(sized("2x2")[0][0].rows())
    bad[1, 2] = 7
    with pytest.raises(
        DigitOutOfRangeError, match=r"^row 2, column 3: digit 7 is out of range for a 4x4 board \(1-4\)$"
    ):
        Grid(bad.ravel())
    with pytest.raises(
        DigitOutOfRangeError, match=r"^row 2, column 3: digit 7 is out of range for a 4x4 board \(1-4\)$"
    ):
        Grid.from_rows(bad)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Grid.parse(None), "puzzle text must be a str, not None"),  # type: ignore[arg-type]
        (lambda: Grid.parse(b"1234"), "puzzle text must be a str, not b'1234'"),  # type: ignore[arg-type]
        (lambda: Grid.parse("." * 81, box=(3, 3)), r"box must be a Shape or a text like '2x3', not \(3, 3\)"),
        (lambda: Grid.parse("." * 81, box=3), "box must be a Shape or a text like '2x3', not 3"),
        (lambda: Grid.from_rows(None), "rows must be a sequence of rows of cells, not None"),  # type: ignore[arg-type]
        (lambda: Grid.from_rows(7), "rows must be a sequence of rows of cells, not 7"),  # type: ignore[arg-type]
        (lambda: Grid.from_rows([1, 2, 3, 4]), "row 1 must be a sequence of cells, not 1"),  # type: ignore[list-item]
        (lambda: Grid.from_rows("1234"), "rows must be a sequence of rows of cells, not the text '1234'"),
        (lambda: Grid(None), "cells must be an iterable of integers, not None"),  # type: ignore[arg-type]
        (lambda: Grid("." * 16), "cells must be integers, not the text"),
        (lambda: Grid([0] * 16, (2, 2)), r"box must be a Shape or a text like '2x3', not \(2, 2\)"),  # type: ignore[arg-type]
        (lambda: Grid.empty((2, 2)), r"box must be a Shape or a text like '2x3', not \(2, 2\)"),  # type: ignore[arg-type]
        (lambda: Shape.parse(5), "box shape must be a text like '2x3', not 5"),  # type: ignore[arg-type]
        (lambda: Shape("3", 3), "box rows and columns must be whole numbers, not '3' x 3"),  # type: ignore[arg-type]
        (lambda: Shape(True, 4), "box rows and columns must be whole numbers, not True x 4"),
    ],
)
def test_arguments_of_the_wrong_type_are_named(make: object, message: str) -> None:
    with pytest.raises(TypeError, match=f"^{message}"):
        make()  # type: ignore[operator]


@pytest.mark.parametrize("cell", [1.0, "1", None, [1]])
def test_cells_that_are_not_integers_are_not_digits(cell: object) -> None:
    cells: list[object] = [0] * 16
    cells[5] = cell
    with pytest.raises(BadCharacterError, match=r"^row 2, column 2: .* is not a digit or a blank$"):
        Grid(cells)  # type: ignore[arg-type]


def test_a_grid_of_a_tuple_on_a_shape_unchecked_is_the_grid_made_the_long_way() -> None:
    """Grid(tuple, Shape, validate=False) (how sudokit makes an engine's answer) takes a short way: the same grid."""
    puzzle, solution = sized("3x3")[0]
    short = Grid(solution.cells, solution.shape, validate=False)
    long = Grid(list(solution.cells), "3x3", validate=False)
    assert short == long == solution and hash(short) == hash(long) and repr(short) == repr(long)
    assert short.is_classic and short.constraints == () and short.regions == long.regions
    assert pickle.loads(pickle.dumps(short)) == solution and short.to_line() == solution.to_line()
    with pytest.raises(WrongCellCountError):
        Grid(solution.cells[:-1], solution.shape, validate=False)
    odd = Grid((10,) * 81, solution.shape, validate=False)  # unchecked as before: the answer check refuses it
    assert odd.cells == (10,) * 81 and not is_solution(puzzle, odd)


@pytest.mark.parametrize("box", BOXES)
def test_a_grids_bytes_are_its_cells_made_once(box: str) -> None:
    """``to_bytes`` is what compiled engines and the check read: the cells, one byte each, the same object again."""
    puzzle, solution = sized(box)[0]
    for grid in (puzzle, solution):
        raw = grid.to_bytes()
        assert type(raw) is bytes and list(raw) == list(grid.cells) and grid.to_bytes() is raw
        assert pickle.loads(pickle.dumps(grid)).to_bytes() == raw  # a copy makes its own
    wide = Grid(tuple([256] + [0] * 80), Shape.of(3, 3), validate=False)  # no byte holds 256
    with pytest.raises(ValueError):
        wide.to_bytes()


@pytest.mark.parametrize("box", BOXES)
def test_a_grid_of_bytes_is_the_grid_of_its_cells(box: str) -> None:
    """``Grid._of_bytes`` (the grids of an engine's plain answer) makes what ``Grid(cells, validate=False)`` makes."""
    _, solution = sized(box)[0]
    raw = bytes(solution.cells)
    grid = Grid._of_bytes(raw, solution.shape)
    assert type(grid) is Grid and grid == solution and hash(grid) == hash(solution) and grid.is_classic
    assert type(grid.cells) is tuple and grid.cells == solution.cells and grid.to_bytes() is raw
    assert grid.to_line() == solution.to_line() and pickle.loads(pickle.dumps(grid)) == solution
    with pytest.raises(AttributeError):
        grid.cells = ()  # type: ignore[misc]


def test_a_grid_of_bytes_refuses_what_a_grid_refuses() -> None:
    shape = Shape.of(3, 3)
    raw = bytes(sized("3x3")[0][1].cells)
    for cells in (bytearray(raw), memoryview(raw), list(raw), raw.decode("latin-1")):
        with pytest.raises(TypeError):
            Grid._of_bytes(cells, shape)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Grid._of_bytes(raw, "3x3")  # type: ignore[arg-type]
    for short in (raw[:-1], raw + b"\x01"):
        with pytest.raises(WrongCellCountError):
            Grid._of_bytes(short, shape)
        with pytest.raises(WrongCellCountError):
            Grid(tuple(short), shape, validate=False)
