"""The variant model: every constraint kind as a value (validated, JSON round trip), checked by the verifier,
and engines never run on a kind they do not declare."""

from __future__ import annotations

import itertools
import json
import pickle
import re

import pytest

from sudokit import Grid, Result, Status, cross_check, solve
from sudokit.engines.verify import is_solution, solution_problem
from sudokit.errors import DuplicateGivenError, InvalidPuzzleError
from sudokit.model.grid import from_json
from sudokit.model.variants import (
    ALL_KINDS,
    KINDS,
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
    constraint_from_dict,
    to_json,
    undotted_pairs,
)

# LeetCode 37's solution:
#   5 3 4 6 7 8 9 1 2
#   6 7 2 1 9 5 3 4 8
#   1 9 8 3 4 2 5 6 7
#   8 5 9 7 6 1 4 2 3 ...
SOLVED = Grid.parse("534678912672195348198342567859761423426853791713924856961537284287419635345286179")
EMPTY = Grid.empty()

# (a rule the solution keeps, a rule of the same kind it breaks, words the breach is reported with)
CASES: dict[str, tuple[Constraint, Constraint, str]] = {
    "extra-region": (ExtraRegion(["r1c1", "r1c2", "r2c3"]), ExtraRegion(["r1c3", "r3c5"]), "repeats 4"),
    "killer": (Killer(["r1c1", "r1c2"], total=8), Killer(["r1c1", "r1c2"], total=9), "sums to 8, not 9"),
    "little-killer": (
        LittleKiller(["r1c1", "r2c2", "r3c3"], total=20),
        LittleKiller(["r1c1", "r2c2", "r3c3"], total=21),
        "sums to 20, not 21",
    ),
    "sandwich": (Sandwich("column", 0, 19), Sandwich("row", 0, 5), "sums to 0, not 5"),
    "thermometer": (
        Thermometer(["r1c2", "r1c3", "r1c4", "r1c5"]),
        Thermometer(["r1c5", "r1c4"]),
        "does not increase: 7 6",
    ),
    "slow-thermometer": (SlowThermometer(["r1c2", "r1c3"]), SlowThermometer(["r1c3", "r1c2"]), "decreases: 4 3"),
    "arrow": (
        Arrow(["r1c7"], ["r2c3", "r1c5"]),
        Arrow(["r1c8"], ["r2c3", "r1c5"]),
        "sums to 9, but its circle reads 1",
    ),
    "kropki": (Kropki("black", ["r1c8", "r1c9"]), Kropki("white", ["r1c3", "r2c3"]), "white kropki dot"),
    "xv": (XV("X", ["r1c2", "r2c2"]), XV("V", ["r1c1", "r1c2"]), "5 + 3 is not 5"),
    "odd-even": (OddEven("r1c1", "odd"), OddEven("r1c1", "even"), "even cell r1c1 holds 5"),
    "renban": (Renban(["r1c4", "r1c5", "r1c6"]), Renban(["r1c6", "r1c7", "r1c8"]), "not a run"),
    "whisper": (Whisper(["r1c8", "r1c7"]), Whisper(["r1c1", "r1c2"]), "5 next to 3"),
    "palindrome": (Palindrome(["r2c6", "r3c7"]), Palindrome(["r1c1", "r1c2"]), "no palindrome"),
    "quadruple": (
        Quadruple(["r2c2", "r1c1", "r1c2", "r2c1"], [7, 3, 5]),
        Quadruple(["r1c1", "r1c2", "r2c1", "r2c2"], [3, 4]),
        "quadruple at r1c1..r2c2 lacks 4: 5 3 6 7",
    ),
    "clone": (
        Clone(["r1c2", "r1c3"], ["r2c7", "r2c8"]),
        Clone(["r1c1", "r1c2"], ["r9c8", "r9c9"]),
        "clone at r1c1..r1c2: r1c1 holds 5, its copy r9c8 7",
    ),
    "min-max": (
        MinMax("r1c8", "minimum"),
        MinMax("r2c1", "maximum"),
        "maximum cell r2c1 holds 6, not greater than 7 at r2c2",
    ),
    "pencil-marks": (
        PencilMarks("r1c1", [9, 5]),
        PencilMarks("r2c2", [1, 2, 3]),
        "r2c2 holds 7, not one of its given pencil marks 1 2 3",
    ),
    "between-line": (
        BetweenLine(["r2c4", "r1c3", "r2c2"]),
        BetweenLine(["r1c1", "r1c2", "r1c3"]),
        "3 at r1c2 is not strictly between 5 and 4",
    ),
    "region-sum-line": (
        RegionSumLine(["r2c3", "r1c3", "r1c4"]),
        RegionSumLine(["r1c3", "r1c4"]),
        "the segment from r1c4 sums to 6, the first to 4",
    ),
    "entropic-line": (
        EntropicLine(["r1c7", "r1c8", "r2c8", "r2c9"]),
        EntropicLine(["r1c1", "r1c2", "r1c3", "r1c4"]),
        "r1c1..r1c3 hold 5 3 4, not a low, a middle and a high digit",
    ),
    "modular-line": (
        ModularLine(["r1c5", "r1c6", "r1c7", "r1c8"]),
        ModularLine(["r1c1", "r1c2", "r1c3", "r1c4"]),
        "r1c2..r1c4 hold 3 4 6, not three different residues mod 3",
    ),
    "zipper-line": (
        ZipperLine(["r1c8", "r2c7", "r3c6"]),
        ZipperLine(["r1c1", "r1c2", "r1c3"]),
        "r1c1 and r1c3 add up to 9, the centre r1c2 to 3",
    ),
    "lockout-line": (
        LockoutLine(["r1c6", "r1c7", "r1c8"]),
        LockoutLine(["r1c3", "r1c4", "r1c5", "r1c6"]),
        "6 at r1c4 lies between its ends 4 and 8",
    ),
    "nabner-line": (
        NabnerLine(["r1c2", "r1c1", "r2c2"]),
        NabnerLine(["r1c2", "r1c3"]),
        "3 at r1c2 and 4 at r1c3 are equal or consecutive",
    ),
    "double-arrow": (
        DoubleArrow(["r1c8", "r2c7", "r3c6"]),
        DoubleArrow(["r1c1", "r1c2", "r1c3"]),
        "its ends add up to 9, the cells between to 3",
    ),
    "x-sum": (XSum("left", 0, 25), XSum("right", 0, 4), "X-sum right of row 1: the first 2 cells sum to 3, not 4"),
    "indexer": (
        Indexer("column", ["r3c1", "r4c3", "r4c4"]),
        Indexer("column", ["r3c1", "r1c1"]),
        "column indexer r1c1 holds 5, but r1c5 holds 7, not 1",
    ),
    "skyscraper": (Skyscraper("left", 0, 5), Skyscraper("right", 0, 3), "skyscraper right of row 1: 2 seen, not 3"),
}


