"""``backtrack``'s lowering of a rule over many pairs of cells: its digit pairs asked once, the tables unchanged.

Issue 24 made the kropki negative rule a method of the rule (``KropkiNegative.holds``, which also knows
a single dot colour); lowered pair by pair, it was asked 2 n^2 times for each of the ~130 pairs of
neighbours without a dot, and the corpus's kropki negative puzzles took 20-30 % longer than before
(benchmarks/bench_classic_hook.py --variants). ``_Model.relate_pairs`` asks once for all the pairs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import pytest

from sudokit import Grid
from sudokit.model import variants as v
from sudokit_strategies.backtrack.variants import _Model

from .conftest import ROOT


def negative_puzzles() -> list[Grid]:
    """The variant corpus's puzzles with the kropki negative rule (a 9x9 and a 6x6)."""
    lines = (ROOT / "puzzles" / "variants" / "corpus.txt").read_text(encoding="utf-8").splitlines()
    return [Grid.parse(line) for line in lines if line.startswith("{") and '"kropki-negative"' in line]


def one_pair_at_a_time(model: _Model, pairs: Iterable[tuple[int, int]], ok: Callable[[int, int], bool]) -> None:
    """The lowering as it was: each pair's tables narrowed by asking ``ok`` about every two digits."""
    digits = range(1, model.n + 1)
    for a, b in pairs:
        forward = model.tables.setdefault((a, b), [model.full] * model.n)
        backward = model.tables.setdefault((b, a), [model.full] * model.n)
        for x in digits:
            forward[x - 1] &= sum(1 << (y - 1) for y in digits if ok(x, y))
            backward[x - 1] &= sum(1 << (y - 1) for y in digits if ok(y, x))


def test_the_corpus_has_kropki_negative_puzzles_of_two_sizes() -> None:
    assert sorted(grid.n for grid in negative_puzzles()) == [6, 9]


@pytest.mark.parametrize("grid", negative_puzzles(), ids=lambda grid: f"{grid.n}x{grid.n}")
def test_the_kropki_negative_rule_is_asked_about_each_two_digits_once(
    grid: Grid, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = 0
    holds = v.KropkiNegative.holds

    def counted(self: v.KropkiNegative, a: int, b: int) -> bool:
        nonlocal asked
        asked += 1
        return holds(self, a, b)

    monkeypatch.setattr(v.KropkiNegative, "holds", counted)
    _Model(grid)
    rules = sum(rule.kind == "kropki-negative" for rule in grid.constraints)
    assert rules == 1
    assert asked == 2 * grid.n**2  # both ways, each two digits: not again for each of the pairs


@pytest.mark.parametrize("grid", negative_puzzles(), ids=lambda grid: f"{grid.n}x{grid.n}")
def test_the_pair_tables_are_those_of_one_pair_at_a_time(grid: Grid, monkeypatch: pytest.MonkeyPatch) -> None:
    model = _Model(grid)
    monkeypatch.setattr(_Model, "relate_pairs", one_pair_at_a_time)
    before = _Model(grid)
    assert model.tables == before.tables
    assert model.related == before.related
    assert len(model.tables) > 100  # the rule's pairs, both ways, and the dots'
