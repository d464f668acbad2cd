"""Checks of group time: time limits are kept, a timeout keeps what it found, and leaves nothing running.

The long search every check here times out on is counting the solutions of the empty 9x9 board (about
6.67e21) to a limit of 10**9, keeping one: no engine finishes it in a second, and it needs counting
(an engine that does not claim counting skips these checks, saying so). The kit measures wall time
around each call itself; an answer is due within the limit plus 10 % plus 0.5 s, not counting the time
the calling thread spent after the limit waiting for a CPU (Linux: its schedstat), so that a busy machine
is no engine's fault. These checks take the seconds they need, about 4 s in all.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sudokit.engines.strategy import Result, Status
from sudokit.model.grid import Grid
from sudokit.model.shape import Shape
from sudokit.testing import corpus
from sudokit.testing._kit import Subject, check

#: The long search: counting the empty 9x9 board's solutions to this limit.
LONG_LIMIT = 10**9
#: How long anything a timed-out call started may take to end after it returned.
_SETTLE = 1.0
_PROC = Path("/proc")


def _bound(time_limit: float) -> float:
    """The latest a call may return: its time limit plus 10 % plus 0.5 s."""
    return time_limit * 1.1 + 0.5


def _require_long_search(subject: Subject) -> None:
    """Skip unless the engine claims time limits, counting and 9x9 boards: what the long search needs."""
    subject.require_time_limit()
    if not subject.capabilities.counting:
        subject.skip(
            "does not claim counting (capabilities.counting is False), which this check needs for a search "
            "that outlasts any time limit: counting the empty 9x9 board's 6.67e21 solutions"
        )
    subject.require_shape(Shape.of(3, 3))


def _warm_up(subject: Subject) -> None:
    """Have the engine solve LeetCode's board with its full patience, unjudged (solves_unique_corpus judges that).

    What an engine starts once and keeps (a worker process, compiled code) may take longer than a short
    time limit on a busy machine; a check of what a timeout keeps or of a short limit is not about that.
    """
    subject.solve(corpus.load("unique")[0].puzzle)


def _run_delay(tid: int) -> float | None:
    """Seconds thread ``tid`` of this process has been runnable but waiting for a CPU (Linux schedstat), or None."""
    try:
        return int((_PROC / "self" / "task" / str(tid) / "schedstat").read_text().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return None


@dataclass(frozen=True)
class _Took:
    """A call's wall time, and how much of it, after its time limit, the calling thread waited for a CPU."""

    wall: float
    waited: float = 0.0

    @property
    def running(self) -> float:
        """The wall time but the waiting: what a call on an idle machine would have taken."""
        return self.wall - self.waited

    def __str__(self) -> str:
        waited = f" ({self.waited:.2f} s of it after the limit waiting for a busy CPU)" if self.waited >= 0.01 else ""
        return f"{self.wall:.2f} s after the call began{waited}"


def long_search(subject: Subject, time_limit: float, keep: int = 1, *, plain: bool = False) -> tuple[Result, _Took]:
    """The answer to counting the empty 9x9 board to 10**9 within ``time_limit``, and the time it took.

    With ``plain``, the answer of the engine's optional ``solve_plain`` (``Subject.solve_plain``), not ``solve``'s.

    A timer thread reads, at the time limit, how long the calling thread has waited for a CPU so far;
    the waiting from then to the answer is the machine's load, not the engine's overrun.
    """
    tid = threading.get_native_id()
    at_limit: list[float | None] = []
    timer = threading.Timer(time_limit, lambda: at_limit.append(_run_delay(tid)))
    timer.daemon = True
    start = time.perf_counter()
    timer.start()
    try:
        ask = subject.solve_plain if plain else subject.solve
        result = ask(Grid.empty(Shape.of(3, 3)), limit=LONG_LIMIT, time_limit=time_limit, keep=keep)
    finally:
        wall = time.perf_counter() - start
        end = _run_delay(tid)
        timer.cancel()
        timer.join()
    before = at_limit[0] if at_limit else None
    waited = end - before if end is not None and before is not None else 0.0
    return result, _Took(wall, max(0.0, min(waited, wall - time_limit)))


def expect_timeout(
    subject: Subject, result: Result, took: _Took, time_limit: float, call: str = "", *, timing: bool = True
) -> None:
    """Fail unless ``result`` is a timeout; with ``timing``, one after half of ``time_limit`` and within its bound."""
    wall = took.wall
    empty = Grid.empty(Shape.of(3, 3))
    if result.status is not Status.TIMEOUT:
        error = f" ({result.error})" if result.error else ""
        subject.fail(
            f"{call}counting to {LONG_LIMIT:,} with a time limit of {time_limit:g} s returned status "
            f"{result.status}{error}, count {result.count}, after {wall:.2f} s; expected timeout: the empty board "
            f"has about 6.67e21 solutions",
            empty,
        )
    if not timing:
        return
    if took.running > _bound(time_limit):
        subject.fail(
            f"{call}returned timeout {took}, with a time limit of {time_limit:g} s; "
            f"expected it within {_bound(time_limit):.2f} s (the limit plus 10 % plus 0.5 s)",
            empty,
        )
    if wall < time_limit / 2:
        subject.fail(
            f"{call}returned timeout {wall:.2f} s after the call began, with a time limit of {time_limit:g} s; "
            f"expected it no sooner than the limit (at least half of it, {time_limit / 2:g} s)",
            empty,
        )


