"""How a cross-check record is written (``sudoku check -f pretty|line|json|csv``): :class:`CheckFormat`."""

from __future__ import annotations

import json
from dataclasses import dataclass

from sudokit.features.crosscheck.comparison import (
    AGREE,
    OK,
    UNDECIDED,
    AnswerVerdict,
    CheckOutcome,
    CrossCheckReport,
    Verdict,
    uniqueness,
)
from sudokit.runtime.output import CHECK_CSV_FIELDS, counters_text, csv_row, heading

__all__ = [
    "COUNTED",
    "CheckFormat",
    "engines_text",
    "verdict_lines",
]


@dataclass(frozen=True)
class CheckFormat:
    """How a cross-check record is written: pretty (a table per puzzle), line, json or csv.

    With ``unique`` (``--unique``) each record also says the uniqueness the engines agree on:
    ``unique``, ``several`` or ``none`` (see :func:`~sudokit.features.crosscheck.comparison.uniqueness`).
    """

    fmt: str = "pretty"
    header: bool = False  # pretty: a ``# file:line`` line before each record
    stats: bool = False  # pretty, line and csv: each engine's counters (json always has them)
    unique: bool = False  # the agreed uniqueness in each record

    def text(self, outcome: CheckOutcome) -> str:
        """The record of one outcome."""
        if self.fmt == "json":
            data = outcome.to_dict()
            if self.unique:
                data["uniqueness"] = uniqueness(outcome)
            return json.dumps(data, allow_nan=False)
        if self.fmt == "csv":
            return csv_row([self.csv_fields(outcome)[name] for name in self.fields()])
        if self.fmt == "line":
            return self.line(outcome)
        return self.pretty(outcome)

    def fields(self) -> tuple[str, ...]:
        """The columns of ``csv`` (``uniqueness`` last with ``unique``)."""
        return CHECK_CSV_FIELDS + (("uniqueness",) if self.unique else ())

    def csv_header(self) -> str | None:
        """The csv header line, or None for the other forms."""
        return csv_row(list(self.fields())) if self.fmt == "csv" else None

    def csv_fields(self, outcome: CheckOutcome) -> dict[str, object]:
        """The csv columns of an outcome: the json record's, each engine as in ``line``, problems joined by ``; ``."""
        data = outcome.to_dict()
        report = outcome.report
        return {
            **{name: data.get(name) for name in ("puzzle", "verdict", "count", "exact", "limit", "source", "line")},
            "engines": "" if report is None else engines_text(report),
            "problems": "; ".join(str(problem) for problem in data["problems"]),  # type: ignore[attr-defined]
            "uniqueness": uniqueness(outcome),
        }

    def line(self, outcome: CheckOutcome) -> str:
        """``puzzle:verdict:count engine=count/ms ...`` (with ``unique``, the uniqueness for the count)."""
        report = outcome.report
        if report is None:
            return f"{outcome.puzzle_text}:invalid"
        agreed = uniqueness(outcome) if self.unique else report.count_text
        return f"{outcome.puzzle_text}:{report.verdict}:{agreed} {engines_text(report)}"

    def pretty(self, outcome: CheckOutcome) -> str:
        """The puzzle, a row per engine (status, count, time, what was wrong) and the verdict."""
        parts = [heading(outcome.index, outcome.record)] if self.header else []
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
                parts.append(" " * (width + 4) + counters_text(a.result.stats))
        lines = verdict_lines(report)
        if self.unique and report.verdict in (AGREE, UNDECIDED):
            lines.append(f"uniqueness: {uniqueness(outcome)}")
        return "\n".join(parts + lines)

    def stats_lines(self, outcome: CheckOutcome) -> list[str]:
        """``FILE:LINE: engine: counters`` for each engine (beside a line record, on stderr)."""
        if outcome.report is None:
            return []
        lines = []
        for a in outcome.report.engines:
            if a.result is not None:
                counters = counters_text(a.result.stats)
                lines.append(f"{outcome.record.where}: {a.name}: {a.status} in {a.elapsed * 1000:.2f} ms; {counters}")
        return lines


#: The answers whose count a line record shows.
COUNTED = (AnswerVerdict.OK, AnswerVerdict.DISAGREE)


def engines_text(report: CrossCheckReport) -> str:
    """``engine=count/ms ...``: each engine's count (or verdict when it has none to compare) and time."""
    return " ".join(
        f"{a.name}={a.count_text if a.verdict in COUNTED else a.verdict}/{a.elapsed * 1000:.1f}ms"
        for a in report.engines
    )


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
