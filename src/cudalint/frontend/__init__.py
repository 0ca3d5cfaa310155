"""The frontend: the only package that talks to libclang.

``parse_file`` turns one source file into an ``ir.TranslationUnit``; bad input raises
``SourceError`` with a one-line explanation.
"""

from __future__ import annotations

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
    "read_source",
]

# Keep going after errors: a missing header or a hard error must not end the parse; we
# analyze whatever the AST holds. The detailed preprocessing record lists macro
# expansions, to tell code written in a macro body from code written at the call site.
PARSE_OPTIONS = 0x200 | 0x01  # CXTranslationUnit_KeepGoing | CXTranslationUnit_DetailedPreprocessingRecord
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


def parse_file(path: str, environment: ParseEnvironment, text: str | None = None) -> ir.TranslationUnit:
    from clang import cindex

    from cudalint.frontend.lower import Lowering

    path = os.path.abspath(path)
    if text is None:
        text = read_source(path)
    args = environment.args_for(path)
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
