"""Engines keep their limits on every board they claim, and run only on the boards they claim.

* ``sat`` on boards above 25x25: Glucose looked at its interrupt only when it restarted (an empty
  36x36 ran 7 s past its limit, a 49x49 minutes), and the pairwise formula of an empty 49x49 took
  20 s and 2.3 GB to build; big boards now default to MiniSat 2.2 on the sequential counter.
* ``cp-sat`` on classic boards above 25x25: CP-SAT's own expansion of the AllDifferents never looked at
  the clock; the engine now builds the Boolean model itself, checking the limit as it goes.
* A board an engine's capabilities do not claim is ``unsupported`` (named), never run: ``check`` leaves
  that engine out of that puzzle. ``check`` gives each engine's import a short timeout of its own.
* ``sudoku solve --limit N`` keeps only the solutions its records show: the first for line, csv and
  links, up to ``SHOWN_AT_MOST`` for pretty and json; the count goes on past them.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from importlib.metadata import EntryPoint

import pytest

import sudokit.engines.registry
import sudokit.features.crosscheck.job
from sudokit import Grid, Shape, Status, is_solution, solve
from sudokit.engines.registry import ENTRY_POINT_GROUP, Registry

from .conftest import puzzles, sized, sudoku

EMPTY_36 = Grid.empty(Shape.of(6, 6))


def test_sat_solves_an_empty_36x36_in_a_few_cpu_seconds() -> None:
    """CPU time, not wall time: before, Glucose on the pairwise formula took 7-10 CPU s and could not be stopped."""
    solve(Grid.empty(), "sat")  # loads PySAT
    before = time.process_time()
    result = solve(EMPTY_36, "sat", time_limit=60)
    used = time.process_time() - before
    assert result.status is Status.SOLVED and result.error is None, result.error
    assert is_solution(EMPTY_36, result.solution)
    assert used < 4.0, used  # about 1.3 s


@pytest.mark.parametrize("solver", ["glucose3", "glucose4", "maplecm"])
def test_sat_refuses_a_late_stopping_solver_on_a_big_board_with_a_time_limit(solver: str) -> None:
    before = time.process_time()
    result = solve(EMPTY_36, "sat", time_limit=5, solver=solver)
    assert time.process_time() - before < 1.0  # refused before any formula is built
    assert result.status is Status.ERROR
    error = result.error or ""
    assert f"solver {solver} cannot keep a time limit on boards above 25x25" in error and "minisat22" in error


# --- cp-sat on big boards -------------------------------------------------------------------------------


def test_cp_sat_stops_an_empty_64x64_within_its_limit_in_cpu_time() -> None:
    """Before, CP-SAT expanded the 192 AllDifferents of 64 cells in C++ that never looks at the clock: 1.3-1.5
    CPU s whatever the limit, and past it (2.2 s late at -t 5 on a loaded machine, killed by the watchdog)."""
    empty = Grid.empty(Shape.of(8, 8))
    solve(Grid.empty(), "cp-sat")  # loads OR-Tools
    for limit in (1, 10**9):
        before = time.process_time()
        result = solve(empty, "cp-sat", limit=limit, keep=1, time_limit=0.5)
        used = time.process_time() - before
        assert result.status is Status.TIMEOUT and result.error is None, result.error
        assert used < 1.0, used  # about 0.3-0.4 s


def test_cp_sat_solves_and_counts_an_empty_36x36_in_a_few_cpu_seconds() -> None:
    solve(Grid.empty(), "cp-sat")  # loads OR-Tools
    before = time.process_time()
    result = solve(EMPTY_36, "cp-sat", time_limit=60)
    used = time.process_time() - before
    assert result.status is Status.SOLVED and is_solution(EMPTY_36, result.solution)
    assert used < 4.0, used  # 1.8 s; 7.5 s on CP-SAT's own expansion and presolve
    counted = solve(EMPTY_36, "cp-sat", limit=3, keep=2, time_limit=60)
    assert (counted.status, counted.count, counted.exact, len(set(counted.solutions))) == (Status.SOLVED, 3, False, 2)
    assert all(is_solution(EMPTY_36, s) for s in counted.solutions)


def test_cp_sat_big_board_answers_match_the_givens() -> None:
    """The Boolean model keeps the givens, and finds a contradiction in them without a search."""
    (puzzle, solution), *_ = sized("6x6")
    result = solve(puzzle, "cp-sat", limit=2, time_limit=60)
    assert (result.status, result.count, result.exact, result.solution) == (Status.SOLVED, 1, True, solution)
    cells = list(solution.cells)
    cells[1] = cells[0]  # a digit twice in the first row
    clash = solve(Grid(cells, solution.shape, validate=False), "cp-sat", time_limit=60)
    assert (clash.status, clash.count, clash.exact) == (Status.UNSOLVABLE, 0, True)


# --- the boards an engine claims -------------------------------------------------------------------------

CLAIMS = "tests.plugins.claims"
PLUGINS = {
    "backtrack": "sudokit_strategies.backtrack:BacktrackStrategy",
    "small-boards": f"{CLAIMS}:SmallBoards",
    "slow-to-build": f"{CLAIMS}:SlowToBuild",
    "hangs-on-import": "tests.plugins.hangs_on_import:Engine",
    "wrong-grid": "tests.plugins.hostile:WrongGrid",
}
#: A 16x16 that backtrack solves at once.
SIXTEEN = sized("4x4")[0][0]


@pytest.fixture
def plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test doubles and the real backtrack, as the process's registry (forked workers inherit it)."""
    eps = [EntryPoint(name, value, ENTRY_POINT_GROUP) for name, value in PLUGINS.items()]
    monkeypatch.setattr(sudokit.engines.registry, "_default", Registry(eps=eps))


