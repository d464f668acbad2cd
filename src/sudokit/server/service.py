"""The service core of ``sudoku serve``: warm engines in killable workers, a bounded number of jobs at once.

Every job (a solve, a count, a cross-check, true candidates, a hint, an explanation, a rating, a
generation) is a :class:`Job` run by :class:`ServiceTask` in a worker process of
:mod:`sudokit.engines.workers`, the isolation the command line uses. The service keeps ``jobs``
pools of one worker each (its *lanes*); each worker loads the engines once, when it starts, and
then serves job after job, so a request pays neither the import nor numba's compilation. A job that
runs past its budget, crashes its worker or is cancelled (a WebSocket's new message, a client gone)
has its worker killed (the pool's own time limit: the job's budget drops to 0 when it is cancelled),
and the lane loads a new one at once. At most ``jobs`` jobs run at a time and at most ``queue`` wait;
one more is refused (:class:`BusyError`), never queued without bound.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from sudokit.engines.api import answer_of, get_strategy, result_of, run, watchdog_seconds
from sudokit.engines.registry import default_registry
from sudokit.engines.strategy import Capabilities, Result, Status, Strategy, capabilities_of
from sudokit.engines.watchdog import KILL_GRACE
from sudokit.engines.workers import WorkerPool
from sudokit.errors import StrategyError, StrategyLoadError, SudokitError
from sudokit.io.records import Record
from sudokit.model.grid import Grid
from sudokit.runtime.output import SHOWN_AT_MOST, RecordFormat
from sudokit.runtime.records import Outcome

__all__ = [
    "DEFAULT_PORT",
    "KINDS",
    "NUMBA_FIRST_UP_TO",
    "PREFERENCE",
    "SOURCE",
    "BusyError",
    "EngineInfo",
    "Job",
    "ServerConfig",
    "Service",
    "ServiceTask",
]

#: The port f-puzzles' solver script connects to.
DEFAULT_PORT = 4545
#: What a job does.
KINDS = ("solve", "count", "check", "candidates", "hint", "explain", "rate", "generate", "logic")
#: The engines tried in this order for a puzzle when the server has no ``--strategy``: the first that
#: takes the puzzle's rules and board runs it (the fastest on classic boards first; cp-sat takes every kind).
PREFERENCE = ("backtrack", "numba", "cp-sat", "sat", "python-constraint")
#: Boards up to this side go to numba first, warm in the workers (its 1.3 s load paid once): a classic 9x9
#: costs it 0.09-0.20 ms of CPU a solve where the backtracker takes 0.4-2.4 ms, and 0.4 ms a count to 10000
#: where it takes 14 ms. Bigger boards keep PREFERENCE's order (the backtracker's look-ahead and clause learning).
NUMBA_FIRST_UP_TO = 9
#: The ``source`` of a record made from a request (``sudoku solve`` writes ``<argument>`` for its own).
SOURCE = "<request>"
#: A tiny puzzle each engine solves as its worker starts: numba compiles (or loads its cache) then, not on a request.
_WARM_UP = "1..............."
#: A hint's fields when the puzzle is complete (``sudoku hint -f json`` writes the same).
_NO_STEP: dict[str, list[Any]] = {"cells": [], "digits": [], "placements": [], "eliminations": []}


class BusyError(SudokitError):
    """Every lane is busy and the queue is full: the job is refused (HTTP 429)."""


@dataclass(frozen=True)
class ServerConfig:
    """What ``sudoku serve`` was started with."""

    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    #: The engine of every job (None: per puzzle, the first of :data:`PREFERENCE` that takes it).
    strategy: str | None = None
    #: Cross-check every solve and count with a second engine before it is sent.
    check: bool = False
    #: The most seconds a job may take, and a job's time limit unless it asks for less.
    time_limit: float = 60.0
    #: Jobs run at once (each in its own worker process).
    jobs: int = 1
    #: Jobs that may wait for a free worker; one more is refused.
    queue: int = 32
    #: The largest request body (HTTP) or message (WebSocket), in bytes.
    max_bytes: int = 1 << 20
    #: More origins allowed on the WebSocket besides f-puzzles', SudokuPad's and the server's own.
    allow_origins: tuple[str, ...] = ()
    #: The engines the workers load (None: every installed one that loads).
    engines: tuple[str, ...] | None = None


@dataclass(eq=False)
class Job:
    """One piece of work for a worker: ``kind`` (one of :data:`KINDS`) on ``grid`` with ``strategy``.

    ``options`` holds what the kind needs besides (a cap, a second engine, generation's settings).
    ``cancelled`` is set in the server's process only: the pool then kills the worker running it.
    """

    kind: str
    grid: Grid | None
    strategy: str
    limit: int = 1
    time_limit: float = 60.0
    options: dict[str, Any] = field(default_factory=dict)
    cancelled: bool = False

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "cancelled"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state, cancelled=False)


@dataclass(frozen=True)
class EngineInfo:
    """An engine as the server's workers loaded it: whether it did, its description and capabilities, or why not."""

    name: str
    loaded: bool
    description: str | None
    capabilities: Capabilities | None
    error: str | None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (``GET /strategies``): name, loaded, description, kinds, max_side, counting, error."""
        caps = self.capabilities
        return {
            "name": self.name,
            "loaded": self.loaded,
            "description": self.description,
            "kinds": None if caps is None else sorted(caps.constraints),
            "max_side": None if caps is None else caps.max_side,
            "counting": None if caps is None else caps.counting,
            "error": self.error,
        }


class ServiceTask:
    """The worker-pool task of the service (:class:`sudokit.engines.workers.Task`): any :class:`Job`, engines warm.

    Each worker loads ``engines`` as it starts and solves a small puzzle with each (so numba has
    compiled before the first request); a job's result is plain data (see :func:`answer`).
    """

    budget: float | None = None  #: no job-wide budget: each job has its own (``budget_of``)

    def __init__(self, engines: tuple[str, ...]) -> None:
        self.engines = engines
        #: Engines that ended or hung a worker as it loaded them, and how: left out of the workers started since.
        self.dropped: dict[str, str] = {}

    def budget_of(self, job: Job) -> float | None:
        """Seconds ``job`` may run before its worker is killed: 0 once it is cancelled."""
        if job.cancelled:
            return 0.0
        rounds = len(job.options.get("engines", ())) or 1  # a cross-check runs its engines one after another
        if job.options.get("check"):
            rounds = 2
        return rounds * watchdog_seconds(job.time_limit) + KILL_GRACE

    def start(self, mark: Callable[[int], None]) -> Callable[[Job], Any]:
        """Load and warm every engine (in the worker); the function that runs one job.

        Its ``info`` (the pool's, once a worker is ready) is each engine's ``EngineInfo``: an engine
        that raises as it loads or fails its warm-up is left out, with why.
        """
        loaded: dict[str, Strategy] = {}
        info: dict[str, EngineInfo] = {}
        warm = Grid.parse(_WARM_UP)
        for phase, name in enumerate(self.engines):
            if name in self.dropped:
                info[name] = EngineInfo(name, False, None, None, self.dropped[name])
                continue
            mark(phase)
            try:
                engine = get_strategy(name)
                caps = capabilities_of(engine)
                result = run(engine, warm, limit=2, time_limit=30.0)
            except Exception as err:  # an engine that cannot load: the server goes on without it
                info[name] = EngineInfo(name, False, None, None, " ".join(str(err).split()) or type(err).__name__)
                continue
            if result.status is not Status.SOLVED:
                info[name] = EngineInfo(name, False, None, None, f"its warm-up solve failed: {result.error}")
                continue
            loaded[name] = engine
            description = str(getattr(engine, "description", ""))
            info[name] = EngineInfo(name, True, description, caps, None)

        def engine_of(name: str) -> Strategy:
            if name not in loaded:
                raise StrategyError(f"strategy {name!r} is not loaded in this server")
            return loaded[name]

        def answer(job: Job) -> Any:
            return _answer(job, engine_of)

        answer.info = info  # type: ignore[attr-defined]
        return answer

    def failed(self, job: Job, problem: str) -> tuple[str, str]:
        """A job whose worker died or was killed: ``("failed", why)``."""
        return ("failed", problem)

    def load_failed(self, phase: int, problem: str) -> bool:
        """An engine killed or hung a worker as it loaded or warmed up: the workers go on without it.

        Noted here, in the server's process, so that every worker forked from now on leaves it out (and
        says why in its ``info``); the same engine failing again, or a phase that is no engine, stops.
        """
        if not 0 <= phase < len(self.engines) or self.engines[phase] in self.dropped:
            raise StrategyLoadError(f"the server's workers cannot load their engines: {problem}")
        self.dropped[self.engines[phase]] = f"it ended its worker as it loaded: {problem}"
        return True


def _answer(job: Job, engine_of: Callable[[str], Strategy]) -> Any:
    """What a worker sends back for ``job``: plain data (an engine's ``Answer``, dicts, strs)."""
    grid, limit, time_limit = job.grid, job.limit, job.time_limit
    if job.kind == "generate":
        return _generated(job, engine_of(job.strategy))
    assert grid is not None  # every other kind has a puzzle
    if job.kind in ("solve", "count"):
        keep = _keep(job.kind == "count", limit)
        result = run(engine_of(job.strategy), grid, limit=limit, keep=keep, time_limit=time_limit)
        second = job.options.get("check")
        if not second or result.status not in (Status.SOLVED, Status.UNSOLVABLE):
            return answer_of(result), None
        other = run(engine_of(second), grid, limit=limit, keep=keep, time_limit=time_limit)
        return answer_of(result), answer_of(other)
    if job.kind == "check":
        from sudokit.features.crosscheck import cross_check

        report = cross_check(grid, list(job.options["engines"]), count=limit > 2, limit=limit, time_limit=time_limit)
        return report.to_dict()
    if job.kind == "candidates":
        from sudokit.features.candidates import candidates

        second = job.options.get("check")
        found = candidates(
            grid,
            strategy=engine_of(job.strategy),
            cap=job.options.get("cap", 1),
            time_limit=time_limit,
            check=engine_of(second) if second else None,
        )
        return {**found.to_dict(), "strategy": job.strategy, "checked": second if found.checked else None}
    if job.kind in ("hint", "explain"):
        engine_of(job.strategy)  # loaded here: an engine the server has not is refused as for the other jobs
        return _logic(job)
    if job.kind == "rate":
        return _rating(job, engine_of(job.strategy))
    if job.kind == "logic":
        from sudokit.server.logical import logical_answer

        marks, disabled = job.options.get("marks", {}), job.options.get("disabled", ())
        return logical_answer(grid, marks, step=bool(job.options.get("step")), disabled=disabled)
    raise ValueError(f"no job of kind {job.kind!r}")


def _logic(job: Job) -> Any:
    """A hint (the next step) or the whole rated path, as ``sudoku hint``/``explain -f json`` write them.

    ``("ok", data)``, or ``sudoku hint``'s failures: ``("refused" | "timeout" | "error", why)``.
    """
    from sudokit.features.logic import step_dict
    from sudokit.features.rating import LogicTask

    grid = job.grid
    assert grid is not None
    task = LogicTask(job.kind == "explain", job.time_limit, job.strategy, job.options.get("disabled", ()))
    kind, answer = task.start(lambda phase: None)(grid)
    if kind == "step" and answer is None:
        return "ok", {"technique": None, **_NO_STEP, "explanation": "the puzzle is already complete"}
    if kind == "step":
        return "ok", step_dict(answer, grid.n)
    if kind == "path":
        path, rating = answer
        return "ok", {"steps": [step_dict(s, grid.n, k) for k, s in enumerate(path, 1)], "rating": rating.to_dict()}
    return kind, answer


def _rating(job: Job, engine: Strategy) -> dict[str, Any]:
    """The record ``sudoku rate -f json`` writes: the count to 2, then the rating fields."""
    from sudokit.features.rating import RateFormat

    grid = job.grid
    assert grid is not None
    result = run(engine, grid, limit=2, keep=1, time_limit=job.time_limit)
    outcome = Outcome(0, Record(job.options.get("text", grid.to_line()), SOURCE), grid, result)
    rendered = RateFormat("json", time_limit=job.time_limit, strategy=job.strategy)(outcome)
    data: dict[str, Any] = json.loads(rendered.text)
    return data


def _generated(job: Job, engine: Strategy) -> Any:
    """Puzzles as ``sudoku generate -f json`` makes them: puzzle k of seed s from ``puzzle_seed(s, k)``.

    With ``rules`` or ``template`` (``sudoku generate --rules``, ``--template``) they are variant puzzles,
    each record's ``puzzle`` the puzzle's JSON form (rules included) and ``link`` its f-puzzles link.
    ``("refused", why)`` when the options cannot make a puzzle (an engine that does not take the rules).
    """
    from sudokit.features.generation import PuzzleStream, generate, puzzle_seed

    options = job.options
    seed, count, shape = options["seed"], options["count"], options["box"]
    rules, template, no_givens = options.get("rules"), options.get("template"), options.get("no_givens", False)
    variant = rules is not None or template is not None
    deadline = time.monotonic() + job.time_limit
    made: list[dict[str, Any]] = []
    for index in range(1, count + 1):
        left = deadline - time.monotonic()
        settings: dict[str, Any] = {
            "count": 1,
            "seed": puzzle_seed(seed, index),
            "symmetry": options["symmetry"],
            "minimal": options["minimal"],
            "level": options["level"],
            "engine": engine,
            "time_limit": max(left, 0.001),
        }
        stream: PuzzleStream
        try:
            if variant:
                from sudokit.features.variant_generation import generate_variants

                stream = generate_variants(shape, rules=rules, template=template, no_givens=no_givens, **settings)
            else:
                stream = generate(shape, **settings)
            puzzle = next(stream, None) if left > 0 else None
        except ValueError as err:
            return ("refused", str(err))
        except SudokitError as err:
            return {"status": "error", "seed": seed, "puzzles": made, "error": " ".join(str(err).split())}
        if puzzle is None:
            why = f"{len(made)} of {count} puzzles made within the time limit of {job.time_limit:g} s"
            return {"status": "timeout", "seed": seed, "puzzles": made, "error": why}
        solution, rating = stream.solution, stream.rating
        record: dict[str, Any] = {
            "index": index,
            "seed": seed,
            "puzzle_seed": puzzle_seed(seed, index),
            "box": str(puzzle.shape),
            "puzzle": puzzle.to_line(),
            "solution": None if solution is None else solution.to_line(),
            "givens": puzzle.count_givens(),
            "level": None if rating is None else str(rating.level),
            "score": None if rating is None else rating.score,
            "attempts": stream.attempts,
            "symmetry": options["symmetry"],
            "minimal": options["minimal"],
        }
        if variant:  # as `sudoku generate --rules ... -f json` writes it, and the link a browser opens
            from sudokit.io.links import fpuzzles_link
            from sudokit.model.variants import to_dict

            kinds = sorted(template.kinds if template is not None else rules or ())
            record.update(puzzle=to_dict(puzzle), rules=kinds, no_givens=no_givens)
            record["link"] = fpuzzles_link(puzzle, solution)
        made.append(record)
    return {"status": "made", "seed": seed, "puzzles": made, "error": None}


class Service:
    """The lanes (a pool of one warm worker each), the queue before them, and what the engines take.

    The engines are ``config.engines`` (None: every installed one); ``infos`` says, once the lanes have
    started, which loaded and what each takes: their capabilities choose the engine of a puzzle when
    the server has no ``--strategy``.
    """

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        names = config.engines or tuple(info.name for info in default_registry().info())
        self.task = ServiceTask(tuple(names))
        self.pools = [WorkerPool(self.task, 1) for _ in range(config.jobs)]
        self.infos: dict[str, EngineInfo] = {}
        self.engines: tuple[str, ...] = ()
        self.free: asyncio.Queue[WorkerPool[Job, Any]] | None = None
        self.threads = ThreadPoolExecutor(max_workers=config.jobs, thread_name_prefix="sudokit-lane")
        self.waiting = 0
        self.running = 0
        self.served = 0

    def start(self) -> None:
        """Start every lane's worker and wait until each has loaded the engines.

        Raises ``StrategyError`` when no engine loaded, or the server's ``--strategy`` did not.
        """
        # Started from the lanes' own threads, which live as long as the service: a worker gets SIGKILL when the
        # thread that forked it ends (PR_SET_PDEATHSIG is bound to that thread), so not from a passing one.
        for started in [self.threads.submit(pool.start) for pool in self.pools]:
            started.result()
        self.infos = dict(self.pools[0].info or {})
        self.engines = tuple(name for name, info in self.infos.items() if info.loaded)
        if not self.engines:
            problems = "; ".join(f"{info.name}: {info.error}" for info in self.infos.values())
            raise StrategyError(f"no engine loaded ({problems or 'none installed'})")
        strategy = self.config.strategy
        if strategy is not None and strategy not in self.engines:
            why = self.infos[strategy].error if strategy in self.infos else "no such engine"
            raise StrategyError(f"--strategy {strategy}: it did not load ({why})")

    def close(self) -> None:
        """Kill every worker (a job still running ends with them)."""
        for pool in self.pools:
            pool.close(kill=True)
        self.threads.shutdown(wait=False, cancel_futures=True)

    def takes(self, name: str, grid: Grid) -> str | None:
        """Why engine ``name`` does not take ``grid`` (its rules, its board), or None when it does."""
        info = self.infos.get(name)
        caps = None if info is None else info.capabilities
        if caps is None:
            return None
        lacking = caps.unsupported_kinds(grid)
        if lacking:
            return f"strategy {name!r} does not support {', '.join(lacking)}"
        problem = caps.shape_problem(grid.shape)
        return None if problem is None else f"strategy {name!r} {problem}"

    def engine_for(self, grid: Grid | None, asked: str | None = None, *, candidates: bool = False) -> str:
        """The engine of a job: ``asked``, else the server's ``--strategy``, else the first of PREFERENCE that takes it.

        On boards up to :data:`NUMBA_FIRST_UP_TO` numba goes first, when the workers loaded it.

        True candidates (``candidates``) go to sat first, whose own method answers them by incremental
        solving (2-10 ms a classic 9x9, 0.25 s at most on the variant corpus: benchmarks/bench_candidates.py),
        and without it a variant puzzle's to cp-sat: most of their solves prove that no solution is left,
        where the backtracker's variant search can take a hundred times longer than its first solution.
        Raises ``StrategyError`` for an engine the server has not loaded.
        """
        name = asked or self.config.strategy
        if name is not None:
            if name not in self.engines:
                raise StrategyError(f"unknown strategy {name!r}: this server runs {', '.join(self.engines)}")
            return name
        order = [e for e in PREFERENCE if e in self.engines] + [e for e in self.engines if e not in PREFERENCE]
        if not candidates and grid is not None and grid.n <= NUMBA_FIRST_UP_TO and "numba" in order:
            order = ["numba", *(e for e in order if e != "numba")]
        if candidates and grid is not None:
            first = [e for e in ("sat", "cp-sat") if e in order and (e == "sat" or not grid.is_classic)]
            order = first + [e for e in order if e not in first]
        if grid is not None:
            for candidate in order:
                if self.takes(candidate, grid) is None:
                    return candidate
        return order[0]

    def generator_for(self, asked: str | None, template: Grid | None) -> str:
        """The engine that counts a variant generation's puzzles: ``asked``, else the server's ``--strategy``, else the
        first of ``sudoku generate``'s own order (:data:`~sudokit.features.variant_generation.VARIANT_ENGINES`)
        that the workers loaded and that takes ``template`` (so the same seed makes the command's puzzles).
        """
        from sudokit.features.variant_generation import VARIANT_ENGINES

        if asked or self.config.strategy:
            return self.engine_for(template, asked)
        for name in VARIANT_ENGINES:
            if name in self.engines and (template is None or self.takes(name, template) is None):
                return name
        return self.engine_for(template)

    def checker_for(self, grid: Grid, first: str) -> str | None:
        """The second engine of ``--check`` (None without it): the first other loaded engine that takes ``grid``."""
        if not self.config.check:
            return None
        order = [e for e in PREFERENCE if e in self.engines] + [e for e in self.engines if e not in PREFERENCE]
        for candidate in order:
            if candidate != first and self.takes(candidate, grid) is None:
                return candidate
        return None

    def time_limit(self, asked: object) -> float:
        """A job's time limit: what it asks for (seconds, > 0), capped by the server's; the server's if none."""
        cap = self.config.time_limit
        if asked is None or asked == 0:
            return cap
        if isinstance(asked, bool) or not isinstance(asked, int | float) or not asked > 0:
            raise ValueError(f"time_limit must be a positive number of seconds, not {asked!r:.40}")
        return min(float(asked), cap)

    async def run(self, job: Job) -> Any:
        """The plain answer of ``job`` from a lane's worker: ``("failed", why)`` when the worker died or was killed.

        Raises :class:`BusyError` when the queue is full. Cancelling the caller cancels the job: its
        worker is killed, and the lane gets a new one before it takes another job.
        """
        if self.free is None:
            self.free = asyncio.Queue()
            for pool in self.pools:
                self.free.put_nowait(pool)
        free = self.free
        if self.waiting >= self.config.queue and free.empty():
            raise BusyError(f"the server is busy: {self.config.jobs} jobs running and {self.waiting} waiting")
        self.waiting += 1
        try:
            pool = await free.get()
        finally:
            self.waiting -= 1
        self.running += 1
        future = asyncio.get_running_loop().run_in_executor(self.threads, _run_in_lane, pool, job)

        def back(_: object) -> None:
            self.running -= 1
            self.served += 1
            free.put_nowait(pool)

        future.add_done_callback(back)
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            job.cancelled = True  # the pool kills its worker within a few tens of milliseconds
            raise

    async def solve(self, grid: Grid, strategy: str, *, limit: int, time_limit: float, text: str) -> dict[str, Any]:
        """The record of ``sudoku solve -f json`` (``--count`` when ``limit`` is above 1 and ``counting``)."""
        return await self._solved(grid, strategy, limit=limit, time_limit=time_limit, text=text, counting=False)

    async def count(self, grid: Grid, strategy: str, *, limit: int, time_limit: float, text: str) -> dict[str, Any]:
        """The record of ``sudoku solve --count -f json``."""
        return await self._solved(grid, strategy, limit=limit, time_limit=time_limit, text=text, counting=True)

    async def result(self, grid: Grid, strategy: str, *, limit: int, time_limit: float, counting: bool) -> Result:
        """The checked result of one engine on ``grid`` (cross-checked with ``--check``)."""
        checker = self.checker_for(grid, strategy) if self.config.check else None
        kind = "count" if counting else "solve"
        job = Job(kind, grid, strategy, limit, time_limit, {"check": checker} if checker else {})
        answer = await self.run(job)
        keep = _keep(counting, limit)
        if type(answer) is tuple and answer[:1] == ("failed",):
            problem = str(answer[1])
            if problem.startswith("still running"):
                problem = f"{problem} (time limit {time_limit:g} s)"
            error = " ".join(f"strategy {strategy!r} failed: {problem}".split())
            return Result(Status.ERROR, grid, strategy, error=error)
        first, second = answer
        result = result_of(first, grid, strategy, limit=limit, keep=keep)
        if second is None or checker is None:
            return result
        other = result_of(second, grid, checker, limit=limit, keep=keep)
        disagreement = _disagreement(result, other)
        if disagreement is None:
            return result
        return Result(Status.ERROR, grid, strategy, elapsed=result.elapsed, error=disagreement)

    async def _solved(
        self, grid: Grid, strategy: str, *, limit: int, time_limit: float, text: str, counting: bool
    ) -> dict[str, Any]:
        result = await self.result(grid, strategy, limit=limit, time_limit=time_limit, counting=counting)
        outcome = Outcome(0, Record(text, SOURCE), grid, result)
        return RecordFormat("json", counting=counting, limit=limit).to_dict(outcome)


def _keep(counting: bool, limit: int) -> int:
    """How many solutions a solve keeps (its record lists up to ``SHOWN_AT_MOST``); a count keeps one."""
    return 1 if counting else min(limit, SHOWN_AT_MOST)


def _disagreement(first: Result, second: Result) -> str | None:
    """Why two engines' checked answers to the same question cannot both be right, or None when they agree."""
    if not {first.status, second.status} <= {Status.SOLVED, Status.UNSOLVABLE}:
        return None  # the second timed out or failed: the first's checked answer stands
    if first.status is second.status and (first.count == second.count or not (first.exact or second.exact)):
        return None  # the same count, or both stopped at the limit
    return (
        f"--check: strategy {first.strategy!r} found {first.count} solution(s) ({first.status.value}), "
        f"{second.strategy!r} found {second.count} ({second.status.value}): the engines disagree"
    )


def _run_in_lane(pool: WorkerPool[Job, Any], job: Job) -> Any:
    """Run ``job`` in ``pool``'s worker (in a lane's thread); then see that the lane has a loaded worker again."""
    try:
        [answer] = pool.map([job])
    finally:
        with contextlib.suppress(SudokitError):
            pool.start()  # a worker killed on the job: its successor loads the engines now, not on the next job
    return answer
