"""CL095 measured-local-memory: a line whose compiled code loads or stores local memory,
where no rule has a finding.

The rule's documentation is its class docstring (docs/rules/CL095.md is generated from
it); this module holds what the rule reads of the facts and how it words a finding.
"""

from __future__ import annotations

from cudalint.diagnostics import Level
from cudalint.rules.base import MeasuredRule


class MeasuredLocalMemory(MeasuredRule):
    """A line whose compiled code loads or stores local memory, where no rule has a finding.

    ## What it does
    Only with `cudalint check --profile FILE`: the SASS of the profiled binary shows local
    memory instructions (`LDL`, `STL`) on the line: a per-thread array the compiler could
    not keep in registers (indexed with a value it cannot resolve at compile time), or
    spill code the register allocator placed there. Where CL502 does not report the line
    at any level, this rule does, with the instruction count and, when the line executed,
    how often.

    A CL502 finding on the line is joined instead: a note the SASS confirms becomes a
    warning, one it refutes is kept as a measured-clean note, a warning it contradicts is
    kept and marked `measured: clean in this run`.

    ## Why is this bad?
    Local memory lives in device memory behind L1: every access has global-memory
    latency, and spills and local arrays compete with the kernel's real traffic.

    ## Example
    `__launch_bounds__(1024, 2)` leaves 32 registers a thread on sm_90; the 32 taps need
    more, and ptxas spills them (CL501 warns on the kernel; the spill code's `STL` and
    `LDL` land on the lines that load and use the taps, where CL095 reports them).
    ```cuda
    __global__ void __launch_bounds__(1024, 2) taps(float* out, const float* in, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        float w[32];
    #pragma unroll
        for (int k = 0; k < 32; ++k) w[k] = in[i + k * n];
        float s = 0.0f;
    #pragma unroll
        for (int k = 0; k < 32; ++k) s += w[k] * w[31 - k] * w[(k + 5) % 32];
        out[i] = s;
    }
    ```

    ## Use instead
    One block of 1024 threads per SM leaves 64 registers a thread: no spills.
    ```cuda
    __global__ void __launch_bounds__(1024, 1) taps(float* out, const float* in, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        float w[32];
    #pragma unroll
        for (int k = 0; k < 32; ++k) w[k] = in[i + k * n];
        float s = 0.0f;
    #pragma unroll
        for (int k = 0; k < 32; ++k) s += w[k] * w[31 - k] * w[(k + 5) % 32];
        out[i] = s;
    }
    ```
    """

    code = "CL095"
    name = "measured-local-memory"
    category = "registers"
    default_level = Level.WARNING
    precision = "very-high"
    tags = ("performance", "memory", "measured")
    hazard_class = "local"
