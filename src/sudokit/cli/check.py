"""``sudoku check``: run several engines on the same puzzles and check that they agree.

There is no ``from __future__ import annotations`` here on purpose: Typer reads the commands'
annotations, and given strings it evaluates each one, which costs start-up time.
"""

from pathlib import Path
from typing import Annotated, NoReturn

import typer
import typer.core

from sudokit.cli.common import (
    Box,
    CheckFormat,
    Column,
    Count,
    EngineTimeLimit,
    Executor,
    ExecutorOption,
    Force,
    Jobs,
    Limit,
    Output,
    Puzzles,
    Quiet,
    Resume,
    Scheduler,
    Stats,
    Unique,
    app,
    box_shape,
    check_options,
    complete_engines,
    fail,
    is_batch,
    run_job,
    several,
    stats_in_json,
    std_output,
    table_plan,
)
from sudokit.engines.api import DEFAULT_COUNT_LIMIT
from sudokit.errors import StrategyError
from sudokit.model.shape import Shape


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
            autocompletion=complete_engines(several=True),
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
    run_check(
        puzzles,
        strategies,
        fmt,
        count,
        limit,
        time_limit,
        stats,
        box_shape(box),
        option or [],
        jobs,
        std_output(output, force, resume),
        force,
        resume,
        quiet,
        executor=executor,
        scheduler=scheduler,
        column=column,
        unique=unique,
    )


def run_check(
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
        fail("--unique counts to 2 itself: it goes without --count and --limit")
    if stats and fmt is CheckFormat.json:
        fail(stats_in_json(CheckFormat))
    tables = table_plan(puzzles, column, expect, output=output, fmt=fmt.value, resume=resume, compare=False)
    from sudokit.features import crosscheck

    names = several(strategies)
    try:
        specs = crosscheck.engine_specs(names, check_options(option, names))
    except StrategyError as err:
        fail(str(err))
    limit = limit or (DEFAULT_COUNT_LIMIT if count else crosscheck.UNIQUENESS_LIMIT)
    render = crosscheck.CheckFormat(fmt.value, header=is_batch(puzzles), stats=stats, unique=unique)
    job = crosscheck.CheckJob(specs, limit, time_limit, box, render)
    run_job(
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
