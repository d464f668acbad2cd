"""Broken third-party engines: none of them crashes sudokit, hides the other engines or hangs a batch.

The plugins are test doubles (tests/plugins/hostile.py) registered beside the real ``backtrack``
in a registry installed as the default for each test; the CLI is driven in-process.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

import sudokit.engines.registry
from sudokit import Grid, Status, is_solution, solve
from sudokit.engines.api import watchdog_seconds
from sudokit.engines.registry import ENTRY_POINT_GROUP, Registry
from tests.conftest import sudoku

from .conftest import puzzles

pytestmark = pytest.mark.filterwarnings("ignore::sudokit.engines.registry.StrategyWarning")

HOSTILE = "tests.plugins.hostile"
PLUGINS = {
    "crasher": f"{HOSTILE}:Crasher",
    "wrong-shape": f"{HOSTILE}:WrongShape",
    "returns-dict": f"{HOSTILE}:ReturnsDict",
    "returns-none": f"{HOSTILE}:ReturnsNone",
    "bad-status": f"{HOSTILE}:BadStatus",
    "never-returns": f"{HOSTILE}:NeverReturns",
    "swallows-errors": f"{HOSTILE}:SwallowsErrors",
    "sleeper": f"{HOSTILE}:Sleeper",
    "exits": f"{HOSTILE}:Exits",
    "fails-to-build": f"{HOSTILE}:FailsToBuild",
    "crashes-on-import": f"{HOSTILE}:CrashesOnImport",
    "exits-on-import": f"{HOSTILE}:ExitsOnImport",
    "broken": "tests.plugins.broken:Anything",  # its import raises ImportError
    "backtrack": "sudokit_strategies.backtrack:BacktrackStrategy",
}
NOT_LOADED = {"fails-to-build", "crashes-on-import", "exits-on-import", "broken"}
#: Engines that load but fail on every puzzle, at once.
FAILING = ["crasher", "wrong-shape", "returns-dict", "returns-none", "bad-status", "exits"]
SUMMARY = re.compile(r"^[\d,]+ puzzles?: ")
PUZZLES = puzzles("easy50.txt")[:3]


@pytest.fixture(autouse=True)
def hostile_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[Registry]:
    """The hostile plugins and the real backtrack, as the process's registry for one test."""
    registry = Registry(eps=[EntryPoint(name, value, ENTRY_POINT_GROUP) for name, value in PLUGINS.items()])
    monkeypatch.setattr(sudokit.engines.registry, "_default", registry)
    yield registry


def errors(stderr: str) -> list[str]:
    """The error lines of stderr (the batch summary aside); each a one-line ``sudoku: error:``."""
    lines = [line for line in stderr.splitlines() if not SUMMARY.match(line)]
    assert all(line.startswith("sudoku: error: ") for line in lines), stderr
    return lines


def batch_file(tmp_path: Path) -> Path:
    path = tmp_path / "batch.txt"
    path.write_text("\n".join([PUZZLES[0], "not a puzzle", *PUZZLES[1:]]) + "\n")
    return path


# --- listing ---------------------------------------------------------------------------------------


def test_strategies_lists_every_engine_and_marks_the_broken_ones() -> None:
    listed = sudoku("strategies")
    assert listed.exit_code == 0, listed.stderr
    assert [line.split()[0] for line in listed.stdout.splitlines()] == sorted(PLUGINS)  # from metadata alone
    result = sudoku("strategies", "--load")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == len(PLUGINS)  # one line each, even for a page-long import error
    rows = {line.split()[0]: line.split()[1] for line in lines}
    assert rows == {name: "FAILED" if name in NOT_LOADED else "ok" for name in PLUGINS}
    failed = {line.split()[0]: line for line in lines if line.split()[1] == "FAILED"}
    assert "ZeroDivisionError" in failed["crashes-on-import"]
    assert "SystemExit" in failed["exits-on-import"]
    assert "unobtainium" in failed["broken"]
    assert "OSError" in failed["fails-to-build"]


def test_strategies_json_says_why_each_failed() -> None:
    result = sudoku("strategies", "--load", "--format", "json")
    assert result.exit_code == 0
    rows = {row["name"]: row for row in map(json.loads, result.stdout.splitlines())}
    assert set(rows) == set(PLUGINS)
    for name, row in rows.items():
        assert row["loaded"] is (name not in NOT_LOADED)
        assert (row["error"] is None) is row["loaded"]
        if row["error"]:
            assert f"'{name}'" in row["error"] and "\n" not in row["error"]


def test_a_broken_plugin_does_not_stop_the_others_from_solving() -> None:
    sudoku("strategies", "--load")  # every plugin has been tried
    result = solve(PUZZLES[0], "backtrack")
    assert result.status is Status.SOLVED and is_solution(result.puzzle, result.solution)


# --- one puzzle ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", [*FAILING, *sorted(NOT_LOADED)])
def test_solve_with_a_broken_engine_is_a_one_line_error(engine: str) -> None:
    result = sudoku("solve", "-s", engine, PUZZLES[0])
    assert result.exit_code == 2
    [line] = errors(result.stderr)
    assert f"strategy '{engine}'" in line


