"""Puzzle generation: every puzzle unique and (when asked) minimal by a second engine, reproducible, symmetric."""

from __future__ import annotations

from functools import cache
from itertools import islice

import pytest

from sudokit import Capabilities, Grid, get_strategy
from sudokit.features.generation import LEVELS, default_engine, generate, reachable_levels, symmetry_orbits
from sudokit.model.shape import Shape


@cache
def cpsat():  # the second engine, which proves what generate's engine (backtrack) found
    return get_strategy("cp-sat", workers=1)


def count(puzzle: Grid, limit: int = 2) -> int:
    result = cpsat().solve(puzzle, limit=limit)
    assert result.status.value in ("solved", "unsolvable"), result
    return result.count


def assert_unique(puzzle: Grid) -> None:
    assert count(puzzle) == 1, puzzle.to_line()


def assert_minimal(puzzle: Grid, orbits: list[tuple[int, ...]]) -> None:
    """Every orbit of givens, removed, leaves at least two solutions."""
    cells = puzzle.cells
    for orbit in orbits:
        if not cells[orbit[0]]:
            continue
        fewer = [0 if i in orbit else v for i, v in enumerate(cells)]
        assert count(Grid(fewer, puzzle.shape)) >= 2, f"{puzzle.to_line()}: cells {orbit} can go"


def mapped(shape: Shape, symmetry: str, i: int) -> list[int]:
    """The images of cell ``i`` under ``symmetry``'s maps, written out here independently of the module."""
    n = shape.n
    y, x = divmod(i, n)
    images = {
        "rot180": [(n - 1 - y, n - 1 - x)],
        "rot90": [(x, n - 1 - y), (n - 1 - y, n - 1 - x), (n - 1 - x, y)],
        "mirror": [(y, n - 1 - x)],
    }[symmetry]
    return [a * n + b for a, b in images]


@pytest.mark.parametrize("box", ["2x2", "2x3", "3x2", "2x4", "3x3"])
def test_every_puzzle_is_unique_and_minimal_by_a_second_engine(box: str) -> None:
    shape = Shape.parse(box)
    puzzles = list(generate(box, count=2, seed=11, minimal=True))
    assert len(puzzles) == 2 and puzzles[0] != puzzles[1]
    for puzzle in puzzles:
        assert puzzle.shape == shape and 0 < puzzle.count_givens() < shape.size
        assert_unique(puzzle)
        assert_minimal(puzzle, symmetry_orbits(shape, "none"))


def test_not_minimal_puzzles_are_unique_and_keep_more_givens() -> None:
    loose = list(generate("3x3", count=4, seed=3))
    tight = list(generate("3x3", count=4, seed=3, minimal=True))
    for puzzle in loose:
        assert_unique(puzzle)
    # the same full grids, removal stopped early: never fewer givens, and more over a few puzzles
    assert all(a.count_givens() >= b.count_givens() for a, b in zip(loose, tight, strict=True))
    assert sum(p.count_givens() for p in loose) > sum(p.count_givens() for p in tight)


def test_the_givens_agree_with_the_solution_they_force() -> None:
    puzzle = next(generate("2x3", seed=5))
    solution = cpsat().solve(puzzle).solution
    assert solution is not None and solution.is_complete()
    assert all(v in (0, s) for v, s in zip(puzzle.cells, solution.cells, strict=True))


def test_same_seed_same_puzzles_other_seed_other_puzzles() -> None:
    first = [p.to_line() for p in generate("3x3", count=3, seed=42, minimal=True)]
    again = [p.to_line() for p in generate("3x3", count=3, seed=42, minimal=True)]
    other = [p.to_line() for p in generate("3x3", count=3, seed=43, minimal=True)]
    assert first == again
    assert not set(first) & set(other)
    assert len(set(first)) == 3


def test_a_stream_without_count_goes_on_and_its_seed_can_be_replayed() -> None:
    stream = generate("2x2")
    taken = [p.to_line() for p in islice(stream, 5)]
    assert len(taken) == 5 and stream.produced == 5
    replay = [p.to_line() for p in generate("2x2", count=5, seed=stream.seed)]
    assert replay == taken


def test_the_counting_engine_does_not_change_the_puzzles() -> None:
    pytest.importorskip("pysat")
    by_backtrack = [p.to_line() for p in generate("2x3", count=2, seed=9, minimal=True, engine="backtrack")]
    by_sat = [p.to_line() for p in generate("2x3", count=2, seed=9, minimal=True, engine="sat")]
    assert by_backtrack == by_sat


def test_count_is_respected() -> None:
    stream = generate("2x2", count=3, seed=1)
    assert len(list(stream)) == 3 and stream.produced == 3 and stream.attempts == 3
    assert list(stream) == []


