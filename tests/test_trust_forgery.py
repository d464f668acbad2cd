"""Forged answers: a plugin engine never gets a wrong grid printed as ``solved``, however it lies.

The forgers (tests/plugins/forgers.py) are test doubles of third-party plugins, registered beside the
real ``backtrack``: a grid whose printed forms differ from the cells the check reads, solutions that
change once they have been read, an engine that replaces sudokit's check in its own process, one that
calls itself ``backtrack``, one that says it took 1e308 s. Every path is driven for real: ``sudoku
solve`` one puzzle (one worker process, the engine's ``solve``) and a file (blocks, its ``solve_many``)
in every format, ``sudoku check``, and the library (``solve`` in this process and isolated,
``solve_records``). Whatever the engine does, a record is either an error naming the engine as it was
asked for, or a true solution, printed from the cells that were checked.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

import sudokit.engines.api
import sudokit.engines.registry
import sudokit.engines.verify
from sudokit import Grid, Status, is_solution, solve
from sudokit.engines.api import answer_of, result_of
from sudokit.engines.registry import ENTRY_POINT_GROUP, Registry
from sudokit.engines.workers import WorkerPool
from sudokit.io.links import fpuzzles_link
from sudokit.io.reader import Record
from sudokit.runtime.batch import SolveTask, solve_records
from sudokit.runtime.fastpath import Many
from tests.plugins.forgers import swapped

from .conftest import puzzles, sudoku

FORGERS = "tests.plugins.forgers"
PLUGINS = {
    "lies-in-print": f"{FORGERS}:LiesInPrint",
    "shifty-solutions": f"{FORGERS}:ShiftySolutions",
    "patches-the-check": f"{FORGERS}:PatchesTheCheck",
    "impostor": f"{FORGERS}:Impostor",
    "huge-elapsed": f"{FORGERS}:HugeElapsed",
    "endless-cells": f"{FORGERS}:EndlessCells",
    "backtrack": "sudokit_strategies.backtrack:BacktrackStrategy",
}
LIARS = ["lies-in-print", "shifty-solutions", "patches-the-check"]
FORMATS = ["pretty", "line", "json", "csv", "fpuzzles"]
PUZZLES = puzzles("easy50.txt")[:3]


@pytest.fixture(autouse=True)
def forgers(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The forgers and the real backtrack as the process's registry; the check put back after each test."""
    registry = Registry(eps=[EntryPoint(name, value, ENTRY_POINT_GROUP) for name, value in PLUGINS.items()])
    monkeypatch.setattr(sudokit.engines.registry, "_default", registry)
    for module, name in [(sudokit.engines.api, "result_problem"), (sudokit.engines.verify, "result_problem")]:
        monkeypatch.setattr(module, name, getattr(module, name))  # restored even if an engine replaces it here
    monkeypatch.setattr(sudokit.engines.verify, "verify_many", sudokit.engines.verify.verify_many)
    yield


def truth(text: str) -> tuple[Grid, Grid]:
    """A puzzle and its one solution, from the real backtrack called directly."""
    from sudokit_strategies.backtrack import BacktrackStrategy

    grid = Grid.parse(text)
    [solution] = BacktrackStrategy().solve(grid, limit=2).solutions
    return grid, solution


def wrong_forms(text: str) -> list[str]:
    """Every printed form of the forged grid of a puzzle: none may reach the output."""
    grid, solution = truth(text)
    wrong = Grid(swapped(solution.cells), grid.shape, validate=False)
    return [wrong.to_line(), wrong.to_pretty(givens=grid).splitlines()[0], fpuzzles_link(grid, wrong)]


def records(stdout: str, fmt: str) -> list[dict[str, str]]:
    """(puzzle, status, solution, strategy) of each machine-readable record."""
    if fmt == "json":
        return [json.loads(line) for line in stdout.splitlines()]
    if fmt == "csv":
        return list(csv.DictReader(io.StringIO(stdout)))
    out = []
    for line in stdout.splitlines():
        puzzle, _, answer = line.partition(":")
        solved = answer not in ("error", "unsolvable", "timeout")
        out.append({"puzzle": puzzle, "status": "solved" if solved else answer, "solution": answer if solved else ""})
    return out


def assert_true_or_error(stdout: str, stderr: str, fmt: str, engine: str, texts: list[str]) -> None:
    """No forged grid printed; each record an error naming ``engine`` or a true solution; by ``engine``."""
    for text in texts:
        for form in wrong_forms(text):
            assert form not in stdout, (form, stdout)
    errors = [line for line in stderr.splitlines() if "error:" in line]
    assert all(f"strategy '{engine}'" in line for line in errors), stderr
    if fmt in ("line", "json", "csv"):
        found = records(stdout, fmt)
        assert [r["puzzle"] for r in found] == [Grid.parse(t).to_line() for t in texts]
        for record, text in zip(found, texts, strict=True):
            assert record["status"] in ("solved", "error"), record
            if record["status"] == "solved":
                assert record["solution"] == truth(text)[1].to_line()
            if "strategy" in record:
                assert record["strategy"] == engine
    if fmt == "pretty" and len(texts) == 1 and stdout.strip():
        assert stdout.strip() == truth(texts[0])[1].to_pretty(givens=Grid.parse(texts[0])).strip()
    if fmt == "fpuzzles" and len(texts) == 1:
        grid, solution = truth(texts[0])
        assert stdout.strip() in (fpuzzles_link(grid, solution), fpuzzles_link(grid))


