"""Input fuzzing: any text or bytes parses to a Grid or fails with one line; every grid prints and parses back.

The property of the input side: ``Grid.parse`` and ``Record.parse`` return a Grid or raise an
``InvalidPuzzleError`` subclass whose message is one line, and ``sudoku solve`` on the same input
never shows a traceback and exits 2 with one error line per bad puzzle.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sudokit import Grid, InvalidPuzzleError, Shape, is_solution
from sudokit.cli import app
from sudokit.errors import BadCharacterError
from sudokit.io.links import FPUZZLES_URL, MAX_EXPANSION
from sudokit.io.lzstring import compress_to_base64, decompress_from_base64
from sudokit.io.reader import MAX_LINE, Record, bounded_lines, iter_records
from sudokit.model.shape import ALPHABET
from tests.conftest import cli_runner

from .conftest import ROOT, puzzles

#: Every box shape of a board from 4x4 to 25x25 (including the 1xC shapes, whose boxes are rows).
SHAPES = [Shape.of(r, c) for r in range(1, 9) for c in range(1, 9) if 4 <= r * c <= 25]
#: Characters that exercise the parser: symbols, blanks, separators, JSON, line ends, look-alike digits.
TRICKY = list("0123456789.ABCDEFGHIJKLMNOPQZabcp|-+*:#[],\"' \t\r\n\x00\x0b\x0c\x1b\x85\ufeff\u2028\uff15\u0663\u07c3")
#: Digits that are not ASCII: fullwidth 5, Arabic-Indic 3, NKo 3, Devanagari 3, superscript 1, 1/2, bold 9.
ALIEN_DIGITS = "\uff15\u0663\u07c3\u0969\u00b9\u00bd\U0001d7d7"
FUZZ = settings(database=None, max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SUMMARY = re.compile(r"^[\d,]+ puzzles?: [\d,]+ solved, ")


# --- random grids -------------------------------------------------------------------------------------


def solved_grid(shape: Shape, rng: random.Random) -> Grid:
    """A random solution of an empty board: a pattern solution with its digits, rows and columns shuffled."""
    r, c, n = shape.box_rows, shape.box_cols, shape.n
    # Rows move within their band of r rows and bands move as a whole; columns likewise in stacks of c.
    rows = [band * r + k for band in rng.sample(range(c), c) for k in rng.sample(range(r), r)]
    cols = [stack * c + k for stack in rng.sample(range(r), r) for k in rng.sample(range(c), c)]
    digits = rng.sample(range(1, n + 1), n)
    return Grid([digits[(c * (y % r) + y // r + x) % n] for y in rows for x in cols], shape)


def blanked(solution: Grid, rng: random.Random, blanks: int) -> Grid:
    """``solution`` with ``blanks`` cells, chosen at random, made blank."""
    cells = list(solution.cells)
    for i in rng.sample(range(len(cells)), min(blanks, len(cells))):
        cells[i] = 0
    return Grid(cells, solution.shape)


def random_grid(shape: Shape, rng: random.Random) -> Grid:
    """A valid puzzle: a random solution with a random share of its cells blank (all to none)."""
    solution = solved_grid(shape, rng)
    return blanked(solution, rng, rng.randint(0, shape.size))


# --- the property ----------------------------------------------------------------------------------


def one_line(err: InvalidPuzzleError) -> str:
    """The error's message, checked to be one non-empty line."""
    text = str(err)
    assert text.strip(), f"empty message from {type(err).__name__}"
    assert len(text.splitlines()) == 1 and "\n" not in text and "\r" not in text, repr(text)
    return text


def parse_or_one_line(text: str, box: Shape | None = None) -> Grid | None:
    """``Grid.parse(text)``: a Grid, or None after checking the error is a one-line InvalidPuzzleError."""
    try:
        return Grid.parse(text, box)
    except InvalidPuzzleError as err:  # any other exception fails the test
        one_line(err)
        return None


def records_of(text: str) -> list[Record]:
    """The records of ``text`` read as a file is read (newlines kept as they are, long lines bounded)."""
    return list(iter_records(bounded_lines(io.StringIO(text, newline="")), "fuzz"))


