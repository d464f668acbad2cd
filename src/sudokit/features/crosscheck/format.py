"""How a cross-check record is written (``sudoku check -f pretty|line|json``): :class:`CheckFormat`."""

from __future__ import annotations

import json
from dataclasses import dataclass

from sudokit.features.crosscheck.comparison import (
    OK,
    AnswerVerdict,
    CheckOutcome,
    CrossCheckReport,
    Verdict,
)

__all__ = [
    "COUNTED",
    "CheckFormat",
    "verdict_lines",
]


@dataclass(frozen=True)
class CheckFormat:
    """How a cross-check record is written: pretty (a table per puzzle), line or json."""

    fmt: str = "pretty"
    header: bool = False  # pretty: a ``# file:line`` line before each record
    stats: bool = False  # pretty and line: each engine's counters (json always has them)

    def text(self, outcome: CheckOutcome) -> str:
        """The record of one outcome."""
        if self.fmt == "json":
            return json.dumps(outcome.to_dict(), allow_nan=False)
        if self.fmt == "line":
            return self.line(outcome)
        return self.pretty(outcome)

    def line(self, outcome: CheckOutcome) -> str:
        """``puzzle:verdict:count engine=count/ms ...``."""
        report = outcome.report
        if report is None:
            return f"{outcome.puzzle_text}:invalid"
        engines = " ".join(
            f"{a.name}={a.count_text if a.verdict in COUNTED else a.verdict}/{a.elapsed * 1000:.1f}ms"
            for a in report.engines
        )
        return f"{outcome.puzzle_text}:{report.verdict}:{report.count_text} {engines}"

    def pretty(self, outcome: CheckOutcome) -> str:
        """The puzzle, a row per engine (status, count, time, what was wrong) and the verdict."""
        parts = [f"# {outcome.record.where}"] if self.header else []
        report = outcome.report
        if report is None:
            return "\n".join([*parts, f"invalid: {outcome.invalid}"])
        kinds = report.puzzle.kinds
        parts.append(report.puzzle.to_line() + (f"  (variant: {', '.join(sorted(kinds))})" if kinds else ""))
        width = max(len(answer.name) for answer in report.engines)
        for a in report.engines:
            note = "" if a.verdict is OK else f"  {a.verdict}"
            ms = a.elapsed * 1000
            parts.append(f"  {a.name.ljust(width)}  {a.status:<10}  {a.count_text:>6}  {ms:10.2f} ms{note}")
            if self.stats and a.result is not None and a.result.stats:
                parts.append(" " * (width + 4) + ", ".join(f"{k} {v}" for k, v in a.result.stats.items()))
        return "\n".join(parts + verdict_lines(report))

    def stats_lines(self, outcome: CheckOutcome) -> list[str]:
        """``FILE:LINE: engine: counters`` for each engine (beside a line record, on stderr)."""
        if outcome.report is None:
            return []
        lines = []
        for a in outcome.report.engines:
            if a.result is not None:
                counters = ", ".join(f"{k} {v}" for k, v in a.result.stats.items())
                lines.append(f"{outcome.record.where}: {a.name}: {a.status} in {a.elapsed * 1000:.2f} ms; {counters}")
        return lines


#: The answers whose count a line record shows.
COUNTED = (AnswerVerdict.OK, AnswerVerdict.DISAGREE)


def verdict_lines(report: CrossCheckReport) -> list[str]:
    """The verdict of a report as lines: skipped engines, then ``agree: 1 solution`` or what went wrong."""
    skipped = [f"skipped: {a.problem}" for a in report.engines if a.verdict is AnswerVerdict.SKIPPED]
    if report.verdict is not Verdict.AGREE:
        left_out = {a.problem for a in report.engines if a.verdict is AnswerVerdict.SKIPPED}
        faults = [f"{report.verdict}: {problem}" for problem in report.problems if problem not in left_out]
        return [*skipped, *(faults or [report.verdict.value])]
    if report.count == 0:
        return [*skipped, "agree: no solution"]
    noun = "solution" if report.count == 1 and report.exact else "solutions"
    if report.exact:
        return [*skipped, f"agree: {report.count} {noun}"]
    return [*skipped, f"agree: at least {report.count} {noun} (stopped at the limit of {report.limit})"]
