"""The logical step solver: every step sound against the known solution, every technique seen firing."""

from __future__ import annotations

import re
from functools import cache

import pytest

from sudokit import Grid, solve
from sudokit.features.logic import TECHNIQUES, Candidates, Step, hint, steps

from .conftest import puzzles, sized

CELL_NAME = re.compile(r"\br(\d+)c(\d+)\b")


@cache
def solution_of(puzzle: Grid) -> Grid:
    result = solve(puzzle, "backtrack")
    assert result.solution is not None
    return result.solution


def assert_sound(puzzle: Grid, solution: Grid) -> list[Step]:
    """The whole path of ``puzzle``, after checking each step against ``solution`` and its explanation's form."""
    path = list(steps(puzzle))
    n = puzzle.n
    for k, step in enumerate(path):
        where = f"{puzzle.to_line()} step {k}: {step}"
        for cell, digit in step.placements:
            assert puzzle.cells[cell] == 0 and solution.cells[cell] == digit, where
        for cell, digit in step.eliminations:
            assert solution.cells[cell] != digit, where
        assert step.technique in ("needs search", "contradiction") or step.progress, where
        assert step.explanation and "\n" not in step.explanation, where
        for row, col in CELL_NAME.findall(step.explanation):
            assert 1 <= int(row) <= n and 1 <= int(col) <= n, where
        named = {(int(r) - 1) * n + int(c) - 1 for r, c in CELL_NAME.findall(step.explanation)}
        assert {cell for cell, _ in step.placements + step.eliminations} <= named, where
    # Only the last step may be the one without progress.
    assert all(step.progress for step in path[:-1])
    return path


CLASSIC = [
    *[(f"easy50-{k}", text) for k, text in enumerate(puzzles("easy50.txt"))],
    *[(f"top95-{k}", text) for k, text in enumerate(puzzles("top95.txt"))],
    *[(f"hardest-{k}", text) for k, text in enumerate(puzzles("hardest.txt"))],
]


def test_every_step_is_sound_on_the_classic_files() -> None:
    for _name, text in CLASSIC:
        puzzle = Grid.parse(text)
        assert_sound(puzzle, solution_of(puzzle))


def test_every_step_is_sound_on_300_of_the_17_clue_puzzles() -> None:
    for text in puzzles("17clue.txt")[:300]:
        puzzle = Grid.parse(text)
        assert_sound(puzzle, solution_of(puzzle))


@pytest.mark.parametrize("box", ["2x2", "2x3", "2x4", "3x3", "3x4", "4x4"])
def test_every_step_is_sound_on_every_box_shape(box: str) -> None:
    for puzzle, solution in sized(box):
        path = assert_sound(puzzle, solution)
        assert path


def test_easy_puzzles_are_solved_by_logic_alone() -> None:
    for text in puzzles("easy50.txt"):
        puzzle = Grid.parse(text)
        path = list(steps(puzzle))
        assert path[-1].technique != "needs search", text
        state = Candidates(puzzle)
        for step in path:
            state.apply(step)
        assert state.is_solved() and state.to_grid() == solution_of(puzzle)


def test_a_stalled_path_ends_with_needs_search() -> None:
    stalled = 0
    for text in puzzles("hardest.txt"):
        path = list(steps(text))
        if path[-1].technique == "needs search":
            stalled += 1
            last = path[-1]
            assert (last.placements, last.eliminations, last.cells) == ((), (), ())
            assert "search" in last.explanation
    assert stalled  # the hardest puzzles need more than the techniques


# Where each technique fires first in the data (found by running the solver over the files): (file, line index).
DEMOS = {
    "naked single": ("top95.txt", 11),
    "hidden single": ("top95.txt", 0),
    "locked candidates (pointing)": ("top95.txt", 19),
    "locked candidates (claiming)": ("top95.txt", 32),
    "naked pair": ("top95.txt", 34),
    "hidden pair": ("top95.txt", 55),
    "naked triple": ("top95.txt", 32),
    "hidden triple": ("top95.txt", 55),
    "X-Wing": ("hardest.txt", 10),
    "XY-Wing": ("17clue.txt", 13275),
    "XYZ-Wing": ("hardest.txt", 2),
    "W-Wing": ("17clue.txt", 3545),
    "naked quad": ("17clue.txt", 3545),
    "Swordfish": ("top95.txt", 34),
    "X-chain": ("17clue.txt", 1476),
    "XY-chain": ("17clue.txt", 11988),
    "Jellyfish": ("17clue.txt", 10516),
    "unique rectangle type 1": ("17clue.txt", 1795),
    "locked pair": ("top95.txt", 1),
    "locked triple": ("top95.txt", 0),
    "remote pair": ("top95.txt", 4),
    "BUG+1": ("top95.txt", 76),
    "skyscraper": ("top95.txt", 12),
    "2-string kite": ("top95.txt", 11),
    "turbot fish": ("top95.txt", 28),
    "empty rectangle": ("top95.txt", 10),
    "unique rectangle type 2": ("top95.txt", 81),
    "unique rectangle type 4": ("top95.txt", 10),
}


@pytest.mark.parametrize("technique", sorted(DEMOS))
def test_each_technique_fires_soundly_on_a_real_puzzle(technique: str) -> None:
    name, index = DEMOS[technique]
    puzzle = Grid.parse(puzzles(name)[index])
    path = assert_sound(puzzle, solution_of(puzzle))
    fired = [step for step in path if step.technique == technique]
    assert fired, [step.technique for step in path]
    assert all(step.cells and step.digits for step in fired)