@pytest.mark.parametrize("kind", sorted(CASES))
def test_the_checker_accepts_a_kept_rule_and_names_a_broken_one(kind: str) -> None:
    kept, broken, words = CASES[kind]
    assert kept.kind == broken.kind == kind
    assert solution_problem(EMPTY.with_rules(constraints=[kept]), SOLVED) is None
    assert is_solution(EMPTY.with_rules(constraints=[kept]), SOLVED)
    problem = solution_problem(EMPTY.with_rules(constraints=[kept, broken]), SOLVED)
    assert problem is not None and problem.startswith("constraint 2 broken: ") and words in problem
    assert not is_solution(EMPTY.with_rules(constraints=[broken]), SOLVED)


def test_dots_of_other_values_keep_their_difference_or_ratio() -> None:
    # r1c1..r1c3 hold 5 3 4, r1c7 9; below them r2c1 holds 6, r2c7 3
    kept = [Kropki("white", ["r1c1", "r1c2"], 2), Kropki("black", ["r1c7", "r2c7"], 3)]
    kept.append(Kropki("white", ["r1c1", "r2c1"]))
    assert solution_problem(EMPTY.with_rules(constraints=kept), SOLVED) is None
    broken = Kropki("white", ["r1c2", "r1c3"], 2)  # 3 and 4 differ by 1
    problem = solution_problem(EMPTY.with_rules(constraints=[broken]), SOLVED)
    assert problem is not None and "white kropki dot at r1c2..r1c3: 3 and 4" in problem
    assert Kropki("black", ["r1c2", "r1c3"], 2) == Kropki("black", ["r1c2", "r1c3"])  # the standard value: one form
    assert Kropki("black", ["r1c2", "r1c3"], 3).to_dict()["value"] == 3
    assert "value" not in Kropki("black", ["r1c2", "r1c3"], 2).to_dict()


def test_a_two_cell_circle_reads_as_a_two_digit_number() -> None:
    arrow = Arrow(["r1c8", "r1c9"], ["r1c6", "r1c3"])  # circle 1 2 reads 12 = 8 + 4
    assert solution_problem(EMPTY.with_rules(constraints=[arrow]), SOLVED) is None
    reversed_circle = Arrow(["r1c9", "r1c8"], ["r1c6", "r1c3"])  # reads 21
    assert "circle reads 21" in solution_problem(EMPTY.with_rules(constraints=[reversed_circle]), SOLVED)


# --- the global rules against independent definitions, on every 4x4 grid ------------------------------


def all_4x4_grids() -> list[tuple[int, ...]]:
    """Every solved 4x4 Sudoku (288), by brute force over row permutations."""
    rows = list(itertools.permutations(range(1, 5)))
    out = []
    for a, b, c, d in itertools.product(rows, repeat=4):
        cells = a + b + c + d
        cols_ok = all(len({cells[r * 4 + k] for r in range(4)}) == 4 for k in range(4))
        boxes_ok = all(
            len({cells[(br + dr) * 4 + bc + dc] for dr in (0, 1) for dc in (0, 1)}) == 4
            for br in (0, 2)
            for bc in (0, 2)
        )
        if cols_ok and boxes_ok:
            out.append(cells)
    return out


GRIDS = all_4x4_grids()


def pairs_with(step: set[tuple[int, int]]) -> list[tuple[int, int]]:
    return [
        (r * 4 + c, (r + dr) * 4 + c + dc)
        for r in range(4)
        for c in range(4)
        for dr, dc in step
        if 0 <= r + dr < 4 and 0 <= c + dc < 4
    ]


KNIGHT = pairs_with({(1, 2), (2, 1), (1, -2), (2, -1)})
KING = pairs_with({(1, 1), (1, -1), (1, 0), (0, 1)})
ORTHOGONAL = pairs_with({(1, 0), (0, 1)})

GLOBAL = {
    "disjoint-groups": (
        DisjointGroups(),
        lambda g: all(
            len({g[r * 4 + c] for r in rows for c in cols}) == 4
            for rows in ((0, 2), (1, 3))
            for cols in ((0, 2), (1, 3))
        ),
    ),
    "anti-knight": (AntiKnight(), lambda g: all(g[a] != g[b] for a, b in KNIGHT)),
    "anti-king": (AntiKing(), lambda g: all(g[a] != g[b] for a, b in KING)),
    "non-consecutive": (NonConsecutive(), lambda g: all(abs(g[a] - g[b]) != 1 for a, b in ORTHOGONAL)),
    "diagonal main": (Diagonal("main"), lambda g: len({g[0], g[5], g[10], g[15]}) == 4),
    "diagonal anti": (Diagonal("anti"), lambda g: len({g[3], g[6], g[9], g[12]}) == 4),
    "kropki-negative": (
        KropkiNegative(),
        lambda g: all(abs(g[a] - g[b]) != 1 and g[a] != 2 * g[b] and g[b] != 2 * g[a] for a, b in ORTHOGONAL),
    ),
    "xv-negative": (XVNegative(), lambda g: all(g[a] + g[b] not in (5, 10) for a, b in ORTHOGONAL)),
}


