"""The rule contract is enforced when a rule class is defined, and layering holds."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from conftest import analyze
from cudalint import __version__, dataflow, rules
from cudalint.config import enabled_rules, parse_selectors
from cudalint.diagnostics import Level
from cudalint.ir import Comment
from cudalint.rules import RULES, RuleCode, RuleKind, Status, _table, implemented, of_kind
from cudalint.rules.base import FactRule, Rule, RuleDefinitionError, SuppressionRule
from cudalint.suppressions import parse_suppressions, unused_suppressions

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
    attributes = {
        "code": "CL999",
        "name": "some-rule",
        "category": "precision",
        "default_level": Level.WARNING,
        "__doc__": GOOD_DOC,
        "check": lambda self, facts: (),
    }
    attributes.update(overrides)
    return type("Probe", (FactRule,), attributes)


def test_a_complete_rule_is_accepted():
    rule = make()
    assert rule.doc.summary == "Summary line." and "__global__" in rule.doc.code_block("Example")


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"code": "X101"}, "not of the form CL123"),
        ({"name": "Some_Rule"}, "not kebab-case"),
        ({"category": "style"}, "unknown category"),
        ({"default_level": "warning"}, "must be a Level"),
        ({"precision": "perfect"}, "precision must be one of"),
        ({"__doc__": "No sections."}, "no '## ' sections"),
        ({"__doc__": GOOD_DOC.replace("## Why is this bad?\nBecause.\n\n", "")}, "missing"),
        ({"__doc__": GOOD_DOC.replace("## Use instead", "## Instead")}, "unknown"),
        (
            {"__doc__": GOOD_DOC.replace("```cuda\n__global__ void k() {}\n```\n\n## Use", "nothing\n\n## Use")},
            "has no ```cuda block",
        ),
    ],
)
def test_incomplete_rules_are_rejected(overrides, message):
    with pytest.raises(RuleDefinitionError, match=message.replace("?", r"\?").replace("(", r"\(")):
        make(**overrides)


def test_missing_metadata_is_rejected():
    with pytest.raises(RuleDefinitionError, match="missing class attribute 'code'"):
        type(
            "NoCode",
            (FactRule,),
            {"name": "x", "category": "precision", "default_level": Level.NOTE, "__doc__": GOOD_DOC},
        )


def test_the_table_checks_names_classes_and_duplicates():
    cl401 = RULES["CL401"]
    renamed = _table(RuleCode("CL401", "other-name", Status.STABLE, "0.1.0", cl401.location))["CL401"]
    with pytest.raises(RuleDefinitionError, match="the table says CL401 'other-name'"):
        renamed.rule  # noqa: B018 - the class is checked when it is first imported
    with pytest.raises(RuleDefinitionError, match="twice"):
        _table(cl401, cl401)
    with pytest.raises(RuleDefinitionError, match="has a class unless it was removed"):
        _table(RuleCode("CL401", "implicit-fp64", Status.REMOVED, "0.1.0", cl401.location))
    with pytest.raises(RuleDefinitionError, match="has a class unless it was removed"):
        _table(RuleCode("CL999", "gone", Status.STABLE, "0.1.0", None))
    with pytest.raises(RuleDefinitionError, match="not a release version"):
        _table(RuleCode("CL401", "implicit-fp64", Status.STABLE, "next", cl401.location))


def test_every_rule_came_in_a_release_up_to_this_one():
    """``since`` names a release no later than the version being built (add_rule.py writes it)."""

    def release(version: str) -> tuple[int, ...]:
        return tuple(int(part) for part in version.split("."))

    assert all(release(row.since) <= release(__version__) for row in RULES.values())


def test_a_rule_must_say_what_it_reads():
    with pytest.raises(RuleDefinitionError, match="derive from FactRule, SuppressionRule or MeasuredRule"):
        type(
            "Neither",
            (Rule,),
            {"code": "CL999", "name": "x", "category": "precision", "default_level": Level.NOTE, "__doc__": GOOD_DOC},
        )


def test_kinds_come_from_the_base_class():
    assert {code for code, rule in implemented().items() if issubclass(rule, SuppressionRule)} == {"CL001"}
    assert of_kind(RuleKind.SUPPRESSIONS, list(RULES)) == [RULES["CL001"].rule]
    assert all(issubclass(rule, FactRule) for rule in of_kind(RuleKind.FACTS, list(RULES)))


@pytest.fixture
def with_preview_and_removed(monkeypatch):
    """The table with a preview rule CL998 and a removed rule CL997 added."""
    preview = make(code="CL998", name="preview-rule")
    monkeypatch.setitem(rules._LOADED, "preview_rule:PreviewRule", preview)  # a class made here, in no module
    monkeypatch.setitem(
        RULES, "CL998", RuleCode("CL998", "preview-rule", Status.PREVIEW, "0.4.0", "preview_rule:PreviewRule")
    )
    monkeypatch.setitem(RULES, "CL997", RuleCode("CL997", "removed-rule", Status.REMOVED, "0.1.0", None))
    return preview


@pytest.mark.parametrize(
    "select, enabled",
    [
        (None, False),
        (["ALL"], False),
        (["CL9"], False),
        (["CL99"], False),
        (["CL998"], True),
        (["CL997"], False),
    ],
)
def test_preview_rules_run_only_when_named_and_removed_ones_never(with_preview_and_removed, select, enabled):
    codes = enabled_rules(select, [], [])
    assert ("CL998" in codes) == enabled
    assert "CL997" not in codes
    assert parse_selectors(["CL997"], where="select") == ["CL997"]


def test_the_engine_runs_a_preview_rule_when_named(with_preview_and_removed, tmp_path):
    with_preview_and_removed.check = lambda self, facts: [
        self.finding("seen", kernel.function.span) for kernel in facts.kernels
    ]
    path = tmp_path / "k.cu"
    path.write_text("__global__ void k(float* a) { a[threadIdx.x] = 0.0f; }\n")
    assert [f.code for f in analyze(path, select=enabled_rules(["CL998"], [], [])).findings] == ["CL998"]
    assert "CL998" not in {f.code for f in analyze(path, select=enabled_rules(["ALL"], [], [])).findings}


def test_a_comment_naming_a_removed_rule_is_neither_stale_nor_unknown(with_preview_and_removed):
    suppressions = parse_suppressions((Comment(1, 1, "// cudalint: ignore[CL997]"),))
    assert unused_suppressions(suppressions, enabled_rules(None, [], [])) == []


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


MAX_MODULE_LINES = 800
# Modules known to be longer, each with why; the list is meant to be empty.
LONG_MODULES: set[str] = set()


def test_no_module_passes_800_lines():
    """A module past ~800 lines holds more than one concern: split it (CONTRIBUTING.md, Style)."""
    lengths = {
        path.relative_to(SRC).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in SRC.rglob("*.py")
    }
    too_long = sorted(
        f"{name}: {lines} lines"
        for name, lines in lengths.items()
        if lines > MAX_MODULE_LINES and name not in LONG_MODULES
    )
    assert not too_long, f"modules over {MAX_MODULE_LINES} lines:\n" + "\n".join(too_long)
    assert all(lengths.get(name, 0) > MAX_MODULE_LINES for name in LONG_MODULES), "an exception no longer needed"


def test_rules_read_facts_not_the_frontend():
    for path in (SRC / "rules").glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert "cudalint.frontend" not in source and "cindex" not in source, path.name


DATAFLOW_SUBMODULES = frozenset(
    {module.stem for module in (SRC / "dataflow").glob("*.py") if module.stem != "__init__"}
    | {package.parent.name for package in (SRC / "dataflow").glob("*/__init__.py")}
)


def _dataflow_submodule_imports(path: Path, package_root: Path = SRC) -> list[str]:
    """``file:line`` of each import of a ``cudalint.dataflow`` submodule in ``path`` (a file
    of the package at ``package_root``), in any form: ``import cudalint.dataflow.x``,
    ``from cudalint.dataflow.x import y``, ``from cudalint.dataflow import x`` with ``x`` a
    module, and relative imports that resolve to one of those."""
    where = path.relative_to(package_root.parent)
    package = where.with_suffix("").parts[:-1]
    offenders = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else ()
            module = ".".join([*base, *([node.module] if node.module else [])])
            modules = [module, *(f"{module}.{alias.name}" for alias in node.names)]
        else:
            continue
        for module in modules:
            parts = module.split(".")
            if parts[:2] == ["cudalint", "dataflow"] and len(parts) > 2 and parts[2] in DATAFLOW_SUBMODULES:
                offenders.append(f"{where.as_posix()}:{node.lineno}: imports {module}")
                break
    return offenders


def test_rules_import_only_what_dataflow_exports():
    offenders = [line for path in sorted((SRC / "rules").glob("*.py")) for line in _dataflow_submodule_imports(path)]
    assert not offenders, "rules read only what cudalint.dataflow exports:\n" + "\n".join(offenders)


@pytest.mark.parametrize("module", ["figures.py", "report/facts.py"])
def test_figures_and_facts_import_only_what_dataflow_exports(module):
    """The pictures and ``cudalint facts`` show what the rules read: the exported facts."""
    offenders = _dataflow_submodule_imports(SRC / module)
    assert not offenders, f"{module} reads only what cudalint.dataflow exports:\n" + "\n".join(offenders)
    imported = {
        alias.name
        for node in ast.walk(ast.parse((SRC / module).read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.module == "cudalint.dataflow"
        for alias in node.names
    }
    assert imported <= set(dataflow.__all__), sorted(imported - set(dataflow.__all__))


@pytest.mark.parametrize(
    ("statement", "flagged"),
    [
        ("from cudalint.dataflow.symbolic import Sym", "cudalint.dataflow.symbolic"),
        ("import cudalint.dataflow.symbolic", "cudalint.dataflow.symbolic"),
        ("import cudalint.dataflow.symbolic as symbolic", "cudalint.dataflow.symbolic"),
        ("from cudalint.dataflow import Facts, symbolic", "cudalint.dataflow.symbolic"),
        ("from ..dataflow.symbolic import Sym", "cudalint.dataflow.symbolic"),
        ("from ..dataflow import symbolic", "cudalint.dataflow.symbolic"),
        ("from cudalint.dataflow.interpret.loops import static_trips", "cudalint.dataflow.interpret.loops"),
        ("from cudalint.dataflow import interpret", "cudalint.dataflow.interpret"),
        ("from .. import dataflow", None),
        ("from cudalint.dataflow import Facts, Sym", None),
    ],
)
def test_the_layering_check_names_each_import_of_a_dataflow_submodule(tmp_path, statement, flagged):
    probe = tmp_path / "cudalint" / "rules" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text(f"from cudalint.dataflow import Facts\n\n{statement}\n", encoding="utf-8")
    expected = [f"cudalint/rules/probe.py:3: imports {flagged}"] if flagged else []
    assert _dataflow_submodule_imports(probe, tmp_path / "cudalint") == expected
