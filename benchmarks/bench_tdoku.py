"""sudokit's ``numba`` engine beside tdoku (t-dillon/tdoku, BSD-2), the fastest classic solver known, in one run.

    python benchmarks/bench_tdoku.py                       # every set, tdoku built if a C++ compiler is there
    python benchmarks/bench_tdoku.py --sample 5000 --rounds 3
    python benchmarks/bench_tdoku.py --tdoku-src DIR       # tdoku's source from DIR (a checkout or a git directory)

tdoku is never committed: its source is cloned (``git clone --depth 1``) into ``~/.cache/sudokit-bench/tdoku``
(or copied from ``--tdoku-src``, e.g. a snapshot without network) and its solver built there as a shared library
the way its CMakeLists.txt builds it (``src/solver_dpll_triad_simd.cc src/util.cc``, ``-O3 -march=native
-fno-exceptions -fno-rtti -fpic``), then called through ctypes (``TdokuSolverDpllTriadSimd``, what its
``SolveSudoku`` calls). Without g++/clang++ (or without its source) only sudokit's figures are shown, with a
line saying why.

Per set (puzzles/17clue.txt, top95, hardest, and Norvig's hard set when ``../shared/puzzles`` has it), CPU
microseconds a puzzle (``time.process_time``; each figure the best of ``--rounds`` rounds over the set, each
round running every contender once in turn):

* ``tdoku``: a Python loop calling tdoku through ctypes, limit 2 (uniqueness) - the ctypes call (~0.3 us)
  included, as a Python program would use it;
* ``kernel``: sudokit's compiled search called directly (``kernels.search``) once over the whole set, limit 2:
  the search alone, no Python per puzzle;
* ``loop``: the same kernel called once per puzzle from a Python loop (the same loop as tdoku's; numba's
  dispatch of the kernel's arguments included);
* ``solve()``: ``sudokit.solve(grid, "numba", limit=2)`` per puzzle (the grid parsed before timing);

and the ratios to tdoku. Every answer is checked: tdoku's count against the kernel's (1 for every shipped
puzzle). With ``--base REV``, a ``base`` column: the kernel module of git revision REV (its
``jit/kernels.py``, written to ``~/.cache/sudokit-bench/kernels/HASH/`` and loaded beside the current one,
so numba caches it apart) run the same way as ``kernel`` in the same rounds, its answers checked against
the current kernel's; REV's kernel must take the arguments the current engine passes.
"""

from __future__ import annotations

import argparse
import ctypes
import importlib.util
import math
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from itertools import islice
from pathlib import Path
from typing import Any

from sudokit import Grid, get_strategy, solve
from sudokit.io.reader import read_file

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
SHARED = ROOT.parent / "shared" / "puzzles"
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "sudokit-bench" / "tdoku"
TDOKU_URL = "https://github.com/t-dillon/tdoku"
SOURCES = ("src/solver_dpll_triad_simd.cc", "src/util.cc")


def compiler() -> str | None:
    return shutil.which("g++") or shutil.which("clang++")


def tdoku_source(given: Path | None) -> tuple[Path | None, str]:
    """tdoku's source tree in the cache (fetched once), or None and why not."""
    src = CACHE / "src"
    if (src / SOURCES[0]).exists():
        return src, "cached"
    CACHE.mkdir(parents=True, exist_ok=True)
    if given is not None:
        if (given / "HEAD").exists() and not (given / SOURCES[0]).exists():  # a bare git directory: its HEAD
            with tempfile.TemporaryDirectory() as tmp:
                archive = Path(tmp) / "tdoku.tar"
                subprocess.run(
                    ["git", f"--git-dir={given}", "archive", "-o", str(archive), "HEAD", "src", "include", "LICENSE"],
                    check=True,
                    capture_output=True,
                )
                with tarfile.open(archive) as tar:
                    tar.extractall(src, filter="data")
        else:
            shutil.copytree(given, src)
        return src, f"copied from {given}"
    proc = subprocess.run(
        ["git", "clone", "--depth", "1", TDOKU_URL, str(src)], capture_output=True, text=True, timeout=300
    )
    if proc.returncode:
        shutil.rmtree(src, ignore_errors=True)
        last = (proc.stderr.strip().splitlines() or ["git failed"])[-1]
        return None, f"git clone {TDOKU_URL} failed ({last}); pass --tdoku-src DIR"
    return src, "cloned"


