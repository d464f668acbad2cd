"""The independent check of one 9x9 answer, compiled by numba: sudokit's own code, in processes that have numba.

:func:`sudokit.engines.verify.answer_holds` uses it only where numba is already imported (the ``numba``
engine's process; sudokit never imports numba for it) and not disabled, else its check in Python. It
shares nothing with any engine's code: a loop over the 81 cells (each a digit 1..9, each given kept),
then each row, column and box ORs its digits' bits, 2**(digit - 1), which make 511 only when its nine
digits are distinct. Compiled once per machine into numba's cache (``NUMBA_CACHE_DIR``, which the
``numba`` engine points at sudokit's cache directory; without it, numba's own place beside the module
or in the user's cache); loading it takes about 10 ms (0.3 s to compile).
"""

from __future__ import annotations

import numba

__all__ = ["solves9"]


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
