"""The examples of the README and of the docs run as shown, so that neither can drift from the program.

The README and every page of ``docs/`` (``DOCUMENTS``) are read alike, block by block. Python sessions
(```python blocks with ``>>>``) run as doctests, with ELLIPSIS and NORMALIZE_WHITESPACE.

Console sessions (```console blocks) run command by command, one block after another:

* A line starting with ``$ `` is a command; a command line that ends with ``\\`` goes on on the next
  line. The lines after it, up to the next ``$ `` or the end of the block, are what it prints.
* Each command runs as ``bash -c COMMAND`` from the repository root, with the venv's bin directory
  first on PATH (so ``sudoku`` is this checkout's), NO_COLOR=1, FORCE_COLOR unset, stdin from
  /dev/null and a time limit of ``COMMAND_TIMEOUT`` seconds. Standard output and standard error go
  to one pipe, so the output is compared in the order it was written, as a terminal shows it; a
  command that pipes its standard error on says ``2>&1`` itself. The exit status is not compared:
  an example that shows it prints it (``; echo "exit status $?"``).
* Examples write their files as ``/tmp/sudokit-readme-*``. Each block runs with that prefix pointed
  at a temporary folder of its own (in the commands; the output names the folder by the prefix
  again), so runs never share files and a block cannot depend on another one's.

Each output line is compared with the expected one after normalising what varies from run to run:

* trailing spaces are dropped and a run of spaces counts as one (table columns widen with the
  numbers in them);
* a number with a decimal point (or an exponent) is a measurement and matches any other: times
  with their unit (``12.43 ms`` matches ``1.2 s``; ``12.8ms``), rates (``57.1 puzzles/s``, ``2,312.3 puzzles/s``),
  ``"elapsed_ms": 0.343`` and the engines' timings in ``stats`` (cp-sat's ``wall_time``). The
  program prints every count, node, line number and status as a whole number, and those must
  match exactly. So must the dots of a puzzle (``53..7....6.8``): a decimal touching a dot, a
  letter or a digit is not a measurement;
* a clock (``0:00:01``) matches any clock;
* ``...`` standing alone (three dots touching no letter, digit or other dot) matches any text on
  its line, and a line that is only ``...`` matches any number of lines, none included.
"""

from __future__ import annotations

import doctest
import functools
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
#: Every file whose examples run: the README, then the docs site's pages.
DOCUMENTS = (README, *sorted((ROOT / "docs").glob("*.md")))
#: Seconds one console command may take before the test gives up on it: a guard against a hang, not a
#: measure (the 17clue file one puzzle at a time took more than 60 s with both cores kept busy, load 6).
COMMAND_TIMEOUT = 300
#: The prefix of the files the console examples write; each block gets a folder of its own instead.
TMP_PREFIX = "/tmp/sudokit-readme-"

_CONSOLE_BLOCK = re.compile(r"^```console\n(.*?)^```", re.S | re.M)
_ELLIPSIS = re.compile(r"(?<![\w.])\.\.\.(?![\w.])")
_MEASUREMENT = re.compile(
    r"(?<![\w.])(?:(?:\d{1,3}(?:,\d{3})+|\d+)\.\d+(?:[eE][-+]?\d+)?|\d+[eE][-+]\d+)"  # 0.343, 1,234.5, 1e-05
    r"(?: ?(?:ms|s|us|µs)|x)?(?![\w.])"  # with its unit: 12.8ms and 1.42 s are both times
    r"|(?<![\w:])\d+:\d\d:\d\d(?![\w:])"  # 0:00:01
)
_SPACES = re.compile(r"[ \t]+")
_ANY_LINES = None  # an expected line that is only "...": any number of lines


@dataclass(frozen=True)
class Example:
    """One console command of a document: where it is, what it runs and what it must print."""

    block: int
    line: int  # the document's line of the command
    command: str
    expected: tuple[str, ...]


