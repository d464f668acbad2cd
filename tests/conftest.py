"""Shared test data: the puzzle files, read here by a few lines of code that share nothing with sudokit."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from sudokit import Grid
from sudokit.cli import app

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
SIZES = PUZZLES / "sizes"
#: Box shapes of the sizes/ files, smallest board first (box5x5, the 25x25 board, is last).
BOXES = ("2x2", "2x3", "2x4", "3x3", "3x4", "4x4", "5x5")


def pytest_configure(config: pytest.Config) -> None:
    """Compile sudokit's sources to bytecode and numba's kernels once, before the workers start.

    The suite starts hundreds of ``sudoku`` processes. Where ``PYTHONDONTWRITEBYTECODE`` is set (CI
    images often set it), none of them leaves its compiled modules behind, so each compiles sudokit
    again: about 0.7 s of CPU a process. ``compileall`` writes the bytecode whatever that variable says
    (the README's test command has uv do the same for the installed packages: ``--compile-bytecode``).
    """
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        import compileall

        for folder in ("src", "strategies"):
            compileall.compile_dir(str(ROOT / folder), quiet=2, workers=1)
        if getattr(config.option, "numprocesses", None):  # workers about to start side by side (pytest-xdist)
            _warm_numba()


def _warm_numba() -> None:
    """Fill numba's on-disk cache once, in a process of its own, before the workers start.

    On a machine that never ran sudokit, the first use of ``numba`` compiles its kernels (about 20 s of
    CPU); without this, each worker and each ``sudoku`` process a test starts in the meantime would
    compile them too. A serial run skips it: its first numba test fills the cache for the rest. A failure
    here is the tests' to report, not this step's.
    """
    code = "from sudokit import Grid, solve; solve(Grid.empty('3x3'), 'numba'); solve(Grid.empty('2x2'), 'numba')"
    with contextlib.suppress(OSError, subprocess.TimeoutExpired):
        subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=600, check=False)


@dataclass(frozen=True)
class Line:
    """One puzzle line of a data file: its number, the puzzle text and the text after ``:``, if any."""

    path: Path
    number: int
    puzzle: str
    note: str | None

    @property
    def id(self) -> str:
        return f"{self.path.stem}:{self.number}"


def puzzle_lines(name: str | Path) -> list[Line]:
    """The puzzle lines of a data file (``#`` lines and blank lines skipped), ``puzzle:note`` split."""
    path = PUZZLES / name
    lines = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = raw.strip()
        if text and not text.startswith("#"):
            puzzle, sep, note = text.partition(":")
            lines.append(Line(path, number, puzzle, note if sep else None))
    return lines


def puzzles(name: str) -> list[str]:
    """The puzzle texts of a data file."""
    return [line.puzzle for line in puzzle_lines(name)]


def sized(box: str) -> list[tuple[Grid, Grid]]:
    """(puzzle, solution) pairs of ``sizes/box{box}.txt``."""
    return [(Grid.parse(x.puzzle, box), Grid.parse(x.note or "", box)) for x in puzzle_lines(f"sizes/box{box}.txt")]


def counted() -> list[tuple[str, int]]:
    """(puzzle, exact number of solutions) pairs of counts.txt."""
    return [(x.puzzle, int(x.note or "")) for x in puzzle_lines("counts.txt")]


@pytest.fixture(scope="session")
def leetcode() -> str:
    """The LeetCode 37 example board, one line."""
    return puzzles("leetcode37.txt")[0]


@pytest.fixture(scope="session")
def hard() -> str:
    """A top95 puzzle that the plain order cannot solve in a fraction of a second."""
    return puzzles("top95.txt")[0]


def cli_runner() -> CliRunner:
    """A runner that keeps stderr apart from stdout (the default from Click 8.2; an option before)."""
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]
    except TypeError:
        return CliRunner()


def sudoku(*args: str, input: str | None = None):  # type: ignore[no-untyped-def]
    """``sudoku ARGS`` in this process: never a traceback, never an exception but the exit."""
    result = cli_runner().invoke(app, list(args), input=input, env={"NO_COLOR": None, "FORCE_COLOR": None})
    assert "Traceback" not in result.stdout + result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def refused(result: object, *parts: str) -> None:
    """Exit 2 and one line on stderr naming every part."""
    assert result.exit_code == 2, result.stdout + result.stderr  # type: ignore[attr-defined]
    [line] = result.stderr.strip().splitlines()  # type: ignore[attr-defined]
    assert line.startswith("sudoku: error: "), line
    for part in parts:
        assert part in line, line


def wait_for_records(out: Path, process: subprocess.Popen[Any], least: int = 20, seconds: float = 60) -> None:
    """Poll ``out`` until it holds ``least`` records (the batch is under way); fail if the batch ends first.

    The batch ``process`` runs on (it is for the caller to interrupt, and to end in a ``finally``).
    """
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        if out.exists() and out.read_bytes().count(b"\n") >= least:
            return
        time.sleep(0.002)
    if process.poll() is None:
        raise AssertionError(f"{out} has fewer than {least} records after {seconds:g} s")
    _, err = process.communicate()
    raise AssertionError(f"the batch ended (exit {process.returncode}) before it could be interrupted: {err!r}")


def interrupt_batch(process: subprocess.Popen[str], out: Path, sig: int, *, group: bool, seconds: float = 30) -> str:
    """Once ``out`` holds some records, send ``sig`` to the batch (to its whole process group with ``group``: it
    must lead one); its standard error once it has ended. It is killed if it outlives the test."""
    try:
        wait_for_records(out, process)
        if group:
            os.killpg(process.pid, sig)
        else:
            process.send_signal(sig)
        _, stderr = process.communicate(timeout=seconds)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return str(stderr)


def assert_complete_records(out: Path) -> list[dict[str, object]]:
    """OUT holds whole JSON records only: every line parses, and the file ends with a newline (or is empty)."""
    data = out.read_bytes()
    assert data == b"" or data.endswith(b"\n"), data[-200:]
    return [json.loads(line) for line in data.decode().splitlines()]


def venv_with(root: Path, sources: list[Path]) -> Path:
    """The python of a new venv under ``root`` with ``sources`` (distributions' folders) installed for real.

    The venv also sees the project's environment, through a ``.pth`` file, so that neither the project's
    venv (made by uv, without pip) nor sudokit needs reinstalling and sudokit's own entry points are
    found too, after the installed ones.
    """
    venv = root / "venv"
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    # The uv-made project venv has no pip; a venv of its interpreter has (3.11 ships ensurepip).
    with_pip = subprocess.run([sys.executable, "-m", "venv", venv], capture_output=True, stdin=subprocess.DEVNULL)
    if with_pip.returncode == 0:
        installer = [python, "-m", "pip", "install", "--quiet", "--no-input", "--disable-pip-version-check"]
    else:  # an interpreter without ensurepip (Debian's python3 without python3-venv): use uv's pip
        uv = os.environ.get("UV") or shutil.which("uv")
        assert uv, f"cannot make a venv with pip ({with_pip.stderr.decode().strip()}) and uv is not available"
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--clear", venv], check=True)
        installer = [uv, "pip", "install", "--quiet", "--python", python]
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # addsitedir (not a bare path) so the project's own .pth files, e.g. the editable sudokit, apply.
    dirs = "; ".join(f"site.addsitedir({d!r})" for d in site.getsitepackages())
    Path(purelib, "_sudokit_project.pth").write_text(f"import site; {dirs}\n")
    if sources:  # none: the bare venv, for a test that installs as a user would
        subprocess.run([*installer, "--no-deps", *sources], check=True, stdin=subprocess.DEVNULL)
    return python


def site_without(out: Path, hidden: Callable[[str], bool]) -> Path:
    """``out`` filled with links to every entry of this interpreter's site-packages but those ``hidden`` names.

    With ``python -S`` (no ``site``) and ``out`` first on ``sys.path``, that is the environment a user
    without an extra has: everything installed here but the extra's packages.
    """
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        if not hidden(entry.name):
            (out / entry.name).symlink_to(entry.resolve())
    return out


def sudoku_in_site(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The real ``sudoku ARGS`` in a new ``python -S`` whose packages are those of ``site`` (and this checkout's)."""
    code = (
        "import sys\n"
        f"sys.path[:0] = [{str(site)!r}, {str(ROOT / 'src')!r}, {str(ROOT / 'strategies')!r}]\n"
        f"sys.argv = ['sudoku', *{list(args)!r}]\n"
        "from sudokit.cli import main\n"
        "main()\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(
        [sys.executable, "-S", "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        stdin=subprocess.DEVNULL,
    )
