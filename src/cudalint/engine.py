"""One run: find the files, plan their translation units (see ``units``), analyze each in
worker processes under a time limit, and merge the results into each file's findings.

A unit's own analysis is ``unit_analysis`` (its time limit: ``deadline``); the cached
results a run reuses and keeps are chosen by ``unit_cache``; the progress line on a
terminal is ``progress``. This module holds the run around them: discovery, the workers,
the units analyzed again with launches other units saw, and the merge into files."""

from __future__ import annotations

import dataclasses
import gc
import os
import re
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from cudalint import __version__, frontend, ir
from cudalint import units as planning
from cudalint.cache import ResultCache, analyzer_digest
from cudalint.config import DEFAULT_TIME_LIMIT, Config, enabled_rules, ignored_for_file, is_excluded, selector_matches
from cudalint.deadline import TimeLimitReached
from cudalint.diagnostics import Finding, Level, Notice, NoticeKind
from cudalint.launches import LaunchIndex, LaunchRecord
from cudalint.progress import Progress
from cudalint.rules import RULES, RuleKind, of_kind
from cudalint.suppressions import apply_suppressions, parse_suppressions, unused_suppressions
from cudalint.unit_analysis import analyze_unit, rule_findings, timed_out
from cudalint.unit_cache import cached_result, open_cache, store
from cudalint.units import RECOVERED_CODE, FileReport, Unit, UnitResult

if TYPE_CHECKING:
    # The analysis itself is imported where a unit is analyzed (in the workers): a run whose
    # results all come from the cache does without it.
    from cudalint.dataflow import BuildContext, Facts

CUDA_SUFFIXES = frontend.CUDA_SUFFIXES
__all__ = ["RECOVERED_CODE", "FileResult", "RunResult", "RunSettings", "analyze_file", "check", "discover", "run"]
_MISSING_HEADER = frontend.MISSING_HEADER


@dataclass
class RunSettings:
    frontend: frontend.FrontendOptions
    enabled: list[str]
    config: Config
    jobs: int = 1
    cache_dir: str | None = None
    """Where results of unchanged files are kept; None turns the cache off."""
    progress: bool = False
    """Show a progress line on standard error."""
    nvcc: str | None = None
    """Compile each file with this nvcc for ptxas's exact register figures (``--ptxas``)."""
    time_limit: float | None = DEFAULT_TIME_LIMIT
    """Processor seconds one translation unit may take after its parse; None or 0: no limit."""
    project_includes: bool = True
    """Look for headers the search path misses inside the project."""

    def fingerprint(self) -> str:
        """Everything besides a file's text and compiler arguments that decides its result."""
        code = (__version__, analyzer_digest())
        return repr((code, sorted(self.enabled), self.config, self.frontend, self.nvcc, self.time_limit))


@dataclass
class FileResult:
    path: str
    findings: list[Finding] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    analyzed: bool = False
    internal_error: bool = False
    parse_errors: list[str] = field(default_factory=list)
    """The messages of the parse errors in this file, from every unit that read it."""


@dataclass
class RunResult:
    files: list[FileResult]
    header_mode: str | None = None
    unit_seconds: dict[str, float] = field(default_factory=dict)
    """Processor seconds each translation unit analyzed in this run took, parse included (cached ones are absent)."""
    hidden: dict[Level, int] = field(default_factory=dict)
    """Findings left out of the report for being below the minimum level, by level."""
    fixed: int = 0
    """Fixes ``--fix`` applied before the findings were collected."""

    @property
    def findings(self) -> list[Finding]:
        return [f for result in self.files for f in result.findings]

    def at_least(self, level: Level) -> RunResult:
        """The same run with only the findings at ``level`` or above; the others are counted in ``hidden``."""
        shown = [
            dataclasses.replace(r, findings=[f for f in r.findings if f.level.rank <= level.rank]) for r in self.files
        ]
        hidden = Counter(f.level for f in self.findings if f.level.rank > level.rank)
        return dataclasses.replace(self, files=shown, hidden=dict(hidden))

    @property
    def notices(self) -> list[Notice]:
        return [n for result in self.files for n in result.notices]