# --- the command line: one puzzle (solve) and a file (solve_many), every format -------------------------


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("engine", LIARS)
def test_one_puzzle_never_prints_a_forged_grid(engine: str, fmt: str) -> None:
    result = sudoku("solve", "-s", engine, "-f", fmt, PUZZLES[0])
    assert_true_or_error(result.stdout, result.stderr, fmt, engine, PUZZLES[:1])
    assert result.exit_code in (0, 2), result.stderr
    if engine == "patches-the-check":  # a plain wrong grid: nothing to print but the error
        assert result.exit_code == 2 and f"strategy '{engine}' failed: returned an invalid grid" in result.stderr


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("engine", LIARS)
def test_a_batch_never_prints_a_forged_grid(tmp_path: Path, engine: str, fmt: str) -> None:
    path = tmp_path / "batch.txt"
    path.write_text("\n".join(PUZZLES) + "\n")
    result = sudoku("solve", "-s", engine, "-f", fmt, str(path))
    assert_true_or_error(result.stdout, result.stderr, fmt, engine, PUZZLES)
    if engine == "patches-the-check":
        assert result.exit_code == 2


@pytest.mark.parametrize("fmt", ["line", "json", "csv"])
@pytest.mark.parametrize("many", [False, True], ids=["one", "file"])
def test_records_name_the_engine_asked_for_not_the_one_it_claims(tmp_path: Path, fmt: str, many: bool) -> None:
    path = tmp_path / "batch.txt"
    path.write_text("\n".join(PUZZLES) + "\n")
    texts = PUZZLES if many else PUZZLES[:1]
    stats = [] if fmt == "json" else ["--stats"]  # json records hold the counters themselves
    result = sudoku("solve", "-s", "impostor", "-f", fmt, *stats, str(path) if many else PUZZLES[0])
    assert result.exit_code == 0, result.stderr
    assert_true_or_error(result.stdout, result.stderr, fmt, "impostor", texts)
    assert [r["status"] for r in records(result.stdout, fmt)] == ["solved"] * len(texts)
    assert "backtrack" not in result.stdout + result.stderr
    if fmt != "json":  # the counters go to stderr, headed by the engine's name
        assert re.findall(r"([\w-]+): solved in ", result.stderr) == ["impostor"] * len(texts)


def test_cross_check_never_passes_a_forged_grid() -> None:
    result = sudoku("check", "-s", "patches-the-check,backtrack", "-f", "json", PUZZLES[0])
    assert result.exit_code == 3, result.stderr
    [record] = [json.loads(line) for line in result.stdout.splitlines()]
    engines = {e["strategy"]: e for e in record["engines"]}
    assert engines["patches-the-check"]["status"] == "error"
    assert engines["patches-the-check"]["solution"] is None
    assert engines["backtrack"]["status"] == "solved"
    for form in wrong_forms(PUZZLES[0]):
        assert form not in result.stdout


# --- the library ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("isolate", [False, True], ids=["in-process", "isolated"])
@pytest.mark.parametrize("engine", LIARS)
def test_the_library_never_returns_a_forged_grid(engine: str, isolate: bool) -> None:
    grid, solution = truth(PUZZLES[0])
    result = solve(PUZZLES[0], engine, isolate=isolate)
    if result.status is Status.SOLVED:
        [found] = result.solutions
        assert type(found) is Grid and type(result.solutions) is tuple
        assert found.to_line() == found.to_line() == solution.to_line() and list(found) == list(solution)
        assert found.to_pretty() == solution.to_pretty() and is_solution(grid, found)
    else:
        assert result.status is Status.ERROR and result.solutions == ()
        assert result.error and result.error.startswith(f"strategy '{engine}' failed: ")
    assert result.strategy == engine
    if engine == "patches-the-check":
        assert result.status is Status.ERROR


@pytest.mark.parametrize("engine", LIARS)
def test_solve_records_never_returns_a_forged_grid(engine: str) -> None:
    """Plain lines go to ``solve_many`` in blocks, the rest one by one: neither yields a forged grid."""
    texts = [*PUZZLES, Grid.parse(PUZZLES[0]).to_pretty()]  # the last one is no plain line: it goes alone
    outcomes = list(solve_records([Record(text, "<test>") for text in texts], engine))
    assert len(outcomes) == 4
    for outcome, text in zip(outcomes, [*PUZZLES, PUZZLES[0]], strict=True):
        result = outcome.result
        assert result is not None and result.strategy == engine
        if result.status is Status.SOLVED:
            assert type(result.solutions) is tuple and [type(g) for g in result.solutions] == [Grid]
            assert result.solution is not None and result.solution.to_line() == truth(text)[1].to_line()
        else:
            assert result.status is Status.ERROR and result.solutions == ()
    if engine == "patches-the-check":
        assert {o.status for o in outcomes} == {"error"}


