"""The result cache: an unchanged file costs a hash check, not a parse.

An entry is keyed by the file's path and contents, the exact compiler arguments it is
parsed with, and a fingerprint of everything else that decides the result (cudalint's
version and the content of its own files, the enabled rules, the configuration). It records the content hash of every
header the file included, and every path where a header it included but that was not
found was looked for: a changed header, or one that appears, invalidates it. A header is
hashed again whenever its size, modification time or inode changed, and a
``ResultCache`` lives for one run (or one analysis of the language server). A result is stored only when none of the
files it was read from changed after its analysis began, so that the hashes recorded are
those of the text analyzed. Entries are written to a temporary file and renamed into
place, so concurrent runs (pre-commit starts several) never read a partial entry.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import tempfile
from pathlib import Path
from typing import Any

CACHE_DIRECTORY_NAME = ".cudalint_cache"
_FORMAT = 3


def default_cache_dir(config_root: Path) -> Path:
    """Where results are kept unless told otherwise: ``CUDALINT_CACHE_DIR``, else beside the configuration."""
    return Path(os.environ.get("CUDALINT_CACHE_DIR") or (config_root / CACHE_DIRECTORY_NAME)).resolve()


@functools.cache
def analyzer_digest(package: Path = Path(__file__).parent) -> str:
    """The content of cudalint's own files (its code and bundled headers): a result is the
    analyzer's as much as the file's, and an install edited in place (a development
    checkout) keeps its version number."""
    files = sorted(p for p in package.rglob("*") if p.suffix in (".py", ".h") and "__pycache__" not in p.parts)
    return _digest(*(part for path in files for part in (str(path.relative_to(package)).encode(), path.read_bytes())))


def _digest(*parts: bytes) -> str:
    hasher = hashlib.sha256()
    for part in parts:
        hasher.update(len(part).to_bytes(8, "little"))
        hasher.update(part)
    return hasher.hexdigest()


class ResultCache:
    def __init__(self, directory: Path, fingerprint: str):
        self.directory = directory
        self.fingerprint = fingerprint
        self._header_hashes: dict[str, tuple[tuple[int, int, int], str]] = {}

    def _header_hash(self, path: str) -> str | None:
        """Content hash of an included file, computed again whenever its size, modification
        time or inode differ from when it was last hashed."""
        try:
            info = os.stat(path)
        except OSError:
            return None
        signature = (info.st_size, info.st_mtime_ns, info.st_ino)
        known = self._header_hashes.get(path)
        if known is None or known[0] != signature:
            try:
                known = self._header_hashes[path] = (signature, _digest(Path(path).read_bytes()))
            except OSError:
                return None
        return known[1]

    def _entry_path(self, path: str, data: bytes, args: tuple[str, ...]) -> Path:
        key = _digest(
            str(_FORMAT).encode(),
            self.fingerprint.encode(),
            os.path.abspath(path).encode(),
            data,
            "\0".join(args).encode(),
        )
        return self.directory / key[:2] / f"{key}.pickle"

    def lookup(self, path: str, data: bytes, args: tuple[str, ...]) -> Any | None:
        entry = self._entry_path(path, data, args)
        try:
            with open(entry, "rb") as handle:
                includes, absent, result = pickle.load(handle)
        except (OSError, EOFError, pickle.UnpicklingError, ValueError, TypeError, AttributeError):
            return None
        if any(self._header_hash(header) != digest for header, digest in includes):
            return None
        if any(os.path.lexists(candidate) for candidate in absent):
            return None  # A header missing then could be found now.
        return result

    def store(
        self,
        path: str,
        data: bytes,
        args: tuple[str, ...],
        includes: tuple[str, ...],
        result: Any,
        *,
        absent: tuple[str, ...] = (),
        since_ns: int | None = None,
    ) -> None:
        """Keep ``result`` of ``path`` read as ``data``: ``includes``, the headers it read;
        ``absent``, the paths where the headers it did not find were looked for;
        ``since_ns``, when its analysis began (``time.time_ns()``): a file among them
        modified since may not be what was analyzed, and nothing is stored."""
        if since_ns is not None and _modified_since((path, *includes), since_ns):
            return
        entry = self._entry_path(path, data, args)
        recorded = [(header, self._header_hash(header)) for header in includes]
        if any(digest is None for _, digest in recorded):
            return  # A header we cannot read now could not be checked later either.
        if any(os.path.lexists(candidate) for candidate in absent):
            return  # Missing when parsed, there now: not what was analyzed.
        try:
            entry.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=entry.parent, suffix=".tmp")
        except OSError:
            return  # A cache that cannot be written only costs speed.
        try:
            with os.fdopen(handle, "wb") as stream:
                pickle.dump((recorded, tuple(absent), result), stream, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, entry)
        except BaseException as exc:
            # Interrupted too (a time limit, a cancelled analysis): no stray temporary file.
            Path(temporary).unlink(missing_ok=True)
            if not isinstance(exc, OSError):
                raise


def _modified_since(paths, since_ns: int) -> bool:
    for path in paths:
        try:
            if os.stat(path).st_mtime_ns > since_ns:
                return True
        except OSError:
            return True
    return False
