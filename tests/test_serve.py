"""``sudoku serve``: the HTTP JSON API and f-puzzles' WebSocket protocol, on a real server and socket.

One server per module (``sudoku serve --port 0`` as a subprocess: a real process, a real port, real
engines in real workers); the HTTP client is httpx, the WebSocket client websockets' own. Every
answer is checked against sudokit's command line or library, run independently here.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket as socket_module
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
httpx = pytest.importorskip("httpx")
ws_client = pytest.importorskip("websockets.sync.client")

from sudokit import count_solutions, parse_puzzle  # noqa: E402
from sudokit.io.links import fpuzzles_link, to_fpuzzles  # noqa: E402
from sudokit.io.lzstring import compress_to_base64  # noqa: E402
from tests.conftest import ROOT, site_without, sudoku_in_site  # noqa: E402

SUDOKU = str(Path(sys.executable).with_name("sudoku"))
EASY = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
MANY = "....5..4...8.1.5..4......12.7.5.2.8....6.3....4.1.9...25.....98..1.2.6...8.....2."  # several solutions
THOUSANDS = "....5......8.1.5..4......12.7.5.2.8....6.3....4.1.9...25.....98..1.2.6...8.....2."  # MANY less a given
EMPTY = "." * 81


#: What each running server wrote to stderr after its first line, by process (read as it comes: the pipe never fills).
LATER: dict[int, list[str]] = {}


def start_server(*args: str, env: dict[str, str] | None = None) -> tuple[subprocess.Popen[str], str, list[str]]:
    """``sudoku serve --port 0 ARGS`` started; the process, its base URL (on 127.0.0.1) and what it said before."""
    proc = subprocess.Popen(
        [SUDOKU, "serve", "--port", "0", *args],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    stream = proc.stderr
    assert stream is not None
    said: list[str] = []
    for line in stream:
        found = re.search(r"listening on http://[^ ]+:(\d+) ", line)
        if found is not None:
            LATER[proc.pid] = []
            threading.Thread(target=LATER[proc.pid].extend, args=(stream,), daemon=True).start()
            return proc, f"http://127.0.0.1:{found[1]}", said
        said.append(line)
    proc.kill()
    raise AssertionError(f"the server did not start: {''.join(said)}")


def stop_server(proc: subprocess.Popen[str]) -> int:
    """Stop a server with SIGTERM, as a service manager would: it must end within seconds, having said nothing."""
    proc.terminate()
    try:
        status = proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    time.sleep(0.2)  # what it wrote last, read
    said = "".join(LATER.pop(proc.pid, []))
    assert "Traceback" not in said and "Error" not in said, said
    return status


def serving(engines: str) -> Iterator[str]:
    """A server of ``engines`` (one job at a time, one waiting, 20 s a job) for a module's tests: its URL."""
    proc, url, _ = start_server("--engines", engines, "--queue", "1", "--time-limit", "20")
    try:
        yield url
    finally:
        stop_server(proc)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    yield from serving("backtrack,cp-sat,sat")


@pytest.fixture(scope="module")
def light() -> Iterator[str]:
    """A server of the backtracker alone: a worker killed on a cancelled job is back within a blink."""
    yield from serving("backtrack")


def post(url: str, path: str, body: Any, **kwargs: Any) -> httpx.Response:
    return httpx.post(url + path, json=body, timeout=60, **kwargs)


