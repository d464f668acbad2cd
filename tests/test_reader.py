"""Reading puzzles from files, standard input and arguments: one record per puzzle, in order, with its line."""

from __future__ import annotations

import io
import json
import os
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from sudokit import Grid, Shape, parse_puzzle
from sudokit.errors import DuplicateGivenError, InvalidPuzzleError, WrongCellCountError
from sudokit.io.reader import (
    MAX_LINE,
    Record,
    StreamLines,
    bounded_lines,
    estimate_records,
    iter_records,
    read_arguments,
    read_file,
    read_puzzles,
)
from sudokit.io.records import READ_BLOCK

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


# --- notes after a puzzle: puzzle:note, puzzle # name, puzzle<TAB>rating -----------------------------


def noted_lines() -> list[tuple[str, str, str | None]]:
    """(line, its puzzle, its note) in each form a data set writes a note in, from the shipped files."""
    top, easy = puzzles("top95.txt"), puzzles("easy50.txt")
    ints = " ".join(easy[3])  # 81 integers, 0 a blank
    return [
        (f"{top[0]} # Arto Inkala's", top[0], "Arto Inkala's"),
        (f"{top[1]}\t9.2", top[1], "9.2"),
        (f"{top[2]}\t9.2/1.2/1.2\tSE 1.2.1", top[2], "9.2/1.2/1.2\tSE 1.2.1"),
        (f"{easy[0]}   \t# tab then hash", easy[0], "tab then hash"),
        (f"{easy[1]}:1 # the count, then a hash", easy[1], "1 # the count, then a hash"),
        (f"{easy[2]}\t", easy[2], None),
        (f"{easy[4]} #", easy[4], None),
        (f"{ints} # integers", ints, "integers"),
        (f"{top[3]}\t5 #x: 'a:b' {{not json}}", top[3], "5 #x: 'a:b' {not json}"),
    ]


def test_a_note_after_a_puzzle_in_every_form_is_kept_aside(tmp_path: Path) -> None:
    """``puzzle # name`` and ``puzzle<TAB>rating``, as data sets write them, were invalid records."""
    cases = noted_lines()
    text = "# a comment, skipped\n" + "\n".join(line for line, _, _ in cases) + "\n"
    records = list(read_file(write(tmp_path, text)))
    assert [(r.line, r.text, r.note) for r in records] == [
        (number, puzzle, note) for number, (_, puzzle, note) in enumerate(cases, 2)
    ]
    assert grids(records) == [Grid.parse(puzzle) for _, puzzle, _ in cases]
    for line, puzzle, note in cases:  # a command-line argument keeps its note aside the same way
        if "/" in line:
            continue  # an argument with a "/" that is no file is refused as a missing file
        [record] = read_arguments([line])
        assert (record.text, record.note, record.parse()) == (puzzle, note, Grid.parse(puzzle))


def test_a_link_followed_by_a_note_keeps_its_own_colons() -> None:
    """``link # name`` and ``link<TAB>rating``: the note after the link, not after its ``https:``."""
    link = next(line for line in (PUZZLES / "variants" / "links.txt").read_text().splitlines() if line[:1] == "h")
    for line in (f"{link} # named", f"{link}\tnamed", f"{link}  \t # named"):
        for record in (text_records(f"{line}\n")[0], *read_arguments([line])):
            assert (record.text, record.note) == (link, "named")
            assert record.parse() == parse_puzzle(link)
    [record] = text_records(f"{link} words\n")  # words after a space are no note: one bad puzzle, as before
    assert record.note != "words" and isinstance(outcome(record), str)


def test_a_hash_or_a_tab_that_is_no_note_is_read_as_before(leetcode: str) -> None:
    """A ``#`` line is a comment; a tab between the cells of rows is no note; a ``#`` inside a word is
    a bad character; a line with a note ends a JSON board left open and is read on its own."""
    grid = Grid.parse(leetcode)
    tab_rows = "\n".join("\t".join(leetcode[r * 9 : r * 9 + 9]) for r in range(9))
    records = text_records(f"#{leetcode}\n{tab_rows}\n{leetcode[:-1]}#\n[\n{leetcode} # after an open bracket\n")
    assert [(r.line, r.note) for r in records] == [(2, None), (11, None), (12, None), (13, "after an open bracket")]
    assert outcome(records[0]) == grid
    assert outcome(records[1]) == "line 11: row 9, column 9: '#' is not a digit or a blank"
    assert records[2].text == "[" and records[3].text == leetcode


