"""The docs' "Writing an engine" plugin, built from the page, installed for real and run as the page says.

The page's files are its fenced blocks that follow a line naming their path, as in
```` `sudokit-mini/pyproject.toml`: ````; its commands are its first ```sh block. The first command
installs the distribution, which ``venv_with`` does here (into a fresh venv that also sees the
project's environment, with sudokit and pytest); the others run as written, with bash, from the
folder holding ``sudokit-mini/``, the venv's bin directory first on PATH. Each pytest run also
writes a JUnit XML report (through ``PYTEST_ADDOPTS``), read for the outcome of every check.
What the page says of options is run too, against the installed engine, on the command line and in Python.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tomllib
from pathlib import Path

import pytest

from tests.conftest import ROOT, puzzle_lines, venv_with
from tests.test_kit_thirdparty import CHECKS, run_pytest

PAGE = ROOT / "docs" / "writing-an-engine.md"
FOLDER = "sudokit-mini"
#: What the section's install command must be (``venv_with`` runs it here).
INSTALL = f"python -m pip install ./{FOLDER}"
PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"

_FILE = re.compile(r"^`(sudokit-mini/[\w./-]+)`:\n\n```\w*\n(.*?)^```$", re.M | re.S)
_SH = re.compile(r"^```sh\n(.*?)^```$", re.M | re.S)


def section() -> str:
    """The docs' "Writing an engine" page, whole."""
    return PAGE.read_text(encoding="utf-8")


def files() -> dict[str, str]:
    """The plugin's files, path to text, as the page shows them."""
    return {path: text for path, text in _FILE.findall(section())}


def commands() -> list[str]:
    """The lines of the page's first ``sh`` block."""
    block = _SH.search(section())
    assert block, f"{PAGE.name} has no ```sh block of commands"
    return [line for line in block.group(1).splitlines() if line.strip()]


@pytest.fixture(scope="module")
def mini(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The folder holding the plugin, written from the page, and the python of a venv where it is installed."""
    root = tmp_path_factory.mktemp("readme-engine")
    for path, text in files().items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    return root, venv_with(root, [root / FOLDER])


def run(python: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` (the venv's), in the repository root, without color."""
    env = {key: value for key, value in os.environ.items() if key not in ("FORCE_COLOR", "SUDOKIT_TEST_STRATEGY")}
    env["NO_COLOR"] = "1"
    return subprocess.run(
        [python, *args], cwd=ROOT, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120
    )


def test_the_page_shows_a_whole_plugin() -> None:
    shown = files()
    assert set(shown) == {f"{FOLDER}/pyproject.toml", f"{FOLDER}/sudokit_mini.py", f"{FOLDER}/test_mini.py"}
    project = tomllib.loads(shown[f"{FOLDER}/pyproject.toml"])
    assert project["project"]["entry-points"]["sudokit.strategies"] == {"mini": "sudokit_mini:MiniEngine"}
    assert "parametrize_with_checks" in shown[f"{FOLDER}/test_mini.py"]
    said = commands()
    assert said[0] == INSTALL, f"the first command installs the plugin: {said}"
    assert any("pytest" in command for command in said[1:]), said


def test_the_plugin_passes_the_kit_as_the_page_runs_it(mini: tuple[Path, Path]) -> None:
    root, python = mini
    runs = [run_pytest(python, command, root, root / f"report{k}.xml") for k, command in enumerate(commands()[1:])]
    for done in runs:
        print(f"$ {done.command}: {done.seconds:.1f} s")
        assert done.returncode == 0, done
    done = runs[-1]  # the kit's run
    assert set(done.cases) == {f"mini-{name}" for name in CHECKS}, done
    assert done.ids("passed") | done.ids("skipped") == set(done.cases), done
    # As the page says: the checks of boards above 12x12, of variant kinds and of the optional candidates and
    # solve_plain methods are skipped, saying so; nothing else is.
    reasons = {done.cases[id].message for id in done.ids("skipped")}
    assert "mini: claims boards up to 12x12, not 16x16" in reasons, done
    assert "mini: does not declare the variant kind 'killer'" in reasons, done
    assert "mini: it offers no candidates method (optional)" in reasons, done
    assert "mini: it offers no solve_plain method (optional)" in reasons, done
    board = r"mini: claims boards up to 12x12, not (\d+)x\1"
    kind = r"mini: does not declare the variant kind '[a-z-]+'|mini: it offers no (candidates|solve_plain) method"
    kind += r" \(optional\)"
    assert all(re.fullmatch(board, reason) or re.fullmatch(kind, reason) for reason in reasons), reasons


def test_command_line_options_are_converted_as_the_page_says(mini: tuple[Path, Path]) -> None:
    _, python = mini
    solve = ("-m", "sudokit", "solve", "-s", "mini", "-f", "json", PUZZLE)
    for option in ("check_every=100", "check-every=100", "check_every=1_000", "check_every= 7 "):
        done = run(python, *solve, "-o", option)  # an int: the engine takes it
        assert done.returncode == 0, (option, done.stderr)
        assert json.loads(done.stdout)["status"] == "solved", option
    refused = {
        "check_every=1e3": "not 1000.0",  # a float, whatever the annotation says
        "check_every=inf": "not inf",
        "check_every=YES": "not True",
        "check_every=off": "not False",
        "check_every=0x10": "not '0x10'",  # neither int() nor float() takes it: a str
    }
    for option, said in refused.items():
        done = run(python, *solve, "-o", option)
        assert done.returncode == 2, (option, done.stdout)
        expected = f"sudoku: error: strategy 'mini': check_every must be a whole number above 0, {said}"
        assert done.stderr.strip() == expected, option
    done = run(python, *solve, "-o", "x=1")
    assert done.returncode == 2
    assert done.stderr.strip() == "sudoku: error: strategy 'mini' has no option 'x' (its options: check_every)"
    done = run(python, "-m", "sudokit", "check", "-s", "backtrack,mini", "-o", "mini.check_every=100", PUZZLE)
    assert done.returncode == 0, done.stdout + done.stderr


def test_python_keywords_reach_the_constructor_as_given(mini: tuple[Path, Path]) -> None:
    _, python = mini
    script = f"""
from sudokit import StrategyError, get_strategy, solve
assert get_strategy("mini", check_every=7).check_every == 7
assert solve({PUZZLE!r}, "mini", check_every=100).status == "solved"
try:
    solve({PUZZLE!r}, "mini", check_every="100")
except StrategyError as err:
    print(err)
"""
    done = run(python, "-c", script)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "strategy 'mini': check_every must be a whole number above 0, not '100'"


def test_the_page_commands_with_the_plugin_work(mini: tuple[Path, Path]) -> None:
    root, python = mini
    done = run(python, "-m", "sudokit", "solve", "-s", "mini", "--stats", "-f", "line", PUZZLE)
    assert done.returncode == 0, done.stderr
    assert "<argument>: mini: solved in " in done.stderr and "nodes 1, guesses 0, singles 51" in done.stderr
    counted = root / "counted.txt"  # a few of counts.txt: puzzles with 0, 1 and several solutions
    counted.write_text("".join(f"{line.puzzle}\n" for line in puzzle_lines("counts.txt")[:8]))
    done = run(python, "-m", "sudokit", "check", "-s", "backtrack,mini", "--count", str(counted))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("agree: ") == 8, done.stdout