def discover(paths: list[str], config: Config, exclude: list[str]) -> tuple[list[str], list[Notice]]:
    """Expand directories to their CUDA sources and headers (headers are analyzed through
    the files that include them). Excludes apply to named files too, so that pre-commit,
    which names every staged file, honours them."""
    files: list[str] = []
    notices: list[Notice] = []
    seen: set[str] = set()
    wanted = tuple(dict.fromkeys((*CUDA_SUFFIXES, *frontend.HEADER_SUFFIXES)))

    def add(path: Path) -> None:
        key = os.path.normpath(os.path.abspath(path))
        if key not in seen:
            seen.add(key)
            files.append(key)

    for raw in paths:
        path = Path(raw)
        if path.is_dir() and path.suffix not in CUDA_SUFFIXES:
            visited: set[tuple[int, int]] = set()
            for root, dirs, names in os.walk(path, followlinks=True):
                try:
                    info = os.stat(root)
                except OSError:
                    continue
                if (info.st_dev, info.st_ino) in visited:
                    dirs[:] = []
                    continue
                visited.add((info.st_dev, info.st_ino))
                dirs[:] = sorted(
                    d for d in dirs if not d.startswith(".") and not is_excluded(config, Path(root) / d, exclude)
                )
                for name in sorted(names):
                    candidate = Path(root) / name
                    if candidate.suffix in wanted and not is_excluded(config, candidate, exclude):
                        add(candidate)
        elif not path.exists() and not path.is_symlink():
            notices.append(Notice(str(path), NoticeKind.ERROR, "no such file or directory"))
        elif not is_excluded(config, path, exclude):
            add(path)
    return files, notices


# ---------------------------------------------------------------------------- findings of a file


def finalize(path: str, reports: list[FileReport], settings: RunSettings) -> list[Finding]:
    """A file's findings over the units that analyzed it, with its ``per-file-ignores``,
    its suppression comments and, from the rules that read suppressions, the ones that silenced nothing."""
    file_ignores = ignored_for_file(settings.config, path)
    enabled = [code for code in settings.enabled if not any(selector_matches(s, code) for s in file_ignores)]
    findings = [f for f in planning.merge_findings(reports) if f.code in enabled]
    suppressions = parse_suppressions(reports[0].comments if reports else ())
    kept = apply_suppressions(findings, suppressions)
    # Measured rules run only with a profile (cudalint.profile.join), after this: a comment
    # naming one is not judged here.
    ran = [code for code in enabled if RULES[code].kind is not RuleKind.MEASURED]
    for rule in of_kind(RuleKind.SUPPRESSIONS, enabled):
        extra = apply_suppressions(rule().report(path, unused_suppressions(suppressions, ran)), suppressions)
        kept = sorted(kept + extra, key=Finding.sort_key)
    return kept


def check(tu: ir.TranslationUnit, settings: RunSettings, build: BuildContext | None = None) -> list[Finding]:
    """The findings of ``tu``'s own file."""
    from cudalint.dataflow import Facts

    facts = Facts(tu, build=build)
    reports = planning.file_reports(tu, rule_findings(facts, settings), facts.kernels)
    return finalize(tu.path, [reports[tu.path]], settings)


# ---------------------------------------------------------------------------- a run


@dataclass
class Run:
    """What every unit of a run shares."""

    settings: RunSettings
    environment: frontend.ParseEnvironment
    files: list[str]
    named: set[str]
    project: frontend.ProjectFiles | None
    graph: frontend.IncludeGraph

    @property
    def scope(self) -> set[str]:
        return set(self.files)


