#!/usr/bin/env python3
"""Count the fp64 PTX instructions nvcc emits for each kernel of some CUDA files.

The hardware truth behind the CL401 corpus (tests/corpus/cl401): every kernel there is
preceded by a line

    // measured: fp64=N (nvcc 13.0 sm_90 ptx)

with N the number of PTX instructions whose opcode has an ``.f64`` type component
(``mul.f64``, ``fma.rn.f64``, ``setp.lt.f64``, ``cvt.f64.f32``, ``cvt.rn.f32.f64``,
``ld.global.f64`` ...) in that kernel's ``.entry``, plus those of any ``.func`` it
calls (transitively; libdevice routines are normally inlined anyway). A kernel
template has one such line per instantiation, tagged with it:

    // measured: fp64=2 (nvcc 13.0 sm_90 ptx) scale<float>
    // measured: fp64=9 (nvcc 13.0 sm_90 ptx) scale<double>

Anything after the closing parenthesis other than the tag is kept as written (the
corpus marks fp64 the author asked for with ``declared-double``, and fp64 inside an
fp32 CUDA math routine with ``library-internal``; tests/test_cl401_measured.py reads
those). Counts are per file: nvcc's inlining of shared libdevice routines depends on
the whole translation unit, so moving a kernel to another file can change its count
slightly; re-run ``--write`` after moving cases.

Compiles with ``nvcc -arch=sm_90 -ptx -o <tmp>.ptx FILE`` (nvcc from PATH or --nvcc).

Usage:
    scripts/measure_fp64.py FILE_OR_DIR...           # table: kernel -> fp64 count
    scripts/measure_fp64.py --check FILE_OR_DIR...   # exit 1 when a recorded count differs
    scripts/measure_fp64.py --write FILE_OR_DIR...   # rewrite (or add) the measured lines
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from cudalint.ptxas.names import demangle

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kernel_records import (  # noqa: E402 - a sibling script, not an installed module
    Measurement,
    RecordKind,
    SourceKernel,
    command_line,
    nvcc_version,
    run,
    source_kernels,
)

DEFAULT_ARCH = "sm_90"
MEASURED = RecordKind("measured")


# ---------------------------------------------------------------------------- PTX


@dataclass
class PtxFunction:
    name: str
    is_entry: bool
    fp64: int = 0
    calls: set[str] = field(default_factory=set)


_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_HEADER = re.compile(r"(?:^|\s)\.(entry|func)\s+(?:\([^)]*\)\s*)?([\w$]+)")
_LABEL = re.compile(r"^\s*[\w$]+:\s*")
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")


def is_fp64_instruction(statement: str) -> bool:
    """True for one PTX instruction whose opcode has an ``.f64`` component."""
    text = _LABEL.sub("", statement.strip())
    if not text or text.startswith("."):  # directives: .reg, .param, .local, .pragma ...
        return False
    if text.startswith("@"):  # predicate guard: @%p1 or @!%p1
        parts = text.split(None, 1)
        if len(parts) < 2:
            return False
        text = parts[1]
    opcode = text.split(None, 1)[0]
    return "f64" in opcode.split(".")[1:]


def _instructions(body: str) -> list[str]:
    """The statements of a function body: split at ';', braces of nested scopes dropped."""
    return [s for s in re.split(r"[;{}]", body) if s.strip()]


def parse_ptx(text: str) -> dict[str, PtxFunction]:
    """Every ``.entry`` and ``.func`` with a body: its fp64 count and the functions it calls.

    Prototypes (``.func ... ;`` without a body) are skipped; a call's target may sit
    on a line of its own, so the body is read as statements, not lines.
    """
    code = _COMMENTS.sub("", text)
    functions: dict[str, PtxFunction] = {}
    position = 0
    while True:
        header = _HEADER.search(code, position)
        if header is None:
            break
        start = _after_parameters(code, header.end())
        if start >= len(code) or code[start] == ";":
            position = start + 1
            continue
        end = _closing_brace(code, start)
        function = PtxFunction(header.group(2), is_entry=header.group(1) == "entry")
        for statement in _instructions(code[start + 1 : end]):
            if is_fp64_instruction(statement):
                function.fp64 += 1
            words = statement.split()
            if words and (words[0] == "call" or words[0].startswith("call.")):
                rest = re.sub(r"^\s*\([^)]*\)\s*,", "", statement.strip()[len(words[0]) :])
                target = _IDENTIFIER.search(rest)
                if target:
                    function.calls.add(target.group(0))
        functions[function.name] = function
        position = end + 1
    return functions


def _after_parameters(code: str, index: int) -> int:
    """Past a function header's parameter lists: the index of the body's '{', or of the ';'
    that ends a prototype (len(code) when neither follows)."""
    depth = 0
    while index < len(code):
        char = code[index]
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif depth == 0 and char in "{;":
            break
        index += 1
    return index


def _closing_brace(code: str, start: int) -> int:
    """The index of the '}' that closes the '{' at ``start`` (len(code) when unbalanced)."""
    depth = 0
    index = start
    while index < len(code):
        if code[index] == "{":
            depth += 1
        elif code[index] == "}":
            depth -= 1
            if depth == 0:
                break
        index += 1
    return index


def entry_fp64(functions: dict[str, PtxFunction], entry: str) -> int:
    """fp64 instructions of ``entry`` and of every function it reaches, each counted once."""
    seen: set[str] = set()
    pending = [entry]
    total = 0
    while pending:
        name = pending.pop()
        if name in seen or name not in functions:
            continue
        seen.add(name)
        total += functions[name].fp64
        pending.extend(functions[name].calls)
    return total


# ---------------------------------------------------------------------------- nvcc


class MeasureError(Exception):
    pass


def compile_ptx(path: Path, nvcc: str, arch: str, extra: list[str]) -> str:
    with tempfile.TemporaryDirectory(prefix="measure_fp64_") as tmp:
        output = Path(tmp) / (path.stem + ".ptx")
        command = [nvcc, f"-arch={arch}", "-ptx", *extra, "-o", str(output), str(path)]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise MeasureError(f"{path}: nvcc failed ({done.returncode}):\n{done.stderr.strip()}")
        return output.read_text(encoding="utf-8")


def measure_file(path: Path, nvcc: str, arch: str, extra: list[str]) -> tuple[list[str], list[Measurement], list[str]]:
    """The file's lines, one measurement per PTX entry matched to a source kernel, and problems."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    kernels = source_kernels(lines, MEASURED)
    by_name: dict[str, SourceKernel] = {}
    problems: list[str] = []
    for kernel in kernels:
        if kernel.name in by_name:
            problems.append(f"{path}:{kernel.line}: kernel name {kernel.name!r} is declared twice")
        by_name[kernel.name] = kernel
    functions = parse_ptx(compile_ptx(path, nvcc, arch, extra))
    measurements = []
    for mangled, function in functions.items():
        if not function.is_entry:
            continue
        name, label = demangle(mangled)
        kernel = by_name.get(name)
        if kernel is None:
            problems.append(f"{path}: PTX entry {mangled} ({label}) matches no __global__ line")
            continue
        figures = {"fp64": entry_fp64(functions, mangled)}
        measurements.append(Measurement(kernel, label if kernel.is_template else name, figures))
    measured_kernels = {id(m.kernel) for m in measurements}
    for kernel in kernels:
        if id(kernel) not in measured_kernels:
            problems.append(f"{path}:{kernel.line}: kernel {kernel.name} has no PTX entry (never instantiated?)")
    measurements.sort(key=lambda m: (m.kernel.line, m.label))
    return lines, measurements, problems


# ---------------------------------------------------------------------------- CLI


def main(argv: list[str] | None = None) -> int:
    parser = command_line("Count fp64 PTX instructions per kernel (CL401 corpus truth).", MEASURED)
    parser.add_argument("--arch", default=DEFAULT_ARCH, help=f"GPU architecture (default: {DEFAULT_ARCH})")
    parser.add_argument(
        "-X", "--nvcc-arg", action="append", default=[], metavar="ARG", help="extra nvcc argument (repeatable)"
    )
    options = parser.parse_args(argv)
    return run(
        options,
        MEASURED,
        lambda nvcc: f"nvcc {nvcc_version(nvcc)} {options.arch} ptx",
        lambda path, nvcc: measure_file(path, nvcc, options.arch, options.nvcc_arg),
        (MeasureError,),
        "all recorded fp64 counts match",
    )


if __name__ == "__main__":
    sys.exit(main())
