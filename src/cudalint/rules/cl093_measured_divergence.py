"""CL093 measured-divergence: a branch whose lanes the profiler measured going different
ways at a cost, where no rule has a finding.

The rule's documentation is its class docstring (docs/rules/CL093.md is generated from
it); this module holds what the rule reads of the facts and how it words a finding.
"""

from __future__ import annotations

from cudalint.diagnostics import Level
from cudalint.rules.base import MeasuredRule


class MeasuredDivergence(MeasuredRule):
    """A branch whose lanes the profiler measured going different ways at a cost, where no rule has a finding.

    ## What it does
    Only with `cudalint check --profile FILE`: a branch line is measured divergent when
    at least 5% of its branch executions diverged, or when the body of its `if` or
    `switch` ran predicated with lanes switched off (predicated-on thread instructions
    below 90% of the active ones, relative to the branch line itself), and the lane
    slots left idle in the statement are at least 0.5% of those its function issued (a
    one-lane store or a loop's ragged last round diverges but costs next to nothing).
    The statement and its bodies come from cudalint's parse of the file. Where CL301
    does not report the line at any level, this rule does, with the measured figures and
    the condition as cudalint sees it (what it depends on: data each thread loaded, a
    size known only at run time).

    A CL301 finding on the line is joined instead (confirmed notes become warnings with
    the measured figures; refuted notes stay notes marked measured-clean; contradicted
    warnings are kept and marked `measured: clean in this run`).

    ## Why is this bad?
    A warp runs one instruction stream: while some of its lanes take a path, the others
    idle, so a split warp pays for both sides.

    ## Example
    Whether the lanes disagree depends on the data: the analysis reports a CL301 note at
    most, which the measurement raises to a warning or drops; CL093 reports such a line
    when the analysis has nothing on it (a condition it cannot follow).
    ```cuda
    __global__ void threshold(float* a, const float* x, float t) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (x[i] > t) a[i] = sqrtf(a[i]) * expf(a[i]);
    }
    ```

    ## Use instead
    ```cuda
    __global__ void threshold(float* a, const float* x, float t) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        float v = sqrtf(a[i]) * expf(a[i]);
        a[i] = x[i] > t ? v : a[i];
    }
    ```
    """

    code = "CL093"
    name = "measured-divergence"
    category = "control-flow"
    default_level = Level.WARNING
    precision = "very-high"
    tags = ("performance", "divergence", "measured")
    hazard_class = "divergence"
