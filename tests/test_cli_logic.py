"""`sudoku hint`, `sudoku explain` and `sudoku rate` through the real command."""

from __future__ import annotations

import json
import time
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from sudokit import Grid, solve
from sudokit.features.logic import hint as next_step
from sudokit.features.rating import CSV_EXTRA, LEVELS, rate, rated_steps
from sudokit.model.variants import Diagonal, to_json

from .conftest import PUZZLES, puzzles, refused, sized, sudoku

HARD = puzzles("hardest.txt")[2]  # needs search after a few chains
EASY = puzzles("easy50.txt")[0]
X4 = to_json(Grid.parse("1..." + "." * 12).with_rules(constraints=[Diagonal("main"), Diagonal("anti")]))
#: A variant puzzle with one solution (puzzles/variants/corpus.txt's killer-6x6): rated as any puzzle is.
_CORPUS = (PUZZLES / "variants" / "corpus.txt").read_text().splitlines()
KILLER6 = next(line for line, above in zip(_CORPUS[1:], _CORPUS, strict=False) if above.startswith("# killer-6x6:"))


def one_line_error(result) -> str:  # type: ignore[no-untyped-def]
    assert result.exit_code == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sudoku: error: "), result.stderr
    return lines[0]


def test_hint_prints_the_sentence_and_the_grid_with_the_cells_marked() -> None:
    done = sudoku("hint", HARD)
    assert done.exit_code == 0, done.stderr
    step = next_step(HARD)
    assert step is not None
    lines = done.stdout.splitlines()
    assert lines[0] == f"{step.technique}: {step.explanation}"
    grid = [line for line in lines if "|" in line]
    assert len(grid) == 9
    marked = [(r, line) for r, line in enumerate(grid) if "[" in line]
    assert {r for r, _ in marked} == {c // 9 for c in step.cells}
    assert sum(line.count("[") for _, line in marked) == len(set(step.cells))
    cell = step.placements[0][0]
    assert f"r{cell // 9 + 1}c{cell % 9 + 1} {{" in lines[-1]
    assert "\x1b[" not in done.stdout  # no colour off a terminal
    coloured = sudoku("hint", HARD, "--color", "always")
    assert "\x1b[" in coloured.stdout


def test_hint_json_is_one_object_naming_cells() -> None:
    done = sudoku("hint", "-f", "json", EASY)
    assert done.exit_code == 0, done.stderr
    data = json.loads(done.stdout)
    step = next_step(EASY)
    assert step is not None
    assert set(data) == {"technique", "cells", "digits", "placements", "eliminations", "explanation"}
    assert data["technique"] == step.technique and data["explanation"] == step.explanation
    assert data["cells"] == [f"r{c // 9 + 1}c{c % 9 + 1}" for c in step.cells]
    assert data["placements"] == [{"cell": f"r{c // 9 + 1}c{c % 9 + 1}", "digit": d} for c, d in step.placements]


def test_hint_reads_a_file_and_stdin_and_says_when_complete(tmp_path: Path) -> None:
    file = tmp_path / "one.txt"
    file.write_text(f"# a puzzle\n{EASY}\n")
    from_file = sudoku("hint", str(file))
    assert from_file.exit_code == 0 and from_file.stdout == sudoku("hint", EASY).stdout
    assert sudoku("hint", "-", input=EASY + "\n").stdout == from_file.stdout
    solved = solve(EASY).solution
    assert solved is not None
    done = sudoku("hint", solved.to_line())
    assert done.exit_code == 0 and "already complete" in done.stdout


def test_hint_and_explain_refuse_several_solutions_bad_input_and_many_puzzles(tmp_path: Path) -> None:
    for command in ("hint", "explain"):
        several = sudoku(command, X4)  # a variant, taken as any puzzle is: it has several solutions
        assert several.exit_code == 1 and "more than one solution" in several.stderr
        one_line_error(sudoku(command, "12345"))
        one_line_error(sudoku(command, "no/such/file.txt"))
    many = tmp_path / "two.txt"
    many.write_text(f"{EASY}\n{HARD}\n")
    assert "several puzzles" in one_line_error(sudoku("hint", str(many)))


def lined_file(tmp_path: Path) -> tuple[Path, dict[int, str]]:
    """A file of puzzles with comments, blank lines, notes and a grid over 11 lines; {line: its puzzle}."""
    top = puzzles("top95.txt")[:2]
    grid = Grid.parse(HARD).to_pretty()  # lines 6-16
    text = f"# top95, with names\n{top[0]} # first\n\n{top[1]}\t9.2\n\n{grid}\n{EASY}\n# the end\n"
    path = tmp_path / "lined.txt"
    path.write_bytes(text.replace("\n", "\r\n").encode())
    picks = {2: top[0], 4: top[1], 6: HARD, 11: HARD, 16: HARD, 17: EASY}
    return path, picks


def test_hint_and_explain_take_the_puzzle_on_a_line_of_a_file(tmp_path: Path) -> None:
    """``--line N``: the puzzle on line N as editors and ``sed -n Np`` count, a grid by any of its lines."""
    path, picks = lined_file(tmp_path)
    for number, puzzle in picks.items():
        done = sudoku("hint", "-f", "json", str(path), "--line", str(number))
        assert done.exit_code == 0, done.stderr
        assert done.stdout == sudoku("hint", "-f", "json", puzzle).stdout
    from_stdin = sudoku("explain", "-", "--line", "4", input=path.read_text())
    assert from_stdin.exit_code == 0, from_stdin.stderr
    assert from_stdin.stdout == sudoku("explain", puzzles("top95.txt")[1]).stdout


def test_a_line_without_a_puzzle_is_one_line_of_error(tmp_path: Path) -> None:
    path, _ = lined_file(tmp_path)
    for command in ("hint", "explain"):
        for number in (1, 3, 5):
            assert one_line_error(sudoku(command, str(path), "--line", str(number))) == (
                f"sudoku: error: {path}:{number}: no puzzle on line {number} (a blank line or a comment)"
            )
        for number in (18, 19, 10**6):  # the comment at the end, and past the end
            assert one_line_error(sudoku(command, str(path), "--line", str(number))) == (
                f"sudoku: error: {path}:{number}: no puzzle on line {number}: the last puzzle of {path} ends on line 17"
            )
        assert "--line N" in one_line_error(sudoku(command, str(path)))  # several puzzles: says how to pick one
        assert "given as an argument has no lines" in one_line_error(sudoku(command, EASY, "--line", "1"))
        assert "--line" in one_line_error(sudoku(command, str(path), "--line", "0"))
    bad = tmp_path / "bad.txt"
    bad.write_text(f"{EASY}\n{EASY[:-1]}\n")
    assert one_line_error(sudoku("hint", str(bad), "--line", "2")).startswith(f"sudoku: error: {bad}:2: 80 cells")


def test_rate_takes_the_puzzle_on_a_line_of_each_file(tmp_path: Path) -> None:
    """``rate --line N``, as hint and explain: one record a file, its source and line those of the file."""
    path, picks = lined_file(tmp_path)
    other = tmp_path / "other.txt"
    other.write_text("\n".join(puzzles("easy50.txt")[:5]) + "\n")
    done = sudoku("rate", "-q", "-j", "1", "-f", "json", "--line", "4", str(path), str(other), str(path))
    assert done.exit_code == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(r["source"], r["line"]) for r in records] == [(str(path), 4), (str(other), 4), (str(path), 4)]
    chosen = [picks[4], puzzles("easy50.txt")[3], picks[4]]
    assert [r["puzzle"] for r in records] == [Grid.parse(p).to_line() for p in chosen]
    assert [r["level"] for r in records] == [rate(p).level for p in chosen]
    grid = sudoku("rate", "-q", "--line", "11", "-", input=path.read_text())  # a line inside the grid
    assert grid.exit_code == 0 and grid.stdout.startswith(Grid.parse(HARD).to_line() + ":"), grid.stderr
    assert one_line_error(sudoku("rate", "-q", "-j", "1", "--line", "6", str(other))) == (
        f"sudoku: error: {other}:6: no puzzle on line 6: the last puzzle of {other} ends on line 5"
    )
    assert "argument" in one_line_error(sudoku("rate", "--line", "1", EASY))


