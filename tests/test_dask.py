"""``--executor dask``: batches on a real Dask cluster (a ``LocalCluster`` of two worker processes).

The records must be those of the local path (timings aside), in input order, resumable; a worker
killed mid-run loses no record and doubles none; Ctrl-C leaves the cluster usable; bad usage and an
unreachable scheduler are one-line errors with exit status 2.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sudokit import Grid, Result, get_strategy
from sudokit.io.reader import read_arguments
from sudokit.runtime import executors
from sudokit.runtime.batch import SolveJob
from sudokit.runtime.executors import DaskPool, ExecutorError
from sudokit.runtime.output import RecordFormat

from .conftest import PUZZLES, sudoku, wait_for_records

try:
    import dask
    import distributed
except ImportError:  # the refusals are tested all the same; the cluster's tests need the extra
    distributed = None

#: How long a wait for the cluster may last (a worker's restart, a cancelled task's removal): a hang guard.
BUSY_WAIT = 120

COUNT = 600  # 17-clue puzzles: a few tenths of a second of backtrack on two workers


def needs_dask() -> None:
    if distributed is None:
        pytest.skip("needs the extra sudokit[dask]")


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A cluster of two single-threaded worker processes; its scheduler's address.

    On a busy machine a worker's (re)start, which imports Dask and sudokit, may take longer than Dask's 30 s
    to connect: the workers and their nannies get 120 s (the waits below return as soon as they are up).
    """
    needs_dask()
    with dask.config.set({"distributed.comm.timeouts.connect": f"{BUSY_WAIT}s"}):  # the nannies keep it
        local = distributed.LocalCluster(
            n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0", silence_logs=50
        )
    with local:
        yield local.scheduler_address


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Hard puzzles, then many easy ones, with a bad line among them: chunks end out of order."""
    lines = (PUZZLES / "top95.txt").read_text().splitlines()[:20]
    lines += (PUZZLES / "17clue.txt").read_text().splitlines()[:COUNT]
    lines.insert(30, "not a puzzle")
    path = tmp_path_factory.mktemp("dask") / "mixed.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="module")
def local_line(mixed: Path) -> tuple[int, str]:
    """The local path's exit status and line records of the mixed file (two worker processes)."""
    local = sudoku("solve", str(mixed), "-f", "line", "-j", "2")
    return local.exit_code, local.stdout


def without_timings(text: str) -> str:
    """A batch's records with every timing taken out (csv's elapsed column, check's ``/12.3ms``)."""
    out = []
    for line in text.splitlines():
        if line.startswith("{"):
            out.append(json.dumps(_drop_elapsed(json.loads(line)), sort_keys=True))
        else:
            line = re.sub(r"/[0-9.]+ms\b", "/ms", line)
            out.append(re.sub(r",[0-9]+\.[0-9]+,", ",T,", line))  # csv: the elapsed column
    return "\n".join(out)


def _drop_elapsed(value: object) -> object:
    if isinstance(value, dict):
        return {k: _drop_elapsed(v) for k, v in value.items() if k not in ("elapsed_ms", "elapsed")}
    if isinstance(value, list):
        return [_drop_elapsed(v) for v in value]
    return value


def dask_args(address: str) -> list[str]:
    return ["--executor", "dask", "--scheduler", address]


# --- the same records as the local path ----------------------------------------------------------


def test_solve_writes_the_records_of_the_local_path(cluster: str, mixed: Path, local_line: tuple[int, str]) -> None:
    remote = sudoku("solve", str(mixed), "-f", "line", *dask_args(cluster))
    assert remote.exit_code == local_line[0] == 2  # the bad line
    assert remote.stdout == local_line[1]  # byte for byte, in input order
    assert remote.stdout.count("\n") == COUNT + 21
    assert "mixed.txt:31" in remote.stderr and "invalid" in remote.stderr.splitlines()[-1]


def test_the_batch_path_of_a_compiled_engine_runs_on_the_cluster(
    cluster: str, mixed: Path, local_line: tuple[int, str]
) -> None:
    pytest.importorskip("numba")
    job = SolveJob("numba", {}, RecordFormat("line", limit=1), time_limit=60)
    assert job.blocks
    with DaskPool(job.task(), cluster) as pool:
        pool.start()
        assert pool.info == {"many": True}  # the engine, loaded on a worker, offers its batch method: blocks go
    remote = sudoku("solve", str(mixed), "-s", "numba", "-f", "line", *dask_args(cluster))
    assert remote.exit_code == local_line[0], remote.stderr
    assert remote.stdout == local_line[1]  # backtrack's records, locally: the puzzles have one solution each


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_csv_and_json_match_the_local_path_but_for_timings(cluster: str, mixed: Path, fmt: str) -> None:
    count = ["--count"] if fmt == "csv" else []
    local = sudoku("solve", str(mixed), "-f", fmt, *count, "-j", "2")
    remote = sudoku("solve", str(mixed), "-f", fmt, *count, *dask_args(cluster))
    assert remote.exit_code == local.exit_code
    assert remote.stdout.count("\n") == local.stdout.count("\n") == COUNT + 21 + (fmt == "csv")
    assert without_timings(remote.stdout) == without_timings(local.stdout)
    assert remote.stdout != local.stdout or fmt == "json"  # the timings do differ: the comparison is not empty


