"""Engines run in killable worker processes: whatever an engine does, the command and the batch go on.

An engine that ends its process (``os._exit``, a segfault, SIGKILL from inside or outside), one that
cannot be stopped in process (a bare ``except:`` around its loop, a cleared timer, a long C call),
one whose import hangs or ends the process, one that prints, reads stdin, leaves a thread behind or
raises KeyboardInterrupt: each costs its own puzzle an ``error`` record (or its engine a one-line
error), never the run, the other records or a process left behind.

The engines are test doubles (tests/plugins/killers.py, hostile.py), registered in an in-process
registry for CLI runs in this process, and through a real ``*.dist-info/entry_points.txt`` on
``PYTHONPATH`` for runs of the real command in a subprocess.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

import sudokit.engines.registry
from sudokit import Grid, is_solution
from sudokit.engines.api import watchdog_seconds
from sudokit.engines.registry import ENTRY_POINT_GROUP, Registry
from sudokit.engines.watchdog import KILL_GRACE
from sudokit.engines.workers import WorkerPool, max_jobs
from tests.conftest import ROOT, puzzles, sudoku

from .test_time_limits import marked, marker_env, settle
from .timing import cpu_of, hang_guard

pytestmark = pytest.mark.filterwarnings("ignore::sudokit.engines.registry.StrategyWarning")

KILLERS = "tests.plugins.killers"
HOSTILE = "tests.plugins.hostile"
PLUGINS = {
    "exits-process": f"{KILLERS}:ExitsProcess",
    "segfaults": f"{KILLERS}:Segfaults",
    "kills-itself": f"{KILLERS}:KillsItself",
    "swallows-everything": f"{KILLERS}:SwallowsEverything",
    "long-c-call": f"{KILLERS}:LongCCall",
    "prints": f"{KILLERS}:Prints",
    "starts-a-thread": f"{KILLERS}:StartsAThread",
    "reads-stdin": f"{KILLERS}:ReadsStdin",
    "clears-the-timer": f"{KILLERS}:ClearsTheTimerForever",
    "forks-then-exits": f"{KILLERS}:ForksThenExits",
    "leaves-a-child": f"{KILLERS}:LeavesAChild",
    "raises-keyboard-interrupt": f"{HOSTILE}:RaisesKeyboardInterrupt",
    "odd-stats": f"{HOSTILE}:OddStats",
    "hangs-on-import": "tests.plugins.hangs_on_import:Engine",
    "exits-on-import": "tests.plugins.exits_on_import:Engine",
    "backtrack": "sudokit_strategies.backtrack:BacktrackStrategy",
}
#: The first cell of these is blank (the killers misbehave on them); of the others it is a given.
BLANK_FIRST = [p for p in puzzles("easy50.txt") if p[0] in ".0"][:3]
GIVEN_FIRST = [p for p in puzzles("easy50.txt") + puzzles("top95.txt") if p[0] not in ".0"][:3]
#: How long a puzzle of an engine that cannot be stopped in process runs, at a time limit of 0.3 s.
KILLED_AFTER = watchdog_seconds(0.3) + KILL_GRACE


@pytest.fixture(autouse=True)
def killers_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[Registry]:
    """The test doubles and the real backtrack, as the process's registry for one test."""
    registry = Registry(eps=[EntryPoint(name, value, ENTRY_POINT_GROUP) for name, value in PLUGINS.items()])
    monkeypatch.setattr(sudokit.engines.registry, "_default", registry)
    yield registry


@dataclass(frozen=True)
class Batch:
    path: Path
    puzzles: list[str]
    blank_first: list[bool]


@pytest.fixture
def mixed(tmp_path: Path) -> Batch:
    """Six puzzles, alternately with a blank and a given first cell."""
    texts = [p for pair in zip(BLANK_FIRST, GIVEN_FIRST, strict=True) for p in pair]
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(texts) + "\n")
    return Batch(path, texts, [t[0] in ".0" for t in texts])


