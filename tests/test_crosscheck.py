"""The cross-check: every installed engine on the same puzzles, every answer verified, all agreeing.

The misbehaving engines below are built on the backtrack engine's own answers (a swapped pair of
cells, a changed given, a false "no solution", a wrong count), so nothing here hard-codes a solution.
"""

from __future__ import annotations

import importlib
import json
import os
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

import sudokit.engines.registry
from sudokit import CrossCheckReport, Grid, Result, Status, cross_check, is_solution, solve
from sudokit.cli import app
from sudokit.engines.api import DEFAULT_COUNT_LIMIT
from sudokit.engines.registry import ENTRY_POINT_GROUP, Registry, StrategyWarning, default_registry
from sudokit.errors import InvalidPuzzleError, StrategyError, UnknownStrategyError
from sudokit.features.crosscheck import KEEP_AT_MOST

PUZZLES = Path(__file__).parent.parent / "puzzles"
TOP95 = PUZZLES / "top95.txt"
COUNTS = PUZZLES / "counts.txt"
#: Every how many-th puzzle of top95 the all-engine test takes: python-constraint needs up to ~10 s
#: on some of them (all 95 take ~100 s); SUDOKIT_FULL_CROSSCHECK=1 runs every one.
TOP95_STEP = 1 if os.environ.get("SUDOKIT_FULL_CROSSCHECK") else 12


def read_lines(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]


def counted() -> list[tuple[str, int]]:
    """counts.txt as (puzzle, exact number of solutions)."""
    return [(p, int(c)) for p, c in (line.split(":") for line in read_lines(COUNTS))]


TOP95_PUZZLES = read_lines(TOP95)
UNIQUE = TOP95_PUZZLES[0]
EASY = read_lines(PUZZLES / "leetcode37.txt")[0]
UNSOLVABLE = next(p for p, c in counted() if c == 0)
#: The puzzle of counts.txt with the fewest solutions above 3, so two engines can return disjoint pairs.
SEVERAL, SEVERAL_COUNT = min(((p, c) for p, c in counted() if c > 3), key=lambda pc: pc[1])
#: A puzzle with more solutions than the cross-check keeps of an engine's answer (``KEEP_AT_MOST``): an
#: engine can lie about its count there and still hand in a consistent answer, so only the comparison
#: of counts can catch it.
MANY, MANY_COUNT = min(((p, c) for p, c in counted() if c > KEEP_AT_MOST), key=lambda pc: pc[1])

runner = CliRunner()


# --- engines that misbehave, each built on the backtrack engine's answer -------------------------


