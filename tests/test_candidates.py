"""True candidates (``sudokit.features.candidates``): each cell's digits that some solution has, and how many do.

Every answer is checked against all the solutions enumerated by ``count_solutions`` (an independent
path: one search to the end, no placing of digits one by one).
"""

from __future__ import annotations

import pytest

from sudokit import count_solutions, parse_puzzle
from sudokit.features.candidates import MAX_CAP, true_candidates

MANY = "....5..4...8.1.5..4......12.7.5.2.8....6.3....4.1.9...25.....98..1.2.6...8.....2."
#: A 4x4 with both diagonals and one given: a variant puzzle with a dozen solutions.
DIAGONALS = (
    '{"box": "2x2", "givens": "1...............", "constraints": '
    '[{"kind": "diagonal", "direction": "main"}, {"kind": "diagonal", "direction": "anti"}]}'
)


def enumerated(puzzle: str) -> list[bytes]:
    every = count_solutions(puzzle, limit=10_000, keep=None)
    assert every.exact
    return [bytes(s.cells) for s in every.solutions]


#: Classic puzzles decide each digit on its own; variant ones with a cap of 1 narrow a cell at a time.
CASES = [(MANY, "backtrack", 3), (MANY, "backtrack", 1), (DIAGONALS, "backtrack", 1), (DIAGONALS, "cp-sat", 1)]


@pytest.mark.parametrize(("puzzle", "strategy", "cap"), [*CASES, (DIAGONALS, "cp-sat", 5)])
def test_the_counts_are_those_of_every_solution_capped(puzzle: str, strategy: str, cap: int) -> None:
    solutions = enumerated(puzzle)
    grid = parse_puzzle(puzzle)
    found = true_candidates(puzzle, strategy, cap=cap)
    assert (found.status, found.cap, found.strategy) == ("solved", cap, strategy)
    n = grid.n
    for cell in range(n * n):
        for digit in range(1, n + 1):
            having = sum(1 for s in solutions if s[cell] == digit)
            if grid.cells[cell]:
                having = len(solutions) if digit == grid.cells[cell] else 0  # a given: the puzzle's solutions
            assert found.counts[cell * n + digit - 1] == min(cap, having), (cell, digit)
        assert found.digits(cell) == tuple(sorted({s[cell] for s in solutions}))


def test_a_puzzle_without_a_solution_has_no_candidates() -> None:
    found = true_candidates(".234....1.......")
    assert found.status == "unsolvable" and not any(found.counts)


def test_the_time_limit_bounds_the_whole_job() -> None:
    found = true_candidates("." * 81, "backtrack", cap=MAX_CAP, time_limit=0.2)
    assert found.status == "timeout" and found.error is not None


@pytest.mark.parametrize("cap", [0, MAX_CAP + 1, True, 1.5])
def test_a_cap_out_of_range_is_refused(cap: object) -> None:
    with pytest.raises(ValueError, match="cap must be a whole number"):
        true_candidates(MANY, cap=cap)  # type: ignore[arg-type]


# --- sudokit.candidates: every engine, the fast path, the cross-check ----------------------------------------------

ENGINES = ["backtrack", "numba", "cp-sat", "python-constraint", "sat"]
#: A 4x4 with one given (dozens of solutions), a 6x6 with a few, and the diagonal 4x4 above: small enough that
#: every solution is enumerated.
SMALL = {
    "4x4": "1...............",
    "6x6": "1234..........1............6.....312",
    "diagonals": DIAGONALS,
}


def expected_counts(puzzle: str, cap: int) -> list[int]:
    """Each (cell, digit) pair's number of solutions, capped: from every solution, enumerated by backtrack's count."""
    solutions, grid = enumerated(puzzle), parse_puzzle(puzzle)
    n = grid.n
    return [
        min(cap, len(solutions) if grid.cells[cell] == digit else 0)
        if grid.cells[cell]
        else min(cap, sum(1 for s in solutions if s[cell] == digit))
        for cell in range(n * n)
        for digit in range(1, n + 1)
    ]


