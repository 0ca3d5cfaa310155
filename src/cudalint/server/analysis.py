"""What the language server knows of a document: its project set-up, and its last analysis.

A document is analyzed with the settings the command line would use for it (the nearest
configuration file, the compile database, the cache directory), built by the engine and
``config`` and kept per directory until one of the files they came from changes. Each
analysis runs the engine on the editor's buffer and keeps, besides the findings and
notices, what ``cudalint facts`` would say of every access and branch of the document:
hover reads that index, and never parses again.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from cudalint import engine, frontend, ir
from cudalint.cache import ResultCache, default_cache_dir
from cudalint.config import CONFIG_FILES, Config, find_config, is_excluded, load_config
from cudalint.diagnostics import Finding, Notice
from cudalint.report.facts import (
    access_details,
    access_heading,
    access_record,
    branch_details,
    branch_heading,
    branch_record,
    context_lines,
)

COMPILE_DATABASE = "compile_commands.json"
WATCHED_NAMES = (*CONFIG_FILES, COMPILE_DATABASE)
"""The files whose change changes how documents are analyzed."""


@dataclass(frozen=True)
class FactNote:
    """What is known of one access or branch in one analyzed kernel, as ``cudalint facts`` says it."""

    span: ir.Span
    kernel: str
    shape: str
    """The block shape assumed and where it comes from."""
    heading: str
    details: tuple[str, ...]
    picture: Callable[[], str] | None = field(default=None, compare=False, repr=False)
    """One warp drawn as ``cudalint explain`` draws it; drawn when hovered, not before."""


@dataclass
class Analysis:
    """One analysis of a document's text."""

    findings: list[Finding] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    facts: list[FactNote] = field(default_factory=list)
    internal_error: str | None = None
    """Why the analysis failed; its findings are then not to be trusted."""
    problems: list[str] = field(default_factory=list)
    """What went wrong beside the findings (the facts for hover could not be read)."""
    from_cache: bool = False
    """The findings came from the result cache: the analysis itself did not run, and ``facts`` is empty."""

    def facts_at(self, line: int, column: int) -> list[FactNote]:
        """The notes of the innermost access or branch at 1-based ``line``/``column``, one per kernel."""
        hits = [note for note in self.facts if _contains(note.span, line, column)]
        if not hits:
            return []
        innermost = min(hits, key=lambda note: _extent(note.span))
        return list({note: None for note in hits if note.span == innermost.span})

    def findings_at(self, line: int, column: int) -> list[Finding]:
        """The findings whose span holds 1-based ``line``/``column``, the innermost first."""
        hits = [finding for finding in self.findings if _contains(finding.span, line, column)]
        return sorted(hits, key=lambda finding: _extent(finding.span))


def _contains(span: ir.Span, line: int, column: int) -> bool:
    return (span.line, span.column) <= (line, column) < (span.end_line, span.end_column)


def _extent(span: ir.Span) -> tuple[int, int]:
    return (span.end_line - span.line, span.end_column - span.column)


@dataclass
class Setup:
    """How the documents of one directory are analyzed."""

    config: Config
    settings: engine.RunSettings
    environment: frontend.ParseEnvironment
    stamps: tuple
    """The state of the files the set-up was read from, when it was read."""

    def cache(self) -> ResultCache:
        """The shared result cache, for one analysis: the headers an entry depends on are
        hashed again by each, never trusted from an earlier one."""
        return ResultCache(Path(self.settings.cache_dir), self.settings.fingerprint())


def _stamps(directory: Path, config: Config) -> tuple:
    """Modification times of every configuration file and compile database that could
    decide ``directory``'s set-up, present or not (creating one changes the set-up too)."""
    candidates = [d / name for d in (directory, *directory.parents) for name in WATCHED_NAMES]
    if config.path is not None:
        candidates.append(config.path)
    if config.compile_commands:
        candidates.append(Path(config.resolve(config.compile_commands)))
        candidates.append(Path(config.resolve(config.compile_commands)) / COMPILE_DATABASE)
    stamps = []
    for candidate in candidates:
        try:
            stamps.append(candidate.stat().st_mtime_ns)
        except OSError:
            stamps.append(None)
    return tuple(stamps)


