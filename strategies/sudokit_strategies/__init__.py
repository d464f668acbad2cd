"""sudokit's built-in engines, each registered through the ``sudokit.strategies`` entry point.

Each is written as a third party's engine would be: it imports sudokit's public names only
(``from sudokit import ...``, the names of ``sudokit.__all__``). An engine of one idea is a module
(``cpsat``, ``csp``, ``sat``); one of several is a package whose ``__init__`` exports the strategy
(``backtrack``: a module per search; ``jit``: the numba engine and its compiled kernel).

Nothing is imported here: each engine is loaded only when the registry first needs it,
so running ``backtrack`` never imports OR-Tools or python-constraint.
"""
