"""Benchmarking: ``sudoku bench FILE...`` (table, json, plot) and ``benchmark()`` from Python."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from sudokit import get_strategy
from sudokit.features.bench import BenchRow, benchmark
from tests.conftest import sudoku

from .conftest import PUZZLES, counted, puzzles, refused

COLUMNS = ["data", "set", "engine", "puzzles", "solved", "timeouts", "mean", "ms", "median", "p95", "max", "puzzles/s"]
ROW_KEYS = {
    "data_set",
    "strategy",
    "puzzles",
    "solved",
    "unsolvable",
    "timeouts",
    "errors",
    "invalid",
    "mean_ms",
    "median_ms",
    "p95_ms",
    "max_ms",
    "puzzles_per_s",
}
OUTCOMES = ("solved", "unsolvable", "timeouts", "errors", "invalid")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def assert_one_line_error(stderr: str, *parts: str) -> None:
    (line,) = stderr.strip().splitlines()
    assert line.startswith("sudoku: error: ")
    for part in parts:
        assert part in line


@pytest.fixture(scope="module")
def flawed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Ten puzzle lines: seven solvable, one invalid, one unsolvable (all in the first nine), one more."""
    easy = puzzles("easy50.txt")
    unsolvable = next(t for t, c in counted() if c == 0)
    lines = [*easy[:3], "55" + easy[3][2:], *easy[4:6], unsolvable, *easy[6:8], easy[8]]
    path = tmp_path_factory.mktemp("bench") / "flawed.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def assert_consistent(row: dict[str, object]) -> None:
    """Outcome counts that add up to the puzzles, and ordered statistics."""
    assert set(row) == ROW_KEYS
    assert sum(int(row[key]) for key in OUTCOMES) == row["puzzles"]  # type: ignore[call-overload]
    timed = int(row["puzzles"]) - int(row["invalid"])  # type: ignore[call-overload]
    if timed:
        mean, median, p95, top = (float(row[k]) for k in ("mean_ms", "median_ms", "p95_ms", "max_ms"))  # type: ignore[arg-type]
        assert 0 < mean <= top and 0 < median <= p95 <= top
        assert float(row["puzzles_per_s"]) > 0  # type: ignore[arg-type]
    else:
        assert row["mean_ms"] is row["median_ms"] is row["p95_ms"] is row["max_ms"] is None


# --- sudoku bench -----------------------------------------------------------------------------------


def test_bench_table_has_a_row_per_file_and_engine() -> None:
    files = [str(PUZZLES / "17clue.txt"), str(PUZZLES / "top95.txt")]
    result = sudoku("bench", *files, "--strategies", "backtrack,cp-sat", "--sample", "10")
    assert result.exit_code == 0, result.stderr
    header, *rows = result.stdout.splitlines()
    assert header.split() == COLUMNS
    assert len({len(line) for line in [header, *rows]}) == 1  # the columns line up
    cells = [line.split() for line in rows]
    assert [(c[0], c[1]) for c in cells] == [
        ("17clue", "backtrack"),
        ("17clue", "cp-sat"),
        ("top95", "backtrack"),
        ("top95", "cp-sat"),
    ]
    for c in cells:
        assert len(c) == len(COLUMNS) - 2  # "data set" and "mean ms" are two words each in the header
        assert (int(c[2]), int(c[3]), int(c[4])) == (10, 10, 0)
        mean, median, p95, top, rate = map(float, c[5:])
        assert 0 < mean <= top and 0 < median <= p95 <= top and rate > 0


def test_bench_json_rows_add_up(flawed: Path) -> None:
    files = [str(flawed), str(PUZZLES / "top95.txt")]
    result = sudoku("bench", *files, "-s", "backtrack,cp-sat", "--first", "9", "--format", "json")
    assert result.exit_code == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["data_set"], r["strategy"]) for r in rows] == [
        ("flawed", "backtrack"),
        ("flawed", "cp-sat"),
        ("top95", "backtrack"),
        ("top95", "cp-sat"),
    ]
    for row in rows:
        assert_consistent(row)
        assert row["puzzles"] == 9
    for row in rows[:2]:
        assert [row[k] for k in OUTCOMES] == [7, 1, 0, 0, 1]
    for row in rows[2:]:
        assert [row[k] for k in OUTCOMES] == [9, 0, 0, 0, 0]


def test_bench_table_notes_failed_runs(flawed: Path) -> None:
    result = sudoku("bench", str(flawed), "-s", "backtrack,cp-sat", "--first", "9")
    assert result.exit_code == 0
    *table, note = result.stdout.splitlines()
    assert len(table) == 3
    assert note == "note: 4 puzzle runs were unsolvable, invalid or failed (see --format json)"


