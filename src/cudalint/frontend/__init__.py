"""The frontend: the only package that talks to libclang.

``parse_file`` turns one source file into an ``ir.TranslationUnit``; bad input raises
``SourceError`` with a one-line explanation.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from pathlib import Path

from cudalint import ir
from cudalint.frontend.flags import (
    FileFlags,
    FrontendConfigError,
    FrontendOptions,
    ParseEnvironment,
    build_environment,
    parse_arch,
)

__all__ = [
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
    from clang import cindex

    from cudalint.frontend.lower import Lowering

    path = os.path.abspath(path)
    if text is None:
        text = read_source(path)
    args = environment.args_for(path)
    if environment.precompiled_dir is not None and environment.header_mode is ir.HeaderMode.TOOLKIT:
        header = precompiled_header(args, Path(environment.precompiled_dir))
        if header is not None:
            args = (*args, "-include-pch", header)
    index = cindex.Index.create()
    try:
        tu = index.parse(path, args=list(args), unsaved_files=[(path, text)], options=PARSE_OPTIONS)
    except cindex.TranslationUnitLoadError:
        raise SourceError("libclang could not parse the file") from None
    if sys.getrecursionlimit() < _RECURSION_LIMIT:
        sys.setrecursionlimit(_RECURSION_LIMIT)
    try:
        return Lowering(tu, path, text, environment.header_mode).run()
    except RecursionError:
        raise SourceError("expressions nested too deeply to analyze") from None
