"""One run: find the files, analyze each (in worker processes), collect the results."""

from __future__ import annotations

import dataclasses
import os
import re
import sys
from collections import Counter
import traceback
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path

from cudalint import __version__, frontend, ptxas
from cudalint.cache import ResultCache
from cudalint.config import Config, enabled_rules, ignored_for_file, is_excluded, selector_matches
from cudalint.dataflow import BuildContext, Facts
from cudalint.diagnostics import Finding, Notice, NoticeKind
from cudalint.rules import CATALOG, REGISTRY
from cudalint.rules.base import FactRule
from cudalint.suppressions import apply_suppressions, parse_suppressions, unused_suppressions

CUDA_SUFFIXES = frontend.CUDA_SUFFIXES
RECOVERED_CODE = " (in code the parser recovered from errors)"
"""Said after the message of a finding in a function that had parse errors."""
_MISSING_HEADER = re.compile(r"'(.+)' file not found")


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

    def fingerprint(self) -> str:
        """Everything besides a file's text and compiler arguments that decides its result."""
        return repr((__version__, sorted(self.enabled), self.config, self.frontend, self.nvcc))


@dataclass
class FileResult:
    path: str
    findings: list[Finding] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    analyzed: bool = False
    internal_error: bool = False


@dataclass
class RunResult:
    files: list[FileResult]
    header_mode: str | None = None

    @property
    def findings(self) -> list[Finding]:
        return [f for result in self.files for f in result.findings]

    @property
    def notices(self) -> list[Notice]:
        return [n for result in self.files for n in result.notices]


def discover(paths: list[str], config: Config, exclude: list[str]) -> tuple[list[str], list[Notice]]:
    """Expand directories to their .cu/.cuh files. Excludes apply to named files too, so that
    pre-commit, which names every staged file, honours them."""
    files: list[str] = []
    notices: list[Notice] = []
    seen: set[str] = set()

    def add(path: Path) -> None:
        key = os.path.normpath(str(path))
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
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not is_excluded(config, Path(root) / d, exclude))
                for name in sorted(names):
                    candidate = Path(root) / name
                    if candidate.suffix in CUDA_SUFFIXES and not is_excluded(config, candidate, exclude):
                        add(candidate)
        elif not path.exists() and not path.is_symlink():
            notices.append(Notice(str(path), NoticeKind.ERROR, "no such file or directory"))
        elif not is_excluded(config, path, exclude):
            add(path)
    return files, notices


# Per-process state: the parse environment is built once per worker, not per file.
_worker_environment: frontend.ParseEnvironment | None = None
_worker_settings: RunSettings | None = None
_worker_cache: ResultCache | None = None


def _open_cache(settings: RunSettings) -> ResultCache | None:
    return ResultCache(Path(settings.cache_dir), settings.fingerprint()) if settings.cache_dir else None


def _init_worker(settings: RunSettings, environment: frontend.ParseEnvironment) -> None:
    global _worker_environment, _worker_settings, _worker_cache
    _worker_environment = environment
    _worker_settings = settings
    _worker_cache = _open_cache(settings)


def _analyze_in_worker(path: str) -> FileResult:
    assert _worker_environment is not None and _worker_settings is not None
    return analyze_file(path, _worker_environment, _worker_settings, _worker_cache)


def analyze_file(path: str, environment: frontend.ParseEnvironment, settings: RunSettings,
                 cache: ResultCache | None = None) -> FileResult:
    result = FileResult(path)
    try:
        text = frontend.read_source(path)
    except frontend.SourceError as exc:
        result.notices.append(Notice(path, NoticeKind.ERROR, str(exc)))
        return result
    args = _cache_arguments(path, environment)
    if cache is not None:
        cached = cache.lookup(path, text, args)
        if cached is not None:
            return dataclasses.replace(cached, path=path)
    try:
        tu = frontend.parse_file(path, environment, text)
    except frontend.SourceError as exc:
        result.notices.append(Notice(path, NoticeKind.ERROR, str(exc)))
        return result
    except Exception as exc:  # noqa: BLE001 - one broken file must not end the run
        return _internal_error(result, exc)
    result.analyzed = True
    result.notices.extend(_error_notices(path, tu))
    build = build_context(path, environment, settings, result)
    try:
        result.findings = check(tu, settings, build, result.notices)
    except Exception as exc:  # noqa: BLE001
        return _internal_error(result, exc)
    if cache is not None:
        cache.store(path, text, args, tu.includes, result)
    return result


