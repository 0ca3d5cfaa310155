#!/usr/bin/env python3
"""Measure memory-access and control-flow metrics of corpus kernels with Nsight Compute.

The hardware truth behind the access corpus (tests/corpus/access): every kernel there
is preceded, in the comment block right above it, by one line per launch

    // launch: [kernel=<name<targs>>] grid=<gx>[,<gy>[,<gz>]] block=<bx>[,<by>[,<bz>]] \
    //         [bytes=<n>] [shmem=<n>] [args: <param>=<value> ...]

(one line in the file; split here for width)

and, under each launch line, the line this script writes (``--write``):

    // measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 ... (ncu <version>, <GPU>)

Launch line:

* ``kernel=`` names the instantiation of a kernel template (``k<8>``; the file must
  instantiate it, e.g. ``template __global__ void k<8>(float*, const float*);``); a
  plain kernel needs none: the launch belongs to the next ``__global__`` definition.
* ``grid=`` / ``block=``: the launch geometry (1 to 3 dimensions).
* ``bytes=``: the size of each pointer parameter's buffer (default 256 MiB).
* ``shmem=``: the dynamic shared memory of the launch in bytes, for kernels with an
  ``extern __shared__`` array (default 0).
* ``args:`` ``name=value`` pairs for scalar parameters (int, unsigned, float, size_t
  ...); a scalar without a value gets 0.

The harness gives every pointer parameter its own device buffer, zeroed once (the
i-th pointer parameter of every kernel gets the i-th buffer). For each file it writes
a host driver that ``#include``s the corpus file and launches every listed kernel
once to warm up, then once more for measuring, builds it with
``nvcc -arch=sm_90 -lineinfo``, and runs ``ncu --csv --metrics ... --launch-skip N``
on it so that only the second round is profiled.

Measured keys (kernel-wide; "-" where the kernel has no access of that class):

==============================  =========================================================
gld_sectors_per_request         l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum /
                                l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
gst_sectors_per_request         the same for ``_op_st``
shld_wavefronts_per_request     l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum /
                                smsp__inst_executed_op_shared_ld.sum
shst_wavefronts_per_request     the same for ``_st``
bank_conflicts_ld / _st         l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
                                / ``_st`` (totals over the launch)
branch_divergent_targets        smsp__sass_branch_targets_threads_divergent.sum (total)
pred_on_ratio                   smsp__thread_inst_executed_pred_on_per_inst_executed.ratio
                                (mean threads active and predicated on per warp
                                instruction, 32 at most)
gld_requests_per_warp ...       requests (global) or instructions (shared) per launched
                                warp, for gld, gst, shld, shst: how many times each warp
                                executed an access of that class
==============================  =========================================================

Usage:
    scripts/measure_gpu.py FILE_OR_DIR...                     # build, profile, print a table
    scripts/measure_gpu.py --write FILE_OR_DIR...             # ... and rewrite the measured lines
    scripts/measure_gpu.py --check FILE_OR_DIR...             # exit 1 when a record differs
    scripts/measure_gpu.py --from-csv CSV [--write|--check] FILE...  # a saved measurement, no GPU
    scripts/measure_gpu.py --save-csv CSV FILE...             # keep the measurement for later
    scripts/measure_gpu.py --generate-only DIR FILE...        # write the drivers, no GPU
    scripts/measure_gpu.py --synccheck [--write] FILE_OR_DIR... # barrier corpus: compute-sanitizer
    scripts/measure_gpu.py --lines DIR FILE_OR_DIR...         # per source line, see below
    scripts/measure_gpu.py --lines-from DIR FILE_OR_DIR...    # the same from kept exports, no GPU

Per-line mode (``--lines DIR``): the measured round of each driver runs under
``ncu --section SourceCounters``; its per-SASS-instruction counters are summed per
source line through ``nvdisasm -gi`` (cudalint.profile.source_lines: innermost line of inlined
code, figures and column meanings) and written beside each corpus file as
``<file>.lines.json``: ``{"measured": "ncu <version>, <GPU>", "columns": [...],
"lines": {"<line>": [figures]}}``, every line the compiler emitted code for. DIR keeps
ncu's exports and the disassembly, so ``--lines-from DIR`` can write the sidecars again
without a GPU. ``--synccheck --write`` adds ``"synccheck"`` and ``"barrier_errors"``
(``{"<line>": errors}``, the innermost frame of each sanitizer report in that file) to the
same sidecar. scripts/rule_accuracy.py judges findings line by line against them.

Synccheck mode (tests/corpus/barriers): no Nsight Compute. Each launch runs alone (the
driver takes the launch's number as its argument), once plainly and once under
``compute-sanitizer --tool synccheck``, each under ``timeout`` (--sync-timeout seconds,
default 15). ``--write`` records, in the line right under the launch line,

    // synccheck: errors=<n> (compute-sanitizer <version>, <GPU>)

or ``// synccheck: hang (...)`` where the sanitized run outran the timeout; <n> is the
count of the sanitizer's ERROR SUMMARY. The plain run's outcome (ok, hang, or the
CUDA error) is printed with the table (and saved with --save-csv) only.

A saved CSV (``--save-csv``) has the columns file,kernel,key,value: the raw ncu
metrics by their ncu names, ``warps``, ``sass`` (the kernel's memory instructions as
cuobjdump shows them) and ``provenance``. ``--check --from-csv CSV`` compares the
measured lines with it; ``--check`` alone measures afresh (tolerance: --tolerance
relative, at least 0.01 absolute; bank-conflict totals also 1% of the requests, as
they vary slightly between runs for 1024-thread blocks).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import csv
import io
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # the package, where it is not installed
from cudalint.profile import source_lines  # noqa: E402

DEFAULT_ARCH = "sm_90"
DEFAULT_BYTES = 256 << 20

LAUNCH = re.compile(r"^(?P<indent>\s*)//\s*launch:\s*(?P<body>.*?)\s*$")
MEASURED = re.compile(r"^(?P<indent>\s*)//\s*measured:\s*(?P<body>.*?)\s*$")
SYNCCHECK = re.compile(
    r"^(?P<indent>\s*)//\s*synccheck:\s*(?:errors=(?P<errors>\d+)|(?P<hang>hang))\s*\((?P<prov>[^()]*)\)\s*$"
)
PROVENANCE = re.compile(r"\((?P<prov>[^()]*)\)\s*$")
GLOBAL = re.compile(r"\b__global__\b")
EXPLICIT_INSTANTIATION = re.compile(r"^\s*(?:extern\s+)?template\s+(?!<)")
NUMBER = re.compile(r"^[-+]?(?:0[xX][0-9a-fA-F]+|\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)[uUlLfF]*$")
IDENT = re.compile(r"[A-Za-z_]\w*")
QUOTED_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')

# Raw ncu metrics (Hopper names), by a short key.
METRICS: dict[str, str] = {
    "gld_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "gld_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "gst_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "gst_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "shld_wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "shld_insts": "smsp__inst_executed_op_shared_ld.sum",
    "shst_wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "shst_insts": "smsp__inst_executed_op_shared_st.sum",
    "bank_conflicts_ld": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "bank_conflicts_st": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "branch_divergent_targets": "smsp__sass_branch_targets_threads_divergent.sum",
    "pred_on_ratio": "smsp__thread_inst_executed_pred_on_per_inst_executed.ratio",
    # Context, and a fallback for pred_on_ratio.
    "branch_targets": "smsp__sass_branch_targets.sum",
    "inst_executed": "smsp__inst_executed.sum",
    "thread_inst_pred_on": "smsp__thread_inst_executed_pred_on.sum",
    # Global atomics (ATOMG) and reductions (RED, an atomic whose result is unused): not in
    # the gld/gst counters above; kept in saved CSVs only.
    "gatom_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
    "gatom_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
    "gred_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
    "gred_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
}
# Other spellings tried when `ncu --query-metrics` does not list a name.
ALTERNATIVES: dict[str, list[str]] = {
    "branch_divergent_targets": ["smsp__branch_targets_threads_divergent.sum"],
    "shld_insts": ["smsp__sass_inst_executed_op_shared_ld.sum"],
    "shst_insts": ["smsp__sass_inst_executed_op_shared_st.sum"],
}

# The measured line, in this order.
KEYS = (
    "gld_sectors_per_request",
    "gst_sectors_per_request",
    "shld_wavefronts_per_request",
    "shst_wavefronts_per_request",
    "bank_conflicts_ld",
    "bank_conflicts_st",
    "branch_divergent_targets",
    "pred_on_ratio",
    "gld_requests_per_warp",
    "gst_requests_per_warp",
    "shld_requests_per_warp",
    "shst_requests_per_warp",
)
COUNT_KEYS = ("bank_conflicts_ld", "bank_conflicts_st", "branch_divergent_targets")


class HarnessError(Exception):
    pass


# ---------------------------------------------------------------------------- corpus


@dataclass
class Param:
    name: str
    spelling: str
    is_pointer: bool


@dataclass
class Launch:
    path: Path
    line: int
    """0-based index of the launch line."""
    indent: str
    kernel: str
    """The launched function as written in C++: ``name`` or ``name<targs>``."""
    base: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    bytes: int
    args: dict[str, str]
    params: list[Param] = field(default_factory=list)
    shmem: int = 0
    """Dynamic shared memory bytes (``shmem=``)."""
    measured: dict[str, float | None] | None = None
    provenance: str | None = None
    synccheck: int | str | None = None
    """The recorded synccheck verdict: the error count, or "hang"."""
    synccheck_provenance: str | None = None

    @property
    def threads(self) -> int:
        return math.prod(self.grid) * math.prod(self.block)

    @property
    def warps(self) -> int:
        per_block = -(-math.prod(self.block) // 32)
        return math.prod(self.grid) * per_block


def _dims(text: str, what: str) -> tuple[int, int, int]:
    parts = [p for p in text.split(",") if p]
    if not 1 <= len(parts) <= 3 or not all(p.isdigit() and int(p) > 0 for p in parts):
        raise HarnessError(f"bad {what}={text!r}")
    values = [int(p) for p in parts] + [1] * (3 - len(parts))
    return values[0], values[1], values[2]


def parse_launch(body: str) -> dict:
    """``kernel=... grid=... block=... bytes=... args: a=1 b=2`` -> a dict of its fields."""
    head, _, tail = body.partition("args:")
    fields: dict = {"kernel": None, "grid": None, "block": None, "bytes": DEFAULT_BYTES, "shmem": 0, "args": {}}
    for word in head.split():
        key, eq, value = word.partition("=")
        if not eq or key not in ("kernel", "grid", "block", "bytes", "shmem"):
            raise HarnessError(f"bad launch field {word!r}")
        if key == "grid" or key == "block":
            fields[key] = _dims(value, key)
        elif key in ("bytes", "shmem"):
            if not value.isdigit():
                raise HarnessError(f"bad {key}={value!r}")
            fields[key] = int(value)
        else:
            fields[key] = value
    for word in tail.split():
        name, eq, value = word.partition("=")
        if not eq or not IDENT.fullmatch(name) or not NUMBER.match(value):
            raise HarnessError(f"bad launch argument {word!r}")
        fields["args"][name] = value
    if fields["grid"] is None or fields["block"] is None:
        raise HarnessError(f"launch line without grid= and block=: {body!r}")
    return fields


def parse_measured(body: str) -> tuple[dict[str, float | None], str | None]:
    """``k=v ... (provenance)`` -> ({k: float or None for "-"}, provenance)."""
    provenance = None
    match = PROVENANCE.search(body)
    if match:
        provenance = match.group("prov").strip()
        body = body[: match.start()]
    values: dict[str, float | None] = {}
    for word in body.split():
        key, eq, value = word.partition("=")
        if not eq:
            raise HarnessError(f"bad measured field {word!r}")
        values[key] = None if value in ("-", "n/a") else float(value)
    return values, provenance


def _split_params(text: str) -> list[str]:
    parts, depth, current = [], 0, []
    for char in text:
        if char in "<([":
            depth += 1
        elif char in ">)]":
            depth -= 1
        if char == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return [p.strip() for p in parts if p.strip() and p.strip() != "void"]


def _param_from_text(text: str) -> Param:
    text = text.split("=", 1)[0].strip()
    names = IDENT.findall(text)
    if not names:
        raise HarnessError(f"cannot read parameter {text!r}")
    name = names[-1]
    spelling = text[: text.rfind(name)].strip()
    is_pointer = "*" in spelling or "[" in text
    if "&" in spelling:
        raise HarnessError(f"reference parameter {text!r} cannot be launched")
    return Param(name, spelling, is_pointer)


def _kernel_definitions(lines: list[str]) -> list[tuple[int, str, list[Param]]]:
    """(line index, name, params) of every ``__global__`` function definition."""
    code = [re.sub(r"//.*", "", line) for line in lines]
    found = []
    for index, line in enumerate(code):
        if not GLOBAL.search(line) or EXPLICIT_INSTANTIATION.match(line):
            continue
        text = " ".join(code[index : index + 20])
        text = text[GLOBAL.search(text).end() :]
        paren = text.find("(")
        brace, semicolon = text.find("{"), text.find(";")
        if paren < 0 or brace < 0 or (0 <= semicolon < brace):
            continue  # a declaration
        name = IDENT.findall(text[:paren])[-1]
        depth, end = 0, paren
        for end in range(paren, len(text)):
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            if depth == 0:
                break
        params = [_param_from_text(p) for p in _split_params(text[paren + 1 : end])]
        found.append((index, name, params))
    return found


def _frontend_params(path: Path) -> dict[str, list[Param]] | None:
    """Kernel parameters through cudalint's own frontend; None where it is not installed."""
    try:
        from cudalint import frontend, ir
    except ImportError:
        return None
    env = frontend.build_environment(frontend.FrontendOptions(header_mode="embedded"))
    tu = frontend.parse_file(str(path), env)
    measured_files = {os.path.realpath(p) for p in (path, *corpus_headers(path))}
    kernels: dict[str, list[Param]] = {}
    for function in tu.functions:
        if function.kind is not ir.FunctionKind.KERNEL or os.path.realpath(function.span.file) not in measured_files:
            continue
        params = [
            Param(p.name, p.type.spelling, p.type.kind in (ir.TypeKind.POINTER, ir.TypeKind.ARRAY))
            for p in function.params
        ]
        kernels.setdefault(function.display_name.replace(" ", ""), params)
        kernels.setdefault(function.name, params)
    return kernels


