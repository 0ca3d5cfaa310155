"""Text, JSON and GitHub reporters, on a hand-made run (no parsing)."""

from __future__ import annotations

import json
import os
import re

import pytest

from cudalint.diagnostics import Edit, Finding, Fix, Level, Notice, NoticeKind
from cudalint.engine import FileResult, RunResult
from cudalint.ir import Position, Span
from cudalint.report import ReportOptions, display_path, render

SOURCE = "__global__ void k(float* a, int i) {\n\ta[i] = a[i] * 0.5;\n    a[i] = a[i] * 0.1;\n}\n"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture
def run(tmp_path) -> RunResult:
    path = str(tmp_path / "k.cu")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(SOURCE)
    warning = Finding(
        "CL401",
        Level.WARNING,
        "`a[i] * 0.1` runs in double precision",
        Span(path, 3, 19, 3, 22),
        fix=Fix("use single-precision literals", (Edit(Span(path, 3, 19, 3, 22), "0.1f"),)),
        function="k",
    )
    note = Finding(
        "CL401", Level.NOTE, "`a[i] * 0.5` is written in double precision", Span(path, 2, 16, 2, 19), function="k"
    )
    unused = Finding(
        "CL001",
        Level.WARNING,
        "unused suppression: no finding on this line",
        Span(path, 4, 1, 4, 1, spelling=Position(path, 1, 1)),
    )
    return RunResult(
        [
            FileResult(
                path,
                findings=[note, warning, unused],
                analyzed=True,
                notices=[Notice(path, NoticeKind.INCOMPLETE, "use of undeclared identifier 'x'", 2, 5)],
            ),
            FileResult(
                str(tmp_path / "gone.cu"), notices=[Notice(str(tmp_path / "gone.cu"), NoticeKind.ERROR, "no such file")]
            ),
        ],
        header_mode="toolkit",
    )


def _render(run, format, tmp_path, **options):
    return render(run, format, ReportOptions(root=str(tmp_path), **options))


def test_full_format(run, tmp_path):
    text = _render(run, "full", tmp_path)
    expected_warning = (
        "k.cu:3:19: warning[CL401] `a[i] * 0.1` runs in double precision\n"
        "  |\n"
        "3 |     a[i] = a[i] * 0.1;\n"
        "  |                   ^^^\n"
        "  = in k\n"
        "  = unsafe fix: use single-precision literals: `0.1f`\n"
        "  = help: Double-precision arithmetic in device code that nobody asked for. (cudalint rule CL401)\n"
    )
    assert expected_warning in text


def test_full_format_caret_follows_tabs(run, tmp_path):
    lines = _render(run, "full", tmp_path).splitlines()
    source = lines.index("2 | \ta[i] = a[i] * 0.5;")
    assert lines[source + 1] == "  | \t" + " " * 14 + "^^^"


def test_full_format_marks_every_line_of_a_multi_line_span(tmp_path):
    path = tmp_path / "long.cu"
    path.write_text("void f(float* a, int i) {\n    a[(i\n       * 2)\n\n\n      + 1] = 0;\n}\n")
    finding = Finding("CL101", Level.WARNING, "global store", Span(str(path), 2, 5, 6, 11))
    text = render(
        RunResult([FileResult(str(path), findings=[finding], analyzed=True)]), "full", ReportOptions(root=str(tmp_path))
    )
    assert (
        "  |\n2 |     a[(i\n  |     ^^^^\n3 |        * 2)\n  |        ^^^^\n. |\n6 |       + 1] = 0;\n  |       ^^^^\n"
    ) in text


def test_full_format_macro_note(run, tmp_path):
    assert "  = note: expanded from macro at k.cu:1:1" in _render(run, "full", tmp_path)


def test_concise_format(run, tmp_path):
    lines = _render(run, "concise", tmp_path).splitlines()
    assert lines[:3] == [
        "k.cu:2:16: CL401 [note] `a[i] * 0.5` is written in double precision",
        "k.cu:3:19: CL401 [warning] `a[i] * 0.1` runs in double precision",
        "k.cu:4:1: CL001 [warning] unused suppression: no finding on this line",
    ]


def test_notices_and_summary(run, tmp_path):
    lines = _render(run, "concise", tmp_path).splitlines()
    assert lines[3:] == [
        "k.cu:2:5: analysis incomplete: use of undeclared identifier 'x'",
        "gone.cu: error: no such file",
        "Found 3 findings (2 warnings, 1 note) in 1 file. 1 file could not be analyzed.",
        "No safe fix available (1 more with --fix --unsafe-fixes).",
    ]


