"""Reporters: turn a run's findings and notices into text, JSON, SARIF or GitHub annotations."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from cudalint.engine import RunResult

FORMATS = ("full", "concise", "json", "sarif", "github")


@dataclass(frozen=True)
class ReportOptions:
    color: bool = False
    statistics: bool = False
    root: str = ""
    """Paths are shown relative to this directory (the repository root for SARIF)."""


def display_path(path: str, root: str) -> str:
    try:
        relative = os.path.relpath(path, root or os.getcwd())
    except ValueError:
        return path
    return path if relative.startswith("..") else relative


def repository_root(start: str | None = None) -> str:
    """The enclosing git work tree, or the current directory outside one."""
    here = Path(start or os.getcwd()).resolve()
    for directory in (here, *here.parents):
        if (directory / ".git").exists():
            return str(directory)
    return str(here)


def render(result: RunResult, format: str, options: ReportOptions) -> str:
    if format in ("full", "concise"):
        from cudalint.report.text import render_text

        return render_text(result, options, concise=format == "concise")
    if format == "json":
        from cudalint.report.json_report import render_json

        return render_json(result, options)
    if format == "sarif":
        from cudalint.report.sarif import render_sarif

        return render_sarif(result, options)
    if format == "github":
        from cudalint.report.github import render_github

        return render_github(result, options)
    raise ValueError(f"unknown format {format!r}")