def test_the_batch_path_reads_notes_as_the_reader_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines with a note are plain lines of the batch path's blocks, each record the reader's."""
    from sudokit.runtime.fastpath import Block, expand_blocks, read_items

    lines = [line for line, _, _ in noted_lines()]
    clues = puzzles("17clue.txt")[:40]
    text = "\n".join(clues[:20] + lines + ["[", lines[0], "# c", ""] + clues[20:] + lines) + "\n"
    path = write(tmp_path, text, newline="\r\n")
    expected = list(read_file(path))
    assert len(expected) == 40 + 2 * len(lines) + 2  # the "[" and the line that ends it
    items = list(read_items([str(path)]))
    plain = [r for item in items if isinstance(item, Block) for r in item.records()]
    assert {r.note for r in plain} >= {"Arto Inkala's", "9.2", "9.2/1.2/1.2\tSE 1.2.1", "tab then hash", None}
    assert list(expand_blocks(items)) == expected
    for size in (7, 83, 500):  # pieces read cut the lines anywhere
        monkeypatch.setattr("sudokit.runtime.fastpath.READ_SIZE", size)
        assert list(expand_blocks(read_items([str(path)]))) == expected


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


# --- every line outside a grid is a record of its own --------------------------------------------------


def outcome(record: Record) -> Grid | str:
    """The record's grid, or its error message."""
    try:
        return record.parse()
    except InvalidPuzzleError as err:
        return str(err)


def alone(line: str, number: int) -> Grid | str:
    """What ``line`` is read on its own, as line ``number`` of a file: its grid or its error."""
    try:
        return Grid.parse(line)
    except InvalidPuzzleError as err:
        return f"line {number}: {err}"


def text_records(text: str, box: Shape | None = None) -> list[Record]:
    """The records of ``text`` read as a file is read."""
    return list(iter_records(bounded_lines(io.StringIO(text, newline="")), "text", box=box))


def test_malformed_short_lines_are_each_a_record(tmp_path: Path) -> None:
    records = list(read_file(write(tmp_path, "bad\nworse\nugly\n")))
    assert [(r.line, r.text) for r in records] == [(1, "bad"), (2, "worse"), (3, "ugly")]
    assert [outcome(r) for r in records] == [alone(line, n) for n, line in enumerate(["bad", "worse", "ugly"], 1)]


def test_bad_lines_among_thousands_of_puzzles_each_keep_their_record(tmp_path: Path) -> None:
    """Runs of up to three bad lines (too short to make a grid) among one-line puzzles: one record a line."""
    rng = random.Random(3211)
    lines = puzzles("17clue.txt")[:3000]
    for _ in range(60):
        at = rng.randrange(len(lines))
        symbols = rng.choice(["123456789.", "53..7", "x?!"])
        bad = ["".join(rng.choices(symbols, k=rng.randint(1, 40))) for _ in range(rng.randint(1, 3))]
        lines[at:at] = bad
    records = list(read_file(write(tmp_path, "\n".join(lines) + "\n")))
    assert [(r.line, r.text) for r in records] == list(enumerate(lines, 1))
    for r in records:
        if len(r.text) != 81:
            assert outcome(r) == alone(r.text, r.line or 0)


def test_rows_cut_short_are_each_a_record_with_the_error_of_their_line(tmp_path: Path, leetcode: str) -> None:
    pretty = Grid.parse(leetcode).to_pretty().splitlines()
    easy = puzzles("easy50.txt")[0]
    # Five lines of a pretty grid (three rows, a separator line, a row), then each way a run can end.
    for end in ["", "\n", "# a comment\n", f"{easy}\n", f"{easy}:1\n", "1 2 3 4\n", "[[1]]\n"]:
        records = list(read_file(write(tmp_path, "\n".join(pretty[:5]) + "\n" + end)))
        assert [(r.line, r.text) for r in records[:5]] == list(enumerate(pretty[:5], 1)), end
        for r in records[:5]:
            assert isinstance(outcome(r), str)
            if "-" not in r.text:
                assert outcome(r) == alone(r.text, r.line or 0)
        assert "separators" in str(outcome(records[3]))


