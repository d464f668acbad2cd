"""The built-in engines are written as a third party's would be: sudokit's public names, nothing private.

Every module of ``strategies/sudokit_strategies`` (imports inside functions included) takes sudokit's names
from the top-level package, ``from sudokit import ...``, never from a ``sudokit.<module>`` path (which the
package's layout may move), and only names of ``sudokit.__all__``. What one engine module takes from
another is a public name: no ``_name`` and no ``_module`` crosses a module.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest

import sudokit

ENGINES = Path(__file__).resolve().parent.parent / "strategies" / "sudokit_strategies"
SOURCES = sorted(ENGINES.rglob("*.py"))


def imports(path: Path) -> list[tuple[int, str, list[str]]]:
    """Every import in ``path``, at any depth: (line, module, the names taken from it; [] for ``import m``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0 and node.module, f"{path.name}:{node.lineno}: a relative import"
            found.append((node.lineno, node.module, [alias.name for alias in node.names]))
    return found


def test_the_engine_sources_are_found() -> None:
    names = {path.relative_to(ENGINES).as_posix() for path in SOURCES}
    assert {"backtrack/__init__.py", "cpsat.py", "csp/__init__.py", "sat.py", "jit/__init__.py"} <= names


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: path.relative_to(ENGINES).as_posix())
def test_an_engine_imports_only_the_public_api(path: Path) -> None:
    where = path.relative_to(ENGINES).as_posix()
    for line, module, names in imports(path):
        root = module.split(".")[0]
        if root == "sudokit":
            assert module == "sudokit" and names, f"{where}:{line}: imports {module}, not from sudokit import ..."
            private = [name for name in names if name not in sudokit.__all__]
            assert private == [], f"{where}:{line}: {private} are not in sudokit.__all__"
        elif root == "sudokit_strategies":
            hidden = [part for part in [*module.split("."), *names] if part.startswith("_")]
            assert hidden == [], f"{where}:{line}: takes the private {hidden} of {module}"


def test_the_names_engines_take_load_on_first_use() -> None:
    """The variant rules are public names of sudokit, yet ``import sudokit`` does not load their module."""
    code = (
        "import sys, sudokit\n"
        "before = set(sys.modules)\n"
        "from sudokit import ALL_KINDS, Constraint, king_pairs, knight_pairs, orthogonal_pairs, undotted_pairs\n"
        "home = sys.modules[Constraint.__module__]\n"
        "assert Constraint.__module__ not in before, 'loaded by import sudokit'\n"
        "taken = (ALL_KINDS, king_pairs, knight_pairs, orthogonal_pairs, undotted_pairs)\n"
        "assert taken == (home.ALL_KINDS, home.king_pairs, home.knight_pairs, home.orthogonal_pairs, "
        "home.undotted_pairs)\n"
        "print(len(ALL_KINDS))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == [str(len(sudokit.ALL_KINDS))]


def test_the_engine_packages_are_described_without_being_imported() -> None:
    """``sudoku strategies`` reads each description from the engine's source: a package's class is in its __init__."""
    code = (
        "import json, sys, sudokit\n"
        "rows = {info.name: info.description for info in sudokit.available_strategies()}\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('sudokit_strategies'))\n"
        "print(json.dumps({'rows': rows, 'loaded': loaded}))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    listed = json.loads(proc.stdout)
    assert listed["loaded"] == []
    from sudokit_strategies.backtrack import BacktrackStrategy

    assert listed["rows"]["backtrack"] == BacktrackStrategy.description
    if find_spec("numba") is not None:  # the extra sudokit[jit]
        from sudokit_strategies.jit import NumbaStrategy

        assert listed["rows"]["numba"] == NumbaStrategy.description


def test_a_classic_solve_loads_only_the_classic_search() -> None:
    """``sudoku solve``'s start-up: a classic 9x9 needs backtrack's classic search; the others load on first use."""
    code = (
        "import sys\n"
        "from sudokit import Grid\n"
        "from sudokit_strategies.backtrack import BacktrackStrategy\n"
        "def loaded():\n"
        "    inside = [m.split('.')[2] for m in sys.modules if m.startswith('sudokit_strategies.backtrack.')]\n"
        "    return ','.join(sorted(inside))\n"
        "classic = Grid.parse('53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79')\n"
        "print(BacktrackStrategy().solve(classic, limit=2).count, loaded())\n"
        "print(BacktrackStrategy().solve(Grid.empty('4x4'), limit=2).count, loaded())\n"
        "print(BacktrackStrategy(order='plain').solve(classic, limit=2).count, loaded())\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "1 base,search",
        "2 base,big,learning,search",
        "1 base,big,learning,plain,search",
    ]
