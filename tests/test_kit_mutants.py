"""The kit does not pass vacuously: each check fails on an engine broken in exactly its way.

Every check has a broken engine (``tests/kit/mutants_*.py``), and one pytest run (pytester) of
``parametrize_with_checks`` gives each broken engine its own check: every one of those tests fails,
and its report names the check and the puzzle.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sudokit.testing import all_checks

from .kit import mutants

ROOT = Path(__file__).resolve().parent.parent


def test_every_check_has_a_broken_engine() -> None:
    broken = mutants()
    names = {c.name for c in all_checks()}
    assert sorted(names - set(broken)) == [], "checks without a broken engine"
    assert sorted(set(broken) - names) == [], "broken engines for no check"


def test_each_check_fails_on_its_broken_engine(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_broken=f"""
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        import pytest
        from sudokit.testing import parametrize_with_checks
        from tests.kit import mutants

        BROKEN = mutants()

        def _one(name):
            mark = parametrize_with_checks([BROKEN[name]], checks=[name])
            return mark.args[1][0]

        @pytest.mark.parametrize(("strategy", "check"), [_one(name) for name in sorted(BROKEN)])
        def test_broken(strategy, check):
            check(strategy)
        """
    )
    reprec = pytester.inline_run("-p", "no:cacheprovider")
    checks = sorted(c.name for c in all_checks())
    passed, skipped, failed = reprec.listoutcomes()
    assert not passed and not skipped, [r.nodeid for r in [*passed, *skipped]]
    assert len(failed) == len(checks)
    for report in failed:
        test_id = report.nodeid.split("[", 1)[1].rstrip("]")
        check = next(c for c in checks if test_id.endswith(f"-{c}"))
        assert f"check {check} failed for strategy " in report.longreprtext, report.longreprtext[-2000:]
