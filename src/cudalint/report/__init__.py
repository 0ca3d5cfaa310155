"""Reporters: turn a run's findings and notices into text, JSON, SARIF or GitHub annotations."""

from __future__ import annotations

import dataclasses
import os
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from cudalint.diagnostics import Finding, Notice
from cudalint.engine import RunResult

FORMATS = ("full", "concise", "json", "sarif", "github", "html")


@dataclass(frozen=True)
class ReportOptions:
    color: bool = False
    statistics: bool = False
    """Counts per rule instead of the findings: JSON for ``json``, a table otherwise."""
    root: str = ""
    """Paths are shown relative to this directory (the repository root for SARIF)."""
    unsafe_fixes: bool = False
    """Unsafe fixes count as available (``--unsafe-fixes``): marked fixable like the safe ones."""
    figures: Mapping[Finding, list] | None = None
    """``html``: the pictures (``figures.Figure``) behind the memory and branch findings."""


def display_path(path: str, root: str) -> str:
    try:
        relative = os.path.relpath(path, root or os.getcwd())
    except ValueError:
        return path
    outside = relative == os.pardir or relative.startswith(os.pardir + os.sep)
    return path if outside else relative


def notice_line(notice: Notice, root: str) -> str:
    return dataclasses.replace(notice, path=display_path(notice.path, root)).one_line()


def rule_counts(findings: list[Finding]) -> list[tuple[str, int]]:
    """(code, number of findings), most frequent first."""
    return sorted(Counter(f.code for f in findings).items(), key=lambda item: (-item[1], item[0]))


def source_line(path: str, line: int, cache: dict[str, list[str]]) -> str | None:
    """Line ``line`` of ``path`` as it is on disk (read once per file through ``cache``)."""
    if path not in cache:
        try:
            with open(path, encoding="utf-8-sig", errors="replace") as handle:
                cache[path] = handle.read().splitlines()
        except OSError:
            cache[path] = []
    lines = cache[path]
    return lines[line - 1] if 0 < line <= len(lines) else None


def repository_root(start: str | None = None) -> str:
    """The enclosing git work tree, or the current directory outside one."""
    here = Path(start or os.getcwd()).resolve()
    for directory in (here, *here.parents):
        if (directory / ".git").exists():
            return str(directory)
    return str(here)


def render(result: RunResult, format: str, options: ReportOptions) -> str:
    if format not in FORMATS:
        raise ValueError(f"unknown format {format!r}")
    if format == "json":
        from cudalint.report.json_report import render_json, render_json_statistics

        return render_json_statistics(result) if options.statistics else render_json(result, options)
    if format in ("full", "concise") or options.statistics:
        from cudalint.report.text import render_text

        return render_text(result, options, concise=format == "concise")
    if format == "html":
        from cudalint.report.html import render_html

        return render_html(result, options)
    if format == "sarif":
        from cudalint.report.sarif import render_sarif

        return render_sarif(result, options)
    from cudalint.report.github import render_github

    return render_github(result, options)