class Backtracked:
    """Base: asks ``backtrack`` for the same limit (and keep), then changes its answer in ``alter``."""

    name = "base"
    description = "a test engine"

    def solve(
        self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> Result:
        right = solve(puzzle, "backtrack", limit=limit, keep=keep, time_limit=time_limit)
        return self.alter(puzzle, replace(right, strategy=self.name), limit)

    def alter(self, puzzle: Grid, result: Result, limit: int) -> Result:
        return result


def swap(puzzle: Grid, grid: Grid, *, blanks: bool) -> Grid:
    """``grid`` with two cells of one row swapped: two blank cells, or a given and its neighbour."""
    n = puzzle.n
    for r in range(n):
        row = range(r * n, r * n + n)
        pick = [i for i in row if not puzzle.cells[i]] if blanks else [i for i in row if puzzle.cells[i]]
        if blanks and len(pick) >= 2:
            i, j = pick[:2]
            break
        if not blanks and pick:
            i = pick[0]
            j = i + 1 if i + 1 < r * n + n else i - 1
            break
    cells = list(grid.cells)
    cells[i], cells[j] = cells[j], cells[i]
    return Grid(cells, puzzle.shape, validate=False)


class SwapsBlanks(Backtracked):
    name = "swaps-blanks"

    def alter(self, puzzle: Grid, result: Result, limit: int) -> Result:
        return replace(result, solutions=(swap(puzzle, result.solutions[0], blanks=True), *result.solutions[1:]))


class ChangesGiven(Backtracked):
    name = "changes-given"

    def alter(self, puzzle: Grid, result: Result, limit: int) -> Result:
        return replace(result, solutions=(swap(puzzle, result.solutions[0], blanks=False), *result.solutions[1:]))


class SaysUnsolvable(Backtracked):
    name = "says-unsolvable"

    def alter(self, puzzle: Grid, result: Result, limit: int) -> Result:
        return Result(Status.UNSOLVABLE, puzzle, self.name, exact=True)


class ClaimsUnique(Backtracked):
    """Returns the first solution found and claims it is the only one."""

    name = "claims-unique"

    def alter(self, puzzle: Grid, result: Result, limit: int) -> Result:
        return replace(result, solutions=result.solutions[:1], count=1, exact=True)


class CountsOneMore(Backtracked):
    """Keeps the solutions found, but adds one to an exact count."""

    name = "counts-one-more"

    def alter(self, puzzle: Grid, result: Result, limit: int) -> Result:
        return replace(result, count=result.count + 1)


class Reversed(Backtracked):
    """Finds every solution and returns the last ones: other grids than backtrack's, the same answer."""

    name = "reversed"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        every = solve(puzzle, "backtrack", limit=DEFAULT_COUNT_LIMIT, time_limit=time_limit)
        assert every.exact, "the test puzzle must have fewer solutions than the count limit"
        last = every.solutions[::-1][:limit]
        return replace(every, strategy=self.name, solutions=last, count=len(last), exact=every.count < limit)


class Crashes:
    name = "crashes"
    description = "raises"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        raise RuntimeError("boom")


class TimesOut:
    name = "times-out"
    description = "gives up at once"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        return Result(Status.TIMEOUT, puzzle, self.name)


class TimesOutWithBadGrid(SwapsBlanks):
    name = "times-out-badly"

    def alter(self, puzzle: Grid, result: Result, limit: int) -> Result:
        return replace(super().alter(puzzle, result, limit), status=Status.TIMEOUT, exact=False)


# --- the real engines agree ------------------------------------------------------------------------


def installed() -> list[str]:
    return default_registry().names()


def assert_agree(report: CrossCheckReport) -> None:
    assert report.agree, report.problems
    assert report.verdict == "agree"
    assert report.problems == ()
    assert [a.name for a in report.engines] == installed()


def test_every_installed_engine_is_compared_by_default() -> None:
    report = cross_check(UNIQUE)
    assert_agree(report)
    assert set(report.results) == set(installed())
    assert (report.count, report.exact, report.limit) == (1, True, 2)


@pytest.mark.parametrize("puzzle", TOP95_PUZZLES[::TOP95_STEP])
def test_top95_engines_agree_on_one_solution(puzzle: str) -> None:
    report = cross_check(puzzle)
    assert_agree(report)
    assert (report.count, report.exact) == (1, True)
    solutions = {a.result.solution for a in report.engines}
    assert len(solutions) == 1
    assert is_solution(report.puzzle, solutions.pop())


@pytest.mark.parametrize(("puzzle", "expected"), counted())
def test_counts_engines_agree_on_the_exact_count(puzzle: str, expected: int) -> None:
    report = cross_check(puzzle, count=True)
    assert_agree(report)
    assert report.limit == DEFAULT_COUNT_LIMIT
    assert (report.count, report.exact) == (expected, True)
    for answer in report.engines:
        assert answer.result.count == expected, answer.name
        assert answer.result.status is (Status.SOLVED if expected else Status.UNSOLVABLE)


@pytest.mark.parametrize(("puzzle", "expected"), counted())
def test_counts_engines_agree_on_uniqueness(puzzle: str, expected: int) -> None:
    report = cross_check(puzzle)
    assert_agree(report)
    assert (report.count, report.exact) == ((expected, True) if expected < 2 else (2, False))


def test_different_valid_grids_of_a_puzzle_with_several_solutions_agree() -> None:
    report = cross_check(SEVERAL, ["backtrack", Reversed()])
    first, last = (set(a.result.solutions) for a in report.engines)
    assert first.isdisjoint(last)  # the premise: the two engines returned different grids
    assert report.agree, report.problems
    assert (report.count, report.exact) == (2, False)


def test_different_single_grids_agree_when_asked_for_one() -> None:
    report = cross_check(SEVERAL, ["backtrack", Reversed()], limit=1)
    assert report.answer("backtrack").result.solution != report.answer("reversed").result.solution
    assert report.agree, report.problems
    assert (report.count, report.exact) == (1, False)


def test_counting_with_different_grids_agrees() -> None:
    report = cross_check(SEVERAL, ["backtrack", Reversed()], count=True, limit=SEVERAL_COUNT + 1)
    assert report.agree, report.problems
    assert (report.count, report.exact) == (SEVERAL_COUNT, True)


def test_a_grid_or_text_and_names_or_objects_are_accepted() -> None:
    by_text = cross_check(UNIQUE, "backtrack")
    by_grid = cross_check(Grid.parse(UNIQUE), [default_registry().get("backtrack")])
    assert by_text.agree and by_grid.agree
    assert by_text.results["backtrack"].solution == by_grid.results["backtrack"].solution


def test_two_configurations_of_one_engine_are_both_compared() -> None:
    plain = type(default_registry().get("backtrack"))(order="plain")
    report = cross_check(EASY, ["backtrack", plain, "backtrack"])  # plain order is slow on hard ones
    assert [a.name for a in report.engines] == ["backtrack", "backtrack#2"]
    assert report.answer("backtrack#2").result.stats != report.answer("backtrack").result.stats
    assert report.agree, report.problems


# --- failures are found and the engine is named ----------------------------------------------------


def test_an_invalid_grid_is_a_disagreement_naming_the_engine() -> None:
    report = cross_check(UNIQUE, ["backtrack", SwapsBlanks()])
    assert not report.agree
    assert report.verdict == "disagree"
    assert report.answer("swaps-blanks").verdict == "invalid"
    assert report.answer("backtrack").verdict == "ok"
    (problem,) = report.problems
    assert problem.startswith("engine 'swaps-blanks' returned an invalid grid (solution 1 of 1): column ")
    assert "not a permutation of 1..9" in problem


def test_a_changed_given_is_named() -> None:
    report = cross_check(UNIQUE, [ChangesGiven(), "backtrack"])
    assert report.verdict == "disagree"
    (problem,) = report.problems
    assert "'changes-given'" in problem and "given" in problem


def test_an_invalid_second_solution_is_found() -> None:
    class SecondSwapped(Backtracked):
        name = "second-swapped"

        def alter(self, puzzle: Grid, result: Result, limit: int) -> Result:
            first, second = result.solutions
            return replace(result, solutions=(first, swap(puzzle, second, blanks=True)))

    report = cross_check(SEVERAL, ["backtrack", SecondSwapped()])
    assert report.verdict == "disagree"
    assert "(solution 2 of 2)" in report.answer("second-swapped").problem


def test_no_solution_against_a_valid_one_names_the_wrong_engine() -> None:
    report = cross_check(UNIQUE, ["backtrack", SaysUnsolvable()])
    assert report.verdict == "disagree"
    assert report.answer("backtrack").verdict == "ok"
    assert report.answer("says-unsolvable").verdict == "disagree"
    (problem,) = report.problems
    assert problem == "engine 'says-unsolvable' says the puzzle has no solution, but 'backtrack' returned a valid one"


def test_unique_against_several_is_a_disagreement() -> None:
    report = cross_check(SEVERAL, ["backtrack", ClaimsUnique()])
    assert report.verdict == "disagree"
    assert report.answer("backtrack").verdict == "ok"
    assert "'claims-unique' counted exactly 1 solution" in report.answer("claims-unique").problem


def test_two_engines_both_claiming_unique_with_different_grids_are_both_wrong() -> None:
    class ReversedUnique(Reversed):
        name = "reversed-unique"

        def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
            return replace(super().solve(puzzle, limit=1, time_limit=time_limit), count=1, exact=True)

    report = cross_check(SEVERAL, [ClaimsUnique(), ReversedUnique()])
    assert report.verdict == "disagree"
    assert {a.verdict for a in report.engines} == {"disagree"}


def test_exact_counts_that_differ_are_a_disagreement() -> None:
    report = cross_check(MANY, ["backtrack", CountsOneMore()], count=True)
    assert report.verdict == "disagree"
    (problem,) = report.problems
    assert problem == (
        f"engines disagree on the number of solutions: 'backtrack' exactly {MANY_COUNT}, "
        f"'counts-one-more' exactly {MANY_COUNT + 1}"
    )
    assert report.count is None


def test_a_count_that_its_own_solutions_refute_is_an_invalid_answer() -> None:
    report = cross_check(SEVERAL, ["backtrack", CountsOneMore()], count=True)
    assert report.verdict == "disagree"
    assert report.answer("counts-one-more").verdict == "invalid"
    (problem,) = report.problems
    assert problem == (
        f"engine 'counts-one-more' returned {SEVERAL_COUNT} solutions with count {SEVERAL_COUNT + 1}"
        f" (asked to keep {KEEP_AT_MOST})"
    )


def test_an_exact_count_below_an_inexact_one_is_a_disagreement() -> None:
    class AtLeastMore(Backtracked):
        name = "at-least-more"

        def alter(self, puzzle: Grid, result: Result, limit: int) -> Result:
            return replace(result, count=MANY_COUNT + 10, exact=False)

    report = cross_check(MANY, ["backtrack", AtLeastMore()], count=True)
    assert report.verdict == "disagree"
    assert f"'backtrack' exactly {MANY_COUNT}, 'at-least-more' at least {MANY_COUNT + 10}" in report.problems[0]


def test_a_crash_is_an_error_naming_the_engine() -> None:
    report = cross_check(UNIQUE, ["backtrack", Crashes()])
    assert report.verdict == "error"
    assert not report.agree
    assert report.answer("crashes").result.status is Status.ERROR
    (problem,) = report.problems
    assert problem.startswith("engine 'crashes' failed: ") and "boom" in problem


def test_a_timeout_is_undecided_not_a_disagreement() -> None:
    report = cross_check(UNIQUE, ["backtrack", TimesOut()])
    assert report.verdict == "undecided"
    assert not report.agree
    assert report.answer("times-out").verdict == "undecided"
    assert (report.count, report.exact) == (1, True)  # what the engines that decided agree on
    assert report.problems == ("engine 'times-out' ran out of time before deciding",)


def test_a_timeout_with_an_invalid_grid_is_still_a_failure() -> None:
    report = cross_check(UNIQUE, ["backtrack", TimesOutWithBadGrid()])
    assert report.verdict == "disagree"
    assert report.answer("times-out-badly").verdict == "invalid"


def test_an_engine_that_does_not_load_is_an_error_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sudokit.engines.registry, "_default", registry_with(broken="sudokit_no_such_module:Engine"))
    with pytest.warns(StrategyWarning, match="broken"):
        report = cross_check(UNIQUE)
    assert [a.name for a in report.engines] == ["backtrack", "broken"]
    assert report.verdict == "error"
    assert report.answer("backtrack").verdict == "ok"
    broken = report.answer("broken")
    assert (broken.verdict, broken.result) == ("error", None)
    assert "'broken'" in broken.problem and "ModuleNotFoundError" in broken.problem