def test_check_matches_the_local_path(cluster: str) -> None:
    file = str(PUZZLES / "top95.txt")
    local = sudoku("check", file, "-s", "backtrack,sat", "-f", "line", "-j", "2")
    remote = sudoku("check", file, "-s", "backtrack,sat", "-f", "line", *dask_args(cluster))
    assert remote.exit_code == local.exit_code == 0, remote.stderr
    assert without_timings(remote.stdout) == without_timings(local.stdout)
    assert remote.stdout.count("\n") == 95
    assert "95 agreed" in remote.stderr


def test_resume_continues_a_cut_output_file(
    cluster: str, mixed: Path, local_line: tuple[int, str], tmp_path: Path
) -> None:
    whole = local_line[1]
    out = tmp_path / "out.txt"
    lines = whole.splitlines(keepends=True)
    out.write_text("".join(lines[:300]) + lines[300][:40])  # cut mid-record, as a kill leaves it
    resumed = sudoku("solve", str(mixed), "-f", "line", "-O", str(out), "--resume", *dask_args(cluster))
    assert resumed.exit_code == 0, resumed.stderr  # as locally: the bad line is among the 300 already written
    assert "resumed after 300 already written" in resumed.stderr
    assert out.read_text() == whole


# --- the pool itself -------------------------------------------------------------------------------


def solve_job() -> SolveJob:
    return SolveJob("backtrack", {}, RecordFormat("line", limit=1), time_limit=60)


def test_a_worker_killed_mid_run_loses_no_record(cluster: str, mixed: Path, local_line: tuple[int, str]) -> None:
    job = solve_job()
    expected = local_line[1].splitlines()
    killed: list[str] = []  # the chunk (task key) whose worker was killed while it ran there

    def kill_a_busy_worker(client: distributed.Client, pids: dict[str, int]) -> None:
        deadline = time.monotonic() + BUSY_WAIT
        while time.monotonic() < deadline:
            for address, keys in client.processing().items():
                chunks = [key for key in keys if str(key).startswith("sudokit-chunk-")]
                if chunks and len(got) >= 20:  # records are coming, and this worker is on a chunk: kill it
                    os.kill(pids[address], signal.SIGKILL)
                    killed.append(str(chunks[0]))
                    return
            time.sleep(0.005)

    with distributed.Client(cluster, set_as_default=False) as client:
        pids = client.run(os.getpid)
        got: list[str] = []
        killer = threading.Thread(target=kill_a_busy_worker, args=(client, pids))
        with DaskPool(job.task(), cluster) as pool:
            for rendered in pool.map(job.items(read_arguments([str(mixed)]))):
                got.append(rendered.text)
                if len(got) == 1:
                    killer.start()
        killer.join()
        assert killed, "no worker was caught running a chunk"
        assert got == expected  # every record once, in order: the lost chunk was run again
        client.wait_for_workers(2, timeout=BUSY_WAIT)  # the nanny brought the killed worker back
        assert len(set(client.run(os.getpid).values()) - set(pids.values())) == 1


def test_an_item_that_kills_every_worker_it_runs_on_fails_alone(cluster: str) -> None:
    from tests.plugins.killers import ExitsProcess  # os._exit(3) on a puzzle whose first cell is blank

    lines = [line for line in (PUZZLES / "top95.txt").read_text().splitlines() if line[0] != "."][:6]
    lines.insert(2, "." + lines[0][1:])  # the one whose first cell is blank
    job = SolveJob(ExitsProcess(), {}, RecordFormat("line", limit=1), time_limit=60)
    with distributed.Client(cluster, set_as_default=False) as client:
        client.run_on_scheduler(_allow_failures, 0)  # the first death of a task is its last: fewer restarts
        try:
            with DaskPool(job.task(), cluster) as pool:
                records = [r.text for r in pool.map(job.items(read_arguments(lines)))]
                assert pool.split >= 1  # its chunk (and any other that died with it), item by item
        finally:
            client.run_on_scheduler(_allow_failures, 3)
        # The cluster back as the next tests need it: its nannies restart the two killed workers, which took
        # more than BUSY_WAIT with both cores kept busy (load 6); a guard against a cluster that never recovers.
        client.wait_for_workers(2, timeout=5 * BUSY_WAIT)
    assert [r.split(":")[0] for r in records] == lines
    assert [":error" in r for r in records] == [False, False, True, False, False, False, False]


