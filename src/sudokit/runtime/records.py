"""The record types of a batch: what became of one input record (:class:`Outcome`).

The input record itself is :class:`sudokit.io.reader.Record`; the runtime (:mod:`sudokit.runtime.batch`,
:mod:`sudokit.runtime.fastpath`) makes outcomes and the output formats (:mod:`sudokit.runtime.output`)
render them.
"""

from __future__ import annotations

from dataclasses import dataclass

from sudokit.engines.strategy import Result
from sudokit.io.reader import Record
from sudokit.model.grid import Grid

__all__ = ["INVALID", "Outcome"]

#: The status of a record that is not a puzzle (it does not parse).
INVALID = "invalid"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of one input record: its grid and result, or why it could not be read."""

    index: int
    record: Record
    grid: Grid | None = None
    result: Result | None = None
    invalid: str | None = None

    @property
    def status(self) -> str:
        """``solved``, ``unsolvable``, ``timeout``, ``error`` or ``invalid``."""
        return INVALID if self.result is None else self.result.status.value

    @property
    def error(self) -> str | None:
        """The one-line reason a record failed to parse or its engine failed, else None."""
        return self.invalid if self.result is None else self.result.error

    @property
    def puzzle_text(self) -> str:
        """The puzzle in line form, or the input text as read when it did not parse."""
        return self.grid.to_line() if self.grid is not None else self.record.as_read