@pytest.mark.parametrize("name", sorted(GLOBAL))
def test_global_rules_match_their_definition_on_every_4x4_grid(name: str) -> None:
    rule, holds = GLOBAL[name]
    puzzle = Grid.empty("2x2").with_rules(constraints=[rule])
    kept = [cells for cells in GRIDS if solution_problem(puzzle, Grid(cells)) is None]
    assert kept == [cells for cells in GRIDS if holds(cells)]
    assert len(kept) < len(GRIDS)


def outside_line(g: tuple[int, ...], side: str, index: int) -> list[int]:
    """The 4x4 grid's row or column of an outside clue, read from the clue's side (an independent reading)."""
    line = list(g[index * 4 : index * 4 + 4]) if side in ("left", "right") else list(g[index::4])
    return line[::-1] if side in ("right", "bottom") else line


@pytest.mark.parametrize("side", ["left", "right", "top", "bottom"])
def test_x_sums_match_their_definition_on_every_4x4_grid(side: str) -> None:
    for index, total in ((0, 1), (1, 3), (2, 6), (3, 10), (1, 5), (2, 8), (0, 9)):
        puzzle = Grid.empty("2x2").with_rules(constraints=[XSum(side, index, total)])
        kept = [cells for cells in GRIDS if solution_problem(puzzle, Grid(cells)) is None]
        want = [g for g in GRIDS if sum((line := outside_line(g, side, index))[: line[0]]) == total]
        assert kept == want and 0 < len(kept) < len(GRIDS)


@pytest.mark.parametrize("side", ["left", "right", "top", "bottom"])
def test_skyscrapers_match_their_definition_on_every_4x4_grid(side: str) -> None:
    for index, count in ((0, 1), (1, 2), (2, 3), (3, 4), (0, 2)):
        puzzle = Grid.empty("2x2").with_rules(constraints=[Skyscraper(side, index, count)])
        kept = [cells for cells in GRIDS if solution_problem(puzzle, Grid(cells)) is None]
        lines = [(g, outside_line(g, side, index)) for g in GRIDS]
        want = [g for g, line in lines if sum(all(d > e for e in line[:k]) for k, d in enumerate(line)) == count]
        assert kept == want and 0 < len(kept) < len(GRIDS)


JIGSAW_4 = "1112122233343444"
#: Every solved 4x4 grid of the jigsaw regions JIGSAW_4 (each row a permutation; columns and regions checked).
JIGSAW_GRIDS = [
    g
    for g in (sum(rows, ()) for rows in itertools.product(itertools.permutations(range(1, 5)), repeat=4))
    if all(len({g[k + 4 * r] for r in range(4)}) == 4 for k in range(4))
    and all(len({g[i] for i in range(16) if JIGSAW_4[i] == s}) == 4 for s in "1234")
]


@pytest.mark.parametrize("axis", ["row", "column", "box"])
def test_indexers_match_their_definition_on_every_4x4_grid(axis: str) -> None:
    """Read independently: the digit of a row (column) indexer names the row (column) of its own row's
    (column's) number; a box indexer's, the place in its region of its own place's number."""
    regions = [[i for i in range(16) if JIGSAW_4[i] == s] for s in "1234"]
    for cells in ([(0, 0)], [(1, 2)], [(3, 1), (2, 3)]):
        puzzle = Grid.empty("2x2").with_rules(regions=JIGSAW_4, constraints=[Indexer(axis, cells)])

        def holds(g: tuple[int, ...], r: int, c: int) -> bool:
            if axis == "row":
                return [g[k * 4 + c] for k in range(4)].index(r + 1) + 1 == g[r * 4 + c]
            if axis == "column":
                return list(g[r * 4 : r * 4 + 4]).index(c + 1) + 1 == g[r * 4 + c]
            (region,) = [reg for reg in regions if r * 4 + c in reg]
            return [g[i] for i in region].index(region.index(r * 4 + c) + 1) + 1 == g[r * 4 + c]

        kept = [g for g in JIGSAW_GRIDS if solution_problem(puzzle, Grid(g, "2x2", validate=False)) is None]
        assert kept == [g for g in JIGSAW_GRIDS if all(holds(g, r, c) for r, c in cells)]
        assert 0 < len(kept) < len(JIGSAW_GRIDS)


def no_dot(g: tuple[int, ...], a: int, b: int) -> bool:
    """Neither consecutive nor one double the other: what a missing kropki dot says."""
    return abs(g[a] - g[b]) != 1 and g[a] != 2 * g[b] and g[b] != 2 * g[a]


def digits(g: tuple[int, ...], pair: tuple[tuple[int, int], tuple[int, int]]) -> tuple[int, int]:
    """The digits of the 4x4 grid ``g`` in the two cells of ``pair``."""
    return g[pair[0][0] * 4 + pair[0][1]], g[pair[1][0] * 4 + pair[1][1]]


