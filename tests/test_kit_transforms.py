"""sudokit.testing.transforms: each transformation maps solutions to solutions, undoes, composes, fits every box."""

from __future__ import annotations

import doctest
import pickle
import random

import pytest

from sudokit import Grid, Shape, get_strategy
from sudokit.engines.verify import is_solution, solution_problem
from sudokit.testing import corpus, transforms
from sudokit.testing.transforms import (
    KINDS,
    Transform,
    apply_all,
    permute_bands,
    permute_columns_in_stack,
    permute_rows_in_band,
    permute_stacks,
    random_transform,
    random_transforms,
    relabel_digits,
    transpose,
)

#: Solved puzzles of several box shapes, square and not: (puzzle, its only solution).
SOLVED = [
    (k.puzzle, k.solution)
    for k in (*corpus.load("shapes"), *corpus.load("unique")[:2])
    if k.solution is not None and k.puzzle.n <= 12
]
SHAPES = sorted({str(p.shape) for p, _ in SOLVED})

#: A 4x4 board numbered so that each cell shows where it came from: row r, column c holds 4r + c + 1 (no sudoku).
NUMBERED = Grid(range(1, 17), Shape.of(2, 2), validate=False)


def _rows(grid: Grid) -> list[list[int]]:
    return grid.rows()


def test_the_shipped_solved_puzzles_cover_non_square_boxes() -> None:
    assert {"2x2", "2x3", "3x2", "2x4", "3x3", "3x4"} <= set(SHAPES)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(("puzzle", "solution"), SOLVED, ids=[f"{p.shape}-{k}" for k, (p, _) in enumerate(SOLVED)])
def test_a_transformation_maps_the_solution_to_the_solution_of_the_image(
    kind: str, puzzle: Grid, solution: Grid
) -> None:
    rng = random.Random(f"{kind} {puzzle.to_line()}")
    for _ in range(5):
        t = random_transform(kind, puzzle.shape, rng)
        image, mapped = t.apply(puzzle), t.apply(solution)
        assert solution_problem(image, mapped) is None, t
        assert is_solution(image, mapped)
        assert image.count_givens() == puzzle.count_givens()


@pytest.mark.parametrize("kind", KINDS)
def test_a_transformation_maps_every_solution_of_a_multi_solution_puzzle(kind: str) -> None:
    backtrack = get_strategy("backtrack")
    known = next(k for k in corpus.load("multi") if k.count <= 12)
    t = random_transform(kind, known.puzzle.shape, random.Random(kind))
    image = t.apply(known.puzzle)
    original = backtrack.solve(known.puzzle, limit=known.count + 1)
    mapped = backtrack.solve(image, limit=known.count + 1)
    assert (mapped.count, mapped.exact) == (original.count, original.exact) == (known.count, True)
    assert {t.apply(s) for s in original.solutions} == set(mapped.solutions)


def test_the_functions_move_rows_columns_and_digits_as_documented() -> None:
    assert _rows(NUMBERED) == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]
    assert _rows(permute_rows_in_band(NUMBERED, 1, (1, 0)))[2:] == [[13, 14, 15, 16], [9, 10, 11, 12]]
    assert _rows(permute_rows_in_band(NUMBERED, 0, (1, 0)))[2:] == _rows(NUMBERED)[2:]
    assert _rows(permute_bands(NUMBERED, (1, 0))) == [[9, 10, 11, 12], [13, 14, 15, 16], [1, 2, 3, 4], [5, 6, 7, 8]]
    assert _rows(permute_columns_in_stack(NUMBERED, 0, (1, 0)))[0] == [2, 1, 3, 4]
    assert _rows(permute_stacks(NUMBERED, (1, 0)))[0] == [3, 4, 1, 2]
    assert _rows(transpose(NUMBERED))[0] == [1, 5, 9, 13]
    puzzle = Grid.parse("4..2.......31...")
    assert relabel_digits(puzzle, {1: 2, 2: 3, 3: 4, 4: 1}).to_line() == "1..3.......42..."
    assert relabel_digits(puzzle, (2, 3, 4, 1)) == relabel_digits(puzzle, {1: 2, 2: 3, 3: 4, 4: 1})


def test_an_order_says_which_old_position_each_new_one_takes() -> None:
    solution = corpus.load("unique")[0].solution
    assert solution is not None
    rows, original = _rows(permute_bands(solution, (2, 0, 1))), _rows(solution)
    assert rows[0:3] == original[6:9] and rows[3:6] == original[0:3]


def test_transpose_turns_2x3_boxes_into_3x2_and_back() -> None:
    twos = corpus.of_shape(Shape.of(2, 3))
    threes = corpus.of_shape(Shape.of(3, 2))
    # shapes.txt makes its 3x2 puzzles by transposing its 2x3 ones: this transpose agrees.
    assert [transpose(k.puzzle) for k in twos] == [k.puzzle for k in threes]
    assert [transpose(k.solution) for k in twos] == [k.solution for k in threes]
    assert transpose(twos[0].puzzle).shape == Shape.of(3, 2)
    assert transpose(transpose(twos[0].puzzle)) == twos[0].puzzle


