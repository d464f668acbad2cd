"""Memory that holds: no engine can take the machine's memory, and backtrack's big variant boards need little.

An engine past the memory limit (``SUDOKIT_MEMORY_LIMIT``) has its worker killed: its puzzle is an
``error`` record that says so, the batch goes on. The hostile engine is a test double
(tests/plugins/hostile.py) that takes 0.3 GB a second and bounds itself at 1.5 GB more than it had,
so that a pool that failed to stop it could not take the machine either.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

import sudokit.engines.registry
from sudokit.engines import workers
from sudokit.engines.registry import ENTRY_POINT_GROUP, Registry
from tests.conftest import puzzles, sudoku

pytestmark = pytest.mark.filterwarnings("ignore::sudokit.engines.registry.StrategyWarning")

PLUGINS = {
    "eats-memory": "tests.plugins.hostile:EatsMemory",
    "backtrack": "sudokit_strategies.backtrack:BacktrackStrategy",
}
BLANK_FIRST = [p for p in puzzles("easy50.txt") if p[0] in ".0"][:2]
GIVEN_FIRST = [p for p in puzzles("easy50.txt") if p[0] not in ".0"][:2]


@pytest.fixture(autouse=True)
def hostile_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[Registry]:
    registry = Registry(eps=[EntryPoint(name, value, ENTRY_POINT_GROUP) for name, value in PLUGINS.items()])
    monkeypatch.setattr(sudokit.engines.registry, "_default", registry)
    yield registry


@pytest.mark.skipif(not Path("/proc/self/statm").exists() or not workers.CAN_ISOLATE, reason="needs Linux /proc")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_engine_past_the_memory_limit_costs_only_its_puzzle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: str
) -> None:
    monkeypatch.setenv("SUDOKIT_MEMORY_LIMIT", "300M")
    path = tmp_path / "mixed.txt"
    texts = [BLANK_FIRST[0], GIVEN_FIRST[0], BLANK_FIRST[1], GIVEN_FIRST[1]]
    path.write_text("\n".join(texts) + "\n")
    result = sudoku("solve", str(path), "-s", "eats-memory", "-f", "json", "-j", jobs, "-t", "0")
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["line"] for r in records] == [1, 2, 3, 4]
    assert [r["status"] for r in records] == ["error", "solved"] * 2, result.stderr
    for record in records[::2]:
        assert record["error"] == "strategy 'eats-memory' failed: used more than 300 MB: its worker process was killed"
    assert result.exit_code == 2
    assert "Traceback" not in result.stderr


@pytest.mark.skipif(not Path("/proc/self/statm").exists() or not workers.CAN_ISOLATE, reason="needs Linux /proc")
def test_what_a_worker_shares_with_its_caller_is_not_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A caller holding 400 MB forks workers whose resident memory holds it too: at a 300 MB limit they solve."""
    monkeypatch.setenv("SUDOKIT_MEMORY_LIMIT", "300M")
    path = tmp_path / "given.txt"
    path.write_text("\n".join(GIVEN_FIRST) + "\n")
    held = bytearray(400 << 20)  # every page written: resident here, and in each forked worker
    result = sudoku("solve", str(path), "-s", "eats-memory", "-f", "json", "-j", "2")
    del held
    assert [json.loads(line)["status"] for line in result.stdout.splitlines()] == ["solved", "solved"], result.stderr
    assert result.exit_code == 0


@pytest.mark.skipif(not Path("/proc/self/statm").exists() or not workers.CAN_ISOLATE, reason="needs Linux /proc")
def test_a_lone_puzzle_past_the_memory_limit_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SUDOKIT_MEMORY_LIMIT", "0.25G")
    result = sudoku("solve", "-s", "eats-memory", BLANK_FIRST[0])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "sudoku: error: strategy 'eats-memory' failed: used more than 256 MB: its worker process was killed"
    )


