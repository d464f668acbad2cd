"""Render ``docs/variants.md``: the variant kinds, their rules, and which engine takes which kind.

    python tools/make_variants_doc.py            # write docs/variants.md
    python tools/make_variants_doc.py --check    # compare instead of writing (exit 1 when it differs)

The table comes from the built-in engines' own declarations (``capabilities_of(engine).constraints``)
and each kind's rule from its class's docstring in ``sudokit.model.variants``, so the page cannot drift
from the code: ``tests/test_variants_table.py`` keeps the file equal to :func:`render`.
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import json
import sys
from pathlib import Path

from sudokit import available_strategies, capabilities_of, get_strategy
from sudokit.model.variants import (
    ALL_KINDS,
    JIGSAW,
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
    Whisper,
    XSum,
    XVNegative,
    ZipperLine,
)

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "variants.md"
#: The distribution whose engines the table lists (sudokit's own, whatever else is installed).
DISTRIBUTION = "sudokit"
#: What jigsaw means: it has no class (the grid's ``regions`` are irregular).
JIGSAW_RULE = "Irregular regions replace the boxes: each of the n regions holds every digit once."

#: One example of each kind, shown in its JSON form.
EXAMPLES: dict[str, Constraint] = {
    c.kind: c
    for c in (
        ExtraRegion(["r2c2", "r2c3", "r2c4", "r3c2", "r3c3", "r3c4", "r4c2", "r4c3", "r4c4"]),
        Diagonal("anti"),
        AntiKnight(),
        AntiKing(),
        NonConsecutive(),
        Killer(["r1c1", "r1c2", "r2c1"], total=12),
        LittleKiller(["r1c3", "r2c2", "r3c1"], total=15),
        Sandwich("row", 0, 17),
        Thermometer(["r5c5", "r4c5", "r3c6"]),
        SlowThermometer(["r9c1", "r8c2", "r7c3"]),
        Arrow(["r1c1"], ["r2c2", "r3c3"]),
        Kropki("black", ["r1c1", "r1c2"]),
        KropkiNegative(),
        XV("X", ["r1c1", "r2c1"]),
        XVNegative(),
        OddEven("r5c5", "even"),
        Renban(["r1c1", "r1c2", "r2c3"]),
        Whisper(["r4c4", "r5c5", "r6c6"]),
        Palindrome(["r1c4", "r2c5", "r3c4"]),
        Quadruple(["r4c4", "r4c5", "r5c4", "r5c5"], [1, 1, 7]),
        PencilMarks("r2c8", [3, 6, 9]),
        MinMax("r5c5", "maximum"),
        DisjointGroups(),
        Clone(["r1c1", "r1c2", "r2c1"], ["r7c7", "r7c8", "r8c7"]),
        BetweenLine(["r2c1", "r2c2", "r3c3", "r2c4"]),
        RegionSumLine(["r2c2", "r3c3", "r4c4", "r5c5"]),
        EntropicLine(["r7c1", "r7c2", "r8c3", "r9c3"]),
        ModularLine(["r1c9", "r2c8", "r3c8", "r4c9"]),
        ZipperLine(["r6c4", "r7c5", "r8c6", "r7c7", "r6c8"]),
        LockoutLine(["r9c4", "r8c5", "r9c6"]),
        NabnerLine(["r4c1", "r5c2", "r6c1"]),
        DoubleArrow(["r4c7", "r5c8", "r6c7", "r6c6"]),
        XSum("left", 0, 25),
        Skyscraper("top", 0, 4),
        Indexer("column", ["r1c1", "r2c5", "r3c9"]),
    )
}
#: Further examples of a kind with more forms than one: an XV clue of another sum.
MORE_EXAMPLES: dict[str, tuple[Constraint, ...]] = {"xv": (XV(cells=["r5c5", "r5c6"], value=7),)}


def engines() -> list[str]:
    """The names of the built-in engines, in the registry's order."""
    return [info.name for info in available_strategies() if info.distribution == DISTRIBUTION]


def kinds() -> list[str]:
    """Every kind: jigsaw first, then the constraint kinds in the order of ``sudokit.model.variants.KINDS``."""
    return [JIGSAW, *KINDS]


