"""The kit's machinery: the check registry, the engine under test as a check sees it, running and reporting.

A check is a function of one ``Subject`` (the engine under test), registered with ``@check(group)``
under its function's name. It calls the engine through ``Subject.solve`` (or ``Subject.answer``,
which also insists on a consistent, finished answer), fails with ``Subject.fail`` naming what is
wrong and on which puzzle, and skips with ``Subject.skip`` (or ``require_*``) when the engine does
not claim what the check needs. A check that returns has passed.
"""

from __future__ import annotations

import importlib
import sys
import time
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, NoReturn

from sudokit.engines.api import described, get_strategy, result_of, takes_keep
from sudokit.engines.strategy import Capabilities, Result, Status, Strategy, capabilities_of
from sudokit.engines.verify import result_problem, shown
from sudokit.engines.watchdog import EngineOverranError, Guard
from sudokit.model.grid import Grid
from sudokit.model.shape import Shape

if TYPE_CHECKING:
    import pytest

__all__ = [
    "PATIENCE",
    "Check",
    "CheckFailure",
    "CheckSkipped",
    "ConformanceReport",
    "ConformanceWarning",
    "Outcome",
    "Subject",
    "all_checks",
    "check",
    "check_strategy",
    "get_check",
    "parametrize_with_checks",
]

#: Seconds a check gives the engine for one call that is not about time: passed as ``time_limit``, and
#: the kit stops an engine still running ``PATIENCE * 1.1 + 2`` s after the call began.
PATIENCE = 60.0

#: The modules holding the checks, in the order their checks run and are listed.
_GROUPS = ("api", "corpus", "shapes", "metamorphic", "time", "variants")

OnFail = Literal["raise", "warn"] | None
#: A time limit as a check asks for it: seconds, None (no limit), or "patience" (``Subject.seconds``).
TimeLimit = float | Literal["patience"] | None
ExpectedFailures = Mapping[str, str] | Callable[[Strategy], Mapping[str, str] | None] | None


class CheckFailure(AssertionError):
    """A check failed: which check, which engine, what went wrong, and on which puzzle (a one-line text)."""

    def __init__(self, check: str, strategy: str, message: str, puzzle: str | None = None) -> None:
        self.check, self.strategy, self.message, self.puzzle = check, strategy, message, puzzle
        where = "" if puzzle is None else f" (puzzle {puzzle})"
        super().__init__(f"check {check} failed for strategy {strategy!r}: {message}{where}")


class CheckSkipped(Exception):
    """A check does not apply to the engine (it does not claim what the check needs); the message says why."""


class ConformanceWarning(UserWarning):
    """A failed check, as ``check_strategy(..., on_fail="warn")`` reports it: check, strategy, puzzle, message.

    ``puzzle`` is the one-line text of the puzzle it failed on, or None for a check about no puzzle.
    """

    def __init__(self, failure: CheckFailure) -> None:
        self.check, self.strategy, self.message, self.puzzle = (
            failure.check,
            failure.strategy,
            failure.message,
            failure.puzzle,
        )
        super().__init__(str(failure))


