"""f-puzzles and SudokuPad links: real links decoded, every kind there and back, refusals, the reader's part."""

from __future__ import annotations

import io
import json
import random
import re
import string
import time
from pathlib import Path
from urllib.parse import quote

import pytest

from sudokit import Grid, Status, parse_puzzle, solve
from sudokit.engines.verify import solution_problem
from sudokit.errors import InvalidPuzzleError
from sudokit.io.links import (
    FPUZZLES_URL,
    MAX_EXPANSION,
    MAX_LINK_DATA,
    LinkError,
    fpuzzles_link,
    is_link,
    parse_fpuzzles,
    parse_link,
    to_fpuzzles,
    unzip_scl,
)
from sudokit.io.lzstring import compress_to_base64, decompress_from_base64
from sudokit.io.reader import check_arguments, iter_records, read_arguments
from sudokit.model.formats import format_pretty
from sudokit.model.shape import Shape
from sudokit.model.variants import (
    XV,
    AntiKing,
    AntiKnight,
    Arrow,
    BetweenLine,
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
    orthogonal_pairs,
    undotted_pairs,
)

from .conftest import PUZZLES

LINKS = PUZZLES / "variants" / "links.txt"
REFUSED = PUZZLES / "variants" / "links-refused.txt"
#: Every file of real links sudokit accepts: links.txt and those of other sources (each under its own licence).
ACCEPTED = [
    LINKS,
    *(PUZZLES / "variants" / f"links-{name}.txt" for name in ("sudokusolver", "variantsolverjs", "kaji")),
]


def linked(path: Path) -> list[tuple[str, dict[str, str], str]]:
    """(title, {comment key: value}, link) for each link of a links file: the comments above it describe it."""
    out, comments = [], []
    for raw in path.read_text(encoding="utf-8").splitlines():
        if raw.startswith("# "):
            comments.append(raw[2:])
        elif raw.strip():
            fields = {}
            for comment in comments[1:]:
                key, _, value = comment.partition(": ")
                if key == "kinds":
                    value, _, fields["solution"] = value.partition("; solution: ")
                fields[key] = value
            out.append((comments[0], fields, raw.strip()))
            comments = []
        else:
            comments = [] if not out or comments else comments
    return out


def decoded(link: str) -> dict[str, object]:
    return json.loads(decompress_from_base64(link.removeprefix(FPUZZLES_URL)))


# --- real links -------------------------------------------------------------------------------------


REAL = [item for path in ACCEPTED for item in linked(path)]


@pytest.mark.parametrize(("title", "fields", "link"), REAL, ids=[t[:30] for t, _, _ in REAL])
def test_real_links_decode_to_puzzles_their_solutions_solve(title: str, fields: dict[str, str], link: str) -> None:
    assert is_link(link)
    puzzle = parse_link(link)
    assert sorted(puzzle.kinds) == fields["kinds"].split(", ")
    solution = fields["solution"]
    if len(solution) == puzzle.n * puzzle.n:  # the 16x16 board's solution is written without separators
        assert solution_problem(puzzle, Grid([int(d) for d in solution], puzzle.shape, validate=False)) is None
    assert parse_puzzle(link) == puzzle  # what sudokit.parse_puzzle and the reader read links with
    assert "source" in fields


def test_the_links_file_holds_puzzles_of_many_kinds() -> None:
    kinds = set()
    for _, fields, _ in linked(LINKS):
        kinds |= set(fields["kinds"].split(", "))
    assert len(linked(LINKS)) >= 10
    assert {"jigsaw", "killer", "little-killer", "arrow", "kropki", "kropki-negative", "xv-negative"} <= kinds
    assert {"renban", "sandwich", "palindrome", "thermometer", "odd-even", "anti-king"} <= kinds


@pytest.mark.parametrize(("title", "fields", "link"), REAL, ids=[t[:30] for t, _, _ in REAL])
def test_real_puzzles_are_proved_unique_by_sat_with_their_published_solution(
    title: str, fields: dict[str, str], link: str
) -> None:
    puzzle = parse_link(link)
    result = solve(puzzle, "sat", limit=2, time_limit=60)
    assert (result.status, result.count, result.exact) == (Status.SOLVED, 1, True), result.error
    assert result.solution is not None and "".join(map(str, result.solution.cells)) == fields["solution"]


def test_the_real_puzzles_use_every_kind_issue_24_added() -> None:
    added = {"quadruple", "pencil-marks", "min-max", "disjoint-groups", "clone", "between-line", "region-sum-line"}
    added |= {"entropic-line", "modular-line", "zipper-line", "lockout-line", "nabner-line", "double-arrow", "x-sum"}
    added |= {"skyscraper", "indexer"}
    kinds = [set(fields["kinds"].split(", ")) for _, fields, _ in REAL]
    assert {kind: sum(kind in k for k in kinds) for kind in added if not any(kind in k for k in kinds)} == {}
    assert sum(bool(k & added) for k in kinds) >= 60  # puzzles using one of them (more use dots of other values)
    assert len(REAL) >= 150 and len({link for _, _, link in REAL}) == len(REAL)


def test_real_sudokupad_links_are_read_like_f_puzzles_ones() -> None:
    forms = {re.match(r"https://[^/]+/(?:sudoku/)?([a-z]*)", link)[1] for _, _, link in linked(LINKS)}  # type: ignore[index]
    assert {"", "fpuzzles", "fpuz"} <= forms  # ?load=, sudokupad.app/fpuzzles..., .../sudoku/fpuz...


