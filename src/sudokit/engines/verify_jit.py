"""The independent check of one 9x9 answer, compiled by numba: sudokit's own code, in processes that have numba.

:func:`sudokit.engines.verify.answer_holds` uses it only where numba is already imported (the ``numba``
engine's process; sudokit never imports numba for it) and not disabled, else its check in Python. It
shares nothing with any engine's code: a loop over the 81 cells (each a digit 1..9, each given kept),
then each row, column and box ORs its digits' bits, 2**(digit - 1), which make 511 only when its nine
digits are distinct. :func:`lines_hold9` checks a whole block of one-line 9x9 puzzles at once, read from
their text (the batch's caller: one call a block, about 0.1 us a puzzle where numpy's check of the block
and the translation of its text before it take 0.2). Compiled once per machine into numba's cache
(``NUMBA_CACHE_DIR``, which the ``numba`` engine points at sudokit's cache directory; without it,
numba's own place beside the module or in the user's cache); loading each takes about 10 ms (0.3 s to
compile).
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["lines_hold9", "solves9"]


@numba.njit(cache=True)
def solves9(solution, puzzle):  # type: ignore[no-untyped-def]
    """True when ``solution`` (81 bytes) fills every unit with 1..9 and keeps the givens of ``puzzle`` (81 bytes)."""
    if len(solution) != 81 or len(puzzle) != 81:
        return False
    for i in range(81):
        digit = solution[i]
        if digit < 1 or digit > 9 or (puzzle[i] != 0 and puzzle[i] != digit):
            return False
    for u in range(9):
        row = 0
        col = 0
        box = 0
        top = (u // 3) * 27 + (u % 3) * 3
        for k in range(9):
            row |= 1 << (solution[9 * u + k] - 1)
            col |= 1 << (solution[9 * k + u] - 1)
            box |= 1 << (solution[top + (k // 3) * 9 + k % 3] - 1)
        if row != 511 or col != 511 or box != 511:
            return False
    return True


@numba.njit(cache=True)
def lines_hold9(text, solutions):  # type: ignore[no-untyped-def]
    """True when each row of ``text`` (k x width bytes: a puzzle's 81 symbols first, "." or "0" a blank, "1".."9"
    a given) is a puzzle whose row of ``solutions`` (k x 81 digits) keeps every given and fills every unit.

    Written without a branch per cell, so that the compiler keeps whole rows in vector registers: a cell
    is right when its symbol is a blank or its digit's (one of three differences is 0) and its digit is
    at most 9 (``(digit + 6) >> 4`` is 0); each unit ORs ``1 << digit``, 1022 exactly when its nine digits
    are 1..9 (a 0 sets bit 0, a 10..15 a bit above 9).
    """
    k = solutions.shape[0]
    if text.shape[0] != k or text.shape[1] < 81 or solutions.shape[1] != 81:
        return False
    wrong = np.int32(0)
    for p in range(k):
        line = text[p]
        digits = solutions[p]
        for i in range(81):
            symbol = np.int32(line[i])
            digit = np.int32(digits[i])
            kept = min(min(symbol ^ np.int32(46), symbol ^ np.int32(48)), symbol ^ (digit + np.int32(48)))
            wrong |= kept | ((digit + np.int32(6)) >> np.int32(4))
    if wrong != 0:
        return False
    units = np.int32(0)
    for p in range(k):
        digits = solutions[p]
        for u in range(9):
            row = np.int32(0)
            col = np.int32(0)
            box = np.int32(0)
            top = (u // 3) * 27 + (u % 3) * 3
            for j in range(9):
                row |= np.int32(1) << np.int32(digits[u * 9 + j])
                col |= np.int32(1) << np.int32(digits[j * 9 + u])
                box |= np.int32(1) << np.int32(digits[top + (j // 3) * 9 + j % 3])
            units |= (row ^ np.int32(1022)) | (col ^ np.int32(1022)) | (box ^ np.int32(1022))
    return units == 0
