"""f-puzzles and SudokuPad links: variant puzzles in and out.

An f-puzzles link is ``https://www.f-puzzles.com/?load=<data>``, its data the puzzle's JSON compressed
by lz-string's ``compressToBase64`` (:mod:`sudokit.io.lzstring`). SudokuPad links
(``https://sudokupad.app/<id>``, also under ``/sudoku/`` and on ``app.crackingthecryptic.com``) carry
the same f-puzzles data after ``fpuzzles`` or ``fpuz``, or SudokuPad's own format after ``scl`` or
``ctc``: compressed the same way, its JSON written short (:func:`unzip_scl`). A SudokuPad short ID
(``sudokupad.app/abc123``, ``sudokupad.app/author/title``) and an f-puzzles ``?id=`` link only name a
puzzle kept on a server: sudokit does not use the network, and says so.

What is read. f-puzzles' JSON names each rule, and every rule sudokit models is read: the givens and the
regions of ``grid``; ``diagonal+``/``diagonal-``, ``antiknight``, ``antiking``, ``nonconsecutive`` and
``negative`` (the negative constraints of the ratio dots and of XV); ``killercage``, ``littlekillersum``,
``sandwichsum``, ``xsum``, ``skyscraper``, ``thermometer``, ``arrow``, ``difference`` and ``ratio`` (white and
black kropki dots), ``xv`` and ``sum`` (sum clues of other values), ``odd``, ``even``, ``extraregion``,
``palindrome``, ``rowindexer``, ``columnindexer``, ``boxindexer``, ``quadruple``, ``clone``, ``minimum``,
``maximum``, ``disjointgroups``, ``betweenline``, ``regionsumline``, ``entropicline``, ``modularline``,
``zipperline``, ``lockout``, ``nabner``, ``doublearrow``, and the keys of f-puzzles' solver plugin ``renban``,
``whispers`` and ``slowthermometer``. A rule sudokit does not model (a cage drawn as decoration...) is an
error naming it: a puzzle is never solved with one of its rules left out. Only what carries no rule is passed
over: title, author, rules text, settings, the solution, SudokuPad's success message, cell colours and the
solver's own pencil marks (a cell's ``givenPencilMarks``, the digits it is limited to, are read). The drawings
``cage`` (but killer cages), ``line``, ``circle``, ``rectangle`` and ``text`` are refused too: a rule they
stand for is in the rules text, which sudokit does not read, and solving without it could give a wrong answer
(but for the drawings f-puzzles' solver plugin adds for the rules it also writes as rules, marked
``fromConstraint``, and the lockout plugin's lines and diamonds). docs/formats.md lists where each key's form
was confirmed.

SudokuPad's own format draws its puzzles: lines, arrows and shapes whose meaning is in the rules
text. From it sudokit reads the givens, the regions, killer cages (cages marked ``unique``) and the
global rules anti-knight, anti-king and non-consecutive; a puzzle that draws anything else is an
error saying so (its f-puzzles link, where there is one, carries its rules).

What is written: :func:`to_fpuzzles` makes the JSON as f-puzzles' own exporter writes it (the keys in
its order, a cell as ``{"value": 5, "given": true}``, a region number only where it differs from the
box), plus the plugins' keys and the drawings they add for them (lines, bulbs, diamonds, cages, texts, marked
``fromConstraint``), so that f-puzzles without the plugins, and SudokuPad, draw them; :func:`fpuzzles_link`
makes the link, with the solution in the ``solution`` field when given.

    >>> from sudokit import Grid
    >>> from sudokit.model.variants import Killer
    >>> puzzle = Grid.empty("2x2").with_rules(constraints=[Killer(["r1c1", "r1c2"], total=3)])
    >>> link = fpuzzles_link(puzzle)
    >>> link.startswith("https://www.f-puzzles.com/?load=N4Ig")
    True
    >>> parse_link(link) == puzzle
    True
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from math import ceil, isqrt
from typing import Any, ClassVar, cast
from urllib.parse import unquote, urlsplit

from sudokit.errors import SudokitError
from sudokit.io.lzstring import ExpansionError, LZStringError, compress_to_base64, decompress_from_base64
from sudokit.model.grid import Grid
from sudokit.model.shape import MAX_BOX, Shape
from sudokit.model.variants import (
    XV,
    AntiKing,
    AntiKnight,
    Arrow,
    BetweenLine,
    Cell,
    Clone,
    Constraint,
    Diagonal,
    DisjointGroups,
    DoubleArrow,
    EntropicLine,
    ExtraRegion,
    Indexer,
    Killer,
    Kropki,
    KropkiNegative,
    LittleKiller,
    LockoutLine,
    MinMax,
    ModularLine,
    NabnerLine,
    NonConsecutive,
    OddEven,
    Palindrome,
    PencilMarks,
    Quadruple,
    RegionSumLine,
    Renban,
    Sandwich,
    Skyscraper,
    SlowThermometer,
    Thermometer,
    VariantError,
    Whisper,
    XSum,
    XVNegative,
    ZipperLine,
    read_json,
)

__all__ = [
    "FPUZZLES_URL",
    "LinkError",
    "fpuzzles_link",
    "fpuzzles_shape",
    "is_link",
    "parse_fpuzzles",
    "parse_link",
    "parse_sudokupad",
    "to_fpuzzles",
    "unzip_scl",
]

#: The start of an f-puzzles link; the compressed JSON follows.
FPUZZLES_URL = "https://www.f-puzzles.com/?load="
#: f-puzzles' boards: 3x3 to 16x16 (sudokit's start at 4x4).
FPUZZLES_SIDES = range(4, 17)

_FPUZZLES_HOSTS = frozenset({"f-puzzles.com", "www.f-puzzles.com"})
_SUDOKUPAD_HOSTS = frozenset(
    {
        "sudokupad.app",
        "www.sudokupad.app",
        "beta.sudokupad.app",
        "app.crackingthecryptic.com",
        "test.crackingthecryptic.com",
        "sudokupad.svencodes.com",
    }
)
_URL = re.compile(r"(?i)(?:https?://)?((?:[a-z0-9-]+\.)+[a-z]{2,})(?::\d+)?(?=[/?#]|$)")
_BASE64 = re.compile(r"[A-Za-z0-9+/=%\-_ ]+")
#: SudokuPad's prefixes of puzzle data, longest first: f-puzzles data, then its own format.
_PREFIXES = (("fpuzzles", "fpuzzles"), ("fpuz", "fpuzzles"), ("scl", "scl"), ("ctc", "scl"), ("scf", "scf"))
#: Bare data: f-puzzles' JSON starts with ``{"``, which compresses to this.
_BARE = "N4Ig"
_CELL = re.compile(r"[Rr](\d{1,9})[Cc](\d{1,9})")  # digits capped: int() stays cheap
_LITTLE_KILLER = {"UL": (-1, -1), "UR": (-1, 1), "DL": (1, -1), "DR": (1, 1)}
_SCAN_SLASHES = 400  # most single '/' tried doubled when a SudokuPad link lost one of a '//' pair
#: The longest puzzle data read from a link, in characters (a 16x16 puzzle full of rules takes some 20,000).
MAX_LINK_DATA = 1 << 19
#: The most characters a link's data may expand to: LZW data can stand for the square of its length
#: (60 KB for a gigabyte), so decompressing gives up past this (a rich 16x16 puzzle's JSON is under 200 KB).
MAX_EXPANSION = 1 << 22
#: The characters of data all the tries of a link with a lost '/' may read together (each reads it all), and
#: how many times its length each try may expand to (real puzzle data expands some 5 to 10 times).
_RETRY_WORK = 1 << 20
_RETRY_EXPANSION = 64
#: The most digits of a number in a puzzle (a total on the largest board is under 10,000).
_MAX_DIGITS = 9


class LinkError(VariantError):
    """A link that cannot be read: not a puzzle link, its data cut short or corrupt, or only on a server."""


# --- telling links ----------------------------------------------------------------------------------


def is_link(text: str) -> bool:
    """True when ``text`` is meant as a link: an http(s) URL, a known host, ``?load=`` data, or prefixed data.

    It looks at the form only (nothing is decoded): :func:`parse_link` then reads it or says why not.
    A text that is also a whole one-line puzzle (a square count of digits and letters) is no link.
    """
    if not isinstance(text, str):
        return False
    t = text.strip()
    if not t or any(ch.isspace() for ch in t):
        return False
    lowered = t.lower()
    if lowered.startswith(("http://", "https://")):
        return True
    m = _URL.match(t)
    if m and m[1].lower() in _FPUZZLES_HOSTS | _SUDOKUPAD_HOSTS:
        return True
    if lowered.startswith(("?load=", "load=")):
        return True
    for prefix, _ in _PREFIXES:
        if t.startswith(prefix):
            return _payload_like(t[len(prefix) :]) and not _puzzle_like(t)
    return t.startswith(_BARE) and _payload_like(t) and not _puzzle_like(t)


def _payload_like(data: str) -> bool:
    return len(data) >= 16 and _BASE64.fullmatch(data) is not None


def _puzzle_like(text: str) -> bool:
    """A square number of digits and letters: a one-line puzzle of a big board, not compressed data."""
    k = isqrt(len(text))
    return k * k == len(text) and text.isalnum()


# --- reading links ----------------------------------------------------------------------------------


def parse_link(text: str) -> Grid:
    """The puzzle of an f-puzzles or SudokuPad link, of its ``?load=`` part, or of its bare data.

    Raises :class:`LinkError` (an ``InvalidPuzzleError``) for a link that cannot be read, naming why, and
    ``VariantError`` naming the rule for a puzzle sudokit cannot take whole.
    """
    if not isinstance(text, str):
        raise TypeError(f"a link must be a str, not {type(text).__name__}")
    t = text.strip()
    if not t:
        raise LinkError("empty link")
    lowered = t.lower()
    m = _URL.match(t)
    if m and ("://" in t[:8] or m[1].lower() in _FPUZZLES_HOSTS | _SUDOKUPAD_HOSTS):
        return _parse_url(t if "://" in t[:8] else "https://" + t)
    if lowered.startswith(("http://", "https://")):
        raise LinkError(f"{_cut(t)} is not a link sudokit reads (f-puzzles.com/?load=... or sudokupad.app/...)")
    if lowered.startswith(("?load=", "load=")):
        return _fpuzzles_data(t.partition("=")[2], "f-puzzles")
    return _data(t, "puzzle data")


def _parse_url(url: str) -> Grid:
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if host in _FPUZZLES_HOSTS:
        load = _query(parts.query, "load")
        if load:
            return _fpuzzles_data(load, "f-puzzles")
        short = _query(parts.query, "id")
        if short:
            raise LinkError(
                f"f-puzzles: the link names its puzzle by the short id {_cut(unquote(short))!r}, which only f-puzzles' "
                "server can resolve, and sudokit does not use the network: copy the puzzle's long link (?load=...)"
            )
        raise LinkError("f-puzzles: the link holds no puzzle (no ?load=...)")
    if host in _SUDOKUPAD_HOSTS:
        ident = _query(parts.query, "puzzleid") or _query(parts.query, "load")
        if not ident:
            ident = parts.path.lstrip("/")
            for folder in ("sudoku/", "puzzle/"):
                if ident.startswith(folder):
                    ident = ident[len(folder) :]
        if not ident:
            raise LinkError("SudokuPad: the link holds no puzzle")
        return _data(ident, "SudokuPad", sudokupad=True)
    raise LinkError(
        f"a link to {_cut(host or url)!r} is not one sudokit reads (f-puzzles.com/?load=... or sudokupad.app/...)"
    )


def _query(query: str, name: str) -> str:
    """A query parameter as written (a ``+`` stays a ``+``, as in Base64 data); '' when absent."""
    for part in query.split("&"):
        key, _, value = part.partition("=")
        if key.lower() == name:
            return value
    return ""


def _data(ident: str, where: str, *, sudokupad: bool = False) -> Grid:
    """Puzzle data that may start with SudokuPad's prefix of its format (or is bare f-puzzles data)."""
    for prefix, kind in _PREFIXES:
        if ident.startswith(prefix):
            payload = ident[len(prefix) :]
            if kind == "scf":
                raise LinkError(f"{where}: SudokuPad's compact 'scf' format is not one sudokit reads")
            if sudokupad and not _payload_like(payload):
                break  # a short ID that happens to start like a prefix
            if kind == "fpuzzles":
                return _fpuzzles_data(payload, where)
            return parse_sudokupad(_scl_json(_decoded(payload, where), where))
    if sudokupad:  # SudokuPad fetches any other name from its server
        raise LinkError(
            f"SudokuPad: {_cut(unquote(ident))!r} is a puzzle ID that only SudokuPad's server can resolve, and "
            "sudokit does not use the network: share the puzzle as a long link (or as an f-puzzles link)"
        )
    if not _payload_like(ident):
        raise LinkError(f"{where}: {_cut(ident)!r} is not a puzzle link or puzzle data")
    text = _decoded(ident, where)
    data = _json(text, where) if text.lstrip().startswith('{"') else _scl_json(text, where)
    if isinstance(data, dict) and "grid" in data:
        return parse_fpuzzles(data)
    return parse_sudokupad(data)