def check_records(text: str) -> list[Grid | None]:
    """Every record of ``text`` parses or fails with a one-line error naming its line."""
    grids = []
    for record in records_of(text):
        try:
            grids.append(record.parse())
        except InvalidPuzzleError as err:
            message = one_line(err)
            assert record.line is not None and message.startswith(f"line {record.line}: "), message
            grids.append(None)
    return grids


tricky_text = st.text(st.sampled_from(TRICKY), max_size=400)
decoded_bytes = st.binary(max_size=400).map(lambda b: b.decode("utf-8", "surrogateescape"))


@FUZZ
@given(text=st.one_of(st.text(max_size=400), tricky_text))
@example(text="")
@example(text="\ufeff")
@example(text="[" * 5000)  # nested deeper than the JSON decoder recurses
@example(text="[[" + "1" * 5000 + "]]")  # a number int() refuses to read
@example(text='[["' + "9" * 5000 + '"]]')
@example(text="[[1,2],[3,4]]")
@example(text="[[true, null], [1.5, {}]]")
def test_any_text_parses_or_fails_in_one_line(text: str) -> None:
    parse_or_one_line(text)
    check_records(text)


@FUZZ
@given(text=decoded_bytes, box=st.sampled_from([None, *SHAPES[:6]]))
@example(text=b"\xff\xfe".decode("utf-8", "surrogateescape") + "1" * 14, box=None)
def test_any_bytes_parse_or_fail_in_one_line(text: str, box: Shape | None) -> None:
    parse_or_one_line(text, box)
    check_records(text)


@FUZZ
@given(side=st.integers(1, 26), extra=st.sampled_from([0, 0, 0, -1, 1]), seed=st.integers(0, 2**32 - 1))
def test_every_board_size_and_wrong_lengths(side: int, extra: int, seed: int) -> None:
    rng = random.Random(seed)
    symbols = ALPHABET[: min(side, 25)] + "." * rng.randint(1, 3 * side) + "0" * rng.randint(0, side)
    text = "".join(rng.choice(symbols) for _ in range(max(0, side * side + extra)))
    grid = parse_or_one_line(text)
    if grid is not None:
        assert len(text) == side * side and grid.n == side >= 4
    if side * side != len(text):
        assert grid is None
    check_records(text)


def mangled(grid: Grid, rng: random.Random) -> str:
    """``grid``'s line form with mixed blanks, tabs and spaces between cells, CRLF, a BOM: still the same grid."""
    symbols = ["0" if ch == "." and rng.random() < 0.5 else ch for ch in grid.to_line()]
    pieces = [s + rng.choice(["", "", " ", "\t"]) for s in symbols]
    return rng.choice(["", "\ufeff"]) + rng.choice(["", " ", "\t"]) + "".join(pieces) + rng.choice(["", "\r\n", "\n"])


@FUZZ
@given(shape=st.sampled_from(SHAPES), seed=st.integers(0, 2**32 - 1))
def test_mixed_blanks_crlf_bom_and_tabs_parse_to_the_same_grid(shape: Shape, seed: int) -> None:
    rng = random.Random(seed)
    grid = random_grid(shape, rng)
    assert Grid.parse(mangled(grid, rng), shape) == grid


def one_line_form(grid: Grid, rng: random.Random) -> str:
    """``grid`` on one line of a file, in one of the forms people write."""
    n, line = grid.n, grid.to_line()
    forms = [
        line,
        "".join("0" if ch == "." and rng.random() < 0.5 else ch for ch in line),  # mixed blanks
        rng.choice([" ", "\t"]).join(line),  # every cell apart
        " ".join(line[k : k + n] for k in range(0, n * n, n)),  # grouped by rows
        "\t" + line + "  ",
        " ".join(map(str, grid.cells)),  # integers
        json.dumps(grid.rows()),  # JSON on one line
        f"{line}:{rng.choice(['1', '0', 'note'])}",  # puzzle:note
    ]
    return rng.choice(forms)


#: Shapes whose one-line form the reader takes for a whole board (a prime side such as 5 has no box shape).
FILE_SHAPES = [shape for shape in SHAPES if shape.n not in (5, 7)]


