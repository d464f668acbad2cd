"""sudokit's conformance kit on this engine, one test per check: ``python -m pytest test_conformance.py``."""

from sudokit_echo_plugin import EchoBacktrack

from sudokit.testing import Check, parametrize_with_checks


@parametrize_with_checks([EchoBacktrack()])
def test_conformance(strategy: EchoBacktrack, check: Check) -> None:
    check(strategy)
