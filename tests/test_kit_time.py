"""The time checks: each fails on an engine broken in its way, and a good engine passes them all in a few seconds.

These sleep: time limits take the time they take (the group runs about 4 s on a good engine).
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sudokit import Capabilities, get_strategy
from sudokit.testing import all_checks, check_strategy, corpus

from .kit.base import Reference
from .kit.mutants_time import (
    MUTANTS,
    ExactOnTimeout,
    ForgetsCountOnTimeout,
    LeavesBareThread,
    LeavesProcess,
    LeavesZombie,
    StaysStopped,
)

CHECKS = [c.name for c in all_checks() if c.group == "time"]
LONG_SEARCH = [name for name in CHECKS if name != "short_limit_still_solves"]

#: What each check's failure on its broken engine says.
MESSAGES = {
    "times_out_within_limit": r"^returned timeout \d+\.\d\d s after the call began( \(\d+\.\d\d s of it after "
    r"the limit waiting for a busy CPU\))?, with a time limit of 1 s; expected it within 1\.60 s \(the limit plus "
    r"10 % plus 0\.5 s\)$"
    r"|^still running \d+\.\d s after the call began: stopped$",  # the watchdog's, on a busy machine
    "timeout_keeps_what_it_found": r"^returned timeout with count [1-9]\d* and 0 solutions, asked to keep 3; "
    r"expected 3 of the solutions found$",
    "short_limit_still_solves": r"^returned status timeout after 0\.\d\d s with a time limit of 0\.5 s; "
    r"expected it solved",
    "later_calls_get_their_own_limit": r"^timed call 2 of 2: returned timeout 0\.\d\d s after the call began, with a "
    r"time limit of 0\.6 s; expected it no sooner than the limit",
    "leaves_no_thread_behind": r"^1 s after a timed-out call \(time limit 0\.3 s\) returned, threads that were not "
    r"there before it are still running: 1 Python thread \(abandoned search\)",
    "leaves_no_process_behind": r"^1 s after a timed-out call \(time limit 0\.3 s\) returned, this process has child "
    r"processes it did not have before: pid \d+ \(\S+, state [RSD]\)",
}

linux_only = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads threads and processes in /proc")


class Claims(Reference):
    """Reference with other capabilities."""

    def __init__(self, capabilities: Capabilities) -> None:
        super().__init__()
        self.capabilities = capabilities


@pytest.fixture
def fresh() -> Iterator[list[object]]:
    """Broken engines made for one test; the processes they leave are reaped after it."""
    made: list[object] = []
    yield made
    for engine in made:
        if isinstance(engine, LeavesProcess):
            engine.reap()


def _run(engine: object, name: str) -> tuple[str, str]:
    outcome = check_strategy(engine, checks=[name], on_fail=None).outcomes[0]  # type: ignore[arg-type]
    return outcome.status, outcome.message


def test_the_group_has_the_six_checks_each_with_a_broken_engine() -> None:
    assert list(MESSAGES) == CHECKS
    assert sorted(MUTANTS) == sorted(CHECKS)


def test_a_good_engine_passes_the_group_within_30_s() -> None:
    start = time.perf_counter()
    report = check_strategy(Reference(), checks=CHECKS, on_fail=None)
    assert [o.status for o in report.outcomes] == ["passed"] * len(CHECKS), str(report)
    assert time.perf_counter() - start < 30  # some 4 s: a hang guard, as on a busy machine


@pytest.mark.parametrize("name", CHECKS)
def test_the_check_fails_on_its_broken_engine(name: str, fresh: list[object]) -> None:
    if name.startswith("leaves_") and not Path("/proc/self/task").is_dir():
        pytest.skip("the broken engine leaves what only /proc shows")
    engine = type(MUTANTS[name])()  # fresh: some keep state between calls
    fresh.append(engine)
    status, message = _run(engine, name)
    assert status == "failed", message
    assert re.search(MESSAGES[name], message), message


def test_a_timeout_said_to_be_exact_fails_both_timeout_checks() -> None:
    assert _run(ExactOnTimeout(), "times_out_within_limit") == (
        "failed",
        "returned timeout with exact True; a timeout is never exact",
    )
    status, message = _run(ExactOnTimeout(), "timeout_keeps_what_it_found")
    assert status == "failed" and message.startswith("returned timeout with exact True and count ")


def test_a_timeout_that_lost_its_count_fails() -> None:
    status, message = _run(ForgetsCountOnTimeout(), "timeout_keeps_what_it_found")
    assert status == "failed"
    assert message.startswith("returned timeout with count 0 after ")
    assert "at least 1 (the empty board's first solution takes milliseconds)" in message


def test_an_untimed_call_after_timeouts_must_solve() -> None:
    status, message = _run(StaysStopped(), "later_calls_get_their_own_limit")
    assert status == "failed"
    assert message.startswith("after two timed-out calls, a call with no time limit returned status timeout")


@linux_only
def test_a_thread_python_does_not_know_of_is_seen_by_the_os() -> None:
    status, message = _run(LeavesBareThread(), "leaves_no_thread_behind")
    assert status == "failed"
    assert "still running: 1 OS thread (id " in message and "Python thread" not in message


@linux_only
def test_a_child_never_waited_for_is_a_zombie_left_behind(fresh: list[object]) -> None:
    engine = LeavesZombie()
    fresh.append(engine)
    status, message = _run(engine, "leaves_no_process_behind")
    assert status == "failed"
    assert "a zombie: ended but never waited for" in message


@linux_only
def test_a_child_from_before_the_call_is_not_the_calls_to_end() -> None:
    """A child process that was there before the call (a pooled worker, say) may stay."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(5)"])
    try:
        assert _run(Reference(), "leaves_no_process_behind") == ("passed", "")
    finally:
        child.kill()
        child.wait()


@linux_only
def test_python_constraint_may_keep_its_idle_worker_but_not_a_timed_out_one() -> None:
    engine = get_strategy("python-constraint")
    engine.solve(corpus.load("unique")[0].puzzle)  # leaves an idle worker, kept for reuse
    assert _run(engine, "leaves_no_process_behind") == ("passed", "")


@pytest.mark.parametrize("name", CHECKS)
def test_an_engine_without_time_limits_is_skipped(name: str) -> None:
    status, message = _run(Claims(Capabilities(time_limit=False)), name)
    assert (status, message) == ("skipped", "reference: does not claim time limits (capabilities.time_limit is False)")


@pytest.mark.parametrize("name", CHECKS)
def test_an_engine_that_does_not_count_is_skipped_where_the_long_search_needs_counting(name: str) -> None:
    status, message = _run(Claims(Capabilities(counting=False)), name)
    if name in LONG_SEARCH:
        assert status == "skipped"
        assert "does not claim counting" in message and "counting the empty 9x9 board's 6.67e21 solutions" in message
    else:
        assert status == "passed", message


def test_an_engine_without_9x9_boards_is_skipped() -> None:
    status, message = _run(Claims(Capabilities(box_shapes=frozenset({"2x3"}))), "times_out_within_limit")
    assert status == "skipped" and "claims boxes of 2x3, not 3x3" in message
