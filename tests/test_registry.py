"""The entry-point registry: plugins load on first use and are kept; a broken or doubled one only warns.

Listing imports no engine; sudokit's own names cannot be taken by a plugin; extras are kept.
"""

from __future__ import annotations

import json
import pickle
import py_compile
import subprocess
import sys
import warnings
from collections.abc import Iterator
from importlib.metadata import EntryPoint, distribution, version
from pathlib import Path

import pytest

import sudokit.engines.registry
from sudokit import Strategy, is_solution
from sudokit.engines.registry import ENTRY_POINT_GROUP, Registry, StrategyWarning, default_registry, find_entry_points
from sudokit.errors import StrategyError, StrategyLoadError, UnknownStrategyError

from .conftest import PUZZLES, sized, sudoku

GOOD = "tests.plugins.good"
TWIN = "tests.plugins.twin"
BROKEN = "tests.plugins.broken"
OWN_BACKTRACK = "sudokit_strategies.backtrack:BacktrackStrategy"


def ep(name: str, value: str) -> EntryPoint:
    return EntryPoint(name=name, value=value, group=ENTRY_POINT_GROUP)


def dist_info(folder: Path, directory: str, entry_points: dict[str, str], metadata: str | None = None) -> Path:
    """A distribution's metadata directory ``folder/directory`` registering ``entry_points``; returns ``folder``."""
    path = folder / directory
    path.mkdir(parents=True)
    lines = "".join(f"{name} = {value}\n" for name, value in entry_points.items())
    (path / "entry_points.txt").write_text(f"[console_scripts]\nnot-an-engine = x:y\n\n[{ENTRY_POINT_GROUP}]\n{lines}")
    if metadata is not None:
        (path / "METADATA").write_text(metadata)
    return folder


@pytest.fixture(autouse=True)
def fresh_plugins() -> Iterator[None]:
    """Each test starts with the plugin modules not imported, so that loading them can be observed."""
    for name in (GOOD, TWIN, BROKEN):
        sys.modules.pop(name, None)
    yield
    for name in (GOOD, TWIN, BROKEN):
        sys.modules.pop(name, None)


def test_a_good_plugin_loads_and_solves() -> None:
    registry = Registry(eps=[ep("good", f"{GOOD}:Good")])
    assert registry.names() == ["good"]
    strategy = registry.get("good")
    assert isinstance(strategy, Strategy)
    puzzle, solution = sized("2x2")[0]
    result = strategy.solve(puzzle)
    assert result.solution == solution
    assert is_solution(puzzle, result.solution)


def test_an_entry_point_is_loaded_only_when_first_used_and_then_kept() -> None:
    registry = Registry(eps=[ep("good", f"{GOOD}:Good"), ep("other", f"{TWIN}:Twin")])
    assert registry.names() == ["good", "other"]
    assert GOOD not in sys.modules, "listing names must not import a plugin"
    first = registry.get("good")
    module = sys.modules[GOOD]
    assert module.IMPORTS == 1
    assert TWIN not in sys.modules, "using one plugin must not import the others"
    # Kept: the same factory and shared instance, with no second import even if the module is dropped.
    del sys.modules[GOOD]
    assert registry.get("good") is first
    assert registry.factory("good") is module.Good
    assert GOOD not in sys.modules
    assert module.IMPORTS == 1


def test_options_build_a_new_instance() -> None:
    registry = Registry(eps=[ep("good", f"{GOOD}:Good")])
    shared = registry.get("good")
    custom = registry.get("good", greeting="hi")
    assert custom is not shared and custom.greeting == "hi"  # type: ignore[attr-defined]
    assert registry.get("good") is shared
    with pytest.raises(StrategyError, match=r"has no option .colour. \(its options: greeting\)") as caught:
        registry.get("good", colour="red")
    assert not isinstance(caught.value, StrategyLoadError)


def test_a_plugin_whose_import_fails_is_a_warning_naming_it() -> None:
    registry = Registry(eps=[ep("broken", f"{BROKEN}:Broken"), ep("good", f"{GOOD}:Good")])
    warning = rf"'broken' \({BROKEN}:Broken\) failed to load: ImportError: .*unobtainium"
    with pytest.warns(StrategyWarning, match=warning), pytest.raises(StrategyLoadError, match="unobtainium"):
        registry.get("broken")
    # The failure is remembered: no second import attempt, no second warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(StrategyLoadError, match="unobtainium"):
            registry.get("broken")
        puzzle, solution = sized("2x2")[1]
        assert registry.get("good").solve(puzzle).solution == solution