class Subject:
    """The engine under test, as one check sees it."""

    def __init__(self, strategy: Strategy, check: str, *, patience: float = PATIENCE) -> None:
        self.strategy = strategy
        self.check = check
        self.patience = patience
        self.name = _engine_name(strategy)
        self._capabilities: Capabilities | None = None

    @property
    def capabilities(self) -> Capabilities:
        """What the engine declares (the default when it declares nothing); a declaration that is wrong fails."""
        if self._capabilities is None:
            try:
                self._capabilities = capabilities_of(self.strategy)
            except Exception as err:
                self.fail(f"its capabilities cannot be read: {err}")
        return self._capabilities

    @property
    def takes_keep(self) -> bool:
        """Whether the engine's ``solve`` takes ``keep`` (sudokit passes it only then)."""
        return takes_keep(self.strategy)

    # --- calling the engine --------------------------------------------------------------------

    def seconds(self, time_limit: TimeLimit) -> float | None:
        """The time limit a call passes: "patience" is ``PATIENCE`` for an engine claiming time limits, else None."""
        if time_limit == "patience":
            return self.patience if self.capabilities.time_limit else None
        return time_limit

    def solve(
        self,
        puzzle: Grid,
        *,
        limit: int = 1,
        time_limit: float | Literal["patience"] | None = "patience",
        keep: int | None = None,
    ) -> Result:
        """The engine's own answer for ``puzzle``, unchecked; a crash, a hang or a non-Result fails the check.

        ``time_limit`` "patience" passes ``PATIENCE`` to an engine claiming time limits (None to one
        that does not); ``keep`` goes only to an engine whose ``solve`` takes it. The kit stops a call
        still running ``watchdog`` seconds after it began (a limit's 110 % plus 2 s), and fails.
        """
        __tracebackhide__ = True
        time_limit = self.seconds(time_limit)
        kwargs: dict[str, Any] = {"limit": limit, "time_limit": time_limit}
        if keep is not None and self.takes_keep:
            kwargs["keep"] = keep
        call = f"solve(limit={limit}, time_limit={time_limit})"
        return self._guarded(call, puzzle, time_limit, lambda: self.strategy.solve(puzzle, **kwargs))

    def candidates(self, puzzle: Grid, *, cap: int) -> Result:
        """The engine's optional ``candidates`` method's answer for ``puzzle``, unchecked, guarded as ``solve``."""
        __tracebackhide__ = True
        time_limit = self.seconds("patience")
        method = self.strategy.candidates  # type: ignore[attr-defined]
        call = f"candidates(cap={cap}, time_limit={time_limit})"
        return self._guarded(call, puzzle, time_limit, lambda: method(puzzle, cap=cap, time_limit=time_limit))

    def solve_plain(
        self, puzzle: Grid, *, limit: int = 1, time_limit: TimeLimit = "patience", keep: int | None = None
    ) -> Result:
        """The engine's optional ``solve_plain`` answer for ``puzzle``, made a ``Result`` as sudokit makes it.

        Called and guarded as ``solve`` (``keep`` is always passed: the method takes it); sudokit's
        ``result_of`` reads the plain data and checks it, and an answer it refuses (parts not of the
        documented types, inconsistent, a solution the independent check rejects) fails the check,
        saying why. ``elapsed`` is the engine's own, not capped at the time the call took.
        """
        __tracebackhide__ = True
        time_limit = self.seconds(time_limit)
        method = self.strategy.solve_plain  # type: ignore[attr-defined]
        call = f"solve_plain(limit={limit}, time_limit={time_limit}, keep={keep})"
        name = self.name

        def run() -> Result:
            answer = method(puzzle, limit=limit, time_limit=time_limit, keep=keep)
            return result_of(answer, puzzle, name, limit=limit, keep=keep)

        result = self._guarded(call, puzzle, time_limit, run)
        if result.status is Status.ERROR:
            said = (result.error or "").removeprefix(f"strategy {name!r} failed: ")
            self.fail(f"{call}: sudokit refuses its answer, which {said}", puzzle)
        return result

    def _guarded(self, call: str, puzzle: Grid, time_limit: float | str | None, run: Callable[[], object]) -> Result:
        """``run()``'s Result; a crash, a hang (past the limit or patience) or a non-Result fails the check."""
        __tracebackhide__ = True
        allowed = self.patience if time_limit is None else min(float(time_limit), self.patience)
        guard = Guard(allowed)
        start = time.perf_counter()
        try:
            guard.arm()
            try:
                result = run()
            finally:
                guard.disarm()
        except EngineOverranError:
            self.fail(f"still running {time.perf_counter() - start:.1f} s after the call began: stopped", puzzle)
        except KeyboardInterrupt:
            raise
        except BaseException as err:
            if guard.interrupted:
                raise KeyboardInterrupt from err
            self.fail(f"{call} raised {described(err)}", puzzle)
        if guard.interrupted:
            raise KeyboardInterrupt
        if not isinstance(result, Result):
            self.fail(f"{call.partition('(')[0]} returned {shown(result)}, not a sudokit.Result", puzzle)
        return result

    def answer(
        self,
        puzzle: Grid,
        *,
        limit: int = 1,
        keep: int | None = None,
        time_limit: float | Literal["patience"] | None = "patience",
    ) -> Result:
        """The engine's answer, which must be consistent (``result_problem``) and finished (solved or unsolvable)."""
        __tracebackhide__ = True
        result = self.solve(puzzle, limit=limit, keep=keep, time_limit=time_limit)
        self.consistent(result, puzzle, limit=limit, keep=keep)
        if result.status is Status.ERROR:
            self.fail(f"returned status error: {result.error}", puzzle)
        if result.status is Status.TIMEOUT:
            self.fail(f"returned timeout after {result.elapsed:.1f} s, with a time limit of {time_limit}", puzzle)
        return result

    def consistent(
        self, result: Result, puzzle: Grid, *, limit: int, keep: int | None = None, prefix: str = "", suffix: str = ""
    ) -> None:
        """Fail with ``result_problem``'s words (between ``prefix`` and ``suffix``) unless ``result`` is consistent.

        ``keep`` is what the check asked for: it counts only for an engine whose ``solve`` takes it.
        """
        __tracebackhide__ = True
        problem = result_problem(result, puzzle, limit=limit, keep=keep if self.takes_keep else None)
        if problem is not None:
            self.fail(f"{prefix}{problem}{suffix}", puzzle)

    # --- verdicts -----------------------------------------------------------------------------

    def fail(self, message: str, puzzle: Grid | str | None = None) -> NoReturn:
        """Fail the check: ``message`` says what went wrong, ``puzzle`` on what."""
        __tracebackhide__ = True
        line = puzzle.to_line() if isinstance(puzzle, Grid) else puzzle
        raise CheckFailure(self.check, self.name, message, line)

    def skip(self, reason: str) -> NoReturn:
        """Skip the check: it does not apply to this engine, for ``reason``."""
        raise CheckSkipped(f"{self.name}: {reason}")

    def require_shape(self, shape: Shape) -> None:
        """Skip unless the engine claims boards of ``shape``."""
        problem = self.capabilities.shape_problem(shape)
        if problem is not None:
            self.skip(problem)

    def require_counting(self) -> None:
        """Skip unless the engine claims counting (``limit`` above 1)."""
        if not self.capabilities.counting:
            self.skip("does not claim counting (capabilities.counting is False)")

    def require_time_limit(self) -> None:
        """Skip unless the engine claims time limits."""
        if not self.capabilities.time_limit:
            self.skip("does not claim time limits (capabilities.time_limit is False)")


