"""The step solver on variant puzzles: each rule's named steps, forcing, and every step sound on the shipped puzzles.

benchmarks/bench_variant_logic.py checks every shipped variant puzzle; the suite checks a sample of them
(the cheap ones, of many kinds) to keep its CPU cost down.
"""

from __future__ import annotations

import importlib.util
import re
import time
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from sudokit import Grid
from sudokit.features.logic import TECHNIQUES, Candidates, Step, hint, steps
from sudokit.features.rating import BASE_SCORES, rate
from sudokit.features.rules import RULE_TECHNIQUES
from sudokit.model.variants import Arrow, Killer, Kropki, OddEven, Thermometer

from .conftest import sudoku

ROOT = Path(__file__).resolve().parent.parent
CELL_NAME = re.compile(r"\br(\d+)c(\d+)\b")


@cache
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_variant_logic", ROOT / "benchmarks" / "bench_variant_logic.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@cache
def shipped() -> dict[str, tuple[bool, Grid, tuple[int, ...]]]:
    return {name: (real, grid, solution) for name, real, grid, solution in bench().shipped()}


#: A sample of corpus.txt, each under 0.3 s of CPU: most kinds, alone and combined, 9x9 and 6x6.
CORPUS_SAMPLE = [
    "killer",
    "little-killer",
    "thermometer",
    "slow-thermometer",
    "arrow",
    "kropki",
    "kropki-negative",
    "xv",
    "xv-negative",
    "renban",
    "whisper",
    "palindrome",
    "quadruple",
    "pencil-marks",
    "min-max",
    "disjoint-groups",
    "clone",
    "between-line",
    "modular-line",
    "nabner-line",
    "double-arrow",
    "sudoku-x",
    "windoku",
    "anti-king",
    "jigsaw",
    "thermo-arrow-kropki",
    "renban-whisper-palindrome",
    "anti-knight-thermo",
    "jigsaw-x-odd-even",
    "killer-6x6",
    "sandwich-6x6",
    "non-consecutive-6x6",
    "xv-odd-even-6x6",
    "little-killer-renban-6x6",
]


@cache
def explained(name: str) -> list[Step]:
    """The checked path of a shipped puzzle, its explanations' form checked too."""
    _real, grid, solution = shipped()[name]
    path = bench().checked_path(grid, solution)
    n = grid.n
    for step in path:
        assert step.explanation and "\n" not in step.explanation, step
        named = {(int(r) - 1) * n + int(c) - 1 for r, c in CELL_NAME.findall(step.explanation)}
        assert {cell for cell, _ in step.placements + step.eliminations} <= named, step
    assert all(step.progress for step in path[:-1])
    return path


@pytest.mark.parametrize("name", CORPUS_SAMPLE)
def test_every_step_is_sound_on_a_sample_of_the_variant_corpus(name: str) -> None:
    path = explained(name)
    assert path[-1].technique != "contradiction"


def links_txt_titles() -> set[str]:
    """The titles of puzzles/variants/links.txt's puzzles (the first comment line of each): the 17 real links the
    suite explains whole; the benchmark explains all 155 (over six minutes of CPU)."""
    titles, block = set(), []
    for raw in (ROOT / "puzzles" / "variants" / "links.txt").read_text(encoding="utf-8").splitlines():
        if raw.startswith("# "):
            block.append(raw[2:])
        elif not raw.strip():
            block = []
        else:
            titles.add(block[0])
            block = []
    return titles


def test_every_step_is_sound_on_the_real_links_and_most_are_solved_by_logic() -> None:
    titles = links_txt_titles()
    real = [name for name, (is_real, _, _) in shipped().items() if is_real and name in titles]
    assert len(real) >= 10
    slow = ("Bird in a Storm", "Return of the Revenge", "Boxes", "Blitz")  # over 0.5 s each: the benchmark's
    solved = checked = 0
    for name in real:
        if any(title in name for title in slow):
            continue
        path = explained(name)
        checked += 1
        solved += path[-1].technique not in ("needs search", "contradiction")
    assert checked >= 10 and solved >= 0.8 * checked


