"""One consistent command line: every option works or is refused, with the conventions users expect.

``--version``, ``-h``, shell completion, ``--color``, time limits (``0``/``none``: no limit; ``inf``
or ``nan`` refused), ``--unique`` in every form, every solution in json, csv booleans, a hint for
``-o FILE``, ``--sample`` with ``--seed``, ``solve -s all`` taking the batch options, ``check``
with batches, engine options per engine; a wrong answer never printed as solved; the library's
``solve(..., isolate=True)``.
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

import sudokit.engines.registry
from sudokit import Grid, Status, __version__, is_solution, solve
from sudokit.engines.registry import ENTRY_POINT_GROUP, Registry
from tests.conftest import PUZZLES, counted, puzzles, sudoku

from .test_big_inputs import python

UNIQUE = puzzles("top95.txt")[1]
SEVERAL, SEVERAL_COUNT = min(((p, c) for p, c in counted() if c > 3), key=lambda pc: pc[1])
NONE = next(p for p, c in counted() if c == 0)
EASY = puzzles("easy50.txt")[:5]


def records(stdout: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in stdout.splitlines()]


@pytest.fixture
def plugins(monkeypatch: pytest.MonkeyPatch) -> Iterator[Registry]:
    """The real engines and two test doubles, as this process's registry."""
    eps = {
        "backtrack": "sudokit_strategies.backtrack:BacktrackStrategy",
        "cp-sat": "sudokit_strategies.cpsat:CpSatStrategy",
        "wrong-grid": "tests.plugins.hostile:WrongGrid",
        "reports-time-limit": "tests.plugins.killers:ReportsTimeLimit",
        "swallows-everything": "tests.plugins.killers:SwallowsEverything",
        "exits-process": "tests.plugins.killers:ExitsProcess",
    }
    registry = Registry(eps=[EntryPoint(name, value, ENTRY_POINT_GROUP) for name, value in eps.items()])
    monkeypatch.setattr(sudokit.engines.registry, "_default", registry)
    yield registry


@pytest.fixture
def batch(tmp_path: Path) -> Path:
    path = tmp_path / "batch.txt"
    path.write_text("\n".join([UNIQUE, SEVERAL, NONE]) + "\n")
    return path


# --- conventions ------------------------------------------------------------------------------------


def test_version() -> None:
    for flag in ("--version", "-V"):
        result = sudoku(flag)
        assert (result.exit_code, result.stdout) == (0, f"sudoku (sudokit) {__version__}\n")


def test_h_is_help_everywhere() -> None:
    for args in ([], ["solve"], ["check"], ["bench"], ["strategies"]):
        result = sudoku(*args, "-h")
        assert result.exit_code == 0 and result.stdout.startswith("Usage: sudoku")


def test_help_has_no_raw_markup_and_the_command_list_is_whole() -> None:
    top = sudoku("-h").stdout
    for name in ("solve", "check", "bench", "strategies"):
        listed = next(line for line in top.splitlines() if line.strip().startswith(name + " "))
        assert not listed.rstrip().endswith("..."), listed  # not cut
        text = sudoku(name, "-h").stdout
        assert "``" not in text and "[bold" not in text and "\\b" not in text
    assert "{PUZZLE...}" in sudoku("solve", "-h").stdout.splitlines()[0]  # several puzzles


#: Runs ``argv[2:]`` from an orphan (a process whose parent has exited, adopted by init), so that no shell
#: is among the command's ancestors, and writes ``[status, stdout, stderr]`` as JSON to ``argv[1]``.
ORPHAN = """
import json, os, subprocess, sys, time
parent = os.getpid()
if os.fork():
    os._exit(0)
while os.getppid() == parent:
    time.sleep(0.01)
done = subprocess.run(sys.argv[2:], capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)
with open(sys.argv[1] + ".part", "w") as out:
    json.dump([done.returncode, done.stdout, done.stderr], out)
os.rename(sys.argv[1] + ".part", sys.argv[1])
"""


