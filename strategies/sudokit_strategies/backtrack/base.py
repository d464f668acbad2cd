"""What every search of ``backtrack`` shares: the signals that end a search, the solutions kept and the counters."""

from __future__ import annotations

from sudokit import Grid

__all__ = ["Base", "Stop", "Timeout"]


class Stop(Exception):
    """The limit of solutions was reached."""


class Timeout(Exception):
    """The time limit ran out."""


class Base:
    """What every search keeps: the puzzle, the limits, the solutions found (the first ``keep``), the counters."""

    def __init__(self, puzzle: Grid, limit: int, deadline: float | None, keep: int) -> None:
        self.puzzle = puzzle
        self.n = puzzle.shape.n
        self.limit = limit
        self.deadline = deadline
        self.keep = keep
        self.count = 0  # solutions found; only the first ``keep`` are stored, so counting takes no memory
        self.solutions: list[tuple[int, ...]] = []
        self.nodes = self.guesses = self.backtracks = self.max_depth = 0

    def run(self) -> None:
        """Search from the givens, counting the solutions (every search defines it)."""
        raise NotImplementedError

    def found(self, cells: tuple[int, ...]) -> None:
        """Count a solution (keeping it while fewer than ``keep`` are kept); stop the search at the limit."""
        self.count += 1
        if self.count <= self.keep:
            self.solutions.append(cells)
        if self.count >= self.limit:
            raise Stop

    def stats(self) -> dict[str, int]:
        return {
            "nodes": self.nodes,
            "guesses": self.guesses,
            "backtracks": self.backtracks,
            "max_depth": self.max_depth,
        }
