"""The conformance kit: the checks every sudokit engine passes, ours and third parties' alike.

Run them all on an engine (a Strategy object or a registered name)::

    from sudokit.testing import check_strategy
    check_strategy(MyEngine())                      # raises CheckFailure on the first failure
    check_strategy("my-engine", on_fail="warn")     # a ConformanceWarning per failure

or as one pytest test per (engine, check), ids like ``my-engine-counts_multi_solution``::

    from sudokit.testing import parametrize_with_checks

    @parametrize_with_checks([MyEngine()])
    def test_conformance(strategy, check):
        check(strategy)

or against any installed engine by name: ``SUDOKIT_TEST_STRATEGY=my-engine pytest --pyargs sudokit.testing``.
An engine declares what it supports with a ``capabilities`` attribute (``sudokit.Capabilities``);
checks that need more are skipped, with the reason. ``sudokit.testing.strategies.puzzles`` draws
random puzzles with known solutions for an author's own Hypothesis tests (needs ``hypothesis``).
"""

from typing import TYPE_CHECKING

from sudokit.engines.strategy import Capabilities

if TYPE_CHECKING:  # imported on first use (see __getattr__): the pytest plugin imports this package in every run
    from sudokit.testing._kit import (
        PATIENCE,
        Check,
        CheckFailure,
        CheckSkipped,
        ConformanceReport,
        ConformanceWarning,
        Outcome,
        Subject,
        all_checks,
        check_strategy,
        get_check,
        parametrize_with_checks,
    )

__all__ = [
    "PATIENCE",
    "Capabilities",
    "Check",
    "CheckFailure",
    "CheckSkipped",
    "ConformanceReport",
    "ConformanceWarning",
    "Outcome",
    "Subject",
    "all_checks",
    "check_strategy",
    "get_check",
    "parametrize_with_checks",
]


def __getattr__(name: str) -> object:
    """The kit's names, imported on first use."""
    if name in __all__:
        from sudokit.testing import _kit

        return getattr(_kit, name)
    raise AttributeError(f"module 'sudokit.testing' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
