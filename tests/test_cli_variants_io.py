"""``sudoku`` with links: real processes of the real command, puzzles as links in and f-puzzles links out."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sudokit import Grid
from sudokit.engines.verify import solution_problem
from sudokit.io.links import FPUZZLES_URL, fpuzzles_link, parse_link
from sudokit.io.lzstring import decompress_from_base64
from sudokit.model.variants import Killer

from .conftest import PUZZLES

#: "Self-contained" by Lavaloid (killer cages, anti-knight), from puzzles/variants/links.txt.
REAL = next(
    line
    for line in (PUZZLES / "variants" / "links.txt").read_text().splitlines()
    if "N4IgzglgXgpiBcBOANCALhNAbO8QGUYs" in line
)
REAL_SOLUTION = "653418279174259863982673451528961347317542986496387512769835124831724695245196738"


def sudoku(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m sudokit ARGS`` in a process of its own."""
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "PYTHONWARNINGS")}
    return subprocess.run(
        [sys.executable, "-m", "sudokit", *args], input=stdin, capture_output=True, text=True, timeout=120, env=env
    )


def one_line_error(stderr: str, *parts: str) -> None:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("sudoku: error: ")
    for part in parts:
        assert part in lines[0]
    assert "Traceback" not in stderr


def solution_of(link: str) -> Grid:
    data = json.loads(decompress_from_base64(link.removeprefix(FPUZZLES_URL)))
    puzzle = parse_link(link)
    return Grid(data["solution"], puzzle.shape, validate=False)


def test_solve_a_link_given_as_an_argument() -> None:
    proc = sudoku("solve", "-f", "line", REAL)
    assert (proc.returncode, proc.stderr) == (0, "")
    assert proc.stdout.strip().split(":")[-1] == REAL_SOLUTION


def test_solve_pretty_prints_the_solution_of_a_link() -> None:
    proc = sudoku("solve", REAL)
    assert proc.returncode == 0, proc.stderr
    assert Grid.parse(proc.stdout).to_line() == REAL_SOLUTION


def test_format_fpuzzles_writes_a_link_with_the_solution_that_decodes_back() -> None:
    proc = sudoku("solve", "-f", "fpuzzles", REAL)
    assert (proc.returncode, proc.stderr) == (0, "")
    [link] = proc.stdout.splitlines()
    assert link.startswith("https://www.f-puzzles.com/?load=")
    puzzle = parse_link(link)
    assert puzzle == parse_link(REAL) or set(puzzle.constraints) == set(parse_link(REAL).constraints)
    assert solution_of(link).to_line() == REAL_SOLUTION
    assert solution_problem(puzzle, solution_of(link)) is None


def test_a_file_of_links_and_classic_lines(tmp_path: Path) -> None:
    jigsaw = Grid.empty("2x2").with_rules(regions="1112122233343444", constraints=[Killer([(0, 0), (0, 1)], total=3)])
    path = tmp_path / "mixed.txt"
    path.write_text(
        "\n".join(
            [
                "# links, a classic line with its note, a variant in JSON, a short ID",
                REAL,
                "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79:a note",
                fpuzzles_link(jigsaw),
                '{"givens": "1...............", "constraints": [{"kind": "diagonal", "direction": "main"}]}',
                "https://sudokupad.app/abc123",
            ]
        )
        + "\n"
    )
    proc = sudoku("solve", "-f", "line", "-j", "1", str(path))
    assert proc.returncode == 2  # the short ID is an invalid record
    lines = proc.stdout.splitlines()
    assert len(lines) == 5
    assert lines[0].endswith(REAL_SOLUTION)
    assert lines[1].endswith(":534678912672195348198342567859761423426853791713924856961537284287419635345286179")
    assert lines[4] == "https://sudokupad.app/abc123:invalid"
    assert f"{path}:6: SudokuPad: 'abc123' is a puzzle ID" in proc.stderr
    assert "does not use the network" in proc.stderr
    fpuzzles = sudoku("solve", "-f", "fpuzzles", "-j", "1", "-q", str(path))
    links = fpuzzles.stdout.splitlines()
    assert len(links) == 5 and links[4] == "https://sudokupad.app/abc123"  # the input as read: one record a puzzle
    solved = [solution_of(link) for link in links[:4]]
    for link, solution in zip(links[:4], solved, strict=True):
        assert solution_problem(parse_link(link), solution) is None
    assert parse_link(links[2]).jigsaw


