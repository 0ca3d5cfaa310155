"""Which files of the project ``#include`` which, read from their directives without parsing.

Real trees keep device code in headers and in ``.cu`` files written to be included by
another file (``#include "kernel.cu"`` after the types and macros they use); the launch
that says how a kernel's blocks are shaped is often in the including file. Such files
are analyzed inside a file that includes them, and this graph says which ones do.

The directives are resolved as the compiler would (the including file's directory, then
the ``-I`` directories); those that name project headers are followed. A directive the
search path does not satisfy, and no system directory holds, is looked for by its
relative path inside the project (``ProjectFiles``): the directory where it is found is
what the user would otherwise have to pass with ``-I``.
"""

from __future__ import annotations

import fnmatch
import functools
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from cudalint.frontend import recovery
from cudalint.frontend.flags import USER_SEARCH_FLAGS, ParseEnvironment, include_search_path

CUDA_SUFFIXES = (".cu", ".cuh")
"""Files analyzed as translation units of their own when nothing includes them."""
HEADER_SUFFIXES = (".cuh", ".h", ".hpp", ".hh", ".hxx", ".inl")
"""Files analyzed through the files that include them."""
_DIRECTIVE = re.compile(rb'#[ \t]*include[ \t]*([<"])([^">\r\n]+)[">]')
# The runtime API CUDA 12 and 13 removed, as written in source (see ``recovery``); a file
# declaring its own `texture` type is not using it.
_LEGACY_USE = re.compile(
    rb"\b(?:"
    + "|".join(recovery.LEGACY_TEMPLATES).encode()
    + rb")\s*<|\b(?:"
    + "|".join(sorted(recovery.LEGACY_NAMES - set(recovery.LEGACY_TEMPLATES))).encode()
    + rb")\b"
)
# Plain substrings one of which every use contains: searched first, they spare the regular
# expression nearly every file.
_LEGACY_WORDS = (b"texture", b"surface", b"Texture", b"Surface", b"cudaThread")
_OWN_TEXTURE = re.compile(rb"\b(?:struct|class)\s+(?:" + "|".join(recovery.LEGACY_TEMPLATES).encode() + rb")\b")
_LIBRARY_FLAGS = ("-isystem", "-idirafter")
# Directories no header of the sources lives in: build trees and their outputs.
_BUILD_DIRECTORIES = ("build", "builds", "_build", "build-*", "build_*", "cmake-build-*", "__pycache__", "node_modules")


REPOSITORY_MARKERS = (".git", ".hg", ".svn")
"""What the top of a checked-out repository holds."""
BUILD_FILES = (
    "CMakeLists.txt",
    "Makefile",
    "makefile",
    "GNUmakefile",
    "meson.build",
    "configure.ac",
    "pyproject.toml",
    "setup.py",
    "WORKSPACE",
    "MODULE.bazel",
)
"""Files that say a directory holds (part of) a project's sources: a build's description."""


def project_root(start: str) -> str:
    """The top of the project ``start`` (a directory or a file) belongs to: the nearest
    directory at or above it holding a repository; without one (a source archive), the
    outermost one holding a build file (a `CMakeLists.txt` in each of `proj/`, `proj/src/`
    and `proj/src/cuda/`: `proj/`), never the home directory or one above it, nor the
    filesystem's root or a directory right below it (`/tmp`); else ``start`` itself.
    Headers the search path misses are looked for below it."""
    first = Path(start) if os.path.isdir(start) else Path(start).parent
    first = Path(_normalized(str(first)))
    chain = [first, *first.parents]
    for directory in chain:
        if any((directory / marker).exists() for marker in REPOSITORY_MARKERS):
            return str(directory)
    home = Path(_normalized(os.path.expanduser("~")))
    outermost = first
    for directory in chain:
        if directory == home or directory in home.parents or len(directory.parts) <= 2:
            break
        if any((directory / name).is_file() for name in BUILD_FILES):
            outermost = directory
    return str(outermost)


def _normalized(path: str) -> str:
    return os.path.normpath(os.path.abspath(path))


