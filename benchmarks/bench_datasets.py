"""A 400,000-row CSV data set verified with ``--unique --expect``: puzzles per second and peak memory.

    python benchmarks/bench_datasets.py                   # 400,000 rows, the fastest engine installed
    python benchmarks/bench_datasets.py --rows 40000      # a quick run
    python benchmarks/bench_datasets.py -s backtrack --jobs 1

The data set (``id,puzzle,solution``, as Kaggle's "3 million Sudoku puzzles" lays it out) is built
from the shipped puzzle files (17clue, top95, hardest, easy50): each base puzzle is solved once, and
each row is a random copy of one under a validity-preserving permutation (digits relabelled; rows
within bands, bands, columns within stacks and stacks permuted; transposed or not), its expected
solution the same permutation of the base solution. The rows are verified with

    sudoku solve big.csv --unique --expect solution -f csv -q -O out.csv -s ENGINE

and the script checks that the exit status is 0 and that every record says ``unique`` and
``same``. Baselines, in the same run: the same puzzles as a plain text file (one per line, no
expected column) through the same command, once as it runs (text files of plain lines take the
block path of :mod:`sudokit.runtime.fastpath` when the engine offers ``solve_many``; table rows do not, yet)
and once with ``SUDOKIT_FASTPATH=0`` (one puzzle at a time, as table rows go): the ratio to the
second is the cost of reading CSV and comparing. Memory: the peak resident size of the largest process of each run
(``getrusage(RUSAGE_CHILDREN)`` of a fresh parent), on a 20,000-row prefix and on the whole set;
flat means the ratio stays near 1.0. Last, a few expected solutions of the prefix are flipped (two
digits swapped: still a Sudoku grid, not this puzzle's) and the run must exit 1 and name exactly
those rows.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
SETS = ("17clue.txt", "top95.txt", "hardest.txt", "easy50.txt")
PREFIX = 20_000  # rows of the memory baseline and of the flipped run (at most a twentieth of --rows)
FLIPS = 5


def base_puzzles() -> list[str]:
    """The one-line 9x9 puzzles of the shipped sets (``#`` lines and notes dropped)."""
    out = []
    for name in SETS:
        for raw in (PUZZLES / name).read_text().splitlines():
            text = raw.strip().partition(":")[0].strip()
            if text and not text.startswith("#") and len(text) == 81:
                out.append(text.replace("0", "."))
    return out


def solve_once(puzzles: list[str], strategy: str, jobs: int) -> list[str]:
    """The solution of each base puzzle, by one ``sudoku solve -f line`` run."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "base.txt"
        path.write_text("\n".join(puzzles) + "\n")
        done = subprocess.run(
            [sys.executable, "-m", "sudokit", "solve", str(path), "-f", "line", "-q", "-s", strategy, "-j", str(jobs)],
            capture_output=True,
            text=True,
            check=True,
        )
    solutions = [line.partition(":")[2] for line in done.stdout.splitlines()]
    assert len(solutions) == len(puzzles) and all(len(s) == 81 for s in solutions)
    return solutions


def random_permutation(rng: random.Random) -> tuple[list[int], dict[int, int]]:
    """A cell order (new cell k takes old cell order[k]) and a digit relabelling, both preserving validity."""
    bands = rng.sample(range(3), 3)
    rows = [3 * b + r for b in bands for r in rng.sample(range(3), 3)]
    stacks = rng.sample(range(3), 3)
    cols = [3 * s + c for s in stacks for c in rng.sample(range(3), 3)]
    transpose = rng.random() < 0.5
    order = [(cols[c] * 9 + rows[r]) if transpose else (rows[r] * 9 + cols[c]) for r in range(9) for c in range(9)]
    digits = rng.sample("123456789", 9)
    table = str.maketrans(dict(zip("123456789", digits, strict=True)))
    return order, table


def build(path: Path, rows: int, puzzles: list[str], solutions: list[str], seed: int) -> None:
    """Write ``rows`` permuted copies of the base puzzles as ``id,puzzle,solution``."""
    rng = random.Random(seed)
    with path.open("w", newline="") as handle:
        handle.write("id,puzzle,solution\n")
        for k in range(rows):
            i = rng.randrange(len(puzzles))
            order, table = random_permutation(rng)
            p, s = puzzles[i], solutions[i]
            handle.write(
                f"{k},{''.join(p[j] for j in order).translate(table)},{''.join(s[j] for j in order).translate(table)}\n"
            )


def run(args: list[str], env: dict[str, str] | None = None) -> tuple[float, int, int, str]:
    """Seconds, peak RSS (KiB) of the largest child, exit status and stderr of ``sudoku ARGS`` in a fresh parent."""
    code = (
        "import resource, subprocess, sys, time\n"
        "t = time.perf_counter(); done = subprocess.run(sys.argv[1:], stderr=subprocess.PIPE, text=True)\n"
        "sys.stderr.write(done.stderr)\n"
        "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, done.returncode)\n"
    )
    argv = [sys.executable, "-m", "sudokit", *args]
    env = {**os.environ, **(env or {})}
    done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, check=True, env=env)
    seconds, peak, rc = done.stdout.split()
    return float(seconds), int(peak), int(rc), done.stderr


def verify(out: Path) -> tuple[int, int]:
    """(records, records not unique-and-same) of a csv output."""
    total = bad = 0
    with out.open(newline="") as handle:
        for row in csv.DictReader(handle):
            total += 1
            bad += row["uniqueness"] != "unique" or row["expected"] != "same"
    return total, bad


def fastest() -> str:
    """``numba`` when installed and loadable, else ``backtrack``."""
    done = subprocess.run(
        [sys.executable, "-m", "sudokit", "strategies", "-f", "json"], capture_output=True, text=True, check=True
    )
    names = {json.loads(line)["name"]: json.loads(line) for line in done.stdout.splitlines()}
    numba = names.get("numba")
    return "numba" if numba is not None and not numba.get("missing") and not numba.get("error") else "backtrack"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=400_000)
    parser.add_argument("-s", "--strategy", default=None, help="engine (default: numba if installed, else backtrack)")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("-t", "--time-limit", default="60", help="sudoku's --time-limit per puzzle (default 60)")
    options = parser.parse_args()
    strategy = options.strategy or fastest()
    jobs = ["-j", str(options.jobs)]
    short = min(PREFIX, max(100, options.rows // 20))
    puzzles = base_puzzles()
    start = time.perf_counter()
    solutions = solve_once(puzzles, strategy, options.jobs)
    seconds = time.perf_counter() - start
    print(f"base       {len(puzzles):,} puzzles of {', '.join(SETS)} solved once in {seconds:.1f} s")
    with tempfile.TemporaryDirectory() as tmp:
        big, prefix, text = Path(tmp) / "big.csv", Path(tmp) / "prefix.csv", Path(tmp) / "big.txt"
        start = time.perf_counter()
        build(big, options.rows, puzzles, solutions, options.seed)
        lines = big.read_text().splitlines()
        prefix.write_text("\n".join(lines[: short + 1]) + "\n")
        text.write_text("\n".join(line.split(",")[1] for line in lines[1:]) + "\n")
        del lines
        size = big.stat().st_size
        print(f"data set   {options.rows:,} rows, {size / 2**20:.1f} MiB, built in {time.perf_counter() - start:.1f} s")

        common = ["--unique", "-f", "csv", "-q", "-s", strategy, *jobs, "-t", options.time_limit]
        out = Path(tmp) / "out.csv"
        seconds, peak, rc, err = run(["solve", str(big), "--expect", "solution", *common, "-O", str(out), "--force"])
        total, bad = verify(out)
        rate = total / seconds
        print(
            f"csv        sudoku solve big.csv --expect solution {' '.join(common)}: "
            f"{total:,} records in {seconds:.1f} s = {rate:,.0f} puzzles/s, peak RSS {peak / 1024:.0f} MiB, "
            f"exit {rc}, {bad} not unique-and-same"
        )
        assert rc == 0 and bad == 0 and total == options.rows, err
        for label, env in (("", None), (", one puzzle at a time (SUDOKIT_FASTPATH=0)", {"SUDOKIT_FASTPATH": "0"})):
            seconds_t, peak_t, rc_t, err_t = run(["solve", str(text), *common, "-O", str(out), "--force"], env)
            assert rc_t == 0, err_t
            rate_t = options.rows / seconds_t
            print(
                f"baseline   the same puzzles as a text file, --unique -f csv{label}: {rate_t:,.0f} puzzles/s, "
                f"peak RSS {peak_t / 1024:.0f} MiB; the CSV run does {rate / rate_t:.2f}x its rate"
            )
        _, peak_p, rc_p, err_p = run(["solve", str(prefix), "--expect", "solution", *common, "-O", str(out), "--force"])
        assert rc_p == 0, err_p
        print(
            f"memory     peak RSS {peak_p / 1024:.0f} MiB on {short:,} rows, {peak / 1024:.0f} MiB on "
            f"{options.rows:,}: ratio {peak / peak_p:.2f} for {options.rows / short:.0f}x the rows"
        )

        rows = prefix.read_text().splitlines()
        flipped = sorted(random.Random(options.seed).sample(range(1, len(rows)), FLIPS))
        for k in flipped:
            row_id, puzzle, answer = rows[k].split(",")
            rows[k] = f"{row_id},{puzzle},{answer.translate(str.maketrans('12', '21'))}"
        prefix.write_text("\n".join(rows) + "\n")
        _, _, rc_f, err_f = run(["solve", str(prefix), "--expect", "solution", *common, "-O", str(out), "--force"])
        named = sorted(
            int(re.search(r"\.csv:(\d+): ", line).group(1))  # type: ignore[union-attr]
            for line in err_f.splitlines()
            if line.startswith("sudoku: differs: ")
        )
        print(
            f"flipped    {FLIPS} expected solutions in the {short:,}-row prefix (file lines "
            f"{', '.join(str(k + 1) for k in flipped)}): exit {rc_f}, reported lines {', '.join(map(str, named))}"
        )
        for line in err_f.splitlines()[:2]:
            print(f"           {line}")
        assert rc_f == 1 and named == [k + 1 for k in flipped], err_f
        total_f, bad_f = verify(out)
        assert total_f == short and bad_f == FLIPS


if __name__ == "__main__":
    main()
