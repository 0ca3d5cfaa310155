"""Translation units: which files are parsed, and how their results become each file's findings.

A run's files are its *scope*: what it reports on. Each file is parsed once at most, and
a file that another one includes is not parsed at all: it is analyzed inside the file
that includes it, where the macros and types it uses are defined and where its kernels
are launched. So a project header, or a kernel file written to be included, gets the
block shape of the launch in its includer, and is reported at its own lines.

One header can be analyzed in several translation units, each knowing more or less about
how its kernels are launched. For each function body, the analyses that covered it are
ranked by where their block shape came from (a launch, then ``__launch_bounds__``, then
an assumption); only the findings of the best-informed ones are kept, and a finding made
by several is reported once. Suppression comments and ``per-file-ignores`` are applied
after that merge, so that a header's suppressions act once, on its merged findings.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable
from dataclasses import dataclass, field

from cudalint import frontend, ir
from cudalint.diagnostics import Finding, Notice, NoticeKind
from cudalint.launches import LaunchRecord

RECOVERED_CODE = " (in code the parser recovered from errors)"
"""Said after the message of a finding in a function that had parse errors."""

BodyKey = tuple[int, int]
"""A function definition by where it starts in its file: the same in every unit."""


@dataclass(frozen=True)
class Unit:
    """One parse: ``main`` with the project directories and recovery it needs."""

    main: str
    include_dirs: tuple[str, ...] = ()
    """Directories of the project holding headers the search path misses."""
    legacy_api: bool = False
    """Whether the declarations of the removed runtime API are included up front."""
    own: tuple[str, ...] = ()
    """Headers of the run whose functions this unit lowers as written, those nothing calls
    among them, as it does ``main``'s: the run's files it is the first unit to cover. In
    other units, and in headers outside the run (a library's), a header's inline and
    template device code is lowered only where kernels reach it."""


@dataclass(frozen=True)
class RankedFinding:
    finding: Finding
    body: BodyKey | None
    """The function definition the finding lies in."""
    rank: int | None
    """How informed the analysis that made it was about the block shape; None when the
    finding does not come from one kernel's analysis."""


@dataclass
class FileReport:
    """What one unit found in one file, before suppressions."""

    findings: list[RankedFinding] = field(default_factory=list)
    coverage: dict[BodyKey, int] = field(default_factory=dict)
    """For each function body, the rank of the best analysis in this unit that went through it."""
    comments: tuple[ir.Comment, ...] = ()


@dataclass
class UnitResult:
    main: str
    files: dict[str, FileReport] = field(default_factory=dict)
    """Every file with code in the unit, the toolkit's aside."""
    errors: tuple[ir.ParseError, ...] = ()
    notices: list[Notice] = field(default_factory=list)
    """About the unit as a whole (time limit, internal error, ``--ptxas``), at ``main``."""
    includes: tuple[str, ...] = ()
    """The files the parse read besides ``main``."""
    analyzed: bool = False
    internal_error: bool = False
    timed_out: bool = False
    seconds: float = 0.0
    """Processor time of the parse and the analysis."""
    launches: tuple[LaunchRecord, ...] = ()
    """The unit's launches, evaluated in its host code: its part of the run's launch index."""
    kernels: tuple[tuple[str, str], ...] = ()
    """The kernels analyzed here for a file with code in the unit, as (declaration id,
    name): those that launches in other units may speak for."""

    @property
    def covered(self) -> set[str]:
        return {self.main, *self.includes} if self.analyzed else set()


# ---------------------------------------------------------------------------- planning


def plan(
    files: list[str],
    named: set[str],
    graph: frontend.IncludeGraph,
    compiled: set[str] = frozenset(),
    project_includes: bool = True,
) -> list[Unit]:
    """The units that cover ``files``: each CUDA source nothing in the run includes; for a
    file only an outside file includes (one the compile database lists in ``compiled``,
    one beside a named file), that file; a named file nothing includes, alone. A header
    nothing includes has no unit: no build compiles it."""

    def translation_unit(path: str) -> bool:
        return path.endswith(frontend.CUDA_SUFFIXES) or path in named or path in compiled

    mains: dict[str, None] = {}
    for path in files:
        if translation_unit(path) and not any(translation_unit(i) for i in graph.includers_of(path)):
            mains[path] = None
    covered = {file for main in mains for file in graph.reachable(main)}
    for path in files:
        if path in covered:
            continue
        includers = [i for i in graph.includers_of(path) if translation_unit(i)]
        if includers:
            mains[includers[0]] = None
            covered.update(graph.reachable(includers[0]))
        elif path in named:
            mains[path] = None
    in_run, owned = set(files), set(mains)
    units = []
    for main in mains:
        own = tuple(sorted(path for path in graph.reachable(main) if path in in_run and path not in owned))
        owned.update(own)
        units.append(unit_for(main, graph, project_includes, own))
    return units


def unit_for(main: str, graph: frontend.IncludeGraph, project_includes: bool = True, own: tuple[str, ...] = ()) -> Unit:
    directories = tuple(d for d, _, _ in graph.project_directories(main)) if project_includes else ()
    return Unit(main, directories, graph.uses_legacy_api(main), own)


def fallback_units(files: list[str], named: set[str], results: Iterable[UnitResult]) -> list[Unit]:
    """Files the planned units did not really include (a directive in a disabled ``#if``):
    each is parsed alone after all."""
    covered = set().union(*(r.covered for r in results))
    attempted = {r.main for r in results}
    return [
        Unit(path)
        for path in files
        if path not in covered and path not in attempted and (path.endswith(frontend.CUDA_SUFFIXES) or path in named)
    ]


# ---------------------------------------------------------------------------- one unit's findings


def shape_rank(source: str) -> int:
    """A launch says most about the block shape, ``__launch_bounds__`` less, an assumption nothing."""
    if source.startswith("launch"):
        return 2
    return 1 if source.startswith("__launch_bounds__") else 0


def file_reports(tu: ir.TranslationUnit, findings: list[Finding], kernels) -> dict[str, FileReport]:
    """Sort a unit's findings by file, each with the function it lies in and the rank of
    the analysis that made it; ``kernels`` are the unit's analyzed entry points."""
    bodies = [f for f in tu.functions if f.body is not None and f.span.file]
    by_decl = {f.decl: f for f in bodies}
    reports: dict[str, FileReport] = {tu.path: FileReport(comments=tu.comments)}
    for header in tu.headers:
        reports[header.path] = FileReport(comments=header.comments)
    ranks: dict[str, int] = {}
    for kernel in kernels:
        rank = shape_rank(kernel.shape.source)
        name = kernel.function.display_name
        ranks[name] = max(ranks.get(name, 0), rank)
        for function in _reached(kernel.function, by_decl):
            report = reports.get(function.span.file)
            if report is not None:
                key = (function.span.line, function.span.column)
                report.coverage[key] = max(report.coverage.get(key, 0), rank)
    for finding in _mark_recovered(findings, tu):
        report = reports.get(finding.span.file)
        if report is None:
            continue
        body = _innermost(finding.span, bodies)
        report.findings.append(RankedFinding(finding, body, ranks.get(finding.function or "")))
    return reports


def _reached(entry: ir.Function, by_decl: dict[str, ir.Function]) -> list[ir.Function]:
    """``entry`` and the functions it calls, directly or not."""
    order = [entry]
    seen = {entry.decl}
    for function in order:
        if function.body is None:
            continue
        for stmt in function.body.walk():
            for expr in stmt.expressions():
                for node in expr.walk():
                    callee = by_decl.get(node.decl) if node.kind is ir.ExprKind.CALL and node.decl else None
                    if callee is not None and callee.decl not in seen:
                        seen.add(callee.decl)
                        order.append(callee)
    return order


def _innermost(span: ir.Span, functions: list[ir.Function]) -> BodyKey | None:
    enclosing = [f.span for f in functions if encloses(f.span, span)]
    if not enclosing:
        return None
    inner = max(enclosing, key=lambda s: (s.line, s.column))
    return inner.line, inner.column


def encloses(outer: ir.Span, inner: ir.Span) -> bool:
    return (
        outer.file == inner.file
        and (outer.line, outer.column) <= (inner.line, inner.column)
        and (inner.line, inner.column) <= (outer.end_line, outer.end_column)
    )


def _mark_recovered(findings: list[Finding], tu: ir.TranslationUnit) -> list[Finding]:
    """Say so in findings inside functions where the parser met errors: what it kept of
    them may be partial."""
    errors = [e.span for e in tu.errors if e.span is not None]
    recovered = [f.span for f in tu.functions if any(encloses(f.span, e) for e in errors)]
    return [
        dataclasses.replace(f, message=f.message + RECOVERED_CODE) if any(encloses(r, f.span) for r in recovered) else f
        for f in findings
    ]


# ---------------------------------------------------------------------------- merging units


def merge_findings(reports: list[FileReport]) -> list[Finding]:
    """One file's findings over every unit that analyzed it: per function body, those of
    the best-informed analyses; each place and rule once, at its most severe level."""
    best: dict[BodyKey, int] = {}
    for report in reports:
        for body, rank in report.coverage.items():
            best[body] = max(best.get(body, 0), rank)
    chosen: dict[tuple, Finding] = {}
    for report in reports:
        for ranked in report.findings:
            if ranked.rank is not None and ranked.body is not None and ranked.rank < best.get(ranked.body, 0):
                continue
            finding = ranked.finding
            # Template instantiations and several includers repeat the same source: each place once.
            key = (finding.code, finding.span.line, finding.span.column)
            if key not in chosen or finding.level.rank < chosen[key].level.rank:
                chosen[key] = finding
    return sorted(chosen.values(), key=Finding.sort_key)


def error_notices(result: UnitResult, scope: set[str]) -> list[Notice]:
    """One notice for each header that is not found (the other errors usually follow from
    them), else one for the first error; each at the file it is in when that file is
    reported, else at the unit's file (or, when that is not reported either, not at all:
    an includer's own errors are reported when it is analyzed itself)."""
    missing = [e for e in result.errors if frontend.MISSING_HEADER.fullmatch(e.message)]
    chosen = list({e.message: e for e in reversed(missing)}.values())[::-1] or list(result.errors[:1])
    notices = []
    for error in chosen:
        where = error.span.file if error.span is not None else result.main
        if where in scope:
            notices.append(
                Notice(
                    where,
                    NoticeKind.INCOMPLETE,
                    error.message,
                    error.span.line if error.span else None,
                    error.span.column if error.span else None,
                )
            )
        elif result.main in scope:
            message = f"{error.message} (in {where}:{error.span.line})"
            notices.append(Notice(result.main, NoticeKind.INCOMPLETE, message))
    return notices


def unit_notices(result: UnitResult, scope: set[str]) -> list[Notice]:
    """Notices about the whole unit, at its file, or at the reported files it covers when
    its file is only context; a notice about one reported file (a function's analysis cut
    short) stays at that file."""
    if result.main in scope or not result.notices:
        return [notice for notice in result.notices if notice.path == result.main or notice.path in scope]
    targets = sorted(path for path in result.files if path in scope) or [result.main]
    return [
        notice if notice.path in scope else dataclasses.replace(notice, path=targets[0])
        for notice in result.notices
        if notice.path == result.main or notice.path in scope
    ]


def relative_to(path: str, root: str) -> str:
    try:
        relative = os.path.relpath(path, root)
    except ValueError:
        return path
    return path if relative.startswith(os.pardir) else relative
