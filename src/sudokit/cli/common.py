"""The ``sudoku`` command group: the Typer app, its one-line errors, and what the commands share
(output formats, option types, printing, checks of options, the batch runner).

There is no ``from __future__ import annotations`` here on purpose: Typer reads the commands'
annotations, and given strings it evaluates each one, which costs start-up time.
"""

import contextlib
import functools
import math
import os
import sys
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
import typer.core

from sudokit import __version__
from sudokit.engines.api import DEFAULT_COUNT_LIMIT
from sudokit.engines.registry import default_registry
from sudokit.errors import SudokitError
from sudokit.model.shape import Shape

if TYPE_CHECKING:
    from sudokit.runtime.session import Job

try:  # typer 0.26+ carries its own copy of click
    from typer import _click as click
except ImportError:  # pragma: no cover - older typer
    import click  # type: ignore[no-redef]


#: The shells Typer writes completion scripts for.
SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")


#: The shell named after ``--show-completion`` or ``--install-completion`` on this command line, if any.
_NAMED_SHELL: list[str] = []


def _completion_shell(typer_callback: Any, ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """``--show-completion [SHELL]`` and ``--install-completion [SHELL]``: the shell named, else the one running
    ``sudoku`` (Typer's detection, then ``$SHELL``); one line of error, exit 2, when none is known."""
    if not value or ctx.resilient_parsing:
        return value
    if _NAMED_SHELL:
        shell = _NAMED_SHELL[0]
    else:
        from typer._completion_shared import _get_shell_name

        shell = _get_shell_name() or os.path.basename(os.environ.get("SHELL", ""))
    if shell not in SHELLS:
        told = f"'{shell}' is not a shell sudoku completes" if shell else "cannot tell which shell runs sudoku"
        fail(f"--{(param.name or '').replace('_', '-')}: {told}: name it, one of {', '.join(SHELLS)}")
    return typer_callback(ctx, param, shell)


class SudokuGroup(typer.core.TyperGroup):
    """The command group, with every usage error on one line (``sudoku: error: ...``) and exit status 2.

    ``--show-completion`` and ``--install-completion`` take the shell as an optional value (Typer's own
    flags take none, so ``--show-completion bash`` ignored ``bash``, and where no shell could be detected,
    as under a process whose parent shell had exited, they failed with "Shell  not supported.").
    """

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        params = super().get_params(ctx)
        for param in params:
            wrapped = isinstance(param.callback, functools.partial)
            if param.name in ("show_completion", "install_completion") and param.callback and not wrapped:
                param.callback = functools.partial(_completion_shell, param.callback)
                what = "Install" if param.name == "install_completion" else "Show"
                shells = ", ".join(SHELLS)
                param.help = f"{what} completion for SHELL ({shells}; default: the shell running sudoku)."  # type: ignore[attr-defined]
        return params

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **kwargs: Any,
    ) -> Any:
        args = list(sys.argv[1:] if args is None else args)
        for at, arg in enumerate(args[:-1]):
            if arg in ("--show-completion", "--install-completion") and not args[at + 1].startswith("-"):
                _NAMED_SHELL[:] = [args.pop(at + 1)]
                break
        try:
            status = super().main(
                args=args,
                prog_name=prog_name,
                complete_var=complete_var,
                standalone_mode=False,
                windows_expand_args=windows_expand_args,
                **kwargs,
            )
        except click.exceptions.ClickException as err:
            if type(err).__name__ == "NoArgsIsHelpError":  # ``sudoku`` alone: the help, as asked
                err.show()
            else:
                command = getattr(getattr(err, "ctx", None), "command_path", None) or "sudoku"
                say(f"sudoku: error: {err.format_message().rstrip('.')} (see '{command} -h')")
            status = err.exit_code
        except typer.Abort:
            status = 130
        if standalone_mode:
            sys.exit(status if isinstance(status, int) else 0)
        return status


app = typer.Typer(
    name="sudoku",
    cls=SudokuGroup,
    help="Solve Sudoku of any box shape with interchangeable engines.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain text, no boxes
    context_settings={"help_option_names": ["-h", "--help"]},
)

#: Standard streams that were closed when the command started (reopened on /dev/null, so that no file
#: this command opens takes their place): records cannot go to a closed stdout, nor puzzles come from a
#: closed stdin.
CLOSED: set[int] = set()