class Workspace:
    """The set-ups of the directories with open documents, re-read when their files change.

    ``config_file``: the configuration to use instead of the nearest one (``--config``);
    ``frontend_options``: the command line's parse options applied over the configured ones."""

    def __init__(
        self,
        config_file: Path | None = None,
        frontend_options: Callable[[frontend.FrontendOptions], frontend.FrontendOptions] | None = None,
    ):
        self.config_file = config_file
        self.frontend_options = frontend_options
        self.roots: list[Path] = []
        """The client's workspace folders."""
        self._setups: dict[Path, Setup] = {}
        self._told: dict[Path, tuple] = {}
        """The stamps of each directory's files last told to have changed (``changed``)."""

    def forget(self) -> None:
        """Read every set-up again at its next use (a watched file changed)."""
        self._setups.clear()

    def changed(self, paths: list[str]) -> set[str]:
        """Those of ``paths`` (documents) whose set-up's files changed since it was read; each
        change is told once, though the set-up is read again only by the next analysis."""
        by_directory: dict[Path, list[str]] = {}
        for path in paths:
            by_directory.setdefault(Path(path).parent.resolve(), []).append(path)
        changed = set()
        for directory, documents in by_directory.items():
            known = self._setups.get(directory)
            if known is None:
                continue
            stamps = _stamps(directory, known.config)
            if stamps != known.stamps and self._told.get(directory) != stamps:
                self._told[directory] = stamps
                changed.update(documents)
        return changed

    def setup(self, path: str) -> Setup:
        """The set-up for the document at ``path``; raises ``ConfigError`` or
        ``FrontendConfigError`` for a configuration that cannot be used."""
        directory = Path(path).parent.resolve()
        known = self._setups.get(directory)
        if known is not None and _stamps(directory, known.config) == known.stamps:
            return known
        config_path = self.config_file or find_config(directory)
        config = load_config(config_path) if config_path else Config()
        stamps = _stamps(directory, config)
        settings = engine.default_settings(config)
        if self.frontend_options is not None:
            settings.frontend = self.frontend_options(settings.frontend)
        if config.ptxas:
            from cudalint.ptxas import find_nvcc

            settings.nvcc = find_nvcc(settings.frontend.cuda_path)
        settings.cache_dir = str(default_cache_dir(config.root if config.path is not None else self.root(directory)))
        environment = engine.parse_environment(settings, str(directory))
        self._setups[directory] = Setup(config, settings, environment, stamps)
        return self._setups[directory]

    def root(self, directory: Path) -> Path:
        """Where the results of documents in ``directory`` are kept when no configuration file
        says: the innermost workspace folder holding it, else its repository, else itself
        (never the editor's working directory: each would start cold)."""
        holding = [root for root in self.roots if directory.is_relative_to(root)]
        if holding:
            return max(holding, key=lambda root: len(root.parts))
        return next((d for d in (directory, *directory.parents) if (d / ".git").exists()), directory)


def analyze(path: str, text: bytes, setup: Setup, use_cache: bool = True) -> Analysis:
    """``path`` with contents ``text``, as the command line would report it once saved.

    When ``text`` is what is on disk, the result is the one the command line caches: the
    shared cache answers when it can (``use_cache``; then without facts), and stores what
    was analyzed. An edited buffer is analyzed as it is, the cache left alone."""
    config = setup.config
    if is_excluded(config, Path(path), config.exclude) or not text.strip():
        return Analysis()  # A new, empty document is nothing to warn about.
    notes: list[FactNote] = []
    problems: list[str] = []
    ran = False
    analyzed: list = []

    def collect(facts) -> None:
        nonlocal ran
        ran = True
        analyzed.append(facts)
        try:
            notes.extend(fact_notes(facts, path))
        except Exception as exc:  # noqa: BLE001 - hover's index must not cost the findings
            problems.append(f"facts for hover: {type(exc).__name__}: {exc}")

    saved = _on_disk(path) == text
    result = engine.analyze_file(
        path,
        setup.environment,
        setup.settings,
        setup.cache() if saved and use_cache else None,
        text=None if saved else text,
        on_facts=collect,
        search_project=True,
    )
    run = engine.RunResult([result])
    if config.profile:
        run = _with_profile(run, path, text, setup, analyzed[0].tu if analyzed else None, problems)
    shown = run.at_least(config.min_level).files[0]
    internal = [n.message for n in shown.notices if result.internal_error and n.message.startswith("internal error")]
    return Analysis(
        findings=shown.findings,
        notices=[n for n in shown.notices if n.message not in internal],
        facts=notes,
        internal_error="; ".join(internal) or None,
        problems=problems,
        from_cache=result.analyzed and not ran,
    )


