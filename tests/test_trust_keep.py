"""``keep``: how many of the solutions found come back. Counting goes to the limit; memory stays flat.

Every built-in engine takes ``keep``; ``run`` passes it to an engine whose ``solve`` takes it and trims
the solutions of one that does not. Memory is measured as in test_big_inputs.py: peak RSS of a fresh
process, here reset (``/proc/self/clear_refs``) once the engine is loaded.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sudokit import Grid, Result, Status, count_solutions, get_strategy, is_solution, solve
from sudokit.engines.api import run

from .conftest import counted

ROOT = Path(__file__).resolve().parent.parent
ENGINES = ["backtrack", "cp-sat", "python-constraint", "sat"]
MB = 1 << 20
#: Solutions of the empty board counted in the memory test: some 0.5-5 s of CPU time an engine, 7 MB kept.
COUNTED = 10_000
#: A puzzle with many solutions, and how many.
MANY, MANY_COUNT = next((Grid.parse(t), c) for t, c in counted() if 50 <= c <= 200)


@pytest.mark.parametrize("engine", ENGINES)
def test_every_engine_counts_to_the_limit_and_keeps_what_it_is_asked_to(engine: str) -> None:
    strategy = get_strategy(engine)
    everything = strategy.solve(MANY, limit=MANY_COUNT + 1, time_limit=60)
    assert (everything.count, everything.exact, len(everything.solutions)) == (MANY_COUNT, True, MANY_COUNT)
    for keep in (1, 3, MANY_COUNT + 5):
        result = strategy.solve(MANY, limit=MANY_COUNT + 1, time_limit=60, keep=keep)  # type: ignore[call-arg]
        assert (result.status, result.count, result.exact) == (Status.SOLVED, MANY_COUNT, True)
        assert result.solutions == everything.solutions[:keep]
        capped = solve(MANY, engine, limit=20, keep=keep, time_limit=60)
        assert (capped.status, capped.count, capped.exact) == (Status.SOLVED, 20, False)
        assert len(set(capped.solutions)) == min(20, keep) and all(is_solution(MANY, s) for s in capped.solutions)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_timeout_reports_the_count_so_far_and_keeps_only_keep(engine: str) -> None:
    solve(MANY, engine, time_limit=60)  # loaded (python-constraint's worker started): a busy machine takes seconds
    result = solve(Grid.empty(), engine, limit=10**9, keep=2, time_limit=1.0)
    assert result.status is Status.TIMEOUT and not result.exact
    assert result.count > 2 and len(set(result.solutions)) == 2
    assert all(is_solution(Grid.empty(), s) for s in result.solutions)


def test_count_solutions_keeps_one_unless_told() -> None:
    counted_ = count_solutions(MANY)
    assert (counted_.count, counted_.exact, len(counted_.solutions)) == (MANY_COUNT, True, 1)
    assert is_solution(MANY, counted_.solution)
    assert len(count_solutions(MANY, keep=None).solutions) == MANY_COUNT


class Recording:
    """An engine that answers with the backtracker's result and records the keywords it was called with."""

    name = "recording"
    description = "records its calls"

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def answer(self, puzzle: Grid, **asked: Any) -> Result:
        self.calls.append(asked)
        return get_strategy("backtrack").solve(puzzle, **asked)  # type: ignore[call-arg]


class WithoutKeep(Recording):
    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        return self.answer(puzzle, limit=limit, time_limit=time_limit)


class WithKeep(Recording):
    def solve(
        self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> Result:
        return self.answer(puzzle, limit=limit, time_limit=time_limit, **({} if keep is None else {"keep": keep}))


class WithKwargs(Recording):
    def solve(self, puzzle: Grid, **options: Any) -> Result:
        return self.answer(puzzle, **options)


@pytest.mark.parametrize("kind", [WithKeep, WithKwargs])
def test_run_passes_keep_to_an_engine_that_takes_it(kind: type[Recording]) -> None:
    engine = kind()
    result = run(engine, MANY, limit=20, keep=4)  # type: ignore[arg-type]
    assert engine.calls == [{"limit": 20, "time_limit": None, "keep": 4}]
    assert (result.count, len(result.solutions)) == (20, 4)
    run(engine, MANY, limit=20)  # type: ignore[arg-type]
    run(engine, MANY, limit=20, keep=20)  # type: ignore[arg-type]
    run(engine, MANY, limit=20, keep=500)  # type: ignore[arg-type]
    assert engine.calls[1:] == [{"limit": 20, "time_limit": None}] * 3  # keeping all is the default


def test_run_trims_the_solutions_of_an_engine_without_keep() -> None:
    engine = WithoutKeep()
    result = run(engine, MANY, limit=20, keep=4)  # type: ignore[arg-type]
    assert engine.calls == [{"limit": 20, "time_limit": None}]
    assert (result.status, result.count, result.exact, len(result.solutions)) == (Status.SOLVED, 20, False, 4)
    assert result.solutions == run(engine, MANY, limit=20).solutions[:4]  # type: ignore[arg-type]


MEMORY = """
import sys
import tracemalloc
from sudokit import Grid, count_solutions

def rss(field):
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith(field + ":"))

engine, COUNTED = sys.argv[1], int(sys.argv[2])
count_solutions(Grid.empty(), engine, limit=500, time_limit=30)  # loads the engine and what counting imports
with open("/proc/self/clear_refs", "w") as refs:
    refs.write("5")  # peak RSS starts again from here
before = rss("VmRSS")
tracemalloc.start()  # Python's own allocations: where kept grids would be, whatever the solver does in C
result = count_solutions(Grid.empty(), engine, limit=COUNTED, time_limit=600)  # the limit: a hang guard
python_peak = tracemalloc.get_traced_memory()[1]
print(result.status.value, result.count, len(result.solutions), rss("VmHWM") - before, python_peak)
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/clear_refs"), reason="needs Linux's /proc/self/clear_refs")
def test_counting_an_empty_board_takes_no_memory() -> None:
    """Kept, 10,000 solutions take 14.7 MB of Python's heap; counted, under 2 MB (and in C only the solvers' own).

    A number of solutions, not those found in a few seconds: on a busy machine that was fewer than 1,000.
    """
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "PYTHONWARNINGS")}
    runs = {
        engine: subprocess.Popen(
            [sys.executable, "-c", MEMORY, engine, str(COUNTED)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for engine in ENGINES
    }
    for engine, process in runs.items():
        out, err = process.communicate(timeout=600)
        assert process.returncode == 0, err
        status, count, kept, grew, python_peak = out.split()
        assert (status, count, kept) == ("solved", str(COUNTED), "1"), out  # counted to the limit, kept one
        # Kept, 10,000 grids are 14.7 MB of Python objects (each engine, measured); counted, the heap peaks at
        # 0.03 MB (cp-sat) to 1.8 MB (sat's blocking clauses on their way to the solver).
        assert int(python_peak) < 4 * MB, f"{engine}: Python's heap peaked at {int(python_peak) / MB:.1f} MB counting"
        # In C, sat blocks each solution found with a clause over the cells (the method): about 1.3 KB
        # a solution, in the solver; CP-SAT's enumeration of every solution keeps about 0.5 KB a solution in
        # its own (0.7 MB for 2,000, 5.4 MB for 10,000, 14.4 MB for 30,000 measured): no grid of sudokit's.
        per_solution = {"sat": 2048, "cp-sat": 1024}.get(engine, 0)  # kept grids: 18-20 MB of RSS, more
        allowed = 5 * MB + per_solution * int(count)
        assert int(grew) < allowed, f"{engine}: peak RSS grew {int(grew) / MB:.1f} MB counting {count} solutions"