def test_listing_with_load_reports_loaded_and_failed() -> None:
    registry = Registry(
        eps=[ep("good", f"{GOOD}:Good"), ep("broken", f"{BROKEN}:Broken"), ep("no-solve", f"{GOOD}:NoSolve")]
    )
    with pytest.warns(StrategyWarning, match=BROKEN):
        rows = {row.name: row for row in registry.info(load=True)}
    assert list(rows) == ["broken", "good", "no-solve"]
    good, broken, no_solve = rows["good"], rows["broken"], rows["no-solve"]
    assert (good.loaded, good.entry_point, good.error) == (True, f"{GOOD}:Good", None)
    assert good.description == "a plugin's plain recursive search"
    assert good.distribution is None
    assert broken.loaded is False and broken.description is None  # broken.py defines no Broken to read
    assert broken.error is not None and BROKEN in broken.error and "unobtainium" in broken.error
    assert no_solve.loaded is False and "is not a Strategy" in (no_solve.error or "")


def test_a_name_registered_twice_keeps_the_first_and_warns_naming_both() -> None:
    registry = Registry(eps=[ep("good", f"{GOOD}:Good"), ep("good", f"{TWIN}:Twin")])
    warning = rf"'good' is registered twice: keeping {GOOD}:Good .* ignoring {TWIN}:Twin"
    with pytest.warns(StrategyWarning, match=warning):
        names = registry.names()
    assert names == ["good"]
    assert type(registry.get("good")).__name__ == "Good"
    assert TWIN not in sys.modules
    puzzle, solution = sized("2x3")[0]
    assert registry.get("good").solve(puzzle).solution == solution


def test_the_same_entry_point_seen_twice_is_not_a_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        registry = Registry(eps=[ep("good", f"{GOOD}:Good"), ep("good", f"{GOOD}:Good")])
        assert registry.names() == ["good"]


def test_unknown_name_lists_the_installed_ones() -> None:
    registry = Registry(eps=[ep("good", f"{GOOD}:Good"), ep("broken", f"{BROKEN}:Broken")])
    with pytest.raises(UnknownStrategyError, match=r"unknown strategy 'nope' \(installed: broken, good\)"):
        registry.get("nope")
    with pytest.raises(UnknownStrategyError, match=r"installed: none"):
        Registry(eps=[]).get("backtrack")
    assert issubclass(UnknownStrategyError, LookupError)


def test_a_plugin_named_all_is_listed_as_unusable_and_never_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """'-s all' is the cross-check of every engine: a plugin registered as 'all' was listed as any other
    and run by bench's and check's 'every engine', yet 'sudoku solve -s all' could never reach it."""
    registry = Registry(eps=[ep("all", f"{GOOD}:Good"), ep("backtrack", OWN_BACKTRACK)])
    monkeypatch.setattr(sudokit.engines.registry, "_default", registry)
    assert registry.names() == registry.ready_names() == ["backtrack"]
    why = f"strategy 'all' ({GOOD}:Good) cannot be used: the name is reserved ('sudoku solve -s all' cross-checks"
    for args, state in [(["strategies"], ""), (["strategies", "--load"], "FAILED  ")]:
        listed = sudoku(*args)
        assert listed.exit_code == 0, listed.stderr
        first, second = listed.stdout.splitlines()
        assert first.startswith(f"all        {state}{why}") and second.startswith("backtrack  ")
    with pytest.raises(StrategyLoadError, match="the name is reserved"):
        registry.get("all")
    assert GOOD not in sys.modules  # listed from metadata, refused by name: never imported
    bench = sudoku("bench", str(PUZZLES / "easy50.txt"), "--first", "1", "-f", "json")  # every engine
    assert bench.exit_code == 0, bench.stderr
    assert [json.loads(line)["strategy"] for line in bench.stdout.splitlines()] == ["backtrack"]


def test_an_entry_point_that_is_not_a_factory() -> None:
    registry = Registry(eps=[ep("number", f"{GOOD}:NOT_A_FACTORY"), ep("missing", f"{GOOD}:Missing")])
    with pytest.raises(StrategyLoadError, match="is not a class or factory"):
        registry.get("number")
    warning = rf"'missing' \({GOOD}:Missing\) failed to load: AttributeError"
    with pytest.warns(StrategyWarning, match=warning), pytest.raises(StrategyLoadError):
        registry.get("missing")