#: Real f-puzzles data (CC BY 4.0; from the benchmark puzzles of dclamage/SudokuVariantSolverJS, puzzles.json):
#: title, setter, the link's data, the published solution.
REAL_FPUZZLES = [
    (
        "Fortress Sudoku",
        "Sam Cappleman-Lynes",
        (
            "N4IgzglgXgpiBcBOANCALhNAbO8QDEB7AJzWJjDAAIBlAVwBNCBrOkVAQzrQAsSEQNDgFsqAYQ4AHSTmEcAdgFoAMgE95FdiGJ0c"
            "YGGgEA5EnKy1GLOlR16qUmaoB0VAOo8Y5AG6f7VMDwcDDAMVADGMFjmCqEKVHTyAUEh4ZHR5PYMAFYcEfJoyFS8MFTydMIARr4Q8"
            "kUe/oHBoRFRVMJ0YGhUVVQ8EADmHsROWv3EEAwIANpTwAC+yPOLC6BeHFh0uAAcqP0QPvIIZJsrIGsbuADMu/swh/DHMKfnmwgAT"
            "DcHRzpPy3/zAF1kLMVqD/mClpC5kCQYszutXvAAGyfO7fE7gzGQ+EXBAoEB7L4PH6gmHYl64ACsqPujwh9P+OMROwJt1pJOWZOeC"
            "NwAHYaejfuSeQhrqyiXS4RSECjxWjiRjViKkAKFULubj4AAWVWSwHA4WasWE+V6hlQqXK2Um9mK6EGjXM3Uci2ux18512rlY8307"
            "2upkeuW2oWBhAsm2C90IanBqM+gFAkByAAeEHawmmoBaWAEACU3mJeSBTjn84WkSW4WW8AWxJSq9m0uWxFrGyAayA65d25285cxD"
            "3S83a1rB72R13KePh1F89O27Pc7Xpw2l/OxJX1yuixO57WkTPq5O87yj03912tjOAXMgA==="
        ),
        "491832756523976814867514293256147389178369542934258167389621475715493628642785931",
    ),
    (
        "Fortress Coverage",
        "Rangsk",
        (
            "N4IgzglgXgpiBcBOANCALhNAbO8QDEB7AJzWJjDAAIBhQgNxmIEMBzOVZgVzQAsSEIAErMAdqzABrEKlbEIAEwQBtZcAC+yDVs3a"
            "9ugzoC6yNYf07LFjSbNXzD+7euOXx0288Pnr3SHrMWFy4ACyyEIyiCGTBvu52XvZa/oHBCADM4ZHRxLHxiQXqPkmFxiYgALYQohA"
            "VXBUqoADGMFhYgkIATDQAHCB+LW0d3QDs/cmD7XhdNABs482tU8LdAKwLIJPDNCEbW9Pd6XtL253HQ9PpNGcDJ5c0R7cXwle7T8t"
            "CV+vvHVfzP/cxgCXr1zh8QqDgUIIUCJndhBD/nDntCaN9keCdmCOhDHhicddsdNZlioSNSfjpuT0YsUSSaZt4UJyQBGInCHqEqGI"
            "B79coVZgAD1q9UajLpc3ZzMlZJosNpHxJ8vFmMQUquaqh3U1lOELJoOoVHXJfShnNNuqEnOV+w5MstnIZtqtpPKYEIQQwhCi8GUL"
            "OQq2QKFmyE6yDCmRGyB60fDyCjgf9mTDIZQyeQqfjsbC/sDaeQ/rDMcDIbCUbDUYjQYzscTNeLBbjUZQYcyYRDMYT1aToYDjcyMZ"
            "DFerZerYarudjsyM6iAA"
        ),
        "159624378847513269326978415931285647274396851685147923468759132513862794792431586",
    ),
    (
        "Aug 12, 2022: Lockout Lines",
        "Sam Cappleman-Lynes",
        (
            "N4IgzglgXgpiBcBOANCALhNAbO8QEEBXAcwAIBGAJmVMoAZLL5SAZAewGMBrNwtViADsYYEKgCGfABZsATghABlcQFtSAYXEAHLT"
            "hXjBAWhYBPYaNSzCOMDDQKAcnP1ZSiwgBM2XQqSs3SbV0TADpSAEkAM1I0AHc2Ug8IVTZBDzBA2RhEiCyObBNSDlThfJgPUgAjQv"
            "FSLCEYGjQpGEEYltJBQhVKmFkMoXbspJS0jJVCMH4kyMi+qpr+HHEp0gAWGgMK5uyunr6M1KG6htIJ1YcAeQAVKuzeuJhW473e/t"
            "JBnZzR9JCxEGIsggHgQAG1QaAAG7iLCEXDkVDECCQ1oINBWGAAX2QwGxUJhcIQADZEcjUfB0XC8SBobDcCgAWTBGiMXi2TiaQTcA"
            "B2Uko5kU1k4tkAXWQEM5dIQAGY+eTKY1GfyAAqtDgQLAAWXEsi4ongoIR0pF7PxUqQcoFCtNNo5tMJ8GoSvlQtxYohtrNDoAHJaW"
            "VThYHcUHMe7g+HPZGw5KHSTnVbXZ6Y7gAKx+wUBiNB5MIX3x/1YsORkMlt3irMV6n2+np62l0PlqtchAbfMZrH17PVhBOpH8guW1"
            "WCdVanV6sHUNYmrvN+CytvWosz828hcYwdqjXa3X60Ek7nTis5+BxvsuzPH1tnhNwjfDrdj3eTw9N80M68F0NikBYTg8PhgqA9Tm"
            "GCoIgAAStK6hrP84FrNBsEpghqDgUSyEQdyCEioeP4NLuYHgZhMEoZhKawZhRIgNh1LASIoEQeQ6jcrBlBMbBUHMSh8GcRBSHMdR"
            "HK0fhvFsShSHeoh6iIFROFCfR4GIOo5Cwd6SnkWpKFocpYlqQJQF4fJinaRBimULBinSjJDa4cIgE2XRBoEVBxEQfBLngUh7loe5"
            "REyagvDYA06gKAAxPg+AAEIAKJRQAYv8sTAs0CB0CEToQGALAsOoqRTLI4hCPY7Y0QZjkYehhHqGRJHqJR2H+XwtHBXgYWRTF8Wo"
            "IlHjJfAqXpZl2W5eiBWCEVdb6SBZXgYxPHgaxs0cbB3GSfx34BU1oXhdFcUJUlUgpWlqAZVlOWCHlI1ja69nCR5okiRJOnSfVIDr"
            "UFm1tTtnV7Qd/UnUN+WFZ+gmleCJkaRBqnGZVUNaZJynPa9wjNSArXbR1IBdT1fVHQNp3nYDxXA5NoMKeDpNmShFl+S9jVvS1W3t"
            "bt3X7b1h0gMdg1ncNBOLpYMD5AYxA4HZHAwFgWC7hBzlUaglQrDAyMhVF3JRUSsXo4jCuhXQOt0Or/yRKkaCK7rutM1jIQpmmIAt"
            "BAxBSEVqVWxIghC7gazWxzePc6NQOgKL4uS5VMHfnLtiK8rqv6w1gVI9ruvRyAhujSbpt0ObLNO9btv247lvW4LwvwB7ON/VzAO+"
            "4T/tixLYLlSHsvyxHKtqxrtNxy1puJ8nxvx6bGcHc7NswHbDuDwXrtFyX7O4/9F1+yAAe1wa5V1Y34ehZHrf/Jrqc693Rt72bX3M"
            "+PqA52PrND4X7ue7P5fz1Xi810HM0yyAYday1W+J7vfd6+jHuR8dYDyvtnEeucz4gBvi2O+Zd8aV3Gs/QOddbr8XXl/FGP826x0w"
            "SFLugDD7/xASfC2Q8L552vpPW+pdOYIMuheJeQc+Lv0/s3KOOCNqdwToQlOxD06kMzvnc+EDL5Zxdm7WBtDvYVwYR2auKCV63Seh"
            "g9h28Y5cJRgQg2RDuH90EVAihUCYHFzgXQn2cjqRMNQUZVhTdN4t1/u3PB2jUBAP4aA8Rw9R6UInpI0x0i548yutYpRSF4aqIcRw"
            "nezij4Hz4Xo4+GNvpgJET44x1CpEz3gRYheoSCK2NDvY7+jjOF0y0TwnRCSKn6OSafVJ3jIENJMdPL2QTEEhJfjY9QlkikbxKdEj"
            "R5T8GVLcbompSTMZCPIaI3xEip5mJkY/Xm4A2CwgwKkMECJfQkhQBsagvJZRpllLyFAJIERpl9JOZAGw0zUF9Ic5ACIznIDuU85A"
            "soSS+j2cgXkuybnIGoGmR52zfkfOQL6Z5AKSRvJ2eC/ZyAUDAveT85FkLAXIBJLKagCJeTHMxQC75JogA==="
        ),
        "186942735379615824452873196521368947694257318738194652863429571945781263217536489",
    ),
    (
        "Third-Degree Murder",
        "jeremydover & Raumplaner",
        (
            "N4IgzglgXgpiBcBOANCALhNAbO8QBUALCAJwBMBaAERgHMSYYACAWQFdyYSRUBDNtIQD23PACsuMALYBPMkIBuXJgDImAJX5SADl"
            "l4A7LjxAk2OMDDQIQAORFTeWJgGU28gNZsmp8017bdGQA6AB19MIBRfTQSIW0IAGMmLAhDMHgmAEF9GSYLNCYhADMmQQZmCwBHNh"
            "hoiEcmBJgsLDA/LCF9Wj99JlqYuMTk1OYpNjAChM60XlS/ZKEAdyYACgBGZAAmZABmAEpkJikIMjIcVYAWZABWZAA2A56yJmJaQl"
            "WAdmQADmREPaYZAgtEwQSyvX6sXiSRShkKJRwXUETE2R14uX0Qkm01mvTQiyEgOBmDaRViUlKhAqvCkzA6i0Ox1O5xEL2B7xIBnc"
            "YKoxLQbQcuQY2hgvAKnXmsOYEBKjnpMGeACNcliqSRvGYYGBQuF9ABpCAtZQJXi0LUZXkg/lMOYms1tE36TEFYWigoGZ5jCZ5NgU"
            "tCEwTMfS+xXKMDCRa9OaBphsALKHBFbEkQzq4qU5h2mBBYz0E4IADaBeAAF9kKXy2WK9Wq7XKwBdZDFus1ytt1ulxvN9st3s9rsd"
            "vuDhtN4dj3sDodT/uj6fjkfd+fjyc91fLxsgSGDBJSwugKVgQsFkDqC4AYU2xlPZ7WIHr9arIAPR5P1zPFyv54/qGv1zvD/LJ8Rk"
            "PeAi1fM87ivO4IKgs8/3vR9n1A491B2M8divNDvxPTZ33/RDgJfdQ1hvK9cNvH9cMvH8SIwmiL3wwCkLA4i8Pov9KLgxj90I5CTx"
            "Ij4yLPQSEKY3iWJI74rxIxAhNk0SeLSIi0Mgn80MEn9zxEgDFK1Ii3ykn831kzSz3knSgKUvj1GgwyT2g8yCKsliPjPOz1G+Nyr0"
            "8kyT0QLyf38jST087SnL06zXOC9RXNUkKYIUyyIpYzy6L89DuKSkCXLYk9XLSmyMsS5iUOg6jwPK9Q3wo+zSIQjd3ENHASCzPcQC"
            "aFpspw3LUIytS8I3BRHBqaw1ikx8OtaQsTxUzDhM/ebBuG3AQDWS8JuaKbQJPL8Fo48CPyWrARrwNaQA2zrpqqmCf2g/bCsgo6Tt"
            "W8bAMmrqYpuvL5p/TzHtQIbjpWs6Lq20q+u+grXMOgHltG17QHeq7UqvfyMKe4Hb1Bj6yqvVzLwx0aAAZzrezaPvPGrrwJ2GgesW"
            "TsauyTpLMuS71p561gwxntsK9yHPZkBAc5rGycu3mSKp8ihJpoW4dOj8eZQgShJEjmVvGjdd1A3TspQ89Ksp/9UCEAQpTPawAGIA"
            "DFrbPM9MkyYxFhOQQECJoI1muO5NluEAySEKQz06CZOVSKw8CiAZoSYAAZEZSd1/Set20z4I3U3sBGC28Btu2Had1AXbIN34A9r2"
            "fb9gOg5DmJcQjkAo6hIZ48MROsuTuKHtg9OTbN7Ordt+3Hed13CHdz3vd91Bq+D/RQ/r6wm+3OOE/CvWZoh3rsPUXDDoz/vDBzkA"
            "8+HwuQGL0vy6nqvyTnhfw6X6Jm6SVu4HXojJaEqWGPogqSIJgfLOR9B75xHkXMeE8K7T39nfWuYdohP2ji3NeYlnLKx6iRe6uFe4"
            "gEzubUBZ9R4l3HmXSelcZ5wPnnXR+kdn4rzfu3Eq/EfrdW0n3YBMBj6nwLsQq+5CYGz3gYvOhyDX6oKTtZZm9FfK71ZveDhBDc5D"
            "14RAkhUCb6UMDvfGhiDREv1Xm3D+1lZr9WilpY2eDD5cMIaoi+kCyHQNvto4RtDG70Jjow4xLEDJXmMgtcyiiB7KLAefS+pDr4UN"
            "gS46hCCG7L08RIju1lbKwUCVYzh3CVHgPseoxxmjok11iSI9xYjDHvzQclFCrl3KeVqazQKAV0rRVCpY/BwST7ZLCQ4yJgiqEPz0"
            "aUgxXjKkb0+tFWK3kEpAKUZ00JfCIkCOcUUgZ8SPEoKMaMoiKNGnoxmR0nhOTwkaKiUI4pbiEkbIqZInKO98qwT2UEkBISiFqP4U"
            "4rRKzdFrLKSMm54NKpvkBaRW6dV9nPLma83J7yClnNWUg4Za8NxgCEMdDAnRCw7D+MgDYXxth3BuMgK4vwvhXG2CgW4vwsUEo2L8"
            "W4BKsUbCuF8FA+Ldg/CJcgPFOLCUoGZYS2l2LtjUp5eSwlDKOWksJVS+42KmVbC5XKzlwrFUErpQqglXxfhXFuCgDYOwHxAA"
        ),
        "391726548742958361856314792638472159475189236129563874583691427914237685267845913",
    ),
]


@pytest.mark.parametrize(("title", "setter", "data", "answer"), REAL_FPUZZLES, ids=[r[0] for r in REAL_FPUZZLES])
def test_real_puzzles_sudokit_refused_or_misread_solve_to_their_answer(
    title: str, setter: str, data: str, answer: str
) -> None:
    # Fortress Sudoku and Coverage: adjacent maximum (minimum) cells are not compared, as f-puzzles reads them (they
    # had no solution before); the lockout plugin's first drawings (isLLConstraint) and entropic lines of two cells
    # were refused.
    result = solve(parse_link(FPUZZLES_URL + data), "sat", limit=2, time_limit=120)
    assert (result.status, result.count) == (Status.SOLVED, 1), (title, setter)
    assert result.solutions[0].to_line() == answer