def records(stdout: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in stdout.splitlines()]


def assert_solved(record: dict[str, object]) -> None:
    assert record["status"] == "solved", record
    assert is_solution(Grid.parse(str(record["puzzle"])), Grid.parse(str(record["solution"])))


# --- an engine that ends its process -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("engine", "how"),
    [
        ("exits-process", "its worker process ended (exit status 3)"),
        ("segfaults", "its worker process ended (killed by signal 11 (SIGSEGV))"),
        ("kills-itself", "its worker process ended (killed by signal 9 (SIGKILL))"),
    ],
)
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_engine_that_ends_its_process_costs_only_its_puzzle(mixed: Batch, engine: str, how: str, jobs: str) -> None:
    result = sudoku("solve", str(mixed.path), "-s", engine, "-f", "json", "-j", jobs)
    assert result.exit_code == 2, result.stderr
    found = records(result.stdout)
    assert [r["line"] for r in found] == [1, 2, 3, 4, 5, 6]
    for record, blank in zip(found, mixed.blank_first, strict=True):
        if blank:
            assert record["status"] == "error"
            assert record["error"] == f"strategy '{engine}' failed: {how}"
        else:
            assert_solved(record)
    errors = [line for line in result.stderr.splitlines() if line.startswith("sudoku: error:")]
    assert len(errors) == 3 and all(how in line for line in errors)
    assert "3 solved, 0 unsolvable, 0 timed out, 0 invalid, 3 engine errors" in result.stderr


def test_a_lone_puzzle_whose_engine_ends_the_process_is_an_error_not_a_crash() -> None:
    result = sudoku("solve", "-s", "exits-process", BLANK_FIRST[0])
    assert result.exit_code == 2
    assert (
        result.stderr.strip()
        == "sudoku: error: strategy 'exits-process' failed: its worker process ended (exit status 3)"
    )


def test_kill_9_of_a_worker_from_outside(tmp_path: Path) -> None:
    """A real batch, one of whose workers is killed with SIGKILL mid-puzzle: that puzzle gets an error record."""
    hard = puzzles("top95.txt")[0]  # the plain order takes seconds on it
    easy = puzzles("easy50.txt")[:4]
    path = tmp_path / "batch.txt"
    path.write_text("\n".join([easy[0], hard, *easy[1:]]) + "\n")
    marker, env = marker_env()
    args = [
        sys.executable,
        "-m",
        "sudokit",
        "solve",
        str(path),
        "-o",
        "order=plain",
        "-t",
        "60",
        "-f",
        "json",
        "-j",
        "1",
    ]
    with subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env) as proc:
        assert proc.stdout is not None
        first = proc.stdout.readline()  # the easy puzzle's record: the worker is on the hard one (seconds) now
        workers = marked(marker) - {proc.pid}  # not before: what ran while the worker started may be gone
        assert workers, "no worker process appeared"
        # On the hard puzzle once it has spent CPU time since (an idle worker killed is replaced, no error).
        began = {pid: cpu_of(pid) for pid in workers}
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any(cpu_of(pid) - began[pid] >= 0.3 for pid in workers):
            time.sleep(0.02)
        for pid in workers:
            os.kill(pid, signal.SIGKILL)
        stdout, stderr = proc.communicate(timeout=60)
        stdout = first + stdout
    assert proc.returncode == 2, stderr
    found = records(stdout)
    assert [r["line"] for r in found] == [1, 2, 3, 4, 5]
    assert found[1]["status"] == "error"
    assert found[1]["error"] == "strategy 'backtrack' failed: its worker process ended (killed by signal 9 (SIGKILL))"
    for record in found[:1] + found[2:]:
        assert_solved(record)
    assert "Traceback" not in stderr
    settle(lambda: not marked(marker))


# --- an engine that cannot be stopped in process --------------------------------------------------------


