"""Measured-lines files: what ``cudalint profile`` writes and ``cudalint check --profile`` reads.

One JSON object, figures only (no source text)::

    {"format": "cudalint-measured-lines", "version": 1,
     "binary": {"path": "/abs/app", "size": 123456, "sha256": "..."},
     "command": ["./app", "arg"], "gpu": "NVIDIA H200", "ncu": "2025.3.1.0",
     "selection": ["--kernel-name-base", "demangled", "--kernel-id", ":::1", "--launch-count", "64"],
     "kernels": [{"name": "k", "block": [256, 1, 1], "grid": [48, 1, 1]}],
     "columns": ["sass", "inst", ...],
     "lines": {"/abs/path/k.cu": {"12": [figures in column order]}},
     "problems": ["..."]}

File names are those of the binary's line table (absolute where nvcc was given absolute
paths, as build systems do); a file analyzed elsewhere is matched by the longest tail of
path components it shares with one of them. Every line the compiler emitted device code
for is listed, executed or not; lines of the CUDA toolkit's own headers are left out.
Column meanings are those of ``source_lines.LineFigures``.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from cudalint.profile.source_lines import (
    COLUMNS,
    Instruction,
    LineFigures,
    ProfiledKernel,
    line_figures,
    toolkit_header,
)

FORMAT = "cudalint-measured-lines"
VERSION = 1


class MeasuredFileError(Exception):
    """A measured-lines file that cannot be read: one line for the user."""


@dataclass
class MeasuredLines:
    binary: dict = field(default_factory=dict)
    """``path``, ``size`` and ``sha256`` of the profiled binary (empty when unknown)."""
    command: list[str] = field(default_factory=list)
    gpu: str = "unknown"
    ncu: str = "unknown"
    selection: list[str] = field(default_factory=list)
    kernels: list[dict] = field(default_factory=list)
    lines: dict[str, dict[int, LineFigures]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def provenance(self) -> str:
        """``ncu 2025.3.1.0, NVIDIA H200``: where the figures come from, for messages."""
        return f"ncu {self.ncu}, {self.gpu}"

    def executed_lines(self) -> int:
        return sum(1 for lines in self.lines.values() for f in lines.values() if f.inst)

    def to_json(self) -> str:
        head = {
            "format": FORMAT,
            "version": VERSION,
            "binary": self.binary,
            "command": self.command,
            "gpu": self.gpu,
            "ncu": self.ncu,
            "selection": self.selection,
            "kernels": self.kernels,
            "columns": list(COLUMNS),
            "problems": self.problems,
        }
        parts = [f"  {json.dumps(key)}: {json.dumps(value)}" for key, value in head.items()]
        # One source line per text line: two runs diff line by line.
        files = []
        for name in sorted(self.lines):
            rows = ",\n".join(
                f"      {json.dumps(str(n))}: {json.dumps(f.row())}" for n, f in sorted(self.lines[name].items())
            )
            files.append(f"    {json.dumps(name)}: {{\n{rows}\n    }}")
        parts.append('  "lines": {\n' + ",\n".join(files) + "\n  }" if files else '  "lines": {}')
        return "{\n" + ",\n".join(parts) + "\n}\n"

    @classmethod
    def from_json(cls, text: str, where: str = "measured-lines file") -> MeasuredLines:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise MeasuredFileError(f"{where}: not JSON ({exc.msg}, line {exc.lineno})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise MeasuredFileError(f"{where}: not a measured-lines file (written by `cudalint profile`)")
        if data.get("version") != VERSION:
            raise MeasuredFileError(
                f"{where}: measured-lines version {data.get('version')!r}; this cudalint reads {VERSION}"
            )
        columns = data.get("columns")
        if not isinstance(columns, list) or not set(columns) <= set(COLUMNS):
            raise MeasuredFileError(f"{where}: unknown columns {columns!r}")
        lines: dict[str, dict[int, LineFigures]] = {}
        try:
            for name, rows in data.get("lines", {}).items():
                lines[name] = {
                    int(n): LineFigures(**dict(zip(columns, values, strict=True))) for n, values in rows.items()
                }
        except (AttributeError, TypeError, ValueError):
            raise MeasuredFileError(f"{where}: malformed lines (a row per line, one figure per column)") from None
        return cls(
            binary=data.get("binary") or {},
            command=list(data.get("command") or []),
            gpu=str(data.get("gpu") or "unknown"),
            ncu=str(data.get("ncu") or "unknown"),
            selection=list(data.get("selection") or []),
            kernels=list(data.get("kernels") or []),
            lines=lines,
            problems=list(data.get("problems") or []),
        )

    def figures_for(self, path: str) -> dict[int, LineFigures] | None:
        """The measured lines of the source ``path``: the file of the same absolute path,
        else the one sharing the longest tail of path components with it (at least the
        file name; a tie between two files is no match)."""
        wanted = _parts(path)
        best, best_length, tie = None, 0, False
        for name in self.lines:
            if os.path.normpath(name) == os.path.normpath(os.path.abspath(path)):
                return self.lines[name]
            length = _common_tail(wanted, _parts(name))
            if length > best_length:
                best, best_length, tie = name, length, False
            elif length == best_length and length:
                tie = True
        return self.lines[best] if best is not None and not tie else None


def _parts(path: str) -> list[str]:
    return [part for part in Path(os.path.normpath(path)).parts if part not in ("/", "")]


def _common_tail(a: list[str], b: list[str]) -> int:
    length = 0
    while length < min(len(a), len(b)) and a[-1 - length] == b[-1 - length]:
        length += 1
    return length


def read(path: Path) -> MeasuredLines:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise MeasuredFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    return MeasuredLines.from_json(text, str(path))


def binary_identity(binary: Path) -> dict:
    digest = hashlib.sha256()
    with binary.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return {"path": str(binary.resolve()), "size": binary.stat().st_size, "sha256": digest.hexdigest()}


def measured_lines(
    functions: dict[str, list[Instruction]], profiled: list[ProfiledKernel], **provenance
) -> MeasuredLines:
    """The figures of every compiled line of the program's own files (the toolkit's headers
    left out); ``provenance``: the other fields of ``MeasuredLines``."""
    problems: list[str] = list(provenance.pop("problems", []))
    figures = line_figures(functions, profiled, problems)
    lines: dict[str, dict[int, LineFigures]] = {}
    for location, line in figures.items():
        if not toolkit_header(location.file):
            lines.setdefault(location.file, {})[location.line] = line
    return MeasuredLines(lines=lines, problems=problems, **provenance)
