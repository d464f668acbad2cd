"""The ``sudoku`` command: parses arguments and prints; the work is done by the library.

Batches (``solve``, ``check``) run through :class:`sudokit.session.Session`, benchmarks through
:func:`sudokit.bench.benchmark`; engines always run in killable worker processes.

There is no ``from __future__ import annotations`` here on purpose: Typer reads the commands'
annotations, and given strings it evaluates each one, which cost ~7 ms of every start of ``sudoku``.
"""

import contextlib
import copy
import errno
import functools
import math
import os
import sys
import warnings
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TextIO

import typer
import typer.core

from sudokit import __version__
from sudokit.api import DEFAULT_COUNT_LIMIT
from sudokit.errors import StrategyError, SudokitError
from sudokit.registry import StrategyLoadWarning, default_registry
from sudokit.shape import Shape

if TYPE_CHECKING:
    from sudokit.session import Job

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
        _fail(f"--{(param.name or '').replace('_', '-')}: {told}: name it, one of {', '.join(SHELLS)}")
    return typer_callback(ctx, param, shell)


class _Sudoku(typer.core.TyperGroup):
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
                _say(f"sudoku: error: {err.format_message().rstrip('.')} (see '{command} -h')")
            status = err.exit_code
        except typer.Abort:
            status = 130
        if standalone_mode:
            sys.exit(status if isinstance(status, int) else 0)
        return status


