"""Write docs/rules/<CODE>.md from each rule's docstring (the single source of rule docs).

Run after editing a rule's documentation: python scripts/generate_rule_docs.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from cudalint.rules import REGISTRY

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"


def rule_page(rule) -> str:
    header = f"# {rule.code} {rule.name}\n\nCategory: {rule.category} · Default level: {rule.default_level.value}\n\n"
    return header + rule.doc.markdown


def main() -> int:
    DOCS.mkdir(parents=True, exist_ok=True)
    for rule in REGISTRY.values():
        (DOCS / f"{rule.code}.md").write_text(rule_page(rule), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