@pytest.mark.parametrize("engine", FAILING)
def test_the_library_returns_an_error_result(engine: str) -> None:
    result = solve(PUZZLES[0], engine)
    assert result.status is Status.ERROR and result.solutions == ()
    assert result.error and result.error.startswith(f"strategy '{engine}' failed: ") and "\n" not in result.error


# --- batches ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("engine", FAILING)
def test_a_batch_through_a_failing_engine_has_an_error_record_per_puzzle(
    tmp_path: Path, engine: str, jobs: str
) -> None:
    result = sudoku("solve", str(batch_file(tmp_path)), "-s", engine, "-f", "json", "--jobs", jobs)
    assert result.exit_code == 2
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["line"] for r in records] == [1, 2, 3, 4]
    assert [r["status"] for r in records] == ["error", "invalid", "error", "error"]
    for record in records:
        if record["status"] == "error":
            assert record["error"].startswith(f"strategy '{engine}' failed: ")
            assert record["strategy"] == engine and record["solution"] is None
    lines = errors(result.stderr)
    assert len(lines) == 4 and all("\n" not in r["error"] for r in records)
    assert [re.search(r"batch\.txt:(\d+):", line).group(1) for line in lines] == ["1", "2", "3", "4"]  # type: ignore[union-attr]


def test_line_and_csv_batches_through_a_crashing_engine(tmp_path: Path) -> None:
    path = batch_file(tmp_path)
    line = sudoku("solve", str(path), "-s", "crasher", "-f", "line", "--jobs", "1")
    assert line.exit_code == 2
    assert [text.rpartition(":")[2] for text in line.stdout.splitlines()] == ["error", "invalid", "error", "error"]
    csv = sudoku("solve", str(path), "-s", "crasher", "-f", "csv", "--jobs", "1")
    assert csv.exit_code == 2 and len(csv.stdout.splitlines()) == 1 + 4  # the header and a row each


# --- engines that never return -------------------------------------------------------------------------


def overran(record: dict[str, object], engine: str) -> bool:
    error = str(record["error"])
    return (
        record["status"] == "error" and error.startswith(f"strategy '{engine}' failed: ") and "still running" in error
    )


@pytest.mark.parametrize("engine", ["never-returns", "swallows-errors"])
def test_an_engine_that_never_returns_is_stopped_by_the_watchdog(engine: str) -> None:
    start = time.perf_counter()
    result = sudoku("solve", "-s", engine, "-t", "0.2", "-f", "json", PUZZLES[0])
    took = time.perf_counter() - start
    assert result.exit_code == 2
    [record] = [json.loads(line) for line in result.stdout.splitlines()]
    assert overran(record, engine), record
    assert len(errors(result.stderr)) == 1
    assert took < watchdog_seconds(0.2) + 5, f"stopped after {took:.1f} s"


@pytest.mark.parametrize("engine", ["never-returns", "sleeper"])
def test_a_parallel_batch_through_an_engine_that_never_returns_completes(tmp_path: Path, engine: str) -> None:
    path = tmp_path / "two.txt"
    path.write_text(f"{PUZZLES[0]}\n{PUZZLES[1]}\n")
    start = time.perf_counter()
    result = sudoku("solve", str(path), "-s", engine, "-t", "0.2", "-f", "json", "--jobs", "2")
    took = time.perf_counter() - start
    assert result.exit_code == 2
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["line"] for r in records] == [1, 2]
    assert all(overran(r, engine) for r in records), records
    # The two run side by side, each stopped after watchdog_seconds(0.2); generous for a busy machine.
    assert took < 2 * watchdog_seconds(0.2) + 5, f"{took:.1f} s"


# --- the cross-check ----------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ["crasher", "wrong-shape", "returns-none", "exits", "crashes-on-import"])
def test_check_names_the_bad_engine_and_exits_3(engine: str) -> None:
    result = sudoku("check", "--strategies", f"backtrack,{engine}", "-f", "json", PUZZLES[0])
    assert result.exit_code == 3
    lines = [line for line in result.stderr.splitlines() if line.startswith("sudoku:")]  # beside the summary
    # A crash is an error; an answer that is not one (None, a grid of another shape) is a disagreement.
    assert len(lines) == 1 and f"'{engine}'" in lines[0], result.stderr
    assert lines[0].startswith(("sudoku: error: ", "sudoku: disagree: ")), result.stderr
    assert "'backtrack'" not in result.stderr  # the working engine is not blamed
    report = json.loads(result.stdout)
    verdicts = {e["strategy"]: e["verdict"] for e in report["engines"]}
    assert verdicts["backtrack"] == "ok" and verdicts[engine] != "ok"
    solution = next(e["solution"] for e in report["engines"] if e["strategy"] == "backtrack")
    assert is_solution(Grid.parse(PUZZLES[0]), Grid.parse(solution))
