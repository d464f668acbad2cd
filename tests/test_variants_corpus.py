"""The variant corpus: every engine that takes a puzzle's kinds finds its one solution, the one in answers.txt.

``puzzles/variants/corpus.txt`` (made by ``tools/make_variant_corpus.py``) holds puzzles of every kind,
each with exactly one solution; ``answers.txt`` gives, in the same order, each one's name, kinds, count and
solution. An engine that lacks one of a puzzle's kinds is not run on it: ``sudokit.solve`` says
``unsupported``, and ``sudoku check`` skips it for that puzzle, says so, and still exits 0.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from sudokit import (
    Capabilities,
    Grid,
    Result,
    Status,
    Strategy,
    capabilities_of,
    get_strategy,
    read_puzzles,
    solution_problem,
    solve,
)
from sudokit.engines.registry import ENTRY_POINT_GROUP
from sudokit.model.variants import ALL_KINDS

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ROOT / "puzzles" / "variants"
CORPUS = VARIANTS / "corpus.txt"
ANSWERS = VARIANTS / "answers.txt"
#: The built-in engines.
ENGINES = ("backtrack", "cp-sat", "python-constraint", "sat")
#: Seconds an engine gets for one puzzle: a timeout fails the test (none of them should come near it).
TIME_LIMIT = 30.0


@dataclass(frozen=True)
class Answer:
    """One line of answers.txt: the puzzle's name, kinds, count of solutions and the solution's line form."""

    name: str
    kinds: frozenset[str]
    count: int
    solution: str


def read_answers() -> list[Answer]:
    """The lines of answers.txt (``#`` and blank lines skipped), read here without sudokit."""
    out = []
    for line in ANSWERS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, kinds, count, solution = line.split()
            out.append(Answer(name, frozenset(kinds.split(",")), int(count), solution))
    return out


ANSWER_LIST = read_answers()


@cache
def corpus() -> tuple[Grid, ...]:
    """The corpus's puzzles, read by sudokit's own reader."""
    return tuple(read_puzzles(CORPUS))


@cache
def engine(name: str) -> Strategy:
    """One instance per engine for the whole file (python-constraint starts its worker process once)."""
    return get_strategy(name)


def puzzle(k: int) -> tuple[Grid, Answer]:
    return corpus()[k], ANSWER_LIST[k]


def test_the_corpus_holds_every_kind_in_unique_puzzles_of_two_sizes() -> None:
    grids = corpus()
    assert len(grids) == len(ANSWER_LIST) >= 30
    for grid, answer in zip(grids, ANSWER_LIST, strict=True):
        assert grid.kinds == answer.kinds, answer.name
        assert answer.count == 1, answer.name
        solution = Grid([int(d) for d in answer.solution], grid.shape, validate=False)
        assert solution_problem(grid, solution) is None, answer.name
    assert frozenset().union(*(g.kinds for g in grids)) == ALL_KINDS
    sizes = [g.n for g in grids]
    assert sizes.count(9) > len(grids) // 2 and sizes.count(6) >= 5
    assert sum(len(g.kinds) >= 3 for g in grids) >= 3  # several kinds combined
    assert len({a.name for a in ANSWER_LIST}) == len(ANSWER_LIST)


@pytest.mark.parametrize("name", ENGINES)
@pytest.mark.parametrize("k", range(len(ANSWER_LIST)), ids=[a.name for a in ANSWER_LIST])
def test_every_engine_taking_the_kinds_finds_the_one_solution(name: str, k: int) -> None:
    grid, answer = puzzle(k)
    strategy = engine(name)
    lacking = sorted(grid.kinds - capabilities_of(strategy).constraints)
    result = solve(grid, strategy, limit=2, time_limit=TIME_LIMIT)
    if lacking:
        assert result.status is Status.UNSUPPORTED
        assert result.error == f"strategy {name!r} does not support {', '.join(lacking)}"
        return
    assert (result.status, result.count, result.exact) == (Status.SOLVED, 1, True), result.error
    assert result.solution is not None and result.solution.to_line() == answer.solution


def test_every_puzzle_is_counted_by_two_engines_at_least() -> None:
    for grid, answer in zip(corpus(), ANSWER_LIST, strict=True):
        taking = [e for e in ENGINES if grid.kinds <= capabilities_of(engine(e)).constraints]
        assert "cp-sat" in taking and len(taking) >= 2, (answer.name, taking)


class ClassicOnly:
    """An engine that declares no variant kind (the default capabilities): it must never be run on one."""

    name = "classic-only"
    description = "declares no variant kind"
    capabilities = Capabilities()

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        raise AssertionError("run on a variant puzzle")


def test_an_engine_lacking_a_kind_is_not_run_and_says_which() -> None:
    for grid in corpus():
        result = solve(grid, ClassicOnly(), limit=2)
        assert result.status is Status.UNSUPPORTED
        assert result.error == f"strategy 'classic-only' does not support {', '.join(sorted(grid.kinds))}"
        assert (result.count, result.solutions) == (0, ())


@pytest.fixture
def classic_only_installed(tmp_path: Path) -> dict[str, str]:
    """An environment whose ``sudoku`` finds a classic-only engine as installed (tests.plugins.good)."""
    info = tmp_path / "site" / "sudokit_test_classic-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sudokit-test-classic\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\ngood = tests.plugins.good:Good\n")
    return {**os.environ, "PYTHONPATH": f"{info.parent}{os.pathsep}{ROOT}", "NO_COLOR": "1"}


def test_check_skips_an_engine_lacking_the_kinds_and_says_so(classic_only_installed: dict[str, str]) -> None:
    sudoku = Path(sys.executable).with_name("sudoku")
    done = subprocess.run(
        [sudoku, "check", str(CORPUS), "-s", "cp-sat,good", "-f", "json", "-j", "2"],
        capture_output=True,
        text=True,
        env=classic_only_installed,
        timeout=300,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert len(records) == len(ANSWER_LIST)
    for record, answer in zip(records, ANSWER_LIST, strict=True):
        engines = {e["strategy"]: e for e in record["engines"]}
        good, cpsat = engines["good"], engines["cp-sat"]
        assert (good["verdict"], good["status"]) == ("skipped", "unsupported"), answer.name
        assert f"'good' does not support {', '.join(sorted(answer.kinds))}" in good["problem"], answer.name
        assert good["problem"] in record["problems"]
        assert (record["verdict"], cpsat["count"], cpsat["solution"]) == ("agree", 1, answer.solution), answer.name
    assert f"{len(records)} puzzles: {len(records)} agreed" in done.stderr
