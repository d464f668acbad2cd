"""f-puzzles' solver protocol: the WebSocket at ``/`` that f-puzzles' solver userscript talks to.

The protocol is that of the listen mode of Rangsk's SudokuSolver (``SudokuSolverConsole/WebsocketListener.cs``
in github.com/dclamage/SudokuSolver) and of its userscript (``UserScripts/Fpuzzles-SudokuSolver.user.js``),
which connects to ``ws://localhost:4545``: text frames of JSON, one job per connection. A request is
``{"nonce": int, "command": str, "dataType": "fpuzzles", "data": str}``; every reply echoes the
nonce. A new message cancels the job the connection has running (its worker is killed), and so does
a disconnect. ``data`` is f-puzzles' lz-string (compressToBase64) JSON, or a whole link holding
``?load=``. The replies:

* ``solve``: ``{"type": "solved", "solution": [n*n ints]}`` or ``{"type": "invalid", "message": ...}``;
* ``check``: one ``{"type": "count", "count": 0|1|2, "inProgress": false}``;
* ``count``: ``{"type": "count", "count": k, "inProgress": true}`` as the count grows (it is counted
  to 1,000, then to 10,000, and so on, each time again), then one with ``"inProgress": false``;
* ``truecandidates``: ``{"type": "truecandidates", "solutionsPerCandidate": [n*n*n ints]}``, indexed
  ``(row*n + col)*n + digit-1``, each the solutions with that digit there, capped at the script's
  ``truecandidatesnumsolutions=N`` (1 without it);
* ``solvepath``, ``step``: ``{"type": "logical", "cells": [...], "message": ..., "isValid": bool}``,
  from the digits the user entered and their centre pencil marks too (the others read only the
  givens and given pencil marks), without the logic families the puzzle's ``disabledlogic`` lists
  (an unknown family: ``invalid``, naming it);
* ``cancel``: ``{"type": "canceled"}``; anything malformed: ``{"type": "invalid", "message": ...}``.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from sudokit.engines.strategy import Result, Status
from sudokit.errors import SudokitError
from sudokit.io.links import MAX_EXPANSION, MAX_LINK_DATA, parse_fpuzzles
from sudokit.io.lzstring import decompress_from_base64
from sudokit.model.grid import Grid
from sudokit.server.service import BusyError, Job, Service

__all__ = ["COMMANDS", "COUNT_STEPS", "FPuzzle", "Session", "read_fpuzzle", "reply_to"]

#: The commands of the protocol.
COMMANDS = ("solve", "check", "count", "truecandidates", "solvepath", "step", "cancel")
#: The limits ``count`` counts to in turn, reporting each one reached as a count in progress.
COUNT_STEPS = (1_000, 10_000, 100_000, 1_000_000, 10_000_000)
#: The most solutions true candidates count per candidate (``truecandidatesnumsolutions=N``).
MAX_CANDIDATE_CAP = 100
_NO_SOLUTION = "No solutions found."


class ProtocolError(SudokitError):
    """A message that is not a request of the protocol: replied to with ``invalid``."""


@dataclass(frozen=True)
class FPuzzle:
    """A puzzle sent by f-puzzles: ``grid`` (its givens and rules), ``entered`` (the user's digits too, or the
    error that makes them no puzzle), each cell's centre pencil marks, the true-candidates cap, and its
    ``disabledlogic`` as sent (read by ``solvepath`` and ``step`` only)."""

    grid: Grid
    entered: Grid | str
    marks: dict[int, tuple[int, ...]]
    cap: int
    disabledlogic: object = None


def read_fpuzzle(data: object) -> FPuzzle:
    """The puzzle of a request's ``data``: lz-string JSON, or a link holding ``?load=``. ``ProtocolError`` if not."""
    if not isinstance(data, str) or not data.strip():
        raise ProtocolError("'data' must be f-puzzles' puzzle data (lz-string Base64) or a link with ?load=")
    text = data.strip()
    if "load=" in text[:200]:
        text = text[text.index("load=") + len("load=") :].split("&", 1)[0]
    text = unquote(text).replace(" ", "+")
    if len(text) > MAX_LINK_DATA:
        raise ProtocolError(f"the puzzle data is {len(text):,} characters long (at most {MAX_LINK_DATA:,})")
    try:
        decoded = decompress_from_base64(text, max_length=MAX_EXPANSION)
        puzzle = json.loads(decoded)
    except (SudokitError, ValueError, RecursionError) as err:
        why = " ".join(str(err).split()) or "not lz-string"
        raise ProtocolError(f"the puzzle data cannot be read: {why}") from None
    if not isinstance(puzzle, dict) or not isinstance(puzzle.get("grid"), list):
        raise ProtocolError("the puzzle data is not an f-puzzles puzzle (no 'grid')")
    grid = parse_fpuzzles(puzzle)
    marks: dict[int, tuple[int, ...]] = {}
    entered_puzzle = dict(puzzle)
    rows = []
    n = grid.n
    for r, row in enumerate(puzzle["grid"]):
        new_row = []
        for c, cell in enumerate(row):
            if isinstance(cell, dict) and not cell.get("given") and cell.get("value"):
                cell = {**cell, "given": True}  # the user's digit, as a given for the step solver
            elif isinstance(cell, dict) and isinstance(cell.get("centerPencilMarks"), list):
                digits = tuple(sorted({d for d in cell["centerPencilMarks"] if type(d) is int and 1 <= d <= n}))
                if digits:
                    marks[r * n + c] = digits
            new_row.append(cell)
        rows.append(new_row)
    entered_puzzle["grid"] = rows
    entered: Grid | str
    try:
        entered = parse_fpuzzles(entered_puzzle)
    except SudokitError as err:
        entered = str(err)
    return FPuzzle(grid, entered, marks, _cap(puzzle.get("truecandidatesoptions")), puzzle.get("disabledlogic"))