app = typer.Typer(
    name="sudoku",
    cls=_Sudoku,
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


def _fail(message: str) -> NoReturn:
    """One line on standard error and exit status 2: bad input or usage, never a traceback."""
    _say(f"sudoku: error: {message}")
    raise typer.Exit(2)


def _say(message: str) -> None:
    """A line on standard error, unless it is closed."""
    if 2 in CLOSED:
        return
    with contextlib.suppress(OSError, ValueError):
        typer.echo(message, err=True)


def _print(text: str, *, ansi: bool = False) -> None:
    """A line on standard output; a closed or full stdout is an error, a broken pipe a quiet stop.

    ``ansi`` keeps the text's colour codes even off a terminal (``--color always``).
    """
    if 1 in CLOSED:
        _fail("standard output is closed: nothing can be written")
    try:
        typer.echo(text, color=True if ansi else None)
    except BrokenPipeError:
        _silence_stdout()
        raise typer.Exit(141) from None
    except OSError as err:
        _silence_stdout()
        _fail(f"cannot write standard output: {err.strerror or err}")


def _silence_stdout() -> None:
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


def _shape(box: str | None) -> Shape | None:
    if box is None:
        return None
    try:
        return Shape.parse(box)
    except SudokitError as err:
        _fail(str(err))


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
            _fail(f"option {pair!r} is not of the form KEY=VALUE{hint}")
        engine, dot, name = key.strip().rpartition(".")
        name = name.strip().replace("-", "_")
        if not name.isidentifier():
            _fail(f"option {pair!r}: {name!r} is not an option name")
        options.setdefault(engine.strip() if dot else None, {})[name] = _option_value(value.strip())
    return options


def _solve_options(pairs: list[str], strategy: str) -> dict[str, object]:
    """The options of the one engine ``solve`` runs: ``KEY=VALUE`` or ``ENGINE.KEY=VALUE`` naming it."""
    by_engine = _engine_options(pairs)
    for engine in by_engine:
        if engine is not None and engine != strategy:
            _fail(f"option for engine {engine!r}, but this run uses {strategy!r}")
    merged: dict[str, object] = {}
    for values in by_engine.values():
        merged.update(values)
    return merged


def _check_options(pairs: list[str], names: list[str] | None = None) -> dict[str, dict[str, object]]:
    """The options of the engines ``check`` or ``bench`` run (``names``; None: every installed one): each
    ``ENGINE.KEY=VALUE``, or ``KEY=VALUE`` when one engine runs, as with ``solve``."""
    by_engine = _engine_options(pairs)
    if None in by_engine:
        if names is None or len(set(names)) != 1:
            example = next(iter(by_engine[None]))
            _fail(f"name the engine of option {example!r} when comparing engines: -o ENGINE.{example}=VALUE")
        plain = by_engine.pop(None)
        by_engine[names[0]] = {**by_engine.get(names[0], {}), **plain}
    return {engine: values for engine, values in by_engine.items() if engine is not None}


def _complete_engines(*, several: bool, all_too: bool = True) -> Any:
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


def _several(strategies: str | None) -> list[str] | None:
    """The engines of ``-s A,B,...`` in a command that runs several; None for every installed one (no -s, or all)."""
    if strategies is None or strategies.strip() == "all":
        return None
    names = [name.strip() for name in strategies.split(",") if name.strip()]
    if "all" in names:
        _fail("-s all means every installed engine: it goes alone, not in a list")
    return names


def _one_engine(command: str, strategy: str) -> None:
    """Refuse ``-s all`` and ``-s A,B`` in a command that runs one engine, naming the commands that take several."""
    if strategy.strip() == "all" or "," in strategy:
        several = "all" if strategy.strip() == "all" else ",".join(n.strip() for n in strategy.split(",") if n.strip())
        _fail(
            f"'sudoku {command}' takes one engine: 'sudoku check -s {several}' compares several "
            f"(or 'sudoku bench -s {several} FILE...' times them)"
        )


def _use_color(color: Color | None, output: Path | None) -> bool:
    if color is Color.always:
        return True
    if color is Color.never:
        return False
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return output is None and 1 not in CLOSED and sys.stdout is not None and sys.stdout.isatty()


def _is_batch(puzzles: list[str]) -> bool:
    """More than one argument, or a file or stdin: records get headers, the run a summary."""
    return len(puzzles) > 1 or any(p == "-" or (os.path.exists(p) and not os.path.isdir(p)) for p in puzzles)


def _jobs(jobs: int | None, batch: bool) -> int:
    """The worker processes to run: as asked (at most four per core), else one per core for a batch."""
    from sudokit.workers import default_jobs, max_jobs

    if jobs is None:
        return default_jobs() if batch else 1
    most = max_jobs()
    if jobs > most:
        _say(f"sudoku: warning: --jobs {jobs} is more than four per core: running {most}")
        return most
    return jobs


def _check_output_flags(output: Path | None, force: bool, resume: bool, refusal: str | None) -> None:
    """Exit with a usage error for --resume without --output FILE or that the command refuses (``refusal``,
    its reason, or None), and for --force with --resume or without --output FILE."""
    if resume:
        if output is None:
            _fail("--resume needs --output FILE: the file to continue")
        if refusal is not None:
            _fail(refusal)
    if force and resume:
        _fail("--force replaces the output and --resume continues it: choose one")
    if force and output is None:
        _fail("--force goes with --output FILE: it allows replacing that file")


def _std_output(output: Path | None, force: bool, resume: bool) -> Path | None:
    """``--output``, or None for ``-O -``: standard output, as ``-`` is standard input among the puzzles.

    ``--force`` and ``--resume`` act on a file, so with ``-O -`` they are usage errors (``-O ./-``
    names a file called ``-``).
    """
    if output is None or os.fspath(output) != "-":
        return output
    if resume:
        _fail("--resume continues an --output FILE: -O - is standard output, which holds nothing to continue")
    if force:
        _fail("--force lets --output FILE replace a file: -O - is standard output, which replaces nothing")
    return None


def _parquet_output(output: Path | None) -> bool:
    """True for an --output FILE that is written as Parquet (``*.parquet``), as ``sudokit.datasets`` decides."""
    from sudokit.reader import is_table

    return output is not None and is_table(output) == "parquet"


def _run(
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
    from sudokit.session import Session

    if tables is None and _parquet_output(output):
        _fail(f"--output {output}: Parquet files are written from the csv records of 'sudoku solve -f csv' only")
    refusal = None
    if job.fmt in ("pretty", "fpuzzles"):
        refusal = f"--resume needs --format line, json or csv: records it can check against the input, not {job.fmt}"
    _check_output_flags(output, force, resume, refusal)
    if "-" in puzzles and 0 in CLOSED:
        _fail("standard input is closed: there are no puzzles to read from -")
    pool = _executor(executor, scheduler, jobs)
    batch = _is_batch(puzzles)
    session = Session(
        puzzles,
        job,
        box=box,
        jobs=_jobs(jobs, batch),
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
        _silence_stdout()
    raise typer.Exit(status)


def _executor(executor: Executor, scheduler: str | None, jobs: int | None) -> Any:
    """The pool factory of ``--executor dask`` (None: local worker processes); usage errors exit 2."""
    if executor is Executor.local:
        if scheduler is not None:
            _fail("--scheduler is the Dask cluster's address: it goes with --executor dask")
        return None
    if scheduler is None or not scheduler.strip():
        _fail("--executor dask needs --scheduler ADDRESS: the Dask scheduler to run on (e.g. tcp://10.0.0.5:8786)")
    if jobs is not None:
        _fail("--jobs sets local worker processes: with --executor dask the cluster's workers run the batch")
    from sudokit.executors import dask_pool

    try:
        return dask_pool(scheduler.strip())
    except SudokitError as err:
        _fail(str(err))


# --- options shared by solve and check -------------------------------------------------------------

Puzzles = Annotated[
    list[str],
    typer.Argument(metavar="PUZZLE...", help="Puzzles, files of puzzles (one per line), or - for stdin."),
]


def _time_limit_option(per: str) -> Any:
    return typer.Option(
        "--time-limit", "-t", parser=_seconds, metavar="SECONDS", help=f"Seconds {per}; 0 or none: no limit."
    )


TimeLimit = Annotated[Any, _time_limit_option("per puzzle")]
EngineTimeLimit = Annotated[Any, _time_limit_option("per engine and puzzle")]
SolveTimeLimit = Annotated[Any, _time_limit_option("per solve")]
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


def _tables(puzzles: list[str], column: str | None, expect: str | None, **checks: Any) -> Any:
    """How table inputs are read, and whether records are compared (a ``sudokit.datasets.TablePlan``)."""
    from sudokit.reader import is_table

    output = checks.get("output")
    if column is None and expect is None and not any(is_table(p) for p in [*puzzles, output or ""]):
        return None  # no table anywhere: sudokit.datasets (and the batch machinery) stay unimported
    from sudokit.datasets import plan_tables

    try:
        return plan_tables(puzzles, column=column, expect=expect, **checks)
    except SudokitError as err:
        _fail(str(err))


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


def _stats_in_json(formats: type[StrEnum]) -> str:
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
        _print(f"sudoku (sudokit) {__version__}")
        raise typer.Exit(0)
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
        raise typer.Exit(2)


@app.command(short_help="Solve puzzles, count their solutions or check uniqueness.")
def solve(
    puzzles: Puzzles,
    strategy: Annotated[
        str,
        typer.Option(
            "--strategy",
            "-s",
            metavar="NAME",
            help="Engine (see 'sudoku strategies'); all: cross-check.",
            autocompletion=_complete_engines(several=False),
        ),
    ] = "backtrack",
    fmt: Annotated[
        SolveFormat,
        typer.Option("--format", "-f", help="Output form (fpuzzles: each puzzle's f-puzzles link, solution included)."),
    ] = SolveFormat.pretty,
    count: Count = False,
    unique: Unique = False,
    limit: Limit = None,
    time_limit: TimeLimit = "60",
    stats: Stats = False,
    box: Box = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", metavar="KEY=VALUE", help="Engine option, e.g. order=plain (repeatable)."),
    ] = None,
    color: Annotated[
        Color | None,
        typer.Option("--color", help="Filled cells in red: auto (on a terminal, unless NO_COLOR), always, never."),
    ] = None,
    jobs: Jobs = None,
    output: Output = None,
    force: Force = False,
    resume: Resume = False,
    quiet: Quiet = False,
    executor: ExecutorOption = Executor.local,
    scheduler: Scheduler = None,
    column: Column = None,
    expect: Expect = None,
) -> None:
    """Solve puzzles (or count their solutions, or decide uniqueness) with the chosen engine.

    A .csv or .parquet file is a table: the puzzle column is --column or the header's quizzes, puzzle
    or question; its solutions, solution or answer column (or --expect NAME; --expect none: off) is
    compared with each answer, and records that differ are reported.

    Every input puzzle gets exactly one output record, in input order, failed ones included; records
    are written whole and flushed as they complete. A file runs on all cores (--jobs), streamed.
    With --strategy all, every installed engine solves each puzzle and the answers are compared,
    as 'sudoku check' does.

    Exit status: 0 all solved (counted; unique with --unique), 1 some puzzle has no solution (not
    unique) or timed out, 2 invalid input, usage, or an engine failed.
    """
    output = _std_output(output, force, resume)
    if unique and (count or limit is not None):
        _fail("--unique counts to 2 itself: it goes without --count and --limit")
    if fmt is SolveFormat.fpuzzles and (count or unique or limit is not None):
        _fail(
            "--format fpuzzles writes each puzzle's link with its one solution: "
            "it goes without --count, --unique and --limit"
        )
    if color is not None and (fmt is not SolveFormat.pretty or count):
        _fail("--color colours the solution grids of --format pretty: there are none to colour here")
    shape = _shape(box)
    if strategy == "all":
        if fmt is SolveFormat.fpuzzles:
            _fail(f"--strategy all (the cross-check) writes pretty, line, json or csv, not {fmt.value}")
        if color is not None:
            _fail("--color colours solution grids: the cross-check of --strategy all prints none")
        _check(
            puzzles,
            None,
            CheckFormat(fmt.value),
            count,
            limit,
            time_limit,
            stats,
            shape,
            option or [],
            jobs,
            output,
            force,
            resume,
            quiet,
            executor=executor,
            scheduler=scheduler,
            column=column,
            expect=expect,
            unique=unique,
        )
    if stats and fmt is SolveFormat.json:
        _fail(_stats_in_json(SolveFormat))
    from sudokit.batch import SolveJob
    from sudokit.output import RecordFormat

    _one_engine("solve", strategy)
    if fmt is SolveFormat.fpuzzles and not _is_batch(puzzles):
        _refuse_unlinkable(puzzles[0], shape)

    options = _solve_options(option or [], strategy)
    _known(strategy)
    limit = 2 if unique else limit or (DEFAULT_COUNT_LIMIT if count else 1)
    render = RecordFormat(
        fmt.value,
        counting=count,
        limit=limit,
        color=_use_color(color, output),
        header=_is_batch(puzzles),
        stats=stats,
        unique=unique,
    )
    keep = render.keep()  # the solutions the records show, not every one found
    tables = _tables(puzzles, column, expect, output=output, fmt=fmt.value, resume=resume)
    if tables is not None and tables.compare:
        from dataclasses import replace

        from sudokit.datasets import CompareJob

        render = replace(render, expect=True)
        job: SolveJob = CompareJob(strategy, options, render, keep=keep, time_limit=time_limit, box=shape)
    else:
        job = SolveJob(strategy, options, render, keep=keep, time_limit=time_limit, box=shape)
    _run(
        puzzles,
        job,
        box=shape,
        jobs=jobs,
        output=output,
        force=force,
        resume=resume,
        quiet=quiet,
        executor=executor,
        scheduler=scheduler,
        tables=None if tables is None else tables.options,
    )


def _refuse_unlinkable(puzzle: str, box: Shape | None) -> None:
    """Fail before solving a lone puzzle that f-puzzles cannot hold (``--format fpuzzles``): nothing on stdout."""
    from sudokit.errors import InvalidPuzzleError
    from sudokit.output import RecordFormat
    from sudokit.reader import read_arguments

    try:
        record = next(read_arguments([puzzle], box=box), None)
        grid = None if record is None else record.parse(box)
    except (InvalidPuzzleError, OSError):
        return  # not a puzzle: its record says so, as without --format fpuzzles
    problem = None if grid is None else RecordFormat("fpuzzles").refusal(grid)
    if problem is not None:
        _fail(f"--format fpuzzles: {problem.removeprefix('f-puzzles: ')}")


def _known(*names: str) -> None:
    """Fail at once, naming the installed engines, for a name that is not one (nothing is loaded)."""
    installed = default_registry().names()
    for name in names:
        if name not in installed:
            _fail(f"unknown strategy {name!r} (installed: {', '.join(installed) or 'none'})")


@app.command(short_help="Run several engines on the same puzzles and check that they agree.")
def check(
    puzzles: Puzzles,
    strategies: Annotated[
        str | None,
        typer.Option(
            "--strategies",
            "-s",
            metavar="A,B,...|all",
            help="Engines to compare; all (the default): every installed one.",
            autocompletion=_complete_engines(several=True),
        ),
    ] = None,
    count: Count = False,
    unique: Unique = False,
    limit: Limit = None,
    time_limit: EngineTimeLimit = "60",
    fmt: Annotated[
        CheckFormat, typer.Option("--format", "-f", help="pretty (a table per puzzle), line, json or csv.")
    ] = CheckFormat.pretty,
    stats: Stats = False,
    box: Box = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            metavar="ENGINE.KEY=VALUE",
            help="An engine's option, e.g. cp-sat.workers=2 (KEY=VALUE when one engine runs).",
        ),
    ] = None,
    jobs: Jobs = None,
    output: Output = None,
    force: Force = False,
    resume: Resume = False,
    quiet: Quiet = False,
    executor: ExecutorOption = Executor.local,
    scheduler: Scheduler = None,
    column: Column = None,
) -> None:
    """Run several engines on the same puzzles, verify every answer and check that they agree.

    Engines agree when every grid is a valid solution and they agree on solvable or not and on the
    number of solutions (1 or 2+ by default, exact counts with --count); different valid grids of a
    puzzle with several solutions are agreement. With --unique each record says the uniqueness the
    engines agree on (unique, several or none), as 'sudoku solve --unique' does. Each engine runs on
    each puzzle in a killable worker process; batches work as with 'sudoku solve' (--jobs, --output,
    --resume).

    Exit status: 0 all agree, 1 some engine timed out (undecided) but none disagreed, or with
    --unique some puzzle is not unique, 2 invalid input or usage, 3 some engine disagreed, returned
    an invalid grid or failed (named on stderr); over several puzzles the highest applies.
    """
    _check(
        puzzles,
        strategies,
        fmt,
        count,
        limit,
        time_limit,
        stats,
        _shape(box),
        option or [],
        jobs,
        _std_output(output, force, resume),
        force,
        resume,
        quiet,
        executor=executor,
        scheduler=scheduler,
        column=column,
        unique=unique,
    )


