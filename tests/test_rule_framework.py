"""The rule contract is enforced when a rule class is defined, and layering holds."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cudalint.diagnostics import Level
from cudalint.rules import CATALOG, REGISTRY, _register
from cudalint.rules.base import FactRule, RuleDefinitionError

SRC = Path(__file__).resolve().parent.parent / "src" / "cudalint"

GOOD_DOC = """Summary line.

## What it does
Something.

## Why is this bad?
Because.

## Example
```cuda
__global__ void k() {}
```

## Use instead
```cuda
__global__ void k() {}
```
"""


def make(**overrides):
    attributes = {"code": "CL999", "name": "some-rule", "category": "precision", "default_level": Level.WARNING,
                  "__doc__": GOOD_DOC, "check": lambda self, facts: ()}
    attributes.update(overrides)
    return type("Probe", (FactRule,), attributes)


def test_a_complete_rule_is_accepted():
    rule = make()
    assert rule.doc.summary == "Summary line." and "__global__" in rule.doc.code_block("Example")


@pytest.mark.parametrize("overrides, message", [
    ({"code": "X101"}, "not of the form CL123"),
    ({"name": "Some_Rule"}, "not kebab-case"),
    ({"category": "style"}, "unknown category"),
    ({"default_level": "warning"}, "must be a Level"),
    ({"precision": "perfect"}, "precision must be one of"),
    ({"__doc__": "No sections."}, "no '## ' sections"),
    ({"__doc__": GOOD_DOC.replace("## Why is this bad?\nBecause.\n\n", "")}, "missing"),
    ({"__doc__": GOOD_DOC.replace("## Use instead", "## Instead")}, "unknown"),
    ({"__doc__": GOOD_DOC.replace("```cuda\n__global__ void k() {}\n```\n\n## Use", "nothing\n\n## Use")},
     "has no ```cuda block"),
])
def test_incomplete_rules_are_rejected(overrides, message):
    with pytest.raises(RuleDefinitionError, match=message.replace("?", r"\?").replace("(", r"\(")):
        make(**overrides)


def test_missing_metadata_is_rejected():
    with pytest.raises(RuleDefinitionError, match="missing class attribute 'code'"):
        type("NoCode", (FactRule,), {"name": "x", "category": "precision", "default_level": Level.NOTE,
                                     "__doc__": GOOD_DOC})


def test_registry_checks_the_catalog_and_duplicates():
    with pytest.raises(RuleDefinitionError, match="must be named"):
        _register(make(code="CL401", name="other-name"))
    with pytest.raises(RuleDefinitionError, match="registered twice"):
        _register(REGISTRY["CL401"], REGISTRY["CL401"])
    assert set(REGISTRY) <= set(CATALOG)


def test_only_the_frontend_imports_libclang():
    offenders = []
    for path in SRC.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            if any(name == "clang" or name.startswith("clang.") for name in names):
                if "frontend" not in path.relative_to(SRC).parts:
                    offenders.append(str(path.relative_to(SRC)))
    assert not offenders


def test_rules_read_facts_not_the_frontend():
    for path in (SRC / "rules").glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert "cudalint.frontend" not in source and "cindex" not in source, path.name
