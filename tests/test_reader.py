"""Reading puzzles from files, standard input and arguments: one record per puzzle, in order, with its line."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from sudokit import Grid, Shape
from sudokit.errors import DuplicateGivenError, InvalidPuzzleError, WrongCellCountError
from sudokit.reader import Record, iter_records, read_arguments, read_file

from .conftest import PUZZLES, counted, puzzle_lines, puzzles, sized


def write(tmp_path: Path, text: str, name: str = "puzzles.txt", newline: str = "\n") -> Path:
    path = tmp_path / name
    path.write_bytes(text.replace("\n", newline).encode("utf-8"))
    return path


def grids(records: list[Record]) -> list[Grid]:
    return [record.parse() for record in records]


@pytest.mark.parametrize("name", ["leetcode37.txt", "easy50.txt", "top95.txt", "hardest.txt"])
def test_data_files_give_one_record_per_puzzle_line(name: str) -> None:
    records = list(read_file(PUZZLES / name))
    lines = puzzle_lines(name)
    assert [r.line for r in records] == [x.number for x in lines]
    assert [r.text for r in records] == [x.puzzle for x in lines]
    assert {r.source for r in records} == {str(PUZZLES / name)}
    assert grids(records) == [Grid.parse(x.puzzle) for x in lines]
    assert records[0].where == f"{PUZZLES / name}:{lines[0].number}"


def test_suffixes_are_kept_aside_as_notes() -> None:
    records = list(read_file(PUZZLES / "counts.txt"))
    assert [(r.text, int(r.note or "")) for r in records] == counted()
    for path in sorted((PUZZLES / "sizes").glob("box*.txt")):
        box = path.stem.removeprefix("box")
        records = list(read_file(path))
        assert [(r.parse(Shape.parse(box)), Grid.parse(r.note or "", box)) for r in records] == sized(box)


def test_comments_and_blank_lines_are_skipped(tmp_path: Path, leetcode: str) -> None:
    easy = puzzles("easy50.txt")[:2]
    text = f"# a comment\n\n   \n{easy[0]}\n# {leetcode}\n\n\t{easy[1]}  \n\n"
    records = list(read_file(write(tmp_path, text)))
    assert [(r.line, r.text) for r in records] == [(4, easy[0]), (7, easy[1])]


def test_a_multi_line_grid_in_a_file_is_one_record(tmp_path: Path, leetcode: str) -> None:
    easy = puzzles("easy50.txt")[0]
    grid = Grid.parse(leetcode)
    rows = "\n".join(leetcode[r * 9 : r * 9 + 9] for r in range(9))
    text = f"{easy}\n{grid.to_pretty()}\n{easy}\n# typed\n{rows}\n{easy}:1\n"
    records = list(read_file(write(tmp_path, text)))
    assert [r.line for r in records] == [1, 2, 13, 15, 24]
    assert grids(records) == [Grid.parse(easy), grid, Grid.parse(easy), grid, Grid.parse(easy)]


@pytest.mark.parametrize("box", ["2x2", "2x3", "3x4", "4x4", "5x5"])
def test_pretty_grids_back_to_back(tmp_path: Path, box: str) -> None:
    pairs = sized(box)
    text = "\n".join(s.to_pretty() for _, s in pairs) + "\n"
    records = list(read_file(write(tmp_path, text)))
    assert [r.parse(pairs[0][0].shape) for r in records] == [s for _, s in pairs]


def test_rows_of_integers_over_several_lines(tmp_path: Path) -> None:
    (_, solution), *_ = sized("5x5")
    rows = "\n".join(" ".join(str(v) for v in row) for row in solution.rows())
    records = list(read_file(write(tmp_path, f"{rows}\n\n{rows}\n")))
    assert [r.line for r in records] == [1, 27]
    assert grids(records) == [solution, solution]


def test_json_spanning_lines(tmp_path: Path, leetcode: str) -> None:
    grid = Grid.parse(leetcode)
    board = json.dumps(grid.to_leetcode(), indent=2)
    text = f"{leetcode}\n{board}\n{grid.to_json()}\n[\n{json.dumps(grid.rows()[0])},\n"
    text += ",\n".join(json.dumps(row) for row in grid.rows()[1:]) + "]\n" + leetcode + "\n"
    records = list(read_file(write(tmp_path, text)))
    b = board.count("\n")  # the indented board spans lines 2 .. 2 + b
    assert [r.line for r in records] == [1, 2, 3 + b, 4 + b, 14 + b]
    assert grids(records) == [grid] * 5


def test_line_numbers_in_errors(tmp_path: Path, leetcode: str) -> None:
    easy = puzzles("easy50.txt")[0]
    bad = "55" + leetcode[2:]
    short = leetcode[:-1]
    text = f"# header\n{easy}\n{short}\n{easy}\n\n{bad}\n{easy}\n"
    records = list(read_file(write(tmp_path, text)))
    assert [r.line for r in records] == [2, 3, 4, 6, 7]
    with pytest.raises(WrongCellCountError) as count_err:
        records[1].parse()
    assert count_err.value.line == 3
    assert str(count_err.value).startswith("line 3: 80 cells")
    with pytest.raises(DuplicateGivenError) as dup_err:
        records[3].parse()
    err = dup_err.value
    assert (err.line, err.row, err.column, err.other) == (6, 1, 2, (1, 1))
    assert str(err).startswith("line 6: row 1, column 2: ")
    assert "\n" not in str(err)
    assert [records[k].parse() for k in (0, 2, 4)] == [Grid.parse(easy)] * 3


def test_an_error_in_a_multi_line_grid_names_its_first_line(tmp_path: Path, leetcode: str) -> None:
    grid = Grid.parse(leetcode)
    pretty = grid.to_pretty().replace("5 3 .", "5 5 .", 1)
    records = list(read_file(write(tmp_path, f"{leetcode}\n\n{pretty}\n")))
    assert [r.line for r in records] == [1, 3]
    with pytest.raises(DuplicateGivenError) as caught:
        records[1].parse()
    assert (caught.value.line, caught.value.row, caught.value.column) == (3, 1, 2)


def test_lines_with_a_wrong_cell_count_do_not_swallow_the_next_puzzles(tmp_path: Path, leetcode: str) -> None:
    easy = puzzles("easy50.txt")[:3]
    pretty = Grid.parse(leetcode).to_pretty()
    text = f"{easy[0]}\n{easy[1][:-1]}\n{easy[1]}\n{easy[2]}0\n{pretty}\n{'1234' * 4}\n{'1234' * 4}.\n{easy[2]}\n"
    records = list(read_file(write(tmp_path, text)))
    assert [r.line for r in records] == [1, 2, 3, 4, 5, 16, 17, 18]
    outcomes = []
    for r in records:
        try:
            outcomes.append(r.parse().to_line())
        except InvalidPuzzleError as err:
            outcomes.append(type(err).__name__)
    assert outcomes == [
        Grid.parse(easy[0]).to_line(),
        "WrongCellCountError",
        Grid.parse(easy[1]).to_line(),
        "WrongCellCountError",
        leetcode,
        "DuplicateGivenError",
        "WrongCellCountError",
        Grid.parse(easy[2]).to_line(),
    ]


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_crlf_and_cr_line_ends(tmp_path: Path, leetcode: str, newline: str) -> None:
    easy = puzzles("easy50.txt")[0]
    text = f"# c\n{easy}:1\n\n{Grid.parse(leetcode).to_pretty()}\n{easy}\n"
    records = list(read_file(write(tmp_path, text, newline=newline)))
    assert [(r.line, r.note) for r in records] == [(2, "1"), (4, None), (15, None)]
    assert grids(records) == [Grid.parse(easy), Grid.parse(leetcode), Grid.parse(easy)]


def test_byte_order_mark(tmp_path: Path, leetcode: str) -> None:
    for text in (f"\ufeff{leetcode}\n", f"\ufeff# comment\n{leetcode}\n", f"\ufeff{Grid.parse(leetcode).to_pretty()}"):
        records = list(read_file(write(tmp_path, text)))
        assert grids(records) == [Grid.parse(leetcode)]
        assert "\ufeff" not in records[0].text


def test_a_file_without_a_final_newline(tmp_path: Path, leetcode: str) -> None:
    easy = puzzles("easy50.txt")[0]
    records = list(read_file(write(tmp_path, f"{easy}\n{leetcode}")))
    assert grids(records) == [Grid.parse(easy), Grid.parse(leetcode)]
    assert list(read_file(write(tmp_path, "# nothing here\n\n"))) == []


def test_standard_input_and_arguments_in_order(tmp_path: Path, leetcode: str) -> None:
    easy = puzzles("easy50.txt")[:2]
    path = write(tmp_path, f"{easy[0]}\n{easy[1]}\n")
    stdin = io.StringIO(f"\ufeff{Grid.parse(leetcode).to_pretty()}\n\n{easy[1]}\n")
    records = list(read_arguments([leetcode, str(path), "-", easy[0]], stdin))
    assert [(r.source, r.line) for r in records] == [
        ("<argument>", None),
        (str(path), 1),
        (str(path), 2),
        ("<stdin>", 1),
        ("<stdin>", 13),
        ("<argument>", None),
    ]
    assert grids(records) == [Grid.parse(t) for t in (leetcode, easy[0], easy[1], leetcode, easy[1], easy[0])]
    assert [r.where for r in records][:2] == ["<argument>", f"{path}:1"]


def test_a_multi_line_argument_is_one_puzzle(leetcode: str) -> None:
    (record,) = read_arguments([Grid.parse(leetcode).to_pretty()])
    assert record.parse() == Grid.parse(leetcode)
    assert record.line is None


def test_a_bad_argument_is_still_one_record(leetcode: str) -> None:
    (record,) = read_arguments([leetcode[:-1]])
    with pytest.raises(WrongCellCountError) as caught:
        record.parse()
    assert caught.value.line is None


@pytest.mark.parametrize("arg", ["missing.txt", "no/such/file", "puzzles.sdk"])
def test_a_missing_file_is_named(tmp_path: Path, arg: str) -> None:
    with pytest.raises(InvalidPuzzleError, match="no such file"):
        list(read_arguments([str(tmp_path / arg) if "/" in arg else arg]))


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidPuzzleError, match="is a directory"):
        list(read_arguments([str(tmp_path)]))


def test_records_are_streamed() -> None:
    """A consumer gets the first puzzle before later lines are read (e.g. a pipe still being written)."""
    easy = puzzles("easy50.txt")

    def lines():
        yield easy[0] + "\n"
        raise AssertionError("read past the first puzzle")

    first = next(iter_records(lines(), "<pipe>"))
    assert first.parse() == Grid.parse(easy[0])
