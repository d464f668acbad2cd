"""The OpenAPI description of the HTTP API (``GET /openapi.json``)."""

from __future__ import annotations

from typing import Any

from sudokit.server.service import ServerConfig

__all__ = ["openapi"]

_PUZZLE = {"type": "string", "description": "The puzzle, in any form sudokit reads: line, grid, JSON, link."}
_BOX = {"type": "string", "description": "Box shape (e.g. 2x3) where the side leaves it open."}
_STRATEGY = {"type": "string", "description": "Engine (GET /strategies); default: the server's choice."}
_TIME = {"type": "number", "description": "Seconds; capped by the server's --time-limit (its default)."}
_RECORD = {
    "type": "object",
    "description": "The record `sudoku solve -f json` writes (docs/server.md).",
    "properties": {
        "puzzle": {"type": "string"},
        "strategy": {"type": "string"},
        "status": {"type": "string", "enum": ["solved", "unsolvable", "timeout", "error", "unsupported"]},
        "solution": {"type": ["string", "null"]},
        "count": {"type": "integer"},
        "exact": {"type": "boolean"},
        "elapsed_ms": {"type": "number"},
        "stats": {"type": "object"},
        "error": {"type": ["string", "null"]},
        "source": {"type": "string"},
        "line": {"type": "null"},
    },
}
_ERROR = {"type": "object", "properties": {"error": {"type": "string"}}, "required": ["error"]}


def _post(summary: str, fields: dict[str, Any], answer: dict[str, Any], required: tuple[str, ...] = ("puzzle",)) -> Any:
    return {
        "post": {
            "summary": summary,
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {
                        "schema": {
                            "type": "object",
                            "properties": fields,
                            "required": list(required),
                            "additionalProperties": False,
                        }
                    }
                },
            },
            "responses": {
                "200": {"description": "The answer", "content": {"application/json": {"schema": answer}}},
                "4XX": {
                    "description": "A request that is not right",
                    "content": {"application/json": {"schema": _ERROR}},
                },
            },
        }
    }


def _get(summary: str) -> Any:
    return {"get": {"summary": summary, "responses": {"200": {"description": summary}}}}


def openapi(config: ServerConfig) -> dict[str, Any]:
    """The OpenAPI 3.1 description of the server's HTTP API."""
    from sudokit.features.variant_generation import DRAWN

    solving = {"puzzle": _PUZZLE, "box": _BOX, "strategy": _STRATEGY, "limit": {"type": "integer"}, "time_limit": _TIME}
    logic = {"puzzle": _PUZZLE, "box": _BOX, "strategy": _STRATEGY, "time_limit": _TIME}
    obj = {"type": "object"}
    disabled = {
        "type": "array",
        "items": {"type": "string"},
        "description": "techniques to leave out: f-puzzles' logic families (tuples, pointing, fishes, wings, aic, "
        "contradictions) or technique names (docs/server.md#disabledlogic)",
    }
    stepping = {**logic, "disabled": disabled}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "sudokit",
            "version": "0.1.0",
            "description": "sudokit's solver backend: the records of `sudoku ... -f json` over HTTP (docs/server.md).",
        },
        "servers": [{"url": f"http://{config.host}:{config.port}"}],
        "paths": {
            "/": _get("The page: a board to paste or type a puzzle into, and every action of the API"),
            "/puzzle": _post(
                "The puzzle read: its givens, regions and rules (sudokit's JSON form)",
                {"puzzle": _PUZZLE, "box": _BOX},
                obj,
            ),
            "/solve": _post("Solve (limit: solutions to find, 1 by default)", solving, _RECORD),
            "/count": _post("Count the solutions up to limit (10000 by default)", solving, _RECORD),
            "/check": _post(
                "Cross-check: every engine (or strategies), each answer checked, the verdict",
                {
                    "puzzle": _PUZZLE,
                    "box": _BOX,
                    "strategies": {"type": "array", "items": {"type": "string"}},
                    "limit": {"type": "integer"},
                    "time_limit": _TIME,
                },
                obj,
            ),
            "/candidates": _post(
                "True candidates: the digits some solution has in each cell, counted up to cap",
                {**logic, "cap": {"type": "integer"}},
                obj,
            ),
            "/hint": _post("The next logical step (a classic puzzle with one solution)", stepping, obj),
            "/explain": _post("Every logical step and the rating", stepping, obj),
            "/rate": _post("The rating: the record of `sudoku rate -f json`", logic, _RECORD),
            "/generate": _post(
                "New puzzles with one solution (variants: rules or template), as `sudoku generate -f json` makes them",
                {
                    "box": _BOX,
                    "count": {"type": "integer"},
                    "seed": {"type": "integer"},
                    "symmetry": {"type": "string"},
                    "minimal": {"type": "boolean"},
                    "level": {"type": "string"},
                    "rules": {
                        "type": "array",
                        "items": {"type": "string", "enum": list(DRAWN)},
                        "description": "Variant puzzles: the kinds to draw for each (`sudoku generate --rules`)",
                    },
                    "givens": {
                        "type": "boolean",
                        "description": "false: no given at all, the killer cages alone make it unique (`--no-givens`)",
                    },
                    "template": {
                        "type": "string",
                        "description": "Variant puzzles on its rules: a puzzle text or link, not a path (--template)",
                    },
                    "strategy": _STRATEGY,
                    "time_limit": _TIME,
                },
                obj,
                required=(),
            ),
            "/strategies": _get("The engines the server loaded, and what each takes"),
            "/health": _get("Whether the server is up, and its jobs running and waiting"),
            "/openapi.json": _get("This description"),
        },
    }
