"""Benchmarking engines side by side: every engine over every file, one puzzle at a time.

A file is read as ``sudoku solve`` reads it: a ``.csv`` or ``.parquet`` table a row a puzzle (the
puzzle column by its header, or ``TableOptions.column``), any other file a puzzle a line.

The solves run in one killable worker process (:mod:`sudokit.engines.workers`), engine after engine over
each file, so that an engine that crashes or hangs costs its own row an ``error``, not the run.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path

from sudokit.engines.api import get_strategy, normalize_time_limit, run, watchdog_seconds
from sudokit.engines.strategy import Status, Strategy
from sudokit.engines.workers import WorkerPool
from sudokit.errors import InvalidPuzzleError, StrategyLoadError
from sudokit.io.reader import Record, TableOptions, is_table, read_file
from sudokit.model.grid import Grid
from sudokit.model.shape import Shape

__all__ = ["BenchRow", "BenchTask", "benchmark", "pick", "plot_problem", "plot_times"]


@dataclass
class BenchRow:
    """One engine over one data set: outcome counts and the solve time of each puzzle."""

    data_set: str
    strategy: str
    times_ms: list[float] = field(default_factory=list)  # every puzzle run, timeouts included
    solved: int = 0
    unsolvable: int = 0
    timeouts: int = 0
    errors: int = 0
    invalid: int = 0
    answered_ms: list[float] = field(default_factory=list)  # the times of the runs that solved or proved none
    timeout_ms: list[float] = field(default_factory=list)  # the times of the runs that timed out

    @property
    def puzzles(self) -> int:
        """Puzzles of the data set, invalid ones included."""
        return len(self.times_ms) + self.invalid

    def _pick(self, fn: Callable[[list[float]], float]) -> float | None:
        return round(fn(self.times_ms), 3) if self.times_ms else None

    @property
    def mean_ms(self) -> float | None:
        """Mean time per puzzle (a timeout counts at the time it took)."""
        return self._pick(statistics.fmean)

    @property
    def median_ms(self) -> float | None:
        """Median time per puzzle."""
        return self._pick(statistics.median)

    @property
    def p95_ms(self) -> float | None:
        """The nearest-rank 95th percentile: the least time that 95 % of the times do not exceed."""
        return self._pick(lambda t: sorted(t)[(95 * len(t) + 99) // 100 - 1])

    @property
    def max_ms(self) -> float | None:
        """The longest time."""
        return self._pick(max)

    @property
    def per_second(self) -> float | None:
        """Puzzles per second of solving time."""
        total = sum(self.times_ms)
        return round(len(self.times_ms) / (total / 1000), 1) if total > 0 else None

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready row."""
        return {
            "data_set": self.data_set,
            "strategy": self.strategy,
            "puzzles": self.puzzles,
            "solved": self.solved,
            "unsolvable": self.unsolvable,
            "timeouts": self.timeouts,
            "errors": self.errors,
            "invalid": self.invalid,
            "mean_ms": self.mean_ms,
            "median_ms": self.median_ms,
            "p95_ms": self.p95_ms,
            "max_ms": self.max_ms,
            "puzzles_per_s": self.per_second,
        }


def pick(
    records: Iterable[Record], *, first: int | None = None, sample: int | None = None, seed: int = 0
) -> list[Record]:
    """The records to run: all, the ``first`` N, or a uniform random ``sample`` of N (same ``seed``, same sample).

    The sample keeps the file's order and reads the file once, holding only N records.
    """
    if first is not None:
        return list(islice(records, first))
    if sample is None:
        return list(records)
    rng = random.Random(seed)
    kept: list[tuple[int, Record]] = []
    for index, record in enumerate(records):  # reservoir sampling (Algorithm R)
        if index < sample:
            kept.append((index, record))
        else:
            slot = rng.randrange(index + 1)
            if slot < sample:
                kept[slot] = (index, record)
    return [record for _, record in sorted(kept, key=lambda pair: pair[0])]


#: A work item: (data set number, the puzzle, engine number); its result: (status, milliseconds).
BenchItem = tuple[int, Grid, int]