@pytest.mark.parametrize("color", ["white", "black"])
def test_a_negative_rule_of_one_colour_spares_the_pairs_with_a_dot_of_either(color: str) -> None:
    # as f-puzzles' solvers read nonconsecutive, or negative "ratio", beside dots of the other colour: 1 and 2 at a
    # dot of the other colour keep the rule (every dot of its colour given), and break it with no dot there
    other, rule, tried = "black" if color == "white" else "white", KropkiNegative(color), 0
    for g in GRIDS[::7]:
        one_two = [(divmod(a, 4), divmod(b, 4)) for a, b in ORTHOGONAL if {g[a], g[b]} == {1, 2}]
        if not one_two:
            continue
        pairs = [(divmod(a, 4), divmod(b, 4)) for a, b in ORTHOGONAL]
        given = [Kropki(color, p) for p in pairs if p != one_two[0] and Kropki(color, p).holds(*digits(g, p))]
        with_dot = Grid.empty("2x2").with_rules(constraints=[*given, Kropki(other, one_two[0]), rule])
        assert solution_problem(with_dot, Grid(g)) is None
        without = Grid.empty("2x2").with_rules(constraints=[*given, rule])
        assert solution_problem(without, Grid(g)) is not None
        tried += 1
    assert tried > 10
    assert KropkiNegative(color).to_dict() == {"kind": "kropki-negative", "color": color}
    assert KropkiNegative().to_dict() == {"kind": "kropki-negative"}


def test_negative_rules_spare_the_marked_pairs() -> None:
    dot = Kropki("white", ["r1c1", "r1c2"])
    puzzle = Grid.empty("2x2").with_rules(constraints=[dot, KropkiNegative()])
    assert (0, 1) not in undotted_pairs(puzzle, "kropki") and (0, 4) in undotted_pairs(puzzle, "kropki")
    want = [
        g
        for g in GRIDS
        if abs(g[0] - g[1]) == 1
        and all(
            abs(g[a] - g[b]) != 1 and g[a] != 2 * g[b] and g[b] != 2 * g[a] for a, b in ORTHOGONAL if (a, b) != (0, 1)
        )
    ]
    assert [g for g in GRIDS if solution_problem(puzzle, Grid(g)) is None] == want
    xv = Grid.empty("2x2").with_rules(constraints=[XV("V", ["r1c1", "r2c1"]), XVNegative()])
    want = [
        g
        for g in GRIDS
        if g[0] + g[4] == 5 and all(g[a] + g[b] not in (5, 10) for a, b in ORTHOGONAL if (a, b) != (0, 4))
    ]
    assert [g for g in GRIDS if solution_problem(xv, Grid(g)) is None] == want


# --- values: construction, validation, JSON ---------------------------------------------------------

EVERY_RULE = [kept for kept, _, _ in CASES.values()] + [
    AntiKnight(),
    AntiKing(),
    NonConsecutive(),
    Diagonal("anti"),
    KropkiNegative(),
    XVNegative(),
    Kropki("white", ["r5c5", "r5c6"]),
    Kropki("black", ["r7c5", "r7c6"], 3),
    Kropki("white", ["r7c7", "r8c7"], 4),
    XV("V", ["r9c8", "r9c9"]),
    Killer([(4, 4), (4, 5), (5, 4)]),
    DisjointGroups(),
]


def test_every_kind_is_covered() -> None:
    assert {rule.kind for rule in EVERY_RULE} == set(KINDS)
    assert set(KINDS) | {"jigsaw"} == ALL_KINDS


def test_a_puzzle_with_every_kind_round_trips_through_json_and_pickle() -> None:
    puzzle = Grid.parse("." * 81).with_rules(regions=JIGSAW, constraints=EVERY_RULE)
    text = to_json(puzzle)
    again = from_json(text)
    assert again == puzzle and hash(again) == hash(puzzle) and again.kinds == ALL_KINDS
    assert json.loads(text)["regions"] == JIGSAW
    assert pickle.loads(pickle.dumps(puzzle)) == puzzle
    assert Grid.parse(text) == puzzle  # the JSON form is a puzzle text like any other
    assert eval(repr(puzzle), {"sudokit": __import__("sudokit")}) == puzzle
    for rule in EVERY_RULE:
        assert constraint_from_dict(json.loads(json.dumps(rule.to_dict()))) == rule


def test_rules_make_a_different_puzzle_and_the_classic_one_stays_classic() -> None:
    puzzle = Grid.parse("." * 81)
    variant = puzzle.with_rules(constraints=[AntiKnight()])
    assert puzzle.is_classic and not variant.is_classic and puzzle != variant
    assert variant.with_rules() == puzzle and variant.kinds == {"anti-knight"} and puzzle.kinds == set()
    assert variant.with_cells(SOLVED.cells).constraints == (AntiKnight(),)
    assert Grid.parse("." * 81).with_rules(regions=Grid.empty().shape.boxes).is_classic  # the boxes are no jigsaw


# A 9x9 jigsaw: nine irregular regions (rows 1-9 as drawn).
JIGSAW = (
    "111222333"
    "111222333"
    "112122333"  # r3c3 and r3c4 swap regions
    "444555666"
    "444555666"
    "444555666"
    "777888999"
    "777888999"
    "777888999"
)


def test_jigsaw_regions_replace_the_boxes() -> None:
    # Two 1s in the top-left box are legal in a jigsaw whose regions split that box...
    cells = [0] * 81
    cells[0] = 1  # r1c1, region 1
    cells[2 * 9 + 2] = 1  # r3c3, in region 2 (the box of r1c1 refuses it)
    with pytest.raises(DuplicateGivenError, match="same box"):
        Grid(cells)
    jig = Grid(cells, regions=JIGSAW)
    assert jig.jigsaw and jig.kinds == {"jigsaw"} and jig.region_of[3 * 9 + 4] == 4
    assert sorted(len(r) for r in jig.regions) == [9] * 9
    # ...and two equal givens in one region are refused, naming the region.
    cells[2 * 9 + 2] = 0
    cells[2 * 9 + 3] = 1  # r3c4: region 1 too
    with pytest.raises(DuplicateGivenError, match="same region"):
        Grid(cells, regions=JIGSAW)