def test_a_grid_with_a_border_all_round_is_one_record(tmp_path: Path, leetcode: str) -> None:
    border = "+-------+-------+-------+"
    rows = [f"| {row} |" for row in Grid.parse(leetcode).to_pretty().splitlines()]
    text = "\n".join([border, *rows, border, leetcode, border, *rows, border]) + "\n"
    records = list(read_file(write(tmp_path, text)))
    assert [r.line for r in records] == [1, 14, 15]
    assert grids(records) == [Grid.parse(leetcode)] * 3


# --- 16x16 and larger grids over lines, and the one-line puzzles of the same width --------------------


def rows_of(grid: Grid, form: str) -> str:
    """``grid`` over ``grid.n`` lines: integers (``0 0 12 0 ...``) or symbols without ``|``."""
    if form == "integers":
        return "\n".join(" ".join(map(str, row)) for row in grid.rows())
    return "\n".join(grid.to_line()[r * grid.n : (r + 1) * grid.n] for r in range(grid.n))


@pytest.mark.parametrize("form", ["integers", "symbols"])
@pytest.mark.parametrize("via", ["file", "stdin", "argument"])
def test_a_16x16_grid_over_16_lines_is_one_record(tmp_path: Path, form: str, via: str) -> None:
    for puzzle, solution in sized("4x4"):
        for grid in (puzzle, solution):
            text = rows_of(grid, form)
            if via == "file":
                records = list(read_file(write(tmp_path, text + "\n")))
            elif via == "stdin":
                records = list(read_arguments(["-"], io.StringIO(text + "\n")))
            else:
                records = list(read_arguments([text]))
            assert len(records) == 1
            assert records[0].parse() == grid == Grid.parse(text)


def test_one_line_puzzles_of_16_cells_stay_one_a_line(tmp_path: Path) -> None:
    """More than 16 lines of 4x4 puzzles without ``:``, mixed with 16x16 grids: each 4x4 is one record.

    (Rows are taken n at a time from the first line of a run: a grid right after one-line puzzles of its
    width needs a blank line before it; one-line puzzles right after a grid need none.)
    """
    small = [g.to_line() for pair in sized("2x2") for g in pair] * 2
    assert len(small) > 16
    (big, big_solution), *_ = sized("4x4")
    k = len(small)
    lines = [*small, "", *rows_of(big, "symbols").split("\n"), *small[:3], ""]
    lines += [*rows_of(big_solution, "integers").split("\n"), *small[:5]]
    records = list(read_file(write(tmp_path, "\n".join(lines) + "\n")))
    expected = [Grid.parse(t) for t in small] + [big] + [Grid.parse(t) for t in small[:3]]
    expected += [big_solution] + [Grid.parse(t) for t in small[:5]]
    assert grids(records) == expected
    numbers = [*range(1, k + 1), k + 2, *range(k + 18, k + 21), k + 22, *range(k + 38, k + 43)]
    assert [r.line for r in records] == numbers


def test_a_box_shape_settles_what_a_16_cell_line_is() -> None:
    empty = Grid.empty(Shape.of(4, 4))
    text = rows_of(empty, "symbols") + "\n"
    assert grids(text_records(text)) == [Grid.empty(Shape.of(2, 2))] * 16  # each line a whole (empty) 4x4
    [record] = text_records(text, Shape.of(4, 4))
    assert record.parse(Shape.of(4, 4)) == empty
    (_, solution), *_ = sized("4x4")
    records = text_records(rows_of(solution, "symbols") + "\n", Shape.of(2, 2))
    assert [r.line for r in records] == list(range(1, 17))  # a 4x4 puzzle a line, if a bad one


def test_lines_of_16_cells_are_read_no_more_than_one_board_ahead() -> None:
    small = [g.to_line() for pair in sized("2x2") for g in pair]

    def lines() -> Iterator[str]:
        for line in small[:16]:
            yield line + "\n"
        raise AssertionError("read past one board")

    assert next(iter_records(lines(), "<pipe>")).parse() == Grid.parse(small[0])


def latin(n: int, rng: random.Random) -> Grid:
    """A random puzzle of an n x n board with 1xn boxes (a Latin square with blanks)."""
    digits = rng.sample(range(1, n + 1), n)
    cells = [0 if rng.random() < 0.4 else digits[(r + c) % n] for r in range(n) for c in range(n)]
    return Grid(cells, Shape.of(1, n))