def tdoku_function(library: Path) -> Any:
    """The shared library's ``TdokuSolverDpllTriadSimd(puzzle, limit, config, solution, &guesses) -> count``."""
    fn = ctypes.CDLL(str(library)).TdokuSolverDpllTriadSimd
    fn.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint32, ctypes.c_char_p, ctypes.POINTER(ctypes.c_size_t)]
    fn.restype = ctypes.c_size_t
    return fn


def build_tdoku(given: Path | None) -> tuple[Callable[[bytes, int], int] | None, str]:
    """tdoku's ``TdokuSolverDpllTriadSimd(puzzle, limit)`` -> count through ctypes, or None and why not."""
    cxx = compiler()
    if cxx is None:
        return None, "no C++ compiler (g++ or clang++) on PATH: tdoku is not built, sudokit's figures alone"
    src, how = tdoku_source(given)
    if src is None:
        return None, how
    lib = CACHE / f"libtdoku-{Path(cxx).name}.so"
    if not lib.exists():
        flags = ["-O3", "-march=native", "-std=c++14", "-fno-exceptions", "-fno-rtti", "-fpic", "-shared"]
        subprocess.run([cxx, *flags, *(str(src / s) for s in SOURCES), "-o", str(lib)], check=True)
    fn = tdoku_function(lib)
    solution = ctypes.create_string_buffer(82)
    guesses = ctypes.c_size_t()
    ref = ctypes.byref(guesses)

    def count(puzzle: bytes, limit: int) -> int:
        return int(fn(puzzle, limit, 0, solution, ref))

    return count, f"tdoku ({how}, {src}) built with {Path(cxx).name} -O3 -march=native"


