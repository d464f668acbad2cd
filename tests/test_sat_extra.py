"""Without the ``sat`` extra, ``sat`` is listed with its install command and nothing else changes.

The environment without the extra is the real one minus PySAT: a directory of links to every entry of
this interpreter's site-packages but python-sat's, used by ``python -S`` (no ``site``, so the real
site-packages is not on the path). The command is the real ``sudokit.cli``, its engines the real ones.
"""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.conftest import site_without
from tests.conftest import sudoku_in_site as sudoku

LEETCODE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


@pytest.fixture(scope="module")
def without_pysat(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A site directory holding everything installed here except python-sat."""
    assert (Path(sysconfig.get_paths()["purelib"]) / "pysat").is_dir(), "the test suite runs with every extra installed"
    return site_without(
        tmp_path_factory.mktemp("site-without-pysat"),
        lambda name: name == "pysat" or name.lower().startswith(("python_sat", "python-sat")),
    )


def test_the_environment_really_lacks_pysat(without_pysat: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-S", "-c", f"import sys; sys.path[:0] = [{str(without_pysat)!r}]; import pysat"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode != 0 and "No module named 'pysat'" in proc.stderr


def test_strategies_names_sat_and_the_install_command(without_pysat: Path) -> None:
    proc = sudoku(without_pysat, "strategies")
    assert proc.returncode == 0, proc.stderr
    rows = {line.split()[0]: line for line in proc.stdout.splitlines()}
    assert list(rows) == ["backtrack", "cp-sat", "numba", "python-constraint", "sat"]
    assert "needs python-sat: pip install 'sudokit[sat]'" in rows["sat"]
    assert all("needs" not in rows[name] for name in ("backtrack", "cp-sat", "python-constraint"))


def test_solving_with_sat_says_how_to_install_it(without_pysat: Path) -> None:
    proc = sudoku(without_pysat, "solve", "-s", "sat", LEETCODE)
    assert proc.returncode == 2 and proc.stdout == ""
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("sudoku: error: strategy 'sat'") and "pip install 'sudokit[sat]'" in last
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    "args",
    [["solve", "-s", "sat", LEETCODE], ["bench", "-s", "sat", "--first", "1"], ["generate", "-s", "sat"]],
)
def test_a_missing_extra_is_said_once(without_pysat: Path, args: list[str]) -> None:
    """The install command was printed twice: a warning from the engine's load, then the error."""
    if args[0] == "bench":
        args = [*args, str(Path(__file__).parent.parent / "puzzles" / "leetcode37.txt")]
    proc = sudoku(without_pysat, *args)
    assert proc.returncode == 2 and proc.stdout == ""
    told = [line for line in proc.stderr.splitlines() if "pip install 'sudokit[sat]'" in line]
    assert len(told) == 1 and told[0].startswith("sudoku: error: "), proc.stderr


def test_the_other_engines_work_as_before(without_pysat: Path) -> None:
    for engine in ("backtrack", "cp-sat"):
        proc = sudoku(without_pysat, "solve", "-s", engine, "-f", "line", LEETCODE)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.startswith(LEETCODE + ":") and "." not in proc.stdout.split(":")[1]
    proc = sudoku(without_pysat, "check", LEETCODE)  # every engine that loads; sat is said to be missing
    assert proc.returncode == 0, proc.stderr
