"""The ASGI app of ``sudoku serve`` (Starlette): the HTTP JSON API and f-puzzles' WebSocket, on one port.

``POST /solve``, ``/count``, ``/check``, ``/candidates``, ``/hint``, ``/explain``, ``/rate``,
``/generate`` take a JSON object (the puzzle as text in any form sudokit reads, never a path: a
request reads no file) and answer with the records the command line writes with ``-f json``;
``GET /strategies``, ``/health`` and ``/openapi.json`` describe the server; the WebSocket at ``/``
is f-puzzles' solver protocol (:mod:`sudokit.server.fpuzzles`). A request that is not right is a
4xx answer ``{"error": "..."}`` naming what is wrong, never a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from sudokit.engines.api import DEFAULT_COUNT_LIMIT
from sudokit.errors import InvalidPuzzleError, StrategyError, SudokitError
from sudokit.io.puzzles import parse_puzzle
from sudokit.model.grid import Grid
from sudokit.server.fpuzzles import Session
from sudokit.server.openapi import openapi
from sudokit.server.service import SOURCE, BusyError, Job, ServerConfig, Service

__all__ = ["BROWSER_ORIGINS", "MAX_GENERATE", "MAX_LIMIT", "PAGE", "RequestError", "create_app"]

#: The origins whose pages may open the WebSocket (besides the server's own and ``--allow-origin``).
BROWSER_ORIGINS = (
    "https://f-puzzles.com",
    "https://www.f-puzzles.com",
    "https://sudokupad.app",
    "https://www.sudokupad.app",
    "https://app.crackingthecryptic.com",
)
#: The page at ``GET /``: one file, its script and style inline, nothing fetched from elsewhere (it works offline).
PAGE = (resources.files("sudokit.server") / "page.html").read_text(encoding="utf-8")
#: The page may load nothing but itself and call nothing but this server.
_PAGE_POLICY = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'"
#: The most solutions a request may ask an engine for.
MAX_LIMIT = 1_000_000
#: The most puzzles one ``/generate`` request makes.
MAX_GENERATE = 100


class RequestError(SudokitError):
    """A request that is not right: its HTTP status and one line saying what is wrong."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


Handler = Callable[[Service, dict[str, Any]], Awaitable[Any]]


def create_app(config: ServerConfig, service: Service | None = None) -> Starlette:
    """The app for ``config``; its workers start (and load the engines) with the app's lifespan.

    ``service`` is one already started (tests, and ``sudoku serve``, which starts it before it binds
    the port, so a failure to load is an error before the server listens).
    """
    state: dict[str, Service] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        own = service is None
        running = Service(config) if service is None else service
        if own:
            running.start()
        state["service"] = running
        try:
            yield
        finally:
            if own:
                running.close()

    def endpoint(handler: Handler) -> Callable[[Request], Awaitable[JSONResponse]]:
        async def answer(request: Request) -> JSONResponse:
            try:
                body = await _body(request, config.max_bytes)
                return JSONResponse(await handler(state["service"], body))
            except RequestError as err:
                return _error(str(err), err.status)
            except BusyError as err:
                return _error(str(err), 429)
            except (InvalidPuzzleError, StrategyError, ValueError, TypeError) as err:
                return _error(str(err), 400)

        return answer

    async def strategies(request: Request) -> JSONResponse:
        return JSONResponse([info.to_dict() for info in state["service"].infos.values()])

    async def health(request: Request) -> JSONResponse:
        running = state["service"]
        return JSONResponse(
            {
                "status": "ok",
                "engines": list(running.engines),
                "strategy": config.strategy,
                "check": config.check,
                "time_limit": config.time_limit,
                "jobs": config.jobs,
                "running": running.running,
                "waiting": running.waiting,
                "served": running.served,
            }
        )

    async def index(request: Request) -> HTMLResponse:
        return HTMLResponse(PAGE, headers={"Content-Security-Policy": _PAGE_POLICY})

    async def described(request: Request) -> JSONResponse:
        return JSONResponse(openapi(config))

    async def socket(websocket: WebSocket) -> None:
        origin = websocket.headers.get("origin")
        if origin is not None and not _allowed(origin, websocket, config):
            await websocket.close(code=1008)  # before the handshake: a 403
            return
        await websocket.accept()
        sending = asyncio.Lock()  # a job's replies and the replies to new messages go out one whole frame at a time

        async def send(message: dict[str, Any]) -> None:
            async with sending:
                with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):  # the client has gone
                    await websocket.send_json(message)

        session = Session(state["service"], send)
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    text = (message.get("bytes") or b"").decode("utf-8", "replace")
                if len(text) > config.max_bytes:
                    await send({"nonce": None, "type": "invalid", "message": "message too large"})
                    continue
                await session.receive(text)
        except WebSocketDisconnect:
            pass
        finally:
            session.cancel()

    routes: list[BaseRoute] = [
        Route(f"/{name}", endpoint(handler), methods=["POST"]) for name, handler in ENDPOINTS.items()
    ]
    routes += [
        Route("/strategies", strategies, methods=["GET"]),
        Route("/health", health, methods=["GET"]),
        Route("/openapi.json", described, methods=["GET"]),
        Route("/", index, methods=["GET"]),
        WebSocketRoute("/", socket),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={404: _not_found, 405: _not_allowed})
    return app


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": " ".join(message.split())}, status_code=status)