def cli_json(*args: str) -> Any:
    proc = subprocess.run([SUDOKU, *args], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    return [json.loads(line) for line in proc.stdout.splitlines()]


def without_times(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in ("elapsed_ms", "source", "stats")}


# --- the HTTP API -----------------------------------------------------------------------------------


def test_solve_and_count_answer_the_records_of_sudoku_solve_f_json(server: str) -> None:
    solved = post(server, "/solve", {"puzzle": EASY})
    assert solved.status_code == 200
    assert solved.json()["source"] == "<request>"
    [cli] = cli_json("solve", "-f", "json", "-s", "backtrack", EASY)
    assert without_times(solved.json()) == without_times(cli)
    counted = post(server, "/count", {"puzzle": MANY}).json()
    [cli_count] = cli_json("solve", "--count", "-f", "json", "-s", "backtrack", MANY)
    assert without_times(counted) == without_times(cli_count)
    assert (counted["count"], counted["exact"], counted["strategy"]) == (357, True, "backtrack")
    other = post(server, "/count", {"puzzle": MANY, "strategy": "cp-sat"}).json()
    assert (other["count"], other["exact"], other["strategy"]) == (357, True, "cp-sat")


def test_check_runs_every_engine_and_gives_the_verdict(server: str) -> None:
    report = post(server, "/check", {"puzzle": MANY}).json()
    assert report["verdict"] == "agree"
    assert [e["strategy"] for e in report["engines"]] == ["backtrack", "cp-sat", "sat"]
    assert (report["count"], report["exact"]) == (2, False)  # counted to 2: several


def test_candidates_are_the_digits_of_the_solutions_counted_up_to_the_cap(server: str) -> None:
    answer = post(server, "/candidates", {"puzzle": MANY, "cap": 3}).json()
    assert answer["status"] == "solved"
    every = count_solutions(MANY, limit=1000, keep=None)
    assert every.exact and every.count == 357
    for cell in range(81):
        for digit in range(1, 10):
            found = sum(1 for s in every.solutions if s.cells[cell] == digit)
            assert answer["counts"][cell * 9 + digit - 1] == min(3, found), (cell, digit)
        assert answer["candidates"][cell] == sorted({s.cells[cell] for s in every.solutions})


def test_true_candidates_go_to_sat_and_its_fast_method_unless_told(server: str) -> None:
    killer = next(
        line
        for line in (ROOT / "puzzles" / "variants" / "corpus.txt").read_text().splitlines()
        if line.startswith('{"box": "3x3"') and '"kind": "killer"' in line
    )
    solution = count_solutions(killer, "cp-sat", limit=2)
    assert solution.exact and solution.count == 1 and solution.solution is not None
    chosen = post(server, "/candidates", {"puzzle": killer}).json()
    assert (chosen["status"], chosen["strategy"], chosen["fast"]) == ("solved", "sat", True)
    assert chosen["candidates"] == [[d] for d in solution.solution.cells]
    classic = post(server, "/candidates", {"puzzle": MANY}).json()
    assert (classic["status"], classic["strategy"], classic["fast"]) == ("solved", "sat", True)
    told = post(server, "/candidates", {"puzzle": killer, "strategy": "cp-sat"}).json()
    assert (told["status"], told["strategy"], told["fast"], told["candidates"]) == (
        "solved",
        "cp-sat",
        True,
        chosen["candidates"],
    )
    assert post(server, "/solve", {"puzzle": killer}).json()["strategy"] == "backtrack"  # its first solution


def test_hint_explain_and_rate_answer_what_the_commands_print(server: str) -> None:
    hint = post(server, "/hint", {"puzzle": EASY})
    assert hint.status_code == 200
    assert hint.json() == cli_json("hint", "-f", "json", EASY)[0]
    explained = post(server, "/explain", {"puzzle": EASY}).json()
    cli = cli_json("explain", "-f", "json", EASY)
    assert explained["steps"] == cli[:-1]
    assert explained["rating"] == cli[-1]["rating"]
    rated = post(server, "/rate", {"puzzle": EASY}).json()
    [cli_rated] = cli_json("rate", "-f", "json", EASY)
    assert without_times(rated) == without_times(cli_rated)
    several = post(server, "/hint", {"puzzle": MANY})
    assert several.status_code == 422
    assert several.json() == {"error": "the puzzle has more than one solution"}


def test_generate_makes_the_puzzles_of_sudoku_generate_with_the_same_seed(server: str) -> None:
    made = post(server, "/generate", {"seed": 7, "count": 2, "box": "2x2"}).json()
    assert made["status"] == "made"
    cli = cli_json("generate", "--box", "2x2", "--seed", "7", "-n", "2", "-f", "json", "-q")
    assert made["puzzles"] == cli
    for puzzle in made["puzzles"]:
        assert count_solutions(puzzle["puzzle"], limit=2).count == 1


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"puzzle": "55..7"}, 400, "puzzle: 5 cells"),
        ({"puzzle": EASY[:1] + EASY[0] + EASY[2:]}, 400, "repeats"),
        ({"puzzle": EASY, "verbose": True}, 400, "unknown field 'verbose'"),
        ({"puzzle": EASY, "strategy": "nope"}, 400, "unknown strategy 'nope'"),
        ({"puzzle": EASY, "limit": 0}, 400, "'limit' must be a whole number"),
        ({"puzzle": EASY, "time_limit": -1}, 400, "time_limit must be a positive number"),
        ({"puzzle": "puzzles/leetcode37.txt"}, 400, "puzzle:"),  # a path is no puzzle: nothing is read
        ({}, 400, "no 'puzzle'"),
        ([EASY], 400, "JSON object"),
    ],
)
def test_a_bad_request_is_a_4xx_json_error_never_a_traceback(server: str, body: Any, status: int, words: str) -> None:
    answer = post(server, "/solve", body)
    assert answer.status_code == status
    assert list(answer.json()) == ["error"]
    assert words in answer.json()["error"]
    assert "Traceback" not in answer.text