@pytest.mark.parametrize(("title", "fields", "link"), linked(REFUSED), ids=[t[:30] for t, _, _ in linked(REFUSED)])
def test_real_links_with_rules_sudokit_lacks_are_refused_naming_them(
    title: str, fields: dict[str, str], link: str
) -> None:
    with pytest.raises(InvalidPuzzleError) as caught:
        parse_link(link)
    assert str(caught.value) == fields["error"]
    assert "\n" not in str(caught.value)


# --- every kind there and back ----------------------------------------------------------------------

EVERY_KIND = [
    ExtraRegion([(0, 0), (0, 1), (1, 0), (1, 1)]),
    Diagonal("main"),
    Diagonal("anti"),
    AntiKnight(),
    AntiKing(),
    Killer([(4, 0), (4, 1), (5, 0)], total=12),
    Killer([(8, 4), (8, 5)]),
    LittleKiller([(0, 4), (1, 3), (2, 2), (3, 1), (4, 0)], total=20),
    LittleKiller([(8, 8)], total=7),
    Sandwich("row", 2, 15),
    Sandwich("column", 7, 0),
    Thermometer([(5, 5), (5, 6), (6, 6)]),
    SlowThermometer([(7, 0), (7, 1), (8, 1)]),
    Arrow([(3, 3)], [(3, 4), (3, 5)]),
    Arrow([(8, 7), (8, 6)], [(7, 7), (6, 7), (6, 6)]),
    Kropki("white", [(2, 4), (2, 5)]),
    Kropki("black", [(4, 4), (5, 4)]),
    KropkiNegative(),
    XV("X", [(6, 0), (6, 1)]),
    XV("V", [(0, 7), (0, 8)]),
    XV(None, [(5, 0), (5, 1)], 13),
    XVNegative(),
    OddEven((4, 6), "odd"),
    OddEven((4, 7), "even"),
    Renban([(1, 5), (1, 6), (1, 7)]),
    Whisper([(2, 7), (3, 7), (3, 8)]),
    Whisper([(7, 3), (7, 4)], difference=4),
    Palindrome([(6, 3), (7, 2), (8, 3)]),
    Quadruple([(0, 2), (0, 3), (1, 2), (1, 3)], [1, 1, 9]),
    Quadruple([(7, 7), (7, 8), (8, 7), (8, 8)], [4]),
    PencilMarks((0, 8), [2, 6, 7]),
    PencilMarks((8, 0), [1]),
    MinMax((4, 4), "maximum"),
    MinMax((8, 8), "minimum"),
    MinMax((0, 0), "minimum"),
    DisjointGroups(),
    Clone([(2, 6), (2, 7), (3, 7)], [(6, 0), (6, 1), (7, 1)]),
    BetweenLine([(1, 0), (2, 1), (3, 0), (3, 1)]),
    RegionSumLine([(2, 2), (3, 3), (3, 4)]),
    EntropicLine([(5, 2), (5, 3), (6, 4)]),
    ModularLine([(8, 6), (7, 7), (8, 8)]),
    ModularLine([(0, 0), (1, 1)]),
    ZipperLine([(4, 8), (5, 8), (6, 8), (7, 8)]),
    LockoutLine([(8, 0), (8, 1), (8, 2)]),
    LockoutLine([(0, 5), (1, 6)]),
    NabnerLine([(8, 3), (7, 4), (8, 5)]),
    DoubleArrow([(6, 5), (5, 6), (4, 6), (3, 6)]),
    XSum("top", 2, 10),
    XSum("right", 4, 21),
    Skyscraper("bottom", 6, 3),
    Skyscraper("left", 8, 1),
    Indexer("column", [(0, 0), (1, 0)]),
    Indexer("row", [(4, 8)]),
    Indexer("box", [(8, 8), (0, 4)]),
]


def same_puzzle(a: Grid, b: Grid) -> bool:
    """The same puzzle: givens, shape, regions and rules (f-puzzles groups the rules by kind: order aside)."""
    return (a.shape, a.cells, a.regions, set(a.constraints)) == (b.shape, b.cells, b.regions, set(b.constraints)) and (
        len(a.constraints) == len(b.constraints)
    )


