"""The batch path's reading of runs of alike lines (n*n symbols and "\\n" each) without its pattern.

Such runs, the common case of a large file, are recognised by whole-text operations; every other line
is left to the pattern. The blocks (their lines, first line numbers and text) and so every record must be
exactly what the pattern alone makes, wherever the pieces read from the file are cut.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from sudokit.model.shape import Shape
from sudokit.runtime import fastpath
from sudokit.runtime.fastpath import Block, read_items
from tests.conftest import puzzles


def _items(path: Path, box: Shape | None) -> list[tuple[object, ...]]:
    return [
        ("block", item.first, item.text, item.lines) if type(item) is Block else ("record", item)
        for item in read_items([str(path)], box=box)
    ]


def _inputs() -> dict[str, str]:
    clues = puzzles("17clue.txt")[:4500]
    rnd = random.Random(27)
    sixteen = ["".join(rnd.choice(".123456789ABCDEFGabcdefg0") for _ in range(256)) for _ in range(300)]
    return {
        "alike": "\n".join(clues) + "\n",
        "no last line end": "\n".join(clues[:2500]),
        "crlf": "\r\n".join(clues[:300]) + "\r\n",
        "byte order mark": "\ufeff" + "\n".join(clues[:2100]) + "\n",
        "notes among them": "\n".join(c + (":note" if i % 999 == 3 else "") for i, c in enumerate(clues)) + "\n",
        "mixed": "\n".join(
            [*clues[:2047], "", "# comment", *sixteen[:2], clues[1][:80], "é" * 81, *clues[2047:4200], "x" * 81]
        )
        + "\n",
        "two sides": "\n".join(sixteen[:100] + clues[:2200] + sixteen[:5]) + "\n",
        "a smaller board last": "\n".join([*sixteen, clues[0]]) + "\n",  # one block of both for the pattern
        "zeros for blanks": "\n".join(c.replace(".", "0") for c in clues[:2100]) + "\n",
    }


@pytest.mark.parametrize("box", [None, Shape.of(3, 3), Shape.of(4, 4)], ids=str)
def test_alike_lines_make_the_blocks_the_pattern_makes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, box: Shape | None
) -> None:
    shortcuts = []
    alike = fastpath._alike

    def counted(buf: str, pos: int, end: int, box: Shape | None) -> tuple[int, int]:
        found = alike(buf, pos, end, box)
        shortcuts.append(found[0])
        return found

    def pattern_only(buf: str, pos: int, end: int, box: Shape | None) -> tuple[int, int]:
        return 0, pos

    for name, text in _inputs().items():
        path = tmp_path / f"{name}.txt"
        path.write_bytes(text.encode("utf-8"))
        for size in (fastpath.READ_SIZE, 100_003):  # pieces cut lines anywhere
            monkeypatch.setattr(fastpath, "READ_SIZE", size)
            monkeypatch.setattr(fastpath, "_alike", pattern_only)
            expected = _items(path, box)
            monkeypatch.setattr(fastpath, "_alike", counted)
            assert _items(path, box) == expected, (name, size)
    if box is None or box.n == 9:  # the shortcut took most of the 9x9 lines (else it would prove nothing)
        assert sum(shortcuts) > 15_000
