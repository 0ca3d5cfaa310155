"""The frontend: the only package that talks to libclang.

``parse_file`` turns one source file into an ``ir.TranslationUnit``; bad input raises
``SourceError`` with a one-line explanation.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from collections.abc import Sequence
from pathlib import Path

from cudalint import ir
from cudalint.frontend import recovery
from cudalint.frontend.flags import (
    FileFlags,
    FrontendConfigError,
    FrontendOptions,
    ParseEnvironment,
    build_environment,
    parse_arch,
)
from cudalint.frontend.includes import CUDA_SUFFIXES, IncludeGraph

__all__ = [
    "CUDA_SUFFIXES",
    "IncludeGraph",
    "FileFlags",
    "FrontendConfigError",
    "FrontendOptions",
    "PARSE_OPTIONS",
    "ParseEnvironment",
    "SourceError",
    "build_environment",
    "parse_arch",
    "parse_file",
    "precompiled_header",
    "read_source",
]

# Keep going after errors: a missing header or a hard error must not end the parse; we
# analyze whatever the AST holds. The detailed preprocessing record lists macro
# expansions, to tell code written in a macro body from code written at the call site.
PARSE_OPTIONS = 0x200 | 0x01  # CXTranslationUnit_KeepGoing | CXTranslationUnit_DetailedPreprocessingRecord
_INCOMPLETE = 0x02  # CXTranslationUnit_Incomplete: what a precompiled header is saved from
# Lowering recurses once per nesting level of the source; generated code nests deeply.
_RECURSION_LIMIT = 20000


class SourceError(Exception):
    """A file that cannot be analyzed at all (missing, unreadable, binary, empty...)."""


def read_source(path: str) -> str:
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise SourceError("no such file") from None
    except OSError as exc:
        raise SourceError(f"cannot access: {exc.strerror or exc}") from None
    if stat.S_ISDIR(info.st_mode):
        raise SourceError("is a directory")
    if not stat.S_ISREG(info.st_mode):
        raise SourceError("not a regular file")
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise SourceError(f"cannot read: {exc.strerror or exc}") from None
    if not data.strip():
        raise SourceError("empty file, nothing to analyze")
    if b"\0" in data[:8192]:
        raise SourceError("binary file, not CUDA source")
    try:
        # clang is handed the text without its byte-order mark, so columns match what editors show.
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SourceError(f"not valid UTF-8 (byte {exc.start})") from None


def precompiled_header(args: tuple[str, ...], directory: Path) -> str | None:
    """A precompiled header of the CUDA headers for ``args``, built the first time a set of
    flags is seen and kept in ``directory`` for every later file and run with the same set.
    Parsing the toolkit's headers is most of a file's parse; loading them precompiled is
    about ten times faster. None when it cannot be built (the file is parsed without)."""
    from clang import cindex

    prefix = directory / "prefix.cuh"
    # The headers' modification times are part of the key: clang rejects a stale PCH.
    stamps = []
    for toolkit in (a.split("=", 1)[1] for a in args if a.startswith("--cuda-path=")):
        runtime = Path(toolkit) / "include" / "cuda_runtime.h"
        if runtime.exists():
            stamps.append(str(runtime.stat().st_mtime_ns))
    # So are those of the force-included headers and their neighbours (cudalint's own, which
    # a new version changes).
    for included in (args[index + 1] for index, arg in enumerate(args[:-1]) if arg == "-include"):
        stamps.extend(str(header.stat().st_mtime_ns) for header in sorted(Path(included).parent.glob("*.h")))
    key = hashlib.sha256("\0".join((*args, *stamps)).encode()).hexdigest()[:20]
    target = directory / f"cuda-{key}.pch"
    if target.exists():
        return str(target)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        if not prefix.exists():
            prefix.write_text("// The CUDA headers every file starts with, precompiled.\n", encoding="utf-8")
        tu = cindex.Index.create().parse(str(prefix), args=list(args), options=PARSE_OPTIONS | _INCOMPLETE)
        if any(d.severity >= cindex.Diagnostic.Error for d in tu.diagnostics):
            return None
        temporary = directory / f".{target.name}.{os.getpid()}.tmp"
        tu.save(str(temporary))
        os.replace(temporary, target)  # Concurrent builders of the same header: the last one wins.
    except (OSError, cindex.TranslationUnitLoadError, cindex.TranslationUnitSaveError):
        return None
    return str(target)


def parse_file(path: str, environment: ParseEnvironment, text: str | None = None) -> ir.TranslationUnit:
    """Parse and lower ``path``. A file with errors that another file includes is parsed
    inside that one; names still missing are then recovered (see ``recovery``)."""
    from cudalint.frontend.lower import Lowering

    path = os.path.abspath(path)
    if text is None:
        text = read_source(path)
    parser = _Parser(path, text, environment)
    tu, context = _parse_in_context(parser, environment)
    headers: list[tuple[str, str | None]] = []
    if recovery.needs_legacy_textures(_errors(tu)):
        headers.append((recovery.LEGACY_HEADER, None))
        tu = parser.parse(context, headers)
    errors = _errors(tu)
    # The including file's own errors are reported when it is analyzed itself.
    reported = tuple(e for e in errors if context == path or e.span is None or e.span.file != context)
    undeclared = recovery.undeclared_names(errors)
    if undeclared:
        for name in recovery.declared_at_file_scope(tu) & undeclared.keys():
            del undeclared[name]
    if undeclared:
        headers.append((recovery.UNKNOWNS_HEADER, recovery.unknown_declarations(undeclared, {path: text.encode()})))
        tu = parser.parse(context, headers)
    if sys.getrecursionlimit() < _RECURSION_LIMIT:
        sys.setrecursionlimit(_RECURSION_LIMIT)
    try:
        return Lowering(tu, path, text, environment.header_mode, reported, frozenset(undeclared),
                        dependencies=(context,) if context != path else ()).run()
    except RecursionError:
        raise SourceError("expressions nested too deeply to analyze") from None


def _parse_in_context(parser: _Parser, environment: ParseEnvironment):
    """(translation unit, file parsed): the file alone, or, when it has errors alone, the
    first file that includes it (see ``IncludeGraph.includers_of``) and really does."""
    path = parser.path
    alone = parser.parse(path)
    if not _errors(alone):
        return alone, path
    for includer in _includers(path, environment):
        try:
            inside = parser.parse(includer)
        except SourceError:
            continue
        if any(inclusion.include.name == path for inclusion in inside.get_includes()):
            return inside, includer
    return alone, path


class _Parser:
    """Parses of one file, alone or inside another, with extra headers included first."""

    def __init__(self, path: str, text: str, environment: ParseEnvironment):
        from clang import cindex

        self.path, self.text, self.environment = path, text, environment
        self.index = cindex.Index.create()

    def parse(self, main: str, headers: Sequence[tuple[str, str | None]] = ()):
        """``headers``: (path, contents) force-included after the CUDA headers; contents
        None reads the file."""
        from clang import cindex

        args = self.environment.args_for(main)
        if self.environment.precompiled_dir is not None and self.environment.header_mode is ir.HeaderMode.TOOLKIT:
            header = precompiled_header(args, Path(self.environment.precompiled_dir))
            if header is not None:
                args = (*args, "-include-pch", header)
        unsaved = [(self.path, self.text)]
        for header, contents in headers:
            args = (*args, "-include", header)
            if contents is not None:
                unsaved.append((header, contents))
        try:
            return self.index.parse(main, args=list(args), unsaved_files=unsaved, options=PARSE_OPTIONS)
        except cindex.TranslationUnitLoadError:
            raise SourceError("libclang could not parse the file") from None


def _errors(tu) -> tuple[ir.ParseError, ...]:
    from clang import cindex

    errors = []
    for diagnostic in tu.diagnostics:
        if diagnostic.severity < cindex.Diagnostic.Error:
            continue
        location = diagnostic.location
        span = None
        if location.file is not None:
            span = ir.Span(location.file.name, location.line, location.column, location.line, location.column)
        errors.append(ir.ParseError(diagnostic.spelling, span))
    return tuple(errors)


def _includers(path: str, environment: ParseEnvironment) -> tuple[str, ...]:
    """Files that include ``path``: among the run's files, or else among the CUDA files
    beside it and those the compile database lists."""
    graph = environment.include_graph
    if graph is None:
        try:
            beside = [str(p) for p in Path(path).parent.iterdir() if p.suffix in CUDA_SUFFIXES]
        except OSError:
            beside = []
        graph = IncludeGraph.around(beside, environment)
    return graph.includers_of(path)