@pytest.mark.parametrize(
    ("regions", "message"),
    [
        (JIGSAW[:-1], "80 symbols, but a 9x9 board needs 81"),
        (JIGSAW[:-1] + "8", "region 8 has 10 cells, not 9"),
        (JIGSAW[:-1] + "X", "row 9, column 9: 'X' is not a region 1..9"),
        ([list(range(9))] * 9, "r1c1 is in region 1 and region 2"),
    ],
)
def test_bad_regions_are_named(regions: object, message: str) -> None:
    with pytest.raises(VariantError, match=message.replace("(", r"\(")):
        Grid.empty().with_rules(regions=regions)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Killer(["r1c1", "r1c1"]), "killer cage: cell r1c1 appears twice"),
        (lambda: Killer(["r1c1"], total=0), "total: 0 is not a whole number of at least 1"),
        (lambda: Killer(["a1"]), "'a1' is not a cell like 'r1c1'"),
        (lambda: Killer([(-1, 0)]), "is not a cell"),
        (lambda: Kropki("white", ["r1c1", "r2c2"]), "needs two orthogonally adjacent cells, not r1c1, r2c2"),
        (lambda: Kropki("grey", ["r1c1", "r1c2"]), "'grey' is not one of white, black"),
        (lambda: XV("W", ["r1c1", "r1c2"]), "'W' is not one of X, V"),
        (lambda: Thermometer(["r1c1", "r1c3"]), "r1c1 and r1c3 do not touch"),
        (lambda: Thermometer(["r1c1"]), "needs at least 2 cells, got 1"),
        (lambda: Arrow(["r1c1", "r1c2", "r1c3"], ["r2c1"]), "a circle of 3 cells"),
        (lambda: Arrow(["r1c1"], ["r1c1"]), "cell r1c1 is both circle and arrow"),
        (lambda: LittleKiller(["r1c1", "r1c2"], total=3), "r1c1 and r1c2 are not on one diagonal"),
        (lambda: Sandwich("diagonal", 0, 3), "'diagonal' is not one of row, column"),
        (lambda: Diagonal("up"), "'up' is not one of main, anti"),
        (lambda: XSum("north", 0, 3), "X-sum: 'north' is not one of left, right, top, bottom"),
        (lambda: XSum("top", -1, 3), "X-sum: index: -1 is not a whole number of at least 0"),
        (lambda: XSum("top", 2, 0), "X-sum top of column 3: total: 0 is not a whole number of at least 1"),
        (lambda: Skyscraper("up", 0, 3), "skyscraper: 'up' is not one of left, right, top, bottom"),
        (lambda: Indexer("diagonal", ["r1c1"]), "indexer: 'diagonal' is not one of row, column, box"),
        (lambda: KropkiNegative("grey"), "kropki negative constraint: 'grey' is not one of white, black"),
        (lambda: Kropki("black", ["r1c1", "r1c2"], 1), "black kropki dot at r1c1..r1c2: value: 1 is not a whole"),
        (lambda: Kropki("white", ["r1c1", "r1c2"], 0), "white kropki dot at r1c1..r1c2: value: 0 is not a whole"),
        (lambda: Indexer("box", []), "box indexer: needs at least 1 cell, got 0"),
        (lambda: Indexer("row", ["r1c1", "r1c1"]), "row indexer: cell r1c1 appears twice"),
        (lambda: Skyscraper("left", 4, 0), "skyscraper left of row 5: count: 0 is not a whole number of at least 1"),
        (lambda: OddEven("r1c1", "prime"), "'prime' is not one of odd, even"),
        (lambda: Whisper(["r1c1", "r1c2"], difference=0), "difference: 0 is not a whole number of at least 1"),
        (lambda: Quadruple(["r1c1", "r1c2", "r2c1"], [1]), "quadruple: needs the four cells of a 2x2 square, not r1c1"),
        (lambda: Quadruple(["r1c1", "r1c2", "r2c1", "r3c2"], [1]), "2x2 square, not r1c1, r1c2, r2c1, r3c2"),
        (
            lambda: Quadruple(["r1c1", "r1c2", "r2c1", "r2c2"], []),
            "quadruple at r1c1..r2c2: 0 digits (a quadruple lists 1 to 4",
        ),
        (lambda: Quadruple(["r1c1", "r1c2", "r2c1", "r2c2"], [1, 2, 3, 4, 5]), "5 digits (a quadruple lists 1 to 4"),
        (
            lambda: Quadruple(["r1c1", "r1c2", "r2c1", "r2c2"], [0]),
            "quadruple at r1c1..r2c2: digit: 0 is not a whole number of at least 1",
        ),
        (lambda: Quadruple(["r1c1", "r1c2", "r2c1", "r2c2"], "12"), "digits must be a list of 1 to 4 digits, not '12'"),
        (lambda: PencilMarks("r1c1", []), "given pencil marks at r1c1: no digit listed"),
        (lambda: Clone(["r1c1", "r1c2"], ["r2c1", "r3c1"]), "clone at r1c1..r1c2: the copy (r2c1, r3c1"),
        (lambda: Clone(["r1c1"], ["r5c5", "r5c6"]), "clone at r1c1: the copy (r5c5, r5c6"),
        (lambda: Clone(["r2c2", "r1c1"], ["r1c1", "r2c2"]), "clone at r1c1..r2c2: the copy is the cells themselves"),
        (lambda: Clone(["r1c1"], []), "clone copy: needs at least 1 cell, got 0"),
        (lambda: MinMax("r1c1", "min"), "minimum/maximum cell: 'min' is not one of minimum, maximum"),
        (lambda: MinMax("r0c1", "minimum"), "minimum/maximum cell: 'r0c1' is not a cell like 'r1c1'"),
        (lambda: PencilMarks("r1c1", [3, 1, 3]), "given pencil marks at r1c1: digit 3 listed twice"),
        (lambda: PencilMarks("r1c1", [True]), "given pencil marks at r1c1: digit: True is not a whole number"),
        (lambda: PencilMarks("r1c1", 5), "given pencil marks at r1c1: digits must be a list of digits, not 5"),
        (lambda: BetweenLine(["r1c1", "r1c2"]), "between line: needs at least 3 cells, got 2"),
        (lambda: BetweenLine(["r1c1", "r1c2", "r1c4"]), "between line at r1c1..r1c4: r1c2 and r1c4 do not touch"),
        (lambda: BetweenLine(["r1c1", "r1c2", "r1c1"]), "between line: cell r1c1 appears twice"),
        (lambda: RegionSumLine(["r1c1"]), "region sum line: needs at least 2 cells, got 1"),
        (lambda: EntropicLine(["r1c1"]), "entropic line: needs at least 2 cells, got 1"),
        (lambda: ModularLine(["r1c1"]), "modular line: needs at least 2 cells, got 1"),
        (lambda: XV(cells=["r1c1", "r1c2"]), "XV clue at r1c1..r1c2: needs the letter X or V, or the sum as its value"),
        (lambda: XV(cells=["r1c1", "r1c2"], value=2), "XV clue at r1c1..r1c2: value: 2 is not a whole number of at"),
        (lambda: XV("V", ["r1c1", "r1c2"], 7), "XV clue at r1c1..r1c2: V is a sum of 5, not 7"),
        (lambda: XV("7", ["r1c1", "r1c2"]), "XV clue: '7' is not one of X, V"),
        (lambda: ZipperLine(["r1c1", "r1c2"]), "zipper line: needs at least 3 cells, got 2"),
        (lambda: DoubleArrow(["r1c1", "r1c2"]), "double arrow: needs at least 3 cells, got 2"),
        (lambda: LockoutLine(["r1c1", "r1c2"], difference=0), "difference: 0 is not a whole number of at least 1"),
        (lambda: ModularLine(["r1c1", "r1c2", "r3c3"]), "modular line at r1c1..r3c3: r1c2 and r3c3 do not touch"),
        (lambda: RegionSumLine(["r1c1", "r3c1"]), "region sum line at r1c1..r3c1: r1c1 and r3c1 do not touch"),
    ],
)
def test_malformed_rules_are_refused_naming_the_rule(make, message: str) -> None:
    with pytest.raises(VariantError, match=message.replace("(", r"\(")) as err:
        make()
    assert isinstance(err.value, InvalidPuzzleError) and "\n" not in str(err.value)


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        (Killer(["r1c1", "r10c1"]), "constraint 2: killer cage: cell r10c1 is off the 9x9 board"),
        (Sandwich("row", 9, 3), "constraint 2: sandwich: row 10 is off the 9x9 board"),
        (Sandwich("row", 0, 36), "total 36 is too large"),
        (XSum("bottom", 9, 3), "constraint 2: X-sum: column 10 is off the 9x9 board"),
        (XSum("right", 8, 46), "constraint 2: X-sum right of row 9: total 46 is more than 1 + 2 + ... + 9"),
        (Skyscraper("top", 9, 3), "constraint 2: skyscraper: column 10 is off the 9x9 board"),
        (Indexer("row", ["r10c1"]), "constraint 2: indexer: cell r10c1 is off the 9x9 board"),
        (Kropki("black", ["r1c1", "r1c2"], 10), "black kropki dot at r1c1..r1c2: no two digits 1..9 fit a value of 10"),
        (Skyscraper("top", 0, 10), "constraint 2: skyscraper top of column 1: count 10 is more than the 9 cells"),
        (ExtraRegion([(0, c) for c in range(9)] + [(1, 0)]), "10 cells cannot hold different digits 1..9"),
        (AntiKnight(), "constraint 2 (anti-knight) repeats constraint 1"),
        (
            Quadruple(["r1c1", "r1c2", "r2c1", "r2c2"], [9, 10]),
            "constraint 2: quadruple at r1c1..r2c2: digit 10 is off the digits 1..9",
        ),
        (Clone(["r1c1"], ["r1c10"]), "constraint 2: clone: cell r1c10 is off the 9x9 board"),
        (MinMax("r10c1", "maximum"), "constraint 2: minimum/maximum cell: cell r10c1 is off the 9x9 board"),
        (PencilMarks("r9c9", [1, 10]), "constraint 2: given pencil marks at r9c9: digit 10 is off the digits 1..9"),
        (NabnerLine([(0, c) for c in range(6)]), "6 cells cannot hold digits 1..9 no two within 1"),
        (XV(cells=["r1c1", "r1c2"], value=18), "constraint 2: XV clue at r1c1..r1c2: no two digits 1..9 add up to 18"),
    ],
)
def test_rules_that_do_not_fit_the_board_are_refused_with_their_number(rule: Constraint, message: str) -> None:
    with pytest.raises(VariantError, match=re.escape(message)):
        EMPTY.with_rules(constraints=[AntiKnight(), rule])


