"""Workers without fork: the spawn and forkserver pools keep every promise of the fork pool.

Where fork is missing (Windows) or unsafe (macOS, after the threads OR-Tools and PySAT start) the
worker pool starts its workers by ``spawn``: a new interpreter that is sent the task by pickle. These
tests force each method on Linux (``SUDOKIT_START_METHOD``) and check what a user relies on: a hanging
engine killed at its time limit, a crashing one costing only its puzzle, one record per input in
order, Ctrl-C and SIGTERM ending the batch cleanly and ``--resume`` finishing it, the workers ending
with their parent (a socket they watch, not Linux's ``prctl``), and an engine object that cannot
travel to a spawned worker said in one line. The whole suites (isolation, time limits, interrupts,
batches) run again with spawn forced in CI (``.ci/run``); the watchdog without SIGALRM is here too.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import sudokit.engines.watchdog
from sudokit import Grid, Status, is_solution, solve
from sudokit.engines.registry import ENTRY_POINT_GROUP, Registry
from sudokit.engines.workers import START_METHODS, StartMethodError, WorkerPool, default_start_method, start_method
from sudokit.errors import StrategyError
from tests.conftest import PUZZLES, assert_complete_records, interrupt_batch, sudoku
from tests.plugins.hostile import NeverReturns

from .test_isolation import BLANK_FIRST as BLANK
from .test_isolation import GIVEN_FIRST as GIVEN
from .test_isolation import installed, killers_registry  # noqa: F401 - fixtures: the test doubles as engines
from .test_time_limits import marked, marker_env, settle
from .timing import cpu_of, hang_guard, spent

METHODS = ["spawn", "forkserver"]
LINUX = pytest.mark.skipif(sys.platform != "linux", reason="needs Linux /proc")
GIVEN_FIRST = GIVEN[0]
BLANK_FIRST = BLANK[0]


# --- choosing the start method ------------------------------------------------------------------------------


def test_the_start_method_is_the_platforms_unless_one_is_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SUDOKIT_START_METHOD", raising=False)
    expected = "spawn" if sys.platform in ("win32", "darwin") else "fork"
    assert default_start_method() == start_method() == expected
    for name in START_METHODS:
        monkeypatch.setenv("SUDOKIT_START_METHOD", f" {name.upper()} ")
        assert start_method() == name
        assert WorkerPool(NeverReturnsTask(), 1).method == name
    monkeypatch.setenv("SUDOKIT_START_METHOD", "vfork")
    with pytest.raises(StartMethodError, match=r"SUDOKIT_START_METHOD='vfork' is not a start method"):
        start_method()
    assert start_method("spawn") == "spawn"  # the argument wins over the environment


def test_an_unknown_start_method_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SUDOKIT_START_METHOD", "threads")
    result = sudoku("solve", "-s", "backtrack", "-t", "5", GIVEN_FIRST)
    assert result.exit_code == 2
    assert result.stderr == (
        "sudoku: error: SUDOKIT_START_METHOD='threads' is not a start method (say fork, spawn or forkserver)\n"
    )


class NeverReturnsTask:
    """A task that is never started (the pool above is only asked its method)."""

    budget = None

    def start(self, mark: Any) -> Any:
        raise AssertionError("not started")

    def failed(self, item: Any, problem: str) -> Any:
        return problem

    def load_failed(self, phase: int, problem: str) -> bool:
        return False


# --- the promises, under spawn and forkserver --------------------------------------------------------------


@pytest.mark.parametrize("method", METHODS)
def test_a_hanging_and_a_crashing_engine_cost_only_their_puzzles_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, method: str
) -> None:
    """long-c-call sits in C code past its limit (killed from outside), segfaults kills its worker: each on
    the puzzles with a blank first cell; the others are solved, one record per input, in order."""
    monkeypatch.setenv("SUDOKIT_START_METHOD", method)
    texts = [GIVEN_FIRST, BLANK_FIRST, GIVEN_FIRST, BLANK_FIRST]
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(texts) + "\n")
    for engine, problem in [
        ("long-c-call", "still running after "),
        ("segfaults", "its worker process ended (killed by signal 11 (SIGSEGV))"),
    ]:
        with spent() as cpu:
            result = sudoku("solve", str(path), "-s", engine, "-t", "0.2", "-j", "2", "-f", "json")
        assert result.exit_code == 2, result.stderr
        records = [json.loads(line) for line in result.stdout.splitlines()]
        assert [r["line"] for r in records] == [1, 2, 3, 4]
        for record, text in zip(records, texts, strict=True):
            if text[0] in ".0":
                assert record["status"] == "error", record
                assert str(record["error"]).startswith(f"strategy '{engine}' failed: "), record
                assert problem in str(record["error"]), record
            else:
                assert record["status"] == "solved", record
                assert is_solution(Grid.parse(text), Grid.parse(str(record["solution"])))
        assert "Traceback" not in result.stderr
        # Two C calls of minutes each, killed at about 3.4 s: far less CPU than letting them run.
        assert cpu.cpu < 30, cpu.cpu


@LINUX
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT-group", "SIGTERM"])
def test_ctrl_c_and_sigterm_end_a_spawned_batch_cleanly_and_resume_finishes_it(
    tmp_path: Path, sig: signal.Signals
) -> None:
    """A real batch with two spawned workers: Ctrl-C to its whole process group (workers too, some of them
    still starting) or SIGTERM to it: exit 130/143, complete records only, no process left; then --resume."""
    lines = (PUZZLES / "17clue.txt").read_text().splitlines()[:2000]
    source = tmp_path / "clues.txt"
    source.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.jsonl"
    marker, env = marker_env()
    env["SUDOKIT_START_METHOD"] = "spawn"
    args = [sys.executable, "-m", "sudokit", "solve", str(source), "--jobs", "2", "-f", "json", "--output", str(out)]
    group = sig == signal.SIGINT
    process = subprocess.Popen(
        args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env, start_new_session=group
    )
    stderr = interrupt_batch(process, out, sig, group=group, seconds=60)
    assert process.returncode == (130 if sig == signal.SIGINT else 143), stderr
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    assert stderr.startswith("sudoku: interrupted after "), stderr
    written = assert_complete_records(out)
    assert 0 < len(written) < len(lines)
    assert [r["line"] for r in written] == list(range(1, len(written) + 1))
    settle(lambda: not marked(marker), seconds=10)

    done = subprocess.run([*args, "--resume"], capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    records = assert_complete_records(out)
    assert [r["line"] for r in records] == list(range(1, len(lines) + 1))
    assert all(r["status"] == "solved" for r in records)
    settle(lambda: not marked(marker))


@LINUX
@pytest.mark.parametrize("method", METHODS)
def test_spawned_workers_end_when_their_parent_is_killed(
    tmp_path: Path,
    installed: dict[str, str],  # noqa: F811 - the fixture
    method: str,
) -> None:
    """``sudoku`` killed with SIGKILL (no handler runs) while its spawned workers sit in one C call: they end
    too (the kernel's death signal: a worker holding the interpreter's lock cannot run its lifeline thread)."""
    marker, env = marker_env()
    env.update(installed, SUDOKIT_TEST_MARK=marker, SUDOKIT_START_METHOD=method)
    path = tmp_path / "blank.txt"
    path.write_text(f"{BLANK_FIRST}\n{BLANK_FIRST}\n")
    args = [sys.executable, "-m", "sudokit", "solve", str(path), "-s", "long-c-call", "-j", "2", "-t", "600"]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)

    def in_the_engine() -> set[int]:  # workers well into their C call (a fork server, a tracker: idle)
        return {pid for pid in marked(marker) - {process.pid} if cpu_of(pid) >= 0.7}

    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and len(in_the_engine()) < 2:
            time.sleep(0.05)
        assert len(in_the_engine()) == 2, "the workers did not start"
        process.kill()
        process.wait()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    settle(lambda: not marked(marker), seconds=15)


@pytest.mark.parametrize("method", METHODS)
def test_a_worker_ends_when_its_lifeline_ends_though_its_parent_lives(method: str) -> None:
    """What ends a spawned worker on macOS and Windows (no prctl there): the end of the socket it watches.
    Here its parent lives on, so only that socket can end it."""
    with WorkerPool(_SolveTask(), 1, method=method) as pool:
        pool.start()
        [worker] = pool._workers.values()
        assert not worker.exited()
        assert pool._lifeline is not None
        pool._lifeline[0].close()  # as the end of the caller closes it
        worker.wait_exit(hang_guard(2))
        assert worker.exited()


class _SolveTask:
    """Solve one puzzle with backtrack (a task as the library's are, by name)."""

    budget = 10.0

    def start(self, mark: Any) -> Any:
        from sudokit.engines.api import get_strategy, run

        engine = get_strategy("backtrack")
        return lambda grid: run(engine, grid).status.value

    def failed(self, item: Any, problem: str) -> Any:
        return problem

    def load_failed(self, phase: int, problem: str) -> bool:
        return False


@pytest.mark.parametrize("method", METHODS)
def test_an_engine_object_that_does_not_pickle_is_said_in_one_line(method: str) -> None:
    """Under fork an engine object runs in the worker as it is; a spawned worker must be sent it."""
    engine = NeverReturns()
    engine.hook = lambda: None  # type: ignore[attr-defined]  # a lambda does not pickle
    with pytest.raises(StrategyError) as caught:
        WorkerPool(_EngineTask(engine), 1, method=method).start()
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"the engine cannot be sent to a worker process started by {method}: it does not pickle")
    with WorkerPool(_EngineTask(engine), 1, method="fork") as pool:  # forked, it runs as it is
        pool.start()
        assert list(pool.map([Grid.parse(GIVEN_FIRST)])) == ["solved"]


