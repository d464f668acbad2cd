"""A griffe extension for the docs site: docstrings written for ``help()`` and doctest, rendered as Markdown.

mkdocstrings reads the docstrings as Markdown, where a ``>>>`` line is a nested quote, a slice such as
``[:2]`` after a bracket is a link reference, and a Sphinx role (``:func:`steps```) shows its markup.
This extension fences each run of non-blank lines that starts with ``>>>`` as a ``pycon`` code block,
and turns each role into code (``steps``), before the docstring is rendered. ``mkdocs.yml`` loads it;
the docstrings themselves stay as they are, their sessions run by the tests.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_FENCE = "```"
_ROLE = re.compile(r":(?:py:)?(?:func|meth|class|data|attr|mod|exc|obj|const):`~?([^`]+)`")


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


def plain_roles(text: str) -> str:
    """``text`` with each Sphinx role outside code blocks (``:func:`name```) as code (```name```)."""
    parts = re.split(r"(^[ \t]*```.*?^[ \t]*```)", text, flags=re.M | re.S)
    return "".join(part if k % 2 else _ROLE.sub(r"``\1``", part) for k, part in enumerate(parts))


class DoctestFences(griffe.Extension):
    """Fences the doctest sessions and plains the roles of every docstring griffe loads (see the module docstring)."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = plain_roles(fence_doctests(obj.docstring.value))
