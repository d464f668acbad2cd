"""The step solver's answers to f-puzzles' ``solvepath`` and ``step`` (run in a server worker)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sudokit.model.grid import Grid

__all__ = ["logical_answer"]


def logical_answer(
    grid: Grid, marks: dict[int, list[int]], *, step: bool, disabled: Iterable[str] = ()
) -> dict[str, Any]:
    """The ``logical`` reply of f-puzzles' ``solvepath`` or ``step`` (``step``), for ``grid`` (the digits entered too).

    Centre pencil marks (``marks``, by cell) narrow their cells first. A variant puzzle's rules take part in the
    steps (:mod:`sudokit.features.rules`), as in ``sudoku explain``. ``step`` on marks that the
    givens and digits narrow further answers with those candidates first ("Initial candidates."), as
    SudokuSolver does; then one step a request. ``disabled``: the techniques left out (the puzzle's
    ``disabledlogic``, :func:`sudokit.features.logic.disabled_techniques`).
    """
    from sudokit.features.logic import Candidates, hint, steps

    n = grid.n
    state = Candidates(grid)
    narrowed = False
    for cell in range(grid.shape.size):
        if state.values[cell]:
            continue
        given = marks.get(cell)
        if given is not None:
            state.masks[cell] &= sum(1 << (d - 1) for d in given)
        if given is None or state.masks[cell] != sum(1 << (d - 1) for d in given):
            narrowed = True
    lines: list[str] = []
    valid = True
    if step and narrowed:
        lines.append("Initial candidates.")
    elif step:
        found = hint(state, disabled)
        if found is None:
            lines.append("The puzzle is solved.")
        elif found.technique == "contradiction":
            lines.append(f"{found.technique}: {found.explanation}")
            valid = False
        elif not found.progress:
            lines.append("No logical steps found.")
        else:
            lines.append(f"{found.technique}: {found.explanation}")
            state.apply(found)
    else:
        for found in steps(state, disabled):
            if found.technique == "contradiction":
                lines.append(f"{found.technique}: {found.explanation}")
                valid = False
                break
            if not found.progress:
                lines.append("No logical steps found.")
                break
            lines.append(f"{found.technique}: {found.explanation}")
            state.apply(found)
    if any(not v and not m for v, m in zip(state.values, state.masks, strict=True)):
        valid = False
    if not valid:
        lines.append("Board is invalid!")
    cells = [
        {"value": v} if v else {"value": 0, "candidates": [d for d in range(1, n + 1) if m >> (d - 1) & 1]}
        for v, m in zip(state.values, state.masks, strict=True)
    ]
    return {"type": "logical", "cells": cells, "message": "\n".join(lines) + "\n", "isValid": valid}
