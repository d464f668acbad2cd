"""Timing a call the way a busy machine cannot break: CPU seconds spent, and wall time only as a hang guard.

On a machine whose cores are busy with other work, a call gets a fraction of a core: its wall time
grows with the load, the CPU time it spends does not. So a test of a time limit asserts the status
(timeout, or solved) and a bound on the CPU time the call spent (this process's threads and its child
processes, running or ended), and bounds the wall time only to catch a hang, ``HANG`` times the limit.
"""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

#: A wall-clock bound is a hang guard: this many times what the call should take (plus a second), never tighter.
HANG = 10
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_PROC = Path("/proc")


def hang_guard(seconds: float) -> float:
    """The wall-clock bound for a call that should take ``seconds``: ``HANG`` times it, plus a second."""
    return HANG * seconds + 1.0


def cpu_of(pid: int) -> float:
    """The CPU seconds process ``pid`` has used so far (user and system; Linux /proc/PID/stat), 0 once it is gone."""
    try:
        stat = (_PROC / str(pid) / "stat").read_text()
    except OSError:
        return 0.0
    fields = stat[stat.rfind(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / _TICK


def tree_cpu(pid: int) -> float:
    """The CPU seconds process ``pid`` and its running descendants have used so far (Linux /proc)."""
    parents: dict[int, int] = {}
    for entry in _PROC.iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat[stat.rfind(")") + 2 :].split()[1])
    tree, grew = {pid}, True
    while grew:
        more = {child for child, parent in parents.items() if parent in tree} - tree
        tree |= more
        grew = bool(more)
    return sum(cpu_of(p) for p in tree)


def children_cpu() -> float:
    """CPU seconds of this process's children that have been waited for (``RUSAGE_CHILDREN``)."""
    waited = resource.getrusage(resource.RUSAGE_CHILDREN)
    return waited.ru_utime + waited.ru_stime


def _live_children_cpu() -> float:
    """CPU seconds of this process's children still running or not yet waited for (Linux /proc; 0 elsewhere)."""
    me = str(os.getpid())
    total = 0
    if not _PROC.is_dir():
        return 0.0
    for entry in _PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # it ended meanwhile
        fields = stat[stat.rfind(")") + 2 :].split()
        if len(fields) > 12 and fields[1] == me:
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total / _TICK


def cpu_seconds() -> float:
    """CPU seconds used so far by this process (every thread), its children waited for, and its live children."""
    return time.process_time() + children_cpu() + _live_children_cpu()


@dataclass
class Spent:
    """What a timed block spent: wall seconds and CPU seconds (filled in when the block ends)."""

    wall: float = 0.0
    cpu: float = 0.0


@contextmanager
def spent() -> Iterator[Spent]:
    """Measure the block: ``with spent() as took: ...``, then ``took.cpu`` and ``took.wall``."""
    took = Spent()
    wall, cpu = time.perf_counter(), cpu_seconds()
    try:
        yield took
    finally:
        took.wall = time.perf_counter() - wall
        took.cpu = cpu_seconds() - cpu