@FUZZ
@given(shape=st.sampled_from(FILE_SHAPES), seed=st.integers(0, 2**32 - 1), newline=st.sampled_from(["\n", "\r\n"]))
def test_a_file_of_puzzles_in_any_one_line_form_gives_each_its_record(shape: Shape, seed: int, newline: str) -> None:
    rng = random.Random(seed)
    grids = [random_grid(shape, rng) for _ in range(rng.randint(1, 5))]
    lines = []
    for grid in grids:
        lines += rng.choice([[], [""], ["# a comment"], ["", "#", "  "]])
        lines.append(one_line_form(grid, rng))
    text = rng.choice(["", "\ufeff"]) + newline.join(lines) + rng.choice(["", newline])
    assert [record.parse(shape) for record in records_of(text)] == grids


@FUZZ
@given(shape=st.sampled_from(SHAPES), seed=st.integers(0, 2**32 - 1), alien=st.sampled_from(ALIEN_DIGITS))
def test_a_non_ascii_digit_is_a_bad_character_at_its_cell(shape: Shape, seed: int, alien: str) -> None:
    rng = random.Random(seed)
    line = list(random_grid(shape, rng).to_line())
    i = rng.randrange(len(line))
    line[i] = alien
    with pytest.raises(BadCharacterError) as caught:
        Grid.parse("".join(line), shape)
    one_line(caught.value)
    assert (caught.value.row, caught.value.column) == (i // shape.n + 1, i % shape.n + 1)
    assert repr(alien) in str(caught.value) or alien in str(caught.value)


def test_rows_grouped_by_spaces_are_one_puzzle_a_line() -> None:
    """``000000010 400000000 ...`` is a board in row groups, not a row of nine integers (once glued 9 lines)."""
    lines = [" ".join(p[k : k + 9] for k in range(0, 81, 9)) for p in puzzles("17clue.txt")[:3]]
    lines.append("1200 3400 0000 0000")
    grids = check_records("\n".join(lines) + "\n")
    assert grids == [Grid.parse(line) for line in lines]


def test_an_unclosed_bracket_ends_at_the_next_puzzle_line() -> None:
    """A JSON board never closed is one bad record; it does not take the puzzles after it."""
    good = puzzles("easy50.txt")[:3]
    text = "\n".join(["[[1, 2,", *good, "[", "[", f"{good[0]}:note", "[" * 3000, "\x00" * 81]) + "\n"
    records = records_of(text)
    assert [r.line for r in records] == [1, 2, 3, 4, 5, 7, 8, 9]
    grids = check_records(text)
    assert grids == [None, *map(Grid.parse, good), None, Grid.parse(good[0]), None, None]


@pytest.mark.parametrize("length", [MAX_LINE - 1, MAX_LINE + 1, 300 * 300, 5 * MAX_LINE])
@pytest.mark.parametrize("symbol", ["1", ".", "x"])
def test_very_long_lines(length: int, symbol: str) -> None:
    text = symbol * length
    assert parse_or_one_line(text) is None
    [record] = records_of(text + "\n")
    with pytest.raises(InvalidPuzzleError) as caught:
        record.parse()
    message = one_line(caught.value)
    assert len(message) < 200
    if length > MAX_LINE:
        assert record.problem and "line 1" in message


# --- round trips -------------------------------------------------------------------------------------


@FUZZ
@given(shape=st.sampled_from(SHAPES), seed=st.integers(0, 2**32 - 1))
def test_every_printed_form_parses_back(shape: Shape, seed: int) -> None:
    rng = random.Random(seed)
    solution = solved_grid(shape, rng)
    assert is_solution(Grid.empty(shape), solution)
    grid = blanked(solution, rng, rng.randint(0, shape.size))
    texts = {
        "line": grid.to_line(),
        "pretty": grid.to_pretty(),
        "color": solution.to_pretty(givens=grid, color=True),
        "json": grid.to_json(),
    }
    assert "\x1b[" in texts["color"] or grid == solution
    for name, text in texts.items():
        expected = solution if name == "color" else grid
        assert Grid.parse(text, box=shape) == expected, name
        if 1 not in (shape.box_rows, shape.box_cols) and shape == Shape.for_side(shape.n):  # the side decides
            assert Grid.parse(text) == expected, name
        # Read back from a file, too (the pretty forms span several lines).
        [record] = records_of(text + "\n")
        assert record.parse(shape) == expected, name
    assert eval(repr(grid), {"Grid": Grid}) == grid


# --- the command line ----------------------------------------------------------------------------------


@contextlib.contextmanager
def in_empty_dir() -> Iterator[None]:
    """Run in an empty scratch directory: a fuzzed argument must not name a file of the project."""
    with tempfile.TemporaryDirectory() as scratch, contextlib.chdir(scratch):
        yield


def invoke(args: list[str], input: str | bytes | None = None):  # type: ignore[no-untyped-def]
    """``sudoku ARGS`` in this process: no traceback, and no exception other than the exit."""
    result = cli_runner().invoke(app, args, input=input, env={"NO_COLOR": "1", "FORCE_COLOR": None})
    assert "Traceback" not in result.stdout + result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def error_lines(stderr: str) -> list[str]:
    """The lines of stderr that are not the batch summary; each must be a ``sudoku: error:`` line."""
    lines = [line for line in stderr.splitlines() if not SUMMARY.match(line)]
    for line in lines:
        assert line.startswith("sudoku: error: "), stderr
    return lines


def check_batch(result, *, empty: bool) -> None:  # type: ignore[no-untyped-def]
    """A ``solve -f json`` run: one JSON record a line, one error line per failed record, the right exit."""
    if empty:
        assert result.exit_code == 2
        assert error_lines(result.stderr) == ["sudoku: error: no puzzles in the input"]
        return
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert records, result.stderr
    failed = [r for r in records if r["status"] in ("invalid", "error")]
    assert len(error_lines(result.stderr)) == len(failed)
    for r in failed:
        assert r["error"] and "\n" not in r["error"]
    statuses = {r["status"] for r in records}
    expected = 2 if failed else 1 if statuses & {"unsolvable", "timeout"} else 0
    assert result.exit_code == expected, (statuses, result.stderr)


fuzz_lines = st.lists(
    st.one_of(
        tricky_text.filter(lambda t: "\n" not in t and "\r" not in t),
        st.sampled_from([*puzzles("easy50.txt")[:5], "", "# a comment", "1234" * 4, "[[1,2],[3,4]]"]),
    ),
    max_size=8,
)


@settings(database=None, max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=fuzz_lines, crlf=st.booleans(), bom=st.booleans())
def test_solve_a_fuzzed_file_never_shows_a_traceback(lines: list[str], crlf: bool, bom: bool) -> None:
    text = ("\ufeff" if bom else "") + ("\r\n" if crlf else "\n").join(lines)
    with in_empty_dir():
        Path("fuzz.txt").write_bytes(text.encode("utf-8", "surrogateescape"))
        result = invoke(["solve", "fuzz.txt", "-f", "json", "--jobs", "1", "-t", "2"])
    check_batch(result, empty=not records_of(text))


@settings(database=None, max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=300))
def test_solve_fuzzed_standard_input_never_shows_a_traceback(data: bytes) -> None:
    result = invoke(["solve", "-", "-f", "json", "-t", "2"], input=data)
    check_batch(result, empty=not records_of(data.decode("utf-8", "surrogateescape")))