# --- an absurd time ------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["json", "csv"])
@pytest.mark.parametrize("many", [False, True], ids=["one", "file"])
def test_an_absurd_elapsed_time_is_replaced_by_the_time_measured(tmp_path: Path, fmt: str, many: bool) -> None:
    path = tmp_path / "batch.txt"
    path.write_text("\n".join(PUZZLES) + "\n")
    out = tmp_path / f"out.{fmt}"
    args = ["solve", "-s", "huge-elapsed", "-f", fmt, "-t", "0", "-O", str(out)]
    result = sudoku(*args, str(path) if many else PUZZLES[0])
    assert result.exit_code == 0, result.stderr
    texts = PUZZLES if many else PUZZLES[:1]
    found = records(out.read_text(), fmt)
    assert [r["status"] for r in found] == ["solved"] * len(texts)
    for record in found:
        ms = float(record["elapsed_ms"])
        assert math.isfinite(ms) and 0.0 <= ms < 60_000  # the time measured around the call, not 1e308 s
    if many:  # and the file is one that --resume reads back
        again = sudoku(*args, "--resume", str(path))
        assert again.exit_code == 0, again.stderr


def test_the_library_replaces_an_absurd_elapsed_time() -> None:
    result = solve(PUZZLES[0], "huge-elapsed")
    assert result.status is Status.SOLVED and 0.0 <= result.elapsed < 60
    assert json.dumps(result.to_dict(), allow_nan=False)


def test_the_check_holds_in_the_engines_own_process() -> None:
    """Without a worker process (``isolate=False``, as where there is no fork), the checks bound at import hold."""
    task = SolveTask("patches-the-check")
    items = [(0, Record(PUZZLES[0], "<test>")), (1, [Record(text, "<test>") for text in PUZZLES])]
    with WorkerPool(task, 1, isolate=False) as pool:
        one, block = list(pool.map(items))
    # it did replace them
    assert sudokit.engines.verify.result_problem is not sudokit.engines.api.run.__kwdefaults__["_problem"]
    assert isinstance(block, Many) and len(block.parts) == len(PUZZLES)
    for outcome in [one, *block.parts]:
        assert outcome.status == "error" and outcome.result.solutions == ()
        assert outcome.error.startswith("strategy 'patches-the-check' failed: returned an invalid grid")


class _Int(int):
    """An int that prints another number."""

    def __repr__(self) -> str:
        return "7"

    __str__ = __repr__


@pytest.mark.parametrize(
    ("part", "value", "problem"),
    [
        (0, "SOLVED", "returned an answer that cannot be read: status 'SOLVED'"),
        (1, [b"x" * 81], "returned an answer that cannot be read: solutions that are not grids"),
        (1, (bytearray(81),), "returned an answer that cannot be read: solutions that are not grids"),
        (1, (b"\x01" * 80,), "returned an answer that cannot be read: solutions that are not grids"),
        (1, "wrong", "returned an invalid grid (solution 1 of 1)"),
        (2, _Int(1), "returned an answer that cannot be read: a count or exact of another type"),
        (3, 1, "returned an answer that cannot be read: a count or exact of another type"),
        (4, math.inf, "returned an answer that cannot be read: elapsed inf"),
        (4, math.nan, "returned an answer that cannot be read: elapsed nan"),
        (4, 1e308, "returned an answer that cannot be read: elapsed 1e+308"),
        (5, (("nodes", object()),), "returned an answer that cannot be read: stats 'nodes': a value of type object"),
        (5, (("rate", math.inf),), "returned an answer that cannot be read: stats 'rate': inf"),
        (6, "boom", "returned an answer that cannot be read: status solved with error 'boom'"),
    ],
)
def test_the_caller_takes_plain_data_of_the_right_types_only(part: int, value: object, problem: str) -> None:
    """What a worker sends is checked in the caller: any part that is not plain data, or not a solution, is an error."""
    grid, solution = truth(PUZZLES[0])
    good = answer_of(solve(grid, "backtrack"))
    assert result_of(good, grid, "x", limit=1).solution == solution
    if value == "wrong":
        value = (bytes(swapped(solution.cells)),)
    result = result_of(tuple(value if i == part else v for i, v in enumerate(good)), grid, "x", limit=1)
    assert result.status is Status.ERROR and result.solutions == ()
    assert result.error is not None and result.error.startswith(f"strategy 'x' failed: {problem}"), result.error


@pytest.mark.parametrize("isolate", [False, True], ids=["in-process", "isolated"])
def test_cells_are_read_from_their_storage_not_by_iterating_them(isolate: bool) -> None:
    """A grid whose cells iterate without end (here: a million values, then an error) is read in bounded time."""
    _, solution = truth(PUZZLES[0])
    result = solve(PUZZLES[0], "endless-cells", isolate=isolate)
    assert result.status is Status.SOLVED, result.error
    assert result.solutions == (solution,) and type(result.solution) is Grid