def _cache_arguments(path: str, environment: frontend.ParseEnvironment) -> tuple[str, ...]:
    """What, besides its text, decides how a file is parsed: its arguments, and the files
    that could be its context when it does not parse alone."""
    absolute = os.path.abspath(path)
    graph = environment.include_graph
    includers = graph.includers_of(absolute) if graph is not None else ()
    return (*environment.args_for(absolute), *(f"--included-by={includer}" for includer in includers))


def _error_notices(path: str, tu) -> list[Notice]:
    """One notice for each header that is not found (the other errors usually follow from
    them), else one for the first error."""
    notices: list[Notice] = []
    for error in tu.errors:
        if _MISSING_HEADER.fullmatch(error.message) and all(n.message != error.message for n in notices):
            notices.append(_error_notice(path, tu, error))
    if not notices and tu.errors:
        notices.append(_error_notice(path, tu, tu.errors[0]))
    return notices


def _error_notice(path: str, tu, error) -> Notice:
    if error.span is None or error.span.file == tu.path:
        line = error.span.line if error.span else None
        return Notice(path, NoticeKind.INCOMPLETE, error.message, line, error.span.column if error.span else None)
    return Notice(path, NoticeKind.INCOMPLETE, f"{error.message} (in {error.span.file}:{error.span.line})")


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
            also = f" ({others} more file{'s' if others != 1 else ''} include{'' if others != 1 else 's'} it)" if others else ""
            kept.append(dataclasses.replace(notice, message=(
                f"{notice.message}{also}; analyzed without it: add its directory to the `include` setting or -I")))
        result.notices = kept


def _mark_recovered(findings: list[Finding], tu) -> list[Finding]:
    """Say so in findings inside functions where the parser met errors: what it kept of
    them may be partial."""
    errors = [e.span for e in tu.errors if e.span is not None and e.span.file == tu.path]
    recovered = [f.span for f in tu.functions if f.span.file == tu.path and any(_encloses(f.span, e) for e in errors)]
    return [dataclasses.replace(f, message=f.message + RECOVERED_CODE) if any(_encloses(r, f.span) for r in recovered)
            else f for f in findings]


def _encloses(outer, inner) -> bool:
    return (outer.file == inner.file and (outer.line, outer.column) <= (inner.line, inner.column)
            and (inner.line, inner.column) <= (outer.end_line, outer.end_column))


def _internal_error(result: FileResult, exc: Exception) -> FileResult:
    frame = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    where = f" at {Path(frame.filename).name}:{frame.lineno}" if frame else ""
    result.internal_error = True
    result.analyzed = False  # Its findings are lost: do not let the summary call it clean.
    result.notices.append(Notice(result.path, NoticeKind.ERROR, f"internal error: {type(exc).__name__}: {exc}{where}"))
    return result


def build_context(path: str, environment: frontend.ParseEnvironment, settings: RunSettings,
                  result: FileResult) -> BuildContext:
    """How the project builds ``path``; with ``settings.nvcc``, also what ptxas makes of it
    (a failed compilation is noted and the source-level estimates stand)."""
    flags = environment.flags_for(os.path.abspath(path))
    arch = flags.arch or (frontend.flags.parse_arch(settings.config.arch) if settings.config.arch else None) \
        or environment.default_arch
    max_registers = flags.max_registers or settings.config.max_registers
    if settings.nvcc is None:
        return BuildContext(arch, max_registers)
    try:
        compiled = ptxas.compile_resources(path, settings.nvcc, arch, (*environment.user_args, *flags.args), max_registers)
    except ptxas.CompileError as exc:
        result.notices.append(Notice(path, NoticeKind.INCOMPLETE, f"--ptxas: {exc}; register findings are estimates"))
        return BuildContext(arch, max_registers)
    return BuildContext(arch, max_registers, {kernel.label: kernel for kernel in compiled})


def check(tu, settings: RunSettings, build: BuildContext | None = None,
          notices: list[Notice] | None = None) -> list[Finding]:
    """The findings of the enabled rules; ``notices`` receives one for each function whose
    analysis stopped at its budget."""
    facts = Facts(tu, build=build)
    file_ignores = ignored_for_file(settings.config, tu.path)
    enabled = [code for code in settings.enabled if not any(selector_matches(s, code) for s in file_ignores)]
    findings: dict[tuple, Finding] = {}
    for code in enabled:
        rule = REGISTRY[code]()
        if not isinstance(rule, FactRule):
            continue
        for finding in rule.check(facts):
            if finding.span.file != tu.path:
                continue
            # Template instantiations repeat the same source; report each place once.
            key = (finding.code, finding.span.line, finding.span.column)
            if key not in findings or finding.level.rank < findings[key].level.rank:
                findings[key] = finding
    ordered = sorted(findings.values(), key=Finding.sort_key)
    suppressions = parse_suppressions(tu.comments)
    kept = apply_suppressions(ordered, suppressions, CATALOG)
    if "CL001" in enabled:
        ran = {code: CATALOG[code] for code in enabled}
        unused = unused_suppressions(suppressions, ran, CATALOG)
        cl001 = REGISTRY["CL001"]()
        extra = apply_suppressions(cl001.report(tu.path, unused, CATALOG), suppressions, CATALOG)
        kept = sorted(kept + extra, key=Finding.sort_key)
    if notices is not None:
        notices.extend(_budget_notices(facts))
    return _mark_recovered(kept, tu)


