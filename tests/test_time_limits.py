"""Time limits hold for every engine: an unfinishable search ends as a timeout within its limit plus a
small margin, leaves no process or thread behind, and a batch goes on to the next puzzle.

The unfinishable searches: counting the solutions of an empty board (there are far too many), and
solving puzzles an engine is known to take seconds on (puzzles/sizes/box5x5.txt's first board for
cp-sat and python-constraint).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from sudokit import Grid, Shape, Status, is_solution, solve
from sudokit.engines.api import watchdog_seconds
from sudokit_strategies.csp import stop_workers

from .conftest import puzzles, sized
from .timing import hang_guard, spent

#: How much CPU time past its limit a timed-out call may spend (a worker's start and end, the engine's exit).
MARGIN = 1.5
NEVER_ENDS = 10**9  # a count limit no search reaches
EMPTY_9 = Grid.empty()  # the plain order claims boards up to 9x9
EMPTY_16 = Grid.empty(Shape.of(4, 4))
EMPTY_25 = Grid.empty(Shape.of(5, 5))
EASY = puzzles("easy50.txt")[0]


# --- what is running -------------------------------------------------------------------------------


def _stat(pid: int | str) -> list[str]:
    """The fields of /proc/PID/stat after the command name: state, parent, ..."""
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rpartition(")")[2].split()


def _pids() -> Iterator[str]:
    return (entry for entry in os.listdir("/proc") if entry.isdigit())


def children() -> set[int]:
    """This process's children that are running (a zombie, ended but not reaped, is not)."""
    me, found = str(os.getpid()), set()
    for pid in _pids():
        try:
            state, parent = _stat(pid)[:2]
        except OSError:
            continue  # ended meanwhile
        if parent == me and state != "Z":
            found.add(int(pid))
    return found


def marked(marker: str) -> set[int]:
    """Running processes whose environment holds ``SUDOKIT_TEST_MARK=marker``: a command and all it started."""
    needle, found = f"SUDOKIT_TEST_MARK={marker}".encode(), set()
    for pid in _pids():
        try:
            with open(f"/proc/{pid}/environ", "rb") as environ:
                if needle in environ.read().split(b"\0") and _stat(pid)[0] != "Z":
                    found.add(int(pid))
        except OSError:
            continue
    return found


def with_cmdline(text: str) -> set[int]:
    """Running processes whose command line contains ``text`` (this one excepted)."""
    needle, found = text.encode(), set()
    for pid in _pids():
        if int(pid) == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                if needle in cmdline.read() and _stat(pid)[0] != "Z":
                    found.add(int(pid))
        except OSError:
            continue
    return found


def settle(check, seconds: float = 30.0) -> None:  # type: ignore[no-untyped-def]
    """Wait until ``check()`` is true (ended processes take a moment to be reaped), then assert it."""
    deadline = time.monotonic() + seconds
    while not check() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert check()


def marker_env() -> tuple[str, dict[str, str]]:
    """A fresh marker and the environment that carries it to a command and every process it starts."""
    marker = uuid.uuid4().hex
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "PYTHONWARNINGS")}
    return marker, {**env, "NO_COLOR": "1", "SUDOKIT_TEST_MARK": marker}


# --- one call ----------------------------------------------------------------------------------------


def box(name: str) -> Grid:
    return sized(name)[0][0]


CASES = [
    pytest.param("backtrack", {}, EMPTY_16, NEVER_ENDS, 0.2, id="backtrack-count-empty16"),
    pytest.param("backtrack", {"order": "plain"}, EMPTY_9, NEVER_ENDS, 0.2, id="backtrack-plain-count-empty9"),
    pytest.param("backtrack", {}, "5x5", 1, 0.2, id="backtrack-solve-25x25"),
    pytest.param("cp-sat", {}, EMPTY_25, NEVER_ENDS, 0.3, id="cp-sat-count-empty25"),
    pytest.param("cp-sat", {}, EMPTY_25, NEVER_ENDS, 1.0, id="cp-sat-count-empty25-1s"),
    pytest.param("cp-sat", {}, "5x5", 1, 0.3, id="cp-sat-solve-25x25"),
    pytest.param("python-constraint", {}, EMPTY_25, NEVER_ENDS, 0.3, id="csp-count-empty25"),
    pytest.param("python-constraint", {}, "5x5", 1, 0.3, id="csp-solve-25x25"),
    pytest.param("sat", {}, EMPTY_25, NEVER_ENDS, 0.3, id="sat-count-empty25"),
    pytest.param("sat", {"solver": "minisat22"}, EMPTY_25, NEVER_ENDS, 0.3, id="sat-minisat-count-empty25"),
    pytest.param("sat", {}, "5x5", 1, 0.3, id="sat-solve-25x25"),
]