def test_an_xv_clue_of_another_sum_is_one_form_its_json_without_a_letter() -> None:
    seven = XV(cells=["r1c1", "r1c2"], value=7)
    assert (seven.total, seven.to_dict()) == (7, {"kind": "xv", "cells": ["r1c1", "r1c2"], "value": 7})
    assert constraint_from_dict(seven.to_dict()) == seven
    assert XV(None, ["r1c1", "r1c2"], 10) == XV("X", ["r1c1", "r1c2"]) == XV("X", ["r1c1", "r1c2"], 10)
    assert XV("V", ["r1c1", "r1c2"]).to_dict() == {"kind": "xv", "letter": "V", "cells": ["r1c1", "r1c2"]}
    problem = solution_problem(EMPTY.with_rules(constraints=[XV(cells=["r1c1", "r1c2"], value=9)]), SOLVED)
    assert problem is not None and problem.endswith(": XV clue at r1c1..r1c2: 5 + 3 is not 9")


@pytest.mark.parametrize("engine", ["backtrack", "sat", "cp-sat", "python-constraint"])
def test_entropic_and_modular_lines_of_two_cells_hold_digits_of_two_groups(engine: str) -> None:
    # f-puzzles' plugin: "an entropic line of length two may not contain two digits from the same rank"
    from tests.test_cpsat_variants import brute_force

    modular = Grid.parse("1...........3...", "2x2").with_rules(
        constraints=[ModularLine(["r1c2", "r1c3"]), ModularLine(["r2c1", "r3c2"])]
    )
    entropic = Grid.parse(".....6...123.....456..31...6.56.5312", "2x3").with_rules(
        constraints=[EntropicLine(["r1c2", "r1c3"]), EntropicLine(["r2c2", "r3c2"])]
    )
    for puzzle in (modular, entropic):
        expected = brute_force(puzzle)
        assert 0 < len(expected) < len(brute_force(puzzle.with_rules(constraints=[])))  # the lines remove some
        result = solve(puzzle, engine, limit=len(expected) + 1)
        assert {s.cells for s in result.solutions} == expected and result.exact