def orphaned(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    """``args`` run with no shell among their ancestors and no ``SHELL`` set (as from a service or a
    process whose shell has exited): the status, stdout and stderr."""
    out = tmp_path / f"orphan-{len(list(tmp_path.iterdir()))}.json"
    env = {k: v for k, v in os.environ.items() if k != "SHELL"}
    subprocess.run([sys.executable, "-c", ORPHAN, str(out), *args], env=env, check=True, timeout=60)
    for _ in range(6000):
        if out.exists():
            status, stdout, stderr = json.loads(out.read_text())
            return status, stdout, stderr
        time.sleep(0.01)
    raise AssertionError(f"{args} did not finish in 60 s")


def test_shell_completion() -> None:
    script = subprocess.run(
        [sys.executable, "-m", "sudokit", "--show-completion", "zsh"], capture_output=True, text=True, timeout=60
    )
    assert script.returncode == 0 and script.stdout.startswith("#compdef sudoku"), script.stderr
    env = {**os.environ, "_SUDOKU_COMPLETE": "complete_bash", "COMP_WORDS": "sudoku st", "COMP_CWORD": "1"}
    done = subprocess.run([sys.executable, "-m", "sudokit"], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0 and done.stdout.split() == ["strategies"]


def test_show_completion_takes_the_shell_named_even_where_none_can_be_detected(tmp_path: Path) -> None:
    """``--show-completion bash`` ignored ``bash`` and asked shellingham, which finds no shell where the
    command's shell has exited ("Shell  not supported.", exit 1: the intermittent test_shell_completion)."""
    status, stdout, stderr = orphaned(tmp_path, sys.executable, "-m", "sudokit", "--show-completion", "bash")
    assert (status, stderr) == (0, "")
    assert "_SUDOKU_COMPLETE=complete_bash" in stdout and "complete -o default -F _sudoku_completion sudoku" in stdout


def test_show_completion_without_a_known_shell_is_one_line_saying_how_to_name_it(tmp_path: Path) -> None:
    unknown = subprocess.run(
        [sys.executable, "-m", "sudokit", "--show-completion", "tcsh"], capture_output=True, text=True, timeout=60
    )
    assert (unknown.returncode, unknown.stdout) == (2, "")
    assert unknown.stderr.splitlines() == [
        "sudoku: error: --show-completion: 'tcsh' is not a shell sudoku completes: name it, one of bash, zsh, "
        "fish, powershell, pwsh"
    ]
    seen = orphaned(tmp_path, sys.executable, "-c", "import shellingham; print(shellingham.detect_shell()[0])")
    status, stdout, stderr = orphaned(tmp_path, sys.executable, "-m", "sudokit", "--show-completion")
    if seen[0] == 0:  # init itself is a shell here: it is the one found, as for any user of that shell
        assert status == 0 and stdout, stderr
    else:
        assert (status, stdout) == (2, "")
        assert len(stderr.splitlines()) == 1
        assert "cannot tell which shell runs sudoku: name it, one of bash, zsh" in stderr


@pytest.mark.parametrize(("color", "env", "red"), [("always", {}, True), ("never", {}, False), ("auto", {}, False)])
def test_color(color: str, env: dict[str, str], red: bool) -> None:
    result = sudoku("solve", "--color", color, UNIQUE)
    assert ("\x1b[" in result.stdout) is red
    assert is_solution(Grid.parse(UNIQUE), Grid.parse(result.stdout))


def test_color_auto_follows_no_color_and_force_color() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    args = [sys.executable, "-m", "sudokit", "solve", UNIQUE]
    forced = subprocess.run(args, capture_output=True, text=True, env={**env, "FORCE_COLOR": "1"}, timeout=60)
    assert "\x1b[" in forced.stdout
    both = subprocess.run(
        args, capture_output=True, text=True, env={**env, "FORCE_COLOR": "1", "NO_COLOR": "1"}, timeout=60
    )
    assert "\x1b[" not in both.stdout


def test_o_with_a_file_name_hints_at_output() -> None:
    result = sudoku("solve", "-o", "solutions.txt", UNIQUE)
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "sudoku: error: option 'solutions.txt' is not of the form KEY=VALUE"
        " (to write the records to a file, use --output/-O)"
    )


@pytest.mark.parametrize("command", [["bench", str(PUZZLES / "hardest.txt")], ["strategies"]])
def test_a_format_a_command_does_not_write_is_refused(command: list[str]) -> None:
    result = sudoku(*command, "-f", "line")
    assert result.exit_code == 2 and "'line' is not one of" in result.stderr and result.stdout == ""


# --- time limits --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("given", "got"), [("0", "None"), ("none", "None"), ("1e10", "10000000000.0"), ("2.5", "2.5")])
def test_time_limit_values(plugins: Registry, given: str, got: str) -> None:
    result = sudoku("solve", "-s", "reports-time-limit", "-t", given, "-f", "json", UNIQUE)
    assert result.exit_code == 0, result.stderr
    [record] = records(result.stdout)
    assert record["status"] == "solved" and record["stats"] == {"time_limit": got}


@pytest.mark.parametrize("given", ["inf", "-inf", "nan", "-1", "soon"])
def test_time_limits_that_are_not_a_number_of_seconds_are_refused(given: str) -> None:
    result = sudoku("solve", "-t", given, UNIQUE)
    assert result.exit_code == 2 and "--time-limit" in result.stderr and result.stdout == ""


# --- a wrong answer is never printed as solved ---------------------------------------------------------


def test_a_wrong_grid_from_a_plugin_is_an_error_record(plugins: Registry, tmp_path: Path) -> None:
    solvable = tmp_path / "solvable.txt"
    solvable.write_text(f"{UNIQUE}\n{SEVERAL}\n")
    for fmt in ("json", "line", "pretty"):
        result = sudoku("solve", str(solvable), "-s", "wrong-grid", "-f", fmt)
        assert result.exit_code == 2, result.stderr
        assert "solved" not in result.stdout.replace("unsolvable", "")
        errors = [line for line in result.stderr.splitlines() if line.startswith("sudoku: error:")]
        assert errors and all("strategy 'wrong-grid' failed: returned" in line for line in errors)


# --- --unique, solutions in json, csv booleans ----------------------------------------------------------


def test_unique_in_every_format(batch: Path) -> None:
    line = sudoku("solve", "--unique", "-f", "line", str(batch))
    assert line.exit_code == 1  # not every puzzle is unique
    assert [text.rpartition(":")[2] for text in line.stdout.splitlines()] == ["unique", "several", "none"]
    assert "3 puzzles: 1 unique, 1 several, 1 none, 0 timed out, 0 invalid" in line.stderr
    js = records(sudoku("solve", "--unique", "-f", "json", str(batch)).stdout)
    assert [r["uniqueness"] for r in js] == ["unique", "several", "none"]
    assert [r["count"] for r in js] == [1, 2, 0]
    rows = list(csv.DictReader(io.StringIO(sudoku("solve", "--unique", "-f", "csv", str(batch)).stdout)))
    assert [r["uniqueness"] for r in rows] == ["unique", "several", "none"]
    pretty = sudoku("solve", "--unique", str(batch)).stdout
    assert (
        "unique: one solution" in pretty
        and "several: at least two solutions" in pretty
        and "none: no solution" in pretty
    )
    assert sudoku("solve", "--unique", UNIQUE).exit_code == 0


def test_unique_goes_without_count_and_limit() -> None:
    for extra in (["--count"], ["--limit", "3"]):
        result = sudoku("solve", "--unique", *extra, UNIQUE)
        assert result.exit_code == 2 and "--unique" in result.stderr


def test_json_lists_every_solution_found_above_a_limit_of_one() -> None:
    [record] = records(sudoku("solve", "--limit", "3", "-f", "json", SEVERAL).stdout)
    assert len(record["solutions"]) == 3 == record["count"]
    assert all(is_solution(Grid.parse(SEVERAL), Grid.parse(s)) for s in record["solutions"])
    assert len(set(record["solutions"])) == 3
    [checked] = records(sudoku("check", "-s", "backtrack", "-f", "json", SEVERAL).stdout)
    assert len(checked["engines"][0]["solutions"]) == 2


def test_csv_booleans_are_true_and_false(batch: Path) -> None:
    rows = list(csv.DictReader(io.StringIO(sudoku("solve", "--count", "-f", "csv", str(batch)).stdout)))
    assert [r["exact"] for r in rows] == ["true", "true", "true"]
    rows = list(csv.DictReader(io.StringIO(sudoku("solve", "-f", "csv", str(batch)).stdout)))
    assert [r["exact"] for r in rows] == ["false", "false", "true"]


def test_counting_keeps_one_solution_in_the_worker() -> None:
    """``--count`` to 20,000 on an empty board: the worker's memory does not grow with the count."""
    script = """
import os, resource, sys
from sudokit.cli import main
me, end = os.getpid(), os._exit
def report_and_end(code):
    if os.getpid() == me:
        usage = [resource.getrusage(who).ru_maxrss * 1024 for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
        print("maxrss", *usage, file=sys.stderr, flush=True)
    end(code)
os._exit = report_and_end
sys.argv = ["sudoku", *sys.argv[1:]]
main()
"""
    empty = "." * 81
    # A count that stops at its limit, not at a time limit: how far 3 s got depended on the machine's load.
    done = python(script, "solve", "--count", "--limit", "20000", "-t", "300", "-f", "json", empty)
    [record] = records(done.stdout)
    assert record["status"] == "solved" and record["count"] == 20_000 and not record["exact"], record
    command, workers = map(int, done.stderr.strip().splitlines()[-1].split()[1:])
    # A worker starts as a copy of the command; keeping every solution it counts grew it by ~90 MB here.
    assert workers < command + 30 * 2**20, f"worker {workers / 2**20:.0f} MiB, command {command / 2**20:.0f} MiB"


# --- solve -s all is check, with every batch option --------------------------------------------------


def test_solve_all_takes_the_batch_options(tmp_path: Path, batch: Path) -> None:
    out = tmp_path / "out.jsonl"
    args = ["solve", "-s", "all", str(batch), "-f", "json", "-j", "2", "-q", "-O", str(out)]
    result = sudoku(*args)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "" and result.stderr == ""  # all in the file, quietly
    written = records(out.read_text())
    assert [r["verdict"] for r in written] == ["agree", "agree", "agree"]
    assert all(e["stats"] for r in written for e in r["engines"])
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join(lines[:1]))
    resumed = sudoku(*args[:-3], "-O", str(out), "--resume")
    assert resumed.exit_code == 0, resumed.stderr
    assert [r["line"] for r in records(out.read_text())] == [1, 2, 3]


