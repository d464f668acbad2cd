"""The ``sudoku`` command: parses arguments and prints; the work is done by the library.

Batches (``solve``, ``check``) run through :class:`sudokit.runtime.session.Session`, benchmarks through
:func:`sudokit.features.bench.benchmark`; engines always run in killable worker processes.

The commands live in one module each (``solve``, ``check``, ``candidates``, ``bench``, ``strategies``, ``logic``,
``generate``, ``serve``; what they share in ``common``), each registering its commands on the Typer app when
imported. ``sudoku CMD`` imports only the module of ``CMD`` (:func:`load_commands`); ``app`` (this
package's attribute) is the app with every command.
"""

import contextlib
import copy
import errno
import importlib
import os
import sys
import warnings
from typing import NoReturn, TextIO

import typer
import typer.main
import typer.models

from sudokit.cli.common import CLOSED, say, silence_stdout
from sudokit.cli.common import app as _app
from sudokit.engines.registry import StrategyLoadWarning

__all__ = ["COMMANDS", "app", "load_commands", "main"]

#: Each command, in the order ``sudoku --help`` lists them, and the module that registers it.
COMMANDS = {
    "solve": "solve",
    "check": "check",
    "candidates": "candidates",
    "bench": "bench",
    "strategies": "strategies",
    "hint": "logic",
    "explain": "logic",
    "rate": "logic",
    "generate": "generate",
    "serve": "serve",
}


def load_commands(name: str | None = None) -> typer.Typer:
    """The app, once the module of command ``name`` is imported (every command's for None or another name).

    A command module registers its commands when imported: ``sudoku solve`` does not pay for the
    other commands' modules. The registered commands are kept in the order of :data:`COMMANDS`.
    """
    modules = [COMMANDS[name]] if name in COMMANDS else list(dict.fromkeys(COMMANDS.values()))
    for module in modules:
        importlib.import_module(f"sudokit.cli.{module}")
    order = list(COMMANDS)
    _app.registered_commands.sort(key=lambda info: order.index(_command_name(info) or ""))
    return _app


def __getattr__(name: str) -> object:
    """``app``: the Typer app with every command (their modules imported on first use)."""
    if name == "app":
        return load_commands()
    raise AttributeError(f"module 'sudokit.cli' has no attribute {name!r}")


def _show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    say(f"sudoku: warning: {message}")


def _reopen_closed_std_fds() -> None:
    """Put /dev/null on a closed stdin, stdout or stderr (remembered in CLOSED), so no file lands there."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            CLOSED.add(fd)
    if not CLOSED:
        return
    for fd in sorted(CLOSED):
        opened = os.open(os.devnull, os.O_RDWR)
        if opened != fd:
            os.dup2(opened, fd)
            os.close(opened)
    streams: dict[int, tuple[str, str]] = {0: ("stdin", "r"), 1: ("stdout", "w"), 2: ("stderr", "w")}
    for fd in CLOSED:
        name, mode = streams[fd]
        stream = open(fd, mode, closefd=False)  # noqa: SIM115
        setattr(sys, name, stream)


def _app_for(args: list[str]) -> typer.Typer:
    """``app``, or a copy of it holding only the command ``args`` start with (``sudoku solve ...``).

    Typer makes the click options of every command it holds before it parses anything: all ten
    commands take 3 ms, a sixth of sudokit's own start-up, and one 1 ms. Anything else (no command,
    an option first, a misspelled command, shell completion) gets the whole app.
    """
    if args and args[0] in COMMANDS:
        named = [info for info in load_commands(args[0]).registered_commands if _command_name(info) == args[0]]
        if len(named) == 1:
            one = copy.copy(_app)
            one.registered_commands = named
            return one
    return load_commands()


def _command_name(info: typer.models.CommandInfo) -> str | None:
    """The name a registered command is called by, as typer gives it."""
    if info.name:
        return info.name
    return None if info.callback is None else typer.main.get_command_name(info.callback.__name__)


def main(args: list[str] | None = None) -> NoReturn:
    """Console entry point: one-line errors, never a traceback; exit 141 on a broken pipe, 130 on Ctrl-C.

    Once the streams are flushed the process ends with ``os._exit``: by then every worker has been
    ended and every file closed, and the interpreter's own teardown (freeing every module) took
    ~14 ms, as long as the rest of a lone puzzle's solve.
    """
    _reopen_closed_std_fds()
    warnings.showwarning = _show_warning
    # An engine that fails to load raises StrategyLoadError too, which every command reports: one line, not two.
    warnings.filterwarnings("ignore", category=StrategyLoadWarning)
    command = typer.main.get_command(_app_for(sys.argv[1:] if args is None else args))
    try:
        status = command.main(args=args, prog_name="sudoku", standalone_mode=False)
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except SystemExit as stop:  # shell completion ends this way
        status = stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 1
    except KeyboardInterrupt:
        status = 130
    except OSError as err:  # writing stdout failed (help, a listing): the records' own writes say so themselves
        silence_stdout()
        if err.errno == errno.EPIPE:
            status = 141
        else:
            say(f"sudoku: error: cannot write standard output: {err.strerror or err}")
            status = 2
    with contextlib.suppress(OSError, ValueError):
        if sys.stderr is not None:
            sys.stderr.flush()
    os._exit(status if isinstance(status, int) else 0)


if __name__ == "__main__":
    main()