def corpus_headers(path: Path) -> list[Path]:
    """The headers a corpus file includes with quotes from its own directory tree, and the
    ones they include: kernels a case keeps in a header, to be judged with what its includer
    provides (typedefs, macros, the launch), are measured through that includer."""
    found: list[Path] = []
    pending = [path]
    while pending:
        current = pending.pop()
        for line in current.read_text(encoding="utf-8").splitlines():
            match = QUOTED_INCLUDE.match(line)
            if not match:
                continue
            header = (current.parent / match.group(1)).resolve()
            inside = header.is_relative_to(path.parent.resolve())
            if inside and header.suffix != ".cu" and header.is_file() and header not in found:
                found.append(header)
                pending.append(header)
    return found


def collect(path: Path, use_frontend: bool = True) -> list[Launch]:
    """The launches of one corpus file and of the corpus headers it includes, with their
    recorded measurements; each launch's ``path`` is the file that holds its launch line."""
    frontend_params = _frontend_params(path) if use_frontend else None
    launches = [launch for source in (path, *corpus_headers(path)) for launch in _launches_in(source, frontend_params)]
    _check_launches(path, launches)
    return launches


def _launches_in(path: Path, frontend_params) -> list[Launch]:
    """The launch lines of one file, each bound to the kernel defined below it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    definitions = _kernel_definitions(lines)
    launches: list[Launch] = []
    pending: list[Launch] = []
    next_definition = 0
    for index, line in enumerate(lines):
        while next_definition < len(definitions) and definitions[next_definition][0] < index:
            next_definition += 1
        if next_definition < len(definitions) and definitions[next_definition][0] == index:
            _, name, params = definitions[next_definition]
            for launch in pending:
                _bind(path, launch, name, params, frontend_params)
            launches.extend(pending)
            pending = []
        match = LAUNCH.match(line)
        if match:
            pending.append(_launch_at(path, lines, index, match))
        elif MEASURED.match(line) and not (index and LAUNCH.match(lines[index - 1])):
            raise HarnessError(f"{path}:{index + 1}: a measured line not right under a launch line")
    if pending:
        raise HarnessError(f"{path}:{pending[0].line + 1}: launch line without a kernel below it")
    return launches


def _bind(path: Path, launch: Launch, name: str, params, frontend_params) -> None:
    """Give a launch line the kernel defined below it, with that kernel's parameters."""
    if launch.base and launch.base != name:
        raise HarnessError(f"{path}:{launch.line + 1}: kernel={launch.kernel} above {name}")
    launch.base = name
    launch.kernel = launch.kernel or name
    launch.params = params
    if frontend_params is not None:
        key = launch.kernel.replace(" ", "")
        if key not in frontend_params and name not in frontend_params:
            raise HarnessError(f"{path}:{launch.line + 1}: cudalint sees no kernel {launch.kernel}")
        launch.params = frontend_params.get(key) or frontend_params[name]


