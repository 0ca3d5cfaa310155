"""GitHub Actions workflow commands: findings appear as annotations on the pull request."""

from __future__ import annotations

from cudalint.diagnostics import Level, NoticeKind
from cudalint.engine import RunResult
from cudalint.report import ReportOptions, display_path, notice_line
from cudalint.rules import rule_name

_COMMAND = {Level.ERROR: "error", Level.WARNING: "warning", Level.NOTE: "notice"}


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(result: RunResult, options: ReportOptions) -> str:
    lines = []
    for finding in result.findings:
        span = finding.span
        title = f"{finding.code} {rule_name(finding.code)}".strip()
        properties = ",".join(
            [
                f"file={_escape_property(display_path(span.file, options.root))}",
                f"line={span.line}",
                f"col={span.column}",
                f"endLine={span.end_line}",
                f"endColumn={span.end_column}",
                f"title={_escape_property(title)}",
            ]
        )
        lines.append(f"::{_COMMAND[finding.level]} {properties}::{_escape_data(finding.message)}")
    for notice in result.notices:
        command = {NoticeKind.ERROR: "error", NoticeKind.INCOMPLETE: "warning", NoticeKind.NOTE: "notice"}[notice.kind]
        location = f"file={_escape_property(display_path(notice.path, options.root))}"
        if notice.line:
            location += f",line={notice.line},col={notice.column or 1}"
        lines.append(f"::{command} {location},title=cudalint::{_escape_data(notice_line(notice, options.root))}")
    return "\n".join(lines) + ("\n" if lines else "")