def _cap(options: object) -> int:
    """The true-candidates cap of ``truecandidatesoptions``: ``truecandidatesnumsolutions=N``, 8 for the older
    ``colored``, else 1; at most ``MAX_CANDIDATE_CAP``."""
    cap = 1
    for option in options if isinstance(options, list) else []:
        if option == "colored":
            cap = 8
        elif isinstance(option, str) and option.startswith("truecandidatesnumsolutions="):
            try:
                cap = int(option.partition("=")[2])
            except ValueError:
                continue
    return max(1, min(cap, MAX_CANDIDATE_CAP))


# --- the session ---------------------------------------------------------------------------------------


Send = Callable[[dict[str, Any]], Awaitable[None]]


def reply_to(text: str) -> tuple[object, str, object]:
    """``(nonce, command, data)`` of a message; ``ProtocolError`` (its nonce in ``.nonce``) when it is not a request."""
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("the message is not JSON") from None
    if not isinstance(message, dict):
        raise ProtocolError("the message is not a JSON object")
    nonce = message.get("nonce")
    error = None
    command = message.get("command")
    if type(nonce) is not int:
        error = "'nonce' must be an integer"
    elif command not in COMMANDS:
        error = f"unknown command {command!r:.40} (one of {', '.join(COMMANDS)})"
    elif command != "cancel" and message.get("dataType") != "fpuzzles":
        error = f"dataType {message.get('dataType')!r:.40}: only 'fpuzzles' is read"
    if error is not None:
        err = ProtocolError(error)
        err.nonce = nonce if type(nonce) is int else None  # type: ignore[attr-defined]
        raise err
    return nonce, str(command), message.get("data")


