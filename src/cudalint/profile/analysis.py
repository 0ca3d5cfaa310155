"""What the analysis contributes to the join: branch statements, suppression comments and
the facts of a line, from a parsed translation unit (the command line parses the measured
files again; the language server has the unit it just analyzed)."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from functools import cache
from pathlib import Path

from cudalint import ir
from cudalint.dataflow import DataPattern, Facts, MemorySpace, Variance
from cudalint.diagnostics import Finding
from cudalint.profile.join import LineFacts, join_file, program_slots
from cudalint.profile.measured import MeasuredLines
from cudalint.profile.source_lines import branch_statements
from cudalint.suppressions import apply_suppressions, parse_suppressions

SPACES = {"global": MemorySpace.GLOBAL, "shared": MemorySpace.SHARED}
VARIANCE_WORDS = {
    Variance.UNIFORM: "the same in every thread",
    Variance.WARP_UNIFORM: "the same within a warp",
    Variance.THREAD: "different between lanes by their thread index",
    Variance.DATA: "decided by data each thread loaded",
}


def _same_file(a: str, b: str) -> bool:
    return os.path.normpath(os.path.abspath(a)) == os.path.normpath(os.path.abspath(b))


def line_facts(path: str, tu: ir.TranslationUnit, facts: Callable[[], Facts | None]) -> LineFacts:
    """The join's view of ``path`` in ``tu``; ``facts`` computes the unit's dataflow facts,
    called only when a measured hazard no finding explains needs describing."""
    branches = branch_statements(tu, lambda file: path if _same_file(file, path) else None)
    if _same_file(tu.path, path):
        comments = tu.comments
    else:
        comments = next((h.comments for h in tu.headers if _same_file(h.path, path)), ())
    suppressions = parse_suppressions(comments)
    computed = cache(facts)

    def describe(name: str, line: int) -> tuple[str, int]:
        known = computed()
        return describe_line(known, path, name, line) if known is not None else ("", 1)

    def suppressed(finding: Finding) -> bool:
        return not apply_suppressions([finding], suppressions)

    return LineFacts({line: b for (_, line), b in branches.items()}, describe, suppressed)


def describe_line(facts: Facts, path: str, name: str, line: int) -> tuple[str, int]:
    """What cudalint derived for a class on a line: the accesses of its memory space there,
    or the branch on it, with what their cost depends on (empty when it derived nothing),
    and the column of the first of them (1 when none)."""
    parts: list[str] = []
    columns: list[int] = []
    for kernel in facts.kernels:
        if name in SPACES:
            for access, pattern in kernel.accesses:
                if (
                    access.space is not SPACES[name]
                    or access.instruction_line != line
                    or not _same_file(access.span.file, path)
                ):
                    continue
                text = facts.source_text(access.span) or f"{access.location.base}[...]"
                what = f"{access.kind.value} `{text}`"
                if pattern.data_pattern is DataPattern.GATHER:
                    what += ": its address follows an index each lane loaded at run time"
                elif pattern.data_pattern is not None:
                    what += ": each lane walks a range from a start it loaded at run time"
                elif pattern.depends_on:
                    what += f": its lanes' addresses depend on {_names(pattern.depends_on)}, known only at run time"
                elif pattern.lane_stride is not None:
                    what += f": lanes {pattern.lane_stride} bytes apart"
                parts.append(what)
                columns.append(access.span.column)
        elif name == "divergence":
            for branch, pattern in kernel.branches:
                stmt = branch.stmt
                if stmt.span.line != line or not _same_file(stmt.span.file, path):
                    continue
                condition = facts.source_text(stmt.cond.span) if stmt.cond is not None else ""
                what = f"{stmt.kind.value} `{condition}`" if condition else stmt.kind.value
                parts.append(f"{what}: {VARIANCE_WORDS.get(pattern.variance, 'of unknown variance')}")
                columns.append(stmt.span.column)
    unique = list(dict.fromkeys(parts))
    if not unique:
        return "", 1
    more = f" (and {len(unique) - 3} more)" if len(unique) > 3 else ""
    return "cudalint sees " + "; ".join(unique[:3]) + more, min(columns)


def _names(names: tuple[str, ...]) -> str:
    return ", ".join(f"`{n}`" for n in names[:4])


def apply_profile(
    result,
    lines: MeasuredLines,
    parse: Callable[[str], ir.TranslationUnit],
    enabled_for: Callable[[str], set[str]],
):
    """``result`` (an ``engine.RunResult``, every level) with each measured file's findings
    joined with its figures; ``parse`` parses a file as the run did (for its branches,
    comments and facts), ``enabled_for`` gives the codes enabled for a file."""
    from cudalint.diagnostics import Notice, NoticeKind

    total = program_slots(lines)
    units = _Units(parse)
    joined: dict[str, object] = {}
    # Sources first: the headers they lowered are joined from the same parse.
    for file_result in sorted(result.files, key=lambda r: _is_header(r.path)):
        figures = lines.figures_for(file_result.path)
        if figures is None or not file_result.analyzed:
            joined[file_result.path] = file_result
            continue
        notices = list(file_result.notices)
        context = LineFacts()
        try:
            tu = units.of(file_result.path)
        except Exception as exc:  # noqa: BLE001 - the figures still join, without the statements' bodies
            tu = None
            notices.append(Notice(file_result.path, NoticeKind.NOTE, f"profile joined without cudalint's parse: {exc}"))
        if tu is not None:
            misplaced = misplaced_lines(figures, tu.lines_of(file_result.path) or _lines_on_disk(file_result.path))
            if misplaced:
                notices.append(
                    Notice(
                        file_result.path,
                        NoticeKind.NOTE,
                        f"profile not joined: {len(misplaced)} lines with compiled code in it fall on blank or "
                        f"comment lines here (line {misplaced[0]} first): the file changed since the profiled "
                        "binary was built; build and profile it again",
                    )
                )
                joined[file_result.path] = dataclasses.replace(file_result, notices=notices)
                continue
            context = line_facts(file_result.path, tu, lambda tu=tu: units.facts(tu))
        findings = join_file(
            file_result.path, file_result.findings, figures, lines, context, enabled_for(file_result.path), total
        )
        joined[file_result.path] = dataclasses.replace(file_result, findings=findings, notices=notices)
    return dataclasses.replace(result, files=[joined[r.path] for r in result.files])


def _lines_on_disk(path: str) -> tuple[str, ...]:
    try:
        return tuple(Path(path).read_bytes().decode("utf-8", errors="replace").splitlines())
    except OSError:
        return ()


def _is_header(path: str) -> bool:
    return not path.endswith((".cu", ".cpp", ".cc", ".cxx", ".c"))


class _Units:
    """Parsed translation units, each reused for every file it lowered (a header of a
    template library is joined from the parse of the source that includes it), with their
    facts computed once, when a measured hazard needs describing."""

    def __init__(self, parse: Callable[[str], ir.TranslationUnit]):
        self.parse = parse
        self.units: list[ir.TranslationUnit] = []
        self.computed: dict[int, Facts] = {}

    def of(self, path: str) -> ir.TranslationUnit:
        for tu in self.units:
            if _same_file(tu.path, path) or any(_same_file(h.path, path) for h in tu.headers):
                return tu
        tu = self.parse(path)
        self.units.append(tu)
        return tu

    def facts(self, tu: ir.TranslationUnit) -> Facts:
        if id(tu) not in self.computed:
            self.computed[id(tu)] = Facts(tu)
        return self.computed[id(tu)]


def misplaced_lines(figures: dict, source: tuple[str, ...]) -> list[int]:
    """Measured lines with compiled code that are blank, a line comment or past the end in
    ``source``: the line table belongs to another version of the file. (A line in a block
    comment cannot be told from code that starts with ``*`` without parsing: left alone.)"""
    misplaced = []
    for line, f in sorted(figures.items()):
        if not f.sass:
            continue
        text = source[line - 1].strip() if 0 < line <= len(source) else None
        if not text or text.startswith("//"):
            misplaced.append(line)
    return misplaced
