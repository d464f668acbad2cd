"""Puzzle generation: random full grids, then givens removed while the puzzle keeps exactly one solution.

``generate`` streams puzzles of any box shape::

    >>> from sudokit.features.generation import generate
    >>> puzzles = list(generate("2x2", count=2, seed=7, minimal=True))
    >>> [p.count_givens() > 0 for p in puzzles]
    [True, True]

How a puzzle is made, all from one ``random.Random(seed)`` (the same seed gives the same puzzles,
whatever the engine, the machine or the timing):

1. A full grid: the boxes on the diagonal (band k, stack k) are filled with random permutations
   (they share no row, column or box), ``backtrack`` completes the board (it is deterministic; a
   diagonal that cannot be completed is drawn again), then rows are shuffled inside their bands,
   bands among themselves, and the same for columns and stacks.
2. The cells are grouped in orbits of the symmetry (one cell each for ``none``; a cell and its
   image under a half turn for ``rot180``, under the quarter turns for ``rot90``, under the
   left-right mirror ``c -> n-1-c`` for ``mirror``) and the orbits are tried in a random order: an
   orbit is removed when the puzzle without it still has exactly one solution. That is proved
   either at no cost, when each removed cell's digit is the only one its peers' givens leave (a
   naked single: the set of solutions does not change), or by the engine counting to 2.
3. One pass over every orbit leaves a *minimal* puzzle: an orbit refused at some point stays
   necessary in every later, smaller puzzle (removing givens only adds solutions), so no remaining
   orbit can be removed. With a symmetry, minimal is meant orbit-wise: removing any one orbit of
   the remaining givens breaks uniqueness (removing a single cell of an orbit might not, but would
   break the symmetry). Without ``minimal`` the pass stops after ``n`` refused orbits (``n`` the
   board side), which saves most of the engine's hardest counts (the last ones, on the sparsest
   puzzles) and leaves a few more givens; the puzzle is unique either way.
4. With ``level``, the puzzle is rated (``sudokit.features.rating.rate``) and kept only when its level is
   the one asked for; otherwise a new one is made. ``PuzzleStream.attempts`` counts them. A level
   that no puzzle of the board reaches is refused at once (:func:`reachable_levels`).

Every engine call goes through :func:`sudokit.engines.api.run`, which checks the answer: a full grid that is
not a solution, or a count that does not hold, is an engine failure (``StrategyError``), never a puzzle.

The engine that counts is a parameter; by default (``default_engine``) ``backtrack`` below 16x16 and
``sat`` from 16x16 up when PySAT is installed, as benchmarks/bench_generate.py measured (``sat``
about 5x faster than ``backtrack`` on minimal 16x16 removal, 3x slower on 9x9).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from sudokit.engines.strategy import Result, Status, Strategy, capabilities_of
from sudokit.errors import BoxShapeError, StrategyError
from sudokit.model.grid import Grid
from sudokit.model.shape import Shape

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from sudokit.features.rating import Rating

__all__ = [
    "LEVELS",
    "SYMMETRIES",
    "PuzzleStream",
    "default_engine",
    "generate",
    "puzzle_seed",
    "reachable_levels",
    "symmetry_orbits",
]

#: The symmetries the givens can have.
SYMMETRIES = ("none", "rot180", "rot90", "mirror")
#: The levels ``level`` takes (``sudokit.features.rating.LEVELS``, in order), lower case. Spelled out so that importing
#: this module does not import ``sudokit.features.rating`` (and ``sudokit.features.logic``); tests/test_generate.py
#: checks they agree.
LEVELS = ("easy", "medium", "hard", "unfair", "extreme")
#: From this board side up, ``sat`` counts faster than ``backtrack`` (benchmarks/bench_generate.py).
SAT_FROM_SIDE = 16


def generate(
    box: str | Shape = "3x3",
    *,
    count: int | None = None,
    seed: int | None = None,
    symmetry: str = "none",
    minimal: bool = False,
    level: str | None = None,
    engine: str | Strategy | None = None,
    time_limit: float | None = None,
    filler: str | Strategy = "backtrack",
) -> PuzzleStream:
    """Stream puzzles with exactly one solution on boards of ``box`` (``"RxC"`` or a Shape).

    ``count`` puzzles (None: without end); ``seed`` makes the stream reproducible (None: a random
    seed, readable afterwards as ``.seed``); ``symmetry`` is the givens' pattern: ``none``,
    ``rot180``, ``rot90`` or ``mirror`` (left-right); ``minimal`` removes givens until none (no
    orbit, with a symmetry) can go; ``level`` keeps only puzzles that ``sudokit.features.rating.rate`` puts
    at that level (easy, medium, hard, unfair, extreme); ``engine`` names the engine (or is the
    Strategy) that proves uniqueness by counting to 2 (None: the fastest measured for the board,
    ``default_engine``; the puzzles do not depend on it, a count to 2 being the same whoever does
    it); ``time_limit`` is a budget in seconds for the whole stream: when it runs out the stream
    ends (``.timed_out`` is then True) and the puzzle in progress is dropped, so the puzzles given
    are always the first ones of that seed. ``filler`` names the engine (or is the Strategy) that
    completes the random boxes into a full grid: the puzzles of a seed are made of its solutions, so
    another filler gives other puzzles.

    Raises ``ValueError`` for a bad argument (before any work).
    """
    return PuzzleStream(
        box,
        count=count,
        seed=seed,
        symmetry=symmetry,
        minimal=minimal,
        level=level,
        engine=engine,
        time_limit=time_limit,
        filler=filler,
    )


class OutOfTime(Exception):
    """The stream's time budget ran out."""


