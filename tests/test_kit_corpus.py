"""The kit's corpus and shapes groups: each check fails on its broken engine, saying what, and passes on a good one."""

from __future__ import annotations

import pytest

from sudokit import Capabilities, Grid, Result, Shape, Status, get_strategy
from sudokit.testing import all_checks, check_strategy, corpus
from tests.kit.base import Reference
from tests.kit.mutants_corpus import MUTANTS

GROUPS = ("corpus", "shapes")
CHECKS = [c.name for c in all_checks() if c.group in GROUPS]

#: A fragment of the message each check fails its broken engine with.
EXPECTED = {
    "solves_unique_corpus": "returned status unsolvable with count 0, exact True; expected solved (it has one "
    "solution: unique.txt",
    "proves_unique_corpus": "with limit 2: count 1, exact False; expected count 1, exact True (it has exactly one",
    "solves_seventeen_clue": "returned status unsolvable with count 0, exact True; expected solved (it has one "
    "solution: seventeen.txt",
    "counts_multi_solution": "with limit 358: count 356, exact True; expected count 357, exact True (multi.txt",
    "stops_at_limit_on_many_solutions": "with limit 100: count 100, exact True; expected count 100, exact False "
    "(it has 357 solutions",
    "unsolvable_at_a_glance": "raised ValueError: bad candidate table: digit 3 has no place left in row 7",
    "unsolvable_after_propagation": "returned status error (propagation broke the grid: digit 3 has no place left in "
    "column 7) with count 0, exact False; expected unsolvable, count 0, exact True (naked and hidden singles",
    "unsolvable_needs_search": "returned status timeout with count 0, exact False; expected unsolvable, count 0, exact "
    "True (only a search proves it",
    "solved_grid_is_its_own_solution": "returned status unsolvable with count 0, exact True; expected solved (the "
    "puzzle is already solved)",
    "one_blank_filled": "filled row 1, column 1 with 6; expected 5, the one digit its row, column and box miss",
    "empty_grid_counted_to_limit": "returned the same solution twice (solutions 1 and 2 of 100)",
    "empty_4x4_counted_exactly": "with limit 300: count 12, exact True; expected count 288, exact True",
    "box_2x2": "returned an invalid grid (solution 2 of 2): the box at row 1, column 1 is not a permutation of 1..4 "
    "(a 4x4 puzzle of 2x2 boxes)",
    "box_2x3": "the box at row 1, column 1 is not a permutation of 1..6 (a 6x6 puzzle of 2x3 boxes)",
    "box_3x2": "the box at row 1, column 1 is not a permutation of 1..6 (a 6x6 puzzle of 3x2 boxes)",
    "box_2x4": "the box at row 1, column 1 is not a permutation of 1..8 (an 8x8 puzzle of 2x4 boxes)",
    "box_3x3": "the box at row 1, column 1 is not a permutation of 1..9 (a 9x9 puzzle of 3x3 boxes)",
    "box_3x4": "the box at row 1, column 1 is not a permutation of 1..12 (a 12x12 puzzle of 3x4 boxes)",
    "box_4x4": "the box at row 1, column 1 is not a permutation of 1..16 (a 16x16 puzzle of 4x4 boxes)",
    "box_5x5": "returned status timeout with count 0; expected solved (a 25x25 puzzle of 5x5 boxes with one solution",
}


def test_the_groups_have_the_checks_asked_for() -> None:
    assert sorted(CHECKS) == sorted(EXPECTED) == sorted(MUTANTS)


@pytest.mark.parametrize("name", CHECKS)
def test_check_fails_on_its_broken_engine(name: str) -> None:
    outcome = check_strategy(MUTANTS[name], checks=[name], on_fail=None).outcomes[0]
    assert outcome.status == "failed", outcome
    assert EXPECTED[name] in outcome.message, outcome.message
    assert outcome.puzzle, "the failure names no puzzle"


@pytest.mark.parametrize("name", CHECKS)
def test_check_passes_on_a_good_engine(name: str) -> None:
    outcome = check_strategy(Reference(), checks=[name], on_fail=None).outcomes[0]
    if name == "box_5x5":
        assert outcome.status == "skipped" and "claims boards up to 16x16, not 25x25" in outcome.message
    else:
        assert outcome.status == "passed", outcome


