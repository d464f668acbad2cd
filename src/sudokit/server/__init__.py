"""``sudoku serve``: sudokit as a solver backend for browsers and other programs, on one port.

* :mod:`sudokit.server.service`: the service core: warm engines in killable worker processes
  (:mod:`sudokit.engines.workers`), a bounded number of jobs at once, each with a time limit.
* :mod:`sudokit.server.app`: the ASGI app (Starlette): the HTTP JSON API and the WebSocket.
* :mod:`sudokit.server.fpuzzles`: f-puzzles' solver protocol on the WebSocket at ``/``.

It needs the ``serve`` extra (``pip install 'sudokit[serve]'``: Starlette, uvicorn, websockets);
:func:`serve` runs it. The rest of sudokit never imports this package.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any

from sudokit.server.service import DEFAULT_PORT, ServerConfig

__all__ = ["DEFAULT_PORT", "MISSING", "ServerConfig", "listening_socket", "missing", "serve"]

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
    import uvicorn

    from sudokit.server.app import create_app
    from sudokit.server.service import Service

    listener = listening_socket(config.host, config.port)
    service = Service(config)
    try:
        service.start()
        app = create_app(config, service)
        server = uvicorn.Server(
            uvicorn.Config(
                app,
                host=config.host,
                port=config.port,
                http=_http_protocol(config.max_bytes),
                log_level="warning",
                access_log=False,
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


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` and listening (connections wait in its backlog until the app takes them).

    Made with ``IPPROTO_TCP`` named, not 0: asyncio turns Nagle's algorithm off (``TCP_NODELAY``) only on the
    connections of a socket whose protocol says TCP, and with it on, a response written in two sends (its
    headers, then its body) waited for the client's delayed ACK: 40 ms added to every request.
    Raises ``OSError`` when the port cannot be bound.
    """
    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
        listener.listen(128)
    except OSError:
        listener.close()
        raise
    return listener


def _http_protocol(max_bytes: int) -> Any:
    """uvicorn's ``http``: httptools' parser with a bound on a request's head when installed, else h11 (bounded too)."""
    try:
        from sudokit.server.protocol import http_protocol
    except ImportError:
        return "h11"
    return http_protocol(max_bytes)
