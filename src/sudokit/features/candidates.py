"""True candidates: for each cell, the digits that some solution puts there, and how many solutions do (up to a cap).

A digit is a true candidate of a cell when at least one solution of the puzzle has it there. Each
(cell, digit) pair is decided by an engine: the puzzle with that digit placed is solved, up to
``cap`` solutions, and every solution found also settles the pairs it holds, so most pairs are never
solved on their own. A variant puzzle (whose solves cost more) with a cap of 1, on an engine that
takes given pencil marks, is solved a cell at a time instead: the cell narrowed to the digits no
solution has shown there yet, until no solution is left. Every call goes through
:func:`sudokit.engines.api.run`, so every solution is checked before it counts; the time limit
bounds the whole job.

    >>> tc = true_candidates("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
    >>> tc.status, tc.digits(2)
    ('solved', (4,))
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any

from sudokit.engines.api import PuzzleLike, as_grid, get_strategy, normalize_time_limit, run
from sudokit.engines.strategy import Result, Status, Strategy, capabilities_of, offers_candidates
from sudokit.errors import InvalidPuzzleError, StrategyError
from sudokit.model.grid import Grid

__all__ = ["MAX_CAP", "TrueCandidates", "candidates", "disagreement", "fastest", "offers_candidates", "true_candidates"]

#: The largest ``cap``: the solutions counted per pair are kept, one set per pair.
MAX_CAP = 1000


@dataclass(frozen=True)
class TrueCandidates:
    """The true candidates of a puzzle.

    ``counts[(cell * n) + digit - 1]`` is the number of solutions with ``digit`` in ``cell`` (cells
    in reading order), capped at ``cap``; 0 where no solution has it. A given's own digit counts the
    puzzle's solutions (capped). ``status`` is ``solved`` (the puzzle has a solution),
    ``unsolvable`` (none: every count is 0), ``timeout`` (the time limit ran out: the counts are those
    found so far, each a lower bound), ``error`` or ``unsupported`` (``error`` says why).
    ``solves`` is how many engine calls it took.
    """

    puzzle: Grid
    strategy: str
    status: str
    cap: int
    counts: tuple[int, ...]
    elapsed: float
    solves: int
    error: str | None = None
    #: The second engine that found the same counts (``candidates(..., check=...)``), else None.
    checked: str | None = None
    #: True when the engine's own ``candidates`` method answered (the fast path), False for the generic one.
    fast: bool = False
    #: The distinct solutions found (each a ``bytes`` of the cells), which the counts are counted from.
    witnesses: tuple[bytes, ...] = field(default=(), repr=False, compare=False)

    def digits(self, cell: int) -> tuple[int, ...]:
        """The true candidates of ``cell`` (an index in reading order), ascending."""
        n = self.puzzle.n
        return tuple(d for d in range(1, n + 1) if self.counts[cell * n + d - 1])

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: puzzle, strategy, status, cap, candidates (a list of digits a cell), counts, and the rest."""
        n = self.puzzle.n
        return {
            "puzzle": self.puzzle.to_line(),
            "strategy": self.strategy,
            "status": self.status,
            "cap": self.cap,
            "candidates": [list(self.digits(cell)) for cell in range(n * n)],
            "counts": list(self.counts),
            "solves": self.solves,
            "elapsed_ms": round(self.elapsed * 1000, 3),
            "error": self.error,
            "checked": self.checked,
            "fast": self.fast,
        }


