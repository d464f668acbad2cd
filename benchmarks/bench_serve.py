"""``sudoku serve`` under load: N concurrent clients on loopback, against one ``sudoku solve`` process a request.

    python benchmarks/bench_serve.py                    # 8 clients, --jobs 2, wrk if installed
    python benchmarks/bench_serve.py -c 16 --jobs 4 --client python

A real server (``sudoku serve --port 0``, a subprocess) answers ``POST /solve`` from ``-c`` clients,
each with its own keep-alive connection, for two puzzle sets in turn: 9x9 classic
(``puzzles/easy50.txt``) and the variant corpus (``puzzles/variants/corpus.txt``). The clients are
``wrk`` (a C load generator, ``apt-get install wrk``) when it is installed, for ``--seconds`` a set,
else ``-c`` Python processes (``http.client``, one connection each) for ``-n`` requests a set: a client
must cost far less than the server, or the benchmark measures the client (eight httpx threads in one
process spend about 1.6 ms of CPU a request, as much as the server). Every answer must be ``solved``.

Printed for each set: requests per second and the p50 and p99 latency of a request (the client's wall
time); the CPU time a request costs the server's process (the HTTP stack, the lanes' threads) and its
workers (the engines), and the client (``/proc`` on Linux): a figure the machine's other load does not
change much, unlike the rate; the load average. In the same run, ``sudoku solve`` is started once per
request for a sample of the same puzzles (one process at a time): its requests per second is the
baseline the server is compared with (the issue's targets: at least 50 times its rate, and p99 under
50 ms for 9x9 classic at 8 clients).
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SUDOKU = str(Path(sys.executable).with_name("sudoku"))
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def puzzles(name: str) -> list[str]:
    lines = (ROOT / name).read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def start(jobs: int) -> tuple[subprocess.Popen[str], int]:
    """``sudoku serve --port 0``: the process and its port."""
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
            return proc, int(found[1])
    raise SystemExit("the server did not start")


def server_cpu(pid: int) -> tuple[float, float] | None:
    """CPU seconds of the server's process and of its workers (live and reaped), from /proc; None elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        own, reaped = int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14])
        workers = 0
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                with_child = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
                workers += int(with_child[11]) + int(with_child[12])
    except (OSError, IndexError, ValueError):
        return None
    return own / _TICK, (reaped + workers) / _TICK


def _client(port: int, bodies: list[bytes], first: int, count: int, go: Any, out: Any) -> None:
    """One client process: ``count`` requests on one keep-alive connection once ``go`` is set; latencies, CPU."""
    try:
        out.put(_requests(port, bodies, first, count, go, out))
    except Exception as err:  # said to the parent, which stops: it never waits for a client that has gone
        out.put(("bad", f"{type(err).__name__}: {err}"))


def _requests(port: int, bodies: list[bytes], first: int, count: int, go: Any, out: Any) -> tuple[Any, ...]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    headers = {"Content-Type": "application/json"}
    connection.request("POST", "/solve", bodies[first % len(bodies)], headers)  # connected, warm
    connection.getresponse().read()
    out.put(("ready",))
    go.wait()
    begin_cpu = time.process_time()
    latencies = []
    for k in range(first, first + count):
        begin = time.perf_counter()
        connection.request("POST", "/solve", bodies[k % len(bodies)], headers)  # one send: headers and body
        record = json.loads(connection.getresponse().read())
        latencies.append(time.perf_counter() - begin)
        if record.get("status") != "solved":
            return ("bad", repr(record)[:300])
    return ("ok", latencies, time.process_time() - begin_cpu)


