"""``python -m sudokit``: the same as the ``sudoku`` command."""

from sudokit.cli import main

main()
