"""Puzzle generation (``sudokit.features.generation``): its speed targets, the engine per board size, and the level
hit rates.

    python benchmarks/bench_generate.py                  # every section
    python benchmarks/bench_generate.py targets engines --puzzles 5

Sections:
  targets    a minimal unique 9x9 (target: median < 100 ms) and a unique 16x16 (target: median < 5 s),
             with the default engine, against a baseline of this run: the same generator proving every
             removal by counting (no naked-single shortcut), seed by seed, interleaved.
  engines    median ms a puzzle for each counting engine (backtrack, sat, cp-sat) on each board size,
             minimal and not, interleaved seed by seed: the measurements behind ``default_engine``.
             The puzzles are the same whatever the engine (checked).
  symmetry   median ms and givens of a minimal 9x9 for each symmetry.
  levels     how often a random (minimal and not) 9x9 lands at each level of ``sudokit.features.rating.rate``: the
             hit rate of ``level=`` (expected attempts = 1 / rate); skipped while sudokit.features.rating is missing.
  killer     a unique killer 9x9 with no givens (``generate --rules killer --no-givens``; target: median < 5 s),
             wall and CPU seconds a puzzle over ``2 * --puzzles + 2`` seeds (20 by default) for cp-sat (the default)
             and sat counting, with the load average; the engines are loaded before the clock starts.
  variants   median wall and CPU seconds and givens of a 9x9 (not minimal, and minimal) for a few rule sets.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

from sudokit import get_strategy
from sudokit.errors import StrategyError
from sudokit.features.generation import LEVELS, PuzzleStream, default_engine, generate


class _CountingOnly(PuzzleStream):
    """The baseline: every removal proved by the engine (the naked-single shortcut off)."""

    def _forced(self, *args: object) -> bool:
        return False


def one(box: str, seed: int, *, baseline: bool = False, **options: object) -> tuple[float, int, str]:
    """Seconds to make the first puzzle of ``seed``, its givens and its line."""
    stream = (_CountingOnly if baseline else PuzzleStream)(box, seed=seed, count=1, **options)  # type: ignore[arg-type]
    start = time.perf_counter()
    puzzle = next(stream)
    return time.perf_counter() - start, puzzle.count_givens(), puzzle.to_line()


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def section_targets(puzzles: int) -> bool:
    ok = True
    for box, minimal, target, unit in (("3x3", True, 0.100, "ms"), ("4x4", False, 5.0, "s"), ("4x4", True, 5.0, "s")):
        shipped, counting, givens = [], [], []
        for seed in range(puzzles):
            took, clues, line = one(box, seed, minimal=minimal)
            base, _, base_line = one(box, seed, minimal=minimal, baseline=True)
            assert base_line == line, "the shortcut changed the puzzle"
            shipped.append(took)
            counting.append(base)
            givens.append(clues)
        scale = 1000 if unit == "ms" else 1
        digits = 1 if unit == "ms" else 2
        median, base = statistics.median(shipped), statistics.median(counting)
        kind = "minimal" if minimal else "unique"
        hit = median < target
        is_target = not (box == "4x4" and minimal)  # the 16x16 target is for a unique puzzle; minimal is shown
        ok &= hit or not is_target
        print(
            f"{kind:7} {box} ({default_engine(box)}): median {median * scale:.{digits}f} {unit} "
            f"(max {max(shipped) * scale:.{digits}f}), {statistics.median(givens):g} givens; counting every removal "
            f"{base * scale:.{digits}f} {unit}, ratio {median / base:.2f}"
            + (f"  target < {target * scale:g} {unit}: {verdict(hit)}" if is_target else "")
        )
    return ok


def section_engines(puzzles: int) -> bool:
    engines = []
    for name in ("backtrack", "sat", "cp-sat"):
        try:
            get_strategy(name)
        except StrategyError as err:
            print(f"{name}: not available ({err})")
            continue
        engines.append(name)
    for box, sizes in (("2x3", puzzles * 4), ("3x3", puzzles * 2), ("3x4", puzzles), ("4x4", puzzles)):
        for minimal in (False, True):
            times: dict[str, list[float]] = {name: [] for name in engines}
            for seed in range(sizes):
                lines = set()
                for name in engines:
                    took, _, line = one(box, seed, minimal=minimal, engine=name)
                    times[name].append(took * 1000)
                    lines.add(line)
                assert len(lines) == 1, f"{box} seed {seed}: the engines made different puzzles"
            medians = {name: statistics.median(values) for name, values in times.items()}
            best = min(medians, key=medians.__getitem__)
            shown = ", ".join(f"{name} {ms:.1f}" for name, ms in medians.items())
            print(
                f"{box} {'minimal' if minimal else 'unique '}: median ms a puzzle: {shown}; fastest {best}, "
                f"default {default_engine(box)}"
            )
    return True


def section_symmetry(puzzles: int) -> bool:
    for symmetry in ("none", "rot180", "rot90", "mirror"):
        runs = [one("3x3", seed, minimal=True, symmetry=symmetry) for seed in range(puzzles * 2)]
        print(
            f"minimal 9x9 {symmetry:6}: median {statistics.median(r[0] for r in runs) * 1000:.1f} ms, "
            f"{statistics.median(r[1] for r in runs):g} givens"
        )
    return True


def section_levels(puzzles: int) -> bool:
    try:
        from sudokit.features.rating import rate
    except ImportError as err:
        print(f"levels: skipped: sudokit.features.rating is not there yet ({err})")
        return True
    for minimal in (False, True):
        sample = puzzles * 20
        counts = dict.fromkeys(LEVELS, 0)
        other: dict[str, int] = {}
        start = time.perf_counter()
        for puzzle in generate("3x3", count=sample, seed=12345, minimal=minimal):
            name = rate(puzzle).level.lower()
            if name in counts:
                counts[name] += 1
            else:
                other[name] = other.get(name, 0) + 1
        took = time.perf_counter() - start
        rates = ", ".join(f"{name} {counts[name] / sample:.1%}" for name in LEVELS)
        extra = f", other {other}" if other else ""
        print(f"9x9 {'minimal' if minimal else 'unique '} ({sample} puzzles, {took:.1f} s): {rates}{extra}")
    for level in LEVELS:
        stream = generate("3x3", count=1, seed=7, minimal=True, level=level, time_limit=60)
        got = list(stream)
        print(
            f"level={level}: {'found' if got else 'not found'} after {stream.attempts} attempts "
            f"in {stream.elapsed:.2f} s" + (" (time limit)" if stream.timed_out else "")
        )
    return True


def _variant_run(seed: int, **options: object) -> tuple[float, float, int, int]:
    """Wall and CPU seconds to make the first variant puzzle of ``seed`` (engines already loaded), its givens and
    its engine counts."""
    from sudokit.features.variant_generation import generate_variants

    stream = generate_variants("3x3", seed=seed, count=1, time_limit=120, **options)  # type: ignore[arg-type]
    wall, cpu = time.perf_counter(), time.process_time()
    puzzle = next(stream)
    return time.perf_counter() - wall, time.process_time() - cpu, puzzle.count_givens(), stream.checks


def section_killer(puzzles: int) -> bool:
    ok = True
    seeds = range(2 * puzzles + 2)
    for engine in ("cp-sat", "sat"):
        try:
            get_strategy(engine)
        except StrategyError as err:
            print(f"{engine}: not available ({err})")
            continue
        load = os.getloadavg()[0]
        runs = [_variant_run(seed, rules="killer", no_givens=True, engine=engine) for seed in seeds]
        wall = statistics.median(r[0] for r in runs)
        hit = wall < 5.0
        if engine == "cp-sat":
            ok &= hit
        print(
            f"killer 9x9, no givens ({engine}, {len(runs)} seeds, load {load:.1f} -> {os.getloadavg()[0]:.1f}): "
            f"median {wall:.2f} s wall, {statistics.median(r[1] for r in runs):.2f} s CPU "
            f"(max {max(r[0] for r in runs):.2f} s wall), {statistics.median(r[3] for r in runs):g} counts"
            + (f"  target < 5 s: {verdict(hit)}" if engine == "cp-sat" else "")
        )
    return ok


def section_variants(puzzles: int) -> bool:
    for rules in ("killer", "thermometer,arrow,kropki", "xv,xv-negative,odd-even", "sandwich,little-killer"):
        for minimal in (False, True):
            runs = [_variant_run(seed, rules=rules, minimal=minimal) for seed in range(puzzles)]
            wall, cpu, givens, counts = (statistics.median(r[k] for r in runs) for k in range(4))
            print(
                f"9x9 {rules:26} {'minimal' if minimal else 'unique '}: median {wall:.2f} s wall, {cpu:.2f} s CPU, "
                f"{givens:g} givens, {counts:g} counts"
            )
    return True


SECTIONS = {
    "targets": section_targets,
    "engines": section_engines,
    "symmetry": section_symmetry,
    "levels": section_levels,
    "killer": section_killer,
    "variants": section_variants,
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sections", nargs="*", help=f"any of {', '.join(SECTIONS)} (default: all)")
    parser.add_argument("--puzzles", type=int, default=9, help="seeds per measurement (default 9)")
    args = parser.parse_args()
    unknown = [name for name in args.sections if name not in SECTIONS]
    if unknown:
        parser.error(f"unknown section {unknown[0]!r}: choose from {', '.join(SECTIONS)}")
    ok = True
    for name in args.sections or SECTIONS:
        print(f"== {name}", flush=True)
        ok &= SECTIONS[name](args.puzzles)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