def test_unknown_names_and_bad_puzzles_raise() -> None:
    with pytest.raises(UnknownStrategyError, match="no-such-engine"):
        cross_check(UNIQUE, ["backtrack", "no-such-engine"])
    with pytest.raises(InvalidPuzzleError):
        cross_check(UNIQUE[:-1], ["backtrack"])
    with pytest.raises(StrategyError):
        cross_check(UNIQUE, [])
    with pytest.raises(ValueError, match="limit"):
        cross_check(UNIQUE, ["backtrack"], limit=0)


def test_to_dict_is_json_with_every_engine() -> None:
    report = cross_check(UNIQUE, ["backtrack", SwapsBlanks()])
    data = json.loads(json.dumps(report.to_dict()))
    assert set(data) == {"puzzle", "verdict", "agree", "count", "exact", "limit", "engines", "problems"}
    assert (data["puzzle"], data["verdict"], data["agree"]) == (Grid.parse(UNIQUE).to_line(), "disagree", False)
    assert [e["strategy"] for e in data["engines"]] == ["backtrack", "swaps-blanks"]
    assert set(data["engines"][0]) == {
        "strategy",
        "verdict",
        "status",
        "count",
        "exact",
        "solution",
        "solutions",
        "elapsed_ms",
        "stats",
        "problem",
    }
    assert is_solution(report.puzzle, Grid.parse(data["engines"][0]["solution"]))
    assert data["problems"] == list(report.problems)