def test_malformed_oversized_unknown_and_wrong_method_requests_are_refused(server: str) -> None:
    broken = httpx.post(server + "/solve", content=b'{"puzzle": ', timeout=30)
    assert (broken.status_code, broken.json()) == (400, {"error": "the request body is not JSON"})
    huge = httpx.post(server + "/solve", content=b" " * (2 << 20), timeout=30)
    assert huge.status_code == 413 and "at most" in huge.json()["error"]
    assert httpx.get(server + "/nowhere", timeout=30).status_code == 404
    wrong = httpx.get(server + "/solve", timeout=30)
    assert wrong.status_code == 405 and "error" in wrong.json()


def test_a_request_head_past_the_size_limit_ends_its_connection_and_the_server_serves_on(server: str) -> None:
    """One endless header: the server answers 400 and closes the connection, its memory bounded (httptools or h11).

    uvicorn's httptools parser has no bound of its own: the server grew by every byte a client sent.
    """
    port = int(server.rsplit(":", 1)[1])
    most, sent, reply = 64 << 20, 0, b""
    with socket_module.create_connection(("127.0.0.1", port), timeout=30) as conn:
        conn.sendall(b"GET /health HTTP/1.1\r\nHost: localhost\r\nX-Long: ")
        with contextlib.suppress(OSError):  # the server closed the connection
            while sent < most:
                conn.sendall(b"a" * 65536)
                sent += 65536
        with contextlib.suppress(OSError):
            reply = conn.recv(200)
    assert sent < most  # the server's limit is 1 MB (--max-bytes): it closed long before 64 MB
    assert reply == b"" or reply.startswith(b"HTTP/1.1 4"), reply
    assert httpx.get(server + "/health", timeout=30).json()["status"] == "ok"


def test_a_job_past_its_time_limit_times_out_and_the_server_serves_on(server: str) -> None:
    late = post(server, "/count", {"puzzle": EMPTY, "limit": 1_000_000, "time_limit": 0.3}).json()
    assert late["status"] == "timeout"
    assert late["count"] < 1_000_000
    assert post(server, "/solve", {"puzzle": EASY}).json()["status"] == "solved"


def test_a_job_beyond_the_queue_is_refused_with_429(light: str) -> None:
    server = light
    """One job runs and one waits (--queue 1): a third is refused at once."""
    answers: list[httpx.Response] = []
    body = {"puzzle": EMPTY, "limit": 1_000_000, "time_limit": 1.5, "strategy": "backtrack"}
    long = [threading.Thread(target=lambda: answers.append(post(server, "/count", body))) for _ in range(2)]
    for thread in long:
        thread.start()
    deadline = time.monotonic() + 30
    while (health := httpx.get(server + "/health", timeout=30).json())["running"] + health["waiting"] < 2:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    busy = post(server, "/solve", {"puzzle": EASY})
    for thread in long:
        thread.join(timeout=60)
    assert busy.status_code == 429 and "busy" in busy.json()["error"]
    assert [answer.json()["status"] for answer in answers] == ["timeout", "timeout"]


