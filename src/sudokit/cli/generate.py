"""``sudoku generate``: make puzzles with exactly one solution (minimal, symmetric, of a level).

There is no ``from __future__ import annotations`` here on purpose: Typer reads the commands'
annotations, and given strings it evaluates each one, which costs start-up time.
"""

import sys
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, BinaryIO, NoReturn

import typer
import typer.core

from sudokit.cli.common import (
    CLOSED,
    Force,
    Jobs,
    Output,
    Quiet,
    app,
    box_shape,
    check_known,
    check_output_flags,
    complete_engines,
    fail,
    one_engine,
    parquet_output,
    say,
    silence_stdout,
    std_output,
    time_limit_option,
    worker_count,
)
from sudokit.errors import StrategyError, SudokitError
from sudokit.model.shape import Shape

if TYPE_CHECKING:
    from sudokit.features.generation import PuzzleStream
    from sudokit.model.grid import Grid
    from sudokit.runtime.output import Rendered

# --- generate ----------------------------------------------------------------------------------------


class GenerateFormat(StrEnum):
    line = "line"
    json = "json"
    csv = "csv"
    pretty = "pretty"
    fpuzzles = "fpuzzles"


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
        rules: tuple[str, ...] | None = None,
        template: "Grid | None" = None,
        no_givens: bool = False,
        fmt: str = "line",
    ) -> None:
        self.format = fmt
        self.shape, self.symmetry, self.minimal, self.level = shape, symmetry, minimal, level
        self.engine = engine
        #: Variant puzzles: the kinds drawn (``--rules``) or the template whose rules are kept; None and None: classic.
        self.rules, self.template, self.no_givens = rules, template, no_givens
        self.time_limit = time_limit
        self.budget = None if time_limit is None else time_limit + _GENERATE_GRACE

    def start(self, mark: Any) -> Any:
        """Load the counting engine (and the rating, with a level); the function making one puzzle."""
        from sudokit.engines.api import get_strategy

        mark(0)
        strategy = get_strategy(self.engine)
        if self.level is not None:
            import sudokit.features.rating  # noqa: F401 - loaded with the engine, not with the first puzzle

        def make(item: tuple[int, int]) -> dict[str, Any]:
            from sudokit.features.generation import generate
            from sudokit.model.formats import format_line

            index, seed = item
            options: dict[str, Any] = {
                "count": 1,
                "seed": seed,
                "symmetry": self.symmetry,
                "minimal": self.minimal,
                "level": self.level,
                "engine": strategy,
                "time_limit": self.time_limit,
            }
            stream: PuzzleStream
            if self.variant:
                from sudokit.features.variant_generation import generate_variants

                stream = generate_variants(
                    self.shape, rules=self.rules, template=self.template, no_givens=self.no_givens, **options
                )
            else:
                stream = generate(self.shape, **options)
            try:
                puzzle = next(stream, None)
            except SudokitError as err:
                return {"index": index, "puzzle_seed": seed, "status": "error", "error": str(err)}
            done: dict[str, Any] = {
                "index": index,
                "puzzle_seed": seed,
                "attempts": stream.attempts,
                "checks": stream.checks,
            }
            if puzzle is None:
                return {**done, "status": "timeout", "seconds": stream.elapsed, "levels": dict(stream.levels)}
            solution, rating = stream.solution, stream.rating  # proved by the stream's checked counts
            if self.variant or self.format == "fpuzzles":
                from sudokit.io.links import fpuzzles_link
                from sudokit.model.variants import to_dict

                done["puzzle_json"] = to_dict(puzzle)
                done["link"] = fpuzzles_link(puzzle, solution)
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

    @property
    def variant(self) -> bool:
        """Whether the puzzles carry variant rules (``--rules`` or ``--template``)."""
        return self.rules is not None or self.template is not None

    @property
    def kinds(self) -> list[str] | None:
        """The variant kinds of the puzzles (sorted), None for classic ones."""
        if self.template is not None:
            return sorted(self.template.kinds)
        return None if self.rules is None else sorted(self.rules)

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

    from sudokit.model.formats import format_pretty
    from sudokit.runtime.output import csv_row

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
    if task.variant:  # the puzzle as our JSON object, with the kinds and the options that made it
        fields["puzzle"] = made["puzzle_json"]
        fields["rules"] = task.kinds
        fields["no_givens"] = task.no_givens
    if fmt is GenerateFormat.line:
        return str(made["puzzle"])
    if fmt is GenerateFormat.fpuzzles:
        return str(made["link"])
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
            autocompletion=complete_engines(several=False, all_too=False),
        ),
    ] = None,
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            metavar="KINDS",
            help="Variant puzzles: the kinds to draw for each, e.g. killer or thermometer,arrow,kropki.",
        ),
    ] = None,
    template: Annotated[
        str | None,
        typer.Option(
            "--template",
            metavar="PUZZLE",
            help="Variant puzzles on a puzzle's rules (a file, JSON or a link): its rules kept, the givens made.",
        ),
    ] = None,
    no_givens: Annotated[
        bool,
        typer.Option("--no-givens", help="With --rules killer...: no given at all, the cages alone make it unique."),
    ] = False,
    fmt: Annotated[
        GenerateFormat | None,
        typer.Option(
            "--format",
            "-f",
            help="line (the puzzle; classic only), json (variants' default), csv, pretty (grids) or fpuzzles (links).",
        ),
    ] = None,
    time_limit: Annotated[Any, time_limit_option("per puzzle")] = "60",
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

    With --rules (or --template) the puzzles carry variant rules drawn true of each one's solution
    (killer cages, thermometers, arrows, kropki dots...; see docs/logic.md), written as json records or
    f-puzzles links; --no-givens (with killer) leaves no given at all.

    Exit status: 0 all made, 1 some puzzle not made in time, 2 usage or an engine failed.
    """
    from sudokit.features.generation import default_engine
    from sudokit.features.generation import generate as make_stream

    shape = box_shape(box)
    assert shape is not None
    variant = _variant_options(rules, template, no_givens)
    if variant is not None:
        grid = variant[1]
        shape = shape if grid is None else grid.shape
        if fmt is None:
            fmt = GenerateFormat.json
        elif fmt not in (GenerateFormat.json, GenerateFormat.fpuzzles):
            fail(
                f"--format {fmt.value} cannot carry a variant puzzle's rules: use --format json or fpuzzles "
                "with --rules or --template"
            )
    fmt = GenerateFormat.line if fmt is None else fmt

    if old_count is not None:  # the name before --number: --count counts solutions in solve and check
        if count is not None:
            fail("--count is the old name of --number: give --number N alone")
        say("sudoku: warning: generate --count N is deprecated: use --number/-n N (--count counts solutions)")
        count = old_count
    count = 1 if count is None else count
    output = std_output(output, force, resume)
    refusal = None
    if fmt not in (GenerateFormat.json, GenerateFormat.csv):
        refusal = f"--resume needs --format json or csv: records that carry their seed, not {fmt.value}"
    elif seed is None:
        refusal = "--resume needs the --seed of the run it continues (the same seed, the same puzzles)"
    check_output_flags(output, force, resume, refusal)
    if engine is not None:
        one_engine("generate", engine)
        check_known(engine)
    options: dict[str, Any] = {
        "count": count,
        "seed": 0,
        "symmetry": symmetry.value,
        "minimal": minimal,
        "level": None if level is None else level.value,
        "time_limit": time_limit,
    }
    try:  # every option checked (and the engine loaded once) before any work
        if variant is not None:
            from sudokit.features.variant_generation import default_variant_engine, generate_variants

            name = engine or default_variant_engine()
            generate_variants(shape, rules=variant[0], template=variant[1], no_givens=no_givens, engine=name, **options)
        else:
            name = engine or default_engine(shape)
            make_stream(shape, engine=name, **options)
    except (ValueError, ImportError) as err:
        fail(str(err))
    drawn = seed is None
    if seed is None:
        import random

        seed = random.SystemRandom().randrange(2**63)
    if drawn:
        say(f"sudoku: seed {seed} (replay with --seed {seed})")
    task = _GenerateTask(
        shape,
        symmetry.value,
        minimal,
        None if level is None else level.value,
        name,
        time_limit,
        *(variant or (None, None)),
        no_givens=no_givens,
        fmt=fmt.value,
    )
    _generate_run(
        _GenerateJob(task, count, seed, shape, fmt), worker_count(jobs, count > 1), output, force, quiet, resume
    )


def _variant_options(
    rules: str | None, template: str | None, no_givens: bool
) -> "tuple[tuple[str, ...] | None, Grid | None] | None":
    """The kinds to draw or the template puzzle of a variant run, None for a classic one; one line, exit 2, if bad."""
    if rules is not None and template is not None:
        fail("--rules and --template both say the puzzles' rules: give one of them")
    if rules is None and template is None:
        if no_givens:
            fail("--no-givens needs --rules with killer: the cages are drawn again until they alone make it unique")
        return None
    if rules is not None:
        from sudokit.features.variant_generation import parse_rules

        try:
            return parse_rules(rules), None
        except ValueError as err:
            fail(f"--rules: {err}")
    assert template is not None
    return None, _template(template)


def _template(text: str) -> "Grid":
    """The puzzle of ``--template``: a file's first puzzle, or the text itself (JSON or a link)."""
    from sudokit.io.puzzles import parse_puzzle

    path = Path(text)
    try:
        if len(text) < 4096 and path.is_file():
            from sudokit.io.reader import read_puzzles

            for grid in read_puzzles(path):
                return grid
            fail(f"--template {text}: the file holds no puzzle")
        return parse_puzzle(text)
    except SudokitError as err:
        if not path.suffix or text.lstrip()[:1] in ("{", "h"):
            fail(f"--template: {err}")
        fail(f"--template {text}: no such file (nor a puzzle: {err})")
    except OSError as err:
        fail(f"--template {text}: {err.strerror or err}")


