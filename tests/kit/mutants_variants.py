"""Engines broken in exactly the way one check of group variants looks for: ``MUTANTS`` maps the check to one.

Each answers with sudokit's ``cp-sat`` engine (every variant kind) under its own name, but forgets
one kind's rules before it solves (a jigsaw's regions become the boxes), so that its answers on the
puzzles using that kind are wrong: a count too high, or a grid that breaks the rule. The last one
declares a kind sudokit does not know.
"""

from __future__ import annotations

from dataclasses import replace

from sudokit import Capabilities, Grid, Result, get_strategy
from sudokit.model.variants import ALL_KINDS


class ForgetsKind:
    """cp-sat, renamed, declaring every kind, that drops the rules of ``kind`` before solving."""

    description = "a broken test engine: forgets one variant kind"
    capabilities = Capabilities(constraints=ALL_KINDS)

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.name = f"broken-forgets-{kind}"
        self.inner = get_strategy("cp-sat")

    def solve(
        self, puzzle: Grid, *, limit: int = 1, time_limit: float | None = None, keep: int | None = None
    ) -> Result:
        """cp-sat's answer for ``puzzle`` without its rules of ``kind``, as this engine's answer to ``puzzle``."""
        regions = None if self.kind == "jigsaw" or not puzzle.jigsaw else puzzle.regions
        rules = [rule for rule in puzzle.constraints if rule.kind != self.kind]
        forgotten = Grid(puzzle.cells, puzzle.shape, regions=regions, constraints=rules, validate=False)
        result = self.inner.solve(forgotten, limit=limit, time_limit=time_limit, keep=keep)
        return replace(result, puzzle=puzzle, strategy=self.name)


class DeclaresUnknownKind(ForgetsKind):
    """Solves every puzzle right, but declares the kind 'sandwhich' besides the real ones."""

    capabilities = Capabilities(constraints=ALL_KINDS | {"sandwhich"})

    def __init__(self) -> None:
        super().__init__("none")
        self.name = "broken-declares-unknown-kind"


MUTANTS: dict[str, object] = {
    "declares_known_kinds": DeclaresUnknownKind(),
    **{f"variant_{kind.replace('-', '_')}": ForgetsKind(kind) for kind in sorted(ALL_KINDS)},
}
