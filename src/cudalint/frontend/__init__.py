"""The frontend: the only package that talks to libclang.

``parse_file`` turns one source file into an ``ir.TranslationUnit``; bad input raises
``SourceError`` with a one-line explanation.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
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
    system_include_dirs,
)
from cudalint.frontend.includes import CUDA_SUFFIXES, HEADER_SUFFIXES, IncludeGraph, ProjectFiles, project_root

__all__ = [
    "CUDA_SUFFIXES",
    "HEADER_SUFFIXES",
    "IncludeGraph",
    "MISSING_HEADER",
    "ProjectFiles",
    "FileFlags",
    "FrontendConfigError",
    "FrontendOptions",
    "PARSE_OPTIONS",
    "ParseEnvironment",
    "SourceError",
    "build_environment",
    "parse_arch",
    "parse_file",
    "parse_unit",
    "ParsedUnit",
    "precompiled_header",
    "project_root",
    "checked_source",
    "read_source",
    "sources_beside",
]

# Keep going after errors: a missing header or a hard error must not end the parse; we
# analyze whatever the AST holds. The detailed preprocessing record lists macro
# expansions, to tell code written in a macro body from code written at the call site.
PARSE_OPTIONS = 0x200 | 0x01  # CXTranslationUnit_KeepGoing | CXTranslationUnit_DetailedPreprocessingRecord
_INCOMPLETE = 0x02  # CXTranslationUnit_Incomplete: what a precompiled header is saved from
# Lowering recurses once per nesting level of the source; generated code nests deeply.
_RECURSION_LIMIT = 20000


MISSING_HEADER = re.compile(r"'(.+)' file not found")
"""clang's message for an ``#include`` it cannot resolve."""


class SourceError(Exception):
    """A file that cannot be analyzed at all (missing, unreadable, binary, empty...)."""


def read_source(path: str) -> bytes:
    """The file's bytes as the compiler reads them, less a UTF-8 byte-order mark (clang is
    handed the text without it, so columns match what editors show). Bytes that are not
    UTF-8 are kept: nvcc accepts them in comments and strings, and so do we."""
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
    return checked_source(data)


def checked_source(data: bytes) -> bytes:
    """``data`` as the compiler reads it (see ``read_source``), or ``SourceError`` when it
    is nothing to analyze: the same test for a file on disk and an editor's buffer."""
    if not data.strip():
        raise SourceError("empty file, nothing to analyze")
    if b"\0" in data[:8192]:
        raise SourceError("binary file, not CUDA source")
    return data.removeprefix(b"\xef\xbb\xbf")


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
    for included in _force_included(args):
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


@dataclass
class ParsedUnit:
    """A parsed translation unit, ready to be lowered to the IR."""

    tu: object
    """libclang's translation unit."""
    main: str
    focus: str
    focus_data: bytes
    header_mode: ir.HeaderMode
    errors: tuple[ir.ParseError, ...]
    unknown_names: frozenset[str]
    buffers: Mapping[str, bytes] = field(default_factory=dict)
    """Files read from memory instead of disk (an editor's unsaved buffers)."""

    def included_files(self) -> tuple[str, ...]:
        """The files the parse read besides ``main``."""
        from cudalint.frontend import clang_ext

        return tuple(sorted({clang_ext.file_name(inclusion.include) for inclusion in self.tu.get_includes()}))

    def lower(self, own: Sequence[str] = ()) -> ir.TranslationUnit:
        """The unit's IR; ``own``: headers whose functions are lowered as written, as the
        focus's are (``units.Unit.own``)."""
        from cudalint.frontend.lower import Lowering

        if sys.getrecursionlimit() < _RECURSION_LIMIT:
            sys.setrecursionlimit(_RECURSION_LIMIT)
        try:
            return Lowering(
                self.tu,
                self.focus,
                self.focus_data,
                self.header_mode,
                self.errors,
                self.unknown_names,
                dependencies=(self.main,) if self.focus != self.main else (),
                buffers=self.buffers,
                own=own,
            ).run()
        except RecursionError:
            raise SourceError("expressions nested too deeply to analyze") from None


