"""Time limits and interruptions in process: a late answer is never ``solved``, Ctrl-C is the user's alone.

The misbehaving engines are test doubles (tests/plugins/hostile.py): one swallows the watchdog's raise
with a bare ``except:``, one swallows it once and runs on, one clears the timer, one holds the alarm off
as a long call into C does; others raise ``BaseException``s of their own. The watchdog fires only
``watchdog_seconds(limit)`` (2 s and more) after a call begins, so the tests here that meet it take
that long.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from sudokit import Grid, Status, is_solution, solve
from sudokit.engines.api import run, watchdog_seconds
from sudokit.engines.watchdog import WATCHDOG_REPEAT
from tests.plugins import hostile

from .conftest import puzzles

ROOT = Path(__file__).resolve().parent.parent
EASY = Grid.parse(puzzles("easy50.txt")[0])
LIMIT = 0.1
# Seconds of slack past the watchdog on a busy machine: it stops what it stops within a few ms of its time, but a
# loaded core may not run the process for a second and more. Still far below what an engine left alone runs (20 s+).
MARGIN = 5.0


def late(result_error: str | None, engine: str, verb: str) -> float:
    """The seconds a late-answer error reports, after checking its wording."""
    assert result_error is not None
    found = re.fullmatch(
        rf"strategy '{engine}' failed: {verb} after (\d+\.\d) s, past its time limit of {LIMIT:g} s(: stopped)?",
        result_error,
    )
    assert found, result_error
    return float(found.group(1))


@pytest.fixture(autouse=True)
def signals_left_as_found() -> object:
    """Every test leaves the process's Ctrl-C handler, SIGALRM handler and timer as it found them."""
    before = (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGALRM))
    yield
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGALRM)) == before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


# --- late answers -------------------------------------------------------------------------------------


def test_an_answer_after_the_watchdog_fired_is_an_error() -> None:
    start = time.perf_counter()
    result = solve(EASY, hostile.SwallowsTheWatchdog(), time_limit=LIMIT)  # type: ignore[arg-type]
    took = time.perf_counter() - start
    assert result.status is Status.ERROR and result.solutions == ()
    seconds = late(result.error, "swallows-the-watchdog", "returned")
    assert watchdog_seconds(LIMIT) - 0.05 <= seconds <= took and took < watchdog_seconds(LIMIT) + MARGIN


def test_the_watchdog_fires_again_until_the_engine_stops() -> None:
    start = time.perf_counter()
    result = solve(EASY, hostile.SwallowsTheWatchdogOnce(seconds=30), time_limit=LIMIT)  # type: ignore[arg-type]
    took = time.perf_counter() - start
    assert result.status is Status.ERROR
    seconds = late(result.error, "swallows-the-watchdog-once", "still running")
    assert watchdog_seconds(LIMIT) + WATCHDOG_REPEAT - 0.05 <= seconds <= took
    assert took < watchdog_seconds(LIMIT) + WATCHDOG_REPEAT + MARGIN, "not stopped by the second raise"


