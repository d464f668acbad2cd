"""``sudoku candidates``: the true candidates of puzzles, as pencil-marked grids.

There is no ``from __future__ import annotations`` here on purpose: Typer reads the commands'
annotations, and given strings it evaluates each one, which costs start-up time.
"""

from enum import StrEnum
from typing import Annotated

import typer

from sudokit.cli.common import (
    Box,
    Force,
    Jobs,
    Output,
    Puzzles,
    Quiet,
    TimeLimit,
    app,
    box_shape,
    check_known,
    complete_engines,
    fail,
    is_batch,
    one_engine,
    run_job,
    std_output,
)


class CandidatesForm(StrEnum):
    pretty = "pretty"
    line = "line"
    json = "json"


@app.command(short_help="Show each cell's true candidates: the digits some solution puts there.")
def candidates(
    puzzles: Puzzles,
    strategy: Annotated[
        str | None,
        typer.Option(
            "--strategy",
            "-s",
            metavar="NAME",
            help="Engine (default: sat when installed, its fast method; else backtrack).",
            autocompletion=complete_engines(several=False, all_too=False),
        ),
    ] = None,
    cap: Annotated[
        int,
        typer.Option("--cap", min=1, max=1000, metavar="N", help="Count the solutions of each candidate up to N."),
    ] = 1,
    fmt: Annotated[
        CandidatesForm,
        typer.Option("--format", "-f", help="pretty (a pencil-marked grid), line (puzzle:candidates) or json."),
    ] = CandidatesForm.pretty,
    time_limit: TimeLimit = "60",
    box: Box = None,
    jobs: Jobs = None,
    output: Output = None,
    force: Force = False,
    quiet: Quiet = False,
) -> None:
    """Print each puzzle's true candidates: for each cell, the digits at least one solution puts there.

    pretty: the grid with each blank's candidates (- for none), every column as wide as its widest
    cell; with --cap N above 1 a candidate found in fewer than N solutions carries that number in
    brackets, 379(1). line: puzzle:candidates, each cell's digits in reading order separated by ",".
    json: an object a puzzle with candidates (lists of digits) and counts (n*n*n numbers, counts[(row*n
    + col)*n + digit-1]). Each puzzle runs in a worker within --time-limit; every solution the engine
    reports is checked before it counts. Variant puzzles too. Every input puzzle gets one record, in
    input order; batches work as with 'sudoku solve'.

    Exit status: 0 all found, 1 some puzzle has no solution or timed out, 2 invalid input or an
    engine's failure.
    """
    from sudokit.features.candidates import CandidatesFormat, candidates_job, fastest

    output = std_output(output, force, False)
    shape = box_shape(box)
    if strategy is None:
        strategy = fastest()
    one_engine("candidates", strategy)
    check_known(strategy)
    if not 1 <= cap <= 1000:
        fail(f"--cap must be from 1 to 1000, not {cap}")
    render = CandidatesFormat(fmt.value, header=is_batch(puzzles))
    job = candidates_job(strategy, render, cap=cap, time_limit=time_limit, box=shape)
    run_job(puzzles, job, box=shape, jobs=jobs, output=output, force=force, resume=False, quiet=quiet)
