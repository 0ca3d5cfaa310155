"""The math library's slow paths (dataflow/math_paths.py): which calls keep state in local
memory, measured against ptxas, and where their arguments come from."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import CORPUS
from cudalint.profile import source_lines

MATH = CORPUS / "registers" / "math_slow_paths.cu"
_PTXAS = re.compile(r"^// ptxas: registers=\d+ stack=(\d+)")
_KERNEL = re.compile(r"^__global__ void (\w+)\(")


def _stacks() -> dict[str, int]:
    """ptxas's stack frame of each kernel of the corpus file, by name."""
    stacks, pending = {}, None
    for line in MATH.read_text().splitlines():
        if match := _PTXAS.match(line):
            pending = int(match.group(1))
        elif (match := _KERNEL.match(line)) and pending is not None:
            stacks[match.group(1)] = pending
            pending = None
    return stacks


def test_local_memory_lines_in_the_sass(corpus_results):
    """Where the SASS puts the slow paths' local loads and stores (nvdisasm -gi): the float
    reduction, inlined, on the line of the call, where CL504 reports it; the double one's
    call sequence on the kernel's closing line, which CL504 names by its call."""
    from cudalint.dataflow import Facts
    from cudalint.rules import implemented
    from test_registers import NVCC, _local_memory_lines

    nvdisasm = source_lines.find_tool("nvdisasm")
    if nvdisasm is None or NVCC is None:
        pytest.skip("nvcc or nvdisasm is not available")
    truth = _local_memory_lines(MATH, nvdisasm)
    facts = Facts(corpus_results.unit(MATH, "embedded"))
    findings = list(implemented()["CL504"]().check(facts))
    for kernel in facts.kernels:
        reported = {f.span.line for f in findings if f.function == kernel.function.display_name}
        sass = truth.get(kernel.label, set())
        if not kernel.math_slow_paths:
            assert not sass, kernel.label
        elif kernel.math_slow_paths[0].double:
            assert sass == {kernel.function.body.span.end_line}, kernel.label
        else:
            assert sass == reported, kernel.label


def test_predicted_frames_match_ptxas(corpus_results, header_mode):
    from cudalint.dataflow import Facts

    facts = Facts(corpus_results.unit(MATH, header_mode))
    stacks = _stacks()
    assert len(stacks) == 5
    for kernel in facts.kernels:
        paths = kernel.math_slow_paths
        predicted = max((path.frame_bytes for path in paths), default=0)
        assert predicted == stacks[kernel.function.name], kernel.function.name


SOURCE = """
__device__ double2 unit(double phi) { return make_double2(cos(phi), sin(phi)); }
__global__ void tabled(double2* out) {
    const int order[] = {0, 4, 2, 6, 1, 5, 3, 7};
    for (int j = 0; j < 8; j++) out[j * 64 + threadIdx.x] = unit(-6.283185307179586 * order[j] * threadIdx.x / 512);
}
__global__ void scaled(double2* out, double frequency) {
    double phase = frequency * threadIdx.x;
    out[threadIdx.x] = unit(phase);
}
__global__ void one_float_call(const float* in, float* out) { out[threadIdx.x] = sin(in[threadIdx.x]); }
__global__ void float_pair(const float* in, float* out) {
    float s, c;
    sincos(in[threadIdx.x], &s, &c);
    out[threadIdx.x] = s * cosf(in[threadIdx.x + 1]);
}
"""


def test_argument_provenance_and_overloads(snippets):
    facts = snippets.facts(SOURCE)
    paths = {k.function.name: k.math_slow_paths for k in facts.kernels}
    # A table of constants indexed by a counter, times the thread index: bounded as far as we read.
    assert [p.unbounded for p in paths["tabled"]] == [None, None]
    # Through a local and the helper's parameter, to the kernel's parameter.
    assert [p.unbounded for p in paths["scaled"]] == ["kernel parameter 'frequency'"] * 2
    assert all(p.double and p.frame_bytes == 40 for p in paths["scaled"])
    # sin(float) is sinf: one call site keeps the table in registers.
    assert paths["one_float_call"] == []
    # sincos(float) and cosf: two float call sites, 32 bytes.
    assert [(p.function, p.frame_bytes, p.unbounded) for p in paths["float_pair"]] == [
        ("sincosf", 32, "read from memory"),
        ("cosf", 32, "read from memory"),
    ]


def test_warnings_are_the_kernels_the_hardware_ran_local_memory_in(corpus_results):
    """Nsight Compute on an H200 (tests/gpu/math_local_ncu.csv), every kernel over 2^20
    phases that take the slow path where one is compiled in (|x| >= 1e10 in double, >= 1e6
    in float): local loads and stores ran exactly in the kernels CL504 warns about; the
    twiddle factors, noted, ran none."""
    import csv

    from cudalint.dataflow import Facts
    from cudalint.diagnostics import Level
    from cudalint.rules import implemented

    with (Path(__file__).parent / "gpu" / "math_local_ncu.csv").open(newline="") as handle:
        measured = {row["kernel"]: row for row in csv.DictReader(handle)}
    facts = Facts(corpus_results.unit(MATH, "embedded"))
    findings = list(implemented()["CL504"]().check(facts))
    warned = {f.function for f in findings if f.level is Level.WARNING}
    ran_local = {
        name
        for name, row in measured.items()
        if int(row["local_load_instructions"]) + int(row["local_store_instructions"])
    }
    assert set(measured) == {k.function.name for k in facts.kernels}
    assert warned == ran_local == {"rotate", "polar_float"}