def _check(
    puzzles: list[str],
    strategies: str | None,
    fmt: CheckFormat,
    count: bool,
    limit: int | None,
    time_limit: float | None,
    stats: bool,
    box: Shape | None,
    option: list[str],
    jobs: int | None,
    output: Path | None,
    force: bool,
    resume: bool,
    quiet: bool,
    *,
    executor: Executor = Executor.local,
    scheduler: str | None = None,
    column: str | None = None,
    expect: str | None = None,
    unique: bool = False,
) -> NoReturn:
    if unique and (count or limit is not None):
        _fail("--unique counts to 2 itself: it goes without --count and --limit")
    if stats and fmt is CheckFormat.json:
        _fail(_stats_in_json(CheckFormat))
    tables = _tables(puzzles, column, expect, output=output, fmt=fmt.value, resume=resume, compare=False)
    from sudokit import crosscheck

    names = _several(strategies)
    try:
        specs = crosscheck.engine_specs(names, _check_options(option, names))
    except StrategyError as err:
        _fail(str(err))
    limit = limit or (DEFAULT_COUNT_LIMIT if count else crosscheck.UNIQUENESS_LIMIT)
    render = crosscheck.CheckFormat(fmt.value, header=_is_batch(puzzles), stats=stats, unique=unique)
    job = crosscheck.CheckJob(specs, limit, time_limit, box, render)
    _run(
        puzzles,
        job,
        box=box,
        jobs=jobs,
        output=output,
        force=force,
        resume=resume,
        quiet=quiet,
        executor=executor,
        scheduler=scheduler,
        tables=None if tables is None else tables.options,
    )