def test_solve_all_refuses_what_a_cross_check_cannot_do() -> None:
    assert sudoku("solve", "-s", "all", "-f", "fpuzzles", UNIQUE).exit_code == 2
    assert sudoku("solve", "-s", "all", "--color", "always", UNIQUE).exit_code == 2


@pytest.mark.parametrize(
    "args",
    [["solve", "-f", "json"], ["solve", "-s", "all", "-f", "json"], ["check", "-s", "backtrack", "-f", "json"]],
)
def test_stats_with_json_is_refused_not_ignored(args: list[str]) -> None:
    result = sudoku(*args, "--stats", UNIQUE)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        "sudoku: error: --stats shows the engines' counters beside pretty, line or csv output; "
        "json records always hold them\n"
    )


def test_check_stats_in_pretty_and_line(batch: Path) -> None:
    pretty = sudoku("check", "-s", "backtrack", "--stats", UNIQUE)
    assert "nodes " in pretty.stdout
    line = sudoku("check", "-s", "backtrack", "--stats", "-f", "line", str(batch))
    assert len(line.stdout.splitlines()) == 3
    assert (
        sum("backtrack: solved in" in text or "backtrack: unsolvable in" in text for text in line.stderr.splitlines())
        == 3
    )


def test_check_engine_options_go_to_their_engine(plugins: Registry) -> None:
    result = sudoku(
        "check",
        "-s",
        "backtrack,cp-sat",
        "-o",
        "cp-sat.workers=2",
        "-o",
        "backtrack.order=plain",
        "--limit",
        "1",  # cp-sat counts on one worker: only a plain solve uses more
        "-f",
        "json",
        EASY[0],
    )
    assert result.exit_code == 0, result.stderr
    [report] = records(result.stdout)
    engines = {e["strategy"]: e for e in report["engines"]}
    assert engines["cp-sat"]["stats"]["workers"] == 2
    assert "naked_singles" not in engines["backtrack"]["stats"]  # the plain order has no singles
    unnamed = sudoku("check", "-s", "backtrack,cp-sat", "-o", "workers=2", EASY[0])
    assert unnamed.exit_code == 2 and "-o ENGINE.workers=VALUE" in unnamed.stderr
    elsewhere = sudoku("check", "-s", "backtrack", "-o", "cp-sat.workers=2", EASY[0])
    assert elsewhere.exit_code == 2 and "'cp-sat'" in elsewhere.stderr


