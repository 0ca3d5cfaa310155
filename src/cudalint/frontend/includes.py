"""Which source files ``#include`` which, read from their directives without parsing.

Real trees hold kernel files written to be included by another file (``#include
"kernel.cu"`` after the types and macros they use) that do not compile alone. Such a
file is analyzed inside a file that includes it; this graph says which ones do.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from cudalint.frontend.flags import ParseEnvironment, include_search_path

CUDA_SUFFIXES = (".cu", ".cuh")
_DIRECTIVE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*([<"])([^">\r\n]+)[">]', re.MULTILINE)


def _normalized(path: str) -> str:
    return os.path.normpath(os.path.abspath(path))


@dataclass(frozen=True)
class IncludeGraph:
    included_by: Mapping[str, frozenset[str]]
    """For each file, the files among those scanned whose directives include it."""

    @classmethod
    def scan(cls, files: Iterable[str], args_for: Callable[[str], tuple[str, ...]]) -> IncludeGraph:
        """Resolve the directives of ``files`` as clang would with ``args_for(file)``,
        keeping only those that name one of ``files``. Unreadable files include nothing."""
        paths = sorted({_normalized(f) for f in files})
        by_name: dict[str, set[str]] = {}
        for path in paths:
            by_name.setdefault(os.path.basename(path), set()).add(path)
        included_by: dict[str, set[str]] = {}
        for includer in paths:
            try:
                with open(includer, "rb") as handle:
                    data = handle.read()
            except OSError:
                continue
            search_path = None
            for delimiter, target in _DIRECTIVE.findall(data):
                name = target.decode("utf-8", errors="replace")
                candidates = by_name.get(os.path.basename(name))
                if not candidates:
                    continue  # The common case, a library header: no lookup needed.
                if search_path is None:
                    search_path = include_search_path(args_for(includer))
                directories = ([os.path.dirname(includer)] if delimiter == b'"' else []) + search_path
                for directory in directories:
                    resolved = os.path.normpath(os.path.join(directory, name))
                    if os.path.isfile(resolved):
                        if resolved in candidates and resolved != includer:
                            included_by.setdefault(resolved, set()).add(includer)
                        break
        return cls({path: frozenset(sources) for path, sources in included_by.items()})

    @classmethod
    def around(cls, files: Iterable[str], environment: ParseEnvironment) -> IncludeGraph:
        """The graph of ``files`` and of the CUDA files the compile database lists: a file
        built only through another one is still parsed with that one's flags."""
        listed = [f for f in environment.compile_db.entries if f.endswith(CUDA_SUFFIXES)] if environment.compile_db else []
        return cls.scan([*files, *listed], environment.args_for)

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
