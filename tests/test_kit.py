"""The conformance kit's machinery: check_strategy, parametrize_with_checks, expected failures, skips, the pytest mode.

The checks themselves are tested group by group (tests/test_kit_*.py) and, each against an engine
broken in exactly its way, in tests/test_kit_mutants.py.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import warnings
from dataclasses import replace
from pathlib import Path

import pytest

from sudokit import Capabilities, Grid, Result, Shape, StrategyError, capabilities_of
from sudokit.testing import (
    CheckFailure,
    ConformanceWarning,
    all_checks,
    check_strategy,
    get_check,
)

from .kit.base import Reference

ROOT = Path(__file__).resolve().parent.parent


class CountsTwice(Reference):
    """Says every puzzle with one solution has two (count 2, exact False) when asked for two."""

    name = "counts-twice"

    def solve(
        self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> Result:
        result = super().solve(puzzle, limit=limit, time_limit=time_limit, keep=keep)
        if limit >= 2 and result.count == 1:
            return replace(result, count=2, exact=False, solutions=result.solutions * 2)
        return result


class Crashes(Reference):
    """Raises on every puzzle."""

    name = "crashes"

    def solve(self, puzzle: Grid, **kwargs: object) -> Result:
        raise RuntimeError("out of cheese")


class NineOnly(Reference):
    """Claims 9x9 boards only."""

    name = "nine-only"
    capabilities = Capabilities(max_side=9)


class Hangs(Reference):
    """Never returns (a loop that lets Python run)."""

    name = "hangs"

    def solve(self, puzzle: Grid, **kwargs: object) -> Result:
        while True:
            sum(range(1000))


# --- Capabilities --------------------------------------------------------------------------------------


def test_capabilities_default_claims_everything_the_protocol_asks() -> None:
    caps = capabilities_of(object())
    assert caps == Capabilities() and caps.counting and caps.time_limit
    assert all(caps.supports(Shape.of(r, c)) for r, c in [(2, 2), (3, 3), (5, 5), (8, 8)])


def test_capabilities_say_why_a_shape_is_not_claimed() -> None:
    caps = Capabilities(max_side=12, box_shapes=["2x3", Shape.of(3, 3), "3x4"])
    assert caps.shape_problem(Shape.of(3, 3)) is None
    assert caps.shape_problem(Shape.of(4, 4)) == "claims boards up to 12x12, not 16x16"
    assert caps.shape_problem(Shape.of(3, 2)) == "claims boxes of 2x3, 3x3, 3x4, not 3x2"


def test_capabilities_may_be_a_mapping() -> None:
    engine = type("Declares", (), {"capabilities": {"max_side": 9, "counting": False}})()
    assert capabilities_of(engine) == Capabilities(max_side=9, counting=False)


@pytest.mark.parametrize(
    ("declared", "message"),
    [
        ({"max_sides": 9}, "unknown field 'max_sides'"),
        ({"max_side": 3}, "max_side must be a board side of at least 4"),
        ({"max_side": "9"}, "max_side must be a board side"),
        ({"box_shapes": ["3by3"]}, "box_shapes: box shape '3by3' is not of the form RxC"),
        ({"counting": "yes"}, "counting must be True or False"),
        ({"constraints": "killer"}, "constraints must be a set of kind names"),
        (42, "capabilities must be a sudokit.Capabilities or a mapping"),
    ],
)
def test_a_wrong_capabilities_declaration_is_named(declared: object, message: str) -> None:
    engine = type("Declares", (), {"capabilities": declared})()
    with pytest.raises(StrategyError, match=message):
        capabilities_of(engine)


# --- check_strategy ----------------------------------------------------------------------------------


def test_a_good_engine_passes_and_the_report_says_so() -> None:
    report = check_strategy(Reference(), checks=["limit_2_proves_unique", "solves_unique_corpus"])
    assert report.ok and [o.status for o in report.outcomes] == ["passed", "passed"]
    assert str(report) == "reference: 2 passed"


def test_the_first_failure_raises_naming_check_engine_and_puzzle() -> None:
    with pytest.raises(CheckFailure) as failed:
        check_strategy(CountsTwice(), checks=["limit_2_proves_unique"])
    failure = failed.value
    assert (failure.check, failure.strategy) == ("limit_2_proves_unique", "counts-twice")
    assert failure.puzzle is not None and Grid.parse(failure.puzzle).n == 9
    assert str(failure).startswith("check limit_2_proves_unique failed for strategy 'counts-twice': ")
    assert failure.puzzle in str(failure)


def test_warn_reports_every_failure_as_a_structured_warning_and_goes_on() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report = check_strategy(Crashes(), checks=["limit_2_proves_unique", "solves_unique_corpus"], on_fail="warn")
    found = [w.message for w in caught if isinstance(w.message, ConformanceWarning)]
    assert [w.check for w in found] == ["limit_2_proves_unique", "solves_unique_corpus"]
    assert all(w.strategy == "crashes" and "RuntimeError: out of cheese" in w.message for w in found)
    assert all(w.puzzle and Grid.parse(w.puzzle) for w in found)
    assert [o.status for o in report.outcomes] == ["failed", "failed"] and not report.ok


def test_on_fail_none_only_reports() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        report = check_strategy(Crashes(), checks=["limit_2_proves_unique"], on_fail=None)
    assert report.failures[0].check == "limit_2_proves_unique"
    assert "failed   limit_2_proves_unique: solve(limit=2" in str(report)


def test_an_expected_failure_that_fails_is_xfailed() -> None:
    report = check_strategy(
        CountsTwice(), checks=["limit_2_proves_unique"], expected_failures={"limit_2_proves_unique": "a known bug"}
    )
    assert report.ok and report.outcomes[0].status == "xfailed"


def test_an_expected_failure_that_passes_is_a_failure() -> None:
    with pytest.raises(CheckFailure, match=r"passed, though declared an expected failure \(no longer true\)"):
        check_strategy(
            Reference(), checks=["limit_2_proves_unique"], expected_failures={"limit_2_proves_unique": "no longer true"}
        )
    report = check_strategy(
        Reference(),
        checks=["limit_2_proves_unique"],
        expected_failures=lambda s: {"limit_2_proves_unique": "x"},
        on_fail=None,
    )
    assert report.outcomes[0].status == "xpassed" and not report.ok


def test_a_check_the_engine_does_not_claim_is_skipped_with_the_reason() -> None:
    report = check_strategy(NineOnly(), checks=["box_4x4"])
    (outcome,) = report.outcomes
    assert outcome.status == "skipped" and outcome.message == "nine-only: claims boards up to 9x9, not 16x16"
    assert report.ok


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"checks": ["limit_2_prove_unique"]},
            "no check is named 'limit_2_prove_unique' \\(did you mean limit_2_proves_unique",
        ),
        ({"expected_failures": {"nonsense": "why"}}, "no check is named 'nonsense'"),
        ({"expected_failures": {"limit_2_proves_unique": ""}}, "give the reason it is expected to fail"),
        ({"on_fail": "ignore"}, 'on_fail must be "raise", "warn" or None'),
    ],
)
def test_wrong_arguments_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        check_strategy(Reference(), **kwargs)  # type: ignore[arg-type]


def test_an_engine_by_registered_name() -> None:
    report = check_strategy("backtrack", checks=["limit_2_proves_unique"])
    assert report.strategy == "backtrack" and report.ok


def test_an_engine_that_never_returns_is_stopped() -> None:
    report = check_strategy(Hangs(), checks=["solves_unique_corpus"], on_fail=None, patience=0.2)
    (outcome,) = report.outcomes
    assert outcome.status == "failed" and "still running" in outcome.message and outcome.seconds < 10


def test_every_check_is_named_and_documented() -> None:
    checks = all_checks()
    assert len(checks) >= 40
    assert len({c.name for c in checks}) == len(checks)
    for c in checks:
        assert c.name.isidentifier() and c.name == c.name.lower(), c.name
        assert len(c.doc) > 20 and c.doc.endswith("."), c.name
        assert get_check(c.name) is c


def test_a_check_is_callable_on_its_own() -> None:
    get_check("limit_2_proves_unique")(Reference())
    with pytest.raises(CheckFailure):
        get_check("limit_2_proves_unique")(CountsTwice())


# --- parametrize_with_checks and the pytest plugin ------------------------------------------------


def test_parametrize_with_checks_gives_one_test_per_engine_and_check(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_engines=f"""
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        from sudokit.testing import parametrize_with_checks
        from tests.test_kit import CountsTwice, NineOnly, Reference

        @parametrize_with_checks(
            [Reference(), CountsTwice(), NineOnly()],
            checks=["limit_2_proves_unique", "box_4x4"],
            expected_failures=lambda s: {{"limit_2_proves_unique": "counts twice"}} if s.name != "nine-only" else {{}},
        )
        def test_conformance(strategy, check):
            check(strategy)
        """
    )
    result = pytester.runpytest("-v", "-rsxX")
    result.assert_outcomes(passed=3, failed=1, xfailed=1, skipped=1)
    result.stdout.fnmatch_lines(
        [
            "*test_conformance?reference-limit_2_proves_unique? FAILED*",
            "*test_conformance?counts-twice-limit_2_proves_unique? XFAIL*",
            "*test_conformance?nine-only-limit_2_proves_unique? PASSED*",
            "*test_conformance?nine-only-box_4x4? SKIPPED*",
            "*XPASS(strict)*counts twice*",
            "*claims boards up to 9x9, not 16x16*",
        ]
    )
    picked = pytester.runpytest("-k", "nine-only and box_4x4")
    picked.assert_outcomes(skipped=1, deselected=5)


def _pytest(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("SUDOKIT_TEST")}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--pyargs", "sudokit.testing", *args],
        capture_output=True,
        text=True,
        env={**environ, **(env or {})},
        stdin=subprocess.DEVNULL,
        cwd=ROOT,
        timeout=300,
    )


def test_the_kit_runs_against_an_installed_engine_by_name() -> None:
    done = _pytest("-v", "-k", "limit_2 or box_5x5", env={"SUDOKIT_TEST_STRATEGY": "backtrack"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "sudokit conformance kit against: backtrack" in done.stdout
    assert "test_conformance[backtrack-limit_2_proves_unique] PASSED" in done.stdout
    assert "test_conformance[backtrack-box_5x5] PASSED" in done.stdout
    named = _pytest("-v", "-k", "limit_2_proves_unique", "--sudokit-strategy", "cp-sat")
    assert named.returncode == 0 and "test_conformance[cp-sat-limit_2_proves_unique] PASSED" in named.stdout


_UNNAMED = (
    "no engine named for the sudokit conformance kit: pass --sudokit-strategy NAME or set SUDOKIT_TEST_STRATEGY=NAME"
)


def test_the_kit_without_an_engine_named_is_a_usage_error_saying_how_to_name_one() -> None:
    # A plugin author's CI that forgot to name the engine must fail, not pass with "1 skipped".
    done = _pytest("-rs")
    assert done.returncode == 4, done.stdout + done.stderr  # pytest's usage error
    assert "skipped" not in done.stdout and "passed" not in done.stdout
    assert done.stderr.strip().splitlines() == [f"ERROR: {_UNNAMED}"]


def test_the_kit_without_an_engine_named_fails_under_xdist_too() -> None:
    # xdist's workers collect, where a usage error would be xdist's internal error: the kit's one test fails.
    done = _pytest("-n", "1")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 failed" in done.stdout and "INTERNALERROR" not in done.stdout + done.stderr
    assert _UNNAMED in done.stdout.splitlines()


def test_the_kit_against_an_unknown_engine_is_an_error_naming_it() -> None:
    done = _pytest(env={"SUDOKIT_TEST_STRATEGY": "no-such-engine"})
    assert done.returncode != 0
    assert "no-such-engine" in done.stdout + done.stderr


def test_the_kit_imports_no_engine_the_engine_under_test_does_not() -> None:
    code = textwrap.dedent(
        """
        import sys
        import sudokit.testing
        assert "pytest" not in sys.modules and "hypothesis" not in sys.modules, "the kit imported a test library"
        from sudokit.testing import all_checks, check_strategy
        all_checks()
        report = check_strategy("backtrack", checks=["limit_2_proves_unique", "box_3x3", "relabel_digits"])
        assert report.ok, report
        print(sorted(m for m in ("ortools", "constraint", "pysat") if m in sys.modules))
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_docs_list_every_check_as_the_kit_prints_it() -> None:
    from sudokit.testing.__main__ import checks_table

    text = (ROOT / "docs" / "checks.md").read_text(encoding="utf-8")
    assert text.endswith("\n" + checks_table() + "\n"), "regenerate the table: python -m sudokit.testing"


def test_python_m_sudokit_testing_lists_and_runs_checks() -> None:
    listed = subprocess.run([sys.executable, "-m", "sudokit.testing"], capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0 and len(listed.stdout.splitlines()) == 2 + len(all_checks())
    run = [sys.executable, "-m", "sudokit.testing", "-k", "box_", "backtrack"]
    done = subprocess.run(run, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == ["backtrack: 8 passed"]
    unknown = subprocess.run([*run[:-1], "no-such-engine"], capture_output=True, text=True, timeout=60)
    assert unknown.returncode == 2 and "unknown strategy 'no-such-engine'" in unknown.stderr


def test_the_readme_counts_the_checks_right() -> None:
    import re

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (said,) = re.findall(r"holds the (\d+) checks every engine passes", readme)
    assert int(said) == len(all_checks())