@pytest.mark.parametrize(
    "files, summary",
    [
        (
            [FileResult("a.cu", analyzed=True), FileResult("b.cu", analyzed=True)],
            "All checks passed (2 files analyzed).",
        ),
        (
            [FileResult("a.cu", analyzed=True), FileResult("b.cu")],
            "No findings in 1 analyzed file. 1 file could not be analyzed.",
        ),
        ([], "No CUDA files to analyze."),
    ],
)
def test_summary_without_findings(files, summary):
    assert render(RunResult(files), "full", ReportOptions()).splitlines()[-1] == summary


@pytest.mark.parametrize("format", ["full", "concise"])
def test_color_adds_only_escape_codes(run, tmp_path, format):
    plain = _render(run, format, tmp_path)
    colored = _render(run, format, tmp_path, color=True)
    assert colored != plain and ANSI.sub("", colored) == plain
    assert "a[i] * 0.1" in colored


def test_statistics_table(run, tmp_path):
    lines = _render(run, "full", tmp_path, statistics=True).splitlines()
    assert lines[:2] == ["     2  CL401  implicit-fp64", "     1  CL001  unused-suppression"]
    assert "a[i]" not in "\n".join(lines)


def test_statistics_json(run, tmp_path):
    counts = json.loads(_render(run, "json", tmp_path, statistics=True))
    assert counts == [
        {"code": "CL401", "name": "implicit-fp64", "count": 2},
        {"code": "CL001", "name": "unused-suppression", "count": 1},
    ]


def test_json_format(run, tmp_path):
    document = json.loads(_render(run, "json", tmp_path))
    assert document["tool"] == "cudalint" and document["headers"] == "toolkit"
    first, second, third = document["findings"]
    assert first["file"] == "k.cu" and (first["line"], first["column"], first["end_column"]) == (2, 16, 19)
    assert first["level"] == "note" and first["name"] == "implicit-fp64" and first["fix"] is None
    assert second["fix"] == {
        "description": "use single-precision literals",
        "safety": "unsafe",
        "edits": [{"line": 3, "column": 19, "end_line": 3, "end_column": 22, "replacement": "0.1f"}],
    }
    assert third["macro_spelling"] == {"file": "k.cu", "line": 1, "column": 1}
    assert document["notices"] == [
        {"file": "k.cu", "kind": "incomplete", "message": "use of undeclared identifier 'x'", "line": 2, "column": 5},
        {"file": "gone.cu", "kind": "error", "message": "no such file", "line": None, "column": None},
    ]


def test_github_format(run, tmp_path):
    lines = _render(run, "github", tmp_path).splitlines()
    assert lines == [
        "::notice file=k.cu,line=2,col=16,endLine=2,endColumn=19,title=CL401 implicit-fp64::"
        "`a[i] * 0.5` is written in double precision",
        "::warning file=k.cu,line=3,col=19,endLine=3,endColumn=22,title=CL401 implicit-fp64::"
        "`a[i] * 0.1` runs in double precision",
        "::warning file=k.cu,line=4,col=1,endLine=4,endColumn=1,title=CL001 unused-suppression::"
        "unused suppression: no finding on this line",
        "::warning file=k.cu,line=2,col=5,title=cudalint::k.cu:2:5: analysis incomplete: "
        "use of undeclared identifier 'x'",
        "::error file=gone.cu,title=cudalint::gone.cu: error: no such file",
    ]


def test_github_escaping(tmp_path):
    path = str(tmp_path / "a,b:c.cu")
    finding = Finding("CL401", Level.ERROR, "100% slower\nsee docs", Span(path, 1, 1, 1, 2))
    (line,) = render(
        RunResult([FileResult(path, [finding], analyzed=True)]), "github", ReportOptions(root=str(tmp_path))
    ).splitlines()
    assert line == (
        "::error file=a%2Cb%3Ac.cu,line=1,col=1,endLine=1,endColumn=2,title=CL401 implicit-fp64::"
        "100%25 slower%0Asee docs"
    )


def test_display_path(tmp_path):
    assert display_path(str(tmp_path / "src" / "k.cu"), str(tmp_path)) == os.path.join("src", "k.cu")
    assert display_path(str(tmp_path / "..k.cu"), str(tmp_path)) == "..k.cu"
    outside = str(tmp_path.parent / "k.cu")
    assert display_path(outside, str(tmp_path)) == outside


def test_unknown_format():
    with pytest.raises(ValueError):
        render(RunResult([]), "xml", ReportOptions())
