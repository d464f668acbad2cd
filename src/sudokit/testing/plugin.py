"""sudokit's pytest plugin (entry point ``pytest11``): the option naming the engines the kit runs against.

``pytest --pyargs sudokit.testing --sudokit-strategy NAME`` (or ``SUDOKIT_TEST_STRATEGY=NAME``, names
separated by commas) runs every check against the installed engine ``NAME``; collecting the kit with
no engine named is a usage error saying how to name one. Loaded by every pytest run where sudokit is
installed, so it imports nothing of sudokit's until a test asks.
"""

from __future__ import annotations

import os
from typing import Any

#: The environment variable naming the engines the kit runs against.
ENV = "SUDOKIT_TEST_STRATEGY"

#: The module ``pytest --pyargs sudokit.testing`` collects: the kit against the engines named.
KIT_MODULE = "sudokit.testing.test_conformance"

#: What a run of the kit with no engine named says, in one line.
UNNAMED = f"no engine named for the sudokit conformance kit: pass --sudokit-strategy NAME or set {ENV}=NAME"


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("sudokit", "sudokit conformance kit")
    group.addoption(
        "--sudokit-strategy",
        action="append",
        default=[],
        metavar="NAME",
        help=f"run the kit (pytest --pyargs sudokit.testing) against this installed engine; repeatable; "
        f"also {ENV}=NAME[,NAME...]",
    )


def strategies_under_test(config: Any) -> list[str]:
    """The engines named by ``--sudokit-strategy`` and ``SUDOKIT_TEST_STRATEGY``, in order, each once."""
    names = [*(config.getoption("sudokit_strategy", default=None) or []), *os.environ.get(ENV, "").split(",")]
    return list(dict.fromkeys(name.strip() for name in names if name.strip()))


def pytest_report_header(config: Any) -> str | None:
    names = strategies_under_test(config)
    return f"sudokit conformance kit against: {', '.join(names)}" if names else None


def pytest_collection_modifyitems(session: Any, config: Any, items: list[Any]) -> None:
    """Collecting the kit with no engine named is a usage error (exit status 4), not one skipped test.

    An xdist worker leaves it to the kit's one test, which fails with the same line (a usage error
    raised in a worker is an internal error of xdist's).
    """
    if hasattr(config, "workerinput") or strategies_under_test(config):
        return
    if any(getattr(getattr(item, "module", None), "__name__", None) == KIT_MODULE for item in items):
        import pytest

        raise pytest.UsageError(UNNAMED)