def test_engines_that_defeat_the_watchdog_are_killed_from_outside() -> None:
    """A bare except around the loop, a cleared timer, a long C call: each killed after its budget, in parallel."""
    engines = ["swallows-everything", "clears-the-timer", "long-c-call", "backtrack"]
    start = time.perf_counter()
    result = sudoku("check", "-s", ",".join(engines), "-t", "0.3", "-j", "3", "-f", "json", BLANK_FIRST[0])
    took = time.perf_counter() - start
    assert result.exit_code == 3, result.stderr
    report = json.loads(result.stdout)
    answers = {e["strategy"]: e for e in report["engines"]}
    for engine in engines[:3]:
        assert answers[engine]["status"] == "error", answers[engine]
        problem = str(answers[engine]["problem"])
        assert problem.startswith(f"engine '{engine}' failed: still running after "), problem
        assert problem.endswith("s: its worker process was killed (time limit 0.3 s)"), problem
    assert answers["backtrack"]["verdict"] == "ok"
    assert took < hang_guard(2 * KILLED_AFTER), f"{took:.1f} s"  # three side by side on three workers (two cores)


def test_solve_kills_an_engine_stuck_in_c_and_says_how_long_it_ran() -> None:
    start = time.perf_counter()
    result = sudoku("solve", "-s", "long-c-call", "-t", "0.3", "-f", "json", BLANK_FIRST[0])
    took = time.perf_counter() - start
    assert result.exit_code == 2
    [record] = records(result.stdout)
    error = str(record["error"])
    assert error.startswith("strategy 'long-c-call' failed: still running after "), error
    ran = float(error.split("still running after ")[1].split(" s")[0])
    assert KILLED_AFTER - 0.1 <= ran <= took, (ran, took)  # the message tells the time it really ran
    assert took < hang_guard(KILLED_AFTER)  # the long C call alone runs on for minutes


# --- other misbehaviour -------------------------------------------------------------------------------


def test_an_engines_print_goes_to_stderr_not_into_the_records(mixed: Batch) -> None:
    result = sudoku("solve", str(mixed.path), "-s", "prints", "-f", "line", "-j", "1")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 6
    for line, text in zip(lines, mixed.puzzles, strict=True):
        puzzle, _, solution = line.partition(":")
        assert is_solution(Grid.parse(puzzle), Grid.parse(solution)) and Grid.parse(puzzle) == Grid.parse(text)


def test_an_engine_reading_stdin_does_not_steal_the_puzzles(mixed: Batch) -> None:
    result = sudoku("solve", "-", "-s", "reads-stdin", "-f", "json", "-j", "1", input=mixed.path.read_text())
    assert result.exit_code == 0, result.stderr
    assert len(records(result.stdout)) == 6


def test_a_keyboard_interrupt_raised_by_an_engine_is_its_error_not_a_stop(mixed: Batch) -> None:
    result = sudoku("solve", str(mixed.path), "-s", "raises-keyboard-interrupt", "-f", "json", "-j", "2")
    assert result.exit_code == 2
    found = records(result.stdout)
    assert len(found) == 6 and all(r["status"] == "error" for r in found)
    assert "KeyboardInterrupt" in str(found[0]["error"])
    assert "interrupted" not in result.stderr


def test_odd_stats_still_give_strict_json(mixed: Batch) -> None:
    result = sudoku("solve", str(mixed.path), "-s", "odd-stats", "-f", "json", "-j", "1")
    for line in result.stdout.splitlines():
        json.loads(line, parse_constant=lambda name: pytest.fail(f"{name} in a json record"))


