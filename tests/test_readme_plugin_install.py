"""The README's two installs of its plugin example, ``sudokit-mini``, run as written, offline.

With uv: a checkout of sudokit (a temporary folder of links to this one's project files, so that the
real ``.venv`` is never touched) gets its ``.venv`` from ``uv sync --locked``, as the README's set-up
(``uv run --locked``) makes it, without pip; the README's uv block installs the plugin there, ``sudoku
strategies`` lists it, ``sudoku solve -s mini`` and the block's kit run use it, ``uv sync --inexact``
keeps it and ``uv sync`` removes it, as the README says.

With pip: a venv made by ``python -m venv`` (seeing the project's packages, sudokit among them, through a
``.pth``: ``venv_with``) runs the README's pip block's install, then the plugin is listed and solves.

Offline: ``UV_OFFLINE=1``, and pip with ``PIP_NO_INDEX=1`` and no build isolation; the plugin's build
backend, hatchling, is the one sudokit itself is built with, so uv has it in its cache after any sync
of the project (the pip venv gets it from there too).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT, venv_with
from tests.test_readme_engine import FOLDER, PUZZLE, files, section

#: The project files a checkout needs for ``uv sync --locked``.
PROJECT = ("pyproject.toml", "uv.lock", "README.md", "LICENSE", "THIRD_PARTY_NOTICES.md", "src", "strategies")
#: Kept from this process's environment for uv: its cache (the offline installs read it).
_KEPT_UV = ("UV_CACHE_DIR",)

_SH = re.compile(r"^```sh\n(.*?)^```$", re.M | re.S)


def block(first: str) -> list[str]:
    """The lines of the section's ``sh`` block whose first line is ``first``."""
    blocks = [[line for line in b.splitlines() if line.strip()] for b in _SH.findall(section())]
    found = [lines for lines in blocks if lines and lines[0] == first]
    assert found, f"no ```sh block of the plugin page (docs/writing-an-engine.md) begins with {first!r}: {blocks}"
    return found[0]


def uv() -> str:
    """The uv that runs this suite (``uv run`` says which in UV), or the one on PATH."""
    found = os.environ.get("UV") or shutil.which("uv")
    assert found, "uv is not available: the README's uv install cannot be tried"
    return found


def environment(bin_dir: Path, **extra: str) -> dict[str, str]:
    """This process's environment without a venv or uv project of its own, ``bin_dir`` (and uv) first on PATH."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("VIRTUAL_ENV", "PYTHONPATH", "FORCE_COLOR", "SUDOKIT_TEST_STRATEGY", "PYTEST_ADDOPTS")
        and not (key.startswith(("UV_", "PIP_")) and key not in _KEPT_UV)
    }
    env["PATH"] = os.pathsep.join([str(bin_dir), str(Path(uv()).parent), env.get("PATH", os.defpath)])
    env["NO_COLOR"] = "1"
    env.update(extra)
    return env


def sh(command: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``command`` run by bash in ``cwd``."""
    return subprocess.run(
        ["bash", "-c", command], cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=180
    )


def write_plugin(root: Path) -> None:
    """The README's ``sudokit-mini/`` files, under ``root``."""
    for path, text in files().items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")


def lists_mini(done: subprocess.CompletedProcess[str]) -> bool:
    """Whether ``sudoku strategies`` listed the plugin's engine, from its distribution."""
    assert done.returncode == 0, done.stdout + done.stderr
    return any(line.split()[:1] == ["mini"] and line.endswith("[sudokit-mini]") for line in done.stdout.splitlines())


def solves_with_mini(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode == 0, done.stdout + done.stderr
    record = json.loads(done.stdout)
    assert (record["strategy"], record["status"]) == ("mini", "solved"), record


def test_the_readme_installs_the_plugin_with_uv_into_the_venv_uv_made(tmp_path: Path) -> None:
    checkout = tmp_path / "sudokit"
    checkout.mkdir()
    for name in PROJECT:
        (checkout / name).symlink_to(ROOT / name)
    venv_bin = checkout / ".venv" / "bin"
    env = environment(venv_bin, UV_OFFLINE="1", UV_PYTHON_DOWNLOADS="never")
    # What the README's `uv run --locked` does first (with this interpreter: uv's cache holds its wheels).
    synced = sh(f"uv sync --locked --quiet --python {sys.executable}", checkout, env)
    assert synced.returncode == 0, synced.stderr
    no_pip = sh("python -m pip --version", checkout, env)
    assert no_pip.returncode != 0 and "No module named pip" in no_pip.stderr  # why the README's pip line fails here
    write_plugin(checkout)
    commands = block(f"uv pip install ./{FOLDER}")
    installed = sh(commands[0], checkout, env)
    assert installed.returncode == 0, installed.stderr
    assert list(checkout.glob(".venv/lib/python*/site-packages/sudokit_mini.py")), "not into the checkout's .venv"
    assert lists_mini(sh("sudoku strategies", checkout, env))
    solves_with_mini(sh(f"sudoku solve -s mini -f json {PUZZLE}", checkout, env))
    # The block's kit run, on one check (the whole kit on mini is tests/test_readme_engine.py's).
    one_check = {**env, "PYTEST_ADDOPTS": "-k limit_2_proves_unique -p no:cacheprovider"}
    kit = sh(" && ".join(commands[1:]), checkout, one_check)
    assert kit.returncode == 0 and "1 passed" in kit.stdout, kit.stdout + kit.stderr
    # As the README says: `uv sync --inexact` keeps the plugin, `uv sync` removes it.
    assert sh("uv sync --locked --inexact --quiet", checkout, env).returncode == 0
    assert lists_mini(sh("sudoku strategies", checkout, env))
    assert sh("uv sync --locked --quiet", checkout, env).returncode == 0
    assert not lists_mini(sh("sudoku strategies", checkout, env))


def test_the_readme_installs_the_plugin_with_pip_into_a_venv_python_made(tmp_path: Path) -> None:
    write_plugin(tmp_path)
    python = venv_with(tmp_path, [])  # `python -m venv`, seeing sudokit (and its dependencies) installed
    env = environment(python.parent, UV_OFFLINE="1")
    has_pip = sh("python -m pip --version", tmp_path, env)
    assert has_pip.returncode == 0, has_pip.stderr
    # Offline, pip builds the plugin with the hatchling installed beside it (uv's cached copy) instead of fetching one.
    backend = sh(f"uv pip install --quiet --python {python} 'hatchling>=1.25'", tmp_path, env)
    assert backend.returncode == 0, backend.stderr
    offline = {**env, "PIP_NO_INDEX": "1", "PIP_NO_BUILD_ISOLATION": "0", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    commands = block(f"python -m pip install ./{FOLDER}")
    installed = sh(commands[0], tmp_path, offline)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    assert "Successfully installed sudokit-mini-0.1.0" in installed.stdout
    assert lists_mini(sh("python -m sudokit strategies", tmp_path, env))
    solves_with_mini(sh(f"python -m sudokit solve -s mini -f json {PUZZLE}", tmp_path, env))