def test_broken_engines_fail_their_own_group_sparingly() -> None:
    """Each broken engine fails its own check; those of the corpus group fail few others of the two groups."""
    allowed = {  # where a check is a special case of another (a 9x9 board, 17-clue puzzles among the unique)
        "proves_unique_corpus": {"box_3x3"},
        "solves_seventeen_clue": {"solves_unique_corpus", "proves_unique_corpus"},
        "box_2x2": {"empty_4x4_counted_exactly"},
    }
    for name, engine in MUTANTS.items():
        if name == "box_3x3":
            continue  # an engine ignoring 9x9 boxes fails most 9x9 checks, rightly
        report = check_strategy(engine, checks=CHECKS, on_fail=None)
        failed = {o.check for o in report.failures}
        assert name in failed
        assert failed - {name} <= allowed.get(name, set()), (name, failed)


class SkipsCounting(Reference):
    """A good engine that does not claim counting, nor boards past 9x9."""

    name = "no-counting"
    capabilities = Capabilities(max_side=9, counting=False)

    def solve(self, puzzle: Grid, *, limit: int = 1, **kwargs: object) -> Result:
        assert limit == 1, "asked to count"
        return super().solve(puzzle, limit=limit, **kwargs)  # type: ignore[arg-type]


def test_checks_skip_what_an_engine_does_not_claim() -> None:
    report = check_strategy(SkipsCounting(), checks=CHECKS, on_fail=None)
    status = {o.check: o.status for o in report.outcomes}
    assert report.ok, str(report)
    counting = {
        "proves_unique_corpus",
        "counts_multi_solution",
        "stops_at_limit_on_many_solutions",
        "empty_grid_counted_to_limit",
        "empty_4x4_counted_exactly",
    }
    assert {name for name, s in status.items() if s == "skipped"} == counting | {"box_3x4", "box_4x4", "box_5x5"}
    reasons = {o.check: o.message for o in report.outcomes}
    assert "does not claim counting" in reasons["counts_multi_solution"]
    assert "claims boards up to 9x9, not 12x12" in reasons["box_3x4"]


class NineOnly(Reference):
    """A good engine claiming 9x9 boards only."""

    name = "nine-only"
    capabilities = Capabilities(box_shapes=frozenset({Shape.of(3, 3)}))


def test_corpus_checks_on_boards_an_engine_does_not_claim_are_skipped() -> None:
    report = check_strategy(NineOnly(), checks=CHECKS, on_fail=None)
    skipped = {o.check for o in report.outcomes if o.status == "skipped"}
    assert skipped == {"empty_4x4_counted_exactly"} | {
        f"box_{s}" for s in ("2x2", "2x3", "3x2", "2x4", "3x4", "4x4", "5x5")
    }
    assert report.ok, str(report)


def test_every_box_shape_has_a_check_and_puzzles() -> None:
    shapes = {name[4:] for name in CHECKS if name.startswith("box_")}
    assert shapes == {"2x2", "2x3", "3x2", "2x4", "3x3", "3x4", "4x4", "5x5"}
    for text in shapes:
        assert corpus.of_shape(Shape.parse(text)), text


class Plain(Reference):
    """A good engine without propagation: backtrack's plain order (first blank, digits in order, no singles)."""

    name = "plain"

    def __init__(self) -> None:
        self.inner = get_strategy("backtrack", order="plain")


def test_unsolvable_after_propagation_passes_an_engine_that_never_propagates() -> None:
    """The check asks for the answer, not the method: a plain backtracker without singles passes it.

    (The plain order takes 10 s on one puzzle of unsolvable_at_a_glance, whose digit with no place in
    a box it sees only on reaching that box, and over 30 s on some of unsolvable_needs_search's.)
    """
    report = check_strategy(Plain(), checks=["unsolvable_after_propagation"], on_fail=None)
    assert report.ok, str(report)


def test_the_solved_grid_and_the_empty_boards_are_what_the_checks_say() -> None:
    grid = corpus.load("unique")[0].solution
    assert grid is not None and grid.is_complete()
    result = Reference().solve(Grid.empty(Shape.of(2, 2)), limit=300, keep=1)
    assert (result.status, result.count, result.exact) == (Status.SOLVED, 288, True)
