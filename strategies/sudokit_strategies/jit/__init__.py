"""``numba``: a 9x9 bit-board search and ``backtrack``'s search, compiled by numba (the extra ``sudokit[jit]``).

On 9x9 boards the default is a bit board (:func:`.kernels._search9`): one 27-bit word per digit and
band of three rows, box-line interaction in bands and stacks by the triad patterns they allow, triads
filled, naked and hidden singles, a guess on a cell of two candidates (ideas from tdoku's write-up
and from JCZSolve as it describes it). It gives ``backtrack``'s answers (counts, exactness, the
solutions) but not its nodes, nor the same first of several solutions; uniqueness takes about 2-3x
tdoku's time.

Every other board has ``backtrack``'s algorithm for classic boards, node for node: candidates as bit
masks, a used mask per row, column and box, naked and hidden singles to a fixed point, then a guess on
the first cell of fewest candidates, digits in increasing order. Boards of 16x16 and more add, as
``backtrack`` does, locked candidates and a look-ahead on the cells of two candidates (failed literals;
the guess is on the cell whose two tries removed the most). Both engines visit the same nodes and find
the same first solution; this one spends about a twentieth of the time on each (100x on the 25x25
boards). Boards up to 64x64 (uint64 masks), counting and time limits; no variant rules.

Option (``-o inference=...``, as ``backtrack``'s): ``auto`` (the default: the two extra steps from
16x16 up, the bit board on 9x9), ``singles`` (never; on 9x9 ``backtrack``'s search node for node, not
the bit board) or ``strong`` (on every board). Any other option is refused.

Besides ``solve`` it offers ``solve_many`` (sudokit's batch protocol, :class:`sudokit.ManyResults`): a
chunk of puzzles of one box shape solved in one compiled call, with a time limit for each puzzle.

The compiled kernel (:mod:`.kernels`) is cached on disk, so only the first run on
a machine pays the compile (5-10 s; a later process loads it in under a second): in ``$NUMBA_CACHE_DIR``
when set, else in ``$XDG_CACHE_HOME/sudokit/numba`` (``~/.cache/sudokit/numba``;
``~/Library/Caches/sudokit/numba`` on macOS, ``%LOCALAPPDATA%\\sudokit\\numba`` on Windows). Deleting that
directory is safe: the next run compiles again. numba is imported when the engine is built (so a compile
never counts against a time limit), never by ``import sudokit`` or ``sudoku strategies``.

The search runs in slices of at most 50 ms of wall time: Ctrl-C stops a long solve between two slices,
and a puzzle's time limit is read from the monotonic clock (every 64 nodes below 16x16, every node and
every try of the look-ahead above) inside the compiled code.

The package: this module is the engine (and the arrays its kernel works in), :mod:`.kernels` the
compiled search, imported when the engine is built.
"""

from __future__ import annotations

import threading
import time
from functools import cache
from importlib.util import find_spec
from typing import TYPE_CHECKING, Any, Literal

from sudokit import Capabilities, Grid, Result, Shape, Status

# The same segments in the same order, and the same board size for them: node for node as backtrack.
from sudokit_strategies.backtrack import BIG_SIDE, box_line_segments

if TYPE_CHECKING:
    import numpy as np

    from sudokit import ManyResults

__all__ = ["NumbaStrategy"]

# Without the extra the engine fails to load, so that sudokit says what to install; numba itself is imported
# on the first use (its import takes most of a second).
for _needed in ("numba", "llvmlite", "numpy"):
    if find_spec(_needed) is None:
        raise ModuleNotFoundError(f"No module named {_needed!r}", name=_needed)

#: Longest run of the compiled search between two looks from Python (Ctrl-C is seen between them).
_SLICE_SECONDS = 0.05
#: Solutions held by the kernel before Python takes them (counting with ``keep`` above this drains it).
_SOLUTION_BUFFER = 16
#: Depth of the stack of states at first (doubled whenever a search goes deeper).
_FIRST_DEPTH = 32
_MAX_LIMIT = 1 << 62
_STATUSES = (Status.SOLVED, Status.UNSOLVABLE, Status.TIMEOUT)
_STATUS_TEXTS = tuple(status.value for status in _STATUSES)
#: The bit board's counters, as ``solve_plain`` reads them from the control words 7-12.
_STAT_NAMES = ("nodes", "guesses", "backtracks", "max_depth", "naked_singles", "hidden_singles")


