"""What one ``sudokit.solve(grid, ENGINE)`` call costs per call, and where the time goes (issue 27: numba <= 15 us).

    python benchmarks/bench_solve_call.py                  # 2,000 of 17clue, limit 1, numba and backtrack
    python benchmarks/bench_solve_call.py --limit 2 --sample 5000 --rounds 9
    python benchmarks/bench_solve_call.py --profile        # then cProfile's top functions of solve() for numba
    python benchmarks/bench_solve_call.py --unchecked      # new grids made with validate=False

CPU microseconds a call (``time.process_time``), each the best of ``--rounds`` rounds over the sample
(the first ``--sample`` puzzles of puzzles/17clue.txt, parsed before timing); each round runs every
layer once in turn, so a busy spell of the shared machine weighs on all of them alike. For ``numba``,
each layer adds one part of the path to the one before:

* ``search``: the compiled search alone, the whole sample in one ``solve_many`` call (no Python per puzzle);
* ``kernel``: the kernel called once a puzzle as ``solve`` calls it (``kernels.search_bytes`` on the bytes the
  parsed grid keeps, through its compiled entry, the engine's ``_Work.one``; on an older tree
  ``kernels.search_packed``, the puzzle's bytes made and written first): adds the call's passage from Python and
  the kernel's set-up;
* ``engine``: the engine's ``solve_plain`` (what ``run`` calls): adds the engine's own Python (and, with
  ``--unchecked``, the new grid's bytes);

(run with ``PYTHONPATH`` on an older tree, without ``search_packed`` and ``solve_plain``, ``kernel`` is the
29-argument ``kernels.search`` and ``engine`` the engine's ``solve``, as ``solve`` called them there)
* ``run()``: ``sudokit.engines.api.run(engine, grid)``: adds the watchdog and Ctrl-C record, the result made
  of the plain answer and checked independently (``_solved_once`` and ``verify.solved_once_holds`` for a solved
  answer of one solution; else ``result_of`` and ``verify.answer_holds``);
* ``solve()``: ``sudokit.solve(grid, "numba")``: adds the arguments' checks and the registry's look-up.

The ``engine``, ``run()`` and ``solve()`` layers take new grids each round, made as a caller makes them
(``Grid(cells)``, ``Grid.parse``: checked, which makes their bytes; with ``--unchecked``, ``validate=False``).
For ``backtrack`` (the first ``--sample // 4`` puzzles: it takes about 0.4 ms each): its ``solve``, ``run()``
and ``solve()``. Every answer is checked against backtrack's before timing.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
from collections.abc import Callable
from itertools import islice, pairwise
from pathlib import Path

from sudokit import Grid, get_strategy, solve
from sudokit.engines.api import run
from sudokit.io.reader import read_file

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_tdoku import best  # the least CPU time of each run over rounds that take turns

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
TARGET_US = 15.0
#: What each numba layer adds to the one before.
PARTS = {"kernel": "dispatch", "engine": "engine", "run()": "run()", "solve()": "solve()"}


def numba_layers(grids: list[Grid], limit: int, rounds: int, checked: bool) -> dict[str, Callable[[], None]]:
    """The numba path's layers, each a run over ``grids`` (see the module's docstring)."""
    engine = get_strategy("numba")
    work = engine._work(grids[0].shape)  # type: ignore[attr-defined]
    k = work.k
    raw = memoryview(b"".join(bytes(g.cells) for g in grids))
    shape = grids[0].shape

    def search() -> None:
        engine.solve_many(raw, shape, limit=limit)  # type: ignore[attr-defined]

    def kernel() -> None:
        if not hasattr(k, "search_packed"):  # sudokit before issue 27 (PYTHONPATH on an older tree): 29 arguments
            for grid in grids:
                work.puzzle_bytes[:] = bytes(grid.cells)
                work.ctl[k.I_PUZZLE] = work.ctl[k.I_PHASE] = 0
                work.search(work.puzzle, limit, limit, -1.0, 0.05, *work.arrays, *work.single.arrays)
            return
        one = getattr(work, "one", None)
        if one is None:  # sudokit before search_bytes: the puzzle written into the one-puzzle array, then searched
            for grid in grids:
                work.puzzle_bytes[:] = bytes(grid.cells)
                k.search_packed(work.puzzle, limit, limit, -1.0, work.pack)
            return
        for grid in grids:  # (the bytes a parsed grid keeps)
            one(grid.to_bytes(), limit, limit, -1.0, work.pack)

    answer = getattr(engine, "solve_plain", engine.solve)  # (an older tree: the engine's Result)
    return {"search": search, "kernel": kernel, **outer_layers("numba", answer, grids, limit, rounds, checked)}


def outer_layers(
    name: str, answer: Callable[..., object], grids: list[Grid], limit: int, rounds: int, checked: bool = True
) -> dict[str, Callable[[], None]]:
    """The engine's own call ``answer``, then ``run()`` and ``solve()`` around the engine ``name``, over ``grids``.

    Each of the ``rounds`` calls of a layer takes new grids of the same cells, as a caller's new puzzles are
    (``checked``; else made with ``validate=False``, which leaves their bytes to the first solve).
    """
    engine = get_strategy(name)

    def fresh() -> list[Grid]:
        """New grids of the sample's cells, made as a caller makes them (``Grid(cells)``, ``Grid.parse``: checked,
        which makes their bytes): what a grid keeps once solved is not reused by the next round."""
        return [Grid(grid.cells, grid.shape, validate=checked) for grid in grids]

    def own() -> None:
        for grid in sets["engine"].pop():
            answer(grid, limit=limit)

    def through_run() -> None:
        for grid in sets["run()"].pop():
            run(engine, grid, limit=limit)

    def through_solve() -> None:
        for grid in sets["solve()"].pop():
            solve(grid, name, limit=limit)

    sets = {layer: [fresh() for _ in range(rounds)] for layer in ("engine", "run()", "solve()")}

    return {"engine": own, "run()": through_run, "solve()": through_solve}


def report(name: str, us: dict[str, float]) -> None:
    """One line per layer: CPU us a call, and what it adds to the layer before."""
    previous = None
    for layer, figure in us.items():
        added = "" if previous is None else f"  (+{figure - previous:6.2f})"
        print(f"  {name:9s} {layer:8s} {figure:8.2f} us{added}")
        previous = figure


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=2000, help="puzzles of 17clue (default: 2,000)")
    parser.add_argument("--rounds", type=int, default=7, help="rounds; each figure is the best (default: 7)")
    parser.add_argument("--limit", type=int, default=1, help="solutions to look for (default: 1; 2 for uniqueness)")
    parser.add_argument("--profile", action="store_true", help="print cProfile's top functions of numba's solve()")
    parser.add_argument(
        "--unchecked", action="store_true", help="new grids made with validate=False (their bytes made by the solve)"
    )
    args = parser.parse_args()
    grids = [record.parse() for record in islice(read_file(PUZZLES / "17clue.txt"), args.sample)]
    few = grids[: max(1, len(grids) // 4)]
    for grid in few[:50]:  # every answer the same as backtrack's (and the engines warm)
        expected = solve(grid, "backtrack", limit=2)
        got = solve(grid, "numba", limit=2)
        if (got.status, got.count, got.solution) != (expected.status, expected.count, expected.solution):
            print(f"numba's answer differs from backtrack's on {grid.to_line()}", file=sys.stderr)
            return 1
    rounds, limit = args.rounds, args.limit
    backtrack = get_strategy("backtrack")
    print(f"17clue, {len(grids)} puzzles (backtrack {len(few)}), limit {limit}, CPU us a call, best of {rounds}")
    calls = numba_layers(grids, limit, rounds, not args.unchecked)
    numba_us = {k: v * 1e6 / len(grids) for k, v in best(rounds, calls).items()}
    report("numba", numba_us)
    back_rounds = max(1, rounds // 3)
    back_us = {
        k: v * 1e6 / len(few)
        for k, v in best(back_rounds, outer_layers("backtrack", backtrack.solve, few, limit, back_rounds)).items()
    }
    report("backtrack", back_us)
    figure = numba_us["solve()"]
    layers = list(numba_us.items())
    parts = [f"{layers[0][0]} {layers[0][1]:.2f}"]
    parts += [f"{PARTS[name]} {us - before:.2f}" for (_, before), (name, us) in pairwise(layers)]
    print(f"split of numba's solve(): {', '.join(parts)} us")
    verdict = "pass" if figure <= TARGET_US else "FAIL"
    print(f"target: solve(grid, 'numba') <= {TARGET_US:g} us a call: {figure:.2f} us: {verdict}")
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        for grid in grids:
            solve(grid, "numba", limit=args.limit)
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(15)
    return 0


if __name__ == "__main__":
    sys.exit(main())