def test_hidden_quad_fires_on_constructed_pencil_marks() -> None:
    # No data-set puzzle reaches a hidden quad, so build the pencil marks: a solved grid's board, all blank, where
    # row 1's first four digits are struck from the row's other five cells. They fit only in r1c1..r1c4.
    solution = solution_of(Grid.parse(puzzles("easy50.txt")[0]))
    quad = solution.cells[:4]
    state = Candidates(Grid.empty())
    for cell in range(4, 9):
        for digit in quad:
            state.eliminate(cell, digit)
    before = list(state.masks)
    step = hint(state)
    assert state.masks == before  # the caller's state is not changed
    assert step is not None and step.technique == "hidden quad"
    assert set(step.cells) == {0, 1, 2, 3} and set(step.digits) == set(quad)
    assert set(step.eliminations) == {(c, d) for c in range(4) for d in range(1, 10) if d not in quad}
    assert all(solution.cells[c] != d for c, d in step.eliminations)
    assert "row 1" in step.explanation and "r1c4" in step.explanation


def test_every_technique_has_a_demonstration() -> None:
    named = {t.split(" (")[0] for t in DEMOS} | {"hidden quad"}
    assert set(TECHNIQUES) <= named


def test_hint_is_the_first_step_and_none_when_complete() -> None:
    text = puzzles("easy50.txt")[0]
    first = hint(text)
    assert first == next(steps(Grid.parse(text)))
    assert first is not None and first.placements
    cell, digit = first.placements[0]
    assert f"r{cell // 9 + 1}c{cell % 9 + 1}" in first.explanation and str(digit) in first.explanation
    assert hint(solution_of(Grid.parse(text))) is None
    assert list(steps(solution_of(Grid.parse(text)))) == []


def test_hidden_single_names_its_cell_digit_and_unit() -> None:
    step = hint(puzzles("top95.txt")[0])
    assert step is not None and step.technique == "hidden single"
    (cell, digit), n = step.placements[0], 9
    match = re.fullmatch(r"r(\d)c(\d) is the only place for (\d) in (row|column|box) (\d)", step.explanation)
    assert match, step.explanation
    row, col, said, kind, k = match.groups()
    assert ((int(row) - 1) * n + int(col) - 1, int(said)) == (cell, digit)
    unit = {"row": cell // n, "column": cell % n, "box": cell // 27 * 3 + cell % 9 // 3}[kind]
    assert int(k) == unit + 1


def test_naked_single_sentence() -> None:
    # Row 1 misses only 9.
    puzzle = Grid.parse("12345678." + "." * 72)
    step = hint(puzzle)
    assert step is not None and step.placements == ((8, 9),)
    assert step.explanation == "r1c9 can only be 9: every other digit is already in its row, column or box"


def test_candidates_start_from_the_givens_peers() -> None:
    puzzle = Grid.parse(puzzles("easy50.txt")[0])
    state = Candidates(puzzle)
    for cell, value in enumerate(puzzle.cells):
        if value:
            assert state.candidates(cell) == ()
            continue
        seen = {puzzle.cells[p] for p in puzzle.shape.peers[cell]}
        assert set(state.candidates(cell)) == set(range(1, 10)) - seen
    blank = puzzle.cells.index(0)
    digit = state.candidates(blank)[0]
    state.place(blank, digit)
    assert all(digit not in state.candidates(p) for p in puzzle.shape.peers[blank])


def test_a_jigsaw_is_solved_on_its_own_regions() -> None:
    regions = [str(box + 1) for box in Grid.empty().shape.box_of]
    regions[3], regions[20] = "1", "2"  # r1c4 joins box 1's region, r3c3 box 2's
    jigsaw = Grid.empty().with_rules(regions="".join(regions))
    state = Candidates(jigsaw)
    state.place(0, 5)  # r1c1: 5 leaves r1c4 (its region now), not r3c3 (no longer in box 1)
    assert 5 not in state.candidates(3) and 5 in state.candidates(20)


#: What an explanation names by number that is not a digit: cells, and rows, columns and boxes (alone or listed).
POSITIONS = re.compile(r"\br\d+c\d+\b|\b(?:rows?|columns?|box(?:es)?) \d+(?:(?:, | and )\d+)*")


@pytest.mark.parametrize("box", ["3x4", "4x4"])
def test_steps_write_digits_in_the_boards_own_symbols(box: str) -> None:
    """A 16x16 hint read 'r22c18 can only be 16' and '{16}' where the grid and the input write G."""
    symbols = "123456789ABCDEFG"
    above_nine = set()
    for puzzle, _solution in sized(box)[:3]:
        for step in steps(puzzle):
            if step.technique == "needs search":
                continue
            words = re.findall(r"[0-9A-Z]+", POSITIONS.sub("", step.explanation))
            assert not [w for w in words if w.isdigit() and int(w) > 9], step.explanation  # no 10, 11, ... 16
            for _cell, digit in step.placements + step.eliminations:
                assert symbols[digit - 1] in words, step.explanation
            above_nine |= {d for d in step.digits if d > 9}
    assert above_nine  # the paths name digits written as letters