def load_python(port: int, bodies: list[bytes], clients: int, total: int) -> tuple[float, list[float], float]:
    """``total`` requests from ``clients`` processes: (seconds, each request's latency, the clients' CPU seconds)."""
    context = multiprocessing.get_context("spawn")
    go, out = context.Event(), context.Queue()
    share = [total // clients + (k < total % clients) for k in range(clients)]
    procs = [
        context.Process(target=_client, args=(port, bodies, sum(share[:k]), share[k], go, out), daemon=True)
        for k in range(clients)
    ]
    for proc in procs:
        proc.start()
    for _ in procs:  # each has started and made its first request
        answer = out.get(timeout=600)
        if answer[0] == "bad":
            raise SystemExit(f"a client failed: {answer[1]}")
    begin = time.perf_counter()
    go.set()
    latencies: list[float] = []
    cpu = 0.0
    for _ in procs:
        answer = out.get(timeout=600)
        if answer[0] == "bad":
            raise SystemExit(f"a client failed: {answer[1]}")
        latencies += answer[1]
        cpu += answer[2]
    seconds = time.perf_counter() - begin
    for proc in procs:
        proc.join()
    return seconds, latencies, cpu


_WRK_SCRIPT = """
local bodies = {%s}
local k = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
request = function()
  k = k + 1
  return wrk.format(nil, "/solve", nil, bodies[(k %% #bodies) + 1])
end
local bad = 0
response = function(status, headers, body)
  if status ~= 200 or not body:find('"status":"solved"', 1, true) then bad = bad + 1 end
end
done = function(summary, latency, requests)
  io.write(string.format("RESULT %%d %%d %%.3f %%.3f\\n", summary.requests, bad + summary.errors.timeout +
    summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
"""


def load_wrk(port: int, bodies: list[bytes], clients: int, seconds: float) -> tuple[float, int, float, float, float]:
    """wrk for ``seconds``: (seconds, requests, p50 s, p99 s, wrk's CPU seconds)."""
    table = ", ".join(f"[==[{body.decode()}]==]" for body in bodies)
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(_WRK_SCRIPT % table)
    try:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        threads = str(min(2, clients))
        command = ["wrk", "-t", threads, "-c", str(clients), "-d", f"{seconds:g}s", "--timeout", "120s"]
        done = subprocess.run([*command, "-s", script.name, f"http://127.0.0.1:{port}"], capture_output=True, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    finally:
        os.unlink(script.name)
    found = re.search(r"RESULT (\d+) (\d+) ([\d.]+) ([\d.]+)", done.stdout)
    if found is None:
        raise SystemExit(f"wrk did not run: {done.stderr.strip() or done.stdout.strip()}")
    if int(found[2]):
        raise SystemExit(f"{found[2]} of wrk's {found[1]} answers were not solved")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return seconds, int(found[1]), float(found[3]) / 1000, float(found[4]) / 1000, cpu


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
    parser.add_argument("-n", "--requests", type=int, default=1000, help="requests a set, Python clients (1000)")
    parser.add_argument("--seconds", type=float, default=10, help="seconds a set, wrk (default 10)")
    parser.add_argument("--client", choices=("auto", "wrk", "python"), default="auto", help="auto: wrk if installed")
    parser.add_argument("--jobs", type=int, default=2, help="the server's --jobs (default 2)")
    parser.add_argument("--calls", type=int, default=10, help="sudoku solve processes for the baseline (default 10)")
    args = parser.parse_args()
    client = args.client
    if client == "auto":
        client = "wrk" if shutil.which("wrk") else "python"
    elif client == "wrk" and not shutil.which("wrk"):
        raise SystemExit("wrk is not installed (apt-get install wrk), or use --client python")
    sets = {"9x9 classic": puzzles("puzzles/easy50.txt"), "variants": puzzles("puzzles/variants/corpus.txt")}
    proc, port = start(args.jobs)
    print(f"clients: {client}" + (" (wrk is not installed)" if args.client == "auto" and client == "python" else ""))
    try:
        for name, work in sets.items():
            bodies = [json.dumps({"puzzle": text}).encode() for text in work]
            if client == "wrk":
                load_wrk(port, bodies, args.clients, 2)  # warm: connections, first imports
            else:
                load_python(port, bodies, args.clients, 2 * args.clients)
            before = server_cpu(proc.pid)
            if client == "wrk":
                seconds, done, p50, p99, client_cpu = load_wrk(port, bodies, args.clients, args.seconds)
            else:
                seconds, latencies, client_cpu = load_python(port, bodies, args.clients, args.requests)
                done = len(latencies)
                q = statistics.quantiles(latencies, n=100)
                p50, p99 = q[49], q[98]
            after = server_cpu(proc.pid)
            rate = done / seconds
            cpu = f"client {client_cpu / done * 1000:.2f} ms"
            if before is not None and after is not None:
                own, workers = ((a - b) / done * 1000 for a, b in zip(after, before, strict=True))
                cpu = f"server {own:.2f} ms + workers {workers:.2f} ms, {cpu}"
            load = os.getloadavg()[0]
            baseline = per_call(work, args.calls)
            print(
                f"{name:12} {args.clients} clients: {rate:8.1f} requests/s, p50 {p50 * 1000:6.1f} ms, "
                f"p99 {p99 * 1000:6.1f} ms; sudoku solve per request {baseline:5.2f}/s ({rate / baseline:.0f}x); "
                f"CPU a request: {cpu}; load {load:.1f}"
            )
    finally:
        proc.terminate()
        proc.wait(timeout=30)


if __name__ == "__main__":
    main()
