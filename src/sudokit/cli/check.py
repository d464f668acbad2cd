"""``sudoku check``: run several engines on the same puzzles and check that they agree.

There is no ``from __future__ import annotations`` here on purpose: Typer reads the commands'
annotations, and given strings it evaluates each one, which costs start-up time.
"""

from pathlib import Path
from typing import Annotated, NoReturn

import typer
import typer.core

from sudokit.cli.common import (
    STATS_IN_JSON,
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
    app,
    box_shape,
    check_options,
    fail,
    is_batch,
    run_job,
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
            "--strategies", "-s", metavar="A,B,...", help="Engines to compare (default: every installed one)."
        ),
    ] = None,
    count: Count = False,
    limit: Limit = None,
    time_limit: EngineTimeLimit = "60",
    fmt: Annotated[
        CheckFormat, typer.Option("--format", "-f", help="pretty (a table per puzzle), line or json.")
    ] = CheckFormat.pretty,
    stats: Stats = False,
    box: Box = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", metavar="ENGINE.KEY=VALUE", help="An engine's option, e.g. cp-sat.workers=2."),
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
    puzzle with several solutions are agreement. Each engine runs on each puzzle in a killable
    worker process; batches work as with 'sudoku solve' (--jobs, --output, --resume).

    Exit status: 0 all agree, 1 some engine timed out (undecided) but none disagreed, 2 invalid
    input or usage, 3 some engine disagreed, returned an invalid grid or failed (named on stderr);
    over several puzzles the highest applies.
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
        output,
        force,
        resume,
        quiet,
        executor=executor,
        scheduler=scheduler,
        column=column,
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
) -> NoReturn:
    if stats and fmt is CheckFormat.json:
        fail(STATS_IN_JSON)
    tables = table_plan(puzzles, column, expect, output=output, fmt=fmt.value, resume=resume, compare=False)
    from sudokit.features import crosscheck

    try:
        specs = crosscheck.engine_specs(strategies, check_options(option))
    except StrategyError as err:
        fail(str(err))
    limit = limit or (DEFAULT_COUNT_LIMIT if count else crosscheck.UNIQUENESS_LIMIT)
    render = crosscheck.CheckFormat(fmt.value, header=is_batch(puzzles), stats=stats)
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
