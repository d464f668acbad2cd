"""``echo-backtrack``: sudokit's backtrack engine, wrapped through sudokit's public API only."""

from __future__ import annotations

from dataclasses import replace

from sudokit import Capabilities, Grid, Result, capabilities_of, get_strategy


class EchoBacktrack:
    """Asks the ``backtrack`` engine and returns its answer under its own name."""

    name = "echo-backtrack"
    description = "sudokit's backtrack engine, wrapped by a third-party distribution"

    def __init__(self) -> None:
        self.inner = get_strategy("backtrack")

    @property
    def capabilities(self) -> Capabilities:
        """What the wrapped engine declares (backtrack: boards up to 16x16)."""
        return capabilities_of(self.inner)

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        """The backtrack engine's result for ``puzzle``, named ``echo-backtrack``."""
        return replace(self.inner.solve(puzzle, limit=limit, time_limit=time_limit), strategy=self.name)