def _fpuzzles_data(payload: str, where: str) -> Grid:
    data = _json(_decoded(payload, where), where)
    return parse_fpuzzles(data)


def _decoded(payload: str, where: str) -> str:
    """The text of lz-string Base64 data as found in a link (percent-escapes undone, a lost '/' restored)."""
    data = payload.strip()
    if "%" in data:
        data = unquote(data)
    data = data.replace(" ", "+")  # a '+' read as a space on its way
    if not data:
        raise LinkError(f"{where}: the link holds no puzzle data")
    if len(data) > MAX_LINK_DATA:
        raise LinkError(f"{where}: {len(data):,} characters of puzzle data (a link holds at most {MAX_LINK_DATA:,})")
    try:
        text = decompress_from_base64(data, max_length=MAX_EXPANSION)
        if _plausible(text):
            return text
        problem = "it does not decompress to a puzzle"
    except ExpansionError:
        raise LinkError(
            f"{where}: the puzzle data expands past {MAX_EXPANSION:,} characters: not a puzzle (given up there)"
        ) from None
    except LZStringError as err:
        problem = str(err)
    # A link pasted through a path may have lost one of a pair of slashes: try each single one doubled,
    # as many as _RETRY_WORK characters of reading allow (a long link gets fewer tries).
    tries = min(_SCAN_SLASHES, _RETRY_WORK // len(data))
    singles = [m.start() for m in re.finditer(r"(?<!/)/(?!/)", data)][:tries]
    expansion = min(MAX_EXPANSION, _RETRY_EXPANSION * len(data))
    for at in singles:
        try:
            text = decompress_from_base64(data[:at] + "/" + data[at:], max_length=expansion)
        except LZStringError:
            continue
        if _plausible(text):
            return text
    raise LinkError(f"{where}: the puzzle data cannot be read: {problem}")


def _plausible(text: str) -> bool:
    return text.startswith("{") and text.rstrip().endswith("}")


def _json(text: str, where: str) -> Any:
    try:
        return read_json(text, "the puzzle data")
    except VariantError as err:
        raise LinkError(f"{where}: {err.problem}") from None


def _number(value: object) -> int | None:
    """An int, or a text of ASCII digits, of at most ``_MAX_DIGITS`` digits, as an int; None for anything else.

    ``str.isdigit`` is true of "²" and of 5,000 digits, which ``int()`` refuses: neither gets that far.
    """
    if type(value) is int:
        return value if 0 <= value < 10**_MAX_DIGITS else None
    if isinstance(value, str):
        text = value.strip()
        if text.isascii() and text.isdigit() and len(text.lstrip("0")) <= _MAX_DIGITS:
            return int(text)
    return None


def _cut(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


# --- f-puzzles: reading -----------------------------------------------------------------------------

#: Keys that carry no rule: information, settings, the solution, and pictures.
_FPUZZLES_COSMETIC = frozenset(
    {
        "title",
        "author",
        "ruleset",
        "highlightConflicts",
        "solution",
        "successMessage",
        "disabledlogic",
        "truecandidatesoptions",
        "metadata",
        "text",
        "line",
        "circle",
        "rectangle",
    }
)
#: Drawings whose meaning is in the rules text (refused), and what each is called in the error.
_DRAWINGS = {
    "cage": "a cage that is not a killer cage",
    "line": "a line drawn",
    "circle": "a circle drawn",
    "rectangle": "a rectangle drawn",
    "text": "a text drawn",
}
#: Keys of a grid cell that carry no rule (colours, the solver's marks and digits, its candidates).
_CELL_COSMETIC = frozenset({"c", "cArray", "highlight", "cornerPencilMarks", "centerPencilMarks", "candidates"})
#: What f-puzzles' rules that sudokit does not model are, for the error.
_UNMODELLED = {
    "fogofwar": "fog of war",
}
#: The plugin's names of its rules, as its decoration lines name them (``fromConstraint``).
_PLUGIN_LINES = {"Renban": "renban", "German Whispers": "whispers", "Dutch Whispers": "whispers"}
_PLUGIN_LINES |= {"Whispers": "whispers", "Slow Thermometer": "slowthermometer"}


def fpuzzles_shape(n: int) -> Shape:
    """The box shape f-puzzles gives a board of side ``n``: rows as tall as divides ``n``, up to its root."""
    rows = isqrt(n)
    while n % rows:
        rows -= 1
    return Shape.of(rows, n // rows)


class _FPuzzlesReader:
    """Reads f-puzzles' JSON into a grid: one method per key, each error naming the key and entry."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.rules: list[Constraint] = []

    def fail(self, problem: str) -> VariantError:
        return VariantError(f"f-puzzles: {problem}")

    def read(self) -> Grid:
        data = self.data
        size = data.get("size")
        grid = data.get("grid")
        if type(size) is not int or not isinstance(grid, list):
            raise self.fail("not an f-puzzles puzzle: it needs 'size' and 'grid'")
        n = self.n = size
        if n not in FPUZZLES_SIDES:
            raise self.fail(f"a {n}x{n} board: sudokit's boards run from 4x4 (f-puzzles' to 16x16)")
        if len(grid) != n or not all(isinstance(row, list) and len(row) == n for row in grid):
            raise self.fail(f"'grid' must be {n} rows of {n} cells")
        try:
            shape = fpuzzles_shape(n)
        except SudokitError:  # a prime side above 8: rows as boxes would be wider than sudokit's widest
            raise self.fail(
                f"a {n}x{n} board has no box shape sudokit takes (boxes of at most {MAX_BOX} by {MAX_BOX})"
            ) from None
        cells, region_of = self.cells(grid, shape)
        unknown = [
            key
            for key, value in data.items()
            if key not in self.HANDLED
            and key not in _FPUZZLES_COSMETIC
            and key not in ("size", "grid")
            and value not in (None, False, [], {}, "")
        ]
        if unknown:
            key = unknown[0]
            what = _UNMODELLED.get(key, "a rule sudokit does not know")
            raise self.fail(f"{key!r:.40} ({what}) is not a rule sudokit models")
        self.cosmetic_cages()
        for key, method in self.HANDLED.items():
            value = data.get(key)
            if value not in (None, False, [], ""):
                method(self, value)
        rules = list(dict.fromkeys(self.rules))  # the same rule drawn twice is one rule
        shape, regions = _shape_and_regions(shape, region_of)
        try:
            return Grid(cells, shape, regions=regions, constraints=rules)
        except VariantError as err:
            raise self.fail(err.problem) from None

    # --- the grid

    def cells(self, grid: list[list[Any]], shape: Shape) -> tuple[list[int], list[int]]:
        n = self.n
        cells = [0] * (n * n)
        region_of = list(shape.box_of)
        old_extremes: dict[str, list[tuple[str, Cell]]] = {"minimum": [], "maximum": []}
        for r, row in enumerate(grid):
            for c, cell in enumerate(row):
                where = f"cell R{r + 1}C{c + 1}"
                if not isinstance(cell, dict):
                    raise self.fail(f"{where} is not an object")
                for key, value in cell.items():
                    if key in _CELL_COSMETIC or key in ("value", "given", "region"):
                        continue
                    if key == "givenPencilMarks":
                        if value:
                            self.pencil_marks(value, (r, c), where)
                    elif key == "parity":  # how old versions wrote odd and even cells
                        if value not in ("Odd", "Even"):
                            raise self.fail(f"{where}: parity {value!r:.20} is not Odd or Even")
                        self.rules.append(OddEven((r, c), value.lower()))
                    elif key == "extreme":  # how old versions wrote minimum and maximum cells
                        if value not in ("Minimum", "Maximum"):
                            raise self.fail(f"{where}: extreme {value!r:.20} is not Minimum or Maximum")
                        old_extremes[value.lower()].append((where, (r, c)))
                    elif value not in (None, False, [], ""):
                        raise self.fail(f"{where}: {key!r:.40} is not a cell property sudokit knows")
                if cell.get("given"):
                    cells[r * n + c] = self.digit(cell.get("value"), where)
                if "region" in cell:
                    region = cell["region"]
                    if type(region) is not int or not 0 <= region < n:
                        shown = "none" if region is None else repr(region)
                        raise self.fail(
                            f"{where}: region {shown} (every cell of a sudokit board is in one of {n} regions)"
                        )
                    region_of[r * n + c] = region
        for key, marked in old_extremes.items():
            self.extreme_cells(key, marked)
        return cells, region_of

    def pencil_marks(self, value: object, cell: Cell, where: str) -> None:
        """A cell's given pencil marks: the digits it is limited to."""
        if not isinstance(value, list):
            raise self.fail(f"{where}: given pencil marks {value!r:.20} are not a list of digits")
        digits = []
        for v in value:
            digit = _number(v) if type(v) is not bool else None
            if digit is None or not 1 <= digit <= self.n:
                raise self.fail(f"{where}: given pencil mark {v!r:.20} is not a digit 1..{self.n}")
            digits.append(digit)
        self.add(where, partial(PencilMarks, cell, tuple(digits)))

    def digit(self, value: object, where: str) -> int:
        digit = _number(value) if type(value) is not bool else None
        if digit is None or not 1 <= digit <= self.n:
            raise self.fail(f"{where}: given {value!r:.20} is not a digit 1..{self.n}")
        return digit

    def cosmetic_cages(self) -> None:
        """Drawings (cages that are not killer cages, lines, circles, rectangles, texts) have their meaning in the
        rules text: refused, but for SudokuPad's data and the plugin's drawings of rules it also wrote as rules."""
        ruled = {  # every line some rule of the puzzle draws: a drawing over one of them is that rule's picture
            tuple(line)
            for key, value in self.data.items()
            if key not in _DRAWINGS and isinstance(value, list)
            for entry in value
            if isinstance(entry, dict) and isinstance(entry.get("lines"), list)
            for line in entry["lines"]
            if isinstance(line, list) and all(isinstance(c, str) for c in line)
        }
        ends = _lockout_ends(self.data.get("lockout"))
        pictures = {"rectangle": self.entry_cells("even"), "circle": self.entry_cells("odd")}
        clones = {
            _names_set(entry.get(side))
            for entry in self.listed("clone")
            if isinstance(entry, dict)
            for side in ("cells", "cloneCells")
        }
        for key, what in _DRAWINGS.items():
            drawings = self.data.get(key) or []
            if not isinstance(drawings, list):
                raise self.fail(f"'{key}' must be a list")
            for k, drawing in enumerate(drawings, 1):
                if not isinstance(drawing, dict):
                    raise self.fail(f"{key} {k} is not an object")
                value = str(drawing.get("value") or "")
                lines = drawing.get("lines")
                if not isinstance(lines, list | None) or not all(isinstance(line, list) for line in lines or []):
                    raise self.fail(f"{key} {k}: 'lines' must be a list of lines")
                cells = drawing.get("cells") or [c for line in lines or [] for c in line]
                if not cells or (key == "cage" and re.match(r"[A-Za-z]+: ", value)):
                    continue  # SudokuPad's data (title:, rules:, solution:) or an empty drawing
                made_for = drawing.get("fromConstraint")
                if isinstance(made_for, str) and self.data.get(made_for.lower().replace(" ", "")):
                    continue  # the plugin's drawing of a rule it also wrote as a rule
                if drawing.get("isLLConstraint") is True and ends:
                    continue  # how the lockout plugin's first versions marked their drawings of its lines and diamonds
                if key == "rectangle" and drawing.get("angle") == 45 and _one_of(cells, ends):
                    continue  # a diamond (a square turned 45 degrees) drawn on an end of a lockout line
                if key == "line" and isinstance(lines, list) and lines and all(_drawn(ln, ruled) for ln in lines):
                    continue  # a line drawn over a rule's line (older plugins drew renban and whispers so)
                if key in pictures and _one_of(cells, pictures[key]):
                    continue  # an even cell's square, an odd cell's ring
                if key == "cage" and not value and _names_set(cells) in clones:
                    continue  # a cage drawn round one side of a clone (so setters show which cells are clones)
                raise self.fail(
                    f"{key} {k} ({_cells_text(cells)}): {what} has its meaning in the rules text, which sudokit does "
                    "not read"
                )

    def listed(self, key: str) -> list[Any]:
        """The data's list under ``key`` ([] for anything else: the rule reading ``key`` says what is wrong)."""
        value = self.data.get(key)
        return value if isinstance(value, list) else []

    def entry_cells(self, key: str) -> set[str]:
        """The cell names the entries of ``key`` give as ``cell`` (the well-formed ones: the rule reads them all)."""
        return {e["cell"] for e in self.listed(key) if isinstance(e, dict) and isinstance(e.get("cell"), str)}

    # --- entries

    def entries(self, key: str, value: object) -> Iterable[tuple[str, dict[str, Any]]]:
        if not isinstance(value, list):
            raise self.fail(f"'{key}' must be a list")
        for k, entry in enumerate(value, 1):
            if not isinstance(entry, dict):
                raise self.fail(f"{key} {k} is not an object")
            yield f"{key} {k}", entry

    def rc(self, text: object, where: str) -> tuple[int, int]:
        """A cell name ``R1C1`` as 1-based (row, column), unchecked against the board."""
        m = _CELL.fullmatch(text) if isinstance(text, str) else None
        if m is None:
            raise self.fail(f"{where}: {text!r:.20} is not a cell like R1C1")
        return int(m[1]), int(m[2])

    def cell(self, text: object, where: str) -> Cell:
        r, c = self.rc(text, where)
        if not (1 <= r <= self.n and 1 <= c <= self.n):
            raise self.fail(f"{where}: cell {text} is off the {self.n}x{self.n} board")
        return r - 1, c - 1

    def cell_list(self, values: object, where: str) -> list[Cell]:
        if not isinstance(values, list):
            raise self.fail(f"{where}: cells must be a list")
        return [self.cell(v, where) for v in values]

    def lines(self, entry: dict[str, Any], where: str) -> list[list[Cell]]:
        lines = entry.get("lines")
        if not isinstance(lines, list):
            raise self.fail(f"{where}: 'lines' must be a list of lines")
        return [self.cell_list(line, where) for line in lines]

    def number(self, value: object, where: str, what: str = "value") -> int | None:
        """An entry's number (f-puzzles writes them as text); None when it has none."""
        if value in (None, ""):
            return None
        number = _number(value) if type(value) is not bool else None
        if number is None:
            raise self.fail(f"{where}: {what} {value!r:.20} is not a whole number of at most {_MAX_DIGITS} digits")
        return number

    def add(self, where: str, make: Callable[[], Constraint]) -> None:
        try:
            self.rules.append(make())
        except VariantError as err:
            raise self.fail(f"{where}: {err.problem}") from None

    # --- the handlers, in f-puzzles' order (the order rules are read in)

    def flag(self, key: str, value: object) -> bool:
        if not isinstance(value, bool):
            raise self.fail(f"'{key}' must be true or false, not {value!r:.20}")
        return value

    def diagonal_plus(self, value: object) -> None:
        if self.flag("diagonal+", value):
            self.rules.append(Diagonal("anti"))

    def diagonal_minus(self, value: object) -> None:
        if self.flag("diagonal-", value):
            self.rules.append(Diagonal("main"))

    def antiknight(self, value: object) -> None:
        if self.flag("antiknight", value):
            self.rules.append(AntiKnight())

    def disjointgroups(self, value: object) -> None:
        if self.flag("disjointgroups", value):
            self.rules.append(DisjointGroups())

    def antiking(self, value: object) -> None:
        if self.flag("antiking", value):
            self.rules.append(AntiKing())

    def nonconsecutive(self, value: object) -> None:
        """f-puzzles' non-consecutive rule is the negative rule of the white dots; with black ones, kropki's."""
        if not self.flag("nonconsecutive", value):
            return
        if "ratio" in self.negatives():
            self.rules.append(KropkiNegative())
        elif self.data.get("difference") or self.data.get("ratio"):  # f-puzzles spares the pairs with a dot
            self.rules.append(KropkiNegative("white"))
        else:
            self.rules.append(NonConsecutive())

    def negatives(self) -> list[str]:
        negative = self.data.get("negative") or []
        if not isinstance(negative, list) or not all(isinstance(v, str) for v in negative):
            raise self.fail("'negative' must be a list of names")
        for name in negative:
            if name not in ("ratio", "xv"):
                raise self.fail(f"negative {name!r:.30}: only the negative rules of ratio dots and of XV are modelled")
        ratios = self.data.get("ratio") if "ratio" in negative else None
        other = [e.get("value") for e in ratios if isinstance(e, dict)] if isinstance(ratios, list) else []
        other = [v for v in other if v not in (None, "", "2", 2)]
        if other:  # f-puzzles' solvers read the negative rule for every ratio a dot shows
            raise self.fail(
                f"negative 'ratio' with a black dot of ratio {other[0]!r:.10}: f-puzzles' solvers read the negative "
                "rule for that ratio too, which sudokit does not model"
            )
        return negative

    def negative(self, value: object) -> None:
        negative = self.negatives()
        if "ratio" in negative and not self.data.get("nonconsecutive"):
            self.rules.append(KropkiNegative("black"))  # every black dot given, the white ones not
        if "xv" in negative:
            self.rules.append(XVNegative())

    def extraregion(self, value: object) -> None:
        for where, entry in self.entries("extraregion", value):
            cells = self.cell_list(entry.get("cells"), where)
            self.add(where, partial(ExtraRegion, tuple(cells)))

    def parity(self, key: str, value: object) -> None:
        for where, entry in self.entries(key, value):
            cell = self.cell(entry.get("cell"), where)
            self.add(where, partial(OddEven, cell, key))

    def odd(self, value: object) -> None:
        self.parity("odd", value)

    def extremes(self, key: str, value: object) -> None:
        self.extreme_cells(
            key, [(where, self.cell(entry.get("cell"), where)) for where, entry in self.entries(key, value)]
        )

    def extreme_cells(self, key: str, cells: list[tuple[str, Cell]]) -> None:
        """Minimum (maximum) cells (each compared only with the neighbours not of its kind: ``MinMax.compared``)."""
        for where, cell in cells:
            self.add(where, partial(MinMax, cell, key))

    def minimum(self, value: object) -> None:
        self.extremes("minimum", value)

    def maximum(self, value: object) -> None:
        self.extremes("maximum", value)

    def even(self, value: object) -> None:
        self.parity("even", value)

    def line_rules(
        self, key: str, value: object, make: Callable[[list[Cell], dict[str, Any]], Constraint], *, valued: bool = False
    ) -> None:
        """Line rules, each line of an entry one; an entry's ``value`` is read by ``make`` when ``valued``, else an
        error: f-puzzles writes none for such a line, and what one would mean is not known."""
        for where, entry in self.entries(key, value):
            if not valued and entry.get("value") not in (None, ""):
                raise self.fail(f"{where}: value {entry['value']!r:.20}: f-puzzles' {key} carries no value")
            for line in self.lines(entry, where):
                if len(line) >= 2:  # a bulb alone, a dot of a line: no rule
                    self.add(where, partial(make, line, entry))

    def thermometer(self, value: object) -> None:
        self.line_rules("thermometer", value, lambda line, _: Thermometer(tuple(line)))

    def palindrome(self, value: object) -> None:
        self.line_rules("palindrome", value, lambda line, _: Palindrome(tuple(line)))

    def betweenline(self, value: object) -> None:
        self.line_rules("betweenline", value, lambda line, _: BetweenLine(tuple(line)))

    def regionsumline(self, value: object) -> None:
        self.line_rules("regionsumline", value, lambda line, _: RegionSumLine(tuple(line)))

    def entropicline(self, value: object) -> None:
        self.line_rules("entropicline", value, lambda line, _: EntropicLine(tuple(line)))

    def modularline(self, value: object) -> None:
        self.line_rules("modularline", value, lambda line, _: ModularLine(tuple(line)))

    def zipperline(self, value: object) -> None:
        self.line_rules("zipperline", value, lambda line, _: ZipperLine(tuple(line)))

    def lockout(self, value: object) -> None:
        """Lockout lines: the ends differ by at least the entry's value, else n // 2 (4 on 9x9)."""
        for where, entry in self.entries("lockout", value):
            self.number(entry.get("value"), where, "difference")  # checked here, where its error names the entry

        def make(line: list[Cell], entry: dict[str, Any]) -> Constraint:
            difference = self.number(entry.get("value"), "lockout", "difference")
            return LockoutLine(tuple(line), difference=self.n // 2 if difference is None else difference)

        self.line_rules("lockout", value, make, valued=True)

    def nabner(self, value: object) -> None:
        self.line_rules("nabner", value, lambda line, _: NabnerLine(tuple(line)))

    def doublearrow(self, value: object) -> None:
        self.line_rules("doublearrow", value, lambda line, _: DoubleArrow(tuple(line)))

    def killercage(self, value: object) -> None:
        for where, entry in self.entries("killercage", value):
            cells = self.cell_list(entry.get("cells"), where)
            total = self.number(entry.get("value"), where, "total")
            if not cells:
                continue
            self.add(where, partial(Killer, tuple(cells), total=total))

    def littlekillersum(self, value: object) -> None:
        n = self.n
        for where, entry in self.entries("littlekillersum", value):
            total = self.number(entry.get("value"), where, "total")
            if total is None:
                continue  # an arrow without its number: no rule
            r, c = self.rc(entry.get("cell"), where)
            direction = entry.get("direction")
            step = _LITTLE_KILLER.get(direction) if isinstance(direction, str) else None
            if step is None:
                raise self.fail(f"{where}: direction {entry.get('direction')!r:.10} is not UL, UR, DL or DR")
            cells = []
            r, c = r + step[0], c + step[1]
            while 1 <= r <= n and 1 <= c <= n:
                cells.append((r - 1, c - 1))
                r, c = r + step[0], c + step[1]
            if not cells:
                raise self.fail(f"{where}: the clue at {entry.get('cell')} points at no cell of the board")
            self.add(where, partial(LittleKiller, tuple(cells), total))

    def sandwichsum(self, value: object) -> None:
        n = self.n
        for where, entry in self.entries("sandwichsum", value):
            total = self.number(entry.get("value"), where, "total")
            if total is None:
                continue
            r, c = self.rc(entry.get("cell"), where)
            if r in (0, n + 1) and 1 <= c <= n:
                axis, index = "column", c - 1
            elif c in (0, n + 1) and 1 <= r <= n:
                axis, index = "row", r - 1
            else:
                raise self.fail(f"{where}: cell {entry.get('cell')} is not beside a row or a column")
            self.add(where, partial(Sandwich, axis, index, total))

    def side(self, entry: dict[str, Any], where: str) -> tuple[str, int]:
        """The side and the row or column (0-based) of an outside clue, from its cell beside the board."""
        n = self.n
        r, c = self.rc(entry.get("cell"), where)
        if r == 0 and 1 <= c <= n:
            return "top", c - 1
        if r == n + 1 and 1 <= c <= n:
            return "bottom", c - 1
        if c == 0 and 1 <= r <= n:
            return "left", r - 1
        if c == n + 1 and 1 <= r <= n:
            return "right", r - 1
        raise self.fail(f"{where}: cell {entry.get('cell')} is not beside a row or a column")

    def xsum(self, value: object) -> None:
        for where, entry in self.entries("xsum", value):
            total = self.number(entry.get("value"), where, "total")
            if total is None:
                continue  # a clue cell without its number: no rule
            side, index = self.side(entry, where)
            self.add(where, partial(XSum, side, index, total))

    def skyscraper(self, value: object) -> None:
        for where, entry in self.entries("skyscraper", value):
            count = self.number(entry.get("value"), where, "count")
            if count is None:
                continue  # a clue cell without its number: no rule
            side, index = self.side(entry, where)
            self.add(where, partial(Skyscraper, side, index, count))

    def indexers(self, key: str, axis: str, value: object) -> None:
        """The indexer cells of an axis, one rule (f-puzzles writes an entry per cell)."""
        cells = [c for where, entry in self.entries(key, value) for c in self.cell_list(entry.get("cells"), where)]
        if cells:
            self.add(key, partial(Indexer, axis, tuple(dict.fromkeys(cells))))

    def rowindexer(self, value: object) -> None:
        self.indexers("rowindexer", "row", value)

    def columnindexer(self, value: object) -> None:
        self.indexers("columnindexer", "column", value)

    def boxindexer(self, value: object) -> None:
        self.indexers("boxindexer", "box", value)

    def dots(self, key: str, value: object, color: str, default: str) -> None:
        """Kropki dots; a ``value`` other than the standard one (1 white, 2 black) is the dot's difference or ratio."""
        for where, entry in self.entries(key, value):
            amount = self.number(entry.get("value"), where, "value")
            cells = self.cell_list(entry.get("cells"), where)
            self.add(where, partial(Kropki, color, tuple(cells), amount))

    def difference(self, value: object) -> None:
        self.dots("difference", value, "white", "1")

    def ratio(self, value: object) -> None:
        self.dots("ratio", value, "black", "2")

    def arrow(self, value: object) -> None:
        for where, entry in self.entries("arrow", value):
            circle = self.cell_list(entry.get("cells"), where)
            for line in self.lines(entry, where):
                shaft = line[1:]  # the line starts in the circle
                if shaft and not circle:
                    raise self.fail(f"{where}: an arrow without its circle")
                if shaft:
                    self.add(where, partial(Arrow, tuple(circle), tuple(shaft)))

    def clone(self, value: object) -> None:
        for where, entry in self.entries("clone", value):
            cells = self.cell_list(entry.get("cells"), where)
            copy = self.cell_list(entry.get("cloneCells"), f"{where}: cloneCells")
            if cells or copy:
                self.add(where, partial(Clone, tuple(cells), tuple(copy)))

    def quadruple(self, value: object) -> None:
        for where, entry in self.entries("quadruple", value):
            values = entry.get("values")
            if not isinstance(values, list):
                raise self.fail(f"{where}: 'values' must be a list of digits")
            digits = []
            for v in values:
                digit = self.number(v, where, "digit")
                if digit is None:
                    raise self.fail(f"{where}: a digit left empty")
                digits.append(digit)
            if not digits:
                continue  # a circle without digits: no rule
            cells = self.cell_list(entry.get("cells"), where)
            self.add(where, partial(Quadruple, tuple(cells), tuple(digits)))

    def xv(self, value: object) -> None:
        for where, entry in self.entries("xv", value):
            letter = str(entry.get("value") or "").upper()
            if not letter:
                continue  # an XV not yet given its letter: no rule (f-puzzles' solvers pass it over too)
            if letter not in ("X", "V"):
                raise self.fail(f"{where}: {entry.get('value')!r:.10} is not X or V")
            cells = self.cell_list(entry.get("cells"), where)
            self.add(where, partial(XV, letter, tuple(cells)))

    def sums(self, value: object) -> None:
        """Sum clues between two cells, of any total (an X or a V when it is 10 or 5)."""
        for where, entry in self.entries("sum", value):
            total = self.number(entry.get("value"), where, "sum")
            if total is None:
                continue  # a clue without its number: no rule
            cells = self.cell_list(entry.get("cells"), where)
            self.add(where, partial(XV, None, tuple(cells), total))

    def renban(self, value: object) -> None:
        self.line_rules("renban", value, lambda line, _: Renban(tuple(line)))

    def whispers(self, value: object) -> None:
        default = ceil(self.n / 2)  # the plugin's German whispers: 5 on 9x9
        for where, entry in self.entries("whispers", value):
            self.number(entry.get("value"), where, "difference")  # checked here, where its error names the entry

        def make(line: list[Cell], entry: dict[str, Any]) -> Constraint:
            difference = self.number(entry.get("value"), "whispers", "difference")
            return Whisper(tuple(line), difference=default if difference is None else difference)

        self.line_rules("whispers", value, make, valued=True)

    def slowthermometer(self, value: object) -> None:
        self.line_rules("slowthermometer", value, lambda line, _: SlowThermometer(tuple(line)))

    HANDLED: ClassVar[dict[str, Callable[[_FPuzzlesReader, object], None]]] = {
        "diagonal+": diagonal_plus,
        "diagonal-": diagonal_minus,
        "antiknight": antiknight,
        "antiking": antiking,
        "disjointgroups": disjointgroups,
        "nonconsecutive": nonconsecutive,
        "negative": negative,
        "extraregion": extraregion,
        "odd": odd,
        "even": even,
        "minimum": minimum,
        "maximum": maximum,
        "thermometer": thermometer,
        "palindrome": palindrome,
        "killercage": killercage,
        "littlekillersum": littlekillersum,
        "sandwichsum": sandwichsum,
        "xsum": xsum,
        "skyscraper": skyscraper,
        "rowindexer": rowindexer,
        "columnindexer": columnindexer,
        "boxindexer": boxindexer,
        "difference": difference,
        "ratio": ratio,
        "clone": clone,
        "arrow": arrow,
        "quadruple": quadruple,
        "xv": xv,
        "sum": sums,
        "renban": renban,
        "whispers": whispers,
        "slowthermometer": slowthermometer,
        "betweenline": betweenline,
        "regionsumline": regionsumline,
        "entropicline": entropicline,
        "modularline": modularline,
        "zipperline": zipperline,
        "lockout": lockout,
        "nabner": nabner,
        "doublearrow": doublearrow,
        "cage": lambda self, value: None,  # read by cosmetic_cages
    }


def _lockout_ends(lockout: object) -> set[str]:
    """The cells (names) at the ends of f-puzzles' lockout lines: their diamonds."""
    if not isinstance(lockout, list):
        return set()
    lines = [line for entry in lockout if isinstance(entry, dict) for line in entry.get("lines") or []]
    return {str(line[k]) for line in lines if isinstance(line, list) and line for k in (0, -1)}


def _one_of(cells: object, names: set[str]) -> bool:
    """Whether ``cells`` is a list of one cell name, one of ``names``."""
    return isinstance(cells, list) and len(cells) == 1 and isinstance(cells[0], str) and cells[0] in names


def _names_set(cells: object) -> frozenset[str]:
    """The cell names of a drawing or an entry, as a set (empty for anything else)."""
    return frozenset(c for c in cells if isinstance(c, str)) if isinstance(cells, list) else frozenset()


def _drawn(line: object, ruled: set[tuple[str, ...]]) -> bool:
    """Whether ``line`` (cell names) is one of the ``ruled`` lines, either way round."""
    if not isinstance(line, list):
        return False
    cells = tuple(str(c) for c in line)
    return cells in ruled or cells[::-1] in ruled


def _cells_text(cells: object) -> str:
    if not isinstance(cells, list) or not cells:
        return "no cells"
    first, last = _cut(str(cells[0]), 20), _cut(str(cells[-1]), 20)
    return f"{first}..{last}" if len(cells) > 1 else first


def _shape_and_regions(shape: Shape, region_of: Sequence[int]) -> tuple[Shape, list[list[int]] | None]:
    """The shape whose boxes the regions are (none: ``shape`` with them as a jigsaw's regions)."""
    n = shape.n
    if list(shape.box_of) == list(region_of):
        return shape, None
    groups: dict[int, list[int]] = {}
    for i, k in enumerate(region_of):
        groups.setdefault(k, []).append(i)
    parts = sorted(tuple(g) for g in groups.values())
    for rows in range(1, n + 1):
        if n % rows == 0:
            try:
                other = Shape.of(rows, n // rows)
            except SudokitError:
                continue
            if sorted(other.boxes) == parts:
                return other, None
    return shape, [list(g) for g in groups.values()]


def parse_fpuzzles(data: dict[str, Any]) -> Grid:
    """The puzzle of f-puzzles' JSON (as decompressed from a link); VariantError naming what is not read."""
    if not isinstance(data, dict):
        raise VariantError(f"f-puzzles: the puzzle data is a JSON object, not {type(data).__name__}")
    return _FPuzzlesReader(data).read()


# --- f-puzzles: writing -----------------------------------------------------------------------------

#: The decoration lines the solver plugin adds beside its rules, so that f-puzzles alone draws them.
_RENBAN_LINE = {"outlineC": "#F067F0", "width": 0.25, "fromConstraint": "Renban"}
_WHISPERS_LINE = {"outlineC": "#67F067", "width": 0.1875, "fromConstraint": "German Whispers"}
_DUTCH_LINE = {"outlineC": "#FF9A00", "width": 0.1875, "fromConstraint": "Dutch Whispers"}
_SLOW_LINE = {"outlineC": "#6495ED", "width": 0.3, "fromConstraint": "Slow Thermometer"}
_SLOW_BULB = {"baseC": "#6495ED", "outlineC": "#6495ED", "width": 0.8, "height": 0.8}
#: The plugins' names, colours and widths of their other lines (Fpuzzles-NewConstraints' ``newConstraintInfo``; the
#: lockout plugin's as its drawings in real puzzles are), and of the indexers' cages and outside clues' symbols.
_LINE_STYLES: dict[str, tuple[str, str, float]] = {
    "region-sum-line": ("Region Sum Line", "#2ECBFF", 0.15625),
    "entropic-line": ("Entropic Line", "#FFCCAA", 0.15625),
    "modular-line": ("Modular Line", "#33BBBB", 0.15625),
    "nabner-line": ("Nabner", "#C9C883", 0.25),
    "double-arrow": ("Double Arrow", "#C54B8B", 0.15),
    "zipper-line": ("Zipper Line", "#cdb1ec", 0.15625),
    "lockout-line": ("Lockout", "#AABEEF", 0.15),
}
_INDEXER_CAGES = {
    "row": ("Row Indexer", "#7CC77C"),
    "column": ("Column Indexer", "#C77C7C"),
    "box": ("Box Indexer", "#7C7CC7"),
}
_OUTSIDE_SYMBOLS = {"x-sum": ("X Sum", "\u25ef"), "skyscraper": ("Skyscraper", "\u25af")}
_DIAMOND = {"baseC": "#E7E6FF", "outlineC": "#0000FF", "fontC": "#000000", "width": 0.55, "height": 0.55, "angle": 45}


def _name(cell: Cell) -> str:
    return f"R{cell[0] + 1}C{cell[1] + 1}"


def _names(cells: Iterable[Cell]) -> list[str]:
    return [_name(c) for c in cells]


#: f-puzzles' line rules (a ``lines`` entry each) that sudokit models beyond the plugin's, in the order written.
_LINE_KEYS = (
    "betweenline",
    "regionsumline",
    "entropicline",
    "modularline",
    "zipperline",
    "lockout",
    "nabner",
    "doublearrow",
)


def to_fpuzzles(grid: Grid, solution: Grid | None = None) -> dict[str, Any]:
    """The puzzle as f-puzzles' JSON, keys and cells as its exporter writes them; ``solution`` in ``solution``.

    Raises VariantError for a puzzle f-puzzles cannot hold (a board above 16x16, a little killer
    that does not run from the edge, rules whose meaning f-puzzles reads otherwise).
    """
    if not isinstance(grid, Grid):
        raise TypeError(f"to_fpuzzles takes a Grid, not {type(grid).__name__}")
    n = grid.n
    if n not in FPUZZLES_SIDES:
        raise VariantError(f"f-puzzles: a {n}x{n} board does not fit f-puzzles' 4x4 to 16x16 (sudokit's part of it)")
    by_kind: dict[str, list[Constraint]] = {}
    for rule in grid.constraints:
        by_kind.setdefault(rule.kind, []).append(rule)
    data: dict[str, Any] = {"size": n, "grid": _fpuzzles_grid(grid)}
    diagonals = {rule.direction for rule in grid.constraints if isinstance(rule, Diagonal)}
    if "anti" in diagonals:
        data["diagonal+"] = True
    if "main" in diagonals:
        data["diagonal-"] = True
    if "anti-knight" in by_kind:
        data["antiknight"] = True
    if "anti-king" in by_kind:
        data["antiking"] = True
    if "disjoint-groups" in by_kind:
        data["disjointgroups"] = True
    dots = [rule for rule in grid.constraints if isinstance(rule, Kropki)]
    white = [d for d in dots if d.color == "white"]
    black = [d for d in dots if d.color == "black"]
    negative_colors = {rule.color for rule in grid.constraints if isinstance(rule, KropkiNegative)}
    both = None in negative_colors or {"white", "black"} <= negative_colors
    white_negative = both or "white" in negative_colors
    kropki_negative = both or "black" in negative_colors  # f-puzzles' negative 'ratio'
    other = [d.amount for d in black if d.amount != 2]
    if kropki_negative and other:
        raise VariantError(
            f"f-puzzles: the negative rule of the black dots with a black dot of ratio {other[0]}: f-puzzles' solvers "
            "read the negative rule for that ratio too, which sudokit's does not"
        )
    if "non-consecutive" in by_kind and dots:
        raise VariantError(
            "f-puzzles: non-consecutive with kropki dots: f-puzzles reads its non-consecutive rule as sparing the "
            "pairs with a dot, which sudokit's does not (sudokit's kropki-negative rule of the white dots does)"
        )
    if "non-consecutive" in by_kind or white_negative:
        data["nonconsecutive"] = True
    entries: dict[str, list[dict[str, Any]]] = {}

    def add(key: str, entry: dict[str, Any]) -> None:
        entries.setdefault(key, []).append(entry)

    arrows: dict[tuple[Cell, ...], list[list[str]]] = {}
    for rule in grid.constraints:  # each kind is one class (kinds are unique to their classes)
        if isinstance(rule, ExtraRegion):
            add("extraregion", {"cells": _names(rule.cells)})
        elif isinstance(rule, OddEven):
            add(rule.parity, {"cell": _name(rule.cell)})
        elif isinstance(rule, MinMax):
            add(rule.extreme, {"cell": _name(rule.cell)})
        elif isinstance(rule, Thermometer):
            add("thermometer", {"lines": [_names(rule.cells)]})
        elif isinstance(rule, Palindrome):
            add("palindrome", {"lines": [_names(rule.cells)]})
        elif isinstance(rule, Killer):
            entry: dict[str, Any] = {"cells": _names(rule.cells)}
            if rule.total is not None:
                entry["value"] = str(rule.total)
            add("killercage", entry)
        elif isinstance(rule, LittleKiller):
            add("littlekillersum", _little_killer(rule, n))
        elif isinstance(rule, Sandwich):
            index = rule.index + 1
            cell = f"R0C{index}" if rule.axis == "column" else f"R{index}C0"
            add("sandwichsum", {"cell": cell, "value": str(rule.total)})
        elif isinstance(rule, XSum):
            add("xsum", {"cell": _outside_name(rule.side, rule.index, n), "value": str(rule.total)})
        elif isinstance(rule, Skyscraper):
            add("skyscraper", {"cell": _outside_name(rule.side, rule.index, n), "value": str(rule.count)})
        elif isinstance(rule, Indexer):  # an entry per cell, as f-puzzles writes them
            for name in _names(rule.cells):
                add(f"{rule.axis}indexer", {"cells": [name]})
        elif isinstance(rule, Arrow):
            arrows.setdefault(rule.circle, []).append(_arrow_line(rule))
        elif isinstance(rule, XV) and rule.letter is None:
            add("sum", {"cells": _names(rule.cells), "value": str(rule.total)})
        elif isinstance(rule, XV):
            add("xv", {"cells": _names(rule.cells), "value": rule.letter})
        elif isinstance(rule, Clone):
            add("clone", {"cells": _names(rule.cells), "cloneCells": _names(rule.copy)})
        elif isinstance(rule, Quadruple):
            add("quadruple", {"cells": _names(sorted(rule.cells)), "values": list(rule.digits)})  # f-puzzles' order
        elif isinstance(rule, Renban):
            add("renban", {"lines": [_names(rule.cells)]})
        elif isinstance(rule, Whisper):
            add("whispers", {"lines": [_names(rule.cells)], "value": str(rule.difference)})
        elif isinstance(rule, SlowThermometer):
            add("slowthermometer", {"lines": [_names(rule.cells)]})
        elif isinstance(rule, BetweenLine):
            add("betweenline", {"lines": [_names(rule.cells)]})
        elif isinstance(rule, RegionSumLine):
            add("regionsumline", {"lines": [_names(rule.cells)]})
        elif isinstance(rule, EntropicLine):
            add("entropicline", {"lines": [_names(rule.cells)]})
        elif isinstance(rule, ModularLine):
            add("modularline", {"lines": [_names(rule.cells)]})
        elif isinstance(rule, ZipperLine):
            add("zipperline", {"lines": [_names(rule.cells)]})
        elif isinstance(rule, DoubleArrow):
            add("doublearrow", {"lines": [_names(rule.cells)]})
        elif isinstance(rule, NabnerLine):
            add("nabner", {"lines": [_names(rule.cells)]})
        elif isinstance(rule, LockoutLine):
            if rule.difference != n // 2:
                raise VariantError(
                    f"f-puzzles: the lockout line at {_name(rule.cells[0])}: its ends differ by {rule.difference} or "
                    f"more, but f-puzzles' lockout lines carry no difference (their ends differ by {n // 2} or more "
                    f"on {n}x{n}, half the side)"
                )
            add("lockout", {"lines": [_names(rule.cells)]})
    for key, color in (("difference", white), ("ratio", black)):
        for dot in color:
            add(key, {"cells": _names(dot.cells), **({"value": str(dot.value)} if dot.value else {})})
    for circle, lines in arrows.items():
        add("arrow", {"lines": lines, "cells": _names(circle)})
    negative = (["ratio"] if kropki_negative else []) + (["xv"] if "xv-negative" in by_kind else [])
    # f-puzzles' order of its rules; "negative" where it writes it, before the first rule it applies to.
    indexers = ("rowindexer", "columnindexer", "boxindexer")
    for key in (
        "extraregion",
        "odd",
        "even",
        "minimum",
        "maximum",
        "thermometer",
        "palindrome",
        "killercage",
        "littlekillersum",
        *indexers,
    ):
        if key in entries:
            data[key] = entries[key]
    outside = ("sandwichsum", "xsum", "skyscraper")
    for key in (
        *outside,
        "difference",
        "ratio",
        "clone",
        "arrow",
        "quadruple",
        "xv",
        "sum",
        "renban",
        "whispers",
        "slowthermometer",
    ):
        if key in ("ratio", "xv") and negative and "negative" not in data and key in negative:
            data["negative"] = negative
        if key in entries or (key in negative):
            data[key] = entries.get(key, [])
    for key in _LINE_KEYS:  # after the plugin's keys
        if key in entries:
            data[key] = entries[key]
    decorations = _plugin_decorations(grid)
    data.update(decorations)
    if solution is not None:
        data["solution"] = _solution(grid, solution)
    return data


def _outside_name(side: str, index: int, n: int) -> str:
    """f-puzzles' name of the cell beside the board where an outside clue of ``side`` and ``index`` stands."""
    k = index + 1
    return {"top": f"R0C{k}", "bottom": f"R{n + 1}C{k}", "left": f"R{k}C0", "right": f"R{k}C{n + 1}"}[side]


def _fpuzzles_grid(grid: Grid) -> list[list[dict[str, Any]]]:
    """f-puzzles' cells: ``region`` where it is not the default box, then ``value`` and ``given``."""
    n = grid.n
    default = fpuzzles_shape(n).box_of
    numbers = _region_numbers(grid, default) if grid.regions != fpuzzles_shape(n).boxes else None
    marks: dict[int, list[int]] = {}
    for rule in grid.constraints:
        if isinstance(rule, PencilMarks):
            (i,) = rule.indexes(n)
            if i in marks:
                raise VariantError(
                    f"f-puzzles: two sets of given pencil marks on {_name(rule.cell)} (f-puzzles holds one a cell)"
                )
            marks[i] = list(rule.digits)
    rows: list[list[dict[str, Any]]] = []
    for r in range(n):
        row: list[dict[str, Any]] = []
        for c in range(n):
            i = r * n + c
            cell: dict[str, Any] = {}
            if numbers is not None and numbers[i] != default[i]:
                cell["region"] = numbers[i]
            if grid.cells[i]:
                cell["value"] = grid.cells[i]
                cell["given"] = True
            if i in marks:
                cell["givenPencilMarks"] = marks[i]
            row.append(cell)
        rows.append(row)
    return rows


def _region_numbers(grid: Grid, default: Sequence[int]) -> list[int]:
    """Each cell's region number: each region takes the box number most of its cells have, where it is free."""
    n = grid.n
    taken: dict[int, int] = {}  # number -> region index
    regions = grid.regions
    for k, region in sorted(
        enumerate(regions), key=lambda kr: -Counter(default[i] for i in kr[1]).most_common(1)[0][1]
    ):
        for number, _ in Counter(default[i] for i in region).most_common():
            if number not in taken:
                taken[number] = k
                break
    free = iter(sorted(set(range(n)) - set(taken)))
    number_of = {k: number for number, k in taken.items()}
    for k in range(len(regions)):
        if k not in number_of:
            number_of[k] = next(free)
    out = [0] * (n * n)
    for k, region in enumerate(regions):
        for i in region:
            out[i] = number_of[k]
    return out


def _little_killer(rule: LittleKiller, n: int) -> dict[str, Any]:
    """The clue outside the board and its direction: the cells must run from it to the far edge."""
    for cells in (rule.cells, rule.cells[::-1]):
        for direction, (dr, dc) in _LITTLE_KILLER.items():
            r, c = cells[0][0] - dr, cells[0][1] - dc
            if 0 <= r < n and 0 <= c < n:
                continue  # the clue must be outside
            walk = []
            rr, cc = r + dr, c + dc
            while 0 <= rr < n and 0 <= cc < n:
                walk.append((rr, cc))
                rr, cc = rr + dr, cc + dc
            if tuple(walk) == tuple(cells):
                return {
                    "cell": f"R{r + 1}C{c + 1}",
                    "cells": _names(cells),
                    "direction": direction,
                    "value": str(rule.total),
                }
    raise VariantError(
        f"f-puzzles: {rule._where()}: an f-puzzles little killer sums a whole diagonal, from the edge of the board "
        "to the edge"
    )


def _arrow_line(rule: Arrow) -> list[str]:
    """The arrow's line: from the circle cell that touches its first cell (the first circle cell else)."""
    first = rule.cells[0]
    start = next(
        (c for c in rule.circle if max(abs(c[0] - first[0]), abs(c[1] - first[1])) == 1),
        rule.circle[0],
    )
    return _names((start, *rule.cells))


def _plugin_decorations(grid: Grid) -> dict[str, list[dict[str, Any]]]:
    """What the plugins draw beside their rules, marked ``fromConstraint``, so that f-puzzles without them (and
    SudokuPad) shows them: lines, bulbs and circles, lockout lines' diamonds, indexers' cages, outside clues."""
    half, n = ceil(grid.n / 2), grid.n
    out: dict[str, list[dict[str, Any]]] = {"circle": [], "line": [], "rectangle": [], "cage": [], "text": []}
    indexed: dict[str, list[Cell]] = {}
    for rule in grid.constraints:
        if isinstance(rule, Renban | Whisper | SlowThermometer):
            if isinstance(rule, Renban):
                style = _RENBAN_LINE
            elif isinstance(rule, Whisper):
                style = _DUTCH_LINE if rule.difference == half - 1 else _WHISPERS_LINE
            else:
                style = _SLOW_LINE
                out["circle"].append(
                    {"cells": [_name(rule.cells[0])], **_SLOW_BULB, "fromConstraint": "Slow Thermometer"}
                )
            out["line"].append({"lines": [_names(rule.cells)], **style})
        elif rule.kind in _LINE_STYLES:
            name, color, width = _LINE_STYLES[rule.kind]
            cells = _names(rule.cells)  # type: ignore[attr-defined]
            out["line"].append({"lines": [cells], "outlineC": color, "width": width, "fromConstraint": name})
            for end in (cells[0], cells[-1]):
                if rule.kind == "double-arrow":
                    bulb = {"baseC": color, "outlineC": color, "width": 0.85, "height": 0.85}
                    out["circle"].append({"cells": [end], **bulb, "fromConstraint": name})
                elif rule.kind == "lockout-line":
                    out["rectangle"].append({"cells": [end], **_DIAMOND, "fromConstraint": name})
        elif isinstance(rule, Indexer):
            indexed.setdefault(rule.axis, []).extend(rule.cells)
        elif isinstance(rule, XV) and rule.letter is None:  # a sum, written between its cells: nothing else draws it
            total = {"value": str(rule.total), "fontC": "#000000", "size": 0.5}
            out["text"].append({"cells": _names(rule.cells), **total, "fromConstraint": "Sum"})
        elif isinstance(rule, XSum | Skyscraper):
            name, symbol = _OUTSIDE_SYMBOLS[rule.kind]
            cell = _outside_name(rule.side, rule.index, n)
            number = str(rule.total if isinstance(rule, XSum) else rule.count)
            for value, size in ((symbol, 1.2), (number, 0.7)):
                out["text"].append(
                    {"cells": [cell], "value": value, "fontC": "#000000", "size": size, "fromConstraint": name}
                )
    for axis, marked in indexed.items():
        name, color = _INDEXER_CAGES[axis]
        out["cage"].append({"cells": _names(marked), "outlineC": color, "fontC": "#000000", "fromConstraint": name})
    return {key: drawings for key, drawings in out.items() if drawings}


def _solution(grid: Grid, solution: Grid) -> list[int]:
    if not isinstance(solution, Grid):
        raise TypeError(f"solution must be a Grid, not {type(solution).__name__}")
    if solution.shape.n != grid.n or not solution.is_complete():
        raise VariantError(f"f-puzzles: the solution must be a complete {grid.n}x{grid.n} grid")
    return list(solution.cells)


def fpuzzles_link(grid: Grid, solution: Grid | None = None) -> str:
    """The f-puzzles link of the puzzle (``https://www.f-puzzles.com/?load=...``), its solution in it if given."""
    text = json.dumps(to_fpuzzles(grid, solution), separators=(",", ":"), ensure_ascii=False)
    return FPUZZLES_URL + compress_to_base64(text)


# --- SudokuPad's own format -------------------------------------------------------------------------

#: SudokuPad's short keys (its puzzle zipper's table): short -> long.
_SCL_KEYS = {
    "c": "color",
    "ca": "cages",
    "ct": "center",
    "c1": "borderColor",
    "c2": "backgroundColor",
    "ce": "cells",
    "cs": "cellSize",
    "a": "arrows",
    "o": "overlays",
    "u": "underlays",
    "w": "width",
    "h": "height",
    "v": "value",
    "vd": "videos",
    "l": "lines",
    "r": "rounded",
    "re": "regions",
    "fs": "fontSize",
    "th": "thickness",
    "hl": "headLength",
    "wp": "wayPoints",
    "t": "title",
    "te": "text",
    "d": "duration",
    "d2": "d",
}
# A string (one left open runs to the end: each quote is looked at once, so a text of many is linear).
_SCL_STRING = re.compile(r'"(?:[^"\\]|\\.)*+"?')
_SCL_KEY = re.compile(r"([,{\[])([a-zA-Z0-9]+):")
_SCL_EMPTY = re.compile(r"([,{\[])(?=[,}\]])")
_SCL_TRUE_FALSE = re.compile(r":([tf])(?=[,}\]])")
_SCL_COLOR = re.compile(r":(#0|#F|[0-9a-fA-F]{6})(?=[,}\]])")
_QUOTE_MARK = "\ue000"  # a private-use character standing for an escaped quote while quotes are swapped


def unzip_scl(text: str) -> str:
    """SudokuPad's short JSON as JSON: its keys unquoted, ``'`` quotes, ``t``/``f``, empty objects left out."""
    if '"' not in text:  # its quotes are ' with \' for a quote inside: swap them back
        text = text.replace("\\'", _QUOTE_MARK).replace("'", '"').replace(_QUOTE_MARK, "'")
    strings: list[str] = []

    def keep(m: re.Match[str]) -> str:
        strings.append(m[0])
        return f'"\x00{len(strings) - 1}\x00"'

    body = _SCL_STRING.sub(keep, text)
    body = _SCL_KEY.sub(r'\1"\2":', body)
    body = _SCL_EMPTY.sub(r"\1{}", body)
    body = body.replace("{{}}", "{}")
    body = _SCL_TRUE_FALSE.sub(lambda m: ":true" if m[1] == "t" else ":false", body)
    colors = {"#0": "#000000", "#F": "#FFFFFF"}
    body = _SCL_COLOR.sub(lambda m: f':"{colors.get(m[1], "#" + m[1])}"', body)
    return re.sub(r'"\x00(\d+)\x00"', lambda m: strings[int(m[1])], body)


def _scl_json(text: str, where: str) -> Any:
    return _long_keys(_json(text if text.startswith('{"') else unzip_scl(text), where))


def _long_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {_SCL_KEYS.get(k, k): _long_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_long_keys(v) for v in value]
    return value


_SCL_COSMETIC = frozenset({"id", "cellSize", "metadata", "settings", "foglight", "foglink", "title", "videos"})
_SCL_DRAWINGS = ("lines", "arrows", "overlays", "underlays")
_SCL_GLOBAL = {"antiknight": AntiKnight, "antiking": AntiKing, "nonconsecutive": NonConsecutive}


def parse_sudokupad(data: dict[str, Any]) -> Grid:
    """The puzzle of SudokuPad's own JSON (long keys): givens, regions, killer cages, global rules."""
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise VariantError("SudokuPad: not a SudokuPad puzzle: it needs 'cells'")
    for key in (*_SCL_DRAWINGS, "regions", "cages", "global"):
        if not isinstance(data.get(key), list | None):
            raise VariantError(f"SudokuPad: {key!r} must be a list, not {data[key]!r:.20}")
    drawn = [f"{len(data[k])} {k}" for k in _SCL_DRAWINGS if data.get(k)]
    if drawn:
        raise VariantError(
            f"SudokuPad: the puzzle draws {', '.join(drawn)}: their rules are in its text, which sudokit does not "
            "read (it reads givens, regions and killer cages of SudokuPad's format; an f-puzzles link carries rules)"
        )
    read = _SCL_COSMETIC | {"cells", "regions", "cages", "global"}
    unknown = [k for k, v in data.items() if k not in read and v]
    if unknown:
        raise VariantError(f"SudokuPad: {unknown[0]!r:.40} is not something sudokit reads")
    rows = data["cells"]
    n = len(rows)
    if n not in range(4, MAX_BOX * MAX_BOX + 1) or not all(isinstance(row, list) and len(row) == n for row in rows):
        raise VariantError(f"SudokuPad: 'cells' must be n rows of n cells, n from 4 to {MAX_BOX * MAX_BOX}")
    cells = [0] * (n * n)
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            value = cell.get("value") if isinstance(cell, dict) else None
            if value in (None, ""):
                continue
            digit = _number(value) if type(value) is not bool else None
            if digit is None or not 1 <= digit <= n:
                raise VariantError(f"SudokuPad: cell r{r + 1}c{c + 1}: given {value!r:.10} is not a digit 1..{n}")
            cells[r * n + c] = digit
    regions = _scl_regions(data.get("regions"), n)
    rules: list[Constraint] = []
    for name in data.get("global") or []:
        if not isinstance(name, str) or name not in _SCL_GLOBAL:
            raise VariantError(f"SudokuPad: the global rule {name!r:.30} is not one sudokit models")
        rules.append(_SCL_GLOBAL[name]())
    for k, cage in enumerate(data.get("cages") or [], 1):
        rule = _scl_cage(cage, k, n)
        if rule is not None:
            rules.append(rule)
    try:
        shape = fpuzzles_shape(n)
    except SudokitError:
        raise VariantError(f"SudokuPad: a {n}x{n} board has no box shape sudokit takes") from None
    region_of = [0] * (n * n)
    for k, region in enumerate(regions):
        for i in region:
            region_of[i] = k
    shape, jigsaw = _shape_and_regions(shape, region_of)
    try:
        return Grid(cells, shape, regions=jigsaw, constraints=list(dict.fromkeys(rules)))
    except VariantError as err:
        raise VariantError(f"SudokuPad: {err.problem}") from None


def _scl_cell(value: object, n: int, where: str) -> int:
    if isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value):
        r, c = cast("list[int]", value)  # two ints, as just seen
        if 0 <= r < n and 0 <= c < n:
            return r * n + c
    raise VariantError(f"SudokuPad: {where}: {value!r:.20} is not a cell [row, column] of the {n}x{n} board")


def _scl_regions(regions: object, n: int) -> list[list[int]]:
    if not isinstance(regions, list) or not regions:
        raise VariantError("SudokuPad: the puzzle has no regions (boxes): sudokit's puzzles have n regions")
    for k, region in enumerate(regions, 1):
        if not isinstance(region, list):
            raise VariantError(f"SudokuPad: region {k} is not a list of cells")
    out = [[_scl_cell(cell, n, f"region {k}") for cell in region] for k, region in enumerate(regions, 1)]
    if len(out) != n or any(len(region) != n for region in out) or len({i for r in out for i in r}) != n * n:
        raise VariantError(f"SudokuPad: the regions are not {n} regions of {n} cells covering the board")
    return out


def _scl_cage(cage: object, k: int, n: int) -> Constraint | None:
    if not isinstance(cage, dict):
        raise VariantError(f"SudokuPad: cage {k} is not an object")
    cells = cage.get("cells") or []
    value = cage.get("value")
    if not cells:
        return None  # data of the puzzle: title:, author:, rules:, solution:
    if cage.get("hidden") and not cage.get("unique"):
        return None  # the frame SudokuPad draws around the board
    if not isinstance(cells, list):
        raise VariantError(f"SudokuPad: cage {k}: 'cells' must be a list of cells")
    indexes = [_scl_cell(cell, n, f"cage {k}") for cell in cells]
    where = f"cage {k} at r{indexes[0] // n + 1}c{indexes[0] % n + 1}"
    if cage.get("style") == "extraregion":
        return ExtraRegion(tuple(divmod(i, n) for i in indexes))
    if cage.get("unique") is not True:
        raise VariantError(
            f"SudokuPad: {where}: a cage that is not a killer cage (not marked 'unique') has its meaning in the "
            "rules text, which sudokit does not read"
        )
    total = cage.get("sum", value)
    number = None if total in (None, "") or type(total) is bool else _number(total)
    if number is None and total not in (None, ""):
        raise VariantError(
            f"SudokuPad: {where}: total {total!r:.20} is not a whole number of at most {_MAX_DIGITS} digits"
        )
    try:
        return Killer(tuple(divmod(i, n) for i in indexes), total=number)
    except VariantError as err:
        raise VariantError(f"SudokuPad: {where}: {err.problem}") from None
