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
    ```cuda
    __global__ void pick(float* out, const int* which) {
        float v[8];
        for (int k = 0; k < 8; ++k) v[k] = k * threadIdx.x;
        out[threadIdx.x] = v[which[threadIdx.x] & 7];
    }
    ```

    ## Use instead
    ```cuda
    __global__ void pick(float* out, const int* which) {
        int k = which[threadIdx.x] & 7;
        out[threadIdx.x] = k * threadIdx.x;
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
