"""The ``numba`` engine's compiled search: a 9x9 bit board and ``backtrack``'s classic search, resumable kernels.

Imported by :mod:`sudokit_strategies.jit` when the engine is built, never at start-up. Importing this
module imports numba and numpy and points numba's on-disk cache at sudokit's own cache directory (unless
the user set ``NUMBA_CACHE_DIR``), so the kernel is compiled once per machine and loaded from disk after.

:func:`search` takes 9x9 boards (without ``big``) to the bit board, :func:`_search9`: a word of 27 bits
per digit and band, box-line interaction both ways through the triads, singles and a guess on a cell of two
candidates (see the comment above it: ideas from tdoku's write-up and from JCZSolve as it describes
it; no code copied). Not ``backtrack``'s search: the same answers (counts, exactness, solutions; a test
compares them on thousands of puzzles), not the same nodes nor the same first of several solutions.

Every other board, and 9x9 with :func:`search_general` (``inference="singles"``), has the search of
``backtrack`` for classic boards, node for node (``backtrack.search.Search``; ``backtrack.big.BigSearch``
with ``big``):

* candidates as bit masks (uint64: boards up to 64x64), a "used" mask per row, column and box;
* placing a digit removes it from the peers and places every naked single that follows;
* hidden singles are looked for in every unit whose cells changed, to a fixed point;
* the guess is on the first cell, in reading order, of fewest candidates (stopping at one of two),
  digits in increasing order; each guess works on a copy of the state (undo = drop the copy);
* with ``big`` (boards of 16x16 and more): locked candidates with the singles, to a fixed point, then
  the look-ahead on the cells of two candidates, which picks the cell to guess on and its first digit.

The recursion becomes an explicit stack of states held in arrays, so the kernel can stop at a node and be
called again where it left off: after a slice of wall time (so that Ctrl-C is seen between slices), when
the stack or the solution buffer is full (the caller grows or drains it). A puzzle's time limit is read
from the monotonic clock (``clock_gettime``, called from compiled code) every 64 nodes, or at every node
and every try of the look-ahead with ``big``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from numba.core.typing.templates import Signature

    #: What an intrinsic's typing function returns: the call's signature and its code generator, which
    #: builds LLVM IR with llvmlite (untyped) from ``(context, builder, signature, args)``.
    _Typed = tuple[Signature, Callable[[Any, Any, Signature, Sequence[Any]], Any]]


def cache_dir() -> Path:
    """Where the compiled kernel is cached: ``$NUMBA_CACHE_DIR`` if set, else sudokit's cache directory."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    return default_cache_dir()


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/sudokit/numba`` or ``~/.cache/sudokit/numba`` (``%LOCALAPPDATA%``, ``~/Library/Caches`` on
    Windows and macOS)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "sudokit" / "numba"


# numba reads NUMBA_CACHE_DIR when it is first imported; set it only if the user has not.
if not os.environ.get("NUMBA_CACHE_DIR"):
    os.environ["NUMBA_CACHE_DIR"] = str(default_cache_dir())

import numba  # noqa: E402
import numpy as np  # noqa: E402
from llvmlite import ir  # noqa: E402
from numba import types  # noqa: E402
from numba.core import cgutils  # noqa: E402
from numba.extending import intrinsic  # noqa: E402

# (numba.config sets its attributes at run time: mypy does not see them)
if not numba.config.CACHE_DIR:  # type: ignore[attr-defined]  # numba was imported before us without NUMBA_CACHE_DIR
    numba.config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]  # type: ignore[attr-defined]

# What the kernel returns.
DONE = 0  #: every puzzle of the call is answered
SLICE = 1  #: a slice of wall time is over: call again
NEED_STACK = 2  #: the stack of states is full: grow it and call again
SOLUTIONS_FULL = 3  #: the solution buffer is full: drain it and call again

# The control words (``ctl``, int64), kept between calls.
I_PUZZLE = 0  #: the puzzle being searched
I_PHASE = 1  #: where its search is (the PHASE_* below)
I_DEPTH = 2
I_COUNT = 3  #: solutions found
I_STORED = 4  #: solutions in the solution buffer
I_STATUS = 5  #: the answer of a finished puzzle (SOLVED, UNSOLVABLE, TIMEOUT)
I_EXACT = 6  #: 1 when its count is exact
I_NODES = 7  #: the counters, in the order of STAT_NAMES
N_CTL = I_NODES + 9
PHASE_START, PHASE_NODE, PHASE_FOUND, PHASE_NEXT, PHASE_RESUME = 0, 1, 2, 3, 4  # RESUME: a node already counted
#: The per-puzzle counters, ``backtrack``'s names; boards of 16x16 and more add the last three (BIG_STAT_NAMES).
STAT_NAMES = ("nodes", "guesses", "backtracks", "max_depth", "naked_singles", "hidden_singles")
BIG_STAT_NAMES = (*STAT_NAMES, "locked_candidates", "probes", "failed_literals")
I_GUESSES, I_BACKTRACKS, I_MAX_DEPTH, I_NAKED, I_HIDDEN, I_LOCKED, I_PROBES, I_FAILED = range(I_NODES + 1, N_CTL)
# What the look-ahead answers.
AHEAD_OK, AHEAD_CONTRADICTION, AHEAD_TIMEOUT = 0, 1, 2
# The clock words (``clk``, float64).
I_START, I_DEADLINE, N_CLK = 0, 1, 2
# Per-puzzle status codes (sudokit.MANY_STATUS order).
SOLVED, UNSOLVABLE, TIMEOUT = 0, 1, 2

#: ``njit``'s options for code compiled without reference counting (see the bit board's comment; a private
#: option of numba's, so passed as a mapping its stubs do not check).
_UNCOUNTED: dict[str, Any] = {"cache": True, "_nrt": False}

_CHECK_EVERY = 63  # look at the clock every 64 nodes (clock_gettime costs ~25 ns, a node 0.3-100 us)


# An intrinsic is defined by its typing function ``f(typingctx, *argument_types)`` and called from compiled code
# as ``f(*arguments)``. numba's stub types the call as one of the typing function (the typing context first,
# returning Never, which would make mypy skip the rest of every kernel as unreachable): each intrinsic below
# is cast to the call compiled code makes.