def parse_unit(
    main: str,
    environment: ParseEnvironment,
    data: bytes | None = None,
    *,
    include_dirs: Sequence[str] = (),
    legacy_api: bool = False,
    project: ProjectFiles | None = None,
    focus: str | None = None,
    focus_data: bytes | None = None,
    buffers: Mapping[str, bytes] | None = None,
) -> ParsedUnit:
    """Parse ``main`` once, to lower the project code it holds: its own and that of the
    project files it includes.

    What recovery needs is prepared before the parse: ``include_dirs`` (where the project
    keeps headers the search path misses, searched after the directories the arguments
    name) and the declarations of the removed runtime API when ``legacy_api``. A second
    parse happens only when the first shows a need nobody foresaw (a header ``project``
    holds, the legacy API, syntax nvcc accepts and clang rejects, names declared
    nowhere). ``focus``: the file the result is about when it is not ``main`` (it sets
    ``path`` and ``in_main_file``), with ``focus_data`` its contents.
    ``buffers``: contents to use instead of what is on disk, by absolute path (an editor's
    unsaved files; checked as ``read_source`` checks a file)."""
    main = os.path.abspath(main)
    buffers = {path: checked_source(contents) for path, contents in (buffers or {}).items()}
    if data is None:
        data = buffers[main] if main in buffers else read_source(main)
    focus = os.path.abspath(focus) if focus else main
    unsaved = {**buffers, main: data}
    if focus != main:
        unsaved[focus] = focus_data if focus_data is not None else unsaved.get(focus) or read_source(focus)
    parser = _Parser(main, unsaved, environment)
    directories = list(include_dirs)
    headers: list[tuple[str, str | None]] = [(recovery.LEGACY_HEADER, None)] if legacy_api else []
    tu = parser.parse(directories, headers)
    errors = _errors(tu)
    again = False
    if not legacy_api and recovery.needs_legacy_api(errors):
        headers.append((recovery.LEGACY_HEADER, None))
        again = True
    for directory in _project_directories(errors, project):
        if directory not in directories:
            directories.append(directory)
            again = True
    again |= _rewrite(parser, recovery.asm_lines(errors), recovery.asm_escapes_kept)
    again |= _rewrite(parser, recovery.misplaced_alignas(errors), recovery.alignas_moved)
    if again:
        tu = parser.parse(directories, headers)
        errors = _errors(tu)
    undeclared = recovery.undeclared_names(errors)
    if undeclared:
        for name in recovery.declared_at_file_scope(tu) & undeclared.keys():
            del undeclared[name]
    if undeclared:
        headers.append((recovery.UNKNOWNS_HEADER, recovery.unknown_declarations(undeclared, dict(unsaved))))
        tu = parser.parse(directories, headers)
    if focus != main:
        # The including file's own errors are reported when it is analyzed itself.
        errors = tuple(e for e in errors if e.span is None or e.span.file != main)
    return ParsedUnit(tu, main, focus, unsaved[focus], environment.header_mode, errors, frozenset(undeclared), buffers)


def parse_file(path: str, environment: ParseEnvironment, text: str | bytes | None = None) -> ir.TranslationUnit:
    """Parse and lower ``path``: inside the first file that includes it and really does
    (see ``IncludeGraph.includers_of``), where its kernels are launched and the types and
    macros it uses are defined; alone when nothing does."""
    path = os.path.abspath(path)
    data = read_source(path) if text is None else text if isinstance(text, bytes) else text.encode("utf-8")
    for includer in _includers(path, environment):
        try:
            tu = parse_unit(includer, environment, focus=path, focus_data=data).lower()
        except SourceError:
            continue
        if path in tu.includes:
            return tu
    return parse_unit(path, environment, data).lower()


def _rewrite(parser: _Parser, places: Mapping[str, set], rewrite: Callable[[bytes, set], bytes]) -> bool:
    """Rewrite, in the text the parser reads, the syntax clang rejects at ``places`` (by
    file) that nvcc accepts; whether anything is to be parsed again."""
    changed = False
    system = None
    for file, where in places.items():
        # Never a toolkit or system header: a precompiled one must stay as it was read.
        system = system or tuple(os.path.join(d, "") for d in system_include_dirs(parser.environment))
        if file.startswith(system):
            continue
        try:
            source = parser.rewritten.get(file) or parser.unsaved.get(file) or read_source(file)
        except SourceError:
            continue
        parser.rewritten[file] = rewrite(source, where)
        changed = True
    return changed