@dataclass(frozen=True)
class Check:
    """One named check: ``check(strategy)`` runs it on a Strategy object or a registered name."""

    name: str
    group: str
    func: Callable[[Subject], None]

    @property
    def doc(self) -> str:
        """What the check asks of an engine: the first paragraph of its docstring."""
        text = (self.func.__doc__ or "").strip()
        return " ".join(text.split("\n\n")[0].split())

    def __call__(self, strategy: Strategy | str, *, patience: float = PATIENCE) -> None:
        """Run the check; raises ``CheckFailure``, and skips (``pytest.skip`` under pytest, else ``CheckSkipped``)."""
        __tracebackhide__ = True
        subject = Subject(get_strategy(strategy), self.name, patience=patience)
        try:
            self.func(subject)
        except CheckSkipped as skipped:
            if "pytest" in sys.modules:
                import pytest

                pytest.skip(str(skipped))
            raise

    def __repr__(self) -> str:
        return f"<check {self.name}>"


_REGISTRY: dict[str, Check] = {}
_LOADED = False


def check(group: str) -> Callable[[Callable[[Subject], None]], Callable[[Subject], None]]:
    """Register the decorated function as a check of ``group``, named by the function."""

    def register(func: Callable[[Subject], None]) -> Callable[[Subject], None]:
        name = func.__name__
        if name in _REGISTRY and _REGISTRY[name].func is not func:
            raise ValueError(f"two checks are named {name}")
        if not (func.__doc__ or "").strip():
            raise ValueError(f"check {name} has no docstring")
        _REGISTRY[name] = Check(name, group, func)
        return func

    return register


def all_checks() -> tuple[Check, ...]:
    """Every check, group by group, in the order they run."""
    global _LOADED
    if not _LOADED:
        for group in _GROUPS:
            importlib.import_module(f"sudokit.testing.checks_{group}")
        _LOADED = True
    order = {group: k for k, group in enumerate(_GROUPS)}
    return tuple(sorted(_REGISTRY.values(), key=lambda c: order.get(c.group, len(order))))


def get_check(name: str) -> Check:
    """The check called ``name``; ``ValueError`` naming the nearest ones for a name that is not one."""
    checks = {c.name: c for c in all_checks()}
    if name not in checks:
        import difflib

        near = difflib.get_close_matches(name, checks, n=3)
        hint = f" (did you mean {', '.join(near)}?)" if near else " (sudokit.testing.all_checks() lists them)"
        raise ValueError(f"no check is named {name!r}{hint}")
    return checks[name]


# --- running many checks ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """How one check went: ``passed``, ``failed``, ``skipped``, ``xfailed`` or ``xpassed`` (a failure: strict)."""

    check: str
    status: Literal["passed", "failed", "skipped", "xfailed", "xpassed"]
    message: str = ""
    puzzle: str | None = None
    seconds: float = 0.0


@dataclass(frozen=True)
class ConformanceReport:
    """Every outcome of ``check_strategy``, in the order the checks ran."""

    strategy: str
    outcomes: tuple[Outcome, ...]

    @property
    def ok(self) -> bool:
        """True when no check failed and no expected failure passed."""
        return not self.failures

    @property
    def failures(self) -> tuple[Outcome, ...]:
        """The outcomes that fail the engine: ``failed`` and ``xpassed``."""
        return tuple(o for o in self.outcomes if o.status in ("failed", "xpassed"))

    def __str__(self) -> str:
        counts: dict[str, int] = {}
        for outcome in self.outcomes:
            counts[outcome.status] = counts.get(outcome.status, 0) + 1
        head = f"{self.strategy}: " + ", ".join(f"{n} {status}" for status, n in counts.items())
        lines = [head]
        for o in self.outcomes:
            if o.status != "passed":
                where = "" if o.puzzle is None else f" (puzzle {o.puzzle})"
                lines.append(f"  {o.status:8} {o.check}: {o.message}{where}")
        return "\n".join(lines)


