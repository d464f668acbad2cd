"""sudokit's conformance kit on this engine, one test per check: ``python -m pytest test_conformance.py``.

The engine is wrong on purpose, so this fails: each failure names the check and the puzzle.
"""

from sudokit_wrong_plugin import WrongStrategy

from sudokit.testing import Check, parametrize_with_checks


@parametrize_with_checks([WrongStrategy()])
def test_conformance(strategy: WrongStrategy, check: Check) -> None:
    check(strategy)
