"""The README's Python session runs as shown (doctest), so the documented API cannot drift."""

from __future__ import annotations

import doctest
import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_readme_python_examples_print_what_the_readme_shows(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```python\n(.*?)```", text, flags=re.S) if ">>>" in b]
    assert blocks, "the README has no Python session"
    monkeypatch.chdir(ROOT)  # the examples open puzzles/ by relative path
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for k, block in enumerate(blocks):
        runner.run(parser.get_doctest(block, {}, f"README block {k}", os.fspath(ROOT / "README.md"), 0))
    results = runner.summarize(verbose=False)
    assert results.attempted > 0
    assert results.failed == 0