# --- the CLI ---------------------------------------------------------------------------------------


class FakeEntryPoint:
    """An entry point that loads an object of this module (what ``importlib.metadata`` would find)."""

    def __init__(self, name: str, target: str) -> None:
        self.name, self.value, self.group, self.dist = name, target, ENTRY_POINT_GROUP, None

    def load(self) -> object:
        module, _, attr = self.value.partition(":")
        if module == "<tests>":
            return globals()[attr]
        return getattr(importlib.import_module(module), attr)


def registry_with(**engines: str) -> Registry:
    """The installed backtrack engine plus ``engines`` (name: ``module:attr``, ``<tests>`` for this file)."""
    backtrack = FakeEntryPoint("backtrack", "sudokit_strategies.backtrack:BacktrackStrategy")
    return Registry(eps=[backtrack, *(FakeEntryPoint(name, target) for name, target in engines.items())])


def check(*args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["check", *args])


def test_cli_check_exits_0_when_the_engines_agree() -> None:
    result = check(UNIQUE)
    assert result.exit_code == 0, result.output
    for name in installed():
        assert name in result.stdout
    assert "agree: 1 solution" in result.stdout
    assert result.stderr == ""  # one puzzle: no summary (as with solve)
    batch = check(UNIQUE, EASY)
    assert batch.exit_code == 0, batch.output
    assert batch.stderr.startswith("2 puzzles: 2 agreed, 0 disagreed")  # the summary goes to stderr


