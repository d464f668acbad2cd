"""Benchmarking engines side by side: every engine over every file, in one process, one at a time."""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path

from sudokit.api import get_strategy, run
from sudokit.errors import InvalidPuzzleError
from sudokit.grid import Grid
from sudokit.reader import read_file
from sudokit.shape import Shape
from sudokit.strategy import Status, Strategy

__all__ = ["BenchRow", "benchmark", "plot_times"]


@dataclass
class BenchRow:
    """One engine over one data set: outcome counts and the solve time of each puzzle."""

    data_set: str
    strategy: str
    times_ms: list[float] = field(default_factory=list)
    solved: int = 0
    unsolvable: int = 0
    timeouts: int = 0
    errors: int = 0
    invalid: int = 0
    wall_seconds: float = 0.0

    @property
    def puzzles(self) -> int:
        return len(self.times_ms) + self.invalid

    def _pick(self, fn) -> float | None:  # type: ignore[no-untyped-def]
        return round(fn(self.times_ms), 3) if self.times_ms else None

    @property
    def mean_ms(self) -> float | None:
        return self._pick(statistics.fmean)

    @property
    def median_ms(self) -> float | None:
        return self._pick(statistics.median)

    @property
    def p95_ms(self) -> float | None:
        """The nearest-rank 95th percentile: the least time that 95 % of the times do not exceed."""
        return self._pick(lambda t: sorted(t)[(95 * len(t) + 99) // 100 - 1])

    @property
    def max_ms(self) -> float | None:
        return self._pick(max)

    @property
    def per_second(self) -> float | None:
        return round(len(self.times_ms) / self.wall_seconds, 1) if self.wall_seconds > 0 else None

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


def _load(path: str | Path, sample: int | None, box: Shape | None) -> tuple[list[Grid], int]:
    grids, invalid = [], 0
    for record in islice(read_file(path), sample):
        try:
            grids.append(record.parse(box))
        except InvalidPuzzleError:
            invalid += 1
    return grids, invalid


def benchmark(
    files: Sequence[str | Path],
    strategies: Iterable[str | Strategy],
    *,
    sample: int | None = None,
    time_limit: float | None = 10.0,
    box: Shape | None = None,
) -> list[BenchRow]:
    """Run each engine on the first ``sample`` puzzles of each file; one row per (file, engine)."""
    engines = [get_strategy(s) for s in strategies]
    rows = []
    for path in files:
        grids, invalid = _load(path, sample, box)
        for engine in engines:
            row = BenchRow(Path(path).stem, engine.name, invalid=invalid)
            start = time.perf_counter()
            for grid in grids:
                result = run(engine, grid, time_limit=time_limit)
                row.times_ms.append(result.elapsed * 1000)
                if result.status is Status.SOLVED:
                    row.solved += 1
                elif result.status is Status.UNSOLVABLE:
                    row.unsolvable += 1
                elif result.status is Status.TIMEOUT:
                    row.timeouts += 1
                else:
                    row.errors += 1
            row.wall_seconds = time.perf_counter() - start
            rows.append(row)
    return rows


def plot_times(rows: Sequence[BenchRow], path: str | Path) -> None:
    """Box plots of the solve times (log scale), one per engine and data set, saved to ``path``.

    Needs matplotlib (``pip install 'sudokit[plot]'``); raises ImportError naming it otherwise.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as err:
        raise ImportError("--plot needs matplotlib: pip install 'sudokit[plot]'") from err
    data_sets = list(dict.fromkeys(r.data_set for r in rows))
    engines = list(dict.fromkeys(r.strategy for r in rows))
    fig, axes = plt.subplots(1, len(data_sets), figsize=(4 + 3 * len(data_sets), 4.5), squeeze=False, sharey=True)
    for ax, data_set in zip(axes[0], data_sets, strict=True):
        mine = [next((r for r in rows if r.data_set == data_set and r.strategy == e), None) for e in engines]
        ax.boxplot([r.times_ms if r and r.times_ms else [float("nan")] for r in mine], whis=(0, 100))
        ax.set_xticks(range(1, len(engines) + 1), engines, rotation=20)
        ax.set_yscale("log")
        ax.set_title(data_set)
        ax.grid(axis="y", alpha=0.3)
    axes[0][0].set_ylabel("solve time per puzzle (ms, log scale)")
    fig.suptitle("sudokit: solve time distribution per engine and data set")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