def check_strategy(
    strategy: Strategy | str,
    *,
    expected_failures: ExpectedFailures = None,
    on_fail: OnFail = "raise",
    checks: Iterable[str] | None = None,
    patience: float = PATIENCE,
) -> ConformanceReport:
    """Run every check (or those named in ``checks``) on ``strategy``, a Strategy object or a registered name.

    ``expected_failures`` maps check names to the reason each is expected to fail (or is a function
    of the strategy giving that mapping); they are strict: one that passes is a failure. With
    ``on_fail="raise"`` the first failure raises its ``CheckFailure``; with ``"warn"`` each failure
    is a ``ConformanceWarning`` (check, strategy, puzzle, message) and the run goes on; with None the
    failures are only in the report returned. Checks that do not apply are skipped, with the reason.
    """
    if on_fail not in ("raise", "warn", None):
        raise ValueError(f'on_fail must be "raise", "warn" or None, not {on_fail!r}')
    engine = get_strategy(strategy)
    name = _engine_name(engine)
    chosen = _chosen(checks)
    expected = _expected(expected_failures, engine)
    outcomes = []
    for item in chosen:
        subject = Subject(engine, item.name, patience=patience)
        start = time.perf_counter()
        failure: CheckFailure | None = None
        try:
            item.func(subject)
        except CheckSkipped as skipped:
            outcomes.append(Outcome(item.name, "skipped", str(skipped), seconds=time.perf_counter() - start))
            continue
        except CheckFailure as err:
            failure = err
        took = time.perf_counter() - start
        if item.name in expected:
            if failure is not None:
                outcomes.append(Outcome(item.name, "xfailed", failure.message, failure.puzzle, took))
                continue
            reason = expected[item.name]
            failure = CheckFailure(item.name, name, f"passed, though declared an expected failure ({reason})")
            status: Literal["failed", "xpassed"] = "xpassed"
        elif failure is None:
            outcomes.append(Outcome(item.name, "passed", seconds=took))
            continue
        else:
            status = "failed"
        outcomes.append(Outcome(item.name, status, failure.message, failure.puzzle, took))
        if on_fail == "raise":
            raise failure
        if on_fail == "warn":
            warnings.warn(ConformanceWarning(failure), stacklevel=2)
    return ConformanceReport(name, tuple(outcomes))


def parametrize_with_checks(
    strategies: Iterable[Strategy | str],
    *,
    expected_failures: ExpectedFailures = None,
    checks: Iterable[str] | None = None,
) -> pytest.MarkDecorator:
    """A pytest decorator giving one test per (engine, check), with ids like ``my-engine-counts_multi_solution``.

    Decorate ``def test_conformance(strategy, check): check(strategy)``. ``strategies`` are Strategy
    objects or registered names; ``expected_failures`` as for ``check_strategy``, marked as strict
    xfails; ``checks`` picks checks by name (all when None).
    """
    import pytest

    chosen = _chosen(checks)
    params = []
    for strategy in strategies:
        engine = get_strategy(strategy)
        name = _engine_name(engine)
        expected = _expected(expected_failures, engine)
        for item in chosen:
            marks = []
            if item.name in expected:
                marks.append(pytest.mark.xfail(strict=True, raises=CheckFailure, reason=expected[item.name]))
            params.append(pytest.param(engine, item, id=f"{name}-{item.name}", marks=marks))
    return pytest.mark.parametrize(("strategy", "check"), params)


def _engine_name(strategy: Strategy) -> str:
    """The engine's ``name``, or its class's name when it has none that is a str (the check then says so)."""
    name = getattr(strategy, "name", None)
    return name if isinstance(name, str) else type(strategy).__name__


def shown_status(status: object) -> str:
    """A status as failure messages show it: a Status's value, or the repr of anything else."""
    return status.value if isinstance(status, Status) else repr(status)


def _chosen(names: Iterable[str] | None) -> tuple[Check, ...]:
    if names is None:
        return all_checks()
    if isinstance(names, str):
        names = [names]
    return tuple(get_check(name) for name in names)


def _expected(expected: ExpectedFailures, engine: Strategy) -> dict[str, str]:
    """The expected failures for ``engine``, every name a check's and every reason a non-empty text."""
    mapping = expected(engine) if callable(expected) else expected
    result = dict(mapping or {})
    for name, reason in result.items():
        get_check(name)  # raises for a name that is not a check's, naming the nearest
        if not isinstance(reason, str) or not reason.strip():
            raise ValueError(f"expected failure {name}: give the reason it is expected to fail, not {reason!r}")
    return result