def test_an_engine_is_not_run_on_a_board_it_does_not_claim() -> None:
    """backtrack claims boards up to 36x36: a 49x49 is ``unsupported`` at once (before: searched to the limit)."""
    start = time.perf_counter()
    result = solve(Grid.empty(Shape.of(7, 7)), "backtrack", time_limit=5)
    assert time.perf_counter() - start < 2
    assert (result.status, result.solutions, result.count, result.elapsed) == (Status.UNSUPPORTED, (), 0, 0.0)
    assert result.error == "strategy 'backtrack' claims boards up to 36x36, not 49x49"
    plain = solve(SIXTEEN, "backtrack", order="plain", time_limit=5)  # the plain order claims 9x9 at most
    assert plain.status is Status.UNSUPPORTED
    assert plain.error == "strategy 'backtrack' claims boards up to 9x9, not 16x16"


def test_solve_names_the_board_an_engine_does_not_claim_and_exits_2() -> None:
    result = sudoku("solve", "-s", "backtrack", "-t", "5", "-f", "line", "." * 49 * 49)
    assert result.exit_code == 2
    assert result.stdout.rstrip().endswith(":unsupported")
    assert result.stderr == "sudoku: error: strategy 'backtrack' claims boards up to 36x36, not 49x49\n"


def test_check_leaves_out_an_engine_on_a_board_it_does_not_claim(plugins: None) -> None:
    """Before, check ran the plugin on the 16x16 and waited for it until the time limit (undecided, exit 1)."""
    result = sudoku("check", "-s", "backtrack,small-boards", "-t", "3", "-f", "json", SIXTEEN.to_line())
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["verdict"] == "agree" and report["count"] == 1
    small = {e["strategy"]: e for e in report["engines"]}["small-boards"]
    assert (small["verdict"], small["status"]) == ("skipped", "unsupported")
    assert small["problem"] == "engine 'small-boards' claims boards up to 12x12, not 16x16"
    assert small["elapsed_ms"] == 0.0  # never called
    nine = sudoku("check", "-s", "backtrack,small-boards", "-t", "3", "-f", "json", puzzles("easy50.txt")[0])
    assert {e["strategy"]: e["verdict"] for e in json.loads(nine.stdout)["engines"]} == {
        "backtrack": "ok",
        "small-boards": "ok",
    }