_PROFILES: dict[str, tuple[int, object]] = {}
"""Measured-lines files read, by path, with the modification time they were read at."""


def _with_profile(run, path: str, text: bytes, setup: Setup, tu: ir.TranslationUnit | None, problems: list[str]):
    """The document's findings joined with the configured profile (``profile`` key)."""
    from cudalint.config import ignored_for_file, selector_matches
    from cudalint.profile.analysis import apply_profile
    from cudalint.profile.measured import MeasuredFileError, read

    location = setup.config.resolve(setup.config.profile)
    try:
        stamp = os.stat(location).st_mtime_ns
        known = _PROFILES.get(location)
        if known is None or known[0] != stamp:
            _PROFILES[location] = known = (stamp, read(Path(location)))
    except (OSError, MeasuredFileError) as exc:
        problems.append(f"profile {location}: {exc}")
        return run
    config, enabled = setup.config, setup.settings.enabled

    def enabled_for(file: str) -> set[str]:
        return {code for code in enabled if not any(selector_matches(s, code) for s in ignored_for_file(config, file))}

    def parse(file: str) -> ir.TranslationUnit:
        return tu if tu is not None else frontend.parse_file(file, setup.environment, text=text)

    return apply_profile(run, known[1], parse, enabled_for)


def _on_disk(path: str) -> bytes | None:
    try:
        return frontend.read_source(path)
    except frontend.SourceError:
        return None


def fact_notes(facts, path: str) -> list[FactNote]:
    """What ``cudalint facts`` says of each access and branch of ``path``, in every kernel analyzed."""
    from cudalint.figures import FigureBook, access_figure, branch_figure

    root = os.path.dirname(path)
    book = FigureBook(facts, root)
    notes = []
    for kernel in facts.kernels:
        name, shape = kernel.function.display_name, kernel.shape.describe()
        for access, pattern in kernel.accesses:
            if access.span.file == path:
                record = access_record(access, pattern, root, kernel)
                picture = _drawn(access_figure, book, kernel, access, pattern)
                notes.append(
                    FactNote(
                        access.span,
                        name,
                        shape,
                        access_heading(record),
                        (*access_details(record), *context_lines(record)),
                        picture,
                    )
                )
        for branch, pattern in kernel.branches:
            if branch.stmt.span.file == path:
                record = branch_record(branch, pattern, root, kernel)
                picture = _drawn(branch_figure, book, kernel, branch, pattern)
                heading, details = branch_heading(record), (*branch_details(record), *context_lines(record))
                notes.append(FactNote(_head(branch.stmt), name, shape, heading, details, picture))
    return notes


def _drawn(figure, *arguments) -> Callable[[], str]:
    """The picture of a figure as text, drawn the first time it is asked for."""
    drawn: list[str] = []

    def picture() -> str:
        if not drawn:
            from cudalint.report.pictures import render_text

            drawn.append(render_text([figure(*arguments)]))
        return drawn[0]

    return picture


def _head(stmt: ir.Stmt) -> ir.Span:
    """A branch's keyword and condition: hovering its body is hovering what the body holds."""
    span, cond = stmt.span, stmt.cond
    if cond is not None and cond.span is not None and cond.span.file == span.file:
        return dataclasses.replace(span, end_line=cond.span.end_line, end_column=cond.span.end_column + 1)
    return dataclasses.replace(span, end_line=span.line, end_column=span.column + len(stmt.kind.value))
