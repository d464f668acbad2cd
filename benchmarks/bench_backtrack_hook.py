"""backtrack on classic puzzles: the working copy against the engine committed at a git revision, in one run.

The variant hook must cost classic puzzles nothing (issue 10: at most 5% slower). This loads the
engine as committed at HEAD (or ``--base REV``: 7fb2b45 is the last engine without the hook) under a name
of its own: the package ``strategies/sudokit_strategies/backtrack/`` (its imports of itself renamed), or
before issue 23 the one module ``backtrack.py``; then it times
both engines' ``solve`` on the same parsed puzzles, interleaved (each puzzle: old then new, or new
then old, alternating), for several repetitions, on top95 and a sample of 17clue. It prints each
engine's total per repetition, the ratio new / old per repetition and their median, and the ratio of
the sums of each puzzle's best time (steadier when other processes share the machine); a ratio above
1 means the working copy is slower. Both engines' answers are compared on every puzzle. With
``--control`` a second copy of the base runs in the same rotation: its ratio to the first is the noise.

    python benchmarks/bench_backtrack_hook.py                    # top95 x5, 17clue[:2000] x3
    python benchmarks/bench_backtrack_hook.py --reps 9 --control # and HEAD against itself: the noise
    python benchmarks/bench_backtrack_hook.py --base 7fb2b45     # against the engine before the hook
    python benchmarks/bench_backtrack_hook.py --reps 3 --sample 500 --limit 2
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import itertools
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

from sudokit import Grid
from sudokit.io.reader import read_file
from sudokit_strategies.backtrack import BacktrackStrategy

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
ENGINE_PATH = "strategies/sudokit_strategies/backtrack"  # a package; before issue 23, the one module backtrack.py
PACKAGE = "sudokit_strategies.backtrack"


def git_show(what: str) -> str:
    """``git show what`` (``REV:PATH``) in this repository."""
    return subprocess.run(["git", "show", what], cwd=ROOT, capture_output=True, text=True, check=True).stdout


def head_module(name: str = "backtrack_head", base: str = "HEAD") -> ModuleType:
    """The engine as committed at git revision ``base``, imported as ``name`` (a package, or the one module)."""
    listed = subprocess.run(
        ["git", "ls-tree", "--name-only", f"{base}:{ENGINE_PATH}"], cwd=ROOT, capture_output=True, text=True
    )
    folder = Path(tempfile.mkdtemp())
    if listed.returncode == 0:  # the package: its modules, their imports of each other renamed to ``name``
        package = folder / name
        package.mkdir()
        for file in listed.stdout.split():
            if file.endswith(".py"):
                source = git_show(f"{base}:{ENGINE_PATH}/{file}").replace(PACKAGE, name)
                (package / file).write_text(source, encoding="utf-8")
        spec = importlib.util.spec_from_file_location(
            name, package / "__init__.py", submodule_search_locations=[str(package)]
        )
    else:
        path = folder / f"{name}.py"
        path.write_text(git_show(f"{base}:{ENGINE_PATH}.py"), encoding="utf-8")
        spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def measure(label: str, grids: list[Grid], engines: dict[str, object], reps: int, limit: int) -> dict[str, float]:
    """Time ``engines`` interleaved; print totals per repetition and ratios to "old"; per-puzzle-best ratios.

    Each puzzle is solved by every engine in turn, the order rotating from puzzle to puzzle. The
    figure returned per engine sums every puzzle's fastest time over the repetitions, against the
    same sum of "old": time that other processes took from a run falls out of it, which makes it the
    steadier figure on a busy machine.
    """
    names = list(engines)
    ratios: dict[str, list[float]] = {name: [] for name in names[1:]}
    best = {name: [float("inf")] * len(grids) for name in names}
    print(f"{label}: {len(grids)} puzzles, limit {limit}, {reps} repetitions")
    for rep in range(reps):
        totals = dict.fromkeys(names, 0.0)
        for k, grid in enumerate(grids):
            shift = (k + rep) % len(names)
            answers = {}
            for name in names[shift:] + names[:shift]:
                start = time.perf_counter()
                result = engines[name].solve(grid, limit=limit)  # type: ignore[attr-defined]
                elapsed = time.perf_counter() - start
                totals[name] += elapsed
                best[name][k] = min(best[name][k], elapsed)
                answers[name] = (result.status, result.count, result.solutions)
            if len(set(answers.values())) != 1:
                raise SystemExit(f"{label} puzzle {k + 1}: the engines disagree: {answers}")
        shown = "  ".join(f"{name} {totals[name]:7.3f} s" for name in names)
        for name in names[1:]:
            ratios[name].append(totals[name] / totals["old"])
        print(f"  rep {rep + 1}: {shown}  " + "  ".join(f"{n}/old {r[-1]:.4f}" for n, r in ratios.items()))
    out = {}
    for name in names[1:]:
        out[name] = sum(best[name]) / sum(best["old"])
        r = ratios[name]
        print(
            f"  {label} {name}/old: median of repetitions {statistics.median(r):.4f} "
            f"(min {min(r):.4f}, max {max(r):.4f}); per-puzzle best times {sum(best['old']):.3f} s -> "
            f"{sum(best[name]):.3f} s = {out[name]:.4f}"
        )
    return out


#: The classes a classic puzzle runs: their modules in the package, and their names.
CLASSIC = (("base", "Base"), ("search", "Search"), ("plain", "PlainSearch"))


def classic_class(engine: ModuleType, module: str, name: str) -> type:
    """The class ``name`` of ``engine``: in its ``module`` if a package, else ``_name`` of the one module."""
    if hasattr(engine, "__path__"):
        return getattr(importlib.import_module(f"{engine.__name__}.{module}"), name)
    return getattr(engine, f"_{name}")


def same_classic_code(old: ModuleType, new: ModuleType) -> str:
    """Whether the classes a classic puzzle runs are the same source in both engines (a line to print)."""
    names = [name for _, name in CLASSIC]
    differ = [
        name
        for module, name in CLASSIC
        if inspect.getsource(classic_class(old, module, name)) != inspect.getsource(classic_class(new, module, name))
    ]
    if differ:
        return f"classic search classes changed since the base: {', '.join(differ)}"
    return f"classic search classes ({', '.join(names)}) are the same source as at the base"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=0, help="repetitions (default: 5 for top95, 3 for 17clue)")
    parser.add_argument("--sample", type=int, default=2000, help="puzzles of 17clue to take (default 2000)")
    parser.add_argument("--limit", type=int, default=1, help="solutions to look for (2 proves uniqueness)")
    parser.add_argument(
        "--control", action="store_true", help="time a second copy of the base too: the noise floor (control/old)"
    )
    parser.add_argument("--base", default="HEAD", help="the git revision whose engine is 'old' (default HEAD)")
    args = parser.parse_args()
    head = head_module(base=args.base)
    print(f"old: {ENGINE_PATH} at {args.base}; new: the working copy")
    print(same_classic_code(head, importlib.import_module(PACKAGE)))
    engines: dict[str, object] = {"old": head.BacktrackStrategy(), "new": BacktrackStrategy()}
    if args.control:
        engines["control"] = head_module("backtrack_control", args.base).BacktrackStrategy()
    sets = {
        "top95": ([Grid.parse(r.text) for r in read_file(PUZZLES / "top95.txt")], args.reps or 5),
        f"17clue[:{args.sample}]": (
            [Grid.parse(r.text) for r in itertools.islice(read_file(PUZZLES / "17clue.txt"), args.sample)],
            args.reps or 3,
        ),
    }
    figures = {label: measure(label, grids, engines, reps, args.limit) for label, (grids, reps) in sets.items()}
    print(f"summary, per-puzzle best times against {args.base}:")
    for label, ratios in figures.items():
        print(f"  {label:<14} " + "  ".join(f"{name}/old {r:.4f}" for name, r in ratios.items()))


if __name__ == "__main__":
    main()