def test_solve_engine_option_may_name_its_engine(plugins: Registry) -> None:
    named = sudoku("solve", "-o", "backtrack.order=plain", "-f", "json", EASY[0])
    assert "naked_singles" not in records(named.stdout)[0]["stats"]
    other = sudoku("solve", "-o", "cp-sat.workers=2", EASY[0])
    assert other.exit_code == 2 and "this run uses 'backtrack'" in other.stderr


# --- bench sampling -------------------------------------------------------------------------------------


def bench_puzzles(*args: str) -> list[str]:
    result = sudoku("bench", str(PUZZLES / "17clue.txt"), "-s", "backtrack", "-f", "json", *args)
    assert result.exit_code == 0, result.stderr
    [row] = records(result.stdout)
    assert row["puzzles"] == 5
    return [result.stdout]


def test_bench_first_and_sample_with_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    from sudokit.features.bench import pick
    from sudokit.io.reader import read_file

    clues = PUZZLES / "17clue.txt"
    first = [r.text for r in pick(read_file(clues), first=5)]
    assert first == puzzles("17clue.txt")[:5]
    one = [r.line for r in pick(read_file(clues), sample=5, seed=1)]
    again = [r.line for r in pick(read_file(clues), sample=5, seed=1)]
    other = [r.line for r in pick(read_file(clues), sample=5, seed=2)]
    assert one == again and one != other and one == sorted(one) and max(one) > 5  # random, in file order
    for args in (["--first", "5"], ["--sample", "5", "--seed", "3"]):
        bench_puzzles(*args)
    both = sudoku("bench", str(clues), "--first", "5", "--sample", "5")
    assert both.exit_code == 2 and "--first and --sample" in both.stderr