async def _not_found(request: Request, exc: Exception) -> JSONResponse:
    return _error(f"no endpoint {request.url.path} (GET /openapi.json lists them)", 404)


async def _not_allowed(request: Request, exc: Exception) -> JSONResponse:
    return _error(f"{request.method} {request.url.path}: not allowed here (GET /openapi.json lists the methods)", 405)


def _allowed(origin: str, websocket: WebSocket, config: ServerConfig) -> bool:
    """Whether a page of ``origin`` may use the WebSocket: f-puzzles', SudokuPad's, the server's own, or allowed."""
    own = websocket.headers.get("host")
    if origin in BROWSER_ORIGINS or origin in config.allow_origins or "*" in config.allow_origins:
        return True
    return own is not None and origin in (f"http://{own}", f"https://{own}")


async def _body(request: Request, most: int) -> dict[str, Any]:
    """The request's JSON object, read up to ``most`` bytes (a 413 past that)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > most:
        raise RequestError(f"the request body is {int(declared):,} bytes (at most {most:,})", 413)
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > most:
            raise RequestError(f"the request body is more than {most:,} bytes", 413)
    try:
        body = json.loads(data or b"{}")
    except (ValueError, RecursionError):
        raise RequestError("the request body is not JSON") from None
    if not isinstance(body, dict):
        raise RequestError("the request body must be a JSON object")
    return body


def _fields(body: dict[str, Any], *known: str) -> None:
    """Refuse a field the endpoint does not take (a misspelled option is an error, not ignored)."""
    for key in body:
        if key not in known:
            raise RequestError(f"unknown field {key!r:.40} (this endpoint takes {', '.join(known)})")


def _text(body: dict[str, Any], name: str, default: str | None = None) -> str | None:
    value = body.get(name, default)
    if value is not None and not isinstance(value, str):
        raise RequestError(f"{name!r} must be a string, not {type(value).__name__}")
    return value


def _whole(body: dict[str, Any], name: str, default: int, most: int) -> int:
    value = body.get(name, default)
    if type(value) is not int or not 1 <= value <= most:
        raise RequestError(f"{name!r} must be a whole number from 1 to {most:,}, not {value!r:.40}")
    return value


def _puzzle(body: dict[str, Any]) -> tuple[Grid, str]:
    """The request's puzzle (a text in any form sudokit reads) and that text; a 400 naming what is wrong."""
    text = _text(body, "puzzle")
    if text is None:
        raise RequestError("the request has no 'puzzle' (a puzzle text, line, grid, JSON or link)")
    try:
        return parse_puzzle(text, _text(body, "box")), text
    except InvalidPuzzleError as err:
        raise RequestError(f"puzzle: {err}") from None


def _common(service: Service, body: dict[str, Any], grid: Grid | None) -> tuple[str, float]:
    return service.engine_for(grid, _text(body, "strategy")), service.time_limit(body.get("time_limit"))


SOLVE_FIELDS = ("puzzle", "box", "strategy", "limit", "time_limit")


async def puzzle(service: Service, body: dict[str, Any]) -> Any:
    """The puzzle read, for the page to draw: its givens, regions and rules (sudokit's JSON form, ``variant``)."""
    from sudokit.model.variants import to_dict

    _fields(body, "puzzle", "box")
    grid, _ = _puzzle(body)
    return {
        "puzzle": grid.to_line(),
        "n": grid.n,
        "box": str(grid.shape),
        "givens": list(grid.cells),
        "region_of": list(grid.region_of),
        "classic": grid.is_classic,
        "jigsaw": grid.jigsaw,
        "variant": to_dict(grid),
    }