def test_every_command_reads_the_notes_data_sets_write(tmp_path: Path) -> None:
    """``puzzle # name`` and ``puzzle<TAB>rating`` lines were invalid records for every command."""
    chosen = [EASY, HARD, puzzles("top95.txt")[1]]
    path = tmp_path / "named.txt"
    path.write_text(f"{chosen[0]} # Project Euler 1\n{chosen[1]}\t9.9\n{chosen[2]}\tER 9.2 anything\n")
    solved = sudoku("solve", "-q", "-j", "1", "-f", "line", str(path))
    assert solved.exit_code == 0, solved.stderr
    assert [line.split(":")[0] for line in solved.stdout.splitlines()] == [Grid.parse(p).to_line() for p in chosen]
    rated = sudoku("rate", "-q", "-j", "1", str(path))
    assert rated.exit_code == 0, rated.stderr
    assert [line.rsplit(":", 2)[1] for line in rated.stdout.splitlines()] == [rate(p).level for p in chosen]
    checked = sudoku("check", "-q", "-j", "1", "-s", "backtrack,python-constraint", "-f", "line", str(path))
    assert checked.exit_code == 0, checked.stderr
    assert len(checked.stdout.splitlines()) == 3
    one = tmp_path / "one.txt"
    one.write_text(f"{HARD}\t9.9\n")
    assert sudoku("hint", str(one)).stdout == sudoku("hint", HARD).stdout
    assert sudoku("explain", "-f", "json", str(one)).stdout == sudoku("explain", "-f", "json", HARD).stdout


