"""Variant puzzle generation: a random solution, rules drawn true of it, then givens removed while it stays unique.

``generate_variants`` streams puzzles whose rules are of the kinds asked for (``--rules`` of ``sudoku generate``)
or are a template puzzle's (``--template``)::

    >>> from sudokit.features.variant_generation import generate_variants
    >>> stream = generate_variants("2x2", rules=["killer"], count=1, seed=3, no_givens=True, engine="backtrack")
    >>> puzzle = next(stream)
    >>> sorted(puzzle.kinds), puzzle.count_givens()
    (['killer'], 0)

How a puzzle is made, all from one ``random.Random(seed)``:

1. A solution. Without a global rule (diagonal, anti-knight, anti-king, non-consecutive) it is the classic
   generator's random full grid; with one, or from a template, digits are placed one at a time on random
   cells of the empty puzzle under its rules (a digit the filler engine finds no solution for is drawn
   again) until the filler (``backtrack``, deterministic) completes it: the first ``n`` placements
   steer it, the rest is the engine's.
2. Rules true of that solution (:data:`DRAWN` says how each kind is drawn): killer cages partition the
   board (connected, 2 to 5 cells of different digits, the sum from the solution; a cell left alone
   joins a neighbouring cage that lacks its digit); thermometers along increasing paths; arrows whose
   circle is the sum of a path of 2 or 3 cells; kropki dots, X and V on half the pairs that qualify, or on
   every one with the negative rule; and so on. A template's rules are kept as they are (its givens
   are not).
3. Givens are removed as the classic generator removes them (``symmetry``, ``minimal``; without
   ``minimal`` the pass stops after ``n`` refused orbits), each removal proved by counting to 2 with
   ``engine`` (default: ``cp-sat``, else ``sat``, else ``backtrack``) or by a naked single in the
   rows, columns and regions.
   With ``no_givens`` (killer only) no given is kept: while the engine finds a second solution, the
   cages holding cells where it differs are drawn again (cages of 2 to 4 cells), until one of the
   new cages rules that second solution out; the area grows to the neighbouring cages when 20 draws
   fail. The cages then depend on the engine's second solutions too, not on the seed alone
   (the engine counts on one thread: the same engine gives the same puzzle).
4. With ``level``, the variant rating (``sudokit.features.rating``) keeps the puzzles of that level.

Every count goes through :func:`sudokit.engines.api.run`, which checks every answer independently
(:mod:`sudokit.engines.verify`); the rules drawn are checked against the solution before any count.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from sudokit.engines.strategy import Status, Strategy
from sudokit.errors import StrategyError
from sudokit.features.generation import OutOfTime, PuzzleStream, checked_puzzle, engine_named, shape_named
from sudokit.model.grid import Grid
from sudokit.model.variants import (
    XV,
    AntiKing,
    AntiKnight,
    Arrow,
    Constraint,
    Diagonal,
    Killer,
    Kropki,
    KropkiNegative,
    LittleKiller,
    NonConsecutive,
    OddEven,
    Renban,
    Sandwich,
    SlowThermometer,
    Thermometer,
    Whisper,
    XVNegative,
    orthogonal_pairs,
)

if TYPE_CHECKING:
    from sudokit.model.shape import Shape

__all__ = ["DRAWN", "GLOBAL_RULES", "VARIANT_ENGINES", "VariantStream", "generate_variants", "parse_rules"]

#: The kinds ``rules`` can ask for, each with how it is drawn from the solution.
DRAWN: dict[str, str] = {
    "killer": "cages of 2 to 5 connected cells partitioning the board, each with its sum",
    "little-killer": "the sums of 4 random diagonals (n // 2 on smaller boards)",
    "sandwich": "the sandwich sums of half the rows and columns",
    "thermometer": "n - 3 thermometers of 3 to 6 cells along increasing paths",
    "slow-thermometer": "n - 3 slow thermometers of 3 to 6 cells along paths that never decrease",
    "arrow": "n - 3 arrows of 2 or 3 cells whose circle is their sum",
    "renban": "n // 2 renban lines of 3 to 5 cells holding a run of digits",
    "whisper": "n // 2 whisper lines of 3 to 6 cells whose neighbours differ by n // 2 + 1 or more",
    "kropki": "a dot on half the pairs that qualify (every one with kropki-negative)",
    "kropki-negative": "the negative rule: every dot is drawn",
    "xv": "an X or V on half the pairs that qualify (every one with xv-negative)",
    "xv-negative": "the negative rule: every X and V is drawn",
    "odd-even": "the parity of a third of the cells",
    "diagonal": "both diagonals (the solution is drawn under them)",
    "anti-knight": "the rule (the solution is drawn under it)",
    "anti-king": "the rule (the solution is drawn under it)",
    "non-consecutive": "the rule (the solution is drawn under it)",
}
#: The kinds that hold of the whole board: the solution is drawn under them.
GLOBAL_RULES = ("diagonal", "anti-knight", "anti-king", "non-consecutive")
#: The engines that count variant puzzles unless told, in order: the first that loads (the server: that it runs).
VARIANT_ENGINES = ("cp-sat", "sat", "backtrack")
#: Redraws of an area of cages that fail to rule out the second solution before the area grows.
_REDRAWS = 20


def parse_rules(text: str | Iterable[str]) -> tuple[str, ...]:
    """The kinds of ``text`` ("killer,thermometer" or a list), checked; ValueError naming one it cannot draw.

    A negative rule brings its clues along: ``kropki-negative`` draws every kropki dot, ``xv-negative``
    every X and V.
    """
    names = [t.strip() for t in text.split(",")] if isinstance(text, str) else [str(t).strip() for t in text]
    kinds: list[str] = []
    for name in names:
        if not name:
            continue
        if name not in DRAWN:
            raise ValueError(f"rule {name!r:.40} cannot be drawn by the generator (it draws: {', '.join(DRAWN)})")
        base = name.removesuffix("-negative")
        for kind in (base, name) if base != name else (name,):  # a negative rule draws every dot: the dots too
            if kind not in kinds:
                kinds.append(kind)
    if not kinds:
        raise ValueError(f"no rule given (the generator draws: {', '.join(DRAWN)})")
    return tuple(kinds)


def default_variant_engine() -> str:
    """The engine that counts variant puzzles unless told: cp-sat, else sat, else backtrack (whichever loads)."""
    for name in VARIANT_ENGINES[:-1]:
        try:
            engine_named(name)
        except ValueError:
            continue
        return name
    return "backtrack"


class VariantStream(PuzzleStream):
    """Variant puzzles with exactly one solution, streamed: the rules of the kinds ``rules`` drawn for each, or
    ``template``'s rules (a Grid; its board too, ``box`` is then not read).

    The other arguments are :func:`sudokit.features.generation.generate`'s; ``no_givens`` makes puzzles
    with no given at all (``rules`` must hold killer: the cages are drawn again until unique). Raises
    ``ValueError`` for a bad argument (before any work). The counters are :class:`PuzzleStream`'s, and
    ``redraws``: the killer areas drawn again with ``no_givens``.
    """

    def __init__(
        self,
        box: str | Shape = "3x3",
        *,
        rules: str | Iterable[str] | None = None,
        template: Grid | None = None,
        count: int | None = None,
        seed: int | None = None,
        symmetry: str = "none",
        minimal: bool = False,
        level: str | None = None,
        engine: str | Strategy | None = None,
        time_limit: float | None = None,
        no_givens: bool = False,
    ) -> None:
        if (rules is None) == (template is None):
            raise ValueError("give the rules to draw or a template puzzle, one of them")
        if template is not None and not isinstance(template, Grid):
            raise ValueError(f"template must be a Grid, not {template!r:.40}")
        if type(no_givens) is not bool:
            raise ValueError(f"no_givens must be True or False, not {no_givens!r:.40}")
        self.kinds: tuple[str, ...] = parse_rules(rules) if rules is not None else tuple(sorted(template.kinds))  # type: ignore[union-attr]
        if template is not None and template.is_classic:
            raise ValueError("the template has no variant rule: generate classic puzzles without --template")
        if no_givens and (template is not None or "killer" not in self.kinds):
            raise ValueError(
                "no givens (--no-givens) needs killer among the rules drawn (not a template): the cages are "
                "drawn again until they alone make the puzzle unique"
            )
        shape = template.shape if template is not None else shape_named(box)
        super().__init__(
            shape,
            count=count,
            seed=seed,
            symmetry=symmetry,
            minimal=minimal,
            level=level,
            engine=default_variant_engine() if engine is None else engine,
            time_limit=time_limit,
            filler=_filler(),
        )
        self.template = template
        self.no_givens = no_givens
        self.redraws = 0
        self._rules: tuple[Constraint, ...] = ()
        self._regions = template.regions if template is not None and template.jigsaw else None
        self._global = self._global_rules()
        probe = Grid([0] * self.shape.size, self.shape, regions=self._regions, constraints=self._probe_rules())
        for strategy in {self.strategy.name: self.strategy, self._filler.name: self._filler}.values():
            from sudokit.engines.api import unsupported_kinds

            lacking = unsupported_kinds(strategy, probe)
            if lacking:
                raise ValueError(f"engine {strategy.name!r} does not take {', '.join(lacking)}")
        if self._global or self._regions is not None:  # rules no grid fits: refused now, not a run that spins
            empty = Grid([0] * self.shape.size, self.shape, regions=self._regions, constraints=self._global)
            found = checked_puzzle(self._filler, empty, limit=1, time_limit=self.time_limit)
            if found.status is Status.UNSOLVABLE and template is not None:
                raise ValueError("the template's rules have no solution, even without its givens")
            if found.status is Status.UNSOLVABLE:
                names = ", ".join(k for k in self.kinds if k in GLOBAL_RULES)
                raise ValueError(f"no {self.shape.n}x{self.shape.n} grid keeps {names} all at once")
        units = probe.units
        self._peers = tuple(
            tuple(sorted({j for unit in units if i in unit for j in unit} - {i})) for i in range(self.shape.size)
        )

    def __repr__(self) -> str:
        return f"{super().__repr__()[:-1]}, rules={','.join(self.kinds)!r})"

    # --- the rules ------------------------------------------------------------------------------

    def _global_rules(self) -> tuple[Constraint, ...]:
        """The rules the solution is drawn under: a template's, or the global kinds asked for."""
        if self.template is not None:
            return self.template.constraints
        made: list[Constraint] = []
        for kind in self.kinds:
            if kind == "diagonal":
                made += [Diagonal("main"), Diagonal("anti")]
            elif kind == "anti-knight":
                made.append(AntiKnight())
            elif kind == "anti-king":
                made.append(AntiKing())
            elif kind == "non-consecutive":
                made.append(NonConsecutive())
        return tuple(made)

    def _probe_rules(self) -> tuple[Constraint, ...]:
        """One rule of every kind asked for (to check the engines take them), true of nothing in particular."""
        if self.template is not None:
            return self.template.constraints
        samples: dict[str, Constraint] = {
            "killer": Killer(((0, 0), (0, 1))),
            "little-killer": LittleKiller(((0, 0), (1, 1)), total=3),
            "sandwich": Sandwich("row", 0, 0),
            "thermometer": Thermometer(((0, 0), (0, 1))),
            "slow-thermometer": SlowThermometer(((0, 0), (0, 1))),
            "arrow": Arrow(((0, 0),), ((0, 1),)),
            "renban": Renban(((0, 0), (0, 1))),
            "whisper": Whisper(((0, 0), (0, 1)), difference=1),
            "kropki": Kropki("white", ((0, 0), (0, 1))),
            "kropki-negative": KropkiNegative(),
            "xv": XV("X", ((0, 0), (0, 1))),
            "xv-negative": XVNegative(),
            "odd-even": OddEven((0, 0), "odd"),
        }
        return (*self._global, *(samples[k] for k in self.kinds if k in samples))

    def _puzzle(self, cells: list[int]) -> Grid:
        return Grid(cells, self.shape, validate=False, regions=self._regions, constraints=self._rules)

    # --- one puzzle -----------------------------------------------------------------------------

    def _make(self) -> tuple[Grid, Grid]:
        """One unique variant puzzle from the next random solution, and that solution.

        A solution on which some kind asked for finds no clue (no whisper line of the board's gap, say) is
        drawn again, so that every puzzle carries every kind.
        """
        while True:
            solution = self._solution()
            if self.template is not None:
                self._rules = self.template.constraints
                break
            self._rules = (*self._global, *_Drawer(solution, self.shape.n, self._random).draw(self.kinds))
            if {rule.kind for rule in self._rules} >= set(self.kinds):
                break
        solved = Grid(solution, self.shape, validate=False)
        from sudokit.engines.verify import solution_problem

        problem = solution_problem(self._puzzle([0] * self.shape.size), solved)
        if problem is not None:  # a drawing bug, never a puzzle
            raise StrategyError(f"a rule drawn is false of its own solution: {problem}")
        cells = self._unique_cages(solution) if self.no_givens else self._thinned(solution, self._peers)
        return self._puzzle(cells), solved

    def _solution(self) -> tuple[int, ...]:
        """A random solution: the classic full grid, or digits placed at random under the rules, then completed."""
        if not self._global and self._regions is None:
            return self._full_grid()
        rng, n = self._random, self.shape.n
        self._rules = self._global
        while True:
            cells = [0] * self.shape.size
            placed = 0
            for i in rng.sample(range(self.shape.size), self.shape.size):
                if placed == n // 2 + 1:
                    break
                for d in rng.sample(range(1, n + 1), n):
                    cells[i] = d
                    if self._fill(cells) is not None:
                        placed += 1
                        break
                    cells[i] = 0
            full = self._fill(cells)
            if full is not None:
                return full

    def _fill(self, cells: list[int]) -> tuple[int, ...] | None:
        """The filler's solution of ``cells`` under the rules drawn so far, None when there is none."""
        for i, v in enumerate(cells):  # a digit repeated in a row, column or region: no solution, no engine asked
            if v and any(cells[j] == v for j in self._peers[i]):
                return None
        result = checked_puzzle(self._filler, self._puzzle(cells), limit=1, time_limit=self._remaining())
        if result.status is Status.TIMEOUT:
            raise OutOfTime
        if result.status is Status.ERROR:
            raise StrategyError(f"engine {self._filler.name!r} failed while generating: {result.error}")
        return None if result.solution is None else result.solution.cells

    def _unique_cages(self, solution: tuple[int, ...]) -> list[int]:
        """No givens: the killer cages drawn again where a second solution differs until the puzzle is unique."""
        n = self.shape.n
        cells = [0] * self.shape.size
        others = [r for r in self._rules if not isinstance(r, Killer)]
        cages = [[r * n + c for r, c in rule.cells] for rule in self._rules if isinstance(rule, Killer)]
        while True:
            self.checks += 1
            result = checked_puzzle(self.strategy, self._puzzle(cells), limit=2, keep=2, time_limit=self._remaining())
            if result.status is Status.TIMEOUT:
                raise OutOfTime
            if result.status is not Status.SOLVED:
                raise StrategyError(f"engine {self.strategy.name!r} failed while generating: {result.error}")
            if result.exact and result.count == 1:
                return cells
            other = next(s.cells for s in result.solutions if s.cells != solution)
            cages = self._redrawn(cages, solution, other)
            self._rules = (*others, *_killers(cages, solution, n))

    def _redrawn(self, cages: list[list[int]], solution: tuple[int, ...], other: tuple[int, ...]) -> list[list[int]]:
        """``cages`` with those holding cells where ``other`` differs drawn again, so that ``other`` breaks one."""
        n, rng = self.shape.n, self._random
        owner = {i: k for k, cage in enumerate(cages) for i in cage}
        area = {owner[i] for i in range(self.shape.size) if solution[i] != other[i]}
        while True:  # ends: a random partition of the whole board breaks some cage of ``other`` (or time runs out)
            for _ in range(_REDRAWS):
                self._remaining()
                self.redraws += 1
                cells = sorted(i for k in area for i in cages[k])
                kept = [list(cage) for k, cage in enumerate(cages) if k not in area]  # copies: a lone cell may join one
                new = _partition(cells, solution, n, rng, (2, 2, 3, 3, 4), kept)
                if new is not None and any(_breaks(cage, solution, other) for cage in new):
                    return kept + new
            area |= {owner[j] for k in area for i in cages[k] for j in _orthogonal(i, n)}


