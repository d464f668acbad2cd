"""The entry-point registry: plugins load on first use and are kept; a broken or doubled one only warns."""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterator
from importlib.metadata import EntryPoint

import pytest

from sudokit import Strategy, is_solution
from sudokit.errors import StrategyError, StrategyLoadError, UnknownStrategyError
from sudokit.registry import ENTRY_POINT_GROUP, Registry, StrategyWarning, default_registry

from .conftest import sized

GOOD = "tests.plugins.good"
TWIN = "tests.plugins.twin"
BROKEN = "tests.plugins.broken"


def ep(name: str, value: str) -> EntryPoint:
    return EntryPoint(name=name, value=value, group=ENTRY_POINT_GROUP)


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


def test_listing_reports_loaded_and_failed() -> None:
    registry = Registry(
        eps=[ep("good", f"{GOOD}:Good"), ep("broken", f"{BROKEN}:Broken"), ep("no-solve", f"{GOOD}:NoSolve")]
    )
    with pytest.warns(StrategyWarning, match=BROKEN):
        rows = {row.name: row for row in registry.info()}
    assert list(rows) == ["broken", "good", "no-solve"]
    good, broken, no_solve = rows["good"], rows["broken"], rows["no-solve"]
    assert (good.loaded, good.entry_point, good.error) == (True, f"{GOOD}:Good", None)
    assert good.description == "a plugin's plain recursive search"
    assert good.distribution is None
    assert (broken.loaded, broken.description) == (False, "")
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