def test_explain_numbers_every_step_and_ends_with_the_rating() -> None:
    path, rating = rated_steps(HARD)
    done = sudoku("explain", HARD)
    assert done.exit_code == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == len(path) + 1
    for k, (line, step) in enumerate(zip(lines, path, strict=False), 1):
        assert line == f"{k}. {step.technique}: {step.explanation}"
    assert lines[-1].startswith(f"rating: {rating.level}, score {rating.score} (hardest: {rating.hardest}")
    assert any("needs search" in line for line in lines[:-1])


def test_explain_json_is_an_object_a_step_then_the_rating() -> None:
    done = sudoku("explain", "-f", "json", HARD)
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["step"] for r in records[:-1]] == list(range(1, len(records)))
    assert all(
        set(r) == {"step", "technique", "cells", "digits", "placements", "eliminations", "explanation"}
        for r in records[:-1]
    )
    assert records[-1]["rating"] == rate(HARD).to_dict()


def test_rate_writes_one_record_per_input_puzzle_in_order_invalid_included(tmp_path: Path) -> None:
    file = tmp_path / "mixed.txt"
    chosen = [EASY, HARD, puzzles("easy50.txt")[7]]
    file.write_text(f"{chosen[0]}\n{chosen[1]}\nnot a puzzle at all\n{KILLER6}\n{chosen[2]}\n")
    done = sudoku("rate", "-q", "-j", "1", str(file))
    assert done.exit_code == 2  # an invalid record
    lines = done.stdout.splitlines()
    assert len(lines) == 5
    for line, puzzle in zip((lines[0], lines[1], lines[3], lines[4]), [*chosen[:2], KILLER6, chosen[2]], strict=True):
        rating = rate(puzzle)
        assert line == f"{Grid.parse(puzzle).to_line()}:{rating.level}:{rating.score}"
    assert lines[2].endswith(":invalid")
    assert "mixed.txt:3" in done.stderr

    as_json = [json.loads(x) for x in sudoku("rate", "-q", "-j", "1", "-f", "json", str(file)).stdout.splitlines()]
    assert [r["status"] for r in as_json] == ["solved", "solved", "invalid", "solved", "solved"]
    assert [r["line"] for r in as_json] == [1, 2, 3, 4, 5]
    assert as_json[1]["level"] == rate(HARD).level and as_json[1]["guesses"] == rate(HARD).guesses
    assert as_json[1]["techniques"] == rate(HARD).techniques
    assert as_json[2]["level"] is None and as_json[3]["level"] == rate(KILLER6).level

    as_csv = sudoku("rate", "-q", "-j", "1", "-f", "csv", str(file)).stdout.splitlines()
    header = as_csv[0].split(",")
    assert header[-len(CSV_EXTRA) :] == list(CSV_EXTRA) and len(as_csv) == 6
    first = dict(zip(header, as_csv[1].split(","), strict=True))
    assert first["level"] in LEVELS and int(first["score"]) == rate(EASY).score