# --- the library -------------------------------------------------------------------------------------


def test_library_solve_isolated_stops_what_the_watchdog_cannot(plugins: Registry) -> None:
    start = time.perf_counter()
    result = solve(EASY[0], "swallows-everything", time_limit=0.3, isolate=True)
    assert result.status is Status.ERROR and "its worker process was killed" in str(result.error)
    assert time.perf_counter() - start < 60  # some 3 s (a worker's start, the watchdog's budget): a hang guard
    ended = solve(EASY[0], "exits-process", isolate=True)
    assert ended.status is Status.ERROR and "exit status 3" in str(ended.error)
    fine = solve(UNIQUE, "backtrack", isolate=True, limit=2)
    assert fine.status is Status.SOLVED and fine.exact and is_solution(fine.puzzle, fine.solution)


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "--color", "always", "-f", "json", UNIQUE],
        ["solve", "--color", "never", "--count", UNIQUE],
        ["bench", str(PUZZLES / "hardest.txt"), "--seed", "3"],
        ["bench", str(PUZZLES / "hardest.txt"), "--first", "2", "--seed", "3"],
    ],
)
def test_an_option_that_would_do_nothing_is_refused(args: list[str]) -> None:
    result = sudoku(*args)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("sudoku: error: ") and len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["solve", "-t", "inf", UNIQUE], "Invalid value for '--time-limit' / '-t'"),
        (["solve"], "Missing argument 'PUZZLE...'"),
        (["solve", "--frobnicate", UNIQUE], "No such option: --frobnicate"),
        (["frobnicate"], "No such command 'frobnicate'"),
    ],
)
def test_usage_errors_are_one_line_naming_the_help(args: list[str], said: str) -> None:
    result = sudoku(*args)
    assert result.exit_code == 2 and result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith(f"sudoku: error: {said}") and line.endswith("-h')")