def test_cli_check_json_records() -> None:
    result = check("--strategies", "backtrack", "--format", "json", UNIQUE, SEVERAL, UNSOLVABLE)
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["puzzle"] for r in records] == [Grid.parse(p).to_line() for p in (UNIQUE, SEVERAL, UNSOLVABLE)]
    assert [(r["count"], r["exact"]) for r in records] == [(1, True), (2, False), (0, True)]
    for record in records:
        assert set(record) == {
            "puzzle",
            "verdict",
            "agree",
            "count",
            "exact",
            "limit",
            "engines",
            "problems",
            "source",
            "line",
        }
        assert (record["verdict"], record["agree"], record["problems"]) == ("agree", True, [])
        assert [e["strategy"] for e in record["engines"]] == ["backtrack"]
    assert "3 puzzles: 3 agreed" in result.stderr  # the summary stays out of the JSON stream


def test_cli_check_count_compares_exact_counts() -> None:
    result = check("-s", "backtrack", "--count", "-f", "json", SEVERAL)
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert (record["count"], record["exact"], record["limit"]) == (SEVERAL_COUNT, True, DEFAULT_COUNT_LIMIT)


def test_cli_check_line_format() -> None:
    result = check("-s", "backtrack", "-f", "line", SEVERAL)
    assert result.exit_code == 0, result.output
    puzzle, verdict, rest = result.stdout.strip().split(":", 2)
    assert (puzzle, verdict) == (Grid.parse(SEVERAL).to_line(), "agree")
    assert rest.startswith("2+ backtrack=2+/")


def test_cli_check_invalid_puzzle_exits_2_with_one_line() -> None:
    result = check("-s", "backtrack", UNIQUE[:-1])
    assert result.exit_code == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith("sudoku: error: ") and "80 cells" in line
    assert "Traceback" not in result.output


