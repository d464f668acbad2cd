"""The api checks of the conformance kit: each fails on the engine broken its way, and passes the good one."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import pytest

from sudokit import Capabilities, Grid, Result, Shape, Status
from sudokit.testing import all_checks, check_strategy, corpus
from sudokit.testing._kit import Outcome
from tests.kit.base import PlainReference, Reference
from tests.kit.mutants_api import MUTANTS, PlainDisagrees

API = [c.name for c in all_checks() if c.group == "api"]
#: A puzzle with one solution.
UNIQUE = corpus.load("unique")[0].puzzle

#: For each check, a fragment of the message its mutant must fail with.
EXPECTED = {
    "has_name_and_description": "is not one line",
    "declares_valid_capabilities": "its capabilities attribute 'everything' cannot be read",
    "returns_result": "solve returned None, not a sudokit.Result",
    "names_itself_in_result": "result.strategy is 'backtrack', not the engine's name 'broken-wrapped-name'",
    "returns_the_puzzle_asked": "not the puzzle asked",
    "status_is_a_status": "returned status error (error 'no solution') for a puzzle with no solution",
    "solved_means_a_solution": "status solved with count 1 and no solution (limit 1)",
    "unsolvable_means_proved_none": "status unsolvable with count 0, exact False and no solution",
    "elapsed_is_wall_seconds": "times the wall time: milliseconds?",
    "elapsed_is_measured": "elapsed was 0.0 in all",
    "stats_are_json_safe": "stats['ratio'] is nan",
    "limit_1_finds_one": "count 1, 1 solution, exact True with limit 1",
    "limit_2_proves_unique": "count 1, exact False with limit 2 for a puzzle with one solution",
    "limit_2_finds_second": "count 1, exact False with limit 2 for a puzzle with 3 solutions",
    "limit_n_counts_exactly": "count 7, exact True, 7 solutions with limit 13 for a puzzle with 8 solutions",
    "limit_at_count_stops_there": "count 7 and 7 solutions with limit 8 for a puzzle with 8 solutions",
    "limit_below_count_stops": "count 3, exact True, 3 solutions with limit 3",
    "keep_is_honoured": "count 10 and 10 solutions with limit 10, keep 3",
    "solutions_are_distinct": "solutions 1 and 20 of 20 are the same grid",
    "solutions_solve_the_puzzle": "solution 1 of 1 does not solve the puzzle: column",
    "solutions_have_puzzle_shape": "has 3x2 boxes and 36 cells; the puzzle has 2x3 boxes",
    "keeps_every_given": "the given 5 became 6",
    "does_not_mutate_puzzle": "solve changed the puzzle's cells",
    "pickles": "cannot pickle '_thread.lock' object",
    "repeated_solves_agree": "solve 3 of 3 answered status solved, count 11, exact False, solve 1",
    "no_state_between_puzzles": "solve 3 of 4 (a puzzle with 3 solutions, after an unsolvable one",
    "no_time_limit_works": "solve(limit=1, time_limit=None) raised TypeError",
    "huge_time_limit_works": "time_limit=10000000000.0) raised OverflowError",
    "candidates_method_is_true": "in 0 of its witnesses: the true candidates would miss it",
    "solve_plain_agrees_with_solve": "answered status solved, count 7, exact True; solve answered status solved",
}

#: The checks about the engine object itself, whose failures (by these mutants) name no puzzle.
NO_PUZZLE = {"has_name_and_description", "declares_valid_capabilities", "pickles"}


def outcome(engine: object, name: str) -> Outcome:
    """How check ``name`` went on ``engine``."""
    return check_strategy(engine, checks=[name], on_fail=None).outcomes[0]  # type: ignore[arg-type]


def test_the_group_has_its_checks_and_every_one_a_mutant() -> None:
    assert len(API) >= 25
    assert set(MUTANTS) == set(API) == set(EXPECTED)


@pytest.mark.parametrize("name", API)
def test_the_mutant_fails_its_check(name: str) -> None:
    result = outcome(MUTANTS[name], name)
    assert result.status == "failed", result
    assert EXPECTED[name] in result.message
    assert (result.puzzle is None) == (name in NO_PUZZLE)


@pytest.mark.parametrize("name", API)
def test_the_reference_passes(name: str) -> None:
    result = outcome(PlainReference(), name)  # Reference, with the optional solve_plain that solve_plain_... checks
    assert result.status == "passed", result


# --- naming and declaring ------------------------------------------------------------------------


def named(name: object = "fine-name", description: object = "one line") -> Reference:
    engine = Reference()
    engine.name = name  # type: ignore[assignment]
    engine.description = description  # type: ignore[assignment]
    return engine


@pytest.mark.parametrize(
    ("name", "description", "fragment"),
    [
        ("two words", "one line", "name 'two words' holds whitespace"),
        ("tab\tname", "one line", "holds whitespace"),
        ("", "one line", "name is empty"),
        (None, "one line", "name is None, not a str"),
        ("fine", "   ", "description is empty"),
        ("fine", b"bytes", "not a str"),
        ("fine", "line\r\nbreak", "is not one line"),
    ],
)
def test_names_and_descriptions_that_fail(name: object, description: object, fragment: str) -> None:
    result = outcome(named(name, description), "has_name_and_description")
    assert result.status == "failed"
    assert fragment in result.message


@pytest.mark.parametrize("declared", [None, Capabilities(max_side=9), {"counting": False}])
def test_capabilities_that_read(declared: object) -> None:
    engine = Reference()
    engine.capabilities = declared  # type: ignore[assignment]
    assert outcome(engine, "declares_valid_capabilities").status == "passed"


@pytest.mark.parametrize(
    ("declared", "fragment"),
    [({"fast": True}, "unknown field 'fast'"), ({"counting": "yes"}, "counting must be True or False"), (3, "not 3")],
)
def test_capabilities_that_do_not_read(declared: object, fragment: str) -> None:
    engine = Reference()
    engine.capabilities = declared  # type: ignore[assignment]
    result = outcome(engine, "declares_valid_capabilities")
    assert result.status == "failed"
    assert "cannot be read" in result.message and fragment in result.message
    assert "declare a sudokit.Capabilities" in result.message


# --- what applies to whom ------------------------------------------------------------------------


class NoCounting(PlainReference):
    """Claims no counting: the checks needing limit above 1 skip, the others ask with limit 1."""

    name = "no-counting"
    capabilities = Capabilities(counting=False, max_side=16)


class NoKeep(Reference):
    """A good engine whose solve takes no keep."""

    name = "no-keep"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:  # type: ignore[override]
        return super().solve(puzzle, limit=limit, time_limit=time_limit)


class SmallBoards(PlainReference):
    """Claims boards up to 6x6 only."""

    name = "small-boards"
    capabilities = Capabilities(max_side=6)


def test_an_engine_without_counting_passes_or_skips_with_the_reason() -> None:
    report = check_strategy(NoCounting(), checks=API, on_fail=None)
    assert report.ok, str(report)
    skipped = {o.check: o.message for o in report.outcomes if o.status == "skipped"}
    limits = {"limit_2_proves_unique", "limit_2_finds_second", "limit_n_counts_exactly", "limit_at_count_stops_there"}
    assert limits | {"limit_below_count_stops", "keep_is_honoured", "solutions_are_distinct"} == set(skipped)
    assert all("does not claim counting" in message for message in skipped.values())


def test_keep_is_skipped_for_an_engine_not_taking_it() -> None:
    result = outcome(NoKeep(), "keep_is_honoured")
    assert result.status == "skipped"
    assert "takes no keep" in result.message


def test_an_engine_without_9x9_boards_skips_the_9x9_checks_but_not_the_shapes() -> None:
    report = check_strategy(SmallBoards(), checks=API, on_fail=None)
    assert report.ok, str(report)
    ran = {o.check for o in report.outcomes if o.status == "passed"}
    assert ran == {"has_name_and_description", "declares_valid_capabilities", "solutions_have_puzzle_shape"}
    assert all("9x9" in o.message for o in report.outcomes if o.status == "skipped")


# --- finer points of single checks ---------------------------------------------------------------


class Altered(Reference):
    """Reference with its results altered by ``change(result, limit)``."""

    def __init__(self, change: Any) -> None:
        super().__init__()
        self.name = "altered"
        self.change = change

    def solve(self, puzzle: Grid, *, limit: int = 1, **kwargs: Any) -> Result:  # type: ignore[override]
        return self.change(super().solve(puzzle, limit=limit, **kwargs), limit)


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (lambda r, _: replace(r, elapsed=0), "elapsed is 0, a int, not a float of seconds"),
        (lambda r, _: replace(r, elapsed=-1.0), "elapsed is -1.0"),
        (lambda r, _: replace(r, elapsed=math.inf), "elapsed is inf"),
        (lambda r, _: replace(r, elapsed=r.elapsed * 1e6 + 1.0), "microseconds or nanoseconds?"),
    ],
)
def test_elapsed_that_fails(change: Any, fragment: str) -> None:
    result = outcome(Altered(change), "elapsed_is_wall_seconds")
    assert result.status == "failed"
    assert fragment in result.message


@pytest.mark.parametrize(
    ("stats", "fragment"),
    [
        ({1: 2}, "stats key 1 is a int, not a str"),
        ({"depths": [1, 2]}, "stats['depths'] is [1, 2], a list"),
        ({"nodes": None}, "stats['nodes'] is None"),
        ([("nodes", 1)], "not a mapping"),
    ],
)
def test_stats_that_fail(stats: object, fragment: str) -> None:
    result = outcome(Altered(lambda r, _: replace(r, stats=stats)), "stats_are_json_safe")
    assert result.status == "failed"
    assert fragment in result.message


def test_stats_of_every_allowed_kind_pass() -> None:
    stats = {"flag": True, "nodes": 3, "rate": 0.5, "solver": "x"}
    assert outcome(Altered(lambda r, _: replace(r, stats=stats)), "stats_are_json_safe").status == "passed"


def test_a_str_status_is_no_status() -> None:
    result = outcome(Altered(lambda r, _: replace(r, status=r.status.value)), "status_is_a_status")
    assert result.status == "failed"
    assert "status is 'solved', a str, not a sudokit.Status" in result.message


def test_an_error_message_with_a_good_status_fails() -> None:
    result = outcome(Altered(lambda r, _: replace(r, error="all fine")), "status_is_a_status")
    assert result.status == "failed"
    assert "status solved with error 'all fine': error is None unless the status is error" in result.message


def test_a_solvable_puzzle_called_unsolvable_fails() -> None:
    def unsolvable(r: Result, _: int) -> Result:
        return Result(Status.UNSOLVABLE, r.puzzle, r.strategy, exact=True, elapsed=r.elapsed)

    result = outcome(Altered(unsolvable), "solved_means_a_solution")
    assert result.status == "failed"
    assert "status unsolvable, count 0, exact True with limit 1 for a puzzle with 1 solution; expected solved" in (
        result.message
    )


class Prover(Reference):
    """Goes on past the limit to see whether there is another solution: exact True at limit == count."""

    name = "prover"

    def solve(self, puzzle: Grid, *, limit: int = 1, keep: int | None = None, **kwargs: Any) -> Result:  # type: ignore[override]
        result = super().solve(puzzle, limit=limit + 1, keep=keep, **kwargs)
        if result.count > limit:
            return replace(result, count=limit, solutions=result.solutions[:limit], exact=False)
        return result  # exact True: the search finished, at the limit or below


def test_exact_true_at_the_limit_is_accepted_when_true() -> None:
    report = check_strategy(Prover(), checks=API, on_fail=None)
    assert report.ok, str(report)
    assert Prover().solve(UNIQUE, limit=1).exact  # it does say exact True at the limit


def test_a_shared_shape_table_changed_fails() -> None:
    shape = Shape.of(3, 3)
    peers = shape.peers

    class Scribbler(Reference):
        name = "scribbler"

        def solve(self, puzzle: Grid, **kwargs: Any) -> Result:  # type: ignore[override]
            object.__setattr__(puzzle.shape, "peers", tuple(reversed(peers)))
            return super().solve(puzzle, **kwargs)

    try:
        result = outcome(Scribbler(), "does_not_mutate_puzzle")
    finally:
        object.__setattr__(shape, "peers", peers)
    assert result.status == "failed"
    assert "solve changed the shared Shape 3x3's table peers" in result.message


def test_a_copy_answering_otherwise_fails() -> None:
    class Original(Reference):
        """Pickles as an engine that answers otherwise (exact True at limit 1, which is true but not the same)."""

        name = "original"

        def __reduce__(self) -> tuple[object, ...]:
            return (Proves, ())

    result = outcome(Original(), "pickles")
    assert result.status == "failed"
    assert "the engine pickled as given answers status solved, count 1, exact True, the original" in result.message


class Proves(Reference):
    """Proves uniqueness even at limit 1 (the unpickled copy of ``Original`` above)."""

    name = "original"

    def solve(self, puzzle: Grid, *, limit: int = 1, **kwargs: Any) -> Result:  # type: ignore[override]
        result = super().solve(puzzle, limit=max(limit, 2), **kwargs)
        if limit == 1 and result.count >= 1:
            return replace(result, count=1, solutions=result.solutions[:1], exact=result.count == 1)
        return result


def test_repeated_solves_differing_in_their_solutions_fail() -> None:
    calls = []

    def alternate(r: Result, limit: int) -> Result:
        calls.append(limit)
        if len(calls) == 2 and len(r.solutions) > 1:
            return replace(r, solutions=(*r.solutions[1:], r.solutions[0]))  # the same set: passes
        if len(calls) == 3:
            return replace(r, exact=False)
        return r

    result = outcome(Altered(alternate), "repeated_solves_agree")
    assert result.status == "failed"
    assert result.message.startswith("solve 3 of 3 answered")


# --- the optional solve_plain ----------------------------------------------------------------------

#: For each way ``PlainDisagrees`` breaks its solve_plain, a fragment of the message the check fails with.
PLAIN_FAILS = {
    "swapped": "sudokit refuses its answer, which returned an invalid grid (solution 1 of 1)",
    "status": "answered status timeout, count 0, exact False; solve answered status unsolvable, count 0, exact True",
    "count": "(limit 13) answered status solved, count 7, exact True; solve answered status solved, count 8",
    "exact": "(limit 8) answered status solved, count 8, exact True; solve answered status solved, count 8, exact F",
    "limit": "(limit 2) answered status solved, count 1, exact False; solve answered status solved, count 1, exact T",
    "keep": "keep=3): sudokit refuses its answer, which returned 10 solutions with count 10 (asked to keep 3)",
    "time_limit": "s after the call began: stopped",
    "elapsed": "but the call took",
    "list": "returned an answer that cannot be read: list, not a tuple of 7",
}


@pytest.mark.parametrize("twist", PlainDisagrees.TWISTS)
def test_a_solve_plain_disagreeing_with_solve_fails_exactly_its_check(twist: str) -> None:
    """solve is right and solve_plain wrong in one way: of the api checks, solve_plain_agrees_with_solve alone fails."""
    report = check_strategy(PlainDisagrees(twist), checks=API, on_fail=None)
    failed = [o for o in report.outcomes if o.status != "passed"]
    assert [o.check for o in failed] == ["solve_plain_agrees_with_solve"], str(report)
    assert failed[0].status == "failed" and failed[0].puzzle is not None
    assert PLAIN_FAILS[twist] in failed[0].message, failed[0].message


def test_solve_plain_agrees_with_solve_is_skipped_for_an_engine_without_the_method() -> None:
    result = outcome(Reference(), "solve_plain_agrees_with_solve")
    assert result.status == "skipped"
    assert result.message == "reference: it offers no solve_plain method (optional)"