class PuzzleStream(Iterator[Grid]):
    """The iterator ``generate`` returns: puzzles, and counters of the work done so far.

    ``produced`` is how many puzzles were given; ``attempts`` how many were made (more than
    ``produced`` with ``level``: the ones at another level are dropped); ``checks`` how many counts
    the engine ran; ``free_checks`` how many removals were proved without it (naked singles);
    ``levels`` how many puzzles made were rated at each level (with ``level`` only); ``elapsed``
    the seconds spent making them. ``solution`` is the last puzzle's solution, ``rating`` its
    rating (with ``level`` only).
    """

    def __init__(
        self,
        box: str | Shape = "3x3",
        *,
        count: int | None = None,
        seed: int | None = None,
        symmetry: str = "none",
        minimal: bool = False,
        level: str | None = None,
        engine: str | Strategy | None = None,
        time_limit: float | None = None,
        filler: str | Strategy = "backtrack",
    ) -> None:
        self.shape = shape_named(box)
        if count is not None and (type(count) is not int or count < 1):
            raise ValueError(f"count must be a positive whole number or None, not {count!r:.40}")
        if seed is not None and type(seed) is not int:
            raise ValueError(f"seed must be a whole number or None, not {seed!r:.40}")
        if symmetry not in SYMMETRIES:
            raise ValueError(f"symmetry must be one of {', '.join(SYMMETRIES)}, not {symmetry!r:.40}")
        if type(minimal) is not bool:
            raise ValueError(f"minimal must be True or False, not {minimal!r:.40}")
        self.level = _level(level)
        if self.level is not None and self.level not in reachable_levels(self.shape):
            raise ValueError(
                f"level {self.level}: no puzzle on a {self.shape.n}x{self.shape.n} board reaches it "
                f"(levels reached: {', '.join(reachable_levels(self.shape))})"
            )
        self.time_limit = _time_limit(time_limit)
        self.strategy = engine_named(default_engine(self.shape) if engine is None else engine, self.shape)
        same = filler is self.strategy or filler == getattr(self.strategy, "name", None)
        self._filler = self.strategy if same else engine_named(filler)
        self._rate: Callable[..., tuple[list[Any], Rating]] | None = None
        if self.level is not None:
            from sudokit.features.rating import rate_grid

            self._rate = rate_grid
        self.count = count
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self.symmetry = symmetry
        self.minimal = minimal
        self.orbits = symmetry_orbits(self.shape, symmetry)
        self._random = random.Random(self.seed)
        self._deadline: float | None = None
        self.produced = self.attempts = self.checks = self.free_checks = 0
        self.levels: dict[str, int] = {}
        self.elapsed = 0.0
        self.timed_out = False
        self.solution: Grid | None = None
        self.rating: Rating | None = None

    def __repr__(self) -> str:
        return (
            f"PuzzleStream(box={str(self.shape)!r}, seed={self.seed}, symmetry={self.symmetry!r}, "
            f"minimal={self.minimal}, level={self.level!r}, engine={self.strategy.name!r}, produced={self.produced})"
        )

    def __iter__(self) -> PuzzleStream:
        return self

    def __next__(self) -> Grid:
        if self.timed_out or (self.count is not None and self.produced >= self.count):
            raise StopIteration
        start = time.perf_counter()
        if self._deadline is None and self.time_limit is not None:
            self._deadline = start + self.time_limit
        try:
            while True:
                self.attempts += 1
                puzzle, solution = self._make()
                rating = None
                if self._rate is not None:
                    rating = self._rated(puzzle, solution)
                    got = rating.level.lower()
                    self.levels[got] = self.levels.get(got, 0) + 1
                    if got != self.level:
                        continue
                self.solution, self.rating = solution, rating
                break
        except OutOfTime:
            self.timed_out = True
            raise StopIteration from None
        finally:
            self.elapsed += time.perf_counter() - start
        self.produced += 1
        return puzzle

    # --- one puzzle ---------------------------------------------------------------------------

    def _rated(self, puzzle: Grid, solution: Grid) -> Rating:
        """The rating of ``puzzle``, whose one solution is ``solution`` (proved by the counts), within the budget."""
        from sudokit.features.rating import TimeLimitError

        assert self._rate is not None
        known = Result(Status.SOLVED, puzzle, self.strategy.name, (solution,), 1, True)
        try:
            return self._rate(puzzle, known, deadline=self._deadline_monotonic())[1]
        except TimeLimitError:
            raise OutOfTime from None

    def _deadline_monotonic(self) -> float | None:
        """The budget's end on ``time.monotonic()``'s clock (the rating's), None without a budget."""
        left = self._remaining()
        return None if left is None else time.monotonic() + left

    def _make(self) -> tuple[Grid, Grid]:
        """One unique puzzle (minimal when asked) from the next random full grid, and its solution."""
        solution = self._full_grid()
        cells = self._thinned(solution, self.shape.peers)
        return Grid(cells, self.shape, validate=False), Grid(solution, self.shape, validate=False)

    def _thinned(self, solution: tuple[int, ...], peers: tuple[tuple[int, ...], ...]) -> list[int]:
        """The givens left of ``solution`` once orbits are removed while :meth:`_unique` holds (step 2 and 3)."""
        orbits = list(self.orbits)
        self._random.shuffle(orbits)
        cells = list(solution)
        full = self.shape.full_mask
        refused = 0
        stop_after = None if self.minimal else self.shape.n
        for orbit in orbits:
            for i in orbit:
                cells[i] = 0
            if self._forced(cells, orbit, peers, full) or self._unique(cells):
                continue
            for i in orbit:
                cells[i] = solution[i]
            refused += 1
            if stop_after is not None and refused >= stop_after:
                break
        return cells

    def _forced(self, cells: list[int], orbit: tuple[int, ...], peers: tuple[tuple[int, ...], ...], full: int) -> bool:
        """True when every cell of ``orbit`` (just blanked) has one digit left by its peers' givens: a naked single."""
        for i in orbit:
            seen = 0
            for j in peers[i]:
                v = cells[j]
                if v:
                    seen |= 1 << (v - 1)
            left = full & ~seen
            if left & (left - 1):
                return False
        self.free_checks += 1
        return True

    def _unique(self, cells: list[int]) -> bool:
        """True when the puzzle of ``cells`` has exactly one solution, counted by the engine to 2."""
        self.checks += 1
        result = checked_puzzle(self.strategy, self._puzzle(cells), limit=2, keep=1, time_limit=self._remaining())
        if result.status is Status.TIMEOUT:
            raise OutOfTime
        if result.status not in (Status.SOLVED, Status.UNSOLVABLE):
            raise StrategyError(f"engine {self.strategy.name!r} failed while generating: {result.error}")
        return result.exact and result.count == 1

    def _puzzle(self, cells: list[int]) -> Grid:
        """The puzzle of ``cells`` (its rules too, in a variant stream)."""
        return Grid(cells, self.shape, validate=False)

    def _full_grid(self) -> tuple[int, ...]:
        """A random full grid: random diagonal boxes completed by backtrack, then rows, columns, bands shuffled."""
        rng = self._random
        shape = self.shape
        n, r, c = shape.n, shape.box_rows, shape.box_cols
        bands, stacks = n // r, n // c  # bands of r rows, stacks of c columns
        while True:
            cells = [0] * shape.size
            for k in range(min(bands, stacks)):
                digits = rng.sample(range(1, n + 1), n)
                for d, (dr, dc) in zip(digits, ((a, b) for a in range(r) for b in range(c)), strict=True):
                    cells[(k * r + dr) * n + k * c + dc] = d
            result = checked_puzzle(
                self._filler, Grid(cells, shape, validate=False), limit=1, time_limit=self._remaining()
            )
            if result.status is Status.TIMEOUT:
                raise OutOfTime
            if result.status is Status.ERROR:
                raise StrategyError(f"engine {self._filler.name!r} failed while generating: {result.error}")
            if result.solution is not None:
                solution = result.solution.cells
                break
        rows = _shuffled_lines(rng, bands, r)
        cols = _shuffled_lines(rng, stacks, c)
        return tuple(solution[rows[y] * n + cols[x]] for y in range(n) for x in range(n))

    def _remaining(self) -> float | None:
        """Seconds left of the budget (None: no budget); ``OutOfTime`` when none are."""
        if self._deadline is None:
            return None
        left = self._deadline - time.perf_counter()
        if left <= 0:
            raise OutOfTime
        return left


