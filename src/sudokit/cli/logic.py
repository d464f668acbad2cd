"""``sudoku hint``, ``sudoku explain`` and ``sudoku rate``: the logical steps of a puzzle, and its rating.

There is no ``from __future__ import annotations`` here on purpose: Typer reads the commands'
annotations, and given strings it evaluates each one, which costs start-up time.
"""

from enum import StrEnum
from typing import Annotated, Any

import typer
import typer.core

from sudokit.cli.common import (
    CLOSED,
    Box,
    Color,
    Force,
    Jobs,
    Output,
    Puzzles,
    Quiet,
    Resume,
    TimeLimit,
    app,
    box_shape,
    check_known,
    complete_engines,
    fail,
    is_batch,
    one_engine,
    print_text,
    run_job,
    say,
    std_output,
    use_color,
)
from sudokit.errors import SudokitError
from sudokit.model.shape import Shape


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


CountingEngine = Annotated[
    str,
    typer.Option(
        "--strategy",
        "-s",
        metavar="NAME",
        help="Engine that counts to 2, proving the puzzle has one solution.",
        autocompletion=complete_engines(several=False, all_too=False),
    ),
]


Without = Annotated[
    str | None,
    typer.Option(
        "--without",
        metavar="A,B,...",
        help="Techniques to leave out: f-puzzles' logic families (tuples, pointing, fishes, wings, aic, "
        "contradictions) or technique names (X-Wing, skyscraper, forcing, ...).",
    ),
]


def _without(names: str | None) -> frozenset[str]:
    """The techniques ``--without`` leaves out; an unknown name is a one-line error (exit status 2)."""
    if names is None:
        return frozenset()
    from sudokit.features.logic import disabled_techniques

    listed = [name.strip() for name in names.split(",") if name.strip()]
    if not listed:
        fail("--without needs technique or logic family names, e.g. --without fishes,aic")
    try:
        return disabled_techniques(listed)
    except ValueError as err:
        fail(f"--without: {err}")


def _one_puzzle(arg: str, box: Shape | None, line: int | None = None) -> Any:
    """The one puzzle of ``arg`` (text, file or -), or the one on ``line`` of it, as a Grid.

    A one-line error otherwise: no puzzle, several without ``line``, or none on ``line``.
    """
    from sudokit.errors import InvalidPuzzleError
    from sudokit.io.reader import check_arguments, on_line, read_arguments

    record = None
    if arg == "-" and 0 in CLOSED:
        fail("standard input is closed: there is no puzzle to read from -")
    try:
        check_arguments([arg])
        records = read_arguments([arg], box=box)
        if line is not None:
            record = next(on_line(records, line), None)  # read no further than the puzzle on that line
            if record is None:
                fail(f"no puzzle in {arg}")
        else:
            record = next(records, None)
            if record is None:
                fail(f"no puzzle in {arg}")
            if next(records, None) is not None:
                fail(f"{record.source} holds several puzzles: pick one with --line N (see 'sudoku rate' for many)")
        grid = record.parse(box)
    except InvalidPuzzleError as err:
        fail(str(err) if record is None else record.locate(str(err)))
    except OSError as err:
        fail(f"{err.filename or arg}: {err.strerror or err}")
    return grid


def _marked_grid(grid: Any, cells: set[int], color: bool) -> str:
    """The grid with box borders, ``cells`` in brackets (and bold yellow with ``color``), blanks as ``.``."""
    from sudokit.model.formats import symbol

    shape, n = grid.shape, grid.n
    lines = []
    for r in range(n):
        if r and r % shape.box_rows == 0:
            lines.append("+".join("-" * (len(symbol(0, n)) + 2) * shape.box_cols for _ in range(0, n, shape.box_cols)))
        groups = []
        for g in range(0, n, shape.box_cols):
            parts = []
            for c in range(g, g + shape.box_cols):
                i = r * n + c
                s = symbol(grid.cells[i], n)
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
    from sudokit.model.formats import symbol

    return [symbol(d, n).strip() for d in digits]


def _json_line(data: object) -> None:
    import json

    print_text(json.dumps(data, allow_nan=False))


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
    strategy: CountingEngine = "backtrack",
    without: Without = None,
) -> None:
    """Show the next step a person would take: the easiest technique that makes progress.

    Prints the step's one-sentence explanation, then the grid with the cells involved in brackets
    and their candidates. When no technique applies the step is "needs search". A puzzle of any box
    shape, classic or variant (its rules give steps of their own), with exactly one solution (the
    engine of --strategy, backtrack unless told, counts to 2 first, within --time-limit, as 'sudoku
    solve --unique' does): a step may assume there is one. --without leaves techniques out, as
    f-puzzles' disabledlogic does.

    Exit status: 0 a step (or the puzzle is complete), 1 the puzzle has no solution or several, or
    timed out, 2 invalid input.
    """
    from sudokit.features.logic import Candidates

    if color is not None and fmt is StepFormat.json:
        fail("--color colours the grid of --format pretty: json has none")
    disabled = _without(without)
    grid = _one_puzzle(puzzle, box_shape(box), line)
    step = _logic_answer(grid, "hint", time_limit, strategy, disabled)
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
            from sudokit.features.logic import step_dict

            _json_line(step_dict(step, n))
    elif step is None:
        print_text("the puzzle is already complete")
    else:
        print_text(f"{step.technique}: {step.explanation}")
        print_text("")
        involved = set(step.cells) | {c for c, _ in step.placements + step.eliminations}
        colored = use_color(color, None)
        print_text(_marked_grid(grid, involved, colored), ansi=colored)
        blanks = [c for c in sorted(involved) if not grid.cells[c]]
        if blanks:
            print_text("")
            print_text(
                "candidates: "
                + "; ".join(
                    f"r{c // n + 1}c{c % n + 1} {{{','.join(_symbols(state.candidates(c), n))}}}" for c in blanks
                )
            )