def run(paths: list[str], settings: RunSettings, exclude: list[str]) -> RunResult:
    files, notices = discover(paths, settings.config, exclude)
    results = [FileResult(n.path, notices=[n]) for n in notices]
    if not files:
        return RunResult(results)
    environment = parse_environment(settings, _common_root(files))
    named = {os.path.normpath(os.path.abspath(p)) for p in paths if not os.path.isdir(p)}
    project = _project_files(settings, environment, files)
    # Files beside a named one may be its includers (a header, a kernel file written to be included).
    beside = [p for path in named for p in frontend.sources_beside(path)]
    graph = frontend.IncludeGraph.around(
        [*files, *beside], environment, project, frontend.flags.system_include_dirs(environment)
    )
    environment = dataclasses.replace(environment, include_graph=graph)
    context = Run(settings, environment, files, named, project, graph)
    compiled = set(environment.compile_db.entries) if environment.compile_db else set()
    units = planning.plan(files, named, graph, compiled, settings.project_includes)
    unit_results = _analyze_all(units, context)
    fallback = planning.fallback_units(files, named, unit_results)
    unit_results += _analyze_all(fallback, context)
    unit_results = _with_launches_elsewhere([*units, *fallback], unit_results, context)
    results += _merge(context, unit_results)
    _name_missing_headers_once(results)
    return RunResult(results, environment.header_mode.value, {r.main: r.seconds for r in unit_results if r.seconds})


def parse_environment(settings: RunSettings, search_from: str) -> frontend.ParseEnvironment:
    """How a run parses its files: the configured flags, and the CUDA headers precompiled
    into the cache directory when there is one."""
    environment = frontend.build_environment(settings.frontend, search_from=search_from)
    if settings.cache_dir:
        environment = dataclasses.replace(environment, precompiled_dir=str(Path(settings.cache_dir) / "pch"))
    return environment


def _project_files(
    settings: RunSettings, environment: frontend.ParseEnvironment, files: list[str]
) -> frontend.ProjectFiles | None:
    if not settings.project_includes:
        return None
    return frontend.ProjectFiles(_project_root(settings.config, files), _toolkit_dirs(environment))


def analyze_file(
    path: str,
    environment: frontend.ParseEnvironment,
    settings: RunSettings,
    cache: ResultCache | None = None,
    *,
    text: bytes | None = None,
    on_facts: Callable[[Facts], None] | None = None,
    search_project: bool = False,
) -> FileResult:
    """``path`` as a run naming only it would report it, analyzed in this process.

    ``text``: the file's contents when they are not (yet) what is on disk, an editor's
    buffer; the cache is then neither read nor written. ``on_facts``: see ``analyze_unit``
    (a unit whose result comes from the cache has none). ``search_project``: look in the
    project for headers the include path misses, as a run does when
    ``settings.project_includes`` is on."""
    path = os.path.normpath(os.path.abspath(path))
    graph = environment.include_graph or frontend.IncludeGraph.around(
        [path, *frontend.sources_beside(path)], environment
    )
    project = _project_files(settings, environment, [path]) if search_project else None
    context = Run(settings, dataclasses.replace(environment, include_graph=graph), [path], {path}, project, graph)
    buffers = {path: text} if text is not None else None
    if buffers is not None:
        cache = None
    unit_results = [
        _cached_or_analyzed(unit, context, cache, buffers, on_facts) for unit in planning.plan([path], {path}, graph)
    ]
    unit_results += [
        analyze_unit(unit, context.environment, settings, project, buffers, on_facts)
        for unit in planning.fallback_units([path], {path}, unit_results)
    ]
    merged = _merge(context, unit_results)
    _name_missing_headers_once(merged)
    return merged[0] if merged else FileResult(path)


def _cached_or_analyzed(
    unit: Unit,
    context: Run,
    cache: ResultCache | None,
    buffers: Mapping[str, bytes] | None = None,
    on_facts: Callable[[Facts], None] | None = None,
) -> UnitResult:
    hit = cached_result(unit, context, cache) if cache is not None else None
    if hit is not None:
        return hit
    started = time.time_ns()
    result = analyze_unit(unit, context.environment, context.settings, context.project, buffers, on_facts)
    if cache is not None:
        store(unit, context, cache, result, started)
    return result


def _project_root(config: Config, files: list[str]) -> str:
    """Where the project's headers may be: the configuration's directory, else the top of
    the project the files' common directory belongs to (``frontend.project_root``)."""
    if config.path is not None:
        return str(config.root)
    return frontend.project_root(_common_root(files))


def _toolkit_dirs(environment: frontend.ParseEnvironment) -> list[str]:
    return [a.split("=", 1)[1] for a in environment.base_args if a.startswith("--cuda-path=")]