@app.command(short_help="Time engines side by side over puzzle files.")
def bench(
    files: Annotated[list[Path], typer.Argument(metavar="FILE...", exists=True, dir_okay=False, help="Puzzle files.")],
    strategies: Annotated[
        str | None,
        typer.Option(
            "--strategies",
            "-s",
            metavar="A,B,...|all",
            help="Engines to run; all (the default): every installed one.",
            autocompletion=_complete_engines(several=True),
        ),
    ] = None,
    first: Annotated[
        int | None, typer.Option("--first", min=1, metavar="N", help="Only the first N puzzles of each file.")
    ] = None,
    sample: Annotated[
        int | None,
        typer.Option("--sample", "-n", min=1, metavar="N", help="A random sample of N puzzles of each file."),
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="The seed of --sample (default 0): the same seed, the same sample.")
    ] = None,
    time_limit: SolveTimeLimit = "10",
    fmt: Annotated[
        TableFormat, typer.Option("--format", "-f", help="pretty (a table), json or csv (a row a line).")
    ] = TableFormat.pretty,
    plot: Annotated[
        Path | None, typer.Option("--plot", dir_okay=False, metavar="PNG", help="Draw the solve-time distributions.")
    ] = None,
    box: Box = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            metavar="ENGINE.KEY=VALUE",
            help="An engine's option, e.g. cp-sat.workers=2 (KEY=VALUE when one engine runs).",
        ),
    ] = None,
    quiet: Quiet = False,
    column: Column = None,
) -> None:
    """Run each engine over each file, one puzzle at a time in a worker process, and tabulate the times.

    A timed-out puzzle counts at the time it was stopped (the mean is then a lower bound).
    """
    from sudokit.bench import PLOT_INSTALL, benchmark, plot_problem, plot_times
    from sudokit.progress import Console, Progress

    if first is not None and sample is not None:
        _fail("--first and --sample both choose the puzzles: give one")
    if seed is not None and sample is None:
        _fail("--seed is the seed of --sample: it goes with --sample N")
    tables = _tables([str(f) for f in files], column, None, compare=False)  # each table has its puzzle column
    if plot is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            _fail(f"--plot needs matplotlib: {PLOT_INSTALL}")
        problem = plot_problem(plot)  # say so now, not after the whole benchmark has run
        if problem is not None:
            _fail(problem)
    names = _several(strategies) or default_registry().ready_names()
    if not names:
        _fail("no engines to run: name them with --strategies a,b or install one")
    _known(*names)
    options = _check_options(option or [], names)
    for engine in options:
        if engine not in names:
            _fail(f"option for engine {engine!r}, which is not among the engines run")
    console = Console(None if 2 in CLOSED else sys.stderr)
    if not quiet and 2 not in CLOSED and sys.stderr.isatty():
        console.progress = Progress(sys.stderr, noun="solves")

    def progress(done: int, total: int, failed: int) -> None:
        if console.progress is not None:
            console.progress.total = total
        console.update(done, failed, failures="not solved")

    try:
        rows = benchmark(
            [str(f) for f in files],
            names,
            first=first,
            sample=sample,
            seed=seed or 0,
            time_limit=time_limit,
            box=_shape(box),
            options=options,
            progress=progress,
            tables=None if tables is None else tables.options,
        )
    except (SudokitError, OSError) as err:
        console.close()
        _fail(str(err) if isinstance(err, SudokitError) else f"{err.filename or ''}: {err.strerror or err}")
    console.close()
    if fmt is TableFormat.json:
        import json

        for row in rows:
            _print(json.dumps(row.to_dict(), allow_nan=False))
    elif fmt is TableFormat.csv:
        from sudokit.output import csv_row

        fields = list(rows[0].to_dict()) if rows else []
        _print(csv_row(fields))
        for row in rows:
            _print(csv_row(list(row.to_dict().values())))
    else:
        _print_table(rows)
    if plot is not None:
        try:
            plot_times(rows, plot)
        except (OSError, ValueError) as err:  # a full disk; a format matplotlib cannot write after all
            why = getattr(err, "strerror", None) or err
            _fail(" ".join(f"cannot write {plot}: {why}".split()))
        _say(f"plot written to {plot}")


def _capabilities_json(caps: Any) -> dict[str, Any] | None:
    """An engine's capabilities as JSON (None when it did not load)."""
    if caps is None:
        return None
    shapes = None if caps.box_shapes is None else sorted(str(shape) for shape in caps.box_shapes)
    return {
        "max_side": caps.max_side,
        "box_shapes": shapes,
        "counting": caps.counting,
        "time_limit": caps.time_limit,
        "constraints": sorted(caps.constraints),
    }


def _capabilities_text(caps: Any) -> str:
    """What an engine declares beyond the default, as `` (boards up to 16x16, no counting)``, or nothing."""
    parts = []
    if caps.max_side is not None:
        parts.append(f"boards up to {caps.max_side}x{caps.max_side}")
    if caps.box_shapes is not None:
        parts.append("boxes " + ", ".join(sorted(str(shape) for shape in caps.box_shapes)))
    if not caps.counting:
        parts.append("no counting")
    if not caps.time_limit:
        parts.append("no time limit")
    if caps.constraints:
        from sudokit.variants import ALL_KINDS

        kinds = "every one" if caps.constraints >= ALL_KINDS else ", ".join(sorted(caps.constraints))
        parts.append(f"variant rules: {kinds}")
    return f" ({'; '.join(parts)})" if parts else ""


def _print_table(rows: list[Any]) -> None:
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
        _print(
            "  ".join(v.ljust(w) if k < 2 else v.rjust(w) for k, (v, w) in enumerate(zip(line, widths, strict=True)))
        )
    bad = sum(r.errors + r.invalid + r.unsolvable for r in rows)
    if bad:
        from sudokit.progress import counted

        were = "was" if bad == 1 else "were"
        _print(f"note: {counted(bad, 'puzzle run')} {were} unsolvable, invalid or failed (see --format json)")