@pytest.mark.parametrize(
    ("engine", "why"),
    [
        ("exits-on-import", "its worker process ended (exit status 7)"),
        ("hangs-on-import", "did not load within 1 s: its worker process was killed"),
    ],
)
def test_a_plugin_whose_import_ends_or_hangs_is_a_one_line_error(
    monkeypatch: pytest.MonkeyPatch, engine: str, why: str
) -> None:
    monkeypatch.setenv("SUDOKIT_LOAD_TIMEOUT", "1")
    start = time.perf_counter()
    result = sudoku("solve", "-s", engine, BLANK_FIRST[0])
    assert result.exit_code == 2
    assert result.stderr.strip() == f"sudoku: error: {why}".replace(
        "error: ", f"error: strategy '{engine}' failed to load: ", 1
    )
    assert time.perf_counter() - start < hang_guard(1 + 1)  # the load timeout, a worker's start: a hang guard


def test_check_goes_on_without_an_engine_whose_import_ends_the_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SUDOKIT_LOAD_TIMEOUT", "1")
    result = sudoku("check", "-s", "backtrack,exits-on-import,hangs-on-import", "-f", "json", *GIVEN_FIRST[:2])
    assert result.exit_code == 3
    reports = records(result.stdout)
    assert len(reports) == 2
    for report in reports:
        answers = {e["strategy"]: e for e in report["engines"]}
        assert answers["backtrack"]["verdict"] == "ok"
        assert "exit status 7" in str(answers["exits-on-import"]["problem"])
        assert "did not load within 1 s" in str(answers["hangs-on-import"]["problem"])


def test_strategies_load_reports_imports_that_hang_or_end_the_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SUDOKIT_LOAD_TIMEOUT", "1")
    result = sudoku("strategies", "--load", "-f", "json")
    assert result.exit_code == 0, result.stderr
    rows = {row["name"]: row for row in records(result.stdout)}
    assert set(rows) == set(PLUGINS)
    assert rows["exits-on-import"]["loaded"] is False and "exit status 7" in rows["exits-on-import"]["error"]
    assert rows["hangs-on-import"]["loaded"] is False and "did not load within 1 s" in rows["hangs-on-import"]["error"]
    assert rows["backtrack"]["loaded"] is True and rows["prints"]["loaded"] is True


# --- in a real process ----------------------------------------------------------------------------------


@pytest.fixture
def installed(tmp_path: Path) -> dict[str, str]:
    """An environment whose Python finds the test doubles as installed engines (a dist-info on PYTHONPATH)."""
    site = tmp_path / "site"
    info = site / "sudokit_test_killers-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sudokit-test-killers\nVersion: 1.0\n")
    entries = "\n".join(f"{name} = {value}" for name, value in PLUGINS.items() if name != "backtrack")
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{entries}\n")
    return {**os.environ, "PYTHONPATH": f"{site}{os.pathsep}{ROOT}", "NO_COLOR": "1"}


def test_a_thread_left_running_by_an_engine_does_not_keep_the_command_alive(
    installed: dict[str, str], mixed: Batch
) -> None:
    args = [sys.executable, "-m", "sudokit", "solve", str(mixed.path), "-s", "starts-a-thread", "-f", "line", "-j", "2"]
    done = subprocess.run(args, capture_output=True, text=True, env=installed, timeout=60)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 6


def test_the_real_command_survives_a_segfaulting_engine(installed: dict[str, str], mixed: Batch) -> None:
    args = [sys.executable, "-m", "sudokit", "solve", str(mixed.path), "-s", "segfaults", "-f", "json", "-j", "1"]
    done = subprocess.run(args, capture_output=True, text=True, env=installed, timeout=60)
    assert done.returncode == 2, done.stderr
    assert [r["status"] for r in records(done.stdout)] == ["error", "solved"] * 3


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("limit", ["0", "20"])
def test_an_engine_that_forks_then_ends_its_process_costs_only_its_puzzle(
    installed: dict[str, str], mixed: Batch, tmp_path: Path, limit: str
) -> None:
    """Its child holds the results pipe open: the worker's end is seen all the same, at once, and the child is killed.

    Before: with -t 0 the batch waited for ever; with a limit each such puzzle waited its whole budget and
    was said to be "still running"."""
    children = tmp_path / "children"
    env = {**installed, "SUDOKIT_TEST_CHILDREN": str(children)}
    args = [sys.executable, "-m", "sudokit", "solve", str(mixed.path), "-s", "forks-then-exits", "-f", "json"]
    try:
        done = subprocess.run([*args, "-t", limit], capture_output=True, text=True, env=env, timeout=60)
        assert done.returncode == 2, done.stderr
        found = records(done.stdout)
        assert [r["status"] for r in found] == ["error", "solved"] * 3
        assert {r["error"] for r in found[::2]} == {
            "strategy 'forks-then-exits' failed: its worker process ended (exit status 3)"
        }
        pids = [int(line) for line in children.read_text().split()]
        assert len(pids) == 3
        settle(lambda: not any(_alive(pid) for pid in pids))  # nothing left behind
    finally:
        _kill_listed(children)