def test_a_registry_that_does_not_pickle_is_a_one_line_error_of_the_command(
    monkeypatch: pytest.MonkeyPatch,
    killers_registry: Registry,  # noqa: F811 - the fixture
) -> None:
    """An in-process registry is sent to spawned workers; one holding something that cannot travel: exit 2."""
    monkeypatch.setenv("SUDOKIT_START_METHOD", "spawn")
    killers_registry._given.append(_LocalEntryPoint())  # type: ignore[union-attr]
    result = sudoku("solve", "-s", "backtrack", "-t", "5", GIVEN_FIRST)
    assert result.exit_code == 2
    [line] = result.stderr.splitlines()
    assert line.startswith("sudoku: error: the engine cannot be sent to a worker process started by spawn: "), line


class _LocalEntryPoint:
    """An entry point made in the caller (it holds a lambda): nothing a spawned worker can be sent."""

    name = "local"
    value = "local:Engine"
    group = ENTRY_POINT_GROUP

    def __init__(self) -> None:
        self.load = lambda: NeverReturns


class _EngineTask(_SolveTask):
    def __init__(self, engine: object) -> None:
        self.engine = engine


# --- the watchdog without SIGALRM (Windows) ---------------------------------------------------------------


def test_without_sigalrm_a_thread_stops_an_engine_that_ignores_its_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sudokit.engines.watchdog, "_HAS_TIMER", False)
    with spent() as cpu:
        result = solve(GIVEN_FIRST, NeverReturns(), time_limit=0.1)
    assert result.status is Status.ERROR
    assert "past its time limit of 0.1 s: stopped" in str(result.error), result.error
    assert cpu.cpu < 10, cpu.cpu  # the loop runs for ever unless stopped
    # A call that ends in time leaves no raise behind: nothing lands after its deadline.
    solved = solve(GIVEN_FIRST, "backtrack", time_limit=0.05)
    assert solved.status is Status.SOLVED
    time.sleep(sudokit.engines.watchdog.watchdog_seconds(0.05) + 0.5)