def test_a_cluster_left_without_workers_ends_the_run_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its only worker closed while an item runs there: the item waits for a worker that never comes.

    The run stops with an ``ExecutorError`` (one line, which the CLI prints as ``sudoku: error: ...``,
    exit 2) once the cluster has had no worker for ``NO_WORKERS_TIMEOUT`` seconds, instead of for ever.
    """
    needs_dask()
    from tests.plugins.killers import HoldsItsWorker  # sleeps up to 120 s on a puzzle whose first cell is blank

    monkeypatch.setattr(executors, "NO_WORKERS_TIMEOUT", 2.0)
    easy = [line for line in (PUZZLES / "top95.txt").read_text().splitlines() if line[0] != "."][:3]
    lines = ["." + easy[0][1:], *easy]  # the first chunk (one item) holds the worker
    job = SolveJob(HoldsItsWorker(), {}, RecordFormat("line", limit=1), time_limit=60)
    outcome: dict[str, object] = {}
    with dask.config.set({"distributed.comm.timeouts.connect": f"{BUSY_WAIT}s"}):
        local = distributed.LocalCluster(
            n_workers=1, processes=True, threads_per_worker=1, dashboard_address=":0", silence_logs=50
        )
    with local, distributed.Client(local.scheduler_address, set_as_default=False) as client:
        address = local.scheduler_address

        def run() -> None:
            try:
                with DaskPool(job.task(), address) as pool:
                    outcome["records"] = [r.text for r in pool.map(job.items(read_arguments(lines)))]
            except Exception as err:
                outcome["error"] = err

        runner = threading.Thread(target=run, daemon=True)  # a hang must not hold the test session
        runner.start()
        deadline = time.monotonic() + BUSY_WAIT
        while time.monotonic() < deadline and not any(
            str(key).startswith("sudokit-chunk-") for keys in client.processing().values() for key in keys
        ):
            time.sleep(0.01)
        local.scale(0)  # the only worker goes, and no nanny brings it back
        runner.join(BUSY_WAIT)
        assert not runner.is_alive(), "the run still waits for a worker"
        assert client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.workers)) == 0
    error = outcome.get("error")
    assert isinstance(error, ExecutorError), outcome
    assert str(error) == f"the Dask cluster at {address} has no workers left (none for 2 s while items waited to run)"
    assert "records" not in outcome


def _allow_failures(count: int, dask_scheduler: distributed.Scheduler) -> None:
    dask_scheduler.allowed_failures = count


class IgnoresItsLimit:
    """Loops in Python for 10 s on a puzzle whose first cell is 0, whatever its time limit; then backtrack."""

    name = "ignores-its-limit"
    description = "a test double: loops past its time limit"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        began = time.monotonic()
        while puzzle.cells[0] == 0 and time.monotonic() - began < 10:  # 10 s: past the budget, not forever
            time.sleep(0.01)
        result = get_strategy("backtrack").solve(puzzle, limit=limit, time_limit=time_limit)
        return Result(result.status, puzzle, self.name, result.solutions, result.count, result.exact)


def test_an_engine_that_ignores_its_time_limit_is_stopped_on_the_worker(cluster: str) -> None:
    lines = [(PUZZLES / "leetcode37.txt").read_text().strip(), "0" + "." * 80, "." * 80 + "1"]
    lines = [lines[0], lines[1], lines[0]]
    job = SolveJob(IgnoresItsLimit(), {}, RecordFormat("json", limit=1), time_limit=0.5)
    began = time.monotonic()
    with DaskPool(job.task(), cluster) as pool:
        records = [json.loads(r.text) for r in pool.map(job.items(read_arguments(lines)))]
    took = time.monotonic() - began
    assert [r["status"] for r in records] == ["solved", "error", "solved"]
    assert "stopped by the watchdog of its Dask worker" in records[1]["error"]
    assert "past its time limit of 0.5 s" in records[1]["error"]
    assert took < BUSY_WAIT  # the budget (0.5 s * 1.1 + 2 s + 1 s), not forever: a hang guard


def test_ctrl_c_cancels_the_run_and_leaves_the_cluster_usable(cluster: str, tmp_path: Path) -> None:
    lines = (PUZZLES / "17clue.txt").read_text().splitlines()[:20000]
    big = tmp_path / "big.txt"
    big.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.txt"
    command = [sys.executable, "-m", "sudokit", "solve", str(big), "-f", "line", "-O", str(out), *dask_args(cluster)]
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_for_records(out, process, least=50)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=BUSY_WAIT)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, err
    assert b"interrupted after" in err and b"--resume" in err and b"Traceback" not in err
    written = out.read_text()
    assert written.endswith("\n") and 50 <= written.count("\n") < 20000
    with distributed.Client(cluster, set_as_default=False) as client:
        deadline = time.monotonic() + BUSY_WAIT  # what was cancelled is gone from the scheduler
        while client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)) == 0
    again = sudoku("solve", str(PUZZLES / "top95.txt"), "-f", "line", "-q", *dask_args(cluster))
    assert again.exit_code == 0 and again.stdout.count("\n") == 95


# --- usage -------------------------------------------------------------------------------------------


def test_an_unreachable_scheduler_is_a_one_line_error(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    needs_dask()
    monkeypatch.setenv("SUDOKIT_DASK_TIMEOUT", "1")
    began = time.monotonic()
    result = sudoku("solve", str(PUZZLES / "top95.txt"), *dask_args("tcp://127.0.0.1:9"))
    assert time.monotonic() - began < 10
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("sudoku: error: cannot connect to the Dask scheduler at tcp://127.0.0.1:9")
    assert capfd.readouterr() == ("", "")  # and nothing else, from Dask's loggers or anywhere


@contextlib.contextmanager
def fake_scheduler(answer: bytes | None) -> Iterator[str]:
    """A real socket on 127.0.0.1 that accepts connections and never answers (``answer`` None) or
    answers ``answer`` and then nothing; its address. None of it is Dask."""
    server = socket.create_server(("127.0.0.1", 0))
    accepted: list[socket.socket] = []

    def serve() -> None:
        with contextlib.suppress(OSError):
            while True:
                conn, _ = server.accept()
                accepted.append(conn)  # kept open: the client waits on it
                if answer is not None:
                    conn.sendall(answer)

    threading.Thread(target=serve, daemon=True).start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        server.close()
        for conn in accepted:
            conn.close()


def closed_port() -> str:
    """An address on 127.0.0.1 where nothing listens: connections are refused."""
    with socket.create_server(("127.0.0.1", 0)) as probe:
        return f"tcp://127.0.0.1:{probe.getsockname()[1]}"


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        (None, "it did not answer Dask's handshake within 1 s"),  # held Client() for ever
        (b"HTTP/1.1 400 Bad Request\r\n\r\n" * 4, "its answer is not Dask's"),  # a traceback, exit 1
        ("refused", "Timed out trying to connect"),
    ],
    ids=["silent", "not-dask", "refused"],
)
def test_a_scheduler_that_is_not_one_is_a_one_line_error_in_bounded_time(answer: bytes | str | None, why: str) -> None:
    needs_dask()
    env = {**os.environ, "SUDOKIT_DASK_TIMEOUT": "1"}
    with contextlib.ExitStack() as stack:
        address = closed_port() if answer == "refused" else stack.enter_context(fake_scheduler(answer))
        command = [sys.executable, "-m", "sudokit", "solve", str(PUZZLES / "leetcode37.txt"), *dask_args(address)]
        try:
            proc = subprocess.run(command, capture_output=True, text=True, timeout=60, env=env, check=False)
        except subprocess.TimeoutExpired:
            pytest.fail(f"sudoku still connecting to {address} after 60 s with a 1 s timeout")
    assert proc.returncode == 2 and proc.stdout == "", proc.stderr
    # one line, and nothing after it at exit (the half-made client's __del__ printed a TimeoutError traceback)
    [line] = proc.stderr.splitlines()
    assert line.startswith(f"sudoku: error: cannot connect to the Dask scheduler at {address}: {why}"), line


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--scheduler", "tcp://x:1"], "--scheduler is the Dask cluster's address: it goes with --executor dask"),
        (["--executor", "dask"], "--executor dask needs --scheduler ADDRESS"),
        (["--executor", "dask", "--scheduler", "tcp://x:1", "-j", "2"], "--jobs sets local worker processes"),
        (["--executor", "cloud"], "'cloud' is not one of 'local', 'dask'"),
    ],
)
@pytest.mark.parametrize("command", ["solve", "check"])
def test_executor_options_are_refused_where_they_cannot_work(command: str, args: list[str], message: str) -> None:
    result = sudoku(command, str(PUZZLES / "top95.txt"), *args)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and message in result.stderr, result.stderr


def test_without_the_extra_the_error_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed: ImportError
    result = sudoku("solve", str(PUZZLES / "top95.txt"), "--executor", "dask", "--scheduler", "tcp://x:1")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "pip install 'sudokit[dask]'" in result.stderr


@pytest.mark.parametrize("command", [["solve", "-s", "all"], ["check"]])
def test_check_and_solve_all_go_to_the_cluster_too(command: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    needs_dask()
    monkeypatch.setenv("SUDOKIT_DASK_TIMEOUT", "0.5")
    result = sudoku(*command, str(PUZZLES / "leetcode37.txt"), *dask_args("tcp://127.0.0.1:9"))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("sudoku: error: cannot connect to the Dask scheduler at tcp://127.0.0.1:9")