def _cell(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


@app.command(short_help="List the installed engines (--load: check that each one loads).")
def strategies(
    fmt: Annotated[
        ListFormat, typer.Option("--format", "-f", help="pretty (a table) or json (an engine a line).")
    ] = ListFormat.pretty,
    load: Annotated[
        bool, typer.Option("--load", help="Load each engine (in a worker process) and say whether it works.")
    ] = False,
) -> None:
    """List the installed engines from their packages' metadata, without importing them.

    With --load, each engine is imported and built in a worker process (a plugin that hangs or
    crashes on import is reported, not fatal), and the list says whether it works.
    """
    from sudokit.registry import load_isolated

    try:
        rows = load_isolated(default_registry()) if load else default_registry().info()
    except SudokitError as err:  # the environment's SUDOKIT_MEMORY_LIMIT is not a size
        _fail(" ".join(str(err).split()))
    if fmt is ListFormat.json:
        import json

        for row in rows:
            _print(
                json.dumps(
                    {
                        "name": row.name,
                        "loaded": row.loaded,
                        "description": row.description,
                        "entry_point": row.entry_point,
                        "distribution": row.distribution,
                        "version": row.version,
                        "missing": list(row.missing),
                        "install": row.install_hint,
                        "error": row.error,
                        **({"capabilities": _capabilities_json(row.capabilities)} if load else {}),
                    }
                )
            )
        return
    if not rows:
        _print("no strategies installed (entry-point group 'sudokit.strategies' is empty)")
        return
    width = max(len(row.name) for row in rows)
    for row in rows:
        source = f" [{row.distribution}]" if row.distribution else ""
        if row.missing:
            text = f"needs {', '.join(row.missing)}: {row.install_hint}"
        elif row.loaded is False:
            text = row.error or "failed to load"
        else:
            text = row.description or ""
        if load and row.capabilities is not None:
            text += _capabilities_text(row.capabilities)
        if load:
            state = "ok      " if row.loaded else "FAILED  "
            _print(f"{row.name.ljust(width)}  {state}{text}{source}")
        else:
            _print(f"{row.name.ljust(width)}  {text}{source}")


class StepFormat(StrEnum):
    pretty = "pretty"
    json = "json"


class RateFormat(StrEnum):
    pretty = "pretty"
    line = "line"
    json = "json"
    csv = "csv"


OnePuzzle = Annotated[
    str, typer.Argument(metavar="PUZZLE", help="A puzzle, a file holding one (or --line N), or - for stdin.")
]
LineNumber = Annotated[
    int | None,
    typer.Option(
        "--line", min=1, metavar="N", help="The puzzle on line N of the file (1-based, as editors and sed -n Np count)."
    ),
]
StepsFormat = Annotated[
    StepFormat, typer.Option("--format", "-f", help="pretty (sentences and a grid) or json (an object a line).")
]


def _one_puzzle(arg: str, box: Shape | None, line: int | None = None) -> Any:
    """The one classic puzzle of ``arg`` (text, file or -), or the one on ``line`` of it, as a Grid.

    A one-line error otherwise: no puzzle, several without ``line``, or none on ``line``.
    """
    from sudokit.errors import InvalidPuzzleError
    from sudokit.reader import check_arguments, on_line, read_arguments

    record = None
    if arg == "-" and 0 in CLOSED:
        _fail("standard input is closed: there is no puzzle to read from -")
    try:
        check_arguments([arg])
        records = read_arguments([arg], box=box)
        if line is not None:
            record = next(on_line(records, line), None)  # read no further than the puzzle on that line
            if record is None:
                _fail(f"no puzzle in {arg}")
        else:
            record = next(records, None)
            if record is None:
                _fail(f"no puzzle in {arg}")
            if next(records, None) is not None:
                _fail(f"{record.source} holds several puzzles: pick one with --line N (see 'sudoku rate' for many)")
        grid = record.parse(box)
    except InvalidPuzzleError as err:
        _fail(str(err) if record is None else record.locate(str(err)))
    except OSError as err:
        _fail(f"{err.filename or arg}: {err.strerror or err}")
    if not grid.is_classic:
        _fail(f"logical solving handles classic puzzles only, not one with {', '.join(sorted(grid.kinds))} rules")
    return grid


def _step_json(step: Any, n: int, number: int | None = None) -> dict[str, Any]:
    def name(cell: int) -> str:
        return f"r{cell // n + 1}c{cell % n + 1}"

    data: dict[str, Any] = {} if number is None else {"step": number}
    data.update(
        {
            "technique": step.technique,
            "cells": [name(c) for c in step.cells],
            "digits": list(step.digits),
            "placements": [{"cell": name(c), "digit": d} for c, d in step.placements],
            "eliminations": [{"cell": name(c), "digit": d} for c, d in step.eliminations],
            "explanation": step.explanation,
        }
    )
    return data


def _marked_grid(grid: Any, cells: set[int], color: bool) -> str:
    """The grid with box borders, ``cells`` in brackets (and bold yellow with ``color``), blanks as ``.``."""
    from sudokit.formats import _symbol

    shape, n = grid.shape, grid.n
    lines = []
    for r in range(n):
        if r and r % shape.box_rows == 0:
            lines.append("+".join("-" * (len(_symbol(0, n)) + 2) * shape.box_cols for _ in range(0, n, shape.box_cols)))
        groups = []
        for g in range(0, n, shape.box_cols):
            parts = []
            for c in range(g, g + shape.box_cols):
                i = r * n + c
                s = _symbol(grid.cells[i], n)
                if i in cells:
                    s = f"[{s}]"
                    if color:
                        s = f"\x1b[1;33m{s}\x1b[0m"
                else:
                    s = f" {s} "
                parts.append(s)
            groups.append("".join(parts))
        lines.append("|".join(groups).rstrip())
    return "\n".join(lines)


def _symbols(digits: Any, n: int) -> list[str]:
    """Digits as the board writes them (``G`` for 16 on a 16x16 board), as its grid and its input do."""
    from sudokit.formats import _symbol

    return [_symbol(d, n).strip() for d in digits]


def _json_line(data: object) -> None:
    import json

    _print(json.dumps(data, allow_nan=False))


@app.command(short_help="Show the next logical step of a puzzle, explained, on its grid.")
def hint(
    puzzle: OnePuzzle,
    line: LineNumber = None,
    fmt: StepsFormat = StepFormat.pretty,
    box: Box = None,
    color: Annotated[
        Color | None,
        typer.Option(
            "--color", help="The cells involved in colour: auto (on a terminal, unless NO_COLOR), always, never."
        ),
    ] = None,
    time_limit: TimeLimit = "60",
) -> None:
    """Show the next step a person would take: the easiest technique that makes progress.

    Prints the step's one-sentence explanation, then the grid with the cells involved in brackets
    and their candidates. When no technique applies the step is "needs search". A classic puzzle of
    any box shape, with exactly one solution (backtrack counts to 2 first, within --time-limit, as
    'sudoku solve --unique' does): a step may assume there is one.

    Exit status: 0 a step (or the puzzle is complete), 1 the puzzle has no solution or several, or
    timed out, 2 invalid input.
    """
    from sudokit.logic import Candidates

    if color is not None and fmt is StepFormat.json:
        _fail("--color colours the grid of --format pretty: json has none")
    grid = _one_puzzle(puzzle, _shape(box), line)
    step = _logic_answer(grid, "hint", time_limit)
    state = Candidates(grid)
    n = grid.n
    if fmt is StepFormat.json:
        if step is None:
            _json_line(
                {
                    "technique": None,
                    "cells": [],
                    "digits": [],
                    "placements": [],
                    "eliminations": [],
                    "explanation": "the puzzle is already complete",
                }
            )
        else:
            _json_line(_step_json(step, n))
    elif step is None:
        _print("the puzzle is already complete")
    else:
        _print(f"{step.technique}: {step.explanation}")
        _print("")
        involved = set(step.cells) | {c for c, _ in step.placements + step.eliminations}
        colored = _use_color(color, None)
        _print(_marked_grid(grid, involved, colored), ansi=colored)
        blanks = [c for c in sorted(involved) if not grid.cells[c]]
        if blanks:
            _print("")
            _print(
                "candidates: "
                + "; ".join(
                    f"r{c // n + 1}c{c % n + 1} {{{','.join(_symbols(state.candidates(c), n))}}}" for c in blanks
                )
            )


def _logic_answer(grid: Any, command: str, time_limit: float | None) -> Any:
    """The hint (a Step or None) or the rated path of ``grid``, made in a worker within ``time_limit``.

    A puzzle without a solution or with several, and a timeout, are one line on stderr and exit
    status 1 (as 'sudoku solve --unique' and a timeout of 'sudoku solve'); an engine that fails, 2.
    """
    from sudokit.rating import NOT_UNIQUE, run_logic

    try:
        kind, answer = run_logic(grid, explain=command == "explain", time_limit=time_limit)
    except SudokitError as err:
        _fail(str(err))
    if kind == "refused":
        noun = "explanation" if command == "explain" else command
        _say(f"sudoku: {answer}: no {noun}" if answer == NOT_UNIQUE else f"sudoku: {answer}")
        raise typer.Exit(1)
    if kind == "timeout":
        _say(f"sudoku: timeout: {answer} (--time-limit SECONDS: more time)")
        raise typer.Exit(1)
    if kind == "error":
        _fail(answer)
    return answer


@app.command(short_help="Explain the whole logical path of a puzzle, step by step, and rate it.")
def explain(
    puzzle: OnePuzzle,
    line: LineNumber = None,
    fmt: Annotated[
        StepFormat,
        typer.Option(
            "--format", "-f", help="pretty (a numbered line a step, then the rating) or json (an object a line)."
        ),
    ] = StepFormat.pretty,
    box: Box = None,
    time_limit: TimeLimit = "60",
) -> None:
    """Print every step of the easiest-first logical path, one numbered line each, then the rating.

    Where every technique stalls, a "needs search" step places the solution's digit in one cell and
    the logic goes on (as 'sudoku rate' scores it). json: one object a step, then {"rating": ...}.
    The puzzle must have exactly one solution (backtrack counts to 2 first); the whole explanation
    runs within --time-limit.

    Exit status: 0 explained, 1 the puzzle has no solution or several, or timed out, 2 invalid input.
    """
    grid = _one_puzzle(puzzle, _shape(box), line)
    path, rating = _logic_answer(grid, "explain", time_limit)
    n = grid.n
    for k, step in enumerate(path, 1):
        if fmt is StepFormat.json:
            _json_line(_step_json(step, n, k))
        else:
            _print(f"{k}. {step.technique}: {step.explanation}")
    if fmt is StepFormat.json:
        _json_line({"rating": rating.to_dict()})
        return
    search = ""
    if not rating.solved_by_logic:
        stalls = rating.techniques.get("needs search", 0)
        from sudokit.progress import counted

        times, guesses = counted(stalls, "time"), counted(rating.guesses, "guess", "guesses")
        search = f"; the techniques stalled {times}, backtrack needed {guesses}"
    _print(f"rating: {rating.level}, score {rating.score} (hardest: {rating.hardest or 'none'}{search})")


@app.command(short_help="Rate puzzles' difficulty: level and score in HoDoKu's manner.")
def rate(
    puzzles: Puzzles,
    line: Annotated[
        int | None,
        typer.Option(
            "--line", min=1, metavar="N", help="Of each file only the puzzle on line N (1-based, as sed -n Np counts)."
        ),
    ] = None,
    fmt: Annotated[
        RateFormat,
        typer.Option("--format", "-f", help="line (puzzle:level:score), json, csv or pretty (grid and rating)."),
    ] = RateFormat.line,
    time_limit: TimeLimit = "60",
    box: Box = None,
    jobs: Jobs = None,
    output: Output = None,
    force: Force = False,
    resume: Resume = False,
    quiet: Quiet = False,
) -> None:
    """Rate each puzzle: level (Easy, Medium, Hard, Unfair, Extreme), score, hardest technique, guesses.

    The score sums HoDoKu's base score of each step of the easiest-first logical path; the level is
    the hardest technique's, raised while the score exceeds the level's maximum (800, 1000, 1600,
    1800). Each puzzle is first solved by backtrack, counting to 2: one with several solutions is not
    rated (its record says several, as 'sudoku solve --unique' does); backtrack's guesses measure the
    search a puzzle beyond the techniques needs. Counting and rating run within --time-limit. Every
    input puzzle gets one record, in input order; batches work as with 'sudoku solve'. Variant
    puzzles are 'unsupported'.

    Exit status: 0 all rated, 1 some puzzle has no solution or several, or timed out, 2 invalid input
    or unsupported.
    """
    from sudokit.batch import SolveJob
    from sudokit.rating import RateFormat as Render

    output = _std_output(output, force, resume)
    shape = _shape(box)
    batch = _is_batch(puzzles)
    render = Render(fmt.value, header=batch, time_limit=time_limit)
    job = SolveJob("backtrack", {}, render, time_limit=time_limit, box=shape)  # type: ignore[arg-type]
    _run(puzzles, job, box=shape, jobs=jobs, output=output, force=force, resume=resume, quiet=quiet, line=line)


# --- generate ----------------------------------------------------------------------------------------


class GenerateFormat(StrEnum):
    line = "line"
    json = "json"
    csv = "csv"
    pretty = "pretty"


class Symmetry(StrEnum):
    none = "none"
    rot180 = "rot180"
    rot90 = "rot90"
    mirror = "mirror"


class Level(StrEnum):
    easy = "easy"
    medium = "medium"
    hard = "hard"
    unfair = "unfair"
    extreme = "extreme"


#: The csv columns of ``sudoku generate`` (level and score are empty without --level; symmetry and minimal
#: say the options the puzzle was made with, which --resume checks).
GENERATE_FIELDS = (
    "index",
    "seed",
    "puzzle_seed",
    "box",
    "puzzle",
    "solution",
    "givens",
    "level",
    "score",
    "attempts",
    "symmetry",
    "minimal",
)
#: Seconds a worker may run past a puzzle's time limit before it is killed (the engines stop on their own first).
_GENERATE_GRACE = 10.0


def puzzle_seed(seed: int, index: int) -> int:
    """The seed of puzzle ``index`` (1-based) of a run seeded ``seed``: a 63-bit hash of both.

    Each puzzle depends on its own seed alone, so a run's output does not depend on --jobs or on timing.
    """
    import hashlib

    digest = hashlib.sha256(f"sudokit-generate:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class _GenerateTask:
    """Make one puzzle per item ``(index, puzzle seed)`` in a worker: a dict of its fields, or why not."""

    def __init__(
        self,
        shape: Shape,
        symmetry: str,
        minimal: bool,
        level: str | None,
        engine: str,
        time_limit: float | None,
    ) -> None:
        self.shape, self.symmetry, self.minimal, self.level = shape, symmetry, minimal, level
        self.engine = engine
        self.time_limit = time_limit
        self.budget = None if time_limit is None else time_limit + _GENERATE_GRACE

    def start(self, mark: Any) -> Any:
        """Load the counting engine (and the rating, with a level); the function making one puzzle."""
        from sudokit.api import get_strategy

        mark(0)
        strategy = get_strategy(self.engine)
        if self.level is not None:
            import sudokit.rating  # noqa: F401 - loaded with the engine, not with the first puzzle

        def make(item: tuple[int, int]) -> dict[str, Any]:
            from sudokit.formats import format_line
            from sudokit.generation import generate

            index, seed = item
            stream = generate(
                self.shape,
                count=1,
                seed=seed,
                symmetry=self.symmetry,
                minimal=self.minimal,
                level=self.level,
                engine=strategy,
                time_limit=self.time_limit,
            )
            try:
                puzzle = next(stream, None)
            except SudokitError as err:
                return {"index": index, "puzzle_seed": seed, "status": "error", "error": str(err)}
            done = {"index": index, "puzzle_seed": seed, "attempts": stream.attempts, "checks": stream.checks}
            if puzzle is None:
                return {**done, "status": "timeout", "seconds": stream.elapsed, "levels": dict(stream.levels)}
            solution, rating = stream.solution, stream.rating  # proved by the stream's checked counts
            return {
                **done,
                "status": "made",
                "puzzle": puzzle.to_line(),
                "cells": puzzle.cells,
                "solution": None if solution is None else format_line(self.shape, solution.cells),
                "solution_cells": None if solution is None else solution.cells,
                "givens": puzzle.count_givens(),
                "level": None if rating is None else str(rating.level),
                "score": None if rating is None else rating.score,
            }

        return make

    def failed(self, item: tuple[int, int], problem: str) -> dict[str, Any]:
        """The result of a puzzle whose worker died or was killed."""
        index, seed = item
        return {"index": index, "puzzle_seed": seed, "status": "error", "error": f"the worker {problem}"}

    def load_failed(self, phase: int, problem: str) -> bool:
        """The engine could not load: the run cannot go on."""
        raise StrategyError(f"engine {self.engine!r} could not load: {problem}")


def _generated_text(made: dict[str, Any], fmt: GenerateFormat, seed: int, shape: Shape, task: _GenerateTask) -> str:
    """One generated puzzle's record in ``fmt`` (``task``: the options it was made with)."""
    import json

    from sudokit.formats import format_pretty
    from sudokit.output import csv_row

    fields = {
        "index": made["index"],
        "seed": seed,
        "puzzle_seed": made["puzzle_seed"],
        "box": str(shape),
        "puzzle": made["puzzle"],
        "solution": made["solution"],
        "givens": made["givens"],
        "level": made["level"],
        "score": made["score"],
        "attempts": made["attempts"],
        "symmetry": task.symmetry,
        "minimal": task.minimal,
    }
    if fmt is GenerateFormat.line:
        return str(made["puzzle"])
    if fmt is GenerateFormat.json:
        return json.dumps(fields, allow_nan=False)
    if fmt is GenerateFormat.csv:
        return csv_row([fields[name] for name in GENERATE_FIELDS])
    rated = "" if made["level"] is None else f", {made['level']}, score {made['score']}"
    givens = f"{made['givens']} given" + ("" if made["givens"] == 1 else "s")
    title = f"puzzle {made['index']} (seed {made['puzzle_seed']}): {givens}{rated}"
    return f"{title}\n{format_pretty(shape, made['cells'])}"


@app.command(short_help="Make puzzles with exactly one solution (minimal, symmetric, of a level).")
def generate(
    box: Annotated[
        str, typer.Option("--box", metavar="RxC", help="Box shape of the board, e.g. 3x3, 2x3, 4x4.")
    ] = "3x3",
    count: Annotated[
        int | None, typer.Option("--number", "-n", min=1, metavar="N", help="How many puzzles to make (default 1).")
    ] = None,
    old_count: Annotated[
        int | None, typer.Option("--count", min=1, metavar="N", hidden=True, help="Deprecated: --number.")
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", min=0, metavar="S", help="The same seed, the same puzzles (default: drawn, and shown)."),
    ] = None,
    symmetry: Annotated[Symmetry, typer.Option("--symmetry", help="The pattern of the givens.")] = Symmetry.none,
    level: Annotated[
        Level | None, typer.Option("--level", help="Keep only puzzles that 'sudoku rate' puts at this level.")
    ] = None,
    minimal: Annotated[
        bool, typer.Option("--minimal", help="No given can be removed (no orbit, with a symmetry).")
    ] = False,
    engine: Annotated[
        str | None,
        typer.Option(
            "--strategy",
            "-s",
            metavar="NAME",
            help="Engine that counts to 2 (default: fastest for the board).",
            autocompletion=_complete_engines(several=False, all_too=False),
        ),
    ] = None,
    fmt: Annotated[
        GenerateFormat, typer.Option("--format", "-f", help="line (the puzzle), json, csv or pretty (grids).")
    ] = GenerateFormat.line,
    time_limit: Annotated[Any, _time_limit_option("per puzzle")] = "60",
    jobs: Jobs = None,
    output: Output = None,
    force: Force = False,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume", help="Continue --output FILE (json or csv, the same --seed): make the puzzles it lacks."
        ),
    ] = False,
    quiet: Quiet = False,
) -> None:
    """Make puzzles with exactly one solution, proved by counting to 2, and stream them as they are made.

    Puzzle k of a run is made from a seed derived from --seed and k, so the same seed gives the same
    output byte for byte, whatever --jobs; without --seed one is drawn and shown on stderr. With
    --level, puzzles of other levels are made and dropped until one fits (the records then carry
    level and score). --time-limit is per puzzle: one not made in time is reported and skipped.
    --resume continues an interrupted run's json or csv --output FILE after its last complete record
    (a torn last line is made again), with the same --seed and options: the file ends as one run's.

    Exit status: 0 all made, 1 some puzzle not made in time, 2 usage or an engine failed.
    """
    from sudokit.generation import default_engine
    from sudokit.generation import generate as make_stream

    if old_count is not None:  # the name before --number: --count counts solutions in solve and check
        if count is not None:
            _fail("--count is the old name of --number: give --number N alone")
        _say("sudoku: warning: generate --count N is deprecated: use --number/-n N (--count counts solutions)")
        count = old_count
    count = 1 if count is None else count
    output = _std_output(output, force, resume)
    refusal = None
    if fmt not in (GenerateFormat.json, GenerateFormat.csv):
        refusal = f"--resume needs --format json or csv: records that carry their seed, not {fmt.value}"
    elif seed is None:
        refusal = "--resume needs the --seed of the run it continues (the same seed, the same puzzles)"
    _check_output_flags(output, force, resume, refusal)
    shape = _shape(box)
    assert shape is not None
    name = engine or default_engine(shape)
    if engine is not None:
        _one_engine("generate", engine)
        _known(engine)
    try:  # every option checked (and the engine loaded once) before any work
        make_stream(
            shape,
            count=count,
            seed=0,
            symmetry=symmetry.value,
            minimal=minimal,
            level=None if level is None else level.value,
            engine=name,
            time_limit=time_limit,
        )
    except (ValueError, ImportError) as err:
        _fail(str(err))
    drawn = seed is None
    if seed is None:
        import random

        seed = random.SystemRandom().randrange(2**63)
    if drawn:
        _say(f"sudoku: seed {seed} (replay with --seed {seed})")
    task = _GenerateTask(shape, symmetry.value, minimal, None if level is None else level.value, name, time_limit)
    _generate_run(task, count, seed, shape, fmt, _jobs(jobs, count > 1), output, force, quiet, resume)


