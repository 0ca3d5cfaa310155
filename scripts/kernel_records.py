"""Measurement lines recorded above the kernels of corpus files.

Each kernel of a measured corpus file is preceded by one line per measurement:

    // <kind>: name=N name=N ... (<tool>) [<tag>] [words...]

``tag`` names the instantiation (``scale<float>``) for a kernel template, which has one
line per instantiation. Words after it are kept as written. The measure_* scripts read,
check and rewrite these lines; the tests read them as hardware truth.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

TAG = re.compile(r"^\s*(?P<tag>[A-Za-z_]\w*<[^>\s]*>)")
KERNEL = re.compile(r"\b__global__\b")
KERNEL_NAME = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
TEMPLATE = re.compile(r"^\s*template\s*<")
_FIELD = re.compile(r"([a-z][\w-]*)=(\d+)")


@dataclass
class RecordLine:
    index: int  # 0-based line index in the file
    fields: dict[str, int]
    tool: str
    tag: str | None
    rest: str


@dataclass
class SourceKernel:
    name: str
    line: int  # 1-based line of the __global__ declaration
    insert_at: int  # 0-based index where record lines belong (before "template <...>")
    is_template: bool
    records: list[RecordLine] = field(default_factory=list)


class RecordKind:
    """One kind of record line: ``// measured: fp64=3 (...)`` or ``// ptxas: registers=40 ... (...)``."""

    def __init__(self, prefix: str):
        self.prefix = prefix
        self.pattern = re.compile(
            rf"^(?P<indent>\s*)// {re.escape(prefix)}: (?P<values>[^()]*?) \((?P<tool>[^)]*)\)(?P<rest>.*)$"
        )

    def parse(self, index: int, line: str) -> RecordLine | None:
        match = self.pattern.match(line.rstrip("\n"))
        if not match:
            return None
        tag = TAG.match(match.group("rest"))
        fields = {name: int(value) for name, value in _FIELD.findall(match.group("values"))}
        return RecordLine(index, fields, match.group("tool"), tag.group("tag") if tag else None, match.group("rest"))

    def format(self, fields: dict[str, int], tool: str, rest: str, indent: str = "") -> str:
        return f"{indent}// {self.prefix}: {_figures(fields)} ({tool}){rest}"


def source_kernels(lines: list[str], kind: RecordKind) -> list[SourceKernel]:
    """Kernels declared on a ``__global__`` line, with the record lines right above them."""
    kernels = []
    for index, line in enumerate(lines):
        code = line.split("//", 1)[0]
        if not KERNEL.search(code):
            continue
        after = code[KERNEL.search(code).end() :]
        names = [n for n in KERNEL_NAME.findall(after) if n not in ("__launch_bounds__", "__maxnreg__")]
        if not names:
            continue
        top = index
        is_template = False
        if top > 0 and TEMPLATE.match(lines[top - 1]):
            top -= 1
            is_template = True
        kernel = SourceKernel(names[0], index + 1, top, is_template)
        above = top - 1
        while above >= 0 and (record := kind.parse(above, lines[above])) is not None:
            kernel.records.insert(0, record)
            above -= 1
        kernel.insert_at = above + 1
        kernels.append(kernel)
    return kernels


def recorded(kernel: SourceKernel, label: str) -> RecordLine | None:
    if kernel.is_template:
        return next((r for r in kernel.records if r.tag == label), None)
    return kernel.records[0] if len(kernel.records) == 1 else None


@dataclass
class Measurement:
    kernel: SourceKernel
    label: str
    fields: dict[str, int]


def rewrite(lines: list[str], measurements: list[Measurement], tool: str, kind: RecordKind) -> list[str]:
    """The file with every record line set to the new figures; missing lines added."""
    result = list(lines)
    inserts: dict[int, list[str]] = {}
    for m in measurements:
        line = recorded(m.kernel, m.label)
        if line is not None:
            indent = kind.pattern.match(result[line.index].rstrip("\n")).group("indent")
            ending = "\n" if result[line.index].endswith("\n") else ""
            result[line.index] = kind.format(m.fields, tool, line.rest, indent) + ending
        else:
            tag = f" {m.label}" if m.kernel.is_template else ""
            inserts.setdefault(m.kernel.insert_at, []).append(kind.format(m.fields, tool, tag) + "\n")
    for index in sorted(inserts, reverse=True):
        result[index:index] = inserts[index]
    return result


def nvcc_version(nvcc: str) -> str:
    done = subprocess.run([nvcc, "--version"], capture_output=True, text=True, check=False)
    match = re.search(r"release (\d+\.\d+)", done.stdout)
    return match.group(1) if match else "?"


# ---------------------------------------------------------------------------- the measure_* command line

MeasureFile = Callable[[Path, str], tuple[list[str], list[Measurement], list[str]]]
"""(file, nvcc) -> the file's lines, one measurement per kernel, and problems."""


def command_line(description: str, kind: RecordKind) -> argparse.ArgumentParser:
    """The options every measure_* script takes; a script may add its own."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("paths", nargs="+", help=".cu files or directories holding them")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--check",
        action="store_true",
        help=f"compare with the recorded '// {kind.prefix}:' lines; exit 1 on a mismatch",
    )
    mode.add_argument("--write", action="store_true", help=f"update (or add) the '// {kind.prefix}:' lines in place")
    parser.add_argument("--nvcc", default="nvcc", help="the nvcc to run (default: nvcc on PATH)")
    return parser


def expand(paths: list[str]) -> list[Path]:
    return [f for raw in paths for f in (sorted(Path(raw).rglob("*.cu")) if Path(raw).is_dir() else [Path(raw)])]


def run(
    options: argparse.Namespace,
    kind: RecordKind,
    tool: Callable[[str], str],
    measure: MeasureFile,
    errors: tuple[type[Exception], ...],
    all_match: str,
) -> int:
    """Measure every file of ``options.paths``; print, check or rewrite the record lines."""
    nvcc = shutil.which(options.nvcc)
    if nvcc is None:
        print(f"error: {options.nvcc} not found", file=sys.stderr)
        return 2
    label = tool(nvcc)
    failed = False
    for path in expand(options.paths):
        try:
            lines, measurements, problems = measure(path, nvcc)
        except (OSError, *errors) as exc:
            print(f"error: {path}: {exc}", file=sys.stderr)
            failed = True
            continue
        for problem in problems:
            print(f"error: {problem}", file=sys.stderr)
        failed |= bool(problems)
        if options.write:
            new = rewrite(lines, measurements, label, kind)
            if new != lines:
                path.write_text("".join(new), encoding="utf-8")
                print(f"updated {path}")
            continue
        for m in measurements:
            line = recorded(m.kernel, m.label)
            figures = _figures(m.fields)
            if options.check and (line is None or line.fields != m.fields):
                before = _figures(line.fields) if line is not None else f"no '// {kind.prefix}:' line"
                print(f"{path}:{m.kernel.line}: {m.label}: {figures}, recorded {before}")
                failed = True
            elif not options.check:
                note = "" if line is None or line.fields == m.fields else f"  (recorded {_figures(line.fields)})"
                print(f"{path}:{m.kernel.line:<6} {m.label:<36} {figures}{note}")
    if options.check and not failed:
        print(all_match)
    return 1 if failed else 0


def _figures(fields: dict[str, int]) -> str:
    return " ".join(f"{name}={value}" for name, value in fields.items())