def test_an_engine_that_clears_the_timer_is_not_trusted_in_any_thread() -> None:
    """Cleared timer or none (a thread other than the main one has none): the answer's lateness decides."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        elsewhere = pool.submit(solve, EASY, hostile.ClearsTheTimer(), time_limit=LIMIT)
        here = solve(EASY, hostile.ClearsTheTimer(), time_limit=LIMIT)  # type: ignore[arg-type]
        there = elsewhere.result()
    for result in (here, there):
        assert result.status is Status.ERROR and result.solutions == ()
        assert late(result.error, "clears-the-timer", "returned") >= watchdog_seconds(LIMIT)


def test_the_real_time_is_reported_when_the_alarm_is_held_off() -> None:
    hold = 2.5  # past watchdog_seconds(LIMIT), 2.11 s: the raise lands when the hold ends, as after a call into C
    result = solve(EASY, hostile.HoldsTheAlarm(seconds=hold), time_limit=LIMIT)  # type: ignore[arg-type]
    assert result.status is Status.ERROR
    assert hold <= late(result.error, "holds-the-alarm", "still running") < hold + MARGIN


def test_an_engine_that_keeps_its_limit_never_meets_the_watchdog() -> None:
    result = solve(EASY, "backtrack", time_limit=LIMIT)
    assert result.status is Status.SOLVED and result.error is None


def test_another_timer_is_left_alone() -> None:
    fired: list[int] = []
    previous = signal.signal(signal.SIGALRM, lambda signum, frame: fired.append(signum))
    try:
        signal.setitimer(signal.ITIMER_REAL, 30.0)
        result = solve(EASY, "backtrack", time_limit=LIMIT)
        remaining = signal.setitimer(signal.ITIMER_REAL, 0)[0]
    finally:
        signal.signal(signal.SIGALRM, previous)
    assert result.status is Status.SOLVED
    assert 29 < remaining <= 30 and not fired


# --- huge limits ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ["backtrack", "cp-sat", "python-constraint", "sat"])
@pytest.mark.parametrize("time_limit", [1e10, 1e300, 10**400])
def test_a_huge_time_limit_works_in_every_engine(engine: str, time_limit: float) -> None:
    result = solve(EASY, engine, limit=2, time_limit=time_limit)
    assert (result.status, result.count, result.exact, result.error) == (Status.SOLVED, 1, True, None)
    assert is_solution(EASY, result.solution)


@pytest.mark.parametrize("engine", ["backtrack", "cp-sat", "python-constraint", "sat"])
def test_an_engine_called_directly_takes_a_huge_time_limit(engine: str) -> None:
    from sudokit import get_strategy

    result = get_strategy(engine).solve(EASY, limit=2, time_limit=1e10)
    assert (result.status, result.count, result.exact) == (Status.SOLVED, 1, True)


# --- what an engine raises -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("engine", "message"),
    [
        (hostile.RaisesBaseException(), "PluginAbort: the plugin gave up"),
        (hostile.RaisesGeneratorExit(), "GeneratorExit"),
        (hostile.RaisesKeyboardInterrupt(), "KeyboardInterrupt: cancelled by the plugin"),
        (hostile.Exits(), "SystemExit: 0"),
    ],
    ids=lambda value: getattr(value, "name", ""),
)
@pytest.mark.parametrize("sigint", ["default", "ignored"])
def test_a_base_exception_the_engine_raises_is_its_failure(engine: object, message: str, sigint: str) -> None:
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if sigint == "ignored" else None
    try:
        result = solve(EASY, engine, time_limit=5)  # type: ignore[arg-type]
        in_thread = ThreadPoolExecutor(max_workers=1).submit(run, engine, EASY).result()  # type: ignore[arg-type]
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    for failed in (result, in_thread):
        assert failed.status is Status.ERROR and failed.solutions == ()
        assert failed.error == f"strategy {engine.name!r} failed: {message}"  # type: ignore[attr-defined]


def python(script: str) -> list[str]:
    """The lines a script run in a fresh ``python`` prints (the repository on its path)."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


CTRL_C = """
    import os, signal, threading, time
    from sudokit import solve
    from tests.plugins import hostile

    threading.Timer(1.0, os.kill, (os.getpid(), signal.{signal})).start()
    start = time.perf_counter()
    try:
        result = solve({puzzle!r}, hostile.{engine}(seconds=20), time_limit=30)
        print("returned", result.status.value)
    except KeyboardInterrupt as stop:
        print(type(stop).__name__, time.perf_counter() - start < 10)  # the engine alone runs 20 s
    print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)
"""


@pytest.mark.parametrize("engine", ["Spins", "SwallowsCtrlC"])
def test_ctrl_c_still_interrupts_whatever_the_engine_makes_of_it(engine: str) -> None:
    lines = python(CTRL_C.format(signal="SIGINT", puzzle=EASY.to_line(), engine=engine))
    assert lines == ["KeyboardInterrupt True", "True"]


def test_a_kill_the_caller_turns_into_an_interrupt_is_the_callers() -> None:
    """As ``sudoku`` does: its SIGTERM handler raises a KeyboardInterrupt subclass, which must reach it."""
    script = CTRL_C.replace(
        "start = time.perf_counter()",
        "class Terminated(KeyboardInterrupt): pass\n"
        "    def terminate(signum, frame): raise Terminated\n"
        "    signal.signal(signal.SIGTERM, terminate)\n"
        "    start = time.perf_counter()",
    )
    lines = python(script.format(signal="SIGTERM", puzzle=EASY.to_line(), engine="Spins"))
    assert lines == ["Terminated True", "True"]


CTRL_C_IN_A_FORK = """
    import os, signal, sys, threading, time
    from sudokit import solve
    from tests.plugins import hostile

    def fork_and_solve():
        pid = os.fork()
        if pid == 0:  # the child: this thread is its main thread, which signals reach
            threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT)).start()
            start = time.perf_counter()
            try:
                result = solve({puzzle!r}, hostile.SwallowsCtrlC(seconds=20))
                print("returned", result.status.value)
            except KeyboardInterrupt as stop:
                print(type(stop).__name__, time.perf_counter() - start < 10)
            print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)
            sys.stdout.flush()
            os._exit(0)
        os.waitpid(pid, 0)

    thread = threading.Thread(target=fork_and_solve)
    thread.start()
    thread.join()
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork")
def test_ctrl_c_is_recorded_in_a_process_forked_from_another_thread() -> None:
    """The watchdog knows the main thread after a fork from another thread (which is then the child's main thread):
    Ctrl-C that the engine swallows still interrupts there, and the default handler is put back."""
    lines = python(CTRL_C_IN_A_FORK.format(puzzle=EASY.to_line()))
    assert lines == ["KeyboardInterrupt True", "True"]
