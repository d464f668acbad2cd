"""The ``sudoku`` command: parses arguments and prints; the work is done by the library."""

from __future__ import annotations

import json
import os
import signal
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from sudokit.api import DEFAULT_COUNT_LIMIT, get_strategy
from sudokit.batch import exit_status
from sudokit.errors import SudokitError
from sudokit.output import RecordFormat, RecordWriter, csv_header, resume_point
from sudokit.parallel import default_jobs, solve_parallel
from sudokit.progress import Progress, Tally, count_puzzle_lines
from sudokit.reader import check_arguments, read_arguments
from sudokit.registry import default_registry
from sudokit.shape import Shape

if TYPE_CHECKING:  # the cross-check is imported only when it runs
    from sudokit.crosscheck import CheckOutcome, CrossCheckReport

app = typer.Typer(
    name="sudoku",
    help="Solve Sudoku of any box shape with interchangeable engines.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain click messages: a usage error is two short lines, not a box
)


class Format(StrEnum):
    pretty = "pretty"
    line = "line"
    json = "json"


class OutputFormat(StrEnum):
    pretty = "pretty"
    line = "line"
    json = "json"
    csv = "csv"


def _fail(message: str) -> NoReturn:
    """One line on standard error and exit status 2: bad input or usage, never a traceback."""
    typer.echo(f"sudoku: error: {message}", err=True)
    raise typer.Exit(2)


@contextmanager
def _input_errors() -> Iterator[None]:
    """Bad input met on the way (a missing file, an unknown engine) is one line and exit 2."""
    try:
        yield
    except SudokitError as err:
        _fail(str(err))
    except BrokenPipeError:
        raise  # the reader went away (``| head``): click exits quietly
    except OSError as err:
        _fail(f"{err.filename or ''}: {err.strerror or err}")


def _is_batch(puzzles: list[str]) -> bool:
    """More than one argument, or a file or stdin: records get headers, the run a summary."""
    return len(puzzles) > 1 or any(p == "-" or os.path.isfile(p) for p in puzzles)


def _shape(box: str | None) -> Shape | None:
    return Shape.parse(box) if box else None


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


@app.command()
def solve(
    puzzles: Annotated[
        list[str],
        typer.Argument(metavar="PUZZLE|FILE|-", help="A puzzle, a file of puzzles (one per line), or - for stdin."),
    ],
    strategy: Annotated[
        str, typer.Option("--strategy", "-s", help="Engine name (see 'sudoku strategies'); all: 'sudoku check'.")
    ] = "backtrack",
    fmt: Annotated[OutputFormat, typer.Option("--format", "-f", help="Output form.")] = OutputFormat.pretty,
    count: Annotated[
        bool, typer.Option("--count", help="Report the number of solutions (exact up to --limit).")
    ] = False,
    limit: Annotated[
        int | None,
        typer.Option(
            "--limit", min=1, help=f"Solutions to look for (default: 1, or {DEFAULT_COUNT_LIMIT} with --count)."
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
        bool | None, typer.Option("--color/--no-color", help="Red filled cells (default: on a terminal).")
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs", "-j", min=1, help="Worker processes (default: one per core for files and stdin, else 1)."
        ),
    ] = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-O", dir_okay=False, help="Write the records to this file.")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar and no summary.")] = False,
    resume: Annotated[
        bool,
        typer.Option("--resume", help="Continue an interrupted batch: skip the puzzles --output already holds."),
    ] = False,
) -> None:
    """Solve puzzles (or count their solutions) with the chosen engine.

    Every input puzzle gets exactly one output record, in input order, failed ones included; records
    are written whole and flushed as they complete. A file runs on all cores (--jobs), streamed.

    Exit status: 0 all solved (or counted), 1 some puzzle has no solution or timed out, 2 invalid
    input or usage. ``--strategy all`` runs 'sudoku check' with every installed engine instead.
    """
    if strategy == "all":
        if option:
            _fail("engine options go with one engine, not with --strategy all")
        if fmt is OutputFormat.csv:
            _fail("--strategy all (the cross-check) writes pretty, line or json, not csv")
        _run_check(puzzles, None, fmt=Format(fmt.value), count=count, limit=limit, time_limit=time_limit, box=box)
    options = _options(option)
    with _input_errors():
        check_arguments(puzzles)  # a missing file fails before any work, not midway
        shape = _shape(box)
        get_strategy(strategy, **options)  # fail here, once, on an unknown engine or a bad option
    batch = _is_batch(puzzles)
    render = RecordFormat(
        fmt.value,
        counting=count,
        limit=limit or (DEFAULT_COUNT_LIMIT if count else 1),
        color=output is None and _use_color(color),
        header=batch,
        stats=stats,
    )
    done_before = 0
    if resume:
        if output is None or fmt is OutputFormat.pretty:
            _fail("--resume needs --output and a one-line-per-record format: --format line, json or csv")
        try:
            done_before = resume_point(output, header=fmt is OutputFormat.csv)
        except OSError as err:
            _fail(f"cannot resume {output}: {err.strerror}")
    progress = None
    if batch and not quiet and sys.stderr.isatty():
        total = count_puzzle_lines(p for p in puzzles if os.path.isfile(p))
        progress = Progress(sys.stderr, max(0, total - done_before) or None)
    tally = Tally()
    try:
        out = open(output, "a" if resume else "w", encoding="utf-8") if output else sys.stdout  # noqa: SIM115
    except OSError as err:
        _fail(f"cannot write {output}: {err.strerror}")
    writer = RecordWriter(out)
    on_term = _install(signal.SIGTERM, _terminate)  # a kill ends the batch as Ctrl-C does: cleanly
    try:
        with _input_errors():
            if fmt is OutputFormat.csv and not (resume and out.tell() > 0):
                writer.write(csv_header())
            records = solve_parallel(
                islice(read_arguments(puzzles), done_before, None),
                (strategy, options),
                limit=render.limit,
                time_limit=time_limit,
                box=shape,
                jobs=jobs or (default_jobs() if batch else 1),
                render=render,
            )
            for rendered in records:
                tally.add(rendered.status)
                for message in (f"sudoku: error: {rendered.error}" if rendered.error else None, rendered.note):
                    if message:
                        if progress:
                            progress.close()
                        typer.echo(message, err=True)
                if rendered.text:
                    writer.write(
                        "\n" + rendered.text if fmt is OutputFormat.pretty and tally.done > 1 else rendered.text
                    )
                if progress:
                    progress.update(tally.done)
    except KeyboardInterrupt as err:
        typer.echo(
            f"sudoku: interrupted after {done_before + tally.done} puzzles; every record written is complete"
            + (f" (continue with --resume --output {output})" if output else ""),
            err=True,
        )
        raise typer.Exit(143 if isinstance(err, _Terminated) else 130) from None
    finally:
        _install(signal.SIGTERM, on_term)
        if progress:
            progress.close()
        if output:
            out.close()
    if not tally.done and not done_before:
        _fail("no puzzles in the input")
    if batch and not quiet:
        resumed = f" (resumed after {done_before} already written)" if resume else ""
        typer.echo(tally.summary() + resumed, err=True)
    raise typer.Exit(exit_status(tally.by_status.elements(), counting=count))


