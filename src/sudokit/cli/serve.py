"""``sudoku serve``: sudokit as a solver backend: the HTTP JSON API and f-puzzles' WebSocket on one port.

There is no ``from __future__ import annotations`` here on purpose: Typer reads the commands'
annotations, and given strings it evaluates each one, which costs start-up time. The server itself
(:mod:`sudokit.server`, Starlette and uvicorn) is imported only when the command runs.
"""

from typing import Annotated, Any

import typer

from sudokit.cli.common import app, check_known, fail, say
from sudokit.errors import SudokitError


@app.command(short_help="Serve the engines over HTTP and f-puzzles' WebSocket (needs sudokit[serve]).")
def serve(
    host: Annotated[
        str, typer.Option("--host", metavar="HOST", help="Address to listen on; another than 127.0.0.1 is warned of.")
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", "-p", min=0, max=65535, metavar="PORT", help="Port (0: any free one).")
    ] = 4545,
    strategy: Annotated[
        str | None,
        typer.Option(
            "--strategy", "-s", metavar="NAME", help="Engine of every job (default: the fastest that takes the puzzle)."
        ),
    ] = None,
    check: Annotated[
        bool, typer.Option("--check", help="Cross-check every solve and count with a second engine before answering.")
    ] = False,
    time_limit: Annotated[
        float,
        typer.Option(
            "--time-limit", "-t", min=0.001, metavar="SECONDS", help="Most seconds a job may take (and its default)."
        ),
    ] = 60.0,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=1, max=64, metavar="N", help="Jobs run at once, a worker process each.")
    ] = 1,
    queue: Annotated[
        int, typer.Option("--queue", min=0, metavar="N", help="Jobs that may wait for a worker; more are refused.")
    ] = 32,
    max_bytes: Annotated[
        int, typer.Option("--max-bytes", min=1024, metavar="BYTES", help="Largest request body or WebSocket message.")
    ] = 1 << 20,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option("--allow-origin", metavar="ORIGIN", help="Another web origin let on the WebSocket (repeatable)."),
    ] = None,
    engines: Annotated[
        str | None,
        typer.Option("--engines", metavar="A,B", help="The engines to load (default: every installed one)."),
    ] = None,
) -> None:
    """Serve sudokit on one port: the HTTP JSON API (POST /solve, /count, /check, /candidates, /hint,
    /explain, /rate, /generate; GET /strategies, /health, /openapi.json) and f-puzzles' solver
    protocol on the WebSocket at /.

    The engines load once, in --jobs worker processes; each job runs in one, killed past its time
    limit. Binds 127.0.0.1 unless told otherwise. Runs until Ctrl-C or SIGTERM.
    """
    from sudokit.server import ServerConfig, missing
    from sudokit.server import serve as run

    absent = missing()
    if absent is not None:
        fail(absent)
    names = None if engines is None else tuple(name.strip() for name in engines.split(",") if name.strip())
    if names:
        check_known(*names)
    if strategy is not None:
        check_known(strategy)
        if names is not None and strategy not in names:
            fail(f"--strategy {strategy} is not one of --engines {engines}")
    if host not in ("127.0.0.1", "localhost", "::1"):
        say(f"sudoku serve: warning: listening on {host}: anyone who can reach it can run jobs on this machine")
    config = ServerConfig(
        host=host,
        port=port,
        strategy=strategy,
        check=check,
        time_limit=time_limit,
        jobs=jobs,
        queue=queue,
        max_bytes=max_bytes,
        allow_origins=tuple(allow_origin or ()),
        engines=names,
    )

    def announce(bound_host: str, bound_port: int) -> Any:
        where = f"[{bound_host}]" if ":" in bound_host else bound_host
        say(f"sudoku serve: listening on http://{where}:{bound_port} (WebSocket ws://{where}:{bound_port}/)")

    try:
        run(config, announce)
    except OSError as err:
        fail(f"cannot listen on {host}:{port}: {err.strerror or err}")
    except SudokitError as err:
        fail(str(err))