@pytest.mark.parametrize("n", [5, 7])
def test_boards_of_a_prime_side_with_a_1xn_box(tmp_path: Path, n: int) -> None:
    rng = random.Random(n)
    box = Shape.of(1, n)
    boards = [latin(n, rng) for _ in range(n * n + 5)]
    path = write(tmp_path, "\n".join(g.to_line() for g in boards) + "\n")
    assert [r.parse(box) for r in read_file(path, box=box)] == boards
    assert [r.line for r in read_file(path)] == list(range(1, len(boards) + 1))  # without the box, too
    typed = "\n\n".join(rows_of(g, "symbols") for g in boards[:3]) + "\n"
    assert [r.parse(box) for r in read_file(write(tmp_path, typed), box=box)] == boards[:3]
    assert [r.parse(box) for r in read_arguments([str(path)], box=box)][:2] == boards[:2]


# --- arguments ---------------------------------------------------------------------------------------


def test_an_argument_is_one_puzzle_read_as_grid_parse_reads_it(leetcode: str) -> None:
    typed = "\n".join(leetcode[r * 9 : r * 9 + 9] for r in range(9))
    short = typed.replace(leetcode[:9], leetcode[:8], 1)  # a row a cell short: one bad puzzle
    for text in [typed, short, f"  {typed}\n", json.dumps(Grid.parse(leetcode).to_leetcode(), indent=1)]:
        [record] = read_arguments([text])
        assert (record.source, record.line, record.note) == ("<argument>", None, None)
        try:
            expected: Grid | str = Grid.parse(text)
        except InvalidPuzzleError as err:
            expected = str(err)
        assert outcome(record) == expected
    [record] = read_arguments([f"{leetcode}:1\n"])
    assert (record.text, record.note) == (leetcode, "1")


# --- line ends ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("newline", ["\r", "\n", "\r\n"])
def test_an_over_long_line_does_not_swallow_the_lines_after_it(tmp_path: Path, newline: str) -> None:
    easy = puzzles("easy50.txt")[:4]
    text = f"{easy[0]}\n{easy[1]}\n{'1' * (2 * MAX_LINE)}\n{easy[2]}\n{easy[3]}\n"
    records = list(read_file(write(tmp_path, text, newline=newline)))
    assert [r.line for r in records] == [1, 2, 3, 4, 5]
    assert records[2].problem and not any(r.problem for r in records[:2] + records[3:])
    assert grids(records[:2] + records[3:]) == [Grid.parse(p) for p in easy]


@pytest.mark.parametrize("length", [MAX_LINE - 1, MAX_LINE, MAX_LINE + 1, 2 * MAX_LINE, 2 * MAX_LINE + 1])
@pytest.mark.parametrize("newline", ["\r", "\r\n"])
def test_a_line_at_the_length_limit(tmp_path: Path, length: int, newline: str) -> None:
    """A line of MAX_LINE characters is read, one more is too long; a ``\\r\\n`` cut by the limit is one line end."""
    easy = puzzles("easy50.txt")[0]
    text = f"{'1' * length}{newline}{easy}{newline}"
    for records in (text_records(text), list(read_file(write(tmp_path, text)))):
        assert [r.line for r in records] == [1, 2]
        assert bool(records[0].problem) == (length > MAX_LINE)
        assert records[1].parse() == Grid.parse(easy)


# --- estimate_records --------------------------------------------------------------------------------


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_estimate_records_counts_lines_that_are_not_blank_or_comments(tmp_path: Path, newline: str) -> None:
    easy = puzzles("easy50.txt")
    long_line = "1" * (3 * READ_BLOCK + 7)  # spans blocks
    lines = ["# header", "", *easy[:5], "   ", "\t# indented comment", long_line, "#", *easy[5:9], "  x  ", easy[9]]
    one = write(tmp_path, "\ufeff" + newline.join(lines), "one.txt", newline)
    two = write(tmp_path, "# nothing\n\n", "two.txt", newline)
    three = write(tmp_path, "".join(p + newline for p in easy), "three.txt", newline)
    counted = [line for line in lines if line.strip() and not line.strip().startswith("#")]
    assert estimate_records([str(one)]) == len(counted)
    assert estimate_records([str(one), str(two), three]) == len(counted) + len(easy)
    assert estimate_records([]) == 0


def test_estimate_records_of_a_file_of_one_line_puzzles_is_its_record_count() -> None:
    path = PUZZLES / "17clue.txt"
    assert estimate_records([str(path)]) == sum(1 for _ in read_file(path))