def _now_typing(typingctx: object) -> _Typed:
    """Seconds on the monotonic clock (CLOCK_MONOTONIC, as ``time.perf_counter`` on Linux), from compiled code."""
    sig = types.float64()

    def codegen(context: Any, builder: Any, signature: Signature, args: Sequence[Any]) -> Any:
        i64, i32, f64 = ir.IntType(64), ir.IntType(32), ir.DoubleType()
        timespec = ir.LiteralStructType([i64, i64])
        fnty = ir.FunctionType(i32, [i32, timespec.as_pointer()])
        clock_gettime = cgutils.get_or_insert_function(builder.module, fnty, "clock_gettime")
        ts = cgutils.alloca_once(builder, timespec)
        builder.call(clock_gettime, [ir.Constant(i32, _CLOCK_MONOTONIC), ts])
        zero = ir.Constant(i32, 0)
        sec = builder.load(builder.gep(ts, [zero, zero]))
        nsec = builder.load(builder.gep(ts, [zero, ir.Constant(i32, 1)]))
        return builder.fadd(builder.sitofp(sec, f64), builder.fmul(builder.sitofp(nsec, f64), ir.Constant(f64, 1e-9)))

    return sig, codegen


_now = cast("Callable[[], float]", intrinsic(_now_typing))
_CLOCK_MONOTONIC = 6 if sys.platform == "darwin" else 1


def _popcount_typing(typingctx: object, x: object) -> _Typed:
    """The number of bits set in a uint64, as an int64."""
    sig = types.int64(types.uint64)

    def codegen(context: Any, builder: Any, signature: Signature, args: Sequence[Any]) -> Any:
        return builder.ctpop(args[0])

    return sig, codegen


_popcount = cast("Callable[[int], int]", intrinsic(_popcount_typing))


def _digit_typing(typingctx: object, x: object) -> _Typed:
    """The digit (1-based) of a one-bit uint64 mask."""
    sig = types.uint64(types.uint64)

    def codegen(context: Any, builder: Any, signature: Signature, args: Sequence[Any]) -> Any:
        one = ir.Constant(ir.IntType(64), 1)
        return builder.add(builder.cttz(args[0], ir.Constant(ir.IntType(1), 1)), one)

    return sig, codegen


_digit = cast("Callable[[int], int]", intrinsic(_digit_typing))


@numba.njit(cache=True, inline="always")
def _assign(frame, size, c0, bit, peers, units_of, queue_cell, queue_bit, dirty, ctl):  # type: ignore[no-untyped-def]
    """Place ``bit`` at cell ``c0``, remove it from the peers, place every naked single that follows.

    ``frame`` is one state: the candidates of each cell (0 once filled), then each cell's placed digit as
    its bit, then the used masks of the units. Units whose cells changed are marked in ``dirty``.
    """
    used = 2 * size
    queue_cell[0] = c0
    queue_bit[0] = bit
    head, tail = 0, 1
    npeers = peers.shape[1]
    while head < tail:
        c = queue_cell[head]
        b = queue_bit[head]
        head += 1
        v = frame[size + c]
        if v != 0:
            if v != b:
                return False
            continue
        if frame[c] & b == 0:
            return False
        frame[size + c] = b
        frame[c] = 0
        for j in range(3):
            u = units_of[c, j]
            frame[used + u] |= b
            dirty[u] = 1
        for k in range(npeers):
            p = peers[c, k]
            m = frame[p]
            if m & b:
                m ^= b
                if m == 0:
                    return False
                frame[p] = m
                dirty[units_of[p, 0]] = 1
                dirty[units_of[p, 1]] = 1
                dirty[units_of[p, 2]] = 1
                if m & (m - np.uint64(1)) == 0:
                    queue_cell[tail] = p
                    queue_bit[tail] = m
                    tail += 1
    ctl[I_NAKED] += tail - 1
    return True


@numba.njit(cache=True)
def _hidden_singles(frame, size, full, peers, units, units_of, queue_cell, queue_bit, dirty, ctl):  # type: ignore[no-untyped-def]
    """Place the digits with one place left in a changed unit, to a fixed point; False on a contradiction."""
    n = units.shape[1]
    used = 2 * size
    nunits = units.shape[0]
    again = True
    while again:
        again = False
        for u in range(nunits):
            if dirty[u] == 0:
                continue
            dirty[u] = 0
            again = True
            once = np.uint64(0)
            twice = np.uint64(0)
            for j in range(n):
                m = frame[units[u, j]]
                twice |= once & m
                once |= m
            if once | frame[used + u] != full:
                return False  # some digit has no place left in this unit
            single = once & ~twice
            if single == 0:
                continue
            for j in range(n):
                c = units[u, j]
                m = frame[c] & single
                if m != 0:
                    if m & (m - np.uint64(1)) != 0:
                        return False  # one cell is the only place for two digits
                    ctl[I_HIDDEN] += 1
                    if not _assign(frame, size, c, m, peers, units_of, queue_cell, queue_bit, dirty, ctl):
                        return False
    return True


@numba.njit(cache=True)
def _locked(frame, size, peers, segs, groups, rests, scratch, units_of, queue_cell, queue_bit, dirty, ctl):  # type: ignore[no-untyped-def]
    """Remove what locked candidates rule out (one pass over the state as it is); False on a contradiction.

    A segment is where a box meets a row or a column (``segs[s]``: its box's group, its line's group, its
    length, its cells). A digit in one segment of its box (of that direction) and in two or more of its
    line leaves the rest of the line (pointing); in one segment of its line and two or more of its box's,
    the rest of the box (claiming). ``rests[2s]`` and ``rests[2s + 1]`` are those rests (length, cells).
    The cells left with one candidate are placed at the end, in the order found.
    """
    nsegs = segs.shape[0]
    ngroups = groups.shape[0]
    for s in range(nsegs):
        m = np.uint64(0)
        for j in range(3, 3 + segs[s, 2]):
            m |= frame[segs[s, j]]
        scratch[s] = m
    alone = nsegs
    spread = nsegs + ngroups
    for g in range(ngroups):
        once = scratch[groups[g, 1]]
        twice = np.uint64(0)
        for j in range(2, 1 + groups[g, 0]):
            m = scratch[groups[g, j]]
            twice |= once & m
            once |= m
        scratch[alone + g] = once & ~twice
        scratch[spread + g] = twice
    singles = size + 1  # after the assignment queue
    nsingles = 0
    for s in range(nsegs):
        box_group, line_group = segs[s, 0], segs[s, 1]
        for side in range(2):
            if side == 0:
                gone = scratch[s] & scratch[alone + box_group] & scratch[spread + line_group]
            else:
                gone = scratch[s] & scratch[alone + line_group] & scratch[spread + box_group]
            if gone == 0:
                continue
            k = 2 * s + side
            for j in range(1, 1 + rests[k, 0]):
                c = rests[k, j]
                m = frame[c]
                if m & gone:
                    m &= ~gone
                    if m == 0:
                        return False
                    frame[c] = m
                    ctl[I_LOCKED] += 1
                    dirty[units_of[c, 0]] = 1
                    dirty[units_of[c, 1]] = 1
                    dirty[units_of[c, 2]] = 1
                    if m & (m - np.uint64(1)) == 0:
                        queue_cell[singles + nsingles] = c
                        queue_bit[singles + nsingles] = m
                        nsingles += 1
    for j in range(nsingles):
        c = queue_cell[singles + j]
        if not _assign(frame, size, c, queue_bit[singles + j], peers, units_of, queue_cell, queue_bit, dirty, ctl):
            return False
    return True