def test_check_says_skipped_for_a_left_out_engine_when_others_disagree(plugins: None) -> None:
    """Before, the note of the engine left out took the puzzle's verdict: 'disagree: engine ... claims boards up to'."""
    result = sudoku("check", "-s", "backtrack,small-boards,wrong-grid", "-t", "5", SIXTEEN.to_line())
    assert result.exit_code == 3, result.stderr  # a disagreement
    assert "small-boards" not in result.stderr and "wrong-grid" in result.stderr
    lines = result.stdout.splitlines()
    assert "skipped: engine 'small-boards' claims boards up to 12x12, not 16x16" in lines
    assert not [line for line in lines if line.startswith("disagree:") and "small-boards" in line]
    assert [line for line in lines if line.startswith("disagree:") and "wrong-grid" in line]


def test_check_bounds_a_hanging_import_and_says_so_once(plugins: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The import of each engine gets ``IMPORT_TIMEOUT`` (1 s here; 30 s by default, where it was 60 s), its
    building the full load timeout: the engine that takes 2 s to build still takes part."""
    monkeypatch.delenv("SUDOKIT_LOAD_TIMEOUT", raising=False)
    monkeypatch.setattr(sudokit.features.crosscheck.job, "IMPORT_TIMEOUT", 1.0)  # where CheckTask reads it
    three = puzzles("easy50.txt")[:3]
    start = time.perf_counter()
    result = sudoku("check", "-s", "backtrack,slow-to-build,hangs-on-import", "-j", "1", "-f", "json", *three)
    assert time.perf_counter() - start < 15
    assert result.exit_code == 3
    reports = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["verdict"] for r in reports] == ["error"] * 3
    for report in reports:
        answers = {e["strategy"]: e for e in report["engines"]}
        assert answers["backtrack"]["verdict"] == answers["slow-to-build"]["verdict"] == "ok"
        assert answers["hangs-on-import"]["verdict"] == "error"
        assert "did not load within 1 s" in str(answers["hangs-on-import"]["problem"])
    told = [line for line in result.stderr.splitlines() if "failed to load" in line]
    assert len(told) == 1 and "strategy 'hangs-on-import' failed to load: did not load within 1 s" in told[0]


# --- what a record shows is what is kept ------------------------------------------------------------------

EMPTY_9 = "." * 81
SHOWN_AT_MOST = 1000  # sudokit.runtime.output.SHOWN_AT_MOST, as the README says
MEASURE = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def peak_kb(*args: str) -> int:
    """The peak RSS (kB) of the largest process of a real ``sudoku`` run (its workers included)."""
    command = [sys.executable, "-c", MEASURE, sys.executable, "-m", "sudokit", *args]
    out = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True).stdout
    return int(out.split()[1])


def test_a_line_record_keeps_only_the_solution_it_shows() -> None:
    """``--limit N`` without ``--count`` kept every solution found (393 MB at -t 15 on an empty 9x9)."""
    alone = peak_kb("solve", "--limit", "1", "-t", "3", "-f", "line", EMPTY_9)
    searching = peak_kb("solve", "--limit", "100000000", "-t", "3", "-f", "line", EMPTY_9)
    assert searching < alone + 10_000, (alone, searching)  # before: 30-300 MB more (0.75 kB a solution)


def test_json_and_pretty_show_at_most_a_thousand_solutions_and_count_on() -> None:
    result = sudoku("solve", "--limit", "100000000", "-t", "1", "-f", "json", EMPTY_9)
    record = json.loads(result.stdout)
    assert record["status"] == "timeout" and record["count"] > SHOWN_AT_MOST
    assert len(set(record["solutions"])) == len(record["solutions"]) == SHOWN_AT_MOST
    assert record["solution"] == record["solutions"][0]
    pretty = sudoku("solve", "--limit", "100000000", "-t", "1", EMPTY_9)
    assert pretty.stdout.count("solution ") == SHOWN_AT_MOST
    assert f"(the first {SHOWN_AT_MOST} of the " in pretty.stdout and " solutions found are shown)" in pretty.stdout
    few = json.loads(sudoku("solve", "--limit", "5", "-f", "json", EMPTY_9).stdout)
    assert (few["count"], len(set(few["solutions"]))) == (5, 5)