@pytest.mark.parametrize("shape", ["2x2", "2x3", "3x2", "2x4", "4x2", "3x3", "3x4", "1x4"])
def test_inverse_undoes_each_kind(shape: str) -> None:
    box = Shape.parse(shape)
    rng = random.Random(shape)
    grid = Grid([rng.randrange(box.n + 1) for _ in range(box.size)], box, validate=False)
    for kind in KINDS:
        for _ in range(5):
            t = random_transform(kind, box, rng)
            assert t.inverse().apply(t.apply(grid)) == grid, t
            assert t.apply(t.inverse().apply(grid)) == grid, t
            assert t.inverse().inverse() == t


def test_random_transforms_compose_across_a_transpose_and_undo_in_reverse() -> None:
    known = corpus.of_shape(Shape.of(2, 4))[0]
    rng = random.Random("compose")
    for _ in range(20):
        drawn = random_transforms(known.puzzle.shape, rng, count=8)
        image, mapped = apply_all(drawn, known.puzzle), apply_all(drawn, known.solution)
        assert is_solution(image, mapped)
        shapes = {image.shape, known.puzzle.shape}
        assert shapes <= {Shape.of(2, 4), Shape.of(4, 2)}
        assert apply_all([t.inverse() for t in reversed(drawn)], image) == known.puzzle
    assert any(t.name == "transpose" for t in drawn)


def test_random_draws_are_seeded_and_avoid_the_identity() -> None:
    shape = Shape.of(3, 3)
    first = random_transforms(shape, random.Random(7), count=10)
    assert first == random_transforms(shape, random.Random(7), count=10)
    assert first != random_transforms(shape, random.Random(8), count=10)
    rng = random.Random(1)
    for kind in KINDS:
        assert not any(random_transform(kind, Shape.of(2, 2), rng).is_identity() for _ in range(50))


def test_a_band_of_one_row_can_only_stay_as_it_is() -> None:
    t = random_transform("permute_rows_in_band", Shape.of(1, 4), random.Random(0))
    assert t.is_identity() and t.kwargs["order"] == (0,)


def test_a_transform_is_a_printable_hashable_picklable_value() -> None:
    t = Transform("permute_rows_in_band", band=2, order=(1, 2, 0))
    assert str(t) == "permute_rows_in_band(band=2, order=(1, 2, 0))"
    assert repr(t) == "Transform('permute_rows_in_band', band=2, order=(1, 2, 0))"
    assert t == Transform("permute_rows_in_band", order=[1, 2, 0], band=2)
    assert len({t, Transform("permute_rows_in_band", band=2, order=(1, 2, 0))}) == 1
    assert pickle.loads(pickle.dumps(t)) == t
    assert t.kwargs == {"band": 2, "order": (1, 2, 0)}
    relabel = Transform("relabel_digits", mapping={1: 2, 2: 1, 3: 4, 4: 3})
    assert str(relabel) == "relabel_digits(mapping={1: 2, 2: 1, 3: 4, 4: 3})"
    assert relabel == Transform("relabel_digits", mapping=(2, 1, 4, 3))
    assert str(Transform("transpose")) == "transpose()"
    assert Transform("transpose")(NUMBERED) == transpose(NUMBERED)


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda: relabel_digits(NUMBERED, (1, 2, 3)), "lists the images of 1..4"),
        (lambda: relabel_digits(NUMBERED, (1, 1, 3, 4)), "permutation of 1..4"),
        (lambda: relabel_digits(NUMBERED, {1: 2, 2: 1}), "each digit 1..4"),
        (lambda: permute_bands(NUMBERED, (0, 1, 2)), "order of the 2 bands"),
        (lambda: permute_stacks(NUMBERED, (0, 0)), "permutation of 0..1"),
        (lambda: permute_rows_in_band(NUMBERED, 2, (1, 0)), "band 2 does not exist"),
        (lambda: permute_columns_in_stack(NUMBERED, -1, (1, 0)), "stack -1 does not exist"),
        (lambda: permute_columns_in_stack(NUMBERED, 0, (2, 1, 0)), "columns in a stack"),
        (lambda: Transform("rotate"), "no transformation is named 'rotate'"),
        (lambda: Transform("permute_bands"), "permute_bands takes order"),
        (lambda: Transform("transpose", order=(0,)), "transpose takes no parameters"),
        (lambda: Transform("permute_bands", order=(0.5, 1)), "not a whole number"),
        (lambda: random_transform("rotate", Shape.of(3, 3), random.Random(0)), "no transformation"),
    ],
)
def test_parameters_that_do_not_fit_are_refused(call: object, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        call()  # type: ignore[operator]


def test_a_transform_refuses_a_grid_its_parameters_do_not_fit() -> None:
    t = Transform("permute_bands", order=(2, 0, 1))
    with pytest.raises(ValueError, match="order of the 2 bands"):
        t.apply(NUMBERED)


def test_the_module_examples_run() -> None:
    assert doctest.testmod(transforms).failed == 0