@numba.njit(cache=True)
def _settle(frame, size, full, peers, units, units_of, segs, groups, rests, scratch, queue_cell, queue_bit, dirty, ctl):  # type: ignore[no-untyped-def]
    """Hidden singles and locked candidates until neither finds more; False on a contradiction."""
    while True:
        if not _hidden_singles(frame, size, full, peers, units, units_of, queue_cell, queue_bit, dirty, ctl):
            return False
        before = ctl[I_LOCKED]
        if not _locked(frame, size, peers, segs, groups, rests, scratch, units_of, queue_cell, queue_bit, dirty, ctl):
            return False
        if ctl[I_LOCKED] == before:
            return True


@numba.njit(cache=True)
def _look_ahead(  # type: ignore[no-untyped-def]
    frame,
    trial,
    size,
    full,
    peers,
    units,
    units_of,
    segs,
    groups,
    rests,
    scratch,
    queue_cell,
    queue_bit,
    dirty,
    ctl,
    deadline,
):
    """Try both digits of every cell with two candidates (``backtrack``'s look-ahead): (answer, cell, first digit).

    Each try places the digit and its singles on ``trial``, a copy of ``frame``. A digit whose try
    contradicts cannot be the cell's (a failed literal): the other is placed, with its consequences, and
    the cells are tried again (AHEAD_CONTRADICTION when that contradicts too). Otherwise the cell whose two
    tries removed the most candidates (product, then sum) is the one to guess on, the digit whose try
    removed fewer first; cell -1 when no cell has two candidates. AHEAD_TIMEOUT past ``deadline``.
    """
    width = trial.shape[0] - 2
    nunits = units.shape[0]
    while True:
        total = 0
        for c in range(size):
            total += _popcount(frame[c])
        best = -1
        first = np.uint64(0)
        best_score = -1
        forced = False
        for i in range(size):
            m = frame[i]
            if _popcount(m) != 2:
                continue
            low = m & (~m + np.uint64(1))
            left = -1
            for side in range(2):
                bit = low if side == 0 else m ^ low
                if _now() > deadline:
                    return AHEAD_TIMEOUT, best, first
                ctl[I_PROBES] += 1
                trial[:width] = frame[:width]
                for u in range(nunits):
                    dirty[u] = 0
                if not (
                    _assign(trial, size, i, bit, peers, units_of, queue_cell, queue_bit, dirty, ctl)
                    and _hidden_singles(trial, size, full, peers, units, units_of, queue_cell, queue_bit, dirty, ctl)
                ):
                    ctl[I_FAILED] += 1
                    for u in range(nunits):
                        dirty[u] = 0
                    if not (
                        _assign(frame, size, i, m ^ bit, peers, units_of, queue_cell, queue_bit, dirty, ctl)
                        and _settle(
                            frame,
                            size,
                            full,
                            peers,
                            units,
                            units_of,
                            segs,
                            groups,
                            rests,
                            scratch,
                            queue_cell,
                            queue_bit,
                            dirty,
                            ctl,
                        )
                    ):
                        return AHEAD_CONTRADICTION, best, first
                    forced = True
                    break
                remaining = 0
                for c in range(size):
                    remaining += _popcount(trial[c])
                gone = total - remaining
                if left < 0:
                    left = gone
                else:
                    score = left * gone + left + gone
                    if score > best_score:
                        best = i
                        best_score = score
                        first = low if left <= gone else m ^ low
        if not forced:
            return AHEAD_OK, best, first


@numba.njit(**_UNCOUNTED)  # (no reference counting: see the bit board's comment below)
def _finish(i, ctl, clk, out_status, out_count, out_exact, out_elapsed, out_stats):  # type: ignore[no-untyped-def]
    """Write puzzle ``i``'s answer (``ctl[I_STATUS]``, ``ctl[I_EXACT]``) and counters; move on to the next puzzle."""
    out_status[i] = ctl[I_STATUS]
    out_count[i] = ctl[I_COUNT]
    out_exact[i] = ctl[I_EXACT]
    out_elapsed[i] = _now() - clk[I_START]
    for s in range(N_CTL - I_NODES):
        out_stats[s, i] = ctl[I_NODES + s]
    ctl[I_PUZZLE] = i + 1
    ctl[I_PHASE] = PHASE_START


@numba.njit(cache=True, inline="always")
def _settle_puzzle(i, status, exact, ctl, clk, out_status, out_count, out_exact, out_elapsed, out_stats):  # type: ignore[no-untyped-def]
    """Puzzle ``i`` is answered: ``status`` and ``exact`` into the control words, then :func:`_finish`."""
    ctl[I_STATUS] = status
    ctl[I_EXACT] = exact
    _finish(i, ctl, clk, out_status, out_count, out_exact, out_elapsed, out_stats)


@numba.njit(cache=True, inline="always")
def _begin(later, call_start, slice_seconds, time_limit, ctl, clk):  # type: ignore[no-untyped-def]
    """A puzzle starts: its clock and deadline, its counters cleared; False when the call's slice is over
    and this is not its first puzzle (``later``): every call makes progress."""
    clk[I_START] = _now()
    if later and clk[I_START] - call_start > slice_seconds:
        return False
    clk[I_DEADLINE] = clk[I_START] + time_limit if time_limit >= 0 else np.inf
    for s in range(I_COUNT, N_CTL):
        ctl[s] = 0
    return True