@settings(database=None, max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(tricky_text, st.text(max_size=100)).filter(lambda t: not t.startswith("-") and t.strip()))
@example(text="/\x0c")  # a path with a line break in it: the error still takes one line
@example(text="no/such\nfile.txt")
def test_solve_a_fuzzed_argument_never_shows_a_traceback(text: str) -> None:
    with in_empty_dir():
        result = invoke(["solve", "-f", "json", "-t", "2", text])
    assert result.exit_code in (0, 1, 2)
    if result.exit_code == 2:
        assert len(error_lines(result.stderr)) >= 1
        for line in result.stdout.splitlines():
            assert json.loads(line)["status"] in ("invalid", "error")


@pytest.mark.parametrize("content", ["", "\ufeff", "\n\n", "\r\n", "# only a comment\n\n# another\n"])
def test_an_empty_file_is_no_puzzles(tmp_path: Path, content: str) -> None:
    path = tmp_path / "empty.txt"
    path.write_text(content, encoding="utf-8", newline="")
    for fmt in ("pretty", "json"):
        result = invoke(["solve", str(path), "-f", fmt])
        assert result.exit_code == 2 and result.stdout == ""
        assert error_lines(result.stderr) == ["sudoku: error: no puzzles in the input"]


def test_empty_standard_input_is_no_puzzles() -> None:
    result = invoke(["solve", "-"], input="")
    assert result.exit_code == 2
    assert error_lines(result.stderr) == ["sudoku: error: no puzzles in the input"]