@pytest.mark.parametrize(
    ("box", "symmetry"), [("3x3", "rot180"), ("3x3", "rot90"), ("3x3", "mirror"), ("2x3", "rot90")]
)
def test_symmetric_givens_unique_and_minimal_orbit_by_orbit(box: str, symmetry: str) -> None:
    shape = Shape.parse(box)
    for puzzle in generate(box, count=2, seed=21, symmetry=symmetry, minimal=True):
        given = {i for i, v in enumerate(puzzle.cells) if v}
        assert given and all(set(mapped(shape, symmetry, i)) <= given for i in given), puzzle.to_line()
        assert_unique(puzzle)
        assert_minimal(puzzle, symmetry_orbits(shape, symmetry))


def test_symmetry_orbits_partition_the_board() -> None:
    shape = Shape.of(3, 3)
    for symmetry, sizes in (("none", {1}), ("rot180", {1, 2}), ("rot90", {1, 4}), ("mirror", {1, 2})):
        orbits = symmetry_orbits(shape, symmetry)
        cells = sorted(i for orbit in orbits for i in orbit)
        assert cells == list(range(81))
        assert {len(orbit) for orbit in orbits} == sizes


def test_a_sixteen_by_sixteen_puzzle_is_unique() -> None:
    puzzle = next(generate("4x4", seed=2))
    assert puzzle.n == 16 and puzzle.count_givens() < 256
    assert_unique(puzzle)


def test_the_default_engine_is_backtrack_on_small_boards() -> None:
    assert default_engine("3x3") == "backtrack"
    assert default_engine("2x3") == "backtrack"
    assert default_engine("4x4") in ("sat", "backtrack")