def test_a_puzzle_of_every_kind_goes_to_a_link_and_back() -> None:
    givens = Grid.parse("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
    puzzle = givens.with_rules(constraints=EVERY_KIND)
    back = parse_link(fpuzzles_link(puzzle))
    assert same_puzzle(back, puzzle)
    assert {rule.kind for rule in EVERY_KIND} | {"non-consecutive", "jigsaw"} >= puzzle.kinds
    assert parse_link(fpuzzles_link(back)) == back  # and once in f-puzzles' order, it stays


#: The fields of each rule's entries as f-puzzles and its plugins write them (yusitnikov/fpuzzles-data's types, whose
#: importer refuses any other; "sum" as dclamage/SudokuVariantSolverJS reads it).
F_PUZZLES_FIELDS = {
    **dict.fromkeys(("odd", "even", "minimum", "maximum"), frozenset({"cell"})),
    **dict.fromkeys(("sandwichsum", "xsum", "skyscraper"), frozenset({"cell", "value"})),
    **dict.fromkeys(("extraregion", "rowindexer", "columnindexer", "boxindexer"), frozenset({"cells"})),
    **dict.fromkeys(("killercage", "difference", "ratio", "xv", "sum"), frozenset({"cells", "value"})),
    **dict.fromkeys(("thermometer", "palindrome", "renban", "slowthermometer", "betweenline"), frozenset({"lines"})),
    **dict.fromkeys(("regionsumline", "entropicline", "modularline", "zipperline"), frozenset({"lines"})),
    **dict.fromkeys(("lockout", "nabner", "doublearrow"), frozenset({"lines"})),
    "littlekillersum": frozenset({"cell", "cells", "direction", "value"}),
    "whispers": frozenset({"lines", "value"}),
    "arrow": frozenset({"cells", "lines"}),
    "clone": frozenset({"cells", "cloneCells"}),
    "quadruple": frozenset({"cells", "values"}),
}


#: The drawings to_fpuzzles adds for the plugins' rules.
DRAWN = ("line", "circle", "rectangle", "cage", "text")
#: Issue 24's kinds (kropki dots and XV clues of other values among them), each alone.
NEW_KINDS = {"quadruple", "pencil-marks", "min-max", "disjoint-groups", "clone", "between-line", "region-sum-line"}
NEW_KINDS |= {"entropic-line", "modular-line", "zipper-line", "lockout-line", "nabner-line", "double-arrow"}
NEW_KINDS |= {"x-sum", "skyscraper", "indexer"}
ALONE = [r for r in EVERY_KIND if r.kind in NEW_KINDS or (isinstance(r, XV) and r.value)]
ALONE += [Kropki("white", [(0, 0), (0, 1)], 3), Kropki("black", [(0, 0), (1, 0)], 4)]


@pytest.mark.parametrize("rule", ALONE, ids=[f"{r.kind}-{k}" for k, r in enumerate(ALONE)])
def test_each_of_issue_24_s_kinds_alone_goes_to_a_link_and_back(rule: Constraint) -> None:
    puzzle = Grid.empty().with_rules(constraints=[rule])
    data = to_fpuzzles(puzzle)
    assert set(data) - {"size", "grid", "disjointgroups", *DRAWN} <= set(F_PUZZLES_FIELDS)  # keys f-puzzles has
    assert parse_link(fpuzzles_link(puzzle)) == puzzle


def test_every_entry_is_written_with_the_fields_f_puzzles_writes_for_its_key() -> None:
    data = to_fpuzzles(Grid.empty().with_rules(constraints=EVERY_KIND))
    rules = {k for k, v in data.items() if isinstance(v, list) and k not in ("grid", "negative", *DRAWN)}
    assert rules == set(F_PUZZLES_FIELDS)  # every rule key written is one f-puzzles has; every one is written
    for key in rules:
        for entry in data[key]:
            assert set(entry) <= F_PUZZLES_FIELDS[key] and ({"cell", "cells", "lines"} & set(entry)), (key, entry)
            assert all(isinstance(v, str) for k, v in entry.items() if k == "value"), (key, entry)  # text, as f-puzzles
            if key.endswith("indexer"):
                assert len(entry["cells"]) == 1  # one cell an entry: SudokuPad's importer reads only the first
    assert all(isinstance(d, int) for entry in data["quadruple"] for d in entry["values"])
    # a quadruple's cells in reading order, as f-puzzles writes them (SudokuPad's importer puts the circle at the
    # corner of the last): all 45 in dclamage/SudokuVariantSolverJS's real puzzles are
    square = to_fpuzzles(Grid.empty().with_rules(constraints=[Quadruple(["r2c4", "r1c3", "r2c3", "r1c4"], [1])]))
    assert square["quadruple"] == [{"cells": ["R1C3", "R1C4", "R2C3", "R2C4"], "values": [1]}]
    lockouts = [r.cells for r in EVERY_KIND if isinstance(r, LockoutLine)]
    assert data["lockout"] == [{"lines": [[f"R{r + 1}C{c + 1}" for r, c in cells]]} for cells in lockouts]
    assert data["negative"] == ["ratio", "xv"] and data["nonconsecutive"] is True and data["disjointgroups"] is True
    assert data["grid"][0][8] == {"givenPencilMarks": [2, 6, 7]}
    # the drawings are the plugins' pictures of rules written beside them, as they draw them (fromConstraint)
    pictured = {d["fromConstraint"] for key in DRAWN for d in data[key]}
    assert {re.sub("(german|dutch)whispers", "whispers", n.lower().replace(" ", "")) for n in pictured} == {
        "renban", "whispers", "slowthermometer", "regionsumline", "entropicline", "modularline", "zipperline",
        "lockout", "nabner", "doublearrow", "rowindexer", "columnindexer", "boxindexer", "xsum", "skyscraper", "sum",
    }  # fmt: skip
    assert len(data["rectangle"]) == 2 * len(lockouts) and all(r["angle"] == 45 for r in data["rectangle"])


def test_x_sums_are_read_from_the_cell_beside_the_board_on_each_side() -> None:
    clues = [{"cell": cell, "value": value} for cell, value in (("R0C2", "6"), ("R10C3", "15"), ("R4C0", "9"))]
    clues += [{"cell": "R7C10", "value": "20"}, {"cell": "R2C0"}]  # a clue cell without its number: no rule
    grid = parse_fpuzzles(fpuzzles(xsum=clues))
    assert set(grid.constraints) == {XSum("top", 1, 6), XSum("bottom", 2, 15), XSum("left", 3, 9), XSum("right", 6, 20)}
    assert XSum("bottom", 2, 15).line_cells(9)[:2] == ((8, 2), (7, 2))  # read from the clue inwards
    assert to_fpuzzles(grid)["xsum"] == clues[:4]


def test_skyscrapers_are_read_from_the_cell_beside_the_board_on_each_side() -> None:
    clues = [{"cell": cell, "value": value} for cell, value in (("R0C9", "1"), ("R10C1", "4"), ("R2C0", "3"))]
    clues += [{"cell": "R9C10", "value": "2"}, {"cell": "R5C10", "value": ""}]  # no number: no rule
    grid = parse_fpuzzles(fpuzzles(skyscraper=clues))
    want = {Skyscraper("top", 8, 1), Skyscraper("bottom", 0, 4), Skyscraper("left", 1, 3), Skyscraper("right", 8, 2)}
    assert set(grid.constraints) == want
    assert to_fpuzzles(grid)["skyscraper"] == clues[:4]


def test_indexers_are_read_an_axis_one_rule_and_written_an_entry_per_cell_as_f_puzzles_does() -> None:
    # f-puzzles' plugin writes one entry per indexer cell (SudokuPad's importer reads only an entry's first cell)
    rows = [{"cells": ["R1C1"]}, {"cells": ["R9C1"]}, {"cells": []}]  # an entry without cells: no rule
    boxes = [{"cells": ["R5C5", "R4C4"]}, {"cells": ["R5C5"]}]  # several cells in one entry, one cell twice: read
    grid = parse_fpuzzles(fpuzzles(rowindexer=rows, columnindexer=[{"cells": ["R2C5"]}], boxindexer=boxes))
    want = {Indexer("row", [(0, 0), (8, 0)]), Indexer("column", [(1, 4)]), Indexer("box", [(4, 4), (3, 3)])}
    assert set(grid.constraints) == want
    data = to_fpuzzles(grid)
    assert (data["rowindexer"], data["boxindexer"]) == (rows[:2], [{"cells": ["R5C5"]}, {"cells": ["R4C4"]}])
    assert parse_fpuzzles(data) == grid


def test_dots_of_other_values_are_read_and_written_with_their_value() -> None:
    white = [{"cells": ["R1C1", "R1C2"], "value": "3"}, {"cells": ["R2C1", "R2C2"], "value": "1"}]
    black = [{"cells": ["R3C1", "R3C2"], "value": "4"}, {"cells": ["R4C1", "R4C2"]}]
    grid = parse_fpuzzles(fpuzzles(difference=white, ratio=black))
    assert set(grid.constraints) == {
        Kropki("white", [(0, 0), (0, 1)], 3),
        Kropki("white", [(1, 0), (1, 1)]),
        Kropki("black", [(2, 0), (2, 1)], 4),
        Kropki("black", [(3, 0), (3, 1)]),
    }
    data = to_fpuzzles(grid)
    assert data["difference"] == [white[0], {"cells": ["R2C1", "R2C2"]}] and data["ratio"] == black


def test_the_negative_rule_of_one_colour_alone_is_read_and_written() -> None:
    white = [{"cells": ["R1C1", "R1C2"]}]
    whites = parse_fpuzzles(fpuzzles(nonconsecutive=True, difference=white))  # f-puzzles spares white-dotted pairs
    assert set(whites.constraints) == {Kropki("white", [(0, 0), (0, 1)]), KropkiNegative("white")}
    blacks = parse_fpuzzles(fpuzzles(negative=["ratio"], ratio=white))
    assert set(blacks.constraints) == {Kropki("black", [(0, 0), (0, 1)]), KropkiNegative("black")}
    for grid in (whites, blacks):
        assert parse_fpuzzles(to_fpuzzles(grid)) == grid
    assert "negative" not in to_fpuzzles(whites) and "nonconsecutive" not in to_fpuzzles(blacks)


def test_non_consecutive_goes_to_a_link_and_back() -> None:
    puzzle = Grid.empty().with_rules(constraints=[NonConsecutive()])
    assert same_puzzle(parse_link(fpuzzles_link(puzzle)), puzzle)
    assert to_fpuzzles(puzzle)["nonconsecutive"] is True and "negative" not in to_fpuzzles(puzzle)


def test_f_puzzles_non_consecutive_rule_spares_the_pairs_with_a_black_dot_too() -> None:
    # f-puzzles' solvers spare a pair with a dot of either colour from the negative rule of the other (Rangsk's
    # SudokuSolver: RatioConstraint and DifferenceConstraint are each other's GetRelatedConstraints)
    black = [{"cells": ["R1C1", "R1C2"]}]
    grid = parse_fpuzzles(fpuzzles(nonconsecutive=True, ratio=black))
    assert set(grid.constraints) == {Kropki("black", [(0, 0), (0, 1)]), KropkiNegative("white")}
    assert parse_fpuzzles(to_fpuzzles(grid)) == grid and "negative" not in to_fpuzzles(grid)
    assert (0, 1) not in KropkiNegative("white").pairs(grid)  # 1 and 2 may stand at the black dot


def swapped_boxes(*pairs: tuple[int, int]) -> str:
    """The 9x9 boxes as region symbols, with the cells of each pair (indexes) trading regions."""
    symbols = [str(Shape.of(3, 3).box_of[i] + 1) for i in range(81)]
    for a, b in pairs:
        symbols[a], symbols[b] = symbols[b], symbols[a]
    return "".join(symbols)


JIGSAW = swapped_boxes((20, 21), (50, 59), (27, 18), (80, 71), (44, 53))


def test_a_jigsaw_goes_to_a_link_and_back_writing_only_the_regions_that_are_not_boxes() -> None:
    puzzle = Grid.empty().with_rules(regions=JIGSAW, constraints=[Killer([(0, 0), (0, 1)], total=3)])
    assert puzzle.jigsaw
    data = to_fpuzzles(puzzle)
    written = [(r, c) for r, row in enumerate(data["grid"]) for c, cell in enumerate(row) if "region" in cell]
    moved = [
        (r, c) for r in range(9) for c in range(9) if puzzle.region_of[r * 9 + c] != puzzle.shape.box_of[r * 9 + c]
    ]
    assert 0 < len(written) <= len(moved) + 9  # only cells off their box (numbers are chosen to match most boxes)
    assert same_puzzle(parse_link(fpuzzles_link(puzzle)), puzzle)


@pytest.mark.parametrize("box", ["2x2", "2x3", "3x2", "2x4", "3x4", "4x4"])
def test_every_box_shape_goes_to_a_link_and_back(box: str) -> None:
    shape = Shape.parse(box)
    puzzle = Grid.empty(shape).with_rules(constraints=[Diagonal("main"), Killer([(0, 0), (1, 0)], total=3)])
    back = parse_link(fpuzzles_link(puzzle))
    assert back.shape == shape and not back.jigsaw  # 3x2 boxes, which f-puzzles only has as regions, come back boxes
    assert same_puzzle(back, puzzle)


def test_the_solution_goes_into_the_solution_field() -> None:
    puzzle = Grid.parse("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
    solution = Grid.parse("534678912672195348198342567859761423426853791713924856961537284287419635345286179")
    data = decoded(fpuzzles_link(puzzle, solution))
    assert data["solution"] == list(solution.cells)
    assert parse_link(fpuzzles_link(puzzle, solution)) == puzzle
    with pytest.raises(VariantError, match="complete 9x9"):
        to_fpuzzles(puzzle, puzzle)


def test_the_json_is_f_puzzles_own() -> None:
    """Keys in f-puzzles' exporter's order; a given {"value", "given"}; numbers as text; empty cells {}."""
    puzzle = Grid.parse("1...............").with_rules(
        constraints=[
            Killer([(0, 1), (0, 2)], total=5),
            Kropki("white", [(1, 0), (1, 1)]),
            KropkiNegative(),
            Diagonal("anti"),
            LittleKiller([(3, 0)], total=4),
        ]
    )
    data = to_fpuzzles(puzzle)
    assert list(data) == [
        "size",
        "grid",
        "diagonal+",
        "nonconsecutive",
        "killercage",
        "littlekillersum",
        "difference",
        "negative",
        "ratio",
    ]
    assert data["size"] == 4
    assert data["grid"][0] == [{"value": 1, "given": True}, {}, {}, {}]
    assert data["killercage"] == [{"cells": ["R1C2", "R1C3"], "value": "5"}]
    assert data["littlekillersum"] == [{"cell": "R5C2", "cells": ["R4C1"], "direction": "UL", "value": "4"}]
    assert data["negative"] == ["ratio"] and data["ratio"] == []
    link = fpuzzles_link(puzzle)
    assert link.startswith("https://www.f-puzzles.com/?load=N4Ig")
    assert decoded(link) == data
    assert " " not in decompress_from_base64(link.removeprefix(FPUZZLES_URL))  # JSON.stringify's form


def test_the_plugin_rules_come_with_the_lines_f_puzzles_draws() -> None:
    puzzle = Grid.empty().with_rules(constraints=[Renban([(0, 0), (0, 1)]), SlowThermometer([(2, 2), (2, 3)])])
    data = to_fpuzzles(puzzle)
    assert data["renban"] == [{"lines": [["R1C1", "R1C2"]]}]
    assert [line["fromConstraint"] for line in data["line"]] == ["Renban", "Slow Thermometer"]
    assert data["circle"][0]["cells"] == ["R3C3"]


@pytest.mark.parametrize(
    ("rules", "problem"),
    [
        ([LittleKiller([(1, 1), (2, 2)], total=5)], "sums a whole diagonal"),
        ([NonConsecutive(), Kropki("white", [(0, 0), (0, 1)])], "non-consecutive with kropki dots"),
        ([NonConsecutive(), Kropki("black", [(0, 0), (0, 1)])], "non-consecutive with kropki dots"),
        ([LockoutLine([(0, 0), (0, 1), (0, 2)], difference=5)], "lockout line at R1C1: its ends differ by 5 or more"),
        ([KropkiNegative("black"), Kropki("black", [(0, 0), (0, 1)], 3)], "black dots with a black dot of ratio 3"),
        ([KropkiNegative(), Kropki("black", [(0, 0), (0, 1)], 4)], "black dots with a black dot of ratio 4"),
    ],
)
def test_what_f_puzzles_cannot_hold_is_an_error(rules: list, problem: str) -> None:
    with pytest.raises(VariantError, match=problem):
        fpuzzles_link(Grid.empty().with_rules(constraints=rules))


def test_boards_above_16x16_have_no_f_puzzles_link() -> None:
    with pytest.raises(VariantError, match="25x25"):
        fpuzzles_link(Grid.empty("5x5"))


# --- what is refused --------------------------------------------------------------------------------


def fpuzzles(**keys: object) -> dict[str, object]:
    """f-puzzles' JSON of an empty 9x9 board with ``keys`` added."""
    return {"size": 9, "grid": [[{} for _ in range(9)] for _ in range(9)], **keys}


@pytest.mark.parametrize(
    ("keys", "message"),
    [
        (
            {"killercage": [{"cells": ["R10C1"], "value": "5"}]},
            "f-puzzles: killercage 1: cell R10C1 is off the 9x9 board",
        ),
        ({"disjointgroups": "yes"}, "f-puzzles: 'disjointgroups' must be true or false, not 'yes'"),
        ({"minimum": [{"cell": "R10C1"}]}, "f-puzzles: minimum 1: cell R10C1 is off the 9x9 board"),
        ({"maximum": [{"cells": ["R1C1"]}]}, "f-puzzles: maximum 1: None is not a cell like R1C1"),
        (
            {"clone": [{"cells": ["R1C1", "R1C2"], "cloneCells": ["R9C9"]}]},
            "f-puzzles: clone 1: clone at r1c1..r1c2: the copy (r9c9) is not the same shape moved",
        ),
        ({"clone": [{"cells": ["R1C1"]}]}, "f-puzzles: clone 1: cloneCells: cells must be a list"),
        ({"fogofwar": ["R1C1"]}, "f-puzzles: 'fogofwar' (fog of war) is not a rule"),
        (
            {"betweenline": [{"lines": [["R1C1", "R2C2"]]}]},
            "betweenline 1: between line: needs at least 3 cells, got 2",
        ),
        ({"betweenline": [{"lines": [["R1C1", "R2C3", "R3C3"]]}]}, "between line at r1c1..r3c3: r1c1 and r2c3"),
        ({"regionsumline": [{"lines": [["R1C1", "R1C3"]]}]}, "regionsumline 1: region sum line at r1c1..r1c3"),
        ({"entropicline": [{"lines": [["R1C1", "R1C3"]]}]}, "entropicline 1: entropic line at r1c1..r1c3: r1c1 and"),
        ({"zipperline": [{"lines": [["R1C1", "R1C2"]]}]}, "zipperline 1: zipper line: needs at least 3 cells"),
        ({"modularline": [{"lines": [["R1C1", "R1C2"]], "value": "5"}]}, "modularline 1: value '5': f-puzzles' modul"),
        ({"lockout": [{"lines": [["R1C1", "R1C2"]], "value": "x"}]}, "lockout 1: difference 'x' is not a whole number"),
        ({"somethingnew": [1]}, "f-puzzles: 'somethingnew' (a rule sudokit does not know)"),
        ({"negative": ["foglight"]}, "negative 'foglight': only the negative rules of ratio dots and of XV"),
        ({"difference": [{"cells": ["R1C1", "R1C2"], "value": "x"}]}, "difference 1: value 'x' is not a whole"),
        ({"ratio": [{"cells": ["R1C1", "R1C2"], "value": "12"}]}, "no two digits 1..9 fit a value of 12"),
        ({"xv": [{"cells": ["R1C1", "R1C2"], "value": "7"}]}, "xv 1: '7' is not X or V"),
        ({"sum": [{"cells": ["R1C1", "R1C2"], "value": "x"}]}, "sum 1: sum 'x' is not a whole number"),
        ({"sum": [{"cells": ["R1C1", "R1C2"], "value": "2"}]}, "sum 1: XV clue at r1c1..r1c2: value: 2 is not"),
        ({"sum": [{"cells": ["R1C1", "R1C2"], "value": "18"}]}, "r1c1..r1c2: no two digits 1..9 add up to 18"),
        ({"sum": [{"cells": ["R1C1", "R2C2"], "value": "7"}]}, "sum 1: XV clue: needs two orthogonally adjacent"),
        ({"negative": ["sum"]}, "negative 'sum': only the negative rules of ratio dots and of XV are modelled"),
        (
            {"negative": ["ratio"], "ratio": [{"cells": ["R1C1", "R1C2"], "value": "3"}]},
            "negative 'ratio' with a black dot of ratio '3': f-puzzles' solvers read the negative rule for that ratio",
        ),
        ({"killercage": [{"cells": ["R1C1"], "value": "?"}]}, "killercage 1: total '?' is not a whole number"),
        (
            {"cage": [{"cells": ["R1C1", "R1C2"], "value": "9"}]},
            "cage 1 (R1C1..R1C2): a cage that is not a killer cage",
        ),
        ({"thermometer": [{"lines": [["R1C1", "R3C3"]]}]}, "thermometer 1: thermometer at r1c1..r3c3: r1c1 and r3c3"),
        ({"littlekillersum": [{"cell": "R0C0", "direction": "UL", "value": "5"}]}, "points at no cell of the board"),
        ({"sandwichsum": [{"cell": "R3C3", "value": "5"}]}, "sandwichsum 1: cell R3C3 is not beside a row or a column"),
        ({"arrow": [{"cells": [], "lines": [["R1C1", "R1C2"]]}]}, "arrow 1: an arrow without its circle"),
        (
            {"quadruple": [{"cells": ["R1C1", "R1C2", "R2C1", "R2C2"]}]},
            "quadruple 1: 'values' must be a list of digits",
        ),
        ({"quadruple": [{"cells": ["R1C1", "R1C2", "R2C1", "R2C2"], "values": [1, "x"]}]}, "quadruple 1: digit 'x'"),
        (
            {"quadruple": [{"cells": ["R1C1", "R1C2", "R2C1", "R3C2"], "values": [1]}]},
            "quadruple 1: quadruple: needs the four cells of a 2x2 square, not r1c1, r1c2, r2c1, r3c2",
        ),
        (
            {"quadruple": [{"cells": ["R1C1", "R1C2", "R2C1", "R2C2"], "values": [10]}]},
            "quadruple at r1c1..r2c2: digit 10 is off the digits 1..9",
        ),
        ({"xsum": [{"cell": "R0C0", "value": "5"}]}, "xsum 1: cell R0C0 is not beside a row or a column"),
        ({"boxindexer": [{"cells": ["R1C1"]}, {"cells": ["R0C1"]}]}, "boxindexer 2: cell R0C1 is off the 9x9 board"),
        ({"skyscraper": [{"cell": "R5C5", "value": "2"}]}, "skyscraper 1: cell R5C5 is not beside a row or a column"),
        ({"skyscraper": [{"cell": "R0C1", "value": "10"}]}, "skyscraper top of column 1: count 10 is more than"),
        ({"xsum": [{"cell": "R0C1", "value": "46"}]}, "X-sum top of column 1: total 46 is more than"),
    ],
)
def test_rules_sudokit_cannot_take_whole_are_errors_naming_them(keys: dict[str, object], message: str) -> None:
    with pytest.raises(VariantError) as caught:
        parse_fpuzzles(fpuzzles(**keys))
    assert message in str(caught.value)
    assert str(caught.value).startswith("f-puzzles: ")


@pytest.mark.parametrize(
    ("cell", "message"),
    [
        ({"givenPencilMarks": [1, 10]}, "cell R1C1: given pencil mark 10 is not a digit 1..9"),
        ({"givenPencilMarks": "12"}, "cell R1C1: given pencil marks '12' are not a list of digits"),
        ({"givenPencilMarks": [3, 3]}, "cell R1C1: given pencil marks at r1c1: digit 3 listed twice"),
        ({"region": None}, "cell R1C1: region none"),
        ({"extreme": "Lowest"}, "cell R1C1: extreme 'Lowest' is not Minimum or Maximum"),
        ({"value": 12, "given": True}, "cell R1C1: given 12 is not a digit 1..9"),
        ({"glow": 1}, "cell R1C1: 'glow' is not a cell property"),
    ],
)
def test_cell_properties_that_are_rules_are_errors(cell: dict[str, object], message: str) -> None:
    data = fpuzzles()
    data["grid"][0][0] = cell  # type: ignore[index]
    with pytest.raises(VariantError, match=re.escape(message)):
        parse_fpuzzles(data)


def test_what_carries_no_rule_is_passed_over() -> None:
    data = fpuzzles(
        title="T",
        author="A",
        ruleset="Normal sudoku rules apply.",
        highlightConflicts=False,
        solution=[1] * 81,
        disabledlogic=[],
        truecandidatesoptions=["colored"],
        cage=[{"cells": [], "value": "title: x"}, {"cells": ["R1C1"], "value": "rules: y"}],
        palindrome=[{"lines": [["R1C4", "R2C5"]]}],
        line=[{"lines": [["R2C5", "R1C4"]], "outlineC": "#000000", "width": 0.1}],  # the palindrome's picture
        minimum=[],  # a rule key with no entries: no rule
    )
    data["grid"][0][0] = {"value": 5, "c": "#FFA0A0", "centerPencilMarks": [1, 2]}  # a solver's digit: no given
    data["grid"][0][1] = {"value": 3, "given": True, "cornerPencilMarks": [4]}
    data["grid"][0][2] = {"parity": "Even"}  # how old versions wrote even cells
    grid = parse_fpuzzles(data)
    assert grid.cells[:3] == (0, 3, 0)
    assert set(grid.constraints) == {OddEven((0, 2), "even"), Palindrome([(0, 3), (1, 4)])}


def test_a_region_sum_line_is_read_as_f_puzzles_writes_it_and_written_back() -> None:
    entry = {"lines": [["R3C2", "R3C3", "R3C4", "R4C5"]], "outlineC": "#2ECBFF", "width": 0.25}
    grid = parse_fpuzzles(fpuzzles(regionsumline=[entry]))
    assert grid.constraints == (RegionSumLine([(2, 1), (2, 2), (2, 3), (3, 4)]),)
    assert to_fpuzzles(grid)["regionsumline"] == [{"lines": [entry["lines"][0]]}]
    assert parse_link(fpuzzles_link(grid)) == grid


def test_an_entropic_line_is_read_as_f_puzzles_writes_it_and_written_back() -> None:
    entry = {"lines": [["R1C1", "R1C2", "R2C3", "R3C3"]], "outlineC": "#FFCF50", "width": 0.4}
    grid = parse_fpuzzles(fpuzzles(entropicline=[entry]))
    assert grid.constraints == (EntropicLine([(0, 0), (0, 1), (1, 2), (2, 2)]),)
    assert to_fpuzzles(grid)["entropicline"] == [{"lines": [entry["lines"][0]]}]
    assert parse_link(fpuzzles_link(grid)) == grid


def test_entropic_and_modular_lines_of_two_cells_are_read_as_f_puzzles_rule_for_them() -> None:
    # f-puzzles' rules text: "An entropic line of length 2 may not contain two digits from the same rank"
    grid = parse_fpuzzles(
        fpuzzles(entropicline=[{"lines": [["R4C2", "R4C1"]]}], modularline=[{"lines": [["R9C9", "R9C8"]]}])
    )
    assert grid.constraints == (EntropicLine([(3, 1), (3, 0)]), ModularLine([(8, 8), (8, 7)]))
    assert parse_link(fpuzzles_link(grid)) == grid


def test_a_lockout_lines_diamonds_drawn_as_rectangles_are_its_picture_other_rectangles_are_refused() -> None:
    line = {"lines": [["R3C4", "R4C4", "R5C4"]]}
    diamond = {"cells": ["R3C4"], "width": 0.55, "height": 0.55, "angle": 45, "outlineC": "#0000FF"}
    marked = {"cells": ["R5C4"], "width": 0.55, "height": 0.55, "angle": 45, "isLLConstraint": True}
    grid = parse_fpuzzles(fpuzzles(lockout=[line], rectangle=[diamond, marked], successMessage="Well done!"))
    assert grid.constraints == (LockoutLine([(2, 3), (3, 3), (4, 3)], difference=4),)
    for cells in (["R4C4"], ["R3C4", "R5C4"], ["R1C1"]):  # the middle of the line, two cells, off the line
        with pytest.raises(InvalidPuzzleError, match=r"rectangle 1 \(R.*: a rectangle drawn has its meaning"):
            parse_fpuzzles(fpuzzles(lockout=[line], rectangle=[{**diamond, "cells": cells}]))
    with pytest.raises(InvalidPuzzleError, match=r"rectangle 1 \(R3C4\): a rectangle drawn"):
        parse_fpuzzles(fpuzzles(rectangle=[diamond]))  # no lockout line ends there


def test_a_modular_line_is_read_as_f_puzzles_writes_it_and_written_back() -> None:
    entry = {"lines": [["R9C1", "R8C2", "R7C2", "R7C3"]], "outlineC": "#C54B8B", "width": 0.4}
    grid = parse_fpuzzles(fpuzzles(modularline=[entry]))
    assert grid.constraints == (ModularLine([(8, 0), (7, 1), (6, 1), (6, 2)]),)
    assert to_fpuzzles(grid)["modularline"] == [{"lines": [entry["lines"][0]]}]
    assert parse_link(fpuzzles_link(grid)) == grid


def test_a_zipper_line_is_read_as_f_puzzles_writes_it_and_written_back() -> None:
    entry = {"lines": [["R5C1", "R5C2", "R5C3", "R4C4", "R3C4"]], "outlineC": "#FFDE59", "width": 0.3}
    grid = parse_fpuzzles(fpuzzles(zipperline=[entry]))
    assert grid.constraints == (ZipperLine([(4, 0), (4, 1), (4, 2), (3, 3), (2, 3)]),)
    assert to_fpuzzles(grid)["zipperline"] == [{"lines": [entry["lines"][0]]}]
    assert parse_link(fpuzzles_link(grid)) == grid


def test_a_lockout_line_is_read_as_f_puzzles_writes_it_and_written_back() -> None:
    entry = {"lines": [["R2C2", "R3C3", "R4C3"]], "outlineC": "#1B5E20", "width": 0.3}
    grid = parse_fpuzzles(fpuzzles(lockout=[entry]))
    assert grid.constraints == (LockoutLine([(1, 1), (2, 2), (3, 2)], difference=4),)  # 9 // 2 on 9x9
    assert to_fpuzzles(grid)["lockout"] == [{"lines": [entry["lines"][0]]}]  # f-puzzles' lockout: its lines alone
    assert parse_link(fpuzzles_link(grid)) == grid
    six = parse_fpuzzles({"size": 6, "grid": [[{}] * 6] * 6, "lockout": [entry, {**entry, "value": "2"}]})
    assert [rule.difference for rule in six.constraints] == [3, 2]  # type: ignore[attr-defined]
    # f-puzzles reads every lockout line's ends as n // 2 apart: another difference is refused, not written wrong
    with pytest.raises(VariantError, match=re.escape("lockout line at R2C2: its ends differ by 2 or more, but f-puz")):
        to_fpuzzles(six)


def test_the_lockout_plugin_s_drawings_of_its_lines_and_diamonds_are_passed_over() -> None:
    # How "Aug 12, 2022: Lockout Lines" (Sam Cappleman-Lynes) draws them: the first plugin marked its pictures
    # isLLConstraint, later ones fromConstraint; setters drew diamonds (squares turned 45 degrees) on the ends.
    line = ["R3C4", "R4C4", "R5C4"]
    diamond = {"baseC": "#E7E6FF", "outlineC": "#0000FF", "width": 0.55, "height": 0.55, "angle": 45}
    keys = {
        "lockout": [{"lines": [line]}],
        "line": [{"lines": [line], "outlineC": "#AABEEF", "width": 0.2, "isLLConstraint": True}],
        "rectangle": [
            {"cells": ["R3C4"], **diamond, "isLLConstraint": True},
            {"cells": ["R5C4"], **diamond, "fromConstraint": "Lockout"},
            {"cells": ["R5C4"], **diamond},
        ],
        "successMessage": "Crazy man...you got it!",  # SudokuPad's message on solving: no rule
    }
    assert parse_fpuzzles(fpuzzles(**keys)).constraints == (LockoutLine([(2, 3), (3, 3), (4, 3)], difference=4),)
    for rectangle in ({"cells": ["R4C4"], **diamond}, {"cells": ["R3C4"], **diamond, "angle": 0}):
        with pytest.raises(VariantError, match=r"rectangle 4 .* has its meaning in the rules text"):
            parse_fpuzzles(fpuzzles(**{**keys, "rectangle": [*keys["rectangle"], rectangle]}))
    with pytest.raises(VariantError, match=r"rectangle 1 .* has its meaning in the rules text"):  # no lockout line
        parse_fpuzzles(fpuzzles(rectangle=keys["rectangle"][:1]))


def test_sum_clues_of_other_values_are_read_from_f_puzzles_sum_and_written_back() -> None:
    # f-puzzles' xv holds X or V; a clue of another sum is a "sum" entry (its value a text, as f-puzzles writes numbers)
    sums = [{"cells": ["R1C1", "R1C2"], "value": "7"}, {"cells": ["R2C1", "R3C1"], "value": "10"}, {"cells": []}]
    xv = [{"cells": ["R5C5", "R5C6"], "value": "V"}, {"cells": ["R6C5", "R6C6"]}]  # an XV without its letter: no rule
    grid = parse_fpuzzles(fpuzzles(sum=sums, xv=xv, negative=["xv"]))
    assert set(grid.constraints) == {
        XV(None, [(0, 0), (0, 1)], 7),
        XV("X", [(1, 0), (2, 0)]),  # a sum of 10 is an X
        XV("V", [(4, 4), (4, 5)]),
        XVNegative(),
    }
    data = to_fpuzzles(grid)
    assert data["sum"] == sums[:1] and data["negative"] == ["xv"]
    assert data["xv"] == [xv[0], {"cells": ["R2C1", "R3C1"], "value": "X"}]
    back = parse_link(fpuzzles_link(grid))
    assert same_puzzle(back, grid) and parse_link(fpuzzles_link(back)) == back
    # the negative rule spares the pairs with a clue, of any sum, as f-puzzles' solvers do; the unlettered pair not
    spared = set(orthogonal_pairs(9)) - set(undotted_pairs(grid, "xv"))
    assert spared == {(0, 1), (9, 18), (40, 41)} and (49, 50) in orthogonal_pairs(9)


def test_a_nabner_line_is_read_as_f_puzzles_writes_it_and_written_back() -> None:
    entry = {"lines": [["R1C9", "R2C8", "R3C9"]], "outlineC": "#C9E5AC", "width": 0.5}
    grid = parse_fpuzzles(fpuzzles(nabner=[entry]))
    assert grid.constraints == (NabnerLine([(0, 8), (1, 7), (2, 8)]),)
    assert to_fpuzzles(grid)["nabner"] == [{"lines": [entry["lines"][0]]}]
    assert parse_link(fpuzzles_link(grid)) == grid
    with pytest.raises(VariantError, match=re.escape("6 cells cannot hold digits 1..9 no two within 1")):
        parse_fpuzzles(fpuzzles(nabner=[{"lines": [[f"R1C{c}" for c in range(1, 7)]]}]))


def test_a_double_arrow_is_read_as_f_puzzles_writes_it_and_written_back() -> None:
    entry = {"lines": [["R6C1", "R6C2", "R7C3", "R7C4"]], "outlineC": "#CFCFCF", "width": 0.5}
    grid = parse_fpuzzles(fpuzzles(doublearrow=[entry]))
    assert grid.constraints == (DoubleArrow([(5, 0), (5, 1), (6, 2), (6, 3)]),)
    assert to_fpuzzles(grid)["doublearrow"] == [{"lines": [entry["lines"][0]]}]
    assert parse_link(fpuzzles_link(grid)) == grid
    with pytest.raises(VariantError, match="doublearrow 1: double arrow: needs at least 3 cells"):
        parse_fpuzzles(fpuzzles(doublearrow=[{"lines": [["R1C1", "R1C2"]]}]))


def test_a_between_line_is_read_as_f_puzzles_writes_it_and_written_back() -> None:
    entry = {"lines": [["R1C1", "R2C2", "R2C3", "R1C4"]], "outlineC": "#C0C0C0", "width": 0.4}
    grid = parse_fpuzzles(fpuzzles(betweenline=[entry]))
    assert grid.constraints == (BetweenLine([(0, 0), (1, 1), (1, 2), (0, 3)]),)
    assert to_fpuzzles(grid)["betweenline"] == [{"lines": [entry["lines"][0]]}]
    assert parse_link(fpuzzles_link(grid)) == grid


@pytest.mark.parametrize(
    ("key", "drawing", "message"),
    [
        ("text", {"cells": ["R2C3", "R1C3"], "value": ">"}, "text 1 (R2C3..R1C3): a text drawn"),
        ("line", {"lines": [["R1C1", "R2C2"]], "outlineC": "#000000"}, "line 1 (R1C1..R2C2): a line drawn"),
        ("circle", {"cells": ["R1C1"]}, "circle 1 (R1C1): a circle drawn"),
        ("rectangle", {"cells": ["R1C1", "R1C2"]}, "rectangle 1 (R1C1..R1C2): a rectangle drawn"),
    ],
)
def test_a_drawing_is_refused_its_rule_being_in_the_rules_text(key: str, drawing: dict, message: str) -> None:
    with pytest.raises(InvalidPuzzleError, match=re.escape(message) + ".* rules text, which sudokit does not read"):
        parse_fpuzzles(fpuzzles(**{key: [drawing]}))


def test_whispers_without_a_difference_take_the_plugins_default() -> None:
    data = {"size": 6, "grid": [[{} for _ in range(6)] for _ in range(6)], "whispers": [{"lines": [["R1C1", "R1C2"]]}]}
    assert parse_fpuzzles(data).constraints == (Whisper([(0, 0), (0, 1)], difference=3),)


# --- link forms -------------------------------------------------------------------------------------

LINK = fpuzzles_link(Grid.parse("1...............").with_rules(constraints=[Killer([(0, 1), (0, 2)], total=5)]))
DATA = LINK.removeprefix(FPUZZLES_URL)


@pytest.mark.parametrize(
    "text",
    [
        LINK,
        "  " + LINK + "  ",
        "https://f-puzzles.com/?load=" + DATA,
        "http://www.f-puzzles.com/?foo=1&load=" + DATA,
        "www.f-puzzles.com/?load=" + DATA,
        "f-puzzles.com/?load=" + quote(DATA, safe=""),
        "?load=" + DATA,
        "load=" + DATA,
        DATA,
        "https://sudokupad.app/fpuzzles" + DATA,
        "https://sudokupad.app/fpuz" + DATA,
        "https://beta.sudokupad.app/sudoku/fpuzzles" + DATA,
        "https://app.crackingthecryptic.com/sudoku/fpuzzles" + quote(DATA, safe=""),
        "https://sudokupad.app/?puzzleid=fpuzzles" + DATA,
        "sudokupad.app/fpuzzles" + DATA,
        "fpuzzles" + DATA,
    ],
)
def test_every_form_of_a_link_is_read(text: str) -> None:
    assert is_link(text)
    assert parse_link(text) == parse_link(LINK)


def data_holding(fragment: str) -> tuple[Grid, str]:
    """A puzzle whose link data holds ``fragment`` (once), and that data: drawn from seeded random givens."""
    rng = random.Random(7)
    for _ in range(2000):
        cells = [0] * 81
        for i in rng.sample(range(81), 3):
            cells[i] = rng.randint(1, 9)
        try:
            candidate = Grid(cells).with_rules(constraints=[Killer([(0, 0), (0, 1)], total=rng.randint(3, 17))])
        except InvalidPuzzleError:
            continue
        data = fpuzzles_link(candidate).removeprefix(FPUZZLES_URL)
        if data.count(fragment) == 1:
            return candidate, data
    raise AssertionError(f"no candidate's data holds {fragment!r}")


def test_a_slash_lost_from_a_pair_is_restored() -> None:
    """A path link can lose one of two slashes (SudokuPad repairs them the same way)."""
    puzzle, data = data_holding("//")
    assert parse_link("https://sudokupad.app/fpuzzles" + data.replace("//", "/")) == puzzle


def test_a_plus_read_as_a_space_is_restored() -> None:
    puzzle, data = data_holding("+")
    assert parse_link(FPUZZLES_URL + data.replace("+", " ")) == puzzle


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("https://sudokupad.app/abc123", "SudokuPad: 'abc123' is a puzzle ID that only SudokuPad's server can resolve"),
        ("https://sudokupad.app/someauthor/some-title", "SudokuPad: 'someauthor/some-title' is a puzzle ID"),
        ("https://app.crackingthecryptic.com/sudoku/tJhBTRnqgD", "'tJhBTRnqgD' is a puzzle ID"),
        ("https://www.f-puzzles.com/?id=y3x5jzv8", "f-puzzles: the link names its puzzle by the short id 'y3x5jzv8'"),
        ("https://www.f-puzzles.com/", "f-puzzles: the link holds no puzzle"),
        ("https://sudokupad.app/", "SudokuPad: the link holds no puzzle"),
        ("https://example.com/x?load=" + DATA, "a link to 'example.com' is not one sudokit reads"),
        (LINK[:-30], "f-puzzles: the puzzle data cannot be read"),
        ("https://sudokupad.app/scf" + DATA, "'scf' format is not one sudokit reads"),
    ],
)
def test_links_that_cannot_be_read_say_why_on_one_line(text: str, message: str) -> None:
    with pytest.raises(LinkError) as caught:
        parse_link(text)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)
    if "server" in message or "short id" in message:
        assert "does not use the network" in str(caught.value)