def true_candidates(
    puzzle: PuzzleLike,
    strategy: str | Strategy = "backtrack",
    *,
    cap: int = 1,
    time_limit: float | None = None,
    box: str | None = None,
    fast: bool = True,
) -> TrueCandidates:
    """The true candidates of ``puzzle`` (any form :func:`sudokit.solve` takes), each counted up to ``cap`` solutions.

    ``strategy`` is a registered name or a Strategy; it runs in this process, each call checked by
    :func:`sudokit.engines.api.run`. An engine with its own ``candidates`` method answers through it
    unless ``fast`` is False (:func:`offers_candidates`). ``time_limit`` (seconds; None, 0: none) bounds
    the whole job.
    Raises ``InvalidPuzzleError`` for a bad puzzle, ``StrategyError`` for an unknown engine and
    ``ValueError`` for a ``cap`` outside 1..``MAX_CAP``.
    """
    if isinstance(cap, bool) or not isinstance(cap, int) or not 1 <= cap <= MAX_CAP:
        raise ValueError(f"cap must be a whole number from 1 to {MAX_CAP}, not {cap!r:.40}")
    grid = as_grid(puzzle, box)
    limit = normalize_time_limit(time_limit)
    engine = get_strategy(strategy)
    name = strategy if isinstance(strategy, str) else str(getattr(engine, "name", type(engine).__name__))
    if fast and offers_candidates(engine):
        return _witnessed(grid, engine, name, cap, limit)
    return _Search(grid, engine, name, cap, limit).run()


def candidates(
    puzzle: PuzzleLike,
    *,
    cap: int = 1,
    strategy: str | Strategy | None = None,
    time_limit: float | None = None,
    check: str | Strategy | None = None,
    box: str | None = None,
) -> TrueCandidates:
    """The true candidates of ``puzzle``: for each cell the digits some solution has there, counted up to ``cap``.

    ``strategy`` is a registered name or a Strategy; None takes ``sat`` when it is installed (its own
    fast method: incremental solving under assumptions), else ``backtrack``. An engine with a
    ``candidates`` method (:func:`offers_candidates`) answers through it, every other through its
    ``solve``; either way every solution it reports is checked before it counts. ``time_limit``
    (seconds; None, 0: none) bounds the whole job: when it runs out the status is ``timeout`` and the
    counts are those found so far. ``check`` names a second engine: it answers the same question on
    the generic path, and a count the two do not agree on makes the status ``error``, naming the cell
    and digit (``checked`` names it when they agree). Raises as :func:`true_candidates` does.

        >>> found = candidates("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
        >>> found.status, found.digits(2), found.strategy
        ('solved', (4,), 'sat')
    """
    if strategy is None:
        strategy = fastest()
    limit = normalize_time_limit(time_limit)
    found = true_candidates(puzzle, strategy, cap=cap, time_limit=limit, box=box)
    if check is None or found.status not in (Status.SOLVED.value, Status.UNSOLVABLE.value):
        return found
    left = None if limit is None else limit - found.elapsed
    if left is not None and left <= 0:
        return replace(found, status=Status.TIMEOUT.value, error="no time was left to check the candidates")
    other = true_candidates(found.puzzle, check, cap=cap, time_limit=left, fast=False)
    if other.status == Status.TIMEOUT.value:
        return replace(found, status=Status.TIMEOUT.value, error=f"{other.strategy} ran out of time checking them")
    if other.status not in (Status.SOLVED.value, Status.UNSOLVABLE.value):
        return replace(found, status=other.status, error=f"{other.strategy} could not check them: {other.error}")
    differ = disagreement(found, other)
    if differ is not None:
        return replace(found, status=Status.ERROR.value, error=differ)
    return replace(found, checked=other.strategy)


def fastest() -> str:
    """The engine :func:`candidates` takes when none is named: ``sat`` when its extra is installed, else backtrack."""
    from sudokit.engines.registry import default_registry

    return "sat" if "sat" in default_registry().ready_names() else "backtrack"


def disagreement(first: TrueCandidates, second: TrueCandidates) -> str | None:
    """None when two engines' true candidates of one puzzle agree; else the first cell and digit they differ on."""
    if first.status != second.status:
        return f"{first.strategy} says {first.status}, {second.strategy} says {second.status}"
    n = first.puzzle.n
    for pair, (a, b) in enumerate(zip(first.counts, second.counts, strict=True)):
        if a != b:
            cell, digit = divmod(pair, n)
            return (
                f"{first.strategy} and {second.strategy} disagree on digit {digit + 1} in row {cell // n + 1}, "
                f"column {cell % n + 1}: {a} solutions against {b}"
            )
    return None