async def solve(service: Service, body: dict[str, Any]) -> Any:
    _fields(body, *SOLVE_FIELDS)
    grid, text = _puzzle(body)
    strategy, time_limit = _common(service, body, grid)
    limit = _whole(body, "limit", 1, MAX_LIMIT)
    return await service.solve(grid, strategy, limit=limit, time_limit=time_limit, text=text)


async def count(service: Service, body: dict[str, Any]) -> Any:
    _fields(body, *SOLVE_FIELDS)
    grid, text = _puzzle(body)
    strategy, time_limit = _common(service, body, grid)
    limit = _whole(body, "limit", DEFAULT_COUNT_LIMIT, MAX_LIMIT)
    return await service.count(grid, strategy, limit=limit, time_limit=time_limit, text=text)


async def check(service: Service, body: dict[str, Any]) -> Any:
    _fields(body, "puzzle", "box", "strategies", "limit", "time_limit")
    grid, _ = _puzzle(body)
    names = body.get("strategies")
    if names is None:
        engines = list(service.engines)
    elif isinstance(names, list) and names and all(isinstance(n, str) for n in names):
        engines = [service.engine_for(grid, name) for name in names]
    else:
        raise RequestError("'strategies' must be a list of engine names")
    limit = _whole(body, "limit", 2, MAX_LIMIT)
    time_limit = service.time_limit(body.get("time_limit"))
    answer = await service.run(Job("check", grid, engines[0], limit, time_limit, {"engines": engines}))
    if type(answer) is tuple:
        raise RequestError(f"the cross-check failed: {answer[1]}", 422)
    return {**answer, "source": SOURCE, "line": None}


async def candidates(service: Service, body: dict[str, Any]) -> Any:
    from sudokit.features.candidates import MAX_CAP

    _fields(body, "puzzle", "box", "strategy", "cap", "time_limit")
    grid, _ = _puzzle(body)
    strategy = service.engine_for(grid, _text(body, "strategy"), candidates=True)
    time_limit = service.time_limit(body.get("time_limit"))
    cap = _whole(body, "cap", 1, MAX_CAP)
    checker = service.checker_for(grid, strategy)
    answer = await service.run(Job("candidates", grid, strategy, 1, time_limit, {"cap": cap, "check": checker}))
    if type(answer) is tuple:
        return {"puzzle": grid.to_line(), "strategy": strategy, "status": "error", "error": answer[1]}
    return answer


async def _logic(service: Service, body: dict[str, Any], kind: str) -> Any:
    _fields(body, "puzzle", "box", "strategy", "time_limit", "disabled")
    grid, _ = _puzzle(body)
    disabled = _disabled(body.get("disabled", []))
    strategy, time_limit = _common(service, body, grid)
    answer = await service.run(Job(kind, grid, strategy, 2, time_limit, {"disabled": disabled}))
    outcome, data = answer
    if outcome == "ok":
        return data
    if outcome == "refused":
        raise RequestError(str(data), 422)
    if outcome == "timeout" or str(data).startswith("still running"):
        raise RequestError(f"no {kind} within the time limit of {time_limit:g} s", 408)
    raise RequestError(str(data), 422)


def _disabled(value: object) -> frozenset[str]:
    """The techniques a ``"disabled"`` list names (f-puzzles' logic families or techniques), or a RequestError."""
    from sudokit.features.logic import disabled_techniques

    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise RequestError(f"'disabled' must be a list of technique or logic family names, not {value!r:.40}")
    try:
        return disabled_techniques(value)
    except ValueError as err:
        raise RequestError(f"disabled: {err}") from None


async def hint(service: Service, body: dict[str, Any]) -> Any:
    return await _logic(service, body, "hint")


async def explain(service: Service, body: dict[str, Any]) -> Any:
    return await _logic(service, body, "explain")


async def rate(service: Service, body: dict[str, Any]) -> Any:
    _fields(body, "puzzle", "box", "strategy", "time_limit")
    grid, text = _puzzle(body)
    strategy, time_limit = _common(service, body, grid)
    answer = await service.run(Job("rate", grid, strategy, 2, time_limit, {"text": text}))
    if type(answer) is tuple:
        raise RequestError(f"no rating: {answer[1]}", 408 if str(answer[1]).startswith("still running") else 422)
    return answer