class ProjectFiles:
    """The project's files by name, listed on first use: where a header that the search
    path misses really is. Hidden and build directories are skipped, and so is any
    directory given as ``skip`` (the CUDA toolkit)."""

    def __init__(self, root: str, skip: Iterable[str] = ()):
        self.root = _normalized(root)
        self._skip = {_normalized(d) for d in skip}
        self._by_name: dict[str, list[str]] | None = None

    def _index(self) -> dict[str, list[str]]:
        if self._by_name is None:
            self._by_name = {}
            visited: set[tuple[int, int]] = set()
            for directory, subdirectories, names in os.walk(self.root, followlinks=True):
                try:
                    info = os.stat(directory)
                except OSError:
                    continue
                if (info.st_dev, info.st_ino) in visited or "CMakeCache.txt" in names:
                    subdirectories[:] = []
                    continue
                visited.add((info.st_dev, info.st_ino))
                subdirectories[:] = sorted(
                    d
                    for d in subdirectories
                    if not _skipped_directory(d) and os.path.join(directory, d) not in self._skip
                )
                for name in names:
                    self._by_name.setdefault(name, []).append(os.path.join(directory, name))
        return self._by_name

    def directory_for(self, name: str, near: str) -> str | None:
        """The directory that makes ``#include <name>`` resolve to a project file, the one
        nearest to the directory ``near`` when several do; None when the project has none."""
        parts = [p for p in re.split(r"[\\/]+", name) if p not in ("", ".")]
        if not parts or ".." in parts or os.path.isabs(name):
            return None
        suffix = os.sep + os.path.join(*parts)
        found = [p[: -len(suffix)] for p in self._index().get(parts[-1], ()) if p.endswith(suffix)]
        if not found:
            return None
        # Among equally near ones, the one whose path shares most with ``near``: a sibling
        # `blas-gemm/` for `blas-gemm-batched/`, rather than `p4/`.
        return min(
            found,
            key=lambda directory: (
                _distance(near, directory),
                -len(os.path.commonprefix((near, directory))),
                len(directory),
                directory,
            ),
        )


def _skipped_directory(name: str) -> bool:
    return name.startswith(".") or any(fnmatch.fnmatch(name.lower(), pattern) for pattern in _BUILD_DIRECTORIES)


def _distance(a: str, b: str) -> int:
    """Steps between two directories through their common ancestor."""
    first, second = a.split(os.sep), b.split(os.sep)
    common = 0
    for x, y in zip(first, second, strict=False):
        if x != y:
            break
        common += 1
    return len(first) + len(second) - 2 * common


