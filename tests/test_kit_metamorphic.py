"""The metamorphic checks: each fails on an engine that breaks its symmetry only, and passes a good engine."""

from __future__ import annotations

import re
import time

import pytest

from sudokit import Capabilities, Shape
from sudokit.testing import all_checks, check_strategy
from sudokit.testing.checks_metamorphic import puzzles

from .kit.base import Reference
from .kit.mutants_metamorphic import MUTANTS, DropsSmallestSolution
from .timing import hang_guard

CHECKS = [c.name for c in all_checks() if c.group == "metamorphic"]

#: What each check's failure on its mutant says: the transform, with its parameters, and both counts.
MESSAGES = {
    "relabel_digits": r"^relabel_digits\(mapping=\{1: \d, 2: \d, .*\}\) maps the puzzle to ",
    "permute_rows_in_band": r"^permute_rows_in_band\(band=\d, order=\(\d, \d(, \d)?\)\) maps the puzzle to ",
    "permute_bands": r"^permute_bands\(order=\(\d, \d(, \d)?\)\) maps the puzzle to ",
    "permute_columns_in_stack": r"^permute_columns_in_stack\(stack=\d, order=\(\d, \d(, \d)?\)\) maps the puzzle to ",
    "permute_stacks": r"^permute_stacks\(order=\(\d, \d(, \d)?\)\) maps the puzzle to ",
    "transpose": r"^transpose\(\) maps the puzzle to ",
}
COUNTS = r"the puzzle has count \d+ \(exact True\), its image count \d+ \(exact (True|False)\); expected the same"


class Claims(Reference):
    """Reference with other capabilities."""

    def __init__(self, capabilities: Capabilities) -> None:
        super().__init__()
        self.capabilities = capabilities


def test_the_group_has_the_six_checks() -> None:
    assert list(MESSAGES) == CHECKS
    assert sorted(MUTANTS) == sorted(CHECKS)


def test_the_puzzles_are_a_unique_9x9_a_multi_solution_9x9_and_a_2x3_board() -> None:
    unique, multi, small = puzzles()
    assert (unique.puzzle.n, unique.count, multi.puzzle.n, small.count) == (9, 1, 9, 1)
    assert 8 <= multi.count <= 20 and small.puzzle.shape == Shape.of(2, 3)


@pytest.mark.parametrize("name", CHECKS)
def test_a_good_engine_passes(name: str) -> None:
    report = check_strategy(Reference(), checks=[name], on_fail=None)
    assert [o.status for o in report.outcomes] == ["passed"], str(report)


@pytest.mark.parametrize("name", CHECKS)
def test_the_check_fails_on_its_broken_engine(name: str) -> None:
    outcome = check_strategy(MUTANTS[name], checks=[name], on_fail=None).outcomes[0]
    assert outcome.status == "failed", outcome
    assert re.search(MESSAGES[name], outcome.message), outcome.message
    assert re.search(COUNTS, outcome.message), outcome.message
    assert outcome.puzzle in {k.puzzle.to_line() for k in puzzles()}


@pytest.mark.parametrize("name", CHECKS)
def test_a_broken_engine_keeps_every_other_symmetry(name: str) -> None:
    others = [c for c in CHECKS if c != name]
    report = check_strategy(MUTANTS[name], checks=others, on_fail=None)
    assert report.ok and all(o.status == "passed" for o in report.outcomes), str(report)


def test_the_checks_compare_the_solutions_not_only_the_counts() -> None:
    outcome = check_strategy(DropsSmallestSolution(), checks=["relabel_digits"], on_fail=None).outcomes[0]
    assert outcome.status == "failed"
    assert re.search(
        r"the images of the puzzle's (\d+) solutions are not the image's \1 solutions: 1 missing", outcome.message
    )


def test_transpose_needs_both_box_shapes_of_a_non_square_board() -> None:
    # Claims 2x3 boxes but not 3x2: the transposed 2x3 board is not asked, the 9x9 ones are.
    engine = Claims(Capabilities(box_shapes=frozenset({"2x3", "3x3"})))
    assert check_strategy(engine, checks=CHECKS, on_fail=None).ok
    broken = MUTANTS["transpose"]
    only_small = Claims(Capabilities(box_shapes=frozenset({"2x3"})))
    only_small.solve = broken.solve  # type: ignore[method-assign]
    report = check_strategy(only_small, checks=["transpose", "relabel_digits"], on_fail=None)
    assert [o.status for o in report.outcomes] == ["skipped", "passed"]
    assert "claims none of the boards these checks transform" in report.outcomes[0].message


def test_a_small_board_alone_is_transformed_too() -> None:
    class SmallBroken(type(MUTANTS["permute_stacks"])):  # type: ignore[misc]
        capabilities = Capabilities(box_shapes=frozenset({"2x3"}))

    outcome = check_strategy(SmallBroken(), checks=["permute_stacks"], on_fail=None).outcomes[0]
    assert outcome.status == "failed" and "permute_stacks(order=(1, 0))" in outcome.message


def test_an_engine_that_does_not_count_is_asked_for_one_solution_of_the_unique_puzzles() -> None:
    engine = Claims(Capabilities(counting=False))
    report = check_strategy(engine, checks=CHECKS, on_fail=None)
    assert all(o.status == "passed" for o in report.outcomes), str(report)

    class NotCounting(type(MUTANTS["permute_bands"])):  # type: ignore[misc]
        capabilities = Capabilities(counting=False)

    # With limit 1 the broken engine's "unique, not exact" is what every engine says: nothing to see.
    assert check_strategy(NotCounting(), checks=["permute_bands"], on_fail=None).ok


def test_an_engine_claiming_none_of_the_boards_is_skipped_with_the_reason() -> None:
    report = check_strategy(Claims(Capabilities(box_shapes=frozenset({"4x4"}))), checks=CHECKS, on_fail=None)
    assert {o.status for o in report.outcomes} == {"skipped"}
    assert all("claims none of the boards" in o.message for o in report.outcomes)


def test_the_group_is_quick_on_a_good_engine() -> None:
    start = time.process_time()  # CPU time: the group's wall time grows with the machine's load
    report = check_strategy(Reference(), checks=CHECKS, on_fail=None)
    assert time.process_time() - start < 2.0, str(report)
    assert sum(o.seconds for o in report.outcomes) < hang_guard(2.0), str(report)