def test_the_installed_registry_has_backtrack() -> None:
    registry = default_registry()
    assert registry is default_registry()
    assert "backtrack" in registry.names()
    backtrack = registry.get("backtrack")
    assert backtrack.name == "backtrack"
    assert registry.get("backtrack") is backtrack
    puzzle, solution = sized("3x3")[0]
    assert backtrack.solve(puzzle).solution == solution
    assert registry.get("backtrack", order="plain").solve(puzzle).solution == solution


# --- listing without importing ----------------------------------------------------------------------


def test_listing_imports_no_plugin_and_reads_each_description_from_its_source() -> None:
    registry = Registry(eps=[ep("good", f"{GOOD}:Good"), ep("twin", f"{TWIN}:Twin"), ep("broken", f"{BROKEN}:Broken")])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the broken plugin is not tried, so it cannot warn
        listed = {row.name: row for row in registry.info()}
    assert not {GOOD, TWIN, BROKEN} & set(sys.modules), "listing must not import a plugin"
    assert all(row.loaded is None and row.error is None for row in listed.values())
    assert listed["good"].entry_point == f"{GOOD}:Good" and listed["broken"].description is None
    # What the source says is what the loaded engines say of themselves.
    for name in ("good", "twin"):
        described = registry.describe(name)
        assert described.loaded is True and listed[name].description == described.description


LIST_INSTALLED = """
import json, sys
from sudokit.engines.registry import default_registry
rows = [{"name": r.name, "loaded": r.loaded, "description": r.description, "distribution": r.distribution,
         "version": getattr(r, "version", None)} for r in default_registry().info()]
print(json.dumps({"rows": rows, "modules": sorted(sys.modules)}))
"""


