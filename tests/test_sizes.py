"""The board-size files of puzzles/sizes: how many of each, every stored solution right, the engines agreeing on them.

tools/make_sizes.py makes the 25x25 and 36x36 ones and proves each unique (``--audit`` rechecks every
file); here the files are read by sudokit's own reader, as users read them, and checked with its
verify API, the real ``sudoku`` command and the ``cp-sat`` engine.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from sudokit import (
    Grid,
    Shape,
    Status,
    StrategyError,
    available_strategies,
    capabilities_of,
    get_strategy,
    solution_problem,
    solve,
)
from sudokit.io.reader import read_file

ROOT = Path(__file__).resolve().parent.parent
SIZES = ROOT / "puzzles" / "sizes"
#: The fewest puzzles each board size must have (issue 11: five 16x16 and 25x25, two 36x36).
AT_LEAST = {"2x2": 1, "2x3": 1, "2x4": 1, "3x3": 1, "3x4": 1, "4x4": 5, "5x5": 5, "6x6": 2}
#: The size files every engine takes, checked with ``sudoku check`` here (the larger ones by the benchmark).
SMALL = ("2x2", "2x3", "2x4", "3x3", "3x4")


def pairs(box: str) -> list[tuple[int, Grid, Grid]]:
    """(line, puzzle, stored solution) of every record of ``box{box}.txt``, read by ``sudokit.io.reader.read_file``."""
    shape = Shape.parse(box)
    out = []
    for record in read_file(SIZES / f"box{box}.txt", box=shape):
        assert record.note is not None, f"{record.where}: no stored solution"
        out.append((record.line, record.parse(shape), Grid.parse(record.note, shape)))
    return out


def test_every_board_size_has_its_puzzles() -> None:
    files = sorted(p.name for p in SIZES.glob("box*.txt"))
    assert files == sorted(f"box{box}.txt" for box in AT_LEAST)
    for box, fewest in AT_LEAST.items():
        assert len(pairs(box)) >= fewest, box


@pytest.mark.parametrize("box", list(AT_LEAST))
def test_every_stored_solution_completes_its_puzzle(box: str) -> None:
    seen = set()
    for line, puzzle, solution in pairs(box):
        n = Shape.parse(box).n
        assert puzzle.n == n and 0 < puzzle.count_givens() < n * n, line
        assert solution.is_complete(), line
        assert solution_problem(puzzle, solution) is None, line
        assert puzzle not in seen, f"line {line} repeats a puzzle"
        seen.add(puzzle)


def test_the_36x36_lines_are_integers_the_reader_and_the_command_read_back(tmp_path: Path) -> None:
    line = (SIZES / "box6x6.txt").read_text(encoding="utf-8").splitlines()[0]
    puzzle_text, _, solution_text = line.partition(":")
    assert " 0 " in puzzle_text and len(puzzle_text.split()) == 36 * 36 == len(solution_text.split())
    (_, puzzle, solution), *_ = pairs("6x6")
    assert puzzle.to_line() == puzzle_text.strip() and solution.to_line() == solution_text.strip()
    one = tmp_path / "one.txt"
    one.write_text(line + "\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "sudokit", "solve", "--box", "6x6", "-s", "cp-sat", "-f", "line", "-q", str(one)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    shown_puzzle, _, shown_solution = done.stdout.strip().partition(":")  # the line form: puzzle:solution
    assert Grid.parse(shown_puzzle, "6x6") == puzzle and Grid.parse(shown_solution, "6x6") == solution


def engines_for(box: str) -> list[str]:
    """The installed engines that load and claim boards of ``box``."""
    shape = Shape.parse(box)
    names = []
    for info in available_strategies():
        try:
            engine = get_strategy(info.name)
        except StrategyError:  # registered but not loadable here (an engine whose extra is not installed)
            continue
        if capabilities_of(engine).supports(shape):
            names.append(info.name)
    return names


def test_sudoku_check_with_every_engine_agrees_on_the_small_boards() -> None:
    engines = engines_for(SMALL[-1])
    assert {"backtrack", "cp-sat", "python-constraint"} <= set(engines)
    files = [str(SIZES / f"box{box}.txt") for box in SMALL]
    done = subprocess.run(
        [sys.executable, "-m", "sudokit", "check", "-s", ",".join(engines), "-f", "json", "-q", "-j", "1", *files],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    stored = [(box, solution) for box in SMALL for _, _, solution in pairs(box)]
    assert len(records) == len(stored)
    for record, (box, solution) in zip(records, stored, strict=True):
        where = f"{record['source']}:{record['line']}"
        assert record["verdict"] == "agree" and record["count"] == 1 and record["exact"], where
        assert sorted(e["strategy"] for e in record["engines"]) == sorted(engines), where
        for answer in record["engines"]:
            assert Grid.parse(answer["solution"], box) == solution, (where, answer["strategy"])


def test_cp_sat_proves_every_16x16_unique() -> None:
    for line, puzzle, solution in pairs("4x4"):
        result = solve(puzzle, "cp-sat", limit=2, time_limit=30)
        assert result.status is Status.SOLVED and result.exact and result.count == 1, line
        assert result.solution == solution, line