def _merge(context: Run, unit_results: list[UnitResult]) -> list[FileResult]:
    """Each file of the scope that a unit covered, with its merged findings and notices."""
    scope = context.scope
    reports: dict[str, list[FileReport]] = {}
    notices: dict[str, list[Notice]] = {}
    status: dict[str, FileResult] = {}
    errors: dict[str, list[str]] = {}
    for result in unit_results:
        for path, report in result.files.items():
            if path in scope:
                reports.setdefault(path, []).append(report)
        for error in result.errors:
            errors.setdefault(error.span.file if error.span is not None else result.main, []).append(error.message)
        touched = {path for path in result.covered if path in scope}
        if result.main in scope:
            touched.add(result.main)
        for notice in [*planning.error_notices(result, scope), *planning.unit_notices(result, scope)]:
            touched.add(notice.path)
            if notice not in notices.setdefault(notice.path, []):
                notices[notice.path].append(notice)
        for path in touched:
            entry = status.setdefault(path, FileResult(path))
            entry.analyzed |= result.analyzed and path in result.covered
            entry.internal_error |= result.internal_error
    for message in _added_directories(context, unit_results):
        notices.setdefault(message.path, []).append(message)
        status.setdefault(message.path, FileResult(message.path, analyzed=True))
    merged = []
    for path in context.files:
        entry = status.get(path)
        if entry is None:
            continue
        entry.internal_error &= not entry.analyzed
        entry.findings = finalize(path, reports.get(path, []), context.settings)
        entry.notices = notices.get(path, [])
        entry.parse_errors = errors.get(path, [])
        merged.append(entry)
    return merged


def _added_directories(context: Run, unit_results: list[UnitResult]) -> list[Notice]:
    """Each directory added to the search path, said once per run: at the first file that
    needed it, with the header it holds and how many other files needed it. A header the
    parse did not read (its directive in a disabled ``#if``: another vendor's build) was
    not needed."""
    if context.project is None:
        return []
    first: dict[str, tuple[str, str]] = {}
    users: Counter = Counter()
    needing: dict[str, list[str]] = {}
    for result in unit_results:
        if not result.analyzed:
            continue
        for directory, name, includer in context.graph.project_directories(result.main):
            if os.path.normpath(os.path.join(directory, name)) not in result.covered:
                continue
            users[directory] += 1
            first.setdefault(directory, (name, includer))
            needing.setdefault(directory, []).append(result.main)
    notices = []
    for directory, (name, includer) in first.items():
        path = includer if includer in context.scope else needing[directory][0]
        if path not in context.scope:
            continue
        others = users[directory] - 1
        also = f", as do {others} other file{'s' if others != 1 else ''}" if others else ""
        notices.append(
            Notice(
                path,
                NoticeKind.NOTE,
                (
                    f"'{name}' found in {planning.relative_to(directory, context.project.root)}{os.sep}: "
                    "directory added to the "
                    f"include path{also} (the `project-includes` setting turns this off)"
                ),
            )
        )
    return notices


def _name_missing_headers_once(results: list[FileResult]) -> None:
    """A header missing from many files is named once per run: at the first file missing
    it, with how many others do too."""
    counts = Counter(m.group(1) for r in results for n in r.notices if (m := _MISSING_HEADER.match(n.message)))
    named: set[str] = set()
    for result in results:
        kept = []
        for notice in result.notices:
            match = _MISSING_HEADER.match(notice.message)
            if match is None:
                kept.append(notice)
                continue
            header = match.group(1)
            if header in named:
                continue
            named.add(header)
            others = counts[header] - 1
            also = (
                f" ({others} more file{'s' if others != 1 else ''} include{'' if others != 1 else 's'} it)"
                if others
                else ""
            )
            kept.append(
                dataclasses.replace(
                    notice,
                    message=(
                        f"{notice.message}{also}; analyzed without it: add its directory to the `include` setting or -I"
                    ),
                )
            )
        result.notices = kept


# ---------------------------------------------------------------------------- workers


# Per-process state: the parse environment is built once per worker, not per file.
_worker: Run | None = None


