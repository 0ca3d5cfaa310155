"""``cudalint explain FILE:LINE[:COL]``: the picture of one warp at a memory access or a
branch; and the pictures behind a run's findings, for the HTML report.

The file is parsed and its facts derived as ``cudalint facts`` does; the figures come from
``cudalint.figures`` and are drawn by ``report.pictures``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable

from cudalint import ir
from cudalint.dataflow import Facts
from cudalint.diagnostics import Finding
from cudalint.figures import PICTURED_RULES, Figure, FigureBook, Position

_POSITION = re.compile(r"^(?P<path>.+?):(?P<line>\d+)(?::(?P<column>\d+))?$")


class PositionError(ValueError):
    """A ``FILE:LINE[:COL]`` that names no file, line or access: said in one line."""


def parse_position(text: str) -> Position:
    match = _POSITION.match(text)
    if match is None:
        raise PositionError(f"{text!r} is not FILE:LINE or FILE:LINE:COLUMN")
    line = int(match["line"])
    column = int(match["column"]) if match["column"] else None
    if line < 1 or (column is not None and column < 1):
        raise PositionError(f"{text}: lines and columns count from 1")
    return Position(os.path.abspath(match["path"]), line, column)


def explain(facts: Facts, position: Position, root: str) -> list[Figure]:
    """The figures at ``position``; a ``PositionError`` when there is nothing to draw there."""
    lines = facts.tu.lines_of(position.path)
    shown = os.path.relpath(position.path, root)
    if position.line > len(lines):
        raise PositionError(f"{shown} has {len(lines)} lines; there is no line {position.line}")
    figures = FigureBook(facts, root).at(position)
    if not figures:
        where = f"{shown}:{position.line}" + (f":{position.column}" if position.column else "")
        raise PositionError(f"{where}: no memory access or branch of a kernel there")
    return figures


def finding_figures(
    findings: Iterable[Finding], parse: Callable[[str], ir.TranslationUnit], root: str
) -> dict[Finding, list[Figure]]:
    """The figures behind each finding of a memory or branch rule, each file parsed once;
    a file that cannot be parsed again leaves its findings without figures."""
    by_file: dict[str, list[Finding]] = {}
    for finding in findings:
        if finding.code in PICTURED_RULES:
            by_file.setdefault(finding.span.file, []).append(finding)
    figures: dict[Finding, list[Figure]] = {}
    for path, found in by_file.items():
        try:
            book = FigureBook(Facts(parse(path)), root)
            for finding in found:
                figures[finding] = book.for_finding(finding.code, finding.span)
        except Exception:  # noqa: BLE001, S112 - a picture is an extra: the report stands without it
            continue
    return figures
