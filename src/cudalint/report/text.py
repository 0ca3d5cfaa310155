"""Human-readable output: ``full`` (with source and caret) and ``concise`` (one line each)."""

from __future__ import annotations

from collections import Counter

from cudalint.diagnostics import Finding, Level
from cudalint.engine import RunResult
from cudalint.report import ReportOptions, display_path
from cudalint.rules import CATALOG, REGISTRY

_STYLES = {"bold": "1", "red": "31", "yellow": "33", "cyan": "36", "blue": "34", "dim": "2", "green": "32"}
_LEVEL_STYLE = {Level.ERROR: "red", Level.WARNING: "yellow", Level.NOTE: "cyan"}


class _Painter:
    def __init__(self, enabled: bool):
        self.enabled = enabled

    def __call__(self, text: str, *styles: str) -> str:
        if not self.enabled or not styles:
            return text
        codes = ";".join(_STYLES[s] for s in styles)
        return f"\x1b[{codes}m{text}\x1b[0m"


def _source_line(path: str, line: int, cache: dict[str, list[str]]) -> str | None:
    if path not in cache:
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                cache[path] = handle.read().splitlines()
        except OSError:
            cache[path] = []
    lines = cache[path]
    return lines[line - 1] if 0 < line <= len(lines) else None


def _full(finding: Finding, options: ReportOptions, paint: _Painter, cache: dict) -> list[str]:
    span = finding.span
    where = f"{display_path(span.file, options.root)}:{span.line}:{span.column}"
    level = finding.level.value
    out = [
        f"{paint(where, 'bold')}: {paint(level, 'bold', _LEVEL_STYLE[finding.level])}"
        f"[{paint(finding.code, 'bold')}] {finding.message}"
    ]
    source = _source_line(span.file, span.line, cache)
    if source is not None:
        gutter = str(span.line)
        width = (span.end_column - span.column) if span.end_line == span.line else len(source) - span.column + 1
        width = max(1, width)
        pad = " " * len(gutter)
        out.append(f"{paint(pad + ' |', 'blue')}")
        out.append(f"{paint(gutter + ' |', 'blue')} {source}")
        out.append(f"{paint(pad + ' |', 'blue')} {' ' * (span.column - 1)}{paint('^' * width, _LEVEL_STYLE[finding.level])}")
    if span.spelling is not None:
        out.append(f"{paint(pad + ' = note', 'blue') if source is not None else '  = note'}: expanded from macro at "
                   f"{display_path(span.spelling.file, options.root)}:{span.spelling.line}:{span.spelling.column}")
    if finding.function:
        out.append(f"{' ' * (len(str(span.line)))} {paint('= in', 'blue')} {finding.function}")
    if finding.fix is not None:
        edits = ", ".join(f"`{e.replacement}`" for e in finding.fix.edits)
        out.append(f"{' ' * (len(str(span.line)))} {paint('= fix', 'green')}: {finding.fix.description}: {edits}")
    rule = REGISTRY.get(finding.code)
    if rule is not None:
        out.append(f"{' ' * (len(str(span.line)))} {paint('= help', 'blue')}: {rule.doc.summary} (cudalint rule {finding.code})")
    out.append("")
    return out


def _concise(finding: Finding, options: ReportOptions, paint: _Painter) -> str:
    span = finding.span
    where = f"{display_path(span.file, options.root)}:{span.line}:{span.column}"
    return f"{paint(where, 'bold')}: {paint(finding.code, 'bold', _LEVEL_STYLE[finding.level])} [{finding.level.value}] {finding.message}"


def render_text(result: RunResult, options: ReportOptions, concise: bool) -> str:
    paint = _Painter(options.color)
    lines: list[str] = []
    findings = result.findings
    if options.statistics:
        counts = Counter(f.code for f in findings)
        for code, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
            lines.append(f"{count:>6}  {paint(code, 'bold')}  {CATALOG.get(code, '')}")
    else:
        cache: dict[str, list[str]] = {}
        for finding in findings:
            if concise:
                lines.append(_concise(finding, options, paint))
            else:
                lines.extend(_full(finding, options, paint, cache))
    for notice in result.notices:
        lines.append(paint(notice.one_line().replace(notice.path, display_path(notice.path, options.root), 1), "dim"))
    total = len(findings)
    if total:
        by_level = Counter(f.level for f in findings)
        detail = ", ".join(f"{by_level[level]} {level.value}{'s' if by_level[level] != 1 else ''}" for level in Level if by_level[level])
        files = len({f.path for f in findings})
        lines.append(f"Found {total} finding{'s' if total != 1 else ''} ({detail}) in {files} file{'s' if files != 1 else ''}.")
    else:
        analyzed = sum(1 for r in result.files if r.analyzed)
        lines.append(f"All checks passed ({analyzed} file{'s' if analyzed != 1 else ''} analyzed).")
    return "\n".join(lines) + "\n"