#: ``generate_variants(box, rules=..., template=..., ...)``: a :class:`VariantStream`.
generate_variants = VariantStream


def _filler() -> str:
    """The engine that completes a solution under global rules: sat (deterministic, fast on them), else backtrack."""
    try:
        engine_named("sat")
    except ValueError:
        return "backtrack"
    return "sat"


def _killers(cages: Iterable[list[int]], solution: Sequence[int], n: int) -> list[Constraint]:
    return [Killer(tuple(divmod(i, n) for i in sorted(cage)), total=sum(solution[i] for i in cage)) for cage in cages]


def _breaks(cage: list[int], solution: Sequence[int], other: Sequence[int]) -> bool:
    """Whether ``other`` breaks the cage drawn from ``solution``: another sum, or a repeated digit."""
    digits = [other[i] for i in cage]
    return sum(digits) != sum(solution[i] for i in cage) or len(set(digits)) != len(digits)


def _orthogonal(i: int, n: int) -> list[int]:
    r, c = divmod(i, n)
    return [a * n + b for a, b in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if 0 <= a < n and 0 <= b < n]


def _partition(
    cells: Sequence[int],
    solution: Sequence[int],
    n: int,
    rng: random.Random,
    sizes: Sequence[int],
    hosts: list[list[int]] | None = None,
) -> list[list[int]] | None:
    """``cells`` cut into connected cages of different digits, of drawn ``sizes``; None when a cell stays alone.

    A cell left alone joins a neighbouring cage (of these or of ``hosts``, which may grow) that lacks its
    digit and has fewer than 6 cells.
    """
    free = set(cells)
    cages: list[list[int]] = []
    while free:
        start = rng.choice(sorted(free))
        free.discard(start)
        cage = [start]
        size = rng.choice(sizes)
        while len(cage) < size:
            digits = {solution[k] for k in cage}
            options = sorted({j for i in cage for j in _orthogonal(i, n) if j in free and solution[j] not in digits})
            if not options:
                break
            j = rng.choice(options)
            cage.append(j)
            free.discard(j)
        cages.append(cage)
    for lone in [c for c in cages if len(c) == 1]:
        i = lone[0]
        near = set(_orthogonal(i, n))
        joinable = [
            c
            for c in [*cages, *(hosts or [])]
            if c is not lone and len(c) in range(2, 6) and near & set(c) and solution[i] not in {solution[k] for k in c}
        ]
        if not joinable:
            return None
        rng.choice(joinable).append(lone.pop())
    return [c for c in cages if c]


