"""A good engine for the kit's own tests, and the base of the broken ones (``mutants_*.py``).

``Reference`` answers with sudokit's ``backtrack`` engine under its own name, passing ``keep`` and
``time_limit`` through. A mutant subclasses it and breaks exactly one thing, the thing one check
looks for; ``MUTANTS`` in each ``mutants_*`` module maps the check's name to an instance.
"""

from __future__ import annotations

from dataclasses import replace

from sudokit import Capabilities, Grid, Result, get_strategy
from sudokit.engines.api import Answer, answer_of


class Reference:
    """sudokit's backtrack engine, renamed: passes every check it claims (boards up to 16x16)."""

    name = "reference"
    description = "the kit's good test engine: sudokit's backtrack, renamed"
    capabilities = Capabilities(max_side=16)

    def __init__(self) -> None:
        self.inner = get_strategy("backtrack")

    def solve(
        self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> Result:
        """backtrack's answer for ``puzzle``, under this engine's name."""
        return replace(self.inner.solve(puzzle, limit=limit, time_limit=time_limit, keep=keep), strategy=self.name)

    def candidates(self, puzzle: Grid, *, cap: int = 1, time_limit: float | None = None) -> Result:
        """The optional fast true-candidates method, the plain way: every solution (up to a bound) is a witness."""
        most = cap * puzzle.shape.size * puzzle.n + 1
        result = self.inner.solve(puzzle, limit=most, time_limit=time_limit, keep=most)
        return replace(result, strategy=self.name)


class PlainReference(Reference):
    """``Reference`` with the optional ``solve_plain``: its own ``solve``'s answer as plain data, as it should be."""

    name = "plain-reference"

    def solve_plain(
        self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> Answer:
        """``solve``'s answer for ``puzzle`` as sudokit's plain ``Answer``."""
        return answer_of(self.solve(puzzle, limit=limit, time_limit=time_limit, keep=keep))
