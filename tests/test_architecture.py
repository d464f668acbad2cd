"""The layers of sudokit hold: the import-linter contracts of pyproject.toml are kept, no module is in an
import circle, and no module takes another's private names or another package's private modules.

Every import counts, those made inside functions for start-up's sake included; only imports under
``if TYPE_CHECKING:`` (never made at run time) do not.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src" / "sudokit"


def _modules(root: Path = SOURCE) -> dict[str, Path]:
    """Every module of the package under ``root``, by dotted name (a package by its own name)."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _runtime_nodes(tree: ast.Module) -> list[ast.AST]:
    """The nodes of ``tree`` but those under ``if TYPE_CHECKING:`` (imports for type checkers only)."""
    hidden: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            hidden.update(id(inner) for stmt in node.body for inner in ast.walk(stmt))
    return [node for node in ast.walk(tree) if id(node) not in hidden]


def _imports(name: str, path: Path) -> list[tuple[str, str, int]]:
    """``(module, imported name or "", line)`` of each sudokit import of a module, at any depth."""
    out = []
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                base = base[: len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            out += [(module, alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.Import):
            out += [(alias.name, "", node.lineno) for alias in node.names]
    return [entry for entry in out if entry[0] == "sudokit" or entry[0].startswith("sudokit.")]


def _graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Which modules each module imports (a name imported from a package that is a module counts as it)."""

    def owner(module: str) -> str:
        while module and module not in modules:
            module = module.rpartition(".")[0]
        return module

    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = set()
        for module, imported, _ in _imports(name, path):
            full = f"{module}.{imported}"
            targets.add(full if full in modules else owner(module))
        graph[name] = targets - {name, ""}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.get(target, ())))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def _private_uses(modules: dict[str, Path]) -> list[str]:
    """Where a module imports or reads another module's ``_name``, or a private module of another package.

    A private module (``sudokit.testing._kit``) is its package's own: its package's modules may use it.
    """
    found = []
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        aliases = {}
        for module, imported, line in _imports(name, path):
            full = f"{module}.{imported}"
            where = f"{_shown(path)}:{line}"
            if full in modules:
                aliases[imported] = full
            if any(_private(part) for part in module.split(".")) and not (module + ".").startswith(package + "."):
                found.append(f"{where}: {name} imports from the private module {module}")
            elif full in modules and _private(imported) and not full.startswith(package + "."):
                found.append(f"{where}: {name} imports the private module {full}")
            elif full not in modules and _private(imported) and module != name:
                found.append(f"{where}: {name} imports {module}'s private {imported}")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and _private(node.attr)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
            ):
                where = f"{_shown(path)}:{node.lineno}"
                found.append(f"{where}: {name} reads {aliases[node.value.id]}'s private {node.attr}")
    return found


def test_the_import_linter_contracts_are_kept() -> None:
    """lint-imports (configured in pyproject.toml) finds the layers and the engines' contract kept."""
    command = Path(sys.executable).with_name("lint-imports")
    assert command.exists(), "import-linter is in the dev group: uv sync --group dev"
    proc = subprocess.run(
        [str(command), "--no-cache", "--config", str(ROOT / "pyproject.toml")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert "2 kept, 0 broken" in proc.stdout


def test_no_module_of_sudokit_is_in_an_import_circle() -> None:
    """No chain of imports leads from a module back to itself, imports inside functions counted."""
    assert _cycles(_graph(_modules())) == []


def test_no_module_takes_another_modules_private_names() -> None:
    """A ``_name`` is its module's own, a private module its package's: every other use goes through a public name."""
    assert _private_uses(_modules()) == []


def test_the_checks_find_what_they_look_for(tmp_path: Path) -> None:
    """On a made-up package, the circle and the private uses above are found (function-level imports included)."""
    package = tmp_path / "sudokit"
    (package / "low").mkdir(parents=True)
    (package / "high").mkdir()
    (package / "__init__.py").write_text("")
    (package / "low" / "__init__.py").write_text("")
    (package / "high" / "__init__.py").write_text("")
    (package / "low" / "a.py").write_text("def f():\n    from sudokit.high.b import g\n\n    return g\n\n\n_x = 1\n")
    (package / "high" / "b.py").write_text(
        "from typing import TYPE_CHECKING\n\nfrom sudokit.low import a\nfrom sudokit.low.a import _x\n\n"
        "if TYPE_CHECKING:\n    from sudokit.high import _c\n\n\ndef g():\n    return a._x + _x\n"
    )
    (package / "high" / "_c.py").write_text("")
    (package / "low" / "d.py").write_text("from sudokit.high._c import *\n")
    modules = _modules(package)
    assert _cycles(_graph(modules)) == [["sudokit.high.b", "sudokit.low.a"]]
    uses = _private_uses(modules)
    assert any("sudokit.high.b imports sudokit.low.a's private _x" in use for use in uses)
    assert any("sudokit.high.b reads sudokit.low.a's private _x" in use for use in uses)
    assert any("sudokit.low.d imports from the private module sudokit.high._c" in use for use in uses)
    assert len(uses) == 3, uses  # the TYPE_CHECKING import of _c is not a use at run time


@pytest.mark.parametrize(
    "module",
    ["sudokit.model", "sudokit.io", "sudokit.engines", "sudokit.runtime", "sudokit.features", "sudokit.server"],
)
def test_a_layer_imports_no_layer_above_it(module: str) -> None:
    """Checked here too, so that a broken layer is named even without import-linter: imports go downwards only."""
    order = ["sudokit.errors", "sudokit.model", "sudokit.io", "sudokit.engines", "sudokit.runtime", "sudokit.features"]
    order += ["sudokit.server"]
    above = [*order[order.index(module) + 1 :], "sudokit.cli", "sudokit.testing"]
    modules = _modules()
    wrong = [
        f"{name} imports {target}"
        for name, targets in _graph(modules).items()
        if name == module or name.startswith(module + ".")
        for target in targets
        if target == "sudokit" or any(target == layer or target.startswith(layer + ".") for layer in above)
    ]
    assert wrong == []
