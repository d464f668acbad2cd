"""The watchdog of an in-process engine call: a SIGALRM timer that stops an engine still running well
past its time limit, and a record of Ctrl-C while it runs. Where there is no SIGALRM (Windows) a
thread of the process raises into the call at its deadline instead (:class:`_ThreadTimer`).

:func:`sudokit.engines.api.run` arms a :class:`Guard` around every engine call; the worker pool
(:mod:`sudokit.engines.workers`) kills from outside a worker still running ``KILL_GRACE`` seconds after
the watchdog's deadline (:func:`watchdog_seconds`).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from typing import Any

try:  # signal's own functions without the enum wrappers of the ``signal`` module: 0.2 us a call, not 3 us
    import _signal as _sig
except ImportError:  # pragma: no cover - an interpreter without it
    _sig = signal

__all__ = ["KILL_GRACE", "WATCHDOG_REPEAT", "EngineOverranError", "Guard", "raised_by_a_signal", "watchdog_seconds"]

#: The watchdog raises again this often (seconds) until the engine stops.
WATCHDOG_REPEAT = 0.5
#: The longest timer armed (about 31 years): ``setitimer`` refuses 1e10 s.
_LONGEST_TIMER = 1e9
_HAS_TIMER = hasattr(signal, "setitimer")
#: Seconds after the in-process watchdog (``watchdog_seconds``) before a worker is killed from outside.
KILL_GRACE = 1.0
_SIGINT = int(signal.SIGINT)
_DEFAULT_INT_HANDLER = signal.default_int_handler
_get_ident = threading.get_ident
#: The ident of the thread that signals reach (the main thread; after a fork, the thread that forked).
_MAIN_IDENT = threading.main_thread().ident


def _after_fork() -> None:
    global _MAIN_IDENT
    _MAIN_IDENT = threading.main_thread().ident  # threading's own after-fork hook, registered before, has run


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)


def watchdog_seconds(time_limit: float) -> float:
    """How long an engine may run before the watchdog stops it: its limit plus 2 s and 10 %."""
    return time_limit * 1.1 + 2.0


class EngineOverranError(BaseException):
    """An engine still running well past its time limit (raised into it by the watchdog).

    Not an ``Exception``: an engine that catches every ``Exception`` in its loop cannot swallow it.
    """


class Guard:
    """One engine call's watchdog and Ctrl-C record, armed where signals can reach it (main thread, POSIX).

    ``Guard(time_limit)``; ``arm()`` before the call, ``disarm()`` after it (also when it raised);
    then ``fired`` says the watchdog raised ``EngineOverranError`` into the call, ``interrupted`` that
    Ctrl-C came. With no time limit only Ctrl-C is recorded.
    """

    __slots__ = ("alarm", "fired", "interrupted", "previous_alarm", "running", "sigint", "time_limit")

    def __init__(self, time_limit: float | None) -> None:
        self.time_limit = time_limit
        self.running = self.alarm = self.sigint = False  # what is armed
        self.fired = self.interrupted = False  # what happened
        self.previous_alarm: Any = None

    def arm(self) -> None:
        """Install the Ctrl-C record (over Python's default handler only) and the watchdog (if no timer is set)."""
        if _get_ident() != _MAIN_IDENT:
            return  # signals reach the main thread only
        self.running = True
        if _sig.getsignal(_SIGINT) is _DEFAULT_INT_HANDLER:
            _sig.signal(_SIGINT, self.on_sigint)
            self.sigint = True
        if self.time_limit is None:
            return
        if not _HAS_TIMER:  # no SIGALRM (Windows): a thread raises into the call instead
            _thread_timer().arm(self, min(watchdog_seconds(self.time_limit), _LONGEST_TIMER))
            self.alarm = True
            return
        if _sig.getsignal(signal.SIGALRM) is None:
            return  # a handler set outside Python that could not be put back
        seconds = min(watchdog_seconds(self.time_limit), _LONGEST_TIMER)
        other = _sig.setitimer(signal.ITIMER_REAL, seconds, WATCHDOG_REPEAT)
        if other[0] > 0:  # someone else's timer (an outer watchdog, the caller's alarm): theirs, not ours
            _sig.setitimer(signal.ITIMER_REAL, *other)
            return
        self.previous_alarm = _sig.signal(signal.SIGALRM, self.on_alarm)
        self.alarm = True

    def disarm(self) -> None:
        """Put back what ``arm`` changed (each flag cleared after its step, so that this can run again)."""
        self.running = False
        if self.alarm:
            if _HAS_TIMER:
                _sig.setitimer(signal.ITIMER_REAL, 0)
                _sig.signal(signal.SIGALRM, self.previous_alarm)
            else:
                _thread_timer().disarm(self)
            self.alarm = False
        if self.sigint:
            _sig.signal(_SIGINT, _DEFAULT_INT_HANDLER)
            self.sigint = False

    def on_alarm(self, signum: int, frame: object) -> None:
        """The watchdog: stop the engine, and note that it overran."""
        if self.running:
            self.fired = True
            raise EngineOverranError(f"still running past its time limit of {self.time_limit:g} s")

    def on_sigint(self, signum: int, frame: object) -> None:
        """Ctrl-C: note that it came from the user, and interrupt as Python's default handler does."""
        self.interrupted = True
        raise KeyboardInterrupt


class _ThreadTimer:
    """The watchdog without SIGALRM: one thread of the process that raises ``EngineOverranError`` into the
    armed call's thread at its deadline (``PyThreadState_SetAsyncExc``), and again every ``WATCHDOG_REPEAT``
    seconds until it is disarmed. Like the signal, it lands when the engine runs Python code; an engine held
    in C code is the worker pool's to kill. A raise never outlives its call: disarm takes back one pending.
    """

    def __init__(self) -> None:
        self.lock = threading.Condition()
        self.guard: Guard | None = None
        self.target = 0  # the armed call's thread
        self.deadline = 0.0  # monotonic seconds
        self.thread: threading.Thread | None = None

    def arm(self, guard: Guard, seconds: float) -> None:
        with self.lock:
            self.guard, self.target, self.deadline = guard, threading.get_ident(), time.monotonic() + seconds
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self._run, name="sudokit watchdog", daemon=True)
                self.thread.start()
            self.lock.notify()

    def disarm(self, guard: Guard) -> None:
        with self.lock:
            if self.guard is guard:
                self.guard = None
                if guard.fired:
                    _raise_in(self.target, None)  # a raise not yet landed: taken back
                self.lock.notify()

    def _run(self) -> None:
        with self.lock:
            while True:
                if self.guard is None:
                    self.lock.wait()
                    continue
                left = self.deadline - time.monotonic()
                if left > 0:
                    self.lock.wait(left)
                    continue
                self.guard.fired = True
                self.deadline = time.monotonic() + WATCHDOG_REPEAT
                _raise_in(self.target, EngineOverranError)


_TIMER: list[_ThreadTimer] = []


def _thread_timer() -> _ThreadTimer:
    if not _TIMER:
        _TIMER.append(_ThreadTimer())
    return _TIMER[0]


def _raise_in(thread: int, exc: type[BaseException] | None) -> None:
    """Raise ``exc`` in thread ``thread`` when it next runs Python code (None: take back one not yet raised)."""
    import ctypes

    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), ctypes.py_object(exc) if exc else None)


def raised_by_a_signal(err: BaseException) -> bool:
    """True when ``err`` was raised in a Python signal handler: someone else's (a kill, an outer watchdog).

    An engine call's own ``KeyboardInterrupt`` or ``SystemExit`` is its failure; one raised by the
    caller's signal handler passes through.
    """
    codes = set()
    for signum in signal.valid_signals():
        try:
            handler = _sig.getsignal(signum)
        except (OSError, ValueError):
            continue
        code = getattr(getattr(handler, "__func__", handler), "__code__", None)
        if code is not None:
            codes.add(code)
    tb = err.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code in codes:
            return True
        tb = tb.tb_next
    return False
