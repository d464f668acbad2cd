"""The ``sudoku`` command: parses arguments and prints; the work is done by the library."""

from __future__ import annotations

import json
import os
import sys
import warnings
from enum import StrEnum
from typing import Annotated, NoReturn

import typer

from sudokit.api import DEFAULT_COUNT_LIMIT, get_strategy
from sudokit.batch import Outcome, exit_status, solve_records
from sudokit.crosscheck import CheckOutcome, CheckSummary, CrossCheckReport, check_records
from sudokit.errors import SudokitError
from sudokit.reader import read_arguments
from sudokit.registry import default_registry
from sudokit.shape import Shape

app = typer.Typer(
    name="sudoku",
    help="Solve Sudoku of any box shape with interchangeable engines.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


class Format(StrEnum):
    pretty = "pretty"
    line = "line"
    json = "json"


def _fail(message: str) -> NoReturn:
    """One line on standard error and exit status 2: bad input or usage, never a traceback."""
    typer.echo(f"sudoku: error: {message}", err=True)
    raise typer.Exit(2)


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


def _options(pairs: list[str]) -> dict[str, object]:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            _fail(f"option {pair!r} is not of the form KEY=VALUE")
        options[key.strip().replace("-", "_")] = _option_value(value.strip())
    return options


def _use_color(color: bool | None) -> bool:
    if color is not None:
        return color
    if os.environ.get("NO_COLOR"):
        return False
    return bool(os.environ.get("FORCE_COLOR")) or sys.stdout.isatty()


def _count_text(outcome: Outcome) -> str:
    result = outcome.result
    assert result is not None
    if result.status.value == "timeout":
        return "timeout"
    return f"{result.count}" if result.exact else f"{result.count}+"


def _line_record(outcome: Outcome, counting: bool) -> str:
    result = outcome.result
    if result is None or (result.status.value in ("error", "timeout", "unsolvable") and not counting):
        return f"{outcome.puzzle_text}:{outcome.status}"
    if counting:
        return f"{outcome.puzzle_text}:{_count_text(outcome)}"
    assert result.solution is not None
    return f"{outcome.puzzle_text}:{result.solution.to_line()}"


def _stats_text(outcome: Outcome) -> str:
    result = outcome.result
    assert result is not None
    counters = ", ".join(f"{key} {value}" for key, value in result.stats.items())
    return f"{result.strategy}: {result.status.value} in {result.elapsed * 1000:.2f} ms" + (
        f"; {counters}" if counters else ""
    )


def _pretty_record(outcome: Outcome, *, counting: bool, limit: int, color: bool, header: bool, stats: bool) -> str:
    result = outcome.result
    parts = [f"# {outcome.record.where}"] if header else []
    if result is None:
        parts.append(f"invalid: {outcome.invalid}")
    elif counting:
        count = _count_text(outcome)
        if count == "timeout":
            parts.append(f"timeout: at least {result.count} solutions found")
        else:
            noun = "solution" if result.count == 1 and result.exact else "solutions"
            more = "" if result.exact else f" (stopped at the limit of {limit})"
            parts.append(f"{result.count} {noun}{more}" if result.exact else f"at least {result.count} {noun}{more}")
    elif result.status.value == "error":
        parts.append(f"error: {result.error}")
    elif not result.solutions:
        parts.append("no solution" if result.status.value == "unsolvable" else "timeout: no solution found in time")
    else:
        grids = [s.to_pretty(givens=outcome.grid, color=color) for s in result.solutions]
        if len(grids) > 1:
            grids = [f"solution {k}:\n{g}" for k, g in enumerate(grids, 1)]
        parts.append("\n\n".join(grids))
        if result.status.value == "timeout":
            parts.append("timeout: the search for more solutions was stopped")
    if stats and result is not None:
        parts.append(_stats_text(outcome))
    return "\n".join(parts)


@app.command()
def solve(
    puzzles: Annotated[
        list[str],
        typer.Argument(metavar="PUZZLE|FILE|-", help="A puzzle, a file of puzzles (one per line), or - for stdin."),
    ],
    strategy: Annotated[
        str, typer.Option("--strategy", "-s", help="Engine name (see 'sudoku strategies'); all: 'sudoku check'.")
    ] = "backtrack",
    fmt: Annotated[Format, typer.Option("--format", "-f", help="Output form.")] = Format.pretty,
    count: Annotated[
        bool, typer.Option("--count", help="Report the number of solutions (exact up to --limit).")
    ] = False,
    limit: Annotated[
        int | None,
        typer.Option(
            "--limit", min=1, help=f"Solutions to look for [default: 1, or {DEFAULT_COUNT_LIMIT} with --count]."
        ),
    ] = None,
    time_limit: Annotated[float, typer.Option("--time-limit", "-t", min=0.001, help="Seconds per puzzle.")] = 60.0,
    stats: Annotated[bool, typer.Option("--stats", help="Show the engine's counters (nodes, guesses, ...).")] = False,
    box: Annotated[
        str | None, typer.Option("--box", help="Box shape RxC, e.g. 2x3, where the size leaves it open.")
    ] = None,
    option: Annotated[
        list[str], typer.Option("--option", "-o", help="Engine option KEY=VALUE, e.g. order=plain.")
    ] = [],  # noqa: B006
    color: Annotated[
        bool | None, typer.Option("--color/--no-color", help="Red filled cells [default: on a terminal].")
    ] = None,
) -> None:
    """Solve puzzles (or count their solutions) with the chosen engine.

    Exit status: 0 all solved (or counted), 1 some puzzle has no solution or timed out, 2 invalid
    input or usage. ``--strategy all`` runs 'sudoku check' with every installed engine instead.
    """
    if strategy == "all":
        if option:
            _fail("engine options go with one engine, not with --strategy all")
        _run_check(puzzles, None, fmt=fmt, count=count, limit=limit, time_limit=time_limit, box=box)
    try:
        shape = Shape.parse(box) if box else None
        engine = get_strategy(strategy, **_options(option))
    except SudokitError as err:
        _fail(str(err))
    solutions_wanted = limit or (DEFAULT_COUNT_LIMIT if count else 1)
    header = len(puzzles) > 1 or any(p == "-" or os.path.isfile(p) for p in puzzles)
    use_color = _use_color(color)
    statuses: list[str] = []
    try:
        outcomes = solve_records(
            read_arguments(puzzles), engine, limit=solutions_wanted, time_limit=time_limit, box=shape
        )
        for k, outcome in enumerate(outcomes):
            statuses.append(outcome.status)
            if outcome.error:
                typer.echo(
                    f"sudoku: error: {outcome.record.where}: {outcome.error}"
                    if outcome.record.line is not None
                    else f"sudoku: error: {outcome.error}",
                    err=True,
                )
            if fmt is Format.json:
                typer.echo(json.dumps(outcome.to_dict(solutions=solutions_wanted > 1 and not count)))
            elif fmt is Format.line:
                typer.echo(_line_record(outcome, count))
                if stats and outcome.result is not None:
                    typer.echo(f"{outcome.record.where}: {_stats_text(outcome)}", err=True)
            elif outcome.result is not None or header:
                if k:
                    typer.echo()
                typer.echo(
                    _pretty_record(
                        outcome, counting=count, limit=solutions_wanted, color=use_color, header=header, stats=stats
                    ),
                    color=use_color,  # else click strips the colors whenever stdout is not a terminal
                )
    except SudokitError as err:  # e.g. a missing file named on the command line
        _fail(str(err))
    except BrokenPipeError:
        raise  # the reader went away (``| head``): click exits quietly
    except OSError as err:
        _fail(f"{err.filename or ''}: {err.strerror or err}")
    raise typer.Exit(exit_status(statuses, counting=count))


def _verdict_lines(report: CrossCheckReport) -> list[str]:
    if report.verdict != "agree":
        return [f"{report.verdict}: {problem}" for problem in report.problems] or [report.verdict]
    if report.count == 0:
        return ["agree: no solution"]
    noun = "solution" if report.count == 1 and report.exact else "solutions"
    if report.exact:
        return [f"agree: {report.count} {noun}"]
    return [f"agree: at least {report.count} {noun} (stopped at the limit of {report.limit})"]


def _check_pretty(outcome: CheckOutcome, header: bool) -> str:
    parts = [f"# {outcome.record.where}"] if header else []
    report = outcome.report
    if report is None:
        return "\n".join([*parts, f"invalid: {outcome.invalid}"])
    parts.append(report.puzzle.to_line())
    width = max(len(answer.name) for answer in report.engines)
    for a in report.engines:
        note = "" if a.verdict == "ok" else f"  {a.verdict}"
        ms = a.elapsed * 1000
        parts.append(f"  {a.name.ljust(width)}  {a.status:<10}  {a.count_text:>6}  {ms:10.2f} ms{note}")
    return "\n".join(parts + _verdict_lines(report))


def _check_line(outcome: CheckOutcome) -> str:
    report = outcome.report
    if report is None:
        return f"{outcome.puzzle_text}:invalid"
    engines = " ".join(
        f"{a.name}={a.count_text if a.verdict in ('ok', 'disagree') else a.verdict}/{a.elapsed * 1000:.1f}ms"
        for a in report.engines
    )
    return f"{outcome.puzzle_text}:{report.verdict}:{report.count_text} {engines}"


def _run_check(
    puzzles: list[str],
    strategies: str | None,
    *,
    fmt: Format,
    count: bool,
    limit: int | None,
    time_limit: float,
    box: str | None,
) -> NoReturn:
    """Cross-check every puzzle, print each report and the summary, exit with the worst status."""
    header = len(puzzles) > 1 or any(p == "-" or os.path.isfile(p) for p in puzzles)
    summary = CheckSummary()
    try:
        shape = Shape.parse(box) if box else None
        outcomes = check_records(
            read_arguments(puzzles), strategies, count=count, limit=limit, time_limit=time_limit, box=shape
        )
        for outcome in outcomes:
            summary.add(outcome)
            where = f"{outcome.record.where}: " if outcome.record.line is not None else ""
            if outcome.report is None:
                typer.echo(f"sudoku: error: {where}{outcome.invalid}", err=True)
            elif outcome.verdict != "agree":
                for problem in outcome.report.problems:
                    typer.echo(f"sudoku: {outcome.verdict}: {where}{outcome.puzzle_text}: {problem}", err=True)
            if fmt is Format.json:
                typer.echo(json.dumps(outcome.to_dict()))
            elif fmt is Format.line:
                typer.echo(_check_line(outcome))
            elif outcome.report is not None or header:
                if summary.puzzles > 1:
                    typer.echo()
                typer.echo(_check_pretty(outcome, header))
    except SudokitError as err:  # an unknown engine, a bad --box, a missing file
        _fail(str(err))
    except BrokenPipeError:
        raise
    except OSError as err:
        _fail(f"{err.filename or ''}: {err.strerror or err}")
    if fmt is Format.pretty:
        typer.echo()
        typer.echo(str(summary))
    else:
        typer.echo(str(summary), err=True)
    raise typer.Exit(summary.exit_status)


@app.command()
def check(
    puzzles: Annotated[
        list[str],
        typer.Argument(metavar="PUZZLE|FILE|-", help="A puzzle, a file of puzzles (one per line), or - for stdin."),
    ],
    strategies: Annotated[
        str | None,
        typer.Option("--strategies", "-s", help="Engines to compare, comma-separated (default: every installed one)."),
    ] = None,
    count: Annotated[
        bool, typer.Option("--count", help=f"Compare exact counts (up to --limit, default {DEFAULT_COUNT_LIMIT}).")
    ] = False,
    limit: Annotated[
        int | None,
        typer.Option(
            "--limit", min=1, help=f"Solutions per engine to look for (default: 2, {DEFAULT_COUNT_LIMIT} with --count)."
        ),
    ] = None,
    time_limit: Annotated[
        float, typer.Option("--time-limit", "-t", min=0.001, help="Seconds per puzzle per engine.")
    ] = 60.0,
    fmt: Annotated[
        Format, typer.Option("--format", "-f", help="pretty (a table per puzzle), line, or json (one object a line).")
    ] = Format.pretty,
    box: Annotated[
        str | None, typer.Option("--box", help="Box shape RxC, e.g. 2x3, where the size leaves it open.")
    ] = None,
) -> None:
    """Run several engines on the same puzzles, verify every answer and check that they agree.

    Engines agree when every grid is a valid solution and they agree on solvable or not and on the
    number of solutions (1 or 2+ by default, exact counts with --count); different valid grids of a
    puzzle with several solutions are agreement. The summary goes to stdout (pretty) or stderr.

    Exit status: 0 all agree, 1 some engine timed out (undecided) but none disagreed, 2 invalid
    input or usage, 3 some engine disagreed, returned an invalid grid or failed (named on stderr);
    over several puzzles the highest applies.
    """
    _run_check(puzzles, strategies, fmt=fmt, count=count, limit=limit, time_limit=time_limit, box=box)


@app.command()
def strategies(
    fmt: Annotated[Format, typer.Option("--format", "-f", help="pretty (a table) or json.")] = Format.pretty,
) -> None:
    """List the installed engines, their descriptions, and whether each one loaded."""
    rows = default_registry().info()
    if fmt is Format.json:
        for row in rows:
            typer.echo(
                json.dumps(
                    {
                        "name": row.name,
                        "loaded": row.loaded,
                        "description": row.description,
                        "entry_point": row.entry_point,
                        "distribution": row.distribution,
                        "error": row.error,
                    }
                )
            )
        return
    if not rows:
        typer.echo("no strategies installed (entry-point group 'sudokit.strategies' is empty)")
        return
    width = max(len(row.name) for row in rows)
    for row in rows:
        state = "ok    " if row.loaded else "FAILED"
        text = row.description if row.loaded else row.error
        source = f" [{row.distribution}]" if row.distribution else ""
        typer.echo(f"{row.name.ljust(width)}  {state}  {text}{source}")


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:  # type: ignore[no-untyped-def]
    typer.echo(f"sudoku: warning: {message}", err=True)


def main() -> None:
    """Console entry point: warnings as one-line messages, no tracebacks for sudokit errors."""
    warnings.showwarning = _show_warning
    app()


if __name__ == "__main__":
    main()
