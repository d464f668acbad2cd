"""``sudoku strategies``: list the installed engines (``--load``: check that each one loads).

There is no ``from __future__ import annotations`` here on purpose: Typer reads the commands'
annotations, and given strings it evaluates each one, which costs start-up time.
"""

from typing import Annotated, Any

import typer
import typer.core

from sudokit.cli.common import (
    ListFormat,
    app,
    fail,
    print_text,
)
from sudokit.engines.registry import default_registry
from sudokit.errors import SudokitError


def _capabilities_json(caps: Any) -> dict[str, Any] | None:
    """An engine's capabilities as JSON (None when it did not load)."""
    if caps is None:
        return None
    shapes = None if caps.box_shapes is None else sorted(str(shape) for shape in caps.box_shapes)
    return {
        "max_side": caps.max_side,
        "box_shapes": shapes,
        "counting": caps.counting,
        "time_limit": caps.time_limit,
        "constraints": sorted(caps.constraints),
    }


def _capabilities_text(caps: Any) -> str:
    """What an engine declares beyond the default, as `` (boards up to 16x16, no counting)``, or nothing."""
    parts = []
    if caps.max_side is not None:
        parts.append(f"boards up to {caps.max_side}x{caps.max_side}")
    if caps.box_shapes is not None:
        parts.append("boxes " + ", ".join(sorted(str(shape) for shape in caps.box_shapes)))
    if not caps.counting:
        parts.append("no counting")
    if not caps.time_limit:
        parts.append("no time limit")
    if caps.constraints:
        from sudokit.model.variants import ALL_KINDS

        kinds = "every one" if caps.constraints >= ALL_KINDS else ", ".join(sorted(caps.constraints))
        parts.append(f"variant rules: {kinds}")
    return f" ({'; '.join(parts)})" if parts else ""


@app.command(short_help="List the installed engines (--load: check that each one loads).")
def strategies(
    fmt: Annotated[
        ListFormat, typer.Option("--format", "-f", help="pretty (a table) or json (an engine a line).")
    ] = ListFormat.pretty,
    load: Annotated[
        bool, typer.Option("--load", help="Load each engine (in a worker process) and say whether it works.")
    ] = False,
) -> None:
    """List the installed engines from their packages' metadata, without importing them.

    With --load, each engine is imported and built in a worker process (a plugin that hangs or
    crashes on import is reported, not fatal), and the list says whether it works.
    """
    from sudokit.engines.registry import load_isolated

    try:
        rows = load_isolated(default_registry()) if load else default_registry().info()
    except SudokitError as err:  # the environment's SUDOKIT_MEMORY_LIMIT is not a size
        fail(" ".join(str(err).split()))
    if fmt is ListFormat.json:
        import json

        for row in rows:
            print_text(
                json.dumps(
                    {
                        "name": row.name,
                        "loaded": row.loaded,
                        "description": row.description,
                        "entry_point": row.entry_point,
                        "distribution": row.distribution,
                        "version": row.version,
                        "missing": list(row.missing),
                        "install": row.install_hint,
                        "error": row.error,
                        **({"capabilities": _capabilities_json(row.capabilities)} if load else {}),
                    }
                )
            )
        return
    if not rows:
        print_text("no strategies installed (entry-point group 'sudokit.strategies' is empty)")
        return
    width = max(len(row.name) for row in rows)
    for row in rows:
        source = f" [{row.distribution}]" if row.distribution else ""
        if row.missing:
            text = f"needs {', '.join(row.missing)}: {row.install_hint}"
        elif row.loaded is False:
            text = row.error or "failed to load"
        else:
            text = row.description or ""
        if load and row.capabilities is not None:
            text += _capabilities_text(row.capabilities)
        if load:
            state = "ok      " if row.loaded else "FAILED  "
            print_text(f"{row.name.ljust(width)}  {state}{text}{source}")
        else:
            print_text(f"{row.name.ljust(width)}  {text}{source}")