def test_rate_takes_puzzle_arguments() -> None:
    done = sudoku("rate", EASY, HARD)
    assert done.exit_code == 0, done.stderr
    assert [line.rsplit(":", 2)[1] for line in done.stdout.splitlines()] == [rate(EASY).level, rate(HARD).level]


def test_rate_pretty_shows_each_puzzle_grid_and_its_rating_and_failures_as_solve_does(tmp_path: Path) -> None:
    file = tmp_path / "mixed.txt"
    file.write_text(f"{EASY}\nnot a puzzle at all\n{X4}\n{HARD}\n")
    done = sudoku("rate", "-q", "-j", "1", "-f", "pretty", str(file))
    assert done.exit_code == 2  # an invalid record, and a variant with several solutions
    blocks = done.stdout.rstrip("\n").split("\n\n")
    assert [block.splitlines()[0] for block in blocks] == [f"# {file}:{k}" for k in range(1, 5)]
    assert blocks[1].splitlines()[1].startswith("invalid: ") and blocks[2].splitlines()[1].startswith("several: ")
    for block, puzzle in ((blocks[0], EASY), (blocks[3], HARD)):
        _, *grid, last = block.splitlines()
        cells = "".join(ch for line in grid for ch in line if ch.isdigit() or ch == ".")
        assert Grid.parse(cells) == Grid.parse(puzzle)
        r = rate(puzzle)
        assert last == f"level {r.level}, score {r.score} (hardest: {r.hardest or 'none'}; guesses {r.guesses})"
    assert sudoku("rate", "-q", "-j", "1", "-f", "pretty", str(file)).stdout == done.stdout

    alone = sudoku("rate", "-f", "pretty", HARD)  # a lone puzzle: no header line
    assert alone.exit_code == 0 and alone.stdout == blocks[3].split("\n", 1)[1] + "\n"
    assert sudoku("rate", "-f", "pretty", "--resume", "-O", str(tmp_path / "o.txt"), HARD).exit_code == 2


# counts.txt: 357 solutions (the techniques' unique rectangles made it "Extreme:4310" before it was refused).
SEVERAL = "....5..4...8.1.5..4......12.7.5.2.8....6.3....4.1.9...25.....98..1.2.6...8.....2."
UNSOLVABLE = ".3.....8...9...5....75.92..7..1.5..8.2..9..3.9..4.2..1..42571....2...8...7.....9."