def test_the_rules_make_named_steps_a_person_can_follow() -> None:
    """The issue's examples: a cage's combination, a thermometer's bounds, a dot's digits, an arrow's sum."""
    empty = Grid.empty()
    cage = hint(empty.with_rules(constraints=[Killer(["r1c1", "r1c2", "r1c3"], total=6)]))
    assert cage is not None and cage.technique == "killer cage"
    assert cage.explanation.startswith("killer cage r1c1-r1c3 (6): r1c1 is at most 3")
    assert "it must hold 1, 2 and 3" in cage.explanation
    row_and_box = {c for c in range(9)} | {r * 9 + c for r in range(3) for c in range(3)}
    expected = {(c, d) for c in (0, 1, 2) for d in range(4, 10)} | {
        (c, d) for c in row_and_box - {0, 1, 2} for d in (1, 2, 3)
    }
    assert set(cage.eliminations) == expected

    thermo = hint(empty.with_rules(constraints=[Thermometer(["r4c1", "r4c2", "r4c3", "r4c4", "r4c5"])]))
    assert thermo is not None and thermo.technique == "thermometer"
    assert "r4c1 is at most 5" in thermo.explanation and "r4c5 is at least 5" in thermo.explanation
    assert (27, 6) in thermo.eliminations and (27, 5) not in thermo.eliminations

    dot = hint(empty.with_rules(constraints=[Kropki("black", ["r2c2", "r2c3"])]))
    assert dot is not None and dot.technique == "kropki dot"
    assert "r2c2 cannot be 5, 7 or 9" in dot.explanation
    assert set(dot.eliminations) == {(c, d) for c in (10, 11) for d in (5, 7, 9)}

    arrow = hint(empty.with_rules(constraints=[Arrow(["r5c5"], ["r5c6", "r5c7"])]))
    assert arrow is not None and arrow.technique == "arrow"
    assert arrow.explanation.startswith("arrow r5c5 <- r5c6 r5c7: r5c5 is at least 3")

    odd = hint(empty.with_rules(constraints=[OddEven("r9c9", "odd")]))
    assert odd is not None and odd.technique == "parity clue" and {d for _, d in odd.eliminations} == {2, 4, 6, 8}


def test_forcing_steps_are_stated_as_such_and_finish_what_the_rules_leave() -> None:
    path = explained("anti-knight-thermo")
    forcing = [step for step in path if step.technique == "forcing (contradiction)"]
    for step in forcing:
        assert step.explanation.startswith("if r") and "singles and rule propagation would leave" in step.explanation
        assert len(step.eliminations) == 1
    # Somewhere in the sample a forcing step is needed, and it is what lets explain finish.
    needed = [name for name in CORPUS_SAMPLE[:12] if any(s.technique.startswith("forcing") for s in explained(name))]
    assert needed
    # Where no candidate leads to a contradiction, every candidate of one cell may lead to the same eliminations.
    kropki7 = explained(next(name for name in shipped() if "Irregular 7x7 Kropki" in name))
    both = [step for step in kropki7 if step.technique == "forcing (every candidate)"]
    assert both and kropki7[-1].technique == "naked single"
    assert all(step.explanation.startswith("whichever of ") for step in both)


def test_variant_paths_leave_out_the_uniqueness_techniques_and_every_step_has_a_score() -> None:
    used: set[str] = set()
    for name in ("killer", "kropki", "jigsaw-x-odd-even", "sandwich-6x6", "clone"):
        used |= {step.technique for step in explained(name)}
    assert not {t for t in used if t.startswith("unique rectangle") or t == "BUG+1"}
    assert used & set(RULE_TECHNIQUES)
    forcing = ("forcing (contradiction)", "forcing (every candidate)")
    for technique in (*TECHNIQUES, *RULE_TECHNIQUES, "locked candidates (peers)", *forcing):
        assert technique in BASE_SCORES or technique == "locked candidates", technique  # scored as (pointing) ...


def test_a_jigsaw_and_a_diagonal_are_houses_for_hidden_singles() -> None:
    _real, grid, _solution = shipped()["jigsaw-x-odd-even"]
    state = Candidates(grid)
    names = {state.geo.unit_names[k] for k in range(len(state.geo.units))}
    assert "region 1" in names and "the main diagonal" in names and "box 1" not in names


def test_rate_scores_a_variant_on_the_same_scale_and_refuses_several_solutions() -> None:
    _real, grid, _solution = shipped()["killer-6x6"]
    rating = rate(grid)
    assert rating.level in ("Easy", "Medium", "Hard", "Unfair", "Extreme") and rating.score > 0
    assert rating.techniques.get("killer cage", 0) > 0
    several = Grid.empty("2x3").with_rules(constraints=[Killer(["r1c1", "r1c2"], total=3)])
    with pytest.raises(ValueError, match="more than one solution"):
        rate(several)


def test_hint_and_explain_take_a_variant_file(tmp_path: Path) -> None:
    _real, grid, _solution = shipped()["thermometer"]
    from sudokit.model.variants import to_json

    file = tmp_path / "thermo.json"
    file.write_text(to_json(grid) + "\n")
    first = sudoku("hint", str(file))
    assert first.exit_code == 0, first.stderr
    step = hint(grid)
    assert step is not None and first.stdout.splitlines()[0] == f"{step.technique}: {step.explanation}"
    whole = sudoku("explain", str(file))
    assert whole.exit_code == 0, whole.stderr
    assert "needs search" not in whole.stdout
    assert len([line for line in whole.stdout.splitlines() if re.match(r"\d+\. ", line)]) == len(list(steps(grid)))