def test_health_strategies_and_openapi_describe_the_server(server: str) -> None:
    health = httpx.get(server + "/health", timeout=30).json()
    assert health["status"] == "ok" and health["engines"] == ["backtrack", "cp-sat", "sat"]
    engines = httpx.get(server + "/strategies", timeout=30).json()
    assert [e["name"] for e in engines] == ["backtrack", "cp-sat", "sat"]
    assert all(e["loaded"] and "killer" in e["kinds"] for e in engines)
    spec = httpx.get(server + "/openapi.json", timeout=30).json()
    assert spec["openapi"].startswith("3.")
    for path in ("/solve", "/count", "/check", "/candidates", "/hint", "/explain", "/rate", "/generate"):
        assert "post" in spec["paths"][path]
        assert post(server, path, {"nothing": 1}).status_code == 400  # every one is served


# --- f-puzzles' WebSocket protocol ----------------------------------------------------------------------


def fpuzzles_data(puzzle: str, **extra: Any) -> str:
    return compress_to_base64(json.dumps({**to_fpuzzles(parse_puzzle(puzzle)), **extra}))


def socket(server: str, origin: str = "https://f-puzzles.com") -> Any:
    return ws_client.connect(server.replace("http://", "ws://") + "/", origin=origin, open_timeout=30)  # type: ignore[arg-type]


def ask(ws: Any, nonce: int, command: str, data: str | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"nonce": nonce, "command": command}
    if data is not None:
        message.update(dataType="fpuzzles", data=data)
    ws.send(json.dumps(message))
    reply: dict[str, Any] = json.loads(ws.recv(timeout=60))
    return reply


def test_the_websocket_solves_checks_counts_as_f_puzzles_expects(server: str) -> None:
    solution = [int(c) for c in count_solutions(EASY, limit=1).solution.to_line()]  # type: ignore[union-attr]
    with socket(server) as ws:
        assert ask(ws, 1, "solve", fpuzzles_data(EASY)) == {"nonce": 1, "type": "solved", "solution": solution}
        assert ask(ws, 2, "check", fpuzzles_data(MANY)) == {
            "nonce": 2,
            "type": "count",
            "count": 2,
            "inProgress": False,
        }
        counted = ask(ws, 3, "count", fpuzzles_data(MANY))
        assert counted == {"nonce": 3, "type": "count", "count": 357, "inProgress": False}
        link = fpuzzles_link(parse_puzzle(EASY))  # a whole link does as well as its data
        assert ask(ws, 4, "solve", link)["solution"] == solution
        none = ask(ws, 5, "solve", fpuzzles_data(".234" + "...." + "1..." + "...."))  # r1c1 has no digit left
        assert none == {"nonce": 5, "type": "invalid", "message": "No solutions found."}


def test_count_reports_its_progress_then_the_exact_count(server: str) -> None:
    exact = count_solutions(THOUSANDS, limit=100_000)
    assert exact.exact and 1000 < exact.count < 10_000
    with socket(server) as ws:
        first = ask(ws, 7, "count", fpuzzles_data(THOUSANDS))
        assert first == {"nonce": 7, "type": "count", "count": 1000, "inProgress": True}
        last = json.loads(ws.recv(timeout=60))
        assert last == {"nonce": 7, "type": "count", "count": exact.count, "inProgress": False}


