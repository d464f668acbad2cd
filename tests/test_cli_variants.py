"""Variant puzzles on the command line: engines that lack a kind are refused or skipped, saying which kind."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from sudokit import Grid, solve
from sudokit.engines.verify import solution_problem
from sudokit.model.variants import Diagonal, Killer, to_json

# A 4x4 X-sudoku (both diagonals) with one solution, and a classic puzzle.
X4 = Grid.parse("1..." + "." * 12).with_rules(constraints=[Diagonal("main"), Diagonal("anti")])
CLASSIC = "4..2.......31..."


def sudoku(*args: str, **kwargs) -> subprocess.CompletedProcess[str]:  # type: ignore[no-untyped-def]
    """The real ``sudoku`` command, in a child process."""
    return subprocess.run(
        [sys.executable, "-m", "sudokit", *args],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        **kwargs,
    )


def test_a_variant_puzzle_argument_is_solved_under_its_rules() -> None:
    done = sudoku("solve", "-s", "cp-sat", "-f", "line", "--count", to_json(X4))
    assert done.returncode == 0, done.stderr
    count = solve(X4, "cp-sat", limit=100).count
    assert done.stdout.strip() == f"{X4.to_line()}:{count}"
    solved = sudoku("solve", "-s", "cp-sat", "-f", "line", to_json(X4))
    grid = Grid.parse(solved.stdout.strip().split(":")[1])
    assert solution_problem(X4, grid) is None


def test_an_engine_lacking_a_kind_is_refused_with_the_kind_named() -> None:
    done = sudoku("solve", "-s", "backtrack", "-o", "order=plain", to_json(X4))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == "sudoku: error: strategy 'backtrack' does not support diagonal\n"


def test_a_batch_keeps_every_record_and_counts_the_unsupported(tmp_path: Path) -> None:
    killer = Grid.parse(CLASSIC).with_rules(constraints=[Killer(["r1c2", "r1c3"], total=4)])
    file = tmp_path / "mixed.txt"
    file.write_text(f"{CLASSIC}\n{to_json(X4)}\n{to_json(killer)}\n", encoding="utf-8")
    done = sudoku("solve", "-s", "backtrack", "-o", "order=plain", "-f", "json", str(file))
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(r["line"], r["status"]) for r in records] == [(1, "solved"), (2, "unsupported"), (3, "unsupported")]
    assert records[1]["error"] == "strategy 'backtrack' does not support diagonal"
    assert records[2]["error"] == "strategy 'backtrack' does not support killer"
    assert "variant" not in records[0] and Grid.parse(json.dumps(records[2]["variant"])) == killer
    assert done.returncode == 2
    assert "1 solved, 0 unsolvable, 0 timed out, 0 invalid, 2 unsupported" in done.stderr


def test_check_skips_an_engine_lacking_a_kind_and_says_so() -> None:
    done = sudoku("check", "-s", "backtrack,cp-sat", "-o", "backtrack.order=plain", to_json(X4))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"{X4.to_line()}  (variant: diagonal)"
    assert lines[1].split()[:2] == ["backtrack", "unsupported"] and lines[1].endswith("skipped")
    assert "skipped: engine 'backtrack' does not support diagonal" in lines
    assert lines[-1].startswith("agree: ")
    alone = sudoku("check", "-s", "backtrack", "-o", "backtrack.order=plain", "-f", "json", to_json(X4))
    record = json.loads(alone.stdout)
    assert record["verdict"] == "undecided" and record["engines"][0]["verdict"] == "skipped"
    assert Grid.parse(json.dumps(record["variant"])) == X4
    assert alone.returncode == 1