def _project_directories(errors: Sequence[ir.ParseError], project: ProjectFiles | None) -> list[str]:
    """Directories of the project that hold headers the parse did not find."""
    if project is None:
        return []
    found = []
    for error in errors:
        match = MISSING_HEADER.fullmatch(error.message)
        if match and error.span is not None:
            directory = project.directory_for(match.group(1), os.path.dirname(error.span.file))
            if directory is not None and directory not in found:
                found.append(directory)
    return found


class _Parser:
    """Parses of one file with extra include directories and headers included first."""

    def __init__(self, main: str, unsaved: dict[str, bytes], environment: ParseEnvironment):
        from clang import cindex

        from cudalint.frontend import clang_ext

        clang_ext.decode_strings_leniently()
        self.main, self.unsaved, self.environment = main, unsaved, environment
        self.rewritten: dict[str, bytes] = {}
        """Project files parsed rewritten in place where clang rejects what nvcc accepts
        (``recovery.asm_escapes_kept``, ``recovery.alignas_moved``)."""
        self.index = cindex.Index.create()
        # The lowering visits the top level of the unit, where a precompiled header's
        # declarations are most of what there is to visit: an index that leaves them out
        # does the visit a favour, as long as the header holds only the toolkit's code.
        self.index_without_header = cindex.Index.create(excludeDecls=True)

    def parse(self, directories: Sequence[str] = (), headers: Sequence[tuple[str, str | None]] = ()):
        """``directories``: searched after those of the arguments, as project code; ``headers``: (path, contents)
        force-included after the CUDA headers, contents None reading the file."""
        from clang import cindex

        args = self.environment.args_for(self.main)
        index = self.index
        if self.environment.precompiled_dir is not None and self.environment.header_mode is ir.HeaderMode.TOOLKIT:
            header = precompiled_header(args, Path(self.environment.precompiled_dir))
            if header is not None:
                if _force_included(args) == _force_included(self.environment.base_args):
                    index = self.index_without_header
                args = (*args, "-include-pch", header)
        # As the user's own `-I` would (after the build's and the command line's, before the
        # system's): an `-idirafter` directory is a system one, whose code the lowering skips.
        args = (*args, *(f"-I{directory}" for directory in directories))
        unsaved = list({**self.unsaved, **self.rewritten}.items())
        for header, contents in headers:
            args = (*args, "-include", header)
            if contents is not None:
                unsaved.append((header, contents))
        try:
            return index.parse(self.main, args=list(args), unsaved_files=unsaved, options=PARSE_OPTIONS)
        except cindex.TranslationUnitLoadError:
            raise SourceError("libclang could not parse the file") from None


def _force_included(args: Sequence[str]) -> list[str]:
    """The headers ``args`` include before the file (``-include``): what a precompiled
    header made with ``args`` holds besides the toolkit."""
    return [args[index + 1] for index, arg in enumerate(args[:-1]) if arg == "-include"]


def _errors(tu) -> tuple[ir.ParseError, ...]:
    from clang import cindex

    from cudalint.frontend import clang_ext

    errors = []
    for diagnostic in tu.diagnostics:
        if diagnostic.severity < cindex.Diagnostic.Error:
            continue
        location = diagnostic.location
        span = None
        if location.file is not None:
            name = clang_ext.normalized_path(location.file.name)
            span = ir.Span(name, location.line, location.column, location.line, location.column)
        error = ir.ParseError(diagnostic.spelling, span)
        if not recovery.accepted_by_nvcc(error):
            errors.append(error)
    return tuple(errors)


def compiled_file(path: str, environment: ParseEnvironment) -> str:
    """The file nvcc compiles for ``path``'s code: a header's first includer (as
    ``parse_file`` parses it), else ``path``."""
    path = os.path.abspath(path)
    if Path(path).suffix not in HEADER_SUFFIXES:
        return path
    return next(iter(_includers(path, environment)), path)


def _includers(path: str, environment: ParseEnvironment) -> tuple[str, ...]:
    """Files that include ``path``: among the run's files, or else among the CUDA files
    beside it and those the compile database lists."""
    graph = environment.include_graph or IncludeGraph.around([path, *sources_beside(path)], environment)
    return graph.includers_of(path)


def sources_beside(path: str) -> list[str]:
    """The CUDA sources in ``path``'s directory other than ``path``: where a file written to
    be included is most often included from."""
    try:
        return [str(p) for p in Path(path).parent.iterdir() if p.suffix in CUDA_SUFFIXES and str(p) != path]
    except OSError:
        return []