def checked_puzzle(
    strategy: Strategy, puzzle: Grid, *, limit: int, keep: int | None = None, time_limit: float | None
) -> Result:
    """``sudokit.engines.api.run``: the engine's answer, checked (imported here, when a puzzle is made)."""
    from sudokit.engines.api import run as checked_run

    return checked_run(strategy, puzzle, limit=limit, keep=keep, time_limit=time_limit)


def reachable_levels(box: str | Shape) -> tuple[str, ...]:
    """The levels some puzzle with one solution on a board of ``box`` is rated at (lower case, easiest first).

    A 4x4 board (boxes 2x2, 1x4, 4x1) reaches ``easy`` only: every minimal puzzle is solved by
    singles (tests/test_generate.py rates each one), and singles that solve a puzzle solve it with
    more givens too. Larger boards are taken to reach every level.
    """
    return LEVELS[:1] if shape_named(box).n == 4 else LEVELS


def puzzle_seed(seed: int, index: int) -> int:
    """The seed of puzzle ``index`` (1-based) of a run seeded ``seed``: a 63-bit hash of both.

    Each puzzle depends on its own seed alone, so a run's output does not depend on --jobs or on timing.
    """
    import hashlib

    digest = hashlib.sha256(f"sudokit-generate:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def default_engine(box: str | Shape) -> str:
    """The engine ``generate`` counts with unless told: sat from ``SAT_FROM_SIDE`` up when it loads, else backtrack."""
    if shape_named(box).n >= SAT_FROM_SIDE:
        try:
            engine_named("sat")
        except ValueError:
            pass
        else:
            return "sat"
    return "backtrack"


def symmetry_orbits(shape: Shape, symmetry: str) -> list[tuple[int, ...]]:
    """The cells of ``shape`` grouped in orbits of ``symmetry`` (each orbit sorted; orbits by first cell).

    A pattern of givens has the symmetry exactly when it is a union of these orbits.
    """
    n = shape.n
    maps: list[Callable[[int, int], tuple[int, int]]]
    if symmetry == "none":
        maps = []
    elif symmetry == "rot180":
        maps = [lambda y, x: (n - 1 - y, n - 1 - x)]
    elif symmetry == "rot90":
        maps = [lambda y, x: (x, n - 1 - y), lambda y, x: (n - 1 - y, n - 1 - x), lambda y, x: (n - 1 - x, y)]
    elif symmetry == "mirror":
        maps = [lambda y, x: (y, n - 1 - x)]
    else:
        raise ValueError(f"symmetry must be one of {', '.join(SYMMETRIES)}, not {symmetry!r:.40}")
    orbits: list[tuple[int, ...]] = []
    done = [False] * shape.size
    for i in range(shape.size):
        if done[i]:
            continue
        y, x = divmod(i, n)
        orbit = sorted({i} | {a * n + b for a, b in (f(y, x) for f in maps)})
        for j in orbit:
            done[j] = True
        orbits.append(tuple(orbit))
    return orbits


def _shuffled_lines(rng: random.Random, groups: int, size: int) -> list[int]:
    """A random order of ``groups * size`` lines that keeps each group of ``size`` together."""
    order = rng.sample(range(groups), groups)
    lines: list[int] = []
    for g in order:
        lines.extend(g * size + k for k in rng.sample(range(size), size))
    return lines


def shape_named(box: object) -> Shape:
    if isinstance(box, Shape):
        return box
    if not isinstance(box, str):
        raise ValueError(f"box must be a text like '3x3' or a Shape, not {box!r:.40}")
    try:
        return Shape.parse(box)
    except BoxShapeError as err:
        raise ValueError(f"box: {err}") from None


def _level(level: object) -> str | None:
    if level is None:
        return None
    if not isinstance(level, str) or level.lower() not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)} or None, not {level!r:.40}")
    return level.lower()


def _time_limit(value: object) -> float | None:
    from sudokit.engines.api import normalize_time_limit

    try:
        return normalize_time_limit(value)  # type: ignore[arg-type]
    except TypeError as err:
        raise ValueError(str(err)) from None


def engine_named(name: object, shape: Shape | None = None) -> Strategy:
    """The engine named ``name`` (or the Strategy itself), checked to count and to take ``shape``; else ValueError."""
    from sudokit.engines.api import get_strategy

    if not isinstance(name, str | Strategy):
        raise ValueError(f"engine must be an engine's name or a Strategy, not {name!r:.40}")
    try:
        strategy = get_strategy(name)
        caps = capabilities_of(strategy)
    except StrategyError as err:
        raise ValueError(f"engine {name!r}: {err}") from None
    name = getattr(strategy, "name", name)
    if not caps.counting:
        raise ValueError(f"engine {name!r} cannot count solutions, so it cannot prove a puzzle unique")
    problem = caps.shape_problem(shape) if shape is not None else None
    if problem:
        raise ValueError(f"engine {name!r} {problem}")
    return strategy
