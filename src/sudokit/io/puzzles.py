"""Every text form of a puzzle, read into a :class:`~sudokit.model.grid.Grid`: the board's own forms
(:meth:`Grid.parse <sudokit.model.grid.Grid.parse>`: the classic texts and our JSON form of a
variant puzzle) and f-puzzles and SudokuPad links (:mod:`sudokit.io.links`).

:func:`parse_puzzle` takes any of them: it is what ``sudokit.solve``, the reader and the command
line read a puzzle text with. The board itself (:mod:`sudokit.model`) knows no link format.

    >>> parse_puzzle('{"box": "2x2", "givens": "1...............", "constraints": []}').n
    4
"""

from __future__ import annotations

from sudokit.errors import BoxShapeError
from sudokit.model.grid import Grid
from sudokit.model.shape import Shape

__all__ = ["LINK_STARTS", "parse_puzzle"]

#: How a link or a bare f-puzzles/SudokuPad payload may begin (besides a URL scheme).
LINK_STARTS = (
    "?load=",
    "load=",
    "fpuz",
    "scl",
    "ctc",
    "N4Ig",  # lz-string's base64 of a JSON object: f-puzzles' bare data
    "www.",
    "f-puzzles.com/",
    "sudokupad.app/",
    "app.crackingthecryptic.com/",
)


def parse_puzzle(text: str, box: Shape | str | None = None) -> Grid:
    """A grid from any accepted text form; ``box`` ("2x3" or a Shape) where the side leaves it open.

    Variant puzzles come as our JSON object (``{"givens": ..., "constraints": [...]}``, see
    :func:`sudokit.model.grid.from_json`) or as f-puzzles and SudokuPad links (:mod:`sudokit.io.links`);
    the classic forms and the JSON are :meth:`Grid.parse <sudokit.model.grid.Grid.parse>`'s. Raises an
    :class:`~sudokit.errors.InvalidPuzzleError` subclass naming what is wrong and where, and
    ``TypeError`` for a ``text`` that is not a str or a ``box`` that is not a Shape or a str.
    """
    if not isinstance(text, str):
        raise TypeError(f"puzzle text must be a str, not {text!r:.80}")
    linked = _linked(text, box)
    if linked is not None:
        return linked
    return Grid.parse(text, box)


def _shape(box: Shape | str | None) -> Shape | None:
    """``box`` as a Shape (None stays None); TypeError for anything but a Shape or a str."""
    if box is None or isinstance(box, Shape):
        return box
    if isinstance(box, str):
        return Shape.parse(box)
    raise TypeError(f"box must be a Shape or a text like '2x3', not {box!r:.80}")


def _linked(text: str, box: Shape | str | None) -> Grid | None:
    """The puzzle of an f-puzzles/SudokuPad link; None for any other text."""
    stripped = text.lstrip("\ufeff").strip()
    if "://" in stripped[:60] or stripped.startswith(LINK_STARTS):
        from sudokit.io import links

        if not links.is_link(stripped):
            return None
        grid = links.parse_link(stripped)
    else:
        return None
    if box is not None and _shape(box) != grid.shape:
        raise BoxShapeError(f"box {_shape(box)} does not fit the puzzle, whose boxes are {grid.shape}")
    return grid