@pytest.mark.parametrize("cap", [1, 4])
@pytest.mark.parametrize("name", list(SMALL))
@pytest.mark.parametrize("strategy", ENGINES)
def test_every_engine_finds_the_candidates_of_every_solution(strategy: str, name: str, cap: int) -> None:
    from sudokit import candidates, get_strategy
    from sudokit.engines.strategy import capabilities_of

    puzzle = SMALL[name]
    if capabilities_of(get_strategy(strategy)).unsupported_kinds(parse_puzzle(puzzle)):
        pytest.skip(f"{strategy} does not take the rules of {name}")
    found = candidates(puzzle, strategy=strategy, cap=cap, time_limit=60)
    assert (found.status, found.strategy, found.cap) == ("solved", strategy, cap)
    assert list(found.counts) == expected_counts(puzzle, cap)
    assert found.fast is (strategy in ("sat", "cp-sat"))  # their own method; the others through solve


@pytest.mark.parametrize("cap", [1, 3])
@pytest.mark.parametrize("puzzle", [MANY, DIAGONALS, SMALL["6x6"]])
@pytest.mark.parametrize("strategy", ["sat", "cp-sat"])
def test_the_fast_path_and_the_generic_path_agree(strategy: str, puzzle: str, cap: int) -> None:
    fast = true_candidates(puzzle, strategy, cap=cap)
    generic = true_candidates(puzzle, strategy, cap=cap, fast=False)
    assert (fast.fast, generic.fast) == (True, False)
    assert fast.status == generic.status == "solved"
    assert fast.counts == generic.counts


def test_sudokit_candidates_takes_the_fast_engine_unless_told() -> None:
    from sudokit import candidates

    found = candidates(MANY)
    assert (found.strategy, found.fast, found.status) == ("sat", True, "solved")
    assert found.to_dict()["candidates"][0] == sorted({s[0] for s in enumerated(MANY)})


def test_a_puzzle_without_a_solution_has_no_candidates_on_the_fast_path() -> None:
    found = true_candidates(".234....1.......", "sat")
    assert (found.status, found.fast) == ("unsolvable", True) and not any(found.counts)


@pytest.mark.parametrize("strategy", ["sat", "cp-sat"])
def test_the_time_limit_ends_the_fast_path_as_a_timeout(strategy: str) -> None:
    import resource

    true_candidates(MANY, strategy)  # loaded: the time below is the job's
    before = resource.getrusage(resource.RUSAGE_SELF).ru_utime
    found = true_candidates("." * 81, strategy, cap=MAX_CAP, time_limit=0.5)  # an empty 9x9: 729,000 witnesses
    used = resource.getrusage(resource.RUSAGE_SELF).ru_utime - before
    assert (found.status, found.fast) == ("timeout", True) and found.error is not None
    assert all(0 <= c <= MAX_CAP for c in found.counts)  # the witnesses found so far, if any: lower bounds
    assert used < 10  # CPU seconds: it stopped, far from the hours the whole count would take


def test_a_forged_witness_is_an_error_not_a_candidate() -> None:
    from tests.plugins.candidates import ForgedWitness

    found = true_candidates(MANY, ForgedWitness())
    assert found.status == "error"
    assert "'forged-witness' failed: returned an invalid grid" in (found.error or "")
    assert not any(found.counts)


def test_a_fast_method_that_ignores_its_time_limit_is_stopped() -> None:
    from tests.plugins.candidates import Stalls

    found = true_candidates(MANY, Stalls(), time_limit=0.2)
    assert found.status == "error" and "time limit" in (found.error or "")


def test_check_catches_an_engine_that_hides_candidates() -> None:
    from sudokit import candidates
    from tests.plugins.candidates import OneWitness

    lied = candidates(MANY, strategy=OneWitness(), check="backtrack")
    assert lied.status == "error" and lied.checked is None
    assert "one-witness and backtrack disagree on digit" in (lied.error or "")
    honest = candidates(MANY, strategy="sat", check="backtrack", cap=2)
    assert (honest.status, honest.checked) == ("solved", "backtrack")
    assert list(honest.counts) == expected_counts(MANY, 2)


def test_check_shares_the_time_limit() -> None:
    from sudokit import candidates

    found = candidates("." * 81, strategy="sat", cap=MAX_CAP, time_limit=0.2, check="backtrack")
    assert found.status == "timeout" and found.checked is None