def test_a_time_limit_ends_the_stream() -> None:
    stream = generate("3x3", count=5, seed=1, time_limit=1e-9)
    assert list(stream) == []
    assert stream.timed_out and stream.produced == 0


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"box": "3y3"}, "box"),
        ({"box": "9x9"}, "box"),
        ({"box": 3}, "box"),
        ({"count": 0}, "count"),
        ({"count": -2}, "count"),
        ({"count": True}, "count"),
        ({"seed": "abc"}, "seed"),
        ({"symmetry": "diagonal"}, "symmetry"),
        ({"minimal": "yes"}, "minimal"),
        ({"level": "impossible"}, "level"),
        ({"engine": "no-such-engine"}, "no-such-engine"),
        ({"time_limit": -1}, "time_limit"),
        ({"time_limit": "soon"}, "time_limit"),
    ],
)
def test_bad_arguments_are_value_errors_before_any_work(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        generate(**options)  # type: ignore[arg-type]


def test_an_engine_that_takes_no_such_board_or_cannot_count_is_refused() -> None:
    plain = get_strategy("backtrack", order="plain")  # claims boards up to 9x9
    assert len(list(generate("3x3", count=1, seed=1, engine=plain))) == 1
    with pytest.raises(ValueError, match="16x16"):
        generate("4x4", engine=plain)

    class NoCount:
        name = "no-count"
        description = "finds one solution only"
        capabilities = Capabilities(counting=False)

        def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> object:
            raise AssertionError("never called")

    with pytest.raises(ValueError, match="cannot count"):
        generate("2x2", engine=NoCount())


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_a_level_asked_is_the_level_rated(level: str) -> None:
    import sudokit.features.rating as rating

    stream = generate("3x3", count=1, seed=4, minimal=True, level=level, time_limit=60)
    puzzles = list(stream)
    assert len(puzzles) == 1, f"no {level} puzzle in {stream.attempts} attempts"
    puzzle = puzzles[0]
    assert_unique(puzzle)
    assert str(getattr(rating.rate(puzzle).level, "value", rating.rate(puzzle).level)).lower() == level
    assert stream.attempts >= 1 and sum(stream.levels.values()) == stream.attempts


def test_levels_are_the_ratings_names() -> None:
    from sudokit.features.rating import LEVELS as RATED_LEVELS

    assert LEVELS == ("easy", "medium", "hard", "unfair", "extreme")
    assert tuple(level.lower() for level in RATED_LEVELS) == LEVELS


def minimal_puzzles_of_side_4(box: str) -> list[tuple[Grid, Grid]]:
    """Every minimal puzzle with one solution on a 4x4 board of ``box``, up to symmetry: (puzzle, solution).

    A puzzle of givens S of grid G has another solution H exactly when S lies inside the cells where G
    and H agree; so over every grid G up to symmetry and every set S (numpy: 2^16 sets at once). The
    symmetries keep what singles can do: relabelling digits (first row 1234); with 1x4 (4x1) boxes,
    the rows (columns) are the boxes and go in any order too (first column (row) 1234 as well).
    """
    import numpy as np

    shape = Shape.parse(box)
    grids: list[tuple[int, ...]] = []
    cells = [0] * 16

    def fill(i: int) -> None:
        if i == 16:
            grids.append(tuple(cells))
            return
        for d in range(1, 5):
            if all(cells[j] != d for j in shape.peers[i] if j < i):
                cells[i] = d
                fill(i + 1)
        cells[i] = 0

    fill(0)
    assert len(grids) == (288 if box == "2x2" else 576)
    first_row, first_column = (0, 1, 2, 3), (0, 4, 8, 12)
    fixed = {"2x2": [first_row], "1x4": [first_row, first_column], "4x1": [first_column, first_row]}[box]
    every = np.array(grids, dtype=np.int64)
    sets = np.arange(1 << 16, dtype=np.int64)
    bits = np.int64(1) << np.arange(16, dtype=np.int64)
    found = []
    for grid in (g for g in grids if all([g[i] for i in line] == [1, 2, 3, 4] for line in fixed)):
        agree = ((every == np.array(grid)) * bits).sum(axis=1)
        unique = np.ones(1 << 16, dtype=bool)
        for mask in agree[agree != (1 << 16) - 1]:
            unique &= (sets & ~mask) != 0
        minimal = unique.copy()
        for bit in bits:
            minimal &= ((sets & bit) == 0) | ~unique[sets & ~bit]
        for chosen in np.nonzero(minimal)[0]:
            puzzle = Grid([v if chosen >> i & 1 else 0 for i, v in enumerate(grid)], shape)
            found.append((puzzle, Grid(list(grid), shape)))
    return found


@pytest.mark.parametrize("box", ["2x2", "1x4", "4x1"])
def test_every_four_by_four_puzzle_is_easy_so_other_levels_are_refused(box: str) -> None:
    from sudokit.engines.strategy import Result, Status
    from sudokit.features.rating import rate_grid

    # Singles that solve a puzzle solve it with more givens too, so the minimal puzzles decide the levels reached.
    found = minimal_puzzles_of_side_4(box)
    assert len(found) > 500
    for puzzle, solution in found:
        known = Result(Status.SOLVED, puzzle, "enumeration", (solution,), 1, True)
        assert rate_grid(puzzle, known)[1].level == "Easy", puzzle.to_line()
    assert reachable_levels(box) == ("easy",) and reachable_levels("2x3") == reachable_levels("3x3") == LEVELS
    for level in LEVELS[1:]:
        with pytest.raises(ValueError, match=f"level {level}: no puzzle on a 4x4 board reaches it"):
            generate(box, level=level)
    assert len(list(generate(box, count=2, seed=1, level="easy"))) == 2


def test_the_engines_answers_are_checked() -> None:
    from sudokit.errors import StrategyError
    from tests.plugins.hostile import WrongGrid

    # Its "solution" repeats a digit in a row: before, generate took its counts as they came.
    with pytest.raises(StrategyError, match="wrong-grid"):
        next(generate("2x2", seed=1, engine=WrongGrid()))


def test_each_puzzle_comes_with_its_solution_and_rating() -> None:
    from sudokit.engines.verify import is_solution
    from sudokit.features.rating import rate

    stream = generate("3x3", seed=2, level="hard")
    puzzle = next(stream)
    assert stream.solution is not None and is_solution(puzzle, stream.solution)
    assert_unique(puzzle)
    rated = rate(puzzle)
    assert stream.rating is not None and stream.rating.level == rated.level == "Hard"
    assert (stream.rating.score, stream.rating.techniques) == (rated.score, rated.techniques)


def test_the_engine_that_fills_the_grid_is_a_parameter_and_its_answer_is_checked() -> None:
    """``filler`` (backtrack unless told) completes each random grid through the checked call, as the counts go."""
    from sudokit.errors import StrategyError
    from tests.plugins.hostile import WrongGrid

    made = [grid.to_line() for grid in generate("2x2", count=3, seed=11)]
    assert [grid.to_line() for grid in generate("2x2", count=3, seed=11, filler="backtrack")] == made
    assert [grid.to_line() for grid in generate("2x2", count=3, seed=11, filler=get_strategy("backtrack"))] == made
    stream = generate("2x2", count=3, seed=11, filler=WrongGrid())  # a grid with a digit twice in a row
    with pytest.raises(StrategyError, match=r"'wrong-grid' failed while generating: .*returned an invalid grid"):
        next(stream)
