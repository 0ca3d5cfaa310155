"""What the language server says, in the Language Server Protocol's terms: diagnostics,
code actions and hovers made from an ``Analysis`` of a document's text.

Positions: cudalint's spans are 1-based lines and code-point columns, end exclusive; the
protocol's are 0-based lines and UTF-16 code units.
"""

from __future__ import annotations

import re
from pathlib import Path

from lsprotocol import types

from cudalint.diagnostics import Finding, Fix, Level, Notice, NoticeKind, Safety
from cudalint.ir import Span
from cudalint.rules import implemented
from cudalint.server.analysis import Analysis, FactNote

SOURCE = "cudalint"
UNSAFE_FIX = f"{types.CodeActionKind.QuickFix.value}.unsafe"
"""The kind of a fix ``--fix`` applies only when unsafe fixes are asked for."""
_SEVERITY = {
    Level.ERROR: types.DiagnosticSeverity.Error,
    Level.WARNING: types.DiagnosticSeverity.Warning,
    Level.NOTE: types.DiagnosticSeverity.Information,
}
_NOTICE_SEVERITY = {
    NoticeKind.ERROR: types.DiagnosticSeverity.Error,
    NoticeKind.INCOMPLETE: types.DiagnosticSeverity.Warning,
    NoticeKind.NOTE: types.DiagnosticSeverity.Information,
}
_NOTICE_PREFIX = {NoticeKind.ERROR: "", NoticeKind.INCOMPLETE: "analysis incomplete: ", NoticeKind.NOTE: ""}
# An existing suppression comment of the scope wanted, whose list a new code joins.
_LINE_SUPPRESSION = re.compile(r"cudalint:\s*ignore\s*\[([^\]]*)\]")
_FILE_SUPPRESSION = re.compile(r"cudalint:\s*ignore-file\s*\[([^\]]*)\]")


# ---------------------------------------------------------------------------- positions

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def lines_of(text: str) -> list[str]:
    """``text``'s lines as the compiler numbers them (``str.splitlines`` also breaks at form feeds)."""
    return _LINE_BREAK.split(text)


def character(lines: list[str], line: int, column: int) -> int:
    """The UTF-16 offset of 1-based code-point ``column`` on 1-based ``line``."""
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return len(text[: max(column - 1, 0)].encode("utf-16-le")) // 2


def column(lines: list[str], position: types.Position) -> int:
    """The 1-based code-point column of a protocol position."""
    text = lines[position.line] if 0 <= position.line < len(lines) else ""
    units = text.encode("utf-16-le")[: position.character * 2]
    return len(units.decode("utf-16-le", errors="ignore")) + 1


def span_range(lines: list[str], span: Span) -> types.Range:
    start = types.Position(max(span.line - 1, 0), character(lines, span.line, span.column))
    end = types.Position(max(span.end_line - 1, 0), character(lines, span.end_line, span.end_column))
    return types.Range(start, end if (end.line, end.character) > (start.line, start.character) else start)


