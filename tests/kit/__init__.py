"""The kit's own test engines: a good reference engine and, for every check, one broken in exactly that way."""

from __future__ import annotations

import importlib

#: The modules of broken engines, one per group of checks.
GROUPS = ("api", "corpus", "metamorphic", "time", "variants")


def mutants() -> dict[str, object]:
    """Every check's broken engine, by check name (the ``MUTANTS`` of each ``mutants_*`` module)."""
    found: dict[str, object] = {}
    for group in GROUPS:
        module = importlib.import_module(f"tests.kit.mutants_{group}")
        for name, engine in module.MUTANTS.items():
            assert name not in found, f"two broken engines for check {name}"
            found[name] = engine
    return found