@numba.njit(cache=True, inline="always")
def _enter(phase, d, depth, check_every, call_start, slice_seconds, ctl, clk):  # type: ignore[no-untyped-def]
    """Node ``d`` is entered (PHASE_NODE: counted, the clock read every ``check_every + 1`` nodes; PHASE_RESUME:
    counted before): NEED_STACK when level d + 1 is past the ``depth`` of the stack, -1 past the deadline,
    SLICE when the call's slice is over (the node counted, entered on the next call), else 0."""
    if phase == PHASE_NODE:
        if d + 1 >= depth:
            return NEED_STACK
        if ctl[I_NODES] & check_every == check_every:
            now = _now()
            if now > clk[I_DEADLINE]:
                return -1
            if now - call_start > slice_seconds:
                ctl[I_NODES] += 1
                ctl[I_PHASE] = PHASE_RESUME
                return SLICE
        ctl[I_NODES] += 1
    if d > ctl[I_MAX_DEPTH]:
        ctl[I_MAX_DEPTH] = d
    return 0


@numba.njit(cache=True, inline="always")
def _solution_row(keep, ctl, solutions):  # type: ignore[no-untyped-def]
    """Where the solution just found goes in the buffer (taken): -1 when it is past the first ``keep``,
    -2 when the buffer is full (the caller drains it and the solution is taken on the next call)."""
    if ctl[I_COUNT] >= keep:
        return -1
    stored = ctl[I_STORED]
    if stored == solutions.shape[0]:
        return -2
    ctl[I_STORED] = stored + 1
    return stored


@numba.njit(cache=True, inline="always")
def _down(d, ctl, levels):  # type: ignore[no-untyped-def]
    """A guess at level ``d`` holds: its child, level d + 1, is the next node (the count noted, to tell a backtrack)."""
    levels[d, 1] = ctl[I_COUNT]
    ctl[I_DEPTH] = d + 1
    ctl[I_PHASE] = PHASE_NODE


@numba.njit(cache=True, inline="always")
def _up(d, ctl, levels):  # type: ignore[no-untyped-def]
    """Node ``d`` is done: True at the root (the search is over), else its parent tries its next digit
    (a backtrack when the node found no solution)."""
    if d == 0:
        return True
    if ctl[I_COUNT] == levels[d - 1, 1]:
        ctl[I_BACKTRACKS] += 1
    ctl[I_DEPTH] = d - 1
    ctl[I_PHASE] = PHASE_NEXT
    return False


# --- The 9x9 bit board -----------------------------------------------------------------------------------
#
# Ideas from published solvers, read and re-implemented here (no code copied): tdoku's write-up ("A
# Sudoku solver benchmark and methodology", t-dillon/tdoku, docs/sudoku.md, BSD-2: bands and triads as bit
# operations, box-line interaction) and JCZSolve (the work of
# several members of the New Sudoku Player's Forum, as that write-up describes it: one 27-bit word per
# digit and band, a "shrink" of a band's word to its 9 triads, a table of the triad patterns a band can
# hold, a guess on a cell of two candidates).
#
# The state of a node is 30 words: word 3d + b holds where digit d+1 may still go in band b (rows 3b to
# 3b+2; bit 9r + c is row 3b + r, column c: cell 27b + bit), a placed digit keeping its bit; words 27-29
# the cells of each band still open. In a band a digit takes one triad (three cells of a row in a box) in
# each row and in each box: the rows' triads are a permutation of the boxes; in a stack likewise the
# columns' vertical triads are a permutation of the bands. ``_TRI[p]`` is the union of the permutations
# that the 3x3 pattern p allows (``_EXPAND`` turns a band's into its cells): masking a digit's words with
# them does box-line interaction both ways (pointing and claiming) and finds a box's or a column's
# hidden single; a row of a word left with one open cell is a hidden single, and a word's are placed
# together (the masked word has nothing else in their rows and boxes: their columns leave the digit's
# other words, their cells the band's other digits). Then naked singles (the cells of one candidate, by
# bit counting over the nine digits of a band), to a fixed point; the guess is on the first cell of two
# candidates (else of fewest), the smaller digit first. (The triads' rule, three digits that must be in
# one triad leave no room there for a fourth, was tried at every fixed point until issue 27: on 17clue it
# saved nodes but not time, and it cost top95 10% and hardest 20% more time than the nodes it saved.)
#
# The bit board's functions (and :func:`_finish`) are compiled without numba's reference counting
# (``_nrt=False``, numba's own option for code that allocates nothing): every array they touch is their
# caller's, and counting costs two atomic operations per array argument of each call and per row view,
# about 9% of the search's time on 17-clue puzzles.


