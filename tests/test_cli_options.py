"""One meaning per option across the command line (issue 22).

``-s all`` is every installed engine wherever several engines run (check, bench) and is refused,
naming the commands that compare engines, where one runs; ``-o KEY=VALUE`` goes to the one engine
of a run whichever command runs it; ``-n`` is "how many" and ``--count`` counts solutions;
messages name only what the command has; ``check`` has ``--unique`` and ``-f csv`` as ``solve``
does; ``-s`` completes engine names; the synopsis (docs/cli.md) lists every option of every command.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

import sudokit.engines.registry
from sudokit import Grid
from sudokit.engines.registry import ENTRY_POINT_GROUP, Registry, default_registry
from tests.conftest import PUZZLES, counted, puzzles, refused, sudoku

UNIQUE = puzzles("top95.txt")[1]
SEVERAL = next(p for p, c in counted() if c > 3)
NONE = next(p for p, c in counted() if c == 0)
LEETCODE = PUZZLES / "leetcode37.txt"
EASY = puzzles("leetcode37.txt")[0]  # solved by singles: quick for the plugin's plain search too
TWO = "backtrack,sat"  # two engines that count (cp-sat counts on one worker, python-constraint is slow)


def records(stdout: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in stdout.splitlines()]


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> Iterator[Registry]:
    """Three quick engines (two real ones and a plugin's) as everything installed: what ``all`` must run."""
    eps = {
        "backtrack": "sudokit_strategies.backtrack:BacktrackStrategy",
        "good": "tests.plugins.good:Good",
        "sat": "sudokit_strategies.sat:SatStrategy",
    }
    registry = Registry(eps=[EntryPoint(name, value, ENTRY_POINT_GROUP) for name, value in eps.items()])
    monkeypatch.setattr(sudokit.engines.registry, "_default", registry)
    yield registry


# --- -s all and one engine ------------------------------------------------------------------------


def test_check_s_all_compares_every_installed_engine(installed: Registry) -> None:
    result = sudoku("check", "-s", "all", "-f", "json", EASY)
    assert result.exit_code == 0, result.stderr
    [report] = records(result.stdout)
    assert [e["strategy"] for e in report["engines"]] == installed.ready_names() == ["backtrack", "good", "sat"]  # type: ignore[index]
    assert report["verdict"] == "agree"


def test_bench_s_all_times_every_installed_engine(installed: Registry) -> None:
    result = sudoku("bench", str(LEETCODE), "-s", "all", "--first", "1", "-f", "json")
    assert result.exit_code == 0, result.stderr
    assert [row["strategy"] for row in records(result.stdout)] == installed.ready_names()


def test_all_goes_alone() -> None:
    refused(sudoku("check", "-s", "all,sat", UNIQUE), "-s all", "alone")


def test_solve_with_several_engines_points_to_check() -> None:
    refused(
        sudoku("solve", "-s", "backtrack,sat", UNIQUE),
        "'sudoku solve' takes one engine",
        "sudoku check -s backtrack,sat",
    )


def test_generate_refuses_all_naming_the_command_that_compares_engines() -> None:
    refused(sudoku("generate", "-s", "all"), "'sudoku generate' takes one engine", "sudoku check -s all")


def test_one_engine_takes_plain_options_in_check_and_bench() -> None:
    """``-o workers=2`` was refused "when comparing engines" with one engine: it goes to that engine, as in solve."""
    result = sudoku("check", "-s", "backtrack", "-o", "order=plain", "-f", "json", EASY)
    assert result.exit_code == 0, result.stderr
    [report] = records(result.stdout)
    stats = report["engines"][0]["stats"]  # type: ignore[index]
    assert stats["nodes"] > 0 and "naked_singles" not in stats  # the plain order has no singles
    bench = sudoku("bench", str(LEETCODE), "-s", "backtrack", "-o", "order=plain", "--first", "1", "-f", "json")
    assert bench.exit_code == 0, bench.stderr
    assert [row["solved"] for row in records(bench.stdout)] == [1]
    # the option reaches the engine: one it does not have is the engine's own refusal
    refused(sudoku("bench", str(LEETCODE), "-s", "backtrack", "-o", "nosuch=1", "--first", "1"), "no option 'nosuch'")
    # with several engines, an option still names its engine
    refused(sudoku("check", "-s", "backtrack,cp-sat", "-o", "workers=2", UNIQUE), "-o ENGINE.workers=VALUE")


# --- -n is how many, --count counts solutions -----------------------------------------------------


def test_generate_number_is_how_many_puzzles() -> None:
    for flag in ("--number", "-n"):
        result = sudoku("generate", "--box", "2x2", "--seed", "3", flag, "3", "-q")
        assert result.exit_code == 0, result.stderr
        assert len(result.stdout.splitlines()) == 3 and result.stderr == ""


def test_generate_count_is_a_deprecated_alias_said_once() -> None:
    new = sudoku("generate", "--box", "2x2", "--seed", "3", "-n", "2", "-q")
    old = sudoku("generate", "--box", "2x2", "--seed", "3", "--count", "2", "-q")
    assert old.exit_code == 0 and old.stdout == new.stdout  # the same puzzles
    [line] = old.stderr.splitlines()
    assert line.startswith("sudoku: warning: ") and "deprecated" in line and "--number" in line
    refused(sudoku("generate", "--count", "2", "-n", "2"), "--count", "--number")
    assert "--count" not in sudoku("generate", "-h").stdout  # hidden: --count counts solutions elsewhere


# --- check: --unique and -f csv, as solve has them -------------------------------------------------


@pytest.fixture
def batch(tmp_path: Path) -> Path:
    path = tmp_path / "batch.txt"
    path.write_text("\n".join([UNIQUE, SEVERAL, "123x", NONE]) + "\n")
    return path


def line_of(puzzle: str) -> str:
    return Grid.parse(puzzle).to_line()


def test_check_unique_says_whether_each_puzzle_is_unique_in_every_format(batch: Path) -> None:
    want = ["unique", "several", "invalid", "none"]
    line = sudoku("check", "-s", TWO, "--unique", "-f", "line", "-q", str(batch))
    assert line.exit_code == 2, line.stderr  # the record that is not a puzzle
    answers = [text.split(" ")[0].rsplit(":", 1)[1] for text in line.stdout.splitlines()]
    assert answers == want
    data = records(sudoku("check", "-s", TWO, "--unique", "-f", "json", "-q", str(batch)).stdout)
    assert [r["uniqueness"] for r in data] == want
    rows = list(
        csv.DictReader(io.StringIO(sudoku("check", "-s", TWO, "--unique", "-f", "csv", "-q", str(batch)).stdout))
    )
    assert [r["uniqueness"] for r in rows] == want
    pretty = sudoku("check", "-s", TWO, "--unique", "-q", str(batch)).stdout
    assert re.findall(r"^uniqueness: (\w+)$", pretty, re.M) == ["unique", "several", "none"]


def test_check_unique_exits_1_for_a_puzzle_that_is_not_unique_as_solve_does() -> None:
    for puzzle, status in ((UNIQUE, 0), (SEVERAL, 1), (NONE, 1)):
        check = sudoku("check", "-s", TWO, "--unique", "-f", "line", puzzle)
        solve = sudoku("solve", "--unique", "-f", "line", puzzle)
        assert check.exit_code == solve.exit_code == status, check.stderr
        assert check.stdout.split(":")[2].split(" ")[0] == solve.stdout.strip().split(":")[1]
    without = sudoku("check", "-s", TWO, "-f", "line", SEVERAL)  # without --unique, several solutions agree: 0
    assert without.exit_code == 0 and without.stdout.split(":")[2].startswith("2+ ")
    refused(sudoku("check", "--unique", "--count", UNIQUE), "--unique", "--count")


def test_check_csv_is_a_header_then_a_row_per_puzzle_in_order(batch: Path, tmp_path: Path) -> None:
    result = sudoku("check", "-s", TWO, "-f", "csv", "-q", str(batch))
    assert result.exit_code == 2, result.stderr  # the record that is not a puzzle
    header, *lines = result.stdout.splitlines()
    assert header == "puzzle,verdict,count,exact,limit,engines,source,line,problems"
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [r["line"] for r in rows] == ["1", "2", "3", "4"] and len(lines) == 4
    assert [r["verdict"] for r in rows] == ["agree", "agree", "invalid", "agree"]
    assert [(r["count"], r["exact"]) for r in rows] == [("1", "true"), ("2", "false"), ("", ""), ("0", "true")]
    assert rows[0]["puzzle"] == line_of(UNIQUE) and rows[3]["puzzle"] == line_of(NONE)
    assert [part.split("=")[0] for part in rows[0]["engines"].split()] == ["backtrack", "sat"]
    assert rows[2]["problems"] and not rows[0]["problems"]
    # an interrupted csv file is continued
    out = tmp_path / "check.csv"
    args = ["check", "-s", TWO, "-f", "csv", "-q", str(batch), "-O", str(out)]
    assert sudoku(*args).exit_code == 2
    whole = out.read_text()
    out.write_text("".join(whole.splitlines(keepends=True)[:3]))
    assert sudoku(*args, "--resume").exit_code == 2
    assert [r["puzzle"] for r in csv.DictReader(io.StringIO(out.read_text()))] == [r["puzzle"] for r in rows]
    assert sudoku("check", "-s", "backtrack", "-f", "csv", "-q", str(batch), "-O", str(out), "--resume").exit_code == 2


@pytest.mark.parametrize("command", [["solve"], ["solve", "-s", "all"], ["check", "-s", "backtrack"]])
def test_the_stats_message_names_only_formats_the_command_has(installed: Registry, command: list[str]) -> None:
    """check's message named csv, which check lacked: each format it names must take --stats."""
    result = sudoku(*command, "-f", "json", "--stats", EASY)
    refused(result, "--stats", "json records always hold them")
    named = re.search(r"beside (.*) output", result.stderr)
    assert named is not None
    formats = re.split(r", | or ", named.group(1))
    assert "pretty" in formats and "json" not in formats
    for fmt in formats:
        shown = sudoku(*command, "-f", fmt, "--stats", EASY)
        assert shown.exit_code == 0, (fmt, shown.stderr)
        assert "nodes" in shown.stdout + shown.stderr, fmt  # the counters are shown


# --- help that says what is printed ---------------------------------------------------------------


def test_explain_help_says_what_explain_prints() -> None:
    """explain -h promised 'sentences and a grid'; explain prints numbered steps and the rating, no grid."""
    result = sudoku("explain", "-f", "pretty", EASY)
    assert result.exit_code == 0, result.stderr
    *steps, rating = result.stdout.splitlines()
    assert [line.split(".")[0] for line in steps] == [str(k) for k in range(1, len(steps) + 1)]
    assert rating.startswith("rating: ")
    assert not any("|" in line or "+" in line for line in result.stdout.splitlines())  # no grid
    usage = " ".join(sudoku("explain", "-h").stdout.split())
    assert "pretty (a numbered line a step, then the rating)" in usage and "grid" not in usage
    assert "grid" in " ".join(sudoku("hint", "-h").stdout.split())  # hint does print one


# --- shell completion of engine names -------------------------------------------------------------


def complete(words: str) -> tuple[list[str], set[str]]:
    """What bash completion offers for the last of ``words`` (a real sudoku process), and the modules it imported."""
    from tests.test_cli import IMPORT_PROBE

    cword = str(len(words.split()) - (0 if words.endswith(" ") else 1))
    env = {**os.environ, "_SUDOKU_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": cword}
    proc = subprocess.run(
        [sys.executable, "-c", IMPORT_PROBE], capture_output=True, text=True, env=env, timeout=60, check=False
    )
    assert proc.returncode == 0, proc.stderr
    modules = {line.split()[1] for line in proc.stderr.splitlines() if line.startswith("imported ")}
    return proc.stdout.split(), modules


def test_s_completes_installed_engine_names_without_importing_any() -> None:
    names = default_registry().names()
    offered, modules = complete("sudoku solve -s ")
    assert offered == [*names, "all"]  # solve -s all is the cross-check
    heavy = ("ortools", "constraint", "pysat", "numba", "numpy", "llvmlite", "sudokit_strategies")
    assert sorted(m for m in modules if m.split(".")[0].startswith(heavy)) == []
    assert complete("sudoku solve -s b")[0] == ["backtrack"]
    assert complete("sudoku generate -s ")[0] == names  # one engine: no all
    assert complete("sudoku check -s ")[0] == [*names, "all"]
    assert complete(f"sudoku bench {LEETCODE} --strategies s")[0] == ["sat"]
    # in a list, the next name, not one already given
    assert complete("sudoku check -s backtrack,")[0] == [f"backtrack,{n}" for n in names if n != "backtrack"]
    assert complete("sudoku check -s sat,backtrack,s")[0] == []


# --- the synopsis (docs/cli.md) is the real command line ---------------------------------------------


def synopsis_block() -> str:
    """The synopsis: the first code block of the command line's page (docs/cli.md)."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    return text.split("```\n", 2)[1]


def synopsis() -> dict[str, set[str]]:
    """The option names the synopsis (docs/cli.md) shows, by command ('' for sudoku's own)."""
    block = synopsis_block()
    shown: dict[str, set[str]] = {}
    command = ""
    for line in block.splitlines():
        if line.startswith("sudoku "):
            word = line.split()[1]
            command = "" if word.startswith("-") else word
            shown.setdefault(command, set())
        shown[command] |= set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", line.removeprefix(f"sudoku {command}")))
    return shown


def real_options() -> dict[str, list[list[str]]]:
    """Each command's options as its --help shows them (each option's names), hidden ones and -h left out."""
    import typer

    from sudokit.cli import app

    group = typer.main.get_command(app)
    commands = {"": group, **group.commands}  # type: ignore[attr-defined]
    return {
        name: [
            [*param.opts, *param.secondary_opts]
            for param in command.params
            if param.param_type_name == "option" and not getattr(param, "hidden", False) and param.name != "help"
        ]
        for name, command in commands.items()
    }


def test_the_readme_synopsis_lists_every_option_of_every_command() -> None:
    """The synopsis lacked hint --color and generate -s: it is compared with every command's real options."""
    shown, real = synopsis(), real_options()
    assert sorted(shown) == sorted(real)  # every command, and no other
    for command, options in real.items():
        names = {name for option in options for name in option}
        missing = [option for option in options if not set(option) & shown[command]]
        assert missing == [], f"sudoku {command}: the synopsis lacks {missing}"
        unknown = shown[command] - names - {"-h", "--help"}
        assert unknown == set(), f"sudoku {command}: the synopsis shows {sorted(unknown)}, which it lacks"
    assert sorted(synopsis_formats()) == sorted(c for c, options in real.items() if ["--format", "-f"] in options)
    for command, formats in synopsis_formats().items():
        assert formats == format_choices(command), f"sudoku {command} -f"


def synopsis_formats() -> dict[str, list[str]]:
    """The ``-f a|b|c`` of each command in the synopsis (docs/cli.md)."""
    block = synopsis_block()
    found: dict[str, list[str]] = {}
    for entry in re.split(r"\n(?=sudoku )", block):
        shown = re.search(r"\[-f ([\w|]+)\]", entry)
        if shown:
            found[entry.split()[1]] = sorted(shown.group(1).split("|"))
    return found


def format_choices(command: str) -> list[str]:
    import typer

    from sudokit.cli import app

    group = typer.main.get_command(app)
    [fmt] = [p for p in group.commands[command].params if "--format" in getattr(p, "opts", [])]  # type: ignore[attr-defined]
    return sorted(fmt.type.choices)  # type: ignore[attr-defined]