def _line_range(lines: list[str], line: int) -> types.Range:
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return types.Range(types.Position(line - 1, 0), types.Position(line - 1, len(text.encode("utf-16-le")) // 2))


# ---------------------------------------------------------------------------- diagnostics


def diagnostics(analysis: Analysis, lines: list[str]) -> list[types.Diagnostic]:
    return [finding_diagnostic(f, lines) for f in analysis.findings] + [
        notice_diagnostic(n, lines) for n in analysis.notices
    ]


def finding_diagnostic(finding: Finding, lines: list[str]) -> types.Diagnostic:
    rule = implemented().get(finding.code)
    return types.Diagnostic(
        range=span_range(lines, finding.span),
        message=finding.message,
        severity=_SEVERITY[finding.level],
        code=finding.code,
        code_description=types.CodeDescription(href=rule.help_uri()) if rule is not None else None,
        source=SOURCE,
        related_information=_related(finding) or None,
    )


def _related(finding: Finding) -> list[types.DiagnosticRelatedInformation]:
    """For code a macro produced, where the macro spells it (what the text report says as
    "expanded from")."""
    spelling = finding.span.spelling
    if spelling is None:
        return []
    position = types.Position(max(spelling.line - 1, 0), max(spelling.column - 1, 0))
    return [
        types.DiagnosticRelatedInformation(
            location=types.Location(uri=Path(spelling.file).as_uri(), range=types.Range(position, position)),
            message="expanded from the macro written here",
        )
    ]


def notice_diagnostic(notice: Notice, lines: list[str]) -> types.Diagnostic:
    """A notice about the file, on its line, or on the first line when it has none."""
    message = _NOTICE_PREFIX[notice.kind] + notice.message
    if notice.kind is NoticeKind.INCOMPLETE:
        message += "; findings cover only the code that was analyzed"
    return types.Diagnostic(
        range=_line_range(lines, notice.line or 1),
        message=message,
        severity=_NOTICE_SEVERITY[notice.kind],
        source=SOURCE,
    )


# ---------------------------------------------------------------------------- code actions


def code_actions(
    analysis: Analysis, lines: list[str], uri: str, wanted: types.Range, fixes_current: bool
) -> list[types.CodeAction]:
    """For each finding on the lines of ``wanted``: its fix (when ``fixes_current``, the
    analysis being of the document's present text), then its suppressions."""
    actions: list[types.CodeAction] = []
    for finding in analysis.findings:
        if not wanted.start.line <= finding.span.line - 1 <= wanted.end.line:
            continue
        diagnostic = finding_diagnostic(finding, lines)
        if finding.fix is not None and fixes_current:
            actions.append(_fix_action(finding, finding.fix, lines, uri, diagnostic))
        actions.append(_suppress_on_line(finding, lines, uri, diagnostic))
        actions.append(_suppress_in_file(finding, lines, uri, diagnostic))
    return actions


def _fix_action(finding: Finding, fix: Fix, lines: list[str], uri: str, diagnostic) -> types.CodeAction:
    safe = fix.safety is Safety.SAFE
    edits = [types.TextEdit(span_range(lines, edit.span), edit.replacement) for edit in fix.edits]
    return types.CodeAction(
        title=f"{finding.code}: {fix.description} ({'safe' if safe else 'unsafe'} fix)",
        kind=types.CodeActionKind.QuickFix if safe else UNSAFE_FIX,
        diagnostics=[diagnostic],
        is_preferred=safe,
        edit=types.WorkspaceEdit(changes={uri: edits}),
    )


def _suppress_on_line(finding: Finding, lines: list[str], uri: str, diagnostic) -> types.CodeAction:
    """``// cudalint: ignore[CODE]`` at the end of the finding's line, or the code added to
    the line's list; before a macro's line continuation, as a block comment."""
    line = finding.span.line
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    existing = _LINE_SUPPRESSION.search(text)
    if existing is not None:
        at = types.Position(line - 1, character(lines, line, existing.end(1) + 1))
        edit = types.TextEdit(types.Range(at, at), _joined(existing, finding.code))
    else:
        body = text.rstrip()
        comment = f"cudalint: ignore[{finding.code}]"
        if body.endswith("\\"):
            at = character(lines, line, len(body))
            insert = f"/* {comment} */ "
        else:
            at = character(lines, line, len(body) + 1)
            insert = f"  // {comment}"
        edit = types.TextEdit(types.Range(types.Position(line - 1, at), types.Position(line - 1, at)), insert)
    return types.CodeAction(
        title=f"Suppress {finding.code} on this line",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        edit=types.WorkspaceEdit(changes={uri: [edit]}),
    )


def _joined(existing: re.Match, code: str) -> str:
    """What to insert at the end of an existing suppression list for it to name ``code`` too."""
    return f", {code}" if existing.group(1).strip() else code


def _suppress_in_file(finding: Finding, lines: list[str], uri: str, diagnostic) -> types.CodeAction:
    """``// cudalint: ignore-file[CODE]`` on the first line, or the code added to the file's list."""
    for number, text in enumerate(lines, 1):
        existing = _FILE_SUPPRESSION.search(text)
        if existing is not None:
            at = types.Position(number - 1, character(lines, number, existing.end(1) + 1))
            edit = types.TextEdit(types.Range(at, at), _joined(existing, finding.code))
            break
    else:
        start = types.Position(0, 0)
        edit = types.TextEdit(types.Range(start, start), f"// cudalint: ignore-file[{finding.code}]\n")
    return types.CodeAction(
        title=f"Suppress {finding.code} in this file",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        edit=types.WorkspaceEdit(changes={uri: [edit]}),
    )


# ---------------------------------------------------------------------------- hover


def hover(analysis: Analysis, lines: list[str], position: types.Position) -> types.Hover | None:
    """What the last analysis knows of the access or branch under ``position``, per kernel."""
    notes = analysis.facts_at(position.line + 1, column(lines, position))
    if not notes:
        return None
    sections = [_markdown(note) for note in notes]
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n\n---\n\n".join(sections)),
        range=span_range(lines, notes[0].span),
    )


def _markdown(note: FactNote) -> str:
    body = "\n".join((note.heading, *note.details))
    text = f"**cudalint** · `{note.kernel}` · {note.shape}\n\n```text\n{body}\n```"
    if note.picture is not None:
        text += f"\n\n```text\n{note.picture()}\n```"
    return text