def _generate_run(
    task: _GenerateTask,
    count: int,
    seed: int,
    shape: Shape,
    fmt: GenerateFormat,
    jobs: int,
    output: Path | None,
    force: bool,
    quiet: bool,
    resume: bool = False,
) -> NoReturn:
    """Stream the puzzles to stdout or ``output`` in order, with progress and summary; exit with the status."""
    import time

    from sudokit.output import OutputError, RecordWriter
    from sudokit.progress import Console, Progress, counted, same_terminal
    from sudokit.session import EXIT_TERMINATED, OutputFile, on_sigterm, restore_sigterm, writable
    from sudokit.workers import WorkerPool

    if output is None and 1 in CLOSED:
        _fail("standard output is closed: nothing can be written (use --output FILE)")
    if _parquet_output(output) and (fmt is not GenerateFormat.csv or resume):
        # Parquet takes csv records (a header, then rows) and cannot be continued: line text would be misread.
        _fail(f"--output {output}: Parquet files are written from csv records (-f csv), without --resume")
    console = Console(None if 2 in CLOSED else sys.stderr)
    target = OutputFile(output, force, resume) if output is not None else None
    stream: TextIO | None = None
    made = timeouts = errors = attempts = 0
    done = keep = kept = 0  # with --resume: the last puzzle the file holds, where its records end, how many
    start = time.perf_counter()
    previous = on_sigterm()  # a kill stops the run as Ctrl-C does: the records written are kept (and committed)
    try:
        if target is not None:
            target.open([])
            if resume:
                done, keep, kept = _generate_resume_point(target, fmt, seed, shape, task, count)
        with WorkerPool(task, jobs) as pool:
            pool.start()  # an engine that cannot load fails here, before the output is touched
            if target is not None:
                target.cut(keep)
                stream = target.stream()
            else:
                stream = sys.stdout
            writer = RecordWriter(stream, "standard output" if target is None else os.fspath(target.path))
            if not quiet and console.err is not None and console.err.isatty():
                console.progress = Progress(console.err, count - done, noun="puzzles")
                console.shared = same_terminal(stream, console.err)
            if fmt is GenerateFormat.csv and keep == 0:
                writer.write(",".join(GENERATE_FIELDS))
            items = ((k, puzzle_seed(seed, k)) for k in range(done + 1, count + 1))
            for result in pool.map(items):
                attempts += result.get("attempts", 0)
                if result["status"] == "made":
                    console.before_record()
                    text = _generated_text(result, fmt, seed, shape, task)
                    writer.write(text if made == 0 or fmt is not GenerateFormat.pretty else "\n" + text)
                    made += 1
                elif result["status"] == "timeout":
                    timeouts += 1
                    rated = ""
                    if task.level is not None:  # what the attempts were rated instead
                        seen = result.get("levels") or {}
                        rated = "".join(f", {seen[lv.value]} {lv.value}" for lv in Level if seen.get(lv.value))
                        rated = f"{rated}, none {task.level}"
                    console.say(
                        f"sudoku: puzzle {result['index']} (seed {result['puzzle_seed']}) not made within "
                        f"{task.time_limit:g} s ({counted(result['attempts'], 'attempt')}{rated})"
                    )
                else:
                    errors += 1
                    console.say(f"sudoku: error: puzzle {result['index']}: {result['error']}")
                console.update(made + timeouts + errors, timeouts + errors, failures="not made")
        if target is not None and stream is not None:
            stream.close()
            target.commit()
    except KeyboardInterrupt as stop:
        console.close()
        go_on = ""
        if stream is not None and target is not None and fmt in (GenerateFormat.json, GenerateFormat.csv):
            go_on = f" (continue with --resume --seed {seed} --output {output})"
        total = kept + made  # the file's puzzles: those it held already, and this run's
        if writable(console.err):  # a pipe nobody reads any more would block the message forever
            console.say(
                f"sudoku: interrupted after {counted(total, 'puzzle')}; every record written is complete{go_on}"
            )
        raise typer.Exit(EXIT_TERMINATED if type(stop) is not KeyboardInterrupt else 130) from None
    except BrokenPipeError:
        _silence_stdout()
        raise typer.Exit(141) from None
    except (OutputError, SudokitError) as err:
        console.close()
        message = " ".join(str(err).split())
        if fmt not in (GenerateFormat.json, GenerateFormat.csv):
            message = message.replace(", --resume continues it", "")
        _fail(message)
    finally:
        restore_sigterm(previous)
        console.close()
        if target is not None:
            if stream is None:
                target.close(remove=True)
            else:
                with contextlib.suppress(OSError, ValueError):
                    stream.close()
                with contextlib.suppress(OutputError):
                    target.commit()
                target.close()
    if not quiet:
        seconds = time.perf_counter() - start
        rate = made / seconds if seconds > 0 else 0.0
        parts = [f"{counted(made, 'puzzle')} made ({counted(attempts, 'attempt')})"]
        if timeouts:
            parts.append(f"{timeouts:,} not made in time")
        if errors:
            parts.append(f"{errors:,} failed")
        resumed = f" (resumed after puzzle {done})" if resume else ""
        console.say(f"{', '.join(parts)} in {seconds:.2f} s ({rate:,.1f} puzzles/s); seed {seed}{resumed}")
    raise typer.Exit(2 if errors else 1 if timeouts else 0)


