"""``sudoku serve`` under load: N concurrent clients on loopback, against one ``sudoku solve`` process a request.

    python benchmarks/bench_serve.py                    # 8 clients, 400 requests a puzzle set, --jobs 2
    python benchmarks/bench_serve.py -c 16 -n 1000 --jobs 4

A real server (``sudoku serve --port 0``, a subprocess) answers ``POST /solve`` from ``-c`` client
threads, each with its own keep-alive connection (httpx), for two puzzle sets in turn: 9x9 classic
(``puzzles/easy50.txt``) and the variant corpus (``puzzles/variants/corpus.txt``). Printed for each:
requests per second, and the p50 and p99 latency of a request (the client's wall time, connection
reuse included). In the same run, ``sudoku solve`` is started once per request for a sample of the
same puzzles (one process at a time): its requests per second is the baseline the server is compared
with (the issue's targets: at least 50 times its rate, and p99 under 50 ms for 9x9 classic at 8 clients).
Every answer must be ``solved``.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
SUDOKU = str(Path(sys.executable).with_name("sudoku"))


def puzzles(name: str) -> list[str]:
    lines = (ROOT / name).read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def start(jobs: int) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [SUDOKU, "serve", "--port", "0", "--jobs", str(jobs), "--queue", "1000"],
        stderr=subprocess.PIPE,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    assert proc.stderr is not None
    for line in proc.stderr:
        found = re.search(r"listening on http://[^ ]+:(\d+) ", line)
        if found:
            return proc, f"http://127.0.0.1:{found[1]}"
    raise SystemExit("the server did not start")


def load(url: str, work: list[str], clients: int, total: int) -> tuple[float, list[float]]:
    """``total`` requests over ``clients`` threads: (seconds, each request's latency)."""
    latencies: list[float] = []
    lock = threading.Lock()
    counter = iter(range(total))

    def client() -> None:
        with httpx.Client(timeout=120) as session:
            while True:
                with lock:
                    k = next(counter, None)
                if k is None:
                    return
                begin = time.perf_counter()
                record = session.post(url + "/solve", json={"puzzle": work[k % len(work)]}).json()
                took = time.perf_counter() - begin
                assert record["status"] == "solved", record
                with lock:
                    latencies.append(took)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    begin = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - begin, latencies


def per_call(work: list[str], calls: int) -> float:
    """Requests per second of ``sudoku solve PUZZLE``, one process a request."""
    begin = time.perf_counter()
    for k in range(calls):
        done = subprocess.run([SUDOKU, "solve", "-f", "json", work[k % len(work)]], capture_output=True, text=True)
        assert json.loads(done.stdout)["status"] == "solved", done.stderr
    return calls / (time.perf_counter() - begin)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-c", "--clients", type=int, default=8, help="concurrent clients (default 8)")
    parser.add_argument("-n", "--requests", type=int, default=400, help="requests a puzzle set (default 400)")
    parser.add_argument("--jobs", type=int, default=2, help="the server's --jobs (default 2)")
    parser.add_argument("--calls", type=int, default=10, help="sudoku solve processes for the baseline (default 10)")
    args = parser.parse_args()
    sets = {"9x9 classic": puzzles("puzzles/easy50.txt"), "variants": puzzles("puzzles/variants/corpus.txt")}
    proc, url = start(args.jobs)
    try:
        for name, work in sets.items():
            load(url, work, args.clients, min(len(work), 2 * args.clients))  # warm: connections, first imports
            seconds, latencies = load(url, work, args.clients, args.requests)
            rate = len(latencies) / seconds
            q = statistics.quantiles(latencies, n=100)
            baseline = per_call(work, args.calls)
            print(
                f"{name:12} {args.clients} clients: {rate:8.1f} requests/s, p50 {q[49] * 1000:6.1f} ms, "
                f"p99 {q[98] * 1000:6.1f} ms; sudoku solve per request {baseline:5.2f}/s ({rate / baseline:.0f}x)"
            )
    finally:
        proc.terminate()
        proc.wait(timeout=30)


if __name__ == "__main__":
    main()