class Session:
    """One WebSocket connection: at most one job at a time, cancelled by the next message or the end."""

    def __init__(self, service: Service, send: Send) -> None:
        self.service = service
        self.send = send
        self.job: asyncio.Task[None] | None = None

    async def receive(self, text: str) -> None:
        """Take one message: cancel the running job, then answer or start the new one."""
        self.cancel()
        try:
            nonce, command, data = reply_to(text)
        except ProtocolError as err:
            await self.send({"nonce": getattr(err, "nonce", None), "type": "invalid", "message": str(err)})
            return
        if command == "cancel":
            await self.send({"nonce": nonce, "type": "canceled"})
            return
        self.job = asyncio.create_task(self.answer(nonce, command, data))

    def cancel(self) -> None:
        if self.job is not None and not self.job.done():
            self.job.cancel()
        self.job = None

    async def answer(self, nonce: object, command: str, data: object) -> None:
        send = self.send
        try:
            puzzle = read_fpuzzle(data)
            if command in ("solvepath", "step"):
                await send({"nonce": nonce, **await self.logical(puzzle, step=command == "step")})
            elif command == "truecandidates":
                await send({"nonce": nonce, **await self.candidates(puzzle)})
            elif command == "solve":
                await send({"nonce": nonce, **await self.solve(puzzle.grid)})
            else:
                await self.count(nonce, puzzle.grid, check=command == "check")
        except asyncio.CancelledError:
            raise
        except (SudokitError, ValueError) as err:
            await send({"nonce": nonce, "type": "invalid", "message": " ".join(str(err).split())})
        except BusyError as err:
            await send({"nonce": nonce, "type": "invalid", "message": str(err)})

    async def solve(self, grid: Grid) -> dict[str, Any]:
        service = self.service
        limit = service.config.time_limit
        result = await service.result(grid, service.engine_for(grid), limit=1, time_limit=limit, counting=False)
        if result.status is Status.SOLVED and result.solution is not None:
            return {"type": "solved", "solution": list(result.solution.cells)}
        return {"type": "invalid", "message": _failure(result, limit)}

    async def count(self, nonce: object, grid: Grid, *, check: bool) -> None:
        service = self.service
        strategy = service.engine_for(grid)
        limits = (2,) if check else COUNT_STEPS
        deadline = time.monotonic() + service.config.time_limit
        for limit in limits:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            result = await service.result(grid, strategy, limit=limit, time_limit=left, counting=True)
            if result.status not in (Status.SOLVED, Status.UNSOLVABLE):
                await self.send({"nonce": nonce, "type": "invalid", "message": _failure(result, left)})
                return
            if result.exact or check:
                await self.send({"nonce": nonce, "type": "count", "count": result.count, "inProgress": False})
                return
            await self.send({"nonce": nonce, "type": "count", "count": result.count, "inProgress": True})
        total = service.config.time_limit
        stop = f"at least {limits[-1]:,} solutions (sudokit counts to {limits[-1]:,})"
        if time.monotonic() >= deadline:
            stop = f"counting stopped at the server's time limit of {total:g} s"
        await self.send({"nonce": nonce, "type": "invalid", "message": stop})

    async def candidates(self, puzzle: FPuzzle) -> dict[str, Any]:
        service = self.service
        grid = puzzle.grid
        strategy = service.engine_for(grid, candidates=True)
        limit = service.config.time_limit
        checker = service.checker_for(grid, strategy)
        answer = await service.run(Job("candidates", grid, strategy, 1, limit, {"cap": puzzle.cap, "check": checker}))
        if type(answer) is tuple:  # ("failed", why): the worker was killed past the time limit, or died
            return {"type": "invalid", "message": f"true candidates failed: {answer[1]}"}
        if answer["status"] == "solved":
            return {"type": "truecandidates", "solutionsPerCandidate": answer["counts"]}
        if answer["status"] == "unsolvable":
            return {"type": "invalid", "message": _NO_SOLUTION}
        return {"type": "invalid", "message": answer["error"] or answer["status"]}

    async def logical(self, puzzle: FPuzzle, *, step: bool) -> dict[str, Any]:
        if isinstance(puzzle.entered, str):
            return {"type": "invalid", "message": puzzle.entered}
        service = self.service
        marks = {cell: list(digits) for cell, digits in puzzle.marks.items()}
        options = {"marks": marks, "step": step, "disabled": _disabled(puzzle.disabledlogic)}
        job = Job("logic", puzzle.entered, service.engine_for(puzzle.entered), 1, service.config.time_limit, options)
        answer = await service.run(job)
        if type(answer) is tuple:
            return {"type": "invalid", "message": f"the step solver failed: {answer[1]}"}
        data: dict[str, Any] = answer
        return data


def _disabled(names: object) -> frozenset[str]:
    """The techniques a puzzle's ``disabledlogic`` leaves out (:data:`sudokit.features.logic.LOGIC_FAMILIES`).

    ``ValueError`` (an ``invalid`` reply) for a value that is not a list of names, or an unknown name.
    """
    from sudokit.features.logic import disabled_techniques

    if names is None:
        return frozenset()
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise ValueError(f"disabledlogic must be a list of logic family names, not {names!r:.60}")
    return disabled_techniques(names)


def _failure(result: Result, limit: float) -> str:
    """The ``invalid`` message of a solve or count that found no answer."""
    if result.status is Status.UNSOLVABLE:
        return _NO_SOLUTION
    if result.status is Status.TIMEOUT:
        return f"No answer within the time limit of {limit:g} s."
    return result.error or result.status.value
