"""The ``sudoku`` command, driven in-process with CliRunner, and a few real processes."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sudokit import Grid, capabilities_of, get_strategy, is_solution, solve
from sudokit.model.variants import ALL_KINDS
from tests.conftest import sudoku

from .conftest import PUZZLES, counted, puzzle_lines, puzzles, sized
from .timing import hang_guard, spent

JSON_KEYS = {"puzzle", "strategy", "status", "solution", "count", "elapsed_ms", "error"}


def records(stdout: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in stdout.splitlines()]


def write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def counters(stats_line: str) -> dict[str, str]:
    """The ``key value`` pairs after the ``;`` of a ``--stats`` line."""
    return dict(pair.split(" ") for pair in stats_line.split("; ", 1)[1].split(", "))


SUMMARY = re.compile(r"^[\d,]+ puzzles?: [\d,]+ solved, [\d,]+ unsolvable, [\d,]+ timed out, [\d,]+ invalid")


def assert_one_line_error(stderr: str, *parts: str) -> None:
    """One error line, and at most the batch summary beside it."""
    lines = [line for line in stderr.strip().splitlines() if not SUMMARY.match(line)]
    assert len(lines) == 1, stderr
    assert lines[0].startswith("sudoku: error: ")
    for part in parts:
        assert part in lines[0]


# --- solving ------------------------------------------------------------------------------------


def test_solve_one_puzzle_pretty(leetcode: str) -> None:
    result = sudoku("solve", leetcode)
    assert result.exit_code == 0
    assert result.stderr == ""
    assert "|" in result.stdout and "+" in result.stdout
    assert is_solution(Grid.parse(leetcode), Grid.parse(result.stdout))


def test_solve_line_format(leetcode: str) -> None:
    result = sudoku("solve", "--format", "line", leetcode)
    assert result.exit_code == 0
    puzzle, solution = result.stdout.strip().split(":")
    assert puzzle == leetcode
    assert is_solution(Grid.parse(leetcode), Grid.parse(solution))


def test_solve_json_format_one_object_per_puzzle(leetcode: str) -> None:
    easy = puzzles("easy50.txt")[:2]
    result = sudoku("solve", "-f", "json", leetcode, *easy)
    assert result.exit_code == 0
    objects = records(result.stdout)
    assert len(objects) == 3
    for text, obj in zip([leetcode, *easy], objects, strict=True):
        assert set(obj) >= JSON_KEYS
        assert (obj["strategy"], obj["status"], obj["count"], obj["error"]) == ("backtrack", "solved", 1, None)
        assert Grid.parse(str(obj["puzzle"])) == Grid.parse(text)
        assert is_solution(Grid.parse(text), Grid.parse(str(obj["solution"])))
        assert isinstance(obj["elapsed_ms"], float) and obj["elapsed_ms"] >= 0


def test_solve_a_file_in_order() -> None:
    path = PUZZLES / "easy50.txt"
    result = sudoku("solve", "-f", "line", str(path))
    assert result.exit_code == 0
    out = result.stdout.splitlines()
    expected = [x.puzzle for x in puzzle_lines("easy50.txt")]
    assert len(out) == len(expected) == 50
    for text, line in zip(expected, out, strict=True):
        puzzle, solution = line.split(":")
        assert Grid.parse(puzzle) == Grid.parse(text)
        assert is_solution(Grid.parse(text), Grid.parse(solution))


def test_solve_standard_input(leetcode: str) -> None:
    easy = puzzles("easy50.txt")[:2]
    pretty = Grid.parse(easy[1]).to_pretty()
    result = sudoku("solve", "-f", "json", "-", input=f"{easy[0]}\n\n{pretty}\n{leetcode}\n")
    assert result.exit_code == 0
    objects = records(result.stdout)
    assert [(o["source"], o["line"]) for o in objects] == [("<stdin>", 1), ("<stdin>", 3), ("<stdin>", 14)]
    for text, obj in zip([easy[0], easy[1], leetcode], objects, strict=True):
        assert is_solution(Grid.parse(text), Grid.parse(str(obj["solution"])))


def test_several_arguments_keep_their_order(tmp_path: Path, leetcode: str) -> None:
    easy = puzzles("easy50.txt")[:4]
    path = write(tmp_path, easy[1:3])
    result = sudoku("solve", "-f", "line", easy[0], str(path), "-", leetcode, input=easy[3] + "\n")
    assert result.exit_code == 0
    order = [easy[0], easy[1], easy[2], easy[3], leetcode]
    out = [line.split(":") for line in result.stdout.splitlines()]
    assert [Grid.parse(p) for p, _ in out] == [Grid.parse(t) for t in order]
    assert all(is_solution(Grid.parse(p), Grid.parse(s)) for p, s in out)


def test_pretty_output_of_several_puzzles_has_headers(tmp_path: Path, leetcode: str) -> None:
    easy = puzzles("easy50.txt")[0]
    path = write(tmp_path, [easy])
    result = sudoku("solve", leetcode, str(path))
    assert result.exit_code == 0
    blocks = result.stdout.strip().split("\n\n")
    assert [b.splitlines()[0] for b in blocks] == ["# 1: <argument>", f"# {path}:1"]
    for text, block in zip([leetcode, easy], blocks, strict=True):
        assert is_solution(Grid.parse(text), Grid.parse(block.split("\n", 1)[1]))


def test_pretty_color_output_parses_back(leetcode: str) -> None:
    colored = sudoku("solve", "--color", "always", leetcode)
    plain = sudoku("solve", "--color", "never", leetcode)
    assert "\x1b[" in colored.stdout and "\x1b[" not in plain.stdout
    assert Grid.parse(colored.stdout) == Grid.parse(plain.stdout)
    assert is_solution(Grid.parse(leetcode), Grid.parse(colored.stdout))


# --- counting, limits, time limits, statistics, boxes, options --------------------------------------------


def test_count_reproduces_counts_txt() -> None:
    result = sudoku("solve", "--count", "-f", "line", str(PUZZLES / "counts.txt"))
    assert result.exit_code == 0  # counting: no solution is an answer, not a failure
    out = [line.rsplit(":", 1) for line in result.stdout.splitlines()]
    assert [(Grid.parse(p), int(c)) for p, c in out] == [(Grid.parse(p), c) for p, c in counted()]


def test_count_stops_at_the_limit() -> None:
    text, expected = max(counted(), key=lambda pair: pair[1])
    line = sudoku("solve", "--count", "--limit", "2", "-f", "line", text)
    assert line.exit_code == 0
    assert line.stdout.strip() == f"{text}:2+"
    (obj,) = records(sudoku("solve", "--count", "--limit", "3", "-f", "json", text).stdout)
    assert (obj["count"], obj["exact"], obj["status"]) == (3, False, "solved")
    pretty = sudoku("solve", "--count", "--limit", "2", text)
    assert "at least 2 solutions" in pretty.stdout and "limit of 2" in pretty.stdout
    exact = sudoku("solve", "--count", text)
    assert exact.stdout.strip() == f"{expected} solutions"


def test_limit_returns_several_solutions() -> None:
    text, _ = next((t, c) for t, c in counted() if c >= 3)
    (obj,) = records(sudoku("solve", "--limit", "3", "-f", "json", text).stdout)
    solutions = [Grid.parse(s) for s in obj["solutions"]]  # type: ignore[attr-defined]
    assert len(set(solutions)) == 3 and obj["count"] == 3
    assert all(is_solution(Grid.parse(text), s) for s in solutions)
    pretty = sudoku("solve", "--limit", "2", text)
    assert "solution 1:" in pretty.stdout and "solution 2:" in pretty.stdout


def test_time_limit_gives_a_timeout_and_exit_1(hard: str) -> None:
    with spent() as took:
        result = sudoku("solve", "-o", "order=plain", "--time-limit", "0.1", "-f", "json", hard)
    assert result.exit_code == 1
    (obj,) = records(result.stdout)
    assert (obj["status"], obj["solution"]) == ("timeout", None)
    # Not before the limit; after it, what a busy machine makes of it: a hang guard, and the CPU time spent.
    assert 100 <= float(obj["elapsed_ms"]) < 1000 * hang_guard(0.1)  # type: ignore[arg-type]
    assert took.cpu < 0.1 + 0.5, took
    assert sudoku("solve", "-o", "order=plain", "-t", "0.05", "-f", "line", hard).stdout.strip() == f"{hard}:timeout"
    pretty = sudoku("solve", "-o", "order=plain", "-t", "0.05", hard)
    assert pretty.exit_code == 1 and "timeout" in pretty.stdout


def test_stats(leetcode: str) -> None:
    hardest = puzzles("hardest.txt")[0]
    expected = solve(hardest).stats
    result = sudoku("solve", "--stats", hardest)
    assert result.exit_code == 0
    last = result.stdout.strip().splitlines()[-1]
    assert last.startswith("backtrack: solved in ")
    assert counters(last) == {key: str(value) for key, value in expected.items()}
    line = sudoku("solve", "--stats", "-f", "line", leetcode)
    assert ":" in line.stdout and "nodes" not in line.stdout
    assert "backtrack: solved" in line.stderr and "nodes" in line.stderr


def test_engine_option_plain_order(leetcode: str) -> None:
    expected = solve(leetcode, order="plain").stats
    result = sudoku("solve", "-o", "order=plain", "--stats", leetcode)
    assert result.exit_code == 0
    last = result.stdout.strip().splitlines()[-1]
    assert counters(last) == {key: str(value) for key, value in expected.items()}
    assert set(expected) == {"nodes", "guesses", "backtracks", "max_depth"}
    assert is_solution(Grid.parse(leetcode), Grid.parse(result.stdout.rsplit("\n", 2)[0]))


def test_box_three_by_two() -> None:
    (puzzle, solution), *_ = sized("2x3")
    mirror = [c * 6 + r for r in range(6) for c in range(6)]
    p = "".join(puzzle.to_line()[i] for i in mirror)
    s = "".join(solution.to_line()[i] for i in mirror)
    result = sudoku("solve", "--box", "3x2", "-f", "line", p)
    assert result.exit_code == 0
    assert result.stdout.strip() == f"{p}:{s}"
    # The mirrored solution, one cell cleared, is a 3x2 puzzle but repeats digits in 2x3 boxes.
    almost = "." + s[1:]
    assert sudoku("solve", "--box", "3x2", "-f", "line", almost).stdout.strip() == f"{almost}:{s}"
    default = sudoku("solve", almost)
    assert default.exit_code == 2
    assert_one_line_error(default.stderr, "same box")


# --- exit statuses --------------------------------------------------------------------------------------


def test_exit_1_for_an_unsolvable_puzzle(leetcode: str) -> None:
    text = next(t for t, c in counted() if c == 0)
    pretty = sudoku("solve", text)
    assert pretty.exit_code == 1 and pretty.stdout.strip() == "no solution"
    line = sudoku("solve", "-f", "line", leetcode, text)
    assert line.exit_code == 1
    assert line.stdout.splitlines()[1] == f"{text}:unsolvable"
    (obj,) = records(sudoku("solve", "-f", "json", text).stdout)
    assert (obj["status"], obj["solution"], obj["count"]) == ("unsolvable", None, 0)


@pytest.mark.parametrize(
    ("edit", "parts"),
    [
        (lambda t: "55" + t[2:], ["row 1, column 2", "repeats the 5 at row 1, column 1"]),
        (lambda t: t[:12] + "?" + t[13:], ["row 2, column 4", "'?'"]),
        (lambda t: t[:-1], ["80 cells"]),
    ],
    ids=["duplicate", "bad-character", "cell-count"],
)
def test_exit_2_for_an_invalid_puzzle(leetcode: str, edit, parts: list[str]) -> None:  # type: ignore[no-untyped-def]
    result = sudoku("solve", edit(leetcode))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert_one_line_error(result.stderr, *parts)


def test_exit_2_names_the_file_line_of_an_invalid_puzzle(tmp_path: Path, leetcode: str) -> None:
    path = write(tmp_path, ["# puzzles", leetcode, "55" + leetcode[2:]])
    result = sudoku("solve", "-f", "line", str(path))
    assert result.exit_code == 2
    assert_one_line_error(result.stderr, f"{path}:3: row 1, column 2")


def test_one_record_per_input_line_even_with_invalid_lines(tmp_path: Path, leetcode: str) -> None:
    easy = puzzles("easy50.txt")[:3]
    unsolvable = next(t for t, c in counted() if c == 0)
    lines = [easy[0], leetcode[:-1], easy[1], "55" + leetcode[2:], unsolvable, easy[2] + "?", easy[2]]
    path = write(tmp_path, lines)
    expected = ["solved", "invalid", "solved", "invalid", "unsolvable", "invalid", "solved"]

    line = sudoku("solve", "-f", "line", str(path))
    assert line.exit_code == 2
    out = line.stdout.splitlines()
    assert len(out) == len(lines)
    for text, status, record in zip(lines, expected, out, strict=True):
        puzzle, result = record.rsplit(":", 1)
        if status == "solved":
            assert is_solution(Grid.parse(text), Grid.parse(result))
        else:
            assert result == status
            assert puzzle.replace(" ", "") == text.replace(" ", "")
    errors = [text for text in line.stderr.strip().splitlines() if not SUMMARY.match(text)]
    assert len(errors) == 3 and all(text.startswith("sudoku: error: ") for text in errors)
    assert SUMMARY.match(line.stderr.strip().splitlines()[-1])

    obj = records(sudoku("solve", "-f", "json", str(path)).stdout)
    assert [o["status"] for o in obj] == expected
    assert [o["line"] for o in obj] == list(range(1, len(lines) + 1))
    assert all(set(o) >= JSON_KEYS for o in obj)
    assert all(o["error"] is None for o, s in zip(obj, expected, strict=True) if s == "solved")
    assert all("line" in str(o["error"]) for o, s in zip(obj, expected, strict=True) if s == "invalid")

    pretty = sudoku("solve", str(path))
    assert pretty.exit_code == 2
    headers = [b.splitlines()[0] for b in pretty.stdout.strip().split("\n\n")]
    assert headers == [f"# {path}:{k}" for k in range(1, len(lines) + 1)]


def test_exit_2_for_an_unknown_strategy(leetcode: str) -> None:
    result = sudoku("solve", "-s", "no-such-engine", leetcode)
    assert result.exit_code == 2
    assert_one_line_error(result.stderr, "unknown strategy 'no-such-engine'", "backtrack")
    assert result.stdout == ""


@pytest.mark.parametrize(
    "args",
    [
        ["-o", "order=sideways"],
        ["-o", "order"],
        ["-o", "speed=11"],
        ["--box", "zz"],
        ["--box", "2x3"],
    ],
)
def test_exit_2_for_a_bad_option(leetcode: str, args: list[str]) -> None:
    result = sudoku("solve", *args, leetcode)
    assert result.exit_code == 2
    assert_one_line_error(result.stderr)


@pytest.mark.parametrize(
    "args",
    [
        ["--limit", "0"],
        ["--format", "xml"],
        ["--time-limit", "-1"],
        ["--time-limit", "soon"],
        ["--time-limit", "inf"],
        ["--time-limit", "nan"],
        ["--frobnicate"],
    ],
)
def test_exit_2_for_a_usage_error(leetcode: str, args: list[str]) -> None:
    result = sudoku("solve", *args, leetcode)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.strip()


def test_exit_2_for_a_missing_file() -> None:
    result = sudoku("solve", "no-such-file.txt")
    assert result.exit_code == 2
    assert_one_line_error(result.stderr, "no such file: no-such-file.txt")


def test_strategies_lists_backtrack_and_load_says_it_works() -> None:
    result = sudoku("strategies")
    assert result.exit_code == 0
    (row,) = [line for line in result.stdout.splitlines() if line.split()[0] == "backtrack"]
    assert "backtracking" in row and row.endswith("[sudokit]")
    (obj,) = [o for o in records(sudoku("strategies", "-f", "json").stdout) if o["name"] == "backtrack"]
    assert obj["error"] is None  # (whether it says loaded depends on this process: see the test below)
    loaded = sudoku("strategies", "--load")
    (row,) = [line for line in loaded.stdout.splitlines() if line.split()[0] == "backtrack"]
    assert row.split()[1] == "ok"
    (obj,) = [o for o in records(sudoku("strategies", "--load", "-f", "json").stdout) if o["name"] == "backtrack"]
    assert obj["loaded"] is True and obj["error"] is None


def test_strategies_load_shows_what_each_engine_claims() -> None:
    loaded = sudoku("strategies", "--load")
    rows = {line.split()[0]: line for line in loaded.stdout.splitlines()}
    for name in ("backtrack", "python-constraint"):
        caps = capabilities_of(get_strategy(name))
        claims = [f"boards up to {caps.max_side}x{caps.max_side}"] if caps.max_side else []
        kinds = caps.constraints
        if kinds:
            claims.append("variant rules: " + ("every one" if kinds == ALL_KINDS else ", ".join(sorted(kinds))))
        assert f"({'; '.join(claims)})" in rows[name], rows[name]
    assert rows["cp-sat"].endswith("(variant rules: every one) [sudokit]")  # claims every board
    objs = {o["name"]: o for o in records(sudoku("strategies", "--load", "-f", "json").stdout)}
    assert objs["backtrack"]["capabilities"] == {
        "max_side": 36,
        "box_shapes": None,
        "counting": True,
        "time_limit": True,
        "constraints": sorted(capabilities_of(get_strategy("backtrack")).constraints),
    }
    assert objs["cp-sat"]["capabilities"]["max_side"] is None
    assert "capabilities" not in records(sudoku("strategies", "-f", "json").stdout)[0]  # not loaded: not known


# --- real processes -------------------------------------------------------------------------------------


def run(args: list[str], **kwargs) -> subprocess.CompletedProcess[str]:  # type: ignore[no-untyped-def]
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "PYTHONWARNINGS")}
    return subprocess.run(args, capture_output=True, text=True, timeout=60, env=env, check=False, **kwargs)


def test_python_m_sudokit(leetcode: str) -> None:
    proc = run([sys.executable, "-m", "sudokit", "solve", "-f", "line", leetcode])
    assert (proc.returncode, proc.stderr) == (0, "")
    puzzle, solution = proc.stdout.strip().split(":")
    assert puzzle == leetcode and is_solution(Grid.parse(leetcode), Grid.parse(solution))


def test_console_script_exit_statuses(tmp_path: Path, leetcode: str) -> None:
    script = Path(sys.executable).parent / "sudoku"
    assert script.exists()
    unsolvable = next(t for t, c in counted() if c == 0)
    path = write(tmp_path, [leetcode, unsolvable])
    proc = run([str(script), "solve", "-f", "line", str(path)])
    assert proc.returncode == 1
    first, second = proc.stdout.splitlines()
    assert is_solution(Grid.parse(leetcode), Grid.parse(first.split(":")[1]))
    assert second == f"{unsolvable}:unsolvable"
    bad = run([str(script), "solve", leetcode[:40] + "?" + leetcode[41:]])
    assert bad.returncode == 2 and bad.stdout == ""
    assert "Traceback" not in bad.stderr
    assert_one_line_error(bad.stderr, "row 5, column 5")


#: ``sudoku ARGS``, saying on stderr every module imported, by the command or by its workers: ``import``
#: statements through an audit hook, and the registry's ``importlib.import_module`` calls (which neither
#: the hook nor ``-X importtime`` sees) through a wrapper.
IMPORT_PROBE = """
import importlib, os, sys
def said(name):
    os.write(2, f"imported {name}\\n".encode())
