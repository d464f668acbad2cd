"""One meaning per option across the command line (issue 22).

``-s all`` is every installed engine wherever several engines run (check, bench) and is refused,
naming the commands that compare engines, where one runs; ``-o KEY=VALUE`` goes to the one engine
of a run whichever command runs it; ``-n`` is "how many" and ``--count`` counts solutions;
messages name only what the command has; ``check`` has ``--unique`` and ``-f csv`` as ``solve``
does; ``-s`` completes engine names; the README's synopsis lists every option of every command.
"""

from __future__ import annotations

import json

from sudokit.registry import default_registry
from tests.conftest import PUZZLES, puzzles, refused, sudoku

UNIQUE = puzzles("top95.txt")[1]
LEETCODE = PUZZLES / "leetcode37.txt"


def records(stdout: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in stdout.splitlines()]


# --- -s all and one engine ------------------------------------------------------------------------


def test_check_s_all_compares_every_installed_engine() -> None:
    result = sudoku("check", "-s", "all", "-f", "json", UNIQUE)
    assert result.exit_code == 0, result.stderr
    [report] = records(result.stdout)
    assert [e["strategy"] for e in report["engines"]] == default_registry().ready_names()  # type: ignore[index]
    assert report["verdict"] == "agree"


def test_bench_s_all_times_every_installed_engine() -> None:
    result = sudoku("bench", str(LEETCODE), "-s", "all", "--first", "1", "-f", "json")
    assert result.exit_code == 0, result.stderr
    assert [row["strategy"] for row in records(result.stdout)] == default_registry().ready_names()


def test_all_goes_alone() -> None:
    refused(sudoku("check", "-s", "all,sat", UNIQUE), "-s all", "alone")


def test_solve_with_several_engines_points_to_check() -> None:
    refused(
        sudoku("solve", "-s", "backtrack,sat", UNIQUE),
        "'sudoku solve' takes one engine",
        "sudoku check -s backtrack,sat",
    )


def test_generate_refuses_all_naming_the_command_that_compares_engines() -> None:
    refused(sudoku("generate", "-s", "all"), "'sudoku generate' takes one engine", "sudoku check -s all")


def test_one_engine_takes_plain_options_in_check_and_bench() -> None:
    """``-o workers=2`` was refused "when comparing engines" with one engine: it goes to that engine, as in solve."""
    result = sudoku("check", "-s", "cp-sat", "-o", "workers=2", "--limit", "1", "-f", "json", UNIQUE)
    assert result.exit_code == 0, result.stderr
    [report] = records(result.stdout)
    assert report["engines"][0]["stats"]["workers"] == 2  # type: ignore[index]
    bench = sudoku("bench", str(LEETCODE), "-s", "backtrack", "-o", "order=plain", "--first", "1", "-f", "json")
    assert bench.exit_code == 0, bench.stderr
    assert [row["solved"] for row in records(bench.stdout)] == [1]
    # the option reaches the engine: one it does not have is the engine's own refusal
    refused(sudoku("bench", str(LEETCODE), "-s", "backtrack", "-o", "nosuch=1", "--first", "1"), "no option 'nosuch'")
    # with several engines, an option still names its engine
    refused(sudoku("check", "-s", "backtrack,cp-sat", "-o", "workers=2", UNIQUE), "-o ENGINE.workers=VALUE")


# --- -n is how many, --count counts solutions -----------------------------------------------------


def test_generate_number_is_how_many_puzzles() -> None:
    for flag in ("--number", "-n"):
        result = sudoku("generate", "--box", "2x2", "--seed", "3", flag, "3", "-q")
        assert result.exit_code == 0, result.stderr
        assert len(result.stdout.splitlines()) == 3 and result.stderr == ""


def test_generate_count_is_a_deprecated_alias_said_once() -> None:
    new = sudoku("generate", "--box", "2x2", "--seed", "3", "-n", "2", "-q")
    old = sudoku("generate", "--box", "2x2", "--seed", "3", "--count", "2", "-q")
    assert old.exit_code == 0 and old.stdout == new.stdout  # the same puzzles
    [line] = old.stderr.splitlines()
    assert line.startswith("sudoku: warning: ") and "deprecated" in line and "--number" in line
    refused(sudoku("generate", "--count", "2", "-n", "2"), "--count", "--number")
    assert "--count" not in sudoku("generate", "-h").stdout  # hidden: --count counts solutions elsewhere
