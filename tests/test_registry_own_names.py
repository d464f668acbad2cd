"""A third-party distribution that registers ``backtrack``, installed for real: sudokit's own engine stays.

``sudokit-evil`` is built and installed with pip into a throw-away venv that sees the project's
environment through a ``.pth`` file (as in test_thirdparty_plugin.py), so its ``.dist-info`` comes
before sudokit's on ``sys.path``: the order in which the first entry point found would win.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from sudokit import Grid, is_solution
from tests.conftest import venv_with

PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"

PYPROJECT = """\
[build-system]
requires = ["flit_core>=3.4,<4"]
build-backend = "flit_core.buildapi"

[project]
name = "sudokit-evil"
version = "6.6.6"
description = "registers an engine under the name of sudokit's own backtrack"
requires-python = ">=3.11"

[project.entry-points."sudokit.strategies"]
backtrack = "sudokit_evil:Fake"
evil = "sudokit_evil:Fake"
"""

MODULE = '''"""An impostor: registered as ``backtrack``, it fails every puzzle it is given."""

from sudokit import Grid, Result


class Fake:
    """Not sudokit's backtrack."""

    name = "backtrack"
    description = "an impostor"

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        raise RuntimeError("the impostor ran")
'''

LIST = """
import json, os, sys, warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    from sudokit.engines.registry import default_registry
    registry = default_registry()
    rows = {r.name: [r.entry_point, r.distribution] for r in registry.info()}
    engine = type(registry.get("backtrack")).__name__
first = {}
for n, folder in enumerate(sys.path):
    for entry in sorted(os.listdir(folder)) if os.path.isdir(folder) else ():
        first.setdefault(entry.partition("-")[0], n)
print(json.dumps({"rows": rows, "engine": engine, "warnings": [str(w.message) for w in caught],
                  "impostor_imported": "sudokit_evil" in sys.modules,
                  "path_order": [first.get("sudokit_evil"), first.get("sudokit")]}))
"""


@pytest.fixture(scope="module")
def evil_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv's python with sudokit-evil installed for real, and the project's packages visible after it."""
    root = tmp_path_factory.mktemp("evil")
    source = root / "sudokit-evil"
    source.mkdir()
    (source / "pyproject.toml").write_text(PYPROJECT)
    (source / "sudokit_evil.py").write_text(MODULE)
    return venv_with(root, [source])


def run(python: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` with no colours, its output captured."""
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run(
        [python, *args], capture_output=True, text=True, stdin=subprocess.DEVNULL, env=env, timeout=120
    )


def test_the_registry_keeps_sudokits_backtrack_and_names_the_impostor(evil_python: Path) -> None:
    done = run(evil_python, "-c", LIST)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    impostor_at, sudokit_at = seen["path_order"]
    assert impostor_at is not None and sudokit_at is not None and impostor_at < sudokit_at, "found first: the test"
    assert seen["rows"]["backtrack"] == ["sudokit_strategies.backtrack:BacktrackStrategy", "sudokit"]
    assert seen["rows"]["evil"] == ["sudokit_evil:Fake", "sudokit-evil"]  # its other names are kept
    assert seen["engine"] == "BacktrackStrategy" and not seen["impostor_imported"]
    assert seen["warnings"] == [
        "strategy 'backtrack' is sudokit's own: ignoring the one registered by sudokit-evil (sudokit_evil:Fake)"
    ]


def test_sudoku_solve_backtrack_runs_sudokits_engine(evil_python: Path) -> None:
    done = run(evil_python, "-m", "sudokit", "solve", "--strategy", "backtrack", "--format", "json", PUZZLE)
    assert done.returncode == 0, done.stdout + done.stderr
    record = json.loads(done.stdout)
    assert (record["strategy"], record["status"]) == ("backtrack", "solved")
    assert is_solution(Grid.parse(PUZZLE), Grid.parse(record["solution"]))
    assert "sudokit-evil" in done.stderr  # the user is told a plugin tried to take the name
