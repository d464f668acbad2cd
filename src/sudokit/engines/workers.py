"""Killable worker processes: engines run there, so no engine can take the caller down or hold it.

A :class:`WorkerPool` maps a stream of items (puzzles, or puzzle-engine pairs) through a
:class:`Task` in up to ``jobs`` worker processes and yields the results in input order. It is
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

How workers start is the pool's ``method`` (:func:`start_method`: ``SUDOKIT_START_METHOD``, else
``fork`` on Linux and ``spawn`` on macOS and Windows). A forked worker is a copy of the caller: an
engine object of the caller, even one that does not pickle, runs in it as it is. A spawned one (or
one forked by multiprocessing's fork server) is a new interpreter sent the task by pickle (a task
that does not pickle is a ``StrategyError`` saying so) and talked to over sockets, with its slot in
shared memory it maps; it holds Ctrl-C from its first instruction, leads its own process group, and
ends when the caller does through a socket it watches (no ``prctl`` needed; on Linux the kernel's
death signal is asked too). Every guarantee above holds for both; the memory limit needs Linux's /proc.
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
from functools import partial
from typing import Any, Generic, Protocol, TypeVar, cast

from sudokit.errors import StrategyError, StrategyLoadError, SudokitError

__all__ = [
    "CAN_ISOLATE",
    "LOAD_TIMEOUT",
    "MAX_RETRIES",
    "START_METHODS",
    "START_TIMEOUT",
    "TARGET_CHUNK_SECONDS",
    "MemoryLimitError",
    "ReadAhead",
    "StartMethodError",
    "Streamed",
    "Task",
    "WorkerPool",
    "default_jobs",
    "default_start_method",
    "describe_exit",
    "load_timeout",
    "max_jobs",
    "memory_limit",
    "start_method",
]

I = TypeVar("I")  # noqa: E741 - an item
R = TypeVar("R")  # its result
I_contra = TypeVar("I_contra", contravariant=True)  # a task's item: a task of any item takes a narrower one
R_co = TypeVar("R_co", covariant=True)  # a task's result: a task of a narrower result gives a wider one

#: Workers are separate processes on every platform: forked where fork is the start method, else spawned.
CAN_ISOLATE = True
#: How a pool may start its workers (multiprocessing's names); see :func:`start_method`.
START_METHODS = ("fork", "spawn", "forkserver")
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
_IDLE, _LOADING, _WORKING, _STARTING = 0, 1, 2, 3  # _STARTING: a spawned interpreter not yet running our code
#: Seconds a spawned worker's interpreter may take to start (before its engines' load, which has its own limit).
START_TIMEOUT = 60.0
_READ_SIZE = 1 << 20
#: The room asked for in each pipe to a forked worker (Linux: the default pipe-max-size).
PIPE_BYTES = 1 << 20
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

    A task may also have ``preload()``, run in the caller before the first of several workers is forked
    (never with ``spawn`` or ``forkserver``, whose workers are new interpreters that inherit nothing):
    loading trusted code there once saves each worker its load.
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


class ReadAhead(Generic[I]):
    """Items that a :class:`WorkerPool` may draw before a worker asks for them: reading them never waits on a
    person or a pipe (the blocks of regular files).

    While its workers are busy, the pool then reads the next chunk, so that a worker's answer is followed at
    once by its next chunk instead of by the reading of it. Any other iterable is drawn only as work is handed
    out; one that may keep the pool waiting (a pipe) is :class:`Streamed`. Iterating it is iterating ``items``.
    """

    __slots__ = ("items",)

    def __init__(self, items: Iterable[I]) -> None:
        self.items = iter(items)

    def __iter__(self) -> ReadAhead[I]:
        return self

    def __next__(self) -> I:
        return next(self.items)


class Streamed(Generic[I]):
    """Items read from a stream whose producer may be slow (standard input from a pipe or a person): the
    pool draws one only when ``ready()`` says reading it will not wait, and otherwise waits for the
    descriptor ``fd`` to be readable together with its workers. So a record is written as soon as it is
    solved, not once the line after it has come. Iterating it is iterating ``items``.
    """

    __slots__ = ("fd", "items", "ready")

    def __init__(self, items: Iterable[I], ready: Callable[[], bool], fd: int) -> None:
        self.items = iter(items)
        self.ready = ready
        self.fd = fd

    def __iter__(self) -> Streamed[I]:
        return self

    def __next__(self) -> I:
        return next(self.items)


class StartMethodError(SudokitError, ValueError):
    """``SUDOKIT_START_METHOD`` names no start method, or one this platform does not have."""


def default_start_method() -> str:
    """How workers start where nothing is asked: ``fork`` on Linux (and other Unixes), ``spawn`` on macOS and
    Windows (as CPython's multiprocessing does: on macOS, fork after the threads of OR-Tools or PySAT is unsafe)."""
    if sys.platform in ("win32", "darwin") or not hasattr(os, "fork"):
        return "spawn"
    return "fork"


def start_method(method: str | None = None) -> str:
    """The start method of the workers: ``method``, else ``SUDOKIT_START_METHOD``, else the platform's default.

    ``fork`` copies this process (fastest, and an engine object runs as it is); ``spawn`` starts a new
    interpreter that is sent the task by pickle (every platform); ``forkserver`` forks it from a server
    process started once (Unix). Raises ``StartMethodError`` for another name, or one this platform lacks.
    """
    text = os.environ.get("SUDOKIT_START_METHOD", "") if method is None else method
    name = text.strip().lower()
    if name in ("", "auto", "default"):
        return default_start_method()
    where = "SUDOKIT_START_METHOD" if method is None else "the start method"
    if name not in START_METHODS:
        raise StartMethodError(f"{where}={text!r} is not a start method (say fork, spawn or forkserver)")
    if name != "spawn" and (not hasattr(os, "fork") or sys.platform == "win32"):
        raise StartMethodError(f"{where}={text!r}: there is no {name} on {sys.platform} (use spawn)")
    return name


# --- the worker side -------------------------------------------------------------------------------


def _worker_main(
    task: Task[Any, Any] | Callable[[], Task[Any, Any]],
    receive: Callable[[int], bytes],
    write: Callable[[memoryview], int],
    slots: mmap.mmap,
    slot: int,
) -> None:
    """A worker's life (once it has taken over its process): load the task, run chunks until the input ends.

    ``receive(size)`` reads the commands (b"" at their end), ``write(data)`` writes some of ``data`` to the
    results and says how much; ``task`` may be a function that makes it (a spawned worker's unpickling).
    """
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
            view = view[write(view) :]

    note(_LOADING, 0)
    try:
        if not hasattr(task, "start"):  # a spawned worker's task, unpickled now: a failure is a load failure
            task = task()
        loaded = cast("Task[Any, Any]", task)
        run = loaded.start(mark)
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
        chunk = reader.next_message(receive)
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
                out.append(loaded.failed(item, one_line(f"internal error: {type(err).__name__}: {err}")))
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


def _detach(parent: int | None) -> None:
    """Make this process a worker: signals, death with the parent, no stdin, stdout to stderr.

    ``parent``: the caller's process id, if it is our parent (not a fork server's child).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the caller's: it ends us
    if hasattr(signal, "pthread_sigmask"):  # a spawned worker starts with it held (_interrupts_held): dropped now
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    with contextlib.suppress(OSError, AttributeError):
        os.setpgid(0, 0)  # a group of our own: what we fork is killed with us (the parent does the same)
    if hasattr(signal, "SIGTTOU"):  # not the terminal's foreground group: a stray print must not stop us
        signal.signal(signal.SIGTTOU, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGALRM", "SIGHUP", "SIGQUIT"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    libc = _libc()
    if libc is not None:
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: die with the parent
    if parent is not None and os.getppid() != parent:  # the parent died before the line above took effect
        os._exit(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)  # an engine reading stdin must not take the caller's input
    os.dup2(2 if _valid_fd(2) else devnull, 1)  # a stray print goes to stderr, never into the records
    os.close(devnull)
    sys.stdin = None
    sys.stdout = sys.stderr


def _process_main(
    payload: bytes,
    commands: Any,
    results: Any,
    slots: mmap.mmap,
    slot: int,
    parent: int | None,
    lifeline: Any,
) -> None:
    """A spawned (or fork-server) worker's life: the sockets and the slots' mapping it was sent (unpickled by
    multiprocessing before this runs), then ``_worker_main``.

    It ends when the caller does: a thread waits on ``lifeline``, whose other end only the caller holds,
    and ends the process at its end (no ``prctl`` needed; on Linux the kernel's death signal is asked too).
    """
    status = 0
    try:
        _watch_lifeline(lifeline)
        if parent is None:
            _release_fork_server()
        _detach(parent)
        for sock in (commands, results):
            sock.setblocking(True)
            with contextlib.suppress(OSError):
                sock.set_inheritable(False)  # an engine's child must not hold our end of a channel open

        def load() -> Task[Any, Any]:
            adopt, state, task = pickle.loads(payload)
            if adopt is not None:
                adopt(state)
            return task  # type: ignore[no-any-return]

        _worker_main(load, commands.recv, results.send, slots, slot)
    except BaseException:
        status = 70
    finally:
        _flush_std()
        os._exit(status)


def _watch_lifeline(lifeline: Any) -> None:
    """End this process as soon as ``lifeline`` ends: when the caller has ended (or closed the pool)."""
    import threading

    def watch() -> None:
        with contextlib.suppress(OSError):
            while lifeline.recv(16):
                pass
        os._exit(1)

    threading.Thread(target=watch, name="sudokit worker lifeline", daemon=True).start()


def _release_fork_server() -> None:
    """Let the fork server end with the caller: a worker it forked holds the pipe whose end ends the server
    (for a worker's own use of it, which ours make none of); a server that lives on would keep the kernel's
    death signal, which follows the server, from ending a worker held in C code when the caller dies."""
    from multiprocessing import forkserver

    server: Any = forkserver._forkserver
    fd = getattr(server, "_forkserver_alive_fd", None)
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)
        server._forkserver_alive_fd = None


class _SharedSlots:
    """The workers' slots as shared memory that a spawned process can map: sent to it by pickle.

    A temporary file (unlinked at once) whose descriptor travels with the process (POSIX), or a named
    mapping (Windows). A forked worker needs none of this: it inherits the anonymous mapping.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.tag: str | None = None
        self.file: Any = None
        if sys.platform == "win32":
            self.tag = f"sudokit-workers-{os.getpid()}-{id(self)}-{time.monotonic_ns()}"
            self.map = mmap.mmap(-1, size, tagname=self.tag)
        else:
            import tempfile

            self.file = tempfile.TemporaryFile()  # noqa: SIM115 - open for the pool's life
            os.ftruncate(self.file.fileno(), size)
            self.map = mmap.mmap(self.file.fileno(), size)

    def __reduce__(self) -> tuple[Any, ...]:
        """What a worker is sent: the mapping's name, or a duplicate of the file's descriptor (made as the
        process is started, by multiprocessing)."""
        if self.tag is not None:
            return _named_slots, (self.tag, self.size)
        from multiprocessing import reduction

        return _inherited_slots, (reduction.DupFd(self.file.fileno()), self.size)


def _named_slots(tag: str, size: int) -> mmap.mmap:
    """The slots in a worker (Windows): the named mapping."""
    return mmap.mmap(-1, size, tagname=tag)  # type: ignore[call-arg]  # Windows only


def _inherited_slots(fd: Any, size: int) -> mmap.mmap:
    """The slots in a worker (POSIX): the file it was sent, mapped."""
    number = fd.detach()
    try:
        return mmap.mmap(number, size)
    finally:
        os.close(number)


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """Hold Ctrl-C while a worker is spawned: it starts with SIGINT held, so a Ctrl-C to the terminal's
    process group (which it is in until it makes its own) cannot break its start with a traceback. The
    caller gets a Ctrl-C of that moment as the block ends."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


@contextlib.contextmanager
def _main_unseen() -> Iterator[None]:
    """Keep multiprocessing from running the caller's main script again in the worker (as it does under spawn
    to find what ``__main__`` defines): the worker needs nothing of it (the task is pickled already), and a
    script without the ``if __name__ == "__main__"`` idiom would start its own work there again."""
    main = sys.modules.get("__main__")
    if main is None:
        yield
        return
    import types

    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        sys.modules["__main__"] = main


def _payload(task: Task[Any, Any], method: str) -> bytes:
    """The task as a spawned worker gets it, with what it needs of this process's registry; a StrategyError if it
    does not pickle (an engine object of the caller: under fork it runs as it is, under spawn it must travel).

    The registry is looked up, not imported (it imports this module): not loaded, it holds nothing to send.
    Its ``adopt_spawn_state`` travels by name, and the worker imports the registry to run it.
    """
    registry = sys.modules.get("sudokit.engines.registry")
    state = registry.spawn_state() if registry is not None else None
    adopt = registry.adopt_spawn_state if registry is not None and state is not None else None
    try:
        return pickle.dumps((adopt, state, task), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as err:
        raise StrategyError(
            one_line(
                f"the engine cannot be sent to a worker process started by {method}: it does not pickle "
                f"({type(err).__name__}: {err}); give a registered engine's name, or set SUDOKIT_START_METHOD=fork "
                "where the platform has fork"
            )
        ) from None


def _describe_code(code: int | None) -> str | None:
    """``exit status 3`` or ``killed by signal 9 (SIGKILL)`` for a multiprocessing exit code."""
    if code is None:
        return None
    if code < 0:
        try:
            return f"killed by signal {-code} ({signal.Signals(-code).name})"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


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

    def next_message(self, receive: Callable[[int], bytes]) -> Any:
        """The next message read by ``receive`` (blocking); None at the end of the input."""
        while True:
            found, message = self.pop()
            if found:
                return message
            data = receive(_READ_SIZE)
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
    #: the chunk written after ``chunk`` while it runs (items read ahead only): it starts as ``chunk`` ends
    next: list[tuple[int, I]] | None = None
    frames: _Frames = field(default_factory=_Frames)
    outgoing: bytearray = field(default_factory=bytearray)
    shared: int = 0  # bytes of the caller's memory it was forked with (in its resident memory, not its own)
    sent: float = 0.0  # when its last chunk was written to it (monotonic seconds)
    process: Any = None  # a spawned worker's multiprocessing Process (None: forked by the pool itself)
    sockets: Any = None  # a spawned worker's (commands, results) sockets, our ends (their descriptors above)
    child: bool = True  # it is this process's child (not a fork server's): waitid and its pid's group apply

    def receive(self, size: int) -> bytes:
        """What it wrote (b"": the end), without blocking (BlockingIOError: nothing yet)."""
        if self.sockets is None:
            return os.read(self.results, size)
        try:
            return self.sockets[1].recv(size)  # type: ignore[no-any-return]
        except (ConnectionResetError, ConnectionAbortedError):  # Windows: a peer that was killed
            return b""

    def write(self, data: bytes | bytearray) -> int:
        """Write what fits of ``data`` to its commands, without blocking; how much."""
        if self.sockets is None:
            return os.write(self.commands, data)
        try:
            return self.sockets[0].send(data)  # type: ignore[no-any-return]
        except (ConnectionResetError, ConnectionAbortedError) as err:
            raise BrokenPipeError(str(err)) from None

    def close_commands(self) -> None:
        if self.sockets is None:
            os.close(self.commands)
        else:
            self.sockets[0].close()

    def close_results(self) -> None:
        if self.sockets is None:
            os.close(self.results)
        else:
            self.sockets[1].close()

    def exited(self) -> bool:
        """True when it has ended (it is left to be reaped)."""
        if self.process is None or (self.child and hasattr(os, "waitid")):
            return _exited(self.pid)
        from multiprocessing.connection import wait

        return bool(wait([self.process.sentinel], 0))

    def kill(self) -> None:
        """SIGKILL to it and what is left of its process group (TerminateProcess on Windows)."""
        if hasattr(os, "killpg"):
            _kill_group(self.pid)
        if self.process is not None:
            with contextlib.suppress(OSError, ValueError):
                self.process.kill()

    def wait_exit(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for it to end, without reaping it."""
        end = time.monotonic() + timeout
        delay = 0.0001
        while not self.exited() and time.monotonic() < end:
            time.sleep(delay)
            delay = min(delay * 2, 0.02)

    def reap(self) -> str | None:
        """Wait for it to end (it has been killed, or has ended); how it ended, in a few words."""
        if self.process is None:
            status = _reap(self.pid, None)
            return None if status is None else describe_exit(status)
        self.process.join()
        code = self.process.exitcode
        with contextlib.suppress(ValueError):
            self.process.close()
        return _describe_code(code)


class WorkerPool(Generic[I, R]):
    """Runs a task's items in up to ``jobs`` killable worker processes; results in input order.

    Use it as a context manager (or call ``close``) so that no worker outlives it::

        with WorkerPool(task, jobs=2) as pool:
            pool.start()                      # load the engines now: a StrategyError here, not later
            for result in pool.map(items):
                ...
    """

    def __init__(self, task: Task[I, R], jobs: int = 1, *, isolate: bool = True, method: str | None = None) -> None:
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1, not {jobs}")
        self.task = task
        self.jobs = min(jobs, max_jobs())
        self.isolate = isolate and CAN_ISOLATE
        #: How workers start (``fork``, ``spawn``, ``forkserver``): ``method``, ``SUDOKIT_START_METHOD`` or the
        #: platform's default (:func:`start_method`).
        self.method = start_method(method) if self.isolate else "fork"
        self._shared: _SharedSlots | None = None  # the slots of spawned workers
        self._payload: bytes | None = None  # the task as the next spawned worker gets it
        self._lifeline: Any = None  # (our end, the workers' end) of the socket whose end ends them
        self.load_timeout = load_timeout()
        #: Bytes of memory a worker may hold before it is killed (None: no bound).
        self.memory = memory_limit(self.jobs) if self.isolate else None
        self._checked = 0.0  # when busy workers' memory and lives were last looked at
        self._workers: dict[int, _Worker[I]] = {}  # by pid
        self._free_slots = list(range(self.jobs))
        self._slots: mmap.mmap | None = None
        if self.isolate and self.method == "fork":
            self._slots = mmap.mmap(-1, _SLOT.size * self.jobs)
        elif self.isolate:
            self._shared = _SharedSlots(_SLOT.size * self.jobs)
            self._slots = self._shared.map
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
        """Start one worker and wait until it has loaded the engines; raise a StrategyError if it cannot.

        With more than one worker to fork, a task's ``preload()`` (if it has one) runs here first, once:
        what it loads, every forked worker inherits (a failure there is left to the workers to report).
        """
        if not self.isolate:
            if self._run is None:
                self._run = self.task.start(lambda phase: None)
                self.info = getattr(self._run, "info", None)
            return
        preload = getattr(self.task, "preload", None)
        if preload is not None and self.method == "fork" and self.jobs > 1 and not self.spawned:
            with contextlib.suppress(Exception):
                preload()
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
        if self._lifeline is not None:  # every worker has ended: any left (a fork server's child) ends now
            for sock in self._lifeline:
                sock.close()
            self._lifeline = None

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
        ahead = isinstance(items, ReadAhead)  # the next chunk may be read, and written, while the workers are busy
        # a stream: drawn only while its next item is in hand, its descriptor waited for with the workers' pipes
        stream = items if isinstance(items, Streamed) else None
        fd = -1 if stream is None else stream.fd
        ready = stream.ready if stream is not None and self._watch(fd, True) and self._watch(fd, False) else None
        watching = False  # fd waited for: only while a draw waits for it (else, readable at once, the wait spins)
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
                        exhausted, input_error = self._draw(source, queue, drawn, 1, ready)
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
                        exhausted, input_error = self._draw(source, queue, drawn, count, ready)
                        drawn += len(queue) - before
                    self._assign(worker, [queue.popleft() for _ in range(min(chunk_size, len(queue)))])
                if ahead:  # every worker busy: read the next chunk now, written to a worker with none after its own
                    if not exhausted and len(queue) < chunk_size:
                        room = self._window(chunk_size) - (drawn - yielded)
                        if room > 0:
                            before = len(queue)
                            count = min(chunk_size - len(queue), room)
                            exhausted, input_error = self._draw(source, queue, drawn, count)
                            drawn += len(queue) - before
                    for worker in self._workers.values():
                        if queue and worker.ready and worker.chunk is not None and worker.next is None:
                            worker.next = [queue.popleft() for _ in range(min(chunk_size, len(queue)))]
                            self._send(worker, worker.next)
                self._steal()
                if yielded in done:  # finished here once the workers have work: they solve on meanwhile
                    while yielded in done:
                        item, result, finished = done.pop(yielded)
                        yield result if finished else finish(item, result)
                        yielded += 1
                    continue  # the window has room again: hand out more before waiting
                if exhausted and not queue and yielded == drawn:
                    break
                if ready is not None:
                    wanted = not exhausted and not queue and drawn - yielded < self._window(chunk_size) and not ready()
                    if wanted != watching:
                        watching = self._watch(fd, wanted) and wanted
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
        finally:
            if watching:
                self._watch(fd, False)

    def _watch(self, fd: int, on: bool) -> bool:
        """Wait for ``fd`` too (a stream's), or no longer; False where the selector cannot (a regular file,
        ``/dev/null``: epoll refuses what is always readable, and such a stream is drawn as it comes)."""
        import selectors

        if self._selector is None:
            if not on:
                return True
            self._selector = selectors.DefaultSelector()
        try:
            if on:
                self._selector.register(fd, selectors.EVENT_READ, None)
            else:
                self._selector.unregister(fd)
        except (OSError, ValueError, KeyError):
            return False
        return True

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
        source: Iterator[I],
        queue: deque[tuple[int, I]],
        drawn: int,
        count: int,
        ready: Callable[[], bool] | None = None,
    ) -> tuple[bool, BaseException | None]:
        """Move up to ``count`` new items into ``queue``, numbered from ``drawn``; (exhausted, the input's error).

        With ``ready`` (a stream's), only while it says the next item can be read without waiting.
        """
        for number in range(drawn, drawn + count):
            if ready is not None and not ready():
                return False, None
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
            self._send(worker, chunk)

    def _send(self, worker: _Worker[I], chunk: list[tuple[int, I]]) -> None:
        data = pickle.dumps(chunk, protocol=pickle.HIGHEST_PROTOCOL)
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
        if self.method != "fork":  # pickled anew for each: a task may change (check drops engines that fail to load)
            self._payload = _payload(self.task, self.method)  # before any slot is taken: it may raise
        slot = self._free_slots.pop()
        assert self._slots is not None
        state = _LOADING if self.method == "fork" else _STARTING  # a new interpreter's start is not its load
        _SLOT.pack_into(self._slots, slot * _SLOT.size, state, 0, -1, time.monotonic())
        worker = self._start_process(slot) if self.method != "fork" else self._fork(slot)
        self.spawned += 1
        self._workers[worker.pid] = worker
        self._selector.register(worker.results, selectors.EVENT_READ, worker)
        return worker

    def _start_process(self, slot: int) -> _Worker[I]:
        """A worker started by multiprocessing's ``spawn`` or ``forkserver``: sent the task by pickle, talked to
        over sockets (which select on every platform), its slot in shared memory it maps."""
        import multiprocessing
        import socket

        assert self._payload is not None and self._shared is not None
        if self._lifeline is None:
            self._lifeline = socket.socketpair()
        commands, their_commands = socket.socketpair()
        results, their_results = socket.socketpair()
        direct = self.method == "spawn"  # a fork server's worker is the server's child, not ours
        context = multiprocessing.get_context(self.method)
        process = context.Process(  # type: ignore[attr-defined]
            target=_process_main,
            args=(
                self._payload,
                their_commands,
                their_results,
                self._shared,
                slot,
                os.getpid() if direct and sys.platform != "win32" else None,
                self._lifeline[1],
            ),
            name=f"sudokit-worker-{slot}",
        )
        _flush_std()
        try:
            with _interrupts_held(), _main_unseen():
                process.start()
        except BaseException:
            for sock in (commands, results):
                sock.close()
            self._free_slots.append(slot)
            raise
        finally:
            their_commands.close()
            their_results.close()
        commands.setblocking(False)
        results.setblocking(False)
        worker: _Worker[I] = _Worker(process.pid, slot, commands.fileno(), results.fileno())
        worker.process, worker.sockets, worker.child = process, (commands, results), direct
        return worker

    def _fork(self, slot: int) -> _Worker[I]:
        """A worker forked from this process: the task runs in it as it is."""
        command_read, command_write = os.pipe()
        result_read, result_write = os.pipe()
        for fd in (command_write, result_write):
            _widen_pipe(fd)
        parent = os.getpid()
        slots = self._slots
        assert slots is not None
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
                _detach(parent)
                receive, write = partial(os.read, command_read), partial(os.write, result_write)
                _worker_main(self.task, receive, write, slots, slot)
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
        return _Worker(pid, slot, command_write, result_read, shared=shared)

    def _flush(self, worker: _Worker[I]) -> None:
        """Write what fits of the worker's pending commands; watch its pipe for room for the rest."""
        import selectors

        while worker.outgoing:
            try:
                written = worker.write(worker.outgoing)
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

    def _end(self, worker: _Worker[I], *, kill: bool, exited: bool = False) -> str | None:
        """Stop watching a worker, end it (kill, or let it finish its input) and reap it; how it ended (None: unknown).

        Whatever is left of its process group (a process it forked) is killed before it is reaped (so
        that the group's number cannot have gone to another process). ``exited``: it is known to have ended.
        """
        self._workers.pop(worker.pid, None)
        if self._selector is not None:
            for fd in (worker.results, worker.commands):
                with contextlib.suppress(KeyError, ValueError):
                    self._selector.unregister(fd)
        if kill:
            worker.kill()
        worker.close_commands()  # its end of input: an idle worker leaves
        if not kill and not exited:  # a second to go: its end of the results pipe closes as it exits (seen at once)
            import select

            end = time.monotonic() + 1.0
            while (left := end - time.monotonic()) > 0:  # a process it forked may hold the pipe: look at it too
                with contextlib.suppress(OSError, ValueError):
                    if select.select([worker.results], [], [], min(left, _CHECK))[0]:
                        break
                if worker.exited():
                    break
            worker.wait_exit(max(0.0, end - time.monotonic()))
        worker.kill()  # still running after its second, or a process it forked
        how = worker.reap()
        worker.close_results()
        self._free_slots.append(worker.slot)
        return how

    # --- waiting ------------------------------------------------------------------------------

    def _next_deadline(self) -> float | None:
        """When the next deadline of a busy or loading worker falls (monotonic seconds), if any."""
        deadlines = []
        for worker in self._workers.values():
            state, number, since = self._slot(worker)
            if state == _STARTING:
                deadlines.append(since + START_TIMEOUT)
            elif state == _LOADING:
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
        for at, item in worker.chunk + (worker.next or []):  # (its chunk may be over, its answer not yet read)
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
            if worker is None:  # a stream's descriptor (``_watch``): the loop draws what came
                continue
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
                data = worker.receive(_READ_SIZE)
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
                    self._send(worker, worker.chunk)
            elif kind == "done":
                events.append(("done", worker, (worker.chunk or [], message[1], message[2])))
                worker.chunk, worker.next = worker.next, None  # the chunk written after it runs now
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
            if state == _STARTING and now - since > START_TIMEOUT:
                self._lost(worker, f"did not start within {START_TIMEOUT:g} s", events)
            elif state == _LOADING and now - since > (allowed := self._load_timeout(number)):
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
        if worker.exited():
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
        if worker.next:  # a chunk written after its own: the answer of the first, if it wrote it, is taken first
            self._read(worker, events, draining=True)  # (then the second is its chunk, the one it was lost on)
        state, number, part, _ = self._part(worker)
        ended = self._end(worker, kill=overrun is not None, exited=exited)
        if worker.next:  # never begun (a worker begins a chunk once it has answered the one before): as it was
            events.append(("requeue", worker, worker.next))
            worker.next = None
        if overrun is not None:
            how = f"{overrun}: its worker process was killed"
        else:
            how = f"its worker process ended ({ended or 'status unknown'})"
        if state == _STARTING:  # no engine of the task is to blame: nothing can run
            raise StrategyLoadError(f"a worker process could not start: {how}")
        if state == _LOADING:
            if not self.task.load_failed(number, how):
                raise StrategyLoadError(how)
            if worker.chunk:  # nothing of it ran: it goes back as it was
                events.append(("requeue", worker, worker.chunk))
        elif worker.chunk:
            events.append(("lost", worker, (worker.chunk, number if state == _WORKING else None, part, how)))


def _as_sent(item: object, result: object) -> object:
    return result


def _widen_pipe(fd: int) -> None:
    """Give a pipe room for a whole chunk or answer (``PIPE_BYTES``, Linux), where the kernel allows it.

    A block of 2,048 puzzles and its answer are about 170 and 330 KB: in a pipe of 64 KB (the default) the
    writer waits for the reader five times a message, and each wait is a round trip through the other
    process's loop (a worker waiting for the caller to come back from checking a block, or the reverse).
    """
    import fcntl

    setsize = getattr(fcntl, "F_SETPIPE_SZ", None)
    if setsize is None:
        return
    with contextlib.suppress(OSError):  # above /proc/sys/fs/pipe-max-size for an unprivileged user: as it is
        fcntl.fcntl(fd, setsize, PIPE_BYTES)


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
