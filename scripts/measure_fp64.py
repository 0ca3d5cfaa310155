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

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_ARCH = "sm_90"
MEASURED = re.compile(
    r"^(?P<indent>\s*)// measured: fp64=(?P<count>\d+) \((?P<tool>[^)]*)\)(?P<rest>.*)$"
)
TAG = re.compile(r"^\s*(?P<tag>[A-Za-z_]\w*<[^>\s]*>)")
KERNEL = re.compile(r"\b__global__\b")
KERNEL_NAME = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
TEMPLATE = re.compile(r"^\s*template\s*<")

# Itanium builtin type codes that can appear as kernel template arguments.
_BUILTINS = {
    "v": "void", "b": "bool", "c": "char", "a": "signed char", "h": "unsigned char", "s": "short",
    "t": "unsigned short", "i": "int", "j": "unsigned int", "l": "long", "m": "unsigned long",
    "x": "long long", "y": "unsigned long long", "f": "float", "d": "double", "e": "long double",
}


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
        # Skip the parameter list, then a body starts with '{'; a prototype ends with ';'.
        index = header.end()
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
        if index >= len(code) or code[index] == ";":
            position = index + 1
            continue
        start = index
        depth = 0
        while index < len(code):
            if code[index] == "{":
                depth += 1
            elif code[index] == "}":
                depth -= 1
                if depth == 0:
                    break
            index += 1
        body = code[start + 1:index]
        function = PtxFunction(header.group(2), is_entry=header.group(1) == "entry")
        for statement in _instructions(body):
            if is_fp64_instruction(statement):
                function.fp64 += 1
            words = statement.split()
            if words and (words[0] == "call" or words[0].startswith("call.")):
                rest = re.sub(r"^\s*\([^)]*\)\s*,", "", statement.strip()[len(words[0]):])
                target = _IDENTIFIER.search(rest)
                if target:
                    function.calls.add(target.group(0))
        functions[function.name] = function
        position = index + 1
    return functions


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


# ---------------------------------------------------------------------------- names


def _source_name(text: str, position: int) -> tuple[str, int] | None:
    match = re.match(r"\d+", text[position:])
    if not match:
        return None
    length = int(match.group(0))
    start = position + len(match.group(0))
    return text[start:start + length], start + length


def _template_args(text: str, position: int) -> tuple[list[str], int]:
    """Decode ``I...E`` with builtin, named and integer arguments; unknown codes stay raw."""
    args: list[str] = []
    position += 1  # skip "I"
    while position < len(text) and text[position] != "E":
        char = text[position]
        if char in _BUILTINS:
            args.append(_BUILTINS[char])
            position += 1
        elif text.startswith("DF16_", position):
            args.append("_Float16")
            position += 5
        elif char.isdigit():
            named = _source_name(text, position)
            if named is None:
                break
            args.append(named[0])
            position = named[1]
        elif char == "L":  # literal: L <type> <value> E
            end = text.find("E", position)
            if end < 0:
                break
            body = text[position + 2:end]
            args.append(body.replace("n", "-", 1) if body.startswith("n") else body)
            position = end + 1
        else:
            end = text.find("E", position)
            args.append(text[position:end if end >= 0 else len(text)])
            position = end if end >= 0 else len(text)
    return args, position + 1


def demangle(mangled: str) -> tuple[str, str]:
    """``_Z5scalePfi`` -> ("scale", "scale"); ``_Z5scaleIfEvPT_i`` -> ("scale", "scale<float>").

    The kernel's plain name (the last component of a nested name) and a label that adds
    the template arguments. ``extern "C"`` kernels are not mangled and come back as is.
    """
    if not mangled.startswith("_Z"):
        return mangled, mangled
    position = 2
    name = None
    if mangled.startswith("N", position):
        position += 1
        while position < len(mangled) and mangled[position].isdigit():
            named = _source_name(mangled, position)
            if named is None:
                break
            name, position = named
    else:
        named = _source_name(mangled, position)
        if named is not None:
            name, position = named
    if name is None:
        return mangled, mangled
    label = name
    if mangled.startswith("I", position):
        args, position = _template_args(mangled, position)
        label = f"{name}<{','.join(args)}>"
    return name, label


# ---------------------------------------------------------------------------- source


@dataclass
class MeasuredLine:
    index: int  # 0-based line index in the file
    count: int
    tag: str | None


@dataclass
class SourceKernel:
    name: str
    line: int  # 1-based line of the __global__ declaration
    insert_at: int  # 0-based index where measured lines belong (before "template <...>")
    is_template: bool
    measured: list[MeasuredLine] = field(default_factory=list)