def test_estimate_records_is_none_unless_every_path_is_a_regular_file(tmp_path: Path) -> None:
    good = write(tmp_path, puzzles("easy50.txt")[0] + "\n")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # never opened: with no writer, opening it would wait forever
    assert estimate_records([str(good)]) == 1
    for other in [str(fifo), "-", str(tmp_path / "missing.txt"), str(tmp_path)]:
        assert estimate_records([str(good), other]) is None


# --- read_puzzles ------------------------------------------------------------------------------------


def test_read_puzzles_streams_grids_and_names_the_file_and_line_of_a_bad_one(tmp_path: Path, leetcode: str) -> None:
    easy = puzzles("easy50.txt")[:2]
    bad = "55" + leetcode[2:]
    path = write(tmp_path, f"{easy[0]}\n# a comment\n{easy[1]}\n\n{bad}\n{leetcode}\n")
    grids_read = read_puzzles(path)
    assert [next(grids_read), next(grids_read)] == [Grid.parse(p) for p in easy]
    with pytest.raises(DuplicateGivenError) as caught:
        next(grids_read)
    with pytest.raises(DuplicateGivenError) as alone_err:
        Grid.parse(bad)
    err = caught.value
    assert (err.line, err.row, err.column, err.digit, err.other) == (5, 1, 2, 5, (1, 1))
    assert str(err) == f"{path}:5: {alone_err.value}"


def test_read_puzzles_with_a_box_shape(tmp_path: Path) -> None:
    boards = [latin(5, random.Random(seed)) for seed in range(3)]
    path = write(tmp_path, "\n".join(g.to_line() for g in boards) + "\n")
    assert list(read_puzzles(str(path), box=Shape.of(1, 5))) == boards
    with pytest.raises(InvalidPuzzleError, match=f"^{path}:1: .*5x5 board has no box shape"):
        next(read_puzzles(path))


def _piped(data: bytes) -> int:
    """The read end of a pipe that a thread fills with ``data`` and then closes."""
    import threading

    read, write = os.pipe()

    def feed() -> None:
        with os.fdopen(write, "wb") as out:
            out.write(data)

    threading.Thread(target=feed, daemon=True).start()
    return read


@pytest.mark.parametrize("chunk", [1, 2, 7, 1 << 16])
def test_standard_input_read_as_a_stream_gives_the_lines_python_reads(tmp_path: Path, chunk: int) -> None:
    """``StreamLines`` (how ``sudoku solve -`` reads a pipe, to tell whether a line is in hand) cuts the same
    lines as the text stream it stands for: ``\\r``, ``\\r\\n`` and ``\\n`` ends (a ``\\r\\n`` split between two
    reads too), bad UTF-8 kept as surrogates, a line over the limit skipped in pieces."""
    rng = random.Random(chunk)
    parts = [b"\r", b"\n", b"\r\n", "é".encode(), b"\xff\xfe", b"8" * 40, b"12.4", b" # note"]
    data = b"".join(rng.choice(parts) for _ in range(3000)) + b"x" * 300 + b"\r\n" + b"tail"
    path = tmp_path / "input"
    path.write_bytes(data)
    with open(path, encoding="utf-8", errors="surrogateescape", newline="") as handle:
        expected = [line if isinstance(line, str) else "<long>" for line in bounded_lines(handle, limit=100)]
    stream = StreamLines(_piped(data))
    stream.CHUNK = chunk
    try:
        got = [line if isinstance(line, str) else "<long>" for line in bounded_lines(stream, limit=100)]
    finally:
        os.close(stream.fileno())
    assert got == expected
    assert "<long>" in got and len(got) > 1000


def test_a_stream_is_ready_only_when_its_next_line_is_in_hand() -> None:
    """The worker pool draws from standard input only when ``ready()``: a line cut short by a producer that
    has not written the rest is not ready (reading it would wait); it is once the line ends, and at the end."""
    read, write = os.pipe()
    stream = StreamLines(read)
    try:
        assert stream.ready()  # no reader in it yet: never waits
        stream.active = True
        assert not stream.ready()  # nothing written
        os.write(write, b"1234")
        assert not stream.ready()  # a line begun
        os.write(write, b"\r")
        assert not stream.ready()  # "\r" last: a "\n" may follow
        os.write(write, b"\nnext")
        assert stream.ready()
        assert stream.readline() == "1234\r\n"
        assert not stream.ready()
        os.close(write)
        write = -1
        assert stream.ready()  # the end: the last line without its end
        assert stream.readline() == "next"
        assert stream.readline() == ""
    finally:
        os.close(read)
        if write >= 0:
            os.close(write)
