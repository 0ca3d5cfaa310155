"""What the language server says, in the Language Server Protocol's terms: diagnostics,
code actions and hovers made from an ``Analysis`` of a document's text.

Positions: cudalint's spans are 1-based lines and code-point columns, end exclusive; the
protocol's are 0-based lines and code units of the encoding negotiated with the client
(UTF-8, UTF-16 or UTF-32: see ``Text``).
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
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
_UNIT_BYTES = {
    types.PositionEncodingKind.Utf8: (1, "utf-8"),
    types.PositionEncodingKind.Utf16: (2, "utf-16-le"),
    types.PositionEncodingKind.Utf32: (4, "utf-32-le"),
}


@dataclass(frozen=True)
class Text:
    """A document's text as one analysis read it, and the position encoding negotiated
    with the client: what turns cudalint's code-point columns into the protocol's
    characters (code units of UTF-8, UTF-16 or UTF-32) and back."""

    lines: tuple[str, ...]
    encoding: str = types.PositionEncodingKind.Utf16

    @classmethod
    def of(cls, source: str, encoding: str = types.PositionEncodingKind.Utf16) -> Text:
        # As the compiler numbers lines (``str.splitlines`` also breaks at form feeds).
        return cls(tuple(_LINE_BREAK.split(source)), encoding)

    def line(self, number: int) -> str:
        """The text of 1-based line ``number``; empty past the end."""
        return self.lines[number - 1] if 0 < number <= len(self.lines) else ""

    def _units(self, text: str) -> int:
        width, codec = _UNIT_BYTES.get(self.encoding, _UNIT_BYTES[types.PositionEncodingKind.Utf16])
        return len(text.encode(codec, errors="surrogatepass")) // width

    def character(self, line: int, column: int) -> int:
        """The protocol's character offset of 1-based code-point ``column`` on 1-based ``line``."""
        return self._units(self.line(line)[: max(column - 1, 0)])

    def column(self, position: types.Position) -> int:
        """The 1-based code-point column of a protocol position (one inside a character
        counts as that character's)."""
        text = self.line(position.line + 1)
        units = 0
        for index, char in enumerate(text):
            units += self._units(char)
            if units > position.character:
                return index + 1
        return len(text) + 1

    def position(self, line: int, column: int) -> types.Position:
        return types.Position(max(line - 1, 0), self.character(line, column))

    def span_range(self, span: Span) -> types.Range:
        start, end = self.position(span.line, span.column), self.position(span.end_line, span.end_column)
        return types.Range(start, end if (end.line, end.character) > (start.line, start.character) else start)

    def line_range(self, line: int) -> types.Range:
        return types.Range(types.Position(line - 1, 0), self.position(line, len(self.line(line)) + 1))


# ---------------------------------------------------------------------------- diagnostics


def diagnostics(analysis: Analysis, text: Text) -> list[types.Diagnostic]:
    return [finding_diagnostic(f, text) for f in analysis.findings] + [
        notice_diagnostic(n, text) for n in analysis.notices
    ]