@pytest.mark.parametrize("puzzle", [SEVERAL, "." * 81], ids=["357-solutions", "empty"])
def test_a_puzzle_with_several_solutions_is_not_rated_explained_or_hinted(puzzle: str) -> None:
    line = sudoku("rate", puzzle)
    assert line.exit_code == 1 and line.stdout == f"{puzzle}:several\n", line.stdout + line.stderr
    record = json.loads(sudoku("rate", "-f", "json", puzzle).stdout)
    assert record["level"] is None and record["score"] is None and record["techniques"] is None
    assert record["count"] == 2 and record["error"] == "the puzzle has more than one solution: no rating"
    pretty = sudoku("rate", "-f", "pretty", puzzle)
    assert pretty.exit_code == 1 and pretty.stdout == "several: the puzzle has more than one solution: no rating\n"
    for command, noun in (("explain", "explanation"), ("hint", "hint")):
        for fmt in ("pretty", "json"):
            done = sudoku(command, "-f", fmt, puzzle)
            assert done.exit_code == 1 and done.stdout == "", done.stdout
            assert done.stderr == f"sudoku: the puzzle has more than one solution: no {noun}\n"


def test_a_puzzle_without_a_solution_gets_no_hint_and_exit_status_one() -> None:
    for command in ("hint", "explain"):
        done = sudoku(command, UNSOLVABLE)
        assert done.exit_code == 1 and done.stdout == "", done.stdout
        assert done.stderr == "sudoku: the puzzle has no solution\n"


def test_a_batch_counts_puzzles_with_several_solutions_apart(tmp_path: Path) -> None:
    file = tmp_path / "mixed.txt"
    file.write_text(f"{EASY}\n{SEVERAL}\n{UNSOLVABLE}\n")
    done = sudoku("rate", "-j", "1", str(file))
    assert done.exit_code == 1
    answers = [line.rsplit(":", 1)[1] for line in done.stdout.splitlines()]
    assert answers == [str(rate(EASY).score), "several", "unsolvable"]
    assert "1 solved, 1 unsolvable, 1 not unique" in done.stderr


BIG_HARD = sized("5x5")[0][0].to_line()  # backtrack needs tens of seconds to count it to 2
EMPTY_49 = "." * 49 * 49  # the logic alone ran past 100 s and 585 MB before there was a limit


@pytest.mark.parametrize("puzzle", [BIG_HARD], ids=["hard-25x25"])
def test_hint_explain_and_rate_stop_at_the_time_limit_as_a_timeout(puzzle: str) -> None:
    for command in ("explain", "hint"):
        for fmt in ("pretty", "json"):
            start = time.monotonic()
            done = sudoku(command, "-f", fmt, "-t", "0.5", puzzle)
            assert time.monotonic() - start < 30  # a wide margin: without the limit this ran for minutes
            assert done.exit_code == 1 and done.stdout == "", done.stdout
            assert done.stderr.startswith("sudoku: timeout: ") and done.stderr.count("\n") == 1, done.stderr
            assert "0.5 s" in done.stderr
    rated = sudoku("rate", "-t", "0.5", puzzle)
    assert rated.exit_code == 1 and rated.stdout.endswith(":timeout\n")


def test_a_board_larger_than_the_counting_engine_claims_is_refused_at_once() -> None:
    # backtrack, which counts the solutions first, claims boards up to 36x36: a 49x49 is not run at all.
    for command in ("explain", "hint", "rate"):
        start = time.monotonic()
        done = sudoku(command, "-t", "60", EMPTY_49)
        assert time.monotonic() - start < 30  # a wide margin: it ran for minutes and 585 MB before
        assert done.exit_code == 2, done.stderr
        assert done.stderr.count("\n") == 1 and "not 49x49" in done.stderr, done.stderr
        # rate writes a record for every puzzle; hint and explain print nothing but the error
        assert done.stdout.endswith(":unsupported\n") if command == "rate" else done.stdout == ""


def test_hint_and_explain_take_the_time_limit_of_solve() -> None:
    for command in ("hint", "explain"):
        assert "--time-limit" in sudoku(command, "--help").stdout
        refused = sudoku(command, "-t", "-1", EASY)
        assert refused.exit_code == 2 and "--time-limit" in refused.stderr
        assert sudoku(command, "-t", "none", EASY).exit_code == 0