def _generate_run(
    job: "_GenerateJob", jobs: int, output: Path | None, force: bool, quiet: bool, resume: bool
) -> NoReturn:
    """Run the puzzles' stream on a batch session, to stdout or ``output``; exit with its status."""
    from sudokit.runtime.session import EXIT_BROKEN_PIPE, Session

    if parquet_output(output) and (job.format is not GenerateFormat.csv or resume):
        # Parquet takes csv records (a header, then rows) and cannot be continued: line text would be misread.
        fail(f"--output {output}: Parquet files are written from csv records (-f csv), without --resume")
    session = Session(
        (),
        job,
        jobs=jobs,
        output=output,
        force=force,
        resume=resume,
        quiet=quiet,
        out=None if 1 in CLOSED else sys.stdout,
        err=None if 2 in CLOSED else sys.stderr,
    )
    status = session.run()
    if status == EXIT_BROKEN_PIPE:
        silence_stdout()
    raise typer.Exit(status)


class _GenerateJob:
    """The puzzles of a run as a batch session makes them (:class:`sudokit.runtime.session.Generated`).

    Puzzle k of ``count`` is made from ``puzzle_seed(seed, k)`` in a worker; each puzzle made is a
    record, each one not made (in time, or at all) a line on stderr.
    """

    generated = True
    failures = "not made"

    def __init__(self, task: _GenerateTask, count: int, seed: int, shape: Shape, fmt: GenerateFormat) -> None:
        import time

        self._task, self.total, self.seed, self.shape, self.format = task, count, seed, shape, fmt
        self.fmt = fmt.value
        self.header = ",".join(GENERATE_FIELDS) if fmt is GenerateFormat.csv else None
        self.made = self.timeouts = self.errors = self.attempts = 0
        self.after: int | None = None  #: with --resume: the last puzzle the output held
        self.start = time.perf_counter()

    def task(self) -> _GenerateTask:
        return self._task

    def items(self, after: int) -> Iterator[tuple[int, int]]:
        """Puzzles ``after + 1`` to ``count``, each with its seed."""
        from sudokit.features.generation import puzzle_seed

        return ((k, puzzle_seed(self.seed, k)) for k in range(after + 1, self.total + 1))

    def outputs(self, results: Iterator[dict[str, Any]]) -> "Iterator[Rendered]":
        """A record of each puzzle made; a message for each one not made."""
        from sudokit.runtime.output import Rendered
        from sudokit.runtime.progress import counted

        task = self._task
        for result in results:
            self.attempts += result.get("attempts", 0)
            index, status = result["index"], result["status"]
            if status == "made":
                yield Rendered(index, status, _generated_text(result, self.format, self.seed, self.shape, task))
            elif status == "timeout":
                rated = ""
                if task.level is not None:  # what the attempts were rated instead
                    seen = result.get("levels") or {}
                    rated = "".join(f", {seen[lv.value]} {lv.value}" for lv in Level if seen.get(lv.value))
                    rated = f"{rated}, none {task.level}"
                said = (
                    f"puzzle {index} (seed {result['puzzle_seed']}) not made within {task.time_limit:g} s "
                    f"({counted(result['attempts'], 'attempt')}{rated})"
                )
                yield Rendered(index, status, "", messages=(said,))
            else:
                yield Rendered(index, "error", "", messages=(f"error: puzzle {index}: {result['error']}",))

    def count(self, rendered: "Rendered") -> None:
        if rendered.status == "made":
            self.made += 1
        elif rendered.status == "timeout":
            self.timeouts += 1
        else:
            self.errors += 1

    @property
    def done(self) -> int:
        return self.made + self.timeouts + self.errors

    @property
    def failed(self) -> int:
        return self.timeouts + self.errors

    @property
    def written(self) -> int:
        return self.made

    def resume_options(self) -> str | None:
        """``--resume --seed S``: json and csv records carry their seed; line and pretty ones cannot be continued."""
        if self.format in (GenerateFormat.json, GenerateFormat.csv):
            return f"--resume --seed {self.seed}"
        return None

    def resume_point(self, handle: BinaryIO, name: str) -> tuple[int, int, int]:
        """The last puzzle the output holds, how many records and where its complete records end."""
        last, end, records = _generate_resume_point(
            handle, name, self.format, self.seed, self.shape, self._task, self.total
        )
        self.after = last
        return last, records, end

    def summary(self) -> str:
        import time

        from sudokit.runtime.progress import counted

        seconds = time.perf_counter() - self.start
        rate = self.made / seconds if seconds > 0 else 0.0
        parts = [f"{counted(self.made, 'puzzle')} made ({counted(self.attempts, 'attempt')})"]
        if self.timeouts:
            parts.append(f"{self.timeouts:,} not made in time")
        if self.errors:
            parts.append(f"{self.errors:,} failed")
        resumed = "" if self.after is None else f" (resumed after puzzle {self.after})"
        return f"{', '.join(parts)} in {seconds:.2f} s ({rate:,.1f} puzzles/s); seed {self.seed}{resumed}"

    def exit_status(self) -> int:
        return 2 if self.errors else 1 if self.timeouts else 0