def _kill_listed(children: Path) -> None:
    """Kill the processes whose pids a test plugin wrote to ``children`` (whatever the test's outcome)."""
    for pid in [int(line) for line in children.read_text().split()] if children.exists() else []:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_processes_an_engine_forks_do_not_outlive_the_batch(
    installed: dict[str, str], mixed: Batch, tmp_path: Path, jobs: str
) -> None:
    children = tmp_path / "children"
    env = {**installed, "SUDOKIT_TEST_CHILDREN": str(children)}
    args = [sys.executable, "-m", "sudokit", "solve", str(mixed.path), "-s", "leaves-a-child", "-f", "json"]
    try:
        done = subprocess.run([*args, "-j", jobs], capture_output=True, text=True, env=env, timeout=60)
        assert done.returncode == 0, done.stderr
        assert [r["status"] for r in records(done.stdout)] == ["solved"] * 6
        pids = [int(line) for line in children.read_text().split()]
        assert len(pids) == 6
        settle(lambda: not any(_alive(pid) for pid in pids))
    finally:
        _kill_listed(children)


@pytest.mark.skipif(not hasattr(os, "openpty") or sys.platform != "linux", reason="needs a pseudo-terminal")
def test_an_engine_printing_to_a_terminal_that_stops_background_writers_is_not_stopped(
    installed: dict[str, str], mixed: Batch
) -> None:
    """Workers lead process groups of their own, not the terminal's foreground one: with ``stty tostop`` a
    stray print of theirs would stop them (SIGTTOU) were it not ignored; the command runs on a terminal."""
    import fcntl
    import termios

    master, slave = os.openpty()
    attrs = termios.tcgetattr(slave)
    attrs[3] |= termios.TOSTOP
    termios.tcsetattr(slave, termios.TCSANOW, attrs)
    args = [sys.executable, "-m", "sudokit", "solve", str(mixed.path), "-s", "prints", "-f", "line", "-t", "2"]
    process = subprocess.Popen(
        args,
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=installed,
        start_new_session=True,
        preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0),  # the terminal is its own, in the foreground
    )
    os.close(slave)
    output = b""
    try:
        while True:
            try:
                data = os.read(master, 1 << 16)
            except OSError:  # the terminal's last writer is gone
                break
            if not data:
                break
            output += data
        assert process.wait(timeout=60) == 0, output.decode(errors="replace")
    finally:
        os.close(master)
        if process.poll() is None:
            process.kill()
            process.wait()
    text = output.decode(errors="replace")
    assert text.count("chatter from the engine") == 6 and "error" not in text, text


# --- how many workers ----------------------------------------------------------------------------------


def test_jobs_beyond_four_per_core_are_capped_with_a_warning(mixed: Batch) -> None:
    result = sudoku("solve", str(mixed.path), "-j", "100000", "-f", "line", "-q")
    assert result.exit_code == 0
    assert result.stderr.strip() == f"sudoku: warning: --jobs 100000 is more than four per core: running {max_jobs()}"
    huge = sudoku("solve", str(mixed.path), "-j", str(10**30), "-f", "line", "-q")
    assert huge.exit_code == 0 and len(huge.stdout.splitlines()) == 6


