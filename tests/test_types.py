"""The package's type hints are checked: mypy, with the configuration in pyproject.toml, finds no error.

sudokit ships ``py.typed``, so its hints are part of what users rely on. ``mypy`` from the root
checks what pyproject.toml's ``[tool.mypy]`` names: the core (``src/sudokit``) and every engine,
strictly (none excused with ``ignore_errors``), so that a change that breaks a hint fails here and
not in a user's type checker.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_finds_no_error() -> None:
    # Cold (a fresh clone) about 10 s of CPU; with the .mypy_cache a run leaves, under 1 s.
    env = {k: v for k, v in os.environ.items() if not k.startswith("MYPY")}
    done = subprocess.run(
        [sys.executable, "-m", "mypy"],  # the files pyproject.toml names
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, f"mypy exit status {done.returncode}:\n{done.stdout}{done.stderr}"
    assert "Success: no issues found" in done.stdout, done.stdout


def test_the_core_and_the_engines_are_checked_strictly() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["strict"] is True
    assert not [o for o in config["overrides"] if "strict" in o or o.get("disallow_untyped_defs") is False]
    assert config["files"] == ["src/sudokit", "strategies/sudokit_strategies"]
    assert config.get("ignore_missing_imports") is None  # only per module, for the ones without hints
    assert not [o["module"] for o in config["overrides"] if o.get("ignore_errors")]  # every engine is checked
    for override in config["overrides"]:
        if override.get("ignore_errors") or override.get("ignore_missing_imports"):
            assert not any(m.startswith("sudokit.") or m == "sudokit" for m in override["module"])
