"""Exact register and local-memory figures: compile a file's device code with nvcc and
read what ptxas says about each kernel (``-Xptxas -v``).

One nvcc invocation per translation unit, device code only (``-cubin``), run without a
shell so that any path works.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from cudalint.ptxas.names import demangle

__all__ = ["CompileError", "KernelResources", "compile_resources", "find_nvcc", "parse_verbose"]

COMPILE_TIMEOUT_S = 300


@dataclass(frozen=True)
class KernelResources:
    """What ptxas allocated for one kernel."""

    mangled: str
    name: str
    """The kernel's own name (last component of a qualified name)."""
    label: str
    """``name`` or ``name<args>`` for template instantiations: the key rules look it up by."""
    arch: str
    registers: int
    stack_frame: int = 0
    """Bytes of local memory per thread: local arrays, spill slots, the slow paths of math functions."""
    spill_stores: int = 0
    spill_loads: int = 0
    shared_bytes: int = 0
    """Static shared memory per block."""
    barriers: int = 0
    """Named barriers the kernel uses (``__syncthreads`` is barrier 0)."""

    @property
    def spills(self) -> bool:
        return self.spill_stores > 0 or self.spill_loads > 0


class CompileError(Exception):
    """nvcc could not compile the file; the message is one line."""


_ENTRY = re.compile(r"Compiling entry function '([^']+)' for '([^']+)'")
_PROPERTIES = re.compile(r"Function properties for (\S+)")
_FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
_USED = re.compile(r"Used (\d+) registers")
_BARRIERS = re.compile(r"used (\d+) barriers")
_SHARED = re.compile(r"(\d+) bytes smem")


def parse_verbose(text: str) -> list[KernelResources]:
    """The kernels in ``-Xptxas -v`` output, in the order ptxas compiled them.

    The trailing fields of the ``Used N registers`` line differ between architectures
    (barriers, cmem, cumulative stack size); the register count, the barriers and the
    static shared memory (``N bytes smem``) are read from it where present.
    Properties of non-entry functions (``__noinline__`` helpers) are skipped.
    """
    frames: dict[str, tuple[int, int, int]] = {}
    entries: list[tuple[str, str]] = []
    registers: dict[str, int] = {}
    usage: dict[str, tuple[int, int]] = {}
    properties_of = entry = None
    for line in text.splitlines():
        if match := _ENTRY.search(line):
            entry = match.group(1)
            entries.append((entry, match.group(2)))
        elif match := _PROPERTIES.search(line):
            properties_of = match.group(1)
        elif (match := _FRAME.search(line)) and properties_of is not None:
            frames[properties_of] = (int(match.group(1)), int(match.group(2)), int(match.group(3)))
            properties_of = None
        elif (match := _USED.search(line)) and entry is not None:
            registers[entry] = int(match.group(1))
            shared, barriers = _SHARED.search(line), _BARRIERS.search(line)
            usage[entry] = (int(shared.group(1)) if shared else 0, int(barriers.group(1)) if barriers else 0)
            entry = None
    kernels = []
    for mangled, arch in entries:
        if mangled not in registers:
            continue
        name, label = demangle(mangled)
        stack, stores, loads = frames.get(mangled, (0, 0, 0))
        shared, barriers = usage[mangled]
        kernels.append(
            KernelResources(mangled, name, label, arch, registers[mangled], stack, stores, loads, shared, barriers)
        )
    return kernels


def find_nvcc(cuda_path: str | None) -> str | None:
    """nvcc of the configured toolkit, else of CUDA_PATH/CUDA_HOME, else from PATH."""
    roots = [cuda_path, os.environ.get("CUDA_PATH"), os.environ.get("CUDA_HOME")]
    for root in roots:
        if root and (candidate := Path(root) / "bin" / "nvcc").is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return shutil.which("nvcc")


def compile_resources(
    path: str, nvcc: str, arch: int, flags: tuple[str, ...] = (), max_registers: int | None = None
) -> list[KernelResources]:
    """Compile ``path``'s device code for ``sm_<arch>`` and return ptxas's figures per kernel.

    ``flags`` are the project's include paths, macros and language standard, in the
    spelling both clang and nvcc accept (``-I``, ``-D``, ``-U``, ``-include``, ``-std=``).
    """
    with tempfile.TemporaryDirectory(prefix="cudalint-ptxas-") as scratch:
        # nvcc hands names derived from its input to its own tools through a shell, so a
        # source named `a $b.cu` breaks it: compile a plainly named file that includes ours.
        source = os.path.join(scratch, "translation_unit.cu")
        with open(source, "w", encoding="utf-8") as wrapper:
            wrapper.write(f'#include "{os.path.abspath(path)}"\n')
        command = [
            nvcc,
            "-cubin",
            f"-arch=sm_{arch}",
            "-Xptxas",
            "-v",
            "-x",
            "cu",
            *_nvcc_flags(flags),
            "-o",
            os.path.join(scratch, "device.cubin"),
        ]
        if max_registers is not None:
            command.append(f"-maxrregcount={max_registers}")
        command.append(source)
        try:
            done = subprocess.run(
                command,
                capture_output=True,
                text=True,
                errors="replace",
                check=False,
                cwd=os.path.dirname(os.path.abspath(path)),
                timeout=COMPILE_TIMEOUT_S,
            )
        except subprocess.TimeoutExpired:
            raise CompileError(f"nvcc took longer than {COMPILE_TIMEOUT_S} s") from None
        except OSError as exc:
            raise CompileError(f"cannot run nvcc: {exc.strerror or exc}") from None
    if done.returncode != 0:
        raise CompileError(f"nvcc failed: {_first_error(done.stderr + done.stdout)}")
    return parse_verbose(done.stderr + done.stdout)


def _nvcc_flags(flags: tuple[str, ...]) -> list[str]:
    """The parse flags as nvcc takes them. nvcc has no ``-iquote``/``-idirafter``; an
    ordinary include path finds the same headers unless two directories shadow each other."""
    result: list[str] = []
    words = iter(flags)
    for flag in words:
        if flag.startswith(("-I", "-D", "-U", "-std=")):
            result.append(flag)
        elif flag in ("-isystem", "-include"):
            result += [flag, next(words, "")]
        elif flag in ("-iquote", "-idirafter"):
            result.append("-I" + next(words, ""))
    return result


def _first_error(output: str) -> str:
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    errors = [line for line in lines if "error" in line.lower()]
    first = (errors or lines or ["no output"])[0]
    extra = len(errors) - 1
    return first + (f" (and {extra} more errors)" if extra > 0 else "")
