"""The kit's shipped data (``sudokit/testing/data``): every line's count and solution, by two independent engines.

Each puzzle is counted by ``backtrack`` and by ``cp-sat`` (limit one past the count: exact, and the
solution when there is one); the puzzles with no solution are where ``corpus.unsolvable_kind`` puts
them; the files are what ``tools/make_kit_corpus.py`` makes; ``data/README.md`` names every file.
"""

from __future__ import annotations

import importlib.util
import sys
from importlib import resources
from pathlib import Path
from types import ModuleType

import pytest

from sudokit import Grid, Shape, Status, get_strategy, is_solution
from sudokit.testing import corpus

ROOT = Path(__file__).resolve().parent.parent
DATA = resources.files("sudokit.testing") / "data"
ENGINES = ("backtrack", "cp-sat")
LEETCODE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
SHAPES = ("2x2", "2x3", "3x2", "2x4", "3x3", "3x4", "4x4", "5x5")
KINDS = ("glance", "propagation", "search")

ALL = [known for name in corpus.names() for known in corpus.load(name)]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_kit_corpus", ROOT / "tools" / "make_kit_corpus.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("known", ALL, ids=[k.where for k in ALL])
def test_every_line_is_counted_exactly_by_two_engines(known: corpus.Known, engine: str) -> None:
    limit = known.count + 1
    result = get_strategy(engine).solve(known.puzzle, limit=limit, keep=1, time_limit=60)
    assert (result.count, result.exact) == (known.count, True), (known.where, result)
    if known.count == 0:
        assert result.status is Status.UNSOLVABLE
    else:
        assert result.status is Status.SOLVED and is_solution(known.puzzle, result.solution)
    if known.count == 1:
        assert result.solution == known.solution


def test_every_line_is_well_formed() -> None:
    assert set(corpus.names()) == {
        "unique",
        "seventeen",
        "multi",
        "unsolvable",
        *(f"unsolvable_{kind}" for kind in KINDS),
        "shapes",
    }
    for known in ALL:
        assert (known.solution is not None) == (known.count == 1), known.where
        if known.solution is not None:
            assert is_solution(known.puzzle, known.solution), known.where
        if not known.where.startswith("shapes"):
            assert known.puzzle.shape == Shape.of(3, 3), known.where


def test_unique_starts_with_leetcodes_board() -> None:
    unique = corpus.load("unique")
    assert unique[0].puzzle == Grid.parse(LEETCODE)
    assert all(k.count == 1 for k in unique) and len(unique) >= 10


def test_seventeen_has_a_few_17_clue_puzzles() -> None:
    seventeen = corpus.load("seventeen")
    assert len(seventeen) >= 3 and all(k.puzzle.count_givens() == 17 and k.count == 1 for k in seventeen)


def test_multi_counts_span_2_to_several_hundred() -> None:
    counts = sorted(k.count for k in corpus.load("multi"))
    assert counts[0] == 2 and counts.count(2) >= 3
    assert counts[-1] >= 500 and sum(c >= 300 for c in counts) >= 2  # stops_at_limit takes one of 300+
    assert set(range(2, 9)) <= set(counts)


@pytest.mark.parametrize("kind", KINDS)
def test_unsolvable_puzzles_are_sorted_by_what_shows_it(kind: str) -> None:
    puzzles = corpus.load(f"unsolvable_{kind}")
    assert len(puzzles) >= 3
    for known in puzzles:
        assert known.count == 0 and corpus.unsolvable_kind(known.puzzle) == kind, known.where


def test_unsolvable_is_every_sorted_one() -> None:
    union = sorted(k.puzzle.to_line() for kind in KINDS for k in corpus.load(f"unsolvable_{kind}"))
    assert sorted(k.puzzle.to_line() for k in corpus.load("unsolvable")) == union
    assert all(k.count == 0 for k in corpus.load("unsolvable"))


def test_glance_holds_both_kinds_of_contradiction() -> None:
    seen = {corpus.contradiction_at_a_glance(k.puzzle).split()[0] for k in corpus.load("unsolvable_glance")}  # type: ignore[union-attr]
    assert seen == {"row", "digit"}  # "row R, column C has no candidate left", "digit D has no place left in ..."


def test_shapes_has_every_box_shape() -> None:
    for text in SHAPES:
        puzzles = corpus.of_shape(Shape.parse(text))
        assert puzzles and all(k.count == 1 for k in puzzles), text
    assert {str(k.puzzle.shape) for k in corpus.load("shapes")} == set(SHAPES)


def test_the_files_are_what_the_tool_makes() -> None:
    tool = _tool()
    texts = tool.render(tool.shipped_oracle())
    assert set(texts) == set(corpus.names())
    for name, text in texts.items():
        assert (DATA / f"{name}.txt").read_text(encoding="utf-8") == text, name


def test_the_readme_names_every_data_file() -> None:
    readme = (DATA / "README.md").read_text(encoding="utf-8")
    for name in corpus.names():
        assert f"`{name}.txt`" in readme, name


# --- the singles that sort them -------------------------------------------------------------------------


def test_singles_solve_an_easy_puzzle() -> None:
    known = corpus.load("unique")[0]
    singles = corpus.propagate_singles(known.puzzle)
    assert singles.contradiction is None and singles.grid == known.solution
    assert singles.placed == known.puzzle.shape.size - known.puzzle.count_givens()
    assert corpus.propagate_singles(known.puzzle, max_placed=3).placed == 3


def test_singles_stall_on_a_hard_puzzle() -> None:
    hard = Grid.parse("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
    singles = corpus.propagate_singles(hard)
    assert singles.contradiction is None and not singles.grid.is_complete()
    assert corpus.unsolvable_kind(hard) == "search"  # what an unsolvable puzzle like it would be


def test_a_cell_with_no_candidate_is_seen_at_a_glance() -> None:
    puzzle = Grid.parse("1234" + "." * 12, "2x2")
    assert corpus.contradiction_at_a_glance(puzzle) is None
    dead = Grid.parse("12.." + "..3." + "...." + "..4.", "2x2")  # r1c3 sees 1, 2 (row), 3 (box), 4 (column)
    assert corpus.contradiction_at_a_glance(dead) == "row 1, column 3 has no candidate left"
    assert corpus.unsolvable_kind(dead) == "glance"


def test_a_digit_with_no_place_is_seen_at_a_glance() -> None:
    # 1 cannot go in row 1: columns 1 and 2 hold one below, and r1c3, r1c4 hold 2 and 3
    puzzle = Grid.parse("..23" + "1..." + ".1.." + "....", "2x2")
    assert corpus.contradiction_at_a_glance(puzzle) == "digit 1 has no place left in row 1"


def test_singles_find_a_contradiction_the_givens_do_not_show() -> None:
    known = corpus.load("unsolvable_propagation")[0]
    assert corpus.contradiction_at_a_glance(known.puzzle) is None
    singles = corpus.propagate_singles(known.puzzle)
    assert singles.placed >= 1 and singles.contradiction == "digit 3 has no place left in column 7"