def _generate_resume_point(
    target: Any, fmt: GenerateFormat, seed: int, shape: Shape, task: _GenerateTask, count: int
) -> tuple[int, int, int]:
    """The last puzzle an output file of ``sudoku generate`` holds, the offset where its complete records end,
    and how many records it holds.

    Every complete record must be one this run makes (the same seed, box, level, symmetry and
    minimality; puzzles in order, a puzzle not made in time skipped); a last line without its newline
    is torn, to be cut off and made again. Raises ``ResumeError`` naming the file and the line
    otherwise; nothing is written.
    """
    import csv
    import json

    from sudokit.output import ResumeError

    name = os.fspath(target.path)
    level = task.level
    last = end = number = records = 0
    header = ",".join(GENERATE_FIELDS)
    try:
        handle = target.reader()
    except OSError as err:
        raise ResumeError(f"cannot resume {name}: {err.strerror or err}") from None
    with handle:
        for raw in iter(handle.readline, b""):
            number += 1
            if not raw.endswith(b"\n"):
                break  # torn: cut off, made again
            text = raw.decode("utf-8", "replace").rstrip("\r\n")
            if fmt is GenerateFormat.csv and number == 1:
                if text != header:
                    raise ResumeError(f"cannot resume {name}: line 1 is not the csv header of generate ({header})")
                end = handle.tell()
                continue
            try:
                if fmt is GenerateFormat.json:
                    data = json.loads(text)
                    if not isinstance(data, dict):
                        raise ValueError("not an object")
                else:
                    rows = list(csv.reader([text]))
                    if len(rows) != 1 or len(rows[0]) != len(GENERATE_FIELDS):
                        raise ValueError(f"not a row of {len(GENERATE_FIELDS)} fields")
                    data = dict(zip(GENERATE_FIELDS, rows[0], strict=True))
                index, its_seed = int(data["index"]), int(data["seed"])
                its_puzzle_seed, box, its_level = int(data["puzzle_seed"]), str(data["box"]), data["level"] or None
            except (ValueError, KeyError, TypeError) as err:
                raise ResumeError(f"cannot resume {name}: line {number} is not a {fmt.value} record ({err})") from None
            if "symmetry" not in data or "minimal" not in data:
                raise ResumeError(
                    f"cannot resume {name}: line {number} does not say the --symmetry and --minimal it was made with "
                    "(an older sudokit wrote it): whether this run makes the same puzzles cannot be checked"
                )
            its_symmetry, its_minimal = data["symmetry"], data["minimal"] in (True, "true")
            if its_symmetry != task.symmetry:
                raise ResumeError(
                    f"cannot resume {name}: line {number} was made with --symmetry {its_symmetry}, not {task.symmetry}"
                )
            if its_minimal != task.minimal or data["minimal"] not in (True, False, "true", "false"):
                was, now = ("--minimal" if m else "no --minimal" for m in (its_minimal, task.minimal))
                raise ResumeError(f"cannot resume {name}: line {number} was made with {was}, not {now}")
            if its_seed != seed:
                raise ResumeError(f"cannot resume {name}: line {number} was made with --seed {its_seed}, not {seed}")
            if box != str(shape):
                raise ResumeError(f"cannot resume {name}: line {number} is a puzzle of box {box}, not {shape}")
            if (its_level is None) != (level is None) or (level is not None and str(its_level).lower() != level):
                was = "no --level" if its_level is None else f"--level {str(its_level).lower()}"
                now = "no --level" if level is None else f"--level {level}"
                raise ResumeError(f"cannot resume {name}: line {number} was made with {was}, not {now}")
            if index > count:
                raise ResumeError(f"cannot resume {name}: line {number} is puzzle {index}, beyond --number {count}")
            if index <= last or its_puzzle_seed != puzzle_seed(seed, index):
                raise ResumeError(
                    f"cannot resume {name}: line {number} is puzzle {index}, not one of puzzles {last + 1} to {count} "
                    f"of this run"
                )
            last, end, records = index, handle.tell(), records + 1
    return last, end, records


def _show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    _say(f"sudoku: warning: {message}")


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

    Typer makes the click options of every command it holds before it parses anything: all eight
    commands take 3 ms, a sixth of sudokit's own start-up, and one 1 ms. Anything else (no command,
    an option first, a misspelled command, shell completion) gets the whole app.
    """
    if args:
        named = [info for info in app.registered_commands if _command_name(info) == args[0]]
        if len(named) == 1:
            one = copy.copy(app)
            one.registered_commands = named
            return one
    return app


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
        _silence_stdout()
        if err.errno == errno.EPIPE:
            status = 141
        else:
            _say(f"sudoku: error: cannot write standard output: {err.strerror or err}")
            status = 2
    with contextlib.suppress(OSError, ValueError):
        if sys.stderr is not None:
            sys.stderr.flush()
    os._exit(status if isinstance(status, int) else 0)


if __name__ == "__main__":
    main()