def source_kernels(lines: list[str]) -> list[SourceKernel]:
    """Kernels declared on a ``__global__`` line, with the measured lines right above them."""
    kernels = []
    for index, line in enumerate(lines):
        code = line.split("//", 1)[0]
        if not KERNEL.search(code):
            continue
        after = code[KERNEL.search(code).end():]
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
        while above >= 0:
            match = MEASURED.match(lines[above])
            if not match:
                break
            tag = TAG.match(match.group("rest"))
            kernel.measured.insert(0, MeasuredLine(above, int(match.group("count")), tag.group("tag") if tag else None))
            above -= 1
        kernel.insert_at = above + 1
        kernels.append(kernel)
    return kernels


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


def nvcc_version(nvcc: str) -> str:
    done = subprocess.run([nvcc, "--version"], capture_output=True, text=True, check=False)
    match = re.search(r"release (\d+\.\d+)", done.stdout)
    return match.group(1) if match else "?"


@dataclass
class Measurement:
    kernel: SourceKernel
    label: str
    count: int


def measure_file(path: Path, nvcc: str, arch: str, extra: list[str]) -> tuple[list[str], list[Measurement], list[str]]:
    """The file's lines, one measurement per PTX entry matched to a source kernel, and problems."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    kernels = source_kernels(lines)
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
        measurements.append(Measurement(kernel, label if kernel.is_template else name, entry_fp64(functions, mangled)))
    measured_kernels = {id(m.kernel) for m in measurements}
    for kernel in kernels:
        if id(kernel) not in measured_kernels:
            problems.append(f"{path}:{kernel.line}: kernel {kernel.name} has no PTX entry (never instantiated?)")
    measurements.sort(key=lambda m: (m.kernel.line, m.label))
    return lines, measurements, problems


def recorded(kernel: SourceKernel, label: str) -> MeasuredLine | None:
    if kernel.is_template:
        return next((m for m in kernel.measured if m.tag == label), None)
    return kernel.measured[0] if len(kernel.measured) == 1 else None


def rewrite(lines: list[str], measurements: list[Measurement], tool: str) -> list[str]:
    """The file with every measured line set to the new count; missing lines added."""
    result = list(lines)
    inserts: dict[int, list[str]] = {}
    for m in measurements:
        line = recorded(m.kernel, m.label)
        if line is not None:
            match = MEASURED.match(result[line.index].rstrip("\n"))
            assert match is not None
            ending = "\n" if result[line.index].endswith("\n") else ""
            result[line.index] = f"{match.group('indent')}// measured: fp64={m.count} ({tool}){match.group('rest')}{ending}"
        else:
            tag = f" {m.label}" if m.kernel.is_template else ""
            inserts.setdefault(m.kernel.insert_at, []).append(f"// measured: fp64={m.count} ({tool}){tag}\n")
    for index in sorted(inserts, reverse=True):
        result[index:index] = inserts[index]
    return result


# ---------------------------------------------------------------------------- CLI


def expand(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files.extend(sorted(path.rglob("*.cu")))
        else:
            files.append(path)
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Count fp64 PTX instructions per kernel (CL401 corpus truth).")
    parser.add_argument("paths", nargs="+", help=".cu files or directories holding them")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="compare with the recorded '// measured:' lines; exit 1 on a mismatch")
    mode.add_argument("--write", action="store_true", help="update (or add) the '// measured:' lines in place")
    parser.add_argument("--nvcc", default="nvcc", help="the nvcc to run (default: nvcc on PATH)")
    parser.add_argument("--arch", default=DEFAULT_ARCH, help=f"GPU architecture (default: {DEFAULT_ARCH})")
    parser.add_argument("-X", "--nvcc-arg", action="append", default=[], metavar="ARG", help="extra nvcc argument (repeatable)")
    options = parser.parse_args(argv)

    nvcc = shutil.which(options.nvcc)
    if nvcc is None:
        print(f"error: {options.nvcc} not found", file=sys.stderr)
        return 2
    tool = f"nvcc {nvcc_version(nvcc)} {options.arch} ptx"
    failed = False
    for path in expand(options.paths):
        try:
            lines, measurements, problems = measure_file(path, nvcc, options.arch, options.nvcc_arg)
        except (OSError, MeasureError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            failed = True
            continue
        for problem in problems:
            print(f"error: {problem}", file=sys.stderr)
        failed |= bool(problems)
        if options.write:
            new = rewrite(lines, measurements, tool)
            if new != lines:
                path.write_text("".join(new), encoding="utf-8")
                print(f"updated {path}")
            continue
        for m in measurements:
            line = recorded(m.kernel, m.label)
            where = f"{path}:{m.kernel.line}"
            if options.check:
                if line is None:
                    print(f"{where}: {m.label}: fp64={m.count}, no '// measured:' line recorded")
                    failed = True
                elif line.count != m.count:
                    print(f"{where}: {m.label}: fp64={m.count}, recorded {line.count}")
                    failed = True
            else:
                note = "" if line is None or line.count == m.count else f"  (recorded {line.count})"
                print(f"{where:<50} {m.label:<36} fp64={m.count}{note}")
    if options.check and not failed:
        print("all recorded fp64 counts match")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
