"""``sudoku solve``: solve puzzles, count their solutions or check uniqueness.

There is no ``from __future__ import annotations`` here on purpose: Typer reads the commands'
annotations, and given strings it evaluates each one, which costs start-up time.
"""

from typing import Annotated

import typer
import typer.core

from sudokit.cli.check import run_check
from sudokit.cli.common import (
    Box,
    CheckFormat,
    Color,
    Column,
    Count,
    Executor,
    ExecutorOption,
    Expect,
    Force,
    Jobs,
    Limit,
    Output,
    Puzzles,
    Quiet,
    Resume,
    Scheduler,
    SolveFormat,
    Stats,
    TimeLimit,
    Unique,
    app,
    box_shape,
    check_known,
    complete_engines,
    fail,
    is_batch,
    one_engine,
    run_job,
    solve_options,
    stats_in_json,
    std_output,
    table_plan,
    use_color,
)
from sudokit.engines.api import DEFAULT_COUNT_LIMIT
from sudokit.model.shape import Shape


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
            autocompletion=complete_engines(several=False),
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
    output = std_output(output, force, resume)
    if unique and (count or limit is not None):
        fail("--unique counts to 2 itself: it goes without --count and --limit")
    if fmt is SolveFormat.fpuzzles and (count or unique or limit is not None):
        fail(
            "--format fpuzzles writes each puzzle's link with its one solution: "
            "it goes without --count, --unique and --limit"
        )
    if color is not None and (fmt is not SolveFormat.pretty or count):
        fail("--color colours the solution grids of --format pretty: there are none to colour here")
    shape = box_shape(box)
    if strategy == "all":
        if fmt is SolveFormat.fpuzzles:
            fail(f"--strategy all (the cross-check) writes pretty, line, json or csv, not {fmt.value}")
        if color is not None:
            fail("--color colours solution grids: the cross-check of --strategy all prints none")
        run_check(
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
        fail(stats_in_json(SolveFormat))
    from sudokit.runtime.batch import SolveJob
    from sudokit.runtime.output import RecordFormat

    one_engine("solve", strategy)
    if fmt is SolveFormat.fpuzzles and not is_batch(puzzles):
        refuse_unlinkable(puzzles[0], shape)

    options = solve_options(option or [], strategy)
    check_known(strategy)
    limit = 2 if unique else limit or (DEFAULT_COUNT_LIMIT if count else 1)
    render = RecordFormat(
        fmt.value,
        counting=count,
        limit=limit,
        color=use_color(color, output),
        header=is_batch(puzzles),
        stats=stats,
        unique=unique,
    )
    keep = render.keep()  # the solutions the records show, not every one found
    tables = table_plan(puzzles, column, expect, output=output, fmt=fmt.value, resume=resume)
    if tables is not None and tables.compare:
        from dataclasses import replace

        from sudokit.runtime.batch import CompareJob

        render = replace(render, expect=True)
        job: SolveJob = CompareJob(strategy, options, render, keep=keep, time_limit=time_limit, box=shape)
    else:
        job = SolveJob(strategy, options, render, keep=keep, time_limit=time_limit, box=shape)
    run_job(
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


def refuse_unlinkable(puzzle: str, box: Shape | None) -> None:
    """Fail before solving a lone puzzle that f-puzzles cannot hold (``--format fpuzzles``): nothing on stdout."""
    from sudokit.errors import InvalidPuzzleError
    from sudokit.io.reader import read_arguments
    from sudokit.runtime.output import RecordFormat

    try:
        record = next(read_arguments([puzzle], box=box), None)
        grid = None if record is None else record.parse(box)
    except (InvalidPuzzleError, OSError):
        return  # not a puzzle: its record says so, as without --format fpuzzles
    problem = None if grid is None else RecordFormat("fpuzzles").refusal(grid)
    if problem is not None:
        fail(f"--format fpuzzles: {problem.removeprefix('f-puzzles: ')}")
