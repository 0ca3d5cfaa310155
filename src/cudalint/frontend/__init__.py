"""The frontend: the only package that talks to libclang.

``parse_file`` turns one source file into an ``ir.TranslationUnit``; bad input raises
``SourceError`` with a one-line explanation.
"""

from __future__ import annotations

import dataclasses
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
    "prepare_precompiled_header",
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


def prepare_precompiled_header(environment: ParseEnvironment, directory: Path) -> ParseEnvironment:
    """The environment with a precompiled header of the CUDA headers for the default flags,
    built once into ``directory`` (shared by every run with the same set-up). Parsing the
    toolkit's headers is most of a file's parse; loading them precompiled is ~10x faster.
    Falls back to the environment as it is when the header cannot be built."""
    from clang import cindex

    if environment.header_mode is not ir.HeaderMode.TOOLKIT:
        return environment
    prefix = directory / "prefix.cuh"
    args = environment.args_for(str(prefix))
    # The headers' modification times are part of the key: clang rejects a stale PCH.
    headers = [a.split("=", 1)[1] for a in args if a.startswith("--cuda-path=")]
    stamps = [str(os.stat(Path(h) / "include" / "cuda_runtime.h").st_mtime_ns) for h in headers if (Path(h) / "include" / "cuda_runtime.h").exists()]
    key = hashlib.sha256("\0".join((*args, *stamps)).encode()).hexdigest()[:20]
    target = directory / f"cuda-{key}.pch"
    if not target.exists():
        try:
            directory.mkdir(parents=True, exist_ok=True)
            if not prefix.exists():
                prefix.write_text("// The CUDA headers every file starts with, precompiled.\n", encoding="utf-8")
            tu = cindex.Index.create().parse(str(prefix), args=list(args), options=PARSE_OPTIONS | _INCOMPLETE)
            if any(d.severity >= cindex.Diagnostic.Error for d in tu.diagnostics):
                return environment
            temporary = directory / f".{target.name}.{os.getpid()}.tmp"
            tu.save(str(temporary))
            os.replace(temporary, target)
        except (OSError, cindex.TranslationUnitLoadError, cindex.TranslationUnitSaveError):
            return environment
    return dataclasses.replace(environment, precompiled=(args, str(target)))


def parse_file(path: str, environment: ParseEnvironment, text: str | None = None) -> ir.TranslationUnit:
    from clang import cindex

    from cudalint.frontend.lower import Lowering

    path = os.path.abspath(path)
    if text is None:
        text = read_source(path)
    args = environment.args_for(path)
    if environment.precompiled is not None and environment.precompiled[0] == args:
        args = (*args, "-include-pch", environment.precompiled[1])
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
