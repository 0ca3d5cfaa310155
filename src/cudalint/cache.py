"""The result cache: an unchanged file costs a hash check, not a parse.

An entry is keyed by the file's path and contents, the exact compiler arguments it is
parsed with, and a fingerprint of everything else that decides the result (cudalint's
version, the enabled rules, the configuration). It records the content hash of every
header the file included; a changed header invalidates it. Entries are written to a
temporary file and renamed into place, so concurrent runs (pre-commit starts several)
never read a partial entry.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from pathlib import Path
from typing import Any

CACHE_DIRECTORY_NAME = ".cudalint_cache"
_FORMAT = 2


def default_cache_dir(config_root: Path) -> Path:
    """Where results are kept unless told otherwise: ``CUDALINT_CACHE_DIR``, else beside the configuration."""
    return Path(os.environ.get("CUDALINT_CACHE_DIR") or (config_root / CACHE_DIRECTORY_NAME)).resolve()


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
        self._header_hashes: dict[str, str | None] = {}

    def _header_hash(self, path: str) -> str | None:
        """Content hash of an included file, computed once per run."""
        if path not in self._header_hashes:
            try:
                self._header_hashes[path] = _digest(Path(path).read_bytes())
            except OSError:
                self._header_hashes[path] = None
        return self._header_hashes[path]

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
                includes, result = pickle.load(handle)
        except (OSError, EOFError, pickle.UnpicklingError, ValueError, TypeError, AttributeError):
            return None
        if any(self._header_hash(header) != digest for header, digest in includes):
            return None
        return result

    def store(self, path: str, data: bytes, args: tuple[str, ...], includes: tuple[str, ...], result: Any) -> None:
        entry = self._entry_path(path, data, args)
        recorded = [(header, self._header_hash(header)) for header in includes]
        if any(digest is None for _, digest in recorded):
            return  # A header we cannot read now could not be checked later either.
        try:
            entry.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=entry.parent, suffix=".tmp")
        except OSError:
            return  # A cache that cannot be written only costs speed.
        try:
            with os.fdopen(handle, "wb") as stream:
                pickle.dump((recorded, result), stream, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, entry)
        except BaseException as exc:
            # Interrupted too (a time limit, a cancelled analysis): no stray temporary file.
            Path(temporary).unlink(missing_ok=True)
            if not isinstance(exc, OSError):
                raise
