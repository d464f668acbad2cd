"""The whole kit against installed engines by name: ``SUDOKIT_TEST_STRATEGY=NAME pytest --pyargs sudokit.testing``.

One test per (engine, check), ids like ``NAME-counts_multi_solution``; without an engine named
(``--sudokit-strategy NAME`` or the environment variable) the run is a usage error saying how to name
one (the plugin's), and where that cannot be raised (an xdist worker) the one test fails saying it.
"""

from __future__ import annotations

from typing import Any

import pytest

from sudokit.testing._kit import Check, parametrize_with_checks
from sudokit.testing.plugin import UNNAMED, strategies_under_test


def pytest_generate_tests(metafunc: Any) -> None:
    if {"strategy", "check"} <= set(metafunc.fixturenames):
        names = strategies_under_test(metafunc.config)
        if not names:
            metafunc.parametrize(("strategy", "check"), [pytest.param(None, None, id="no-engine-named")])
            return
        mark = parametrize_with_checks(names)
        metafunc.parametrize(*mark.args, **mark.kwargs)


def test_conformance(strategy: Any, check: Check) -> None:
    """One check against one installed engine."""
    if strategy is None:
        pytest.fail(UNNAMED, pytrace=False)
    check(strategy)
