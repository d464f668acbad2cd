"""The conformance kit as third parties use it: their distributions installed for real, their own tests run there.

The two distributions in tests/thirdparty/ are installed into a fresh venv (``venv_with``: it also
sees the project's environment, so sudokit and pytest are there, and sudokit's pytest plugin).
Each one's ``test_conformance.py`` (the kit's glue: ``parametrize_with_checks``) is run there with
``python -m pytest test_conformance.py``, as its author would: the good engine, ``echo-backtrack``,
passes every check (or is skipped, with the reason); the wrong one fails, and each failure names
the check (test id ``wrong-CHECK``) and the puzzle. The by-name mode,
``SUDOKIT_TEST_STRATEGY=NAME python -m pytest --pyargs sudokit.testing``, runs against the installed
engines too, on a few checks (the whole kit runs once per distribution, through its test file).

Each pytest run also writes a JUnit XML report (through ``PYTEST_ADDOPTS``, leaving the command as
written), from which the outcome of every (engine, check) test is read.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest

from sudokit import Grid
from sudokit.testing import all_checks
from tests.conftest import venv_with

THIRDPARTY = Path(__file__).parent / "thirdparty"
GOOD, WRONG = "sudokit-echo-plugin", "sudokit-wrong-plugin"
#: Seconds one pytest run in the venv may take (the whole kit takes well under a minute).
RUN_TIMEOUT = 300
#: The outer run's settings that must not leak into the runs here.
_UNSET = ("SUDOKIT_TEST_STRATEGY", "PYTEST_ADDOPTS", "PYTEST_PLUGINS", "PYTEST_CURRENT_TEST")


@dataclass(frozen=True)
class Case:
    """One test of a run: its id (inside the brackets), outcome, and message (a failure's or a skip's reason)."""

    id: str
    outcome: str  # passed, failed, skipped or error
    message: str


@dataclass(frozen=True)
class Run:
    """A pytest run in the venv: its exit status, what it printed, its tests by id, and the seconds it took."""

    command: str
    returncode: int
    output: str
    cases: dict[str, Case]
    seconds: float

    def ids(self, outcome: str) -> set[str]:
        """The ids of the tests with ``outcome``."""
        return {case.id for case in self.cases.values() if case.outcome == outcome}

    def __str__(self) -> str:
        return f"$ {self.command}  (exit status {self.returncode}, {self.seconds:.1f} s)\n{self.output}"


def run_pytest(python: Path, command: str, cwd: Path, report: Path, **env: str) -> Run:
    """``command`` (a pytest command line, with ``python`` as the venv's) run by bash in ``cwd``, read back."""
    environment = {key: value for key, value in os.environ.items() if key not in _UNSET}
    environment.update(env)
    environment["PATH"] = os.pathsep.join([str(python.parent), environment.get("PATH", os.defpath)])
    environment["PYTEST_ADDOPTS"] = f"--junitxml={report} -p no:cacheprovider"
    start = time.perf_counter()
    done = subprocess.run(
        ["bash", "-c", command],
        cwd=cwd,
        env=environment,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
    )
    seconds = time.perf_counter() - start
    output = done.stdout + done.stderr
    cases = _junit_cases(report) if report.exists() else {}
    return Run(command, done.returncode, output, cases, seconds)


def _junit_cases(report: Path) -> dict[str, Case]:
    """The tests of a JUnit XML report by id (what the brackets of their names hold)."""
    cases = {}
    for testcase in ET.parse(report).getroot().iter("testcase"):
        name = testcase.get("name", "")
        id = name[name.index("[") + 1 : -1] if name.endswith("]") else name
        outcome, message = "passed", ""
        for tag in ("failure", "error", "skipped"):
            element = testcase.find(tag)
            if element is not None:
                outcome = {"failure": "failed", "error": "error", "skipped": "skipped"}[tag]
                message = element.get("message", "")
                break
        cases[id] = Case(id, outcome, message)
    return cases


CHECKS = [c.name for c in all_checks()]
_PUZZLE = re.compile(r"\(puzzle ([0-9A-Za-z.]+)\)$")
_BOX = re.compile(r"\bof (\d+x\d+) boxes\b")


def _is_puzzle(line: str, box: re.Match[str] | None) -> bool:
    """Whether ``line`` is a puzzle: of the box shape named (``of 3x2 boxes``), else of any shape its size has."""
    side = math.isqrt(len(line))
    shapes = [box.group(1)] if box else [f"{r}x{side // r}" for r in range(1, side + 1) if side % r == 0]
    for shape in shapes:
        try:
            Grid.parse(line, shape)
        except Exception:
            continue
        return True
    return False


def failure_problem(run: Run, engine: str, case: Case) -> str | None:
    """What a failed test does not say: the check's name, in its id and message, and the puzzle; None if all."""
    check = case.id.removeprefix(f"{engine}-")
    if check not in CHECKS:
        return f"{case.id}: the test id is not {engine}-CHECK"
    if f"check {check} failed for strategy {engine!r}: " not in case.message:
        return f"{case.id}: the message does not name the check and the engine: {case.message}"
    match = _PUZZLE.search(case.message)
    if match is None:
        return f"{case.id}: the message names no puzzle: {case.message}"
    if not _is_puzzle(match.group(1), _BOX.search(case.message)):
        return f"{case.id}: the puzzle named is not a puzzle: {case.message}"
    if f"[{case.id}]" not in run.output:
        return f"{case.id}: pytest's summary does not name the test"
    return None


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A folder with copies of both distributions, and the python of a venv with both installed."""
    root = tmp_path_factory.mktemp("kit-thirdparty")
    copies = [shutil.copytree(THIRDPARTY / name, root / name) for name in (GOOD, WRONG)]
    return root, venv_with(root, copies)


@pytest.fixture(scope="module")
def wrong_run(venv: tuple[Path, Path]) -> Run:
    """The wrong distribution's own test file run as its author would: the whole kit against ``wrong``."""
    root, python = venv
    return run_pytest(python, "python -m pytest test_conformance.py", root / WRONG, root / "wrong.xml")


def test_good_plugin_passes_the_whole_kit_through_its_own_test_file(venv: tuple[Path, Path]) -> None:
    root, python = venv
    run = run_pytest(python, "python -m pytest test_conformance.py", root / GOOD, root / "good.xml")
    print(f"the whole kit against echo-backtrack: {run.seconds:.1f} s")
    assert run.returncode == 0, run
    assert set(run.cases) == {f"echo-backtrack-{name}" for name in CHECKS}, run
    assert run.ids("passed") | run.ids("skipped") == set(run.cases), run
    for id in run.ids("skipped"):
        reason = run.cases[id].message
        assert reason.startswith("echo-backtrack: ") and len(reason) > len("echo-backtrack: ") + 10, (id, reason)
    # echo-backtrack passes backtrack's declaration on (boards up to 16x16): the kit read it.
    assert "echo-backtrack-keep_is_honoured" in run.ids("skipped")  # its solve takes no keep


def test_wrong_plugin_fails_and_each_failure_names_the_check_and_the_puzzle(wrong_run: Run) -> None:
    print(f"the whole kit against wrong: {wrong_run.seconds:.1f} s")
    assert wrong_run.returncode == 1, wrong_run
    assert set(wrong_run.cases) == {f"wrong-{name}" for name in CHECKS}, wrong_run
    failed = wrong_run.ids("failed")
    assert "wrong-solutions_solve_the_puzzle" in failed, wrong_run
    assert wrong_run.ids("passed"), "the kit failed every check: it should fail only what is wrong"
    assert not wrong_run.ids("error"), wrong_run
    problems = [failure_problem(wrong_run, "wrong", wrong_run.cases[id]) for id in sorted(failed)]
    assert not [p for p in problems if p], "\n".join(p for p in problems if p)


def _handful() -> list[str]:
    """A few checks for the by-name runs: the first of each group but time's, whose checks take a second each."""
    firsts: dict[str, str] = {}
    for item in all_checks():
        if item.group != "time":
            firsts.setdefault(item.group, item.name)
    return list(firsts.values())


def _selected(names: list[str]) -> set[str]:
    """The checks ``-k "A or B ..."`` selects: those whose names hold one of ``names``."""
    return {check for check in CHECKS if any(name in check for name in names)}


def test_by_name_mode_passes_for_the_good_plugin(venv: tuple[Path, Path]) -> None:
    root, python = venv
    names = _handful()
    command = f"python -m pytest --pyargs sudokit.testing -k '{' or '.join(names)}'"
    run = run_pytest(python, command, root, root / "by-name-good.xml", SUDOKIT_TEST_STRATEGY="echo-backtrack")
    print(f"{len(names)} checks against echo-backtrack by name: {run.seconds:.1f} s")
    assert run.returncode == 0, run
    assert "sudokit conformance kit against: echo-backtrack" in run.output, run
    assert set(run.cases) == {f"echo-backtrack-{name}" for name in _selected(names)}, run
    assert run.ids("passed") | run.ids("skipped") == set(run.cases), run


def test_by_name_mode_fails_for_the_wrong_plugin_naming_the_checks(venv: tuple[Path, Path], wrong_run: Run) -> None:
    root, python = venv
    failing = sorted(wrong_run.ids("failed"))[:3]
    passing = sorted(wrong_run.ids("passed"))[:1]
    names = [id.removeprefix("wrong-") for id in failing + passing]
    command = f"python -m pytest --pyargs sudokit.testing -k '{' or '.join(names)}'"
    run = run_pytest(python, command, root, root / "by-name-wrong.xml", SUDOKIT_TEST_STRATEGY="wrong")
    print(f"{len(names)} checks against wrong by name: {run.seconds:.1f} s")
    assert run.returncode == 1, run
    assert set(run.cases) == {f"wrong-{name}" for name in _selected(names)}, run
    assert set(failing) <= run.ids("failed"), run
    assert set(passing) <= run.ids("passed"), run
    problems = [failure_problem(run, "wrong", run.cases[id]) for id in sorted(run.ids("failed"))]
    assert not [p for p in problems if p], "\n".join(p for p in problems if p)