def console_blocks(text: str, name: str = "README.md") -> list[list[Example]]:
    """The console blocks of a document's text, each a list of its commands with their expected output."""
    blocks = []
    for number, match in enumerate(_CONSOLE_BLOCK.finditer(text)):
        first_line = text.count("\n", 0, match.start(1)) + 1
        lines = match.group(1).splitlines()
        assert lines and lines[0].startswith("$ "), f"{name} line {first_line}: a console block starts with '$ '"
        examples: list[Example] = []
        k = 0
        while k < len(lines):
            at = k
            command = [lines[k][2:]]
            while command[-1].endswith("\\") and k + 1 < len(lines):
                k += 1
                command.append(lines[k])
            k += 1
            expected = []
            while k < len(lines) and not lines[k].startswith("$ "):
                expected.append(lines[k])
                k += 1
            examples.append(Example(number, first_line + at, "\n".join(command), tuple(expected)))
        blocks.append(examples)
    return blocks


def normalise(line: str) -> str:
    """A line as compared: trailing spaces dropped, runs of spaces as one, measurements as a placeholder."""
    return _MEASUREMENT.sub("\x00", _SPACES.sub(" ", line.rstrip()))


def line_pattern(expected: str) -> re.Pattern[str] | None:
    """The regular expression an output line must match (None for a line of ``...`` alone: any lines)."""
    if expected.strip() == "...":
        return _ANY_LINES
    parts = _ELLIPSIS.split(expected.rstrip())
    return re.compile(".*".join(re.escape(normalise(part)) for part in parts), re.S)


def output_matches(expected: list[str], actual: list[str]) -> bool:
    """True when the output lines match the expected ones (see the module docstring)."""
    patterns = [line_pattern(line) for line in _trimmed(expected)]
    lines = [normalise(line) for line in _trimmed(actual)]

    @functools.cache
    def match(i: int, j: int) -> bool:
        if i == len(patterns):
            return j == len(lines)
        pattern = patterns[i]
        if pattern is _ANY_LINES:
            return any(match(i + 1, skip) for skip in range(j, len(lines) + 1))
        return j < len(lines) and pattern.fullmatch(lines[j]) is not None and match(i + 1, j + 1)

    return match(0, 0)


def _trimmed(lines: list[str]) -> list[str]:
    """The lines without the blank ones at the end."""
    end = len(lines)
    while end and not lines[end - 1].strip():
        end -= 1
    return lines[:end]


def run_command(command: str, tmp: Path) -> str:
    """What ``command`` prints (stdout and stderr through one pipe), run as the module docstring says."""
    env = {key: value for key, value in os.environ.items() if key != "FORCE_COLOR"}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", os.defpath)])
    env["NO_COLOR"] = "1"
    try:
        done = subprocess.run(
            ["bash", "-c", command.replace(TMP_PREFIX, f"{tmp}/")],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=COMMAND_TIMEOUT,
        )
    except subprocess.TimeoutExpired as err:
        pytest.fail(f"command ran for more than {COMMAND_TIMEOUT} s: {command}\n{err.stdout!r}")
    return done.stdout.decode("utf-8", errors="replace").replace(f"{tmp}/", TMP_PREFIX)


def _name(path: Path) -> str:
    """A document's path from the repository root, as messages and test ids name it."""
    return path.relative_to(ROOT).as_posix()


#: (document, block) for every console block of every document.
BLOCKS = [
    (_name(path), block)
    for path in DOCUMENTS
    for block in console_blocks(path.read_text(encoding="utf-8"), _name(path))
]


def test_readme_has_console_examples() -> None:
    assert any(name == "README.md" for name, _ in BLOCKS), "the README has no console examples"
    assert all(block for _, block in BLOCKS), "a console block without commands"
    assert len(DOCUMENTS) > 1, "no docs pages found in docs/"


@pytest.mark.parametrize(("name", "block"), BLOCKS, ids=[f"{name}:line{examples[0].line}" for name, examples in BLOCKS])
def test_readme_console_examples_print_what_the_readme_shows(name: str, block: list[Example], tmp_path: Path) -> None:
    failures = []
    for example in block:
        output = run_command(example.command, tmp_path)
        if not output_matches(list(example.expected), output.splitlines()):
            failures.append(
                f"{name} line {example.line}: $ {example.command}\n"
                f"--- expected\n" + "\n".join(example.expected) + "\n--- printed\n" + output
            )
    assert not failures, "\n\n".join(failures)


