"""docs/variants.md is what tools/make_variants_doc.py renders from the code, and says what the engines declare."""

from __future__ import annotations

import importlib.util
import inspect
import re
import sys
from pathlib import Path
from types import ModuleType

from sudokit import available_strategies, capabilities_of, get_strategy
from sudokit.model.variants import ALL_KINDS, KINDS

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "variants.md"


def tool() -> ModuleType:
    """tools/make_variants_doc.py, imported from its path (tools/ is not a package)."""
    name = "make_variants_doc"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / "make_variants_doc.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def table_rows(text: str) -> tuple[list[str], dict[str, list[str]]]:
    """The engine names of the doc's kinds table, and each kind's row of marks."""
    lines = [line for line in text.splitlines() if line.startswith("| ")]
    header = [cell.strip(" `") for cell in lines[0].strip("|").split("|")]
    assert header[0] == "kind"
    rows = {}
    for line in lines[1:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        kind = re.fullmatch(r"\[`([a-z-]+)`\]\(#[a-z-]+\)", cells[0])
        assert kind, line
        rows[kind[1]] = cells[1:]
    return header[1:], rows


def test_the_doc_is_what_the_tool_renders() -> None:
    assert DOC.read_text(encoding="utf-8") == tool().render(), "run: python tools/make_variants_doc.py"


def test_the_table_says_what_each_engine_declares() -> None:
    engines, rows = table_rows(DOC.read_text(encoding="utf-8"))
    built_in = [i.name for i in available_strategies() if i.distribution == "sudokit"]
    assert engines == built_in and {"backtrack", "cp-sat", "python-constraint"} <= set(engines)
    assert set(rows) == ALL_KINDS
    for k, name in enumerate(engines):
        declared = capabilities_of(get_strategy(name)).constraints
        assert {kind for kind, marks in rows.items() if marks[k] == "yes"} == declared & ALL_KINDS, name
        assert all(marks[k] in ("yes", "no") for marks in rows.values())


def test_every_kind_has_a_section_with_its_rule() -> None:
    text = DOC.read_text(encoding="utf-8")
    for kind, cls in KINDS.items():
        section = text.split(f"\n### {kind}\n", 1)[1].split("\n### ", 1)[0]
        assert " ".join((inspect.getdoc(cls) or "").split()) in section, kind
        assert f'"kind": "{kind}"' in section, kind  # a JSON example
    assert "\n### jigsaw\n" in text


def test_the_variants_page_shows_the_same_table_of_kinds() -> None:
    doc = (ROOT / "docs" / "variants.md").read_text(encoding="utf-8")
    guide = (ROOT / "docs" / "variant-puzzles.md").read_text(encoding="utf-8")
    table = doc.split("| kind |", 1)[1].split("\n\n", 1)[0]
    assert ("| kind |" + table).replace("](#", "](variants.md#") in guide, "copy the table of docs/variants.md"