class _Terminated(KeyboardInterrupt):
    """SIGTERM, turned into the same orderly stop as Ctrl-C."""


def _terminate(signum: int, frame: object) -> None:
    raise _Terminated


def _install(signum: int, handler: Any) -> Any:
    """Set a signal handler where that is possible (the main thread); return the previous one."""
    try:
        return signal.signal(signum, handler)
    except (ValueError, TypeError):  # not the main thread, or no previous Python-level handler
        return None


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
    from sudokit.crosscheck import CheckSummary, check_records

    header = _is_batch(puzzles)
    summary = CheckSummary()
    with _input_errors():
        check_arguments(puzzles)
        shape = _shape(box)
        outcomes = check_records(
            read_arguments(puzzles), strategies, count=count, limit=limit, time_limit=time_limit, box=shape
        )
        for outcome in outcomes:
            summary.add(outcome)
            if outcome.report is None:
                typer.echo(f"sudoku: error: {outcome.record.locate(outcome.invalid)}", err=True)
            elif outcome.verdict != "agree":
                for problem in outcome.report.problems:
                    message = outcome.record.locate(f"{outcome.puzzle_text}: {problem}")
                    typer.echo(f"sudoku: {outcome.verdict}: {message}", err=True)
            if fmt is Format.json:
                typer.echo(json.dumps(outcome.to_dict()))
            elif fmt is Format.line:
                typer.echo(_check_line(outcome))
            elif outcome.report is not None or header:
                if summary.puzzles > 1:
                    typer.echo()
                typer.echo(_check_pretty(outcome, header))
    if not summary.puzzles:
        _fail("no puzzles in the input")
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
def bench(
    files: Annotated[list[Path], typer.Argument(metavar="FILE...", exists=True, dir_okay=False, help="Puzzle files.")],
    strategies: Annotated[
        str | None,
        typer.Option("--strategies", "-s", help="Engines to run, comma-separated (default: every installed one)."),
    ] = None,
    sample: Annotated[
        int | None, typer.Option("--sample", "-n", min=1, help="Only the first N puzzles of each file.")
    ] = None,
    time_limit: Annotated[float, typer.Option("--time-limit", "-t", min=0.001, help="Seconds per puzzle.")] = 10.0,
    fmt: Annotated[
        Format, typer.Option("--format", "-f", help="pretty (a table) or json (a row a line).")
    ] = Format.pretty,
    plot: Annotated[
        Path | None, typer.Option("--plot", dir_okay=False, help="Draw the solve-time distributions to this PNG.")
    ] = None,
    box: Annotated[
        str | None, typer.Option("--box", help="Box shape RxC, e.g. 2x3, where the size leaves it open.")
    ] = None,
) -> None:
    """Run each engine over each file, one puzzle at a time, and tabulate the solve times."""
    from sudokit.bench import benchmark, plot_times

    if plot is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            _fail("--plot needs matplotlib: pip install 'sudokit[plot]'")
        if not plot.parent.is_dir():  # say so now, not after the whole benchmark has run
            _fail(f"cannot write {plot}: no such directory {plot.parent}")
    names = [s.strip() for s in strategies.split(",") if s.strip()] if strategies else default_registry().names()
    if not names:
        _fail("no engines to run: name them with --strategies a,b or install one")
    with _input_errors():
        rows = benchmark(files, names, sample=sample, time_limit=time_limit, box=_shape(box))
    if fmt is Format.json:
        for row in rows:
            typer.echo(json.dumps(row.to_dict()))
    else:
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
            typer.echo(
                "  ".join(
                    v.ljust(w) if k < 2 else v.rjust(w) for k, (v, w) in enumerate(zip(line, widths, strict=True))
                )
            )
        bad = sum(r.errors + r.invalid + r.unsolvable for r in rows)
        if bad:
            typer.echo(f"note: {bad} puzzle runs were unsolvable, invalid or failed (see --format json)")
    if plot is not None:
        try:
            plot_times(rows, plot)
        except OSError as err:
            _fail(f"cannot write {plot}: {err.strerror or err}")
        typer.echo(f"plot written to {plot}", err=True)


def _cell(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


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
