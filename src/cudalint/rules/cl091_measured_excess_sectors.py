"""CL091 measured-excess-sectors: global accesses the profiler measured at twice their ideal
sectors or more, where no rule has a finding.

The rule's documentation is its class docstring (docs/rules/CL091.md is generated from
it); this module holds what the rule reads of the facts and how it words a finding.
"""

from __future__ import annotations

from cudalint.diagnostics import Level
from cudalint.rules.base import MeasuredRule


class MeasuredExcessSectors(MeasuredRule):
    """Global accesses the profiler measured at twice their ideal sectors or more, where no rule has a finding.

    ## What it does
    Only with `cudalint check --profile FILE` (a measured-lines file written by
    `cudalint profile`): on each source line, Nsight Compute's SourceCounters give every
    global load and store instruction the L2 sectors it moved and the sectors an ideally
    coalesced access of the same size would move. Where one significant access of the line
    (moving at least a tenth of the sectors of the line's busiest access) moved 1.95 times
    its ideal or more (a warp's 128 bytes spread over twice the sectors they need, or
    worse) and neither CL101 nor CL102 reports the line at any level, this rule does,
    with the measured ratio and what cudalint derived for the line's accesses: the
    address formula, the values it depends on that only the run knows (`col[j]`, a
    stride passed at run time), or that it derived nothing (an access through code it
    does not model).

    A CL101 or CL102 finding on the line is not repeated here: a note the measurement
    confirms is raised to a warning carrying the measured ratio, one it refutes is kept
    as a note marked measured-clean (shown with `--min-level note`), and a warning it
    contradicts is kept and marked `measured: clean in this run`.

    ## Why is this bad?
    Each sector beyond the ideal is DRAM or L2 bandwidth spent on bytes no lane asked
    for: a 4x line moves four times the traffic its data needs.

    ## Example
    A 2-D block whose shape only the run knows: with `width` 4, a warp spans eight rows of
    4 lanes, eight sectors where four would do (measured 2x); the analysis assumes
    `blockDim.x` a multiple of 32 and sees a coalesced access.
    ```cuda
    __global__ void rows(float* out, const float* a, int n) {
        int row = blockIdx.y * blockDim.y + threadIdx.y;
        int col = blockIdx.x * blockDim.x + threadIdx.x;
        out[row * n + col] = 2.0f * a[row * n + col];
    }

    void scale_rows(float* out, const float* a, int n, int width) {
        rows<<<dim3(n / width, n / 64), dim3(width, 64)>>>(out, a, n);
    }
    ```

    ## Use instead
    Rows of 32 lanes: a warp reads 128 contiguous bytes.
    ```cuda
    __global__ void rows(float* out, const float* a, int n) {
        int row = blockIdx.y * blockDim.y + threadIdx.y;
        int col = blockIdx.x * blockDim.x + threadIdx.x;
        out[row * n + col] = 2.0f * a[row * n + col];
    }

    void scale_rows(float* out, const float* a, int n) {
        rows<<<dim3(n / 32, n / 8), dim3(32, 8)>>>(out, a, n);
    }
    ```
    """

    code = "CL091"
    name = "measured-excess-sectors"
    category = "global-memory"
    default_level = Level.WARNING
    precision = "very-high"
    tags = ("performance", "memory", "measured")
    hazard_class = "global"
