"""``backtrack``'s CPU a puzzle on the variant corpus: the current code against ``--base``, interleaved.

Each side runs in a child process of its own (this script with ``--serve``), its ``PYTHONPATH`` that
side's ``src`` and ``strategies`` (the base's taken with ``git archive`` into a temporary folder). The
parent sends both children each puzzle of ``puzzles/variants/corpus.txt`` in turn, ``--reps`` times, and
keeps each side's least CPU time (``time.process_time`` around ``solve(puzzle, "backtrack", limit=...)``):
a machine shared with other work changes the two sides alike. Both sides must give the same status and
count. Printed: each puzzle's two times and its kinds (marked when the current side is over 15 % and
0.5 ms slower), then each side's mean.

    python benchmarks/bench_backtrack_corpus.py                       # limit 1, best of 5, base 521adef
    python benchmarks/bench_backtrack_corpus.py --limit 2 --reps 3 --only 26,38,45
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "puzzles" / "variants" / "corpus.txt"


def lines() -> list[str]:
    text = CORPUS.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in text if line.strip() and not line.startswith("#")]


def serve() -> None:
    """The child: read ``index limit`` lines, answer ``cpu_ms status count`` for each."""
    import sudokit
    from sudokit.io.puzzles import parse_puzzle

    puzzles = [parse_puzzle(line) for line in lines()]
    for request in sys.stdin:
        k, limit = map(int, request.split())
        start = time.process_time()
        result = sudokit.solve(puzzles[k], "backtrack", limit=limit)
        cpu = (time.process_time() - start) * 1000
        print(f"{cpu:.4f} {result.status} {result.count}", flush=True)


def child(paths: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=paths)
    return subprocess.Popen(
        [sys.executable, __file__, "--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="521adef", help="the git revision of the baseline (default 521adef)")
    parser.add_argument("--limit", type=int, default=1, help="solutions to look for (2 proves uniqueness)")
    parser.add_argument("--reps", type=int, default=5, help="runs a puzzle a side; the least counts (default 5)")
    parser.add_argument("--only", help="corpus puzzles by number from 0, joined by commas")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve()
        return
    from sudokit.io.puzzles import parse_puzzle

    corpus = lines()
    only = range(len(corpus)) if args.only is None else [int(k) for k in args.only.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", args.base, "src", "strategies"], check=True, capture_output=True
        ).stdout
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(tmp, filter="data")
        sides = {
            "base": child(f"{tmp}/src{os.pathsep}{tmp}/strategies"),
            "current": child(f"{ROOT}/src{os.pathsep}{ROOT}/strategies"),
        }
        means: dict[str, list[float]] = {name: [] for name in sides}
        print(f"backtrack, limit {args.limit}, least CPU ms of {args.reps}: base {args.base} vs current")
        for k in only:
            best = dict.fromkeys(sides, float("inf"))
            answers = {}
            for _ in range(args.reps):
                for name, proc in sides.items():
                    assert proc.stdin is not None and proc.stdout is not None
                    proc.stdin.write(f"{k} {args.limit}\n")
                    proc.stdin.flush()
                    cpu, *answer = proc.stdout.readline().split()
                    best[name] = min(best[name], float(cpu))
                    answers[name] = answer
            if answers["base"] != answers["current"]:
                raise SystemExit(f"puzzle {k}: base answered {answers['base']}, current {answers['current']}")
            kinds = ",".join(sorted({c.kind for c in parse_puzzle(corpus[k]).constraints})) or "classic"
            slower = best["current"] > 1.15 * best["base"] and best["current"] - best["base"] > 0.5
            print(f"{k:3d} {best['base']:9.2f} {best['current']:9.2f}  {kinds}{'  <-- slower' if slower else ''}")
            for name in sides:
                means[name].append(best[name])
        for proc in sides.values():
            assert proc.stdin is not None
            proc.stdin.close()
            proc.wait()
    for name, times in means.items():
        print(f"{name}: mean {sum(times) / len(times):.2f} ms a puzzle, slowest {max(times):.2f} ms")


if __name__ == "__main__":
    main()
