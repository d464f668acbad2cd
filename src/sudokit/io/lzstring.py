"""lz-string's Base64 form, as f-puzzles and SudokuPad links carry their puzzles.

A port of ``compressToBase64`` and ``decompressFromBase64`` of lz-string, the JavaScript library by
pieroxy (https://github.com/pieroxy/lz-string, MIT licence; versions before 1.4 were WTFPL), written
from the algorithm as that library defines it: an LZW-style coder whose dictionary grows one entry
per token, over the string's UTF-16 code units, with token widths that grow with the dictionary,
packed 6 bits to a Base64 character, most significant bit first.

It works on UTF-16 code units as JavaScript strings do, so text with characters beyond U+FFFF (an
emoji in a puzzle's title) gives the same output as the JavaScript library, byte for byte, and
decodes back; the ports on PyPI count code points instead and differ there. The output's padding
repeats the JavaScript library's, which writes ``===`` after a length of 4k+1 characters.

    >>> compress_to_base64("ahoj")
    'IYCw9gVkA==='
    >>> decompress_from_base64("IYCw9gVkA===")
    'ahoj'
"""

from __future__ import annotations

__all__ = ["ExpansionError", "LZStringError", "compress_to_base64", "decompress_from_base64"]

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_VALUE = {ch: i for i, ch in enumerate(ALPHABET)}
#: The padding after a text of 4k, 4k+1, 4k+2 and 4k+3 characters, as the JavaScript library writes it.
_PADDING = ("", "===", "==", "=")
_BITS = 6  # a Base64 character carries 6 bits


class LZStringError(ValueError):
    """A text that is not lz-string Base64 data: a bad character, cut short, or corrupt."""


class ExpansionError(LZStringError):
    """Data that expands past the ``max_length`` asked for (a decompression bomb): given up on at that point."""


def _code_units(text: str) -> str:
    """``text`` as one character per UTF-16 code unit (an astral character becomes its surrogate pair)."""
    if text.isascii() or max(text) <= "\uffff":
        return text
    data = text.encode("utf-16-le", "surrogatepass")
    return "".join(chr(data[i] | data[i + 1] << 8) for i in range(0, len(data), 2))


def _from_code_units(units: str) -> str:
    """The text of UTF-16 code units: surrogate pairs joined into their characters (a lone one kept)."""
    if units.isascii() or not any("\ud800" <= u <= "\udfff" for u in units):
        return units
    return units.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


class _BitWriter:
    """Packs bits, most significant first, into Base64 characters."""

    __slots__ = ("chars", "position", "value")

    def __init__(self) -> None:
        self.chars: list[str] = []
        self.value = 0
        self.position = 0

    def write(self, value: int, width: int) -> None:
        """The ``width`` low bits of ``value``, least significant first (the library's order)."""
        for _ in range(width):
            self.value = self.value << 1 | (value & 1)
            value >>= 1
            if self.position == _BITS - 1:
                self.chars.append(ALPHABET[self.value])
                self.position = self.value = 0
            else:
                self.position += 1

    def flush(self) -> str:
        """Everything written, the last character filled with zero bits."""
        while True:
            self.value <<= 1
            if self.position == _BITS - 1:
                self.chars.append(ALPHABET[self.value])
                return "".join(self.chars)
            self.position += 1


def compress_to_base64(text: str) -> str:
    """``text`` compressed as lz-string's ``compressToBase64`` does, character for character."""
    if not isinstance(text, str):
        raise TypeError(f"compress_to_base64 takes a str, not {type(text).__name__}")
    units = _code_units(text)
    out = _BitWriter()
    dictionary: dict[str, int] = {}
    pending: set[str] = set()  # characters met but not yet written out as literals
    width, enlarge_in, size = 2, 2, 3
    w = ""

    def emit(word: str) -> None:
        nonlocal width, enlarge_in
        if word in pending:
            code = ord(word[0])
            if code < 256:
                out.write(0, width)
                out.write(code, 8)
            else:
                out.write(1, width)
                out.write(code, 16)
            pending.discard(word)
            enlarge_in -= 1
            if enlarge_in == 0:
                enlarge_in, width = 1 << width, width + 1
        else:
            out.write(dictionary[word], width)
        enlarge_in -= 1
        if enlarge_in == 0:
            enlarge_in, width = 1 << width, width + 1

    for c in units:
        if c not in dictionary:
            dictionary[c] = size
            size += 1
            pending.add(c)
        wc = w + c
        if wc in dictionary:
            w = wc
            continue
        emit(w)
        dictionary[wc] = size
        size += 1
        w = c
    if w:
        emit(w)
    out.write(2, width)  # the end of the stream
    data = out.flush()
    return data + _PADDING[len(data) % 4]