@cache
def _kernels(general: bool | None = None) -> Any:
    """The compiled search: imports numba and numpy, and loads the kernel from the disk cache (or compiles it).

    Called when the engine is built, so that a cold compile (seconds) never counts against a solve's time
    limit: with ``general``, only what that engine runs (each function loaded costs a worker's start-up):
    ``search_general`` alone (``inference="singles"``), or ``search`` (with the 9x9 bit board) and
    ``search_bytes`` (a 9x9 ``solve``). None: the module, loading nothing.
    """
    from sudokit_strategies.jit import kernels as k

    if general is None:
        return k
    import numpy as np

    shape = Shape.of(2, 2)
    out = _Out(np, 0, shape.size, k.N_CTL - k.I_NODES)
    work = _Work(shape, k, big=False, general=general)
    work.run(np.frombuffer(b"", np.uint8).reshape(0, shape.size), 1, 0, None, None, out, None)
    if not general:
        k.search_bytes(b"", 1, 0, -1.0, work.pack)  # (-1: not the pack's board) loaded, or compiled
    return k


@cache
def _one_puzzle(k: Any) -> Any:
    """``k.search_bytes`` without numba's look at its arguments' types: the compiled overload's own entry point.

    Called only with the types it was compiled for (bytes, int, int, float, a pack), which the engine sees to;
    the dispatcher itself where that overload is not there (numba's JIT disabled, say).
    """
    dispatcher = k.search_bytes
    np = k.np
    pack = np.zeros(1, np.uint64)
    types = tuple(k.numba.typeof(value) for value in (b"", 1, 1, -1.0, pack))
    entry = getattr(getattr(dispatcher, "overloads", {}).get(types), "entry_point", None)
    return dispatcher if entry is None else entry


