"""Rule documentation: every example does what its section says, and `cudalint rule` prints it."""

from __future__ import annotations

import pytest

from conftest import analyze, run_cli
from cudalint import __version__
from cudalint.cli import EXIT_CLEAN, EXIT_ERROR
from cudalint.diagnostics import Level
from cudalint.profile.source_lines import CLASSES
from cudalint.rules import RULES, RuleCode, RuleKind, Status, implemented

# The embedded header set: fast, and needs no CUDA installation.
HEADERS = "embedded"
SECTIONS = ("Example", "Use instead")


@pytest.fixture(scope="module")
def documented(tmp_path_factory) -> dict:
    """(code, section) -> the FileResult of analyzing that section's code block with every rule on."""
    directory = tmp_path_factory.mktemp("rule_docs")
    results = {}
    for code, rule in implemented().items():
        for number, section in enumerate(SECTIONS):
            path = directory / f"{code}_{number}.cu"
            path.write_text(rule.doc.code_block(section), encoding="utf-8")
            results[code, section] = analyze(path, HEADERS, select=list(implemented()))
    return results


STATIC = [code for code, rule in implemented().items() if rule.kind is not RuleKind.MEASURED]
MEASURED = [code for code, rule in implemented().items() if rule.kind is RuleKind.MEASURED]


@pytest.mark.parametrize("code", STATIC)
def test_example_triggers_the_rule(documented, code):
    result = documented[code, "Example"]
    assert result.analyzed and not result.notices, [n.one_line() for n in result.notices]
    assert code in {f.code for f in result.findings}


@pytest.mark.parametrize("code", STATIC)
def test_use_instead_does_not(documented, code):
    result = documented[code, "Use instead"]
    assert result.analyzed and not result.notices, [n.one_line() for n in result.notices]
    assert code not in {f.code for f in result.findings}, [f.message for f in result.findings]


@pytest.mark.parametrize("code", MEASURED)
def test_measured_rule_examples_are_what_only_the_hardware_tells(documented, code):
    """A measured rule's Example is a hazard the static analysis does not warn about (the
    profile decides); its Use instead draws no finding of the class at any level."""
    codes = CLASSES[implemented()[code].hazard_class]
    example, instead = documented[code, "Example"], documented[code, "Use instead"]
    for result in (example, instead):
        assert result.analyzed and not result.notices, [n.one_line() for n in result.notices]
    assert not [f.message for f in example.findings if f.code in codes and f.level is not Level.NOTE]
    assert not [f.message for f in instead.findings if f.code in codes]


def _invoke(*args: str):
    return run_cli("rule", *args)


@pytest.mark.parametrize("code", list(implemented()))
def test_rule_prints_the_documentation(code):
    result = _invoke(code.lower())
    assert result.exit_code == EXIT_CLEAN
    rule, row = implemented()[code], RULES[code]
    assert (
        result.stdout
        == f"# {code} {rule.name}\n\nStatus: {row.status.value} · Since: {row.since}\n\n{rule.doc.markdown}"
    )
    for section in ("What it does", "Why is this bad?", *SECTIONS):
        assert f"## {section}\n" in result.stdout


def test_all_lists_every_registered_rule():
    result = _invoke("--all")
    assert result.exit_code == EXIT_CLEAN
    titles = [line for line in result.stdout.splitlines() if line.startswith("# ")]
    assert titles == [f"# {code} {rule.name}" for code, rule in implemented().items()]


def test_unknown_code_exits_2():
    result = _invoke("CL999")
    assert result.exit_code == EXIT_ERROR and "unknown rule CL999" in result.stderr


def test_removed_code_exits_2_and_says_so(monkeypatch):
    # Every code in the table is implemented today.
    monkeypatch.setitem(RULES, "CL997", RuleCode("CL997", "removed-rule", Status.REMOVED, "0.1.0", None))
    result = _invoke("CL997")
    assert result.exit_code == EXIT_ERROR
    assert result.stderr == (
        f"cudalint: error: CL997 (removed-rule) was removed; cudalint {__version__} no longer reports it\n"
    )


def test_no_code_exits_2():
    assert _invoke().exit_code == EXIT_ERROR
