"""Human-readable output: ``full`` (with source and caret) and ``concise`` (one line each).

Colors are plain ANSI codes around text that is otherwise written verbatim: a markup
renderer would swallow source such as ``a[i]`` as a style tag.
"""

from __future__ import annotations

from collections import Counter

from cudalint.diagnostics import Finding, Level
from cudalint.engine import RunResult
from cudalint.report import ReportOptions, display_path, notice_line, rule_counts, source_line
from cudalint.rules import RULES, rule_name

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


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'s' if count != 1 else ''}"


_MOST_LINES_SHOWN = 4
"""A longer span shows its first lines and its last one."""


def _caret(source: str, start: int, end: int | None) -> str:
    """Carets under ``source`` from column ``start`` up to ``end`` (exclusive; None: the end of the line)."""
    stop = len(source) + 1 if end is None else end
    # Keep tabs so the caret lines up under the code whatever the tab width.
    indent = "".join("\t" if char == "\t" else " " for char in source[: start - 1])
    return indent + "^" * max(1, stop - start)


def _excerpt(span, cache: dict) -> list[tuple[int, str, str]]:
    """(line number, source, carets) for each line the span covers that is worth showing:
    the first from the span's column, the others from their first character, the last up
    to the span's end."""
    numbers = list(range(span.line, max(span.line, span.end_line) + 1))
    if len(numbers) > _MOST_LINES_SHOWN:
        numbers = numbers[: _MOST_LINES_SHOWN - 1] + numbers[-1:]
    shown = []
    for number in numbers:
        source = source_line(span.file, number, cache)
        if source is None or (number != span.line and not source.strip()):
            continue
        start = span.column if number == span.line else len(source) - len(source.lstrip()) + 1
        end = span.end_column if number == span.end_line else None
        shown.append((number, source, _caret(source, start, end)))
    return shown


def _fixable(finding: Finding, options: ReportOptions) -> str:
    """``[*] `` before the message of a finding ``--fix`` fixes (as ruff marks them)."""
    return "[*] " if _applies(finding, options.unsafe_fixes) else ""


def _applies(finding: Finding, unsafe: bool) -> bool:
    return finding.fix is not None and finding.fix.applies(unsafe)


def _full(finding: Finding, options: ReportOptions, paint: _Painter, cache: dict) -> list[str]:
    span = finding.span
    where = f"{display_path(span.file, options.root)}:{span.line}:{span.column}"
    style = _LEVEL_STYLE[finding.level]
    level = paint(finding.level.value, "bold", style)
    out = [
        f"{paint(where, 'bold')}: {level}[{paint(finding.code, 'bold')}] {_fixable(finding, options)}{finding.message}"
    ]
    excerpt = _excerpt(span, cache)
    width = len(str(excerpt[-1][0] if excerpt else span.line))
    pad = " " * width
    if excerpt:
        out.append(paint(f"{pad} |", "blue"))
        previous = None
        for number, source, carets in excerpt:
            if previous is not None and number != previous + 1:
                out.append(paint(f"{'.' * width} |", "blue"))
            out.append(f"{paint(f'{number:>{width}} |', 'blue')} {source}")
            out.append(f"{paint(f'{pad} |', 'blue')} {paint(carets, style)}")
            previous = number
    if span.spelling is not None:
        out.append(
            f"{pad} {paint('= note', 'blue')}: expanded from macro at "
            f"{display_path(span.spelling.file, options.root)}:{span.spelling.line}:{span.spelling.column}"
        )
    if finding.function:
        out.append(f"{pad} {paint('= in', 'blue')} {finding.function}")
    if finding.fix is not None:
        edits = ", ".join(f"`{e.replacement}`" for e in finding.fix.edits)
        kind = f"= {finding.fix.safety.value} fix"
        out.append(f"{pad} {paint(kind, 'green')}: {finding.fix.description}: {edits}")
    row = RULES.get(finding.code)
    if row is not None and row.rule is not None:
        out.append(f"{pad} {paint('= help', 'blue')}: {row.rule.doc.summary} (cudalint rule {finding.code})")
    out.append("")
    return out


def _concise(finding: Finding, options: ReportOptions, paint: _Painter) -> str:
    span = finding.span
    where = f"{display_path(span.file, options.root)}:{span.line}:{span.column}"
    code = paint(finding.code, "bold", _LEVEL_STYLE[finding.level])
    return f"{paint(where, 'bold')}: {code} {_fixable(finding, options)}[{finding.level.value}] {finding.message}"


def _fix_summary(result: RunResult, options: ReportOptions) -> list[str]:
    """What --fix did, and what it (or --unsafe-fixes) would do for the findings shown."""
    lines = [f"Fixed {_plural(result.fixed, 'finding')}."] if result.fixed else []
    now = sum(1 for f in result.findings if _applies(f, options.unsafe_fixes))
    unsafe = sum(1 for f in result.findings if _applies(f, True)) - now
    more = f"{unsafe} more with --fix --unsafe-fixes" if unsafe else ""
    if now:
        lines.append(f"[*] {now} fixable with --fix" + (f" ({more})." if more else "."))
    elif more:
        lines.append(f"No safe fix available ({more}).")
    return lines


def _summary(result: RunResult) -> str:
    findings = result.findings
    analyzed = sum(1 for r in result.files if r.analyzed)
    failed = len(result.files) - analyzed
    if not result.files:
        return "No CUDA files to analyze."
    if findings:
        by_level = Counter(f.level for f in findings)
        detail = ", ".join(_plural(by_level[level], level.value) for level in Level if by_level[level])
        files = len({f.path for f in findings})
        summary = f"Found {_plural(len(findings), 'finding')} ({detail}) in {_plural(files, 'file')}."
    elif failed:
        summary = f"No findings in {_plural(analyzed, 'analyzed file')}."
    else:
        summary = f"All checks passed ({_plural(analyzed, 'file')} analyzed)."
    if failed:
        summary += f" {_plural(failed, 'file')} could not be analyzed."
    if result.hidden:
        levels = ", ".join(_plural(count, level.value) for level, count in result.hidden.items())
        lowest = max(result.hidden, key=lambda level: level.rank).value
        summary += f" Not shown: {levels} (--min-level {lowest} shows them)."
    return summary


def render_text(result: RunResult, options: ReportOptions, concise: bool) -> str:
    paint = _Painter(options.color)
    lines: list[str] = []
    if options.statistics:
        for code, count in rule_counts(result.findings):
            lines.append(f"{count:>6}  {paint(code, 'bold')}  {rule_name(code)}")
    else:
        cache: dict[str, list[str]] = {}
        for finding in result.findings:
            if concise:
                lines.append(_concise(finding, options, paint))
            else:
                lines.extend(_full(finding, options, paint, cache))
    for notice in result.notices:
        lines.append(paint(notice_line(notice, options.root), "dim"))
    lines.append(_summary(result))
    if not options.statistics:
        lines.extend(_fix_summary(result, options))
    return "\n".join(lines) + "\n"