GENERATE_FIELDS = (
    "box",
    "count",
    "seed",
    "symmetry",
    "minimal",
    "level",
    "rules",
    "givens",
    "template",
    "strategy",
    "time_limit",
)


async def generate(service: Service, body: dict[str, Any]) -> Any:
    from sudokit.features.generation import LEVELS, SYMMETRIES
    from sudokit.model.shape import Shape

    _fields(body, *GENERATE_FIELDS)
    try:
        shape = Shape.parse(_text(body, "box", "3x3") or "3x3")
    except InvalidPuzzleError as err:
        raise RequestError(f"box: {err}") from None
    number = _whole(body, "count", 1, MAX_GENERATE)
    seed = body.get("seed")
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 32)
    elif type(seed) is not int or seed < 0:
        raise RequestError(f"'seed' must be a whole number of at least 0, not {seed!r:.40}")
    symmetry = _text(body, "symmetry", "none")
    if symmetry not in SYMMETRIES:
        raise RequestError(f"'symmetry' must be one of {', '.join(SYMMETRIES)}, not {symmetry!r:.40}")
    level = _text(body, "level")
    if level is not None and level.lower() not in LEVELS:
        raise RequestError(f"'level' must be one of {', '.join(LEVELS)}, not {level!r:.40}")
    minimal = body.get("minimal", False)
    if not isinstance(minimal, bool):
        raise RequestError("'minimal' must be true or false")
    options = {"box": shape, "count": number, "seed": seed, "symmetry": symmetry, "minimal": minimal}
    options["level"] = None if level is None else level.lower()
    variant = _variant(body)
    if variant:  # a template's board is the puzzles' board
        options.update(variant, box=shape if variant["template"] is None else variant["template"].shape)
        strategy = service.generator_for(_text(body, "strategy"), variant["template"])
        time_limit = service.time_limit(body.get("time_limit"))
    else:
        strategy, time_limit = _common(service, body, None)
    answer = await service.run(Job("generate", None, strategy, 1, time_limit, options))
    if type(answer) is tuple and answer[0] == "refused":
        raise RequestError(str(answer[1]))
    if type(answer) is tuple:
        return {"status": "timeout", "seed": seed, "puzzles": [], "error": answer[1]}
    return answer


def _variant(body: dict[str, Any]) -> dict[str, Any]:
    """A variant generation's options (``sudoku generate --rules``, ``--template``, ``--no-givens``); {} for classic.

    ``rules`` is a list of the kinds to draw (``["killer", "thermometer"]``); ``template`` a puzzle
    text or link whose rules are kept (never a path: a request reads no file); ``givens: false`` makes
    puzzles without a given (killer among the rules).
    """
    from sudokit.features.variant_generation import parse_rules

    asked, text, givens = body.get("rules"), _text(body, "template"), body.get("givens", True)
    if not isinstance(givens, bool):
        raise RequestError("'givens' must be true or false")
    if asked is not None and text is not None:
        raise RequestError("'rules' and 'template' both say the puzzles' rules: give one of them")
    if asked is None and text is None:
        if not givens:
            raise RequestError("'givens': false needs 'rules' with killer: the cages alone make the puzzle unique")
        return {}
    template = rules = None
    if asked is not None:
        if not isinstance(asked, list) or not all(isinstance(r, str) for r in asked):
            raise RequestError(f"'rules' must be a list of rule names (as killer, thermometer), not {asked!r:.40}")
        try:
            rules = parse_rules(asked)
        except ValueError as err:
            raise RequestError(f"rules: {err}") from None
    else:
        try:
            template = parse_puzzle(text or "", _text(body, "box"))
        except InvalidPuzzleError as err:
            raise RequestError(f"template: {err} (a puzzle text or link: a request reads no file)") from None
        if template.is_classic:
            raise RequestError("template: the puzzle has no variant rule (leave 'template' out for classic puzzles)")
    if not givens and (rules is None or "killer" not in rules):
        raise RequestError(
            "'givens': false needs 'rules' with killer (not a template): the cages are drawn again until they "
            "alone make the puzzle unique"
        )
    return {"rules": rules, "template": template, "no_givens": not givens}


#: The POST endpoints, by name.
ENDPOINTS: dict[str, Handler] = {
    "puzzle": puzzle,
    "solve": solve,
    "count": count,
    "check": check,
    "candidates": candidates,
    "hint": hint,
    "explain": explain,
    "rate": rate,
    "generate": generate,
}