def _generate_resume_point(
    handle: BinaryIO, name: str, fmt: GenerateFormat, seed: int, shape: Shape, task: _GenerateTask, count: int
) -> tuple[int, int, int]:
    """The last puzzle an output file of ``sudoku generate`` holds, the offset where its complete records end,
    and how many records it holds.

    ``handle`` reads the file ``name`` from its start. Every complete record must be one this run makes
    (the same seed, box, level, symmetry and minimality; puzzles in order, a puzzle not made in time
    skipped); a last line without its newline is torn, to be cut off and made again; no line is read
    past ``MAX_RECORD`` bytes. Raises ``ResumeError`` naming the file and the line otherwise; nothing is
    written.
    """
    import csv
    import json

    from sudokit.runtime.output import ResumeError, complete_lines

    level = task.level
    last = end = records = 0
    header = ",".join(GENERATE_FIELDS)
    for number, raw in complete_lines(handle, name):
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
        its_rules, its_no_givens = data.get("rules"), data.get("no_givens") in (True, "true")
        if its_rules != task.kinds or its_no_givens != task.no_givens:
            was = "classic puzzles" if its_rules is None else f"rules {','.join(map(str, its_rules))}"
            now = "classic puzzles" if task.kinds is None else f"rules {','.join(task.kinds)}"
            was += " without givens" if its_no_givens else ""
            now += " without givens" if task.no_givens else ""
            raise ResumeError(f"cannot resume {name}: line {number} holds {was}, not {now}")
        if index > count:
            raise ResumeError(f"cannot resume {name}: line {number} is puzzle {index}, beyond --number {count}")
        from sudokit.features.generation import puzzle_seed

        if index <= last or its_puzzle_seed != puzzle_seed(seed, index):
            raise ResumeError(
                f"cannot resume {name}: line {number} is puzzle {index}, not one of puzzles {last + 1} to {count} "
                f"of this run"
            )
        last, end, records = index, handle.tell(), records + 1
    return last, end, records