def hook(event, args):
    if event == "import":
        said(args[0])
sys.addaudithook(hook)
import_module = importlib.import_module
def logged(name, package=None):
    said(name)
    return import_module(name, package)
importlib.import_module = logged
sys.argv = ["sudoku", *sys.argv[1:]]
from sudokit.cli import main
main()
"""


def imported(*args: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    proc = run([sys.executable, "-c", IMPORT_PROBE, *args])
    modules = {line.split()[1] for line in proc.stderr.splitlines() if line.startswith("imported ")}
    return proc, modules


def test_solving_with_backtrack_imports_no_other_engine(leetcode: str) -> None:
    """The start-up rule: ``sudoku solve --strategy backtrack`` never imports OR-Tools or python-constraint."""
    proc, modules = imported("solve", "-s", "backtrack", "-f", "line", leetcode)
    assert proc.returncode == 0, proc.stderr
    assert is_solution(Grid.parse(leetcode), Grid.parse(proc.stdout.strip().split(":")[1]))
    assert "sudokit_strategies.backtrack" in modules  # the engine was loaded, through the registry
    heavy_roots = ("ortools", "constraint", "pysat", "numba", "numpy", "llvmlite")
    heavy = sorted(m for m in modules if m.split(".")[0].startswith(heavy_roots))
    assert heavy == []
    # nor the parts of sudokit a lone classic puzzle does not use (variant rules, blocks, tables, Dask)
    unused = {
        "sudokit.model.variants",
        "sudokit.io.links",
        "sudokit.runtime.fastpath",
        "sudokit.io.tables",
        "sudokit.runtime.executors",
    }
    assert sorted(unused & modules) == []


def test_listing_the_engines_imports_none_of_them() -> None:
    proc, modules = imported("strategies")
    assert proc.returncode == 0, proc.stderr
    json_proc = run([sys.executable, "-m", "sudokit", "strategies", "-f", "json"])
    assert {json.loads(line)["loaded"] for line in json_proc.stdout.splitlines()} == {None}  # not tried
    assert not {m for m in modules if m.startswith(("ortools", "constraint", "pysat", "numba", "sudokit_strategies."))}
    names = [line.split()[0] for line in proc.stdout.splitlines()]
    assert names == ["backtrack", "cp-sat", "numba", "python-constraint", "sat"]


def test_a_command_built_alone_behaves_as_in_the_whole_app() -> None:
    """main() builds only the command named first (start-up); its help and errors are the whole app's."""
    from typer.main import get_command

    from sudokit.cli import COMMANDS, _app_for, _command_name, app
    from tests.conftest import cli_runner

    names = [_command_name(info) for info in app.registered_commands]
    assert len(names) == len(COMMANDS) == 10
    for name in names:
        assert name is not None
        alone = _app_for([name, "--help"])
        assert alone is not app and [_command_name(i) for i in alone.registered_commands] == [name]
        assert list(get_command(alone).commands) == [name]  # type: ignore[attr-defined]
        for args in ([name, "--help"], [name, "--no-such-option"]):
            whole, single = cli_runner().invoke(app, args), cli_runner().invoke(alone, args)
            assert (single.exit_code, single.stdout, single.stderr) == (whole.exit_code, whole.stdout, whole.stderr)
    assert len(app.registered_commands) == 10  # the copies left the app whole
    for args in ([], ["--help"], ["-V", "solve"], ["solv"], ["--", "solve"]):
        assert _app_for(args) is app


