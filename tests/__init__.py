"""sudokit's tests (a package, so that ``tests.plugins`` can be named by entry points)."""