@dataclass
class Square:
    budget: float | None = None

    def start(self, mark: object) -> object:
        return lambda x: x * x

    def failed(self, item: int, problem: str) -> int:
        return -1

    def load_failed(self, phase: int, problem: str) -> bool:
        return False


def test_no_more_workers_start_than_there_is_work() -> None:
    with WorkerPool(Square(), jobs=32) as pool:
        assert list(pool.map(range(3))) == [0, 1, 4]
        assert pool.spawned <= 3


def test_an_input_that_fails_midway_comes_after_the_results_before_it() -> None:
    def items() -> Iterator[int]:
        yield from range(5)
        raise OSError("the disk went away")

    with WorkerPool(Square(), jobs=2) as pool:
        results = []
        with pytest.raises(OSError, match="the disk went away"):
            for result in pool.map(items()):
                results.append(result)
    assert results == [0, 1, 4, 9, 16]


@dataclass
class Sleeps:
    """Item ``seconds``: sleeps that long and returns it."""

    budget: float | None = None

    def start(self, mark: object) -> object:
        return lambda seconds: time.sleep(seconds) or seconds

    def failed(self, item: float, problem: str) -> float:
        return -1.0

    def load_failed(self, phase: int, problem: str) -> bool:
        return False


def test_the_window_shrinking_under_a_slow_chunk_never_stalls_the_pool() -> None:
    """A fast item grows the chunks; a big chunk of slower items then shrinks them while one item waits its turn.

    Once shrunk, the window (items drawn but not yet given back) is smaller than what the big chunk
    returns at once: the waiting item must still be handed out, not wait for ever (as it once did).
    """
    items = [0.0] + [0.002] * 600
    previous = signal.signal(signal.SIGALRM, lambda *_: pytest.fail("the pool stalled"))
    signal.alarm(30)
    try:
        with WorkerPool(Sleeps(), jobs=1) as pool:
            assert list(pool.map(items)) == items
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_a_lone_failed_puzzle_is_said_once() -> None:
    """In the pretty form a lone puzzle's failure is one line on stderr, not repeated as its record."""
    result = sudoku("solve", "-s", "exits-process", BLANK_FIRST[0])
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1


@dataclass
class SlowAfterTheFirst:
    """The first worker to start loads at once; every later one takes 60 s (a second numba worker, say)."""

    marker: str
    budget: float | None = None

    def start(self, mark: object) -> object:
        try:
            os.close(os.open(self.marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            time.sleep(60)
        return lambda x: x * x

    def failed(self, item: int, problem: str) -> int:
        return -1

    def load_failed(self, phase: int, problem: str) -> bool:
        return False


def test_work_waits_for_a_ready_worker_not_for_one_still_loading(tmp_path: Path) -> None:
    """A ready worker takes the chunk of one still loading; one still loading when the work is done is killed.

    The pool once wrote a chunk to each new worker as it started: with --jobs 2 a short numba file
    waited for the second worker to load numba (1.3 s) while the first sat idle, then for up to 1 s
    more at the end, which made it slower than with --jobs 1 (0.73x).
    """
    previous = signal.signal(signal.SIGALRM, lambda *_: pytest.fail("the batch waited for the loading worker"))
    signal.alarm(40)  # the second worker would take 60 s: anything below tells, however busy the machine
    try:
        with WorkerPool(SlowAfterTheFirst(str(tmp_path / "first")), jobs=2) as pool:
            results = []
            for x in pool.map(range(400)):
                results.append(x)
                if x == 0:
                    time.sleep(0.3)  # time enough for the pool to start its second worker
            assert results == [x * x for x in range(400)]
            assert pool.spawned == 2
            start = time.monotonic()
        assert time.monotonic() - start < 10  # the second worker is killed, not waited for (it needs 60 s)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
