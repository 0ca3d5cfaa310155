"""CL094 measured-fp64: a line whose compiled code promotes floats to double and computes in
fp64, where no rule has a finding.

The rule's documentation is its class docstring (docs/rules/CL094.md is generated from
it); this module holds what the rule reads of the facts and how it words a finding.
"""

from __future__ import annotations

from cudalint.diagnostics import Level
from cudalint.rules.base import MeasuredRule


class MeasuredFp64(MeasuredRule):
    """A line whose compiled code promotes floats to double and computes in fp64, where no rule has a finding.

    ## What it does
    Only with `cudalint check --profile FILE`: the SASS of the profiled binary (`nvdisasm
    -gi`, the line table of a `-lineinfo` build) shows, on the line, float-to-double
    conversions (`F2F.F64.F32`) and fp64 arithmetic beyond them (`DADD`, `DMUL`, `DFMA`,
    fp64 comparisons and conversions). That is float data run through the fp64 pipe;
    code written in double throughout is not reported. Where CL401 does not report the
    line at any level, this rule does, with the instruction counts.

    A CL401 finding on the line is joined instead: a note the SASS confirms becomes a
    warning, one it refutes is kept as a measured-clean note, a warning it contradicts is
    kept and marked `measured: clean in this run`.

    ## Why is this bad?
    Consumer and workstation GPUs run fp64 at 1/32 or 1/64 of the fp32 rate; even data
    center parts halve it, and every promotion costs a conversion.

    ## Example
    A helper returning double promotes the float product: `F2F.F64.F32`, then `DMUL` and the
    fp64 reciprocal on the kernel's line (the helper is inlined there).
    ```cuda
    __device__ double weight(int k) { return 1.0 / (k + 1); }

    __global__ void smooth(float* a, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) a[i] = a[i] * weight(i % 8);
    }
    ```

    ## Use instead
    ```cuda
    __device__ float weight(int k) { return 1.0f / (k + 1); }

    __global__ void smooth(float* a, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) a[i] = a[i] * weight(i % 8);
    }
    ```
    """

    code = "CL094"
    name = "measured-fp64"
    category = "precision"
    default_level = Level.WARNING
    precision = "very-high"
    tags = ("performance", "precision", "measured")
    hazard_class = "fp64"