@pytest.mark.parametrize(
    "text",
    [
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79:534678912",
        "[[1, 2], [3, 4]]",
        '{"givens": "...."}',
        "scl",
        "fpuzzles short",
        "",
        "N4Ig" + "A" * 21,  # 25 letters: a whole 5x5 puzzle's worth of symbols, not data
    ],
)
def test_puzzles_are_not_links(text: str) -> None:
    assert not is_link(text)


# --- SudokuPad's own format -------------------------------------------------------------------------


def scl(zipped: str) -> str:
    return "https://sudokupad.app/scl" + compress_to_base64(zipped)


BOXES_4X4 = (
    "re:[[[0,0],[0,1],[1,0],[1,1]],[[0,2],[0,3],[1,2],[1,3]],[[2,0],[2,1],[3,0],[3,1]],[[2,2],[2,3],[3,2],[3,3]]]"
)


def test_sudokupad_own_format_gives_givens_regions_killer_cages_and_global_rules() -> None:
    zipped = (
        "{id:'x',metadata:{t:'A \\'quoted\\' title',author:'me'},ce:[[{v:1},,,],[,,,],[,,,],[,,,{v:'4'}]],"
        + BOXES_4X4
        + ",ca:[{ce:[[0,1],[0,2]],v:'5',unique:t},{ce:[[3,0],[3,1]],unique:t},{v:'rules: be nice'},"
        "{ce:[[0,0],[3,3]],unique:f,hidden:t}],global:['antiknight']}"
    )
    grid = parse_link(scl(zipped))
    assert grid.cells[0] == 1 and grid.cells[15] == 4
    assert grid.shape == Shape.of(2, 2) and not grid.jigsaw
    assert grid.constraints == (AntiKnight(), Killer([(0, 1), (0, 2)], total=5), Killer([(3, 0), (3, 1)]))
    assert parse_link("ctc" + scl(zipped).removeprefix("https://sudokupad.app/scl")) == grid


