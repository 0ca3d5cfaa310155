"""Machine-readable JSON: one object with findings and file notices."""

from __future__ import annotations

import json

from cudalint import __version__
from cudalint.diagnostics import Finding
from cudalint.engine import RunResult
from cudalint.report import ReportOptions, display_path, rule_counts
from cudalint.rules import rule_name


def finding_record(finding: Finding, root: str) -> dict:
    span = finding.span
    record = {
        "code": finding.code,
        "name": rule_name(finding.code) or None,
        "level": finding.level.value,
        "message": finding.message,
        "file": display_path(span.file, root),
        "line": span.line,
        "column": span.column,
        "end_line": span.end_line,
        "end_column": span.end_column,
        "function": finding.function,
        "fix": None,
        "properties": finding.properties,
    }
    if span.spelling is not None:
        record["macro_spelling"] = {
            "file": display_path(span.spelling.file, root),
            "line": span.spelling.line,
            "column": span.spelling.column,
        }
    if finding.fix is not None:
        record["fix"] = {
            "description": finding.fix.description,
            "safety": finding.fix.safety.value,
            "edits": [
                {
                    "line": e.span.line,
                    "column": e.span.column,
                    "end_line": e.span.end_line,
                    "end_column": e.span.end_column,
                    "replacement": e.replacement,
                }
                for e in finding.fix.edits
            ],
        }
    return record


def render_json(result: RunResult, options: ReportOptions) -> str:
    document = {
        "tool": "cudalint",
        "version": __version__,
        "headers": result.header_mode,
        "findings": [finding_record(f, options.root) for f in result.findings],
        "notices": [
            {
                "file": display_path(n.path, options.root),
                "kind": n.kind.value,
                "message": n.message,
                "line": n.line,
                "column": n.column,
            }
            for n in result.notices
        ],
    }
    return json.dumps(document, indent=2) + "\n"


def render_json_statistics(result: RunResult) -> str:
    counts = [
        {"code": code, "name": rule_name(code) or None, "count": count} for code, count in rule_counts(result.findings)
    ]
    return json.dumps(counts, indent=2) + "\n"