class _BitReader:
    """Reads the bits of Base64 characters, most significant first; past the end, zero bits."""

    __slots__ = ("index", "position", "value", "values")

    def __init__(self, values: list[int]) -> None:
        self.values = values
        self.value = values[0]
        self.position = 1 << (_BITS - 1)
        self.index = 1

    def read(self, width: int) -> int:
        """A number of ``width`` bits, least significant first."""
        bits = 0
        for k in range(width):
            if self.value & self.position:
                bits |= 1 << k
            self.position >>= 1
            if not self.position:
                self.position = 1 << (_BITS - 1)
                self.value = self.values[self.index] if self.index < len(self.values) else 0
                self.index += 1
        return bits


def _values(data: str) -> list[int]:
    body = data.rstrip("=")
    if len(data) - len(body) > 3:
        raise LZStringError("more '=' at the end than Base64 padding")
    try:
        return [_VALUE[ch] for ch in body]
    except KeyError as err:
        ch = err.args[0]
        raise LZStringError(f"character {body.index(ch) + 1}: {ch!r} is not a Base64 character") from None


def decompress_from_base64(data: str, *, max_length: int | None = None) -> str:
    """The text that lz-string's ``compressToBase64`` made ``data`` of; LZStringError if it is not such data.

    LZW output can grow with the square of its input (each code may stand for one character more
    than the one before: 60 KB of data can stand for a gigabyte), so with ``max_length`` it raises
    :class:`ExpansionError` as soon as the text would pass ``max_length`` code units: work and
    memory then grow with the data's length and ``max_length``, not with the square of either.
    """
    if not isinstance(data, str):
        raise TypeError(f"decompress_from_base64 takes a str, not {type(data).__name__}")
    values = _values(data)
    if not values:
        raise LZStringError("no data")
    reader = _BitReader(values)
    # The first token is always a literal, read with 2 bits; then the dictionary holds 4 entries.
    marker = reader.read(2)
    if marker == 2:
        return ""
    if marker not in (0, 1):
        raise LZStringError("corrupt data: it does not start with a character")
    first = chr(reader.read(8 if marker == 0 else 16))
    entries: list[str] = ["", "", "", first]  # codes 0, 1 and 2 are the markers
    result = [first]
    w = first
    width, enlarge_in = 3, 4
    length = len(values)
    room = None if max_length is None else max_length - 1  # code units the text may still take
    if room is not None and room < 0:
        raise ExpansionError(f"the data expands past {max_length:,} characters")
    while True:
        if reader.index > length:
            raise LZStringError("the data ends before its end mark: the link was cut short")
        code = reader.read(width)
        if code == 2:
            return _from_code_units("".join(result))
        if code in (0, 1):
            entries.append(chr(reader.read(8 if code == 0 else 16)))
            code = len(entries) - 1
            enlarge_in -= 1
            if enlarge_in == 0:
                enlarge_in, width = 1 << width, width + 1
        if code < len(entries) and code >= 3:
            entry = entries[code]
        elif code == len(entries):
            entry = w + w[0]
        else:
            raise LZStringError(f"corrupt data: code {code} is not in the dictionary of {len(entries)} entries")
        if room is not None:
            room -= len(entry)
            if room < 0:
                raise ExpansionError(f"the data expands past {max_length:,} characters")
        result.append(entry)
        entries.append(w + entry[0])
        w = entry
        enlarge_in -= 1
        if enlarge_in == 0:
            enlarge_in, width = 1 << width, width + 1