@dataclass(frozen=True)
class BenchTask:
    """Times one engine on one puzzle per item, in a worker."""

    engines: Sequence[str | Strategy]
    options: Mapping[str, Mapping[str, object]]
    time_limit: float | None

    @property
    def budget(self) -> float | None:
        """Seconds one solve may take before its worker is killed."""
        from sudokit.engines.watchdog import KILL_GRACE

        return None if self.time_limit is None else watchdog_seconds(self.time_limit) + KILL_GRACE

    def start(self, mark: Callable[[int], None]) -> Callable[[BenchItem], tuple[str, float]]:
        """Load every engine; the function that times one solve."""
        loaded = []
        for k, engine in enumerate(self.engines):
            mark(k)
            name = engine if isinstance(engine, str) else ""
            loaded.append(get_strategy(engine, **self.options.get(name, {})))
        time_limit = self.time_limit

        def time_one(item: BenchItem) -> tuple[str, float]:
            _, grid, k = item
            result = run(loaded[k], grid, time_limit=time_limit)
            return result.status.value, result.elapsed * 1000

        return time_one

    def failed(self, item: BenchItem, problem: str) -> tuple[str, float]:
        """A solve whose worker died or was killed: an error."""
        return Status.ERROR.value, 0.0

    def load_failed(self, phase: int, problem: str) -> bool:
        """An engine that cannot load stops the benchmark: raise the ``StrategyLoadError`` naming it."""
        engine = self.engines[phase]
        name = engine if isinstance(engine, str) else getattr(engine, "name", type(engine).__name__)
        raise StrategyLoadError(" ".join(f"strategy {name!r} failed to load: {problem}".split()))


def benchmark(
    files: Sequence[str | Path],
    strategies: Iterable[str | Strategy],
    *,
    first: int | None = None,
    sample: int | None = None,
    seed: int = 0,
    time_limit: float | None = 10.0,
    box: Shape | None = None,
    options: Mapping[str, Mapping[str, object]] | None = None,
    progress: Callable[[int, int, int], None] | None = None,
    tables: TableOptions | None = None,
) -> list[BenchRow]:
    """Run each engine on the puzzles of each file (all, ``first`` N or a random ``sample``); a row per pair.

    Table files (``.csv``, ``.parquet``) are read with ``tables`` (its ``column``; nothing is
    compared). The solves run one at a time in a killable worker process; ``progress(done, total,
    failed)`` is called after each. Raises ``StrategyError`` if an engine cannot be loaded, and
    ``sudokit.io.tables.DatasetError`` for a table without the puzzle column.
    """
    engines = list(strategies)
    time_limit = normalize_time_limit(time_limit)
    data: list[tuple[str, list[Grid], int]] = []
    for path in files:
        grids, invalid = [], 0
        for record in pick(_records(path, box, tables), first=first, sample=sample, seed=seed):
            try:
                grids.append(record.parse(box))
            except InvalidPuzzleError:
                invalid += 1
        data.append((Path(path).stem, grids, invalid))
    names = [e if isinstance(e, str) else str(getattr(e, "name", type(e).__name__)) for e in engines]
    rows = {
        (d, k): BenchRow(name, names[k], invalid=invalid)
        for d, (name, _, invalid) in enumerate(data)
        for k in range(len(engines))
    }
    items: list[BenchItem] = [
        (d, grid, k) for d, (_, grids, _) in enumerate(data) for k in range(len(engines)) for grid in grids
    ]
    task = BenchTask(engines, dict(options or {}), time_limit)
    failed = 0
    with WorkerPool(task, 1) as pool:
        pool.start()
        for done, (item, (status, ms)) in enumerate(zip(items, pool.map(iter(items)), strict=True), 1):
            row = rows[item[0], item[2]]
            row.times_ms.append(ms)
            if status == Status.SOLVED.value:
                row.solved += 1
                row.answered_ms.append(ms)
            elif status == Status.UNSOLVABLE.value:
                row.unsolvable += 1
                row.answered_ms.append(ms)
            elif status == Status.TIMEOUT.value:
                row.timeouts += 1
                row.timeout_ms.append(ms)
            else:
                row.errors += 1
            failed += status not in (Status.SOLVED.value, Status.UNSOLVABLE.value)
            if progress is not None:
                progress(done, len(items), failed)
    return list(rows.values())


