"""Engine properties on random puzzles of every board shape: valid answers, equal counts, unsolvable agreed.

The engines are the ones the sudokit distribution registers (``sudokit.available_strategies()``),
loaded through the registry as any engine is, and each gets the boards its ``capabilities`` claim
(``sudokit.capabilities_of``): no engine's name is written here, except in ``SPEED``, the one rule
the capabilities cannot say. The puzzles come from the kit's Hypothesis strategy
(``sudokit.testing.strategies.puzzles``): each is cut from a known solution, and its exact count of
solutions, where cheap, comes from the kit's reference counter, which shares no code with any engine.
Every answer is checked by the independent ``is_solution``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sudokit import (
    Capabilities,
    Grid,
    Result,
    Shape,
    Status,
    available_strategies,
    capabilities_of,
    get_strategy,
    is_solution,
    solve,
)
from sudokit.testing.reference import count_solutions
from sudokit.testing.strategies import KnownPuzzle, puzzles

#: The distribution whose engines these properties cover (a plugin's own test file would name its own).
DISTRIBUTION = "sudokit"
#: Every box shape of a board up to 12x12 (boxes of 1xC, whose boxes are rows, included).
SHAPES = [Shape.of(r, c) for r in range(1, 7) for c in range(1, 7) if 4 <= r * c <= 12]
SMALL = [shape for shape in SHAPES if shape.n <= 9]
TIME_LIMIT = 30.0  # generous: no property here is about time
COUNT_LIMIT = 50
#: Reference-counter nodes per drawn puzzle: enough to count the puzzles whose count an engine reaches below
#: COUNT_LIMIT most of the time, cheap enough not to slow the run down.
COUNT_BUDGET = 100
PROPERTY = settings(database=None, max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@dataclass(frozen=True)
class Speed:
    """How large a puzzle an engine gets here: boards up to ``max_side``, at most ``max_blanks`` of the cells blank."""

    max_side: int
    max_blanks: float


#: Engines slower than the rest by far, keyed by name: a speed is no capability (the engine takes these boards,
#: only slowly), and a deterministic run cannot measure it, so it is written down. python-constraint takes 1-10 s
#: on a 9x9 board with two thirds of it blank and minutes on larger ones; the others take milliseconds.
SPEED = {"python-constraint": Speed(max_side=9, max_blanks=0.6)}


@cache
def engines() -> dict[str, Capabilities]:
    """The registered engines of ``DISTRIBUTION``, loaded, and the capabilities each declares."""
    found = {}
    for info in available_strategies():
        if info.distribution == DISTRIBUTION:
            found[info.name] = capabilities_of(get_strategy(info.name))  # a failing load fails the test
    assert len(found) >= 2, f"{DISTRIBUTION} registers {sorted(found)}: a cross-check needs two engines"
    return found


def engines_for(puzzle: Grid, *, counting: bool = False) -> list[str]:
    """The engines that claim ``puzzle``'s board (and counting, if asked) and are quick enough on it."""
    chosen = []
    for name, caps in engines().items():
        speed = SPEED.get(name)
        if not caps.supports(puzzle.shape) or (counting and not caps.counting):
            continue
        if speed and (puzzle.n > speed.max_side or puzzle.cells.count(0) > speed.max_blanks * puzzle.shape.size):
            continue
        chosen.append(name)
    return chosen


def run(puzzle: Grid, engine: str, limit: int) -> Result:
    """``engine``'s answer, checked: not an error or a timeout, consistent, every solution valid and distinct."""
    result = solve(puzzle, engine, limit=limit, time_limit=TIME_LIMIT)
    assert result.status is not Status.ERROR, result.error
    assert result.status is not Status.TIMEOUT, f"{engine} took {result.elapsed:.1f} s on {puzzle!r}"
    assert result.strategy == engine and result.puzzle == puzzle
    assert len(result.solutions) == min(result.count, limit) and result.count <= limit
    for solution in result.solutions:
        assert is_solution(puzzle, solution), f"{engine} returned a wrong grid for {puzzle!r}"
    assert len(set(result.solutions)) == len(result.solutions), f"{engine} returned a solution twice"
    return result


