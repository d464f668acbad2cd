"""``backtrack``: the LeetCode 37 write-ups' recursive backtracker, with bit masks and singles.

The write-ups fill the board recursively: pick an empty cell, try each digit that the row, column
and box "used" tables allow, recurse, and undo the placement when nothing below it works. This
engine keeps that shape and makes it fast:

* the used tables are int bit masks (bit d-1 stands for digit d), one per row, column and box;
* every blank cell keeps its candidate mask, narrowed as its peers are filled;
* singles are placed before guessing: a cell with one candidate (naked single) and a digit with one
  place left in a row, column or box (hidden single);
* the cell with the fewest candidates is the one guessed on.

Boards of 16x16 and more, where singles leave too much to guessing, take two more steps
(``inference="auto"``; ``"strong"`` forces them on any classic board, ``"singles"`` leaves them out):

* locked candidates: a digit whose places in a box lie on one line leaves the rest of that line, and
  a digit whose places on a line lie in one box leaves the rest of that box;
* a look-ahead on the cells with two candidates: each digit is tried with its singles; one that
  fails cannot be the cell's (the other is placed), and the cell whose two tries removed the most
  candidates is the one guessed on, the try that removed fewer first.

On 9x9 they cost more than they save, so classic 9x9 puzzles run the search above as it was.

From 25x25 up, a search that has failed 100 guesses without a solution starts again from the root with
clause learning (``inference="learn"`` starts with it on any classic board): the literals are "cell c
holds digit d", propagated by the singles and locked candidates above with the reason of each
deduction kept; a conflict is analysed to a learned clause (first unique implication point, minimised)
and the search jumps back to where that clause asserts a literal; branching on the most active
literal (VSIDS) with saved phases, Luby restarts, and learned clauses halved by LBD. A hard 25x25 that
the search above does not finish in minutes takes it some 19,000 conflicts. Counting goes on past a
solution by the clause "not all of its decisions", and is exact when a conflict is left at the root.

``order="plain"`` runs the write-ups' search exactly: the first empty cell in reading order, digits
in increasing order, no singles, so the two can be compared on the same puzzle (``--stats``).

Variant puzzles (sudokit's variant rules) take the same search through one hook: every rule is lowered,
once, into what placing a digit already does. All-different rules (a jigsaw's regions, extra
regions, diagonals, killer cages, renban lines, anti-knight and anti-king) become more peers; rules
between two cells (non-consecutive, kropki, XV and their negatives, thermometers, whispers,
palindromes) become pair tables that narrow the partner's candidates whenever a cell's candidates
narrow; rules over many cells (killer and little killer totals, arrows, sandwiches, renban runs) are
small propagators run when one of their cells changes: the digit sets a cage or a renban line can
still hold (a digit all of them need leaves the cells that see the whole cage), the sums a line or
an arrow can still reach, where the 1 and the n of a sandwich can still go, the placings of a quadruple's
digits that still fit. Killer cages and the houses
give sum rules for what the cages leave of a house, of lines side by side or of rows less columns (the "45 rule",
innies and outies), cells that see each other summed as different digits. Hidden singles look at every
all-different unit of n cells; among the cells of fewest candidates, the one the most rules touch
(and that failed most often) is guessed on. Classic puzzles never see any of it: they run the search
above, unchanged.

Solutions are counted up to ``limit`` and only the first ``keep`` are stored, so counting a board
with millions of solutions takes no memory.

The package, a module per idea: this module is the engine (which search a puzzle gets, and its
answer), :mod:`.base` what every search shares, :mod:`.search` the classic search, :mod:`.plain`
``order="plain"``, :mod:`.big` locked candidates and the look-ahead, :mod:`.learning` clause learning,
:mod:`.variants` variant puzzles lowered into the search and :mod:`.rules` their propagators. Only the
classic search is imported with the engine (``sudoku solve``'s start-up): the others load on first use.
What the ``numba`` engine shares with this one, :data:`BIG_SIDE` and :func:`box_line_segments`, is public
here (the second loads :mod:`.big` on first use).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Literal

from sudokit import Capabilities, Grid, Result, Status
from sudokit_strategies.backtrack.base import Base, Stop, Timeout
from sudokit_strategies.backtrack.search import Search

if TYPE_CHECKING:
    from sudokit_strategies.backtrack.big import box_line_segments

__all__ = ["BIG_SIDE", "LEARN_AFTER", "LEARN_SIDE", "BacktrackStrategy", "box_line_segments"]

#: Boards of this side and more get locked candidates (``inference="auto"``): on 9x9 they cost more than they save.
BIG_SIDE = 16
#: Boards of this side and more turn to clause learning (``inference="auto"``) when the search has failed
#: ``LEARN_AFTER`` guesses without a solution: it solves three of the five 25x25 of puzzles/sizes within that,
#: the learning search is faster on the fourth, and the first needs it (19,000 conflicts). An empty board,
#: whose search goes deep but seldom fails, keeps the search.
LEARN_SIDE = 25
LEARN_AFTER = 100


class BacktrackStrategy:
    """Recursive backtracking with bit-mask used tables, fewest-candidates-first and singles."""

    name = "backtrack"
    #: The default order's description (what ``sudoku strategies`` reads without loading the engine).
    description = "recursive backtracking: bit-mask used tables, singles first, fewest-candidates cell"
    #: Boards up to 36x36: from 16x16 up the search adds locked candidates (benchmarks/bench_backtrack_sizes.py
    #: times puzzles/sizes). Every variant kind sudokit has (benchmarks/bench_backtrack_variants.py
    #: times the 9x9 ones).
    capabilities = Capabilities(
        max_side=36,
        constraints=frozenset(
            {
                "jigsaw",
                "extra-region",
                "diagonal",
                "anti-knight",
                "anti-king",
                "non-consecutive",
                "killer",
                "little-killer",
                "sandwich",
                "thermometer",
                "slow-thermometer",
                "arrow",
                "kropki",
                "kropki-negative",
                "xv",
                "xv-negative",
                "odd-even",
                "renban",
                "whisper",
                "palindrome",
                "quadruple",
                "pencil-marks",
                "min-max",
                "disjoint-groups",
                "clone",
                "between-line",
                "region-sum-line",
                "entropic-line",
                "modular-line",
                "zipper-line",
                "lockout-line",
                "nabner-line",
                "double-arrow",
                "x-sum",
                "skyscraper",
                "indexer",
            }
        ),
    )

    def __init__(
        self,
        order: Literal["smart", "plain"] = "smart",
        inference: Literal["auto", "singles", "strong", "learn"] = "auto",
    ) -> None:
        if order not in ("smart", "plain"):
            raise ValueError(f"order must be 'smart' or 'plain', not {order!r}")
        if inference not in ("auto", "singles", "strong", "learn"):
            raise ValueError(f"inference must be 'auto', 'singles', 'strong' or 'learn', not {inference!r}")
        self.order = order
        self.inference = inference
        if order == "plain":
            self.description = "the write-ups' plain backtracker: first empty cell, digits in order, no singles"
            #: The plain order guesses blindly: boards up to 9x9 (hard ones take seconds).
            self.capabilities = Capabilities(max_side=9)

    def __repr__(self) -> str:
        extra = "" if self.inference == "auto" else f", inference={self.inference!r}"
        return f"BacktrackStrategy(order={self.order!r}{extra})"

    def solve(
        self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> Result:
        """Count up to ``limit`` solutions of ``puzzle`` within ``time_limit`` seconds, keeping the first ``keep``."""
        search = self._search(puzzle)  # first: loading a search never counts against the time limit
        start = time.perf_counter()
        deadline = None if time_limit is None else start + time_limit
        keep = limit if keep is None else keep
        engine = search(puzzle, limit, deadline, keep)
        status = Status.SOLVED
        exact = False
        old_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old_limit, 4 * puzzle.shape.size + 1000))
        try:
            engine.run()
            exact = True
        except Stop:
            pass
        except Timeout:
            status = Status.TIMEOUT
        finally:
            sys.setrecursionlimit(old_limit)
        if status is Status.SOLVED and not engine.count:
            status = Status.UNSOLVABLE
        solutions = tuple(Grid(cells, puzzle.shape, validate=False) for cells in engine.solutions)
        return Result(
            status=status,
            puzzle=puzzle,
            strategy=self.name,
            solutions=solutions,
            count=engine.count,
            exact=exact,
            stats=engine.stats(),
            elapsed=time.perf_counter() - start,
        )

    def _search(self, puzzle: Grid) -> Callable[[Grid, int, float | None, int], Base]:
        """The search for ``puzzle``, built by ``search(puzzle, limit, deadline, keep)``.

        The classic search is imported with the engine; the others load here on first use, so that
        ``sudoku solve``'s start-up imports only what a classic board below 16x16 needs.
        """
        if self.order == "plain":
            from sudokit_strategies.backtrack.plain import PlainSearch

            return PlainSearch
        if not puzzle.is_classic:
            from sudokit_strategies.backtrack.variants import VariantSearch

            return VariantSearch
        if self.inference in ("strong", "learn") or (self.inference == "auto" and puzzle.n >= BIG_SIDE):
            from sudokit_strategies.backtrack.big import BigSearch

            learn_after = 0 if self.inference == "learn" else None  # clause learning: at once, or from 25x25 up
            if self.inference == "auto" and puzzle.n >= LEARN_SIDE:
                learn_after = LEARN_AFTER
            return partial(BigSearch, learn_after=learn_after)
        return Search


def __getattr__(name: str) -> object:
    """``box_line_segments`` loads the big boards' search (:mod:`.big`) on first use."""
    if name == "box_line_segments":
        from sudokit_strategies.backtrack.big import box_line_segments

        return box_line_segments
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