def _budget_notices(facts: Facts) -> list[Notice]:
    return [Notice(facts.tu.path, NoticeKind.INCOMPLETE,
                   f"the analysis of `{kernel.function.display_name}` stopped at line {kernel.cut.line} after "
                   f"{kernel.cut.budget} steps, its budget for a function of its size: accesses, branches and "
                   "barriers from there on are not checked", kernel.cut.line, 1)
            for kernel in facts.kernels if kernel.cut is not None and kernel.function.in_main_file]


def run(paths: list[str], settings: RunSettings, exclude: list[str]) -> RunResult:
    files, notices = discover(paths, settings.config, exclude)
    results = [FileResult(n.path, notices=[n]) for n in notices]
    if not files:
        return RunResult(results)
    environment = frontend.build_environment(settings.frontend, search_from=_common_root(files))
    if settings.cache_dir:
        environment = dataclasses.replace(environment, precompiled_dir=str(Path(settings.cache_dir) / "pch"))
    environment = dataclasses.replace(environment, include_graph=frontend.IncludeGraph.around(files, environment))
    jobs = max(1, min(settings.jobs, len(files)))
    results += _analyze_all(files, environment, settings, jobs)
    _name_missing_headers_once(results)
    return RunResult(results, environment.header_mode.value)


def _cached_result(path: str, environment, cache: ResultCache) -> FileResult | None:
    try:
        text = frontend.read_source(path)
    except frontend.SourceError:
        return None  # The worker reports it.
    cached = cache.lookup(path, text, _cache_arguments(path, environment))
    return dataclasses.replace(cached, path=path) if cached is not None else None


def _analyze_all(files: list[str], environment, settings: RunSettings, jobs: int) -> list[FileResult]:
    """Analyze in worker processes, so that libclang aborting on one file cannot end the run;
    unchanged files come from the cache without starting any."""
    done: dict[str, FileResult] = {}
    cache = _open_cache(settings)
    if cache is not None:
        for path in files:
            hit = _cached_result(path, environment, cache)
            if hit is not None:
                done[path] = hit
    progress = _Progress(len(files), settings.progress, len(done))
    pending = [path for path in files if path not in done]
    crashed: list[str] = []
    if pending:
        with ProcessPoolExecutor(max_workers=min(jobs, len(pending)), initializer=_init_worker,
                                 initargs=(settings, environment)) as pool:
            futures = [(path, pool.submit(_analyze_in_worker, path)) for path in pending]
            for path, future in futures:
                try:
                    done[path] = future.result()
                except BrokenProcessPool:
                    crashed.append(path)
                progress.advance()
    # A dead worker breaks the whole pool: re-run each affected file alone to find the culprit.
    for path in crashed:
        with ProcessPoolExecutor(max_workers=1, initializer=_init_worker, initargs=(settings, environment)) as pool:
            try:
                done[path] = pool.submit(_analyze_in_worker, path).result()
            except BrokenProcessPool:
                result = FileResult(path, internal_error=True)
                result.notices.append(Notice(path, NoticeKind.ERROR, "internal error: the C++ parser crashed on this file"))
                done[path] = result
    progress.finish()
    return [done[path] for path in files]


class _Progress:
    """``cudalint: 37/150 files`` on standard error, rewritten in place."""

    def __init__(self, total: int, enabled: bool, already: int):
        self.total, self.enabled, self.count = total, enabled and total > 1, already

    def advance(self) -> None:
        self.count += 1
        if self.enabled:
            sys.stderr.write(f"\rcudalint: {self.count}/{self.total} files")
            sys.stderr.flush()

    def finish(self) -> None:
        if self.enabled:
            sys.stderr.write("\r" + " " * (len(str(self.total)) * 2 + 18) + "\r")
            sys.stderr.flush()


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
    return RunSettings(frontend=options, enabled=enabled, config=config)