@check("time")
def times_out_within_limit(subject: Subject) -> None:
    """A search far longer than the limit (1 s) returns status timeout, not exact, within the limit plus 10 %
    plus 0.5 s.

    The search is counting the empty 9x9 board's solutions to 10**9 (keeping one); the kit measures
    the wall time around the call. A timeout sooner than half the limit fails too.
    """
    _require_long_search(subject)
    result, took = long_search(subject, 1.0)
    expect_timeout(subject, result, took, 1.0)
    if result.exact is not False:
        subject.fail(
            f"returned timeout with exact {result.exact!r}; a timeout is never exact", Grid.empty(Shape.of(3, 3))
        )


@check("time")
def timeout_keeps_what_it_found(subject: Subject) -> None:
    """A timeout reports what was found: count at least 1 and at most the limit, not exact, min(count, keep) solutions.

    Counting the empty 9x9 board to 10**9 with a 1 s limit, keeping 3: its first solutions take any
    engine milliseconds, so a timeout with count 0 lost them. The solutions must be valid and distinct.
    The engine solves LeetCode's board first: what it starts once is not counted against the limit.
    """
    _require_long_search(subject)
    _warm_up(subject)
    keep = 3
    result, took = long_search(subject, 1.0, keep=keep)
    wall = took.wall
    puzzle = Grid.empty(Shape.of(3, 3))
    expect_timeout(subject, result, took, 1.0, timing=False)  # the time taken is times_out_within_limit's
    count, solutions = result.count, result.solutions
    if result.exact is not False:
        subject.fail(
            f"returned timeout with exact {result.exact!r} and count {count}; a timeout is never exact", puzzle
        )
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= LONG_LIMIT:
        subject.fail(
            f"returned timeout with count {count!r} after {wall:.2f} s; expected the count found before the limit: "
            f"at least 1 (the empty board's first solution takes milliseconds), at most the limit {LONG_LIMIT:,}",
            puzzle,
        )
    kept = min(count, keep) if subject.takes_keep else count
    found = len(solutions) if isinstance(solutions, tuple | list) else None
    if found is not None and found != kept:
        asked = f", asked to keep {keep}" if subject.takes_keep else ""
        subject.fail(
            f"returned timeout with count {count} and {found} solutions{asked}; expected {kept} of the solutions found",
            puzzle,
        )
    subject.consistent(result, puzzle, limit=LONG_LIMIT, keep=keep, prefix="on a timeout, ")


@check("time")
def short_limit_still_solves(subject: Subject) -> None:
    """A short time limit (0.5 s) is no excuse on an easy puzzle: LeetCode's board is solved, and right.

    The engine gets a call with its full patience on the same board first: what it starts once (a worker
    process, compiled code) may take longer than 0.5 s on a busy machine, and is not what this checks.
    """
    subject.require_time_limit()
    subject.require_shape(Shape.of(3, 3))
    known = corpus.load("unique")[0]
    _warm_up(subject)
    start = time.perf_counter()
    result = subject.solve(known.puzzle, time_limit=0.5)
    wall = time.perf_counter() - start
    if result.status is not Status.SOLVED:
        error = f" ({result.error})" if result.error else ""
        subject.fail(
            f"returned status {result.status}{error} after {wall:.2f} s with a time limit of 0.5 s; expected it "
            f"solved: the puzzle takes a simple backtracking search about a millisecond",
            known.puzzle,
        )
    subject.consistent(result, known.puzzle, limit=1)
    if result.solution != known.solution:
        subject.fail(f"returned a solution other than the puzzle's only one, {known.solution}", known.puzzle)


@check("time")
def later_calls_get_their_own_limit(subject: Subject) -> None:
    """Each call keeps its own time limit: two timeouts in a row (0.3 s, 0.6 s) each within its own, then a call
    with no limit solves LeetCode's board: no deadline or state carries over.

    Each timeout must come no sooner than half its own limit and within the limit plus 10 % plus 0.5 s.
    """
    _require_long_search(subject)
    for k, time_limit in enumerate((0.3, 0.6), 1):
        result, took = long_search(subject, time_limit)
        expect_timeout(subject, result, took, time_limit, f"timed call {k} of 2: ")
    known = corpus.load("unique")[0]
    start = time.perf_counter()
    result = subject.solve(known.puzzle, time_limit=None)
    wall = time.perf_counter() - start
    if result.status is not Status.SOLVED or result.solution != known.solution:
        error = f" ({result.error})" if result.error else ""
        subject.fail(
            f"after two timed-out calls, a call with no time limit returned status {result.status}{error}, "
            f"count {result.count}, after {wall:.2f} s; expected the puzzle solved, with its only solution",
            known.puzzle,
        )
    subject.consistent(result, known.puzzle, limit=1, prefix="after two timed-out calls, ")


