"""Killable worker processes: engines run there, so no engine can take the caller down or hold it.

A :class:`WorkerPool` maps a stream of items (puzzles, or puzzle-engine pairs) through a
:class:`Task` in up to ``jobs`` forked worker processes and yields the results in input order. It is
the one place where sudokit isolates engines, and it guarantees:

* **one result per item, in order.** An item whose worker dies (``os._exit``, a segfault, ``kill
  -9``) gets the result ``task.failed(item, why)``; the rest of that worker's chunk is queued again
  and a new worker takes over. A chunk whose worker dies between items is retried; an item caught in
  ``MAX_RETRIES`` such deaths fails too, so nothing can loop forever.
* **time limits that hold.** Each worker notes in shared memory which item it is on and since when;
  a worker still on one item ``task.budget`` seconds later is killed (SIGKILL) and the item fails:
  an engine that swallows exceptions, clears timers or sits in C code is stopped all the same. An
  item made of parts (a block of puzzles) notes each part it starts, and each part has the budget.
* **memory limits that hold.** A worker whose resident memory passes ``memory_limit`` (the environment
  variable ``SUDOKIT_MEMORY_LIMIT``; by default half the machine's memory shared among the workers, at
  most 4 GB each) is killed and its item fails, before it can take the machine's memory. What it
  shares with the caller since the fork (the caller's memory then, but files) is not counted.
* **a worker's end is seen.** Each worker leads a process group of its own; when it ends, whatever it
  forked is killed with it, so a child holding the results pipe open cannot hide that it is gone.
* **loading that cannot hang or crash the caller.** Workers load the engines (``task.start``); a
  load that raises aborts the run with a ``StrategyError``, one that kills its process or runs past
  ``load_timeout`` (or the task's ``load_timeout_of(phase, load_timeout)``) is reported to
  ``task.load_failed``, which may drop that engine and go on.
* **bounded memory.** The input is read only as workers need it; at most a few chunks per worker are
  in flight or waiting to be yielded. Chunks grow or shrink to take about ``TARGET_CHUNK_SECONDS``.
* **nothing left behind.** Workers get SIGKILL from the kernel when their parent dies (Linux), ignore
  Ctrl-C (the caller handles it and ends them), write stray output to stderr (never into the
  caller's records), read no stdin, and leave through ``os._exit`` (a plugin's non-daemon thread
  cannot keep one alive).

Workers are made with ``fork``, so an engine object of the caller, even one that does not pickle,
runs in them as it is. Where ``fork`` is missing (Windows) the pool runs everything in this process,
without that isolation.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import pickle
import signal
import struct
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from sudokit.errors import StrategyError, StrategyLoadError, SudokitError

__all__ = [
    "CAN_ISOLATE",
    "LOAD_TIMEOUT",
    "MAX_RETRIES",
    "TARGET_CHUNK_SECONDS",
    "MemoryLimitError",
    "Task",
    "WorkerPool",
    "default_jobs",
    "describe_exit",
    "load_timeout",
    "max_jobs",
    "memory_limit",
]

I = TypeVar("I")  # noqa: E741 - an item
R = TypeVar("R")  # its result
I_contra = TypeVar("I_contra", contravariant=True)  # a task's item: a task of any item takes a narrower one
R_co = TypeVar("R_co", covariant=True)  # a task's result: a task of a narrower result gives a wider one

#: Where fork exists, workers are separate processes; elsewhere the pool runs items in this process.
CAN_ISOLATE = hasattr(os, "fork")
#: Seconds a worker may take to load its engines (importing OR-Tools takes 1-3 s); the environment
#: variable ``SUDOKIT_LOAD_TIMEOUT`` changes it.
LOAD_TIMEOUT = 60.0
#: Chunks are sized so that each takes about this long: small enough for an even load and steady
#: progress, large enough that fast puzzles do not pay for a message each.
TARGET_CHUNK_SECONDS = 0.05
#: How many worker deaths between its items an item may see before it is failed rather than retried.
MAX_RETRIES = 3
_MAX_CHUNK = 512
_CHUNKS_AHEAD_PER_WORKER = 3  # chunks in flight or waiting to be yielded, per worker
_HEADER = struct.Struct("!Q")
# A worker's slot in shared memory: state, item sequence number (or the phase it is loading), the part of
# the item it is on (-1: the item as a whole), since when.
_SLOT = struct.Struct("qqqd")
_IDLE, _LOADING, _WORKING = 0, 1, 2
_READ_SIZE = 1 << 20
_POLL = 0.05  # seconds between looks at a worker that has work but has not started it yet
_CHECK = 0.05  # seconds between looks at busy workers' memory and whether they still live
#: The most memory a worker may use by default, and the least (a share of a small machine among many workers).
MAX_DEFAULT_MEMORY = 4 << 30
MIN_DEFAULT_MEMORY = 512 << 20
_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
_LOAD_POLL = 0.2  # seconds between looks at a loading worker whose phases have timeouts of their own
_LONGEST_WAIT = 3600.0


def default_jobs() -> int:
    """The number of cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def max_jobs() -> int:
    """The most worker processes a pool starts: four per core (more only compete for the cores)."""
    return 4 * default_jobs()