class NumbaStrategy:
    """A 9x9 bit board, and ``backtrack``'s bit-mask search with singles and fewest-candidates branching, by numba.

    >>> from sudokit import Grid
    >>> grid = Grid.parse("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
    >>> NumbaStrategy().solve(grid, limit=2).unique
    True
    """

    name = "numba"
    description = "backtracking compiled by numba: bit masks, singles first, fewest-candidates cell"
    #: Every box shape sudokit has (boards up to 64x64: candidates are uint64 masks); no variant rules.
    capabilities = Capabilities()
    #: Loaded once in the caller before a pool forks its workers, which inherit the kernel (not a second each).
    warm_before_fork = True

    def __init__(self, inference: Literal["auto", "singles", "strong"] = "auto") -> None:
        if inference not in ("auto", "singles", "strong"):
            raise ValueError(f"inference must be 'auto', 'singles' or 'strong', not {inference!r:.40}")
        self.inference = inference
        # numba's import and the load (or first compile) of what this engine runs happen here, not in a timed solve
        _kernels(inference == "singles")
        self._local = threading.local()  # per thread: the work arrays of each box shape

    def __repr__(self) -> str:
        return "NumbaStrategy()" if self.inference == "auto" else f"NumbaStrategy(inference={self.inference!r})"

    def __getstate__(self) -> dict[str, Any]:
        return {"inference": self.inference}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(**state)  # type: ignore[misc]

    def _work(self, shape: Shape) -> _Work:
        spaces = getattr(self._local, "spaces", None)
        if spaces is None:
            spaces = self._local.spaces = {}
        work = spaces.get(shape)
        if work is None:
            big = self.inference == "strong" or (self.inference == "auto" and shape.n >= BIG_SIDE)
            work = spaces[shape] = _Work(shape, _kernels(), big, general=self.inference == "singles")
        self._local.last = work  # solve_plain's first look: the last shape's, by identity (hashing a Shape: 0.3 us)
        return work

    def solve(
        self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> Result:
        """Count up to ``limit`` solutions of ``puzzle`` within ``time_limit`` seconds, keeping the first ``keep``."""
        start = time.perf_counter()
        work, ctl, kept = self._search(puzzle, limit, time_limit, keep, start, tuple)
        k, shape = work.k, puzzle.shape
        return Result(  # positional: status, puzzle, strategy, solutions, count, exact, stats, elapsed
            _STATUSES[ctl[k.I_STATUS]],
            puzzle,
            self.name,
            tuple([Grid(cells, shape, validate=False) for cells in kept]),
            ctl[k.I_COUNT],
            ctl[k.I_EXACT] == 1,
            dict(zip(work.stat_names, ctl[k.I_NODES :], strict=False)),
            time.perf_counter() - start,
        )

    def solve_plain(
        self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> tuple[str, tuple[bytes, ...], int, bool, float, tuple[tuple[str, int], ...], None]:
        """``solve``'s answer as plain data (sudokit's ``Answer``): sudokit makes the one ``Result`` of it."""
        start = time.perf_counter()
        work = getattr(self._local, "last", None)
        held = limit if keep is None else keep
        if (
            work is not None
            and work.shape is puzzle.shape
            and work.quick
            and time_limit is None
            and type(limit) is int  # (the entry takes exactly its types: it does not look at them)
            and type(held) is int
            and 0 <= held <= limit <= _MAX_LIMIT
            and puzzle.is_classic
        ):  # the common case: the bit board's one call, searched to the end (0), read back in a few steps
            raw = puzzle.to_bytes()
            code = work.one(raw, limit, held, -1.0, work.pack) if type(raw) is bytes else -1
            if code == 0:
                c = work.ctl.tolist()
                stored = c[4]  # (the control words' indices: held equal to the kernel's by work.quick)
                n0, n1, n2, n3, n4, n5 = work.stat_names  # the bit board's six counters, from c[7]
                return (
                    _STATUS_TEXTS[c[5]],
                    (work.first_view.tobytes(),) if stored == 1 else work.buffered(stored),
                    c[3],
                    c[6] == 1,
                    time.perf_counter() - start,
                    ((n0, c[7]), (n1, c[8]), (n2, c[9]), (n3, c[10]), (n4, c[11]), (n5, c[12])),
                    None,
                )
            work.form = bytes
            kept: list[Any] = []
            ctl = self._go_on(work, raw, limit, held, start, kept, code)
        else:
            work, ctl, kept = self._search(puzzle, limit, time_limit, keep, start, bytes)
        k = work.k
        return (
            _STATUS_TEXTS[ctl[k.I_STATUS]],
            tuple(kept),
            ctl[k.I_COUNT],
            ctl[k.I_EXACT] == 1,
            time.perf_counter() - start,
            tuple(zip(work.stat_names, ctl[k.I_NODES :], strict=False)),
            None,
        )

    def _search(
        self, puzzle: Grid, limit: int, time_limit: float | None, keep: int | None, start: float, form: type
    ) -> tuple[_Work, list[int], list[Any]]:
        """Search ``puzzle``: its work arrays, the control words it left (answer and counters), the solutions kept.

        Each solution kept is made ``form`` (``bytes`` or ``tuple``) as it is taken from the kernel's buffer,
        while the time limit runs.
        """
        if not puzzle.is_classic:  # the engine declares no variant kinds; the core never sends one
            raise ValueError("numba takes classic puzzles only")
        work = self._work(puzzle.shape)
        work.form = form
        kept: list[Any] = []
        raw = puzzle.to_bytes()  # made once a grid; the check reads the same bytes
        keep = limit if keep is None else keep
        if time_limit is None and limit <= _MAX_LIMIT and 0 <= keep <= limit:  # the common case, in one call
            # the 9x9 bit board: the puzzle's bytes read where they are, five arguments numba does not look at
            one = work.one if type(raw) is bytes and type(limit) is int and type(keep) is int else None
            code = -1 if one is None else one(raw, limit, keep, -1.0, work.pack)
            return work, self._go_on(work, raw, limit, keep, start, kept, code), kept
        work.puzzle_bytes[:] = raw  # into the one-puzzle array the kernel reads
        work.run(work.puzzle, limit, keep, time_limit, start, work.single, kept)
        return work, self._answered(work, kept), kept

    def _go_on(
        self, work: _Work, raw: bytes, limit: int, keep: int, start: float, kept: list[Any], code: int
    ) -> list[int]:
        """The search without a time limit after one call of the bit board answered ``code`` (-1: not called, or
        not its board): the control words it left, the solutions kept into ``kept``."""
        k = work.k
        if code:  # (rare) the search goes on in the one-puzzle array: the puzzle written there
            work.puzzle_bytes[:] = raw
        if code == -1:  # not the bit board
            control = work.ctl
            control[k.I_PUZZLE] = control[k.I_PHASE] = 0  # puzzle 0, from its start
            code = work.search(work.puzzle, limit, keep, -1.0, _SLICE_SECONDS, *work.arrays, *work.single.arrays)
        if code:
            work.run(work.puzzle, limit, keep, None, start, work.single, kept, resume=True)
        return self._answered(work, kept)

    @staticmethod
    def _answered(work: _Work, kept: list[Any]) -> list[int]:
        """The control words of the finished puzzle (its answer and counters), its last solutions added to ``kept``."""
        ctl: list[int] = work.ctl.tolist()
        stored = ctl[work.k.I_STORED]
        if stored:  # what one call left in the kernel's buffer (run() drains it itself)
            work.take(kept, stored)
        return ctl

    def solve_many(
        self, cells: memoryview, shape: Shape, *, limit: int = 1, time_limit: float | None = None
    ) -> ManyResults:
        """Solve ``len(cells) // n²`` classic puzzles of ``shape`` (bytes, row by row, 0 blank), each as ``solve``.

        Each puzzle has its own ``time_limit``; a hard one that runs out is ``timeout`` and the next starts.
        """
        from sudokit import ManyResults

        work = self._work(shape)
        np = work.np
        flat = np.frombuffer(cells, dtype=np.uint8)
        if flat.size % shape.size:
            raise ValueError(f"{flat.size} cells is not a whole number of {shape.n}x{shape.n} puzzles")
        puzzles = flat.reshape(-1, shape.size)
        puzzles.flags.writeable = False  # one compiled kernel for every caller: it takes read-only puzzles
        out = _Out(np, len(puzzles), shape.size, work.k.N_CTL - work.k.I_NODES)
        work.run(puzzles, limit, 0, time_limit, None, out, None)
        return ManyResults(
            status=out.status,
            count=out.count,
            exact=out.exact,
            solutions=out.first.reshape(-1),
            elapsed=out.elapsed,
            stats={name: out.stats[s] for s, name in enumerate(work.stat_names)},
        )


class _Out:
    """What the kernel answers for ``k`` puzzles, as numpy arrays."""

    def __init__(self, np: Any, k: int, size: int, nstats: int, arrays: tuple[Any, ...] | None = None) -> None:
        if arrays is None:  # else the six arrays, made by the caller (views of a pack)
            arrays = (
                np.zeros(k, np.uint8),
                np.zeros(k, np.int64),
                np.zeros(k, np.uint8),
                np.zeros((k, size), np.uint8),
                np.zeros(k, np.float64),
                np.zeros((nstats, k), np.int64),
            )
        self.status, self.count, self.exact, self.first, self.elapsed, self.stats = self.arrays = arrays


@cache
def _geometry(shape: Shape, np: Any) -> tuple[Any, Any, Any, Any]:
    """The peer and unit tables of ``shape`` as arrays, and the mask of every digit."""
    n = shape.n
    peers = np.array(shape.peers, dtype=np.int64)
    units = np.array(shape.units, dtype=np.int64)
    units_of = np.array(
        [(r, n + c, 2 * n + b) for r, c, b in zip(shape.row_of, shape.col_of, shape.box_of, strict=True)],
        dtype=np.int64,
    )
    full = np.uint64((1 << n) - 1)
    return full, peers, units, units_of


@cache
def _locked_tables(shape: Shape, np: Any) -> tuple[Any, Any, Any]:
    """Where boxes meet lines, for locked candidates: ``backtrack``'s :func:`box_line_segments` as arrays.

    ``segs[s]``: the segment's box group, its line group, its length and its cells; ``groups[g]``: the
    number of segments of group g and the segments (box b's row segments are group 2b, its column
    segments 2b+1; row k's segments 2n+k, column k's 3n+k); ``rests[2s]`` and ``rests[2s+1]``: the
    rest of the segment's line and of its box (length, cells).
    """
    segments, groups, rests, of_segment = box_line_segments(shape)

    def table(rows: list[list[int]]) -> Any:
        out = np.zeros((len(rows), max(map(len, rows))), np.int64)
        for r, row in enumerate(rows):
            out[r, : len(row)] = row
        return out

    segs = table([[gb, gl, len(cells), *cells] for (gb, gl), cells in zip(of_segment, segments, strict=True)])
    return segs, table([[len(g), *g] for g in groups]), table([[len(r), *r] for r in rests])


class _Work:
    """The work arrays of one box shape (one thread's): stack of states, queue, control words, buffers."""

    stack: Any  # the stack of states and its levels: views of ``pack``, made anew when it grows
    levels: Any

    def __init__(self, shape: Shape, k: Any, big: bool, *, general: bool = False) -> None:
        self.k = k
        self.big = big
        self.form: type = tuple  # what ``take`` makes of each solution: bytes (solve_plain) or a tuple (solve)
        #: the kernel: ``search`` (the 9x9 bit board on 9x9 boards without ``big``), or with ``general``
        #: always ``search_general``, ``backtrack``'s search node for node
        self.search = k.search_general if general else k.search
        self.stat_names = k.BIG_STAT_NAMES if big else k.STAT_NAMES
        self.np = np = k.np
        self.shape = shape
        size, n = shape.size, shape.n
        self.full, self.peers, self.units, self.units_of = _geometry(shape, np)
        self.segs, self.groups, self.rests = _locked_tables(shape, np)
        self.weight = np.zeros(size, np.int64)
        self.queue_cell = np.zeros(2 * (size + 1), np.int64)  # the assignments' queue, then locked candidates' singles
        self.queue_bit = np.zeros(2 * (size + 1), np.uint64)
        self.dirty = np.zeros(3 * n, np.uint8)
        # ``solve``'s puzzle: written into puzzle_bytes, read by the kernel through a read-only view (the
        # kernel is compiled for read-only puzzles only, as solve_many passes them)
        self.puzzle_bytes = bytearray(size)
        self.puzzle = np.frombuffer(self.puzzle_bytes, np.uint8).reshape(1, size)
        self.puzzle.flags.writeable = False
        #: one call of ``solve`` on the 9x9 bit board: ``search_packed`` with five arguments, not 29
        self.packed = shape.n == 9 and not big and not general
        #: ``search_bytes``'s entry on the bit board (puzzle bytes, limit, keep, time limit, the pack), else None
        self.one = _one_puzzle(k) if self.packed else None
        #: whether ``solve_plain`` may read the control words by their indices (count, stored, status, exact,
        #: then the six counters: the kernel's layout as it is written there)
        laid_out = (k.I_COUNT, k.I_STORED, k.I_STATUS, k.I_EXACT, k.I_NODES, self.stat_names)
        self.quick = self.one is not None and laid_out == (3, 4, 5, 6, 7, _STAT_NAMES)
        self._pack(_FIRST_DEPTH, len(self.segs) + 2 * len(self.groups))

    def _pack(self, depth: int, scratch: int) -> None:
        """Lay out the arrays a search changes in one buffer, ``pack`` (see ``kernels.search_packed``), as views.

        The stack and its levels go last: growing them (``depth``) moves nothing else.
        """
        np, k, size, n = self.np, self.k, self.shape.size, self.shape.n
        stats = k.N_CTL - k.I_NODES
        nsol = _SOLUTION_BUFFER
        width = 2 * size + 3 * n + 2
        words: dict[int, int] = {  # each array's length in words, in the order of the pack
            k.H_SCRATCH: scratch,
            k.H_CTL: k.N_CTL,
            k.H_CLK: k.N_CLK,
            k.H_SOLUTIONS: (nsol * size + 7) // 8,
            k.H_STATUS: 1,
            k.H_COUNT: 1,
            k.H_EXACT: 1,
            k.H_FIRST: (size + 7) // 8,
            k.H_ELAPSED: 1,
            k.H_STATS: stats,
            k.H_STACK: depth * width,
            k.H_LEVELS: 2 * depth,
        }
        at = {}
        end = k.N_HEAD
        for key, length in words.items():
            at[key] = end
            end += length
        pack = np.zeros(end, np.uint64)
        head = pack[: k.N_HEAD].view(np.int64)
        for key, offset in at.items():
            head[key] = offset
        dims = {k.H_N_SCRATCH: scratch, k.H_N_SOLUTIONS: nsol, k.H_SIZE: size, k.H_N_STATS: stats}
        for key, value in {**dims, k.H_DEPTH: depth, k.H_WIDTH: width}.items():
            head[key] = value
        pack[k.H_SLICE : k.H_SLICE + 1].view(np.float64)[0] = _SLICE_SECONDS

        def part(key: int, dtype: Any, count: int) -> Any:
            return pack[at[key] : at[key] + words[key]].view(dtype)[:count]

        old = getattr(self, "pack", None)
        if old is not None:  # a deeper stack: everything before it as it was, the stack's rows and levels copied
            pack[k.N_HEAD : at[k.H_STACK]] = old[k.N_HEAD : at[k.H_STACK]]
        self.pack = pack
        self.scratch = part(k.H_SCRATCH, np.uint64, scratch)
        self.ctl = part(k.H_CTL, np.int64, k.N_CTL)
        self.clk = part(k.H_CLK, np.float64, k.N_CLK)
        self.solutions = part(k.H_SOLUTIONS, np.uint8, nsol * size).reshape(nsol, size)
        self.first_solution = self.solutions[0]
        self.first_view = memoryview(self.first_solution)  # its bytes in one step (``tobytes``)
        self.single = _Out(
            np,
            1,
            size,
            stats,
            (
                part(k.H_STATUS, np.uint8, 1),
                part(k.H_COUNT, np.int64, 1),
                part(k.H_EXACT, np.uint8, 1),
                part(k.H_FIRST, np.uint8, size).reshape(1, size),
                part(k.H_ELAPSED, np.float64, 1),
                part(k.H_STATS, np.int64, stats).reshape(stats, 1),
            ),
        )
        stack = part(k.H_STACK, np.uint64, depth * width).reshape(depth, width)
        levels = part(k.H_LEVELS, np.int64, 2 * depth).reshape(depth, 2)
        if old is not None:
            stack[: len(self.stack)] = self.stack
            levels[: len(self.levels)] = self.levels
        self.stack, self.levels = stack, levels
        self._arrange()

    def _arrange(self) -> None:
        """The kernel's arguments after the puzzles and the limits, up to the answers, as one tuple."""
        self.arrays = (
            self.big,
            self.full,
            self.peers,
            self.units,
            self.units_of,
            self.segs,
            self.groups,
            self.rests,
            self.scratch,
            self.weight,
            self.stack,
            self.levels,
            self.queue_cell,
            self.queue_bit,
            self.dirty,
            self.solutions,
            self.ctl,
            self.clk,
        )

    def run(
        self,
        puzzles: np.ndarray,
        limit: int,
        keep: int,
        time_limit: float | None,
        start: float | None,
        out: _Out,
        kept: list[Any] | None,
        *,
        resume: bool = False,
    ) -> None:
        """Search every row of ``puzzles`` into ``out``, the first ``keep`` solutions into ``kept``.

        With ``resume``, the search goes on where the last call of the kernel left it (else from the start).
        """
        k = self.k
        limit = min(limit, _MAX_LIMIT)
        keep = max(0, min(keep, limit))
        if not resume:
            self.ctl[k.I_PUZZLE] = self.ctl[k.I_PHASE] = 0  # the kernel clears the rest as it starts a puzzle
        if time_limit is None:
            seconds = -1.0
        else:
            seconds = float(time_limit)
            if start is not None:  # the time already spent in this call counts
                seconds = max(0.0, seconds - (time.perf_counter() - start))
        while True:
            code = self.search(puzzles, limit, keep, seconds, _SLICE_SECONDS, *self.arrays, *out.arrays)
            if code == k.DONE:
                break
            if code == k.NEED_STACK:
                self._grow()
            elif code == k.SOLUTIONS_FULL:
                self.drain(kept)
            # SLICE: back in Python for a moment, where Ctrl-C raises KeyboardInterrupt
        if kept is not None:
            self.drain(kept)

    def _grow(self) -> None:
        self._pack(2 * len(self.stack), len(self.scratch))

    def drain(self, kept: list[Any] | None) -> None:
        """Move the solutions the kernel holds to ``kept``."""
        stored = int(self.ctl[self.k.I_STORED])
        if kept is not None and stored:
            self.take(kept, stored)
        self.ctl[self.k.I_STORED] = 0

    def buffered(self, stored: int) -> tuple[bytes, ...]:
        """The first ``stored`` solutions of the buffer, as bytes."""
        raw = self.solutions[:stored].tobytes()
        size = self.shape.size
        return tuple([raw[j : j + size] for j in range(0, stored * size, size)])

    def take(self, kept: list[Any], stored: int) -> None:
        """Add the first ``stored`` solutions of the buffer to ``kept``, each made ``form`` (the caller clears
        ``I_STORED``)."""
        form = self.form
        if stored == 1:
            kept.append(form(self.first_solution.tobytes()))
        else:
            kept.extend([form(raw) for raw in self.buffered(stored)])