def test_every_kind_of_rule_gives_the_step_solver_something() -> None:
    """Each of the corpus's rules, alone on its board, is a house, peers or a rule the steps test (none is dropped)."""
    from sudokit.features.rules import compile_rules
    from sudokit.model.variants import KINDS

    seen = set()
    for _real, grid, _solution in shipped().values():
        for rule in grid.constraints:
            alone = Grid.empty(grid.shape).with_rules(regions=grid.regions if grid.jigsaw else None, constraints=[rule])
            kit = compile_rules(alone)
            assert kit.houses or kit.peer_pairs or kit.rules, rule
            seen.add(rule.kind)
    assert seen == set(KINDS)


def test_a_forcing_sweep_that_finds_nothing_is_cheap_and_the_path_is_the_same() -> None:
    """The link "Equal Sums" (region sum lines) stalls after three rule steps: its last forcing sweep tries every
    candidate, and each trial enumerated every line to its budget again, 28 s of CPU for that one hint. The same
    path now in a few seconds of CPU (the process's, not the wall clock's: the machine may be busy)."""
    name = next(name for name in shipped() if "Equal Sums" in name)
    _real, grid, solution = shipped()[name]
    start = time.process_time()
    path = bench().checked_path(grid, solution)
    spent = time.process_time() - start
    assert [step.technique for step in path] == ["rule propagation"] * 3 + ["needs search"]
    assert spent < 8, f"{spent:.1f} s of CPU"


def test_a_forcing_sweep_stops_at_its_work_budget_counted_in_work_not_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """A forcing sweep stops making trials past MAX_FORCING_WORK, counted in the work they do (a rule's answer
    remembered from before counted as when it was found), so the path is the same whether the board's rules were
    asked about before or not, and on any machine: "Crawfish" needs forcing steps, which a small budget leaves out."""
    from sudokit.features import logic

    name = next(name for name in shipped() if "Crawfish" in name)
    _real, grid, solution = shipped()[name]
    whole = bench().checked_path(grid, solution)
    assert whole[-1].technique == "naked single" and any(s.technique.startswith("forcing") for s in whole)
    monkeypatch.setattr(logic, "MAX_FORCING_WORK", 50_000)
    monkeypatch.setattr(logic, "_VARIANT_GEOMETRY", {})  # nothing remembered about the board's rules
    cold = list(steps(grid))
    warm = list(steps(grid))  # its rules' answers all remembered now
    assert cold == warm
    assert cold[-1].technique == "needs search" and not any(s.technique.startswith("forcing") for s in cold)


def test_a_skyscraper_clue_keeps_exactly_the_digits_of_its_rows_orderings() -> None:
    """The step solver's pass over a clued row's states keeps a cell's digit exactly when some ordering of the row
    (each digit once, within the cells' candidates) shows the clue's count of buildings with that digit there."""
    import itertools
    import random

    from sudokit.features.rules import _skyscraper_search

    rng = random.Random(7)
    for _ in range(400):
        n = rng.choice([4, 5, 6])
        count = rng.randint(1, n)
        domains = [rng.randint(1, (1 << n) - 1) if rng.random() < 0.7 else (1 << n) - 1 for _ in range(n)]
        want = [0] * n
        for order in itertools.permutations(range(1, n + 1)):
            if all(domains[k] >> (d - 1) & 1 for k, d in enumerate(order)):
                seen = tallest = 0
                for d in order:
                    seen, tallest = (seen + 1, d) if d > tallest else (seen, tallest)
                if seen == count:
                    for k, d in enumerate(order):
                        want[k] |= 1 << (d - 1)
        got = _skyscraper_search(n, count)(domains, 10**9, [0])
        assert got is not None
        supported, needed = got
        assert supported == want, (n, count, domains)
        assert needed == ((1 << n) - 1 if any(want) else 0), (n, count, domains)


def test_a_forcing_sweep_narrows_the_last_sweeps_trials_instead_of_making_them_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After a forcing step removes a candidate, a trial of the last sweep that kept it is cut to what is left and
    propagated on from where it stopped, not made again from the start: on the link "Blitz" 462 trials were made
    from the start along its path, now under 300 (and the path, checked step by step, still ends solved)."""
    from sudokit.features import logic

    name = next(name for name in shipped() if '"Blitz"' in name)
    _real, grid, solution = shipped()[name]
    made = {"fresh": 0, "narrowed": 0}
    fresh, narrowed = logic._trial, logic._narrowed

    def counted_fresh(*args: object) -> object:
        made["fresh"] += 1
        return fresh(*args)  # type: ignore[arg-type]

    def counted_narrowed(*args: object) -> object:
        made["narrowed"] += 1
        return narrowed(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(logic, "_trial", counted_fresh)
    monkeypatch.setattr(logic, "_narrowed", counted_narrowed)
    path = bench().checked_path(grid, solution)
    assert path[-1].technique != "needs search" and sum(s.technique.startswith("forcing") for s in path) >= 10
    assert made["narrowed"] > 0 and made["fresh"] < 300, made