def test_sudokupad_plain_json_and_jigsaw_regions() -> None:
    regions = [[[0, 0], [0, 1], [0, 2], [1, 0]], [[0, 3], [1, 1], [1, 2], [1, 3]]]
    regions += [[[2, 0], [2, 1], [3, 0], [3, 1]], [[2, 2], [2, 3], [3, 2], [3, 3]]]
    text = json.dumps({"cells": [[{}] * 4] * 4, "regions": regions})
    grid = parse_link("https://sudokupad.app/ctc" + compress_to_base64(text))
    assert grid.jigsaw and grid.regions[0] == (0, 1, 2, 4)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (",l:[{wp:[[0.5,0.5],[1.5,1.5]],c:#0}]", "SudokuPad: the puzzle draws 1 lines"),
        (",ca:[{ce:[[0,0],[0,1]],v:'3'}]", "cage 1 at r1c1: a cage that is not a killer cage"),
        (",global:['disjoint']", "the global rule 'disjoint' is not one sudokit models"),
        (",triggereffect:[{}]", "'triggereffect' is not something sudokit reads"),
    ],
)
def test_sudokupad_drawings_and_unknown_rules_are_refused(extra: str, message: str) -> None:
    zipped = "{ce:[[,,,],[,,,],[,,,],[,,,]]," + BOXES_4X4 + extra + "}"
    with pytest.raises(VariantError, match=re.escape(message)):
        parse_link(scl(zipped))