class _Witnessing:
    """An engine's ``candidates`` method seen as a ``solve``, so that :func:`run` checks its witnesses."""

    def __init__(self, engine: Strategy, name: str, cap: int) -> None:
        self.engine, self.name, self.cap = engine, name, cap
        self.description = str(getattr(engine, "description", ""))
        self.capabilities = getattr(engine, "capabilities", None)

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Any:
        return self.engine.candidates(puzzle, cap=self.cap, time_limit=time_limit)  # type: ignore[attr-defined]


def _witnessed(grid: Grid, engine: Strategy, name: str, cap: int, time_limit: float | None) -> TrueCandidates:
    """The true candidates from the witnesses of the engine's own ``candidates`` method, each checked."""
    search = _Search(grid, engine, name, cap, time_limit)
    most = cap * grid.shape.size * grid.n + 1  # a witness a pair, at most cap a pair
    result = run(_Witnessing(engine, name, cap), grid, limit=most, time_limit=time_limit)
    solves = result.stats.get("solves", 1)  # the engine's own count of its solver's calls, when it keeps one
    search.solves = solves if isinstance(solves, int) and solves > 0 else 1
    for solution in result.solutions:
        search.add(bytes(solution.cells))
    found = search.failure(result)
    if found is None:
        found = search.done(result.status.value)
    return replace(found, fast=True)


