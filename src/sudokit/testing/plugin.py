"""sudokit's pytest plugin (entry point ``pytest11``): the option naming the engines the kit runs against.

``pytest --pyargs sudokit.testing --sudokit-strategy NAME`` (or ``SUDOKIT_TEST_STRATEGY=NAME``, names
separated by commas) runs every check against the installed engine ``NAME``. Loaded by every pytest
run where sudokit is installed, so it imports nothing of sudokit's until a test asks.
"""

from __future__ import annotations

import os
from typing import Any

#: The environment variable naming the engines the kit runs against.
ENV = "SUDOKIT_TEST_STRATEGY"


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