def test_unzip_restores_keys_quotes_booleans_colours_and_empty_objects() -> None:
    text = unzip_scl("{a:[{},{b:t,c:f}],d:#0,e:'it\\'s',f:[,{g:1},],h:FF00AA}")
    assert json.loads(text) == {
        "a": [{}, {"b": True, "c": False}],
        "d": "#000000",
        "e": "it's",
        "f": [{}, {"g": 1}, {}],
        "h": "#FF00AA",
    }


# --- the reader -------------------------------------------------------------------------------------


def test_a_file_of_links_json_and_classic_lines(tmp_path: Path) -> None:
    classic = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    variant = '{"box": "2x2", "givens": "1...............", "constraints": [{"kind": "diagonal", "direction": "main"}]}'
    lines = [
        "# a comment",
        LINK,
        classic + ":534678912672195348198342567859761423426853791713924856961537284287419635345286179",
        variant,
        "{",
        '  "givens": "1...............",',
        '  "constraints": []',
        "}",
        "https://sudokupad.app/abc123",
        "load=" + DATA,
    ]
    records = list(iter_records(io.StringIO("\n".join(lines) + "\n"), "f"))
    assert [r.line for r in records] == [2, 3, 4, 5, 9, 10]
    assert records[0].text == LINK and records[0].note is None  # the ':' of https:// is the link's own
    assert records[1].text == classic and records[1].note.startswith("534678912")  # the note rule still holds
    assert records[2].text == variant
    assert records[0].parse() == parse_link(LINK) == records[5].parse()
    assert records[2].parse().kinds == {"diagonal"}
    assert records[3].parse() == Grid.parse("1...............")
    with pytest.raises(InvalidPuzzleError, match="line 9: SudokuPad: 'abc123' is a puzzle ID"):
        records[4].parse()