def test_output_matching_follows_the_rules() -> None:
    """The comparison rules themselves: what varies matches, what the user relies on does not."""
    assert output_matches(["in 0.02 s (57.1 puzzles/s)"], ["in 1.25 s (3.0 puzzles/s)"])
    assert output_matches(['{"elapsed_ms": 0.343, "wall_time": 0.002}'], ['{"elapsed_ms": 12.0, "wall_time": 1e-05}'])
    assert output_matches(["backtrack=1/12.8ms  x"], ["backtrack=1/0.5ms      x  "])
    assert output_matches(
        ["time per engine: backtrack 9.9 ms, cp-sat 1.42 s"], ["time per engine: backtrack 1.1 s, cp-sat 637.4 ms"]
    )
    assert not output_matches(["in 0.02 s"], ["in 0.02 s, 2 retried"])
    assert not output_matches(["357 solutions"], ["358 solutions"])
    assert not output_matches(["nodes 4209, max_depth 51"], ["nodes 4210, max_depth 51"])
    assert not output_matches(["53..7....6.8...:5346"], ["53..7....6.9...:5346"])  # a puzzle's dots are literal
    assert output_matches(["interrupted after ... puzzles; done"], ["interrupted after 1234 puzzles; done"])
    assert not output_matches(["interrupted after ... puzzles; done"], ["interrupted after 1234 puzzles"])
    assert output_matches(["a", "...", "z"], ["a", "b", "c", "z"])
    assert output_matches(["a", "...", "z"], ["a", "z"])
    assert not output_matches(["a", "z"], ["a", "b", "z"])
    assert not output_matches(["a", "b"], ["a"])


def python_sessions(text: str) -> list[str]:
    """The Python sessions of a document's text: its ```python blocks that hold a ``>>>`` prompt."""
    return [block for block in re.findall(r"```python\n(.*?)```", text, flags=re.S) if ">>>" in block]


#: The documents that hold a Python session.
SESSIONS = [path for path in DOCUMENTS if python_sessions(path.read_text(encoding="utf-8"))]


def test_the_readme_has_a_python_session() -> None:
    assert README in SESSIONS, "the README has no Python session"


@pytest.mark.parametrize("path", SESSIONS, ids=[_name(path) for path in SESSIONS])
def test_readme_python_examples_print_what_the_readme_shows(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = python_sessions(path.read_text(encoding="utf-8"))
    monkeypatch.chdir(ROOT)  # the examples open puzzles/ by relative path
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for k, block in enumerate(blocks):
        runner.run(parser.get_doctest(block, {}, f"{_name(path)} block {k}", os.fspath(path), 0))
    results = runner.summarize(verbose=False)
    assert results.attempted > 0
    assert results.failed == 0


def test_the_readme_stays_short() -> None:
    """The README introduces; the docs site holds the rest (issue 23: at most 300 lines)."""
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 300


def test_api_reference_examples_print_what_they_show(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Python sessions of the docstrings docs/api.md renders: sudokit's and sudokit.testing's public names."""
    import inspect

    import sudokit
    import sudokit.testing

    monkeypatch.chdir(ROOT)  # the examples open puzzles/ by relative path
    finder = doctest.DocTestFinder(recurse=True, exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for module in (sudokit, sudokit.testing):
        for name in ("", *module.__all__):
            obj = getattr(module, name) if name else module
            home = inspect.getmodule(obj)  # a docstring's session sees its own module's names
            if home is None:  # a constant: no docstring of its own
                continue
            found = finder.find(obj, f"{module.__name__}.{name}".rstrip("."), module=home, globs=dict(vars(home)))
            for test in found:
                runner.run(test)
    results = runner.summarize(verbose=False)
    assert results.attempted >= 20, results  # sudokit's, Grid's, solve's, ...: the sessions were found
    assert results.failed == 0


def test_every_figure_of_the_performance_page_names_a_script_that_exists() -> None:
    """Each row of the targets table says how to measure it again, with a script of benchmarks/."""
    text = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    section = text.split("\n## Targets\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")][2:]  # after the header and |---|
    assert len(rows) >= 20, rows
    for row in rows:
        script = row.rstrip(" |").rsplit("|", 1)[1]
        named = re.findall(r"(\w+\.py)", script) or (["same"] if "the same command" in script else [])
        assert named, f"a figure without the script that measures it: {row[:80]}"
    named = set(re.findall(r"`(?:benchmarks/)?(\w+\.py)\b", text))
    assert named, "the page names no script"
    missing = sorted(name for name in named if not (ROOT / "benchmarks" / name).is_file())
    assert not missing, f"docs/performance.md names scripts benchmarks/ lacks: {missing}"
