"""Items read ahead (:class:`sudokit.engines.workers.ReadAhead`, the blocks of regular files): a worker's next chunk
is written to it while it runs the one before, so it never waits a round trip through the caller for work.

What that must not change: every item's result once, in order; a worker lost on an item costs that item only,
and the chunk written after its own runs again elsewhere (never lost, never blamed); a time limit still kills
only the item that overran.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest

from sudokit.engines.workers import ReadAhead, WorkerPool
from tests.conftest import puzzles, sudoku


@dataclass
class Timed:
    """Item ``(seconds, die)``: sleeps that long, then ends its process if ``die``; else (start, end) monotonic."""

    budget: float | None = None

    def start(self, mark: object) -> object:
        def run(item: tuple[float, bool]) -> tuple[float, float]:
            began = time.monotonic()
            time.sleep(item[0])
            if item[1]:
                os._exit(3)
            return began, time.monotonic()

        return run

    def failed(self, item: tuple[float, bool], problem: str) -> str:
        return problem

    def load_failed(self, phase: int, problem: str) -> bool:
        return False


def _results(items: Iterable[tuple[float, bool]], task: Timed) -> list[object]:
    """Every result of ``items`` through one worker; a pool that loses an item stalls: failed after 60 s."""
    previous = signal.signal(signal.SIGALRM, lambda *_: pytest.fail("the pool stalled (an item lost)"))
    signal.alarm(60)
    try:
        with WorkerPool(task, jobs=1) as pool:
            pool.start()
            return list(pool.map(items))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("ahead", [True, False])
def test_a_worker_is_given_its_next_item_before_the_caller_takes_the_answer(ahead: bool) -> None:
    """The caller takes 1.5 s over each answer. An item read ahead was written to the worker while the one
    before ran, and starts as it ends; an item of any other source is handed out only when the caller comes
    back to the pool (the worker waits 1.2 s: what a round trip through a busy caller costs it)."""
    items = [(0.3, False)] * 3
    with WorkerPool(Timed(), jobs=1) as pool:
        pool.start()
        found = []
        for result in pool.map(ReadAhead(items) if ahead else iter(items)):
            found.append(result)
            time.sleep(1.5)
    gap = found[2][0] - found[1][1]  # from the end of the second to the start of the third
    if ahead:
        assert gap < 0.6, gap
    else:
        assert gap >= 1.0, gap


@pytest.mark.parametrize("where", [0, 1])
def test_a_worker_lost_holding_the_next_chunk_costs_only_its_item(where: int) -> None:
    """Item ``where`` ends its process while the item after it is already written to that worker (item 0: it
    dies in the first chunk, the second waiting in its pipe; item 1: it dies in the chunk written ahead)."""
    items = [(0.3, False), (0.3, False), (0.0, False), (0.0, False), (0.0, False)]
    items[where] = (0.3, True)
    found = _results(ReadAhead(items), Timed())
    assert len(found) == len(items)
    for j, result in enumerate(found):
        if j == where:
            assert result == "its worker process ended (exit status 3)"
        else:
            assert isinstance(result, tuple), (j, result)  # run (again, by the next worker), not blamed


def test_a_time_limit_read_ahead_kills_only_the_item_that_overran() -> None:
    items = [(30.0, False), (0.0, False), (0.0, False)]
    found = _results(ReadAhead(items), Timed(budget=0.5))
    assert isinstance(found[0], str) and found[0].startswith("still running after"), found[0]
    assert all(isinstance(result, tuple) for result in found[1:]), found


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_file_read_ahead_gives_every_record_in_order(
    tmp_path: Path, jobs: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file of many blocks (each a worker's chunk, the next written while one runs) with lines that are not
    plain among them: the records of one puzzle at a time (``SUDOKIT_FASTPATH=0``), one a line, in order."""
    lines = puzzles("17clue.txt")[:6000]
    lines[2500] = "not a puzzle"
    lines[4100] = "1" * 81
    path = tmp_path / "in.txt"
    path.write_text("\n".join(lines) + "\n")
    found = {}
    for fastpath in ("1", "0"):
        monkeypatch.setenv("SUDOKIT_FASTPATH", fastpath)
        out = tmp_path / f"out{fastpath}.txt"
        result = sudoku("solve", str(path), "-s", "numba", "--unique", "-f", "line", "-q", "-O", str(out), "-j", jobs)
        assert result.exit_code == 2, result.stderr  # the two bad lines
        found[fastpath] = out.read_text().splitlines()
    assert found["1"] == found["0"]
    assert len(found["1"]) == len(lines)
    assert sum(record.endswith(":unique") for record in found["1"]) == len(lines) - 2