def _tables9() -> tuple[Any, Any, Any, Any, Any, Any]:
    shrink = np.zeros(512, np.uint64)  # a row's 9 bits -> which of its 3 triads have a candidate
    for x in range(512):
        shrink[x] = sum(1 << j for j in range(3) if (x >> (3 * j)) & 7)
    # a 3x3 pattern (bit 3x + y) -> the union of the permutations (x -> y, one y per x and one x per y) in it;
    # a permutation matrix's transpose is one, so rows/boxes and columns/bands read the same table
    perms = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
    tri = np.zeros(512, np.uint64)
    expand = np.zeros(512, np.uint64)  # bit 3r + j -> the cells of row r's triad in box j
    for p in range(512):
        m = 0
        for perm in perms:
            if all(p >> (3 * x + perm[x]) & 1 for x in range(3)):
                m |= sum(1 << (3 * x + perm[x]) for x in range(3))
        tri[p] = m
        expand[p] = sum(7 << (9 * (b // 3) + 3 * (b % 3)) for b in range(9) if p >> b & 1)
    rows = np.array([511 << (9 * r) for r in range(3)], np.uint64)
    cols = np.array([(1 << c) | (1 << (c + 9)) | (1 << (c + 18)) for c in range(9)], np.uint64)
    boxes = np.array([sum(7 << (9 * r + 3 * j) for r in range(3)) for j in range(3)], np.uint64)
    return shrink, tri, expand, rows, cols, boxes


_SHRINK, _TRI, _EXPAND, _ROW27, _COL27, _BOX27 = _tables9()
_OPEN = 27  #: the state's words 27-29: each band's open cells
_WIDTH9 = 30
_BAND = np.uint64((1 << 27) - 1)


@numba.njit(cache=True, inline="always")
def _place9(frame, d, b, bit):  # type: ignore[no-untyped-def]
    """Place digit d+1 at the cell ``bit`` of band b: clear it from the cell's row, column and box, and the
    cell's other digits; False when d+1 is no longer possible there."""
    k = 3 * d + b
    if frame[k] & bit == 0:
        return False
    pos = _digit(bit) - 1
    r = pos // 9
    c = pos - 9 * r
    gone = ~_COL27[c]
    k0 = 3 * d
    frame[k0] &= gone  # the column in every band (the cell's own bit back below)
    frame[k0 + 1] &= gone
    frame[k0 + 2] &= gone
    gone = ~bit
    for e in range(0, 27, 3):  # the cell from every digit's word of its band (its own bit back below)
        frame[e + b] &= gone
    frame[k] = (frame[k] & ~(_ROW27[r] | _BOX27[c // 3])) | bit
    frame[_OPEN + b] &= gone
    return True


@numba.njit(cache=True, inline="always")
def _band9(w):  # type: ignore[no-untyped-def]
    """A digit's word of one band masked by the triad patterns its rows and boxes allow (0: none)."""
    nine = np.uint64(511)
    p = _SHRINK[w & nine] | (_SHRINK[(w >> np.uint64(9)) & nine] << np.uint64(3))
    p |= _SHRINK[(w >> np.uint64(18)) & nine] << np.uint64(6)
    return w & _EXPAND[_TRI[p]]


@numba.njit(**_UNCOUNTED)
def _propagate9(frame, last, ctl):  # type: ignore[no-untyped-def]
    """Box-line interaction and singles on one state, to a fixed point; False on a contradiction.

    ``last[k]`` is word k as last masked (0 at a new node): an unchanged word is skipped."""
    nine = np.uint64(511)
    one = np.uint64(1)
    seven = np.uint64(7)
    three = np.uint64(3)
    n6 = np.uint64(6)
    n9 = np.uint64(9)
    n18 = np.uint64(18)
    rep = np.uint64(1 | (1 << 9) | (1 << 18))
    while True:
        progress = False
        for d in range(9):
            k = 3 * d
            w0 = frame[k]
            w1 = frame[k + 1]
            w2 = frame[k + 2]
            if w0 == last[k] and w1 == last[k + 1] and w2 == last[k + 2]:
                continue
            # the stacks: each column's vertical triads (a column within a band) against the boxes
            c0 = (w0 | (w0 >> n9) | (w0 >> n18)) & nine
            c1 = (w1 | (w1 >> n9) | (w1 >> n18)) & nine
            c2 = (w2 | (w2 >> n9) | (w2 >> n18)) & nine
            a0 = np.uint64(0)
            a1 = np.uint64(0)
            a2 = np.uint64(0)
            for st in range(3):
                sh = np.uint64(3 * st)
                q = ((c0 >> sh) & seven) | (((c1 >> sh) & seven) << three) | (((c2 >> sh) & seven) << n6)
                t = _TRI[q]
                if t == 0:
                    return False
                a0 |= (t & seven) << sh
                a1 |= ((t >> three) & seven) << sh
                a2 |= ((t >> n6) & seven) << sh
            # the bands: each row's triads against the boxes (kept in locals, written once), in the bands whose
            # word is not as it was last masked (masking twice changes nothing, and its singles were placed)
            w0 &= a0 * rep
            w1 &= a1 * rep
            w2 &= a2 * rep
            changed = 0
            if w0 != last[k]:
                w0 = _band9(w0)
                changed |= 1
            if w1 != last[k + 1]:
                w1 = _band9(w1)
                changed |= 2
            if w2 != last[k + 2]:
                w2 = _band9(w2)
                changed |= 4
            if w0 == 0 or w1 == 0 or w2 == 0:
                return False
            frame[k] = last[k] = w0
            frame[k + 1] = last[k + 1] = w1
            frame[k + 2] = last[k + 2] = w2
            progress = True
            for b in range(3):
                if changed >> b & 1 == 0:
                    continue
                # the rows of one open cell (hidden singles), placed together: the word, masked, has nothing
                # else in their rows, boxes and columns of this band; their columns leave the digit's other
                # bands and their cells the band's other digits (a single placed in the band before may
                # have taken a column of this one: the word read again)
                w = frame[k + b]
                found = np.uint64(0)
                for r in range(3):
                    rw = w & _ROW27[r]
                    if rw & (rw - one) == 0:
                        found |= rw
                found &= frame[_OPEN + b]
                if found == 0:
                    continue
                ctl[I_HIDDEN] += _popcount(found)
                gone = ~(((found | (found >> n9) | (found >> n18)) & nine) * rep)
                for e in range(3):
                    if e != b:
                        frame[k + e] &= gone
                gone = ~found
                for e in range(b, 27, 3):
                    frame[e] &= gone
                frame[k + b] = w
                frame[_OPEN + b] &= gone
        if progress:
            continue
        for b in range(3):  # naked singles: the open cells with one candidate
            u = frame[_OPEN + b]
            if u == 0:
                continue
            once = np.uint64(0)
            twice = np.uint64(0)
            for d in range(9):
                x = frame[3 * d + b]
                twice |= once & x
                once |= x
            if u & ~once:
                return False  # an open cell without a candidate
            singles = u & ~twice
            while singles:
                bit = singles & (~singles + one)
                singles ^= bit
                d = 0
                while d < 9 and frame[3 * d + b] & bit == 0:
                    d += 1
                if d == 9 or not _place9(frame, d, b, bit):
                    return False
                ctl[I_NAKED] += 1
                progress = True
        if not progress:
            return True


@numba.njit(**_UNCOUNTED)
def _choose9(frame):  # type: ignore[no-untyped-def]
    """The cell to guess on: (band, cell bit), the first open cell of two candidates, else of fewest."""
    best_b = -1
    best_bit = np.uint64(0)
    fewest = 10
    for b in range(3):
        u = frame[_OPEN + b]
        if u == 0:
            continue
        c1 = np.uint64(0)
        c2 = np.uint64(0)
        c3 = np.uint64(0)
        for d in range(9):
            x = frame[3 * d + b]
            c3 |= c2 & x
            c2 |= c1 & x
            c1 |= x
        two = u & c2 & ~c3
        if two:
            return b, two & (~two + np.uint64(1))
        rest = u
        while rest:
            bit = rest & (~rest + np.uint64(1))
            rest ^= bit
            k = 0
            for d in range(9):
                if frame[3 * d + b] & bit:
                    k += 1
            if k < fewest:
                fewest = k
                best_b = b
                best_bit = bit
    return best_b, best_bit


@numba.njit(cache=True, inline="always")
def _digits9(frame, out):  # type: ignore[no-untyped-def]
    """The 81 digits of a solved bit board into ``out``."""
    for e in range(9):
        for b in range(3):
            w = frame[3 * e + b]
            while w:
                bit = w & (~w + np.uint64(1))
                w ^= bit
                out[27 * b + _digit(bit) - 1] = e + 1


@numba.njit(**_UNCOUNTED)
def _search9(  # type: ignore[no-untyped-def]
    puzzles,
    limit,
    keep,
    time_limit,
    slice_seconds,
    scratch,
    stack,
    levels,
    solutions,
    ctl,
    clk,
    out_status,
    out_count,
    out_exact,
    out_first,
    out_elapsed,
    out_stats,
):
    """``search`` on 9x9 boards with the bit board (same arguments, answers and control words)."""
    rest = _WIDTH9  # a level's words after its state: the digits left to try at its guess (bit d)
    call_start = _now()
    first_puzzle = ctl[I_PUZZLE]
    last = scratch[:27]
    while ctl[I_PUZZLE] < puzzles.shape[0]:
        i = ctl[I_PUZZLE]
        if ctl[I_PHASE] == PHASE_START:
            if not _begin(i > first_puzzle, call_start, slice_seconds, time_limit, ctl, clk):
                return SLICE
            frame = stack[0]
            for k in range(27):
                frame[k] = _BAND
            for b in range(3):
                frame[_OPEN + b] = _BAND
            ok = True
            for c in range(81):
                v = puzzles[i, c]
                out_first[i, c] = 0
                if v == 0:
                    continue
                b = c // 27
                if v > 9 or not _place9(frame, v - 1, b, np.uint64(1) << np.uint64(c - 27 * b)):
                    ok = False
            if not ok:  # a given where its digit is no longer possible
                _settle_puzzle(i, UNSOLVABLE, 1, ctl, clk, out_status, out_count, out_exact, out_elapsed, out_stats)
                continue
            ctl[I_DEPTH] = 0
            ctl[I_PHASE] = PHASE_NODE
        while True:
            phase = ctl[I_PHASE]
            d = ctl[I_DEPTH]
            if phase in (PHASE_NODE, PHASE_RESUME):
                entered = _enter(phase, d, stack.shape[0], _CHECK_EVERY, call_start, slice_seconds, ctl, clk)
                if entered > 0:
                    return entered
                if entered < 0:
                    _settle_puzzle(i, TIMEOUT, 0, ctl, clk, out_status, out_count, out_exact, out_elapsed, out_stats)
                    break
                frame = stack[d]
                if d == 0:  # (below, ``last`` holds the parent's words, at a fixed point, copied with the guess)
                    for k in range(27):
                        last[k] = 0
                if not _propagate9(frame, last, ctl):
                    phase = -1
                else:
                    b, bit = _choose9(frame)
                    if b < 0:
                        ctl[I_PHASE] = PHASE_FOUND
                        continue
                    digits = np.uint64(0)
                    for e in range(9):
                        if frame[3 * e + b] & bit:
                            digits |= np.uint64(1) << np.uint64(e)
                    levels[d, 0] = 27 * b + _digit(bit) - 1
                    stack[d, rest] = digits
                    ctl[I_PHASE] = PHASE_NEXT
                    continue
            elif phase == PHASE_FOUND:
                frame = stack[d]
                row = _solution_row(keep, ctl, solutions)
                if row == -2:
                    return SOLUTIONS_FULL
                if row >= 0:
                    _digits9(frame, solutions[row])
                if ctl[I_COUNT] == 0:
                    _digits9(frame, out_first[i])
                ctl[I_COUNT] += 1
                if ctl[I_COUNT] >= limit:
                    _settle_puzzle(i, SOLVED, 0, ctl, clk, out_status, out_count, out_exact, out_elapsed, out_stats)
                    break
                phase = -1
            elif phase == PHASE_NEXT:
                m = stack[d, rest]
                if m == 0:
                    phase = -1
                else:
                    low = m & (~m + np.uint64(1))
                    stack[d, rest] = m ^ low
                    ctl[I_GUESSES] += 1
                    cell = levels[d, 0]
                    b = cell // 27
                    child = stack[d + 1]
                    frame = stack[d]
                    for k in range(27):  # (element by element: no check that two rows of one array overlap)
                        w = frame[k]
                        child[k] = w
                        last[k] = w
                    for k in range(27, _WIDTH9):
                        child[k] = frame[k]
                    if _place9(child, _digit(low) - 1, b, np.uint64(1) << np.uint64(cell - 27 * b)):
                        _down(d, ctl, levels)
                    else:
                        ctl[I_BACKTRACKS] += 1
                    continue
            if _up(d, ctl, levels):
                status = SOLVED if ctl[I_COUNT] > 0 else UNSOLVABLE
                _settle_puzzle(i, status, 1, ctl, clk, out_status, out_count, out_exact, out_elapsed, out_stats)
                break
    return DONE


@numba.njit(cache=True)
def search_general(  # type: ignore[no-untyped-def]
    puzzles,
    limit,
    keep,
    time_limit,
    slice_seconds,
    big,
    full,
    peers,
    units,
    units_of,
    segs,
    groups,
    rests,
    scratch,
    weight,
    stack,
    levels,
    queue_cell,
    queue_bit,
    dirty,
    solutions,
    ctl,
    clk,
    out_status,
    out_count,
    out_exact,
    out_first,
    out_elapsed,
    out_stats,
):
    """Search puzzles ``ctl[I_PUZZLE]`` onwards (rows of ``puzzles``, 0 blank), resuming where the last call stopped.

    Per puzzle: count up to ``limit`` solutions, copy the first to ``out_first`` and the first ``keep``
    to ``solutions`` (returning SOLUTIONS_FULL when it is full), stop at ``time_limit`` seconds (< 0:
    none). Returns DONE, or SLICE after ``slice_seconds`` of wall time, or NEED_STACK. With ``big``, each
    node adds locked candidates and the look-ahead (``backtrack``'s search on boards of 16x16 and more).
    """
    size = puzzles.shape[1]
    width = stack.shape[1] - 2  # a state; a level's last two words: the digits left to try, the one to try first
    rest = width
    prefer = width + 1
    nunits = units.shape[0]
    n = units.shape[1]
    check_every = 0 if big else _CHECK_EVERY  # a big board's node takes milliseconds: look at the clock at each
    call_start = _now()
    first_puzzle = ctl[I_PUZZLE]
    one = np.uint64(1)
    while ctl[I_PUZZLE] < puzzles.shape[0]:
        i = ctl[I_PUZZLE]
        if ctl[I_PHASE] == PHASE_START:
            if not _begin(i > first_puzzle, call_start, slice_seconds, time_limit, ctl, clk):
                return SLICE  # (after one puzzle at least: every call makes progress)
            for c in range(size):
                out_first[i, c] = 0
                weight[c] = 0
            frame = stack[0]
            for c in range(size):
                frame[c] = full
                frame[size + c] = 0
            for u in range(nunits):
                frame[2 * size + u] = 0
            ok = True
            qc, qb = queue_cell, queue_bit
            for c in range(size):
                v = puzzles[i, c]
                if v == 0:
                    continue
                if v > n or not _assign(frame, size, c, one << np.uint64(v - 1), peers, units_of, qc, qb, dirty, ctl):
                    ok = False
                    break
            if not ok:  # the givens contradict each other through their consequences
                _settle_puzzle(i, UNSOLVABLE, 1, ctl, clk, out_status, out_count, out_exact, out_elapsed, out_stats)
                continue
            for u in range(nunits):
                dirty[u] = 1
            ctl[I_DEPTH] = 0
            ctl[I_PHASE] = PHASE_NODE
        while True:  # one step of the search of puzzle i
            phase = ctl[I_PHASE]
            d = ctl[I_DEPTH]
            if phase in (PHASE_NODE, PHASE_RESUME):
                entered = _enter(phase, d, stack.shape[0], check_every, call_start, slice_seconds, ctl, clk)
                if entered > 0:
                    return entered  # (NEED_STACK: the look-ahead's tries and the guesses use level d + 1)
                if entered < 0:
                    _settle_puzzle(i, TIMEOUT, 0, ctl, clk, out_status, out_count, out_exact, out_elapsed, out_stats)
                    break
                frame = stack[d]
                best = -1
                first = np.uint64(0)
                if big:
                    settled = _settle(
                        frame,
                        size,
                        full,
                        peers,
                        units,
                        units_of,
                        segs,
                        groups,
                        rests,
                        scratch,
                        queue_cell,
                        queue_bit,
                        dirty,
                        ctl,
                    )
                    answer = AHEAD_CONTRADICTION
                    if settled:
                        answer, best, first = _look_ahead(
                            frame,
                            stack[d + 1],
                            size,
                            full,
                            peers,
                            units,
                            units_of,
                            segs,
                            groups,
                            rests,
                            scratch,
                            queue_cell,
                            queue_bit,
                            dirty,
                            ctl,
                            clk[I_DEADLINE],
                        )
                    if answer == AHEAD_TIMEOUT:
                        ctl[I_STATUS] = TIMEOUT
                        ctl[I_EXACT] = 0
                        _finish(i, ctl, clk, out_status, out_count, out_exact, out_elapsed, out_stats)
                        break
                    ok = answer == AHEAD_OK
                    if ok and best < 0:  # no cell of two: the fewest candidates, the one whose guesses failed most
                        best_score = np.int64(1) << 62
                        for c in range(size):
                            m = frame[c]
                            if m != 0:
                                score = (_popcount(m) << 40) - weight[c]
                                if score < best_score:
                                    best = c
                                    best_score = score
                else:
                    ok = _hidden_singles(frame, size, full, peers, units, units_of, queue_cell, queue_bit, dirty, ctl)
                    if ok:
                        fewest = n + 1
                        for c in range(size):
                            m = frame[c]
                            if m != 0:
                                k = _popcount(m)
                                if k < fewest:
                                    best = c
                                    fewest = k
                                    if k == 2:
                                        break
                if not ok:
                    phase = -1  # this node failed: back to its parent
                else:
                    if best < 0:
                        ctl[I_PHASE] = PHASE_FOUND
                        continue
                    levels[d, 0] = best
                    stack[d, rest] = frame[best]
                    stack[d, prefer] = first
                    ctl[I_PHASE] = PHASE_NEXT
                    continue
            elif phase == PHASE_FOUND:
                frame = stack[d]
                row = _solution_row(keep, ctl, solutions)
                if row == -2:
                    return SOLUTIONS_FULL
                if row >= 0:
                    for c in range(size):
                        solutions[row, c] = _digit(frame[size + c])
                if ctl[I_COUNT] == 0:
                    for c in range(size):
                        out_first[i, c] = _digit(frame[size + c])
                ctl[I_COUNT] += 1
                if ctl[I_COUNT] >= limit:
                    _settle_puzzle(i, SOLVED, 0, ctl, clk, out_status, out_count, out_exact, out_elapsed, out_stats)
                    break
                phase = -1  # back to the parent
            elif phase == PHASE_NEXT:
                m = stack[d, rest]
                if m == 0:
                    phase = -1  # every digit tried here: back to the parent
                else:
                    bit = stack[d, prefer]
                    if bit == 0:
                        bit = m & (~m + one)  # digits in increasing order
                    else:
                        stack[d, prefer] = 0  # the look-ahead's first digit, then the other
                    stack[d, rest] = m ^ bit
                    ctl[I_GUESSES] += 1
                    cell = levels[d, 0]
                    child = stack[d + 1]
                    child[:width] = stack[d, :width]
                    for u in range(nunits):
                        dirty[u] = 0
                    if _assign(child, size, cell, bit, peers, units_of, queue_cell, queue_bit, dirty, ctl):
                        _down(d, ctl, levels)
                    else:
                        ctl[I_BACKTRACKS] += 1
                        if big:
                            weight[cell] += 1
                    continue
            # phase -1: node d is finished; its parent tries its next digit
            if _up(d, ctl, levels):
                status = SOLVED if ctl[I_COUNT] > 0 else UNSOLVABLE
                _settle_puzzle(i, status, 1, ctl, clk, out_status, out_count, out_exact, out_elapsed, out_stats)
                break
    return DONE


@numba.njit(cache=True)
def search(  # type: ignore[no-untyped-def]
    puzzles,
    limit,
    keep,
    time_limit,
    slice_seconds,
    big,
    full,
    peers,
    units,
    units_of,
    segs,
    groups,
    rests,
    scratch,
    weight,
    stack,
    levels,
    queue_cell,
    queue_bit,
    dirty,
    solutions,
    ctl,
    clk,
    out_status,
    out_count,
    out_exact,
    out_first,
    out_elapsed,
    out_stats,
):
    """:func:`search_general`, with its arguments (by name too: the engine's contract) and answers; on 9x9
    boards without ``big``, the bit board (:func:`_search9`, which keeps its work in ``scratch``'s first
    81 words and a state in a stack row's first 31)."""
    if puzzles.shape[1] == 81 and not big and scratch.shape[0] >= 81 and stack.shape[1] > _WIDTH9:
        return _search9(
            puzzles,
            limit,
            keep,
            time_limit,
            slice_seconds,
            scratch,
            stack,
            levels,
            solutions,
            ctl,
            clk,
            out_status,
            out_count,
            out_exact,
            out_first,
            out_elapsed,
            out_stats,
        )
    return search_general(
        puzzles,
        limit,
        keep,
        time_limit,
        slice_seconds,
        big,
        full,
        peers,
        units,
        units_of,
        segs,
        groups,
        rests,
        scratch,
        weight,
        stack,
        levels,
        queue_cell,
        queue_bit,
        dirty,
        solutions,
        ctl,
        clk,
        out_status,
        out_count,
        out_exact,
        out_first,
        out_elapsed,
        out_stats,
    )


# --- One puzzle from Python, in one buffer ---------------------------------------------------------------
#
# numba's dispatcher types every argument of every call: ``search``'s 29 cost about 4.5 us, half a 17-clue
# puzzle's search. ``search_packed`` takes five: the puzzles, the limits and one uint64 buffer (the engine's
# ``_Work.pack``) holding every other array, each at the word its head gives (``H_*``): the same arrays,
# so a call that does not finish (SLICE, NEED_STACK, SOLUTIONS_FULL) goes on through ``search``.

#: The head of a pack, a word each: the offset (in words) of each array, its dimensions, the slice.
(
    H_SCRATCH,
    H_N_SCRATCH,
    H_CTL,
    H_CLK,
    H_SOLUTIONS,
    H_N_SOLUTIONS,
    H_SIZE,
    H_STATUS,
    H_COUNT,
    H_EXACT,
    H_FIRST,
    H_ELAPSED,
    H_STATS,
    H_N_STATS,
    H_STACK,
    H_DEPTH,
    H_WIDTH,
    H_LEVELS,
    H_SLICE,
    N_HEAD,
) = range(20)


@numba.njit(**_UNCOUNTED)  # the views of the pack without reference counting: 0.5 us a call less
def search_packed(puzzles, limit, keep, time_limit, pack):  # type: ignore[no-untyped-def]
    """:func:`search` from the start of ``puzzles`` (without ``big``), its arrays and slice taken from ``pack``.

    Compiled without reference counting, as the bit board is: every array here is a view of an argument,
    which the caller holds while the call runs.
    """
    head = pack[:N_HEAD].view(np.int64)
    size, depth, width, nsol, nstats = head[H_SIZE], head[H_DEPTH], head[H_WIDTH], head[H_N_SOLUTIONS], head[H_N_STATS]
    o = head[H_SCRATCH]
    scratch = pack[o : o + head[H_N_SCRATCH]]
    o = head[H_STACK]
    stack = pack[o : o + depth * width].reshape((depth, width))
    o = head[H_LEVELS]
    levels = pack[o : o + 2 * depth].view(np.int64).reshape((depth, 2))
    o = head[H_SOLUTIONS]
    solutions = pack[o : o + (nsol * size + 7) // 8].view(np.uint8)[: nsol * size].reshape((nsol, size))
    o = head[H_CTL]
    ctl = pack[o : o + N_CTL].view(np.int64)
    o = head[H_CLK]
    clk = pack[o : o + N_CLK].view(np.float64)
    o = head[H_STATUS]
    out_status = pack[o : o + 1].view(np.uint8)[:1]
    o = head[H_COUNT]
    out_count = pack[o : o + 1].view(np.int64)
    o = head[H_EXACT]
    out_exact = pack[o : o + 1].view(np.uint8)[:1]
    o = head[H_FIRST]
    out_first = pack[o : o + (size + 7) // 8].view(np.uint8)[:size].reshape((1, size))
    o = head[H_ELAPSED]
    out_elapsed = pack[o : o + 1].view(np.float64)
    o = head[H_STATS]
    out_stats = pack[o : o + nstats].view(np.int64).reshape((nstats, 1))
    slice_seconds = pack[H_SLICE : H_SLICE + 1].view(np.float64)[0]
    ctl[I_PUZZLE] = 0
    ctl[I_PHASE] = PHASE_START
    if size == 81 and scratch.shape[0] >= 81 and width > _WIDTH9:
        return _search9(
            puzzles,
            limit,
            keep,
            time_limit,
            slice_seconds,
            scratch,
            stack,
            levels,
            solutions,
            ctl,
            clk,
            out_status,
            out_count,
            out_exact,
            out_first,
            out_elapsed,
            out_stats,
        )
    return -1  # not a 9x9 board: the caller calls ``search``


@numba.njit(cache=True)
def search_bytes(puzzle, limit, keep, time_limit, pack):  # type: ignore[no-untyped-def]
    """:func:`search_packed` on one puzzle given as its bytes (``Grid.to_bytes()``), read where it is, not copied.

    -1 for bytes of another length than the pack's board (the caller then writes the puzzle and calls ``search``).
    """
    if len(puzzle) != pack[:N_HEAD].view(np.int64)[H_SIZE]:
        return -1
    return search_packed(np.frombuffer(puzzle, np.uint8).reshape((1, len(puzzle))), limit, keep, time_limit, pack)