def finding_diagnostic(finding: Finding, text: Text) -> types.Diagnostic:
    rule = implemented().get(finding.code)
    return types.Diagnostic(
        range=text.span_range(finding.span),
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


def notice_diagnostic(notice: Notice, text: Text) -> types.Diagnostic:
    """A notice about the file, on its line, or on the first line when it has none."""
    message = _NOTICE_PREFIX[notice.kind] + notice.message
    if notice.kind is NoticeKind.INCOMPLETE:
        message += "; findings cover only the code that was analyzed"
    return types.Diagnostic(
        range=text.line_range(notice.line or 1),
        message=message,
        severity=_NOTICE_SEVERITY[notice.kind],
        source=SOURCE,
    )


# ---------------------------------------------------------------------------- code actions


def code_actions(analysis: Analysis, text: Text, uri: str, wanted: types.Range) -> list[types.CodeAction]:
    """For each finding on the lines of ``wanted``: its fix, then its suppressions. ``text``
    must be the text the analysis read: every edit is placed in it."""
    actions: list[types.CodeAction] = []
    for finding in analysis.findings:
        if not wanted.start.line <= finding.span.line - 1 <= wanted.end.line:
            continue
        diagnostic = finding_diagnostic(finding, text)
        if finding.fix is not None:
            actions.append(_fix_action(finding, finding.fix, text, uri, diagnostic))
        actions.append(_suppress_on_line(finding, text, uri, diagnostic))
        actions.append(_suppress_in_file(finding, text, uri, diagnostic))
    return actions


def _fix_action(finding: Finding, fix: Fix, text: Text, uri: str, diagnostic) -> types.CodeAction:
    safe = fix.safety is Safety.SAFE
    edits = [types.TextEdit(text.span_range(edit.span), edit.replacement) for edit in fix.edits]
    return types.CodeAction(
        title=f"{finding.code}: {fix.description} ({'safe' if safe else 'unsafe'} fix)",
        kind=types.CodeActionKind.QuickFix if safe else UNSAFE_FIX,
        diagnostics=[diagnostic],
        is_preferred=safe,
        edit=types.WorkspaceEdit(changes={uri: edits}),
    )


def _suppress_on_line(finding: Finding, text: Text, uri: str, diagnostic) -> types.CodeAction:
    """``// cudalint: ignore[CODE]`` at the end of the finding's line, or the code added to
    the line's list; before a macro's line continuation, as a block comment."""
    line = finding.span.line
    existing = _LINE_SUPPRESSION.search(text.line(line))
    if existing is not None:
        at = text.position(line, existing.end(1) + 1)
        edit = types.TextEdit(types.Range(at, at), _joined(existing, finding.code))
    else:
        body = text.line(line).rstrip()
        comment = f"cudalint: ignore[{finding.code}]"
        if body.endswith("\\"):
            at, insert = text.position(line, len(body)), f"/* {comment} */ "
        else:
            at, insert = text.position(line, len(body) + 1), f"  // {comment}"
        edit = types.TextEdit(types.Range(at, at), insert)
    return types.CodeAction(
        title=f"Suppress {finding.code} on this line",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        edit=types.WorkspaceEdit(changes={uri: [edit]}),
    )


def _joined(existing: re.Match, code: str) -> str:
    """What to insert at the end of an existing suppression list for it to name ``code`` too."""
    return f", {code}" if existing.group(1).strip() else code


def _suppress_in_file(finding: Finding, text: Text, uri: str, diagnostic) -> types.CodeAction:
    """``// cudalint: ignore-file[CODE]`` on the first line, or the code added to the file's list."""
    for number, line in enumerate(text.lines, 1):
        existing = _FILE_SUPPRESSION.search(line)
        if existing is not None:
            at = text.position(number, existing.end(1) + 1)
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

HOVER_WIDTH = 80
"""Columns of the hover's text, the warp pictures' width: an 80-column float shows both unbroken."""


def hover(analysis: Analysis, text: Text, position: types.Position) -> types.Hover | None:
    """What the last analysis knows of the access or branch under ``position``, per kernel;
    where there is none, the findings under it (an fp64 expression, a local array) with
    what their rule is about."""
    line, column = position.line + 1, text.column(position)
    notes = analysis.facts_at(line, column)
    if notes:
        sections, span = [_markdown(note) for note in notes], notes[0].span
    else:
        findings = analysis.findings_at(line, column)
        if not findings:
            return None
        sections, span = [_finding_markdown(finding) for finding in findings], findings[0].span
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n\n---\n\n".join(sections)),
        range=text.span_range(span),
    )


def _wrapped(line: str) -> str:
    """``line`` broken at spaces to ``HOVER_WIDTH`` columns, its continuation lines indented
    under the line's own text."""
    indent = " " * (len(line) - len(line.lstrip(" ")) + 2)
    return (
        textwrap.fill(line, HOVER_WIDTH, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)
        or line
    )


def _markdown(note: FactNote) -> str:
    body = "\n".join(_wrapped(line) for line in (note.heading, *note.details))
    text = f"**cudalint** · `{note.kernel}` · {note.shape}\n\n```text\n{body}\n```"
    if note.picture is not None:
        text += f"\n\n```text\n{note.picture()}\n```"
    return text


def _finding_markdown(finding: Finding) -> str:
    rule = implemented().get(finding.code)
    title = f"**{finding.code}**" + (f" {rule.name} · {rule.doc.summary}" if rule is not None else "")
    link = f"\n\n[{finding.code}]({rule.help_uri()})" if rule is not None else ""
    return f"{title}\n\n```text\n{_wrapped(finding.message)}\n```{link}"
