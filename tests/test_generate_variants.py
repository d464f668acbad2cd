"""``sudoku generate --rules / --template``: variant puzzles, unique (counted by a second engine), of the kinds."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from sudokit import Grid, get_strategy
from sudokit.engines.api import run
from sudokit.engines.verify import solution_problem
from sudokit.features.variant_generation import DRAWN, generate_variants, parse_rules
from sudokit.io.links import parse_link
from sudokit.model.grid import from_dict
from sudokit.model.variants import Killer
from tests.conftest import sudoku

ROOT = Path(__file__).resolve().parent.parent

pytest.importorskip("ortools")  # cp-sat counts while generating
pytest.importorskip("pysat")  # sat counts again


def unique_for(puzzle: Grid, solution: Grid, engine: str = "sat") -> bool:
    """Whether ``engine`` (another than the one that generated) counts exactly one solution, ``solution``."""
    result = run(get_strategy(engine), puzzle, limit=2, time_limit=60)
    return result.count == 1 and result.exact and result.solution == solution


def test_a_killer_9x9_with_no_givens_is_unique_and_its_cages_partition_the_board() -> None:
    stream = generate_variants("3x3", rules="killer", count=1, seed=11, no_givens=True, time_limit=60)
    puzzle = next(stream)
    assert puzzle.count_givens() == 0 and puzzle.kinds == {"killer"}
    cells = [cell for rule in puzzle.constraints if isinstance(rule, Killer) for cell in rule.cells]
    assert sorted(cells) == [(r, c) for r in range(9) for c in range(9)]  # each cell in exactly one cage
    assert all(2 <= len(rule.cells) <= 6 for rule in puzzle.constraints if isinstance(rule, Killer))
    assert stream.solution is not None and unique_for(puzzle, stream.solution)


@pytest.mark.parametrize(
    "rules",
    [
        "thermometer,arrow,kropki",
        "xv,xv-negative,odd-even",
        "sandwich,little-killer,whisper",
        "kropki,kropki-negative,slow-thermometer,renban",
        "diagonal,killer",
        "anti-king,arrow",
        "non-consecutive",
    ],
)
def test_variant_puzzles_carry_the_kinds_asked_are_true_of_their_solution_and_unique(rules: str) -> None:
    stream = generate_variants("2x3", rules=rules, count=2, seed=4, time_limit=60)
    for puzzle in stream:
        assert puzzle.kinds == set(parse_rules(rules))
        assert stream.solution is not None
        assert solution_problem(puzzle.with_cells([0] * 36), stream.solution) is None
        assert unique_for(puzzle, stream.solution)
    assert stream.produced == 2


def test_the_same_seed_makes_the_same_puzzles() -> None:
    def made(seed: int) -> list[Grid]:
        return list(generate_variants("2x3", rules="killer,thermometer", count=2, seed=seed, no_givens=True))

    first = made(9)
    assert first == made(9) and [p.constraints for p in first] == [p.constraints for p in made(9)]
    assert first != made(10)


def test_minimal_puzzles_lose_uniqueness_without_any_given() -> None:
    stream = generate_variants("2x3", rules="thermometer", count=1, seed=2, minimal=True)
    puzzle = next(stream)
    assert puzzle.count_givens() > 0 and stream.solution is not None
    for i, v in enumerate(puzzle.cells):
        if v:
            fewer = puzzle.with_cells([0 if j == i else w for j, w in enumerate(puzzle.cells)])
            assert not unique_for(fewer, stream.solution), f"given {i} can go"


def test_a_template_keeps_its_rules_and_its_board_and_makes_new_givens() -> None:
    template = from_dict(
        {
            "box": "2x3",
            "givens": "1" + "." * 35,
            "regions": "111222113222133444533444553666555666",
            "constraints": [{"kind": "thermometer", "cells": ["r1c1", "r2c2", "r3c3"]}, {"kind": "anti-king"}],
        }
    )
    stream = generate_variants(template=template, count=2, seed=1)
    puzzles = list(stream)
    assert len(puzzles) == 2
    for puzzle in puzzles:
        assert puzzle.constraints == template.constraints and puzzle.regions == template.regions
        assert puzzle.cells != template.cells
    assert stream.solution is not None and unique_for(puzzles[-1], stream.solution)


def test_a_level_is_kept_by_the_variant_rating() -> None:
    from sudokit.features.rating import rate

    stream = generate_variants("2x3", rules="killer", count=1, seed=3, level="easy")
    puzzle = next(stream)
    assert stream.rating is not None and stream.rating.level.lower() == "easy"
    assert rate(puzzle).level.lower() == "easy"


def test_the_time_limit_ends_the_stream_without_a_puzzle() -> None:
    start = time.process_time()
    stream = generate_variants("3x3", rules="killer", count=5, seed=1, no_givens=True, time_limit=0.01)
    assert list(stream) == [] and stream.timed_out
    assert time.process_time() - start < 10


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"rules": "killer,sandwhich"}, "rule 'sandwhich' cannot be drawn by the generator (it draws: killer,"),
        ({"rules": ""}, "no rule given"),
        ({"rules": "thermometer", "no_givens": True}, "needs killer"),
        ({"rules": "killer", "template": Grid.empty("2x3")}, "one of them"),
        ({}, "one of them"),
        ({"template": Grid.empty("2x3")}, "no variant rule"),
        ({"rules": "diagonal,anti-king"}, "no 6x6 grid keeps diagonal, anti-king all at once"),
        (
            {"template": Grid.empty("2x3").with_rules(constraints=[Killer(["r1c1", "r1c2"], total=12)])},
            "the template's rules have no solution",
        ),
    ],
)
def test_bad_arguments_are_refused_before_any_work(options: dict[str, object], says: str) -> None:
    with pytest.raises(ValueError) as err:
        generate_variants("2x3", **options)  # type: ignore[arg-type]
    assert says in str(err.value)


@pytest.mark.parametrize("box", ["2x2", "2x3"])
def test_every_kind_the_generator_lists_is_drawn(box: str) -> None:
    # seed 11's first 4x4 grids have one pair summing to 5 and none to 10: half of one is no XV clue,
    # so another grid is drawn (before, the puzzle came without the kind asked for)
    for kind in DRAWN:
        if box == "2x2" and kind in ("anti-king", "non-consecutive"):  # no 4x4 grid keeps them (refused above)
            continue
        stream = generate_variants(box, rules=kind, count=2, seed=11, engine="sat")
        assert all(kind in puzzle.kinds for puzzle in stream), kind
        assert stream.produced == 2


# --- the command -------------------------------------------------------------------------------------


def test_the_command_writes_json_records_of_variant_puzzles() -> None:
    done = sudoku("generate", "--rules", "killer", "--no-givens", "--box", "2x3", "--seed", "3", "-n", "2", "-q")
    assert done.exit_code == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["index"] for r in records] == [1, 2]
    for record in records:
        puzzle = from_dict(record["puzzle"])
        assert record["rules"] == ["killer"] and record["no_givens"] is True and record["givens"] == 0
        assert puzzle.kinds == {"killer"} and puzzle.count_givens() == 0
        assert unique_for(puzzle, Grid.parse(record["solution"], "2x3"))


def test_the_command_writes_fpuzzles_links() -> None:
    done = sudoku("generate", "--rules", "thermometer,kropki", "--box", "2x3", "--seed", "3", "-f", "fpuzzles", "-q")
    assert done.exit_code == 0, done.stderr
    puzzle = parse_link(done.stdout.strip())
    assert {"thermometer", "kropki"} <= puzzle.kinds


def test_the_command_makes_puzzles_on_a_template_files_rules(tmp_path: Path) -> None:
    corpus = (ROOT / "puzzles" / "variants" / "corpus.txt").read_text().splitlines()
    line = corpus[corpus.index("# killer-6x6: killer") + 1]
    template = from_dict(json.loads(line))
    path = tmp_path / "template.txt"
    path.write_text(f"# a 6x6 killer\n{line}\n")
    done = sudoku("generate", "--template", str(path), "--seed", "2", "-n", "2", "-f", "fpuzzles", "-q")
    assert done.exit_code == 0, done.stderr
    puzzles = [parse_link(link) for link in done.stdout.split()]
    assert len(puzzles) == 2
    for puzzle in puzzles:
        assert set(puzzle.constraints) == set(template.constraints) and puzzle.cells != template.cells


def test_fpuzzles_links_of_classic_puzzles_hold_the_puzzles_of_the_line_format() -> None:
    lines = sudoku("generate", "--box", "2x2", "--seed", "4", "-n", "2", "-q")
    links = sudoku("generate", "--box", "2x2", "--seed", "4", "-n", "2", "-q", "-f", "fpuzzles")
    assert lines.exit_code == links.exit_code == 0
    assert [parse_link(link).to_line() for link in links.stdout.split()] == lines.stdout.split()


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--rules", "killer,spiral"], "--rules: rule 'spiral' cannot be drawn"),
        (["--rules", "killer", "-f", "line"], "--format line cannot carry a variant puzzle's rules"),
        (["--rules", "killer", "-f", "csv"], "--format csv cannot carry"),
        (["--no-givens"], "--no-givens needs --rules with killer"),
        (["--rules", "arrow", "--no-givens"], "needs killer"),
        (["--rules", "killer", "--template", "x.json"], "give one of them"),
        (["--template", "missing-file.txt"], "--template missing-file.txt: no such file"),
        (["--template", "{"], "--template: "),
        (["--rules", "killer", "-s", "numba"], "does not take killer"),
    ],
)
def test_bad_variant_options_are_one_line_usage_errors(args: list[str], says: str) -> None:
    done = sudoku("generate", *args)
    assert done.exit_code == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and done.stderr.startswith("sudoku: error: ")
    assert says in done.stderr


def test_resume_refuses_a_file_of_other_rules(tmp_path: Path) -> None:
    out = tmp_path / "made.json"
    first = sudoku("generate", "--rules", "killer", "--box", "2x3", "--seed", "5", "-O", str(out), "-q")
    assert first.exit_code == 0, first.stderr
    again = sudoku(
        "generate", "--rules", "thermometer", "--box", "2x3", "--seed", "5", "-n", "2", "-O", str(out), "--resume"
    )
    assert again.exit_code == 2
    assert "line 1 holds rules killer, not rules thermometer" in again.stderr
    more = sudoku("generate", "--rules", "killer", "--box", "2x3", "--seed", "5", "-n", "2", "-O", str(out), "--resume")
    assert more.exit_code == 0, more.stderr
    assert [json.loads(line)["index"] for line in out.read_text().splitlines()] == [1, 2]
