"""Checks of group variants: one per variant kind an engine declares (``Capabilities.constraints``).

Each check skips when the engine does not declare its kind, saying so. The puzzles are the kit's
``data/variants.jsonl``: 4x4 boards whose solutions ``tools/make_kit_variants.py`` counted by brute
force over every Latin square of order 4, with the checker's own rules (``Constraint.violation``),
no engine taking part. Per kind there are puzzles with one solution, with several (up to 40) and
with none; an engine that counts must find the exact count, one that does not must solve or refute.
A puzzle is put only to an engine that declares every kind it uses (the kropki negative rule comes
with its dots, say).
"""

from __future__ import annotations

from sudokit.model.shape import Shape
from sudokit.model.variants import ALL_KINDS
from sudokit.testing import corpus
from sudokit.testing._kit import Subject, check, shown_status

__all__: list[str] = []


@check("variants")
def declares_known_kinds(subject: Subject) -> None:
    """Every variant kind the engine declares is one sudokit models (``sudokit.model.variants.ALL_KINDS``): a misspelt
    kind would never match a puzzle, and the engine would be refused rules it takes."""
    unknown = sorted(subject.capabilities.constraints - ALL_KINDS)
    if unknown:
        subject.fail(f"declares variant kinds sudokit does not know: {', '.join(unknown)}")


@check("variants")
def variant_jigsaw(subject: Subject) -> None:
    """An engine declaring 'jigsaw' (irregular regions (jigsaw) in place of the boxes)
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "jigsaw")


@check("variants")
def variant_extra_region(subject: Subject) -> None:
    """An engine declaring 'extra-region' (extra regions whose cells hold different digits)
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "extra-region")


@check("variants")
def variant_diagonal(subject: Subject) -> None:
    """An engine declaring 'diagonal' (a main diagonal of different digits (X-sudoku))
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "diagonal")


@check("variants")
def variant_anti_knight(subject: Subject) -> None:
    """An engine declaring 'anti-knight' (no digit a knight's move from itself)
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "anti-knight")


@check("variants")
def variant_anti_king(subject: Subject) -> None:
    """An engine declaring 'anti-king' (no digit a king's move from itself)
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "anti-king")


@check("variants")
def variant_non_consecutive(subject: Subject) -> None:
    """An engine declaring 'non-consecutive' (no consecutive digits in orthogonal neighbours)
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "non-consecutive")


@check("variants")
def variant_killer(subject: Subject) -> None:
    """An engine declaring 'killer' (killer cages (different digits, the sum when given))
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "killer")


@check("variants")
def variant_little_killer(subject: Subject) -> None:
    """An engine declaring 'little-killer' (little killer diagonals summing to their clue)
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "little-killer")


@check("variants")
def variant_sandwich(subject: Subject) -> None:
    """An engine declaring 'sandwich' (sandwich sums between the 1 and the n of a row or column)
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "sandwich")


@check("variants")
def variant_thermometer(subject: Subject) -> None:
    """An engine declaring 'thermometer' (thermometers increasing from the bulb)
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "thermometer")


@check("variants")
def variant_slow_thermometer(subject: Subject) -> None:
    """An engine declaring 'slow-thermometer' (slow thermometers never decreasing from the bulb)
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "slow-thermometer")


@check("variants")
def variant_arrow(subject: Subject) -> None:
    """An engine declaring 'arrow' (arrows summing to their circle)
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "arrow")


@check("variants")
def variant_kropki(subject: Subject) -> None:
    """An engine declaring 'kropki' (kropki dots (white: consecutive; black: one double the other; or of another value))
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "kropki")


@check("variants")
def variant_kropki_negative(subject: Subject) -> None:
    """An engine declaring 'kropki-negative' (kropki's negative rule (all dots given))
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "kropki-negative")


@check("variants")
def variant_xv(subject: Subject) -> None:
    """An engine declaring 'xv' (X (sum 10) and V (sum 5) clues, and clues of other sums)
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "xv")


@check("variants")
def variant_xv_negative(subject: Subject) -> None:
    """An engine declaring 'xv-negative' (the XV negative rule (all X and V given))
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "xv-negative")


@check("variants")
def variant_odd_even(subject: Subject) -> None:
    """An engine declaring 'odd-even' (odd and even cells)
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "odd-even")


@check("variants")
def variant_renban(subject: Subject) -> None:
    """An engine declaring 'renban' (renban lines (a run of consecutive digits))
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "renban")


@check("variants")
def variant_whisper(subject: Subject) -> None:
    """An engine declaring 'whisper' (German whispers lines)
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "whisper")


@check("variants")
def variant_palindrome(subject: Subject) -> None:
    """An engine declaring 'palindrome' (palindrome lines)
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "palindrome")


