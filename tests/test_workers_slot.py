"""A worker's slot, read by the parent while the worker writes it, is never seen torn.

The parent reads each worker's slot (state, item number, since when) to kill a worker overdue on its
item. A slot caught half-written once read "working since 0" (the machine's boot), and a puzzle
solving normally was killed as "still running after 38867.2 s". The writer and the reader here are
separate processes on separate cores, as a worker and the pool are.
"""

from __future__ import annotations

import mmap
import os
import signal
import time

import pytest

from sudokit.engines.workers import _IDLE, _SLOT, _WORKING, _note

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")


def test_a_slot_read_while_it_is_written_always_holds_a_real_time() -> None:
    slots = mmap.mmap(-1, _SLOT.size * 2)
    _note(slots, _SLOT.size, _IDLE, -1)
    born = time.monotonic()
    pid = os.fork()
    if pid == 0:  # the worker: note items as fast as it can until it is stopped
        try:
            number = 0
            while True:
                _note(slots, _SLOT.size, _WORKING, number)
                _note(slots, _SLOT.size, _IDLE, -1)
                number += 1
        finally:
            os._exit(0)
    try:
        seen = torn = 0
        end, deadline = time.monotonic() + 1.0, time.monotonic() + 60
        # 1 s, and on a busy machine, where the writer may not run for a while, until 100 readings of it at work.
        while time.monotonic() < end or (seen <= 100 and time.monotonic() < deadline):
            state, number, _, since = _SLOT.unpack_from(slots, _SLOT.size)
            if state == _WORKING:
                seen += 1
                if not born - 1 <= since <= time.monotonic() + 1:
                    torn += 1
        assert seen > 100, "the writer never showed up at work: the test saw nothing"
        assert torn == 0, f"{torn} of {seen} readings of a working slot held no real start time"
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