def test_links_and_json_as_arguments() -> None:
    check_arguments([LINK, "https://sudokupad.app/abc/def", '{"givens": "1..............."}'])  # no "no such file"
    [record] = read_arguments([LINK])
    assert (record.text, record.note) == (LINK, None)
    [record] = read_arguments(['{"givens": "1...............", "constraints": []}'])
    assert record.note is None and record.parse() == Grid.parse("1...............")
    with pytest.raises(InvalidPuzzleError, match="no such file"):
        check_arguments(["puzzles/nowhere.txt"])


# --- pretty regions ---------------------------------------------------------------------------------


def test_pretty_output_draws_irregular_regions() -> None:
    region_of = [0, 0, 0, 1, 0, 2, 1, 1, 2, 2, 3, 1, 2, 3, 3, 3]
    text = format_pretty(Shape.of(2, 2), [1, 2, 3, 4, 3, 4, 1, 2, 4, 1, 2, 3, 2, 3, 4, 1], region_of=region_of)
    assert text.splitlines() == [
        "1 2 3|4",
        " +-+-+",
        "3|4|1 2",
        "-+ +-+",
        "4 1|2|3",
        " +-+ +-",
        "2|3 4 1",
    ]
    assert Grid.parse(text).cells == (1, 2, 3, 4, 3, 4, 1, 2, 4, 1, 2, 3, 2, 3, 4, 1)  # it reads back as cells


def test_a_jigsaw_solution_is_drawn_with_its_puzzles_regions() -> None:
    regions = "1122112233443344"  # the boxes of 2x2, read as regions: no jigsaw, boxes drawn
    puzzle = Grid.empty("2x2").with_rules(regions="1112122233343444")
    solution = Grid([int(d) for d in "1234412334122341"], puzzle.shape, validate=False)  # boxes repeat: a jigsaw
    drawn = solution.to_pretty(givens=puzzle)
    assert drawn == format_pretty(solution.shape, solution.cells, region_of=puzzle.region_of) != solution.to_pretty()
    assert Grid.empty("2x2").with_rules(regions=regions).to_pretty() == Grid.empty("2x2").to_pretty()


# --- bounded work: bombs and hopeless data ------------------------------------------------------------


def test_a_link_that_expands_past_the_limit_is_refused_as_soon_as_it_does() -> None:
    """4,500 codes in 10 KB stand for 10 million characters: given up on at MAX_EXPANSION, without retries."""
    from tests.test_lzstring import lz_bomb

    start = time.process_time()
    for link in (FPUZZLES_URL + lz_bomb(4_500), "https://sudokupad.app/scl" + lz_bomb(4_500, "[")):
        with pytest.raises(LinkError, match=f"expands past {MAX_EXPANSION:,} characters"):
            parse_link(link)
    assert time.process_time() - start < 1  # some 0.02 s; each of 400 tries with a '/' doubled took as long


def test_a_long_link_that_is_no_puzzle_is_given_up_on_in_bounded_time() -> None:
    """72 KB of data with 500 single '/': a few tries with one doubled (13 s when each of 400 was tried)."""
    rng = random.Random(5)
    data = compress_to_base64("".join(rng.choice(string.ascii_letters + '{}[]:,"') for _ in range(60_000)))
    assert data.count("/") > 400
    start = time.process_time()
    with pytest.raises(LinkError, match="does not decompress to a puzzle"):
        parse_link(FPUZZLES_URL + data)
    assert time.process_time() - start < 2  # some 0.15 s


def test_data_longer_than_any_puzzle_is_refused_unread() -> None:
    with pytest.raises(LinkError, match=f"{MAX_LINK_DATA + 4:,} characters of puzzle data"):
        parse_link(FPUZZLES_URL + "N4Ig" + "A" * MAX_LINK_DATA)


def test_sudokupad_data_with_a_string_left_open_is_read_in_linear_time() -> None:
    """SudokuPad's short JSON with 20,000 escaped quotes in a string never closed: each quote was a new start of
    a string scanned to the end (6 s); now one pass, and an error saying the JSON is not valid."""
    link = "https://sudokupad.app/scl" + compress_to_base64('{a:"' + '\\"' * 20_000 + "}")
    start = time.process_time()
    with pytest.raises(LinkError, match=r"SudokuPad: the puzzle data.*not valid JSON"):
        parse_link(link)
    assert time.process_time() - start < 1  # some 0.01 s


def test_a_quadruple_is_read_with_its_repeats_and_written_as_f_puzzles_writes_it() -> None:
    square = ["R4C5", "R4C6", "R5C5", "R5C6"]
    data = fpuzzles(quadruple=[{"cells": square, "values": [7, "2", 7]}, {"cells": ["R1C1"], "values": []}])
    puzzle = parse_fpuzzles(data)
    assert puzzle.constraints == (Quadruple([(3, 4), (3, 5), (4, 4), (4, 5)], [2, 7, 7]),)  # an empty circle: no rule
    assert to_fpuzzles(puzzle)["quadruple"] == [{"cells": square, "values": [2, 7, 7]}]


def test_given_pencil_marks_are_read_off_their_cell_and_written_back_on_it() -> None:
    data = fpuzzles()
    data["grid"][4][2] = {"givenPencilMarks": [8, "3"], "centerPencilMarks": [1]}  # type: ignore[index]
    data["grid"][0][0] = {"givenPencilMarks": None}  # type: ignore[index]
    puzzle = parse_fpuzzles(data)
    assert puzzle.constraints == (PencilMarks((4, 2), [3, 8]),)  # the solver's own marks carry no rule
    written = to_fpuzzles(puzzle)["grid"]
    assert written[4][2] == {"givenPencilMarks": [3, 8]} and written[0][0] == {}
    twice = puzzle.with_rules(constraints=[*puzzle.constraints, PencilMarks((4, 2), [3])])
    with pytest.raises(VariantError, match=r"two sets of given pencil marks on R5C3 \(f-puzzles holds one a cell\)"):
        to_fpuzzles(twice)


def test_minimum_and_maximum_cells_are_read_from_their_keys_and_the_old_cell_property() -> None:
    data = fpuzzles(minimum=[{"cell": "R2C2"}], maximum=[{"cell": "R5C5"}, {"cell": "R9C1"}])
    data["grid"][0][8] = {"extreme": "Maximum"}  # type: ignore[index]
    puzzle = parse_fpuzzles(data)
    assert set(puzzle.constraints) == {
        MinMax((1, 1), "minimum"),
        MinMax((4, 4), "maximum"),
        MinMax((8, 0), "maximum"),
        MinMax((0, 8), "maximum"),
    }
    written = to_fpuzzles(puzzle)
    assert written["minimum"] == [{"cell": "R2C2"}]
    assert written["maximum"] == [{"cell": "R1C9"}, {"cell": "R5C5"}, {"cell": "R9C1"}]
    assert list(written).index("minimum") < list(written).index("maximum")


def test_minimum_and_maximum_cells_side_by_side_are_not_compared_with_each_other_as_in_f_puzzles() -> None:
    data = fpuzzles(maximum=[{"cell": "R1C1"}, {"cell": "R1C2"}, {"cell": "R2C2"}], minimum=[{"cell": "R2C1"}])
    puzzle = parse_fpuzzles(data)
    assert set(puzzle.constraints) == {
        MinMax((0, 0), "maximum"),
        MinMax((0, 1), "maximum"),
        MinMax((1, 1), "maximum"),
        MinMax((1, 0), "minimum"),
    }
    compared = {rule.cell: rule.compared(puzzle) for rule in puzzle.constraints if isinstance(rule, MinMax)}
    assert compared[(0, 1)] == ((0, 2),) and compared[(1, 1)] == ((2, 1), (1, 0), (1, 2))
    assert compared[(1, 0)] == ((0, 0), (2, 0), (1, 1))  # a minimum cell is compared with the maximum ones beside it
    assert to_fpuzzles(puzzle)["maximum"] == data["maximum"]
    old = fpuzzles()
    old["grid"][4][4], old["grid"][4][5] = {"extreme": "Minimum"}, {"extreme": "Minimum"}  # type: ignore[index]
    assert set(parse_fpuzzles(old).constraints) == {MinMax((4, 4), "minimum"), MinMax((4, 5), "minimum")}


def test_disjoint_groups_are_f_puzzles_flag_both_ways() -> None:
    puzzle = parse_fpuzzles(fpuzzles(disjointgroups=True, antiking=False))
    assert puzzle.constraints == (DisjointGroups(),)
    assert to_fpuzzles(puzzle)["disjointgroups"] is True
    assert parse_fpuzzles(fpuzzles(disjointgroups=False)).constraints == ()


def test_a_clone_is_read_with_its_cells_paired_by_place_and_written_back() -> None:
    data = fpuzzles(
        clone=[{"cells": ["R1C2", "R1C1"], "cloneCells": ["R5C5", "R5C6"]}, {"cells": [], "cloneCells": []}]
    )
    puzzle = parse_fpuzzles(data)
    assert puzzle.constraints == (Clone([(0, 0), (0, 1)], [(4, 4), (4, 5)]),)  # an empty clone: no rule
    assert to_fpuzzles(puzzle)["clone"] == [{"cells": ["R1C1", "R1C2"], "cloneCells": ["R5C5", "R5C6"]}]
