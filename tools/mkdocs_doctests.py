"""A griffe extension for the docs site: the doctest sessions of docstrings rendered as code.

mkdocstrings reads the docstrings as Markdown, where a ``>>>`` line is a nested quote and a slice such as
``[:2]`` after a bracket is a link reference. This extension fences each run of non-blank lines that
starts with ``>>>`` as a ``pycon`` code block before it is rendered. ``mkdocs.yml`` loads it; the
docstrings themselves stay plain doctests, run as they are by the tests.
"""

from __future__ import annotations

from typing import Any

import griffe

_FENCE = "```"


def fence_doctests(text: str) -> str:
    """``text`` with each doctest session (``>>>`` and the lines after it, to a blank line) fenced as pycon."""
    out: list[str] = []
    lines = text.splitlines()
    k, fenced = 0, False
    while k < len(lines):
        line = lines[k]
        if line.lstrip().startswith(_FENCE):
            fenced = not fenced
        if fenced or not line.lstrip().startswith(">>>"):
            out.append(line)
            k += 1
            continue
        indent = line[: len(line) - len(line.lstrip())]
        out.append(f"{indent}{_FENCE}pycon")
        while k < len(lines) and lines[k].strip():
            out.append(lines[k])
            k += 1
        out.append(f"{indent}{_FENCE}")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Fences the doctest sessions of every docstring griffe loads (see the module docstring)."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