def test_listing_the_installed_engines_imports_none_of_them() -> None:
    done = subprocess.run([sys.executable, "-c", LIST_INSTALLED], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    listed = json.loads(done.stdout)
    engines = [m for m in listed["modules"] if m.split(".")[0] in ("ortools", "constraint", "sudokit_strategies")]
    assert engines == [], "nothing of the engines is imported, not even their package"
    rows = {row["name"]: row for row in listed["rows"]}
    for name in ("backtrack", "cp-sat", "python-constraint"):
        row = rows[name]
        assert (row["loaded"], row["distribution"], row["version"]) == (None, "sudokit", version("sudokit"))
        assert row["description"] and "\n" not in row["description"]


ENGINES_SOURCE = '''"""Engines whose descriptions are read from this source; importing it is an error."""


class Base:
    description = "said by the base class"


class Inherits(Base):
    """Its own docstring, not its description."""


class Documented:
    """First line of the docstring.

    More text.
    """


class Computed:
    """The docstring, as the description is not a literal."""

    description = "computed " + "at import"


class Outer:
    class Inner:
        description: str = "a nested class's description"


def factory(**options):
    """Builds an engine from options."""


raise RuntimeError("a listing imported the engine module")
'''


def test_descriptions_read_statically(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "sk_static_engines.py").write_text(ENGINES_SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    targets = {
        "inherits": "Inherits",
        "documented": "Documented",
        "computed": "Computed",
        "nested": "Outer.Inner",
        "factory": "factory",
        "absent": "Absent",
    }
    eps = [ep(name, f"sk_static_engines:{attr}") for name, attr in targets.items()]
    eps += [ep("builtin", "sys:exit"), ep("no-module", "sk_no_such_module:Engine")]
    rows = {row.name: row.description for row in Registry(eps=eps).info()}
    assert rows == {
        "inherits": "said by the base class",
        "documented": "First line of the docstring.",
        "computed": "The docstring, as the description is not a literal.",
        "nested": "a nested class's description",
        "factory": "Builds an engine from options.",
        "absent": None,
        "builtin": None,
        "no-module": None,
    }
    assert "sk_static_engines" not in sys.modules


def test_no_description_without_source_and_no_parent_package_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "compiled_source.py"
    source.write_text(
        'class Engine:\n    name = "compiled"\n    description = "compiled"\n'
        "    def solve(self, puzzle, *, limit=1, time_limit=None): ...\n"
    )
    py_compile.compile(str(source), cfile=str(tmp_path / "sk_compiled_engine.pyc"), doraise=True)
    source.unlink()
    package = tmp_path / "sk_exiting_package"
    package.mkdir()
    (package / "__init__.py").write_text('raise SystemExit("a package that exits on import")\n')
    (package / "engine.py").write_text('class Engine:\n    description = "unreachable"\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = Registry(
        eps=[ep("compiled", "sk_compiled_engine:Engine"), ep("exits", "sk_exiting_package.engine:Engine")]
    )
    try:
        rows = {row.name: row for row in registry.info()}
        assert rows["compiled"].description is None  # no source to read
        assert rows["exits"].description == "unreachable"  # read from the source, the package not run
        assert "sk_compiled_engine" not in sys.modules and "sk_exiting_package" not in sys.modules
        assert registry.describe("compiled").description == "compiled"  # loaded, it describes itself
    finally:
        sys.modules.pop("sk_compiled_engine", None)


def test_describe_loads_one_engine_and_its_answer_can_go_to_another_process() -> None:
    registry = Registry(eps=[ep("good", f"{GOOD}:Good"), ep("twin", f"{TWIN}:Twin")])
    info = registry.describe("good")
    assert (info.name, info.loaded, info.error, info.entry_point) == ("good", True, None, f"{GOOD}:Good")
    assert info.description == registry.get("good").description
    assert TWIN not in sys.modules
    assert pickle.loads(pickle.dumps(info)) == info
    with pytest.raises(UnknownStrategyError, match="'nope'"):
        registry.describe("nope")


def test_listing_after_use_reports_what_was_loaded_and_what_failed() -> None:
    registry = Registry(eps=[ep("good", f"{GOOD}:Good"), ep("broken", f"{BROKEN}:Broken"), ep("twin", f"{TWIN}:Twin")])
    registry.get("good")
    with pytest.warns(StrategyWarning, match="unobtainium"):
        assert registry.describe("broken").loaded is False
    rows = {row.name: row for row in registry.info()}
    assert rows["good"].loaded is True and rows["good"].description == registry.get("good").description
    assert rows["broken"].loaded is False and "unobtainium" in (rows["broken"].error or "")
    assert rows["twin"].loaded is None and TWIN not in sys.modules


# --- extras -----------------------------------------------------------------------------------------

FANCY_METADATA = """Metadata-Version: 2.1
Name: Sudokit-Fancy
Version: 1.2
Requires-Dist: always-needed
Requires-Dist: present.lib>=1 ; extra == "sat"
Requires-Dist: absent_lib ; extra == 'sat'
Requires-Dist: elsewhere-only ; sys_platform == "no-such-platform" and extra == "sat"
Requires-Dist: gpu-lib ; extra == "gpu"

Requires-Dist: in-the-long-description ; extra == "sat"
"""


def test_extras_are_kept_and_their_missing_requirements_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    engines = {"fancy": "sk_fancy_engine:Fancy [sat]", "both": "sk_fancy_engine:Fancy [ sat , gpu ]"}
    site = dist_info(
        tmp_path, "sudokit_fancy-1.2.dist-info", {**engines, "plain": "sk_fancy_engine:Plain"}, FANCY_METADATA
    )
    dist_info(site, "Present_Lib-3.0.dist-info", {})
    (site / "sk_fancy_engine.py").write_text('import absent_lib\n\n\nclass Fancy:\n    """A fancy engine."""\n')
    monkeypatch.syspath_prepend(str(site))
    found = {
        e.name: (e.value, e.extras, e.dist, e.version) for e in find_entry_points(ENTRY_POINT_GROUP, path=[str(site)])
    }
    assert found == {
        "fancy": ("sk_fancy_engine:Fancy", ("sat",), "sudokit-fancy", "1.2"),
        "both": ("sk_fancy_engine:Fancy", ("sat", "gpu"), "sudokit-fancy", "1.2"),
        "plain": ("sk_fancy_engine:Plain", (), "sudokit-fancy", "1.2"),
    }
    registry = Registry(path=[str(site)])
    rows = {row.name: row for row in registry.info()}
    fancy, both, plain = rows["fancy"], rows["both"], rows["plain"]
    assert (fancy.loaded, fancy.description, fancy.extras) == (None, "A fancy engine.", ("sat",))
    assert (fancy.missing, fancy.install_hint) == (("absent_lib",), "pip install 'Sudokit-Fancy[sat]'")
    assert (both.missing, both.install_hint) == (("absent_lib", "gpu-lib"), "pip install 'Sudokit-Fancy[sat,gpu]'")
    assert (plain.missing, plain.install_hint) == ((), None)
    assert "sk_fancy_engine" not in sys.modules
    # Loading it fails as its extra is not installed: the error says how to install it.
    with pytest.warns(StrategyWarning, match="absent_lib"), pytest.raises(StrategyLoadError) as caught:
        registry.get("fancy")
    assert "ModuleNotFoundError" in str(caught.value) and "pip install 'Sudokit-Fancy[sat]'" in str(caught.value)


def test_an_importlib_entry_point_with_extras() -> None:
    registry = Registry(eps=[ep("good", f"{GOOD}:Good [sat]")])
    [row] = registry.info()
    assert (row.entry_point, row.extras, row.missing, row.install_hint) == (f"{GOOD}:Good", ("sat",), (), None)
    assert registry.describe("good").loaded is True


# --- sudokit's own names ------------------------------------------------------------------------------


@pytest.mark.parametrize("own", ["sudokit", "Sudokit"])
@pytest.mark.parametrize("impostor_first", [True, False])
def test_sudokit_keeps_its_own_names_whatever_the_order(tmp_path: Path, own: str, impostor_first: bool) -> None:
    ours = dist_info(tmp_path / "ours", f"{own}-0.1.0.dist-info", {"backtrack": OWN_BACKTRACK})
    impostor = {"backtrack": f"{GOOD}:Good", "twin": f"{TWIN}:Twin"}
    theirs = dist_info(tmp_path / "theirs", "sudokit_evil-6.6.6.dist-info", impostor)
    path = [str(theirs), str(ours)] if impostor_first else [str(ours), str(theirs)]
    registry = Registry(eps=find_entry_points(ENTRY_POINT_GROUP, path=path))
    warning = rf"^strategy 'backtrack' is sudokit's own: ignoring the one registered by sudokit-evil \({GOOD}:Good\)$"
    with pytest.warns(StrategyWarning, match=warning):
        assert type(registry.get("backtrack")).__name__ == "BacktrackStrategy"
    assert GOOD not in sys.modules
    assert registry.names() == ["backtrack", "twin"]  # the plugin's other names stay
    rows = {row.name: row for row in registry.info()}
    assert (rows["backtrack"].entry_point, rows["backtrack"].distribution) == (OWN_BACKTRACK, own)
    assert rows["twin"].distribution == "sudokit-evil" and rows["twin"].version == "6.6.6"


def test_two_third_parties_with_one_name_keep_the_first_found(tmp_path: Path) -> None:
    first = dist_info(tmp_path / "a", "zeta_plugin-1.0.dist-info", {"good": f"{GOOD}:Good"})
    second = dist_info(tmp_path / "b", "alpha_plugin-2.0.dist-info", {"good": f"{TWIN}:Twin"})
    registry = Registry(eps=find_entry_points(ENTRY_POINT_GROUP, path=[str(first), str(second)]))
    warning = rf"'good' is registered twice: keeping {GOOD}:Good \(zeta-plugin\), ignoring {TWIN}:Twin \(alpha-plugin\)"
    with pytest.warns(StrategyWarning, match=warning):
        rows = registry.info()
    assert [(row.name, row.distribution, row.entry_point) for row in rows] == [("good", "zeta-plugin", f"{GOOD}:Good")]


def test_sudokit_keeps_its_own_names_among_importlib_entry_points() -> None:
    own = [e for e in distribution("sudokit").entry_points if e.group == ENTRY_POINT_GROUP]
    registry = Registry(eps=[ep("backtrack", f"{GOOD}:Good"), *own])
    warning = rf"'backtrack' is sudokit's own: ignoring the one registered by another distribution \({GOOD}:Good\)"
    with pytest.warns(StrategyWarning, match=warning):
        assert type(registry.get("backtrack")).__name__ == "BacktrackStrategy"
    row = registry.describe("backtrack")
    assert (row.loaded, row.entry_point, row.distribution) == (True, OWN_BACKTRACK, "sudokit")
    assert GOOD not in sys.modules


def test_listing_does_not_run_a_plugin_package_whose_import_hangs(tmp_path: Path) -> None:
    package = tmp_path / "sk_hanging_package"
    package.mkdir()
    (package / "__init__.py").write_text("import time\ntime.sleep(3600)\n")
    (package / "engine.py").write_text('class Engine:\n    description = "listed all the same"\n')
    script = (
        "import sys\n"
        f"sys.path.insert(0, {str(tmp_path)!r})\n"
        "from importlib.metadata import EntryPoint\n"
        "from sudokit.engines.registry import ENTRY_POINT_GROUP, Registry\n"
        "eps = [EntryPoint('hangs', 'sk_hanging_package.engine:Engine', ENTRY_POINT_GROUP)]\n"
        "print(Registry(eps=eps).info()[0].description)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "listed all the same"
