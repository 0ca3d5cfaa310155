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
    ```cuda
    __global__ void gather(float* out, const float* in, const int* col, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) out[i] = in[col[i]];
    }
    ```

    ## Use instead
    ```cuda
    __global__ void gather(float* out, const float* in, const int* col, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) out[i] = in[i];
    }
    ```
    (When the gather is the algorithm, sort or bucket the indices on the host so that a
    warp's lanes read neighbouring elements.)
    """

    code = "CL091"
    name = "measured-excess-sectors"
    category = "global-memory"
    default_level = Level.WARNING
    precision = "very-high"
    tags = ("performance", "memory", "measured")
    hazard_class = "global"