def base_kernels(rev: str) -> Any:
    """The ``numba`` kernel module of git revision ``rev``, loaded beside the current one under its own name."""
    git = ["git", "-C", str(ROOT)]
    commit = subprocess.run([*git, "rev-parse", "--short=12", rev], check=True, capture_output=True, text=True)
    name = commit.stdout.strip()
    source = subprocess.run(
        [*git, "show", f"{name}:strategies/sudokit_strategies/jit/kernels.py"], check=True, capture_output=True
    ).stdout
    path = CACHE.parent / "kernels" / name / "kernels.py"
    if not path.exists() or path.read_bytes() != source:  # (an unchanged file keeps numba's cache of it)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(source)
    spec = importlib.util.spec_from_file_location(f"sudokit_bench_kernels_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def sets(sample: int | None) -> list[tuple[str, list[Grid]]]:
    out = []
    for path, n in (
        (PUZZLES / "17clue.txt", sample),
        (PUZZLES / "top95.txt", None),
        (PUZZLES / "hardest.txt", None),
        (SHARED / "hard375.txt", None),
    ):
        if not path.exists():
            print(f"({path.name}: not in {path.parent}, skipped)")
            continue
        grids = [record.parse() for record in islice(read_file(path), n)]
        label = path.name if n is None else f"{path.name} (first {len(grids)})"
        out.append((label, grids))
    return out


def best(rounds: int, runs: dict[str, Callable[[], None]]) -> dict[str, float]:
    """The least CPU seconds of each run over ``rounds`` rounds; each round runs every one once, in turn, so a
    busy spell of the machine weighs on all of them alike."""
    times = {name: math.inf for name in runs}
    for _ in range(rounds):
        for name, run in runs.items():
            start = time.process_time()
            run()
            times[name] = min(times[name], time.process_time() - start)
    return times


def compare(
    label: str,
    grids: list[Grid],
    engine: Any,
    tdoku: Callable[[bytes, int], int] | None,
    rounds: int,
    base: Any = None,
) -> bool:
    """Print one set's line: CPU us a puzzle of tdoku, the kernel, the kernel in a loop, ``solve()``; the ratios
    (and, with a ``base`` kernel module, its figure and the kernel's ratio to it)."""
    from sudokit_strategies.jit import _Out, _Work

    shape = grids[0].shape
    work = engine._work(shape)
    np, k = work.np, work.k
    cells = np.frombuffer(b"".join(bytes(g.cells) for g in grids), np.uint8).reshape(len(grids), shape.size)
    cells.flags.writeable = False
    out = _Out(np, len(grids), shape.size, k.N_CTL - k.I_NODES)
    rows = [cells[i : i + 1] for i in range(len(grids))]
    one = _Out(np, 1, shape.size, k.N_CTL - k.I_NODES)

    def kernel() -> None:
        work.run(cells, 2, 0, None, None, out, None)

    def loop() -> None:
        for row in rows:
            work.run(row, 2, 0, None, None, one, None)

    def through_solve() -> None:
        for grid in grids:
            solve(grid, "numba", limit=2)

    runs = {"kernel": kernel, "loop": loop, "solve()": through_solve}
    if base is not None:
        base_work = _Work(shape, base, False)
        base_out = _Out(np, len(grids), shape.size, base.N_CTL - base.I_NODES)

        def run_base() -> None:
            base_work.run(cells, 2, 0, None, None, base_out, None)

        kernel()
        run_base()
        if base_out.count.tolist() != out.count.tolist():
            print(f"{label}: the base kernel's counts differ from the current one's", file=sys.stderr)
            return False
        runs["base"] = run_base
    if tdoku is not None:
        texts = [g.to_line().replace("0", ".").encode() for g in grids]
        kernel()
        if [tdoku(t, 2) for t in texts] != out.count.tolist():
            print(f"{label}: tdoku's counts differ from sudokit's", file=sys.stderr)
            return False

        def run_tdoku() -> None:
            for t in texts:
                tdoku(t, 2)

        runs["tdoku"] = run_tdoku
    figures = best(rounds, runs)
    us = {name: seconds * 1e6 / len(grids) for name, seconds in figures.items()}
    tdoku_us = f" {us['tdoku']:7.2f}" if tdoku is not None else ""
    line = f"{label:24s}{tdoku_us} {us['kernel']:7.2f} {us['loop']:7.2f} {us['solve()']:8.2f}"
    if tdoku is not None:
        t = us["tdoku"]
        line += f"  {us['kernel'] / t:11.1f}x {us['loop'] / t:9.1f}x {us['solve()'] / t:12.1f}x"
    if base is not None:
        line += f"  base {us['base']:7.2f}: kernel/base {us['kernel'] / us['base']:.3f}"
        if tdoku is not None:
            line += f", base/tdoku {us['base'] / us['tdoku']:.2f}x"
    print(line)
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sample", type=int, default=10000, help="puzzles of 17clue.txt (default 10000; 0: all)")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--tdoku-src", type=Path, default=None)
    parser.add_argument("--base", metavar="REV", default=None, help="also time the kernel of git revision REV")
    args = parser.parse_args()

    tdoku, why = build_tdoku(args.tdoku_src)
    print(why)
    engine = get_strategy("numba")
    base = base_kernels(args.base) if args.base else None
    chosen = sets(args.sample or None)  # 0: the whole file
    print(f"load average {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores); CPU us a puzzle, limit 2, best of rounds")
    head = f"{'set':24s}{' ' + format('tdoku', '>7s') if tdoku else ''} {'kernel':>7s} {'loop':>7s} {'solve()':>8s}"
    print(head + ("  kernel/tdoku loop/tdoku solve()/tdoku" if tdoku else ""))
    for label, grids in chosen:
        if not compare(label, grids, engine, tdoku, args.rounds, base):
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