@pytest.mark.parametrize("text", ["lots", "4Q", "-1G", "12", "nan", "1e9"])
def test_a_memory_limit_that_is_not_a_size_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setenv("SUDOKIT_MEMORY_LIMIT", text)
    result = sudoku("solve", "-s", "backtrack", puzzles("easy50.txt")[0])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.strip() == (
        f"sudoku: error: SUDOKIT_MEMORY_LIMIT={text!r} is not a memory size of 1M or more "
        "(say 4G, 300M or 0 for no limit)"
    )


@pytest.mark.parametrize("args", [["strategies", "--load"], ["check", "-s", "backtrack"], ["generate", "-n", "1"]])
def test_every_command_with_workers_says_a_bad_memory_limit_in_one_line(
    monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    monkeypatch.setenv("SUDOKIT_MEMORY_LIMIT", "lots")
    if args[0] == "check":
        args = [*args, puzzles("easy50.txt")[0]]
    result = sudoku(*args)
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines()[-1] == (
        "sudoku: error: SUDOKIT_MEMORY_LIMIT='lots' is not a memory size of 1M or more (say 4G, 300M or 0 for no limit)"
    )


def test_memory_limit_sizes(monkeypatch: pytest.MonkeyPatch) -> None:
    from sudokit.engines.workers import MAX_DEFAULT_MEMORY, MIN_DEFAULT_MEMORY, MemoryLimitError, memory_limit

    for text, size in [("300M", 300 << 20), ("4G", 4 << 30), ("1.5g", 3 << 29), ("2GB", 2 << 30), ("512MiB", 1 << 29)]:
        monkeypatch.setenv("SUDOKIT_MEMORY_LIMIT", text)
        assert memory_limit(8) == size
    for text in ("0", "none"):
        monkeypatch.setenv("SUDOKIT_MEMORY_LIMIT", text)
        assert memory_limit() is None
    monkeypatch.setenv("SUDOKIT_MEMORY_LIMIT", "x")
    with pytest.raises(MemoryLimitError):
        memory_limit()
    monkeypatch.delenv("SUDOKIT_MEMORY_LIMIT")
    # By default: half the machine among the workers, from 512 MB to 4 GB each.
    assert memory_limit(1) >= memory_limit(64) >= MIN_DEFAULT_MEMORY  # type: ignore[operator]
    assert memory_limit(1) <= MAX_DEFAULT_MEMORY  # type: ignore[operator]


# --- backtrack on 36x36 variant boards ---------------------------------------------------------------------

RULES = {
    "thermometer": {"kind": "thermometer", "cells": ["r1c1", "r1c2"]},
    "xv": {"kind": "xv", "cells": ["r1c1", "r1c2"], "letter": "X"},
    "renban": {"kind": "renban", "cells": ["r1c1", "r1c2", "r1c3"]},
    "kropki": {"kind": "kropki", "cells": ["r1c1", "r1c2"], "color": "white"},
    "non-consecutive": {"kind": "non-consecutive"},
}
_SOLVE_36 = """
import json, resource, sys, time
from sudokit import Grid, is_solution
from sudokit.io.reader import Record
from sudokit_strategies.backtrack import BacktrackStrategy
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, resource.getrlimit(resource.RLIMIT_AS)[1]))  # 1 GB
for text in sys.argv[1:]:
    grid = Record(text, "<test>").parse(None)
    before = time.process_time()
    result = BacktrackStrategy().solve(grid, time_limit=20)
    ok = result.solution is not None and is_solution(grid, result.solution)
    print(json.dumps([result.status.value, ok, time.process_time() - before]))
"""


def test_backtrack_solves_a_36x36_with_one_pair_or_line_rule_in_little_memory() -> None:
    """The empty 36x36 with one thermometer, XV, renban, kropki or the non-consecutive rule: each solved in a
    1 GB address space within seconds of CPU (its pair tables once took ~0.4 GB a second, before any deadline)."""
    texts = [json.dumps({"box": "6x6", "givens": "." * 1296, "constraints": [rule]}) for rule in RULES.values()]
    done = subprocess.run(
        [sys.executable, "-c", _SOLVE_36, *texts], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    found = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(status, ok) for status, ok, _ in found] == [("solved", True)] * len(RULES)
    assert all(cpu < 15 for _, _, cpu in found), found
