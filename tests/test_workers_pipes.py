"""A forked worker's pipes hold a whole block and its answer, so neither side waits on the other mid-message.

A block of 2,048 puzzles is about 170 KB of text and its answer about 330 KB; in Linux's default pipe
of 64 KB a worker writing its answer stopped five times for the caller to read (each time a round trip
through the caller's loop, which may be busy checking the block before), and the caller stopped as
often writing the next block: 1,359 waits of the worker over issue 27's batch of 393,208 puzzles,
39 with the wider pipes.
"""

from __future__ import annotations

import fcntl
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from sudokit.engines.workers import PIPE_BYTES, WorkerPool

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pipe sizes are Linux's")

BLOCK_ANSWER = 330 * 1024


@dataclass
class Echo:
    """Item ``n``: ``n`` bytes back (a block's answer is one message of about 330 KB)."""

    budget: float | None = None

    def start(self, mark: Callable[[int], None]) -> Callable[[int], bytes]:
        return lambda n: bytes(n)

    def failed(self, item: int, problem: str) -> bytes:
        return b""

    def load_failed(self, phase: int, problem: str) -> bool:
        return False


def test_a_forked_workers_pipes_hold_a_block_answer_whole() -> None:
    allowed = int(Path("/proc/sys/fs/pipe-max-size").read_text())
    pool: WorkerPool[int, bytes]
    with WorkerPool(Echo(), jobs=1, method="fork") as pool:
        assert [len(r) for r in pool.map([BLOCK_ANSWER, 10, BLOCK_ANSWER])] == [BLOCK_ANSWER, 10, BLOCK_ANSWER]
        (worker,) = pool._workers.values()
        for fd in (worker.commands, worker.results):
            room = fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ)
            if allowed >= PIPE_BYTES or os.geteuid() == 0:
                assert room >= PIPE_BYTES > BLOCK_ANSWER
            else:  # an unprivileged user past pipe-max-size keeps the default: it still works, as before
                assert room >= 4096
