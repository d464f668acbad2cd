"""sudokit's built-in engines, each registered through the ``sudokit.strategies`` entry point.

Nothing is imported here: each engine's module is loaded only when the registry first needs it,
so running ``backtrack`` never imports OR-Tools or python-constraint.
"""