class Color(StrEnum):
    auto = "auto"
    always = "always"
    never = "never"


class SolveFormat(StrEnum):
    pretty = "pretty"
    line = "line"
    json = "json"
    csv = "csv"
    fpuzzles = "fpuzzles"


class CheckFormat(StrEnum):
    pretty = "pretty"
    line = "line"
    json = "json"
    csv = "csv"


class TableFormat(StrEnum):
    pretty = "pretty"
    json = "json"
    csv = "csv"


class Executor(StrEnum):
    local = "local"
    dask = "dask"


class ListFormat(StrEnum):
    pretty = "pretty"
    json = "json"


# --- shared helpers ----------------------------------------------------------------------------------


def fail(message: str) -> NoReturn:
    """One line on standard error and exit status 2: bad input or usage, never a traceback."""
    say(f"sudoku: error: {message}")
    raise typer.Exit(2)


def say(message: str) -> None:
    """A line on standard error, unless it is closed."""
    if 2 in CLOSED:
        return
    with contextlib.suppress(OSError, ValueError):
        typer.echo(message, err=True)


def print_text(text: str, *, ansi: bool = False) -> None:
    """A line on standard output; a closed or full stdout is an error, a broken pipe a quiet stop.

    ``ansi`` keeps the text's colour codes even off a terminal (``--color always``).
    """
    if 1 in CLOSED:
        fail("standard output is closed: nothing can be written")
    try:
        typer.echo(text, color=True if ansi else None)
    except BrokenPipeError:
        silence_stdout()
        raise typer.Exit(141) from None
    except OSError as err:
        silence_stdout()
        fail(f"cannot write standard output: {err.strerror or err}")