def test_a_jigsaw_solution_is_drawn_with_its_regions() -> None:
    jigsaw = Grid.empty("2x2").with_rules(regions="1112122233343444")
    proc = sudoku("solve", fpuzzles_link(jigsaw))
    assert proc.returncode == 0, proc.stderr
    assert "|" in proc.stdout and "+" in proc.stdout
    assert " | " not in proc.stdout  # the regions' borders, not the boxes'


def test_links_on_standard_input() -> None:
    proc = sudoku("solve", "-f", "line", "-", stdin=REAL + "\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0].endswith(REAL_SOLUTION)


@pytest.mark.parametrize(
    ("args", "parts"),
    [
        (["-f", "fpuzzles", "--count"], ["--format fpuzzles", "--count"]),
        (["-f", "fpuzzles", "--unique"], ["--format fpuzzles"]),
        (["-f", "fpuzzles", "--limit", "2"], ["--format fpuzzles", "--limit"]),
        (["-f", "fpuzzles", "-s", "all"], ["--strategy all", "not fpuzzles"]),
        (["-f", "fpuzzles", "-O", "out.txt", "--resume"], ["--resume needs --format line, json or csv"]),
    ],
)
def test_format_fpuzzles_refuses_what_it_cannot_write(tmp_path: Path, args: list[str], parts: list[str]) -> None:
    args = [str(tmp_path / a) if a == "out.txt" else a for a in args]
    proc = sudoku("solve", REAL, *args)
    assert proc.returncode == 2 and proc.stdout == ""
    one_line_error(proc.stderr, *parts)


def test_a_short_id_is_one_line_of_error() -> None:
    proc = sudoku("solve", "https://sudokupad.app/someauthor/a-title")
    assert proc.returncode == 2 and proc.stdout == ""
    one_line_error(proc.stderr, "SudokuPad: 'someauthor/a-title' is a puzzle ID", "does not use the network")


def test_a_link_with_a_rule_sudokit_lacks_is_one_line_of_error() -> None:
    refused = (PUZZLES / "variants" / "links-refused.txt").read_text().splitlines()
    link = refused[refused.index(next(line for line in refused if "The ARt of Sashimi" in line)) + 3]
    proc = sudoku("solve", link)
    assert proc.returncode == 2
    one_line_error(proc.stderr, "f-puzzles: cage 1 (R1C2..R1C3): a cage that is not a killer cage")


def test_format_fpuzzles_refuses_a_lone_board_f_puzzles_cannot_hold_before_solving_it() -> None:
    board = (PUZZLES / "sizes" / "box6x6.txt").read_text().split(":")[0].strip()
    proc = sudoku("solve", "-f", "fpuzzles", board)
    assert (proc.returncode, proc.stdout) == (2, "")
    one_line_error(proc.stderr, "--format fpuzzles", "36x36", "4x4 to 16x16")


def test_format_fpuzzles_in_a_batch_gives_a_board_f_puzzles_cannot_hold_its_record_unsolved(tmp_path: Path) -> None:
    big = (PUZZLES / "sizes" / "box5x5.txt").read_text().split(":")[0].strip()
    path = tmp_path / "mixed.txt"
    path.write_text(f"{big}\n{REAL}\n")
    proc = sudoku("solve", "-f", "fpuzzles", "-j", "1", "-q", str(path))
    assert proc.returncode == 2  # the input the output form cannot hold, as an invalid one
    records = proc.stdout.splitlines()
    assert len(records) == 2  # one record per input, in order
    assert records[0] == big  # as read: not solved, no solution line
    assert records[1].startswith(FPUZZLES_URL) and solution_of(records[1]).to_line() == REAL_SOLUTION
    one_line_error(proc.stderr, f"{path}:1:", "25x25", "4x4 to 16x16")