# --- real processes ----------------------------------------------------------------------------------


def sudoku_process(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "PYTHONWARNINGS")}
    return subprocess.run(
        [sys.executable, "-m", "sudokit", *args],
        input=stdin,
        capture_output=True,
        timeout=60,
        env={**env, "NO_COLOR": "1"},
    )


def hostile_file_lines() -> Iterator[bytes]:
    """One bad puzzle a line, each bad in a different way, and one good puzzle."""
    good = puzzles("easy50.txt")[0]
    yield good.encode()
    yield b"\xff\xfe" + good[2:].encode()  # undecodable bytes
    yield "\uff15".encode() + good[1:].encode()  # a fullwidth digit 5
    yield "\u0663".encode() + good[1:].encode()  # an Arabic-Indic digit 3
    yield good[:-1].encode()  # a cell short
    yield b"1" * (2 * MAX_LINE)  # far too long
    yield b"[" * 3000  # JSON nested deep
    yield b"\x00" * 81


@pytest.mark.parametrize("fmt", ["line", "csv", "json", "pretty"])
def test_hostile_file_in_a_real_process(tmp_path: Path, fmt: str) -> None:
    lines = list(hostile_file_lines())
    path = tmp_path / "hostile.txt"
    path.write_bytes(b"\xef\xbb\xbf" + b"\r\n".join(lines) + b"\r\n")
    proc = sudoku_process("solve", str(path), "-f", fmt)
    out, err = proc.stdout.decode("utf-8", "surrogateescape"), proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in out + err
    assert proc.returncode == 2, err
    errors = error_lines(err)
    assert len(errors) == len(lines) - 1
    for number, line in enumerate(errors, 2):
        assert f"hostile.txt:{number}:" in line
    if fmt == "line":
        answers = [line.rpartition(":")[2] for line in out.splitlines()]
        assert answers[1:] == ["invalid"] * (len(lines) - 1)
        assert is_solution(Grid.parse(lines[0].decode()), Grid.parse(answers[0]))
        assert out.splitlines()[1].encode("utf-8", "surrogateescape").startswith(b"\xff\xfe")  # written as read


@pytest.mark.parametrize("stdin", [b"", b"\xef\xbb\xbf", b"\xff\xfe\r\n", b"1234\t4321\r\n"])
def test_standard_input_in_a_real_process(stdin: bytes) -> None:
    proc = sudoku_process("solve", "-", stdin=stdin)
    err = proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err + proc.stdout.decode("utf-8", "replace")
    assert proc.returncode == 2
    errors = error_lines(err)
    assert len(errors) == 1
    if stdin.strip(b"\xef\xbb\xbf\r\n") == b"":
        assert errors == ["sudoku: error: no puzzles in the input"]


# --- hostile variant payloads: links, JSON, box shapes ----------------------------------------------------