def _logic_answer(
    grid: Any, command: str, time_limit: float | None, strategy: str, disabled: frozenset[str] = frozenset()
) -> Any:
    """The hint (a Step or None) or the rated path of ``grid``, made in a worker within ``time_limit``.

    ``strategy`` counts to 2 first. A puzzle without a solution or with several, and a timeout, are
    one line on stderr and exit status 1 (as 'sudoku solve --unique' and a timeout of 'sudoku
    solve'); an engine that fails, 2.
    """
    from sudokit.features.rating import NOT_UNIQUE, run_logic

    one_engine(command, strategy)
    check_known(strategy)
    try:
        kind, answer = run_logic(
            grid, explain=command == "explain", time_limit=time_limit, engine=strategy, disabled=disabled
        )
    except SudokitError as err:
        fail(str(err))
    if kind == "refused":
        noun = "explanation" if command == "explain" else command
        say(f"sudoku: {answer}: no {noun}" if answer == NOT_UNIQUE else f"sudoku: {answer}")
        raise typer.Exit(1)
    if kind == "timeout":
        say(f"sudoku: timeout: {answer} (--time-limit SECONDS: more time)")
        raise typer.Exit(1)
    if kind == "error":
        fail(answer)
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
    strategy: CountingEngine = "backtrack",
    without: Without = None,
) -> None:
    """Print every step of the easiest-first logical path, one numbered line each, then the rating.

    Where every technique stalls, a "needs search" step places the solution's digit in one cell and
    the logic goes on (as 'sudoku rate' scores it). json: one object a step, then {"rating": ...}.
    The puzzle must have exactly one solution (the engine of --strategy, backtrack unless told, counts
    to 2 first); the whole explanation runs within --time-limit. --without leaves techniques out (the
    path and the rating are then those of the techniques left).

    Exit status: 0 explained, 1 the puzzle has no solution or several, or timed out, 2 invalid input.
    """
    disabled = _without(without)
    grid = _one_puzzle(puzzle, box_shape(box), line)
    path, rating = _logic_answer(grid, "explain", time_limit, strategy, disabled)
    from sudokit.features.logic import step_dict

    n = grid.n
    for k, step in enumerate(path, 1):
        if fmt is StepFormat.json:
            _json_line(step_dict(step, n, k))
        else:
            print_text(f"{k}. {step.technique}: {step.explanation}")
    if fmt is StepFormat.json:
        _json_line({"rating": rating.to_dict()})
        return
    search = ""
    if not rating.solved_by_logic:
        stalls = rating.techniques.get("needs search", 0)
        from sudokit.runtime.progress import counted

        times, guesses = counted(stalls, "time"), counted(rating.guesses, "guess", "guesses")
        search = f"; the techniques stalled {times}, {strategy} needed {guesses}"
    print_text(f"rating: {rating.level}, score {rating.score} (hardest: {rating.hardest or 'none'}{search})")


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
    strategy: CountingEngine = "backtrack",
) -> None:
    """Rate each puzzle: level (Easy, Medium, Hard, Unfair, Extreme), score, hardest technique, guesses.

    The score sums HoDoKu's base score of each step of the easiest-first logical path; the level is
    the hardest technique's, raised while the score exceeds the level's maximum (800, 1000, 1600,
    1800). Each puzzle is first solved by the engine of --strategy (backtrack unless told), counting
    to 2: one with several solutions is not rated (its record says several, as 'sudoku solve --unique'
    does); the engine's guesses (stat "guesses", 0 for an engine without it) measure the search a
    puzzle beyond the techniques needs. Counting and rating run within --time-limit. Every
    input puzzle gets one record, in input order; batches work as with 'sudoku solve'. Variant
    puzzles are 'unsupported'.

    Exit status: 0 all rated, 1 some puzzle has no solution or several, or timed out, 2 invalid input
    or unsupported.
    """
    from sudokit.features.rating import RateFormat as Render
    from sudokit.runtime.batch import SolveJob

    output = std_output(output, force, resume)
    shape = box_shape(box)
    batch = is_batch(puzzles)
    one_engine("rate", strategy)
    check_known(strategy)
    render = Render(fmt.value, header=batch, time_limit=time_limit, strategy=strategy)
    job = SolveJob(strategy, {}, render, time_limit=time_limit, box=shape)  # type: ignore[arg-type]
    run_job(puzzles, job, box=shape, jobs=jobs, output=output, force=force, resume=resume, quiet=quiet, line=line)