def rule(kind: str) -> str:
    """The kind's rule in a line: its class's docstring (jigsaw's own text)."""
    if kind == JIGSAW:
        return JIGSAW_RULE
    return " ".join((inspect.getdoc(KINDS[kind]) or "").split())


def signature(cls: type[Constraint]) -> str:
    """``Killer(cells, total=None)``: the constructor's fields, with their defaults."""
    parts = []
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        parts.append(f.name if f.default is dataclasses.MISSING else f"{f.name}={f.default!r}")
    return f"{cls.__name__}({', '.join(parts)})"


def table() -> str:
    """The markdown table of kinds against engines: ``yes`` where the engine declares the kind."""
    names = engines()
    declared = {name: capabilities_of(get_strategy(name)).constraints for name in names}
    lines = [
        f"| kind | {' | '.join(f'`{n}`' for n in names)} |",
        f"|---|{'---|' * len(names)}",
    ]
    for kind in kinds():
        marks = " | ".join("yes" if kind in declared[n] else "no" for n in names)
        lines.append(f"| [`{kind}`](#{kind}) | {marks} |")
    return "\n".join(lines)


def section(kind: str) -> str:
    """One kind's section: its name, class, rule and a JSON example."""
    if kind == JIGSAW:
        return (
            f"### {kind}\n\n{JIGSAW_RULE} Not a constraint: the puzzle's `regions`, one symbol per cell "
            '(`"regions": "111222333..."`, region k as the k-th symbol of `123456789ABC...`), or '
            "`Grid(cells, shape, regions=[[cells of region 1], ...])` in Python.\n"
        )
    cls = KINDS[kind]
    example = "\n".join(json.dumps(c.to_dict()) for c in (EXAMPLES[kind], *MORE_EXAMPLES.get(kind, ())))
    return f"### {kind}\n\n`{signature(cls)}`: {rule(kind)}\n\n```json\n{example}\n```\n"


def render() -> str:
    """The whole of docs/variants.md."""
    assert set(kinds()) == ALL_KINDS and set(EXAMPLES) == set(KINDS)
    head = f"""# Variant rules

sudokit solves variant Sudoku as well as classic: irregular regions (jigsaw) and {len(KINDS)} kinds of
constraints on top of the rows, columns and regions. This page is made by `python tools/make_variants_doc.py`
from the code (the table from each engine's `capabilities.constraints`, the rules from the docstrings of
`sudokit.model.variants`); `tests/test_variants_table.py` keeps it equal to what the tool renders.

## Which engine takes which kind

{table()}

An engine is never run on a puzzle with a kind it does not take: `sudokit.solve` returns status
`unsupported` naming the kinds, and `sudoku check` (or `sudoku solve -s all`) skips that engine for that
puzzle and says so. `puzzles/variants/corpus.txt` holds puzzles of every kind, each with one solution.

## Writing a variant puzzle

One line of JSON, in a file of puzzles or as an argument (f-puzzles and SudokuPad links are read too):

```json
{{"box": "2x2", "givens": "1...............", "constraints": [{{"kind": "diagonal", "direction": "main"}}]}}
```

`box` is the box shape (`3x3` for 9x9, `2x3` for 6x6), `givens` the puzzle's line form, `regions` (jigsaw
only) one region symbol per cell, and `constraints` a list of the objects below. Cells are written
`"r1c1"` (row 1, column 1); in Python, `sudokit.model.variants` has a class per kind, whose constructors also take
`(row, column)` pairs counted from 0, and `Grid(cells, shape, regions=..., constraints=[...])` builds
the puzzle (`sudokit.model.variants.to_json` and `sudokit.model.grid.from_json` convert).

## The kinds
"""
    return head + "".join(f"\n{section(kind)}" for kind in kinds())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with docs/variants.md instead of writing it")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        same = DOC.exists() and DOC.read_text(encoding="utf-8") == text
        print("docs/variants.md is up to date" if same else "docs/variants.md differs: run tools/make_variants_doc.py")
        return 0 if same else 1
    DOC.write_text(text, encoding="utf-8")
    print(f"wrote {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