@pytest.mark.parametrize(("engine", "options", "puzzle", "limit", "time_limit"), CASES)
def test_an_unfinishable_search_times_out_in_time_and_leaves_nothing_running(
    engine: str, options: dict[str, str], puzzle: Grid | str, limit: int, time_limit: float
) -> None:
    grid = box(puzzle) if isinstance(puzzle, str) else puzzle
    solve(EASY, engine, time_limit=10, **options)  # loads the engine (OR-Tools takes a second to import)
    stop_workers()  # python-constraint's idle worker, kept for reuse, is not this test's to count
    threads, processes = set(threading.enumerate()), children()

    with spent() as took:
        result = solve(grid, engine, limit=limit, time_limit=time_limit, **options)

    assert result.status is Status.TIMEOUT, (result.status, result.error)
    # CPU time, which a busy machine does not stretch (every engine searches in one thread here); the wall
    # time only as a hang guard.
    assert took.cpu < time_limit + MARGIN and took.wall < hang_guard(time_limit), took
    assert result.elapsed <= took.wall
    assert not result.exact and result.count == len(result.solutions) < limit
    assert all(is_solution(grid, s) for s in result.solutions)
    settle(lambda: set(threading.enumerate()) == threads)
    assert multiprocessing.active_children() == []
    settle(lambda: children() <= processes)


def test_the_watchdog_lets_every_engine_keep_its_own_limit() -> None:
    """The core's watchdog fires only well past a limit: engines that keep theirs never meet it."""
    assert watchdog_seconds(0.2) > 0.2 + MARGIN - 1
    engines = (("backtrack", EMPTY_16), ("cp-sat", EMPTY_25), ("python-constraint", EMPTY_25), ("sat", EMPTY_25))
    for engine, grid in engines:
        result = solve(grid, engine, limit=NEVER_ENDS, time_limit=0.2)
        assert result.status is Status.TIMEOUT and result.error is None, (engine, result.error)


def test_python_constraint_kills_its_worker_at_the_limit() -> None:
    stop_workers()
    before = children()
    solve(EMPTY_25, "python-constraint", limit=NEVER_ENDS, time_limit=0.3)
    settle(lambda: children() <= before)
    # The next call starts a fresh worker and answers.
    result = solve(EASY, "python-constraint", time_limit=10)
    assert result.status is Status.SOLVED and is_solution(result.puzzle, result.solution)


# --- a batch goes on -------------------------------------------------------------------------------


UNFINISHABLE = {
    "backtrack": sized("5x5")[0][0].to_line(),  # backtrack: more than 10 s
    "cp-sat": sized("5x5")[0][0].to_line(),  # cp-sat: 3-5 s
    "python-constraint": sized("5x5")[0][0].to_line(),  # python-constraint: more than 60 s
    "sat": sized("5x5")[0][0].to_line(),  # sat: 2.5-3.5 s
}


def sudoku(args: Iterable[str], env: dict[str, str], timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sudokit", *args], capture_output=True, text=True, timeout=timeout, env=env
    )


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("engine", ["backtrack", "cp-sat", "python-constraint", "sat"])
def test_a_batch_goes_on_after_a_timeout(tmp_path: Path, engine: str, jobs: str) -> None:
    path = tmp_path / "batch.txt"
    lines = [UNFINISHABLE[engine], EASY, UNFINISHABLE[engine], puzzles("easy50.txt")[1]]
    path.write_text("\n".join(lines) + "\n")
    marker, env = marker_env()
    start = time.perf_counter()
    # 1 s: the unfinishable puzzles take 3 s and more; the easy ones well under it. python-constraint 3 s: after a
    # timeout its worker is killed, and the next puzzle's limit includes starting one, a second on a busy machine.
    limit = "3" if engine == "python-constraint" else "1"
    done = sudoku(["solve", str(path), "-s", engine, "-t", limit, "-f", "json", "--jobs", jobs], env, timeout=120)
    took = time.perf_counter() - start
    assert "Traceback" not in done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["status"] for r in records] == ["timeout", "solved", "timeout", "solved"], done.stderr
    assert [r["line"] for r in records] == [1, 2, 3, 4]
    assert done.returncode == 1
    for record, line in zip(records, lines, strict=True):
        assert record["strategy"] == engine and record["error"] is None
        if record["status"] == "solved":
            assert is_solution(Grid.parse(line), Grid.parse(record["solution"]))
    assert took < 60, f"{took:.1f} s for two timeouts of {limit} s"  # start-up included; only a hang fails this
    settle(lambda: not marked(marker))


@pytest.mark.parametrize("engine", ["backtrack", "cp-sat", "python-constraint", "sat"])
def test_count_of_an_empty_board_in_a_batch_times_out(tmp_path: Path, engine: str) -> None:
    path = tmp_path / "count.txt"
    path.write_text(f"{EMPTY_25.to_line()}\n{EASY}\n")
    marker, env = marker_env()
    # python-constraint 3 s, as above: the easy puzzle's limit includes starting a worker in place of the one killed.
    limit = "3" if engine == "python-constraint" else "1"
    args = ["solve", str(path), "-s", engine, "-t", limit, "--count", "--limit", str(NEVER_ENDS), "-f", "line"]
    done = sudoku([*args, "--jobs", "1"], env)
    assert "Traceback" not in done.stderr
    answers = [line.split(":", 1)[1] for line in done.stdout.splitlines()]  # timeout:N+ keeps the count found
    counted = answers[0].removeprefix("timeout:")
    assert counted != answers[0] and counted[:-1].isdigit() and counted[-1] == "+", done.stdout
    assert answers[1:] == ["1"], done.stderr
    assert done.returncode == 1
    settle(lambda: not marked(marker))