def test_a_count_to_two_that_runs_out_of_time_is_a_timeout_record_not_a_solution(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sudokit.engines.registry
    from sudokit.engines.registry import ENTRY_POINT_GROUP, Registry

    # As backtrack on a hard 25x25: one solution found, then the time ran out looking for a second.
    slow = EntryPoint("backtrack", "tests.plugins.hostile:StopsAfterOne", ENTRY_POINT_GROUP)
    monkeypatch.setattr(sudokit.engines.registry, "_default", Registry(eps=[slow]))
    line = sudoku("rate", "-j", "1", HARD)
    assert line.exit_code == 1 and line.stdout == f"{HARD}:timeout\n", line.stdout
    record = json.loads(sudoku("rate", "-j", "1", "-f", "json", HARD).stdout)
    assert record["status"] == "timeout" and record["level"] is None and "time limit" in record["error"]
    assert sudoku("rate", "-j", "1", "-f", "pretty", HARD).stdout.startswith("timeout: ")


def test_hint_explain_and_rate_count_with_the_engine_of_strategy_and_check_its_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """-s names the engine that counts to 2 (backtrack unless told); a lie of it is an error, never a rating."""
    import sudokit.engines.registry
    from sudokit.engines.registry import ENTRY_POINT_GROUP, Registry

    by_backtrack = json.loads(sudoku("rate", "-j", "1", "-f", "json", EASY).stdout)
    by_cpsat = json.loads(sudoku("rate", "-j", "1", "-s", "cp-sat", "-f", "json", EASY).stdout)
    assert by_backtrack["strategy"] == "backtrack" and by_cpsat["strategy"] == "cp-sat"
    fields = ("status", "level", "score", "hardest", "techniques", "solution")
    assert [by_cpsat[k] for k in fields] == [by_backtrack[k] for k in fields]
    assert sudoku("hint", "-s", "cp-sat", EASY).stdout == sudoku("hint", EASY).stdout
    assert sudoku("explain", "-s", "cp-sat", EASY).stdout == sudoku("explain", EASY).stdout
    refused(sudoku("hint", "-s", "no-such-engine", EASY), "unknown strategy 'no-such-engine'")
    refused(sudoku("rate", "-s", "no-such-engine", EASY), "unknown strategy 'no-such-engine'")

    liar = EntryPoint("wrong-grid", "tests.plugins.hostile:WrongGrid", ENTRY_POINT_GROUP)  # one cell changed
    monkeypatch.setattr(sudokit.engines.registry, "_default", Registry(eps=[liar]))
    for command in ("hint", "explain"):
        done = sudoku(command, "-s", "wrong-grid", EASY)
        refused(done, "strategy 'wrong-grid' failed: returned an invalid grid")
        assert done.stdout == ""
    record = json.loads(sudoku("rate", "-j", "1", "-s", "wrong-grid", "-f", "json", EASY).stdout)
    assert record["status"] == "error" and record["level"] is None and "returned an invalid grid" in record["error"]


def test_hint_on_a_16x16_board_writes_candidates_in_its_own_symbols() -> None:
    """'r4c8 {1,2,3,4,7,16}' while the grid above it and the input write 16 as G."""
    from sudokit.features.logic import Candidates

    puzzle = sized("4x4")[0][0]
    done = sudoku("hint", puzzle.to_line())
    assert done.exit_code == 0, done.stderr
    [line] = [line for line in done.stdout.splitlines() if line.startswith("candidates: ")]
    state = Candidates(puzzle)
    for part in line.removeprefix("candidates: ").split("; "):
        name, shown = part.split(" ")
        row, col = (int(x) for x in name[1:].split("c"))
        want = ["123456789ABCDEFG"[d - 1] for d in state.candidates((row - 1) * 16 + col - 1)]
        assert shown == "{" + ",".join(want) + "}", line
    assert "G" in line  # this hint's cell holds 16 among its candidates