class _Drawer:
    """Draws the rules of each kind true of one solution, lines never crossing each other."""

    def __init__(self, solution: tuple[int, ...], n: int, rng: random.Random) -> None:
        self.s, self.n, self.rng = solution, n, rng
        self.used: set[int] = set()

    def draw(self, kinds: Sequence[str]) -> list[Constraint]:
        made: list[Constraint] = []
        for kind in kinds:
            if kind in GLOBAL_RULES:
                continue
            if kind in ("kropki-negative", "xv-negative"):
                made.append(KropkiNegative() if kind == "kropki-negative" else XVNegative())
                continue
            drawn: Callable[[Sequence[str]], list[Constraint]] = getattr(self, "_" + kind.replace("-", "_"))
            made += drawn(kinds)
        return made

    def _cells(self, indexes: Iterable[int]) -> tuple[tuple[int, int], ...]:
        return tuple(divmod(i, self.n) for i in indexes)

    def _killer(self, kinds: Sequence[str]) -> list[Constraint]:
        n = self.n
        sizes = (2, 2, 3, 3, 3, 4, 4, 5) if n >= 9 else (2, 2, 3)
        while True:
            cages = _partition(range(n * n), self.s, n, self.rng, sizes)
            if cages is not None:
                return _killers(cages, self.s, n)

    def _little_killer(self, kinds: Sequence[str]) -> list[Constraint]:
        n = self.n
        starts = [(0, c, 1) for c in range(n - 1)] + [(0, c, -1) for c in range(1, n)]
        starts += [(r, 0, 1) for r in range(1, n - 1)] + [(r, n - 1, -1) for r in range(1, n - 1)]
        out: list[Constraint] = []
        for r, c, dc in self.rng.sample(starts, min(len(starts), 4 if n >= 9 else n // 2)):
            line = []
            while 0 <= r < n and 0 <= c < n:
                line.append((r, c))
                r, c = r + 1, c + dc
            out.append(LittleKiller(tuple(line), total=sum(self.s[a * n + b] for a, b in line)))
        return out

    def _sandwich(self, kinds: Sequence[str]) -> list[Constraint]:
        n, s = self.n, self.s
        out: list[Constraint] = []
        for axis, k in self.rng.sample([(a, k) for a in ("row", "column") for k in range(n)], n):
            line = [s[k * n + j] if axis == "row" else s[j * n + k] for j in range(n)]
            a, b = sorted((line.index(1), line.index(n)))
            out.append(Sandwich(axis, k, sum(line[a + 1 : b])))
        return out

    def _steps(self, path: list[int]) -> list[int]:
        """The cells touching the end of ``path`` (orthogonally or diagonally) that no line nor the path holds."""
        n = self.n
        r, c = divmod(path[-1], n)
        near = (a * n + b for a in (r - 1, r, r + 1) for b in (c - 1, c, c + 1) if 0 <= a < n and 0 <= b < n)
        return [j for j in near if j not in self.used and j not in path]

    def _paths(self, count: int, shortest: int, longest: int, ok: Callable[[list[int], int], bool]) -> list[list[int]]:
        """Up to ``count`` paths of orthogonal or diagonal steps on cells no line holds, each step allowed by ``ok``."""
        n, rng = self.n, self.rng
        found: list[list[int]] = []
        for _ in range(count * 20):
            if len(found) == count:
                break
            free = [i for i in range(n * n) if i not in self.used]
            if not free:
                break
            path = [rng.choice(free)]
            goal = rng.randint(shortest, longest)
            while len(path) < goal:
                options = [j for j in self._steps(path) if ok(path, j)]
                if not options:
                    break
                path.append(rng.choice(options))
            if len(path) >= shortest:
                found.append(path)
                self.used |= set(path)
        return found

    def _thermometer(self, kinds: Sequence[str]) -> list[Constraint]:
        s = self.s
        paths = self._paths(self.n - 3, 3, 6, lambda p, j: s[j] > s[p[-1]])
        return [Thermometer(self._cells(p)) for p in paths]

    def _slow_thermometer(self, kinds: Sequence[str]) -> list[Constraint]:
        s = self.s
        paths = self._paths(self.n - 3, 3, 6, lambda p, j: s[j] >= s[p[-1]])
        return [SlowThermometer(self._cells(p)) for p in paths]

    def _renban(self, kinds: Sequence[str]) -> list[Constraint]:
        s = self.s

        def ok(path: list[int], j: int) -> bool:
            digits = {s[i] for i in path} | {s[j]}
            return len(digits) == len(path) + 1 and max(digits) - min(digits) == len(path)

        return [Renban(self._cells(p)) for p in self._paths(self.n // 2, 3, 5, ok)]

    def _whisper(self, kinds: Sequence[str]) -> list[Constraint]:
        s, gap = self.s, self.n // 2 + 1
        paths = self._paths(self.n // 2, 3, 6, lambda p, j: abs(s[j] - s[p[-1]]) >= gap)
        return [Whisper(self._cells(p), difference=gap) for p in paths]

    def _arrow(self, kinds: Sequence[str]) -> list[Constraint]:
        s = self.s
        out: list[Constraint] = []
        for _ in range(self.n * 20):
            if len(out) == self.n - 3:
                break
            circles = [i for i in range(self.n * self.n) if i not in self.used and s[i] >= 3]
            if not circles:
                break
            arrow = self._arrow_from(self.rng.choice(circles), self.rng.randint(2, 3))
            if arrow is not None:
                out.append(arrow)
        return out

    def _arrow_from(self, circle: int, length: int) -> Arrow | None:
        """An arrow of ``length`` cells leaving ``circle`` whose digits sum to its digit, or None."""
        s, rng = self.s, self.rng
        for _ in range(30):
            path = [circle]
            while len(path) <= length:
                room = s[circle] - sum(s[i] for i in path[1:])
                options = [j for j in self._steps(path) if s[j] <= room]
                if not options:
                    break
                path.append(rng.choice(options))
            if len(path) == length + 1 and sum(s[i] for i in path[1:]) == s[circle]:
                self.used |= set(path)
                return Arrow(self._cells(path[:1]), self._cells(path[1:]))
        return None

    def _dots(self, negative: bool, qualifies: Callable[[int, int], str | None]) -> list[tuple[int, int, str]]:
        """The orthogonal pairs (and their mark) that ``qualifies``: every one when ``negative``, else half."""
        marked = [(a, b, m) for a, b in orthogonal_pairs(self.n) if (m := qualifies(self.s[a], self.s[b])) is not None]
        return marked if negative else self.rng.sample(marked, len(marked) // 2)

    def _kropki(self, kinds: Sequence[str]) -> list[Constraint]:
        def mark(x: int, y: int) -> str | None:
            white, black = abs(x - y) == 1, x == 2 * y or y == 2 * x
            if white and black:
                return self.rng.choice(("white", "black"))
            return "white" if white else "black" if black else None

        return [Kropki(m, self._cells((a, b))) for a, b, m in self._dots("kropki-negative" in kinds, mark)]

    def _xv(self, kinds: Sequence[str]) -> list[Constraint]:
        def mark(x: int, y: int) -> str | None:
            return {10: "X", 5: "V"}.get(x + y)

        return [XV(m, self._cells((a, b))) for a, b, m in self._dots("xv-negative" in kinds, mark)]

    def _odd_even(self, kinds: Sequence[str]) -> list[Constraint]:
        n = self.n
        cells = self.rng.sample(range(n * n), n * n // 3)
        return [OddEven(divmod(i, n), "odd" if self.s[i] % 2 else "even") for i in sorted(cells)]
