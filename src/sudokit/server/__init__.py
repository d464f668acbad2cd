"""``sudoku serve``: sudokit as a solver backend for browsers and other programs, on one port.

* :mod:`sudokit.server.service`: the service core: warm engines in killable worker processes
  (:mod:`sudokit.engines.workers`), a bounded number of jobs at once, each with a time limit.
* :mod:`sudokit.server.app`: the ASGI app (Starlette): the HTTP JSON API and the WebSocket.
* :mod:`sudokit.server.fpuzzles`: f-puzzles' solver protocol on the WebSocket at ``/``.

It needs the ``serve`` extra (``pip install 'sudokit[serve]'``: Starlette, uvicorn, websockets);
:func:`serve` runs it. The rest of sudokit never imports this package.
"""

from __future__ import annotations

from collections.abc import Callable

from sudokit.server.service import DEFAULT_PORT, ServerConfig

__all__ = ["DEFAULT_PORT", "MISSING", "ServerConfig", "missing", "serve"]

#: What ``sudoku serve`` says when the extra is not installed.
MISSING = "sudoku serve needs the serve extra: pip install 'sudokit[serve]' (Starlette, uvicorn, websockets)"


def missing() -> str | None:
    """:data:`MISSING` when the serve extra's packages cannot be imported, else None."""
    import importlib.util

    for name in ("starlette", "uvicorn", "websockets"):
        if importlib.util.find_spec(name) is None:
            return MISSING
    return None


def serve(config: ServerConfig, announce: Callable[[str, int], None] | None = None) -> None:
    """Start the workers (loading the engines), then serve on ``config.host``:``config.port`` until Ctrl-C or SIGTERM.

    The workers are started before the port is bound, so an engine that cannot load is an error
    before anything listens. On Ctrl-C or SIGTERM uvicorn stops taking requests, the running jobs'
    connections end, and every worker is killed. ``announce``, if given, is called with the host and
    the port bound (``config.port`` 0: one the system chose) before the server takes connections.
    Raises ``OSError`` when the port cannot be bound, ``StrategyError`` when no engine loads.
    """
    import socket

    import uvicorn

    from sudokit.server.app import create_app
    from sudokit.server.service import Service

    service = Service(config)
    listener = socket.socket(socket.AF_INET6 if ":" in config.host else socket.AF_INET)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((config.host, config.port))
        listener.listen(128)  # connections wait in the backlog until the app takes them
        service.start()
        app = create_app(config, service)
        server = uvicorn.Server(
            uvicorn.Config(
                app,
                host=config.host,
                port=config.port,
                log_level="warning",
                ws_max_size=config.max_bytes,
                h11_max_incomplete_event_size=config.max_bytes,
                timeout_graceful_shutdown=5,
                # A browser keeps an idle connection longer than uvicorn's 5 s: a POST sent as it closed was lost.
                timeout_keep_alive=75,
                lifespan="on",
            )
        )
        if announce is not None:
            announce(config.host, listener.getsockname()[1])
        server.run(sockets=[listener])
    finally:
        listener.close()
        service.close()
