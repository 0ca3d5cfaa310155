"""docs/rules/*.md and the README's rules table are generated from the rule table and must not drift from it."""

from __future__ import annotations

from pathlib import Path

from conftest import load_script
from cudalint.rules import implemented

ROOT = Path(__file__).resolve().parent.parent


def test_every_rule_page_matches_its_docstring():
    generator = load_script("generate_rule_docs")
    for rule in implemented().values():
        page = ROOT / "docs" / "rules" / f"{rule.code}.md"
        assert page.is_file(), f"missing {page}; run scripts/generate_rule_docs.py"
        assert page.read_text(encoding="utf-8") == generator.rule_page(rule), (
            f"{page} is stale; run scripts/generate_rule_docs.py"
        )


def test_no_pages_for_unregistered_rules():
    pages = {p.stem for p in (ROOT / "docs" / "rules").glob("*.md")}
    assert pages == set(implemented())


def test_readme_rules_table_matches_the_rule_table():
    generator = load_script("generate_rule_docs")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert generator.readme_with_table(readme) == readme, (
        "README.md's rules table is stale; run scripts/generate_rule_docs.py"
    )