@dataclass(frozen=True)
class IncludeGraph:
    included_by: Mapping[str, frozenset[str]]
    """For each file, the scanned files whose directives include it."""
    includes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """For each scanned file, the project files its directives include."""
    found_in_project: Mapping[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    """For each scanned file, (directive, directory) of the headers the search path missed
    and the project holds."""
    legacy_api: frozenset[str] = frozenset()
    """Files that use the runtime API CUDA 12 and 13 removed."""

    @classmethod
    def scan(
        cls,
        files: Iterable[str],
        args_for: Callable[[str], tuple[str, ...]],
        project: ProjectFiles | None = None,
        system_dirs: Iterable[str] = (),
    ) -> IncludeGraph:
        """Resolve the directives of ``files``, and of the project files they include, as
        clang would with ``args_for(file)``. Headers that only ``system_dirs`` hold are not
        followed; those nothing holds are looked for in ``project``. Unreadable files
        include nothing."""
        system = [_normalized(d) for d in system_dirs if os.path.isdir(d)]
        included_by: dict[str, set[str]] = {}
        includes: dict[str, tuple[str, ...]] = {}
        found: dict[str, tuple[tuple[str, str], ...]] = {}
        legacy: set[str] = set()
        pending = sorted({_normalized(f) for f in files})
        seen = set(pending)
        while pending:
            includer = pending.pop()
            try:
                with open(includer, "rb") as handle:
                    data = handle.read()
            except OSError:
                continue
            if any(w in data for w in _LEGACY_WORDS) and _LEGACY_USE.search(data) and not _OWN_TEXTURE.search(data):
                legacy.add(includer)
            targets: list[str] = []
            found_here: list[tuple[str, str]] = []
            search_path = libraries = None
            for delimiter, raw in _directives(data):
                name = raw.decode("utf-8", errors="replace").strip()
                if search_path is None:
                    search_path, libraries = _search_dirs(args_for(includer), tuple(system))
                local = [os.path.dirname(includer)] if delimiter == b'"' else []
                resolved = _resolve(name, (*local, *search_path))
                if resolved is not None and _under(resolved, libraries):
                    continue  # The toolkit or a library named with -I: not the project's.
                if resolved is None:
                    if project is None or _resolve(name, libraries) is not None:
                        continue
                    directory = project.directory_for(name, os.path.dirname(includer))
                    if directory is None:
                        continue
                    found_here.append((name, directory))
                    resolved = os.path.normpath(os.path.join(directory, name))
                if resolved == includer:
                    continue
                targets.append(resolved)
                included_by.setdefault(resolved, set()).add(includer)
                if resolved not in seen:
                    seen.add(resolved)
                    pending.append(resolved)
            includes[includer] = tuple(dict.fromkeys(targets))
            if found_here:
                found[includer] = tuple(found_here)
        return cls(
            {path: frozenset(sources) for path, sources in included_by.items()}, includes, found, frozenset(legacy)
        )

    @classmethod
    def around(
        cls,
        files: Iterable[str],
        environment: ParseEnvironment,
        project: ProjectFiles | None = None,
        system_dirs: Iterable[str] = (),
    ) -> IncludeGraph:
        """The graph of ``files`` and of the CUDA files the compile database lists: a file
        built only through another one is still parsed with that one's flags."""
        listed = (
            [f for f in environment.compile_db.entries if f.endswith(CUDA_SUFFIXES)] if environment.compile_db else []
        )
        return cls.scan([*files, *listed], environment.args_for, project, system_dirs)

    def includers_of(self, path: str) -> tuple[str, ...]:
        """The files that include ``path``, directly or through others, best context first:
        files nothing includes (translation units of their own) before the rest, nearer
        before farther, ``.cu`` before headers."""
        origin = _normalized(path)
        depth = {origin: 0}
        frontier = [origin]
        while frontier:
            reached = []
            for file in frontier:
                for includer in self.included_by.get(file, ()):
                    if includer not in depth:
                        depth[includer] = depth[file] + 1
                        reached.append(includer)
            frontier = reached
        del depth[origin]
        return tuple(sorted(depth, key=lambda f: (f in self.included_by, depth[f], not f.endswith(".cu"), f)))

    def reachable(self, path: str) -> list[str]:
        """``path`` and the project files it includes, directly or not."""
        order = [_normalized(path)]
        seen = set(order)
        for file in order:
            for target in self.includes.get(file, ()):
                if target not in seen:
                    seen.add(target)
                    order.append(target)
        return order

    def project_directories(self, path: str) -> tuple[tuple[str, str, str], ...]:
        """(directory, directive, file with the directive) of each header that ``path`` needs,
        directly or through the files it includes, and that only the project search found."""
        needed: dict[str, tuple[str, str, str]] = {}
        for file in self.reachable(path):
            for name, directory in self.found_in_project.get(file, ()):
                needed.setdefault(directory, (directory, name, file))
        return tuple(needed.values())

    def uses_legacy_api(self, path: str) -> bool:
        return any(file in self.legacy_api for file in self.reachable(path))


def _directives(data: bytes) -> Iterator[tuple[bytes, bytes]]:
    """(delimiter, name) of each ``#include`` that begins its line (not one in a comment).
    Matching anywhere and then looking back is much faster than anchoring at every line."""
    for match in _DIRECTIVE.finditer(data):
        line_start = data.rfind(b"\n", 0, match.start()) + 1
        if not data[line_start : match.start()].strip():
            yield match.group(1), match.group(2)


@functools.lru_cache(maxsize=64)
def _search_dirs(args: tuple[str, ...], system: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the project's search path, where libraries are) for a file parsed with ``args``;
    most files of a run share their arguments."""
    return (
        tuple(include_search_path(args, USER_SEARCH_FLAGS)),
        (*system, *(_normalized(d) for d in include_search_path(args, _LIBRARY_FLAGS))),
    )


def _under(path: str, directories: tuple[str, ...]) -> bool:
    return any(path.startswith(directory + os.sep) for directory in directories)


@functools.lru_cache(maxsize=65536)
def _resolve(name: str, directories: tuple[str, ...]) -> str | None:
    """Where ``#include name`` lands searching ``directories``: the same system header is
    looked up by every file of a run."""
    for directory in directories:
        candidate = os.path.normpath(os.path.join(directory, name))
        if os.path.isfile(candidate):
            return candidate
    return None
