#!/usr/bin/env python3
"""Record what ptxas allocates for each kernel of some CUDA files.

The hardware-compiler truth behind the register corpus (tests/corpus/registers): every
kernel there is preceded by a line

    // ptxas: registers=64 stack=48 spill-stores=92 spill-loads=72 (nvcc 13.0 sm_90)

read from ``nvcc -cubin -Xptxas -v`` (see ``cudalint.ptxas``, which ``--ptxas`` uses
too). A kernel template has one line per instantiation, tagged with it (``tile<8,8>``).
A file whose first line is ``// build: -maxrregcount=N`` is compiled with that cap.

Usage:
    scripts/measure_ptxas.py FILE_OR_DIR...           # table: kernel -> figures
    scripts/measure_ptxas.py --check FILE_OR_DIR...   # exit 1 when a recorded figure differs
    scripts/measure_ptxas.py --write FILE_OR_DIR...   # rewrite (or add) the ptxas lines
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from cudalint.ptxas import CompileError, compile_resources

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kernel_records import (  # noqa: E402 - a sibling script, not an installed module
    Measurement,
    RecordKind,
    command_line,
    nvcc_version,
    run,
    source_kernels,
)

ARCH = 90
PTXAS = RecordKind("ptxas")
_BUILD = re.compile(r"^// build: -maxrregcount=(\d+)\s*$")


def max_registers_of(lines: list[str]) -> int | None:
    """The ``-maxrregcount`` a corpus file asks to be built with."""
    match = _BUILD.match(lines[0].rstrip("\n")) if lines else None
    return int(match.group(1)) if match else None


def measure_file(path: Path, nvcc: str) -> tuple[list[str], list[Measurement], list[str]]:
    """The file's lines, one measurement per kernel ptxas compiled, and problems."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    kernels = {kernel.name: kernel for kernel in source_kernels(lines, PTXAS)}
    problems: list[str] = []
    measurements = []
    for resources in compile_resources(str(path), nvcc, ARCH, max_registers=max_registers_of(lines)):
        kernel = kernels.get(resources.name)
        if kernel is None:
            problems.append(f"{path}: ptxas entry {resources.mangled} matches no __global__ line")
            continue
        fields = {
            "registers": resources.registers,
            "stack": resources.stack_frame,
            "spill-stores": resources.spill_stores,
            "spill-loads": resources.spill_loads,
        }
        measurements.append(Measurement(kernel, resources.label if kernel.is_template else kernel.name, fields))
    measured = {m.kernel.name for m in measurements}
    problems += [
        f"{path}:{k.line}: kernel {k.name} was not compiled (never instantiated?)"
        for k in kernels.values()
        if k.name not in measured
    ]
    measurements.sort(key=lambda m: (m.kernel.line, m.label))
    return lines, measurements, problems


def main(argv: list[str] | None = None) -> int:
    options = command_line("Record ptxas's registers, stack and spills per kernel.", PTXAS).parse_args(argv)
    return run(
        options,
        PTXAS,
        lambda nvcc: f"nvcc {nvcc_version(nvcc)} sm_{ARCH}",
        measure_file,
        (CompileError,),
        "all recorded ptxas figures match",
    )


if __name__ == "__main__":
    sys.exit(main())
