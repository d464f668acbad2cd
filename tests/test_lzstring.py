"""sudokit.io.lzstring against the JavaScript lz-string's own output, character for character.

The expected strings were made by lz-string 1.5.0 from npm (``LZString.compressToBase64`` under
node); the emoji cases are where the PyPI ports (lzstring 1.0.4, py-lzstring 0.1.1) differ from it,
since they count code points where JavaScript counts UTF-16 code units.
"""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sudokit.io.lzstring import ExpansionError, LZStringError, compress_to_base64, decompress_from_base64

#: (text, compressToBase64(text)) as lz-string 1.5.0 under node wrote them.
JAVASCRIPT = [
    ("", "Q==="),
    ("ahoj", "IYCw9gVkA==="),
    ("abcdef", "IYIwxgJgpgZkA==="),
    ("ABC", "IIIQwkA="),
    ("a\u00e4\u00b4", "IYE4LUA="),  # a, a umlaut, an acute accent
    ("Title: 😀 Émoji ✓", "CoSwLgNgpgXABIXg3AAe3AkwWwPYCsR0MjkQA==="),
    ('{"size":9,"title":"🐟 fish"}', "N4IgzglgXgpiBcBOANCALhNAbO8SF4NwfB2ACAMwjAAsQBfIA==="),
    ("x" * 1000, "B418ZXTt/DFOS1b0c17Pd/wYUcSaWeRZVdTbXTEA"),
    ("ab" * 300 + "€", "IYI17SOrZ+6IcpqXrZj2u5/vQg4o0k8syi6q2m+uxhhwGoIg"),
]


@pytest.mark.parametrize(("text", "data"), JAVASCRIPT)
def test_compress_writes_what_javascript_writes(text: str, data: str) -> None:
    assert compress_to_base64(text) == data


@pytest.mark.parametrize(("text", "data"), JAVASCRIPT)
def test_decompress_reads_what_javascript_writes(text: str, data: str) -> None:
    assert decompress_from_base64(data) == text


def test_a_real_f_puzzles_link_decodes_to_its_json() -> None:
    """A 9x9 grid with a 1 in r1c1: the f-puzzles example of lisudoku/sudoku_formats' README.md."""
    data = "N4IgzglgXgpiBcBOANCA5gJwgEwQbT1ADcBDAGwFc54BGVNCImAOwQBcMqBfZYHv3vyGCRfALrJCwgTOlyJU0XKVKFsles1c1yrRu2S9R"
    data += "+Yd1nVp/Vdk7r58WK5A"
    puzzle = json.loads(decompress_from_base64(data))
    assert puzzle["size"] == 9
    assert puzzle["grid"][0][0] == {"value": 1, "given": True}
    assert sum(len(cell) for row in puzzle["grid"] for cell in row) == 2


@given(st.text())
def test_round_trip(text: str) -> None:
    assert decompress_from_base64(compress_to_base64(text)) == text


@given(st.text(alphabet=st.sampled_from('{}[]":,RC0123456789 value given'), max_size=400))
def test_round_trip_of_json_like_text(text: str) -> None:
    data = compress_to_base64(text)
    assert len(data) % 4 != 1 or data.endswith("===")  # JavaScript's padding, kept
    assert decompress_from_base64(data) == text


def test_lone_surrogates_survive() -> None:
    text = "a\ud800b\udfffc"
    assert decompress_from_base64(compress_to_base64(text)) == text


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ("", "no data"),
        ("IYCw9g!kA===", "character 7: '!' is not a Base64 character"),
        ("IYCw9gVk====", "more '=' at the end"),
        ("N4IgzglgXgpiBcBOANCA5gJwgEwQbT1ADcBDAGwFc54BGVNCImAOwQBcMqBfZY", "cut short"),
    ],
)
def test_bad_data_is_an_error_not_garbage(data: str, problem: str) -> None:
    with pytest.raises(LZStringError, match=problem.replace("(", r"\(")):
        decompress_from_base64(data)


def test_corrupt_data_is_an_error() -> None:
    """A code beyond the dictionary (the JavaScript library returns null) is said, not decoded into nonsense."""
    with pytest.raises(LZStringError, match="corrupt data"):
        decompress_from_base64("I/////////")


def test_types_are_checked() -> None:
    with pytest.raises(TypeError):
        compress_to_base64(b"bytes")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        decompress_from_base64(None)  # type: ignore[arg-type]


# --- decompression bombs ---------------------------------------------------------------------------------


def lz_bomb(tokens: int, first: str = "{") -> str:
    """lz-string data of ``tokens`` codes, each naming the entry not yet made (``w + w[0]``): the text grows
    by one character a code, so it holds ``tokens**2 / 2`` characters in some ``2 * tokens`` of data.

    Written from the format, bit by bit (least significant bit of a code first, six bits a character,
    most significant first), not with the module's own writer.
    """
    bits: list[int] = []

    def put(value: int, width: int) -> None:
        bits.extend((value >> k) & 1 for k in range(width))

    put(0, 2)  # an 8-bit literal
    put(ord(first), 8)
    width, enlarge_in, code = 3, 4, 4  # the dictionary holds codes 0..3 after the first literal
    for _ in range(tokens):
        put(code, width)
        code += 1
        enlarge_in -= 1
        if enlarge_in == 0:
            enlarge_in, width = 1 << width, width + 1
    put(2, width)  # the end mark
    bits.extend([0] * (-len(bits) % 6))
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    chars = [alphabet[int("".join(map(str, bits[k : k + 6])), 2)] for k in range(0, len(bits), 6)]
    return "".join(chars) + "=" * (-len(chars) % 4)


def test_a_bomb_decodes_to_its_square_without_a_limit() -> None:
    """The helper is a real bomb: 2,000 codes in under 5,000 characters stand for 2 million."""
    data = lz_bomb(2_000)
    text = decompress_from_base64(data)
    assert len(data) < 5_000 and len(text) == 2_001 * 2_002 // 2 and set(text) == {"{"}


def test_max_length_gives_up_on_a_bomb_early() -> None:
    """A 60 KB bomb stands for 400 million characters (a gigabyte and 20-40 s): refused after 4 million."""
    data = lz_bomb(28_000)
    assert len(data) < 70_000
    start = time.process_time()
    with pytest.raises(ExpansionError, match="expands past 4,000,000 characters"):
        decompress_from_base64(data, max_length=4_000_000)
    assert time.process_time() - start < 2  # some 0.02 s of CPU: it stops where the limit is passed


@given(st.text(max_size=300))
def test_max_length_is_the_text_length_exactly(text: str) -> None:
    data = compress_to_base64(text)
    length = len(text.encode("utf-16-le")) // 2  # JavaScript's length: UTF-16 code units
    assert decompress_from_base64(data, max_length=length) == text
    if length:
        with pytest.raises(ExpansionError):
            decompress_from_base64(data, max_length=length - 1)