class _Search:
    """One true-candidates job: the solutions found per (cell, digit) pair, and the pairs settled."""

    def __init__(self, grid: Grid, engine: Strategy, name: str, cap: int, time_limit: float | None) -> None:
        self.grid, self.engine, self.name, self.cap = grid, engine, name, cap
        self.n = grid.n
        self.start = time.perf_counter()
        self.deadline = None if time_limit is None else self.start + time_limit
        self.found: list[set[bytes]] = [set() for _ in range(grid.shape.size * self.n)]
        self.settled = [False] * len(self.found)
        self.solutions: set[bytes] = set()
        self.solves = 0

    def done(self, status: str, error: str | None = None) -> TrueCandidates:
        cap, n, cells = self.cap, self.n, self.grid.cells
        counts = [min(cap, len(sols)) for sols in self.found]
        total = min(cap, len(self.solutions))
        for cell, digit in enumerate(cells):
            if digit:
                counts[cell * n + digit - 1] = total
        if status == Status.UNSOLVABLE.value:
            counts = [0] * len(counts)
        elapsed = time.perf_counter() - self.start
        witnesses = tuple(self.solutions)
        return TrueCandidates(
            self.grid, self.name, status, cap, tuple(counts), elapsed, self.solves, error, witnesses=witnesses
        )

    def solve(self, grid: Grid) -> Any:
        """The checked result of ``grid`` up to ``cap`` solutions, or None when no time is left."""
        left = None if self.deadline is None else self.deadline - time.perf_counter()
        if left is not None and left <= 0:
            return None
        self.solves += 1
        result = run(self.engine, grid, limit=self.cap, keep=self.cap, time_limit=left)
        for solution in result.solutions:
            self.add(bytes(solution.cells))
        return result

    def add(self, cells: bytes) -> None:
        if cells in self.solutions:
            return
        self.solutions.add(cells)
        n, given = self.n, self.grid.cells
        for cell, digit in enumerate(cells):
            if not given[cell]:
                pair = cell * n + digit - 1
                if len(self.found[pair]) < self.cap:
                    self.found[pair].add(cells)

    def run(self) -> TrueCandidates:
        first = self.solve(self.grid)
        failed = self.failure(first)
        if failed is not None:
            return failed
        if first.status is Status.UNSOLVABLE:
            return self.done(Status.UNSOLVABLE.value)
        grid, n, cells = self.grid, self.n, list(self.grid.cells)
        narrows = self.cap == 1 and not grid.is_classic and "pencil-marks" in self.kinds()
        for cell in range(grid.shape.size):
            if cells[cell]:
                continue
            if narrows:
                failed = self.narrowed(cell)
                if failed is not None:
                    return failed
                continue
            seen = {cells[p] for p in grid.shape.peers[cell]}
            for digit in range(1, n + 1):
                pair = cell * n + digit - 1
                if self.settled[pair] or len(self.found[pair]) >= self.cap:
                    continue
                if digit in seen and grid.is_classic:
                    self.settled[pair] = True  # a given in its row, column or box holds it
                    continue
                cells[cell] = digit
                try:
                    placed = grid.with_cells(cells)
                except InvalidPuzzleError:  # a rule of the puzzle refuses the digit there outright
                    placed = None
                cells[cell] = 0
                if placed is not None:
                    result = self.solve(placed)
                    failed = self.failure(result)
                    if failed is not None:
                        return failed
                self.settled[pair] = True  # every solution with it was found (fewer than cap), or cap were
        return self.done(Status.SOLVED.value)

    def kinds(self) -> frozenset[str]:
        """The variant kinds the engine declares (none when its capabilities cannot be read)."""
        try:
            return frozenset(capabilities_of(self.engine).constraints)
        except StrategyError:
            return frozenset()

    def narrowed(self, cell: int) -> TrueCandidates | None:
        """Settle every digit of ``cell`` (a cap of 1): the puzzle with the cell narrowed, as by pencil marks, to
        the digits no solution has shown there yet, solved again until it has no solution. A variant puzzle's
        solve costs more than a classic one's: one solve a cell, and one a digit found, not one a digit.
        """
        from sudokit.model.variants import PencilMarks

        grid, n = self.grid, self.n
        while True:
            left = [d for d in range(1, n + 1) if not self.found[cell * n + d - 1]]
            if not left:
                return None
            marks = PencilMarks((cell // n, cell % n), tuple(left))
            regions = grid.regions if grid.jigsaw else None
            try:
                narrowed = Grid(grid.cells, grid.shape, regions=regions, constraints=(*grid.constraints, marks))
            except InvalidPuzzleError:  # the puzzle's own rules refuse every digit left there
                return None
            result = self.solve(narrowed)
            failed = self.failure(result)
            if failed is not None or result.status is Status.UNSOLVABLE:
                return failed

    def failure(self, result: Any) -> TrueCandidates | None:
        """The job's end when ``result`` is no answer: out of time (None or a timeout), or an engine's failure."""
        if result is None or result.status is Status.TIMEOUT:
            return self.done(Status.TIMEOUT.value, "the time limit ran out before every candidate was decided")
        if result.status in (Status.ERROR, Status.UNSUPPORTED):
            return self.done(result.status.value, result.error)
        return None


# --- `sudoku candidates`: a batch job whose workers find the candidates and whose caller checks them -------------


def pencil_marks(found: TrueCandidates) -> str:
    """The grid with each blank's true candidates: ``sudoku candidates -f pretty``.

    A given is its digit; a blank its candidates' symbols (``-`` for none), where with a ``cap`` above 1
    a candidate found in fewer than ``cap`` solutions carries its count in brackets (``379(1)``). Every
    column is as wide as its widest cell, boxes are set apart by ``|`` and a rule of ``-``.
    """
    from sudokit.model.formats import symbol

    grid, n = found.puzzle, found.puzzle.n
    shape = grid.shape
    texts = []
    for cell in range(n * n):
        if grid.cells[cell]:
            texts.append(symbol(grid.cells[cell], n).strip())
            continue
        marks = []
        for d in found.digits(cell):
            count = found.counts[cell * n + d - 1]
            marks.append(symbol(d, n).strip() + (f"({count})" if count < found.cap else ""))
        texts.append("".join(marks) or "-")
    widths = [max(len(texts[r * n + c]) for r in range(n)) for c in range(n)]
    lines = []
    for r in range(n):
        if r and r % shape.box_rows == 0:
            boxes = range(0, n, shape.box_cols)
            lines.append("+".join("-" * (sum(widths[g : g + shape.box_cols]) + shape.box_cols + 1) for g in boxes))
        groups = [
            " " + " ".join(texts[r * n + c].ljust(widths[c]) for c in range(g, g + shape.box_cols)) + " "
            for g in range(0, n, shape.box_cols)
        ]
        lines.append("|".join(groups).rstrip())
    return "\n".join(lines)


def pencil_line(found: TrueCandidates) -> str:
    """The candidates of each cell, in reading order, separated by ``,`` (``sudoku candidates -f line``)."""
    from sudokit.model.formats import symbol

    n = found.puzzle.n
    return ",".join("".join(symbol(d, n).strip() for d in found.digits(cell)) for cell in range(n * n))


@dataclass(frozen=True)
class CandidatesFormat:
    """Renders one record of ``sudoku candidates``: the outcome of its puzzle, and its candidates when found.

    ``pretty``: the pencil-marked grid (:func:`pencil_marks`; after ``# source:line`` in a batch);
    ``line``: ``puzzle:candidates`` (:func:`pencil_line`); ``json``: :meth:`TrueCandidates.to_dict` with
    the record's ``source`` and ``line``. A puzzle without candidates (invalid, unsolvable, timed out,
    failed) is rendered as ``sudoku solve`` renders its failure, and in json with its status and
    ``error`` (``candidates`` and ``counts`` null, or the lower bounds found before a timeout).
    Duck-types :class:`sudokit.runtime.output.RecordFormat` for :class:`CandidatesJob`.
    """

    fmt: str = "pretty"
    header: bool = False
    counting: bool = False
    limit: int = 1
    unique: bool = False

    def first_line(self) -> str | None:
        return None

    def __call__(self, outcome: Any, found: TrueCandidates | None = None) -> Any:
        import json

        from sudokit.runtime.output import RecordFormat, Rendered, heading

        base = RecordFormat("line" if self.fmt == "line" else self.fmt, header=self.header)
        rendered = base(outcome)
        if self.fmt == "json":
            data: dict[str, Any] = {
                "puzzle": outcome.puzzle_text,
                "strategy": None if outcome.result is None else outcome.result.strategy,
                "status": outcome.status,
                "cap": None,
                "candidates": None,
                "counts": None,
                "solves": 0,
                "elapsed_ms": 0.0,
                "error": outcome.error,
                "checked": None,
                "fast": False,
            }
            if found is not None:
                data.update(found.to_dict(), puzzle=outcome.puzzle_text, status=outcome.status, error=outcome.error)
            data.update(source=outcome.record.source, line=outcome.record.line)
            text = json.dumps(data, allow_nan=False)
        elif found is None or outcome.status != Status.SOLVED.value:
            return rendered
        elif self.fmt == "line":
            text = f"{outcome.puzzle_text}:{pencil_line(found)}"
        else:
            parts = [heading(outcome.index, outcome.record)] if self.header else []
            text = "\n".join([*parts, pencil_marks(found)])
        return Rendered(rendered.index, rendered.status, text, rendered.messages, rendered.note, rendered.answer)


#: What a worker sends back for one puzzle: status, error, solves, elapsed, fast, and the witnesses (solutions).
_Plain = tuple[str, str | None, int, float, bool, list[bytes]]


class CandidatesTask:
    """The true candidates of each ``(index, record)`` item, found in a worker, checked and rendered in the caller.

    The worker runs :func:`true_candidates` and sends back its status and its witnesses, the distinct
    solutions it found, as plain data; the caller checks each witness against its own parse of the
    record (:func:`sudokit.engines.verify.solution_problem`) and counts the candidates from them, so
    that nothing the engine's process does can put a digit in the output that no checked solution has.
    """

    def __init__(self, job: Any) -> None:
        from sudokit.runtime.batch import SolveTask

        self.cap = job.cap
        self.base = SolveTask(job.strategy, {}, 1, None, job.time_limit, job.box, job.render)

    def __getattr__(self, name: str) -> Any:  # budget, budget_of, part_budget, split, join, failed...
        if name == "base":  # not set yet (unpickling): no recursion
            raise AttributeError(name)
        return getattr(self.base, name)

    def start(self, mark: Any) -> Any:
        engine = get_strategy(self.base.strategy)
        box, cap, time_limit = self.base.box, self.cap, self.base.time_limit

        def answer_item(item: tuple[int, Any]) -> _Plain | None:
            try:
                grid = item[1].parse(box)
            except InvalidPuzzleError:
                return None  # the caller parses it too, and says why
            found = true_candidates(grid, engine, cap=cap, time_limit=time_limit)
            return (found.status, found.error, found.solves, found.elapsed, found.fast, list(found.witnesses))

        answer_item.info = {"many": False}  # type: ignore[attr-defined]
        return answer_item

    def finish(self, item: tuple[int, Any], answer: Any) -> Any:
        from sudokit.engines.api import FAILED
        from sudokit.runtime.records import Outcome

        index, record = item
        if type(answer) is tuple and len(answer) == 2 and answer[0] == FAILED and type(answer[1]) is str:
            return self.base.finish(item, answer)  # the worker died or was killed: an error record
        grid = self.base._grid(record)
        if isinstance(grid, str):
            return self.base.render(Outcome(index, record, invalid=grid))
        found = self.checked(grid, answer)
        failed = None if found.status in (Status.SOLVED.value, Status.UNSOLVABLE.value) else found.error
        result = Result(Status(found.status), grid, self.base.name, elapsed=found.elapsed, error=failed)
        render: Any = self.base.render
        return render(Outcome(index, record, grid, result), found)

    def checked(self, grid: Grid, answer: Any) -> TrueCandidates:
        """The candidates of ``grid`` counted from the worker's witnesses, each checked here; an error if any is not."""
        from sudokit.engines.verify import solution_problem

        name = self.base.name
        search = _Search(grid, None, name, self.cap, None)  # type: ignore[arg-type]
        try:
            status, error, solves, elapsed, fast, witnesses = answer
            statuses = {s.value for s in Status}
            if status not in statuses or not isinstance(witnesses, list):
                raise ValueError("an answer of the wrong form")
            if (status == "solved" and not witnesses) or (status == "unsolvable" and witnesses):
                raise ValueError(f"status {status} with {len(witnesses)} solutions")
            for k, cells in enumerate(witnesses, 1):
                problem = solution_problem(grid, Grid(tuple(cells), grid.shape, validate=False))
                if problem is not None:
                    return search.done("error", f"strategy {name!r} failed: witness {k}: {problem}")
                search.add(bytes(cells))
        except (TypeError, ValueError) as err:
            return search.done("error", f"strategy {name!r} failed: returned {err}")
        search.solves = solves if type(solves) is int else 0
        found = search.done(status, error if isinstance(error, str) else None)
        return replace(found, elapsed=elapsed if type(elapsed) is float else 0.0, fast=fast is True)


def candidates_job(strategy: str, render: CandidatesFormat, *, cap: int, time_limit: float | None, box: Any) -> Any:
    """``sudoku candidates`` as a batch job (:class:`sudokit.runtime.session.Session`): one record per input."""
    from sudokit.runtime.batch import SolveJob

    class CandidatesJob(SolveJob):
        @property
        def blocks(self) -> bool:
            return False  # each puzzle goes alone: no engine's solve_many finds candidates

        def task(self) -> Any:
            return CandidatesTask(self)

    job = CandidatesJob(strategy, {}, render, time_limit=time_limit, box=box)  # type: ignore[arg-type]
    job.cap = cap  # type: ignore[attr-defined]
    return job