#: A number far longer than any puzzle's: ``int()`` refuses it past 4,300 digits and is slow well before.
HUGE = "9" * 5000
SCL_REGIONS = [[[r // 2 * 2 + i // 2, r % 2 * 2 + i % 2] for i in range(4)] for r in range(4)]


def fpuzzles_payload(given: object = None, **keys: object) -> dict[str, object]:
    """A 4x4 f-puzzles puzzle with ``keys``; r1c1 a given of ``given`` when one is named."""
    grid: list[list[dict[str, object]]] = [[{} for _ in range(4)] for _ in range(4)]
    if given is not None:
        grid[0][0] = {"value": given, "given": True}
    return {"size": 4, "grid": grid, **keys}


def sudokupad_payload(given: object = None, **keys: object) -> dict[str, object]:
    """A 4x4 puzzle in SudokuPad's own format with ``keys``; r1c1 holds ``given`` when one is named."""
    cells: list[list[dict[str, object]]] = [[{} for _ in range(4)] for _ in range(4)]
    if given is not None:
        cells[0][0] = {"value": given}
    return {"cells": cells, "regions": SCL_REGIONS, **keys}


def link_of(payload: dict[str, object], *, sudokupad: bool = False) -> str:
    """The payload's link: ``@HUGE@`` in its JSON becomes a bare number of 5,000 digits."""
    text = json.dumps(payload, separators=(",", ":")).replace('"@HUGE@"', HUGE)
    start = "https://sudokupad.app/scl" if sudokupad else "https://www.f-puzzles.com/?load="
    return start + compress_to_base64(text)


PAIR = ["R1C1", "R1C2"]
#: f-puzzles payloads that each ended in a traceback (one killed the whole batch), by what is wrong.
HOSTILE_FPUZZLES = {
    "given ²": fpuzzles_payload("²"),
    "given of 5,000 digits": fpuzzles_payload(HUGE),
    "given a bare number of 5,000 digits": fpuzzles_payload("@HUGE@"),
    "total ²": fpuzzles_payload(killercage=[{"cells": PAIR, "value": "²"}]),
    "total of 5,000 digits": fpuzzles_payload(killercage=[{"cells": PAIR, "value": HUGE}]),
    "sandwich of 5,000 digits": fpuzzles_payload(sandwichsum=[{"cell": "R0C1", "value": HUGE}]),
    "whisper difference ²": fpuzzles_payload(whispers=[{"lines": [PAIR], "value": "²"}]),
    "cell of 5,000 digits": fpuzzles_payload(killercage=[{"cells": [f"R{HUGE}C1"], "value": "3"}]),
    "lines 5": fpuzzles_payload(thermometer=[{"lines": 5}]),
    "drawn cage lines 5": fpuzzles_payload(cage=[{"lines": 5}]),
    "drawn line of a number": fpuzzles_payload(line=[{"lines": [5]}]),
    "direction a list": fpuzzles_payload(littlekillersum=[{"cell": "R0C0", "direction": ["DR"], "value": "5"}]),
    "drawn line with a cell name of 5,000 characters": fpuzzles_payload(line=[{"lines": [["x" * 5000, "R1C1"]]}]),
}
#: SudokuPad payloads likewise.
HOSTILE_SUDOKUPAD = {
    "lines not a list": sudokupad_payload(lines=5),
    "global not a list": sudokupad_payload(**{"global": 5}),
    "global rule a list": sudokupad_payload(**{"global": [["antiknight"]]}),
    "cages not a list": sudokupad_payload(cages=5),
    "regions not a list": sudokupad_payload(regions=5),
    "a region not a list": sudokupad_payload(regions=[5, 5, 5, 5]),
    "cage cells not a list": sudokupad_payload(cages=[{"cells": 5, "unique": True}]),
    "given ²": sudokupad_payload("²"),
    "total of 5,000 digits": sudokupad_payload(cages=[{"cells": [[0, 0], [0, 1]], "unique": True, "sum": HUGE}]),
}
EMPTY_4X4 = '"givens": "' + "." * 16 + '"'
#: sudokit's own JSON likewise (the last nested past the JSON parser's recursion).
HOSTILE_JSON = {
    "total over 4,300 digits": "{"
    + EMPTY_4X4
    + ', "constraints": [{"kind": "killer", "cells": ["r1c1"], "total": '
    + "9" * 4400
    + "}]}",
    "cell of 5,000 digits": "{" + EMPTY_4X4 + ', "constraints": [{"kind": "killer", "cells": ["r' + HUGE + 'c1"]}]}',
    "box of 5,000 digits": '{"box": "1' + "0" * 5000 + 'x1", ' + EMPTY_4X4 + "}",
    "box ²": '{"box": "²x2", ' + EMPTY_4X4 + "}",
    "regions 5": "{" + EMPTY_4X4 + ', "regions": 5}',
    "nested 30,000 deep": "{" + EMPTY_4X4 + ', "regions": ' + "[" * 30_000 + "]" * 30_000 + "}",
    "objects nested 30,000 deep": '{"a": ' * 30_000 + "1" + "}" * 30_000,
}
HOSTILE = (
    [pytest.param(link_of(p), id=f"f-puzzles {k}") for k, p in HOSTILE_FPUZZLES.items()]
    + [pytest.param(link_of(p, sudokupad=True), id=f"SudokuPad {k}") for k, p in HOSTILE_SUDOKUPAD.items()]
    + [pytest.param(text, id=f"json {k}") for k, text in HOSTILE_JSON.items()]
    + [pytest.param("https://www.f-puzzles.com/?id=" + "a" * 5000, id="f-puzzles short id of 5,000 characters")]
)


@pytest.mark.parametrize("text", HOSTILE)
def test_a_hostile_variant_payload_is_one_short_line_naming_it(text: str) -> None:
    with pytest.raises(InvalidPuzzleError) as caught:
        Grid.parse(text)
    assert len(one_line(caught.value)) < 300, str(caught.value)  # however long what it quotes


@pytest.mark.parametrize("box", ["1" + "0" * 5000 + "x1", "²x3", "3x" + "9" * 5000, "x" * 100_000])
def test_a_hostile_box_shape_is_one_short_line(box: str) -> None:
    with pytest.raises(InvalidPuzzleError) as caught:
        Shape.parse(box)
    assert len(one_line(caught.value)) < 200
    result = invoke(["solve", "--box", box, "." * 81])
    assert result.exit_code == 2 and len(error_lines(result.stderr)) == 1


def test_a_batch_of_hostile_payloads_keeps_every_record_in_order(tmp_path: Path) -> None:
    """Each hostile line is one invalid record between good puzzles: none ends the batch or takes another."""
    good = puzzles("easy50.txt")
    hostile = [p.values[0] for p in HOSTILE]
    lines = [good[0]]
    for k, text in enumerate(hostile, 1):
        lines += [text, good[k]]
    path = tmp_path / "hostile.txt"
    path.write_text("\n".join(lines) + "\n")
    proc = sudoku_process("solve", str(path), "-f", "json", "-j", "1")
    err = proc.stderr.decode()
    assert "Traceback" not in err, err[-3000:]
    assert proc.returncode == 2
    records = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert [(r["line"], r["status"]) for r in records] == [
        (k, "solved" if k % 2 else "invalid") for k in range(1, len(lines) + 1)
    ]
    errors = error_lines(err)
    assert [int(e.removeprefix(f"sudoku: error: {path}:").split(":")[0]) for e in errors] == list(
        range(2, len(lines), 2)
    )
    assert all(len(e) < len(str(path)) + 350 for e in errors), max(errors, key=len)


#: What a hostile payload puts in place of a value: look-alike and overlong numbers, wrong types, deep nesting.
HOSTILE_VALUES: list[object] = [
    "²", "\u0663", "@HUGE@", HUGE, "R" + HUGE + "C1", "r1c" + HUGE, -1, 0, 5, 1.5, 1e308, True, None, "",
    [], {}, [5], [[["x"]]], {"a": [1]}, ["DR"], "@DEEP@", "1" + "0" * 400 + "x1", "R0C0", [[0, 0], [99, 99]],
]  # fmt: skip
#: Keys a hostile payload may add: every rule key f-puzzles and SudokuPad data and sudokit's JSON read.
HOSTILE_KEYS = [
    "killercage", "littlekillersum", "sandwichsum", "thermometer", "arrow", "difference", "ratio", "xv",
    "renban", "whispers", "slowthermometer", "extraregion", "odd", "even", "palindrome", "negative",
    "betweenline", "regionsumline", "entropicline", "modularline", "zipperline", "lockout", "nabner", "doublearrow",
    "xsum", "skyscraper", "rowindexer", "columnindexer", "boxindexer",
    "nonconsecutive", "cage", "line", "circle", "lines", "global", "cages", "regions", "box", "constraints",
    "quadruple", "values", "digits", "givenPencilMarks", "minimum", "maximum", "extreme",
    "disjointgroups", "clone", "cloneCells", "rectangle", "successMessage",
]  # fmt: skip


def mutated(value: object, rng: random.Random) -> object:
    """``value`` with one place in it (an object's value, a list's item, or itself) made hostile."""
    if isinstance(value, dict) and value and rng.random() < 0.85:
        key = rng.choice([*value, rng.choice(HOSTILE_KEYS)])
        return {**value, key: mutated(value.get(key), rng)}
    if isinstance(value, list) and value and rng.random() < 0.85:
        i = rng.randrange(len(value))
        return [*value[:i], mutated(value[i], rng), *value[i + 1 :]]
    return rng.choice(HOSTILE_VALUES)


def hostile_text(payload: object) -> str:
    """The payload's JSON, ``@HUGE@`` a bare number of 5,000 digits and ``@DEEP@`` arrays 5,000 deep."""
    text = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
    return text.replace('"@HUGE@"', HUGE).replace('"@DEEP@"', "[" * 5000 + "]" * 5000)


def generated_hostile_lines(count: int, seed: int) -> list[str]:
    """``count`` hostile lines: mutated real f-puzzles links, SudokuPad puzzles and sudokit JSON, and bombs."""
    from tests.test_lzstring import lz_bomb

    rng = random.Random(seed)
    links = (ROOT / "puzzles/variants/links.txt").read_text().splitlines()
    data = [link.removeprefix(FPUZZLES_URL) for link in links if link.startswith(FPUZZLES_URL)]
    fpuzzles = [json.loads(decompress_from_base64(d)) for d in data[:8]]
    corpus = [json.loads(t) for t in (ROOT / "puzzles/variants/corpus.txt").read_text().splitlines() if t[:1] == "{"]
    sudokupad = [sudokupad_payload(2, cages=[{"cells": [[0, 0], [0, 1]], "unique": True, "sum": 3}])]
    sudokupad.append(sudokupad_payload(**{"global": ["antiknight"]}))
    lines = []
    for k in range(count):
        kind = k % 4
        if kind == 0:
            lines.append(FPUZZLES_URL + compress_to_base64(hostile_text(mutated(rng.choice(fpuzzles), rng))))
        elif kind == 1:
            payload = hostile_text(mutated(rng.choice(sudokupad), rng))
            lines.append("https://sudokupad.app/scl" + compress_to_base64(payload))
        elif kind == 2:
            lines.append(hostile_text(mutated(rng.choice(corpus), rng)))
        else:  # a bomb: a few thousand characters of data standing for millions (the last one, for 400 million)
            data = lz_bomb(28_000 if k == count - 1 else rng.randrange(3_000, 8_000))
            lines.append(
                rng.choice([FPUZZLES_URL, "https://sudokupad.app/scl", "https://sudokupad.app/fpuzzles"]) + data
            )
    return lines


def capped_memory() -> None:
    """In a child before it runs: 1 GB of address space, 60 s of CPU."""
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    resource.setrlimit(resource.RLIMIT_CPU, (60, 60))


def test_generated_hostile_links_and_json_in_bounded_memory_and_cpu_time(tmp_path: Path) -> None:
    """Some 100 hostile links and JSON lines through the real CLI, its memory capped at 1 GB (a 60 KB bomb once
    took a gigabyte and 40 s): a record each, in order, one short error line for each that fails, exit 2, no
    traceback, and in all a few seconds of CPU time (measured as CPU time of the process and its workers)."""
    lines = generated_hostile_lines(100, seed=21)
    path = tmp_path / "hostile.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(
        [sys.executable, "-m", "sudokit", "solve", str(path), "-f", "json", "-j", "1", "-t", "0.5"],
        capture_output=True,
        timeout=300,
        preexec_fn=capped_memory,
        env={**os.environ, "NO_COLOR": "1"},
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    err = proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err and "MemoryError" not in err, err[-3000:]
    assert proc.returncode == 2, err[-3000:]
    records = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert [r["line"] for r in records] == list(range(1, len(lines) + 1))
    failed = [r for r in records if r["status"] in ("invalid", "error")]
    assert len(failed) >= len(lines) // 4  # the bombs at least
    errors = error_lines(err)
    assert len(errors) == len(failed)
    assert all(len(e) < len(str(path)) + 400 for e in errors), max(errors, key=len)
    assert cpu < 15, f"{cpu:.1f} s of CPU for {len(lines)} lines"  # some 1 s, where the 60 KB bomb alone took 8


def test_a_bomb_as_an_argument_is_one_line_in_bounded_memory() -> None:
    """A 120 KB link standing for 1.3 billion characters, given as the argument (once a MemoryError traceback)."""
    from tests.test_lzstring import lz_bomb

    link = FPUZZLES_URL + lz_bomb(52_000)
    assert 100_000 < len(link) < 130_000  # under the 128 KB an argument may have
    proc = subprocess.run(
        [sys.executable, "-m", "sudokit", "solve", "-f", "line", link],
        capture_output=True,
        timeout=120,
        preexec_fn=capped_memory,
        env={**os.environ, "NO_COLOR": "1"},
    )
    err = proc.stderr.decode()
    assert proc.returncode == 2, err[-2000:]
    [line] = error_lines(err)
    assert f"expands past {MAX_EXPANSION:,} characters" in line
