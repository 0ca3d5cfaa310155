"""docs/rules/*.md are generated from the rule docstrings and must not drift from them."""

from __future__ import annotations

from pathlib import Path

from cudalint.rules import REGISTRY

from conftest import load_script

ROOT = Path(__file__).resolve().parent.parent


def test_every_rule_page_matches_its_docstring():
    generator = load_script("generate_rule_docs")
    for rule in REGISTRY.values():
        page = ROOT / "docs" / "rules" / f"{rule.code}.md"
        assert page.is_file(), f"missing {page}; run scripts/generate_rule_docs.py"
        assert page.read_text(encoding="utf-8") == generator.rule_page(rule), f"{page} is stale; run scripts/generate_rule_docs.py"


def test_no_pages_for_unregistered_rules():
    pages = {p.stem for p in (ROOT / "docs" / "rules").glob("*.md")}
    assert pages == set(REGISTRY)