@check("variants")
def variant_quadruple(subject: Subject) -> None:
    """An engine declaring 'quadruple' (quadruples: digits a 2x2 square holds)
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "quadruple")


@check("variants")
def variant_pencil_marks(subject: Subject) -> None:
    """An engine declaring 'pencil-marks' (given pencil marks: digits a cell is limited to)
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "pencil-marks")


@check("variants")
def variant_min_max(subject: Subject) -> None:
    """An engine declaring 'min-max' (minimum and maximum cells, below or above their neighbours)
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "min-max")


@check("variants")
def variant_disjoint_groups(subject: Subject) -> None:
    """An engine declaring 'disjoint-groups' (cells in the same place of their boxes hold different digits)
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "disjoint-groups")


@check("variants")
def variant_clone(subject: Subject) -> None:
    """An engine declaring 'clone' (clones: cells and their moved copy hold the same digits)
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "clone")


@check("variants")
def variant_between_line(subject: Subject) -> None:
    """An engine declaring 'between-line' (between lines)
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "between-line")


@check("variants")
def variant_region_sum_line(subject: Subject) -> None:
    """An engine declaring 'region-sum-line' (region sum lines)
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "region-sum-line")


@check("variants")
def variant_entropic_line(subject: Subject) -> None:
    """An engine declaring 'entropic-line' (entropic lines) finds the exact number of solutions of each shipped 6x6
    puzzle using it (one, several, none), and the solution where there is one (no 4x4 board takes one)."""
    _solves_kind(subject, "entropic-line")


@check("variants")
def variant_modular_line(subject: Subject) -> None:
    """An engine declaring 'modular-line' (modular lines)
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "modular-line")


@check("variants")
def variant_zipper_line(subject: Subject) -> None:
    """An engine declaring 'zipper-line' (zipper lines)
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "zipper-line")


@check("variants")
def variant_lockout_line(subject: Subject) -> None:
    """An engine declaring 'lockout-line' (lockout lines)
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "lockout-line")


@check("variants")
def variant_nabner_line(subject: Subject) -> None:
    """An engine declaring 'nabner-line' (nabner lines)
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "nabner-line")


@check("variants")
def variant_double_arrow(subject: Subject) -> None:
    """An engine declaring 'double-arrow' (double arrows)
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "double-arrow")


#: The kinds whose shipped puzzles are 6x6 (their rule needs a side that splits into thirds).
_ON_6X6 = {"entropic-line"}


@check("variants")
def variant_x_sum(subject: Subject) -> None:
    """An engine declaring 'x-sum' (X-sums: the first X cells from an outside clue sum to it, X the first digit)
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "x-sum")


@check("variants")
def variant_skyscraper(subject: Subject) -> None:
    """An engine declaring 'skyscraper' (skyscrapers: an outside clue counts the digits seen, taller hiding lower)
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "skyscraper")


@check("variants")
def variant_indexer(subject: Subject) -> None:
    """An engine declaring 'indexer' (row, column and box indexers: a cell's digit says where a digit goes)
    finds the exact number of solutions of each shipped 4x4 puzzle using it (one, several, none), and the solution
    where there is one."""
    _solves_kind(subject, "indexer")


def _solves_kind(subject: Subject, kind: str) -> None:
    """Every shipped puzzle using ``kind`` (and only kinds the engine declares) counted exactly, or solved."""
    declared = subject.capabilities.constraints
    if kind not in declared:
        subject.skip(f"does not declare the variant kind {kind!r}")
    shape = corpus.VARIANT_SHAPE if kind not in _ON_6X6 else Shape.of(2, 3)
    shape_problem = subject.capabilities.shape_problem(shape)
    if shape_problem is not None:
        subject.skip(shape_problem)
    known = [
        k
        for k in corpus.variants()
        if kind in k.puzzle.kinds and k.puzzle.kinds <= declared and k.puzzle.shape == shape
    ]
    if not known:
        subject.skip(f"no shipped puzzle uses {kind!r} with only kinds it declares")
    counting = subject.capabilities.counting
    for k in known:
        limit = k.count + 1 if counting else 1
        result = subject.answer(k.puzzle, limit=limit)
        where = f" ({k.where})"
        if counting and (result.count, result.exact) != (k.count, True):
            said = f"{result.count}{'' if result.exact else '+'}"
            subject.fail(f"counted {said} solutions with limit {limit}, not exactly {k.count}{where}", k.puzzle)
        if not counting and (result.count == 0) != (k.count == 0):
            subject.fail(
                f"returned {shown_status(result.status)}, but the puzzle has {k.count} solutions{where}", k.puzzle
            )
        if k.solution is not None and result.solution != k.solution:
            subject.fail(f"returned a solution other than the only one{where}", k.puzzle)