def _launch_at(path: Path, lines: list[str], index: int, match: re.Match) -> Launch:
    """The launch line at ``index``, with the measured and synccheck lines right under it."""
    try:
        fields = parse_launch(match.group("body"))
    except HarnessError as error:
        raise HarnessError(f"{path}:{index + 1}: {error}") from None
    kernel = fields["kernel"] or ""
    launch = Launch(
        path=path,
        line=index,
        indent=match.group("indent"),
        kernel=kernel,
        base=kernel.split("<", 1)[0].strip(),
        grid=fields["grid"],
        block=fields["block"],
        bytes=fields["bytes"],
        args=fields["args"],
        shmem=fields["shmem"],
    )
    if index + 1 < len(lines):
        recorded = MEASURED.match(lines[index + 1])
        if recorded:
            launch.measured, launch.provenance = parse_measured(recorded.group("body"))
        below = index + (2 if recorded else 1)
        sync = SYNCCHECK.match(lines[below]) if below < len(lines) else None
        if sync:
            launch.synccheck = "hang" if sync.group("hang") else int(sync.group("errors"))
            launch.synccheck_provenance = sync.group("prov").strip()
    return launch


def _check_launches(path: Path, launches: list[Launch]) -> None:
    """Each kernel launched once, with arguments only for parameters it has."""
    seen = set()
    for launch in launches:
        if launch.kernel in seen:
            raise HarnessError(f"{path}: {launch.kernel} launched twice")
        seen.add(launch.kernel)
        names = {p.name for p in launch.params}
        for name in launch.args:
            if name not in names:
                raise HarnessError(f"{path}:{launch.line + 1}: {launch.kernel} has no parameter {name}")