def _init_worker(context: Run) -> None:
    global _worker
    _worker = context
    # What the worker inherited from the parent is never garbage here: leave it out of every
    # collection (it would only slow them, and run the parent's finalizers).
    gc.freeze()


def _analyze_in_worker(unit: Unit, external: tuple[LaunchRecord, ...] = (), launches_only: bool = False) -> UnitResult:
    assert _worker is not None
    return analyze_unit(
        unit, _worker.environment, _worker.settings, _worker.project, external=external, launches_only=launches_only
    )


MAX_LAUNCHING_SOURCES = 32
"""Files outside the run read for the launches of its unlaunched kernels, at most."""


def _with_launches_elsewhere(units: list[Unit], results: list[UnitResult], context: Run) -> list[UnitResult]:
    """The run's results once each unit whose kernels other units launch, by launches it
    did not see itself, is analyzed again with them (see ``cudalint.launches``). A kernel
    launched only where it is defined, the common case, is parsed once. Kernels no unit of
    the run launches are looked for in the project's other CUDA sources (those beside the
    run's files and those of the compile database) that name them and launch something:
    those are read for their launches only."""
    records = [record for result in results for record in result.launches]
    launched = {record.kernel for record in records}
    unlaunched = {name for result in results for decl, name in result.kernels if decl not in launched}
    outside = _launching_sources(unlaunched, units, results, context)
    if outside:
        found = _analyze_all([planning.unit_for(path, context.graph) for path in outside], context, launches_only=True)
        records += [record for result in found for record in result.launches]
    index = LaunchIndex(records)
    again: dict[Unit, tuple[LaunchRecord, ...]] = {}
    for unit, result, kernels in _units_to_complete(units, results, index):
        again[unit] = index.external_for(kernels, result.launches)
    if not again:
        return results
    redone = dict(zip(again, _analyze_all(list(again), context, again), strict=True))
    return [redone.get(unit, result) for unit, result in zip(units, results, strict=True)]


def _units_to_complete(units: list[Unit], results: list[UnitResult], index: LaunchIndex):
    """For each kernel with launches that no unit analyzing it saw all of, the unit that
    saw most of them (the first such), with those kernels: a kernel of a header that many
    files include is analyzed again once, not in every includer (findings of a body merge
    across units, the best-informed analyses kept)."""
    complete = [
        (unit, result)
        for unit, result in zip(units, results, strict=True)
        if result.analyzed and not result.timed_out and not result.internal_error
    ]
    chosen: dict[Unit, list[str]] = {}
    by_unit = {unit: result for unit, result in complete}
    for kernel in dict.fromkeys(decl for _, result in complete for decl, _ in result.kernels):
        launches = set(index.by_kernel.get(kernel, ()))
        if not launches:
            continue
        analyzing = [(unit, result) for unit, result in complete if any(d == kernel for d, _ in result.kernels)]
        seen = [len(launches & set(result.launches)) for _, result in analyzing]
        if max(seen) == len(launches):
            continue
        unit, _ = analyzing[seen.index(max(seen))]
        chosen.setdefault(unit, []).append(kernel)
    return [(unit, by_unit[unit], kernels) for unit, kernels in chosen.items()]


def _launching_sources(names: set[str], units: list[Unit], results: list[UnitResult], context: Run) -> list[str]:
    """CUDA sources outside the run that launch one of the kernels ``names``, by their text."""
    if not names:
        return []
    analyzed = {unit.main for unit in units} | set(context.files)
    candidates: dict[str, None] = {}
    for result in results:
        for path in (result.main, *result.files):
            candidates.update(dict.fromkeys(sorted(frontend.sources_beside(path))))
    if context.environment.compile_db is not None:
        candidates.update(dict.fromkeys(sorted(context.environment.compile_db.entries)))
    pattern = re.compile(rb"\b(?:%s)\b" % b"|".join(re.escape(n.encode()) for n in sorted(names)))
    found = []
    for path in candidates:
        if path in analyzed or not path.endswith(CUDA_SUFFIXES):
            continue
        try:
            data = Path(path).read_bytes()
        except OSError:
            continue
        if (b"<<<" in data or b"cudaLaunch" in data) and pattern.search(data):
            found.append(path)
            if len(found) == MAX_LAUNCHING_SOURCES:
                break
    return found