def test_cli_check_unknown_strategy_exits_2() -> None:
    result = check("--strategies", "backtrack,no-such-engine", UNIQUE)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"sudoku: error: unknown strategy 'no-such-engine' (installed: {', '.join(installed())})"
    ]
    assert result.stdout == ""


def test_cli_check_file_keeps_invalid_records_in_order(tmp_path: Path) -> None:
    path = tmp_path / "mixed.txt"
    path.write_text(f"{UNIQUE}\n{UNIQUE[:-1]}\n\n{UNSOLVABLE}\n")
    result = check("-s", "backtrack", "-f", "json", str(path))
    assert result.exit_code == 2
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["line"], r["verdict"]) for r in records] == [(1, "agree"), (2, "invalid"), (4, "agree")]
    assert records[1]["puzzle"] == UNIQUE[:-1]
    problem = records[1]["problems"][0]
    assert problem.startswith("line 2: ")  # the record names its line; the message folds it into file:line
    assert result.stderr.splitlines()[0] == f"sudoku: error: {path}:2: " + problem.removeprefix("line 2: ")


def test_cli_solve_strategy_all_is_the_cross_check() -> None:
    via_solve = runner.invoke(app, ["solve", "--strategy", "all", "--format", "json", UNIQUE])
    via_check = check("--format", "json", UNIQUE)
    assert via_solve.exit_code == via_check.exit_code == 0, via_solve.output
    solved, checked = json.loads(via_solve.stdout), json.loads(via_check.stdout)
    for record in (solved, checked):
        for engine in record["engines"]:
            engine.pop("elapsed_ms")
            engine.pop("stats")  # timings among them
    assert solved == checked
    assert [e["strategy"] for e in solved["engines"]] == installed()
    pretty = runner.invoke(app, ["solve", "-s", "all", UNIQUE])
    assert pretty.exit_code == 0 and "agree: 1 solution" in pretty.stdout


def test_cli_solve_strategy_all_rejects_a_bad_puzzle() -> None:
    result = runner.invoke(app, ["solve", "-s", "all", UNIQUE[:-1]])
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    ("engine", "status", "blamed"),
    [
        ("SwapsBlanks", 3, "engine 'bad' returned an invalid grid"),
        ("Crashes", 3, "engine 'bad' failed: RuntimeError: boom"),
        ("SaysUnsolvable", 3, "engine 'bad' says the puzzle has no solution"),
        ("TimesOut", 1, "engine 'bad' ran out of time"),
        ("sudokit_no_such_module:Engine", 3, "strategy 'bad' (sudokit_no_such_module:Engine) failed to load"),
    ],
)
def test_cli_check_exit_status_names_the_engine_and_puzzle(
    monkeypatch: pytest.MonkeyPatch, engine: str, status: int, blamed: str
) -> None:
    target = engine if ":" in engine else f"<tests>:{engine}"
    monkeypatch.setattr(sudokit.engines.registry, "_default", registry_with(bad=target))
    result = check("--format", "line", UNIQUE)
    assert result.exit_code == status, result.output
    problems = [line for line in result.stderr.splitlines() if blamed in line]
    assert problems, result.stderr
    assert Grid.parse(UNIQUE).to_line() in problems[0]
    assert "engine 'backtrack'" not in result.stderr


def test_cli_check_disagreement_outranks_invalid_input(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sudokit.engines.registry, "_default", registry_with(bad="<tests>:SwapsBlanks"))
    result = check(UNIQUE[:-1], UNIQUE)
    assert result.exit_code == 3
    assert "1 disagreed" in result.stderr and "1 invalid" in result.stderr


@pytest.mark.parametrize("content", ["", "# only a comment\n\n"])
def test_cli_check_of_an_input_without_puzzles_exits_2(tmp_path: Path, content: str) -> None:
    path = tmp_path / "empty.txt"
    path.write_text(content, encoding="utf-8")
    for args in (["check", str(path), "-s", "backtrack"], ["check", "-", "-s", "backtrack"]):
        result = runner.invoke(app, args, input=content)
        assert result.exit_code == 2
        assert result.stderr.strip() == "sudoku: error: no puzzles in the input"
        assert "Traceback" not in result.output