def corpus_files(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for item in paths:
        path = Path(item)
        if path.is_dir():
            files.extend(sorted(path.rglob("*.cu")))
        elif path.is_file():
            files.append(path)
        else:
            raise HarnessError(f"no such file or directory: {item}")
    return files


def file_key(path: Path) -> str:
    """The file's name in saved CSVs: relative to the repository where it is inside it."""
    resolved = path.resolve()
    try:
        return resolved.relative_to(ROOT).as_posix()
    except ValueError:
        return resolved.as_posix()


# ---------------------------------------------------------------------------- driver


def driver_source(path: Path, launches: list[Launch]) -> str:
    pointers = max([sum(p.is_pointer for p in launch.params) for launch in launches] + [1])
    size = max([launch.bytes for launch in launches] + [1])
    out = [
        "// Generated by scripts/measure_gpu.py; do not edit.",
        "#include <cstdio>",
        "#include <cstdlib>",
        "#include <cuda_runtime.h>",
        f'#include "{path.resolve().as_posix()}"',
        "",
        "#define MG_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \\",
        '    fprintf(stderr, "measure_gpu: %s failed: %s\\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)',
        "",
        f"static void* mg_buffers[{pointers}];",
        "",
    ]
    for number, launch in enumerate(launches):
        out.append(f"static void mg_launch_{number}() {{  // {launch.kernel}")
        names = []
        pointer = 0
        for index, param in enumerate(launch.params):
            local = f"mg_p{index}"
            if param.is_pointer:
                out.append(f"    void* {local} = mg_buffers[{pointer}];")
                pointer += 1
            else:
                spelling = re.sub(r"\b(const|volatile|__restrict__|__restrict)\b", "", param.spelling).strip()
                value = launch.args.get(param.name, "0")
                out.append(f"    {spelling} {local} = ({spelling})({value});")
            names.append(f"&{local}")
        if not names:
            out.append("    void** mg_args = nullptr;")
        else:
            out.append(f"    void* mg_args[] = {{{', '.join(names)}}};")
        grid = ", ".join(map(str, launch.grid))
        block = ", ".join(map(str, launch.block))
        out.append(
            f"    MG_CHECK(cudaLaunchKernel((const void*)&{launch.kernel}, dim3({grid}), dim3({block}), mg_args, "
            f"{launch.shmem}, 0));"
        )
        out.append("    MG_CHECK(cudaDeviceSynchronize());")
        out.append("}")
        out.append("")
    out += [
        "int main(int argc, char** argv) {",
        "    // With an argument: run only that launch, once (synccheck mode).",
        "    int mg_only = argc > 1 ? atoi(argv[1]) : -1;",
        "    cudaDeviceProp prop;",
        "    MG_CHECK(cudaGetDeviceProperties(&prop, 0));",
        '    printf("measure_gpu device: %s\\n", prop.name);',
        f"    for (int b = 0; b < {pointers}; ++b) {{",
        f"        MG_CHECK(cudaMalloc(&mg_buffers[b], (size_t){size}ull));",
        f"        MG_CHECK(cudaMemset(mg_buffers[b], 0, (size_t){size}ull));",
        "    }",
        "    MG_CHECK(cudaDeviceSynchronize());",
        "    for (int round = 0; round < (mg_only < 0 ? 2 : 1); ++round) {  // warm-up, then the profiled round",
    ]
    out += [f"        if (mg_only < 0 || mg_only == {number}) mg_launch_{number}();" for number in range(len(launches))]
    out += [
        "    }",
        '    printf("measure_gpu done\\n");',
        "    return 0;",
        "}",
        "",
    ]
    return "\n".join(out)


# ---------------------------------------------------------------------------- tools


def run(command: list[str], timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout)


def tool(name: str, explicit: str | None) -> str:
    found = explicit or shutil.which(name)
    if not found:
        for folder in ("/usr/local/cuda/bin", "/usr/local/cuda/compute-sanitizer", "/opt/nvidia/nsight-compute"):
            candidate = Path(folder) / name
            if candidate.exists():
                return str(candidate)
        raise HarnessError(f"{name} not found (PATH, or --{name})")
    return found


def ncu_version(ncu: str) -> str:
    result = run([ncu, "--version"], timeout=60)
    match = re.search(r"Version\s+(\S+)", result.stdout)
    return match.group(1) if match else "unknown"


def query_metrics(ncu: str, save: Path | None) -> set[str] | None:
    """Metric names the attached GPU offers (full names and base names); None if unknown."""
    result = run([ncu, "--query-metrics", "--query-metrics-mode", "all"], timeout=120)
    text = result.stdout + result.stderr
    if save:
        save.write_text(text)
    names = set()
    for line in text.splitlines():
        word = line.split(None, 1)[0] if line.strip() else ""
        if "__" in word:
            names.add(word)
            names.add(word.rsplit(".", 1)[0])
    # A short list means the query did not work as expected: filter nothing then.
    return names if len(names) > 50 else None


def choose_metrics(available: set[str] | None) -> tuple[dict[str, str], list[str]]:
    """Short key -> ncu name for the metrics to collect, and notes on substitutions."""
    chosen, notes = {}, []
    for key, name in METRICS.items():
        candidates = [name] + ALTERNATIVES.get(key, [])
        if available is None:
            chosen[key] = name
            continue
        for candidate in candidates:
            if candidate in available or candidate.rsplit(".", 1)[0] in available:
                chosen[key] = candidate
                if candidate != name:
                    notes.append(f"{name} not offered, using {candidate}")
                break
        else:
            notes.append(f"{name} not offered by this ncu/GPU: dropped")
    return chosen, notes


SASS_MEMORY = re.compile(
    r"\b((?:LDG|STG|LDS|STS|LDSM|LDL|STL|LD|ST|ATOMS|ATOMG|ATOM|RED|LDGSTS|LDC)(?:\.[A-Z0-9_]+)*)\b"
)


def sass_summary(text: str, demangle) -> dict[str, str]:
    """Kernel (demangled name without parameters) -> 'LDG.E:1 STG.E:1' from cuobjdump -sass."""
    summary: dict[str, dict[str, int]] = {}
    current = None
    for line in text.splitlines():
        header = re.search(r"Function\s*:\s*(\S+)", line)
        if header:
            current = demangle(header.group(1))
            summary.setdefault(current, {})
            continue
        if current is None or "/*" not in line:
            continue
        instruction = line.split("*/", 1)[-1] if line.strip().startswith("/*") else line
        instruction = re.sub(r"/\*.*?\*/", "", instruction).strip().rstrip(";")
        if not instruction:
            continue
        words = instruction.split()
        if words[0].startswith("@"):
            words = words[1:]
        if not words:
            continue
        opcode = words[0]
        if SASS_MEMORY.fullmatch(opcode) and not opcode.startswith("LDC"):
            summary[current][opcode] = summary[current].get(opcode, 0) + 1
    return {name: " ".join(f"{op}:{n}" for op, n in sorted(ops.items())) for name, ops in summary.items()}


def make_demangler(cufilt: str | None):
    cache: dict[str, str] = {}

    def demangle(symbol: str) -> str:
        if symbol not in cache:
            name = symbol
            if cufilt:
                result = run([cufilt, symbol], timeout=30)
                if result.returncode == 0 and result.stdout.strip():
                    name = result.stdout.strip()
            name = re.sub(r"^void\s+", "", name)
            # cu++filt writes integral template arguments with a cast: k<(int)8>.
            name = re.sub(r"\((?:(?:unsigned|signed|long|short|int|char|bool)\s*)+\)(?=-?\d)", "", name)
            cache[symbol] = name.split("(", 1)[0].replace(" ", "")
        return cache[symbol]

    return demangle


def parse_ncu_csv(text: str) -> list[dict[str, object]]:
    """ncu --csv (details page) -> one dict per profiled launch: ID, name, metric values."""
    rows = [line for line in text.splitlines() if line.startswith('"')]
    if not rows:
        return []
    reader = csv.DictReader(io.StringIO("\n".join(rows)))
    launches: dict[str, dict[str, object]] = {}
    order: list[str] = []
    for row in reader:
        launch_id = row.get("ID")
        if launch_id is None or launch_id == "ID":
            continue
        if launch_id not in launches:
            launches[launch_id] = {"name": row.get("Kernel Name", ""), "device": row.get("Device", ""), "metrics": {}}
            order.append(launch_id)
        metric = row.get("Metric Name")
        if metric:
            value = (row.get("Metric Value") or "").replace(",", "").strip()
            try:
                launches[launch_id]["metrics"][metric] = float(value)
            except ValueError:
                launches[launch_id]["metrics"][metric] = None
    return [launches[i] for i in sorted(order, key=lambda x: int(x) if x.isdigit() else x)]


# ---------------------------------------------------------------------------- measuring


def build_drivers(
    plan: dict[Path, list[Launch]], args: argparse.Namespace, nvcc: str
) -> list[tuple[Path, Path | None, str | None]]:
    """(corpus file, driver binary or None, nvcc's complaint) for every file of the plan."""
    build = Path(args.build_dir) if args.build_dir else Path(tempfile.mkdtemp(prefix="measure_gpu_"))
    build.mkdir(parents=True, exist_ok=True)

    def compile_one(item):
        number, (path, launches) = item
        source = build / f"driver_{number}_{path.stem}.cu"
        binary = build / f"driver_{number}_{path.stem}"
        source.write_text(driver_source(path, launches))
        command = [nvcc, f"-arch={args.arch}", "-lineinfo", "-O3", "-o", str(binary), str(source)]
        result = run(command)
        if result.returncode != 0:
            return path, None, f"nvcc failed:\n{result.stdout}{result.stderr}"
        return path, binary, None

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        return list(pool.map(compile_one, enumerate(plan.items())))


@dataclass
class Result:
    raw: dict[str, float | None]
    """ncu metric name -> value."""
    warps: int
    sass: str = ""
    provenance: str = ""
    error: str | None = None


def measure(plan: dict[Path, list[Launch]], args: argparse.Namespace) -> dict[tuple[str, str], Result]:
    nvcc = tool("nvcc", args.nvcc)
    ncu = tool("ncu", args.ncu)
    cuobjdump = shutil.which("cuobjdump")
    cufilt = shutil.which("cu++filt")
    demangle = make_demangler(cufilt)
    version = ncu_version(ncu)
    available = query_metrics(ncu, Path(args.query_out) if args.query_out else None)
    chosen, notes = choose_metrics(available)
    for note in notes:
        print(f"measure_gpu: {note}", file=sys.stderr)
    built = build_drivers(plan, args, nvcc)

    results: dict[tuple[str, str], Result] = {}
    sass_log, raw_log = [], []
    for path, binary, error in built:
        launches = plan[path]
        if binary is None:
            print(f"measure_gpu: {path}: {error}", file=sys.stderr)
            for launch in launches:
                results[(file_key(path), launch.kernel)] = Result({}, launch.warps, error=error)
            continue
        sass = {}
        if cuobjdump:
            dump = run([cuobjdump, "-sass", str(binary)])
            sass_log.append(f"===== {file_key(path)}\n{dump.stdout}")
            sass = sass_summary(dump.stdout, demangle)
        n = len(launches)
        metrics = dict(chosen)
        for _attempt in range(4):
            command = [ncu, "--csv", "--metrics", ",".join(metrics.values()), "--launch-skip", str(n), str(binary)]
            started = time.monotonic()
            result = run(command, timeout=args.ncu_timeout)
            raw_log.append(
                f"===== {file_key(path)} ({time.monotonic() - started:.1f} s)\n$ {' '.join(command)}\n"
                f"{result.stdout}\n{result.stderr}"
            )
            errors = [line for line in (result.stdout + result.stderr).splitlines() if "ERROR" in line]
            rejected = [
                k
                for k, name in metrics.items()
                if result.returncode != 0 and any(name.rsplit(".", 1)[0] in line for line in errors)
            ]
            if not rejected:
                break
            for k in rejected:
                print(f"measure_gpu: ncu rejected {metrics.pop(k)}; retrying without it", file=sys.stderr)
            chosen = metrics
        device = re.search(r"measure_gpu device: (.*)", result.stdout)
        gpu = device.group(1).strip() if device else "unknown GPU"
        # The warm-up round is skipped; should ncu count other launches (memsets), the
        # profiled round is still the last n.
        profiled = parse_ncu_csv(result.stdout)[-n:]
        problem = None
        if result.returncode != 0 or len(profiled) != n:
            problem = (
                f"ncu exit {result.returncode}, {len(profiled)} of {n} launches profiled:\n{result.stderr[-2000:]}"
            )
            print(f"measure_gpu: {path}: {problem}", file=sys.stderr)
        for launch, row in zip(launches, profiled + [None] * (n - len(profiled)), strict=True):
            key = (file_key(path), launch.kernel)
            if row is None:
                results[key] = Result({}, launch.warps, error=problem or "not profiled")
                continue
            name = str(row["name"])
            if launch.base not in name:
                results[key] = Result({}, launch.warps, error=f"profiled launch is {name!r}")
                continue
            results[key] = Result(
                dict(row["metrics"]),
                launch.warps,
                sass=sass.get(launch.kernel.replace(" ", ""), ""),
                provenance=f"ncu {version}, {gpu}",
            )
    if args.sass_out:
        Path(args.sass_out).write_text("\n".join(sass_log))
    if args.raw_out:
        Path(args.raw_out).write_text("\n".join(raw_log))
    return results


def _raw(result: Result, key: str) -> float | None:
    for name in [METRICS[key]] + ALTERNATIVES.get(key, []):
        if result.raw.get(name) is not None:
            return result.raw[name]
    return None


def derive(result: Result) -> dict[str, float | None]:
    """The measured-line values of one launch."""

    def ratio(numerator: str, denominator: str) -> float | None:
        top, bottom = _raw(result, numerator), _raw(result, denominator)
        if top is None or not bottom:
            return None
        return top / bottom

    def per_warp(key: str) -> float | None:
        value = _raw(result, key)
        return None if value is None or not value or not result.warps else value / result.warps

    pred_on = _raw(result, "pred_on_ratio")
    if pred_on is None:
        pred_on = ratio("thread_inst_pred_on", "inst_executed")
    return {
        "gld_sectors_per_request": ratio("gld_sectors", "gld_requests"),
        "gst_sectors_per_request": ratio("gst_sectors", "gst_requests"),
        "shld_wavefronts_per_request": ratio("shld_wavefronts", "shld_insts"),
        "shst_wavefronts_per_request": ratio("shst_wavefronts", "shst_insts"),
        "bank_conflicts_ld": _raw(result, "bank_conflicts_ld"),
        "bank_conflicts_st": _raw(result, "bank_conflicts_st"),
        "branch_divergent_targets": _raw(result, "branch_divergent_targets"),
        "pred_on_ratio": pred_on,
        "gld_requests_per_warp": per_warp("gld_requests"),
        "gst_requests_per_warp": per_warp("gst_requests"),
        "shld_requests_per_warp": per_warp("shld_insts"),
        "shst_requests_per_warp": per_warp("shst_insts"),
    }


def format_value(key: str, value: float | None) -> str:
    if value is None:
        return "-"
    if key in COUNT_KEYS:
        return str(int(round(value)))
    return f"{value:.2f}"


def measured_body(result: Result) -> str:
    values = derive(result)
    text = " ".join(f"{key}={format_value(key, values[key])}" for key in KEYS)
    return f"{text} ({result.provenance})"


# ---------------------------------------------------------------------------- per source line


def measure_lines(plan: dict[Path, list[Launch]], args: argparse.Namespace) -> Path:
    """Profile the measured round of every driver with ncu's SourceCounters section and
    keep, under ``args.lines``, what the per-line sidecars are made from: for driver
    ``<stem>``, ``<stem>.source.csv`` (ncu's per-instruction source page),
    ``<stem>.disasm.txt`` (nvdisasm -gi) and ``manifest.json`` (corpus file and launches
    of each driver, ncu's version, the GPU)."""
    nvcc = tool("nvcc", args.nvcc)
    ncu = tool("ncu", args.ncu)
    target = Path(args.lines)
    target.mkdir(parents=True, exist_ok=True)
    manifest = {"ncu": ncu_version(ncu), "drivers": []}
    for path, binary, error in build_drivers(plan, args, nvcc):
        entry = {"file": file_key(path), "kernels": [launch.kernel for launch in plan[path]]}
        manifest["drivers"].append(entry)
        if binary is None:
            entry["error"] = error
            print(f"measure_gpu: {path}: {error}", file=sys.stderr)
            continue
        entry["stem"] = binary.name
        n = len(plan[path])
        entry.update(
            source_lines.profile_and_export(
                ncu,
                [str(binary)],
                target / binary.name,
                ["--launch-skip", str(n), "--launch-count", str(n)],
                timeout=args.ncu_timeout,
            )
        )
        (target / f"{binary.name}.disasm.txt").write_text(source_lines.disassemble(binary))
        (target / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return target


LINES_SUFFIX = ".lines.json"


def sidecar_path(path: Path) -> Path:
    """Where a corpus file's per-line figures live: ``<file>.lines.json`` beside it."""
    return path.with_name(path.name + LINES_SUFFIX)


def line_sidecars(plan: dict[Path, list[Launch]], directory: Path) -> tuple[dict[Path, dict], list[str]]:
    """Per corpus file of the plan, its per-line figures from ``measure_lines`` exports:
    ``{"measured": ..., "columns": [...], "lines": {"<line>": [figures]}}``, the lines of
    that file only (code the driver or a toolkit header contributes is left out); a corpus
    header it includes gets a sidecar of its own."""
    manifest = json.loads((directory / "manifest.json").read_text())
    by_name = {path.name: path for path in plan}
    sidecars, problems = {}, []
    for entry in manifest["drivers"]:
        path = by_name.get(Path(entry["file"]).name)
        stem = entry.get("stem")
        if path is None or stem is None or not (directory / f"{stem}.source.csv").exists():
            continue
        functions = source_lines.parse_disassembly((directory / f"{stem}.disasm.txt").read_text())
        profiled = source_lines.parse_source_export((directory / f"{stem}.source.csv").read_text())
        figures = source_lines.line_figures(functions, profiled, problems)
        log = directory / f"{stem}.ncu.log"
        device = re.search(r"measure_gpu device: (.*)", log.read_text()) if log.exists() else None
        for measured_file in (path, *corpus_headers(path)):
            lines = {
                location.line: line.row()
                for location, line in figures.items()
                if Path(location.file).name == measured_file.name
            }
            if lines:
                sidecars[measured_file] = {
                    "measured": f"ncu {manifest['ncu']}, {device.group(1).strip() if device else 'unknown GPU'}",
                    "columns": list(source_lines.COLUMNS),
                    "lines": {str(n): lines[n] for n in sorted(lines)},
                }
    return sidecars, problems


def format_sidecar(sidecar: dict) -> str:
    """JSON with one source line per text line, so that a re-measurement diffs line by line."""
    head = {key: value for key, value in sidecar.items() if not isinstance(value, dict)}
    parts = [f"  {json.dumps(key)}: {json.dumps(value)}" for key, value in head.items()]
    for key, value in sidecar.items():
        if isinstance(value, dict):
            body = ",\n".join(f"    {json.dumps(n)}: {json.dumps(v)}" for n, v in value.items())
            parts.append(f"  {json.dumps(key)}: {{\n{body}\n  }}" if value else f"  {json.dumps(key)}: {{}}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def read_sidecar(path: Path) -> dict | None:
    sidecar = sidecar_path(path)
    return json.loads(sidecar.read_text()) if sidecar.exists() else None


def write_sidecars(sidecars: dict[Path, dict]) -> int:
    for path, sidecar in sidecars.items():
        previous = read_sidecar(path) or {}
        merged = {**previous, **sidecar}
        sidecar_path(path).write_text(format_sidecar(merged))
    return len(sidecars)


def barrier_sidecars(plan: dict[Path, list[Launch]], results: dict[tuple[str, str], SyncResult]) -> dict[Path, dict]:
    """Per corpus file, the lines synccheck reported barrier errors at (the innermost
    frame in that file), and what measured them."""
    sidecars = {}
    for path, launches in plan.items():
        errors: dict[int, int] = {}
        provenance = ""
        for launch in launches:
            result = results.get((file_key(path), launch.kernel))
            if result is None or result.errors is None:
                continue
            provenance = result.provenance
            for frames in source_lines.synccheck_errors(result.log):
                line = next((n for file, n in frames if Path(file).name == path.name), None)
                if line is not None:
                    errors[line] = errors.get(line, 0) + 1
        if provenance:
            sidecars[path] = {"synccheck": provenance, "barrier_errors": {str(n): errors[n] for n in sorted(errors)}}
    return sidecars


# ---------------------------------------------------------------------------- CSV


def save_csv(results: dict[tuple[str, str], Result], target: Path) -> None:
    with target.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["file", "kernel", "key", "value"])
        for (path, kernel), result in sorted(results.items()):
            if result.error:
                writer.writerow([path, kernel, "error", result.error])
                continue
            writer.writerow([path, kernel, "provenance", result.provenance])
            writer.writerow([path, kernel, "warps", result.warps])
            writer.writerow([path, kernel, "sass", result.sass])
            for name, value in sorted(result.raw.items()):
                writer.writerow([path, kernel, name, "" if value is None else repr(value)])


def load_csv(source: Path) -> dict[tuple[str, str], Result]:
    results: dict[tuple[str, str], Result] = {}
    with source.open(newline="") as handle:
        for row in csv.DictReader(handle):
            key = (row["file"], row["kernel"])
            result = results.setdefault(key, Result({}, 0))
            name, value = row["key"], row["value"]
            if name == "provenance":
                result.provenance = value
            elif name == "warps":
                result.warps = int(value)
            elif name == "sass":
                result.sass = value
            elif name == "error":
                result.error = value
            else:
                result.raw[name] = float(value) if value else None
    return results


# ---------------------------------------------------------------------------- write / check


def _edit_under_launches(plan: dict[Path, list[Launch]], edit) -> int:
    """Apply ``edit(driver_path, launch, lines)`` (True when it wrote a line) to every
    launch, bottom up, in whichever file holds its launch line; the number written."""
    written = 0
    for path, launches in plan.items():
        for source in dict.fromkeys(launch.path for launch in launches):
            lines = source.read_text(encoding="utf-8").splitlines()
            held = sorted((item for item in launches if item.path == source), key=lambda item: item.line, reverse=True)
            written += sum(edit(path, launch, lines) for launch in held)
            source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return written


def _put_line(lines: list[str], index: int, recorded: re.Pattern, text: str) -> None:
    """``text`` at ``index``: in place of the record there (a line ``recorded`` matches), else inserted."""
    if index < len(lines) and recorded.match(lines[index]):
        lines[index] = text
    else:
        lines.insert(index, text)


def write_records(plan: dict[Path, list[Launch]], results: dict[tuple[str, str], Result]) -> int:
    def record(path: Path, launch: Launch, lines: list[str]) -> bool:
        result = results.get((file_key(path), launch.kernel))
        if result is None or result.error:
            return False
        _put_line(lines, launch.line + 1, MEASURED, f"{launch.indent}// measured: {measured_body(result)}")
        return True

    return _edit_under_launches(plan, record)


def close(recorded: float | None, measured: float | None, tolerance: float) -> bool:
    if recorded is None or measured is None:
        return recorded is None and measured is None
    return abs(recorded - measured) <= max(0.01, tolerance * abs(measured))


def check_records(
    plan: dict[Path, list[Launch]], results: dict[tuple[str, str], Result], tolerance: float
) -> list[str]:
    problems = []
    for path, launches in plan.items():
        for launch in launches:
            where = f"{file_key(path)}:{launch.line + 1} {launch.kernel}"
            result = results.get((file_key(path), launch.kernel))
            if result is None or result.error:
                problems.append(f"{where}: no measurement ({result.error if result else 'missing'})")
                continue
            if launch.measured is None:
                problems.append(f"{where}: no measured line")
                continue
            values = derive(result)
            for key in KEYS:
                # Conflict totals vary a little from run to run where blocks are large
                # (sm_tile33: 373, then 313 of 32768 requests); allow 1% of the requests.
                slack = {"bank_conflicts_ld": "shld_insts", "bank_conflicts_st": "shst_insts"}.get(key)
                requests = (_raw(result, slack) or 0) if slack else 0
                if key not in launch.measured:
                    problems.append(f"{where}: {key} not recorded")
                elif not close(launch.measured[key], values[key], tolerance) and not (
                    launch.measured[key] is not None
                    and values[key] is not None
                    and abs(launch.measured[key] - values[key]) <= 0.01 * requests
                ):
                    problems.append(
                        f"{where}: {key} recorded {format_value(key, launch.measured[key])}, "
                        f"measured {format_value(key, values[key])}"
                    )
    return problems


def print_table(plan: dict[Path, list[Launch]], results: dict[tuple[str, str], Result]) -> None:
    short = {
        "gld_sectors_per_request": "gld_s/r",
        "gst_sectors_per_request": "gst_s/r",
        "shld_wavefronts_per_request": "shld_w/r",
        "shst_wavefronts_per_request": "shst_w/r",
        "bank_conflicts_ld": "bc_ld",
        "bank_conflicts_st": "bc_st",
        "branch_divergent_targets": "div",
        "pred_on_ratio": "pred_on",
        "gld_requests_per_warp": "gld_r/w",
        "gst_requests_per_warp": "gst_r/w",
        "shld_requests_per_warp": "shld_r/w",
        "shst_requests_per_warp": "shst_r/w",
    }
    width = max([len(launch.kernel) for ls in plan.values() for launch in ls] + [6])
    print(f"{'kernel':<{width}}  " + " ".join(f"{short[k]:>8}" for k in KEYS) + "  sass")
    for path, launches in plan.items():
        print(f"# {file_key(path)}")
        for launch in launches:
            result = results.get((file_key(path), launch.kernel))
            if result is None or result.error:
                print(f"{launch.kernel:<{width}}  ERROR {result.error if result else 'missing'}")
                continue
            values = derive(result)
            cells = " ".join(f"{format_value(k, values[k]):>8}" for k in KEYS)
            print(f"{launch.kernel:<{width}}  {cells}  {result.sass}")


# ---------------------------------------------------------------------------- synccheck


@dataclass
class SyncResult:
    errors: int | str | None
    """The sanitizer's error count, "hang" where it outran the timeout, None: no verdict."""
    plain: str
    """The plain run: "ok", "hang" or what went wrong."""
    provenance: str = ""
    log: str = ""


def _timed(command: list[str], seconds: float) -> tuple[int | None, str]:
    """Exit status (None: timed out) and output of a command under coreutils timeout."""
    wrapped = ["timeout", "-k", "5", str(int(seconds))] + command
    try:
        result = subprocess.run(wrapped, capture_output=True, text=True, timeout=seconds + 30)
    except subprocess.TimeoutExpired as expired:
        return None, f"{expired.stdout or ''}{expired.stderr or ''}"
    code = None if result.returncode in (124, 137) else result.returncode
    return code, result.stdout + result.stderr


def synccheck(plan: dict[Path, list[Launch]], args: argparse.Namespace) -> dict[tuple[str, str], SyncResult]:
    nvcc = tool("nvcc", args.nvcc)
    sanitizer = tool("compute-sanitizer", args.sanitizer)
    version_text = run([sanitizer, "--version"], timeout=60).stdout
    version = re.search(r"Version\s+(\S+)", version_text)
    version = version.group(1) if version else "unknown"
    build = Path(args.build_dir) if args.build_dir else Path(tempfile.mkdtemp(prefix="synccheck_"))
    build.mkdir(parents=True, exist_ok=True)
    results: dict[tuple[str, str], SyncResult] = {}
    for number, (path, launches) in enumerate(plan.items()):
        source = build / f"sync_{number}_{path.stem}.cu"
        binary = build / f"sync_{number}_{path.stem}"
        source.write_text(driver_source(path, launches))
        # -G is left out: the barriers are compiled as in a release build.
        built = run([nvcc, f"-arch={args.arch}", "-lineinfo", "-O3", "-o", str(binary), str(source)])
        if built.returncode != 0:
            print(f"measure_gpu: {path}: nvcc failed:\n{built.stdout}{built.stderr}", file=sys.stderr)
            for launch in launches:
                results[(file_key(path), launch.kernel)] = SyncResult(None, "not built")
            continue
        for index, launch in enumerate(launches):
            code, output = _timed([str(binary), str(index)], args.sync_timeout)
            plain = (
                "hang"
                if code is None
                else "ok"
                if code == 0
                else ((re.findall(r"measure_gpu: .*", output) or [f"exit {code}"])[-1])
            )
            device = re.search(r"measure_gpu device: (.*)", output)
            code, log = _timed(
                [sanitizer, "--tool", "synccheck", "--print-limit", "1000", str(binary), str(index)], args.sync_timeout
            )
            summary = re.search(r"ERROR SUMMARY:\s*(\d+)", log)
            device = device or re.search(r"measure_gpu device: (.*)", log)
            gpu = device.group(1).strip() if device else "unknown GPU"
            errors: int | str | None = "hang" if code is None else int(summary.group(1)) if summary else None
            results[(file_key(path), launch.kernel)] = SyncResult(
                errors, plain, f"compute-sanitizer {version}, {gpu}", f"===== {launch.kernel}\n{log}"
            )
    if args.raw_out:
        Path(args.raw_out).write_text("\n".join(r.log for r in results.values()))
    return results


def synccheck_line(result: SyncResult) -> str:
    verdict = "hang" if result.errors == "hang" else f"errors={result.errors}"
    return f"// synccheck: {verdict} ({result.provenance})"


def write_synccheck(plan: dict[Path, list[Launch]], results: dict[tuple[str, str], SyncResult]) -> int:
    def record(path: Path, launch: Launch, lines: list[str]) -> bool:
        result = results.get((file_key(path), launch.kernel))
        if result is None or result.errors is None:
            return False
        below = launch.line + 1
        if below < len(lines) and MEASURED.match(lines[below]):
            below += 1
        _put_line(lines, below, SYNCCHECK, launch.indent + synccheck_line(result))
        return True

    return _edit_under_launches(plan, record)


def print_synccheck(plan: dict[Path, list[Launch]], results: dict[tuple[str, str], SyncResult]) -> None:
    width = max([len(launch.kernel) for ls in plan.values() for launch in ls] + [6])
    print(f"{'kernel':<{width}}  {'synccheck':>10}  plain run")
    for path, launches in plan.items():
        print(f"# {file_key(path)}")
        for launch in launches:
            result = results.get((file_key(path), launch.kernel))
            if result is None:
                print(f"{launch.kernel:<{width}}  missing")
                continue
            print(f"{launch.kernel:<{width}}  {str(result.errors):>10}  {result.plain}  ({result.provenance})")


def save_synccheck_csv(results: dict[tuple[str, str], SyncResult], target: Path) -> None:
    with target.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["file", "kernel", "synccheck", "plain", "provenance"])
        for (path, kernel), result in sorted(results.items()):
            writer.writerow([path, kernel, result.errors, result.plain, result.provenance])


# ---------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("paths", nargs="+", help="corpus .cu files or folders")
    parser.add_argument("--write", action="store_true", help="rewrite (or add) the measured lines")
    parser.add_argument(
        "--check", action="store_true", help="exit 1 when a recorded value differs from the measurement"
    )
    parser.add_argument("--from-csv", metavar="CSV", help="take the measurement from a saved CSV")
    parser.add_argument("--save-csv", metavar="CSV", help="save the measurement")
    parser.add_argument("--raw-out", metavar="FILE", help="save ncu's own output")
    parser.add_argument("--sass-out", metavar="FILE", help="save cuobjdump -sass of the drivers")
    parser.add_argument("--query-out", metavar="FILE", help="save ncu --query-metrics")
    parser.add_argument("--generate-only", metavar="DIR", help="write the driver sources and stop")
    parser.add_argument("--build-dir", metavar="DIR", help="where drivers are built (default: a temp dir)")
    parser.add_argument("--no-frontend", action="store_true", help="read kernel parameters without cudalint")
    parser.add_argument("--arch", default=DEFAULT_ARCH)
    parser.add_argument("--nvcc")
    parser.add_argument("--ncu")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 4)
    parser.add_argument("--ncu-timeout", type=float, default=400)
    parser.add_argument("--tolerance", type=float, default=0.02, help="relative tolerance of --check")
    parser.add_argument(
        "--synccheck", action="store_true", help="run each launch under compute-sanitizer --tool synccheck (no ncu)"
    )
    parser.add_argument("--sanitizer", help="compute-sanitizer to use")
    parser.add_argument("--sync-timeout", type=float, default=15, help="seconds per synccheck or plain run")
    parser.add_argument(
        "--lines",
        metavar="DIR",
        help="profile per source line (SourceCounters), keep the exports in DIR and write "
        "each file's <file>.lines.json",
    )
    parser.add_argument(
        "--lines-from",
        metavar="DIR",
        help="write the <file>.lines.json sidecars from the exports an earlier --lines kept",
    )
    args = parser.parse_args(argv)

    try:
        plan = {path: collect(path, not args.no_frontend) for path in corpus_files(args.paths)}
        plan = {path: launches for path, launches in plan.items() if launches}
        if args.generate_only:
            target = Path(args.generate_only)
            target.mkdir(parents=True, exist_ok=True)
            for number, (path, launches) in enumerate(plan.items()):
                (target / f"driver_{number}_{path.stem}.cu").write_text(driver_source(path, launches))
            print(f"{sum(map(len, plan.values()))} launches in {len(plan)} drivers under {target}")
            return 0
        if args.lines or args.lines_from:
            directory = measure_lines(plan, args) if args.lines else Path(args.lines_from)
            sidecars, problems = line_sidecars(plan, directory)
            for problem in problems:
                print(f"measure_gpu: {problem}", file=sys.stderr)
            print(f"wrote {write_sidecars(sidecars)} per-line sidecars", file=sys.stderr)
            return 1 if problems else 0
        if args.synccheck:
            synced = synccheck(plan, args)
            if args.save_csv:
                save_synccheck_csv(synced, Path(args.save_csv))
            print_synccheck(plan, synced)
            if args.write:
                print(f"wrote {write_synccheck(plan, synced)} synccheck lines", file=sys.stderr)
                print(f"wrote {write_sidecars(barrier_sidecars(plan, synced))} per-line sidecars", file=sys.stderr)
            return 1 if any(r.errors is None for r in synced.values()) else 0
        if args.from_csv:
            results = load_csv(Path(args.from_csv))
        else:
            results = measure(plan, args)
        if args.save_csv:
            save_csv(results, Path(args.save_csv))
        print_table(plan, results)
        if args.check:
            problems = check_records(plan, results, args.tolerance)
            for problem in problems:
                print(problem, file=sys.stderr)
            return 1 if problems else 0
        if args.write:
            print(f"wrote {write_records(plan, results)} measured lines", file=sys.stderr)
        failed = sum(1 for result in results.values() if result.error)
        return 1 if failed else 0
    except HarnessError as error:
        print(f"measure_gpu: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