def _records(path: str | Path, box: Shape | None, tables: TableOptions | None) -> Iterable[Record]:
    """The records of a file, as ``sudoku solve`` reads it: a table a row a record, else a line a record."""
    if is_table(path):
        from sudokit.io.tables import read_table  # here: only tables need it (and pyarrow, for Parquet)

        return read_table(str(path), TableOptions(tables.column if tables else None, "none"))
    return read_file(path, box=box)


def plot_times(rows: Sequence[BenchRow], path: str | Path) -> None:
    """Box plots of the solve times (log scale), one per engine and data set, saved to ``path``.

    Only solved (or proved unsolvable) puzzles make the box; timeouts are drawn apart, as red crosses
    at the time they were stopped; under each engine's name ``n`` says how many puzzles its box
    holds, and how many timed out or failed. Needs matplotlib (``sudokit[plot]``); raises ImportError
    naming it otherwise.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as err:
        raise ImportError(f"--plot needs matplotlib: {PLOT_INSTALL}") from err
    data_sets = list(dict.fromkeys(r.data_set for r in rows))
    engines = list(dict.fromkeys(r.strategy for r in rows))
    fig, axes = plt.subplots(1, len(data_sets), figsize=(4 + 3 * len(data_sets), 5), squeeze=False, sharey=True)
    for ax, data_set in zip(axes[0], data_sets, strict=True):
        mine = [next((r for r in rows if r.data_set == data_set and r.strategy == e), None) for e in engines]
        answered = [r.answered_ms if r else [] for r in mine]
        ax.boxplot([times or [float("nan")] for times in answered], whis=(0, 100))
        labels = []
        for position, (engine, row) in enumerate(zip(engines, mine, strict=True), 1):
            note = f"n={len(answered[position - 1])}"
            if row is not None and row.timeout_ms:
                ax.scatter(
                    [position] * len(row.timeout_ms),
                    row.timeout_ms,
                    marker="x",
                    color="red",
                    zorder=3,
                    label="timed out" if not ax.get_legend_handles_labels()[0] else None,
                )
                note += f", {row.timeouts} timed out"
            if row is not None and row.errors:
                note += f", {row.errors} failed"
            labels.append(f"{engine}\n{note}")
        ax.set_xticks(range(1, len(engines) + 1), labels, fontsize=8)
        ax.set_yscale("log")
        ax.set_title(data_set)
        ax.grid(axis="y", alpha=0.3)
        if any(r is not None and r.timeout_ms for r in mine):
            ax.legend(loc="upper left", fontsize=8)
    axes[0][0].set_ylabel("solve time per puzzle (ms, log scale)")
    fig.suptitle("sudokit: solve time per engine and data set (red x: timed out)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_problem(path: str | Path) -> str | None:
    """Why ``plot_times`` could not write ``path``, or None: to be asked before a benchmark, not after it.

    The name must end in a format matplotlib writes (``.png``, ``.svg``, ``.pdf``...): matplotlib
    refuses any other once the figure is drawn, and it writes a name without one to ``NAME.png``.
    The folder must exist and the file be one that can be opened for writing: an existing file is
    opened to append (and left as it was), a new one is created and removed again. What fails only
    when the plot is written (a full disk) is ``plot_times``'s ``OSError``. Needs matplotlib.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # what plot_times draws with

    path = Path(path)
    formats = sorted(FigureCanvasAgg.get_supported_filetypes())
    suffix = path.suffix.lower().removeprefix(".")
    if suffix not in formats:
        kinds = ", ".join(f".{f}" for f in formats)
        if suffix:
            return f"cannot write {path}: --plot writes {kinds} files, not .{suffix}"
        return f"cannot write {path}: --plot needs a file name ending in one of {kinds}"
    try:
        if not path.parent.is_dir():
            return f"cannot write {path}: no such directory {path.parent}"
        if path.is_dir():
            return f"cannot write {path}: it is a directory"
        if path.exists():
            with open(path, "ab"):
                pass
        else:
            with open(path, "xb"):
                pass
            path.unlink()
    except FileExistsError:
        pass  # made meanwhile, by someone else: writing it later will say
    except OSError as err:
        return f"cannot write {path}: {err.strerror or err}"
    return None


#: How to install what ``--plot`` needs, for pip and uv users.
PLOT_INSTALL = "pip install 'sudokit[plot]' (in a uv project: uv sync --extra plot, or uv run --extra plot sudoku ...)"