# --- output flags: the same refusals, word for word, in the same order ------------------------------

RESUME_NO_OUTPUT = "--resume needs --output FILE: the file to continue"
FORCE_AND_RESUME = "--force replaces the output and --resume continues it: choose one"
FORCE_NO_OUTPUT = "--force goes with --output FILE: it allows replacing that file"


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["solve", "P", "--resume"], RESUME_NO_OUTPUT),
        (["solve", "P", "--resume", "--force", "-f", "pretty"], RESUME_NO_OUTPUT),
        (
            ["solve", "P", "--resume", "--force", "-O", "OUT"],
            "--resume needs --format line, json or csv: records it can check against the input, not pretty",
        ),
        (["solve", "P", "--resume", "--force", "-f", "json", "-O", "OUT"], FORCE_AND_RESUME),
        (["solve", "P", "--force"], FORCE_NO_OUTPUT),
        (["rate", "P", "--resume", "--force"], RESUME_NO_OUTPUT),
        (["rate", "P", "--force"], FORCE_NO_OUTPUT),
        (
            ["rate", "P", "--resume", "--force", "-O", "OUT.Parquet"],
            "--output OUT.Parquet: Parquet files are written from the csv records of 'sudoku solve -f csv' only",
        ),
        (["generate", "--resume", "--force", "-f", "pretty"], RESUME_NO_OUTPUT),
        (
            ["generate", "--resume", "--force", "-O", "OUT"],
            "--resume needs --format json or csv: records that carry their seed, not line",
        ),
        (
            ["generate", "--resume", "--force", "-f", "csv", "-O", "OUT"],
            "--resume needs the --seed of the run it continues (the same seed, the same puzzles)",
        ),
        (["generate", "--resume", "--force", "-f", "json", "--seed", "1", "-O", "OUT"], FORCE_AND_RESUME),
        (["generate", "--force", "-f", "json"], FORCE_NO_OUTPUT),
        (
            ["generate", "-f", "csv", "--seed", "1", "--resume", "-O", "OUT.PARQUET"],
            "--output OUT.PARQUET: Parquet files are written from csv records (-f csv), without --resume",
        ),
        (
            ["generate", "--seed", "1", "-O", "OUT.parquet"],
            "--output OUT.parquet: Parquet files are written from csv records (-f csv), without --resume",
        ),
    ],
)
def test_output_flag_refusals_are_word_for_word_and_first_things_first(
    tmp_path: Path, leetcode: str, args: list[str], says: str
) -> None:
    """--resume, --force, a Parquet --output: solve, rate and generate refuse them with these lines, in this order."""
    out = str(tmp_path / "out")
    args = [leetcode if arg == "P" else arg.replace("OUT", out) for arg in args]
    result = sudoku(*args)
    assert result.exit_code == 2, result.stderr
    assert result.stdout == ""
    assert result.stderr == f"sudoku: error: {says.replace('OUT', out)}\n"
