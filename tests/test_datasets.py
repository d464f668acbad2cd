"""Data sets as tables: CSV and Parquet in and out, the puzzle column chosen, answers compared with a column.

What users rely on: the common layouts (``quizzes,solutions``; ``id,puzzle,solution,...``;
``source,question,answer,rating``) work without options; ``--column`` picks another; every row
gives one record, a bad row an ``invalid`` one naming ``file:line`` and the column; each answer is
compared with the expected-solution column and a record that differs (or, with ``--unique``, has
several solutions) is reported and makes the exit status 1; Parquet goes in and out with the same
columns; nothing silently ignored, every refusal one line and exit 2.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sudokit import solve
from tests.conftest import counted, puzzles, refused, sudoku
from tests.timing import tree_cpu

pq = pytest.importorskip("pyarrow.parquet")
import pyarrow as pa  # noqa: E402

UNIQUE = [p for p, n in counted() if n == 1][:4]
SEVERAL = [p for p, n in counted() if n >= 2][:1]


def is_solution(puzzle: str, grid: str) -> bool:
    """True when the 81 digits of ``grid`` fill ``puzzle`` by the rules (checked here, sharing nothing with sudokit)."""
    if len(grid) != 81 or not grid.isdigit() or "0" in grid:
        return False
    if any(p not in ".0" and p != g for p, g in zip(puzzle, grid, strict=True)):
        return False
    units = [[r * 9 + c for c in range(9)] for r in range(9)] + [[r * 9 + c for r in range(9)] for c in range(9)]
    units += [[(br + r) * 9 + bc + c for r in range(3) for c in range(3)] for br in (0, 3, 6) for bc in (0, 3, 6)]
    return all(len({grid[i] for i in unit}) == 9 for unit in units)


def solution(puzzle: str) -> str:
    """The solution of a puzzle with one solution (counts.txt says so), checked by :func:`is_solution`."""
    found = solve(puzzle).solution
    assert found is not None
    line = found.to_line()
    assert is_solution(puzzle, line)
    return line


def relabel(grid: str) -> str:
    """Another valid grid (digits 1 and 2 swapped): a wrong expected solution that is still a Sudoku grid."""
    return grid.translate(str.maketrans("12", "21"))


def write_csv(path: Path, header: list[str], rows: list[list[str]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)
    return path


def records(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


@pytest.fixture(scope="module")
def solved() -> list[tuple[str, str]]:
    return [(p, solution(p)) for p in UNIQUE]


# --- the common layouts, without options --------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "puzzle_at", "solution_at"),
    [
        (["quizzes", "solutions"], 0, 1),
        (["id", "puzzle", "solution", "clues", "difficulty"], 1, 2),
        (["source", "question", "answer", "rating"], 1, 2),
    ],
    ids=["kaggle-1m", "kaggle-3m", "sudoku-extreme"],
)
def test_known_layouts_read_the_puzzle_and_compare_the_solution_column(
    tmp_path: Path, solved: list[tuple[str, str]], header: list[str], puzzle_at: int, solution_at: int
) -> None:
    rows = []
    for k, (puzzle, answer) in enumerate(solved):
        row = [f"x{k}"] * len(header)
        row[puzzle_at], row[solution_at] = puzzle, answer
        rows.append(row)
    path = write_csv(tmp_path / "set.csv", header, rows)
    result = sudoku("solve", str(path), "-f", "csv", "-j", "1")
    assert result.exit_code == 0, result.stderr
    out = records(result.stdout)
    assert [r["puzzle"] for r in out] == [p for p, _ in solved]
    assert [r["solution"] for r in out] == [s for _, s in solved]
    assert [r["expected"] for r in out] == ["same"] * len(solved)
    assert [int(r["line"]) for r in out] == list(range(2, 2 + len(solved)))
    assert {r["source"] for r in out} == {str(path)}
    assert f"expected solutions: {len(solved)} same, 0 differ" in result.stderr


def test_a_wrong_expected_solution_is_reported_in_every_form_and_exits_1(
    tmp_path: Path, solved: list[tuple[str, str]]
) -> None:
    rows = [[p, s] for p, s in solved]
    rows[1][1] = relabel(rows[1][1])
    path = write_csv(tmp_path / "set.csv", ["quizzes", "solutions"], rows)
    line = sudoku("solve", str(path), "-f", "line", "-j", "1")
    assert line.exit_code == 1
    assert [x.rsplit(":", 1)[1] for x in line.stdout.splitlines()] == ["same", "differs", "same", "same"]
    assert f"sudoku: differs: {path}:3: the solution found is not the one in column solutions" in line.stderr
    assert "expected solutions: 3 same, 1 differ" in line.stderr
    as_json = sudoku("solve", str(path), "-f", "json", "-j", "1", "-q")
    assert as_json.exit_code == 1
    assert [json.loads(x)["expected"] for x in as_json.stdout.splitlines()] == ["same", "differs", "same", "same"]
    pretty = sudoku("solve", str(path), "-j", "1", "-q")
    assert pretty.exit_code == 1
    assert pretty.stdout.count("expected: same") == 3 and pretty.stdout.count("expected: differs") == 1


def test_unique_reports_a_puzzle_with_several_solutions(tmp_path: Path, solved: list[tuple[str, str]]) -> None:
    several = SEVERAL[0]
    one_of_them = solve(several).solution.to_line()  # type: ignore[union-attr]
    assert is_solution(several, one_of_them)
    path = write_csv(tmp_path / "set.csv", ["puzzle", "solution"], [list(solved[0]), [several, one_of_them]])
    plain = sudoku("solve", str(path), "-f", "csv", "-j", "1", "-q")  # the one solution found is the one expected
    assert plain.exit_code == 0
    result = sudoku("solve", str(path), "-f", "csv", "--unique", "-j", "1")
    assert result.exit_code == 1
    out = records(result.stdout)
    assert [(r["uniqueness"], r["expected"]) for r in out] == [("unique", "same"), ("several", "several")]
    assert f"{path}:3: the puzzle has several solutions" in result.stderr
    assert "1 several" in result.stderr


def test_expect_none_compares_nothing(tmp_path: Path, solved: list[tuple[str, str]]) -> None:
    path = write_csv(tmp_path / "set.csv", ["quizzes", "solutions"], [[p, relabel(s)] for p, s in solved])
    result = sudoku("solve", str(path), "-f", "csv", "--expect", "none", "-j", "1")
    assert result.exit_code == 0
    assert "expected" not in result.stdout.splitlines()[0]
    assert "expected solutions" not in result.stderr


def test_column_and_expect_pick_any_columns(tmp_path: Path, solved: list[tuple[str, str]]) -> None:
    rows = [[s, p, "note"] for p, s in solved]
    path = write_csv(tmp_path / "set.csv", ["grid_out", "grid_in", "comment"], rows)
    refused(sudoku("solve", str(path)), str(path), "no puzzle column", "'grid_in'", "--column")
    result = sudoku("solve", str(path), "--column", "grid_in", "--expect", "grid_out", "-f", "line", "-j", "1")
    assert result.exit_code == 0, result.stderr
    assert [x.split(":") for x in result.stdout.splitlines()] == [[p, s, "same"] for p, s in solved]
    checked = sudoku("check", str(path), "--column", "grid_in", "-s", "backtrack", "-f", "line", "-j", "1", "-q")
    assert checked.exit_code == 0, checked.stderr
    assert [x.split(":")[0] for x in checked.stdout.splitlines()] == [p for p, _ in solved]


def test_bad_rows_are_invalid_records_naming_file_line_and_column(
    tmp_path: Path, solved: list[tuple[str, str]]
) -> None:
    (p1, s1), (p2, s2) = solved[:2]
    text = f'quizzes,solutions\n{p1},{s1}\n\n"{p2[:40]}\n{p2[40:]}",{s2}\n'
    text += f"not-a-puzzle,{s1}\nonly-one-field\n{p1},{s1}\n"
    path = tmp_path / "set.csv"
    path.write_text(text)
    result = sudoku("solve", str(path), "-f", "csv", "-j", "1")
    assert result.exit_code == 2
    out = records(result.stdout)
    assert [(r["line"], r["status"]) for r in out] == [
        ("2", "solved"),
        ("4", "solved"),  # the quoted puzzle cell spans lines 4 and 5: the row is numbered by its first
        ("6", "invalid"),
        ("7", "invalid"),
        ("8", "solved"),
    ]
    assert f"sudoku: error: {path}:6, column quizzes: " in result.stderr
    assert f"sudoku: error: {path}:7, column quizzes: 1 field where the header has 2" in result.stderr
    assert [r["puzzle"] for r in out[2:4]] == ["not-a-puzzle", "only-one-field"]  # shown as read, not lost
    assert "expected solutions: 3 same, 0 differ" in result.stderr


@pytest.mark.parametrize("closes", [False, True], ids=["never-closed", "closed-lines-later"])
def test_a_quote_left_open_costs_its_own_line_only(tmp_path: Path, solved: list[tuple[str, str]], closes: bool) -> None:
    """A stray quote once swallowed every row after it into one invalid record: now its line alone is invalid,
    saying where the quote opens, and each line after it is a record of its own, as a user counts rows."""
    (p1, s1), (p2, s2), (p3, s3) = solved[:3]
    if closes:  # it closes two lines on, leaving a row of three fields: still the quote's fault
        text, column, last = f'quizzes,solutions\n{p1},"{s1}\n{p2},{s2}\n{p3}",{s3}\n', len(p1) + 2, "invalid"  # p3"
    else:
        text, column, last = f'quizzes,solutions\n"{p1},{s1}\n{p2},{s2}\n{p3},{s3}\n', 1, "solved"
    path = tmp_path / "set.csv"
    path.write_text(text)
    result = sudoku("solve", str(path), "-f", "csv", "-j", "1")
    assert result.exit_code == 2
    out = records(result.stdout)
    assert [r["line"] for r in out] == ["2", "3", "4"]
    assert [r["status"] for r in out] == ["invalid", "solved", last]
    assert out[1]["expected"] == "same"
    message = f"{path}:2, column quizzes: not a CSV row: the quote at column {column} does not close on its line"
    assert f"sudoku: error: {message}\n" in result.stderr


def test_refusals_are_one_line_usage_errors(tmp_path: Path, solved: list[tuple[str, str]]) -> None:
    path = write_csv(tmp_path / "set.csv", ["id", "puzzle", "solution"], [["1", *solved[0]]])
    text = tmp_path / "set.txt"
    text.write_text(solved[0][0] + "\n")
    refused(sudoku("solve", str(path), "--column", "quiz"), "no column 'quiz'", "'id', 'puzzle', 'solution'")
    refused(sudoku("solve", str(path), "--expect", "answer"), "no column 'answer'", "'id', 'puzzle', 'solution'")
    refused(sudoku("solve", str(text), "--expect", "solution"), "--expect", ".csv or .parquet")
    refused(sudoku("solve", str(text), "--column", "puzzle"), "--column", ".csv or .parquet")
    refused(sudoku("solve", str(path), str(text), "--expect", "solution"), f"{text} is not one")
    refused(sudoku("solve", str(path), "-s", "all", "--expect", "solution"), "cross-check")
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    refused(sudoku("solve", str(empty)), f"{empty} is empty", "header")


def test_gzipped_csv_is_read(tmp_path: Path, solved: list[tuple[str, str]]) -> None:
    path = tmp_path / "set.csv.gz"
    with gzip.open(path, "wt", newline="") as handle:
        handle.write("quizzes,solutions\n" + "".join(f"{p},{s}\n" for p, s in solved))
    result = sudoku("solve", str(path), "-f", "line", "-j", "1", "-q")
    assert result.exit_code == 0
    assert [x.split(":")[2] for x in result.stdout.splitlines()] == ["same"] * len(solved)


def test_csv_output_resumes_after_a_torn_record(tmp_path: Path, solved: list[tuple[str, str]]) -> None:
    path = write_csv(tmp_path / "set.csv", ["quizzes", "solutions"], [[p, s] for p, s in solved])
    whole, torn = tmp_path / "whole.csv", tmp_path / "torn.csv"
    assert sudoku("solve", str(path), "-f", "csv", "-j", "1", "-O", str(whole), "-q").exit_code == 0
    lines = whole.read_text().splitlines(keepends=True)
    torn.write_text("".join(lines[:3]) + lines[3][:50])
    result = sudoku("solve", str(path), "-f", "csv", "-j", "1", "-O", str(torn), "--resume")
    assert result.exit_code == 0, result.stderr
    assert "resumed after 2 already written" in result.stderr

    def without_time(p: Path) -> list[dict[str, str]]:
        return [{k: v for k, v in r.items() if k != "elapsed_ms"} for r in records(p.read_text())]

    assert without_time(torn) == without_time(whole)


# --- Parquet --------------------------------------------------------------------------------------


def test_parquet_in_by_row_groups_and_out_with_the_csv_columns(tmp_path: Path, solved: list[tuple[str, str]]) -> None:
    rows = [*solved, ("12", solved[0][1])]  # a bad puzzle: an invalid record, not lost
    table = pa.table({"question": [p for p, _ in rows], "answer": [s for _, s in rows], "rating": [1, 2, 3, 4, 5]})
    source = tmp_path / "set.parquet"
    pq.write_table(table, source, row_group_size=2)
    assert pq.ParquetFile(source).num_row_groups == 3
    as_csv = sudoku("solve", str(source), "-f", "csv", "-j", "1", "-q")
    assert as_csv.exit_code == 2
    out = tmp_path / "out.parquet"
    result = sudoku("solve", str(source), "-f", "csv", "-j", "1", "-O", str(out))
    assert result.exit_code == 2
    written = pq.read_table(out)
    expected = records(as_csv.stdout)
    assert written.column_names == list(expected[0])
    assert written.schema.field("line").type == pa.int64() and written.schema.field("exact").type == pa.bool_()
    got = written.to_pylist()
    assert [r["line"] for r in got] == [1, 2, 3, 4, 5]  # a Parquet record's line is its row number
    assert [r["status"] for r in got] == [r["status"] for r in expected] == ["solved"] * 4 + ["invalid"]
    assert [r["solution"] for r in got[:4]] == [s for _, s in solved]
    assert [r["expected"] for r in got] == ["same"] * 4 + [None]
    assert got[4]["error"].startswith("line 5: ")
    assert f"sudoku: error: {source}:5, column question: " in result.stderr


def test_parquet_output_needs_csv_records_and_is_not_resumed(tmp_path: Path, solved: list[tuple[str, str]]) -> None:
    path = write_csv(tmp_path / "set.csv", ["quizzes", "solutions"], [list(solved[0])])
    out = tmp_path / "out.parquet"
    refused(sudoku("solve", str(path), "-O", str(out)), "--format csv")
    refused(sudoku("solve", str(path), "-f", "csv", "-O", str(out), "--resume"), "--resume cannot continue", str(out))
    assert not out.exists()


NO_PYARROW = """
import sys
sys.modules["pyarrow"] = None  # as if not installed: importing it raises ImportError
from sudokit.cli import main
sys.argv = ["sudoku", *sys.argv[1:]]
main()
"""


def test_without_pyarrow_parquet_is_refused_naming_the_extra(tmp_path: Path, solved: list[tuple[str, str]]) -> None:
    source = tmp_path / "set.parquet"
    pq.write_table(pa.table({"puzzle": [solved[0][0]]}), source)
    csv_in = write_csv(tmp_path / "set.csv", ["quizzes", "solutions"], [list(solved[0])])
    for args in ([str(source)], [str(csv_in), "-f", "csv", "-O", str(tmp_path / "out.parquet")]):
        done = subprocess.run(
            [sys.executable, "-c", NO_PYARROW, "solve", *args], capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 2, done.stderr
        [line] = done.stderr.splitlines()
        assert line == "sudoku: error: Parquet files need pyarrow: pip install 'sudokit[parquet]'"
    assert not (tmp_path / "out.parquet").exists()


def test_reading_a_csv_imports_no_pyarrow(tmp_path: Path, solved: list[tuple[str, str]]) -> None:
    path = write_csv(tmp_path / "set.csv", ["quizzes", "solutions"], [list(solved[0])])
    code = (
        "import sys; from sudokit.io.reader import read_arguments; "
        f"r = list(read_arguments([{str(path)!r}])); "
        "print(len(r), r[0].expected is not None, 'pyarrow' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.split() == ["1", "True", "False"]


def test_plain_text_inputs_are_unchanged(tmp_path: Path) -> None:
    text = tmp_path / "set.txt"
    text.write_text("\n".join(puzzles("easy50.txt")[:2]) + "\n")
    result = sudoku("solve", str(text), "-f", "csv", "-j", "1", "-q")
    assert result.exit_code == 0
    assert "expected" not in result.stdout.splitlines()[0]


def test_check_and_rate_refuse_parquet_output(tmp_path: Path, solved: list[tuple[str, str]]) -> None:
    path = write_csv(tmp_path / "set.csv", ["quizzes", "solutions"], [list(solved[0])])
    out = tmp_path / "out.parquet"
    refused(sudoku("check", str(path), "-s", "backtrack", "-O", str(out)), "sudoku solve -f csv")
    refused(sudoku("rate", str(path), "-f", "csv", "-O", str(out)), "sudoku solve -f csv")
    assert not out.exists()


def test_a_killed_run_leaves_a_readable_parquet_file_of_whole_records(tmp_path: Path) -> None:
    source = tmp_path / "set.csv"
    clues = puzzles("17clue.txt")[:20_000]
    write_csv(source, ["puzzle"], [[p] for p in clues])
    out = tmp_path / "out.parquet"
    argv = [sys.executable, "-m", "sudokit", "solve", str(source), "-f", "csv", "-j", "1", "-O", str(out)]
    with subprocess.Popen(argv, stderr=subprocess.PIPE, text=True) as run:
        for _ in range(600):  # the output file is made once the run has started (its SIGTERM handler set)
            if out.exists():
                break
            time.sleep(0.1)
        started, deadline = tree_cpu(run.pid), time.monotonic() + 120
        while tree_cpu(run.pid) - started < 1.0 and run.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)  # 1 s of CPU time into the 20,000 puzzles (some 10 s): wall time is the load's
        run.terminate()
        _, err = run.communicate(timeout=60)
    assert run.returncode == 143, err
    done = int(err.split("interrupted after ")[1].split()[0].replace(",", ""))  # thousands separated: 1,060
    table = pq.read_table(out)
    assert 0 < table.num_rows == done < len(clues)
    assert table.column("puzzle").to_pylist() == [c.replace("0", ".") for c in clues[:done]]
    assert set(table.column("status").to_pylist()) == {"solved"}


def test_progress_estimates_count_table_rows(tmp_path: Path, solved: list[tuple[str, str]]) -> None:
    from sudokit.io.reader import estimate_records

    path = write_csv(tmp_path / "set.csv", ["quizzes", "solutions"], [list(x) for x in solved])
    parquet = tmp_path / "set.parquet"
    pq.write_table(pa.table({"puzzle": [p for p, _ in solved] * 3}), parquet)
    assert estimate_records([path]) == len(solved)
    assert estimate_records([parquet]) == 3 * len(solved)


def test_a_parquet_column_of_number_lists_is_read_as_cells(tmp_path: Path, solved: list[tuple[str, str]]) -> None:
    cells = [[0 if ch == "." else int(ch) for ch in p] for p, _ in solved]
    source = tmp_path / "set.parquet"
    pq.write_table(pa.table({"quizzes": cells, "solutions": [[int(ch) for ch in s] for _, s in solved]}), source)
    result = sudoku("solve", str(source), "-f", "line", "-j", "1", "-q")
    assert result.exit_code == 0, result.stderr
    assert [x.split(":") for x in result.stdout.splitlines()] == [[p, s, "same"] for p, s in solved]


def test_parquet_records_are_written_a_row_group_at_a_time(tmp_path: Path) -> None:
    import os

    from sudokit.io.tables import ParquetStream
    from sudokit.runtime.output import RecordWriter, csv_header, csv_row

    path = tmp_path / "out.parquet"
    stream = ParquetStream(os.open(path, os.O_CREAT | os.O_WRONLY, 0o666), str(path), row_group=2)
    writer = RecordWriter(stream, str(path))  # type: ignore[arg-type]
    writer.write(csv_header(unique=True))
    rows = [[f"p{k}", "solved", f"s{k}", 1, k % 2 == 0, 0.5, "x", "a,b.csv", k, None, "unique"] for k in range(5)]
    sizes = []
    for row in rows:
        writer.write(csv_row(row))
        sizes.append(path.stat().st_size)
    assert 0 < sizes[1] == sizes[2] < sizes[3]  # a row group goes to the file every two records, before the end
    stream.close()
    table = pq.ParquetFile(path)
    assert table.num_row_groups == 3
    names = csv_header(unique=True).split(",")
    assert table.read().to_pylist() == [dict(zip(names, row, strict=True)) for row in rows]
