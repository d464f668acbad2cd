"""sudokit's own engines pass the conformance kit, through the same door as a third party's: by registered name."""

from sudokit.testing import parametrize_with_checks


@parametrize_with_checks(["backtrack", "cp-sat", "python-constraint", "sat", "numba"])
def test_conformance(strategy, check):  # type: ignore[no-untyped-def]
    check(strategy)