def test_a_zipper_line_of_even_length_compares_its_pairs_with_the_outermost() -> None:
    zipper = ZipperLine(["r2c6", "r1c6", "r1c7", "r1c8"])  # 5 + 1 and 8 + 9 (the solution's digits)
    problem = solution_problem(EMPTY.with_rules(constraints=[zipper]), SOLVED)
    assert problem is not None and "r1c6 and r1c7 add up to 17, the outermost pair to 6" in problem
    assert ZipperLine(["r1c7", "r1c6", "r2c6", "r1c5"]).zips() == ((((0, 6), (0, 4)), ((0, 5), (1, 5))), None)
    kept = ZipperLine(["r1c1", "r1c2", "r1c3", "r2c3"])  # 5 + 2 and 3 + 4
    assert solution_problem(EMPTY.with_rules(constraints=[kept]), SOLVED) is None


def test_a_lockout_line_s_ends_must_be_far_apart() -> None:
    close = LockoutLine(["r1c3", "r2c4"])  # 4 and 1, apart by 3
    problem = solution_problem(EMPTY.with_rules(constraints=[close]), SOLVED)
    assert problem is not None and "its ends 4 and 1 differ by less than 4" in problem
    assert solution_problem(EMPTY.with_rules(constraints=[LockoutLine(close.cells, difference=3)]), SOLVED) is None


def test_entropic_and_modular_lines_of_two_cells_hold_digits_of_two_different_groups() -> None:
    pair = ModularLine([(0, 0), (0, 1)])
    kept = [g for g in GRIDS if solution_problem(Grid.empty("2x2").with_rules(constraints=[pair]), Grid(g)) is None]
    assert kept == [g for g in GRIDS if g[0] % 3 != g[1] % 3] and 0 < len(kept) < len(GRIDS)
    assert solution_problem(EMPTY.with_rules(constraints=[EntropicLine([(0, 0), (0, 1)])]), SOLVED) is None  # 5 3
    problem = solution_problem(EMPTY.with_rules(constraints=[EntropicLine([(0, 0), (1, 0)])]), SOLVED)  # 5 6
    assert problem == "constraint 1 broken: entropic line at r1c1..r2c1: r1c1..r2c1 hold 5 6, not two different thirds"


def test_an_entropic_line_needs_a_side_that_splits_into_thirds() -> None:
    line = EntropicLine(["r1c1", "r1c2", "r1c3"])
    with pytest.raises(VariantError, match=re.escape("constraint 1: entropic line at r1c1..r1c3: the digits 1..4 do")):
        Grid.empty("2x2").with_rules(constraints=[line])
    assert Grid.empty("2x3").with_rules(constraints=[line]).kinds == {"entropic-line"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '{"givens": "' + "." * 81 + '", "constraints": [{"kind": "sandwitch"}]}',
            "constraint 1: unknown kind 'sandwitch' .did you mean 'sandwich'. every kind is in docs/variants.md.",
        ),
        ('{"givens": "' + "." * 81 + '", "constraints": [{"kind": "killer"}]}', "constraint 1: killer needs cells"),
        (
            '{"givens": "' + "." * 81 + '", "constraints": [{"kind": "xv", "letter": "X", "cells": [], "sum": 3}]}',
            "constraint 1: xv has no field 'sum'",
        ),
        ('{"givens": "' + "." * 81 + '", "rules": []}', "unknown field 'rules'"),
        ('{"box": "3x3"}', "'givens' must be the puzzle's line form"),
        ('{"givens": ', "not valid JSON"),
    ],
)
def test_bad_json_puzzles_are_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(InvalidPuzzleError, match=message) as err:
        Grid.parse(text)
    assert "\n" not in str(err.value)


# --- engines and the kinds they take ------------------------------------------------------------------


class Plain:
    """A third-party engine that declares no variant kinds (a test double for a plugin)."""

    name = "plain"
    description = "classic only"
    calls = 0

    def solve(self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None) -> Result:
        Plain.calls += 1
        return Result(Status.SOLVED, puzzle, self.name, (SOLVED,), 1)


def test_an_engine_is_not_run_on_a_kind_it_does_not_declare() -> None:
    puzzle = Grid.parse("." * 81).with_rules(constraints=[Killer(["r1c1", "r1c2"], total=8), AntiKnight()])
    Plain.calls = 0
    result = solve(puzzle, Plain())
    assert result.status is Status.UNSUPPORTED and Plain.calls == 0
    assert result.error == "strategy 'plain' does not support anti-knight, killer"
    assert result.to_dict()["status"] == "unsupported"
    plain = solve(puzzle, "backtrack", order="plain")  # the write-ups' search takes classic puzzles only
    assert plain.status is Status.UNSUPPORTED and "does not support" in plain.error
    assert solve(Grid.parse(SOLVED.to_line()), Plain()).status is Status.SOLVED  # a classic puzzle runs