def test_every_registered_engine_is_covered() -> None:
    """Each engine of the distribution gets some boards here: a 9x9 with a third of it blank, say."""
    puzzle = Grid.parse("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
    [solution] = count_solutions(puzzle).solutions
    third = Grid([0 if i % 3 == 0 else v for i, v in enumerate(solution.cells)], solution.shape)
    assert sorted(engines_for(third)) == sorted(engines())


@PROPERTY
@given(known=puzzles(SHAPES, count=False))
def test_every_engine_answers_with_a_valid_solution(known: KnownPuzzle) -> None:
    for engine in engines_for(known.puzzle):
        result = run(known.puzzle, engine, limit=1)
        assert result.status is Status.SOLVED and result.count == 1, engine
        if known.blanks == 0:
            assert result.solution == known.solution, engine


@PROPERTY
@given(known=puzzles(SHAPES, budget=COUNT_BUDGET))
def test_counts_agree_across_engines_and_with_the_known_count(known: KnownPuzzle) -> None:
    results = {engine: run(known.puzzle, engine, COUNT_LIMIT) for engine in engines_for(known.puzzle, counting=True)}
    counts = {engine: (r.count, r.exact) for engine, r in results.items()}
    assert len(set(counts.values())) <= 1, counts
    if known.count is not None:
        expected = (min(known.count, COUNT_LIMIT), known.count < COUNT_LIMIT)
        assert set(counts.values()) <= {expected}, (known.count, counts)
    for r in results.values():
        assert r.status is Status.SOLVED and r.count >= 1 and r.exact == (r.count < COUNT_LIMIT)
        assert r.unique == (r.count == 1 if r.exact else False)
        if r.exact:
            assert known.solution in r.solutions, r.strategy  # every solution found: the one it was cut from too


@settings(database=None, max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(known=puzzles("4x4", blanks=(0, 120 / 256), count=False))
def test_sixteen_by_sixteen_with_few_blanks(known: KnownPuzzle) -> None:
    results = [run(known.puzzle, engine, limit=5) for engine in engines_for(known.puzzle, counting=True)]
    assert len({(r.count, r.exact) for r in results}) <= 1, [(r.strategy, r.count, r.exact) for r in results]
    if known.blanks == 0:
        assert [r.solution for r in results] == [known.solution] * len(results)


# --- unsolvable: a unique puzzle with one clue that contradicts its solution ---------------------------


@st.composite
def conflicting(draw: st.DrawFn, box: list[Shape] | str, blanks: tuple[float, float]) -> tuple[KnownPuzzle, Grid]:
    """A puzzle with one solution, and that puzzle with one more clue: a digit its peers' givens allow but the
    solution has not, so that the puzzle has no solution left."""
    known = draw(puzzles(box, unique=True, blanks=blanks))
    puzzle, shape = known.puzzle, known.shape
    choices = [
        (i, d)
        for i, v in enumerate(puzzle.cells)
        if not v
        for d in sorted(set(range(1, shape.n + 1)) - {puzzle.cells[p] for p in shape.peers[i]})
        if d != known.solution.cells[i]
    ]
    assume(choices)
    i, d = draw(st.sampled_from(choices))
    cells = list(puzzle.cells)
    cells[i] = d
    return known, Grid(cells, shape)  # parses: it repeats no given of its row, column or box


def check_unsolvable(bad: Grid, names: list[str]) -> None:
    """Every engine of ``names`` proves ``bad`` unsolvable, as the reference counter does."""
    assert count_solutions(bad, 1) == (0, True, ())
    assert names
    for engine in names:
        result = run(bad, engine, limit=2 if engines()[engine].counting else 1)
        assert result.status is Status.UNSOLVABLE, f"{engine}: {result.status} on {bad!r}"
        assert (result.count, result.exact, result.solutions) == (0, True, ()), engine


@settings(database=None, max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pair=conflicting(SMALL, blanks=(0.4, 0.55)))
def test_one_conflicting_clue_is_unsolvable_for_every_engine(pair: tuple[KnownPuzzle, Grid]) -> None:
    check_unsolvable(pair[1], engines_for(pair[1]))


@pytest.mark.parametrize("box", ["3x4", "4x3", "2x6"])
def test_one_conflicting_clue_on_twelve_by_twelve(box: str) -> None:
    @settings(database=None, max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(pair=conflicting(box, blanks=(0.45, 0.5)))
    def unsolvable(pair: tuple[KnownPuzzle, Grid]) -> None:
        known, bad = pair
        assert known.blanks >= 0.3 * known.shape.size  # a real puzzle, not a solved grid with a few holes
        check_unsolvable(bad, engines_for(bad))

    unsolvable()