def _analyze_all(
    units: list[Unit],
    context: Run,
    external: Mapping[Unit, tuple[LaunchRecord, ...]] | None = None,
    launches_only: bool = False,
) -> list[UnitResult]:
    """Analyze in worker processes, so that libclang aborting on one file cannot end the run;
    unchanged units come from the cache without starting any (nor importing what starts them).
    ``external``: the launches in other units that a unit is analyzed with; ``launches_only``:
    read only the units' launches."""
    if not units:
        return []
    external = external or {}
    done: dict[Unit, UnitResult] = {}
    cache = open_cache(context.settings)
    if cache is not None:
        for unit in units:
            hit = cached_result(unit, context, cache, external.get(unit, ()), launches_only)
            if hit is not None:
                done[unit] = hit
    progress = Progress(len(units), context.settings.progress, len(done))
    try:
        pending = [unit for unit in units if unit not in done]
        started = time.time_ns()
        if pending:
            from concurrent.futures import ProcessPoolExecutor
            from concurrent.futures.process import BrokenProcessPool

            from cudalint import rules

            rules.implemented()  # imported once here, the forked workers inherit the rules (and the analysis)

            crashed: list[Unit] = []
            jobs = max(1, min(context.settings.jobs, len(pending)))
            with ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker, initargs=(context,)) as pool:
                futures = []
                for unit in pending:
                    try:
                        futures.append(
                            (unit, pool.submit(_analyze_in_worker, unit, external.get(unit, ()), launches_only))
                        )
                    except BrokenProcessPool:
                        # A worker died before every unit was handed out: the others run alone below.
                        crashed.extend(pending[len(futures) :])
                        break
                for unit, future in futures:
                    try:
                        done[unit] = future.result()
                    except BrokenProcessPool:
                        crashed.append(unit)
                        continue
                    except TimeLimitReached as stop:  # It escaped the unit's own handling, right at its end.
                        done[unit] = timed_out(UnitResult(unit.main), None, context.settings, stop, None)
                    if cache is not None:  # As each comes: an interrupted run keeps what it did.
                        store(unit, context, cache, done[unit], started, external.get(unit, ()), launches_only)
                    progress.advance()
            # A dead worker breaks the whole pool: re-run each affected unit alone to find the culprit.
            for unit in crashed:
                with ProcessPoolExecutor(max_workers=1, initializer=_init_worker, initargs=(context,)) as pool:
                    started = time.time_ns()
                    try:
                        done[unit] = pool.submit(
                            _analyze_in_worker, unit, external.get(unit, ()), launches_only
                        ).result()
                    except BrokenProcessPool:
                        result = UnitResult(unit.main, internal_error=True)
                        result.notices.append(
                            Notice(unit.main, NoticeKind.ERROR, "internal error: the C++ parser crashed on this file")
                        )
                        done[unit] = result
                    if cache is not None:
                        store(unit, context, cache, done[unit], started, external.get(unit, ()), launches_only)
                    progress.advance()
    finally:
        progress.finish()  # An interrupted run leaves no line behind either.
    return [done[unit] for unit in units]


def _common_root(files: list[str]) -> str:
    try:
        return os.path.commonpath([os.path.abspath(f) for f in files])
    except ValueError:
        return os.getcwd()


def default_settings(config: Config, enabled: list[str] | None = None, **frontend_overrides) -> RunSettings:
    options = frontend.FrontendOptions(
        cuda_path=config.resolve(config.cuda_path),
        arch=config.arch,
        include_dirs=tuple(config.resolve(d) for d in config.include),
        defines=tuple(config.define),
        compile_commands=config.resolve(config.compile_commands),
    )
    if frontend_overrides:
        options = dataclasses.replace(options, **frontend_overrides)
    if enabled is None:
        enabled = enabled_rules(config.select, config.extend_select, config.ignore)
    return RunSettings(
        frontend=options,
        enabled=enabled,
        config=config,
        time_limit=config.time_limit,
        project_includes=config.project_includes,
    )