def test_truecandidates_are_indexed_by_cell_and_digit_capped_by_the_option(server: str) -> None:
    every = count_solutions(MANY, limit=1000, keep=None)
    with socket(server) as ws:
        reply = ask(
            ws, 8, "truecandidates", fpuzzles_data(MANY, truecandidatesoptions=["truecandidatesnumsolutions=5"])
        )
        plain = ask(ws, 9, "truecandidates", fpuzzles_data(MANY, disabledlogic=[], truecandidatesoptions=[]))
    assert reply["type"] == "truecandidates" and reply["nonce"] == 8
    counts, ones = reply["solutionsPerCandidate"], plain["solutionsPerCandidate"]
    assert len(counts) == len(ones) == 729
    for cell in range(81):
        if MANY[cell] != ".":
            continue
        for digit in range(1, 10):
            found = sum(1 for s in every.solutions if s.cells[cell] == digit)
            assert counts[cell * 9 + digit - 1] == min(5, found)
            assert ones[cell * 9 + digit - 1] == min(1, found)


def test_step_and_solvepath_use_the_entered_digits_and_centre_marks(server: str) -> None:
    solution = count_solutions(EASY, limit=1).solution
    assert solution is not None
    data = to_fpuzzles(parse_puzzle(EASY))
    data["grid"][0][2]["value"] = solution.cells[2]  # a digit the user entered: a given for the step solver
    with socket(server) as ws:
        first = ask(ws, 10, "step", compress_to_base64(json.dumps(data)))
        assert first["type"] == "logical" and first["message"] == "Initial candidates.\n" and first["isValid"]
        assert first["cells"][2] == {"value": solution.cells[2]}
        for i, shown in enumerate(first["cells"]):
            if shown["value"] == 0:
                assert solution.cells[i] in shown["candidates"]
                data["grid"][i // 9][i % 9]["centerPencilMarks"] = shown["candidates"]
        second = ask(ws, 11, "step", compress_to_base64(json.dumps(data)))
        assert second["type"] == "logical" and second["isValid"]
        assert second["message"].startswith(("naked single", "hidden single"))
        placed = [i for i, c in enumerate(second["cells"]) if c["value"] and not first["cells"][i]["value"]]
        assert len(placed) == 1 and second["cells"][placed[0]]["value"] == solution.cells[placed[0]]
        path = ask(ws, 12, "solvepath", compress_to_base64(json.dumps(data)))
    assert path["isValid"] and [c["value"] for c in path["cells"]] == list(solution.cells)
    assert len(path["message"].splitlines()) == EASY.count(".") - 1  # one placement a line: the digit entered is in


def test_malformed_messages_are_invalid_and_cancel_answers_canceled(server: str) -> None:
    with socket(server) as ws:
        ws.send("not json")
        assert json.loads(ws.recv(timeout=30)) == {
            "nonce": None,
            "type": "invalid",
            "message": "the message is not JSON",
        }
        unknown = ask(ws, 13, "fly", fpuzzles_data(EASY))
        assert unknown["nonce"] == 13 and unknown["type"] == "invalid" and "unknown command" in unknown["message"]
        corrupt = ask(ws, 14, "solve", "N4IgzglgXgpiBcBWAtHA" + "x" * 30)
        assert corrupt["nonce"] == 14 and corrupt["type"] == "invalid"
        assert ask(ws, 15, "cancel") == {"nonce": 15, "type": "canceled"}
        assert ask(ws, 16, "solve", fpuzzles_data(EASY))["type"] == "solved"  # the connection serves on


def test_a_new_message_or_a_disconnect_cancels_the_running_job(light: str) -> None:
    server = light
    with socket(server) as ws:
        ws.send(json.dumps({"nonce": 20, "command": "count", "dataType": "fpuzzles", "data": fpuzzles_data(EMPTY)}))
        assert json.loads(ws.recv(timeout=60))["inProgress"] is True  # counting on, past 1000
        started = time.monotonic()
        reply = ask(ws, 21, "cancel")
        while reply["nonce"] == 20:  # a progress message already on its way
            reply = json.loads(ws.recv(timeout=60))
        assert reply == {"nonce": 21, "type": "canceled"}
        assert ask(ws, 22, "check", fpuzzles_data(EASY))["count"] == 1
        assert time.monotonic() - started < 10  # not after the empty grid's count (the time limit is 20 s)
        ws.send(json.dumps({"nonce": 23, "command": "count", "dataType": "fpuzzles", "data": fpuzzles_data(EMPTY)}))
        assert json.loads(ws.recv(timeout=60))["nonce"] == 23
    deadline = time.monotonic() + 15
    while httpx.get(server + "/health", timeout=30).json()["running"]:
        assert time.monotonic() < deadline, "the job of a closed connection runs on"
        time.sleep(0.05)


def test_the_websocket_refuses_pages_of_other_origins(server: str) -> None:
    from websockets.exceptions import InvalidStatus

    with pytest.raises(InvalidStatus) as refused:
        socket(server, origin="https://example.com")
    assert refused.value.response.status_code == 403
    with socket(server, origin=server) as ws:  # the server's own page
        assert ask(ws, 30, "check", fpuzzles_data(EASY))["count"] == 1


# --- the command -----------------------------------------------------------------------------------


def test_serve_is_not_imported_by_the_other_commands() -> None:
    code = (
        "import sys, sudokit.cli\n"
        "sudokit.cli.load_commands()\n"
        "heavy = ('starlette', 'uvicorn', 'websockets', 'sudokit.server')\n"
        "print(sorted(m for m in sys.modules if m.startswith(heavy)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert out.stdout.strip() == "[]", out.stderr


def test_without_the_extra_serve_says_what_to_install(tmp_path: Path) -> None:
    site = site_without(tmp_path, lambda name: name.split("-")[0].lower() in ("starlette", "uvicorn", "websockets"))
    proc = sudoku_in_site(site, "serve")
    assert proc.returncode == 2
    wanted = "sudoku serve needs the serve extra: pip install 'sudokit[serve]' (Starlette, uvicorn, websockets)"
    assert proc.stderr.strip() == f"sudoku: error: {wanted}"


def test_serve_refuses_an_unknown_engine_and_warns_of_an_open_address() -> None:
    proc = subprocess.run([SUDOKU, "serve", "--strategy", "nope"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "unknown strategy 'nope'" in proc.stderr
    with socket_module.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        busy = subprocess.run(
            [SUDOKU, "serve", "--port", port, "--engines", "backtrack"], capture_output=True, text=True
        )
    assert (busy.returncode, busy.stderr) == (
        2,
        f"sudoku: error: cannot listen on 127.0.0.1:{port}: Address already in use\n",
    )
    server, url, said = start_server("--host", "0.0.0.0", "--engines", "backtrack")
    assert said == [
        "sudoku serve: warning: listening on 0.0.0.0: anyone who can reach it can run jobs on this machine\n"
    ]
    try:
        assert httpx.get(url + "/health", timeout=30).json()["engines"] == ["backtrack"]
    finally:
        status = stop_server(server)  # nothing on stderr but its first lines, no traceback
    assert status in (0, -15)  # uvicorn re-raises the SIGTERM it finished on


def test_the_servers_connections_send_at_once_not_after_the_clients_ack() -> None:
    """Nagle's algorithm is off on every connection the server accepts (asyncio's, as uvicorn makes them).

    With it on, a response written in two sends (headers, then body) waited for the client's delayed ACK:
    40 ms added to every request, whatever the job cost (the server's listening socket said protocol 0).
    """
    import asyncio

    from sudokit.server import listening_socket

    async def accepted() -> int:
        loop = asyncio.get_running_loop()
        nodelay: asyncio.Future[int] = loop.create_future()

        class Accepted(asyncio.Protocol):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                sock = transport.get_extra_info("socket")
                nodelay.set_result(sock.getsockopt(socket_module.IPPROTO_TCP, socket_module.TCP_NODELAY))

        listener = listening_socket("127.0.0.1", 0)
        server = await loop.create_server(Accepted, sock=listener)  # what uvicorn does with the socket it is given
        try:
            _, writer = await asyncio.open_connection(*listener.getsockname())
            value = await asyncio.wait_for(nodelay, 30)
            writer.close()
            return value
        finally:
            server.close()
            await server.wait_closed()

    assert asyncio.run(accepted()) != 0


def test_numba_answers_boards_up_to_9x9_when_loaded_the_backtracker_bigger_boards_and_variants() -> None:
    """Warm in the workers, numba takes a classic 9x9 for a fifth of the backtracker's CPU (a count for 1/30)."""
    pytest.importorskip("numba")
    sizes = (ROOT / "puzzles/sizes/box4x4.txt").read_text().splitlines()
    sixteen = next(line for line in sizes if line[:1] not in ("#", "")).split(":")[0]
    killer = next(line for line in (ROOT / "puzzles/variants/corpus.txt").read_text().splitlines() if line[:1] == "{")
    proc, url, _ = start_server("--engines", "backtrack,numba", "--time-limit", "20")
    try:
        chosen = [
            (record["status"], record["strategy"])
            for record in (
                post(url, "/solve", {"puzzle": EASY}).json(),
                post(url, "/solve", {"puzzle": sixteen}).json(),
                post(url, "/solve", {"puzzle": killer}).json(),
                post(url, "/solve", {"puzzle": EASY, "strategy": "backtrack"}).json(),
            )
        ]
        counted = post(url, "/count", {"puzzle": MANY}).json()
    finally:
        stop_server(proc)
    assert chosen == [("solved", "numba"), ("solved", "backtrack"), ("solved", "backtrack"), ("solved", "backtrack")]
    assert (counted["count"], counted["exact"], counted["strategy"]) == (357, True, "numba")


def installing(site: Path, **engines: str) -> dict[str, str]:
    """An environment whose Python finds the test doubles ``engines`` (name: module:class) as installed engines."""
    info = site / "sudokit_test_doubles-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sudokit-test-doubles\nVersion: 1.0\n")
    entries = "".join(f"{name} = {value}\n" for name, value in engines.items())
    (info / "entry_points.txt").write_text(f"[sudokit.strategies]\n{entries}")
    return {**os.environ, "PYTHONPATH": f"{site}{os.pathsep}{ROOT}"}


def test_check_cross_checks_every_answer_with_a_second_engine(tmp_path: Path) -> None:
    """An engine whose count no check of its answer can refute: --check catches it, without it the lie goes out."""
    env = installing(tmp_path, **{"says-unique": "tests.plugins.claims:SaysUnique"})
    engines = ("--engines", "says-unique,backtrack", "--strategy", "says-unique")
    trusting, url, _ = start_server(*engines, env=env)
    try:
        lie = post(url, "/count", {"puzzle": MANY}).json()
    finally:
        stop_server(trusting)
    assert (lie["status"], lie["count"], lie["exact"]) == ("solved", 1, True)  # what --check is for
    checking, url, _ = start_server(*engines, "--check", env=env)
    try:
        caught = post(url, "/count", {"puzzle": MANY}).json()
        agreed = post(url, "/count", {"puzzle": EASY}).json()
        with socket(url) as ws:
            unique = ask(ws, 40, "check", fpuzzles_data(MANY))
    finally:
        stop_server(checking)
    assert caught["status"] == "error" and caught["strategy"] == "says-unique"
    assert "'backtrack' found 357" in caught["error"] and "disagree" in caught["error"]
    assert (agreed["status"], agreed["count"]) == ("solved", 1)
    assert unique["type"] == "invalid" and "disagree" in unique["message"]


def test_check_cross_checks_true_candidates_too(tmp_path: Path) -> None:
    """A fast candidates method that hides every solution but its first: --check's second engine catches it."""
    env = installing(tmp_path, **{"one-witness": "tests.plugins.candidates:OneWitness"})
    checking, url, _ = start_server(
        "--engines", "one-witness,backtrack", "--strategy", "one-witness", "--check", env=env
    )
    try:
        caught = post(url, "/candidates", {"puzzle": MANY}).json()
        agreed = post(url, "/candidates", {"puzzle": EASY}).json()
        with socket(url) as ws:
            marks = ask(ws, 41, "truecandidates", fpuzzles_data(MANY))
    finally:
        stop_server(checking)
    assert (caught["status"], caught["strategy"], caught["checked"]) == ("error", "one-witness", None)
    assert "one-witness and backtrack disagree on digit" in caught["error"]
    assert (agreed["status"], agreed["checked"], agreed["fast"]) == ("solved", "backtrack", True)
    assert marks["type"] == "invalid" and "disagree" in marks["message"]


def test_an_engine_that_crashes_or_hangs_costs_its_request_never_the_server(tmp_path: Path) -> None:
    """Test doubles that segfault, or sit in C code past their limit, on a puzzle whose first cell is blank."""
    killers = {"segfaults": "tests.plugins.killers:Segfaults", "long-c-call": "tests.plugins.killers:LongCCall"}
    env = installing(tmp_path, **killers)
    proc, url, _ = start_server("--engines", "segfaults,long-c-call,backtrack", env=env)
    try:
        crashed = post(url, "/solve", {"puzzle": EMPTY, "strategy": "segfaults"}).json()
        hung = post(url, "/solve", {"puzzle": EMPTY, "strategy": "long-c-call", "time_limit": 0.3}).json()
        fine = post(url, "/solve", {"puzzle": EASY, "strategy": "segfaults"}).json()  # a given first: it solves
        after = post(url, "/solve", {"puzzle": EMPTY}).json()
        health = httpx.get(url + "/health", timeout=30).json()
    finally:
        stop_server(proc)
    assert crashed["status"] == "error" and "SIGSEGV" in crashed["error"]
    assert hung["status"] == "error" and "killed" in hung["error"]
    assert (fine["status"], after["status"], after["strategy"]) == ("solved", "solved", "backtrack")
    assert health["engines"] == ["segfaults", "long-c-call", "backtrack"] and health["served"] == 4


def test_an_engine_that_ends_its_worker_as_it_loads_is_left_out(tmp_path: Path) -> None:
    env = installing(tmp_path, **{"exits-on-import": "tests.plugins.exits_on_import:Engine"})
    proc, url, _ = start_server("--engines", "exits-on-import,backtrack", env=env)
    try:
        engines = {e["name"]: e for e in httpx.get(url + "/strategies", timeout=30).json()}
        solved = post(url, "/solve", {"puzzle": EASY}).json()
        refused = post(url, "/solve", {"puzzle": EASY, "strategy": "exits-on-import"})
    finally:
        stop_server(proc)
    assert engines["backtrack"]["loaded"] and not engines["exits-on-import"]["loaded"]
    assert "ended its worker as it loaded" in engines["exits-on-import"]["error"]
    assert solved["status"] == "solved"
    assert refused.status_code == 400 and "this server runs backtrack" in refused.json()["error"]


def test_a_websocket_message_past_the_size_limit_ends_that_connection_only(server: str) -> None:
    from websockets.exceptions import ConnectionClosed

    with socket(server) as ws:
        ws.send("x" * (2 << 20))  # --max-bytes is 1 MiB
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=30)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # message too big
    with socket(server) as ws:
        assert ask(ws, 50, "check", fpuzzles_data(EASY))["count"] == 1


def test_the_step_solver_walks_a_variant_puzzle_by_its_rules(server: str) -> None:
    lines = (ROOT / "puzzles" / "variants" / "corpus.txt").read_text().splitlines()
    at = next(k for k, line in enumerate(lines) if line.startswith('{"box": "3x3"') and '"kind": "killer"' in line)
    name = lines[at - 1].removeprefix("# ").split(":")[0]
    answers = (ROOT / "puzzles" / "variants" / "answers.txt").read_text().splitlines()
    solution = next(line.split()[3] for line in answers if line.split()[0] == name)
    grid = parse_puzzle(lines[at])
    with socket(server) as ws:
        reply = ask(ws, 51, "solvepath", compress_to_base64(json.dumps(to_fpuzzles(grid))))
    assert reply["type"] == "logical" and reply["isValid"], reply["message"]
    assert "killer cage" in reply["message"]  # the cages' own steps, named after the rule
    for cell, digit in zip(reply["cells"], solution, strict=True):  # every step kept the solution
        assert cell["value"] == int(digit) if cell["value"] else int(digit) in cell["candidates"]
    assert sum(1 for c in reply["cells"] if c["value"]) > sum(1 for v in grid.cells if v)
