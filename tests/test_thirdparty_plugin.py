"""Third-party engines installed for real, from their own distributions, and used by the real CLI.

The plugins in tests/thirdparty/ are built and installed with pip into a throw-away venv that sees
the project's environment through a ``.pth`` file, so neither the project's venv (made by uv, with
no pip) nor sudokit needs reinstalling, and sudokit's own entry points are still found.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from sudokit import Grid, is_solution
from sudokit.engines.registry import Registry
from tests.conftest import venv_with

THIRDPARTY = Path(__file__).parent / "thirdparty"
PLUGINS = ("sudokit-echo-plugin", "sudokit-wrong-plugin")
PUZZLES = Path(__file__).parent.parent / "puzzles"


def _first_puzzle(name: str) -> str:
    lines = (PUZZLES / name).read_text().splitlines()
    return next(line.split(":")[0] for line in lines if line.strip() and not line.startswith("#"))


PUZZLE = _first_puzzle("top95.txt")


@pytest.fixture(scope="module")
def plugin_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv's python with both plugins installed for real, and the project's packages visible."""
    root = tmp_path_factory.mktemp("thirdparty")
    # Build from copies, so nothing is written into the source tree; the backend comes from the index.
    return venv_with(root, [shutil.copytree(THIRDPARTY / plugin, root / plugin) for plugin in PLUGINS])


def normalized(distribution: str) -> str:
    """A distribution name as PEP 503 compares them: ``sudokit_echo_plugin`` is ``sudokit-echo-plugin``."""
    return re.sub(r"[-_.]+", "-", distribution).lower()


def sudoku(python: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The real ``sudoku`` command, run by ``python``."""
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run(
        [python, "-m", "sudokit", *args],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env=env,
        timeout=120,
    )


def test_strategies_lists_the_plugins_as_loaded(plugin_python: Path) -> None:
    done = sudoku(plugin_python, "strategies", "--load", "--format", "json")
    assert done.returncode == 0, done.stderr
    rows = {row["name"]: row for row in map(json.loads, done.stdout.splitlines())}
    assert rows["echo-backtrack"]["loaded"] is True, rows["echo-backtrack"]["error"]
    assert normalized(rows["echo-backtrack"]["distribution"]) == "sudokit-echo-plugin"
    assert rows["wrong"]["loaded"] is True, rows["wrong"]["error"]
    assert normalized(rows["wrong"]["distribution"]) == "sudokit-wrong-plugin"
    assert rows["backtrack"]["loaded"] is True  # sudokit's own engines are still found


def test_pretty_listing_marks_the_plugins_ok(plugin_python: Path) -> None:
    done = sudoku(plugin_python, "strategies", "--load")
    lines = {line.split()[0]: line for line in done.stdout.splitlines()}
    assert lines["echo-backtrack"].split()[1] == "ok"
    assert normalized(lines["echo-backtrack"].rpartition("[")[2].rstrip("]")) == "sudokit-echo-plugin"
    assert lines["wrong"].split()[1] == "ok"


def test_the_project_environment_is_not_touched(plugin_python: Path) -> None:
    assert not {"echo-backtrack", "wrong"} & set(Registry().names())


def test_solve_with_the_plugin_engine(plugin_python: Path) -> None:
    done = sudoku(plugin_python, "solve", "-s", "echo-backtrack", "--format", "json", PUZZLE)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["strategy"] == "echo-backtrack"
    assert record["status"] == "solved"
    assert is_solution(Grid.parse(PUZZLE), Grid.parse(record["solution"]))


def test_check_catches_the_wrong_engine(plugin_python: Path) -> None:
    done = sudoku(plugin_python, "check", "--strategies", "backtrack,wrong", "--format", "json", PUZZLE)
    assert done.returncode == 3
    problems = [line for line in done.stderr.splitlines() if "'wrong'" in line]
    assert problems, done.stderr
    assert PUZZLE in problems[0]
    assert "invalid grid" in problems[0]
    assert "'backtrack'" not in done.stderr  # the correct engine is not blamed
    engines = {e["strategy"]: e for e in json.loads(done.stdout)["engines"]}
    assert engines["wrong"]["verdict"] == "invalid"
    assert engines["backtrack"]["verdict"] == "ok"


def test_check_agrees_with_the_echo_engine(plugin_python: Path) -> None:
    done = sudoku(plugin_python, "check", "--strategies", "backtrack,echo-backtrack", PUZZLE)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "agree: 1 solution" in done.stdout
    assert "echo-backtrack" in done.stdout
