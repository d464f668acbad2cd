"""``sudoku bench``: time engines side by side over puzzle files.

There is no ``from __future__ import annotations`` here on purpose: Typer reads the commands'
annotations, and given strings it evaluates each one, which costs start-up time.
"""

import sys
from pathlib import Path
from typing import Annotated

import typer
import typer.core

from sudokit.cli.common import (
    CLOSED,
    Box,
    Column,
    Quiet,
    SolveTimeLimit,
    TableFormat,
    app,
    box_shape,
    check_known,
    check_options,
    complete_engines,
    fail,
    print_table,
    print_text,
    say,
    several,
    table_plan,
)
from sudokit.engines.registry import default_registry
from sudokit.errors import SudokitError


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
            autocompletion=complete_engines(several=True),
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
    from sudokit.features.bench import PLOT_INSTALL, benchmark, plot_problem, plot_times
    from sudokit.runtime.progress import Console, Progress

    if first is not None and sample is not None:
        fail("--first and --sample both choose the puzzles: give one")
    if seed is not None and sample is None:
        fail("--seed is the seed of --sample: it goes with --sample N")
    tables = table_plan([str(f) for f in files], column, None, compare=False)  # each table has its puzzle column
    if plot is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            fail(f"--plot needs matplotlib: {PLOT_INSTALL}")
        problem = plot_problem(plot)  # say so now, not after the whole benchmark has run
        if problem is not None:
            fail(problem)
    names = several(strategies) or default_registry().ready_names()
    if not names:
        fail("no engines to run: name them with --strategies a,b or install one")
    check_known(*names)
    options = check_options(option or [], names)
    for engine in options:
        if engine not in names:
            fail(f"option for engine {engine!r}, which is not among the engines run")
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
            box=box_shape(box),
            options=options,
            progress=progress,
            tables=None if tables is None else tables.options,
        )
    except (SudokitError, OSError) as err:
        console.close()
        fail(str(err) if isinstance(err, SudokitError) else f"{err.filename or ''}: {err.strerror or err}")
    console.close()
    if fmt is TableFormat.json:
        import json

        for row in rows:
            print_text(json.dumps(row.to_dict(), allow_nan=False))
    elif fmt is TableFormat.csv:
        from sudokit.runtime.output import csv_row

        fields = list(rows[0].to_dict()) if rows else []
        print_text(csv_row(fields))
        for row in rows:
            print_text(csv_row(list(row.to_dict().values())))
    else:
        print_table(rows)
    if plot is not None:
        try:
            plot_times(rows, plot)
        except (OSError, ValueError) as err:  # a full disk; a format matplotlib cannot write after all
            why = getattr(err, "strerror", None) or err
            fail(" ".join(f"cannot write {plot}: {why}".split()))
        say(f"plot written to {plot}")