def test_bench_plot_writes_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    chart = tmp_path / "chart.png"
    files = [str(PUZZLES / "17clue.txt"), str(PUZZLES / "top95.txt")]
    result = sudoku("bench", *files, "-s", "backtrack,cp-sat", "--first", "10", "--plot", str(chart))
    assert result.exit_code == 0, result.stderr
    assert result.stderr.strip() == f"plot written to {chart}"
    data = chart.read_bytes()
    assert data.startswith(PNG_SIGNATURE)
    assert data[12:16] == b"IHDR"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width >= 400 and height >= 300
    assert len(data) > 10_000  # boxes, labels and titles, not a blank image


WITHOUT_MATPLOTLIB = """
import sys

class HideMatplotlib:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "matplotlib":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, HideMatplotlib())
sys.argv = ["sudoku", *sys.argv[1:]]
from sudokit.cli import main
main()
"""


def test_bench_plot_without_matplotlib(tmp_path: Path) -> None:
    chart = tmp_path / "chart.png"
    args = ["bench", str(PUZZLES / "top95.txt"), "-s", "backtrack", "--first", "2", "--plot", str(chart)]
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "PYTHONWARNINGS")}
    proc = subprocess.run(
        [sys.executable, "-c", WITHOUT_MATPLOTLIB, *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert_one_line_error(proc.stderr, "matplotlib", "sudokit[plot]")
    assert proc.stdout == ""  # it stops before running anything
    assert not chart.exists()


def test_bench_plot_to_a_missing_directory_fails_before_running(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    chart = tmp_path / "no-such-directory" / "chart.png"
    result = sudoku("bench", str(PUZZLES / "top95.txt"), "-s", "backtrack", "--first", "2", "--plot", str(chart))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert_one_line_error(result.stderr, "cannot write", "no-such-directory")


def test_bench_plot_that_cannot_be_created_fails_before_running(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    chart = tmp_path / ("x" * 300 + ".png")  # a name longer than any file system allows
    result = sudoku("bench", str(PUZZLES / "top95.txt"), "-s", "backtrack", "--first", "2", "--plot", str(chart))
    assert result.exit_code == 2
    assert result.stdout == ""  # no benchmark ran
    assert_one_line_error(result.stderr, "cannot write", "name too long")


@pytest.mark.parametrize("name", ["chart.txt", "chart"])
def test_bench_plot_in_a_format_matplotlib_lacks_fails_before_running(tmp_path: Path, name: str) -> None:
    """.txt made matplotlib raise once the benchmark had run (a traceback, exit 1); a name without an
    extension was written to NAME.png while sudoku said 'plot written to NAME'."""
    pytest.importorskip("matplotlib")
    existing = tmp_path / "kept.txt"
    existing.write_text("mine\n")
    chart = existing if name == "chart.txt" else tmp_path / name
    result = sudoku("bench", str(PUZZLES / "top95.txt"), "-s", "backtrack", "--first", "2", "--plot", str(chart))
    assert result.exit_code == 2
    assert result.stdout == ""  # no benchmark ran
    assert_one_line_error(result.stderr, f"cannot write {chart}: --plot ", ".png", ".svg", ".pdf")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.txt"] and existing.read_text() == "mine\n"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full, where every write fails")
def test_bench_plot_whose_write_fails_is_an_error_not_written(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    chart = tmp_path / "chart.png"
    chart.symlink_to("/dev/full")  # opens for writing, as a file on a full disk does; every write fails
    result = sudoku("bench", str(PUZZLES / "top95.txt"), "-s", "backtrack", "--first", "2", "--plot", str(chart))
    assert result.exit_code == 2
    assert len(result.stdout.splitlines()) == 2  # the table came first
    assert_one_line_error(result.stderr, f"cannot write {chart}", "No space left on device")


def test_bench_reads_tables_as_solve_does(tmp_path: Path) -> None:
    """A Parquet file was read as text (5 rows made 22 invalid 'puzzles'), a CSV file's header was a puzzle."""
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    easy = puzzles("easy50.txt")
    pq.write_table(pa.table({"id": list(range(5)), "quizzes": easy[:5]}), tmp_path / "kaggle.parquet")
    (tmp_path / "mine.csv").write_text("id,grid,solution\n" + "".join(f"{k},{p},\n" for k, p in enumerate(easy[:3])))
    files = [str(tmp_path / "kaggle.parquet"), str(tmp_path / "mine.csv")]
    refused(sudoku("bench", *files, "-s", "backtrack"), "mine.csv", "no puzzle column", "'grid'")  # before any run
    kaggle = sudoku("bench", files[0], "-s", "backtrack", "-f", "json")  # the puzzle column found by its header
    mine = sudoku("bench", files[1], "-s", "backtrack", "-f", "json", "--column", "grid")
    rows = [json.loads(line) for result in (kaggle, mine) for line in result.stdout.splitlines()]
    assert [(r["data_set"], r["puzzles"], r["solved"], r["invalid"]) for r in rows] == [
        ("kaggle", 5, 5, 0),
        ("mine", 3, 3, 0),
    ]


def test_bench_unknown_strategy_exits_2() -> None:
    result = sudoku("bench", str(PUZZLES / "top95.txt"), "-s", "backtrack,no-such-engine", "--first", "2")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert_one_line_error(result.stderr, "no-such-engine")


def test_bench_missing_file_exits_2() -> None:
    missing = "no-such-bench-file.txt"  # short and relative: the usage error wraps long paths
    assert not Path(missing).exists()
    result = sudoku("bench", str(PUZZLES / "top95.txt"), missing, "-s", "backtrack", "--first", "2")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert missing in result.stderr and "does not exist" in result.stderr


# --- benchmark() from Python ----------------------------------------------------------------------


def check_row(row: BenchRow, puzzles_expected: int) -> None:
    times = row.times_ms
    assert row.puzzles == puzzles_expected == len(times) + row.invalid
    assert row.solved + row.unsolvable + row.timeouts + row.errors == len(times)
    assert all(t > 0 for t in times)
    assert row.max_ms == round(max(times), 3)
    assert round(min(times), 3) <= row.mean_ms <= row.max_ms  # type: ignore[operator]
    assert row.median_ms == round(statistics.median(times), 3)
    assert row.median_ms <= row.p95_ms <= row.max_ms  # type: ignore[operator]
    assert row.p95_ms in {round(t, 3) for t in times}
    assert row.per_second is not None and row.per_second > 0
    assert_consistent(row.to_dict())


@pytest.mark.parametrize(
    ("count", "rank"),
    [(1, 1), (2, 2), (19, 19), (20, 19), (30, 29), (40, 38), (100, 95), (101, 96)],
)
def test_p95_is_the_nearest_rank_percentile(count: int, rank: int) -> None:
    """95 % of the times are at or below p95, and p95 is the least time for which that holds."""
    times = [float(k) for k in range(count, 0, -1)]  # 1 ms ... count ms, in reverse
    row = BenchRow("synthetic", "none", times_ms=times, solved=count)
    assert row.p95_ms == rank
    assert sum(t <= rank for t in times) >= 0.95 * count > sum(t <= rank - 1 for t in times)
    assert (row.median_ms, row.max_ms) == (statistics.median(times), count)


def test_benchmark_rows_are_consistent(flawed: Path) -> None:
    files = [PUZZLES / "17clue.txt", flawed]
    rows = benchmark(files, ["backtrack", get_strategy("cp-sat")], first=40)
    assert [(r.data_set, r.strategy) for r in rows] == [
        ("17clue", "backtrack"),
        ("17clue", "cp-sat"),
        ("flawed", "backtrack"),
        ("flawed", "cp-sat"),
    ]
    for row in rows[:2]:
        check_row(row, 40)
        assert (row.solved, row.invalid) == (40, 0)
    for row in rows[2:]:
        check_row(row, 10)
        assert (row.solved, row.unsolvable, row.invalid) == (8, 1, 1)


def test_benchmark_counts_timeouts(tmp_path: Path, hard: str) -> None:
    path = tmp_path / "hard.txt"
    path.write_text("\n".join([hard, *puzzles("easy50.txt")[:3]]) + "\n", encoding="utf-8")
    (row,) = benchmark([path], [get_strategy("backtrack", order="plain")], first=2, time_limit=0.05)
    check_row(row, 2)
    assert row.timeouts == 1 and row.solved + row.timeouts == 2
    assert 50 <= row.max_ms < 5000  # type: ignore[operator]


def test_bench_plot_draws_timeouts_apart(tmp_path: Path) -> None:
    """Rows with timeouts (and a row with nothing but timeouts) still make a chart."""
    pytest.importorskip("matplotlib")
    from sudokit.features.bench import BenchRow, plot_times

    rows = [
        BenchRow(
            "top95", "plain", times_ms=[50.0, 1000.0], solved=1, timeouts=1, answered_ms=[50.0], timeout_ms=[1000.0]
        ),
        BenchRow("top95", "stuck", times_ms=[1000.0], timeouts=1, timeout_ms=[1000.0]),
    ]
    chart = tmp_path / "chart.png"
    plot_times(rows, chart)
    assert chart.read_bytes().startswith(PNG_SIGNATURE)
    result = sudoku(
        "bench",
        str(PUZZLES / "top95.txt"),
        "-s",
        "backtrack",
        "-o",
        "backtrack.order=plain",
        "-t",
        "0.05",
        "--first",
        "3",
        "--plot",
        str(chart),
        "-f",
        "json",
    )
    assert result.exit_code == 0, result.stderr
    [row] = [json.loads(line) for line in result.stdout.splitlines()]
    assert row["timeouts"] >= 1