def test_the_cross_check_skips_an_engine_that_lacks_a_kind_and_says_so() -> None:
    puzzle = SOLVED.with_rules(constraints=[Killer(["r1c1", "r1c2"], total=8)])
    report = cross_check(puzzle, [Plain(), Plain()])
    assert [a.verdict.value for a in report.engines] == ["skipped", "skipped"]
    assert report.verdict.value == "undecided"  # nobody checked anything
    assert report.problems == (
        "engine 'plain' does not support killer",
        "engine 'plain#2' does not support killer",
    )


def test_a_quadruple_counts_repeated_digits_and_ignores_the_order_listed() -> None:
    square = ["r1c8", "r1c9", "r2c8", "r2c9"]  # 1 2 / 4 8 in the solution
    assert Quadruple(square, [8, 1]) == Quadruple(square, (1, 8)) and Quadruple(square, [8, 1]).digits == (1, 8)
    twice = EMPTY.with_rules(constraints=[Quadruple(square, [1, 1])])
    problem = "constraint 1 broken: quadruple at r1c8..r2c9 has 1 in 1 cell, not 2: 1 2 4 8"
    assert solution_problem(twice, SOLVED) == problem
    on_4x4 = Grid.empty("2x2").with_rules(constraints=[Quadruple(["r2c2", "r2c3", "r3c2", "r3c3"], [1, 1])])
    kept = [g for g in GRIDS if solution_problem(on_4x4, Grid(g)) is None]
    assert kept == [g for g in GRIDS if [g[5], g[6], g[9], g[10]].count(1) >= 2] and 0 < len(kept) < len(GRIDS)
    assert json.loads(to_json(on_4x4))["constraints"] == [
        {"kind": "quadruple", "cells": ["r2c2", "r2c3", "r3c2", "r3c3"], "digits": [1, 1]}
    ]


def test_given_pencil_marks_limit_their_cell_and_list_their_digits_sorted() -> None:
    marks = PencilMarks("r2c3", [4, 1])
    assert marks.digits == (1, 4) and marks == PencilMarks((1, 2), (1, 4))
    on_4x4 = Grid.empty("2x2").with_rules(constraints=[marks])
    kept = [g for g in GRIDS if solution_problem(on_4x4, Grid(g)) is None]
    assert kept == [g for g in GRIDS if g[6] in (1, 4)] and len(kept) == len(GRIDS) // 2
    assert json.loads(to_json(on_4x4))["constraints"] == [{"kind": "pencil-marks", "cell": "r2c3", "digits": [1, 4]}]


def test_a_minimum_or_maximum_cell_is_compared_with_its_neighbours_on_the_board_only() -> None:
    corner, middle = MinMax("r1c1", "minimum"), MinMax("r2c3", "maximum")
    assert corner.neighbours(4) == ((1, 0), (0, 1)) and len(middle.neighbours(4)) == 4
    puzzle = Grid.empty("2x2").with_rules(constraints=[corner, middle])
    kept = [g for g in GRIDS if solution_problem(puzzle, Grid(g)) is None]
    assert kept == [g for g in GRIDS if g[0] < min(g[1], g[4]) and g[6] > max(g[2], g[5], g[7], g[10])]
    assert 0 < len(kept) < len(GRIDS)


@pytest.mark.parametrize("engine", ["backtrack", "sat", "cp-sat", "python-constraint"])
def test_minimum_or_maximum_cells_side_by_side_are_not_compared_with_each_other(engine: str) -> None:
    # as f-puzzles' solvers read them (a fortress sudoku's grey cells): each is compared with the other cells only
    rules = [MinMax("r1c1", "minimum"), MinMax("r1c2", "minimum"), MinMax("r4c3", "maximum"), MinMax("r4c4", "maximum")]
    puzzle = Grid.empty("2x2").with_rules(constraints=rules)
    want = {g for g in GRIDS if g[0] < g[4] and g[1] < min(g[2], g[5]) and g[14] > max(g[10], g[13]) and g[15] > g[11]}
    assert {g for g in GRIDS if g[0] < g[1]} & want and {g for g in GRIDS if g[0] > g[1]} & want  # either order
    result = solve(puzzle, engine, limit=len(want) + 1)
    assert {s.cells for s in result.solutions} == want and result.exact
    assert MinMax("r1c1", "minimum").compared(puzzle) == ((1, 0),)  # r1c2, a minimum cell too, is not compared


def test_disjoint_groups_follow_the_boxes_and_name_the_repeat() -> None:
    groups = DisjointGroups.groups(Grid.empty("2x3").shape)  # 6x6: boxes of 2 rows by 3 columns
    assert groups[0] == (0, 3, 12, 15, 24, 27) and groups[5] == (8, 11, 20, 23, 32, 35)
    assert sorted(i for g in groups for i in g) == list(range(36))
    problem = solution_problem(EMPTY.with_rules(constraints=[DisjointGroups()]), SOLVED)
    assert problem == "constraint 1 broken: disjoint group 1 repeats 9 (at r1c7 and r7c1)"


def test_a_clone_pairs_its_cells_by_place_whatever_order_they_are_listed_in() -> None:
    clone = Clone(["r2c1", "r1c1", "r1c2"], ["r3c4", "r4c3", "r3c3"])  # an L moved two down, two right
    assert clone == Clone(["r1c1", "r1c2", "r2c1"], ["r3c3", "r3c4", "r4c3"])
    assert clone.pairs(4) == ((0, 10), (1, 11), (4, 14))
    puzzle = Grid.empty("2x2").with_rules(constraints=[clone])
    kept = [g for g in GRIDS if solution_problem(puzzle, Grid(g)) is None]
    assert kept == [g for g in GRIDS if (g[0], g[1], g[4]) == (g[10], g[11], g[14])] and 0 < len(kept) < len(GRIDS)
    assert clone.to_dict() == {"kind": "clone", "cells": ["r1c1", "r1c2", "r2c1"], "copy": ["r3c3", "r3c4", "r4c3"]}