def load_timeout() -> float:
    """Seconds a worker may take to load its engines: ``SUDOKIT_LOAD_TIMEOUT`` or ``LOAD_TIMEOUT``."""
    text = os.environ.get("SUDOKIT_LOAD_TIMEOUT", "")
    try:
        value = float(text)
    except ValueError:
        return LOAD_TIMEOUT
    return value if value > 0 and value == value else LOAD_TIMEOUT  # NaN != NaN


class MemoryLimitError(SudokitError, ValueError):
    """``SUDOKIT_MEMORY_LIMIT`` is not a size."""


def memory_limit(jobs: int = 1) -> int | None:
    """Bytes of resident memory a worker may use (None: no bound), for a pool of ``jobs`` workers.

    ``SUDOKIT_MEMORY_LIMIT`` sets it (``4G``, ``300M``, ``1.5g``, ``2GB``, bytes; ``0`` or ``none``: no bound);
    by default each worker may use half the machine's memory divided among the workers, between
    ``MIN_DEFAULT_MEMORY`` and ``MAX_DEFAULT_MEMORY``. Raises ``MemoryLimitError`` for what is not a size.
    """
    text = os.environ.get("SUDOKIT_MEMORY_LIMIT", "").strip()
    if text:
        return _parse_size(text)
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return MAX_DEFAULT_MEMORY
    return max(MIN_DEFAULT_MEMORY, min(MAX_DEFAULT_MEMORY, total // 2 // max(1, jobs)))


def _parse_size(text: str) -> int | None:
    import re

    if text.lower() in ("0", "none", "off", "unlimited"):
        return None
    found = re.fullmatch(r"(\d+(?:\.\d*)?|\.\d+)\s*([kmgt]?)(?:i?b)?", text.strip(), re.IGNORECASE)
    value = float(found.group(1)) * _UNITS[found.group(2).lower()] if found else 0.0
    if not found or not 1 << 20 <= value < 1 << 60:
        raise MemoryLimitError(
            f"SUDOKIT_MEMORY_LIMIT={text!r} is not a memory size of 1M or more (say 4G, 300M or 0 for no limit)"
        )
    return int(value)


def describe_size(size: int) -> str:
    """``4.0 GB`` or ``300 MB`` (units of 1024)."""
    return f"{size / (1 << 30):.1f} GB" if size >= 1 << 30 else f"{size / (1 << 20):.0f} MB"


def resident_memory(pid: int, *, anonymous: bool = False) -> int | None:
    """Bytes of process ``pid`` in memory (Linux: /proc), or None where that cannot be read.

    ``anonymous``: without the pages of files (which a forked process does not inherit mapped).
    """
    try:
        with open(f"/proc/{pid}/statm", "rb") as handle:
            fields = handle.read().split()
        return (int(fields[1]) - (int(fields[2]) if anonymous else 0)) * _PAGE_SIZE
    except (OSError, ValueError, IndexError):
        return None


_PAGE_SIZE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


class Task(Protocol[I_contra, R_co]):
    """What a pool runs: built in the caller, forked into each worker, started there.

    ``budget`` is how many seconds one item may run before its worker is killed (None: no limit); a
    task may also have ``budget_of(item)``, the budget of one item, ``part_budget(item)``, that of
    each part of it (which the pool takes if the task has it), and ``load_timeout_of(phase,
    default)``, the seconds one load phase may take (``default``: the pool's).
    ``start`` runs in a new worker: it loads what the items need, calling ``mark(phase)`` before each
    engine it loads (so that a load that kills the worker is pinned on that engine), and returns the
    function that turns an item into its result; that function's ``info`` attribute, if any (it must
    pickle), becomes the pool's ``info`` once a worker is ready. Results and items must pickle. While
    the function runs an item, ``mark(part)`` says it starts part ``part`` of it (-1: a part that is
    not one of ``split``'s, such as one call for many of them): the item's budget starts again.

    A task may also have ``finish(item, result)``, run in the caller's process on each result a worker
    sent and on each ``failed`` one: what the pool yields is then its return (a task that does not
    trust its workers' results checks them there). And ``split(item)``, the item's parts as items of
    their own (or None), with ``join(item, results)``, the item's result from its parts' finished
    ones: an item whose worker dies or is killed on it is split and its parts run one by one; the
    part it was on (when it said so) fails, the others are run again.
    """

    @property
    def budget(self) -> float | None:
        """Seconds one item may run before its worker is killed (None: no limit); a plain attribute will do."""
        ...

    def start(self, mark: Callable[[int], None]) -> Callable[[I_contra], R_co]:
        """Load the engines (in the worker) and return the function applied to each item."""
        ...

    def failed(self, item: I_contra, problem: str) -> R_co:
        """The result of an item whose worker died or was killed; ``problem`` says how, in a few words."""
        ...

    def load_failed(self, phase: int, problem: str) -> bool:
        """A worker died or hung while loading ``phase``: True to go on without it; else raise (or False)."""
        ...


def describe_exit(status: int) -> str:
    """``exit status 3`` or ``killed by signal 11 (SIGSEGV)`` for a ``waitpid`` status."""
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            name = signal.Signals(number).name
        except ValueError:
            return f"killed by signal {number}"
        return f"killed by signal {number} ({name})"
    if os.WIFEXITED(status):
        return f"exit status {os.WEXITSTATUS(status)}"
    return f"wait status {status}"


# --- the worker side -------------------------------------------------------------------------------


def _worker_main(task: Task[Any, Any], commands: int, results: int, slots: mmap.mmap, slot: int, parent: int) -> None:
    """A worker's life: take over the process, load the task, run chunks until the input ends."""
    offset = slot * _SLOT.size

    def note(state: int, number: int, part: int = -1) -> None:
        _note(slots, offset, state, number, part)

    current = [-1]  # the item being run, else -1

    def mark(phase: int) -> None:  # the phase being loaded, or the part of the current item being run
        if current[0] < 0:
            note(_LOADING, phase)
        else:
            note(_WORKING, current[0], phase)

    def send(message: object) -> None:
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(_HEADER.pack(len(data)) + data)
        while view:
            view = view[os.write(results, view) :]

    _detach(parent)
    note(_LOADING, 0)
    try:
        run = task.start(mark)
    except StrategyError as err:  # an unknown engine, a bad option, an import that raised
        send(("failed", err))
        return
    except BaseException as err:  # a load may fail in any other way: the caller reports it
        send(("failed", StrategyLoadError(one_line(f"loading failed: {type(err).__name__}: {err}"))))
        return
    note(_IDLE, -1)
    send(("ready", getattr(run, "info", None)))
    reader = _Frames()
    while True:
        chunk = reader.next_message(commands)
        if chunk is None:
            return
        start = time.perf_counter()
        out = []
        for number, item in chunk:
            note(_WORKING, number, item.index if type(item) is _Part else -1)  # a part: which one
            current[0] = number
            item = _whole(item)
            try:
                out.append(run(item))
            except BaseException as err:  # a bug of ours: the item fails, the worker goes on
                out.append(task.failed(item, one_line(f"internal error: {type(err).__name__}: {err}")))
            current[0] = -1
        note(_IDLE, -1)
        send(("done", out, time.perf_counter() - start))


def _note(slots: mmap.mmap, offset: int, state: int, number: int, part: int = -1) -> None:
    """Write a worker's slot (state, item number, part, now): the parent, reading at any moment, never sees it torn.

    Not ``_SLOT.pack_into``: that zeroes the slot before writing the fields, and the parent, reading
    meanwhile, once saw a worker at work "since 0" (the machine's boot) and killed it as overdue. The
    number and the time go first, the state last, each word written once with its final value.
    """
    data = _SLOT.pack(state, number, part, time.monotonic())
    slots[offset + 8 : offset + _SLOT.size] = data[8:]
    slots[offset : offset + 8] = data[:8]


def _detach(parent: int) -> None:
    """Make this forked process a worker: signals, death with the parent, no stdin, stdout to stderr."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the caller's: it ends us
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)  # a group of our own: what we fork is killed with us (the parent does the same)
    if hasattr(signal, "SIGTTOU"):  # not the terminal's foreground group: a stray print must not stop us
        signal.signal(signal.SIGTTOU, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGALRM", "SIGHUP", "SIGQUIT"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    libc = _libc()
    if libc is not None:
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: die with the parent
    if os.getppid() != parent:  # the parent died before the line above took effect
        os._exit(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)  # an engine reading stdin must not take the caller's input
    os.dup2(2 if _valid_fd(2) else devnull, 1)  # a stray print goes to stderr, never into the records
    os.close(devnull)
    sys.stdin = None
    sys.stdout = sys.stderr


_LIBC: list[Any] = []


def _libc() -> Any:
    """The C library, for ``prctl`` (Linux); loaded once, by the caller before it forks: a forked copy
    of the interpreter pays several times more for importing ctypes than the caller does."""
    if not _LIBC:
        libc = None
        if sys.platform.startswith("linux"):
            try:
                import ctypes

                libc = ctypes.CDLL(None)
                libc.prctl  # noqa: B018 - fail here, not in the worker
            except (OSError, AttributeError):
                libc = None
        _LIBC.append(libc)
    return _LIBC[0]


def _valid_fd(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:
        return False
    return True


class _Frames:
    """Length-prefixed pickles read from a pipe."""

    def __init__(self) -> None:
        self.buffer = bytearray()

    def feed(self, data: bytes) -> None:
        self.buffer += data

    def pop(self) -> tuple[bool, Any]:
        """(True, message) for the next whole message in the buffer, else (False, None)."""
        if len(self.buffer) < _HEADER.size:
            return False, None
        (size,) = _HEADER.unpack_from(self.buffer)
        end = _HEADER.size + size
        if len(self.buffer) < end:
            return False, None
        message = pickle.loads(self.buffer[_HEADER.size : end])
        del self.buffer[:end]
        return True, message

    def next_message(self, fd: int) -> Any:
        """The next message from ``fd``, blocking; None at the end of the input."""
        while True:
            found, message = self.pop()
            if found:
                return message
            data = os.read(fd, _READ_SIZE)
            if not data:
                return None
            self.feed(data)


def one_line(message: str) -> str:
    """``message`` on one line, its runs of white space (newlines included) one space each."""
    return " ".join(message.split())


@dataclass(frozen=True, slots=True)
class _Part:
    """Part ``index`` of an item that was split (``Task.split``), run as an item of its own under the item's number."""

    index: int
    item: Any


_UNSET: Any = object()  # a part without its result yet


def _whole(item: Any) -> Any:
    """What the task runs: the item, or the part's own item."""
    return item.item if type(item) is _Part else item


def _guilty(number: int, item: Any, culprit: int | None, part: int) -> bool:
    """True for the item a lost worker was on: number ``culprit``, and for a part, part ``part`` of it."""
    return number == culprit and (type(item) is not _Part or item.index == part)


def _order(pair: tuple[int, Any]) -> tuple[int, int]:
    """Where a queued item goes: by number, an item's parts in order."""
    return pair[0], pair[1].index if type(pair[1]) is _Part else -1


# --- the caller's side -----------------------------------------------------------------------------


@dataclass(eq=False, repr=False)  # no generated methods it does not use: start-up
class _Worker(Generic[I]):
    """The caller's handle on one worker process."""

    pid: int
    slot: int
    commands: int  # our end of its command pipe (non-blocking)
    results: int  # our end of its result pipe (non-blocking)
    ready: bool = False
    chunk: list[tuple[int, I]] | None = None
    frames: _Frames = field(default_factory=_Frames)
    outgoing: bytearray = field(default_factory=bytearray)
    shared: int = 0  # bytes of the caller's memory it was forked with (in its resident memory, not its own)
    sent: float = 0.0  # when its chunk was written to it (monotonic seconds)


class WorkerPool(Generic[I, R]):
    """Runs a task's items in up to ``jobs`` killable worker processes; results in input order.

    Use it as a context manager (or call ``close``) so that no worker outlives it::

        with WorkerPool(task, jobs=2) as pool:
            pool.start()                      # load the engines now: a StrategyError here, not later
            for result in pool.map(items):
                ...
    """

    def __init__(self, task: Task[I, R], jobs: int = 1, *, isolate: bool = True) -> None:
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1, not {jobs}")
        self.task = task
        self.jobs = min(jobs, max_jobs())
        self.isolate = isolate and CAN_ISOLATE
        self.load_timeout = load_timeout()
        #: Bytes of memory a worker may hold before it is killed (None: no bound).
        self.memory = memory_limit(self.jobs) if self.isolate else None
        self._checked = 0.0  # when busy workers' memory and lives were last looked at
        self._workers: dict[int, _Worker[I]] = {}  # by pid
        self._free_slots = list(range(self.jobs))
        self._slots = mmap.mmap(-1, _SLOT.size * self.jobs) if self.isolate else None
        self._run: Callable[[I], R] | None = None  # the in-process function, without isolation
        self._selector: Any = None
        self.spawned = 0  # worker processes started
        #: What the task's loaded function says of itself (its ``info`` attribute), once a worker is ready.
        self.info: Any = None

    # --- life cycle ---------------------------------------------------------------------------

    def __enter__(self) -> WorkerPool[I, R]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close(kill=exc[0] is not None)

    def start(self) -> None:
        """Start one worker and wait until it has loaded the engines; raise a StrategyError if it cannot."""
        if not self.isolate:
            if self._run is None:
                self._run = self.task.start(lambda phase: None)
                self.info = getattr(self._run, "info", None)
            return
        while not any(w.ready for w in self._workers.values()):
            if not self._workers:
                self._spawn()
            self._wait(self._next_deadline())

    def close(self, *, kill: bool = False) -> None:
        """End every worker: let idle ones finish (or kill them all with ``kill``), and reap them."""
        for worker in list(self._workers.values()):  # one still loading has nothing of ours: not waited for
            self._end(worker, kill=kill or worker.chunk is not None or not worker.ready)
        if self._selector is not None:
            self._selector.close()
            self._selector = None

    # --- the map ------------------------------------------------------------------------------

    def map(self, items: Iterable[I]) -> Iterator[R]:
        """The result of every item, in order. An error reading ``items`` comes after the results before it."""
        finish = self._finish
        if not self.isolate:
            self.start()
            run = self._run
            assert run is not None
            for item in items:
                yield finish(item, run(item))
            return
        source = iter(items)
        queue: deque[tuple[int, I]] = deque()  # items to hand out: given back by a lost worker, or drawn
        tries: dict[tuple[int, int], int] = {}  # by item (and part)
        # (item, what its worker sent, finished): finished as it is yielded, unless it was already (joined)
        done: dict[int, tuple[Any, Any, bool]] = {}
        # Items whose worker was lost on them, split into parts run one by one: their parts' results so far.
        parts: dict[int, tuple[I, list[Any]]] = {}
        drawn = yielded = 0
        exhausted = False
        input_error: BaseException | None = None
        chunk_size = 1
        try:
            while True:
                # Hand out work: items given back first, then new ones while the window (drawn but not yet
                # yielded) has room. A new worker starts only for work in hand.
                while True:
                    room = self._window(chunk_size) - (drawn - yielded)
                    if not queue and not exhausted and room > 0:
                        exhausted, input_error = self._draw(source, queue, drawn, 1)
                        drawn += len(queue)
                        room -= len(queue)
                    if not queue:
                        break
                    worker = self._idle_worker()
                    if worker is None:
                        break
                    if len(queue) < chunk_size and not exhausted and room > 0:
                        before = len(queue)
                        count = min(chunk_size - len(queue), room)
                        exhausted, input_error = self._draw(source, queue, drawn, count)
                        drawn += len(queue) - before
                    self._assign(worker, [queue.popleft() for _ in range(min(chunk_size, len(queue)))])
                self._steal()
                if yielded in done:  # finished here once the workers have work: they solve on meanwhile
                    while yielded in done:
                        item, result, finished = done.pop(yielded)
                        yield result if finished else finish(item, result)
                        yielded += 1
                    continue  # the window has room again: hand out more before waiting
                if exhausted and not queue and yielded == drawn:
                    break
                for kind, _worker, payload in self._wait(self._next_deadline()):
                    if kind == "done":
                        chunk, results, seconds = payload
                        for (number, item), result in zip(chunk, results, strict=True):
                            self._settle(done, parts, number, item, result)
                        per_item = seconds / max(1, len(results))
                        chunk_size = max(1, min(_MAX_CHUNK, int(TARGET_CHUNK_SECONDS / max(per_item, 1e-6))))
                    elif kind == "requeue":
                        queue = deque(sorted([*queue, *payload], key=_order))
                    elif kind == "lost":  # the worker died or was killed: (chunk, item number or None, part, why)
                        chunk, culprit, part, why = payload
                        blamed = any(_guilty(number, item, culprit, part) for number, item in chunk)
                        for number, item in chunk:
                            if _guilty(number, item, culprit, part):
                                pieces = None if type(item) is _Part else self._split(item)
                                if pieces is None:
                                    self._settle(done, parts, number, item, self.task.failed(_whole(item), why))
                                    continue
                                # Its parts one by one: the one it was on (if it said) fails, the others run again.
                                parts[number] = (item, [_UNSET] * len(pieces))
                                for j, piece in enumerate(pieces):
                                    if j == part:
                                        parts[number][1][j] = finish(piece, self.task.failed(piece, why))
                                    else:
                                        queue.append((number, _Part(j, piece)))  # type: ignore[arg-type]
                                self._settle(done, parts, number, item, _UNSET)
                                continue
                            if not blamed:  # it died between items: each of them may be the cause
                                key = _order((number, item))
                                tries[key] = tries.get(key, 0) + 1
                                if tries[key] >= MAX_RETRIES:
                                    result = self.task.failed(_whole(item), f"{why} ({tries[key]} times)")
                                    self._settle(done, parts, number, item, result)
                                    continue
                            queue.append((number, item))
                        queue = deque(sorted(queue, key=_order))
            if input_error is not None:
                raise input_error
        except BaseException:
            self.close(kill=True)
            raise

    @property
    def _finish(self) -> Callable[[Any, Any], Any]:
        """The task's ``finish(item, result)``, run here on what a worker sent; else the result as it came."""
        finish = getattr(self.task, "finish", None)
        return finish if finish is not None else _as_sent

    def _split(self, item: I) -> list[Any] | None:
        """The parts of an item whose worker was lost on it (``task.split``), or None."""
        split = getattr(self.task, "split", None)
        if split is None or getattr(self.task, "join", None) is None:
            return None
        pieces = split(item)
        return None if pieces is None or len(pieces) < 1 else list(pieces)

    def _settle(
        self,
        done: dict[int, tuple[Any, Any, bool]],
        parts: dict[int, tuple[I, list[Any]]],
        number: int,
        item: Any,
        result: Any,
    ) -> None:
        """Item ``number``'s result, or one part's (``item`` a ``_Part``): the whole's once every part has one.

        A part's result is finished at once (``finish``), and the whole's is ``join`` of them, finished.
        """
        if type(item) is _Part:
            parts[number][1][item.index] = self._finish(item.item, result)
        elif number not in parts:
            done[number] = (item, result, False)
            return
        whole, results = parts[number]
        if all(r is not _UNSET for r in results):
            del parts[number]
            done[number] = (whole, self.task.join(whole, results), True)  # type: ignore[attr-defined]

    @staticmethod
    def _draw(
        source: Iterator[I], queue: deque[tuple[int, I]], drawn: int, count: int
    ) -> tuple[bool, BaseException | None]:
        """Move up to ``count`` new items into ``queue``, numbered from ``drawn``; (exhausted, the input's error)."""
        for number in range(drawn, drawn + count):
            try:
                item = next(source)
            except StopIteration:
                return True, None
            except Exception as err:  # the input failed: finish what was read, then raise
                return True, err
            queue.append((number, item))
        return False, None

    def _window(self, chunk_size: int) -> int:
        """How many items may be drawn and not yet yielded: a few chunks per worker."""
        return self.jobs * _CHUNKS_AHEAD_PER_WORKER * chunk_size

    def _idle_worker(self) -> _Worker[I] | None:
        """A ready worker without a chunk, or a new one if there is room; None if all are busy."""
        for worker in self._workers.values():
            if worker.chunk is None and worker.ready:
                return worker
        if not self._workers or (len(self._workers) < self.jobs and any(w.ready for w in self._workers.values())):
            # More workers only once one has loaded: an engine that cannot load fails once, not ``jobs`` times.
            return self._spawn()
        return None

    def _assign(self, worker: _Worker[I], chunk: list[tuple[int, I]]) -> None:
        """Give ``chunk`` to ``worker``: written to it now if it is ready, else once it is (see ``_steal``).

        So a worker's chunk has been written to it exactly when the worker is ready.
        """
        worker.chunk = chunk
        if worker.ready:
            self._send(worker)

    def _send(self, worker: _Worker[I]) -> None:
        data = pickle.dumps(worker.chunk, protocol=pickle.HIGHEST_PROTOCOL)
        worker.outgoing += _HEADER.pack(len(data)) + data
        worker.sent = time.monotonic()
        self._flush(worker)

    def _steal(self) -> None:
        """Move the chunks of workers still loading to ready workers left without work.

        A new worker is given a chunk as it starts, so that several can start at once; but its load may
        take long (numba's import takes a second): a ready worker runs out of work meanwhile takes it.
        """
        waiting = [w for w in self._workers.values() if not w.ready and w.chunk is not None]
        if not waiting:
            return
        for worker in self._workers.values():
            if not waiting:
                return
            if worker.ready and worker.chunk is None:
                loading = waiting.pop()
                self._assign(worker, loading.chunk)  # type: ignore[arg-type]
                loading.chunk = None

    # --- processes ----------------------------------------------------------------------------

    def _spawn(self) -> _Worker[I]:
        import selectors

        if self._selector is None:
            self._selector = selectors.DefaultSelector()
        slot = self._free_slots.pop()
        assert self._slots is not None
        _SLOT.pack_into(self._slots, slot * _SLOT.size, _LOADING, 0, -1, time.monotonic())
        command_read, command_write = os.pipe()
        result_read, result_write = os.pipe()
        parent = os.getpid()
        others = [fd for w in self._workers.values() for fd in (w.commands, w.results)]
        _flush_std()  # else the worker's copy of a buffered line is written twice
        _libc()
        shared = (resident_memory(os.getpid(), anonymous=True) or 0) if self.memory is not None else 0
        pid = os.fork()
        if pid == 0:  # the worker: never returns into the caller's code
            status = 0
            try:
                for fd in (command_write, result_read, *others):
                    os.close(fd)
                _worker_main(self.task, command_read, result_write, self._slots, slot, parent)
            except BaseException:
                status = 70
            finally:
                os._exit(status)
        with contextlib.suppress(OSError):
            os.setpgid(pid, pid)  # as the worker does itself: whichever comes first, its group exists at once
        os.close(command_read)
        os.close(result_write)
        os.set_blocking(command_write, False)
        os.set_blocking(result_read, False)
        worker: _Worker[I] = _Worker(pid, slot, command_write, result_read, shared=shared)
        self.spawned += 1
        self._workers[pid] = worker
        self._selector.register(result_read, selectors.EVENT_READ, worker)
        return worker

    def _flush(self, worker: _Worker[I]) -> None:
        """Write what fits of the worker's pending commands; watch its pipe for room for the rest."""
        import selectors

        while worker.outgoing:
            try:
                written = os.write(worker.commands, worker.outgoing)
            except BlockingIOError:
                break
            except BrokenPipeError:  # it died: its result pipe will say so
                worker.outgoing.clear()
                break
            del worker.outgoing[:written]
        try:
            if worker.outgoing:
                self._selector.register(worker.commands, selectors.EVENT_WRITE, worker)
            else:
                self._selector.unregister(worker.commands)
        except KeyError:
            pass  # already (or never) watched

    def _end(self, worker: _Worker[I], *, kill: bool, exited: bool = False) -> int | None:
        """Stop watching a worker, end it (kill, or let it finish its input) and reap it; its wait status.

        Whatever is left of its process group (a process it forked) is killed before it is reaped (so
        that the group's number cannot have gone to another process). ``exited``: it is known to have ended.
        """
        self._workers.pop(worker.pid, None)
        if self._selector is not None:
            for fd in (worker.results, worker.commands):
                with contextlib.suppress(KeyError, ValueError):
                    self._selector.unregister(fd)
        if kill:
            _kill_group(worker.pid)
        os.close(worker.commands)  # its end of input: an idle worker leaves
        if not kill and not exited:  # a second to go: its end of the results pipe closes as it exits (seen at once)
            import select

            end = time.monotonic() + 1.0
            while (left := end - time.monotonic()) > 0:  # a process it forked may hold the pipe: look at it too
                with contextlib.suppress(OSError, ValueError):
                    if select.select([worker.results], [], [], min(left, _CHECK))[0]:
                        break
                if _exited(worker.pid):
                    break
            _wait_exit(worker.pid, max(0.0, end - time.monotonic()))
        _kill_group(worker.pid)  # still running after its second, or a process it forked
        status = _reap(worker.pid, None)
        os.close(worker.results)
        self._free_slots.append(worker.slot)
        return status

    # --- waiting ------------------------------------------------------------------------------

    def _next_deadline(self) -> float | None:
        """When the next deadline of a busy or loading worker falls (monotonic seconds), if any."""
        deadlines = []
        for worker in self._workers.values():
            state, number, since = self._slot(worker)
            if state == _LOADING:
                deadlines.append(since + self._load_timeout(number))
                if hasattr(self.task, "load_timeout_of"):  # its next phase may have a shorter timeout: look again
                    deadlines.append(time.monotonic() + _LOAD_POLL)
            elif state == _WORKING and (budget := self._budget(worker, number)) is not None:
                deadlines.append(since + budget)
            elif state == _IDLE and worker.chunk is not None and self.task.budget is not None:
                deadlines.append(time.monotonic() + _POLL)  # about to start its chunk: look again soon
            if state != _IDLE or worker.chunk is not None:  # its memory, and whether it still lives
                deadlines.append(self._checked + _CHECK)
        return min(deadlines, default=None)

    def _budget(self, worker: _Worker[I], number: int) -> float | None:
        """Seconds item ``number`` of the worker's chunk (or each part of it) may run: ``task.part_budget(item)``
        or ``task.budget_of(item)`` if the task has it."""
        budget_of: Callable[[Any], float | None] | None = getattr(self.task, "part_budget", None) or getattr(
            self.task, "budget_of", None
        )
        if budget_of is None or not worker.chunk:
            return self.task.budget
        for at, item in worker.chunk:
            if at == number:
                return budget_of(_whole(item))
        return self.task.budget

    def _load_timeout(self, phase: int) -> float:
        """Seconds load phase ``phase`` may take: ``task.load_timeout_of(phase, load_timeout)`` if the task has it."""
        load_timeout_of = getattr(self.task, "load_timeout_of", None)
        return self.load_timeout if load_timeout_of is None else load_timeout_of(phase, self.load_timeout)

    def _slot(self, worker: _Worker[I]) -> tuple[int, int, float]:
        """(state, item number or phase, since when) of a worker."""
        state, number, _, since = self._part(worker)
        return state, number, since

    def _part(self, worker: _Worker[I]) -> tuple[int, int, int, float]:
        """(state, item number or phase, part, since when) of a worker."""
        assert self._slots is not None
        return _SLOT.unpack_from(self._slots, worker.slot * _SLOT.size)

    def _wait(self, deadline: float | None) -> list[tuple[str, _Worker[I], Any]]:
        """Wait for messages or the deadline; what happened, as (kind, worker, payload) events."""
        import selectors

        # A far deadline (a time limit of 1e10 s) is waited for an hour at a time: epoll's timeout is bounded.
        timeout = None if deadline is None else min(max(0.0, deadline - time.monotonic()), _LONGEST_WAIT)
        events: list[tuple[str, _Worker[I], Any]] = []
        for key, mask in self._selector.select(timeout):
            worker = key.data
            if worker.pid not in self._workers:
                continue
            if mask & selectors.EVENT_WRITE and key.fd == worker.commands:
                self._flush(worker)
                continue
            self._read(worker, events)
        self._enforce_deadlines(events)
        return events

    def _read(self, worker: _Worker[I], events: list[tuple[str, _Worker[I], Any]], *, draining: bool = False) -> None:
        """Take in what a worker wrote; the end of its pipe is its end (not looked for when ``draining``)."""
        ended = False
        while True:
            try:
                data = os.read(worker.results, _READ_SIZE)
            except BlockingIOError:
                break
            if not data:
                ended = True
                break
            worker.frames.feed(data)
        while True:
            found, message = worker.frames.pop()
            if not found:
                break
            kind = message[0]
            if kind == "ready":
                worker.ready = True
                if len(message) > 1 and message[1] is not None:
                    self.info = message[1]
                if worker.chunk is not None:  # given while it loaded: written now
                    self._send(worker)
            elif kind == "done":
                events.append(("done", worker, (worker.chunk or [], message[1], message[2])))
                worker.chunk = None
            elif kind == "failed":  # the load raised: nothing can run
                raise message[1]
        if ended and not draining:
            self._lost(worker, None, events)

    def _enforce_deadlines(self, events: list[tuple[str, _Worker[I], Any]]) -> None:
        now = time.monotonic()
        check = now - self._checked >= _CHECK
        if check:
            self._checked = now
        for worker in list(self._workers.values()):
            state, number, since = self._slot(worker)
            if state == _LOADING and now - since > (allowed := self._load_timeout(number)):
                self._lost(worker, f"did not load within {allowed:g} s", events)
            elif state == _WORKING and (budget := self._budget(worker, number)) is not None and now - since > budget:
                self._lost(worker, f"still running after {now - since:.1f} s", events)
            elif state == _IDLE and self._unstarted(worker, since, now, events):
                self._lost(worker, f"did not start its work within {self.task.budget:g} s", events)
            elif check and (state != _IDLE or worker.chunk is not None):
                self._check(worker, events)

    def _unstarted(
        self, worker: _Worker[I], since: float, now: float, events: list[tuple[str, _Worker[I], Any]]
    ) -> bool:
        """True when a ready worker has not started the chunk written to it one item's budget ago (a stopped one).

        Counted from when it was written, or from when the worker last became idle if later (a worker
        that has just finished its chunk is idle until its answer is read: what it wrote is read first).
        """
        budget = self.task.budget
        if budget is None or not worker.ready or worker.chunk is None or now - max(worker.sent, since) <= budget:
            return False
        self._read(worker, events, draining=True)
        return worker.pid in self._workers and worker.chunk is not None

    def _check(self, worker: _Worker[I], events: list[tuple[str, _Worker[I], Any]]) -> None:
        """Kill a worker past the memory limit; see that one has ended though its results pipe stays open.

        A process it forked (a multiprocessing engine) holds the pipe open after it ends: the end of the
        pipe would never come.
        """
        if self.memory is not None:
            used = resident_memory(worker.pid)
            if used is not None and used - worker.shared > self.memory:
                self._lost(worker, f"used more than {describe_size(self.memory)}", events)
                return
        if _exited(worker.pid):
            self._read(worker, events, draining=True)  # what it wrote before it ended
            if worker.pid in self._workers:
                self._lost(worker, None, events, exited=True)

    def _lost(
        self,
        worker: _Worker[I],
        overrun: str | None,
        events: list[tuple[str, _Worker[I], Any]],
        *,
        exited: bool = False,
    ) -> None:
        """A worker that died, or that overran and is killed now: fail its item, give back the rest of its chunk."""
        state, number, part, _ = self._part(worker)
        status = self._end(worker, kill=overrun is not None, exited=exited)
        if overrun is not None:
            how = f"{overrun}: its worker process was killed"
        else:
            how = f"its worker process ended ({describe_exit(status) if status is not None else 'status unknown'})"
        if state == _LOADING:
            if not self.task.load_failed(number, how):
                raise StrategyLoadError(how)
            if worker.chunk:  # nothing of it ran: it goes back as it was
                events.append(("requeue", worker, worker.chunk))
        elif worker.chunk:
            events.append(("lost", worker, (worker.chunk, number if state == _WORKING else None, part, how)))


def _as_sent(item: object, result: object) -> object:
    return result


def _flush_std() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass


def _signal(pid: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signum)


def _kill_group(pid: int) -> None:
    """SIGKILL to worker ``pid`` and what is left of its process group (only itself, if it has no group)."""
    with contextlib.suppress(ProcessLookupError, PermissionError, AttributeError):
        os.killpg(pid, signal.SIGKILL)
    _signal(pid, signal.SIGKILL)


def _exited(pid: int) -> bool:
    """True when child ``pid`` has ended (it is left to be reaped)."""
    try:
        found = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return True
    except (AttributeError, OSError):  # no waitid: its pipe's end tells
        return False
    return found is not None


def _wait_exit(pid: int, timeout: float) -> None:
    """Wait up to ``timeout`` seconds for child ``pid`` to end, without reaping it."""
    end = time.monotonic() + timeout
    delay = 0.0001
    while not _exited(pid) and time.monotonic() < end:
        time.sleep(delay)
        delay = min(delay * 2, 0.02)


def _reap(pid: int, timeout: float | None) -> int | None:
    """The wait status of child ``pid`` once it ends within ``timeout`` seconds (None: wait), else None."""
    end = None if timeout is None else time.monotonic() + timeout
    delay = 0.0001
    while True:
        try:
            done, status = os.waitpid(pid, 0 if end is None else os.WNOHANG)
        except ChildProcessError:
            return None
        if done:
            return status
        if end is not None and time.monotonic() >= end:
            return None
        time.sleep(delay)
        delay = min(delay * 2, 0.02)