def silence_stdout() -> None:
    """Point stdout at /dev/null, so that nothing fails again when Python flushes it on the way out."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    except OSError:
        pass


def _seconds(text: str | float) -> float | None:
    """A ``--time-limit``: seconds (> 0, finite), or ``0``/``none`` for no limit."""
    if isinstance(text, float | int):
        value = float(text)
    else:
        if text.strip().lower() in ("none", "0", "0.0"):
            return None
        try:
            value = float(text)
        except ValueError:
            raise typer.BadParameter(f"{text!r} is not a number of seconds (or 0 or none for no limit)") from None
    if value == 0:
        return None
    if not math.isfinite(value) or value < 0:
        raise typer.BadParameter(f"{text!r} is not a time limit: give seconds above 0, or 0 or none for no limit")
    return value


def box_shape(box: str | None) -> Shape | None:
    if box is None:
        return None
    try:
        return Shape.parse(box)
    except SudokitError as err:
        fail(str(err))


def _option_value(text: str) -> object:
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _engine_options(pairs: list[str]) -> dict[str | None, dict[str, object]]:
    """``-o KEY=VALUE`` (engine None) and ``-o ENGINE.KEY=VALUE``, by engine."""
    options: dict[str | None, dict[str, object]] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            hint = ""
            if "/" in pair or os.sep in pair or ("." in pair.strip(".") and not sep):
                hint = " (to write the records to a file, use --output/-O)"
            fail(f"option {pair!r} is not of the form KEY=VALUE{hint}")
        engine, dot, name = key.strip().rpartition(".")
        name = name.strip().replace("-", "_")
        if not name.isidentifier():
            fail(f"option {pair!r}: {name!r} is not an option name")
        options.setdefault(engine.strip() if dot else None, {})[name] = _option_value(value.strip())
    return options


def solve_options(pairs: list[str], strategy: str) -> dict[str, object]:
    """The options of the one engine ``solve`` runs: ``KEY=VALUE`` or ``ENGINE.KEY=VALUE`` naming it."""
    by_engine = _engine_options(pairs)
    for engine in by_engine:
        if engine is not None and engine != strategy:
            fail(f"option for engine {engine!r}, but this run uses {strategy!r}")
    merged: dict[str, object] = {}
    for values in by_engine.values():
        merged.update(values)
    return merged


def check_options(pairs: list[str], names: list[str] | None = None) -> dict[str, dict[str, object]]:
    """The options of the engines ``check`` or ``bench`` run (``names``; None: every installed one): each
    ``ENGINE.KEY=VALUE``, or ``KEY=VALUE`` when one engine runs, as with ``solve``."""
    by_engine = _engine_options(pairs)
    if None in by_engine:
        if names is None or len(set(names)) != 1:
            example = next(iter(by_engine[None]))
            fail(f"name the engine of option {example!r} when comparing engines: -o ENGINE.{example}=VALUE")
        plain = by_engine.pop(None)
        by_engine[names[0]] = {**by_engine.get(names[0], {}), **plain}
    return {engine: values for engine, values in by_engine.items() if engine is not None}


def complete_engines(*, several: bool, all_too: bool = True) -> Any:
    """Shell completion of ``-s``: the installed engines' names (from metadata: no engine is imported), ``all``
    where the command takes it, and with ``several`` the next name of a list ``A,B,...``."""

    def complete(incomplete: str) -> list[str]:
        names = default_registry().names()
        head, comma, last = incomplete.rpartition(",")
        if several and comma:
            given = {name.strip() for name in head.split(",")}
            return [f"{head},{name}" for name in names if name.startswith(last) and name not in given]
        return [name for name in [*names, *(["all"] if all_too else [])] if name.startswith(incomplete)]

    return complete


def several(strategies: str | None) -> list[str] | None:
    """The engines of ``-s A,B,...`` in a command that runs several; None for every installed one (no -s, or all)."""
    if strategies is None or strategies.strip() == "all":
        return None
    names = [name.strip() for name in strategies.split(",") if name.strip()]
    if "all" in names:
        fail("-s all means every installed engine: it goes alone, not in a list")
    return names


def one_engine(command: str, strategy: str) -> None:
    """Refuse ``-s all`` and ``-s A,B`` in a command that runs one engine, naming the commands that take several."""
    if strategy.strip() == "all" or "," in strategy:
        several = "all" if strategy.strip() == "all" else ",".join(n.strip() for n in strategy.split(",") if n.strip())
        fail(
            f"'sudoku {command}' takes one engine: 'sudoku check -s {several}' compares several "
            f"(or 'sudoku bench -s {several} FILE...' times them)"
        )


def use_color(color: Color | None, output: Path | None) -> bool:
    if color is Color.always:
        return True
    if color is Color.never:
        return False
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    terminal = output is None and 1 not in CLOSED and sys.stdout is not None and sys.stdout.isatty()
    return terminal and (sys.platform != "win32" or _windows_ansi())


def _windows_ansi() -> bool:
    """Turn on ANSI colours in the Windows console of standard output (virtual-terminal processing, Windows
    10 and later; Windows Terminal has it on): True if it is on, False where the console cannot show them."""
    try:
        import ctypes

        kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
        handle = kernel32.GetStdHandle(-11)  # STD_OUTPUT_HANDLE
        mode = ctypes.c_uint32()
        if not kernel32.GetConsoleMode(handle, ctypes.byref(mode)):
            return False
        return bool(mode.value & 0x0004 or kernel32.SetConsoleMode(handle, mode.value | 0x0004))
    except (AttributeError, OSError):
        return False


def is_batch(puzzles: list[str]) -> bool:
    """More than one argument, or a file or stdin: records get headers, the run a summary."""
    return len(puzzles) > 1 or any(p == "-" or (os.path.exists(p) and not os.path.isdir(p)) for p in puzzles)


def worker_count(jobs: int | None, batch: bool) -> int:
    """The worker processes to run: as asked (at most four per core), else one per core for a batch."""
    from sudokit.engines.workers import default_jobs, max_jobs

    if jobs is None:
        return default_jobs() if batch else 1
    most = max_jobs()
    if jobs > most:
        say(f"sudoku: warning: --jobs {jobs} is more than four per core: running {most}")
        return most
    return jobs


def check_output_flags(output: Path | None, force: bool, resume: bool, refusal: str | None) -> None:
    """Exit with a usage error for --resume without --output FILE or that the command refuses (``refusal``,
    its reason, or None), and for --force with --resume or without --output FILE."""
    if resume:
        if output is None:
            fail("--resume needs --output FILE: the file to continue")
        if refusal is not None:
            fail(refusal)
    if force and resume:
        fail("--force replaces the output and --resume continues it: choose one")
    if force and output is None:
        fail("--force goes with --output FILE: it allows replacing that file")


def std_output(output: Path | None, force: bool, resume: bool) -> Path | None:
    """``--output``, or None for ``-O -``: standard output, as ``-`` is standard input among the puzzles.

    ``--force`` and ``--resume`` act on a file, so with ``-O -`` they are usage errors (``-O ./-``
    names a file called ``-``).
    """
    if output is None or os.fspath(output) != "-":
        return output
    if resume:
        fail("--resume continues an --output FILE: -O - is standard output, which holds nothing to continue")
    if force:
        fail("--force lets --output FILE replace a file: -O - is standard output, which replaces nothing")
    return None


def parquet_output(output: Path | None) -> bool:
    """True for an --output FILE that is written as Parquet (``*.parquet``), as ``sudokit.io.tables`` decides."""
    from sudokit.io.reader import is_table

    return output is not None and is_table(output) == "parquet"


def run_job(
    puzzles: list[str],
    job: "Job",
    *,
    box: Shape | None,
    jobs: int | None,
    output: Path | None,
    force: bool,
    resume: bool,
    quiet: bool,
    executor: Executor = Executor.local,
    scheduler: str | None = None,
    tables: Any = None,
    line: int | None = None,
) -> NoReturn:
    """Run a batch session and exit with its status (``tables``: how *.csv and *.parquet inputs are read).

    ``line``: of each input only its puzzle on that line (``--line N``).
    """
    from sudokit.runtime.session import RESUMABLE_FORMATS, Session

    if tables is None and parquet_output(output):
        fail(f"--output {output}: Parquet files are written from the csv records of 'sudoku solve -f csv' only")
    refusal = None
    if job.fmt not in RESUMABLE_FORMATS:
        refusal = f"--resume needs --format line, json or csv: records it can check against the input, not {job.fmt}"
    check_output_flags(output, force, resume, refusal)
    if "-" in puzzles and 0 in CLOSED:
        fail("standard input is closed: there are no puzzles to read from -")
    pool = _executor(executor, scheduler, jobs)
    batch = is_batch(puzzles)
    session = Session(
        puzzles,
        job,
        box=box,
        jobs=worker_count(jobs, batch),
        output=output,
        force=force,
        resume=resume,
        quiet=quiet,
        batch=batch,
        out=None if 1 in CLOSED else sys.stdout,
        err=None if 2 in CLOSED else sys.stderr,
        pool=pool,
        tables=tables,
        line=line,
    )
    status = session.run()
    if status == 141:
        silence_stdout()
    raise typer.Exit(status)


def _executor(executor: Executor, scheduler: str | None, jobs: int | None) -> Any:
    """The pool factory of ``--executor dask`` (None: local worker processes); usage errors exit 2."""
    if executor is Executor.local:
        if scheduler is not None:
            fail("--scheduler is the Dask cluster's address: it goes with --executor dask")
        return None
    if scheduler is None or not scheduler.strip():
        fail("--executor dask needs --scheduler ADDRESS: the Dask scheduler to run on (e.g. tcp://10.0.0.5:8786)")
    if jobs is not None:
        fail("--jobs sets local worker processes: with --executor dask the cluster's workers run the batch")
    from sudokit.runtime.executors import dask_pool

    try:
        return dask_pool(scheduler.strip())
    except SudokitError as err:
        fail(str(err))


# --- options shared by solve and check -------------------------------------------------------------

Puzzles = Annotated[
    list[str],
    typer.Argument(metavar="PUZZLE...", help="Puzzles, files of puzzles (one per line), or - for stdin."),
]


def time_limit_option(per: str) -> Any:
    return typer.Option(
        "--time-limit", "-t", parser=_seconds, metavar="SECONDS", help=f"Seconds {per}; 0 or none: no limit."
    )


TimeLimit = Annotated[Any, time_limit_option("per puzzle")]
EngineTimeLimit = Annotated[Any, time_limit_option("per engine and puzzle")]
SolveTimeLimit = Annotated[Any, time_limit_option("per solve")]
Box = Annotated[
    str | None, typer.Option("--box", metavar="RxC", help="Box shape, e.g. 2x3, where the size leaves it open.")
]
Jobs = Annotated[
    int | None,
    typer.Option(
        "--jobs", "-j", min=1, metavar="N", help="Worker processes (default: one per core for a batch, else 1)."
    ),
]
Output = Annotated[
    Path | None,
    typer.Option("--output", "-O", dir_okay=False, metavar="FILE", help="Write the records to FILE (-: stdout)."),
]
Force = Annotated[bool, typer.Option("--force", help="Let --output replace a file that holds data.")]
Resume = Annotated[
    bool, typer.Option("--resume", help="Continue an interrupted batch: skip the puzzles --output already holds.")
]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar and no summary.")]
Column = Annotated[
    str | None,
    typer.Option("--column", metavar="NAME", help="The puzzle column of .csv/.parquet inputs (default: by header)."),
]
Expect = Annotated[
    str | None,
    typer.Option(
        "--expect", metavar="NAME|none", help="The expected-solution column to compare with (default: by header)."
    ),
]


def table_plan(puzzles: list[str], column: str | None, expect: str | None, **checks: Any) -> Any:
    """How table inputs are read, and whether records are compared (a ``sudokit.io.tables.TablePlan``)."""
    from sudokit.io.reader import is_table

    output = checks.get("output")
    if column is None and expect is None and not any(is_table(p) for p in [*puzzles, output or ""]):
        return None  # no table anywhere: sudokit.io.tables (and the batch machinery) stay unimported
    from sudokit.io.tables import plan_tables

    try:
        return plan_tables(puzzles, column=column, expect=expect, **checks)
    except SudokitError as err:
        fail(str(err))


ExecutorOption = Annotated[
    Executor,
    typer.Option(
        "--executor", help="local: worker processes here (--jobs); dask: an existing Dask cluster (--scheduler)."
    ),
]
Scheduler = Annotated[
    str | None,
    typer.Option(
        "--scheduler", metavar="ADDRESS", help="The Dask scheduler, e.g. tcp://10.0.0.5:8786 (--executor dask)."
    ),
]
Count = Annotated[
    bool, typer.Option("--count", help=f"Count the solutions (exactly, up to --limit, default {DEFAULT_COUNT_LIMIT}).")
]
Limit = Annotated[
    int | None, typer.Option("--limit", min=1, metavar="N", help="Solutions to look for (default: 1; 2 with check).")
]
Stats = Annotated[bool, typer.Option("--stats", help="Show the engines' counters (nodes, guesses, ...).")]
Unique = Annotated[
    bool, typer.Option("--unique", help="Say whether each puzzle has one solution: unique, several or none.")
]


def stats_in_json(formats: type[StrEnum]) -> str:
    """Why --stats goes without --format json (a json record always holds the counters), naming the command's
    other formats that show them."""
    shown = [f.value for f in formats if f.value not in ("json", "fpuzzles")]
    return (
        f"--stats shows the engines' counters beside {', '.join(shown[:-1])} or {shown[-1]} output; "
        "json records always hold them"
    )


@app.callback(invoke_without_command=True)
def main_options(
    ctx: typer.Context,
    version: Annotated[bool, typer.Option("--version", "-V", is_eager=True, help="Show the version and exit.")] = False,
) -> None:
    """Solve Sudoku of any box shape with interchangeable engines (sudokit)."""
    if version:
        print_text(f"sudoku (sudokit) {__version__}")
        raise typer.Exit(0)
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
        raise typer.Exit(2)


def check_known(*names: str) -> None:
    """Fail at once, naming the installed engines, for a name that is not one (nothing is loaded)."""
    installed = default_registry().names()
    for name in names:
        if name not in installed:
            fail(f"unknown strategy {name!r} (installed: {', '.join(installed) or 'none'})")


def print_table(rows: list[Any]) -> None:
    head = ("data set", "engine", "puzzles", "solved", "timeouts", "mean ms", "median", "p95", "max", "puzzles/s")
    table = [head] + [
        (
            r.data_set,
            r.strategy,
            r.puzzles,
            r.solved,
            r.timeouts,
            r.mean_ms,
            r.median_ms,
            r.p95_ms,
            r.max_ms,
            r.per_second,
        )
        for r in rows
    ]
    cells = [[_cell(v) for v in line] for line in table]
    widths = [max(len(line[k]) for line in cells) for k in range(len(head))]
    for line in cells:
        print_text(
            "  ".join(v.ljust(w) if k < 2 else v.rjust(w) for k, (v, w) in enumerate(zip(line, widths, strict=True)))
        )
    bad = sum(r.errors + r.invalid + r.unsolvable for r in rows)
    if bad:
        from sudokit.runtime.progress import counted

        were = "was" if bad == 1 else "were"
        print_text(f"note: {counted(bad, 'puzzle run')} {were} unsolvable, invalid or failed (see --format json)")


def _cell(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)
