"""``sudoku candidates``: each cell's true candidates, checked against every solution enumerated.

The enumeration is ``count_solutions`` with backtrack (one search to the end); the command runs its
engine in worker processes, as every batch command does.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sudokit import count_solutions, parse_puzzle
from tests.conftest import refused, sudoku

MANY = "....5..4...8.1.5..4......12.7.5.2.8....6.3....4.1.9...25.....98..1.2.6...8.....2."
SMALL = "12..34.........."  # a 4x4 with a dozen solutions


def every_solution(puzzle: str) -> list[tuple[int, ...]]:
    found = count_solutions(puzzle, limit=10_000, keep=None)
    assert found.exact
    return [s.cells for s in found.solutions]


def pencil_grid(text: str) -> list[str]:
    """The cells of a pretty pencil-marked grid, in reading order (the box rules and bars left out)."""
    return [cell for row in text.splitlines() if not row.startswith("-") for cell in row.replace("|", " ").split()]


@pytest.mark.parametrize("strategy", [None, "backtrack", "cp-sat"])
def test_the_grid_shows_the_digits_of_every_solution(strategy: str | None) -> None:
    result = sudoku("candidates", MANY, *(["-s", strategy] if strategy else []))
    assert result.exit_code == 0, result.stderr
    solutions, grid = every_solution(MANY), parse_puzzle(MANY)
    cells = pencil_grid(result.stdout)
    assert len(cells) == 81
    for i, shown in enumerate(cells):
        expected = str(grid.cells[i]) if grid.cells[i] else "".join(str(d) for d in sorted({s[i] for s in solutions}))
        assert shown == expected, i


def test_with_a_cap_a_candidate_of_fewer_solutions_shows_its_count() -> None:
    result = sudoku("candidates", MANY, "--cap", "3")
    assert result.exit_code == 0, result.stderr
    solutions, grid = every_solution(MANY), parse_puzzle(MANY)
    for i, shown in enumerate(pencil_grid(result.stdout)):
        if grid.cells[i]:
            continue
        expected = ""
        for d in sorted({s[i] for s in solutions}):
            having = sum(1 for s in solutions if s[i] == d)
            expected += str(d) + (f"({having})" if having < 3 else "")
        assert shown == expected, i
    assert "(1)" in result.stdout  # the puzzle has candidates of one solution: the case is shown


def test_a_file_gets_one_record_a_puzzle_in_order_and_a_bad_line_is_one_error(tmp_path: Path) -> None:
    puzzles = tmp_path / "p.txt"
    puzzles.write_text(f"{SMALL}\nbad\n.234....1.......\n{MANY}\n")
    result = sudoku("candidates", str(puzzles), "-f", "json", "--cap", "2")
    assert result.exit_code == 2  # the invalid line
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["line"], r["status"]) for r in records] == [
        (1, "solved"),
        (2, "invalid"),
        (3, "unsolvable"),
        (4, "solved"),
    ]
    assert [line for line in result.stderr.splitlines() if "error" in line] == [
        f"sudoku: error: {puzzles}:2: 3 cells: a board needs a square number of cells (the smallest board, 4x4, has 16)"
    ]
    small = every_solution(SMALL)
    for cell in range(16):
        for digit in range(1, 5):
            having = sum(1 for s in small if s[cell] == digit)
            assert records[0]["counts"][cell * 4 + digit - 1] == min(2, having)
    assert records[2]["candidates"] == [[]] * 16 and not any(records[2]["counts"])
    assert records[3]["candidates"][0] == sorted({s[0] for s in every_solution(MANY)})


def test_the_line_form_and_a_variant_puzzle() -> None:
    diagonals = (
        '{"box": "2x2", "givens": "1...............", "constraints": '
        '[{"kind": "diagonal", "direction": "main"}, {"kind": "diagonal", "direction": "anti"}]}'
    )
    result = sudoku("candidates", diagonals, "-f", "line")
    assert result.exit_code == 0, result.stderr
    puzzle, _, cells = result.stdout.strip().rpartition(":")
    solutions = every_solution(diagonals)
    assert puzzle == "1..............."
    assert cells.split(",") == ["".join(str(d) for d in sorted({s[i] for s in solutions})) for i in range(16)]


def test_a_time_limit_ends_it_as_a_timeout() -> None:
    result = sudoku("candidates", "." * 81, "--cap", "1000", "-t", "0.5", "-f", "line")
    assert result.exit_code == 1
    assert result.stdout.strip() == "." * 81 + ":timeout"


def test_bad_options_are_one_line() -> None:
    refused(sudoku("candidates", MANY, "--cap", "0"), "--cap")
    refused(sudoku("candidates", MANY, "-s", "nosuch"), "nosuch")
    refused(sudoku("candidates", MANY, "-s", "all"), "all")