# --- what is left running ---------------------------------------------------------------------------


def _settled(left: Callable[[], list[str]]) -> list[str]:
    """What ``left()`` names once it names nothing, or after ``_SETTLE`` seconds of asking."""
    deadline = time.perf_counter() + _SETTLE
    while True:
        names = left()
        if not names or time.perf_counter() >= deadline:
            return names
        time.sleep(0.02)


def _os_threads() -> dict[int, str] | None:
    """This process's OS threads (Linux: /proc/self/task) by id, with their names; None where unknown."""
    tasks = _PROC / "self" / "task"
    if not tasks.is_dir():
        return None
    threads = {}
    for entry in tasks.iterdir():
        try:
            threads[int(entry.name)] = (entry / "comm").read_text().strip()
        except (OSError, ValueError):
            continue  # it ended meanwhile
    return threads


@check("time")
def leaves_no_thread_behind(subject: Subject) -> None:
    """A timed-out call leaves no thread running: within 1 s of its return, every thread started during it has ended.

    After one timed-out warm-up call (0.3 s: what the engine keeps for good is started by then), looks
    for threads that were not there before another: Python threads (``threading.enumerate``) and, on
    Linux, the process's OS threads (/proc/self/task), which also shows threads Python does not know of.
    """
    _require_long_search(subject)
    long_search(subject, 0.3)
    python_before = set(threading.enumerate())
    os_before = _os_threads()
    long_search(subject, 0.3)

    def left() -> list[str]:
        names = []
        new = [t.name for t in threading.enumerate() if t not in python_before and t.is_alive() and _started(t)]
        if new:
            names.append(f"{_threads(len(new), 'Python')} ({', '.join(new)})")
        os_now = _os_threads()
        if os_before is not None and os_now is not None:
            new = [f"id {tid} {name!r}" for tid, name in sorted(os_now.items()) if tid not in os_before]
            if new:
                names.append(f"{_threads(len(new), 'OS')} ({', '.join(new)})")
        return names

    still = _settled(left)
    if still:
        subject.fail(
            f"{_SETTLE:g} s after a timed-out call (time limit 0.3 s) returned, threads that were not there before it "
            f"are still running: {'; '.join(still)}; expected every thread the call started to have ended",
            Grid.empty(Shape.of(3, 3)),
        )


def _started(thread: threading.Thread) -> bool:
    """False for the stand-in ``threading`` makes for a foreign thread that called into Python (it never ends)."""
    return not isinstance(thread, threading._DummyThread)


def _threads(k: int, kind: str) -> str:
    return f"{k} {kind} thread" if k == 1 else f"{k} {kind} threads"


def _children() -> dict[int, tuple[str, str]]:
    """The child processes of this process (Linux: from /proc/*/stat), by pid: (state, name)."""
    me = os.getpid()
    children = {}
    for entry in _PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # it ended meanwhile
        name_end = stat.rfind(")")
        fields = stat[name_end + 2 :].split()
        if len(fields) > 1 and fields[1] == str(me):
            children[int(entry.name)] = (fields[0], stat[stat.find("(") + 1 : name_end])
    return children


@check("time")
def leaves_no_process_behind(subject: Subject) -> None:
    """A timed-out call leaves no child process behind: within 1 s of its return its children are among those before.

    A child started by the call and still running counts, and so does one that ended but was never
    waited for (a zombie); an idle worker kept from before the call is fine. Linux only (/proc).
    """
    _require_long_search(subject)
    if not (_PROC / "self" / "stat").is_file():
        subject.skip("this check reads child processes from /proc, which this system does not have")
    before = _children()
    long_search(subject, 0.3)

    def left() -> list[str]:
        names = []
        for pid, (state, name) in sorted(_children().items()):
            if pid in before and (state != "Z" or before[pid][0] == "Z"):
                continue
            how = "a zombie: ended but never waited for" if state == "Z" else f"state {state}"
            names.append(f"pid {pid} ({name}, {how})")
        return names

    still = _settled(left)
    if still:
        subject.fail(
            f"{_SETTLE:g} s after a timed-out call (time limit 0.3 s) returned, this process has child processes "
            f"it did not have before: {', '.join(still)}; expected every process the call started to be gone "
            f"and waited for",
            Grid.empty(Shape.of(3, 3)),
        )
