"""Suppression comments: every style, and CL001 for the ones that silence nothing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import as_expectations, expectations
from cudalint import engine, frontend, ir
from cudalint.config import Config
from cudalint.diagnostics import Finding, Level
from cudalint.rules import implemented
from cudalint.suppressions import apply_suppressions, parse_suppressions, unused_suppressions

FIXTURES = Path(__file__).parent / "fixtures" / "lint"
# The embedded header set: fast, and needs no CUDA installation.
HEADERS = "embedded"


def _comments(*lines: str) -> tuple[ir.Comment, ...]:
    """Each text is the comment on the line of the same number (1-based)."""
    return tuple(ir.Comment(number, 20, text) for number, text in enumerate(lines, start=1) if text)


def _finding(line: int, code: str = "CL401") -> Finding:
    return Finding(code, Level.WARNING, "message", ir.Span("k.cu", line, 5, line, 9))


def _run(comments, findings, enabled=None):
    """(kept findings, unused entries) the way the engine computes them; every rule ran unless ``enabled`` says."""
    suppressions = parse_suppressions(comments)
    kept = apply_suppressions(findings, suppressions)
    return kept, unused_suppressions(suppressions, list(implemented() if enabled is None else enabled))


# --- which comments suppress what ----------------------------------------------------


@pytest.mark.parametrize(
    "comment, line",
    [
        ("// cudalint: ignore[CL401]", 1),
        ("// cudalint: ignore[cl401]", 1),
        ("// cudalint: ignore[CL4]", 1),
        ("// cudalint: ignore[ALL]", 1),
        ("// cudalint: ignore", 1),
        ("/* cudalint: ignore [CL401] */", 1),
        ("// cudalint: ignore-next-line[CL401]", 2),
        ("// cudalint: ignore-file[CL401]", 7),
        ("// NOLINT(cudalint-implicit-fp64)", 1),
        ("// NOLINT(cudalint-CL401)", 1),
        ("// NOLINT(cudalint-*)", 1),
        ("// NOLINT(bugprone-*, cudalint-implicit-fp64)", 1),
        ("// NOLINT", 1),
        ("// NOLINTNEXTLINE(cudalint-implicit-fp64)", 2),
        ("// NOLINTNEXTLINE", 2),
    ],
)
def test_suppresses(comment, line):
    kept, unused = _run(_comments(comment), [_finding(line)])
    assert kept == [] and unused == []


@pytest.mark.parametrize(
    "comment, line",
    [
        ("// cudalint: ignore[CL401]", 2),  # another line
        ("// cudalint: ignore-next-line[CL401]", 1),  # its own line
        ("// cudalint: ignore[CL1]", 1),  # another rule family
        ("// cudalint: ignore-nextline[CL401]", 2),  # misspelt: not a blanket `ignore` either
        ("// cudalint: ignore-nextline[CL401]", 1),
        ("// NOLINT(bugprone-narrowing-conversions)", 1),  # another tool's check
        ("// NOLINT()", 1),
        ("// NOLINTBEGIN(cudalint-implicit-fp64)", 1),  # ranges are not supported
        ("// NOLINTNEXTLINE(cudalint-implicit-fp64)", 1),
    ],
)
def test_does_not_suppress(comment, line):
    kept, _ = _run(_comments(comment), [_finding(line)])
    assert len(kept) == 1


# --- unused suppressions --------------------------------------------------------------


def test_unused_code_is_reported_with_its_position():
    (comment,) = _comments("// cudalint: ignore[CL401]")
    _, unused = _run((comment,), [])
    assert [(u.line, u.column, u.text, u.unknown) for u in unused] == [(1, 20, "CL401", False)]


def test_only_the_unused_code_of_a_list_is_reported():
    _, unused = _run(_comments("// cudalint: ignore[CL401, CL999]"), [_finding(1)])
    assert [(u.text, u.unknown) for u in unused] == [("CL999", True)]


@pytest.mark.parametrize(
    "comment, reported",
    [
        ("// cudalint: ignore", True),
        ("// cudalint: ignore[ALL]", True),
        ("// NOLINT(cudalint-*)", True),
        ("// NOLINT", False),  # also serves clang-tidy
        ("// NOLINT(bugprone-*)", False),
        ("// NOLINT(*)", False),
        ("// cudalint: ignore[CL501]", True),
    ],
)
def test_wildcards_and_foreign_comments(comment, reported):
    _, unused = _run(_comments(comment), [])
    assert bool(unused) == reported


def test_codes_whose_rules_did_not_run_are_not_reported():
    comments = _comments(
        "// cudalint: ignore[CL401]",
        "// cudalint: ignore",
        "// NOLINT(cudalint-implicit-fp64)",
        "// cudalint: ignore[CL999]",
    )
    _, unused = _run(comments, [], enabled=("CL001",))
    assert [u.text for u in unused] == ["CL999"]


def test_a_blanket_comment_does_not_hide_its_own_unused_report():
    comments = _comments("// cudalint: ignore", "// NOLINT(cudalint-*)", "// cudalint: ignore[CL401, CL001]")
    suppressions = parse_suppressions(comments)
    cl001 = [_finding(line, "CL001") for line in (1, 2, 3)]
    kept = apply_suppressions(cl001, suppressions)
    assert [f.span.line for f in kept] == [1, 2]


def test_cl001_messages():
    comments = _comments(
        "// cudalint: ignore[CL401]",
        "// cudalint: ignore[CL999]",
        "// cudalint: ignore-file",
        "// cudalint: ignore-next-line",
        "// NOLINT(cudalint-nope)",
    )
    _, unused = _run(comments, [])
    messages = [f.message for f in implemented()["CL001"]().report("k.cu", unused)]
    assert messages == [
        "unused suppression: `CL401` (implicit-fp64) matched no finding",
        "unused suppression: unknown rule `CL999`",
        "unused suppression: no finding in this file",
        "unused suppression: no finding on the next line",
        "unused suppression: unknown rule `cudalint-nope`",
    ]


# --- a real file, parsed once -----------------------------------------------------------


@pytest.fixture(scope="module")
def parsed():
    settings = engine.default_settings(Config(), list(implemented()), header_mode=HEADERS)
    environment = frontend.build_environment(settings.frontend)
    return {
        name: frontend.parse_file(os.fspath(FIXTURES / name), environment)
        for name in ("suppressions.cu", "suppressions_multiline.cu", "ignore_file.cu")
    }


def _check(tu, enabled):
    return engine.check(tu, engine.default_settings(Config(), list(enabled), header_mode=HEADERS))


def test_every_style_in_one_file(parsed):
    findings = _check(parsed["suppressions.cu"], implemented())
    assert as_expectations(findings) == expectations(FIXTURES / "suppressions.cu")


def test_a_multiline_access_is_suppressed_from_the_line_it_starts_on(parsed):
    findings = _check(parsed["suppressions_multiline.cu"], implemented())
    assert as_expectations(findings) == expectations(FIXTURES / "suppressions_multiline.cu")


def test_selecting_only_cl001_reports_only_unknown_names(parsed):
    findings = _check(parsed["suppressions.cu"], ["CL001"])
    assert sorted((f.span.line, f.message) for f in findings) == [
        (29, "unused suppression: unknown rule `CL999`"),
        (32, "unused suppression: unknown rule `cudalint-no-such-check`"),
    ]


def test_without_cl001_unused_comments_are_silent(parsed):
    assert {f.code for f in _check(parsed["suppressions.cu"], ["CL401"])} == {"CL401"}


def test_ignore_file(parsed):
    assert _check(parsed["ignore_file.cu"], implemented()) == []
